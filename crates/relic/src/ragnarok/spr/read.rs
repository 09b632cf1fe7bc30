//! Reading an SPR file: header, palette frames, RGBA frames, the palette in the last 1,024 bytes.

use crate::error::{Error, Result};
use crate::reader::Reader;

use super::rle;
use super::types::*;
use super::FORMAT_ID;

/// Reads a whole SPR file.
pub fn parse(data: &[u8]) -> Result<Spr> {
    let mut r = Reader::new(FORMAT_ID, data);
    if r.array::<2>("magic")? != *b"SP" {
        return Err(Error::invalid(FORMAT_ID, "magic", 0, "not an SPR sprite (no `SP`)"));
    }
    let [minor, major] = r.array::<2>("version")?;
    let version = Version::from_bytes(minor, major).ok_or_else(|| {
        Error::Unsupported(format!(
            "{FORMAT_ID}: version at offset 0x2: {major}.{minor} is not one relic reads (1.0, 1.1, 2.0, 2.1)"
        ))
    })?;
    let palette_count = r.u16("palette_frame_count")?;
    let rgba_count = if version.has_rgba() { r.u16("rgba_frame_count")? } else { 0 };

    // The palette is the last 1,024 bytes; frames must end before it.
    let palette_at = if version.has_palette() {
        data.len()
            .checked_sub(PALETTE_SIZE)
            .filter(|&at| at >= r.pos())
            .ok_or_else(|| r.error("palette", format!("the file ends before its {PALETTE_SIZE}-byte palette")))?
    } else {
        data.len()
    };
    let mut frames_r = Reader::new(FORMAT_ID, data.get(..palette_at).unwrap_or_default());
    frames_r.seek(r.pos(), "palette_frames")?;
    let r = &mut frames_r;

    // Each frame takes at least its 4-byte size: the counts are checked before anything is allocated.
    let mut palette_frames = Vec::with_capacity(r.count(u64::from(palette_count), 4, "palette_frame_count")?);
    for i in 0..usize::from(palette_count) {
        let field = |name: &str| format!("palette_frames[{i}].{name}");
        let width = r.u16(&field("width"))?;
        let height = r.u16(&field("height"))?;
        let pixels = usize::from(width) * usize::from(height);
        crate::limits::check_pixels(&format!("{FORMAT_ID} palette frame {i}"), width.into(), height.into())?;
        let frame = if version.has_rle() {
            let size = r.u16(&field("rle_size"))?;
            let at = r.offset();
            let stored = r.bytes(usize::from(size), &field("rle"))?;
            let indices = rle::decode(stored, pixels, i, at)?;
            PaletteFrame { width, height, indices, rle: Some(stored.to_vec()) }
        } else {
            let indices = r.bytes(pixels, &field("pixels"))?.to_vec();
            PaletteFrame { width, height, indices, rle: None }
        };
        palette_frames.push(frame);
    }

    let mut rgba_frames = Vec::with_capacity(r.count(u64::from(rgba_count), 4, "rgba_frame_count")?);
    for i in 0..usize::from(rgba_count) {
        let field = |name: &str| format!("rgba_frames[{i}].{name}");
        let width = r.u16(&field("width"))?;
        let height = r.u16(&field("height"))?;
        crate::limits::check_pixels(&format!("{FORMAT_ID} RGBA frame {i}"), width.into(), height.into())?;
        let size = usize::from(width) * usize::from(height) * 4;
        let abgr = r.bytes(size, &field("pixels"))?.to_vec();
        rgba_frames.push(AbgrFrame { width, height, abgr });
    }

    let trailing = r.bytes(r.remaining(), "trailing")?.to_vec();
    let palette = match data.get(palette_at..) {
        Some(bytes) if version.has_palette() => {
            let mut palette = [[0u8; 4]; 256];
            for (entry, b) in palette.iter_mut().zip(bytes.chunks_exact(4)) {
                entry.copy_from_slice(b);
            }
            Some(palette)
        }
        _ => None,
    };
    Ok(Spr { version, palette_frames, rgba_frames, trailing, palette })
}
