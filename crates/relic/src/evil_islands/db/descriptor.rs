//! relic's table of the databases' columns: for each file type its tables (blocks) and each table's fields,
//! with their types and names, as the public Evil Islands DB editor describes them.
//!
//! The facts (names, types, order) come from the descriptor files of github.com/chemmalion/EIDBEditor
//! (`dbformat/dbfiles.txt`, `dbblocks.txt`, `dbtypes.txt`, `dbheaders.txt`, commit 1e7b6ae2), written out in
//! relic's own form in `columns.tsv` beside this file. Where the descriptors disagree with each other or with
//! the spec ("Database description"), relic chose:
//! - `prints.db` block 2 (the one with field 10) is `FirePrints`, as `dbtypes.txt` and the spec say;
//!   `dbblocks.txt` names block 2 `FootPrints` and block 3 `FirePrints`.
//! - `dbheaders.txt` names prints sub-field 2 twice per field (`… Lifetime`, `… Fadeout`): the second is
//!   sub-field 3. `udb` Monsters field 38 has two names; the later one is kept.
//! - Types where the descriptor and the spec's format strings differ follow the descriptor (facts from a
//!   tool whose files the game loads): e.g. Weapons field 22 is a FloatList (spec `H`), `Byte` fields are
//!   numbers 0–255 (spec `B`, bool). A payload that does not decode exactly under the descriptor's type
//!   stays raw bytes, so nothing is lost either way.
//! - Column names repeated within one table get ` (f<id>)` appended to the later ones; fields, list
//!   elements and sub-fields the descriptor does not name are `f<id>`, `f<id>[k]` and `f<id>.<k>`.

use std::sync::OnceLock;

use super::types::FileType;

/// A field type of the descriptor (`dbtypes.txt`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    /// `String`, `FixedString(n)`: cp1251 text and its NUL.
    String,
    /// `SignedLong`: i32.
    SignedLong,
    /// `UnsignedLong`: u32.
    UnsignedLong,
    /// `Float`: f32.
    Float,
    /// `Byte`: one byte, 0–255.
    Byte,
    /// `Hex` (and any field the descriptor does not type): bytes as hex.
    Hex,
    /// `FloatList`: packed f32s.
    FloatList,
    /// `ByteList`: bytes, each a number.
    ByteList,
    /// `BitList(n)`: bytes as bits, bit 0 of each byte first (each 0 or 1).
    BitList,
    /// `StringList`, `MinfixedStringList(n)`: nested nodes of one string each.
    StringList,
    /// `TypeList(n)`: nested field nodes typed by sub-block `n`.
    TypeList(u8),
    /// `AcksUniqueType(n)`: nested record nodes, each of fields typed by sub-block `n`.
    Acks(u8),
}

impl FieldType {
    fn parse(s: &str) -> Option<FieldType> {
        let (name, arg) = match s.split_once('(') {
            Some((n, rest)) => (n, rest.strip_suffix(')')?.parse::<u8>().ok()),
            None => (s, None),
        };
        Some(match name {
            "String" | "FixedString" => FieldType::String,
            "SignedLong" => FieldType::SignedLong,
            "UnsignedLong" => FieldType::UnsignedLong,
            "Float" => FieldType::Float,
            "Byte" => FieldType::Byte,
            "Hex" => FieldType::Hex,
            "FloatList" => FieldType::FloatList,
            "ByteList" => FieldType::ByteList,
            "BitList" => FieldType::BitList,
            "StringList" | "MinfixedStringList" => FieldType::StringList,
            "TypeList" => FieldType::TypeList(arg?),
            "AcksUniqueType" => FieldType::Acks(arg?),
            _ => return None,
        })
    }

    /// Lists whose elements can each have a column.
    pub fn is_element_list(self) -> bool {
        matches!(self, FieldType::FloatList | FieldType::ByteList | FieldType::BitList)
    }
}

/// One field of a block: its id (the field node's type byte), type as the descriptor spells it, and the
/// names of its column(s): `(index, name)` of list elements or sub-fields, index 0 for a plain field.
#[derive(Debug, Clone)]
pub struct FieldDesc {
    pub id: u8,
    pub ty: FieldType,
    pub type_name: &'static str,
    pub names: Vec<(u8, &'static str)>,
}

impl FieldDesc {
    /// The name of a plain field (index 0), if the descriptor gives one.
    pub fn name(&self) -> Option<&'static str> {
        self.names.iter().find(|(i, _)| *i == 0).map(|(_, n)| *n)
    }
}

/// A block: a table (ids 1…) or a sub-structure (ids 20…).
#[derive(Debug, Clone)]
pub struct BlockDesc {
    pub id: u8,
    /// The descriptor's block name (`Materials`, `QuickItems`): CSV file names and the JSON's `name`.
    pub name: &'static str,
    pub title: &'static str,
    pub fields: Vec<FieldDesc>,
}

impl BlockDesc {
    pub fn field(&self, id: u8) -> Option<&FieldDesc> {
        self.fields.iter().find(|f| f.id == id)
    }
}

/// One database: its tables and sub-structures.
#[derive(Debug, Clone)]
pub struct DbDesc {
    pub file_type: FileType,
    pub name: &'static str,
    pub tables: Vec<BlockDesc>,
    pub subs: Vec<BlockDesc>,
}

impl DbDesc {
    pub fn table(&self, id: u8) -> Option<&BlockDesc> {
        self.tables.iter().find(|b| b.id == id)
    }
    pub fn sub(&self, id: u8) -> Option<&BlockDesc> {
        self.subs.iter().find(|b| b.id == id)
    }
}

const TABLE: &str = include_str!("columns.tsv");

fn file_type(id: &str) -> Option<FileType> {
    FileType::KNOWN.into_iter().find(|t| t.id() == id)
}

fn parse_table() -> Vec<DbDesc> {
    let mut out: Vec<DbDesc> = Vec::new();
    for line in TABLE.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&'static str> = line.split('\t').collect();
        match cols.as_slice() {
            ["db", id, name] => {
                if let Some(ft) = file_type(id) {
                    out.push(DbDesc { file_type: ft, name, tables: Vec::new(), subs: Vec::new() });
                }
            }
            ["table", block, name, title] => {
                if let (Some(db), Ok(id)) = (out.last_mut(), block.parse()) {
                    db.tables.push(BlockDesc { id, name, title, fields: Vec::new() });
                }
            }
            ["field", block, field, ty, names] => {
                let (Some(db), Ok(block), Ok(id), Some(parsed)) =
                    (out.last_mut(), block.parse::<u8>(), field.parse::<u8>(), FieldType::parse(ty))
                else {
                    continue;
                };
                let names = names
                    .split('|')
                    .filter_map(|n| n.split_once('='))
                    .filter_map(|(i, n)| Some((i.parse().ok()?, n)))
                    .collect();
                let desc = FieldDesc { id, ty: parsed, type_name: ty, names };
                if block >= 20 {
                    match db.subs.iter_mut().find(|b| b.id == block) {
                        Some(b) => b.fields.push(desc),
                        None => db.subs.push(BlockDesc { id: block, name: "", title: "", fields: vec![desc] }),
                    }
                } else if let Some(b) = db.tables.iter_mut().find(|b| b.id == block) {
                    b.fields.push(desc);
                }
            }
            _ => {}
        }
    }
    out
}

/// Every database the descriptor describes.
pub fn all() -> &'static [DbDesc] {
    static CELL: OnceLock<Vec<DbDesc>> = OnceLock::new();
    CELL.get_or_init(parse_table)
}

/// The descriptor of one file type (`None` for [`FileType::Unknown`]).
pub fn of(file_type: FileType) -> Option<&'static DbDesc> {
    all().iter().find(|d| d.file_type == file_type)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_type_and_every_line_is_described() {
        assert_eq!(all().len(), 8);
        for ft in FileType::KNOWN {
            let d = of(ft).unwrap();
            assert!(!d.tables.is_empty(), "{ft:?}");
            assert!(d.tables.iter().all(|t| !t.fields.is_empty()), "{ft:?}");
        }
        let lines = TABLE.lines().filter(|l| l.starts_with("field")).count();
        let parsed: usize = all().iter().flat_map(|d| d.tables.iter().chain(&d.subs)).map(|b| b.fields.len()).sum();
        assert_eq!(lines, parsed, "every field line parses");
        let items = of(FileType::Items).unwrap();
        let weapons = items.table(2).unwrap();
        assert_eq!((weapons.name, weapons.field(7).unwrap().name()), ("Weapons", Some("Price")));
        assert_eq!(weapons.field(22).unwrap().ty, FieldType::FloatList);
    }
}
