//! The CLI contract for REG, CAM and ADB: `convert` gives INI / JSON, `pack` takes them back byte for
//! byte, and `--option ei-cam.time=f32` picks the CAM time reading.

use std::path::PathBuf;

use serde_json::Value;

use crate::common::relic;

fn sample(name: &str) -> PathBuf {
    crate::common::samples().join("evil_islands").join(name)
}

#[test]
fn reg_converts_to_ini_and_packs_back() {
    let dir = tempfile::tempdir().unwrap();
    relic().args(["convert", "-q", "-o"]).arg(dir.path()).arg(sample("settings.reg")).assert().success();
    let ini = dir.path().join("settings.reg.ini");
    let text = std::fs::read_to_string(&ini).unwrap();
    assert!(text.contains("[Game]\nDifficulty = 2\nGamma = 1.25\nPlayer = \"Зак\"\n"), "{text}");
    let back = dir.path().join("back.reg");
    relic().args(["pack", "ei-reg", "-o"]).arg(&back).arg(&ini).assert().success();
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(sample("settings.reg")).unwrap());
    // An edit: the type is what the text says.
    std::fs::write(&ini, text.replace("Difficulty = 2", "Difficulty = \"2\"")).unwrap();
    relic().args(["pack", "ei-reg", "--force", "-o"]).arg(&back).arg(&ini).assert().success();
    let v: Value =
        serde_json::from_slice(&relic().args(["info", "--json"]).arg(&back).assert().success().get_output().stdout)
            .unwrap();
    assert_eq!(v["keys"], 8);
    // A broken INI names its line and exits 1.
    std::fs::write(&ini, "[Game]\nDifficulty = two\n").unwrap();
    relic()
        .args(["pack", "ei-reg", "--force", "-o"])
        .arg(&back)
        .arg(&ini)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("ini line 2"));
}

#[test]
fn json_of_reg_cam_adb_packs_back() {
    for (name, id) in [("settings.reg", "ei-reg"), ("intro.cam", "ei-cam"), ("unhuma.adb", "ei-adb")] {
        let dir = tempfile::tempdir().unwrap();
        relic().args(["convert", "-q", "--to", "json", "-o"]).arg(dir.path()).arg(sample(name)).assert().success();
        let back = dir.path().join(name);
        relic().args(["pack", id, "-o"]).arg(&back).arg(dir.path().join(format!("{name}.json"))).assert().success();
        assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(sample(name)).unwrap(), "{name}");
    }
}

#[test]
fn cam_time_option() {
    let dir = tempfile::tempdir().unwrap();
    relic()
        .args(["convert", "-q", "--option", "ei-cam.time=f32", "-o"])
        .arg(dir.path())
        .arg(sample("intro.cam"))
        .assert()
        .success();
    let json = dir.path().join("intro.cam.json");
    let doc: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(doc["time_reading"], "f32");
    assert!(doc["records"][1]["time"].is_f64(), "{doc}");
    let back = dir.path().join("back.cam");
    relic().args(["pack", "ei-cam", "-o"]).arg(&back).arg(&json).assert().success();
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(sample("intro.cam")).unwrap());
    relic().args(["convert", "--option", "nonsense", "-o"]).arg(dir.path()).arg(sample("intro.cam")).assert().code(2);
    // Unknown values and keys are usage errors, found before anything is converted.
    let out = relic()
        .args(["convert", "--force", "--option", "ei-cam.time=f64", "-o"])
        .arg(dir.path())
        .arg(sample("intro.cam"))
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("takes u32 or f32, not `f64`"), "{stderr}");
    let mut cmd = relic();
    cmd.args(["convert", "--option", "ei-cam.speed=1", "-o"]).arg(dir.path()).arg(sample("intro.cam"));
    let stderr = String::from_utf8_lossy(&cmd.assert().code(2).get_output().stderr).into_owned();
    assert!(stderr.contains("unknown option `ei-cam.speed`") && stderr.contains("ei-cam.time"), "{stderr}");
}
