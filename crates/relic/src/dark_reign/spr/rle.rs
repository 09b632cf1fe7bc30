//! SPR scanline runs (spec "RLE Pixel Compression", with docs/formats/dark-reign.md#spr-rle): every line of a picture is a
//! sequence of counts that alternate, starting with a transparent one. Even steps skip `count` transparent
//! pixels (all 8 bits); odd steps are opaque runs of `count & 0x7F` pixels, followed by that many palette
//! indices in a normal sprite and by nothing in a shadow sprite. A line ends exactly at the width; a zero
//! skip is legal when a line starts opaque, and a zero count may split a run longer than one count holds.
//! The high bit of odd counts has no known meaning: decoding ignores it, [`Runs`] keep it.
//!
//! relic's rule for runs that make no progress (the spec and docs/formats/dark-reign.md#spr-rle are silent): two zero-pixel
//! runs in a row (an opaque count of 0 or 0x80 counts as zero) are an error located at the second. Such a
//! pair never draws anything, no encoder needs one, and without the rule a picture of zero counts walks
//! to the end of the pixel data (issue #23: a 1 MB sprite made `info` take 1.8 GB). With it, every two
//! counts of a line cover at least one pixel, so a line of `w` pixels holds at most `2·w + 1` counts.

use crate::error::Result;
use crate::reader::Reader;

/// The longest transparent run one count holds (8 bits).
pub const MAX_SKIP: usize = 0xFF;
/// The longest opaque run one count holds (7 bits).
pub const MAX_OPAQUE: usize = 0x7F;

/// A decoded picture: `width · height` pixels and the count bytes as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// Palette indices (0 where skipped), or 0 / 1 (transparent / shadow) for a shadow sprite.
    pub pixels: Vec<u8>,
    /// Every count byte in order, lines one after the other.
    pub counts: Vec<u8>,
}

/// Decodes one picture from `r` (positioned at its first byte). Shadow sprites' opaque pixels become 1.
pub fn decode(r: &mut Reader<'_>, width: usize, height: usize, shadow: bool) -> Result<Decoded> {
    let size = width.checked_mul(height).ok_or_else(|| r.error("size", "width × height overflows"))?;
    let mut pixels = vec![0u8; size];
    let mut counts = Vec::new();
    for y in 0..height {
        let line = y * width;
        let mut x = 0usize;
        let mut step = 0usize;
        let mut last_zero = false;
        while x < width {
            let at = r.pos();
            let count = r.u8("run count")?;
            counts.push(count);
            let opaque = step % 2 == 1;
            let n = if opaque { usize::from(count & 0x7F) } else { usize::from(count) };
            if n == 0 && last_zero {
                return Err(r.error_at("run count", at, format!("{}", NoProgress { x, y })));
            }
            last_zero = n == 0;
            if x + n > width {
                return Err(r.error_at(
                    "run count",
                    at,
                    format!("a run of {n} pixels at x = {x} of line {y} passes the width {width}"),
                ));
            }
            if opaque {
                let dst = pixels.get_mut(line + x..line + x + n).ok_or_else(|| r.error_at("run", at, "outside"))?;
                if shadow {
                    dst.fill(1);
                } else {
                    dst.copy_from_slice(r.bytes(n, "pixels")?);
                }
            }
            x += n;
            step += 1;
        }
    }
    Ok(Decoded { pixels, counts })
}

/// Two zero-pixel runs in a row at `x` of line `y` (see the module's rule).
struct NoProgress {
    x: usize,
    y: usize,
}

impl std::fmt::Display for NoProgress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a second zero-pixel run in a row at x = {} of line {}: runs that make no progress", self.x, self.y)
    }
}

/// The fewest bytes a line of `width` pixels takes: transparent runs of 255 split by zero opaque counts
/// (normal sprites: opaque pixels cost a byte each, so skips are the cheapest), or alternating skips of
/// 255 and shadow runs of 127 (shadow sprites, whose opaque runs carry no bytes).
pub fn min_line_bytes(width: u64, shadow: bool) -> u64 {
    if width == 0 {
        return 0;
    }
    if !shadow {
        return 2 * width.div_ceil(MAX_SKIP as u64) - 1;
    }
    let pair = (MAX_SKIP + MAX_OPAQUE) as u64;
    let (q, rem) = (width / pair, width % pair);
    2 * q
        + match rem {
            0 => 0,
            r if r <= MAX_SKIP as u64 => 1,
            _ => 2,
        }
}

/// Whether a pixel is drawn (not skipped).
fn drawn(p: u8) -> bool {
    p != 0
}

/// relic's encoding of one line: skips of up to 255 and opaque runs of up to 127 pixels, alternating from
/// a (possibly zero) skip, a longer run split with a zero count of the other kind between its parts, and
/// the line ended by its last run (a transparent end is skipped explicitly up to the width). Opaque counts
/// never carry the high bit. Pixel bytes follow opaque counts unless `shadow`.
pub fn encode_line(line: &[u8], shadow: bool, out: &mut Vec<u8>) {
    let mut x = 0usize;
    let mut step = 0usize;
    while x < line.len() {
        let opaque = step % 2 == 1;
        let max = if opaque { MAX_OPAQUE } else { MAX_SKIP };
        let rest = line.get(x..).unwrap_or_default();
        let n = rest.iter().take(max).take_while(|&&p| drawn(p) == opaque).count();
        out.push(n as u8);
        if opaque && !shadow {
            out.extend_from_slice(rest.get(..n).unwrap_or_default());
        }
        x += n;
        step += 1;
    }
}

/// relic's encoding of a whole picture (see [`encode_line`]).
pub fn encode(pixels: &[u8], width: usize, shadow: bool) -> Vec<u8> {
    let mut out = Vec::new();
    if width > 0 {
        for line in pixels.chunks(width) {
            encode_line(line, shadow, &mut out);
        }
    }
    out
}

/// The count bytes of relic's encoding of a picture (the pixel bytes left out).
pub fn encoded_counts(pixels: &[u8], width: usize) -> Vec<u8> {
    let mut out = Vec::new();
    if width > 0 {
        for line in pixels.chunks(width) {
            encode_line(line, true, &mut out);
        }
    }
    out
}

/// Stored counts split into lines: each line's counts cover exactly `width` pixels.
pub struct Runs<'a> {
    pub lines: Vec<&'a [u8]>,
}

impl<'a> Runs<'a> {
    /// Splits `counts` into `height` lines of `width` pixels; an error message when they do not make
    /// exactly that.
    pub fn split(counts: &'a [u8], width: usize, height: usize) -> std::result::Result<Runs<'a>, String> {
        let mut lines = Vec::with_capacity(height.min(counts.len() + 1));
        let mut pos = 0usize;
        for y in 0..height {
            let start = pos;
            let mut x = 0usize;
            let mut step = 0usize;
            let mut last_zero = false;
            while x < width {
                let Some(&c) = counts.get(pos) else {
                    return Err(format!("the counts end in line {y} of {height}"));
                };
                let n = if step % 2 == 1 { usize::from(c & 0x7F) } else { usize::from(c) };
                if n == 0 && last_zero {
                    return Err(NoProgress { x, y }.to_string());
                }
                last_zero = n == 0;
                if x + n > width {
                    return Err(format!("line {y}: a run of {n} at x = {x} passes the width {width}"));
                }
                x += n;
                step += 1;
                pos += 1;
            }
            lines.push(counts.get(start..pos).unwrap_or_default());
        }
        if pos != counts.len() {
            return Err(format!("{} count bytes are left after {height} lines", counts.len() - pos));
        }
        Ok(Runs { lines })
    }
}

/// The (start, length, opaque) runs of one line's counts.
fn runs_of(counts: &[u8]) -> impl Iterator<Item = (usize, usize, bool)> + '_ {
    let mut x = 0usize;
    counts.iter().enumerate().map(move |(step, &c)| {
        let opaque = step % 2 == 1;
        let n = if opaque { usize::from(c & 0x7F) } else { usize::from(c) };
        let run = (x, n, opaque);
        x += n;
        run
    })
}

/// Whether a line's stored counts can carry `line`: no drawn pixel falls in a skip, and in a shadow sprite
/// no transparent pixel falls in an opaque run (it has no bytes to say so). A normal sprite's opaque run
/// may hold index 0: it is stored as a byte.
pub fn fits(counts: &[u8], line: &[u8], shadow: bool) -> bool {
    runs_of(counts).all(|(x, n, opaque)| {
        let px = line.get(x..x + n).unwrap_or_default();
        if opaque {
            !shadow || px.iter().all(|&p| drawn(p))
        } else {
            px.iter().all(|&p| !drawn(p))
        }
    })
}

/// Writes one line with its stored counts (which [`fits`] the line): each count as stored, then the pixel
/// bytes of opaque runs unless `shadow`.
pub fn encode_line_with(counts: &[u8], line: &[u8], shadow: bool, out: &mut Vec<u8>) {
    for ((x, n, opaque), &c) in runs_of(counts).zip(counts) {
        out.push(c);
        if opaque && !shadow {
            out.extend_from_slice(line.get(x..x + n).unwrap_or_default());
        }
    }
}

/// Encodes a picture, keeping the stored counts of every line they still fit (see [`fits`]) and encoding
/// the other lines afresh. `counts` must split into the picture's lines ([`Runs::split`]).
pub fn encode_with(pixels: &[u8], width: usize, height: usize, shadow: bool, counts: &[u8]) -> Result<Vec<u8>, String> {
    let runs = Runs::split(counts, width, height)?;
    let mut out = Vec::with_capacity(counts.len() + pixels.len());
    for (y, stored) in runs.lines.iter().enumerate() {
        let line = pixels.get(y * width..(y + 1) * width).unwrap_or_default();
        if fits(stored, line, shadow) {
            encode_line_with(stored, line, shadow, &mut out);
        } else {
            encode_line(line, shadow, &mut out);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_bytes(bytes: &[u8], w: usize, h: usize, shadow: bool) -> Result<Decoded> {
        decode(&mut Reader::new("test", bytes), w, h, shadow)
    }

    #[test]
    fn long_runs_split_with_zero_counts_and_decode_back() {
        let mut line = vec![0u8; 300];
        line.extend((0..200).map(|i| (i % 250 + 1) as u8));
        line.extend([0u8; 3]);
        let enc = encode(&line, line.len(), false);
        // 255 skip, 0 opaque, 45 skip, 127 opaque + bytes, 0 skip, 73 opaque + bytes, 3 skip.
        assert_eq!(enc[..4], [255, 0, 45, 127]);
        assert_eq!(enc[4 + 127], 0);
        assert_eq!(enc[5 + 127], 73);
        assert_eq!(*enc.last().unwrap(), 3);
        let dec = decode_bytes(&enc, line.len(), 1, false).unwrap();
        assert_eq!(dec.pixels, line);
        assert_eq!(dec.counts, vec![255, 0, 45, 127, 0, 73, 3]);
    }

    #[test]
    fn lines_starting_opaque_begin_with_a_zero_skip_and_shadows_carry_no_bytes() {
        let line = [1u8, 1, 0, 1];
        assert_eq!(encode(&line, 4, true), vec![0, 2, 1, 1]);
        assert_eq!(encode(&[5, 6, 0, 0], 4, false), vec![0, 2, 5, 6, 2]);
        assert_eq!(encode(&[], 0, false), Vec::<u8>::new());
        assert_eq!(decode_bytes(&[0, 2, 1, 1], 4, 1, true).unwrap().pixels, line);
    }

    #[test]
    fn the_high_bit_of_opaque_counts_is_ignored_and_kept() {
        let bytes = [1, 0x82, 7, 8, 1];
        let dec = decode_bytes(&bytes, 4, 1, false).unwrap();
        assert_eq!(dec.pixels, [0, 7, 8, 0]);
        assert_eq!(dec.counts, [1, 0x82, 1]);
        assert_eq!(encode_with(&dec.pixels, 4, 1, false, &dec.counts).unwrap(), bytes);
        // An edit the counts no longer fit re-encodes that line only.
        assert_eq!(encode_with(&[9, 7, 8, 0], 4, 1, false, &dec.counts).unwrap(), vec![0, 3, 9, 7, 8, 1]);
    }

    #[test]
    fn runs_past_the_width_and_bad_splits_are_errors() {
        assert!(decode_bytes(&[3], 2, 1, false).is_err());
        assert!(decode_bytes(&[0, 0x83, 1, 2], 2, 1, false).is_err());
        assert!(decode_bytes(&[0, 1], 2, 1, false).is_err(), "the pixel byte is missing");
        assert!(Runs::split(&[2, 2], 2, 1).is_err());
        assert!(Runs::split(&[2], 2, 2).is_err());
        assert_eq!(Runs::split(&[2, 0, 1, 1], 2, 2).unwrap().lines, vec![&[2u8][..], &[0, 1, 1][..]]);
    }

    #[test]
    fn two_zero_runs_in_a_row_are_refused_and_no_encoding_has_them() {
        let e = decode_bytes(&[0, 0, 2], 2, 1, false).unwrap_err();
        assert_eq!(e.location().unwrap().offset, 1, "{e}");
        assert!(decode_bytes(&[0, 0x80, 2], 2, 1, true).is_err(), "0x80 is a zero opaque run");
        assert!(decode_bytes(&[1, 0, 1], 2, 1, false).is_ok(), "one zero between runs splits nothing");
        assert!(Runs::split(&[0, 0, 2], 2, 1).is_err());
        for w in [1usize, 254, 255, 256, 381, 382, 383, 637, 1000] {
            for shadow in [false, true] {
                let blank = encode(&vec![0; w], w, shadow);
                assert!(blank.windows(2).all(|p| p != [0, 0]));
                let fewest = if shadow {
                    encode(&(0..w).map(|x| u8::from(x % 382 >= 255)).collect::<Vec<_>>(), w, true).len()
                } else {
                    blank.len()
                };
                assert_eq!(min_line_bytes(w as u64, shadow), fewest as u64, "{w} {shadow}");
            }
        }
        assert_eq!(min_line_bytes(0, false), 0);
    }

    #[test]
    fn index_zero_inside_an_opaque_run_fits_a_normal_sprite_only() {
        assert!(fits(&[0, 2], &[0, 5], false));
        assert!(!fits(&[0, 2], &[0, 5], true));
        assert!(!fits(&[1, 1], &[5, 0], false));
    }
}
