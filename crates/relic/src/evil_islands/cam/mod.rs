//! Evil Islands CAM files (`ei-cam`): camera paths of the game's cut scenes (the `Cameras` folder).
//!
//! Layout (spec "Cam", docs/formats/evil-islands.md#cam): no header and no magic — the file is a sequence of 36-byte
//! records: u32 at 0x00 (presumably the key's time), u32 at 0x04 (unknown; presumably a step in the
//! sequence), position (3 × f32) and rotation quaternion (4 × f32, stored w, x, y, z). A file whose size
//! is not a multiple of 36 is rejected.
//!
//! Unsettled (docs/formats/evil-islands.md#cam): whether the time field is a u32 or an f32. relic reads it as a u32 by
//! default; `--option ei-cam.time=f32` reads the same bits as an f32 in `relic convert`. The JSON says which
//! reading it holds (`time_reading`) and packs back to the same bytes either way; `convert --to json`
//! always gives the u32 reading. Files are recognised by the `.cam` extension only.

pub mod convert;
pub mod read;
pub mod types;
pub mod write;

pub use read::parse;
pub use types::{Cam, CamDocument, Quat, Record, Records, TimeReading, Vec3};
pub use write::write;

use crate::asset::{Asset, NamedAsset};
use crate::error::Result;
use crate::registry::{Convert, ConvertInput, FileFormat, Format, FormatOption, Game, Kind, Probe, Typed};

pub const FORMAT_ID: &str = "ei-cam";

pub static FORMAT: Format = Format {
    extensions: &["cam"],
    notes: "no magic: recognised by the .cam extension. The first u32 of each 36-byte record is read as a \
            u32 time by default; `--option ei-cam.time=f32` reads the same bits as an f32 (u32 or f32 is \
            unsettled). Either JSON packs back byte-identically.",
    probe: Probe::plausible(plausible),
    options: &[FormatOption { key: convert::TIME_OPTION, values: &["u32", "f32"] }],
    extra_targets: &["csv"],
    document: Some(&Typed::<Cam>::FACE),
    convert: Some(&CamConvert),
    ..Format::new(FORMAT_ID, "Evil Islands CAM (camera path)", Game::EvilIslands, Kind::Document)
};

/// No magic: a CAM is whole 36-byte records (none too: relic writes an empty path as an empty file).
fn plausible(_head: &[u8], len: u64) -> bool {
    len % types::RECORD_SIZE as u64 == 0
}

impl FileFormat for Cam {
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

    /// The `u32` time reading, as `relic convert --to json` gives it.
    fn to_document(&self) -> Result<serde_json::Value> {
        crate::registry::document_json(FORMAT_ID, &CamDocument::new(self, TimeReading::U32))
    }

    fn from_document(value: serde_json::Value) -> Result<Self> {
        Ok(crate::registry::document_from_json::<CamDocument>(FORMAT_ID, value)?.to_cam())
    }
}

struct CamConvert;

impl Convert for CamConvert {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let reading = convert::time_reading(input.options)?;
        let doc = convert::to_document(&parse(input.data)?, reading)?;
        Ok(vec![NamedAsset { name: None, asset: Asset::Document(doc) }])
    }
}

/// Typed access: the parse and the writer of the `ei-cam` codec.
impl Cam {
    /// Reads a CAM file: its 36-byte records, the time field as a u32. A size that is not a multiple of 36 is
    /// refused.
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::cam::Cam;
    ///
    /// let mut record = [0u8; 36];
    /// record[..4].copy_from_slice(&250u32.to_le_bytes());
    /// record[8..12].copy_from_slice(&4.5f32.to_le_bytes());
    /// let cam = Cam::read(&record)?;
    /// assert_eq!(cam.records[0].time, 250);
    /// assert_eq!(cam.records[0].position.x.get(), 4.5);
    /// assert!(Cam::read(&record[..35]).is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<Cam> {
        parse(bytes)
    }

    /// The file's bytes (the writer of `relic pack ei-cam`): those read, when nothing was edited.
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::codec::float::F32;
    /// use relic::evil_islands::cam::{Cam, Quat, Record, Vec3};
    ///
    /// let zero = F32::new(0.0);
    /// let record = Record {
    ///     time: 7,
    ///     unk_0x04: 0,
    ///     position: Vec3 { x: F32::new(1.0), y: zero, z: zero },
    ///     rotation: Quat { w: F32::new(1.0), x: zero, y: zero, z: zero },
    /// };
    /// let bytes = Cam { records: vec![record] }.to_bytes()?;
    /// assert_eq!(bytes.len(), 36);
    /// assert_eq!(bytes[..4], 7u32.to_le_bytes());
    /// assert_eq!(Cam::read(&bytes)?.records, [record]);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }
}

/// Typed access to the JSON document (the `u32` time reading, as `relic convert --to json` gives it).
impl CamDocument {
    /// Reads a CAM file into the document `relic convert --to json` writes (`serde_json::to_value` of it).
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::cam::{CamDocument, Records};
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/intro.cam")?;
    /// let doc = CamDocument::read(&bytes)?;
    /// assert!(matches!(&doc.records, Records::U32(records) if records.len() == 4));
    /// assert_eq!(doc.to_bytes()?, bytes);
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<CamDocument> {
        Ok(CamDocument::new(&parse(bytes)?, TimeReading::U32))
    }

    /// The file's bytes (the writer of `relic pack ei-cam x.json`), whichever time reading the document holds.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(&self.to_cam())
    }
}
