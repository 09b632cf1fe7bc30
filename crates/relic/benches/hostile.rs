//! Hostile inputs of issue #23 whose time grew faster than their size: each is built here at four sizes
//! (n, 2n, 4n, 8n) and run through what the CLI (or the viewer) calls, so that the scaling shows as the
//! ratio between neighbouring sizes (≈ 2 per doubling is linear; the findings were cubic and quadratic).
//!
//! - `lnk_info`, `lnk_convert`: an Evil Islands LNK chain of n parts, each hanging from the next one stored
//!   (every parent comes later in the file), through `ops::info` and `ops::convert` (the scene built and
//!   written as glTF). The file had 4000 parts: `info` did not finish in 60 s.
//! - `res_info`, `res_to_json`: an EI RES of n empty entries whose names all hash to one slot that loops
//!   on itself, through `ops::info` (the reachability check) and the format's `to_json` (what
//!   `convert --to json` writes). The file had 50,000 names: `info` took 11 s.
//! - `spr_info`: a Dark Reign sprite of n bytes of zero run counts with n/256 pictures starting in them,
//!   through `ops::info`. The 1 MB file took 1.8 GB (every picture walked to the end of the data).
//! - `ftg_convert`: a Dark Reign FTG whose n entries share one sprite, through `ops::convert` (each shared
//!   entry's files are written under its name without being converted again). The 200 entries ran
//!   past 60 s.
//! - `query_parse`: a viewer query of n parameters through `view::request::Query::parse` (80,000 took
//!   17 s); refused past 32 parameters before any is decoded, so the time does not grow at all.
//! - `gltf_instanced`, `gltf_skinned` (issue #40): a glb placing one 60,000-vertex mesh (a sparse accessor)
//!   under n nodes, and n nodes skinned by one n-joint skin, through the reader `relic pack ei-res` calls
//!   (`import::gltf::read_to_pack`). The 5,000 nodes ran past 60 s and 3,000 joints × 3,000 nodes
//!   peaked at 2.7 GiB; both are refused by what their copies would make, before any is made.
//!
//! Before measuring, each finding is run at every size (the median of 200 ms of runs), and the benchmark
//! fails (after measuring) when the largest takes longer than the finding's budget or its time grows more
//! than 3-fold at each of the last two doublings (linear is 2, quadratic 4): the budgets the findings must
//! stay under, checked wherever the benchmark runs.
//!
//! Run: `cargo bench -p relic --bench hostile` (about two minutes once built; 1 s of measurement and 10
//! samples per size).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion};
use relic::ops::{self, ConvertRequest, Quiet};

/// One finding: its name, the budget of its largest size, the sizes measured and the timed operation on
/// the input built for a size.
struct Finding {
    name: &'static str,
    budget: Duration,
    sizes: [usize; 4],
    /// Builds the input for a size; the closure it returns is what is timed.
    build: fn(&Path, usize) -> Box<dyn Fn()>,
}

/// Writes `bytes` as `dir/name`.
fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
    path
}

/// A fresh folder under `dir` for one finding's size.
fn folder(dir: &Path, what: &str, n: usize) -> PathBuf {
    let path = dir.join(format!("{what}-{n}"));
    std::fs::create_dir_all(&path).unwrap_or_else(|e| panic!("creating {}: {e}", path.display()));
    path
}

fn lnk_name(out: &mut Vec<u8>, raw: &[u8]) {
    out.extend((raw.len() as u32).to_le_bytes());
    out.extend(raw);
}

/// A chain of `n` parts, each hanging from the next one stored, named in lower case and referred to in
/// upper case; the last part is the root (as `tests/ei_hostile.rs` builds it).
fn lnk_chain(n: usize) -> Vec<u8> {
    let mut out = (n as u32).to_le_bytes().to_vec();
    for i in 0..n {
        lnk_name(&mut out, format!("p{i:05}\0").as_bytes());
        let parent = if i + 1 < n { format!("P{:05}\0", i + 1) } else { String::new() };
        lnk_name(&mut out, parent.as_bytes());
    }
    out
}

/// `ops::info`, whose result (an error included) is the work measured.
fn info_of(path: PathBuf) -> Box<dyn Fn()> {
    Box::new(move || {
        black_box(ops::info(&path).ok());
    })
}

/// `ops::convert` of `input` into `out`, overwriting the previous run's files; checked once to convert
/// without failures, so that the failure path is not what is measured.
fn convert_of(input: PathBuf, out: PathBuf, to: Option<&str>) -> Box<dyn Fn()> {
    let request = ConvertRequest { force: true, to: to.map(str::to_string), ..Default::default() };
    let report = ops::convert(std::slice::from_ref(&input), &out, &request, &Quiet);
    assert!(report.failures.is_empty(), "{}: {:?}", input.display(), report.failures);
    Box::new(move || {
        black_box(ops::convert(std::slice::from_ref(&input), &out, &request, &Quiet));
    })
}

fn lnk_info(dir: &Path, n: usize) -> Box<dyn Fn()> {
    info_of(write(&folder(dir, "lnk", n), "chain.lnk", &lnk_chain(n)))
}

fn lnk_convert(dir: &Path, n: usize) -> Box<dyn Fn()> {
    let dir = folder(dir, "lnk-convert", n);
    convert_of(write(&dir, "chain.lnk", &lnk_chain(n)), dir.join("out"), None)
}

/// `n` five-letter names whose bytes sum to 547: in an archive of `n` entries they all hash to one slot.
fn colliding_names(n: usize) -> Vec<Vec<u8>> {
    let letters = b'a'..=b'z';
    let mut names = Vec::with_capacity(n);
    for a in letters.clone() {
        for b in letters.clone() {
            for c in letters.clone() {
                for d in letters.clone() {
                    let rest = 547 - [a, b, c, d].iter().map(|&x| i32::from(x)).sum::<i32>();
                    if (i32::from(b'a')..=i32::from(b'z')).contains(&rest) {
                        names.push(vec![a, b, c, d, rest as u8]);
                        if names.len() == n {
                            return names;
                        }
                    }
                }
            }
        }
    }
    panic!("only {} five-letter names sum to 547", names.len())
}

/// A RES of `n` empty entries whose names all hash to one slot, the entry in that slot chained to itself
/// and every other chain empty (as `tests/ei_hostile.rs` builds it).
fn res_loop(n: usize) -> Vec<u8> {
    use relic::evil_islands::res::{name_hash, types::MAGIC};
    let names = colliding_names(n);
    let slot = name_hash(&names[0], n);
    assert!(names.iter().all(|name| name_hash(name, n) == slot), "the names do not share one slot");
    let mut out = MAGIC.to_vec();
    for v in [n as u32, 16, (names.len() * 5) as u32] {
        out.extend(v.to_le_bytes());
    }
    for i in 0..n {
        let next: i32 = if i == slot { slot as i32 } else { -1 };
        out.extend(next.to_le_bytes());
        out.extend([0u32, 16, 0].iter().flat_map(|v| v.to_le_bytes()));
        out.extend(5u16.to_le_bytes());
        out.extend((i as u32 * 5).to_le_bytes());
    }
    names.iter().for_each(|name| out.extend(name));
    out
}

fn res_info(dir: &Path, n: usize) -> Box<dyn Fn()> {
    info_of(write(&folder(dir, "res", n), "loop.res", &res_loop(n)))
}

fn res_to_json(_: &Path, n: usize) -> Box<dyn Fn()> {
    let bytes = res_loop(n);
    Box::new(move || {
        black_box(relic::evil_islands::res::FORMAT.to_json(&bytes).ok());
    })
}

/// A Dark Reign sprite (`RSPR`) of one section, one animation and one rotation, whose pictures of
/// `width × height` start at `offsets` into `bits` (as `tests/dr_hostile.rs` builds one).
fn spr_bytes(width: i32, height: i32, offsets: &[i32], bits: &[u8]) -> Vec<u8> {
    let mut out = b"RSPR".to_vec();
    let header = [0x0210, 1, 1, width, height, offsets.len() as i32, 1];
    // picnr [0]; the section (anims 0..0, speed 65536); the anim-index table.
    let tables = [0, 0, 0, 65536, 0, 0];
    for v in header.iter().chain(&tables) {
        out.extend(v.to_le_bytes());
    }
    for &o in offsets {
        out.extend(o.to_le_bytes());
        out.extend(0i32.to_le_bytes());
    }
    out.extend((bits.len() as i32).to_le_bytes());
    out.extend(bits);
    out.extend(0i32.to_le_bytes());
    out
}

fn spr_info(dir: &Path, n: usize) -> Box<dyn Fn()> {
    // n zero counts, then one that would end a line; a 1 × 1 picture starting every 256 bytes.
    let mut bits = vec![0u8; n];
    bits.push(1);
    let offsets: Vec<i32> = (0..n / 256).map(|i| (i * 256) as i32).collect();
    info_of(write(&folder(dir, "spr", n), "zeros.spr", &spr_bytes(1, 1, &offsets, &bits)))
}

fn ftg_convert(dir: &Path, n: usize) -> Box<dyn Fn()> {
    let sprite = spr_bytes(2, 1, &[0], &[0, 2, 5, 6]);
    let mut archive = b"BOTG".to_vec();
    archive.extend((12 + sprite.len() as u32).to_le_bytes());
    archive.extend((n as u32).to_le_bytes());
    archive.extend(&sprite);
    for i in 0..n {
        let mut name = [0u8; 28];
        let text = format!("UNIT{i}.SPR");
        name[..text.len()].copy_from_slice(text.as_bytes());
        archive.extend(name);
        archive.extend(12u32.to_le_bytes());
        archive.extend((sprite.len() as u32).to_le_bytes());
    }
    let dir = folder(dir, "ftg", n);
    convert_of(write(&dir, "units.ftg", &archive), dir.join("out"), None)
}

fn query_parse(_: &Path, n: usize) -> Box<dyn Fn()> {
    let query: String = (0..n).map(|i| format!("p{i}=%41{i}&")).collect();
    Box::new(move || {
        black_box(relic::view::request::Query::parse(&query).is_ok());
    })
}

/// A `.glb` of `doc` (its JSON chunk padded with spaces) and `bin` (padded with zeros), glTF 2.0 §4.4.
fn glb(doc: &serde_json::Value, bin: &[u8]) -> Vec<u8> {
    let mut json = serde_json::to_vec(doc).unwrap_or_default();
    json.resize(json.len().div_ceil(4) * 4, b' ');
    let mut bin = bin.to_vec();
    bin.resize(bin.len().div_ceil(4) * 4, 0);
    let mut out = b"glTF".to_vec();
    out.extend(2u32.to_le_bytes());
    out.extend(((28 + json.len() + bin.len()) as u32).to_le_bytes());
    out.extend((json.len() as u32).to_le_bytes());
    out.extend(0x4E4F_534Au32.to_le_bytes());
    out.extend(json);
    out.extend((bin.len() as u32).to_le_bytes());
    out.extend(0x004E_4942u32.to_le_bytes());
    out.extend(bin);
    out
}

/// Times `read_to_pack` of `file` for ei-res, which must refuse it by its cost.
fn refused_by_cost(file: Vec<u8>) -> Box<dyn Fn()> {
    Box::new(move || {
        let err = relic::import::gltf::read_to_pack(&file, Path::new("x.glb"), "ei-res", &mut |_| {});
        assert!(err.is_err_and(|e| e.to_string().contains("--max-expansion")));
    })
}

fn gltf_instanced(_: &Path, n: usize) -> Box<dyn Fn()> {
    let bin: Vec<u8> = [0u32, 1, 2]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .chain([0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0].iter().flat_map(|v| v.to_le_bytes()))
        .collect();
    let mut nodes = vec![serde_json::json!({"children": (1..=n).collect::<Vec<_>>()})];
    nodes.extend((1..=n).map(|_| serde_json::json!({"mesh": 0})));
    let doc = serde_json::json!({
        "asset": {"version": "2.0"}, "nodes": nodes,
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": [{"buffer": 0, "byteLength": 12}, {"buffer": 0, "byteOffset": 12, "byteLength": 36}],
        "accessors": [{"componentType": 5126, "count": 60_000, "type": "VEC3",
            "sparse": {"count": 3, "indices": {"bufferView": 0, "componentType": 5125}, "values": {"bufferView": 1}}}]
    });
    refused_by_cost(glb(&doc, &bin))
}

fn gltf_skinned(_: &Path, n: usize) -> Box<dyn Fn()> {
    let bin: Vec<u8> = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .chain([0u8; 12])
        .chain([1.0f32, 0.0, 0.0, 0.0].repeat(3).iter().flat_map(|v| v.to_le_bytes()))
        .collect();
    let mut nodes = vec![serde_json::json!({"children": (1..=n).collect::<Vec<_>>()})];
    nodes.extend((1..=n).map(|_| serde_json::json!({"mesh": 0, "skin": 0})));
    let doc = serde_json::json!({
        "asset": {"version": "2.0"}, "nodes": nodes,
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}}]}],
        "skins": [{"joints": (1..=n).collect::<Vec<_>>()}],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 12},
            {"buffer": 0, "byteOffset": 48, "byteLength": 48}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"},
            {"bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4"},
            {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"}
        ]
    });
    refused_by_cost(glb(&doc, &bin))
}

const FINDINGS: &[Finding] = &[
    Finding { name: "lnk_info", budget: Duration::from_millis(500), sizes: [1000, 2000, 4000, 8000], build: lnk_info },
    Finding {
        name: "lnk_convert",
        budget: Duration::from_secs(2),
        sizes: [1000, 2000, 4000, 8000],
        build: lnk_convert,
    },
    Finding {
        name: "res_info",
        budget: Duration::from_millis(500),
        sizes: [6250, 12_500, 25_000, 50_000],
        build: res_info,
    },
    Finding {
        name: "res_to_json",
        budget: Duration::from_secs(2),
        sizes: [6250, 12_500, 25_000, 50_000],
        build: res_to_json,
    },
    Finding {
        name: "spr_info",
        budget: Duration::from_millis(200),
        sizes: [128 << 10, 256 << 10, 512 << 10, 1 << 20],
        build: spr_info,
    },
    Finding { name: "ftg_convert", budget: Duration::from_secs(2), sizes: [25, 50, 100, 200], build: ftg_convert },
    Finding {
        name: "query_parse",
        budget: Duration::from_millis(10),
        sizes: [10_000, 20_000, 40_000, 80_000],
        build: query_parse,
    },
    Finding {
        name: "gltf_instanced",
        budget: Duration::from_millis(500),
        sizes: [625, 1250, 2500, 5000],
        build: gltf_instanced,
    },
    Finding {
        name: "gltf_skinned",
        budget: Duration::from_millis(500),
        sizes: [375, 750, 1500, 3000],
        build: gltf_skinned,
    },
];

/// The median of the runs made in 200 ms (at least three): what the operation costs, little moved by other
/// work on the machine.
fn median(run: &dyn Fn()) -> Duration {
    let until = Instant::now() + Duration::from_millis(200);
    let mut times = Vec::new();
    while times.len() < 3 || Instant::now() < until {
        let start = Instant::now();
        run();
        times.push(start.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

/// Why a finding is over its budget: its largest input took longer than the budget, or its time grew more
/// than 3-fold at each of the last two doublings (linear is 2, n log n a little more, quadratic 4). One
/// larger step alone is not growth: the data of a larger size can leave a cache or cross the allocator's
/// threshold for mapping memory, a constant factor. `None` when within it.
fn over_budget(finding: &Finding, runs: &[Box<dyn Fn()>]) -> Option<String> {
    let times: Vec<f64> = runs.iter().map(|run| median(run.as_ref()).as_secs_f64()).collect();
    let ratios: Vec<f64> = times.windows(2).map(|w| w[1] / w[0].max(1e-9)).collect();
    let shown: Vec<String> =
        finding.sizes.iter().zip(&times).map(|(n, t)| format!("n={n} {:?}", Duration::from_secs_f64(*t))).collect();
    let doublings: Vec<String> = ratios.iter().map(|r| format!("×{r:.1}")).collect();
    eprintln!(
        "{}: {} (per doubling {}; budget {:?})",
        finding.name,
        shown.join(", "),
        doublings.join(" "),
        finding.budget
    );
    let largest = Duration::from_secs_f64(times[3]);
    if largest > finding.budget {
        Some(format!(
            "{}: {largest:?} at n={}, over its budget of {:?}",
            finding.name, finding.sizes[3], finding.budget
        ))
    } else if ratios[1] > 3.0 && ratios[2] > 3.0 && largest >= Duration::from_micros(50) {
        // Times under 50 µs are too close to the clock and the scheduler to compare.
        Some(format!("{}: {} per doubling: it grows faster than n log n", finding.name, doublings.join(" ")))
    } else {
        None
    }
}

// A hand-written `main`, so that the inputs are built once and their temporary folder removed at the end.
fn main() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("a temporary folder: {e}"));
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .configure_from_args();
    let mut over = Vec::new();
    for finding in FINDINGS {
        let runs: Vec<Box<dyn Fn()>> = finding.sizes.iter().map(|&n| (finding.build)(dir.path(), n)).collect();
        over.extend(over_budget(finding, &runs));
        let mut group = c.benchmark_group(finding.name);
        for (n, run) in finding.sizes.iter().zip(&runs) {
            group.bench_function(BenchmarkId::from_parameter(n), |b| b.iter(run));
        }
        group.finish();
    }
    c.final_summary();
    // Measured first, so that the figures of a finding over its budget are there to look at.
    assert!(over.is_empty(), "over budget:\n{}", over.join("\n"));
}
