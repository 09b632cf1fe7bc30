//! Ragnarok Online RSM/RSM2 models (`ro-rsm`): reader, writer, lossless JSON, helpers and corpus.
//!
//! Layout (spec `ragnarok-rsm-rsm2.txt` with docs/formats/ragnarok.md):
//! - header: `GRSM`, u8 major, u8 minor, i32 animation length, i32 shade type, u8 alpha (≥ 1.4);
//!   below 2.2: 16 reserved bytes, i32 n + n × 40-byte texture names, 40-byte main mesh name;
//!   2.2: f32 fps, i32 n + n length-prefixed textures, i32 n + n length-prefixed root names;
//!   2.3: f32 fps, i32 n + n length-prefixed root names; then i32 mesh count;
//! - mesh: name, parent name (40 bytes below 2.2, i32 length + bytes from 2.2); 2.3: i32 n + n textures,
//!   else i32 n + n i32 texture indices; 9 f32 matrix; below 2.2: offset, position, angle, axis, scale
//!   (13 f32), from 2.2: position (3 f32); i32 n + n × 3 f32 vertices; i32 n + n × (u32 colour ≥ 1.2,
//!   f32 u, f32 v); i32 n + n faces (≥ 2.2 i32 len first; 3 u16 vertex ids, 3 u16 texture-vertex ids,
//!   u16 texture, u16 padding, i32 two-sided, then one i32 smooth group for 1.2 to 2.1 or (len − 20)/4 from
//!   2.2); ≥ 1.6: i32 n + n × (i32 frame, 3 f32, f32) scale keys; i32 n + n × (i32 frame, 4 f32) rotation
//!   keys; ≥ 2.2: i32 n + n × (i32 frame, 3 f32, i32) position keys; 2.3: i32 n + n × (i32 texture, i32 m +
//!   m × (i32 kind, i32 k + k × (i32 frame, f32))) texture key frames;
//! - after the meshes: 1.5 only an extra i32 (docs/formats/ragnarok.md#rsm-1-5); below 1.6 i32 n + n × 20-byte scale keys;
//!   then, only if bytes remain, i32 n + n volume boxes (9 f32, i32 flag ≥ 1.3).
//!
//! The fixtures below are assembled byte by byte from that layout, independently of relic's writer. Real
//! files come from `../shared/corpus/ragnarok/` when it exists (never copied into the repository).

use std::path::{Path, PathBuf};

use relic::ragnarok::rsm::{
    self, parse, write, Face, LegacyPlacement, Mesh, Name, PositionKey, RotationKey, Rsm, ScaleKey, TexVertex,
    TextureAnimation, TextureChannel, TextureKey, TimeBase, Version, VolumeBox,
};
use relic::Error;

// =========================================================================================================
// A byte builder for hand-made files

#[derive(Default)]
struct B(Vec<u8>);

impl B {
    fn raw(mut self, b: &[u8]) -> Self {
        self.0.extend_from_slice(b);
        self
    }
    fn u8(self, v: u8) -> Self {
        self.raw(&[v])
    }
    fn u16(self, v: u16) -> Self {
        self.raw(&v.to_le_bytes())
    }
    fn i32(self, v: i32) -> Self {
        self.raw(&v.to_le_bytes())
    }
    fn u32(self, v: u32) -> Self {
        self.raw(&v.to_le_bytes())
    }
    fn f(mut self, vs: &[f32]) -> Self {
        for v in vs {
            self.0.extend_from_slice(&v.to_le_bytes());
        }
        self
    }
    /// A fixed 40-byte field: `text`, NUL, then `junk`, zero-padded.
    fn fixed(self, text: &[u8], junk: &[u8]) -> Self {
        let mut field = [0u8; 40];
        field[..text.len()].copy_from_slice(text);
        field[text.len() + 1..text.len() + 1 + junk.len()].copy_from_slice(junk);
        self.raw(&field)
    }
    /// A length-prefixed string.
    fn s(self, text: &[u8]) -> Self {
        self.i32(text.len() as i32).raw(text)
    }
    fn header(self, major: u8, minor: u8, anim: i32, shade: i32) -> Self {
        self.raw(b"GRSM").u8(major).u8(minor).i32(anim).i32(shade)
    }
    fn done(self) -> Vec<u8> {
        self.0
    }
}

const IDENTITY: [f32; 9] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];

/// Version 1.4: two textures (junk after one NUL), a root and a child (repeated junk, mirroring matrix),
/// colours, one smooth group per face, rotation keys in ms, model-level scale keys, a flagged volume box.
fn fixture_v14() -> Vec<u8> {
    B::default()
        .header(1, 4, 2000, 2)
        .u8(200) // alpha
        .raw(&(1..=16).collect::<Vec<u8>>()) // reserved
        .i32(2)
        .fixed(b"tex\\a.bmp", b"JUNK")
        .fixed(b"b.tga", b"")
        .fixed(b"root", b"")
        .i32(2) // meshes
        // mesh 0
        .fixed(b"root", b"")
        .fixed(b"", b"")
        .i32(2)
        .i32(1)
        .i32(0)
        .f(&IDENTITY)
        .f(&[1.0, 2.0, 3.0]) // offset
        .f(&[4.0, 5.0, 6.0]) // position
        .f(&[0.5]) // angle
        .f(&[0.0, 1.0, 0.0]) // axis
        .f(&[1.0, 2.0, 3.0]) // scale
        .i32(3)
        .f(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.5, -2.0])
        .i32(3)
        .u32(0xFFFF_FFFF)
        .f(&[0.0, 0.0])
        .u32(0x80FF_0000)
        .f(&[1.0, 0.0])
        .u32(0x1234_5678)
        .f(&[0.5, 1.0])
        .i32(1)
        .u16(0)
        .u16(1)
        .u16(2)
        .u16(0)
        .u16(1)
        .u16(2)
        .u16(1)
        .u16(0x1234)
        .i32(1)
        .i32(7)
        .i32(2) // rotation keys
        .i32(0)
        .f(&[0.0, 0.0, 0.0, 1.0])
        .i32(1000)
        .f(&[0.0, 0.6, 0.0, 0.8])
        // mesh 1
        .fixed(b"child", b"xyz")
        .fixed(b"root", b"\x01\x02")
        .i32(1)
        .i32(5)
        .f(&[2.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0])
        .f(&[0.0; 3])
        .f(&[0.0, 10.0, 0.0])
        .f(&[0.0])
        .f(&[0.0; 3])
        .f(&[1.0; 3])
        .i32(0)
        .i32(0)
        .i32(0)
        .i32(0)
        // model-level scale keys
        .i32(1)
        .i32(500)
        .f(&[1.0, 1.0, 2.0, 0.25])
        // volume boxes
        .i32(1)
        .f(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0])
        .i32(1)
        .done()
}

/// Version 2.3: two root names (one starting with a space), per-mesh textures (one in Korean), a face
/// of length 36 (four smooth groups) and one of 24, scale/rotation/position keys in frames, texture key
/// frames, no volume-box count at the end.
fn fixture_v23() -> Vec<u8> {
    let korean = relic::codec::text::encode(relic::codec::text::CP949, "안녕.bmp").unwrap();
    B::default()
        .header(2, 3, 60, 1)
        .u8(128)
        .f(&[30.0])
        .i32(2)
        .s(b"A")
        .s(b" B")
        .i32(3)
        // mesh 0
        .s(b"A")
        .s(b"")
        .i32(2)
        .s(b"t0.bmp")
        .s(&korean)
        .f(&IDENTITY)
        .f(&[1.0, 2.0, 3.0])
        .i32(4)
        .f(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0])
        .i32(3)
        .u32(0xFFFF_FFFF)
        .f(&[0.0, 0.0])
        .u32(0xFFFF_FFFF)
        .f(&[1.0, 0.0])
        .u32(0xFFFF_FFFF)
        .f(&[1.0, 1.0])
        .i32(2)
        .i32(36)
        .u16(0)
        .u16(1)
        .u16(2)
        .u16(0)
        .u16(1)
        .u16(2)
        .u16(1)
        .u16(0)
        .i32(0)
        .i32(1)
        .i32(2)
        .i32(3)
        .i32(4)
        .i32(24)
        .u16(0)
        .u16(2)
        .u16(3)
        .u16(0)
        .u16(2)
        .u16(1)
        .u16(0)
        .u16(5000)
        .i32(1)
        .i32(9)
        .i32(1) // scale keys
        .i32(10)
        .f(&[2.0, 2.0, 2.0, 0.0])
        .i32(1) // rotation keys
        .i32(0)
        .f(&[0.0, 0.0, 0.0, 1.0])
        .i32(2) // position keys
        .i32(0)
        .f(&[0.0, 0.0, 0.0])
        .i32(0)
        .i32(30)
        .f(&[0.0, 5.0, 0.0])
        .i32(7)
        .i32(1) // texture animations
        .i32(0)
        .i32(2)
        .i32(0)
        .i32(2)
        .i32(0)
        .f(&[0.0])
        .i32(60)
        .f(&[1.0])
        .i32(4)
        .i32(1)
        .i32(30)
        .f(&[1.5])
        // mesh 1: a second root, empty
        .s(b" B")
        .s(b"")
        .i32(0)
        .f(&IDENTITY)
        .f(&[0.0; 3])
        .raw(&[0; 4 * 7])
        // mesh 2: child of A, empty
        .s(b"C")
        .s(b"A")
        .i32(0)
        .f(&IDENTITY)
        .f(&[0.0, 1.0, 0.0])
        .raw(&[0; 4 * 7])
        .done()
}

/// Version 2.2: global length-prefixed textures and texture indices, a face of length 28, a position key,
/// and a volume-box list (present in this file).
fn fixture_v22() -> Vec<u8> {
    B::default()
        .header(2, 2, 48, 2)
        .u8(255)
        .f(&[24.0])
        .i32(1)
        .s(b"g.bmp")
        .i32(1)
        .s(b"r")
        .i32(1)
        .s(b"r")
        .s(b"")
        .i32(1)
        .i32(0)
        .f(&IDENTITY)
        .f(&[7.0, 8.0, 9.0])
        .i32(1)
        .f(&[1.0, 2.0, 3.0])
        .i32(1)
        .u32(0xFF00_FF00)
        .f(&[0.25, 0.75])
        .i32(1)
        .i32(28)
        .raw(&[0; 12])
        .u16(0)
        .u16(0)
        .i32(0)
        .i32(11)
        .i32(12)
        .i32(0) // scale keys
        .i32(0) // rotation keys
        .i32(1) // position keys
        .i32(12)
        .f(&[1.0, 2.0, 3.0])
        .i32(-1)
        .i32(1) // volume boxes
        .f(&[1.0; 9])
        .i32(0)
        .done()
}

/// Version 1.5: no per-mesh scale or position keys, the extra int32 after the meshes (a non-zero value
/// here, to pin its place), then the model-level scale keys and the volume boxes.
fn fixture_v15() -> Vec<u8> {
    B::default()
        .header(1, 5, 100, 0)
        .u8(255)
        .raw(&[0; 16])
        .i32(0)
        .fixed(b"m", b"")
        .i32(1)
        .fixed(b"m", b"")
        .fixed(b"", b"")
        .i32(0)
        .f(&IDENTITY)
        .f(&[0.0; 13])
        .i32(0)
        .i32(0)
        .i32(0)
        .i32(1) // rotation keys
        .i32(50)
        .f(&[0.0, 0.0, 1.0, 0.0])
        .i32(0x1122_3344) // extra int32 of 1.5
        .i32(1) // model-level scale keys
        .i32(20)
        .f(&[3.0, 3.0, 3.0, 0.0])
        .i32(0)
        .done()
}

/// Versions 1.1 to 1.3: one mesh with one vertex, texture vertex and face; a volume box.
fn fixture_v11_to_13(minor: u8) -> Vec<u8> {
    let mut b = B::default().header(1, minor, 10, 1).raw(&[0; 16]).i32(1).fixed(b"t.bmp", b"").fixed(b"m", b"");
    b = b.i32(1).fixed(b"m", b"").fixed(b"", b"").i32(1).i32(0).f(&IDENTITY).f(&[0.0; 13]);
    b = b.i32(1).f(&[1.0, 2.0, 3.0]).i32(1);
    if minor >= 2 {
        b = b.u32(0xAABB_CCDD);
    }
    b = b.f(&[0.5, 0.5]).i32(1).raw(&[0; 12]).u16(0).u16(0).i32(0);
    if minor >= 2 {
        b = b.i32(3);
    }
    b = b.i32(0).i32(0).i32(1).f(&[9.0; 9]);
    if minor >= 3 {
        b = b.i32(42);
    }
    b.done()
}

fn round_trips(bytes: &[u8]) -> Rsm {
    let rsm = parse(bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(write(&rsm).unwrap(), bytes, "writer output differs from the input");
    let json = serde_json::to_string(&rsm).unwrap();
    let back: Rsm = serde_json::from_str(&json).unwrap();
    assert_eq!(write(&back).unwrap(), bytes, "JSON round trip differs from the input");
    rsm
}

// =========================================================================================================
// Hand-made fixtures: exact values

#[test]
fn reads_version_1_4() {
    let rsm = round_trips(&fixture_v14());
    assert_eq!(rsm.version, Version::new(1, 4));
    assert_eq!(rsm.version_tuple(), (1, 4));
    assert_eq!((rsm.animation_length, rsm.shade_type, rsm.alpha), (2000, 2, Some(200)));
    assert_eq!(rsm.reserved, Some(std::array::from_fn(|i| i as u8 + 1)));
    assert_eq!(rsm.frame_rate, None);
    assert_eq!(rsm.textures[0].text, "tex\\a.bmp");
    assert_eq!(rsm.textures[0].raw.as_ref().unwrap()[10..14], *b"JUNK", "junk after the NUL is kept");
    assert_eq!(rsm.textures[1], Name::new("b.tga"), "a clean fixed field keeps no raw bytes");
    assert_eq!(rsm.root_names, vec![Name::new("root")]);
    assert_eq!(rsm.meshes.len(), 2);

    let m = &rsm.meshes[0];
    assert_eq!((m.name.as_str(), m.parent_name.as_str()), ("root", ""));
    assert_eq!(m.texture_indices, vec![1, 0]);
    assert_eq!(m.matrix, IDENTITY);
    assert_eq!(m.position, [4.0, 5.0, 6.0]);
    assert_eq!(
        m.legacy,
        Some(LegacyPlacement {
            offset: [1.0, 2.0, 3.0],
            rotation_angle: 0.5,
            rotation_axis: [0.0, 1.0, 0.0],
            scale: [1.0, 2.0, 3.0]
        })
    );
    assert_eq!(m.vertices, vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.5, -2.0]]);
    assert_eq!(m.tex_vertices[1], TexVertex { color: Some(0x80FF_0000), uv: [1.0, 0.0] });
    assert_eq!(m.tex_vertices[2], TexVertex { color: Some(0x1234_5678), uv: [0.5, 1.0] });
    assert_eq!(
        m.faces,
        vec![Face {
            vertices: [0, 1, 2],
            tex_vertices: [0, 1, 2],
            texture: 1,
            padding: 0x1234,
            two_sided: 1,
            smooth_groups: vec![7]
        }]
    );
    assert_eq!(
        m.rotation_keys,
        vec![
            RotationKey { frame: 0, quaternion: [0.0, 0.0, 0.0, 1.0] },
            RotationKey { frame: 1000, quaternion: [0.0, 0.6, 0.0, 0.8] }
        ]
    );
    assert!(m.scale_keys.is_empty() && m.position_keys.is_empty() && m.texture_animations.is_empty());

    let c = &rsm.meshes[1];
    assert_eq!((c.name.as_str(), c.parent_name.as_str()), ("child", "root"));
    assert!(c.name.raw.is_some() && c.parent_name.raw.is_some());
    assert_eq!(c.matrix, [2.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0]);
    assert_eq!(c.position, [0.0, 10.0, 0.0]);

    assert_eq!(rsm.scale_keys, vec![ScaleKey { frame: 500, scale: [1.0, 1.0, 2.0], data: 0.25 }]);
    assert_eq!(rsm.extra_v1_5, None);
    assert_eq!(
        rsm.volume_boxes,
        Some(vec![VolumeBox {
            size: [1.0, 2.0, 3.0],
            position: [4.0, 5.0, 6.0],
            rotation: [7.0, 8.0, 9.0],
            flag: Some(1)
        }])
    );
    assert!(rsm.trailing.0.is_empty());

    // Helpers: textures by global index (5 is out of range), tree, milliseconds.
    assert_eq!(rsm.mesh_textures(m), vec![Some(&rsm.textures[1]), Some(&rsm.textures[0])]);
    assert_eq!(rsm.face_texture(m, &m.faces[0]).map(Name::as_str), Some("tex\\a.bmp"));
    assert_eq!(rsm.mesh_textures(c), vec![None]);
    assert_eq!(rsm.parents(), vec![None, Some(0)]);
    assert_eq!(rsm.roots(), vec![0]);
    assert_eq!(rsm.children(), vec![vec![1], vec![]]);
    assert_eq!(rsm.time_base(), TimeBase::Milliseconds);
    assert_eq!(rsm.time_base().seconds(m.rotation_keys[1].frame), 1.0);
    assert_eq!(rsm.animation_seconds(), 2.0);
}

#[test]
fn reads_version_2_3() {
    let bytes = fixture_v23();
    let rsm = round_trips(&bytes);
    assert_eq!(rsm.version, Version::new(2, 3));
    assert_eq!((rsm.animation_length, rsm.shade_type, rsm.alpha), (60, 1, Some(128)));
    assert_eq!((rsm.frame_rate, rsm.reserved), (Some(30.0), None));
    assert!(rsm.textures.is_empty());
    assert_eq!(rsm.root_names, vec![Name::new("A"), Name::new(" B")]);
    assert_eq!(rsm.volume_boxes, None, "the file ends where the volume-box count would be");

    let m = &rsm.meshes[0];
    assert_eq!(m.textures, vec![Name::new("t0.bmp"), Name::new("안녕.bmp")]);
    assert!(m.texture_indices.is_empty() && m.legacy.is_none());
    assert_eq!(m.position, [1.0, 2.0, 3.0]);
    assert_eq!(m.vertices[2], [1.0, 1.0, 0.0]);
    assert_eq!(m.faces.len(), 2);
    assert_eq!(m.faces[0].vertices, [0, 1, 2]);
    assert_eq!(m.faces[0].smooth_groups, vec![1, 2, 3, 4], "len 36 holds four smooth groups");
    assert_eq!(m.faces[0].record_len(), 36);
    assert_eq!(m.faces[1].vertices, [0, 2, 3]);
    assert_eq!(m.faces[1].tex_vertices, [0, 2, 1]);
    assert_eq!((m.faces[1].padding, m.faces[1].two_sided), (5000, 1));
    assert_eq!(m.faces[1].smooth_groups, vec![9]);
    assert_eq!(m.scale_keys, vec![ScaleKey { frame: 10, scale: [2.0; 3], data: 0.0 }]);
    assert_eq!(m.rotation_keys, vec![RotationKey { frame: 0, quaternion: [0.0, 0.0, 0.0, 1.0] }]);
    assert_eq!(
        m.position_keys,
        vec![
            PositionKey { frame: 0, position: [0.0; 3], data: 0 },
            PositionKey { frame: 30, position: [0.0, 5.0, 0.0], data: 7 }
        ]
    );
    assert_eq!(
        m.texture_animations,
        vec![TextureAnimation {
            texture: 0,
            channels: vec![
                TextureChannel {
                    kind: rsm::texture_kind::TRANSLATE_U,
                    keys: vec![TextureKey { frame: 0, value: 0.0 }, TextureKey { frame: 60, value: 1.0 }]
                },
                TextureChannel { kind: rsm::texture_kind::ROTATE, keys: vec![TextureKey { frame: 30, value: 1.5 }] },
            ]
        }]
    );
    assert_eq!(rsm.meshes[2].position, [0.0, 1.0, 0.0]);

    // Helpers: per-mesh textures, two roots plus a child, frames at 30 fps.
    assert_eq!(rsm.mesh_textures(m), vec![Some(&m.textures[0]), Some(&m.textures[1])]);
    assert_eq!(rsm.face_texture(m, &m.faces[0]).map(Name::as_str), Some("안녕.bmp"));
    assert_eq!(rsm.roots(), vec![0, 1]);
    assert_eq!(rsm.parents(), vec![None, None, Some(0)]);
    assert_eq!(rsm.time_base(), TimeBase::Frames { fps: 30.0 });
    assert_eq!(rsm.time_base().seconds(m.position_keys[1].frame), 1.0);
    assert_eq!(rsm.animation_seconds(), 2.0);
    let names: Vec<_> = rsm.texture_names().into_iter().map(Name::as_str).collect();
    assert_eq!(names, vec!["t0.bmp", "안녕.bmp"]);
}

#[test]
fn reads_version_2_2() {
    let rsm = round_trips(&fixture_v22());
    assert_eq!(rsm.version, Version::new(2, 2));
    assert_eq!(rsm.frame_rate, Some(24.0));
    assert_eq!(rsm.textures, vec![Name::new("g.bmp")]);
    assert_eq!(rsm.root_names, vec![Name::new("r")]);
    let m = &rsm.meshes[0];
    assert_eq!(m.texture_indices, vec![0]);
    assert_eq!(m.position, [7.0, 8.0, 9.0]);
    assert_eq!(m.tex_vertices, vec![TexVertex { color: Some(0xFF00_FF00), uv: [0.25, 0.75] }]);
    assert_eq!(m.faces[0].smooth_groups, vec![11, 12], "len 28 holds two smooth groups");
    assert_eq!(m.position_keys, vec![PositionKey { frame: 12, position: [1.0, 2.0, 3.0], data: -1 }]);
    assert_eq!(rsm.volume_boxes.as_ref().map(Vec::len), Some(1));
    assert_eq!(rsm.volume_boxes.as_ref().unwrap()[0].flag, Some(0));
    assert_eq!(rsm.mesh_textures(m), vec![Some(&rsm.textures[0])]);
    assert_eq!(rsm.time_base().seconds(12), 0.5);
}

#[test]
fn reads_version_1_5_with_its_extra_int() {
    let rsm = round_trips(&fixture_v15());
    assert_eq!(rsm.version, Version::new(1, 5));
    assert_eq!(rsm.extra_v1_5, Some(0x1122_3344));
    assert_eq!(rsm.meshes[0].rotation_keys, vec![RotationKey { frame: 50, quaternion: [0.0, 0.0, 1.0, 0.0] }]);
    assert!(rsm.meshes[0].scale_keys.is_empty() && rsm.meshes[0].position_keys.is_empty());
    assert_eq!(rsm.scale_keys, vec![ScaleKey { frame: 20, scale: [3.0; 3], data: 0.0 }]);
    assert_eq!(rsm.volume_boxes, Some(vec![]));
}

#[test]
fn reads_versions_1_1_to_1_3() {
    for minor in 1..=3u8 {
        let rsm = round_trips(&fixture_v11_to_13(minor));
        assert_eq!(rsm.version, Version::new(1, minor));
        assert_eq!(rsm.alpha, None, "1.{minor} has no alpha");
        let m = &rsm.meshes[0];
        assert_eq!(m.vertices, vec![[1.0, 2.0, 3.0]]);
        let color = (minor >= 2).then_some(0xAABB_CCDD);
        assert_eq!(m.tex_vertices, vec![TexVertex { color, uv: [0.5, 0.5] }]);
        assert_eq!(m.faces[0].smooth_groups, if minor >= 2 { vec![3] } else { vec![] });
        let boxes = rsm.volume_boxes.unwrap();
        assert_eq!(boxes[0].size, [9.0; 3]);
        assert_eq!(boxes[0].flag, (minor >= 3).then_some(42));
    }
}

#[test]
fn versions_compare_as_versions() {
    assert!(Version::new(1, 4) < Version::new(1, 5));
    assert!(Version::new(1, 5) < Version::new(2, 2));
    assert!(Version::new(2, 2).at_least(2, 2) && !Version::new(2, 2).at_least(2, 3));
    assert_eq!(Version::new(2, 3).to_string(), "2.3");
    assert!(Version::new(1, 1).is_supported() && Version::new(2, 3).is_supported());
    assert!(!Version::new(1, 0).is_supported() && !Version::new(2, 4).is_supported());
}

// =========================================================================================================
// Errors: located, never panics

fn located(err: Error) -> (String, u64) {
    let at = err.location().unwrap_or_else(|| panic!("no location: {err}")).clone();
    assert_eq!(at.format, "ro-rsm");
    (at.field, at.offset)
}

#[test]
fn bad_files_are_rejected_with_field_and_offset() {
    assert_eq!(located(parse(b"GRSX\x01\x04").unwrap_err()), ("magic".into(), 0));
    assert_eq!(located(parse(b"GRSM\x03\x00\0\0\0\0\0\0\0\0").unwrap_err()), ("version".into(), 4));

    // A face length that is not 20 + 4·n.
    let mut bytes = fixture_v23();
    let at = bytes.windows(4).position(|w| w == 36i32.to_le_bytes()).unwrap();
    bytes[at..at + 4].copy_from_slice(&22i32.to_le_bytes());
    assert_eq!(located(parse(&bytes).unwrap_err()), ("meshes[0].faces[0].len".into(), at as u64));

    // A vertex count far beyond the file.
    let mut bytes = fixture_v14();
    let at = 6 + 8 + 1 + 16 + 4 + 80 + 40 + 4 + 80 + 4 + 8 + 36 + 52;
    assert_eq!(bytes[at..at + 4], 3i32.to_le_bytes());
    bytes[at..at + 4].copy_from_slice(&0x4000_0000i32.to_le_bytes());
    let err = parse(&bytes).unwrap_err();
    assert!(matches!(err, Error::Limit { .. }), "{err}");
    assert_eq!(located(err), ("meshes[0].vertices".into(), at as u64));

    // A negative count.
    bytes[at..at + 4].copy_from_slice(&(-1i32).to_le_bytes());
    assert_eq!(located(parse(&bytes).unwrap_err()), ("meshes[0].vertices".into(), at as u64));

    // 1 to 3 bytes where the volume-box count would be.
    let mut bytes = fixture_v23();
    bytes.extend_from_slice(&[1, 0]);
    assert_eq!(located(parse(&bytes).unwrap_err()).0, "volume_boxes");
}

#[test]
fn bytes_after_the_volume_boxes_are_kept() {
    let mut bytes = fixture_v22();
    bytes.extend_from_slice(b"tail");
    let rsm = round_trips(&bytes);
    assert_eq!(rsm.trailing.0, b"tail");
}

#[test]
fn hand_made_files_survive_truncation_and_flips() {
    // Files with a volume-box count are also valid cut just before it (the count is optional).
    for bytes in [fixture_v14(), fixture_v22(), fixture_v15(), fixture_v11_to_13(1)] {
        let report = relic::testing::check_robustness(&bytes, false, |b| parse(b).map(|_| ()));
        assert_eq!(report.truncations_rejected, report.truncations - 1, "only the cut before the count reads");
    }
    let report = relic::testing::check_robustness(&fixture_v23(), true, |b| parse(b).map(|_| ()));
    assert_eq!(report.truncations_rejected, report.truncations);
    // A writer-made file too.
    let sample = write(&pyramid(Version::new(2, 3))).unwrap();
    relic::testing::check_robustness(&sample, true, |b| parse(b).map(|_| ()));
}

// =========================================================================================================
// Writer

#[test]
fn writer_refuses_fields_the_version_does_not_carry() {
    let ok = parse(&fixture_v14()).unwrap();
    let field = |rsm: &Rsm| match write(rsm).unwrap_err() {
        Error::Refusal { format: "ro-rsm", field, .. } => field,
        other => panic!("not a refusal: {other}"),
    };

    let mut r = ok.clone();
    r.frame_rate = Some(30.0);
    assert_eq!(field(&r), "frame_rate");
    let mut r = ok.clone();
    r.alpha = None;
    assert_eq!(field(&r), "alpha");
    let mut r = ok.clone();
    r.meshes[1].position_keys.push(PositionKey::default());
    assert_eq!(field(&r), "meshes[1].position_keys");
    let mut r = ok.clone();
    r.meshes[0].faces[0].smooth_groups.push(1);
    assert_eq!(field(&r), "meshes[0].faces[0].smooth_groups");
    let mut r = ok.clone();
    r.root_names.push(Name::new("second"));
    assert_eq!(field(&r), "root_names");
    let mut r = ok.clone();
    r.meshes[0].name = Name::new("x".repeat(41));
    assert_eq!(field(&r), "meshes[0].name");
    let mut r = ok.clone();
    r.version = Version::new(3, 0);
    assert_eq!(field(&r), "version");
    let mut r = parse(&fixture_v23()).unwrap();
    r.trailing.0 = vec![1];
    assert_eq!(field(&r), "trailing");
}

#[test]
fn edited_text_wins_over_stale_raw_bytes() {
    let mut rsm = parse(&fixture_v14()).unwrap();
    assert!(rsm.meshes[1].name.raw.is_some());
    rsm.meshes[1].name.text = "renamed".into();
    let back = parse(&write(&rsm).unwrap()).unwrap();
    assert_eq!(back.meshes[1].name, Name::new("renamed"));
    // Unchanged text keeps its junk.
    assert_eq!(back.meshes[1].parent_name, rsm.meshes[1].parent_name);
}

#[test]
fn face_len_is_written_from_the_smooth_groups() {
    let mut rsm = parse(&fixture_v23()).unwrap();
    rsm.meshes[0].faces[1].smooth_groups = vec![1, 2, 3, 4, 5, 6];
    let bytes = write(&rsm).unwrap();
    assert!(bytes.windows(4).any(|w| w == 44i32.to_le_bytes()));
    assert_eq!(parse(&bytes).unwrap().meshes[0].faces[1].smooth_groups.len(), 6);
}

// =========================================================================================================
// Mesh tree and time base

fn named(version: Version, meshes: &[(&str, &str)]) -> Rsm {
    let mut rsm = Rsm::new(version);
    for (name, parent) in meshes {
        let mut m = Mesh::new(version, *name);
        m.parent_name = Name::new(*parent);
        rsm.meshes.push(m);
    }
    rsm
}

#[test]
fn parents_are_found_by_first_name_and_cycles_are_cut() {
    let v = Version::new(2, 3);
    // Repeated name "a": children of "a" go to the first one.
    let rsm = named(v, &[("a", ""), ("a", ""), ("b", "a"), ("c", "missing"), ("self", "self")]);
    assert_eq!(rsm.parents(), vec![None, None, Some(0), None, None]);
    assert_eq!(rsm.roots(), vec![0, 1, 3, 4]);
    assert_eq!(rsm.parent_of(2), Some(0));
    assert_eq!(rsm.parent_of(4), None, "a mesh is not its own parent");
    // Repeated name where the second "a" is a child of the first: "b" still hangs on the first.
    let rsm = named(v, &[("a", ""), ("a", "a"), ("b", "a")]);
    assert_eq!(rsm.parents(), vec![None, Some(0), Some(0)]);
    // A cycle x -> y -> x: the link closing it (y's, taken second) is cut.
    let rsm = named(v, &[("x", "y"), ("y", "x"), ("z", "x")]);
    assert_eq!(rsm.parents(), vec![Some(1), None, Some(0)]);
    assert_eq!(rsm.roots(), vec![1]);
    assert_eq!(rsm.children(), vec![vec![2], vec![0], vec![]]);
}

#[test]
fn below_2_2_the_main_mesh_is_the_root() {
    let v = Version::new(1, 4);
    let mut rsm = named(v, &[("child", "main"), ("main", "child"), ("orphan", "")]);
    rsm.root_names = vec![Name::new("main")];
    assert_eq!(rsm.parents(), vec![Some(1), None, None], "the main mesh never gets a parent");
    assert_eq!(rsm.roots(), vec![1, 2]);
    // Without a mesh of the main name, roots are found as from 2.2 on.
    rsm.root_names = vec![Name::new("nowhere")];
    assert_eq!(rsm.roots(), vec![1, 2]);
    assert_eq!(rsm.parents(), vec![Some(1), None, None]);
}

#[test]
fn time_base_falls_back_to_30_fps() {
    let mut rsm = Rsm::new(Version::new(2, 2));
    rsm.animation_length = 90;
    rsm.frame_rate = Some(0.0);
    assert_eq!(rsm.time_base(), TimeBase::Frames { fps: 30.0 });
    assert_eq!(rsm.animation_seconds(), 3.0);
    rsm.frame_rate = Some(f32::NAN);
    assert_eq!(rsm.animation_seconds(), 3.0);
    rsm.frame_rate = Some(60.0);
    assert_eq!(rsm.animation_seconds(), 1.5);
}

// =========================================================================================================
// Floats in JSON

#[test]
fn floats_survive_json_bit_exactly() {
    #[derive(serde::Serialize, serde::Deserialize)]
    struct One {
        #[serde(with = "relic::ragnarok::rsm::float")]
        v: f32,
    }
    let mut specials: Vec<u32> = vec![
        0,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007F_FFFF,
        0x0080_0000,
        0x7F7F_FFFF,
        0xFF7F_FFFF,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0xFFC0_0001,
        0x7F80_0001,
        0x3DCC_CCCD,
        // The two f32s whose shortest decimal's nearest f64 is a midpoint between two f32s.
        0x15AE_43FD,
        0x95AE_43FD,
    ];
    // A deterministic spread over every exponent and many mantissas.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..200_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        specials.push(x as u32);
    }
    for bits in specials {
        let one = One { v: f32::from_bits(bits) };
        let text = serde_json::to_string(&one).unwrap();
        let back: One = serde_json::from_str(&text).unwrap();
        assert_eq!(back.v.to_bits(), bits, "{text}");
        // With a correctly rounded parser (serde_json's `float_roundtrip`) too.
        let correct: f64 =
            serde_json::to_string(&serde_json::to_value(&one).unwrap()["v"]).unwrap().parse().unwrap_or(0.0);
        if f32::from_bits(bits).is_finite() {
            assert_eq!((correct as f32).to_bits(), bits, "{text}");
        }
        let value = serde_json::to_value(&one).unwrap();
        let back: One = serde_json::from_str(&serde_json::to_string_pretty(&value).unwrap()).unwrap();
        assert_eq!(back.v.to_bits(), bits, "via Value: {value}");
    }
    assert_eq!(serde_json::to_string(&One { v: 0.1 }).unwrap(), r#"{"v":0.1}"#);
    assert_eq!(serde_json::to_string(&One { v: f32::NAN }).unwrap(), r#"{"v":"0x7FC00000"}"#);
}

#[test]
fn non_finite_floats_round_trip_through_the_document() {
    let mut rsm = parse(&fixture_v23()).unwrap();
    rsm.meshes[0].vertices[0] = [f32::NAN, f32::INFINITY, -0.0];
    rsm.meshes[0].matrix[4] = f32::from_bits(0x7FA0_0001); // a signalling NaN payload
    let bytes = write(&rsm).unwrap();
    let format = relic::registry::by_id("ro-rsm").unwrap();
    let value = format.to_json(&bytes).unwrap();
    let text = serde_json::to_string_pretty(&value).unwrap();
    assert!(text.contains("\"0x7FC00000\"") && text.contains("\"0x7F800000\"") && text.contains("\"0x7FA00001\""));
    let again = format.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap();
    assert_eq!(again, bytes);
}

// =========================================================================================================
// Corpus

fn corpus() -> Option<PathBuf> {
    crate::common::corpus("ragnarok")
}

fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("rsm" | "rsm2")))
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_model_round_trips_through_json_text() {
    let Some(dir) = corpus() else { return };
    let files = corpus_files(&dir);
    assert!(files.len() >= 7, "expected the corpus's seven models, found {}", files.len());
    let format = relic::registry::by_id("ro-rsm").unwrap();
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display();
        let rsm = parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(write(&rsm).unwrap(), bytes, "{name}: direct write");
        let text = serde_json::to_string(&rsm).unwrap();
        let back: Rsm = serde_json::from_str(&text).unwrap();
        assert_eq!(write(&back).unwrap(), bytes, "{name}: through JSON text");
        // The registry's faces, as `convert --to json` and `pack` use them.
        let value = format.to_json(&bytes).unwrap();
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        assert_eq!(
            format.from_json(serde_json::from_str(&pretty).unwrap(), &Default::default()).unwrap(),
            bytes,
            "{name}: codec"
        );
        format.info(&bytes).unwrap();
        let (found, _) = relic::registry::sniff(&bytes, &path.to_string_lossy()).unwrap();
        assert_eq!(found.id, "ro-rsm");
    }
}

#[test]
fn goldberg_facts() {
    let Some(dir) = corpus() else { return };
    let rsm = parse(&std::fs::read(dir.join("goldberg_s_01.rsm2")).unwrap()).unwrap();
    assert_eq!(rsm.version, Version::new(2, 3));
    assert_eq!(rsm.meshes.len(), 32);
    assert_eq!((rsm.animation_length, rsm.frame_rate), (700, Some(30.0)));
    assert_eq!(rsm.volume_boxes, None, "no volume-box count at the end");
    assert!(rsm.meshes.iter().any(|m| !m.rotation_keys.is_empty()));
    assert!(rsm.meshes.iter().any(|m| !m.position_keys.is_empty()));
    assert!(rsm.meshes.iter().any(|m| !m.scale_keys.is_empty()));
    assert!(rsm.meshes.iter().any(|m| !m.texture_animations.is_empty()));
    let lens: std::collections::BTreeSet<usize> =
        rsm.meshes.iter().flat_map(|m| &m.faces).map(|f| f.record_len()).collect();
    assert_eq!(lens, [24, 28].into(), "face records of one and two smooth groups");
    let det = |m: &[f32; 9]| {
        m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
    };
    assert!(rsm.meshes.iter().any(|m| det(&m.matrix) < 0.0), "some matrices mirror");
    assert_eq!(rsm.root_names, vec![Name::new("goldberg_s_01")]);
    assert_eq!(rsm.roots(), vec![0]);
    assert_eq!(rsm.time_base(), TimeBase::Frames { fps: 30.0 });
    assert!((rsm.animation_seconds() - 700.0 / 30.0).abs() < 1e-9);
    // Every mesh is in the tree under the root.
    let parents = rsm.parents();
    assert!(parents.iter().skip(1).all(Option::is_some));
    for m in &rsm.meshes {
        assert!(rsm.mesh_textures(m).iter().all(Option::is_some));
    }
}

#[test]
fn handmade_corpus_facts() {
    let Some(dir) = corpus() else { return };
    let rsm = parse(&std::fs::read(dir.join("handmade_v0203.rsm2")).unwrap()).unwrap();
    assert_eq!(rsm.root_names.len(), 2);
    assert_eq!(rsm.alpha, Some(252));
    assert!(rsm.meshes.iter().flat_map(|m| &m.faces).any(|f| f.record_len() == 32));
    assert_eq!(rsm.meshes[0].texture_animations.len(), 2);
    let rsm = parse(&std::fs::read(dir.join("handmade_v0104.rsm")).unwrap()).unwrap();
    assert_eq!(rsm.scale_keys.len(), 2);
    assert_eq!(rsm.volume_boxes.as_ref().map(Vec::len), Some(2));
    // A real 1.4 name with junk after its NUL and one starting with a space.
    let dish = parse(&std::fs::read(dir.join("dish_01.rsm")).unwrap()).unwrap();
    assert_eq!(dish.root_names[0].text, "dish_01");
    assert!(dish.root_names[0].raw.is_some());
    let pillar = parse(&std::fs::read(dir.join("pillar_01.rsm")).unwrap()).unwrap();
    assert_eq!(pillar.meshes[0].name.text, " pillar_01");
    assert_eq!(pillar.roots(), vec![0]);
}

/// `check_robustness` at a stride, for files too big to cut at every length in a debug build: no panic,
/// and every truncation is rejected (`cut_ok` is the one length that may parse: the end before an
/// optional volume-box count).
fn strided_robustness(bytes: &[u8], cut_step: usize, flip_step: usize, cut_ok: Option<usize>) {
    for len in (0..bytes.len()).step_by(cut_step) {
        assert!(parse(&bytes[..len]).is_err() || Some(len) == cut_ok, "truncated to {len} bytes and accepted");
    }
    let mut copy = bytes.to_vec();
    for pos in (0..bytes.len()).step_by(flip_step) {
        for mask in [0xFF, 0x80, 0x01] {
            copy[pos] ^= mask;
            let _ = parse(&copy);
            copy[pos] ^= mask;
        }
    }
}

#[test]
fn corpus_models_survive_truncation_and_flips() {
    let Some(dir) = corpus() else { return };
    // Small real files: every truncation, every flip.
    for name in ["dish_01.rsm", "handmade_v0104.rsm", "handmade_v0203.rsm2"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        relic::testing::check_robustness(&bytes, false, |b| parse(b).map(|_| ()));
    }
    // Bigger ones at a stride, so the test stays quick in debug builds: jail_01 (7.6 KB) every 7th
    // truncation and flips at every 5th byte; goldberg (113 KB) every 97th truncation, flips every 251st.
    let jail = std::fs::read(dir.join("jail_01.rsm")).unwrap();
    strided_robustness(&jail, 7, 5, Some(jail.len() - 4));
    let goldberg = std::fs::read(dir.join("goldberg_s_01.rsm2")).unwrap();
    strided_robustness(&goldberg, 97, 251, None);
}

// =========================================================================================================
// Writer-made models: samples and random round trips

/// A textured pyramid with a rotation key animation (the samples are built the same way).
fn pyramid(version: Version) -> Rsm {
    let mut rsm = Rsm::new(version);
    rsm.animation_length = if version.is_rsm2() { 60 } else { 2000 };
    rsm.shade_type = 1;
    let mut m = Mesh::new(version, "pyramid");
    if version.has_mesh_textures() {
        m.textures = vec![Name::new("stone.bmp")];
    } else {
        rsm.textures = vec![Name::new("stone.bmp")];
        m.texture_indices = vec![0];
    }
    rsm.root_names = vec![Name::new("pyramid")];
    m.vertices = vec![[-1.0, 0.0, -1.0], [1.0, 0.0, -1.0], [1.0, 0.0, 1.0], [-1.0, 0.0, 1.0], [0.0, -2.0, 0.0]];
    let color = version.has_vertex_colors().then_some(0xFFFF_FFFF);
    m.tex_vertices = [[0.0, 1.0], [1.0, 1.0], [0.5, 0.0]].map(|uv| TexVertex { color, uv }).to_vec();
    let group = if version.has_smooth_groups() { vec![1] } else { vec![] };
    m.faces = [[0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4], [0, 2, 1], [0, 3, 2]]
        .map(|v| Face { vertices: v, tex_vertices: [0, 1, 2], smooth_groups: group.clone(), ..Face::default() })
        .to_vec();
    let end = rsm.animation_length;
    m.rotation_keys = vec![
        RotationKey { frame: 0, quaternion: [0.0, 0.0, 0.0, 1.0] },
        RotationKey { frame: end / 2, quaternion: [0.0, 1.0, 0.0, 0.0] },
        RotationKey { frame: end, quaternion: [0.0, 0.0, 0.0, -1.0] },
    ];
    rsm.meshes.push(m);
    if version.has_mesh_textures() {
        rsm.volume_boxes = None;
    }
    rsm
}

#[test]
fn samples_parse_to_what_was_built() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/ragnarok");
    for (file, version) in [("pyramid.rsm", Version::new(1, 4)), ("pyramid.rsm2", Version::new(2, 3))] {
        let bytes = std::fs::read(root.join(file)).unwrap();
        let rsm = parse(&bytes).unwrap();
        assert_eq!(rsm.version, version);
        assert_eq!(rsm.meshes[0].faces.len(), 6);
        assert_eq!(rsm.meshes[0].rotation_keys.len(), 3);
        assert_eq!(rsm.face_texture(&rsm.meshes[0], &rsm.meshes[0].faces[0]).map(Name::as_str), Some("stone.bmp"));
        assert_eq!(rsm.animation_seconds(), 2.0);
    }
}
