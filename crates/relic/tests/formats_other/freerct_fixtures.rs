//! FreeRCT RCD files (`freerct-rcd`), proven on files built by hand from the spec's tables
//! (`freerct-rcd.txt`), docs/formats/freerct.md and FreeRCT's `data_format.rst`,
//! independently of relic's writer:
//! - file header, 8 bytes: `RCDF`, u32 version (1 or 2); then blocks of magic, u32 version, u32 body
//!   length and body, numbered from 1 in file order; a reference 0 means none;
//! - 8PXL: u16 width, u16 height (v2: i16 x and y offsets), a table of `height` u32 line offsets relative
//!   to the table (0 = no pixels on the line), then per line entries (gap | 0x80 on the last entry, count,
//!   count palette indices);
//! - 32PX: u16 width, u16 height, i16 x, i16 y, then `height` lines: a u16 length counting the whole line
//!   (the last stores 0), runs whose byte holds the kind in bits 6–7 (0 opaque RGB, 1 one alpha + RGB,
//!   2 transparent, 3 recolour: layer, alpha, intensities) and the count in bits 0–5, and a 0 byte;
//! - INFO: five NUL-terminated strings; TEXT v3: records {u16 length, u8 name length, name, translations
//!   {u16 length, u8 language length, language, u8 plural forms, forms}};
//! - the game blocks' tables, field by field.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use relic::asset::{Asset, NamedAsset, Pixels};
use relic::freerct::rcd::convert::gradient;
use relic::freerct::rcd::json::{from_json, to_json};
use relic::freerct::rcd::pixels::{decode_32bpp, decode_8bpp, encode_32bpp, encode_8bpp};
use relic::freerct::rcd::{parse, write, Body, FORMAT};
use relic::ops::{self, ConvertRequest, PackOptions, Quiet};
use relic::registry::ConvertOptions;
use serde_json::{json, Value};

// =========================================================================================================
// Byte builders, from the spec's tables

/// A little-endian byte string, built field by field.
#[derive(Default, Clone)]
struct Le(Vec<u8>);

impl Le {
    fn new() -> Le {
        Le::default()
    }
    fn u8(mut self, v: u8) -> Le {
        self.0.push(v);
        self
    }
    fn u16(mut self, v: u16) -> Le {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn i16(mut self, v: i16) -> Le {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn u32(mut self, v: u32) -> Le {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn i32(mut self, v: i32) -> Le {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// Sprite or block references, u32 each.
    fn refs(mut self, refs: &[u32]) -> Le {
        for r in refs {
            self.0.extend_from_slice(&r.to_le_bytes());
        }
        self
    }
    fn bytes(mut self, b: &[u8]) -> Le {
        self.0.extend_from_slice(b);
        self
    }
    /// A NUL-terminated string.
    fn cstr(mut self, s: &str) -> Le {
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(0);
        self
    }
}

/// A block: magic, u32 version, u32 body length, body.
fn block(magic: &[u8; 4], version: u32, body: &[u8]) -> Vec<u8> {
    Le::new().bytes(magic).u32(version).u32(body.len() as u32).bytes(body).0
}

/// A file: `RCDF`, u32 version, the blocks.
fn rcd(version: u32, blocks: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Le::new().bytes(b"RCDF").u32(version).0;
    for b in blocks {
        out.extend_from_slice(b);
    }
    out
}

/// 8PXL line data: the jump table (offsets relative to its first entry, 0 for a line without data) and
/// the lines' entries, each given as the bytes the spec's line table describes.
fn pxl_lines(lines: &[Option<Vec<u8>>]) -> Vec<u8> {
    let mut table = Vec::new();
    let mut data = Vec::new();
    let mut offset = 4 * lines.len();
    for line in lines {
        match line {
            Some(l) => {
                table.extend_from_slice(&(offset as u32).to_le_bytes());
                offset += l.len();
                data.extend_from_slice(l);
            }
            None => table.extend_from_slice(&0u32.to_le_bytes()),
        }
    }
    table.extend(data);
    table
}

/// 32PX line data: each line's runs (ending in their 0 byte) after a u16 length counting the whole line,
/// the last line storing 0.
fn px32_lines(lines: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, runs) in lines.iter().enumerate() {
        let length = if i + 1 == lines.len() { 0 } else { runs.len() as u16 + 2 };
        out.extend_from_slice(&length.to_le_bytes());
        out.extend_from_slice(runs);
    }
    out
}

/// One TEXT v3 translation: u16 length (itself included), u8 language length (NUL included), language,
/// u8 plural form count, the forms.
fn translation(language: &str, forms: &[&str]) -> Vec<u8> {
    let mut body = Le::new().u8(language.len() as u8 + 1).cstr(language).u8(forms.len() as u8);
    for f in forms {
        body = body.cstr(f);
    }
    Le::new().u16(body.0.len() as u16 + 2).bytes(&body.0).0
}

/// One TEXT v3 string record: u16 length (itself included), u8 name length (NUL included), name,
/// translations.
fn text_record(name: &str, translations: &[Vec<u8>]) -> Vec<u8> {
    let mut body = Le::new().u8(name.len() as u8 + 1).cstr(name);
    for t in translations {
        body = body.bytes(t);
    }
    Le::new().u16(body.0.len() as u16 + 2).bytes(&body.0).0
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// `n` zero references (absent sprites).
fn none(n: usize) -> Vec<u32> {
    vec![0; n]
}

// =========================================================================================================
// Fixture 1: a version 1 file

/// 8PXL 1, 4 × 3: row 0 `0 5 6 0` (gap 1, two pixels, the last entry), row 1 transparent (jump table 0),
/// row 2 `7 0 0 8` (gap 0 one pixel, then gap 2 one pixel, the last entry).
const A_ROWS: [u8; 12] = [0, 5, 6, 0, 0, 0, 0, 0, 7, 0, 0, 8];
fn pixels_a() -> Vec<u8> {
    pxl_lines(&[Some(vec![0x81, 2, 5, 6]), None, Some(vec![0, 1, 7, 0x82, 1, 8])])
}

/// 8PXL 3, 2 × 1: `3 4`.
const B_ROWS: [u8; 2] = [3, 4];
fn pixels_b() -> Vec<u8> {
    pxl_lines(&[Some(vec![0x80, 2, 3, 4])])
}

/// SPRT 2's palette: entry i = (i, 255 − i, 0x40).
fn palette_a() -> Vec<u8> {
    (0..=255u8).flat_map(|i| [i, 255 - i, 0x40]).collect()
}

/// SPRT 4's palette: entry i = (0x80, i, 255 − i).
fn palette_b() -> Vec<u8> {
    (0..=255u8).flat_map(|i| [0x80, i, 255 - i]).collect()
}

/// The GSLI body of block 9 (spec "Slider-bar elements": min length, step, slider width, u16 widget
/// type, left, middle, right, slider).
fn gsli_body() -> Vec<u8> {
    Le::new().u8(10).u8(2).u8(7).u16(128).refs(&[2, 4, 0, 2]).0
}

const UNKNOWN_BODY: &[u8] = b"zz\x00\xFF\x01";

/// The version 1 file:
///  1 8PXL v1 4 × 3          2 SPRT v1 (−2, −3) → 1, palette A
///  3 8PXL v1 2 × 1          4 SPRT v1 (5, −1) → 3, palette B
///  5 SHOP v1                6 PLAT v1             7 TARE v1           8 PARE v1
///  9 GSLI v1               10 GBOR v1            11 ZZZZ v7 (unknown) 12 GSLI v1 one byte too long
fn v1_file() -> Vec<u8> {
    v1_file_with(&palette_a())
}

/// The version 1 file with another palette in SPRT 2.
fn v1_file_with(palette_2: &[u8]) -> Vec<u8> {
    let mut tare = vec![2];
    tare.extend(none(17));
    tare.push(4); // steep_w
    let mut pare = vec![0, 4];
    pare.extend(none(17));
    let mut long_gsli = gsli_body();
    long_gsli.push(0xAB);
    rcd(
        1,
        &[
            block(b"8PXL", 1, &Le::new().u16(4).u16(3).bytes(&pixels_a()).0),
            block(b"SPRT", 1, &Le::new().i16(-2).i16(-3).u32(1).bytes(palette_2).0),
            block(b"8PXL", 1, &Le::new().u16(2).u16(1).bytes(&pixels_b()).0),
            block(b"SPRT", 1, &Le::new().i16(5).i16(-1).u32(3).bytes(&palette_b()).0),
            // Shops/stalls: zoom width, height in voxels, views ne se sw nw.
            block(b"SHOP", 1, &Le::new().u16(64).u16(2).refs(&[2, 4, 0, 2]).0),
            // Platforms: zoom width, z height, type 16 (wood), six sprites.
            block(b"PLAT", 1, &Le::new().u16(64).u16(16).u16(16).refs(&[2, 4, 0, 0, 4, 0]).0),
            // Tile area selection: zoom width, z height, the 19-sprite surface sub-block.
            block(b"TARE", 1, &Le::new().u16(64).u16(16).refs(&tare).0),
            // Patrol area selection.
            block(b"PARE", 1, &Le::new().u16(128).u16(32).refs(&pare).0),
            block(b"GSLI", 1, &gsli_body()),
            // GUI border: u16 widget type 16 (window border), 8 bytes of widths and steps, 9 sprites.
            block(b"GBOR", 1, &Le::new().u16(16).bytes(&[1, 2, 3, 4, 5, 6, 7, 8]).refs(&[2, 0, 4, 0, 0, 0, 0, 0, 4]).0),
            block(b"ZZZZ", 7, UNKNOWN_BODY),
            block(b"GSLI", 1, &long_gsli),
        ],
    )
}

// =========================================================================================================
// Fixture 2: a version 2 file

const INFO_STRINGS: [&str; 5] =
    ["20240101", "Fixture", "relic.test/fixture/1", "https://example.org/rcd", "Hand-made, byte by byte."];

/// 8PXL v2, 3 × 2 at (−5, −7): row 0 `9 0 10`, row 1 `0 0 11`.
const C_ROWS: [u8; 6] = [9, 0, 10, 0, 0, 11];
fn pixels_c() -> Vec<u8> {
    pxl_lines(&[Some(vec![0, 1, 9, 0x81, 1, 10]), Some(vec![0x82, 1, 11])])
}

/// 32PX, 5 × 3 at (−2, −4), every run kind:
/// - row 0: 2 opaque (10,20,30) (40,50,60); 1 of alpha 128 (70,80,90); 2 transparent left to the 0 byte;
/// - row 1: 2 transparent; 2 recolour pixels, layer 1, alpha 255, intensities 100 and 200; 1 opaque (1,2,3);
/// - row 2 (length 0): 1 recolour pixel, layer 2, alpha 200, intensity 50; 1 transparent; 1 opaque (7,8,9).
fn pixels_32() -> Vec<u8> {
    px32_lines(&[
        vec![0x02, 10, 20, 30, 40, 50, 60, 0x41, 128, 70, 80, 90, 0],
        vec![0x82, 0xC2, 1, 255, 100, 200, 0x01, 1, 2, 3, 0],
        vec![0xC1, 2, 200, 50, 0x81, 0x01, 7, 8, 9, 0],
    ])
}

fn info_body() -> Vec<u8> {
    INFO_STRINGS.iter().fold(Le::new(), |b, s| b.cstr(s)).0
}

fn text_body() -> Vec<u8> {
    // "guest" written out from the tables: record length 25, name length 6, "guest\0", translation
    // length 16, language length 6, "en_GB\0", 1 form, "Guest\0".
    let mut out = vec![25, 0, 6];
    out.extend_from_slice(b"guest\0");
    out.extend_from_slice(&[16, 0, 6]);
    out.extend_from_slice(b"en_GB\0");
    out.push(1);
    out.extend_from_slice(b"Guest\0");
    assert_eq!(out.len(), 25);
    assert_eq!(text_record("guest", &[translation("en_GB", &["Guest"])]), out, "the helpers agree with the table");
    out.extend(text_record(
        "items",
        &[translation("en_GB", &["%1% item", "%1% items"]), translation("nl_NL", &["%1% ding", "%1% dingen"])],
    ));
    out
}

/// SURF v6: u16 ground type 20 (semi-transparent grass), zoom width, z height, 23 sprites looking north.
fn surf_body() -> Vec<u8> {
    let mut north = vec![2, 3];
    north.extend(none(20));
    north.push(3); // steep_w_top
    Le::new().u16(20).u16(64).u16(16).refs(&north).0
}

/// The version 2 file:
///  1 INFO                2 8PXL v2 3 × 2 (−5, −7)   3 32PX 5 × 3 (−2, −4)   4 TEXT v3
///  5 SURF v6             6 PLAT v2                  7 ZZZZ v1 (unknown)     8 SURF v6 one byte short
fn v2_file() -> Vec<u8> {
    let mut plat = vec![3, 2];
    plat.extend(none(11));
    plat.push(3); // left_nw_up
    let mut short_surf = surf_body();
    short_surf.pop();
    rcd(
        2,
        &[
            block(b"INFO", 1, &info_body()),
            block(b"8PXL", 2, &Le::new().u16(3).u16(2).i16(-5).i16(-7).bytes(&pixels_c()).0),
            block(b"32PX", 1, &Le::new().u16(5).u16(3).i16(-2).i16(-4).bytes(&pixels_32()).0),
            block(b"TEXT", 3, &text_body()),
            block(b"SURF", 6, &surf_body()),
            // PLAT v2: zoom width, z height, type 16 (wood), 14 sprites.
            block(b"PLAT", 2, &Le::new().u16(64).u16(16).u16(16).refs(&plat).0),
            block(b"ZZZZ", 1, UNKNOWN_BODY),
            block(b"SURF", 6, &short_surf),
        ],
    )
}

/// A version 2 shop: INFO, the 32PX of fixture 2, a TEXT, an FSET v2 (1 zoom of width 64, 1 × 1 tiles,
/// the 32PX in the ne view) and a SHOP v8 whose recolourings name red (13) and blue (10) as sources.
fn v2_shop_file() -> Vec<u8> {
    let fset = Le::new().u8(1).u8(1).u8(1).u16(64).refs(&[2, 0, 0, 0]).0;
    // Recolouring: bits 24–31 the source range, bits 0–17 the allowed destinations.
    let shop = Le::new()
        .u8(2) // height
        .u8(0b0101) // entrances NE and SW
        .u32(4) // FSET
        .u32((13 << 24) | (1 << 13) | (1 << 14))
        .u32((10 << 24) | 1)
        .u32(0)
        .i32(150)
        .i32(-25)
        .i32(1000)
        .i32(200)
        .u8(8) // drink
        .u8(77) // not a known item type
        .u32(3) // TEXT
        .cstr("stall")
        .u32(5000)
        .0;
    rcd(
        2,
        &[
            block(b"INFO", 1, &info_body()),
            block(b"32PX", 1, &Le::new().u16(5).u16(3).i16(-2).i16(-4).bytes(&pixels_32()).0),
            block(b"TEXT", 3, &text_record("stall", &[translation("en_GB", &["Stall"])])),
            block(b"FSET", 2, &fset),
            block(b"SHOP", 8, &shop),
        ],
    )
}

// =========================================================================================================
// Checks shared by every fixture

/// Writing the parsed file, and the file read back from its JSON document (as value and as text), gives
/// the bytes again.
fn assert_lossless(bytes: &[u8]) {
    let parsed = parse(bytes).unwrap();
    assert_eq!(write(&parsed).unwrap(), bytes, "write(parse(b))");
    let value = to_json(&parsed);
    assert_eq!(write(&from_json(&value).unwrap()).unwrap(), bytes, "through the JSON value");
    let text = serde_json::to_string_pretty(&value).unwrap();
    let again: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(write(&from_json(&again).unwrap()).unwrap(), bytes, "through the JSON text");
    assert_eq!(
        FORMAT.from_json(FORMAT.to_json(bytes).unwrap(), &Default::default()).unwrap(),
        bytes,
        "through the codec"
    );
}

/// Every truncation and byte flip: no panic; every truncation not at a block boundary is refused; whatever
/// parses writes back to its own bytes, also through its JSON; convert never panics.
fn assert_robust(bytes: &[u8], blocks: usize) {
    let report = relic::testing::check_robustness(bytes, false, |b| -> relic::error::Result<()> {
        let rcd = parse(b)?;
        assert_eq!(write(&rcd)?, b, "a parsed file writes back to its bytes");
        assert_eq!(write(&from_json(&to_json(&rcd))?)?, b, "and through its JSON");
        FORMAT.convert(&relic::registry::ConvertInput::new(b, &ConvertOptions::default()))?;
        Ok(())
    });
    // A prefix ending at a block boundary (the header alone, or after each block but the last) is a
    // shorter valid file: exactly `blocks` of the truncations are accepted.
    assert_eq!(report.truncations, bytes.len());
    assert_eq!(report.truncations_rejected, bytes.len() - blocks);
    assert_eq!(report.flips, 3 * bytes.len());
}

fn blocks_of(v: &Value) -> &Vec<Value> {
    v["blocks"].as_array().unwrap()
}

fn asset<'a>(assets: &'a [NamedAsset], name: &str) -> &'a relic::asset::Image {
    match assets.iter().find(|a| a.name.as_deref() == Some(name)).map(|a| &a.asset) {
        Some(Asset::Image(img)) => img,
        other => panic!("no image asset {name}: {other:?}"),
    }
}

fn names(assets: &[NamedAsset]) -> Vec<&str> {
    assets.iter().map(|a| a.name.as_deref().unwrap_or("")).collect()
}

fn rgba_at(pixels: &Pixels, width: u32, x: u32, y: u32) -> [u8; 4] {
    match pixels {
        Pixels::Rgba8(p) => {
            let i = ((y * width + x) * 4) as usize;
            [p[i], p[i + 1], p[i + 2], p[i + 3]]
        }
        other => panic!("not RGBA: {other:?}"),
    }
}

// =========================================================================================================
// Fixture 1

#[test]
fn v1_file_reads_every_block_as_the_spec_lays_it_out() {
    let bytes = v1_file();
    let parsed = parse(&bytes).unwrap();
    assert_eq!(parsed.version, 1);
    assert_eq!(parsed.blocks.len(), 12);
    let magics: Vec<String> = parsed.blocks.iter().map(|b| b.magic_str()).collect();
    assert_eq!(
        magics,
        ["8PXL", "SPRT", "8PXL", "SPRT", "SHOP", "PLAT", "TARE", "PARE", "GSLI", "GBOR", "ZZZZ", "GSLI"]
    );

    // The pixel blocks: size, no offset in version 1, line data kept as stored and decoded exactly.
    match &parsed.blocks[0].body {
        Body::Pixels8 { width: 4, height: 3, offset: None, data } => {
            assert_eq!(data.as_ref(), pixels_a().as_slice());
            assert_eq!(decode_8bpp(data, 4, 3, 0).unwrap(), A_ROWS);
        }
        other => panic!("block 1: {other:?}"),
    }
    match &parsed.blocks[2].body {
        Body::Pixels8 { width: 2, height: 1, offset: None, data } => {
            assert_eq!(decode_8bpp(data, 2, 1, 0).unwrap(), B_ROWS)
        }
        other => panic!("block 3: {other:?}"),
    }

    let doc = to_json(&parsed);
    assert_eq!(doc["format"], "freerct-rcd");
    assert_eq!(doc["file_version"], 1);
    let b = blocks_of(&doc);
    assert_eq!(
        b[0],
        json!({"block": 1, "magic": "8PXL", "version": 1, "width": 4, "height": 3, "data": b64(&pixels_a())})
    );
    assert_eq!(
        b[1],
        json!({"block": 2, "magic": "SPRT", "version": 1, "x_offset": -2, "y_offset": -3, "pixels": 1,
               "palette": hex::encode(palette_a())})
    );
    assert_eq!(b[3]["x_offset"], 5);
    assert_eq!(b[3]["y_offset"], -1);
    assert_eq!(b[3]["pixels"], 3);
    assert_eq!(
        b[4],
        json!({"block": 5, "magic": "SHOP", "version": 1, "tile_width": 64, "height": 2,
               "views": {"ne": 2, "se": 4, "sw": null, "nw": 2}})
    );
    assert_eq!(
        b[5],
        json!({"block": 6, "magic": "PLAT", "version": 1, "tile_width": 64, "z_height": 16,
               "platform_type": "wood",
               "sprites": {"flat_ns": 2, "flat_ew": 4, "ne_up": null, "se_up": null, "sw_up": 4, "nw_up": null}})
    );
    let slopes = [
        "flat", "n", "e", "ne", "s", "ns", "es", "nes", "w", "wn", "we", "wne", "ws", "wns", "wes", "steep_n",
        "steep_e", "steep_s", "steep_w",
    ];
    let surface = |set: &[(&str, u32)]| -> Value {
        let mut m = serde_json::Map::new();
        for s in slopes {
            let v = set.iter().find(|(n, _)| *n == s).map_or(Value::Null, |(_, r)| json!(r));
            m.insert(s.to_string(), v);
        }
        Value::Object(m)
    };
    assert_eq!(
        b[6],
        json!({"block": 7, "magic": "TARE", "version": 1, "tile_width": 64, "z_height": 16,
               "surface": surface(&[("flat", 2), ("steep_w", 4)])})
    );
    assert_eq!(
        b[7],
        json!({"block": 8, "magic": "PARE", "version": 1, "tile_width": 128, "z_height": 32,
               "surface": surface(&[("n", 4)])})
    );
    assert_eq!(
        b[8],
        json!({"block": 9, "magic": "GSLI", "version": 1, "min_length": 10, "step_size": 2, "slider_width": 7,
               "widget_type": "horizontal-slider",
               "sprites": {"left": 2, "middle": 4, "right": null, "slider": 2}})
    );
    assert_eq!(
        b[9],
        json!({"block": 10, "magic": "GBOR", "version": 1, "widget_type": "window-border",
               "border_top": 1, "border_left": 2, "border_right": 3, "border_bottom": 4,
               "min_width": 5, "min_height": 6, "h_step": 7, "v_step": 8,
               "sprites": {"top_left": 2, "top_middle": null, "top_right": 4, "left": null, "middle": null,
                           "right": null, "bottom_left": null, "bottom_middle": null, "bottom_right": 4}})
    );
    assert_lossless(&bytes);
}

#[test]
fn v1_sprites_are_drawn_with_their_own_sprt_palette() {
    let assets = FORMAT.convert(&relic::registry::ConvertInput::new(&v1_file(), &ConvertOptions::default())).unwrap();
    assert_eq!(
        names(&assets),
        [
            ".",
            "0001_shop5_views_ne",
            "0003_shop5_views_se",
            "0005_shop_sheet.view",
            "0006_plat_sheet.view",
            "0007_tare_sheet.view",
            "0008_pare_sheet.view",
            "0009_gsli_sheet.view",
            "0010_gbor_sheet.view",
        ]
    );
    // The 8PXL PNGs are indexed, with the palette of the SPRT that draws them, index 0 transparent.
    let a = asset(&assets, "0001_shop5_views_ne");
    let frame = &a.frames[0];
    assert_eq!((frame.width, frame.height), (4, 3));
    assert_eq!(frame.pixels, Pixels::Indexed(A_ROWS.to_vec()));
    let pal = a.palette.as_ref().unwrap();
    assert_eq!(pal.len(), 256);
    assert_eq!(pal[0][3], 0, "index 0 is transparent");
    assert_eq!(pal[5], [5, 250, 0x40, 255]);
    assert_eq!(pal[6], [6, 249, 0x40, 255]);
    assert_eq!(pal[7], [7, 248, 0x40, 255]);
    assert_eq!(pal[8], [8, 247, 0x40, 255]);
    let b = asset(&assets, "0003_shop5_views_se");
    assert_eq!(b.frames[0].pixels, Pixels::Indexed(B_ROWS.to_vec()));
    let pal = b.palette.as_ref().unwrap();
    assert_eq!(pal[0][3], 0);
    assert_eq!(pal[3], [0x80, 3, 252, 255]);
    assert_eq!(pal[4], [0x80, 4, 251, 255]);

    // The GSLI sheet draws the sprites in RGBA: one row (left = SPRT 2, middle = SPRT 4, right = none,
    // slider = SPRT 2), every cell the union of the sprites' rectangles around their origin: x −2..7
    // (SPRT 2 at −2 wide 4, SPRT 4 at 5 wide 2), y −3..0, so 9 × 3 cells 2 pixels apart.
    let sheet = asset(&assets, "0009_gsli_sheet.view");
    let f = &sheet.frames[0];
    assert_eq!((f.width, f.height), (4 * 11, 5));
    // SPRT 2 at cell 0's (0, 0): row 0 of 8PXL 1 (index 0, 5, 6, 0), drawn with palette A.
    assert_eq!(rgba_at(&f.pixels, f.width, 1, 0), [5, 250, 0x40, 255]);
    assert_eq!(rgba_at(&f.pixels, f.width, 2, 0), [6, 249, 0x40, 255]);
    assert_eq!(rgba_at(&f.pixels, f.width, 0, 0)[3], 0);
    assert_eq!(rgba_at(&f.pixels, f.width, 3, 2), [8, 247, 0x40, 255]);
    // SPRT 4 in cell 1: left 11 + (5 − −2), top −1 − −3: index 3 then 4, drawn with palette B.
    assert_eq!(rgba_at(&f.pixels, f.width, 18, 2), [0x80, 3, 252, 255]);
    assert_eq!(rgba_at(&f.pixels, f.width, 19, 2), [0x80, 4, 251, 255]);
    // Cell 2 (no sprite) stays empty; cell 3 repeats SPRT 2.
    assert_eq!(rgba_at(&f.pixels, f.width, 22 + 1, 0), [0, 0, 0, 0]);
    assert_eq!(rgba_at(&f.pixels, f.width, 33 + 1, 0), [5, 250, 0x40, 255]);

    // The convert document: references as {block, png}; PNG names on the pixel blocks.
    let Some(Asset::Document(doc)) = assets.first().map(|a| &a.asset) else { panic!("no document") };
    let b = blocks_of(&doc.value);
    assert_eq!(b[0]["png"], "0001_shop5_views_ne.png");
    assert_eq!(b[2]["png"], "0003_shop5_views_se.png");
    assert_eq!(b[4]["views"]["se"], json!({"block": 4, "png": "0003_shop5_views_se.png"}));
    assert_eq!(b[4]["views"]["sw"], Value::Null);
    assert_eq!(b[8]["sheet"], "0009_gsli_sheet.view.png");
}

#[test]
fn v1_file_is_robust() {
    assert_robust(&v1_file(), 12);
}

// =========================================================================================================
// Fixture 2

#[test]
fn v2_file_reads_info_pixels_text_and_game_blocks() {
    let bytes = v2_file();
    let parsed = parse(&bytes).unwrap();
    assert_eq!(parsed.version, 2);
    assert_eq!(parsed.blocks.len(), 8);
    // The 32PX line lengths count the whole line with their own 2 bytes (13 + 2, 11 + 2); the last is 0.
    let lines = pixels_32();
    assert_eq!((&lines[..2], &lines[15..17], &lines[28..30]), (&[15u8, 0][..], &[13u8, 0][..], &[0u8, 0][..]));
    assert_eq!(lines.len(), 30 + 10);
    match &parsed.blocks[1].body {
        Body::Pixels8 { width: 3, height: 2, offset: Some((-5, -7)), data } => {
            assert_eq!(decode_8bpp(data, 3, 2, 0).unwrap(), C_ROWS)
        }
        other => panic!("block 2: {other:?}"),
    }
    match &parsed.blocks[2].body {
        Body::Pixels32 { width: 5, height: 3, offset: (-2, -4), data } => {
            let p = decode_32bpp(data, 5, 3, 0).unwrap();
            assert_eq!(encode_32bpp(5, 3, &p), data.as_ref(), "the fixture is as the generator writes it");
            #[rustfmt::skip]
            let rgba: Vec<u8> = vec![
                10, 20, 30, 255,  40, 50, 60, 255,  70, 80, 90, 128,  0, 0, 0, 0,  0, 0, 0, 0,
                0, 0, 0, 0,       0, 0, 0, 0,       0, 0, 0, 255,     0, 0, 0, 255,  1, 2, 3, 255,
                0, 0, 0, 200,     0, 0, 0, 0,       7, 8, 9, 255,     0, 0, 0, 0,  0, 0, 0, 0,
            ];
            assert_eq!(p.rgba, rgba);
            assert_eq!(p.layer, [0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 2, 0, 0, 0, 0]);
            assert_eq!(p.intensity, [0, 0, 0, 0, 0, 0, 0, 100, 200, 0, 50, 0, 0, 0, 0]);
            let rec: Vec<bool> = [0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0].iter().map(|&v| v == 1).collect();
            assert_eq!(p.recolour, rec);
        }
        other => panic!("block 3: {other:?}"),
    }

    let doc = to_json(&parsed);
    assert_eq!(doc["file_version"], 2);
    let b = blocks_of(&doc);
    assert_eq!(
        b[0],
        json!({"block": 1, "magic": "INFO", "version": 1, "build": "20240101", "name": "Fixture",
               "uri": "relic.test/fixture/1", "website": "https://example.org/rcd",
               "description": "Hand-made, byte by byte."})
    );
    assert_eq!(
        b[1],
        json!({"block": 2, "magic": "8PXL", "version": 2, "width": 3, "height": 2, "x_offset": -5, "y_offset": -7,
               "data": b64(&pixels_c())})
    );
    assert_eq!(
        b[2],
        json!({"block": 3, "magic": "32PX", "version": 1, "width": 5, "height": 3, "x_offset": -2, "y_offset": -4,
               "data": b64(&pixels_32())})
    );
    assert_eq!(
        b[3],
        json!({"block": 4, "magic": "TEXT", "version": 3, "strings": [
            {"name": "guest", "translations": [{"language": "en_GB", "forms": ["Guest"]}]},
            {"name": "items", "translations": [
                {"language": "en_GB", "forms": ["%1% item", "%1% items"]},
                {"language": "nl_NL", "forms": ["%1% ding", "%1% dingen"]},
            ]},
        ]})
    );
    let north = &b[4]["north"];
    assert_eq!(b[4]["ground_type"], "semi-transparent-grass");
    assert_eq!((b[4]["tile_width"].clone(), b[4]["z_height"].clone()), (json!(64), json!(16)));
    assert_eq!(north.as_object().unwrap().len(), 23);
    assert_eq!(
        (north["flat"].clone(), north["n"].clone(), north["steep_w_top"].clone()),
        (json!(2), json!(3), json!(3))
    );
    let set: Vec<&str> =
        north.as_object().unwrap().iter().filter(|(_, v)| !v.is_null()).map(|(k, _)| k.as_str()).collect();
    assert_eq!(set, ["flat", "n", "steep_w_top"]);
    assert_eq!(
        b[5],
        json!({"block": 6, "magic": "PLAT", "version": 2, "tile_width": 64, "z_height": 16, "platform_type": "wood",
               "sprites": {"flat_ns": 3, "flat_ew": 2, "ne_up": null, "se_up": null, "sw_up": null, "nw_up": null,
                           "right_ne_up": null, "right_se_up": null, "right_sw_up": null, "right_nw_up": null,
                           "left_ne_up": null, "left_se_up": null, "left_sw_up": null, "left_nw_up": 3}})
    );
    assert_lossless(&bytes);
}

#[test]
fn v2_recolour_pixels_are_drawn_grey_without_a_source_and_kept_as_layers() {
    let assets = FORMAT.convert(&relic::registry::ConvertInput::new(&v2_file(), &ConvertOptions::default())).unwrap();
    assert_eq!(
        names(&assets),
        [
            ".",
            "0002_surf5_north_flat",
            "0003_surf5_north_n",
            "0003_surf5_north_n.recolour",
            "0005_surf_sheet.view",
            "0006_plat_sheet.view"
        ]
    );
    let c = asset(&assets, "0002_surf5_north_flat");
    assert_eq!(c.frames[0].offset, (-5, -7));
    assert_eq!(c.frames[0].pixels, Pixels::Indexed(C_ROWS.to_vec()));
    assert_eq!(c.palette.as_ref().unwrap()[0][3], 0);

    let img = asset(&assets, "0003_surf5_north_n");
    let f = &img.frames[0];
    assert_eq!((f.width, f.height, f.offset), (5, 3, (-2, -4)));
    // No SHOP names a source for this sprite: the grey range (0).
    let grey = |i: u8| {
        let [r, g, b] = gradient(0, i);
        [r, g, b]
    };
    assert_ne!(grey(100), [0, 0, 0]);
    assert_ne!(grey(100), grey(200));
    assert_eq!(rgba_at(&f.pixels, 5, 2, 1), [grey(100)[0], grey(100)[1], grey(100)[2], 255]);
    assert_eq!(rgba_at(&f.pixels, 5, 3, 1), [grey(200)[0], grey(200)[1], grey(200)[2], 255]);
    assert_eq!(rgba_at(&f.pixels, 5, 0, 2), [grey(50)[0], grey(50)[1], grey(50)[2], 200]);
    // Plain pixels as stored.
    assert_eq!(rgba_at(&f.pixels, 5, 0, 0), [10, 20, 30, 255]);
    assert_eq!(rgba_at(&f.pixels, 5, 2, 0), [70, 80, 90, 128]);
    assert_eq!(rgba_at(&f.pixels, 5, 4, 1), [1, 2, 3, 255]);
    assert_eq!(rgba_at(&f.pixels, 5, 1, 2), [0, 0, 0, 0]);
    assert_eq!(rgba_at(&f.pixels, 5, 2, 2), [7, 8, 9, 255]);
    // The layers: red = layer, green = intensity, opaque where recoloured only.
    let layers = asset(&assets, "0003_surf5_north_n.recolour");
    let l = &layers.frames[0];
    assert_eq!((l.width, l.height), (5, 3));
    let Pixels::Rgba8(lp) = &l.pixels else { panic!("layers are RGBA") };
    let mut want = vec![0u8; 5 * 3 * 4];
    want[7 * 4..8 * 4].copy_from_slice(&[1, 100, 0, 255]);
    want[8 * 4..9 * 4].copy_from_slice(&[1, 200, 0, 255]);
    want[10 * 4..11 * 4].copy_from_slice(&[2, 50, 0, 255]);
    assert_eq!(lp, &want);

    let Some(Asset::Document(doc)) = assets.first().map(|a| &a.asset) else { panic!("no document") };
    let b = blocks_of(&doc.value);
    assert_eq!(b[2]["png"], "0003_surf5_north_n.png");
    assert_eq!(b[2]["recolour_png"], "0003_surf5_north_n.recolour.png");
    assert!(b[2].get("data").is_none(), "canonical pixels are in the PNG only: {}", b[2]);
}

#[test]
fn v2_recolour_pixels_take_the_shops_source_ranges() {
    let bytes = v2_shop_file();
    let parsed = parse(&bytes).unwrap();
    let doc = to_json(&parsed);
    let b = blocks_of(&doc);
    assert_eq!(
        b[3],
        json!({"block": 4, "magic": "FSET", "version": 2, "tiles_x": 1, "tiles_y": 1, "zoom_widths": [64],
               "views": {"ne": [[[2]]], "se": [[[null]]], "sw": [[[null]]], "nw": [[[null]]]}})
    );
    assert_eq!(
        b[4],
        json!({"block": 5, "magic": "SHOP", "version": 8, "height": 2, "entrance_flags": 5, "frame_set": 4,
               "recolour_1": {"source": "red", "allowed": ["red", "orange"]},
               "recolour_2": {"source": "blue", "allowed": ["grey"]},
               "recolour_3": {"source": "grey", "allowed": []},
               "item_cost_1": 150, "item_cost_2": -25, "monthly_cost": 1000, "monthly_open_cost": 200,
               "item_type_1": "drink", "item_type_2": 77, "text": 3, "internal_name": "stall", "build_cost": 5000})
    );
    assert_lossless(&bytes);

    let assets = FORMAT.convert(&relic::registry::ConvertInput::new(&bytes, &ConvertOptions::default())).unwrap();
    let name = "0002_shop5_stall_frame_set_views_ne_x0_y0_z0";
    assert_eq!(names(&assets), [".", name, &format!("{name}.recolour"), "0004_fset_sheet.view"]);
    let f = &asset(&assets, name).frames[0];
    // Layer 1 is the shop's first recolouring (red, 13), layer 2 its second (blue, 10).
    let [r, g, bl] = gradient(13, 100);
    assert_eq!(rgba_at(&f.pixels, 5, 2, 1), [r, g, bl, 255]);
    assert_ne!(gradient(13, 100), gradient(0, 100));
    let [r, g, bl] = gradient(10, 50);
    assert_eq!(rgba_at(&f.pixels, 5, 0, 2), [r, g, bl, 200]);
    assert_ne!(gradient(10, 50), gradient(0, 50));
}

#[test]
fn v2_files_are_robust() {
    assert_robust(&v2_file(), 8);
    assert_robust(&v2_shop_file(), 5);
}

// =========================================================================================================
// Fixtures 3 and 4: unknown blocks, and known blocks that do not fit their layout

#[test]
fn unknown_blocks_are_kept_raw_and_listed() {
    for (bytes, n, version) in [(v1_file(), 11, 7), (v2_file(), 7, 1)] {
        let parsed = parse(&bytes).unwrap();
        let block = &parsed.blocks[n - 1];
        assert_eq!((&block.magic, block.version), (b"ZZZZ", version));
        match &block.body {
            Body::Raw { bytes: raw, reason: None } => assert_eq!(raw.as_ref(), UNKNOWN_BODY),
            other => panic!("block {n}: {other:?}"),
        }
        let doc = to_json(&parsed);
        assert_eq!(
            blocks_of(&doc)[n - 1],
            json!({"block": n, "magic": "ZZZZ", "version": version, "raw": b64(UNKNOWN_BODY),
                   "unparsed": "relic has no layout for this block"})
        );
        assert_eq!(write(&parsed).unwrap(), bytes);
        let info = FORMAT.info(&bytes).unwrap();
        assert!(
            info["kept_raw"].as_array().unwrap().contains(&json!(format!("ZZZZ v{version}"))),
            "{}",
            info["kept_raw"]
        );
    }
}

#[test]
fn a_known_block_of_the_wrong_length_is_kept_raw_with_the_reason() {
    // GSLI (33 − 12 = 21 bytes) with one byte more.
    let bytes = v1_file();
    let parsed = parse(&bytes).unwrap();
    let mut long = gsli_body();
    long.push(0xAB);
    match &parsed.blocks[11].body {
        Body::Raw { bytes: raw, reason: Some(why) } => {
            assert_eq!(raw.as_ref(), long.as_slice());
            assert_eq!(why, "1 bytes follow the layout's last field");
        }
        other => panic!("block 12: {other:?}"),
    }
    let doc = to_json(&parsed);
    assert_eq!(
        blocks_of(&doc)[11],
        json!({"block": 12, "magic": "GSLI", "version": 1, "raw": b64(&long),
               "unparsed": "1 bytes follow the layout's last field"})
    );
    let info = FORMAT.info(&bytes).unwrap();
    assert_eq!(
        info["unparsed"],
        json!([{"block": 12, "magic": "GSLI", "reason": "1 bytes follow the layout's last field"}])
    );
    assert_eq!(info["kept_raw"], json!(["ZZZZ v7"]), "GSLI v1 has a layout: only this block is raw");

    // SURF v6 (110 − 12 = 98 bytes) with one byte less: its last sprite reference does not fit.
    let bytes = v2_file();
    let parsed = parse(&bytes).unwrap();
    let mut short = surf_body();
    short.pop();
    match &parsed.blocks[7].body {
        Body::Raw { bytes: raw, reason: Some(why) } => {
            assert_eq!(raw.as_ref(), short.as_slice());
            assert!(why.contains("SURF.north.steep_w_top"), "{why}");
        }
        other => panic!("block 8: {other:?}"),
    }
    assert_eq!(write(&parsed).unwrap(), bytes);
    // Both whole files round-trip (checked in full by the fixture tests); the raw blocks through JSON too.
    assert_eq!(write(&from_json(&to_json(&parsed)).unwrap()).unwrap(), bytes);
}

// =========================================================================================================
// Fixture 5: the 8PXL encoder follows docs/formats/freerct.md#8pxl

#[test]
fn the_8bpp_encoder_writes_the_corrected_runs() {
    // Index 0 is never stored: `0 0 3 0 4` is gap 2, one pixel; gap 1, one pixel (the last).
    let data = encode_8bpp(5, 1, &[0, 0, 3, 0, 4]);
    assert_eq!(data, [4, 0, 0, 0, 2, 1, 3, 0x81, 1, 4]);

    // A gap of exactly 127 fits the offset byte; 128 and 300 need (127, 0) fillers.
    let mut row = vec![0u8; 127];
    row.push(9);
    assert_eq!(encode_8bpp(128, 1, &row), [4, 0, 0, 0, 0x80 | 127, 1, 9]);
    let mut row = vec![0u8; 128];
    row.push(9);
    assert_eq!(encode_8bpp(129, 1, &row), [4, 0, 0, 0, 127, 0, 0x81, 1, 9]);
    let mut row = vec![0u8; 300];
    row.push(9);
    assert_eq!(encode_8bpp(301, 1, &row), [4, 0, 0, 0, 127, 0, 127, 0, 0x80 | 46, 1, 9]);

    // A run of 256 after a gap of 3 is split into 255 and 1; one of 600 into 255, 255, 90.
    let mut row = vec![0u8; 3];
    row.extend((0..256).map(|i| (i % 200 + 1) as u8));
    let data = encode_8bpp(259, 1, &row);
    let mut want = vec![4, 0, 0, 0, 3, 255];
    want.extend_from_slice(&row[3..258]);
    want.extend_from_slice(&[0x80, 1, row[258]]);
    assert_eq!(data, want);
    let row = vec![7u8; 600];
    let data = encode_8bpp(600, 1, &row);
    let mut want = vec![4, 0, 0, 0, 0, 255];
    want.extend([7; 255]);
    want.extend([0, 255]);
    want.extend([7; 255]);
    want.extend([0x80, 90]);
    want.extend([7; 90]);
    assert_eq!(data, want);

    // Several lines: the table holds offsets from its first entry, 0 for a transparent line; the last
    // entry of every line has bit 7 set.
    let pixels = [0, 1, 0, 0, 0, 0, 2, 2, 3];
    let data = encode_8bpp(3, 3, &pixels);
    let want = pxl_lines(&[Some(vec![0x81, 1, 1]), None, Some(vec![0x80, 3, 2, 2, 3])]);
    assert_eq!(want, [12, 0, 0, 0, 0, 0, 0, 0, 15, 0, 0, 0, 0x81, 1, 1, 0x80, 3, 2, 2, 3]);
    assert_eq!(data, want);
    // A sprite without a visible pixel: a table of zeros.
    assert_eq!(encode_8bpp(2, 2, &[0; 4]), [0; 8]);

    // The fixtures' hand-written lines are what the encoder writes, and every encoding decodes back.
    assert_eq!(encode_8bpp(4, 3, &A_ROWS), pixels_a());
    assert_eq!(encode_8bpp(2, 1, &B_ROWS), pixels_b());
    assert_eq!(encode_8bpp(3, 2, &C_ROWS), pixels_c());
    for (w, px) in [(5u16, vec![0, 0, 3, 0, 4]), (600, vec![7; 600]), (3, pixels.to_vec())] {
        let h = (px.len() / usize::from(w)) as u16;
        assert_eq!(decode_8bpp(&encode_8bpp(w, h, &px), w, h, 0).unwrap(), px);
    }
}

// =========================================================================================================
// Fixture 6: convert → pack through files on disk

fn convert(input: &Path, out: &Path, req: &ConvertRequest) -> Vec<String> {
    let report = ops::convert(std::slice::from_ref(&input.to_path_buf()), out, req, &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let mut names: Vec<String> = report
        .outputs
        .iter()
        .map(|o| Path::new(&o.output).strip_prefix(out).unwrap().to_string_lossy().replace('\\', "/"))
        .collect();
    names.sort();
    names
}

fn pack(json: &Path, back: &Path) -> Vec<String> {
    ops::pack("freerct-rcd", json, back, &PackOptions::default()).unwrap().notes
}

#[test]
fn convert_then_pack_is_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, Vec<u8>, Vec<&str>); 3] = [
        (
            "one",
            v1_file(),
            vec![
                "one.rcd.json",
                "one.rcd/0001_shop5_views_ne.png",
                "one.rcd/0003_shop5_views_se.png",
                "one.rcd/0005_shop_sheet.view.png",
                "one.rcd/0006_plat_sheet.view.png",
                "one.rcd/0007_tare_sheet.view.png",
                "one.rcd/0008_pare_sheet.view.png",
                "one.rcd/0009_gsli_sheet.view.png",
                "one.rcd/0010_gbor_sheet.view.png",
            ],
        ),
        (
            "two",
            v2_file(),
            vec![
                "two.rcd.json",
                "two.rcd/0002_surf5_north_flat.png",
                "two.rcd/0003_surf5_north_n.png",
                "two.rcd/0003_surf5_north_n.recolour.png",
                "two.rcd/0005_surf_sheet.view.png",
                "two.rcd/0006_plat_sheet.view.png",
            ],
        ),
        (
            "shop",
            v2_shop_file(),
            vec![
                "shop.rcd.json",
                "shop.rcd/0002_shop5_stall_frame_set_views_ne_x0_y0_z0.png",
                "shop.rcd/0002_shop5_stall_frame_set_views_ne_x0_y0_z0.recolour.png",
                "shop.rcd/0004_fset_sheet.view.png",
            ],
        ),
    ];
    for (stem, bytes, want) in cases {
        let input = dir.path().join(format!("{stem}.rcd"));
        std::fs::write(&input, &bytes).unwrap();
        let out = dir.path().join(format!("out_{stem}"));
        assert_eq!(convert(&input, &out, &ConvertRequest::default()), want, "{stem}");
        let back = dir.path().join(format!("{stem}.back.rcd"));
        let notes = pack(&out.join(format!("{stem}.rcd.json")), &back);
        // The fixtures' pixels are canonical, so the convert document leaves their data to the PNGs and
        // pack encodes every sprite again (to the same bytes).
        let sprites = want.iter().filter(|n| n.ends_with(".png") && !n.contains("sheet") && !n.contains("recolour"));
        let n = sprites.count();
        let note =
            format!("0 edited and encoded anew, {n} unedited ({n} encoded to their bytes again, 0 kept as stored)");
        assert!(notes.iter().any(|n| n.contains(&note)), "{stem}: {notes:?}");
        assert!(!notes.iter().any(|n| n.contains("is a view")), "{stem}: unedited sheets match: {notes:?}");
        assert_eq!(std::fs::read(&back).unwrap(), bytes, "{stem}: convert → pack");

        // --to json → pack: the lossless document alone.
        let out = dir.path().join(format!("json_{stem}"));
        let req = ConvertRequest { to: Some("json".into()), ..Default::default() };
        assert_eq!(convert(&input, &out, &req), [format!("{stem}.rcd.json")]);
        let back = dir.path().join(format!("{stem}.json.rcd"));
        pack(&out.join(format!("{stem}.rcd.json")), &back);
        assert_eq!(std::fs::read(&back).unwrap(), bytes, "{stem}: --to json → pack");
    }
}

#[test]
fn an_edited_sprite_png_is_encoded_with_its_sprt_palette() {
    edit_sprite_and_pack(&palette_a());
}

/// Repaints SPRT 2's sprite (8PXL 1) of the version 1 file, whose SPRT holds `pal_a`, through its PNG in
/// RGBA: colours of that palette map back to their indices, so the 8PXL is re-encoded as the generator
/// would, and nothing else changes.
fn edit_sprite_and_pack(pal_a: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("one.rcd");
    std::fs::write(&input, v1_file_with(pal_a)).unwrap();
    let out = dir.path().join("out");
    convert(&input, &out, &ConvertRequest::default());
    let png: PathBuf = out.join("one.rcd/0001_shop5_views_ne.png");
    // 4 × 3: row 0 `0 5 6 0` becomes `200 5 6 0` (palette A's entry 200 is (200, 55, 0x40)).
    let mut rgba = Vec::new();
    for &i in &[200u8, 5, 6, 0, 0, 0, 0, 0, 7, 0, 0, 8] {
        let at = usize::from(i) * 3;
        rgba.extend_from_slice(&pal_a[at..at + 3]);
        rgba.push(if i == 0 { 0 } else { 255 });
    }
    let file = std::fs::File::create(&png).unwrap();
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), 4, 3);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header().unwrap().write_image_data(&rgba).unwrap();
    let back = dir.path().join("edited.rcd");
    let notes = pack(&out.join("one.rcd.json"), &back);
    // SPRT 2's 8PXL edited; SPRT 4's (8PXL 3) encoded to its bytes again.
    let counts = "1 edited and encoded anew, 1 unedited (1 encoded to their bytes again, 0 kept as stored)";
    assert!(notes.iter().any(|n| n.ends_with(counts)), "{notes:?}");
    assert!(!notes.iter().any(|n| n.contains("nearest")), "{notes:?}");
    // The sheet beside the edited sprite is stale, not edited: no warning.
    assert!(!notes.iter().any(|n| n.contains("is a view")), "{notes:?}");
    let edited = std::fs::read(&back).unwrap();
    // The expected file: block 1 with row 0 `200 5 6 0` (gap 0, three pixels, the last entry).
    let mut want = v1_file_with(pal_a);
    let new_lines = pxl_lines(&[Some(vec![0x80, 3, 200, 5, 6]), None, Some(vec![0, 1, 7, 0x82, 1, 8])]);
    let new_block = block(b"8PXL", 1, &Le::new().u16(4).u16(3).bytes(&new_lines).0);
    let old_len = 12 + 4 + pixels_a().len();
    want.splice(8..8 + old_len, new_block);
    assert_eq!(edited, want);
}

#[test]
fn a_sprt_palette_is_raw_rgb_whatever_its_first_bytes_spell() {
    // SPRT v1's palette is 768 bytes of RGB. Entry 0 is transparent and its colour unused, so its first
    // bytes may spell anything, also the magic of a palette file (PALS, JASC-PAL, RIFF … PAL ).
    for start in [&b"PALS"[..], b"JASC-PAL", b"RIFF\x00\x03\x00\x00PAL "] {
        let mut pal = palette_a();
        pal[..start.len()].copy_from_slice(start);
        let assets = FORMAT
            .convert(&relic::registry::ConvertInput::new(&v1_file_with(&pal), &ConvertOptions::default()))
            .unwrap();
        let got = asset(&assets, "0001_shop5_views_ne").palette.clone().unwrap();
        let want: Vec<[u8; 4]> =
            pal.chunks_exact(3).enumerate().map(|(i, c)| [c[0], c[1], c[2], if i == 0 { 0 } else { 255 }]).collect();
        assert_eq!(got, want, "palette starting {:?}", String::from_utf8_lossy(start));
        let sheet = &asset(&assets, "0009_gsli_sheet.view").frames[0];
        assert_eq!(rgba_at(&sheet.pixels, sheet.width, 1, 0), [5, 250, 0x40, 255]);
        edit_sprite_and_pack(&pal);
    }
}
