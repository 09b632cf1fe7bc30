//! MMP reader: the 76-byte header, then the mip levels largest first, each size checked against the file
//! (spec "Mmp", corrected by docs/formats/evil-islands.md#mmp).

use super::types::*;
use super::FORMAT_ID;
use crate::codec::dxt::Dxt;
use crate::codec::pixel::PixelLayout;
use crate::error::{Error, Result};
use crate::reader::Reader;

/// Byte offsets of the header fields, for errors about them.
pub(super) const AT_WIDTH: u64 = 4;
pub(super) const AT_HEIGHT: u64 = 8;
pub(super) const AT_MIP_LEVELS_COUNT: u64 = 12;
pub(super) const AT_BITS_PER_PIXEL: u64 = 20;

/// How the texels are stored, from the fourcc and the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    Dxt(Dxt),
    /// Words described by the header's masks (every fourcc but DXT1, DXT3 and PNT3; the spec reads unknown
    /// fourccs this way too).
    Masked(PixelLayout),
    /// One block of `mip_levels_count` bytes.
    Pnt3,
}

impl Storage {
    pub fn of(header: &MmpHeader) -> Result<Storage> {
        let bpp = header.bits_per_pixel;
        let bad_bpp = |need: &str| {
            Error::invalid(FORMAT_ID, "bits_per_pixel", AT_BITS_PER_PIXEL, format!("{bpp} bits per pixel; {need}"))
        };
        Ok(match header.fourcc.pixel_format() {
            Some(PixelFormat::Dxt1) if bpp == 4 => Storage::Dxt(Dxt::Dxt1),
            Some(PixelFormat::Dxt1) => return Err(bad_bpp("DXT1 textures have 4")),
            Some(PixelFormat::Dxt3) if bpp == 8 => Storage::Dxt(Dxt::Dxt3),
            Some(PixelFormat::Dxt3) => return Err(bad_bpp("DXT3 textures have 8")),
            Some(PixelFormat::Pnt3) => Storage::Pnt3,
            _ if matches!(bpp, 8 | 16 | 24 | 32) => Storage::Masked(PixelLayout {
                bytes_per_pixel: bpp as usize / 8,
                alpha: (header.alpha_format.count != 0).then(|| header.alpha_format.channel()),
                red: header.red_format.channel(),
                green: header.green_format.channel(),
                blue: header.blue_format.channel(),
            }),
            _ => return Err(bad_bpp("uncompressed pixels must have 8, 16, 24 or 32")),
        })
    }

    /// Bytes of a `width × height` level: `bpp · w · h / 8`, at least one block for DXT (docs/formats/evil-islands.md#mmp-header).
    /// Not used for PNT3.
    pub fn level_size(self, width: u32, height: u32) -> u128 {
        let pixels = u128::from(width) * u128::from(height);
        match self {
            Storage::Dxt(d) => {
                let bpp: u128 = if d == Dxt::Dxt1 { 4 } else { 8 };
                (bpp * pixels / 8).max(d.block_size() as u128)
            }
            Storage::Masked(layout) => layout.bytes_per_pixel as u128 * pixels,
            Storage::Pnt3 => 0,
        }
    }
}

/// Levels of 1×1 past a full mip chain that relic still reads (see [`parse`]).
pub const EXTRA_1X1_LEVELS: u32 = 2;

/// The size of mip level `i`: width and height halve, never below 1.
pub fn level_dimensions(width: u32, height: u32, i: u32) -> (u32, u32) {
    (width.checked_shr(i).unwrap_or(0).max(1), height.checked_shr(i).unwrap_or(0).max(1))
}

/// Parses an MMP texture, borrowing `bytes`.
pub fn parse(bytes: &[u8]) -> Result<Mmp<'_>> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let magic = r.array::<4>("magic")?;
    if magic != MAGIC {
        return Err(r.error_at("magic", 0, format!("expected `MMP\\0`, found {magic:02X?}")));
    }
    let header = read_header(&mut r)?;
    if header.width == 0 {
        return Err(Error::invalid(FORMAT_ID, "width", AT_WIDTH, "a texture cannot be 0 pixels wide"));
    }
    if header.height == 0 {
        return Err(Error::invalid(FORMAT_ID, "height", AT_HEIGHT, "a texture cannot be 0 pixels high"));
    }
    let storage = Storage::of(&header)?;
    let mut levels = Vec::new();
    if storage == Storage::Pnt3 {
        let offset = r.pos();
        let data = r.bytes(header.mip_levels_count as usize, "pnt3_data").map_err(|e| {
            Error::invalid(
                FORMAT_ID,
                "mip_levels_count",
                AT_MIP_LEVELS_COUNT,
                format!("PNT3 data size: {}", message_of(&e)),
            )
        })?;
        levels.push(Level { width: header.width, height: header.height, offset, data });
    } else {
        // Levels halve down to 1×1: a full chain has log2(max(w, h)) + 1 of them. Past it, levels stay 1×1;
        // relic reads (and writes back) up to EXTRA_1X1_LEVELS such, as files written by other tools may hold
        // one or two, but no more (a 1×1 texture claiming 200,000 levels would convert to 200,000 files).
        let most = super::write::full_chain(header.width, header.height) + EXTRA_1X1_LEVELS;
        if header.mip_levels_count > most {
            return Err(Error::invalid(
                FORMAT_ID,
                "mip_levels_count",
                AT_MIP_LEVELS_COUNT,
                format!(
                    "{} mip levels, but a {}×{} texture has at most {most} (log2 of its larger side + 1, and \
                     {EXTRA_1X1_LEVELS} more of 1×1)",
                    header.mip_levels_count, header.width, header.height
                ),
            ));
        }
        let smallest = storage.level_size(1, 1) as usize;
        let count = r
            .count(u64::from(header.mip_levels_count), smallest, "mip_levels_count")
            .map_err(|e| e.at_offset(AT_MIP_LEVELS_COUNT))?;
        levels.reserve(count);
        for i in 0..header.mip_levels_count {
            let (width, height) = level_dimensions(header.width, header.height, i);
            let field = format!("levels[{i}]");
            let size = storage.level_size(width, height);
            if size > r.remaining() as u128 {
                return Err(r.error(
                    &field,
                    format!("mip level {i} ({width}×{height}) needs {size} bytes but only {} remain", r.remaining()),
                ));
            }
            let offset = r.pos();
            let data = r.bytes(size as usize, &field)?;
            levels.push(Level { width, height, offset, data });
        }
    }
    let trailing = r.bytes(r.remaining(), "trailing")?;
    Ok(Mmp { header, levels, trailing })
}

fn message_of(e: &Error) -> String {
    match e {
        Error::InvalidData { message, .. } | Error::Limit { message, .. } => message.clone(),
        other => other.to_string(),
    }
}

fn read_header(r: &mut Reader<'_>) -> Result<MmpHeader> {
    Ok(MmpHeader {
        width: r.u32("width")?,
        height: r.u32("height")?,
        mip_levels_count: r.u32("mip_levels_count")?,
        fourcc: FourCc(r.u32("fourcc")?),
        bits_per_pixel: r.u32("bits_per_pixel")?,
        alpha_format: read_channel(r, "alpha_format")?,
        red_format: read_channel(r, "red_format")?,
        green_format: read_channel(r, "green_format")?,
        blue_format: read_channel(r, "blue_format")?,
        unk_0x48: r.u32("unk_0x48")?,
    })
}

fn read_channel(r: &mut Reader<'_>, name: &str) -> Result<ChannelFormat> {
    let mut field = |f: &str| r.u32(&format!("{name}.{f}"));
    Ok(ChannelFormat { mask: field("mask")?, shift: field("shift")?, count: field("count")? })
}
