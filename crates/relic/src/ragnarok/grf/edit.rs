//! GRF edits for `relic edit` (`crate::ops::edit`): entries added, replaced and deleted without rewriting
//! the archive, and the compaction that drops the space edits leave behind (`--repack`).
//!
//! In place ([`append_in_place`]): the new entries' data is appended after the end of the file, then a new
//! table after it; both are flushed to disk, and only then is the 46-byte header rewritten to point at the
//! new table (one small write inside the first 512-byte sector, which disks write whole). Until that write
//! the old header still points at the old table, which lies untouched before the appended bytes, so a
//! crash at any moment leaves the old archive or the new one, never a mix. Untouched entries' bytes are
//! neither read nor written; replaced and deleted entries' data and the old table become dead space, which
//! [`write_compacted`] (a fresh archive, written to a temporary file and renamed by the caller) drops.
//!
//! The header and table are made by the writers `pack` uses ([`super::write::header_bytes`],
//! [`super::write::table_bytes`]); new entries are stored as `pack` stores them (zlib level 9, padded to 8
//! bytes, enciphered when the version and name ask for it, as in 1.x archives). The new table is the
//! records alone: bytes some tools leave after an old table's last record are not carried over.

use std::borrow::Cow;
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

use crate::parallel::prelude::*;

use super::des;
use super::types::*;
use super::write::{header_bytes, table_bytes, LEVEL};
use super::FORMAT_ID;
use crate::codec::zlib;
use crate::error::{Error, Result};

/// New entries compressed in parallel at a time (memory holds one batch of compressed entries).
const BATCH: usize = 16;

/// An entry an edit writes: its name as stored (CP949, `\` between folders) and, when it takes an existing
/// entry's place in the table, that entry's index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEntry {
    pub name: Vec<u8>,
    pub replaces: Option<usize>,
}

/// What a new entry holds.
pub enum Content<'l> {
    /// Its bytes, compressed when stored.
    Plain(Cow<'l, [u8]>),
    /// A zlib stream the caller checked inflates to exactly `real_size` bytes (an entry merged from another
    /// GRF): stored as it is, not compressed again, so merging a patch costs a check, not a deflate.
    Compressed { packed: Cow<'l, [u8]>, real_size: u32 },
}

/// The content of new entry `k` (an index into the [`NewEntry`] list), read when it is stored.
pub type Loader<'l> = dyn Fn(usize) -> Result<Content<'l>> + Sync + 'l;

/// What an in-place edit did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Appended {
    /// Bytes written: the appended data and table, and the header.
    pub written: u64,
    /// The archive's size now.
    pub file_size: u64,
    /// Bytes of the archive no live entry or table uses (old tables, replaced and deleted entries' data).
    pub dead: u64,
}

/// A row of the table [`table_bytes`] writes: the raw name, the 1.x name field to keep (`None`: the name
/// enciphered as GRF tools do), the record.
type Row<'g> = (&'g [u8], Option<&'g [u8]>, GrfRecord);

fn align(v: u64) -> u64 {
    v.div_ceil(u64::from(ALIGN)) * u64::from(ALIGN)
}

fn too_big(what: String) -> Error {
    Error::Refused(format!("{FORMAT_ID}: {what}; GRF entry sizes stop at 4 GiB in every version"))
}

/// An entry as the archive stores it: compressed (unless it comes so), zero padded to its aligned size and
/// (when the layout and name ask for it) enciphered, with its record; the offset is set by the caller.
fn store(layout: Layout, name: &[u8], content: Content<'_>) -> Result<(GrfRecord, Vec<u8>)> {
    let shown = || crate::codec::text::decode(crate::codec::text::CP949, name);
    let large = || too_big(format!("`{}` is too large", shown()));
    let (real_size, mut bytes) = match content {
        Content::Plain(data) => (u32::try_from(data.len()).map_err(|_| large())?, zlib::compress(&data, LEVEL)),
        Content::Compressed { packed, real_size } => (real_size, packed.into_owned()),
    };
    let compressed_size = u32::try_from(bytes.len()).map_err(|_| large())?;
    let aligned_size = u32::try_from(align(u64::from(compressed_size))).map_err(|_| large())?;
    let record = GrfRecord { compressed_size, aligned_size, real_size, flags: FLAG_FILE, offset: 0 };
    bytes.resize(aligned_size as usize, 0);
    if let Some(cipher) = record.cipher(layout, name) {
        des::encipher(&mut bytes, cipher);
    }
    Ok((record, bytes))
}

/// Stores new entries `range` in parallel (see [`store`]).
fn store_batch(
    layout: Layout,
    changes: &[NewEntry],
    range: std::ops::Range<usize>,
    load: &Loader<'_>,
) -> Result<Vec<(GrfRecord, Vec<u8>)>> {
    range
        .into_par_iter()
        .map(|k| {
            let name = changes.get(k).map_or(&[][..], |c| c.name.as_slice());
            store(layout, name, load(k)?)
        })
        .collect()
}

/// The 32-bit layouts address 4 GiB: a table or entry offset past that is refused (before the header is
/// written, so the archive stays as it was).
fn check_offset(layout: Layout, version: u32, offset: u64) -> Result<()> {
    if layout != Layout::V3 && offset > u64::from(u32::MAX) {
        return Err(Error::Refused(format!(
            "{FORMAT_ID}: the archive would pass the 4 GiB that GRF 0x{version:X} offsets address; pack its entries \
             into a 0x300 archive (`relic pack ro-grf --version 0x300`), whose offsets are 64-bit"
        )));
    }
    Ok(())
}

/// The rows of the new table: the kept entries in table order (`kept[i]`: entry `i`'s record, `None` when it
/// is dropped; a replaced one takes its new record and name in its place), then the added ones.
/// `records[k]` is new entry `k`'s record.
fn rows<'g>(
    grf: &'g Grf<'_>,
    kept: &[Option<GrfRecord>],
    changes: &'g [NewEntry],
    records: &[GrfRecord],
) -> Vec<Row<'g>> {
    let mut replaced = vec![None; grf.entries.len()];
    for (k, c) in changes.iter().enumerate() {
        if let Some(slot) = c.replaces.and_then(|i| replaced.get_mut(i)) {
            *slot = Some(k);
        }
    }
    let mut out = Vec::with_capacity(grf.entries.len() + changes.len());
    for (i, e) in grf.entries.iter().enumerate() {
        match (replaced.get(i).copied().flatten(), kept.get(i).copied().flatten()) {
            (Some(k), _) => {
                if let (Some(c), Some(r)) = (changes.get(k), records.get(k)) {
                    out.push((c.name.as_slice(), None, *r));
                }
            }
            (None, Some(record)) => out.push((e.name_raw.as_slice(), e.name_field.as_deref(), record)),
            (None, None) => {}
        }
    }
    for (c, r) in changes.iter().zip(records) {
        if c.replaces.is_none() {
            out.push((c.name.as_slice(), None, *r));
        }
    }
    out
}

/// Which entries an edit drops: those `deleted` and those a change replaces.
fn dropped(grf: &Grf<'_>, deleted: &[bool], changes: &[NewEntry]) -> Vec<bool> {
    let mut gone: Vec<bool> = (0..grf.entries.len()).map(|i| deleted.get(i).copied().unwrap_or(false)).collect();
    for i in changes.iter().filter_map(|c| c.replaces) {
        if let Some(g) = gone.get_mut(i) {
            *g = true;
        }
    }
    gone
}

/// The table as it lies in the file (1.x: plain; 0x200: sizes and the zlib stream; 0x300: the reserved u32
/// first) and the header that points at it from `table_offset`, for `rows`.
fn table_and_header(grf: &Grf<'_>, rows: &[Row<'_>], table_offset: u64) -> Result<(Vec<u8>, Vec<u8>)> {
    let layout = grf.layout;
    let table = table_bytes(layout, rows.iter().map(|(n, f, r)| (*n, *f, *r)), &[])?;
    let block = match layout {
        Layout::V1 => table,
        Layout::V2 | Layout::V3 => {
            let real = u32::try_from(table.len()).map_err(|_| too_big("the file table".into()))?;
            let packed = zlib::compress(&table, LEVEL);
            let packed_len = u32::try_from(packed.len()).map_err(|_| too_big("the file table".into()))?;
            let mut block = Vec::with_capacity(packed.len() + 12);
            if layout == Layout::V3 {
                block.extend_from_slice(&grf.table_reserved.to_le_bytes());
            }
            block.extend_from_slice(&packed_len.to_le_bytes());
            block.extend_from_slice(&real.to_le_bytes());
            block.extend_from_slice(&packed);
            block
        }
    };
    let count = u32::try_from(rows.len()).map_err(|_| too_big(format!("{} entries", rows.len())))?;
    // The header keeps its form: a wide 0x300 header stores the count itself, the others count + seed + 7.
    let bias = if grf.header.is_wide() { 0 } else { grf.header.seed.saturating_add(COUNT_BIAS) };
    let raw_count = count.checked_add(bias).ok_or_else(|| too_big(format!("{count} entries")))?;
    let header = GrfHeader { table_offset, raw_count, ..grf.header };
    Ok((block, header_bytes(&header, grf.signature)?))
}

/// Bytes the live entries' data takes (each padded to 8 bytes, as relic lays it out).
fn live_bytes(layout: Layout, rows: &[Row<'_>]) -> u64 {
    rows.iter()
        .filter(|(_, _, r)| r.is_file())
        .map(|(name, _, r)| align(r.stored_len(r.cipher(layout, name).is_some())))
        .sum()
}

/// Edits the GRF `file` (opened for reading and writing; `grf` is its parsed content, `path` names it in
/// errors) in place: entries flagged in `deleted` are dropped from the table, `changes` are stored after
/// the end of the file (each in the place of the entry it replaces, else at the table's end), then the new
/// table, then the header is rewritten (see the module). `crash` is called at `after-data`, `after-table`
/// and `after-header` (the kill tests stop the process there). On an error before the header is written
/// the file is cut back to its old length: the archive is as it was.
pub fn append_in_place(
    file: &mut std::fs::File,
    path: &Path,
    grf: &Grf<'_>,
    deleted: &[bool],
    changes: &[NewEntry],
    load: &Loader<'_>,
    crash: &dyn Fn(&str),
) -> Result<Appended> {
    let old_len = grf.bytes().len() as u64;
    let appended = append_body(file, path, grf, deleted, changes, load, crash, old_len);
    if appended.is_err() {
        // Nothing points at the appended bytes yet: dropping them leaves the archive exactly as it was.
        let _ = file.set_len(old_len);
    }
    let (header, appended) = appended?;
    let io = |e: std::io::Error| Error::io(path, e);
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    file.write_all(&header).map_err(io)?;
    file.sync_data().map_err(io)?;
    crash("after-header");
    Ok(appended)
}

/// [`append_in_place`] up to the header: data, table, flushed; returns the header to write.
#[allow(clippy::too_many_arguments)]
fn append_body(
    file: &mut std::fs::File,
    path: &Path,
    grf: &Grf<'_>,
    deleted: &[bool],
    changes: &[NewEntry],
    load: &Loader<'_>,
    crash: &dyn Fn(&str),
    old_len: u64,
) -> Result<(Vec<u8>, Appended)> {
    let io = |e: std::io::Error| Error::io(path, e);
    let layout = grf.layout;
    let version = grf.header.version;
    // Offsets count from the end of the header; the new data starts 8-byte aligned after the file's end.
    let mut cursor = align(old_len.saturating_sub(HEADER_SIZE as u64));
    let pad = (HEADER_SIZE as u64 + cursor).saturating_sub(old_len);
    file.seek(SeekFrom::Start(old_len)).map_err(io)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, &mut *file);
    let zeros = [0u8; ALIGN as usize];
    out.write_all(zeros.get(..pad as usize).unwrap_or(&[])).map_err(io)?;
    let mut records = Vec::with_capacity(changes.len());
    for start in (0..changes.len()).step_by(BATCH) {
        let stored = store_batch(layout, changes, start..changes.len().min(start + BATCH), load)?;
        for (mut record, bytes) in stored {
            record.offset = cursor;
            cursor += bytes.len() as u64;
            check_offset(layout, version, cursor)?;
            out.write_all(&bytes).map_err(io)?;
            records.push(record);
        }
    }
    out.flush().map_err(io)?;
    crash("after-data");
    let gone = dropped(grf, deleted, changes);
    let kept: Vec<Option<GrfRecord>> =
        grf.entries.iter().zip(&gone).map(|(e, &gone)| (!gone).then_some(e.record)).collect();
    let rows = rows(grf, &kept, changes, &records);
    let (table, header) = table_and_header(grf, &rows, cursor)?;
    check_offset(layout, version, cursor + table.len() as u64)?;
    out.write_all(&table).map_err(io)?;
    out.flush().map_err(io)?;
    drop(out);
    // The data and table reach the disk before the header names them.
    file.sync_data().map_err(io)?;
    crash("after-table");
    let file_size = HEADER_SIZE as u64 + cursor + table.len() as u64;
    let live = HEADER_SIZE as u64 + live_bytes(layout, &rows) + table.len() as u64;
    let written = file_size - old_len + header.len() as u64;
    Ok((header, Appended { written, file_size, dead: file_size.saturating_sub(live) }))
}

/// Writes the edited archive afresh to `out` (`relic edit --repack`; the caller writes it to a temporary
/// file and renames it over the archive): the header, the kept entries' stored bytes copied as they are
/// (compressed and enciphered bytes unchanged, in table order, each padded to 8 bytes), the new entries,
/// the table. Dead space is gone. Returns the bytes written.
pub fn write_compacted(
    grf: &Grf<'_>,
    deleted: &[bool],
    changes: &[NewEntry],
    load: &Loader<'_>,
    out: &mut dyn Write,
) -> Result<u64> {
    let layout = grf.layout;
    let version = grf.header.version;
    // The header comes first and names the table's offset, so the new entries are stored before anything
    // is written (they are what an edit adds: memory holds them, never the kept entries).
    let stored = store_batch(layout, changes, 0..changes.len(), load)?;
    let (mut records, new_bytes): (Vec<GrfRecord>, Vec<Vec<u8>>) = stored.into_iter().unzip();
    let gone = dropped(grf, deleted, changes);
    // Kept entries (table order), then new ones; each placed at the cursor. Folder records keep theirs.
    let mut cursor = 0u64;
    let mut copied = Vec::new();
    let mut kept = Vec::with_capacity(grf.entries.len());
    for (i, (e, &gone)) in grf.entries.iter().zip(&gone).enumerate() {
        let mut record = e.record;
        if !gone && record.is_file() {
            record.offset = cursor;
            copied.push(i);
            cursor += align(grf.stored(i).len() as u64);
            check_offset(layout, version, cursor)?;
        }
        kept.push((!gone).then_some(record));
    }
    for (record, bytes) in records.iter_mut().zip(&new_bytes) {
        record.offset = cursor;
        cursor += bytes.len() as u64;
        check_offset(layout, version, cursor)?;
    }
    let rows = rows(grf, &kept, changes, &records);
    let (table, header) = table_and_header(grf, &rows, cursor)?;
    check_offset(layout, version, cursor + table.len() as u64)?;
    let io = |e: std::io::Error| Error::io("<output>", e);
    out.write_all(&header).map_err(io)?;
    let zeros = [0u8; ALIGN as usize];
    for &i in &copied {
        let bytes = grf.stored(i);
        out.write_all(bytes).map_err(io)?;
        let pad = (align(bytes.len() as u64) - bytes.len() as u64) as usize;
        out.write_all(zeros.get(..pad).unwrap_or(&[])).map_err(io)?;
    }
    for bytes in &new_bytes {
        out.write_all(bytes).map_err(io)?;
    }
    out.write_all(&table).map_err(io)?;
    Ok(header.len() as u64 + cursor + table.len() as u64)
}
