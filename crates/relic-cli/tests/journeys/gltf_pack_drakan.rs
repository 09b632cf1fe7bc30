//! `relic pack drakan-srsc model.glb -o new.mod` from the command line (issue 29): a sample's model
//! converted to glTF, packed back to a `.mod`, converted again to the same glTF geometry; an existing
//! output is not overwritten without `--force`; a glTF without stored texture references gets a `.txd`
//! beside the output.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::relic;

fn sample() -> PathBuf {
    crate::common::samples().join("drakan/Sample.mod")
}

fn validate(paths: &[&Path]) {
    if let Some(reports) = relic::testing::validate_gltf(paths) {
        assert_eq!(reports.len(), paths.len());
        for r in reports {
            assert_eq!(r.errors, 0, "{r:?}");
        }
    }
}

/// The glb's JSON and binary chunk.
fn read_glb(path: &Path) -> (Value, Vec<u8>) {
    let glb = std::fs::read(path).unwrap();
    assert_eq!(&glb[0..4], b"glTF");
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let doc: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let rest = &glb[20 + json_len..];
    let bin_len = u32::from_le_bytes(rest[0..4].try_into().unwrap()) as usize;
    (doc, rest[8..8 + bin_len].to_vec())
}

fn floats(doc: &Value, bin: &[u8], accessor: &Value, width: usize) -> Vec<Vec<f32>> {
    let a = &doc["accessors"][accessor.as_u64().unwrap() as usize];
    let view = &doc["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize + a["byteOffset"].as_u64().unwrap_or(0) as usize;
    let n = a["count"].as_u64().unwrap() as usize;
    assert_eq!(a["componentType"], 5126);
    let values: Vec<f32> =
        bin[start..start + 4 * n * width].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    values.chunks(width).map(<[f32]>::to_vec).collect()
}

fn indices(doc: &Value, bin: &[u8], accessor: &Value) -> Vec<usize> {
    let a = &doc["accessors"][accessor.as_u64().unwrap() as usize];
    let view = &doc["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize + a["byteOffset"].as_u64().unwrap_or(0) as usize;
    let n = a["count"].as_u64().unwrap() as usize;
    match a["componentType"].as_u64().unwrap() {
        5123 => bin[start..start + 2 * n].chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]) as usize).collect(),
        5125 => bin[start..start + 4 * n]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()) as usize)
            .collect(),
        5121 => bin[start..start + n].iter().map(|&b| b as usize).collect(),
        t => panic!("index type {t}"),
    }
}

/// The glb's triangles as (material name, double sided, three (position, uv) corners), sorted, values
/// rounded to 1e-5.
fn triangles(path: &Path) -> Vec<(String, bool, Vec<[i64; 5]>)> {
    let (doc, bin) = read_glb(path);
    let mut out = Vec::new();
    for mesh in doc["meshes"].as_array().unwrap() {
        for p in mesh["primitives"].as_array().unwrap() {
            let pos = floats(&doc, &bin, &p["attributes"]["POSITION"], 3);
            let uv = floats(&doc, &bin, &p["attributes"]["TEXCOORD_0"], 2);
            let m = &doc["materials"][p["material"].as_u64().unwrap() as usize];
            let name = m["name"].as_str().unwrap().to_string();
            let ds = m["doubleSided"].as_bool().unwrap_or(false);
            for t in indices(&doc, &bin, &p["indices"]).chunks(3) {
                let mut corners: Vec<[i64; 5]> = t
                    .iter()
                    .map(|&i| {
                        let r = |v: f32| (f64::from(v) * 1e5).round() as i64;
                        [r(pos[i][0]), r(pos[i][1]), r(pos[i][2]), r(uv[i][0]), r(uv[i][1])]
                    })
                    .collect();
                // Rotate the smallest corner first: the same triangle, the same winding.
                let k = (0..3).min_by_key(|&k| corners[k]).unwrap();
                corners.rotate_left(k);
                out.push((name.clone(), ds, corners));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_sample_model_goes_to_gltf_and_back_to_a_mod() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    std::fs::copy(sample(), work.join("Sample.mod")).unwrap();
    std::fs::copy(sample().with_extension("txd"), work.join("Sample.txd")).unwrap();
    std::fs::copy(sample().with_extension("db"), work.join("Sample.db")).unwrap();
    relic().args(["convert", "-o"]).arg(work.join("out")).arg(work.join("Sample.mod")).assert().success();
    let glb = work.join("out/Sample.mod/models/Crate.view.glb");
    assert!(glb.is_file());

    // The model keeps its references (database 0, ids 2 and 3): `relic convert Crate.mod` looks them up in
    // `Crate.db`'s `.txd`, or in the `.txd` of the same name, so `Sample.txd` is copied as `Crate.txd`.
    let new = work.join("Crate.mod");
    let out = relic().args(["pack", "drakan-srsc"]).arg(&glb).arg("-o").arg(&new).assert().success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("0x0209"), "the REO LOD is noted as dropped: {stderr}");
    assert!(!work.join("Crate.txd").exists(), "every material kept its stored reference: no .txd written");
    std::fs::copy(work.join("Sample.txd"), work.join("Crate.txd")).unwrap();

    relic().args(["convert", "-o"]).arg(work.join("again")).arg(&new).assert().success();
    let again = work.join("again/Crate.mod/models/Crate.view.glb");
    validate(&[&glb, &again]);
    let before = triangles(&glb);
    let after = triangles(&again);
    assert_eq!(before.len(), 12);
    // Material names follow the `.txd` found (`Sample.txd:2` then `Crate.txd:2`): compare the rest.
    let strip = |v: Vec<(String, bool, Vec<[i64; 5]>)>| -> Vec<(String, bool, Vec<[i64; 5]>)> {
        let mut v: Vec<_> = v.into_iter().map(|(n, d, c)| (n.rsplit(':').next().unwrap().to_string(), d, c)).collect();
        v.sort();
        v
    };
    assert_eq!(strip(before), strip(after));

    // No overwrite without --force; with it, the same bytes again.
    let first = std::fs::read(&new).unwrap();
    let refused = relic().args(["pack", "drakan-srsc"]).arg(&glb).arg("-o").arg(&new).assert().failure();
    assert!(String::from_utf8_lossy(&refused.get_output().stderr).contains("--force"));
    relic().args(["pack", "drakan-srsc", "--force"]).arg(&glb).arg("-o").arg(&new).assert().success();
    assert_eq!(std::fs::read(&new).unwrap(), first);

    // Only a model file is made from a glTF.
    let wrong = relic().args(["pack", "drakan-srsc"]).arg(&glb).arg("-o").arg(work.join("x.txd")).assert().failure();
    assert!(String::from_utf8_lossy(&wrong.get_output().stderr).contains(".mod"));
}

#[test]
fn a_gltf_without_texture_references_gets_a_txd_beside_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    let glb = work.join("hand.glb");
    std::fs::write(&glb, relic::testing::hand_gltf::box_two_bones_glb()).unwrap();
    let new = work.join("Hand.mod");
    let out = relic().args(["pack", "drakan-srsc"]).arg(&glb).arg("-o").arg(&new).assert().success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    let txd = work.join("Hand.txd");
    let beside = format!("wrote {} ({} bytes) beside it", txd.display(), std::fs::metadata(&txd).unwrap().len());
    assert!(stderr.lines().any(|l| l == beside), "{stderr}");
    assert!(stderr.contains("flattened"), "{stderr}");

    // The model converts again with its texture found in the `.txd` of its name: 12 quads, 24 triangles.
    relic().args(["convert", "-o"]).arg(work.join("out")).arg(&new).assert().success();
    let view = work.join("out/Hand.mod/models/Hand.view.glb");
    validate(&[&glb, &view]);
    let (doc, _) = read_glb(&view);
    assert_eq!(doc["images"].as_array().map_or(0, Vec::len), 1, "the new texture is embedded");
    assert_eq!(triangles(&view).len(), 24);

    // The `.txd` beside, unchanged, is left as it is; edited, it is not overwritten without --force, even
    // when the model is gone.
    std::fs::remove_file(&new).unwrap();
    let again = relic().args(["pack", "drakan-srsc"]).arg(&glb).arg("-o").arg(&new).assert().success();
    assert!(String::from_utf8_lossy(&again.get_output().stderr).contains("left as it is"));
    std::fs::remove_file(&new).unwrap();
    let mut txd = std::fs::read(work.join("Hand.txd")).unwrap();
    txd.push(0);
    std::fs::write(work.join("Hand.txd"), &txd).unwrap();
    let refused = relic().args(["pack", "drakan-srsc"]).arg(&glb).arg("-o").arg(&new).assert().failure();
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).to_string();
    assert!(stderr.contains("Hand.txd") && stderr.contains("--force"), "{stderr}");
    assert!(!new.exists());
}
