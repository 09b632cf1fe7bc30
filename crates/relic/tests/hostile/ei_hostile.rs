//! Hostile Evil Islands files (issue #23): each is built here byte by byte and run through the operations
//! the CLI calls. Nothing is timed (times belong to benchmarks): the algorithms are linear or n log n, so
//! these inputs of thousands of parts or names finish at once; the errors are asserted exactly and the
//! heap is measured with a counting allocator as `limits.rs` does.

use std::path::PathBuf;

use relic::asset::{Asset, NamedAsset};
use relic::evil_islands::{lnk, mp};
use relic::ops::{self, ConvertRequest, Quiet};
use relic::registry::ConvertOptions;

use crate::counting::{peak_during, BOUND, SERIAL};

use crate::ei_map_fixtures as fixtures;

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

use crate::common::write_file as write;

fn lnk_name(out: &mut Vec<u8>, raw: &[u8]) {
    out.extend((raw.len() as u32).to_le_bytes());
    out.extend(raw);
}

/// A chain of `n` parts, each hanging from the next one stored (so every parent comes later in the file),
/// named in lower case and referred to in upper case; the last part is the root.
fn lnk_chain(n: usize) -> Vec<u8> {
    let mut out = (n as u32).to_le_bytes().to_vec();
    for i in 0..n {
        lnk_name(&mut out, format!("p{i:04}\0").as_bytes());
        if i + 1 < n {
            lnk_name(&mut out, format!("P{:04}\0", i + 1).as_bytes());
        } else {
            lnk_name(&mut out, b"");
        }
    }
    out
}

#[test]
fn lnk_chain_of_4000_parts_stored_parents_last_is_linear() {
    let _serial = serial();
    let bytes = lnk_chain(4000);
    assert!(bytes.len() < 90_000, "{}", bytes.len());
    let parsed = lnk::parse(&bytes).unwrap();
    let tree = parsed.tree();
    assert_eq!(tree.roots, [3999]);
    assert_eq!(tree.depths[0], Some(3999));
    assert_eq!(tree.parents[0], Some(1), "parents are matched ignoring ASCII case");
    assert_eq!(tree.children[3999], [3998]);
    assert_eq!(tree.first_detached(), None);

    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "chain.lnk", &bytes);
    let ((_, info), peak) = peak_during(|| ops::info(&path).unwrap());
    assert_eq!(info["links"], 4000);
    assert_eq!(info["depth"], 3999);
    assert_eq!(info["roots"], serde_json::json!(["p3999"]));
    assert_eq!(info["links_in_cycles_or_under_missing_parents"], 0);
    assert!(peak < BOUND, "info took {peak} bytes");

    let out = dir.path().join("out");
    let (report, peak) = peak_during(|| ops::convert(&[path], &out, &ConvertRequest::default(), &Quiet));
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert_eq!(report.outputs.len(), 1);
    assert!(peak < BOUND, "convert took {peak} bytes");
}

#[test]
fn lnk_cycle_among_thousands_of_parts_is_found_once() {
    let _serial = serial();
    // The chain's root made to hang from the first part: every part is in one cycle of 4000.
    let mut bytes = lnk_chain(4000);
    bytes.truncate(bytes.len() - 4);
    lnk_name(&mut bytes, b"P0000\0");
    let parsed = lnk::parse(&bytes).unwrap();
    let tree = parsed.tree();
    assert!(tree.roots.is_empty());
    assert!(tree.depths.iter().all(Option::is_none));
    let info = lnk::info(&parsed);
    assert_eq!(info["links_in_cycles_or_under_missing_parents"], 4000);
    assert_eq!(info["depth"], serde_json::Value::Null);
    let err = relic::evil_islands::model::convert_skeleton(parsed, &Default::default()).unwrap_err();
    assert_eq!(err.to_string(), "ei-lnk: links at offset 0x0: no part is a root: the parents form a cycle");
}

/// A RES of empty entries: `(name, next_index)` per table slot, the names in slot order.
fn res_table(records: &[(Vec<u8>, i32)]) -> Vec<u8> {
    let records: Vec<(Vec<u8>, i32, u32)> = records.iter().map(|(n, next)| (n.clone(), *next, 0)).collect();
    res_sharing(&records, &[])
}

/// A RES whose entries `(name, next_index, size)` all point at the start of `data`.
fn res_sharing(records: &[(Vec<u8>, i32, u32)], data: &[u8]) -> Vec<u8> {
    let mut out = relic::evil_islands::res::types::MAGIC.to_vec();
    let names: usize = records.iter().map(|(n, _, _)| n.len()).sum();
    for v in [records.len() as u32, 16 + data.len() as u32, names as u32] {
        out.extend(v.to_le_bytes());
    }
    out.extend(data);
    let mut name_offset = 0u32;
    for (name, next, size) in records {
        out.extend(next.to_le_bytes());
        out.extend(size.to_le_bytes());
        out.extend(16u32.to_le_bytes());
        out.extend(0u32.to_le_bytes());
        out.extend((name.len() as u16).to_le_bytes());
        out.extend(name_offset.to_le_bytes());
        name_offset += name.len() as u32;
    }
    for (name, _, _) in records {
        out.extend(name);
    }
    out
}

#[test]
fn res_of_50000_names_in_one_self_looping_slot_is_linear() {
    let _serial = serial();
    let n = 50_000;
    // Five-letter names whose bytes sum to 547: every one hashes to slot 547.
    let mut names = Vec::with_capacity(n);
    'all: for a in b'a'..=b'z' {
        for b in b'a'..=b'z' {
            for c in b'a'..=b'z' {
                for d in b'a'..=b'z' {
                    let rest = 547 - i32::from(a) - i32::from(b) - i32::from(c) - i32::from(d);
                    if (i32::from(b'a')..=i32::from(b'z')).contains(&rest) {
                        names.push(vec![a, b, c, d, rest as u8]);
                        if names.len() == n {
                            break 'all;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(names.len(), n);
    let slot = relic::evil_islands::res::name_hash(&names[0], n);
    assert!(names.iter().all(|name| relic::evil_islands::res::name_hash(name, n) == slot));
    let records: Vec<(Vec<u8>, i32)> =
        names.into_iter().enumerate().map(|(i, name)| (name, if i == slot { slot as i32 } else { -1 })).collect();
    let bytes = res_table(&records);
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "loop.res", &bytes);
    let ((_, info), peak) = peak_during(|| ops::info(&path).unwrap());
    assert_eq!(info["entries"], n);
    assert_eq!(info["unreachable_by_hash"], n - 1, "only the record in the slot itself is reached");
    assert!(peak < BOUND, "info took {peak} bytes");
}

#[test]
fn res_unreachable_agrees_with_one_lookup_per_record() {
    // Small archives of every shape (chains, cycles, trees into cycles, names equal but for case),
    // checked against the game's lookup done record by record.
    let mut seed = 0x2545_f491_u64;
    let mut rand = move |m: u64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    let pool: [&[u8]; 6] = [b"a", b"A", b"b", b"ab", b"Ba", b"c"];
    for _ in 0..3000 {
        let n = 1 + rand(9) as usize;
        let records: Vec<(Vec<u8>, i32)> =
            (0..n).map(|_| (pool[rand(pool.len() as u64) as usize].to_vec(), rand(n as u64 + 1) as i32 - 1)).collect();
        let bytes = res_table(&records);
        let res = relic::evil_islands::res::parse(&bytes).unwrap();
        let expected: Vec<usize> = (0..n).filter(|&i| res.find(res.name(i)) != Some(i)).collect();
        assert_eq!(res.unreachable(), expected, "{records:?}");
    }
}

/// An MMP header (ARGB8 masks) and `body`.
fn mmp_file(w: u32, h: u32, count: u32, fourcc: &[u8; 4], body: &[u8]) -> Vec<u8> {
    let mut out = b"MMP\0".to_vec();
    for v in [w, h, count, u32::from_le_bytes(*fourcc), 32] {
        out.extend(v.to_le_bytes());
    }
    for (mask, shift, count) in [(0xFF00_0000u32, 24u32, 8u32), (0x00FF_0000, 16, 8), (0xFF00, 8, 8), (0xFF, 0, 8)] {
        for v in [mask, shift, count] {
            out.extend(v.to_le_bytes());
        }
    }
    out.extend([0; 4]);
    assert_eq!(out.len(), 76);
    out.extend(body);
    out
}

#[test]
fn mmp_1x1_with_200000_mip_levels_is_refused_naming_the_field() {
    let _serial = serial();
    let bytes = mmp_file(1, 1, 200_000, b"8888", &vec![0; 4 * 200_000]);
    let err = relic::evil_islands::mmp::parse(&bytes).unwrap_err();
    let at = err.location().unwrap();
    assert_eq!((at.format, at.field.as_str(), at.offset), ("ei-mmp", "mip_levels_count", 12), "{err}");
    assert_eq!(
        err.to_string(),
        "ei-mmp: mip_levels_count at offset 0xC: 200000 mip levels, but a 1×1 texture has at most 3 (log2 of its \
         larger side + 1, and 2 more of 1×1)"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "levels.mmp", &bytes);
    let out = dir.path().join("out");
    let req = ConvertRequest {
        options: relic::registry::ConvertOptions { mips: true, ..Default::default() },
        ..Default::default()
    };
    let report = ops::convert(&[path], &out, &req, &Quiet);
    assert!(report.outputs.is_empty() && report.failures.len() == 1, "{:?}", report.failures);
    assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none(), "nothing is written");
}

/// An 8192×8192 PNT3 texture of zero texels, as `relic pack --pixel-format pnt3` writes one: 268 runs of
/// 1,000,000 zero bytes and one of 435,456 — 1,152 bytes declaring 256 MiB of texels.
fn pnt3_zero_bomb() -> Vec<u8> {
    let total: u64 = 8192 * 8192 * 4;
    let mut words = Vec::new();
    let mut left = total;
    while left > 0 {
        let run = left.min(1_000_000);
        words.extend((run as u32).to_le_bytes());
        left -= run;
    }
    mmp_file(8192, 8192, words.len() as u32, b"PNT3", &words)
}

#[test]
fn pnt3_of_zero_runs_is_refused_before_unpacking() {
    let _serial = serial();
    let bytes = pnt3_zero_bomb();
    assert_eq!(bytes.len(), 1152);
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "bomb.mmp", &bytes);
    let ((_, info), peak) = peak_during(|| ops::info(&path).unwrap());
    assert_eq!(info["width"], 8192);
    assert!(peak < BOUND, "info took {peak} bytes");
    let (err, peak) = peak_during(|| {
        relic::evil_islands::mmp::FORMAT
            .convert(&relic::registry::ConvertInput::new(&bytes, &Default::default()))
            .unwrap_err()
    });
    assert!(peak < BOUND, "convert took {peak} bytes");
    assert!(matches!(err, relic::Error::Limit { .. }), "{err}");
    let at = err.location().unwrap();
    assert_eq!((at.field.as_str(), at.offset), ("mip_levels_count", 12), "{err}");
    assert_eq!(
        err.to_string(),
        "ei-mmp: mip_levels_count at offset 0xC: 1076 packed PNT3 bytes of the 8192×8192 texture would unpack to \
         268435456 bytes, more than 1000× the file's 1152 (--max-expansion raises the limit)"
    );
    let out = dir.path().join("out");
    let (report, peak) = peak_during(|| ops::convert(&[path], &out, &ConvertRequest::default(), &Quiet));
    assert!(report.outputs.is_empty() && report.failures.len() == 1, "{:?}", report.failures);
    assert!(peak < BOUND, "convert took {peak} bytes");
}

/// The fixture map's header claiming 1000 × 1000 sectors, in a folder with the given sectors beside it.
fn huge_map(sectors: &[(u32, u32)]) -> (tempfile::TempDir, PathBuf, Vec<u8>) {
    let mut bytes = fixtures::mp();
    bytes[8..12].copy_from_slice(&1000u32.to_le_bytes());
    bytes[12..16].copy_from_slice(&1000u32.to_le_bytes());
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "zone.mp", &bytes);
    for &(x, y) in sectors {
        write(dir.path(), &format!("zone{x:03}{y:03}.sec"), &fixtures::dry_sec());
    }
    (dir, path, bytes)
}

fn height_map(assets: &[NamedAsset]) -> Option<(u32, u32)> {
    assets.iter().find_map(|a| match (&a.name, &a.asset) {
        (Some(n), Asset::Image(img)) if n == "heightmap.view" => Some((img.frames[0].width, img.frames[0].height)),
        _ => None,
    })
}

#[test]
fn mp_of_1000x1000_sectors_with_one_present_gives_a_height_map_of_that_sector() {
    let _serial = serial();
    let (_dir, path, bytes) = huge_map(&[(250, 250)]);
    let opts = ConvertOptions::default();
    let (assets, peak) =
        peak_during(|| mp::FORMAT.convert(&relic::registry::ConvertInput::at(&bytes, &path, &opts)).unwrap());
    assert!(peak < BOUND, "convert took {peak} bytes");
    assert_eq!(height_map(&assets), Some((33, 33)), "cropped to the one sector present, not 8033 × 8033");
    let notes = opts.notes.lock().unwrap();
    assert!(
        notes.iter().any(|n| n
            == "zone: the height map covers only the sectors present, 1 × 1 from sector \
                                   (250, 250) (of the map's 1000 × 1000): its bottom-left pixel is cell (8000, 8000)"),
        "{notes:?}"
    );
    assert!(notes.iter().any(|n| n.contains("999999 of 1000000 sectors not found")), "{notes:?}");
}

#[test]
fn mp_sectors_spanning_more_than_max_pixels_give_no_height_map_with_a_note() {
    let _serial = serial();
    // Two sectors at opposite corners: their span is 32,001 × 32,001 pixels, over --max-pixels.
    let (_dir, path, bytes) = huge_map(&[(0, 0), (999, 999)]);
    let opts = ConvertOptions::default();
    let (assets, peak) =
        peak_during(|| mp::FORMAT.convert(&relic::registry::ConvertInput::at(&bytes, &path, &opts)).unwrap());
    assert!(peak < BOUND, "convert took {peak} bytes");
    assert_eq!(height_map(&assets), None);
    let notes = opts.notes.lock().unwrap();
    assert!(
        notes.iter().any(|n| n
            == "zone: no height map: ei-mp height map: 32001×32001 = 1024064001 pixels is over \
                                   the limit of 67108864 (--max-pixels raises it)"),
        "{notes:?}"
    );
}

#[test]
fn res_of_models_whose_siblings_share_one_range_copies_within_the_expansion_budget() {
    let _serial = serial();
    // 3000 models and 3000 `.bon` siblings all naming one 64 KiB range: 192 MiB if each were copied.
    let data = vec![7u8; 64 << 10];
    let mut records = Vec::new();
    for i in 0..3000 {
        records.push((format!("m{i}.mod").into_bytes(), -1, 0));
        records.push((format!("m{i}.bon").into_bytes(), -1, data.len() as u32));
    }
    let bytes = res_sharing(&records, &data);
    let archive = relic::evil_islands::res::parse(&bytes).unwrap();
    // At the default 1000× the budget is 170 MB (the file is 170 KB); 100× keeps it under 64 MiB.
    relic::limits::set(relic::limits::Limits { max_expansion: 100, ..relic::limits::Limits::DEFAULT });
    let (siblings, peak) = peak_during(|| relic::evil_islands::model::siblings(&archive).unwrap());
    relic::limits::set(relic::limits::Limits::DEFAULT);
    let copied: usize = siblings.values().map(Vec::len).sum();
    assert!(copied <= bytes.len() * 100, "{copied}");
    assert_eq!(siblings.len(), (bytes.len() * 100) / data.len(), "as many as the budget holds");
    assert!(peak < BOUND, "siblings took {peak} bytes");
}
