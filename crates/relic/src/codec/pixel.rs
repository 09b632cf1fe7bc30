//! Masked pixel formats: pixels stored as 1–4 byte little-endian words whose channels are picked out by a
//! bit mask and a shift each (DirectDraw-style pixel format descriptions, as Evil Islands MMP headers and
//! other DirectX-era textures carry them). Decoding scales each channel to 8 bits as
//! `255 · value / (mask >> shift)` (rounded down); encoding rounds to the nearest step, so decoding and
//! encoding again gives back the same word for every channel of up to 7 bits and for 8-bit channels.
//!
//! Written here rather than taken from a crate: the masks come from the files themselves, and no kept crate
//! decodes arbitrary mask/shift layouts.

/// One channel: `(word & mask) >> shift`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Channel {
    pub mask: u32,
    pub shift: u32,
}

impl Channel {
    pub const NONE: Channel = Channel { mask: 0, shift: 0 };

    /// The channel of `bits` bits at `shift`.
    pub const fn bits(bits: u32, shift: u32) -> Channel {
        let ones = if bits >= 32 { u32::MAX } else { (1u32 << bits) - 1 };
        Channel { mask: ones << shift, shift }
    }

    /// The largest stored value (`mask >> shift`); 0 for an absent channel.
    pub fn max(self) -> u32 {
        self.mask.checked_shr(self.shift).unwrap_or(0)
    }

    /// The stored value scaled to 0..=255.
    pub fn decode(self, word: u32) -> u8 {
        let max = u64::from(self.max());
        if max == 0 {
            return 0;
        }
        let value = u64::from((word & self.mask).checked_shr(self.shift).unwrap_or(0));
        (255 * value / max).min(255) as u8
    }

    /// An 8-bit value quantised to this channel and placed in the word.
    pub fn encode(self, value: u8) -> u32 {
        let max = u64::from(self.max());
        let stored = (u64::from(value) * max + 127) / 255;
        (stored as u32).checked_shl(self.shift).unwrap_or(0) & self.mask
    }
}

/// One output channel of [`PixelLayout::decode`] read through a 256-entry table: the same values as
/// [`Channel::decode`], or a constant (an empty mask): 0 for a colour channel without bits, 255 for an
/// absent or empty alpha channel, as `decode_word` gives.
#[derive(Clone, Copy)]
struct Table {
    mask: u32,
    shift: u32,
    table: [u8; 256],
}

impl Table {
    /// `None` when the channel stores more than 256 values (the formula is used then).
    fn of(channel: Channel, empty: u8) -> Option<Table> {
        let max = channel.max();
        if max == 0 {
            return Some(Table { mask: 0, shift: 0, table: [empty; 256] });
        }
        if max > 255 {
            return None;
        }
        let mut table = [0u8; 256];
        for (value, t) in table.iter_mut().enumerate().take(max as usize + 1) {
            *t = channel.decode((value as u32) << channel.shift);
        }
        Some(Table { mask: channel.mask, shift: channel.shift, table })
    }

    #[inline(always)]
    fn get(&self, word: u32) -> u8 {
        // (word & mask) >> shift ≤ max ≤ 255: the index stays inside the table.
        self.table[((word & self.mask).checked_shr(self.shift).unwrap_or(0) & 0xFF) as usize]
    }
}

/// A masked pixel layout. Alpha is `None` when the format has none: decoded alpha is then 255.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PixelLayout {
    /// 1 to 4.
    pub bytes_per_pixel: usize,
    pub alpha: Option<Channel>,
    pub red: Channel,
    pub green: Channel,
    pub blue: Channel,
}

/// 16-bit A4 R4 G4 B4.
pub const ARGB4: PixelLayout = PixelLayout {
    bytes_per_pixel: 2,
    alpha: Some(Channel::bits(4, 12)),
    red: Channel::bits(4, 8),
    green: Channel::bits(4, 4),
    blue: Channel::bits(4, 0),
};
/// 16-bit R5 G6 B5, no alpha.
pub const R5G6B5: PixelLayout = PixelLayout {
    bytes_per_pixel: 2,
    alpha: None,
    red: Channel::bits(5, 11),
    green: Channel::bits(6, 5),
    blue: Channel::bits(5, 0),
};
/// 16-bit A1 R5 G5 B5.
pub const A1R5G5B5: PixelLayout = PixelLayout {
    bytes_per_pixel: 2,
    alpha: Some(Channel::bits(1, 15)),
    red: Channel::bits(5, 10),
    green: Channel::bits(5, 5),
    blue: Channel::bits(5, 0),
};
/// 32-bit A8 R8 G8 B8 (bytes B, G, R, A in memory).
pub const ARGB8: PixelLayout = PixelLayout {
    bytes_per_pixel: 4,
    alpha: Some(Channel::bits(8, 24)),
    red: Channel::bits(8, 16),
    green: Channel::bits(8, 8),
    blue: Channel::bits(8, 0),
};

impl PixelLayout {
    /// The layout packed from the top bit down as A, R, G, B with the given bit counts (the DirectX
    /// `A?R?G?B?` naming); `bits_per_pixel` is their sum rounded up to whole bytes.
    pub fn from_bits(alpha: u32, red: u32, green: u32, blue: u32) -> Option<PixelLayout> {
        let total = alpha + red + green + blue;
        if total == 0 || total > 32 {
            return None;
        }
        Some(PixelLayout {
            bytes_per_pixel: total.div_ceil(8) as usize,
            alpha: (alpha > 0).then(|| Channel::bits(alpha, red + green + blue)),
            red: Channel::bits(red, green + blue),
            green: Channel::bits(green, blue),
            blue: Channel::bits(blue, 0),
        })
    }

    /// Decodes one word to RGBA.
    pub fn decode_word(&self, word: u32) -> [u8; 4] {
        let alpha = match self.alpha {
            Some(a) if a.max() > 0 => a.decode(word),
            _ => 255,
        };
        [self.red.decode(word), self.green.decode(word), self.blue.decode(word), alpha]
    }

    /// Encodes one RGBA pixel (alpha is dropped when the layout has none).
    pub fn encode_word(&self, [r, g, b, a]: [u8; 4]) -> u32 {
        let alpha = self.alpha.map_or(0, |ch| ch.encode(a));
        alpha | self.red.encode(r) | self.green.encode(g) | self.blue.encode(b)
    }

    /// Bytes needed for `pixels` pixels, `None` on overflow.
    pub fn size_of(&self, pixels: u64) -> Option<u64> {
        pixels.checked_mul(self.bytes_per_pixel as u64)
    }

    /// Decodes row-major words to RGBA8 (`4 · pixels` bytes). `data` must hold exactly whole pixels.
    pub fn decode(&self, data: &[u8]) -> Result<Vec<u8>, String> {
        let n = self.bytes_per_pixel;
        if !(1..=4).contains(&n) {
            return Err(format!("{n}-byte pixels are not supported"));
        }
        if data.len() % n != 0 {
            return Err(format!("{} bytes do not hold whole {n}-byte pixels", data.len()));
        }
        // Each channel of up to 256 stored values goes through a table made once per call (the formula
        // divides per channel per pixel, which made ARGB8 textures decode at a third of DXT1's speed).
        let tables = [
            Table::of(self.red, 0),
            Table::of(self.green, 0),
            Table::of(self.blue, 0),
            self.alpha.map_or(Table::of(Channel::NONE, 255), |a| Table::of(a, 255)),
        ];
        let mut out = vec![0u8; data.len() / n * 4];
        let word_of = |px: &[u8]| px.iter().rev().fold(0u32, |w, &b| (w << 8) | u32::from(b));
        match tables {
            // Four lookups a pixel, no branches.
            [Some(r), Some(g), Some(b), Some(a)] => {
                for (px, rgba) in data.chunks_exact(n).zip(out.chunks_exact_mut(4)) {
                    let word = word_of(px);
                    rgba.copy_from_slice(&[r.get(word), g.get(word), b.get(word), a.get(word)]);
                }
            }
            // A channel wider than 8 bits: the formula.
            _ => {
                for (px, rgba) in data.chunks_exact(n).zip(out.chunks_exact_mut(4)) {
                    rgba.copy_from_slice(&self.decode_word(word_of(px)));
                }
            }
        }
        Ok(out)
    }

    /// Encodes RGBA8 pixels to little-endian words (a trailing partial pixel is ignored).
    pub fn encode(&self, rgba: &[u8]) -> Vec<u8> {
        let n = self.bytes_per_pixel.clamp(1, 4);
        let mut out = Vec::with_capacity(rgba.len() / 4 * n);
        for px in rgba.chunks_exact(4) {
            let word = self.encode_word([px[0], px[1], px[2], px[3]]);
            out.extend_from_slice(&word.to_le_bytes()[..n]);
        }
        out
    }

    /// What RGBA8 pixels look like after a trip through this layout (for exact round-trip tests and
    /// previews).
    pub fn quantise(&self, rgba: &[u8]) -> Vec<u8> {
        self.decode(&self.encode(rgba)).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_buffers_decode_as_each_word_does() {
        // The tables of `decode` against the formula of `decode_word`, for the fixed layouts and for masks
        // as files carry them: gaps, 10-bit channels, no alpha, an empty channel, 3-byte pixels.
        let odd = PixelLayout {
            bytes_per_pixel: 4,
            alpha: Some(Channel { mask: 0b1010_0000_0000_0000_0000_0000_0000_0000, shift: 29 }),
            red: Channel::bits(10, 20),
            green: Channel { mask: 0x000F_F000, shift: 12 },
            blue: Channel::NONE,
        };
        let rgb24 = PixelLayout {
            bytes_per_pixel: 3,
            alpha: None,
            red: Channel::bits(8, 16),
            green: Channel::bits(8, 8),
            blue: Channel::bits(8, 0),
        };
        let mut state = 0x2545_F491u32;
        let data: Vec<u8> = (0..4096 * 4)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                state as u8
            })
            .collect();
        for layout in [ARGB4, R5G6B5, A1R5G5B5, ARGB8, odd, rgb24] {
            let n = layout.bytes_per_pixel;
            let data = &data[..data.len() / n * n];
            let expected: Vec<u8> = data
                .chunks_exact(n)
                .flat_map(|px| layout.decode_word(px.iter().rev().fold(0u32, |w, &b| (w << 8) | u32::from(b))))
                .collect();
            assert_eq!(layout.decode(data).unwrap(), expected, "{layout:?}");
        }
    }

    #[test]
    fn known_words_decode_to_exact_colours() {
        assert_eq!(R5G6B5.decode_word(0xF800), [255, 0, 0, 255]);
        assert_eq!(R5G6B5.decode_word(0x07E0), [0, 255, 0, 255]);
        assert_eq!(R5G6B5.decode_word(0x0001), [0, 0, 8, 255]); // 255·1/31 rounded down
        assert_eq!(ARGB4.decode_word(0x8F00), [255, 0, 0, 136]);
        assert_eq!(A1R5G5B5.decode_word(0x7FFF), [255, 255, 255, 0]);
        assert_eq!(A1R5G5B5.decode_word(0x8000), [0, 0, 0, 255]);
        assert_eq!(ARGB8.decode(&[1, 2, 3, 4]).unwrap(), vec![3, 2, 1, 4]);
    }

    #[test]
    fn layouts_from_bit_counts_match_the_constants() {
        assert_eq!(PixelLayout::from_bits(4, 4, 4, 4), Some(ARGB4));
        assert_eq!(PixelLayout::from_bits(0, 5, 6, 5), Some(R5G6B5));
        assert_eq!(PixelLayout::from_bits(1, 5, 5, 5), Some(A1R5G5B5));
        assert_eq!(PixelLayout::from_bits(8, 8, 8, 8), Some(ARGB8));
        assert_eq!(PixelLayout::from_bits(0, 0, 0, 0), None);
    }

    #[test]
    fn every_stored_value_survives_decode_then_encode() {
        for layout in [ARGB4, R5G6B5, A1R5G5B5] {
            for word in 0..=u32::from(u16::MAX) {
                assert_eq!(layout.encode_word(layout.decode_word(word)), word, "{layout:?} {word:#06X}");
            }
        }
        for v in 0..=255u8 {
            let px = [v, v.wrapping_mul(3), v ^ 0x5A, 255 - v];
            assert_eq!(ARGB8.decode_word(ARGB8.encode_word(px)), px);
        }
    }

    #[test]
    fn odd_masks_never_panic() {
        let weird = PixelLayout {
            bytes_per_pixel: 4,
            alpha: Some(Channel { mask: 0, shift: 40 }),
            red: Channel { mask: u32::MAX, shift: 0 },
            green: Channel { mask: 0xF0F0, shift: 99 },
            blue: Channel { mask: 0x0F, shift: 4 },
        };
        assert_eq!(weird.decode_word(0xFFFF_FFFF), [255, 0, 0, 255]);
        assert!(weird.decode(&[1, 2, 3]).is_err());
        let _ = weird.encode(&[1, 2, 3, 4]);
    }
}
