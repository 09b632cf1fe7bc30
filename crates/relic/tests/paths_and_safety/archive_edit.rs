//! `relic::ops::edit` (issue 24, "Editing an archive in place"): for every archive relic writes, the edited
//! archive reads back with exactly the planned entries and bytes; a GRF edited in place keeps every byte
//! before its old end (untouched entries are not rewritten) and `--repack` drops the dead space; names the
//! archive's encoding cannot hold are refused, naming them, with the archive untouched.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use relic::ops::{self, AddSpec, EditMethod, EditRequest};
use relic::ragnarok::grf;

/// Every entry of an archive as `name → bytes` (GRF, RES, FTG: the stored name with `\`; SRSC: the path).
fn entries(path: &Path) -> BTreeMap<String, Vec<u8>> {
    let data = std::fs::read(path).unwrap();
    let (format, _) = relic::registry::sniff(&data, &path.to_string_lossy()).unwrap();
    let list = format.entries(&data, &path.to_string_lossy()).unwrap().unwrap();
    list.iter()
        .map(|e| {
            let name = if e.record.is_some() { e.path.to_string() } else { e.name.to_string() };
            (name, e.data.bytes().unwrap().into_owned())
        })
        .collect()
}

fn map(pairs: &[(&str, &[u8])]) -> BTreeMap<String, Vec<u8>> {
    pairs.iter().map(|(n, b)| (n.to_string(), b.to_vec())).collect()
}

fn file(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn add(path: &Path, name: &str) -> AddSpec {
    AddSpec::File { path: path.to_path_buf(), name: Some(name.to_string()) }
}

/// A GRF of `version` holding `pairs` (names with `\`).
fn grf_of(version: u32, pairs: &[(&str, &[u8])]) -> Vec<u8> {
    let inputs = pairs
        .iter()
        .map(|(n, b)| grf::PackInput {
            name: grf::write::encode_name(n).unwrap(),
            source: grf::PackSource::Bytes(b.to_vec()),
        })
        .collect();
    grf::write_archive_bytes(inputs, version).unwrap()
}

/// Incompressible bytes (so compressed sizes are known to be large).
fn noise(n: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2_654_435_761).max(1);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}

#[test]
fn grf_in_place_edit_gives_exactly_the_new_entries_and_leaves_untouched_bytes_alone() {
    for version in [0x200, 0x300, 0x103] {
        let dir = tempfile::tempdir().unwrap();
        let big = noise(20_000, version);
        let archive = file(
            dir.path(),
            "data.grf",
            &grf_of(version, &[("data\\a.txt", b"alpha"), ("data\\b.bin", &big), ("data\\c.txt", b"gamma")]),
        );
        let before = std::fs::read(&archive).unwrap();
        let new_b = file(dir.path(), "b2", b"a new b");
        let new_d = file(dir.path(), "d", &noise(3000, 7));
        let request = EditRequest {
            add: vec![add(&new_b, "DATA/B.BIN"), add(&new_d, "data/texture/d.bmp")],
            delete: vec!["c.txt".into()],
            ..Default::default()
        };
        let report = ops::edit(&archive, &request).unwrap();
        assert_eq!(report.method, EditMethod::Append);
        assert_eq!(report.added, ["data\\texture\\d.bmp"]);
        assert_eq!(report.replaced, ["data\\b.bin"], "a replaced entry keeps its stored name");
        assert_eq!(report.deleted, ["data\\c.txt"]);
        assert_eq!(report.entries, 3);
        let after = std::fs::read(&archive).unwrap();
        assert_eq!(
            entries(&archive),
            map(&[("data\\a.txt", b"alpha"), ("data\\b.bin", b"a new b"), ("data\\texture\\d.bmp", &noise(3000, 7))]),
            "0x{version:X}"
        );
        // Only the header changed before the old end: untouched entries (and the old table) are as they were.
        assert!(after.len() > before.len());
        assert_eq!(after[grf::types::HEADER_SIZE..before.len()], before[grf::types::HEADER_SIZE..], "0x{version:X}");
        assert_ne!(after[..grf::types::HEADER_SIZE], before[..grf::types::HEADER_SIZE]);
        let (old, new) = (grf::parse(&before).unwrap(), grf::parse(&after).unwrap());
        let record = |g: &grf::Grf<'_>, name: &str| g.entries[g.find_ci(name).unwrap()].record;
        assert_eq!(record(&old, "data\\a.txt"), record(&new, "data\\a.txt"), "the untouched entry was not moved");
        assert_eq!(new.signature, old.signature);
        assert_eq!(new.header.version, version);
        // Dead space: b's old data and the old table; --repack drops it and keeps every entry.
        assert!(report.dead_bytes >= big.len() as u64, "{}", report.dead_bytes);
        let expected = entries(&archive);
        let repacked = ops::edit(&archive, &EditRequest { repack: true, ..Default::default() }).unwrap();
        assert_eq!(repacked.method, EditMethod::Repack);
        assert_eq!(entries(&archive), expected);
        let compact = std::fs::read(&archive).unwrap();
        assert!(
            compact.len() as u64 + report.dead_bytes <= after.len() as u64 + 64,
            "{} {}",
            compact.len(),
            after.len()
        );
        // Nothing is left dead: the next in-place edit of nothing reports none and a repack changes nothing.
        let again = ops::edit(&archive, &EditRequest { repack: true, ..Default::default() }).unwrap();
        assert_eq!(again.bytes_after, compact.len() as u64);
        assert_eq!(grf::parse(&compact).unwrap().header.version, version);
    }
}

#[test]
fn grf_names_are_cp949_and_a_name_it_cannot_hold_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let archive = file(dir.path(), "k.grf", &grf_of(0x200, &[("data\\a.txt", b"a")]));
    let before = std::fs::read(&archive).unwrap();
    let f = file(dir.path(), "x", b"x");
    let err = ops::edit(&archive, &EditRequest { add: vec![add(&f, "data/😀.bmp")], ..Default::default() })
        .unwrap_err()
        .to_string();
    assert!(err.contains("😀") && err.contains("CP949"), "{err}");
    assert_eq!(std::fs::read(&archive).unwrap(), before, "nothing written");
    // A Korean name is stored in CP949.
    ops::edit(&archive, &EditRequest { add: vec![add(&f, "data/유저인터페이스.bmp")], ..Default::default() }).unwrap();
    let bytes = std::fs::read(&archive).unwrap();
    let g = grf::parse(&bytes).unwrap();
    let e = &g.entries[g.find_ci("data\\유저인터페이스.bmp").unwrap()];
    assert_eq!(e.name_raw, relic::codec::text::encode(relic::codec::text::CP949, "data\\유저인터페이스.bmp").unwrap());
    // Names that could not be extracted safely are refused too.
    let err = ops::edit(&archive, &EditRequest { add: vec![add(&f, "../up.txt")], ..Default::default() })
        .unwrap_err()
        .to_string();
    assert!(err.contains("../up.txt"), "{err}");
}

#[test]
fn grf_merge_takes_a_patch_and_files_win_over_merged_entries() {
    let dir = tempfile::tempdir().unwrap();
    let archive = file(dir.path(), "data.grf", &grf_of(0x200, &[("data\\a.txt", b"old a"), ("data\\keep.txt", b"k")]));
    let patch =
        file(dir.path(), "patch.gpf", &grf_of(0x200, &[("data\\a.txt", b"patched a"), ("data\\n.txt", b"new")]));
    let later = file(dir.path(), "later.gpf", &grf_of(0x300, &[("data\\n.txt", b"newer")]));
    let f = file(dir.path(), "f", b"from a file");
    let request =
        EditRequest { merge: vec![patch, later.clone()], add: vec![add(&f, "data/a.txt")], ..Default::default() };
    ops::edit(&archive, &request).unwrap();
    assert_eq!(
        entries(&archive),
        map(&[("data\\a.txt", b"from a file"), ("data\\keep.txt", b"k"), ("data\\n.txt", b"newer")])
    );
    // A merged entry's compressed bytes are copied as they are, not compressed again.
    let (merged, source) = (std::fs::read(&archive).unwrap(), std::fs::read(&later).unwrap());
    let (g, l) = (grf::parse(&merged).unwrap(), grf::parse(&source).unwrap());
    let (gi, li) = (g.find_ci("data\\n.txt").unwrap(), l.find_ci("data\\n.txt").unwrap());
    assert_eq!(g.stored(gi), l.stored(li));
    // The same name added twice is refused.
    let err = ops::edit(&archive, &EditRequest { add: vec![add(&f, "x"), add(&f, "X")], ..Default::default() })
        .unwrap_err()
        .to_string();
    assert!(err.contains("added twice"), "{err}");
}

#[test]
fn grf_add_folder_keeps_a_data_folder_name_and_dry_run_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let archive = file(dir.path(), "data.grf", &grf_of(0x200, &[("data\\a.txt", b"a")]));
    let src = dir.path().join("mygrf/data/texture");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("t.bmp"), b"bmp").unwrap();
    std::fs::write(src.join("Thumbs.db"), b"litter").unwrap();
    let before = std::fs::read(&archive).unwrap();
    let request = EditRequest {
        add: vec![AddSpec::Folder { dir: dir.path().join("mygrf/data"), prefix: None }],
        dry_run: true,
        ..Default::default()
    };
    let report = ops::edit(&archive, &request).unwrap();
    assert_eq!(report.added, ["data\\texture\\t.bmp"]);
    assert!(report.dry_run);
    assert_eq!(std::fs::read(&archive).unwrap(), before);
    ops::edit(&archive, &EditRequest { dry_run: false, ..request }).unwrap();
    assert_eq!(entries(&archive), map(&[("data\\a.txt", b"a"), ("data\\texture\\t.bmp", b"bmp")]));
    // A prefix names the folder's files under it instead.
    let request = EditRequest {
        add: vec![AddSpec::Folder { dir: dir.path().join("mygrf/data"), prefix: Some("data/x".into()) }],
        ..Default::default()
    };
    ops::edit(&archive, &request).unwrap();
    assert!(entries(&archive).contains_key("data\\x\\texture\\t.bmp"));
}

#[test]
fn a_delete_pattern_that_matches_nothing_is_reported_and_backslashes_are_folders() {
    let dir = tempfile::tempdir().unwrap();
    let archive =
        file(dir.path(), "data.grf", &grf_of(0x200, &[("data\\texture\\a.bmp", b"a"), ("data\\model\\b.rsm", b"b")]));
    let request = EditRequest { delete: vec!["data\\texture\\*.bmp".into(), "nothing*".into()], ..Default::default() };
    let report = ops::edit(&archive, &request).unwrap();
    assert_eq!(report.deleted, ["data\\texture\\a.bmp"]);
    assert_eq!(report.unmatched, ["nothing*"]);
    assert_eq!(entries(&archive), map(&[("data\\model\\b.rsm", b"b")]));
    // Only an unmatched pattern: nothing changes, nothing is written.
    let before = std::fs::read(&archive).unwrap();
    let report = ops::edit(&archive, &EditRequest { delete: vec!["zzz".into()], ..Default::default() }).unwrap();
    assert_eq!(report.method, EditMethod::Unchanged);
    assert_eq!(std::fs::read(&archive).unwrap(), before);
}

fn res_of(pairs: &[(&str, &[u8], u32)]) -> Vec<u8> {
    use relic::evil_islands::res;
    let inputs = pairs
        .iter()
        .map(|(n, b, t)| res::PackInput {
            name: res::write::encode_name(n).unwrap(),
            modified: *t,
            source: res::PackSource::Bytes(b.to_vec()),
        })
        .collect();
    let mut out = Vec::new();
    res::write_archive(inputs, res::PackOptions::default(), &mut out).unwrap();
    out
}

#[test]
fn res_edit_rewrites_with_exactly_the_new_entries_times_and_cp1251_names() {
    use relic::evil_islands::res;
    let dir = tempfile::tempdir().unwrap();
    let archive = file(
        dir.path(),
        "t.res",
        &res_of(&[("a.txt", b"alpha", 100), ("b\\c.txt", b"gamma", 200), ("d.txt", b"delta", 300)]),
    );
    let f = file(dir.path(), "f", b"new c");
    let g = file(dir.path(), "g", b"privet");
    let request = EditRequest {
        add: vec![add(&f, "B/C.TXT"), add(&g, "тексты/привет.txt")],
        delete: vec!["d.*".into()],
        ..Default::default()
    };
    let report = ops::edit(&archive, &request).unwrap();
    assert_eq!(report.method, EditMethod::Rewrite);
    assert_eq!(report.replaced, ["b\\c.txt"]);
    assert_eq!(
        entries(&archive),
        map(&[("a.txt", b"alpha"), ("b\\c.txt", b"new c"), ("тексты\\привет.txt", b"privet")])
    );
    let bytes = std::fs::read(&archive).unwrap();
    let r = res::parse(&bytes).unwrap();
    let a = r.find(b"a.txt").unwrap();
    assert_eq!(r.records[a].modified, 100, "an untouched entry keeps its time");
    let cyr = relic::codec::text::encode(relic::codec::text::CP1251, "тексты\\привет.txt").unwrap();
    assert!(r.find(&cyr).is_some(), "stored in cp1251 and found by the game's hash lookup");
    assert!(r.unreachable().is_empty());
    let err = ops::edit(&archive, &EditRequest { add: vec![add(&f, "日本.txt")], ..Default::default() })
        .unwrap_err()
        .to_string();
    assert!(err.contains("日本.txt") && err.contains("cp1251"), "{err}");
    // No temporary file is left beside the archive.
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(names.iter().all(|n| !n.to_string_lossy().starts_with(".relic-")), "{names:?}");
}

#[test]
fn res_merges_another_res() {
    let dir = tempfile::tempdir().unwrap();
    let archive = file(dir.path(), "t.res", &res_of(&[("a.txt", b"alpha", 1)]));
    let other = file(dir.path(), "o.res", &res_of(&[("A.TXT", b"merged", 2), ("z.txt", b"zed", 3)]));
    ops::edit(&archive, &EditRequest { merge: vec![other], ..Default::default() }).unwrap();
    assert_eq!(entries(&archive), map(&[("a.txt", b"merged"), ("z.txt", b"zed")]));
}

#[test]
fn ftg_edit_keeps_order_and_duplicates_go_with_a_replaced_name() {
    use relic::dark_reign::ftg;
    let dir = tempfile::tempdir().unwrap();
    let new = |n: &str, d: &[u8]| ftg::NewEntry { name: n.into(), data: d.to_vec() };
    let bytes =
        ftg::write_new(&[new("ONE.PAL", b"pal"), new("TWO.SPR", b"two"), new("ONE.PAL", b"dup"), new("X.SPR", b"x")])
            .unwrap();
    let archive = file(dir.path(), "t.ftg", &bytes);
    let f = file(dir.path(), "f", b"new pal");
    let g = file(dir.path(), "g", b"added");
    let request = EditRequest {
        add: vec![add(&f, "one.pal"), add(&g, "NEW.SPR")],
        delete: vec!["X.SPR".into()],
        ..Default::default()
    };
    let report = ops::edit(&archive, &request).unwrap();
    assert_eq!(report.replaced, ["ONE.PAL"]);
    assert_eq!(report.deleted, ["ONE.PAL", "X.SPR"], "the later duplicate goes with the replaced name");
    let after = std::fs::read(&archive).unwrap();
    let parsed = ftg::parse(&after).unwrap();
    let names: Vec<&str> = parsed.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["ONE.PAL", "TWO.SPR", "NEW.SPR"], "directory order kept, new entries last");
    assert_eq!(entries(&archive), map(&[("ONE.PAL", b"new pal"), ("TWO.SPR", b"two"), ("NEW.SPR", b"added")]));
    let err = ops::edit(&archive, &EditRequest { add: vec![add(&f, &"n".repeat(40))], ..Default::default() })
        .unwrap_err()
        .to_string();
    assert!(err.contains("at most 27"), "{err}");
}

#[test]
fn srsc_records_are_replaced_by_type_id_and_group_and_added_by_their_file_name() {
    use relic::drakan::srsc;
    let dir = tempfile::tempdir().unwrap();
    let rec = |t: u16, id: u16, body: &[u8]| srsc::NewRecord { record_type: t, id, group: 0, body: body.to_vec() };
    let bytes = srsc::write_packed(
        srsc::types::VERSION_DRAKAN,
        &[rec(0x7001, 1, b"one"), rec(0x7001, 2, b"two"), rec(0x7002, 1, b"three")],
    )
    .unwrap();
    let archive = file(dir.path(), "t.rrc", &bytes);
    let f = file(dir.path(), "f", b"new two");
    let g = file(dir.path(), "g", b"four");
    let request = EditRequest {
        add: vec![add(&f, "7001_2.bin"), add(&g, "7003_9.bin")],
        delete: vec!["7002_*".into()],
        ..Default::default()
    };
    let report = ops::edit(&archive, &request).unwrap();
    assert_eq!(report.replaced, ["7001_2.bin"]);
    assert_eq!(report.deleted, ["7002_1.bin"]);
    assert_eq!(report.added, ["7003_9.bin"]);
    assert_eq!(entries(&archive), map(&[("7001_1.bin", b"one"), ("7001_2.bin", b"new two"), ("7003_9.bin", b"four")]));
    let after = std::fs::read(&archive).unwrap();
    let s = srsc::parse(&after).unwrap();
    assert_eq!(s.header.version, srsc::types::VERSION_DRAKAN);
    let kinds: Vec<(u16, u16)> = s.entries.iter().map(|e| (e.record_type, e.id)).collect();
    assert_eq!(kinds, [(0x7001, 1), (0x7001, 2), (0x7003, 9)]);
    let err = ops::edit(&archive, &EditRequest { add: vec![add(&f, "notarecord.txt")], ..Default::default() })
        .unwrap_err()
        .to_string();
    assert!(err.contains("notarecord.txt") && err.contains("<type hex>_<id>"), "{err}");
}

#[test]
fn only_archives_relic_writes_are_edited() {
    let dir = tempfile::tempdir().unwrap();
    let not_archive = file(dir.path(), "x.cam", &[0u8; 64]);
    assert!(ops::edit(&not_archive, &EditRequest { repack: true, ..Default::default() }).is_err());
    #[cfg(unix)]
    {
        let archive = file(dir.path(), "t.res", &res_of(&[("a", b"a", 0)]));
        let link = dir.path().join("link.res");
        std::os::unix::fs::symlink(&archive, &link).unwrap();
        let err = ops::edit(&link, &EditRequest { delete: vec!["a".into()], ..Default::default() }).unwrap_err();
        assert!(err.to_string().contains("link"), "{err}");
    }
}

#[test]
fn grf_repack_with_changes_writes_them_and_no_dead_space() {
    let dir = tempfile::tempdir().unwrap();
    let archive = file(
        dir.path(),
        "data.grf",
        &grf_of(0x300, &[("data\\a.txt", b"alpha"), ("data\\b.bin", &noise(9000, 5)), ("data\\c.txt", b"c")]),
    );
    let f = file(dir.path(), "f", &noise(4000, 6));
    let request = EditRequest {
        add: vec![add(&f, "data/b.bin"), add(&f, "data/new.bin")],
        delete: vec!["data/c.txt".into()],
        repack: true,
        ..Default::default()
    };
    let report = ops::edit(&archive, &request).unwrap();
    assert_eq!(report.method, EditMethod::Repack);
    let expected =
        map(&[("data\\a.txt", b"alpha"), ("data\\b.bin", &noise(4000, 6)), ("data\\new.bin", &noise(4000, 6))]);
    assert_eq!(entries(&archive), expected);
    // Nothing dead is left: a second repack writes the same bytes.
    let once = std::fs::read(&archive).unwrap();
    ops::edit(&archive, &EditRequest { repack: true, ..Default::default() }).unwrap();
    assert_eq!(std::fs::read(&archive).unwrap(), once);
}

#[test]
fn add_arguments_split_at_an_equals_sign_whose_left_side_exists() {
    let dir = tempfile::tempdir().unwrap();
    let plain = file(dir.path(), "x.bmp", b"x");
    let odd = file(dir.path(), "a=b.bmp", b"y");
    let arg = |p: &Path, rest: &str| format!("{}{rest}", p.display());
    assert_eq!(AddSpec::parse(&arg(&plain, ""), false), AddSpec::File { path: plain.clone(), name: None });
    assert_eq!(
        AddSpec::parse(&arg(&plain, "=data\\x=1.bmp"), false),
        AddSpec::File { path: plain.clone(), name: Some("data\\x=1.bmp".into()) }
    );
    assert_eq!(AddSpec::parse(&arg(&odd, ""), false), AddSpec::File { path: odd.clone(), name: None });
    assert_eq!(AddSpec::parse(&arg(&odd, "=n"), false), AddSpec::File { path: odd, name: Some("n".into()) });
    assert_eq!(
        AddSpec::parse("missing=name", true),
        AddSpec::Folder { dir: PathBuf::from("missing"), prefix: Some("name".into()) }
    );
}
