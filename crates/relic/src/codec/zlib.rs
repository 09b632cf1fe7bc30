//! zlib streams (RFC 1950), through `flate2` with the zlib-rs backend: bounded inflation of a stream whose
//! decoded size a file declares, and compression for writers.
//!
//! Inflation never trusts a declared size blindly (a zip-bomb guard): a size that no deflate stream of the
//! given length can reach, or one over `--max-entry-size` ([`crate::limits`]), is refused before anything is
//! allocated; the output buffer is exactly the declared size, and a stream that decodes to more or fewer
//! bytes is an error (decoding stops at the declared size, so a bomb is cut off there).

use std::io::{Read, Write};

// The `bufread` decoder reads the compressed bytes where they lie (a slice of the mapped archive); the `read`
// one would first copy them through a buffer of its own.
use flate2::bufread::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::Compression;

use crate::error::{Error, Result};

/// Deflate's largest possible expansion: a 258-byte match costs at least 2 bits, so one compressed byte
/// yields at most 1032 bytes. A declared size above `packed × 1032` (plus a little for the stream's framing)
/// cannot be honest.
pub const MAX_RATIO: u64 = 1032;

/// Where a stream lies, for error messages.
#[derive(Debug, Clone, Copy)]
pub struct At<'f> {
    pub format: &'static str,
    pub field: &'f str,
    /// Absolute offset of the compressed stream in the file.
    pub offset: u64,
}

/// Checks a declared decoded size against the compressed length, without allocating.
pub fn check_declared(packed_len: usize, size: u64, at: At<'_>) -> Result<usize> {
    let reachable = (packed_len as u64).saturating_mul(MAX_RATIO).saturating_add(64);
    if size > reachable {
        return Err(Error::limit(
            at.format,
            at.field,
            at.offset,
            format!(
                "declares {size} bytes inflated from {packed_len} compressed bytes, more than deflate can \
                 produce (at most {MAX_RATIO}:1)"
            ),
        ));
    }
    let max = crate::limits::current().max_entry_size;
    if size > max {
        return Err(Error::limit(
            at.format,
            at.field,
            at.offset,
            format!("declares {size} inflated bytes, over relic's limit of {max} (--max-entry-size)"),
        ));
    }
    usize::try_from(size).map_err(|_| Error::limit(at.format, at.field, at.offset, "size does not fit in memory"))
}

/// Inflates a zlib stream that must decode to exactly `size` bytes (checksum verified).
pub fn inflate_exact(packed: &[u8], size: u64, at: At<'_>) -> Result<Vec<u8>> {
    let len = check_declared(packed.len(), size, at)?;
    let mut out = vec![0u8; len];
    let mut decoder = ZlibDecoder::new(packed);
    let bad = |msg: String| Error::invalid(at.format, at.field, at.offset, msg);
    let mut filled = 0;
    while let Some(rest) = out.get_mut(filled..).filter(|r| !r.is_empty()) {
        match decoder.read(rest) {
            Ok(0) => return Err(bad(format!("zlib data inflates to {filled} bytes, {size} declared"))),
            Ok(n) => filled += n,
            Err(e) => return Err(bad(format!("zlib data is corrupt after {filled} bytes: {e}"))),
        }
    }
    // Drive the stream to its end: more output is an error, and the end verifies the Adler-32 checksum.
    let mut probe = [0u8; 1];
    match decoder.read(&mut probe) {
        Ok(0) => Ok(out),
        Ok(_) => Err(bad(format!("zlib data inflates to more than the {size} bytes declared"))),
        Err(e) => Err(bad(format!("zlib data is corrupt at its end: {e}"))),
    }
}

/// Inflates a stream that must decode to exactly `size` bytes into `out`, 256 KiB at a time, so an entry is
/// extracted without being held in memory. Stops with an error as soon as the stream passes `size`.
pub fn inflate_to(packed: &[u8], size: u64, at: At<'_>, out: &mut dyn Write) -> Result<u64> {
    check_declared(packed.len(), size, at)?;
    let mut decoder = ZlibDecoder::new(packed);
    let bad = |msg: String| Error::invalid(at.format, at.field, at.offset, msg);
    // Large chunks: each is one `write` into the output file.
    let mut buf = vec![0u8; INFLATE_CHUNK.min(usize::try_from(size).unwrap_or(usize::MAX).saturating_add(1))];
    let mut filled = 0u64;
    loop {
        // One byte past the declared size is enough to tell a stream that is too long.
        let want = usize::try_from((size - filled).saturating_add(1)).unwrap_or(usize::MAX).min(buf.len());
        let chunk = buf.get_mut(..want).unwrap_or_default();
        let n = match decoder.read(chunk) {
            Ok(n) => n,
            Err(e) => return Err(bad(format!("zlib data is corrupt after {filled} bytes: {e}"))),
        };
        if n == 0 {
            break;
        }
        if filled + n as u64 > size {
            return Err(bad(format!("zlib data inflates to more than the {size} bytes declared")));
        }
        out.write_all(chunk.get(..n).unwrap_or_default()).map_err(|e| Error::io("output", e))?;
        filled += n as u64;
    }
    if filled != size {
        return Err(bad(format!("zlib data inflates to {filled} bytes, {size} declared")));
    }
    Ok(filled)
}

/// Bytes [`inflate_to`] inflates at a time.
const INFLATE_CHUNK: usize = 256 << 10;

/// Inflates at most the first `n` bytes of a stream whose decoded size is `size` (for sniffing).
pub fn inflate_head(packed: &[u8], size: u64, n: usize, at: At<'_>) -> Result<Vec<u8>> {
    check_declared(packed.len(), size, at)?;
    let want = n.min(usize::try_from(size).unwrap_or(usize::MAX));
    let mut out = Vec::with_capacity(want);
    ZlibDecoder::new(packed)
        .take(want as u64)
        .read_to_end(&mut out)
        .map_err(|e| Error::invalid(at.format, at.field, at.offset, format!("zlib data is corrupt: {e}")))?;
    Ok(out)
}

/// Whether two bytes can open a zlib stream: deflate method, a window of at most 32 KiB, and the check bits.
pub fn is_zlib_header(b: &[u8]) -> bool {
    match b {
        [cmf, flg, ..] => cmf & 0x0F == 8 && cmf >> 4 <= 7 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0,
        _ => false,
    }
}

/// Compresses `data` into a zlib stream at `level` (0–9). The output is deterministic for a given build.
pub fn compress(data: &[u8], level: u32) -> Vec<u8> {
    let mut enc = ZlibEncoder::new(Vec::with_capacity(data.len() / 2 + 64), Compression::new(level.min(9)));
    // Writing to a Vec cannot fail.
    let _ = enc.write_all(data);
    enc.finish().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const AT: At<'static> = At { format: "test", field: "data", offset: 7 };

    #[test]
    fn round_trips_and_checks_sizes() {
        let data: Vec<u8> = (0..5000u32).map(|i| (i % 251) as u8).collect();
        let packed = compress(&data, 9);
        assert!(is_zlib_header(&packed));
        assert_eq!(inflate_exact(&packed, data.len() as u64, AT).unwrap(), data);
        assert_eq!(inflate_head(&packed, data.len() as u64, 4, AT).unwrap(), &data[..4]);
        let short = inflate_exact(&packed, data.len() as u64 - 1, AT).unwrap_err();
        assert!(short.to_string().contains("more than"), "{short}");
        let long = inflate_exact(&packed, data.len() as u64 + 1, AT).unwrap_err();
        assert!(long.to_string().contains("inflates to 5000 bytes"), "{long}");
        assert_eq!(long.location().unwrap().offset, 7);
    }

    #[test]
    fn refuses_impossible_sizes_before_allocating() {
        let packed = compress(b"", 9);
        let err = inflate_exact(&packed, u64::from(u32::MAX), AT).unwrap_err();
        assert!(matches!(err, Error::Limit { .. }), "{err}");
        let max = crate::limits::current().max_entry_size;
        let err = inflate_exact(&vec![0u8; 2 << 20], max + 1, AT).unwrap_err();
        assert!(err.to_string().contains("relic's limit"), "{err}");
    }

    #[test]
    fn streams_exactly_the_declared_size_and_cuts_off_longer_streams() {
        let data: Vec<u8> = (0..300_000u32).map(|i| (i % 7) as u8).collect();
        let packed = compress(&data, 6);
        let mut out = Vec::new();
        assert_eq!(inflate_to(&packed, data.len() as u64, AT, &mut out).unwrap(), data.len() as u64);
        assert_eq!(out, data);
        // A stream longer than declared stops at the declared size (plus at most one chunk), with an error.
        let mut out = Vec::new();
        let err = inflate_to(&packed, 100_000, AT, &mut out).unwrap_err();
        assert!(err.to_string().contains("more than the 100000 bytes"), "{err}");
        assert!(out.len() <= 100_000, "{} bytes written", out.len());
        let err = inflate_to(&packed, data.len() as u64 + 1, AT, &mut Vec::new()).unwrap_err();
        assert!(err.to_string().contains("inflates to 300000 bytes"), "{err}");
    }

    #[test]
    fn corrupt_checksum_is_an_error() {
        let mut packed = compress(b"hello hello hello", 9);
        let last = packed.len() - 1;
        packed[last] ^= 1;
        assert!(inflate_exact(&packed, 17, AT).is_err());
        assert!(!is_zlib_header(b"BM"));
    }
}
