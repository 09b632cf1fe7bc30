//! A GRF read in slices: opened without reading it whole, its entries read one at a time on demand.
//!
//! Why: a client's `data.grf` is several GiB. On disk relic maps it ([`crate::source`]), but where nothing
//! can be mapped — a file dropped in a browser, which a Web Worker reads with `FileReaderSync` over
//! `file.slice(a, b)` (issue 31) — reading it into memory whole is not an option. [`SlicedGrf`] reads through
//! a [`RandomRead`], so memory holds the table and the entry being read, never the archive.
//!
//! What is read, and when:
//! - [`SlicedGrf::open`]: the 46-byte header, then only the file table: 1.x, from the table's offset to the
//!   end of the file (its table runs there); 0x200 and 0x300, the table's own 8 (0x300: 12) bytes, then
//!   exactly the compressed bytes they declare. Nothing else: every entry's data range is checked against
//!   the file's size, not read.
//! - [`SlicedGrf::read_entry`]: the entry's stored bytes (compressed, enciphered ones in whole blocks), in
//!   one read, then deciphered and inflated by the code that reads entries of an archive in memory.
//! - [`SlicedGrf::info`] and [`SlicedGrf::listing`]: nothing; they come from the table.
//!
//! The header and table are parsed by the code of the whole-file [`parse`](super::parse), so both refuse the
//! same broken files with the same errors (format, field, offset), and list, summarise and read the same.
//!
//! Limits: a table (1.x: the plain table; 0x200 and 0x300: its compressed bytes) or an entry's stored bytes
//! larger than [`crate::limits::Limits::max_entry_size`] are refused with a located `Error::Limit` before
//! they are read — the one check a mapped file does not need, as nothing of it is copied; the inflated table
//! is bounded as in [`parse`](super::parse), and an entry inflates to at most `max_entry_size` bytes.

use std::borrow::Cow;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

use super::convert::{self, Summary};
use super::read::{self, Parts};
use super::types::*;
use super::FORMAT_ID;
use crate::asset::{EntryData, RecordInfo};
use crate::error::{Error, Result};
use crate::registry::FileLookup;
use crate::source::RandomRead;

/// A GRF archive read through a [`RandomRead`]: the header and table in memory, entries read on demand (see
/// the module).
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use std::sync::Arc;
/// use relic::ragnarok::grf::{write_archive_bytes, PackInput, PackSource, SlicedGrf};
/// use relic::source::MemorySlices;
///
/// let input = PackInput { name: b"data\\readme.txt".to_vec(), source: PackSource::Bytes(b"hello".to_vec()) };
/// let bytes = write_archive_bytes(vec![input], 0x200)?;
/// let grf = SlicedGrf::open(Arc::new(MemorySlices::from(bytes)))?;
/// assert_eq!(grf.file_count(), 1);
/// assert_eq!(grf.listing()[0].path, "data/readme.txt");
/// let i = grf.find_ci("DATA/README.TXT").expect("found ignoring case");
/// assert_eq!(grf.read_entry(i)?, b"hello");
/// # Ok(()) }
/// ```
pub struct SlicedGrf {
    reader: Arc<dyn RandomRead>,
    parts: Parts,
    /// Names the archive in [`FileLookup::describe`].
    label: String,
    /// File entries by the hash of their lookup key (see [`lookup_key`]), sorted by hash then table order:
    /// made on the first [`FileLookup::read`], 16 bytes an entry (a client archive lists some 500,000).
    names: OnceLock<Vec<(u64, usize)>>,
}

impl std::fmt::Debug for SlicedGrf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SlicedGrf")
            .field("reader", &self.reader)
            .field("version", &format_args!("0x{:X}", self.parts.header.version))
            .field("entries", &self.parts.entries.len())
            .finish()
    }
}

/// One file entry as an archive listing shows it: the same name, path, size and record as
/// [`convert::entries`] gives (the listing of `relic ls`), with its index in the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlicedEntry {
    /// Index in [`SlicedGrf::entries`] (folder records count), what [`SlicedGrf::read_entry`] takes.
    pub index: usize,
    /// The name decoded from CP949 (`\` between folders).
    pub name: String,
    /// The name with `/` between folders.
    pub path: String,
    /// Bytes once inflated.
    pub size: u64,
    /// Always `None`: GRF entries are files, not records of a record container.
    pub record: Option<RecordInfo>,
}

impl SlicedGrf {
    /// Reads the header and the file table through `reader` (see the module for exactly which bytes). A
    /// table over `--max-entry-size` is refused before it is read.
    pub fn open(reader: Arc<dyn RandomRead>) -> Result<SlicedGrf> {
        let limit = crate::limits::current().max_entry_size;
        let fetch = |at: u64, len: u64, field: &str| read_range(&*reader, at, len, field).map(Cow::Owned);
        let parts = read::read_parts(reader.len(), Some(limit), fetch)?;
        Ok(SlicedGrf { reader, parts, label: "the GRF".into(), names: OnceLock::new() })
    }

    /// The same archive named `label` in messages of [`FileLookup::describe`] (`the GRF` by default).
    pub fn with_label(self, label: impl Into<String>) -> SlicedGrf {
        SlicedGrf { label: label.into(), ..self }
    }

    /// Table entries in table order (folder records included).
    pub fn entries(&self) -> &[GrfEntry] {
        &self.parts.entries
    }

    pub fn header(&self) -> &GrfHeader {
        &self.parts.header
    }

    pub fn layout(&self) -> Layout {
        self.parts.layout
    }

    pub fn signature(&self) -> Signature {
        self.parts.signature
    }

    /// The table's stored sizes: compressed, then inflated (1.x: the plain table's length, twice).
    pub fn table_sizes(&self) -> (u64, u64) {
        (self.parts.table_packed_size, self.parts.table_real_size)
    }

    /// The archive's size in bytes.
    pub fn file_size(&self) -> u64 {
        self.reader.len()
    }

    /// Table entries, folder records included.
    pub fn len(&self) -> usize {
        self.parts.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.parts.entries.is_empty()
    }

    /// How many entries are files (not folder records).
    pub fn file_count(&self) -> usize {
        self.parts.entries.iter().filter(|e| e.record.is_file()).count()
    }

    /// The first file entry named `name`, ASCII case ignored, `\` and `/` alike: as [`Grf::find_ci`]. Linear
    /// in the number of entries ([`FileLookup::read`] goes through an index instead).
    pub fn find_ci(&self, name: &str) -> Option<usize> {
        read::find_ci(&self.parts.entries, name)
    }

    /// The summary of `relic info`, equal to [`convert::info`] of the same archive read whole.
    pub fn info(&self) -> serde_json::Value {
        convert::summary_info(&Summary {
            signature: self.parts.signature,
            header: self.parts.header,
            layout: self.parts.layout,
            entries: &self.parts.entries,
            table_packed_size: self.parts.table_packed_size,
            table_real_size: self.parts.table_real_size,
            file_size: self.reader.len(),
        })
    }

    /// The file entries as `relic ls` lists them ([`convert::entries`]), in table order.
    pub fn listing(&self) -> Vec<SlicedEntry> {
        convert::listed(&self.parts.entries).map(|(listed, _)| listed).collect()
    }

    /// The bytes of entry `i`, deciphered, inflated and checked against its real size: its stored bytes are
    /// read in one [`RandomRead::read_at`] (refused first when over `--max-entry-size`), then go through the
    /// code that reads entries of an archive in memory ([`Grf::read_entry`]).
    pub fn read_entry(&self, i: usize) -> Result<Vec<u8>> {
        let entries = &self.parts.entries;
        let layout = self.parts.layout;
        let stored = match entries.get(i).and_then(|e| read::stored_range(e, layout)) {
            Some((start, len)) => {
                let field = format!("table.entries[{i}].compressed_size");
                let limit = crate::limits::current().max_entry_size;
                if len > limit {
                    return Err(Error::limit(
                        FORMAT_ID,
                        field,
                        start,
                        format!("{len} stored bytes are more than relic's limit of {limit} (--max-entry-size)"),
                    ));
                }
                read_range(&*self.reader, start, len, &field)?
            }
            // A folder record or no entry: the shared code says which.
            None => Vec::new(),
        };
        match read::entry_data(entries, layout, i, &stored) {
            // Stored as it is: the bytes read are the entry's, with no second copy.
            EntryData::Stored(_) => Ok(stored),
            data => data.bytes().map(Cow::into_owned),
        }
    }

    /// The file entry `name` finds (ASCII case ignored, `\` and `/` alike, a leading `/` ignored: the keys
    /// of the archive lookups of [`crate::ragnarok::rsm::textures`]), through an index made once.
    fn lookup(&self, name: &str) -> Option<usize> {
        let entries = &self.parts.entries;
        let names = self.names.get_or_init(|| {
            let mut names: Vec<(u64, usize)> = entries
                .iter()
                .enumerate()
                .filter(|(_, e)| e.record.is_file())
                .map(|(i, e)| (key_hash(&lookup_key(&e.name)), i))
                .collect();
            names.sort_unstable();
            names
        });
        let key = lookup_key(name);
        let hash = key_hash(&key);
        let from = names.partition_point(|&(h, _)| h < hash);
        let same_hash = names.get(from..)?.iter().take_while(|&&(h, _)| h == hash);
        // The first entry of the name in table order wins, as in the client.
        same_hash.map(|&(_, i)| i).find(|&i| entries.get(i).is_some_and(|e| lookup_key(&e.name) == key))
    }
}

/// The key names are looked up by: that of the archive lookups of [`crate::ragnarok::rsm::textures`].
fn lookup_key(name: &str) -> String {
    crate::ragnarok::rsm::textures::key(name)
}

fn key_hash(key: &str) -> u64 {
    // Fixed keys: the same hash on every run, so a lookup's cost does not depend on chance.
    let mut hasher = std::hash::DefaultHasher::new();
    key.hash(&mut hasher);
    hasher.finish()
}

/// A model in the archive finds its textures in it, as in the client (see
/// [`crate::registry::Nearby::archive`]).
impl FileLookup for SlicedGrf {
    fn read(&self, name: &str) -> Option<Vec<u8>> {
        self.read_entry(self.lookup(name)?).ok()
    }

    fn describe(&self) -> String {
        self.label.clone()
    }
}

/// Exactly `len` bytes at `at` of `reader`; an I/O error names the field and the range.
fn read_range(reader: &dyn RandomRead, at: u64, len: u64, field: &str) -> Result<Vec<u8>> {
    let n = usize::try_from(len)
        .map_err(|_| Error::limit(FORMAT_ID, field, at, format!("{len} bytes are more than this machine addresses")))?;
    let bytes = reader.read_at(at, n).map_err(|e| {
        Error::from(std::io::Error::new(
            e.kind(),
            format!("{FORMAT_ID}: reading {field}, 0x{len:X} bytes at offset 0x{at:X}: {e}"),
        ))
    })?;
    if bytes.len() != n {
        return Err(Error::invalid(
            FORMAT_ID,
            field,
            at,
            format!("the reader gave {} bytes of the {len} asked for", bytes.len()),
        ));
    }
    Ok(bytes)
}
