//! glTF → RSM 1.4 / 2.3 (`relic pack ro-rsm model.glb`): round trips of every sample and corpus model
//! (rsm → relic's glTF → glTF reader → RSM writer, both version families → relic reads it → glTF again)
//! compared as world geometry at rest, at every key time and between keys, with header fields against
//! independent counts; the hand-written glTF of `relic::testing::hand_gltf` and a hand-built scene read back
//! exactly; glTFs as other tools write them (Blender's re-export and skinned rig from `tests/gltf_foreign`; a
//! scene with TRS nodes, reordered vertices, merged primitives, vertex colours, a texture transform, STEP keys
//! and a skin) with the notes expected; limits and large inputs.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use glam::{Mat4, Quat, Vec3};
use relic::asset::{
    Animation, Channel, ChannelTarget, ChannelValues, Interpolation, Material, Mesh as SceneMesh, Node, Primitive,
    Scene, Skin, Texture, Transform,
};
use relic::ragnarok::rsm::import::{self, Packed};
use relic::ragnarok::rsm::scene::to_scene;
use relic::ragnarok::rsm::{Rsm, Version};

const V14: Version = Version::new(1, 4);
const V23: Version = Version::new(2, 3);

fn samples() -> PathBuf {
    crate::common::samples_dir().join("ragnarok")
}

fn corpus() -> Option<Vec<PathBuf>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/ragnarok");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: ../shared/corpus/ragnarok not found");
        return None;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "rsm" || e == "rsm2"))
        .collect();
    files.sort();
    Some(files)
}

/// The scene as relic writes it to GLB and its glTF reader reads it back; the Khronos validator checks
/// the GLB (when it is installed).
fn through_gltf(scene: &Scene, name: &str) -> Scene {
    let glb = relic::export::gltf::to_glb(scene).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{name}.glb"));
    std::fs::write(&path, &glb).unwrap();
    if let Some(reports) = relic::testing::validate_gltf(&[&path]) {
        assert_eq!(reports[0].errors, 0, "{name}: {:#?}", reports[0].messages);
    }
    relic::import::gltf::read(&glb, &path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn local(t: &Transform) -> Mat4 {
    match t {
        Transform::Matrix(m) => Mat4::from_cols_array(m),
        Transform::Trs { translation, rotation, scale } => Mat4::from_scale_rotation_translation(
            Vec3::from_array(*scale),
            Quat::from_array(*rotation).normalize(),
            Vec3::from_array(*translation),
        ),
    }
}

fn sample_channel(c: &Channel, t: f32) -> (usize, usize, f32) {
    let n = c.times.len();
    if n == 0 || t <= c.times[0] {
        return (0, 0, 0.0);
    }
    let k = c.times.partition_point(|&x| x <= t);
    if k >= n {
        return (n - 1, n - 1, 0.0);
    }
    let (t0, t1) = (c.times[k - 1], c.times[k]);
    match c.interpolation {
        Interpolation::Step => (k - 1, k - 1, 0.0),
        Interpolation::Linear => (k - 1, k, if t1 > t0 { (t - t0) / (t1 - t0) } else { 1.0 }),
    }
}

/// A node's local transform at `time` (rest when `None`), channels of the first clip applied.
fn local_at(scene: &Scene, n: usize, time: Option<f32>) -> Mat4 {
    let node = &scene.nodes[n];
    let Some(t) = time else { return local(&node.transform) };
    let chans: Vec<&Channel> = scene
        .animations
        .first()
        .map(|a| a.channels.iter().filter(|c| c.target == ChannelTarget::Node(n)).collect())
        .unwrap_or_default();
    if chans.is_empty() {
        return local(&node.transform);
    }
    let (mut s, mut r, mut tr) = local(&node.transform).to_scale_rotation_translation();
    if let Transform::Trs { translation, rotation, scale } = &node.transform {
        (s, r, tr) = (Vec3::from_array(*scale), Quat::from_array(*rotation), Vec3::from_array(*translation));
    }
    for c in chans {
        let (i, j, f) = sample_channel(c, t);
        match &c.values {
            ChannelValues::Translation(v) => tr = Vec3::from_array(v[i]).lerp(Vec3::from_array(v[j]), f),
            ChannelValues::Scale(v) => s = Vec3::from_array(v[i]).lerp(Vec3::from_array(v[j]), f),
            ChannelValues::Rotation(v) => {
                r = Quat::from_array(v[i]).normalize().slerp(Quat::from_array(v[j]).normalize(), f)
            }
            _ => {}
        }
    }
    Mat4::from_scale_rotation_translation(s, r, tr)
}

type Tri = [[f32; 5]; 3];

/// Every triangle in world space (position and UV per corner), in the order a renderer fronts it (a
/// mirroring world matrix flips the winding), at `time`.
fn world_tris(scene: &Scene, time: Option<f32>) -> Vec<Tri> {
    let mut out = Vec::new();
    let mut stack: Vec<(usize, Mat4)> = scene.roots.iter().map(|&r| (r, Mat4::IDENTITY)).collect();
    while let Some((n, up)) = stack.pop() {
        let w = up * local_at(scene, n, time);
        let node = &scene.nodes[n];
        if let Some(m) = node.mesh.map(|m| &scene.meshes[m]) {
            for p in &m.primitives {
                for t in p.indices.chunks_exact(3) {
                    let mut tri: Tri = [[0.0; 5]; 3];
                    for (k, &i) in t.iter().enumerate() {
                        let v = w.transform_point3(Vec3::from_array(p.positions[i as usize]));
                        let uv = p.uvs.get(i as usize).copied().unwrap_or([0.0; 2]);
                        tri[k] = [v.x, v.y, v.z, uv[0], uv[1]];
                    }
                    if w.determinant() < 0.0 {
                        tri.swap(1, 2);
                    }
                    out.push(tri);
                }
            }
        }
        stack.extend(node.children.iter().map(|&c| (c, w)));
    }
    out
}

fn key(tri: &Tri) -> Vec<i64> {
    tri.iter().flat_map(|c| c.iter().map(|x| (x * 1000.0).round() as i64)).collect()
}

/// Rotated so the smallest corner comes first (winding kept), then sorted.
fn canonical(mut tris: Vec<Tri>) -> Vec<Tri> {
    for t in &mut tris {
        let best = (0..3).min_by_key(|&k| key(&[t[k], t[k], t[k]])).unwrap();
        t.rotate_left(best);
    }
    tris.sort_by_key(key);
    tris
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-5 * a.abs().max(b.abs()).max(1.0)
}

fn same_tris(what: &str, expected: Vec<Tri>, got: Vec<Tri>) {
    assert_eq!(expected.len(), got.len(), "{what}: triangle count");
    let (e, g) = (canonical(expected), canonical(got));
    let mut unmatched: Vec<Tri> = g.clone();
    for t in &e {
        let found =
            unmatched.iter().position(|u| t.iter().flatten().zip(u.iter().flatten()).all(|(a, b)| close(*a, *b)));
        match found {
            Some(i) => {
                unmatched.swap_remove(i);
            }
            None => {
                panic!("{what}: triangle {t:?} not found (nearest by order: {:?})", g.iter().find(|u| key(u) >= key(t)))
            }
        }
    }
}

/// Key times (seconds) of the first clip's node channels.
fn key_times(scene: &Scene) -> Vec<f32> {
    let mut t: Vec<f32> = scene
        .animations
        .first()
        .map(|a| {
            a.channels
                .iter()
                .filter(|c| matches!(c.target, ChannelTarget::Node(_)))
                .flat_map(|c| c.times.clone())
                .collect()
        })
        .unwrap_or_default();
    t.sort_by(f32::total_cmp);
    t.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
    t
}

/// `tris` moved as relic's 1.x reader centres a model: X/Z centred, bottom at 0.
fn recentred(tris: Vec<Tri>, at_rest: &[Tri]) -> Vec<Tri> {
    let (mut min, mut max) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for c in at_rest.iter().flatten() {
        min = min.min(Vec3::new(c[0], c[1], c[2]));
        max = max.max(Vec3::new(c[0], c[1], c[2]));
    }
    let shift = Vec3::new(-(min.x + max.x) / 2.0, -min.y, -(min.z + max.z) / 2.0);
    tris.into_iter().map(|t| t.map(|c| [c[0] + shift.x, c[1] + shift.y, c[2] + shift.z, c[3], c[4]])).collect()
}

/// Every mesh's triangles in model space at rest (world positions of relic's conversion), in stored face
/// order and corner order, by file mesh index.
fn mesh_triangles(rsm: &Rsm) -> Vec<Vec<[Vec3; 3]>> {
    let scene = to_scene(rsm, None).unwrap();
    // The conversion adds scene meshes in tree order (roots, then children breadth first).
    let children = rsm.children();
    let mut order = rsm.roots();
    let mut i = 0;
    while let Some(&m) = order.get(i) {
        order.extend(children[m].iter().copied());
        i += 1;
    }
    let mut world_of_mesh = vec![Mat4::IDENTITY; scene.meshes.len()];
    let mut stack: Vec<(usize, Mat4)> = scene.roots.iter().map(|&r| (r, Mat4::IDENTITY)).collect();
    while let Some((n, up)) = stack.pop() {
        let w = up * local(&scene.nodes[n].transform);
        if let Some(m) = scene.nodes[n].mesh {
            world_of_mesh[m] = w;
        }
        stack.extend(scene.nodes[n].children.iter().map(|&c| (c, w)));
    }
    let mut out = vec![Vec::new(); rsm.meshes.len()];
    for (scene_mesh, &m) in order.iter().enumerate() {
        let mesh = &rsm.meshes[m];
        let w = world_of_mesh[scene_mesh];
        let at = |v: u16| {
            w.transform_point3(Vec3::from_array(mesh.vertices.get(usize::from(v)).copied().unwrap_or([0.0; 3])))
        };
        out[m] = mesh.faces.iter().map(|f| f.vertices.map(at)).collect();
    }
    out
}

/// The file's meshes come back in their order with their faces in stored order (model space, within
/// 1e-3 of the model's extent) and every track with its key count and frames.
fn same_meshes_and_tracks(what: &str, original: &Rsm, rsm: &Rsm) {
    let names = |r: &Rsm| r.meshes.iter().map(|m| m.name.text.clone()).collect::<Vec<_>>();
    assert_eq!(names(rsm), names(original), "{what}: mesh order");
    let (expected, got) = (mesh_triangles(original), mesh_triangles(rsm));
    let (mut min, mut max) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for p in expected.iter().flatten().flatten() {
        min = min.min(*p);
        max = max.max(*p);
    }
    let tolerance = 1e-3 * (max - min).max_element().max(1e-3);
    for (m, (e, g)) in expected.iter().zip(&got).enumerate() {
        let name = &original.meshes[m].name.text;
        assert_eq!(e.len(), g.len(), "{what}: '{name}' face count");
        for (f, (a, b)) in e.iter().zip(g).enumerate() {
            let off = a.iter().zip(b).map(|(p, q)| (*p - *q).abs().max_element()).fold(0.0, f32::max);
            assert!(off <= tolerance, "{what}: '{name}' face {f}: {a:?} became {b:?}");
        }
    }
    for (o, m) in original.meshes.iter().zip(&rsm.meshes) {
        // Sorted: the conversion orders keys by time (a hand-made file stores them out of order).
        let frames = |k: &mut dyn Iterator<Item = i32>| {
            let mut v = k.collect::<Vec<i32>>();
            v.sort_unstable();
            v
        };
        assert_eq!(
            frames(&mut m.rotation_keys.iter().map(|k| k.frame)),
            frames(&mut o.rotation_keys.iter().map(|k| k.frame)),
            "{what}: '{}' rotation key frames",
            o.name
        );
        assert_eq!(
            frames(&mut m.position_keys.iter().map(|k| k.frame)),
            frames(&mut o.position_keys.iter().map(|k| k.frame)),
            "{what}: '{}' position key frames",
            o.name
        );
        assert_eq!(
            frames(&mut m.scale_keys.iter().map(|k| k.frame)),
            frames(&mut o.scale_keys.iter().map(|k| k.frame)),
            "{what}: '{}' scale key frames",
            o.name
        );
    }
}

fn pack(scene: &Scene, version: Version) -> (Packed, Rsm) {
    let packed = import::from_scene(scene, version).unwrap();
    let bytes = relic::ragnarok::rsm::write(&packed.rsm).unwrap();
    let back = Rsm::read(&bytes).unwrap();
    assert_eq!(back, packed.rsm, "what is written reads back as written");
    (packed, back)
}

/// The RSM at `path` → glTF → RSM `version` → glTF: the same world geometry at rest and (when the target
/// holds the animation) at every key time; header fields against independent counts.
fn round_trip(path: &Path, version: Version) {
    let what = format!("{} → {version}", path.file_name().unwrap().to_string_lossy());
    let original = Rsm::read(&std::fs::read(path).unwrap()).unwrap();
    let source = to_scene(&original, None).unwrap();
    let gltf = through_gltf(&source, "source");
    let (packed, rsm) = pack(&gltf, version);
    let again = to_scene(&rsm, None).unwrap();
    through_gltf(&again, "again");

    let rest_src = world_tris(&source, None);
    let to_1x = !version.is_rsm2();
    let expected = |t: Option<f32>| {
        let tris = world_tris(&source, t);
        if to_1x {
            recentred(tris, &rest_src)
        } else {
            tris
        }
    };
    same_tris(&format!("{what} at rest"), expected(None), world_tris(&again, None));
    let dropped = packed.notes.iter().any(|n| n.contains("rotation keys only"));
    if !dropped {
        // At every key time and halfway between (where interpolation shows).
        let times = key_times(&source);
        let halves: Vec<f32> = times.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect();
        for t in times.iter().chain(&halves).copied() {
            same_tris(&format!("{what} at {t} s"), expected(Some(t)), world_tris(&again, Some(t)));
        }
    }

    // Header fields, against counts made here from the source.
    let same_family = original.version.is_rsm2() == version.is_rsm2();
    let faces = |r: &Rsm| r.meshes.iter().map(|m| m.faces.len()).sum::<usize>();
    assert_eq!(faces(&rsm), faces(&original), "{what}: faces");
    assert_eq!(faces(&rsm), rest_src.len(), "{what}: faces = glTF triangles");
    let used_textures: BTreeSet<String> = source
        .meshes
        .iter()
        .flat_map(|m| &m.primitives)
        .filter_map(|p| p.material)
        .map(|m| source.materials[m].name.clone())
        .filter(|n| n != "untextured")
        .collect();
    let written: BTreeSet<String> = rsm.texture_names().iter().map(|n| n.text.clone()).collect();
    assert_eq!(written, used_textures, "{what}: textures");
    let unit = if version.is_rsm2() { 30.0 } else { 1000.0 };
    let fps = original.frame_rate.map_or(unit, f64::from);
    let duration = source
        .animations
        .first()
        .map(|a| a.channels.iter().filter_map(|c| c.times.last()).fold(0.0f32, |m, &t| m.max(t)))
        .unwrap_or(0.0);
    let want_length = (f64::from(duration) * if version.is_rsm2() { fps } else { 1000.0 }).round() as i32;
    assert_eq!(rsm.animation_length, want_length, "{what}: animation length");
    if version.is_rsm2() {
        assert_eq!(rsm.frame_rate.map(f64::from), Some(fps), "{what}: frame rate kept from the export's extras");
    }
    assert_eq!(rsm.alpha, Some(original.alpha.unwrap_or(255)), "{what}: alpha kept from the export's extras");
    if same_family {
        let tree = |r: &Rsm| -> BTreeSet<(String, String)> {
            r.meshes.iter().map(|m| (m.name.text.clone(), m.parent_name.text.clone())).collect()
        };
        let parents = original.parents();
        let orig_tree: BTreeSet<(String, String)> = original
            .meshes
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let p = parents[i].map(|p| original.meshes[p].name.text.clone()).unwrap_or_default();
                (m.name.text.clone(), p)
            })
            .collect();
        if original.meshes.iter().map(|m| &m.name.text).collect::<BTreeSet<_>>().len() == original.meshes.len() {
            assert_eq!(tree(&rsm), orig_tree, "{what}: hierarchy");
        }
        assert_eq!(rsm.meshes.len(), original.meshes.len(), "{what}: nodes");
        if original.meshes.iter().map(|m| &m.name.text).collect::<BTreeSet<_>>().len() == original.meshes.len() {
            same_meshes_and_tracks(&what, &original, &rsm);
        }
        assert_eq!(rsm.shade_type, original.shade_type, "{what}: shade type");
        for (m, o) in rsm.meshes.iter().zip(&original.meshes) {
            // Vertices: the distinct stored positions the faces use.
            let used: BTreeSet<[u32; 3]> = o
                .faces
                .iter()
                .flat_map(|f| f.vertices)
                // A face index past the vertices reads as the origin (relic's reader).
                .map(|v| o.vertices.get(usize::from(v)).copied().unwrap_or([0.0; 3]))
                .map(|p| p.map(f32::to_bits))
                .collect();
            if to_1x && !o.faces.is_empty() {
                assert_eq!(m.vertices.len(), used.len(), "{what}: vertices of '{}'", m.name);
            }
            // Keys: every key written is one of the file's (same frame, same value; a rotation up to sign),
            // except redundant ones left out; the geometry at every key time is compared above.
            if m.name == o.name {
                for k in &m.rotation_keys {
                    match o.rotation_keys.iter().find(|x| x.frame == k.frame) {
                        Some(x) => {
                            let dot: f32 = x.quaternion.iter().zip(k.quaternion).map(|(a, b)| a * b).sum();
                            assert!(dot.abs() > 0.99999, "{what}: '{}' rotation at {}", m.name, k.frame);
                        }
                        None => assert!(
                            o.rotation_keys.is_empty() && k.frame == 0,
                            "{what}: '{}' extra rotation key {}",
                            m.name,
                            k.frame
                        ),
                    }
                }
                for k in &m.position_keys {
                    let x = o.position_keys.iter().find(|x| x.frame == k.frame);
                    let x = x.unwrap_or_else(|| panic!("{what}: '{}' extra position key {}", m.name, k.frame));
                    assert!(
                        x.position.iter().zip(k.position).all(|(a, b)| close(*a, b)),
                        "{what}: '{}' position",
                        m.name
                    );
                }
                for k in &m.scale_keys {
                    let x = o.scale_keys.iter().find(|x| x.frame == k.frame);
                    let x = x.unwrap_or_else(|| panic!("{what}: '{}' extra scale key {}", m.name, k.frame));
                    assert!(x.scale.iter().zip(k.scale).all(|(a, b)| close(*a, b)), "{what}: '{}' scale", m.name);
                }
            }
            if rsm.shade_type == 2 {
                assert!(m.faces.iter().all(|f| f.smooth_groups.iter().all(|&g| (0..32).contains(&g))));
            }
        }
    }
}

#[test]
fn samples_round_trip_in_both_families() {
    for name in ["pyramid.rsm", "pyramid.rsm2"] {
        for version in [V14, V23] {
            round_trip(&samples().join(name), version);
        }
    }
}

#[test]
fn corpus_models_round_trip_in_both_families() {
    let Some(files) = corpus() else { return };
    assert!(!files.is_empty());
    for path in files {
        for version in [V14, V23] {
            round_trip(&path, version);
        }
    }
}

fn trs(t: [f32; 3], r: [f32; 4], s: [f32; 3]) -> Transform {
    Transform::Trs { translation: t, rotation: r, scale: s }
}

/// A unit box as 12 triangles (24 vertices: flat faces), UVs per face corner.
fn box_primitive(material: Option<usize>) -> Primitive {
    let mut p = Primitive { material, ..Default::default() };
    let faces: [([f32; 3], [f32; 3], [f32; 3]); 6] = [
        ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]),
        ([-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]),
        ([0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]),
        ([0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
        ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        ([0.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]),
    ];
    for (n, u, v) in faces {
        let base = p.positions.len() as u32;
        for (a, b) in [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)] {
            let pos: [f32; 3] = std::array::from_fn(|i| n[i] * 0.5 + u[i] * a + v[i] * b);
            p.positions.push(pos);
            p.normals.push(n);
            p.uvs.push([a + 0.5, b + 0.5]);
        }
        p.indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    p
}

/// A box on a two-bone hierarchy with one clip (rotation of the second bone, translation of the first),
/// built by hand.
fn hand_scene() -> Scene {
    let image = relic::asset::Image::single(2, 2, [200, 200, 200, 255].repeat(4), (0, 0), Vec::new());
    let q = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2).to_array();
    Scene {
        nodes: vec![
            Node {
                name: "bone1".into(),
                transform: trs([0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]),
                children: vec![1],
                mesh: Some(0),
                ..Default::default()
            },
            Node {
                name: "bone2".into(),
                transform: trs([0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]),
                mesh: Some(0),
                ..Default::default()
            },
        ],
        roots: vec![0],
        meshes: vec![SceneMesh { name: "box".into(), primitives: vec![box_primitive(Some(0))], ..Default::default() }],
        materials: vec![Material { name: "crate".into(), texture: Some(0), ..Default::default() }],
        textures: vec![Texture { name: "crate".into(), image }],
        animations: vec![Animation {
            name: "swing".into(),
            channels: vec![
                Channel {
                    target: ChannelTarget::Node(1),
                    times: vec![0.0, 1.0, 2.0],
                    values: ChannelValues::Rotation(vec![[0.0, 0.0, 0.0, 1.0], q, [0.0, 0.0, 0.0, 1.0]]),
                    interpolation: Interpolation::Linear,
                },
                Channel {
                    target: ChannelTarget::Node(0),
                    times: vec![0.0, 2.0],
                    values: ChannelValues::Translation(vec![[0.0, 1.0, 0.0], [3.0, 1.0, 0.0]]),
                    interpolation: Interpolation::Linear,
                },
            ],
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// A 2.3 model built here: one triangle whose rotation keys start after 0 (frames 10, 20) and end with a
/// hold the file itself stores (frame 25 = frame 20), in a clip of 30 frames; and position keys from 0.
fn keyed_rsm() -> Rsm {
    let mut rsm = Rsm::new(V23);
    rsm.animation_length = 30;
    rsm.root_names = vec![relic::ragnarok::rsm::types::Name::new("spinner")];
    let mut mesh = relic::ragnarok::rsm::types::Mesh::new(V23, "spinner");
    mesh.vertices = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    mesh.tex_vertices = vec![relic::ragnarok::rsm::types::TexVertex { color: Some(0xFFFF_FFFF), uv: [0.0, 0.0] }];
    mesh.faces = vec![relic::ragnarok::rsm::types::Face {
        vertices: [0, 1, 2],
        tex_vertices: [0, 0, 0],
        texture: 0,
        padding: 0,
        two_sided: 0,
        smooth_groups: vec![0],
    }];
    let quarter = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2).to_array();
    let half = Quat::from_rotation_y(std::f32::consts::PI).to_array();
    mesh.rotation_keys = [(10, quarter), (20, half), (25, half)]
        .map(|(frame, quaternion)| relic::ragnarok::rsm::types::RotationKey { frame, quaternion })
        .to_vec();
    mesh.position_keys = [(0, [0.0, 0.0, 0.0]), (15, [2.0, 0.0, 0.0])]
        .map(|(frame, position)| relic::ragnarok::rsm::types::PositionKey { frame, position, data: 0 })
        .to_vec();
    rsm.meshes.push(mesh);
    rsm
}

fn rotation_frames(rsm: &Rsm) -> Vec<i32> {
    rsm.meshes[0].rotation_keys.iter().map(|k| k.frame).collect()
}

/// The export adds holds (identity at 0 and just before frame 10, the last value at the clip's end) and
/// marks them in the node's extras: packing the unedited glTF takes exactly those out and keeps the
/// file's own hold at 25; a glTF whose marked key a user changed (the end pose turned) or whose key a user
/// moved (frame 20 to 22) keeps that key.
#[test]
fn keys_the_export_added_are_taken_out_and_edited_ones_kept() {
    let original = keyed_rsm();
    let source = to_scene(&original, None).unwrap();
    let rotation_channel = |scene: &Scene| {
        scene.animations[0].channels.iter().position(|c| matches!(c.values, ChannelValues::Rotation(_))).unwrap()
    };
    let at = rotation_channel(&source);
    assert_eq!(source.animations[0].channels[at].times.len(), 6, "0, before 10, 10, 20, 25 and the clip's end");
    let gltf = through_gltf(&source, "keyed");
    let ChannelTarget::Node(node) = gltf.animations[0].channels[rotation_channel(&gltf)].target else { panic!() };
    let marks = &gltf.nodes[node].extras["ro-rsm"]["added_keys"]["rotation"];
    assert_eq!(marks.as_array().map(Vec::len), Some(3), "{marks}");

    let (_, back) = pack(&gltf, V23);
    assert_eq!(rotation_frames(&back), [10, 20, 25]);
    let positions: Vec<i32> = back.meshes[0].position_keys.iter().map(|k| k.frame).collect();
    assert_eq!(positions, [0, 15], "the position track starts at 0: only its end hold was added");

    // The end pose turned: the marked key no longer holds frame 25's value, so it is a key of its own.
    let mut edited = gltf.clone();
    let at = rotation_channel(&edited);
    let ChannelValues::Rotation(values) = &mut edited.animations[0].channels[at].values else { panic!() };
    *values.last_mut().unwrap() = Quat::from_rotation_y(0.3).to_array();
    let (_, turned) = pack(&edited, V23);
    assert_eq!(rotation_frames(&turned), [10, 20, 25, 30]);
    let last = turned.meshes[0].rotation_keys[3].quaternion;
    let dot: f32 = last.iter().zip(Quat::from_rotation_y(0.3).to_array()).map(|(a, b)| a * b).sum();
    assert!(dot.abs() > 0.99999, "{last:?}");

    // A real key moved from frame 20 to 22 stays a key, at 22.
    let mut moved = gltf.clone();
    let at = rotation_channel(&moved);
    let times = &mut moved.animations[0].channels[at].times;
    let k20 = times.iter().position(|&t| (t * 30.0 - 20.0).abs() < 1e-3).unwrap();
    times[k20] = 22.0 / 30.0;
    let (_, later) = pack(&moved, V23);
    assert_eq!(rotation_frames(&later), [10, 22, 25]);

    // Without the marks (a glTF from another tool), holds are left out as before: the file's hold at 25
    // is redundant then.
    let mut foreign = gltf.clone();
    foreign.nodes[node].extras = serde_json::Value::Null;
    let (_, plain) = pack(&foreign, V23);
    assert_eq!(rotation_frames(&plain), [10, 20]);
}

/// A 2.3 model built here whose child mesh is stored before its parent and whose parent's faces
/// interleave two textures (slots 0, 1, 0): packed back, the meshes keep the file's order and the faces
/// their stored order (the glTF holds them as one primitive per material).
#[test]
fn mesh_order_and_interleaved_faces_come_back_as_stored() {
    use relic::ragnarok::rsm::types::{Face, Mesh, Name, TexVertex};
    let mut rsm = Rsm::new(V23);
    rsm.root_names = vec![Name::new("parent")];
    let face = |vertices: [u16; 3], texture: u16| Face {
        vertices,
        tex_vertices: vertices,
        texture,
        padding: 0,
        two_sided: 0,
        smooth_groups: vec![0],
    };
    let uv = |u: f32| TexVertex { color: Some(0xFFFF_FFFF), uv: [u, 0.0] };
    let mut child = Mesh::new(V23, "child");
    child.parent_name = Name::new("parent");
    child.position = [0.0, 2.0, 0.0];
    child.vertices = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    child.tex_vertices = vec![uv(0.0), uv(0.5), uv(1.0)];
    child.faces = vec![face([0, 1, 2], 0)];
    child.textures = vec![Name::new("c.bmp")];
    let mut parent = Mesh::new(V23, "parent");
    parent.vertices = (0..5).map(|i| [i as f32, (i % 2) as f32, 0.0]).collect();
    parent.tex_vertices = (0..5).map(|i| uv(i as f32 / 4.0)).collect();
    parent.faces = vec![face([0, 1, 2], 0), face([1, 3, 2], 1), face([2, 3, 4], 0)];
    parent.textures = vec![Name::new("a.bmp"), Name::new("b.bmp")];
    rsm.meshes = vec![child, parent];

    let source = to_scene(&rsm, None).unwrap();
    let parent_mesh = source.meshes.iter().find(|m| m.name == "parent").unwrap();
    assert_eq!(parent_mesh.primitives.len(), 2, "one primitive per texture");
    assert_eq!(parent_mesh.extras["ro-rsm"]["face_runs"], serde_json::json!([[0, 1], [1, 1], [0, 1]]));
    let (_, back) = pack(&through_gltf(&source, "interleaved"), V23);
    let names: Vec<&str> = back.meshes.iter().map(|m| m.name.text.as_str()).collect();
    assert_eq!(names, ["child", "parent"], "file order, not the tree's");
    let slots: Vec<u16> = back.meshes[1].faces.iter().map(|f| f.texture).collect();
    assert_eq!(slots, [0, 1, 0]);
    same_meshes_and_tracks("interleaved", &rsm, &back);
}

#[test]
fn hand_scene_packs_to_both_versions_exactly() {
    let scene = through_gltf(&hand_scene(), "hand");
    // 2.3: nothing lost; the world geometry at rest and at every key time is the scene's.
    let (packed, rsm) = pack(&scene, V23);
    assert_eq!(rsm.meshes.len(), 2);
    assert_eq!(rsm.meshes[1].parent_name.text, "bone1");
    assert_eq!(rsm.root_names.len(), 1);
    assert_eq!(rsm.root_names[0].text, "bone1");
    assert_eq!(rsm.animation_length, 60);
    assert_eq!(rsm.frame_rate, Some(30.0));
    assert_eq!(rsm.shade_type, 1, "flat normals");
    assert_eq!(rsm.meshes[0].vertices.len(), 8, "a box's corners, welded");
    assert_eq!(rsm.meshes[0].tex_vertices.len(), 4);
    assert_eq!(rsm.meshes[0].faces.len(), 12);
    assert_eq!(rsm.meshes[0].textures[0].text, "crate.bmp");
    assert_eq!(rsm.meshes[0].position, [0.0, 1.0, 0.0]);
    assert_eq!(rsm.meshes[1].position, [0.0, 3.0, 0.0], "world position at rest");
    let keys: Vec<(i32, [f32; 3])> = rsm.meshes[0].position_keys.iter().map(|k| (k.frame, k.position)).collect();
    assert_eq!(keys, vec![(0, [0.0, 1.0, 0.0]), (60, [3.0, 1.0, 0.0])]);
    let rot: Vec<i32> = rsm.meshes[1].rotation_keys.iter().map(|k| k.frame).collect();
    assert_eq!(rot, vec![0, 30, 60]);
    let q1 = rsm.meshes[1].rotation_keys[1].quaternion;
    let want = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2).to_array();
    assert!(q1.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-6), "{q1:?}");
    assert_eq!(packed.textures.len(), 1);
    assert_eq!(packed.textures[0].file_name, "crate.bmp");
    assert!(packed.textures[0].bytes.starts_with(b"BM"));
    let again = to_scene(&rsm, None).unwrap();
    for t in [None, Some(0.0), Some(0.5), Some(1.0), Some(1.5), Some(2.0)] {
        same_tris(&format!("hand → 2.3 at {t:?}"), world_tris(&scene, t), world_tris(&again, t));
    }
    // 1.4: rotation keys in milliseconds; the translation animation is dropped with a note; the model is
    // centred by its reader.
    let (packed, rsm) = pack(&scene, V14);
    assert!(packed.notes.iter().any(|n| n.contains("rotation keys only")), "{:?}", packed.notes);
    assert_eq!(rsm.animation_length, 2000);
    assert_eq!(rsm.root_names[0].text, "bone1");
    assert_eq!(rsm.textures.len(), 1);
    assert_eq!(rsm.meshes[1].position, [0.0, -2.0, 0.0], "Y-down file space");
    let rot: Vec<i32> = rsm.meshes[1].rotation_keys.iter().map(|k| k.frame).collect();
    assert_eq!(rot, vec![0, 1000, 2000]);
    let again = to_scene(&rsm, None).unwrap();
    let rest = world_tris(&scene, None);
    for t in [None, Some(0.0), Some(1.0), Some(2.0)] {
        // Only the second bone moves in 1.4: compare with the first bone held at rest.
        let mut held = scene.clone();
        held.animations[0].channels.retain(|c| c.target == ChannelTarget::Node(1));
        same_tris(&format!("hand → 1.4 at {t:?}"), recentred(world_tris(&held, t), &rest), world_tris(&again, t));
    }
}

/// A glTF as another tool writes it: TRS nodes, two primitives (one per material) on one mesh, vertex
/// colours, a root with two children, a skinned mesh; no extras.
fn foreign_scene() -> Scene {
    let mut a = box_primitive(Some(0));
    a.colors = vec![[1.0, 0.0, 0.0, 1.0]; a.positions.len()];
    // Reorder vertices: reverse the vertex arrays and remap the indices.
    let n = a.positions.len() as u32;
    a.positions.reverse();
    a.normals.reverse();
    a.uvs.reverse();
    a.colors.reverse();
    a.indices.iter_mut().for_each(|i| *i = n - 1 - *i);
    let mut b = box_primitive(Some(1));
    b.positions.iter_mut().for_each(|p| p[0] += 2.0);
    let mut skinned = box_primitive(None);
    skinned.joints = skinned.positions.iter().map(|p| if p[1] > 0.0 { [1, 0, 0, 0] } else { [0, 1, 0, 0] }).collect();
    skinned.weights = skinned.positions.iter().map(|_| [0.8, 0.2, 0.0, 0.0]).collect();
    let half_turn = Quat::from_rotation_y(std::f32::consts::PI / 3.0).to_array();
    Scene {
        nodes: vec![
            Node {
                name: "Scene Root".into(),
                transform: trs([1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [2.0; 3]),
                children: vec![1, 2],
                ..Default::default()
            },
            Node {
                name: "Cube".into(),
                transform: trs([0.0, 0.5, 0.0], half_turn, [1.0, 1.0, 1.0]),
                mesh: Some(0),
                ..Default::default()
            },
            Node {
                name: "Cube".into(),
                transform: trs([0.0, 0.0, 3.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]),
                children: vec![3],
                ..Default::default()
            },
            Node {
                name: "joint".into(),
                transform: trs([0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]),
                ..Default::default()
            },
            Node { name: "skinned".into(), mesh: Some(1), skin: Some(0), ..Default::default() },
        ],
        roots: vec![0, 4],
        meshes: vec![
            SceneMesh { name: "Cube.001".into(), primitives: vec![a, b], ..Default::default() },
            SceneMesh { name: "body".into(), primitives: vec![skinned], ..Default::default() },
        ],
        materials: vec![
            Material { name: "Material.001".into(), texture: Some(0), ..Default::default() },
            Material {
                name: "Glass".into(),
                texture: Some(1),
                double_sided: true,
                // Baked into the UVs: u + 0.5.
                texture_transform: Some(relic::asset::TextureTransform {
                    offset: [0.5, 0.0],
                    rotation: 0.0,
                    scale: [1.0, 1.0],
                }),
                ..Default::default()
            },
        ],
        textures: vec![
            Texture {
                name: "wood".into(),
                image: relic::asset::Image::single(1, 1, vec![10, 20, 30, 255], (0, 0), Vec::new()),
            },
            Texture {
                name: "glass".into(),
                image: relic::asset::Image::single(1, 1, vec![10, 20, 30, 100], (0, 0), Vec::new()),
            },
        ],
        // A STEP rotation of the first cube: 0° until 1 s, then 60° about Y.
        animations: vec![Animation {
            name: "step".into(),
            channels: vec![Channel {
                target: ChannelTarget::Node(1),
                times: vec![0.0, 1.0],
                values: ChannelValues::Rotation(vec![[0.0, 0.0, 0.0, 1.0], half_turn]),
                interpolation: Interpolation::Step,
            }],
            ..Default::default()
        }],
        skins: vec![Skin {
            joints: vec![2, 3],
            inverse_bind_matrices: vec![
                Mat4::from_translation(Vec3::new(0.0, 0.0, -3.0)).to_cols_array(),
                Mat4::from_translation(Vec3::new(0.0, -1.0, -3.0)).to_cols_array(),
            ],
        }],
        ..Default::default()
    }
}

#[test]
fn a_foreign_gltf_packs_with_its_notes() {
    let scene = through_gltf(&foreign_scene(), "foreign");
    for version in [V23, V14] {
        let (packed, rsm) = pack(&scene, version);
        let notes = packed.notes.join("\n");
        assert!(notes.contains("vertex colours"), "{notes}");
        assert!(notes.contains("bound rigidly"), "{notes}");
        assert!(notes.contains("made unique"), "{notes}");
        assert!(notes.contains("without a texture"), "{notes}");
        assert!(notes.contains("baked into the UVs"), "{notes}");
        let names: Vec<&str> = rsm.meshes.iter().map(|m| m.name.text.as_str()).collect();
        if version.is_rsm2() {
            assert_eq!(names, ["Scene Root", "Cube", "Cube_2", "joint", "skinned"]);
            assert_eq!(rsm.root_names.iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["Scene Root", "skinned"]);
        } else {
            assert!(notes.contains("added empty node"), "{notes}");
            assert_eq!(names, ["root", "Scene Root", "Cube", "Cube_2", "joint", "skinned"]);
            assert_eq!(rsm.root_names[0].text, "root");
        }
        // The merged primitives: one mesh, two texture slots; the second material two-sided and with alpha.
        let cube = rsm.meshes.iter().find(|m| m.name.text == "Cube").unwrap();
        // STEP: the old value held until one unit before the key (2.3: identity before the first key is
        // what RSM holds anyway).
        let frames: Vec<i32> = cube.rotation_keys.iter().map(|k| k.frame).collect();
        let turned = Quat::from_rotation_y(std::f32::consts::PI / 3.0);
        let last = Quat::from_array(cube.rotation_keys.last().unwrap().quaternion);
        assert!(last.dot(turned).abs() > 0.999_999, "{last:?}");
        if version.is_rsm2() {
            assert_eq!(frames, [30]);
        } else {
            assert_eq!(frames, [0, 999, 1000]);
            assert_eq!(cube.rotation_keys[1].quaternion, [0.0, 0.0, 0.0, 1.0]);
        }
        assert_eq!(cube.faces.len(), 24);
        assert_eq!(cube.vertices.len(), 16);
        let textures: Vec<String> = rsm.mesh_textures(cube).iter().map(|t| t.unwrap().text.clone()).collect();
        assert_eq!(textures, ["wood.bmp", "glass.tga"]);
        assert_eq!(cube.faces.iter().filter(|f| f.two_sided != 0).count(), 12);
        let glass_us: BTreeSet<u32> = cube
            .faces
            .iter()
            .filter(|f| f.two_sided != 0)
            .flat_map(|f| f.tex_vertices)
            .map(|t| cube.tex_vertices[usize::from(t)].uv[0].to_bits())
            .collect();
        assert_eq!(glass_us, [0.5f32, 1.5].iter().map(|u| u.to_bits()).collect(), "u + 0.5");
        assert_eq!(rsm.shade_type, 1);
        let files: Vec<&str> = packed.textures.iter().map(|t| t.file_name.as_str()).collect();
        assert_eq!(files, ["wood.bmp", "glass.tga"]);
        // The skin's triangles went to the two joints.
        let joint_faces: usize = rsm
            .meshes
            .iter()
            .filter(|m| m.name.text == "Cube_2" || m.name.text == "joint")
            .map(|m| m.faces.len())
            .sum();
        assert_eq!(joint_faces, 12);
    }
    // World geometry of the unskinned part is the scene's (re-centred in 1.x, where the reader centres).
    let mut skinless = scene.clone();
    skinless.roots = vec![0];
    skinless.skins.clear();
    skinless.nodes[4].skin = None;
    // (An animated RSM node has no rest pose apart from its first key: compare the unanimated model.)
    skinless.animations.clear();
    skinless.materials[1].texture_transform = None;
    for version in [V23, V14] {
        let (_, rsm) = pack(&skinless, version);
        let want = world_tris(&skinless, None);
        let want = if version.is_rsm2() { want } else { recentred(want.clone(), &want) };
        same_tris(&format!("foreign → {version}"), want, world_tris(&to_scene(&rsm, None).unwrap(), None));
    }
}

#[test]
fn hostile_and_limit_cases_are_refused_or_noted() {
    // No nodes.
    assert!(import::from_scene(&Scene::default(), V14).is_err());
    // Over 65,536 distinct vertices in one mesh: refused naming the node and the limit.
    let mut p = Primitive::default();
    for i in 0..70_000u32 {
        p.positions.push([i as f32, 0.0, 0.0]);
    }
    p.indices = (0..69_999u32).flat_map(|i| [i, i + 1, i]).collect::<Vec<_>>();
    p.indices.truncate(69_999 / 3 * 3 * 3);
    let scene = Scene {
        nodes: vec![Node { name: "big".into(), mesh: Some(0), ..Default::default() }],
        roots: vec![0],
        meshes: vec![SceneMesh { name: "m".into(), primitives: vec![p], ..Default::default() }],
        ..Default::default()
    };
    let err = import::from_scene(&scene, V23).unwrap_err().to_string();
    assert!(err.contains("big") && err.contains("65536"), "{err}");
    // Indices past the vertices, a cycle-free deep chain, NaN transforms: no panic.
    let mut nodes: Vec<Node> = (0..5000)
        .map(|i| Node {
            name: format!("n{i}"),
            children: if i < 4999 { vec![i + 1] } else { vec![] },
            ..Default::default()
        })
        .collect();
    nodes[10].transform = Transform::Matrix([f32::NAN; 16]);
    nodes[4999].mesh = Some(0);
    let scene = Scene {
        nodes,
        roots: vec![0],
        meshes: vec![SceneMesh {
            primitives: vec![Primitive { positions: vec![[0.0; 3]; 3], indices: vec![0, 1, 7], ..Default::default() }],
            ..Default::default()
        }],
        ..Default::default()
    };
    for v in [V14, V23] {
        let packed = import::from_scene(&scene, v).unwrap();
        let note = "1 of 1 triangles of mesh 0 '' (node 4999 'n4999') dropped: it has an index past the primitive's 3 vertices";
        assert!(packed.notes.iter().any(|n| n.ends_with(note)), "{:?}", packed.notes);
        relic::ragnarok::rsm::write(&packed.rsm).unwrap();
    }
    // Large inputs stay near-linear: a skinned grid of 20,000 triangles over 4 joints, 200,000 keys, 20,000
    // nodes of one name.
    let n = 101u32;
    let mut p = Primitive::default();
    for y in 0..n {
        for x in 0..n {
            p.positions.push([x as f32, y as f32, 0.0]);
            p.joints.push([(x % 4) as u16, 0, 0, 0]);
            p.weights.push([1.0, 0.0, 0.0, 0.0]);
        }
    }
    for y in 0..n - 1 {
        for x in 0..n - 1 {
            let i = y * n + x;
            p.indices.extend([i, i + 1, i + n, i + 1, i + n + 1, i + n]);
        }
    }
    let mut nodes: Vec<Node> = (0..20_000).map(|_| Node { name: "same".into(), ..Default::default() }).collect();
    nodes[0].children = (1..5).collect();
    nodes.push(Node { name: "skinned".into(), mesh: Some(0), skin: Some(0), ..Default::default() });
    let times: Vec<f32> = (0..200_000).map(|i| i as f32 * 0.001).collect();
    let values = ChannelValues::Rotation(times.iter().map(|t| Quat::from_rotation_y(*t).to_array()).collect());
    let scene = Scene {
        roots: (0..nodes.len()).filter(|&i| !(1..5).contains(&i)).collect(),
        nodes,
        meshes: vec![SceneMesh { primitives: vec![p], ..Default::default() }],
        skins: vec![Skin { joints: vec![1, 2, 3, 4], inverse_bind_matrices: vec![Mat4::IDENTITY.to_cols_array(); 4] }],
        animations: vec![Animation {
            channels: vec![Channel {
                target: ChannelTarget::Node(1),
                times,
                values,
                interpolation: Interpolation::Linear,
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let started = std::time::Instant::now();
    for v in [V14, V23] {
        let packed = import::from_scene(&scene, v).unwrap();
        assert_eq!(packed.rsm.meshes.iter().map(|m| m.faces.len()).sum::<usize>(), 20_000);
        relic::ragnarok::rsm::write(&packed.rsm).unwrap();
    }
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
    // Names that 1.4 cannot hold: shortened, non-CP949 characters replaced.
    let scene = Scene {
        nodes: vec![Node {
            name: "a very long node name that is longer than forty bytes 🙂".into(),
            ..Default::default()
        }],
        roots: vec![0],
        ..Default::default()
    };
    let packed = import::from_scene(&scene, V14).unwrap();
    let name = &packed.rsm.meshes[0].name.text;
    assert!(name.len() <= 39 && !name.contains('🙂'), "{name}");
    relic::ragnarok::rsm::write(&packed.rsm).unwrap();
}

/// The hand-written glTF (`relic::testing::hand_gltf`, made without relic's exporter) to 2.3 and 1.4,
/// read back value for value.
#[test]
fn hand_written_gltf_packs_to_both_versions_and_reads_back_exactly() {
    use relic::testing::hand_gltf::{self as hand, ARM, ARM_OFFSET, BODY, WAVE_ARM_ROTATION, WAVE_BODY_TRANSLATION};
    let glb = hand::box_two_bones_glb();
    let scene = relic::import::gltf::read(&glb, Path::new("hand.glb")).unwrap();
    let corners = |b: hand::BoxShape, flip: f32| -> BTreeSet<[u32; 3]> {
        let mut out = BTreeSet::new();
        for sx in [-1.0, 1.0] {
            for sy in [-1.0, 1.0] {
                for sz in [-1.0, 1.0] {
                    let p = [
                        b.centre[0] + sx * b.half[0],
                        flip * (b.centre[1] + sy * b.half[1]),
                        b.centre[2] + sz * b.half[2],
                    ];
                    out.insert(p.map(|x| (x + 0.0).to_bits()));
                }
            }
        }
        out
    };
    let bits = |m: &relic::ragnarok::rsm::Mesh| -> BTreeSet<[u32; 3]> {
        m.vertices.iter().map(|p| p.map(|x| (x + 0.0).to_bits())).collect()
    };
    let identity = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];

    let bytes = {
        let packed = import::from_scene(&scene, V23).unwrap();
        relic::ragnarok::rsm::write(&packed.rsm).unwrap()
    };
    let rsm = Rsm::read(&bytes).unwrap();
    assert_eq!(rsm.version, V23);
    assert_eq!((rsm.frame_rate, rsm.animation_length, rsm.shade_type), (Some(30.0), 30, 1));
    assert_eq!(rsm.root_names.iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["body"]);
    let [body, arm] = [&rsm.meshes[0], &rsm.meshes[1]];
    assert_eq!((body.name.text.as_str(), body.parent_name.text.as_str()), ("body", ""));
    assert_eq!((arm.name.text.as_str(), arm.parent_name.text.as_str()), ("arm", "body"));
    assert_eq!((body.matrix, body.position), (identity, [0.0; 3]));
    assert_eq!((arm.matrix, arm.position), (identity, ARM_OFFSET));
    assert_eq!(bits(body), corners(BODY, 1.0));
    assert_eq!(bits(arm), corners(ARM, 1.0));
    assert_eq!((body.faces.len(), arm.faces.len()), (12, 12));
    let uvs: BTreeSet<[u32; 2]> = body.tex_vertices.iter().map(|t| t.uv.map(f32::to_bits)).collect();
    assert_eq!(
        uvs,
        [[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]].iter().map(|u: &[f32; 2]| u.map(f32::to_bits)).collect()
    );
    assert_eq!(body.textures.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(), ["skin.bmp"]);
    let rot: Vec<(i32, [f32; 4])> = arm.rotation_keys.iter().map(|k| (k.frame, k.quaternion)).collect();
    assert_eq!(rot, vec![(0, WAVE_ARM_ROTATION[0]), (15, WAVE_ARM_ROTATION[1]), (30, WAVE_ARM_ROTATION[2])]);
    let pos: Vec<(i32, [f32; 3])> = body.position_keys.iter().map(|k| (k.frame, k.position)).collect();
    assert_eq!(
        pos,
        vec![(0, WAVE_BODY_TRANSLATION[0]), (15, WAVE_BODY_TRANSLATION[1]), (30, WAVE_BODY_TRANSLATION[2])]
    );
    assert!(body.rotation_keys.is_empty() && body.scale_keys.is_empty() && arm.position_keys.is_empty());
    let again = to_scene(&rsm, None).unwrap();
    for t in [None, Some(0.0), Some(0.25), Some(0.5), Some(0.75), Some(1.0)] {
        same_tris(&format!("hand glTF → 2.3 at {t:?}"), world_tris(&scene, t), world_tris(&again, t));
    }

    let packed = import::from_scene(&scene, V14).unwrap();
    assert!(packed.notes.iter().any(|n| n.contains("rotation keys only")), "{:?}", packed.notes);
    assert_eq!(packed.textures.len(), 1);
    assert_eq!(packed.textures[0].file_name, "skin.bmp");
    let texture = relic::ragnarok::texture::decode(&packed.textures[0].bytes).unwrap();
    let relic::asset::Pixels::Rgba8(px) = &texture.frames[0].pixels else { panic!() };
    for y in 0..4 {
        for x in 0..4 {
            let i = ((y * 4 + x) * 4) as usize;
            assert_eq!(px[i..i + 4], hand::texture_pixel(x, y), "texture pixel ({x}, {y})");
        }
    }
    let rsm = Rsm::read(&relic::ragnarok::rsm::write(&packed.rsm).unwrap()).unwrap();
    assert_eq!(rsm.version, V14);
    assert_eq!((rsm.animation_length, rsm.frame_rate), (1000, None));
    assert_eq!(rsm.root_names[0].text, "body");
    assert_eq!(rsm.textures.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(), ["skin.bmp"]);
    let [body, arm] = [&rsm.meshes[0], &rsm.meshes[1]];
    assert_eq!(arm.parent_name.text, "body");
    assert_eq!((arm.position, arm.matrix), ([ARM_OFFSET[0], -ARM_OFFSET[1], ARM_OFFSET[2]], identity));
    assert_eq!(arm.legacy.unwrap().scale, [1.0; 3]);
    assert_eq!(bits(body), corners(BODY, -1.0), "Y-down file space");
    assert_eq!(bits(arm), corners(ARM, -1.0));
    let rot: Vec<(i32, [f32; 4])> = arm.rotation_keys.iter().map(|k| (k.frame, k.quaternion)).collect();
    let mirrored = |q: [f32; 4]| [-q[0], q[1], -q[2], q[3]];
    assert_eq!(
        rot,
        vec![
            (0, mirrored(WAVE_ARM_ROTATION[0])),
            (500, mirrored(WAVE_ARM_ROTATION[1])),
            (1000, mirrored(WAVE_ARM_ROTATION[2]))
        ]
    );
    let again = to_scene(&rsm, None).unwrap();
    let mut held = scene.clone();
    held.animations[0].channels.retain(|c| matches!(c.values, ChannelValues::Rotation(_)));
    let rest = world_tris(&scene, None);
    for t in [None, Some(0.0), Some(0.25), Some(0.5), Some(1.0)] {
        same_tris(&format!("hand glTF → 1.4 at {t:?}"), recentred(world_tris(&held, t), &rest), world_tris(&again, t));
    }
}

/// A file Blender wrote (`tests/gltf_foreign`, made by its `make.py` from the hand-written glTF).
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

/// Positions only (Blender's UVs and vertex order are its own).
fn positions(tris: Vec<Tri>) -> Vec<Tri> {
    tris.into_iter().map(|t| t.map(|c| [c[0], c[1], c[2], 0.0, 0.0])).collect()
}

#[test]
fn blenders_files_pack_to_the_hand_files_boxes() {
    let hand =
        relic::import::gltf::read(&relic::testing::hand_gltf::box_two_bones_glb(), Path::new("hand.glb")).unwrap();
    let want = positions(world_tris(&hand, None));
    for (name, skinned) in [("box_blender.glb", false), ("box_skinned.glb", true)] {
        let Some((glb, path)) = blender(name) else { return };
        if let Some(reports) = relic::testing::validate_gltf(&[&path]) {
            assert_eq!(reports[0].errors, 0, "{name}: {:#?}", reports[0].messages);
        }
        for version in [V23, V14] {
            let packed = import::from_gltf(&glb, &path, version).unwrap();
            let notes = packed.notes.join("\n");
            if skinned {
                assert!(notes.contains("bound rigidly"), "{name}: {notes}");
            } else {
                assert!(notes.contains("TANGENT"), "{name}: {notes}");
            }
            let rsm = Rsm::read(&relic::ragnarok::rsm::write(&packed.rsm).unwrap()).unwrap();
            assert_eq!(rsm.meshes.iter().map(|m| m.faces.len()).sum::<usize>(), 24, "{name} → {version}");
            let again = to_scene(&rsm, None).unwrap();
            // At rest the boxes stand where the hand file places them (1.4: centred by its reader).
            let expected = if version.is_rsm2() { want.clone() } else { recentred(want.clone(), &want) };
            let got = positions(world_tris(&again, None));
            same_tris(&format!("{name} → {version}"), expected, got);
            if !skinned {
                // The clip: the arm's rotation keys carry the glTF's values (resampled by Blender at 24 fps).
                let arm = rsm.meshes.iter().find(|m| m.name.text == "arm").unwrap();
                assert!(arm.rotation_keys.len() >= 3, "{name} → {version}: {:?}", arm.rotation_keys);
                let unit = if version.is_rsm2() { 30.0 } else { 1000.0 };
                assert_eq!(rsm.animation_length, unit as i32, "{name} → {version}: one second");
                let half = arm.rotation_keys.iter().map(|k| k.quaternion[2].abs()).fold(0.0f32, f32::max);
                assert!((half - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-3, "a quarter turn at the middle: {half}");
            }
        }
    }
}
