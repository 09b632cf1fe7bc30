//! `samples/` stays true: the committed files are what the generator writes, every registered format has a
//! sample, and identification agrees with each sample's format.

#[path = "../../examples/make_samples.rs"]
mod make_samples;

use std::path::PathBuf;

fn samples_dir() -> PathBuf {
    crate::common::samples_dir()
}

#[test]
fn samples_match_generator() {
    for (path, bytes) in make_samples::build() {
        let committed = std::fs::read(samples_dir().join(path)).unwrap_or_else(|e| panic!("samples/{path}: {e}"));
        assert!(
            committed == bytes,
            "samples/{path} differs from what make_samples writes: run `cargo run -p relic --example make_samples`"
        );
    }
}

#[test]
fn every_registered_format_has_a_sample_identified_as_it() {
    // Formats without magic (identified by name only), and formats without a sample (never identified, or
    // known by the client's table names only, like `ro-table`): the contract's rows say which.
    let no_magic = crate::contract::by_name_only();
    let without_sample = crate::contract::without_sample();
    let mut found = std::collections::HashSet::new();
    for entry in walkdir::WalkDir::new(samples_dir()) {
        let entry = entry.unwrap();
        if !entry.file_type().is_file() {
            continue;
        }
        let identified = relic::registry::identify_path(entry.path()).unwrap();
        let (format, confidence) = identified.unwrap_or_else(|| panic!("{} is not identified", entry.path().display()));
        let data = std::fs::read(entry.path()).unwrap();
        if no_magic.contains(&format.id) {
            // Formats without magic are known by name only, and their codecs must not claim any magic.
            assert_eq!(confidence, relic::registry::Confidence::Extension, "{}", entry.path().display());
            assert!(!format.sniff(&data), "{}: {} sniffs magic", entry.path().display(), format.id);
        } else {
            assert_eq!(confidence, relic::registry::Confidence::Magic, "{}", entry.path().display());
        }
        // The sample must also parse, with the codec its name selects.
        let name = entry.path().to_string_lossy();
        format.for_name(&name).info(&data).unwrap_or_else(|e| panic!("{}: {e}", entry.path().display()));
        found.insert(format.id);
    }
    for f in relic::FORMATS.iter().filter(|f| !without_sample.contains(&f.id)) {
        assert!(found.contains(f.id), "registered format {} has no file in samples/", f.id);
    }
    for id in &without_sample {
        let f = relic::registry::by_id(id).unwrap();
        assert!(f.extensions.is_empty(), "{id} claims extensions");
        for (path, bytes) in make_samples::build() {
            assert!(!f.sniff(&bytes), "{id} claims a magic match on samples/{path}");
        }
    }
    for id in &no_magic {
        let f = relic::registry::by_id(id).unwrap();
        for (path, bytes) in make_samples::build() {
            assert!(!f.sniff(&bytes), "{id} claims a magic match on samples/{path}");
        }
    }
}

#[test]
fn sample_archive_holds_what_the_generator_put_in() {
    let data = std::fs::read(samples_dir().join("evil_islands/example.res")).unwrap();
    let res = relic::evil_islands::res::parse(&data).unwrap();
    let entries = relic::evil_islands::res::convert::entries(&res, "example.res");
    let mut paths: Vec<_> = entries.iter().map(|e| (&*e.path, e.size)).collect();
    paths.sort();
    assert_eq!(
        paths,
        vec![
            ("readme.txt", 40),
            ("texts/quest q1", 21),
            ("texts/quest q1 copy", 21),
            ("unit.bon", 260),
            ("тексты/привет.txt", 16)
        ]
    );
    let q1 = res.find(b"texts\\quest q1").unwrap();
    let copy = res.find(b"TEXTS\\QUEST Q1 COPY").unwrap();
    assert_eq!(res.records[q1].offset, res.records[copy].offset, "identical contents are stored once");
    assert_eq!(res.data(copy), b"Find the lost soul.\r\n");
}

#[test]
fn sample_items_db_holds_what_the_generator_put_in() {
    use relic::evil_islands::db::{self, FileType, Value};
    let data = std::fs::read(samples_dir().join("evil_islands/items.idb")).unwrap();
    let doc = db::parse(&data, FileType::from_name("items.idb")).unwrap();
    let info = db::convert::info(&doc, data.len());
    assert_eq!(info["tables"][0]["name"], "Materials");
    assert_eq!(info["tables"][0]["records"], 2);
    assert_eq!(info["tables"][1]["name"], "Weapons");
    assert_eq!(info["tables"][1]["records"], 1);
    let d = db::convert::to_document(&doc, data.len()).unwrap();
    assert_eq!(d.value["tables"][0]["records"][1]["Type"], "Бронза");
    assert_eq!(d.value["tables"][0]["records"][1]["Price"], 8.5);
    let sword = &d.value["tables"][1]["records"][0];
    assert_eq!((&sword["DP.Piercing"], &sword["DP.Slashing"]), (&serde_json::json!(10.0), &serde_json::json!(12.5)));
    let db::types::TableBody::Records(r) = &doc.database.tables[1].body else { panic!() };
    let db::types::RecordBody::Fields(f) = &r[0].body else { panic!() };
    assert_eq!(f[5].value, Value::Bool(true));
}

#[test]
fn sample_level_holds_what_the_generator_put_in() {
    let data = std::fs::read(samples_dir().join("evil_islands/level.mob")).unwrap();
    let info = relic::evil_islands::mob::FORMAT.info(&data).unwrap();
    assert_eq!(info["units"], 1);
    assert_eq!(info["script_key"], 0x1F2E_3D4C);
    let level = relic::evil_islands::mob::parse(&data).unwrap();
    let scripts = relic::evil_islands::mob::convert::scripts(&level);
    assert!(scripts[0].text.text.contains("Привет, Гипат!"));
}

#[test]
fn sample_rcd_files_hold_what_the_generator_put_in() {
    use relic::freerct::rcd::{self, pixels, Body};
    let data = std::fs::read(samples_dir().join("freerct/tiles.rcd")).unwrap();
    let tiles = rcd::parse(&data).unwrap();
    assert_eq!((tiles.version, tiles.blocks.len()), (1, 10));
    let Body::Fields(surf) = &tiles.blocks[8].body else { panic!("block 9 is not read: {:?}", tiles.blocks[8]) };
    assert_eq!((surf["ground_type"].as_str(), surf["tile_width"].as_u64()), (Some("grass0"), Some(16)));
    assert_eq!([&surf["north"]["flat"], &surf["north"]["n"], &surf["north"]["e"]], [2, 4, 6]);
    let Body::Fields(tsel) = &tiles.blocks[9].body else { panic!("block 10 is not read") };
    assert_eq!(tsel["surface"]["flat"], 8);
    // The outline has two runs on its middle lines; index 0 is never stored.
    let Body::Pixels8 { width, height, data: lines, .. } = &tiles.blocks[6].body else { panic!() };
    let outline = pixels::decode_8bpp(lines, *width, *height, 0).unwrap();
    let row = &outline[3 * 16..4 * 16];
    assert_eq!(row.windows(2).filter(|w| w[0] == 0 && w[1] != 0).count() + usize::from(row[0] != 0), 2);
    assert!(outline.iter().all(|&i| i == 0 || i == 183));

    let data = std::fs::read(samples_dir().join("freerct/baseset.rcd")).unwrap();
    let baseset = rcd::parse(&data).unwrap();
    assert_eq!((baseset.version, baseset.blocks.len()), (2, 14));
    assert!(matches!(&baseset.blocks[0].body, Body::Info(i) if i.name.as_bytes() == b"relic sample baseset"));
    let Body::Fields(gbor) = &baseset.blocks[10].body else { panic!("block 11 is not read") };
    assert_eq!((gbor["widget_type"].as_str(), &gbor["sprites"]["bottom_right"]), (Some("button"), &10.into()));
    let Body::Pixels32 { width, height, offset, data: lines } = &baseset.blocks[11].body else { panic!() };
    assert_eq!((*width, *height, *offset), (16, 8, (-8, 0)));
    let planes = pixels::decode_32bpp(lines, *width, *height, 0).unwrap();
    assert_eq!(planes.recolour.iter().filter(|&&r| r).count(), 12);
    assert!(planes.layer.iter().all(|&l| l <= 1));
    assert!(planes.rgba.chunks(4).any(|p| p[3] == 160), "the rim is semi-transparent");
    let Body::Fields(surf) = &baseset.blocks[12].body else { panic!("block 13 is not read") };
    assert_eq!(surf["north"]["flat"], 12);
    let Body::Text(strings) = &baseset.blocks[13].body else { panic!("block 14 is not read") };
    assert_eq!(strings.len(), 2);
    assert_eq!(strings[1].translations[0].forms.len(), 2, "TILES has two plural forms");
}
