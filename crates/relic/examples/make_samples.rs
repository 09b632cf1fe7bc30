//! Writes `samples/`: small files of every format relic supports, made by relic's own writers, so that the
//! README's main command (`relic convert -o out samples`) works on a fresh clone.
//!
//! Run from the repository root: `cargo run -p relic --example make_samples`. The test
//! `samples_match_generator` checks that the committed files are what this program writes.

use std::path::Path;

use relic::evil_islands::res::{write_archive, PackInput, PackOptions, PackSource};

/// 2001-03-30, the time stamp of the game's own text archives.
const TIME: u32 = 985_950_276;

fn entry(name: &str, data: &[u8]) -> PackInput {
    PackInput {
        name: relic::evil_islands::res::write::encode_name(name).unwrap_or_else(|e| panic!("{e}")),
        modified: TIME,
        source: PackSource::Bytes(data.to_vec()),
    }
}

fn res(entries: Vec<PackInput>) -> Vec<u8> {
    let mut out = Vec::new();
    write_archive(entries, PackOptions::default(), &mut out).unwrap_or_else(|e| panic!("{e}"));
    out
}

/// Every sample: path under `samples/` and bytes.
pub fn build() -> Vec<(&'static str, Vec<u8>)> {
    // A bone set is itself a RES of 96-byte entries (8 × vec3) without extensions (spec "Bon").
    let bones: Vec<u8> = (0..24u32).flat_map(|i| (i as f32 * 0.25).to_le_bytes()).collect();
    let bon = res(vec![entry("head", &bones), entry("body", &bones[..].iter().rev().copied().collect::<Vec<_>>())]);
    let greeting = "Привет, Гипат!\r\n".to_string();
    let greeting = relic::codec::text::encode(relic::codec::text::CP1251, &greeting).unwrap_or_default();
    let archive = res(vec![
        entry("readme.txt", b"A sample RES archive written by relic.\r\n"),
        entry("texts\\quest q1", b"Find the lost soul.\r\n"),
        // Same bytes under a second name: stored once (deduplicated).
        entry("texts\\quest q1 copy", b"Find the lost soul.\r\n"),
        entry("тексты\\привет.txt", &greeting),
        entry("unit.bon", &bon),
    ]);
    vec![("evil_islands/example.res", archive), ("evil_islands/example.mob", level())]
}

/// A small level: diplomacy, one unit, one object, a lever, a trap, a light, and a script enciphered
/// with its key; then an AIGRAPH (kept as bytes).
fn level() -> Vec<u8> {
    use relic::evil_islands::mob::types::UnitStats;
    use serde_json::json;
    let mut stats = serde_json::Map::new();
    for (name, _, _) in UnitStats::FIELDS {
        stats.insert((*name).to_string(), json!(0));
    }
    for (name, value) in [
        ("hp", json!(20)),
        ("max_hp", json!(20)),
        ("mp", json!(10)),
        ("max_mp", json!(10)),
        ("moves", json!(1.0)),
        ("actions", json!(15.0)),
        ("speed_run", json!(0.55)),
        ("speed_walk", json!(0.25)),
        ("attack", json!(5.0)),
        ("defence", json!(5.0)),
        ("sight", json!(8.5)),
    ] {
        stats.insert(name.to_string(), value);
    }
    let names: Vec<String> = (0..32).map(|i| format!("Player-{i}")).collect();
    let diplomacy: Vec<Vec<u32>> = (0..32).map(|r| (0..32).map(|c| u32::from(r != c)).collect()).collect();
    let script = "GlobalVars (\n  Goblin : object,\n)\nDeclareScript Start ( )\n(\n  IsEqual(1, 1)\n)\n(\n  \
                  Say(Goblin, \"Привет, Гипат!\")\n)\n";
    let doc = json!({
        "format": "ei-mob",
        "nodes": [
            {"type": "0x0000A000", "children": [
                {"type": "0x0000C000"},
                {"type": "0xACCEECCB", "script": {"key": 0x1F2E_3D4C, "text": script}},
                {"type": "0x0000FF01", "children": [{"type": "0x0000FF02", "children": [
                    {"type": "0x0000FF05", "dword": 0},
                    {"type": "0x0000FF06", "dword": 999_999}
                ]}]},
                {"type": "0xDDDDDDD1", "children": [
                    {"type": "0xDDDDDDD2", "diplomacy": diplomacy},
                    {"type": "0xDDDDDDD3", "strings": names}
                ]},
                {"type": "0x0000ABD0", "children": [
                    {"type": "0x0000ABD1", "plot": [1.0, 0.0, 0.0]},
                    {"type": "0x0000ABD2", "float": 0.5},
                    {"type": "0x0000ABD3", "float": 12.0}
                ]},
                {"type": "0x0000B000", "children": [
                    {"type": "0xBBBB0000", "children": [
                        {"type": "0xBBBB0002", "string": "Goblin Fighter"},
                        {"type": "0xBBBB0004", "unit_stats": stats},
                        {"type": "0xBBBB0008", "strings": ["Axe"]},
                        {"type": "0x0000B002", "dword": 1},
                        {"type": "0x0000B004", "string": "Goblin"},
                        {"type": "0x0000B009", "plot": [12.5, 30.25, 0.0]},
                        {"type": "0x0000B00A", "quaternion": [1.0, 0.0, 0.0, 0.0]},
                        {"type": "0x0000B011", "byte": 1}
                    ]},
                    {"type": "0x0000B001", "children": [
                        {"type": "0x0000B002", "dword": 2},
                        {"type": "0x0000B004", "string": "Бочка"},
                        {"type": "0x0000B009", "plot": [14.0, 31.0, 0.0]}
                    ]},
                    {"type": "0xBBAC0000", "children": [
                        {"type": "0x0000B002", "dword": 3},
                        {"type": "0xBBAC0006", "lever_stats": [5, 0, 40]}
                    ]},
                    {"type": "0xBBAB0000", "children": [
                        {"type": "0x0000B002", "dword": 4},
                        {"type": "0xBBAB0003", "areas": [{"x": 20.0, "y": 20.0, "r": 3.0}]},
                        {"type": "0xBBAB0004", "points": [[22.0, 21.0]]}
                    ]}
                ]},
                {"type": "0x0000AA01", "children": [
                    {"type": "0x0000AA02", "float": 6.0},
                    {"type": "0x0000AA04", "plot": [13.0, 30.0, 4.0]},
                    {"type": "0x0000AA07", "plot": [1.0, 0.8, 0.6]}
                ]}
            ]},
            {"type": "0x31415926", "hex": "0100000002000000"}
        ]
    });
    let doc: relic::evil_islands::mob::MobDocument = serde_json::from_value(doc).unwrap_or_else(|e| panic!("{e}"));
    relic::evil_islands::mob::write_document(&doc).unwrap_or_else(|e| panic!("{e}"))
}

#[allow(dead_code)]
fn main() {
    let root = Path::new("samples");
    for (path, bytes) in build() {
        let target = root.join(path);
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        }
        std::fs::write(&target, bytes).unwrap_or_else(|e| panic!("{}: {e}", target.display()));
        println!("wrote {}", target.display());
    }
}
