//! FTG as stored (spec "FTG Package Format", docs/formats/dark-reign.md#ftg-magic): a 12-byte header (magic, i32 directory offset,
//! i32 file count), file data anywhere, and a directory of 36-byte entries (28-byte NUL-terminated name,
//! i32 offset, i32 size).

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;
use crate::layout::Gap;

pub const MAGIC: &[u8; 4] = b"BOTG";
/// Written by some community tools; read, never written (docs/formats/dark-reign.md#ftg).
pub const MAGIC_COMMUNITY: &[u8; 4] = b"FTG\0";
pub const HEADER_SIZE: usize = 12;
pub const ENTRY_SIZE: usize = 36;
pub const NAME_SIZE: usize = 28;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FtgHeader {
    /// `BOTG`, or `FTG\0` from community tools.
    pub magic: [u8; 4],
    pub directory_offset: u32,
    pub file_count: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FtgEntry {
    /// The name field as stored (28 bytes, junk after the NUL included).
    pub name_field: [u8; NAME_SIZE],
    /// The name: the bytes before the NUL, Windows-1252.
    pub name: String,
    pub offset: u32,
    pub size: u32,
}

/// A parsed FTG archive borrowing its bytes. Read with [`Ftg::read`]; [`Ftg::to_document`] gives the owned
/// [`FtgDocument`] (`relic convert --to json` is `serde_json::to_value` of it), and [`Ftg::to_bytes`] writes
/// the file back from it.
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::dark_reign::ftg::{write_new, Ftg, NewEntry};
///
/// // An archive of two files, written as Dark Reign writes them: `BOTG`, data from offset 12, directory last.
/// let entry = |name: &str, data: &[u8]| NewEntry { name: name.into(), data: data.to_vec() };
/// let bytes = write_new(&[entry("UNIT.SPR", b"sprite"), entry("BARREN.PAL", b"palette")])?;
/// let ftg = Ftg::read(&bytes)?;
/// assert_eq!(ftg.entries.len(), 2);
/// assert_eq!(ftg.data(ftg.find("barren.pal").expect("found ignoring case")), b"palette");
/// assert_eq!(ftg.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Ftg<'a> {
    pub header: FtgHeader,
    pub entries: Vec<FtgEntry>,
    pub bytes: &'a [u8],
}

/// The lossless JSON document ([`FtgDocument::read`], [`FtgDocument::to_bytes`]): header, every directory entry in directory order with its data (shared
/// ranges once), and non-zero bytes outside header, data and directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FtgDocument {
    pub format: String,
    pub magic: String,
    pub directory_offset: u32,
    pub file_count: u32,
    pub file_size: u64,
    pub entries: Vec<FtgDocumentEntry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gaps: Vec<Gap>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FtgDocumentEntry {
    pub name: String,
    /// The 28-byte field when the name alone does not give it back (junk after the NUL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_field: Option<Base64>,
    pub offset: u32,
    pub size: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Base64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_as: Option<usize>,
}
