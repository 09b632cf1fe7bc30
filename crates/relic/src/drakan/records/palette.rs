//! Palette, record 0x0030 (spec "Texture (0x0030-0x0040)"): a u16 count, then that many 4-byte colours
//! `r, g, b, flags` copied from a RIFF PAL file. 8-bpp textures use the first palette record of the same
//! `.txd` (docs/formats/drakan.md#texture-palette). The fourth byte is the RIFF `peFlags` byte, not alpha: it is kept as stored.

use serde::{Deserialize, Serialize};

use super::common::{body_reader, count_u16, hex_is_empty, rest, Put};
use crate::bytes::Hex;
use crate::error::Result;

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Palette {
    /// `[r, g, b, flags]` per entry.
    pub colors: Vec<[u8; 4]>,
    /// Bytes after the colours (none in a well-formed body).
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

pub fn parse(body: &[u8], base: u64) -> Result<Palette> {
    let mut r = body_reader(body, base);
    let n = r.u16("palette.count")?;
    let n = r.count(u64::from(n), 4, "palette.colors")?;
    let mut colors = Vec::with_capacity(n);
    for _ in 0..n {
        colors.push(r.array::<4>("palette.colors")?);
    }
    Ok(Palette { colors, trailing: rest(&mut r) })
}

pub fn write(palette: &Palette) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 + palette.colors.len() * 4 + palette.trailing.0.len());
    out.put_u16(count_u16(palette.colors.len()));
    for c in &palette.colors {
        out.extend_from_slice(c);
    }
    out.extend_from_slice(&palette.trailing.0);
    out
}
