//! REG writers: the byte-exact rebuild of a [`Reg`] (every record at its stored offset), and the layout of
//! new files from [`Content`] (what an INI holds).
//!
//! Layout of a new file: magic, section count, section table, then the sections in content order; each
//! section is its key count, name length, name, key table, then its key records in content order. Table
//! slots: an entry goes to its name's hash slot when that is free, otherwise to the highest free slot,
//! linked at the end of the chain that starts at its hash slot (the RES scheme, docs/formats/evil-islands.md#reg-hash-chains). The hash
//! is the RES name hash ([`crate::evil_islands::res::name_hash`]).

use super::read::parse;
use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};
use crate::evil_islands::res::name_hash;
use crate::layout::Canvas;
use crate::writer::Writer;

fn invalid(field: impl std::fmt::Display, why: impl std::fmt::Display) -> Error {
    Error::refused(FORMAT_ID, field, why)
}

/// Largest REG file: offsets are 32-bit.
const MAX_FILE: u64 = u32::MAX as u64;

fn u16_len(n: usize, field: impl Fn() -> String, what: &str) -> Result<u16> {
    u16::try_from(n).map_err(|_| invalid(field(), format!("{n} {what} is over the 65535 a REG holds")))
}

/// Encodes a key record: type byte, name, value.
fn encode_key(name: &Text, value: &Value, field: &dyn Fn() -> String) -> Result<Vec<u8>> {
    let mut w = Writer::with_capacity(FORMAT_ID, 3 + name.0.len() + value.encoded_len() as usize);
    w.u8(value.type_byte());
    w.count_u16(&format!("{}.name", field()), name.0.len())?;
    w.bytes(&name.0);
    let string = |w: &mut Writer, t: &Text| -> Result<()> {
        w.count_u16(&format!("{}.value", field()), t.0.len())?;
        w.bytes(&t.0);
        Ok(())
    };
    if let Some(n) = value.array_len() {
        w.count_u16(&format!("{}.value", field()), n)?;
    }
    match value {
        Value::Int(v) => w.i32(*v),
        Value::Float(v) => w.f32_exact(*v),
        Value::String(t) => string(&mut w, t)?,
        Value::IntArray(v) => v.iter().for_each(|&x| w.i32(x)),
        Value::FloatArray(v) => v.iter().for_each(|&x| w.f32_exact(x)),
        Value::StringArray(v) => {
            for t in v {
                string(&mut w, t)?;
            }
        }
    }
    Ok(w.into_bytes())
}

/// Encodes a section header: key count, name, key table.
fn encode_section_header(section: &Section, field: &dyn Fn() -> String) -> Result<Vec<u8>> {
    let mut w = Writer::with_capacity(FORMAT_ID, 4 + section.name.0.len() + SLOT_SIZE as usize * section.keys.len());
    w.count_u16(&format!("{}.keys", field()), section.keys.len())?;
    w.count_u16(&format!("{}.name", field()), section.name.0.len())?;
    w.bytes(&section.name.0);
    for k in &section.keys {
        w.u16(k.next.0);
        w.u32(k.offset);
    }
    Ok(w.into_bytes())
}

/// Rebuilds the exact file a [`Reg`] describes, and checks it with the reader.
pub fn write(reg: &Reg) -> Result<Vec<u8>> {
    let count = u16_len(reg.sections.len(), || "sections".into(), "sections")?;
    let mut canvas = Canvas::new(FORMAT_ID, reg.file_size, MAX_FILE)?;
    let mut head = Writer::with_capacity(FORMAT_ID, (HEADER_SIZE + SLOT_SIZE * u64::from(count)) as usize);
    head.bytes(&MAGIC);
    head.u16(count);
    for s in &reg.sections {
        head.u16(s.next.0);
        head.u32(s.offset);
    }
    canvas.place(0, head.data(), || "header".into())?;
    for (i, s) in reg.sections.iter().enumerate() {
        let field = || format!("sections[{i}]");
        canvas.place(u64::from(s.offset), &encode_section_header(s, &field)?, field)?;
        for (j, k) in s.keys.iter().enumerate() {
            let field = || format!("sections[{i}].keys[{j}]");
            let at = u64::from(s.offset) + u64::from(k.offset);
            canvas.place(at, &encode_key(&k.name, &k.value, &field)?, field)?;
        }
    }
    canvas.place_gaps(&reg.gaps)?;
    let buf = canvas.into_bytes()?;
    let back = parse(&buf).map_err(|e| e.within("rebuilt file"))?;
    if back.sections != reg.sections {
        return Err(invalid(
            "sections",
            "records or gaps overlap: the rebuilt file does not read back as the document describes",
        ));
    }
    Ok(buf)
}

/// Table placements by the name hash, in entry order: an entry takes its hash slot when free, otherwise
/// the highest free slot, linked at the end of the chain starting at its hash slot.
///
/// Linear time: every slot belongs to one chain for good (a slot joins a chain only while it is free),
/// so the end of the chain through any slot is kept per chain instead of being walked to.
pub fn hash_placements(names: &[&[u8]]) -> Vec<Placement> {
    let n = names.len();
    let mut occupied = vec![false; n];
    let mut next = vec![END; n];
    // chain_of[slot]: the chain (numbered by its first slot) that the slot belongs to; tail[chain]: its last slot.
    let mut chain_of = vec![usize::MAX; n];
    let mut tail = vec![usize::MAX; n];
    let mut slots = Vec::with_capacity(n);
    let mut free = n;
    for name in names {
        let home = name_hash(name, n);
        let slot = if !occupied[home] {
            chain_of[home] = home;
            tail[home] = home;
            home
        } else {
            while free > 0 && occupied[free - 1] {
                free -= 1;
            }
            free -= 1; // fewer entries than slots were placed, so a free slot remains
            let chain = chain_of[home];
            next[tail[chain]] = Link::to(free);
            tail[chain] = free;
            chain_of[free] = chain;
            free
        };
        occupied[slot] = true;
        slots.push(slot);
    }
    slots.into_iter().map(|s| Placement { slot: s as u16, next: next[s] }).collect()
}

/// Checks explicit placements: a permutation of the slots with links in range.
fn check_placements(table: &[Placement], field: &dyn Fn() -> String) -> Result<()> {
    let n = table.len();
    let mut seen = vec![false; n];
    for (i, p) in table.iter().enumerate() {
        let slot = usize::from(p.slot);
        match seen.get_mut(slot) {
            Some(s) if !*s => *s = true,
            Some(_) => return Err(invalid(field(), format!("entry {i}: slot {slot} is given twice"))),
            None => return Err(invalid(field(), format!("entry {i}: slot {slot} is not below {n}"))),
        }
        if p.next.slot().is_some_and(|s| s >= n) {
            return Err(invalid(field(), format!("entry {i}: link {} is neither −1 nor a slot below {n}", p.next)));
        }
    }
    Ok(())
}

/// The placements to use for `n` entries: the given ones when there are exactly `n` (checked), else the
/// hash placements (a table that no longer matches its entries, after an edit, is rebuilt).
fn placements(given: Option<&Vec<Placement>>, names: &[&[u8]], field: &dyn Fn() -> String) -> Result<Vec<Placement>> {
    match given {
        Some(t) if t.len() == names.len() => {
            check_placements(t, field)?;
            Ok(t.clone())
        }
        _ => Ok(hash_placements(names)),
    }
}

/// Lays out a new file from content: see the module doc.
pub fn layout(content: &Content) -> Result<Reg> {
    let n = content.sections.len();
    u16_len(n, || "sections".into(), "sections")?;
    let names: Vec<&[u8]> = content.sections.iter().map(|s| s.name.bytes()).collect();
    let section_places = placements(content.table.as_ref(), &names, &|| "section table".into())?;
    let mut slots: Vec<Option<Section>> = vec![None; n];
    let mut cursor = HEADER_SIZE + SLOT_SIZE * n as u64;
    for (i, (section, place)) in content.sections.iter().zip(&section_places).enumerate() {
        let field = || format!("sections[{i}] `{}`", section.name.decoded());
        let key_names: Vec<&[u8]> = section.keys.iter().map(|k| k.name.bytes()).collect();
        let key_places = placements(section.table.as_ref(), &key_names, &|| format!("{} key table", field()))?;
        u16_len(section.keys.len(), || format!("{}.keys", field()), "keys")?;
        u16_len(section.name.0.len(), || format!("{}.name", field()), "name bytes")?;
        let start = cursor;
        let mut key_cursor = 4 + section.name.0.len() as u64 + SLOT_SIZE * section.keys.len() as u64;
        let mut keys: Vec<Option<Key>> = vec![None; section.keys.len()];
        for (key, kp) in section.keys.iter().zip(&key_places) {
            let offset =
                u32::try_from(key_cursor).map_err(|_| invalid(field(), "the section is over 4 GiB".to_string()))?;
            key_cursor += 3 + key.name.0.len() as u64 + key.value.encoded_len();
            if let Some(slot) = keys.get_mut(usize::from(kp.slot)) {
                *slot = Some(Key { next: kp.next, offset, name: key.name.clone(), value: key.value.clone() });
            }
        }
        cursor += key_cursor;
        let offset = u32::try_from(start).map_err(|_| invalid(field(), "lies past 4 GiB".to_string()))?;
        if let Some(slot) = slots.get_mut(usize::from(place.slot)) {
            *slot = Some(Section {
                next: place.next,
                offset,
                name: section.name.clone(),
                keys: keys.into_iter().flatten().collect(),
            });
        }
    }
    if cursor > MAX_FILE {
        return Err(invalid("file_size", format!("the file would be {cursor} bytes; REG offsets stop at 4 GiB")));
    }
    Ok(Reg { file_size: cursor, sections: slots.into_iter().flatten().collect(), gaps: Vec::new() })
}

/// Writes a new file from content.
pub fn write_content(content: &Content) -> Result<Vec<u8>> {
    write(&layout(content)?)
}
