//! Identification by content, over every registered format: magic first; a name (extension or claimed
//! file name) identifies a file only when its bytes agree. Every sample is identified as itself; bytes of
//! another kind under each format's names are not claimed.

use std::path::PathBuf;

use relic::registry::{self, Claim, Confidence, FORMATS};

fn samples() -> PathBuf {
    crate::common::samples_dir()
}

/// Every sample and the format it is: the contract's rows say (`contract::samples`).
fn samples_listed() -> Vec<(&'static str, &'static str)> {
    crate::contract::samples()
}

fn id(bytes: &[u8], name: &str) -> Option<&'static str> {
    registry::sniff(bytes, name).map(|(f, _)| f.id)
}

/// The names a file can go by for each format: `x.<ext>` for its extensions, and its claimed names.
fn names_of(f: &relic::registry::Format) -> Vec<String> {
    let mut names: Vec<String> = f.extensions.iter().map(|e| format!("x.{e}")).collect();
    for claim in f.probe.claims {
        match claim {
            Claim::Name(n) => names.push((*n).to_string()),
            Claim::Extension(e) => names.push(format!("x.{e}")),
        }
    }
    names
}

#[test]
fn every_sample_is_identified_as_itself_by_its_bytes_and_name() {
    let mut listed = 0;
    for dir in std::fs::read_dir(samples()).unwrap() {
        for file in std::fs::read_dir(dir.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            let rel = path.strip_prefix(samples()).unwrap().to_string_lossy().replace('\\', "/");
            let expected =
                samples_listed().into_iter().find(|(p, _)| *p == rel).unwrap_or_else(|| panic!("{rel} not in SAMPLES"));
            listed += 1;
            let bytes = std::fs::read(&path).unwrap();
            let (found, confidence) = registry::identify_path(&path).unwrap().unwrap_or_else(|| panic!("{rel}"));
            assert_eq!(found.id, expected.1, "{rel}");
            // The head and the length alone say the same as the whole file.
            assert_eq!(id(&bytes, &rel), Some(expected.1), "{rel}");
            // Renamed, a file with magic is still found; one without is unknown.
            let renamed = id(&bytes, "renamed.bin");
            match confidence {
                Confidence::Magic => assert_eq!(renamed, Some(expected.1), "{rel}"),
                Confidence::Extension => assert_eq!(renamed, None, "{rel}"),
            }
        }
    }
    assert_eq!(listed, samples_listed().len());
    for f in FORMATS {
        assert!(
            crate::contract::without_sample().contains(&f.id) || samples_listed().iter().any(|(_, id)| *id == f.id),
            "{} has no sample: name one in its row of tests/house/contract.rs",
            f.id
        );
    }
}

#[test]
fn a_windows_thumbs_db_and_other_ole_files_are_claimed_by_no_name() {
    // An OLE2 compound file (Thumbs.db, a .doc): its 8-byte signature, a header's worth of zeros, and an
    // odd length, so that no record size divides it.
    let mut ole = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
    ole.resize(4097, 0);
    for f in FORMATS {
        for name in names_of(f) {
            assert_eq!(id(&ole, &name), None, "an OLE file named {name} ({})", f.id);
        }
    }
    assert_eq!(id(&ole, "Thumbs.db"), None);
}

#[test]
fn ragnarok_sprites_actions_and_palettes_are_not_dark_reign_or_drakan_files() {
    // A Ragnarok sprite: `SP`, version 2.1 (minor, major), one indexed and no RGBA image, one 1 × 1 frame, then
    // its palette. Named `.spr` like Dark Reign's, it is a Ragnarok sprite by its magic (once `ro-spr` is
    // registered) and never `dr-spr`.
    let mut sprite = b"SP\x01\x02\x01\x00\x00\x00\x01\x00\x01\x00\x01\x00\x05".to_vec();
    sprite.extend(std::iter::repeat_n(0u8, 1024));
    let ro_spr = registry::by_id("ro-spr").map(|f| f.id);
    assert_eq!(id(&sprite, "x.spr"), ro_spr);
    assert_eq!(id(&sprite, "data/sprite/x.SPR"), ro_spr);
    // An action file: `AC`, version 2.5.
    let action = b"AC\x05\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00".to_vec();
    let ro_act = registry::by_id("ro-act").map(|f| f.id);
    assert_eq!(id(&action, "x.act"), ro_act);
    assert_eq!(id(&action, "x.spr"), ro_act);
    // A 1024-byte RGBX palette (what Ragnarok ships, and Dark Reign community tools): a Ragnarok palette
    // as `.pal`, nothing under Dark Reign's or Drakan's names.
    let rgbx: Vec<u8> = (0..=255u8).flat_map(|i| [i, i / 2, 255 - i, 0]).collect();
    assert_eq!(id(&rgbx, "hair.pal"), Some("ro-pal"));
    assert_eq!(id(&rgbx, "x.spr"), None);
    assert_eq!(id(&rgbx, "x.db"), None);
    assert_eq!(id(&rgbx, "x.ftg"), None);
    // 1024 bytes of one byte repeated: ASCII, so a Drakan database by its name, but as `.pal` a palette.
    assert_eq!(id(&[b'A'; 1024], "x.pal"), Some("ro-pal"));
    assert_eq!(id(&[b'A'; 1024], "x.db"), Some("drakan-db"));
}

#[test]
fn each_sample_under_every_other_name_is_itself_or_a_format_its_bytes_may_be() {
    // A format with magic is found by it under any name. The bytes of a format without magic are found
    // under its own names (an `.idb` named `.udb` is still a database); named as another format, they may
    // agree with that format's spec as far as a cheap check goes: these are all such cases.
    const AGREES: &[(&str, &str, &str)] = &[
        // 144 bytes: a multiple of 12 (BON offsets) as of 36 (CAM records).
        ("evil_islands/intro.cam", "x.bon", "ei-bon"),
    ];
    let mut agreed: Vec<(&str, String, &str)> = Vec::new();
    for (rel, own) in &samples_listed() {
        let bytes = std::fs::read(samples().join(rel)).unwrap();
        let magic = registry::sniff(&bytes, "renamed.bin").is_some();
        let own_ext = format!(".{}", rel.rsplit('.').next().unwrap().to_lowercase());
        for f in FORMATS {
            for name in names_of(f) {
                let found = id(&bytes, &name);
                if magic || name.ends_with(&own_ext) {
                    assert_eq!(found, Some(*own), "{rel} named {name}");
                } else if let Some(other) = found.filter(|other| other != own) {
                    // Only a format that names the file so, and never one with magic.
                    let named: Vec<&str> = registry::named_as(&name).iter().map(|f| f.id).collect();
                    assert!(named.contains(&other), "{rel} named {name}: {other}");
                    assert!(!registry::by_id(other).unwrap().sniff(&bytes), "{rel} named {name}: {other}");
                    if !agreed.iter().any(|(r, n, _)| r == rel && *n == name) {
                        agreed.push((rel, name, other));
                    }
                }
            }
        }
    }
    let expected: Vec<(&str, String, &str)> = AGREES.iter().map(|(r, n, i)| (*r, n.to_string(), *i)).collect();
    assert_eq!(agreed, expected);
}
