//! Evil Islands REG files (`ei-reg`): binary INI files (sections of typed keys) — game settings in the
//! game folder, and tables of the game's data.
//!
//! Layout (spec "REG", corrected by docs/formats/evil-islands.md#reg-hash-chains): magic `FB 3E AB 45`, u16 section count, then the
//! section table: per slot a chain link (the spec's s16 "order") and a u32 absolute section offset. A
//! section is u16 key count, u16 name length, the cp1251 name, then its key table (link, u32 offset from
//! the section's start). relic reads a link as a u16 whose `FF FF` ends the chain (shown as −1): a table
//! may have 65535 entries, and an s16 could not link to the slots above 32767. A key record is a type
//! byte (0 int, 1 float, 2 string; bit 7 = array with a u16 count), u16 name length, the cp1251 name and
//! the value (strings are u16 length + cp1251 bytes).
//!
//! Both tables are hash tables (docs/formats/evil-islands.md#reg-hash-chains: the order fields are next-index chains). Neither the spec
//! nor docs/formats/evil-islands.md#reg-hash-chains names the hash: relic uses the RES name hash (sum of the name bytes as signed
//! chars, A–Z lowercased, modulo the entry count) and the RES collision rule (the highest free slot,
//! linked at the end of the chain from the hash slot). A public third-party REG writer sums *unsigned*
//! bytes instead; the two agree on every name without bytes ≥ 0x80. No game file was available to settle
//! it. Whatever a file holds is kept: the JSON stores every table entry as it is, and the INI keeps a
//! table that differs from relic's in a `;@table` line (see [`ini`]), so REG → INI → REG is
//! byte-identical for every file laid out as relic lays files out (sections, then keys, in file order,
//! without gaps). Other layouts keep all content in the INI and all bytes in the JSON.
//!
//! Records may not overlap (a file whose tables point twice at the same bytes is rejected).

pub mod convert;
pub mod ini;
pub mod read;
pub mod types;
pub mod write;

pub use read::parse;
pub use types::{Content, Reg, RegDocument, Text, Value};
pub use write::{layout, write, write_content};

use crate::asset::{Asset, NamedAsset, Text as TextAsset};
use crate::error::{Error, Result};
use crate::registry::{
    extension_of, Convert, ConvertInput, FileFormat, Format, Game, Kind, Magic, Pack, PackRequest, Probe, Typed,
};

pub const FORMAT_ID: &str = "ei-reg";

pub static FORMAT: Format = Format {
    extensions: &["reg"],
    notes: "converts to typed INI (42 int, 42.0 float, \"42\" string, [..] arrays) and packs back from it \
            (`relic pack ei-reg -o x.reg x.ini`). Hash tables: relic assumes the RES name hash (signed-char \
            sum); files placed otherwise keep their slots in `;@table` lines of the INI.",
    probe: Probe::magic(&[Magic::prefix(&types::MAGIC)]),
    extra_targets: &["ini"],
    pack_sources: &["ini"],
    document: Some(&Typed::<Reg>::FACE),
    convert: Some(&RegFaces),
    pack: Some(&RegFaces),
    ..Format::new(FORMAT_ID, "Evil Islands REG (binary INI)", Game::EvilIslands, Kind::Document)
};

impl FileFormat for Reg {
    const ID: &'static str = FORMAT_ID;

    fn parse(bytes: &[u8]) -> Result<Self> {
        parse(bytes)
    }

    fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    fn info(&self, _bytes: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(self))
    }

    fn to_document(&self) -> Result<serde_json::Value> {
        crate::registry::document_json(FORMAT_ID, &convert::to_document(self))
    }

    fn from_document(value: serde_json::Value) -> Result<Self> {
        Ok(crate::registry::document_from_json::<RegDocument>(FORMAT_ID, value)?.reg)
    }
}

struct RegFaces;

impl Convert for RegFaces {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let text = convert::to_ini(&parse(input.data)?);
        Ok(vec![NamedAsset { name: None, asset: Asset::Text(TextAsset { extension: "ini", text }) }])
    }
}

impl Pack for RegFaces {
    fn pack_input(&self, input_name: &str, content: &[u8], _request: &PackRequest) -> Result<Vec<u8>> {
        if !extension_of(input_name).is_some_and(|e| e.eq_ignore_ascii_case("ini")) {
            return Err(Error::Unsupported(format!(
                "{FORMAT_ID} is made from the typed INI of `relic convert` (.ini) or the JSON of `relic convert --to json`"
            )));
        }
        let text = std::str::from_utf8(content)
            .map_err(|e| Error::invalid(FORMAT_ID, "ini", e.valid_up_to() as u64, "the INI is not UTF-8 text"))?;
        write_content(&ini::parse(text)?)
    }
}

/// Typed access: the parse and the writer of the `ei-reg` codec.
impl Reg {
    /// Reads a REG file: every section and key as stored, with its table slot and chain link.
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::reg::Reg;
    ///
    /// // The magic and a section count of 0.
    /// let reg = Reg::read(&[0xFB, 0x3E, 0xAB, 0x45, 0, 0])?;
    /// assert!(reg.sections.is_empty());
    /// assert_eq!(reg.file_size, 6);
    /// assert!(Reg::read(b"INI!").is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<Reg> {
        parse(bytes)
    }

    /// The file's bytes (the writer of `relic pack ei-reg x.json`): those read, when nothing was edited.
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::reg::types::{PlainKey, PlainSection};
    /// use relic::evil_islands::reg::{write_content, Content, Reg, Text, Value};
    ///
    /// // One section, `Game`, with one integer key, `Speed = 3`, laid out as relic lays files out.
    /// let key = PlainKey { name: Text(b"Speed".to_vec()), value: Value::Int(3) };
    /// let section = PlainSection { name: Text(b"Game".to_vec()), keys: vec![key], table: None };
    /// let bytes = write_content(&Content { sections: vec![section], table: None })?;
    /// let mut reg = Reg::read(&bytes)?;
    /// reg.sections[0].keys[0].value = Value::Int(5);
    /// let edited = reg.to_bytes()?;
    /// assert_eq!(edited.len(), bytes.len());
    /// assert_eq!(Reg::read(&edited)?.sections[0].keys[0].value, Value::Int(5));
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }

    /// The JSON document of `relic convert --to json` (`serde_json::to_value` of it).
    pub fn to_document(&self) -> RegDocument {
        convert::to_document(self)
    }
}

/// Typed access to the JSON document.
impl RegDocument {
    /// Reads a REG file into the document `relic convert --to json` writes.
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::reg::RegDocument;
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/settings.reg")?;
    /// let doc = RegDocument::read(&bytes)?;
    /// assert_eq!(doc.reg.file_size, bytes.len() as u64);
    /// assert_eq!(doc.to_bytes()?, bytes);
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<RegDocument> {
        Ok(convert::to_document(&parse(bytes)?))
    }

    /// The file's bytes (the writer of `relic pack ei-reg x.json`).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(&self.reg)
    }
}
