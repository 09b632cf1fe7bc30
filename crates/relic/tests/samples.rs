//! `samples/` stays true: the committed files are what the generator writes, every registered format has a
//! sample, and identification agrees with each sample's format.

#[path = "../examples/make_samples.rs"]
mod make_samples;

use std::path::PathBuf;

fn samples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples")
}

#[test]
fn samples_match_generator() {
    for (path, bytes) in make_samples::build() {
        let committed = std::fs::read(samples_dir().join(path)).unwrap_or_else(|e| panic!("samples/{path}: {e}"));
        assert!(
            committed == bytes,
            "samples/{path} differs from what make_samples writes: run `cargo run -p relic --example make_samples`"
        );
    }
}

/// Formats whose files carry no magic (the registry knows them by extension only).
const NO_MAGIC: &[&str] = &["ei-mob"];

#[test]
fn every_registered_format_has_a_sample_identified_as_it() {
    let mut found = std::collections::HashSet::new();
    for entry in walkdir::WalkDir::new(samples_dir()) {
        let entry = entry.unwrap();
        if !entry.file_type().is_file() {
            continue;
        }
        let identified = relic::registry::identify_path(entry.path()).unwrap();
        let (format, confidence) = identified.unwrap_or_else(|| panic!("{} is not identified", entry.path().display()));
        // Formats without magic are identified by extension; every other sample by its magic.
        let expected = if NO_MAGIC.contains(&format.id) {
            relic::registry::Confidence::Extension
        } else {
            relic::registry::Confidence::Magic
        };
        assert_eq!(confidence, expected, "{}", entry.path().display());
        // The sample must also parse.
        let data = std::fs::read(entry.path()).unwrap();
        format.codec.info(&data).unwrap_or_else(|e| panic!("{}: {e}", entry.path().display()));
        found.insert(format.id);
    }
    for f in relic::FORMATS {
        assert!(found.contains(f.id), "registered format {} has no file in samples/", f.id);
    }
}

#[test]
fn sample_archive_holds_what_the_generator_put_in() {
    let data = std::fs::read(samples_dir().join("evil_islands/example.res")).unwrap();
    let res = relic::evil_islands::res::parse(&data).unwrap();
    let entries = relic::evil_islands::res::convert::entries(&res, "example.res");
    let mut paths: Vec<_> = entries.iter().map(|e| (e.path.as_str(), e.size)).collect();
    paths.sort();
    assert_eq!(
        paths,
        vec![
            ("readme.txt", 40),
            ("texts/quest q1", 21),
            ("texts/quest q1 copy", 21),
            ("unit.bon", 260),
            ("тексты/привет.txt", 16)
        ]
    );
    let q1 = res.find(b"texts\\quest q1").unwrap();
    let copy = res.find(b"TEXTS\\QUEST Q1 COPY").unwrap();
    assert_eq!(res.records[q1].offset, res.records[copy].offset, "identical contents are stored once");
    assert_eq!(res.data(copy), b"Find the lost soul.\r\n");
}

#[test]
fn formats_without_magic_are_listed_and_do_not_sniff_their_sample() {
    let data = std::fs::read(samples_dir().join("evil_islands/example.mob")).unwrap();
    for id in NO_MAGIC {
        let format = relic::registry::by_id(id).unwrap_or_else(|| panic!("{id} is not registered"));
        assert!(!format.codec.sniff(&data), "{id} has a magic now: take it off NO_MAGIC");
    }
}

#[test]
fn sample_level_holds_what_the_generator_put_in() {
    let data = std::fs::read(samples_dir().join("evil_islands/example.mob")).unwrap();
    let info = relic::evil_islands::mob::FORMAT.codec.info(&data).unwrap();
    assert_eq!(info["units"], 1);
    assert_eq!(info["script_key"], 0x1F2E_3D4C);
    let level = relic::evil_islands::mob::parse(&data).unwrap();
    let scripts = relic::evil_islands::mob::convert::scripts(&level);
    assert!(scripts[0].text.text.contains("Привет, Гипат!"));
}
