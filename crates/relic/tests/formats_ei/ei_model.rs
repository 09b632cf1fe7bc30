//! Evil Islands figures to glTF (`relic convert x.mod`): a hand-made two-part model (FIG8 parts, LNK,
//! BON, ANM assembled byte by byte from the spec's layouts and docs/formats/evil-islands.md#model-archives; only the RES containers
//! come from relic's RES writer) converted at morph (0,0,0) and (1,1,1), with world positions, morph
//! targets and an animation key checked in the GLB; and every real model of the corpus's `auxData.res`
//! converted, validated by the Khronos validator and kept inside its FIG header's bounds.

use std::path::Path;

use relic::evil_islands::res::{write_archive, PackInput, PackOptions, PackSource};
use relic::ops::{self, ConvertRequest, Quiet};
use relic::registry::ConvertOptions;
use serde_json::Value;

fn u32s(out: &mut Vec<u8>, values: &[u32]) {
    for v in values {
        out.extend(v.to_le_bytes());
    }
}

fn floats(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend(v.to_le_bytes());
    }
}

/// Position of vertex v (0..3) of a part in morph m, in the game's Z-up axes.
fn pos(part: usize, m: usize, v: usize) -> [f32; 3] {
    [v as f32 + 0.5 * m as f32 + 10.0 * part as f32, 2.0 * v as f32 - 0.25 * m as f32, 1.0 + m as f32]
}

/// A FIG8 of one vertex block (3 used vertices, one triangle), per docs/formats/evil-islands.md#fig-vertex-blocks: float
/// `b·96 + axis·32 + m·4 + lane`; normal block x[4] y[4] z[4] w[4]; 3 UVs; vertex components (v, v, v).
fn fig8(part: usize) -> Vec<u8> {
    let mut out = b"FIG8".to_vec();
    u32s(&mut out, &[1, 1, 3, 3, 3, 0, 0, 19, 0]);
    let mut min = [[f32::MAX; 3]; 8];
    let mut max = [[f32::MIN; 3]; 8];
    for m in 0..8 {
        for v in 0..3 {
            for a in 0..3 {
                min[m][a] = min[m][a].min(pos(part, m, v)[a]);
                max[m][a] = max[m][a].max(pos(part, m, v)[a]);
            }
        }
    }
    for _ in 0..8 {
        floats(&mut out, &[0.0, 0.0, 0.0]); // centres
    }
    for m in min {
        floats(&mut out, &m);
    }
    for m in max {
        floats(&mut out, &m);
    }
    floats(&mut out, &[5.0; 8]); // radii
    let mut block = [0f32; 96];
    for axis in 0..3 {
        for m in 0..8 {
            for lane in 0..3 {
                block[axis * 32 + m * 4 + lane] = pos(part, m, lane)[axis];
            }
        }
    }
    floats(&mut out, &block);
    // Normals: all (0, 0, 2, 0) as stored (not unit; relic normalises): up in the game's Z-up axes.
    floats(&mut out, &[0.0; 4]);
    floats(&mut out, &[0.0; 4]);
    floats(&mut out, &[2.0; 4]);
    floats(&mut out, &[0.0; 4]);
    floats(&mut out, &[0.0, 0.0, 1.0, 0.0, 0.0, 1.0]);
    for i in [0u16, 1, 2] {
        out.extend(i.to_le_bytes());
    }
    for v in 0..3u16 {
        for x in [v, v, v] {
            out.extend(x.to_le_bytes());
        }
    }
    out
}

/// LNK: `body` the root, `arm` hanging from it (lengths include the NUL, the root's parent is empty).
fn lnk() -> Vec<u8> {
    let mut out = 2u32.to_le_bytes().to_vec();
    for name in [&b"body\0"[..], b"", b"arm\0", b"body\0"] {
        out.extend((name.len() as u32).to_le_bytes());
        out.extend(name);
    }
    out
}

/// BON of the arm: morph m at (m, 0, 10 + m); the body's at the origin.
fn bon(part: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for m in 0..8 {
        let v = if part == 1 { [m as f32, 0.0, 10.0 + m as f32] } else { [0.0; 3] };
        floats(&mut out, &v);
    }
    out
}

/// ANM of the arm: rotations identity then 90° about the game's z (w, x, y, z), translations (0,0,10) and
/// (0,0,12), no morphing frames (count 0, vertex count 0).
fn anm() -> Vec<u8> {
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let mut out = Vec::new();
    u32s(&mut out, &[2]);
    floats(&mut out, &[1.0, 0.0, 0.0, 0.0, h, 0.0, 0.0, h]);
    u32s(&mut out, &[2]);
    floats(&mut out, &[0.0, 0.0, 10.0, 0.0, 0.0, 12.0]);
    u32s(&mut out, &[0, 0]);
    out
}

fn res(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let inputs = entries
        .iter()
        .map(|(n, b)| PackInput { name: n.as_bytes().to_vec(), modified: 0, source: PackSource::Bytes(b.clone()) })
        .collect();
    let mut out = Vec::new();
    write_archive(inputs, PackOptions::default(), &mut out).unwrap();
    out
}

fn read_glb(glb: &[u8]) -> (Value, Vec<u8>) {
    assert_eq!(&glb[0..4], b"glTF");
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let doc: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let rest = &glb[20 + json_len..];
    if rest.is_empty() {
        return (doc, vec![]);
    }
    let bin_len = u32::from_le_bytes(rest[0..4].try_into().unwrap()) as usize;
    (doc, rest[8..8 + bin_len].to_vec())
}

fn accessor(doc: &Value, bin: &[u8], a: u64) -> Vec<f32> {
    let a = &doc["accessors"][a as usize];
    assert_eq!(a["componentType"], 5126);
    let view = &doc["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize + a["byteOffset"].as_u64().unwrap_or(0) as usize;
    let count = a["count"].as_u64().unwrap() as usize;
    let width = match a["type"].as_str().unwrap() {
        "SCALAR" => 1,
        "VEC3" => 3,
        "VEC4" => 4,
        t => panic!("{t}"),
    };
    bin[start..start + 4 * count * width].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn node<'d>(doc: &'d Value, name: &str) -> (usize, &'d Value) {
    doc["nodes"].as_array().unwrap().iter().enumerate().find(|(_, n)| n["name"] == name).unwrap()
}

fn convert(input: &Path, out: &Path, morph: Option<[f32; 3]>) -> (Value, Vec<u8>) {
    let req = ConvertRequest {
        options: ConvertOptions::default()
            .with_settings(relic::evil_islands::FigureSettings { morph, ..Default::default() }),
        ..Default::default()
    };
    let report = ops::convert(std::slice::from_ref(&input.to_path_buf()), out, &req, &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let glb = std::fs::read(out.join("model.mod.glb")).unwrap();
    if let Some(reports) = relic::testing::validate_gltf(&[&out.join("model.mod.glb")]) {
        for r in reports {
            assert_eq!(r.errors, 0, "{r:?}");
        }
    }
    read_glb(&glb)
}

/// glTF's Y-up of the game's Z-up point.
fn gl(p: [f32; 3]) -> [f32; 3] {
    [p[0], p[2], -p[1]]
}

#[test]
fn a_two_part_model_converts_with_world_positions_morphs_and_an_animation() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("model.mod"), res(&[("model", lnk()), ("body", fig8(0)), ("arm", fig8(1))]))
        .unwrap();
    std::fs::write(dir.path().join("model.bon"), res(&[("body", bon(0)), ("arm", bon(1))])).unwrap();
    std::fs::write(dir.path().join("model.anm"), res(&[("walk", res(&[("arm", anm())]))])).unwrap();

    for (morph, m) in [(None, 0usize), (Some([1.0, 1.0, 1.0]), 7)] {
        let out = dir.path().join(format!("out{m}"));
        let (doc, bin) = convert(&dir.path().join("model.mod"), &out, morph);
        let (_, body) = node(&doc, "body");
        let (arm_index, arm) = node(&doc, "arm");
        assert_eq!(body["children"], serde_json::json!([arm_index]));
        let t: Vec<f32> = arm["translation"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap() as f32).collect();
        let bone = gl([m as f32, 0.0, 10.0 + m as f32]);
        assert_eq!(t, bone);
        let prim = &doc["meshes"][arm["mesh"].as_u64().unwrap() as usize]["primitives"][0];
        let positions = accessor(&doc, &bin, prim["attributes"]["POSITION"].as_u64().unwrap());
        for v in 0..3 {
            let local = gl(pos(1, m, v));
            let world = [local[0] + bone[0], local[1] + bone[1], local[2] + bone[2]];
            let got = [positions[3 * v] + t[0], positions[3 * v + 1] + t[1], positions[3 * v + 2] + t[2]];
            assert_eq!(got, world, "arm vertex {v} at morph {m}");
        }
        // Normals normalised and turned to Y-up: (0, 0, 2) → (0, 1, 0).
        let normals = accessor(&doc, &bin, prim["attributes"]["NORMAL"].as_u64().unwrap());
        assert_eq!(&normals[..3], &[0.0, 1.0, -0.0]);
        // Eight morph targets: extreme k's displacement from the base.
        let targets = prim["targets"].as_array().unwrap();
        assert_eq!(targets.len(), 8);
        let d3 = accessor(&doc, &bin, targets[3]["POSITION"].as_u64().unwrap());
        let expect = [gl(pos(1, 3, 2)), gl(pos(1, m, 2))];
        assert_eq!(&d3[6..9], &[expect[0][0] - expect[1][0], expect[0][1] - expect[1][1], expect[0][2] - expect[1][2]]);

        // The clip: arm rotation at key 1 (1/15 s) is 90° about the game's z, which is glTF's y.
        let clip = &doc["animations"][0];
        assert_eq!(clip["name"], "walk");
        let rot = clip["channels"].as_array().unwrap().iter().find(|c| c["target"]["path"] == "rotation").unwrap();
        assert_eq!(rot["target"]["node"], arm_index);
        let sampler = &clip["samplers"][rot["sampler"].as_u64().unwrap() as usize];
        let times = accessor(&doc, &bin, sampler["input"].as_u64().unwrap());
        assert_eq!(times, [0.0, 1.0 / 15.0]);
        let q = accessor(&doc, &bin, sampler["output"].as_u64().unwrap());
        let h = std::f32::consts::FRAC_1_SQRT_2;
        assert_eq!(&q[4..8], &[0.0, h, 0.0, h]);
    }

    // Half-way along strength only: the trilinear blend of extremes 0 and (spec coefs[0]) 2.
    let out = dir.path().join("half");
    let (doc, bin) = convert(&dir.path().join("model.mod"), &out, Some([0.5, 0.0, 0.0]));
    let (_, arm) = node(&doc, "arm");
    let prim = &doc["meshes"][arm["mesh"].as_u64().unwrap() as usize]["primitives"][0];
    let positions = accessor(&doc, &bin, prim["attributes"]["POSITION"].as_u64().unwrap());
    let (a, b) = (gl(pos(1, 0, 1)), gl(pos(1, 2, 1)));
    assert_eq!(&positions[3..6], &[(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0, (a[2] + b[2]) / 2.0]);
}

#[test]
fn a_fig_and_a_lnk_convert_on_their_own() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("arm.fig"), fig8(1)).unwrap();
    std::fs::write(dir.path().join("model.lnk"), lnk()).unwrap();
    let report = ops::convert(
        &[dir.path().join("arm.fig"), dir.path().join("model.lnk")],
        &dir.path().join("out"),
        &ConvertRequest::default(),
        &Quiet,
    );
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let (doc, bin) = read_glb(&std::fs::read(dir.path().join("out/arm.fig.glb")).unwrap());
    let positions = accessor(&doc, &bin, doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"].as_u64().unwrap());
    assert_eq!(&positions[..3], &gl(pos(1, 0, 0)));
    let (doc, _) = read_glb(&std::fs::read(dir.path().join("out/model.lnk.glb")).unwrap());
    assert_eq!(doc["nodes"].as_array().unwrap().len(), 2);
    assert_eq!(doc["nodes"][0]["children"], serde_json::json!([1]));
    if let Some(reports) =
        relic::testing::validate_gltf(&[&dir.path().join("out/arm.fig.glb"), &dir.path().join("out/model.lnk.glb")])
    {
        assert!(reports.iter().all(|r| r.errors == 0), "{reports:?}");
    }
}

/// Every model of the corpus converts (with its bones and texture found beside it in the archive), the
/// validator finds no error, and every vertex lies inside its FIG's morph-0 box (turned to glTF's axes).
#[test]
fn corpus_models_convert_validate_and_stay_in_their_boxes() {
    let archive = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/evil-islands/auxData.res");
    if !archive.is_file() {
        eprintln!("skipped: ../shared/corpus/evil-islands/auxData.res is not there");
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let req = ConvertRequest { to: Some("glb".into()), ..Default::default() };
    let report = ops::convert(std::slice::from_ref(&archive), out.path(), &req, &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let bytes = std::fs::read(&archive).unwrap();
    let res = relic::evil_islands::res::parse(&bytes).unwrap();
    let mut models = 0;
    for i in 0..res.len() {
        let name = String::from_utf8_lossy(res.name(i)).into_owned();
        let Some(stem) = name.strip_suffix(".mod") else { continue };
        models += 1;
        let glb_path = out.path().join(format!("auxData.res/{stem}.mod.glb"));
        let (doc, bin) = read_glb(&std::fs::read(&glb_path).unwrap());
        if let Some(reports) = relic::testing::validate_gltf(&[&glb_path]) {
            assert_eq!(reports[0].errors, 0, "{stem}: {:?}", reports[0]);
        }
        let has_texture = (0..res.len()).any(|k| res.name(k).eq_ignore_ascii_case(format!("{stem}.mmp").as_bytes()));
        let images = doc["images"].as_array().map_or(0, Vec::len);
        assert_eq!(images, usize::from(has_texture), "{stem}: its texture {stem}.mmp is embedded when there is one");
        let figure = relic::evil_islands::model::read_mod(res.data(i), Some(&name)).unwrap();
        for (part, fig) in &figure.parts {
            let (_, n) = node(&doc, part);
            let prim = &doc["meshes"][n["mesh"].as_u64().unwrap() as usize]["primitives"][0];
            let p = accessor(&doc, &bin, prim["attributes"]["POSITION"].as_u64().unwrap());
            let b = &fig.bounds[0];
            let (lo, hi) = (gl(b.min.map(|c| c.get())), gl(b.max.map(|c| c.get())));
            let (lo, hi) = ([lo[0], lo[1], hi[2]], [hi[0], hi[1], lo[2]]); // −y flips the z bounds
            for v in p.chunks_exact(3) {
                for a in 0..3 {
                    assert!(
                        lo[a] - 1e-4 <= v[a] && v[a] <= hi[a] + 1e-4,
                        "{stem}/{part}: {v:?} outside {lo:?}..{hi:?}"
                    );
                }
            }
        }
    }
    assert_eq!(models, 10);
    assert!(report.outputs.iter().filter(|o| o.output.ends_with(".glb")).count() >= 10);
}

/// The sample figure (`samples/evil_islands/unit.*`): the model finds its bones, animations and texture
/// beside it.
#[test]
fn the_sample_figure_finds_what_lies_beside_it() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/evil_islands");
    let out = tempfile::tempdir().unwrap();
    let report = ops::convert(&[samples.join("unit.mod")], out.path(), &ConvertRequest::default(), &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let (doc, bin) = read_glb(&std::fs::read(out.path().join("unit.mod.glb")).unwrap());
    assert_eq!(doc["images"].as_array().unwrap().len(), 1);
    assert_eq!(doc["animations"][0]["name"], "idle");
    let (head_index, head) = node(&doc, "head");
    let (_, body) = node(&doc, "body");
    assert_eq!(body["children"], serde_json::json!([head_index]));
    // body.bon's morph-0 offset (0, 0, 0.5), Z-up, is (0, 0.5, 0) in glTF.
    assert_eq!(head["translation"], serde_json::json!([0.0, 0.5, -0.0]));
    let prim = &doc["meshes"][head["mesh"].as_u64().unwrap() as usize]["primitives"][0];
    let p = accessor(&doc, &bin, prim["attributes"]["POSITION"].as_u64().unwrap());
    assert_eq!(&p[..3], &[1.0, 0.0, -0.0]);
    if let Some(reports) = relic::testing::validate_gltf(&[&out.path().join("unit.mod.glb")]) {
        assert_eq!(reports[0].errors, 0, "{:?}", reports[0]);
    }
}

/// Morphing frames (one shift per position of the part) become morph targets of their own, and the clip
/// steps their weights: frame k's target at 1, every other at 0.
#[test]
fn morphing_frames_become_targets_stepped_by_the_clip() {
    let mut anm = Vec::new();
    u32s(&mut anm, &[0, 0, 2, 4]); // no rotations, no translations, 2 frames of 4 vertices
    for k in 0..2 {
        for v in 0..4 {
            floats(&mut anm, &[k as f32, v as f32, 0.5]);
        }
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("model.mod"), res(&[("model", lnk()), ("body", fig8(0)), ("arm", fig8(1))]))
        .unwrap();
    std::fs::write(dir.path().join("model.anm"), res(&[("wave", res(&[("arm", anm)]))])).unwrap();
    let (doc, bin) = convert(&dir.path().join("model.mod"), &dir.path().join("out"), None);
    let (arm_index, arm) = node(&doc, "arm");
    let prim = &doc["meshes"][arm["mesh"].as_u64().unwrap() as usize]["primitives"][0];
    let targets = prim["targets"].as_array().unwrap();
    assert_eq!(targets.len(), 10);
    assert_eq!(doc["meshes"][arm["mesh"].as_u64().unwrap() as usize]["extras"]["targetNames"][9], "wave#1");
    // Frame 1's shift of vertex 2, (1, 2, 0.5) Z-up, is (1, 0.5, −2) in glTF.
    let d = accessor(&doc, &bin, targets[9]["POSITION"].as_u64().unwrap());
    assert_eq!(&d[6..9], &[1.0, 0.5, -2.0]);
    let clip = &doc["animations"][0];
    let weights = clip["channels"].as_array().unwrap().iter().find(|c| c["target"]["path"] == "weights").unwrap();
    assert_eq!(weights["target"]["node"], arm_index);
    let sampler = &clip["samplers"][weights["sampler"].as_u64().unwrap() as usize];
    assert_eq!(sampler["interpolation"], "STEP");
    let w = accessor(&doc, &bin, sampler["output"].as_u64().unwrap());
    let mut expect = vec![0.0f32; 20];
    expect[8] = 1.0;
    expect[10 + 9] = 1.0;
    assert_eq!(w, expect);
}

/// A figure's `.bon` RES whose entry for one part is empty (real figure archives have such entries):
/// read, it is a part with no offsets; written back, it is empty again and the RES is byte for byte the
/// same; the model converts, with that part at its parent's origin and a note saying so.
#[test]
fn an_empty_bone_entry_is_a_part_at_its_parents_origin() {
    use relic::evil_islands::{bon, res};
    let bones = res(&[("body", bon(1)), ("arm", vec![])]);
    let set = bon::parse_set(&bones).unwrap();
    assert_eq!(set.len(), 2);
    let body = relic::evil_islands::model::find(&set, "body").unwrap();
    assert_eq!(body.offsets.len(), 8);
    assert_eq!(body.offset(7), Some([7.0, 0.0, 17.0]));
    let arm = relic::evil_islands::model::find(&set, "arm").unwrap();
    assert_eq!(arm, &bon::Bon { offsets: vec![] });
    // The empty part on its own: info, JSON and back, empty.
    assert_eq!(bon::write(arm).unwrap(), Vec::<u8>::new());
    let info = bon::FORMAT.info(&[]).unwrap();
    assert_eq!((info["offsets"].as_u64(), info["file_size"].as_u64()), (Some(0), Some(0)));
    let json = bon::FORMAT.to_json(&[]).unwrap();
    assert_eq!(json, serde_json::json!({"format": "ei-bon", "offsets": []}));
    assert_eq!(bon::FORMAT.from_json(json, &Default::default()).unwrap(), Vec::<u8>::new());
    // The RES through its lossless document: the same bytes.
    let doc = res::FORMAT.to_json(&bones).unwrap();
    assert_eq!(res::FORMAT.from_json(doc, &Default::default()).unwrap(), bones);

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("model.mod"), res(&[("model", lnk()), ("body", fig8(0)), ("arm", fig8(1))]))
        .unwrap();
    std::fs::write(dir.path().join("model.bon"), &bones).unwrap();
    // Extracted and packed again through relic: the empty entry stays empty, the RES the same. (`convert`
    // of a `.bon` RES gives its friendly JSON; `extract` gives the entries.)
    let extracted = dir.path().join("x");
    ops::extract(&dir.path().join("model.bon"), &extracted, &ops::ExtractOptions::default(), &Quiet).unwrap();
    let arm = extracted.join("arm.bon");
    assert_eq!(std::fs::read(&arm).unwrap(), Vec::<u8>::new());
    let folder = extracted.as_path();
    let report =
        ops::convert(&[dir.path().join("model.bon")], &dir.path().join("j"), &ConvertRequest::default(), &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let friendly: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("j/model.bon.json")).unwrap()).unwrap();
    let bones_json = friendly["bones"].as_array().unwrap();
    assert!(bones_json.contains(&serde_json::json!({"part": "arm", "offsets": []})), "{friendly}");
    let packed = dir.path().join("packed.bon");
    ops::pack("ei-res", folder, &packed, &ops::PackOptions::default()).unwrap();
    assert_eq!(std::fs::read(&packed).unwrap(), bones);

    let options = ConvertOptions::default();
    let notes = options.notes.clone();
    let req = ConvertRequest { options, ..Default::default() };
    let out = dir.path().join("out");
    let report = ops::convert(&[dir.path().join("model.mod")], &out, &req, &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let glb = report.outputs.iter().find(|o| o.output.ends_with(".glb")).expect("a glTF written");
    let (doc, _) = read_glb(&std::fs::read(&glb.output).unwrap());
    let (_, body) = node(&doc, "body");
    let (_, arm) = node(&doc, "arm");
    // The body's bone (morph 0 at (0, 0, 10) Z-up) places it; the arm has none: the origin.
    assert_eq!(body["translation"], serde_json::json!([0.0, 10.0, -0.0]));
    assert!(arm.get("translation").is_none() || arm["translation"] == serde_json::json!([0.0, 0.0, 0.0]), "{arm}");
    let notes = notes.lock().unwrap();
    assert!(
        notes.iter().any(|n| n == "model: part arm: its bone offsets are empty: placed at its parent's origin"),
        "{notes:?}"
    );
}
