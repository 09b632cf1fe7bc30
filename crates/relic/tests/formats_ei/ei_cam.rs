//! Evil Islands CAM files (`ei-cam`): reader, JSON in both time readings, writer.
//!
//! Layout (spec `evil-islands.txt`, section "Cam", with docs/formats/evil-islands.md#cam): no header; 36-byte records of
//! u32 unkn0 (the time, presumably; u32 or f32 is unsettled), u32 unkn1, position (3 × f32) and rotation
//! (4 × f32, w x y z), repeated to the end of the file. The fixtures are assembled byte by byte here.

use proptest::prelude::*;
use relic::asset::{Asset, NamedAsset};
use relic::codec::float::F32;
use relic::evil_islands::cam::{self, parse, write, Cam, Quat, Record, Vec3};
use relic::registry::ConvertOptions;
use relic::Error;

fn record_bytes(time: u32, unk: u32, floats: [f32; 7]) -> Vec<u8> {
    let mut out = time.to_le_bytes().to_vec();
    out.extend(unk.to_le_bytes());
    for f in floats {
        out.extend(f.to_le_bytes());
    }
    out
}

/// Two records: tick 0 and tick 1500 (u32 reading), step values 1 and 2, a position and a rotation each
/// (the identity, then 90° about z).
fn fixture() -> Vec<u8> {
    let mut out = record_bytes(0, 1, [10.0, 20.0, 5.5, 1.0, 0.0, 0.0, 0.0]);
    out.extend(record_bytes(1500, 2, [12.5, -20.0, 6.0, 0.70710677, 0.0, 0.0, 0.70710677]));
    assert_eq!(out.len(), 72);
    out
}

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3 { x: F32::new(x), y: F32::new(y), z: F32::new(z) }
}

fn q(w: f32, x: f32, y: f32, z: f32) -> Quat {
    Quat { w: F32::new(w), x: F32::new(x), y: F32::new(y), z: F32::new(z) }
}

#[test]
fn fixture_parses_to_exact_records() {
    let cam = parse(&fixture()).unwrap();
    assert_eq!(
        cam.records,
        vec![
            Record { time: 0, unk_0x04: 1, position: v3(10.0, 20.0, 5.5), rotation: q(1.0, 0.0, 0.0, 0.0) },
            Record {
                time: 1500,
                unk_0x04: 2,
                position: v3(12.5, -20.0, 6.0),
                rotation: q(0.70710677, 0.0, 0.0, 0.70710677)
            },
        ]
    );
}

#[test]
fn json_holds_the_u32_reading_and_packs_back() {
    let bytes = fixture();
    let value = cam::FORMAT.to_json(&bytes).unwrap();
    assert_eq!(value["format"], "ei-cam");
    assert_eq!(value["time_reading"], "u32");
    assert_eq!(value["records"][1]["time"], 1500);
    assert_eq!(value["records"][1]["unk_0x04"], 2);
    assert_eq!(value["records"][1]["position"], serde_json::json!({"x": 12.5, "y": -20.0, "z": 6.0}));
    assert_eq!(value["records"][0]["rotation"], serde_json::json!({"w": 1.0, "x": 0.0, "y": 0.0, "z": 0.0}));
    let text = serde_json::to_string_pretty(&value).unwrap();
    assert_eq!(cam::FORMAT.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap(), bytes);
}

fn converted(bytes: &[u8], opts: &ConvertOptions) -> relic::asset::Document {
    match cam::FORMAT.convert(&relic::registry::ConvertInput::new(bytes, opts)).unwrap().pop() {
        Some(NamedAsset { name: None, asset: Asset::Document(d) }) => d,
        other => panic!("expected a document, got {other:?}"),
    }
}

#[test]
fn the_time_option_reads_the_same_bits_as_f32() {
    // Time bits 0x3FC00000 are 1.5 as an f32.
    let bytes = record_bytes(0x3FC0_0000, 7, [1.0, 2.0, 3.0, 1.0, 0.0, 0.0, 0.0]);
    let default = converted(&bytes, &ConvertOptions::default());
    assert_eq!(default.value["time_reading"], "u32");
    assert_eq!(default.value["records"][0]["time"], 0x3FC0_0000u32);
    let opts = ConvertOptions { settings: vec![("ei-cam.time".into(), "f32".into())], ..Default::default() };
    let doc = converted(&bytes, &opts);
    assert_eq!(doc.value["time_reading"], "f32");
    assert_eq!(doc.value["records"][0]["time"], 1.5);
    assert_eq!(doc.tables[0].rows[0][0], "1.5");
    assert_eq!(doc.tables[0].columns[..3], ["time", "unk_0x04", "x"]);
    // Either document packs back to the same bytes.
    assert_eq!(cam::FORMAT.from_json(doc.value, &Default::default()).unwrap(), bytes);
    assert_eq!(cam::FORMAT.from_json(default.value, &Default::default()).unwrap(), bytes);
    // NaN bits survive the f32 reading.
    let nan = record_bytes(0x7FC0_0001, 0, [0.0; 7]);
    assert_eq!(cam::FORMAT.from_json(converted(&nan, &opts).value, &Default::default()).unwrap(), nan);
    let bad = ConvertOptions { settings: vec![("ei-cam.time".into(), "f64".into())], ..Default::default() };
    assert!(matches!(cam::FORMAT.convert(&relic::registry::ConvertInput::new(&bytes, &bad)), Err(Error::Refused(_))));
}

#[test]
fn info_counts_records() {
    let info = cam::FORMAT.info(&fixture()).unwrap();
    assert_eq!(info["records"], 2);
    assert_eq!(info["first_time_u32"], 0);
    assert_eq!(info["last_time_u32"], 1500);
    assert_eq!(info["time_u32_never_decreases"], true);
}

#[test]
fn partial_records_are_refused_where_they_start() {
    let bytes = fixture();
    let err = parse(&bytes[..71]).unwrap_err();
    let at = err.location().unwrap();
    assert_eq!((at.format, at.field.as_str(), at.offset), ("ei-cam", "records[1]", 36));
    assert!(err.to_string().contains("35 bytes"), "{err}");
    assert!(parse(&[]).unwrap().records.is_empty());
}

proptest! {
    #[test]
    fn any_whole_records_round_trip(words in proptest::collection::vec(any::<u32>(), 0..40)) {
        let n = words.len() / 9 * 9;
        let bytes: Vec<u8> = words[..n].iter().flat_map(|w| w.to_le_bytes()).collect();
        let cam: Cam = parse(&bytes).unwrap();
        prop_assert_eq!(write(&cam).unwrap(), bytes.clone());
        for reading in ["u32", "f32"] {
            let opts = ConvertOptions { settings: vec![("ei-cam.time".into(), reading.into())], ..Default::default() };
            let text = serde_json::to_string(&converted(&bytes, &opts).value).unwrap();
            prop_assert_eq!(cam::FORMAT.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap(), bytes.clone());
        }
    }
}
