//! glTF → Drakan static model (issue 29): `relic pack drakan-srsc model.glb -o new.mod`.
//!
//! - Round trips: every model of `samples/drakan/Sample.mod` (and of the corpus's Drakan `.mod` files when
//!   `../shared/corpus/drakan` exists) → relic's glTF → the glTF reader → the writer → `.mod` → relic reads
//!   it: the same triangles as sets (positions and UVs within 1e-5, clockwise as stored, texture reference and
//!   double-sided flag per triangle), the same shading flags, and bounds (0x0207) equal to what this test
//!   computes from the written vertices.
//! - Scenes built here (other tools' shapes): TRS nodes, several primitives and meshes, vertex colours,
//!   no UVs, a skinned mesh; limits and refusals.

use std::path::{Path, PathBuf};

use relic::asset::{Asset, Material, Mesh, Node, Primitive, Scene, Skin, Texture, Transform};
use relic::drakan::records::{self, character::Character, model, Decoded, Ref};
use relic::drakan::scene::import::{from_scene, Packed};
use relic::drakan::srsc::Srsc;
use relic::ops::{self, ConvertRequest, Quiet};

fn samples() -> PathBuf {
    crate::common::samples_dir().join("drakan")
}

fn validate(paths: &[&Path]) {
    if let Some(reports) = relic::testing::validate_gltf(paths) {
        assert_eq!(reports.len(), paths.len());
        for r in reports {
            assert_eq!(r.errors, 0, "{r:?}");
        }
    }
}

/// One model of a `.mod`, as relic's record decoders read it.
#[derive(Debug, Default)]
struct Model {
    id: u16,
    name: String,
    shading: u32,
    vertices: Vec<[f32; 3]>,
    polygons: Vec<model::Polygon>,
    /// The list polygons index (null references dropped).
    textures: Vec<Ref>,
    bounds: Option<model::Bounds>,
    character: Option<Character>,
    types: Vec<u16>,
}

fn models(bytes: &[u8]) -> Vec<Model> {
    let srsc = Srsc::read(bytes).unwrap();
    let mut out: Vec<Model> = Vec::new();
    for (i, e) in srsc.entries.iter().enumerate() {
        let decoded = records::decode(e.record_type, srsc.body(i), srsc.body_offset(i)).unwrap();
        if e.record_type == 0x0200 {
            out.push(Model { id: e.id, ..Default::default() });
        }
        let Some(m) = out.iter_mut().find(|m| m.id == e.id) else { continue };
        m.types.push(e.record_type);
        match decoded {
            Some(Decoded::ModelName(n)) => {
                m.name = n.name.text;
                m.shading = n.shading.value;
            }
            Some(Decoded::ModelVertices(v)) => m.vertices = v.vertices.iter().map(|p| p.map(|c| c.get())).collect(),
            Some(Decoded::ModelPolygons(p)) => m.polygons = p.polygons,
            Some(Decoded::ModelTextures(t)) => m.textures = t.used(),
            Some(Decoded::ModelBounds(b)) => m.bounds = Some(b),
            Some(Decoded::Character(c)) => m.character = Some(c),
            _ => {}
        }
    }
    out
}

/// A triangle as the game draws it: three (position, uv) corners in stored (clockwise) order, its texture
/// and whether it is double sided.
#[derive(Debug, Clone)]
struct Tri {
    corners: [([f32; 3], [f32; 2]); 3],
    texture: Option<Ref>,
    double_sided: bool,
}

/// The polygons of LOD 0 (the whole model when it is no character).
fn lod0(m: &Model) -> &[model::Polygon] {
    lod0_range(m).1
}

fn lod0_range(m: &Model) -> (usize, &[model::Polygon]) {
    match &m.character {
        None => (0, &m.polygons[..]),
        Some(c) => {
            let info = c.lod_meshes[0][0];
            let end =
                c.lod_meshes.get(1).and_then(|l| l.first()).map_or(m.polygons.len(), |n| n.first_poly_index as usize);
            (info.first_vertex_index as usize, &m.polygons[info.first_poly_index as usize..end])
        }
    }
}

/// The triangles of LOD 0: quads fanned from the first corner.
fn triangles(m: &Model) -> Vec<Tri> {
    let (first_vertex, polys) = lod0_range(m);
    let mut out = Vec::new();
    for p in polys {
        let c: Vec<([f32; 3], [f32; 2])> = p
            .vertices
            .iter()
            .map(|v| (m.vertices[first_vertex + v.index as usize], [v.uv[0].get(), v.uv[1].get()]))
            .collect();
        for k in 1..c.len() - 1 {
            out.push(Tri {
                corners: [c[0], c[k], c[k + 1]],
                texture: m.textures.get(p.texture_index as usize).copied(),
                double_sided: p.flags & 2 != 0,
            });
        }
    }
    out
}

fn close(a: &[f32], b: &[f32]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-5)
}

fn same_tri(a: &Tri, b: &Tri) -> bool {
    a.texture == b.texture
        && a.double_sided == b.double_sided
        && (0..3).any(|r| {
            (0..3).all(|k| {
                let (p, u) = a.corners[k];
                let (q, v) = b.corners[(k + r) % 3];
                close(&p, &q) && close(&u, &v)
            })
        })
}

/// The same triangles, as sets (each matched once).
fn assert_same_triangles(what: &str, before: &[Tri], after: &[Tri]) {
    assert_eq!(before.len(), after.len(), "{what}: triangle count");
    let mut taken = vec![false; after.len()];
    for t in before {
        let k = (0..after.len()).find(|&k| !taken[k] && same_tri(t, &after[k]));
        let k = k.unwrap_or_else(|| panic!("{what}: triangle {t:?} is not in the written model"));
        taken[k] = true;
    }
}

/// Bounds computed here from the written vertices: the box's centre and the farthest vertex from it, the
/// box as its minimum corner and its size on the diagonal, one sphere shape.
fn assert_bounds(what: &str, m: &Model) {
    let b = m.bounds.as_ref().unwrap_or_else(|| panic!("{what}: no 0x0207"));
    let mut min = [f32::MAX; 3];
    let mut max = [f32::MIN; 3];
    for v in &m.vertices {
        for k in 0..3 {
            min[k] = min[k].min(v[k]);
            max[k] = max[k].max(v[k]);
        }
    }
    let center: Vec<f64> = (0..3).map(|k| (f64::from(min[k]) + f64::from(max[k])) / 2.0).collect();
    let far = m
        .vertices
        .iter()
        .map(|v| (0..3).map(|k| (f64::from(v[k]) - center[k]).powi(2)).sum::<f64>().sqrt())
        .fold(0.0, f64::max);
    let s = b.bounding_info.sphere;
    for k in 0..3 {
        assert!((f64::from(s.center[k].get()) - center[k]).abs() < 1e-6, "{what}: sphere centre");
        assert_eq!(b.bounding_info.obb.center[k].get(), min[k], "{what}: box corner");
    }
    let r = f64::from(s.radius.get());
    assert!(r >= far && r - far < 1e-5 * far.max(1.0), "{what}: radius {r} for {far}");
    let x: Vec<f32> = b.bounding_info.obb.xform.iter().map(|c| c.get()).collect();
    assert_eq!(x, [max[0] - min[0], 0.0, 0.0, 0.0, max[1] - min[1], 0.0, 0.0, 0.0, max[2] - min[2]], "{what}: box");
    assert_eq!(b.is_obb, 0);
    assert_eq!(b.hierarchy, vec![[0, 0]]);
    assert_eq!(b.shapes, model::Shapes::Spheres(vec![s]), "{what}: shapes");
    // Every polygon names a vertex and a texture the model has.
    for p in &m.polygons {
        assert!(matches!(p.vertices.len(), 3 | 4));
        assert!(p.vertices.iter().all(|v| (v.index as usize) < m.vertices.len()));
        assert!((p.texture_index as usize) < m.textures.len(), "{what}: texture index");
    }
}

/// `relic convert` of a `.mod`: its model glTFs (`models/*.view.glb`), validated.
fn exported_glbs(input: &Path, out: &Path) -> Vec<PathBuf> {
    let report = ops::convert(&[input.to_path_buf()], out, &ConvertRequest::default(), &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let name = input.file_name().unwrap();
    let dir = out.join(name).join("models");
    let mut glbs: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    glbs.sort();
    let refs: Vec<&Path> = glbs.iter().map(PathBuf::as_path).collect();
    validate(&refs);
    glbs
}

/// Model `m` of `original` → its glb → import → write → read: the same LOD-0 geometry, flags and bounds.
fn round_trip(original: &Model, glb: &Path) -> Packed {
    let bytes = std::fs::read(glb).unwrap();
    let scene = relic::import::gltf::read(&bytes, glb).unwrap();
    check_round_trip(original, &scene)
}

fn check_round_trip(original: &Model, scene: &Scene) -> Packed {
    let packed = from_scene(scene, "ignored").unwrap();
    // The writer's file reads back through the codec (what `pack` checks) and the record decoders.
    let format = relic::registry::by_id("drakan-srsc").unwrap();
    format.info(&packed.model).unwrap();
    let written = models(&packed.model);
    assert_eq!(written.len(), 1);
    let w = &written[0];
    let what = format!("model {} `{}`", original.id, original.name);
    assert_eq!(w.types, [0x0200, 0x0203, 0x0204, 0x0206, 0x0207], "{what}");
    assert_eq!((w.id, w.name.as_str(), w.shading), (original.id, original.name.as_str(), original.shading), "{what}");
    assert_same_triangles(&what, &triangles(original), &triangles(w));
    // relic's export of a quad comes back as that quad (the sample's quads are flat and convex).
    let corners = |m: &Model| {
        let mut c: Vec<usize> = lod0(m).iter().map(|p| p.vertices.len()).collect();
        c.sort();
        c
    };
    assert_eq!(corners(original), corners(w), "{what}: polygon sizes");
    assert_bounds(&what, w);
    // Vertices are shared by position: no more than the distinct positions the triangles use.
    let mut distinct: Vec<[u32; 3]> =
        triangles(original).iter().flat_map(|t| t.corners.map(|c| c.0.map(f32::to_bits))).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(w.vertices.len(), distinct.len(), "{what}: vertex count");
    assert!(packed.txd.is_none(), "{what}: every texture keeps its stored reference");
    packed
}

#[test]
fn sample_models_round_trip_through_relics_gltf() {
    let dir = tempfile::tempdir().unwrap();
    let input = samples().join("Sample.mod");
    let glbs = exported_glbs(&input, dir.path());
    let originals = models(&std::fs::read(&input).unwrap());
    assert_eq!(originals.len(), 2);
    for m in &originals {
        let glb = glbs.iter().find(|g| g.file_name().unwrap().to_string_lossy() == format!("{}.view.glb", m.name));
        let packed = round_trip(m, glb.unwrap());
        if m.character.is_some() {
            assert!(packed.notes.iter().any(|n| n.contains("skinned")), "{:?}", packed.notes);
        } else {
            // The crate's BSP-less records: its REO LOD is noted as dropped, nothing else.
            assert!(packed.notes.iter().any(|n| n.contains("0x0209")), "{:?}", packed.notes);
        }
    }
}

#[test]
fn sample_models_round_trip_through_their_scenes() {
    let input = samples().join("Sample.mod");
    let bytes = std::fs::read(&input).unwrap();
    let format = relic::registry::by_id("drakan-srsc").unwrap();
    let assets = format.convert(&relic::registry::ConvertInput::at(&bytes, &input, &Default::default())).unwrap();
    let originals = models(&bytes);
    let mut checked = 0;
    for a in assets {
        let Asset::Scene(scene) = a.asset else { continue };
        let name = scene.extras["model"].as_str().unwrap().to_string();
        let m = originals.iter().find(|m| m.name == name).unwrap();
        check_round_trip(m, &scene);
        checked += 1;
    }
    assert_eq!(checked, 2);
}

#[test]
fn corpus_models_round_trip() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/drakan");
    if !corpus.is_dir() {
        eprintln!("skipped: {} is missing (no Drakan .mod files in the corpus)", corpus.display());
        return;
    }
    let mut files: Vec<PathBuf> =
        walk(&corpus).into_iter().filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("mod"))).collect();
    files.sort();
    for input in files {
        let dir = tempfile::tempdir().unwrap();
        let bytes = std::fs::read(&input).unwrap();
        let format = relic::registry::by_id("drakan-srsc").unwrap();
        let assets = format.convert(&relic::registry::ConvertInput::at(&bytes, &input, &Default::default())).unwrap();
        let originals = models(&bytes);
        for a in assets {
            let Asset::Scene(scene) = a.asset else { continue };
            let id = scene.extras["id"].as_u64().unwrap() as u16;
            let m = originals.iter().find(|m| m.id == id).unwrap();
            let glb = dir.path().join("m.glb");
            std::fs::write(&glb, relic::export::gltf::to_glb(&scene).unwrap()).unwrap();
            round_trip(m, &glb);
        }
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------------------
// Scenes as other tools make them

fn prim(positions: Vec<[f32; 3]>, uvs: Vec<[f32; 2]>, indices: Vec<u32>, material: Option<usize>) -> Primitive {
    Primitive { positions, uvs, indices, material, ..Default::default() }
}

fn node(name: &str, transform: Transform, mesh: Option<usize>, children: Vec<usize>) -> Node {
    Node { name: name.into(), transform, mesh, children, ..Default::default() }
}

fn trs(t: [f32; 3], r: [f32; 4], s: [f32; 3]) -> Transform {
    Transform::Trs { translation: t, rotation: r, scale: s }
}

/// A quad in the XY plane as two counter-clockwise triangles (front +Z).
fn quad() -> (Vec<[f32; 3]>, Vec<[f32; 2]>, Vec<u32>) {
    (
        vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]],
        vec![[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]],
        vec![0, 1, 2, 0, 2, 3],
    )
}

fn red_image() -> relic::asset::Image {
    relic::asset::Image::single(32, 32, [255, 0, 0, 255].repeat(32 * 32), (0, 0), Vec::new())
}

/// Two nodes with TRS transforms (a parent moved by (10, 0, 0), a child scaled by 2), a mesh of two
/// primitives (one with vertex colours, one without UVs), an empty joint node, and a skinned mesh.
fn foreign_scene() -> Scene {
    let (p, uv, ix) = quad();
    let mut coloured = prim(p.clone(), uv.clone(), ix.clone(), Some(0));
    coloured.colors = vec![[1.0, 0.0, 0.0, 1.0]; 4];
    let no_uvs = prim(p.iter().map(|v| [v[0], v[1], 1.0]).collect(), Vec::new(), ix.clone(), Some(1));
    let mut skinned = prim(p.clone(), uv.clone(), ix.clone(), None);
    skinned.joints = vec![[0, 0, 0, 0]; 4];
    skinned.weights = vec![[1.0, 0.0, 0.0, 0.0]; 4];
    let identity = trs([0.0; 3], [0.0, 0.0, 0.0, 1.0], [1.0; 3]);
    Scene {
        nodes: vec![
            node("parent", trs([10.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]), Some(0), vec![1]),
            node("child", trs([0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [2.0; 3]), Some(1), vec![]),
            node("joint", trs([0.0, 5.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]), None, vec![]),
            Node { skin: Some(0), ..node("skinned", identity, Some(2), vec![]) },
        ],
        roots: vec![0, 2, 3],
        meshes: vec![
            Mesh { name: "two primitives".into(), primitives: vec![coloured, no_uvs], ..Default::default() },
            Mesh {
                name: "child mesh".into(),
                primitives: vec![prim(p.clone(), uv.clone(), ix.clone(), Some(0))],
                ..Default::default()
            },
            Mesh { name: "skinned mesh".into(), primitives: vec![skinned], ..Default::default() },
        ],
        materials: vec![
            Material { name: "red".into(), texture: Some(0), double_sided: true, ..Default::default() },
            Material { name: "plain blue".into(), base_color: [0.0, 0.0, 1.0, 1.0], ..Default::default() },
        ],
        textures: vec![Texture { name: "red".into(), image: red_image() }],
        skins: vec![Skin { joints: vec![2], inverse_bind_matrices: vec![glam::Mat4::IDENTITY.to_cols_array()] }],
        ..Default::default()
    }
}

#[test]
fn a_foreign_scene_is_flattened_with_one_note_per_kind() {
    let scene = foreign_scene();
    let packed = from_scene(&scene, "thing").unwrap();
    let notes = packed.notes.join("\n");
    for expected in ["flattened", "baked", "skinned", "vertex colours", "(0, 0)", "smooth", "no reference into a .txd"]
    {
        assert_eq!(packed.notes.iter().filter(|n| n.contains(expected)).count(), 1, "{expected}: {notes}");
    }
    let m = &models(&packed.model)[0];
    assert_eq!((m.name.as_str(), m.id, m.shading), ("thing", 1, 0x8002));
    // 4 quads = 8 triangles; the parent's quad at x + 10, the child's at 10 + 2x, the skinned one at y + 5.
    let tris = triangles(m);
    assert_eq!(tris.len(), 8);
    let xs = |t: &Tri| t.corners.map(|c| c.0);
    assert!(tris.iter().any(|t| xs(t).contains(&[12.0, 2.0, 0.0])), "child scaled and moved");
    assert!(tris.iter().any(|t| xs(t).contains(&[11.0, 1.0, 1.0])), "second primitive moved");
    assert!(tris.iter().any(|t| xs(t).contains(&[1.0, 6.0, 0.0])), "skinned at its joint");
    // Winding reversed: the parent's first triangle (0,0,0) (1,0,0) (1,1,0) is stored (0,0,0) (1,1,0) (1,0,0)
    // (moved by 10), with v flipped.
    // Each quad (two triangles sharing a diagonal, in one plane) is written as one polygon.
    assert_eq!(m.polygons.iter().map(|p| p.vertices.len()).collect::<Vec<_>>(), [4, 4, 4, 4]);
    let first = tris.iter().find(|t| t.corners[0].0 == [10.0, 0.0, 0.0] && t.corners[1].0 == [11.0, 1.0, 0.0]).unwrap();
    assert_eq!(first.corners.map(|c| c.0), [[10.0, 0.0, 0.0], [11.0, 1.0, 0.0], [11.0, 0.0, 0.0]]);
    assert_eq!(first.corners.map(|c| c.1), [[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]]);
    assert!(first.double_sided);
    // Textures: the red image, the blue material's plain colour and the grey of no material, new records
    // 1–3 of the `.txd` written beside.
    assert_eq!(m.textures, [Ref { id: 1, db: 0 }, Ref { id: 2, db: 0 }, Ref { id: 3, db: 0 }]);
    let txd = packed.txd.expect("a .txd of the new textures");
    let srsc = Srsc::read(&txd).unwrap();
    assert_eq!(
        srsc.entries.iter().map(|e| (e.record_type, e.id)).collect::<Vec<_>>(),
        [(0x40, 1), (0x40, 2), (0x40, 3)]
    );
    let colours: Vec<[u8; 4]> = (0..3)
        .map(|i| {
            let t = records::texture::parse(srsc.body(i), 0).unwrap();
            let img = records::texture::to_image(&t, None, Default::default()).unwrap();
            let relic::asset::Pixels::Rgba8(px) = &img.frames[0].pixels else { panic!() };
            [px[0], px[1], px[2], px[3]]
        })
        .collect();
    assert_eq!(colours, [[255, 0, 0, 255], [0, 0, 255, 255], [204, 204, 204, 255]]);
    // The glTF of this scene is valid, and reads back to the same model.
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("foreign.glb");
    std::fs::write(&glb, relic::export::gltf::to_glb(&scene).unwrap()).unwrap();
    validate(&[&glb]);
    let again = from_gltf(&std::fs::read(&glb).unwrap(), &glb, "thing").unwrap();
    assert_eq!(again.model, packed.model);
    assert_eq!(again.txd.as_ref(), Some(&txd));
}

#[test]
fn limits_and_bad_geometry_are_refused_naming_the_mesh() {
    // 65,538 distinct vertices.
    let n = 21_846u32;
    let positions: Vec<[f32; 3]> = (0..n * 3).map(|i| [i as f32, 0.0, 0.0]).collect();
    let uvs = vec![[0.0; 2]; positions.len()];
    let big = Scene {
        nodes: vec![node("big", Transform::default(), Some(0), vec![])],
        roots: vec![0],
        meshes: vec![Mesh {
            name: "many".into(),
            primitives: vec![prim(positions, uvs, (0..n * 3).collect(), None)],
            ..Default::default()
        }],
        ..Default::default()
    };
    let err = from_scene(&big, "x").unwrap_err().to_string();
    assert!(err.contains("mesh 0 `many`") && err.contains("65,535 vertices"), "{err}");

    let (p, uv, _) = quad();
    let mut bad = big.clone();
    bad.meshes[0].primitives = vec![prim(p.clone(), uv.clone(), vec![0, 1, 9], None)];
    let err = from_scene(&bad, "x").unwrap_err().to_string();
    assert!(err.contains("mesh 0 `many`") && err.contains("index 9"), "{err}");

    bad.meshes[0].primitives =
        vec![prim(vec![[f32::NAN, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], uv[..3].to_vec(), vec![0, 1, 2], None)];
    let err = from_scene(&bad, "x").unwrap_err().to_string();
    assert!(err.contains("node 0 `big`") && err.contains("not a finite position"), "{err}");

    let empty =
        Scene { nodes: vec![node("empty", Transform::default(), None, vec![])], roots: vec![0], ..Default::default() };
    assert!(from_scene(&empty, "x").unwrap_err().to_string().contains("no mesh"));
}

// ---------------------------------------------------------------------------------------------------------
// The hand-written glTF (relic::testing::hand_gltf): two boxes on a two-node hierarchy, one textured material

use relic::drakan::scene::import::from_gltf;
use relic::testing::hand_gltf::{self, BoxShape, ARM, ARM_OFFSET, BODY};

/// The faces of a hand box as Drakan stores them: per face (+X, −X, +Y, −Y, +Z, −Z) its four corners
/// (position, stored uv) clockwise from outside: glTF's (0, 1, 2), (0, 2, 3) reversed is the quad
/// (0, 3, 2, 1), and `v` is stored as 1 − v.
fn hand_faces(shape: BoxShape, offset: [f32; 3]) -> Vec<Vec<([f32; 3], [f32; 2])>> {
    let (positions, _, uvs) = hand_gltf::box_vertices(shape);
    (0..6)
        .map(|f| {
            [0, 3, 2, 1]
                .iter()
                .map(|&k| {
                    let p = positions[f * 4 + k];
                    let uv = uvs[f * 4 + k];
                    ([p[0] + offset[0], p[1] + offset[1], p[2] + offset[2]], [uv[0], 1.0 - uv[1]])
                })
                .collect()
        })
        .collect()
}

#[test]
fn the_hand_written_gltf_packs_to_a_model_that_reads_back_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("hand.glb");
    std::fs::write(&glb, hand_gltf::box_two_bones_glb()).unwrap();
    validate(&[&glb]);
    let packed = from_gltf(&std::fs::read(&glb).unwrap(), &glb, "Hand").unwrap();
    let notes = packed.notes.join("\n");
    // The hierarchy is flattened (two mesh nodes), the arm's translation baked, the clip dropped (a static
    // model has none); one new texture; smooth shading taken by default.
    for expected in ["flattened", "baked", "no reference into a .txd", "smooth", "width of 4", "1 clip(s) dropped"] {
        assert_eq!(packed.notes.iter().filter(|n| n.contains(expected)).count(), 1, "{expected}: {notes}");
    }
    let models = models(&packed.model);
    let m = &models[0];
    assert_eq!((m.id, m.name.as_str(), m.shading), (1, "Hand", 0x8002));
    assert_eq!(m.types, [0x0200, 0x0203, 0x0204, 0x0206, 0x0207]);
    // 8 corners per box, shared by the faces.
    assert_eq!(m.vertices.len(), 16);
    // 12 quads, exactly the faces (corner order and stored uv), all with texture 0 (the new record 1).
    let mut expected = hand_faces(BODY, [0.0; 3]);
    expected.extend(hand_faces(ARM, ARM_OFFSET));
    let written: Vec<Vec<([f32; 3], [f32; 2])>> = m
        .polygons
        .iter()
        .map(|p| p.vertices.iter().map(|v| (m.vertices[v.index as usize], [v.uv[0].get(), v.uv[1].get()])).collect())
        .collect();
    assert_eq!(written, expected);
    assert!(m.polygons.iter().all(|p| p.flags == 0 && p.texture_index == 0));
    assert_eq!(m.textures, [Ref { id: 1, db: 0 }]);
    assert_bounds("hand", m);
    // The bounds hold the exact box: body [−0.5, 0, −0.25]–[0.5, 1, 0.25], arm up to y = 1.5, x to 0.625.
    let b = m.bounds.as_ref().unwrap();
    assert_eq!(b.bounding_info.obb.center.map(|c| c.get()), [-0.5, 0.0, -0.25]);
    assert_eq!(b.bounding_info.sphere.center.map(|c| c.get()), [0.0625, 0.75, 0.0]);
    // The texture: the 4 × 4 image, 24 bpp (opaque), pixel for pixel.
    let srsc = Srsc::read(packed.txd.as_ref().unwrap()).unwrap();
    assert_eq!((srsc.entries[0].record_type, srsc.entries[0].id), (0x0040, 1));
    let t = records::texture::parse(srsc.body(0), 0).unwrap();
    assert_eq!((t.width, t.height, t.bits_per_pixel), (4, 4, 24));
    let img = records::texture::to_image(&t, None, Default::default()).unwrap();
    let relic::asset::Pixels::Rgba8(px) = &img.frames[0].pixels else { panic!() };
    for y in 0..4 {
        for x in 0..4 {
            let at = ((y * 4 + x) * 4) as usize;
            assert_eq!(px[at..at + 4], hand_gltf::texture_pixel(x, y), "pixel ({x}, {y})");
        }
    }
}

/// The hand-written glTF as another tool might write it: the arm's mesh with `TANGENT`, `TEXCOORD_1` and
/// `COLOR_0`, its node as a matrix, the body's mesh skinned to the arm (`JOINTS_0`/`WEIGHTS_0`, inverse
/// bind matrices the identity) and its triangles listed in another order; no clip.
fn other_tool_gltf(dir: &Path) -> PathBuf {
    let (text, mut bin) = hand_gltf::box_two_bones_gltf("other.bin");
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut add = |doc: &mut serde_json::Value, bytes: Vec<u8>, accessor: serde_json::Value| -> usize {
        while bin.len() % 4 != 0 {
            bin.push(0);
        }
        let views = doc["bufferViews"].as_array_mut().unwrap();
        views.push(serde_json::json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": bytes.len()}));
        let view = views.len() - 1;
        bin.extend_from_slice(&bytes);
        let mut a = accessor;
        a["bufferView"] = view.into();
        let accessors = doc["accessors"].as_array_mut().unwrap();
        accessors.push(a);
        accessors.len() - 1
    };
    let f32s = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
    let tangent = add(
        &mut doc,
        f32s(&[1.0, 0.0, 0.0, 1.0].repeat(24)),
        serde_json::json!({"componentType": 5126, "count": 24, "type": "VEC4"}),
    );
    let colour = add(
        &mut doc,
        f32s(&[1.0, 0.5, 0.25, 1.0].repeat(24)),
        serde_json::json!({"componentType": 5126, "count": 24, "type": "VEC4"}),
    );
    let joints = add(
        &mut doc,
        [1u8, 0, 0, 0].repeat(24),
        serde_json::json!({"componentType": 5121, "count": 24, "type": "VEC4"}),
    );
    let weights = add(
        &mut doc,
        f32s(&[1.0, 0.0, 0.0, 0.0].repeat(24)),
        serde_json::json!({"componentType": 5126, "count": 24, "type": "VEC4"}),
    );
    let identity = glam::Mat4::IDENTITY.to_cols_array();
    let ibm = add(
        &mut doc,
        f32s(&[identity, identity].concat()),
        serde_json::json!({"componentType": 5126, "count": 2, "type": "MAT4"}),
    );
    // The body's triangles in reverse order (each triangle's own winding kept).
    let order: Vec<u16> = hand_gltf::box_indices().chunks(3).rev().flatten().copied().collect();
    let reordered = add(
        &mut doc,
        order.iter().flat_map(|i| i.to_le_bytes()).collect(),
        serde_json::json!({"componentType": 5123, "count": 36, "type": "SCALAR"}),
    );
    let uv = doc["meshes"][1]["primitives"][0]["attributes"]["TEXCOORD_0"].clone();
    let arm = &mut doc["meshes"][1]["primitives"][0]["attributes"];
    arm["TANGENT"] = tangent.into();
    arm["TEXCOORD_1"] = uv;
    arm["COLOR_0"] = colour.into();
    let body = &mut doc["meshes"][0]["primitives"][0];
    body["attributes"]["JOINTS_0"] = joints.into();
    body["attributes"]["WEIGHTS_0"] = weights.into();
    body["indices"] = reordered.into();
    doc["skins"] = serde_json::json!([{"joints": [0, 1], "inverseBindMatrices": ibm}]);
    doc["nodes"][0]["skin"] = 0.into();
    let [x, y, z] = ARM_OFFSET;
    doc["nodes"][1].as_object_mut().unwrap().remove("translation");
    doc["nodes"][1]["matrix"] = serde_json::json!([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]);
    // No clip (glTF forbids animating a node given as a matrix; a static model has none anyway).
    doc.as_object_mut().unwrap().remove("animations");
    doc["buffers"][0]["byteLength"] = bin.len().into();
    let path = dir.join("other.gltf");
    std::fs::write(&path, serde_json::to_string(&doc).unwrap()).unwrap();
    std::fs::write(dir.join("other.bin"), &bin).unwrap();
    path
}

#[test]
fn a_gltf_as_another_tool_writes_it_packs_with_notes() {
    let dir = tempfile::tempdir().unwrap();
    let path = other_tool_gltf(dir.path());
    validate(&[&path]);
    let packed = from_gltf(&std::fs::read(&path).unwrap(), &path, "Other").unwrap();
    let notes = packed.notes.join("\n");
    for expected in ["TANGENT", "TEXCOORD_1", "vertex colours", "skinned", "flattened", "baked"] {
        assert_eq!(packed.notes.iter().filter(|n| n.contains(expected)).count(), 1, "{expected}: {notes}");
    }
    let m = &models(&packed.model)[0];
    // The body is skinned wholly to the arm (identity inverse bind): at rest it stands where the arm's
    // node is; the arm is moved by its matrix. Both boxes then lie at ARM_OFFSET.
    let mut expected = hand_faces(BODY, ARM_OFFSET);
    expected.extend(hand_faces(ARM, ARM_OFFSET));
    let tri = |faces: &[Vec<([f32; 3], [f32; 2])>]| -> Vec<Tri> {
        faces
            .iter()
            .flat_map(|f| {
                [[f[0], f[1], f[2]], [f[0], f[2], f[3]]].map(|corners| Tri {
                    corners,
                    texture: Some(Ref { id: 1, db: 0 }),
                    double_sided: false,
                })
            })
            .collect()
    };
    assert_same_triangles("other tool", &tri(&expected), &triangles(m));
    assert_bounds("other tool", m);
}

#[test]
fn damaged_gltfs_never_panic_the_writer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hand.glb");
    let glb = hand_gltf::box_two_bones_glb();
    // Every truncation is refused; flipped bytes give a model or an error, never a panic.
    let seen = relic::testing::check_robustness_sampled(&glb, true, 1500, |b| from_gltf(b, &path, "x"));
    assert!(seen.flips > 0);
    // Whatever packs, reads back.
    let format = relic::registry::by_id("drakan-srsc").unwrap();
    for at in (0..glb.len()).step_by(7) {
        let mut b = glb.clone();
        b[at] ^= 0x01;
        if let Ok(p) = from_gltf(&b, &path, "x") {
            format.info(&p.model).unwrap();
        }
    }
}

#[test]
fn a_mirroring_node_keeps_the_faces_facing_out() {
    // A quad facing +Z (counter-clockwise from +Z), once as is and once under a node mirrored in x.
    let (p, uv, ix) = quad();
    for (scale, x) in [([1.0, 1.0, 1.0], 1.0), ([-1.0, 1.0, 1.0], -1.0)] {
        let scene = Scene {
            nodes: vec![node("q", trs([0.0; 3], [0.0, 0.0, 0.0, 1.0], scale), Some(0), vec![])],
            roots: vec![0],
            meshes: vec![Mesh {
                name: "quad".into(),
                primitives: vec![prim(p.clone(), uv.clone(), ix.clone(), None)],
                ..Default::default()
            }],
            ..Default::default()
        };
        let m = &models(&from_scene(&scene, "q").unwrap().model)[0];
        for t in triangles(m) {
            let [a, b, c] = t.corners.map(|c| glam::Vec3::from(c.0));
            // Stored clockwise from the front: the right-hand normal points away from the viewer, −Z.
            assert_eq!((b - a).cross(c - a).normalize(), glam::Vec3::NEG_Z, "scale {scale:?}");
            assert!(t.corners.iter().all(|c| c.0[0] * x >= 0.0));
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// A model written byte by byte from the spec's tables (not by relic's writers)

use crate::srsc_fixtures;

/// `Prism.mod`: a triangular prism (two triangle caps, three quad sides, stored clockwise from outside),
/// flat and environment-mapped shading (0x8021), texture list `1:0`, a null reference, `5:1` (a texture of
/// the database's dependency 1), one double-sided side, no bounds.
fn prism_mod() -> Vec<u8> {
    use srsc_fixtures::Bytes as B;
    let corners: [[f32; 3]; 6] =
        [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [1.0, 0.0, 1.5], [0.0, 3.0, 0.0], [2.0, 3.0, 0.0], [1.0, 3.0, 1.5]];
    let mut vertices = B::default().u16(6);
    for c in corners {
        vertices = vertices.f32s(&c);
    }
    // Outward cycles, then reversed to Drakan's clockwise-from-outside order.
    let cycles: [(&[u16], u16, u16); 5] = [
        (&[0, 2, 1], 0, 0),    // bottom cap (−Y)
        (&[3, 4, 5], 0, 0),    // top cap (+Y)
        (&[0, 1, 4, 3], 1, 0), // side z = 0 (−Z)
        (&[1, 2, 5, 4], 1, 2), // slanted side, double sided
        (&[2, 0, 3, 5], 0, 0), // slanted side
    ];
    let mut polygons = B::default().u16(cycles.len() as u16);
    for (cycle, texture, flags) in cycles {
        polygons = polygons.u16(flags).u16(cycle.len() as u16).u16(texture);
        for (k, &v) in cycle.iter().rev().enumerate() {
            polygons = polygons.u16(v).f32s(&[k as f32 * 0.25, 1.0 - k as f32 * 0.125]);
        }
    }
    let textures = B::default().u32(3).r(1, 0).r(0, 0).r(5, 1).done();
    let name = B::default().str("Prism").u32(0x8021).done();
    srsc_fixtures::packed(&[
        (0x0200, 4, 0, &name),
        (0x0203, 4, 0, &vertices.done()),
        (0x0204, 4, 0, &polygons.done()),
        (0x0206, 4, 0, &textures),
    ])
}

#[test]
fn a_hand_made_model_round_trips_with_its_references_and_flags() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("Prism.mod");
    let bytes = prism_mod();
    std::fs::write(&input, &bytes).unwrap();
    let glbs = exported_glbs(&input, &dir.path().join("out"));
    let originals = models(&bytes);
    assert_eq!(originals[0].textures, [Ref { id: 1, db: 0 }, Ref { id: 5, db: 1 }]);
    let packed = round_trip(&originals[0], &glbs[0]);
    // The texture list comes back without the null reference, in its order; the same polygon flags.
    let m = &models(&packed.model)[0];
    assert_eq!(m.textures, [Ref { id: 1, db: 0 }, Ref { id: 5, db: 1 }]);
    assert_eq!(m.polygons.iter().filter(|p| p.flags == 2).count(), 1);
    assert!(packed.notes.is_empty(), "{:?}", packed.notes);
}

#[test]
fn a_texture_transform_is_baked_into_the_uvs() {
    let (p, uv, ix) = quad();
    let scene = Scene {
        nodes: vec![node("q", Transform::default(), Some(0), vec![])],
        roots: vec![0],
        meshes: vec![Mesh { name: "quad".into(), primitives: vec![prim(p, uv, ix, Some(0))], ..Default::default() }],
        materials: vec![Material {
            name: "atlas".into(),
            texture_transform: Some(relic::asset::TextureTransform {
                offset: [0.5, 0.25],
                rotation: std::f32::consts::FRAC_PI_2,
                scale: [2.0, 1.0],
            }),
            ..Default::default()
        }],
        ..Default::default()
    };
    let packed = from_scene(&scene, "q").unwrap();
    assert_eq!(packed.notes.iter().filter(|n| n.contains("KHR_texture_transform")).count(), 1, "{:?}", packed.notes);
    let m = &models(&packed.model)[0];
    // glTF uv (1, 1) at (1, 0, 0): scaled (2, 1), turned a quarter turn (−1, 2), moved (−0.5, 2.25); stored
    // v = 1 − v.
    let corner = m.polygons[0].vertices.iter().find(|v| m.vertices[v.index as usize] == [1.0, 0.0, 0.0]).unwrap();
    let got = [corner.uv[0].get(), corner.uv[1].get()];
    assert!((got[0] + 0.5).abs() < 1e-6 && (got[1] - (1.0 - 2.25)).abs() < 1e-6, "{got:?}");
}

// ---------------------------------------------------------------------------------------------------------
// Files Blender wrote (crates/relic/tests/gltf_foreign, made by its make.py from the hand-written glTF)

fn blender(name: &str) -> Option<(Vec<u8>, PathBuf)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gltf_foreign").join(name);
    match std::fs::read(&path) {
        Ok(bytes) => Some((bytes, path)),
        Err(_) => {
            eprintln!("skipped: {} is missing", path.display());
            None
        }
    }
}

/// Triangles with their texture and side flag left out: the geometry alone.
fn geometry(tris: Vec<Tri>) -> Vec<Tri> {
    tris.into_iter().map(|t| Tri { texture: None, double_sided: false, ..t }).collect()
}

fn hand_triangles(offset_body: [f32; 3], offset_arm: [f32; 3]) -> Vec<Tri> {
    let mut faces = hand_faces(BODY, offset_body);
    faces.extend(hand_faces(ARM, offset_arm));
    faces
        .iter()
        .flat_map(|f| {
            [[f[0], f[1], f[2]], [f[0], f[2], f[3]]].map(|corners| Tri { corners, texture: None, double_sided: false })
        })
        .collect()
}

#[test]
fn blenders_export_of_the_hand_file_packs_to_the_same_boxes() {
    let Some((glb, path)) = blender("box_blender.glb") else { return };
    validate(&[&path]);
    let packed = from_gltf(&glb, &path, "Blender").unwrap();
    let notes = packed.notes.join("\n");
    for expected in ["TANGENT", "flattened", "baked"] {
        assert_eq!(packed.notes.iter().filter(|n| n.contains(expected)).count(), 1, "{expected}: {notes}");
    }
    let m = &models(&packed.model)[0];
    assert_same_triangles("blender", &hand_triangles([0.0; 3], ARM_OFFSET), &geometry(triangles(m)));
    assert_eq!(m.vertices.len(), 16);
    assert_bounds("blender", m);
}

#[test]
fn a_skinned_blender_model_packs_in_its_rest_pose() {
    let Some((glb, path)) = blender("box_skinned.glb") else { return };
    validate(&[&path]);
    let packed = from_gltf(&glb, &path, "Rig").unwrap();
    let notes = packed.notes.join("\n");
    for expected in ["skinned", "flattened"] {
        assert_eq!(packed.notes.iter().filter(|n| n.contains(expected)).count(), 1, "{expected}: {notes}");
    }
    let m = &models(&packed.model)[0];
    // At rest each box stands where the hand file places it (Blender's floats: within 1e-5).
    assert_same_triangles("rig", &hand_triangles([0.0; 3], ARM_OFFSET), &geometry(triangles(m)));
    assert_bounds("rig", m);
}
