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
    vec![
        ("evil_islands/example.res", archive),
        // Distinct stems: each converts to its own `<stem>.json` / `<stem>.ini` in the same folder.
        ("evil_islands/settings.reg", reg()),
        ("evil_islands/intro.cam", cam()),
        ("evil_islands/unhuma.adb", adb()),
    ]
}

/// A settings file with every value type, written from typed INI by relic's REG writer.
fn reg() -> Vec<u8> {
    let ini = "[Game]\n\
               Difficulty = 2\n\
               Gamma = 1.25\n\
               Player = \"Зак\"\n\
               Resolution = [1024, 768]\n\
               Громкость = 0.8\n\
               \n\
               [Camera]\n\
               Speeds = [0.5, 1.0, 2.0]\n\
               Presets = [\"near\", \"far\"]\n\
               Bookmarks = int[]\n";
    let content = relic::evil_islands::reg::ini::parse(ini).unwrap_or_else(|e| panic!("{e}"));
    relic::evil_islands::reg::write_content(&content).unwrap_or_else(|e| panic!("{e}"))
}

/// A camera path: four keys around a circle, turning a quarter turn each, 500 ticks apart (exact
/// constants, so the bytes are the same on every platform).
fn cam() -> Vec<u8> {
    use relic::codec::float::F32;
    use relic::evil_islands::cam::{Cam, Quat, Record, Vec3};
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let keys = [((40.0, 0.0), (1.0, 0.0)), ((0.0, 40.0), (s, s)), ((-40.0, 0.0), (0.0, 1.0)), ((0.0, -40.0), (-s, s))];
    let records = keys
        .iter()
        .zip(0u32..)
        .map(|(&((x, y), (w, z)), i)| Record {
            time: i * 500,
            unk_0x04: i,
            position: Vec3 { x: F32::new(x), y: F32::new(y), z: F32::new(12.0) },
            rotation: Quat { w: F32::new(w), x: F32::new(0.0), y: F32::new(0.0), z: F32::new(z) },
        })
        .collect();
    relic::evil_islands::cam::write(&Cam { records }).unwrap_or_else(|e| panic!("{e}"))
}

/// An animation database for a human unit: three animations with their packed flags.
fn adb() -> Vec<u8> {
    use relic::codec::float::F32;
    use relic::evil_islands::adb::{Adb, Additionals, Animation, Hex64};
    let anim = |name: &str, number: u32, additionals: Additionals, length: u32, speed: f32| Animation {
        name: name.into(),
        name_tail: None,
        number,
        additionals,
        action_probability: 100,
        animation_length: length,
        movement_speed: F32::new(speed),
        start_show_hide1: 0,
        start_show_hide2: 0,
        start_step_sound1: 3,
        start_step_sound2: 9,
        start_step_sound3: 0,
        start_step_sound4: 0,
        start_hit_frame: length / 2,
        start_special_sound: 0,
        spec_sound_id1: 0,
        spec_sound_id2: 0,
        spec_sound_id3: 0,
        spec_sound_id4: 0,
    };
    let flags = |weapons, action_type, stage, forms| Additionals {
        weapons,
        allowed_states: 1,
        action_type,
        action_modifyer: 0,
        animation_stage: stage,
        action_forms: forms,
        other_bits: Hex64(0),
    };
    let adb = Adb {
        unit_name: "unhuma".into(),
        unit_name_tail: None,
        min_height: F32::new(0.4),
        mid_height: F32::new(1.1),
        max_height: F32::new(1.8),
        animations: vec![
            anim("idle1", 0, flags(0x7F, 6, 2, 0), 40, 0.0),
            anim("walk", 1, flags(0x7F, 5, 2, 2), 24, 1.5),
            anim("attack1", 2, flags(0x01, 2, 0, 4), 30, 0.0),
        ],
        trailing: None,
    };
    relic::evil_islands::adb::write(&adb).unwrap_or_else(|e| panic!("{e}"))
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
