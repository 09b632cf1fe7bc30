//! RES types: the archive exactly as stored. [`Res`] borrows the file's bytes (zero-copy); [`ResDocument`]
//! is its owned, serde form — the JSON of `relic convert x.res --to json`, complete enough to rebuild the
//! file byte for byte (`relic pack ei-res x.json`).

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;

/// `3C E2 9C 01`.
pub const MAGIC: [u8; 4] = [0x3C, 0xE2, 0x9C, 0x01];
pub const HEADER_SIZE: usize = 16;
pub const RECORD_SIZE: usize = 22;
/// Entry data is 16-byte aligned (docs/formats/evil-islands.md#res-layout).
pub const ALIGN: u64 = 16;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResHeader {
    pub files_count: u32,
    pub filetable_offset: u32,
    pub nametable_size: u32,
}

impl ResHeader {
    /// The name table follows the file table.
    pub fn nametable_offset(&self) -> u64 {
        u64::from(self.filetable_offset) + RECORD_SIZE as u64 * u64::from(self.files_count)
    }
}

/// One 22-byte file-table record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResRecord {
    /// Next record in this hash chain, −1 ends it.
    pub next_index: i32,
    pub size: u32,
    pub offset: u32,
    /// Unix seconds.
    pub modified: u32,
    pub name_len: u16,
    /// Relative to the name table.
    pub name_offset: u32,
}

/// A parsed RES archive borrowing the file's bytes. Every range was checked by the reader. Read with
/// [`Res::read`]; [`Res::to_document`] gives the owned [`ResDocument`] (`relic convert --to json` is
/// `serde_json::to_value` of it), and [`Res::to_bytes`] writes the file back from it.
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::evil_islands::res::{write_archive, PackInput, PackOptions, PackSource, Res};
///
/// // An archive of two entries, written by relic's packer.
/// let entry = |name: &str, data: &[u8]| PackInput {
///     name: name.as_bytes().to_vec(),
///     modified: 1_000_000_000,
///     source: PackSource::Bytes(data.to_vec()),
/// };
/// let mut bytes = Vec::new();
/// write_archive(vec![entry("readme.txt", b"hello"), entry("texts\\quest", b"Find it.")], PackOptions::default(), &mut bytes)?;
/// let res = Res::read(&bytes)?;
/// assert_eq!(res.len(), 2);
/// let i = res.find(b"TEXTS\\QUEST").expect("found ignoring case");
/// assert_eq!(res.data(i), b"Find it.");
/// assert_eq!(res.records[i].modified, 1_000_000_000);
/// assert_eq!(res.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Res<'a> {
    pub header: ResHeader,
    pub records: Vec<ResRecord>,
    pub(super) bytes: &'a [u8],
}

/// The owned, lossless form of a RES file: [`ResDocument::read`] and [`ResDocument::to_bytes`]; `relic convert
/// --to json` is `serde_json::to_value` of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResDocument {
    pub format: String,
    pub header: ResHeader,
    /// Total file size.
    pub file_size: u64,
    pub entries: Vec<ResDocumentEntry>,
    /// Bytes of the file not covered by the header, the tables, the names or entry data (padding that is
    /// not zero, slack); zero bytes are implied.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gaps: Vec<Gap>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResDocumentEntry {
    /// The name decoded from cp1251.
    pub name: String,
    /// The raw name when the text does not encode back to the same bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_bytes: Option<Base64>,
    #[serde(flatten)]
    pub record: ResRecord,
    /// The entry's bytes, or absent when an earlier entry stores the same range (`same_as`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Base64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_as: Option<usize>,
}

pub use crate::layout::Gap;
