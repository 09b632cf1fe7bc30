//! Drakan models to glTF, from files written by hand from the spec's tables ("Model (0x0200 - 0x0209)",
//! "Animation (0x0501 - 0x0503)", docs/formats/drakan.md#model), independent of relic's writers:
//! - `Box.mod`: a static crate of six quads with two textures (and a null reference between them) in
//!   `Box.txd`, one double-sided quad, flat shading, a REO level of detail and bounding spheres;
//! - `Hero.mod`: a character with three joints, two LODs, vertex weights and one animation in `Hero.adb`.
//!
//! The `.glb` files are read back and checked value by value, and by the Khronos validator.

use std::path::{Path, PathBuf};

use glam::{Mat4, Quat, Vec3};
use serde_json::Value;

use crate::srsc_fixtures;

use relic::ops::{self, ConvertRequest, Quiet};
use srsc_fixtures::{packed, texture};

use srsc_fixtures::Bytes as B;

/// The stored form of a matrix that acts on row vectors (docs/formats/drakan.md#matrices: p' = p·L + t): for the
/// column-vector matrix `m`, L's rows are m's columns and t its translation.
fn mat3x4(m: Mat4) -> Vec<f32> {
    let c = m.to_cols_array();
    vec![c[0], c[1], c[2], c[4], c[5], c[6], c[8], c[9], c[10], c[12], c[13], c[14]]
}

fn read_glb(path: &Path) -> (Value, Vec<u8>) {
    let glb = std::fs::read(path).unwrap();
    assert_eq!(&glb[0..4], b"glTF");
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let doc: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let rest = &glb[20 + json_len..];
    let bin_len = u32::from_le_bytes(rest[0..4].try_into().unwrap()) as usize;
    (doc, rest[8..8 + bin_len].to_vec())
}

/// An accessor's values as f32 (floats, or unsigned shorts widened).
fn accessor(doc: &Value, bin: &[u8], a: &Value) -> Vec<f32> {
    let a = &doc["accessors"][a.as_u64().unwrap() as usize];
    let view = &doc["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize + a["byteOffset"].as_u64().unwrap_or(0) as usize;
    let width = match a["type"].as_str().unwrap() {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" => 4,
        "MAT4" => 16,
        t => panic!("{t}"),
    };
    let n = a["count"].as_u64().unwrap() as usize * width;
    match a["componentType"].as_u64().unwrap() {
        5126 => bin[start..start + 4 * n].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect(),
        5123 => {
            bin[start..start + 2 * n].chunks_exact(2).map(|c| f32::from(u16::from_le_bytes([c[0], c[1]]))).collect()
        }
        5125 => bin[start..start + 4 * n]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()) as f32)
            .collect(),
        t => panic!("component type {t}"),
    }
}

fn validate(paths: &[&Path]) {
    if let Some(reports) = relic::testing::validate_gltf(paths) {
        assert_eq!(reports.len(), paths.len());
        for r in reports {
            assert_eq!(r.errors, 0, "{r:?}");
        }
    }
}

/// Converts `input` into `out`; the folder its outputs went to (named after it).
fn convert(input: PathBuf, out: &Path) -> PathBuf {
    let report = ops::convert(&[input], out, &ConvertRequest::default(), &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let dirs: Vec<PathBuf> =
        std::fs::read_dir(out).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs[0].clone()
}

// ---------------------------------------------------------------------------------------------------------
// The static crate

/// Corner `i` of the crate: bit 0 = x, bit 1 = y, bit 2 = z, each −1 or +1.
fn corner(i: usize) -> [f32; 3] {
    [i & 1, i & 2, i & 4].map(|b| if b != 0 { 1.0 } else { -1.0 })
}

fn sub(a: [f32; 3], b: [f32; 3]) -> Vec3 {
    Vec3::new(a[0] - b[0], a[1] - b[1], a[2] - b[2])
}

/// The six faces as corner cycles, each ordered clockwise seen from outside (as Drakan stores them: the
/// right-hand normal of the stored order points inward), with its outward axis.
fn faces() -> Vec<([usize; 4], Vec3)> {
    let cycles: [([usize; 4], Vec3); 6] = [
        ([1, 3, 7, 5], Vec3::X),
        ([0, 4, 6, 2], Vec3::NEG_X),
        ([2, 6, 7, 3], Vec3::Y),
        ([0, 1, 5, 4], Vec3::NEG_Y),
        ([4, 5, 7, 6], Vec3::Z),
        ([0, 2, 3, 1], Vec3::NEG_Z),
    ];
    cycles
        .into_iter()
        .map(|(mut c, out)| {
            let n = sub(corner(c[1]), corner(c[0])).cross(sub(corner(c[2]), corner(c[0])));
            if n.dot(out) > 0.0 {
                c.reverse();
            }
            (c, out)
        })
        .collect()
}

fn crate_files(dir: &Path) {
    let mut vertices = B::default().u16(8);
    for i in 0..8 {
        vertices = vertices.f32s(&corner(i));
    }
    let uvs = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    let mut polygons = B::default().u16(6);
    for (f, (cycle, _)) in faces().iter().enumerate() {
        // Faces 0–2 use texture 0, 3–5 texture 1; the last is double sided.
        let flags = if f == 5 { 0x0002 } else { 0 };
        polygons = polygons.u16(flags).u16(4).u16(if f < 3 { 0 } else { 1 });
        for (k, &v) in cycle.iter().enumerate() {
            polygons = polygons.u16(v as u16).f32s(&uvs[k]);
        }
    }
    // Texture list: 1:0, a null reference (dropped), 2:0.
    let textures = B::default().u32(3).u16(1).u16(0).u16(0).u16(0).u16(2).u16(0).done();
    let identity = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    let bounds = B::default()
        .f32s(&[0.0, 0.0, 0.0, 1.75]) // sphere
        .f32s(&[0.0, 0.0, 0.0])
        .f32s(&identity) // box
        .u16(1) // shapes
        .u16(0) // spheres
        .u16(0)
        .u16(0) // hierarchy
        .f32s(&[0.0, 0.5, 0.0, 1.0])
        .done();
    let reo = B::default().u16(7).f32s(&[100.0]).done();
    let name = B::default().str("Crate").u32(0x8001).done(); // flat shading
    write(
        dir,
        "Box.mod",
        &packed(&[
            (0x0200, 1, 0, &name),
            (0x0203, 1, 0, &vertices.done()),
            (0x0204, 1, 0, &polygons.done()),
            (0x0206, 1, 0, &textures),
            (0x0207, 1, 0, &bounds),
            (0x0209, 1, 0, &reo),
        ]),
    );
    // Box.txd: palette (black, red, white) with an 8-bpp 2 × 1 texture 1, and a 24-bpp 1 × 1 blue texture 2.
    let palette = B::default().u16(3).bytes(&[0, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0]).done();
    write(
        dir,
        "Box.txd",
        &packed(&[
            (0x0030, 1, 0, &palette),
            (0x0040, 1, 0, &texture(2, 1, 8, &[1, 2])),
            (0x0040, 2, 0, &texture(1, 1, 24, &[0, 0, 255])),
        ]),
    );
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dir.join(name), bytes).unwrap();
}

#[test]
fn a_static_crate_converts_with_quads_two_textures_and_its_records_in_extras() {
    let dir = tempfile::tempdir().unwrap();
    crate_files(dir.path());
    let out = dir.path().join("out");
    let root = convert(dir.path().join("Box.mod"), &out);
    let glb = root.join("models/Crate.view.glb");
    validate(&[&glb]);
    let (doc, bin) = read_glb(&glb);

    // Two materials for texture 0 and 1, and a double-sided variant of texture 1.
    let materials = doc["materials"].as_array().unwrap();
    let names: Vec<&str> = materials.iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Box.txd:1", "Box.txd:2", "Box.txd:2 (double sided)"]);
    assert_eq!(materials[2]["doubleSided"], true);
    assert_eq!(materials[0]["doubleSided"], false);
    assert_eq!(materials[0]["extras"]["shading"]["names"], serde_json::json!(["flat", "always_set"]));
    assert!(materials[0].get("extensions").is_none(), "flat shading is lit");
    // Both textures are embedded: texture 1 is red then white through the palette.
    assert_eq!(doc["images"].as_array().unwrap().len(), 2);
    let image = &doc["images"][0];
    let view = &doc["bufferViews"][image["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap() as usize;
    let png_bytes = &bin[start..start + view["byteLength"].as_u64().unwrap() as usize];
    let mut reader = png::Decoder::new(png_bytes).read_info().unwrap();
    let mut px = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut px).unwrap();
    assert_eq!((frame.width, frame.height, frame.color_type), (2, 1, png::ColorType::Rgba));
    assert_eq!(&px[..frame.buffer_size()], &[255, 0, 0, 255, 255, 255, 255, 255]);

    // Twelve triangles; every one faces outward in glTF's counter-clockwise rule, with the flat normal of
    // its face and positions on the crate's corners.
    let mut triangles = 0;
    let mut seen_outward = std::collections::HashSet::new();
    for prim in doc["meshes"][0]["primitives"].as_array().unwrap() {
        let pos = accessor(&doc, &bin, &prim["attributes"]["POSITION"]);
        let nrm = accessor(&doc, &bin, &prim["attributes"]["NORMAL"]);
        let uv = accessor(&doc, &bin, &prim["attributes"]["TEXCOORD_0"]);
        let idx = accessor(&doc, &bin, &prim["indices"]);
        let p = |i: f32| Vec3::from_slice(&pos[i as usize * 3..i as usize * 3 + 3]);
        for t in idx.chunks_exact(3) {
            triangles += 1;
            let n = (p(t[1]) - p(t[0])).cross(p(t[2]) - p(t[0])).normalize();
            let centre = (p(t[0]) + p(t[1]) + p(t[2])) / 3.0;
            assert!(n.dot(centre) > 0.0, "triangle {t:?} faces inward");
            let axis = Vec3::new(n.x.round(), n.y.round(), n.z.round());
            seen_outward.insert(axis.to_array().map(|v| v as i32));
            for &i in t {
                let stored = Vec3::from_slice(&nrm[i as usize * 3..i as usize * 3 + 3]);
                assert!(stored.abs_diff_eq(axis, 1e-6), "flat normal {stored} on face {axis}");
                assert!(p(i).abs().abs_diff_eq(Vec3::ONE, 0.0));
            }
        }
        // Stored UV (0, 0) comes out as (0, 1): texture rows are stored bottom-up.
        assert!(uv.chunks_exact(2).any(|c| c == [0.0, 1.0]));
        assert!(uv.chunks_exact(2).all(|c| c[0] == 0.0 || c[0] == 1.0));
    }
    assert_eq!(triangles, 12);
    assert_eq!(seen_outward.len(), 6);
    // The REO LOD and bounds are kept.
    let extras = &doc["scenes"][0]["extras"];
    assert_eq!(extras["model"], "Crate");
    assert_eq!(extras["reo_lod"], serde_json::json!({"record_id": 7, "threshold_distance": 100.0}));
    assert_eq!(extras["bounds"]["hierarchy"], serde_json::json!([[0, 0]]));
}

// ---------------------------------------------------------------------------------------------------------
// The character

/// Joint model transforms in the bind pose: the root at the origin, `mid` one up and turned 90° about Z,
/// `tip` one along `mid`'s X (so at (0, 2, 0)).
fn bind() -> [Mat4; 3] {
    let root = Mat4::IDENTITY;
    let mid = Mat4::from_translation(Vec3::Y) * Mat4::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let tip = mid * Mat4::from_translation(Vec3::X);
    [root, mid, tip]
}

fn hero_files(dir: &Path) {
    let vertices: [[f32; 3]; 7] = [
        [0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 2.0, 0.0],
        [1.0, 2.0, 0.0],
        [0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 2.0, 0.0],
    ];
    let mut v = B::default().u16(7);
    for p in vertices {
        v = v.f32s(&p);
    }
    // LOD 0: two triangles over vertices 0–3; LOD 1: one triangle over its own vertices (relative 0–2).
    let mut polys = B::default().u16(3);
    for tri in [[0u16, 1, 2], [1, 3, 2], [0, 1, 2]] {
        polys = polys.u16(0).u16(3).u16(0);
        for i in tri {
            polys = polys.u16(i).f32s(&[0.0, 0.0]);
        }
    }
    let identity12 = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
    let mut c = B::default()
        .f32s(&[0.0, 1.0, 0.0, 2.0]) // bounding sphere
        .f32s(&[0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]) // box
        .u16(2) // LODs
        .str("Hero_low")
        .u16(4); // nodes
    for (name, joint) in [("root", 0), ("effector", -1), ("mid", 1), ("tip", 2)] {
        let mut field = [0u8; 32];
        field[..name.len()].copy_from_slice(name.as_bytes());
        c = c.bytes(&field).i32(joint);
    }
    // Joints: inverted model transforms, mesh 0, first child / next sibling, per-LOD weights.
    let weights: [[&[(u32, f32)]; 2]; 3] = [
        [&[(0, 1.0), (1, 0.5)], &[(0, 1.0)]],
        [&[(1, 0.5), (2, 2.0)], &[(1, 1.0)]],
        [&[(2, 2.0), (3, 1.0)], &[(2, 1.0)]],
    ];
    let links = [(1, 0), (2, 0), (0, 0)];
    c = c.u16(3);
    for (j, world) in bind().iter().enumerate() {
        c = c.f32s(&mat3x4(world.inverse())).i32(0).i32(links[j].0).i32(links[j].1);
        for lod in weights[j] {
            c = c.u16(lod.len() as u16);
            for &(vertex, w) in lod {
                c = c.u32(vertex).f32s(&[w]);
            }
        }
    }
    // LOD mesh infos: distance, usage, node, first vertex, vertex count, first polygon, polygon count.
    c = c.u16(1).f32s(&[0.0]).u32(0).u32(0).u32(0).u32(4).u32(0).u32(2);
    c = c.u16(1).f32s(&[50.0]).u32(0).u32(0).u32(4).u32(3).u32(2).u32(1);
    c = c.u16(1).u16(5).u16(0); // animation 5 of this database
    c = c.u16(1).i32(1).f32s(&identity12).f32s(&identity12).u16(1).u32(0).u32(0).u32(0).u32(0).u32(0).u16(0);
    c = c.u16(2).bytes(&[0; 32]); // one sphere per LOD (docs/formats/drakan.md#character)
    let name = B::default().str("Hero").u32(0x8002).done(); // smooth shading
    write(
        dir,
        "Hero.mod",
        &packed(&[
            (0x0200, 3, 0, &name),
            (0x0203, 3, 0, &v.done()),
            (0x0204, 3, 0, &polys.done()),
            (0x0206, 3, 0, &B::default().u32(0).done()),
            (0x0208, 3, 0, &c.done()),
        ]),
    );
    // Hero.adb: animation 5 "wave", non-looping, 1 s; `mid` turns 90° about its X axis over half a second.
    let info =
        B::default().str("wave").f32s(&[1.0]).u32(2).u32(2).u32(1).u32(4).u32(1).u32(0).u32(0).f32s(&[0.0; 3]).done();
    let [_, mid, _] = bind();
    let turned = mid * Mat4::from_rotation_x(std::f32::consts::FRAC_PI_2);
    let mut frames = B::default().u16(4);
    for (t, m) in [(0.0, Mat4::IDENTITY), (0.0, mid), (0.5, turned), (0.0, Mat4::from_translation(Vec3::X))] {
        frames = frames.f32s(&[t]).f32s(&mat3x4(m));
    }
    let lookup = B::default().u16(3).u32(0).u32(1).u32(1).u32(2).u32(3).u32(1).done();
    write(dir, "Hero.adb", &packed(&[(0x0501, 5, 0, &info), (0x0502, 5, 0, &frames.done()), (0x0503, 5, 0, &lookup)]));
}

fn trs(node: &Value) -> Mat4 {
    let v = |k: &str, d: Vec<f32>| {
        node.get(k).map_or(d, |a| a.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect())
    };
    let (t, r, s) = (v("translation", vec![0.0; 3]), v("rotation", vec![0.0, 0.0, 0.0, 1.0]), v("scale", vec![1.0; 3]));
    Mat4::from_scale_rotation_translation(Vec3::from_slice(&s), Quat::from_slice(&r), Vec3::from_slice(&t))
}

#[test]
fn a_character_converts_with_its_skin_lods_weights_and_animation() {
    let dir = tempfile::tempdir().unwrap();
    hero_files(dir.path());
    let out = dir.path().join("out");
    let root = convert(dir.path().join("Hero.mod"), &out);
    let glb = root.join("models/Hero.view.glb");
    validate(&[&glb]);
    let (doc, bin) = read_glb(&glb);
    let nodes = doc["nodes"].as_array().unwrap();
    let index = |name: &str| nodes.iter().position(|n| n["name"] == name).unwrap();
    let (root, mid, tip) = (index("root"), index("mid"), index("tip"));
    assert_eq!(nodes[root]["children"], serde_json::json!([mid]));
    assert_eq!(nodes[mid]["children"], serde_json::json!([tip]));
    // World transforms of the joints through the node tree equal the bind pose.
    let world = [
        trs(&nodes[root]),
        trs(&nodes[root]) * trs(&nodes[mid]),
        trs(&nodes[root]) * trs(&nodes[mid]) * trs(&nodes[tip]),
    ];
    for (got, want) in world.iter().zip(bind()) {
        assert!(got.abs_diff_eq(want, 1e-5), "{got} vs {want}");
    }
    assert!(world[2].transform_point3(Vec3::ZERO).abs_diff_eq(Vec3::new(0.0, 2.0, 0.0), 1e-5));
    // The skin: joints in table order, inverse bind matrices as stored.
    let skin = &doc["skins"][0];
    assert_eq!(skin["joints"], serde_json::json!([root, mid, tip]));
    let ibm = accessor(&doc, &bin, &skin["inverseBindMatrices"]);
    for (j, want) in bind().iter().enumerate() {
        let got = Mat4::from_cols_slice(&ibm[j * 16..j * 16 + 16]);
        assert!(got.abs_diff_eq(want.inverse(), 1e-6), "joint {j}: {got}");
    }
    // LOD 0 is in the scene with its skin; LOD 1 is a node outside it, with its distance.
    let hero = index("Hero");
    let low = index("Hero_low");
    let scene_roots: Vec<u64> =
        doc["scenes"][0]["nodes"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
    assert!(scene_roots.contains(&(hero as u64)) && !scene_roots.contains(&(low as u64)));
    assert_eq!(nodes[low]["extras"]["distance_threshold"], 50.0);
    assert_eq!(nodes[hero]["skin"], 0);
    // Weights: normalised, the largest first; vertex 2 of LOD 0 is half mid, half tip.
    let prim = &doc["meshes"][nodes[hero]["mesh"].as_u64().unwrap() as usize]["primitives"][0];
    let pos = accessor(&doc, &bin, &prim["attributes"]["POSITION"]);
    let joints = accessor(&doc, &bin, &prim["attributes"]["JOINTS_0"]);
    let weights = accessor(&doc, &bin, &prim["attributes"]["WEIGHTS_0"]);
    assert_eq!(pos.len() / 3, 4);
    for (k, w) in weights.chunks_exact(4).enumerate() {
        assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-6, "vertex {k}: {w:?}");
        let p = [pos[k * 3], pos[k * 3 + 1], pos[k * 3 + 2]];
        let j = &joints[k * 4..k * 4 + 4];
        match p {
            [0.0, 0.0, 0.0] => assert_eq!((j[0], w[0]), (0.0, 1.0)),
            [0.0, 1.0, 0.0] => assert_eq!((&j[..2], &w[..2]), (&[0.0, 1.0][..], &[0.5, 0.5][..])),
            // Equal weights: the lower joint first.
            [0.0, 2.0, 0.0] => assert_eq!((&j[..2], &w[..2]), (&[1.0, 2.0][..], &[0.5, 0.5][..])),
            [1.0, 2.0, 0.0] => assert_eq!((j[0], w[0]), (2.0, 1.0)),
            other => panic!("unexpected vertex {other:?}"),
        }
    }
    // The animation: `mid`'s rotation at t = 0.5 s is its bind rotation followed by 90° about X; the
    // last pose is held to the stored duration; the non-looping flag is kept.
    let anim = &doc["animations"][0];
    assert_eq!(anim["name"], "wave");
    assert_eq!(anim["extras"]["non_looping"], true);
    assert_eq!(anim["extras"]["duration"], 1.0);
    let channel = anim["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["target"]["node"] == mid && c["target"]["path"] == "rotation")
        .unwrap();
    let sampler = &anim["samplers"][channel["sampler"].as_u64().unwrap() as usize];
    assert_eq!(accessor(&doc, &bin, &sampler["input"]), [0.0, 0.5, 1.0]);
    let keys = accessor(&doc, &bin, &sampler["output"]);
    let at_half = Quat::from_slice(&keys[4..8]);
    let want = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2) * Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
    assert!(at_half.dot(want).abs() > 1.0 - 1e-6, "{at_half} vs {want}");
    assert_eq!(&keys[8..12], &keys[4..8], "held to the duration");
    // What glTF has no place for is kept.
    let extras = &doc["scenes"][0]["extras"]["character"];
    assert_eq!(extras["non_joint_nodes"], serde_json::json!([{"node": 1, "name": "effector"}]));
    assert_eq!(extras["channels"][0]["node_index"], 1);
    assert_eq!(extras["lod_names"], serde_json::json!(["Hero_low"]));
}

#[test]
fn damaged_models_never_panic() {
    let dir = tempfile::tempdir().unwrap();
    hero_files(dir.path());
    crate_files(dir.path());
    for name in ["Hero.mod", "Box.mod"] {
        let bytes = std::fs::read(dir.path().join(name)).unwrap();
        let ctx = relic::drakan::srsc::Context {
            stem: name.trim_end_matches(".mod").into(),
            extension: "mod".into(),
            db: None,
            dir: Some(dir.path().to_path_buf()),
            whole_database: false,
            confine: None,
        };
        relic::testing::check_robustness(&bytes, false, |b| {
            relic::drakan::srsc::convert_in(b, &ctx, &Default::default()).map(|assets| {
                for a in assets {
                    if let relic::asset::Asset::Scene(scene) = a.asset {
                        relic::export::gltf::to_glb(&scene).unwrap();
                    }
                }
            })
        });
    }
}
