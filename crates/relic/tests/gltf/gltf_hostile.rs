//! glTF files that ask the importers for gigabytes, or hold numbers that are not numbers (issue 40). Each
//! file is built here by hand, JSON and a small binary buffer as glTF 2.0 lays them out (not through relic's
//! writer), and must be refused with a message naming the format, the mesh or skin, the node and how to
//! raise the limit — before the importer builds anything: the refusal names the budget it would exceed,
//! which is worked out from the scene without copying it.
//!
//! - 3,000 nodes skinned by one 3,000-joint skin (the 129 KiB file peaked at 2.7 GiB in `pack ei-res`);
//! - one 60,000-vertex mesh (a sparse accessor: 3 stored values, the rest zeros) under 200 nodes (877 MiB in
//!   `pack ro-rsm`) and 5,000 nodes (past 60 s in `pack ei-res`);
//! - NaN and infinite positions, normals, UVs, weights, inverse bind matrices, animation keys and node
//!   transforms: refused by the shared reader for every importer, naming node and accessor.

use std::path::Path;

use relic::import::{cost, gltf};
use serde_json::{json, Value};

/// A `.glb`: the JSON chunk (padded with spaces) and the BIN chunk (padded with zeros), glTF 2.0 §4.4.
fn glb(doc: &Value, bin: &[u8]) -> Vec<u8> {
    relic::testing::hand_gltf::glb(&serde_json::to_vec(doc).unwrap(), bin)
}

fn f32s(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// `n` nodes under a root, each placing one triangle skinned by one skin whose joints are those `n` nodes.
fn skinned_by_one_skin(n: usize) -> Vec<u8> {
    relic::testing::hand_gltf::one_skin_over_nodes_glb(n)
}

/// One mesh `big` of `vertices` vertices (a sparse accessor without a buffer view: zeros, and 3 stored
/// values; no indices, so `0..vertices`) placed by `n` nodes under a root.
fn one_mesh_under(n: usize, vertices: usize) -> Vec<u8> {
    let mut bin: Vec<u8> = [0u32, 1, 2].iter().flat_map(|i| i.to_le_bytes()).collect();
    bin.extend(f32s(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]));
    let mut nodes = vec![json!({"name": "root", "children": (1..=n).collect::<Vec<_>>()})];
    nodes.extend((1..=n).map(|i| json!({"name": format!("n{i}"), "mesh": 0, "translation": [i as f32, 0.0, 0.0]})));
    let doc = json!({
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": nodes,
        "meshes": [{"name": "big", "primitives": [{"attributes": {"POSITION": 0}}]}],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 12}, {"buffer": 0, "byteOffset": 12, "byteLength": 36}],
        "accessors": [{
            "componentType": 5126, "count": vertices, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0],
            "sparse": {"count": 3, "indices": {"bufferView": 0, "componentType": 5125}, "values": {"bufferView": 1}}
        }]
    });
    glb(&doc, &bin)
}

/// The default budget of a file of `len` bytes (the tests do not change the process-wide limits).
fn budget(len: usize) -> u64 {
    len as u64 * relic::limits::Limits::DEFAULT.max_expansion
}

#[test]
fn one_skin_of_3000_joints_over_3000_nodes_is_refused_by_its_cost() {
    let file = skinned_by_one_skin(3000);
    assert!(file.len() < 130 << 10, "{} bytes", file.len());
    let path = Path::new("skin.glb");
    // The scene itself is small: the reader makes it within budget.
    let scene = gltf::read(&file, path).unwrap();
    let cost = cost::instancing(&scene);
    let skin_bytes = 3000 * 3000 * cost::JOINT_BYTES;
    // Three vertices and (without indices) three corners per node.
    let mesh_bytes = 3000 * 3 * (cost::VERTEX_BYTES + cost::CORNER_BYTES);
    assert_eq!(cost.bytes, skin_bytes + mesh_bytes);
    let err = gltf::read_to_pack(&file, path, "ei-res", &mut |_| {}).unwrap_err().to_string();
    assert_eq!(
        err,
        format!(
            "ei-res: skins[0] at offset 0x0: the glTF's {} bytes would expand to {} bytes once its meshes are \
             copied to every node placing them and its skins' joints to every node they skin, more than 1000× \
             (--max-expansion raises the limit): skin 0 of 3000 joints skinning 3000 mesh node(s) (first: node 1 \
             `n1`) makes {skin_bytes} of them",
            file.len(),
            cost.bytes
        )
    );
    // The same skin over 30 nodes costs 30 × 30 matrices: it packs.
    let small = skinned_by_one_skin(30);
    let scene = gltf::read_to_pack(&small, path, "ei-res", &mut |_| {}).unwrap();
    assert_eq!(scene.skins[0].joints.len(), 30);
}

#[test]
fn a_mesh_under_many_nodes_is_charged_per_node_before_any_copy() {
    let path = Path::new("big.glb");
    for (nodes, format) in [(200, "ro-rsm"), (5000, "ei-res"), (200, "drakan-srsc")] {
        let file = one_mesh_under(nodes, 60_000);
        let per_copy = 60_000 * (cost::VERTEX_BYTES + cost::CORNER_BYTES);
        let total = per_copy * nodes as u64;
        assert!(total > budget(file.len()), "{nodes} nodes: {} bytes", file.len());
        let err = gltf::read_to_pack(&file, path, format, &mut |_| {}).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!(
                "{format}: meshes[0] at offset 0x0: the glTF's {} bytes would expand to {total} bytes",
                file.len()
            )),
            "{err}"
        );
        assert!(
            err.ends_with(&format!(
                "(--max-expansion raises the limit): mesh 0 `big` placed by {nodes} node(s) (first: node 1 `n1`) makes {total} of them"
            )),
            "{err}"
        );
    }
    // The importers read through the check: ro-rsm and drakan-srsc refuse the 200-node file the same way.
    let file = one_mesh_under(200, 60_000);
    let rsm = relic::ragnarok::rsm::import::from_gltf(&file, path, relic::ragnarok::rsm::Version::new(1, 4));
    assert!(rsm.unwrap_err().to_string().starts_with("ro-rsm: meshes[0]"));
    let drakan = relic::drakan::scene::import::from_gltf(&file, path, "big");
    assert!(drakan.unwrap_err().to_string().starts_with("drakan-srsc: meshes[0]"));
    // The same mesh under one node is within budget: it is read (and packed, see the CLI journey).
    let one = one_mesh_under(1, 2_000);
    let scene = gltf::read_to_pack(&one, path, "ro-rsm", &mut |_| {}).unwrap();
    assert_eq!(scene.meshes[0].primitives[0].positions.len(), 2_000);
    assert_eq!(scene.meshes[0].primitives[0].positions[2], [0.0, 1.0, 0.0]);
}

/// A triangle `tri` placed by node `tri` (translated by `translation`), its POSITION, NORMAL, TEXCOORD_0,
/// JOINTS_0 and WEIGHTS_0 written as given, skinned by skin 0 (inverse bind matrix `ibm`) and animated by
/// one translation channel of keys `keys` at times 0 and 1.
struct Triangle {
    positions: [f32; 9],
    normals: [f32; 9],
    uvs: [f32; 6],
    weights: [f32; 12],
    ibm: [f32; 16],
    keys: [f32; 6],
    translation: Value,
}

impl Default for Triangle {
    fn default() -> Self {
        let mut ibm = [0.0; 16];
        for k in 0..4 {
            ibm[k * 5] = 1.0;
        }
        Triangle {
            positions: [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0],
            normals: [0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
            uvs: [0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
            weights: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
            ibm,
            keys: [0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
            translation: json!([0.0, 0.0, 0.0]),
        }
    }
}

impl Triangle {
    fn glb(&self) -> Vec<u8> {
        // Views in order: positions 0, normals 36, uvs 72, joints 96 (u8 × 12), weights 108, ibm 156,
        // times 220, keys 228.
        let mut bin = f32s(&self.positions);
        bin.extend(f32s(&self.normals));
        bin.extend(f32s(&self.uvs));
        bin.extend([0u8; 12]);
        bin.extend(f32s(&self.weights));
        bin.extend(f32s(&self.ibm));
        bin.extend(f32s(&[0.0, 1.0]));
        bin.extend(f32s(&self.keys));
        let views: Vec<Value> = [(0, 36), (36, 36), (72, 24), (96, 12), (108, 48), (156, 64), (220, 8), (228, 24)]
            .iter()
            .map(|(o, l)| json!({"buffer": 0, "byteOffset": o, "byteLength": l}))
            .collect();
        let doc = json!({
            "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1]}],
            "nodes": [{"name": "tri", "mesh": 0, "skin": 0}, {"name": "bone", "translation": self.translation}],
            "meshes": [{"name": "tri", "primitives": [{"attributes": {
                "POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2, "JOINTS_0": 3, "WEIGHTS_0": 4
            }}]}],
            "skins": [{"joints": [1], "inverseBindMatrices": 5}],
            "animations": [{"name": "walk", "channels": [{"sampler": 0, "target": {"node": 1, "path": "translation"}}],
                "samplers": [{"input": 6, "output": 7}]}],
            "buffers": [{"byteLength": bin.len()}],
            "bufferViews": views,
            "accessors": [
                {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
                {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3"},
                {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC2"},
                {"bufferView": 3, "componentType": 5121, "count": 3, "type": "VEC4"},
                {"bufferView": 4, "componentType": 5126, "count": 3, "type": "VEC4"},
                {"bufferView": 5, "componentType": 5126, "count": 1, "type": "MAT4"},
                {"bufferView": 6, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
                {"bufferView": 7, "componentType": 5126, "count": 2, "type": "VEC3"}
            ]
        });
        glb(&doc, &bin)
    }
}

#[test]
fn non_finite_numbers_are_refused_naming_accessor_item_and_node() {
    let path = Path::new("tri.glb");
    // The file as built is fine: every importer's reader takes it.
    let fine = gltf::read(&Triangle::default().glb(), path).unwrap();
    assert_eq!(fine.meshes[0].primitives[0].positions[1], [1.0, 0.0, 0.0]);
    let why = "not a finite number (glTF 2.0 §3.6.2.1 forbids NaN and infinities): the";
    let mesh_user = "of mesh 0 `tri` primitive 0, placed by node 0 `tri`";
    let cases: Vec<(Triangle, String)> = vec![
        (
            Triangle { positions: [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, f32::NAN, 0.0], ..Default::default() },
            format!("gltf: accessors[0][2] at offset 0x18: holds NaN, {why} POSITION {mesh_user}"),
        ),
        (
            Triangle { normals: [0.0, 0.0, 1.0, 0.0, f32::INFINITY, 1.0, 0.0, 0.0, 1.0], ..Default::default() },
            format!("gltf: accessors[1][1] at offset 0x30: holds inf, {why} NORMAL {mesh_user}"),
        ),
        (
            Triangle { uvs: [0.0, 0.0, 1.0, 0.0, f32::NEG_INFINITY, 1.0], ..Default::default() },
            format!("gltf: accessors[2][2] at offset 0x58: holds -inf, {why} TEXCOORD_0 {mesh_user}"),
        ),
        (
            Triangle { weights: [f32::NAN, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], ..Default::default() },
            format!("gltf: accessors[4][0] at offset 0x6C: holds NaN, {why} WEIGHTS_0 {mesh_user}"),
        ),
        (
            Triangle { ibm: [f32::NAN; 16], ..Default::default() },
            format!("gltf: accessors[5][0] at offset 0x9C: holds NaN, {why} inverse bind matrices of skin 0, placed by node 0 `tri`"),
        ),
        (
            Triangle { keys: [0.0, 0.0, 0.0, f32::INFINITY, 1.0, 0.0], ..Default::default() },
            format!(
                "gltf: accessors[7][1] at offset 0xF0: holds inf, {why} key values of animation 0 `walk` channel 0 (translation of node 1 `bone`)"
            ),
        ),
        (
            // 1e39 is past f32's range: JSON holds it, it reads as an infinity.
            Triangle { translation: serde_json::from_str("[0, 1e39, 0]").unwrap(), ..Default::default() },
            "gltf: nodes[1].translation at offset 0x0: node 1 `bone`: translation holds inf, not a finite number"
                .to_string(),
        ),
    ];
    for (triangle, expected) in cases {
        let file = triangle.glb();
        let err = gltf::read(&file, path).unwrap_err().to_string();
        assert_eq!(err, expected);
        // Each importer refuses it the same way, through the shared reader.
        let version = relic::ragnarok::rsm::Version::new(1, 4);
        let rsm = relic::ragnarok::rsm::import::from_gltf(&file, path, version).unwrap_err().to_string();
        assert_eq!(rsm, expected);
        let drakan = relic::drakan::scene::import::from_gltf(&file, path, "tri").unwrap_err().to_string();
        assert_eq!(drakan, expected);
    }
}

#[test]
fn a_sparse_value_that_is_nan_is_refused_too() {
    let mut bin: Vec<u8> = [0u32, 1, 2].iter().flat_map(|i| i.to_le_bytes()).collect();
    bin.extend(f32s(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, f32::NAN, 0.0]));
    let doc = json!({
        "asset": {"version": "2.0"}, "nodes": [{"name": "only", "mesh": 0}],
        "meshes": [{"name": "sparse", "primitives": [{"attributes": {"POSITION": 0}}]}],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 12}, {"buffer": 0, "byteOffset": 12, "byteLength": 36}],
        "accessors": [{
            "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0],
            "sparse": {"count": 3, "indices": {"bufferView": 0, "componentType": 5125}, "values": {"bufferView": 1}}
        }]
    });
    let err = gltf::read(&glb(&doc, &bin), Path::new("s.glb")).unwrap_err().to_string();
    assert_eq!(
        err,
        "gltf: accessors[0][2] at offset 0x0: holds NaN, not a finite number (glTF 2.0 §3.6.2.1 forbids NaN and \
         infinities): the POSITION of mesh 0 `sparse` primitive 0, placed by node 0 `only`"
    );
}

/// One triangle of corners (0,0,0), (`far`,0,0), (0,1,0) under a node `top` of scale `outer` holding the
/// mesh node `tri` of scale `inner`: every number finite.
fn scaled_triangle(far: f32, outer: f32, inner: f32) -> Vec<u8> {
    let mut bin = f32s(&[0.0, 0.0, 0.0, far, 0.0, 0.0, 0.0, 1.0, 0.0]);
    bin.extend([0u8, 0, 1, 0, 2, 0]);
    let doc = json!({
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [
            {"name": "top", "children": [1], "scale": [outer, outer, outer]},
            {"name": "tri", "mesh": 0, "scale": [inner, inner, inner]}
        ],
        "meshes": [{"name": "tri", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "buffers": [{"byteLength": 44}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 6}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [far, 1, 0]},
            {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}
        ]
    });
    glb(&doc, &bin)
}

#[test]
fn finite_numbers_that_overflow_once_transforms_are_multiplied_are_refused() {
    let path = Path::new("scaled.glb");
    // Baked into the vertices (Evil Islands, Drakan): 1e30 × 1e30 is past f32.
    let baked = scaled_triangle(1e30, 1.0, 1e30);
    let scene = gltf::read(&baked, path).unwrap();
    let err = relic::evil_islands::model::import::from_scene(&scene, "m", &mut |_| {}).unwrap_err().to_string();
    assert_eq!(
        err,
        "ei-res: node 1 \"tri\", mesh \"tri\": triangle corner 1 is not a finite number once the node transforms are \
         baked in (the FIG would hold infinities): scale the model down"
    );
    let err = relic::drakan::scene::import::from_gltf(&baked, path, "m").unwrap_err().to_string();
    assert_eq!(err, "drakan-srsc: mesh 0 `tri` (node 1 `tri`), primitive 0: vertex 1 is not a finite position");
    // Multiplied into an RSM 2.3 world matrix: 1e30 × 1e30 again. RSM 1.4 keeps each scale apart: finite.
    let nested = scaled_triangle(1.0, 1e30, 1e30);
    let v23 = relic::ragnarok::rsm::Version::new(2, 3);
    let err = relic::ragnarok::rsm::import::from_gltf(&nested, path, v23).unwrap_err().to_string();
    assert_eq!(
        err,
        "ro-rsm: node `tri`: its matrix would not be finite once the glTF's node transforms are multiplied (an RSM \
         holding infinities): scale the model down"
    );
    let v14 = relic::ragnarok::rsm::Version::new(1, 4);
    let packed = relic::ragnarok::rsm::import::from_gltf(&nested, path, v14).unwrap();
    let tri = packed.rsm.meshes.iter().find(|m| m.name.text == "tri").unwrap();
    assert_eq!(tri.legacy.as_ref().unwrap().scale, [1e30; 3]);
    // Scales that stay in range pack everywhere.
    let fine = scaled_triangle(2.0, 1.0, 3.0);
    let scene = gltf::read(&fine, path).unwrap();
    relic::evil_islands::model::import::from_scene(&scene, "m", &mut |_| {}).unwrap();
    relic::drakan::scene::import::from_gltf(&fine, path, "m").unwrap();
    relic::ragnarok::rsm::import::from_gltf(&fine, path, v23).unwrap();
}

#[test]
fn the_budget_counts_the_bin_a_gltf_reads_beside_it() {
    // A `.gltf` of a few hundred bytes whose 21,000 positions (252,000 bytes) are in `mesh.bin` beside it,
    // placed by 4 nodes: 4 × 21,000 × (64 + 64) bytes = 10,752,000, within 1000 × (JSON + bin) but not
    // within 1000 × the JSON alone.
    let vertices = 21_000usize;
    let nodes = 4usize;
    let positions: Vec<f32> = (0..vertices * 3).map(|i| (i % 7) as f32).collect();
    let bin = f32s(&positions);
    let mut list = vec![json!({"name": "root", "children": (1..=nodes).collect::<Vec<_>>()})];
    list.extend((1..=nodes).map(|i| json!({"name": format!("n{i}"), "mesh": 0})));
    let doc = json!({
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": list,
        "meshes": [{"name": "big", "primitives": [{"attributes": {"POSITION": 0}}]}],
        "buffers": [{"byteLength": bin.len(), "uri": "mesh.bin"}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": bin.len()}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": vertices, "type": "VEC3",
            "min": [0, 0, 0], "max": [6, 6, 6]}]
    });
    let json = serde_json::to_vec(&doc).unwrap();
    let cost = (nodes * vertices) as u64 * (cost::VERTEX_BYTES + cost::CORNER_BYTES);
    assert!(cost > budget(json.len()) && cost <= budget(json.len() + bin.len()));
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("mesh.bin"), &bin).unwrap();
    let path = tmp.path().join("big.gltf");
    let scene = gltf::read_to_pack(&json, &path, "ro-rsm", &mut |_| {}).unwrap();
    assert_eq!(scene.meshes[0].primitives[0].positions[1], [3.0, 4.0, 5.0]);
    assert_eq!(cost::instancing(&scene).bytes, cost);
}
