//! FTG reader: header, directory, every entry's range checked against the file.

use super::types::*;
use super::FORMAT_ID;
use crate::error::Result;
use crate::reader::Reader;

/// Parses an FTG, borrowing `bytes`. The magic is `BOTG` or `FTG\0`; the directory must lie inside the file
/// and every entry inside it (the check that decides, docs/formats/dark-reign.md#ftg).
pub fn parse(bytes: &[u8]) -> Result<Ftg<'_>> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let magic = r.array::<4>("magic")?;
    if &magic != MAGIC && &magic != MAGIC_COMMUNITY {
        return Err(r.error_at("magic", 0, "expected `BOTG` (or `FTG\\0`)"));
    }
    let header = FtgHeader { magic, directory_offset: r.u32("directory_offset")?, file_count: r.u32("file_count")? };
    let count = u64::from(header.file_count);
    let mut d = r
        .sub(u64::from(header.directory_offset), count.saturating_mul(ENTRY_SIZE as u64), "directory_offset")
        .map_err(|e| e.at_offset(4))?;
    let n = d.count(count, ENTRY_SIZE, "file_count")?;
    let mut entries = Vec::with_capacity(n);
    for i in 0..n {
        let at = d.offset();
        let name_field = d.array::<NAME_SIZE>("name")?;
        let end = name_field.iter().position(|&b| b == 0).unwrap_or(NAME_SIZE);
        let name = crate::codec::text::decode(encoding_rs::WINDOWS_1252, name_field.get(..end).unwrap_or(&[]));
        let entry = FtgEntry { name_field, name, offset: d.u32("offset")?, size: d.u32("size")? };
        r.sub(u64::from(entry.offset), u64::from(entry.size), "offset")
            .map_err(|e| e.at_offset(at + NAME_SIZE as u64).within(format_args!("directory[{i}]")))?;
        entries.push(entry);
    }
    Ok(Ftg { header, entries, bytes })
}

impl<'a> Ftg<'a> {
    /// The data of entry `i` (ranges were checked by `parse`).
    pub fn data(&self, i: usize) -> &'a [u8] {
        self.entries.get(i).map_or(&[], |e| crate::layout::range(self.bytes, e.offset.into(), e.size.into()))
    }

    /// The entry the game finds for `name`: ASCII case ignored, the first of duplicates (docs/formats/dark-reign.md#ftg-directory).
    pub fn find(&self, name: &str) -> Option<usize> {
        self.entries.iter().position(|e| e.name.eq_ignore_ascii_case(name))
    }
}
