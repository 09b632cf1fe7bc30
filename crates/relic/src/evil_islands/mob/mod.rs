//! Evil Islands MOB level files (`ei-mob`): a level's entities — units, objects, lights, sounds, traps,
//! levers, diplomacy, the editor's folders and the level script.
//!
//! Layout (spec "MOB", with docs/formats/evil-islands.md#mob-nodes): a file is a **sequence** of top-level nodes (the game's
//! levels hold OBJECTDBFILE 0xA000 then AIGRAPH 0x31415926), each `u32 type_id, u32 size (whole node,
//! 8-byte header included), payload`. Record types hold child nodes; the payloads of the others are
//! typed by the spec's table of type ids (`table.rs`). The script (SS_TEXT 0xACCEECCB) is `u32 key` then
//! the text XORed with the game's keystream (`cipher.rs`); relic shows it deciphered and enciphers it
//! again with the same key when packing.
//!
//! Choices relic made where the spec is silent or wrong:
//! - UnitStats is 172 bytes (`<4i10f2Bh13fi12f8B`, docs/formats/evil-islands.md#mob-payloads), not the spec's 180; the game's level
//!   agrees. Field names are the community's reading of the unit parameters where real values support
//!   them; the others are `unk_0x..` by offset.
//! - Diplomacy is 32 × 32 u32 (the spec's type list says 2-byte ints; 4096 bytes only fit u32).
//! - Strings carry no terminator; cp1251 text, raw bytes kept when the text does not give them back.
//! - StringArray sub-nodes carry their own type id (the array's own id in real files); another id is kept.
//! - A payload that does not fit its type (wrong size, a record whose children do not tile it, a string
//!   array whose count is off), AIGRAPH (layout undocumented) and ids the spec does not list are kept as
//!   hex, never dropped. Top-level framing errors (a size under 8 or past the end) are errors.
//! - Plot, Quaternion, Rectangle and LeverStats are arrays in file order: the spec names no components
//!   (real OBJROTATION values look like `w` first, but that is not settled).
//! - Node sizes are not stored in the JSON: the writer computes them, so an edited script simply grows.
//! - `pack ei-mob x.json` takes each script from the `.txt` that `convert` wrote beside the JSON (`x.txt`,
//!   `script2.txt`, …) when that file exists, and says so: the `.txt` is what a user edits. A character
//!   of an edited `.txt` that cp1251 cannot hold is refused naming that file, its line and column.
//! - No magic: files are recognised by the `.mob` extension.

pub mod cipher;
pub mod convert;
pub mod read;
pub mod table;
pub mod types;
pub mod write;

pub use read::parse;
pub use types::{Mob, MobDocument, Node, Value};
pub use write::{write, write_document};

use crate::asset::NamedAsset;
use crate::error::Result;
use crate::registry::{Convert, ConvertInput, Document, Format, Game, Kind, Probe};

pub const FORMAT_ID: &str = "ei-mob";

pub static FORMAT: Format = Format {
    extensions: &["mob"],
    notes: "No magic: recognised by the .mob extension. UnitStats read as the 172-byte struct of \
            docs/formats/evil-islands.md#mob-payloads (fields without a known name are unk_0x.. by offset); Diplomacy as 32x32 u32. \
            Payloads that do not fit their type, AIGRAPH and unlisted type ids are kept as hex. The script \
            is shown deciphered (cp1251 -> UTF-8) and enciphered again with its key when packing; node \
            sizes are recomputed.",
    probe: Probe::plausible(plausible),
    extra_targets: &["txt"],
    document: Some(&MobFaces),
    convert: Some(&MobFaces),
    ..Format::new(FORMAT_ID, "Evil Islands MOB level (map entities and script)", Game::EvilIslands, Kind::Document)
};

/// No magic: the first node's size covers its 8-byte header and fits in the file.
fn plausible(head: &[u8], len: u64) -> bool {
    crate::registry::le_u32_at(head, 4).is_some_and(|size| size >= 8 && u64::from(size) <= len)
}

struct MobFaces;

impl Document for MobFaces {
    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(&parse(data)?, data.len()))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        convert::to_json(parse(data)?)
    }

    /// The script `.txt` files `convert` wrote beside the JSON, when there, are what is packed.
    fn from_json(&self, value: serde_json::Value, context: &crate::registry::JsonContext<'_>) -> Result<Vec<u8>> {
        let mut doc: MobDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
        if let Some(json_path) = context.path {
            let mut notes = Vec::new();
            convert::take_script_files(&mut doc, json_path, &mut notes)?;
            notes.into_iter().for_each(|n| context.note(n));
        }
        write_document(&doc)
    }
}

impl Convert for MobFaces {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        convert::convert(parse(input.data)?)
    }
}

/// Typed access: the parse and the writer of the `ei-mob` codec.
impl Mob {
    /// Reads a MOB file: its node tree, payloads typed by the spec's table, the script deciphered.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::mob::Mob;
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/level.mob")?;
    /// let mob = Mob::read(&bytes)?;
    /// // The game's levels hold OBJECTDBFILE (0xA000), then AIGRAPH (0x31415926).
    /// assert_eq!(mob.nodes.iter().map(|n| n.type_id).collect::<Vec<_>>(), [0xA000, 0x3141_5926]);
    /// assert!(Mob::read(&bytes[..7]).is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<Mob> {
        parse(bytes)
    }

    /// The file's bytes (node sizes computed, the script enciphered again with its key): those read, when
    /// nothing was edited.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::mob::Mob;
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/level.mob")?;
    /// let mob = Mob::read(&bytes)?;
    /// // The game's levels hold OBJECTDBFILE (0xA000), then AIGRAPH (0x31415926).
    /// assert_eq!(mob.nodes.iter().map(|n| n.type_id).collect::<Vec<_>>(), [0xA000, 0x3141_5926]);
    /// assert_eq!(mob.to_bytes()?, bytes);
    /// let mut first_only = mob.clone();
    /// first_only.nodes.truncate(1);
    /// assert_eq!(Mob::read(&first_only.to_bytes()?)?.nodes, mob.nodes[..1]);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }

    /// The JSON document of `relic convert --to json` (`serde_json::to_value` of it).
    pub fn to_document(&self) -> MobDocument {
        convert::to_document(self.clone())
    }
}

/// Typed access to the JSON document.
impl MobDocument {
    /// Reads a MOB file into the document `relic convert --to json` writes.
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::mob::MobDocument;
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/level.mob")?;
    /// let doc = MobDocument::read(&bytes)?;
    /// assert_eq!((doc.format.as_str(), doc.nodes.len()), ("ei-mob", 2));
    /// assert_eq!(doc.to_bytes()?, bytes);
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<MobDocument> {
        Ok(convert::to_document(parse(bytes)?))
    }

    /// The file's bytes (the writer of `relic pack ei-mob x.json`).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write_document(self)
    }
}
