//! Evil Islands ADB files (`ei-adb`): reader, lossless JSON, writer.
//!
//! Layout (spec `evil-islands.txt`, section "Adb"): magic `ADB\0`, u32 count, 24-byte cp1251 unit name,
//! min/mid/max height (f32), then per animation: 16-byte cp1251 name, u32 number, u64 packed
//! (weapons = packed & 127, allowed_states = (packed >> 15) & 7, action_type = (packed >> 18) & 15,
//! action_modifyer = (packed >> 22) & 255, animation_stage = (packed >> 30) & 3,
//! action_forms = (packed >> 36) & 63), u32 probability, u32 length, f32 speed, 12 × u32. The fixtures
//! are assembled byte by byte here.

use proptest::prelude::*;
use relic::asset::{Asset, NamedAsset};
use relic::codec::float::F32;
use relic::evil_islands::adb::{self, parse, write, Additionals, Hex64};
use relic::registry::{sniff, Confidence, ConvertOptions};
use relic::testing::check_robustness;
use relic::Error;

/// cp1251 `Атака`.
const ATAKA: &[u8] = &[0xC0, 0xF2, 0xE0, 0xEA, 0xE0];

/// The first animation's packed u64: every named field set, plus bits 10, 33 and 63 outside them.
const PACKED: u64 = 5 | (2 << 15) | (2 << 18) | (200 << 22) | (1 << 30) | (6 << 36) | (1 << 10) | (1 << 33) | (1 << 63);

fn fixed(text: &[u8], size: usize, junk: &[u8]) -> Vec<u8> {
    let mut out = text.to_vec();
    out.push(0);
    out.extend(junk);
    out.resize(size, 0);
    out
}

#[allow(clippy::too_many_arguments)]
fn animation(name: Vec<u8>, number: u32, packed: u64, prob: u32, len: u32, speed: f32, frames: [u32; 12]) -> Vec<u8> {
    assert_eq!(name.len(), 16);
    let mut out = name;
    out.extend(number.to_le_bytes());
    out.extend(packed.to_le_bytes());
    out.extend(prob.to_le_bytes());
    out.extend(len.to_le_bytes());
    out.extend(speed.to_le_bytes());
    for f in frames {
        out.extend(f.to_le_bytes());
    }
    assert_eq!(out.len(), 88);
    out
}

/// Unit `unhufe` (with junk `01 6A` after its NUL), heights 0.5 / 1.0 / 1.8, two animations: `attack1`
/// (packed as [`PACKED`]) and `Атака` (a 16-byte name with junk after the NUL, packed 0), then 3 trailing
/// bytes.
fn fixture() -> Vec<u8> {
    let mut out = b"ADB\0".to_vec();
    out.extend(2u32.to_le_bytes());
    out.extend(fixed(b"unhufe", 24, &[0x01, 0x6A]));
    for h in [0.5f32, 1.0, 1.8] {
        out.extend(h.to_le_bytes());
    }
    assert_eq!(out.len(), 44);
    out.extend(animation(fixed(b"attack1", 16, &[]), 0, PACKED, 50, 30, 0.25, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]));
    out.extend(animation(fixed(ATAKA, 16, b"xyz"), 1, 0, 100, 60, 0.0, [u32::MAX; 12]));
    out.extend([0xDE, 0xAD, 0x00]);
    assert_eq!(out.len(), 44 + 176 + 3);
    out
}

#[test]
fn packed_constant_is_what_the_spec_expressions_give() {
    assert_eq!(PACKED, 0x8000_0062_7209_0405);
    let a = Additionals::unpack(PACKED);
    // The spec's instances, written out again.
    assert_eq!(u64::from(a.weapons), PACKED & 127);
    assert_eq!(u64::from(a.allowed_states), (PACKED >> 15) & 7);
    assert_eq!(u64::from(a.action_type), (PACKED >> 18) & 15);
    assert_eq!(u64::from(a.action_modifyer), (PACKED >> 22) & 255);
    assert_eq!(u64::from(a.animation_stage), (PACKED >> 30) & 3);
    assert_eq!(u64::from(a.action_forms), (PACKED >> 36) & 63);
    assert_eq!(a.other_bits, Hex64(0x8000_0002_0000_0400));
    assert_eq!(a.pack().unwrap(), PACKED);
}

#[test]
fn fixture_parses_to_exact_values() {
    let adb = parse(&fixture()).unwrap();
    assert_eq!(adb.unit_name, "unhufe");
    assert_eq!(adb.unit_name_tail.as_ref().unwrap().0, [&[0u8, 0x01, 0x6A][..], &[0; 15]].concat());
    assert_eq!((adb.min_height, adb.mid_height, adb.max_height), (F32::new(0.5), F32::new(1.0), F32::new(1.8)));
    assert_eq!(adb.animations.len(), 2);
    let a = &adb.animations[0];
    assert_eq!((a.name.as_str(), a.name_tail.is_none(), a.number), ("attack1", true, 0));
    assert_eq!(
        a.additionals,
        Additionals {
            weapons: 5,
            allowed_states: 2,
            action_type: 2,
            action_modifyer: 200,
            animation_stage: 1,
            action_forms: 6,
            other_bits: Hex64(0x8000_0002_0000_0400),
        }
    );
    assert_eq!((a.action_probability, a.animation_length, a.movement_speed), (50, 30, F32::new(0.25)));
    assert_eq!(a.frames(), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    assert_eq!((a.start_show_hide1, a.start_hit_frame, a.spec_sound_id4), (1, 7, 12));
    let b = &adb.animations[1];
    assert_eq!(b.name, "Атака");
    assert_eq!(b.name_tail.as_ref().unwrap().0, [&b"\0xyz"[..], &[0; 7]].concat());
    assert_eq!(b.additionals, Additionals::default());
    assert_eq!(adb.trailing.as_ref().unwrap().0, [0xDE, 0xAD, 0x00]);
}

#[test]
fn json_names_the_fields_and_packs_back() {
    let bytes = fixture();
    let value = adb::FORMAT.to_json(&bytes).unwrap();
    assert_eq!(value["format"], "ei-adb");
    assert_eq!(value["unit_name"], "unhufe");
    assert_eq!(value["max_height"], 1.8);
    let add = &value["animations"][0]["additionals"];
    assert_eq!(add["weapons"], 5);
    assert_eq!(add["action_modifyer"], 200);
    assert_eq!(add["other_bits"], "0x8000000200000400");
    assert_eq!(value["animations"][1]["name"], "Атака");
    assert_eq!(value["trailing"], "3q0A");
    let text = serde_json::to_string_pretty(&value).unwrap();
    assert_eq!(adb::FORMAT.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap(), bytes);
}

#[test]
fn edits_are_written_and_checked() {
    let mut value = adb::FORMAT.to_json(&fixture()).unwrap();
    value["animations"][0]["additionals"]["action_type"] = 15.into();
    value["animations"][0]["name"] = "run".into();
    let bytes = adb::FORMAT.from_json(value.clone(), &Default::default()).unwrap();
    let adb = parse(&bytes).unwrap();
    assert_eq!(adb.animations[0].additionals.action_type, 15);
    assert_eq!(adb.animations[0].name, "run");
    for (path, bad, needle) in [
        (("additionals", "action_type"), serde_json::json!(16), "does not fit its 4 bits"),
        (("additionals", "other_bits"), serde_json::json!("0x1"), "sets bits of the named fields"),
    ] {
        let mut v = value.clone();
        v["animations"][0][path.0][path.1] = bad;
        let err = adb::FORMAT.from_json(v, &Default::default()).unwrap_err();
        assert!(err.to_string().contains(needle), "{err}");
    }
    let mut v = value.clone();
    v["animations"][0]["name"] = "a name too long!!".into();
    assert!(adb::FORMAT.from_json(v, &Default::default()).unwrap_err().to_string().contains("holds 16"));
    let mut v = value;
    v["animations"][1]["name"] = "Атака2".into(); // the kept tail no longer fits after a longer name
    assert!(adb::FORMAT.from_json(v, &Default::default()).unwrap_err().to_string().contains("name_tail"));
}

#[test]
fn convert_gives_a_document_with_a_table() {
    let assets =
        adb::FORMAT.convert(&relic::registry::ConvertInput::new(&fixture(), &ConvertOptions::default())).unwrap();
    let [NamedAsset { name: None, asset: Asset::Document(doc) }] = &assets[..] else { panic!("{assets:?}") };
    assert_eq!(doc.value, adb::FORMAT.to_json(&fixture()).unwrap());
    let t = &doc.tables[0];
    assert_eq!(
        t.columns[..8],
        [
            "name",
            "number",
            "weapons",
            "allowed_states",
            "action_type",
            "action_modifyer",
            "animation_stage",
            "action_forms"
        ]
    );
    assert_eq!(t.rows[0][..9], ["attack1", "0", "5", "2", "2", "200", "1", "6", "0x8000000200000400"]);
    assert_eq!(t.rows.len(), 2);
}

#[test]
fn info_and_sniffing() {
    let info = adb::FORMAT.info(&fixture()).unwrap();
    assert_eq!(info["animations"], 2);
    assert_eq!(info["unit_name"], "unhufe");
    assert_eq!(info["trailing_bytes"], 3);
    let (f, c) = sniff(&fixture(), "x.bin").unwrap();
    assert_eq!((f.id, c), ("ei-adb", Confidence::Magic));
}

fn located(err: &Error, field: &str) -> u64 {
    let at = err.location().unwrap_or_else(|| panic!("no location: {err}"));
    assert_eq!((at.format, at.field.as_str()), ("ei-adb", field), "{err}");
    at.offset
}

#[test]
fn errors_are_located() {
    let mut bytes = fixture();
    bytes[3] = b'!';
    assert_eq!(located(&parse(&bytes).unwrap_err(), "magic"), 0);
    let mut bytes = fixture();
    bytes[4..8].copy_from_slice(&3u32.to_le_bytes());
    let err = parse(&bytes).unwrap_err();
    assert_eq!(located(&err, "animations_count"), 4);
    assert!(matches!(err, Error::Limit { .. }));
    assert_eq!(located(&parse(&fixture()[..40]).unwrap_err(), "max_height"), 40);
}

#[test]
fn robustness() {
    // Cutting the trailing bytes leaves a valid file; cutting into a record does not.
    let r = check_robustness(&fixture(), false, |b| parse(b).map(|_| ()));
    assert_eq!(r.truncations_rejected, 220);
    let written = write(&parse(&fixture()).unwrap()).unwrap();
    assert_eq!(written, fixture());
    let no_tail = &fixture()[..220];
    check_robustness(no_tail, true, |b| {
        let adb = parse(b)?;
        assert_eq!(write(&adb).unwrap(), b);
        Ok::<(), Error>(())
    });
}

proptest! {
    /// Any bytes after a valid header and count parse and write back exactly.
    #[test]
    fn any_records_round_trip(body in proptest::collection::vec(any::<u8>(), 40..400)) {
        let count = ((body.len() - 40) / 88) as u32;
        let mut bytes = b"ADB\0".to_vec();
        bytes.extend(count.to_le_bytes());
        bytes.extend(&body);
        let adb = parse(&bytes).unwrap();
        prop_assert_eq!(adb.animations.len(), count as usize);
        let text = serde_json::to_string(&adb::FORMAT.to_json(&bytes).unwrap()).unwrap();
        prop_assert_eq!(adb::FORMAT.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap(), bytes);
    }
}
