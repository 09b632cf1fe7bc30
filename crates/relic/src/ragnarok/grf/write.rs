//! GRF writers: a new version 0x200 archive from files (`relic pack ro-grf DIR`), and the byte-exact rebuild
//! of a [`GrfDocument`] (`relic pack ro-grf x.json`).
//!
//! Layout of a new archive: the 46-byte header (signature, the common key bytes 00 01 … 0E, seed 0), then
//! each entry's zlib stream (level 9) in byte order of the CP949 names, padded with zeros to a multiple of 8
//! (`aligned_size`), then the table (u32 compressed size, u32 inflated size, zlib level 9 of the entries:
//! NUL-terminated name with `\` between folders, compressed, aligned and real sizes, flags 0x01, offset).
//! Every entry is compressed, even when that does not make it smaller: the game client always inflates.
//! No folder records are written. Packing the same files twice gives the same bytes (for a given build of
//! relic: another zlib implementation may choose other, equally valid, compressed bytes).

use std::borrow::Cow;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::read::parse;
use super::types::*;
use super::FORMAT_ID;
use crate::codec::text::{decode, encode, CP949};
use crate::codec::zlib;
use crate::error::{Error, Result};
use crate::layout::Canvas;

/// zlib level of new entries and tables.
pub const LEVEL: u32 = 9;
/// Compressed entries kept in memory between the sizing pass and the writing pass; beyond this, entries
/// are compressed again when written (so memory stays bounded for archives of any size).
const RETAIN_BYTES: u64 = 256 << 20;
/// Entries compressed in parallel per batch of the writing pass.
const BATCH: usize = 64;

/// One file to store.
#[derive(Debug, Clone)]
pub struct PackInput {
    /// CP949 name, `\` between folders, no NUL.
    pub name: Vec<u8>,
    pub source: PackSource,
}

#[derive(Debug, Clone)]
pub enum PackSource {
    Bytes(Vec<u8>),
    /// Read from disk when compressed.
    File(PathBuf),
}

impl PackSource {
    fn read(&self) -> Result<Cow<'_, [u8]>> {
        match self {
            PackSource::Bytes(b) => Ok(Cow::Borrowed(b)),
            PackSource::File(path) => std::fs::read(path).map(Cow::Owned).map_err(|e| Error::io(path, e)),
        }
    }

    fn describe(&self) -> String {
        match self {
            PackSource::Bytes(_) => "in-memory entry".into(),
            PackSource::File(path) => path.display().to_string(),
        }
    }
}

/// Encodes a relative path (`/` or `\` separated) as a GRF name: CP949 with `\`.
pub fn encode_name(relative: &str) -> Result<Vec<u8>> {
    let name = relative.replace('/', "\\");
    if name.contains('\0') {
        return Err(Error::Refused(format!("{FORMAT_ID}: name `{}` contains a NUL", relative.escape_debug())));
    }
    encode(CP949, &name)
        .ok_or_else(|| Error::Refused(format!("{FORMAT_ID}: name `{relative}` has characters that CP949 cannot hold")))
}

fn align(v: u64) -> u64 {
    v.div_ceil(u64::from(ALIGN)) * u64::from(ALIGN)
}

/// The client's notion of the same name: ASCII case ignored, `\` and `/` alike.
fn lookup_key(name: &[u8]) -> String {
    decode(CP949, name).replace('/', "\\").to_ascii_lowercase()
}

/// Serialises table entries (and trailing bytes) as the inflated table holds them.
pub fn table_bytes<'n>(entries: impl IntoIterator<Item = (&'n [u8], GrfRecord)>, trailing: &[u8]) -> Vec<u8> {
    let mut t = Vec::new();
    for (name, rec) in entries {
        t.extend_from_slice(name);
        t.push(0);
        t.extend_from_slice(&rec.compressed_size.to_le_bytes());
        t.extend_from_slice(&rec.aligned_size.to_le_bytes());
        t.extend_from_slice(&rec.real_size.to_le_bytes());
        t.push(rec.flags);
        t.extend_from_slice(&rec.offset.to_le_bytes());
    }
    t.extend_from_slice(trailing);
    t
}

fn header_bytes(h: &GrfHeader) -> Vec<u8> {
    let mut b = Vec::with_capacity(HEADER_SIZE);
    b.extend_from_slice(SIGNATURE);
    b.extend_from_slice(&h.key);
    b.extend_from_slice(&h.table_offset.to_le_bytes());
    b.extend_from_slice(&h.seed.to_le_bytes());
    b.extend_from_slice(&h.raw_count.to_le_bytes());
    b.extend_from_slice(&h.version.to_le_bytes());
    b
}

fn too_big(what: String) -> Error {
    Error::Refused(format!("{FORMAT_ID}: {what}; GRF 0x200 offsets and sizes stop at 4 GiB"))
}

/// Sizes of one entry found by the first pass.
#[derive(Debug, Clone, Copy)]
struct Sized {
    real: u32,
    compressed: u32,
}

/// Writes a new archive, streamed to `out`. Returns the number of bytes written. Each entry is compressed
/// twice at most (once to learn the sizes the header needs, once when written) unless it fits in the
/// memory budget; entries are compressed in parallel.
pub fn write_archive(mut inputs: Vec<PackInput>, out: &mut dyn Write) -> Result<u64> {
    inputs.sort_by(|a, b| a.name.cmp(&b.name));
    let mut seen = std::collections::HashMap::new();
    for input in &inputs {
        if input.name.contains(&0) || input.name.is_empty() {
            return Err(Error::Refused(format!("{FORMAT_ID}: an entry name is empty or contains a NUL")));
        }
        if let Some(first) = seen.insert(lookup_key(&input.name), &input.name) {
            return Err(Error::Refused(format!(
                "{FORMAT_ID}: `{}` and `{}` are the same name to the game (case and `\\`/`/` are ignored)",
                decode(CP949, first),
                decode(CP949, &input.name)
            )));
        }
    }
    let n = inputs.len();
    let raw_count =
        u32::try_from(n).ok().and_then(|c| c.checked_add(COUNT_BIAS)).ok_or_else(|| too_big(format!("{n} entries")))?;

    // Pass 1: sizes (and, within the budget, the compressed bytes themselves).
    let budget = AtomicU64::new(RETAIN_BYTES);
    let first: Vec<(Sized, Option<Vec<u8>>)> = inputs
        .par_iter()
        .map(|input| {
            let data = input.source.read()?;
            let real =
                u32::try_from(data.len()).map_err(|_| too_big(format!("{} is too large", input.source.describe())))?;
            let packed = zlib::compress(&data, LEVEL);
            let compressed = u32::try_from(packed.len()).map_err(|_| too_big("an entry".into()))?;
            let len = packed.len() as u64;
            let keep = budget.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| b.checked_sub(len)).is_ok();
            Ok((Sized { real, compressed }, keep.then_some(packed)))
        })
        .collect::<Result<_>>()?;
    let (sizes, mut kept): (Vec<Sized>, Vec<Option<Vec<u8>>>) = first.into_iter().unzip();

    // Offsets and the table.
    let mut records = Vec::with_capacity(n);
    let mut cursor = 0u64;
    for s in &sizes {
        let aligned = align(u64::from(s.compressed));
        let offset = u32::try_from(cursor).map_err(|_| too_big("the entries' data".into()))?;
        records.push(GrfRecord {
            compressed_size: s.compressed,
            aligned_size: u32::try_from(aligned).map_err(|_| too_big("an entry".into()))?,
            real_size: s.real,
            flags: FLAG_FILE,
            offset,
        });
        cursor += aligned;
    }
    let table_offset = u32::try_from(cursor).map_err(|_| too_big("the entries' data".into()))?;
    let table = table_bytes(inputs.iter().map(|i| i.name.as_slice()).zip(records.iter().copied()), &[]);
    let table_real = u32::try_from(table.len()).map_err(|_| too_big("the file table".into()))?;
    let table_packed = zlib::compress(&table, LEVEL);
    let table_packed_len = u32::try_from(table_packed.len()).map_err(|_| too_big("the file table".into()))?;
    let header = GrfHeader { key: DEFAULT_KEY, table_offset, seed: 0, raw_count, version: VERSION_0X200 };

    // Pass 2: header, data in batches, table.
    let io = |e: std::io::Error| Error::io("<output>", e);
    out.write_all(&header_bytes(&header)).map_err(io)?;
    let zeros = [0u8; ALIGN as usize];
    for ((kept, inputs), records) in kept.chunks_mut(BATCH).zip(inputs.chunks(BATCH)).zip(records.chunks(BATCH)) {
        let packed: Vec<Vec<u8>> = kept
            .par_iter_mut()
            .zip(inputs.par_iter())
            .zip(records.par_iter())
            .map(|((kept, input), rec)| match kept.take() {
                Some(p) => Ok(p),
                None => {
                    let data = input.source.read()?;
                    let p = zlib::compress(&data, LEVEL);
                    if data.len() as u64 != u64::from(rec.real_size) || p.len() as u64 != u64::from(rec.compressed_size)
                    {
                        return Err(Error::Refused(format!("{}: changed while packing", input.source.describe())));
                    }
                    Ok(p)
                }
            })
            .collect::<Result<_>>()?;
        for (p, rec) in packed.iter().zip(records) {
            out.write_all(p).map_err(io)?;
            let pad = (rec.aligned_size - rec.compressed_size) as usize;
            out.write_all(zeros.get(..pad).unwrap_or(&[])).map_err(io)?;
        }
    }
    out.write_all(&table_packed_len.to_le_bytes()).map_err(io)?;
    out.write_all(&table_real.to_le_bytes()).map_err(io)?;
    out.write_all(&table_packed).map_err(io)?;
    Ok(HEADER_SIZE as u64 + cursor + 8 + table_packed.len() as u64)
}

/// Writes a new archive into memory and checks it with the reader.
pub fn write_archive_bytes(inputs: Vec<PackInput>) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    write_archive(inputs, &mut out)?;
    parse(&out).map_err(|e| e.within("written archive"))?;
    Ok(out)
}

/// Largest file a JSON document may describe.
const MAX_DOCUMENT_FILE: u64 = u32::MAX as u64;

/// Rebuilds the exact file a [`GrfDocument`] describes, and checks it with the reader.
pub fn write_document(doc: &GrfDocument) -> Result<Vec<u8>> {
    let err = |field: String, msg: String| Error::invalid(FORMAT_ID, field, 0, msg);
    if doc.header.entry_count() != u32::try_from(doc.entries.len()).ok() {
        return Err(err(
            "header.raw_count".into(),
            format!(
                "{} − seed {} − {COUNT_BIAS} does not give the document's {} entries",
                doc.header.raw_count,
                doc.header.seed,
                doc.entries.len()
            ),
        ));
    }

    let mut names = Vec::with_capacity(doc.entries.len());
    for (i, e) in doc.entries.iter().enumerate() {
        let name = match &e.name_bytes {
            Some(b) => b.0.clone(),
            None => encode(CP949, &e.name)
                .ok_or_else(|| err(format!("entries[{i}].name"), "not encodable in CP949".into()))?,
        };
        if name.contains(&0) {
            return Err(err(format!("entries[{i}].name"), "contains a NUL".into()));
        }
        names.push(name);
    }
    let trailing = doc.table_trailing.as_ref().map_or(&[][..], |b| b.0.as_slice());
    let table = table_bytes(names.iter().map(Vec::as_slice).zip(doc.entries.iter().map(|e| e.record)), trailing);
    let table_real = u32::try_from(table.len()).map_err(|_| err("entries".into(), "table over 4 GiB".into()))?;
    // The stored compressed table when it still describes these entries; a fresh one otherwise.
    let at = zlib::At { format: FORMAT_ID, field: "table.packed", offset: 0 };
    let packed = match &doc.table.packed {
        Some(p) if zlib::inflate_exact(&p.0, table.len() as u64, at).is_ok_and(|t| t == table) => Cow::Borrowed(&p.0),
        _ => Cow::Owned(zlib::compress(&table, LEVEL)),
    };
    let mut t = Vec::with_capacity(8 + packed.len());
    t.extend_from_slice(&(packed.len() as u32).to_le_bytes());
    t.extend_from_slice(&table_real.to_le_bytes());
    t.extend_from_slice(&packed);
    let table_at = HEADER_SIZE as u64 + u64::from(doc.header.table_offset);
    // A table compressed again may change size: when nothing but the table lies from its offset on, the file
    // ends with the new table.
    let mut file_size = doc.file_size;
    if matches!(packed, Cow::Owned(_)) {
        let data_end = doc
            .entries
            .iter()
            .filter(|e| e.data.is_some())
            .map(|e| e.record.data_start() + u64::from(e.record.compressed_size))
            .chain(doc.gaps.iter().map(|g| g.offset + g.bytes.0.len() as u64))
            .max()
            .unwrap_or(0);
        if data_end <= table_at {
            file_size = table_at + t.len() as u64;
        }
    }
    let mut canvas = Canvas::new(FORMAT_ID, file_size, MAX_DOCUMENT_FILE)?;
    canvas.place(0, &header_bytes(&doc.header), || "header".into())?;

    for (i, e) in doc.entries.iter().enumerate() {
        let rec = &e.record;
        match (&e.data, e.same_as) {
            (Some(data), _) => {
                if data.0.len() != rec.compressed_size as usize {
                    return Err(err(
                        format!("entries[{i}].compressed_size"),
                        format!("is {} but data has {} bytes", rec.compressed_size, data.0.len()),
                    ));
                }
                canvas.place(rec.data_start(), &data.0, || format!("entries[{i}].offset"))?;
            }
            (None, Some(j)) => {
                let src = doc.entries.get(j).filter(|_| j < i);
                if !src
                    .is_some_and(|s| s.record.offset == rec.offset && s.record.compressed_size == rec.compressed_size)
                {
                    return Err(err(
                        format!("entries[{i}].same_as"),
                        "names no earlier entry with the same offset and size".into(),
                    ));
                }
            }
            (None, None) if !rec.is_file() => {}
            (None, None) => return Err(err(format!("entries[{i}].data"), "a file entry needs its data".into())),
        }
    }

    canvas.place(table_at, &t, || "header.table_offset".into())?;

    canvas.place_gaps(&doc.gaps)?;
    let buf = canvas.into_bytes();
    parse(&buf).map_err(|e| e.within("rebuilt archive"))?;
    Ok(buf)
}
