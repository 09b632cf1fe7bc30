//! Dark Reign FTG archives, built by hand from the spec's tables and CORRECTIONS.md (independent of relic's
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
    let info = ftg::FORMAT.codec.info(&bytes).unwrap();
    assert_eq!((info["files"].as_u64(), info["duplicate_names"].as_u64()), (Some(4), Some(1)));
    assert_eq!(info["data_in_directory_order"], false);
    // The community magic reads too.
    let community = handmade(b"FTG\0", &ENTRIES, &[0, 1, 2, 3]);
    assert_eq!(ftg::parse(&community).unwrap().data(1), b"RIFF....");
}

#[test]
fn the_json_writes_back_byte_for_byte() {
    for bytes in [fixture(), handmade(b"FTG\0", &ENTRIES, &[2, 0, 3, 1])] {
        let codec = ftg::FORMAT.codec;
        let value = codec.to_json(&bytes).unwrap();
        assert!(!value["gaps"].as_array().unwrap().is_empty(), "the 0xEE padding is kept");
        assert_eq!(codec.write_json(value.clone()).unwrap(), bytes);
        let text = serde_json::to_string(&value).unwrap();
        assert_eq!(codec.write_json(serde_json::from_str(&text).unwrap()).unwrap(), bytes);
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
    let with = ftg::FORMAT.codec.entry_options(&bytes, &opts).expect("the .PAL is found");
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
    let codec = ftg::FORMAT.codec;
    relic::testing::check_robustness(&bytes, false, |b| {
        let written = codec.write_json(codec.to_json(b)?)?;
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
