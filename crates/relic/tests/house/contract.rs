//! The contract every registered format keeps, one row per format of `relic::FORMATS`: a small file made
//! here byte by byte from the format's public layout (never by relic's writers), found by its magic or its
//! name, read with the values the row expects, written back from its JSON to the very bytes (and again after
//! the JSON went through text), and every truncation and 1,000 seeded bit flips of it refused cleanly or
//! read, never a panic. A format's own test module holds only what is specific to it.
//!
//! The rows also say which samples in `samples/` each format has: the tests that walk the samples
//! (`identify`, `samples`, `typed_access`, `sweep`) take their lists and counts from here and the registry.

use relic::registry::{self, Confidence, Format};
use serde_json::Value;

use crate::common::{self, Le};
use crate::ei_map_fixtures;
use crate::srsc_fixtures;

/// How a file of the format is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By {
    /// By its magic, under any name.
    Magic,
    /// By its name (an extension or a claimed name), its bytes agreeing; under another name it is unknown.
    Name,
    /// Never identified: read only when `--format` names it.
    Selected,
}

pub struct Row {
    pub id: &'static str,
    /// The name the hand-made file goes by (the codec it selects, for formats whose layout the name decides).
    pub name: &'static str,
    pub by: By,
    pub bytes: fn() -> Vec<u8>,
    /// How many proper prefixes of the file still read (0: the layout says how long the file is; a
    /// headerless file of records reads at every record's end).
    pub truncations_read: usize,
    /// JSON pointer → the value `info` gives there, as JSON text.
    pub info: &'static [(&'static str, &'static str)],
    /// JSON pointer → the value the document (`convert --to json`) holds there, as JSON text.
    pub document: &'static [(&'static str, &'static str)],
    /// The files of `samples/` of this format (paths below `samples/`).
    pub samples: &'static [&'static str],
}

/// Bit flips per format; seeded, so a failure names a flip that reproduces.
const FLIPS: usize = 1000;
const SEED: u64 = 0x5EED_0041;

pub static ROWS: &[Row] = &[
    Row {
        id: "ei-res",
        name: "a.res",
        by: By::Magic,
        bytes: ei_res,
        truncations_read: 0,
        info: &[("/entries", "1"), ("/content_bytes", "16")],
        document: &[("/entries/0/name", r#""hello.txt""#), ("/entries/0/modified", "1600000000")],
        samples: &[
            "evil_islands/example.res",
            "evil_islands/unit.anm",
            "evil_islands/unit.bon",
            "evil_islands/unit.mod",
        ],
    },
    Row {
        id: "ei-reg",
        name: "a.reg",
        by: By::Magic,
        bytes: ei_reg,
        truncations_read: 0,
        info: &[("/sections", "1"), ("/keys", "1")],
        document: &[("/sections/0/name", r#""S""#), ("/sections/0/keys/0/value", "7")],
        samples: &["evil_islands/settings.reg"],
    },
    Row {
        id: "ei-cam",
        name: "a.cam",
        by: By::Name,
        bytes: ei_cam,
        truncations_read: 2,
        info: &[("/records", "2"), ("/last_time_u32", "1500")],
        document: &[("/records/1/position/x", "12.5")],
        samples: &["evil_islands/intro.cam"],
    },
    Row {
        id: "ei-adb",
        name: "a.adb",
        by: By::Magic,
        bytes: ei_adb,
        truncations_read: 0,
        info: &[("/unit_name", r#""unhufe""#), ("/animations", "1")],
        document: &[("/animations/0/name", r#""attack1""#), ("/animations/0/movement_speed", "0.25")],
        samples: &["evil_islands/unhuma.adb"],
    },
    Row {
        id: "ei-mmp",
        name: "a.mmp",
        by: By::Magic,
        bytes: ei_mmp,
        truncations_read: 0,
        info: &[("/pixel_format", r#""argb4""#), ("/width", "2")],
        document: &[("/levels/0/height", "2")],
        samples: &["evil_islands/example_argb4.mmp", "evil_islands/example_dxt1.mmp", "evil_islands/unit.mmp"],
    },
    Row {
        id: "ei-db",
        name: "items.idb",
        by: By::Name,
        bytes: ei_db,
        truncations_read: 0,
        info: &[("/tables/0/name", r#""Armors""#), ("/records", "1")],
        document: &[("/database/tables/0/records/0/fields/0/string", r#""Plate""#)],
        samples: &["evil_islands/items.idb"],
    },
    Row {
        id: "ei-mob",
        name: "a.mob",
        by: By::Name,
        bytes: ei_mob,
        truncations_read: 0,
        info: &[("/nodes", "2"), ("/top_level/0/name", r#""OBJECT""#)],
        document: &[("/nodes/0/children/0/dword", "7")],
        samples: &["evil_islands/level.mob"],
    },
    Row {
        id: "ei-lnk",
        name: "a.lnk",
        by: By::Name,
        bytes: ei_lnk,
        truncations_read: 0,
        info: &[("/links", "2"), ("/roots", r#"["body"]"#)],
        document: &[("/links/1/parent", r#""body""#)],
        samples: &["evil_islands/unit.lnk"],
    },
    Row {
        id: "ei-bon",
        name: "a.bon",
        by: By::Name,
        bytes: ei_bon,
        truncations_read: 2,
        info: &[("/offsets", "2")],
        document: &[("/offsets/1", "[2.0, -1.0, 1.5]")],
        samples: &["evil_islands/body.bon"],
    },
    Row {
        id: "ei-fig",
        name: "a.fig",
        by: By::Magic,
        bytes: ei_fig,
        truncations_read: 0,
        info: &[("/morphs", "1"), ("/triangles", "1"), ("/group", "19")],
        document: &[("/indices", "[0, 1, 2]")],
        samples: &["evil_islands/body.fig"],
    },
    Row {
        id: "ei-anm",
        name: "a.anm",
        by: By::Name,
        bytes: ei_anm,
        truncations_read: 0,
        info: &[("/rotation_frames", "2"), ("/morphing_frames", "0")],
        document: &[("/translations/1", "[1.0, 2.0, 3.0]")],
        samples: &["evil_islands/body.anm"],
    },
    Row {
        id: "ei-mp",
        name: "zone.mp",
        by: By::Magic,
        bytes: ei_map_fixtures::mp,
        truncations_read: 0,
        info: &[("/sectors_x", "2"), ("/materials", "2")],
        document: &[("/animated_tiles/1", r#"{"start": 20, "length": 2}"#)],
        samples: &["evil_islands/isle.mp"],
    },
    Row {
        id: "ei-sec",
        name: "zone000000.sec",
        by: By::Magic,
        bytes: ei_map_fixtures::dry_sec,
        truncations_read: 0,
        info: &[("/liquids", "0"), ("/min_z", "7"), ("/max_z", "35207")],
        document: &[("/land/dx/7/5", "127")],
        samples: &["evil_islands/isle000000.sec", "evil_islands/isle001000.sec"],
    },
    Row {
        id: "ro-grf",
        name: "a.grf",
        by: By::Magic,
        bytes: ro_grf,
        truncations_read: 0,
        info: &[("/entries", "1"), ("/version", r#""0x200""#)],
        document: &[("/entries/0/name", r#""data\\raw.bin""#)],
        samples: &["ragnarok/example.grf"],
    },
    Row {
        id: "ro-rsm",
        name: "a.rsm",
        by: By::Magic,
        bytes: ro_rsm,
        truncations_read: 1,
        info: &[("/version", r#""1.5""#), ("/meshes", "1")],
        document: &[("/extra_v1_5", "287454020"), ("/meshes/0/rotation_keys/0/frame", "50")],
        samples: &["ragnarok/pyramid.rsm", "ragnarok/pyramid.rsm2"],
    },
    Row {
        id: "ro-rsw",
        name: "a.rsw",
        by: By::Magic,
        bytes: ro_rsw,
        truncations_read: 0,
        info: &[("/version", r#""1.2""#), ("/gnd_file", r#""map.gnd""#), ("/models", "0")],
        document: &[("/ini_file", r#""map.ini""#)],
        samples: &["ragnarok/map.rsw"],
    },
    Row {
        id: "ro-texture",
        name: "a.bmp",
        by: By::Magic,
        bytes: ro_texture,
        truncations_read: 40,
        info: &[("/type", r#""bmp""#), ("/width", "2"), ("/bits_per_pixel", "24")],
        document: &[("/height", "2")],
        samples: &["ragnarok/wall.bmp"],
    },
    Row {
        id: "ro-act",
        name: "a.act",
        by: By::Magic,
        bytes: ro_act,
        truncations_read: 0,
        info: &[("/actions", "1"), ("/delays", "[4.0]")],
        document: &[("/actions/0/motions/0/layers/0/x", "-3")],
        samples: &["ragnarok/sample.act"],
    },
    Row {
        id: "ro-gnd",
        name: "a.gnd",
        by: By::Magic,
        bytes: ro_gnd,
        truncations_read: 0,
        info: &[("/version", r#""1.7""#), ("/height_min", "2.5")],
        document: &[("/cubes/0", "[1.0, 2.0, 3.0, 4.0, -1, -1, -1]")],
        samples: &["ragnarok/map.gnd"],
    },
    Row {
        id: "ro-pal",
        name: "a.pal",
        by: By::Name,
        bytes: ro_pal,
        truncations_read: 0,
        info: &[("/colors", "256"), ("/first", r##""#00FF00""##)],
        document: &[("/colors/255", r##""#FF007F""##)],
        samples: &["ragnarok/dye.pal"],
    },
    Row {
        id: "ro-gat",
        name: "a.gat",
        by: By::Magic,
        bytes: ro_gat,
        truncations_read: 0,
        info: &[("/cells", "2"), ("/types/1/name", r#""blocked""#)],
        document: &[("/cells/1/top_right", "-10.0")],
        samples: &["ragnarok/map.gat"],
    },
    Row {
        id: "ro-table",
        name: "idnum2itemdisplaynametable.txt",
        by: By::Name,
        bytes: ro_table,
        truncations_read: 21,
        info: &[("/rows", "1"), ("/line_ending", r#""CRLF""#)],
        document: &[("/lines/1", r#"["501", "빨간포션"]"#)],
        samples: &[],
    },
    Row {
        id: "ro-imf",
        name: "novice_m.imf",
        by: By::Magic,
        bytes: ro_imf,
        truncations_read: 0,
        info: &[("/version", r#""1.01""#), ("/head_under_body_frames", "1"), ("/layers/0/frames", "2")],
        document: &[("/layers/1/0/0", r#"{"priority": 1, "x": -3, "y": 5}"#), ("/priorities/0/name", r#""body""#)],
        samples: &["ragnarok/novice_m.imf"],
    },
    Row {
        id: "drakan-srsc",
        name: "a.odb",
        by: By::Magic,
        bytes: drakan_srsc,
        truncations_read: 0,
        info: &[("/records", "1"), ("/record_types/0x0101 class_group", "1")],
        document: &[("/records/0/type_name", r#""class_group""#), ("/records/0/id", "1")],
        samples: &[
            "drakan/Common.txd",
            "drakan/Dragon.rrc",
            "drakan/Sample.adb",
            "drakan/Sample.lvl",
            "drakan/Sample.mod",
            "drakan/Sample.sdb",
            "drakan/Sample.txd",
        ],
    },
    Row {
        id: "drakan-db",
        name: "Common.db",
        by: By::Name,
        bytes: drakan_db,
        truncations_read: 29,
        info: &[("/version", r#""1.0""#), ("/dependencies", "[]")],
        document: &[("/text", r#""version 1.0\r\ndependencies 0\r\n""#)],
        samples: &["drakan/Common.db", "drakan/Sample.db"],
    },
    Row {
        id: "dr-ftg",
        name: "a.ftg",
        by: By::Magic,
        bytes: dr_ftg,
        truncations_read: 0,
        info: &[("/files", "2"), ("/directory_offset", "24")],
        document: &[("/entries/1/name", r#""EMPTY.TXT""#)],
        samples: &["dark_reign/SPRITES.FTG"],
    },
    Row {
        id: "dr-pal",
        name: "a.pal",
        by: By::Magic,
        bytes: dr_pal,
        truncations_read: 0,
        info: &[("/colors", "256"), ("/version", r#""0x0102""#)],
        document: &[("/version", "258")],
        samples: &["dark_reign/BARREN.PAL"],
    },
    Row {
        id: "ro-spr",
        name: "a.spr",
        by: By::Magic,
        bytes: ro_spr,
        truncations_read: 1,
        info: &[("/version", r#""2.1""#), ("/palette_frame_sizes", r#"["2x1"]"#)],
        document: &[("/palette_frames/0/width", "2")],
        samples: &["ragnarok/sprite.spr"],
    },
    Row {
        id: "dr-spr",
        name: "a.spr",
        by: By::Magic,
        bytes: dr_spr,
        truncations_read: 1,
        info: &[("/magic", r#""SSPR""#), ("/width", "4"), ("/pictures", "1")],
        document: &[("/sections/0/rate", "19660")],
        samples: &["dark_reign/unit.spr"],
    },
    Row {
        id: "dr-ftg-spr",
        name: "sprite.bin",
        by: By::Selected,
        bytes: dr_ftg_spr,
        truncations_read: 0,
        info: &[("/frames", "2"), ("/sizes", r#"["3x2", "1x1"]"#)],
        document: &[("/frames/1/pixels", r#""Bw==""#)],
        samples: &[],
    },
    Row {
        id: "freerct-rcd",
        name: "a.rcd",
        by: By::Magic,
        bytes: freerct_rcd,
        truncations_read: 1,
        info: &[("/blocks", "1"), ("/info/name", r#""Contract""#)],
        document: &[("/blocks/0/magic", r#""INFO""#)],
        samples: &["freerct/baseset.rcd", "freerct/tiles.rcd"],
    },
];

// ---------------------------------------------------------------------------------------------------------
// The hand-made files, each from its format's layout (`docs`/specs named in the format's module).

/// RES: header (magic, count, table offset, names length), one 16-byte entry, its 22-byte record (next −1,
/// size, offset, time, name length, name offset), the name.
fn ei_res() -> Vec<u8> {
    let data = b"sixteen bytes!\r\n";
    let name = b"hello.txt";
    Le::new()
        .bytes(&[0x3C, 0xE2, 0x9C, 0x01])
        .u32(1)
        .u32(16 + 16)
        .u32(name.len() as u32)
        .bytes(data)
        .i32(-1)
        .u32(16)
        .u32(16)
        .u32(0x5F5E_1000)
        .u16(name.len() as u16)
        .u32(0)
        .bytes(name)
        .build()
}

/// REG: magic, one section (slot 0: next −1, at 12), the section `S`: one key (slot 0 at its header's end),
/// the int key `a` = 7.
fn ei_reg() -> Vec<u8> {
    let key = Le::new().u8(0).u16(1).bytes(b"a").i32(7).build();
    let section = Le::new().u16(1).u16(1).bytes(b"S").u16(0xFFFF).u32(4 + 1 + 6).build();
    Le::new().bytes(&[0xFB, 0x3E, 0xAB, 0x45]).u16(1).u16(0xFFFF).u32(12).bytes(&section).bytes(&key).build()
}

/// CAM: two 36-byte records (time, a second u32, position, rotation w x y z).
fn ei_cam() -> Vec<u8> {
    Le::new()
        .u32(0)
        .u32(1)
        .f32(10.0)
        .f32(20.0)
        .f32(5.5)
        .f32(1.0)
        .f32(0.0)
        .f32(0.0)
        .f32(0.0)
        .u32(1500)
        .u32(2)
        .f32(12.5)
        .f32(-20.0)
        .f32(6.0)
        .f32(0.0)
        .f32(0.0)
        .f32(0.0)
        .f32(1.0)
        .build()
}

/// ADB: `ADB\0`, one animation, a 24-byte unit name, three heights, the 88-byte animation record.
fn ei_adb() -> Vec<u8> {
    let mut b = Le::new().bytes(b"ADB\0").u32(1).fixed(b"unhufe", 24).f32(0.5).f32(1.0).f32(1.8);
    b = b.fixed(b"attack1", 16).u32(0).bytes(&0u64.to_le_bytes()).u32(50).u32(30).f32(0.25);
    for frame in 1..=12 {
        b = b.u32(frame);
    }
    b.build()
}

/// MMP: the 76-byte header (2 × 2 ARGB4, one level, its masks), four 16-bit texels.
fn ei_mmp() -> Vec<u8> {
    let mut b = Le::new().bytes(b"MMP\0").u32(2).u32(2).u32(1).u32(0x4444).u32(16);
    for (mask, shift, bits) in [(0xF000, 12, 4), (0x0F00, 8, 4), (0x00F0, 4, 4), (0x000F, 0, 4)] {
        b = b.u32(mask).u32(shift).u32(bits);
    }
    b.u32(0).u16(0xF00F).u16(0x8F00).u16(0x00F0).u16(0x1234).build()
}

/// DB (`.idb`): the root node (long size form), the armour table (3), one record, one string field `Plate`.
fn ei_db() -> Vec<u8> {
    let short = |ty: u8, payload: &[u8]| Le::new().u8(ty).u8((payload.len() as u8) << 1).bytes(payload).build();
    let field = short(0x00, b"Plate\0");
    let record = short(0x01, &field);
    let table = short(0x03, &record);
    Le::new().u8(0x01).u32((table.len() as u32) << 1 | 1).bytes(&table).build()
}

/// MOB: an object record (`0xB001`) holding its id node (`0xB002`, 7).
fn ei_mob() -> Vec<u8> {
    let node = |ty: u32, payload: &[u8]| Le::new().u32(ty).u32(8 + payload.len() as u32).bytes(payload).build();
    node(0x0000_B001, &node(0x0000_B002, &7u32.to_le_bytes()))
}

/// LNK: two parts, `body` (the root) and `head` hanging from it; names counted with their NUL.
fn ei_lnk() -> Vec<u8> {
    let name = |b: Le, raw: &[u8]| b.u32(raw.len() as u32).bytes(raw);
    let b = Le::new().u32(2);
    let b = name(name(b, b"body\0"), b"");
    name(name(b, b"head\0"), b"body\0").build()
}

/// BON: two morph offsets (3 × f32 each).
fn ei_bon() -> Vec<u8> {
    [1.0f32, -0.5, 1.25, 2.0, -1.0, 1.5].iter().fold(Le::new(), |b, v| b.f32(*v)).build()
}

/// FIG1: one morph, one vertex and one normal block (4 lanes), three texture coordinates, one triangle over
/// three vertex components and three morphing components.
fn ei_fig() -> Vec<u8> {
    let mut b = Le::new().bytes(b"FIG1").u32(1).u32(1).u32(3).u32(3).u32(3).u32(3).u32(0).u32(19).u32(3);
    // Centre, minimum, maximum, radius.
    for v in [0.0f32, 0.0, 0.5, 0.0, 0.0, 0.0, 2.0, 1.0, 1.0, 8.0] {
        b = b.f32(v);
    }
    // Vertex block: x[4], y[4], z[4] (one morph).
    for v in [0.0f32, 2.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0] {
        b = b.f32(v);
    }
    // Normal block: x[4], y[4], z[4], w[4].
    for v in [0.0f32, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0] {
        b = b.f32(v);
    }
    for v in [0.0f32, 0.0, 1.0, 0.0, 0.0, 1.0] {
        b = b.f32(v);
    }
    for i in [0u16, 1, 2] {
        b = b.u16(i);
    }
    for v in 0..3u16 {
        b = b.u16(v).u16(v).u16(v);
    }
    for v in 0..3u16 {
        b = b.u16(v).u16(v);
    }
    b.build()
}

/// ANM: two rotation keys (w x y z), two translation keys, no morphing frames.
fn ei_anm() -> Vec<u8> {
    let mut b = Le::new().u32(2);
    for v in [1.0f32, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0] {
        b = b.f32(v);
    }
    b = b.u32(2);
    for v in [0.0f32, 0.0, 0.0, 1.0, 2.0, 3.0] {
        b = b.f32(v);
    }
    b.u32(0).build()
}

/// GRF 0x200: the 46-byte header, one file stored raw (16 bytes, sizes equal), the zlib table.
fn ro_grf() -> Vec<u8> {
    let data: Vec<u8> = (0..16).collect();
    let table = Le::new().bytes(b"data\\raw.bin\0").u32(16).u32(16).u32(16).u8(1).u32(0).build();
    let packed = common::zlib6(&table);
    let key: Vec<u8> = (0..15).collect();
    Le::new()
        .bytes(b"Master of Magic")
        .bytes(&key)
        .u32(16)
        .u32(0)
        .u32(1 + 7)
        .u32(0x200)
        .bytes(&data)
        .u32(packed.len() as u32)
        .u32(table.len() as u32)
        .bytes(&packed)
        .build()
}

/// RSM 1.5: no texture, one mesh `m` with no vertices or faces, one rotation key, the extra int of 1.5, one
/// model-level scale key, no volume box.
fn ro_rsm() -> Vec<u8> {
    let mut b = Le::new().bytes(b"GRSM").u8(1).u8(5).i32(100).i32(0).u8(255).zeros(16).i32(0).fixed(b"m", 40);
    b = b.i32(1).fixed(b"m", 40).fixed(b"", 40).i32(0);
    for v in [1.0f32, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0] {
        b = b.f32(v);
    }
    b = b.zeros(13 * 4).i32(0).i32(0).i32(0).i32(1).i32(50).f32(0.0).f32(0.0).f32(1.0).f32(0.0);
    b.i32(0x1122_3344).i32(1).i32(20).f32(3.0).f32(3.0).f32(3.0).f32(0.0).i32(0).build()
}

/// RSW 1.2: the three file names, no objects.
fn ro_rsw() -> Vec<u8> {
    Le::new()
        .bytes(b"GRSW")
        .u8(1)
        .u8(2)
        .fixed(b"map.ini", 40)
        .fixed(b"map.gnd", 40)
        .fixed(b"map.gat", 40)
        .i32(0)
        .build()
}

/// BMP: a 2 × 2, 24-bit bitmap (file header, 40-byte info header, rows padded to 4 bytes, bottom row first).
fn ro_texture() -> Vec<u8> {
    Le::new()
        .bytes(b"BM")
        .u32(54 + 16)
        .u32(0)
        .u32(54)
        .u32(40)
        .i32(2)
        .i32(2)
        .u16(1)
        .u16(24)
        .zeros(24)
        .bytes(&[255, 0, 0, 255, 255, 255, 0, 0])
        .bytes(&[0, 0, 255, 0, 255, 0, 0, 0])
        .build()
}

/// ACT 2.5: one action of one motion with one layer, no events, its delay.
fn ro_act() -> Vec<u8> {
    let mut b = Le::new().bytes(b"AC").u8(5).u8(2).u16(1).zeros(10).u32(1);
    b = b.zeros(8 * 4).u32(1);
    // Layer: x, y, sprite, mirror, colour, scale x and y, rotation, kind, size.
    b = b.i32(-3).i32(4).i32(0).u32(0).bytes(&[255; 4]).f32(1.0).f32(1.0).i32(0).i32(0).i32(3).i32(2);
    b.i32(-1).u32(0).u32(0).f32(4.0).build()
}

/// GND 1.7: 1 × 1 cubes, no textures, lightmaps or surfaces; the cube's four heights and no faces.
fn ro_gnd() -> Vec<u8> {
    let b = Le::new().bytes(b"GRGN").u8(1).u8(7).i32(1).i32(1).f32(10.0).i32(0).i32(80);
    let b = b.i32(0).i32(8).i32(8).i32(1).i32(0);
    b.f32(1.0).f32(2.0).f32(3.0).f32(4.0).i32(-1).i32(-1).i32(-1).build()
}

/// PAL: 256 colours of R, G, B and a byte the client ignores.
fn ro_pal() -> Vec<u8> {
    (0..=255u8).flat_map(|i| [i, 255 - i, i / 2, 0]).collect()
}

/// GAT 1.2: 2 × 1 cells of four corner heights and a type.
fn ro_gat() -> Vec<u8> {
    let b = Le::new().bytes(b"GRAT").u8(1).u8(2).u32(2).u32(1);
    let b = b.f32(0.0).f32(-2.5).f32(-5.0).f32(-7.5).u32(0);
    b.f32(-2.5).f32(-5.0).f32(-7.5).f32(-10.0).u32(1).build()
}

/// A client table: a comment, `501#빨간포션#` in CP949, CRLF.
fn ro_table() -> Vec<u8> {
    Le::new()
        .bytes(b"// items\r\n501#")
        .bytes(&[0xBB, 0xA1, 0xB0, 0xA3, 0xC6, 0xF7, 0xBC, 0xC7])
        .bytes(b"#\r\n")
        .build()
}

/// IMF 1.01 (`f32` 1.01 = `AE 47 81 3F`), checksum 0, last layer 1: the body of one action of two frames
/// (priority 0), the head of one action of one frame (priority 1: under the body, at -3, 5).
fn ro_imf() -> Vec<u8> {
    let b = Le::new().bytes(&[0xAE, 0x47, 0x81, 0x3F]).u32(0).u32(1);
    let b = b.u32(1).u32(2).i32(0).i32(0).i32(0).i32(0).i32(7).i32(-7);
    b.u32(1).u32(1).i32(1).i32(-3).i32(5).build()
}

/// SRSC: one string record (0x0101, id 1) packed from offset 12, the directory last.
fn drakan_srsc() -> Vec<u8> {
    srsc_fixtures::packed(&[(0x0101, 1, 0, &srsc_fixtures::string("Lights"))])
}

/// A Drakan database: its text header with no dependencies.
fn drakan_db() -> Vec<u8> {
    b"version 1.0\r\ndependencies 0\r\n".to_vec()
}

/// FTG: `BOTG`, directory offset and count, two entries' data 4-byte padded, the directory (28-byte names,
/// offset, size).
fn dr_ftg() -> Vec<u8> {
    Le::new()
        .bytes(b"BOTG")
        .u32(12 + 12)
        .u32(2)
        .bytes(b"first tank")
        .bytes(&[0, 0])
        .fixed(b"TANK.SPR", 28)
        .u32(12)
        .u32(10)
        .fixed(b"EMPTY.TXT", 28)
        .u32(22)
        .u32(0)
        .build()
}

/// PALS 0x0102: six planes of 256 six-bit values, no tables.
fn dr_pal() -> Vec<u8> {
    let mut b = Le::new().bytes(b"PALS").u32(0x0102);
    for plane in 0..6u32 {
        b = b.bytes(&(0..=255u32).map(|i| ((i + plane * 7) % 64) as u8).collect::<Vec<_>>());
    }
    b.build()
}

/// SPR 2.1: one 2 × 1 indexed frame (RLE of index 0 as `00 n`), no RGBA frame, the palette.
fn ro_spr() -> Vec<u8> {
    let mut b = Le::new().bytes(b"SP").u8(1).u8(2).u16(1).u16(0).u16(2).u16(1).u16(3).bytes(&[5, 0, 1]);
    for i in 0..=255u8 {
        b = b.bytes(&[i, 255 - i, i / 2, 0]);
    }
    b.build()
}

/// SSPR 0x0210: one animation, one rotation, one 4 × 2 picture (two transparent runs), one section, no
/// hotspots.
fn dr_spr() -> Vec<u8> {
    let b = Le::new().bytes(b"SSPR").i32(0x0210).i32(1).i32(1).i32(4).i32(2).i32(1).i32(1);
    let b = b.i32(0).i32(0).i32(0).i32(19660).i32(0).i32(0).i32(0).i32(0);
    b.i32(2).bytes(&[4, 4]).i32(0).build()
}

/// A headerless FTG sprite: 2 frames, at most 3 × 2, their descriptors, the pixels.
fn dr_ftg_spr() -> Vec<u8> {
    [2u16, 3, 2, 0, 3, 2, 1, 1, 1, 1, 0, 0]
        .iter()
        .fold(Le::new(), |b, w| b.u16(*w))
        .bytes(&[1, 2, 3, 4, 5, 6, 7])
        .build()
}

/// RCD 1: `RCDF`, version, one INFO block of five NUL-terminated strings.
fn freerct_rcd() -> Vec<u8> {
    // Build, name, URI, website, description.
    let info: Vec<u8> = ["20261202", "Contract", "relic:contract", "https://example.invalid", "A hand-made file"]
        .iter()
        .flat_map(|s| s.bytes().chain([0]))
        .collect();
    Le::new().bytes(b"RCDF").u32(1).bytes(b"INFO").u32(1).u32(info.len() as u32).bytes(&info).build()
}

// ---------------------------------------------------------------------------------------------------------
// Lookups for the other tests of the house

/// Every sample (path below `samples/`) and its format's id.
pub fn samples() -> Vec<(&'static str, &'static str)> {
    ROWS.iter().flat_map(|r| r.samples.iter().map(move |s| (*s, r.id))).collect()
}

/// Formats without a sample in `samples/`.
pub fn without_sample() -> Vec<&'static str> {
    ROWS.iter().filter(|r| r.samples.is_empty()).map(|r| r.id).collect()
}

/// Formats identified by name only (no magic).
pub fn by_name_only() -> Vec<&'static str> {
    ROWS.iter().filter(|r| r.by == By::Name).map(|r| r.id).collect()
}

fn format(row: &Row) -> &'static Format {
    registry::by_id(row.id).unwrap_or_else(|| panic!("{}: a row for a format that is not registered", row.id))
}

fn expect(what: &str, row: &Row, value: &Value, expected: &[(&str, &str)]) {
    for (pointer, text) in expected {
        let want: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{}: {what} {pointer}: {e}", row.id));
        assert_eq!(value.pointer(pointer), Some(&want), "{}: {what} at {pointer}: {value:#}", row.id);
    }
}

// ---------------------------------------------------------------------------------------------------------
// The contract

#[test]
fn every_registered_format_has_one_row() {
    for f in relic::FORMATS {
        assert_eq!(ROWS.iter().filter(|r| r.id == f.id).count(), 1, "{}: one row in tests/house/contract.rs", f.id);
    }
    assert_eq!(ROWS.len(), relic::FORMATS.len(), "a row for a format that is not registered");
}

#[test]
fn each_format_is_identified_by_its_magic_or_its_name() {
    for row in ROWS {
        let f = format(row);
        let bytes = (row.bytes)();
        let named = registry::sniff(&bytes, row.name);
        let renamed = registry::sniff(&bytes, "renamed.bin").map(|(f, _)| f.id);
        match row.by {
            By::Magic => {
                assert_eq!(named.map(|(f, c)| (f.id, c)), Some((f.id, Confidence::Magic)), "{}", row.id);
                assert_eq!(renamed, Some(f.id), "{}: by magic under any name", row.id);
                // A name never claims bytes that say otherwise.
                let other = registry::sniff(b"nope", row.name).map(|(f, _)| f.id);
                assert_ne!(other, Some(f.id), "{}: its name claims bytes without its magic", row.id);
            }
            By::Name => {
                assert_eq!(named.map(|(f, c)| (f.id, c)), Some((f.id, Confidence::Extension)), "{}", row.id);
                assert_eq!(renamed, None, "{}: no magic", row.id);
                assert!(!f.sniff(&bytes), "{}: claims magic", row.id);
            }
            By::Selected => {
                assert_ne!(named.map(|(f, _)| f.id), Some(f.id), "{}: never identified", row.id);
                assert!(f.extensions.is_empty(), "{}: never identified, yet has extensions", row.id);
            }
        }
    }
}

#[test]
fn each_format_reads_its_file_with_the_values_of_its_row() {
    for row in ROWS {
        let codec = format(row).for_name(row.name);
        let bytes = (row.bytes)();
        let info = codec.info(&bytes).unwrap_or_else(|e| panic!("{}: info: {e}", row.id));
        expect("info", row, &info, row.info);
        let document = codec.to_json(&bytes).unwrap_or_else(|e| panic!("{}: to_json: {e}", row.id));
        expect("document", row, &document, row.document);
        if std::env::var_os("RELIC_CONTRACT_SHOW").is_some() {
            println!("{}: info {info}\n{}: document {document}", row.id, row.id);
        }
    }
}

#[test]
fn each_format_writes_its_json_back_to_the_same_bytes() {
    for row in ROWS {
        let codec = format(row).for_name(row.name);
        let bytes = (row.bytes)();
        let document = codec.to_json(&bytes).unwrap_or_else(|e| panic!("{}: to_json: {e}", row.id));
        let written = codec
            .from_json(document.clone(), &Default::default())
            .unwrap_or_else(|e| panic!("{}: write_json: {e}", row.id));
        assert!(written == bytes, "{}: the JSON writes back other bytes", row.id);
        // Through text, as `convert --to json` and `pack` take it.
        let text = serde_json::to_string_pretty(&document).unwrap();
        let reread: Value = serde_json::from_str(&text).unwrap();
        let again = codec
            .from_json(reread, &Default::default())
            .unwrap_or_else(|e| panic!("{}: write_json of the text: {e}", row.id));
        assert!(again == bytes, "{}: the JSON text writes back other bytes", row.id);
        assert_eq!(codec.to_json(&again).unwrap(), document, "{}: the written file reads as the first", row.id);
    }
}

/// Identifies and reads (info and document) a damaged file: an error or a result, never a panic; and a
/// document read writes back to the very bytes it was read from, damage and all.
fn pipeline(codec: &relic::registry::Format, name: &str, bytes: &[u8]) -> relic::Result<()> {
    let _ = registry::sniff(bytes, name);
    let info = codec.info(bytes);
    let document = codec.to_json(bytes)?;
    let written = codec
        .from_json(document, &Default::default())
        .unwrap_or_else(|e| panic!("a document read does not write: {e}"));
    assert!(written == bytes, "a document read writes back other bytes");
    info.map(|_| ())
}

#[test]
fn each_format_refuses_every_truncation_and_survives_seeded_bit_flips() {
    for row in ROWS {
        let codec = format(row).for_name(row.name);
        let bytes = (row.bytes)();
        let strict = row.truncations_read == 0;
        let report = relic::testing::check_truncations(&bytes, strict, |b| pipeline(codec, row.name, b));
        assert_eq!(report.truncations, bytes.len(), "{}: every truncation", row.id);
        assert_eq!(report.truncations - report.truncations_rejected, row.truncations_read, "{}: prefixes read", row.id);
        let flips = relic::testing::check_bit_flips(&bytes, FLIPS, SEED, |b| pipeline(codec, row.name, b));
        assert_eq!(flips.flips, FLIPS, "{}", row.id);
        if std::env::var_os("RELIC_CONTRACT_SHOW").is_some() {
            println!("{}: {} of {} truncations refused, {flips:?}", row.id, report.truncations_rejected, bytes.len());
        }
    }
}

#[test]
fn the_rows_name_every_sample() {
    let listed = samples();
    let mut found = Vec::new();
    for dir in std::fs::read_dir(common::samples_dir()).unwrap() {
        for file in std::fs::read_dir(dir.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            found.push(path.strip_prefix(common::samples_dir()).unwrap().to_string_lossy().replace('\\', "/"));
        }
    }
    found.sort();
    let mut names: Vec<String> = listed.iter().map(|(p, _)| p.to_string()).collect();
    names.sort();
    assert_eq!(names, found, "samples/ and the rows' samples");
}
