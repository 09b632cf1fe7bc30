//! The bounded little-endian reader every format parses through. Reads never panic: each returns a
//! `Result` whose error names the format, the field and the absolute byte offset. Counts read from a file
//! are checked against the bytes that remain before anything is allocated (`count`), and nested
//! structures go through `descend`, which enforces a depth limit.

use crate::error::{Error, Result};

/// Deepest nesting any parser may reach (nested archives, node trees).
pub const MAX_DEPTH: u32 = 32;

#[derive(Debug, Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    /// Absolute offset of `data[0]` in the file, so sub-readers report file offsets.
    base: u64,
    format: &'static str,
    depth: u32,
}

macro_rules! read_le {
    ($name:ident, $ty:ty) => {
        #[doc = concat!("Reads a little-endian `", stringify!($ty), "`.")]
        pub fn $name(&mut self, field: &str) -> Result<$ty> {
            let bytes = self.array::<{ std::mem::size_of::<$ty>() }>(field)?;
            Ok(<$ty>::from_le_bytes(bytes))
        }
    };
}

impl<'a> Reader<'a> {
    pub fn new(format: &'static str, data: &'a [u8]) -> Self {
        Reader { data, pos: 0, base: 0, format, depth: 0 }
    }

    /// A reader over `data` that lies at absolute offset `base` of its file (a record body taken out of a
    /// container), so errors name file offsets.
    pub fn with_base(format: &'static str, data: &'a [u8], base: u64) -> Self {
        Reader { data, pos: 0, base, format, depth: 0 }
    }

    /// A reader for a nested file (an archive entry), keeping the nesting depth of its parent.
    pub fn nested(&self, format: &'static str, data: &'a [u8]) -> Result<Self> {
        let mut r = Reader::new(format, data);
        r.depth = self.depth;
        r.descend("nested")?;
        Ok(r)
    }

    pub fn format(&self) -> &'static str {
        self.format
    }
    pub fn data(&self) -> &'a [u8] {
        self.data
    }
    pub fn len(&self) -> usize {
        self.data.len()
    }
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    pub fn pos(&self) -> usize {
        self.pos
    }
    /// Absolute file offset of the current position.
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }
    pub fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// An `InvalidData` error at the current position.
    pub fn error(&self, field: &str, message: impl Into<String>) -> Error {
        Error::invalid(self.format, field, self.offset(), message)
    }

    /// An `InvalidData` error at a given position of this reader's data.
    pub fn error_at(&self, field: &str, pos: usize, message: impl Into<String>) -> Error {
        Error::invalid(self.format, field, self.base + pos as u64, message)
    }

    /// Moves to an absolute position within this reader's data.
    pub fn seek(&mut self, pos: usize, field: &str) -> Result<()> {
        if pos > self.data.len() {
            return Err(self.error(
                field,
                format!("offset 0x{pos:X} points past the end (data is 0x{:X} bytes)", self.data.len()),
            ));
        }
        self.pos = pos;
        Ok(())
    }

    pub fn skip(&mut self, n: usize, field: &str) -> Result<()> {
        self.bytes(n, field).map(|_| ())
    }

    /// Borrows the next `n` bytes.
    pub fn bytes(&mut self, n: usize, field: &str) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len());
        match end.and_then(|e| self.data.get(self.pos..e)) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(self.error(field, format!("needs {n} bytes but only {} remain", self.remaining()))),
        }
    }

    pub fn array<const N: usize>(&mut self, field: &str) -> Result<[u8; N]> {
        let s = self.bytes(N, field)?;
        let mut out = [0u8; N];
        out.copy_from_slice(s);
        Ok(out)
    }

    read_le!(u8, u8);
    read_le!(i8, i8);
    read_le!(u16, u16);
    read_le!(i16, i16);
    read_le!(u32, u32);
    read_le!(i32, i32);
    read_le!(u64, u64);
    read_le!(f32, f32);

    /// Reads a fixed-size string field and returns the bytes before the first NUL (all of them if none).
    pub fn cstr(&mut self, n: usize, field: &str) -> Result<&'a [u8]> {
        let s = self.bytes(n, field)?;
        Ok(s.split(|&b| b == 0).next().unwrap_or(s))
    }

    /// Checks that `n` elements of `elem_size` bytes fit in what remains, and returns `n` as `usize`,
    /// so a hostile count can never make a parser allocate more than the file holds.
    pub fn count(&self, n: u64, elem_size: usize, field: &str) -> Result<usize> {
        let need = n.checked_mul(elem_size.max(1) as u64);
        match need {
            Some(need) if need <= self.remaining() as u64 => Ok(n as usize),
            _ => Err(Error::limit(
                self.format,
                field,
                self.offset(),
                format!(
                    "count {n} of {elem_size}-byte items needs more than the {} bytes that remain",
                    self.remaining()
                ),
            )),
        }
    }

    /// A reader over `len` bytes at `offset` of this reader's data (for offset tables).
    pub fn sub(&self, offset: u64, len: u64, field: &str) -> Result<Reader<'a>> {
        let range = usize::try_from(offset)
            .ok()
            .zip(usize::try_from(len).ok())
            .and_then(|(o, l)| Some(o..o.checked_add(l)?))
            .filter(|r| r.end <= self.data.len());
        match range.and_then(|r| Some((r.start, self.data.get(r)?))) {
            Some((start, data)) => {
                Ok(Reader { data, pos: 0, base: self.base + start as u64, format: self.format, depth: self.depth })
            }
            None => Err(self.error(
                field,
                format!("range 0x{offset:X}+0x{len:X} points past the end (data is 0x{:X} bytes)", self.data.len()),
            )),
        }
    }

    /// Enters one level of nesting; fails past [`MAX_DEPTH`].
    pub fn descend(&mut self, field: &str) -> Result<()> {
        if self.depth >= MAX_DEPTH {
            return Err(Error::limit(
                self.format,
                field,
                self.offset(),
                format!("nesting deeper than {MAX_DEPTH} levels"),
            ));
        }
        self.depth += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_values_and_reports_offsets() {
        let data = [0x01, 0x02, 0x03, 0x04, 0xFF, 0xFF, b'a', b'b', 0, b'z'];
        let mut r = Reader::new("test", &data);
        assert_eq!(r.u16("a").unwrap(), 0x0201);
        assert_eq!(r.u16("b").unwrap(), 0x0403);
        assert_eq!(r.i16("c").unwrap(), -1);
        assert_eq!(r.cstr(4, "name").unwrap(), b"ab");
        let err = r.u32("tail").unwrap_err();
        assert_eq!(err.location().unwrap().offset, 10);
        assert_eq!(err.location().unwrap().field, "tail");
        assert!(err.to_string().starts_with("test: tail at offset 0xA"), "{err}");
    }

    #[test]
    fn count_rejects_more_than_remains() {
        let data = [0u8; 16];
        let r = Reader::new("test", &data);
        assert_eq!(r.count(4, 4, "n").unwrap(), 4);
        assert!(r.count(5, 4, "n").is_err());
        assert!(r.count(u64::MAX, 4, "n").is_err());
        assert!(matches!(r.count(u64::MAX, 4, "n"), Err(Error::Limit { .. })));
    }

    #[test]
    fn sub_reader_keeps_absolute_offsets() {
        let data = [0u8; 32];
        let r = Reader::new("test", &data);
        let mut s = r.sub(8, 4, "table").unwrap();
        s.u32("x").unwrap();
        let err = s.u8("y").unwrap_err();
        assert_eq!(err.location().unwrap().offset, 12);
        assert!(r.sub(30, 4, "table").is_err());
        assert!(r.sub(u64::MAX, 1, "table").is_err());
    }

    #[test]
    fn depth_is_limited() {
        let mut r = Reader::new("test", &[]);
        for _ in 0..MAX_DEPTH {
            r.descend("node").unwrap();
        }
        assert!(matches!(r.descend("node"), Err(Error::Limit { .. })));
    }
}
