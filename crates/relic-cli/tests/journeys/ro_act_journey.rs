//! A user's journey with a Ragnarok action file through the `relic` binary: convert an ACT with its SPR
//! beside it (built here by hand from the published layouts: roBrowser's `Action.js` and `Sprite.js`),
//! read the animated PNGs' frame counts and delays back with the `png` crate, edit a delay in the JSON,
//! pack, convert again; and a head drawn over its body with `--with`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::relic;

/// A version 2.0 sprite: one 2×2 palette frame (indices 1, 2 / 3, 0) and one 1×1 RGBA frame (white), then
/// the 1,024-byte palette (1 red, 2 green, 3 blue).
fn spr() -> Vec<u8> {
    let mut out = b"SP\x00\x02".to_vec();
    out.extend(1u16.to_le_bytes());
    out.extend(1u16.to_le_bytes());
    out.extend(2u16.to_le_bytes());
    out.extend(2u16.to_le_bytes());
    out.extend([1, 2, 3, 0]);
    out.extend(1u16.to_le_bytes());
    out.extend(1u16.to_le_bytes());
    out.extend([255, 255, 255, 255]); // A, B, G, R
    let mut palette = [0u8; 1024];
    palette[4..16].copy_from_slice(&[255, 0, 0, 0, 0, 255, 0, 0, 0, 0, 255, 0]);
    out.extend(palette);
    out
}

/// A motion of one layer: (layer x, layer kind, anchor).
type Motion = (i32, i32, (i32, i32));

/// A version 2.5 ACT: `actions[i]` is a list of motions; then the delays.
fn act(actions: &[Vec<Motion>], delays: &[f32]) -> Vec<u8> {
    let mut out = b"AC\x05\x02".to_vec();
    out.extend((actions.len() as u16).to_le_bytes());
    out.extend([0u8; 10]);
    for motions in actions {
        out.extend((motions.len() as u32).to_le_bytes());
        for &(x, kind, (ax, ay)) in motions {
            out.extend([0u8; 32]);
            out.extend(1u32.to_le_bytes());
            for v in [x, 0, 0, 0] {
                out.extend(v.to_le_bytes());
            }
            out.extend([255u8; 4]);
            out.extend(1f32.to_le_bytes());
            out.extend(1f32.to_le_bytes());
            out.extend(0i32.to_le_bytes());
            out.extend(kind.to_le_bytes());
            out.extend([2i32, 2].iter().flat_map(|v| v.to_le_bytes()));
            out.extend((-1i32).to_le_bytes());
            out.extend(1u32.to_le_bytes());
            out.extend([0u8; 4]);
            for v in [ax, ay, 0] {
                out.extend(v.to_le_bytes());
            }
        }
    }
    out.extend(0u32.to_le_bytes());
    delays.iter().for_each(|d| out.extend(d.to_le_bytes()));
    out
}

/// Nine actions: action 0 three motions moving right (delay 2 ticks), actions 1..8 one motion each.
fn body() -> Vec<u8> {
    let mut actions = vec![vec![(0, 0, (0, -10)), (1, 0, (0, -10)), (2, 0, (0, -10))]];
    actions.extend((1..9).map(|_| vec![(0, 0, (0, -10))]));
    act(&actions, &[2.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0])
}

/// Written files by name (the manifest of `relic convert --json`).
fn convert(input: &Path, out: &Path, extra: &[&str]) -> Vec<PathBuf> {
    let assert =
        relic().args(["convert", "--json", "--force", "-o"]).arg(out).args(extra).arg(input).assert().success();
    let manifest: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    manifest["outputs"].as_array().unwrap().iter().map(|o| PathBuf::from(o["output"].as_str().unwrap())).collect()
}

fn named<'a>(files: &'a [PathBuf], name: &str) -> &'a Path {
    files.iter().find(|p| p.file_name().is_some_and(|n| n == name)).unwrap_or_else(|| panic!("{name} in {files:?}"))
}

/// (width, height, frames, delay of the first frame as numerator/denominator).
fn apng(path: &Path) -> (u32, u32, u32, (u16, u16)) {
    let bytes = std::fs::read(path).unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().unwrap();
    let frames = reader.info().animation_control.map_or(1, |c| c.num_frames);
    let mut buf = vec![0; reader.output_buffer_size()];
    reader.next_frame(&mut buf).unwrap();
    let info = reader.info();
    let delay = info.frame_control.map_or((0, 0), |f| (f.delay_num, f.delay_den));
    (info.width, info.height, frames, delay)
}

#[test]
fn an_act_with_its_spr_becomes_animations_and_an_edited_delay_packs_back() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("poring.act");
    std::fs::write(&input, body()).unwrap();
    // The sprite is found ignoring case.
    std::fs::write(dir.path().join("PORING.SPR"), spr()).unwrap();
    let out = dir.path().join("out");
    let files = convert(&input, &out, &[]);
    // 2×2 frames at x 0, 1, 2: one canvas 4 wide for all three; 25 ms × 2 = 50 ms a frame.
    assert_eq!(apng(named(&files, "0_0.png")), (4, 2, 3, (1, 20)));
    for i in 0..3 {
        named(&files, &format!("0_0.frame{i}.png"));
    }
    // One motion: a still PNG; the ninth action is group 1, direction 0.
    assert_eq!(apng(named(&files, "0_1.png")), (2, 2, 1, (0, 0)));
    named(&files, "1_0.png");
    let pngs = files.iter().filter(|p| p.extension().is_some_and(|e| e == "png")).count();
    assert_eq!(pngs, 1 + 3 + 8);

    // The document packs back byte for byte; an edited delay is written and drawn.
    let json = files.iter().find(|p| p.extension().is_some_and(|e| e == "json")).unwrap();
    let packed = dir.path().join("packed.act");
    relic().args(["pack", "ro-act", "-o"]).arg(&packed).arg(json).assert().success();
    assert_eq!(std::fs::read(&packed).unwrap(), body());
    let mut doc: Value = serde_json::from_slice(&std::fs::read(json).unwrap()).unwrap();
    doc["actions"][0]["delay"] = 8.0.into();
    std::fs::write(json, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let edited_dir = dir.path().join("edited");
    std::fs::create_dir(&edited_dir).unwrap();
    let edited = edited_dir.join("poring.act");
    relic().args(["pack", "ro-act", "-o"]).arg(&edited).arg(json).assert().success();
    std::fs::write(edited_dir.join("poring.spr"), spr()).unwrap();
    let files = convert(&edited, &dir.path().join("out2"), &[]);
    assert_eq!(apng(named(&files, "0_0.png")), (4, 2, 3, (1, 5)), "8 ticks: 200 ms");
}

#[test]
fn without_its_spr_only_the_document_is_written_and_the_sprite_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("lonely.act");
    std::fs::write(&input, body()).unwrap();
    let assert = relic().args(["convert", "-o"]).arg(dir.path().join("out")).arg(&input).assert().success();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("lonely.spr"), "{stderr}");
}

#[test]
fn a_head_is_drawn_over_its_body_through_the_anchors() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("body.act");
    std::fs::write(&input, body()).unwrap();
    std::fs::write(dir.path().join("body.spr"), spr()).unwrap();
    // The head: the RGBA pixel, its anchor (0, 5): drawn at body anchor − head anchor = (0, −15).
    let head = dir.path().join("head.act");
    std::fs::write(&head, act(&vec![vec![(0, 1, (0, 5))]; 9], &[4.0; 9])).unwrap();
    std::fs::write(dir.path().join("head.spr"), spr()).unwrap();
    let files = convert(&input, &dir.path().join("out"), &["--with", head.to_str().unwrap()]);
    // The body's 2×2 frames span rows −1..0, the head's pixel row −15: 16 rows.
    assert_eq!(apng(named(&files, "0_0.png")), (4, 16, 3, (1, 20)));
    let bytes = std::fs::read(named(&files, "0_1.png")).unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    reader.next_frame(&mut buf).unwrap();
    let width = reader.info().width as usize;
    // Head pixel: column 1 (x 0 with the canvas from −1), row 0; the body's red at row 14, column 0.
    assert_eq!(&buf[4..8], &[255, 255, 255, 255]);
    assert_eq!(&buf[14 * width * 4..14 * width * 4 + 4], &[255, 0, 0, 255]);
}

#[test]
fn an_act_in_a_grf_finds_its_spr_in_the_same_archive() {
    let dir = tempfile::tempdir().unwrap();
    let sprites = dir.path().join("data/sprite/monster");
    std::fs::create_dir_all(&sprites).unwrap();
    std::fs::write(sprites.join("poring.act"), body()).unwrap();
    std::fs::write(sprites.join("poring.spr"), spr()).unwrap();
    let grf = dir.path().join("data.grf");
    relic().args(["pack", "ro-grf", "-o"]).arg(&grf).arg(dir.path().join("data")).assert().success();
    let files = convert(&grf, &dir.path().join("out"), &[]);
    assert_eq!(apng(named(&files, "0_0.png")), (4, 2, 3, (1, 20)));
}

#[test]
fn a_broken_spr_fails_the_input_but_the_document_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("bad.act");
    std::fs::write(&input, body()).unwrap();
    std::fs::write(dir.path().join("bad.spr"), b"SP\x00\x02\xff\xff").unwrap();
    let out = dir.path().join("out");
    let assert = relic().args(["convert", "-o"]).arg(&out).arg(&input).assert().code(1);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("bad.spr") && stderr.contains("ro-spr"), "{stderr}");
    let written: Vec<_> =
        walkdir::WalkDir::new(&out).into_iter().flatten().filter(|e| e.file_type().is_file()).collect();
    assert_eq!(written.len(), 1, "{written:?}");
    assert!(written[0].path().extension().is_some_and(|e| e == "json"));
}

/// The RGBA pixels of a still PNG: (width, pixels).
fn still(path: &Path) -> (usize, Vec<u8>) {
    let image = relic::export::png::decode_rgba(&std::fs::read(path).unwrap()).unwrap();
    let frame = image.frames.into_iter().next().unwrap();
    let relic::asset::Pixels::Rgba8(px) = frame.pixels else { panic!("RGBA") };
    (frame.width as usize, px)
}

/// A Ragnarok `.pal` (256 entries of R, G, B, unused) where entries 1, 2, 3 are the given colours.
fn dye(colours: [[u8; 3]; 3]) -> Vec<u8> {
    let mut pal = vec![0u8; 1024];
    for (i, c) in colours.iter().enumerate() {
        pal[(i + 1) * 4..(i + 1) * 4 + 3].copy_from_slice(c);
    }
    pal
}

#[test]
fn the_body_and_the_head_each_take_their_own_palette() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("body.act");
    std::fs::write(&input, body()).unwrap();
    std::fs::write(dir.path().join("body.spr"), spr()).unwrap();
    // The head: its palette frame (1 2 / 3 0), anchor (0, 5): drawn at (0, −15), over rows −16..−15; the
    // body's frame over rows −1..0. Action 1 (one motion) is 2 wide and 17 high: the head's index 1 at
    // (0, 0), the body's at (0, 15).
    let head = dir.path().join("head.act");
    std::fs::write(&head, act(&vec![vec![(0, 0, (0, 5))]; 9], &[4.0; 9])).unwrap();
    std::fs::write(dir.path().join("head.spr"), spr()).unwrap();
    let body_dye = dir.path().join("body_dye.pal");
    std::fs::write(&body_dye, dye([[10, 20, 30], [11, 21, 31], [12, 22, 32]])).unwrap();
    let hair_dye = dir.path().join("hair_dye.pal");
    std::fs::write(&hair_dye, dye([[200, 100, 50], [201, 101, 51], [202, 102, 52]])).unwrap();
    let at =
        |(width, px): &(usize, Vec<u8>), x: usize, y: usize| px[(y * width + x) * 4..(y * width + x) * 4 + 4].to_vec();
    let (with, palette, head_palette) =
        (head.to_str().unwrap(), body_dye.to_str().unwrap(), hair_dye.to_str().unwrap());

    // --palette dyes the body only: the head keeps its own palette (red, green, blue).
    let files = convert(&input, &dir.path().join("body_dyed"), &["--with", with, "--palette", palette]);
    let image = still(named(&files, "0_1.png"));
    assert_eq!(image.1.len(), 2 * 17 * 4);
    assert_eq!(at(&image, 0, 0), [255, 0, 0, 255], "the head's own entry 1");
    assert_eq!(at(&image, 0, 1), [0, 0, 255, 255], "the head's own entry 3");
    assert_eq!(at(&image, 1, 1), [0, 0, 0, 0], "index 0");
    assert_eq!(at(&image, 0, 15), [10, 20, 30, 255], "the body's dyed entry 1");
    assert_eq!(at(&image, 1, 15), [11, 21, 31, 255], "the body's dyed entry 2");

    // --head-palette dyes the head, and only the head.
    let files = convert(&input, &dir.path().join("hair_dyed"), &["--with", with, "--head-palette", head_palette]);
    let image = still(named(&files, "0_1.png"));
    assert_eq!(at(&image, 0, 0), [200, 100, 50, 255]);
    assert_eq!(at(&image, 0, 1), [202, 102, 52, 255]);
    assert_eq!(at(&image, 0, 15), [255, 0, 0, 255], "the body's own entry 1");

    // Both.
    let both = ["--with", with, "--palette", palette, "--head-palette", head_palette];
    let image = still(named(&convert(&input, &dir.path().join("both"), &both), "0_1.png"));
    assert_eq!((at(&image, 0, 0), at(&image, 0, 15)), (vec![200, 100, 50, 255], vec![10, 20, 30, 255]));

    // A head palette without a head is a usage error.
    let refused = relic()
        .args(["convert", "--head-palette", head_palette, "-o"])
        .arg(dir.path().join("none"))
        .arg(&input)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(err.contains("--with"), "{err}");
}
