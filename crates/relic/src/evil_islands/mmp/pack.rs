//! `relic pack ei-mmp x.png`: a texture from a PNG. The pixel format and the number of mip levels come
//! from `--pixel-format` and `--mips` when given, else from the record in the PNG ([`super::provenance`]: the
//! texture's own format and level count; `relic pack` puts it back from the record of the conversion,
//! [`crate::record`], when an editor dropped it), else relic's defaults (ARGB8, one level), with a note
//! saying so. The PNG of one mip level (`x.mmp.mip0.png` of `convert --mips`) carries the same record, so it
//! packs as the texture's PNG does: the chain is made again from it.

use super::provenance::Recorded;
use super::types::PixelFormat;
use super::write::{encode_levels, full_chain};
use super::DEFAULT_PIXEL_FORMAT;
use crate::error::{Error, Result};
use crate::registry::PackRequest;

/// The texture a PNG makes, and notes for the user (a record overridden, a level count that no longer
/// fits).
pub fn from_png(input_name: &str, content: &[u8], request: &PackRequest) -> Result<(Vec<u8>, Vec<String>)> {
    let mut notes = Vec::new();
    let own = Recorded::of_png(content);
    if own.is_none() && request.pixel_format.is_none() {
        // Neither the PNG (an editor drops text chunks) nor a record of convert beside it says what the
        // texture was: the choice is said, as a re-save would otherwise turn a DXT1 into ARGB8 unseen.
        let mips = if request.mips { "a full mip chain (--mips)" } else { "1 mip level" };
        notes.push(format!(
            "{input_name} records no texture (no `relic` text chunk, and no record of relic convert lists \
             it): written as {}, relic's lossless default, with {mips}; --pixel-format (dxt1, dxt3, …) and \
             --mips choose otherwise",
            DEFAULT_PIXEL_FORMAT.name()
        ));
    }
    let recorded = own.unwrap_or_default();
    let format = match request.pixel_format.as_deref() {
        None => recorded.format.unwrap_or(DEFAULT_PIXEL_FORMAT),
        Some(name) => {
            let format = PixelFormat::from_name(name).ok_or_else(|| {
                let known: Vec<&str> = PixelFormat::ALL.iter().map(|f| f.name()).collect();
                Error::Refused(format!("unknown MMP pixel format `{name}` (one of {})", known.join(", ")))
            })?;
            if let Some(was) = recorded.format.filter(|&was| was != format) {
                notes.push(format!(
                    "{input_name}: --pixel-format {} overrides the {} the PNG records (the texture relic converted it from)",
                    format.name(),
                    was.name()
                ));
            }
            format
        }
    };
    let image = crate::export::png::decode_rgba(content)?;
    let frame = image.frames.first().ok_or_else(|| Error::Refused("the PNG holds no image".into()))?;
    let crate::asset::Pixels::Rgba8(rgba) = &frame.pixels else {
        return Err(Error::Refused("the PNG did not decode to RGBA".into()));
    };
    let (width, height) = (frame.width, frame.height);
    let full = full_chain(width, height);
    let levels = if request.mips {
        full
    } else if format == PixelFormat::Pnt3 {
        // PNT3's level count field holds its packed size: one level, whatever the record says.
        if recorded.mips.is_some_and(|n| n > 1) {
            notes.push(format!("{input_name}: PNT3 textures have no mip levels: the recorded ones are not written"));
        }
        1
    } else {
        match recorded.mips {
            Some(n) if n > full => {
                notes.push(format!(
                    "{input_name}: the PNG records {n} mip levels, but a {width}×{height} image has at most {full}: \
                     {full} written"
                ));
                full
            }
            Some(n) => n,
            None => 1,
        }
    };
    let bytes = encode_levels(rgba, width, height, format, levels).map_err(|e| match e {
        Error::Refusal { format, field, why } if request.pixel_format.is_none() && recorded.format.is_some() => {
            let why = format!("{why} (the pixel format is the one the PNG records; --pixel-format chooses another)");
            Error::Refusal { format, field, why }
        }
        e => e,
    })?;
    if format == PixelFormat::Pnt3 {
        // A texture of long zero runs packs to a few words; converting it back is refused past
        // `--max-expansion` (as any such file is), which the user hears of now.
        let unpacked = u64::from(width) * u64::from(height) * 4;
        let len = bytes.len() as u64;
        if unpacked > crate::limits::expansion_budget(len) {
            notes.push(format!(
                "{input_name}: the PNT3 texture packs {unpacked} bytes of texels into {len} bytes: converting \
                 it needs --max-expansion {} or more",
                unpacked.div_ceil(len.max(1))
            ));
        }
    }
    Ok((bytes, notes))
}
