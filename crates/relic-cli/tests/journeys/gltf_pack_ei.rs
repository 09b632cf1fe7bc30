//! glTF back into an Evil Islands figure, as a user does it (issue 29): `relic convert unit.mod` (its
//! `.bon`, `.anm`, `.mmp` beside it) → `relic pack ei-res unit.mod.glb -o new/unit.mod` writes the figure
//! and `unit.bon`, `unit.anm`, `unit.mmp` beside it → `relic convert new/unit.mod` gives the same glTF
//! (nodes, meshes, accessors' values, clips); a second pack without `--force` is refused and leaves the
//! files as they were; an output that is not `.mod` is refused.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::relic;

fn sample(name: &str) -> PathBuf {
    crate::common::samples().join("evil_islands").join(name)
}

/// The JSON chunk and the binary chunk of a GLB.
fn glb(path: &Path) -> (Value, Vec<u8>) {
    let glb = std::fs::read(path).unwrap();
    assert_eq!(&glb[0..4], b"glTF");
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json = serde_json::from_slice(&glb[20..20 + len]).unwrap();
    let bin = glb.get(20 + len + 8..).unwrap_or_default().to_vec();
    (json, bin)
}

/// An accessor's floats.
fn floats(doc: &Value, bin: &[u8], accessor: u64) -> Vec<f32> {
    let a = &doc["accessors"][accessor as usize];
    let view = &doc["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let start = (view["byteOffset"].as_u64().unwrap_or(0) + a["byteOffset"].as_u64().unwrap_or(0)) as usize;
    let comps = match a["type"].as_str().unwrap() {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" => 4,
        t => panic!("{t}"),
    };
    let n = a["count"].as_u64().unwrap() as usize * comps;
    match a["componentType"].as_u64().unwrap() {
        5126 => (0..n).map(|i| f32::from_le_bytes(bin[start + 4 * i..start + 4 * i + 4].try_into().unwrap())).collect(),
        5125 => (0..n)
            .map(|i| u32::from_le_bytes(bin[start + 4 * i..start + 4 * i + 4].try_into().unwrap()) as f32)
            .collect(),
        5123 => (0..n)
            .map(|i| u16::from_le_bytes(bin[start + 2 * i..start + 2 * i + 2].try_into().unwrap()) as f32)
            .collect(),
        t => panic!("component type {t}"),
    }
}

/// Per mesh: its triangles as corner values (position, UV, and every morph target's shift), sorted.
fn mesh_triangles(doc: &Value, bin: &[u8]) -> Vec<(String, Vec<Vec<i64>>)> {
    let mut out = Vec::new();
    for mesh in doc["meshes"].as_array().unwrap() {
        let prim = &mesh["primitives"][0];
        let pos = floats(doc, bin, prim["attributes"]["POSITION"].as_u64().unwrap());
        let uv = floats(doc, bin, prim["attributes"]["TEXCOORD_0"].as_u64().unwrap());
        let targets: Vec<Vec<f32>> = prim["targets"]
            .as_array()
            .map(|t| t.iter().map(|t| floats(doc, bin, t["POSITION"].as_u64().unwrap())).collect())
            .unwrap_or_default();
        let idx = floats(doc, bin, prim["indices"].as_u64().unwrap());
        let corner = |v: usize| -> Vec<i64> {
            let mut c: Vec<f32> = pos[3 * v..3 * v + 3].to_vec();
            c.extend(&uv[2 * v..2 * v + 2]);
            for t in &targets {
                c.extend(&t[3 * v..3 * v + 3]);
            }
            c.iter().map(|x| (x * 1e4).round() as i64).collect()
        };
        let mut tris: Vec<Vec<i64>> = idx
            .chunks(3)
            .map(|t| {
                let cs: Vec<Vec<i64>> = t.iter().map(|&v| corner(v as usize)).collect();
                let first = (0..3).min_by_key(|&k| cs[k].clone()).unwrap();
                (0..3).flat_map(|k| cs[(first + k) % 3].clone()).collect()
            })
            .collect();
        tris.sort();
        out.push((mesh["name"].as_str().unwrap().to_string(), tris));
    }
    out.sort();
    out
}

/// Nodes (name, translation, children's names) and clips (name, per channel target name, path and
/// values), sorted.
fn nodes_and_clips(doc: &Value, bin: &[u8]) -> (Vec<String>, Vec<String>) {
    let nodes = doc["nodes"].as_array().unwrap();
    let name = |i: &Value| nodes[i.as_u64().unwrap() as usize]["name"].as_str().unwrap().to_string();
    let mut n: Vec<String> = nodes
        .iter()
        .map(|node| {
            let kids: Vec<String> =
                node["children"].as_array().map(|c| c.iter().map(name).collect()).unwrap_or_default();
            format!("{} {} {:?} {}", node["name"], node["translation"], kids, node["extras"])
        })
        .collect();
    n.sort();
    let mut clips = Vec::new();
    for a in doc["animations"].as_array().cloned().unwrap_or_default() {
        for ch in a["channels"].as_array().unwrap() {
            let s = &a["samplers"][ch["sampler"].as_u64().unwrap() as usize];
            let times = floats(doc, bin, s["input"].as_u64().unwrap());
            let values: Vec<i64> =
                floats(doc, bin, s["output"].as_u64().unwrap()).iter().map(|x| (x * 1e4).round() as i64).collect();
            clips.push(format!(
                "{} {} {} {:?} {:?} {}",
                a["name"],
                name(&ch["target"]["node"]),
                ch["target"]["path"],
                times,
                values,
                s["interpolation"]
            ));
        }
    }
    clips.sort();
    (n, clips)
}

#[test]
fn convert_pack_convert_gives_the_same_figure() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir(&src).unwrap();
    for ext in ["mod", "bon", "anm", "mmp"] {
        std::fs::copy(sample(&format!("unit.{ext}")), src.join(format!("unit.{ext}"))).unwrap();
    }
    let out1 = tmp.path().join("out1");
    relic().args(["convert", "-q", "-o"]).arg(&out1).arg(src.join("unit.mod")).assert().success();
    let first = out1.join("unit.mod.glb");
    assert!(first.is_file());

    let new = tmp.path().join("new");
    std::fs::create_dir(&new).unwrap();
    let assert = relic().args(["pack", "ei-res"]).arg(&first).arg("-o").arg(new.join("unit.mod")).assert().success();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    for ext in ["bon", "anm", "mmp"] {
        assert!(new.join(format!("unit.{ext}")).is_file(), "unit.{ext} not written: {stderr}");
    }

    let out2 = tmp.path().join("out2");
    relic().args(["convert", "-q", "-o"]).arg(&out2).arg(new.join("unit.mod")).assert().success();
    let (a, abin) = glb(&first);
    let (b, bbin) = glb(&out2.join("unit.mod.glb"));
    assert_eq!(mesh_triangles(&a, &abin), mesh_triangles(&b, &bbin));
    assert_eq!(nodes_and_clips(&a, &abin), nodes_and_clips(&b, &bbin));
    assert_eq!(a["images"].as_array().map(Vec::len), b["images"].as_array().map(Vec::len));

    // Again without --force: refused, nothing changed.
    let before: Vec<Vec<u8>> =
        ["mod", "bon", "anm", "mmp"].iter().map(|e| std::fs::read(new.join(format!("unit.{e}"))).unwrap()).collect();
    let assert = relic().args(["pack", "ei-res"]).arg(&first).arg("-o").arg(new.join("unit.mod")).assert().failure();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("--force"), "{stderr}");
    let after: Vec<Vec<u8>> =
        ["mod", "bon", "anm", "mmp"].iter().map(|e| std::fs::read(new.join(format!("unit.{e}"))).unwrap()).collect();
    assert_eq!(before, after);
    // With --force it writes again.
    relic().args(["pack", "ei-res", "--force"]).arg(&first).arg("-o").arg(new.join("unit.mod")).assert().success();

    // Only a .mod output.
    let assert = relic().args(["pack", "ei-res"]).arg(&first).arg("-o").arg(new.join("unit.res")).assert().failure();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains(".mod"), "{stderr}");
    assert!(!new.join("unit.res").exists());
}
