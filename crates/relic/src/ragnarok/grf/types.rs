//! GRF types: the archive exactly as stored, for every version. [`Grf`] borrows the file's bytes (entry data stays in place);
//! [`GrfDocument`] is its owned, serde form — the JSON of `relic convert x.grf --to json`, complete enough to
//! rebuild the file byte for byte (`relic pack ro-grf x.json`).

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;

/// The first 15 bytes of a GRF signed `Master of Magic` (every archive before 2024, and every one relic
/// writes except 0x300).
pub const SIGNATURE: &[u8; 15] = b"Master of Magic";
/// The text of the other signature, `Event Horizon`: today's iRO client `data.grf` (0x300, since about
/// October 2024) carries `Event Horizon\0RL` in the 16-byte signature field (docs/formats/ragnarok.md#grf-event-horizon).
pub const EVENT_HORIZON: &[u8; 13] = b"Event Horizon";
/// The two bytes that end the `Event Horizon` signature field (bytes 14 and 15), after its NUL.
pub const EVENT_HORIZON_TAIL: &[u8; 2] = b"RL";
/// The signature field and key before the header's numbers: 16 + 14 bytes.
pub const SIGNED_BYTES: usize = 30;
/// Header size; every offset in the file (table, entry data) counts from here.
pub const HEADER_SIZE: usize = 46;
/// The fixed fields after an entry's NUL-terminated name in 0x200 tables: three u32 sizes, u8 flags, u32
/// offset (and after a 1.x entry's name field, where the sizes are stored with constants added).
pub const RECORD_FIXED: usize = 17;
/// The same in 0x300 tables, whose offsets are u64.
pub const RECORD_FIXED_V3: usize = 21;
/// 1.x archives: DES-enciphered names and entries, a table stored as it is to the end of the file.
pub const VERSION_0X102: u32 = 0x102;
pub const VERSION_0X103: u32 = 0x103;
/// zlib-compressed file table, 32-bit offsets.
pub const VERSION_0X200: u32 = 0x200;
/// zlib-compressed file table, 64-bit table and entry offsets.
pub const VERSION_0X300: u32 = 0x300;
/// The versions relic writes (`relic pack ro-grf --version`); 0x200 unless asked.
pub const WRITE_VERSIONS: [u32; 4] = [VERSION_0X102, VERSION_0X103, VERSION_0X200, VERSION_0X300];
/// `raw_count` is the entry count plus `seed` plus this constant (1.x, 0x200, and 0x300 headers in GRF
/// Editor's older form).
pub const COUNT_BIAS: u32 = 7;
/// Entries' `aligned_size` is the compressed size rounded up to DES's 8-byte blocks.
pub const ALIGN: u32 = 8;

/// 1.x sizes are stored with constants added: `compressed + real + 715`, `aligned + 37579`.
pub const V1_COMPRESSED_BIAS: u32 = 715;
pub const V1_ALIGNED_BIAS: u32 = 37_579;
/// A 1.x name field: 2 bytes, the enciphered name (a multiple of 8 bytes in files GRF tools write), 4 bytes.
pub const V1_NAME_LEAD: usize = 2;
pub const V1_NAME_TAIL: usize = 4;

/// Entry flag: the entry is a file (without it, a folder record with no data).
pub const FLAG_FILE: u8 = 0x01;
/// Entry flag: "mixed" DES encipherment (the first 20 blocks, then every n-th block and shuffled ones).
pub const FLAG_ENCRYPT_MIXED: u8 = 0x02;
/// Entry flag: only the first 20 blocks are DES-enciphered.
pub const FLAG_ENCRYPT_HEADER: u8 = 0x04;

/// Extensions whose 1.x entries are only header-enciphered (every other file is mixed).
pub const HEADER_ONLY_EXTENSIONS: [&[u8; 4]; 4] = [b".gnd", b".gat", b".act", b".str"];

/// The 15 bytes after the signature that the common GRF tools (and relic's writer) put there: 00 01 … 0E,
/// so that the first 16 bytes read `Master of Magic\0`.
pub const DEFAULT_KEY: [u8; 15] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];

/// The signature a GRF starts with. Loaders accept either for every version (docs/formats/ragnarok.md#grf-signatures), so the
/// signature is independent of the version: relic reads both everywhere and keeps it to write the file back
/// (`header.signature` in the JSON; absent means `Master of Magic`, as in documents of older relic).
///
/// The first 30 bytes are a 16-byte signature field and a 14-byte key. relic's [`GrfHeader::key`] has 15
/// bytes: the byte that ends the signature text (its NUL in every file the common tools write) and the 14
/// key bytes, so that it reads the same under both signatures:
/// - `Master of Magic`: the text in bytes 0–14, `key` in bytes 15–29;
/// - `Event Horizon`: the text in bytes 0–12, `key[0]` in byte 13, `RL` in bytes 14–15, `key[1..]` in bytes
///   16–29 (GRF Editor writes `Event Horizon\0RL`, then the same 14 key bytes as under the other signature).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Signature {
    #[default]
    #[serde(rename = "Master of Magic")]
    MasterOfMagic,
    #[serde(rename = "Event Horizon")]
    EventHorizon,
}

impl Signature {
    /// The signature of new archives: `Event Horizon` for 0x300, as today's client and GRF Editor have it;
    /// `Master of Magic` for the others.
    pub fn for_version(version: u32) -> Signature {
        if version == VERSION_0X300 {
            Signature::EventHorizon
        } else {
            Signature::MasterOfMagic
        }
    }

    /// The signature and key of the first 30 bytes of a file; `None` when they hold neither signature.
    pub fn split(head: &[u8; SIGNED_BYTES]) -> Option<(Signature, [u8; 15])> {
        let mut key = [0u8; 15];
        if head.starts_with(SIGNATURE) {
            key.copy_from_slice(head.get(SIGNATURE.len()..)?);
            return Some((Signature::MasterOfMagic, key));
        }
        let text = EVENT_HORIZON.len();
        if head.starts_with(EVENT_HORIZON) && head.get(text + 1..text + 3) == Some(EVENT_HORIZON_TAIL) {
            key[0] = *head.get(text)?;
            key.get_mut(1..)?.copy_from_slice(head.get(text + 3..)?);
            return Some((Signature::EventHorizon, key));
        }
        None
    }

    /// The first 30 bytes of a file of this signature and key (the inverse of [`Signature::split`]).
    pub fn join(self, key: &[u8; 15]) -> [u8; SIGNED_BYTES] {
        let mut head = [0u8; SIGNED_BYTES];
        let (text, tail): (&[u8], &[u8]) = match self {
            Signature::MasterOfMagic => (SIGNATURE, &[]),
            Signature::EventHorizon => (EVENT_HORIZON, EVENT_HORIZON_TAIL),
        };
        let [first, rest @ ..] = key;
        let parts: [&[u8]; 4] = [text, std::slice::from_ref(first), tail, rest];
        for (dst, src) in head.iter_mut().zip(parts.into_iter().flatten()) {
            *dst = *src;
        }
        head
    }

    /// Whether `head` (a file's first bytes, at least the signature field's) starts with either signature.
    pub fn sniff(head: &[u8]) -> bool {
        let text = EVENT_HORIZON.len();
        head.starts_with(SIGNATURE)
            || (head.starts_with(EVENT_HORIZON) && head.get(text + 1..text + 3) == Some(EVENT_HORIZON_TAIL))
    }

    /// The name users see (`relic info`, errors).
    pub fn name(self) -> &'static str {
        match self {
            Signature::MasterOfMagic => "Master of Magic",
            Signature::EventHorizon => "Event Horizon",
        }
    }
}

/// The table and entry layouts, by version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// 0x101–0x103: enciphered names and entries, sizes stored with constants added, a plain table.
    V1,
    /// 0x200: a zlib-compressed table, u32 offsets.
    V2,
    /// 0x300: a u32 before the compressed table's sizes, u64 entry offsets, a 64-bit table offset.
    V3,
}

impl Layout {
    /// The layout of a version relic reads; `None` for the others.
    pub fn of(version: u32) -> Option<Layout> {
        match version {
            0x101..=0x103 => Some(Layout::V1),
            VERSION_0X200 => Some(Layout::V2),
            VERSION_0X300 => Some(Layout::V3),
            _ => None,
        }
    }
}

/// The 46-byte header after the 15-byte signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrfHeader {
    /// Called the encryption key or watermark; unused by the formats (see [`DEFAULT_KEY`]): bytes 15..30
    /// under `Master of Magic`, byte 13 and bytes 16..30 under `Event Horizon` (see [`Signature`]).
    pub key: [u8; 15],
    /// Where the file table starts, counted from the end of the header (byte 46): a u32 at byte 30, or in
    /// 0x300 headers a u64 at byte 30.
    pub table_offset: u64,
    /// "number1", the u32 at byte 34: subtracted (with 7) from `raw_count` to give the entry count; 0 in
    /// files relic writes. A 0x300 header has none (its table offset takes the bytes): 0 there, unless the
    /// header has GRF Editor's older 0x300 form (see [`GrfHeader::is_wide`]).
    pub seed: u32,
    /// "number2", the u32 at byte 38: entry count + `seed` + 7; in a 0x300 header, the entry count itself.
    pub raw_count: u32,
    /// 0x101–0x103, 0x200 or 0x300.
    pub version: u32,
}

impl GrfHeader {
    /// Whether the header has the 0x300 form: u64 table offset, u32 entry count. GRF Editor reads a 0x300
    /// header whose bytes 35–37 are not all zero in the 0x200 form (u32 offset, seed, raw count), as older
    /// 0x300 files have it; such a seed is at least 256, so a 0x300 header with `seed` under 256 is wide.
    pub fn is_wide(&self) -> bool {
        self.version == VERSION_0X300 && self.seed >> 8 == 0
    }

    /// The number of table entries: `raw_count` in a wide header, `raw_count − seed − 7` otherwise; `None`
    /// when that is negative.
    pub fn entry_count(&self) -> Option<u32> {
        if self.is_wide() {
            return Some(self.raw_count);
        }
        self.raw_count.checked_sub(self.seed)?.checked_sub(COUNT_BIAS)
    }

    pub fn layout(&self) -> Option<Layout> {
        Layout::of(self.version)
    }
}

/// The fixed fields of one table entry (1.x sizes as they are, the constants taken off).
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
    /// Where the data starts, counted from byte 46 (a u64 in 0x300 tables, a u32 in the others).
    pub offset: u64,
}

impl GrfRecord {
    pub fn is_file(&self) -> bool {
        self.flags & FLAG_FILE != 0
    }

    /// Whether the flags ask for DES (in 1.x archives every file is enciphered whatever its flags: see
    /// [`GrfRecord::cipher`]).
    pub fn is_encrypted(&self) -> bool {
        self.flags & (FLAG_ENCRYPT_MIXED | FLAG_ENCRYPT_HEADER) != 0
    }

    /// Absolute file offset of the data.
    pub fn data_start(&self) -> u64 {
        (HEADER_SIZE as u64).saturating_add(self.offset)
    }

    /// How a file entry's stored bytes are enciphered, as rathena's `grfio` decides: in 1.x archives the
    /// name's extension adds the mixed flag (header-only for [`HEADER_ONLY_EXTENSIONS`]) to the stored
    /// flags; then the mixed flag wins over the header flag. `None` for plain entries and folder records.
    pub fn cipher(&self, layout: Layout, name_raw: &[u8]) -> Option<Cipher> {
        if !self.is_file() {
            return None;
        }
        let mut flags = self.flags;
        if layout == Layout::V1 {
            flags |= if header_only_name(name_raw) { FLAG_ENCRYPT_HEADER } else { FLAG_ENCRYPT_MIXED };
        }
        if flags & FLAG_ENCRYPT_MIXED != 0 {
            Some(Cipher::Mixed { cycle: super::des::cycle(self.compressed_size) })
        } else if flags & FLAG_ENCRYPT_HEADER != 0 {
            Some(Cipher::Header)
        } else {
            None
        }
    }

    /// Bytes the entry's data occupies as stored: the compressed size, or for an enciphered entry (read in
    /// whole blocks) the larger of the compressed and aligned sizes.
    pub fn stored_len(&self, enciphered: bool) -> u64 {
        if enciphered {
            u64::from(self.compressed_size.max(self.aligned_size))
        } else {
            u64::from(self.compressed_size)
        }
    }
}

/// Whether a 1.x entry of this name is only header-enciphered: its last four bytes are one of
/// [`HEADER_ONLY_EXTENSIONS`], ASCII case ignored (rathena compares the text after the last `.`, libgrf and
/// GRF Editor the last four characters: the same names).
pub fn header_only_name(name_raw: &[u8]) -> bool {
    let tail = name_raw.len().checked_sub(4).and_then(|at| name_raw.get(at..));
    tail.is_some_and(|t| HEADER_ONLY_EXTENSIONS.iter().any(|e| t.eq_ignore_ascii_case(*e)))
}

pub use super::des::Cipher;

/// One table entry: its name (CP949, `\` between folders) and fixed fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrfEntry {
    /// The name as stored (in 1.x archives, deciphered, up to its first NUL), without its NUL.
    pub name_raw: Vec<u8>,
    /// The name decoded from CP949 (malformed bytes become U+FFFD; `name_raw` keeps them).
    pub name: String,
    /// Whether `name` encodes back to exactly `name_raw`.
    pub name_exact: bool,
    /// 1.x: the name field as stored (enciphered, with its lead and tail bytes) when enciphering `name_raw`
    /// the way GRF tools do does not give it back.
    pub name_field: Option<Vec<u8>>,
    pub record: GrfRecord,
}

/// A parsed GRF borrowing the file's bytes. Every file entry's data range was checked by the reader.
///
/// Read with [`Grf::read`] (an entry's bytes with [`Grf::read_entry`]); [`Grf::to_document`] gives the owned
/// [`GrfDocument`], [`Grf::to_json`] the JSON of `relic convert --to json` (the document and the signature),
/// and [`Grf::to_bytes`] writes the file back.
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::ragnarok::grf::{write_archive_bytes, Grf, PackInput, PackSource};
///
/// // A version 0x200 archive of one file, written by relic's packer.
/// let input = PackInput { name: b"data\\readme.txt".to_vec(), source: PackSource::Bytes(b"hello".to_vec()) };
/// let bytes = write_archive_bytes(vec![input], 0x200)?;
/// let grf = Grf::read(&bytes)?;
/// assert_eq!(grf.header.version, 0x200);
/// let i = grf.find_ci("DATA\\README.TXT").expect("found ignoring case");
/// assert_eq!(grf.read_entry(i)?.as_ref(), b"hello");
/// assert_eq!(grf.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Grf<'a> {
    /// Which signature the file starts with (the header's other fields do not depend on it).
    pub signature: Signature,
    pub header: GrfHeader,
    pub layout: Layout,
    /// The table's stored sizes: compressed, then inflated (1.x: the plain table's length, twice).
    pub table_packed_size: u64,
    pub table_real_size: u64,
    /// 0x300: the u32 before the table's sizes (0 in the files GRF Editor writes; meaning unknown).
    pub table_reserved: u32,
    /// The compressed table as stored (1.x: the plain table, from its offset to the end of the file).
    pub table_packed: &'a [u8],
    /// Entries in table order (folder records included).
    pub entries: Vec<GrfEntry>,
    /// Bytes of the (inflated) table after the last entry (none in files written by the common tools).
    pub table_trailing: Vec<u8>,
    pub(super) bytes: &'a [u8],
}

/// The owned, lossless form of a GRF file ([`Grf::to_document`]). It does not hold the signature: write it
/// with [`write_document_as`](super::write_document_as) and the signature of the [`Grf`] it came from (as
/// [`Grf::to_bytes`] does).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrfDocument {
    pub format: String,
    /// The header; its entry count (see [`GrfHeader::entry_count`]) must be the number of entries.
    pub header: GrfHeader,
    /// Total file size (1.x: the table runs to the end of the file, so the file ends with it).
    pub file_size: u64,
    pub table: GrfTableDocument,
    pub entries: Vec<GrfDocumentEntry>,
    /// Bytes of the (inflated) table after the last entry.
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
/// 1.x tables are not compressed: `packed` is unused there, the table is built from the entries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrfTableDocument {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packed: Option<Base64>,
    /// 0x300: the u32 before the table's sizes, when not 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserved: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrfDocumentEntry {
    /// The name decoded from CP949.
    pub name: String,
    /// The raw name when the text does not encode back to the same bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_bytes: Option<Base64>,
    /// 1.x: the name field as stored, when enciphering the name the way GRF tools do does not give it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_field: Option<Base64>,
    #[serde(flatten)]
    pub record: GrfRecord,
    /// How `data` is enciphered (absent: plain). When the version, name and flags ask for another cipher
    /// than this (an edited document), the writer deciphers and enciphers again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cipher: Option<StoredCipher>,
    /// The stored bytes, as they are in the archive (enciphered ones too): `compressed_size` of them, or for
    /// an enciphered entry the larger of `compressed_size` and `aligned_size`; absent for folder records and
    /// when an earlier entry stores the same range (`same_as`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Base64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_as: Option<usize>,
}

/// The cipher of a document entry's data (the cycle of a mixed entry follows from its compressed size).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StoredCipher {
    Mixed,
    Header,
}

impl StoredCipher {
    pub fn of(cipher: Cipher) -> Self {
        match cipher {
            Cipher::Mixed { .. } => StoredCipher::Mixed,
            Cipher::Header => StoredCipher::Header,
        }
    }

    /// The cipher for an entry of `compressed` bytes.
    pub fn with_size(self, compressed: u32) -> Cipher {
        match self {
            StoredCipher::Mixed => Cipher::Mixed { cycle: super::des::cycle(compressed) },
            StoredCipher::Header => Cipher::Header,
        }
    }
}

pub use crate::layout::Gap;
