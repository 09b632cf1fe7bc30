//! Evil Islands ADB files (`ei-adb`): the animation database of one kind of unit (which animations it
//! has, when they may play, their lengths, speeds and sound frames).
//!
//! Layout (spec "Adb"): magic `ADB\0`, u32 animation count, the unit name (24 bytes, cp1251), min / mid /
//! max height (f32), then 88-byte records: name (16 bytes, cp1251), u32 number, a packed u64, u32
//! probability, u32 length, f32 movement speed and twelve u32 frame and sound fields.
//!
//! The packed u64 is split into the spec's named fields (weapons bits 0–6, allowed_states 15–17,
//! action_type 18–21, action_modifyer 22–29, animation_stage 30–31, action_forms 36–41); the bits outside
//! them are kept in `other_bits`. Fixed-size names keep the bytes after their NUL when those are not zero
//! (editors leave junk there). The spec mentions a "partially trimmed" variant for a few units that is
//! practically unexplored: bytes after the last record are kept as they are; a count that needs more
//! bytes than the file holds is rejected.

pub mod convert;
pub mod read;
pub mod types;
pub mod write;

pub use read::parse;
pub use types::{Adb, AdbDocument, Additionals, Animation, Hex64};
pub use write::write;

use crate::asset::{Asset, NamedAsset};
use crate::error::Result;
use crate::registry::{Convert, ConvertInput, FileFormat, Format, Game, Kind, Magic, Probe, Typed};

pub const FORMAT_ID: &str = "ei-adb";

pub static FORMAT: Format = Format {
    extensions: &["adb"],
    notes: "the packed u64 is split into the spec's named bit fields; the other bits are kept in other_bits. \
            Bytes after the last record (the spec's \"partially trimmed\" variant) are kept as they are.",
    probe: Probe::magic(&[Magic::prefix(&types::MAGIC)]),
    extra_targets: &["csv"],
    document: Some(&Typed::<Adb>::FACE),
    convert: Some(&AdbConvert),
    ..Format::new(FORMAT_ID, "Evil Islands ADB (animation database)", Game::EvilIslands, Kind::Document)
};

impl FileFormat for Adb {
    const ID: &'static str = FORMAT_ID;

    fn parse(bytes: &[u8]) -> Result<Self> {
        parse(bytes)
    }

    fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    fn info(&self, bytes: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(self, bytes.len()))
    }

    fn to_document(&self) -> Result<serde_json::Value> {
        crate::registry::document_json(FORMAT_ID, &convert::to_document(self))
    }

    fn from_document(value: serde_json::Value) -> Result<Self> {
        Ok(crate::registry::document_from_json::<AdbDocument>(FORMAT_ID, value)?.adb)
    }
}

struct AdbConvert;

impl Convert for AdbConvert {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        Ok(vec![NamedAsset { name: None, asset: Asset::Document(convert::to_asset(&parse(input.data)?)?) }])
    }
}

/// Typed access: the parse and the writer of the `ei-adb` codec.
impl Adb {
    /// Reads an ADB file.
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::adb::Adb;
    ///
    /// // `ADB\0`, no animations, the unit name `unhuma` in 24 bytes, heights 1, 1.5 and 2.
    /// let mut bytes = b"ADB\0".to_vec();
    /// bytes.extend(0u32.to_le_bytes());
    /// let mut name = [0u8; 24];
    /// name[..6].copy_from_slice(b"unhuma");
    /// bytes.extend(name);
    /// bytes.extend([1.0f32, 1.5, 2.0].iter().flat_map(|f| f.to_le_bytes()));
    /// let adb = Adb::read(&bytes)?;
    /// assert_eq!((adb.min_height.get(), adb.max_height.get()), (1.0, 2.0));
    /// assert_eq!(adb.unit_name_tail, None);
    /// assert!(Adb::read(b"ADB\0").is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<Adb> {
        parse(bytes)
    }

    /// The file's bytes (the writer of `relic pack ei-adb`): those read, when nothing was edited.
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::adb::Adb;
    ///
    /// // `ADB\0`, no animations, the unit name `unhuma` in 24 bytes, heights 1, 1.5 and 2.
    /// let mut bytes = b"ADB\0".to_vec();
    /// bytes.extend(0u32.to_le_bytes());
    /// let mut name = [0u8; 24];
    /// name[..6].copy_from_slice(b"unhuma");
    /// bytes.extend(name);
    /// bytes.extend([1.0f32, 1.5, 2.0].iter().flat_map(|f| f.to_le_bytes()));
    /// let mut adb = Adb::read(&bytes)?;
    /// adb.unit_name = "unorca".into();
    /// let edited = adb.to_bytes()?;
    /// assert_eq!(edited[8..14], *b"unorca");
    /// assert_eq!(edited.len(), bytes.len());
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }

    /// The JSON document of `relic convert --to json` (`serde_json::to_value` of it).
    pub fn to_document(&self) -> AdbDocument {
        convert::to_document(self)
    }
}

/// Typed access to the JSON document.
impl AdbDocument {
    /// Reads an ADB file into the document `relic convert --to json` writes.
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::adb::AdbDocument;
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/unhuma.adb")?;
    /// let doc = AdbDocument::read(&bytes)?;
    /// assert_eq!(doc.format, "ei-adb");
    /// assert_eq!(doc.adb.unit_name, "unhuma");
    /// assert_eq!(doc.to_bytes()?, bytes);
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<AdbDocument> {
        Ok(convert::to_document(&parse(bytes)?))
    }

    /// The file's bytes (the writer of `relic pack ei-adb x.json`).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(&self.adb)
    }
}
