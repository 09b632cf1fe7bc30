//! Evil Islands REG files (`ei-reg`): reader, typed INI, lossless JSON and writers.
//!
//! Layout (spec `evil-islands.txt`, section "REG", with docs/formats/evil-islands.md#reg-hash-chains): magic `FB 3E AB 45`, u16 section
//! count, section table of (s16 order, u32 absolute offset); a section is u16 key count, u16 name length,
//! cp1251 name, key table of (s16 order, u32 offset from the section start); a key is u8 type (0 int,
//! 1 float, 2 string, bit 7 array with u16 count), u16 name length, cp1251 name, value. docs/formats/evil-islands.md#reg-hash-chains:
//! the order fields are hash-chain next indices, FF FF ends.
//!
//! The fixtures are assembled byte by byte here, independently of relic's writer. The hash slots are
//! worked out by hand in the comments (signed-char sum, A–Z lowercased, modulo the entry count; a
//! collision takes the highest free slot and is linked at the end of its hash slot's chain).

use std::process::Command;

use proptest::prelude::*;
use relic::codec::float::F32;
use relic::evil_islands::reg::{
    self, convert, ini, layout, parse,
    types::{Link, Placement},
    write, write_content, Content, Reg, Text, Value,
};
use relic::registry::{ConvertOptions, PackRequest};
use relic::testing::check_robustness;
use relic::Error;

// =========================================================================================================
// Byte-level builders (spec tables)

const MAGIC: [u8; 4] = [0xFB, 0x3E, 0xAB, 0x45];

/// cp1251 `Сила`.
const SILA: &[u8] = &[0xD1, 0xE8, 0xEB, 0xE0];
/// cp1251 `Пусто`.
const PUSTO: &[u8] = &[0xCF, 0xF3, 0xF1, 0xF2, 0xEE];
/// cp1251 `Привет`.
const PRIVET: &[u8] = &[0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2];

fn u16le(v: u16) -> [u8; 2] {
    v.to_le_bytes()
}

/// A key record: type byte, u16 name length, name, then the value bytes as given.
fn key(type_byte: u8, name: &[u8], value: &[u8]) -> Vec<u8> {
    let mut out = vec![type_byte];
    out.extend(u16le(name.len() as u16));
    out.extend(name);
    out.extend(value);
    out
}

fn string_bytes(s: &[u8]) -> Vec<u8> {
    let mut out = u16le(s.len() as u16).to_vec();
    out.extend(s);
    out
}

/// A section record: key count, name, then the key table given as (next, offset) in slot order. The key
/// records are appended by the caller.
fn section_header(name: &[u8], table: &[(i16, u32)]) -> Vec<u8> {
    let mut out = u16le(table.len() as u16).to_vec();
    out.extend(u16le(name.len() as u16));
    out.extend(name);
    for (next, offset) in table {
        out.extend(next.to_le_bytes());
        out.extend(offset.to_le_bytes());
    }
    out
}

/// The main fixture (196 bytes), three sections in file order:
///
/// | file order | section | hash mod 3                     | slot | next | offset |
/// |---|---|---|---|---|---|
/// | 0 | `Unit`  | u+n+i+t = 448 → 1                      | 1 | 2  | 24  |
/// | 1 | `Main`  | m+a+i+n = 421 → 1, taken: highest free | 2 | 0  | 125 |
/// | 2 | `Пусто` | −49−13−15−14−18 = −109 → 2, taken → 0  | 0 | −1 | 187 |
///
/// `Unit` (header 4 + 4 + 5 × 6 = 38 bytes), keys in file order:
///
/// | key | value | hash mod 5 | slot | next | offset |
/// |---|---|---|---|---|---|
/// | `hp`    | int 42          | 216 → 1                   | 1 | 3  | 38 |
/// | `speed` | float 1.5       | 529 → 4                   | 4 | −1 | 47 |
/// | `name`  | string "42"     | 417 → 2                   | 2 | −1 | 59 |
/// | `ids`   | int[1, −2, 3]   | 320 → 0                   | 0 | −1 | 70 |
/// | `Сила`  | int 7           | −47−24−21−32 = −124 → 1, taken → 3 | 3 | −1 | 90 |
///
/// (An unsigned byte sum would put `Сила` at 900 mod 5 = 0.) `Main` (header 20 bytes): `strings` =
/// ["a", "Привет"] (778 → 0, offset 20), `floats` = [−0.0, 0.1] (649 → 1, offset 43). `Пусто` has no keys.
fn main_fixture() -> Vec<u8> {
    let mut unit_keys = Vec::new();
    unit_keys.extend(key(0x00, b"hp", &42i32.to_le_bytes()));
    unit_keys.extend(key(0x01, b"speed", &1.5f32.to_le_bytes()));
    unit_keys.extend(key(0x02, b"name", &string_bytes(b"42")));
    let mut ids = u16le(3).to_vec();
    for v in [1i32, -2, 3] {
        ids.extend(v.to_le_bytes());
    }
    unit_keys.extend(key(0x80, b"ids", &ids));
    unit_keys.extend(key(0x00, SILA, &7i32.to_le_bytes()));
    let mut unit = section_header(b"Unit", &[(-1, 70), (3, 38), (-1, 59), (-1, 90), (-1, 47)]);
    assert_eq!(unit.len(), 38);
    unit.extend(unit_keys);
    assert_eq!(unit.len(), 101);

    let mut strings = u16le(2).to_vec();
    strings.extend(string_bytes(b"a"));
    strings.extend(string_bytes(PRIVET));
    let mut floats = u16le(2).to_vec();
    floats.extend((-0.0f32).to_le_bytes());
    floats.extend(0.1f32.to_le_bytes());
    let mut main = section_header(b"Main", &[(-1, 20), (-1, 43)]);
    main.extend(key(0x82, b"strings", &strings));
    main.extend(key(0x81, b"floats", &floats));
    assert_eq!(main.len(), 62);

    let empty = section_header(PUSTO, &[]);

    let mut out = MAGIC.to_vec();
    out.extend(u16le(3));
    for (next, offset) in [(-1i16, 187u32), (2, 24), (0, 125)] {
        out.extend(next.to_le_bytes());
        out.extend(offset.to_le_bytes());
    }
    assert_eq!(out.len(), 24);
    out.extend(unit);
    out.extend(main);
    out.extend(empty);
    assert_eq!(out.len(), 196);
    out
}

const MAIN_INI: &str = r#"; Evil Islands REG file as typed INI, written by relic (format ei-reg).
; Pack it back with: relic pack ei-reg -o NAME.reg NAME.ini
; 42 is an int, 42.0 / 1e-7 / inf / nan a float, "42" a string; arrays: [1, 2], [0.5], ["a"],
; empty ones int[] float[] string[]. Escapes in quotes: \" \\ \n \r \t \xHH.

[Unit]
hp = 42
speed = 1.5
name = "42"
ids = [1, -2, 3]
Сила = 7

[Main]
strings = ["a", "Привет"]
floats = [-0.0, 0.1]

[Пусто]
"#;

fn t(s: &str) -> Text {
    Text::encode(s).unwrap()
}

fn ini_of(bytes: &[u8]) -> String {
    let assets = reg::FORMAT.convert(&relic::registry::ConvertInput::new(bytes, &ConvertOptions::default())).unwrap();
    match &assets[..] {
        [relic::asset::NamedAsset { name: None, asset: relic::asset::Asset::Text(text) }] => {
            assert_eq!(text.extension, "ini");
            text.text.clone()
        }
        other => panic!("expected one INI text, got {other:?}"),
    }
}

fn pack_ini(text: &str) -> relic::Result<Vec<u8>> {
    reg::FORMAT.pack_input("x.ini", text.as_bytes(), &PackRequest::default())
}

fn json_round_trip(bytes: &[u8]) -> Vec<u8> {
    let value = reg::FORMAT.to_json(bytes).unwrap();
    let text = serde_json::to_string_pretty(&value).unwrap();
    reg::FORMAT.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap()
}

// =========================================================================================================
// The main fixture

#[test]
fn main_fixture_parses_to_exact_values() {
    let reg = parse(&main_fixture()).unwrap();
    assert_eq!(reg.file_size, 196);
    assert!(reg.gaps.is_empty());
    let names: Vec<String> = reg.sections.iter().map(|s| s.name.decoded()).collect();
    assert_eq!(names, ["Пусто", "Unit", "Main"], "slot order");
    let links: Vec<(i32, u32)> = reg.sections.iter().map(|s| (s.next.value(), s.offset)).collect();
    assert_eq!(links, [(-1, 187), (2, 24), (0, 125)]);
    assert!(reg.sections[0].keys.is_empty());

    let unit = &reg.sections[1];
    let keys: Vec<(String, i32, u32, Value)> =
        unit.keys.iter().map(|k| (k.name.decoded(), k.next.value(), k.offset, k.value.clone())).collect();
    assert_eq!(
        keys,
        [
            ("ids".to_string(), -1, 70, Value::IntArray(vec![1, -2, 3])),
            ("hp".to_string(), 3, 38, Value::Int(42)),
            ("name".to_string(), -1, 59, Value::String(t("42"))),
            ("Сила".to_string(), -1, 90, Value::Int(7)),
            ("speed".to_string(), -1, 47, Value::Float(F32::new(1.5))),
        ]
    );
    assert_eq!(unit.keys[3].name.bytes(), SILA);
    let main = &reg.sections[2];
    assert_eq!(main.keys[0].value, Value::StringArray(vec![t("a"), t("Привет")]));
    assert_eq!(main.keys[0].value, Value::StringArray(vec![Text(b"a".to_vec()), Text(PRIVET.to_vec())]));
    assert_eq!(main.keys[1].value, Value::FloatArray(vec![F32(0x8000_0000), F32::new(0.1)]));
    assert_eq!(reg.unreachable_sections(), Some(0));
    assert_eq!(reg.unreachable_keys(), Some(0));
}

#[test]
fn main_fixture_converts_to_the_typed_ini() {
    assert_eq!(ini_of(&main_fixture()), MAIN_INI);
}

#[test]
fn main_fixture_ini_packs_back_byte_identically() {
    assert_eq!(pack_ini(MAIN_INI).unwrap(), main_fixture());
}

#[test]
fn main_fixture_json_packs_back_byte_identically() {
    let fixture = main_fixture();
    assert_eq!(json_round_trip(&fixture), fixture);
    let value = reg::FORMAT.to_json(&fixture).unwrap();
    assert_eq!(value["format"], "ei-reg");
    assert_eq!(value["sections"][1]["keys"][4]["type"], "float");
    assert_eq!(value["sections"][1]["keys"][4]["value"], 1.5);
    assert_eq!(value["sections"][1]["keys"][3]["name"], "Сила");
    assert_eq!(value["sections"][2]["keys"][1]["value"], serde_json::json!([-0.0, 0.1]));
}

#[test]
fn info_counts_sections_and_keys() {
    let info = reg::FORMAT.info(&main_fixture()).unwrap();
    assert_eq!(info["sections"], 3);
    assert_eq!(info["keys"], 7);
    assert_eq!(info["array_keys"], 3);
    assert_eq!(info["layout"], "relic");
    assert_eq!(info["sections_unreachable_by_hash"], 0);
}

#[test]
fn sniffing_uses_the_magic() {
    let (f, c) = relic::registry::sniff(&main_fixture(), "settings.bin").unwrap();
    assert_eq!((f.id, c), ("ei-reg", relic::registry::Confidence::Magic));
    // Windows registry exports share the extension but not the magic.
    assert!(!reg::FORMAT.sniff(b"Windows Registry Editor Version 5.00"));
}

#[test]
fn lookup_follows_the_chains() {
    let reg = parse(&main_fixture()).unwrap();
    let names: Vec<&[u8]> = reg.sections.iter().map(|s| s.name.bytes()).collect();
    let links: Vec<Link> = reg.sections.iter().map(|s| s.next).collect();
    assert_eq!(reg::read::lookup(b"MAIN", &names, &links), Some(2));
    assert_eq!(reg::read::lookup(PUSTO, &names, &links), Some(0));
    assert_eq!(reg::read::lookup(b"nope", &names, &links), None);
}

#[test]
fn empty_file_has_no_sections() {
    let bytes = [0xFB, 0x3E, 0xAB, 0x45, 0, 0];
    let reg = parse(&bytes).unwrap();
    assert!(reg.sections.is_empty());
    let text = ini_of(&bytes);
    assert!(!text.lines().any(|l| l.starts_with('[')));
    assert_eq!(pack_ini(&text).unwrap(), bytes);
}

// =========================================================================================================
// Files laid out otherwise

/// One section `S` with keys `a`, `Сила`, `b` placed by an *unsigned* byte sum (as a public third-party
/// writer does): a → 97 mod 3 = 1, Сила → 900 mod 3 = 0, b → 98 mod 3 = 2; no collisions. relic's signed
/// sum would put Сила at −124 mod 3 = 2 and b (2, taken) at 0.
fn unsigned_fixture() -> Vec<u8> {
    let a = key(0, b"a", &1i32.to_le_bytes()); // 8 bytes
    let sila = key(0, SILA, &2i32.to_le_bytes()); // 11 bytes
    let b = key(0, b"b", &3i32.to_le_bytes());
    let header_len = 4 + 1 + 3 * 6; // 23
    let mut section = section_header(b"S", &[(-1, 23 + 8), (-1, 23), (-1, 23 + 8 + 11)]);
    assert_eq!(section.len(), header_len);
    section.extend(a);
    section.extend(sila);
    section.extend(b);
    let mut out = MAGIC.to_vec();
    out.extend(u16le(1));
    out.extend((-1i16).to_le_bytes());
    out.extend(12u32.to_le_bytes());
    out.extend(section);
    out
}

#[test]
fn other_table_placements_are_kept_in_the_ini() {
    let bytes = unsigned_fixture();
    let reg = parse(&bytes).unwrap();
    assert_eq!(reg.unreachable_keys(), Some(1), "Сила is off relic's hash chain");
    let text = ini_of(&bytes);
    assert!(text.contains("[S]\n;@table 1:-1 0:-1 2:-1\na = 1\nСила = 2\nb = 3\n"), "{text}");
    assert_eq!(pack_ini(&text).unwrap(), bytes, "REG → INI → REG keeps the slots");
    assert_eq!(reg::FORMAT.info(&bytes).unwrap()["layout"], "relic, with the file's own hash-table slots");
    // Without the line, relic places the keys by its own hash.
    let rebuilt = parse(&pack_ini(&text.replace(";@table 1:-1 0:-1 2:-1\n", "")).unwrap()).unwrap();
    let slots: Vec<(String, i32)> =
        rebuilt.sections[0].keys.iter().map(|k| (k.name.decoded(), k.next.value())).collect();
    assert_eq!(slots, [("b".to_string(), -1), ("a".to_string(), -1), ("Сила".to_string(), 0)]);
    // After an edit that adds a key, the stale line is ignored and the table rebuilt.
    let edited = pack_ini(&text.replace("b = 3\n", "b = 3\nc = 4\n")).unwrap();
    assert_eq!(parse(&edited).unwrap().key_count(), 4);
}

#[test]
fn other_layouts_keep_content_in_ini_and_bytes_in_json() {
    let mut bytes = main_fixture();
    bytes.extend([0xAA, 0x00, 0xBB]);
    let reg = parse(&bytes).unwrap();
    assert_eq!(reg.gaps.len(), 1);
    assert_eq!(reg.gaps[0].offset, 196);
    assert_eq!(json_round_trip(&bytes), bytes);
    let text = ini_of(&bytes);
    assert!(text.contains("not laid out the way relic writes"), "{text}");
    assert_eq!(pack_ini(&text).unwrap(), main_fixture(), "the INI keeps every section, key and value");
    assert!(reg::FORMAT.info(&bytes).unwrap()["layout"].as_str().unwrap().starts_with("other"));
}

#[test]
fn records_in_another_order_convert_in_file_order() {
    // Main fixture with the two keys of `Main` swapped in the file (floats first).
    let fixture = main_fixture();
    let reg = parse(&fixture).unwrap();
    let mut swapped = reg.clone();
    let keys = &mut swapped.sections[2].keys;
    keys[0].offset = 20 + 19; // strings after floats
    keys[1].offset = 20;
    let bytes = write(&swapped).unwrap();
    let text = ini_of(&bytes);
    let floats = text.find("floats =").unwrap();
    assert!(floats < text.find("strings =").unwrap(), "{text}");
    assert_eq!(json_round_trip(&bytes), bytes);
    assert_eq!(pack_ini(&text).unwrap(), bytes, "still relic's layout: keys in file order");
}

// =========================================================================================================
// Errors

fn parse_err(bytes: &[u8]) -> Error {
    parse(bytes).expect_err("must be rejected")
}

fn located(err: &Error, field: &str) -> u64 {
    let at = err.location().unwrap_or_else(|| panic!("no location: {err}"));
    assert_eq!(at.format, "ei-reg");
    assert_eq!(at.field, field, "{err}");
    at.offset
}

#[test]
fn error_bad_magic() {
    let mut bytes = main_fixture();
    bytes[0] = 0x3C;
    let err = parse_err(&bytes);
    assert_eq!(located(&err, "magic"), 0);
    assert!(err.to_string().contains("FB 3E AB 45"), "{err}");
}

#[test]
fn error_truncated_section_table() {
    let bytes = main_fixture();
    let err = parse_err(&bytes[..20]);
    assert_eq!(located(&err, "sections_count"), 6);
    assert!(matches!(err, Error::Limit { .. }));
}

#[test]
fn error_section_offset_past_end() {
    let mut bytes = main_fixture();
    bytes[8..12].copy_from_slice(&1000u32.to_le_bytes()); // slot 0's offset
    let err = parse_err(&bytes);
    assert_eq!(located(&err, "sections[0].offset"), 8);
}

#[test]
fn error_chain_link_out_of_range() {
    let mut bytes = main_fixture();
    bytes[6..8].copy_from_slice(&3i16.to_le_bytes());
    let err = parse_err(&bytes);
    assert_eq!(located(&err, "section_table[0].order"), 6);
    // A key-table link: Unit's slot 1 (at 24 + 8 + 6).
    let mut bytes = main_fixture();
    bytes[38..40].copy_from_slice(&(-2i16).to_le_bytes());
    let err = parse_err(&bytes);
    assert_eq!(located(&err, "sections[1].key_table[1].order"), 38);
}

#[test]
fn error_key_offset_past_end() {
    let mut bytes = main_fixture();
    bytes[34..38].copy_from_slice(&500u32.to_le_bytes()); // Unit's slot 0 offset
    let err = parse_err(&bytes);
    assert_eq!(located(&err, "sections[1].key_table[0].offset"), 34);
}

#[test]
fn error_unknown_value_type() {
    let mut bytes = main_fixture();
    bytes[24 + 38] = 0x03; // `hp`'s type byte
    let err = parse_err(&bytes);
    assert_eq!(located(&err, "sections[1].keys[1].type"), 62);
    assert!(err.to_string().contains("0x03"), "{err}");
}

#[test]
fn error_array_count_over_the_file() {
    let mut bytes = main_fixture();
    let ids_at = 24 + 70 + 3 + 3; // count of `ids`
    bytes[ids_at..ids_at + 2].copy_from_slice(&u16::MAX.to_le_bytes());
    let err = parse_err(&bytes);
    assert_eq!(located(&err, "sections[1].keys[0].array_size"), ids_at as u64 + 2);
    assert!(matches!(err, Error::Limit { .. }));
}

#[test]
fn error_overlapping_records() {
    // Two section slots pointing at the same section.
    let mut bytes = main_fixture();
    bytes[8..12].copy_from_slice(&24u32.to_le_bytes());
    let err = parse_err(&bytes);
    assert!(err.to_string().contains("overlap"), "{err}");
    // A key pointing into its own section's header.
    let mut bytes = main_fixture();
    bytes[34..38].copy_from_slice(&0u32.to_le_bytes());
    assert!(parse(&bytes).is_err());
}

#[test]
fn hostile_tables_cannot_expand_one_record_many_times() {
    // 60 000 section slots all pointing at one section whose 10 000 keys all point at one 40 000-element
    // array: read naively this is 2.4e13 values; it must be refused at once.
    let mut out = MAGIC.to_vec();
    let n = 60_000u16;
    out.extend(u16le(n));
    let section_at = 6 + 6 * u32::from(n);
    for _ in 0..n {
        out.extend((-1i16).to_le_bytes());
        out.extend(section_at.to_le_bytes());
    }
    let k = 10_000u16;
    let key_rel = 4 + 1 + 6 * u32::from(k);
    out.extend(section_header(b"S", &vec![(-1i16, key_rel); usize::from(k)]));
    let mut arr = u16le(40_000).to_vec();
    arr.extend(vec![0u8; 160_000]);
    out.extend(key(0x80, b"k", &arr));
    let started = std::time::Instant::now();
    assert!(parse(&out).is_err());
    assert!(started.elapsed().as_secs() < 5);
}

#[test]
fn ini_mistakes_are_refused_with_the_line() {
    let err = pack_ini("[s]\nk = hello\n").unwrap_err();
    assert_eq!(located(&err, "ini line 2"), 4);
    let err = pack_ini("[s]\n;@table 0:-1 0:-1\na = 1\nb = 2\n").unwrap_err();
    assert!(err.to_string().contains("given twice"), "{err}");
    let err = reg::FORMAT.pack_input("x.txt", b"[s]\n", &PackRequest::default()).unwrap_err();
    assert!(matches!(err, Error::Unsupported(_)), "{err}");
    let err = reg::FORMAT.pack_input("x.ini", b"[s]\nk = \"\xFF\"\n", &PackRequest::default()).unwrap_err();
    assert!(err.to_string().contains("UTF-8"), "{err}");
}

// =========================================================================================================
// Robustness

#[test]
fn robustness_hand_made_and_written() {
    let r = check_robustness(&main_fixture(), true, |b| parse(b).map(|_| ()));
    assert_eq!(r.truncations, 196);
    assert!(r.flips_rejected > 0);
    check_robustness(&unsigned_fixture(), true, |b| parse(b).map(|_| ()));
    let written = pack_ini(MAIN_INI).unwrap();
    check_robustness(&written, true, |b| parse(b).map(|_| ()));
    // Whatever parses converts and writes back.
    check_robustness(&main_fixture(), true, |b| {
        let reg = parse(b)?;
        let _ = convert::to_ini(&reg);
        assert_eq!(write(&reg).unwrap(), b);
        Ok::<(), Error>(())
    });
}

// =========================================================================================================
// Python's configparser reads the INI

fn configparser_names(text: &str) -> Option<serde_json::Value> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.ini");
    std::fs::write(&path, text).unwrap();
    let script = "import configparser, json, sys\n\
                  p = configparser.ConfigParser(interpolation=None)\n\
                  p.optionxform = str\n\
                  p.read(sys.argv[1], encoding='utf-8')\n\
                  print(json.dumps([[s, list(p[s].keys())] for s in p.sections()]))\n";
    let out = match Command::new("python3").arg("-c").arg(script).arg(&path).output() {
        Ok(out) => out,
        Err(e) => {
            eprintln!("skipping the configparser check: python3 is not available ({e})");
            return None;
        }
    };
    assert!(out.status.success(), "configparser failed: {}", String::from_utf8_lossy(&out.stderr));
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

#[test]
fn python_configparser_reads_the_ini() {
    let Some(names) = configparser_names(MAIN_INI) else { return };
    assert_eq!(
        names,
        serde_json::json!([
            ["Unit", ["hp", "speed", "name", "ids", "Сила"]],
            ["Main", ["strings", "floats"]],
            ["Пусто", []]
        ])
    );
    // Unusual names are quoted so that configparser still sees one key per line.
    let content = Content {
        sections: vec![relic::evil_islands::reg::types::PlainSection {
            name: t("odd [section]"),
            keys: vec![
                relic::evil_islands::reg::types::PlainKey { name: t("a=b:c"), value: Value::Int(1) },
                relic::evil_islands::reg::types::PlainKey { name: t(" spaced "), value: Value::Int(2) },
                relic::evil_islands::reg::types::PlainKey { name: t("; not a comment"), value: Value::Int(3) },
                relic::evil_islands::reg::types::PlainKey { name: t("%(interp)s"), value: Value::String(t("%")) },
            ],
            table: None,
        }],
        table: None,
    };
    let text = ini::to_text(&content, None);
    let Some(names) = configparser_names(&text) else { return };
    assert_eq!(
        names,
        serde_json::json!([[
            "\"odd [section]\"",
            ["\"a\\x3Db\\x3Ac\"", "\" spaced \"", "\"; not a comment\"", "%(interp)s"]
        ]])
    );
    assert_eq!(ini::parse(&text).unwrap(), content);
}

// =========================================================================================================
// Writer round trips

fn arb_text() -> impl Strategy<Value = Text> {
    // cp1251 characters, with the ones the INI must quote or escape well represented.
    let chars = prop_oneof![
        4 => proptest::char::range('a', 'z'),
        2 => proptest::char::range('А', 'я'),
        1 => proptest::sample::select(vec![' ', '=', ':', '"', '\\', '[', ']', ';', '#', '\n', '\r', '\t', '\0', '\u{98}', '€', ',']),
    ];
    proptest::collection::vec(chars, 0..8).prop_map(|c| Text::encode(&c.into_iter().collect::<String>()).unwrap())
}

fn arb_value() -> impl Strategy<Value = Value> {
    let float = any::<u32>().prop_map(F32);
    prop_oneof![
        any::<i32>().prop_map(Value::Int),
        float.clone().prop_map(Value::Float),
        arb_text().prop_map(Value::String),
        proptest::collection::vec(any::<i32>(), 0..4).prop_map(Value::IntArray),
        proptest::collection::vec(float, 0..4).prop_map(Value::FloatArray),
        proptest::collection::vec(arb_text(), 0..4).prop_map(Value::StringArray),
    ]
}

/// Valid placements for `n` entries: a permutation of the slots, and links in range (cycles allowed).
fn arb_table(n: usize) -> impl Strategy<Value = Option<Vec<Placement>>> {
    let slots = Just((0..n as u16).collect::<Vec<_>>()).prop_shuffle();
    let links = proptest::collection::vec((-1i64..n as i64).prop_map(|v| Link::from_value(v).unwrap()), n);
    proptest::option::of(
        (slots, links)
            .prop_map(|(s, l)| s.into_iter().zip(l).map(|(slot, next)| Placement { slot, next }).collect::<Vec<_>>()),
    )
}

fn arb_section() -> impl Strategy<Value = relic::evil_islands::reg::types::PlainSection> {
    (arb_text(), proptest::collection::vec((arb_text(), arb_value()), 0..6)).prop_flat_map(|(name, keys)| {
        let n = keys.len();
        (Just(name), Just(keys), arb_table(n)).prop_map(|(name, keys, table)| {
            relic::evil_islands::reg::types::PlainSection {
                name,
                keys: keys
                    .into_iter()
                    .map(|(name, value)| relic::evil_islands::reg::types::PlainKey { name, value })
                    .collect(),
                table,
            }
        })
    })
}

fn arb_content() -> impl Strategy<Value = Content> {
    proptest::collection::vec(arb_section(), 0..5).prop_flat_map(|sections| {
        let n = sections.len();
        (Just(sections), arb_table(n)).prop_map(|(sections, table)| Content { sections, table })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Files relic writes (any content, any valid table slots) survive REG → INI → REG and REG → JSON → REG
    /// byte for byte, and the INI gives back the same content.
    #[test]
    fn reg_ini_reg_is_byte_identical(content in arb_content()) {
        let bytes = write_content(&content).unwrap();
        let reg = parse(&bytes).unwrap();
        let (back, kind) = convert::to_content(&reg);
        prop_assert_ne!(kind, convert::Layout::Other);
        let text = ini_of(&bytes);
        prop_assert_eq!(pack_ini(&text).unwrap(), bytes.clone());
        prop_assert_eq!(json_round_trip(&bytes), bytes.clone());
        // Same names and values in the same order (tables appear only where they differ from the hash).
        let strip = |c: &Content| c.sections.iter()
            .map(|s| (s.name.clone(), s.keys.clone()))
            .collect::<Vec<_>>();
        prop_assert_eq!(strip(&back), strip(&content));
        prop_assert_eq!(ini::parse(&text).unwrap(), back);
    }

    /// INI text relic writes reads back to itself.
    #[test]
    fn ini_text_is_stable(content in arb_content()) {
        let text = ini::to_text(&content, None);
        let parsed = ini::parse(&text).unwrap();
        prop_assert_eq!(&parsed, &content);
        prop_assert_eq!(ini::to_text(&parsed, None), text);
    }

    /// Arbitrary bytes after a valid header never panic the reader, and what parses writes back.
    #[test]
    fn arbitrary_bodies_never_panic(body in proptest::collection::vec(any::<u8>(), 0..200), count in 0u16..4) {
        let mut bytes = MAGIC.to_vec();
        bytes.extend(count.to_le_bytes());
        bytes.extend(body);
        if let Ok(reg) = parse(&bytes) {
            prop_assert_eq!(write(&reg).unwrap(), bytes);
        }
    }
}

#[test]
fn layout_refuses_what_a_reg_cannot_hold() {
    let big = Content {
        sections: vec![relic::evil_islands::reg::types::PlainSection {
            name: t("s"),
            keys: vec![relic::evil_islands::reg::types::PlainKey {
                name: t("k"),
                value: Value::IntArray(vec![0; 70_000]),
            }],
            table: None,
        }],
        table: None,
    };
    let err = write_content(&big).unwrap_err();
    assert!(err.to_string().contains("65535"), "{err}");
    assert!(layout(&Content::default()).is_ok());
}

#[test]
fn json_document_edits_are_checked() {
    let fixture = main_fixture();
    let mut value = reg::FORMAT.to_json(&fixture).unwrap();
    // A longer name moves the records after it: the stored offsets no longer fit, and the writer says so.
    value["sections"][1]["keys"][1]["name"] = "hit points".into();
    assert!(reg::FORMAT.from_json(value, &Default::default()).is_err());
    let mut value = reg::FORMAT.to_json(&fixture).unwrap();
    value["sections"][1]["keys"][1]["value"] = 43.into(); // same size: fine
    let bytes = reg::FORMAT.from_json(value, &Default::default()).unwrap();
    assert_eq!(parse(&bytes).unwrap().sections[1].keys[1].value, Value::Int(43));
    let value = serde_json::json!({"format": "ei-reg", "file_size": 6, "sections": [{"next": -1}]});
    assert!(reg::FORMAT.from_json(value, &Default::default()).is_err());
}

#[test]
fn reg_document_serde_is_stable() {
    let reg: Reg = parse(&main_fixture()).unwrap();
    let doc = convert::to_document(&reg);
    let text = serde_json::to_string(&doc).unwrap();
    let back: relic::evil_islands::reg::RegDocument = serde_json::from_str(&text).unwrap();
    assert_eq!(back, doc);
}

/// The `k`-th permutation of `letters` (factorial number system).
fn permutation(mut k: usize, letters: &[u8]) -> Vec<u8> {
    let mut pool = letters.to_vec();
    let mut out = Vec::with_capacity(pool.len());
    while !pool.is_empty() {
        let f: usize = (1..pool.len()).product();
        out.push(pool.remove(k / f));
        k %= f;
    }
    out
}

#[test]
fn long_hash_chains_stay_fast() {
    // 65535 anagrams: one byte sum, so one hash slot and a single chain through every slot. Placing them
    // must not walk the chain for each entry, and info must not look each one up along it.
    let keys: Vec<relic::evil_islands::reg::types::PlainKey> = (0..65_535)
        .map(|k| relic::evil_islands::reg::types::PlainKey {
            name: Text(permutation(k, b"abcdefghi")),
            value: Value::Int(k as i32),
        })
        .collect();
    let content = Content {
        sections: vec![relic::evil_islands::reg::types::PlainSection { name: t("s"), keys, table: None }],
        table: None,
    };
    let started = std::time::Instant::now();
    let bytes = write_content(&content).unwrap();
    let reg = parse(&bytes).unwrap();
    let links: Vec<Link> = reg.sections[0].keys.iter().map(|k| k.next).collect();
    assert_eq!(links.iter().filter(|l| l.slot().is_none()).count(), 1, "one chain");
    assert!(links.iter().any(|l| l.slot().is_some_and(|s| s > 32_767)), "links to the upper half of the table");
    let info = reg::FORMAT.info(&bytes).unwrap();
    assert_eq!(info["keys"], 65_535);
    assert_eq!(info["layout"], "relic");
    assert!(info["keys_unreachable_by_hash"].is_null(), "too long to check: {info}");
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}
