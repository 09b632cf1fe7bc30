//! A small Drakan database built by hand from the spec's tables (independent of relic's writers): `Sample.db`
//! depends on `Common.db`; `Sample.odb` holds a class whose fields refer to a texture in `Common.txd`
//! (database index 1) and a sound in `Sample.sdb` (index 0); `Sample.txd` has a palette and an 8-bpp texture.
//! `relic convert Sample.db` converts every SRSC file of the database, names each reference
//! `database/file:id`, and converts the referenced texture from the other database with its real pixels.

use std::path::Path;

use crate::srsc_fixtures;

use relic::ops::{self, ConvertRequest, Quiet};
use srsc_fixtures::{packed, string, texture};

/// Sound 0x0302: 8-bit mono, stored.
fn sound(name: &str, samples: &[u8]) -> Vec<u8> {
    let mut b = string(name);
    b.extend(0u32.to_le_bytes()); // flags
    b.extend(1u16.to_le_bytes()); // channels
    b.extend(8u16.to_le_bytes()); // bits
    b.extend(11025u32.to_le_bytes());
    b.extend(0i32.to_le_bytes()); // volume
    b.extend(1.0f32.to_le_bytes()); // dropoff
    b.extend(5u32.to_le_bytes()); // priority
    b.extend((samples.len() as u32).to_le_bytes());
    b.extend(0u32.to_le_bytes()); // compression level 0: no compressed size
    b.extend(samples);
    b
}

/// Class 0x0102 with an int field, a texture reference (type 0x0e) into database 1 and a sound reference
/// (type 0x05) into this database.
fn class() -> Vec<u8> {
    let mut b = string("Torch");
    b.extend(0u16.to_le_bytes()); // group id
    b.extend([0u8; 4]); // model ref: none
    b.extend(3u16.to_le_bytes()); // rfl class id
    b.extend(0u16.to_le_bytes()); // icon
    b.extend(3u32.to_le_bytes()); // number of fields
    b.extend(3u32.to_le_bytes()); // dwords
    b.extend(42u32.to_le_bytes()); // Brightness
    b.extend((1u32 | 1 << 16).to_le_bytes()); // Flame: texture 1 of database 1
    b.extend(7u32.to_le_bytes()); // Crackle: sound 7 of this database
    for (t, name) in [(0x01u32, "Brightness"), (0x0e, "Flame"), (0x05, "Crackle")] {
        b.extend(t.to_le_bytes());
        b.extend(string(name));
    }
    b
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dir.join(name), bytes).unwrap();
}

fn database(dir: &Path) {
    write(dir, "Sample.db", b"version 1.0\r\ndependencies 1\r\n1 Common\r\n");
    write(dir, "Common.db", b"version 1.0\r\ndependencies 0\r\n");
    // Common.txd: texture 1, 24 bpp, 2 × 1, stored bottom-up: one row red, blue.
    write(dir, "Common.txd", &packed(&[(0x0040, 1, 0, &texture(2, 1, 24, &[255, 0, 0, 0, 0, 255]))]));
    // Sample.txd: palette (black, green, white) and an 8-bpp 2 × 2 texture, bottom row first.
    let mut palette = 3u16.to_le_bytes().to_vec();
    palette.extend([0, 0, 0, 0, 0, 255, 0, 0, 255, 255, 255, 0]);
    write(dir, "Sample.txd", &packed(&[(0x0030, 1, 0, &palette), (0x0040, 2, 0, &texture(2, 2, 8, &[0, 1, 2, 1]))]));
    write(dir, "Sample.sdb", &packed(&[(0x0302, 7, 0, &sound("crackle", &[128, 200, 56, 128]))]));
    write(dir, "Sample.odb", &packed(&[(0x0101, 1, 0, &string("Lights")), (0x0102, 2, 1, &class())]));
}

/// The one folder `convert` wrote into `out` (named after the input, whatever the naming rule).
fn only_folder(out: &Path) -> std::path::PathBuf {
    let dirs: Vec<_> = std::fs::read_dir(out).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs[0].clone()
}

fn rgba(png: &Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::fs::File::open(png).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

#[test]
fn converting_a_database_converts_its_files_and_resolves_references() {
    let dir = tempfile::tempdir().unwrap();
    database(dir.path());
    let out = dir.path().join("out");
    let report = ops::convert(&[dir.path().join("Sample.db")], &out, &ConvertRequest::default(), &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let root = only_folder(&out);
    // The database's own texture, through its palette, top row first: stored bottom row (black, green),
    // then top row (white, green).
    let (w, h, px) = rgba(&root.join("txd/texture_2.png"));
    assert_eq!((w, h), (2, 2));
    assert_eq!(px, [255, 255, 255, 255, 0, 255, 0, 255, 0, 0, 0, 255, 0, 255, 0, 255]);
    // The sound as WAV: 8-bit unsigned, mono, 11025 Hz, 4 samples.
    let wav = std::fs::read(root.join("sdb/7_crackle.wav")).unwrap();
    assert_eq!(&wav[..4], b"RIFF");
    assert_eq!(&wav[wav.len() - 4..], &[128, 200, 56, 128]);
    // The class: fields decoded, references named database/file:id.
    let records: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("odb/records.json")).unwrap()).unwrap();
    // Pixel data is converted, not repeated in the listing: the texture shows its size.
    let txd: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("txd/records.json")).unwrap()).unwrap();
    let tex = &txd.as_array().unwrap().iter().find(|r| r["type"] == "0x0040").unwrap()["decoded"]["texture"];
    assert_eq!((tex["width"].as_u64(), tex["data_bytes"].as_u64()), (Some(2), Some(4)));
    assert!(tex.get("data").is_none());
    let class = records.as_array().unwrap().iter().find(|r| r["type"] == "0x0102").unwrap();
    assert_eq!(class["group"], "Lights");
    let refs = class["references"].as_array().unwrap();
    assert_eq!(refs[0], serde_json::json!({"field": "Flame", "refers_to": "Common/Common.txd:1"}));
    assert_eq!(refs[1], serde_json::json!({"field": "Crackle", "refers_to": "Sample/Sample.sdb:7"}));
    // The texture in the other database is converted with its real pixels.
    let (w, h, px) = rgba(&root.join("odb/refs/Common/Common.txd/texture_1.view.png"));
    assert_eq!((w, h), (2, 1));
    assert_eq!(px, [255, 0, 0, 255, 0, 0, 255, 255]);
    // Converting one file resolves through the .db beside it too.
    let single = dir.path().join("single");
    let report = ops::convert(&[dir.path().join("Sample.odb")], &single, &ConvertRequest::default(), &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let single = only_folder(&single);
    assert!(single.join("refs/Common/Common.txd/texture_1.view.png").exists());
    assert!(single.join("refs/Sample/Sample.sdb/sound_7.view.wav").exists());
}

#[test]
fn every_file_of_the_database_writes_back_through_json() {
    let dir = tempfile::tempdir().unwrap();
    database(dir.path());
    for name in ["Sample.db", "Common.db", "Common.txd", "Sample.txd", "Sample.sdb", "Sample.odb"] {
        let bytes = std::fs::read(dir.path().join(name)).unwrap();
        let (format, _) = relic::registry::sniff(&bytes, name).unwrap();
        let codec = format.for_name(name);
        assert_eq!(codec.from_json(codec.to_json(&bytes).unwrap(), &Default::default()).unwrap(), bytes, "{name}");
    }
}
