//! The little-endian writer every format writes through, the mirror of [`crate::reader::Reader`]: the same
//! method names in the same order, so a format's `read.rs` and `write.rs` read side by side. Counts are
//! checked against the width they are stored in (`count_u16`, `count_u32`, `count_i32`): a list too long for
//! its count is refused, naming the format and the field, never truncated.

use crate::codec::float::F32;
use crate::error::{Error, Result};

#[derive(Debug, Clone)]
pub struct Writer {
    out: Vec<u8>,
    format: &'static str,
}

macro_rules! write_le {
    ($name:ident, $ty:ty) => {
        #[doc = concat!("Writes a little-endian `", stringify!($ty), "`.")]
        pub fn $name(&mut self, value: $ty) {
            self.out.extend_from_slice(&value.to_le_bytes());
        }
    };
}

macro_rules! write_count {
    ($name:ident, $ty:ty) => {
        #[doc = concat!("Writes `n` as a `", stringify!($ty), "` count; refuses a count the width cannot hold.")]
        pub fn $name(&mut self, field: &str, n: usize) -> Result<$ty> {
            let stored = <$ty>::try_from(n).map_err(|_| {
                self.refused(
                    field,
                    format!("{n} items do not fit the {} count (at most {})", stringify!($ty), <$ty>::MAX),
                )
            })?;
            self.out.extend_from_slice(&stored.to_le_bytes());
            Ok(stored)
        }
    };
}

impl Writer {
    pub fn new(format: &'static str) -> Self {
        Writer { out: Vec::new(), format }
    }

    /// A writer that reserves `capacity` bytes (the size of the output, when it is known beforehand).
    pub fn with_capacity(format: &'static str, capacity: usize) -> Self {
        Writer { out: Vec::with_capacity(capacity), format }
    }

    pub fn format(&self) -> &'static str {
        self.format
    }
    /// The bytes written so far.
    pub fn data(&self) -> &[u8] {
        &self.out
    }
    pub fn len(&self) -> usize {
        self.out.len()
    }
    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }
    pub fn into_bytes(self) -> Vec<u8> {
        self.out
    }

    /// A refusal naming this writer's format and `field`.
    pub fn refused(&self, field: &str, why: impl std::fmt::Display) -> Error {
        Error::refused(self.format, field, why)
    }

    pub fn bytes(&mut self, bytes: &[u8]) {
        self.out.extend_from_slice(bytes);
    }

    /// `n` zero bytes (reserved and padding fields).
    pub fn zeros(&mut self, n: usize) {
        self.out.resize(self.out.len() + n, 0);
    }

    write_le!(u8, u8);
    write_le!(i8, i8);
    write_le!(u16, u16);
    write_le!(i16, i16);
    write_le!(u32, u32);
    write_le!(i32, i32);
    write_le!(u64, u64);
    write_le!(f32, f32);

    /// Floats one after the other (a vector, a matrix).
    pub fn f32s(&mut self, values: &[f32]) {
        values.iter().for_each(|&v| self.f32(v));
    }

    /// A float kept bit for bit ([`F32`]: NaN payloads and negative zero as stored).
    pub fn f32_exact(&mut self, value: F32) {
        self.u32(value.bits());
    }

    /// A fixed-size string field of `n` bytes: `text`, then zeros. Refuses text longer than the field.
    pub fn cstr_fixed(&mut self, field: &str, text: &[u8], n: usize) -> Result<()> {
        if text.len() > n {
            return Err(self.refused(field, format!("{} bytes do not fit the {n}-byte field", text.len())));
        }
        self.out.extend_from_slice(text);
        self.zeros(n - text.len());
        Ok(())
    }

    write_count!(count_u16, u16);
    write_count!(count_u32, u32);
    write_count!(count_i32, i32);

    /// Overwrites the `u32` at `pos` of what is written (an offset table filled in once the data it points
    /// at is written).
    pub fn patch_u32_at(&mut self, field: &str, pos: usize, value: u32) -> Result<()> {
        let len = self.out.len();
        match pos.checked_add(4).and_then(|end| self.out.get_mut(pos..end)) {
            Some(slot) => {
                slot.copy_from_slice(&value.to_le_bytes());
                Ok(())
            }
            None => Err(self.refused(field, format!("offset 0x{pos:X} is not inside the 0x{len:X} bytes written"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::Reader;

    #[test]
    fn writes_what_the_reader_reads() {
        let mut w = Writer::new("test");
        w.u8(1);
        w.u16(0x0302);
        w.i32(-2);
        w.f32(1.5);
        w.cstr_fixed("name", b"ab", 4).unwrap();
        w.zeros(2);
        let slot = w.len();
        w.u32(0);
        w.patch_u32_at("offset", slot, 0xAABB_CCDD).unwrap();
        let bytes = w.into_bytes();
        assert_eq!(bytes.len(), 21);
        let mut r = Reader::new("test", &bytes);
        assert_eq!(r.u8("a").unwrap(), 1);
        assert_eq!(r.u16("b").unwrap(), 0x0302);
        assert_eq!(r.i32("c").unwrap(), -2);
        assert_eq!(r.f32("d").unwrap(), 1.5);
        assert_eq!(r.cstr(4, "name").unwrap(), b"ab");
        r.skip(2, "pad").unwrap();
        assert_eq!(r.u32("offset").unwrap(), 0xAABB_CCDD);
    }

    #[test]
    fn counts_over_their_width_are_refused_not_truncated() {
        let mut w = Writer::new("test");
        assert_eq!(w.count_u16("frames", 65_535).unwrap(), 65_535);
        let err = w.count_u16("frames", 65_536).unwrap_err();
        assert!(matches!(err, Error::Refusal { .. }));
        assert_eq!(err.to_string(), "test: frames: 65536 items do not fit the u16 count (at most 65535)");
        assert_eq!(w.len(), 2, "a refused count writes nothing");
        let err = w.count_i32("faces", 1 << 31).unwrap_err();
        assert_eq!(err.to_string(), "test: faces: 2147483648 items do not fit the i32 count (at most 2147483647)");
    }

    #[test]
    fn fixed_fields_and_patches_stay_inside() {
        let mut w = Writer::new("test");
        let err = w.cstr_fixed("name", b"abcde", 4).unwrap_err();
        assert_eq!(err.to_string(), "test: name: 5 bytes do not fit the 4-byte field");
        w.u16(0);
        let err = w.patch_u32_at("offset", 0, 1).unwrap_err();
        assert_eq!(err.to_string(), "test: offset: offset 0x0 is not inside the 0x2 bytes written");
        assert!(w.patch_u32_at("offset", usize::MAX, 1).is_err());
    }
}
