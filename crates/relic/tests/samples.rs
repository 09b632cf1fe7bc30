//! `samples/` stays true: the committed files are what the generator writes, every registered format has a
//! sample, and identification agrees with each sample's format.

#[path = "../examples/make_samples.rs"]
mod make_samples;

use std::path::PathBuf;

/// Registered formats that have no magic (identified by extension only).
const NO_MAGIC: &[&str] = &["ei-cam"];

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
        // Formats without magic are identified by extension; every other sample must match its magic.
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
    for id in NO_MAGIC {
        let f = relic::registry::by_id(id).unwrap();
        for (path, bytes) in make_samples::build() {
            assert!(!f.codec.sniff(&bytes), "{id} claims a magic match on samples/{path}");
        }
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
