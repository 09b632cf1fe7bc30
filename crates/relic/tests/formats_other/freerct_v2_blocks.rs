//! The game blocks of today's FreeRCT files (RCD version 2: tracks, coasters, cars, rides, scenery, …),
//! each built here by a small writer from FreeRCT's loader and generator layouts (`sprite_store.cpp`,
//! `coaster.cpp`, `track_piece.cpp`, `rcdgen/nodes.cpp`), read field by field with exact values, written
//! back byte for byte, and their sprites named after their users. With the corpus
//! (`../shared/corpus/freerct/v2`): every block kind has a layout, and the anonymous sprites are counted.

use std::path::PathBuf;

use relic::freerct::rcd::{self, convert, Body, Rcd};
use serde_json::{json, Value};

/// A little-endian byte writer, independent of relic's.
#[derive(Default)]
struct W(Vec<u8>);

impl W {
    fn u8(mut self, v: u8) -> Self {
        self.0.push(v);
        self
    }
    fn i8(self, v: i8) -> Self {
        self.u8(v as u8)
    }
    fn u16(mut self, v: u16) -> Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    fn i16(mut self, v: i16) -> Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    fn u32(mut self, v: u32) -> Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    fn i32(mut self, v: i32) -> Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    fn cstr(mut self, s: &str) -> Self {
        self.0.extend(s.as_bytes());
        self.0.push(0);
        self
    }
    fn bytes(mut self, b: &[u8]) -> Self {
        self.0.extend(b);
        self
    }
}

/// An RCD version 2 file of the given blocks (magic, version, body).
fn file(blocks: &[(&[u8; 4], u32, Vec<u8>)]) -> Vec<u8> {
    let mut out = W::default().bytes(b"RCDF").u32(2);
    for (magic, version, body) in blocks {
        out = out.bytes(*magic).u32(*version).u32(body.len() as u32).bytes(body);
    }
    out.0
}

/// A 1 × 1 8PXL v2 sprite of colour `c` (one line: offset table, then a last run of one pixel).
fn pixel(c: u8) -> (&'static [u8; 4], u32, Vec<u8>) {
    (b"8PXL", 2, W::default().u16(1).u16(1).i16(0).i16(0).u32(4).bytes(&[0x80, 1, c]).0)
}

/// An FSET v2 of one tile and one zoom (tile width 64): a sprite per view.
fn fset(views: [u32; 4]) -> (&'static [u8; 4], u32, Vec<u8>) {
    let mut w = W::default().u8(1).u8(1).u8(1).u16(64);
    for v in views {
        w = w.u32(v);
    }
    (b"FSET", 2, w.0)
}

/// Reads the file, checks that block `n` (1-based) was read field by field, and that the file and its
/// JSON write back byte for byte; returns block `n`'s JSON.
fn block(bytes: &[u8], n: usize) -> Value {
    let rcd = Rcd::read(bytes).unwrap();
    let b = &rcd.blocks[n - 1];
    assert!(matches!(b.body, Body::Fields(_)), "block {n} ({}): {:?}", b.magic_str(), b.body);
    assert_eq!(rcd.to_bytes().unwrap(), bytes);
    let doc = rcd.to_json();
    assert_eq!(Rcd::from_json(&doc).unwrap().to_bytes().unwrap(), bytes);
    doc["blocks"][n - 1].clone()
}

fn names(bytes: &[u8]) -> Vec<Option<String>> {
    convert::sprite_names(&Rcd::read(bytes).unwrap())
}

#[test]
fn trck_rcst_and_cspl_name_their_frame_sets_sprites() {
    // Curves: x constant 8, y none, z one Bézier part, pitch/roll/yaw constant.
    let trck = W::default()
        .u8(3)
        .u8(5)
        .i8(1)
        .i8(-1)
        .i8(0)
        .i8(-2)
        .u16(0x0102)
        .u32(250)
        .u16(1)
        .u32(5)
        .u32(0)
        .i8(0)
        .i8(-1)
        .i8(2)
        .u8(9)
        .u32(65536)
        .u8(1)
        .i16(8)
        .u8(0)
        .u8(2)
        .u8(1)
        .u32(0)
        .u32(65535)
        .i16(-3)
        .i16(4)
        .i16(5)
        .i16(-6)
        .u8(1)
        .i16(0)
        .u8(1)
        .i16(1)
        .u8(1)
        .i16(2)
        .cstr("straight_n");
    let rcst = W::default().u16(1).u8(1).u8(4).u8(6).u16(100).u16(2).u16(3).u32(0).u16(1).u32(6).cstr("wooden");
    let cspl = W::default().u8(1).u32(5).u32(0);
    let bytes = file(&[
        (b"INFO", 1, W::default().cstr("b").cstr("n").cstr("u").cstr("w").cstr("d").0),
        pixel(1),
        pixel(2),
        pixel(3),
        fset([2, 3, 4, 0]),
        (b"TRCK", 7, trck.0),
        (b"RCST", 7, rcst.0),
        (b"CSPL", 3, cspl.0),
    ]);
    let t = block(&bytes, 6);
    assert_eq!(
        t,
        json!({
            "block": 6, "magic": "TRCK", "version": 7,
            "entry_connection": 3, "exit_connection": 5, "exit_dx": 1, "exit_dy": -1, "exit_dz": 0, "speed": -2,
            "track_flags": 0x0102, "cost": 250,
            "voxels": [{"background": 5, "foreground": null, "dx": 0, "dy": -1, "dz": 2, "flags": 9}],
            "piece_length": 65536,
            "car_x": {"constant": 8}, "car_y": null,
            "car_z": {"bezier": [{"start": 0, "last": 65535, "a": -3, "b": 4, "c": 5, "d": -6}]},
            "car_pitch": {"constant": 0}, "car_roll": {"constant": 1}, "car_yaw": {"constant": 2},
            "internal_name": "straight_n"
        })
    );
    let r = block(&bytes, 7);
    assert_eq!(
        (r["coaster_type"].as_u64(), r["max_trains"].as_u64(), r["max_cars"].as_u64()),
        (Some(1), Some(4), Some(6))
    );
    assert_eq!(
        (&r["reliability_max"], &r["reliability_decrease_daily"], &r["reliability_decrease_monthly"]),
        (&json!(100), &json!(2), &json!(3))
    );
    assert_eq!((&r["text"], &r["pieces"], &r["internal_name"]), (&Value::Null, &json!([6]), &json!("wooden")));
    assert_eq!(
        block(&bytes, 8),
        json!({"block": 8, "magic": "CSPL", "version": 3, "platform_type": 1, "background": 5, "foreground": null})
    );
    // The frame set's sprites are named after the track piece (its first user) and the voxel's field.
    let n = names(&bytes);
    assert_eq!(n[1].as_deref(), Some("0002_trck6_straight_n_voxels_0_background_views_ne_x0_y0_z0"));
    assert_eq!(n[3].as_deref(), Some("0004_trck6_straight_n_voxels_0_background_views_sw_x0_y0_z0"));
    assert_eq!(convert::anonymous_sprites(&Rcd::read(&bytes).unwrap()), 0);
}

#[test]
fn cars_keep_every_orientation_and_name_it() {
    // One zoom (64), 2 passengers, 1 entrance; car sprite at pitch 1, roll 2, yaw 3 (index 1 | 2 << 4 |
    // 3 << 8), a guest overlay for seat 1 at orientation 0; recolourings.
    let mut w = W::default().u8(1).u16(64).u32(3000).u32(500).u16(2).u16(1);
    let car_index = 1 | (2 << 4) | (3 << 8);
    for i in 0..4096 {
        w = w.u32(if i == car_index { 1 } else { 0 });
    }
    for i in 0..2 * 4096 {
        w = w.u32(if i == 4096 { 2 } else { 0 });
    }
    w = w.u32(0x0100_0003).u32(0).u32(0x0D00_0000);
    let bytes = file(&[pixel(1), pixel(2), (b"CARS", 4, w.0)]);
    let c = block(&bytes, 3);
    assert_eq!(
        c,
        json!({
            "block": 3, "magic": "CARS", "version": 4,
            "tile_widths": [64], "car_length": 3000, "inter_car_length": 500, "passengers": 2, "entrances": 1,
            "cars": {"z0": {"p1_r2": {"y3": 1}}},
            "guest_overlays": {"z0": {"seat1_p0_r0": {"y0": 2}}},
            "recolour_1": {"source": "green-brown", "allowed": ["grey", "green-brown"]},
            "recolour_2": {"source": "grey", "allowed": []},
            "recolour_3": {"source": "red", "allowed": []}
        })
    );
    let n = names(&bytes);
    assert_eq!(n[0].as_deref(), Some("0001_cars3_car_z0_p1_r2_y3"));
    assert_eq!(n[1].as_deref(), Some("0002_cars3_z0_seat1_p0_r0_y0"));
}

#[test]
fn rides_scenery_and_timed_animations() {
    let tima = W::default().u32(2).u32(100).u32(250).u32(3).u32(3);
    let mut fgtr = W::default().u8(1).u8(2).u8(1).u8(4).u8(5).u32(4).u32(0).u32(4).u32(0);
    fgtr = fgtr.u32(1).u32(2).u32(0).u32(0).u32(0x0200_0000).u32(0).u32(0);
    for v in [150u32, 1000, 20, 3, 8, 5, 60] {
        fgtr = fgtr.u32(v);
    }
    for v in [1u16, 9, 4, 1000, 7, 11] {
        fgtr = fgtr.u16(v);
    }
    for v in [10u32, 20, 30, 40, 50] {
        fgtr = fgtr.u32(v);
    }
    fgtr = fgtr.u32(0).cstr("merry").u32(7000);
    let scny = W::default()
        .u8(1)
        .u8(1)
        .u8(3)
        .u32(600)
        .u32(60)
        .u32(4)
        .u32(0)
        .u32(1)
        .u32(1)
        .u32(1)
        .u32(1)
        .i32(120)
        .i32(-5)
        .i32(0)
        .u8(1)
        .u8(2)
        .u32(0)
        .cstr("tree");
    let riee = W::default().u8(1).u32(0).u32(3).u32(0).u32(0).u32(0).u32(0).cstr("gate");
    let bytes = file(&[
        pixel(1),
        pixel(2),
        fset([1, 0, 0, 0]),
        (b"TIMA", 1, tima.0),
        (b"FGTR", 6, fgtr.0),
        (b"SCNY", 3, scny.0),
        (b"RIEE", 3, riee.0),
    ]);
    assert_eq!(
        block(&bytes, 4),
        json!({"block": 4, "magic": "TIMA", "version": 1, "frames": [
            {"duration": 100, "frame_set": 3}, {"duration": 250, "frame_set": 3}]})
    );
    let f = block(&bytes, 5);
    assert_eq!((&f["is_thrill_ride"], &f["width_x"], &f["width_y"]), (&json!(1), &json!(2), &json!(1)));
    assert_eq!(f["heights"], json!([[4], [5]]));
    assert_eq!(
        (&f["idle_animation"], &f["working_animation"], &f["starting_animation"]),
        (&json!(4), &json!(4), &Value::Null)
    );
    assert_eq!(f["previews"], json!({"ne": 1, "se": 2, "sw": null, "nw": null}));
    assert_eq!(f["recolour_1"], json!({"source": "orange-brown", "allowed": []}));
    assert_eq!(
        (&f["entrance_fee"], &f["guests_per_batch"], &f["working_duration"], &f["working_cycles_default"]),
        (&json!(150), &json!(8), &json!(60), &json!(4))
    );
    assert_eq!(
        (&f["reliability_decrease_monthly"], &f["excitement_increase_scenery"], &f["internal_name"], &f["build_cost"]),
        (&json!(11), &json!(50), &json!("merry"), &json!(7000))
    );
    let s = block(&bytes, 6);
    assert_eq!(
        (&s["heights"], &s["watering_interval"], &s["min_watering_interval"]),
        (&json!([[3]]), &json!(600), &json!(60))
    );
    assert_eq!((&s["main_animation"], &s["dry_animation"]), (&json!(4), &Value::Null));
    assert_eq!(
        (&s["buy_cost"], &s["return_cost"], &s["return_cost_dry"], &s["symmetric"], &s["category"]),
        (&json!(120), &json!(-5), &json!(0), &json!(1), &json!(2))
    );
    assert_eq!(
        block(&bytes, 7),
        json!({"block": 7, "magic": "RIEE", "version": 3, "is_entrance": 1, "text": null, "background": 3,
            "foreground": null, "recolour_1": {"source": "grey", "allowed": []},
            "recolour_2": {"source": "grey", "allowed": []}, "recolour_3": {"source": "grey", "allowed": []},
            "internal_name": "gate"})
    );
    // The frame set's first user is the TIMA, whose first user is the ride; the ride's previews name
    // sprite 2 directly, sprite 1 is first used by the frame set (block 3).
    let n = names(&bytes);
    assert_eq!(n[0].as_deref(), Some("0001_fgtr5_merry_idle_animation_frames_0_views_ne_x0_y0_z0"));
    assert_eq!(n[1].as_deref(), Some("0002_fgtr5_merry_previews_se"));
}

#[test]
fn path_gui_and_park_blocks() {
    let mut pdec = W::default().u16(64);
    for i in 0..68u32 {
        pdec = pdec.u32(if i == 0 || i == 67 { 1 } else { 0 });
    }
    let mut supp = W::default().u16(16).u16(64).u16(16);
    for i in 0..24u32 {
        supp = supp.u32(if i == 20 { 1 } else { 0 });
    }
    let mut fenc = W::default().u16(64).u16(2);
    for i in 0..12u32 {
        fenc = fenc.u32(if i == 11 { 1 } else { 0 });
    }
    let mut gslp = W::default();
    for i in 0..75u32 {
        gslp = gslp.u32(if i == 74 { 1 } else { 0 });
    }
    gslp = gslp.u32(0);
    let prsg = W::default().u8(1).u8(8).u32(0x0A00_0001).u32(0).u32(0);
    let mut menu = W::default().u32(3000);
    for i in 0..7u32 {
        menu = menu.u32(if i == 1 { 1 } else { 0 });
    }
    menu = menu.u32(3).bytes(b"abc").u32(0).u32(1).i32(-1).i32(2).i32(3).u8(2).u32(5000);
    let misn = W::default().cstr("campaign").u32(0).u32(2).u32(1).cstr("first").u32(0).u32(2).bytes(&[7, 8]);
    let ftkw = W::default().bytes(b"FTK design bytes");
    let bytes = file(&[
        pixel(1),
        (b"PDEC", 1, pdec.0),
        (b"SUPP", 1, supp.0),
        (b"FENC", 2, fenc.0),
        (b"GSLP", 14, gslp.0),
        (b"PRSG", 2, prsg.0),
        (b"MENU", 3, menu.0),
        (b"MISN", 1, misn.0),
        (b"FTKW", 1, ftkw.0),
    ]);
    let p = block(&bytes, 2);
    assert_eq!(p["tile_width"], 64);
    assert_eq!(p["edges"]["litter_bin"], json!({"ne": 1, "se": null, "sw": null, "nw": null}));
    assert_eq!(p["litter"]["vomit_nw"]["type3"], 1);
    let s = block(&bytes, 3);
    assert_eq!((&s["support_type"], &s["tile_width"], &s["z_height"]), (&json!(16), &json!(64), &json!(16)));
    assert_eq!((&s["sprites"]["n_steep_n"], s["sprites"].as_object().unwrap().len()), (&json!(1), 24));
    let f = block(&bytes, 4);
    assert_eq!((&f["tile_width"], &f["fence_type"], &f["sprites"]["nw_n"]), (&json!(64), &json!(2), &json!(1)));
    let g = block(&bytes, 5);
    assert_eq!(
        (&g["sprites"]["speed_8"], &g["sprites"]["vert_down"], &g["text"]),
        (&json!(1), &Value::Null, &Value::Null)
    );
    assert_eq!(g["sprites"].as_object().unwrap().len(), 75);
    assert_eq!(
        block(&bytes, 6)["person_graphics"],
        json!([{"person_type": "guest", "recolour_1": {"source": "blue", "allowed": ["grey"]},
            "recolour_2": {"source": "grey", "allowed": []}, "recolour_3": {"source": "grey", "allowed": []}}])
    );
    let m = block(&bytes, 7);
    assert_eq!((&m["splash_duration"], &m["sprites"]["splash"]), (&json!(3000), &json!(1)));
    assert_eq!((&m["default_scenario"], &m["main_menu_savegame"]), (&json!("YWJj"), &json!("")));
    assert_eq!(m["cameras"], json!([{"x": -1, "y": 2, "z": 3, "orientation": 2, "duration": 5000}]));
    let s = block(&bytes, 8);
    assert_eq!((&s["internal_name"], &s["text"], &s["max_unlock"]), (&json!("campaign"), &Value::Null, &json!(2)));
    assert_eq!(s["scenarios"], json!([{"internal_name": "first", "text": null, "savegame": "Bwg="}]));
    assert_eq!(block(&bytes, 9)["design"], json!("RlRLIGRlc2lnbiBieXRlcw=="));
    // The pixel block's first user is the path decorations' first litter bin.
    assert_eq!(names(&bytes)[0].as_deref(), Some("0001_pdec2_edges_litter_bin_ne"));
}

#[test]
fn a_version_relic_has_no_layout_for_stays_raw() {
    // TRCK version 8 (none known): kept as bytes, with no reason (no layout), and written back.
    let bytes = file(&[(b"TRCK", 8, vec![1, 2, 3])]);
    let rcd = Rcd::read(&bytes).unwrap();
    assert!(matches!(&rcd.blocks[0].body, Body::Raw { bytes, reason: None } if bytes.as_ref() == [1, 2, 3]));
    assert_eq!(rcd.to_bytes().unwrap(), bytes);
    // A TRCK v7 with an unknown curve type: raw with the reason.
    let bytes = file(&[(b"TRCK", 7, W::default().bytes(&[0; 14]).u16(0).u32(0).u8(3).0)]);
    let rcd = Rcd::read(&bytes).unwrap();
    assert!(matches!(&rcd.blocks[0].body, Body::Raw { reason: Some(r), .. } if r.contains("curve type 3")));
    assert_eq!(rcd.to_bytes().unwrap(), bytes);
}

fn corpus() -> Option<PathBuf> {
    crate::common::corpus("freerct/v2")
}

/// Every block kind of the eight files has a layout (nothing is kept raw), every file writes back byte for
/// byte, from its JSON too, and the sprites no game block names are the few that none uses.
#[test]
fn every_v2_block_has_a_layout_and_sprites_are_named() {
    let Some(dir) = corpus() else { return };
    for (name, anonymous) in [
        ("coasters", 0),
        ("entrance_exit", 0),
        ("fgtr", 0),
        ("freerct", 0),
        ("gui", 0),
        ("paths", 0),
        ("scenery", 0),
        ("shops", 0),
    ] {
        let bytes = std::fs::read(dir.join(format!("{name}.rcd"))).unwrap();
        let file = rcd::parse(&bytes).unwrap();
        for (i, b) in file.blocks.iter().enumerate() {
            assert!(
                !matches!(b.body, Body::Raw { .. }),
                "{name} block {}: {} v{} kept raw",
                i + 1,
                b.magic_str(),
                b.version
            );
        }
        assert!(file.to_bytes().unwrap() == bytes, "{name}: written back");
        assert!(Rcd::from_json(&file.to_json()).unwrap().to_bytes().unwrap() == bytes, "{name}: packed from JSON");
        let sprites = file.blocks.iter().filter(|b| b.is_pixels()).count();
        let count = convert::anonymous_sprites(&file);
        eprintln!("{name}: {count} of {sprites} sprites anonymous");
        assert_eq!((name, count), (name, anonymous));
    }
}
