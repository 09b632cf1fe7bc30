//! PNT3, the game's run-length packing of ARGB8 texels (docs/formats/evil-islands.md#mmp-pnt3). Written by hand: it is this
//! game's own scheme, no crate knows it.
//!
//! The packed data is a sequence of little-endian u32 words. A word `v` with `0 < v ≤ 1,000,000` stands
//! for `v` zero bytes; any other word (0 included) is a literal: its 4 bytes are copied. The spec phrases
//! this as "pending literal words are flushed before each zero run and at the end"; emitting each literal
//! as it comes gives the same bytes.

/// Largest zero-run word; larger words are literals.
pub const RUN_MAX: u32 = 1_000_000;

/// Unpacks `data` to exactly `expected` bytes.
pub fn unpack(data: &[u8], expected: usize) -> Result<Vec<u8>, String> {
    if data.len() % 4 != 0 {
        return Err(format!("{} packed bytes are not whole 4-byte words", data.len()));
    }
    let words = data.len() / 4;
    if (expected as u128) > words as u128 * u128::from(RUN_MAX) {
        return Err(format!("{words} words cannot unpack to {expected} bytes"));
    }
    let mut out: Vec<u8> = Vec::with_capacity(expected.min(data.len().saturating_mul(4)));
    for (i, word) in data.chunks_exact(4).enumerate() {
        let v = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        let run = (1..=RUN_MAX).contains(&v);
        let add = if run { v as usize } else { 4 };
        if out.len() + add > expected {
            return Err(format!("word {i} unpacks past the {expected} bytes of the image"));
        }
        if run {
            out.resize(out.len() + add, 0);
        } else {
            out.extend_from_slice(word);
        }
    }
    if out.len() != expected {
        return Err(format!("unpacks to {} bytes, the image needs {expected}", out.len()));
    }
    Ok(out)
}

/// Packs ARGB8 texels: runs of zero words become run words, other words are literals. `None` when a texel
/// cannot be a literal (its word would read as a run: alpha 0 and red below 16, not all zero) — the caller
/// then stores the texels raw.
pub fn pack(argb8: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut zeros: u64 = 0;
    let flush = |zeros: &mut u64, out: &mut Vec<u8>| {
        while *zeros > 0 {
            let run = (*zeros).min(u64::from(RUN_MAX)) as u32;
            out.extend_from_slice(&run.to_le_bytes());
            *zeros -= u64::from(run);
        }
    };
    for word in argb8.chunks_exact(4) {
        let v = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        if v == 0 {
            zeros += 4;
            continue;
        }
        if v <= RUN_MAX {
            return None;
        }
        flush(&mut zeros, &mut out);
        out.extend_from_slice(word);
    }
    flush(&mut zeros, &mut out);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_zero_runs_split_below_the_limit() {
        let zeros = vec![0u8; 2_000_008];
        let packed = pack(&zeros).unwrap();
        assert_eq!(packed, [1_000_000u32, 1_000_000, 8].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<_>>());
        assert_eq!(unpack(&packed, zeros.len()).unwrap(), zeros);
    }
}
