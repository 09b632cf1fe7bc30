//! Fixture folders sorted by expected outcome (DESIGN.md "Tests"): `tests/bad/<format>/` must be rejected
//! cleanly with a located error; `tests/regression/<format>/` must never panic.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn fixture_files(kind: &str) -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(kind);
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()) {
        let id = dir.file_name().unwrap().to_string_lossy().into_owned();
        for file in std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()) {
            out.push((id.clone(), file));
        }
    }
    out.sort();
    out
}

#[test]
fn bad_files_are_rejected_with_a_located_error() {
    let files = fixture_files("bad");
    assert!(!files.is_empty());
    for (id, path) in files {
        let format = relic::registry::by_id(&id).unwrap_or_else(|| panic!("tests/bad/{id}: no such format"));
        let data = std::fs::read(&path).unwrap();
        for (face, result) in
            [("info", format.codec.info(&data).map(|_| ())), ("to_json", format.codec.to_json(&data).map(|_| ()))]
        {
            let err = result.err().unwrap_or_else(|| panic!("{}: {face} accepted a bad file", path.display()));
            let at = err.location().unwrap_or_else(|| panic!("{}: error without location: {err}", path.display()));
            assert_eq!(at.format, id, "{}", path.display());
            assert!(!at.field.is_empty());
            assert!(at.offset <= data.len() as u64, "{}: offset {} beyond the file", path.display(), at.offset);
        }
    }
}

#[test]
fn regression_inputs_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regression");
    let files: Vec<_> = fixture_files("regression").into_iter().filter(|(_, p)| p.starts_with(&root)).collect();
    for (id, path) in files {
        let format = relic::registry::by_id(&id).unwrap_or_else(|| panic!("tests/regression/{id}: no such format"));
        let data = std::fs::read(&path).unwrap();
        let ran = catch_unwind(AssertUnwindSafe(|| {
            let _ = format.codec.info(&data);
            let _ = format.codec.to_json(&data);
            if let Some(Ok(entries)) = format.codec.entries(&data, &path.to_string_lossy()) {
                for e in entries {
                    let _ = e.data.bytes();
                }
            }
        }));
        assert!(ran.is_ok(), "{} panicked", path.display());
    }
}
