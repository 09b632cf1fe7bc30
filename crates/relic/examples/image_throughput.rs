//! Texture throughput, for `bench/run.py` and `BENCHMARKS.md`: decoding alone, PNG encoding alone and
//! both, in megapixels a second over all cores (rayon over files), for DXT1 and ARGB8 MMP textures with
//! their mip levels, at each PNG compression.
//!
//! `cargo run --release -p relic --example image_throughput -- [FILES] [SIZE]` prints one JSON object.
//! The textures are made here (smooth gradients with noise, as game textures are: neither flat nor random)
//! and encoded by relic's MMP writer; nothing is read from disk, so the figures are the codecs alone.

use std::time::Instant;

use rayon::prelude::*;
use relic::evil_islands::mmp::{self, PixelFormat};
use relic::export::png::{encode_image_with, PngCompression};

fn texture(size: u32, seed: u32, format: PixelFormat) -> Vec<u8> {
    let mut state = seed.wrapping_mul(2_654_435_761).max(1);
    let mut noise = || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        (state & 31) as i32 - 16
    };
    let mut rgba = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            let base = [(x * 255 / size) as i32, (y * 255 / size) as i32, ((x + y) * 127 / size) as i32];
            for c in base {
                rgba.push((c + noise()).clamp(0, 255) as u8);
            }
            rgba.push(255);
        }
    }
    mmp::encode(&rgba, size, size, format, true).unwrap_or_else(|e| panic!("{e}"))
}

/// Median of `runs` timings of `f`, in seconds.
fn median(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let files: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(32);
    let size: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(512);
    let mut report = serde_json::Map::new();
    report.insert("threads".into(), rayon::current_num_threads().into());
    report.insert("files".into(), files.into());
    report.insert("size".into(), size.into());
    for format in [PixelFormat::Dxt1, PixelFormat::Argb8] {
        let inputs: Vec<Vec<u8>> = (0..files).into_par_iter().map(|i| texture(size, i + 1, format)).collect();
        let decode =
            |bytes: &Vec<u8>| mmp::convert::to_image(&mmp::parse(bytes).expect("parses"), true).expect("decodes");
        let images: Vec<relic::asset::Image> = inputs.par_iter().map(decode).collect();
        let pixels: u64 = images.iter().flat_map(|i| &i.frames).map(|f| u64::from(f.width) * u64::from(f.height)).sum();
        let mpix = |secs: f64| pixels as f64 / secs / 1e6;
        let mut row = serde_json::Map::new();
        row.insert("megapixels".into(), (pixels as f64 / 1e6).into());
        let t = median(5, || {
            let _: Vec<_> = inputs.par_iter().map(decode).collect();
        });
        row.insert("decode_mpix_s".into(), mpix(t).into());
        for level in [PngCompression::Fast, PngCompression::Default, PngCompression::Best] {
            let encode = |image: &relic::asset::Image| encode_image_with(image, level).expect("encodes");
            let t = median(5, || {
                let _: Vec<_> = images.par_iter().map(encode).collect();
            });
            let bytes: usize = images.par_iter().map(encode).flatten().map(|e| e.bytes.len()).sum();
            let whole = median(5, || {
                let _: Vec<_> = inputs.par_iter().map(|b| encode(&decode(b))).collect();
            });
            let name = format!("{level:?}").to_lowercase();
            row.insert(format!("encode_{name}_mpix_s"), mpix(t).into());
            row.insert(format!("whole_{name}_mpix_s"), mpix(whole).into());
            row.insert(format!("png_{name}_bytes"), bytes.into());
        }
        report.insert(format!("{format:?}").to_lowercase(), row.into());
    }
    println!("{}", serde_json::Value::Object(report));
}
