//! Evil Islands CAM files (`ei-cam`): camera paths of the game's cut scenes (the `Cameras` folder).
//!
//! Layout (spec "Cam", CORRECTIONS.md): no header and no magic — the file is a sequence of 36-byte
//! records: u32 at 0x00 (presumably the key's time), u32 at 0x04 (unknown; presumably a step in the
//! sequence), position (3 × f32) and rotation quaternion (4 × f32, stored w, x, y, z). A file whose size
//! is not a multiple of 36 is rejected.
//!
//! Unsettled (CORRECTIONS.md): whether the time field is a u32 or an f32. relic reads it as a u32 by
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
use crate::registry::{Capabilities, Codec, ConvertOptions, Format, Game, Kind};

pub const FORMAT_ID: &str = "ei-cam";

pub static FORMAT: Format = Format {
    id: FORMAT_ID,
    name: "Evil Islands CAM (camera path)",
    game: Game::EvilIslands,
    extensions: &["cam"],
    kind: Kind::Document,
    capabilities: Capabilities { read: true, convert: true, write: true },
    notes: "no magic: recognised by the .cam extension. The first u32 of each 36-byte record is read as a \
            u32 time by default; `--option ei-cam.time=f32` reads the same bits as an f32 (u32 or f32 is \
            unsettled). Either JSON packs back byte-identically.",
    codec: &CamCodec,
};

struct CamCodec;

impl Codec for CamCodec {
    fn options(&self) -> &'static [crate::registry::FormatOption] {
        &[crate::registry::FormatOption { key: convert::TIME_OPTION, values: &["u32", "f32"] }]
    }

    fn extra_targets(&self) -> &'static [&'static str] {
        &["csv"]
    }

    fn sniff(&self, _head: &[u8]) -> bool {
        false
    }

    /// No magic: a CAM is whole 36-byte records (none too: relic writes an empty path as an empty file).
    fn plausible(&self, _head: &[u8], len: u64) -> bool {
        len % types::RECORD_SIZE as u64 == 0
    }

    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(&parse(data)?, data.len()))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        crate::registry::document_json(FORMAT_ID, &CamDocument::new(&parse(data)?, TimeReading::U32))
    }

    fn write_json(&self, value: serde_json::Value) -> Result<Vec<u8>> {
        let doc: CamDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
        write(&doc.to_cam())
    }

    fn convert(&self, data: &[u8], opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
        let reading = convert::time_reading(opts)?;
        let doc = convert::to_document(&parse(data)?, reading)?;
        Ok(vec![NamedAsset { name: None, asset: Asset::Document(doc) }])
    }
}
