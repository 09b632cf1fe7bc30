//! REG reader (spec "REG", docs/formats/evil-islands.md#reg-hash-chains): header, section table, sections with their key tables, key
//! records, every offset checked against the file.
//!
//! Records may not overlap: a file whose tables point several entries at the same bytes is rejected. This
//! also bounds the work: the records read can never add up to more bytes than the file holds, so a small
//! hostile file cannot make the reader expand one record thousands of times.

use super::types::*;
use super::FORMAT_ID;
use crate::codec::float::F32;
use crate::error::{Error, Result};
use crate::evil_islands::res::name_hash;
use crate::reader::Reader;

/// Parses a REG file.
pub fn parse(bytes: &[u8]) -> Result<Reg> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let magic = r.array::<4>("magic")?;
    if magic != MAGIC {
        return Err(r.error_at(
            "magic",
            0,
            format!("expected FB 3E AB 45, found {:02X} {:02X} {:02X} {:02X}", magic[0], magic[1], magic[2], magic[3]),
        ));
    }
    let count = r.u16("sections_count")?;
    let n = r.count(u64::from(count), SLOT_SIZE as usize, "sections_count")?;
    let mut table = Vec::with_capacity(n);
    for i in 0..n {
        let at = r.offset();
        let next = r.u16("order").map(Link).map_err(|e| e.within(format_args!("section_table[{i}]")))?;
        let offset = r.u32("offset").map_err(|e| e.within(format_args!("section_table[{i}]")))?;
        check_next(next, n, at).map_err(|e| e.within(format_args!("section_table[{i}]")))?;
        table.push((next, offset, at));
    }
    let mut cover = Coverage::new(bytes.len());
    cover.add(0, r.pos() as u64, "header and section table".into())?;
    let mut sections = Vec::with_capacity(n);
    for (i, (next, offset, at)) in table.into_iter().enumerate() {
        let section =
            read_section(&r, next, offset, at, i, &mut cover).map_err(|e| e.within(format_args!("sections[{i}]")))?;
        sections.push(section);
    }
    let gaps = cover.finish(bytes)?;
    Ok(Reg { file_size: bytes.len() as u64, sections, gaps })
}

fn check_next(next: Link, count: usize, at: u64) -> Result<()> {
    match next.slot() {
        Some(slot) if slot >= count => Err(Error::invalid(
            FORMAT_ID,
            "order",
            at,
            format!("{slot} is neither FF FF (the end of a chain) nor a slot below {count}"),
        )),
        _ => Ok(()),
    }
}

fn read_section(
    file: &Reader<'_>,
    next: Link,
    offset: u32,
    table_at: u64,
    index: usize,
    cover: &mut Coverage,
) -> Result<Section> {
    let mut s = file
        .sub(u64::from(offset), (file.len() as u64).saturating_sub(u64::from(offset)), "offset")
        .map_err(|e| e.at_offset(table_at + 2))?;
    let keys_count = s.u16("keys_count")?;
    let name_len = s.u16("name_len")?;
    let name = Text(s.bytes(usize::from(name_len), "name")?.to_vec());
    let header_len = 4 + u64::from(name_len) + SLOT_SIZE * u64::from(keys_count);
    // Claimed before the key table is read, so overlapping sections are caught before any work is done.
    cover.add(u64::from(offset), header_len, format!("sections[{index}]"))?;
    let k = s.count(u64::from(keys_count), SLOT_SIZE as usize, "keys_count")?;
    let mut slots = Vec::with_capacity(k);
    for j in 0..k {
        let at = s.offset();
        let key_next = s.u16("order").map(Link).map_err(|e| e.within(format_args!("key_table[{j}]")))?;
        let key_offset = s.u32("offset").map_err(|e| e.within(format_args!("key_table[{j}]")))?;
        check_next(key_next, k, at).map_err(|e| e.within(format_args!("key_table[{j}]")))?;
        slots.push((key_next, key_offset, at));
    }
    let mut keys = Vec::with_capacity(k);
    for (j, (key_next, key_offset, at)) in slots.into_iter().enumerate() {
        let start = u64::from(offset) + u64::from(key_offset);
        let mut kr = file
            .sub(start, (file.len() as u64).saturating_sub(start), "offset")
            .map_err(|e| e.at_offset(at + 2).within(format_args!("key_table[{j}]")))?;
        let (name, value) = read_key(&mut kr).map_err(|e| e.within(format_args!("keys[{j}]")))?;
        cover.add(start, kr.pos() as u64, format!("sections[{index}].keys[{j}]"))?;
        keys.push(Key { next: key_next, offset: key_offset, name, value });
    }
    Ok(Section { next, offset, name, keys })
}

fn read_key(r: &mut Reader<'_>) -> Result<(Text, Value)> {
    let type_at = r.pos();
    let type_byte = r.u8("type")?;
    let name_len = r.u16("name_len")?;
    let name = Text(r.bytes(usize::from(name_len), "name")?.to_vec());
    let base = type_byte & !ARRAY_BIT;
    if base > TYPE_STRING {
        return Err(r.error_at(
            "type",
            type_at,
            format!("0x{type_byte:02X}: value type {base} is not 0 (int), 1 (float) or 2 (string)"),
        ));
    }
    if type_byte & ARRAY_BIT == 0 {
        let value = match base {
            TYPE_INT => Value::Int(r.i32("value")?),
            TYPE_FLOAT => Value::Float(F32::from_le_bytes(r.array::<4>("value")?)),
            _ => Value::String(read_string(r, "value")?),
        };
        return Ok((name, value));
    }
    let count = r.u16("array_size")?;
    let min_size = if base == TYPE_STRING { 2 } else { 4 };
    let n = r.count(u64::from(count), min_size, "array_size")?;
    let field = |i: usize| format!("value[{i}]");
    let value = match base {
        TYPE_INT => Value::IntArray((0..n).map(|i| r.i32(&field(i))).collect::<Result<_>>()?),
        TYPE_FLOAT => {
            Value::FloatArray((0..n).map(|i| r.array::<4>(&field(i)).map(F32::from_le_bytes)).collect::<Result<_>>()?)
        }
        _ => Value::StringArray((0..n).map(|i| read_string(r, &field(i))).collect::<Result<_>>()?),
    };
    Ok((name, value))
}

fn read_string(r: &mut Reader<'_>, field: &str) -> Result<Text> {
    let len = r.u16(&format!("{field}.len"))?;
    Ok(Text(r.bytes(usize::from(len), field)?.to_vec()))
}

/// The byte ranges claimed by records, to reject overlaps and find the bytes outside every record.
struct Coverage {
    ranges: Vec<(u64, u64, String)>,
    total: u64,
    file_len: u64,
}

impl Coverage {
    fn new(file_len: usize) -> Self {
        Coverage { ranges: Vec::new(), total: 0, file_len: file_len as u64 }
    }

    fn add(&mut self, start: u64, len: u64, what: String) -> Result<()> {
        self.total = self.total.saturating_add(len);
        if self.total > self.file_len {
            return Err(Error::invalid(
                FORMAT_ID,
                "offset",
                start.min(self.file_len),
                format!("{what} overlaps other records: the records claim more bytes than the file holds"),
            ));
        }
        self.ranges.push((start, start + len, what));
        Ok(())
    }

    /// Checks that no two records overlap and returns the non-zero runs outside them.
    fn finish(mut self, bytes: &[u8]) -> Result<Vec<Gap>> {
        self.ranges.sort_by_key(|r| (r.0, r.1));
        for pair in self.ranges.windows(2) {
            if let [(_, end, a), (start, _, b)] = pair {
                if start < end {
                    return Err(Error::invalid(
                        FORMAT_ID,
                        b.clone(),
                        *start,
                        format!("overlaps {a} (records may not share bytes)"),
                    ));
                }
            }
        }
        let gaps = crate::layout::gaps(bytes, self.ranges.iter().map(|r| (r.0, r.1)).collect());
        Ok(gaps)
    }
}

/// Follows a hash chain the way the game looks a name up: from the name's hash slot through the chain
/// links, comparing names case-insensitively (A–Z). `names[i]` and `links[i]` describe slot `i`. At most
/// `len` steps, so a cycle cannot hang.
pub fn lookup(name: &[u8], names: &[&[u8]], links: &[Link]) -> Option<usize> {
    let mut steps = usize::MAX;
    lookup_counted(name, names, links, &mut steps)
}

/// [`lookup`], taking its steps from a budget (`None` also when the budget runs out).
fn lookup_counted(name: &[u8], names: &[&[u8]], links: &[Link], budget: &mut usize) -> Option<usize> {
    if names.is_empty() {
        return None;
    }
    let mut slot = name_hash(name, names.len());
    for _ in 0..names.len() {
        *budget = budget.checked_sub(1)?;
        if names.get(slot)?.eq_ignore_ascii_case(name) {
            return Some(slot);
        }
        slot = links.get(slot)?.slot()?;
    }
    None
}

/// Most chain steps the unreachable counts take: real files have chains of one or two entries (a file
/// of a million keys stays well within), while a hostile file can make every lookup walk every slot
/// (65535² steps).
const LOOKUP_BUDGET: usize = 4_000_000;

/// Entries of one table the lookup does not reach; `None` when the budget ran out.
fn unreachable_in(names: &[&[u8]], links: &[Link], budget: &mut usize) -> Option<usize> {
    let mut count = 0;
    for (i, name) in names.iter().enumerate() {
        if lookup_counted(name, names, links, budget) != Some(i) {
            if *budget == 0 {
                return None;
            }
            count += 1;
        }
    }
    Some(count)
}

impl Reg {
    /// Sections the game's name lookup does not reach (another entry of the same name may shadow one);
    /// `None` when the chains are too long to check.
    pub fn unreachable_sections(&self) -> Option<usize> {
        let names: Vec<&[u8]> = self.sections.iter().map(|s| s.name.bytes()).collect();
        let links: Vec<Link> = self.sections.iter().map(|s| s.next).collect();
        let mut budget = LOOKUP_BUDGET;
        unreachable_in(&names, &links, &mut budget)
    }

    /// Keys, over all sections, that the game's name lookup does not reach; `None` when the chains are
    /// too long to check.
    pub fn unreachable_keys(&self) -> Option<usize> {
        let mut budget = LOOKUP_BUDGET;
        self.sections
            .iter()
            .map(|s| {
                let names: Vec<&[u8]> = s.keys.iter().map(|k| k.name.bytes()).collect();
                let links: Vec<Link> = s.keys.iter().map(|k| k.next).collect();
                unreachable_in(&names, &links, &mut budget)
            })
            .sum()
    }

    pub fn key_count(&self) -> usize {
        self.sections.iter().map(|s| s.keys.len()).sum()
    }
}
