//! What the CLI's test binaries (`cli`, `journeys`, `outside`) share: the `relic` binary, the repository's
//! folders, scratch folders, hand-made fixtures, and skipping a test whose tools are missing (a failure
//! under CI instead).

// Each binary uses some of these.
#![allow(dead_code)]

use std::io::Write as _;
use std::path::PathBuf;

/// The `relic` binary cargo built for these tests.
pub fn relic() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("relic").unwrap()
}

/// The same binary as a plain process, for a test that streams from, signals or kills it.
pub fn relic_process() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_relic"))
}

/// The repository's root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `samples/`, the small real files the repository carries.
pub fn samples() -> PathBuf {
    repo().join("samples")
}

/// Every file under `samples/`, recursively, sorted.
pub fn sample_files() -> Vec<PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&samples(), &mut out);
    out.sort();
    out
}

/// The shared corpus of game files beside the repository, `../shared/corpus`, where a machine has it.
pub fn corpus_root() -> PathBuf {
    repo().join("../shared/corpus")
}

/// A file or folder of the shared corpus of game files beside the repository (`../shared/corpus/REL`), when
/// this machine has it; otherwise None, said on stderr (the part of a test that needs it is skipped).
pub fn corpus(rel: &str) -> Option<PathBuf> {
    let path = corpus_root().join(rel);
    if path.exists() {
        Some(path)
    } else {
        eprintln!("skipped: ../shared/corpus/{rel} not found");
        None
    }
}

/// `target/tmp/NAME`: a folder that outlives the test, so that what a browser or Blender made there (its
/// screenshots, its results) can be looked at afterwards.
pub fn scratch(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// A run's standard error as text.
pub fn stderr_of(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

/// Whether this runs under CI (`CI` set, and not empty, `false` or `0`), where a tool a test needs must be
/// there.
pub fn under_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// `what` cannot run here because of `why`: said on the process's stderr (which the harness does not
/// capture, so `cargo test` shows it) and skipped by the caller; under CI, a failure instead.
pub fn skip(what: &str, why: &str) {
    assert!(!under_ci(), "CI must run {what}, but {why}");
    let _ = writeln!(std::io::stderr(), "skipped {what}: {why}");
}

/// A RES assembled by hand (spec "Res" tables), with the given names and contents, all in one hash chain.
pub fn handmade_res(entries: &[(&[u8], &[u8])]) -> Vec<u8> {
    let n = entries.len();
    let mut data = Vec::new();
    let mut offsets = Vec::new();
    for (_, content) in entries {
        offsets.push(16 + data.len() as u32);
        data.extend_from_slice(content);
        while data.len() % 16 != 0 {
            data.push(0);
        }
    }
    let table_at = 16 + data.len() as u32;
    let names: Vec<u8> = entries.iter().flat_map(|(n, _)| n.to_vec()).collect();
    let mut out = vec![0x3C, 0xE2, 0x9C, 0x01];
    out.extend((n as u32).to_le_bytes());
    out.extend(table_at.to_le_bytes());
    out.extend((names.len() as u32).to_le_bytes());
    out.extend(&data);
    let mut name_at = 0u32;
    for (i, (name, content)) in entries.iter().enumerate() {
        let next: i32 = if i + 1 < n { i as i32 + 1 } else { -1 };
        out.extend(next.to_le_bytes());
        out.extend((content.len() as u32).to_le_bytes());
        out.extend(offsets[i].to_le_bytes());
        out.extend(1_000_000_000u32.to_le_bytes());
        out.extend((name.len() as u16).to_le_bytes());
        out.extend(name_at.to_le_bytes());
        name_at += name.len() as u32;
    }
    out.extend(names);
    out
}
