//! `relic pack` of a glTF that asks for gigabytes or holds NaN (issue 40), as a user meets it: the pack exits
//! 1 with one clear line naming the format, what costs too much (or the accessor and node) and how to raise
//! the limit, and writes nothing; raising `--max-expansion` lets a file that is only large pack.
//!
//! - `relic pack ei-res evil.glb`: 3,000 nodes skinned by one 3,000-joint skin (hand-written glb, 88 KB);
//! - `relic pack ro-rsm many.glb`: one 3,000-vertex mesh under 40 nodes: refused at the default ratio, packed
//!   with `--max-expansion 10000`, and `relic convert` of the result gives the 40 placed meshes back;
//! - `relic convert unit.mod` → a NaN written into the glb's first POSITION (as a script or a broken export
//!   would) → `relic pack ei-res|ro-rsm|drakan-srsc` each refuse it, naming the accessor and the node.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{json, Value};

use crate::common::{relic, stderr_of};

fn sample(name: &str) -> PathBuf {
    crate::common::samples().join("evil_islands").join(name)
}

/// A `.glb` of `doc` and `bin` (glTF 2.0 §4.4: chunks padded to 4 bytes).
fn glb(doc: &Value, bin: &[u8]) -> Vec<u8> {
    relic::testing::hand_gltf::glb(&serde_json::to_vec(doc).unwrap(), bin)
}

fn f32s(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The JSON chunk and the BIN chunk of a GLB.
fn split(glb: &[u8]) -> (Value, Vec<u8>) {
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json = serde_json::from_slice(&glb[20..20 + len]).unwrap();
    (json, glb[20 + len + 8..].to_vec())
}

/// Exit code 1, and stderr one line.
fn refused(cmd: &mut Command) -> String {
    let assert = cmd.assert().code(1);
    let stderr = stderr_of(&assert);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn a_skin_of_3000_joints_over_3000_nodes_is_refused_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let evil = tmp.path().join("evil.glb");
    std::fs::write(&evil, relic::testing::hand_gltf::one_skin_over_nodes_glb(3000)).unwrap();
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let stderr = refused(relic().current_dir(tmp.path()).args(["pack", "ei-res", "evil.glb", "-o", "out/evil.mod"]));
    assert!(stderr.starts_with("relic: evil.glb: ei-res: skins[0] at offset 0x0: the glTF's "), "{stderr}");
    assert!(stderr.contains("more than 1000× (--max-expansion raises the limit)"), "{stderr}");
    assert!(
        stderr.trim_end().ends_with(
            "skin 0 of 3000 joints skinning 3000 mesh node(s) (first: node 1 `n1`) makes 1152000000 of them"
        ),
        "{stderr}"
    );
    assert!(files_in(&out).is_empty(), "{:?}", files_in(&out));
}

#[test]
fn a_mesh_under_many_nodes_packs_only_within_max_expansion() {
    let (nodes, vertices) = (40usize, 3000usize);
    // Sparse POSITION without a view: zeros, and three stored values (a triangle at 0..3).
    let mut bin: Vec<u8> = [0u32, 1, 2].iter().flat_map(|i| i.to_le_bytes()).collect();
    bin.extend(f32s(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]));
    let mut list = vec![json!({"name": "root", "children": (1..=nodes).collect::<Vec<_>>()})];
    list.extend((1..=nodes).map(|i| json!({"name": format!("n{i}"), "mesh": 0, "translation": [i as f32, 0.0, 0.0]})));
    let doc = json!({
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": list,
        "meshes": [{"name": "big", "primitives": [{"attributes": {"POSITION": 0}}]}],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 12}, {"buffer": 0, "byteOffset": 12, "byteLength": 36}],
        "accessors": [{
            "componentType": 5126, "count": vertices, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0],
            "sparse": {"count": 3, "indices": {"bufferView": 0, "componentType": 5125}, "values": {"bufferView": 1}}
        }]
    });
    let tmp = tempfile::tempdir().unwrap();
    let file = glb(&doc, &bin);
    std::fs::write(tmp.path().join("many.glb"), &file).unwrap();
    let total = nodes * vertices * 128;
    let stderr = refused(relic().current_dir(tmp.path()).args(["pack", "ro-rsm", "many.glb", "-o", "many.rsm"]));
    assert_eq!(
        stderr.trim_end(),
        format!(
            "relic: many.glb: ro-rsm: meshes[0] at offset 0x0: the glTF's {} bytes would expand to {total} bytes once \
             its meshes are copied to every node placing them and its skins' joints to every node they skin, more than \
             1000× (--max-expansion raises the limit): mesh 0 `big` placed by {nodes} node(s) (first: node 1 `n1`) \
             makes {total} of them",
            file.len()
        )
    );
    assert!(!tmp.path().join("many.rsm").exists());
    // The limit raised as the message says: it packs, and converts back to 40 placed meshes.
    relic()
        .current_dir(tmp.path())
        .args(["pack", "ro-rsm", "--max-expansion", "10000", "many.glb", "-o", "many.rsm"])
        .assert()
        .success();
    relic().current_dir(tmp.path()).args(["convert", "-q", "-o", "back", "many.rsm"]).assert().success();
    let (back, _) = split(&std::fs::read(tmp.path().join("back/many.rsm.glb")).unwrap());
    let placed = back["nodes"].as_array().unwrap().iter().filter(|n| n.get("mesh").is_some()).count();
    assert_eq!(placed, nodes);
}

#[test]
fn a_nan_written_into_a_converted_figure_is_refused_by_every_pack() {
    let tmp = tempfile::tempdir().unwrap();
    for ext in ["mod", "bon", "anm", "mmp"] {
        std::fs::copy(sample(&format!("unit.{ext}")), tmp.path().join(format!("unit.{ext}"))).unwrap();
    }
    relic().current_dir(tmp.path()).args(["convert", "-q", "-o", "out", "unit.mod"]).assert().success();
    let path = tmp.path().join("out/unit.mod.glb");
    let mut bytes = std::fs::read(&path).unwrap();
    let (doc, _) = split(&bytes);
    // The first mesh node, its mesh's first POSITION accessor and where item 1's y lies in the file.
    let node = doc["nodes"].as_array().unwrap().iter().position(|n| n.get("mesh").is_some()).unwrap();
    let mesh = doc["nodes"][node]["mesh"].as_u64().unwrap() as usize;
    let first_node_of_mesh =
        doc["nodes"].as_array().unwrap().iter().position(|n| n["mesh"].as_u64() == Some(mesh as u64)).unwrap();
    let accessor = doc["meshes"][mesh]["primitives"][0]["attributes"]["POSITION"].as_u64().unwrap() as usize;
    let a = &doc["accessors"][accessor];
    let view = &doc["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let stride = view["byteStride"].as_u64().unwrap_or(12);
    let in_buffer = view["byteOffset"].as_u64().unwrap_or(0) + a["byteOffset"].as_u64().unwrap_or(0) + stride;
    let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let at = 20 + json_len + 8 + in_buffer as usize + 4;
    bytes[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();

    let mesh_name = doc["meshes"][mesh]["name"].as_str().unwrap_or("");
    let node_name = doc["nodes"][first_node_of_mesh]["name"].as_str().unwrap_or("");
    let expected = format!(
        "relic: out/unit.mod.glb: gltf: accessors[{accessor}][1] at offset 0x{in_buffer:X}: holds NaN, not a finite \
         number (glTF 2.0 §3.6.2.1 forbids NaN and infinities): the POSITION of mesh {mesh} `{mesh_name}` primitive 0, \
         placed by node {first_node_of_mesh} `{node_name}`"
    );
    std::fs::create_dir(tmp.path().join("new")).unwrap();
    for (format, output) in [("ei-res", "new/unit.mod"), ("ro-rsm", "new/unit.rsm"), ("drakan-srsc", "new/unit.mod")] {
        let stderr = refused(relic().current_dir(tmp.path()).args(["pack", format, "out/unit.mod.glb", "-o", output]));
        assert_eq!(stderr.trim_end(), expected, "{format}");
        assert!(files_in(&tmp.path().join("new")).is_empty(), "{format}: {:?}", files_in(&tmp.path().join("new")));
    }
}
