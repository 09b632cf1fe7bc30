//! Ragnarok Online GRF archives (`ro-grf`, also `.gpf` patch archives): the game's data archives (`data.grf`
//! holds the textures, models, maps and sprites the other Ragnarok formats name).
//!
//! The specs folder has no GRF text; the layout follows the public descriptions of version 0x200, checked
//! against the corpus file `ragnarok/goldberg_textures.grf`:
//! - header, 46 bytes: `Master of Magic` (15 bytes), 15 key bytes (00 01 … 0E in files from the common
//!   tools, so the first 16 bytes read `Master of Magic\0`), u32 table offset, u32 seed, u32 raw count,
//!   u32 version; entry count = raw count − seed − 7;
//! - at 46 + table offset: u32 compressed size, u32 inflated size, then the zlib-compressed table;
//! - table entries: NUL-terminated CP949 name (`\` between folders), u32 compressed size, u32 aligned size
//!   (compressed size rounded up to 8), u32 real size, u8 flags (0x01 file, 0x02 "mixed" DES, 0x04 header
//!   DES; without 0x01 a folder record), u32 data offset counted from byte 46;
//! - entry data: a zlib stream, zero padded to the aligned size; in any order (the corpus file stores its
//!   entries in another order than its table, which is sorted by name).
//!
//! Choices relic made where the format leaves room:
//! - Versions 0x102/0x103 (DES-encrypted names and entries) and 0x300 are recognised and refused as
//!   unsupported; entries flagged 0x02/0x04 in a 0x200 file list normally but give an "encrypted entries are
//!   not supported yet" error when their bytes are asked for.
//! - An entry whose compressed and real sizes are equal and whose bytes do not open a zlib stream is read
//!   as stored (some tools write incompressible files that way; the official client always inflates).
//!   relic's writer always compresses.
//! - Folder records are kept in the JSON document but are not archive entries (they hold no data).
//! - Compressed bytes depend on the zlib implementation, so the JSON document keeps the table's and every
//!   entry's compressed bytes as stored: the file rebuilds byte-identically.

pub mod convert;
pub mod des;
pub mod read;
pub mod types;
pub mod write;

pub use read::parse;
pub use types::{Grf, GrfDocument, GrfEntry, GrfHeader, GrfRecord};
pub use write::{write_archive, write_archive_bytes, write_document, PackInput, PackSource};

use crate::asset::Entry;
use crate::error::Result;
use crate::registry::{Capabilities, Codec, FolderFile, Format, Game, Kind, PackRequest};

pub const FORMAT_ID: &str = "ro-grf";

pub static FORMAT: Format = Format {
    id: FORMAT_ID,
    name: "Ragnarok Online GRF archive",
    game: Game::Ragnarok,
    extensions: &["grf", "gpf"],
    kind: Kind::Archive,
    capabilities: Capabilities { read: true, convert: true, write: true },
    notes: "Version 0x200 only: 0x102/0x103 (DES) and 0x300 are refused as unsupported, and entries flagged \
            DES-encrypted fail on extraction. Equal compressed and real sizes without a zlib header are read as \
            stored. New archives: zlib level 9 for every entry and the table, names in CP949 with `\\`, data \
            8-byte aligned in name order, no folder records, no times (GRF keeps none).",
    codec: &GrfCodec,
};

struct GrfCodec;

/// `relic pack ro-grf --version`: 0x200 (the default), 0x300, 0x102, 0x103.
static PACK_VERSIONS: [u32; 4] =
    [types::VERSION_0X200, types::VERSION_0X300, types::VERSION_0X102, types::VERSION_0X103];

impl Codec for GrfCodec {
    fn sniff(&self, head: &[u8]) -> bool {
        head.starts_with(types::SIGNATURE)
    }

    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(&parse(data)?))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        let doc = convert::to_document(&parse(data)?);
        crate::registry::document_json(FORMAT_ID, &doc)
    }

    fn write_json(&self, value: serde_json::Value) -> Result<Vec<u8>> {
        let doc: GrfDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
        write_document(&doc)
    }

    fn entries<'a>(&self, data: &'a [u8], _archive_name: &str) -> Option<Result<Vec<Entry<'a>>>> {
        Some(parse(data).map(|grf| convert::entries(&grf)))
    }

    fn pack_versions(&self) -> &'static [u32] {
        &PACK_VERSIONS
    }

    fn pack_folder(&self, files: Vec<FolderFile>, request: &PackRequest, out: &mut dyn std::io::Write) -> Result<u64> {
        let inputs = files
            .into_iter()
            .map(|f| Ok(PackInput { name: write::encode_name(&f.relative)?, source: PackSource::File(f.path) }))
            .collect::<Result<Vec<_>>>()?;
        write_archive(inputs, request.version.unwrap_or(types::VERSION_0X200), out)
    }
}
