//! Evil Islands databases (`ei-db`): hand-made fixtures, both node-length readings, errors, robustness,
//! writer round trips, lossless documents, tables/CSV and registry behaviour.
//!
//! Layout (spec `evil-islands.txt`, "Databases (* DB and their ilk)", with docs/formats/evil-islands.md#db-node-length):
//! a node is `u8 type`, a size (`b0` even: length `b0 >> 1`; `b0` odd: a 4-byte length, read either as
//! `(u32 LE from b0) >> 1` or, by the spec's byte loop, `b0 >> 1` then three bytes big-endian), then the
//! payload. The file's first node is the database; its children are tables (type byte = 1-based table
//! number), whose children are records, whose children are fields (type byte = index in the table's format
//! string).
//!
//! The fixtures below are written byte by byte from those rules, independently of relic's writer. There is
//! no DB file in `../shared/corpus/`.

use proptest::prelude::*;
use relic::bytes::Hex;
use relic::evil_islands::db::types::{Database, RawNode, RecordBody, TableBody};
use relic::evil_islands::db::{
    self, convert, parse, parse_with, read, write, write_document, DbDocument, Field, FileType, LengthEncoding, Record,
    Table, Value,
};
use relic::Error;
use serde_json::json;

// =========================================================================================================
// Hand-made node helpers (spec "Databases")

/// A node with the 1-byte size form (`len << 1`, even).
fn short(ty: u8, payload: &[u8]) -> Vec<u8> {
    assert!(payload.len() < 128, "short form holds 0..=127");
    let mut v = vec![ty, (payload.len() as u8) << 1];
    v.extend_from_slice(payload);
    v
}

/// A node with the 4-byte size form, u32-le reading: `(len << 1 | 1)` little-endian.
fn long_le(ty: u8, payload: &[u8]) -> Vec<u8> {
    let mut v = vec![ty];
    v.extend_from_slice(&((payload.len() as u32) << 1 | 1).to_le_bytes());
    v.extend_from_slice(payload);
    v
}

/// A node with the 4-byte size form, the spec's byte loop: `b0 = (len >> 24) << 1 | 1`, then the low three
/// bytes of the length big-endian.
fn long_be(ty: u8, payload: &[u8]) -> Vec<u8> {
    let len = payload.len() as u32;
    let mut v = vec![ty, ((len >> 24) as u8) << 1 | 1, (len >> 16) as u8, (len >> 8) as u8, len as u8];
    v.extend_from_slice(payload);
    v
}

/// A node in the short form when it fits, else the long form of `enc`.
fn node(enc: LengthEncoding, ty: u8, payload: &[u8]) -> Vec<u8> {
    match (payload.len() < 128, enc) {
        (true, _) => short(ty, payload),
        (false, LengthEncoding::U32Le) => long_le(ty, payload),
        (false, LengthEncoding::BytesBe) => long_be(ty, payload),
    }
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

// =========================================================================================================
// The main fixture: an .idb with the armor table (table 3, "SSISIIIFFFFIFIXB00000ffBiHH") of 2 records,
// then an empty materials table (1) and an unknown table (9).

/// Record 1: one field of each kind the armor layout has, all decoding exactly.
fn armor_record_1() -> Vec<u8> {
    cat(&[
        &[0x00, 0x0C, b'P', b'l', b'a', b't', b'e', 0x00], // f0  S "Plate"
        &[0x01, 0x0A, 0xCB, 0xE0, 0xF2, 0xFB, 0x00],       // f1  S "Латы" (cp1251)
        &[0x02, 0x08, 0xFB, 0xFF, 0xFF, 0xFF],             // f2  I −5
        &[0x07, 0x08, 0x00, 0x00, 0xC0, 0x3F],             // f7  F 1.5
        &[0x0E, 0x02, 0x05],                               // f14 X 0b00000101
        &[0x0F, 0x02, 0x01],                               // f15 B true
        &[0x11, 0x04, 0xAB, 0xCD],                         // f17 `0`: not stated, raw
        &[0x15, 0x20, 0x00, 0x00, 0x80, 0x3E, 0x00, 0x00, 0x00, 0xC0, 0xCD, 0xCC, 0xCC, 0x3D, 0x00, 0x00, 0x00, 0x80], // f21 f [0.25, −2, 0.1, −0]
        &[0x18, 0x20, 0x01, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x80, 0xFF, 0xFF, 0xFF, 0x7F], // f24 i [1, −1, MIN, MAX]
        &[0x19, 0x08, 0xDE, 0xAD, 0xBE, 0xEF], // f25 H
    ])
}

/// Record 2: values that do not fit their letters (kept raw) and edge cases.
fn armor_record_2() -> Vec<u8> {
    cat(&[
        &[0x00, 0x02, 0x00],                   // f0  S "" (just the NUL)
        &[0x01, 0x06, b'a', 0x00, b'b'],       // f1  S with a NUL inside and none at the end: raw
        &[0x02, 0x06, 0x01, 0x02, 0x03],       // f2  I of 3 bytes: raw
        &[0x07, 0x08, 0x00, 0x00, 0xC0, 0x7F], // f7  F NaN: raw
        &[0x0E, 0x04, 0xFF, 0x00],             // f14 X two bytes
        &[0x0F, 0x02, 0x02],                   // f15 B 2: raw
        &[0x17, 0x02, 0x00],                   // f23 B false
        &[0x28, 0x04, 0x01, 0x02],             // f40: past the format string, raw
        &[0x15, 0x00],                         // f21 f empty
        &[0x02, 0x08, 0x07, 0x00, 0x00, 0x00], // f2 again: I 7 (a repeated index is kept in order)
    ])
}

fn main_fixture() -> Vec<u8> {
    let records = cat(&[&short(0x01, &armor_record_1()), &short(0x02, &armor_record_2())]);
    let tables = cat(&[&short(0x03, &records), &short(0x01, &[]), &short(0x09, &[0x05, 0x00])]);
    long_le(0x01, &tables)
}

fn idb(bytes: &[u8]) -> DbDocument {
    parse(bytes, FileType::Items).unwrap_or_else(|e| panic!("{e}"))
}

fn fields(rec: &Record) -> &[Field] {
    match &rec.body {
        RecordBody::Fields(f) => f,
        RecordBody::Data(d) => panic!("record kept as data {d:?}"),
    }
}

fn records(t: &Table) -> &[Record] {
    match &t.body {
        TableBody::Records(r) => r,
        TableBody::Data(d) => panic!("table kept as data {d:?}"),
    }
}

/// A CSV line with every cell quoted (as a spreadsheet may write it).
fn csv_line(cells: &[String]) -> String {
    let cells: Vec<String> = cells.iter().map(|c| format!("\"{}\"", c.replace('"', "\"\""))).collect();
    cells.join(",") + "\n"
}

fn f(type_byte: u8, value: Value) -> Field {
    Field { type_byte, long: false, value }
}

fn raw(b: &[u8]) -> Value {
    Value::Raw(Hex(b.to_vec()))
}

#[test]
fn main_fixture_decodes_exact_values() {
    let bytes = main_fixture();
    let doc = idb(&bytes);
    assert_eq!(doc.format, "ei-db");
    assert_eq!(doc.file_type, FileType::Items);
    assert_eq!(doc.length_encoding, LengthEncoding::U32Le);
    // The database (132 bytes) needs the 4-byte form: not `long` (that marks a 4-byte form for ≤ 127).
    assert_eq!((doc.database.type_byte, doc.database.long), (1, false));
    assert_eq!(&bytes[..5], &[0x01, 0x09, 0x01, 0x00, 0x00]);
    assert!(doc.trailer.is_empty());
    assert_eq!(doc.database.tables.len(), 3);

    let armor = &doc.database.tables[0];
    assert_eq!((armor.type_byte, armor.long), (3, false));
    assert_eq!(armor.name.as_deref(), Some("Armor"));
    assert_eq!(armor.name_ru.as_deref(), Some("Броня"));
    assert_eq!(armor.layout.as_deref(), Some("SSISIIIFFFFIFIXB00000ffBiHH"));
    let recs = records(armor);
    assert_eq!(recs.len(), 2);
    assert_eq!((recs[0].type_byte, recs[1].type_byte), (1, 2));
    assert_eq!(
        fields(&recs[0]),
        &[
            f(0, Value::String("Plate".into())),
            f(1, Value::String("Латы".into())),
            f(2, Value::Int(-5)),
            f(7, Value::Float(1.5)),
            f(14, Value::Bits("10100000".into())),
            f(15, Value::Bool(true)),
            f(17, raw(&[0xAB, 0xCD])),
            f(21, Value::Floats(vec![0.25, -2.0, 0.1, -0.0])),
            f(24, Value::Ints(vec![1, -1, i32::MIN, i32::MAX])),
            f(25, Value::Hex(Hex(vec![0xDE, 0xAD, 0xBE, 0xEF]))),
        ]
    );
    assert_eq!(
        fields(&recs[1]),
        &[
            f(0, Value::String(String::new())),
            f(1, raw(b"a\0b")),
            f(2, raw(&[1, 2, 3])),
            f(7, raw(&[0x00, 0x00, 0xC0, 0x7F])),
            f(14, Value::Bits("1111111100000000".into())),
            f(15, raw(&[2])),
            f(23, Value::Bool(false)),
            f(40, raw(&[1, 2])),
            f(21, Value::Floats(vec![])),
            f(2, Value::Int(7)),
        ]
    );
    // -0.0 keeps its sign.
    let Value::Floats(fl) = &fields(&recs[0])[7].value else { panic!() };
    assert_eq!(fl[3].to_bits(), 0x8000_0000);

    let materials = &doc.database.tables[1];
    assert_eq!((materials.type_byte, materials.name.as_deref()), (1, Some("Materials")));
    assert!(records(materials).is_empty());

    // Table 9 is not in the spec's list for .idb: no layout, but its nodes are still read (fields raw).
    let unknown = &doc.database.tables[2];
    assert_eq!((unknown.type_byte, unknown.name.as_deref(), unknown.layout.as_deref()), (9, None, None));
    assert_eq!(records(unknown), &[Record { type_byte: 5, long: false, body: RecordBody::Fields(vec![]) }]);
}

#[test]
fn unknown_file_type_keeps_every_field_raw() {
    let doc = parse(&main_fixture(), FileType::Unknown).unwrap();
    let recs = records(&doc.database.tables[0]);
    assert_eq!(recs[0].type_byte, 1);
    assert_eq!(fields(&recs[0])[0], f(0, raw(b"Plate\0")));
    assert_eq!(fields(&recs[0])[2], f(2, raw(&[0xFB, 0xFF, 0xFF, 0xFF])));
    assert!(doc.database.tables.iter().all(|t| t.name.is_none()));
}

/// `.ldb` lever prototypes "SfIFTSSS": T (time), f, I, F, S.
#[test]
fn ldb_time_field() {
    let rec = cat(&[
        &[0x00, 0x0A, b'l', b'e', b'v', b'r', 0x00], // f0 S
        &[0x01, 0x08, 0x00, 0x00, 0x20, 0x41],       // f1 f [10]
        &[0x02, 0x08, 0x2A, 0x00, 0x00, 0x00],       // f2 I 42
        &[0x03, 0x08, 0x00, 0x00, 0x80, 0xBF],       // f3 F −1
        &[0x04, 0x08, 0x10, 0x0E, 0x00, 0x00],       // f4 T 3600
        &[0x04, 0x08, 0xFF, 0xFF, 0xFF, 0xFF],       // f4 T −1
        &[0x07, 0x02, 0x00],                         // f7 S ""
    ]);
    let bytes = short(0x02, &short(0x01, &short(0x00, &rec)));
    let doc = parse(&bytes, FileType::Levers).unwrap();
    let t = &doc.database.tables[0];
    assert_eq!((t.name.as_deref(), t.name_ru.as_deref()), (Some("Lever prototypes"), Some("Прототип переключателя")));
    assert_eq!(
        fields(&records(t)[0]),
        &[
            f(0, Value::String("levr".into())),
            f(1, Value::Floats(vec![10.0])),
            f(2, Value::Int(42)),
            f(3, Value::Float(-1.0)),
            f(4, Value::Time(3600)),
            f(4, Value::Time(-1)),
            f(7, Value::String(String::new())),
        ]
    );
}

/// `.udb` races "SUFFUUFfFUUf222222…SssFSsfUUfUUIUSBFUUUU": U, composite 2 = SUFF (nested fields), `s`
/// (nested strings), B.
#[test]
fn udb_uint_composite_and_strings() {
    let composite = cat(&[
        &[0x00, 0x06, b'h', b'd', 0x00],       // S
        &[0x01, 0x08, 0xFF, 0xFF, 0xFF, 0xFF], // U 4294967295
        &[0x02, 0x08, 0x00, 0x00, 0x00, 0x40], // F 2
        &[0x03, 0x08, 0x00, 0x00, 0x40, 0x40], // F 3
    ]);
    let strings = cat(&[&[0x01, 0x04, b'a', 0x00], &[0x01, 0x06, b'b', b'c', 0x00], &[0x07, 0x02, 0x00]]);
    let rec = cat(&[
        &[0x01, 0x08, 0x0A, 0x00, 0x00, 0x00], // f1 U 10
        &short(12, &composite),                // f12 `2`
        &short(31, &strings),                  // f31 `s`
        &[45, 0x02, 0x01],                     // f45 B
        &[13, 0x04, 0x01, 0x02],               // f13 `2` whose payload is not nodes: raw
    ]);
    let bytes = short(0x06, &short(0x02, &short(0x00, &rec)));
    let doc = parse(&bytes, FileType::Units).unwrap();
    let t = &doc.database.tables[0];
    assert_eq!((t.type_byte, t.name.as_deref(), t.name_ru.as_deref()), (2, Some("Races"), Some("Расы")));
    assert_eq!(
        fields(&records(t)[0]),
        &[
            f(1, Value::Uint(10)),
            f(
                12,
                Value::Record(vec![
                    f(0, Value::String("hd".into())),
                    f(1, Value::Uint(u32::MAX)),
                    f(2, Value::Float(2.0)),
                    f(3, Value::Float(3.0)),
                ])
            ),
            f(
                31,
                Value::Strings(vec![
                    f(1, Value::String("a".into())),
                    f(1, Value::String("bc".into())),
                    f(7, Value::String(String::new())),
                ])
            ),
            f(45, Value::Bool(true)),
            f(13, raw(&[0x01, 0x02])),
        ]
    );
}

/// `prints.db` fire prints "0S110000001": composite 1 = 0FII at fields 2, 3 and 10.
#[test]
fn prints_composite_1() {
    let sub = cat(&[
        &[0x01, 0x08, 0x00, 0x00, 0x00, 0x3F], // F 0.5
        &[0x02, 0x08, 0x03, 0x00, 0x00, 0x00], // I 3
        &[0x03, 0x08, 0xFE, 0xFF, 0xFF, 0xFF], // I −2
        &[0x00, 0x02, 0x09],                   // `0`: raw
    ]);
    let rec = cat(&[&[0x01, 0x08, b'f', b'i', b'r', 0x00], &short(10, &sub)]);
    let bytes = short(0x04, &short(0x02, &short(0x07, &rec)));
    assert_eq!(FileType::from_name("C:\\Games\\EI\\Res\\PRINTS.DB"), FileType::Prints);
    let doc = parse(&bytes, FileType::Prints).unwrap();
    let t = &doc.database.tables[0];
    assert_eq!((t.name.as_deref(), t.name_ru.as_deref()), (Some("Fire prints"), Some("Следы пламени")));
    let r = &records(t)[0];
    assert_eq!(r.type_byte, 7);
    assert_eq!(
        fields(r),
        &[
            f(1, Value::String("fir".into())),
            f(
                10,
                Value::Record(vec![
                    f(1, Value::Float(0.5)),
                    f(2, Value::Int(3)),
                    f(3, Value::Int(-2)),
                    f(0, raw(&[9]))
                ])
            ),
        ]
    );
}

/// `acks.db` answers: field 10 is `4` = 0SISS (a list of nested records), field 32 is `5` = 0SISS00000U.
#[test]
fn acks_composites_4_and_5() {
    let ack = |text: &[u8], n: u8| {
        let mut s = text.to_vec();
        s.push(0);
        cat(&[&short(1, &s), &[0x02, 0x08, n, 0, 0, 0]])
    };
    let f10 = cat(&[&short(1, &ack(b"yes", 1)), &short(1, &ack(b"no", 2))]);
    let f32_ = short(1, &cat(&[&ack(b"hm", 3), &[10, 0x08, 0x05, 0, 0, 0]]));
    let rec =
        cat(&[&[0x01, 0x06, b'o', b'k', 0x00], &short(10, &f10), &short(32, &f32_), &short(11, &[0x01, 0x02, 0x01])]);
    let bytes = short(0x00, &short(0x01, &short(0x01, &rec)));
    let doc = parse(&bytes, FileType::Acks).unwrap();
    let t = &doc.database.tables[0];
    assert_eq!((t.name.as_deref(), t.name_ru.as_deref()), (Some("Answers"), Some("Ответы")));
    let sub = |ty: u8, fields: Vec<Field>| Record { type_byte: ty, long: false, body: RecordBody::Fields(fields) };
    assert_eq!(
        fields(&records(t)[0]),
        &[
            f(1, Value::String("ok".into())),
            f(
                10,
                Value::Records(vec![
                    sub(1, vec![f(1, Value::String("yes".into())), f(2, Value::Int(1))]),
                    sub(1, vec![f(1, Value::String("no".into())), f(2, Value::Int(2))]),
                ])
            ),
            f(
                32,
                Value::Records(vec![sub(
                    1,
                    vec![f(1, Value::String("hm".into())), f(2, Value::Int(3)), f(10, Value::Uint(5))]
                )])
            ),
            // A nested node whose payload is not nodes stays as data inside the list.
            f(11, Value::Records(vec![Record { type_byte: 1, long: false, body: RecordBody::Data(Hex(vec![0x01])) }])),
        ]
    );
}

#[test]
fn every_file_type_maps_its_tables_by_number() {
    let expected: &[(FileType, &str, &[&str])] = &[
        (
            FileType::Items,
            "x.IDB",
            &["Материалы", "Оружие", "Броня", "Быстрые предметы", "Квестовые предметы", "Продаваемые предметы"],
        ),
        (FileType::Levers, "levers.ldb", &["Прототип переключателя"]),
        (FileType::Perks, "a/b.pdb", &["Умения", "Навыки"]),
        (FileType::Prints, "prints.db", &["Следы крови", "Следы пламени", "Следы ног"]),
        (
            FileType::Spells,
            "s.sdb",
            &["Прототипы", "Модификаторы", "Шаблоны", "Шаблоны для брони", "Шаблоны для оружия"],
        ),
        (FileType::Units, "u.udb", &["Повреждаемые части", "Расы", "Прототипы монстров", "NPC"]),
        (FileType::Acks, "ACKS.DB", &["Ответы", "Крики", "Прочее"]),
        (FileType::Quests, "q.qdb", &["Задания", "Брифинги"]),
    ];
    for &(ft, name, titles) in expected {
        assert_eq!(FileType::from_name(name), ft, "{name}");
        let got: Vec<&str> = ft.tables().iter().map(|t| t.title_ru).collect();
        assert_eq!(got, titles);
        assert!(ft.table(0).is_none());
        assert_eq!(ft.table(1).map(|t| t.title_ru), titles.first().copied());
        assert!(ft.table(titles.len() as u8 + 1).is_none());
    }
    assert_eq!(FileType::Items.table(2).unwrap().format, "SSISIIIFFFFIFIXB00000IHFFFfHHFF");
    assert_eq!(FileType::Units.table(3).unwrap().format, "SSIUIFFFSFFFFFFFFFUFFFFFFff33sfssSFFFFFUFUSF");
    assert_eq!(FileType::from_name("Thumbs.db"), FileType::Unknown);
    assert_eq!(FileType::from_name("acks.db.bak"), FileType::Unknown);
}

// =========================================================================================================
// The two node-length readings

/// A 200-byte H field (length ≥ 128) makes every node above it use the 4-byte form.
fn long_fixture(enc: LengthEncoding) -> Vec<u8> {
    let payload: Vec<u8> = (0..200u8).collect();
    let rec = cat(&[&node(enc, 25, &payload), &[0x00, 0x04, b'x', 0x00]]);
    node(enc, 0x01, &node(enc, 0x03, &node(enc, 0x00, &rec)))
}

#[test]
fn long_lengths_in_both_readings() {
    let le = long_fixture(LengthEncoding::U32Le);
    let be = long_fixture(LengthEncoding::BytesBe);
    // The H field's header: 200 = 0xC8 → u32-le (200 << 1 | 1) = 0x191 → 91 01 00 00; bytes-be 01 00 00 C8.
    assert_eq!(&le[15..20], &[25, 0x91, 0x01, 0x00, 0x00]);
    assert_eq!(&be[15..20], &[25, 0x01, 0x00, 0x00, 0xC8]);
    assert_eq!(&le[..5], &[0x01, 0xB7, 0x01, 0x00, 0x00], "database length 219");
    assert_eq!(&be[..5], &[0x01, 0x01, 0x00, 0x00, 0xDB]);

    let a = parse_with(&le, FileType::Items, LengthEncoding::U32Le).unwrap();
    let b = parse_with(&be, FileType::Items, LengthEncoding::BytesBe).unwrap();
    assert_eq!(a.length_encoding, LengthEncoding::U32Le);
    assert_eq!(b.length_encoding, LengthEncoding::BytesBe);
    assert_eq!(a.database, b.database, "the same tree under either reading");
    let rec = &records(&a.database.tables[0])[0];
    assert_eq!(fields(rec)[0], f(25, Value::Hex(Hex((0..200u8).collect()))));
    assert_eq!(fields(rec)[1], f(0, Value::String("x".into())));

    // Each file is wrong under the other reading …
    let err = parse_with(&le, FileType::Items, LengthEncoding::BytesBe).unwrap_err();
    assert_eq!(err.location().unwrap().field, "database.length");
    assert!(parse_with(&be, FileType::Items, LengthEncoding::U32Le).is_err());
    // … and `parse` finds the one that works.
    assert_eq!(parse(&le, FileType::Items).unwrap(), a);
    assert_eq!(parse(&be, FileType::Items).unwrap(), b);
    // Both write back byte for byte.
    assert_eq!(write_document(&a).unwrap(), le);
    assert_eq!(write_document(&b).unwrap(), be);
    // Switching the document's reading converts the file.
    assert_eq!(write_document(&DbDocument { length_encoding: LengthEncoding::BytesBe, ..a.clone() }).unwrap(), be);
}

/// `01 01 00 00` reads as 128 (u32-le: 0x101 >> 1) or as 65536 (bytes-be: 0x01_0000): with 65536 zero bytes
/// after it (zero bytes are empty nodes), both readings parse, to different trees. The default wins.
#[test]
fn readings_that_both_parse_give_different_trees() {
    // The first table is numbered 1 (a table number 0 is not identified as a database).
    let mut bytes = vec![0x01, 0x01, 0x01, 0x00, 0x00, 0x01];
    bytes.resize(5 + 65536, 0);
    let le = parse_with(&bytes, FileType::Unknown, LengthEncoding::U32Le).unwrap();
    let be = parse_with(&bytes, FileType::Unknown, LengthEncoding::BytesBe).unwrap();
    assert_eq!((le.database.tables.len(), le.trailer.len()), (64, (65536 - 128) / 2));
    assert_eq!((be.database.tables.len(), be.trailer.len()), (32768, 0));
    assert!(!le.database.long && !be.database.long, "128 and 65536 need the 4-byte form");
    assert_eq!(parse(&bytes, FileType::Unknown).unwrap().length_encoding, LengthEncoding::U32Le);
    assert_eq!(write_document(&le).unwrap(), bytes);
    assert_eq!(write_document(&be).unwrap(), bytes);
}

#[test]
fn non_minimal_long_forms_round_trip() {
    // A 3-byte payload with the 4-byte form, in both readings, and a 0-length one.
    for enc in LengthEncoding::ALL {
        let long = |ty: u8, p: &[u8]| match enc {
            LengthEncoding::U32Le => long_le(ty, p),
            LengthEncoding::BytesBe => long_be(ty, p),
        };
        let rec = cat(&[&long(0, b"ab\0"), &long(2, &[]), &short(3, &[9, 0, 0, 0])]);
        let bytes = cat(&[&long(1, &short(1, &long(4, &rec))), &long(7, &[1, 2])]);
        let doc = parse_with(&bytes, FileType::Items, enc).unwrap();
        assert!(doc.database.long, "{enc:?}");
        assert!(!doc.database.tables[0].long);
        let r = &records(&doc.database.tables[0])[0];
        assert!(r.long);
        assert_eq!(
            fields(r),
            &[
                Field { type_byte: 0, long: true, value: Value::String("ab".into()) },
                Field { type_byte: 2, long: true, value: raw(&[]) },
                f(3, Value::Int(9)),
            ]
        );
        assert_eq!(doc.trailer, vec![RawNode { type_byte: 7, long: true, data: Hex(vec![1, 2]) }]);
        assert_eq!(write_document(&doc).unwrap(), bytes, "{enc:?}");
        assert_eq!(parse(&bytes, FileType::Items).unwrap().length_encoding, enc, "{enc:?}");
    }
}

#[test]
fn editor_trailer_is_kept() {
    // Files of the public DB editor end with `00 00 02 0C 02 08 01 00 00 00` after the database node.
    let bytes = cat(&[&short(1, &short(1, &[])), &[0x00, 0x00, 0x02, 0x0C, 0x02, 0x08, 0x01, 0x00, 0x00, 0x00]]);
    let doc = idb(&bytes);
    assert_eq!(
        doc.trailer,
        vec![
            RawNode { type_byte: 0, long: false, data: Hex(vec![]) },
            RawNode { type_byte: 2, long: false, data: Hex(vec![0x02, 0x08, 0x01, 0x00, 0x00, 0x00]) },
        ]
    );
    assert_eq!(write_document(&doc).unwrap(), bytes);
}

#[test]
fn tables_and_records_that_are_not_nodes_are_kept_as_data() {
    // Table 2's payload is one byte (a node needs two); record 1 of table 1 holds a node running past it.
    let rec_bad = [0x00, 0x10, 0x01];
    let bytes = short(1, &cat(&[&short(1, &cat(&[&short(4, &rec_bad), &short(5, &[])])), &short(2, &[0x07])]));
    let doc = idb(&bytes);
    let t1 = records(&doc.database.tables[0]);
    assert_eq!(t1[0], Record { type_byte: 4, long: false, body: RecordBody::Data(Hex(rec_bad.to_vec())) });
    assert_eq!(t1[1], Record { type_byte: 5, long: false, body: RecordBody::Fields(vec![]) });
    assert_eq!(doc.database.tables[1].body, TableBody::Data(Hex(vec![0x07])));
    assert_eq!(write_document(&doc).unwrap(), bytes);
    let info = convert::info(&doc, bytes.len());
    assert_eq!(info["tables"][1]["raw"], true);
}

// =========================================================================================================
// Errors

fn located(err: &Error, field: &str, offset: u64) {
    let at = err.location().unwrap_or_else(|| panic!("no location: {err}"));
    assert_eq!((at.format, at.field.as_str(), at.offset), ("ei-db", field, offset), "{err}");
}

#[test]
fn errors_are_located() {
    let ft = FileType::Items;
    located(&parse(&[], ft).unwrap_err(), "database", 0);
    located(&parse(&[0x01], ft).unwrap_err(), "database.length", 1);
    // Database length 5 but 2 bytes follow.
    located(&parse(&[0x01, 0x0A, 0x00, 0x00], ft).unwrap_err(), "database.length", 1);
    // 4-byte form cut short.
    located(&parse(&[0x01, 0x01, 0x00], ft).unwrap_err(), "database.length", 2);
    // A table running past the database.
    located(&parse(&[0x01, 0x04, 0x01, 0x04, 0x00, 0x00], ft).unwrap_err(), "database.tables[0].length", 3);
    // A second table's type byte alone.
    located(&parse(&[0x01, 0x0A, 0x01, 0x00, 0x02, 0x00, 0x09], ft).unwrap_err(), "database.tables[2].length", 7);
    // Trailing bytes that are not a node.
    located(&parse(&[0x01, 0x00, 0x05], ft).unwrap_err(), "trailer[0].length", 3);
    located(&parse(&[0x01, 0x00, 0x05, 0x04, 0x01], ft).unwrap_err(), "trailer[0].length", 3);
    // The message names the reading.
    let err = parse_with(&[0x01, 0x0A], ft, LengthEncoding::U32Le).unwrap_err();
    assert!(err.to_string().contains("u32-le"), "{err}");
}

#[test]
fn writer_rejects_what_it_cannot_write() {
    let with_first = |value: Value| {
        let mut doc = idb(&main_fixture());
        let TableBody::Records(recs) = &mut doc.database.tables[0].body else { panic!() };
        let RecordBody::Fields(fs) = &mut recs[0].body else { panic!() };
        fs[0].value = value;
        doc
    };
    let err = write_document(&with_first(Value::String("日本".into()))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ei-db: database.tables[0].records[0].fields[0]: `日本` has characters that cp1251 cannot hold"
    );
    assert!(matches!(err, Error::Refusal { format: "ei-db", .. }), "{err:?}");
    assert!(write_document(&with_first(Value::Bits("1012".into()))).is_err());
    assert!(write_document(&with_first(Value::Bits("1111".into()))).is_err());
    let bytes = write_document(&with_first(Value::Bits("0000000111111110".into()))).unwrap();
    let back = idb(&bytes);
    let TableBody::Records(r) = &back.database.tables[0].body else { panic!() };
    let RecordBody::Fields(fs) = &r[0].body else { panic!() };
    assert_eq!(fs[0].value, raw(&[0x80, 0x7F]), "a field 0 (S) written as bits reads back raw");
}

#[test]
fn zero_filled_heads_are_not_databases_and_the_writer_never_writes_one() {
    use relic::registry::sniff;
    let is_db = |bytes: &[u8]| matches!(sniff(bytes, "x.idb"), Some((f, _)) if f.id == "ei-db");
    // The heads of CAM, BON and MOB files: zeros read as empty nodes. An empty database of type 0 with
    // bytes after it, or a first table numbered 0, is no database, whatever follows the first 64 bytes.
    assert!(!is_db(&[0u8; 144]));
    assert!(!is_db(&cat(&[&[0u8; 64], &[0x20; 80]])));
    assert!(!is_db(&cat(&[&short(0, &short(0, &[0; 4])), &[0u8; 100]])));
    assert!(!is_db(&cat(&[&short(1, &short(0, &[])), &[0u8; 2]])));
    // What stays a database: an empty one alone (of any type), an empty one of type 1 before the editor's
    // trailer, a first table numbered 1 of type-0 database.
    assert!(is_db(&short(0, &[])));
    assert!(is_db(&cat(&[&short(1, &[]), &[0x00, 0x00, 0x02, 0x0C, 0x02, 0x08, 0x01, 0x00, 0x00, 0x00]])));
    assert!(is_db(&short(0, &short(1, &[]))));
    // The writer refuses the two, at their fields.
    let mut doc = idb(&main_fixture());
    doc.database.tables[0].type_byte = 0;
    let err = write_document(&doc).unwrap_err();
    assert!(matches!(err, Error::Refusal { format: "ei-db", .. }), "{err:?}");
    assert_eq!(err.field(), Some("database.tables[0].type_byte"));
    let mut doc = idb(&main_fixture());
    doc.database.type_byte = 0;
    doc.database.tables.clear();
    doc.trailer = vec![RawNode { type_byte: 0, long: false, data: Hex(vec![]) }];
    let err = write_document(&doc).unwrap_err();
    assert_eq!(err.field(), Some("trailer"));
    // Type 1 with the same trailer writes, and is a database.
    doc.database.type_byte = 1;
    assert!(is_db(&write_document(&doc).unwrap()));
}

#[test]
fn write_json_rejects_other_documents() {
    let codec = relic::registry::by_id("ei-db").unwrap();
    let mut value = codec.to_json(&main_fixture()).unwrap();
    value["format"] = "ei-res".into();
    let err = codec.from_json(value.clone(), &Default::default()).unwrap_err().to_string();
    assert!(err.contains("`ei-res` is not `ei-db`"), "{err}");
    let err = codec.from_json(serde_json::json!({"nope": 1}), &Default::default()).unwrap_err().to_string();
    assert!(err.starts_with("ei-db document: "), "{err}");
    // A value of the wrong type is named by its JSON path.
    value["format"] = "ei-db".into();
    value["database"]["tables"][0]["type"] = "fast".into();
    let err = codec.from_json(value, &Default::default()).unwrap_err().to_string();
    assert!(err.starts_with("ei-db document: `database.tables[0].type`: invalid type: string \"fast\""), "{err}");
}

// =========================================================================================================
// Robustness

fn assert_robust(bytes: &[u8], strict: bool) {
    let report =
        relic::testing::check_robustness(bytes, strict, |b| parse(b, FileType::Items).map(|d| d.database.tables.len()));
    assert_eq!(report.truncations, bytes.len());
    assert!(report.flips > 0);
    let report = relic::testing::check_robustness(bytes, strict, |b| {
        let codec = relic::registry::by_id("ei-db").unwrap().for_name("x.udb");
        let json = codec.to_json(b)?;
        // Every file that parses has an info and tables, and writes back as it was when it is identified
        // as a database; one that is not (a first table numbered 0) the writer refuses.
        codec.info(b).unwrap();
        codec.convert(&relic::registry::ConvertInput::new(b, &Default::default())).unwrap();
        let written = codec.from_json(json, &Default::default());
        if matches!(relic::registry::sniff(b, "x.udb"), Some((f, _)) if f.id == "ei-db") {
            assert_eq!(written.unwrap(), b);
        } else {
            assert!(written.unwrap_err().is_refusal());
        }
        Ok::<(), Error>(())
    });
    assert_eq!(report.truncations, bytes.len());
}

#[test]
fn robustness_hand_made() {
    assert_robust(&main_fixture(), true);
    assert_robust(&long_fixture(LengthEncoding::U32Le), true);
    assert_robust(&long_fixture(LengthEncoding::BytesBe), true);
}

#[test]
fn robustness_writer_made() {
    let bytes = write_document(&sample_document()).unwrap();
    assert_robust(&bytes, true);
    // With a trailer, a cut between top-level nodes leaves a shorter valid file: not strict.
    let mut doc = sample_document();
    doc.trailer.push(RawNode { type_byte: 2, long: false, data: Hex(vec![2, 8, 1, 0, 0, 0]) });
    assert_robust(&write_document(&doc).unwrap(), false);
}

// =========================================================================================================
// Writer and documents

/// A writer-made document with every value kind (the sample's content).
fn sample_document() -> DbDocument {
    let value: serde_json::Value = serde_json::from_str(SAMPLE_JSON).unwrap();
    serde_json::from_value(value).unwrap()
}

const SAMPLE_JSON: &str = r#"{
  "format": "ei-db", "file_type": "idb", "length_encoding": "u32-le",
  "database": {"type": 1, "tables": [
    {"type": 1, "records": [
      {"type": 0, "fields": [{"type": 0, "string": "Iron"}, {"type": 3, "int": 12}, {"type": 4, "float": 0.1},
                              {"type": 11, "floats": [1.0, 2.5]}, {"type": 13, "bits": "10100000"}]}]},
    {"type": 3, "records": [
      {"type": 0, "fields": [{"type": 0, "string": "Кольчуга"}, {"type": 15, "bool": true}, {"type": 24, "ints": [3, -4]},
                              {"type": 25, "hex": "00ff"}, {"type": 16, "raw": "0102"}, {"type": 21, "floats": []}]},
      {"type": 1, "long": true, "fields": [{"type": 0, "long": true, "string": "x"}]}]}
  ]}
}"#;

#[test]
fn document_json_round_trips_byte_for_byte() {
    for bytes in [main_fixture(), long_fixture(LengthEncoding::U32Le), long_fixture(LengthEncoding::BytesBe)] {
        let codec = relic::registry::by_id("ei-db").unwrap().for_name("items.idb");
        let text = relic::export::json::to_pretty(&codec.to_json(&bytes).unwrap()).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&text).unwrap();
        assert_eq!(codec.from_json(value, &Default::default()).unwrap(), bytes);
    }
}

#[test]
fn document_json_shape() {
    let doc = idb(&main_fixture());
    let v = serde_json::to_value(&doc).unwrap();
    assert_eq!(v["format"], "ei-db");
    assert_eq!(v["file_type"], "idb");
    assert_eq!(v["length_encoding"], "u32-le");
    let rec = &v["database"]["tables"][0]["records"][0];
    assert_eq!(rec["type"], 1);
    assert_eq!(rec["fields"][0], serde_json::json!({"type": 0, "string": "Plate"}));
    assert_eq!(rec["fields"][3], serde_json::json!({"type": 7, "float": 1.5}));
    assert_eq!(rec["fields"][6], serde_json::json!({"type": 17, "raw": "abcd"}));
    // Floats print as their shortest decimal.
    assert_eq!(rec["fields"][7]["floats"].to_string(), "[0.25,-2.0,0.1,-0.0]");
    assert!(v["database"].get("long").is_none());
}

#[test]
fn writer_round_trip_of_the_sample() {
    let doc = sample_document();
    let bytes = write_document(&doc).unwrap();
    let back = idb(&bytes);
    assert_eq!(strip(back.clone()), strip(doc));
    assert_eq!(write_document(&back).unwrap(), bytes);
    // The one non-minimal record keeps its 4-byte form; its field too.
    let r = &records(&back.database.tables[1])[1];
    assert!(r.long && fields(r)[0].long);
}

/// Clears what the reader fills in from the layout (not part of the bytes).
fn strip(mut doc: DbDocument) -> DbDocument {
    for t in &mut doc.database.tables {
        t.name = None;
        t.name_ru = None;
        t.layout = None;
    }
    doc
}

// Typed values for a layout letter, that decode back to themselves.
fn cp1251_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![Just('a'), Just('Z'), Just(' '), Just('ж'), Just('Ё'), Just('\n'), Just('№')],
        0..12,
    )
    .prop_map(|c| c.into_iter().collect())
}

fn finite() -> impl Strategy<Value = f32> {
    any::<u32>().prop_map(f32::from_bits).prop_filter("finite", |f| f.is_finite())
}

fn value_for(letter: u8, depth: u32) -> BoxedStrategy<Value> {
    match letter {
        b'S' => cp1251_text().prop_map(Value::String).boxed(),
        b'I' => any::<i32>().prop_map(Value::Int).boxed(),
        b'U' => any::<u32>().prop_map(Value::Uint).boxed(),
        b'T' => any::<i32>().prop_map(Value::Time).boxed(),
        b'F' => finite().prop_map(Value::Float).boxed(),
        b'X' => proptest::collection::vec(any::<bool>(), 0..3)
            .prop_flat_map(|n| proptest::collection::vec(any::<bool>(), n.len() * 8))
            .prop_map(|b| Value::Bits(b.into_iter().map(|x| if x { '1' } else { '0' }).collect()))
            .boxed(),
        b'f' => proptest::collection::vec(finite(), 0..4).prop_map(Value::Floats).boxed(),
        b'i' => proptest::collection::vec(any::<i32>(), 0..4).prop_map(Value::Ints).boxed(),
        b'B' => any::<bool>().prop_map(Value::Bool).boxed(),
        b'b' => proptest::collection::vec(any::<bool>(), 0..5).prop_map(Value::Bools).boxed(),
        b'H' => proptest::collection::vec(any::<u8>(), 0..140).prop_map(|b| Value::Hex(Hex(b))).boxed(),
        b's' if depth == 0 => proptest::collection::vec((any::<u8>(), cp1251_text()), 0..3)
            .prop_map(|v| Value::Strings(v.into_iter().map(|(t, s)| f(t, Value::String(s))).collect()))
            .boxed(),
        c @ b'1'..=b'3' if depth == 0 => {
            fields_for(db::types::composite_format(c).unwrap(), 1).prop_map(Value::Record).boxed()
        }
        c @ b'4'..=b'5' if depth == 0 => {
            proptest::collection::vec(fields_for(db::types::composite_format(c).unwrap(), 1), 0..3)
                .prop_map(|rs| {
                    Value::Records(
                        rs.into_iter()
                            .map(|fs| Record { type_byte: 1, long: false, body: RecordBody::Fields(fs) })
                            .collect(),
                    )
                })
                .boxed()
        }
        _ => proptest::collection::vec(any::<u8>(), 0..6).prop_map(|b| Value::Raw(Hex(b))).boxed(),
    }
}

fn fields_for(format: &'static str, depth: u32) -> BoxedStrategy<Vec<Field>> {
    let n = format.len() as u8;
    proptest::collection::vec(0..n + 2, 0..6)
        .prop_flat_map(move |idx| {
            idx.into_iter()
                .map(|i| {
                    let letter = format.as_bytes().get(usize::from(i)).copied().unwrap_or(b'0');
                    value_for(letter, depth).prop_map(move |v| f(i, v))
                })
                .collect::<Vec<_>>()
        })
        .boxed()
}

fn typed_document() -> impl Strategy<Value = DbDocument> {
    let ft = proptest::sample::select(FileType::KNOWN.to_vec());
    let enc = proptest::sample::select(LengthEncoding::ALL.to_vec());
    (ft, enc, any::<u8>()).prop_flat_map(|(ft, enc, db_type)| {
        let n = ft.tables().len() as u8;
        let tables = proptest::collection::vec(1..=n, 0..4).prop_flat_map(move |types| {
            types
                .into_iter()
                .map(|t| {
                    let format = ft.table(t).unwrap().format;
                    proptest::collection::vec((any::<u8>(), fields_for(format, 0)), 0..4).prop_map(move |recs| Table {
                        type_byte: t,
                        long: false,
                        name: None,
                        name_ru: None,
                        layout: None,
                        body: TableBody::Records(
                            recs.into_iter()
                                .map(|(rt, fs)| Record { type_byte: rt, long: false, body: RecordBody::Fields(fs) })
                                .collect(),
                        ),
                    })
                })
                .collect::<Vec<_>>()
        });
        tables.prop_map(move |tables| DbDocument {
            format: "ei-db".into(),
            file_type: ft,
            length_encoding: enc,
            database: Database { type_byte: db_type, long: false, tables },
            trailer: vec![],
        })
    })
}

/// A random node tree as bytes, each node in a random size form (short when it fits, long, or long for a
/// short length), with leaves of random bytes.
fn tree_bytes(enc: LengthEncoding) -> impl Strategy<Value = Vec<u8>> {
    let leaf = (any::<u8>(), proptest::collection::vec(any::<u8>(), 0..200), 0..3u8)
        .prop_map(move |(t, p, form)| encode(enc, t, &p, form));
    leaf.prop_recursive(4, 64, 6, move |inner| {
        (any::<u8>(), proptest::collection::vec(inner, 0..6), 0..3u8)
            .prop_map(move |(t, kids, form)| encode(enc, t, &kids.concat(), form))
    })
}

fn encode(enc: LengthEncoding, t: u8, p: &[u8], form: u8) -> Vec<u8> {
    if form == 0 && p.len() < 128 {
        short(t, p)
    } else {
        match enc {
            LengthEncoding::U32Le => long_le(t, p),
            LengthEncoding::BytesBe => long_be(t, p),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Typed documents write, read back to the same values and write to the same bytes.
    #[test]
    fn prop_typed_documents_round_trip(doc in typed_document()) {
        let bytes = write_document(&doc).unwrap();
        let back = parse_with(&bytes, doc.file_type, doc.length_encoding).unwrap();
        prop_assert_eq!(strip(back.clone()), doc.clone());
        prop_assert_eq!(write_document(&back).unwrap(), bytes.clone());
        // Through the JSON text too.
        let text = serde_json::to_string(&serde_json::to_value(&back).unwrap()).unwrap();
        let again: DbDocument = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&again, &back);
        // Info and tables never fail on a parsed file.
        let info = convert::info(&back, bytes.len());
        prop_assert_eq!(info["tables"].as_array().unwrap().len(), doc.database.tables.len());
        let d = convert::to_document(&back, 1 << 20).unwrap();
        prop_assert_eq!(d.tables.len(), doc.database.tables.len());
    }

    /// Random node trees (any type bytes, any payloads, any size forms) read and write back byte for byte,
    /// with every file type's layouts.
    #[test]
    fn prop_random_trees_round_trip(
        (enc, root, form) in proptest::sample::select(LengthEncoding::ALL.to_vec())
            .prop_flat_map(|enc| (Just(enc), tree_bytes(enc), 0..3u8)),
        ft in proptest::sample::select(FileType::KNOWN.to_vec()),
    ) {
        // The top level must be a node whose payload is nodes: wrap the tree once more.
        let bytes = encode(enc, 1, &root, form);
        let doc = parse_with(&bytes, ft, enc).unwrap();
        if root[0] == 0 {
            // Table 0 is no table number: such a file is not identified as a database, so not written.
            let err = write_document(&doc).unwrap_err();
            prop_assert_eq!(err.field(), Some("database.tables[0].type_byte"));
            prop_assert!(!matches!(relic::registry::sniff(&bytes, "x.idb"), Some((f, _)) if f.id == "ei-db"));
            return Ok(());
        }
        prop_assert_eq!(write_document(&doc).unwrap(), bytes.clone());
        let codec = relic::registry::by_id("ei-db").unwrap();
        prop_assert_eq!(codec.from_json(codec.to_json(&bytes).unwrap(), &Default::default()).unwrap(), bytes.clone());
        // The friendly forms too: the tables' JSON, and each table's CSV over the file.
        let friendly = relic::evil_islands::db::friendly::from_lossless(&doc).unwrap();
        let (value, tables) = relic::evil_islands::db::friendly::to_json_and_csv(&friendly, u64::MAX).unwrap();
        prop_assert_eq!(codec.from_json(value, &Default::default()).unwrap(), bytes.clone());
        for t in &tables {
            let mut text = csv_line(&t.columns);
            for row in &t.rows {
                text += &csv_line(row);
            }
            let mut again = friendly.clone();
            relic::evil_islands::db::friendly::apply_csv(&mut again, &t.name, &text).unwrap();
            let written = write_document(&relic::evil_islands::db::friendly::to_lossless(&again).unwrap()).unwrap();
            prop_assert_eq!(&written, &bytes, "table {}: {}", t.name, text);
        }
    }

    /// Finite f32s survive the document's JSON text exactly.
    #[test]
    fn prop_floats_survive_json(bits in any::<u32>()) {
        let v = f32::from_bits(bits);
        prop_assume!(v.is_finite());
        let field = f(4, Value::Float(v));
        let text = serde_json::to_string(&serde_json::to_value(&field).unwrap()).unwrap();
        let back: Field = serde_json::from_str(&text).unwrap();
        let Value::Float(w) = back.value else { panic!("{text}") };
        prop_assert_eq!(w.to_bits(), bits, "{}", text);
    }
}

// =========================================================================================================
// Tables, CSV, info, registry, CLI operations

#[test]
fn tables_document_and_csv() {
    let doc = idb(&main_fixture());
    let d = convert::to_document(&doc, 1 << 20).unwrap();
    // Tables and columns named as the public DB editor's descriptors name them (friendly.rs).
    assert_eq!((d.value["file_type"].as_str(), d.value["title"].as_str()), (Some("idb"), Some("Items")));
    let t = &d.value["tables"][0];
    assert_eq!(
        (t["name"].as_str(), t["block"].as_u64(), t["record_type"].as_u64()),
        (Some("Armors"), Some(3), Some(1))
    );
    let r0 = &t["records"][0];
    assert_eq!(
        (&r0["Name"], &r0["Type"], &r0["TypeID"], &r0["Price"]),
        (&json!("Plate"), &json!("Латы"), &json!(-5), &json!(1.5))
    );
    // BitList(5): one column per named bit, then the byte's other bits.
    assert_eq!(
        [&r0["Shop 1"], &r0["Shop 2"], &r0["Shop 3"], &r0["f14[7]"]],
        [&json!(1), &json!(0), &json!(1), &json!(0)]
    );
    assert_eq!(r0["Dec."], 1); // Byte, a number
    assert_eq!(r0["f17"], "abcd"); // a field the descriptor does not name: hex
                                   // FloatList elements by name; an i32 list where the descriptor has a SignedLong stays raw.
    assert_eq!([&r0["M. Absorb."], &r0["M. Piercing"], &r0["M. Bludg."]], [&json!(0.25), &json!(-2.0), &json!(-0.0)]);
    assert_eq!(r0["Wear Order"], json!({"raw": "01000000ffffffff00000080ffffff7f"}));
    assert!(r0.get("~record").is_none(), "record 0 is stored canonically");
    let r1 = &t["records"][1];
    assert_eq!(
        (&r1["Type"], &r1["TypeID"], &r1["Dec."]),
        (&json!({"raw": "610062"}), &json!({"raw": "010203"}), &json!(2))
    );
    // The empty FloatList (field 21) shows its empty bytes; its repeated field 2 and order are in `~record`.
    assert_eq!(r1["M. Absorb."], json!({"raw": ""}));
    assert_eq!(
        r1["~record"],
        json!({"type": 2, "fields": [[0], [1], [2], [7], [14], [15], [23], [40], [21], [2, 0, "07000000"]]})
    );
    assert_eq!(d.value["tables"][2]["name"], "table_9");

    let names: Vec<&str> = d.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Armors", "Materials", "table_9"]);
    let armor = &d.tables[0];
    assert_eq!(&armor.columns[..8], ["Name", "Type", "TypeID", "M.Type", "Unk4-0", "TTI", "TTI2", "Price"]);
    assert_eq!(armor.columns.last().map(String::as_str), Some("f40"));
    let col = |n: &str| armor.columns.iter().position(|c| c == n).unwrap();
    assert_eq!(armor.rows[0][col("Price")], "1.5");
    assert_eq!(armor.rows[1][col("Type")], "raw:610062");
    assert_eq!(armor.rows[1][col("M. Absorb.")], "raw:");
    let exported = relic::export::export(&relic::asset::Asset::Document(d.clone()), Some("csv"), "items").unwrap();
    assert_eq!(exported.len(), 3);
    assert_eq!(exported[0].suffix, ".Armors");
    let text = String::from_utf8(exported[0].bytes.clone()).unwrap();
    assert!(text.starts_with("Name,Type,TypeID,M.Type,"), "{text}");
    // Both forms pack back byte for byte.
    let codec = relic::registry::by_id("ei-db").unwrap().for_name("items.idb");
    assert_eq!(codec.from_json(d.value.clone(), &Default::default()).unwrap(), main_fixture());
}

#[test]
fn composite_values_in_tables() {
    let sub = cat(&[&[0x01, 0x08, 0x00, 0x00, 0x00, 0x3F], &[0x02, 0x08, 0x03, 0x00, 0x00, 0x00]]);
    let strings = cat(&[&[0x01, 0x04, b'a', 0x00], &[0x01, 0x04, b'b', 0x00]]);
    let rec = cat(&[&short(2, &sub), &short(3, &strings)]);
    let bytes = short(0x04, &short(0x01, &short(0x00, &rec)));
    let doc = parse(&bytes, FileType::Prints).unwrap();
    let d = convert::to_document(&doc, 1 << 20).unwrap();
    let r = &d.value["tables"][0]["records"][0];
    // TypeList(20): one column per sub-field, named by the descriptor.
    assert_eq!((&r["Clear Weather Opacity"], &r["Clear Weather Lifetime"]), (&json!(0.5), &json!(3)));
    // Field 3 repeats sub-field 1 (and holds text): kept raw in its first column.
    assert_eq!(r["Weather Precipitation Opacity"], json!({"raw": "0104610001046200"}));
    assert_eq!(d.tables[0].rows[0], ["", "0.5", "3", "", "raw:0104610001046200", "", ""]);
    let codec = relic::registry::by_id("ei-db").unwrap().for_name("prints.db");
    assert_eq!(codec.from_json(d.value.clone(), &Default::default()).unwrap(), bytes);
}

#[test]
fn info_lists_tables_and_record_counts() {
    let bytes = main_fixture();
    let codec = relic::registry::by_id("ei-db").unwrap().for_name("game/items.idb");
    let info = codec.info(&bytes).unwrap();
    assert_eq!(info["file_type"], "idb");
    assert_eq!(info["length_encoding"], "u32-le");
    assert_eq!(info["records"], 3);
    assert_eq!(info["file_size"], bytes.len());
    assert_eq!(
        info["tables"][0],
        serde_json::json!({"name": "Armors", "title": "Armor", "title_ru": "Броня", "type": 3, "records": 2})
    );
    assert_eq!(info["tables"][1]["records"], 0);
    assert_eq!(info["tables"][2]["name"], "table_9");
    // Without a name the layout is unknown; the tree still reads.
    let plain = relic::registry::by_id("ei-db").unwrap().info(&bytes).unwrap();
    assert_eq!(plain["file_type"], "unknown");
    assert_eq!(plain["records"], 3);
}

#[test]
fn registry_identifies_by_extension_and_names() {
    use relic::registry::{sniff, Confidence};
    let bytes = main_fixture();
    for name in ["a.idb", "B.LDB", "x/y.pdb", "s.sdb", "u.udb", "q.qdb", "dir\\ACKS.DB", "prints.db"] {
        let (f, c) = sniff(&bytes, name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!((f.id, c), ("ei-db", Confidence::Extension), "{name}");
    }
    for name in ["Thumbs.db", "x.db", "x.adb", "idb"] {
        assert!(!matches!(sniff(&bytes, name), Some((f, _)) if f.id == "ei-db"), "{name}");
    }
    let format = relic::registry::by_id("ei-db").unwrap();
    assert!(format.capabilities().write && format.capabilities().convert);
    assert!(format.notes.contains("u32-le") && format.notes.contains("bytes-be"));
}

#[test]
fn ops_convert_and_pack() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("items.idb");
    std::fs::write(&input, main_fixture()).unwrap();
    let out = dir.path().join("out");
    let q = relic::ops::Quiet;

    // Default: the tables as one JSON document.
    let req = relic::ops::ConvertRequest::default();
    let report = relic::ops::convert(std::slice::from_ref(&input), &out, &req, &q);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("items.idb.json")).unwrap()).unwrap();
    assert_eq!(json["tables"][0]["records"][0]["Name"], "Plate");

    // CSV: one file per table beside the JSON, named after the file.
    let req = relic::ops::ConvertRequest { to: Some("csv".into()), ..Default::default() };
    let report = relic::ops::convert(std::slice::from_ref(&input), &out, &req, &q);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    for t in ["Armors", "Materials", "table_9"] {
        assert!(out.join(format!("items.idb.{t}.csv")).is_file(), "{t}");
    }

    // Lossless JSON, and back.
    let req = relic::ops::ConvertRequest { to: Some("json".into()), ..Default::default() };
    let out2 = dir.path().join("lossless");
    let report = relic::ops::convert(std::slice::from_ref(&input), &out2, &req, &q);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(out2.join("items.idb.json")).unwrap()).unwrap();
    assert_eq!(doc["file_type"], "idb");
    let packed = dir.path().join("again.idb");
    relic::ops::pack("ei-db", &out2.join("items.idb.json"), &packed, &Default::default()).unwrap();
    assert_eq!(std::fs::read(&packed).unwrap(), main_fixture());

    let (format, info) = relic::ops::info(&input).unwrap();
    assert_eq!((format.id, info["file_type"].as_str()), ("ei-db", Some("idb")));
}

#[test]
fn read_node_reports_forms() {
    let bytes = long_le(3, &[1, 2]);
    let mut r = relic::reader::Reader::new("ei-db", &bytes);
    let n = read::read_node(&mut r, LengthEncoding::U32Le, "n").unwrap();
    assert_eq!((n.type_byte, n.long_form, n.non_minimal(), n.payload.data()), (3, true, true, &[1u8, 2][..]));
    assert_eq!(write::encode_length(2, true, LengthEncoding::BytesBe), [0x01, 0, 0, 2]);
    assert_eq!(write::encode_length(127, false, LengthEncoding::U32Le), [0xFE]);
    assert_eq!(write::encode_length(128, false, LengthEncoding::U32Le), [0x01, 0x01, 0, 0]);
    assert_eq!(write::encode_length(0x7FFF_FFFF, false, LengthEncoding::U32Le), [0xFF, 0xFF, 0xFF, 0xFF]);
    assert_eq!(write::encode_length(0x7FFF_FFFF, false, LengthEncoding::BytesBe), [0xFF, 0xFF, 0xFF, 0xFF]);
    assert_eq!(write::encode_length(0x0123_4567, false, LengthEncoding::BytesBe), [0x03, 0x23, 0x45, 0x67]);
}
