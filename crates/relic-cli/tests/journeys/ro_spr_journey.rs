//! A user's journey with a Ragnarok sprite through the `relic` binary: info and check, convert, edit a frame
//! PNG, pack (refused for a colour the palette lacks, unless `--quantize`), convert again and see the edit.
//! The sprite is built here by hand from SPR.MD (version 2.1: RLE palette frames, an RGBA frame).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::relic;

/// Entry i is (i, 2i, 255 − i); entry 0 is magenta (transparent whatever its colour).
fn palette() -> Vec<[u8; 4]> {
    let mut p: Vec<[u8; 4]> = (0..=255u8).map(|i| [i, i.wrapping_mul(2), 255 - i, 0]).collect();
    p[0] = [255, 0, 255, 0];
    p
}

/// `SP` 01 02, one palette frame of 3×2 (indices 5 0 0 / 0 0 6: RLE 05 00 04 06), one 1×1 RGBA frame
/// (stored A, B, G, R = 80 30 20 10), the palette.
fn sprite() -> Vec<u8> {
    let mut out = b"SP\x01\x02".to_vec();
    out.extend([1, 0, 1, 0]);
    out.extend([3, 0, 2, 0, 4, 0, 5, 0, 4, 6]);
    out.extend([1, 0, 1, 0, 0x80, 0x30, 0x20, 0x10]);
    out.extend(palette().iter().flatten());
    out
}

fn colour(i: u8) -> [u8; 4] {
    let [r, g, b, _] = palette()[usize::from(i)];
    [r, g, b, 255]
}

/// What `relic convert --json` wrote: the document and the PNGs by file name.
fn convert(input: &Path, out: &Path) -> (PathBuf, Vec<PathBuf>) {
    let assert = relic().args(["convert", "--json", "-o"]).arg(out).arg(input).assert().success();
    let manifest: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    let outputs: Vec<PathBuf> = manifest["outputs"]
        .as_array()
        .expect("a manifest list")
        .iter()
        .map(|o| PathBuf::from(o["output"].as_str().unwrap()))
        .collect();
    let [json] = outputs
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .cloned()
        .collect::<Vec<_>>()
        .try_into()
        .expect("one document");
    (json, outputs)
}

fn named<'a>(outputs: &'a [PathBuf], name: &str) -> &'a Path {
    outputs.iter().find(|p| p.file_name().is_some_and(|n| n == name)).unwrap_or_else(|| panic!("{name}: {outputs:?}"))
}

fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let image = relic::export::png::decode_rgba(&std::fs::read(path).unwrap()).unwrap();
    let f = image.frames.into_iter().next().unwrap();
    let relic::asset::Pixels::Rgba8(px) = f.pixels else { panic!("RGBA") };
    (f.width, f.height, px)
}

fn write_png(path: &Path, width: u32, height: u32, rgba: &[u8]) {
    let mut encoder = png::Encoder::new(std::fs::File::create(path).unwrap(), width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header().unwrap().write_image_data(rgba).unwrap();
}

#[test]
fn convert_edit_pack_convert_shows_the_edit() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("body.spr");
    std::fs::write(&input, sprite()).unwrap();

    let info = relic().args(["info", "--json"]).arg(&input).assert().success();
    let text = String::from_utf8_lossy(&info.get_output().stdout).into_owned();
    assert!(text.contains("ro-spr") && text.contains("\"2.1\""), "{text}");
    relic().arg("check").arg(&input).assert().success();

    let (json, outputs) = convert(&input, &dir.path().join("out"));
    let pal = named(&outputs, "pal_000.png");
    // Index 0 keeps entry 0's magenta in the PNG, at alpha 0.
    let clear = [255, 0, 255, 0];
    assert_eq!(read_png(pal), (3, 2, [colour(5), clear, clear, clear, clear, colour(6)].concat()));
    assert_eq!(read_png(named(&outputs, "rgba_000.png")).2, [0x10, 0x20, 0x30, 0x80]);
    named(&outputs, "sheet.view.png");

    // Unedited: byte for byte.
    let same = dir.path().join("same.spr");
    relic().args(["pack", "ro-spr", "-o"]).arg(&same).arg(&json).assert().success();
    assert_eq!(std::fs::read(&same).unwrap(), sprite());

    // (1, 0) painted with palette colour 9.
    let (_, _, mut px) = read_png(pal);
    px[4..8].copy_from_slice(&colour(9));
    write_png(pal, 3, 2, &px);
    let edited = dir.path().join("edited.spr");
    relic().args(["pack", "ro-spr", "-o"]).arg(&edited).arg(&json).assert().success();
    // Indices 5 9 0 / 0 0 6: RLE 05 09 00 03 06.
    let bytes = std::fs::read(&edited).unwrap();
    assert_eq!(&bytes[8..19], &[3, 0, 2, 0, 5, 0, 5, 9, 0, 3, 6]);
    let (_, again) = convert(&edited, &dir.path().join("again"));
    assert_eq!(read_png(named(&again, "pal_000.png")).2[4..8], colour(9));

    // (2, 0) painted a colour the palette lacks: refused, naming the frame and the pixel …
    px[8..12].copy_from_slice(&[3, 3, 3, 255]);
    write_png(pal, 3, 2, &px);
    let refused = relic().args(["pack", "ro-spr", "-o"]).arg(dir.path().join("bad.spr")).arg(&json).assert().failure();
    let err = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(err.contains("pal_000.png (palette frame 0): pixel (2, 0) is #030303"), "{err}");
    // … and mapped to the nearest entry with --quantize, which says so.
    let q = dir.path().join("q.spr");
    let done = relic().args(["pack", "ro-spr", "--quantize", "-o"]).arg(&q).arg(&json).assert().success();
    let said = String::from_utf8_lossy(&done.get_output().stderr).into_owned();
    assert!(said.contains("--quantize changed 1 pixels"), "{said}");
    let (_, quantized) = convert(&q, &dir.path().join("q"));
    assert_ne!(read_png(named(&quantized, "pal_000.png")).2[8..12], [0, 0, 0, 0]);
}

/// An indexed PNG as stored: (colour type, indices, PLTE, tRNS).
fn read_indexed(path: &Path) -> (png::ColorType, Vec<u8>, Vec<u8>, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut buf).unwrap();
    buf.truncate(frame.buffer_size());
    let info = reader.info();
    let (plte, trns) = (info.palette.as_deref().unwrap_or_default(), info.trns.as_deref().unwrap_or_default());
    (info.color_type, buf, plte.to_vec(), trns.to_vec())
}

#[test]
fn a_palette_frame_edited_as_indices_in_an_indexed_editor_packs_back() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("body.spr");
    std::fs::write(&input, sprite()).unwrap();
    let (json, outputs) = convert(&input, &dir.path().join("out"));
    let pal = named(&outputs, "pal_000.png");
    let (color, indices, plte, trns) = read_indexed(pal);
    assert_eq!(color, png::ColorType::Indexed);
    assert_eq!(indices, [5, 0, 0, 0, 0, 6]);
    assert_eq!(plte, palette().iter().flat_map(|c| [c[0], c[1], c[2]]).collect::<Vec<u8>>());
    assert_eq!((trns[0], trns[1], trns[255]), (0, 255, 255));

    // Saved as Aseprite does after painting (1, 0) with entry 9 and (2, 1) with entry 0: the PLTE cut
    // after the last entry used (0..=9), tRNS for entry 0 only.
    let mut enc = png::Encoder::new(std::fs::File::create(pal).unwrap(), 3, 2);
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_palette(plte[..10 * 3].to_vec());
    enc.set_trns(vec![0]);
    enc.write_header().unwrap().write_image_data(&[5, 9, 0, 0, 0, 0]).unwrap();
    let edited = dir.path().join("edited.spr");
    relic().args(["pack", "ro-spr", "-o"]).arg(&edited).arg(&json).assert().success();
    // Indices 5 9 0 / 0 0 0: RLE 05 09 00 04.
    let bytes = std::fs::read(&edited).unwrap();
    assert_eq!(&bytes[8..18], &[3, 0, 2, 0, 4, 0, 5, 9, 0, 4]);
    let (_, again) = convert(&edited, &dir.path().join("again"));
    assert_eq!(read_indexed(named(&again, "pal_000.png")).1, [5, 9, 0, 0, 0, 0]);
    assert_eq!(read_png(named(&again, "pal_000.png")).2[4..8], colour(9));
}
