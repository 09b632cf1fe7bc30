//! glTF → Evil Islands figure (`evil_islands::model::import`, issue 29): a figure converted to glTF by
//! relic's exporter and packed back reads to the same geometry (positions per extreme and UVs within
//! 1e-5, the same triangles as sets), the same hierarchy, the same bone offsets and the same animation keys
//! and morphing frames at every frame; the FIG headers' bounds and counts equal what this test computes
//! from the written vertices on its own. Foreign glTFs (hand-built scenes: merged primitives, TRS with
//! rotation and scale, skins, no extremes) pack with the expected notes, and limits are refused by name.

use std::path::Path;

use relic::asset::{
    Animation, Channel, ChannelTarget, ChannelValues, Interpolation, Material, Mesh, MorphTarget, Node, Primitive,
    Scene, Skin, Texture, Transform,
};
use relic::evil_islands::model::{self, import, Figure};
use relic::evil_islands::{bon, fig, mmp};

fn samples() -> std::path::PathBuf {
    crate::common::samples_dir().join("evil_islands")
}

/// A `.mod` with the `.bon`, `.anm` and `.mmp` found beside it (or given as bytes).
fn figure(name: &str, model: &[u8], bones: Option<&[u8]>, anims: Option<&[u8]>, texture: Option<&[u8]>) -> Figure {
    let mut f = model::read_mod(model, Some(&format!("{name}.mod"))).unwrap();
    if let Some(b) = bones {
        f.bones = bon::parse_set(b).unwrap();
    }
    if let Some(a) = anims {
        f.animations = model::read_animations(a).unwrap();
    }
    if let Some(t) = texture {
        f.texture = Some(mmp::convert::to_image(&mmp::parse(t).unwrap(), false).unwrap());
    }
    f
}

/// Reads back what `write_figure` wrote.
fn read_back(name: &str, files: &import::FigureFiles) -> Figure {
    figure(name, &files.model, Some(&files.bones), files.animations.as_deref(), files.texture.as_deref())
}

/// The scene relic's exporter makes of a figure, through a GLB (checked by the Khronos validator) and
/// relic's glTF reader.
fn through_glb(scene: &Scene, dir: &Path, name: &str) -> Scene {
    let glb = relic::export::gltf::to_glb(scene).unwrap();
    let path = dir.join(format!("{name}.glb"));
    std::fs::write(&path, &glb).unwrap();
    validate(&[&path]);
    relic::import::gltf::read(&glb, &path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn validate(paths: &[&Path]) {
    if let Some(reports) = relic::testing::validate_gltf(paths) {
        assert_eq!(reports.len(), paths.len());
        for r in reports {
            assert_eq!(r.errors, 0, "{r:?}");
        }
    }
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-5 * (1.0 + a.abs().max(b.abs()))
}

/// A part's triangles as value lists: per corner, its position in every extreme and its UV (rotated so
/// the smallest corner comes first), sorted.
fn triangles(part: &fig::Fig) -> Vec<Vec<f32>> {
    let extremes: Vec<Vec<[f32; 3]>> = (0..part.morph_count()).map(|m| part.morph_positions(m).unwrap()).collect();
    let corner = |v: u16| -> Vec<f32> {
        let vc = part.vertices[usize::from(v)];
        let mut out: Vec<f32> = extremes.iter().flat_map(|e| e[usize::from(vc.position)]).collect();
        let uv = part.texcoords[usize::from(vc.texcoord)];
        out.extend([uv[0].get(), uv[1].get()]);
        out
    };
    let key = |c: &Vec<f32>| c.iter().map(|x| (x * 1e4).round() as i64).collect::<Vec<_>>();
    let mut out: Vec<Vec<f32>> = part
        .triangles()
        .map(|t| {
            let cs: Vec<Vec<f32>> = t.iter().map(|&v| corner(v)).collect();
            let first = (0..3).min_by_key(|&k| key(&cs[k])).unwrap();
            (0..3).flat_map(|k| cs[(first + k) % 3].clone()).collect()
        })
        .collect();
    out.sort_by_key(|t| key(t));
    out
}

fn assert_same_values(what: &str, a: &[Vec<f32>], b: &[Vec<f32>]) {
    assert_eq!(a.len(), b.len(), "{what}: counts");
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x.len(), y.len(), "{what}");
        assert!(x.iter().zip(y).all(|(p, q)| close(*p, *q)), "{what}: {x:?} != {y:?}");
    }
}

/// The header a FIG's written vertices call for, computed here: per extreme the box of the used
/// positions, its middle and half its diagonal; counts in blocks of 4; a morphing component per used
/// position.
fn check_header(name: &str, part: &fig::Fig) {
    let used: Vec<usize> = part.used_positions().iter().enumerate().filter(|(_, u)| **u).map(|(i, _)| i).collect();
    assert_eq!(part.position_count() % 4, 0, "{name}");
    assert_eq!(part.normals.len() % 4, 0, "{name}");
    assert!(part.position_count() - used.len() < 4, "{name}: positions are shared, padding under a block");
    assert_eq!(part.morph_components.len(), used.len(), "{name}");
    assert!(part
        .morph_components
        .iter()
        .enumerate()
        .all(|(i, c)| usize::from(c.morph) == i && usize::from(c.vertex) == i));
    assert_eq!(part.morph_count(), 8, "{name}");
    assert!(part.problems().is_empty(), "{name}: {:?}", part.problems());
    for m in 0..8 {
        let p = part.morph_positions(m).unwrap();
        let mut lo = [f32::MAX; 3];
        let mut hi = [f32::MIN; 3];
        for &i in &used {
            for a in 0..3 {
                lo[a] = lo[a].min(p[i][a]);
                hi[a] = hi[a].max(p[i][a]);
            }
        }
        let b = part.bounds[m];
        for a in 0..3 {
            assert_eq!(b.min[a].get(), lo[a], "{name} extreme {m} min");
            assert_eq!(b.max[a].get(), hi[a], "{name} extreme {m} max");
            assert!(close(b.center[a].get(), (lo[a] + hi[a]) / 2.0), "{name} extreme {m} centre");
        }
        let d: f32 = (0..3).map(|a| (hi[a] - lo[a]).powi(2)).sum::<f32>().sqrt() / 2.0;
        assert!(close(b.radius.get(), d), "{name} extreme {m} radius {} vs {d}", b.radius.get());
    }
    // Every vertex component is distinct (the writer folds equal ones).
    let set: std::collections::HashSet<_> = part.vertices.iter().map(|v| (v.position, v.normal, v.texcoord)).collect();
    assert_eq!(set.len(), part.vertices.len(), "{name}");
}

/// Per frame of an animation's morphing frames, the (position in extreme 0, shift) of every vertex
/// component, as a sorted set.
fn frame_sets(part: &fig::Fig, frames: &[Vec<relic::evil_islands::anm::Vec3>]) -> Vec<Vec<Vec<f32>>> {
    let p0 = part.morph_positions(0).unwrap();
    frames
        .iter()
        .map(|f| {
            let mut set: Vec<Vec<f32>> = part
                .vertices
                .iter()
                .map(|vc| {
                    let i = usize::from(vc.position);
                    let mut v = p0[i].to_vec();
                    v.extend(f[i].iter().map(|c| c.get()));
                    v
                })
                .collect();
            set.sort_by_key(|v| v.iter().map(|x| (x * 1e4).round() as i64).collect::<Vec<_>>());
            set.dedup();
            set
        })
        .collect()
}

/// Asserts that `back` is `original` again (see the module doc).
fn assert_same_figure(original: &Figure, back: &Figure) {
    let links = |f: &Figure| {
        let mut l: Vec<(String, Option<String>)> =
            f.lnk.links.iter().map(|l| (l.name.clone(), l.parent.clone())).collect();
        l.sort();
        l
    };
    assert_eq!(links(original), links(back), "hierarchy");
    assert_eq!(original.parts.len(), back.parts.len());
    for (name, part) in &original.parts {
        let new = back.part(name).unwrap_or_else(|| panic!("part {name} missing"));
        assert_same_values(&format!("part {name} triangles"), &triangles(part), &triangles(new));
        assert_eq!((new.group, new.texture_index, new.unk_0x1c), (part.group, part.texture_index, part.unk_0x1c));
        check_header(name, new);
        // Normals per corner, as unit vectors.
        let normals = |f: &fig::Fig| {
            let n = f.unit_normals();
            let p0 = f.morph_positions(0).unwrap();
            let mut v: Vec<Vec<f32>> = f
                .vertices
                .iter()
                .map(|vc| {
                    let mut x = p0[usize::from(vc.position)].to_vec();
                    x.extend(n[usize::from(vc.normal)]);
                    x
                })
                .collect();
            v.sort_by_key(|v| v.iter().map(|x| (x * 1e4).round() as i64).collect::<Vec<_>>());
            v.dedup();
            v
        };
        assert_same_values(&format!("part {name} normals"), &normals(part), &normals(new));
    }
    for (name, b) in &original.bones {
        if original.part(name).is_none() && !original.lnk.links.iter().any(|l| &l.name == name) {
            continue;
        }
        let new = back.bone(name).unwrap_or_else(|| panic!("bone {name} missing"));
        assert_eq!(new.offsets.len(), 8);
        if b.offsets.len() == 8 {
            assert_eq!(new, b, "bone {name}");
        }
    }
    assert_eq!(original.animations.len(), back.animations.len(), "clips");
    for (clip, parts) in &original.animations {
        let (_, new_parts) = back.animations.iter().find(|(c, _)| c == clip).unwrap_or_else(|| panic!("clip {clip}"));
        for (part, a) in parts {
            let n = &new_parts.iter().find(|(p, _)| p == part).unwrap_or_else(|| panic!("{clip}/{part}")).1;
            assert_eq!(a.rotations.len(), n.rotations.len(), "{clip}/{part} rotation frames");
            for (k, (x, y)) in a.rotations.iter().zip(&n.rotations).enumerate() {
                let (x, y) = (x.xyzw(), y.xyzw());
                let len = x.iter().map(|c| c * c).sum::<f32>().sqrt();
                assert!((0..4).all(|c| close(x[c] / len, y[c])), "{clip}/{part} rotation {k}: {x:?} {y:?}");
            }
            assert_eq!(a.translations.len(), n.translations.len(), "{clip}/{part} translation frames");
            for (x, y) in a.translations.iter().zip(&n.translations) {
                assert!((0..3).all(|c| close(x[c].get(), y[c].get())), "{clip}/{part} translation");
            }
            let fig_o = original.part(part).unwrap();
            let fig_n = back.part(part).unwrap();
            assert_eq!(a.morph_frames.len(), n.morph_frames.len(), "{clip}/{part} morphing frames");
            if !a.morph_frames.is_empty() {
                assert_eq!(n.morph_vertex_count, Some(fig_n.position_count() as u32));
                let (fo, fn_) = (frame_sets(fig_o, &a.morph_frames), frame_sets(fig_n, &n.morph_frames));
                for (k, (x, y)) in fo.iter().zip(&fn_).enumerate() {
                    assert_same_values(&format!("{clip}/{part} morphing frame {k}"), x, y);
                }
            }
        }
    }
}

/// figure → relic's glTF → import → writer → read back.
fn round_trip(name: &str, original: &Figure, dir: &Path) -> (Figure, Vec<String>, import::FigureFiles) {
    let scene = model::to_scene(original, [0.0; 3], &mut |_| {}).unwrap();
    let scene = through_glb(&scene, dir, name);
    let mut notes = Vec::new();
    let fig = import::from_scene(&scene, name, &mut |n| notes.push(n)).unwrap();
    let files = import::write_figure(&fig, None, false, &mut |n| notes.push(n)).unwrap();
    let back = read_back(name, &files);
    assert_same_figure(original, &back);
    (back, notes, files)
}

#[test]
fn sample_unit_round_trips() {
    let dir = samples();
    let read = |n: &str| std::fs::read(dir.join(n)).unwrap();
    let (m, b, a, t) = (read("unit.mod"), read("unit.bon"), read("unit.anm"), read("unit.mmp"));
    let original = figure("unit", &m, Some(&b), Some(&a), Some(&t));
    assert!(!original.animations.is_empty() && original.texture.is_some());
    let tmp = tempfile::tempdir().unwrap();
    let (back, notes, files) = round_trip("unit", &original, tmp.path());
    assert!(notes.is_empty(), "{notes:?}");
    // The texture comes back in the pixel format and size it had, with the same pixels for an
    // uncompressed format (a DXT one is compared within its block error).
    let (o, n) = (original.texture.unwrap(), back.texture.unwrap());
    assert_eq!((o.width(), o.height()), (n.width(), n.height()));
    let orig_mmp = mmp::parse(&t).unwrap();
    let new_mmp_bytes = files.texture.unwrap();
    let new_mmp = mmp::parse(&new_mmp_bytes).unwrap();
    assert_eq!(orig_mmp.header.fourcc, new_mmp.header.fourcc);
    assert_eq!(orig_mmp.header.mip_levels_count, new_mmp.header.mip_levels_count);
}

#[test]
fn corpus_figures_round_trip() {
    let archive = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/evil-islands/auxData.res");
    if !archive.is_file() {
        eprintln!("skipped: ../shared/corpus/evil-islands/auxData.res is not there");
        return;
    }
    let bytes = std::fs::read(&archive).unwrap();
    let res = relic::evil_islands::res::parse(&bytes).unwrap();
    let find = |n: &str| res.find(n.as_bytes()).map(|i| res.data(i).to_vec());
    let tmp = tempfile::tempdir().unwrap();
    let mut count = 0;
    for i in 0..res.len() {
        let name = String::from_utf8_lossy(res.name(i)).into_owned();
        let Some(stem) = name.strip_suffix(".mod") else { continue };
        let bon = find(&format!("{stem}.bon"));
        let mmp = find(&format!("{stem}.mmp"));
        let original = figure(stem, res.data(i), bon.as_deref(), None, mmp.as_deref());
        round_trip(stem, &original, tmp.path());
        count += 1;
    }
    assert_eq!(count, 10);
}

/// The sample figure with a second clip whose part has morphing frames (one shift per position, the
/// padding lanes included): they come back as frames of the same part in the same clip.
#[test]
fn morphing_frames_round_trip() {
    let dir = samples();
    let read = |n: &str| std::fs::read(dir.join(n)).unwrap();
    let mut original = figure("unit", &read("unit.mod"), Some(&read("unit.bon")), Some(&read("unit.anm")), None);
    let body = original.part("body").unwrap().clone();
    let n = body.position_count();
    let f = |x: f32| relic::codec::float::F32::new(x);
    let frames: Vec<Vec<relic::evil_islands::anm::Vec3>> =
        (0..3).map(|k| (0..n).map(|i| [f(0.1 * k as f32), f(i as f32 * 0.01), f(-0.5 * k as f32)]).collect()).collect();
    let mut anm = relic::evil_islands::anm::Anm {
        rotations: vec![Default::default(); 2],
        morph_vertex_count: Some(n as u32),
        morph_frames: frames,
        ..Default::default()
    };
    for q in &mut anm.rotations {
        q.w = f(1.0);
    }
    original.animations.push(("wave".into(), vec![("body".into(), anm)]));
    let tmp = tempfile::tempdir().unwrap();
    let (back, notes, _) = round_trip("unit", &original, tmp.path());
    assert!(notes.is_empty(), "{notes:?}");
    let (_, parts) = back.animations.iter().find(|(c, _)| c == "wave").unwrap();
    assert_eq!(parts[0].1.morph_frames.len(), 3);
}

fn trs(t: [f32; 3], r: [f32; 4], s: [f32; 3]) -> Transform {
    Transform::Trs { translation: t, rotation: r, scale: s }
}

fn prim(positions: Vec<[f32; 3]>, indices: Vec<u32>) -> Primitive {
    let n = positions.len();
    Primitive {
        normals: vec![[0.0, 1.0, 0.0]; n],
        uvs: (0..n).map(|i| [i as f32 * 0.125, 1.0 - i as f32 * 0.0625]).collect(),
        positions,
        indices,
        material: Some(0),
        ..Default::default()
    }
}

/// `q` rotating `v` (x, y, z, w).
fn rotate(q: [f32; 4], v: [f32; 3]) -> [f32; 3] {
    let [x, y, z, w] = q;
    let u = [x, y, z];
    let cross =
        |a: [f32; 3], b: [f32; 3]| [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
    let t = cross(u, v).map(|c| 2.0 * c);
    let c = cross(u, t);
    [v[0] + w * t[0] + c[0], v[1] + w * t[1] + c[1], v[2] + w * t[2] + c[2]]
}

/// Game axes of a glTF vector, written out here: (x, y, z) → (x, −z, y).
fn game(v: [f32; 3]) -> [f32; 3] {
    [v[0], -v[2], v[1]]
}

/// A glTF as another tool writes it: a root node with rotation and scale (TRS) whose mesh has two
/// primitives (one with vertex colours, one without normals), a child with three morph targets
/// (not relic's 8 extremes), and a clip with LINEAR rotation, STEP translation and LINEAR weight keys at
/// times that are not 15 per second. Everything comes back placed as the glTF places it, resampled at 15
/// per second, with one note per kind.
#[test]
fn foreign_scene_packs_with_notes() {
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let root_q = [0.0, h, 0.0, h]; // 90° about +y
    let mut box_a =
        prim(vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 1.0], [0.0, 0.0, 1.0]], vec![0, 1, 2, 0, 2, 3]);
    box_a.colors = vec![[1.0, 0.0, 0.0, 1.0]; 4];
    let mut box_b = prim(vec![[0.0, 1.0, 0.0], [1.0, 1.0, 0.0], [1.0, 1.0, 1.0]], vec![0, 1, 2]);
    box_b.normals.clear();
    let mut arm = prim(vec![[0.0, 0.0, 0.0], [0.5, 0.0, 0.0], [0.0, 0.5, 0.0]], vec![0, 1, 2]);
    for name in ["a", "b", "c"] {
        arm.morph_targets.push(MorphTarget {
            name: name.into(),
            positions: vec![[0.0, 0.0, 0.0], [0.0, 0.25, 0.0], [0.0, 0.0, 0.0]],
            normals: vec![],
        });
    }
    let image = relic::asset::Image::single(8, 8, [10u8, 20, 30, 128].repeat(64), (0, 0), vec![]);
    let scene = Scene {
        nodes: vec![
            Node {
                name: "root".into(),
                transform: trs([0.0, 1.0, 0.0], root_q, [2.0; 3]),
                children: vec![1],
                mesh: Some(0),
                ..Default::default()
            },
            Node {
                name: "arm".into(),
                transform: trs([1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]),
                mesh: Some(1),
                ..Default::default()
            },
        ],
        roots: vec![0],
        meshes: vec![
            Mesh { name: "box".into(), primitives: vec![box_a, box_b], ..Default::default() },
            Mesh { name: "armmesh".into(), primitives: vec![arm], ..Default::default() },
        ],
        materials: vec![Material { texture: Some(0), ..Default::default() }],
        textures: vec![Texture { name: "skin".into(), image }],
        animations: vec![Animation {
            name: "wave".into(),
            channels: vec![
                Channel {
                    target: ChannelTarget::Node(1),
                    times: vec![0.0, 1.0],
                    values: ChannelValues::Rotation(vec![[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, h, h]]),
                    interpolation: Interpolation::Linear,
                },
                Channel {
                    target: ChannelTarget::Node(1),
                    times: vec![0.0, 0.5],
                    values: ChannelValues::Translation(vec![[0.0; 3], [1.0, 0.0, 0.0]]),
                    interpolation: Interpolation::Step,
                },
                Channel {
                    target: ChannelTarget::Node(1),
                    times: vec![0.0, 0.2],
                    values: ChannelValues::MorphWeights(vec![vec![0.0, 0.0, 0.0], vec![1.0, 0.0, 0.0]]),
                    interpolation: Interpolation::Linear,
                },
            ],
            ..Default::default()
        }],
        ..Default::default()
    };
    let mut notes = Vec::new();
    let fig = import::from_scene(&scene, "thing", &mut |n| notes.push(n)).unwrap();
    let files = import::write_figure(&fig, None, false, &mut |n| notes.push(n)).unwrap();
    let text = notes.join("\n");
    for kind in ["baked", "colours", "no normals", "no 8 morph extremes", "rest offset"] {
        assert_eq!(notes.iter().filter(|n| n.contains(kind)).count(), 1, "{kind}: {text}");
    }
    let back = read_back("thing", &files);
    let links: Vec<_> = back.lnk.links.iter().map(|l| (l.name.as_str(), l.parent.as_deref())).collect();
    assert_eq!(links, [("root", None), ("arm", Some("root"))]);
    // Root part: every glTF vertex at its world place, the root's offset added.
    let root_off = back.bone("root").unwrap().offset(0).unwrap();
    assert_eq!(root_off, game([0.0, 1.0, 0.0]));
    let root = back.part("root").unwrap();
    assert_eq!(root.triangles().count(), 3);
    let p0 = root.morph_positions(0).unwrap();
    let placed: Vec<[f32; 3]> = root
        .vertices
        .iter()
        .map(|vc| {
            let p = p0[usize::from(vc.position)];
            [p[0] + root_off[0], p[1] + root_off[1], p[2] + root_off[2]]
        })
        .collect();
    for v in [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [1.0, 1.0, 1.0]] {
        let w = rotate(root_q, v.map(|c| c * 2.0));
        let want = game([w[0], w[1] + 1.0, w[2]]);
        assert!(placed.iter().any(|p| (0..3).all(|a| (p[a] - want[a]).abs() < 1e-5)), "{want:?} in {placed:?}");
    }
    // All 8 extremes are the base; header bounds as computed.
    assert!((1..8).all(|m| root.morph_positions(m) == root.morph_positions(0)));
    check_header("root", root);
    check_header("arm", back.part("arm").unwrap());
    // The arm hangs 2 units along the root's turned x axis.
    let arm_off = back.bone("arm").unwrap().offset(0).unwrap();
    let want = game(rotate(root_q, [2.0, 0.0, 0.0]));
    assert!((0..3).all(|a| (arm_off[a] - want[a]).abs() < 1e-6), "{arm_off:?} {want:?}");
    // The clip: 16 rotation frames (0 to 1 s), 9 translation frames (0 to 0.5 s, STEP), 4 morphing frames.
    let (_, parts) = &back.animations[0];
    let a = &parts.iter().find(|(n, _)| n == "arm").unwrap().1;
    assert_eq!((a.rotations.len(), a.translations.len(), a.morph_frames.len()), (16, 9, 4));
    let q = a.rotations[15].xyzw();
    // 90° about glTF z turned by the root's 90° about y is 90° about glTF x, which is game x.
    assert!((q[0] - h).abs() < 1e-5 && q[1].abs() < 1e-5 && q[2].abs() < 1e-5 && (q[3] - h).abs() < 1e-5, "{q:?}");
    let q7 = a.rotations[7].xyzw();
    let angle = 2.0 * q7[3].clamp(-1.0, 1.0).acos();
    assert!((angle - std::f32::consts::FRAC_PI_2 * 7.0 / 15.0).abs() < 1e-4, "slerp: {angle}");
    let t = |k: usize| a.translations[k].map(|c| c.get());
    assert_eq!(t(7), [0.0; 3]);
    let moved = game(rotate(root_q, [2.0, 0.0, 0.0]));
    assert!((0..3).all(|c| (t(8)[c] - moved[c]).abs() < 1e-6));
    // Morphing frames: weight k/3 of target "a" (its 0.25 along y, turned and scaled by the root).
    let arm_fig = back.part("arm").unwrap();
    let shift = game(rotate(root_q, [0.0, 0.5, 0.0]));
    for (k, frame) in a.morph_frames.iter().enumerate() {
        let w = k as f32 / 3.0;
        let moved: Vec<[f32; 3]> =
            arm_fig.vertices.iter().map(|vc| frame[usize::from(vc.position)].map(|c| c.get())).collect();
        assert!(moved.iter().any(|s| (0..3).all(|c| (s[c] - w * shift[c]).abs() < 1e-5)), "frame {k}: {moved:?}");
    }
    // The texture has alpha: DXT3.
    let tex = mmp::parse(files.texture.as_ref().unwrap()).unwrap();
    assert_eq!(tex.header.fourcc.describe(), "dxt3");
}

/// A skinned mesh (JOINTS_0/WEIGHTS_0) is split into one part per joint: each triangle goes to the joint
/// most of its corners are bound to, placed in that joint's space; the mesh's own node is left out.
#[test]
fn skinned_mesh_binds_rigidly() {
    let mut p = prim(
        vec![[0.0, 0.0, 0.0], [0.5, 0.0, 0.0], [0.0, 0.5, 0.0], [0.0, 1.0, 0.0], [0.5, 1.0, 0.0], [0.0, 1.5, 0.0]],
        vec![0, 1, 2, 3, 4, 5, 2, 3, 4],
    );
    p.joints = vec![[0, 1, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]];
    p.weights = vec![[0.9, 0.1, 0.0, 0.0]; 6];
    let scene = Scene {
        nodes: vec![
            Node { name: "armature".into(), children: vec![1], ..Default::default() },
            Node { name: "hip".into(), children: vec![2], ..Default::default() },
            Node {
                name: "knee".into(),
                transform: trs([0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]),
                ..Default::default()
            },
            Node { name: "body".into(), mesh: Some(0), skin: Some(0), ..Default::default() },
        ],
        roots: vec![0, 3],
        meshes: vec![Mesh { name: "legs".into(), primitives: vec![p], ..Default::default() }],
        materials: vec![Material::default()],
        skins: vec![Skin {
            joints: vec![1, 2],
            inverse_bind_matrices: vec![
                [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0],
                [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 1.0],
            ],
        }],
        ..Default::default()
    };
    let mut notes = Vec::new();
    let fig = import::from_scene(&scene, "legs", &mut |n| notes.push(n)).unwrap();
    assert_eq!(notes.iter().filter(|n| n.contains("strongest joint")).count(), 1, "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("without a FIG")), "{notes:?}");
    let files = import::write_figure(&fig, None, false, &mut |_| {}).unwrap();
    let back = read_back("legs", &files);
    let names: Vec<&str> = back.lnk.links.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["armature", "hip", "knee"]);
    assert_eq!(back.part("hip").unwrap().triangles().count(), 1);
    let knee = back.part("knee").unwrap();
    assert_eq!(knee.triangles().count(), 2);
    // Knee vertices in the knee's space: glTF (0, 1.5, 0) is 0.5 above the knee, game z.
    let p0 = knee.morph_positions(0).unwrap();
    assert!(knee.vertices.iter().any(|vc| p0[usize::from(vc.position)] == [0.0, 0.0, 0.5]));
    // The spanning triangle's hip corner is duplicated into the knee, 0.5 below it.
    assert!(knee.vertices.iter().any(|vc| p0[usize::from(vc.position)] == [0.0, 0.0, -0.5]));
    assert!(back.part("armature").is_none() && back.part("body").is_none());
}

/// Exactly 8 morph targets not named by relic are the extremes in order (noted); more positions than a
/// 16-bit index reaches are refused naming node, mesh and limit.
#[test]
fn extremes_by_order_and_the_index_limit() {
    let mut p = prim(vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], vec![0, 1, 2]);
    for m in 0..8 {
        p.morph_targets.push(MorphTarget {
            name: format!("Key {m}"),
            positions: vec![[0.0, m as f32, 0.0]; 3],
            normals: vec![],
        });
    }
    let node = Node { name: "blob".into(), mesh: Some(0), ..Default::default() };
    let scene = Scene {
        nodes: vec![node.clone()],
        roots: vec![0],
        meshes: vec![Mesh { name: "blobmesh".into(), primitives: vec![p], ..Default::default() }],
        ..Default::default()
    };
    let mut notes = Vec::new();
    let fig = import::from_scene(&scene, "blob", &mut |n| notes.push(n)).unwrap();
    assert!(notes.iter().any(|n| n.contains("in order")), "{notes:?}");
    let part = &fig.parts[0].1;
    assert_eq!(part.morph_positions(5).unwrap()[0], [0.0, 0.0, 5.0]);
    check_header("blob", part);

    let n = 70_002u32;
    let positions: Vec<[f32; 3]> = (0..n).map(|i| [i as f32, 0.0, 0.0]).collect();
    let indices: Vec<u32> = (0..n).collect();
    let big = prim(positions, indices);
    let scene = Scene {
        nodes: vec![Node { name: "bignode".into(), mesh: Some(0), ..Default::default() }],
        roots: vec![0],
        meshes: vec![Mesh { name: "bigmesh".into(), primitives: vec![big], ..Default::default() }],
        ..Default::default()
    };
    let e = match import::from_scene(&scene, "big", &mut |_| {}) {
        Ok(_) => panic!("70,002 positions were not refused"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("\"bignode\"") && e.contains("bigmesh") && e.contains("65536"), "{e}");
}

/// The hand-written glTF (`relic::testing::hand_gltf`, built without relic's exporter) packs to a figure
/// that reads back exactly: the hierarchy, offsets, every box corner in game axes, the clip resampled at
/// 15 per second (values computed here from the keys), the texture as DXT1 (opaque).
#[test]
fn hand_written_gltf_packs_exactly() {
    use relic::testing::hand_gltf::*;
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("hand.glb");
    std::fs::write(&path, box_two_bones_glb()).unwrap();
    validate(&[&path]);
    let scene = relic::import::gltf::read(&std::fs::read(&path).unwrap(), &path).unwrap();
    let mut notes = Vec::new();
    let fig = import::from_scene(&scene, "hand", &mut |n| notes.push(n)).unwrap();
    let files = import::write_figure(&fig, None, false, &mut |n| notes.push(n)).unwrap();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("no 8 morph extremes")) && notes.iter().any(|n| n.contains("rest offset")));
    let back = read_back("hand", &files);
    let links: Vec<_> = back.lnk.links.iter().map(|l| (l.name.as_str(), l.parent.as_deref())).collect();
    assert_eq!(links, [("body", None), ("arm", Some("body"))]);
    assert!(back.bone("body").unwrap().offsets.iter().all(|o| o.map(|c| c.get()) == [0.0; 3]));
    assert!(back.bone("arm").unwrap().offsets.iter().all(|o| o.map(|c| c.get()) == game(ARM_OFFSET)));
    for (name, shape) in [("body", BODY), ("arm", ARM)] {
        let part = back.part(name).unwrap();
        check_header(name, part);
        let (positions, normals, uvs) = box_vertices(shape);
        assert_eq!(part.position_count(), 8, "{name}: the 8 corners, shared by the faces");
        assert_eq!((part.vertices.len(), part.triangles().count()), (24, 12));
        let p0 = part.morph_positions(0).unwrap();
        let n = part.unit_normals();
        let got: Vec<[u16; 3]> = part.triangles().collect();
        let want: Vec<u16> = box_indices();
        for (t, w) in got.iter().zip(want.chunks(3)) {
            for (&v, &k) in t.iter().zip(w) {
                let vc = part.vertices[usize::from(v)];
                let k = usize::from(k);
                assert_eq!(p0[usize::from(vc.position)], game(positions[k]), "{name}");
                assert_eq!(n[usize::from(vc.normal)], game(normals[k]), "{name}");
                let uv = part.texcoords[usize::from(vc.texcoord)];
                assert_eq!([uv[0].get(), uv[1].get()], uvs[k], "{name}");
            }
        }
    }
    // The clip at k/15 s: the arm turns about glTF +Z (game −Y) to 90° at 0.5 s and back; the body rises
    // 0.25 along glTF +Y (game +Z) and back.
    let (clip, parts) = &back.animations[0];
    assert_eq!(clip, "wave");
    let arm = &parts.iter().find(|(n, _)| n == "arm").unwrap().1;
    let body = &parts.iter().find(|(n, _)| n == "body").unwrap().1;
    assert_eq!((arm.rotations.len(), arm.translations.len(), body.translations.len()), (16, 0, 16));
    for k in 0..16 {
        let t = k as f64 / 15.0;
        let s = if t <= 0.5 { t / 0.5 } else { (1.0 - t) / 0.5 };
        let half = s * std::f64::consts::FRAC_PI_4;
        let q = arm.rotations[k];
        let want = [half.cos(), 0.0, -half.sin(), 0.0];
        let got = [q.w.get(), q.x.get(), q.y.get(), q.z.get()];
        assert!((0..4).all(|c| (f64::from(got[c]) - want[c]).abs() < 1e-5), "frame {k}: {got:?} {want:?}");
        let tr = body.translations[k].map(|c| c.get());
        assert!(tr[0] == 0.0 && tr[1] == 0.0 && (f64::from(tr[2]) - 0.25 * s).abs() < 1e-6, "frame {k}: {tr:?}");
    }
    let tex = mmp::parse(files.texture.as_ref().unwrap()).unwrap();
    assert_eq!((tex.header.fourcc.describe().as_str(), tex.header.width, tex.header.height), ("dxt1", 4, 4));
}

/// The hand-written glTF as another tool might write it (`.gltf` with its buffer beside it): the arm
/// placed by a matrix instead of TRS (and so without the clip), extra attributes (`TEXCOORD_1`,
/// `COLOR_0`), the arm's primitive also merged into the body's mesh. It packs with one note per kind, the merged primitive's corners in
/// the body part.
#[test]
fn another_tools_gltf_packs_with_notes() {
    use relic::testing::hand_gltf::*;
    let tmp = tempfile::tempdir().unwrap();
    let (text, mut bin) = box_two_bones_gltf("hand.bin");
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    // A COLOR_0 of 24 grey RGBA floats after the buffer's data.
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    let start = bin.len();
    bin.extend([0.5f32, 0.5, 0.5, 1.0].repeat(24).iter().flat_map(|f| f.to_le_bytes()));
    doc["buffers"][0]["byteLength"] = bin.len().into();
    let views = doc["bufferViews"].as_array_mut().unwrap();
    views.push(serde_json::json!({"buffer": 0, "byteOffset": start, "byteLength": 24 * 16}));
    let view = views.len() - 1;
    let accessors = doc["accessors"].as_array_mut().unwrap();
    accessors.push(serde_json::json!({"bufferView": view, "componentType": 5126, "count": 24, "type": "VEC4"}));
    let color = accessors.len() - 1;
    std::fs::write(tmp.path().join("hand.bin"), bin).unwrap();
    // Another tool's clip would not animate a node placed by a matrix (glTF 2.0 §3.7.2.2): no clip here.
    doc.as_object_mut().unwrap().remove("animations");
    let arm_prim = doc["meshes"][1]["primitives"][0].clone();
    let attrs = &mut doc["meshes"][1]["primitives"][0]["attributes"];
    attrs["TEXCOORD_1"] = attrs["TEXCOORD_0"].clone();
    attrs["COLOR_0"] = color.into();
    doc["meshes"][0]["primitives"].as_array_mut().unwrap().push(arm_prim);
    doc["nodes"][1].as_object_mut().unwrap().remove("translation");
    let [x, y, z] = ARM_OFFSET;
    doc["nodes"][1]["matrix"] =
        serde_json::json!([1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, x, y, z, 1.0]);
    let path = tmp.path().join("hand.gltf");
    std::fs::write(&path, doc.to_string()).unwrap();
    validate(&[&path]);
    let mut notes = Vec::new();
    let scene = relic::import::gltf::read_noted(&std::fs::read(&path).unwrap(), &path, &mut |n| notes.push(n)).unwrap();
    let fig = import::from_scene(&scene, "hand", &mut |n| notes.push(n)).unwrap();
    let files = import::write_figure(&fig, None, false, &mut |n| notes.push(n)).unwrap();
    let text = notes.join("\n");
    assert!(text.contains("TEXCOORD_1"), "{text}");
    assert_eq!(notes.iter().filter(|n| n.contains("colours dropped")).count(), 1, "{text}");
    let back = read_back("hand", &files);
    assert!(back.bone("arm").unwrap().offsets.iter().all(|o| o.map(|c| c.get()) == game(ARM_OFFSET)));
    let body = back.part("body").unwrap();
    check_header("body", body);
    assert_eq!((body.position_count(), body.vertices.len(), body.triangles().count()), (16, 48, 24));
    let p0 = body.morph_positions(0).unwrap();
    let (arm_positions, _, _) = box_vertices(ARM);
    for p in arm_positions {
        assert!(p0.contains(&game(p)), "{p:?}");
    }
}

/// Lines are refused naming the mesh (by relic's glTF reader); a triangle strip packs as triangles.
#[test]
fn strips_pack_and_lines_are_refused() {
    use relic::testing::hand_gltf::*;
    let tmp = tempfile::tempdir().unwrap();
    let (text, bin) = box_two_bones_gltf("hand.bin");
    std::fs::write(tmp.path().join("hand.bin"), bin).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let with_mode = |mode: u32| {
        let mut d = doc.clone();
        d["meshes"][1]["primitives"][0]["mode"] = mode.into();
        let path = tmp.path().join(format!("mode{mode}.gltf"));
        std::fs::write(&path, d.to_string()).unwrap();
        validate(&[&path]);
        path
    };
    let strip = with_mode(5);
    let scene = relic::import::gltf::read(&std::fs::read(&strip).unwrap(), &strip).unwrap();
    let fig = import::from_scene(&scene, "hand", &mut |_| {}).unwrap();
    // 36 strip indices make 34 triangles (the degenerate ones included, as the file has them).
    assert_eq!(fig.parts.iter().find(|(n, _)| n == "arm").unwrap().1.triangles().count(), 34);
    let lines = with_mode(1);
    let e = relic::import::gltf::read(&std::fs::read(&lines).unwrap(), &lines).unwrap_err().to_string();
    assert!(e.contains("arm"), "{e}");
}

/// Hostile scenes stay bounded: 20,000 nodes of one name in one chain (no recursion, linear renaming,
/// one note), and a clip of two keys a million seconds apart (refused by the frame limit, named).
#[test]
fn hostile_scenes_stay_bounded() {
    let n = 20_000;
    let nodes: Vec<Node> = (0..n)
        .map(|i| Node {
            name: "a".into(),
            children: if i + 1 < n { vec![i + 1] } else { vec![] },
            ..Default::default()
        })
        .collect();
    let scene = Scene { nodes, roots: vec![0], ..Default::default() };
    let mut notes = Vec::new();
    let started = std::time::Instant::now();
    let fig = import::from_scene(&scene, "chain", &mut |n| notes.push(n)).unwrap();
    assert!(started.elapsed().as_secs() < 20);
    assert_eq!(fig.lnk.links.len(), n);
    let names: std::collections::HashSet<String> = fig.lnk.links.iter().map(|l| l.name.to_lowercase()).collect();
    assert_eq!(names.len(), n);
    assert_eq!(notes.iter().filter(|n| n.contains("renamed")).count(), 1, "{notes:?}");

    let scene = Scene {
        nodes: vec![Node { name: "spin".into(), ..Default::default() }],
        roots: vec![0],
        animations: vec![Animation {
            name: "forever".into(),
            channels: vec![Channel {
                target: ChannelTarget::Node(0),
                times: vec![0.0, 1.0e6],
                values: ChannelValues::Rotation(vec![[0.0, 0.0, 0.0, 1.0]; 2]),
                interpolation: Interpolation::Linear,
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let e = match import::from_scene(&scene, "x", &mut |_| {}) {
        Ok(_) => panic!("a clip of a million seconds was not refused"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("forever") && e.contains("spin") && e.contains("108000"), "{e}");

    // A scene without nodes makes no figure.
    let e = import::from_scene(&Scene::default(), "x", &mut |_| {}).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("no nodes"), "{e}");
}

/// A glTF file another tool wrote (`tests/gltf_foreign`, made by Blender from the hand-written file).
fn blender(name: &str) -> Scene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gltf_foreign").join(name);
    validate(&[&path]);
    relic::import::gltf::read(&std::fs::read(&path).unwrap(), &path).unwrap()
}

/// The 8 corners of a box in game axes, sorted.
fn corners(shape: relic::testing::hand_gltf::BoxShape) -> Vec<[f32; 3]> {
    let mut out: Vec<[f32; 3]> = (0..8)
        .map(|k| {
            let p = [0, 1, 2].map(|a| shape.centre[a] + if k >> a & 1 == 1 { shape.half[a] } else { -shape.half[a] });
            game(p)
        })
        .collect();
    out.sort_by(|a, b| a.partial_cmp(b).unwrap());
    out
}

fn part_corners(part: &fig::Fig) -> Vec<[f32; 3]> {
    let p0 = part.morph_positions(0).unwrap();
    let used = part.used_positions();
    let mut out: Vec<[f32; 3]> = p0.iter().zip(&used).filter(|(_, u)| **u).map(|(p, _)| *p).collect();
    out.sort_by(|a, b| a.partial_cmp(b).unwrap());
    out
}

fn assert_corners(name: &str, got: &[[f32; 3]], want: &[[f32; 3]]) {
    assert_eq!(got.len(), want.len(), "{name}: {got:?}");
    for (g, w) in got.iter().zip(want) {
        assert!((0..3).all(|a| (g[a] - w[a]).abs() < 1e-5), "{name}: {g:?} vs {w:?}");
    }
}

/// Blender's export of the hand-written file (nodes reordered, TANGENT added, a shared index accessor,
/// the clip baked at 24 frames per second) packs to the hand file's figure: the same boxes, the same
/// offset, and the clip resampled at 15 per second close to the hand file's keys (Blender's baked curve
/// is not exactly slerp).
#[test]
fn blenders_export_of_the_hand_file_packs_to_the_same_figure() {
    use relic::testing::hand_gltf::*;
    let scene = blender("box_blender.glb");
    let mut notes = Vec::new();
    let fig = import::from_scene(&scene, "hand", &mut |n| notes.push(n)).unwrap();
    let files = import::write_figure(&fig, None, false, &mut |n| notes.push(n)).unwrap();
    let back = read_back("hand", &files);
    let links: std::collections::BTreeSet<_> =
        back.lnk.links.iter().map(|l| (l.name.clone(), l.parent.clone())).collect();
    assert!(links.contains(&("body".to_string(), None)) && links.contains(&("arm".to_string(), Some("body".into()))));
    assert_corners("body", &part_corners(back.part("body").unwrap()), &corners(BODY));
    assert_corners("arm", &part_corners(back.part("arm").unwrap()), &corners(ARM));
    let arm_off = back.bone("arm").unwrap().offset(0).unwrap();
    assert!((0..3).all(|a| (arm_off[a] - game(ARM_OFFSET)[a]).abs() < 1e-6), "{arm_off:?}");
    let (_, parts) = back.animations.iter().find(|(c, _)| c == "wave").unwrap();
    let arm = &parts.iter().find(|(n, _)| n == "arm").unwrap().1;
    assert_eq!(arm.rotations.len(), 16);
    for (k, q) in arm.rotations.iter().enumerate() {
        let t = k as f64 / 15.0;
        let s = if t <= 0.5 { t / 0.5 } else { (1.0 - t) / 0.5 };
        let half = s * std::f64::consts::FRAC_PI_4;
        let want = [half.cos(), 0.0, -half.sin(), 0.0];
        let got = [q.w.get(), q.x.get(), q.y.get(), q.z.get()];
        assert!((0..4).all(|c| (f64::from(got[c]) - want[c]).abs() < 1e-2), "frame {k}: {got:?} {want:?}");
    }
    for fig in back.parts.iter().map(|(_, f)| f) {
        assert!(fig.problems().is_empty());
    }
}

/// Blender's skinned rig of the two boxes (one mesh, JOINTS_0/WEIGHTS_0 on bones `body` and `arm`, the
/// arm keyed in its bone's own space): each box becomes the part of its bone, in that bone's space (the
/// arm's box 0.25 above its joint), the mesh's node is left out, and the clip turns the arm by up to 90°.
#[test]
fn blenders_skinned_rig_packs_to_one_part_per_bone() {
    use relic::testing::hand_gltf::*;
    let scene = blender("box_skinned.glb");
    let mut notes = Vec::new();
    let fig = import::from_scene(&scene, "rig", &mut |n| notes.push(n)).unwrap();
    assert_eq!(notes.iter().filter(|n| n.contains("strongest joint")).count(), 1, "{notes:?}");
    let files = import::write_figure(&fig, None, false, &mut |n| notes.push(n)).unwrap();
    let back = read_back("rig", &files);
    assert_corners("body", &part_corners(back.part("body").unwrap()), &corners(BODY));
    assert_corners("arm", &part_corners(back.part("arm").unwrap()), &corners(ARM));
    assert!(back.part("boxes").is_none());
    let link = back.lnk.links.iter().find(|l| l.name == "arm").unwrap();
    assert_eq!(link.parent.as_deref(), Some("body"));
    let arm_off = back.bone("arm").unwrap().offset(0).unwrap();
    assert!((0..3).all(|a| (arm_off[a] - game(ARM_OFFSET)[a]).abs() < 1e-5), "{arm_off:?}");
    let (_, parts) = back.animations.iter().find(|(c, _)| c == "wave").unwrap();
    let arm = &parts.iter().find(|(n, _)| n == "arm").unwrap().1;
    assert_eq!(arm.rotations.len(), 16);
    // The turn of each frame is the glTF's: the key at k/15 s (Blender bakes 24 per second; linear between
    // them) relative to the bone's rest rotation, whatever the axes (an angle survives the change of frame).
    let node = scene.nodes.iter().position(|n| n.name == "arm").unwrap();
    let Transform::Trs { rotation: rest, .. } = scene.nodes[node].transform else { panic!("arm has no TRS") };
    let wave = scene.animations.iter().find(|a| a.name == "wave").unwrap();
    let ch = wave
        .channels
        .iter()
        .find(|c| c.target == ChannelTarget::Node(node) && matches!(c.values, ChannelValues::Rotation(_)))
        .unwrap();
    let ChannelValues::Rotation(keys) = &ch.values else { unreachable!() };
    for k in 0..16 {
        let t = k as f32 / 15.0;
        let i = ch.times.partition_point(|&x| x <= t).clamp(1, ch.times.len() - 1) - 1;
        let f = ((t - ch.times[i]) / (ch.times[i + 1] - ch.times[i])).clamp(0.0, 1.0);
        let mut q = [0, 1, 2, 3].map(|c| keys[i][c] + (keys[i + 1][c] - keys[i][c]) * f);
        let len = q.iter().map(|c| c * c).sum::<f32>().sqrt();
        q = q.map(|c| c / len);
        let w: f32 = (0..4).map(|c| q[c] * rest[c]).sum();
        let want = 2.0 * f64::from(w.abs()).min(1.0).acos().to_degrees();
        let got = 2.0 * f64::from(arm.rotations[k].w.get().abs()).min(1.0).acos().to_degrees();
        assert!((got - want).abs() < 0.05, "frame {k}: {got}° vs {want}°");
    }
    let peak = arm.rotations.iter().map(|q| 2.0 * f64::from(q.w.get().abs()).min(1.0).acos().to_degrees());
    assert!((peak.fold(0.0, f64::max) - 90.0).abs() < 2.0);
}
