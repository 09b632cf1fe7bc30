//! DXT1 (BC1, with 1-bit alpha) and DXT3 (BC2, explicit 4-bit alpha) block compression, through the
//! `texpresso` crate (a Rust port of libsquish). This wrapper adds what a file parser needs: it never
//! panics on short or odd-sized data, and it lays blocks out row by row over an image of any size.
//!
//! Decoding follows the DirectX rules: in DXT1 a block whose first colour is not greater than its second
//! (`colour0 <= colour1` as u16) has three colours and index 3 is transparent black; DXT3 blocks always
//! use four colours and carry a 4-bit alpha per pixel (scaled by 17).

use texpresso::{Format, Params};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dxt {
    /// BC1: 8-byte blocks, colour with 1-bit alpha.
    Dxt1,
    /// BC2: 16-byte blocks, 4-bit alpha then a colour block.
    Dxt3,
}

impl Dxt {
    /// Bytes per 4×4 block.
    pub fn block_size(self) -> usize {
        match self {
            Dxt::Dxt1 => 8,
            Dxt::Dxt3 => 16,
        }
    }

    fn format(self) -> Format {
        match self {
            Dxt::Dxt1 => Format::Bc1,
            Dxt::Dxt3 => Format::Bc2,
        }
    }

    /// Bytes of the full 4×4 block grid covering `width × height`.
    pub fn grid_size(self, width: u32, height: u32) -> u64 {
        u64::from(width.div_ceil(4)) * u64::from(height.div_ceil(4)) * self.block_size() as u64
    }

    /// Decodes blocks stored row by row to RGBA8 (`width · height · 4` bytes). Blocks that `data` does not
    /// hold (it is shorter than the grid) leave their pixels transparent black; bytes past the grid are
    /// ignored.
    pub fn decode(self, data: &[u8], width: u32, height: u32) -> Result<Vec<u8>, String> {
        let (w, h) = (width as usize, height as usize);
        let len = w.checked_mul(h).and_then(|p| p.checked_mul(4)).ok_or("image too large")?;
        let mut out = vec![0u8; len];
        let blocks_wide = w.div_ceil(4);
        for (i, block) in data.chunks_exact(self.block_size()).enumerate() {
            let (bx, by) = (i % blocks_wide.max(1), i / blocks_wide.max(1));
            if by * 4 >= h {
                break;
            }
            let pixels = self.format().decompress_block(block);
            for (j, px) in pixels.iter().enumerate() {
                let (x, y) = (bx * 4 + j % 4, by * 4 + j / 4);
                if x < w && y < h {
                    let at = (y * w + x) * 4;
                    if let Some(dst) = out.get_mut(at..at + 4) {
                        dst.copy_from_slice(px);
                    }
                }
            }
        }
        Ok(out)
    }

    /// Compresses RGBA8 pixels (`width · height · 4` bytes) to the full block grid. In DXT1, pixels with
    /// alpha below 128 become the transparent index.
    pub fn encode(self, rgba: &[u8], width: u32, height: u32) -> Result<Vec<u8>, String> {
        let (w, h) = (width as usize, height as usize);
        if w.checked_mul(h).and_then(|p| p.checked_mul(4)) != Some(rgba.len()) {
            return Err(format!("{} bytes are not {width}×{height} RGBA pixels", rgba.len()));
        }
        let size = usize::try_from(self.grid_size(width, height)).map_err(|_| "image too large")?;
        let mut out = vec![0u8; size];
        if size == 0 {
            return Ok(out); // texpresso cannot split an empty grid into rows
        }
        self.format().compress(rgba, w, h, Params::default(), &mut out);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_sizes_and_short_data_never_panic() {
        for (w, h) in [(0, 0), (1, 1), (3, 5), (9, 2)] {
            for dxt in [Dxt::Dxt1, Dxt::Dxt3] {
                let px = vec![200u8; (w * h * 4) as usize];
                let enc = dxt.encode(&px, w, h).unwrap();
                assert_eq!(enc.len() as u64, dxt.grid_size(w, h));
                assert_eq!(dxt.decode(&enc, w, h).unwrap().len(), px.len());
                assert_eq!(dxt.decode(&enc[..enc.len() / 2], w, h).unwrap().len(), px.len());
                assert_eq!(dxt.decode(&[1, 2, 3], w, h).unwrap().len(), px.len());
            }
        }
        assert!(Dxt::Dxt1.encode(&[0; 3], 1, 1).is_err());
    }
}
