//! User journeys through the `relic` binary (issue #22): a FreeRCT RCD's sheets are views (an edited
//! sheet is named on stderr and packs nothing; an edited sprite reaches the sprite and its sheet), and an
//! Evil Islands MMP texture converted to PNG, edited and packed again keeps its pixel format and mip level
//! count unless `--pixel-format` says otherwise. Outputs are found through `relic convert --json`.

use std::path::{Path, PathBuf};

use relic::evil_islands::mmp::{self, provenance, PixelFormat};
use serde_json::Value;

use crate::common::{relic, samples};

/// `relic convert --json -o out input [args]`: the manifest's outputs as (path, kind).
fn convert(input: &Path, out: &Path, args: &[&str]) -> Vec<(PathBuf, String)> {
    let run = relic().args(["convert", "--json", "-o"]).arg(out).args(args).arg(input).assert().success();
    let manifest: Value = serde_json::from_slice(&run.get_output().stdout).unwrap();
    assert_eq!(manifest["failures"], serde_json::json!([]), "{manifest}");
    manifest["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (PathBuf::from(o["output"].as_str().unwrap()), o["kind"].as_str().unwrap().to_string()))
        .collect()
}

/// The one output whose file name ends with `suffix`.
fn output(outputs: &[(PathBuf, String)], suffix: &str) -> PathBuf {
    let found: Vec<&PathBuf> =
        outputs.iter().map(|(p, _)| p).filter(|p| p.to_string_lossy().ends_with(suffix)).collect();
    assert_eq!(found.len(), 1, "one output ending {suffix}: {outputs:?}");
    found[0].clone()
}

/// `relic pack FORMAT -o output input [args]`: stderr.
fn pack(format: &str, input: &Path, output: &Path, args: &[&str]) -> String {
    let run = relic().args(["pack", format, "-o"]).arg(output).args(args).arg(input).assert().success();
    String::from_utf8_lossy(&run.get_output().stderr).into_owned()
}

/// RGBA pixels of a PNG: (width, height, pixels).
fn rgba(path: &Path) -> (u32, u32, Vec<u8>) {
    let img = relic::export::png::decode_rgba(&std::fs::read(path).unwrap()).unwrap();
    let f = &img.frames[0];
    let relic::asset::Pixels::Rgba8(p) = &f.pixels else { panic!("RGBA") };
    (f.width, f.height, p.clone())
}

/// An RGBA PNG with the given text chunks (an editor that keeps them writes them back).
fn write_rgba(path: &Path, w: u32, h: u32, pixels: &[u8], text: &[(String, String)]) {
    let mut enc = png::Encoder::new(std::fs::File::create(path).unwrap(), w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    for (k, v) in text {
        enc.add_text_chunk(k.clone(), v.clone()).unwrap();
    }
    enc.write_header().unwrap().write_image_data(pixels).unwrap();
}

/// An indexed PNG as it is: (width, height, indices, PLTE, tRNS).
fn indexed(path: &Path) -> (u32, u32, Vec<u8>, Vec<u8>, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder.read_info().unwrap();
    let info = reader.info().clone();
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Indexed, png::BitDepth::Eight));
    let mut buf = vec![0; reader.output_buffer_size()];
    reader.next_frame(&mut buf).unwrap();
    (info.width, info.height, buf, info.palette.unwrap().to_vec(), info.trns.map(|t| t.to_vec()).unwrap_or_default())
}

// =========================================================================================================
// FreeRCT: sheets are views

#[test]
fn an_edited_rcd_sheet_is_named_on_stderr_and_packs_nothing() {
    let original = samples().join("freerct/tiles.rcd");
    let dir = tempfile::tempdir().unwrap();
    let outputs = convert(&original, &dir.path().join("out"), &[]);
    let doc = output(&outputs, ".json");
    let surf = output(&outputs, "_surf_sheet.view.png");
    let tsel = output(&outputs, "_tsel_sheet.view.png");
    assert!(!outputs.iter().any(|(p, _)| p.to_string_lossy().ends_with("_sheet.png")), "{outputs:?}");
    // Unedited: no warning, the same file.
    let back = dir.path().join("back.rcd");
    let err = pack("freerct-rcd", &doc, &back, &[]);
    assert!(!err.contains("is a view"), "{err}");
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&original).unwrap());
    // A pixel of the SURF sheet painted red.
    let (w, h, mut pixels) = rgba(&surf);
    assert_ne!(&pixels[..4], &[255, 0, 0, 255]);
    pixels[..4].copy_from_slice(&[255, 0, 0, 255]);
    write_rgba(&surf, w, h, &pixels, &[]);
    let back = dir.path().join("edited.rcd");
    let err = pack("freerct-rcd", &doc, &back, &[]);
    let name = surf.file_name().unwrap().to_string_lossy().into_owned();
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("is a view")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(
        warnings[0]
            .contains(&format!("{name} is a view and was not packed back: it differs from what the sprite PNGs give")),
        "{err}"
    );
    assert!(!err.contains(&*tsel.file_name().unwrap().to_string_lossy()), "{err}");
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&original).unwrap(), "the sheet is never read");
}

#[test]
fn an_edited_rcd_sprite_reaches_the_sprite_and_its_sheet() {
    let original = samples().join("freerct/tiles.rcd");
    let dir = tempfile::tempdir().unwrap();
    let outputs = convert(&original, &dir.path().join("a"), &[]);
    let doc = output(&outputs, ".json");
    let sprite = output(&outputs, "_surf9_north_flat.png");
    let (w, h, mut indices, plte, trns) = indexed(&sprite);
    // The first opaque pixel takes another opaque palette entry of another colour.
    let at = indices.iter().position(|&k| k != 0).unwrap();
    let old = usize::from(indices[at]);
    let colour = |k: usize| [plte[3 * k], plte[3 * k + 1], plte[3 * k + 2], trns.get(k).copied().unwrap_or(255)];
    let new = (1..256).find(|&k| colour(k)[3] == 255 && colour(k)[..3] != colour(old)[..3]).unwrap();
    indices[at] = new as u8;
    let mut enc = png::Encoder::new(std::fs::File::create(&sprite).unwrap(), w, h);
    enc.set_color(png::ColorType::Indexed);
    enc.set_palette(plte.clone());
    enc.set_trns(trns.clone());
    enc.write_header().unwrap().write_image_data(&indices).unwrap();

    let back = dir.path().join("edited.rcd");
    let err = pack("freerct-rcd", &doc, &back, &[]);
    // The sheet beside the edited sprite is stale, not edited: no warning.
    assert!(!err.contains("is a view"), "{err}");
    assert_ne!(std::fs::read(&back).unwrap(), std::fs::read(&original).unwrap());

    let again = convert(&back, &dir.path().join("b"), &[]);
    let (w2, h2, indices2, _, _) = indexed(&output(&again, "_surf9_north_flat.png"));
    assert_eq!((w2, h2, indices2), (w, h, indices.clone()), "the edit is in the sprite");
    // The SURF sheet differs from the one before in exactly one pixel, now the new colour; TSEL's not at all.
    let (sw, sh, before) = rgba(&output(&outputs, "_surf_sheet.view.png"));
    let (sw2, sh2, after) = rgba(&output(&again, "_surf_sheet.view.png"));
    assert_eq!((sw2, sh2), (sw, sh));
    let changed: Vec<usize> =
        (0..before.len() / 4).filter(|&i| before[4 * i..4 * i + 4] != after[4 * i..4 * i + 4]).collect();
    assert_eq!(changed.len(), 1, "{changed:?}");
    let i = changed[0];
    assert_eq!(&before[4 * i..4 * i + 4], &colour(old));
    assert_eq!(&after[4 * i..4 * i + 4], &colour(new));
    assert_eq!(rgba(&output(&outputs, "_tsel_sheet.view.png")), rgba(&output(&again, "_tsel_sheet.view.png")));

    // The stale sheet edited as well: now it is named (its pixels are not those convert drew, nor those
    // the sprite PNGs give).
    let surf = output(&outputs, "_surf_sheet.view.png");
    let (w, h, mut pixels) = rgba(&surf);
    pixels[..4].copy_from_slice(&[255, 0, 0, 255]);
    write_rgba(&surf, w, h, &pixels, &[]);
    let err = pack("freerct-rcd", &doc, &dir.path().join("both.rcd"), &[]);
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("is a view")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(warnings[0].contains(&*surf.file_name().unwrap().to_string_lossy()), "{err}");
    assert_eq!(std::fs::read(dir.path().join("both.rcd")).unwrap(), std::fs::read(&back).unwrap());
}

// =========================================================================================================
// Evil Islands MMP: pack keeps the texture's pixel format and mip level count

/// The sample DXT1 texture (16 × 16, a full chain of 5 levels: `examples/make_samples.rs`).
fn dxt1_sample() -> (PathBuf, Vec<u8>) {
    let path = samples().join("evil_islands/example_dxt1.mmp");
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

fn header(path: &Path) -> (String, u32, u32, usize) {
    let bytes = std::fs::read(path).unwrap();
    let m = mmp::parse(&bytes).unwrap();
    (m.header.fourcc.describe(), m.header.width, m.header.height, m.levels.len())
}

/// A converted PNG edited: its first pixel painted, saved with `text` (the chunks an editor keeps).
fn edit(png: &Path, text: &[(String, String)]) -> Vec<u8> {
    let (w, h, mut pixels) = rgba(png);
    pixels[..4].copy_from_slice(&[255, 0, 0, 255]);
    write_rgba(png, w, h, &pixels, text);
    pixels
}

/// The record convert leaves in the texture's PNG, kept as an editor that keeps text chunks would.
fn record_of(png: &Path, texture: &[u8]) -> Vec<(String, String)> {
    let kept: Vec<(String, String)> =
        provenance::text_chunks(&std::fs::read(png).unwrap()).into_iter().filter(|(k, _)| k == "relic").collect();
    assert_eq!(kept, [(provenance::PNG_TEXT_KEYWORD.into(), provenance::png_text(&mmp::parse(texture).unwrap()))]);
    kept
}

#[test]
fn an_edited_texture_png_packs_in_its_own_format_and_levels() {
    let (sample, bytes) = dxt1_sample();
    assert_eq!(header(&sample), ("dxt1".into(), 16, 16, 5));
    let dir = tempfile::tempdir().unwrap();
    let png = output(&convert(&sample, &dir.path().join("a"), &[]), ".png");
    let record = record_of(&png, &bytes);
    assert_eq!(record, [("relic".to_string(), "ei-mmp format=dxt1 mips=5".to_string())]);
    let edited = edit(&png, &record);

    // No --pixel-format: DXT1 with 5 levels, as the writer makes them from the edited pixels.
    let out = dir.path().join("kept.mmp");
    pack("ei-mmp", &png, &out, &[]);
    assert_eq!(header(&out), ("dxt1".into(), 16, 16, 5));
    assert_eq!(std::fs::read(&out).unwrap(), mmp::encode_levels(&edited, 16, 16, PixelFormat::Dxt1, 5).unwrap());
    // --pixel-format argb8 overrides the format (the levels stay the recorded ones); the top level is the edit.
    let out = dir.path().join("argb8.mmp");
    pack("ei-mmp", &png, &out, &["--pixel-format", "argb8"]);
    assert_eq!(header(&out), ("argb8".into(), 16, 16, 5));
    let packed = std::fs::read(&out).unwrap();
    assert_eq!(mmp::decode_level(&mmp::parse(&packed).unwrap(), 0).unwrap(), edited);

    // An editor that strips text chunks: the record of the conversion beside the PNG (`….relic.json`) still
    // knows the texture, DXT1 with 5 levels, and pack says where it took that from.
    edit(&png, &[]);
    let out = dir.path().join("stripped.mmp");
    let said = pack("ei-mmp", &png, &out, &[]);
    assert!(said.contains("has lost relic's text chunks"), "{said}");
    assert_eq!(header(&out), ("dxt1".into(), 16, 16, 5));
    assert_eq!(std::fs::read(&out).unwrap(), mmp::encode_levels(&edited, 16, 16, PixelFormat::Dxt1, 5).unwrap());
    // Without the record either: ARGB8 with one level, relic's default, and pack says so.
    let record_file = png.with_file_name(format!("{}.relic.json", sample.file_name().unwrap().to_string_lossy()));
    std::fs::remove_file(&record_file).unwrap();
    let out = dir.path().join("bare.mmp");
    let said = pack("ei-mmp", &png, &out, &[]);
    assert!(said.contains("records no texture") && said.contains("written as argb8"), "{said}");
    assert_eq!(header(&out), ("argb8".into(), 16, 16, 1));
    assert_eq!(std::fs::read(&out).unwrap(), mmp::encode_levels(&edited, 16, 16, PixelFormat::Argb8, 1).unwrap());

    // `convert --mips`: the top level's PNG (`….mip0.png`) packs as the texture's PNG does.
    let outputs = convert(&sample, &dir.path().join("b"), &["--mips"]);
    assert_eq!(outputs.len(), 5, "{outputs:?}");
    let mip0 = output(&outputs, ".mip0.png");
    let edited0 = edit(&mip0, &record_of(&mip0, &bytes));
    assert_eq!(edited0, edited);
    let out = dir.path().join("mip0.mmp");
    pack("ei-mmp", &mip0, &out, &[]);
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(dir.path().join("kept.mmp")).unwrap());
}

/// A partial chain stays partial: a 16 × 16 DXT3 texture with 3 levels packs back with 3.
#[test]
fn a_partial_mip_chain_keeps_its_level_count() {
    let dir = tempfile::tempdir().unwrap();
    let pixels: Vec<u8> = (0..16 * 16).flat_map(|i| [i as u8, (i * 3) as u8, 255 - i as u8, 255]).collect();
    let texture = mmp::encode_levels(&pixels, 16, 16, PixelFormat::Dxt3, 3).unwrap();
    let path = dir.path().join("three.mmp");
    std::fs::write(&path, &texture).unwrap();
    let png = output(&convert(&path, &dir.path().join("a"), &[]), ".png");
    let record = record_of(&png, &texture);
    assert_eq!(record[0].1, "ei-mmp format=dxt3 mips=3");
    let edited = edit(&png, &record);
    let out = dir.path().join("back.mmp");
    pack("ei-mmp", &png, &out, &[]);
    assert_eq!(header(&out), ("dxt3".into(), 16, 16, 3));
    assert_eq!(std::fs::read(&out).unwrap(), mmp::encode_levels(&edited, 16, 16, PixelFormat::Dxt3, 3).unwrap());
    // --mips: the full chain.
    let out = dir.path().join("full.mmp");
    pack("ei-mmp", &png, &out, &["--mips"]);
    assert_eq!(header(&out), ("dxt3".into(), 16, 16, 5));
}

/// What convert itself writes: the record in the texture's PNG and in every mip level's.
#[test]
fn convert_leaves_the_record_in_the_texture_png() {
    let (sample, _) = dxt1_sample();
    let dir = tempfile::tempdir().unwrap();
    let png = output(&convert(&sample, &dir.path().join("a"), &[]), ".png");
    let text = provenance::text_chunks(&std::fs::read(&png).unwrap());
    assert!(text.contains(&("relic".into(), "ei-mmp format=dxt1 mips=5".into())), "{text:?}");
    for (mip, _) in convert(&sample, &dir.path().join("b"), &["--mips"]) {
        let text = provenance::text_chunks(&std::fs::read(&mip).unwrap());
        assert!(text.contains(&("relic".into(), "ei-mmp format=dxt1 mips=5".into())), "{}: {text:?}", mip.display());
    }
}
