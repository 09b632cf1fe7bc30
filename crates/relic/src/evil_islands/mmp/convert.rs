//! MMP to the common model: mip levels decoded to RGBA images, the lossless JSON document and the info
//! summary.

use serde_json::json;

use super::read::{Storage, AT_MIP_LEVELS_COUNT};
use super::types::*;
use super::{pnt3, FORMAT_ID};
use crate::asset::{Frame, FrameRole, Image, Pixels};
use crate::bytes::Base64;
use crate::codec::pixel;
use crate::error::{Error, Result};

/// PNT3 textures unpack to at most this many bytes (8192 × 8192 texels); the game's are far smaller.
pub const MAX_PNT3_UNPACKED: usize = 1 << 28;

/// Decodes mip level `i` to RGBA8, top row first (rows are used in the order they are stored: a DirectX
/// texture's first row is its top).
pub fn decode_level(mmp: &Mmp<'_>, i: usize) -> Result<Vec<u8>> {
    let field = format!("levels[{i}]");
    let level = mmp.levels.get(i).ok_or_else(|| Error::refused(FORMAT_ID, &field, "no such mip level"))?;
    let fail = |message: String| Error::invalid(FORMAT_ID, &field, level.offset as u64, message);
    match Storage::of(&mmp.header)? {
        Storage::Dxt(dxt) => dxt.decode(level.data, level.width, level.height).map_err(fail),
        Storage::Masked(layout) => layout.decode(level.data).map_err(fail),
        Storage::Pnt3 => {
            let expected = (level.width as usize)
                .checked_mul(level.height as usize)
                .and_then(|p| p.checked_mul(4))
                .filter(|&n| n <= MAX_PNT3_UNPACKED)
                .ok_or_else(|| {
                    Error::limit(
                        FORMAT_ID,
                        "width",
                        super::read::AT_WIDTH,
                        format!("a {}×{} PNT3 texture is over relic's limit", level.width, level.height),
                    )
                })?;
            let argb8 = if level.data.len() >= expected {
                // Not smaller than the texels: stored raw (docs/formats/evil-islands.md#mmp-pnt3).
                level.data.get(..expected).unwrap_or_default().to_vec()
            } else {
                // Refused before anything is allocated: a few zero-run words can declare a huge texture.
                let file_len = (level.offset + level.data.len() + mmp.trailing.len()) as u64;
                if expected as u64 > crate::limits::expansion_budget(file_len) {
                    return Err(Error::limit(
                        FORMAT_ID,
                        "mip_levels_count",
                        AT_MIP_LEVELS_COUNT,
                        format!(
                            "{} packed PNT3 bytes of the {}×{} texture would unpack to {expected} bytes, more than \
                             {}× the file's {file_len} (--max-expansion raises the limit)",
                            level.data.len(),
                            level.width,
                            level.height,
                            crate::limits::current().max_expansion
                        ),
                    ));
                }
                pnt3::unpack(level.data, expected).map_err(|m| fail(format!("PNT3: {m}")))?
            };
            pixel::ARGB8.decode(&argb8).map_err(fail)
        }
    }
}

/// The texture as an image: the top level, or with `mips` every level (roles `Mip(0)`, `Mip(1)`, …, which
/// the PNG exporter names `.mip0`, `.mip1`, …). Its PNGs carry [`super::provenance::png_text`] in a
/// `relic` text chunk, which pack reads.
pub fn to_image(mmp: &Mmp<'_>, mips: bool) -> Result<Image> {
    if mmp.levels.is_empty() {
        return Err(Error::invalid(FORMAT_ID, "mip_levels_count", AT_MIP_LEVELS_COUNT, "the texture stores no levels"));
    }
    let count = if mips { mmp.levels.len() } else { 1 };
    let mut frames = Vec::with_capacity(count);
    for (i, level) in mmp.levels.iter().take(count).enumerate() {
        frames.push(Frame {
            name: None,
            width: level.width,
            height: level.height,
            pixels: Pixels::Rgba8(decode_level(mmp, i)?),
            offset: (0, 0),
            hotspots: vec![],
            role: if mips { FrameRole::Mip(i as u32) } else { FrameRole::Frame },
        });
    }
    let text = vec![(super::provenance::PNG_TEXT_KEYWORD.to_string(), super::provenance::png_text(mmp))];
    Ok(Image { frames, palette: None, frame_rate: None, text })
}

/// The lossless document.
pub fn to_document(mmp: &Mmp<'_>) -> MmpDocument {
    MmpDocument {
        format: FORMAT_ID.into(),
        header: mmp.header,
        levels: mmp
            .levels
            .iter()
            .map(|l| LevelDocument { width: l.width, height: l.height, data: Base64(l.data.to_vec()) })
            .collect(),
        trailing: (!mmp.trailing.is_empty()).then(|| Base64(mmp.trailing.to_vec())),
    }
}

/// Header summary for `relic info`.
pub fn info(mmp: &Mmp<'_>) -> serde_json::Value {
    let h = &mmp.header;
    let mut v = json!({
        "format": FORMAT_ID,
        "width": h.width,
        "height": h.height,
        "pixel_format": h.fourcc.describe(),
        "fourcc": format!("0x{:08X}", h.fourcc.0),
        "mip_levels": mmp.levels.len(),
        "bits_per_pixel": h.bits_per_pixel,
        "channels": channels(h),
    });
    if h.fourcc.pixel_format() == Some(PixelFormat::Pnt3) {
        // 4 · w · h needs more than 64 bits for the largest sides.
        let unpacked = u128::from(h.width) * u128::from(h.height) * 4;
        v["packed_size"] = json!(h.mip_levels_count);
        v["pnt3_stored_raw"] = json!(u128::from(h.mip_levels_count) >= unpacked);
    }
    if !mmp.trailing.is_empty() {
        v["trailing_bytes"] = json!(mmp.trailing.len());
    }
    v
}

/// The header's channel bit counts as `A1R5G5B5`-style text.
fn channels(h: &MmpHeader) -> String {
    [("A", h.alpha_format), ("R", h.red_format), ("G", h.green_format), ("B", h.blue_format)]
        .iter()
        .filter(|(_, c)| c.count != 0)
        .map(|(n, c)| format!("{n}{}", c.count))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fuzz find: `info` of a PNT3 texture with the largest sides overflowed `4 · w · h` in 64 bits.
    #[test]
    fn info_of_the_largest_pnt3_texture() {
        let mut bytes = super::super::encode(&[1, 2, 3, 4], 1, 1, PixelFormat::Pnt3, false).unwrap();
        bytes.get_mut(4..12).unwrap().copy_from_slice(&[0xFF; 8]);
        let mmp = super::super::parse(&bytes).unwrap();
        let v = info(&mmp);
        assert_eq!(v["width"], u32::MAX);
        assert_eq!(v["pnt3_stored_raw"], false);
        assert!(decode_level(&mmp, 0).is_err());
    }
}
