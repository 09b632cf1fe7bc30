//! Drakan SRSC containers, proven on files built by hand from the spec's tables ("Basic SRSC format",
//! "String decryption", docs/formats/drakan.md#srsc-directory), independent of relic's writer: directory and group paths, the
//! string cipher, the lossless document, extraction with `directory.json` and packing back, translators'
//! strings, Music.rrc's RIFF blobs, later Riot layouts (aligned bodies, directory out of order), and
//! robustness.

use crate::srsc_fixtures;

use relic::drakan::srsc::{self, convert};
use relic::ops::{self, ConvertRequest, ExtractOptions, PackOptions, Quiet};
use srsc_fixtures::{packed, string};

/// The spec's cipher, written again here from the spec's C code so the test does not lean on relic's.
fn spec_cipher(bytes: &[u8]) -> Vec<u8> {
    let mut key: u32 = 0x5FDD390D;
    bytes
        .iter()
        .map(|b| {
            let out = b ^ (key & 0xFF) as u8;
            #[allow(clippy::manual_rotate)] // as the spec's C code writes it
            {
                key = (key << 3) | (key >> (32 - 3));
            }
            out
        })
        .collect()
}

fn class_body(name: &str) -> Vec<u8> {
    let mut b = string(name);
    b.extend([2, 0, 0, 0, 0, 0, 7, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // group, model ref, rfl id, icon, counts
    b
}

/// A resource file: groups (Monsters ⊃ Flying), a class in the subgroup, strings (enciphered and plain), a
/// DirectMusic segment, the version record.
fn fixture() -> Vec<u8> {
    let hello = spec_cipher(b"Hello, Arokh\0");
    let riff = b"RIFF\x0c\0\0\0DMSGsegh\0\0\0\0".to_vec();
    packed(&[
        (0x0101, 1, 0, &string("Monsters")),
        (0x0101, 2, 1, &string("Flying")),
        (0x0102, 3, 2, &class_body("Wartok")),
        (0x0400, 10, 0, &hello),
        (0x0401, 11, 0, b"Credits\0"),
        (0x0401, 0x20, 0, &riff),
        (0x0402, 0, 0, &[0x02, 0x01, 0, 0]),
    ])
}

#[test]
fn reads_the_directory_and_resolves_group_paths() {
    let bytes = fixture();
    let file = srsc::parse(&bytes).unwrap();
    assert_eq!(file.header.version, 0x0100);
    assert_eq!(file.entries.len(), 7);
    assert_eq!((file.entries[2].record_type, file.entries[2].id, file.entries[2].group), (0x0102, 3, 2));
    assert_eq!(file.body(4), b"Credits\0");
    let entries = convert::entries(&file);
    let paths: Vec<&str> = entries.iter().map(|e| &*e.path).collect();
    assert_eq!(
        paths,
        [
            "0101_1_Monsters.bin",
            "Monsters/0101_2_Flying.bin",
            "Monsters/Flying/0102_3_Wartok.bin",
            "0400_10.bin",
            "0401_11.bin",
            "0401_32.bin",
            "0402_0.bin",
        ]
    );
    let class = entries[2].record.as_ref().unwrap();
    assert_eq!((class.record_type.as_str(), class.type_name, class.id), ("0x0102", Some("class"), 3));
    assert_eq!(class.group, "Monsters/Flying");
    let info = srsc::FORMAT.info(&bytes).unwrap();
    assert_eq!(info["records"], 7);
    assert_eq!(info["groups"], 2);
    assert_eq!(info["record_types"]["0x0401 string"], 2);
}

#[test]
fn the_document_shows_strings_as_text_and_writes_back_byte_for_byte() {
    let bytes = fixture();
    let codec = &srsc::FORMAT;
    let value = codec.to_json(&bytes).unwrap();
    let records = value["records"].as_array().unwrap();
    assert_eq!(records[3]["type"], "0x0400");
    assert_eq!(records[3]["text"], "Hello, Arokh");
    assert!(records[3].get("data").is_none(), "text alone gives the bytes back");
    assert_eq!(records[4]["text"], "Credits");
    assert!(records[5].get("text").is_none(), "a RIFF blob is no text");
    assert_eq!(codec.from_json(value.clone(), &Default::default()).unwrap(), bytes);
    // Through the JSON text too, as `convert --to json` and `pack` do it.
    let text = serde_json::to_string_pretty(&value).unwrap();
    assert_eq!(codec.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap(), bytes);
}

#[test]
fn an_edited_string_is_enciphered_again_and_everything_else_kept() {
    let bytes = fixture();
    let mut doc = convert::to_document(&srsc::parse(&bytes).unwrap());
    let mut strings = convert::strings_map(&doc);
    assert_eq!(strings.get("10").map(String::as_str), Some("Hello, Arokh"));
    assert_eq!(strings.get("11").map(String::as_str), Some("Credits"));
    strings.insert("10".into(), "Bonjour, Arokh — à bientôt".into());
    assert_eq!(convert::apply_strings(&mut doc, &strings).unwrap(), 1);
    let written = srsc::write_document(&doc).unwrap();
    let file = srsc::parse(&written).unwrap();
    assert_eq!(file.entries.len(), 7);
    let mut expected = encoding_rs::WINDOWS_1252.encode("Bonjour, Arokh — à bientôt").0.into_owned();
    expected.push(0);
    assert_eq!(file.body(3), spec_cipher(&expected).as_slice());
    // Every other record keeps its type, id, group and body.
    let before = srsc::parse(&bytes).unwrap();
    for i in [0, 1, 2, 4, 5, 6] {
        let (a, b) = (before.entries[i], file.entries[i]);
        assert_eq!((a.record_type, a.id, a.group), (b.record_type, b.id, b.group));
        assert_eq!(before.body(i), file.body(i));
    }
    // A key that names no string is refused rather than lost.
    strings.insert("999".into(), "typo".into());
    assert!(convert::apply_strings(&mut doc, &strings).is_err());
}

/// Later Riot games: bodies aligned with zero padding, the first body at 32, the directory out of body
/// order, group ids without definitions (docs/formats/drakan.md#srsc-later-riot).
fn aligned_fixture() -> Vec<u8> {
    let mut out = b"SRSC".to_vec();
    out.extend(0x0101u16.to_le_bytes());
    out.extend(0u32.to_le_bytes()); // directory offset, patched below
    out.extend(3u16.to_le_bytes());
    out.resize(32, 0);
    let bodies: [(u16, u16, u16, &[u8]); 3] =
        [(0x0302, 5, 7, b"sound body"), (0x0040, 9, 0, b"texture"), (0x0400, 2, 0, b"\x01\x00\xAB")];
    let mut offsets = Vec::new();
    for (_, _, _, body) in &bodies {
        offsets.push(out.len() as u32);
        out.extend(*body);
        out.resize(out.len().div_ceil(16) * 16, 0);
    }
    let dir = out.len() as u32;
    out[6..10].copy_from_slice(&dir.to_le_bytes());
    // Directory in another order than the bodies.
    for i in [2usize, 0, 1] {
        let (t, id, g, body) = bodies[i];
        out.extend(t.to_le_bytes());
        out.extend(id.to_le_bytes());
        out.extend(g.to_le_bytes());
        out.extend(offsets[i].to_le_bytes());
        out.extend((body.len() as u32).to_le_bytes());
    }
    out
}

#[test]
fn later_riot_layouts_list_and_write_back_exactly() {
    let bytes = aligned_fixture();
    let file = srsc::parse(&bytes).unwrap();
    assert_eq!(file.header.version, 0x0101);
    assert_eq!(file.body(1), b"sound body");
    let entries = convert::entries(&file);
    assert_eq!(entries[1].path, "group_7/0302_5.bin", "a group without definition");
    let codec = &srsc::FORMAT;
    assert_eq!(codec.from_json(codec.to_json(&bytes).unwrap(), &Default::default()).unwrap(), bytes);
}

#[test]
fn extract_then_pack_gives_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [("Dragon.rrc", fixture()), ("later.txd", aligned_fixture())] {
        let input = dir.path().join(name);
        std::fs::write(&input, &bytes).unwrap();
        let out = dir.path().join(format!("{name}.x"));
        let report = ops::extract(&input, &out, &ExtractOptions::default(), &Quiet).unwrap();
        assert!(report.failures.is_empty(), "{:?}", report.failures);
        assert!(out.join("directory.json").exists());
        let back = dir.path().join(format!("back_{name}"));
        ops::pack("drakan-srsc", &out, &back, &PackOptions::default()).unwrap();
        let rebuilt = std::fs::read(&back).unwrap();
        let (a, b) = (srsc::parse(&bytes).unwrap(), srsc::parse(&rebuilt).unwrap());
        // Every record keeps type, id, group, order and body.
        assert_eq!(a.entries.len(), b.entries.len());
        for i in 0..a.entries.len() {
            let (x, y) = (a.entries[i], b.entries[i]);
            assert_eq!((x.record_type, x.id, x.group), (y.record_type, y.id, y.group));
            assert_eq!(a.body(i), b.body(i));
        }
        if name == "Dragon.rrc" {
            assert_eq!(rebuilt, bytes, "Drakan's packed layout comes back byte for byte");
        }
    }
    // Without directory.json, the names and group folders say it all.
    let out = dir.path().join("Dragon.rrc.x");
    std::fs::remove_file(out.join("directory.json")).unwrap();
    let back = dir.path().join("from_names.rrc");
    ops::pack("drakan-srsc", &out, &back, &PackOptions::default()).unwrap();
    let (original, rebuilt) = (fixture(), std::fs::read(&back).unwrap());
    let (a, b) = (srsc::parse(&original).unwrap(), srsc::parse(&rebuilt).unwrap());
    let key = |s: &srsc::Srsc<'_>| {
        let mut v: Vec<_> = (0..s.entries.len())
            .map(|i| (s.entries[i].record_type, s.entries[i].id, s.entries[i].group, s.body(i).to_vec()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(key(&a), key(&b));
}

#[test]
fn convert_writes_strings_and_music_and_packs_back_from_edited_strings() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("Dragon.rrc");
    std::fs::write(&input, fixture()).unwrap();
    let out = dir.path().join("out");
    let report = ops::convert(std::slice::from_ref(&input), &out, &ConvertRequest::default(), &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    // The outputs, found through the report (whatever the folder is called).
    let output = |name: &str| {
        let found = report.outputs.iter().find(|o| std::path::Path::new(&o.output).ends_with(name));
        std::path::PathBuf::from(&found.unwrap_or_else(|| panic!("no {name} in {:?}", report.outputs)).output)
    };
    let strings_json = output("strings.json");
    let root = strings_json.parent().unwrap().to_path_buf();
    let document = output("Dragon.rrc.json");
    assert_eq!(document.parent(), Some(root.as_path()));
    let strings: serde_json::Value = serde_json::from_slice(&std::fs::read(&strings_json).unwrap()).unwrap();
    assert_eq!(strings, serde_json::json!({"10": "Hello, Arokh", "11": "Credits"}));
    assert_eq!(std::fs::read(root.join("music_32.sgt")).unwrap(), b"RIFF\x0c\0\0\0DMSGsegh\0\0\0\0");
    // The translator edits strings.json; pack takes the document beside it.
    std::fs::write(&strings_json, r#"{"10": "Hallo, Arokh", "11": "Credits"}"#).unwrap();
    let back = dir.path().join("Dragon.new.rrc");
    let report = ops::pack("drakan-srsc", &strings_json, &back, &PackOptions::default()).unwrap();
    assert!(report.notes.iter().any(|n| n.contains("1 changed")), "{:?}", report.notes);
    let bytes = std::fs::read(&back).unwrap();
    let file = srsc::parse(&bytes).unwrap();
    assert_eq!(file.body(3), spec_cipher(b"Hallo, Arokh\0").as_slice());
    // Packing the document picks the strings up from beside it, too.
    let again = dir.path().join("Dragon.again.rrc");
    ops::pack("drakan-srsc", &document, &again, &PackOptions::default()).unwrap();
    assert_eq!(std::fs::read(&again).unwrap(), bytes);
}

#[test]
fn truncations_and_flips_never_panic() {
    for bytes in [fixture(), aligned_fixture()] {
        let report = relic::testing::check_robustness(&bytes, true, |b| srsc::parse(b).map(|_| ()));
        assert_eq!(report.truncations, bytes.len());
        let codec = &srsc::FORMAT;
        relic::testing::check_robustness(&bytes, false, |b| {
            let value = codec.to_json(b)?;
            let written = codec.from_json(value, &Default::default())?;
            assert_eq!(written, b, "a file that reads writes back exactly");
            codec.convert(&relic::registry::ConvertInput::new(b, &Default::default())).map(|_| ())
        });
    }
}

#[test]
fn damaged_files_name_the_field_and_offset() {
    let mut bytes = fixture();
    let dir_at = u32::from_le_bytes(bytes[6..10].try_into().unwrap()) as usize;
    // The third entry's body size points past the end.
    bytes[dir_at + 2 * 14 + 10..dir_at + 2 * 14 + 14].copy_from_slice(&0xFFFFu32.to_le_bytes());
    let err = srsc::parse(&bytes).unwrap_err();
    let at = err.location().unwrap();
    assert_eq!(at.format, "drakan-srsc");
    assert!(at.field.contains("directory[2]"), "{err}");
    assert_eq!(at.offset, (dir_at + 2 * 14 + 6) as u64);
    let err = srsc::parse(b"SRSX\0\x01\0\0\0\0\0\0").unwrap_err();
    assert_eq!(err.location().unwrap().field, "magic");
}

#[test]
fn records_of_later_layouts_that_do_not_decode_are_failures_named_with_the_version() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("later.tdu");
    std::fs::write(&input, aligned_fixture()).unwrap();
    let out = dir.path().join("out");
    let report = ops::convert(std::slice::from_ref(&input), &out, &ConvertRequest::default(), &Quiet);
    // The sound's and the texture's bodies are not Drakan's layouts: one failure line each, naming the
    // record, its offset and the file's version; the rest is still written (document, records.json).
    assert_eq!(report.failures.len(), 2, "{:?}", report.failures);
    assert!(report.failures[0].contains("record 0x0302 (sound) id 5 at offset 0x20: "), "{:?}", report.failures);
    assert!(report.failures[1].contains("record 0x0040 (texture) id 9 at offset 0x30: "), "{:?}", report.failures);
    for f in &report.failures {
        assert!(f.contains("later.tdu") && f.contains("SRSC version 0x0101"), "{f}");
    }
    let records = report.outputs.iter().find(|o| o.output.ends_with("records.json")).unwrap();
    let listing: serde_json::Value = serde_json::from_slice(&std::fs::read(&records.output).unwrap()).unwrap();
    let errors: Vec<&str> = listing.as_array().unwrap().iter().filter_map(|r| r["error"].as_str()).collect();
    assert_eq!(errors.len(), 2, "{listing}");
    // Packed back from its document, the file is the same bytes.
    let doc = report.outputs.iter().find(|o| o.output.ends_with("later.tdu.json")).unwrap();
    let back = dir.path().join("back.tdu");
    ops::pack("drakan-srsc", std::path::Path::new(&doc.output), &back, &PackOptions::default()).unwrap();
    assert_eq!(std::fs::read(&back).unwrap(), aligned_fixture());
}

/// A Russian release: strings in Windows-1251, built by hand (each letter's cp1251 byte from the code
/// page's table), enciphered with the spec's cipher.
fn russian_fixture() -> Vec<u8> {
    // "Начать" = Н 0xCD, а 0xE0, ч 0xF7, а 0xE0, т 0xF2, ь 0xFC; "Выход" = В 0xC2, ы 0xFB, х 0xF5, о 0xEE, д 0xE4.
    let start = spec_cipher(b"\xCD\xE0\xF7\xE0\xF2\xFC\0");
    packed(&[(0x0400, 10, 0, &start), (0x0401, 11, 0, b"\xC2\xFB\xF5\xEE\xE4\0"), (0x0402, 0, 0, &[0x02, 0x01, 0, 0])])
}

#[test]
fn a_russian_translation_converts_in_its_code_page_and_packs_back_only_the_edit() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("Menu.rrc");
    let original = russian_fixture();
    std::fs::write(&input, &original).unwrap();
    let out = dir.path().join("out");
    let mut request = ConvertRequest::default();
    request.options.settings = vec![("drakan-strings.code-page".into(), "windows-1251".into())];
    let report = ops::convert(std::slice::from_ref(&input), &out, &request, &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let found = |name: &str| {
        let o = report.outputs.iter().find(|o| std::path::Path::new(&o.output).ends_with(name)).unwrap();
        std::path::PathBuf::from(&o.output)
    };
    let strings_json = found("strings.json");
    let strings: serde_json::Value = serde_json::from_slice(&std::fs::read(&strings_json).unwrap()).unwrap();
    assert_eq!(strings, serde_json::json!({"10": "Начать", "11": "Выход"}));
    // The document records the code page, so that pack uses it.
    let document: serde_json::Value = serde_json::from_slice(&std::fs::read(found("Menu.rrc.json")).unwrap()).unwrap();
    assert_eq!(document["code_page"], "windows-1251");
    // Unedited, it packs to the same bytes.
    let same = dir.path().join("same.rrc");
    ops::pack("drakan-srsc", &strings_json, &same, &PackOptions::default()).unwrap();
    assert_eq!(std::fs::read(&same).unwrap(), original);
    // The translator's edit: string 10 becomes "Новая игра".
    std::fs::write(&strings_json, r#"{"10": "Новая игра", "11": "Выход"}"#).unwrap();
    let back = dir.path().join("Menu.new.rrc");
    let report = ops::pack("drakan-srsc", &strings_json, &back, &PackOptions::default()).unwrap();
    assert!(report.notes.iter().any(|n| n.contains("1 changed")), "{:?}", report.notes);
    let bytes = std::fs::read(&back).unwrap();
    let file = srsc::parse(&bytes).unwrap();
    // Н 0xCD о 0xEE в 0xE2 а 0xE0 я 0xFF, space, и 0xE8 г 0xE3 р 0xF0 а 0xE0.
    assert_eq!(file.body(0), spec_cipher(b"\xCD\xEE\xE2\xE0\xFF \xE8\xE3\xF0\xE0\0").as_slice());
    assert_eq!(file.body(1), b"\xC2\xFB\xF5\xEE\xE4\0");
    assert_eq!(file.body(2), [0x02, 0x01, 0, 0]);
    assert_eq!(file.entries.len(), 3);
    // A character Windows-1251 cannot hold names the string id and the character.
    std::fs::write(&strings_json, r#"{"10": "Новая игра ★", "11": "Выход"}"#).unwrap();
    let err = ops::pack("drakan-srsc", &strings_json, &dir.path().join("bad.rrc"), &PackOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            "string 10 (record type 0x0400, records[0]): the text `Новая игра ★` has the character '★' (U+2605) \
             that windows-1251 cannot hold"
        ),
        "{err}"
    );
    // Without the option it still converts: Windows-1252, the default, reads every byte.
    let plain = dir.path().join("plain");
    let report = ops::convert(std::slice::from_ref(&input), &plain, &ConvertRequest::default(), &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    // An unknown code page is refused by name.
    assert!(relic::registry::check_settings(&[("drakan-strings.code-page".into(), "utf-8".into())]).is_err());
}
