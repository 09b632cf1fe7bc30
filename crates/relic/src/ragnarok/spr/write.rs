//! Writing an SPR file. Every count and size must fit its 16-bit field; a 2.1 palette frame is written
//! with the RLE it was read with while that still decodes to its indices, else encoded afresh.

use crate::error::{Error, Result};

use super::rle;
use super::types::*;
use super::FORMAT_ID;

fn refuse(message: String) -> Error {
    Error::Refused(format!("{FORMAT_ID}: {message}"))
}

fn count16(n: usize, what: &str) -> Result<u16> {
    u16::try_from(n).map_err(|_| refuse(format!("{n} {what} do not fit the 16-bit count (at most 65535)")))
}

/// The bytes of `spr` (see [`Spr::to_bytes`]).
pub fn write(spr: &Spr) -> Result<Vec<u8>> {
    let v = spr.version;
    if !v.has_rgba() && !spr.rgba_frames.is_empty() {
        return Err(refuse(format!("version {} has no RGBA frames (2.0 and later do)", v.text())));
    }
    if v.has_palette() != spr.palette.is_some() {
        let has = if v.has_palette() { "ends with a palette" } else { "has no palette" };
        return Err(refuse(format!("a version {} file {has}", v.text())));
    }
    let mut out = Vec::new();
    out.extend_from_slice(b"SP");
    out.extend_from_slice(&[v.minor, v.major]);
    out.extend_from_slice(&count16(spr.palette_frames.len(), "palette frames")?.to_le_bytes());
    if v.has_rgba() {
        out.extend_from_slice(&count16(spr.rgba_frames.len(), "RGBA frames")?.to_le_bytes());
    }
    for (i, f) in spr.palette_frames.iter().enumerate() {
        let pixels = usize::from(f.width) * usize::from(f.height);
        if f.indices.len() != pixels {
            return Err(refuse(format!(
                "palette frame {i} is {}×{} but has {} pixels",
                f.width,
                f.height,
                f.indices.len()
            )));
        }
        out.extend_from_slice(&f.width.to_le_bytes());
        out.extend_from_slice(&f.height.to_le_bytes());
        if v.has_rle() {
            let kept =
                f.rle.as_ref().filter(|stored| rle::decode(stored, pixels, i, 0).ok().as_ref() == Some(&f.indices));
            let encoded;
            let data = match kept {
                Some(stored) => stored.as_slice(),
                None => {
                    encoded = rle::encode(&f.indices);
                    &encoded
                }
            };
            let size = u16::try_from(data.len()).map_err(|_| {
                refuse(format!("palette frame {i}'s RLE is {} bytes, over the 65535 its size field holds", data.len()))
            })?;
            out.extend_from_slice(&size.to_le_bytes());
            out.extend_from_slice(data);
        } else {
            out.extend_from_slice(&f.indices);
        }
    }
    for (i, f) in spr.rgba_frames.iter().enumerate() {
        let size = usize::from(f.width) * usize::from(f.height) * 4;
        if f.abgr.len() != size {
            return Err(refuse(format!(
                "RGBA frame {i} is {}×{} but has {} bytes, not {size}",
                f.width,
                f.height,
                f.abgr.len()
            )));
        }
        out.extend_from_slice(&f.width.to_le_bytes());
        out.extend_from_slice(&f.height.to_le_bytes());
        out.extend_from_slice(&f.abgr);
    }
    out.extend_from_slice(&spr.trailing);
    if let Some(palette) = &spr.palette {
        out.extend(palette.iter().flatten());
    }
    Ok(out)
}
