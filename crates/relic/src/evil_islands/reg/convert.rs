//! REG to the common model: the typed INI (sections and keys in file order), the lossless JSON document
//! and the info summary.

use serde_json::json;

use super::types::*;
use super::write::{hash_placements, layout};
use super::{ini, FORMAT_ID};

/// How a file's layout compares with what relic writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Exactly what relic writes from the same content: the INI packs back byte for byte.
    Relic,
    /// relic's layout with some tables placed otherwise: the INI keeps them (`;@table`) and packs back
    /// byte for byte.
    RelicWithTables,
    /// Another order, padding or extra bytes: the INI keeps every name and value, not the bytes.
    Other,
}

impl Layout {
    pub fn describe(self) -> &'static str {
        match self {
            Layout::Relic => "relic",
            Layout::RelicWithTables => "relic, with the file's own hash-table slots",
            Layout::Other => "other (the INI keeps the content, the JSON the bytes)",
        }
    }
}

/// Indices sorted by offset: file order.
fn file_order(offsets: impl Iterator<Item = u32>) -> Vec<usize> {
    let mut order: Vec<(u32, usize)> = offsets.enumerate().map(|(i, o)| (o, i)).collect();
    order.sort_unstable();
    order.into_iter().map(|(_, i)| i).collect()
}

/// The placements of entries listed in `order`, or `None` when they are the hash placements.
fn table_of(order: &[usize], names: Vec<&[u8]>, links: impl Fn(usize) -> Link) -> Option<Vec<Placement>> {
    let table: Vec<Placement> = order.iter().map(|&i| Placement { slot: i as u16, next: links(i) }).collect();
    (table != hash_placements(&names)).then_some(table)
}

/// The content in file order, with tables where they differ from the hash placements, and how the file's
/// layout compares with relic's.
pub fn to_content(reg: &Reg) -> (Content, Layout) {
    let order = file_order(reg.sections.iter().map(|s| s.offset));
    let mut sections = Vec::with_capacity(order.len());
    for &i in &order {
        let Some(s) = reg.sections.get(i) else { continue };
        let key_order = file_order(s.keys.iter().map(|k| k.offset));
        let keys: Vec<PlainKey> = key_order
            .iter()
            .filter_map(|&j| s.keys.get(j))
            .map(|k| PlainKey { name: k.name.clone(), value: k.value.clone() })
            .collect();
        let names = keys.iter().map(|k| k.name.bytes()).collect();
        let table = table_of(&key_order, names, |j| s.keys.get(j).map_or(END, |k| k.next));
        sections.push(PlainSection { name: s.name.clone(), keys, table });
    }
    let names = sections.iter().map(|s| s.name.bytes()).collect();
    let table = table_of(&order, names, |i| reg.sections.get(i).map_or(END, |s| s.next));
    let content = Content { sections, table };
    let same = layout(&content).is_ok_and(|r| r == *reg);
    let tables = content.table.is_some() || content.sections.iter().any(|s| s.table.is_some());
    let kind = match (same, tables) {
        (true, false) => Layout::Relic,
        (true, true) => Layout::RelicWithTables,
        (false, _) => Layout::Other,
    };
    (content, kind)
}

/// The typed INI text of a file.
pub fn to_ini(reg: &Reg) -> String {
    let (content, kind) = to_content(reg);
    let note = (kind == Layout::Other).then_some(
        "This file is not laid out the way relic writes REG files (record order, padding or extra\n\
         bytes differ). Every section, key and value is here, but packing this INI lays the file out\n\
         anew; `relic convert --to json` keeps the exact bytes.",
    );
    ini::to_text(&content, note)
}

/// The lossless JSON document.
pub fn to_document(reg: &Reg) -> RegDocument {
    RegDocument { format: FORMAT_ID.into(), reg: reg.clone() }
}

/// Header summary for `relic info`.
pub fn info(reg: &Reg) -> serde_json::Value {
    let arrays = reg.sections.iter().flat_map(|s| &s.keys).filter(|k| k.value.is_array()).count();
    json!({
        "format": FORMAT_ID,
        "sections": reg.sections.len(),
        "keys": reg.key_count(),
        "array_keys": arrays,
        "file_size": reg.file_size,
        "layout": to_content(reg).1.describe(),
        "sections_unreachable_by_hash": reg.unreachable_sections(),
        "keys_unreachable_by_hash": reg.unreachable_keys(),
    })
}
