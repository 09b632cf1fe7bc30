//! Texture throughput, for `bench/run.py` and `BENCHMARKS.md`: decoding alone, PNG encoding alone and
//! both, in megapixels a second over all cores (rayon over files):
//! - DXT1 and ARGB8 MMP textures with their mip levels, at each PNG compression (`dxt1`, `argb8`);
//! - every image format relic reads, through the registry as `relic convert` runs it, at the default
//!   (fast) compression (`formats`): every MMP pixel format, Drakan texture records in an SRSC (8-bit with
//!   a palette, 16- and 24-bit), Dark Reign RSPR sprites, FreeRCT 8PXL and 32PX pixel blocks.
//!
//! `cargo run --release -p relic --example image_throughput -- [FILES] [SIZE]` prints one JSON object.
//! The images are made here (smooth gradients with noise, as game art is: neither flat nor random) and
//! written by relic's writers; nothing is read from disk, so the figures are the codecs alone.

use std::time::Instant;

use rayon::prelude::*;
use relic::evil_islands::mmp::{self, PixelFormat};
use relic::export::png::{encode_image_with, PngCompression};

/// A `w` × `h` RGBA picture: smooth gradients with a little noise.
fn picture(w: u32, h: u32, seed: u32) -> Vec<u8> {
    let mut state = seed.wrapping_mul(2_654_435_761).max(1);
    let mut noise = || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        (state & 31) as i32 - 16
    };
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let base = [(x * 255 / w) as i32, (y * 255 / h) as i32, ((x + y) * 127 / (w + h) * 2) as i32];
            for c in base {
                rgba.push((c + noise()).clamp(0, 255) as u8);
            }
            rgba.push(255);
        }
    }
    rgba
}

/// Palette indices 1..=255 of a picture (a gradient, as a palette's ramps are drawn).
fn indices(rgba: &[u8]) -> Vec<u8> {
    rgba.chunks_exact(4).map(|p| 1 + ((u16::from(p[0]) + u16::from(p[1]) + u16::from(p[2])) / 3 % 255) as u8).collect()
}

/// An MMP texture with its mip levels (PNT3 has none: its count field holds the packed size).
fn texture(size: u32, seed: u32, format: PixelFormat) -> Vec<u8> {
    let mips = format != PixelFormat::Pnt3;
    mmp::encode(&picture(size, size, seed), size, size, format, mips).unwrap_or_else(|e| panic!("{e}"))
}

/// A Drakan SRSC holding a palette and four `size` × `size` texture records at `bpp` (8, 16 or 24).
fn drakan_srsc(size: u32, seed: u32, bpp: u16) -> Vec<u8> {
    use relic::drakan::records::common::Flags;
    use relic::drakan::records::palette::{self, Palette};
    use relic::drakan::records::texture::{self, Texture, NO_COLOUR_KEY};
    use relic::drakan::records::Ref;
    use relic::drakan::srsc::{write_packed, NewRecord};
    let colors = (0..256u32).map(|i| [i as u8, (255 - i) as u8, (i / 2) as u8, 0]).collect();
    let mut records = vec![NewRecord {
        record_type: 0x0030,
        id: 1,
        group: 0,
        body: palette::write(&Palette { colors, trailing: relic::bytes::Hex(vec![]) }),
    }];
    for k in 0..4u16 {
        let rgba = picture(size, size, seed * 4 + u32::from(k));
        // Rows are stored bottom-up; the pixels' order does not matter to the throughput.
        let data: Vec<u8> = match bpp {
            8 => indices(&rgba),
            16 => rgba
                .chunks_exact(4)
                .flat_map(|p| {
                    (u16::from(p[0] >> 3) << 11 | u16::from(p[1] >> 2) << 5 | u16::from(p[2] >> 3)).to_le_bytes()
                })
                .collect(),
            _ => rgba.chunks_exact(4).flat_map(|p| [p[2], p[1], p[0]]).collect(),
        };
        let body = texture::write(&Texture {
            width: size,
            height: size,
            pitch: size * u32::from(bpp) / 8,
            bits_per_pixel: bpp,
            alpha_bits: 0,
            colour_key: NO_COLOUR_KEY,
            mip_map: Ref::default(),
            alternate: Ref::default(),
            bump_map: Ref::default(),
            animation_fps: 0,
            flags: Flags::new(0),
            mip_map_number: 0,
            material: Ref::default(),
            ref_count: 0,
            compression_level: 0,
            compressed_size: data.len() as u32,
            data: relic::bytes::Base64(data),
            alpha_map: None,
            trailing: relic::bytes::Hex(vec![]),
            data_offset: 0,
        });
        records.push(NewRecord { record_type: 0x0040, id: 2 + k, group: 0, body });
    }
    write_packed(0x0100, &records).unwrap_or_else(|e| panic!("{e}"))
}

/// A Dark Reign RSPR of 16 pictures, each `size / 4` × `size / 4` (drawn with the greyscale ramp relic uses
/// when no palette is given: the palette does not change the work).
fn dark_reign_spr(size: u32, seed: u32) -> Vec<u8> {
    use relic::bytes::Base64;
    use relic::dark_reign::spr::{self, HotspotRecord, Magic, Picture, Section, SprDocument};
    let side = (size / 4) as i32;
    let pictures: Vec<Picture> = (0..16)
        .map(|k| {
            // Sprites have transparent surroundings: a disc of colour in each picture.
            let mut pixels = indices(&picture(side as u32, side as u32, seed * 16 + k));
            for (i, p) in pixels.iter_mut().enumerate() {
                let (x, y) = ((i as i32 % side) - side / 2, (i as i32 / side) - side / 2);
                if x * x + y * y > side * side / 4 {
                    *p = 0;
                }
            }
            Picture { hotspot_index: 0, pixels: Some(Base64(pixels)), runs: None }
        })
        .collect();
    let doc = SprDocument {
        format: spr::FORMAT_ID.into(),
        magic: Magic::Rspr,
        version: 0x0210,
        anims: 4,
        rotations: 4,
        width: side,
        height: side,
        picture_of_frames: (0..16).collect(),
        sections: vec![Section { first_anim: 0, last_anim: 3, rate: 32768, hotspots: 1 }],
        anim_sections: vec![0; 4],
        pictures,
        layout: None,
        hotspots: vec![HotspotRecord { x: 0, y: 0, flag: 0 }],
        trailing: None,
    };
    spr::write_document(&doc).unwrap_or_else(|e| panic!("{e}"))
}

/// A FreeRCT RCD (version 2) of four pixel blocks, each `size / 2` × `size / 2`: 8PXL (FreeRCT's palette) or
/// 32PX.
fn freerct_rcd(size: u32, seed: u32, eight_bit: bool) -> Vec<u8> {
    use relic::freerct::rcd::pixels::{encode_32bpp, encode_8bpp, Planes32};
    use relic::freerct::rcd::types::{Block, Body, Rcd};
    let side = (size / 2) as u16;
    let blocks = (0..4)
        .map(|k| {
            let rgba = picture(u32::from(side), u32::from(side), seed * 4 + k);
            let n = rgba.len() / 4;
            let (magic, version, body) = if eight_bit {
                let data = encode_8bpp(side, side, &indices(&rgba));
                (*b"8PXL", 2, Body::Pixels8 { width: side, height: side, offset: Some((0, 0)), data: data.into() })
            } else {
                let planes = Planes32 { rgba, layer: vec![0; n], intensity: vec![0; n], recolour: vec![false; n] };
                let data = encode_32bpp(side, side, &planes);
                (*b"32PX", 1, Body::Pixels32 { width: side, height: side, offset: (0, 0), data: data.into() })
            };
            Block { magic, version, body }
        })
        .collect();
    relic::freerct::rcd::write(&Rcd { version: 2, blocks }).unwrap_or_else(|e| panic!("{e}"))
}

/// Throughput of one image format as `relic convert` runs it (registry lookup by name, then the format's
/// conversion, then PNG at the default compression): (megapixels, decode, encode, whole) in MPix/s.
fn through_registry(name: &str, inputs: &[Vec<u8>]) -> (f64, f64, f64, f64) {
    use relic::asset::Asset;
    let format = relic::registry::sniff(inputs.first().map_or(&[][..], |b| &b[..64.min(b.len())]), name)
        .unwrap_or_else(|| panic!("{name}: no format"))
        .0;
    let codec = format.for_name(name);
    let opts = relic::registry::ConvertOptions::default();
    let decode = |bytes: &Vec<u8>| -> Vec<relic::asset::Image> {
        let assets =
            codec.convert(&relic::registry::ConvertInput::new(bytes, &opts)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assets.into_iter().filter_map(|a| if let Asset::Image(i) = a.asset { Some(i) } else { None }).collect()
    };
    let encode = |image: &relic::asset::Image| {
        encode_image_with(image, PngCompression::Fast).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let images: Vec<Vec<relic::asset::Image>> = inputs.par_iter().map(decode).collect();
    let pixels: u64 =
        images.iter().flatten().flat_map(|i| &i.frames).map(|f| u64::from(f.width) * u64::from(f.height)).sum();
    assert!(pixels > 0, "{name}: no pixels");
    let mpix = |secs: f64| pixels as f64 / secs / 1e6;
    let t_decode = median(5, || {
        let _: Vec<_> = inputs.par_iter().map(decode).collect();
    });
    let t_encode = median(5, || {
        let _: Vec<_> = images.par_iter().flatten().map(encode).collect();
    });
    let t_whole = median(5, || {
        let _: Vec<Vec<_>> = inputs.par_iter().map(|b| decode(b).iter().map(encode).collect()).collect();
    });
    (pixels as f64 / 1e6, mpix(t_decode), mpix(t_encode), mpix(t_whole))
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
    let mut formats = Vec::new();
    let mut case = |label: &str, name: &str, make: &(dyn Fn(u32) -> Vec<u8> + Sync)| {
        let inputs: Vec<Vec<u8>> = (0..files).into_par_iter().map(|i| make(i + 1)).collect();
        let (megapixels, decode, encode, whole) = through_registry(name, &inputs);
        formats.push(serde_json::json!({
            "format": label, "megapixels": megapixels,
            "decode_mpix_s": decode, "encode_fast_mpix_s": encode, "whole_fast_mpix_s": whole,
        }));
    };
    for format in PixelFormat::ALL {
        case(&format!("MMP {format:?}"), "t.mmp", &|i| texture(size, i, format));
    }
    for bpp in [8, 16, 24] {
        case(&format!("Drakan texture, {bpp}-bit"), "t.txd", &|i| drakan_srsc(size, i, bpp));
    }
    case("Dark Reign RSPR", "t.spr", &|i| dark_reign_spr(size, i));
    case("FreeRCT 8PXL", "t.rcd", &|i| freerct_rcd(size, i, true));
    case("FreeRCT 32PX", "t.rcd", &|i| freerct_rcd(size, i, false));
    report.insert("formats".into(), formats.into());
    println!("{}", serde_json::Value::Object(report));
}
