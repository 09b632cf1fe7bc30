//! Ragnarok GRF archives through the `relic` binary as a player or server owner uses it: today's client
//! archive (0x300 signed `Event Horizon`), extraction patterns written with the archive's `\`, and the
//! folder name `pack ro-grf mygrf/data` keeps; a whole journey extract → edit → pack → extract.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

use crate::common::{relic, stderr_of};

fn json_of(cmd: &mut Command) -> Value {
    let out = cmd.assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out)))
}

/// The entry names of an archive (`relic ls --json`), sorted.
fn names(archive: &Path) -> Vec<String> {
    let v = json_of(relic().args(["ls", "--json"]).arg(archive));
    let mut names: Vec<String> =
        v.as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap().to_string()).collect();
    names.sort();
    names
}

/// A client-like folder `mygrf/data/…` with textures (one in the Korean UI folder), a model and a text.
fn client_folder(root: &Path) -> PathBuf {
    let data = root.join("mygrf/data");
    let ui = data.join("texture/유저인터페이스");
    std::fs::create_dir_all(&ui).unwrap();
    std::fs::create_dir_all(data.join("model")).unwrap();
    std::fs::write(data.join("texture/wall.bmp"), b"BM wall").unwrap();
    std::fs::write(ui.join("bg.bmp"), b"BM ui").unwrap();
    std::fs::write(data.join("texture/sky.tga"), b"TGA sky").unwrap();
    std::fs::write(data.join("model/house.rsm"), b"GRSM house".repeat(50)).unwrap();
    std::fs::write(data.join("readme.txt"), b"hello").unwrap();
    data
}

const CLIENT_NAMES: [&str; 5] = [
    "data\\model\\house.rsm",
    "data\\readme.txt",
    "data\\texture\\sky.tga",
    "data\\texture\\wall.bmp",
    "data\\texture\\유저인터페이스\\bg.bmp",
];

#[test]
fn pack_ro_grf_of_a_data_folder_keeps_its_name_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let data = client_folder(dir.path());
    let out = dir.path().join("x.grf");
    let done = relic().args(["pack", "ro-grf", "-o"]).arg(&out).arg(&data).assert().success();
    assert!(stderr_of(&done).contains("data\\"), "{}", stderr_of(&done));
    assert_eq!(names(&out), CLIENT_NAMES);
    // Its parent gives the same names, and so does an extraction folder (no `out\` added).
    let parent = dir.path().join("parent.grf");
    relic().args(["pack", "ro-grf", "-q", "-o"]).arg(&parent).arg(dir.path().join("mygrf")).assert().success();
    assert_eq!(std::fs::read(&parent).unwrap(), std::fs::read(&out).unwrap());
    let extracted = dir.path().join("out");
    relic().args(["extract", "-q", "-o"]).arg(&extracted).arg(&out).assert().success();
    let again = dir.path().join("again.grf");
    relic().args(["pack", "ro-grf", "-q", "-o"]).arg(&again).arg(&extracted).assert().success();
    assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&out).unwrap());
    // The rule is in the help.
    let help = relic().args(["pack", "--help"]).assert().success().get_output().stdout.clone();
    let help = String::from_utf8_lossy(&help);
    assert!(help.contains("mygrf/data") && help.contains("Event Horizon"), "{help}");
}

#[test]
fn extract_patterns_with_backslashes_and_a_pattern_that_matches_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = client_folder(dir.path());
    let grf = dir.path().join("data.grf");
    relic().args(["pack", "ro-grf", "-q", "--version", "0x300", "-o"]).arg(&grf).arg(&data).assert().success();

    let out = dir.path().join("bmp");
    let v = json_of(relic().args(["extract", "--json", "-o"]).arg(&out).arg(&grf).arg("data\\texture\\*.bmp"));
    let mut got: Vec<&str> = v.as_array().unwrap().iter().map(|w| w["entry"].as_str().unwrap()).collect();
    got.sort();
    assert_eq!(got, ["data\\texture\\wall.bmp", "data\\texture\\유저인터페이스\\bg.bmp"]);
    assert_eq!(std::fs::read(out.join("data/texture/유저인터페이스/bg.bmp")).unwrap(), b"BM ui");
    assert!(!out.join("data/texture/sky.tga").exists());
    // Any case, and `/` too.
    relic()
        .args(["extract", "-q", "-o"])
        .arg(dir.path().join("upper"))
        .arg(&grf)
        .arg("DATA\\TEXTURE\\*.TGA")
        .assert()
        .success();
    assert!(dir.path().join("upper/data/texture/sky.tga").is_file());

    // Nothing matches: a warning naming the pattern, exit 1, nothing written.
    let none = dir.path().join("none");
    let failed = relic().args(["extract", "-o"]).arg(&none).arg(&grf).arg("data\\sprite\\*.spr").assert().code(1);
    let err = stderr_of(&failed);
    assert!(err.contains("relic: warning:") && err.contains("data\\sprite\\*.spr"), "{err}");
    assert!(err.contains("extracted 0 files"), "{err}");
    // One of two patterns matching nothing: the other still extracts, and relic exits 1.
    let some = dir.path().join("some");
    let failed = relic()
        .args(["extract", "-q", "-o"])
        .arg(&some)
        .arg(&grf)
        .args(["*.rsm", "data\\texture\\*.jpg"])
        .assert()
        .code(1);
    let err = stderr_of(&failed);
    assert!(err.contains("data\\texture\\*.jpg") && !err.contains("*.rsm"), "{err}");
    assert!(some.join("data/model/house.rsm").is_file());
}

#[test]
fn todays_client_archive_from_extract_to_edit_to_pack_and_back() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let data = client_folder(d);
    // The server owner's client archive: 0x300, signed `Event Horizon` like today's iRO data.grf.
    let grf = d.join("data.grf");
    relic().args(["pack", "ro-grf", "-q", "--version", "0x300", "-o"]).arg(&grf).arg(&data).assert().success();
    assert_eq!(&std::fs::read(&grf).unwrap()[..16], b"Event Horizon\0RL");
    let info = json_of(relic().args(["info", "--json"]).arg(&grf));
    assert_eq!((info["version"].as_str(), info["signature"].as_str()), (Some("0x300"), Some("Event Horizon")));
    assert_eq!(names(&grf), CLIENT_NAMES);

    // Its JSON writes it back byte for byte, signature and all.
    let json_dir = d.join("json");
    relic().args(["convert", "-q", "--to", "json", "-o"]).arg(&json_dir).arg(&grf).assert().success();
    let doc = json_dir.join("data.grf.json");
    let value: Value = serde_json::from_slice(&std::fs::read(&doc).unwrap()).unwrap();
    assert_eq!(value["header"]["signature"], "Event Horizon");
    let rebuilt = d.join("rebuilt.grf");
    relic().args(["pack", "ro-grf", "-q", "-o"]).arg(&rebuilt).arg(&doc).assert().success();
    assert_eq!(std::fs::read(&rebuilt).unwrap(), std::fs::read(&grf).unwrap());

    // Extract (into the default folder, `data/`, which holds `data/` itself), edit a texture, add one,
    // pack the folder back as 0x300, extract again.
    let work = d.join("work");
    std::fs::create_dir_all(&work).unwrap();
    relic().current_dir(&work).args(["extract", "-q"]).arg(&grf).assert().success();
    let root = work.join("data");
    assert_eq!(std::fs::read(root.join("data/readme.txt")).unwrap(), b"hello");
    std::fs::write(root.join("data/texture/wall.bmp"), b"BM wall, repainted").unwrap();
    std::fs::write(root.join("data/texture/new.bmp"), b"BM new").unwrap();
    let edited = d.join("edited.grf");
    relic().args(["pack", "ro-grf", "-q", "--version", "0x300", "-o"]).arg(&edited).arg(&root).assert().success();
    let mut want: Vec<String> = CLIENT_NAMES.iter().map(|s| s.to_string()).collect();
    want.push("data\\texture\\new.bmp".into());
    want.sort();
    assert_eq!(names(&edited), want, "the same names as the client's, plus the new texture");
    let info = json_of(relic().args(["info", "--json"]).arg(&edited));
    assert_eq!(info["signature"], "Event Horizon");
    let back = d.join("back");
    relic().args(["extract", "-q", "-o"]).arg(&back).arg(&edited).arg("data\\texture\\*").assert().success();
    assert_eq!(std::fs::read(back.join("data/texture/wall.bmp")).unwrap(), b"BM wall, repainted");
    assert_eq!(std::fs::read(back.join("data/texture/new.bmp")).unwrap(), b"BM new");
    assert_eq!(std::fs::read(back.join("data/texture/유저인터페이스/bg.bmp")).unwrap(), b"BM ui");
    assert!(!back.join("data/model").exists());
    relic().args(["check", "-q"]).arg(&edited).assert().success();
}
