//! GRF types: the archive exactly as stored. [`Grf`] borrows the file's bytes (entry data stays in place);
//! [`GrfDocument`] is its owned, serde form — the JSON of `relic convert x.grf --to json`, complete enough to
//! rebuild the file byte for byte (`relic pack ro-grf x.json`).

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;

/// The first 15 bytes of every GRF.
pub const SIGNATURE: &[u8; 15] = b"Master of Magic";
/// Header size; every offset in the file (table, entry data) counts from here.
pub const HEADER_SIZE: usize = 46;
/// The fixed fields after an entry's NUL-terminated name: three u32 sizes, u8 flags, u32 offset.
pub const RECORD_FIXED: usize = 17;
/// The only version relic reads: zlib-compressed file table, 32-bit offsets.
pub const VERSION_0X200: u32 = 0x200;
/// `raw_count` is the entry count plus `seed` plus this constant.
pub const COUNT_BIAS: u32 = 7;
/// Entries' `aligned_size` is the compressed size rounded up to DES's 8-byte blocks.
pub const ALIGN: u32 = 8;

/// Entry flag: the entry is a file (without it, a folder record with no data).
pub const FLAG_FILE: u8 = 0x01;
/// Entry flag: "mixed" DES encryption (first blocks, then every n-th block).
pub const FLAG_ENCRYPT_MIXED: u8 = 0x02;
/// Entry flag: only the first 20 blocks are DES-encrypted.
pub const FLAG_ENCRYPT_HEADER: u8 = 0x04;

/// The 15 bytes after the signature that the common GRF tools (and relic's writer) put there: 00 01 … 0E,
/// so that the first 16 bytes read `Master of Magic\0`.
pub const DEFAULT_KEY: [u8; 15] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];

/// The 46-byte header after the 15-byte signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrfHeader {
    /// Bytes 15..30: called the encryption key or watermark; unused by version 0x200 (see [`DEFAULT_KEY`]).
    pub key: [u8; 15],
    /// Where the file table starts, counted from the end of the header (byte 46).
    pub table_offset: u32,
    /// "number1": subtracted (with 7) from `raw_count` to give the entry count; 0 in files relic writes.
    pub seed: u32,
    /// "number2": entry count + `seed` + 7.
    pub raw_count: u32,
    /// 0x200 (the 0x102/0x103 DES-encrypted variants are recognised but not read).
    pub version: u32,
}

impl GrfHeader {
    /// The number of table entries, `raw_count − seed − 7`; `None` when that is negative.
    pub fn entry_count(&self) -> Option<u32> {
        self.raw_count.checked_sub(self.seed)?.checked_sub(COUNT_BIAS)
    }
}

/// The fixed fields of one table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrfRecord {
    /// Bytes of the zlib stream in the archive.
    pub compressed_size: u32,
    /// `compressed_size` rounded up to 8 (the space the entry occupies; DES works on whole blocks).
    pub aligned_size: u32,
    /// Bytes after inflating.
    pub real_size: u32,
    /// [`FLAG_FILE`], [`FLAG_ENCRYPT_MIXED`], [`FLAG_ENCRYPT_HEADER`].
    pub flags: u8,
    /// Where the data starts, counted from byte 46.
    pub offset: u32,
}

impl GrfRecord {
    pub fn is_file(&self) -> bool {
        self.flags & FLAG_FILE != 0
    }

    pub fn is_encrypted(&self) -> bool {
        self.flags & (FLAG_ENCRYPT_MIXED | FLAG_ENCRYPT_HEADER) != 0
    }

    /// Absolute file offset of the data.
    pub fn data_start(&self) -> u64 {
        HEADER_SIZE as u64 + u64::from(self.offset)
    }
}

/// One table entry: its name (CP949, `\` between folders) and fixed fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrfEntry {
    /// The name as stored, without its NUL.
    pub name_raw: Vec<u8>,
    /// The name decoded from CP949 (malformed bytes become U+FFFD; `name_raw` keeps them).
    pub name: String,
    /// Whether `name` encodes back to exactly `name_raw`.
    pub name_exact: bool,
    pub record: GrfRecord,
}

/// A parsed GRF borrowing the file's bytes. Every file entry's data range was checked by the reader.
#[derive(Debug, Clone)]
pub struct Grf<'a> {
    pub header: GrfHeader,
    /// The table's stored sizes: compressed, then inflated.
    pub table_packed_size: u32,
    pub table_real_size: u32,
    /// The compressed table as stored.
    pub table_packed: &'a [u8],
    /// Entries in table order (folder records included).
    pub entries: Vec<GrfEntry>,
    /// Bytes of the inflated table after the last entry (none in files written by the common tools).
    pub table_trailing: Vec<u8>,
    pub(super) bytes: &'a [u8],
}

/// The owned, lossless form of a GRF file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrfDocument {
    pub format: String,
    /// The header; `raw_count` must be the entry count + `seed` + 7.
    pub header: GrfHeader,
    /// Total file size.
    pub file_size: u64,
    pub table: GrfTableDocument,
    pub entries: Vec<GrfDocumentEntry>,
    /// Bytes of the inflated table after the last entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_trailing: Option<Base64>,
    /// Bytes of the file not covered by the header, the table or entry data (non-zero padding, slack left by
    /// deleted entries); zero bytes are implied.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gaps: Vec<Gap>,
}

/// The file table's compressed bytes. Compressed bytes differ between zlib implementations, so they are kept
/// as stored: when they inflate to exactly the table the entries describe, they are written back unchanged;
/// otherwise (entries edited, `packed` removed) the table is compressed again (zlib level 9).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrfTableDocument {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packed: Option<Base64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrfDocumentEntry {
    /// The name decoded from CP949.
    pub name: String,
    /// The raw name when the text does not encode back to the same bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_bytes: Option<Base64>,
    #[serde(flatten)]
    pub record: GrfRecord,
    /// The stored (compressed) bytes, `compressed_size` of them; absent for folder records and when an
    /// earlier entry stores the same range (`same_as`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Base64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_as: Option<usize>,
}

pub use crate::layout::Gap;
