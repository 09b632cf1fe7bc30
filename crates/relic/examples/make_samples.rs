//! Writes `samples/`: small files of every format relic supports, made by relic's own writers, so that the
//! README's main command (`relic convert -o out samples`) works on a fresh clone.
//!
//! Run from the repository root: `cargo run -p relic --example make_samples`. The test
//! `samples_match_generator` checks that the committed files are what this program writes.

use std::path::Path;

use relic::bytes::Hex;
use relic::evil_islands::db::types::{Database, RecordBody, TableBody};
use relic::evil_islands::db::{DbDocument, Field, FileType, LengthEncoding, Record, Table, Value};
use relic::evil_islands::mmp::PixelFormat;
use relic::evil_islands::res::{write_archive, PackInput, PackOptions, PackSource};
use relic::ragnarok::grf;
use relic::ragnarok::rsm::{
    self, Face, Mesh, Name, RotationKey, Rsm, TexVertex, TextureAnimation, TextureChannel, TextureKey, Version,
};

/// 2001-03-30, the time stamp of the game's own text archives.
const TIME: u32 = 985_950_276;

fn entry(name: &str, data: &[u8]) -> PackInput {
    PackInput {
        name: relic::evil_islands::res::write::encode_name(name).unwrap_or_else(|e| panic!("{e}")),
        modified: TIME,
        source: PackSource::Bytes(data.to_vec()),
    }
}

fn res(entries: Vec<PackInput>) -> Vec<u8> {
    let mut out = Vec::new();
    write_archive(entries, PackOptions::default(), &mut out).unwrap_or_else(|e| panic!("{e}"));
    out
}

fn field(index: u8, value: Value) -> Field {
    Field { type_byte: index, long: false, value }
}

fn table(type_byte: u8, records: Vec<Vec<Field>>) -> Table {
    let records = records
        .into_iter()
        .map(|fields| Record { type_byte: 0, long: false, body: RecordBody::Fields(fields) })
        .collect();
    Table { type_byte, long: false, name: None, name_ru: None, layout: None, body: TableBody::Records(records) }
}

/// An items database (`.idb`): two materials and one weapon, fields typed by the spec's format strings
/// (materials `SSSIFFFIFIFfIX`, weapons `SSISIIIFFFFIFIXB00000IHFFFfHHFF`).
fn items_db() -> Vec<u8> {
    let s = |t: &str| Value::String(t.to_string());
    let material = |name: &str, ru: &str, price: i32, weight: f32| {
        vec![
            field(0, s(name)),
            field(1, s(ru)),
            field(2, s("")),
            field(3, Value::Int(price)),
            field(4, Value::Float(weight)),
            field(11, Value::Floats(vec![1.0, 0.5, 0.25])),
            field(13, Value::Bits("10100000".into())),
        ]
    };
    let weapon = vec![
        field(0, s("Sword")),
        field(1, s("Меч")),
        field(2, Value::Int(3)),
        field(7, Value::Float(2.5)),
        field(14, Value::Bits("11000000".into())),
        field(15, Value::Bool(true)),
        field(22, Value::Hex(Hex(vec![0x00, 0x00, 0x80, 0x3F]))),
        field(26, Value::Floats(vec![10.0, 12.5])),
    ];
    let doc = DbDocument {
        format: "ei-db".into(),
        file_type: FileType::Items,
        length_encoding: LengthEncoding::U32Le,
        database: Database {
            type_byte: 1,
            long: false,
            tables: vec![
                table(1, vec![material("Iron", "Железо", 10, 7.8), material("Bronze", "Бронза", 8, 8.5)]),
                table(2, vec![weapon]),
            ],
        },
        trailer: vec![],
    };
    relic::evil_islands::db::write_document(&doc).unwrap_or_else(|e| panic!("{e}"))
}

/// A textured square pyramid (apex up: model space is Y-down) turning once about its vertical axis over
/// two seconds: milliseconds in 1.4, 60 frames at 30 fps in 2.3, where its texture also scrolls.
fn pyramid(version: Version) -> Vec<u8> {
    let mut rsm = Rsm::new(version);
    rsm.animation_length = if version.is_rsm2() { 60 } else { 2000 };
    rsm.shade_type = 1;
    rsm.root_names = vec![Name::new("pyramid")];
    let mut m = Mesh::new(version, "pyramid");
    if version.has_mesh_textures() {
        m.textures = vec![Name::new("stone.bmp")];
    } else {
        rsm.textures = vec![Name::new("stone.bmp")];
        m.texture_indices = vec![0];
    }
    m.vertices = vec![[-1.0, 0.0, -1.0], [1.0, 0.0, -1.0], [1.0, 0.0, 1.0], [-1.0, 0.0, 1.0], [0.0, -2.0, 0.0]];
    m.tex_vertices = [[0.0, 1.0], [1.0, 1.0], [0.5, 0.0], [0.0, 0.0], [1.0, 0.0]]
        .map(|uv| TexVertex { color: Some(0xFFFF_FFFF), uv })
        .to_vec();
    let side = |v: [u16; 3]| Face { vertices: v, tex_vertices: [0, 1, 2], smooth_groups: vec![1], ..Face::default() };
    let base =
        |v: [u16; 3], t: [u16; 3]| Face { vertices: v, tex_vertices: t, smooth_groups: vec![2], ..Face::default() };
    m.faces = vec![
        side([0, 1, 4]),
        side([1, 2, 4]),
        side([2, 3, 4]),
        side([3, 0, 4]),
        base([0, 2, 1], [3, 1, 4]),
        base([0, 3, 2], [3, 0, 1]),
    ];
    // Half turns about Y: identity, 180°, back to identity (q and −q are the same rotation).
    let end = rsm.animation_length;
    m.rotation_keys = vec![
        RotationKey { frame: 0, quaternion: [0.0, 0.0, 0.0, 1.0] },
        RotationKey { frame: end / 2, quaternion: [0.0, 1.0, 0.0, 0.0] },
        RotationKey { frame: end, quaternion: [0.0, 0.0, 0.0, -1.0] },
    ];
    if version.has_mesh_textures() {
        m.texture_animations = vec![TextureAnimation {
            texture: 0,
            channels: vec![TextureChannel {
                kind: rsm::texture_kind::TRANSLATE_U,
                keys: vec![TextureKey { frame: 0, value: 0.0 }, TextureKey { frame: end, value: 1.0 }],
            }],
        }];
        // As real 2.3 files: no volume-box count at the end.
        rsm.volume_boxes = None;
    }
    rsm.meshes.push(m);
    rsm::write(&rsm).unwrap_or_else(|e| panic!("{e}"))
}

/// Every sample: path under `samples/` and bytes.
pub fn build() -> Vec<(&'static str, Vec<u8>)> {
    // A bone set is itself a RES of 96-byte entries (8 × vec3) without extensions (spec "Bon").
    let bones: Vec<u8> = (0..24u32).flat_map(|i| (i as f32 * 0.25).to_le_bytes()).collect();
    let bon = res(vec![entry("head", &bones), entry("body", &bones[..].iter().rev().copied().collect::<Vec<_>>())]);
    let greeting = "Привет, Гипат!\r\n".to_string();
    let greeting = relic::codec::text::encode(relic::codec::text::CP1251, &greeting).unwrap_or_default();
    let archive = res(vec![
        entry("readme.txt", b"A sample RES archive written by relic.\r\n"),
        entry("texts\\quest q1", b"Find the lost soul.\r\n"),
        // Same bytes under a second name: stored once (deduplicated).
        entry("texts\\quest q1 copy", b"Find the lost soul.\r\n"),
        entry("тексты\\привет.txt", &greeting),
        entry("unit.bon", &bon),
    ]);
    vec![
        ("evil_islands/example.res", archive),
        ("evil_islands/items.idb", items_db()),
        ("evil_islands/example_dxt1.mmp", texture(16, PixelFormat::Dxt1, true)),
        ("evil_islands/example_argb4.mmp", texture(8, PixelFormat::Argb4, false)),
        ("evil_islands/level.mob", level()),
        ("evil_islands/settings.reg", reg()),
        ("evil_islands/intro.cam", cam()),
        ("evil_islands/unhuma.adb", adb()),
        ("evil_islands/unit.lnk", unit_lnk()),
        ("evil_islands/body.fig", body_fig()),
        ("evil_islands/body.bon", body_bon()),
        ("evil_islands/body.anm", body_anm()),
        // A whole figure: the model (LNK + FIG parts), its bone set and its animation set, as the game keeps
        // them side by side; `relic convert unit.mod` finds the other two and makes one glTF.
        (
            "evil_islands/unit.mod",
            res(vec![entry("unit", &unit_lnk()), entry("body", &body_fig()), entry("head", &body_fig())]),
        ),
        ("evil_islands/unit.bon", res(vec![entry("body", &body_bon()), entry("head", &body_bon())])),
        ("evil_islands/unit.anm", res(vec![entry("idle", &res(vec![entry("body", &body_anm())]))])),
        ("evil_islands/unit.mmp", texture(8, PixelFormat::Argb4, false)),
        ("evil_islands/isle.mp", isle_mp()),
        ("evil_islands/isle000000.sec", isle_sector(0)),
        ("evil_islands/isle001000.sec", isle_sector(1)),
        ("ragnarok/example.grf", grf_sample()),
        ("ragnarok/pyramid.rsm", pyramid(Version::new(1, 4))),
        ("ragnarok/pyramid.rsm2", pyramid(Version::new(2, 3))),
        // A texture as the client keeps them in `data\texture\` (`ro-texture`: BMP, or TGA by extension).
        ("ragnarok/wall.bmp", tiny_bmp()),
        // A dye palette as the client keeps them in `data\palette\` (`ro-pal`): index 0 the magenta the
        // sprites leave transparent, then a ramp.
        ("ragnarok/dye.pal", dye_pal()),
        // A layer order as the client keeps them in `data\imf\` (`ro-imf`): the novice's, male.
        ("ragnarok/novice_m.imf", novice_imf()),
        ("drakan/Dragon.rrc", dragon_rrc()),
        ("drakan/Sample.db", b"version 1.0\r\ndependencies 1\r\n1 Common\r\n".to_vec()),
        ("drakan/Sample.txd", sample_txd()),
        ("drakan/Sample.sdb", sample_sdb()),
        ("drakan/Common.db", b"version 1.0\r\ndependencies 0\r\n".to_vec()),
        ("drakan/Common.txd", common_txd()),
        // A static crate and a skinned character (`Wisp`, three joints, two LODs) whose animation is in
        // the database's `.adb`: `relic convert Sample.mod` makes one `.glb` per model.
        ("drakan/Sample.mod", sample_mod()),
        ("drakan/Sample.adb", sample_adb()),
        // A level of two landscape layers textured from `Sample.txd`: `relic convert Sample.lvl` makes
        // `terrain.glb` and a 16-bit heightmap per layer.
        ("drakan/Sample.lvl", sample_lvl()),
        ("dark_reign/BARREN.PAL", barren_pal()),
        ("dark_reign/SPRITES.FTG", sprites_ftg()),
        ("dark_reign/unit.spr", dark_reign_unit()),
        ("freerct/tiles.rcd", freerct_tiles()),
        ("freerct/baseset.rcd", freerct_baseset()),
    ]
}

/// A Drakan texture record through relic's writer: stored (or zlib-compressed) pixels, bottom row first.
fn drakan_texture(width: u32, height: u32, bpp: u16, flags: u32, fps: u8, pixels: &[u8], zlib: bool) -> Vec<u8> {
    use relic::drakan::records::common::Flags;
    use relic::drakan::records::texture::{self, Texture, NO_COLOUR_KEY};
    use relic::drakan::records::Ref;
    let data = if zlib { relic::codec::zlib::compress(pixels, 9) } else { pixels.to_vec() };
    let compressed_size = data.len() as u32;
    texture::write(&Texture {
        width,
        height,
        pitch: width * u32::from(bpp) / 8,
        bits_per_pixel: bpp,
        alpha_bits: 0,
        colour_key: NO_COLOUR_KEY,
        mip_map: Ref::default(),
        alternate: Ref::default(),
        bump_map: Ref::default(),
        animation_fps: fps,
        flags: Flags::new(flags),
        mip_map_number: 0,
        material: Ref::default(),
        ref_count: 0,
        compression_level: if zlib { 9 } else { 0 },
        compressed_size,
        data: relic::bytes::Base64(data),
        alpha_map: None,
        trailing: Hex(vec![]),
        data_offset: 0,
    })
}

/// A column-vector matrix in the form Drakan stores it (`mat3x4f` applied to row vectors, docs/formats/drakan.md#matrices):
/// the rows of the linear part are the matrix's columns.
fn drakan_matrix(m: glam::Mat4) -> relic::drakan::records::common::Mat3x4 {
    use relic::codec::float::F32;
    let c = m.to_cols_array();
    relic::drakan::records::common::Mat3x4 {
        linear: [c[0], c[1], c[2], c[4], c[5], c[6], c[8], c[9], c[10]].map(F32::new),
        translation: [c[12], c[13], c[14]].map(F32::new),
    }
}

/// Polygons over `vertices` (corner lists of a convex shape around `centre`), stored clockwise seen from
/// outside as Drakan has them, with UVs from `uv`.
fn drakan_polygons(
    vertices: &[[f32; 3]],
    faces: &[(&[u16], u16, u16)],
    centre: [f32; 3],
    uv: impl Fn([f32; 3]) -> [f32; 2],
) -> relic::drakan::records::model::Polygons {
    use glam::Vec3;
    use relic::codec::float::F32;
    use relic::drakan::records::model::{PolyVertex, Polygon, Polygons};
    let at = |i: u16| Vec3::from_array(vertices[usize::from(i)]);
    let polygons = faces
        .iter()
        .map(|&(corners, flags, texture_index)| {
            let mut corners = corners.to_vec();
            let (a, b, c) = (at(corners[0]), at(corners[1]), at(corners[2]));
            // Counter-clockwise from outside when the right-hand normal points away from the centre; Drakan
            // stores the other way round.
            if (b - a).cross(c - a).dot(a - Vec3::from_array(centre)) > 0.0 {
                corners.reverse();
            }
            Polygon {
                flags,
                texture_index,
                vertices: corners
                    .iter()
                    .map(|&i| PolyVertex { index: i, uv: uv(vertices[usize::from(i)]).map(F32::new) })
                    .collect(),
            }
        })
        .collect();
    Polygons { polygons, trailing: Hex(vec![]) }
}

/// `Sample.mod`: model 1 `Crate`, a unit box of six quads textured with `Sample.txd` 2 and 3 (flat shaded,
/// one side double sided, a REO LOD and a bounding sphere); model 2 `Wisp`, a character: a diamond column
/// over three joints (`base`, `waist`, `crown`) with two LODs and animation 1 of `Sample.adb`.
fn sample_mod() -> Vec<u8> {
    use glam::{Mat4, Vec3};
    use relic::codec::float::F32;
    use relic::drakan::records::character::{
        CharBounds, CharSphere, Character, JointInfo, LodMeshInfo, NodeInfo, VertexWeight,
    };
    use relic::drakan::records::common::{BoundingInfo, Flags, Name, Sphere};
    use relic::drakan::records::model::{self, Bounds, ModelName, ReoLod, Shapes, TextureList, Vertices};
    use relic::drakan::records::{character, Ref};
    use relic::drakan::srsc::{write_packed, NewRecord};
    let v3 = |p: [f32; 3]| p.map(F32::new);
    let name = |text: &str, shading: u32| {
        model::write_name(&ModelName { name: Name::new(text), shading: Flags::new(shading), trailing: Hex(vec![]) })
    };
    let vertices = |list: &[[f32; 3]]| {
        model::write_vertices(&Vertices { vertices: list.iter().map(|&p| v3(p)).collect(), trailing: Hex(vec![]) })
    };
    let record = |record_type, id, body| NewRecord { record_type, id, group: 0, body };

    // The crate: corner i has x = bit 0, y = bit 1, z = bit 2 (0 or 1).
    let corners: Vec<[f32; 3]> = (0..8).map(|i| [i & 1, i >> 1 & 1, i >> 2 & 1].map(|b| b as f32)).collect();
    let crate_faces: [(&[u16], u16, u16); 6] = [
        (&[1, 3, 7, 5], 0, 0),
        (&[0, 4, 6, 2], 0, 0),
        (&[2, 6, 7, 3], 0, 1),
        (&[0, 1, 5, 4], 0x0002, 1),
        (&[4, 5, 7, 6], 0, 0),
        (&[0, 2, 3, 1], 0, 0),
    ];
    let bounds = Bounds {
        bounding_info: BoundingInfo {
            sphere: Sphere { center: v3([0.5; 3]), radius: F32::new(0.87) },
            ..Default::default()
        },
        is_obb: 0,
        hierarchy: vec![[0, 0]],
        shapes: Shapes::Spheres(vec![Sphere { center: v3([0.5; 3]), radius: F32::new(0.87) }]),
        trailing: Hex(vec![]),
    };
    let textures = TextureList { textures: vec![Ref { id: 2, db: 0 }, Ref { id: 3, db: 0 }], trailing: Hex(vec![]) };

    // The wisp: LOD 0 is a column of a base point, two square rings and a crown point; LOD 1 a diamond.
    let ring = |y: f32, r: f32| [[r, y, 0.0], [0.0, y, r], [-r, y, 0.0], [0.0, y, -r]];
    let mut wisp: Vec<[f32; 3]> = vec![[0.0, 0.0, 0.0]];
    wisp.extend(ring(1.0, 0.4));
    wisp.extend(ring(2.0, 0.3));
    wisp.push([0.0, 3.0, 0.0]);
    let lod1_start = wisp.len() as u16;
    wisp.push([0.0, 0.0, 0.0]);
    wisp.extend(ring(1.5, 0.35));
    wisp.push([0.0, 3.0, 0.0]);
    let mut faces: Vec<(Vec<u16>, u16, u16)> = Vec::new();
    for k in 0..4u16 {
        let (a, b) = (1 + k, 1 + (k + 1) % 4);
        faces.push((vec![0, b, a], 0, 0));
        faces.push((vec![a, b, b + 4, a + 4], 0, 0));
        faces.push((vec![a + 4, b + 4, 9], 0, 0));
    }
    let lod0_polys = faces.len() as u32;
    for k in 0..4u16 {
        // LOD 1 indices are relative to its first vertex.
        let (a, b) = (1 + k, 1 + (k + 1) % 4);
        faces.push((vec![0, b, a], 0, 0));
        faces.push((vec![a, b, 5], 0, 0));
    }
    let lod1_polys = faces.len() as u32 - lod0_polys;
    let face_refs: Vec<(&[u16], u16, u16)> = faces.iter().map(|(c, f, t)| (c.as_slice(), *f, *t)).collect();
    // LOD 1 faces index its own vertices.
    let wisp_uv = |p: [f32; 3]| [((p[0] + p[2]) + 0.5).clamp(0.0, 1.0), p[1] / 3.0];
    let centre = [0.0, 1.5, 0.0];
    let mut polys = drakan_polygons(&wisp, &face_refs[..lod0_polys as usize], centre, wisp_uv);
    let lod1_faces = &face_refs[lod0_polys as usize..];
    polys.polygons.extend(drakan_polygons(&wisp[usize::from(lod1_start)..], lod1_faces, centre, wisp_uv).polygons);
    let bind = [Mat4::IDENTITY, Mat4::from_translation(Vec3::Y), Mat4::from_translation(Vec3::Y * 2.0)];
    // Weights by height: each vertex between two joints is shared by them.
    let weights_for = |list: &[[f32; 3]], joint: usize| -> Vec<VertexWeight> {
        list.iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let w = (1.0 - (p[1] - joint as f32).abs()).max(0.0);
                let w = if joint == 2 && p[1] > 2.0 { 1.0 } else { w };
                (w > 0.0).then(|| VertexWeight { vertex_index: i as u32, weight: F32::new(w) })
            })
            .collect()
    };
    let (lod0, lod1) = wisp.split_at(usize::from(lod1_start));
    let joints: Vec<JointInfo> = (0..3)
        .map(|j| JointInfo {
            inverted_model_rel_xform: drakan_matrix(bind[j].inverse()),
            mesh_index: 0,
            first_child_index: if j < 2 { j as i32 + 1 } else { 0 },
            next_sibling_index: 0,
            weights_per_lod: vec![weights_for(lod0, j), weights_for(lod1, j)],
        })
        .collect();
    let node = |name: &str, joint: i32| NodeInfo { name: name.into(), name_raw: None, joint_info_index: joint };
    let mesh_info =
        |distance: f32, first_vertex: u32, num_vertices: u32, first_poly: u32, num_polys: u32| LodMeshInfo {
            distance_threshold: F32::new(distance),
            usage: 0,
            node_index: 0,
            first_vertex_index: first_vertex,
            num_vertices,
            first_poly_index: first_poly,
            num_polys,
        };
    let character = Character {
        bounding_info: BoundingInfo {
            sphere: Sphere { center: v3([0.0, 1.5, 0.0]), radius: F32::new(1.6) },
            ..Default::default()
        },
        lod_names: vec![Name::new("Wisp_low")],
        nodes: vec![node("base", 0), node("waist", 1), node("crown", 2), node("crown_effector", -1)],
        joints,
        lod_meshes: vec![
            vec![mesh_info(0.0, 0, u32::from(lod1_start), 0, lod0_polys)],
            vec![mesh_info(40.0, u32::from(lod1_start), lod1.len() as u32, lod0_polys, lod1_polys)],
        ],
        anim_ids: vec![Ref { id: 1, db: 0 }],
        channels: vec![],
        bounds: CharBounds::OnePerLod(vec![CharSphere::default(); 2]),
        trailing: Hex(vec![]),
    };
    write_packed(
        0x0100,
        &[
            record(0x0200, 1, name("Crate", 0x8001)),
            record(0x0203, 1, vertices(&corners)),
            record(
                0x0204,
                1,
                model::write_polygons(&drakan_polygons(&corners, &crate_faces, [0.5; 3], |p| [p[0], p[1].max(p[2])])),
            ),
            record(0x0206, 1, model::write_textures(&textures)),
            record(0x0207, 1, model::write_bounds(&bounds)),
            record(
                0x0209,
                1,
                model::write_reo_lod(&ReoLod {
                    record_id: 1,
                    threshold_distance: F32::new(64.0),
                    trailing: Hex(vec![]),
                }),
            ),
            record(0x0200, 2, name("Wisp", 0x8002)),
            record(0x0203, 2, vertices(&wisp)),
            record(0x0204, 2, model::write_polygons(&polys)),
            record(
                0x0206,
                2,
                model::write_textures(&TextureList { textures: vec![Ref { id: 2, db: 0 }], trailing: Hex(vec![]) }),
            ),
            record(0x0208, 2, character::write(&character)),
        ],
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// `Sample.adb`: animation 1 `sway` of the wisp: the waist and crown lean ±20° about Z and back in 1 s.
fn sample_adb() -> Vec<u8> {
    use glam::{Mat4, Vec3};
    use relic::codec::float::F32;
    use relic::drakan::records::animation::{self, AnimationInfo, FrameRange, Frames, KeyFrame, Lookup};
    use relic::drakan::records::common::{Flags, Name};
    use relic::drakan::srsc::{write_packed, NewRecord};
    let lean = |deg: f32| Mat4::from_translation(Vec3::Y) * Mat4::from_rotation_z(deg.to_radians());
    let keys = |list: &[(f32, Mat4)]| -> Vec<KeyFrame> {
        list.iter().map(|&(t, m)| KeyFrame { t: F32::new(t), xform: drakan_matrix(m) }).collect()
    };
    let mut frames = keys(&[(0.0, Mat4::IDENTITY)]);
    frames.extend(keys(&[(0.0, lean(0.0)), (0.5, lean(20.0)), (1.0, lean(0.0))]));
    frames.extend(keys(&[(0.0, lean(0.0)), (0.5, lean(-20.0)), (1.0, lean(0.0))]));
    let range = |first, num| FrameRange { first_frame_index: first, num_frames: num };
    let info = AnimationInfo {
        name: Name::new("sway"),
        duration: F32::new(1.0),
        original_num_frames: 3,
        num_frames: 3,
        flags: Flags::new(0),
        model_num_nodes: 4,
        model_num_channels: 0,
        unk1: 0,
        ref_count: 1,
        rotation_threshold: F32::new(0.01),
        scale_threshold: F32::new(0.01),
        translation_threshold: F32::new(0.01),
        trailing: Hex(vec![]),
    };
    let record = |record_type, body| NewRecord { record_type, id: 1, group: 0, body };
    write_packed(
        0x0100,
        &[
            record(0x0501, animation::write_info(&info)),
            record(0x0502, animation::write_frames(&Frames { frames, trailing: Hex(vec![]) })),
            record(
                0x0503,
                animation::write_lookup(&Lookup {
                    nodes: vec![range(0, 1), range(1, 3), range(4, 3)],
                    trailing: Hex(vec![]),
                }),
            ),
        ],
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// `Sample.lvl`: level info (one database reference, index 1 → `Sample`, found beside the level) and two
/// layers: `Meadow`, a 6 × 6 floor with a hill, a hole, an invisible triangle and both cell divisions, and
/// `Ledge`, a 2 × 2 ceiling above it.
fn sample_lvl() -> Vec<u8> {
    use relic::codec::float::F32;
    use relic::drakan::records::common::Name;
    use relic::drakan::records::level::{self, DatabaseRef, LayerBlock, LayerDefinition, Layers, LevelInfo};
    use relic::drakan::srsc::{write_packed, NewRecord};
    // Vertices (u8 type, u8 0, u16 v; height = (v − 0x8000)·2), then cells (u16 flags, left and right
    // texture refs, 8 × u16 texture coordinates), docs/formats/drakan.md#lvl.
    let grid =
        |w: u32, h: u32, height: &dyn Fn(u32, u32) -> i32, cell: &dyn Fn(u32, u32) -> (u16, [u16; 2], [u16; 2])| {
            let mut out = Vec::new();
            for row in 0..=h {
                for col in 0..=w {
                    out.extend([0u8, 0]);
                    out.extend(((0x8000 + height(col, row) / 2) as u16).to_le_bytes());
                }
            }
            // Corner A (top left) = (0, 1), B = (1, 1), C = (0, 0), D = (1, 0): the texture once per cell.
            let uv: [u16; 8] = [0, 0xFFFF, 0xFFFF, 0, 0, 0, 0xFFFF, 0xFFFF];
            for row in 0..h {
                for col in 0..w {
                    let (flags, left, right) = cell(col, row);
                    out.extend(flags.to_le_bytes());
                    for half in [left, right] {
                        out.extend(half[0].to_le_bytes());
                        out.extend(half[1].to_le_bytes());
                    }
                    for t in uv {
                        out.extend(t.to_le_bytes());
                    }
                }
            }
            LayerBlock { data: relic::bytes::Base64(relic::codec::zlib::compress(&out, 9)), offset: 0 }
        };
    let hill = |col: u32, row: u32| {
        let (dx, dz) = (col as f32 - 3.0, row as f32 - 3.0);
        (600.0 * (-(dx * dx + dz * dz) / 4.0).exp()) as i32 * 2
    };
    const HOLE: [u16; 2] = [0xFFFF, 0xFFFF];
    const INVISIBLE: [u16; 2] = [0xFFFE, 0xFFFF];
    let meadow_cell = |col: u32, row: u32| {
        let texture = [if (col + row) % 2 == 0 { 2 } else { 3 }, 1];
        match (col, row) {
            (4, 1) => (0, HOLE, HOLE),
            (1, 4) => (0, INVISIBLE, texture),
            _ => (if col < 3 { 0x0001 } else { 0 }, texture, texture),
        }
    };
    let definition =
        |id: u32, name: &str, size: u32, layer_type: u32, origin: u32, world_height: f32| LayerDefinition {
            id,
            width: size,
            height: size,
            layer_type,
            origin_x: origin,
            origin_y: origin,
            world_height: F32::new(world_height),
            name: Name::new(name),
            flags: 0,
            light_direction: F32::new(0.8),
            light_ascension: F32::new(0.9),
            light_colour: 0x00FF_F0D0,
            ambient_colour: 0x0020_2830,
            dropoff: 0,
            visible_layers: vec![],
        };
    let layers = Layers {
        layers: vec![definition(1, "Meadow", 6, 0, 0, 0.0), definition(2, "Ledge", 2, 1, 2, 3000.0)],
        marker: 1,
        blocks: vec![grid(6, 6, &hill, &meadow_cell), grid(2, 2, &|_, _| 0, &|_, _| (0, [2, 1], [2, 1]))],
        trailing: Hex(vec![]),
    };
    let info = LevelInfo {
        name: Name::new("Sample level"),
        max_width: 6,
        max_height: 6,
        refs: vec![DatabaseRef { db_index: 1, unk: 0, path: Name::new("Sample") }],
        trailing: Hex(vec![]),
    };
    write_packed(
        0x0100,
        &[
            NewRecord { record_type: 0x0000, id: 0, group: 0, body: level::write_info(&info) },
            NewRecord { record_type: 0x0001, id: 0, group: 0, body: level::write_layers(&layers) },
        ],
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// `Sample.txd`: a palette, an 8-bpp 4 × 4 texture, a 16-bpp 5:6:5 one, and a two-frame animation.
fn sample_txd() -> Vec<u8> {
    use relic::drakan::records::palette::{self, Palette};
    use relic::drakan::srsc::{write_packed, NewRecord};
    let colors = vec![[0, 0, 0, 0], [200, 40, 40, 0], [40, 200, 40, 0], [40, 40, 200, 0]];
    let pal = palette::write(&Palette { colors, trailing: Hex(vec![]) });
    let checker: Vec<u8> = (0..16u8).map(|i| (i + i / 4) % 4).collect();
    let rgb565: Vec<u8> = (0..16u16).flat_map(|i| (i * 0x0841).to_le_bytes()).collect();
    let frame = |v: u8| vec![v; 16];
    let record = |record_type, id, body| NewRecord { record_type, id, group: 0, body };
    write_packed(
        0x0100,
        &[
            record(0x0030, 1, pal),
            record(0x0040, 2, drakan_texture(4, 4, 8, 0, 0, &checker, true)),
            record(0x0040, 3, drakan_texture(4, 4, 16, 0, 0, &rgb565, false)),
            record(0x0040, 4, drakan_texture(4, 4, 8, 0, 4, &frame(1), true)),
            record(0x0040, 5, drakan_texture(4, 4, 8, 0x20, 0, &frame(2), true)),
        ],
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// `Common.txd`: one 24-bit texture that `Sample.sdb`'s database can refer to.
fn common_txd() -> Vec<u8> {
    use relic::drakan::srsc::{write_packed, NewRecord};
    let pixels: Vec<u8> = (0..4u8).flat_map(|i| [i * 60, 255 - i * 60, 128]).collect();
    let body = drakan_texture(2, 2, 24, 0, 0, &pixels, false);
    write_packed(0x0100, &[NewRecord { record_type: 0x0040, id: 1, group: 0, body }]).unwrap_or_else(|e| panic!("{e}"))
}

/// `Sample.sdb`: a sound group with an 8-bit mono sound and a 16-bit stereo one (zlib).
fn sample_sdb() -> Vec<u8> {
    use relic::codec::float::F32;
    use relic::drakan::records::common::{Flags, Name};
    use relic::drakan::records::sound::{self, SoundRecord};
    use relic::drakan::records::write_string;
    use relic::drakan::srsc::{write_packed, NewRecord};
    let tone8: Vec<u8> = (0..64u32).map(|i| (128.0 + 100.0 * (i as f32 * 0.4).sin()) as u8).collect();
    let tone16: Vec<u8> = (0..64u32)
        .flat_map(|i| {
            let v = (12000.0 * (i as f32 * 0.2).sin()) as i16;
            [v.to_le_bytes(), (-v).to_le_bytes()].concat()
        })
        .collect();
    let sound = |name: &str, channels: u16, bits: u16, pcm: &[u8], zlib: bool| {
        let data = if zlib { relic::codec::zlib::compress(pcm, 9) } else { pcm.to_vec() };
        sound::write(&SoundRecord {
            name: Name::new(name),
            flags: Flags::new(0),
            channels,
            bits,
            frequency: 22050,
            volume: -200,
            dropoff: F32(1.5f32.to_bits()),
            priority: 5,
            decompressed_size: pcm.len() as u32,
            compression_level: if zlib { 9 } else { 0 },
            data: relic::bytes::Base64(data),
            trailing: Hex(vec![]),
            data_offset: 0,
        })
    };
    let mut group = Vec::new();
    write_string(b"Ambience", &mut group);
    let record = |record_type, id, group, body| NewRecord { record_type, id, group, body };
    write_packed(
        0x0100,
        &[
            record(0x0301, 1, 0, group),
            record(0x0302, 2, 1, sound("hum", 1, 8, &tone8, false)),
            record(0x0302, 3, 1, sound("wind", 2, 16, &tone16, true)),
        ],
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// A Dark Reign PALS palette: a ramp of earth tones in the three colour planes, the three unknown planes and
/// a stand-in for the game's tables (docs/formats/dark-reign.md#pal).
fn barren_pal() -> Vec<u8> {
    use relic::dark_reign::pal::{write, Pals};
    let plane = |f: fn(u8) -> u8| relic::bytes::Base64((0..=255u8).map(f).collect());
    let pals = Pals {
        version: 0x0102,
        planes: vec![
            plane(|i| i / 4),
            plane(|i| (i / 5).min(63)),
            plane(|i| (i / 8).min(63)),
            plane(|i| i % 64),
            plane(|_| 0),
            plane(|_| 63),
        ],
        tables: relic::bytes::Base64((0..512u32).map(|i| (i % 256) as u8).collect()),
    };
    write(&pals).unwrap_or_else(|e| panic!("{e}"))
}

/// A Dark Reign FTG holding a sprite, the palette it is drawn with and a short 8-bit mono sound (docs/formats/dark-reign.md#ftg-contents: FTGs hold `.wav` too).
fn sprites_ftg() -> Vec<u8> {
    use relic::dark_reign::ftg::{write_new, NewEntry};
    let sound = relic::export::wav::encode(&relic::asset::Sound {
        channels: 1,
        sample_rate: 11025,
        bits_per_sample: 8,
        data: (0..64u32).map(|i| (128 + (i % 16) * 4) as u8).collect(),
    })
    .unwrap_or_else(|e| panic!("{e}"));
    write_new(&[
        NewEntry { name: "UNIT.SPR".into(), data: dark_reign_unit() },
        NewEntry { name: "BARREN.PAL".into(), data: barren_pal() },
        NewEntry { name: "BOOM.WAV".into(), data: sound },
    ])
    .unwrap_or_else(|e| panic!("{e}"))
}

/// A Drakan resource file: a group of strings (one enciphered, one plain), a DirectMusic segment and the
/// version record (spec "Misc", docs/formats/drakan.md#music on 0x0401 in Music.rrc).
fn dragon_rrc() -> Vec<u8> {
    use relic::drakan::records::{strings, write_string};
    use relic::drakan::srsc::{write_packed, NewRecord};
    let mut group = Vec::new();
    write_string(b"Menu", &mut group);
    let record = |record_type, id, group, body: Vec<u8>| NewRecord { record_type, id, group, body };
    let text = |t, s: &str| strings::text_body(t, s).unwrap_or_else(|e| panic!("{e}"));
    write_packed(
        0x0100,
        &[
            record(0x0301, 1, 0, group),
            record(strings::ENCIPHERED, 10, 1, text(strings::ENCIPHERED, "New Game")),
            record(strings::ENCIPHERED, 11, 1, text(strings::ENCIPHERED, "Load Game")),
            record(strings::PLAIN, 12, 0, text(strings::PLAIN, "Drakan: Order of the Flame — relic sample")),
            record(strings::PLAIN, 0x20, 0, b"RIFF\x0c\0\0\0DMSGsegh\0\0\0\0".to_vec()),
            record(0x0402, 0, 0, vec![0x02, 0x01, 0, 0]),
        ],
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// A 2 × 2 24-bit BMP (bottom row first, rows padded to 4 bytes): red, green / blue, white.
/// A Ragnarok palette (`ro-pal`): 256 × R, G, B and the unused fourth byte (0).
/// A layer order (`ro-imf`) through relic's writer: the body and the head over one action group (8
/// directions) of two frames, the head under the body in the directions facing away (3, 4, 5), as a
/// character's hair hangs behind its collar.
fn novice_imf() -> Vec<u8> {
    use relic::ragnarok::imf::{Frame, Imf, VERSION_1_01};
    let body = vec![vec![Frame { priority: 0, x: 0, y: 0 }; 2]; 8];
    let head = (0..8)
        .map(|direction| vec![Frame { priority: i32::from((3..=5).contains(&direction)), x: 0, y: 0 }; 2])
        .collect();
    let imf = Imf { version: VERSION_1_01, checksum: 0, layers: vec![body, head], trailing: Default::default() };
    imf.to_bytes().expect("an IMF of two layers writes")
}

fn dye_pal() -> Vec<u8> {
    let mut colors = [[0u8; 4]; 256];
    colors[0] = [255, 0, 255, 0];
    for (i, c) in colors.iter_mut().enumerate().skip(1) {
        *c = [i as u8, (i * 3 % 256) as u8, 255 - i as u8, 0];
    }
    relic::ragnarok::pal::RoPalette { colors }.to_bytes().expect("a palette always writes")
}

pub fn tiny_bmp() -> Vec<u8> {
    let rows: [[u8; 8]; 2] = [[255, 0, 0, 255, 255, 255, 0, 0], [0, 0, 255, 0, 255, 0, 0, 0]];
    let mut b = Vec::new();
    b.extend_from_slice(b"BM");
    b.extend_from_slice(&(54u32 + 16).to_le_bytes());
    b.extend_from_slice(&[0; 4]);
    b.extend_from_slice(&54u32.to_le_bytes());
    b.extend_from_slice(&40u32.to_le_bytes());
    b.extend_from_slice(&2i32.to_le_bytes());
    b.extend_from_slice(&2i32.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&24u16.to_le_bytes());
    b.extend_from_slice(&[0; 24]);
    rows.iter().for_each(|r| b.extend_from_slice(r));
    b
}

/// A GRF 0x200 archive: a text, and a texture under a Korean (CP949) folder name as the game's are.
fn grf_sample() -> Vec<u8> {
    let input = |name: &str, data: Vec<u8>| grf::PackInput {
        name: grf::write::encode_name(name).unwrap_or_else(|e| panic!("{e}")),
        source: grf::PackSource::Bytes(data),
    };
    grf::write_archive_bytes(
        vec![
            input("data/readme.txt", b"A sample GRF archive written by relic.\r\n".to_vec()),
            input("data/texture/유저인터페이스/sample.bmp", tiny_bmp()),
        ],
        grf::types::VERSION_0X200,
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// A `size × size` texture: a lit disc on a gradient, transparent in the corners.
fn texture(size: u32, format: PixelFormat, mips: bool) -> Vec<u8> {
    let c = (size as f32 - 1.0) / 2.0;
    let mut rgba = Vec::new();
    for y in 0..size {
        for x in 0..size {
            let d = ((x as f32 - c).powi(2) + (y as f32 - c).powi(2)).sqrt() / c;
            let shade = (255.0 * (1.0 - d * 0.6)).clamp(0.0, 255.0) as u8;
            let alpha = if d > 1.2 { 0 } else { 255 };
            rgba.extend([shade, (x * 255 / size) as u8, (y * 255 / size) as u8, alpha]);
        }
    }
    relic::evil_islands::mmp::encode(&rgba, size, size, format, mips).unwrap_or_else(|e| panic!("{e}"))
}

/// A small level: diplomacy, one unit, one object, a lever, a trap, a light, and a script enciphered
/// with its key; then an AIGRAPH (kept as bytes).
fn level() -> Vec<u8> {
    use relic::evil_islands::mob::types::UnitStats;
    use serde_json::json;
    let mut stats = serde_json::Map::new();
    for (name, _, _) in UnitStats::FIELDS {
        stats.insert((*name).to_string(), json!(0));
    }
    for (name, value) in [
        ("hp", json!(20)),
        ("max_hp", json!(20)),
        ("mp", json!(10)),
        ("max_mp", json!(10)),
        ("moves", json!(1.0)),
        ("actions", json!(15.0)),
        ("speed_run", json!(0.55)),
        ("speed_walk", json!(0.25)),
        ("attack", json!(5.0)),
        ("defence", json!(5.0)),
        ("sight", json!(8.5)),
    ] {
        stats.insert(name.to_string(), value);
    }
    let names: Vec<String> = (0..32).map(|i| format!("Player-{i}")).collect();
    let diplomacy: Vec<Vec<u32>> = (0..32).map(|r| (0..32).map(|c| u32::from(r != c)).collect()).collect();
    let script = "GlobalVars (\n  Goblin : object,\n)\nDeclareScript Start ( )\n(\n  IsEqual(1, 1)\n)\n(\n  \
                  Say(Goblin, \"Привет, Гипат!\")\n)\n";
    let doc = json!({
        "format": "ei-mob",
        "nodes": [
            {"type": "0x0000A000", "children": [
                {"type": "0x0000C000"},
                {"type": "0xACCEECCB", "script": {"key": 0x1F2E_3D4C, "text": script}},
                {"type": "0x0000FF01", "children": [{"type": "0x0000FF02", "children": [
                    {"type": "0x0000FF05", "dword": 0},
                    {"type": "0x0000FF06", "dword": 999_999}
                ]}]},
                {"type": "0xDDDDDDD1", "children": [
                    {"type": "0xDDDDDDD2", "diplomacy": diplomacy},
                    {"type": "0xDDDDDDD3", "strings": names}
                ]},
                {"type": "0x0000ABD0", "children": [
                    {"type": "0x0000ABD1", "plot": [1.0, 0.0, 0.0]},
                    {"type": "0x0000ABD2", "float": 0.5},
                    {"type": "0x0000ABD3", "float": 12.0}
                ]},
                {"type": "0x0000B000", "children": [
                    {"type": "0xBBBB0000", "children": [
                        {"type": "0xBBBB0002", "string": "Goblin Fighter"},
                        {"type": "0xBBBB0004", "unit_stats": stats},
                        {"type": "0xBBBB0008", "strings": ["Axe"]},
                        {"type": "0x0000B002", "dword": 1},
                        {"type": "0x0000B004", "string": "Goblin"},
                        {"type": "0x0000B009", "plot": [12.5, 30.25, 0.0]},
                        {"type": "0x0000B00A", "quaternion": [1.0, 0.0, 0.0, 0.0]},
                        {"type": "0x0000B011", "byte": 1}
                    ]},
                    {"type": "0x0000B001", "children": [
                        {"type": "0x0000B002", "dword": 2},
                        {"type": "0x0000B004", "string": "Бочка"},
                        {"type": "0x0000B009", "plot": [14.0, 31.0, 0.0]}
                    ]},
                    {"type": "0xBBAC0000", "children": [
                        {"type": "0x0000B002", "dword": 3},
                        {"type": "0xBBAC0006", "lever_stats": [5, 0, 40]}
                    ]},
                    {"type": "0xBBAB0000", "children": [
                        {"type": "0x0000B002", "dword": 4},
                        {"type": "0xBBAB0003", "areas": [{"x": 20.0, "y": 20.0, "r": 3.0}]},
                        {"type": "0xBBAB0004", "points": [[22.0, 21.0]]}
                    ]}
                ]},
                {"type": "0x0000AA01", "children": [
                    {"type": "0x0000AA02", "float": 6.0},
                    {"type": "0x0000AA04", "plot": [13.0, 30.0, 4.0]},
                    {"type": "0x0000AA07", "plot": [1.0, 0.8, 0.6]}
                ]}
            ]},
            {"type": "0x31415926", "hex": "0100000002000000"}
        ]
    });
    let doc: relic::evil_islands::mob::MobDocument = serde_json::from_value(doc).unwrap_or_else(|e| panic!("{e}"));
    relic::evil_islands::mob::write_document(&doc).unwrap_or_else(|e| panic!("{e}"))
}

/// A settings file with every value type, written from typed INI by relic's REG writer.
fn reg() -> Vec<u8> {
    let ini = "[Game]\n\
               Difficulty = 2\n\
               Gamma = 1.25\n\
               Player = \"Зак\"\n\
               Resolution = [1024, 768]\n\
               Громкость = 0.8\n\
               \n\
               [Camera]\n\
               Speeds = [0.5, 1.0, 2.0]\n\
               Presets = [\"near\", \"far\"]\n\
               Bookmarks = int[]\n";
    let content = relic::evil_islands::reg::ini::parse(ini).unwrap_or_else(|e| panic!("{e}"));
    relic::evil_islands::reg::write_content(&content).unwrap_or_else(|e| panic!("{e}"))
}

/// A camera path: four keys around a circle, turning a quarter turn each, 500 ticks apart (exact
/// constants, so the bytes are the same on every platform).
fn cam() -> Vec<u8> {
    use relic::codec::float::F32;
    use relic::evil_islands::cam::{Cam, Quat, Record, Vec3};
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let keys = [((40.0, 0.0), (1.0, 0.0)), ((0.0, 40.0), (s, s)), ((-40.0, 0.0), (0.0, 1.0)), ((0.0, -40.0), (-s, s))];
    let records = keys
        .iter()
        .zip(0u32..)
        .map(|(&((x, y), (w, z)), i)| Record {
            time: i * 500,
            unk_0x04: i,
            position: Vec3 { x: F32::new(x), y: F32::new(y), z: F32::new(12.0) },
            rotation: Quat { w: F32::new(w), x: F32::new(0.0), y: F32::new(0.0), z: F32::new(z) },
        })
        .collect();
    relic::evil_islands::cam::write(&Cam { records }).unwrap_or_else(|e| panic!("{e}"))
}

/// The header of `isle`, a 2 × 1-sector map: max altitude 40, one 256-pixel atlas of 32-pixel tiles, an
/// earth material and a water material, the last atlas row animated.
fn isle_mp() -> Vec<u8> {
    use relic::bytes::Hex;
    use relic::codec::float::F32;
    use relic::evil_islands::mp::{AnimatedTile, Material, Mp, Rgba};
    let material = |kind: u32, [r, g, b, a]: [f32; 4], wave: f32| Material {
        kind,
        color: Rgba { r: F32::new(r), g: F32::new(g), b: F32::new(b), a: F32::new(a) },
        self_illumination: F32::new(0.0),
        wave_multiplier: F32::new(wave),
        warp_speed: F32::new(0.0),
        unk_0x20: Hex(vec![0; 12]),
    };
    let mp = Mp {
        max_altitude: F32::new(40.0),
        sectors_x: 2,
        sectors_y: 1,
        textures_count: 1,
        texture_size: 256,
        tile_size: 32,
        materials: vec![material(1, [0.5, 0.375, 0.25, 1.0], 1.0), material(3, [0.125, 0.375, 0.75, 0.625], 0.5)],
        // Ground types: grass, sand and stone rows, water in the last row.
        tile_types: (0..64u32).map(|i| [0, 0, 3, 3, 2, 2, 5, 6][i as usize / 8]).collect(),
        animated_tiles: vec![AnimatedTile { start: 56, length: 4 }],
        ..Default::default()
    };
    relic::evil_islands::mp::write(&mp).unwrap_or_else(|e| panic!("{e}"))
}

/// Sector `x` of `isle`: a hill whose top is in sector 0 and a lake filling the low middle of sector 1
/// (its water at altitude 6000 over the cells whose ground is below it).
fn isle_sector(x: u32) -> Vec<u8> {
    use relic::evil_islands::sec::types::NO_LIQUID;
    use relic::evil_islands::sec::{Sec, Tile, Vertex, Water};
    // Stored altitude of map grid point (gx, gy): a hill at (16, 16) and a hollow at (48, 16).
    let z = |gx: f64, gy: f64| {
        let bump = |cx: f64, r: f64| (-((gx - cx).powi(2) + (gy - 16.0).powi(2)) / (r * r)).exp();
        (9000.0 + 30000.0 * bump(16.0, 9.0) - 8000.0 * bump(48.0, 8.0)).round()
    };
    let pack = |n: [f64; 3]| {
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        let [nx, ny, nz] = n.map(|v| v / len);
        let x = (nx * 1000.0 + 1000.0).round() as u32;
        let y = (ny * 1000.0 + 1000.0).round() as u32;
        let z = (nz * 1000.0).round() as u32;
        z << 22 | x << 11 | y
    };
    let scale = 40.0 / 65535.0;
    let gx0 = f64::from(x) * 32.0;
    let vertices: Vec<Vertex> = (0..33 * 33)
        .map(|i| {
            let (gx, gy) = (gx0 + f64::from(i % 33), f64::from(i / 33));
            let slope = |dx: f64, dy: f64| (z(gx + dx, gy + dy) - z(gx - dx, gy - dy)) * scale / 2.0;
            Vertex { dx: 0, dy: 0, z: z(gx, gy) as u16, normal: pack([-slope(1.0, 0.0), -slope(0.0, 1.0), 1.0]) }
        })
        .collect();
    // Tiles: grass, sand where low, stone where high; rotations vary.
    let tiles: Vec<Tile> = (0..256u16)
        .map(|t| {
            let h = vertices[usize::from(t / 16 * 2 * 33 + t % 16 * 2 + 34)].z;
            let row = if h > 25000 {
                4
            } else if h < 8000 {
                2
            } else {
                0
            };
            Tile::new(row * 8 + t % 8, 0, t % 4).unwrap_or_default()
        })
        .collect();
    let water = (x == 1).then(|| {
        let wet = |t: usize| vertices[t / 16 * 2 * 33 + t % 16 * 2 + 34].z < 6500;
        Water {
            vertices: vertices.iter().map(|v| Vertex { z: 6000, normal: pack([0.0, 0.0, 1.0]), ..*v }).collect(),
            tiles: (0..256)
                .map(|t| if wet(t) { Tile::new(56, 0, 0).unwrap_or_default() } else { Tile(0xFFFF) })
                .collect(),
            materials: (0..256).map(|t| if wet(t) { 1 } else { NO_LIQUID }).collect(),
        }
    });
    let sec = Sec { liquids: if water.is_some() { 3 } else { 0 }, vertices, tiles, water, ..Default::default() };
    relic::evil_islands::sec::write(&sec).unwrap_or_else(|e| panic!("{e}"))
}

/// A two-part skeleton: the body is the root, the head hangs from it.
fn unit_lnk() -> Vec<u8> {
    use relic::evil_islands::lnk::{Link, Lnk};
    let link = |name: &str, parent: Option<&str>| Link {
        name: name.into(),
        parent: parent.map(String::from),
        ..Default::default()
    };
    let lnk = Lnk { links: vec![link("body", None), link("head", Some("body"))], ..Default::default() };
    relic::evil_islands::lnk::write(&lnk).unwrap_or_else(|e| panic!("{e}"))
}

/// A tetrahedron with 8 morph extremes: morph m is the base shape scaled by 1 + m/4 (exact in binary).
fn body_fig() -> Vec<u8> {
    use relic::codec::float::F32;
    use relic::evil_islands::fig::{Bounds, Fig, MorphComponent, VertexComponent};
    let v = |x: f32, y: f32, z: f32| [F32::new(x), F32::new(y), F32::new(z)];
    let base = [[1.0, 0.0, 0.0], [-1.0, 1.0, 0.0], [-1.0, -1.0, 0.0], [0.0, 0.0, 2.0]];
    let positions: Vec<Vec<_>> = (0..8)
        .map(|m| {
            let s = 1.0 + m as f32 / 4.0;
            base.iter().map(|p| v(p[0] * s, p[1] * s, p[2] * s)).collect()
        })
        .collect();
    let bounds = (0..8)
        .map(|m| {
            let s = 1.0 + m as f32 / 4.0;
            Bounds { center: v(0.0, 0.0, s), min: v(-s, -s, 0.0), max: v(s, s, 2.0 * s), radius: F32::new(2.0 * s) }
        })
        .collect();
    let normals = [[0.0, 0.0, -1.0], [1.0, 1.0, 1.0], [1.0, -1.0, 1.0], [-1.0, 0.0, 1.0]]
        .iter()
        .map(|n| [F32::new(n[0]), F32::new(n[1]), F32::new(n[2]), F32::new(0.0)])
        .collect();
    let texcoords = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]].iter().map(|t| t.map(F32::new)).collect();
    let fig = Fig {
        group: 19,
        texture_index: 1,
        bounds,
        positions,
        normals,
        texcoords,
        indices: vec![0, 2, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3],
        vertices: (0..4).map(|i| VertexComponent { position: i, normal: i, texcoord: i }).collect(),
        morph_components: (0..4).map(|i| MorphComponent { morph: i, vertex: i }).collect(),
        ..Default::default()
    };
    relic::evil_islands::fig::write(&fig).unwrap_or_else(|e| panic!("{e}"))
}

/// The body part's offsets: half a unit up, scaled with the morph like the mesh.
fn body_bon() -> Vec<u8> {
    use relic::codec::float::F32;
    let offsets = (0..8).map(|m| [0.0, 0.0, 0.5 * (1.0 + m as f32 / 4.0)].map(F32::new)).collect();
    relic::evil_islands::bon::write(&relic::evil_islands::bon::Bon { offsets }).unwrap_or_else(|e| panic!("{e}"))
}

/// The body part turning a quarter turn about z per frame, rising a little, with no morphing frames (the
/// morphing vertex count is kept, as game files do).
fn body_anm() -> Vec<u8> {
    use relic::codec::float::F32;
    use relic::evil_islands::anm::{Anm, Quat};
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let turns = [(1.0, 0.0), (s, s), (0.0, 1.0), (-s, s)];
    let anm = Anm {
        rotations: turns
            .iter()
            .map(|&(w, z)| Quat { w: F32::new(w), x: F32::new(0.0), y: F32::new(0.0), z: F32::new(z) })
            .collect(),
        translations: (0..4).map(|i| [0.0, 0.0, 0.5 + i as f32 * 0.125].map(F32::new)).collect(),
        morph_vertex_count: Some(0),
        ..Default::default()
    };
    relic::evil_islands::anm::write(&anm).unwrap_or_else(|e| panic!("{e}"))
}

/// An animation database for a human unit: three animations with their packed flags.
fn adb() -> Vec<u8> {
    use relic::codec::float::F32;
    use relic::evil_islands::adb::{Adb, Additionals, Animation, Hex64};
    let anim = |name: &str, number: u32, additionals: Additionals, length: u32, speed: f32| Animation {
        name: name.into(),
        name_tail: None,
        number,
        additionals,
        action_probability: 100,
        animation_length: length,
        movement_speed: F32::new(speed),
        start_show_hide1: 0,
        start_show_hide2: 0,
        start_step_sound1: 3,
        start_step_sound2: 9,
        start_step_sound3: 0,
        start_step_sound4: 0,
        start_hit_frame: length / 2,
        start_special_sound: 0,
        spec_sound_id1: 0,
        spec_sound_id2: 0,
        spec_sound_id3: 0,
        spec_sound_id4: 0,
    };
    let flags = |weapons, action_type, stage, forms| Additionals {
        weapons,
        allowed_states: 1,
        action_type,
        action_modifyer: 0,
        animation_stage: stage,
        action_forms: forms,
        other_bits: Hex64(0),
    };
    let adb = Adb {
        unit_name: "unhuma".into(),
        unit_name_tail: None,
        min_height: F32::new(0.4),
        mid_height: F32::new(1.1),
        max_height: F32::new(1.8),
        animations: vec![
            anim("idle1", 0, flags(0x7F, 6, 2, 0), 40, 0.0),
            anim("walk", 1, flags(0x7F, 5, 2, 2), 24, 1.5),
            anim("attack1", 2, flags(0x01, 2, 0, 4), 30, 0.0),
        ],
        trailing: None,
    };
    relic::evil_islands::adb::write(&adb).unwrap_or_else(|e| panic!("{e}"))
}

/// A Dark Reign RSPR sprite through relic's writer: 12 × 9 pictures of a round unit with a barrel pointing
/// the rotation's way (rotation 0 east, counter-clockwise), 3 anims in 2 sections (move: anims 0–1, one
/// centre hotspot each; fire: anim 2, centre and turret), 4 rotations.
fn dark_reign_unit() -> Vec<u8> {
    use relic::bytes::Base64;
    use relic::dark_reign::spr::{self, HotspotRecord, Magic, Picture, Section, SprDocument};
    let (w, h) = (12i32, 9i32);
    let mut pictures = Vec::new();
    let mut hotspots = Vec::new();
    for anim in 0..3 {
        for rotation in 0..4 {
            let (dx, dy) = [(1, 0), (0, -1), (-1, 0), (0, 1)][rotation];
            let mut pixels = vec![0u8; (w * h) as usize];
            for y in 0..h {
                for x in 0..w {
                    let (cx, cy) = (x - 6, y - 4);
                    let barrel = (1..6).any(|t| (cx, cy) == (dx * t, dy * t));
                    pixels[(y * w + x) as usize] = if barrel {
                        0x60 + anim as u8
                    } else if cx * cx + cy * cy <= 9 {
                        0x20 + 4 * anim as u8 + (cx + cy).rem_euclid(3) as u8
                    } else {
                        0
                    };
                }
            }
            pictures.push(Picture { hotspot_index: hotspots.len() as i32, pixels: Some(Base64(pixels)), runs: None });
            hotspots.push(HotspotRecord { x: 6, y: 4, flag: 0 });
            if anim == 2 {
                hotspots.push(HotspotRecord { x: (6 + 5 * dx) as u8, y: (4 + 4 * dy) as u8, flag: 1 });
            }
        }
    }
    let doc = SprDocument {
        format: spr::FORMAT_ID.into(),
        magic: Magic::Rspr,
        version: 0x0210,
        anims: 3,
        rotations: 4,
        width: w,
        height: h,
        picture_of_frames: (0..12).collect(),
        sections: vec![
            Section { first_anim: 0, last_anim: 1, rate: 19660, hotspots: 1 },
            Section { first_anim: 2, last_anim: 2, rate: 32768, hotspots: 2 },
        ],
        anim_sections: vec![0, 0, 1],
        pictures,
        layout: None,
        hotspots,
        trailing: None,
    };
    spr::write_document(&doc).unwrap_or_else(|e| panic!("{e}"))
}

// FreeRCT RCD files, written byte by byte from the FreeRCT RCD specification and the FreeRCT part of
// docs/formats/freerct.md (not through relic's writer, so that the reader is checked against the spec).

/// An RCD block: magic, u32 version, u32 body length, body.
fn rcd_block(out: &mut Vec<u8>, magic: &[u8; 4], version: u32, body: &[u8]) {
    out.extend_from_slice(magic);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(body);
}

/// The 8PXL line data of palette-indexed rows (0 transparent): a u32 offset per line relative to the
/// table (0: an empty line), then per line entries (gap, count, pixels), the last entry's gap with bit 7
/// set. Index 0 is never stored; gaps over 127 become (127, 0) fillers; runs over 255 are split.
fn rcd_8pxl_lines(rows: &[Vec<u8>]) -> Vec<u8> {
    let mut lines = Vec::new();
    for row in rows {
        let mut line = Vec::new();
        let mut last = None;
        let (mut x, mut done) = (0usize, 0usize);
        while x < row.len() {
            if row[x] == 0 {
                x += 1;
                continue;
            }
            let start = x;
            while x < row.len() && row[x] != 0 {
                x += 1;
            }
            let mut gap = start - done;
            while gap > 127 {
                line.extend_from_slice(&[127, 0]);
                gap -= 127;
            }
            for (i, run) in row[start..x].chunks(255).enumerate() {
                last = Some(line.len());
                line.extend_from_slice(&[if i == 0 { gap as u8 } else { 0 }, run.len() as u8]);
                line.extend_from_slice(run);
            }
            done = x;
        }
        if let Some(at) = last {
            line[at] |= 0x80;
        }
        lines.push(line);
    }
    let mut out = Vec::new();
    let mut offset = 4 * rows.len();
    for line in &lines {
        out.extend_from_slice(&(if line.is_empty() { 0 } else { offset as u32 }).to_le_bytes());
        offset += line.len();
    }
    lines.iter().for_each(|l| out.extend_from_slice(l));
    out
}

/// An 8PXL body: u16 width, u16 height, (version 2: i16 x and y offsets,) the lines.
fn rcd_8pxl(rows: &[Vec<u8>], offset: Option<(i16, i16)>) -> Vec<u8> {
    let mut body = Vec::new();
    body.extend_from_slice(&(rows.first().map_or(0, Vec::len) as u16).to_le_bytes());
    body.extend_from_slice(&(rows.len() as u16).to_le_bytes());
    if let Some((x, y)) = offset {
        body.extend_from_slice(&x.to_le_bytes());
        body.extend_from_slice(&y.to_le_bytes());
    }
    body.extend_from_slice(&rcd_8pxl_lines(rows));
    body
}

/// A pixel of a 32PX sprite.
#[derive(Clone, Copy, PartialEq)]
enum Px {
    Clear,
    Rgba([u8; 3], u8),
    /// Recolour layer, alpha, intensity.
    Recolour(u8, u8, u8),
}

/// A 32PX v1 body: u16 width, u16 height, i16 x and y offsets, then per line a u16 length counting the
/// whole line (0 on the last), runs of up to 63 pixels (run byte: kind in bits 6–7, count in bits 0–5;
/// 0 opaque RGB, 1 alpha + RGB, 2 transparent, 3 layer + alpha + intensities) and a 0 byte. Trailing
/// transparent pixels are left to the 0 byte.
fn rcd_32px(rows: &[Vec<Px>], offset: (i16, i16)) -> Vec<u8> {
    let mut body = Vec::new();
    for v in [rows.first().map_or(0, Vec::len) as u16, rows.len() as u16, offset.0 as u16, offset.1 as u16] {
        body.extend_from_slice(&v.to_le_bytes());
    }
    // Pixels of one run share kind, alpha and layer.
    let key = |p: Px| match p {
        Px::Clear => (2, 0, 0),
        Px::Rgba(_, a) => (if a == 255 { 0 } else { 1 }, a, 0),
        Px::Recolour(layer, a, _) => (3, a, layer),
    };
    for (y, row) in rows.iter().enumerate() {
        let mut line = vec![0, 0];
        let end = row.iter().rposition(|&p| p != Px::Clear).map_or(0, |i| i + 1);
        let mut x = 0;
        while x < end {
            let k = key(row[x]);
            let n = row[x..end].iter().take(63).take_while(|&&p| key(p) == k).count();
            line.push((k.0 << 6) | n as u8);
            match k.0 {
                1 => line.push(k.1),
                3 => line.extend_from_slice(&[k.2, k.1]),
                _ => {}
            }
            for p in &row[x..x + n] {
                match *p {
                    Px::Rgba(rgb, _) => line.extend_from_slice(&rgb),
                    Px::Recolour(_, _, intensity) => line.push(intensity),
                    Px::Clear => {}
                }
            }
            x += n;
        }
        line.push(0);
        let length = if y + 1 == rows.len() { 0 } else { line.len() as u16 };
        line[..2].copy_from_slice(&length.to_le_bytes());
        body.extend_from_slice(&line);
    }
    body
}

/// Which pixels of a `w` × `h` box a convex polygon (clockwise, y down) covers, at the pixel centres.
fn polygon_mask(w: usize, h: usize, poly: &[(f32, f32)]) -> Vec<Vec<bool>> {
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
                    (0..poly.len()).all(|i| {
                        let ((ax, ay), (bx, by)) = (poly[i], poly[(i + 1) % poly.len()]);
                        (bx - ax) * (py - ay) - (by - ay) * (px - ax) >= 0.0
                    })
                })
                .collect()
        })
        .collect()
}

/// Whether pixel (x, y) of a mask is on its edge (a 4-neighbour is outside).
fn on_edge(mask: &[Vec<bool>], x: usize, y: usize) -> bool {
    let at = |x: isize, y: isize| {
        y >= 0 && x >= 0 && mask.get(y as usize).and_then(|r| r.get(x as usize)).copied().unwrap_or(false)
    };
    let (x, y) = (x as isize, y as isize);
    !(at(x - 1, y) && at(x + 1, y) && at(x, y - 1) && at(x, y + 1))
}

/// A grass tile of the 16-pixel zoom: FreeRCT's greens (palette 72–78), darker at the edges.
fn grass_8bpp(h: usize, poly: &[(f32, f32)]) -> Vec<Vec<u8>> {
    let mask = polygon_mask(16, h, poly);
    (0..h)
        .map(|y| {
            (0..16)
                .map(|x| match (mask[y][x], on_edge(&mask, x, y)) {
                    (false, _) => 0,
                    (true, true) => 72,
                    (true, false) => 75 + ((x + 2 * y) % 3) as u8,
                })
                .collect()
        })
        .collect()
}

/// `samples/freerct/tiles.rcd`, an RCD version 1 file: three grass tiles of the 16-pixel zoom (flat, north
/// corner up, east corner up) as 8PXL v1 + SPRT v2 pairs, a tile-selection outline (two runs per line),
/// a SURF v3 ground block (grass, 16 wide, 4 pixels per level) using the three tiles, and a TSEL v1 using
/// the outline for the flat slope.
fn freerct_tiles() -> Vec<u8> {
    let flat = [(8.0, 0.0), (16.0, 4.0), (8.0, 8.0), (0.0, 4.0)];
    // Raised corners: 4 pixels up (the z height); the north one grows the sprite by 4 lines.
    let north_up = [(8.0, 0.0), (16.0, 8.0), (8.0, 12.0), (0.0, 8.0)];
    let east_up = [(8.0, 0.0), (16.0, 0.0), (8.0, 8.0), (0.0, 4.0)];
    let mask = polygon_mask(16, 8, &flat);
    let outline: Vec<Vec<u8>> =
        (0..8).map(|y| (0..16).map(|x| if mask[y][x] && on_edge(&mask, x, y) { 183 } else { 0 }).collect()).collect();
    let sprites = [
        (grass_8bpp(8, &flat), (-8i16, 0i16)),
        (grass_8bpp(12, &north_up), (-8, -4)),
        (grass_8bpp(8, &east_up), (-8, 0)),
        (outline, (-8, 0)),
    ];
    let mut out = b"RCDF".to_vec();
    out.extend_from_slice(&1u32.to_le_bytes());
    let mut sprt = Vec::new(); // block numbers of the SPRT blocks
    let mut block = 0u32;
    for (rows, (x, y)) in &sprites {
        rcd_block(&mut out, b"8PXL", 1, &rcd_8pxl(rows, None));
        block += 1;
        let mut body = Vec::new();
        body.extend_from_slice(&x.to_le_bytes());
        body.extend_from_slice(&y.to_le_bytes());
        body.extend_from_slice(&block.to_le_bytes());
        rcd_block(&mut out, b"SPRT", 2, &body);
        block += 1;
        sprt.push(block);
    }
    // SURF v3: ground type 16 (grass), zoom width 16, z height 4, the 19 north-view slopes (flat, n, e, …).
    let mut surf = Vec::new();
    for v in [16u16, 16, 4] {
        surf.extend_from_slice(&v.to_le_bytes());
    }
    let mut slopes = [0u32; 19];
    slopes[..3].copy_from_slice(&sprt[..3]);
    slopes.iter().for_each(|s| surf.extend_from_slice(&s.to_le_bytes()));
    rcd_block(&mut out, b"SURF", 3, &surf);
    // TSEL v1: zoom width 16, z height 4, the 19 slopes (only the flat one drawn).
    let mut tsel = Vec::new();
    for v in [16u16, 4] {
        tsel.extend_from_slice(&v.to_le_bytes());
    }
    let mut slopes = [0u32; 19];
    slopes[0] = sprt[3];
    slopes.iter().for_each(|s| tsel.extend_from_slice(&s.to_le_bytes()));
    rcd_block(&mut out, b"TSEL", 1, &tsel);
    out
}

/// A TEXT v3 record: u16 length including itself, u8 name length including its NUL, the name, then per
/// language {u16 length including itself, u8 language length including NUL, language, u8 plural-form
/// count, the NUL-terminated forms}.
fn rcd_text_record(name: &str, translations: &[(&str, &[&str])]) -> Vec<u8> {
    let mut rec = vec![0, 0, name.len() as u8 + 1];
    rec.extend_from_slice(name.as_bytes());
    rec.push(0);
    for (language, forms) in translations {
        let mut t = vec![0, 0, language.len() as u8 + 1];
        t.extend_from_slice(language.as_bytes());
        t.push(0);
        t.push(forms.len() as u8);
        for f in *forms {
            t.extend_from_slice(f.as_bytes());
            t.push(0);
        }
        let n = t.len() as u16;
        t[..2].copy_from_slice(&n.to_le_bytes());
        rec.extend_from_slice(&t);
    }
    let n = rec.len() as u16;
    rec[..2].copy_from_slice(&n.to_le_bytes());
    rec
}

/// `samples/freerct/baseset.rcd`, an RCD version 2 file: INFO first; nine 8PXL v2 pieces of a raised
/// button border (light top and left, dark bottom and right, FreeRCT's greys) and the GBOR v2 using them
/// (type 7, button); a 32PX v1 grass tile with a semi-transparent rim and a recolour stripe (layer 1) and
/// a SURF v6 using it as its flat sprite; a TEXT v3 of two strings in two languages, one with plurals.
fn freerct_baseset() -> Vec<u8> {
    let mut out = b"RCDF".to_vec();
    out.extend_from_slice(&2u32.to_le_bytes());
    let mut info = Vec::new();
    for s in [
        "20261124T120000",
        "relic sample baseset",
        "org.relic/samples/baseset/1",
        "",
        "A small version 2 RCD file, written by hand for relic's samples.",
    ] {
        info.extend_from_slice(s.as_bytes());
        info.push(0);
    }
    rcd_block(&mut out, b"INFO", 1, &info);
    // The border pieces: 3-pixel corners and edges, a 1-pixel middle (spec "GUI": top-left to bottom-right).
    let (light, face, dark) = (21u8, 17u8, 12u8);
    let corner = |top: u8, left: u8, bottom: u8, right: u8| -> Vec<Vec<u8>> {
        (0..3)
            .map(|y| {
                (0..3)
                    .map(|x| match (y, x) {
                        (0, _) if top != 0 => top,
                        (2, _) if bottom != 0 => bottom,
                        (_, 0) if left != 0 => left,
                        (_, 2) if right != 0 => right,
                        _ => face,
                    })
                    .collect()
            })
            .collect()
    };
    let pieces: [Vec<Vec<u8>>; 9] = [
        corner(light, light, 0, 0),
        vec![vec![light], vec![face], vec![face]],
        corner(light, 0, 0, dark),
        vec![vec![light, face, face]],
        vec![vec![face]],
        vec![vec![face, face, dark]],
        corner(0, light, dark, 0),
        vec![vec![face], vec![face], vec![dark]],
        corner(0, 0, dark, dark),
    ];
    let mut gbor = vec![7, 0, 3, 3, 3, 3, 8, 8, 1, 1]; // u16 type 7, borders, minimum size, steps
    for (i, rows) in pieces.iter().enumerate() {
        rcd_block(&mut out, b"8PXL", 2, &rcd_8pxl(rows, Some((0, 0))));
        gbor.extend_from_slice(&(2 + i as u32).to_le_bytes());
    }
    rcd_block(&mut out, b"GBOR", 2, &gbor);
    // The 32PX tile: block 12. Edge pixels at alpha 160, a recolour stripe along the middle lines.
    let mask = polygon_mask(16, 8, &[(8.0, 0.0), (16.0, 4.0), (8.0, 8.0), (0.0, 4.0)]);
    let tile: Vec<Vec<Px>> = (0..8)
        .map(|y| {
            (0..16)
                .map(|x| {
                    let green = [71 + 8 * ((x + y) % 3) as u8, 143 + 12 * (y % 2) as u8, 43];
                    match (mask[y][x], on_edge(&mask, x, y)) {
                        (false, _) => Px::Clear,
                        (true, true) => Px::Rgba([47, 95, 31], 160),
                        (true, false) if (3..5).contains(&y) && (5..11).contains(&x) => {
                            Px::Recolour(1, 255, 96 + 16 * (x as u8 - 5))
                        }
                        (true, false) => Px::Rgba(green, 255),
                    }
                })
                .collect()
        })
        .collect();
    rcd_block(&mut out, b"32PX", 1, &rcd_32px(&tile, (-8, 0)));
    // SURF v6: ground type 16 (grass), zoom width 16, z height 4, 23 slopes of which the flat one drawn.
    let mut surf = Vec::new();
    for v in [16u16, 16, 4] {
        surf.extend_from_slice(&v.to_le_bytes());
    }
    let mut slopes = [0u32; 23];
    slopes[0] = 12;
    slopes.iter().for_each(|s| surf.extend_from_slice(&s.to_le_bytes()));
    rcd_block(&mut out, b"SURF", 6, &surf);
    // TEXT v3: records sorted by name.
    let mut text = rcd_text_record("NAME", &[("en_GB", &["Grass"]), ("nl_NL", &["Gras"])]);
    text.extend(rcd_text_record(
        "TILES",
        &[("en_GB", &["%d tile", "%d tiles"]), ("nl_NL", &["%d tegel", "%d tegels"])],
    ));
    rcd_block(&mut out, b"TEXT", 3, &text);
    out
}

#[allow(dead_code)]
fn main() {
    let root = Path::new("samples");
    for (path, bytes) in build() {
        let target = root.join(path);
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        }
        std::fs::write(&target, bytes).unwrap_or_else(|e| panic!("{}: {e}", target.display()));
        println!("wrote {}", target.display());
    }
}
