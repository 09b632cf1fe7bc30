//! MMP writers: the byte-exact rebuild of an [`MmpDocument`] (`relic pack ei-mmp x.json`) and new textures
//! from RGBA pixels in any of the game's pixel formats, with a full mip chain on request
//! (`relic pack ei-mmp --pixel-format dxt1 --mips x.png`).

use super::read::{level_dimensions, parse, Storage};
use super::types::*;
use super::{pnt3, FORMAT_ID};
use crate::error::{Error, Result};
use crate::writer::Writer;

/// Header, levels and trailing bytes, one after the other.
pub fn assemble(header: &MmpHeader, levels: &[&[u8]], trailing: &[u8]) -> Vec<u8> {
    let size = HEADER_SIZE + levels.iter().map(|l| l.len()).sum::<usize>() + trailing.len();
    let mut w = Writer::with_capacity(FORMAT_ID, size);
    w.bytes(&MAGIC);
    for v in [header.width, header.height, header.mip_levels_count, header.fourcc.0, header.bits_per_pixel] {
        w.u32(v);
    }
    for c in [header.alpha_format, header.red_format, header.green_format, header.blue_format] {
        for v in [c.mask, c.shift, c.count] {
            w.u32(v);
        }
    }
    w.u32(header.unk_0x48);
    for level in levels {
        w.bytes(level);
    }
    w.bytes(trailing);
    w.into_bytes()
}

/// Rebuilds the file a document describes. The levels must have the sizes the header's layout gives them.
pub fn write_document(doc: &MmpDocument) -> Result<Vec<u8>> {
    let levels: Vec<&[u8]> = doc.levels.iter().map(|l| l.data.0.as_slice()).collect();
    let trailing = doc.trailing.as_ref().map_or(&[][..], |t| t.0.as_slice());
    let out = assemble(&doc.header, &levels, trailing);
    let back = parse(&out)?;
    let mismatch = |field: String, why: String| Error::refused(FORMAT_ID, field, why);
    if back.levels.len() != doc.levels.len() {
        return Err(mismatch(
            "levels".into(),
            format!("the document has {} levels, its header describes {}", doc.levels.len(), back.levels.len()),
        ));
    }
    for (i, (want, got)) in doc.levels.iter().zip(&back.levels).enumerate() {
        if want.data.0.len() != got.data.len() || (want.width, want.height) != (got.width, got.height) {
            return Err(mismatch(
                format!("levels[{i}]"),
                format!(
                    "{}×{} with {} bytes, but the header makes level {i} {}×{} with {} bytes",
                    want.width,
                    want.height,
                    want.data.0.len(),
                    got.width,
                    got.height,
                    got.data.len()
                ),
            ));
        }
    }
    Ok(out)
}

/// Writes a new texture from RGBA8 pixels (`width · height · 4` bytes, top row first) with the header the
/// game uses for `format`; with `mips`, a full chain down to 1×1 made with a 2×2 box filter.
///
/// DXT levels take `bpp · w · h / 8` bytes (at least one block): when one side of a small mip level is below
/// 4 and the other above, the level keeps only the first blocks of its block grid, as the game's size rule
/// says. The top level of a DXT texture must be a whole block grid (sides multiples of 4, or one block).
/// PNT3 has no mip levels (its count field holds the packed size) and falls back to raw ARGB8 texels when
/// packing does not make them smaller or cannot represent them.
pub fn encode(rgba: &[u8], width: u32, height: u32, format: PixelFormat, mips: bool) -> Result<Vec<u8>> {
    let levels = if mips { full_chain(width, height) } else { 1 };
    encode_levels(rgba, width, height, format, levels)
}

/// The levels of a full mip chain of a `width × height` texture: down to 1×1.
pub fn full_chain(width: u32, height: u32) -> u32 {
    32 - width.max(height).max(1).leading_zeros()
}

/// [`encode`] with `levels` mip levels (1 to the full chain), as a texture relic converted had.
pub fn encode_levels(rgba: &[u8], width: u32, height: u32, format: PixelFormat, levels: u32) -> Result<Vec<u8>> {
    let refuse = |field: &str, why: String| Error::refused(FORMAT_ID, field, why);
    if levels == 0 || levels > full_chain(width, height) {
        return Err(refuse(
            "mip_levels",
            format!("a {width}×{height} texture has 1 to {} mip levels, not {levels}", full_chain(width, height)),
        ));
    }
    if width == 0 || height == 0 {
        return Err(refuse("image", "an image of 0 pixels cannot be a texture".into()));
    }
    if (width as usize).checked_mul(height as usize).and_then(|p| p.checked_mul(4)) != Some(rgba.len()) {
        return Err(refuse("pixels", format!("{} bytes are not {width}×{height} RGBA pixels", rgba.len())));
    }
    let storage = Storage::of(&format.header(width, height, 0))?;
    if format == PixelFormat::Pnt3 {
        if levels > 1 {
            return Err(refuse(
                "mip_levels",
                "PNT3 textures have no mip levels (their count field holds the packed size)".into(),
            ));
        }
        let raw = format.layout().encode(rgba);
        let data = pnt3::pack(&raw).filter(|p| p.len() < raw.len()).unwrap_or(raw);
        let size =
            u32::try_from(data.len()).map_err(|_| refuse("mip_levels_count", "the texture is too large".into()))?;
        return finish(assemble(&format.header(width, height, size), &[&data], &[]));
    }
    if let Storage::Dxt(dxt) = storage {
        if dxt.grid_size(width, height) != storage.level_size(width, height) as u64 {
            return Err(refuse("image", format!(
                "a {width}×{height} image does not fill whole 4×4 blocks; DXT textures need sides that are multiples of 4"
            )));
        }
    }
    let count = levels;
    let mut levels = Vec::with_capacity(count as usize);
    let mut current = rgba.to_vec();
    for i in 0..count {
        let (w, h) = level_dimensions(width, height, i);
        if i > 0 {
            let (pw, ph) = level_dimensions(width, height, i - 1);
            current = downscale(&current, pw, ph);
        }
        let data = match storage {
            Storage::Dxt(dxt) => {
                let mut blocks = dxt.encode(&current, w, h).map_err(|why| refuse(&format!("levels[{i}]"), why))?;
                blocks.truncate(storage.level_size(w, h) as usize);
                blocks
            }
            _ => format.layout().encode(&current),
        };
        levels.push(data);
    }
    let slices: Vec<&[u8]> = levels.iter().map(Vec::as_slice).collect();
    finish(assemble(&format.header(width, height, count), &slices, &[]))
}

/// Writers never return a file their reader rejects.
fn finish(out: Vec<u8>) -> Result<Vec<u8>> {
    parse(&out)?;
    Ok(out)
}

/// Halves an RGBA8 image (sides never below 1) by averaging each 2×2 square (2×1, 1×2 or 1×1 at odd
/// edges), rounding to nearest.
pub fn downscale(rgba: &[u8], width: u32, height: u32) -> Vec<u8> {
    let (w, h) = (width as usize, height as usize);
    let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
    let mut out = Vec::with_capacity(nw * nh * 4);
    for y in 0..nh {
        for x in 0..nw {
            let mut sum = [0u32; 4];
            let mut n = 0u32;
            for sy in (2 * y)..(2 * y + 2).min(h) {
                for sx in (2 * x)..(2 * x + 2).min(w) {
                    let at = (sy * w + sx) * 4;
                    if let Some(px) = rgba.get(at..at + 4) {
                        for (s, &c) in sum.iter_mut().zip(px) {
                            *s += u32::from(c);
                        }
                        n += 1;
                    }
                }
            }
            let n = n.max(1);
            out.extend(sum.iter().map(|s| ((s + n / 2) / n) as u8));
        }
    }
    out
}
