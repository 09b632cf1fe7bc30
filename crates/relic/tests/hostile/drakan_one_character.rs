//! Issue 40: 40 models over one 20,000-joint character (a 1.9 MB `.mod`) built the character 40 times and
//! held every scene at once (3.7 GiB, 21 s). The hostile file is built here by hand from the spec
//! (`drakan-riot-srsc.txt`, the character layout of docs/formats/drakan.md#character, through `srsc_fixtures`).

use std::path::Path;

use crate::srsc_fixtures;

use relic::ops::{self, ConvertRequest, Quiet};
use srsc_fixtures::Bytes as B;
use srsc_fixtures::{character, over};

/// `models` models (ids 1…) over one character body of `joints` joints; each model has its own 3-vertex
/// 0x0203 record (a distinct body, so no two models have the very same records) and one shared polygon
/// list; model k's shading is 0x8002 (smooth).
fn crowd(models: u16, joints: u32) -> Vec<u8> {
    let mut data = Vec::new();
    let mut at = |body: &[u8]| {
        let offset = 12 + data.len() as u32;
        data.extend(body);
        (offset, body.len() as u32)
    };
    let mut polygons = B::default().u16(1).u16(0).u16(3).u16(0);
    for i in 0..3u16 {
        polygons = polygons.u16(i).f32s(&[0.0, 0.0]);
    }
    let polygons = at(&polygons.done());
    let body = at(&character(joints, 3, 1));
    let mut entries = Vec::new();
    for k in 0..models {
        let id = k + 1;
        let name = at(&B::default().str(&format!("m{k}")).u32(0x8002).done());
        let mut vertices = B::default().u16(3);
        for p in [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, f32::from(k)]] {
            vertices = vertices.f32s(&p);
        }
        let vertices = at(&vertices.done());
        entries.push((0x0200, id, 0, name.0, name.1));
        entries.push((0x0203, id, 0, vertices.0, vertices.1));
        entries.push((0x0204, id, 0, polygons.0, polygons.1));
        entries.push((0x0208, id, 0, body.0, body.1));
    }
    over(&data, &entries)
}

/// Writes the hostile file where `RELIC_WRITE_CROWD` says (for measuring `relic convert` by hand with
/// `/usr/bin/time -v`); does nothing otherwise.
#[test]
fn write_the_hostile_crowd_when_asked() {
    if let Ok(path) = std::env::var("RELIC_WRITE_CROWD") {
        let models = std::env::var("RELIC_CROWD_MODELS").ok().and_then(|n| n.parse().ok()).unwrap_or(40);
        std::fs::write(&path, crowd(models, 20_000)).unwrap();
        eprintln!("wrote {path}");
    }
}

/// The limits are process-wide: the conversions here run one at a time (with this binary's heap
/// measurements, which they would disturb).
fn serial() -> std::sync::MutexGuard<'static, ()> {
    crate::counting::serial()
}

fn convert(dir: &Path, name: &str, bytes: &[u8]) -> (ops::ConvertReport, ConvertRequest) {
    let input = dir.join(name);
    std::fs::write(&input, bytes).unwrap();
    let req = ConvertRequest::default();
    let report = ops::convert(std::slice::from_ref(&input), &dir.join("out"), &req, &Quiet);
    (report, req)
}

/// What the build charges model `k`'s scene over a character of `joints` joints (a chain): its buffers
/// (`Scene::approximate_bytes`: the mesh's 3 vertices, the skin, 64 per node) and each node
/// (`NODE_BYTES`, its name, 8 per child).
fn charge(k: u16, joints: u64) -> u64 {
    let names: u64 = (0..joints).map(|j| format!("joint{j}").len() as u64).sum::<u64>() + format!("m{k}").len() as u64;
    // Positions, normals, uvs, joints, weights, indices.
    let mesh = 3 * (12 + 12 + 8 + 8 + 16 + 4);
    let skin = joints * (8 + 64);
    let nodes = joints + 1;
    mesh + skin + nodes * (64 + relic::drakan::scene::model::NODE_BYTES) + names + 8 * (joints - 1)
}

fn records(folder: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read(folder.join("records.json")).unwrap();
    serde_json::from_slice::<serde_json::Value>(&text).unwrap().as_array().unwrap().clone()
}

/// 40 models over one 2,000-joint character: the character is decoded and listed once (records.json lists
/// the 39 other records as `same_body_as` the first, without its fields), each model gets its skinned
/// scene of every joint, and the file packs back as it was.
#[test]
fn forty_models_over_one_character_list_it_once_and_each_gets_its_skeleton() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    let bytes = crowd(40, 2000);
    let (report, _) = convert(dir.path(), "Crowd.mod", &bytes);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let folder = dir.path().join("out/Crowd.mod");
    let items = records(&folder);
    let characters: Vec<(usize, &serde_json::Value)> =
        items.iter().enumerate().filter(|(_, v)| v["type"] == "0x0208").collect();
    assert_eq!(characters.len(), 40);
    let (first, listed) = characters[0];
    assert_eq!(listed["decoded"]["character"]["joints"].as_array().map(Vec::len), Some(2000), "{listed:#}");
    for (_, item) in &characters[1..] {
        assert_eq!(item.get("decoded"), None);
        assert_eq!(item["same_body_as"], first);
    }
    for k in 0..40 {
        let glb = std::fs::read(folder.join(format!("models/m{k}.view.glb"))).unwrap();
        let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
        let json: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
        assert_eq!(json["nodes"].as_array().unwrap().len(), 2001, "m{k}");
        assert_eq!(json["skins"][0]["joints"].as_array().unwrap().len(), 2000, "m{k}");
        // The chain: joint 1998's one child is joint 1999.
        let nodes = json["nodes"].as_array().unwrap();
        let at = |name: &str| nodes.iter().position(|n| n["name"] == name).unwrap();
        assert_eq!(nodes[at("joint1998")]["children"], serde_json::json!([at("joint1999")]), "m{k}");
        assert_eq!(json["scenes"][0]["extras"]["model"], format!("m{k}"));
    }
    let m39 = folder.join("models/m39.view.glb");
    for r in relic::testing::validate_gltf(&[&m39]).unwrap_or_default() {
        assert_eq!(r.errors, 0, "{r:?}");
    }
    // The listing without the 39 copies packs back: no warning, the very bytes.
    let back = dir.path().join("back.mod");
    let packed = ops::pack("drakan-srsc", &folder.join("Crowd.mod.json"), &back, &Default::default()).unwrap();
    assert!(packed.notes.iter().all(|n| !n.contains("warning")), "{:?}", packed.notes);
    assert!(std::fs::read(&back).unwrap() == bytes);
}

/// Each model is charged by what its scene holds, nodes included (they went uncharged): under
/// `--max-expansion 20` the models stop where the charges reach the budget, and each one left is named.
#[test]
fn models_over_one_character_are_charged_their_nodes_and_stop_at_the_budget() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    let bytes = crowd(40, 2000);
    let budget = bytes.len() as u64 * 20;
    // Built while anything is left of the budget.
    let (mut left, mut built) = (budget, 0u16);
    while left > 0 && built < 40 {
        left = left.saturating_sub(charge(built, 2000));
        built += 1;
    }
    assert_eq!(built, 4, "{budget}");
    relic::limits::set(relic::limits::Limits { max_expansion: 20, ..relic::limits::Limits::DEFAULT });
    let (report, _) = convert(dir.path(), "Crowd.mod", &bytes);
    relic::limits::set(relic::limits::Limits::DEFAULT);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let folder = dir.path().join("out/Crowd.mod");
    let glbs: Vec<_> = report.outputs.iter().filter(|o| o.output.ends_with(".glb")).collect();
    assert_eq!(glbs.len(), usize::from(built), "{glbs:?}");
    let lines: Vec<String> =
        records(&folder).iter().filter_map(|v| v.get("scene").and_then(|s| s.as_str()).map(str::to_string)).collect();
    let not_built: Vec<&String> = lines.iter().filter(|l| l.contains("not built")).collect();
    assert_eq!(not_built.len(), 40 - usize::from(built));
    assert_eq!(
        *not_built[0],
        format!(
            "model {} `m{}`: not built: the file's models already made more than 20× its {} bytes (--max-expansion \
             raises the limit)",
            built + 1,
            built,
            bytes.len()
        )
    );
}

/// The journey: a record listed `same_body_as` another, given a `decoded` of its own (the first's, with
/// its bounding sphere's radius edited), packs that edit into itself alone; converted again, it lists its
/// own fields and the first keeps its.
#[test]
fn a_shared_character_given_its_own_decoded_fields_packs_them_alone() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    let bytes = crowd(2, 50);
    let (report, _) = convert(dir.path(), "Pair.mod", &bytes);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let folder = dir.path().join("out/Pair.mod");
    let mut items = records(&folder);
    let at: Vec<usize> = (0..items.len()).filter(|&i| items[i]["type"] == "0x0208").collect();
    assert_eq!(items[at[1]]["same_body_as"], at[0]);
    let mut own = items[at[0]]["decoded"].clone();
    assert_eq!(own["character"]["bounding_info"]["sphere"]["radius"], 1.0);
    own["character"]["bounding_info"]["sphere"]["radius"] = 2.5.into();
    items[at[1]]["decoded"] = own;
    std::fs::write(folder.join("records.json"), serde_json::to_vec_pretty(&items).unwrap()).unwrap();

    let back = dir.path().join("Pair.mod");
    std::fs::remove_file(&back).unwrap();
    let packed = ops::pack("drakan-srsc", &folder.join("Pair.mod.json"), &back, &Default::default()).unwrap();
    assert!(
        packed.notes.iter().any(|n| n.ends_with("records.json: 1 record(s) packed back: 0x0208 id 2")),
        "{:?}",
        packed.notes
    );
    assert!(packed.notes.iter().all(|n| !n.contains("warning")), "{:?}", packed.notes);

    let again = tempfile::tempdir().unwrap();
    let (report, _) = convert(again.path(), "Pair.mod", &std::fs::read(&back).unwrap());
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let items = records(&again.path().join("out/Pair.mod"));
    let characters: Vec<&serde_json::Value> = items.iter().filter(|v| v["type"] == "0x0208").collect();
    assert_eq!(characters[0]["decoded"]["character"]["bounding_info"]["sphere"]["radius"], 1.0);
    assert_eq!(characters[1]["decoded"]["character"]["bounding_info"]["sphere"]["radius"], 2.5);
    assert_eq!(characters[1].get("same_body_as"), None);
}
