//! DB types: the node tree exactly as stored, with field payloads decoded to typed values where they
//! decode exactly. [`DbDocument`] is the JSON of `relic convert x.idb --to json`; `relic pack ei-db x.json`
//! writes it back byte for byte. The table layouts of the spec ("Database description") live here too.

use serde::{Deserialize, Serialize, Serializer};

use crate::bytes::Hex;

/// How a node's length is stored after its type byte. The first length byte `b0` is the same in both
/// readings: an even `b0` is the whole length (`b0 >> 1`, 0–127); an odd `b0` starts a 4-byte length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LengthEncoding {
    /// `(u32 LE read from b0's position) >> 1` (the first reading of docs/formats/evil-islands.md#db-node-length; the one the public DB
    /// editor reads and writes). The default.
    #[default]
    U32Le,
    /// The spec's byte loop: `b0 >> 1`, then three times `length = length << 8 | next byte` (the three
    /// bytes after `b0` are big-endian).
    BytesBe,
}

impl LengthEncoding {
    pub const ALL: [LengthEncoding; 2] = [LengthEncoding::U32Le, LengthEncoding::BytesBe];

    pub fn other(self) -> Self {
        match self {
            LengthEncoding::U32Le => LengthEncoding::BytesBe,
            LengthEncoding::BytesBe => LengthEncoding::U32Le,
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            LengthEncoding::U32Le => "u32-le",
            LengthEncoding::BytesBe => "bytes-be",
        }
    }
}

/// Largest length a node can have (31 bits in both readings).
pub const MAX_LENGTH: u32 = 0x7FFF_FFFF;
/// Largest length the one-byte form holds.
pub const MAX_SHORT: u32 = 127;

/// Which database a file is. There is no magic: the file name decides (`*.idb`, …, `acks.db`,
/// `prints.db`); the document records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum FileType {
    #[serde(rename = "idb")]
    Items,
    #[serde(rename = "ldb")]
    Levers,
    #[serde(rename = "pdb")]
    Perks,
    #[serde(rename = "prints.db")]
    Prints,
    #[serde(rename = "sdb")]
    Spells,
    #[serde(rename = "udb")]
    Units,
    #[serde(rename = "acks.db")]
    Acks,
    #[serde(rename = "qdb")]
    Quests,
    /// A DB whose name does not say which: tables are read, fields kept raw.
    #[default]
    #[serde(rename = "unknown")]
    Unknown,
}

/// One table of a file type: snake-case id (CSV file names), English title, the spec's Russian title and
/// the spec's format string (one type letter per field index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableLayout {
    pub id: &'static str,
    pub title: &'static str,
    pub title_ru: &'static str,
    pub format: &'static str,
}

const fn t(id: &'static str, title: &'static str, title_ru: &'static str, format: &'static str) -> TableLayout {
    TableLayout { id, title, title_ru, format }
}

const ITEMS: &[TableLayout] = &[
    t("materials", "Materials", "Материалы", "SSSIFFFIFIFfIX"),
    t("weapons", "Weapons", "Оружие", "SSISIIIFFFFIFIXB00000IHFFFfHHFF"),
    t("armor", "Armor", "Броня", "SSISIIIFFFFIFIXB00000ffBiHH"),
    t("quick_items", "Quick items", "Быстрые предметы", "SSISIIIFFFFIFIXB00000IIFFSbH"),
    t("quest_items", "Quest items", "Квестовые предметы", "SSISIIIFFFFIFIXB00000Is"),
    t("sold_items", "Sold items", "Продаваемые предметы", "SSISIIIFFFFIFIXB00000IHI"),
];
const LEVERS: &[TableLayout] = &[t("lever_prototypes", "Lever prototypes", "Прототип переключателя", "SfIFTSSS")];
const PERKS: &[TableLayout] =
    &[t("skills", "Skills", "Умения", "SSI0000000s"), t("perks", "Perks", "Навыки", "SSI0000000SSIIIFFFIIIIBI")];
const PRINTS: &[TableLayout] = &[
    t("blood_prints", "Blood prints", "Следы крови", "0S11"),
    t("fire_prints", "Fire prints", "Следы пламени", "0S110000001"),
    t("foot_prints", "Footprints", "Следы ног", "0S11"),
];
const SPELLS: &[TableLayout] = &[
    t("prototypes", "Prototypes", "Прототипы", "SSSFIFIFFFFIIIIUSSIIbIXFFFFF"),
    t("modifiers", "Modifiers", "Модификаторы", "SSFIFFISX"),
    t("templates", "Templates", "Шаблоны", "0SssSX"),
    t("armor_templates", "Armor templates", "Шаблоны для брони", "0SssSX"),
    t("weapon_templates", "Weapon templates", "Шаблоны для оружия", "0SssSX"),
];
const UNITS: &[TableLayout] = &[
    t("damageable_parts", "Damageable parts", "Повреждаемые части", "SffUU"),
    t("races", "Races", "Расы", "SUFFUUFfFUUf222222000000000000SssFSsfUUfUUIUSBFUUUU"),
    t("monster_prototypes", "Monster prototypes", "Прототипы монстров", "SSIUIFFFSFFFFFFFFFUFFFFFFff33sfssSFFFFFUFUSF"),
    t("npc", "NPC", "NPC", "SUFFFFbbssssFUB"),
];
const ACKS: &[TableLayout] = &[
    t("answers", "Answers", "Ответы", "0S0000000044444444444444444444445444444444444"),
    t("cries", "Cries", "Крики", "0S0000000044444"),
    t("other", "Other", "Прочее", "0S0000000044"),
];
const QUESTS: &[TableLayout] =
    &[t("quests", "Quests", "Задания", "SFIISIIs"), t("briefings", "Briefings", "Брифинги", "SFFsSsssssI")];

impl FileType {
    pub const KNOWN: [FileType; 8] = [
        FileType::Items,
        FileType::Levers,
        FileType::Perks,
        FileType::Prints,
        FileType::Spells,
        FileType::Units,
        FileType::Acks,
        FileType::Quests,
    ];

    /// The spec's tables, in order: the table node with type byte `n` (1-based) has layout `n − 1`.
    pub fn tables(self) -> &'static [TableLayout] {
        match self {
            FileType::Items => ITEMS,
            FileType::Levers => LEVERS,
            FileType::Perks => PERKS,
            FileType::Prints => PRINTS,
            FileType::Spells => SPELLS,
            FileType::Units => UNITS,
            FileType::Acks => ACKS,
            FileType::Quests => QUESTS,
            FileType::Unknown => &[],
        }
    }

    /// The layout of a table node by its type byte (1-based).
    pub fn table(self, type_byte: u8) -> Option<&'static TableLayout> {
        usize::from(type_byte).checked_sub(1).and_then(|i| self.tables().get(i))
    }

    /// `(English, Russian)` title of the database.
    pub fn titles(self) -> (&'static str, &'static str) {
        match self {
            FileType::Items => ("Items", "Предметы"),
            FileType::Levers => ("Levers", "Переключатели"),
            FileType::Perks => ("Skills and perks", "Умения и навыки"),
            FileType::Prints => ("Prints", "Следы"),
            FileType::Spells => ("Spells", "Заклинания"),
            FileType::Units => ("Creatures", "Существа"),
            FileType::Acks => ("Unit acks", "Выкрики"),
            FileType::Quests => ("Quests", "Задания"),
            FileType::Unknown => ("Unknown database", ""),
        }
    }

    /// The id used in documents (`idb`, `acks.db`, …).
    pub fn id(self) -> &'static str {
        match self {
            FileType::Items => "idb",
            FileType::Levers => "ldb",
            FileType::Perks => "pdb",
            FileType::Prints => "prints.db",
            FileType::Spells => "sdb",
            FileType::Units => "udb",
            FileType::Acks => "acks.db",
            FileType::Quests => "qdb",
            FileType::Unknown => "unknown",
        }
    }

    /// The file type a file name says (its base name, `/` or `\` separated, case-insensitive):
    /// `acks.db` and `prints.db` by whole name, the others by extension.
    pub fn from_name(name: &str) -> FileType {
        // No allocation: `ls` asks this of every entry of an archive.
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        if base.eq_ignore_ascii_case("acks.db") {
            return FileType::Acks;
        }
        if base.eq_ignore_ascii_case("prints.db") {
            return FileType::Prints;
        }
        let ext = base.rsplit_once('.').map_or("", |(_, e)| e);
        const BY_EXTENSION: [(&str, FileType); 6] = [
            ("idb", FileType::Items),
            ("ldb", FileType::Levers),
            ("pdb", FileType::Perks),
            ("sdb", FileType::Spells),
            ("udb", FileType::Units),
            ("qdb", FileType::Quests),
        ];
        BY_EXTENSION.iter().find(|(e, _)| ext.eq_ignore_ascii_case(e)).map_or(FileType::Unknown, |(_, t)| *t)
    }
}

/// Format strings of the composite field types `1`–`5` (spec "Field types"). Their fields are nested
/// nodes whose type byte indexes these strings, as table fields index a table's string.
pub fn composite_format(type_letter: u8) -> Option<&'static str> {
    match type_letter {
        b'1' => Some("0FII"),
        b'2' => Some("SUFF"),
        b'3' => Some("FFFF"),
        b'4' => Some("0SISS"),
        b'5' => Some("0SISS00000U"),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------------------
// The document

fn is_false(b: &bool) -> bool {
    !*b
}

/// The lossless form of a DB file, read with [`DbDocument::read_named`] (or [`DbDocument::read`]) and written
/// with [`DbDocument::to_bytes`]; `relic convert --to json` is `serde_json::to_value` of it.
///
/// It is a sequence of top-level nodes, the first of which is the database (its tables, their records, their
/// fields); the nodes after it are kept as they are (`trailer`: files written by the public DB editor end with
/// `00 00 02 0C 02 08 01 00 00 00`, two more nodes).
///
/// Every node keeps its type byte and, with `long`, that its length used the 4-byte form although it would
/// fit the 1-byte form (the writer picks the 1-byte form for lengths up to 127 otherwise).
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
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DbDocument {
    pub format: String,
    /// The layout the fields were decoded with. Informational for writing: each field stores its own kind.
    pub file_type: FileType,
    /// How 4-byte lengths are read and written.
    pub length_encoding: LengthEncoding,
    pub database: Database,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailer: Vec<RawNode>,
}

/// The database node: its children are the tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Database {
    #[serde(rename = "type")]
    pub type_byte: u8,
    #[serde(default, skip_serializing_if = "is_false")]
    pub long: bool,
    pub tables: Vec<Table>,
}

/// A table node (type byte = 1-based table number of the file type).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    #[serde(rename = "type")]
    pub type_byte: u8,
    #[serde(default, skip_serializing_if = "is_false")]
    pub long: bool,
    /// English title, Russian title and format string of the layout applied (informational: `pack`
    /// ignores them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_ru: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<String>,
    #[serde(flatten)]
    pub body: TableBody,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TableBody {
    #[serde(rename = "records")]
    Records(Vec<Record>),
    /// A payload that is not a sequence of nodes, kept as it is.
    #[serde(rename = "data")]
    Data(Hex),
}

/// A record node: its children are fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    #[serde(rename = "type")]
    pub type_byte: u8,
    #[serde(default, skip_serializing_if = "is_false")]
    pub long: bool,
    #[serde(flatten)]
    pub body: RecordBody,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum RecordBody {
    #[serde(rename = "fields")]
    Fields(Vec<Field>),
    /// A payload that is not a sequence of nodes, kept as it is.
    #[serde(rename = "data")]
    Data(Hex),
}

/// A field node: its type byte is the field's index in the table's format string.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Field {
    #[serde(rename = "type")]
    pub type_byte: u8,
    #[serde(default, skip_serializing_if = "is_false")]
    pub long: bool,
    #[serde(flatten)]
    pub value: Value,
}

/// A field's payload, decoded by its type letter. A payload that does not decode exactly (wrong size,
/// a float that is NaN or infinite, text that does not encode back to the same bytes, a `0` type, an
/// index past the format string) is kept `raw`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Value {
    /// `S`: cp1251 text and one terminating NUL.
    String(String),
    /// `I`: i32.
    Int(i32),
    /// `U`: u32.
    Uint(u32),
    /// `F`: f32 (finite).
    Float(#[serde(serialize_with = "pretty_f32")] f32),
    /// `X`: bits, `0`/`1` characters, bit 0 of each byte first.
    Bits(String),
    /// `f`: packed f32s.
    Floats(#[serde(serialize_with = "pretty_f32s")] Vec<f32>),
    /// `i`: packed i32s.
    Ints(Vec<i32>),
    /// `B`: one byte, 0 or 1.
    Bool(bool),
    /// `b`: bytes, each 0 or 1.
    Bools(Vec<bool>),
    /// `H`: bytes of unknown meaning.
    Hex(Hex),
    /// `T`: a 4-byte time value (i32; the unit is not stated).
    Time(i32),
    /// `s` (used by the format strings, missing from the spec's type list): nested nodes, one string each.
    Strings(Vec<Field>),
    /// `1`, `2`, `3`: nested fields typed by the composite's format string.
    Record(Vec<Field>),
    /// `4`, `5`: nested nodes, each holding fields typed by the composite's format string.
    Records(Vec<Record>),
    /// Bytes kept as they are.
    Raw(Hex),
}

/// A node kept as it is (after the database).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RawNode {
    #[serde(rename = "type")]
    pub type_byte: u8,
    #[serde(default, skip_serializing_if = "is_false")]
    pub long: bool,
    pub data: Hex,
}

/// The f64 that prints as the shortest decimal of `v` and converts back to exactly `v` (so JSON shows
/// `0.1`, not `0.10000000149011612`); the exact widening when the short form would not come back.
pub fn pretty_f64(v: f32) -> f64 {
    let short: f64 = format!("{v}").parse().unwrap_or(f64::from(v));
    if (short as f32).to_bits() == v.to_bits() {
        short
    } else {
        f64::from(v)
    }
}

fn pretty_f32<S: Serializer>(v: &f32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(pretty_f64(*v))
}

fn pretty_f32s<S: Serializer>(v: &[f32], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(v.iter().map(|&x| pretty_f64(x)))
}
