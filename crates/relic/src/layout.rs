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

/// Zero bytes a document may leave to be implied beyond the bytes it holds (see [`Canvas::into_bytes`]).
pub const IMPLIED_ZEROS_SLACK: u64 = 64 << 10;

/// A zero-filled file of a fixed size that pieces are placed into; placing past the end is an error that
/// names the document field. Pieces may overlap only where they agree: a piece that would change bytes an
/// earlier piece placed is an error too (a document whose records, names, data or gaps claim the same bytes
/// with different values describes no file, and writing it would silently give back another document).
///
/// Nothing is allocated until every piece is known: the zero bytes no piece fills are implied (gaps keep
/// only non-zero runs), and a document may imply at most as many as it holds plus
/// [`IMPLIED_ZEROS_SLACK`], so a kilobyte of JSON whose `file_size` says 4 GiB is refused, not written.
pub struct Canvas {
    format: &'static str,
    size: u64,
    pieces: Vec<(u64, Vec<u8>, String)>,
}

impl Canvas {
    /// A canvas of `size` bytes; sizes over `max` are refused.
    pub fn new(format: &'static str, size: u64, max: u64) -> Result<Self> {
        if size > max {
            return Err(Error::refused(
                format,
                "file_size",
                format!("{size} is over the {max} bytes this format can hold"),
            ));
        }
        Ok(Canvas { format, size, pieces: Vec::new() })
    }

    /// Copies `bytes` to offset `at`; `what` names the document field for the error.
    pub fn place(&mut self, at: u64, bytes: &[u8], what: impl FnOnce() -> String) -> Result<()> {
        let fits = at.checked_add(bytes.len() as u64).is_some_and(|end| end <= self.size);
        if !fits {
            return Err(Error::invalid(
                self.format,
                what(),
                0,
                format!("0x{at:X}+0x{:X} lies past file_size 0x{:X}", bytes.len(), self.size),
            ));
        }
        if !bytes.is_empty() {
            self.pieces.push((at, bytes.to_vec(), what()));
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

    /// The file: every piece at its place, zeros between. Refused when the zeros the document implies
    /// outnumber what it holds by more than [`IMPLIED_ZEROS_SLACK`] (a `file_size` or offset that asks for
    /// bytes the document does not have), or when two pieces disagree on a byte.
    pub fn into_bytes(self) -> Result<Vec<u8>> {
        // The bytes the pieces cover (their union), in O(n log n).
        let mut spans: Vec<(u64, u64)> = self.pieces.iter().map(|(at, b, _)| (*at, at + b.len() as u64)).collect();
        spans.sort_unstable();
        let (mut covered, mut reach) = (0u64, 0u64);
        for (start, end) in spans {
            let start = start.max(reach);
            if end > start {
                covered += end - start;
                reach = end;
            }
        }
        let implied = self.size - covered;
        if implied > covered.saturating_add(IMPLIED_ZEROS_SLACK) {
            return Err(Error::refused(
                self.format,
                "file_size",
                format!(
                    "{} bytes, of which the document holds {covered}: the other {implied} would be zeros it does not \
                     hold (more than what it holds plus {IMPLIED_ZEROS_SLACK}); give the file's real size",
                    self.size
                ),
            ));
        }
        let size = usize::try_from(self.size)
            .map_err(|_| Error::refused(self.format, "file_size", "too large for this machine"))?;
        let mut buf = vec![0u8; size];
        let mut placed = vec![0u64; size.div_ceil(64)];
        let is_placed = |placed: &[u64], i: usize| placed.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1);
        for (at, bytes, what) in &self.pieces {
            let start = *at as usize;
            let range = start..start + bytes.len();
            let conflict = range.clone().zip(bytes).find(|&(i, &b)| is_placed(&placed, i) && buf.get(i) != Some(&b));
            if let Some((i, &b)) = conflict {
                let there = buf.get(i).copied().unwrap_or(0);
                return Err(Error::invalid(
                    self.format,
                    what.clone(),
                    i as u64,
                    format!(
                        "overlaps bytes an earlier part of the document placed with other values (0x{there:02X} \
                         there, 0x{b:02X} here): the document describes no file"
                    ),
                ));
            }
            for i in range.clone() {
                if let Some(w) = placed.get_mut(i / 64) {
                    *w |= 1 << (i % 64);
                }
            }
            if let Some(dst) = buf.get_mut(range) {
                dst.copy_from_slice(bytes);
            }
        }
        Ok(buf)
    }
}

/// Pairs of record indices `(i, j)` (see [`meeting_ranges`]).
pub type RecordPairs = Vec<(usize, usize)>;

/// How the stored ranges of a file's records meet, given as `(index, offset, size)` (size 0: no data, meets
/// nothing): `shared` pairs `(i, j)` where record `i` names exactly the range record `j` named first, and
/// `overlapping` pairs where `i`'s range overlaps `j`'s without being the same, sorted. One pass with a hash
/// map, then one sweep in offset order: O(n log n), where a pairwise check would take minutes on the
/// 65,535 records a directory can list (FTG, SRSC).
pub fn meeting_ranges(records: impl IntoIterator<Item = (usize, u32, u32)>) -> (RecordPairs, RecordPairs) {
    let mut shared = Vec::new();
    let mut first: std::collections::HashMap<(u32, u32), usize> = std::collections::HashMap::new();
    let mut ranges = Vec::new();
    for (i, offset, size) in records.into_iter().filter(|r| r.2 > 0) {
        match first.get(&(offset, size)) {
            Some(&j) => shared.push((i, j)),
            None => {
                first.insert((offset, size), i);
                ranges.push((u64::from(offset), u64::from(offset) + u64::from(size), i));
            }
        }
    }
    // A range starting before the farthest end so far overlaps the range that reaches there.
    ranges.sort_unstable();
    let mut overlapping = Vec::new();
    let mut reach: Option<(u64, usize)> = None;
    for (start, end, i) in ranges {
        match reach {
            Some((far, j)) if start < far => {
                overlapping.push((i, j));
                if end > far {
                    reach = Some((end, i));
                }
            }
            _ => reach = Some((end, i)),
        }
    }
    overlapping.sort_unstable();
    (shared, overlapping)
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
        assert_eq!(c.into_bytes().unwrap(), bytes);
        let mut c = Canvas::new("test", 4, 8).unwrap();
        let err = c.place(3, &[1, 2], || "entries[3].offset".into()).unwrap_err();
        assert_eq!(err.location().unwrap().field, "entries[3].offset");
        assert!(Canvas::new("test", 9, 8).is_err());
    }

    #[test]
    fn pieces_may_overlap_only_where_they_agree() {
        let agreeing = || {
            let mut c = Canvas::new("test", 70, 70).unwrap();
            c.place(0, &[1, 2, 3], || "a".into()).unwrap();
            // The same bytes again (shared data ranges do this) are fine; so are implied zeros under a piece.
            c.place(1, &[2, 3, 0, 0], || "b".into()).unwrap();
            c.place(64, &[9, 9], || "c".into()).unwrap();
            c
        };
        let mut c = agreeing();
        c.place(2, &[3, 7], || "gaps[0]".into()).unwrap();
        let err = c.into_bytes().unwrap_err();
        let at = err.location().unwrap();
        assert_eq!((at.field.as_str(), at.offset), ("gaps[0]", 3), "{err}");
        let mut c = agreeing();
        c.place(63, &[0, 9, 8], || "d".into()).unwrap();
        assert_eq!(c.into_bytes().unwrap_err().location().unwrap().offset, 65);
        assert_eq!(agreeing().into_bytes().unwrap()[..5], [1, 2, 3, 0, 0]);
    }

    /// A document implies zeros only up to what it holds plus the slack: a kilobyte whose `file_size` says
    /// 4 GiB is refused before anything is allocated.
    #[test]
    fn implied_zeros_are_bounded_by_what_the_document_holds() {
        let mut c = Canvas::new("test", u64::from(u32::MAX), u64::from(u32::MAX)).unwrap();
        c.place(0, &[1; 1024], || "data".into()).unwrap();
        let err = c.into_bytes().unwrap_err();
        assert!(err.is_refusal(), "{err}");
        assert_eq!(err.field(), Some("file_size"), "{err}");
        assert!(err.to_string().contains("of which the document holds 1024"), "{err}");
        // Exactly at the bound: written.
        let size = 2 * 1024 + IMPLIED_ZEROS_SLACK;
        let mut c = Canvas::new("test", size, size).unwrap();
        c.place(size - 1024, &[7; 1024], || "data".into()).unwrap();
        let bytes = c.into_bytes().unwrap();
        assert_eq!((bytes.len() as u64, bytes[0], bytes[bytes.len() - 1]), (size, 0, 7));
        let mut c = Canvas::new("test", size + 1, size + 1).unwrap();
        c.place(0, &[7; 1024], || "data".into()).unwrap();
        assert!(c.into_bytes().is_err());
    }
}
