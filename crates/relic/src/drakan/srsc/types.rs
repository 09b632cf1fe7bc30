//! SRSC as it is stored (spec "Basic SRSC format", docs/formats/drakan.md#srsc): a 12-byte header, record bodies, and the
//! directory of 14-byte entries at `directory_offset` — the only map of the file.

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;
use crate::layout::Gap;

pub const MAGIC: &[u8; 4] = b"SRSC";
pub const HEADER_SIZE: usize = 12;
pub const ENTRY_SIZE: usize = 14;
/// Drakan's version; later Riot games write 0x0101 (docs/formats/drakan.md#srsc-later-riot).
pub const VERSION_DRAKAN: u16 = 0x0100;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SrscHeader {
    pub version: u16,
    pub directory_offset: u32,
    pub record_count: u16,
}

/// One directory entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DirectoryEntry {
    #[serde(rename = "type", with = "hex_u16")]
    pub record_type: u16,
    pub id: u16,
    pub group: u16,
    pub offset: u32,
    pub size: u32,
}

/// A parsed SRSC file borrowing its bytes. Read with [`Srsc::read`]; [`Srsc::to_document`] gives the owned
/// [`SrscDocument`] (`relic convert --to json` is `serde_json::to_value` of it), and [`Srsc::to_bytes`] writes
/// the file back from it.
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::drakan::srsc::{write_packed, NewRecord, Srsc};
///
/// // Two records (type 0x0401, plain strings), packed as Drakan packs: header, bodies from offset 12, directory.
/// let string = |id: u16, text: &[u8]| NewRecord { record_type: 0x0401, id, group: 0, body: text.to_vec() };
/// let bytes = write_packed(0x100, &[string(1, b"Hello\0"), string(2, b"World\0")])?;
/// let srsc = Srsc::read(&bytes)?;
/// assert_eq!((srsc.header.version, srsc.header.record_count), (0x100, 2));
/// assert_eq!(srsc.body(srsc.find(0x0401, 2).expect("record 2")), b"World\0");
/// assert_eq!(srsc.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Srsc<'a> {
    pub header: SrscHeader,
    pub entries: Vec<DirectoryEntry>,
    pub bytes: &'a [u8],
}

/// The lossless JSON document (`convert --to json`), [`SrscDocument::read`] and [`SrscDocument::to_bytes`]: header, every directory entry in directory order with
/// its body, and non-zero bytes outside header, bodies and directory. Bodies that several entries share are
/// stored once (`same_as` names the first entry with them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SrscDocument {
    pub format: String,
    pub header: SrscHeader,
    pub file_size: u64,
    pub records: Vec<SrscDocumentRecord>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gaps: Vec<Gap>,
    /// The byte order `convert` drew 32-bpp textures in, when it was not RGBA (`--option
    /// drakan-texture.order=bgra`): `pack` reads their PNGs back in the same order. Not part of the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub texture_order: Option<crate::drakan::records::texture::ChannelOrder>,
    /// The code page `convert` read the string records' text in, when it was not Windows-1252 (`--option
    /// drakan-strings.code-page=windows-1251`): `pack` writes the text back in the same one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_page: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SrscDocumentRecord {
    #[serde(flatten)]
    pub entry: DirectoryEntry,
    /// The type's name (informational; the writer ignores it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub type_name: Option<String>,
    /// The body as text, for string records (0x0400 deciphered, 0x0401 as is) whose text gives the bytes
    /// back exactly; edited text is written back (enciphered again for 0x0400) and the size recomputed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Base64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_as: Option<usize>,
}

/// u16 fields written as `"0x0040"` in JSON (record types read better in hex); numbers are accepted too.
pub(crate) mod hex_u16 {
    use serde::{de, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &u16, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("0x{v:04X}"))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u16, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Repr {
            Num(u16),
            Text(String),
        }
        match Repr::deserialize(d)? {
            Repr::Num(n) => Ok(n),
            Repr::Text(t) => {
                let digits = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")).unwrap_or(&t);
                u16::from_str_radix(digits, 16).map_err(|_| de::Error::custom(format!("`{t}` is not a hex u16")))
            }
        }
    }
}
