//! Dark Reign FTG archives, built by hand from the spec's tables and docs/formats/dark-reign.md#ftg (independent of relic's
//! writer): duplicate names (the first wins, case-insensitively), data out of directory order, padding, the
//! community `FTG\0` magic; listing, extraction with `directory.json` and packing back, the lossless JSON,
//! the palette an archive lends its sprites, and robustness.

use relic::dark_reign::ftg::{self, convert};
use relic::ops::{self, ExtractOptions, PackOptions, Quiet};

/// An FTG with `entries` (name, data); data stored in `data_order` (indices), 4-byte padded with `0xEE`,
/// the directory last.
fn handmade(magic: &[u8; 4], entries: &[(&str, &[u8])], data_order: &[usize]) -> Vec<u8> {
    let mut out = magic.to_vec();
    out.extend([0u8; 8]);
    let mut offsets = vec![0u32; entries.len()];
    for &i in data_order {
        offsets[i] = out.len() as u32;
        out.extend(entries[i].1);
        while out.len() % 4 != 0 {
            out.push(0xEE);
        }
    }
    let dir = out.len() as u32;
    out[4..8].copy_from_slice(&dir.to_le_bytes());
    out[8..12].copy_from_slice(&(entries.len() as u32).to_le_bytes());
    for (i, (name, data)) in entries.iter().enumerate() {
        let mut field = [0u8; 28];
        field[..name.len()].copy_from_slice(name.as_bytes());
        out.extend(field);
        out.extend(offsets[i].to_le_bytes());
        out.extend((data.len() as u32).to_le_bytes());
    }
    out
}

const ENTRIES: [(&str, &[u8]); 4] =
    [("TANK.SPR", b"first tank"), ("BOOM.WAV", b"RIFF...."), ("tank.spr", b"second"), ("BARREN.PAL", b"PALS")];

fn fixture() -> Vec<u8> {
    handmade(b"BOTG", &ENTRIES, &[3, 1, 0, 2])
}

#[test]
fn reads_names_and_data_out_of_directory_order() {
    let bytes = fixture();
    let f = ftg::parse(&bytes).unwrap();
    assert_eq!(f.entries.len(), 4);
    assert_eq!(f.data(0), b"first tank");
    assert_eq!(f.data(2), b"second");
    assert_eq!(f.entries[3].offset, 12, "the palette's data comes first");
    // Duplicates: the first wins, whatever the case.
    assert_eq!(f.find("Tank.Spr"), Some(0));
    assert_eq!(f.find("boom.wav"), Some(1));
    let paths: Vec<String> = convert::entries(&f).into_iter().map(|e| e.path.into_owned()).collect();
    assert_eq!(paths, ["TANK.SPR", "BOOM.WAV", "tank~2.spr", "BARREN.PAL"]);
    let info = ftg::FORMAT.info(&bytes).unwrap();
    assert_eq!((info["files"].as_u64(), info["duplicate_names"].as_u64()), (Some(4), Some(1)));
    assert_eq!(info["data_in_directory_order"], false);
    // The community magic reads too.
    let community = handmade(b"FTG\0", &ENTRIES, &[0, 1, 2, 3]);
    assert_eq!(ftg::parse(&community).unwrap().data(1), b"RIFF....");
}

#[test]
fn the_json_writes_back_byte_for_byte() {
    for bytes in [fixture(), handmade(b"FTG\0", &ENTRIES, &[2, 0, 3, 1])] {
        let codec = &ftg::FORMAT;
        let value = codec.to_json(&bytes).unwrap();
        assert!(!value["gaps"].as_array().unwrap().is_empty(), "the 0xEE padding is kept");
        assert_eq!(codec.from_json(value.clone(), &Default::default()).unwrap(), bytes);
        let text = serde_json::to_string(&value).unwrap();
        assert_eq!(codec.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap(), bytes);
    }
}

#[test]
fn extract_then_pack_keeps_every_entry_name_and_order() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("SPRITES.FTG");
    std::fs::write(&input, fixture()).unwrap();
    let out = dir.path().join("x");
    let report = ops::extract(&input, &out, &ExtractOptions::default(), &Quiet).unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert_eq!(std::fs::read(out.join("tank~2.spr")).unwrap(), b"second", "duplicates do not overwrite each other");
    assert_eq!(std::fs::read(out.join("TANK.SPR")).unwrap(), b"first tank");
    let back = dir.path().join("back.ftg");
    ops::pack("dr-ftg", &out, &back, &PackOptions::default()).unwrap();
    let bytes = std::fs::read(&back).unwrap();
    let f = ftg::parse(&bytes).unwrap();
    assert_eq!(&bytes[..4], b"BOTG");
    let names: Vec<&str> = f.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["TANK.SPR", "BOOM.WAV", "tank.spr", "BARREN.PAL"]);
    for (i, (_, data)) in ENTRIES.iter().enumerate() {
        assert_eq!(f.data(i), *data);
    }
    // A new archive from a plain folder.
    let plain = dir.path().join("plain");
    std::fs::create_dir(&plain).unwrap();
    std::fs::write(plain.join("A.WAV"), b"a").unwrap();
    std::fs::write(plain.join("B.SPR"), b"bb").unwrap();
    let packed = dir.path().join("plain.ftg");
    ops::pack("dr-ftg", &plain, &packed, &PackOptions::default()).unwrap();
    let bytes = std::fs::read(&packed).unwrap();
    let f = ftg::parse(&bytes).unwrap();
    assert_eq!((f.entries[1].name.as_str(), f.data(1)), ("B.SPR", &b"bb"[..]));
    // Names over 27 bytes cannot be stored.
    std::fs::write(plain.join("A_NAME_THAT_IS_FAR_TOO_LONG.SPR"), b"x").unwrap();
    assert!(ops::pack("dr-ftg", &plain, &dir.path().join("long.ftg"), &PackOptions::default()).is_err());
}

#[test]
fn an_archive_lends_its_palette_to_its_entries() {
    let mut pals = b"PALS".to_vec();
    pals.extend(0x0102u32.to_le_bytes());
    pals.extend([10u8; 256]);
    pals.extend([20u8; 256]);
    pals.extend([30u8; 256]);
    pals.extend([0u8; 768]);
    let bytes = handmade(b"BOTG", &[("X.SPR", b"x"), ("BARREN.PAL", &pals)], &[0, 1]);
    let opts = relic::registry::ConvertOptions::default();
    let with =
        ftg::FORMAT.entry_options(&relic::registry::ConvertInput::new(&bytes, &opts)).expect("the .PAL is found");
    let palette = relic::dark_reign::palette_for(&with, None).unwrap();
    assert_eq!(palette.colors[5], [40, 81, 121, 255]);
    assert_eq!(palette.colors[0][3], 0, "index 0 is transparent");
    assert!(opts.notes.lock().unwrap().is_empty());
    // Without one, greyscale, with a note.
    let grey = relic::dark_reign::palette_for(&opts, None).unwrap();
    assert_eq!(grey.colors[5], [5, 5, 5, 255]);
    assert_eq!(opts.notes.lock().unwrap().len(), 1);
}

#[test]
fn truncations_and_flips_never_panic_and_damage_is_located() {
    let bytes = fixture();
    relic::testing::check_robustness(&bytes, true, |b| ftg::parse(b).map(|_| ()));
    let codec = &ftg::FORMAT;
    relic::testing::check_robustness(&bytes, false, |b| {
        let written = codec.from_json(codec.to_json(b)?, &Default::default())?;
        assert_eq!(written, b);
        Ok::<(), relic::Error>(())
    });
    let mut bad = bytes.clone();
    let dir = u32::from_le_bytes(bad[4..8].try_into().unwrap()) as usize;
    bad[dir + 36 + 32..dir + 36 + 36].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = ftg::parse(&bad).unwrap_err();
    assert!(err.location().unwrap().field.contains("directory[1]"), "{err}");
    assert_eq!(err.location().unwrap().offset, (dir + 36 + 28) as u64);
}

/// An FTG laid out by hand every way docs/formats/dark-reign.md#ftg-directory allows: the directory in the middle (not last), data
/// out of directory order, zero and non-zero padding, two entries sharing one data range, a name field with
/// bytes after its NUL, and bytes after the last data.
fn scrambled() -> Vec<u8> {
    let mut out = b"BOTG".to_vec();
    out.extend(16u32.to_le_bytes()); // directory at 16
    out.extend(4u32.to_le_bytes());
    out.extend(b"bb"); // B.SPR at 12
    out.extend([0, 0]);
    let entry = |name: &[u8], offset: u32, size: u32| {
        let mut e = [0u8; 28];
        e[..name.len()].copy_from_slice(name);
        let mut v = e.to_vec();
        v.extend(offset.to_le_bytes());
        v.extend(size.to_le_bytes());
        v
    };
    out.extend(entry(b"A.WAV", 164, 4));
    out.extend(entry(b"B.SPR", 12, 2));
    out.extend(entry(b"C.PAL", 164, 4)); // shares A.WAV's data
    out.extend(entry(b"D.TXT\0junk", 160, 1));
    assert_eq!(out.len(), 160);
    out.push(b'd'); // D.TXT at 160
    out.extend([0xCC; 3]);
    out.extend(b"aaaa"); // A.WAV and C.PAL at 164
    out.extend(b"END!");
    out
}

fn extract_to(bytes: &[u8], dir: &std::path::Path) -> std::path::PathBuf {
    let input = dir.join("ARCHIVE.FTG");
    std::fs::write(&input, bytes).unwrap();
    let out = dir.join("x");
    let report = ops::extract(&input, &out, &ExtractOptions::default(), &Quiet).unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    out
}

fn pack_folder(folder: &std::path::Path) -> Vec<u8> {
    let back = folder.with_extension("back.ftg");
    ops::pack("dr-ftg", folder, &back, &PackOptions { force: true, ..Default::default() }).unwrap();
    std::fs::read(back).unwrap()
}

#[test]
fn extract_then_pack_gives_the_archive_back_byte_for_byte_whatever_its_data_order() {
    let dir = tempfile::tempdir().unwrap();
    for (i, bytes) in [fixture(), scrambled()].into_iter().enumerate() {
        let sub = dir.path().join(i.to_string());
        std::fs::create_dir(&sub).unwrap();
        let out = extract_to(&bytes, &sub);
        assert_eq!(pack_folder(&out), bytes, "archive {i}");
    }
    // What directory.json records for the scrambled archive.
    let out = dir.path().join("1/x");
    let index: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("directory.json")).unwrap()).unwrap();
    assert_eq!(
        index,
        serde_json::json!({
            "format": "dr-ftg-directory",
            "layout": {
                "directory_offset": 16,
                "file_size": 172,
                "gaps": [{"offset": 161, "bytes": "zMzM"}, {"offset": 168, "bytes": "RU5EIQ=="}],
            },
            "entries": [
                {"name": "A.WAV", "path": "A.WAV", "offset": 164},
                {"name": "B.SPR", "path": "B.SPR", "offset": 12},
                {"name": "C.PAL", "path": "C.PAL", "offset": 164},
                {"name": "D.TXT", "name_field": "RC5UWFQAanVuawAAAAAAAAAAAAAAAAAAAAAAAA==", "path": "D.TXT", "offset": 160},
            ],
        })
    );
}

#[test]
fn edited_files_pack_in_the_stored_data_order_and_older_directories_still_pack() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = fixture();
    let out = extract_to(&bytes, dir.path());
    // Same size: written in place, every other byte as it was, nothing to say.
    std::fs::write(out.join("BOOM.WAV"), b"RIFF!!!!").unwrap();
    let report = ops::pack("dr-ftg", &out, &dir.path().join("same.ftg"), &PackOptions::default()).unwrap();
    assert_eq!(report.notes, Vec::<String>::new());
    let packed = pack_folder(&out);
    let at = ftg::parse(&bytes).unwrap().entries[1].offset as usize;
    let mut want = bytes.clone();
    want[at..at + 8].copy_from_slice(b"RIFF!!!!");
    assert_eq!(packed, want);
    // Longer: the data no longer fits its place; laid out afresh from offset 12 in the stored data order
    // (BARREN.PAL, BOOM.WAV, TANK.SPR, tank.spr), the directory last in directory order.
    std::fs::write(out.join("BOOM.WAV"), b"RIFF and much more").unwrap();
    let report = ops::pack("dr-ftg", &out, &dir.path().join("grown.ftg"), &PackOptions::default()).unwrap();
    assert_eq!(report.notes.len(), 1, "{:?}", report.notes);
    assert!(
        report.notes[0].starts_with("dr-ftg: the recorded layout no longer fits the edited files"),
        "{:?}",
        report.notes
    );
    let packed = pack_folder(&out);
    let f = ftg::parse(&packed).unwrap();
    let offsets: Vec<u32> = f.entries.iter().map(|e| e.offset).collect();
    assert_eq!(offsets, [12 + 4 + 18, 12 + 4, 12 + 4 + 18 + 10, 12]);
    assert_eq!(f.data(1), b"RIFF and much more");
    assert_eq!(u32::from_le_bytes(packed[4..8].try_into().unwrap()), 12 + 4 + 18 + 10 + 6);
    assert_eq!(packed.len(), 12 + 38 + 4 * 36);
    // An older directory.json (names and paths only): data in directory order from offset 12.
    let index_path = out.join("directory.json");
    let mut index: serde_json::Value = serde_json::from_slice(&std::fs::read(&index_path).unwrap()).unwrap();
    index.as_object_mut().unwrap().remove("layout");
    for e in index["entries"].as_array_mut().unwrap() {
        e.as_object_mut().unwrap().remove("offset");
    }
    std::fs::write(&index_path, serde_json::to_vec(&index).unwrap()).unwrap();
    let packed = pack_folder(&out);
    let f = ftg::parse(&packed).unwrap();
    let offsets: Vec<u32> = f.entries.iter().map(|e| e.offset).collect();
    assert_eq!(offsets, [12, 12 + 10, 12 + 10 + 18, 12 + 10 + 18 + 6]);
    let names: Vec<&str> = f.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["TANK.SPR", "BOOM.WAV", "tank.spr", "BARREN.PAL"]);
}

#[test]
fn a_shared_range_edited_in_one_copy_and_a_renamed_entry_are_packed() {
    let dir = tempfile::tempdir().unwrap();
    let out = extract_to(&scrambled(), dir.path());
    // C.PAL shared A.WAV's bytes; edited alone, both cannot stay in one place: laid out afresh.
    std::fs::write(out.join("C.PAL"), b"cccc").unwrap();
    // D.TXT's stored field (junk after the NUL) no longer holds its edited name: the name wins.
    let index_path = out.join("directory.json");
    let text = std::fs::read_to_string(&index_path).unwrap().replace("\"name\": \"D.TXT\"", "\"name\": \"E.TXT\"");
    std::fs::write(&index_path, text).unwrap();
    let packed = pack_folder(&out);
    let f = ftg::parse(&packed).unwrap();
    let got: Vec<(&str, &[u8], u32)> =
        (0..4).map(|i| (f.entries[i].name.as_str(), f.data(i), f.entries[i].offset)).collect();
    // Stored data order: B.SPR (12), D.TXT (160), A.WAV and C.PAL (164).
    assert_eq!(
        got,
        [("A.WAV", &b"aaaa"[..], 15), ("B.SPR", &b"bb"[..], 12), ("C.PAL", &b"cccc"[..], 19), ("E.TXT", &b"d"[..], 14)]
    );
    assert_eq!(f.entries[3].name_field, *b"E.TXT\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0");
    // Unedited, the junk is kept.
    let again = dir.path().join("again");
    std::fs::create_dir(&again).unwrap();
    let out = extract_to(&scrambled(), &again);
    assert_eq!(
        ftg::parse(&pack_folder(&out)).unwrap().entries[3].name_field,
        *b"D.TXT\0junk\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
    );
}
