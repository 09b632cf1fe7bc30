//! A user's journeys with a Dark Reign sprite through the `relic` binary: convert `samples/dark_reign/
//! unit.spr`, edit what convert wrote (a hotspot in the JSON, a frame PNG, the atlas view), pack, convert
//! again. Outputs are found through `relic convert --json` (the manifest of written files), never through
//! folder names.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::relic;

fn samples() -> PathBuf {
    crate::common::samples().join("dark_reign")
}

/// What `relic convert --json` wrote for `input` into `out`: (the JSON document, the atlas view, the frame
/// PNGs by file name).
struct Outputs {
    json: PathBuf,
    atlas: PathBuf,
    frames: Vec<PathBuf>,
}

fn convert(input: &Path, out: &Path) -> Outputs {
    let assert = relic().args(["convert", "--json", "-o"]).arg(out).arg(input).assert().success();
    let manifest: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    let outputs: Vec<PathBuf> = manifest["outputs"]
        .as_array()
        .expect("a manifest list")
        .iter()
        .map(|o| {
            assert_eq!(o["input"].as_str().map(Path::new), Some(input), "{o}");
            PathBuf::from(o["output"].as_str().unwrap())
        })
        .collect();
    let named = |end: &str| -> Vec<PathBuf> {
        outputs.iter().filter(|p| p.to_string_lossy().ends_with(end)).cloned().collect()
    };
    let [json] = named(".json").try_into().expect("one document");
    let [atlas] = named("atlas.view.png").try_into().expect("one atlas view");
    let mut frames: Vec<PathBuf> =
        outputs.iter().filter(|p| **p != atlas && p.extension().is_some_and(|e| e == "png")).cloned().collect();
    frames.sort();
    for p in frames.iter().chain([&atlas]) {
        assert_eq!(p.parent(), json.parent(), "every output beside the document: {p:?}");
    }
    Outputs { json, atlas, frames }
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// `relic pack dr-spr`: the packed bytes and what it said on stderr.
fn pack(json: &Path, out: &Path) -> (Vec<u8>, String) {
    let assert = relic().args(["pack", "dr-spr", "--force", "-o"]).arg(out).arg(json).assert().success();
    (std::fs::read(out).unwrap(), String::from_utf8_lossy(&assert.get_output().stderr).into_owned())
}

fn frame<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["frames"].as_array().unwrap().iter().find(|f| f["name"] == name).unwrap_or_else(|| panic!("frame {name}"))
}

/// RGBA8 pixels of a PNG, with its size.
fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba, "{path:?}");
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn write_png(path: &Path, width: u32, height: u32, rgba: &[u8]) {
    let mut encoder = png::Encoder::new(std::fs::File::create(path).unwrap(), width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header().unwrap().write_image_data(rgba).unwrap();
}

/// The sprite and its tileset's palette in a fresh folder.
fn setup() -> (tempfile::TempDir, PathBuf, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let spr = dir.path().join("unit.spr");
    let original = std::fs::read(samples().join("unit.spr")).unwrap();
    std::fs::write(&spr, &original).unwrap();
    std::fs::copy(samples().join("BARREN.PAL"), dir.path().join("BARREN.PAL")).unwrap();
    (dir, spr, original)
}

#[test]
fn a_hotspot_edited_in_the_json_is_in_the_packed_sprite() {
    let (dir, spr, original) = setup();
    let first = convert(&spr, &dir.path().join("out"));
    assert_eq!(first.frames.len(), 12);
    let mut doc = read_json(&first.json);
    // The sample's section 1 (anim 2) has two hotspots per frame: a centre and a turret. Frame 1_0_0 lists
    // them; the file's table is not in the document (one place per value).
    assert!(doc.get("hotspots").is_none());
    assert_eq!(
        frame(&doc, "1_0_0")["hotspots"],
        serde_json::json!([
            {"x": 6, "y": 4, "flag": 0, "kind": "centre"},
            {"x": 11, "y": 4, "flag": 1, "kind": "turret"},
        ])
    );
    let turret = doc["frames"].as_array_mut().unwrap().iter_mut().find(|f| f["name"] == "1_0_0").unwrap();
    turret["hotspots"][1]["x"] = 3.into();
    turret["hotspots"][1]["y"] = 5.into();
    std::fs::write(&first.json, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let (packed, stderr) = pack(&first.json, &dir.path().join("edited.spr"));
    assert!(!stderr.contains("warning"), "{stderr}");
    // Only the turret's two bytes changed (record 9 of 16, the table last in the file).
    let table = original.len() - 16 * 3;
    let diff: Vec<usize> = (0..original.len()).filter(|&i| original[i] != packed[i]).collect();
    assert_eq!(diff, [table + 27, table + 28]);
    assert_eq!(&packed[table + 27..table + 30], [3, 5, 1]);
    // Converted again: the edit is there.
    let again = convert(&dir.path().join("edited.spr"), &dir.path().join("again"));
    let doc = read_json(&again.json);
    assert_eq!(frame(&doc, "1_0_0")["hotspots"][1], serde_json::json!({"x": 3, "y": 5, "flag": 1, "kind": "turret"}));
    assert_eq!(frame(&doc, "1_1_0")["hotspots"][1], serde_json::json!({"x": 6, "y": 0, "flag": 1, "kind": "turret"}));
}

#[test]
fn an_edited_atlas_view_is_warned_about_and_the_file_is_as_the_frames_give_it() {
    let (dir, spr, original) = setup();
    let out = convert(&spr, &dir.path().join("out"));
    let (w, h, mut px) = read_png(&out.atlas);
    assert_eq!((w, h), (12 * 12, 9), "twelve 12 × 9 frames in a row");
    // Paint the atlas's top-left 3 × 3 red.
    for y in 0..3 {
        for x in 0..3 {
            let i = (y * w as usize + x) * 4;
            px[i..i + 4].copy_from_slice(&[255, 0, 0, 255]);
        }
    }
    write_png(&out.atlas, w, h, &px);
    let (packed, stderr) = pack(&out.json, &dir.path().join("back.spr"));
    assert_eq!(packed, original, "the view is not packed");
    let warning = stderr.lines().find(|l| l.contains("is a view")).unwrap_or_else(|| panic!("{stderr}"));
    assert!(warning.contains("warning") && warning.contains("atlas.view.png"), "{warning}");
    // Unedited, no warning.
    let fresh = convert(&spr, &dir.path().join("fresh"));
    let (packed, stderr) = pack(&fresh.json, &dir.path().join("fresh.spr"));
    assert_eq!(packed, original);
    assert!(!stderr.contains("view"), "{stderr}");
}

#[test]
fn an_edited_frame_png_is_in_the_packed_sprite() {
    let (dir, spr, original) = setup();
    let out = convert(&spr, &dir.path().join("out"));
    let png = out.frames.iter().find(|p| p.file_name().unwrap() == "0_2_1.png").unwrap();
    let (w, h, mut px) = read_png(png);
    assert_eq!((w, h), (12, 9));
    // Clear the frame's opaque pixels of row 4 and take another opaque pixel's colour for its corner.
    let opaque: Vec<usize> = (0..w as usize * h as usize).filter(|&i| px[i * 4 + 3] == 255).collect();
    let colour: [u8; 4] = px[opaque[0] * 4..opaque[0] * 4 + 4].try_into().unwrap();
    for x in 0..w as usize {
        px[(4 * w as usize + x) * 4..][..4].copy_from_slice(&[0, 0, 0, 0]);
    }
    px[..4].copy_from_slice(&colour);
    write_png(png, w, h, &px);
    let (packed, stderr) = pack(&out.json, &dir.path().join("back.spr"));
    assert_ne!(packed, original);
    // The atlas view still shows the old frame, but it is as convert wrote it (the record of the conversion
    // has its hash): not edited, so nothing is said.
    assert!(!stderr.contains("is a view"), "{stderr}");
    let again = convert(&dir.path().join("back.spr"), &dir.path().join("again"));
    let repainted = again.frames.iter().find(|p| p.file_name().unwrap() == "0_2_1.png").unwrap();
    assert_eq!(read_png(repainted), (w, h, px), "the edited frame comes back as painted");
    // The other frames are untouched.
    for (a, b) in out.frames.iter().zip(&again.frames) {
        if a.file_name().unwrap() != "0_2_1.png" {
            assert_eq!(read_png(a), read_png(b), "{a:?}");
        }
    }
}

/// A palette: the swatch is a view, the JSON's `colors` the source. An edited colour packs into the planes
/// (6 bits a channel) and comes back from the next conversion; an edited swatch is warned about.
#[test]
fn a_colour_edited_in_a_palette_json_is_in_the_packed_palette_and_the_swatch_is_a_view() {
    let dir = tempfile::tempdir().unwrap();
    let pal = samples().join("BARREN.PAL");
    let original = std::fs::read(&pal).unwrap();
    let out = dir.path().join("out");
    relic().args(["convert", "-q", "-o"]).arg(&out).arg(&pal).assert().success();
    let json = out.join("BARREN.PAL/BARREN.PAL.json");
    let swatch = out.join("BARREN.PAL/swatch.view.png");
    assert!(swatch.is_file());
    // Unedited: the same bytes, nothing said.
    let same = dir.path().join("same.pal");
    let assert = relic().args(["pack", "dr-pal", "-o"]).arg(&same).arg(&json).assert().success();
    assert_eq!(String::from_utf8_lossy(&assert.get_output().stderr).lines().count(), 1);
    assert_eq!(std::fs::read(&same).unwrap(), original);
    // Colour 5 made pure red: planes R, G, B of entry 5 become 63, 0, 0; nothing else changes.
    let mut doc = read_json(&json);
    doc["colors"][5] = Value::from("#FF0000");
    std::fs::write(&json, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let edited = dir.path().join("edited.pal");
    let assert = relic().args(["pack", "dr-pal", "-o"]).arg(&edited).arg(&json).assert().success();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("dr-pal: 1 colour edited in `colors`"), "{stderr}");
    // The swatch still shows the old colour 5, but nobody edited it (the record of the conversion has its
    // hash): stale, not edited, so nothing is said.
    assert!(!stderr.contains("is a view"), "{stderr}");
    let bytes = std::fs::read(&edited).unwrap();
    let mut want = original.clone();
    for (plane, value) in [(0, 63u8), (1, 0), (2, 0)] {
        let at = 8 + 256 * plane + 5;
        want[at] = (original[at] & !63) | value;
    }
    assert_eq!(bytes, want);
    let again = dir.path().join("again");
    relic().args(["convert", "-q", "-o"]).arg(&again).arg(&edited).assert().success();
    assert_eq!(read_json(&again.join("edited.pal/edited.pal.json"))["colors"][5], "#FF0000");
    let (w, _, pixels) = read_png(&again.join("edited.pal/swatch.view.png"));
    assert_eq!((w, &pixels[5 * 4..6 * 4]), (16, &[255, 0, 0, 255][..]));
    // The refreshed swatch beside the refreshed JSON is no warning; an edited one is.
    let json = again.join("edited.pal/edited.pal.json");
    let assert = relic().args(["pack", "dr-pal", "-o"]).arg(dir.path().join("x.pal")).arg(&json).assert().success();
    assert!(!String::from_utf8_lossy(&assert.get_output().stderr).contains("warning"));
    let (w, h, mut pixels) = read_png(&again.join("edited.pal/swatch.view.png"));
    pixels[0..4].copy_from_slice(&[1, 2, 3, 255]);
    write_png(&again.join("edited.pal/swatch.view.png"), w, h, &pixels);
    let assert = relic().args(["pack", "dr-pal", "-o"]).arg(dir.path().join("y.pal")).arg(&json).assert().success();
    assert!(String::from_utf8_lossy(&assert.get_output().stderr).contains("swatch.view.png is a view"));
    assert_eq!(std::fs::read(dir.path().join("y.pal")).unwrap(), bytes);
}
