//! PNG output for images: one PNG per frame (RGBA8, or indexed with a PLTE/tRNS palette).

use super::Exported;
use crate::asset::{Frame, FrameRole, Image, Pixels};
use crate::error::{Error, Result};

pub fn encode_image(img: &Image) -> Result<Vec<Exported>> {
    let single = img.frames.len() == 1;
    let mut out = Vec::with_capacity(img.frames.len());
    let mut frame_no = 0usize;
    for (i, frame) in img.frames.iter().enumerate() {
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
        let bytes = encode_frame(img, i)?;
        out.push(Exported { suffix, extension: "png", bytes });
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
    })
}

fn encode_frame(img: &Image, index: usize) -> Result<Vec<u8>> {
    let frame = img.frames.get(index).ok_or_else(|| Error::Unsupported("no such frame".into()))?;
    let err = |e: png::EncodingError| Error::Unsupported(format!("PNG output: {e}"));
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, frame.width, frame.height);
        enc.set_compression(png::Compression::Fast);
        let data: &[u8] = match &frame.pixels {
            Pixels::Rgba8(px) => {
                enc.set_color(png::ColorType::Rgba);
                px
            }
            Pixels::Indexed(px) => {
                let pal =
                    img.palette.as_deref().ok_or_else(|| Error::Unsupported("indexed frame without palette".into()))?;
                enc.set_color(png::ColorType::Indexed);
                enc.set_palette(pal.iter().flat_map(|c| [c[0], c[1], c[2]]).collect::<Vec<u8>>());
                enc.set_trns(pal.iter().map(|c| c[3]).collect::<Vec<u8>>());
                px
            }
        };
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().map_err(err)?;
        w.write_image_data(data).map_err(err)?;
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
}
