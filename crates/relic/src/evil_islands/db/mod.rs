//! Evil Islands databases (`ei-db`): the game's tables of items (`.idb`), levers (`.ldb`), skills and perks
//! (`.pdb`), spells (`.sdb`), creatures (`.udb`), quests (`.qdb`), unit acks (`acks.db`) and prints
//! (`prints.db`).
//!
//! Layout (spec "Databases (* DB and their ilk)", docs/formats/evil-islands.md#db-node-length): a serialized node tree.
//! A node is a type byte, a variable-length size and that many payload bytes. The file's first node is the
//! database; its children are the tables, whose children are the records, whose children are the fields.
//! A field's type byte is its index in the table's format string, and the letter there says how its payload
//! reads (`S` cp1251 string + NUL, `I` i32, `U` u32, `F` f32, `X` bits, `f` f32s, `i` i32s, `B` bool,
//! `b` bools, `H` hex, `T` time, `0` not stated; the composites `1` = `0FII`, `2` = `SUFF`, `3` = `FFFF`,
//! `4` = `0SISS`, `5` = `0SISS00000U`).
//!
//! Choices relic made where the spec is silent or unsettled:
//! - **Node length.** An even first size byte `b0` is the length (`b0 >> 1`). An odd `b0` starts a 4-byte
//!   length, read in one of two ways: `u32-le` = `(u32 LE from b0) >> 1` (the default: the public DB editor
//!   reads and writes it, and files it wrote are loaded by the game) or `bytes-be` = the spec's byte loop
//!   (`b0 >> 1`, then three bytes big-endian; the spec's C code lacks the braces that make it a loop, and as
//!   printed would read one byte only — taken as a typo). A file that does not parse with `u32-le` is
//!   read with `bytes-be`; [`parse_with`] forces either. Both readings round-trip: the document records the
//!   reading used and every node that used the 4-byte form for a length under 128 (`long`).
//! - **File type.** No magic: the file name decides (extension, or the names `acks.db` / `prints.db`), and
//!   the database node's type byte is kept but not interpreted. A table node's type byte is its 1-based
//!   number in the spec's list for that file type (as in files of the public DB editor); another number is
//!   an unknown table, whose fields are kept raw. Table names are the spec's Russian ones with English
//!   titles.
//! - **Composites.** `1`–`3` are a field whose payload is nested field nodes typed by the composite's string
//!   (`record`); `4`/`5` (acks) are a list of nested nodes, each such a record (`records`). `s` (used by
//!   the format strings but missing from the spec's type list) is nested nodes of one string each.
//! - **Never rejected:** a field that does not decode exactly is kept `raw`; a table or record whose payload
//!   is not a node sequence is kept as `data`. Only the database node and the top-level sequence must parse.
//!   Nodes after the database (the public editor appends `00 00 02 0C 02 08 01 00 00 00`) are kept.
//!
//! Friendly forms ([`friendly`], issue 28): `relic convert` shows each table with the column names and types
//! of the public DB editor's descriptors ([`descriptor`]; github.com/chemmalion/EIDBEditor `dbformat/`), as
//! one JSON document and one CSV per table; both pack back byte for byte when unedited, and an edit changes
//! only the value edited. A table's CSV takes the rest of the database from the JSON or game file beside it
//! ([`csv_base`]). The lossless node tree stays `convert --to json`.

pub mod convert;
pub mod descriptor;
pub mod friendly;
pub mod read;
pub mod types;
pub mod write;

pub use read::{parse, parse_with};
pub use types::{DbDocument, Field, FileType, LengthEncoding, Record, Table, TableLayout, Value};
pub use write::write_document;

use crate::asset::{Asset, NamedAsset};
use crate::error::{Error, Result};
use crate::registry::{
    Claim, Convert, ConvertInput, Document, Format, Game, JsonContext, Kind, Pack, PackRequest, Probe,
};

pub const FORMAT_ID: &str = "ei-db";

/// The header size of the node at `at` and its payload length under each reading (docs/formats/evil-islands.md#db-node-length "DB node
/// length": short when the first size byte is even, else `u32-le` or `bytes-be`); `None` past `head`.
fn node_extent(head: &[u8], at: u64) -> Option<(u64, [u64; 2])> {
    let at = usize::try_from(at).ok()?;
    let b0 = *head.get(at.checked_add(1)?)?;
    if b0 & 1 == 0 {
        let l = u64::from(b0 >> 1);
        return Some((2, [l, l]));
    }
    let [b1, b2, b3] = [head.get(at + 2)?, head.get(at + 3)?, head.get(at + 4)?].map(|b| *b);
    let u32_le = u64::from(u32::from_le_bytes([b0, b1, b2, b3]) >> 1);
    let bytes_be = u64::from(u32::from(b0 >> 1) << 24 | u32::from_be_bytes([0, b1, b2, b3]));
    Some((5, [u32_le, bytes_be]))
}

pub static FORMAT: Format = Format {
    extensions: &["idb", "ldb", "pdb", "sdb", "udb", "qdb"],
    notes: "No magic: identified by extension (.idb .ldb .pdb .sdb .udb .qdb) or the names acks.db / prints.db, \
            which also choose the table layouts. Unsettled node length (4-byte form): default u32-le \
            ((u32 LE) >> 1, as the public DB editor writes), bytes-be (the spec's byte loop) used when a file \
            does not parse otherwise; `convert --to json` records the reading and `pack` writes with it. Table \
            node type byte = 1-based table number. Composites 1-3 are nested fields, 4-5 nested records, `s` \
            nested strings. Fields that do not decode exactly stay raw. `convert` (and `--to csv`) name tables and \
            columns as the public DB editor's descriptors do (chemmalion/EIDBEditor dbformat/) and pack back: \
            `pack ei-db items.idb.json`, or one table's CSV `pack ei-db items.idb.Weapons.csv` with items.idb.json \
            or items.idb beside it (or one folder up). Descriptor types win over the spec's letters there \
            (Weapons field 22 FloatList, Byte fields as numbers).",
    probe: Probe {
        plausible: Some(plausible),
        // The two tables whose layout only their name tells (`FileType::from_name`).
        claims: &[Claim::Name("acks.db"), Claim::Name("prints.db")],
        for_name: Some(for_name),
        ..Probe::NONE
    },
    extra_targets: &["csv"],
    pack_sources: &["csv"],
    document: Some(&FACES[8]),
    convert: Some(&FACES[8]),
    pack: Some(&FACES[8]),
    ..Format::new(
        FORMAT_ID,
        "Evil Islands database (items, spells, units, quests, …)",
        Game::EvilIslands,
        Kind::Document,
    )
};

/// The faces that read with the layouts of one file type.
struct DbFaces(FileType);

static FACES: [DbFaces; 9] = [
    DbFaces(FileType::Items),
    DbFaces(FileType::Levers),
    DbFaces(FileType::Perks),
    DbFaces(FileType::Prints),
    DbFaces(FileType::Spells),
    DbFaces(FileType::Units),
    DbFaces(FileType::Acks),
    DbFaces(FileType::Quests),
    DbFaces(FileType::Unknown),
];

/// The format as read with the layouts of each file type, in the order of [`FACES`].
static BY_FILE_TYPE: [Format; 9] = [
    Format { document: Some(&FACES[0]), convert: Some(&FACES[0]), pack: Some(&FACES[0]), ..FORMAT },
    Format { document: Some(&FACES[1]), convert: Some(&FACES[1]), pack: Some(&FACES[1]), ..FORMAT },
    Format { document: Some(&FACES[2]), convert: Some(&FACES[2]), pack: Some(&FACES[2]), ..FORMAT },
    Format { document: Some(&FACES[3]), convert: Some(&FACES[3]), pack: Some(&FACES[3]), ..FORMAT },
    Format { document: Some(&FACES[4]), convert: Some(&FACES[4]), pack: Some(&FACES[4]), ..FORMAT },
    Format { document: Some(&FACES[5]), convert: Some(&FACES[5]), pack: Some(&FACES[5]), ..FORMAT },
    Format { document: Some(&FACES[6]), convert: Some(&FACES[6]), pack: Some(&FACES[6]), ..FORMAT },
    Format { document: Some(&FACES[7]), convert: Some(&FACES[7]), pack: Some(&FACES[7]), ..FORMAT },
    Format { document: Some(&FACES[8]), convert: Some(&FACES[8]), pack: Some(&FACES[8]), ..FORMAT },
];

fn for_name(name: &str) -> Option<&'static Format> {
    let ft = FileType::from_name(name);
    FACES.iter().zip(&BY_FILE_TYPE).find(|(faces, _)| faces.0 == ft).map(|(_, format)| format)
}

fn json_error(e: serde_json::Error) -> Error {
    Error::Unsupported(format!("{FORMAT_ID}: JSON: {e}"))
}

/// No magic: under one length reading, the top-level nodes (a type byte, then the length in the short
/// or a long form: the database, then any trailer) tile the file as far as `head` shows them; an empty
/// database of type 0 is the whole file; and the database's first table node fits in it with a table number
/// (its type byte, counted from 1). The writer refuses what this would not recognise
/// ([`write::write_document`]), so anything relic writes passes, an empty database too.
pub(crate) fn plausible(head: &[u8], len: u64) -> bool {
    // Only the first 64 bytes decide, so a file's head (all `relic ls` reads of an entry) and the whole
    // file say the same (a fuzz finding, #41). Within them, zero-filled heads (CAM, BON, MOB files, whose
    // first bytes are often zero) read as empty nodes: the two rules on the database's start keep them out.
    let head = head.get(..crate::asset::SNIFF_BYTES).unwrap_or(head);
    (0..2).any(|reading| {
        let Some((header, lengths)) = node_extent(head, 0) else { return false };
        let end = header + lengths[reading];
        if end > len || (end == header && end != len && head.first() == Some(&0)) {
            return false;
        }
        if end > header {
            if let Some((h, l)) = node_extent(head, header) {
                let table_number = usize::try_from(header).ok().and_then(|at| head.get(at)).copied();
                if header + h + l[reading] > end || table_number == Some(0) {
                    return false;
                }
            }
        }
        let mut at = end;
        while at < len {
            let Some((h, l)) = node_extent(head, at) else { return true };
            at += h + l[reading];
        }
        at == len
    })
}

impl Document for DbFaces {
    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(&parse(data, self.0)?, data.len()))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        serde_json::to_value(parse(data, self.0)?).map_err(json_error)
    }

    fn from_json(&self, value: serde_json::Value, _context: &JsonContext<'_>) -> Result<Vec<u8>> {
        if friendly::is_friendly(&value) {
            return write_document(&friendly::to_lossless(&friendly::from_json(&value)?)?);
        }
        let doc: DbDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
        if doc.format != FORMAT_ID {
            return Err(Error::refused(FORMAT_ID, "format", format!("`{}` is not `{FORMAT_ID}`", doc.format)));
        }
        write_document(&doc)
    }
}

impl Convert for DbFaces {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let doc = parse(input.data, self.0)?;
        Ok(vec![NamedAsset { name: None, asset: Asset::Document(convert::to_document(&doc, input.data.len())?) }])
    }
}

impl Pack for DbFaces {
    /// One table's CSV (`items.idb.Weapons.csv`, as `convert --to csv` names it); the rest of the database
    /// comes from the file beside it (see [`csv_base`]).
    fn pack_input(&self, input_name: &str, content: &[u8], request: &PackRequest) -> Result<Vec<u8>> {
        let path = std::path::Path::new(input_name);
        let text = std::str::from_utf8(content)
            .map_err(|e| Error::Refused(format!("{FORMAT_ID}: the CSV is not UTF-8 text ({e})")))?;
        let (base, table) = match &request.base {
            Some(base) => (base.clone(), csv_table_of(path)),
            None => csv_base(path).map(|(base, table)| (base, table.map(|t| (t, None))))?,
        };
        request.note(format!("note: the rest of the database comes from {}", base.display()));
        let bytes = crate::source::read(&base)?;
        let base_name = base.to_string_lossy();
        let mut doc = if base_name.to_ascii_lowercase().ends_with(".json") {
            let value: serde_json::Value = serde_json::from_slice(&bytes)
                .map_err(|e| Error::Refused(format!("{}: not JSON ({e})", base.display())))?;
            if friendly::is_friendly(&value) {
                friendly::from_json(&value)?
            } else {
                let lossless: DbDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
                friendly::from_lossless(&lossless)?
            }
        } else {
            friendly::from_lossless(&parse(&bytes, FileType::from_name(&base_name))?)?
        };
        let names = friendly::table_names(&doc);
        // With --base, the CSV's name may be the table's alone (`Weapons.csv`) or any `<x>.<table>.csv`.
        let table = match table {
            Some((t, _)) if names.iter().any(|n| n.eq_ignore_ascii_case(&t)) => t,
            Some((_, Some(whole))) if names.iter().any(|n| n.eq_ignore_ascii_case(&whole)) => whole,
            Some((t, _)) if request.base.is_none() || names.len() != 1 => t,
            _ => match names.as_slice() {
                [only] => only.clone(),
                names => {
                    return Err(Error::Refused(format!(
                    "{FORMAT_ID}: {} names no table, and the database has {} ({}); name the CSV like `{}.<table>.csv`",
                    path.display(),
                    names.len(),
                    names.join(", "),
                    base.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default()
                )))
                }
            },
        };
        let source = path.display().to_string();
        let applied = friendly::apply_csv_from(&mut doc, &table, text, &source)?;
        if applied.delimiter != ',' {
            request.note(format!(
                "note: read the CSV of table {table} as cells separated by {}",
                friendly::delimiter_name(applied.delimiter)
            ));
        }
        for column in &applied.kept {
            request.note(format!("note: column {column} missing from {source}: the stored values were kept"));
        }
        write_document(&friendly::to_lossless(&doc)?)
    }
}

/// The table a CSV names when `--base` gives its database: `x.Weapons.csv` is `Weapons` (or, when no table
/// has that name, the whole stem `x.Weapons`), `Weapons.csv` is `Weapons`; `None` for a name without
/// `.csv`, which a single-table database takes.
fn csv_table_of(csv: &std::path::Path) -> Option<(String, Option<String>)> {
    let name = csv.file_name()?.to_string_lossy().to_string();
    let stem = name.get(..name.len().checked_sub(4)?).filter(|_| name.to_ascii_lowercase().ends_with(".csv"))?;
    match stem.rsplit_once('.') {
        Some((_, table)) => Some((table.to_string(), Some(stem.to_string()))),
        None => Some((stem.to_string(), None)),
    }
}

/// Where a table's CSV finds the rest of its database: `items.idb.Weapons.csv` is table `Weapons` of
/// `items.idb.json` (the JSON `relic convert` wrote) or `items.idb` (the game's file), looked for in the CSV's
/// folder, then in the folder above it; a single-table database's CSV is `levers.ldb.csv`.
pub fn csv_base(csv: &std::path::Path) -> Result<(std::path::PathBuf, Option<String>)> {
    let name = csv.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let stem = name.get(..name.len().saturating_sub(4)).filter(|_| name.to_ascii_lowercase().ends_with(".csv"));
    let Some(stem) = stem else {
        return Err(Error::Refused(format!("{FORMAT_ID}: {} is not a .csv file", csv.display())));
    };
    let dir = csv.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
    let parent = if dir.as_os_str().is_empty() { std::path::PathBuf::from("..") } else { dir.join("..") };
    let mut tried = Vec::new();
    let mut splits: Vec<(&str, Option<String>)> = Vec::new();
    if let Some((base, table)) = stem.rsplit_once('.') {
        splits.push((base, Some(table.to_string())));
    }
    splits.push((stem, None));
    for (base, table) in splits {
        for folder in [&dir, &parent] {
            for candidate in [format!("{base}.json"), base.to_string()] {
                let p = folder.join(&candidate);
                if p.is_file() {
                    return Ok((p, table));
                }
                tried.push(p.display().to_string());
            }
        }
    }
    Err(Error::Refused(format!(
        "{FORMAT_ID}: {} packs with the rest of its database, and none is beside it (looked for {}): keep the \
         CSV beside the game's file or the JSON `relic convert` wrote",
        csv.display(),
        tried.join(", ")
    )))
}

/// Typed access: the parse and the writer of the `ei-db` codecs.
impl DbDocument {
    /// Reads a database whose name is not known: the tables are read with no layout (their fields raw),
    /// as the registry's `ei-db` codec reads them. See [`DbDocument::read_named`].
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::db::{DbDocument, FileType};
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/items.idb")?;
    /// let db = DbDocument::read(&bytes)?;
    /// assert_eq!(db.file_type, FileType::Unknown);
    /// assert_eq!(db.database.tables.len(), 2);
    /// assert_eq!(db.database.tables[0].name, None);
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<DbDocument> {
        parse(bytes, FileType::Unknown)
    }

    /// Reads a database named `name` (a path or a file name): its extension (`.idb`, `.udb`, …) or the
    /// names `acks.db` and `prints.db` choose the table layouts, as [`crate::registry::Format::for_name`]
    /// does.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::db::{DbDocument, FileType};
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/items.idb")?;
    /// // No magic: the name says which tables an `.idb` holds.
    /// let db = DbDocument::read_named("items.idb", &bytes)?;
    /// assert_eq!(db.file_type, FileType::Items);
    /// assert_eq!(db.database.tables.len(), 2);
    /// assert_eq!(db.database.tables[0].name.as_deref(), Some("Materials"));
    /// let fields = match &db.database.tables[0].body {
    ///     relic::evil_islands::db::types::TableBody::Records(records) => &records[0].body,
    ///     _ => unreachable!("the sample's tables are records"),
    /// };
    /// let relic::evil_islands::db::types::RecordBody::Fields(fields) = fields else { unreachable!() };
    /// assert_eq!(fields[0].value, relic::evil_islands::db::Value::String("Iron".into()));
    /// # Ok(()) }
    /// ```
    pub fn read_named(name: &str, bytes: &[u8]) -> Result<DbDocument> {
        parse(bytes, FileType::from_name(name))
    }

    /// The file's bytes (the writer of `relic pack ei-db x.json`): those read, when nothing was edited.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::db::{DbDocument, FileType};
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/items.idb")?;
    /// // No magic: the name says which tables an `.idb` holds.
    /// let db = DbDocument::read_named("items.idb", &bytes)?;
    /// assert_eq!(db.file_type, FileType::Items);
    /// assert_eq!(db.database.tables.len(), 2);
    /// assert_eq!(db.database.tables[0].name.as_deref(), Some("Materials"));
    /// assert_eq!(db.to_bytes()?, bytes);
    /// let mut edited = db.clone();
    /// edited.database.tables.pop();
    /// assert!(edited.to_bytes()?.len() < bytes.len());
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write_document(self)
    }
}
