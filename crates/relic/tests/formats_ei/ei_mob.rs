//! Evil Islands MOB level files (`ei-mob`): reader, cipher, lossless document, writer, conversion.
//!
//! Layout (spec `evil-islands.txt`, section "MOB", with docs/formats/evil-islands.md#mob):
//! - a file is a sequence of top-level nodes; a node is u32 `type_id`, u32 `size` (the whole node, its
//!   8-byte header included), then `size − 8` bytes of payload;
//! - record types hold child nodes; the other payloads are typed by the spec's table: Byte u8, Dword u32,
//!   Float f32, String cp1251 (no terminator), StringArray u32 count + that many (type, size, text)
//!   sub-nodes, Plot 3 × f32, Quaternion 4 × f32, Rectangle 4 × u32, LeverStats 3 × i32, UnitStats the
//!   172-byte `<4i10f2Bh13fi12f8B`, Diplomacy 32 × 32 u32, AreaArray u32 n + n × (x, y, r),
//!   Plot2DArray u32 n + n × (x, y);
//! - SS_TEXT 0xACCEECCB: u32 key, then the script XORed with bits 16..23 of the state
//!   `key += ((((key·13) << 4) + key) << 8) − key)·4 + 2531011`, stepped before each byte.
//!
//! The fixtures below are assembled byte by byte from those tables, independently of relic's writer. The
//! real level comes from `../shared/corpus/` when it exists (never copied into the repository).

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use relic::evil_islands::mob::cipher;
use relic::evil_islands::mob::types::{Area, CpString, Hex, Script, StringItem, UnitStats, F32};
use relic::evil_islands::mob::{self, convert, parse, write, Mob, MobDocument, Node, Value};
use relic::registry::ConvertOptions;
use relic::Error;

// =========================================================================================================
// Hand-made fixtures (spec "MOB")

fn node(type_id: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + payload.len());
    out.extend_from_slice(&type_id.to_le_bytes());
    out.extend_from_slice(&(8 + payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

fn record(type_id: u32, children: &[Vec<u8>]) -> Vec<u8> {
    node(type_id, &children.concat())
}

fn le32(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn f32s(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The keystream of key 1, worked out by hand from the spec's loop (state after each step, then bits
/// 16..23): 1·214013 + 2531011 = 0x0029E2C0 → 0x29; 0x0029E2C0·214013 + 2531011 mod 2³² = 0xC823F683
/// → 0x23; then 0x18BE873A, 0xE7847115, 0xCAE1DF84, 0x3D6C1037, 0x2CD60A1E, 0x72AE7869, 0x69521988,
/// 0xDF90722B, 0x1649B442, 0x6DF109FD, 0xDAF1B4CC, 0xC1BBB05F.
const KEY1_STREAM: [u8; 14] = [0x29, 0x23, 0xBE, 0x84, 0xE1, 0x6C, 0xD6, 0xAE, 0x52, 0x90, 0x49, 0xF1, 0xF1, 0xBB];
const SCRIPT_TEXT: &[u8; 14] = b"GlobalVars ( )";

/// The UnitStats payload of the fixture: every field set to a distinct value, packed as
/// `<4i10f2Bh13fi12f8B`.
fn unit_stats_bytes() -> Vec<u8> {
    let mut b = Vec::new();
    b.extend(le32(&[80, 81, 19, 20])); // hp, max_hp, mp, max_mp
    b.extend(f32s(&[1.0, 15.0, 1.25, 0.25, 0.5, 0.125, -0.5, 1.75, 0.75, 0.375])); // 0x10..0x38
    b.extend([6, 7]); // ai_class_stay, ai_class_lay
    b.extend((-2i16).to_le_bytes()); // 0x3A
    b.extend(f32s(&[2.0, 61.0, 52.0, 1.5, 14.0, 11.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7])); // 0x3C..0x70
    b.extend(13i32.to_le_bytes()); // 0x70 absorption
    b.extend(f32s(&[8.5, 100.0, 3.0, 2.75, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0])); // 0x74..0xA4
    b.extend([0, 1, 35, 3, 4, 5, 6, 0xFF]); // 0xA4..0xAC
    assert_eq!(b.len(), 172);
    b
}

fn string_array(type_id: u32, items: &[(u32, &[u8])]) -> Vec<u8> {
    let mut p = le32(&[items.len() as u32]);
    for (t, s) in items {
        p.extend(node(*t, s));
    }
    node(type_id, &p)
}

fn diplomacy_bytes() -> Vec<u8> {
    (0..32u32).flat_map(|row| (0..32u32).map(move |col| row * 100 + col)).flat_map(|v| v.to_le_bytes()).collect()
}

/// The script node: key 1, then the text XORed with the hand-computed keystream.
fn script_node() -> Vec<u8> {
    let mut p = le32(&[1]);
    p.extend(SCRIPT_TEXT.iter().zip(KEY1_STREAM).map(|(b, k)| b ^ k));
    node(0xACCE_ECCB, &p)
}

/// One node of each value type, a script enciphered with key 1, misfits kept as hex, then AIGRAPH.
fn fixture() -> Vec<u8> {
    let unit = record(
        0xBBBB_0000,
        &[
            node(0xBBBB_0002, b"Goblin"),
            node(0xBBBB_0004, &unit_stats_bytes()),
            string_array(0xBBBB_0007, &[(0xBBBB_0007, b"Heal"), (0xBBBB_0007, b"Fireball")]),
            string_array(0xBBBB_0008, &[]),
            node(0xBBBB_000A, &[1]),
        ],
    );
    let object = record(
        0x0000_B001,
        &[
            node(0x0000_B002, &le32(&[7])),
            node(0x0000_B009, &f32s(&[1.0, 2.0, 3.5])),
            node(0x0000_B00A, &f32s(&[0.5, 0.0, -0.25, 1.0])),
            node(0x0000_AA02, &f32s(&[12.5])),
            // OBJECTNAME "Привет" in cp1251
            node(0x0000_B004, &[0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2]),
        ],
    );
    let diplomation = record(
        0xDDDD_DDD1,
        &[
            node(0xDDDD_DDD2, &diplomacy_bytes()),
            // An item whose sub-node type differs from the array's.
            string_array(0xDDDD_DDD3, &[(0xDDDD_DDD3, b"Player-0"), (0x0000_0042, b"Other")]),
        ],
    );
    let mut areas = le32(&[2]);
    areas.extend(f32s(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]));
    let mut points = le32(&[1]);
    points.extend(f32s(&[7.0, 8.0]));
    let trap = record(0xBBAB_0000, &[node(0xBBAB_0003, &areas), node(0xBBAB_0004, &points)]);
    let mut root = vec![
        node(0x0000_C000, &[]),
        script_node(),
        unit,
        object,
        diplomation,
        trap,
        node(0xBBAC_0006, &[5, 0, 0, 0, 0, 0, 0, 0, 0xD8, 0xFF, 0xFF, 0xFF]),
        node(0x0000_1E05, &le32(&[33, 77, 152, 242])),
        node(0x1234_5678, &[0xDE, 0xAD]),
        node(0x0000_B002, &[1, 2]),
        node(0xBBBB_0004, &[0u8; 180]),
        node(0x0000_AA00, &[9]),
        node(0xFFFF_FFFF, &[1, 2, 3]),
        node(0xACCE_ECCA, b"old"),
    ];
    root.push(record(0x0000_E000, &[]));
    let mut out = record(0x0000_A000, &root);
    out.extend(node(0x3141_5926, &[0x10, 0x20, 0x30, 0x40]));
    out
}

fn child(n: &Node, i: usize) -> &Node {
    match &n.value {
        Value::Record(c) => &c[i],
        other => panic!("0x{:08X} is not a record: {other:?}", n.type_id),
    }
}

fn children(n: &Node) -> &[Node] {
    match &n.value {
        Value::Record(c) => c,
        other => panic!("0x{:08X} is not a record: {other:?}", n.type_id),
    }
}

fn hex(bytes: &[u8]) -> Value {
    Value::Hex(Hex(bytes.to_vec()))
}

#[test]
fn cipher_keystream_matches_the_hand_computed_one() {
    assert_eq!(cipher::keystream(1, 14), KEY1_STREAM);
    // Key 0: 0·214013 + 2531011 = 0x00269EC3 → 0x26.
    assert_eq!(cipher::keystream(0, 1), [0x26]);
    let mut data = *SCRIPT_TEXT;
    cipher::apply(1, &mut data);
    assert_eq!(data.to_vec(), SCRIPT_TEXT.iter().zip(KEY1_STREAM).map(|(b, k)| b ^ k).collect::<Vec<_>>());
}

#[test]
fn fixture_parses_to_exact_values() {
    let mob = parse(&fixture()).unwrap();
    assert_eq!(mob.nodes.iter().map(|n| n.type_id).collect::<Vec<_>>(), [0xA000, 0x3141_5926]);
    let root = &mob.nodes[0];
    assert_eq!(root.name(), Some("OBJECTDBFILE"));
    assert_eq!(children(root).len(), 15);
    assert_eq!(child(root, 0).value, Value::Null);
    assert_eq!(child(root, 1).value, Value::Script(Script { key: 1, text: CpString::new("GlobalVars ( )") }));

    let unit = child(root, 2);
    assert_eq!(unit.name(), Some("UNIT"));
    assert_eq!(child(unit, 0).value, Value::String(CpString::new("Goblin")));
    let Value::UnitStats(stats) = &child(unit, 1).value else { panic!("{:?}", child(unit, 1)) };
    assert_eq!((stats.hp, stats.max_hp, stats.mp, stats.max_mp), (80, 81, 19, 20));
    assert_eq!((stats.moves, stats.actions, stats.speed_run), (F32(1.0), F32(15.0), F32(1.25)));
    assert_eq!((stats.vision_arc, stats.attack_distance), (F32(-0.5), F32(0.375)));
    assert_eq!((stats.ai_class_stay, stats.ai_class_lay, stats.unk_0x3a), (6, 7, -2));
    assert_eq!(
        (stats.range, stats.attack, stats.defence, stats.armor_general),
        (F32(2.0), F32(61.0), F32(52.0), F32(0.7))
    );
    assert_eq!((stats.absorption, stats.sight, stats.unk_0x78, stats.unk_0xa0), (13, F32(8.5), F32(100.0), F32(11.0)));
    assert_eq!((stats.unk_0xa4, stats.unk_0xa6, stats.unk_0xab), (0, 35, 0xFF));
    assert_eq!(
        child(unit, 2).value,
        Value::StringArray(vec![
            StringItem { type_id: None, text: CpString::new("Heal") },
            StringItem { type_id: None, text: CpString::new("Fireball") },
        ])
    );
    assert_eq!(child(unit, 3).value, Value::StringArray(vec![]));
    assert_eq!(child(unit, 4).value, Value::Byte(1));

    let object = child(root, 3);
    assert_eq!(child(object, 0).value, Value::Dword(7));
    assert_eq!(child(object, 1).value, Value::Plot([F32(1.0), F32(2.0), F32(3.5)]));
    assert_eq!(child(object, 2).value, Value::Quaternion([F32(0.5), F32(0.0), F32(-0.25), F32(1.0)]));
    assert_eq!(child(object, 3).value, Value::Float(F32(12.5)));
    assert_eq!(child(object, 4).value, Value::String(CpString::new("Привет")));

    let diplomation = child(root, 4);
    let Value::Diplomacy(matrix) = &child(diplomation, 0).value else { panic!() };
    assert_eq!((matrix.len(), matrix[0].len(), matrix[0][5], matrix[31][31], matrix[2][3]), (32, 32, 5, 3131, 203));
    assert_eq!(
        child(diplomation, 1).value,
        Value::StringArray(vec![
            StringItem { type_id: None, text: CpString::new("Player-0") },
            StringItem { type_id: Some(0x42), text: CpString::new("Other") },
        ])
    );
    let trap = child(root, 5);
    assert_eq!(
        child(trap, 0).value,
        Value::AreaArray(vec![
            Area { x: F32(1.0), y: F32(2.0), r: F32(3.0) },
            Area { x: F32(4.0), y: F32(5.0), r: F32(6.0) }
        ])
    );
    assert_eq!(child(trap, 1).value, Value::Plot2DArray(vec![[F32(7.0), F32(8.0)]]));
    assert_eq!(child(root, 6).value, Value::LeverStats([5, 0, -40]));
    assert_eq!(child(root, 7).value, Value::Rectangle([33, 77, 152, 242]));
    // Kept as hex: an id the spec does not list, payloads of the wrong size, the spec's UNKNOWN.
    assert_eq!(child(root, 8).value, hex(&[0xDE, 0xAD]));
    assert_eq!(child(root, 8).name(), None);
    assert_eq!(child(root, 9).value, hex(&[1, 2]));
    assert_eq!(child(root, 10).value, hex(&[0; 180]));
    assert_eq!(child(root, 11).value, hex(&[9]));
    assert_eq!(child(root, 12).value, hex(&[1, 2, 3]));
    assert_eq!(child(root, 13).value, Value::String(CpString::new("old")));
    assert_eq!(child(root, 14).value, Value::Record(vec![]));
    assert_eq!(mob.nodes[1].value, hex(&[0x10, 0x20, 0x30, 0x40]));
}

#[test]
fn misfitting_payloads_are_kept_as_hex() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        // children that run past the record
        ("record", { node(0x0000_B001, &[0x02, 0xB0, 0, 0, 0x40, 0, 0, 0]) }),
        // a child whose size is under 8
        ("record", node(0x0000_B001, &[0x02, 0xB0, 0, 0, 4, 0, 0, 0])),
        // a count of 2 with one sub-node
        ("string array", string_array_with_count(2, &[b"a"])),
        // bytes after the sub-nodes
        ("string array", {
            let mut p = le32(&[0]);
            p.push(7);
            node(0xBBBB_0007, &p)
        }),
        ("area array", node(0xBBAB_0003, &[le32(&[1]), f32s(&[1.0, 2.0])].concat())),
        ("area array huge count", node(0xBBAB_0003, &le32(&[0xFFFF_FFFF]))),
        ("plot 2d array", node(0xBBAB_0004, &[le32(&[0]), vec![0]].concat())),
        ("diplomacy", node(0xDDDD_DDD2, &[0; 4092])),
        ("plot", node(0x0000_B009, &[0; 8])),
        ("rectangle", node(0x0000_1E05, &[0; 12])),
        ("lever", node(0xBBAC_0006, &[0; 16])),
        ("script without key", node(0xACCE_ECCB, &[1, 2, 3])),
    ];
    for (what, bytes) in cases {
        let mob = parse(&bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(mob.nodes[0].value, hex(&bytes[8..]), "{what}");
        assert_eq!(write(&mob).unwrap(), bytes, "{what}");
    }
}

fn string_array_with_count(count: u32, items: &[&[u8]]) -> Vec<u8> {
    let mut p = le32(&[count]);
    for s in items {
        p.extend(node(0xBBBB_0007, s));
    }
    node(0xBBBB_0007, &p)
}

#[test]
fn script_key_and_text_in_json() {
    let json = mob::FORMAT.to_json(&fixture()).unwrap();
    let script = &json["nodes"][0]["children"][1];
    assert_eq!(script["type"], "0xACCEECCB");
    assert_eq!(script["name"], "SS_TEXT");
    assert_eq!(script["script"], serde_json::json!({"key": 1, "text": "GlobalVars ( )"}));
    let unit = &json["nodes"][0]["children"][2];
    assert_eq!(unit["children"][1]["unit_stats"]["hp"], 80);
    assert_eq!(unit["children"][1]["unit_stats"]["unk_0xab"], 255);
    assert_eq!(unit["children"][2]["strings"], serde_json::json!(["Heal", "Fireball"]));
    let names = &json["nodes"][0]["children"][4]["children"][1]["strings"];
    assert_eq!(names, &serde_json::json!(["Player-0", {"type": "0x00000042", "string": "Other"}]));
    assert_eq!(json["nodes"][0]["children"][0], serde_json::json!({"type": "0x0000C000", "name": "SC_OBJECTDBFILE"}));
    assert_eq!(json["nodes"][0]["children"][8], serde_json::json!({"type": "0x12345678", "hex": "dead"}));
    assert_eq!(json["nodes"][0]["children"][6]["lever_stats"], serde_json::json!([5, 0, -40]));
    assert_eq!(json["nodes"][1]["hex"], "10203040");
    assert_eq!(json["nodes"][0]["children"][4]["children"][0]["diplomacy"][1][2], 102);
}

// =========================================================================================================
// Errors

fn parse_err(bytes: &[u8]) -> Error {
    parse(bytes).map(|_| ()).unwrap_err()
}

fn located(err: &Error, field: &str, offset: u64) {
    let at = err.location().unwrap_or_else(|| panic!("no location: {err}"));
    assert_eq!(at.format, "ei-mob", "{err}");
    assert_eq!(at.field, field, "{err}");
    assert_eq!(at.offset, offset, "{err}");
}

#[test]
fn error_empty_file() {
    located(&parse_err(&[]), "nodes", 0);
}

#[test]
fn error_truncated_header() {
    located(&parse_err(&[0x00, 0xA0, 0, 0, 8, 0]), "nodes[0].size", 4);
    located(&parse_err(&[0x00, 0xA0]), "nodes[0].type_id", 0);
}

#[test]
fn error_size_below_header() {
    let mut bytes = node(0xA000, &[]);
    bytes[4] = 7;
    located(&parse_err(&bytes), "nodes[0].size", 4);
}

#[test]
fn error_size_past_end() {
    // AIGRAPH (8-byte header, 4-byte payload) loses 2 bytes of its payload.
    let mut bytes = fixture();
    let n = bytes.len() - 2;
    bytes.truncate(n);
    let err = parse_err(&bytes);
    located(&err, "nodes[1].size", bytes.len() as u64 - 6);
    assert!(err.to_string().contains("runs past the end"), "{err}");
}

#[test]
fn error_trailing_bytes() {
    let mut bytes = node(0xA000, &[]);
    bytes.extend([1, 2, 3]);
    located(&parse_err(&bytes), "nodes[1].type_id", 8);
}

fn nested(depth: usize) -> Vec<u8> {
    let mut bytes = node(0x0000_B002, &le32(&[1]));
    for _ in 0..depth {
        bytes = node(0x0000_A000, &bytes);
    }
    bytes
}

#[test]
fn error_nesting_is_limited() {
    assert!(parse(&nested(32)).is_ok());
    let err = parse_err(&nested(33));
    assert!(matches!(err, Error::Limit { .. }), "{err}");
    let at = err.location().unwrap();
    assert!(at.field.starts_with("nodes[0].children[0].children[0]."), "{err}");
    // At the payload of the 33rd record.
    assert_eq!(at.offset, 33 * 8, "{err}");
}

// =========================================================================================================
// Robustness

fn writer_made() -> Vec<u8> {
    let doc: MobDocument = serde_json::from_value(serde_json::json!({
        "format": "ei-mob",
        "nodes": [
            {"type": "0x0000A000", "children": [
                {"type": "0xACCEECCB", "script": {"key": 0xC0FFEE, "text": "Привет ( )\n"}},
                {"type": "0xBBBB0000", "children": [
                    {"type": "0xBBBB0002", "string": "Goblin"},
                    {"type": "0xBBBB0009", "strings": ["Armor", {"type": "0x00000001", "string": "Helm"}]},
                    {"type": "0xBBBC0004", "float": 2.5}
                ]},
                {"type": "0xBBAB0003", "areas": [{"x": 1, "y": 2, "r": 0.5}]},
                {"type": "0x0000B00A", "quaternion": [1.0, 0.0, "0x7FC00000", -0.0]}
            ]},
            {"type": "0x31415926", "hex": "00ff"}
        ]
    }))
    .unwrap();
    mob::write_document(&doc).unwrap()
}

/// `via_json`: check losslessness through the JSON document (slower) instead of the types.
fn assert_robust(bytes: &[u8], via_json: bool) {
    let report = relic::testing::check_robustness(bytes, false, |b| parse(b).map(|_| ()));
    // Every proper prefix is rejected but the one that ends where the first top-level node ends.
    assert_eq!(report.truncations_rejected, report.truncations - 1, "{report:?}");
    // The fuzz target's property: whatever parses (flipped bytes included) comes back byte for byte.
    let report = relic::testing::check_robustness(bytes, false, |b| {
        let back = if via_json {
            let json = mob::FORMAT.to_json(b)?;
            mob::FORMAT.from_json(json, &Default::default()).expect("a parsed file writes back")
        } else {
            write(&parse(b)?).expect("a parsed file writes back")
        };
        assert_eq!(back, b, "not lossless");
        Ok::<_, Error>(())
    });
    assert!(report.flips_rejected < report.flips, "{report:?}");
}

#[test]
fn robustness_hand_made() {
    assert_robust(&fixture(), false);
}

#[test]
fn robustness_writer_made() {
    assert_robust(&writer_made(), true);
}

// =========================================================================================================
// Writer and document

fn json_round_trip(bytes: &[u8]) -> Vec<u8> {
    let json = mob::FORMAT.to_json(bytes).unwrap();
    let text = serde_json::to_string_pretty(&json).unwrap();
    let back: serde_json::Value = serde_json::from_str(&text).unwrap();
    mob::FORMAT.from_json(back, &Default::default()).unwrap()
}

#[test]
fn writer_round_trips_the_fixture_byte_for_byte() {
    let bytes = fixture();
    assert_eq!(write(&parse(&bytes).unwrap()).unwrap(), bytes);
    assert_eq!(json_round_trip(&bytes), bytes);
    let made = writer_made();
    assert_eq!(json_round_trip(&made), made);
}

#[test]
fn writer_made_file_holds_what_was_written() {
    let mob = parse(&writer_made()).unwrap();
    let root = &mob.nodes[0];
    assert_eq!(child(root, 0).value, Value::Script(Script { key: 0xC0FFEE, text: CpString::new("Привет ( )\n") }));
    let unit = child(root, 1);
    assert_eq!(
        child(unit, 1).value,
        Value::StringArray(vec![
            StringItem { type_id: None, text: CpString::new("Armor") },
            StringItem { type_id: Some(1), text: CpString::new("Helm") },
        ])
    );
    let Value::Quaternion(q) = child(root, 3).value else { panic!() };
    assert_eq!(q.map(|f| f.0.to_bits()), [0x3F80_0000, 0, 0x7FC0_0000, 0x8000_0000]);
    // The script bytes on disk: key then "Привет ( )\n" in cp1251, enciphered with the key.
    let bytes = writer_made();
    let script_at = 8;
    assert_eq!(&bytes[script_at..script_at + 4], &0xACCE_ECCBu32.to_le_bytes());
    assert_eq!(&bytes[script_at + 4..script_at + 8], &(12u32 + 11).to_le_bytes());
    assert_eq!(&bytes[script_at + 8..script_at + 12], &0xC0FFEEu32.to_le_bytes());
    let mut plain = bytes[script_at + 12..script_at + 23].to_vec();
    for (b, k) in plain.iter_mut().zip(cipher::keystream(0xC0FFEE, 11)) {
        *b ^= k;
    }
    assert_eq!(plain, [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2, b' ', b'(', b' ', b')', b'\n']);
}

#[test]
fn edited_script_round_trips_with_sizes_updated() {
    let bytes = fixture();
    let mut json = mob::FORMAT.to_json(&bytes).unwrap();
    let new_text = "GlobalVars ( Гипат : object )\nDeclareScript Start ( )\n";
    json["nodes"][0]["children"][1]["script"]["text"] = serde_json::json!(new_text);
    let packed = mob::FORMAT.from_json(json, &Default::default()).unwrap();
    let grown = new_text.chars().count() - SCRIPT_TEXT.len();
    assert_eq!(packed.len(), bytes.len() + grown);
    assert_eq!(u32::from_le_bytes(packed[4..8].try_into().unwrap()) as usize, bytes.len() - 12 + grown);
    assert_eq!(u32::from_le_bytes(packed[20..24].try_into().unwrap()) as usize, 12 + new_text.chars().count());
    let mob = parse(&packed).unwrap();
    assert_eq!(child(&mob.nodes[0], 1).value, Value::Script(Script { key: 1, text: CpString::new(new_text) }));
    // Everything else is unchanged.
    let mut before = parse(&bytes).unwrap();
    let mut after = mob;
    for m in [&mut before, &mut after] {
        let Value::Record(c) = &mut m.nodes[0].value else { panic!() };
        c.remove(1);
    }
    assert_eq!(before, after);
}

#[test]
fn document_rejects_bad_input() {
    let codec = &mob::FORMAT;
    let bad = [
        serde_json::json!({"format": "ei-res", "nodes": []}),
        serde_json::json!({"format": "ei-mob", "nodes": [{"type": "0xA000", "byte": 1, "dword": 2}]}),
        serde_json::json!({"format": "ei-mob", "nodes": [{"type": "A000"}]}),
        serde_json::json!({"format": "ei-mob", "nodes": [{"byte": 1}]}),
        serde_json::json!({"format": "ei-mob", "nodes": [{"type": "0xA000", "bogus": 1}]}),
        serde_json::json!({"format": "ei-mob", "nodes": [{"type": "0xB004", "string": "日本"}]}),
        serde_json::json!({"format": "ei-mob", "nodes": [{"type": "0xDDDDDDD2", "diplomacy": [[1, 2]]}]}),
        serde_json::json!({"format": "ei-mob", "nodes": [{"type": "0x31415926", "hex": "xyz"}]}),
    ];
    for value in bad {
        // Named by the format, and by the JSON path where the document has one (not a byte offset).
        let err = codec.from_json(value.clone(), &Default::default()).unwrap_err();
        let named = err.location().is_some_and(|l| l.format == "ei-mob")
            || matches!(err, Error::Refusal { format: "ei-mob", .. })
            || err.to_string().starts_with("ei-mob document: `nodes[0]")
            || err.to_string().starts_with("ei-mob document: `format`");
        assert!(named, "{value}: {err}");
    }
    // The spec's name is informational: a wrong one is ignored.
    let ok = serde_json::json!({"format": "ei-mob", "nodes": [{"type": "0xB002", "name": "whatever", "dword": 3}]});
    assert_eq!(codec.from_json(ok, &Default::default()).unwrap(), node(0xB002, &le32(&[3])));
    // Raw bytes win over the text.
    let raw =
        serde_json::json!({"format": "ei-mob", "nodes": [{"type": "0xB004", "string": {"text": "?", "raw": "ff00"}}]});
    assert_eq!(codec.from_json(raw, &Default::default()).unwrap(), node(0xB004, &[0xFF, 0]));
}

#[test]
fn writer_refuses_too_deep_trees() {
    let mut n = Node { type_id: 0xB002, value: Value::Dword(1) };
    for _ in 0..40 {
        n = Node { type_id: 0xA000, value: Value::Record(vec![n]) };
    }
    let err = write(&Mob { nodes: vec![n] }).unwrap_err();
    assert!(err.to_string().contains("deeper"), "{err}");
}

// ---------------------------------------------------------------------------------------------------------
// Random trees: write → parse gives the same tree, and JSON → tree too.

fn text() -> impl Strategy<Value = CpString> {
    proptest::string::string_regex("[a-zA-Z0-9 ()\n\r.,:а-яА-ЯёЁ]{0,24}").unwrap().prop_map(CpString::new)
}

fn f() -> impl Strategy<Value = F32> {
    any::<u32>().prop_map(|b| F32(f32::from_bits(b)))
}

fn unit_stats() -> impl Strategy<Value = UnitStats> {
    proptest::collection::vec(any::<u8>(), 172).prop_map(|b| {
        let mob = parse(&node(0xBBBB_0004, &b)).unwrap();
        match mob.nodes.into_iter().next().unwrap().value {
            Value::UnitStats(s) => *s,
            other => panic!("{other:?}"),
        }
    })
}

fn leaf() -> impl Strategy<Value = Node> {
    let n = |t: u32, v: Value| Node { type_id: t, value: v };
    prop_oneof![
        Just(n(0xC000, Value::Null)),
        any::<u8>().prop_map(move |v| n(0xB011, Value::Byte(v))),
        any::<u32>().prop_map(move |v| n(0xB002, Value::Dword(v))),
        f().prop_map(move |v| n(0xAA02, Value::Float(v))),
        text().prop_map(move |v| n(0xB004, Value::String(v))),
        proptest::collection::vec((proptest::option::of(any::<u32>()), text()), 0..4).prop_map(move |items| {
            let items =
                items.into_iter().map(|(t, text)| StringItem { type_id: t.filter(|&t| t != 0xB00D), text }).collect();
            n(0xB00D, Value::StringArray(items))
        }),
        [f(), f(), f()].prop_map(move |v| n(0xB009, Value::Plot(v))),
        [f(), f(), f(), f()].prop_map(move |v| n(0xB00A, Value::Quaternion(v))),
        any::<[u32; 4]>().prop_map(move |v| n(0x1E05, Value::Rectangle(v))),
        any::<[i32; 3]>().prop_map(move |v| n(0xBBAC_0006, Value::LeverStats(v))),
        unit_stats().prop_map(move |v| n(0xBBBB_0004, Value::UnitStats(Box::new(v)))),
        proptest::collection::vec(proptest::collection::vec(any::<u32>(), 32), 32)
            .prop_map(move |v| n(0xDDDD_DDD2, Value::Diplomacy(v))),
        proptest::collection::vec((f(), f(), f()), 0..4).prop_map(move |v| {
            n(0xBBAB_0003, Value::AreaArray(v.into_iter().map(|(x, y, r)| Area { x, y, r }).collect()))
        }),
        proptest::collection::vec([f(), f()], 0..4).prop_map(move |v| n(0xBBAB_0004, Value::Plot2DArray(v))),
        (any::<u32>(), text()).prop_map(move |(key, text)| n(0xACCE_ECCB, Value::Script(Script { key, text }))),
        proptest::collection::vec(any::<u8>(), 0..16).prop_map(move |b| n(0x3141_5926, Value::Hex(Hex(b)))),
        proptest::collection::vec(any::<u8>(), 0..16).prop_map(move |b| n(0x7777_0000, Value::Hex(Hex(b)))),
        // A record type whose payload cannot hold a node header stays hex.
        proptest::collection::vec(any::<u8>(), 1..8).prop_map(move |b| n(0xB001, Value::Hex(Hex(b)))),
    ]
}

fn tree() -> impl Strategy<Value = Vec<Node>> {
    let node = leaf().prop_recursive(4, 48, 6, |inner| {
        (prop_oneof![Just(0xA000u32), Just(0xB001), Just(0xBBBB_0000), Just(0)], proptest::collection::vec(inner, 0..6))
            .prop_map(|(t, c)| Node { type_id: t, value: Value::Record(c) })
    });
    proptest::collection::vec(node, 1..4)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn prop_random_trees_round_trip(nodes in tree()) {
        let mob = Mob { nodes };
        let bytes = write(&mob).unwrap();
        let back = parse(&bytes).unwrap();
        prop_assert_eq!(&back, &mob);
        let json = mob::FORMAT.to_json(&bytes).unwrap();
        let text = serde_json::to_string(&json).unwrap();
        let again = mob::FORMAT.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap();
        prop_assert_eq!(again, bytes);
    }
}

// =========================================================================================================
// Conversion and info

#[test]
fn convert_yields_the_document_and_the_script() {
    let assets =
        mob::FORMAT.convert(&relic::registry::ConvertInput::new(&fixture(), &ConvertOptions::default())).unwrap();
    assert_eq!(assets.len(), 2);
    let relic::asset::Asset::Document(doc) = &assets[0].asset else { panic!() };
    assert_eq!(doc.value, mob::FORMAT.to_json(&fixture()).unwrap());
    assert!(assets[0].name.is_none());
    let relic::asset::Asset::Text(t) = &assets[1].asset else { panic!() };
    assert_eq!((t.extension, t.text.as_str()), ("txt", "GlobalVars ( )"));
    // No script: the document alone.
    let plain = node(0xA000, &node(0xB002, &le32(&[1])));
    assert_eq!(
        mob::FORMAT.convert(&relic::registry::ConvertInput::new(&plain, &ConvertOptions::default())).unwrap().len(),
        1
    );
}

#[test]
fn convert_writes_json_and_txt_files() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("level.mob");
    std::fs::write(&input, writer_made()).unwrap();
    let out = dir.path().join("out");
    let report = relic::ops::convert(
        std::slice::from_ref(&input),
        &out,
        &relic::ops::ConvertRequest::default(),
        &relic::ops::Quiet,
    );
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let mut outputs: Vec<_> = report.outputs.iter().map(|o| PathBuf::from(&o.output)).collect();
    outputs.sort();
    assert_eq!(outputs, [out.join("level.mob/level.mob.json"), out.join("level.mob/level.mob.txt")]);
    assert_eq!(std::fs::read_to_string(out.join("level.mob/level.mob.txt")).unwrap(), "Привет ( )\n");
}

#[test]
fn info_counts_units_and_script() {
    let info = mob::FORMAT.info(&fixture()).unwrap();
    assert_eq!(info["units"], 1);
    assert_eq!(info["scripts"], 1);
    assert_eq!(info["script_key"], 1);
    assert_eq!(info["script_bytes"], 14);
    assert_eq!(info["top_level"][0]["type"], "0x0000A000");
    assert_eq!(info["top_level"][0]["name"], "OBJECTDBFILE");
    assert_eq!(info["top_level"][1]["name"], "AIGRAPH");
    assert_eq!(info["unknown_or_raw_nodes"], 6);
}

// =========================================================================================================
// Corpus

fn corpus(name: &str) -> Option<Vec<u8>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/evil-islands").join(name);
    match std::fs::read(&path) {
        Ok(b) => Some(b),
        Err(_) => {
            eprintln!("skipping: {} is missing", path.display());
            None
        }
    }
}

#[test]
fn corpus_base_village() {
    let Some(bytes) = corpus("base_village-lmp_.mob") else { return };
    let level = parse(&bytes).unwrap();
    assert_eq!(level.nodes.iter().map(|n| n.type_id).collect::<Vec<_>>(), [0xA000, 0x3141_5926]);
    let all = convert::walk(&level.nodes);
    assert_eq!(all.iter().filter(|n| n.type_id == 0xBBBB_0000).count(), 47);
    assert_eq!(all.iter().filter(|n| matches!(n.value, Value::UnitStats(_))).count(), 47);
    // Only AIGRAPH is raw: every other payload fits its type.
    let raw: Vec<u32> = all.iter().filter(|n| matches!(n.value, Value::Hex(_))).map(|n| n.type_id).collect();
    assert_eq!(raw, [0x3141_5926]);
    let scripts = convert::scripts(&level);
    assert_eq!(scripts.len(), 1);
    assert_eq!(scripts[0].key, 0x7DA7);
    assert!(
        scripts[0].text.text.starts_with("GlobalVars ("),
        "{}",
        scripts[0].text.text.chars().take(40).collect::<String>()
    );
    assert!(scripts[0].text.raw.is_none());
    assert_eq!(scripts[0].text.text.chars().count(), 40271);
    // MOB → JSON text → MOB is byte-identical.
    assert_eq!(json_round_trip(&bytes), bytes);
    let info = mob::FORMAT.info(&bytes).unwrap();
    assert_eq!((info["units"].as_u64(), info["script_bytes"].as_u64()), (Some(47), Some(40271)));
}

#[test]
fn corpus_edited_script() {
    let Some(bytes) = corpus("base_village-lmp_.mob") else { return };
    let mut json = mob::FORMAT.to_json(&bytes).unwrap();
    let script = &mut json["nodes"][0]["children"][1]["script"]["text"];
    let edited = format!("// правка\n{}", script.as_str().unwrap());
    *script = serde_json::json!(edited);
    let packed = mob::FORMAT.from_json(json, &Default::default()).unwrap();
    assert_eq!(packed.len(), bytes.len() + 10);
    let level = parse(&packed).unwrap();
    assert_eq!(convert::scripts(&level)[0].text.text, edited);
    assert_eq!(convert::scripts(&level)[0].key, 0x7DA7);
    // The root record grew by the same 10 bytes; AIGRAPH follows unchanged.
    assert_eq!(
        u32::from_le_bytes(packed[4..8].try_into().unwrap()),
        u32::from_le_bytes(bytes[4..8].try_into().unwrap()) + 10
    );
    assert_eq!(&packed[packed.len() - 155_664..], &bytes[bytes.len() - 155_664..]);
}

#[test]
fn a_script_edited_in_its_txt_packs_back_and_a_character_outside_cp1251_names_the_txt_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("level.mob");
    std::fs::write(&input, fixture()).unwrap();
    let out = dir.path().join("out");
    let report = relic::ops::convert(
        std::slice::from_ref(&input),
        &out,
        &relic::ops::ConvertRequest::default(),
        &relic::ops::Quiet,
    );
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let json = out.join("level.mob/level.mob.json");
    let txt = out.join("level.mob/level.mob.txt");
    assert_eq!(std::fs::read_to_string(&txt).unwrap(), "GlobalVars ( )");
    // The user's edit: a second line, in Russian.
    std::fs::write(&txt, "GlobalVars ( )\r\n// Привет").unwrap();
    let back = dir.path().join("level.new.mob");
    relic::ops::pack("ei-mob", &json, &back, &relic::ops::PackOptions::default()).unwrap();
    let bytes = std::fs::read(&back).unwrap();
    let edited = parse(&bytes).unwrap();
    assert_eq!(convert::scripts(&edited)[0].text.text, "GlobalVars ( )\r\n// Привет");
    // The script's bytes: the text in cp1251 (П 0xCF р 0xF0 и 0xE8 в 0xE2 е 0xE5 т 0xF2), enciphered with key 1.
    let mut plain = b"GlobalVars ( )\r\n// \xCF\xF0\xE8\xE2\xE5\xF2".to_vec();
    let stream = cipher::keystream(1, plain.len());
    plain.iter_mut().zip(stream).for_each(|(b, k)| *b ^= k);
    let mut expected_script = le32(&[1]);
    expected_script.extend(&plain);
    let new_node = node(0xACCE_ECCB, &expected_script);
    assert!(bytes.windows(new_node.len()).any(|w| w == new_node.as_slice()));
    // Everything else is identical: the original's node tree with only the script's text changed.
    fn set_scripts(nodes: &mut [Node], text: &str) -> usize {
        let mut n = 0;
        for node in nodes {
            match &mut node.value {
                Value::Script(s) => {
                    s.text = CpString::new(text);
                    n += 1;
                }
                Value::Record(c) => n += set_scripts(c, text),
                _ => {}
            }
        }
        n
    }
    let mut want = Mob::read(&fixture()).unwrap().to_document();
    assert_eq!(set_scripts(&mut want.nodes, "GlobalVars ( )\r\n// Привет"), 1);
    assert_eq!(Mob::read(&bytes).unwrap().to_document(), want);
    // A character cp1251 cannot hold: the error names the .txt, line and column.
    std::fs::write(&txt, "GlobalVars ( )\n// ★ star").unwrap();
    let err = relic::ops::pack("ei-mob", &json, &dir.path().join("bad.mob"), &relic::ops::PackOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&format!(
            "{}:2:4: the character '★' (U+2605) is not in cp1251, the code page of Evil Islands scripts",
            txt.display()
        )),
        "{err}"
    );
}
