//! Writing an SPR file. Every count and size must fit its 16-bit field; a 2.1 palette frame is written
//! with the RLE it was read with while that still decodes to its indices, else encoded afresh.

use crate::error::Result;
use crate::writer::Writer;

use super::rle;
use super::types::*;
use super::FORMAT_ID;

/// The bytes of `spr` (see [`Spr::to_bytes`]).
pub fn write(spr: &Spr) -> Result<Vec<u8>> {
    let v = spr.version;
    let mut w = Writer::new(FORMAT_ID);
    if !v.has_rgba() && !spr.rgba_frames.is_empty() {
        return Err(w.refused("rgba_frames", format!("version {} has no RGBA frames (2.0 and later do)", v.text())));
    }
    if !v.has_palette() && spr.palette.is_some() {
        return Err(w.refused("palette", format!("a version {} file has no palette", v.text())));
    }
    // Without a palette the file ends after the frames, so there is nowhere for bytes after them to go.
    if spr.palette.is_none() && !spr.trailing.is_empty() && v.has_palette() {
        return Err(
            w.refused("trailing", format!("a version {} file without a palette ends after its frames", v.text()))
        );
    }
    w.bytes(b"SP");
    w.u8(v.minor);
    w.u8(v.major);
    w.count_u16("palette_frames", spr.palette_frames.len())?;
    if v.has_rgba() {
        w.count_u16("rgba_frames", spr.rgba_frames.len())?;
    }
    for (i, f) in spr.palette_frames.iter().enumerate() {
        let pixels = usize::from(f.width) * usize::from(f.height);
        if f.indices.len() != pixels {
            return Err(w.refused(
                &format!("palette_frames[{i}]"),
                format!("{}×{} but has {} pixels", f.width, f.height, f.indices.len()),
            ));
        }
        w.u16(f.width);
        w.u16(f.height);
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
            w.count_u16(&format!("palette_frames[{i}].rle"), data.len())?;
            w.bytes(data);
        } else {
            w.bytes(&f.indices);
        }
    }
    for (i, f) in spr.rgba_frames.iter().enumerate() {
        let size = usize::from(f.width) * usize::from(f.height) * 4;
        if f.abgr.len() != size {
            return Err(w.refused(
                &format!("rgba_frames[{i}]"),
                format!("{}×{} but has {} bytes, not {size}", f.width, f.height, f.abgr.len()),
            ));
        }
        w.u16(f.width);
        w.u16(f.height);
        w.bytes(&f.abgr);
    }
    w.bytes(&spr.trailing);
    if let Some(palette) = &spr.palette {
        palette.iter().for_each(|entry| w.bytes(entry));
    }
    Ok(w.into_bytes())
}
