//! `.anm` and `.bon` on their own, as a user meets them (issue 28): `relic convert body.anm` gives a
//! friendly JSON (part, frames, rotations as x, y, z, w quaternions, translations, morphing frames); with
//! the part's figure beside it, also a glTF playing it (Khronos validator); an animation set beside its
//! `.mod` gives a clip on that model; a `.bon` gives its offsets per morph extreme; `--to json` still
//! packs back byte for byte; and a target a file cannot make is an error alone, a counted skip in a folder.
//! Files are written here from the spec's layouts (ANM: u32 n, n × quaternion w, x, y, z; u32 n, n × vec3;
//! u32 morph frames, u32 morph vertices, shifts. BON: 8 × vec3), not by relic's writers.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::common::relic;

fn sample(name: &str) -> PathBuf {
    crate::common::samples().join("evil_islands").join(name)
}

fn f32s(out: &mut Vec<u8>, values: &[f32]) {
    out.extend(values.iter().flat_map(|v| v.to_le_bytes()));
}

/// Two frames: identity then a half turn about z (stored w, x, y, z); translations (0, 0, 1), (0.5, 0, 1);
/// one morphing frame of two vertices.
fn anm_bytes() -> Vec<u8> {
    let mut out = 2u32.to_le_bytes().to_vec();
    f32s(&mut out, &[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    out.extend(2u32.to_le_bytes());
    f32s(&mut out, &[0.0, 0.0, 1.0, 0.5, 0.0, 1.0]);
    out.extend(1u32.to_le_bytes());
    out.extend(2u32.to_le_bytes());
    f32s(&mut out, &[0.25, 0.0, 0.0, 0.0, -0.25, 0.0]);
    out
}

fn bon_bytes() -> Vec<u8> {
    let mut out = Vec::new();
    for m in 0..8 {
        f32s(&mut out, &[m as f32, 0.0, 0.5]);
    }
    out
}

fn convert(dir: &Path, args: &[&str], input: &Path) -> assert_cmd::assert::Assert {
    relic().args(["convert", "-q", "-o"]).arg(dir).args(args).arg(input).assert()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn glb_json(path: &Path) -> Value {
    let glb = std::fs::read(path).unwrap();
    assert_eq!(&glb[0..4], b"glTF");
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + len]).unwrap()
}

fn validate(paths: &[&Path]) {
    if let Some(reports) = relic::testing::validate_gltf(paths) {
        for r in reports {
            assert_eq!(r.errors, 0, "{}: {:#?}", r.path, r.messages);
        }
    }
}

#[test]
fn a_lone_anm_converts_to_friendly_json_and_its_lossless_json_packs_back() {
    let src = tempfile::tempdir().unwrap();
    let anm = src.path().join("arm.anm");
    std::fs::write(&anm, anm_bytes()).unwrap();
    let out = tempfile::tempdir().unwrap();
    let assert = relic().args(["convert", "-o"]).arg(out.path()).arg(&anm).assert().success();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("no arm.fig beside it: JSON only"), "{stderr}");
    let v = read_json(&out.path().join("arm.anm.json"));
    assert_eq!(
        v,
        json!({
            "format": "ei-anm",
            "frames_per_second": 15,
            "animation": {
                "part": "arm",
                "frames": 2,
                "seconds_at_15_fps": 2.0 / 15.0,
                "rotations_xyzw": [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0]],
                "translations": [[0.0, 0.0, 1.0], [0.5, 0.0, 1.0]],
                "morph_vertex_count": 2,
                "morph_frames": [[[0.25, 0.0, 0.0], [0.0, -0.25, 0.0]]],
            }
        })
    );
    assert!(!out.path().join("arm.anm.glb").exists());
    // Asked for a glTF without the figure: an error for the file given, exit 1.
    convert(out.path(), &["--to", "glb"], &anm).failure().code(1);
    // In a folder: a skip the summary counts, exit 0.
    let folder_out = tempfile::tempdir().unwrap();
    let assert =
        relic().args(["convert", "--to", "glb", "-o"]).arg(folder_out.path()).arg(src.path()).assert().success();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("1 skipped"), "{stderr}");
    // The lossless JSON packs back byte for byte.
    let lossless = tempfile::tempdir().unwrap();
    convert(lossless.path(), &["--to", "json"], &anm).success();
    let back = lossless.path().join("back.anm");
    relic().args(["pack", "ei-anm", "-o"]).arg(&back).arg(lossless.path().join("arm.anm.json")).assert().success();
    assert_eq!(std::fs::read(&back).unwrap(), anm_bytes());
}

#[test]
fn a_lone_bon_converts_to_friendly_json_and_makes_no_gltf() {
    let src = tempfile::tempdir().unwrap();
    let bon = src.path().join("arm.bon");
    std::fs::write(&bon, bon_bytes()).unwrap();
    let out = tempfile::tempdir().unwrap();
    convert(out.path(), &[], &bon).success();
    let v = read_json(&out.path().join("arm.bon.json"));
    assert_eq!(v["format"], "ei-bon");
    assert_eq!(v["bones"][0]["part"], "arm");
    let offsets = v["bones"][0]["offsets"].as_array().unwrap();
    assert_eq!(offsets.len(), 8);
    assert_eq!(offsets[5], json!({"strength": 0, "dexterity": 1, "height": 1, "offset": [5.0, 0.0, 0.5]}));
    // Offsets alone are no glTF: a usage error naming what the file makes (as for any format's lone file).
    let assert = convert(out.path(), &["--to", "glb"], &bon).failure().code(2);
    assert!(String::from_utf8_lossy(&assert.get_output().stderr).contains("converts to json, not glb"));
    // The RES form (a model's .bon): every part.
    convert(out.path(), &[], &sample("unit.bon")).success();
    let v = read_json(&out.path().join("unit.bon.json"));
    assert_eq!(v["format"], "ei-bon-set");
    let parts: Vec<&str> = v["bones"].as_array().unwrap().iter().map(|b| b["part"].as_str().unwrap()).collect();
    assert_eq!(parts, ["body", "head"]);
}

#[test]
fn an_anm_beside_its_figure_becomes_a_gltf_clip() {
    let src = tempfile::tempdir().unwrap();
    for f in ["body.fig", "body.bon"] {
        std::fs::copy(sample(f), src.path().join(f)).unwrap();
    }
    std::fs::write(src.path().join("body.anm"), anm_bytes()).unwrap();
    let out = tempfile::tempdir().unwrap();
    convert(out.path(), &[], &src.path().join("body.anm")).success();
    assert_eq!(read_json(&out.path().join("body.anm.json"))["animation"]["frames"], 2);
    let glb = out.path().join("body.anm.glb");
    let doc = glb_json(&glb);
    assert_eq!(doc["animations"][0]["name"], "body");
    let node = doc["nodes"].as_array().unwrap().iter().position(|n| n["name"] == "body").unwrap();
    let channels = doc["animations"][0]["channels"].as_array().unwrap();
    assert!(channels.iter().any(|c| c["target"]["node"] == node && c["target"]["path"] == "rotation"));
    assert!(channels.iter().any(|c| c["target"]["node"] == node && c["target"]["path"] == "translation"));
    validate(&[&glb]);
}

#[test]
fn an_animation_set_beside_its_model_becomes_clips_on_it() {
    let src = tempfile::tempdir().unwrap();
    for f in ["unit.mod", "unit.anm", "unit.bon", "unit.mmp"] {
        std::fs::copy(sample(f), src.path().join(f)).unwrap();
    }
    let out = tempfile::tempdir().unwrap();
    convert(out.path(), &[], &src.path().join("unit.anm")).success();
    let v = read_json(&out.path().join("unit.anm.json"));
    assert_eq!(v["format"], "ei-anm-set");
    assert_eq!(v["animations"][0]["name"], "idle");
    assert_eq!(v["animations"][0]["parts"][0]["part"], "body");
    let glb = out.path().join("unit.anm.glb");
    let doc = glb_json(&glb);
    assert_eq!(doc["animations"][0]["name"], "idle");
    assert!(doc["nodes"].as_array().unwrap().iter().any(|n| n["name"] == "head"));
    validate(&[&glb]);
    // The same through `.lnk` and the figures beside it (no `.mod`).
    let loose = tempfile::tempdir().unwrap();
    for f in ["unit.anm", "unit.lnk", "body.fig"] {
        std::fs::copy(sample(f), loose.path().join(f)).unwrap();
    }
    let out = tempfile::tempdir().unwrap();
    let assert = relic().args(["convert", "-o"]).arg(out.path()).arg(loose.path().join("unit.anm")).assert().success();
    assert!(String::from_utf8_lossy(&assert.get_output().stderr).contains("no head.fig beside it"));
    let glb = out.path().join("unit.anm.glb");
    assert_eq!(glb_json(&glb)["animations"][0]["name"], "idle");
    validate(&[&glb]);
}
