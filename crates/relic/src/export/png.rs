//! PNG output for images: one PNG per frame (RGBA8, indexed with a PLTE/tRNS palette, or 16-bit greyscale
//! for height maps). An animation
//! (an image with a frame rate and at least two frames of one size) is also written as an animated PNG
//! (APNG, through the `png` crate's encoder): the APNG takes the image's own name and the frames are
//! numbered `.frame0`, `.frame1`, ….

//!
//! Speed: PNG encoding, not decoding the game's textures, is what bounds a batch conversion, so the default
//! compression is `fast` (the `png` crate's fdeflate path), frames and mip levels of one image are encoded
//! in parallel, and the row filter is chosen per image (see `filter_for`). `--compression default|best`
//! trades speed for smaller files (zlib through flate2).

use crate::parallel::prelude::*;

/// PNG text chunks, read in every build (`export/png_text.rs`, shared by both builds of `png`).
pub use super::png_text::{insert_text_chunks, text_chunks};
use super::Exported;
use crate::asset::{Frame, FrameRole, Image, Pixels};
use crate::error::{Error, Result};

pub use super::compression::PngCompression;

/// The `png` crate's level for a [`PngCompression`].
fn png_level(level: PngCompression) -> png::Compression {
    match level {
        PngCompression::Fast => png::Compression::Fast,
        PngCompression::Default => png::Compression::Default,
        PngCompression::Best => png::Compression::Best,
    }
}

/// The row filter for an image's frames. Palette indices and 16-bit heights predict badly from their
/// neighbours' bytes: no filter. Colour at `fast`: Paeth for every row (adaptive choice would filter each
/// row five times, which costs more than fdeflate itself). At `default` and `best`, the encoder picks the
/// best filter per row.
fn filter_for(pixels: &Pixels, level: PngCompression) -> (png::FilterType, png::AdaptiveFilterType) {
    match (pixels, level) {
        (Pixels::Indexed(_), _) => (png::FilterType::NoFilter, png::AdaptiveFilterType::NonAdaptive),
        (_, PngCompression::Fast) => (png::FilterType::Paeth, png::AdaptiveFilterType::NonAdaptive),
        _ => (png::FilterType::Paeth, png::AdaptiveFilterType::Adaptive),
    }
}

/// PNG files of an image at the default (fast) compression.
pub fn encode_image(img: &Image) -> Result<Vec<Exported>> {
    encode_image_with(img, PngCompression::default())
}

/// PNG files of an image: one per frame or mip level (encoded in parallel), plus an APNG for an animation.
pub fn encode_image_with(img: &Image, level: PngCompression) -> Result<Vec<Exported>> {
    if let Some(rate) = animation_rate(img) {
        let mut out = Vec::with_capacity(img.frames.len() + 1);
        out.push(Exported { suffix: String::new(), extension: "png", bytes: encode_apng(img, rate, level)? });
        let frames: Vec<Vec<u8>> =
            (0..img.frames.len()).into_par_iter().map(|i| encode_frame(img, i, level)).collect::<Result<_>>()?;
        for (i, bytes) in frames.into_iter().enumerate() {
            out.push(Exported { suffix: format!(".frame{i}"), extension: "png", bytes });
        }
        return Ok(out);
    }
    let single = img.frames.len() == 1;
    let mut out = Vec::with_capacity(img.frames.len());
    let mut frame_no = 0usize;
    for frame in &img.frames {
        // A mip level is always named by its level (`.mip0` too), so a chain of one keeps its name.
        let suffix = match (single, frame.role, &frame.name) {
            (_, FrameRole::Mip(level), _) => format!(".mip{level}"),
            (true, _, _) => String::new(),
            (_, FrameRole::Frame, Some(name)) => format!(".{name}"),
            (_, FrameRole::Frame, None) => {
                frame_no += 1;
                format!(".{}", frame_no - 1)
            }
        };
        out.push(Exported { suffix, extension: "png", bytes: Vec::new() });
    }
    let encoded: Vec<Vec<u8>> =
        (0..img.frames.len()).into_par_iter().map(|i| encode_frame(img, i, level)).collect::<Result<_>>()?;
    for (e, bytes) in out.iter_mut().zip(encoded) {
        e.bytes = bytes;
    }
    Ok(out)
}

/// Decodes a PNG (any colour type and depth) into one RGBA8 frame, for writing image formats from PNG.
pub fn decode_rgba(bytes: &[u8]) -> Result<Image> {
    let err = |e: png::DecodingError| Error::Refused(format!("PNG input: {e}"));
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8() | png::Transformations::ALPHA);
    // The size is checked from the header, before a single pixel is decoded or allocated (a 1.5 MB PNG can
    // declare 20000 × 20000 pixels).
    decoder.set_limits(png::Limits {
        bytes: usize::try_from(crate::limits::current().max_pixels * 8).unwrap_or(usize::MAX),
    });
    let mut reader = decoder.read_info().map_err(err)?;
    crate::limits::check_pixels("PNG input", reader.info().width, reader.info().height)?;
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).map_err(err)?;
    buf.truncate(info.buffer_size());
    let pixels = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::GrayscaleAlpha => buf.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect(),
        other => return Err(Error::Refused(format!("PNG input: unexpected colour type {other:?} after expansion"))),
    };
    Ok(Image {
        frames: vec![Frame {
            name: None,
            width: info.width,
            height: info.height,
            pixels: Pixels::Rgba8(pixels),
            offset: (0, 0),
            hotspots: vec![],
            role: FrameRole::Frame,
        }],
        palette: None,
        frame_rate: None,
        text: Vec::new(),
    })
}

/// Decodes an indexed PNG (colour type 3, any bit depth) to one frame of palette indices, one byte a pixel,
/// with its palette: the PLTE entries, each with its tRNS alpha (255 past the end of tRNS). `None` for a PNG
/// of another colour type, which [`decode_rgba`] reads. For formats whose pixels are palette indices: an
/// editor that keeps the palette (Aseprite, GIMP's indexed mode) saves the indices as they are.
pub fn decode_indexed(bytes: &[u8]) -> Result<Option<Image>> {
    let err = |e: png::DecodingError| Error::Refused(format!("PNG input: {e}"));
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::IDENTITY);
    decoder.set_limits(png::Limits {
        bytes: usize::try_from(crate::limits::current().max_pixels * 8).unwrap_or(usize::MAX),
    });
    let mut reader = decoder.read_info().map_err(err)?;
    let info = reader.info();
    if info.color_type != png::ColorType::Indexed {
        return Ok(None);
    }
    let (width, height) = (info.width, info.height);
    crate::limits::check_pixels("PNG input", width, height)?;
    let depth = info.bit_depth as usize;
    let trns = info.trns.as_deref().unwrap_or_default();
    let palette: Vec<[u8; 4]> = info
        .palette
        .as_deref()
        .unwrap_or_default()
        .chunks_exact(3)
        .enumerate()
        .map(|(k, c)| [c[0], c[1], c[2], trns.get(k).copied().unwrap_or(255)])
        .collect();
    let mut buf = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut buf).map_err(err)?;
    buf.truncate(frame.buffer_size());
    let indices = if depth == 8 {
        buf
    } else {
        // 1, 2 and 4 bits a pixel: packed from the high bits, each row starting on a byte.
        let (w, line) = (width as usize, frame.line_size.max(1));
        let mask = (1u8 << depth) - 1;
        let mut out = Vec::with_capacity(w * height as usize);
        for row in buf.chunks(line).take(height as usize) {
            for x in 0..w {
                let bit = x * depth;
                let byte = row.get(bit / 8).copied().unwrap_or(0);
                out.push((byte >> (8 - depth - bit % 8)) & mask);
            }
        }
        out
    };
    Ok(Some(Image {
        frames: vec![Frame {
            name: None,
            width,
            height,
            pixels: Pixels::Indexed(indices),
            offset: (0, 0),
            hotspots: vec![],
            role: FrameRole::Frame,
        }],
        palette: Some(palette),
        frame_rate: None,
        text: Vec::new(),
    }))
}

/// The frame rate of an image that is written as an APNG: a positive rate, two frames or more, all plain
/// frames (no mip levels) of the first frame's size and pixel kind.
fn animation_rate(img: &Image) -> Option<f32> {
    let rate = img.frame_rate.filter(|r| r.is_finite() && *r > 0.0)?;
    let (first, rest) = img.frames.split_first()?;
    let same = |f: &Frame| {
        f.role == FrameRole::Frame
            && (f.width, f.height) == (first.width, first.height)
            && matches!(
                (&f.pixels, &first.pixels),
                (Pixels::Rgba8(_), Pixels::Rgba8(_))
                    | (Pixels::Indexed(_), Pixels::Indexed(_))
                    | (Pixels::Gray16(_), Pixels::Gray16(_))
            )
    };
    (!rest.is_empty() && same(first) && rest.iter().all(same)).then_some(rate)
}

/// An APNG frame delay `numerator / denominator` seconds for a rate in frames per second: exact for whole
/// rates, else in milliseconds.
pub fn frame_delay(rate: f32) -> (u16, u16) {
    if rate.fract() == 0.0 && (1.0..=65535.0).contains(&rate) {
        (1, rate as u16)
    } else {
        ((1000.0 / rate).round().clamp(1.0, 65535.0) as u16, 1000)
    }
}

fn encode_apng(img: &Image, rate: f32, level: PngCompression) -> Result<Vec<u8>> {
    let err = |e: png::EncodingError| Error::Unsupported(format!("APNG output: {e}"));
    let first = img.frames.first().ok_or_else(|| Error::Unsupported("no frames".into()))?;
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, first.width, first.height);
        enc.set_compression(png_level(level));
        let (filter, adaptive) = filter_for(&first.pixels, level);
        enc.set_filter(filter);
        enc.set_adaptive_filter(adaptive);
        set_colour(&mut enc, img, &first.pixels)?;
        add_text(&mut enc, img)?;
        let frames = u32::try_from(img.frames.len()).map_err(|_| Error::Unsupported("too many frames".into()))?;
        enc.set_animated(frames, 0).map_err(err)?; // 0 plays: loop for ever
        let (num, den) = frame_delay(rate);
        enc.set_frame_delay(num, den).map_err(err)?;
        let mut w = enc.write_header().map_err(err)?;
        for frame in &img.frames {
            w.write_image_data(&sample_bytes(&frame.pixels)).map_err(err)?;
        }
        w.finish().map_err(err)?;
    }
    Ok(bytes)
}

fn frame_bytes(pixels: &Pixels) -> usize {
    match pixels {
        Pixels::Rgba8(data) | Pixels::Indexed(data) => data.len(),
        Pixels::Gray16(levels) => levels.len() * 2,
    }
}

/// The pixels as PNG sample bytes: 8-bit samples as they are, 16-bit ones big-endian (PNG's byte order).
fn sample_bytes(pixels: &Pixels) -> std::borrow::Cow<'_, [u8]> {
    match pixels {
        Pixels::Rgba8(data) | Pixels::Indexed(data) => std::borrow::Cow::Borrowed(data),
        Pixels::Gray16(levels) => std::borrow::Cow::Owned(levels.iter().flat_map(|v| v.to_be_bytes()).collect()),
    }
}

/// The image's text, as `tEXt` chunks before the pixels.
fn add_text<W: std::io::Write>(enc: &mut png::Encoder<'_, W>, img: &Image) -> Result<()> {
    for (keyword, text) in &img.text {
        enc.add_text_chunk(keyword.clone(), text.clone())
            .map_err(|e| Error::Unsupported(format!("PNG output: text `{keyword}`: {e}")))?;
    }
    Ok(())
}

/// Sets the colour type and bit depth (and the palette of indexed pixels) for frames of this kind.
fn set_colour<W: std::io::Write>(enc: &mut png::Encoder<'_, W>, img: &Image, pixels: &Pixels) -> Result<()> {
    enc.set_depth(png::BitDepth::Eight);
    match pixels {
        Pixels::Rgba8(_) => enc.set_color(png::ColorType::Rgba),
        Pixels::Gray16(_) => {
            enc.set_color(png::ColorType::Grayscale);
            enc.set_depth(png::BitDepth::Sixteen);
        }
        Pixels::Indexed(_) => {
            let pal =
                img.palette.as_deref().ok_or_else(|| Error::Unsupported("indexed frame without palette".into()))?;
            enc.set_color(png::ColorType::Indexed);
            enc.set_palette(pal.iter().flat_map(|c| [c[0], c[1], c[2]]).collect::<Vec<u8>>());
            enc.set_trns(pal.iter().map(|c| c[3]).collect::<Vec<u8>>());
        }
    }
    Ok(())
}

fn encode_frame(img: &Image, index: usize, level: PngCompression) -> Result<Vec<u8>> {
    let frame = img.frames.get(index).ok_or_else(|| Error::Unsupported("no such frame".into()))?;
    let err = |e: png::EncodingError| Error::Unsupported(format!("PNG output: {e}"));
    // One allocation in the common case: room for the pixels at a 2:1 ratio plus the chunks around them.
    let mut bytes = Vec::with_capacity(frame_bytes(&frame.pixels) / 2 + 1024);
    {
        let mut enc = png::Encoder::new(&mut bytes, frame.width, frame.height);
        enc.set_compression(png_level(level));
        let (filter, adaptive) = filter_for(&frame.pixels, level);
        enc.set_filter(filter);
        enc.set_adaptive_filter(adaptive);
        set_colour(&mut enc, img, &frame.pixels)?;
        add_text(&mut enc, img)?;
        let mut w = enc.write_header().map_err(err)?;
        w.write_image_data(&sample_bytes(&frame.pixels)).map_err(err)?;
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_round_trips_pixels() {
        let px = vec![255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 1, 2, 3, 4];
        let img = Image {
            frames: vec![Frame {
                name: None,
                width: 2,
                height: 2,
                pixels: Pixels::Rgba8(px.clone()),
                offset: (0, 0),
                hotspots: vec![],
                role: FrameRole::Frame,
            }],
            palette: None,
            frame_rate: None,
            text: Vec::new(),
        };
        let out = encode_image(&img).unwrap();
        assert_eq!(out.len(), 1);
        let dec = png::Decoder::new(std::io::Cursor::new(&out[0].bytes));
        let mut reader = dec.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (2, 2));
        assert_eq!(&buf[..16], &px[..]);
        let back = decode_rgba(&out[0].bytes).unwrap();
        assert_eq!(back.frames[0].pixels, Pixels::Rgba8(px));
    }

    fn frame(w: u32, h: u32, px: Vec<u8>) -> Frame {
        Frame {
            name: None,
            width: w,
            height: h,
            pixels: Pixels::Rgba8(px),
            offset: (0, 0),
            hotspots: vec![],
            role: FrameRole::Frame,
        }
    }

    /// One decoded APNG frame: delay numerator, denominator, RGBA pixels.
    type ApngFrame = (u16, u16, Vec<u8>);

    /// Decodes every frame of an APNG: (num_frames, num_plays, frames).
    fn decode_apng(bytes: &[u8]) -> (u32, u32, Vec<ApngFrame>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().unwrap();
        let actl = reader.info().animation_control.expect("an acTL chunk");
        let mut frames = Vec::new();
        for _ in 0..actl.num_frames {
            let mut buf = vec![0; reader.output_buffer_size()];
            let info = reader.next_frame(&mut buf).unwrap();
            buf.truncate(info.buffer_size());
            let fctl = reader.info().frame_control.expect("an fcTL chunk");
            frames.push((fctl.delay_num, fctl.delay_den, buf));
        }
        (actl.num_frames, actl.num_plays, frames)
    }

    #[test]
    fn animations_become_an_apng_plus_numbered_frames() {
        let a = vec![255, 0, 0, 255, 0, 0, 0, 0];
        let b = vec![0, 255, 0, 128, 1, 2, 3, 4];
        let c = vec![9, 9, 9, 9, 0, 0, 255, 255];
        let img = Image {
            frames: vec![frame(2, 1, a.clone()), frame(2, 1, b.clone()), frame(2, 1, c.clone())],
            palette: None,
            frame_rate: Some(12.0),
            text: Vec::new(),
        };
        let out = encode_image(&img).unwrap();
        let suffixes: Vec<&str> = out.iter().map(|e| e.suffix.as_str()).collect();
        assert_eq!(suffixes, ["", ".frame0", ".frame1", ".frame2"]);
        let (n, plays, frames) = decode_apng(&out[0].bytes);
        assert_eq!((n, plays), (3, 0));
        assert_eq!(frames, vec![(1, 12, a.clone()), (1, 12, b), (1, 12, c)]);
        // The single frames are plain PNGs.
        assert_eq!(decode_rgba(&out[1].bytes).unwrap().frames[0].pixels, Pixels::Rgba8(a));
        let plain = png::Decoder::new(std::io::Cursor::new(&out[1].bytes)).read_info().unwrap();
        assert!(plain.info().animation_control.is_none());
    }

    #[test]
    fn no_apng_without_a_rate_or_with_frames_of_different_sizes() {
        let two = |rate, w2| Image {
            frames: vec![frame(1, 1, vec![1, 2, 3, 4]), frame(w2, 1, vec![5; 4 * w2 as usize])],
            palette: None,
            frame_rate: rate,
            text: Vec::new(),
        };
        for img in [two(None, 1), two(Some(10.0), 2), two(Some(0.0), 1), two(Some(f32::NAN), 1)] {
            let out = encode_image(&img).unwrap();
            let suffixes: Vec<&str> = out.iter().map(|e| e.suffix.as_str()).collect();
            assert_eq!(suffixes, [".0", ".1"], "{:?}", img.frame_rate);
        }
        let one = Image {
            frames: vec![frame(1, 1, vec![1, 2, 3, 4])],
            palette: None,
            frame_rate: Some(5.0),
            text: Vec::new(),
        };
        assert_eq!(encode_image(&one).unwrap().len(), 1);
    }

    #[test]
    fn gray16_frames_are_16_bit_greyscale_pngs() {
        let levels = vec![0u16, 1, 0x1234, 65535, 32768, 258];
        let img = Image {
            frames: vec![Frame {
                name: None,
                width: 3,
                height: 2,
                pixels: Pixels::Gray16(levels.clone()),
                offset: (0, 0),
                hotspots: vec![],
                role: FrameRole::Frame,
            }],
            palette: None,
            frame_rate: None,
            text: Vec::new(),
        };
        let out = encode_image(&img).unwrap();
        let mut reader = png::Decoder::new(std::io::Cursor::new(&out[0].bytes)).read_info().unwrap();
        assert_eq!(reader.info().color_type, png::ColorType::Grayscale);
        assert_eq!(reader.info().bit_depth, png::BitDepth::Sixteen);
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (3, 2));
        let back: Vec<u16> = buf[..12].chunks_exact(2).map(|b| u16::from_be_bytes([b[0], b[1]])).collect();
        assert_eq!(back, levels);
    }

    #[test]
    fn frame_delays() {
        assert_eq!(frame_delay(15.0), (1, 15));
        assert_eq!(frame_delay(12.5), (80, 1000));
        assert_eq!(frame_delay(0.25), (4000, 1000));
        assert_eq!(frame_delay(1e-9), (65535, 1000));
    }
}
