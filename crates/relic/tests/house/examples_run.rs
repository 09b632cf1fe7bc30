//! Runs the programs of `examples/` (the library's common tasks) on the samples and checks what they
//! write. Each program is built first (`cargo build --example`, a no-op when
//! `cargo test` built it already), then spawned from `target/<profile>/examples/`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    crate::common::repo_root()
}

/// Runs example `name` with `args` from the repository root; returns its standard output.
fn run(name: &str, args: &[&Path]) -> String {
    let deps = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
    let exe = deps.join("../examples").join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    // Under cargo, build it (a no-op when fresh), so a run that built only this test never runs a stale
    // or missing program; in the profile the test was built with (`target/<profile>/deps`).
    if let Ok(cargo) = std::env::var("CARGO") {
        let profile = match deps.parent().and_then(Path::file_name).and_then(|p| p.to_str()) {
            Some("debug") | None => "dev".to_string(),
            Some(other) => other.to_string(),
        };
        let status = Command::new(cargo)
            .args(["build", "-q", "-p", "relic", "--profile", &profile, "--example", name])
            .status()
            .unwrap();
        assert!(status.success(), "building example {name}");
    }
    let out = Command::new(&exe).args(args).current_dir(root()).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name} failed: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn texture_to_png_writes_the_archives_texture() {
    let dir = tempfile::tempdir().unwrap();
    let stdout = run("texture_to_png", &[Path::new("samples/ragnarok/example.grf"), dir.path()]);
    assert!(stdout.contains("sample.bmp"), "{stdout}");
    let png = std::fs::File::open(dir.path().join("sample.bmp.png")).unwrap();
    let reader = png::Decoder::new(png).read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (2, 2));
}

#[test]
fn model_to_glb_writes_a_glb_with_its_mesh() {
    let dir = tempfile::tempdir().unwrap();
    let stdout = run("model_to_glb", &[Path::new("samples/ragnarok/pyramid.rsm"), dir.path()]);
    assert!(stdout.contains("bytes, ro-rsm)"), "{stdout}");
    let glb = std::fs::read(dir.path().join("pyramid.glb")).unwrap();
    assert_eq!(&glb[..4], b"glTF");
    assert_eq!(u32::from_le_bytes(glb[8..12].try_into().unwrap()) as usize, glb.len());
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    assert_eq!(&glb[16..20], b"JSON");
    let json: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    assert_eq!(json["meshes"].as_array().map(Vec::len), Some(1));
}

#[test]
fn json_round_trip_changes_the_one_value() {
    let dir = tempfile::tempdir().unwrap();
    let stdout = run("json_round_trip", &[Path::new("samples/evil_islands/settings.reg"), dir.path()]);
    assert!(stdout.contains("Difficulty was 2, now 3"), "{stdout}");
    let before = std::fs::read(root().join("samples/evil_islands/settings.reg")).unwrap();
    let after = std::fs::read(dir.path().join("settings.reg")).unwrap();
    assert_eq!(before.len(), after.len());
    let changed: Vec<usize> = (0..before.len()).filter(|&i| before[i] != after[i]).collect();
    assert_eq!(changed, [69]);
    assert_eq!((before[69], after[69]), (2, 3));
    let doc = relic::registry::by_id("ei-reg").unwrap().to_json(&after).unwrap();
    let keys = doc["sections"][0]["keys"].as_array().unwrap();
    let difficulty = keys.iter().find(|k| k["name"] == "Difficulty").unwrap();
    assert_eq!(difficulty["value"], 3);
}

#[test]
fn the_readme_program_is_first_texture_and_it_runs() {
    let program = std::fs::read_to_string(root().join("crates/relic/examples/first_texture.rs")).unwrap();
    let body: String =
        program.lines().skip_while(|l| l.starts_with("//!") || l.is_empty()).map(|l| format!("{l}\n")).collect();
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("```rust\n{body}```")),
        "README's library section must show examples/first_texture.rs:\n{body}"
    );
    let stdout = run("first_texture", &[]);
    assert_eq!(stdout, "      40  data\\readme.txt\n      70  data\\texture\\유저인터페이스\\sample.bmp\n");
    let png = std::fs::File::open(std::env::temp_dir().join("sample.png")).unwrap();
    let reader = png::Decoder::new(png).read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (2, 2));
}
