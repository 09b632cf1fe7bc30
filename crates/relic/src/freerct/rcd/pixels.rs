//! The two sprite pixel encodings of RCD files, decoded to planes and encoded back exactly as FreeRCT's
//! generator (`rcdgen`) writes them. Hand-written: these run-length schemes are FreeRCT's own.
//!
//! - `8PXL` (spec "Sprite Pixels", docs/formats/freerct.md#8pxl): a table of `height` u32 line offsets (relative to the
//!   table, 0 = empty line), then per line entries `(gap | 0x80 on the last, count, count indices)`. Index 0
//!   is transparent and never stored; gaps over 127 are `(127, 0)` filler entries; runs over 255 are split.
//! - `32PX` (docs/formats/freerct.md#32px, version 2 files): `height` lines, each a u16 length counting itself (the last
//!   line stores 0 and runs to the end of the block), then runs whose byte holds the kind in bits 6–7 and
//!   the count (≤ 63) in bits 0–5: 0 opaque RGB, 1 one alpha + RGB, 2 transparent, 3 recolour (layer, alpha,
//!   intensities); a 0 byte ends every line.
//!
//! The encoders are canonical: `encode(decode(b)) == b` for everything the generator writes. A block
//! written otherwise (by another tool) is kept as its bytes by the callers, which compare.

use crate::error::{Error, Result};

use super::FORMAT_ID;

/// The decoded pixels of an 8PXL block: palette indices, row-major, 0 transparent.
pub fn decode_8bpp(data: &[u8], width: u16, height: u16, base: u64) -> Result<Vec<u8>> {
    let (w, h) = (usize::from(width), usize::from(height));
    let table_len = 4 * h;
    let bad = |field: &str, at: usize, m: String| Error::invalid(FORMAT_ID, field, base + at as u64, m);
    if data.len() < table_len {
        return Err(bad(
            "8PXL.jump_table",
            0,
            format!("{h} line offsets need {table_len} bytes, {} remain", data.len()),
        ));
    }
    crate::limits::check_pixels("8PXL", u32::from(width), u32::from(height))?;
    let mut out = vec![0u8; w * h];
    for (y, row) in out.chunks_exact_mut(w.max(1)).take(h).enumerate() {
        let at = 4 * y;
        let offset = data.get(at..at + 4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])) as usize;
        if offset == 0 {
            continue;
        }
        let mut p = offset;
        let mut x = 0usize;
        loop {
            let (Some(&gap), Some(&count)) = (data.get(p), data.get(p + 1)) else {
                return Err(bad(&format!("8PXL.line[{y}]"), p, "a run header passes the end of the block".into()));
            };
            let n = usize::from(count);
            x += usize::from(gap & 0x7F);
            let pixels = data
                .get(p + 2..p + 2 + n)
                .ok_or_else(|| bad(&format!("8PXL.line[{y}]"), p, format!("{n} pixels pass the end of the block")))?;
            let dest = row.get_mut(x..x + n).ok_or_else(|| {
                bad(&format!("8PXL.line[{y}]"), p, format!("pixels {x}..{} pass the width {w}", x + n))
            })?;
            dest.copy_from_slice(pixels);
            x += n;
            p += 2 + n;
            if gap & 0x80 != 0 {
                break;
            }
        }
    }
    Ok(out)
}

/// The 8PXL line data (jump table and lines) of `pixels` (row-major indices, 0 transparent), as rcdgen
/// writes it. A sprite without a visible pixel has a table of zeros (the generator writes no block for
/// one; a file that has one keeps it).
pub fn encode_8bpp(width: u16, height: u16, pixels: &[u8]) -> Vec<u8> {
    let (w, h) = (usize::from(width), usize::from(height));
    let mut lines: Vec<Vec<u8>> = Vec::with_capacity(h);
    for y in 0..h {
        let row = pixels.get(y * w..(y + 1) * w).unwrap_or(&[]);
        let mut line = Vec::new();
        let mut last_header = None;
        let mut stored = 0usize; // everything before this column is written
        let mut x = 0usize;
        while x < row.len() {
            if row[x] == 0 {
                x += 1;
                continue;
            }
            let mut start = x;
            while x < row.len() && row[x] != 0 {
                x += 1;
            }
            while stored + 127 < start {
                line.extend_from_slice(&[127, 0]);
                stored += 127;
            }
            while x - start > 255 {
                line.extend_from_slice(&[(start - stored) as u8, 255]);
                line.extend_from_slice(&row[start..start + 255]);
                start += 255;
                stored = start;
            }
            last_header = Some(line.len());
            line.extend_from_slice(&[(start - stored) as u8, (x - start) as u8]);
            line.extend_from_slice(&row[start..x]);
            stored = x;
        }
        if let Some(at) = last_header {
            line[at] |= 0x80;
        }
        lines.push(line);
    }
    let mut out = Vec::with_capacity(4 * h + lines.iter().map(Vec::len).sum::<usize>());
    let mut offset = 4 * h;
    for line in &lines {
        let value = if line.is_empty() { 0 } else { offset as u32 };
        out.extend_from_slice(&value.to_le_bytes());
        offset += line.len();
    }
    for line in &lines {
        out.extend_from_slice(line);
    }
    out
}

/// The decoded pixels of a 32PX block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planes32 {
    /// Row-major RGBA8. Recolour pixels hold their alpha and the drawn colour callers chose (black here).
    pub rgba: Vec<u8>,
    /// Row-major recolour layer per pixel; 0 where the pixel is not a recolour pixel.
    pub layer: Vec<u8>,
    /// Row-major recolour intensity (the index into the layer's 256-step gradient); 0 elsewhere.
    pub intensity: Vec<u8>,
    /// Whether the pixel came from a recolour run (a run may name layer 0, which the game draws black).
    pub recolour: Vec<bool>,
}

/// Decodes the line data of a 32PX block (after its 8-byte header).
pub fn decode_32bpp(data: &[u8], width: u16, height: u16, base: u64) -> Result<Planes32> {
    let (w, h) = (usize::from(width), usize::from(height));
    crate::limits::check_pixels("32PX", u32::from(width), u32::from(height))?;
    let bad = |field: String, at: usize, m: &str| Error::invalid(FORMAT_ID, field, base + at as u64, m.to_string());
    let mut planes = Planes32 {
        rgba: vec![0; w * h * 4],
        layer: vec![0; w * h],
        intensity: vec![0; w * h],
        recolour: vec![false; w * h],
    };
    let mut p = 0usize;
    for y in 0..h {
        let field = || format!("32PX.line[{y}]");
        let start = p;
        let (Some(&lo), Some(&hi)) = (data.get(p), data.get(p + 1)) else {
            return Err(bad(field(), p, "the line length passes the end of the block"));
        };
        let length = usize::from(u16::from_le_bytes([lo, hi]));
        let end = if length == 0 { data.len() } else { start + length };
        if end > data.len() || (length != 0 && length < 3) {
            return Err(bad(field(), p, "the line length passes the end of the block"));
        }
        p += 2;
        let mut x = 0usize;
        loop {
            let Some(&mode) = data.get(p).filter(|_| p < end) else {
                return Err(bad(field(), p, "the line ends without its 0 byte"));
            };
            p += 1;
            if mode == 0 {
                break;
            }
            let n = usize::from(mode & 0x3F);
            if x + n > w {
                return Err(bad(field(), p - 1, "a run passes the width"));
            }
            let at = y * w + x;
            let need = match mode >> 6 {
                0 => 3 * n,
                1 => 1 + 3 * n,
                2 => 0,
                _ => 2 + n,
            };
            let run = data
                .get(p..p + need)
                .filter(|_| p + need <= end)
                .ok_or_else(|| bad(field(), p - 1, "a run passes the end of its line"))?;
            match mode >> 6 {
                0 | 1 => {
                    let (alpha, rgb) = if mode >> 6 == 0 { (255, run) } else { (run[0], &run[1..]) };
                    for (i, c) in rgb.chunks_exact(3).enumerate() {
                        planes.rgba[(at + i) * 4..(at + i) * 4 + 4].copy_from_slice(&[c[0], c[1], c[2], alpha]);
                    }
                }
                2 => {}
                _ => {
                    let (layer, alpha) = (run[0], run[1]);
                    for (i, &v) in run[2..].iter().enumerate() {
                        planes.rgba[(at + i) * 4 + 3] = alpha;
                        planes.layer[at + i] = layer;
                        planes.intensity[at + i] = v;
                        planes.recolour[at + i] = true;
                    }
                }
            }
            p += need;
            x += n;
        }
        if p != end {
            return Err(bad(field(), p, "bytes follow the line's 0 byte"));
        }
        if length == 0 && y + 1 != h {
            return Err(bad(field(), start, "a line of length 0 (the last) comes before the last line"));
        }
    }
    if p != data.len() {
        return Err(bad("32PX.lines".into(), p, "bytes follow the last line"));
    }
    Ok(planes)
}

/// The 32PX line data of `planes`, as rcdgen writes it (runs split where the recolour layer or the alpha
/// changes and at 63 pixels; trailing transparent pixels left to the line's 0 byte).
pub fn encode_32bpp(width: u16, height: u16, planes: &Planes32) -> Vec<u8> {
    let (w, h) = (usize::from(width), usize::from(height));
    let mut out = Vec::new();
    let alpha = |i: usize| planes.rgba.get(i * 4 + 3).copied().unwrap_or(0);
    let layer = |i: usize| {
        // rcdgen's recolour mask: a recolour pixel of layer 0 cannot be written; it is treated as plain.
        if planes.recolour.get(i).copied().unwrap_or(false) {
            planes.layer.get(i).copied().unwrap_or(0)
        } else {
            0
        }
    };
    for y in 0..h {
        let line_start = out.len();
        out.extend_from_slice(&[0, 0]);
        let row = y * w;
        let mut x = 0usize;
        while x < w {
            let rec = layer(row + x);
            let mut same_rec = 1;
            while x + same_rec < w && layer(row + x + same_rec) == rec {
                same_rec += 1;
            }
            let a = alpha(row + x);
            let mut n = 1;
            while n < same_rec && alpha(row + x + n) == a {
                n += 1;
            }
            if rec == 0 && a == 0 && x + n == w {
                break; // trailing transparency: the line's 0 byte says it
            }
            let n = n.min(63);
            let pixels = row + x..row + x + n;
            if rec != 0 {
                out.extend_from_slice(&[0xC0 | n as u8, rec, a]);
                out.extend(pixels.map(|i| planes.intensity.get(i).copied().unwrap_or(0)));
            } else if a == 255 || a != 0 {
                if a == 255 {
                    out.push(n as u8);
                } else {
                    out.extend_from_slice(&[0x40 | n as u8, a]);
                }
                for i in pixels {
                    out.extend_from_slice(planes.rgba.get(i * 4..i * 4 + 3).unwrap_or(&[0, 0, 0]));
                }
            } else {
                out.push(0x80 | n as u8);
            }
            x += n;
        }
        out.push(0);
        let length = if y + 1 < h { (out.len() - line_start) as u16 } else { 0 };
        out[line_start..line_start + 2].copy_from_slice(&length.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_bit_runs_follow_the_corrections() {
        // One row: 130 transparent, 300 of colour 5, 1 transparent, 1 of colour 9.
        let mut row = vec![0u8; 130];
        row.extend(std::iter::repeat(5u8).take(300));
        row.extend([0, 9]);
        let w = row.len() as u16;
        let data = encode_8bpp(w, 1, &row);
        // jump table, filler (127,0), gap 3 + 255 pixels, gap 0 + 45 pixels, last: gap 1 + 1 pixel.
        assert_eq!(&data[..4], &4u32.to_le_bytes());
        assert_eq!(&data[4..6], &[127, 0]);
        assert_eq!(&data[6..8], &[3, 255]);
        assert_eq!(&data[263..265], &[0, 45]);
        assert_eq!(&data[310..], &[0x81, 1, 9]);
        assert_eq!(decode_8bpp(&data, w, 1, 0).unwrap(), row);
        assert_eq!(encode_8bpp(3, 2, &[0; 6]), vec![0; 8]);
    }

    #[test]
    fn thirty_two_bit_runs_of_every_kind_round_trip() {
        let (w, h) = (70u16, 2u16);
        let n = usize::from(w) * usize::from(h);
        let mut p =
            Planes32 { rgba: vec![0; n * 4], layer: vec![0; n], intensity: vec![0; n], recolour: vec![false; n] };
        for x in 0..66 {
            p.rgba[x * 4..x * 4 + 4].copy_from_slice(&[x as u8, 2, 3, 255]); // 63 + 3 opaque
        }
        p.rgba[66 * 4..66 * 4 + 4].copy_from_slice(&[7, 8, 9, 128]); // semi-transparent
        for x in 67..69 {
            p.rgba[x * 4 + 3] = 200;
            p.layer[x] = 2;
            p.intensity[x] = 100 + x as u8;
            p.recolour[x] = true;
        }
        // row 1: transparent then one opaque pixel at the end
        p.rgba[(70 + 69) * 4..(70 + 69) * 4 + 4].copy_from_slice(&[1, 1, 1, 255]);
        let data = encode_32bpp(w, h, &p);
        assert_eq!(data[2], 63);
        assert_eq!(data[2 + 1 + 189], 3);
        let line0 = u16::from_le_bytes([data[0], data[1]]) as usize;
        assert_eq!(&data[line0 - 1..line0 + 2], &[0, 0, 0]); // end of line 0, last line stores 0
        assert_eq!(&data[line0 + 2..line0 + 4], &[0x80 | 63, 0x80 | 6]);
        assert_eq!(decode_32bpp(&data, w, h, 0).unwrap(), p);
    }
}
