//! 8-bit palettes, shared by every game that draws through one (Dark Reign PALS, Drakan 0x0030, FreeRCT's
//! fixed palette): 256 RGBA entries, read from the files users have (`--palette`): Dark Reign PALS, JASC-PAL
//! text, RIFF PAL (Microsoft `PAL data`), raw 768-byte RGB and raw 1024-byte RGBX (Ragnarok Online's `.pal`,
//! and what Dark Reign community tools ship), told apart by their first bytes and their size.
//!
//! Written here: the containers are a few bytes of header around a colour table, and no kept crate reads
//! these palette files.

use crate::asset::Image;
#[cfg(test)]
use crate::asset::Pixels;
use crate::error::{Error, Result};

/// 256 colours, RGBA.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Palette {
    pub colors: Vec<[u8; 4]>,
}

/// How 6-bit channel values (0–63) become 8-bit ones (Dark Reign PALS; docs/formats/dark-reign.md#pal-scaling: unsettled).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SixBitScaling {
    /// `(v << 2) | (v >> 4)`: 63 becomes 255 (the default).
    #[default]
    Replicate,
    /// `v × 4`: 63 becomes 252, as palettes converted by public tools have it.
    Times4,
}

impl SixBitScaling {
    pub fn scale(self, v: u8) -> u8 {
        let v = v & 0x3F;
        match self {
            SixBitScaling::Replicate => (v << 2) | (v >> 4),
            SixBitScaling::Times4 => v << 2,
        }
    }

    pub fn from_name(name: &str) -> Option<SixBitScaling> {
        match name.to_ascii_lowercase().as_str() {
            "replicate" => Some(SixBitScaling::Replicate),
            "x4" | "times4" => Some(SixBitScaling::Times4),
            _ => None,
        }
    }
}

impl Palette {
    /// A greyscale ramp (index i is grey i), opaque: the stand-in when no palette is known.
    pub fn greyscale() -> Palette {
        Palette { colors: (0..=255u8).map(|i| [i, i, i, 255]).collect() }
    }

    /// Makes entry `index` fully transparent.
    pub fn with_transparent(mut self, index: usize) -> Palette {
        if let Some(c) = self.colors.get_mut(index) {
            c[3] = 0;
        }
        self
    }

    /// Reads a palette file of any supported kind; `scaling` applies to PALS.
    pub fn read(bytes: &[u8], scaling: SixBitScaling) -> Result<Palette> {
        if bytes.starts_with(b"PALS") {
            return read_pals_colors(bytes, scaling);
        }
        if bytes.starts_with(b"JASC-PAL") {
            return read_jasc(bytes);
        }
        if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"PAL ") {
            return read_riff(bytes);
        }
        if bytes.len() == 768 {
            let colors = bytes.chunks_exact(3).map(|c| [c[0], c[1], c[2], 255]).collect();
            return Ok(Palette { colors });
        }
        if bytes.len() == 1024 {
            // The fourth byte is no alpha: the Ragnarok client ignores it, and the Dark Reign tools' RGBX
            // palettes leave it 0 (transparency is index 0's, set by the caller).
            let colors = bytes.chunks_exact(4).map(|c| [c[0], c[1], c[2], 255]).collect();
            return Ok(Palette { colors });
        }
        Err(Error::Refused(format!(
            "not a palette relic reads ({} bytes; PALS, JASC-PAL, RIFF PAL, raw 768-byte RGB or 1024-byte RGBX)",
            bytes.len()
        )))
    }

    /// Reads the palette file at `path` (`--palette`); an error names that file, never the image being
    /// drawn with it (`bad.pal: not a palette …`).
    pub fn read_file(path: &std::path::Path, scaling: SixBitScaling) -> Result<Palette> {
        let bytes = crate::source::read(path)?;
        // A plain message rather than `in_file`: the image's own file is put in front of it, and `in_file`
        // would then name the image alone.
        Palette::read(&bytes, scaling).map_err(|e| Error::Refused(format!("{}: {e}", path.display())))
    }

    /// A swatch: a 16 × 16 image, entry `i` at column `i % 16`, row `i / 16` (one pixel each: viewers
    /// zoom, and it stays cheap to write for every palette of a game).
    pub fn swatch(&self) -> Image {
        const CELL: usize = 1;
        let side = 16 * CELL;
        let mut rgba = vec![0u8; side * side * 4];
        for (y, row) in rgba.chunks_exact_mut(side * 4).enumerate() {
            for (x, px) in row.chunks_exact_mut(4).enumerate() {
                let index = (y / CELL) * 16 + x / CELL;
                if let Some(c) = self.colors.get(index) {
                    px.copy_from_slice(c);
                }
            }
        }
        Image::single(side as u32, side as u32, rgba, (0, 0), vec![])
    }
}

/// The colours of a PALS file (Dark Reign; docs/formats/dark-reign.md#pal): `PALS`, u32 0x0102, then six 256-byte planes of
/// 6-bit values, the first three R, G, B. The full file is read by `dark_reign::pal`.
fn read_pals_colors(bytes: &[u8], scaling: SixBitScaling) -> Result<Palette> {
    let plane = |i: usize| bytes.get(8 + 256 * i..8 + 256 * (i + 1));
    match (plane(0), plane(1), plane(2)) {
        (Some(r), Some(g), Some(b)) => Ok(Palette {
            colors: r
                .iter()
                .zip(g)
                .zip(b)
                .map(|((&r, &g), &b)| [scaling.scale(r), scaling.scale(g), scaling.scale(b), 255])
                .collect(),
        }),
        _ => Err(Error::invalid("dr-pal", "planes", 8, "a PALS palette needs three 256-byte colour planes")),
    }
}

/// JASC-PAL (Paint Shop Pro): `JASC-PAL`, `0100`, the count, then `r g b` lines.
fn read_jasc(bytes: &[u8]) -> Result<Palette> {
    let text = std::str::from_utf8(bytes).map_err(|_| Error::Refused("JASC-PAL palette: not text".into()))?;
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let bad = |what: &str| Error::Refused(format!("JASC-PAL palette: {what}"));
    lines.next();
    lines.next();
    let count: usize = lines.next().and_then(|l| l.parse().ok()).ok_or_else(|| bad("no colour count"))?;
    if count > 256 {
        return Err(bad(&format!("{count} colours (at most 256)")));
    }
    let mut colors = Vec::with_capacity(256);
    for i in 0..count {
        let line = lines.next().ok_or_else(|| bad(&format!("{count} colours announced, {i} given")))?;
        let v: Vec<u8> = line.split_whitespace().filter_map(|w| w.parse().ok()).collect();
        match v.as_slice() {
            [r, g, b, ..] => colors.push([*r, *g, *b, 255]),
            _ => return Err(bad(&format!("colour {i} is not `r g b`"))),
        }
    }
    colors.resize(256, [0, 0, 0, 255]);
    Ok(Palette { colors })
}

/// RIFF PAL: `RIFF`, size, `PAL `, a `data` chunk of u16 version, u16 count, then RGBX entries.
fn read_riff(bytes: &[u8]) -> Result<Palette> {
    let mut at = 12usize;
    while let Some(head) = bytes.get(at..at + 8) {
        let size = u32::from_le_bytes([head[4], head[5], head[6], head[7]]) as usize;
        if &head[..4] == b"data" {
            let body = bytes.get(at + 8..).unwrap_or(&[]);
            let count = body.get(2..4).map_or(0, |c| usize::from(u16::from_le_bytes([c[0], c[1]])));
            let entries = body
                .get(4..4 + count.min(256) * 4)
                .ok_or_else(|| Error::Refused(format!("RIFF palette: {count} colours announced, fewer stored")))?;
            let mut colors: Vec<[u8; 4]> = entries.chunks_exact(4).map(|c| [c[0], c[1], c[2], 255]).collect();
            colors.resize(256, [0, 0, 0, 255]);
            return Ok(Palette { colors });
        }
        at = at.saturating_add(8).saturating_add(size + size % 2);
    }
    Err(Error::Refused("RIFF palette: no `data` chunk".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_kind_by_its_first_bytes() {
        let jasc = b"JASC-PAL\r\n0100\r\n2\r\n255 0 0\r\n0 128 255\r\n";
        let p = Palette::read(jasc, SixBitScaling::default()).unwrap();
        assert_eq!(&p.colors[..2], &[[255, 0, 0, 255], [0, 128, 255, 255]]);
        assert_eq!(p.colors.len(), 256);
        let mut riff = b"RIFF\x14\0\0\0PAL data\x08\0\0\0\0\x03\x02\0".to_vec();
        riff.extend([1, 2, 3, 0, 4, 5, 6, 0]);
        let p = Palette::read(&riff, SixBitScaling::default()).unwrap();
        assert_eq!(&p.colors[..2], &[[1, 2, 3, 255], [4, 5, 6, 255]]);
        let raw: Vec<u8> = (0..768).map(|i| (i % 256) as u8).collect();
        assert_eq!(Palette::read(&raw, SixBitScaling::default()).unwrap().colors[1], [3, 4, 5, 255]);
        let rgbx: Vec<u8> = (0..1024).map(|i| (i % 256) as u8).collect();
        let p = Palette::read(&rgbx, SixBitScaling::default()).unwrap();
        assert_eq!((p.colors.len(), p.colors[1], p.colors[255]), (256, [4, 5, 6, 255], [252, 253, 254, 255]));
        assert!(Palette::read(&rgbx[..1023], SixBitScaling::default()).is_err());
        let mut pals = b"PALS\x02\x01\0\0".to_vec();
        pals.extend(std::iter::repeat_n(63u8, 256));
        pals.extend(std::iter::repeat_n(32u8, 256));
        pals.extend(std::iter::repeat_n(1u8, 256));
        assert_eq!(Palette::read(&pals, SixBitScaling::Replicate).unwrap().colors[9], [255, 130, 4, 255]);
        assert_eq!(Palette::read(&pals, SixBitScaling::Times4).unwrap().colors[9], [252, 128, 4, 255]);
        assert!(Palette::read(b"nope", SixBitScaling::default()).is_err());
        assert!(Palette::read(b"JASC-PAL\n0100\n3\n1 2 3\n", SixBitScaling::default()).is_err());
    }

    #[test]
    fn the_swatch_places_entry_i_at_its_cell() {
        let img = Palette::greyscale().with_transparent(0).swatch();
        let Pixels::Rgba8(px) = &img.frames[0].pixels else { panic!() };
        assert_eq!((img.frames[0].width, img.frames[0].height), (16, 16));
        let at = |x: usize, y: usize| &px[(y * 16 + x) * 4..(y * 16 + x) * 4 + 4];
        assert_eq!(at(0, 0), [0, 0, 0, 0]);
        assert_eq!(at(3, 2), [35, 35, 35, 255]);
    }

    #[test]
    fn never_panics_on_truncations() {
        let mut riff = b"RIFF\x14\0\0\0PAL data\x08\0\0\0\0\x03\x02\0".to_vec();
        riff.extend([1, 2, 3, 0, 4, 5, 6, 0]);
        crate::testing::check_robustness(&riff, false, |b| Palette::read(b, SixBitScaling::default()).map(|_| ()));
        crate::testing::check_robustness(b"JASC-PAL\n0100\n1\n1 2 3\n", false, |b| {
            Palette::read(b, SixBitScaling::default()).map(|_| ())
        });
    }
}
