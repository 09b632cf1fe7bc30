//! Today's iRO client `data.grf`: GRF 0x300 signed `Event Horizon`, beside the older 0x300 header and both
//! signatures on every version; archives past 4 GiB; extraction patterns with the archive's own `\`; the
//! folder name `relic pack ro-grf mygrf/data` keeps.
//!
//! The fixtures are assembled byte by byte here from docs/formats/ragnarok.md#grf-event-horizon alone,
//! not by relic's writer:
//! - header, 46 bytes: the 16-byte signature field `Event Horizon\0RL`, a 14-byte key, a u64 table offset at
//!   0x1E (counted from byte 46), the u32 entry count itself at 0x26 (no seed, no −7), u32 version 0x300 at
//!   0x2A;
//! - at 46 + table offset: a 4-byte zero word, u32 packed size, u32 real size, the zlib table; per entry the
//!   CP949 name, NUL, u32 compressed, u32 aligned, u32 real size, u8 flags, u64 offset (21 bytes after the
//!   name);
//! - the older 0x300 header: the 0x200 one (u32 table offset, u32 seed, u32 count + seed + 7), told apart by
//!   bytes 35–37 not being all zero.

use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

use relic::ragnarok::grf::{self, parse, Signature};
use relic::{ops, Error};

/// `data\texture\유저인터페이스\` in CP949 (유 C0AF, 저 C0FA, 인 C0CE, 터 C5CD, 페 C6E4, 이 C0CC, 스 BDBA).
const UI_FOLDER: &[u8] = b"data\\texture\\\xC0\xAF\xC0\xFA\xC0\xCE\xC5\xCD\xC6\xE4\xC0\xCC\xBD\xBA\\";
const EVENT_HORIZON_FIELD: &[u8; 16] = b"Event Horizon\0RL";
/// The 14 key bytes GRF Editor writes.
const KEY14: [u8; 14] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];

use crate::common::zlib6 as zlib;

/// The entries of the fixtures: a bitmap in the Korean UI folder, a model, a text and an empty file.
fn contents() -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut bmp = b"BM".to_vec();
    bmp.extend((0..3000u32).map(|i| (i * 7 % 251) as u8));
    let mut ui_bmp = UI_FOLDER.to_vec();
    ui_bmp.extend_from_slice(b"basic_interface\\bg.bmp");
    vec![
        (b"data\\texture\\wall.bmp".to_vec(), bmp),
        (ui_bmp, b"BM tiny".to_vec()),
        (b"data\\model\\house.rsm".to_vec(), b"GRSM\x02\x03 model bytes".repeat(40)),
        (b"data\\readme.txt".to_vec(), b"event horizon".to_vec()),
        (b"data\\empty.txt".to_vec(), Vec::new()),
    ]
}

/// How a fixture's header is laid out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Head {
    /// The 2024 form: u64 table offset at 0x1E, the entry count at 0x26.
    Wide,
    /// The older 0x300 form (and every 0x200 header): u32 offset, seed, count + seed + 7.
    Narrow { seed: u32 },
}

/// An archive of `version` (0x200 or 0x300 tables) with the given 16-byte signature field and header form:
/// each entry's zlib stream zero-padded to 8 bytes from byte 46, then the table.
fn archive(field: &[u8; 16], version: u32, head: Head, entries: &[(Vec<u8>, Vec<u8>)]) -> Vec<u8> {
    let v3 = version == 0x300;
    let mut data = Vec::new();
    let mut table = Vec::new();
    for (name, content) in entries {
        let packed = zlib(content);
        let aligned = packed.len().div_ceil(8) * 8;
        table.extend_from_slice(name);
        table.push(0);
        for v in [packed.len(), aligned, content.len()] {
            table.extend_from_slice(&(v as u32).to_le_bytes());
        }
        table.push(1);
        if v3 {
            table.extend_from_slice(&(data.len() as u64).to_le_bytes());
        } else {
            table.extend_from_slice(&(data.len() as u32).to_le_bytes());
        }
        data.extend_from_slice(&packed);
        data.resize(data.len() + aligned - packed.len(), 0);
    }
    let mut out = field.to_vec();
    out.extend_from_slice(&KEY14);
    let n = entries.len() as u32;
    match head {
        Head::Wide => {
            out.extend_from_slice(&(data.len() as u64).to_le_bytes());
            out.extend_from_slice(&n.to_le_bytes());
        }
        Head::Narrow { seed } => {
            out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            out.extend_from_slice(&seed.to_le_bytes());
            out.extend_from_slice(&(n + seed + 7).to_le_bytes());
        }
    }
    out.extend_from_slice(&version.to_le_bytes());
    assert_eq!(out.len(), 46);
    out.extend_from_slice(&data);
    let packed = zlib(&table);
    if v3 {
        out.extend_from_slice(&0u32.to_le_bytes());
    }
    out.extend_from_slice(&(packed.len() as u32).to_le_bytes());
    out.extend_from_slice(&(table.len() as u32).to_le_bytes());
    out.extend_from_slice(&packed);
    out
}

fn event_horizon() -> Vec<u8> {
    archive(EVENT_HORIZON_FIELD, 0x300, Head::Wide, &contents())
}

/// The bytes `relic pack ro-grf x.json` writes from the JSON `relic convert --to json` made.
fn json_round_trip(bytes: &[u8]) -> (serde_json::Value, Vec<u8>) {
    let value = grf::FORMAT.to_json(bytes).unwrap();
    let text = serde_json::to_string(&value).unwrap();
    let back = grf::FORMAT.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap();
    (value, back)
}

use crate::common::write_file as write;

#[test]
fn a_hand_built_event_horizon_archive_reads() {
    let bytes = event_horizon();
    assert!(grf::FORMAT.sniff(&bytes));
    let archive = parse(&bytes).unwrap();
    assert_eq!(archive.signature, Signature::EventHorizon);
    assert_eq!((archive.header.version, archive.header.seed, archive.header.raw_count), (0x300, 0, 5));
    assert!(archive.header.is_wide());
    assert_eq!(archive.header.table_offset, u64::from_le_bytes(bytes[0x1E..0x26].try_into().unwrap()));
    // The key reads as under `Master of Magic`: the NUL ending the text, then the 14 key bytes.
    let mut key = [0u8; 15];
    key[1..].copy_from_slice(&KEY14);
    assert_eq!(archive.header.key, key);
    assert_eq!(archive.table_reserved, 0);
    let want = contents();
    assert_eq!(archive.len(), want.len());
    for (i, (name, content)) in want.iter().enumerate() {
        assert_eq!(&archive.entries[i].name_raw, name);
        assert!(archive.entries[i].name_exact);
        assert_eq!(&archive.read_entry(i).unwrap()[..], &content[..], "entry {i}");
    }
    assert_eq!(archive.entries[1].name, "data\\texture\\유저인터페이스\\basic_interface\\bg.bmp");
    assert_eq!(archive.find_ci("DATA/TEXTURE/WALL.BMP"), Some(0));

    let info = grf::FORMAT.info(&bytes).unwrap();
    assert_eq!(info["signature"], "Event Horizon");
    assert_eq!(info["version"], "0x300");
    assert_eq!(info["files"], 5);
    assert!(info["header"].as_str().unwrap().starts_with("64-bit"), "{info}");

    // The same through the operations on a file: identify, info, list, extract.
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "data.grf", &bytes);
    let (format, info) = ops::info(&path).unwrap();
    assert_eq!((format.id, info["signature"].as_str()), ("ro-grf", Some("Event Horizon")));
    let listed = ops::list(&path, false).unwrap();
    let paths: Vec<&str> = listed.iter().map(|e| &*e.path).collect();
    assert_eq!(
        paths,
        [
            "data/texture/wall.bmp",
            "data/texture/유저인터페이스/basic_interface/bg.bmp",
            "data/model/house.rsm",
            "data/readme.txt",
            "data/empty.txt"
        ]
    );
    let out = dir.path().join("out");
    let report = ops::extract(&path, &out, &ops::ExtractOptions::default(), &ops::Quiet).unwrap();
    assert!(report.failures.is_empty() && report.unmatched.is_empty(), "{:?}", report.failures);
    assert_eq!(report.written.len(), 5);
    assert_eq!(std::fs::read(out.join("data/texture/유저인터페이스/basic_interface/bg.bmp")).unwrap(), b"BM tiny");
    assert_eq!(std::fs::read(out.join("data/model/house.rsm")).unwrap(), want[2].1);
}

#[test]
fn an_event_horizon_archive_converts_and_writes_back_byte_for_byte() {
    let bytes = event_horizon();
    let (value, back) = json_round_trip(&bytes);
    assert_eq!(value["header"]["signature"], "Event Horizon");
    assert_eq!(value["header"]["version"], 0x300);
    assert!(back == bytes, "the JSON writes the archive back byte for byte");

    // The signature is the JSON's: `Master of Magic` changes the signature field only.
    let mut edited = value.clone();
    edited["header"]["signature"] = "Master of Magic".into();
    let mom = grf::FORMAT.from_json(edited, &Default::default()).unwrap();
    assert_eq!(&mom[..16], b"Master of Magic\0");
    assert_eq!(&mom[16..], &bytes[16..]);
    assert_eq!(parse(&mom).unwrap().signature, Signature::MasterOfMagic);
    // Documents of older relic have no signature: `Master of Magic`.
    let mut old = value.clone();
    old["header"].as_object_mut().unwrap().remove("signature");
    assert_eq!(grf::FORMAT.from_json(old, &Default::default()).unwrap(), mom);
    // Anything else is refused, naming the field.
    let mut bad = value;
    bad["header"]["signature"] = "Master of Disaster".into();
    let err = grf::FORMAT.from_json(bad, &Default::default()).unwrap_err().to_string();
    assert!(err.contains("header.signature") && err.contains("Event Horizon"), "{err}");

    // `relic convert --to json` of the archive file writes that JSON.
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "data.grf", &bytes);
    let req = ops::ConvertRequest { to: Some("json".into()), ..Default::default() };
    let report = ops::convert(&[path], &dir.path().join("conv"), &req, &ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let doc = dir.path().join("conv/data.grf.json");
    let text = std::fs::read(&doc).unwrap_or_else(|e| panic!("{e}: {:?}", report.outputs));
    let back = grf::FORMAT.from_json(serde_json::from_slice(&text).unwrap(), &Default::default()).unwrap();
    assert!(back == bytes);
}

#[test]
fn the_older_0x300_header_and_either_signature_on_any_version_read_and_write_back() {
    let mom: &[u8; 16] = b"Master of Magic\0";
    let cases = [
        ("0x300 older header, Master of Magic", archive(mom, 0x300, Head::Narrow { seed: 300 }, &contents())),
        (
            "0x300 older header, Event Horizon",
            archive(EVENT_HORIZON_FIELD, 0x300, Head::Narrow { seed: 0x1234 }, &contents()),
        ),
        ("0x300 wide, Master of Magic", archive(mom, 0x300, Head::Wide, &contents())),
        ("0x200, Event Horizon", archive(EVENT_HORIZON_FIELD, 0x200, Head::Narrow { seed: 3 }, &contents())),
        ("0x200, Master of Magic", archive(mom, 0x200, Head::Narrow { seed: 0 }, &contents())),
    ];
    for (label, bytes) in cases {
        let archive = parse(&bytes).unwrap_or_else(|e| panic!("{label}: {e}"));
        let signature = if label.contains("Event") { Signature::EventHorizon } else { Signature::MasterOfMagic };
        assert_eq!(archive.signature, signature, "{label}");
        assert_eq!(archive.header.is_wide(), label.contains("wide"), "{label}");
        assert_eq!(archive.len(), 5, "{label}");
        for (i, (name, content)) in contents().iter().enumerate() {
            assert_eq!(&archive.entries[i].name_raw, name, "{label}");
            assert_eq!(&archive.read_entry(i).unwrap()[..], &content[..], "{label}: entry {i}");
        }
        let (value, back) = json_round_trip(&bytes);
        assert_eq!(value["header"]["signature"], signature.name(), "{label}");
        assert!(back == bytes, "{label}: written back byte for byte");
    }
    // Neither signature: refused at byte 0, naming both.
    let mut bytes = event_horizon();
    bytes[14] = b'X';
    let err = parse(&bytes).unwrap_err();
    assert_eq!(err.location().map(|a| (a.field.as_str(), a.offset)), Some(("signature", 0)), "{err}");
    assert!(err.to_string().contains("Event Horizon") && err.to_string().contains("Master of Magic"), "{err}");
    assert!(!grf::FORMAT.sniff(&bytes));
}

#[test]
fn pack_version_0x300_writes_the_event_horizon_form() {
    let inputs = contents()
        .into_iter()
        .map(|(n, d)| grf::PackInput { name: n, source: grf::PackSource::Bytes(d) })
        .collect::<Vec<_>>();
    let bytes = grf::write_archive_bytes(inputs.clone(), 0x300).unwrap();
    // The layout of docs/formats/ragnarok.md#grf-event-horizon, read here by hand.
    assert_eq!(&bytes[..16], EVENT_HORIZON_FIELD);
    assert_eq!(&bytes[16..30], &KEY14);
    let table_offset = u64::from_le_bytes(bytes[0x1E..0x26].try_into().unwrap());
    assert_eq!(u32::from_le_bytes(bytes[0x26..0x2A].try_into().unwrap()), 5);
    assert_eq!(u32::from_le_bytes(bytes[0x2A..0x2E].try_into().unwrap()), 0x300);
    let table_at = 46 + table_offset as usize;
    assert_eq!(&bytes[table_at..table_at + 4], &[0; 4]);
    let packed = u32::from_le_bytes(bytes[table_at + 4..table_at + 8].try_into().unwrap()) as usize;
    assert_eq!(table_at + 12 + packed, bytes.len());
    let mut table = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::ZlibDecoder::new(&bytes[table_at + 12..]), &mut table).unwrap();
    let mut names = Vec::new();
    let mut at = 0;
    while at < table.len() {
        let nul = table[at..].iter().position(|&b| b == 0).unwrap();
        names.push(table[at..at + nul].to_vec());
        at += nul + 1 + 21;
    }
    assert_eq!(at, table.len(), "21 bytes after each name");
    let mut want: Vec<Vec<u8>> = contents().into_iter().map(|(n, _)| n).collect();
    want.sort();
    assert_eq!(names, want);
    // The other versions keep `Master of Magic`; the 0x300 form signed so is written when asked.
    assert_eq!(&grf::write_archive_bytes(inputs.clone(), 0x200).unwrap()[..16], b"Master of Magic\0");
    let mut mom = Vec::new();
    grf::write_archive_as(inputs, 0x300, Signature::MasterOfMagic, &mut mom).unwrap();
    assert_eq!(&mom[..16], b"Master of Magic\0");
    assert_eq!(&mom[16..], &bytes[16..]);

    // `relic pack ro-grf --version 0x300` from a folder.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("data/texture")).unwrap();
    std::fs::write(src.join("data/texture/wall.bmp"), b"BM wall").unwrap();
    let out = dir.path().join("v3.grf");
    ops::pack("ro-grf", &src, &out, &ops::PackOptions { version: Some(0x300), ..Default::default() }).unwrap();
    let written = std::fs::read(&out).unwrap();
    assert_eq!(&written[..16], EVENT_HORIZON_FIELD);
    let (_, info) = ops::info(&out).unwrap();
    assert_eq!((info["version"].as_str(), info["signature"].as_str()), (Some("0x300"), Some("Event Horizon")));
}

/// The process's peak resident memory in bytes (Linux), to show an archive is not read whole.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[test]
fn a_sparse_event_horizon_archive_past_4_gib_reads_in_bounded_memory() {
    // Entry A at offset 0; entry B and the table past 4 GiB. The file is sparse (`set_len`): it takes a
    // few kilobytes of disk, and relic maps it rather than reading it.
    let a = b"the first entry".to_vec();
    let b: Vec<u8> = (0..5000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    let (pa, pb) = (zlib(&a), zlib(&b));
    let offset_b: u64 = (1 << 32) + 4096;
    let mut table = Vec::new();
    for (name, packed, real, off) in
        [(&b"data\\a.txt"[..], &pa, a.len(), 0u64), (b"data\\far\\b.bin", &pb, b.len(), offset_b)]
    {
        table.extend_from_slice(name);
        table.push(0);
        for v in [packed.len(), packed.len().div_ceil(8) * 8, real] {
            table.extend_from_slice(&(v as u32).to_le_bytes());
        }
        table.push(1);
        table.extend_from_slice(&off.to_le_bytes());
    }
    let table_offset = offset_b + (pb.len().div_ceil(8) * 8) as u64;
    let mut header = EVENT_HORIZON_FIELD.to_vec();
    header.extend_from_slice(&KEY14);
    header.extend_from_slice(&table_offset.to_le_bytes());
    header.extend_from_slice(&2u32.to_le_bytes());
    header.extend_from_slice(&0x300u32.to_le_bytes());
    let packed_table = zlib(&table);
    let mut tail = 0u32.to_le_bytes().to_vec();
    tail.extend_from_slice(&(packed_table.len() as u32).to_le_bytes());
    tail.extend_from_slice(&(table.len() as u32).to_le_bytes());
    tail.extend_from_slice(&packed_table);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.grf");
    let mut f = std::fs::File::create(&path).unwrap();
    let size = 46 + table_offset + tail.len() as u64;
    f.set_len(size).unwrap();
    f.write_all(&header).unwrap();
    f.write_all(&pa).unwrap();
    f.seek(SeekFrom::Start(46 + offset_b)).unwrap();
    f.write_all(&pb).unwrap();
    f.seek(SeekFrom::Start(46 + table_offset)).unwrap();
    f.write_all(&tail).unwrap();
    drop(f);
    assert!(size > 1 << 32);

    let (_, info) = ops::info(&path).unwrap();
    assert_eq!(info["signature"], "Event Horizon");
    assert_eq!((info["file_size"].as_u64(), info["table_offset"].as_u64()), (Some(size), Some(46 + table_offset)));
    let listed = ops::list(&path, false).unwrap();
    assert_eq!(listed.iter().map(|e| &*e.path).collect::<Vec<_>>(), ["data/a.txt", "data/far/b.bin"]);
    let out = dir.path().join("out");
    let report = ops::extract(&path, &out, &ops::ExtractOptions::default(), &ops::Quiet).unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert_eq!(std::fs::read(out.join("data/a.txt")).unwrap(), a);
    assert_eq!(std::fs::read(out.join("data/far/b.bin")).unwrap(), b);
    // Only the pages holding the header, the entries and the table were touched: far below the archive.
    if let Some(peak) = peak_rss() {
        assert!(peak < 1 << 30, "peak resident memory {peak} bytes for a {size}-byte archive");
    }
    // Its JSON would hold the whole archive in memory: refused, pointing to extract and pack.
    let map = relic::source::open(&path).unwrap();
    let err = grf::FORMAT.to_json(&map).unwrap_err();
    assert!(matches!(err, Error::Limit { .. }), "{err}");
    assert!(err.to_string().contains("extract"), "{err}");
    // `check` still verifies it: the header and table written back are compared, entries never read.
    let checked = ops::check(std::slice::from_ref(&path), &ops::Quiet);
    assert_eq!(checked.len(), 1);
    assert_eq!((checked[0].format, checked[0].outcome, &checked[0].detail), (Some("ro-grf"), "identical", &None));
    if let Some(peak) = peak_rss() {
        assert!(peak < 1 << 30, "peak resident memory {peak} bytes after checking a {size}-byte archive");
    }
    // The library call behind it.
    let grf = grf::parse(&map).unwrap();
    assert_eq!(grf::check::first_difference(&grf).unwrap(), None);
}

#[test]
fn extraction_patterns_take_the_archives_backslash_and_report_what_matched_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "data.grf", &event_horizon());
    let extract = |globs: &[&str], out: &str| {
        let opts = ops::ExtractOptions { globs: globs.iter().map(|g| g.to_string()).collect(), ..Default::default() };
        ops::extract(&path, &dir.path().join(out), &opts, &ops::Quiet).unwrap()
    };
    let entries = |r: &ops::ExtractReport| {
        let mut e: Vec<String> = r.written.iter().map(|w| w.entry.clone()).collect();
        e.sort();
        e
    };
    let bmps = ["data\\texture\\wall.bmp", "data\\texture\\유저인터페이스\\basic_interface\\bg.bmp"];
    for (i, glob) in ["data\\texture\\*.bmp", "data/texture/*.bmp", "DATA\\Texture\\*.BMP", "*.bmp"].iter().enumerate()
    {
        let r = extract(&[glob], &format!("out{i}"));
        let mut want = bmps.map(String::from).to_vec();
        want.sort();
        assert_eq!(entries(&r), want, "{glob}");
        assert!(r.unmatched.is_empty(), "{glob}");
    }
    // A Korean folder named with `\`, any case.
    let r = extract(&["Data\\Texture\\유저인터페이스\\*"], "korean");
    assert_eq!(entries(&r), [bmps[1]]);
    // A pattern that matches nothing is reported (the CLI warns and exits 1); the others still extract.
    let r = extract(&["data\\texture\\*.tga", "data\\readme.txt"], "some");
    assert_eq!(r.unmatched, ["data\\texture\\*.tga"]);
    assert_eq!(entries(&r), ["data\\readme.txt"]);
    let r = extract(&["data\\sprite\\*"], "none");
    assert_eq!((r.unmatched.len(), r.written.len()), (1, 0));
    // Across many archives, only a pattern no archive matches.
    let other = write(
        dir.path(),
        "other.grf",
        &archive(b"Master of Magic\0", 0x200, Head::Narrow { seed: 0 }, &[(b"data\\x.tga".to_vec(), b"t".to_vec())]),
    );
    let opts = ops::ExtractOptions {
        globs: vec!["*.tga".into(), "*.wav".into(), "data\\readme.txt".into()],
        ..Default::default()
    };
    let r = ops::extract_many(&[path.clone(), other], &dir.path().join("many"), &opts, None, &ops::Quiet);
    assert_eq!(r.unmatched, ["*.wav"]);
}

/// Files under `root`, `/` separated, sorted.
fn tree(root: &Path) -> Vec<String> {
    let mut files: Vec<String> = walk(root, root);
    files.sort();
    files
}

fn walk(root: &Path, dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(root, &p));
        } else {
            out.push(p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"));
        }
    }
    out
}

fn names_of(path: &Path) -> Vec<String> {
    let mut names: Vec<String> = ops::list(path, false).unwrap().into_iter().map(|e| e.name.into_owned()).collect();
    names.sort();
    names
}

#[test]
fn a_folder_named_data_keeps_its_name_and_extractions_pack_back_under_the_same_names() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let files = |root: &Path| {
        std::fs::create_dir_all(root.join("texture")).unwrap();
        std::fs::write(root.join("texture/wall.bmp"), b"BM").unwrap();
        std::fs::write(root.join("readme.txt"), b"hi").unwrap();
    };
    files(&d.join("mygrf/data"));
    let pack = |input: &Path, out: &str| {
        let out = d.join(out);
        let report = ops::pack("ro-grf", input, &out, &ops::PackOptions::default()).unwrap();
        (out, report.notes)
    };
    // `pack ro-grf mygrf/data`: `data\…`, with a note saying why.
    let (one, notes) = pack(&d.join("mygrf/data"), "one.grf");
    assert_eq!(names_of(&one), ["data\\readme.txt", "data\\texture\\wall.bmp"]);
    assert!(notes.iter().any(|n| n.contains("data\\")), "{notes:?}");
    // Any case; also given as `.`-relative or with a trailing separator.
    files(&d.join("Up/DATA"));
    let (two, _) = pack(&d.join("Up/DATA/"), "two.grf");
    assert_eq!(names_of(&two), ["DATA\\readme.txt", "DATA\\texture\\wall.bmp"]);
    // Its parent: the same names; another folder is the root.
    assert_eq!(names_of(&pack(&d.join("mygrf"), "three.grf").0), names_of(&one));
    files(&d.join("patch"));
    let (four, notes) = pack(&d.join("patch"), "four.grf");
    assert_eq!(names_of(&four), ["readme.txt", "texture\\wall.bmp"]);
    assert!(notes.is_empty(), "{notes:?}");

    // Extractions pack back under the same names: into `out/`, and into `data/` (the default folder of
    // `relic extract data.grf`), which holds `data/` itself.
    for folder in ["out", "data"] {
        let target = d.join("x").join(folder);
        let report = ops::extract(&one, &target, &ops::ExtractOptions::default(), &ops::Quiet).unwrap();
        assert!(report.failures.is_empty());
        assert_eq!(tree(&target), ["data/readme.txt", "data/texture/wall.bmp"]);
        let (again, _) = pack(&target, &format!("again-{folder}.grf"));
        assert_eq!(names_of(&again), names_of(&one), "{folder}");
        assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&one).unwrap(), "{folder}: the same archive");
    }
}

/// Parses, inflates every entry and makes the JSON (the result borrows the input).
fn parse_all(b: &[u8]) -> relic::Result<usize> {
    let archive = parse(b)?;
    let mut n = 0;
    for i in 0..archive.len() {
        n += archive.read_entry(i).map(|d| d.len()).unwrap_or(0);
    }
    grf::FORMAT.to_json(b)?;
    Ok(n)
}

#[test]
fn damaged_event_horizon_archives_are_refused_or_written_back_as_they_are() {
    let bytes = archive(EVENT_HORIZON_FIELD, 0x300, Head::Wide, &contents()[..3]);
    let report = relic::testing::check_robustness(&bytes, true, parse_all);
    assert!(report.flips_rejected > 0);
    let mut parsed = 0;
    for pos in 0..bytes.len() {
        for mask in [0xFFu8, 0x01] {
            let mut b = bytes.clone();
            b[pos] ^= mask;
            let Ok(archive) = parse(&b) else { continue };
            parsed += 1;
            let doc = grf::convert::to_document(&archive);
            let back = grf::write_document_as(&doc, archive.signature).unwrap_or_else(|e| panic!("byte {pos}: {e}"));
            assert!(back == b, "byte {pos} flipped with 0x{mask:02X}");
            // `check` of an archive too large for its JSON reaches the same verdict without the document.
            assert_eq!(grf::check::first_difference(&archive).unwrap(), None, "byte {pos} flipped");
        }
    }
    assert!(parsed > 100, "only {parsed} variants parsed");
}

#[test]
fn checking_without_the_document_agrees_with_the_json_round_trip() {
    // Every form this file builds: what the JSON round trip gives, the check without a document gives too.
    for bytes in [
        event_horizon(),
        grf::write::write_archive_bytes(Vec::new(), 0x200).unwrap(),
        grf::write::write_archive_bytes(Vec::new(), 0x300).unwrap(),
    ] {
        let (_, written) = json_round_trip(&bytes);
        assert_eq!(written, bytes);
        let grf = parse(&bytes).unwrap();
        assert_eq!(grf::check::first_difference(&grf).unwrap(), None);
    }
}
