//! RES reader: header, file table and name table, every range checked against the file (spec "Res",
//! CORRECTIONS.md "RES name lookup").

use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};
use crate::reader::Reader;

/// Parses a RES archive, borrowing `bytes`.
pub fn parse(bytes: &[u8]) -> Result<Res<'_>> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let magic = r.array::<4>("magic")?;
    if magic != MAGIC {
        return Err(r.error_at("magic", 0, format!("expected 3C E2 9C 01, found {}", hex4(magic))));
    }
    let header = ResHeader {
        files_count: r.u32("files_count")?,
        filetable_offset: r.u32("filetable_offset")?,
        nametable_size: r.u32("nametable_size")?,
    };
    let mut table = r
        .sub(
            u64::from(header.filetable_offset),
            (bytes.len() as u64).saturating_sub(u64::from(header.filetable_offset)),
            "filetable_offset",
        )
        .map_err(|e| e.at_offset(8))?;
    let count = table.count(u64::from(header.files_count), RECORD_SIZE, "files_count")?;
    let mut records = Vec::with_capacity(count);
    for i in 0..count {
        records.push(read_record(&mut table).map_err(|e| e.within(format_args!("file_table[{i}]")))?);
    }
    let names = r
        .sub(header.nametable_offset(), u64::from(header.nametable_size), "nametable_size")
        .map_err(|e| e.at_offset(12))?;
    for (i, rec) in records.iter().enumerate() {
        let at = u64::from(header.filetable_offset) + (i * RECORD_SIZE) as u64;
        check_record(&r, &names, rec, count, at).map_err(|e| e.within(format_args!("file_table[{i}]")))?;
    }
    Ok(Res { header, records, bytes })
}

fn read_record(r: &mut Reader<'_>) -> Result<ResRecord> {
    Ok(ResRecord {
        next_index: r.i32("next_index")?,
        size: r.u32("file_size")?,
        offset: r.u32("file_offset")?,
        modified: r.u32("last_change")?,
        name_len: r.u16("name_len")?,
        name_offset: r.u32("name_offset")?,
    })
}

fn check_record(file: &Reader<'_>, names: &Reader<'_>, rec: &ResRecord, count: usize, at: u64) -> Result<()> {
    if rec.next_index != -1 && !(0..count as i64).contains(&i64::from(rec.next_index)) {
        return Err(Error::invalid(
            FORMAT_ID,
            "next_index",
            at,
            format!("{} is neither −1 nor an index below {count}", rec.next_index),
        ));
    }
    // The offending field is reported at the record's position (the ranges themselves lie elsewhere).
    let at_field = |field: &str, e: Error| match e {
        Error::InvalidData { message, .. } => Error::invalid(FORMAT_ID, field, at, message),
        other => other,
    };
    names
        .sub(u64::from(rec.name_offset), u64::from(rec.name_len), "name_offset")
        .map_err(|e| at_field("name_offset", e))?;
    file.sub(u64::from(rec.offset), u64::from(rec.size), "file_offset").map_err(|e| at_field("file_offset", e))?;
    Ok(())
}

fn hex4(b: [u8; 4]) -> String {
    format!("{:02X} {:02X} {:02X} {:02X}", b[0], b[1], b[2], b[3])
}

/// The game's name hash: the sum of the cp1251 name bytes as **signed** chars, A–Z lowered, modulo the
/// entry count (CORRECTIONS.md). The spec is silent on a negative sum (names with bytes ≥ 0x80); relic
/// takes the Euclidean remainder, which keeps every slot in 0..count.
pub fn name_hash(name: &[u8], count: usize) -> usize {
    let sum: i64 = name.iter().map(|&b| i64::from(b.to_ascii_lowercase() as i8)).sum();
    sum.rem_euclid(count.max(1) as i64) as usize
}

impl<'a> Res<'a> {
    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The whole file.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The raw name of record `i` (checked by `parse`).
    pub fn name(&self, i: usize) -> &'a [u8] {
        let Some(rec) = self.records.get(i) else { return &[] };
        let start = self.header.nametable_offset() + u64::from(rec.name_offset);
        slice(self.bytes, start, u64::from(rec.name_len))
    }

    /// The data of record `i` (checked by `parse`).
    pub fn data(&self, i: usize) -> &'a [u8] {
        let Some(rec) = self.records.get(i) else { return &[] };
        slice(self.bytes, u64::from(rec.offset), u64::from(rec.size))
    }

    /// Looks a name up the way the game does: hash slot, then the `next_index` chain, comparing names
    /// case-insensitively. Chains are followed at most `len` steps, so a cycle cannot hang.
    pub fn find(&self, name: &[u8]) -> Option<usize> {
        if self.records.is_empty() {
            return None;
        }
        let mut i = name_hash(name, self.records.len()) as i64;
        for _ in 0..self.records.len() {
            let idx = usize::try_from(i).ok()?;
            if self.name(idx).eq_ignore_ascii_case(name) {
                return Some(idx);
            }
            i = i64::from(self.records.get(idx)?.next_index);
        }
        None
    }

    /// Records that the game cannot reach through the hash chains.
    pub fn unreachable(&self) -> Vec<usize> {
        (0..self.len()).filter(|&i| self.find(self.name(i)) != Some(i)).collect()
    }
}

fn slice(bytes: &[u8], start: u64, len: u64) -> &[u8] {
    let range =
        usize::try_from(start).ok().zip(usize::try_from(len).ok()).and_then(|(s, l)| Some(s..s.checked_add(l)?));
    range.and_then(|r| bytes.get(r)).unwrap_or(&[])
}
