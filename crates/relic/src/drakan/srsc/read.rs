//! SRSC reader: header, directory, and every body range checked against the file. Bodies are not decoded
//! here (the record modules do that on demand).

use super::types::*;
use super::FORMAT_ID;
use crate::error::Result;
use crate::reader::Reader;

/// Parses an SRSC file, borrowing `bytes`.
pub fn parse(bytes: &[u8]) -> Result<Srsc<'_>> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    if r.bytes(4, "magic")? != MAGIC {
        return Err(r.error_at("magic", 0, "expected `SRSC`"));
    }
    let header = SrscHeader {
        version: r.u16("version")?,
        directory_offset: r.u32("directory_offset")?,
        record_count: r.u16("record_count")?,
    };
    // The directory is the only map of the file (docs/formats/drakan.md#srsc-directory): it must lie inside it, whole.
    let dir_len = usize::from(header.record_count) * ENTRY_SIZE;
    let mut d =
        r.sub(u64::from(header.directory_offset), dir_len as u64, "directory_offset").map_err(|e| e.at_offset(6))?;
    let mut entries = Vec::with_capacity(usize::from(header.record_count));
    for i in 0..header.record_count {
        let at = d.offset();
        let entry = DirectoryEntry {
            record_type: d.u16("record_type")?,
            id: d.u16("record_id")?,
            group: d.u16("group_id")?,
            offset: d.u32("body_offset")?,
            size: d.u32("body_size")?,
        };
        r.sub(u64::from(entry.offset), u64::from(entry.size), "body_offset")
            .map_err(|e| e.at_offset(at + 6).within(format_args!("directory[{i}]")))?;
        entries.push(entry);
    }
    Ok(Srsc { header, entries, bytes })
}

impl<'a> Srsc<'a> {
    /// The body of entry `i` (empty when there is no such entry; ranges were checked by `parse`).
    pub fn body(&self, i: usize) -> &'a [u8] {
        self.entries.get(i).map_or(&[], |e| crate::layout::range(self.bytes, e.offset.into(), e.size.into()))
    }

    /// Absolute offset of entry `i`'s body.
    pub fn body_offset(&self, i: usize) -> u64 {
        self.entries.get(i).map_or(0, |e| u64::from(e.offset))
    }

    /// Index of the first record of `record_type` in directory order.
    pub fn find_first(&self, record_type: u16) -> Option<usize> {
        self.entries.iter().position(|e| e.record_type == record_type)
    }

    /// Index of the record of `record_type` and `id`, if any (the first in directory order).
    pub fn find(&self, record_type: u16, id: u16) -> Option<usize> {
        self.entries.iter().position(|e| e.record_type == record_type && e.id == id)
    }
}
