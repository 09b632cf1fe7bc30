//! Read → JSON → write is byte-identical for every file relic can write: each file under `samples/` and
//! `../shared/corpus/` whose format is writable, and each writable entry of their archives (nested archives
//! included), goes through `codec.to_json` and back through `codec.write_json`, both as the JSON value and
//! as the pretty JSON text `relic convert --to json` writes. Any file that does not come back byte for byte
//! is named.
//!
//! The README notes that some corpus archives are not byte-identical through *folder* packing (the game's
//! RES archives lose their table order, the `.mod` archives in `auxData.res` their data order); through the
//! JSON document every one of them comes back identical, which this test asserts.

use std::path::{Path, PathBuf};

use relic::registry::{sniff, Format};

/// Archives are descended at most this deep (a RES inside a RES inside a RES is already unusual).
const MAX_NESTING: usize = 4;

#[derive(Default)]
struct Tally {
    /// Files on disk checked, as `path (format)`.
    files: Vec<String>,
    /// Archive entries checked, as `archive/entry (format)`.
    nested: Vec<String>,
    /// Archive entries whose name or magic says a writable format but which that format does not read
    /// (e.g. the extensionless bone files of a `.bon`, or a text that happens to be called `x.cam`).
    unread_entries: Vec<String>,
    failures: Vec<String>,
}

fn writable(name: &str, bytes: &[u8]) -> Option<&'static Format> {
    sniff(bytes, name).map(|(f, _)| f).filter(|f| f.capabilities().write)
}

/// The first offset where `a` and `b` differ (the shorter length when one is a prefix of the other).
fn first_difference(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()))
}

/// Writes `bytes` back through its JSON document; `None` when identical, else what went wrong.
fn through_json(format: &'static Format, name: &str, bytes: &[u8]) -> Result<(), String> {
    let codec = format.for_name(name);
    let value = codec.to_json(bytes).map_err(|e| format!("reading: {e}"))?;
    let text = relic::export::json::to_pretty(&value).map_err(|e| format!("JSON text: {e}"))?;
    let from_text: serde_json::Value = serde_json::from_slice(&text).map_err(|e| format!("JSON text: {e}"))?;
    for (how, value) in [("value", value), ("text", from_text)] {
        let written = codec
            .from_json(value, &Default::default())
            .map_err(|e| format!("writing back from the JSON {how}: {e}"))?;
        if written != bytes {
            return Err(format!(
                "differs through the JSON {how}: first difference at offset 0x{:X} ({} bytes written, {} read)",
                first_difference(&written, bytes),
                written.len(),
                bytes.len()
            ));
        }
    }
    Ok(())
}

/// Checks one file or entry (`label` names it in messages, `name` is what its format is chosen by), then the
/// entries of an archive.
fn check(label: &str, name: &str, bytes: &[u8], depth: usize, tally: &mut Tally) {
    let Some(format) = writable(name, bytes) else { return };
    let tag = format!("{label} ({})", format.id);
    if depth > 0 && format.for_name(name).info(bytes).is_err() {
        tally.unread_entries.push(tag);
        return;
    }
    if let Err(e) = through_json(format, name, bytes) {
        tally.failures.push(format!("{tag}: {e}"));
    }
    if depth == 0 {
        tally.files.push(tag);
    } else {
        tally.nested.push(tag);
    }
    if depth >= MAX_NESTING {
        return;
    }
    let Some(entries) = format.entries(bytes, name) else { return };
    let entries = match entries {
        Ok(e) => e,
        Err(e) => return tally.failures.push(format!("{label}: listing entries: {e}")),
    };
    for entry in entries {
        // The stored name, not the extraction path: `.bon` entries get their parent's extension in the path.
        let entry_name = entry.name.replace('\\', "/");
        let entry_label = format!("{label}/{entry_name}");
        let head = match entry.data.head(relic::asset::SNIFF_BYTES) {
            Ok(h) => h,
            Err(_) => continue, // encrypted or otherwise unreadable entries: not this test's business
        };
        if writable(&entry_name, &head).is_none() {
            continue;
        }
        match entry.data.bytes() {
            Ok(data) => check(&entry_label, &entry_name, &data, depth + 1, tally),
            Err(e) => tally.failures.push(format!("{entry_label}: reading the entry: {e}")),
        }
    }
}

fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.unwrap_or_else(|err| panic!("walking {}: {err}", root.display())))
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    files.sort();
    files
}

fn check_tree(root: &Path) -> Tally {
    let mut tally = Tally::default();
    for path in files_under(root) {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let label = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let name = path.to_string_lossy().into_owned();
        check(&label, &name, &bytes, 0, &mut tally);
    }
    for line in tally.files.iter().chain(&tally.nested) {
        eprintln!("identical through JSON: {line}");
    }
    for line in &tally.unread_entries {
        eprintln!("not read by the format its name says (skipped): {line}");
    }
    assert!(
        tally.failures.is_empty(),
        "{} file(s) under {} do not write back byte for byte through JSON:\n{}",
        tally.failures.len(),
        root.display(),
        tally.failures.join("\n")
    );
    tally
}

fn repo_root() -> PathBuf {
    crate::common::repo_root()
}

#[test]
fn every_sample_writes_back_byte_for_byte_through_json() {
    let tally = check_tree(&repo_root().join("samples"));
    // Every file of samples/ is of a writable format (one per format at least, `samples.rs` checks that),
    // example.res holds one nested archive (unit.bon), SPRITES.FTG a palette and a sprite, unit.anm one
    // animation (a RES), unit.mod two FIG parts (its LNK has no magic and no extension). A test that checks
    // nothing must fail.
    assert_eq!(tally.files.len(), crate::contract::samples().len(), "sample files checked: {:#?}", tally.files);
    assert_eq!(
        tally.nested,
        [
            "dark_reign/SPRITES.FTG/UNIT.SPR (dr-spr)",
            "dark_reign/SPRITES.FTG/BARREN.PAL (dr-pal)",
            "evil_islands/example.res/unit.bon (ei-res)",
            "evil_islands/unit.anm/idle (ei-res)",
            "evil_islands/unit.mod/head (ei-fig)",
            "evil_islands/unit.mod/body (ei-fig)",
            // The GRF sample's texture is a format of its own since issue 24 (`ro-texture`).
            "ragnarok/example.grf/data/texture/유저인터페이스/sample.bmp (ro-texture)"
        ]
        .map(String::from)
    );
    assert!(tally.unread_entries.is_empty(), "{:#?}", tally.unread_entries);
    let formats: std::collections::BTreeSet<&str> =
        tally.files.iter().filter_map(|l| l.rsplit_once(" (")).map(|(_, f)| f.trim_end_matches(')')).collect();
    // `dr-ftg-spr` is never identified (no magic, no extension: `--format` only), so it has no sample; its
    // round trip is tested in `dr_spr.rs`.
    let writable: std::collections::BTreeSet<&str> = relic::FORMATS
        .iter()
        .filter(|f| f.capabilities().write && !["dr-ftg-spr", "ro-table"].contains(&f.id))
        .map(|f| f.id)
        .collect();
    assert_eq!(formats, writable, "every writable format is checked on a sample");
}

#[test]
fn every_corpus_file_writes_back_byte_for_byte_through_json() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !corpus.is_dir() {
        eprintln!("skipped: ../shared/corpus not found");
        return;
    }
    let tally = check_tree(&corpus);
    // The corpus files of writable formats (see the corpus README): three Evil Islands files, the GRF and
    // seven RSM/RSM2 models. More may be added; none of these may go unchecked.
    for known in [
        "evil-islands/auxData.res (ei-res)",
        "evil-islands/base_village-lmp_.mob (ei-mob)",
        "evil-islands/texts_en.res (ei-res)",
        "ragnarok/dish_01.rsm (ro-rsm)",
        "ragnarok/fountain.rsm (ro-rsm)",
        "ragnarok/goldberg_s_01.rsm2 (ro-rsm)",
        "ragnarok/goldberg_textures.grf (ro-grf)",
        "ragnarok/handmade_v0104.rsm (ro-rsm)",
        "ragnarok/handmade_v0203.rsm2 (ro-rsm)",
        "ragnarok/jail_01.rsm (ro-rsm)",
        "ragnarok/pillar_01.rsm (ro-rsm)",
    ] {
        assert!(tally.files.iter().any(|f| f == known), "{known} was not checked: {:#?}", tally.files);
    }
    eprintln!("{} corpus files and {} archive entries identical", tally.files.len(), tally.nested.len());
}
