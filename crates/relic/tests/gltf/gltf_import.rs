//! `relic::import::gltf`: glTF read back into the scene model (issue 29). The hand-written file
//! (`relic::testing::hand_gltf`, built from the glTF specification without relic's exporter) is read to
//! exact values; every model relic exports from the samples is read back and checked against the test's own
//! decoding of the file, and against a second export (read ∘ export is a fixed point); hostile files fail
//! with located errors.

use std::path::{Path, PathBuf};

use relic::asset::{ChannelTarget, ChannelValues, Interpolation, Scene, Transform};
use relic::import::gltf;
use relic::ops::{self, ConvertRequest, Quiet};
use relic::testing::hand_gltf::{self, ARM, ARM_OFFSET, BODY};
use serde_json::Value;

fn samples() -> PathBuf {
    crate::common::samples_dir()
}

fn assert_hand_scene(scene: &Scene) {
    assert_eq!(scene.roots, vec![0]);
    let names: Vec<&str> = scene.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["body", "arm"]);
    assert_eq!(scene.nodes[0].children, vec![1]);
    assert_eq!(scene.nodes[0].mesh, Some(0));
    assert_eq!(scene.nodes[1].mesh, Some(1));
    assert_eq!(
        scene.nodes[1].transform,
        Transform::Trs { translation: ARM_OFFSET, rotation: [0.0, 0.0, 0.0, 1.0], scale: [1.0; 3] }
    );
    for (mesh, shape, name) in [(&scene.meshes[0], BODY, "body"), (&scene.meshes[1], ARM, "arm")] {
        assert_eq!(mesh.name, name);
        assert_eq!(mesh.primitives.len(), 1);
        let p = &mesh.primitives[0];
        let (positions, normals, uvs) = hand_gltf::box_vertices(shape);
        assert_eq!(p.positions, positions);
        assert_eq!(p.normals, normals);
        assert_eq!(p.uvs, uvs);
        let indices: Vec<u32> = hand_gltf::box_indices().into_iter().map(u32::from).collect();
        assert_eq!(p.indices, indices);
        assert_eq!(p.material, Some(0));
        assert!(p.colors.is_empty() && p.joints.is_empty() && p.morph_targets.is_empty());
    }
    assert_eq!(scene.materials.len(), 1);
    assert_eq!(scene.materials[0].name, "skin");
    assert_eq!(scene.materials[0].texture, Some(0));
    assert_eq!(scene.materials[0].base_color, [1.0; 4]);
    let texture = &scene.textures[0];
    assert_eq!(texture.name, "skin");
    let frame = &texture.image.frames[0];
    assert_eq!((frame.width, frame.height), (4, 4));
    let relic::asset::Pixels::Rgba8(rgba) = &frame.pixels else { panic!("RGBA pixels") };
    for y in 0..4 {
        for x in 0..4 {
            let at = ((y * 4 + x) * 4) as usize;
            assert_eq!(&rgba[at..at + 4], &hand_gltf::texture_pixel(x, y), "pixel {x},{y}");
        }
    }
    assert_eq!(scene.animations.len(), 1);
    let clip = &scene.animations[0];
    assert_eq!(clip.name, "wave");
    assert_eq!(clip.channels.len(), 2);
    let arm = &clip.channels[0];
    assert_eq!(arm.target, ChannelTarget::Node(1));
    assert_eq!(arm.times, hand_gltf::WAVE_TIMES);
    assert_eq!(arm.interpolation, Interpolation::Linear);
    let ChannelValues::Rotation(r) = &arm.values else { panic!("rotation keys") };
    assert_eq!(r.as_slice(), &hand_gltf::WAVE_ARM_ROTATION);
    let ChannelValues::Translation(t) = &clip.channels[1].values else { panic!("translation keys") };
    assert_eq!(clip.channels[1].target, ChannelTarget::Node(0));
    assert_eq!(t.as_slice(), &hand_gltf::WAVE_BODY_TRANSLATION);
}

#[test]
fn the_hand_written_glb_reads_to_exact_values() {
    let glb = hand_gltf::box_two_bones_glb();
    let scene = gltf::read(&glb, Path::new("hand.glb")).unwrap();
    assert_hand_scene(&scene);
    // The fixture itself is valid glTF, by the Khronos validator.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hand.glb"), &glb).unwrap();
    let (json, bin) = hand_gltf::box_two_bones_gltf("hand.bin");
    std::fs::write(dir.path().join("hand.gltf"), json).unwrap();
    std::fs::write(dir.path().join("hand.bin"), bin).unwrap();
    if let Some(reports) = relic::testing::validate_gltf(&[&dir.path().join("hand.glb"), &dir.path().join("hand.gltf")])
    {
        for r in reports {
            assert_eq!(r.errors, 0, "{r:?}");
        }
    }
}

#[test]
fn a_gltf_reads_its_buffer_from_beside_it_and_nowhere_else() {
    let dir = tempfile::tempdir().unwrap();
    let (json, bin) = hand_gltf::box_two_bones_gltf("my%20hand.bin");
    std::fs::write(dir.path().join("my hand.bin"), &bin).unwrap();
    let path = dir.path().join("hand.gltf");
    let scene = gltf::read(json.as_bytes(), &path).unwrap();
    assert_hand_scene(&scene);

    // Outside the folder, absolute, another scheme, a link: refused, nothing read.
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    for uri in ["../my%20hand.bin", "/etc/passwd", "file:///etc/passwd", "http://example.com/x.bin"] {
        let (json, _) = hand_gltf::box_two_bones_gltf(uri);
        let err = gltf::read(json.as_bytes(), &sub.join("hand.gltf")).unwrap_err().to_string();
        assert!(err.contains("not a file inside the glTF's folder"), "{uri}: {err}");
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.path().join("my hand.bin"), sub.join("link.bin")).unwrap();
        let (json, _) = hand_gltf::box_two_bones_gltf("link.bin");
        let err = gltf::read(json.as_bytes(), &sub.join("hand.gltf")).unwrap_err().to_string();
        assert!(err.contains("is a link"), "{err}");
        // A link as a folder on the way (issue 40): refused naming it, while a plain subfolder is read.
        std::os::unix::fs::symlink(dir.path(), sub.join("lnk")).unwrap();
        let (json, _) = hand_gltf::box_two_bones_gltf("lnk/my%20hand.bin");
        let err = gltf::read(json.as_bytes(), &sub.join("hand.gltf")).unwrap_err().to_string();
        let link = std::fs::canonicalize(&sub).unwrap().join("lnk");
        assert!(err.contains(&format!("{} is a link", link.display())), "{err}");
        let (json, _) = hand_gltf::box_two_bones_gltf("sub/my%20hand.bin");
        std::fs::copy(dir.path().join("my hand.bin"), sub.join("my hand.bin")).unwrap();
        assert_hand_scene(&gltf::read(json.as_bytes(), &path).unwrap());
    }
    // A buffer shorter than its byteLength.
    std::fs::write(dir.path().join("short.bin"), &bin[..bin.len() / 2]).unwrap();
    let (json, _) = hand_gltf::box_two_bones_gltf("short.bin");
    let err = gltf::read(json.as_bytes(), &path).unwrap_err().to_string();
    assert!(err.contains("buffers[0].byteLength"), "{err}");
}

/// The test's own reading of a float accessor (independent of relic's reader): tightly packed or strided.
fn floats(doc: &Value, bin: &[u8], accessor: &Value) -> Vec<f32> {
    let a = &doc["accessors"][accessor.as_u64().unwrap() as usize];
    let view = &doc["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize + a["byteOffset"].as_u64().unwrap_or(0) as usize;
    let width = match a["type"].as_str().unwrap() {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" => 4,
        t => panic!("{t}"),
    };
    let count = a["count"].as_u64().unwrap() as usize;
    let component = a["componentType"].as_u64().unwrap();
    let size = match component {
        5126 | 5125 => 4,
        5123 | 5122 => 2,
        _ => 1,
    };
    let stride = view["byteStride"].as_u64().map_or(width * size, |s| s as usize);
    let mut out = Vec::with_capacity(count * width);
    for i in 0..count {
        for k in 0..width {
            let p = start + i * stride + k * size;
            let b = &bin[p..p + size];
            out.push(match component {
                5126 => f32::from_le_bytes(b.try_into().unwrap()),
                5125 => u32::from_le_bytes(b.try_into().unwrap()) as f32,
                5123 => u16::from_le_bytes(b.try_into().unwrap()) as f32,
                5121 => b[0] as f32,
                c => panic!("component type {c}"),
            });
        }
    }
    out
}

fn split_glb(glb: &[u8]) -> (Value, Vec<u8>) {
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let doc: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let rest = &glb[20 + json_len..];
    if rest.is_empty() {
        return (doc, Vec::new());
    }
    let bin_len = u32::from_le_bytes(rest[0..4].try_into().unwrap()) as usize;
    (doc, rest[8..8 + bin_len].to_vec())
}

/// Checks a scene read by relic against the test's own decoding of the same GLB.
fn assert_matches_document(scene: &Scene, glb: &[u8], label: &str) {
    let (doc, bin) = split_glb(glb);
    let nodes = doc["nodes"].as_array().map_or(&[][..], |n| n.as_slice());
    assert_eq!(scene.nodes.len(), nodes.len(), "{label}: nodes");
    for (node, json) in scene.nodes.iter().zip(nodes) {
        assert_eq!(Some(node.name.as_str()), json["name"].as_str(), "{label}: node name");
        let children: Vec<usize> = json["children"]
            .as_array()
            .map_or(Vec::new(), |c| c.iter().map(|c| c.as_u64().unwrap() as usize).collect());
        assert_eq!(node.children, children, "{label}: {} children", node.name);
        assert_eq!(node.mesh, json["mesh"].as_u64().map(|m| m as usize), "{label}: {} mesh", node.name);
        match (&node.transform, json.get("matrix")) {
            (Transform::Matrix(m), Some(j)) => {
                let j: Vec<f32> = serde_json::from_value(j.clone()).unwrap();
                assert_eq!(m.as_slice(), j.as_slice(), "{label}: {} matrix", node.name);
            }
            (Transform::Trs { translation, rotation, scale }, None) => {
                let get = |key: &str, default: Vec<f32>| -> Vec<f32> {
                    json.get(key).map_or(default, |v| serde_json::from_value(v.clone()).unwrap())
                };
                assert_eq!(translation.to_vec(), get("translation", vec![0.0; 3]), "{label}: {}", node.name);
                assert_eq!(rotation.to_vec(), get("rotation", vec![0.0, 0.0, 0.0, 1.0]), "{label}: {}", node.name);
                assert_eq!(scale.to_vec(), get("scale", vec![1.0; 3]), "{label}: {}", node.name);
            }
            (t, j) => panic!("{label}: {} has {t:?} for {j:?}", node.name),
        }
    }
    let meshes = doc["meshes"].as_array().map_or(&[][..], |m| m.as_slice());
    assert_eq!(scene.meshes.len(), meshes.len(), "{label}: meshes");
    let mut vertices = 0;
    for (mesh, json) in scene.meshes.iter().zip(meshes) {
        let prims = json["primitives"].as_array().unwrap();
        assert_eq!(mesh.primitives.len(), prims.len(), "{label}: {} primitives", mesh.name);
        for (p, j) in mesh.primitives.iter().zip(prims) {
            let attrs = &j["attributes"];
            let flat: Vec<f32> = p.positions.iter().flatten().copied().collect();
            assert_eq!(flat, floats(&doc, &bin, &attrs["POSITION"]), "{label}: {} positions", mesh.name);
            vertices += p.positions.len();
            if !attrs["NORMAL"].is_null() {
                let flat: Vec<f32> = p.normals.iter().flatten().copied().collect();
                assert_eq!(flat, floats(&doc, &bin, &attrs["NORMAL"]), "{label}: {} normals", mesh.name);
            }
            if !attrs["TEXCOORD_0"].is_null() {
                let flat: Vec<f32> = p.uvs.iter().flatten().copied().collect();
                assert_eq!(flat, floats(&doc, &bin, &attrs["TEXCOORD_0"]), "{label}: {} uvs", mesh.name);
            }
            let indices: Vec<f32> = p.indices.iter().map(|&i| i as f32).collect();
            assert_eq!(indices, floats(&doc, &bin, &j["indices"]), "{label}: {} indices", mesh.name);
            let targets = j["targets"].as_array().map_or(0, |t| t.len());
            assert_eq!(p.morph_targets.len(), targets, "{label}: {} targets", mesh.name);
            if let Some(names) = json["extras"]["targetNames"].as_array() {
                for (t, name) in p.morph_targets.iter().zip(names) {
                    assert_eq!(Some(t.name.as_str()), name.as_str());
                }
            }
        }
    }
    assert!(vertices > 0, "{label}: a model without vertices proves nothing");
    let animations = doc["animations"].as_array().map_or(&[][..], |a| a.as_slice());
    assert_eq!(scene.animations.len(), animations.len(), "{label}: animations");
    for (clip, json) in scene.animations.iter().zip(animations) {
        let channels = json["channels"].as_array().unwrap();
        let node_channels: Vec<&Value> = channels.iter().filter(|c| c["target"]["path"] != "pointer").collect();
        assert_eq!(clip.channels.len(), node_channels.len(), "{label}: {} channels", clip.name);
        for (c, j) in clip.channels.iter().zip(node_channels) {
            let sampler = &json["samplers"][j["sampler"].as_u64().unwrap() as usize];
            assert_eq!(c.times, floats(&doc, &bin, &sampler["input"]), "{label}: {} times", clip.name);
            assert_eq!(c.target, ChannelTarget::Node(j["target"]["node"].as_u64().unwrap() as usize));
        }
    }
}

/// Every model the samples convert to is read back: equal to the test's own decoding, and a second export
/// of what was read reads back the same (read ∘ export is a fixed point).
#[test]
fn every_sample_model_relic_exports_reads_back() {
    let out = tempfile::tempdir().unwrap();
    let inputs: Vec<PathBuf> = [
        "evil_islands/unit.mod",
        "evil_islands/body.fig",
        "ragnarok/pyramid.rsm",
        "ragnarok/pyramid.rsm2",
        "ragnarok/map.gnd",
        "ragnarok/map.rsw",
        "drakan/Sample.mod",
        "evil_islands/isle.mp",
    ]
    .iter()
    .map(|p| samples().join(p))
    .collect();
    let report = ops::convert(&inputs, out.path(), &ConvertRequest::default(), &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let mut glbs: Vec<PathBuf> =
        walk(out.path()).into_iter().filter(|p| p.extension().is_some_and(|e| e == "glb")).collect();
    glbs.sort();
    assert!(glbs.len() >= inputs.len(), "every input gave a glb: {glbs:?}");
    for path in &glbs {
        let label = path.strip_prefix(out.path()).unwrap().display().to_string();
        let glb = std::fs::read(path).unwrap();
        let scene = gltf::read(&glb, path).unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_matches_document(&scene, &glb, &label);
        let again = relic::export::gltf::to_glb(&scene).unwrap();
        let second = gltf::read(&again, path).unwrap();
        assert_matches_document(&second, &again, &format!("{label} (exported again)"));
        assert_eq!(format!("{:?}", second.nodes), format!("{:?}", scene.nodes), "{label}: nodes after a second export");
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Replaces part of the hand-written document (a JSON pointer) and reads it.
fn read_edited(edit: impl FnOnce(&mut Value)) -> relic::Result<Scene> {
    let glb = hand_gltf::box_two_bones_glb();
    let (mut doc, bin) = split_glb(&glb);
    edit(&mut doc);
    let out = hand_gltf::glb(&serde_json::to_vec(&doc).unwrap(), &bin);
    gltf::read(&out, Path::new("edited.glb"))
}

#[test]
fn hostile_documents_fail_with_located_errors() {
    type Edit = Box<dyn FnOnce(&mut Value)>;
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "a cycle of children",
            Box::new(|d: &mut Value| d["nodes"][1]["children"] = serde_json::json!([0])),
            "children",
        ),
        (
            "a node its own child",
            Box::new(|d: &mut Value| d["nodes"][0]["children"] = serde_json::json!([0])),
            "own child",
        ),
        (
            "an index past the nodes",
            Box::new(|d: &mut Value| d["nodes"][0]["children"] = serde_json::json!([7])),
            "nodes[0].children",
        ),
        (
            "an accessor past its view",
            Box::new(|d: &mut Value| d["accessors"][0]["count"] = serde_json::json!(1000)),
            "accessors[0]",
        ),
        (
            "a view past its buffer",
            Box::new(|d: &mut Value| d["bufferViews"][0]["byteLength"] = serde_json::json!(1u64 << 40)),
            "bufferViews[0]",
        ),
        (
            "an index past the vertices",
            Box::new(|d: &mut Value| {
                for a in 0..3 {
                    d["accessors"][a]["count"] = serde_json::json!(3);
                }
            }),
            "primitives[0].indices[5]",
        ),
        (
            "lines",
            Box::new(|d: &mut Value| d["meshes"][0]["primitives"][0]["mode"] = serde_json::json!(1)),
            "draws lines",
        ),
        (
            "key times of a vector type",
            Box::new(|d: &mut Value| d["animations"][0]["samplers"][0]["input"] = serde_json::json!(10)),
            "accessors[10].type",
        ),
        (
            "a channel of a node that does not exist",
            Box::new(|d: &mut Value| d["animations"][0]["channels"][0]["target"]["node"] = serde_json::json!(9)),
            "channels[0].target.node",
        ),
        (
            "a mesh that does not exist",
            Box::new(|d: &mut Value| d["nodes"][1]["mesh"] = serde_json::json!(9)),
            "nodes[1]",
        ),
        (
            "a texture that does not exist",
            Box::new(|d: &mut Value| {
                d["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["index"] = serde_json::json!(3)
            }),
            "baseColorTexture.index",
        ),
        ("a wrong type", Box::new(|d: &mut Value| d["nodes"][0]["name"] = serde_json::json!(5)), "nodes[0].name"),
        (
            "a required extension",
            Box::new(|d: &mut Value| d["extensionsRequired"] = serde_json::json!(["KHR_draco_mesh_compression"])),
            "KHR_draco_mesh_compression",
        ),
    ];
    for (what, edit, expected) in cases {
        let err = read_edited(edit).expect_err(what).to_string();
        assert!(err.contains(expected), "{what}: {err}");
    }
}

/// Accessors without a buffer view are zeros; a tiny file cannot make relic allocate gigabytes of them.
#[test]
fn zero_accessors_are_charged_before_they_are_made() {
    let err = read_edited(|d| {
        d["accessors"][0] = serde_json::json!({"componentType": 5126, "count": 4_000_000_000u64, "type": "VEC3"});
    })
    .expect_err("four billion zeros")
    .to_string();
    assert!(err.contains("accessors[0]") && err.contains("budget"), "{err}");
}

#[test]
fn truncations_and_flips_of_the_hand_glb_never_panic() {
    let glb = hand_gltf::box_two_bones_glb();
    let seen = relic::testing::check_robustness(&glb, true, |b| gltf::read(b, Path::new("x.glb")));
    assert_eq!(seen.truncations, glb.len());
}

/// Strips, fans, normalized colours and a second UV set as other tools write them: read, with notes.
#[test]
fn strips_colours_and_extra_attributes_from_other_tools() {
    let mut notes = Vec::new();
    let glb = hand_gltf::box_two_bones_glb();
    let (mut doc, bin) = split_glb(&glb);
    // The body's indices as a strip of its first 4 indices; TEXCOORD_1 and TANGENT-like extras.
    doc["meshes"][0]["primitives"][0]["mode"] = serde_json::json!(5);
    doc["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_1"] =
        doc["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"].clone();
    doc["accessors"][3]["count"] = serde_json::json!(4);
    let json = serde_json::to_string(&doc).unwrap();
    let mut padded = json.into_bytes();
    while padded.len() % 4 != 0 {
        padded.push(b' ');
    }
    let mut out = Vec::new();
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&((28 + padded.len() + bin.len()) as u32).to_le_bytes());
    out.extend_from_slice(&(padded.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&padded);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    let scene = gltf::read_noted(&out, Path::new("x.glb"), &mut |n| notes.push(n)).unwrap();
    // Strip 0,1,2,0 → (0,1,2), (2,1,0) reversed every other.
    assert_eq!(scene.meshes[0].primitives[0].indices, vec![0, 1, 2, 2, 1, 0]);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("TEXCOORD_1"), "{notes:?}");
}

fn foreign(name: &str) -> (Vec<u8>, PathBuf) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gltf_foreign").join(name);
    (std::fs::read(&path).unwrap(), path)
}

/// Positions of a primitive's triangles, each triangle's corners rotated to start at the smallest, as a
/// sorted list: the same triangles as sets, whatever the vertex order.
fn triangles(positions: &[[f32; 3]], indices: &[u32]) -> Vec<[[u32; 3]; 3]> {
    let key = |p: [f32; 3]| p.map(|v| (v * 1e4).round() as i32 as u32);
    let mut out: Vec<[[u32; 3]; 3]> = indices
        .chunks(3)
        .map(|t| {
            let c = [key(positions[t[0] as usize]), key(positions[t[1] as usize]), key(positions[t[2] as usize])];
            let first = (0..3).min_by_key(|&k| c[k]).unwrap();
            [c[first], c[(first + 1) % 3], c[(first + 2) % 3]]
        })
        .collect();
    out.sort();
    out
}

/// Blender's export of the hand-written file (nodes reordered, TANGENT added, a shared index accessor, the
/// clip resampled at 24 fps) reads to the same boxes, the same hierarchy and the same motion.
#[test]
fn blenders_export_of_the_hand_file_reads_to_the_same_boxes() {
    let (glb, path) = foreign("box_blender.glb");
    let mut notes = Vec::new();
    let scene = gltf::read_noted(&glb, &path, &mut |n| notes.push(n)).unwrap();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("TANGENT"), "{notes:?}");
    let by_name = |name: &str| scene.nodes.iter().position(|n| n.name == name).unwrap();
    let (body, arm) = (by_name("body"), by_name("arm"));
    assert_eq!(scene.roots, vec![body]);
    assert_eq!(scene.nodes[body].children, vec![arm]);
    let Transform::Trs { translation, .. } = scene.nodes[arm].transform else { panic!("TRS") };
    assert_eq!(translation, ARM_OFFSET);
    for (node, shape) in [(body, BODY), (arm, ARM)] {
        let p = &scene.meshes[scene.nodes[node].mesh.unwrap()].primitives[0];
        let (positions, _, _) = hand_gltf::box_vertices(shape);
        let indices: Vec<u32> = hand_gltf::box_indices().into_iter().map(u32::from).collect();
        assert_eq!(triangles(&p.positions, &p.indices), triangles(&positions, &indices), "{}", scene.nodes[node].name);
    }
    let clip = &scene.animations[0];
    assert_eq!(clip.name, "wave");
    let arm_rotation = clip.channels.iter().find(|c| c.target == ChannelTarget::Node(arm)).unwrap();
    let ChannelValues::Rotation(r) = &arm_rotation.values else { panic!("rotation") };
    // At 0.5 s (frame 12 of 24) the arm is turned 90° about +Z, as in the hand-written file.
    let k = arm_rotation.times.iter().position(|&t| (t - 0.5).abs() < 1e-4).unwrap();
    for (got, want) in r[k].iter().zip(hand_gltf::WAVE_ARM_ROTATION[1]) {
        assert!((got - want).abs() < 1e-4, "{:?}", r[k]);
    }
}

/// A rigged model as Blender writes it: one mesh skinned to a two-bone armature, bones as nodes.
#[test]
fn a_skinned_blender_model_reads_with_its_joints_and_weights() {
    let (glb, path) = foreign("box_skinned.glb");
    let scene = gltf::read(&glb, &path).unwrap();
    assert_eq!(scene.skins.len(), 1);
    let skin = &scene.skins[0];
    let names: Vec<&str> = skin.joints.iter().map(|&j| scene.nodes[j].name.as_str()).collect();
    assert_eq!(names, ["body", "arm"]);
    assert_eq!(skin.inverse_bind_matrices.len(), 2);
    let mesh_node = scene.nodes.iter().find(|n| n.skin == Some(0)).unwrap();
    let p = &scene.meshes[mesh_node.mesh.unwrap()].primitives[0];
    assert_eq!((p.joints.len(), p.weights.len()), (p.positions.len(), p.positions.len()));
    // Every vertex is bound to one bone with weight 1; the triangles of each bone are its box (the arm's
    // placed at its offset: a skinned mesh is in the armature's space).
    for w in &p.weights {
        assert_eq!(w[0], 1.0);
    }
    for (joint, shape, offset) in [(0u16, BODY, [0.0; 3]), (1, ARM, ARM_OFFSET)] {
        let picked: Vec<u32> = p
            .indices
            .chunks(3)
            .filter(|t| t.iter().all(|&i| p.joints[i as usize][0] == joint))
            .flatten()
            .copied()
            .collect();
        let (positions, _, _) = hand_gltf::box_vertices(shape);
        let placed: Vec<[f32; 3]> =
            positions.iter().map(|v| [v[0] + offset[0], v[1] + offset[1], v[2] + offset[2]]).collect();
        let indices: Vec<u32> = hand_gltf::box_indices().into_iter().map(u32::from).collect();
        assert_eq!(triangles(&p.positions, &picked), triangles(&placed, &indices), "joint {joint}");
    }
    assert_eq!(p.indices.len(), 72);
}

/// Fuzz finding of issue 40 (`gltf_import`): an image relic cannot read (a JPEG) is left out with a note,
/// and its texture has no pixels; exporting that scene failed ("a texture has no frame"). Now the texture is
/// left out of the written glTF and the material that named it is untextured; the file reads back.
#[test]
fn a_texture_relic_could_not_read_is_left_out_of_the_glb_it_writes() {
    let scene = read_edited(|doc| {
        doc["images"][0] = serde_json::json!({"name": "skin", "uri": "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ=="});
    })
    .unwrap();
    assert_eq!(scene.textures.len(), 1);
    assert!(scene.textures[0].image.frames.is_empty());
    assert_eq!(scene.materials[0].texture, None);
    let glb = relic::export::gltf::to_glb(&scene).unwrap();
    let (doc, _) = split_glb(&glb);
    assert_eq!(doc.get("images"), None);
    assert_eq!(doc.get("textures"), None);
    assert_eq!(doc.get("samplers"), None);
    assert_eq!(doc["materials"][0]["name"], "skin");
    assert_eq!(doc["materials"][0]["pbrMetallicRoughness"].get("baseColorTexture"), None);
    let again = gltf::read(&glb, Path::new("again.glb")).unwrap();
    assert_eq!(again.textures.len(), 0);
    assert_eq!(again.meshes.len(), scene.meshes.len());
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("untextured.glb"), &glb).unwrap();
    if let Some(reports) = relic::testing::validate_gltf(&[&dir.path().join("untextured.glb")]) {
        assert_eq!(reports[0].errors, 0, "{:?}", reports[0].messages);
    }
}
