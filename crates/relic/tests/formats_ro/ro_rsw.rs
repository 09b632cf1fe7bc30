//! `ro-rsw`: map scenes. Fixtures are written here from the public layout (roBrowser's `World.js`, korangar's
//! `map.rs`, BrowEdit3's `Rsw.cpp`, RagLite's RSW decoder), not with relic's writer: exact values, byte-for-
//! byte round trips (typed and through JSON), the layouts the loaders disagree on, hostile counts, a
//! truncate/flip sweep, and the map conversion (placements, shared meshes, a missing model, lights,
//! the Khronos validator).

use glam::{Mat4, Quat, Vec3};
use relic::asset::{Asset, LightKind, Scene, Transform};
use relic::ragnarok::rsw::scene::{POINT_CANDELA_PER_RANGE_SQUARED, SUN_LUX};
use relic::ragnarok::rsw::{Object, Rsw, Version};
use relic::registry::{self, ConvertOptions};
use serde_json::Value;

// ---------------------------------------------------------------------------------------------------------
// A writer from the public layout.

fn name(s: &str, n: usize) -> Vec<u8> {
    let mut b = s.as_bytes().to_vec();
    b.resize(n, 0);
    b
}

fn f32s(out: &mut Vec<u8>, v: &[f32]) {
    for x in v {
        out.extend(x.to_le_bytes());
    }
}

fn i32s(out: &mut Vec<u8>, v: &[i32]) {
    for x in v {
        out.extend(x.to_le_bytes());
    }
}

/// A placed model as the loaders read it: (name, anim type, speed, block type) from 1.3, a byte in 2.6+
/// when `flag`, then file, node, position, rotation, scale.
struct M<'a> {
    file: &'a str,
    position: [f32; 3],
    rotation: [f32; 3],
    scale: [f32; 3],
}

/// An RSW of `major.minor`: build number (2.5+), the byte (2.2+), names, water (< 2.6), light (1.5+),
/// ground (1.6+), objects (models, one light, one sound, one effect), and 2.1+ a quadtree when `quadtree`.
fn rsw_file(major: u8, minor: u8, build: i32, model_flag: bool, models: &[M<'_>], quadtree: bool) -> Vec<u8> {
    let v = (major, minor);
    let mut out = b"GRSW".to_vec();
    out.extend([major, minor]);
    if v >= (2, 5) {
        i32s(&mut out, &[build]);
    }
    if v >= (2, 2) {
        out.push(1);
    }
    for n in ["map.ini", "map.gnd", "map.gat"] {
        out.extend(name(n, 40));
    }
    if v >= (1, 4) {
        out.extend(name("map.src", 40));
    }
    if ((1, 3)..(2, 6)).contains(&v) {
        f32s(&mut out, &[-3.5]); // level
        if v >= (1, 8) {
            i32s(&mut out, &[2]);
            f32s(&mut out, &[1.5, 2.5, 60.0]);
        }
        if v >= (1, 9) {
            i32s(&mut out, &[4]);
        }
    }
    if v >= (1, 5) {
        i32s(&mut out, &[45, 30]);
        f32s(&mut out, &[1.0, 0.9, 0.8, 0.3, 0.35, 0.4]);
        if v >= (1, 7) {
            f32s(&mut out, &[0.6]);
        }
    }
    if v >= (1, 6) {
        i32s(&mut out, &[-500, 500, -500, 500]);
    }
    i32s(&mut out, &[models.len() as i32 + 3]);
    for (i, m) in models.iter().enumerate() {
        i32s(&mut out, &[1]);
        if v >= (1, 3) {
            out.extend(name(&format!("model{i}"), 40));
            i32s(&mut out, &[2]);
            f32s(&mut out, &[1.0]);
            i32s(&mut out, &[0]);
        }
        if model_flag {
            out.push(7);
        }
        out.extend(name(m.file, 80));
        out.extend(name("", 80));
        f32s(&mut out, &m.position);
        f32s(&mut out, &m.rotation);
        f32s(&mut out, &m.scale);
    }
    i32s(&mut out, &[2]);
    out.extend(name("lamp", 80));
    f32s(&mut out, &[1.0, -20.0, 3.0, 2.0, 0.5, 0.25, 40.0]);
    i32s(&mut out, &[3]);
    out.extend(name("wind", 80));
    out.extend(name("wind.wav", 80));
    f32s(&mut out, &[0.0, -5.0, 0.0, 0.8]);
    i32s(&mut out, &[10, 12]);
    f32s(&mut out, &[50.0]);
    if v >= (2, 0) {
        f32s(&mut out, &[4.0]);
    }
    i32s(&mut out, &[4]);
    out.extend(name("smoke", 80));
    f32s(&mut out, &[2.0, -3.0, 2.0]);
    i32s(&mut out, &[47]);
    f32s(&mut out, &[0.5, 1.0, 2.0, 3.0, 4.0]);
    if quadtree {
        for i in 0..1365 {
            f32s(&mut out, &[i as f32; 12]);
        }
    }
    out
}

fn two_pyramids() -> Vec<M<'static>> {
    vec![
        M { file: "pyramid.rsm", position: [10.0, -2.0, 30.0], rotation: [10.0, 20.0, 30.0], scale: [1.0, 2.0, 3.0] },
        M { file: "PYRAMID.RSM", position: [-5.0, 0.0, 5.0], rotation: [0.0, 90.0, 0.0], scale: [0.5; 3] },
    ]
}

fn codec() -> &'static registry::Format {
    registry::by_id("ro-rsw").unwrap()
}

/// The typed round trip and the JSON round trip (value and text).
fn round_trips(bytes: &[u8]) {
    let rsw = Rsw::read(bytes).unwrap();
    assert_eq!(rsw.to_bytes().unwrap(), bytes, "typed");
    let value = codec().to_json(bytes).unwrap();
    assert_eq!(value["format"], "ro-rsw");
    let text = serde_json::to_string(&value).unwrap();
    assert_eq!(codec().from_json(value, &Default::default()).unwrap(), bytes, "JSON value");
    assert_eq!(
        codec().from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap(),
        bytes,
        "JSON text"
    );
}

// ---------------------------------------------------------------------------------------------------------
// Reading and writing.

#[test]
fn version_1_9_reads_every_field() {
    let bytes = rsw_file(1, 9, 0, false, &two_pyramids(), false);
    let rsw = Rsw::read(&bytes).unwrap();
    assert_eq!(rsw.version, Version::new(1, 9));
    assert_eq!((rsw.build_number, rsw.flag), (None, None));
    assert_eq!(rsw.ini_file.text, "map.ini");
    assert_eq!(rsw.gnd_file.text, "map.gnd");
    assert_eq!(rsw.gat_file.as_ref().unwrap().text, "map.gat");
    assert_eq!(rsw.src_file.as_ref().unwrap().text, "map.src");
    let w = rsw.water.as_ref().unwrap();
    assert_eq!(
        (w.level, w.water_type, w.wave_height, w.wave_speed, w.wave_pitch),
        (Some(-3.5), Some(2), Some(1.5), Some(2.5), Some(60.0))
    );
    assert_eq!(w.anim_speed, Some(4));
    let l = rsw.light.as_ref().unwrap();
    assert_eq!(
        (l.longitude, l.latitude, l.diffuse, l.ambient, l.shadow_opacity),
        (45, 30, [1.0, 0.9, 0.8], [0.3, 0.35, 0.4], Some(0.6))
    );
    let g = rsw.ground.unwrap();
    assert_eq!((g.top, g.bottom, g.left, g.right), (-500, 500, -500, 500));
    assert_eq!(rsw.objects.len(), 5);
    let Object::Model(m) = &rsw.objects[0] else { panic!("a model first") };
    assert_eq!(m.name.as_ref().unwrap().text, "model0");
    assert_eq!((m.anim_type, m.anim_speed, m.block_type, m.flag, m.unknown), (Some(2), Some(1.0), Some(0), None, None));
    assert_eq!(
        (m.file.text.as_str(), m.position, m.rotation, m.scale),
        ("pyramid.rsm", [10.0, -2.0, 30.0], [10.0, 20.0, 30.0], [1.0, 2.0, 3.0])
    );
    let Object::Light(l) = &rsw.objects[2] else { panic!("a light") };
    assert_eq!(
        (l.name.text.as_str(), l.position, l.color, l.range),
        ("lamp", [1.0, -20.0, 3.0], [2.0, 0.5, 0.25], 40.0)
    );
    let Object::Sound(s) = &rsw.objects[3] else { panic!("a sound") };
    assert_eq!(
        (s.file.text.as_str(), s.volume, s.width, s.height, s.range, s.cycle),
        ("wind.wav", 0.8, 10, 12, 50.0, None)
    );
    let Object::Effect(e) = &rsw.objects[4] else { panic!("an effect") };
    assert_eq!(
        (e.name.text.as_str(), e.position, e.id, e.delay, e.params),
        ("smoke", [2.0, -3.0, 2.0], 47, 0.5, [1.0, 2.0, 3.0, 4.0])
    );
    assert!(rsw.quadtree.is_none() && rsw.trailing.0.is_empty());
    round_trips(&bytes);
}

#[test]
fn version_2_1_keeps_its_quadtree() {
    let bytes = rsw_file(2, 1, 0, false, &two_pyramids(), true);
    let rsw = Rsw::read(&bytes).unwrap();
    let q = rsw.quadtree.as_ref().unwrap();
    assert_eq!(q.len(), 1365);
    assert_eq!((q[0].max, q[1364].center), ([0.0; 3], [1364.0; 3]));
    let Object::Sound(s) = &rsw.objects[3] else { panic!("a sound") };
    assert_eq!(s.cycle, Some(4.0));
    round_trips(&bytes);
    // Without the quadtree (RagLite's fixtures end after the objects) it reads too.
    let short = rsw_file(2, 1, 0, false, &two_pyramids(), false);
    assert!(Rsw::read(&short).unwrap().quadtree.is_none());
    round_trips(&short);
    // Bytes after the quadtree are kept.
    let mut more = bytes.clone();
    more.extend(b"tail");
    assert_eq!(Rsw::read(&more).unwrap().trailing.0, b"tail");
    round_trips(&more);
}

#[test]
fn version_2_6_reads_the_model_byte_by_build_and_falls_back() {
    // Build 162 and above carry the byte (RagLite); build 161 does not.
    for (build, flag) in [(162, true), (161, false), (200, true)] {
        let bytes = rsw_file(2, 6, build, flag, &two_pyramids(), true);
        let rsw = Rsw::read(&bytes).unwrap();
        assert_eq!((rsw.build_number, rsw.flag, rsw.water.is_none()), (Some(build), Some(1), true));
        let Object::Model(m) = &rsw.objects[1] else { panic!("a model") };
        assert_eq!(m.flag, flag.then_some(7), "build {build}");
        assert_eq!(m.position, [-5.0, 0.0, 5.0]);
        round_trips(&bytes);
    }
    // The other loaders' threshold (186): a build-170 file without the byte still reads.
    let bytes = rsw_file(2, 6, 170, false, &two_pyramids(), false);
    let rsw = Rsw::read(&bytes).unwrap();
    assert!(rsw.models().all(|m| m.flag.is_none()));
    round_trips(&bytes);
    // 2.5: a build number and the byte, water still in the RSW.
    let bytes = rsw_file(2, 5, 160, false, &two_pyramids(), false);
    let rsw = Rsw::read(&bytes).unwrap();
    assert_eq!((rsw.build_number, rsw.flag, rsw.water.as_ref().unwrap().level), (Some(160), Some(1), Some(-3.5)));
    round_trips(&bytes);
}

#[test]
fn old_versions_and_the_disputed_1_4_names() {
    // 1.2: three names, water level absent (1.3), no light, no ground; models without a header.
    let bytes = rsw_file(1, 2, 0, false, &two_pyramids(), false);
    let rsw = Rsw::read(&bytes).unwrap();
    assert_eq!((rsw.gat_file.as_ref().unwrap().text.as_str(), rsw.src_file.is_none()), ("map.gat", true));
    assert!(rsw.light.is_none() && rsw.ground.is_none());
    let Object::Model(m) = &rsw.objects[0] else { panic!("a model") };
    assert!(m.name.is_none() && m.anim_type.is_none());
    assert_eq!(m.file.text, "pyramid.rsm");
    round_trips(&bytes);
    // 1.4 with four names (roBrowser, korangar).
    let bytes = rsw_file(1, 4, 0, false, &two_pyramids(), false);
    let rsw = Rsw::read(&bytes).unwrap();
    assert_eq!(rsw.src_file.as_ref().unwrap().text, "map.src");
    round_trips(&bytes);
    // 1.4 with three (BrowEdit3: ini, gnd, src): the file does not read with four, so three are read.
    let mut three = b"GRSW\x01\x04".to_vec();
    for n in ["map.ini", "map.gnd", "map.src"] {
        three.extend(name(n, 40));
    }
    f32s(&mut three, &[1.0]); // water level
    i32s(&mut three, &[1, 4]); // one effect
    three.extend(name("fx", 80));
    f32s(&mut three, &[0.0; 3]);
    i32s(&mut three, &[5]);
    f32s(&mut three, &[0.0; 5]);
    let rsw = Rsw::read(&three).unwrap();
    assert!(rsw.gat_file.is_none());
    assert_eq!(rsw.src_file.as_ref().unwrap().text, "map.src");
    assert_eq!(rsw.water.as_ref().unwrap().level, Some(1.0));
    round_trips(&three);
}

#[test]
fn junk_after_a_name_is_kept_and_edits_write() {
    let mut bytes = rsw_file(1, 9, 0, false, &two_pyramids(), false);
    bytes[6 + 8] = b'X'; // after "map.ini" and its NUL
    let rsw = Rsw::read(&bytes).unwrap();
    assert_eq!(rsw.ini_file.text, "map.ini");
    assert!(rsw.ini_file.raw.is_some());
    round_trips(&bytes);
    let mut edited = rsw.clone();
    let Object::Model(m) = &mut edited.objects[0] else { panic!() };
    m.scale = [4.0; 3];
    edited.gnd_file.text = "other.gnd".into();
    let back = Rsw::read(&edited.to_bytes().unwrap()).unwrap();
    assert_eq!(back, edited);
    // A field the version lacks is refused, naming it.
    let mut wrong = rsw.clone();
    wrong.build_number = Some(1);
    assert!(wrong.to_bytes().unwrap_err().to_string().contains("build_number"));
    let mut wrong = rsw;
    wrong.quadtree = Some(vec![]);
    assert!(wrong.to_bytes().is_err());
}

#[test]
fn hostile_counts_fail_before_allocating() {
    let mut bytes = rsw_file(1, 9, 0, false, &[], false);
    let at = bytes.len() - (4 + 80 + 28 + 4 + 160 + 24 + 4 + 4 + 80 + 12 + 4 + 20) - 4;
    bytes[at..at + 4].copy_from_slice(&i32::MAX.to_le_bytes());
    let err = Rsw::read(&bytes).unwrap_err();
    assert!(matches!(err, relic::Error::Limit { .. }), "{err}");
    assert_eq!(err.location().unwrap().offset, at as u64);
    bytes[at..at + 4].copy_from_slice(&(-1i32).to_le_bytes());
    assert!(Rsw::read(&bytes).unwrap_err().to_string().contains("negative"));
    // An unknown object type stops the reading, with its offset.
    let mut bytes = rsw_file(1, 9, 0, false, &[], false);
    bytes[at + 4..at + 8].copy_from_slice(&9i32.to_le_bytes());
    let err = Rsw::read(&bytes).unwrap_err();
    assert!(err.to_string().contains("object type 9"), "{err}");
    assert_eq!(err.location().unwrap().offset, at as u64 + 4);
    // Versions outside 1.0..2.7 and other magic.
    assert!(Rsw::read(b"GRSW\x02\x08").is_err());
    assert!(Rsw::read(b"GRSX\x01\x09").is_err());
}

#[test]
fn truncations_are_refused_and_flips_never_panic() {
    for (major, minor, quadtree) in [(1, 9, false), (2, 6, false), (2, 1, true)] {
        let bytes = rsw_file(major, minor, 170, false, &two_pyramids(), quadtree);
        // With a quadtree a cut inside it leaves a file without one (kept as trailing bytes).
        let report = relic::testing::check_robustness_sampled(&bytes, !quadtree, 500, |b| {
            let rsw = Rsw::read(b)?;
            assert_eq!(rsw.to_bytes()?, b, "a file that parses writes back");
            Ok::<_, relic::Error>(())
        });
        assert!(report.flips > 0);
    }
}

#[test]
fn sniffed_by_magic_and_a_known_version() {
    let bytes = rsw_file(2, 1, 0, false, &[], false);
    assert_eq!(registry::sniff(&bytes, "x.bin").unwrap().0.id, "ro-rsw");
    assert!(registry::sniff(b"GRSW\x09\x09rest", "x.bin").map_or(true, |(f, _)| f.id != "ro-rsw"));
    let info = codec().info(&rsw_file(1, 9, 0, false, &two_pyramids(), false)).unwrap();
    assert_eq!(
        (info["models"].as_u64(), info["model_files"].as_u64(), info["lights"].as_u64()),
        (Some(2), Some(2), Some(1))
    );
}

// ---------------------------------------------------------------------------------------------------------
// The map conversion.

/// Converts `bytes` as `map.rsw` in a folder holding the sample `pyramid.rsm` (and the sample `map.gat`),
/// returning the scene and the notes.
fn convert_map(bytes: &[u8]) -> (Scene, Vec<String>, tempfile::TempDir) {
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/ragnarok");
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(samples.join("pyramid.rsm"), dir.path().join("pyramid.rsm")).unwrap();
    std::fs::copy(samples.join("map.gat"), dir.path().join("map.gat")).unwrap();
    let path = dir.path().join("map.rsw");
    std::fs::write(&path, bytes).unwrap();
    let opts = ConvertOptions::default();
    let assets = codec().convert(&relic::registry::ConvertInput::at(bytes, &path, &opts)).unwrap();
    assert_eq!(assets.len(), 2);
    assert!(matches!(&assets[0].asset, Asset::Document(_)));
    let Asset::Scene(scene) = assets.into_iter().nth(1).unwrap().asset else { panic!("a scene") };
    let notes = opts.notes.lock().unwrap().clone();
    (scene, notes, dir)
}

fn root<'a>(scene: &'a Scene, name: &str) -> &'a relic::asset::Node {
    let r = scene.roots.iter().find(|&&r| scene.nodes[r].name == name).unwrap_or_else(|| panic!("no root {name}"));
    &scene.nodes[*r]
}

fn trs_matrix(t: &Transform) -> Mat4 {
    match t {
        Transform::Trs { translation, rotation, scale } => Mat4::from_scale_rotation_translation(
            Vec3::from_array(*scale),
            Quat::from_array(*rotation),
            Vec3::from_array(*translation),
        ),
        Transform::Matrix(m) => Mat4::from_cols_array(m),
    }
}

#[test]
fn a_placed_model_stands_where_the_client_puts_it() {
    let models = two_pyramids();
    let bytes = rsw_file(1, 9, 0, false, &models, false);
    let (scene, _, _dir) = convert_map(&bytes);
    let names: Vec<&str> = scene.roots.iter().map(|&r| scene.nodes[r].name.as_str()).collect();
    assert_eq!(names, ["ground", "water", "models", "lights", "sounds", "effects"], "no overlay by default");
    let placed = &root(&scene, "models").children;
    assert_eq!(placed.len(), 2);
    for (i, m) in models.iter().enumerate() {
        let node = &scene.nodes[placed[i]];
        assert_eq!(node.name, format!("model{i}"));
        // The client's matrix in its Y-down world (roBrowser: T·Rz·Rx·Ry·S), turned into glTF by the half
        // turn F = diag(1, −1, −1), applied to relic's RSM scene mirrored back by S(1, −1, 1).
        let [rx, ry, rz] = m.rotation.map(f32::to_radians);
        let client = Mat4::from_translation(Vec3::from_array(m.position))
            * Mat4::from_rotation_z(rz)
            * Mat4::from_rotation_x(rx)
            * Mat4::from_rotation_y(ry)
            * Mat4::from_scale(Vec3::from_array(m.scale));
        let f = Mat4::from_scale(Vec3::new(1.0, -1.0, -1.0));
        let expected = f * client * Mat4::from_scale(Vec3::new(1.0, -1.0, 1.0));
        let got = trs_matrix(&node.transform);
        assert!(got.abs_diff_eq(expected, 1e-4), "model {i}: {got:?} vs {expected:?}");
        let world = Mat4::from_cols_array(&relic::ragnarok::world::model_matrix(m.position, m.rotation, m.scale));
        assert!(got.abs_diff_eq(world, 1e-4), "agrees with ragnarok::world");
        // East stays east, up is up, north is −Z.
        let Transform::Trs { translation, .. } = node.transform else { panic!("TRS") };
        assert_eq!(translation, [m.position[0], -m.position[1], -m.position[2]]);
        assert_eq!(node.extras["file"], m.file);
    }
}

#[test]
fn placements_of_one_model_share_its_meshes() {
    let bytes = rsw_file(1, 9, 0, false, &two_pyramids(), false);
    let (scene, notes, _dir) = convert_map(&bytes);
    let placed = &root(&scene, "models").children;
    let meshes_under = |n: usize| -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![n];
        while let Some(i) = stack.pop() {
            out.extend(scene.nodes[i].mesh);
            stack.extend(&scene.nodes[i].children);
        }
        out
    };
    let (a, b) = (meshes_under(placed[0]), meshes_under(placed[1]));
    assert!(!a.is_empty());
    assert_eq!(a, b, "the same meshes, not copies");
    // The pyramid's one mesh: nothing else (no ground: no map.gnd here; no overlay by default).
    let pyramid = relic::ragnarok::rsm::scene::to_scene(
        &relic::ragnarok::rsm::Rsm::read(&std::fs::read(_dir.path().join("pyramid.rsm")).unwrap()).unwrap(),
        None,
    )
    .unwrap();
    assert_eq!(scene.meshes.len(), pyramid.meshes.len());
    assert!(notes.iter().any(|n| n.contains("map.gnd")), "{notes:?}");
    assert!(!notes.iter().any(|n| n.contains("pyramid")), "{notes:?}");
}

#[test]
fn a_missing_model_is_an_empty_node_in_its_place_and_one_warning() {
    let mut models = two_pyramids();
    models.push(M { file: "gone\\tower.rsm", position: [1.0, 2.0, 3.0], rotation: [0.0; 3], scale: [1.0; 3] });
    models.push(M { file: "gone\\tower.rsm", position: [4.0, 5.0, 6.0], rotation: [0.0; 3], scale: [1.0; 3] });
    let bytes = rsw_file(2, 1, 0, false, &models, false);
    let (scene, notes, _dir) = convert_map(&bytes);
    let placed = &root(&scene, "models").children;
    for (k, at) in [(2, [1.0, -2.0, -3.0]), (3, [4.0, -5.0, -6.0])] {
        let node = &scene.nodes[placed[k]];
        assert_eq!(node.name, format!("model{k}"));
        assert!(node.children.is_empty() && node.mesh.is_none());
        let Transform::Trs { translation, .. } = node.transform else { panic!("TRS") };
        assert_eq!(translation, at);
    }
    let about: Vec<&String> = notes.iter().filter(|n| n.contains("tower.rsm")).collect();
    assert_eq!(about.len(), 1, "{notes:?}");
    assert!(about[0].contains("2 placement(s)"), "{about:?}");
}

#[test]
fn lights_sounds_and_effects_are_nodes_and_the_map_passes_the_validator() {
    let bytes = rsw_file(2, 1, 0, false, &two_pyramids(), true);
    let (scene, _, dir) = convert_map(&bytes);
    let lights = &root(&scene, "lights").children;
    assert_eq!(lights.len(), 2, "the point light and the sun");
    let lamp = &scene.nodes[lights[0]];
    let light = &scene.lights[lamp.light.unwrap()];
    assert_eq!(light.kind, LightKind::Point);
    // Colour (2, 0.5, 0.25) scaled into 0..1, the excess (2) multiplying the intensity: candela, 268.2 ×
    // range² per unit of colour (the module doc), so a white surface 20 units away (half the range) gets
    // π × 2 / 2 W/m² in Blender's terms (cd / 683 / d²).
    let candela = 2.0 * POINT_CANDELA_PER_RANGE_SQUARED * 40.0 * 40.0;
    assert_eq!((light.color, light.intensity, light.range), ([1.0, 0.25, 0.125], candela, Some(40.0)));
    assert!((candela - 858_283.0).abs() < 1.0, "{candela}");
    assert!((candela / 683.0 / 400.0 - std::f32::consts::PI).abs() < 1e-4);
    let Transform::Trs { translation, .. } = lamp.transform else { panic!("TRS") };
    assert_eq!(translation, [1.0, 20.0, -3.0]);
    let sun = &scene.lights[scene.nodes[lights[1]].light.unwrap()];
    assert_eq!(sun.kind, LightKind::Directional);
    // Diffuse (1, 0.9, 0.8): π × 683 lux = 2146 lux, π W/m² in Blender (the docs: 2 to 5 W/m²).
    assert_eq!((sun.color, sun.intensity), ([1.0, 0.9, 0.8], SUN_LUX));
    assert!((SUN_LUX - 2145.71).abs() < 0.01 && (2.0..=5.0).contains(&(sun.intensity / 683.0)));
    assert_eq!(scene.extras["ambient"], serde_json::json!([0.3f32, 0.35f32, 0.4f32]));
    // Latitude 30 from the zenith: the sun shines down at 30° from straight down.
    let Transform::Trs { rotation, .. } = scene.nodes[lights[1]].transform else { panic!("TRS") };
    let shine = Quat::from_array(rotation) * Vec3::NEG_Z;
    assert!((shine.y + 30f32.to_radians().cos()).abs() < 1e-5, "{shine}");
    let sound = &scene.nodes[root(&scene, "sounds").children[0]];
    assert_eq!(
        (sound.name.as_str(), sound.extras["file"].as_str(), sound.extras["cycle"].as_f64()),
        ("wind", Some("wind.wav"), Some(4.0))
    );
    let effect = &scene.nodes[root(&scene, "effects").children[0]];
    assert_eq!((effect.name.as_str(), effect.extras["id"].as_i64()), ("smoke", Some(47)));
    assert!(!scene.nodes.iter().any(|n| n.name == "walkability"), "no overlay by default");

    let glb = relic::export::gltf::to_glb(&scene).unwrap();
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let doc: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let punctual = &doc["extensions"]["KHR_lights_punctual"]["lights"];
    assert_eq!(punctual[0]["type"], "point");
    assert_eq!(punctual[0]["range"], 40.0);
    assert_eq!(punctual[1]["type"], "directional");
    let path = dir.path().join("map.glb");
    std::fs::write(&path, &glb).unwrap();
    let Some(reports) = relic::testing::validate_gltf(&[&path]) else {
        assert!(std::env::var_os("CI").is_none(), "the validator must run under CI");
        return;
    };
    for r in reports {
        assert_eq!((r.errors, r.warnings), (0, 0), "{r:?}");
    }
}

/// The sample map with its sample ground, altitude and model: ground and the GND's water (1.9 holds
/// water, which wins over the RSW's), the pyramid placed twice, the missing tower named once.
#[test]
fn the_sample_map_converts_with_its_ground_water_models_and_overlay() {
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/ragnarok");
    let path = samples.join("map.rsw");
    let bytes = std::fs::read(&path).unwrap();
    let opts = ConvertOptions::default();
    let assets = codec().convert(&relic::registry::ConvertInput::at(&bytes, &path, &opts)).unwrap();
    let Asset::Scene(scene) = &assets[1].asset else { panic!("a scene") };
    for name in ["ground", "water"] {
        assert_eq!(root(scene, name).children.len(), 1, "{name}");
    }
    assert_eq!(assets.len(), 2, "no overlay by default");
    assert!(!scene.nodes.iter().any(|n| n.name == "walkability"));
    let placed = &root(scene, "models").children;
    assert_eq!(placed.len(), 3);
    assert!(!scene.nodes[placed[0]].children.is_empty() && !scene.nodes[placed[1]].children.is_empty());
    assert!(scene.nodes[placed[2]].children.is_empty(), "the missing tower");
    let notes = opts.notes.lock().unwrap().clone();
    // The missing tower, and (as `convert map.gnd` says) the two ground textures the samples do not ship.
    assert_eq!(notes.len(), 3, "{notes:?}");
    assert_eq!(notes.iter().filter(|n| n.contains("tower.rsm")).count(), 1, "{notes:?}");
    for texture in ["backside.bmp", "p_ground01.bmp"] {
        assert_eq!(notes.iter().filter(|n| n.contains(texture) && n.contains("not found")).count(), 1, "{notes:?}");
    }
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("map.glb");
    std::fs::write(&glb, relic::export::gltf::to_glb(scene).unwrap()).unwrap();
    let Some(reports) = relic::testing::validate_gltf(&[&glb]) else {
        assert!(std::env::var_os("CI").is_none(), "the validator must run under CI");
        return;
    };
    for r in reports {
        assert_eq!((r.errors, r.warnings), (0, 0), "{r:?}");
    }
}

/// `--option ro-rsw.walkability`: `scene` adds the root `walkability` (one quad per GAT cell at its
/// corner heights), `file` gives the overlay as a scene of its own named `walkability`, `off` (the
/// default) neither; another value is refused.
#[test]
fn the_walkability_overlay_goes_where_the_option_says() {
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/ragnarok");
    let path = samples.join("map.rsw");
    let bytes = std::fs::read(&path).unwrap();
    let gat = relic::ragnarok::gat::Gat::read(&std::fs::read(samples.join("map.gat")).unwrap()).unwrap();
    let with = |value: &str| {
        let opts =
            ConvertOptions { settings: vec![("ro-rsw.walkability".into(), value.into())], ..ConvertOptions::default() };
        codec().convert(&relic::registry::ConvertInput::at(&bytes, &path, &opts))
    };
    let overlay_of = |scene: &Scene| {
        let holder = &scene.nodes[root(scene, "walkability").children[0]];
        let mesh = &scene.meshes[holder.mesh.unwrap()];
        assert_eq!(mesh.name, "walkability");
        mesh.primitives[0].positions.len()
    };
    let assets = with("scene").unwrap();
    assert_eq!(assets.len(), 2);
    let Asset::Scene(scene) = &assets[1].asset else { panic!("a scene") };
    assert_eq!(scene.roots.len(), 7);
    assert_eq!(overlay_of(scene), 4 * gat.cells.len());

    let assets = with("FILE").unwrap();
    assert_eq!(assets.len(), 3);
    let Asset::Scene(map) = &assets[1].asset else { panic!("a scene") };
    assert!(!map.nodes.iter().any(|n| n.name == "walkability"));
    assert_eq!(assets[2].name.as_deref(), Some("walkability"));
    let Asset::Scene(own) = &assets[2].asset else { panic!("a scene") };
    assert_eq!((own.roots.len(), own.meshes.len(), own.materials.len()), (1, 1, 1));
    assert_eq!(overlay_of(own), 4 * gat.cells.len());
    assert!(own.materials[0].unlit && own.materials[0].alpha_blend);

    assert_eq!(with("off").unwrap().len(), 2);
    let refused = with("both").unwrap_err().to_string();
    assert!(refused.contains("ro-rsw.walkability=both") && refused.contains("scene"), "{refused}");
}
