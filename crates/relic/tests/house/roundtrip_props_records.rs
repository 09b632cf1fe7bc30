//! Round-trip properties for the Drakan and Dark Reign formats (the other writable formats are in
//! `roundtrip_props.rs`): generated files and documents are written, read back to the same values, and go
//! through the JSON of `relic convert --to json` and `relic pack` byte for byte.

use proptest::prelude::*;

use relic::bytes::Base64;
use relic::dark_reign::{ftg, ftg_spr, pal};
use relic::drakan::records::strings;
use relic::drakan::srsc;
use relic::reader::Reader;

const CASES: u32 = 64;

/// Through the codec's JSON, as a value and as text, the bytes come back.
fn json_round_trip(format: &'static relic::Format, name: &str, bytes: &[u8]) -> Result<(), TestCaseError> {
    let codec = format.for_name(name);
    let value = codec.to_json(bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let text = serde_json::to_string(&value).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let back = codec.from_json(value, &Default::default()).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert!(back == bytes, "{}: JSON value round trip differs", format.id);
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let back = codec.from_json(value, &Default::default()).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert!(back == bytes, "{}: JSON text round trip differs", format.id);
    Ok(())
}

/// Text a Windows-1252 string record can hold (no NUL).
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![Just('é'), Just('€'), Just('\n'), Just('ß'), (0x20u8..0x7F).prop_map(char::from)],
        0..40,
    )
    .prop_map(|c| c.into_iter().collect())
}

/// One SRSC record: a type among strings, groups, known and unknown bodies; any id and group; a body.
fn record() -> impl Strategy<Value = srsc::NewRecord> {
    let body = proptest::collection::vec(any::<u8>(), 0..64);
    (
        prop_oneof![
            Just(0x0040u16),
            Just(0x0101),
            Just(0x0302),
            Just(0x0400),
            Just(0x0401),
            Just(0x0402),
            any::<u16>()
        ],
        any::<u16>(),
        0u16..4,
        body,
        text(),
    )
        .prop_map(|(record_type, id, group, body, text)| {
            let body = match record_type {
                strings::ENCIPHERED | strings::PLAIN => strings::text_body(record_type, &text).unwrap_or(body),
                _ => body,
            };
            srsc::NewRecord { record_type, id, group, body }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn srsc_files_read_back_and_round_trip(records in proptest::collection::vec(record(), 0..12), version in prop_oneof![Just(0x0100u16), Just(0x0101)]) {
        let bytes = srsc::write_packed(version, &records).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let file = srsc::parse(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(file.header.version, version);
        prop_assert_eq!(file.entries.len(), records.len());
        for (i, r) in records.iter().enumerate() {
            let e = file.entries[i];
            prop_assert_eq!((e.record_type, e.id, e.group), (r.record_type, r.id, r.group));
            prop_assert_eq!(file.body(i), r.body.as_slice());
        }
        json_round_trip(&srsc::FORMAT, "x.txd", &bytes)?;
        // The strings read as text and apply back unchanged.
        let mut doc = srsc::convert::to_document(&file);
        let map = srsc::convert::strings_map(&doc);
        srsc::convert::apply_strings(&mut doc, &map).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(srsc::write_document(&doc).map_err(|e| TestCaseError::fail(e.to_string()))? == bytes);
    }

    #[test]
    fn string_records_give_their_text_back(t in text(), enciphered in any::<bool>()) {
        let record_type = if enciphered { strings::ENCIPHERED } else { strings::PLAIN };
        let body = strings::text_body(record_type, &t).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(strings::read_body(record_type, &body), strings::StringBody::Text { text: t, exact: true });
    }

    #[test]
    fn database_definitions_read_back(version in "[0-9]\\.[0-9]{1,2}", deps in proptest::collection::vec((1u16..40, "[A-Za-z0-9_]{1,8}(\\\\[A-Za-z0-9_]{1,8}){0,2}"), 0..5)) {
        let mut text = format!("version {version}\r\ndependencies {}\r\n", deps.len());
        for (index, path) in &deps {
            text.push_str(&format!("{index} {path}\r\n"));
        }
        let db = relic::drakan::db::parse(text.as_bytes()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(db.version.as_deref(), Some(version.as_str()));
        prop_assert_eq!(db.dependencies.len(), deps.len());
        for (d, (index, path)) in db.dependencies.iter().zip(&deps) {
            prop_assert_eq!((d.index, d.path.as_str()), (Some(*index), path.as_str()));
        }
        json_round_trip(&relic::drakan::db::FORMAT, "x.db", text.as_bytes())?;
    }

    #[test]
    fn ftg_archives_read_back(entries in proptest::collection::vec(("[A-Z0-9_]{1,8}\\.(SPR|WAV|PAL|spr)", proptest::collection::vec(any::<u8>(), 0..48)), 0..10)) {
        let new: Vec<ftg::NewEntry> = entries.iter().map(|(name, data)| ftg::NewEntry { name: name.clone(), data: data.clone() }).collect();
        let bytes = ftg::write_new(&new).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let archive = ftg::parse(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(archive.entries.len(), entries.len());
        for (i, (name, data)) in entries.iter().enumerate() {
            prop_assert_eq!(&archive.entries[i].name, name);
            prop_assert_eq!(archive.data(i), data.as_slice());
            // The first entry of a name (any case) is the one found.
            let first = entries.iter().position(|(n, _)| n.eq_ignore_ascii_case(name));
            prop_assert_eq!(archive.find(name), first);
        }
        json_round_trip(&ftg::FORMAT, "x.ftg", &bytes)?;
    }

    #[test]
    fn pals_palettes_read_back(planes in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 256), 6), tables in proptest::collection::vec(any::<u8>(), 0..600), version in any::<u32>()) {
        let p = pal::Pals { version, planes: planes.into_iter().map(Base64).collect(), tables: Base64(tables) };
        let bytes = pal::write(&p).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&pal::parse(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?, &p);
        json_round_trip(&pal::FORMAT, "x.pal", &bytes)?;
    }

    #[test]
    fn sprite_runs_decode_to_the_pixels_encoded(width in 1usize..300, height in 1usize..4, seed in any::<u64>(), shadow in any::<bool>()) {
        // Runs of every length, long ones included, from a seeded generator.
        let mut x = seed | 1;
        let mut pixels = Vec::with_capacity(width * height);
        while pixels.len() < width * height {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            let run = (x % 200) as usize + 1;
            let value = if x % 3 == 0 { 0 } else if shadow { 1 } else { ((x >> 8) % 255) as u8 + 1 };
            pixels.extend(std::iter::repeat_n(value, run));
        }
        pixels.truncate(width * height);
        let encoded = relic::dark_reign::spr::rle::encode(&pixels, width, shadow);
        let mut r = Reader::new("dr-spr", &encoded);
        let decoded = relic::dark_reign::spr::rle::decode(&mut r, width, height, shadow).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(decoded.pixels, pixels);
        prop_assert_eq!(r.remaining(), 0);
    }

    #[test]
    fn headerless_ftg_sprites_read_back(frames in proptest::collection::vec((0u16..12, 0u16..12, any::<i16>(), any::<i16>()), 0..5), max_w in any::<u16>(), max_h in any::<u16>()) {
        let doc = ftg_spr::types::FtgSprDocument {
            format: "dr-ftg-spr".into(),
            max_width: max_w,
            max_height: max_h,
            reserved: 0,
            frames: frames
                .iter()
                .map(|&(w, h, ox, oy)| ftg_spr::types::FtgFrame {
                    width: w,
                    height: h,
                    offset_x: ox,
                    offset_y: oy,
                    pixels: Some(Base64((0..u32::from(w) * u32::from(h)).map(|i| (i * 7 % 256) as u8).collect())),
                })
                .collect(),
            trailing: None,
        };
        let bytes = ftg_spr::write_document(&doc).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back = ftg_spr::parse(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back.frames, &doc.frames);
        prop_assert_eq!(ftg_spr::write_document(&back).map_err(|e| TestCaseError::fail(e.to_string()))?, bytes);
    }
}
