//! RSM/RSM2 to glTF: world-space vertex positions after the node transforms of docs/formats/ragnarok.md#rsm-transforms-1x (both
//! version families), shear and mirroring, key frames in both time bases, normals by shade type, vertex
//! colours (never COLOR_0), two-sided faces, textures from a folder and from a GRF, the corpus models, and the Khronos
//! validator on every file written.
//!
//! Models are built from relic's RSM types (the byte layout is covered by `ro_rsm.rs`); expected
//! positions are worked out by hand from the formulas in the comments.

use std::path::{Path, PathBuf};

use glam::{Mat4, Quat, Vec3};
use relic::asset::{ChannelTarget, ChannelValues, Pixels, Scene, Transform};
use relic::ragnarok::rsm::scene::to_scene;
use relic::ragnarok::rsm::{self, Face, LegacyPlacement, Mesh, Name, RotationKey, Rsm, TexVertex, Version};

fn local(t: &Transform) -> Mat4 {
    match t {
        Transform::Matrix(m) => Mat4::from_cols_array(m),
        Transform::Trs { translation, rotation, scale } => Mat4::from_scale_rotation_translation(
            Vec3::from_array(*scale),
            Quat::from_array(*rotation),
            Vec3::from_array(*translation),
        ),
    }
}

/// Every mesh's vertices in world space at rest (node transforms composed from the roots), by mesh name,
/// with the determinant of the world matrix.
fn world(scene: &Scene) -> Vec<(String, Vec<[f32; 3]>, f32)> {
    let mut out = Vec::new();
    let mut stack: Vec<(usize, Mat4)> = scene.roots.iter().map(|&r| (r, Mat4::IDENTITY)).collect();
    while let Some((n, parent)) = stack.pop() {
        let node = &scene.nodes[n];
        let w = parent * local(&node.transform);
        if let Some(m) = node.mesh {
            let mesh = &scene.meshes[m];
            let pts = mesh
                .primitives
                .iter()
                .flat_map(|p| &p.positions)
                .map(|p| w.transform_point3(Vec3::from_array(*p)).to_array())
                .collect();
            out.push((mesh.name.clone(), pts, w.determinant()));
        }
        stack.extend(node.children.iter().map(|&c| (c, w)));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn assert_points(actual: &[[f32; 3]], expected: &[[f32; 3]]) {
    let mut a: Vec<[f32; 3]> = actual.to_vec();
    let mut e: Vec<[f32; 3]> = expected.to_vec();
    let key = |p: &[f32; 3]| {
        (p[0] * 1000.0).round() as i64 * 1_000_000_000
            + (p[1] * 1000.0).round() as i64 * 10_000
            + (p[2] * 1000.0).round() as i64
    };
    a.sort_by_key(key);
    e.sort_by_key(key);
    assert_eq!(a.len(), e.len(), "{a:?} vs {e:?}");
    for (p, q) in a.iter().zip(&e) {
        for k in 0..3 {
            assert!((p[k] - q[k]).abs() < 1e-4, "{a:?} vs {e:?}");
        }
    }
}

fn tri(v: [u16; 3]) -> Face {
    Face { vertices: v, tex_vertices: [0, 0, 0], smooth_groups: vec![1], ..Face::default() }
}

fn mesh(version: Version, name: &str, parent: &str, vertices: Vec<[f32; 3]>) -> Mesh {
    let mut m = Mesh::new(version, name);
    m.parent_name = Name::new(parent);
    let n = vertices.len() as u16;
    m.vertices = vertices;
    m.tex_vertices = vec![TexVertex { color: Some(0xFFFF_FFFF), uv: [0.0, 0.0] }];
    m.faces = (0..n / 3).map(|i| tri([3 * i, 3 * i + 1, 3 * i + 2])).collect();
    m
}

/// 1.4: `W = A_root·A_child·B_child` with `A = T(position)·R·S(scale)`, `B = T(offset)·M`, then centring.
#[test]
fn v14_positions_follow_the_legacy_transforms_and_centring() {
    let v = Version::new(1, 4);
    let mut rsm = Rsm::new(v);
    rsm.root_names = vec![Name::new("a")];
    let a = mesh(v, "a", "", vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, -1.0, 0.0]]);
    let mut b = mesh(v, "b", "a", vec![[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0]]);
    b.position = [2.0, 0.0, 0.0];
    b.legacy = Some(LegacyPlacement {
        offset: [0.0; 3],
        rotation_angle: std::f32::consts::FRAC_PI_2,
        rotation_axis: [0.0, 0.0, 1.0],
        scale: [1.0; 3],
    });
    rsm.meshes = vec![a, b];
    let scene = to_scene(&rsm, None).unwrap();
    let w = world(&scene);
    // Before centring (Y down): a = (0,0,0) (1,0,0) (0,−1,0); b: Rz(90°)·(1,0,0) = (0,1,0), + (2,0,0) = (2,1,0).
    // Mirrored: a (0,0,0) (1,0,0) (0,1,0), b (2,−1,0): centre x = 1, min y = −1, centre z = 0.
    assert_points(&w[0].1, &[[-1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [-1.0, 2.0, 0.0]]);
    assert_points(&w[1].1, &[[1.0, 0.0, 0.0]; 3]);
}

/// 2.3: child translation `inv(M_parent)·(p − p_parent)`, local `inv(M_parent)·M`. No `S(1,−1,1)` above:
/// 2.2+ file space is Y-up (docs/formats/ragnarok.md#rsm-axes, corrected 2026-11-25; this test expected the mirror before).
#[test]
fn v23_positions_follow_parent_matrices_and_positions() {
    let v = Version::new(2, 3);
    let mut rsm = Rsm::new(v);
    rsm.root_names = vec![Name::new("root")];
    let mut root = mesh(v, "root", "", vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
    root.position = [1.0, 2.0, 3.0];
    root.matrix = [2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0];
    let mut child = mesh(v, "child", "root", vec![[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
    child.position = [1.0, 2.0, 7.0];
    child.matrix = [4.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 4.0];
    rsm.meshes = vec![root, child];
    let w = world(&to_scene(&rsm, None).unwrap());
    // root: W = T(1,2,3)·M_root → (0,0,0) → (1,2,3); (1,0,0) → (3,2,3); (0,1,0) → (1,4,3).
    assert_points(&w[1].1, &[[1.0, 2.0, 3.0], [3.0, 2.0, 3.0], [1.0, 4.0, 3.0]]);
    // child: t = inv(M_root)·(0,0,4) = (0,0,2); L = inv(M_root)·M_child = 2·I;
    // W = T(1,2,3)·M_root·T(0,0,2)·2I: (1,0,0) → (2,0,0) → (2,0,2) → (4,0,4) → (5,2,7).
    assert_points(&w[0].1, &[[5.0, 2.0, 7.0], [1.0, 6.0, 7.0], [1.0, 2.0, 11.0]]);
}

/// Shear stays in `node.matrix`; a mirroring matrix gives a negative determinant, which glTF readers use
/// to flip the winding themselves.
#[test]
fn sheared_and_mirrored_matrices_are_kept_exactly() {
    let v = Version::new(2, 3);
    let mut rsm = Rsm::new(v);
    rsm.root_names = vec![Name::new("shear"), Name::new("mirror")];
    let mut shear = mesh(v, "shear", "", vec![[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]);
    shear.matrix = [1.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 1.0]; // second column (0.5, 1, 0): x += 0.5·y
    let mut mirror = mesh(v, "mirror", "", vec![[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
    mirror.matrix = [-1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    rsm.meshes = vec![shear, mirror];
    let scene = to_scene(&rsm, None).unwrap();
    let w = world(&scene);
    let (mirror_w, shear_w) = (&w[0], &w[1]);
    // 2.x has no `S(1,−1,1)` above it any more (docs/formats/ragnarok.md#rsm-axes: 2.2+ is Y-up), so only the file's own
    // mirroring matrix gives a negative determinant (this test expected the old mirror before).
    assert_points(&shear_w.1, &[[0.5, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]);
    assert!(shear_w.2 > 0.0, "a shear does not mirror");
    assert_points(&mirror_w.1, &[[-1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
    assert!(mirror_w.2 < 0.0, "the stored matrix mirrors");
    validate(&scene, "shear_mirror");
}

fn times_of(scene: &Scene, node_name: &str, rotation: bool) -> Vec<f32> {
    let node = scene.nodes.iter().position(|n| n.name == node_name).unwrap();
    let anim = &scene.animations[0];
    anim.channels
        .iter()
        .find(|c| c.target == ChannelTarget::Node(node) && matches!(c.values, ChannelValues::Rotation(_)) == rotation)
        .map(|c| c.times.clone())
        .unwrap()
}

#[test]
fn key_frames_use_milliseconds_below_2_2_and_frames_from_2_2() {
    let q = |deg: f32| {
        let (s, c) = (deg.to_radians() / 2.0).sin_cos();
        [0.0, s, 0.0, c]
    };
    // 1.4: milliseconds; the clip lasts AnimationLength ms.
    let v = Version::new(1, 4);
    let mut rsm = Rsm::new(v);
    rsm.root_names = vec![Name::new("a")];
    rsm.animation_length = 2000;
    let mut a = mesh(v, "a", "", vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]);
    a.rotation_keys =
        vec![RotationKey { frame: 0, quaternion: q(0.0) }, RotationKey { frame: 500, quaternion: q(90.0) }];
    rsm.meshes = vec![a];
    let scene = to_scene(&rsm, None).unwrap();
    assert_eq!(times_of(&scene, "a", true), vec![0.0, 0.5, 2.0]);
    validate(&scene, "keys14");

    // 2.3: frames at 30 fps; before the first key (frame 15) the identity holds.
    let v = Version::new(2, 3);
    let mut rsm = Rsm::new(v);
    rsm.root_names = vec![Name::new("a")];
    rsm.animation_length = 60;
    let mut a = mesh(v, "a", "", vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]);
    a.rotation_keys =
        vec![RotationKey { frame: 15, quaternion: q(90.0) }, RotationKey { frame: 30, quaternion: q(180.0) }];
    rsm.meshes = vec![a];
    let scene = to_scene(&rsm, None).unwrap();
    let times = times_of(&scene, "a", true);
    assert_eq!(times.len(), 5);
    assert_eq!((times[0], times[2], times[3], times[4]), (0.0, 0.5, 1.0, 2.0));
    assert!((times[1] - 0.5).abs() < 1e-3 && times[1] < 0.5);
    let node = scene.nodes.iter().position(|n| n.name == "a").unwrap();
    let ChannelValues::Rotation(values) =
        &scene.animations[0].channels.iter().find(|c| c.target == ChannelTarget::Node(node)).unwrap().values
    else {
        panic!()
    };
    assert_eq!(values[0], [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(values[1], [0.0, 0.0, 0.0, 1.0]);
    validate(&scene, "keys23");
}

#[test]
fn normals_follow_the_shade_type_and_faces_keep_colour_and_sides() {
    let v = Version::new(2, 3);
    // Two faces sharing an edge, folded at 90°: (0,0,0) (1,0,0) (0,1,0) in z = 0, and (0,0,0) (0,1,0) (0,0,1).
    let build = |shade: i32, groups: [i32; 2]| {
        let mut rsm = Rsm::new(v);
        rsm.root_names = vec![Name::new("m")];
        rsm.shade_type = shade;
        let mut m = Mesh::new(v, "m");
        m.vertices = vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        m.tex_vertices = vec![TexVertex { color: Some(0xFF11_2233), uv: [0.0, 0.0] }];
        m.faces = vec![
            Face { vertices: [0, 1, 2], smooth_groups: vec![groups[0]], ..Face::default() },
            Face {
                vertices: [0, 2, 3],
                smooth_groups: vec![groups[1], groups[1], groups[1], 7],
                two_sided: 1,
                ..Face::default()
            },
        ];
        rsm.meshes = vec![m];
        to_scene(&rsm, None).unwrap()
    };
    let vertices = |s: &Scene| s.meshes[0].primitives.iter().map(|p| p.positions.len()).sum::<usize>();
    // Flat: every corner its face's normal, 6 vertices.
    let flat = build(1, [1, 1]);
    assert_eq!(vertices(&flat), 6);
    let p = &flat.meshes[0].primitives;
    assert!(p.iter().any(|p| p.normals.iter().all(|n| *n == [0.0, 0.0, 1.0])));
    assert!(p.iter().any(|p| p.normals.iter().all(|n| *n == [1.0, 0.0, 0.0])));
    // Smooth, one group: the shared edge's vertices average both faces; 4 vertices.
    let smooth = build(2, [1, 1]);
    assert_eq!(vertices(&smooth), 4 + 2, "two materials (one face is two-sided) split the shared vertices");
    let shared: Vec<[f32; 3]> =
        smooth.meshes[0].primitives[0].normals.iter().copied().filter(|n| n[0] > 0.0 && n[2] > 0.0).collect();
    assert!(!shared.is_empty(), "{:?}", smooth.meshes[0].primitives[0].normals);
    assert!(shared.iter().all(|n| (n[0] - n[2]).abs() < 1e-6));
    // Smooth, two groups: no averaging across the edge.
    let split = build(2, [1, 2]);
    assert!(split.meshes[0].primitives.iter().flat_map(|p| &p.normals).all(|n| n[0] == 0.0 || n[2] == 0.0));
    // None: no normals, unlit.
    let none = build(0, [1, 1]);
    assert!(none.meshes[0].primitives.iter().all(|p| p.normals.is_empty()));
    assert!(none.materials.iter().all(|m| m.unlit));
    // The texture-vertex colour (0xFF112233 here; 0 in real files) is kept in the JSON only, never as
    // COLOR_0, which glTF multiplies into the texture (issue 24; this test expected COLOR_0 before). The
    // two-sided face has a double-sided material.
    assert!(flat.meshes[0].primitives.iter().all(|p| p.colors.is_empty()));
    assert_eq!(flat.materials.iter().filter(|m| m.double_sided).count(), 1);
    for (s, name) in [(&flat, "flat"), (&smooth, "smooth"), (&split, "split"), (&none, "none")] {
        validate(s, name);
    }
}

/// A 2 × 1 24-bit BMP: a magenta texel, then a grey one.
fn magenta_bmp() -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(b"BM");
    b.extend_from_slice(&(54u32 + 8).to_le_bytes());
    b.extend_from_slice(&[0; 4]);
    b.extend_from_slice(&54u32.to_le_bytes());
    b.extend_from_slice(&40u32.to_le_bytes());
    b.extend_from_slice(&2i32.to_le_bytes());
    b.extend_from_slice(&1i32.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&24u16.to_le_bytes());
    b.extend_from_slice(&[0; 24]);
    b.extend_from_slice(&[255, 0, 255, 128, 128, 128, 0, 0]);
    b
}

#[test]
fn textures_are_found_case_insensitively_and_magenta_is_transparent() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("Data/Texture/Stone")).unwrap();
    std::fs::write(dir.path().join("Data/Texture/Stone/WALL.BMP"), magenta_bmp()).unwrap();
    let v = Version::new(1, 4);
    let mut rsm = Rsm::new(v);
    rsm.root_names = vec![Name::new("m")];
    rsm.textures = vec![Name::new("stone\\wall.bmp"), Name::new("missing.bmp")];
    let mut m = mesh(v, "m", "", vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]);
    m.texture_indices = vec![0, 1];
    rsm.meshes = vec![m];
    let lookup = rsm::textures::open(dir.path()).unwrap();
    let scene = to_scene(&rsm, Some(lookup.as_ref())).unwrap();
    assert_eq!(scene.textures.len(), 1);
    assert_eq!(scene.materials[0].name, "stone\\wall.bmp");
    assert!(scene.materials[0].alpha_blend);
    let Pixels::Rgba8(px) = &scene.textures[0].image.frames[0].pixels else { panic!() };
    assert_eq!(px, &vec![0, 0, 0, 0, 128, 128, 128, 255]);
    validate(&scene, "textured");
}

fn corpus() -> Option<PathBuf> {
    crate::common::corpus("ragnarok")
}

#[test]
fn goldberg_converts_with_its_textures_from_the_grf() {
    let Some(dir) = corpus() else { return };
    let rsm = rsm::parse(&std::fs::read(dir.join("goldberg_s_01.rsm2")).unwrap()).unwrap();
    let lookup = rsm::textures::open(&dir.join("goldberg_textures.grf")).unwrap();
    let scene = to_scene(&rsm, Some(lookup.as_ref())).unwrap();
    assert_eq!(scene.meshes.len(), 32);
    assert_eq!(scene.textures.len(), 4);
    assert!(scene.materials.iter().all(|m| m.texture.is_some()));
    // 700 frames at 30 fps.
    let end = scene.animations[0].channels.iter().flat_map(|c| c.times.last()).fold(0.0f32, |a, &b| a.max(b));
    assert!((end - 700.0 / 30.0).abs() < 1e-3, "{end}");
    let kinds = |f: fn(&ChannelValues) -> bool| scene.animations[0].channels.iter().filter(|c| f(&c.values)).count();
    assert!(kinds(|v| matches!(v, ChannelValues::Rotation(_))) > 0);
    assert!(kinds(|v| matches!(v, ChannelValues::Translation(_))) > 0);
    assert!(kinds(|v| matches!(v, ChannelValues::Scale(_))) > 0);
    assert!(scene.animations[0].channels.iter().any(|c| matches!(c.target, ChannelTarget::TextureTransform { .. })));
    validate(&scene, "goldberg");
}

/// Faces of the corpus pillar face outward once glTF's winding rule (flip where the determinant is
/// negative) is applied: the front of each side face points away from the pillar's vertical axis.
#[test]
fn pillar_faces_point_outward() {
    let Some(dir) = corpus() else { return };
    let rsm = rsm::parse(&std::fs::read(dir.join("pillar_01.rsm")).unwrap()).unwrap();
    let scene = to_scene(&rsm, None).unwrap();
    let (mut outward, mut inward) = (0, 0);
    let mut stack: Vec<(usize, Mat4)> = scene.roots.iter().map(|&r| (r, Mat4::IDENTITY)).collect();
    while let Some((n, parent)) = stack.pop() {
        let w = parent * local(&scene.nodes[n].transform);
        if let Some(m) = scene.nodes[n].mesh {
            let flip = w.determinant() < 0.0;
            for p in &scene.meshes[m].primitives {
                for t in p.indices.chunks_exact(3) {
                    let q = |i: u32| w.transform_point3(Vec3::from_array(p.positions[i as usize]));
                    let (a, b, c) = (q(t[0]), q(t[1]), q(t[2]));
                    let mut normal = (b - a).cross(c - a);
                    if flip {
                        normal = -normal;
                    }
                    let centre = (a + b + c) / 3.0;
                    let radial = Vec3::new(centre.x, 0.0, centre.z);
                    let side = normal.normalize_or_zero().dot(radial.normalize_or_zero());
                    if side > 0.5 {
                        outward += 1;
                    } else if side < -0.5 {
                        inward += 1;
                    }
                }
            }
        }
        stack.extend(scene.nodes[n].children.iter().map(|&c| (c, w)));
    }
    assert!(outward > 10 * inward.max(1), "outward {outward}, inward {inward}");
}

#[test]
fn every_corpus_model_converts_to_valid_gltf() {
    let Some(dir) = corpus() else { return };
    let out = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if !path.extension().is_some_and(|e| e == "rsm" || e == "rsm2") {
            continue;
        }
        let rsm = rsm::parse(&std::fs::read(&path).unwrap()).unwrap();
        let scene = to_scene(&rsm, None).unwrap();
        assert_eq!(scene.meshes.len(), rsm.meshes.len(), "{}", path.display());
        let glb = out.path().join(path.file_name().unwrap()).with_extension("glb");
        std::fs::write(&glb, relic::export::gltf::to_glb(&scene).unwrap()).unwrap();
        files.push(glb);
    }
    assert_eq!(files.len(), 7);
    let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let Some(reports) = relic::testing::validate_gltf(&paths) else { return };
    for r in reports {
        assert_eq!(r.errors, 0, "{}: {:#?}", r.path, r.messages);
    }
}

/// Writes the scene as GLB and has the Khronos validator check it (skips when the validator is missing).
fn validate(scene: &Scene, name: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{name}.glb"));
    std::fs::write(&path, relic::export::gltf::to_glb(scene).unwrap()).unwrap();
    if let Some(reports) = relic::testing::validate_gltf(&[&path]) {
        assert_eq!(reports[0].errors, 0, "{name}: {:#?}", reports[0].messages);
    }
}
