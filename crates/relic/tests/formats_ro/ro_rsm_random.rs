//! Ragnarok Online RSM/RSM2 models (`ro-rsm`): random models of every version written, read back and
//! passed through their JSON text, compared byte for byte (floats are any bit pattern, NaN included, and
//! names any bytes, junk after the NUL included). The hand-made fixtures are in `ro_rsm.rs`.

use proptest::prelude::*;
use relic::ragnarok::rsm::{
    self, parse, write, Face, LegacyPlacement, Mesh, Name, PositionKey, RotationKey, Rsm, ScaleKey, TexVertex,
    TextureAnimation, TextureChannel, TextureKey, Version, VolumeBox,
};

fn f32_any() -> impl Strategy<Value = f32> {
    prop_oneof![any::<u32>().prop_map(f32::from_bits), -1000.0f32..1000.0]
}

fn name_strategy(version: Version) -> BoxedStrategy<Name> {
    let fixed = !version.is_rsm2();
    let len = if fixed { 40 } else { 12 };
    prop_oneof![
        "[a-z ]{0,12}".prop_map(Name::new),
        prop::collection::vec(any::<u8>(), if fixed { 40..=40 } else { 0..=len })
            .prop_map(move |raw| rsm::read::name_from_bytes(&raw, fixed)),
    ]
    .boxed()
}

fn mesh_strategy(version: Version) -> impl Strategy<Value = Mesh> {
    let v = version;
    (
        name_strategy(v),
        name_strategy(v),
        prop::collection::vec(name_strategy(v), 0..3),
        prop::collection::vec(any::<i32>(), 0..3),
        (prop::array::uniform9(f32_any()), prop::array::uniform3(f32_any()), prop::array::uniform10(f32_any())),
        prop::collection::vec(prop::array::uniform3(f32_any()), 0..4),
        prop::collection::vec((any::<u32>(), prop::array::uniform2(f32_any())), 0..4),
        prop::collection::vec((any::<[u16; 8]>(), any::<i32>(), prop::collection::vec(any::<i32>(), 0..5)), 0..4),
        prop::collection::vec((any::<i32>(), prop::array::uniform5(f32_any())), 0..3),
        prop::collection::vec((any::<i32>(), prop::array::uniform4(f32_any()), any::<i32>()), 0..3),
        prop::collection::vec(
            (
                any::<i32>(),
                prop::collection::vec((any::<i32>(), prop::collection::vec((any::<i32>(), f32_any()), 0..3)), 0..3),
            ),
            0..3,
        ),
    )
        .prop_map(
            move |(
                name,
                parent,
                textures,
                indices,
                (matrix, position, legacy),
                verts,
                tverts,
                faces,
                keys4,
                keys3,
                anims,
            )| {
                let mut m = Mesh::new(v, "");
                m.name = name;
                m.parent_name = parent;
                if v.has_mesh_textures() {
                    m.textures = textures;
                } else {
                    m.texture_indices = indices;
                }
                m.matrix = matrix;
                m.position = position;
                if !v.is_rsm2() {
                    m.legacy = Some(LegacyPlacement {
                        offset: [legacy[0], legacy[1], legacy[2]],
                        rotation_angle: legacy[3],
                        rotation_axis: [legacy[4], legacy[5], legacy[6]],
                        scale: [legacy[7], legacy[8], legacy[9]],
                    });
                }
                m.vertices = verts;
                m.tex_vertices = tverts
                    .into_iter()
                    .map(|(c, uv)| TexVertex { color: v.has_vertex_colors().then_some(c), uv })
                    .collect();
                m.faces = faces
                    .into_iter()
                    .map(|(u, two_sided, mut groups)| {
                        if !v.is_rsm2() {
                            groups.truncate(usize::from(v.has_smooth_groups()));
                            if v.has_smooth_groups() && groups.is_empty() {
                                groups.push(0);
                            }
                        }
                        Face {
                            vertices: [u[0], u[1], u[2]],
                            tex_vertices: [u[3], u[4], u[5]],
                            texture: u[6],
                            padding: u[7],
                            two_sided,
                            smooth_groups: groups,
                        }
                    })
                    .collect();
                let scale =
                    |k: &(i32, [f32; 5])| ScaleKey { frame: k.0, scale: [k.1[0], k.1[1], k.1[2]], data: k.1[3] };
                if v.has_mesh_scale_keys() {
                    m.scale_keys = keys4.iter().map(scale).collect();
                }
                m.rotation_keys = keys4
                    .iter()
                    .map(|k| RotationKey { frame: k.0, quaternion: [k.1[1], k.1[2], k.1[3], k.1[4]] })
                    .collect();
                if v.is_rsm2() {
                    m.position_keys = keys3
                        .iter()
                        .map(|k| PositionKey { frame: k.0, position: [k.1[0], k.1[1], k.1[2]], data: k.2 })
                        .collect();
                }
                if v.has_mesh_textures() {
                    m.texture_animations = anims
                        .into_iter()
                        .map(|(texture, channels)| TextureAnimation {
                            texture,
                            channels: channels
                                .into_iter()
                                .map(|(kind, keys)| TextureChannel {
                                    kind,
                                    keys: keys.into_iter().map(|(frame, value)| TextureKey { frame, value }).collect(),
                                })
                                .collect(),
                        })
                        .collect();
                }
                m
            },
        )
}

fn model_strategy() -> impl Strategy<Value = Rsm> {
    prop::sample::select(vec![(1u8, 1u8), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 2), (2, 3)]).prop_flat_map(
        |(major, minor)| {
            let v = Version::new(major, minor);
            (
                any::<(i32, i32, u8, [u8; 16], i32)>(),
                f32_any(),
                prop::collection::vec(name_strategy(v), 0..3),
                prop::collection::vec(name_strategy(v), 1..3),
                prop::collection::vec(mesh_strategy(v), 0..3),
                prop::collection::vec((any::<i32>(), prop::array::uniform4(f32_any())), 0..3),
                prop::option::of(prop::collection::vec((prop::array::uniform9(f32_any()), any::<i32>()), 0..3)),
                prop::collection::vec(any::<u8>(), 0..4),
            )
                .prop_map(move |(ints, fps, textures, mut roots, meshes, keys, boxes, trailing)| {
                    let mut rsm = Rsm::new(v);
                    (rsm.animation_length, rsm.shade_type) = (ints.0, ints.1);
                    if v.has_alpha() {
                        rsm.alpha = Some(ints.2);
                    }
                    if !v.is_rsm2() {
                        rsm.reserved = Some(ints.3);
                        roots.truncate(1);
                    } else {
                        rsm.frame_rate = Some(fps);
                    }
                    if v.has_v1_5_extra() {
                        rsm.extra_v1_5 = Some(ints.4);
                    }
                    if !v.has_mesh_textures() {
                        rsm.textures = textures;
                    }
                    rsm.root_names = roots;
                    rsm.meshes = meshes;
                    if !v.has_mesh_scale_keys() {
                        rsm.scale_keys = keys
                            .iter()
                            .map(|k| ScaleKey { frame: k.0, scale: [k.1[0], k.1[1], k.1[2]], data: k.1[3] })
                            .collect();
                    }
                    rsm.volume_boxes = boxes.map(|bs| {
                        bs.into_iter()
                            .map(|(f, flag)| VolumeBox {
                                size: [f[0], f[1], f[2]],
                                position: [f[3], f[4], f[5]],
                                rotation: [f[6], f[7], f[8]],
                                flag: v.has_volume_box_flags().then_some(flag),
                            })
                            .collect()
                    });
                    if rsm.volume_boxes.is_some() {
                        rsm.trailing.0 = trailing;
                    }
                    rsm
                })
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_models_round_trip(rsm in model_strategy()) {
        let bytes = write(&rsm).unwrap();
        let back = parse(&bytes).unwrap();
        // Floats may be NaN, so compare through bytes and JSON rather than PartialEq.
        prop_assert_eq!(write(&back).unwrap(), bytes.clone());
        prop_assert_eq!(serde_json::to_string(&back).unwrap(), serde_json::to_string(&rsm).unwrap());
        let text = serde_json::to_string(&back).unwrap();
        let from_text: Rsm = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(write(&from_text).unwrap(), bytes);
    }
}
