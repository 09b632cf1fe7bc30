//! Byte-exact documents: the pieces every lossless JSON form of an offset-table format needs. A reader
//! records which byte ranges its structures cover; [`gaps`] keeps the rest when it is not all zero. A
//! writer rebuilds the file on a [`Canvas`] of the stored size, placing each piece at its offset.

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;
use crate::error::{Error, Result};

/// The `len` bytes at `start` of a file, or nothing when they do not lie inside it (for offset-table
/// formats whose ranges were checked when the table was read).
pub fn range(bytes: &[u8], start: u64, len: u64) -> &[u8] {
    let r = usize::try_from(start).ok().zip(usize::try_from(len).ok()).and_then(|(s, l)| Some(s..s.checked_add(l)?));
    r.and_then(|r| bytes.get(r)).unwrap_or(&[])
}

/// Bytes of a file outside every structure a reader knows (non-zero padding, slack), kept so that the
/// file is written back exactly; zero bytes are implied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gap {
    pub offset: u64,
    pub bytes: Base64,
}

/// Runs of `bytes` outside the `covered` ranges (`start..end`, any order, may overlap) that are not all
/// zero.
pub fn gaps(bytes: &[u8], mut covered: Vec<(u64, u64)>) -> Vec<Gap> {
    covered.sort_unstable();
    let mut out = Vec::new();
    let mut pos = 0u64;
    let end = bytes.len() as u64;
    for (start, stop) in covered.into_iter().chain(std::iter::once((end, end))) {
        if start > pos {
            let run = bytes.get(pos as usize..start.min(end) as usize).unwrap_or(&[]);
            if run.iter().any(|&b| b != 0) {
                out.push(Gap { offset: pos, bytes: Base64(run.to_vec()) });
            }
        }
        pos = pos.max(stop);
    }
    out
}

/// A zero-filled file of a fixed size that pieces are placed into; placing past the end is an error that
/// names the document field. Pieces may overlap only where they agree: a piece that would change bytes an
/// earlier piece placed is an error too (a document whose records, names, data or gaps claim the same bytes
/// with different values describes no file, and writing it would silently give back another document).
pub struct Canvas {
    format: &'static str,
    buf: Vec<u8>,
    /// One bit per byte of `buf`: placed by some piece.
    placed: Vec<u64>,
}

impl Canvas {
    /// A canvas of `size` bytes; sizes over `max` are refused before anything is allocated.
    pub fn new(format: &'static str, size: u64, max: u64) -> Result<Self> {
        if size > max {
            return Err(Error::invalid(
                format,
                "file_size",
                0,
                format!("{size} is over the {max} bytes this format can hold"),
            ));
        }
        Ok(Canvas { format, buf: vec![0; size as usize], placed: vec![0; (size as usize).div_ceil(64)] })
    }

    fn is_placed(&self, i: usize) -> bool {
        self.placed.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    /// Copies `bytes` to offset `at`; `what` names the document field for the error.
    pub fn place(&mut self, at: u64, bytes: &[u8], what: impl FnOnce() -> String) -> Result<()> {
        let len = self.buf.len();
        let range = usize::try_from(at).ok().and_then(|s| Some(s..s.checked_add(bytes.len())?));
        let Some(range) = range.filter(|r| r.end <= len) else {
            return Err(Error::invalid(
                self.format,
                what(),
                0,
                format!("0x{at:X}+0x{:X} lies past file_size 0x{len:X}", bytes.len()),
            ));
        };
        let conflict = range.clone().zip(bytes).find(|&(i, &b)| self.is_placed(i) && self.buf.get(i) != Some(&b));
        if let Some((i, &b)) = conflict {
            let there = self.buf.get(i).copied().unwrap_or(0);
            return Err(Error::invalid(
                self.format,
                what(),
                i as u64,
                format!(
                    "overlaps bytes an earlier part of the document placed with other values (0x{there:02X} there, \
                     0x{b:02X} here): the document describes no file"
                ),
            ));
        }
        for i in range.clone() {
            if let Some(w) = self.placed.get_mut(i / 64) {
                *w |= 1 << (i % 64);
            }
        }
        if let Some(dst) = self.buf.get_mut(range) {
            dst.copy_from_slice(bytes);
        }
        Ok(())
    }

    /// Places every gap.
    pub fn place_gaps(&mut self, gaps: &[Gap]) -> Result<()> {
        for (k, gap) in gaps.iter().enumerate() {
            self.place(gap.offset, &gap.bytes.0, || format!("gaps[{k}]"))?;
        }
        Ok(())
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_keep_only_non_zero_uncovered_runs_and_the_canvas_puts_them_back() {
        let bytes = [1, 2, 0, 0, 7, 0, 3, 3];
        let g = gaps(&bytes, vec![(0, 2), (5, 6), (1, 3)]);
        assert_eq!(g, vec![Gap { offset: 3, bytes: Base64(vec![0, 7]) }, Gap { offset: 6, bytes: Base64(vec![3, 3]) }]);
        let mut c = Canvas::new("test", 8, 8).unwrap();
        c.place(0, &[1, 2], || "head".into()).unwrap();
        c.place_gaps(&g).unwrap();
        assert_eq!(c.into_bytes(), bytes);
        let mut c = Canvas::new("test", 4, 8).unwrap();
        let err = c.place(3, &[1, 2], || "entries[3].offset".into()).unwrap_err();
        assert_eq!(err.location().unwrap().field, "entries[3].offset");
        assert!(Canvas::new("test", 9, 8).is_err());
    }

    #[test]
    fn pieces_may_overlap_only_where_they_agree() {
        let mut c = Canvas::new("test", 70, 70).unwrap();
        c.place(0, &[1, 2, 3], || "a".into()).unwrap();
        // The same bytes again (shared data ranges do this) are fine; so are implied zeros under a piece.
        c.place(1, &[2, 3, 0, 0], || "b".into()).unwrap();
        c.place(64, &[9, 9], || "c".into()).unwrap();
        let err = c.place(2, &[3, 7], || "gaps[0]".into()).unwrap_err();
        let at = err.location().unwrap();
        assert_eq!((at.field.as_str(), at.offset), ("gaps[0]", 3), "{err}");
        let err = c.place(63, &[0, 9, 8], || "d".into()).unwrap_err();
        assert_eq!(err.location().unwrap().offset, 65, "{err}");
        assert_eq!(c.into_bytes()[..5], [1, 2, 3, 0, 0]);
    }
}
