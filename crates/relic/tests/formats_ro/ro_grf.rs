//! Ragnarok Online GRF archives (`ro-grf`): reader, lazily inflated entries, lossless document, writer,
//! extraction and the texture lookup.
//!
//! Layout (version 0x200; the specs folder has no GRF text, see `relic::ragnarok::grf`'s notes):
//! - header, 46 bytes: `Master of Magic`, 15 key bytes, u32 `table_offset` (from byte 46), u32 `seed`,
//!   u32 `raw_count` (= entries + seed + 7), u32 `version`;
//! - at 46 + `table_offset`: u32 compressed size, u32 inflated size, zlib stream of the table;
//! - table entry: NUL-terminated CP949 name, u32 compressed size, u32 aligned size, u32 real size, u8 flags
//!   (0x01 file, 0x02/0x04 DES), u32 data offset (from byte 46);
//! - entry data: zlib streams, zero padded to 8 bytes.
//!
//! The fixtures are assembled byte by byte here (flate2 at level 6 compresses the payloads), independently of
//! relic's writer. The corpus file comes from `../shared/corpus/ragnarok/` when it exists.

use std::path::Path;

use proptest::prelude::*;
use relic::asset::EntryData;
use relic::ragnarok::grf::{
    self, convert, parse, write::encode_name, write_archive_bytes, write_document, Grf, GrfDocument, GrfHeader,
    GrfRecord, PackInput, PackSource,
};
use relic::{ops, Error};

// =========================================================================================================
// Hand-made fixtures

const KEY: [u8; 15] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];

use crate::common::zlib6;

/// One table entry of a hand-made archive.
#[derive(Debug, Clone)]
struct Fx {
    name: Vec<u8>,
    /// Bytes stored in the archive (a zlib stream, or raw); empty and unstored for folder records.
    stored: Vec<u8>,
    real: u32,
    flags: u8,
}

fn file(name: &[u8], content: &[u8]) -> Fx {
    Fx { name: name.to_vec(), stored: zlib6(content), real: content.len() as u32, flags: 1 }
}

/// Options of [`assemble`].
#[derive(Debug, Clone)]
struct Layout {
    seed: u32,
    version: u32,
    /// Padding byte after each entry's data (zeros in real files).
    pad: u8,
    /// Bytes appended to the inflated table after the entries.
    table_trailing: Vec<u8>,
    /// Overrides the table's declared inflated size.
    table_real: Option<u32>,
}

impl Default for Layout {
    fn default() -> Self {
        Layout { seed: 3, version: 0x200, pad: 0, table_trailing: Vec::new(), table_real: None }
    }
}

/// Assembles a GRF: header, the file entries' data in *reverse* table order (as the corpus file does,
/// data order need not follow the table) each padded to 8, then the table.
fn assemble(entries: &[Fx], layout: &Layout) -> Vec<u8> {
    let mut out = vec![0u8; 46];
    let mut offsets = vec![0u32; entries.len()];
    for (i, e) in entries.iter().enumerate().rev() {
        if e.flags & 1 == 0 {
            continue;
        }
        offsets[i] = (out.len() - 46) as u32;
        out.extend_from_slice(&e.stored);
        while out.len() % 8 != 6 {
            // 46 ≡ 6 (mod 8): aligned relative to byte 46.
            out.push(layout.pad);
        }
    }
    let mut table = Vec::new();
    for (e, &offset) in entries.iter().zip(&offsets) {
        table.extend_from_slice(&e.name);
        table.push(0);
        let size = e.stored.len() as u32;
        table.extend_from_slice(&size.to_le_bytes());
        table.extend_from_slice(&size.div_ceil(8).wrapping_mul(8).to_le_bytes());
        table.extend_from_slice(&e.real.to_le_bytes());
        table.push(e.flags);
        table.extend_from_slice(&offset.to_le_bytes());
    }
    table.extend_from_slice(&layout.table_trailing);
    let packed = zlib6(&table);
    let table_offset = (out.len() - 46) as u32;
    out.extend_from_slice(&(packed.len() as u32).to_le_bytes());
    out.extend_from_slice(&layout.table_real.unwrap_or(table.len() as u32).to_le_bytes());
    out.extend_from_slice(&packed);
    out[0..15].copy_from_slice(b"Master of Magic");
    out[15..30].copy_from_slice(&KEY);
    out[30..34].copy_from_slice(&table_offset.to_le_bytes());
    out[34..38].copy_from_slice(&layout.seed.to_le_bytes());
    out[38..42].copy_from_slice(&(entries.len() as u32 + layout.seed + 7).to_le_bytes());
    out[42..46].copy_from_slice(&layout.version.to_le_bytes());
    out
}

/// CP949 `data\텍스트\안녕.txt`.
const KOREAN_NAME: &[u8] = &[
    b'd', b'a', b't', b'a', b'\\', 0xC5, 0xD8, 0xBD, 0xBA, 0xC6, 0xAE, b'\\', 0xBE, 0xC8, 0xB3, 0xE7, b'.', b't', b'x',
    b't',
];
/// CP949 `안녕하세요`, the Korean entry's content.
const ANNYEONG: &[u8] = &[0xBE, 0xC8, 0xB3, 0xE7, 0xC7, 0xCF, 0xBC, 0xBC, 0xBF, 0xE4];
const README: &[u8] = b"Hello from a hand-made GRF.\r\nHello from a hand-made GRF.\r\n";
/// 16 bytes stored raw (equal sizes, no zlib header).
const RAW: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// The main fixture: a file, a CP949-named file, a folder record, a raw-stored file and an empty file.
fn main_entries() -> Vec<Fx> {
    vec![
        file(b"data\\readme.txt", README),
        file(KOREAN_NAME, ANNYEONG),
        Fx { name: b"data\\sub".to_vec(), stored: Vec::new(), real: 0, flags: 0 },
        Fx { name: b"data\\raw.bin".to_vec(), stored: RAW.to_vec(), real: 16, flags: 1 },
        file(b"data\\EMPTY.TXT", b""),
    ]
}

fn main_fixture() -> Vec<u8> {
    assemble(&main_entries(), &Layout::default())
}

#[test]
fn hand_made_header_and_table() {
    let bytes = main_fixture();
    let grf = parse(&bytes).unwrap();
    let table_offset = u32::from_le_bytes(bytes[30..34].try_into().unwrap());
    let header = GrfHeader { key: KEY, table_offset: table_offset.into(), seed: 3, raw_count: 15, version: 0x200 };
    assert_eq!(grf.header, header);
    assert_eq!(grf.header.entry_count(), Some(5));
    assert_eq!(grf.len(), 5);
    assert_eq!(grf.file_count(), 4);
    let names: Vec<&str> = grf.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["data\\readme.txt", "data\\텍스트\\안녕.txt", "data\\sub", "data\\raw.bin", "data\\EMPTY.TXT"]);
    assert!(grf.entries.iter().all(|e| e.name_exact));
    assert_eq!(grf.entries[1].name_raw, KOREAN_NAME);
    // Data lies in reverse table order: EMPTY.TXT first (8-byte zlib stream of nothing), then raw.bin, …
    let empty = grf.entries[4].record;
    assert_eq!(empty, GrfRecord { compressed_size: 8, aligned_size: 8, real_size: 0, flags: 1, offset: 0 });
    assert_eq!(
        grf.entries[3].record,
        GrfRecord { compressed_size: 16, aligned_size: 16, real_size: 16, flags: 1, offset: 8 }
    );
    let korean = grf.entries[1].record;
    assert_eq!(korean.offset, 24);
    assert_eq!(korean.real_size, 10);
    assert_eq!(korean.aligned_size, korean.compressed_size.div_ceil(8) * 8);
    let readme = grf.entries[0].record;
    assert_eq!(readme.offset, 24 + u64::from(korean.aligned_size));
    assert_eq!(readme.real_size, README.len() as u32);
    assert_eq!(
        grf.entries[2].record,
        GrfRecord { compressed_size: 0, aligned_size: 0, real_size: 0, flags: 0, offset: 0 }
    );
    assert!(grf.table_trailing.is_empty());
    assert_eq!(grf.table_packed_size as usize, grf.table_packed.len());
    assert_eq!(grf.table_packed.len() + 8 + 46 + table_offset as usize, bytes.len());
}

#[test]
fn hand_made_entries_and_bytes() {
    let bytes = main_fixture();
    let grf = parse(&bytes).unwrap();
    let entries = convert::entries(&grf);
    let got: Vec<(&str, &str, u64, Option<u64>)> =
        entries.iter().map(|e| (&*e.name, &*e.path, e.size, e.modified)).collect();
    assert_eq!(
        got,
        [
            ("data\\readme.txt", "data/readme.txt", README.len() as u64, None),
            ("data\\텍스트\\안녕.txt", "data/텍스트/안녕.txt", 10, None),
            ("data\\raw.bin", "data/raw.bin", 16, None),
            ("data\\EMPTY.TXT", "data/EMPTY.TXT", 0, None),
        ]
    );
    assert_eq!(entries[1].name_raw.as_ref(), KOREAN_NAME);
    assert_eq!(entries[0].data.bytes().unwrap().as_ref(), README);
    assert_eq!(entries[1].data.bytes().unwrap().as_ref(), ANNYEONG);
    assert_eq!(entries[2].data.bytes().unwrap().as_ref(), RAW);
    assert!(matches!(entries[2].data, EntryData::Stored(_)), "equal sizes without a zlib header are stored");
    assert!(matches!(entries[0].data, EntryData::Zlib { .. }));
    assert_eq!(entries[3].data.bytes().unwrap().as_ref(), b"");
    assert_eq!(entries[0].data.head(5).unwrap().as_ref(), b"Hello");
    // The folder record is no entry, and reading it is refused.
    assert!(matches!(grf.read_entry(2), Err(Error::Unsupported(m)) if m.contains("folder")));
    assert_eq!(grf.read_entry(1).unwrap().as_ref(), ANNYEONG);
}

#[test]
fn find_ci_ignores_ascii_case_and_slash_direction() {
    let bytes = main_fixture();
    let grf = parse(&bytes).unwrap();
    assert_eq!(grf.find_ci("data\\readme.txt"), Some(0));
    assert_eq!(grf.find_ci("DATA/README.TXT"), Some(0));
    assert_eq!(grf.find_ci("data/텍스트\\안녕.TXT"), Some(1));
    assert_eq!(grf.find_ci("data/empty.txt"), Some(4));
    assert_eq!(grf.find_ci("data/sub"), None, "folder records are not found");
    assert_eq!(grf.find_ci("data/readme.tx"), None);
    assert_eq!(grf.find_ci("readme.txt"), None);

    // CP949 trail bytes can be ASCII letters: 0xB0 0x41 (캚) and 0xB0 0x61 (캻) are different characters,
    // so a byte-wise case-insensitive compare would confuse them. Lookups compare decoded text.
    let bytes = assemble(&[file(b"\xB0\x41.txt", b"one"), file(b"\xB0\x61.txt", b"two")], &Layout::default());
    let grf = parse(&bytes).unwrap();
    assert_eq!(grf.entries[0].name, "캚.txt");
    assert_eq!(grf.entries[1].name, "캻.txt");
    assert_eq!(grf.find_ci("캻.TXT"), Some(1));
    assert_eq!(grf.read_entry(grf.find_ci("캚.txt").unwrap()).unwrap().as_ref(), b"one");
}

#[test]
fn info_summarises_the_archive() {
    let bytes = main_fixture();
    let info = grf::FORMAT.info(&bytes).unwrap();
    assert_eq!(info["format"], "ro-grf");
    assert_eq!(info["version"], "0x200");
    assert_eq!(info["entries"], 5);
    assert_eq!(info["files"], 4);
    assert_eq!(info["folders"], 1);
    assert_eq!(info["encrypted_entries"], 0);
    assert_eq!(info["seed"], 3);
    assert_eq!(info["file_size"], bytes.len());
    assert_eq!(info["content_bytes"], README.len() + 10 + 16);
    let grf = parse(&bytes).unwrap();
    assert_eq!(info["table_real_size"], grf.table_real_size);
    assert_eq!(info["table_offset"], 46 + grf.header.table_offset);
}

#[test]
fn sniffing_needs_the_signature() {
    assert!(grf::FORMAT.sniff(b"Master of Magic\0\x01\x02"));
    assert!(!grf::FORMAT.sniff(b"Master of Magi"));
    let (f, c) = relic::registry::sniff(&main_fixture(), "x.bin").unwrap();
    assert_eq!((f.id, c), ("ro-grf", relic::registry::Confidence::Magic));
    let (f, _) = relic::registry::sniff(&main_fixture(), "patch.GPF").unwrap();
    assert_eq!(f.id, "ro-grf");
    // Without the signature a `.gpf` is nothing (issue 26: names need bytes that agree).
    assert!(relic::registry::sniff(b"nope", "patch.GPF").is_none());
}

// =========================================================================================================
// Lossless documents

fn json_round_trip(bytes: &[u8]) -> (serde_json::Value, Vec<u8>) {
    let value = grf::FORMAT.to_json(bytes).unwrap();
    // Through text, as `convert --to json` + `pack` do.
    let text = serde_json::to_string_pretty(&value).unwrap();
    let back = grf::FORMAT.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap();
    (value, back)
}

#[test]
fn documents_rebuild_byte_identically() {
    let bytes = main_fixture();
    let (value, back) = json_round_trip(&bytes);
    assert_eq!(back, bytes);
    assert_eq!(value["header"]["raw_count"], 15);
    assert_eq!(value["entries"][1]["name"], "data\\텍스트\\안녕.txt");
    assert!(value["entries"][2].get("data").is_none(), "folder records carry no data");
    assert!(value.get("gaps").is_none(), "zero padding is implied");

    // Non-zero padding, trailing table bytes and a zero seed are kept too.
    let layout = Layout { seed: 0, pad: 0xAA, table_trailing: vec![9, 8, 7], ..Default::default() };
    let odd = assemble(&main_entries(), &layout);
    let grf = parse(&odd).unwrap();
    assert_eq!(grf.table_trailing, [9, 8, 7]);
    let (value, back) = json_round_trip(&odd);
    assert_eq!(back, odd);
    assert!(!value["gaps"].as_array().unwrap().is_empty());
}

#[test]
fn a_table_compressed_by_another_zlib_is_kept_as_stored() {
    // Our fixture's table is zlib level 6; relic writes level 9. The document must keep level 6's bytes.
    let bytes = main_fixture();
    let grf = parse(&bytes).unwrap();
    let rows = grf.entries.iter().map(|e| (e.name_raw.as_slice(), None, e.record));
    let table = grf::write::table_bytes(grf::types::Layout::V2, rows, &[]).unwrap();
    assert_ne!(relic::codec::zlib::compress(&table, 9), grf.table_packed, "the test needs differing zlib output");
    let doc = convert::to_document(&grf);
    assert_eq!(write_document(&doc).unwrap(), bytes);
}

#[test]
fn edited_documents_get_a_new_table() {
    let bytes = main_fixture();
    let mut doc: GrfDocument = serde_json::from_value(grf::FORMAT.to_json(&bytes).unwrap()).unwrap();
    doc.entries[0].name = "data\\a much longer name than before.txt".into();
    let out = write_document(&doc).unwrap();
    let grf = parse(&out).unwrap();
    assert_eq!(grf.entries[0].name, "data\\a much longer name than before.txt");
    assert_eq!(grf.read_entry(0).unwrap().as_ref(), README);
    assert_eq!(grf.read_entry(1).unwrap().as_ref(), ANNYEONG);

    // Without the stored table bytes the table is compressed again (the file size follows the table).
    let mut doc: GrfDocument = serde_json::from_value(grf::FORMAT.to_json(&bytes).unwrap()).unwrap();
    doc.table.packed = None;
    let out = write_document(&doc).unwrap();
    assert_eq!(convert::to_document(&parse(&out).unwrap()).entries, doc.entries);
}

#[test]
fn inconsistent_documents_are_refused() {
    let bytes = main_fixture();
    let doc: GrfDocument = serde_json::from_value(grf::FORMAT.to_json(&bytes).unwrap()).unwrap();
    let mut d = doc.clone();
    d.header.raw_count += 1;
    assert!(write_document(&d).unwrap_err().to_string().contains("raw_count"));
    let mut d = doc.clone();
    d.entries[0].record.compressed_size += 1;
    assert!(write_document(&d).unwrap_err().to_string().contains("compressed_size"));
    let mut d = doc.clone();
    d.entries[0].data = None;
    assert!(write_document(&d).unwrap_err().to_string().contains("needs its data"));
    let mut d = doc.clone();
    d.entries[0].record.offset = 1 << 30;
    assert!(write_document(&d).is_err());
    let mut d = doc;
    d.entries[3].same_as = Some(3);
    d.entries[3].data = None;
    assert!(write_document(&d).unwrap_err().to_string().contains("same_as"));
    assert!(grf::FORMAT.from_json(serde_json::json!({"format": "ro-grf"}), &Default::default()).is_err());
}

// =========================================================================================================
// Versions, encryption, limits

fn with_version(version: u32) -> Vec<u8> {
    assemble(&main_entries(), &Layout { version, ..Default::default() })
}

#[test]
fn other_versions_are_refused() {
    // Versions 0x101–0x103, 0x200 and 0x300 are read (ro_grf_versions.rs); 0x100 (names only
    // nibble-swapped, per libgrf) and later 1.x numbers are recognised and refused, others are invalid.
    for v in [0x100u32, 0x104, 0x1FF] {
        match parse(&with_version(v)) {
            Err(Error::Unsupported(m)) => assert!(m.contains(&format!("0x{v:X}")) && m.contains("ro-grf"), "{m}"),
            other => panic!("version 0x{v:X}: {other:?}"),
        }
    }
    let err = parse(&with_version(0x999)).unwrap_err();
    let at = err.location().unwrap();
    assert_eq!((at.field.as_str(), at.offset), ("version", 42));
    assert!(matches!(grf::FORMAT.info(&with_version(0x201)), Err(Error::InvalidData { .. })));
}

#[test]
fn entries_flagged_enciphered_but_stored_plain_fail_alone() {
    // Flags 0x03 / 0x05 say DES; these entries' bytes are plain zlib, so deciphering garbles them.
    let mut entries = main_entries();
    entries[0].flags = 0x03; // file + mixed DES
    entries[1].flags = 0x05; // file + header DES
    let bytes = assemble(&entries, &Layout::default());
    let grf = parse(&bytes).unwrap();
    assert_eq!(grf::FORMAT.info(&bytes).unwrap()["encrypted_entries"], 2);
    let list = convert::entries(&grf);
    assert_eq!(list.len(), 4);
    for e in &list[..2] {
        let err = e.data.bytes().unwrap_err();
        assert!(matches!(err, Error::InvalidData { .. }), "{}: {err}", e.name);
        assert!(err.to_string().contains("zlib"), "{err}");
    }
    assert_eq!(list[2].data.bytes().unwrap().as_ref(), RAW);
    // The document still holds them losslessly (the stored bytes, with their cipher named).
    let (value, back) = json_round_trip(&bytes);
    assert_eq!(back, bytes);
    assert_eq!(
        (value["entries"][0]["cipher"].as_str(), value["entries"][1]["cipher"].as_str()),
        (Some("mixed"), Some("header"))
    );

    // Extraction writes the others and names the failing ones.
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("enc.grf");
    std::fs::write(&archive, &bytes).unwrap();
    let out = dir.path().join("out");
    let report = ops::extract(&archive, &out, &ops::ExtractOptions::default(), &ops::Quiet).unwrap();
    assert_eq!(report.written.len(), 2);
    assert_eq!(report.failures.len(), 2, "{:?}", report.failures);
    assert!(report.failures.iter().any(|f| f.contains("data\\readme.txt") && f.contains("zlib")));
    assert_eq!(std::fs::read(out.join("data/raw.bin")).unwrap(), RAW);
    assert_eq!(ops::list(&archive, false).unwrap().len(), 4);
}

#[test]
fn zip_bomb_sizes_are_refused_before_allocating() {
    // An entry declaring 4 GiB from an 8-byte stream: refused by the deflate ratio bound, as a limit.
    let mut entries = main_entries();
    entries[4].real = 0xFFFF_FFF0;
    let bytes = assemble(&entries, &Layout::default());
    let grf = parse(&bytes).unwrap();
    match grf.read_entry(4) {
        Err(e @ Error::Limit { .. }) => assert!(e.to_string().contains("more than deflate can produce"), "{e}"),
        other => panic!("{other:?}"),
    }
    assert!(grf.entry_data(4).head(64).is_err());

    // A real bomb (16 MiB of zeros in about 16 KiB) declared small: only the declared size is produced.
    let zeros = vec![0u8; 16 << 20];
    let mut bomb = file(b"bomb.bin", &zeros);
    assert!(bomb.stored.len() < 64 << 10);
    bomb.real = 100;
    let bytes = assemble(&[bomb.clone()], &Layout::default());
    let err = parse(&bytes).unwrap().read_entry(0).unwrap_err();
    assert!(err.to_string().contains("more than the 100 bytes declared"), "{err}");
    // Declared honestly, it inflates.
    bomb.real = zeros.len() as u32;
    let bytes = assemble(&[bomb], &Layout::default());
    assert_eq!(parse(&bytes).unwrap().read_entry(0).unwrap().len(), zeros.len());

    // The table itself is guarded before it is inflated: by what its entries can need.
    let bytes = assemble(&main_entries(), &Layout { table_real: Some(u32::MAX), ..Default::default() });
    let err = parse(&bytes).unwrap_err();
    assert!(matches!(err, Error::Limit { .. }), "{err}");
    assert_eq!(err.location().unwrap().field, "table.real_size");
    assert!(err.to_string().contains("more than its"), "{err}");
}

#[test]
fn short_or_long_entry_data_is_an_error() {
    let mut entries = main_entries();
    entries[0].real += 1;
    entries[1].real -= 1;
    let bytes = assemble(&entries, &Layout::default());
    let grf = parse(&bytes).unwrap();
    let short = grf.read_entry(0).unwrap_err();
    assert!(short.to_string().contains("declared"), "{short}");
    assert_eq!(short.location().unwrap().offset, 46 + grf.entries[0].record.offset);
    assert!(grf.read_entry(1).unwrap_err().to_string().contains("more than"));
}

#[test]
fn malformed_headers_and_tables_are_located() {
    let good = main_fixture();
    let table_at = 46 + u32::from_le_bytes(good[30..34].try_into().unwrap()) as usize;
    let case = |mutate: &dyn Fn(&mut Vec<u8>), field: &str| {
        let mut b = good.clone();
        mutate(&mut b);
        let err = parse(&b).unwrap_err();
        let at = err.location().unwrap_or_else(|| panic!("{field}: {err}"));
        assert_eq!(at.format, "ro-grf");
        assert!(at.field.contains(field), "expected {field}, got {err}");
    };
    case(&|b| b[3] = b'X', "signature");
    case(&|b| b.truncate(40), "raw_count");
    case(&|b| b[38..42].copy_from_slice(&9u32.to_le_bytes()), "raw_count"); // 9 < seed 3 + 7
    case(&|b| b[38..42].copy_from_slice(&1000u32.to_le_bytes()), "raw_count");
    case(&|b| b[30..34].copy_from_slice(&u32::MAX.to_le_bytes()), "table_offset");
    case(&|b| b[table_at..table_at + 4].copy_from_slice(&u32::MAX.to_le_bytes()), "table.packed_size");
    case(&|b| b[table_at + 10] ^= 0xFF, "table");
    case(&|b| b.truncate(b.len() - 1), "table.packed_size");
    // An entry pointing past the end.
    let mut entries = main_entries();
    entries.push(Fx { name: b"late".to_vec(), stored: vec![0x78, 0x9C], real: 1, flags: 1 });
    let mut bytes = assemble(&entries, &Layout::default());
    let grf = parse(&bytes).unwrap();
    let t = grf::write::table_bytes(
        grf::types::Layout::V2,
        grf.entries.iter().map(|e| {
            let mut r = e.record;
            if e.name_raw == b"late" {
                r.offset = 1 << 20;
            }
            (e.name_raw.as_slice(), None, r)
        }),
        &[],
    )
    .unwrap();
    let packed = zlib6(&t);
    let at = 46 + grf.header.table_offset as usize;
    bytes.truncate(at);
    bytes.extend_from_slice(&(packed.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&(t.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&packed);
    let err = parse(&bytes).unwrap_err();
    assert_eq!(err.location().unwrap().field, "table.entries[5].offset", "{err}");
    // A name without its NUL.
    let raw = b"abc".to_vec();
    let packed = zlib6(&raw);
    let mut b = good[..46].to_vec();
    b[30..34].copy_from_slice(&0u32.to_le_bytes());
    b[38..42].copy_from_slice(&(1u32 + 3 + 7).to_le_bytes());
    b.extend_from_slice(&(packed.len() as u32).to_le_bytes());
    b.extend_from_slice(&3u32.to_le_bytes());
    b.extend_from_slice(&packed);
    let err = parse(&b).unwrap_err();
    assert!(err.to_string().contains("raw_count"), "one 18-byte entry cannot fit in 3 bytes: {err}");
    let raw = [b"abc".as_slice(), &[1u8; 17]].concat();
    let packed = zlib6(&raw);
    let mut b2 = good[..46].to_vec();
    b2[30..34].copy_from_slice(&0u32.to_le_bytes());
    b2[38..42].copy_from_slice(&(1u32 + 3 + 7).to_le_bytes());
    b2.extend_from_slice(&(packed.len() as u32).to_le_bytes());
    b2.extend_from_slice(&(raw.len() as u32).to_le_bytes());
    b2.extend_from_slice(&packed);
    let err = parse(&b2).unwrap_err();
    assert_eq!(err.location().unwrap().field, "table.entries[0].name", "{err}");
}

/// Parses and inflates every entry (the result is dropped: it borrows the input).
fn parse_all(b: &[u8]) -> relic::Result<usize> {
    let grf = parse(b)?;
    let mut n = 0;
    for e in convert::entries(&grf) {
        n += e.data.bytes().map(|d| d.len()).unwrap_or(0);
    }
    Ok(n)
}

#[test]
fn robustness_hand_made() {
    // The table ends the file, so every truncation loses part of it: strict.
    let report = relic::testing::check_robustness(&main_fixture(), true, parse_all);
    assert!(report.flips_rejected > 0);
}

#[test]
fn every_flipped_file_that_parses_rebuilds_from_its_document() {
    let good = main_fixture();
    let mut parsed = 0;
    for pos in 0..good.len() {
        for mask in [0xFFu8, 0x80, 0x01] {
            let mut b = good.clone();
            b[pos] ^= mask;
            let Ok(archive) = parse(&b) else { continue };
            parsed += 1;
            let doc = convert::to_document(&archive);
            assert_eq!(write_document(&doc).unwrap(), b, "byte {pos} flipped with 0x{mask:02X}");
        }
    }
    assert!(parsed > 100, "only {parsed} variants parsed");
}

#[test]
fn robustness_writer_made() {
    let bytes = write_archive_bytes(
        vec![input("data/a.txt", b"alpha alpha alpha alpha"), input("data/텍스트/b.bin", &[7u8; 300]), input("c", b"")],
        0x200,
    )
    .unwrap();
    let report = relic::testing::check_robustness(&bytes, true, parse_all);
    assert!(report.truncations_rejected == report.truncations);
}

// =========================================================================================================
// Writer

fn input(name: &str, data: &[u8]) -> PackInput {
    PackInput { name: encode_name(name).unwrap(), source: PackSource::Bytes(data.to_vec()) }
}

fn contents(grf: &Grf<'_>) -> Vec<(String, Vec<u8>)> {
    convert::entries(grf).into_iter().map(|e| (e.name.to_string(), e.data.bytes().unwrap().into_owned())).collect()
}

#[test]
fn writer_lays_out_as_the_format_does() {
    let bytes = write_archive_bytes(
        vec![
            input("data/z.txt", b"last by name"),
            input("data/텍스트/안녕.txt", ANNYEONG),
            input("data/A.txt", &[b'a'; 1000]),
            input("empty", b""),
        ],
        0x200,
    )
    .unwrap();
    assert_eq!(&bytes[..16], b"Master of Magic\0");
    assert_eq!(&bytes[15..30], &KEY);
    let grf = parse(&bytes).unwrap();
    assert_eq!((grf.header.seed, grf.header.raw_count, grf.header.version), (0, 4 + 7, 0x200));
    // Byte order of the CP949 names; `\` between folders.
    let names: Vec<&[u8]> = grf.entries.iter().map(|e| e.name_raw.as_slice()).collect();
    assert_eq!(names, [b"data\\A.txt".as_slice(), b"data\\z.txt", KOREAN_NAME, b"empty"]);
    let mut expected_offset = 0;
    for e in &grf.entries {
        let r = e.record;
        assert_eq!(r.flags, 1);
        assert_eq!(r.offset, expected_offset, "data follows table order");
        assert_eq!(r.aligned_size, r.compressed_size.div_ceil(8) * 8);
        // Every entry is a zlib stream (level 9: header 78 DA), even when that does not make it smaller.
        let stored = grf.stored(grf.entries.iter().position(|x| x == e).unwrap());
        assert_eq!(&stored[..2], &[0x78, 0xDA]);
        // Padding is zeros.
        let pad_start = 46 + (r.offset + u64::from(r.compressed_size)) as usize;
        assert!(bytes[pad_start..46 + (r.offset + u64::from(r.aligned_size)) as usize].iter().all(|&b| b == 0));
        expected_offset += u64::from(r.aligned_size);
    }
    assert_eq!(grf.header.table_offset, expected_offset);
    assert_eq!(&grf.table_packed[..2], &[0x78, 0xDA]);
    assert!(grf.entries[3].record.compressed_size > 0);
    assert_eq!(
        contents(&grf),
        [
            ("data\\A.txt".to_string(), vec![b'a'; 1000]),
            ("data\\z.txt".to_string(), b"last by name".to_vec()),
            ("data\\텍스트\\안녕.txt".to_string(), ANNYEONG.to_vec()),
            ("empty".to_string(), vec![]),
        ]
    );
    // JSON round trip of a written file.
    assert_eq!(json_round_trip(&bytes).1, bytes);
}

#[test]
fn writer_refuses_names_the_game_cannot_tell_apart() {
    let err = write_archive_bytes(vec![input("data/a.txt", b"1"), input("DATA\\A.TXT", b"2")], 0x200).unwrap_err();
    assert!(matches!(err, Error::Refusal { format: "ro-grf", .. }), "{err}");
    assert_eq!(err.field(), Some("name"));
    assert!(encode_name("日本\u{1F600}").is_err());
    assert!(encode_name("a\0b").is_err());
    // Different Hangul that share a lead byte are different names.
    let ok = write_archive_bytes(vec![input("캚.txt", b"1"), input("캻.txt", b"2")], 0x200).unwrap();
    assert_eq!(parse(&ok).unwrap().len(), 2);
}

#[test]
fn writer_is_deterministic_and_independent_of_input_order() {
    let a = vec![input("b", b"two"), input("a", b"one"), input("c/d", &[0u8; 5000])];
    let mut b = a.clone();
    b.reverse();
    assert_eq!(write_archive_bytes(a, 0x200).unwrap(), write_archive_bytes(b, 0x200).unwrap());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn writer_round_trips(files in proptest::collection::btree_map("[a-z]{1,6}(/[a-z]{1,6}){0,2}", proptest::collection::vec(any::<u8>(), 0..600), 0..8)) {
        let inputs: Vec<PackInput> = files.iter().map(|(n, d)| input(n, d)).collect();
        let bytes = write_archive_bytes(inputs, 0x200).unwrap();
        let grf = parse(&bytes).unwrap();
        let got = contents(&grf);
        let want: Vec<(String, Vec<u8>)> = files.iter().map(|(n, d)| (n.replace('/', "\\"), d.clone())).collect();
        prop_assert_eq!(got, want);
        prop_assert_eq!(json_round_trip(&bytes).1, bytes);
    }
}

// =========================================================================================================
// Operations: pack from a folder, extract, list, convert

fn write_tree(root: &Path, files: &[(&str, &[u8])]) {
    for (rel, data) in files {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, data).unwrap();
    }
}

#[test]
fn folder_to_grf_to_folder() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    let files: &[(&str, &[u8])] =
        &[("data/readme.txt", README), ("data/텍스트/안녕.txt", ANNYEONG), ("data/texture/x.bmp", &[0x42; 3000])];
    write_tree(&src, files);
    let one = dir.path().join("one.grf");
    let two = dir.path().join("two.grf");
    ops::pack("ro-grf", &src, &one, &ops::PackOptions::default()).unwrap();
    ops::pack("ro-grf", &src, &two, &ops::PackOptions::default()).unwrap();
    let bytes = std::fs::read(&one).unwrap();
    assert_eq!(bytes, std::fs::read(&two).unwrap(), "packing is deterministic");
    let grf = parse(&bytes).unwrap();
    let names: Vec<&str> = grf.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["data\\readme.txt", "data\\texture\\x.bmp", "data\\텍스트\\안녕.txt"]);

    let listed = ops::list(&one, false).unwrap();
    let paths: Vec<(&str, u64)> = listed.iter().map(|e| (&*e.path, e.size)).collect();
    assert_eq!(paths, [("data/readme.txt", 58), ("data/texture/x.bmp", 3000), ("data/텍스트/안녕.txt", 10)]);
    assert!(listed.iter().all(|e| e.modified.is_none()));

    let out = dir.path().join("out");
    let report = ops::extract(&one, &out, &ops::ExtractOptions::default(), &ops::Quiet).unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert_eq!(report.written.len(), 3);
    for (rel, data) in files {
        assert_eq!(&std::fs::read(out.join(rel)).unwrap(), data, "{rel}");
    }
    // …and packed again, the same archive.
    let three = dir.path().join("three.grf");
    ops::pack("ro-grf", &out, &three, &ops::PackOptions::default()).unwrap();
    assert_eq!(std::fs::read(&three).unwrap(), bytes);

    // Globs select entries.
    let some = dir.path().join("some");
    let opts = ops::ExtractOptions { globs: vec!["*.bmp".into()], ..Default::default() };
    let report = ops::extract(&one, &some, &opts, &ops::Quiet).unwrap();
    assert_eq!(report.written.len(), 1);
    assert!(some.join("data/texture/x.bmp").is_file());

    // convert: entries are written as they are (kind raw), folders kept.
    let conv = dir.path().join("conv");
    let report = ops::convert(std::slice::from_ref(&one), &conv, &ops::ConvertRequest::default(), &ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert_eq!(report.outputs.len(), 3);
    assert!(report.outputs.iter().all(|o| o.kind == "raw"));
    assert_eq!(std::fs::read(conv.join("one.grf/data/텍스트/안녕.txt")).unwrap(), ANNYEONG);

    // convert --to json and pack it back.
    let json_dir = dir.path().join("json");
    let req = ops::ConvertRequest { to: Some("json".into()), ..Default::default() };
    let report = ops::convert(std::slice::from_ref(&one), &json_dir, &req, &ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let rebuilt = dir.path().join("rebuilt.grf");
    ops::pack("ro-grf", &json_dir.join("one.grf.json"), &rebuilt, &ops::PackOptions::default()).unwrap();
    assert_eq!(std::fs::read(&rebuilt).unwrap(), bytes);
}

#[test]
fn nested_archives_inside_a_grf_are_listed_but_not_descended() {
    // A RES inside a GRF is compressed, so `--recursive` lists it with its format but does not open it.
    let res =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/evil_islands/example.res")).unwrap();
    let bytes = write_archive_bytes(vec![input("inner.res", &res)], 0x200).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("outer.grf");
    std::fs::write(&p, &bytes).unwrap();
    let listed = ops::list(&p, true).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].format, Some("ei-res"));
    assert!(!listed[0].nested);
}

// =========================================================================================================
// Sample and corpus

#[test]
fn sample_archive_holds_what_the_generator_put_in() {
    let data = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/ragnarok/example.grf")).unwrap();
    let grf = parse(&data).unwrap();
    let got: Vec<(String, usize)> = contents(&grf).into_iter().map(|(n, d)| (n, d.len())).collect();
    assert_eq!(
        got,
        [("data\\readme.txt".to_string(), 40), ("data\\texture\\유저인터페이스\\sample.bmp".to_string(), 70)]
    );
    let bmp = grf.read_entry(grf.find_ci("DATA/texture/유저인터페이스/SAMPLE.BMP").unwrap()).unwrap();
    assert_eq!(&bmp[..2], b"BM");
    assert_eq!(json_round_trip(&data).1, data);
}

fn corpus(name: &str) -> Option<Vec<u8>> {
    crate::common::corpus_file(&format!("ragnarok/{name}"))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[test]
fn corpus_goldberg_textures() {
    let Some(bytes) = corpus("goldberg_textures.grf") else { return };
    assert_eq!(bytes.len(), 1_078_404);
    let grf = parse(&bytes).unwrap();
    assert_eq!(grf.header, GrfHeader { key: KEY, table_offset: 0x1073D8, seed: 0, raw_count: 11, version: 0x200 });
    assert_eq!((grf.table_packed_size, grf.table_real_size), (118, 211));
    let rec = |compressed_size, aligned_size, real_size, offset| GrfRecord {
        compressed_size,
        aligned_size,
        real_size,
        flags: 1,
        offset,
    };
    let got: Vec<(&str, GrfRecord)> = grf.entries.iter().map(|e| (e.name.as_str(), e.record)).collect();
    assert_eq!(
        got,
        [
            ("data\\texture\\ilusion\\ilus_s_111.bmp", rec(723_265, 723_272, 1_049_652, 0)),
            ("data\\texture\\ilusion\\ilus_s_115.tga", rec(215_523, 215_528, 262_188, 0xD29F0)),
            ("data\\texture\\ilusion\\ilus_s_116.bmp", rec(2_427, 2_432, 3_124, 0xB0948)),
            ("data\\texture\\ilusion\\ilus_s_82.bmp", rec(136_994, 137_000, 263_220, 0xB12C8)),
        ]
    );
    assert!(grf.entries.iter().all(|e| e.name_exact));

    // Each inflates to a picture whose header agrees with its size.
    let expect = [("111", 1024, 1024, 8), ("115", 256, 256, 32), ("116", 128, 16, 8), ("82", 512, 512, 8)];
    for (i, (id, w, h, bpp)) in expect.into_iter().enumerate() {
        let data = grf.read_entry(i).unwrap();
        assert_eq!(data.len() as u32, grf.entries[i].record.real_size);
        if grf.entries[i].name.ends_with(".bmp") {
            assert_eq!(&data[..2], b"BM", "{id}");
            assert_eq!(u32_at(&data, 2) as usize, data.len(), "{id}: BMP file size");
            assert_eq!((u32_at(&data, 18), u32_at(&data, 22)), (w, h), "{id}");
            assert_eq!(u16::from_le_bytes([data[28], data[29]]), bpp, "{id}");
            let pixels = u32_at(&data, 10) as usize;
            // 8-bit rows need no padding at these widths; some files end with 2 spare bytes.
            assert!((0..4).contains(&(data.len() - pixels - (w * h) as usize)), "{id}: pixel bytes");
        } else {
            assert_eq!(data[2], 2, "{id}: uncompressed true-colour TGA");
            let dims = (u16::from_le_bytes([data[12], data[13]]), u16::from_le_bytes([data[14], data[15]]));
            assert_eq!((u32::from(dims.0), u32::from(dims.1), u16::from(data[16])), (w, h, bpp), "{id}");
            // Pixels, then the 26-byte TGA 2.0 footer.
            assert_eq!(data.len(), 18 + (w * h * 4) as usize + 26);
            assert!(data.ends_with(b"TRUEVISION-XFILE.\0"));
        }
    }
    assert_eq!(grf.find_ci("data/texture/ILUSION/ilus_s_82.BMP"), Some(3));
    assert_eq!(grf.find_ci("data\\texture\\ilusion\\ilus_s_115.tga"), Some(1));

    // Lossless: the document rebuilds the file byte for byte (its zlib streams come from another zlib).
    let (value, back) = json_round_trip(&bytes);
    assert!(back == bytes, "JSON round trip differs");
    assert!(value.get("gaps").is_none());

    // Repacked by relic: the same entries.
    let inputs = (0..grf.len())
        .map(|i| PackInput {
            name: grf.entries[i].name_raw.clone(),
            source: PackSource::Bytes(grf.read_entry(i).unwrap().into_owned()),
        })
        .collect();
    let repacked = write_archive_bytes(inputs, 0x200).unwrap();
    assert_eq!(contents(&parse(&repacked).unwrap()), contents(&grf));
}

#[test]
fn corpus_extract_keeps_folders() {
    let Some(bytes) = corpus("goldberg_textures.grf") else { return };
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("goldberg_textures.grf");
    std::fs::write(&archive, &bytes).unwrap();
    let out = dir.path().join("out");
    let report = ops::extract(&archive, &out, &ops::ExtractOptions::default(), &ops::Quiet).unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert_eq!((report.written.len(), report.bytes), (4, 1_049_652 + 262_188 + 3_124 + 263_220));
    let bmp = std::fs::read(out.join("data/texture/ilusion/ilus_s_116.bmp")).unwrap();
    assert_eq!(bmp.len(), 3124);
    let (format, info) = ops::info(&archive).unwrap();
    assert_eq!(format.id, "ro-grf");
    assert_eq!(info["entries"], 4);
}
