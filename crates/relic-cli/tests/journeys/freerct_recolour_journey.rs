//! User journeys through the `relic` binary (issue #39): a FreeRCT 32PX sprite painted over its recolour
//! pixels packs those pixels as plain pixels of the colour painted (32PX runs of any kind may follow each
//! other, docs/formats/freerct.md#32px-recolour), a recolour layer edited alone stays a recolour edit, both edited at one pixel
//! are refused naming it, and pack's summary counts what it did: sprites edited and encoded anew, sprites
//! unedited, pixels that changed kind, pixels (and colours) that were not palette colours.
//!
//! The hand-made file is written byte by byte from docs/formats/freerct.md (RCDF v2, INFO, 32PX
//! v1 runs: bits 6–7 the kind, 0 opaque RGB, 1 alpha + RGB, 2 transparent, 3 recolour layer + alpha +
//! intensities; a u16 line length, 0 on the last line; a 0 byte ends each line), the FSET and the SHOP v8
//! whose recolourings name the source ranges red (13) and blue (10).

use std::path::{Path, PathBuf};

use relic::freerct::rcd::convert::gradient;
use serde_json::Value;

use crate::common::{relic, samples};

/// `relic convert --json -o out input`: the manifest's output paths.
fn convert(input: &Path, out: &Path) -> Vec<PathBuf> {
    let run = relic().args(["convert", "--json", "-o"]).arg(out).arg(input).assert().success();
    let manifest: Value = serde_json::from_slice(&run.get_output().stdout).unwrap();
    assert_eq!(manifest["failures"], serde_json::json!([]), "{manifest}");
    manifest["outputs"].as_array().unwrap().iter().map(|o| PathBuf::from(o["output"].as_str().unwrap())).collect()
}

/// The one output whose file name ends with `suffix`.
fn output(outputs: &[PathBuf], suffix: &str) -> PathBuf {
    let found: Vec<&PathBuf> = outputs.iter().filter(|p| p.to_string_lossy().ends_with(suffix)).collect();
    assert_eq!(found.len(), 1, "one output ending {suffix}: {outputs:?}");
    found[0].clone()
}

/// `relic pack freerct-rcd -o output json`: its stderr, after it succeeded.
fn pack(json: &Path, output: &Path) -> String {
    let run = relic().args(["pack", "freerct-rcd", "-o"]).arg(output).arg(json).assert().success();
    String::from_utf8_lossy(&run.get_output().stderr).into_owned()
}

/// The summary line pack prints for the PNGs beside `json`.
fn summary(json: &Path, what: &str) -> String {
    format!("pixel blocks from the PNGs in {}: {what}", json.with_extension("").display())
}

fn rgba(path: &Path) -> (u32, u32, Vec<u8>) {
    let img = relic::export::png::decode_rgba(&std::fs::read(path).unwrap()).unwrap();
    let f = &img.frames[0];
    let relic::asset::Pixels::Rgba8(p) = &f.pixels else { panic!("RGBA") };
    (f.width, f.height, p.clone())
}

/// Saves RGBA pixels as an editor does: a plain RGBA PNG, none of the chunks relic wrote.
fn save_rgba(path: &Path, w: u32, h: u32, pixels: &[u8]) {
    let mut enc = png::Encoder::new(std::fs::File::create(path).unwrap(), w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header().unwrap().write_image_data(pixels).unwrap();
}

fn px(pixels: &[u8], w: u32, x: u32, y: u32) -> [u8; 4] {
    let i = ((y * w + x) * 4) as usize;
    [pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]]
}

fn set(pixels: &mut [u8], w: u32, x: u32, y: u32, v: [u8; 4]) {
    let i = ((y * w + x) * 4) as usize;
    pixels[i..i + 4].copy_from_slice(&v);
}

// =========================================================================================================
// The hand-made file

fn block(magic: &[u8; 4], version: u32, body: &[u8]) -> Vec<u8> {
    let mut out = magic.to_vec();
    out.extend(version.to_le_bytes());
    out.extend((body.len() as u32).to_le_bytes());
    out.extend_from_slice(body);
    out
}

/// A 32PX v1 body, 6 × 2 at (−3, −5): `lines` are each line's runs with their 0 byte.
fn px32(lines: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in [6u16, 2] {
        out.extend(v.to_le_bytes());
    }
    for v in [-3i16, -5] {
        out.extend(v.to_le_bytes());
    }
    for (i, runs) in lines.iter().enumerate() {
        let length = if i + 1 == lines.len() { 0 } else { runs.len() as u16 + 2 };
        out.extend(length.to_le_bytes());
        out.extend_from_slice(runs);
    }
    out
}

/// The sprite as the game's generator writes it:
/// - row 0: 4 recolour pixels (layer 1, alpha 255, intensities 10 20 30 40), 2 opaque (1,2,3) (4,5,6);
/// - row 1: 1 opaque (7,8,9), 2 recolour pixels (layer 2, alpha 200, intensities 50 60), 3 transparent.
fn sprite() -> Vec<u8> {
    px32(&[vec![0xC4, 1, 255, 10, 20, 30, 40, 0x02, 1, 2, 3, 4, 5, 6, 0], vec![0x01, 7, 8, 9, 0xC2, 2, 200, 50, 60, 0]])
}

/// RCDF v2: 1 INFO, 2 the 32PX, 3 TEXT, 4 FSET (the 32PX in the ne view), 5 SHOP v8 recolouring red (13)
/// as layer 1 and blue (10) as layer 2.
fn shop_file(pixels: &[u8]) -> Vec<u8> {
    let mut info = Vec::new();
    for s in ["20260101", "Journey", "relic.test/journey/1", "", "Hand-made."] {
        info.extend_from_slice(s.as_bytes());
        info.push(0);
    }
    let mut text = vec![0, 0, 6];
    text.extend_from_slice(b"stall\0");
    text.extend_from_slice(&[16, 0, 6]);
    text.extend_from_slice(b"en_GB\0");
    text.push(1);
    text.extend_from_slice(b"Stall\0");
    let n = text.len() as u16;
    text[..2].copy_from_slice(&n.to_le_bytes());
    // FSET v2: 1 zoom, 1 × 1 tiles, zoom width 64, the views' sprites ne se sw nw.
    let mut fset = vec![1, 1, 1];
    fset.extend(64u16.to_le_bytes());
    for r in [2u32, 0, 0, 0] {
        fset.extend(r.to_le_bytes());
    }
    let mut shop = vec![2, 0b0101];
    shop.extend(4u32.to_le_bytes());
    for r in [(13u32 << 24) | (1 << 13), (10 << 24) | 1, 0] {
        shop.extend(r.to_le_bytes());
    }
    for c in [150i32, -25, 1000, 200] {
        shop.extend(c.to_le_bytes());
    }
    shop.extend([8, 8]);
    shop.extend(3u32.to_le_bytes());
    shop.extend_from_slice(b"stall\0");
    shop.extend(5000u32.to_le_bytes());
    let mut out = b"RCDF".to_vec();
    out.extend(2u32.to_le_bytes());
    for b in [
        block(b"INFO", 1, &info),
        block(b"32PX", 1, pixels),
        block(b"TEXT", 3, &text),
        block(b"FSET", 2, &fset),
        block(b"SHOP", 8, &shop),
    ] {
        out.extend(b);
    }
    out
}

const NAME: &str = "0002_shop5_stall_frame_set_views_ne_x0_y0_z0";

/// The recolour pixels of [`sprite`]: (x, y, layer, alpha, intensity), and the range their layer draws.
const RECOLOUR: [(u32, u32, u8, u8, u8, usize); 6] = [
    (0, 0, 1, 255, 10, 13),
    (1, 0, 1, 255, 20, 13),
    (2, 0, 1, 255, 30, 13),
    (3, 0, 1, 255, 40, 13),
    (1, 1, 2, 200, 50, 10),
    (2, 1, 2, 200, 60, 10),
];

fn drawn(range: usize, intensity: u8, alpha: u8) -> [u8; 4] {
    let [r, g, b] = gradient(range, intensity);
    [r, g, b, alpha]
}

struct Converted {
    json: PathBuf,
    png: PathBuf,
    layers: PathBuf,
}

fn convert_shop(input: &Path, out: &Path) -> Converted {
    let outputs = convert(input, out);
    Converted {
        json: output(&outputs, ".rcd.json"),
        png: output(&outputs, &format!("{NAME}.png")),
        layers: output(&outputs, &format!("{NAME}.recolour.png")),
    }
}

#[test]
fn paint_over_recolour_pixels_packs_as_plain_pixels_of_the_colour_painted() {
    let dir = tempfile::tempdir().unwrap();
    let original = shop_file(&sprite());
    let input = dir.path().join("shop.rcd");
    std::fs::write(&input, &original).unwrap();
    let a = convert_shop(&input, &dir.path().join("a"));
    let (w, h, mut pixels) = rgba(&a.png);
    assert_eq!((w, h), (6, 2));
    for (x, y, _, alpha, intensity, range) in RECOLOUR {
        assert_eq!(px(&pixels, w, x, y), drawn(range, intensity, alpha), "({x}, {y}) drawn in its range");
    }
    let doc: Value = serde_json::from_slice(&std::fs::read(&a.json).unwrap()).unwrap();
    assert_eq!(doc["blocks"][1]["recolour_ranges"], serde_json::json!([13, 10, 0, 0]));

    // Unedited: the file again, and the summary says nothing was edited.
    let back = dir.path().join("same.rcd");
    let err = pack(&a.json, &back);
    assert!(
        err.contains(&summary(
            &a.json,
            "0 edited and encoded anew, 1 unedited (1 encoded to their bytes again, 0 kept as stored)\n"
        )),
        "{err}"
    );
    assert_eq!(std::fs::read(&back).unwrap(), original);

    // Painted: two recolour pixels (one of alpha 200) and two plain ones (one was transparent).
    let paint = [(1, 0, [255, 0, 0, 255]), (4, 0, [0, 255, 0, 255]), (2, 1, [0, 0, 255, 200]), (4, 1, [9, 9, 9, 255])];
    for (x, y, v) in paint {
        set(&mut pixels, w, x, y, v);
    }
    save_rgba(&a.png, w, h, &pixels);
    let back = dir.path().join("painted.rcd");
    let err = pack(&a.json, &back);
    let want = summary(
        &a.json,
        "1 edited and encoded anew, 0 unedited (0 encoded to their bytes again, 0 kept as stored); 2 recolour \
         pixels painted over in the PNGs are plain pixels of the colour painted now\n",
    );
    assert!(err.contains(&want), "{err}");
    // The sprite's runs as the generator writes those pixels, worked out by hand.
    let painted_sprite = px32(&[
        vec![0xC1, 1, 255, 10, 0x01, 255, 0, 0, 0xC2, 1, 255, 30, 40, 0x02, 0, 255, 0, 4, 5, 6, 0],
        vec![0x01, 7, 8, 9, 0xC1, 2, 200, 50, 0x41, 200, 0, 0, 255, 0x81, 0x01, 9, 9, 9, 0],
    ]);
    assert_eq!(std::fs::read(&back).unwrap(), shop_file(&painted_sprite));

    // Converted again: every painted pixel has its colour; the recolour pixels not painted still are.
    let b = convert_shop(&back, &dir.path().join("b"));
    let (_, _, again) = rgba(&b.png);
    assert_eq!(again, pixels);
    let (_, _, layers) = rgba(&b.layers);
    for (x, y, layer, alpha, intensity, range) in RECOLOUR {
        let painted = paint.iter().any(|p| (p.0, p.1) == (x, y));
        let want_layer = if painted { [0, 0, 0, 0] } else { [layer, intensity, 0, 255] };
        assert_eq!(px(&layers, w, x, y), want_layer, "({x}, {y}) in the layers");
        if !painted {
            assert_eq!(px(&again, w, x, y), drawn(range, intensity, alpha));
        }
    }
}

#[test]
fn a_recolour_layer_edit_alone_stays_a_recolour_edit_and_both_at_one_pixel_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("shop.rcd");
    std::fs::write(&input, shop_file(&sprite())).unwrap();
    let a = convert_shop(&input, &dir.path().join("a"));

    // The layers edited alone: pixel (0, 0) takes intensity 77; its PNG colour (the old one) is left.
    let (w, h, mut layers) = rgba(&a.layers);
    assert_eq!(px(&layers, w, 0, 0), [1, 10, 0, 255]);
    set(&mut layers, w, 0, 0, [1, 77, 0, 255]);
    save_rgba(&a.layers, w, h, &layers);
    let back = dir.path().join("layers.rcd");
    let err = pack(&a.json, &back);
    let want =
        summary(&a.json, "1 edited and encoded anew, 0 unedited (0 encoded to their bytes again, 0 kept as stored)\n");
    assert!(err.contains(&want), "{err}");
    let relayered = px32(&[
        vec![0xC4, 1, 255, 77, 20, 30, 40, 0x02, 1, 2, 3, 4, 5, 6, 0],
        vec![0x01, 7, 8, 9, 0xC2, 2, 200, 50, 60, 0],
    ]);
    assert_eq!(std::fs::read(&back).unwrap(), shop_file(&relayered));
    let b = convert_shop(&back, &dir.path().join("b"));
    assert_eq!(px(&rgba(&b.png).2, w, 0, 0), drawn(13, 77, 255));
    assert_eq!(px(&rgba(&b.layers).2, w, 0, 0), [1, 77, 0, 255]);

    // Now the PNG painted too, over another recolour pixel: paint and a recolour edit cannot be told apart.
    let (_, _, mut pixels) = rgba(&a.png);
    set(&mut pixels, w, 3, 0, [255, 0, 0, 255]);
    save_rgba(&a.png, w, h, &pixels);
    let refused = dir.path().join("both.rcd");
    let run = relic().args(["pack", "freerct-rcd", "-o"]).arg(&refused).arg(&a.json).assert().failure();
    assert_eq!(run.get_output().status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    let recolour_name = format!("{NAME}.recolour.png");
    // (0, 0), re-layered, shows its old colour; (3, 0) was painted: two pixels neither file explains alone.
    assert!(
        err.contains(&format!(
            "blocks[2].png: 2 pixels of {NAME}.png, the first at (0, 0), are recolour pixels in \
             {recolour_name} that {NAME}.png shows in other colours than their recolouring draws; both files were \
             edited, so relic cannot tell paint from a recolour edit."
        )),
        "{err}"
    );
    assert!(err.contains(&format!("or edit {recolour_name} alone")), "{err}");
    assert!(!refused.exists(), "nothing written");
}

// =========================================================================================================
// The corpus: a real fair ground ride of FreeRCT's generator

#[test]
fn fgtr_paint_over_recolour_pixels_reaches_the_file() {
    let Some(corpus) = crate::common::corpus("freerct/v2/fgtr.rcd") else { return };
    let original = std::fs::read(&corpus).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let outputs = convert(&corpus, &dir.path().join("a"));
    let json = output(&outputs, "fgtr.rcd.json");
    let name = "0002_fgtr13_spiral_slide_idle_animation_views_ne_x1_y0_z0";
    let png = output(&outputs, &format!("{name}.png"));
    let (_, _, layers) = rgba(&output(&outputs, &format!("{name}.recolour.png")));
    let (w, h, mut pixels) = rgba(&png);
    // 50 recolour pixels and 50 plain ones (this sprite's are transparent or semi-transparent), the first of
    // each in row order, painted opaque.
    let recoloured = |i: usize| layers[4 * i + 3] == 255;
    let on_recolour: Vec<usize> =
        (0..(w * h) as usize).filter(|&i| pixels[4 * i + 3] == 255 && recoloured(i)).take(50).collect();
    let on_plain: Vec<usize> = (0..(w * h) as usize).filter(|&i| !recoloured(i)).take(50).collect();
    assert_eq!((on_recolour.len(), on_plain.len()), (50, 50));
    let (magenta, cyan) = ([255, 0, 255, 255], [0, 255, 255, 255]);
    for &i in &on_recolour {
        assert_ne!(pixels[4 * i..4 * i + 4], magenta);
        pixels[4 * i..4 * i + 4].copy_from_slice(&magenta);
    }
    for &i in &on_plain {
        assert_ne!(pixels[4 * i..4 * i + 4], cyan);
        pixels[4 * i..4 * i + 4].copy_from_slice(&cyan);
    }
    save_rgba(&png, w, h, &pixels);
    let back = dir.path().join("painted.rcd");
    let err = pack(&json, &back);
    let want = summary(
        &json,
        "1 edited and encoded anew, 3800 unedited (3800 encoded to their bytes again, 0 kept as stored); 50 \
         recolour pixels painted over in the PNGs are plain pixels of the colour painted now\n",
    );
    assert!(err.contains(&want), "{err}");

    // Read back (a second full convert of the 16 MB file is a release-build run): every block but the
    // sprite's as it was; the sprite's pixels decoded as convert decodes them.
    let packed = std::fs::read(&back).unwrap();
    let (was, now) = (relic::freerct::rcd::parse(&original).unwrap(), relic::freerct::rcd::parse(&packed).unwrap());
    assert_eq!(was.blocks.len(), now.blocks.len());
    for (k, (a, b)) in was.blocks.iter().zip(&now.blocks).enumerate() {
        if k != 1 {
            assert!(a == b, "block {} unchanged", k + 1);
        }
    }
    let relic::freerct::rcd::Body::Pixels32 { width, height, data, .. } = &now.blocks[1].body else {
        panic!("block 2 is a 32PX")
    };
    let planes = relic::freerct::rcd::pixels::decode_32bpp(data, *width, *height, 0).unwrap();
    for i in 0..(w * h) as usize {
        if on_recolour.contains(&i) || on_plain.contains(&i) {
            assert!(!planes.recolour[i], "pixel {i} is plain now");
            assert_eq!(planes.rgba[4 * i..4 * i + 4], pixels[4 * i..4 * i + 4], "pixel {i} painted");
        } else if recoloured(i) {
            assert!(planes.recolour[i], "pixel {i} still recolour");
            assert_eq!((planes.layer[i], planes.intensity[i]), (layers[4 * i], layers[4 * i + 1]));
            assert_eq!(planes.rgba[4 * i + 3], pixels[4 * i + 3]);
        } else {
            assert_eq!(planes.rgba[4 * i..4 * i + 4], pixels[4 * i..4 * i + 4], "pixel {i} as it was");
        }
    }
}

// =========================================================================================================
// 8PXL: colours the palette lacks are counted in pixels

#[test]
fn pixels_that_are_not_palette_colours_are_counted_as_pixels_and_colours() {
    let dir = tempfile::tempdir().unwrap();
    let original = samples().join("freerct/tiles.rcd");
    let outputs = convert(&original, &dir.path().join("a"));
    let json = output(&outputs, ".json");
    // Two sprites get 100 pixels each, 50 of each of two colours the palette lacks, saved as RGBA.
    let (one, two) = ([1, 2, 250, 255], [250, 3, 1, 255]);
    let mut painted = Vec::new();
    for suffix in ["_surf9_north_flat.png", "_surf9_north_n.png"] {
        let png = output(&outputs, suffix);
        let (w, h, mut pixels) = rgba(&png);
        assert!(w * h >= 100);
        for i in 0..100 {
            pixels[4 * i..4 * i + 4].copy_from_slice(if i % 2 == 0 { &one } else { &two });
        }
        save_rgba(&png, w, h, &pixels);
        painted.push(suffix);
    }
    let err = pack(&json, &dir.path().join("back.rcd"));
    let want = summary(
        &json,
        "2 edited and encoded anew, 2 unedited (2 encoded to their bytes again, 0 kept as stored); 200 pixels in \
         2 colours were not palette colours: the nearest taken\n",
    );
    assert!(err.contains(&want), "{err}");

    // Converted again: those pixels are the palette's nearest entries to the colours painted.
    let again = convert(&dir.path().join("back.rcd"), &dir.path().join("b"));
    let nearest = |c: [u8; 4], colors: &[[u8; 4]]| -> [u8; 4] {
        let d = |e: &[u8; 4]| (0..3).map(|j| (i32::from(e[j]) - i32::from(c[j])).pow(2)).sum::<i32>();
        *colors.iter().skip(1).take(255).min_by_key(|e| d(e)).unwrap()
    };
    for suffix in painted {
        let (w, _, pixels) = rgba(&output(&again, suffix));
        let (_, _, plte) = indexed_palette(&output(&again, suffix));
        for i in 0..100u32 {
            let c = if i % 2 == 0 { one } else { two };
            let want = nearest(c, &plte);
            assert_eq!(px(&pixels, w, i % w, i / w), [want[0], want[1], want[2], 255], "{suffix} pixel {i}");
        }
    }
}

/// An indexed PNG's palette as RGBA entries (PLTE with tRNS), and its size.
fn indexed_palette(path: &Path) -> (u32, u32, Vec<[u8; 4]>) {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let reader = decoder.read_info().unwrap();
    let info = reader.info();
    let plte = info.palette.as_deref().unwrap().to_vec();
    let trns = info.trns.as_deref().map(<[u8]>::to_vec).unwrap_or_default();
    let colors = plte
        .chunks_exact(3)
        .enumerate()
        .map(|(k, c)| [c[0], c[1], c[2], trns.get(k).copied().unwrap_or(255)])
        .collect();
    (info.width, info.height, colors)
}

#[test]
fn a_document_from_before_the_digests_says_paint_over_recolour_pixels_is_not_kept() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("shop.rcd");
    std::fs::write(&input, shop_file(&sprite())).unwrap();
    let a = convert_shop(&input, &dir.path().join("a"));
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&a.json).unwrap()).unwrap();
    for key in ["png_digest", "recolour_digest", "recolour_ranges"] {
        doc["blocks"][1].as_object_mut().unwrap().shift_remove(key).unwrap();
    }
    std::fs::write(&a.json, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let (w, h, mut pixels) = rgba(&a.png);
    set(&mut pixels, w, 1, 0, [255, 0, 0, 255]);
    save_rgba(&a.png, w, h, &pixels);
    let back = dir.path().join("old.rcd");
    let err = pack(&a.json, &back);
    let want = summary(
        &a.json,
        "0 edited and encoded anew, 0 unedited (0 encoded to their bytes again, 0 kept as stored); 1 encoded from \
         PNGs the document has no digest of (an older relic's), edited or not\n",
    );
    assert!(err.contains(&want), "{err}");
    assert!(
        err.contains(
            "warning: 1 sprite with recolour layers comes from a document an older relic wrote (it has no \
             `recolour_ranges`): paint over their recolour pixels is not kept; convert the file again to edit them"
        ),
        "{err}"
    );
    // As the warning says: the recolour pixel is still one.
    assert_eq!(std::fs::read(&back).unwrap(), shop_file(&sprite()));
}
