//! The shared glTF exporter, from the common scene model: every feature the model formats use, checked by
//! reading the written file back and by the Khronos validator.

use relic::asset::*;
use relic::export::gltf::{to_glb, to_gltf};
use serde_json::Value;

fn rgba(w: u32, h: u32, px: [u8; 4]) -> Image {
    Image {
        frames: vec![Frame {
            name: None,
            width: w,
            height: h,
            pixels: Pixels::Rgba8(px.repeat((w * h) as usize)),
            offset: (0, 0),
            hotspots: vec![],
            role: FrameRole::Frame,
        }],
        palette: None,
        frame_rate: None,
        text: Vec::new(),
    }
}

/// A textured, vertex-coloured quad under a sheared parent, with node, morph and texture animations and a
/// skin: everything the exporter writes.
fn full_scene() -> Scene {
    let quad = Primitive {
        positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]],
        normals: vec![[0.0, 0.0, 2.0]; 4], // not unit: the exporter normalises
        uvs: vec![[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]],
        colors: vec![[1.0, 0.0, 0.0, 1.0]; 4],
        joints: vec![[0, 1, 0, 0]; 4],
        weights: vec![[0.5, 0.5, 0.0, 0.0]; 4],
        indices: vec![0, 1, 2, 0, 2, 3],
        material: Some(0),
        morph_targets: vec![MorphTarget { name: "raise".into(), positions: vec![[0.0, 0.0, 1.0]; 4], normals: vec![] }],
    };
    let shear = [1.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 0.0, 1.0];
    Scene {
        nodes: vec![
            Node {
                name: "root".into(),
                transform: Transform::Matrix(shear),
                children: vec![1, 2],
                mesh: None,
                skin: None,
                light: None,
                extras: serde_json::json!({"kind": "root"}),
            },
            Node {
                name: "quad".into(),
                transform: Transform::Trs {
                    translation: [0.0, 1.0, 0.0],
                    rotation: [0.0, 0.0, 0.0, 1.0],
                    scale: [1.0; 3],
                },
                children: vec![],
                mesh: Some(0),
                skin: Some(0),
                light: None,
                extras: Value::Null,
            },
            Node {
                name: "bone".into(),
                transform: Transform::Trs { translation: [0.0; 3], rotation: [0.0, 0.0, 0.0, 1.0], scale: [1.0; 3] },
                children: vec![],
                mesh: None,
                skin: None,
                light: None,
                extras: Value::Null,
            },
        ],
        roots: vec![0],
        meshes: vec![Mesh {
            name: "quad".into(),
            primitives: vec![quad],
            extras: serde_json::json!({"lod_distance": 12.5}),
        }],
        materials: vec![Material {
            name: "tex\\stone.bmp".into(),
            texture: Some(0),
            texture_transform: Some(TextureTransform::default()),
            double_sided: true,
            extras: serde_json::json!({"shading": ["flat"]}),
            ..Material::default()
        }],
        textures: vec![Texture { name: "stone".into(), image: rgba(2, 2, [10, 20, 30, 255]) }],
        skins: vec![Skin {
            joints: vec![0, 2],
            inverse_bind_matrices: vec![
                [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
                2
            ],
        }],
        animations: vec![Animation {
            name: "idle".into(),
            channels: vec![
                Channel {
                    target: ChannelTarget::Node(1),
                    times: vec![0.0, 0.5, 1.0],
                    values: ChannelValues::Rotation(vec![
                        [0.0, 0.0, 0.0, 1.0],
                        [0.0, 0.0, 0.70710677, 0.70710677],
                        [0.0, 0.0, 1.0, 0.0],
                    ]),
                    interpolation: Interpolation::Linear,
                },
                Channel {
                    target: ChannelTarget::Node(1),
                    times: vec![0.0, 1.0],
                    values: ChannelValues::Translation(vec![[0.0, 1.0, 0.0], [0.0, 2.0, 0.0]]),
                    interpolation: Interpolation::Linear,
                },
                Channel {
                    target: ChannelTarget::Node(2),
                    times: vec![0.0, 1.0],
                    values: ChannelValues::Scale(vec![[1.0; 3], [2.0; 3]]),
                    interpolation: Interpolation::Step,
                },
                Channel {
                    target: ChannelTarget::Node(1),
                    times: vec![0.0, 1.0],
                    values: ChannelValues::MorphWeights(vec![vec![0.0], vec![1.0]]),
                    interpolation: Interpolation::Linear,
                },
                Channel {
                    target: ChannelTarget::TextureTransform { material: 0, property: TextureProperty::Offset },
                    times: vec![0.0, 1.0],
                    values: ChannelValues::Vec2(vec![[0.0, 0.0], [0.5, 0.0]]),
                    interpolation: Interpolation::Linear,
                },
                Channel {
                    target: ChannelTarget::TextureTransform { material: 0, property: TextureProperty::Rotation },
                    times: vec![0.0, 1.0],
                    values: ChannelValues::Scalar(vec![0.0, 1.5]),
                    interpolation: Interpolation::Linear,
                },
            ],
            extras: serde_json::json!({"non_looping": true}),
        }],
        lights: vec![
            Light {
                name: "sun".into(),
                kind: LightKind::Directional,
                color: [1.0, 0.9, 0.8],
                intensity: 2.0,
                range: None,
                extras: Value::Null,
            },
            Light {
                name: "lamp".into(),
                kind: LightKind::Point,
                color: [1.5, 0.5, -1.0],
                intensity: 10.0,
                range: Some(25.0),
                extras: serde_json::json!({"source": "rsw"}),
            },
        ],
        extras: serde_json::json!({"source": "test"}),
    }
}

/// Lights go out as `KHR_lights_punctual`: the list at document level, each node naming its light; colours
/// clamped to 0..1, the range of a point light kept.
#[test]
fn lights_are_khr_lights_punctual() {
    let mut scene = full_scene();
    scene.nodes[1].light = Some(0);
    scene.nodes[2].light = Some(1);
    let (doc, _) = read_glb(&to_glb(&scene).unwrap());
    assert!(doc["extensionsUsed"].as_array().unwrap().contains(&Value::from("KHR_lights_punctual")));
    let lights = &doc["extensions"]["KHR_lights_punctual"]["lights"];
    assert_eq!(lights[0]["type"], "directional");
    assert_eq!(lights[0]["name"], "sun");
    assert!(lights[0].get("range").is_none());
    assert_eq!(lights[1]["type"], "point");
    assert_eq!(lights[1]["color"], serde_json::json!([1.0, 0.5, 0.0]));
    assert_eq!(lights[1]["range"], 25.0);
    assert_eq!(lights[1]["extras"]["source"], "rsw");
    assert_eq!(doc["nodes"][1]["extensions"]["KHR_lights_punctual"]["light"], 0);
    assert_eq!(doc["nodes"][2]["extensions"]["KHR_lights_punctual"]["light"], 1);
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("lights.glb");
    std::fs::write(&glb, to_glb(&scene).unwrap()).unwrap();
    let Some(reports) = relic::testing::validate_gltf(&[&glb]) else { return };
    for r in reports {
        assert_eq!(r.errors, 0, "{}: {:#?}", r.path, r.messages);
    }
}

/// `Scene::merge` moves every index of the appended scene along: children, meshes, materials, textures,
/// skins' joints, animation targets, lights.
#[test]
fn merged_scenes_keep_their_references() {
    let mut a = full_scene();
    a.nodes[2].light = Some(1);
    let b = a.clone();
    let (nodes, meshes, materials, lights) = (a.nodes.len(), a.meshes.len(), a.materials.len(), a.lights.len());
    let roots = a.merge(b);
    assert_eq!(roots, vec![nodes]);
    assert_eq!(a.nodes[nodes].children, vec![nodes + 1, nodes + 2]);
    assert_eq!(a.nodes[nodes + 1].mesh, Some(meshes));
    assert_eq!(a.nodes[nodes + 2].light, Some(lights + 1));
    assert_eq!(a.meshes[meshes].primitives[0].material, Some(materials));
    assert_eq!(a.materials[materials].texture, Some(1));
    assert_eq!(a.skins[1].joints, vec![nodes, nodes + 2]);
    assert_eq!(a.animations[1].channels[0].target, ChannelTarget::Node(nodes + 1));
    assert_eq!(
        a.animations[1].channels[4].target,
        ChannelTarget::TextureTransform { material: materials, property: TextureProperty::Offset }
    );
    a.roots.extend(roots);
    to_glb(&a).unwrap();
}

/// Splits a GLB into its JSON document and BIN chunk, checking the container.
fn read_glb(glb: &[u8]) -> (Value, Vec<u8>) {
    assert_eq!(&glb[0..4], b"glTF");
    assert_eq!(u32::from_le_bytes(glb[4..8].try_into().unwrap()), 2);
    assert_eq!(u32::from_le_bytes(glb[8..12].try_into().unwrap()) as usize, glb.len());
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    assert_eq!(&glb[16..20], b"JSON");
    assert_eq!(json_len % 4, 0);
    let doc: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let rest = &glb[20 + json_len..];
    let bin_len = u32::from_le_bytes(rest[0..4].try_into().unwrap()) as usize;
    assert_eq!(&rest[4..8], b"BIN\0");
    (doc, rest[8..8 + bin_len].to_vec())
}

fn floats(doc: &Value, bin: &[u8], accessor: usize) -> Vec<f32> {
    let a = &doc["accessors"][accessor];
    assert_eq!(a["componentType"], 5126);
    let view = &doc["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap() as usize;
    let len = view["byteLength"].as_u64().unwrap() as usize;
    bin[start..start + len].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

#[test]
fn glb_holds_the_scene_exactly() {
    let glb = to_glb(&full_scene()).unwrap();
    let (doc, bin) = read_glb(&glb);
    let prim = &doc["meshes"][0]["primitives"][0];
    let pos = floats(&doc, &bin, prim["attributes"]["POSITION"].as_u64().unwrap() as usize);
    assert_eq!(pos, vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0]);
    let pos_accessor = &doc["accessors"][prim["attributes"]["POSITION"].as_u64().unwrap() as usize];
    assert_eq!(pos_accessor["min"], serde_json::json!([0.0, 0.0, 0.0]));
    assert_eq!(pos_accessor["max"], serde_json::json!([1.0, 1.0, 0.0]));
    let normals = floats(&doc, &bin, prim["attributes"]["NORMAL"].as_u64().unwrap() as usize);
    assert_eq!(&normals[..3], &[0.0, 0.0, 1.0], "normals are normalised");
    // The sheared root is split into a TRS node and a rotation node whose product is the matrix.
    let trs = |n: &Value| {
        let v = |k: &str, d: Vec<f32>| {
            n.get(k).map_or(d, |a| a.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect())
        };
        let (t, r, s) =
            (v("translation", vec![0.0; 3]), v("rotation", vec![0.0, 0.0, 0.0, 1.0]), v("scale", vec![1.0; 3]));
        glam::Mat4::from_scale_rotation_translation(
            glam::Vec3::new(s[0], s[1], s[2]),
            glam::Quat::from_xyzw(r[0], r[1], r[2], r[3]),
            glam::Vec3::new(t[0], t[1], t[2]),
        )
    };
    assert!(doc["nodes"][0].get("matrix").is_none());
    let inner_index = doc["nodes"][0]["children"][0].as_u64().unwrap() as usize;
    assert_eq!(inner_index, 3, "the helper node comes after the scene's nodes");
    assert_eq!(doc["nodes"][3]["children"], serde_json::json!([1, 2]));
    let product = trs(&doc["nodes"][0]) * trs(&doc["nodes"][3]);
    let shear =
        glam::Mat4::from_cols_array(&[1.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 0.0, 1.0]);
    assert!(product.abs_diff_eq(shear, 1e-5), "{product} vs {shear}");
    assert_eq!(doc["materials"][0]["doubleSided"], true);
    assert_eq!(doc["images"][0]["mimeType"], "image/png");
    let channels = doc["animations"][0]["channels"].as_array().unwrap();
    assert_eq!(channels.len(), 6);
    assert_eq!(
        channels[4]["target"]["extensions"]["KHR_animation_pointer"]["pointer"],
        "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset"
    );
    let used: Vec<&str> = doc["extensionsUsed"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(used, vec!["KHR_animation_pointer", "KHR_lights_punctual", "KHR_texture_transform"]);
    // The rotation key values come back exactly.
    let sampler = &doc["animations"][0]["samplers"][0];
    let rot = floats(&doc, &bin, sampler["output"].as_u64().unwrap() as usize);
    assert_eq!(&rot[4..8], &[0.0, 0.0, 0.70710677, 0.70710677]);
    // What a format keeps beside the geometry lands in `extras`, merged with the morph target names.
    assert_eq!(doc["scenes"][0]["extras"], serde_json::json!({"source": "test"}));
    assert_eq!(doc["nodes"][0]["extras"], serde_json::json!({"kind": "root"}));
    assert!(doc["nodes"][1].get("extras").is_none());
    assert_eq!(doc["meshes"][0]["extras"], serde_json::json!({"lod_distance": 12.5, "targetNames": ["raise"]}));
    assert_eq!(doc["materials"][0]["extras"], serde_json::json!({"shading": ["flat"]}));
    assert_eq!(doc["animations"][0]["extras"], serde_json::json!({"non_looping": true}));
}

#[test]
fn exporter_rejects_inconsistent_meshes() {
    let mut scene = full_scene();
    scene.meshes[0].primitives[0].indices.push(9);
    assert!(to_glb(&scene).is_err());
    let mut scene = full_scene();
    scene.meshes[0].primitives[0].uvs.pop();
    assert!(to_glb(&scene).is_err());
}

#[test]
fn khronos_validator_accepts_glb_and_gltf() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("full.glb");
    std::fs::write(&glb, to_glb(&full_scene()).unwrap()).unwrap();
    let files = to_gltf(&full_scene(), "full scene").unwrap();
    assert_eq!(files.len(), 2);
    let gltf = dir.path().join("full scene.gltf");
    std::fs::write(&gltf, &files[0].bytes).unwrap();
    std::fs::write(dir.path().join("full scene.bin"), &files[1].bytes).unwrap();
    let doc: Value = serde_json::from_slice(&files[0].bytes).unwrap();
    assert_eq!(doc["buffers"][0]["uri"], "full%20scene.bin");
    let Some(reports) = relic::testing::validate_gltf(&[&glb, &gltf]) else { return };
    for r in reports {
        eprintln!("{}: {} warnings {:?}", r.path, r.warnings, r.messages);
        assert_eq!(r.errors, 0, "{}: {:#?}", r.path, r.messages);
    }
}

/// The README's main job on the shipped samples: every glTF it writes (RSM models, Evil Islands figures and
/// maps, Drakan models, characters and levels) passes the Khronos validator with no error.
#[test]
fn every_gltf_the_samples_give_passes_the_validator() {
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let out = tempfile::tempdir().unwrap();
    let report = relic::ops::convert(&[samples], out.path(), &Default::default(), &relic::ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let mut glbs = Vec::new();
    let mut stack = vec![out.path().to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "glb") {
                glbs.push(p);
            }
        }
    }
    glbs.sort();
    let names: Vec<String> =
        glbs.iter().map(|p| p.strip_prefix(out.path()).unwrap().to_string_lossy().replace('\\', "/")).collect();
    for want in [
        // Sample.mod is converted once, through the database that lists it (`Sample.db/mod/`).
        "drakan/Sample.db/mod/models/Crate.view.glb",
        "drakan/Sample.db/mod/models/Wisp.view.glb",
        "drakan/Sample.lvl/terrain.view.glb",
    ] {
        assert!(names.iter().any(|n| n.ends_with(want)), "{want} missing from {names:?}");
    }
    let paths: Vec<&std::path::Path> = glbs.iter().map(|p| p.as_path()).collect();
    if let Some(reports) = relic::testing::validate_gltf(&paths) {
        assert_eq!(reports.len(), glbs.len());
        for r in reports {
            assert_eq!((r.errors, r.warnings), (0, 0), "{r:?}");
        }
    }
}
