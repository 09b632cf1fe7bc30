//! Models (spec "Model (0x0200 - 0x0209)", docs/formats/drakan.md#model-polygons: polygons of 3 or 4 vertices, null texture refs
//! dropped, character data ending in a u16 LOD count and one sphere per LOD) and animations
//! ("Animation (0x0501 - 0x0503)"). Floats must survive JSON bit for bit.

use relic::codec::float::F32;
use relic::drakan::records::animation;
use relic::drakan::records::character::{self, CharBounds, CharSphere, LodMeshInfo, VertexWeight};
use relic::drakan::records::common::Sphere;
use relic::drakan::records::model::{self, PolyVertex, Shapes};

use super::{check_record, f, r, SrscFields, B};

#[test]
fn model_name_0x0200_and_counters_0x0202() {
    let bytes = B::new().str("Barrel").u32(0x8002).done();
    let m = check_record(0x0200, &bytes, model::parse_name, model::write_name);
    assert_eq!((m.name.text.as_str(), m.shading.value), ("Barrel", 0x8002));
    assert_eq!(serde_json::to_value(m.shading).unwrap()["names"], serde_json::json!(["smooth", "always_set"]));
    let bytes = B::new().u16(4).u16(0x20).u16(0x31).done();
    let c = check_record(0x0202, &bytes, model::parse_counters, model::write_counters);
    assert_eq!((c.group_count, c.last_group_id, c.last_model_id), (4, 0x20, 0x31));
}

#[test]
fn vertices_0x0203() {
    let bytes = B::new().u16(2).floats(&[1.0, -2.0, 0.5]).floats(&[0.0, -0.0, 1e-7]).done();
    let v = check_record(0x0203, &bytes, model::parse_vertices, model::write_vertices);
    assert_eq!(v.vertices, vec![[f(1.0), f(-2.0), f(0.5)], [f(0.0), F32(0x8000_0000), f(1e-7)]]);
}

#[test]
fn polygons_0x0204_triangles_and_quads() {
    let bytes = B::new()
        .u16(2)
        .u16(0x0002) // double sided
        .u16(3)
        .u16(1) // texture index
        .u16(0)
        .floats(&[0.0, 0.0])
        .u16(1)
        .floats(&[1.0, 0.0])
        .u16(2)
        .floats(&[0.0, 1.0])
        .u16(0)
        .u16(4)
        .u16(0)
        .u16(3)
        .floats(&[0.25, 0.25])
        .u16(4)
        .floats(&[0.75, 0.25])
        .u16(5)
        .floats(&[0.75, 0.75])
        .u16(6)
        .floats(&[0.25, 0.75])
        .done();
    let p = check_record(0x0204, &bytes, model::parse_polygons, model::write_polygons);
    assert_eq!(p.polygons.len(), 2);
    assert_eq!((p.polygons[0].flags, p.polygons[0].texture_index), (2, 1));
    assert_eq!(p.polygons[0].vertices[1], PolyVertex { index: 1, uv: [f(1.0), f(0.0)] });
    assert_eq!(p.polygons[1].vertices.len(), 4);
    assert_eq!(p.polygons[1].vertices[3], PolyVertex { index: 6, uv: [f(0.25), f(0.75)] });
    // Five vertices: refused, naming the count's offset.
    let five = B::new().u16(1).u16(0).u16(5).u16(0).bytes(&[0; 50]).done();
    let err = model::parse_polygons(&five, 0x40).unwrap_err();
    assert_eq!(err.location().unwrap().offset, 0x40 + 4, "{err}");
    assert!(err.to_string().contains("5 vertices"), "{err}");
}

#[test]
fn bsp_0x0205_textures_0x0206_reo_lod_0x0209() {
    let bytes = B::new().u16(1).u16(1).u16(2).u16(3).u16(2).u16(10).u16(11).u16(12).u16(13).done();
    let b = check_record(0x0205, &bytes, model::parse_bsp, model::write_bsp);
    assert_eq!((b.entries[0].vertices, b.entries[0].polys.clone()), ([1, 2, 3], vec![10, 11, 12, 13]));

    let bytes = B::new().u32(3).r#ref(1, 0).r#ref(0, 0).r#ref(3, 1).done();
    let t = check_record(0x0206, &bytes, model::parse_textures, model::write_textures);
    assert_eq!(t.textures, vec![r(1, 0), r(0, 0), r(3, 1)]);
    assert_eq!(t.used(), vec![r(1, 0), r(3, 1)]);

    let bytes = B::new().u16(12).f32(100.0).done();
    let l = check_record(0x0209, &bytes, model::parse_reo_lod, model::write_reo_lod);
    assert_eq!((l.record_id, l.threshold_distance), (12, f(100.0)));
}

/// `bounding_info`: sphere (centre, radius), then obb (centre, 3 × 3).
fn bounding_info(b: B) -> B {
    b.floats(&[1.0, 2.0, 3.0, 4.0]).floats(&[0.5, 0.5, 0.5]).floats(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0])
}

#[test]
fn bounds_0x0207_spheres_and_boxes() {
    let bytes = bounding_info(B::new())
        .u16(2)
        .u16(0) // spheres
        .u16(1)
        .u16(0)
        .u16(0)
        .u16(0)
        .floats(&[0.0, 1.0, 0.0, 2.0])
        .floats(&[0.0, -1.0, 0.0, 0.5])
        .done();
    let b = check_record(0x0207, &bytes, model::parse_bounds, model::write_bounds);
    assert_eq!(b.bounding_info.sphere, Sphere { center: [f(1.0), f(2.0), f(3.0)], radius: f(4.0) });
    assert_eq!(b.bounding_info.obb.xform[4], f(1.0));
    assert_eq!(b.hierarchy, vec![[1, 0], [0, 0]]);
    assert_eq!(
        b.shapes,
        Shapes::Spheres(vec![
            Sphere { center: [f(0.0), f(1.0), f(0.0)], radius: f(2.0) },
            Sphere { center: [f(0.0), f(-1.0), f(0.0)], radius: f(0.5) },
        ])
    );

    let bytes = bounding_info(B::new())
        .u16(1)
        .u16(1) // boxes
        .u16(0)
        .u16(0)
        .floats(&[9.0, 8.0, 7.0])
        .floats(&[2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0])
        .u16(3)
        .u16(4)
        .u16(5)
        .u16(6)
        .done();
    let b = check_record(0x0207, &bytes, model::parse_bounds, model::write_bounds);
    let Shapes::Boxes(boxes) = &b.shapes else { panic!("boxes") };
    assert_eq!(boxes[0].obb.center, [f(9.0), f(8.0), f(7.0)]);
    assert_eq!(boxes[0].poly_indices, vec![4, 5, 6]);
}

/// A character with 2 LODs, 2 nodes (one joint), 1 joint, 1 mesh per LOD, 2 animations, 1 channel with
/// 1 cap, then the bounds as `tail` writes them.
fn character_fixture(tail: impl Fn(B) -> B) -> Vec<u8> {
    let ident: [f32; 12] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.5, 1.5, -2.0];
    // 32-byte names: "Bip01 Pelvis" with junk after its NUL; "Effector" zero-padded.
    let mut name = [0u8; 32];
    name[..12].copy_from_slice(b"Bip01 Pelvis");
    name[13..17].copy_from_slice(b"junk");
    let mut effector = [0u8; 32];
    effector[..8].copy_from_slice(b"Effector");
    let b = bounding_info(B::new())
        .u16(2) // LODs
        .str("Low")
        .u16(2) // nodes
        .bytes(&name)
        .i32(0)
        .bytes(&effector)
        .i32(-1)
        .u16(1) // joints
        .floats(&ident)
        .i32(0)
        .i32(0)
        .i32(0)
        .u16(2) // LOD 0 weights
        .u32(0)
        .f32(1.0)
        .u32(1)
        .f32(0.5)
        .u16(1) // LOD 1 weights
        .u32(0)
        .f32(1.0)
        .u16(1) // LOD 0 meshes
        .f32(0.0)
        .u32(1)
        .u32(0)
        .u32(0)
        .u32(8)
        .u32(0)
        .u32(12)
        .u16(1) // LOD 1 meshes
        .f32(50.0)
        .u32(1)
        .u32(0)
        .u32(8)
        .u32(4)
        .u32(12)
        .u32(6)
        .u16(2) // animations
        .r#ref(0x40, 0)
        .r#ref(0x41, 0)
        .u16(1) // channels
        .i32(0)
        .floats(&ident)
        .floats(&ident)
        .u16(1) // caps
        .u32(1)
        .u32(2)
        .u32(3)
        .u32(4)
        .u32(5)
        .u16(1)
        .u32(7)
        .f32(0.25);
    tail(b).done()
}

fn sphere(b: B, vertex: u32, radius: f32) -> B {
    b.u16(1).u16(0).u32(vertex).f32(radius).u16(0).u16(0xBEEF)
}

#[test]
fn character_0x0208_as_corrections_md_reads_it() {
    // docs/formats/drakan.md#character: u16 LOD count, then one 16-byte sphere per LOD.
    let bytes = character_fixture(|b| sphere(sphere(b.u16(2), 20, 1.5), 21, 0.75));
    let c = check_record(0x0208, &bytes, character::parse, character::write);
    assert_eq!(c.lod_names.iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["Low"]);
    assert_eq!(c.nodes[0].name, "Bip01 Pelvis");
    assert!(c.nodes[0].name_raw.is_some(), "junk after the NUL is kept");
    assert_eq!((c.nodes[1].name.as_str(), c.nodes[1].name_raw.is_none()), ("Effector", true));
    assert_eq!(c.nodes[1].joint_info_index, -1);
    let j = &c.joints[0];
    assert_eq!(j.inverted_model_rel_xform.translation, [f(0.5), f(1.5), f(-2.0)]);
    assert_eq!(
        j.weights_per_lod,
        vec![
            vec![VertexWeight { vertex_index: 0, weight: f(1.0) }, VertexWeight { vertex_index: 1, weight: f(0.5) }],
            vec![VertexWeight { vertex_index: 0, weight: f(1.0) }],
        ]
    );
    assert_eq!(c.lod_meshes.len(), 2);
    assert_eq!(
        c.lod_meshes[1],
        vec![LodMeshInfo {
            distance_threshold: f(50.0),
            usage: 1,
            node_index: 0,
            first_vertex_index: 8,
            num_vertices: 4,
            first_poly_index: 12,
            num_polys: 6
        }]
    );
    assert_eq!(c.anim_ids, vec![r(0x40, 0), r(0x41, 0)]);
    let cap = &c.channels[0].lod_caps[0];
    assert_eq!(
        (cap.first_cap_poly_index, cap.num_cap_polys, cap.first_part_poly_index, cap.num_part_polys, cap.unk),
        (1, 2, 3, 4, 5)
    );
    assert_eq!(cap.vertex_weights, vec![VertexWeight { vertex_index: 7, weight: f(0.25) }]);
    let s = |v, radius| CharSphere {
        first_child: 1,
        next_sibling: 0,
        position_vertex_id: v,
        radius: f(radius),
        channel_index: 0,
        unknown2: 0xBEEF,
    };
    assert_eq!(c.bounds, CharBounds::OnePerLod(vec![s(20, 1.5), s(21, 0.75)]));
    assert!(c.trailing.0.is_empty());
}

#[test]
fn character_0x0208_as_the_spec_reads_it() {
    // The spec (and OpenDrakan): per LOD a u16 count and that many spheres.
    let bytes = character_fixture(|b| sphere(b.u16(2).u16(1), 20, 1.5).u16(0));
    let c = check_record(0x0208, &bytes, character::parse, character::write);
    let CharBounds::Lists(lists) = &c.bounds else { panic!("{:?}", c.bounds) };
    assert_eq!((lists.len(), lists[0].len(), lists[1].len()), (2, 1, 0));
    assert_eq!(lists[0][0].position_vertex_id, 20);
    // Zero LODs: refused.
    let mut zero = character_fixture(|b| b.u16(0));
    zero[64] = 0;
    let err = character::parse(&zero, 0).unwrap_err();
    assert_eq!(err.location().unwrap().offset, 64, "{err}");
}

#[test]
fn animation_info_0x0501_frames_0x0502_lookup_0x0503() {
    let bytes = B::new()
        .str("Walk")
        .f32(1.25)
        .u32(40)
        .u32(20)
        .u32(0x01)
        .u32(30)
        .u32(12)
        .u32(0)
        .u32(2)
        .floats(&[0.01, 0.02, 0.03])
        .done();
    let a = check_record(0x0501, &bytes, animation::parse_info, animation::write_info);
    assert_eq!((a.name.text.as_str(), a.duration, a.original_num_frames, a.num_frames), ("Walk", f(1.25), 40, 20));
    assert_eq!((a.flags.value, a.model_num_nodes, a.model_num_channels, a.unk1, a.ref_count), (1, 30, 12, 0, 2));
    assert_eq!((a.rotation_threshold, a.scale_threshold, a.translation_threshold), (f(0.01), f(0.02), f(0.03)));
    assert_eq!(serde_json::to_value(a.flags).unwrap()["names"], serde_json::json!(["non_looping"]));

    // Frames, with a NaN payload and a negative zero that JSON must keep bit for bit.
    let mut b = B::new().u16(2).f32(0.0).floats(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 3.0]);
    b = b.f32(0.5).u32(0x7FC0_0001).floats(&[-0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1e-30]);
    let bytes = b.done();
    let fr = check_record(0x0502, &bytes, animation::parse_frames, animation::write_frames);
    assert_eq!(fr.frames[0].xform.translation, [f(1.0), f(2.0), f(3.0)]);
    assert_eq!(fr.frames[1].t, f(0.5));
    assert_eq!(fr.frames[1].xform.linear[0], F32(0x7FC0_0001));
    assert_eq!(fr.frames[1].xform.linear[1], F32(0x8000_0000));
    let json = serde_json::to_string(&fr).unwrap();
    assert!(json.contains("\"nan:0x7FC00001\"") && json.contains("-0.0"), "{json}");

    let bytes = B::new().u16(2).u32(0).u32(1).u32(1).u32(3).done();
    let l = check_record(0x0503, &bytes, animation::parse_lookup, animation::write_lookup);
    assert_eq!(l.nodes.iter().map(|n| (n.first_frame_index, n.num_frames)).collect::<Vec<_>>(), vec![(0, 1), (1, 3)]);
}
