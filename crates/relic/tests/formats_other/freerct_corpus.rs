//! FreeRCT RCD files built by FreeRCT's own generator (`../shared/corpus/freerct/`, version 1, and
//! `v2/`, today's version 2): block counts, sprite sizes, offsets and pixels read independently of relic
//! from the files, byte-identical round trips (document and convert → pack through the PNGs), and an
//! edited PNG packed and read back. Skipped, saying so, when the corpus is not there.

use std::path::{Path, PathBuf};
use std::process::Command;

use relic::freerct::rcd::json::to_json;
use relic::freerct::rcd::pixels::{decode_32bpp, decode_8bpp};
use relic::freerct::rcd::{self, Body};
use relic::ops::{self, ConvertRequest, PackOptions, Quiet};
use serde_json::{json, Value};

fn corpus() -> Option<PathBuf> {
    crate::common::corpus("freerct")
}

fn count(rcd: &rcd::Rcd<'_>, magic: &[u8; 4]) -> usize {
    rcd.blocks.iter().filter(|b| &b.magic == magic).count()
}

/// The decoded indices of 8PXL block `n` (1-based).
fn pixels8(rcd: &rcd::Rcd<'_>, n: usize) -> (u16, u16, Vec<u8>) {
    match &rcd.blocks[n - 1].body {
        Body::Pixels8 { width, height, data, .. } => (*width, *height, decode_8bpp(data, *width, *height, 0).unwrap()),
        other => panic!("block {n} is not 8PXL: {other:?}"),
    }
}

#[test]
fn version_1_files_have_the_generators_blocks_and_pixels() {
    let Some(dir) = corpus() else { return };
    let gui_bytes = std::fs::read(dir.join("gui.rcd")).unwrap();
    let gui = rcd::parse(&gui_bytes).unwrap();
    assert_eq!(gui.version, 1);
    assert_eq!((count(&gui, b"SPRT"), count(&gui, b"8PXL")), (97, 85));
    assert_eq!((count(&gui, b"GBOR"), count(&gui, b"GCHK"), count(&gui, b"GSCL")), (8, 2, 4));
    // Block 1: a 16 × 16 button face; row 0 is index 1 throughout, row 8 a bevel.
    let (w, h, px) = pixels8(&gui, 1);
    assert_eq!((w, h), (16, 16));
    assert_eq!(&px[..16], &[1; 16]);
    assert_eq!(&px[8 * 16..9 * 16], &[1, 1, 218, 221, 221, 221, 221, 221, 221, 221, 221, 221, 221, 222, 1, 1]);
    let doc = to_json(&gui);
    assert_eq!(
        doc["blocks"][1],
        json!({"block": 2, "magic": "SPRT", "version": 2, "x_offset": 0, "y_offset": 0, "pixels": 1})
    );

    // Shared pixel blocks: two SPRT pairs point at one 8PXL each.
    let corner_bytes = std::fs::read(dir.join("cornerhighlight_8bpp64.rcd")).unwrap();
    let corner = rcd::parse(&corner_bytes).unwrap();
    assert_eq!((count(&corner, b"SPRT"), count(&corner, b"8PXL")), (65, 63));
    let doc = to_json(&corner);
    for (a, b, pixels) in [(4, 27, 3), (63, 126, 62)] {
        assert_eq!(doc["blocks"][a - 1]["pixels"], json!(pixels));
        assert_eq!(doc["blocks"][b - 1]["pixels"], json!(pixels));
    }
    let tcor = &doc["blocks"][128];
    assert_eq!(
        (tcor["magic"].as_str(), tcor["tile_width"].as_u64(), tcor["z_height"].as_u64()),
        (Some("TCOR"), Some(64), Some(16))
    );
    assert_eq!(tcor["corners"].as_object().unwrap().keys().collect::<Vec<_>>(), ["north", "east", "south", "west"]);

    // ANIM v1: 12-byte frames (docs/formats/freerct.md#anim-v1), person and animation types named.
    let people_bytes = std::fs::read(dir.join("people_animation.rcd")).unwrap();
    let people = rcd::parse(&people_bytes).unwrap();
    let doc = to_json(&people);
    assert_eq!(
        doc["blocks"][1],
        json!({"block": 2, "magic": "SPRT", "version": 2, "x_offset": -5, "y_offset": -17, "pixels": 1})
    );
    let (w, h, px) = pixels8(&people, 1);
    assert_eq!((w, h), (10, 27));
    assert_eq!(&px[..10], &[0, 0, 17, 17, 17, 17, 17, 17, 0, 0]);
    assert_eq!(&px[130..140], &[14, 16, 16, 15, 15, 15, 15, 16, 16, 14]);
    let anims: Vec<&Value> = doc["blocks"].as_array().unwrap()[2..].iter().collect();
    let moves = [(-1, 0), (0, 1), (1, 0), (0, -1)];
    for (i, (anim, (dx, dy))) in anims.iter().zip(moves).enumerate() {
        assert_eq!(anim["magic"], "ANIM");
        assert_eq!(anim["tile_width"], 64);
        assert_eq!(anim["person_type"], "pillar");
        assert_eq!(anim["animation_type"], ["walk-ne", "walk-se", "walk-sw", "walk-nw"][i]);
        assert_eq!(anim["frames"], json!([{"sprite": 2, "duration_ms": 40, "dx": dx, "dy": dy, "frame_number": 0}]));
    }

    // Ground tiles: SURF v3 with the 19 slope sprites, ground type named.
    let ground_bytes = std::fs::read(dir.join("groundtile_8bpp64.rcd")).unwrap();
    let ground = rcd::parse(&ground_bytes).unwrap();
    let surf = &to_json(&ground)["blocks"][38];
    assert_eq!((surf["magic"].as_str(), surf["version"].as_u64()), (Some("SURF"), Some(3)));
    assert_eq!(surf["ground_type"], "grass0");
    assert_eq!(surf["north"].as_object().unwrap().len(), 19);
    assert_eq!(surf["north"]["flat"], 2);
    assert_eq!(surf["north"]["steep_w"], 38);
}

#[test]
fn version_2_files_have_the_generators_blocks() {
    let Some(dir) = corpus() else { return };
    let dir = dir.join("v2");
    for (name, blocks) in [
        ("gui", 183),
        ("shops", 37),
        ("scenery", 335),
        ("paths", 471),
        ("entrance_exit", 49),
        ("freerct", 1169),
        ("fgtr", 4011),
        ("coasters", 23202),
    ] {
        let bytes = std::fs::read(dir.join(format!("{name}.rcd"))).unwrap();
        let file = rcd::parse(&bytes).unwrap();
        assert_eq!((name, file.version, file.blocks.len()), (name, 2, blocks));
        let Body::Info(info) = &file.blocks[0].body else { panic!("{name}: block 1 is not INFO") };
        assert_eq!(info.build, relic::freerct::rcd::text::CString::Text("20260629T160802".into()), "{name}");
        // Every block the layouts know is read field by field (none falls back to raw).
        for (i, b) in file.blocks.iter().enumerate() {
            if let Body::Raw { reason: Some(r), .. } = &b.body {
                panic!("{name} block {}: {} kept raw: {r}", i + 1, b.magic_str());
            }
        }
        assert_eq!(rcd::write(&file).unwrap(), bytes, "{name}: written back");
    }
    let gui_bytes = std::fs::read(dir.join("gui.rcd")).unwrap();
    let gui = rcd::parse(&gui_bytes).unwrap();
    let Body::Info(info) = &gui.blocks[0].body else { unreachable!() };
    assert_eq!(serde_json::to_value(info).unwrap()["uri"], "org.freerct/baseset/gui/1");
    match &gui.blocks[1].body {
        Body::Pixels8 { width, height, offset: Some(_), .. } => assert!(*width > 0 && *height > 0),
        other => panic!("block 2 of gui.rcd: {other:?}"),
    }
    let doc = to_json(&gui);
    assert_eq!(doc["blocks"][5]["magic"], "BDIR");
    assert_eq!(doc["blocks"][5]["arrows"].as_object().unwrap().keys().collect::<Vec<_>>(), ["ne", "se", "sw", "nw"]);

    let paths_bytes = std::fs::read(dir.join("paths.rcd")).unwrap();
    let paths = to_json(&rcd::parse(&paths_bytes).unwrap());
    let types: Vec<&str> = paths["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["magic"] == "PATH")
        .map(|b| b["path_type"].as_str().unwrap())
        .collect();
    assert!(types.contains(&"queue-tiled"), "{types:?}");

    let shops_bytes = std::fs::read(dir.join("shops.rcd")).unwrap();
    let shops = to_json(&rcd::parse(&shops_bytes).unwrap());
    let shop = shops["blocks"].as_array().unwrap().iter().find(|b| b["magic"] == "SHOP").unwrap();
    assert_eq!(shop["version"], 8);
    assert!(shop["internal_name"].as_str().is_some_and(|s| !s.is_empty()));
    let fset = shop["frame_set"].as_u64().unwrap() as usize;
    assert_eq!(shops["blocks"][fset - 1]["magic"], "FSET");
    let text = shop["text"].as_u64().unwrap() as usize;
    let strings = shops["blocks"][text - 1]["strings"].as_array().unwrap();
    assert!(strings.iter().any(|s| s["translations"].as_array().unwrap().iter().any(|t| t["language"] == "en_GB")));
}

/// An RGBA image read or written through the `png` crate (relic's own PNG reader for reading).
struct Rgba {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

impl Rgba {
    fn read(path: &Path) -> Rgba {
        let img = relic::export::png::decode_rgba(&std::fs::read(path).unwrap()).unwrap();
        let f = img.frames.into_iter().next().unwrap();
        let relic::asset::Pixels::Rgba8(rgba) = f.pixels else { panic!("not RGBA") };
        Rgba { width: f.width, height: f.height, rgba }
    }

    fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * self.width + x) * 4) as usize;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2], self.rgba[i + 3]]
    }

    fn write(&self, path: &Path) {
        let mut enc = png::Encoder::new(std::fs::File::create(path).unwrap(), self.width, self.height);
        enc.set_color(png::ColorType::Rgba);
        enc.write_header().unwrap().write_image_data(&self.rgba).unwrap();
    }
}

fn convert(input: &Path, out: &Path) {
    let report = ops::convert(std::slice::from_ref(&input.to_path_buf()), out, &ConvertRequest::default(), &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
}

/// Converts to PNGs and packs them back: every v1 file, and the v2 files a debug build converts quickly
/// (a release build takes all of them).
#[test]
fn convert_then_pack_reproduces_every_file() {
    let Some(dir) = corpus() else { return };
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_file()).collect();
    let v2 = ["gui", "shops", "entrance_exit", "scenery"];
    let v2_release = ["paths", "freerct", "fgtr", "coasters"];
    files.extend(v2.iter().map(|n| dir.join(format!("v2/{n}.rcd"))));
    if cfg!(debug_assertions) {
        eprintln!("debug build: {} are converted by the release build only", v2_release.join(", "));
    } else {
        files.extend(v2_release.iter().map(|n| dir.join(format!("v2/{n}.rcd"))));
    }
    files.sort();
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let out = tempfile::tempdir().unwrap();
        convert(&file, out.path());
        let doc: Value =
            serde_json::from_slice(&std::fs::read(out.path().join(format!("{stem}.rcd.json"))).unwrap()).unwrap();
        // Every pixel block is canonical generator output: the document leaves its bytes to the PNG.
        for b in doc["blocks"].as_array().unwrap() {
            if b["magic"] == "8PXL" || b["magic"] == "32PX" {
                assert!(b.get("data").is_none() && b["png"].is_string(), "{stem} block {}", b["block"]);
            }
        }
        let back = out.path().join("back.rcd");
        let report =
            ops::pack("freerct-rcd", &out.path().join(format!("{stem}.rcd.json")), &back, &PackOptions::default())
                .unwrap();
        assert!(report.notes.iter().any(|n| n.contains("encoded")), "{:?}", report.notes);
        assert!(!report.notes.iter().any(|n| n.contains("is a view")), "{stem}: {:?}", report.notes);
        assert!(std::fs::read(&back).unwrap() == std::fs::read(&file).unwrap(), "{stem}: packed bytes differ");
        // Without the sheets' digests (a document from before them) pack compares every sheet with the one
        // it draws from the sprite PNGs: drawn as convert drew them, no view differs.
        let mut old = doc.clone();
        for b in old["blocks"].as_array_mut().unwrap() {
            b.as_object_mut().unwrap().shift_remove("sheet_digest");
        }
        let old_json = out.path().join(format!("{stem}.rcd.json"));
        std::fs::write(&old_json, serde_json::to_vec(&old).unwrap()).unwrap();
        let back = out.path().join("back_without_digests.rcd");
        let report = ops::pack("freerct-rcd", &old_json, &back, &PackOptions::default()).unwrap();
        assert!(!report.notes.iter().any(|n| n.contains("is a view")), "{stem}: {:?}", report.notes);
        assert!(std::fs::read(&back).unwrap() == std::fs::read(&file).unwrap(), "{stem}: packed bytes differ");
    }
}

#[test]
fn sheets_follow_the_spec_order() {
    let Some(dir) = corpus() else { return };
    let out = tempfile::tempdir().unwrap();
    convert(&dir.join("groundtile_8bpp64.rcd"), out.path());
    let doc: Value =
        serde_json::from_slice(&std::fs::read(out.path().join("groundtile_8bpp64.rcd.json")).unwrap()).unwrap();
    let surf = &doc["blocks"][38];
    assert_eq!(surf["sheet"], "0039_surf_sheet.view.png");
    assert_eq!(surf["north"]["flat"], json!({"block": 2, "png": "0001_surf39_north_flat.png"}));
    // 19 cells in one row, each the union of the sprites' rectangles around their origin plus a gap of 2.
    let sheet = Rgba::read(&out.path().join("groundtile_8bpp64.rcd/0039_surf_sheet.view.png"));
    let ground_bytes = std::fs::read(dir.join("groundtile_8bpp64.rcd")).unwrap();
    let ground = rcd::parse(&ground_bytes).unwrap();
    let sprites: Vec<(i64, i64, i64, i64)> = (0..19)
        .map(|k| {
            let sprt = &to_json(&ground)["blocks"][2 * k + 1];
            let (w, h, _) = pixels8(&ground, 2 * k + 1);
            (sprt["x_offset"].as_i64().unwrap(), sprt["y_offset"].as_i64().unwrap(), i64::from(w), i64::from(h))
        })
        .collect();
    let x0 = sprites.iter().map(|s| s.0).min().unwrap();
    let x1 = sprites.iter().map(|s| s.0 + s.2).max().unwrap();
    let y0 = sprites.iter().map(|s| s.1).min().unwrap();
    let y1 = sprites.iter().map(|s| s.1 + s.3).max().unwrap();
    assert_eq!((sheet.width, sheet.height), (19 * (x1 - x0 + 2) as u32, (y1 - y0 + 2) as u32));
    // The flat tile's top-left visible pixel is at its offset within the first cell, in palette colours.
    let (w, _, px) = pixels8(&ground, 1);
    let first = px.iter().position(|&i| i != 0).unwrap();
    let (fx, fy) = ((first % usize::from(w)) as i64, (first / usize::from(w)) as i64);
    let palette = rcd::convert::palette();
    let c = palette.colors[usize::from(px[first])];
    let at = sheet.pixel((sprites[0].0 - x0 + fx) as u32, (sprites[0].1 - y0 + fy) as u32);
    assert_eq!(at, c);
}

#[test]
fn an_edited_png_packs_and_reads_back_with_the_edit() {
    let Some(dir) = corpus() else { return };
    let out = tempfile::tempdir().unwrap();
    // 8bpp: recolour the flat ground tile (its PNG is palette-indexed) from its own indices to index 48.
    let input = dir.join("groundtile_8bpp64.rcd");
    convert(&input, out.path());
    let png_path = out.path().join("groundtile_8bpp64.rcd/0001_surf39_north_flat.png");
    let decoder = png::Decoder::new(std::fs::File::open(&png_path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let info = reader.info().clone();
    assert_eq!(info.color_type, png::ColorType::Indexed);
    let mut buf = vec![0; reader.output_buffer_size()];
    reader.next_frame(&mut buf).unwrap();
    let edited: Vec<u8> = buf.iter().map(|&i| if i == 0 { 0 } else { 48 }).collect();
    {
        let mut enc = png::Encoder::new(std::fs::File::create(&png_path).unwrap(), info.width, info.height);
        enc.set_color(png::ColorType::Indexed);
        enc.set_palette(info.palette.as_deref().unwrap().to_vec());
        enc.set_trns(info.trns.as_deref().unwrap().to_vec());
        enc.write_header().unwrap().write_image_data(&edited).unwrap();
    }
    let back = out.path().join("edited.rcd");
    ops::pack("freerct-rcd", &out.path().join("groundtile_8bpp64.rcd.json"), &back, &PackOptions::default()).unwrap();
    let bytes = std::fs::read(&back).unwrap();
    let file = rcd::parse(&bytes).unwrap();
    let original_bytes = std::fs::read(&input).unwrap();
    let original = rcd::parse(&original_bytes).unwrap();
    let (_, _, px) = pixels8(&file, 1);
    assert_eq!(px, edited);
    assert!(px.contains(&48));
    for n in (3..38).step_by(2) {
        assert_eq!(pixels8(&file, n), pixels8(&original, n), "block {n} unchanged");
    }

    // 32bpp: paint one opaque pixel of a shop sprite pure red in its RGBA PNG.
    let out = tempfile::tempdir().unwrap();
    let input = dir.join("v2/shops.rcd");
    convert(&input, out.path());
    let doc: Value = serde_json::from_slice(&std::fs::read(out.path().join("shops.rcd.json")).unwrap()).unwrap();
    let block = doc["blocks"].as_array().unwrap().iter().find(|b| b["magic"] == "32PX").unwrap();
    let (n, name) = (block["block"].as_u64().unwrap() as usize, block["png"].as_str().unwrap().to_string());
    let path = out.path().join("shops.rcd").join(&name);
    let mut img = Rgba::read(&path);
    let layers = block["recolour_png"].as_str().map(|r| Rgba::read(&out.path().join("shops.rcd").join(r)));
    let (x, y) = (0..img.height)
        .flat_map(|y| (0..img.width).map(move |x| (x, y)))
        .find(|&(x, y)| img.pixel(x, y)[3] == 255 && layers.as_ref().map_or(true, |l| l.pixel(x, y)[3] == 0))
        .unwrap();
    let i = ((y * img.width + x) * 4) as usize;
    img.rgba[i..i + 4].copy_from_slice(&[255, 0, 0, 255]);
    img.write(&path);
    let back = out.path().join("edited.rcd");
    ops::pack("freerct-rcd", &out.path().join("shops.rcd.json"), &back, &PackOptions::default()).unwrap();
    let bytes = std::fs::read(&back).unwrap();
    let file = rcd::parse(&bytes).unwrap();
    let Body::Pixels32 { width, height, data, .. } = &file.blocks[n - 1].body else { panic!() };
    let planes = decode_32bpp(data, *width, *height, 0).unwrap();
    let i = (y * u32::from(*width) + x) as usize;
    assert_eq!(&planes.rgba[i * 4..i * 4 + 4], &[255, 0, 0, 255]);
    assert_eq!(file.blocks.len(), 37);
}

/// Pillow, an independent PNG reader, sees the same colours and transparency in the indexed PNGs.
#[test]
fn pillow_reads_the_pngs() {
    let Some(dir) = corpus() else { return };
    let ok = Command::new("python3").args(["-c", "import PIL"]).output().is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: Python 3 with Pillow not found (python3 -m pip install pillow)");
        return;
    }
    let out = tempfile::tempdir().unwrap();
    convert(&dir.join("people_animation.rcd"), out.path());
    let png = out.path().join("people_animation.rcd/0001_anim3_frames_0.png");
    let script = "import sys\nfrom PIL import Image\nim = Image.open(sys.argv[1])\nprint(im.mode, im.size)\nsys.stdout.write(' '.join(str(v) for p in [im.convert('RGBA').getpixel((0, 0)), im.convert('RGBA').getpixel((5, 13))] for v in p))";
    let run = Command::new("python3").args(["-c", script]).arg(&png).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let text = String::from_utf8(run.stdout).unwrap();
    // (0, 0) is index 0: transparent; (5, 13) is index 15, palette colour 91 115 115.
    assert_eq!(text, "P (10, 27)\n0 0 0 0 91 115 115 255");
}

/// Two sprites made identical in their PNGs are written once, as FreeRCT's generator shares them, and
/// every later reference is renumbered.
#[test]
fn identical_pixel_blocks_are_shared_when_packed() {
    let Some(dir) = corpus() else { return };
    let out = tempfile::tempdir().unwrap();
    let input = dir.join("groundtile_8bpp64.rcd");
    convert(&input, out.path());
    let folder = out.path().join("groundtile_8bpp64.rcd");
    // Block 3 (the north-up slope) takes block 1's pixels (the flat tile).
    std::fs::copy(folder.join("0001_surf39_north_flat.png"), folder.join("0003_surf39_north_n.png")).unwrap();
    let back = out.path().join("shared.rcd");
    let report =
        ops::pack("freerct-rcd", &out.path().join("groundtile_8bpp64.rcd.json"), &back, &PackOptions::default())
            .unwrap();
    assert!(report.notes.iter().any(|n| n.contains("1 blocks identical")), "{:?}", report.notes);
    let bytes = std::fs::read(&back).unwrap();
    let file = rcd::parse(&bytes).unwrap();
    assert_eq!((file.blocks.len(), count(&file, b"8PXL"), count(&file, b"SPRT")), (38, 18, 19));
    let doc = to_json(&file);
    // SPRT 4 became block 3 and draws block 1; the next 8PXL (old 5) is block 4, its SPRT (old 6) block 5.
    assert_eq!(doc["blocks"][2]["magic"], "SPRT");
    assert_eq!(doc["blocks"][2]["pixels"], 1);
    assert_eq!(doc["blocks"][4]["pixels"], 4);
    let surf = &doc["blocks"][37];
    assert_eq!(
        (surf["north"]["flat"].as_u64(), surf["north"]["n"].as_u64(), surf["north"]["e"].as_u64()),
        (Some(2), Some(3), Some(5))
    );
    assert_eq!(surf["north"]["steep_w"], 37);
}

/// A pixel block another tool wrote differently from FreeRCT's generator (here: one run split in two)
/// keeps its bytes through convert → pack, and is encoded anew once its PNG is edited.
#[test]
fn non_generator_pixel_bytes_survive_until_edited() {
    fn block(magic: &[u8; 4], version: u32, body: &[u8]) -> Vec<u8> {
        let mut b = magic.to_vec();
        b.extend(version.to_le_bytes());
        b.extend((body.len() as u32).to_le_bytes());
        b.extend(body);
        b
    }
    // 8PXL v2, 4 × 1 at (−2, −1): pixels 7 7 7 7 written as (0, 2, 7, 7) then (0x80, 2, 7, 7).
    let mut pxl = vec![4, 0, 1, 0, 0xFE, 0xFF, 0xFF, 0xFF];
    pxl.extend(4u32.to_le_bytes());
    pxl.extend([0, 2, 7, 7, 0x80, 2, 7, 7]);
    let mut file = b"RCDF".to_vec();
    file.extend(2u32.to_le_bytes());
    file.extend(block(b"INFO", 1, b"1\0n\0u\0\0\0"));
    file.extend(block(b"8PXL", 2, &pxl));
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("split.rcd");
    std::fs::write(&input, &file).unwrap();
    let out = dir.path().join("out");
    convert(&input, &out);
    let doc: Value = serde_json::from_slice(&std::fs::read(out.join("split.rcd.json")).unwrap()).unwrap();
    assert!(doc["blocks"][1]["data"].is_string(), "the document keeps bytes re-encoding would not give");
    let back = dir.path().join("back.rcd");
    ops::pack("freerct-rcd", &out.join("split.rcd.json"), &back, &PackOptions::default()).unwrap();
    assert_eq!(std::fs::read(&back).unwrap(), file);

    // Edited: pixel 0 becomes index 9; the block is encoded as the generator does (one run of 4).
    let png_path = out.join("split.rcd").join(doc["blocks"][1]["png"].as_str().unwrap());
    let decoder = png::Decoder::new(std::fs::File::open(&png_path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let info = reader.info().clone();
    let mut buf = vec![0; reader.output_buffer_size()];
    reader.next_frame(&mut buf).unwrap();
    assert_eq!(buf, [7, 7, 7, 7]);
    let mut enc = png::Encoder::new(std::fs::File::create(&png_path).unwrap(), 4, 1);
    enc.set_color(png::ColorType::Indexed);
    enc.set_palette(info.palette.as_deref().unwrap().to_vec());
    enc.write_header().unwrap().write_image_data(&[9, 7, 7, 7]).unwrap();
    drop(reader);
    let back = dir.path().join("edited.rcd");
    ops::pack("freerct-rcd", &out.join("split.rcd.json"), &back, &PackOptions::default()).unwrap();
    let bytes = std::fs::read(&back).unwrap();
    let packed = rcd::parse(&bytes).unwrap();
    match &packed.blocks[1].body {
        Body::Pixels8 { width: 4, height: 1, offset: Some((-2, -1)), data } => {
            assert_eq!(data.as_ref(), &[4, 0, 0, 0, 0x80, 4, 9, 7, 7, 7]);
        }
        other => panic!("{other:?}"),
    }
}

/// A 4 KiB file declaring a 65535 × 1000 sprite of empty lines is refused before anything is drawn.
#[test]
fn a_tiny_file_cannot_declare_huge_sprites() {
    let mut pxl = vec![0xFF, 0xFF, 0xE8, 0x03, 0, 0, 0, 0];
    pxl.extend([0u8; 4000]); // 1000 empty lines
    let mut file = b"RCDF".to_vec();
    file.extend(2u32.to_le_bytes());
    file.extend(b"8PXL");
    file.extend(2u32.to_le_bytes());
    file.extend((pxl.len() as u32).to_le_bytes());
    file.extend(&pxl);
    let err = rcd::FORMAT
        .convert(&relic::registry::ConvertInput::new(&file, &relic::registry::ConvertOptions::default()))
        .unwrap_err();
    assert!(err.to_string().contains("--max-expansion"), "{err}");
}
