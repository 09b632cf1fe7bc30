//! BMP and TGA headers checked before anything is decoded or allocated: a BMP by its `BM` magic and a sane
//! info header; a TGA (no magic) by a header whose every field has a value the format defines.

use serde::{Deserialize, Serialize};

use super::FORMAT_ID;
use crate::error::{Error, Result};

/// Which of the two formats a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Container {
    Bmp,
    Tga,
}

/// What the header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Header {
    #[serde(rename = "type")]
    pub container: Container,
    pub width: u32,
    pub height: u32,
    pub bits_per_pixel: u16,
}

/// Info header sizes of the BMP variants (OS/2 1.x, Windows 3.x, the Adobe/OS/2 2.x sizes, v4, v5).
const BMP_INFO_SIZES: [u32; 7] = [12, 40, 52, 56, 64, 108, 124];
const BMP_FILE_HEADER: usize = 14;
const TGA_HEADER: usize = 18;

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    b.get(at..at + 2).and_then(|s| s.try_into().ok()).map(u16::from_le_bytes)
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4).and_then(|s| s.try_into().ok()).map(u32::from_le_bytes)
}

fn bad(field: &str, offset: u64, message: impl Into<String>) -> Error {
    Error::invalid(FORMAT_ID, field, offset, message)
}

/// A BMP header: `BM`, a known info header size, one plane, a known depth, pixels after the headers.
fn bmp(b: &[u8]) -> Result<Header> {
    let short = |field: &str, at: u64| bad(field, at, "the file ends inside the BMP header");
    let info_size = u32_at(b, 14).ok_or_else(|| short("info_size", 14))?;
    if !BMP_INFO_SIZES.contains(&info_size) {
        return Err(bad("info_size", 14, format!("{info_size} is not a BMP info header size")));
    }
    let pixel_offset = u32_at(b, 10).ok_or_else(|| short("pixel_offset", 10))?;
    if (pixel_offset as usize) < BMP_FILE_HEADER + info_size as usize {
        return Err(bad("pixel_offset", 10, format!("{pixel_offset} lies inside the headers")));
    }
    let (width, height, planes, bits, at) = if info_size == 12 {
        let w = u16_at(b, 18).ok_or_else(|| short("width", 18))?;
        let h = u16_at(b, 20).ok_or_else(|| short("height", 20))?;
        (i64::from(w), i64::from(h), u16_at(b, 22), u16_at(b, 24), (22, 24))
    } else {
        let w = u32_at(b, 18).ok_or_else(|| short("width", 18))? as i32;
        let h = u32_at(b, 22).ok_or_else(|| short("height", 22))? as i32;
        (i64::from(w), i64::from(h).abs(), u16_at(b, 26), u16_at(b, 28), (26, 28))
    };
    if planes != Some(1) {
        return Err(bad("planes", at.0, format!("{planes:?} planes; BMP has 1")));
    }
    let bits = bits.ok_or_else(|| short("bits_per_pixel", at.1))?;
    if ![1, 4, 8, 16, 24, 32].contains(&bits) {
        return Err(bad("bits_per_pixel", at.1, format!("{bits} is not a BMP depth")));
    }
    let width = u32::try_from(width).ok().filter(|&w| w > 0).ok_or_else(|| bad("width", 18, "not positive"))?;
    let height = u32::try_from(height).ok().filter(|&h| h > 0).ok_or_else(|| bad("height", 22, "zero"))?;
    Ok(Header { container: Container::Bmp, width, height, bits_per_pixel: bits })
}

/// A TGA header: a defined colour-map type, image type, map entry size and pixel depth, a non-empty size.
fn tga(b: &[u8]) -> Result<Header> {
    let head: &[u8; TGA_HEADER] = b
        .get(..TGA_HEADER)
        .and_then(|h| h.try_into().ok())
        .ok_or_else(|| bad("header", 0, "shorter than a TGA header (18 bytes)"))?;
    let (map_type, image_type, map_entry, depth) = (head[1], head[2], head[7], head[16]);
    if map_type > 1 {
        return Err(bad("color_map_type", 1, format!("{map_type}; TGA defines 0 and 1")));
    }
    if ![1, 2, 3, 9, 10, 11].contains(&image_type) {
        return Err(bad("image_type", 2, format!("{image_type} is not a TGA image type")));
    }
    if ![0, 15, 16, 24, 32].contains(&map_entry) {
        return Err(bad("color_map_entry_size", 7, format!("{map_entry} bits")));
    }
    if ![8, 15, 16, 24, 32].contains(&depth) {
        return Err(bad("pixel_depth", 16, format!("{depth} bits is not a TGA depth")));
    }
    let width = u16::from_le_bytes([head[12], head[13]]);
    let height = u16::from_le_bytes([head[14], head[15]]);
    if width == 0 || height == 0 {
        return Err(bad(if width == 0 { "width" } else { "height" }, if width == 0 { 12 } else { 14 }, "zero"));
    }
    Ok(Header { container: Container::Tga, width: width.into(), height: height.into(), bits_per_pixel: depth.into() })
}

/// The header of a BMP (by its magic) or else a TGA.
pub fn read(bytes: &[u8]) -> Result<Header> {
    if bytes.starts_with(b"BM") {
        return bmp(bytes);
    }
    tga(bytes).map_err(|e| match e {
        Error::InvalidData { at, message } => {
            Error::InvalidData { at, message: format!("neither a BMP (no `BM`) nor a TGA: {message}") }
        }
        other => other,
    })
}

/// Whether the first bytes are a TGA header (types, depths and a size TGA defines): TGA's only test.
pub fn is_tga(head: &[u8]) -> bool {
    !head.starts_with(b"BM") && tga(head).is_ok()
}

/// Whether the first bytes are a BMP header (the sniff; TGA has no magic and goes by its extension).
pub fn is_bmp(head: &[u8]) -> bool {
    head.starts_with(b"BM") && bmp(head).is_ok()
}
