//! Writes `samples/`: small files of every format relic supports, made by relic's own writers, so that the
//! README's main command (`relic convert -o out samples`) works on a fresh clone.
//!
//! Run from the repository root: `cargo run -p relic --example make_samples`. The test
//! `samples_match_generator` checks that the committed files are what this program writes.

use std::path::Path;

use relic::evil_islands::mmp::PixelFormat;
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
        ("evil_islands/example_dxt1.mmp", texture(16, PixelFormat::Dxt1, true)),
        ("evil_islands/example_argb4.mmp", texture(8, PixelFormat::Argb4, false)),
    ]
}

/// A `size × size` texture: a lit disc on a gradient, transparent in the corners.
fn texture(size: u32, format: PixelFormat, mips: bool) -> Vec<u8> {
    let c = (size as f32 - 1.0) / 2.0;
    let mut rgba = Vec::new();
    for y in 0..size {
        for x in 0..size {
            let d = ((x as f32 - c).powi(2) + (y as f32 - c).powi(2)).sqrt() / c;
            let shade = (255.0 * (1.0 - d * 0.6)).clamp(0.0, 255.0) as u8;
            let alpha = if d > 1.2 { 0 } else { 255 };
            rgba.extend([shade, (x * 255 / size) as u8, (y * 255 / size) as u8, alpha]);
        }
    }
    relic::evil_islands::mmp::encode(&rgba, size, size, format, mips).unwrap_or_else(|e| panic!("{e}"))
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
