//! Identification by content through the CLI: a client folder holding files whose names say one format and
//! whose bytes say another (a Ragnarok `.spr` and `.pal`, a Windows `Thumbs.db`) is checked and converted
//! without failing; Ragnarok palettes convert and pack back; `--palette` errors name the palette.

use std::path::Path;

use assert_cmd::Command;

use crate::common::{relic, samples};

/// Entry i: R = i, G = i / 2, B = 255 - i, fourth byte 0.
fn rgbx_palette() -> Vec<u8> {
    (0..=255u8).flat_map(|i| [i, i / 2, 255 - i, 0]).collect()
}

fn stderr(cmd: &mut Command, code: i32) -> String {
    String::from_utf8(cmd.assert().code(code).get_output().stderr.clone()).unwrap()
}

/// A folder as a Ragnarok client's: a sprite (`SP` 2.1) and a palette under Dark Reign's extensions, a
/// Windows thumbnail cache under Drakan's, and a Dark Reign palette that is one.
fn client_folder(dir: &Path) {
    let mut sprite = b"SP\x01\x02\x01\x00\x00\x00\x01\x00\x01\x00\x01\x00\x05".to_vec();
    sprite.extend(rgbx_palette());
    std::fs::write(dir.join("body.spr"), sprite).unwrap();
    std::fs::write(dir.join("hair_4.pal"), rgbx_palette()).unwrap();
    let mut ole = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
    ole.resize(3000, 0);
    std::fs::write(dir.join("Thumbs.db"), ole).unwrap();
    std::fs::copy(samples().join("dark_reign/BARREN.PAL"), dir.join("BARREN.PAL")).unwrap();
}

#[test]
fn check_over_a_client_folder_skips_what_its_bytes_deny_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    client_folder(dir.path());
    let assert = relic().args(["check", "--json", "-q"]).arg(dir.path()).assert().code(0);
    let v: serde_json::Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    let mut seen: Vec<(String, String, String)> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let path = i["path"].as_str().or_else(|| i["input"].as_str()).unwrap_or_default();
            let name = Path::new(path).file_name().unwrap().to_string_lossy().into_owned();
            (name, i["format"].as_str().unwrap_or("-").to_string(), i["outcome"].as_str().unwrap().to_string())
        })
        .collect();
    seen.sort();
    let ro_spr = relic::registry::by_id("ro-spr").map_or("-", |f| f.id);
    let sprite_outcome = if ro_spr == "-" { "unknown" } else { "identical" };
    let mut expected = vec![
        ("BARREN.PAL".to_string(), "dr-pal".to_string(), "identical".to_string()),
        ("Thumbs.db".into(), "-".into(), "unknown".into()),
        ("body.spr".into(), ro_spr.into(), sprite_outcome.into()),
        ("hair_4.pal".into(), "ro-pal".into(), "identical".into()),
    ];
    expected.sort();
    assert_eq!(seen, expected, "{v}");
}

#[test]
fn info_names_what_a_file_s_name_claims_when_its_bytes_deny_it() {
    let dir = tempfile::tempdir().unwrap();
    client_folder(dir.path());
    let err = stderr(relic().arg("info").arg(dir.path().join("Thumbs.db")), 1);
    assert!(err.contains("Thumbs.db"), "{err}");
    let out = relic().arg("info").arg(dir.path().join("hair_4.pal")).assert().success().get_output().stdout.clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("(ro-pal)") && out.contains("first: #0000FF"), "{out}");
}

#[test]
fn a_ragnarok_palette_converts_to_a_swatch_and_packs_back_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let pal = dir.path().join("hair.pal");
    let mut bytes = rgbx_palette();
    bytes[7] = 9; // a fourth byte that is not 0 comes back too
    std::fs::write(&pal, &bytes).unwrap();
    let out = dir.path().join("out");
    relic().arg("convert").arg(&pal).arg("-o").arg(&out).assert().success();
    let png = out.join("hair.pal.png");
    let back = dir.path().join("back.pal");
    relic().args(["pack", "ro-pal"]).arg(&png).arg("-o").arg(&back).assert().success();
    assert_eq!(std::fs::read(&back).unwrap(), bytes);
    relic().args(["convert", "--to", "json"]).arg(&pal).arg("-o").arg(&out).assert().success();
    let back_json = dir.path().join("back_json.pal");
    relic().args(["pack", "ro-pal"]).arg(out.join("hair.pal.json")).arg("-o").arg(&back_json).assert().success();
    assert_eq!(std::fs::read(&back_json).unwrap(), bytes);
}

#[test]
fn palette_takes_1024_byte_rgbx_and_its_errors_name_the_palette() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("dye.pal");
    std::fs::write(&good, rgbx_palette()).unwrap();
    let sprite = samples().join("dark_reign/unit.spr");
    relic()
        .arg("convert")
        .arg("--palette")
        .arg(&good)
        .arg(&sprite)
        .arg("-o")
        .arg(dir.path().join("a"))
        .assert()
        .success();
    let bad = dir.path().join("bad.pal");
    std::fs::write(&bad, [1u8; 100]).unwrap();
    let err =
        stderr(relic().arg("convert").arg("--palette").arg(&bad).arg(&sprite).arg("-o").arg(dir.path().join("b")), 1);
    assert!(err.contains(&format!("{}: not a palette", bad.display())), "{err}");
}
