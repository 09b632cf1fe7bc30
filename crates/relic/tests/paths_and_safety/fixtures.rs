//! Fixture folders sorted by expected outcome (CONTRIBUTING.md, "Tests"): `tests/bad/<format>/` must be rejected
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
        for (face, result) in [("info", format.info(&data).map(|_| ())), ("to_json", format.to_json(&data).map(|_| ()))]
        {
            let err = result.err().unwrap_or_else(|| panic!("{}: {face} accepted a bad file", path.display()));
            let at = err.location().unwrap_or_else(|| panic!("{}: error without location: {err}", path.display()));
            assert_eq!(at.format, id, "{}", path.display());
            assert!(!at.field.is_empty());
            assert!(at.offset <= data.len() as u64, "{}: offset {} beyond the file", path.display(), at.offset);
        }
    }
}

/// Names a regression input is read under: formats without magic whose layouts depend on the file name are
/// read with each of them (a fuzz find of `ei-db` may need the tables of one file type).
fn names_for(id: &str, path: &Path) -> Vec<String> {
    match id {
        "ei-db" => ["x.idb", "x.ldb", "x.pdb", "x.sdb", "x.udb", "x.qdb", "acks.db", "prints.db", "x.db"]
            .map(String::from)
            .to_vec(),
        _ => vec![path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())],
    }
}

/// Every face of a format, as the fuzz targets run them: info, the lossless JSON and writing it back
/// (byte-identical when the file parses), archive entries, conversion and every exporter.
fn every_face(format: &'static relic::Format, name: &str, data: &[u8]) {
    let codec = format.for_name(name);
    let _ = codec.info(data);
    if let Ok(json) = codec.to_json(data) {
        if format.capabilities().write {
            let back = codec
                .from_json(json, &Default::default())
                .unwrap_or_else(|e| panic!("write_json of its own JSON: {e}"));
            assert!(back == data, "read → JSON → write changed the bytes");
        }
    }
    if let Some(entries) = codec.entries(data, name) {
        for e in entries.into_iter().flatten() {
            let _ = e.data.head(relic::asset::SNIFF_BYTES);
            let _ = e.data.bytes();
        }
        return;
    }
    for mips in [false, true] {
        let opts = relic::registry::ConvertOptions { mips, ..Default::default() };
        for asset in codec.convert(&relic::registry::ConvertInput::new(data, &opts)).into_iter().flatten() {
            for ext in relic::export::extensions_for(&asset.asset) {
                let _ = relic::export::export(&asset.asset, Some(ext), "x");
            }
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
        assert_eq!(
            path.file_name().and_then(|n| n.to_str()),
            Some(blake3::hash(&data).to_hex().as_str()),
            "{}: regression files are named by the BLAKE3 hash of their bytes",
            path.display()
        );
        for name in names_for(&id, &path) {
            let ran = catch_unwind(AssertUnwindSafe(|| every_face(format, &name, &data)));
            assert!(ran.is_ok(), "{} panicked (read as {name})", path.display());
        }
    }
}
