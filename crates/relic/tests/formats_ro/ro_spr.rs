//! Ragnarok sprites (`ro-spr`), proven on files built by hand from SPR.MD (rdw-archive RagnarokFileFormats)
//! and roBrowser's `Sprite.js`, independently of relic's writer:
//! - `SP`, version byte minor then byte major, u16 palette frame count, from 2.0 a u16 RGBA frame count;
//! - palette frames: u16 width, u16 height, then `width × height` indices; from 2.1 a u16 size and that many
//!   bytes where `00 n` is a run of n zeros (spanning rows) and any other byte one index;
//! - RGBA frames (2.0+): u16 width, u16 height, `width × height` pixels of bytes A, B, G, R, bottom row first;
//! - from 1.1 the palette: the last 1,024 bytes, entries R, G, B, unused.

use relic::ragnarok::spr::{PaletteFrame, Spr, Version};

// =========================================================================================================
// The hand writer

/// A test palette: entry i is (i, 255 − i, i / 2, 0); entry 0 is magenta, as real sprites have it.
fn palette() -> [[u8; 4]; 256] {
    let mut p = [[0u8; 4]; 256];
    for (i, e) in p.iter_mut().enumerate() {
        *e = [i as u8, 255 - i as u8, (i / 2) as u8, 0];
    }
    p[0] = [255, 0, 255, 0];
    p
}

enum Pal {
    /// Width, height, indices stored plainly.
    Plain(u16, u16, Vec<u8>),
    /// Width, height, the RLE bytes as the hand encoder (or the test) wrote them.
    Rle(u16, u16, Vec<u8>),
}

/// Writes an SPR the way SPR.MD lays it out.
fn hand_spr(
    minor: u8,
    major: u8,
    pal: &[Pal],
    rgba: &[(u16, u16, Vec<u8>)],
    palette: Option<&[[u8; 4]; 256]>,
) -> Vec<u8> {
    let mut out = b"SP".to_vec();
    out.push(minor);
    out.push(major);
    out.extend((pal.len() as u16).to_le_bytes());
    if major >= 2 {
        out.extend((rgba.len() as u16).to_le_bytes());
    }
    for f in pal {
        match f {
            Pal::Plain(w, h, px) => {
                out.extend(w.to_le_bytes());
                out.extend(h.to_le_bytes());
                out.extend(px);
            }
            Pal::Rle(w, h, bytes) => {
                out.extend(w.to_le_bytes());
                out.extend(h.to_le_bytes());
                out.extend((bytes.len() as u16).to_le_bytes());
                out.extend(bytes);
            }
        }
    }
    for (w, h, abgr) in rgba {
        out.extend(w.to_le_bytes());
        out.extend(h.to_le_bytes());
        out.extend(abgr);
    }
    if let Some(p) = palette {
        for e in p {
            out.extend(e);
        }
    }
    out
}

/// A 3×2 RGBA frame stored as the file has it: ABGR, bottom row first. Top row: red, green, blue opaque;
/// bottom row: half-transparent white, clear, (1, 2, 3, 4).
fn rgba_3x2() -> (u16, u16, Vec<u8>) {
    let bottom = [[128, 255, 255, 255], [0, 0, 0, 0], [4, 3, 2, 1]];
    let top = [[255, 0, 0, 255], [255, 0, 255, 0], [255, 255, 0, 0]];
    (3, 2, bottom.iter().chain(&top).flatten().copied().collect())
}

/// The same frame as relic should draw it: RGBA, top row first.
const RGBA_3X2: [u8; 24] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 128, 0, 0, 0, 0, 1, 2, 3, 4];

/// A 4×3 palette frame: 12 indices with a run of 5 zeros crossing from row 0 into row 1, and a lone zero.
const PAL_4X3: [u8; 12] = [7, 0, 0, 0, 0, 0, 9, 200, 0, 255, 1, 2];
/// Its RLE as an encoder writes it: runs as `00 n`.
const PAL_4X3_RLE: [u8; 10] = [7, 0, 5, 9, 200, 0, 1, 255, 1, 2];

fn colour(i: u8) -> [u8; 4] {
    if i == 0 {
        return [0, 0, 0, 0];
    }
    let [r, g, b, _] = palette()[usize::from(i)];
    [r, g, b, 255]
}

fn drawn(indices: &[u8]) -> Vec<u8> {
    indices.iter().flat_map(|&i| colour(i)).collect()
}

/// A palette frame PNG's pixels (an indexed PNG through its PLTE and tRNS): as drawn, but index 0 keeps its
/// palette colour (magenta), at alpha 0.
fn shown(indices: &[u8]) -> Vec<u8> {
    indices.iter().flat_map(|&i| if i == 0 { [255, 0, 255, 0] } else { colour(i) }).collect()
}

/// A zero-run RLE written here from SPR.MD: each run of zeros as `00 n`, split every 255.
fn hand_rle(px: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut run = 0u8;
    for &b in px {
        if b == 0 {
            if run == 255 {
                out.extend([0, run]);
                run = 0;
            }
            run += 1;
        } else {
            if run > 0 {
                out.extend([0, run]);
                run = 0;
            }
            out.push(b);
        }
    }
    if run > 0 {
        out.extend([0, run]);
    }
    out
}

// =========================================================================================================
// Reading every version

/// `samples/ragnarok/sprite.spr` is this sprite: 2.1, a 6×4 diamond of indices 1 and 2, a 2×2 frame
/// (3 0 / 0 4), the 3×2 RGBA frame, the test palette.
#[test]
fn the_sample_is_the_documented_sprite() {
    let diamond = [0, 0, 1, 1, 0, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 0, 1, 1, 0, 0];
    let want = hand_spr(
        1,
        2,
        &[Pal::Rle(6, 4, hand_rle(&diamond)), Pal::Rle(2, 2, hand_rle(&[3, 0, 0, 4]))],
        &[rgba_3x2()],
        Some(&palette()),
    );
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/ragnarok/sprite.spr");
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(bytes, want);
    let spr = Spr::read(&bytes).unwrap();
    assert_eq!(spr.palette_frames[0].indices, diamond);
    assert_eq!(spr.palette_frames_rgba(None).unwrap()[1].rgba, drawn(&[3, 0, 0, 4]));
}

#[test]
fn version_1_0_has_plain_frames_and_no_palette() {
    let bytes = hand_spr(0, 1, &[Pal::Plain(4, 3, PAL_4X3.to_vec()), Pal::Plain(1, 1, vec![3])], &[], None);
    let spr = Spr::read(&bytes).unwrap();
    assert_eq!(spr.version, Version::V1_0);
    assert_eq!(spr.palette_frames.len(), 2);
    assert_eq!(spr.palette_frames[0].indices, PAL_4X3);
    assert_eq!(spr.palette_frames[1].indices, [3]);
    assert_eq!(spr.palette, None);
    assert!(spr.rgba_frames.is_empty());
    assert!(spr.palette_frames_rgba(None).is_err(), "1.0 has no palette of its own");
    let drawn_with = spr.palette_frames_rgba(Some(&palette())).unwrap();
    assert_eq!(drawn_with[0].rgba, drawn(&PAL_4X3));
    assert_eq!(spr.to_bytes().unwrap(), bytes);
}

#[test]
fn version_1_1_has_plain_frames_and_the_palette() {
    let bytes = hand_spr(1, 1, &[Pal::Plain(4, 3, PAL_4X3.to_vec())], &[], Some(&palette()));
    let spr = Spr::read(&bytes).unwrap();
    assert_eq!(spr.version, Version::V1_1);
    assert_eq!(spr.palette, Some(palette()));
    let frames = spr.palette_frames_rgba(None).unwrap();
    assert_eq!((frames[0].width, frames[0].height), (4, 3));
    assert_eq!(frames[0].rgba, drawn(&PAL_4X3));
    // Index 0 is transparent though its colour is magenta; 255 is (255, 0, 127).
    assert_eq!(&frames[0].rgba[4..8], &[0, 0, 0, 0]);
    assert_eq!(&frames[0].rgba[36..40], &[255, 0, 127, 255]);
    assert_eq!(spr.to_bytes().unwrap(), bytes);
}

#[test]
fn version_2_0_adds_rgba_frames_bottom_up_abgr() {
    let bytes = hand_spr(0, 2, &[Pal::Plain(4, 3, PAL_4X3.to_vec())], &[rgba_3x2()], Some(&palette()));
    let spr = Spr::read(&bytes).unwrap();
    assert_eq!(spr.version, Version::V2_0);
    assert_eq!(spr.palette_frames[0].indices, PAL_4X3);
    assert_eq!(spr.palette_frames[0].rle, None);
    let rgba = spr.rgba_frames().unwrap();
    assert_eq!(rgba.len(), 1);
    assert_eq!((rgba[0].width, rgba[0].height), (3, 2));
    assert_eq!(rgba[0].rgba, RGBA_3X2);
    assert_eq!(spr.to_bytes().unwrap(), bytes);
}

#[test]
fn version_2_1_decodes_the_zero_run_rle_across_rows() {
    // Frame 1: 300 transparent pixels (20×15) stored as 00 FF 00 2D; frame 2: `00 00`, one zero (SPR.MD).
    let bytes = hand_spr(
        1,
        2,
        &[Pal::Rle(4, 3, PAL_4X3_RLE.to_vec()), Pal::Rle(20, 15, vec![0, 255, 0, 45]), Pal::Rle(2, 1, vec![0, 0, 6])],
        &[rgba_3x2()],
        Some(&palette()),
    );
    let spr = Spr::read(&bytes).unwrap();
    assert_eq!(spr.version, Version::V2_1);
    assert_eq!(spr.palette_frames[0].indices, PAL_4X3);
    assert_eq!(spr.palette_frames[1].indices, vec![0; 300]);
    assert_eq!(spr.palette_frames[2].indices, [0, 6]);
    assert_eq!(spr.palette_frames[0].rle.as_deref(), Some(&PAL_4X3_RLE[..]));
    let frames = spr.palette_frames_rgba(None).unwrap();
    assert_eq!(frames[0].rgba, drawn(&PAL_4X3));
    assert_eq!(frames[1].rgba, vec![0; 1200]);
    assert_eq!(spr.rgba_frames().unwrap()[0].rgba, RGBA_3X2);
    // `00 00` is kept as stored: byte for byte.
    assert_eq!(spr.to_bytes().unwrap(), bytes);
}

#[test]
fn a_file_ending_after_its_frames_has_no_palette() {
    // As real RGBA-only sprites (a flag: no palette frames, one RGBA frame, no palette) and stubs are.
    let bytes = hand_spr(1, 2, &[], &[rgba_3x2()], None);
    let spr = Spr::read(&bytes).unwrap();
    assert_eq!(spr.palette, None);
    assert_eq!(spr.rgba_frames().unwrap()[0].rgba, RGBA_3X2);
    assert_eq!(spr.to_bytes().unwrap(), bytes);
    let stub = hand_spr(1, 2, &[], &[], None);
    assert_eq!(stub.len(), 8);
    assert_eq!(Spr::read(&stub).unwrap().to_bytes().unwrap(), stub);
    // 1 to 1,023 bytes after the frames are neither a palette nor nothing.
    let mut short = bytes.clone();
    short.extend([0; 1023]);
    let err = Spr::read(&short).unwrap_err().to_string();
    assert!(err.contains("palette at offset 0x24") && err.contains("1023 bytes"), "{err}");
}

#[test]
fn an_edited_2_1_frame_is_encoded_afresh() {
    let bytes = hand_spr(1, 2, &[Pal::Rle(2, 1, vec![0, 0, 6])], &[], Some(&palette()));
    let mut spr = Spr::read(&bytes).unwrap();
    spr.palette_frames[0].indices = vec![0, 0];
    let out = spr.to_bytes().unwrap();
    // Frame: 2, 1, size 2, `00 02`; then the palette.
    assert_eq!(&out[8..16], &[2, 0, 1, 0, 2, 0, 0, 2]);
    assert_eq!(Spr::read(&out).unwrap().palette_frames[0].indices, [0, 0]);
    // A frame built in code, no RLE given.
    spr.palette_frames.push(PaletteFrame { width: 1, height: 3, indices: vec![4, 0, 0], rle: None });
    let again = Spr::read(&spr.to_bytes().unwrap()).unwrap();
    assert_eq!(again.palette_frames[1].rle.as_deref(), Some(&[4, 0, 2][..]));
}

#[test]
fn broken_files_are_refused_with_field_and_offset() {
    let good = hand_spr(1, 2, &[Pal::Rle(4, 3, PAL_4X3_RLE.to_vec())], &[rgba_3x2()], Some(&palette()));
    // An RLE that gives more pixels than the frame: a run of 6 zeros where 5 fit.
    let mut over = good.clone();
    over[8 + 6 + 2] = 6;
    let err = Spr::read(&over).unwrap_err().to_string();
    assert!(err.contains("ro-spr: palette_frames[0].rle at offset 0x"), "{err}");
    // An unknown version.
    let mut v = good.clone();
    v[3] = 3;
    assert!(Spr::read(&v).unwrap_err().to_string().contains("3.1"));
    // No room for the palette.
    let short = &good[..good.len() - 1];
    assert!(Spr::read(short).is_err());
    // A frame count no file that size can hold.
    let mut count = good.clone();
    count[4] = 0xFF;
    count[5] = 0xFF;
    let err = Spr::read(&count).unwrap_err().to_string();
    assert!(err.contains("palette_frame_count") || err.contains("palette_frames["), "{err}");
}

#[test]
fn truncated_and_flipped_files_never_panic() {
    for bytes in [
        hand_spr(0, 1, &[Pal::Plain(4, 3, PAL_4X3.to_vec())], &[], None),
        hand_spr(1, 1, &[Pal::Plain(4, 3, PAL_4X3.to_vec())], &[], Some(&palette())),
        hand_spr(0, 2, &[Pal::Plain(4, 3, PAL_4X3.to_vec())], &[rgba_3x2()], Some(&palette())),
        hand_spr(1, 2, &[Pal::Rle(4, 3, PAL_4X3_RLE.to_vec())], &[rgba_3x2()], Some(&palette())),
    ] {
        // Not strict: a 1.1+ file cut right after its frames is a sprite without a palette (real RGBA-only
        // sprites are so), and a 1.0 file has bytes after its frames only as `trailing`.
        relic::testing::check_robustness(&bytes, false, |b| {
            let spr = Spr::read(b)?;
            let again = spr.to_bytes()?;
            assert_eq!(again, b, "an unedited sprite writes back byte for byte");
            spr.palette_frames_rgba(Some(&palette()))?;
            spr.rgba_frames()
        });
    }
}

// =========================================================================================================
// Convert, JSON and pack

use std::path::{Path, PathBuf};

use relic::ops::{self, ConvertRequest, PackOptions, Quiet};
use relic::registry::ConvertOptions;

/// A 2.1 sprite with two palette frames (one RLE across rows, one 1×1) and the RGBA frame.
fn sprite_2_1() -> Vec<u8> {
    hand_spr(1, 2, &[Pal::Rle(4, 3, PAL_4X3_RLE.to_vec()), Pal::Rle(1, 1, vec![42])], &[rgba_3x2()], Some(&palette()))
}

struct Converted {
    json: PathBuf,
    dir: PathBuf,
    names: Vec<String>,
}

impl Converted {
    fn value(&self) -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(&self.json).unwrap()).unwrap()
    }
}

fn convert(input: &Path, out: &Path, req: &ConvertRequest) -> Converted {
    let report = ops::convert(std::slice::from_ref(&input.to_path_buf()), out, req, &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let outputs: Vec<PathBuf> = report.outputs.iter().map(|o| PathBuf::from(&o.output)).collect();
    let jsons: Vec<&PathBuf> = outputs.iter().filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    assert_eq!(jsons.len(), 1, "one document: {outputs:?}");
    let json = jsons[0].clone();
    let dir = json.parent().unwrap().to_path_buf();
    let mut names: Vec<String> = outputs
        .iter()
        .map(|o| o.strip_prefix(&dir).expect("every output beside the document").to_string_lossy().replace('\\', "/"))
        .collect();
    names.sort();
    Converted { json, dir, names }
}

fn pack(json: &Path, out: &Path, quantize: bool) -> relic::Result<(Vec<u8>, Vec<String>)> {
    let report = ops::pack("ro-spr", json, out, &PackOptions { force: true, quantize, ..Default::default() })?;
    Ok((std::fs::read(out).unwrap(), report.notes))
}

fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let image = relic::export::png::decode_rgba(&std::fs::read(path).unwrap()).unwrap();
    let f = image.frames.into_iter().next().unwrap();
    let relic::asset::Pixels::Rgba8(px) = f.pixels else { panic!("RGBA") };
    (f.width, f.height, px)
}

fn write_png(path: &Path, w: u32, h: u32, rgba: &[u8]) {
    use relic::asset::{Frame, FrameRole, Image, Pixels};
    let frame = Frame {
        name: None,
        width: w,
        height: h,
        pixels: Pixels::Rgba8(rgba.to_vec()),
        offset: (0, 0),
        hotspots: vec![],
        role: FrameRole::Frame,
    };
    let img = Image { frames: vec![frame], palette: None, frame_rate: None, text: Vec::new() };
    std::fs::write(path, &relic::export::png::encode_image(&img).unwrap()[0].bytes).unwrap();
}

#[test]
fn sniff_takes_sp_with_a_known_version_and_leaves_the_rest() {
    let (f, _) = relic::registry::sniff(&sprite_2_1(), "x.bin").unwrap();
    assert_eq!(f.id, "ro-spr");
    let (f, _) = relic::registry::sniff(b"SP\x01\x01\x00\x00", "x.spr").unwrap();
    assert_eq!(f.id, "ro-spr");
    // `SP` with an unknown version is not claimed by magic.
    assert!(relic::registry::sniff(b"SP\x07\x09", "x.bin").is_none());
    // Dark Reign's RSPR still goes to dr-spr.
    assert_eq!(relic::registry::sniff(b"RSPR\x10\x02\0\0", "x.spr").map(|(f, _)| f.id), Some("dr-spr"));
}

#[test]
fn info_gives_version_counts_and_sizes() {
    let info = relic::registry::by_id("ro-spr").unwrap().info(&sprite_2_1()).unwrap();
    assert_eq!(info["version"], "2.1");
    assert_eq!(info["palette_frames"], 2);
    assert_eq!(info["rgba_frames"], 1);
    assert_eq!(info["palette_frame_sizes"], serde_json::json!(["4x3", "1x1"]));
    assert_eq!(info["rgba_frame_sizes"], serde_json::json!(["3x2"]));
}

#[test]
fn json_round_trips_byte_for_byte_for_every_version() {
    let codec = relic::registry::by_id("ro-spr").unwrap();
    for bytes in [
        hand_spr(0, 1, &[Pal::Plain(4, 3, PAL_4X3.to_vec())], &[], None),
        hand_spr(1, 1, &[Pal::Plain(4, 3, PAL_4X3.to_vec())], &[], Some(&palette())),
        hand_spr(0, 2, &[Pal::Plain(4, 3, PAL_4X3.to_vec())], &[rgba_3x2()], Some(&palette())),
        sprite_2_1(),
        // An RLE split differently from relic's encoder (two runs of 2 and 3 zeros) is kept as stored.
        hand_spr(1, 2, &[Pal::Rle(4, 3, vec![7, 0, 2, 0, 3, 9, 200, 0, 1, 255, 1, 2])], &[], Some(&palette())),
    ] {
        let value = codec.to_json(&bytes).unwrap();
        let text = serde_json::to_string(&value).unwrap();
        let back = codec.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap();
        assert_eq!(back, bytes);
    }
    let value = codec.to_json(&sprite_2_1()).unwrap();
    assert_eq!(value["format"], "ro-spr");
    assert_eq!(value["version"], "2.1");
    // The stored RLE, base64.
    assert_eq!(value["palette_frames"][0]["data"], "BwAFCcgAAf8BAg==");
    assert_eq!(value["palette"][255], serde_json::json!([255, 0, 127, 0]));
}

#[test]
fn convert_writes_one_png_per_frame_a_sheet_and_the_document_and_packs_back() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("body.spr");
    std::fs::write(&input, sprite_2_1()).unwrap();
    let c = convert(&input, &dir.path().join("out"), &ConvertRequest::default());
    assert_eq!(c.names, ["body.spr.json", "pal_000.png", "pal_001.png", "rgba_000.png", "sheet.view.png"]);
    assert_eq!(read_png(&c.dir.join("pal_000.png")), (4, 3, shown(&PAL_4X3)));
    assert_eq!(read_png(&c.dir.join("pal_001.png")), (1, 1, colour(42).to_vec()));
    assert_eq!(read_png(&c.dir.join("rgba_000.png")), (3, 2, RGBA_3X2.to_vec()));
    // The sheet: 4 + 1 + 3 wide, 3 high, frames side by side from the top.
    let (w, h, sheet) = read_png(&c.dir.join("sheet.view.png"));
    assert_eq!((w, h), (8, 3));
    assert_eq!(&sheet[4 * 4..5 * 4], &colour(42));
    assert_eq!(&sheet[5 * 4..8 * 4], &RGBA_3X2[..12]);
    assert_eq!(&sheet[(2 * 8 + 5) * 4..(2 * 8 + 6) * 4], &[0, 0, 0, 0], "below the 2-row RGBA frame");
    let v = c.value();
    assert_eq!(v["palette_frames"][0]["file"], "pal_000.png");
    assert_eq!(v["rgba_frames"][0]["file"], "rgba_000.png");
    let (back, notes) = pack(&c.json, &dir.path().join("back.spr"), false).unwrap();
    assert_eq!(back, sprite_2_1());
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn an_edited_palette_frame_is_mapped_through_the_palette_and_re_encoded() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("body.spr");
    std::fs::write(&input, sprite_2_1()).unwrap();
    let c = convert(&input, &dir.path().join("out"), &ConvertRequest::default());
    // pal_000: (1, 0) becomes colour 3, (0, 2) transparent; the frame becomes 4×3 with indices
    // 7 3 0 0 / 0 0 9 200 / 0 255 1 2 → RLE 07 03 00 04 09 C8 00 01 FF 01 02.
    let png = c.dir.join("pal_000.png");
    let (_, _, mut px) = read_png(&png);
    px[4..8].copy_from_slice(&colour(3));
    px[8 * 4..9 * 4].copy_from_slice(&[10, 20, 30, 0]);
    write_png(&png, 4, 3, &px);
    let (back, notes) = pack(&c.json, &dir.path().join("edited.spr"), false).unwrap();
    let want_rle = [7, 3, 0, 4, 9, 200, 0, 1, 255, 1, 2];
    let want =
        hand_spr(1, 2, &[Pal::Rle(4, 3, want_rle.to_vec()), Pal::Rle(1, 1, vec![42])], &[rgba_3x2()], Some(&palette()));
    assert_eq!(back, want);
    // The sheet view no longer shows the frames, but nobody edited it (the record of the conversion has its
    // hash): nothing is said.
    assert!(!notes.iter().any(|n| n.contains("view")), "{notes:?}");

    // A colour the palette lacks is an error naming the frame and the pixel.
    px[(4 + 2) * 4..(4 + 3) * 4].copy_from_slice(&[1, 1, 1, 255]);
    write_png(&png, 4, 3, &px);
    let err = pack(&c.json, &dir.path().join("bad.spr"), false).unwrap_err().to_string();
    assert!(err.contains("pal_000.png (palette frame 0): pixel (2, 1) is #010101"), "{err}");
    assert!(err.contains("--quantize"), "{err}");

    // --quantize maps it to the nearest entry (from 1 up, by squared distance).
    let nearest = (1..=255usize)
        .min_by_key(|&i| {
            let [r, g, b, _] = palette()[i];
            (r as i32 - 1).pow(2) + (g as i32 - 1).pow(2) + (b as i32 - 1).pow(2)
        })
        .unwrap() as u8;
    let (back, notes) = pack(&c.json, &dir.path().join("q.spr"), true).unwrap();
    let indices = [7, 3, 0, 0, 0, 0, nearest, 200, 0, 255, 1, 2];
    let spr = Spr::read(&back).unwrap();
    assert_eq!(spr.palette_frames[0].indices, indices);
    assert!(notes.iter().any(|n| n.contains("changed 1 pixels")), "{notes:?}");

    // An edited RGBA frame of another size is stored as RGBA, bottom row first, ABGR.
    write_png(&c.dir.join("rgba_000.png"), 1, 2, &[1, 2, 3, 4, 5, 6, 7, 8]);
    let (back, _) = pack(&c.json, &dir.path().join("rgba.spr"), true).unwrap();
    let spr = Spr::read(&back).unwrap();
    assert_eq!((spr.rgba_frames[0].width, spr.rgba_frames[0].height), (1, 2));
    assert_eq!(spr.rgba_frames[0].abgr, [8, 7, 6, 5, 4, 3, 2, 1]);
    assert_eq!(spr.palette_frames[0].indices, indices);
}

#[test]
fn palette_option_recolours_palette_frames_and_still_packs_back() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("body.spr");
    std::fs::write(&input, sprite_2_1()).unwrap();
    // A Ragnarok .pal: 1,024 bytes, entry i = (i, i, i, 0) except 42 = (1, 2, 3).
    let mut pal: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i, 0]).collect();
    pal[42 * 4..42 * 4 + 3].copy_from_slice(&[1, 2, 3]);
    let pal_path = dir.path().join("red.pal");
    std::fs::write(&pal_path, &pal).unwrap();
    let req = ConvertRequest {
        options: ConvertOptions { palette: Some(pal_path), ..Default::default() },
        ..Default::default()
    };
    let c = convert(&input, &dir.path().join("out"), &req);
    assert_eq!(read_png(&c.dir.join("pal_001.png")).2, [1, 2, 3, 255]);
    assert_eq!(read_png(&c.dir.join("pal_000.png")).2[..4], [7, 7, 7, 255]);
    // The RGBA frame is not recoloured.
    assert_eq!(read_png(&c.dir.join("rgba_000.png")).2, RGBA_3X2);
    let (back, _) = pack(&c.json, &dir.path().join("back.spr"), false).unwrap();
    assert_eq!(back, sprite_2_1());
}

#[test]
fn a_1_0_sprite_converts_in_greyscale_and_packs_back() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("old.spr");
    let bytes = hand_spr(0, 1, &[Pal::Plain(4, 3, PAL_4X3.to_vec())], &[], None);
    std::fs::write(&input, &bytes).unwrap();
    let c = convert(&input, &dir.path().join("out"), &ConvertRequest::default());
    let want: Vec<u8> = PAL_4X3.iter().flat_map(|&i| if i == 0 { [0; 4] } else { [i, i, i, 255] }).collect();
    assert_eq!(read_png(&c.dir.join("pal_000.png")).2, want);
    let (back, _) = pack(&c.json, &dir.path().join("back.spr"), false).unwrap();
    assert_eq!(back, bytes);
}

#[test]
fn a_sprite_inside_a_grf_is_listed_and_converted_as_ro_spr() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("grf");
    std::fs::create_dir_all(folder.join("data/sprite")).unwrap();
    std::fs::write(folder.join("data/sprite/body.spr"), sprite_2_1()).unwrap();
    let grf = dir.path().join("t.grf");
    ops::pack("ro-grf", &folder, &grf, &PackOptions { force: true, ..Default::default() }).unwrap();
    let bytes = std::fs::read(&grf).unwrap();
    let (format, _) = relic::registry::sniff(&bytes, "t.grf").unwrap();
    let entries = format.entries(&bytes, "t.grf").unwrap().unwrap();
    let entry = entries.iter().find(|e| e.name.ends_with("body.spr")).unwrap();
    let data = entry.data.bytes().unwrap();
    assert_eq!(relic::registry::sniff(&data, &entry.name).map(|(f, _)| f.id), Some("ro-spr"));
    let report = ops::convert(std::slice::from_ref(&grf), &dir.path().join("out"), &ConvertRequest::default(), &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let png = report.outputs.iter().map(|o| PathBuf::from(&o.output)).find(|p| p.ends_with("body.spr/pal_000.png"));
    assert_eq!(read_png(&png.expect("the frame PNG")), (4, 3, shown(&PAL_4X3)));
}

#[test]
fn pack_refuses_half_transparent_palette_pixels_and_names_outside_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("body.spr");
    std::fs::write(&input, sprite_2_1()).unwrap();
    let c = convert(&input, &dir.path().join("out"), &ConvertRequest::default());
    // A half-transparent pixel in a palette frame: refused, named; --quantize makes it opaque (alpha ≥ 128).
    let png = c.dir.join("pal_001.png");
    let [r, g, b, _] = colour(42);
    write_png(&png, 1, 1, &[r, g, b, 200]);
    let err = pack(&c.json, &dir.path().join("a.spr"), false).unwrap_err().to_string();
    assert!(err.contains("pal_001.png (palette frame 1): pixel (0, 0) has alpha 200"), "{err}");
    let (back, _) = pack(&c.json, &dir.path().join("q.spr"), true).unwrap();
    assert_eq!(Spr::read(&back).unwrap().palette_frames[1].indices, [42]);
    write_png(&png, 1, 1, &colour(42));
    // A document naming a file outside its folder is refused.
    let mut v = c.value();
    v["palette_frames"][0]["file"] = serde_json::json!("../body.spr");
    std::fs::write(&c.json, serde_json::to_vec(&v).unwrap()).unwrap();
    let err = pack(&c.json, &dir.path().join("b.spr"), false).unwrap_err().to_string();
    assert!(err.contains("`../body.spr` is not a file name beside the document"), "{err}");
    // A PNG that is gone: the frame comes from the document, with a note.
    v["palette_frames"][0]["file"] = serde_json::json!("gone.png");
    std::fs::write(&c.json, serde_json::to_vec(&v).unwrap()).unwrap();
    let (back, notes) = pack(&c.json, &dir.path().join("c.spr"), false).unwrap();
    assert_eq!(back, sprite_2_1());
    assert!(notes.iter().any(|n| n.contains("gone.png: missing")), "{notes:?}");
}

// =========================================================================================================
// Palette frames as indexed PNGs

/// An indexed PNG as it is stored: colour type, bit depth, width, height, indices, PLTE, tRNS.
struct RawPng {
    color: png::ColorType,
    depth: png::BitDepth,
    width: u32,
    height: u32,
    indices: Vec<u8>,
    plte: Vec<u8>,
    trns: Vec<u8>,
}

fn raw_png(path: &Path) -> RawPng {
    let mut decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut buf).unwrap();
    buf.truncate(frame.buffer_size());
    let info = reader.info();
    RawPng {
        color: info.color_type,
        depth: info.bit_depth,
        width: info.width,
        height: info.height,
        indices: buf,
        plte: info.palette.as_deref().unwrap_or_default().to_vec(),
        trns: info.trns.as_deref().unwrap_or_default().to_vec(),
    }
}

/// An indexed PNG written with the `png` crate as an editor saves one: `plte` (RGB triples, as many as the
/// editor keeps), `trns` (its alpha, often only entry 0's), at `depth` bits a pixel (rows packed high bit first).
fn write_indexed(path: &Path, w: u32, h: u32, indices: &[u8], plte: &[u8], trns: &[u8], depth: png::BitDepth) {
    let mut enc = png::Encoder::new(std::fs::File::create(path).unwrap(), w, h);
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(depth);
    enc.set_palette(plte.to_vec());
    if !trns.is_empty() {
        enc.set_trns(trns.to_vec());
    }
    let bits = depth as usize;
    let line = (w as usize * bits).div_ceil(8);
    let mut data = vec![0u8; line * h as usize];
    for (k, &i) in indices.iter().enumerate() {
        let (x, y) = (k % w as usize, k / w as usize);
        let bit = x * bits;
        data[y * line + bit / 8] |= i << (8 - bits - bit % 8);
    }
    enc.write_header().unwrap().write_image_data(&data).unwrap();
}

/// The test palette as a PNG's PLTE: RGB triples, entries `0..n`.
fn plte(palette: &[[u8; 4]; 256], n: usize) -> Vec<u8> {
    palette[..n].iter().flat_map(|e| [e[0], e[1], e[2]]).collect()
}

#[test]
fn palette_frames_are_indexed_pngs_carrying_the_sprite_palette() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("body.spr");
    std::fs::write(&input, sprite_2_1()).unwrap();
    let c = convert(&input, &dir.path().join("out"), &ConvertRequest::default());
    let png = raw_png(&c.dir.join("pal_000.png"));
    assert_eq!((png.color, png.depth, png.width, png.height), (png::ColorType::Indexed, png::BitDepth::Eight, 4, 3));
    assert_eq!(png.indices, PAL_4X3, "the stored indices");
    assert_eq!(png.plte, plte(&palette(), 256), "the sprite's palette, index 0's magenta too");
    assert_eq!(png.trns[0], 0, "index 0 transparent");
    assert!(png.trns[1..].iter().all(|&a| a == 255), "every other index opaque");
    assert_eq!(raw_png(&c.dir.join("pal_001.png")).indices, [42]);
    // RGBA frames stay RGBA.
    assert_eq!(raw_png(&c.dir.join("rgba_000.png")).color, png::ColorType::Rgba);
    // The sheet view is RGBA too (frames of both kinds side by side).
    assert_eq!(raw_png(&c.dir.join("sheet.view.png")).color, png::ColorType::Rgba);

    // Pillow, an independent reader, opens it as a palette image ("P") with the sprite's palette and index 0
    // transparent.
    if pillow() {
        let script = "import sys, json\nfrom PIL import Image\nim = Image.open(sys.argv[1])\n\
                      t = im.info.get('transparency')\n\
                      print(json.dumps({'mode': im.mode, 'size': im.size, 'indices': list(im.tobytes()), \
                      'palette': im.getpalette(), 'transparency': list(t) if isinstance(t, bytes) else t, \
                      'rgba': list(im.convert('RGBA').tobytes())}))";
        let out = std::process::Command::new("python3").args(["-c", script]).arg(c.dir.join("pal_000.png")).output();
        let out = out.unwrap();
        assert!(out.status.success(), "Pillow: {}", String::from_utf8_lossy(&out.stderr));
        let seen: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(seen["mode"], "P");
        assert_eq!(seen["size"], serde_json::json!([4, 3]));
        assert_eq!(seen["indices"], serde_json::json!(PAL_4X3));
        assert_eq!(seen["palette"], serde_json::json!(plte(&palette(), 256)));
        // Pillow's reading of a tRNS that makes one entry transparent and every other opaque: that index.
        assert_eq!(seen["transparency"], 0);
        // Drawn as relic draws it, but for the colour a transparent pixel keeps (index 0's magenta).
        let rgba: Vec<u8> = serde_json::from_value(seen["rgba"].clone()).unwrap();
        assert_eq!(rgba, shown(&PAL_4X3));
    }
}

fn pillow() -> bool {
    let ok = std::process::Command::new("python3")
        .args(["-c", "from PIL import Image"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: Python 3 with Pillow not found (python3 -m pip install pillow)");
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI=true: the Pillow check must run");
    }
    ok
}

#[test]
fn indexed_pngs_pack_their_indices_as_an_editor_saved_them() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("body.spr");
    std::fs::write(&input, sprite_2_1()).unwrap();
    let c = convert(&input, &dir.path().join("out"), &ConvertRequest::default());

    // Unedited indexed PNGs pack back byte for byte (the stored RLE kept).
    let (back, notes) = pack(&c.json, &dir.path().join("same.spr"), false).unwrap();
    assert_eq!(back, sprite_2_1());
    assert!(notes.is_empty(), "{notes:?}");

    // pal_000 repainted as Aseprite saves it: the full PLTE, tRNS of entry 0 only; (1, 0) becomes index 3
    // and (2, 2) index 0. pal_001 as an editor that shortens the PLTE to the entries used (0..=60), at
    // index 60. Indices 7 3 0 0 / 0 0 9 200 / 0 255 0 2 → RLE 07 03 00 04 09 C8 00 01 FF 00 01 02.
    let mut edited = PAL_4X3;
    edited[1] = 3;
    edited[10] = 0;
    write_indexed(&c.dir.join("pal_000.png"), 4, 3, &edited, &plte(&palette(), 256), &[0], png::BitDepth::Eight);
    write_indexed(&c.dir.join("pal_001.png"), 1, 1, &[60], &plte(&palette(), 61), &[0], png::BitDepth::Eight);
    let (back, notes) = pack(&c.json, &dir.path().join("edited.spr"), false).unwrap();
    let want_rle = vec![7, 3, 0, 4, 9, 200, 0, 1, 255, 0, 1, 2];
    let want = hand_spr(1, 2, &[Pal::Rle(4, 3, want_rle), Pal::Rle(1, 1, vec![60])], &[rgba_3x2()], Some(&palette()));
    assert_eq!(back, want);
    assert!(notes.iter().all(|n| !n.contains("mapped")), "the palettes agree: {notes:?}");

    // A 4-bit PNG (an editor saving few colours small), PLTE of 16 entries: index 5.
    write_indexed(&c.dir.join("pal_001.png"), 1, 1, &[5], &plte(&palette(), 16), &[0], png::BitDepth::Four);
    let (back, _) = pack(&c.json, &dir.path().join("four.spr"), false).unwrap();
    assert_eq!(Spr::read(&back).unwrap().palette_frames[1].indices, [5]);

    // A 2-bit PNG of another size (3×2: rows of 6 bits, each padded to a byte), PLTE of 4 entries: the
    // frame becomes 3×2 with those indices.
    write_indexed(
        &c.dir.join("pal_000.png"),
        3,
        2,
        &[1, 2, 3, 0, 3, 1],
        &plte(&palette(), 4),
        &[0],
        png::BitDepth::Two,
    );
    let (back, _) = pack(&c.json, &dir.path().join("two.spr"), false).unwrap();
    let frame = &Spr::read(&back).unwrap().palette_frames[0];
    assert_eq!((frame.width, frame.height, frame.indices.as_slice()), (3, 2, &[1, 2, 3, 0, 3, 1][..]));

    // An editor that sorted the palette (entries 7 and 9 swapped, the pixels remapped so that they look the
    // same): mapped by colour back to the sprite's palette, the file unchanged, and a note says so.
    let mut sorted = palette();
    sorted.swap(7, 9);
    let remapped: Vec<u8> = PAL_4X3
        .iter()
        .map(|&i| match i {
            7 => 9,
            9 => 7,
            other => other,
        })
        .collect();
    write_indexed(&c.dir.join("pal_000.png"), 4, 3, &remapped, &plte(&sorted, 256), &[0], png::BitDepth::Eight);
    write_indexed(&c.dir.join("pal_001.png"), 1, 1, &[42], &plte(&palette(), 43), &[0], png::BitDepth::Eight);
    let (back, notes) = pack(&c.json, &dir.path().join("sorted.spr"), false).unwrap();
    assert_eq!(back, sprite_2_1());
    assert!(notes.iter().any(|n| n.contains("pal_000.png: its palette is not the one convert wrote")), "{notes:?}");

    // An entry recoloured in the editor to a colour the sprite's palette lacks: refused at the first pixel
    // of it, unless --quantize.
    let mut recoloured = palette();
    recoloured[9] = [1, 1, 1, 0];
    write_indexed(&c.dir.join("pal_000.png"), 4, 3, &PAL_4X3, &plte(&recoloured, 256), &[0], png::BitDepth::Eight);
    let err = pack(&c.json, &dir.path().join("bad.spr"), false).unwrap_err().to_string();
    assert!(err.contains("pal_000.png (palette frame 0): pixel (2, 1) is #010101"), "{err}");
    pack(&c.json, &dir.path().join("q.spr"), true).unwrap();

    // An index past the end of the PNG's palette: refused, named.
    write_indexed(&c.dir.join("pal_000.png"), 4, 3, &PAL_4X3, &plte(&palette(), 200), &[0], png::BitDepth::Eight);
    let err = pack(&c.json, &dir.path().join("past.spr"), true).unwrap_err().to_string();
    assert!(err.contains("pixel (3, 1) is index 200, past the end of the PNG's palette of 200 entries"), "{err}");

    // An RGBA PNG still packs, mapped through the palette.
    write_png(&c.dir.join("pal_000.png"), 4, 3, &drawn(&edited));
    write_indexed(&c.dir.join("pal_001.png"), 1, 1, &[60], &plte(&palette(), 61), &[0], png::BitDepth::Eight);
    let (back, _) = pack(&c.json, &dir.path().join("rgba.spr"), false).unwrap();
    assert_eq!(back, want);
}

#[test]
fn a_dyed_sprite_is_written_with_the_dye_as_its_plte_and_packs_by_index() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("body.spr");
    std::fs::write(&input, sprite_2_1()).unwrap();
    // A Ragnarok .pal: entry i = (i, i, i, 0).
    let dye: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i, 0]).collect();
    let pal_path = dir.path().join("grey.pal");
    std::fs::write(&pal_path, &dye).unwrap();
    let req = ConvertRequest {
        options: ConvertOptions { palette: Some(pal_path), ..Default::default() },
        ..Default::default()
    };
    let c = convert(&input, &dir.path().join("out"), &req);
    let png = raw_png(&c.dir.join("pal_000.png"));
    let grey: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i]).collect();
    assert_eq!(png.plte, grey, "the PLTE is the dye the frame is shown in");
    assert_eq!(png.indices, PAL_4X3, "the indices are the sprite's");
    // Repainted in the dye (index 3 at (1, 0)): the index is stored, and the sprite keeps its own palette.
    let mut edited = PAL_4X3;
    edited[1] = 3;
    write_indexed(&c.dir.join("pal_000.png"), 4, 3, &edited, &grey, &[0], png::BitDepth::Eight);
    let (back, _) = pack(&c.json, &dir.path().join("back.spr"), false).unwrap();
    let spr = Spr::read(&back).unwrap();
    assert_eq!(spr.palette_frames[0].indices, edited);
    assert_eq!(spr.palette, Some(palette()));
    // The sprite's own palette in the PLTE (the PNG of an undyed conversion) is another palette: its colours
    // are mapped through the dye, which has them at other indices (here: refused, colour 7 of the sprite's
    // palette is not grey).
    write_indexed(&c.dir.join("pal_000.png"), 4, 3, &edited, &plte(&palette(), 256), &[0], png::BitDepth::Eight);
    let err = pack(&c.json, &dir.path().join("other.spr"), false).unwrap_err().to_string();
    assert!(err.contains("pal_000.png (palette frame 0): pixel (0, 0)"), "{err}");
}
