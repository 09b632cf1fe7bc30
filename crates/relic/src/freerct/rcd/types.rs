//! An RCD file as it is: the file version and its blocks in file order (block n of the file is
//! `blocks[n − 1]`; references count from 1, 0 meaning none).

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::text::{Info, TextString};

/// The 8-byte file header: `RCDF` + u32 version (docs/formats/freerct.md#rcd-header: the spec's "total length" is not there).
pub const MAGIC: &[u8; 4] = b"RCDF";
pub const FILE_HEADER: usize = 8;
/// Every block starts with magic, version and body length.
pub const BLOCK_HEADER: usize = 12;

/// An RCD file, its blocks borrowing the file's bytes where they are kept as stored. Read with [`Rcd::read`],
/// written with [`Rcd::to_bytes`]; its JSON (`relic convert --to json`: every block with its fields by name) is
/// [`Rcd::to_json`], read back by [`Rcd::from_json`].
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::freerct::rcd::{Body, Rcd};
///
/// // `RCDF` version 1, then one block relic has no layout for (`XMPL` version 1, a 3-byte body): kept raw.
/// let mut bytes = b"RCDF".to_vec();
/// bytes.extend(1u32.to_le_bytes());
/// bytes.extend(b"XMPL");
/// bytes.extend(1u32.to_le_bytes());
/// bytes.extend(3u32.to_le_bytes());
/// bytes.extend([1, 2, 3]);
/// let rcd = Rcd::read(&bytes)?;
/// assert_eq!(rcd.version, 1);
/// assert_eq!(rcd.blocks[0].magic_str(), "XMPL");
/// assert!(matches!(&rcd.blocks[0].body, Body::Raw { bytes, reason: None } if bytes.as_ref() == [1, 2, 3]));
/// assert_eq!(rcd.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Rcd<'a> {
    /// 1 (the spec's era) or 2 (today's game).
    pub version: u32,
    pub blocks: Vec<Block<'a>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Block<'a> {
    pub magic: [u8; 4],
    pub version: u32,
    pub body: Body<'a>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Body<'a> {
    /// `8PXL`: palette-indexed pixels. Version 2 carries the drawing offset (version 1 keeps it in SPRT).
    Pixels8 {
        width: u16,
        height: u16,
        offset: Option<(i16, i16)>,
        data: Cow<'a, [u8]>,
    },
    /// `32PX`: RGBA with recolour layers, and the drawing offset.
    Pixels32 {
        width: u16,
        height: u16,
        offset: (i16, i16),
        data: Cow<'a, [u8]>,
    },
    Info(Info),
    Text(Vec<TextString>),
    /// A block read field by field through its layout (`layouts.rs`).
    Fields(Map<String, Value>),
    /// A block relic does not read field by field: its bytes, and why (`None`: no layout for its magic
    /// and version; else what did not fit the layout).
    Raw {
        bytes: Cow<'a, [u8]>,
        reason: Option<String>,
    },
}

impl Block<'_> {
    pub fn magic_str(&self) -> String {
        magic_text(&self.magic)
    }

    pub fn is_pixels(&self) -> bool {
        matches!(self.body, Body::Pixels8 { .. } | Body::Pixels32 { .. })
    }
}

/// A magic as text: each byte one character (Latin-1), so any four bytes survive JSON.
pub fn magic_text(m: &[u8; 4]) -> String {
    m.iter().map(|&b| char::from(b)).collect()
}

/// The magic a text names (four characters of U+0000–U+00FF).
pub fn magic_from_text(s: &str) -> Option<[u8; 4]> {
    let bytes: Vec<u8> = s.chars().map(|c| u8::try_from(u32::from(c)).ok()).collect::<Option<_>>()?;
    bytes.try_into().ok()
}
