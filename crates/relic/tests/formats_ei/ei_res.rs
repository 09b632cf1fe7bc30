//! Evil Islands RES archives (`ei-res`): reader, lossless document, writer and extraction.
//!
//! Layout (spec `evil-islands.txt`, section "Res", with docs/formats/evil-islands.md):
//! - header, 16 bytes: magic `3C E2 9C 01`, u32 `files_count`, u32 `filetable_offset`, u32 `nametable_size`;
//! - file table at `filetable_offset`: `files_count` records of 22 bytes — i32 `next_index`, u32 `file_size`,
//!   u32 `file_offset`, u32 `last_change` (Unix seconds), u16 `name_len`, u32 `name_offset` (relative to the
//!   name table);
//! - name table at `filetable_offset + 22 * files_count`: cp1251 names, no terminators, `\` between folders;
//! - docs/formats/evil-islands.md#res-name-hash: a record sits in the slot given by the name hash (sum of the name bytes as *signed*
//!   chars, A–Z lowercased, mod `files_count`); a collision goes to the highest free slot and is chained
//!   through `next_index` (−1 ends the chain); entry data is 16-byte aligned.
//!
//! The fixtures below are assembled byte by byte from those tables, independently of relic's writer. Real
//! files come from `../shared/corpus/` when it exists (never copied into the repository).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use proptest::prelude::*;
use relic::codec::text::{decode_exact, encode, CP1251};
use relic::evil_islands::res::{
    self, convert, name_hash, parse, write::encode_name, write_archive, write_document, PackInput, PackOptions,
    PackSource, Res, ResDocument, ResHeader, ResRecord,
};
use relic::ops;
use relic::Error;

// =========================================================================================================
// Hand-made fixtures (spec "Res")

const MAGIC: [u8; 4] = [0x3C, 0xE2, 0x9C, 0x01];
const HEADER: usize = 16;
const RECORD: usize = 22;

/// One entry of a hand-made archive. Entries are given in the order their data and names are laid out;
/// `slot` is the record's index in the file table.
#[derive(Debug, Clone)]
struct Fx {
    name: Vec<u8>,
    data: Vec<u8>,
    time: u32,
    next: i32,
    slot: usize,
    /// Point at the data range of this earlier entry instead of storing `data` again.
    same_as: Option<usize>,
}

fn fx(name: &[u8], data: &[u8], time: u32, next: i32, slot: usize) -> Fx {
    Fx { name: name.to_vec(), data: data.to_vec(), time, next, slot, same_as: None }
}

/// Assembles a RES: header, data (each entry padded to 16 bytes with `pad`), the 22-byte records in their
/// slots, then the names in entry order.
fn assemble(entries: &[Fx], pad: u8) -> Vec<u8> {
    let n = entries.len();
    let mut out = vec![0u8; HEADER];
    let mut offsets = Vec::with_capacity(n);
    for e in entries {
        if let Some(j) = e.same_as {
            offsets.push(offsets[j]);
            continue;
        }
        offsets.push(out.len() as u32);
        out.extend_from_slice(&e.data);
        while out.len() % 16 != 0 {
            out.push(pad);
        }
    }
    let filetable_offset = out.len();
    let mut table = vec![0u8; RECORD * n];
    let mut name_offset = 0u32;
    for (e, &offset) in entries.iter().zip(&offsets) {
        let size = match e.same_as {
            Some(j) => entries[j].data.len(),
            None => e.data.len(),
        };
        let mut rec = Vec::with_capacity(RECORD);
        rec.extend_from_slice(&e.next.to_le_bytes());
        rec.extend_from_slice(&(size as u32).to_le_bytes());
        rec.extend_from_slice(&offset.to_le_bytes());
        rec.extend_from_slice(&e.time.to_le_bytes());
        rec.extend_from_slice(&(e.name.len() as u16).to_le_bytes());
        rec.extend_from_slice(&name_offset.to_le_bytes());
        table[e.slot * RECORD..(e.slot + 1) * RECORD].copy_from_slice(&rec);
        name_offset += e.name.len() as u32;
    }
    out.extend_from_slice(&table);
    for e in entries {
        out.extend_from_slice(&e.name);
    }
    out[0..4].copy_from_slice(&MAGIC);
    out[4..8].copy_from_slice(&(n as u32).to_le_bytes());
    out[8..12].copy_from_slice(&(filetable_offset as u32).to_le_bytes());
    out[12..16].copy_from_slice(&name_offset.to_le_bytes());
    out
}

/// The spec's hash, written out again here: signed-char sum, A–Z lowercased, Euclidean remainder.
fn spec_hash(name: &[u8], count: usize) -> usize {
    let sum: i64 = name.iter().map(|&b| i64::from(b.to_ascii_lowercase() as i8)).sum();
    sum.rem_euclid(count as i64) as usize
}

/// Assigns slots as docs/formats/evil-islands.md#res-name-hash describes (hash slot, else the highest free slot linked at the end of
/// the hash slot's chain), in the given order. Returns `(slot, next_index)` per entry.
fn place(names: &[Vec<u8>]) -> Vec<(usize, i32)> {
    let n = names.len();
    let mut occupied = vec![false; n];
    let mut next = vec![-1i32; n];
    let mut slots = Vec::with_capacity(n);
    for name in names {
        let home = spec_hash(name, n);
        let slot = if !occupied[home] {
            home
        } else {
            let free = (0..n).rev().find(|&s| !occupied[s]).expect("a free slot");
            let mut tail = home;
            while next[tail] != -1 {
                tail = next[tail] as usize;
            }
            next[tail] = free as i32;
            free
        };
        occupied[slot] = true;
        slots.push(slot);
    }
    slots.iter().map(|&s| (s, next[s])).collect()
}

/// A hand-made archive with slots placed by [`place`], entries laid out in the given order.
fn auto_fixture(entries: &[(&[u8], &[u8], u32)], pad: u8) -> Vec<u8> {
    let names: Vec<Vec<u8>> = entries.iter().map(|e| e.0.to_vec()).collect();
    let fxs: Vec<Fx> = entries
        .iter()
        .zip(place(&names))
        .map(|(&(name, data, time), (slot, next))| fx(name, data, time, next, slot))
        .collect();
    assemble(&fxs, pad)
}

/// cp1251 bytes of `папка\файл.txt`.
const PAPKA_FAIL: &[u8] = &[0xEF, 0xE0, 0xEF, 0xEA, 0xE0, b'\\', 0xF4, 0xE0, 0xE9, 0xEB, b'.', b't', b'x', b't'];
/// cp1251 bytes of `привет`.
const PRIVET: &[u8] = &[0xEF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2];
const SHARED: &[u8] = b"\x00\x01shared\xFF";

/// The main fixture, five entries (hashes mod 5, worked out in `name_hash_known_values`):
///
/// | entry | name             | hash | slot | next | data                   |
/// |-------|------------------|------|------|------|------------------------|
/// | 0     | `ab`             | 0    | 0    | 3    | `first` @16            |
/// | 1     | `ba`             | 0    | 3    | −1   | `second!` @32          |
/// | 2     | `папка\файл.txt` | 2    | 2    | −1   | `привет` @48           |
/// | 3     | `DATA.BIN`       | 4    | 4    | −1   | 9 bytes @64            |
/// | 4     | `alias.bin`      | 1    | 1    | −1   | same range as DATA.BIN |
///
/// File table at 80 (5 × 22 bytes), names at 190 (35 bytes), 225 bytes in all.
fn main_fixture_entries() -> Vec<Fx> {
    vec![
        fx(b"ab", b"first", 1_000_000_000, 3, 0),
        fx(b"ba", b"second!", 1_000_000_001, -1, 3),
        fx(PAPKA_FAIL, PRIVET, 985_950_276, -1, 2),
        fx(b"DATA.BIN", SHARED, 0, -1, 4),
        Fx { same_as: Some(3), ..fx(b"alias.bin", b"", u32::MAX, -1, 1) },
    ]
}

fn main_fixture() -> Vec<u8> {
    assemble(&main_fixture_entries(), 0)
}

fn rec(next_index: i32, size: u32, offset: u32, modified: u32, name_len: u16, name_offset: u32) -> ResRecord {
    ResRecord { next_index, size, offset, modified, name_len, name_offset }
}

#[test]
fn name_hash_known_values() {
    // "ab" = 97 + 98 = 195; "ba" has the same sum: both land in slot 195 mod 5 = 0.
    assert_eq!(name_hash(b"ab", 5), 0);
    assert_eq!(name_hash(b"ba", 5), 0);
    // A–Z are lowered first: "AB" hashes as "ab".
    assert_eq!(name_hash(b"AB", 5), 0);
    assert_eq!(name_hash(b"ABC", 1000), 294);
    // "data.bin" = 100+97+116+97+46+98+105+110 = 769; 769 mod 5 = 4 (upper case gives the same).
    assert_eq!(name_hash(b"DATA.BIN", 5), 4);
    assert_eq!(name_hash(b"data.bin", 5), 4);
    // "alias.bin" = 97+108+105+97+115+46+98+105+110 = 881; 881 mod 5 = 1.
    assert_eq!(name_hash(b"alias.bin", 5), 1);
    // `папка\файл.txt`: bytes ≥ 0x80 count negative: (−17 −32 −17 −22 −32) + 92 + (−12 −32 −23 −21) + 46
    // + 116 + 120 + 116 = 282; 282 mod 5 = 2 (an unsigned sum, 2586, would give 1).
    assert_eq!(name_hash(PAPKA_FAIL, 5), 2);
    // A lone 0xDF (`Я`, not lowered: only A–Z are) is −33; −33 mod 7 = 2 (Euclidean), unsigned 223 mod 7 = 6.
    assert_eq!(name_hash(&[0xDF], 7), 2);
    // 0xFF (`я`) is −1: the last slot.
    assert_eq!(name_hash(&[0xFF], 5), 4);
    assert_eq!(name_hash(&[0xFF, 0xFF], 1000), 998);
    // The empty name and a count of 1.
    assert_eq!(name_hash(b"", 5), 0);
    assert_eq!(name_hash(b"anything", 1), 0);
    // The independent copy used by these tests agrees on all of them.
    for (name, count) in [(&b"ab"[..], 5), (b"DATA.BIN", 5), (PAPKA_FAIL, 5), (&[0xDF], 7), (&[0xFF, 0xFF], 1000)] {
        assert_eq!(spec_hash(name, count), name_hash(name, count));
    }
}

#[test]
fn main_fixture_parses_to_exact_records() {
    let bytes = main_fixture();
    assert_eq!(bytes.len(), 225);
    let res = parse(&bytes).unwrap();
    assert_eq!(res.header, ResHeader { files_count: 5, filetable_offset: 80, nametable_size: 35 });
    assert_eq!(res.header.nametable_offset(), 190);
    assert_eq!(res.len(), 5);
    assert!(!res.is_empty());
    assert_eq!(res.bytes(), &bytes[..]);
    // Records in slot order.
    assert_eq!(
        res.records,
        vec![
            rec(3, 5, 16, 1_000_000_000, 2, 0),  // slot 0: ab
            rec(-1, 9, 64, u32::MAX, 9, 26),     // slot 1: alias.bin
            rec(-1, 6, 48, 985_950_276, 14, 4),  // slot 2: папка\файл.txt
            rec(-1, 7, 32, 1_000_000_001, 2, 2), // slot 3: ba
            rec(-1, 9, 64, 0, 8, 18),            // slot 4: DATA.BIN
        ]
    );
    let names: Vec<&[u8]> = (0..5).map(|i| res.name(i)).collect();
    assert_eq!(names, vec![&b"ab"[..], b"alias.bin", PAPKA_FAIL, b"ba", b"DATA.BIN"]);
    let data: Vec<&[u8]> = (0..5).map(|i| res.data(i)).collect();
    assert_eq!(data, vec![&b"first"[..], SHARED, PRIVET, b"second!", SHARED]);
    // Out-of-range indices give empty slices, not panics.
    assert_eq!(res.name(5), b"");
    assert_eq!(res.data(99), b"");
}

#[test]
fn main_fixture_lookup_follows_the_hash_chain() {
    let bytes = main_fixture();
    let res = parse(&bytes).unwrap();
    for (name, slot) in [(&b"ab"[..], 0), (b"alias.bin", 1), (PAPKA_FAIL, 2), (b"ba", 3), (b"DATA.BIN", 4)] {
        assert_eq!(res.find(name), Some(slot), "{name:?}");
    }
    // Case-insensitive (ASCII letters only, as the hash lowers A–Z only).
    assert_eq!(res.find(b"AB"), Some(0));
    assert_eq!(res.find(b"BA"), Some(3), "found through slot 0's next_index");
    assert_eq!(res.find(b"data.bin"), Some(4));
    assert_eq!(res.find(b"Alias.BIN"), Some(1));
    assert_eq!(res.find(b"\xEF\xE0\xEF\xEA\xE0\\\xF4\xE0\xE9\xEB.TXT"), Some(2));
    // Absent names: "ca" = 196 → slot 1 (alias.bin, chain ends); "bb" = 196 too; "zz" = 244 → slot 4.
    assert_eq!(res.find(b"ca"), None);
    assert_eq!(res.find(b"zz"), None);
    assert_eq!(res.find(b""), None);
    assert!(res.unreachable().is_empty());
}

/// `(name, path, size, modified, data)` of an archive entry.
type EntryView = (String, String, u64, Option<u64>, Vec<u8>);

#[test]
fn main_fixture_entries_decode_paths() {
    let bytes = main_fixture();
    let res = parse(&bytes).unwrap();
    let entries = convert::entries(&res, "fixture.res");
    let got: Vec<EntryView> = entries
        .iter()
        .map(|e| (e.name.to_string(), e.path.to_string(), e.size, e.modified, e.data.bytes().unwrap().into_owned()))
        .collect();
    let want: Vec<EntryView> = vec![
        ("ab".to_string(), "ab".to_string(), 5, Some(1_000_000_000), b"first".to_vec()),
        ("alias.bin".into(), "alias.bin".into(), 9, Some(u64::from(u32::MAX)), SHARED.to_vec()),
        ("папка\\файл.txt".into(), "папка/файл.txt".into(), 6, Some(985_950_276), PRIVET.to_vec()),
        ("ba".into(), "ba".into(), 7, Some(1_000_000_001), b"second!".to_vec()),
        ("DATA.BIN".into(), "DATA.BIN".into(), 9, Some(0), SHARED.to_vec()),
    ];
    assert_eq!(got, want);
    assert_eq!(&*entries[2].name_raw, PAPKA_FAIL);
    // Zero-copy: the shared range is one slice of the file.
    assert_eq!(entries[1].data.bytes().unwrap().as_ptr(), entries[4].data.bytes().unwrap().as_ptr());
    // Only `.bon`/`.anm` archives give extensionless entries their own extension.
    let as_bon = convert::entries(&res, "dir\\x.BON");
    let paths: Vec<&str> = as_bon.iter().map(|e| &*e.path).collect();
    assert_eq!(paths, vec!["ab.bon", "alias.bin", "папка/файл.txt", "ba.bon", "DATA.BIN"]);
    let as_anm = convert::entries(&res, "x.anm");
    assert_eq!(as_anm[0].path, "ab.anm");
    let as_mod = convert::entries(&res, "x.mod");
    assert_eq!(as_mod[0].path, "ab");
}

#[test]
fn empty_archive_parses() {
    let bytes = assemble(&[], 0);
    assert_eq!(bytes, [0x3C, 0xE2, 0x9C, 0x01, 0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0]);
    let res = parse(&bytes).unwrap();
    assert!(res.is_empty());
    assert_eq!(res.find(b"x"), None);
    assert!(res.unreachable().is_empty());
    let doc = convert::to_document(&res);
    assert_eq!(write_document(&doc).unwrap(), bytes);
}

#[test]
fn unreachable_lists_records_off_their_chain() {
    // With 2 entries "ab" and "ba" both hash to 195 mod 2 = 1. "ab" holds slot 1 but its next_index is −1,
    // so "ba" (slot 0) cannot be found.
    let bytes = assemble(&[fx(b"ab", b"1", 0, -1, 1), fx(b"ba", b"2", 0, -1, 0)], 0);
    let res = parse(&bytes).unwrap();
    assert_eq!(res.find(b"ab"), Some(1));
    assert_eq!(res.find(b"ba"), None);
    assert_eq!(res.unreachable(), vec![0]);
    // A cycle (1 → 0 → 1) does not hang the lookup; "cd" = 199 → slot 1, then 0.
    let bytes = assemble(&[fx(b"ab", b"1", 0, 0, 1), fx(b"cd", b"2", 0, 1, 0)], 0);
    let res = parse(&bytes).unwrap();
    assert_eq!(res.find(b"cd"), Some(0));
    assert_eq!(res.find(b"ba"), None);
    assert!(res.unreachable().is_empty());
}

// =========================================================================================================
// Errors: format, field path and byte offset

fn parse_err(bytes: &[u8]) -> Error {
    parse(bytes).expect_err("must be rejected")
}

/// Checks an error's category, format and field, and returns its offset.
fn located(err: &Error, field: &str, limit: bool) -> u64 {
    let at = err.location().unwrap_or_else(|| panic!("no location in {err}"));
    assert_eq!(at.format, "ei-res", "{err}");
    assert_eq!(at.field, field, "{err}");
    if limit {
        assert!(matches!(err, Error::Limit { .. }), "expected a Limit error: {err:?}");
    } else {
        assert!(matches!(err, Error::InvalidData { .. }), "expected InvalidData: {err:?}");
    }
    at.offset
}

fn put_u32(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// File-table position of slot `s` in the main fixture.
fn slot_at(s: usize) -> usize {
    80 + RECORD * s
}

#[test]
fn error_bad_magic() {
    let mut bytes = main_fixture();
    bytes[3] = 0x02;
    let err = parse_err(&bytes);
    assert_eq!(located(&err, "magic", false), 0);
    assert!(err.to_string().contains("3C E2 9C 02"), "{err}");
    assert_eq!(located(&parse_err(b"RIFF\0\0\0\0\0\0\0\0\0\0\0\0"), "magic", false), 0);
}

#[test]
fn error_truncated_header() {
    assert_eq!(located(&parse_err(&[]), "magic", false), 0);
    assert_eq!(located(&parse_err(&main_fixture()[..6]), "files_count", false), 4);
    assert_eq!(located(&parse_err(&main_fixture()[..10]), "filetable_offset", false), 8);
    assert_eq!(located(&parse_err(&main_fixture()[..15]), "nametable_size", false), 12);
}

#[test]
fn error_file_table_past_end() {
    let mut bytes = main_fixture();
    put_u32(&mut bytes, 8, 226); // one past the end of the 225-byte file
    let err = parse_err(&bytes);
    located(&err, "filetable_offset", false);
    // The file table starts in the file but its 5 records do not fit.
    let mut bytes = main_fixture();
    put_u32(&mut bytes, 8, 200);
    let err = parse_err(&bytes);
    assert_eq!(located(&err, "files_count", true), 200, "reported where the table would start");
}

#[test]
fn error_name_table_past_end() {
    let mut bytes = main_fixture();
    put_u32(&mut bytes, 12, 36); // the names are 35 bytes and end the file
    located(&parse_err(&bytes), "nametable_size", false);
}

/// The header fields should be reported at their own position (as `magic` at 0 and the truncation errors
/// at 4, 8 and 12 are); relic reports 0x10, the end of the header.
#[test]
fn error_header_fields_at_their_own_offset() {
    let mut bytes = main_fixture();
    put_u32(&mut bytes, 8, 226);
    assert_eq!(located(&parse_err(&bytes), "filetable_offset", false), 8);
    let mut bytes = main_fixture();
    put_u32(&mut bytes, 12, 36);
    assert_eq!(located(&parse_err(&bytes), "nametable_size", false), 12);
}

#[test]
fn error_name_offset_past_name_table() {
    // Slot 3 ("ba", 2 bytes): name_offset 34 → 34 + 2 > 35. Field at +18 of the record; relic reports
    // record fields at the record's position.
    let mut bytes = main_fixture();
    put_u32(&mut bytes, slot_at(3) + 18, 34);
    let err = parse_err(&bytes);
    assert_eq!(located(&err, "file_table[3].name_offset", false), slot_at(3) as u64);
    // name_len past the table: slot 4 (DATA.BIN at 18) with length 20.
    let mut bytes = main_fixture();
    bytes[slot_at(4) + 16..slot_at(4) + 18].copy_from_slice(&20u16.to_le_bytes());
    assert_eq!(located(&parse_err(&bytes), "file_table[4].name_offset", false), slot_at(4) as u64);
    // The very last byte is still fine: "ba" at 33..35.
    let mut bytes = main_fixture();
    put_u32(&mut bytes, slot_at(3) + 18, 33);
    let res = parse(&bytes).unwrap();
    assert_eq!(res.name(3), b"in");
}

#[test]
fn error_data_past_end() {
    // Slot 2: 6 bytes at 48; offset 220 → 226 > 225.
    let mut bytes = main_fixture();
    put_u32(&mut bytes, slot_at(2) + 8, 220);
    let err = parse_err(&bytes);
    assert_eq!(located(&err, "file_table[2].file_offset", false), slot_at(2) as u64);
    // A size that overflows u32 arithmetic: offset 0xFFFF_FFFF, size 0xFFFF_FFFF.
    let mut bytes = main_fixture();
    put_u32(&mut bytes, slot_at(1) + 4, u32::MAX);
    put_u32(&mut bytes, slot_at(1) + 8, u32::MAX);
    assert_eq!(located(&parse_err(&bytes), "file_table[1].file_offset", false), slot_at(1) as u64);
    // Ending exactly at the end of the file is fine.
    let mut bytes = main_fixture();
    put_u32(&mut bytes, slot_at(2) + 8, 219);
    assert_eq!(parse(&bytes).unwrap().data(2), &main_fixture()[219..225]);
}

#[test]
fn error_next_index_out_of_range() {
    for bad in [5i32, -2, i32::MAX, i32::MIN] {
        let mut bytes = main_fixture();
        bytes[slot_at(4)..slot_at(4) + 4].copy_from_slice(&bad.to_le_bytes());
        let err = parse_err(&bytes);
        assert_eq!(located(&err, "file_table[4].next_index", false), slot_at(4) as u64, "{bad}");
    }
    // 4 (the last index) is in range.
    let mut bytes = main_fixture();
    bytes[slot_at(1)..slot_at(1) + 4].copy_from_slice(&4i32.to_le_bytes());
    assert!(parse(&bytes).is_ok());
}

#[test]
fn error_files_count_huge() {
    for count in [u32::MAX, 0x1000_0000, 7] {
        let mut bytes = main_fixture();
        put_u32(&mut bytes, 4, count);
        let err = parse_err(&bytes);
        // Checked against the bytes after the file table's start before anything is allocated (7 records
        // need 154 bytes, 145 remain).
        assert_eq!(located(&err, "files_count", true), 80, "{count}");
    }
}

// =========================================================================================================
// Robustness: every truncation is rejected, no flip panics

fn writer_made(entries: &[(&str, &[u8], u32)], dedupe: bool) -> Vec<u8> {
    let inputs = entries
        .iter()
        .map(|&(name, data, modified)| PackInput {
            name: encode_name(name).unwrap(),
            modified,
            source: PackSource::Bytes(data.to_vec()),
        })
        .collect();
    let mut out = Vec::new();
    let n = write_archive(inputs, PackOptions { dedupe }, &mut out).unwrap();
    assert_eq!(n, out.len() as u64);
    out
}

fn sample_writer_archive() -> Vec<u8> {
    writer_made(
        &[
            ("readme.txt", b"hello, islands", 1_000),
            ("папка\\файл.txt", PRIVET, 2_000),
            ("textures\\a.mmp", &[7u8; 40], 3_000),
            ("textures\\b.mmp", &[7u8; 40], 3_001),
            ("empty", b"", 0),
            ("ab", b"x", 5),
            ("ba", b"y", 6),
        ],
        true,
    )
}

fn assert_robust(bytes: &[u8]) {
    // `T` cannot borrow the input (`check_robustness` takes `Fn(&[u8]) -> Result<T, E>`), so map it away.
    let report = relic::testing::check_robustness(bytes, true, |b| parse(b).map(|res| res.len()));
    assert_eq!(report.truncations, bytes.len());
    assert_eq!(report.truncations_rejected, bytes.len());
    assert_eq!(report.flips, 3 * bytes.len());
    assert!(report.flips_rejected <= report.flips);
    // Flipping a magic bit always fails.
    assert!(report.flips_rejected >= 12, "{report:?}");
}

#[test]
fn robustness_hand_made() {
    assert_robust(&main_fixture());
}

#[test]
fn robustness_writer_made() {
    assert_robust(&sample_writer_archive());
}

// =========================================================================================================
// Writer

fn input(name: &[u8], data: &[u8], modified: u32) -> PackInput {
    PackInput { name: name.to_vec(), modified, source: PackSource::Bytes(data.to_vec()) }
}

fn write(inputs: Vec<PackInput>, dedupe: bool) -> Vec<u8> {
    let mut out = Vec::new();
    write_archive(inputs, PackOptions { dedupe }, &mut out).unwrap();
    out
}

/// Checks that every input is in the archive, found through the hash chain, with its data and time.
fn assert_holds(res: &Res<'_>, inputs: &[(Vec<u8>, Vec<u8>, u32)]) {
    assert_eq!(res.len(), inputs.len());
    for (name, data, time) in inputs {
        let i = res.find(name).unwrap_or_else(|| panic!("{name:?} not found"));
        assert_eq!(res.name(i), &name[..]);
        assert_eq!(res.data(i), &data[..], "{name:?}");
        assert_eq!(res.records[i].modified, *time, "{name:?}");
        assert_eq!(res.records[i].offset % 16, 0, "{name:?} not 16-byte aligned");
    }
    assert!(res.unreachable().is_empty());
}

#[test]
fn writer_matches_the_spec_layout_byte_for_byte() {
    // The writer lays data and names out in case-insensitive name order, zero padded, slots as in
    // docs/formats/evil-islands.md#res-name-hash: the hand assembler gives the same bytes.
    let entries: [(&[u8], &[u8], u32); 5] = [
        (b"ab", b"first", 10),
        (b"alias.bin", b"other", 11),
        (b"ba", b"second!", 12),
        (b"DATA.BIN", SHARED, 13),
        (PAPKA_FAIL, PRIVET, 14),
    ];
    let expected = auto_fixture(&entries, 0);
    let shuffled = [4, 2, 0, 3, 1].map(|i| input(entries[i].0, entries[i].1, entries[i].2)).to_vec();
    assert_eq!(write(shuffled, true), expected);
    let res = parse(&expected).unwrap();
    // "ba" collided with "ab" in slot 0 and went to the highest free slot.
    assert_eq!(res.find(b"ab"), Some(0));
    assert_eq!(res.records[0].next_index, res.find(b"ba").unwrap() as i32);
}

#[test]
fn writer_round_trip() {
    let inputs: Vec<(Vec<u8>, Vec<u8>, u32)> = vec![
        (b"readme.txt".to_vec(), b"hello, islands".to_vec(), 1_000),
        (PAPKA_FAIL.to_vec(), PRIVET.to_vec(), 2_000),
        (b"textures\\A.mmp".to_vec(), vec![1; 33], 3_000),
        (b"textures\\b.mmp".to_vec(), vec![2; 16], u32::MAX),
        (b"empty".to_vec(), vec![], 0),
        (b"ab".to_vec(), b"x".to_vec(), 5),
        (b"ba".to_vec(), b"y".to_vec(), 6),
    ];
    let bytes = write(inputs.iter().map(|(n, d, t)| input(n, d, *t)).collect(), true);
    let res = parse(&bytes).unwrap();
    assert_holds(&res, &inputs);
    assert_eq!(res.header.files_count, 7);
    let names: usize = inputs.iter().map(|i| i.0.len()).sum();
    assert_eq!(res.header.nametable_size as usize, names);
    assert_eq!(bytes.len(), res.header.nametable_offset() as usize + names, "names end the file");
    assert_eq!(res.header.filetable_offset % 16, 0);
    // Data in case-insensitive name order: ab, ba, empty, readme.txt, textures\A, textures\b, папка.
    let mut by_offset: Vec<(u32, &[u8])> = (0..res.len()).map(|i| (res.records[i].offset, res.name(i))).collect();
    by_offset.sort();
    let order: Vec<&[u8]> = by_offset.iter().map(|p| p.1).collect();
    assert_eq!(
        order,
        vec![&b"ab"[..], b"ba", b"empty", b"readme.txt", b"textures\\A.mmp", b"textures\\b.mmp", PAPKA_FAIL]
    );
    // The lossless document rebuilds the writer's file.
    assert_eq!(write_document(&convert::to_document(&res)).unwrap(), bytes);
}

#[test]
fn writer_dedupe() {
    let inputs =
        || vec![input(b"one", b"same bytes", 1), input(b"two", b"same bytes", 2), input(b"three", b"other", 3)];
    let on = write(inputs(), true);
    let res = parse(&on).unwrap();
    let (one, two) = (res.find(b"one").unwrap(), res.find(b"two").unwrap());
    assert_eq!(res.records[one].offset, res.records[two].offset);
    assert_eq!(res.records[one].size, 10);
    assert_eq!(res.records[two].size, 10);
    assert_eq!(res.records[two].modified, 2);
    // Two stored ranges of 16 bytes each.
    assert_eq!(res.header.filetable_offset, 16 + 16 + 16);
    let doc = convert::to_document(&res);
    assert_eq!(doc.entries.iter().filter(|e| e.data.is_none()).count(), 1);
    assert_eq!(write_document(&doc).unwrap(), on);

    let off = write(inputs(), false);
    let res = parse(&off).unwrap();
    let (one, two) = (res.find(b"one").unwrap(), res.find(b"two").unwrap());
    assert_ne!(res.records[one].offset, res.records[two].offset);
    assert_eq!(res.data(one), b"same bytes");
    assert_eq!(res.data(two), b"same bytes");
    assert_eq!(res.header.filetable_offset, 16 + 3 * 16);
    // Same size, different contents: never merged.
    let res_bytes = write(vec![input(b"a", b"0123", 0), input(b"b", b"0124", 0)], true);
    let res = parse(&res_bytes).unwrap();
    assert_ne!(res.records[0].offset, res.records[1].offset);
}

#[test]
fn writer_is_deterministic_across_input_order() {
    let entries: Vec<(&[u8], &[u8], u32)> = vec![
        (b"Zeta", b"z", 1),
        (b"alpha", b"a", 2),
        (b"dir\\Beta", b"b", 3),
        (b"dir\\beta2", b"a", 4),
        (PAPKA_FAIL, PRIVET, 5),
        (b"ab", b"1", 6),
        (b"ba", b"2", 7),
    ];
    let forward = write(entries.iter().map(|e| input(e.0, e.1, e.2)).collect(), true);
    let backward = write(entries.iter().rev().map(|e| input(e.0, e.1, e.2)).collect(), true);
    assert_eq!(forward, backward);
    let rotated =
        write(entries.iter().cycle().skip(3).take(entries.len()).map(|e| input(e.0, e.1, e.2)).collect(), true);
    assert_eq!(forward, rotated);
}

#[test]
fn writer_refuses_case_insensitive_duplicates() {
    let mut out = Vec::new();
    let err = write_archive(
        vec![input(b"dir\\File.txt", b"1", 0), input(b"x", b"", 0), input(b"DIR\\file.TXT", b"2", 0)],
        PackOptions::default(),
        &mut out,
    )
    .unwrap_err();
    assert!(matches!(err, Error::Refusal { format: "ei-res", .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "ei-res: entries: two entries named `dir\\File.txt` (names are case-insensitive in RES)"
    );
    // Cyrillic letters are not folded (the game lowers A–Z only): `А` and `а` are two names.
    let bytes = write(vec![input(&[0xC0], b"upper", 0), input(&[0xE0], b"lower", 0)], true);
    let res = parse(&bytes).unwrap();
    assert_eq!(res.data(res.find(&[0xC0]).unwrap()), b"upper");
    assert_eq!(res.data(res.find(&[0xE0]).unwrap()), b"lower");
}

#[test]
fn encode_name_uses_backslashes_and_refuses_non_cp1251() {
    assert_eq!(encode_name("папка/файл.txt").unwrap(), PAPKA_FAIL);
    assert_eq!(encode_name("a\\b/c").unwrap(), b"a\\b\\c");
    let err = encode_name("日本.txt").unwrap_err();
    assert_eq!(err.to_string(), "ei-res: name: `日本.txt` has characters that cp1251 cannot hold");
}

#[test]
fn writer_empty_archive() {
    let bytes = write(vec![], true);
    assert_eq!(bytes, assemble(&[], 0));
}

/// A path component: ASCII letters, digits and a few signs, or cp1251 Cyrillic.
fn component() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            prop::sample::select(b"abcXYZ019_-. ".iter().map(|&b| char::from(b)).collect::<Vec<_>>()),
            prop::sample::select("абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЯ".chars().collect::<Vec<_>>()),
        ],
        1..8,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

fn name() -> impl Strategy<Value = String> {
    prop::collection::vec(component(), 1..4).prop_map(|parts| parts.join("\\"))
}

/// Up to 12 entries with distinct (case-insensitive) names; contents often repeat to exercise dedupe.
fn archive_inputs() -> impl Strategy<Value = Vec<(Vec<u8>, Vec<u8>, u32)>> {
    let content = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..70),
        prop::sample::select(vec![Vec::new(), b"same".to_vec(), vec![0xAB; 32]]),
    ];
    prop::collection::vec((name(), content, any::<u32>()), 0..12).prop_map(|items| {
        let mut seen = BTreeSet::new();
        items
            .into_iter()
            .filter_map(|(n, d, t)| {
                let raw = encode(CP1251, &n).expect("cp1251");
                seen.insert(raw.to_ascii_lowercase()).then_some((raw, d, t))
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn prop_write_parse_round_trip(inputs in archive_inputs(), dedupe in any::<bool>()) {
        let bytes = write(inputs.iter().map(|(n, d, t)| input(n, d, *t)).collect(), dedupe);
        let res = parse(&bytes).unwrap();
        assert_holds(&res, &inputs);
        let distinct: BTreeSet<&Vec<u8>> = inputs.iter().map(|i| &i.1).collect();
        let ranges: BTreeSet<u32> = res.records.iter().map(|r| r.offset).collect();
        if dedupe {
            prop_assert!(ranges.len() <= distinct.len());
        } else {
            let nonempty = inputs.iter().filter(|i| !i.1.is_empty()).count();
            prop_assert!(ranges.len() >= nonempty);
        }
        // Paths decode back to the names with `/`.
        for e in convert::entries(&res, "p.res") {
            prop_assert_eq!(encode_name(&e.path).unwrap(), e.name_raw.to_vec());
        }
        let doc = convert::to_document(&res);
        prop_assert!(doc.gaps.is_empty());
        prop_assert_eq!(write_document(&doc).unwrap(), bytes);
    }
}

// =========================================================================================================
// Lossless document

fn assert_lossless(bytes: &[u8]) -> ResDocument {
    let res = parse(bytes).unwrap();
    let doc = convert::to_document(&res);
    assert_eq!(doc.format, "ei-res");
    assert_eq!(doc.file_size, bytes.len() as u64);
    assert_eq!(doc.header, res.header);
    assert_eq!(write_document(&doc).unwrap(), bytes, "document rebuild");
    let text = serde_json::to_string(&doc).unwrap();
    let back: ResDocument = serde_json::from_str(&text).unwrap();
    assert_eq!(back, doc);
    assert_eq!(write_document(&back).unwrap(), bytes, "rebuild through JSON text");
    doc
}

#[test]
fn document_of_main_fixture() {
    let doc = assert_lossless(&main_fixture());
    assert!(doc.gaps.is_empty(), "zero padding is implied");
    let names: Vec<&str> = doc.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, vec!["ab", "alias.bin", "папка\\файл.txt", "ba", "DATA.BIN"]);
    assert!(doc.entries.iter().all(|e| e.name_bytes.is_none()));
    // alias.bin (slot 1) comes first in table order, so it holds the data; DATA.BIN (slot 4) points at it.
    assert_eq!(doc.entries[1].data.as_ref().unwrap().0, SHARED);
    assert_eq!(doc.entries[4].data, None);
    assert_eq!(doc.entries[4].same_as, Some(1));
    assert_eq!(doc.entries[2].record, rec(-1, 6, 48, 985_950_276, 14, 4));
    // The JSON carries the record fields flat beside the name.
    let value = serde_json::to_value(&doc).unwrap();
    assert_eq!(value["entries"][0]["next_index"], 3);
    assert_eq!(value["entries"][2]["name"], "папка\\файл.txt");
    assert_eq!(value["entries"][4]["same_as"], 1);
    assert_eq!(value["header"]["filetable_offset"], 80);
}

#[test]
fn document_keeps_non_zero_padding_and_slack() {
    // Padding of 0xAA after each entry's data.
    let bytes = assemble(&main_fixture_entries(), 0xAA);
    let doc = assert_lossless(&bytes);
    let gaps: Vec<(u64, Vec<u8>)> = doc.gaps.iter().map(|g| (g.offset, g.bytes.0.clone())).collect();
    assert_eq!(gaps, vec![(21, vec![0xAA; 11]), (39, vec![0xAA; 9]), (54, vec![0xAA; 10]), (73, vec![0xAA; 7])]);
    // Bytes outside every range: trailing bytes after the names.
    let mut bytes = main_fixture();
    bytes.extend_from_slice(b"trailing");
    let doc = assert_lossless(&bytes);
    assert_eq!(doc.gaps.len(), 1);
    assert_eq!((doc.gaps[0].offset, doc.gaps[0].bytes.0.as_slice()), (225, &b"trailing"[..]));
    // A name table larger than its names, with junk after the last name.
    let mut bytes = main_fixture();
    put_u32(&mut bytes, 12, 38);
    bytes.extend_from_slice(&[0, 9, 0]);
    let doc = assert_lossless(&bytes);
    let gaps: Vec<(u64, Vec<u8>)> = doc.gaps.iter().map(|g| (g.offset, g.bytes.0.clone())).collect();
    assert_eq!(gaps, vec![(225, vec![0, 9, 0])]);
}

#[test]
fn document_keeps_every_name_byte() {
    // WHATWG windows-1251 (encoding_rs) maps every byte, 0x98 included (to U+0098), so every cp1251 name
    // decodes to text that encodes back to the same bytes: `name_bytes` is never needed.
    let not_exact: Vec<u8> = (0..=255u8).filter(|&b| !decode_exact(CP1251, &[b]).1).collect();
    assert_eq!(not_exact, Vec::<u8>::new());
    assert_eq!(decode_exact(CP1251, &[0x98]), ("\u{98}".to_string(), true));
    let all: Vec<u8> = (1..=255u8).collect();
    let bytes =
        auto_fixture(&[(&[b'x', 0x98, b'y'], b"d", 1), (&all, b"every byte", 2), (&[0x00, 0x7F], b"", 3)], 0x55);
    let doc = assert_lossless(&bytes);
    assert!(doc.entries.iter().all(|e| e.name_bytes.is_none()));
    assert!(doc.entries.iter().any(|e| e.name == "x\u{98}y"));
    // `name_bytes`, when given, wins over `name`.
    let mut edited = doc.clone();
    let i = edited.entries.iter().position(|e| e.name == "x\u{98}y").unwrap();
    edited.entries[i].name = "abc".into();
    edited.entries[i].name_bytes = Some(relic::bytes::Base64(vec![b'x', 0x98, b'y']));
    assert_eq!(write_document(&edited).unwrap(), bytes);
}

#[test]
fn document_rejects_inconsistent_input() {
    let doc = convert::to_document(&parse(&main_fixture()).unwrap());
    let field = |d: &ResDocument| write_document(d).unwrap_err().field().map(str::to_owned);

    let mut d = doc.clone();
    d.entries.pop();
    assert_eq!(field(&d).as_deref(), Some("header.files_count"));
    let mut d = doc.clone();
    d.entries[0].name = "abc".into();
    assert_eq!(field(&d).as_deref(), Some("entries[0].name_len"));
    let mut d = doc.clone();
    d.entries[0].data = Some(relic::bytes::Base64(b"four".to_vec()));
    assert_eq!(field(&d).as_deref(), Some("entries[0].size"));
    let mut d = doc.clone();
    d.entries[4].same_as = None;
    assert_eq!(field(&d).as_deref(), Some("entries[4].data"));
    let mut d = doc.clone();
    d.entries[1].same_as = Some(4); // not an earlier entry
    d.entries[1].data = None;
    assert_eq!(field(&d).as_deref(), Some("entries[1].data"));
    let mut d = doc.clone();
    d.file_size = 200;
    assert!(field(&d).unwrap().starts_with("entries["), "{:?}", field(&d));
    let mut d = doc.clone();
    d.entries[0].name = "日本".into();
    assert_eq!(field(&d).as_deref(), Some("entries[0].name"));
    // Two names at the same place with different bytes: no file holds both (this was written, and read
    // back as another document).
    let mut d = doc.clone();
    d.entries[3].record.name_offset = d.entries[0].record.name_offset;
    assert_eq!(field(&d).as_deref(), Some("entries[3].name_offset"));
    // A gap over an entry's data with other bytes.
    let mut d = doc;
    let at = u64::from(d.entries[1].record.offset);
    d.gaps.push(relic::layout::Gap { offset: at, bytes: relic::bytes::Base64(vec![0xEE]) });
    assert_eq!(field(&d).as_deref(), Some("gaps[0]"));
}

// =========================================================================================================
// Corpus (`../shared/corpus/evil-islands/`, read in place)

fn corpus(name: &str) -> Option<Vec<u8>> {
    crate::common::corpus_file(&format!("evil-islands/{name}"))
}

/// `(name, time, data)` of every entry.
fn contents(res: &Res<'_>) -> BTreeSet<(Vec<u8>, u32, Vec<u8>)> {
    (0..res.len()).map(|i| (res.name(i).to_vec(), res.records[i].modified, res.data(i).to_vec())).collect()
}

/// Packs an archive's entries again with the writer (dedupe on).
fn repack(res: &Res<'_>) -> Vec<u8> {
    write((0..res.len()).map(|i| input(res.name(i), res.data(i), res.records[i].modified)).collect(), true)
}

#[test]
fn corpus_texts_en() {
    let Some(bytes) = corpus("texts_en.res") else { return };
    let res = parse(&bytes).unwrap();
    assert_eq!(res.len(), 3170);
    assert_eq!(res.header, ResHeader { files_count: 3170, filetable_offset: 676_688, nametable_size: 66_535 });
    assert!(res.unreachable().is_empty());
    let map = res.find(b"map.txt").unwrap();
    assert_eq!(map, 4);
    assert_eq!(res.records[map], rec(-1, 36_548, 397_456, 985_944_120, 7, 65_957));
    assert_eq!(res.find(b"MAP.TXT"), Some(4));
    assert_eq!(res.find(b"quest q72h").map(|i| res.records[i].size), Some(4078));
    assert!(res.records.iter().all(|r| r.offset % 16 == 0));
    let entries = convert::entries(&res, "texts_en.res");
    assert_eq!(entries[4].path, "map.txt");
    assert_eq!(entries[4].size, 36_548);

    let doc = assert_lossless(&bytes);
    assert_eq!(doc.entries.iter().filter(|e| e.same_as.is_some()).count(), 3170 - 3140);

    // The game's archive was not written in name order: a repack keeps every entry but not the bytes.
    let again = repack(&res);
    assert_ne!(again, bytes);
    let res2 = parse(&again).unwrap();
    assert!(res2.unreachable().is_empty());
    assert_eq!(contents(&res2), contents(&res));
}

#[test]
fn corpus_aux_data() {
    let Some(bytes) = corpus("auxData.res") else { return };
    let res = parse(&bytes).unwrap();
    assert_eq!(res.len(), 30);
    assert_eq!(res.header, ResHeader { files_count: 30, filetable_offset: 433_008, nametable_size: 326 });
    assert!(res.unreachable().is_empty());
    assert_eq!(res.find(b"light.mod"), Some(2));
    assert_eq!(res.records[2], rec(13, 6805, 231_472, 1_659_260_639, 9, 107));
    let doc = assert_lossless(&bytes);
    assert!(doc.gaps.is_empty());
    // Written by a tool with relic's layout: the repack is byte-identical.
    let again = repack(&res);
    assert_eq!(again.len(), bytes.len());
    assert!(
        again == bytes,
        "repacked auxData.res differs at byte {:?}",
        again.iter().zip(&bytes).position(|(a, b)| a != b)
    );
}

#[test]
fn corpus_aux_data_nested_archives() {
    let Some(bytes) = corpus("auxData.res") else { return };
    let res = parse(&bytes).unwrap();
    // light.mod is itself a RES: the LNK named after the model (17 bytes) and the FIG part `mesh`.
    let nested = parse(res.data(res.find(b"light.mod").unwrap())).unwrap();
    assert_eq!(nested.len(), 2);
    assert_eq!(nested.name(0), b"light");
    assert_eq!(nested.records[0], rec(-1, 17, 16, 1_659_260_639, 5, 0));
    assert_eq!(nested.name(1), b"mesh");
    assert_eq!(nested.records[1].size, 6694);
    assert!(nested.unreachable().is_empty());
    let paths: Vec<String> = convert::entries(&nested, "light.mod").into_iter().map(|e| e.path.into_owned()).collect();
    assert_eq!(paths, vec!["light", "mesh"]);
    // Every .bon holds one 96-byte `mesh`, extracted as `mesh.bon`.
    let bons: Vec<usize> = (0..res.len()).filter(|&i| res.name(i).ends_with(b".bon")).collect();
    assert_eq!(bons.len(), 10);
    for i in bons {
        let bon = parse(res.data(i)).unwrap();
        let entries = convert::entries(&bon, &String::from_utf8_lossy(res.name(i)));
        assert_eq!(entries.len(), 1);
        assert_eq!((&*entries[0].name, &*entries[0].path, entries[0].size), ("mesh", "mesh.bon", 96));
        assert_lossless(res.data(i));
    }
    let light_bon = parse(res.data(res.find(b"light.bon").unwrap())).unwrap();
    assert_eq!(convert::entries(&light_bon, "light.bon")[0].path, "mesh.bon");
    // The nested `.mod` archives come from another tool: data in insertion order (the LNK, then `mesh`),
    // names in table-slot order. In view.mod both names hash to slot 1 ("mesh" = 429, "view" = 443, mod 2):
    // `view` went in first and holds slot 1, `mesh` collided into slot 0, so `mesh`'s name comes first but its
    // data second. A repack keeps their entries but not their bytes; the one-entry `.bon`s repack exactly.
    let view = parse(res.data(res.find(b"view.mod").unwrap())).unwrap();
    assert_eq!(view.records, vec![rec(-1, 63_240, 48, 1_659_260_793, 4, 0), rec(0, 17, 16, 1_659_260_793, 4, 4)]);
    for i in (0..res.len()).filter(|&i| res.name(i).ends_with(b".mod") || res.name(i).ends_with(b".bon")) {
        let label = String::from_utf8_lossy(res.name(i)).into_owned();
        let inner = parse(res.data(i)).unwrap();
        assert!(inner.unreachable().is_empty(), "{label}");
        assert_lossless(res.data(i));
        let again = repack(&inner);
        assert_eq!(contents(&parse(&again).unwrap()), contents(&inner), "{label}");
        if label.ends_with(".bon") {
            assert!(again == res.data(i), "{label} repacks differently");
        }
    }
    assert_robust(res.data(res.find(b"light.bon").unwrap()));
}

// =========================================================================================================
// Extraction and packing through `relic::ops`

fn mtime(path: &Path) -> SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

fn at_secs(secs: u32) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(u64::from(secs))
}

/// Every regular file under `dir`, relative path with `/` → bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    relic::testing::files_under(dir)
}

fn save(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn extract_writes_files_with_times_and_respects_force() {
    let tmp = tempfile::tempdir().unwrap();
    let entries: [(&str, &[u8], u32); 4] = [
        ("readme.txt", b"hello, islands", 985_950_276),
        ("папка\\файл.txt", PRIVET, 1_000_000_000),
        ("textures\\a.mmp", &[7u8; 40], 1_659_260_639),
        ("textures\\b.mmp", &[7u8; 40], 86_400),
    ];
    let archive = save(tmp.path(), "a.res", &writer_made(&entries, true));
    let out = tmp.path().join("out");
    let report = ops::extract(&archive, &out, &ops::ExtractOptions::default(), &ops::Quiet).unwrap();
    assert_eq!(report.written.len(), 4);
    assert_eq!(report.bytes, 14 + 6 + 40 + 40);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let want: BTreeMap<String, Vec<u8>> = entries.iter().map(|e| (e.0.replace('\\', "/"), e.1.to_vec())).collect();
    assert_eq!(tree(&out), want);
    for (name, _, time) in entries {
        let path = out.join(name.replace('\\', "/"));
        assert_eq!(mtime(&path), at_secs(time), "{name}");
    }

    // Again without force: refused once, before anything is written, naming the count; nothing changes.
    std::fs::write(out.join("readme.txt"), b"edited").unwrap();
    let err = ops::extract(&archive, &out, &ops::ExtractOptions::default(), &ops::Quiet).unwrap_err().to_string();
    assert!(err.contains("already holds 4 of the 4 files this extraction writes"), "{err}");
    assert_eq!(std::fs::read(out.join("readme.txt")).unwrap(), b"edited");
    // With force every entry is written again.
    let force = ops::ExtractOptions { force: true, ..Default::default() };
    let report = ops::extract(&archive, &out, &force, &ops::Quiet).unwrap();
    assert_eq!((report.written.len(), report.failures.len()), (4, 0));
    assert_eq!(tree(&out), want);
    assert_eq!(mtime(&out.join("readme.txt")), at_secs(985_950_276));

    // Packing the extracted folder gives the same names, times and bytes.
    let packed = tmp.path().join("packed.res");
    ops::pack("ei-res", &out, &packed, &ops::PackOptions::default()).unwrap();
    let original = std::fs::read(&archive).unwrap();
    let again = std::fs::read(&packed).unwrap();
    assert_eq!(contents(&parse(&again).unwrap()), contents(&parse(&original).unwrap()));
    assert_eq!(again, original, "same inputs, same layout");
    // Without --force the existing output is kept.
    assert!(ops::pack("ei-res", &out, &packed, &ops::PackOptions::default()).is_err());
}

#[test]
fn extract_recursive_writes_nested_archives_as_folders() {
    let tmp = tempfile::tempdir().unwrap();
    let inner = writer_made(&[("x.txt", b"inner x", 100), ("sub\\y.txt", b"inner y", 200)], true);
    let bon = writer_made(&[("mesh", &[1u8; 96], 300)], true);
    let outer = writer_made(&[("inner.res", &inner, 400), ("model.bon", &bon, 500), ("top.txt", b"top", 600)], true);
    let archive = save(tmp.path(), "outer.res", &outer);

    // Without --recursive the nested archives are plain files.
    let flat = tmp.path().join("flat");
    let report = ops::extract(&archive, &flat, &ops::ExtractOptions::default(), &ops::Quiet).unwrap();
    assert_eq!(report.written.len(), 3);
    assert_eq!(std::fs::read(flat.join("inner.res")).unwrap(), inner);

    let deep = tmp.path().join("deep");
    let opts = ops::ExtractOptions { recursive: true, ..Default::default() };
    let report = ops::extract(&archive, &deep, &opts, &ops::Quiet).unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    // Each nested archive's folder holds the note that packs it back as that archive, with its entry's time.
    let note = |modified: u64| {
        format!(
            "{{\n  \"format\": \"ei-res\",\n  \"modified\": {modified},\n  \"note\": \"{}\"\n}}",
            ops::NestedArchive::NOTE
        )
        .into_bytes()
    };
    let want: BTreeMap<String, Vec<u8>> = [
        ("inner.res/.relic-archive.json", note(400)),
        ("inner.res/x.txt", b"inner x".to_vec()),
        ("inner.res/sub/y.txt", b"inner y".to_vec()),
        ("model.bon/.relic-archive.json", note(500)),
        ("model.bon/mesh.bon", vec![1u8; 96]),
        ("top.txt", b"top".to_vec()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(tree(&deep), want);
    assert_eq!(report.written.len(), 6);
    // The whole folder packs back to the archive it came from, nested archives as archives, byte for byte.
    let whole = tmp.path().join("whole.res");
    ops::pack("ei-res", &deep, &whole, &ops::PackOptions::default()).unwrap();
    assert_eq!(std::fs::read(&whole).unwrap(), outer);
    assert_eq!(mtime(&deep.join("inner.res/sub/y.txt")), at_secs(200));
    // Packing the .bon folder into a .bon archive takes the inherited extension off again.
    let bon_again = tmp.path().join("again.bon");
    ops::pack("ei-res", &deep.join("model.bon"), &bon_again, &ops::PackOptions::default()).unwrap();
    assert_eq!(std::fs::read(&bon_again).unwrap(), bon);
}

#[test]
fn extract_refuses_unsafe_names() {
    let tmp = tempfile::tempdir().unwrap();
    let bytes = auto_fixture(
        &[
            (b"..\\evil.txt", b"evil", 1),
            (b"C:\\x.txt", b"drive", 2),
            (b"\\abs.txt", b"abs", 3),
            (b"good.txt", b"good", 4),
        ],
        0,
    );
    assert!(parse(&bytes).unwrap().unreachable().is_empty());
    let archive = save(tmp.path(), "bad.res", &bytes);
    let out = tmp.path().join("out");
    let report = ops::extract(&archive, &out, &ops::ExtractOptions::default(), &ops::Quiet).unwrap();
    assert_eq!(report.written.len(), 1);
    assert_eq!(report.failures.len(), 3, "{:?}", report.failures);
    for bad in ["..\\evil.txt", "C:\\x.txt", "\\abs.txt"] {
        let naming = report.failures.iter().filter(|f| f.contains(&format!("entry `{bad}`"))).count();
        assert_eq!(naming, 1, "{bad}: {:?}", report.failures);
    }
    assert_eq!(tree(&out), BTreeMap::from([("good.txt".to_string(), b"good".to_vec())]));
    // Nothing beside the target folder.
    let mut beside: Vec<String> =
        std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    beside.sort();
    assert_eq!(beside, vec!["bad.res", "out"]);
    assert!(!Path::new("/abs.txt").exists());
}

/// In a `.bon` archive `mesh` is extracted as `mesh.bon` (spec "Res": extensionless BON/ANM entries), which
/// an entry really named `mesh.bon` also maps to: the second is reported, not overwritten.
#[test]
fn extract_reports_colliding_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let bytes = writer_made(&[("mesh", b"one", 1), ("mesh.bon", b"two", 2)], true);
    let archive = save(tmp.path(), "x.bon", &bytes);
    let out = tmp.path().join("out");
    let report = ops::extract(&archive, &out, &ops::ExtractOptions::default(), &ops::Quiet).unwrap();
    assert_eq!(report.written.len(), 1);
    assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
    assert!(report.failures[0].contains("same path"), "{:?}", report.failures);
}

#[test]
fn format_is_registered() {
    assert_eq!(res::FORMAT_ID, "ei-res");
    let (format, _) = relic::registry::sniff(&main_fixture(), "anything.bin").unwrap();
    assert_eq!(format.id, "ei-res");
    let info = format.info(&main_fixture()).unwrap();
    assert_eq!(info["entries"], 5);
    assert_eq!(info["distinct_data_ranges"], 4);
    assert_eq!(info["unreachable_by_hash"], 0);
    assert_eq!(info["content_bytes"], 5 + 7 + 6 + 9 + 9);
}

// =========================================================================================================
// Text entries (texts.res): convert to UTF-8 .txt, edit, pack back to cp1251

/// A `texts.res` made by hand: two cp1251 text entries named as the game names them, a real `map.txt`
/// (a `.txt` entry, kept raw) and a binary entry.
fn texts_fixture() -> Vec<u8> {
    // "Привет\r\nмир" in cp1251: П 0xCF р 0xF0 и 0xE8 в 0xE2 е 0xE5 т 0xF2, м 0xEC и 0xE8 р 0xF0.
    auto_fixture(
        &[
            (b"string hello", b"\xCF\xF0\xE8\xE2\xE5\xF2\r\n\xEC\xE8\xF0\r\n", 1_000_000),
            (b"tip 21201", b"Keystones\r\nShows keystones.\r\n", 1_000_001),
            (b"map.txt", b"## format:\r\n#zone z1\r\n", 1_000_002),
            (b"blob", b"\x00\x01\x02", 1_000_003),
        ],
        0,
    )
}

#[test]
fn text_entries_convert_to_utf8_txt_and_an_edit_packs_back_to_only_that_change() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("texts.res");
    let original = texts_fixture();
    std::fs::write(&input, &original).unwrap();
    let out = dir.path().join("out");
    let report = ops::convert(std::slice::from_ref(&input), &out, &ops::ConvertRequest::default(), &ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let root = out.join("texts.res");
    let mut files: Vec<String> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    files.sort();
    assert_eq!(files, ["blob", "map.txt", "string hello.txt", "tip 21201.txt"]);
    // UTF-8 with its byte order mark; line ends as stored.
    assert_eq!(std::fs::read(root.join("string hello.txt")).unwrap(), "\u{FEFF}Привет\r\nмир\r\n".as_bytes());
    assert_eq!(std::fs::read(root.join("map.txt")).unwrap(), b"## format:\r\n#zone z1\r\n");
    // Unedited, the folder packs to the same entries, names, times and bytes.
    let same = dir.path().join("same.res");
    ops::pack("ei-res", &root, &same, &ops::PackOptions::default()).unwrap();
    let same_bytes = std::fs::read(&same).unwrap();
    let want = contents(&parse(&original).unwrap());
    assert_eq!(contents(&parse(&same_bytes).unwrap()), want);
    // The translator's edit: "мир" becomes "новый мир".
    std::fs::write(root.join("string hello.txt"), "\u{FEFF}Привет\r\nновый мир\r\n").unwrap();
    let back = dir.path().join("back.res");
    ops::pack("ei-res", &root, &back, &ops::PackOptions::default()).unwrap();
    let back_bytes = std::fs::read(&back).unwrap();
    let got = contents(&parse(&back_bytes).unwrap());
    // н 0xED о 0xEE в 0xE2 ы 0xFB й 0xE9.
    let edited = b"\xCF\xF0\xE8\xE2\xE5\xF2\r\n\xED\xEE\xE2\xFB\xE9 \xEC\xE8\xF0\r\n".to_vec();
    // Only that entry changed: its bytes, and its time (the edited file's).
    let changed: Vec<_> = got.difference(&want).map(|(name, _, data)| (name.clone(), data.clone())).collect();
    assert_eq!(changed, [(b"string hello".to_vec(), edited)]);
    assert_eq!(want.difference(&got).map(|e| e.0.clone()).collect::<Vec<_>>(), [b"string hello".to_vec()]);
    // A character cp1251 cannot hold: the error names the file, line, column, entry and character.
    let txt = root.join("string hello.txt");
    std::fs::write(&txt, "\u{FEFF}Привет\r\nмир ★\r\n").unwrap();
    let err =
        ops::pack("ei-res", &root, &dir.path().join("bad.res"), &ops::PackOptions::default()).unwrap_err().to_string();
    assert!(
        err.contains(&format!(
            "{}:2:5: text entry `string hello`: the character '★' (U+2605) is not in cp1251, the code page of \
             Evil Islands texts",
            txt.display()
        )),
        "{err}"
    );
}

#[test]
fn corpus_texts_en_converts_to_txt_and_packs_back_to_the_same_entries() {
    let Some(bytes) = corpus("texts_en.res") else { return };
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("texts_en.res");
    std::fs::write(&input, &bytes).unwrap();
    let out = dir.path().join("out");
    let report = ops::convert(std::slice::from_ref(&input), &out, &ops::ConvertRequest::default(), &ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    // Every entry but `map.txt` (kept raw) and 31 empty ones (`say R1`, …: kept raw) is a text entry.
    let root = out.join("texts_en.res");
    let (mut texts, mut raw) = (0, Vec::new());
    for e in std::fs::read_dir(&root).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".txt") && std::fs::read(e.path()).unwrap().starts_with("\u{FEFF}".as_bytes()) {
            texts += 1;
        } else {
            raw.push((name, e.metadata().unwrap().len()));
        }
    }
    assert_eq!(texts, 3138);
    assert_eq!(raw.len(), 32);
    assert!(raw.iter().all(|(name, len)| *len == 0 || name == "map.txt"), "{raw:?}");
    let back = dir.path().join("back.res");
    ops::pack("ei-res", &out.join("texts_en.res"), &back, &ops::PackOptions::default()).unwrap();
    let packed = std::fs::read(&back).unwrap();
    assert_eq!(contents(&parse(&packed).unwrap()), contents(&parse(&bytes).unwrap()));
}
