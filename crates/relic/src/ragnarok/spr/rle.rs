//! The zero-run RLE of 2.1 palette frames: a 0 byte is followed by a count of zeros; every other byte is
//! one pixel. Runs go on across rows (the frame is one run of `width × height` indices).
//!
//! `00 00`: SPR.MD says it stands for a single zero; roBrowser's loader draws two zeros, zrenderer none.
//! The encoders of real files write a run of n zeros as `00 n` (1 ≤ n ≤ 255) and never `00 00`; relic reads
//! it as SPR.MD says and never writes it.

use crate::error::{Error, Result};

use super::FORMAT_ID;

/// Decodes the RLE `data` (which starts at file offset `at`) of palette frame `frame` into `pixels`
/// indices; more or fewer pixels than that is an error naming the byte where it went wrong.
pub fn decode(data: &[u8], pixels: usize, frame: usize, at: u64) -> Result<Vec<u8>> {
    let field = || format!("palette_frames[{frame}].rle");
    // Each 2 bytes give at most 255 pixels: a small RLE never asks for a huge buffer.
    if pixels as u64 > (data.len() as u64).saturating_mul(128) {
        return Err(Error::invalid(
            FORMAT_ID,
            field(),
            at,
            format!("{} bytes of RLE cannot give the frame's {pixels} pixels", data.len()),
        ));
    }
    let mut out = Vec::with_capacity(pixels);
    let mut bytes = data.iter().enumerate();
    while let Some((i, &b)) = bytes.next() {
        let run = if b == 0 {
            match bytes.next() {
                Some((_, &0)) => 1,
                Some((_, &n)) => usize::from(n),
                None => return Err(Error::invalid(FORMAT_ID, field(), at + i as u64, "a zero run without its count")),
            }
        } else {
            1
        };
        if out.len() + run > pixels {
            return Err(Error::invalid(
                FORMAT_ID,
                field(),
                at + i as u64,
                format!("the RLE gives more than the frame's {pixels} pixels"),
            ));
        }
        if b == 0 {
            out.resize(out.len() + run, 0);
        } else {
            out.push(b);
        }
    }
    if out.len() != pixels {
        return Err(Error::invalid(
            FORMAT_ID,
            field(),
            at + data.len() as u64,
            format!("the RLE gives {} of the frame's {pixels} pixels", out.len()),
        ));
    }
    Ok(out)
}

/// Encodes indices: each run of zeros as `00 n`, split every 255 zeros.
pub fn encode(indices: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(indices.len() / 2 + 2);
    let mut run = 0u8;
    for &b in indices {
        if b == 0 {
            if run == u8::MAX {
                out.extend_from_slice(&[0, run]);
                run = 0;
            }
            run += 1;
        } else {
            if run > 0 {
                out.extend_from_slice(&[0, run]);
                run = 0;
            }
            out.push(b);
        }
    }
    if run > 0 {
        out.extend_from_slice(&[0, run]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_split_at_255_and_decode_back() {
        let mut px = vec![0u8; 300];
        px.push(7);
        px.push(0);
        assert_eq!(encode(&px), [0, 255, 0, 45, 7, 0, 1]);
        assert_eq!(decode(&encode(&px), px.len(), 0, 0).unwrap(), px);
        assert_eq!(decode(&[0, 0, 5], 2, 0, 0).unwrap(), [0, 5]);
        assert!(decode(&[0, 3], 2, 0, 0).is_err());
        assert!(decode(&[5, 0], 2, 0, 0).is_err());
        assert!(decode(&[5], 2, 0, 0).is_err());
    }
}
