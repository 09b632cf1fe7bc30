//! RSM models upright in glTF (issue 24, docs/formats/ragnarok.md#rsm-axes): 2.2+ file space is
//! Y-up and written unmirrored with each triangle reversed; 1.x is Y-down and mirrored. Models are built
//! byte by byte here (not with relic's writer), converted through the registry and read back from the GLB
//! with a reader of the test's own: world vertex positions, faces facing out (a closed box), normals, no
//! COLOR_0, and the Khronos validator. With the corpus: `goldberg_s_01.rsm2` with its GRF.

use crate::glb_read;

use std::path::PathBuf;

use glam::{Mat3, Vec3};
use relic::asset::Asset;
use relic::registry::{self, ConvertOptions};

/// Little-endian byte builder.
#[derive(Default)]
struct B(Vec<u8>);

impl B {
    fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    fn u16(&mut self, v: u16) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn i32(&mut self, v: i32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn f32(&mut self, v: f32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn vec3(&mut self, v: Vec3) -> &mut Self {
        self.f32(v.x).f32(v.y).f32(v.z)
    }
    /// 1.x: a 40-byte NUL-padded name.
    fn fixed(&mut self, s: &str) -> &mut Self {
        let mut b = s.as_bytes().to_vec();
        b.resize(40, 0);
        self.0.extend_from_slice(&b);
        self
    }
    /// 2.x: a length-prefixed name.
    fn string(&mut self, s: &str) -> &mut Self {
        self.i32(s.len() as i32);
        self.0.extend_from_slice(s.as_bytes());
        self
    }
}

/// A closed box [−1, 1] × [0, 2] × [−1, 1] as 12 triangles whose right-hand normals point outward.
fn box_outward() -> (Vec<Vec3>, Vec<[u16; 3]>) {
    let mut corners = Vec::new();
    for x in [-1.0, 1.0] {
        for y in [0.0, 2.0] {
            for z in [-1.0, 1.0] {
                corners.push(Vec3::new(x, y, z));
            }
        }
    }
    let centre = Vec3::new(0.0, 1.0, 0.0);
    let mut faces = Vec::new();
    // Each side: the 4 corners with one coordinate at its extreme, split into two triangles.
    for axis in 0..3 {
        for side in [-1.0f32, 1.0] {
            let quad: Vec<u16> = (0..8u16).filter(|&i| (corners[i as usize] - centre)[axis] * side > 0.0).collect();
            // Corners 0..4 of a side in bit order form a Z pattern: (0, 1, 3) and (0, 3, 2).
            for t in [[quad[0], quad[1], quad[3]], [quad[0], quad[3], quad[2]]] {
                let p = t.map(|i| corners[i as usize]);
                let n = (p[1] - p[0]).cross(p[2] - p[0]);
                let mid = (p[0] + p[1] + p[2]) / 3.0;
                faces.push(if n.dot(mid - centre) > 0.0 { t } else { [t[0], t[2], t[1]] });
            }
        }
    }
    (corners, faces)
}

/// RSM 2.3, one root mesh at `position` with the 3×3 `matrix` (column-major). Faces are stored as real
/// files store them (measured on every closed mesh of the corpus): right-hand normal out of the mesh, and
/// reversed when the matrix mirrors (the game draws with one fixed winding rule whatever the matrix).
fn box_v23(position: Vec3, matrix: Mat3, shade: i32) -> Vec<u8> {
    let (corners, faces) = box_outward();
    let mut b = B::default();
    b.0.extend_from_slice(b"GRSM");
    b.u8(2).u8(3).i32(0).i32(shade).u8(255).f32(30.0);
    b.i32(1).string("box"); // root names
    b.i32(1); // meshes
    b.string("box").string("");
    b.i32(1).string("tex.bmp"); // the mesh's textures
    for v in matrix.to_cols_array() {
        b.f32(v);
    }
    b.vec3(position);
    b.i32(corners.len() as i32);
    let inverse = matrix.inverse();
    for c in &corners {
        b.vec3(inverse * (*c - position)); // so that the world positions are the box's
    }
    b.i32(1).i32(0).f32(0.0).f32(0.0); // one texture vertex, colour 0 as in real files
    b.i32(faces.len() as i32);
    // Under a mirroring matrix the outward order in the world is the reversed one in the file, and the
    // exporter reversed it once more for the game's fixed rule: the world's outward order again.
    for f in &faces {
        b.i32(24).u16(f[0]).u16(f[1]).u16(f[2]).u16(0).u16(0).u16(0).u16(0).u16(0).i32(0).i32(1);
    }
    b.i32(0).i32(0).i32(0).i32(0); // scale, rotation, position keys, texture animations
    b.0
}

/// RSM 1.4, one mesh: the box mirrored into Y-down file space and moved off centre by `shift`, so the
/// conversion's mirror and centring give the box back. Faces in the 1.x convention (right-hand normal
/// outward in file space).
fn box_v14(shift: Vec3, shade: i32) -> Vec<u8> {
    let (corners, faces) = box_outward();
    let mut b = B::default();
    b.0.extend_from_slice(b"GRSM");
    b.u8(1).u8(4).i32(0).i32(shade).u8(255);
    b.0.extend_from_slice(&[0; 16]);
    b.i32(1).fixed("tex.bmp");
    b.fixed("box");
    b.i32(1); // meshes
    b.fixed("box").fixed("");
    b.i32(1).i32(0); // texture indices
    for v in [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0] {
        b.f32(v);
    }
    b.vec3(Vec3::ZERO).vec3(Vec3::ZERO).f32(0.0).vec3(Vec3::ZERO).vec3(Vec3::ONE); // offset, position, angle, axis, scale
    b.i32(corners.len() as i32);
    for c in &corners {
        b.vec3(Vec3::new(c.x, -c.y, c.z) + shift);
    }
    b.i32(1).i32(0).f32(0.0).f32(0.0);
    b.i32(faces.len() as i32);
    for f in &faces {
        // Mirroring reverses orientation: the file's outward order is the world's reversed.
        b.u16(f[0]).u16(f[2]).u16(f[1]).u16(0).u16(0).u16(0).u16(0).u16(0).i32(0).i32(1);
    }
    b.i32(0); // rotation keys
    b.i32(0); // model-level scale keys (below 1.6)
    b.0
}

/// Converts through the registry as `relic convert` does and returns the GLB.
fn to_glb(bytes: &[u8], opts: &ConvertOptions) -> Vec<u8> {
    let (format, _) = registry::sniff(bytes, "x.rsm").unwrap();
    assert_eq!(format.id, "ro-rsm");
    let assets = format.convert(&relic::registry::ConvertInput::new(bytes, opts)).unwrap();
    let Asset::Scene(scene) = &assets[0].asset else { panic!("not a scene") };
    relic::export::gltf::to_glb(scene).unwrap()
}

fn validate(glb: &[u8], name: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{name}.glb"));
    std::fs::write(&path, glb).unwrap();
    if let Some(reports) = relic::testing::validate_gltf(&[&path]) {
        assert_eq!(reports[0].errors, 0, "{name}: {:#?}", reports[0].messages);
    }
}

fn assert_same_points(actual: &[Vec3], expected: &[Vec3]) {
    for e in expected {
        assert!(actual.iter().any(|a| a.distance(*e) < 1e-4), "{e} not among {actual:?}");
    }
    for a in actual {
        assert!(expected.iter().any(|e| a.distance(*e) < 1e-4), "{a} not expected ({expected:?})");
    }
}

/// Every face of the box faces out (front by glTF's rule, right-hand normal away from the centre), its
/// normals too when it has them, and there is no COLOR_0.
fn assert_upright_box(glb: &[u8], name: &str) {
    let placed = glb_read::parse(glb).placed();
    assert_eq!(placed.len(), 1);
    let p = &placed[0];
    let (corners, _) = box_outward();
    assert_same_points(&p.positions, &corners);
    let centre = Vec3::new(0.0, 1.0, 0.0);
    assert_eq!(p.triangles.len(), 12);
    for t in &p.triangles {
        let mid = (t[0] + t[1] + t[2]) / 3.0;
        assert!(glb_read::normal(t).dot(mid - centre) > 0.0, "{name}: a face faces in: {t:?}");
    }
    for (n, v) in p.normals.iter().zip(&p.positions) {
        // Flat normals: along the axis of the side, pointing out of it.
        assert!(n.dot(*v - centre) > 0.0, "{name}: normal {n} at {v} points in");
    }
    assert!(!p.attributes.iter().any(|a| a.starts_with("COLOR")), "{name}: {:?}", p.attributes);
    validate(glb, name);
}

#[test]
fn v23_box_keeps_its_stored_positions_and_faces_out() {
    for shade in [0, 1] {
        let glb = to_glb(&box_v23(Vec3::new(3.0, 4.0, 5.0), Mat3::IDENTITY, shade), &ConvertOptions::default());
        let placed = glb_read::parse(&glb).placed();
        // Y-up: the top of the box is at y = 2, not −2 (no S(1,−1,1) above 2.x).
        assert!(placed[0].positions.iter().all(|p| p.y >= -1e-5));
        assert!(placed[0].world.determinant() > 0.0);
        assert_upright_box(&glb, &format!("v23_shade{shade}"));
        if shade == 1 {
            assert_eq!(placed[0].normals.len(), placed[0].positions.len());
        }
    }
}

/// A mesh whose matrix mirrors (as goldberg's `Object293`): stored reversed for the game's fixed winding
/// rule, so relic reverses it again, since glTF flips its rule under the mirror itself.
#[test]
fn v23_mirrored_mesh_faces_out() {
    let mirror = Mat3::from_diagonal(Vec3::new(-1.0, 1.0, 1.0));
    for shade in [0, 1] {
        let glb = to_glb(&box_v23(Vec3::new(1.0, 0.0, 0.0), mirror, shade), &ConvertOptions::default());
        assert!(glb_read::parse(&glb).placed()[0].world.determinant() < 0.0);
        assert_upright_box(&glb, &format!("v23_mirrored_shade{shade}"));
    }
}

#[test]
fn v14_box_is_mirrored_centred_and_faces_out() {
    for shade in [0, 1] {
        let glb = to_glb(&box_v14(Vec3::new(5.0, 0.0, 7.0), shade), &ConvertOptions::default());
        assert!(glb_read::parse(&glb).placed()[0].world.determinant() < 0.0, "1.x is mirrored");
        assert_upright_box(&glb, &format!("v14_shade{shade}"));
    }
}

#[test]
fn texture_vertex_colours_stay_in_the_json() {
    let bytes = box_v23(Vec3::ZERO, Mat3::IDENTITY, 0);
    let json = registry::by_id("ro-rsm").unwrap().to_json(&bytes).unwrap();
    let tv = &json["meshes"][0]["tex_vertices"][0];
    assert_eq!(tv["color"], 0, "{tv}");
}

fn corpus() -> Option<PathBuf> {
    crate::common::corpus("ragnarok")
}

/// Issue 24's proof: goldberg_s_01.rsm2 with its GRF converts upright (the root mesh's world vertices are
/// the stored ones under its node transform, not Y-mirrored), its faces face out, every texture is found
/// (no warning) and embedded.
#[test]
fn goldberg_is_upright_faces_out_and_is_textured() {
    let Some(dir) = corpus() else { return };
    let model = std::fs::read(dir.join("goldberg_s_01.rsm2")).unwrap();
    let rsm = relic::ragnarok::rsm::parse(&model).unwrap();
    let opts = ConvertOptions { textures: Some(dir.join("goldberg_textures.grf")), ..Default::default() };
    let glb = to_glb(&model, &opts);
    let notes = opts.notes.lock().unwrap().clone();
    assert!(notes.is_empty(), "{notes:?}");
    let read = glb_read::parse(&glb);
    assert_eq!(read.json["images"].as_array().map(Vec::len), Some(4));
    assert!(read.json["images"].as_array().unwrap().iter().all(|i| i["bufferView"].is_u64()));

    // The root mesh: W = T(position)·M (it has no rotation keys; scale keys hold 1 before their first).
    let root_name = rsm.root_names[0].text.clone();
    let root = rsm.meshes.iter().find(|m| m.name.text == root_name).unwrap();
    let placed = read.placed();
    let p = placed.iter().find(|p| p.mesh_name == root_name).unwrap();
    let m = Mat3::from_cols_array(&root.matrix);
    let expected: Vec<Vec3> = root
        .faces
        .iter()
        .flat_map(|f| f.vertices)
        .map(|v| Vec3::from_array(root.position) + m * Vec3::from_array(root.vertices[v as usize]))
        .collect();
    assert!(root.rotation_keys.is_empty() && root.position_keys.is_empty() && root.scale_keys.is_empty());
    assert_same_points(&p.positions, &expected);

    // Faces face out: from the centre of a face, a ray along its front normal leaves the model while one
    // along its back normal meets another face (the model is not a closed solid, so each face is judged on
    // its own, and faces a ray cannot decide are left out). Asked of the root mesh and of the model.
    let all: Vec<[Vec3; 3]> = placed.iter().flat_map(|p| p.triangles.iter().copied()).collect();
    let (mut out, mut inward) = (0, 0);
    for q in &placed {
        let (mut o, mut i) = (0, 0);
        for t in &q.triangles {
            let n = glb_read::normal(t).normalize_or_zero();
            if n == Vec3::ZERO {
                continue;
            }
            let c = (t[0] + t[1] + t[2]) / 3.0;
            let (front, back) = (hits(c + n * 1e-3, n, &all), hits(c - n * 1e-3, -n, &all));
            if front == 0 && back > 0 {
                o += 1;
            } else if back == 0 && front > 0 {
                i += 1;
            }
        }
        if q.mesh_name == root_name {
            assert!(o > 20 * i.max(1), "root mesh: {o} faces out, {i} in");
        }
        out += o;
        inward += i;
    }
    assert!(out > 20 * inward.max(1), "{out} faces out, {inward} in");
    validate(&glb, "goldberg");
}

/// How many triangles a ray from `o` along `d` meets beyond `o` (Möller–Trumbore).
fn hits(o: Vec3, d: Vec3, triangles: &[[Vec3; 3]]) -> usize {
    triangles
        .iter()
        .filter(|t| {
            let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
            let p = d.cross(e2);
            let det = e1.dot(p);
            if det.abs() < 1e-9 {
                return false;
            }
            let s = o - t[0];
            let u = s.dot(p) / det;
            let q = s.cross(e1);
            let v = d.dot(q) / det;
            (0.0..=1.0).contains(&u) && v >= 0.0 && u + v <= 1.0 && e2.dot(q) / det > 1e-4
        })
        .count()
}
