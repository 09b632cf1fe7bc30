//! Ragnarok Online GRF archives (`ro-grf`, also `.gpf` patch archives, the same format): the game's data
//! archives (`data.grf` holds the textures, models, maps and sprites the other Ragnarok formats name), in
//! every version players' and servers' archives come in: 0x102 and 0x103 (1.x; 0x101 is read the same way),
//! 0x200 and 0x300.
//!
//! The specs folder has no GRF text. The layouts follow the public loaders and editors — rathena's
//! `grfio.cpp` and `des.cpp`, libgrf (`grf.c`, as in OpenKore's tools), GRF Editor (C#: `GrfHeader.cs`,
//! `FileTable.cs`, `FileEntry.cs`, `DesDecryption.cs`) and the fixture generator of a JS loader for 0x300 —
//! read to learn, not copied; the DES tables are typed in from FIPS 46-3. Only version 0x200 is checked
//! against a real file (the corpus's `ragnarok/goldberg_textures.grf`); 1.x, enciphered entries and 0x300
//! are checked against those sources and known answers of rathena's cipher (see [`des`]), not against game
//! files: **unverified on real archives**.
//! - header, 46 bytes: a 16-byte signature field and a 14-byte key, then at byte 30 a u32 table offset, u32
//!   seed, u32 raw count (entry count = raw count − seed − 7), u32 version. The signature is `Master of
//!   Magic\0` or, in today's iRO client `data.grf` (0x300, since about October 2024, over 4 GiB), `Event
//!   Horizon\0RL`; loaders accept either for every version, and so does relic, keeping it to write the file
//!   back (docs/formats/ragnarok.md#grf-signatures; see [`types::Signature`]). The key is 01 … 0E in files from the common tools.
//!   A 0x300 header has a u64 table offset at 0x1E and the entry count itself (no seed, no −7) at 0x26;
//!   older 0x300 archives kept the header above, and a 0x300 header whose bytes 35–37 are not all zero is
//!   read in that form (GRF Editor's test; docs/formats/ragnarok.md#grf-event-horizon);
//! - 0x200, at 46 + table offset: u32 compressed size, u32 inflated size, the zlib-compressed table; each
//!   entry a NUL-terminated CP949 name (`\` between folders), u32 compressed size, u32 aligned size
//!   (compressed size rounded up to 8), u32 real size, u8 flags (0x01 file, 0x02 "mixed" DES, 0x04 header
//!   DES; without 0x01 a folder record), u32 data offset counted from byte 46;
//! - 0x300: the same with a u32 (0 in GRF Editor's files, meaning unknown) before the table's sizes and u64
//!   data offsets;
//! - 1.x: the table is not compressed and runs from 46 + table offset to the end of the file; each entry a
//!   u32 field length, the name field (2 bytes, the enciphered name, 4 bytes: GRF Editor writes zeros and
//!   pads the name and its NUL with NULs to whole blocks), u32 compressed + real + 715, u32 aligned + 37579,
//!   u32 real size, u8 flags, u32 offset; every file is enciphered, header-only for `.gnd .gat .act .str`
//!   and mixed otherwise (the extension's flag is added to the stored flags, as rathena does);
//! - entry data: a zlib stream, zero padded to the aligned size, enciphered as the flags say (mixed: the
//!   first 20 blocks and every cycle-th after them through the DES variant, every seventh other block
//!   shuffled; the cycle from the digits of the compressed size; see [`des`]); in any order (the corpus file
//!   stores its entries in another order than its table, which is sorted by name).
//!
//! Choices relic made where the sources disagree or say nothing:
//! - 0x200 entry count: raw count − seed − 7 (libgrf, GRF Editor); rathena ignores the seed for 0x200.
//! - Flags 0x02 and 0x04 together: mixed (rathena tests 0x02 first; GRF Editor only knows 0x03 and 0x05).
//! - Mixed cycle under 3 digits: 1 (rathena); GRF Editor says 3, the same bytes for any consistent entry.
//! - Only whole blocks within the aligned size of an entry are deciphered (rathena and GRF Editor read
//!   the aligned size); a 1.x name's partial last block is left as stored (rathena deciphers 8 bytes past
//!   the field, GRF Editor pads); the 1.x name field length is the whole u32 (rathena and GRF Editor use
//!   its low byte: the same for every name under 250 bytes).
//! - 0x300: GRF Editor's layout (its writer created the version). A PHP loader reads 0x300 with the 0x200
//!   header and no u32 before the table's sizes; it is not followed.
//! - An entry whose compressed and real sizes are equal and whose bytes do not open a zlib stream is read
//!   as stored (some tools write incompressible files that way; the official client always inflates);
//!   enciphered entries are always inflated. relic's writer always compresses.
//! - Folder records are kept in the JSON document but are not archive entries (they hold no data).
//! - Compressed bytes depend on the zlib implementation, and enciphered bytes are kept as stored, so the JSON
//!   document keeps the table's and every entry's stored bytes (enciphered ones with their cipher named, in
//!   whole blocks) and 1.x name fields GRF tools would not write: the file rebuilds byte-identically. 1.x
//!   names are deciphered in the document and enciphered again when written; an entry whose name, flags or
//!   version ask for another cipher than its data has (an edited document) is deciphered and enciphered
//!   again.
//! - New archives: 0x200 unless asked (`relic pack ro-grf --version 0x102|0x103|0x200|0x300`). 1.x and
//!   0x200 offsets are 32-bit: an archive whose data would pass 4 GiB is refused before anything is written,
//!   pointing to 0x300. 0x300 archives are signed `Event Horizon` as the client's are (the others `Master of
//!   Magic`); a JSON document writes either signature with any version (`header.signature`).
//! - Packing a folder: its files' paths below it are the names, except that a folder named `data` keeps its
//!   name (see [`write::kept_folder_name`]).
//! - Size: the archive is mapped, not read; extraction streams one entry at a time, so memory follows the
//!   largest entry and the table, not the archive (client archives are several GiB). The JSON document holds
//!   every stored byte and is refused for archives over `--max-entry-size`. Where nothing can be mapped (a
//!   file dropped in a browser), [`SlicedGrf`] reads the header and table, then one entry at a time, in
//!   slices (see [`sliced`]).

pub mod check;
pub mod convert;
pub mod des;
pub mod edit;
pub mod read;
pub mod sliced;
pub mod types;
pub mod write;

pub use read::parse;
pub use sliced::{SlicedEntry, SlicedGrf};
pub use types::{Grf, GrfDocument, GrfEntry, GrfHeader, GrfRecord, Signature};
pub use write::{
    write_archive, write_archive_as, write_archive_bytes, write_document, write_document_as, PackInput, PackSource,
};

use crate::asset::Entry;
use crate::error::Result;
use crate::registry::{
    Archive, ConvertInput, ConvertOptions, Document, FolderFile, Format, Game, JsonContext, Kind, Pack, PackRequest,
    Probe,
};

pub const FORMAT_ID: &str = "ro-grf";

pub static FORMAT: Format = Format {
    extensions: &["grf", "gpf"],
    notes: "Versions 0x102/0x103 (DES-enciphered names and entries, plain table), 0x200 (also its DES \
            entries) and 0x300 (64-bit offsets, also today's iRO data.grf signed `Event Horizon`, and the older \
            0x300 header); either signature on any version; 1.x, DES and 0x300 follow the public loaders, \
            unverified on game files. Equal compressed and real sizes without a zlib header are read as stored. New archives: \
            0x200 unless `--version 0x300|0x102|0x103` (0x300 signed `Event Horizon`); a folder named `data` \
            keeps its name in entry names; zlib level 9 for every entry and the table, names in \
            CP949 with `\\`, data 8-byte aligned in name order, no folder records, no times (GRF keeps none); \
            0x200 and 1.x stop at 4 GiB.",
    probe: Probe::check(types::Signature::sniff),
    pack_versions: &PACK_VERSIONS,
    document: Some(&GrfFaces),
    archive: Some(&GrfFaces),
    pack: Some(&GrfFaces),
    ..Format::new(FORMAT_ID, "Ragnarok Online GRF archive", Game::Ragnarok, Kind::Archive)
};

struct GrfFaces;

/// `relic pack ro-grf --version`: 0x200 (the default), 0x300, 0x102, 0x103.
static PACK_VERSIONS: [u32; 4] =
    [types::VERSION_0X200, types::VERSION_0X300, types::VERSION_0X102, types::VERSION_0X103];

impl Document for GrfFaces {
    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(&parse(data)?))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        convert::to_json(&parse(data)?)
    }

    fn from_json(&self, value: serde_json::Value, _context: &JsonContext<'_>) -> Result<Vec<u8>> {
        let (doc, signature) = convert::from_json(value)?;
        write::write_document_as(&doc, signature)
    }
}

impl Archive for GrfFaces {
    fn entries<'a>(&self, data: &'a [u8], _archive_name: &str) -> Result<Vec<Entry<'a>>> {
        parse(data).map(|grf| convert::entries(&grf))
    }

    /// Its models find their textures in the same archive, as the client does (issue 24), when the
    /// archive's bytes are kept while they convert.
    fn entry_options(&self, input: &ConvertInput<'_>) -> Option<ConvertOptions> {
        let data = input.shared?;
        let files = crate::ragnarok::rsm::textures::ArchiveFiles::new(std::sync::Arc::clone(data), &FORMAT, "the GRF");
        Some(ConvertOptions {
            nearby: input.options.nearby.clone().with_archive(std::sync::Arc::new(files)),
            ..input.options.clone()
        })
    }

    fn check_without_document(&self, data: &[u8]) -> Option<Result<Option<u64>>> {
        Some(parse(data).and_then(|grf| check::first_difference(&grf)))
    }

    fn edits_in_place(&self) -> bool {
        true
    }
}

impl Pack for GrfFaces {
    fn pack_folder(&self, files: Vec<FolderFile>, request: &PackRequest, out: &mut dyn std::io::Write) -> Result<u64> {
        let kept = write::kept_folder_name(&files);
        if let Some(name) = &kept {
            request.note(format!(
                "note: entry names start with `{name}\\`: a folder named `data` keeps its name, as GRF tools do (the \
                 client finds its files under `data\\`); give its parent folder to name entries from there"
            ));
        }
        let inputs = files
            .into_iter()
            .map(|f| {
                let relative = match &kept {
                    Some(name) => format!("{name}/{}", f.relative),
                    None => f.relative.clone(),
                };
                Ok(PackInput { name: write::encode_name(&relative)?, source: PackSource::File(f) })
            })
            .collect::<Result<Vec<_>>>()?;
        write_archive(inputs, request.version.unwrap_or(types::VERSION_0X200), out)
    }
}

/// Typed access: the parse and the writer of the `ro-grf` codec, zero-copy. The uniform `read` of other formats
/// is `parse` here: `Grf::read` already reads one entry.
impl<'a> Grf<'a> {
    /// Reads a GRF archive, borrowing `bytes` (entries are inflated and deciphered when read, with
    /// [`Grf::read`]).
    ///
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
    /// assert_eq!(grf.file_count(), 1);
    /// assert_eq!(grf.entries[0].name, "data\\readme.txt");
    /// assert_eq!(grf.entries[0].record.real_size, 5);
    /// assert!(Grf::read(&bytes[..40]).is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &'a [u8]) -> Result<Grf<'a>> {
        parse(bytes)
    }

    /// The owned, lossless document, without the signature (see [`GrfDocument`]).
    pub fn to_document(&self) -> GrfDocument {
        convert::to_document(self)
    }

    /// The JSON of `relic convert --to json`: the document with the signature in `header.signature`. Refused
    /// for an archive over `--max-entry-size` ([`crate::limits`]), as the document holds every stored byte.
    pub fn to_json(&self) -> Result<serde_json::Value> {
        convert::to_json(self)
    }

    /// The file's bytes, written from [`Grf::to_document`] with this archive's signature by the writer of
    /// `relic pack ro-grf x.json`: those read.
    ///
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
    /// assert_eq!(grf.to_bytes()?, bytes);
    /// assert_eq!(grf.to_json()?["header"]["signature"], "Master of Magic");
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write_document_as(&self.to_document(), self.signature)
    }
}
