//! Evil Islands MMP textures (`ei-mmp`): reader, pixel decoding per format, lossless document, writer,
//! conversion and packing through `relic::ops`, corpus textures and an independent DXT check with Pillow.
//!
//! Layout (spec `evil-islands.txt`, section "Mmp", with docs/formats/evil-islands.md#mmp):
//! - header, 76 bytes: `MMP\0`, u32 width, u32 height, u32 `mip_levels_count`, u32 fourcc, u32
//!   `bits_per_pixel`, then four `channel_format` records (u32 mask, u32 shift, u32 count) for alpha, red,
//!   green and blue, then 4 unused bytes; texels start at 76;
//! - fourccs: `0x4444` ARGB4, `0x5650` R5G6B5, `0x5551` A1R5G5B5, `0x8888` ARGB8, `DXT1`, `DXT3`, `PNT3`;
//! - levels largest first, halving; a level takes `bpp · w · h / 8` bytes, at least 8 (DXT1) / 16 (DXT3);
//! - uncompressed channels: `255 · ((raw & mask) >> shift) / (mask >> shift)`, alpha 255 when its count is 0;
//! - PNT3: the packed byte size is in `mip_levels_count`; per u32 word v, 0 < v ≤ 1,000,000 is v zero
//!   bytes, anything else a literal word; if the size is ≥ 4·w·h the texels are raw ARGB8.
//!
//! The fixtures below are assembled byte by byte from those tables, independently of relic's writer. Real
//! textures come from `auxData.res` in `../shared/corpus/` when it exists (never copied).

use std::path::{Path, PathBuf};
use std::process::Command;

use proptest::prelude::*;
use relic::codec::dxt::Dxt;
use relic::codec::pixel::{self, PixelLayout};
use relic::evil_islands::mmp::{
    self, convert, decode_level, encode, parse, pnt3, write::downscale, write_document, MmpDocument, PixelFormat,
};
use relic::registry::{ConvertOptions, PackRequest};
use relic::{ops, Error};

// =========================================================================================================
// Hand-made fixtures (spec "Mmp")

const DXT1: u32 = u32::from_le_bytes(*b"DXT1");
const DXT3: u32 = u32::from_le_bytes(*b"DXT3");
const PNT3: u32 = u32::from_le_bytes(*b"PNT3");

/// (mask, shift, count) for A, R, G, B.
type Channels = [(u32, u32, u32); 4];
const CH_ARGB4: Channels = [(0xF000, 12, 4), (0x0F00, 8, 4), (0x00F0, 4, 4), (0x000F, 0, 4)];
const CH_R5G6B5: Channels = [(0, 0, 0), (0xF800, 11, 5), (0x07E0, 5, 6), (0x001F, 0, 5)];
const CH_A1R5G5B5: Channels = [(0x8000, 15, 1), (0x7C00, 10, 5), (0x03E0, 5, 5), (0x001F, 0, 5)];
const CH_ARGB8: Channels = [(0xFF00_0000, 24, 8), (0x00FF_0000, 16, 8), (0xFF00, 8, 8), (0xFF, 0, 8)];

fn le(v: u32) -> [u8; 4] {
    v.to_le_bytes()
}

/// A file from the spec's header table followed by `body`.
fn mmp_file(w: u32, h: u32, count: u32, fourcc: u32, bpp: u32, ch: Channels, body: &[u8]) -> Vec<u8> {
    let mut out = b"MMP\0".to_vec();
    for v in [w, h, count, fourcc, bpp] {
        out.extend(le(v));
    }
    for (mask, shift, n) in ch {
        out.extend(le(mask));
        out.extend(le(shift));
        out.extend(le(n));
    }
    out.extend([0, 0, 0, 0]);
    assert_eq!(out.len(), 76);
    out.extend(body);
    out
}

fn words16(words: &[u16]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn pixels(rgba: &[u8]) -> Vec<[u8; 4]> {
    rgba.chunks_exact(4).map(|p| [p[0], p[1], p[2], p[3]]).collect()
}

fn top(bytes: &[u8]) -> Vec<[u8; 4]> {
    pixels(&decode_level(&parse(bytes).unwrap(), 0).unwrap())
}

#[test]
fn argb4_words_decode_to_exact_colours() {
    // 2×2, rows top first: 0xF00F, 0x8F00 / 0x00F0, 0x1234.
    let file = mmp_file(2, 2, 1, 0x4444, 16, CH_ARGB4, &words16(&[0xF00F, 0x8F00, 0x00F0, 0x1234]));
    let m = parse(&file).unwrap();
    assert_eq!((m.header.width, m.header.height, m.levels.len()), (2, 2, 1));
    assert_eq!(m.levels[0].offset, 76);
    assert_eq!(top(&file), vec![[0, 0, 255, 255], [255, 0, 0, 136], [0, 255, 0, 0], [34, 51, 68, 17]]);
}

#[test]
fn r5g6b5_has_opaque_alpha() {
    let file = mmp_file(4, 1, 1, 0x5650, 16, CH_R5G6B5, &words16(&[0xF800, 0x07E0, 0x001F, 0x0841]));
    // 0x0841: r=1 (255/31 → 8), g=2 (510/63 → 8), b=1 → 8.
    assert_eq!(top(&file), vec![[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [8, 8, 8, 255]]);
    // A mask with count 0 still means "no alpha" (the spec tests the count).
    let mut ch = CH_R5G6B5;
    ch[0] = (0x8000, 15, 0);
    let file = mmp_file(1, 1, 1, 0x5650, 16, ch, &words16(&[0x001F]));
    assert_eq!(top(&file), vec![[0, 0, 255, 255]]);
}

#[test]
fn a1r5g5b5_alpha_bit() {
    let file = mmp_file(4, 1, 1, 0x5551, 16, CH_A1R5G5B5, &words16(&[0xFC00, 0x7C00, 0x83E0, 0x0010]));
    assert_eq!(top(&file), vec![[255, 0, 0, 255], [255, 0, 0, 0], [0, 255, 0, 255], [0, 0, 131, 0]]);
}

#[test]
fn argb8_is_b_g_r_a_in_memory() {
    let body = [0x10, 0x20, 0x30, 0x40, 0xFF, 0xFF, 0xFF, 0x00];
    let file = mmp_file(1, 2, 1, 0x8888, 32, CH_ARGB8, &body);
    assert_eq!(top(&file), vec![[0x30, 0x20, 0x10, 0x40], [255, 255, 255, 0]]);
}

#[test]
fn masks_of_the_header_are_used_not_those_of_the_fourcc() {
    // An ARGB8 fourcc whose header swaps red and blue: the header wins (spec `pixel_custom`).
    let ch = [(0xFF00_0000, 24, 8), (0xFF, 0, 8), (0xFF00, 8, 8), (0x00FF_0000, 16, 8)];
    let file = mmp_file(1, 1, 1, 0x8888, 32, ch, &[0x10, 0x20, 0x30, 0x40]);
    assert_eq!(top(&file), vec![[0x10, 0x20, 0x30, 0x40]]);
    // An unknown fourcc is read through its masks too.
    let file = mmp_file(1, 1, 1, 0x1234, 16, CH_ARGB4, &words16(&[0xF0F0]));
    assert_eq!(top(&file), vec![[0, 255, 0, 255]]);
}

/// Two DXT1 blocks side by side (8×4): a four-colour block and a three-colour one with transparency.
fn dxt1_blocks() -> Vec<u8> {
    let mut b = Vec::new();
    // Block 0: colour0 = red 0xF800 > colour1 = blue 0x001F: four colours. Row y has indices (0,1,2,3)
    // rotated by y.
    b.extend(0xF800u16.to_le_bytes());
    b.extend(0x001Fu16.to_le_bytes());
    b.extend([0b1110_0100, 0b0011_1001, 0b0100_1110, 0b1001_0011]);
    // Block 1: colour0 = blue 0x001F <= colour1 = red 0xF800: three colours, index 3 transparent black.
    b.extend(0x001Fu16.to_le_bytes());
    b.extend(0xF800u16.to_le_bytes());
    b.extend([0b1110_0100; 4]);
    b
}

#[test]
fn dxt1_four_and_three_colour_blocks() {
    let file = mmp_file(8, 4, 1, DXT1, 4, CH_A1R5G5B5, &dxt1_blocks());
    let px = top(&file);
    let at = |x: usize, y: usize| px[y * 8 + x];
    let (red, blue) = ([255, 0, 0, 255], [0, 0, 255, 255]);
    // Four-colour mode: c2 = (2·c0 + c1) / 3, c3 = (c0 + 2·c1) / 3.
    assert_eq!([at(0, 0), at(1, 0), at(2, 0), at(3, 0)], [red, blue, [170, 0, 85, 255], [85, 0, 170, 255]]);
    assert_eq!([at(0, 1), at(1, 1), at(2, 1), at(3, 1)], [blue, [170, 0, 85, 255], [85, 0, 170, 255], red]);
    assert_eq!(at(0, 3), [85, 0, 170, 255]);
    // Three-colour mode: c2 = (c0 + c1) / 2, c3 transparent black.
    for y in 0..4 {
        assert_eq!([at(4, y), at(5, y), at(6, y), at(7, y)], [blue, red, [127, 0, 127, 255], [0, 0, 0, 0]]);
    }
}

#[test]
fn dxt3_explicit_alpha_and_always_four_colours() {
    let mut block = Vec::new();
    // 16 alpha nibbles 0..15, two per byte, low nibble first.
    block.extend([0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE]);
    // colour0 = black <= colour1 = white: still four colours in DXT3; rows use indices 0, 1, 2, 3.
    block.extend(0x0000u16.to_le_bytes());
    block.extend(0xFFFFu16.to_le_bytes());
    block.extend([0b1110_0100; 4]);
    let file = mmp_file(4, 4, 1, DXT3, 8, CH_ARGB4, &block);
    let px = top(&file);
    let grey = [0u8, 255, 85, 170];
    for (i, p) in px.iter().enumerate() {
        let g = grey[i % 4];
        assert_eq!(*p, [g, g, g, 17 * i as u8], "pixel {i}");
    }
}

/// A PNT3 stream for a 4×2 texture (32 bytes unpacked): two literals, a run of 16 zero bytes (flushing
/// them), a literal zero word, and a final literal just above the run limit (flushed at the end).
fn pnt3_stream() -> Vec<u8> {
    [0xFF11_2233u32, 0x80AA_BBCC, 16, 0, 1_000_001].iter().flat_map(|v| le(*v)).collect()
}

#[test]
fn pnt3_runs_and_literals() {
    let stream = pnt3_stream();
    let file = mmp_file(4, 2, stream.len() as u32, PNT3, 32, CH_ARGB8, &stream);
    let m = parse(&file).unwrap();
    assert_eq!(m.levels.len(), 1);
    assert_eq!(m.levels[0].data, &stream[..]);
    let z = [0, 0, 0, 0];
    assert_eq!(
        top(&file),
        vec![[0x11, 0x22, 0x33, 0xFF], [0xAA, 0xBB, 0xCC, 0x80], z, z, z, z, z, [0x0F, 0x42, 0x41, 0x00]]
    );
    let info = mmp::FORMAT.info(&file).unwrap();
    assert_eq!(info["packed_size"], 20);
    assert_eq!(info["pnt3_stored_raw"], false);
    // The run limit itself is a run; one above is a literal.
    assert_eq!(pnt3::unpack(&le(1_000_000), 1_000_000).unwrap(), vec![0; 1_000_000]);
    assert_eq!(pnt3::unpack(&le(1_000_001), 4).unwrap(), le(1_000_001));
}

#[test]
fn pnt3_not_smaller_than_the_texels_is_raw_argb8() {
    // 1×1: size 4 = 4·w·h: raw, even though the word would read as a run.
    let file = mmp_file(1, 1, 4, PNT3, 32, CH_ARGB8, &le(8));
    assert_eq!(top(&file), vec![[0, 0, 8, 0]]);
    // Larger than the texels: the first 4·w·h bytes.
    let file = mmp_file(1, 1, 8, PNT3, 32, CH_ARGB8, &[1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(top(&file), vec![[3, 2, 1, 4]]);
    assert_eq!(mmp::FORMAT.info(&file).unwrap()["pnt3_stored_raw"], true);
}

#[test]
fn pnt3_streams_that_do_not_fill_the_image_are_errors() {
    for (stream, what) in [([le(8), le(0)].concat(), "short"), (le(40).to_vec(), "past"), (vec![1, 2, 3], "words")] {
        let file = mmp_file(4, 2, stream.len() as u32, PNT3, 32, CH_ARGB8, &stream);
        let m = parse(&file).unwrap();
        let err = decode_level(&m, 0).unwrap_err();
        let at = err.location().unwrap();
        assert_eq!((at.format, at.field.as_str(), at.offset), ("ei-mmp", "levels[0]", 76), "{what}");
        assert!(err.to_string().contains("PNT3"), "{err}");
    }
}

#[test]
fn mip_levels_halve_with_the_block_minimum() {
    // DXT1 16×16 with 5 levels: 128, 32, 8, then 8 and 8 (one block at least).
    let body: Vec<u8> = (0..(128 + 32 + 8 + 8 + 8)).map(|i| i as u8).collect();
    let file = mmp_file(16, 16, 5, DXT1, 4, CH_A1R5G5B5, &body);
    let m = parse(&file).unwrap();
    let shape: Vec<_> = m.levels.iter().map(|l| (l.width, l.height, l.data.len(), l.offset)).collect();
    assert_eq!(shape, vec![(16, 16, 128, 76), (8, 8, 32, 204), (4, 4, 8, 236), (2, 2, 8, 244), (1, 1, 8, 252)]);
    assert!(m.trailing.is_empty());
    // DXT3 8×8 with 4 levels: 64, then 16, 16, 16.
    let file = mmp_file(8, 8, 4, DXT3, 8, CH_ARGB4, &[0; 64 + 48]);
    let sizes: Vec<_> = parse(&file).unwrap().levels.iter().map(|l| l.data.len()).collect();
    assert_eq!(sizes, vec![64, 16, 16, 16]);
    // ARGB4 4×2, 3 levels: 4×2, 2×1, 1×1 (sides never below 1); 2 bytes left over are trailing.
    let file = mmp_file(4, 2, 3, 0x4444, 16, CH_ARGB4, &[0; 16 + 4 + 2 + 2]);
    let m = parse(&file).unwrap();
    let shape: Vec<_> = m.levels.iter().map(|l| (l.width, l.height, l.data.len())).collect();
    assert_eq!(shape, vec![(4, 2, 16), (2, 1, 4), (1, 1, 2)]);
    assert_eq!(m.trailing.len(), 2);
    // Non-square DXT1 16×4: the 8×2 level takes bpp·w·h/8 → 8 bytes (one of its two blocks).
    let file = mmp_file(16, 4, 2, DXT1, 4, CH_A1R5G5B5, &[0; 32 + 8]);
    let m = parse(&file).unwrap();
    assert_eq!(m.levels[1].data.len(), 8);
    let px = pixels(&decode_level(&m, 1).unwrap());
    assert_eq!(px.len(), 16);
    assert_eq!(px[4 + 8], [0, 0, 0, 0], "pixels of the missing block are transparent black");
    assert_eq!(px[0], [0, 0, 0, 255], "a zero block is opaque black");
}

#[test]
fn info_reports_the_header() {
    let file = mmp_file(8, 4, 1, DXT1, 4, CH_A1R5G5B5, &dxt1_blocks());
    let info = mmp::FORMAT.info(&file).unwrap();
    assert_eq!(info["width"], 8);
    assert_eq!(info["height"], 4);
    assert_eq!(info["pixel_format"], "dxt1");
    assert_eq!(info["mip_levels"], 1);
    assert_eq!(info["bits_per_pixel"], 4);
    assert_eq!(info["channels"], "A1R5G5B5");
    let info = mmp::FORMAT.info(&mmp_file(1, 1, 1, 0x5650, 16, CH_R5G6B5, &[0, 0])).unwrap();
    assert_eq!((info["pixel_format"].as_str(), info["channels"].as_str()), (Some("r5g6b5"), Some("R5G6B5")));
}

// =========================================================================================================
// Errors: every one names the format, the field and the offset

fn located(bytes: &[u8], field: &str, offset: u64, limit: bool) {
    let err = parse(bytes).unwrap_err();
    let at = err.location().unwrap_or_else(|| panic!("no location: {err}"));
    assert_eq!((at.format, at.field.as_str(), at.offset), ("ei-mmp", field, offset), "{err}");
    assert_eq!(matches!(err, Error::Limit { .. }), limit, "{err}");
}

#[test]
fn errors_are_located() {
    located(b"MMQ\0", "magic", 0, false);
    located(&mmp_file(2, 2, 1, 0x4444, 16, CH_ARGB4, &[0; 8])[..40], "red_format.shift", 40, false);
    located(&mmp_file(0, 2, 1, 0x4444, 16, CH_ARGB4, &[]), "width", 4, false);
    located(&mmp_file(2, 0, 1, 0x4444, 16, CH_ARGB4, &[]), "height", 8, false);
    located(&mmp_file(4, 4, 1, DXT1, 8, CH_A1R5G5B5, &[0; 8]), "bits_per_pixel", 20, false);
    located(&mmp_file(4, 4, 1, DXT3, 4, CH_ARGB4, &[0; 16]), "bits_per_pixel", 20, false);
    located(&mmp_file(1, 1, 1, 0x4444, 12, CH_ARGB4, &[0; 2]), "bits_per_pixel", 20, false);
    // Level 1 of an 8×8 DXT1 needs 8 bytes, only 3 remain.
    located(&mmp_file(8, 8, 2, DXT1, 4, CH_A1R5G5B5, &[0; 32 + 3]), "levels[1]", 76 + 32, false);
    located(&mmp_file(1, 1, u32::MAX, 0x4444, 16, CH_ARGB4, &[0; 8]), "mip_levels_count", 12, false);
    // Levels halve down to 1×1: an 8×2 texture has 4 (8, 4, 2, 1 wide), and two more of 1×1 are read; a 7th is
    // refused.
    located(&mmp_file(8, 2, 7, 0x4444, 16, CH_ARGB4, &[0; 64]), "mip_levels_count", 12, false);
    located(&mmp_file(4, 4, 100, PNT3, 32, CH_ARGB8, &[0; 8]), "mip_levels_count", 12, false);
    // No level at all: the file parses (it is what it is) but cannot be converted.
    let empty = mmp_file(4, 4, 0, DXT1, 4, CH_A1R5G5B5, &[]);
    let err = mmp::FORMAT.convert(&relic::registry::ConvertInput::new(&empty, &ConvertOptions::default())).unwrap_err();
    assert_eq!(err.location().unwrap().field, "mip_levels_count");
}

fn handmade_files() -> Vec<(&'static str, Vec<u8>)> {
    let stream = pnt3_stream();
    vec![
        ("argb4", mmp_file(2, 2, 2, 0x4444, 16, CH_ARGB4, &words16(&[0xF00F, 0x8F00, 0x00F0, 0x1234, 0xFFFF]))),
        ("r5g6b5", mmp_file(4, 1, 1, 0x5650, 16, CH_R5G6B5, &words16(&[0xF800, 0x07E0, 0x001F, 0x0841]))),
        ("a1r5g5b5", mmp_file(2, 1, 1, 0x5551, 16, CH_A1R5G5B5, &words16(&[0xFC00, 0x0010]))),
        ("argb8", mmp_file(1, 2, 1, 0x8888, 32, CH_ARGB8, &[1, 2, 3, 4, 5, 6, 7, 8])),
        ("dxt1", mmp_file(8, 4, 1, DXT1, 4, CH_A1R5G5B5, &dxt1_blocks())),
        ("dxt3", mmp_file(4, 4, 2, DXT3, 8, CH_ARGB4, &[7; 32])),
        ("pnt3", mmp_file(4, 2, stream.len() as u32, PNT3, 32, CH_ARGB8, &stream)),
    ]
}

/// Parse and decode every level: never a panic; truncation always rejected (these files end with a level).
fn assert_robust(name: &str, bytes: &[u8]) {
    let report = relic::testing::check_robustness(bytes, true, |b| {
        let m = parse(b)?;
        (0..m.levels.len()).try_for_each(|i| decode_level(&m, i).map(|_| ()))
    });
    assert_eq!(report.truncations_rejected, bytes.len(), "{name}");
    assert!(report.flips_rejected >= 12, "{name}: flipping a magic bit always fails: {report:?}");
}

#[test]
fn robustness_hand_made() {
    for (name, bytes) in handmade_files() {
        assert_robust(name, &bytes);
    }
}

#[test]
fn robustness_writer_made() {
    let img = test_image(8, 8);
    for format in PixelFormat::ALL {
        let bytes = encode(&img, 8, 8, format, format != PixelFormat::Pnt3).unwrap();
        assert_robust(format.name(), &bytes);
    }
}

// =========================================================================================================
// Lossless document

fn assert_lossless(bytes: &[u8]) -> MmpDocument {
    let m = parse(bytes).unwrap();
    let doc = convert::to_document(&m);
    assert_eq!(doc.format, "ei-mmp");
    assert_eq!(write_document(&doc).unwrap(), bytes, "document rebuild");
    let value = mmp::FORMAT.to_json(bytes).unwrap();
    let back = mmp::FORMAT.from_json(value, &Default::default()).unwrap();
    assert_eq!(back, bytes, "rebuild through JSON");
    doc
}

#[test]
fn documents_are_lossless() {
    for (_, bytes) in handmade_files() {
        assert_lossless(&bytes);
    }
    // Trailing bytes, a non-zero unused field and an unknown fourcc are kept.
    let mut odd = mmp_file(1, 1, 1, 0x1234, 16, CH_ARGB4, &[1, 2, 9, 9, 9]);
    odd[72] = 0xAB;
    let doc = assert_lossless(&odd);
    assert_eq!(doc.header.unk_0x48, 0xAB);
    assert_eq!(doc.trailing.as_ref().unwrap().0, vec![9, 9, 9]);
    let value = serde_json::to_value(&doc).unwrap();
    assert_eq!(value["header"]["fourcc"], 0x1234);
    let named = serde_json::to_value(convert::to_document(&parse(&handmade_files()[4].1).unwrap())).unwrap();
    assert_eq!(named["header"]["fourcc"], "dxt1");
    assert_eq!(named["header"]["red_format"], serde_json::json!({"mask": 0x7C00, "shift": 10, "count": 5}));
}

#[test]
fn documents_that_disagree_with_their_header_are_refused() {
    let bytes = mmp_file(2, 2, 2, 0x4444, 16, CH_ARGB4, &[0; 10]);
    let doc = convert::to_document(&parse(&bytes).unwrap());
    let mut short = doc.clone();
    short.levels[1].data.0.push(0);
    let err = write_document(&short).unwrap_err();
    assert_eq!(err.field(), Some("levels[1]"), "{err}");
    let mut fewer = doc.clone();
    fewer.levels.pop();
    assert!(write_document(&fewer).is_err());
    let mut value = serde_json::to_value(&doc).unwrap();
    value["header"]["fourcc"] = "dxt9".into();
    assert!(mmp::FORMAT.from_json(value, &Default::default()).is_err());
}

// =========================================================================================================
// Writer

/// A deterministic test picture: smooth gradients with a little noise and varied alpha.
fn test_image(w: u32, h: u32) -> Vec<u8> {
    let mut seed = 0x1234_5678u32;
    let mut noise = move || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 24) as i32 % 13 - 6
    };
    let mut out = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let fx = x as i32 * 255 / w.max(2) as i32;
            let fy = y as i32 * 255 / h.max(2) as i32;
            for v in [fx, fy, (fx + fy) / 2, 255 - fy] {
                out.push((v + noise()).clamp(0, 255) as u8);
            }
        }
    }
    out
}

fn layout_of(format: PixelFormat) -> PixelLayout {
    format.layout()
}

#[test]
fn headers_carry_the_games_masks() {
    let bytes = encode(&[0; 4 * 16], 4, 4, PixelFormat::Dxt1, false).unwrap();
    assert_eq!(bytes[..76], mmp_file(4, 4, 1, DXT1, 4, CH_A1R5G5B5, &[])[..]);
    let bytes = encode(&[0; 4 * 16], 4, 4, PixelFormat::Dxt3, false).unwrap();
    assert_eq!(bytes[..76], mmp_file(4, 4, 1, DXT3, 8, CH_ARGB4, &[])[..]);
    for (format, fourcc, bpp, ch) in [
        (PixelFormat::Argb4, 0x4444, 16, CH_ARGB4),
        (PixelFormat::R5g6b5, 0x5650, 16, CH_R5G6B5),
        (PixelFormat::A1r5g5b5, 0x5551, 16, CH_A1R5G5B5),
        (PixelFormat::Argb8, 0x8888, 32, CH_ARGB8),
    ] {
        let bytes = encode(&[0; 8], 2, 1, format, false).unwrap();
        assert_eq!(bytes[..76], mmp_file(2, 1, 1, fourcc, bpp, ch, &[])[..], "{format:?}");
    }
    // PNT3: the count field holds the packed size (one run word here).
    let bytes = encode(&[0; 4 * 16], 4, 4, PixelFormat::Pnt3, false).unwrap();
    assert_eq!(bytes, mmp_file(4, 4, 4, PNT3, 32, CH_ARGB8, &le(64)));
}

#[test]
fn uncompressed_round_trips_are_exact_after_quantisation() {
    for format in [PixelFormat::Argb4, PixelFormat::R5g6b5, PixelFormat::A1r5g5b5, PixelFormat::Argb8] {
        let img = layout_of(format).quantise(&test_image(13, 7));
        let bytes = encode(&img, 13, 7, format, true).unwrap();
        let m = parse(&bytes).unwrap();
        assert_eq!(m.levels.len(), 4, "13×7, 6×3, 3×1, 1×1");
        assert_eq!(decode_level(&m, 0).unwrap(), img, "{format:?}");
        // Each mip level is the box-filtered level above, quantised.
        let (mut cur, mut w, mut h) = (img.clone(), 13, 7);
        for i in 1..m.levels.len() {
            cur = downscale(&cur, w, h);
            (w, h) = ((w / 2).max(1), (h / 2).max(1));
            assert_eq!((m.levels[i].width, m.levels[i].height), (w, h));
            assert_eq!(decode_level(&m, i).unwrap(), layout_of(format).quantise(&cur), "{format:?} level {i}");
        }
    }
}

#[test]
fn pnt3_writer_packs_or_falls_back_to_raw() {
    // Mostly transparent black: packed.
    let mut img = vec![0u8; 16 * 16 * 4];
    img[40..44].copy_from_slice(&[1, 2, 3, 255]);
    let bytes = encode(&img, 16, 16, PixelFormat::Pnt3, false).unwrap();
    let m = parse(&bytes).unwrap();
    assert!((m.header.mip_levels_count as usize) < img.len());
    assert_eq!(decode_level(&m, 0).unwrap(), img);
    // A texel whose word would read as a run (alpha 0, red < 16): stored raw, still exact.
    img[0..4].copy_from_slice(&[5, 0, 0, 0]);
    let bytes = encode(&img, 16, 16, PixelFormat::Pnt3, false).unwrap();
    let m = parse(&bytes).unwrap();
    assert_eq!(m.header.mip_levels_count as usize, img.len());
    assert_eq!(decode_level(&m, 0).unwrap(), img);
    // Noise does not pack smaller: raw.
    let noisy = test_image(8, 8);
    let m_bytes = encode(&noisy, 8, 8, PixelFormat::Pnt3, false).unwrap();
    assert_eq!(parse(&m_bytes).unwrap().header.mip_levels_count, 256);
    assert!(encode(&noisy, 8, 8, PixelFormat::Pnt3, true).is_err(), "PNT3 has no mips");
}

fn psnr(a: &[u8], b: &[u8], channels: std::ops::Range<usize>) -> f64 {
    let (mut se, mut n) = (0f64, 0f64);
    for (p, q) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        for c in channels.clone() {
            se += (f64::from(p[c]) - f64::from(q[c])).powi(2);
            n += 1.0;
        }
    }
    10.0 * (255.0f64.powi(2) / (se / n).max(1e-9)).log10()
}

#[test]
fn dxt_quality_has_a_floor() {
    let mut img = test_image(64, 64);
    for px in img.chunks_exact_mut(4) {
        px[3] = 255;
    }
    let m_bytes = encode(&img, 64, 64, PixelFormat::Dxt1, false).unwrap();
    let dec = decode_level(&parse(&m_bytes).unwrap(), 0).unwrap();
    let p1 = psnr(&img, &dec, 0..3);
    assert!(p1 >= 30.0, "DXT1 colour PSNR {p1:.1} dB");
    let img = test_image(64, 64);
    let m_bytes = encode(&img, 64, 64, PixelFormat::Dxt3, false).unwrap();
    let dec = decode_level(&parse(&m_bytes).unwrap(), 0).unwrap();
    let p3 = psnr(&img, &dec, 0..3);
    assert!(p3 >= 30.0, "DXT3 colour PSNR {p3:.1} dB");
    // DXT3 alpha is the source's alpha to 4 bits.
    for (s, d) in img.chunks_exact(4).zip(dec.chunks_exact(4)) {
        assert_eq!(d[3], 17 * (s[3] / 17 + u8::from(s[3] % 17 > 8)), "{s:?} {d:?}");
    }
}

#[test]
fn dxt1_keeps_one_bit_alpha() {
    let mut img = test_image(8, 8);
    for (i, px) in img.chunks_exact_mut(4).enumerate() {
        px[3] = if i % 8 < 4 { 0 } else { 255 };
    }
    let dec = decode_level(&parse(&encode(&img, 8, 8, PixelFormat::Dxt1, false).unwrap()).unwrap(), 0).unwrap();
    for (i, px) in dec.chunks_exact(4).enumerate() {
        assert_eq!(px[3], if i % 8 < 4 { 0 } else { 255 }, "pixel {i}");
    }
}

#[test]
fn mip_chains_halve_down_to_one_pixel() {
    let bytes = encode(&test_image(16, 16), 16, 16, PixelFormat::Dxt1, true).unwrap();
    let m = parse(&bytes).unwrap();
    let shape: Vec<_> = m.levels.iter().map(|l| (l.width, l.height, l.data.len())).collect();
    assert_eq!(shape, vec![(16, 16, 128), (8, 8, 32), (4, 4, 8), (2, 2, 8), (1, 1, 8)]);
    assert_eq!(bytes.len(), 76 + 184);
    let bytes = encode(&test_image(32, 8), 32, 8, PixelFormat::Dxt3, true).unwrap();
    let shape: Vec<_> = parse(&bytes).unwrap().levels.iter().map(|l| (l.width, l.height, l.data.len())).collect();
    // 8×2 needs two blocks but the size rule allows 16 bytes: one block is kept.
    assert_eq!(shape, vec![(32, 8, 256), (16, 4, 64), (8, 2, 16), (4, 1, 16), (2, 1, 16), (1, 1, 16)]);
    let bytes = encode(&test_image(8, 2), 8, 2, PixelFormat::Argb4, true).unwrap();
    let shape: Vec<_> = parse(&bytes).unwrap().levels.iter().map(|l| (l.width, l.height)).collect();
    assert_eq!(shape, vec![(8, 2), (4, 1), (2, 1), (1, 1)]);
    assert!(encode(&test_image(6, 6), 6, 6, PixelFormat::Dxt1, false).is_err(), "DXT sides must fill blocks");
    assert!(encode(&test_image(2, 2), 2, 2, PixelFormat::Dxt1, true).is_ok(), "one block is fine");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_uncompressed_round_trip(w in 1u32..12, h in 1u32..12, seed in any::<u64>(), f in 0usize..5, mips in any::<bool>()) {
        let format = [PixelFormat::Argb4, PixelFormat::R5g6b5, PixelFormat::A1r5g5b5, PixelFormat::Argb8, PixelFormat::Pnt3][f];
        let mut s = seed;
        let raw: Vec<u8> = (0..w * h * 4).map(|_| { s = s.wrapping_mul(6364136223846793005).wrapping_add(1); (s >> 56) as u8 }).collect();
        // Some transparent black, which PNT3 packs.
        let raw: Vec<u8> = raw.chunks_exact(4).enumerate().flat_map(|(i, p)| if i % 3 == 0 { [0; 4] } else { [p[0], p[1], p[2], p[3]] }).collect();
        let img = layout_of(format).quantise(&raw);
        let mips = mips && format != PixelFormat::Pnt3;
        let bytes = encode(&img, w, h, format, mips).unwrap();
        let m = parse(&bytes).unwrap();
        prop_assert_eq!(decode_level(&m, 0).unwrap(), img);
        prop_assert_eq!(write_document(&convert::to_document(&m)).unwrap(), bytes);
    }
}

// =========================================================================================================
// Conversion and packing through `relic::ops`

fn png_pixels(path: &Path) -> (u32, u32, Vec<u8>) {
    let img = relic::export::png::decode_rgba(&std::fs::read(path).unwrap()).unwrap();
    let f = &img.frames[0];
    let relic::asset::Pixels::Rgba8(px) = &f.pixels else { panic!("not RGBA") };
    (f.width, f.height, px.clone())
}

fn outputs(report: &ops::ConvertReport) -> Vec<String> {
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let mut names: Vec<String> = report
        .outputs
        .iter()
        .map(|o| Path::new(&o.output).file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn convert_writes_the_top_level_or_every_mip() {
    let dir = tempfile::tempdir().unwrap();
    let img = layout_of(PixelFormat::Argb4).quantise(&test_image(8, 4));
    let tex = dir.path().join("wall.mmp");
    std::fs::write(&tex, encode(&img, 8, 4, PixelFormat::Argb4, true).unwrap()).unwrap();
    let plain =
        ops::convert(std::slice::from_ref(&tex), &dir.path().join("a"), &ops::ConvertRequest::default(), &ops::Quiet);
    assert_eq!(outputs(&plain), vec!["wall.mmp.png"]);
    assert_eq!(plain.outputs[0].kind, "image");
    assert_eq!(png_pixels(&dir.path().join("a/wall.mmp.png")), (8, 4, img.clone()));
    let req =
        ops::ConvertRequest { options: ConvertOptions { mips: true, ..Default::default() }, ..Default::default() };
    let all = ops::convert(std::slice::from_ref(&tex), &dir.path().join("b"), &req, &ops::Quiet);
    assert_eq!(outputs(&all), vec!["wall.mmp.mip0.png", "wall.mmp.mip1.png", "wall.mmp.mip2.png", "wall.mmp.mip3.png"]);
    assert_eq!(png_pixels(&dir.path().join("b/wall.mmp.mip0.png")).2, img);
    assert_eq!(png_pixels(&dir.path().join("b/wall.mmp.mip2.png")).0, 2);
    // A single-level texture with --mips is still named by its level.
    let one = dir.path().join("one.mmp");
    std::fs::write(&one, encode(&img, 8, 4, PixelFormat::Argb4, false).unwrap()).unwrap();
    assert_eq!(outputs(&ops::convert(&[one], &dir.path().join("c"), &req, &ops::Quiet)), vec!["one.mmp.mip0.png"]);
}

fn write_png(path: &Path, w: u32, h: u32, rgba: &[u8]) {
    let img = relic::asset::Image {
        frames: vec![relic::asset::Frame {
            name: None,
            width: w,
            height: h,
            pixels: relic::asset::Pixels::Rgba8(rgba.to_vec()),
            offset: (0, 0),
            hotspots: vec![],
            role: relic::asset::FrameRole::Frame,
        }],
        palette: None,
        frame_rate: None,
        text: Vec::new(),
    };
    std::fs::write(path, &relic::export::png::encode_image(&img).unwrap()[0].bytes).unwrap();
}

#[test]
fn pack_from_png_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let src = test_image(16, 16);
    let png = dir.path().join("image.png");
    write_png(&png, 16, 16, &src);
    let out = dir.path().join("out.mmp");
    let opts = ops::PackOptions { pixel_format: Some("DXT1".into()), mips: true, ..Default::default() };
    ops::pack("ei-mmp", &png, &out, &opts).unwrap();
    let (_, info) = ops::info(&out).unwrap();
    assert_eq!((info["pixel_format"].as_str(), info["mip_levels"].as_u64()), (Some("dxt1"), Some(5)));
    // Default: ARGB8, one level, exact pixels.
    let plain = dir.path().join("plain.mmp");
    ops::pack("ei-mmp", &png, &plain, &ops::PackOptions::default()).unwrap();
    let bytes = std::fs::read(&plain).unwrap();
    let m = parse(&bytes).unwrap();
    assert_eq!((m.header.fourcc.describe().as_str(), m.levels.len()), ("argb8", 1));
    assert_eq!(decode_level(&m, 0).unwrap(), src);
    // JSON and back, byte for byte.
    let to_json = ops::ConvertRequest { to: Some("json".into()), ..Default::default() };
    let report = ops::convert(std::slice::from_ref(&out), dir.path(), &to_json, &ops::Quiet);
    assert_eq!(outputs(&report), vec!["out.mmp.json"]);
    let back = dir.path().join("back.mmp");
    ops::pack("ei-mmp", &dir.path().join("out.mmp.json"), &back, &ops::PackOptions::default()).unwrap();
    assert_eq!(std::fs::read(back).unwrap(), std::fs::read(&out).unwrap());
    // Refusals.
    let bad = ops::PackOptions { pixel_format: Some("bc7".into()), ..Default::default() };
    let err = ops::pack("ei-mmp", &png, &dir.path().join("x.mmp"), &bad).unwrap_err();
    assert!(err.to_string().contains("dxt1"), "{err}");
    let pnt3_mips = ops::PackOptions { pixel_format: Some("pnt3".into()), mips: true, ..Default::default() };
    assert!(ops::pack("ei-mmp", &png, &dir.path().join("y.mmp"), &pnt3_mips).is_err());
    let req = PackRequest::default();
    assert!(matches!(mmp::FORMAT.pack_input("x.bmp", b"BM", &req), Err(Error::Unsupported(_))));
}

/// A PNG of `rgba` (as an editor saves it), with `record` in a `relic` tEXt chunk when given: what relic
/// convert leaves in a texture's PNG, kept by an editor that keeps text chunks.
fn png_with_record(w: u32, h: u32, rgba: &[u8], record: Option<&str>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.add_text_chunk("Software".into(), "an image editor".into()).unwrap();
    if let Some(text) = record {
        enc.add_text_chunk("relic".into(), text.into()).unwrap();
    }
    enc.write_header().unwrap().write_image_data(rgba).unwrap();
    out
}

/// Packs `png` as `name` with `--pixel-format` / `--mips`: the file and the notes.
fn pack_png(name: &str, png: &[u8], format: Option<&str>, mips: bool) -> (Vec<u8>, Vec<String>) {
    let req = PackRequest { pixel_format: format.map(str::to_string), mips, ..Default::default() };
    mmp::pack::from_png(name, png, &req).unwrap()
}

/// Fourcc name and level sizes of a texture.
fn shape(bytes: &[u8]) -> (String, Vec<(u32, u32)>) {
    let m = parse(bytes).unwrap();
    (m.header.fourcc.describe(), m.levels.iter().map(|l| (l.width, l.height)).collect())
}

#[test]
fn the_record_a_texture_leaves_in_its_png() {
    let img = test_image(16, 16);
    let three = mmp::encode_levels(&img, 16, 16, PixelFormat::Dxt1, 3).unwrap();
    assert_eq!(mmp::provenance::png_text(&parse(&three).unwrap()), "ei-mmp format=dxt1 mips=3");
    let pnt3 = encode(&img, 16, 16, PixelFormat::Pnt3, false).unwrap();
    assert_eq!(mmp::provenance::png_text(&parse(&pnt3).unwrap()), "ei-mmp format=pnt3 mips=1");
    // An unknown fourcc read through its masks: no format recorded.
    let odd = mmp_file(1, 1, 1, 0x1234, 16, CH_ARGB4, &[0, 0]);
    assert_eq!(mmp::provenance::png_text(&parse(&odd).unwrap()), "ei-mmp mips=1");
}

/// `pack ei-mmp x.png` over a texture's PNG keeps its pixel format and its number of levels (a partial
/// chain stays partial) unless `--pixel-format` / `--mips` say otherwise; a PNG without the record packs as
/// before (ARGB8, one level). Every result is compared byte for byte with the writer given those choices.
#[test]
fn pack_keeps_the_recorded_format_and_level_count() {
    let mut edited = test_image(16, 16);
    edited[..4].copy_from_slice(&[255, 0, 0, 255]);
    let record = "ei-mmp format=dxt1 mips=3";
    let kept = png_with_record(16, 16, &edited, Some(record));
    let stripped = png_with_record(16, 16, &edited, None);
    let levels = |format, n| mmp::encode_levels(&edited, 16, 16, format, n).unwrap();

    let (bytes, notes) = pack_png("x.mmp.png", &kept, None, false);
    assert_eq!(shape(&bytes), ("dxt1".into(), vec![(16, 16), (8, 8), (4, 4)]));
    assert_eq!(bytes, levels(PixelFormat::Dxt1, 3));
    assert_eq!(notes, Vec::<String>::new());
    // The PNG of mip level 0 (`convert --mips`) carries the same record and packs the same.
    assert_eq!(pack_png("x.mmp.mip0.png", &kept, None, false).0, bytes);

    let (bytes, notes) = pack_png("x.mmp.png", &stripped, None, false);
    assert_eq!(shape(&bytes), ("argb8".into(), vec![(16, 16)]));
    assert_eq!(bytes, levels(PixelFormat::Argb8, 1));
    assert_eq!(decode_level(&parse(&bytes).unwrap(), 0).unwrap(), edited);
    // Nothing records the texture (no chunk, and no record of a conversion here): the choice is said.
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].starts_with("x.mmp.png records no texture") && notes[0].contains("argb8"), "{notes:?}");

    // --pixel-format overrides the recorded format (and says so); the level count is still the recorded one.
    let (bytes, notes) = pack_png("x.mmp.png", &kept, Some("argb8"), false);
    assert_eq!(bytes, levels(PixelFormat::Argb8, 3));
    assert_eq!(
        notes,
        ["x.mmp.png: --pixel-format argb8 overrides the dxt1 the PNG records (the texture relic converted it from)"]
    );
    assert_eq!(pack_png("x.mmp.png", &kept, Some("DXT1"), false), (levels(PixelFormat::Dxt1, 3), vec![]));
    // --mips: the full chain, in the recorded format.
    assert_eq!(pack_png("x.mmp.png", &kept, None, true).0, levels(PixelFormat::Dxt1, 5));

    // A record of more levels than the image now has (it was resized): as many as it can have.
    let (bytes, notes) =
        pack_png("x.png", &png_with_record(16, 16, &edited, Some("ei-mmp format=dxt3 mips=9")), None, false);
    assert_eq!(bytes, levels(PixelFormat::Dxt3, 5));
    assert_eq!(notes, ["x.png: the PNG records 9 mip levels, but a 16×16 image has at most 5: 5 written"]);
    // PNT3 has one level whatever the record says.
    let (bytes, notes) = pack_png("x.png", &kept, Some("pnt3"), false);
    assert_eq!(bytes, levels(PixelFormat::Pnt3, 1));
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[1].contains("PNT3 textures have no mip levels"), "{notes:?}");
    // A recorded DXT format the edited size cannot take: refused, saying where the format came from.
    let odd = png_with_record(6, 6, &test_image(6, 6), Some(record));
    let err = mmp::pack::from_png("x.png", &odd, &PackRequest::default()).unwrap_err();
    assert!(err.to_string().contains("multiples of 4") && err.to_string().contains("the PNG records"), "{err}");
    // Through `relic::ops` (what `relic pack` runs): the same file.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x.mmp.png"), &kept).unwrap();
    let out = dir.path().join("x.mmp");
    ops::pack("ei-mmp", &dir.path().join("x.mmp.png"), &out, &ops::PackOptions::default()).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), levels(PixelFormat::Dxt1, 3));
}

// =========================================================================================================
// Corpus: the MMP textures inside `auxData.res` (read in place)

fn corpus_textures() -> Option<Vec<(String, Vec<u8>)>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/evil-islands/auxData.res");
    if !path.is_file() {
        eprintln!("skipped: {} not found", path.display());
        return None;
    }
    let bytes = std::fs::read(&path).unwrap();
    let res = relic::evil_islands::res::parse(&bytes).unwrap();
    let mut out: Vec<(String, Vec<u8>)> = (0..res.len())
        .map(|i| (String::from_utf8_lossy(res.name(i)).into_owned(), res.data(i).to_vec()))
        .filter(|(n, _)| n.to_ascii_lowercase().ends_with(".mmp"))
        .collect();
    out.sort();
    Some(out)
}

#[test]
fn corpus_aux_data_textures() {
    let Some(textures) = corpus_textures() else { return };
    assert_eq!(textures.len(), 10);
    for (name, bytes) in &textures {
        let m = parse(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let expect = match name.as_str() {
            "default_zone.mmp" => (256, 256, "dxt1", 9),
            "trapCast.mmp" | "trapZone.mmp" => (64, 64, "dxt3", 1),
            _ => (128, 128, "dxt1", 1),
        };
        let h = &m.header;
        assert_eq!((h.width, h.height, h.fourcc.describe().as_str(), m.levels.len()), expect, "{name}");
        assert!(m.trailing.is_empty(), "{name}");
        // The game's headers are those relic writes for the same format.
        let format = h.fourcc.pixel_format().unwrap();
        assert_eq!(*h, format.header(h.width, h.height, h.mip_levels_count), "{name}");
        for (i, level) in m.levels.iter().enumerate() {
            let px = decode_level(&m, i).unwrap_or_else(|e| panic!("{name} level {i}: {e}"));
            assert_eq!(px.len(), (level.width * level.height * 4) as usize);
        }
        assert_lossless(bytes);
    }
    let zone = &textures.iter().find(|(n, _)| n == "default_zone.mmp").unwrap().1;
    let sizes: Vec<usize> = parse(zone).unwrap().levels.iter().map(|l| l.data.len()).collect();
    assert_eq!(sizes, vec![32768, 8192, 2048, 512, 128, 32, 8, 8, 8]);
}

// =========================================================================================================
// Independent DXT check: Pillow decodes the same blocks (wrapped in a DDS) and must agree exactly.

fn pillow() -> bool {
    let ok = Command::new("python3").args(["-c", "import PIL"]).output().is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: Python 3 with Pillow not found (python3 -m pip install pillow)");
    }
    ok
}

/// A DDS file (128-byte header, no mips) around DXT blocks.
fn dds(fourcc: &[u8; 4], w: u32, h: u32, blocks: &[u8]) -> Vec<u8> {
    let mut out = b"DDS ".to_vec();
    // size, flags (caps | height | width | pixelformat | linearsize), height, width, linear size, depth, mips
    for v in [124u32, 0x0008_1007, h, w, blocks.len() as u32, 0, 0] {
        out.extend(le(v));
    }
    out.extend([0u8; 44]); // reserved1[11]
    for v in [32u32, 0x4, u32::from_le_bytes(*fourcc), 0, 0, 0, 0, 0] {
        out.extend(le(v)); // pixel format: size, DDPF_FOURCC, fourcc, bit count, masks
    }
    for v in [0x1000u32, 0, 0, 0, 0] {
        out.extend(le(v)); // caps (texture), caps2..4, reserved2
    }
    assert_eq!(out.len(), 128);
    out.extend(blocks);
    out
}

fn pillow_rgba(dir: &Path, name: &str, dds: &[u8]) -> Vec<u8> {
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, dds).unwrap();
    let script =
        "import sys\nfrom PIL import Image\nsys.stdout.buffer.write(Image.open(sys.argv[1]).convert('RGBA').tobytes())";
    let out = Command::new("python3").args(["-c", script]).arg(&path).output().unwrap();
    assert!(out.status.success(), "Pillow failed: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

#[test]
fn dxt_decoding_agrees_with_pillow() {
    if !pillow() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut cases: Vec<(String, Vec<u8>)> = vec![
        ("hand-made-dxt1".into(), mmp_file(8, 4, 1, DXT1, 4, CH_A1R5G5B5, &dxt1_blocks())),
        ("hand-made-dxt3".into(), handmade_files()[5].1.clone()),
        ("written-dxt1".into(), encode(&test_image(32, 16), 32, 16, PixelFormat::Dxt1, false).unwrap()),
        ("written-dxt3".into(), encode(&test_image(32, 16), 32, 16, PixelFormat::Dxt3, false).unwrap()),
    ];
    cases.extend(corpus_textures().unwrap_or_default());
    for (name, bytes) in &cases {
        let m = parse(bytes).unwrap();
        let fourcc: &[u8; 4] = if m.header.fourcc.0 == DXT1 { b"DXT1" } else { b"DXT3" };
        let level = &m.levels[0];
        let theirs =
            pillow_rgba(dir.path(), &format!("{name}.dds"), &dds(fourcc, level.width, level.height, level.data));
        let ours = decode_level(&m, 0).unwrap();
        assert_eq!(ours.len(), theirs.len(), "{name}");
        let differ = ours.iter().zip(&theirs).filter(|(a, b)| a != b).count();
        assert_eq!(differ, 0, "{name}: {differ} channel values differ from Pillow's decoding");
    }
    // The shared DXT wrapper agrees on its own, without MMP around it.
    let img = test_image(12, 8);
    let blocks = Dxt::Dxt1.encode(&img, 12, 8).unwrap();
    assert_eq!(
        Dxt::Dxt1.decode(&blocks, 12, 8).unwrap(),
        pillow_rgba(dir.path(), "wrap.dds", &dds(b"DXT1", 12, 8, &blocks))
    );
}

// =========================================================================================================
// Registry

#[test]
fn format_is_registered() {
    let bytes = encode(&[9; 16], 2, 2, PixelFormat::R5g6b5, false).unwrap();
    let (format, confidence) = relic::registry::sniff(&bytes, "anything.bin").unwrap();
    assert_eq!((format.id, confidence), ("ei-mmp", relic::registry::Confidence::Magic));
    assert!(relic::registry::sniff(b"nope", "x.MMP").is_none(), "no MMP magic, no MMP");
    assert!(format.capabilities().write && format.capabilities().convert);
    assert!(format.notes.contains("argb8"));
    let _ = pixel::ARGB8;
}

#[test]
fn packing_a_pnt3_that_conversion_would_refuse_says_so() {
    // 256 × 256 transparent black: one run word, an 80-byte file declaring 262,144 bytes of texels.
    let png = png_with_record(256, 256, &vec![0; 256 * 256 * 4], None);
    let (bytes, notes) = pack_png("zero.png", &png, Some("pnt3"), false);
    assert_eq!(bytes.len(), 80);
    assert_eq!(
        notes,
        ["zero.png: the PNT3 texture packs 262144 bytes of texels into 80 bytes: converting it needs \
          --max-expansion 3277 or more"]
    );
    let err = mmp::FORMAT.convert(&relic::registry::ConvertInput::new(&bytes, &ConvertOptions::default())).unwrap_err();
    assert!(matches!(err, Error::Limit { .. }), "{err}");
    assert_eq!(err.location().unwrap().field, "mip_levels_count");
}
