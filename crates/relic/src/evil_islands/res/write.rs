//! RES writers: a new archive from files (`relic pack ei-res DIR`), laid out as the game's own tools do,
//! and the byte-exact rebuild of a [`ResDocument`] (`relic pack ei-res x.json`).
//!
//! Layout of a new archive (matches what the public EI map editor writes, byte for byte): header, entry data
//! in case-insensitive name order, each 16-byte aligned and zero padded, then the file table, then the
//! names without terminators in the same order. Table slots: each name goes to its hash slot when that is
//! free, otherwise to the highest free slot, linked at the end of the chain that starts at its hash slot.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::PathBuf;

use crate::parallel::prelude::*;

use super::read::{name_hash, parse};
use super::types::*;
use super::FORMAT_ID;
use crate::codec::text::{encode, CP1251};
use crate::error::{Error, Result};
use crate::layout::Canvas;
use crate::registry::FolderFile;
use crate::writer::Writer;

/// One file to store.
#[derive(Debug, Clone)]
pub struct PackInput {
    /// cp1251 name, `\` between folders.
    pub name: Vec<u8>,
    /// Unix seconds.
    pub modified: u32,
    pub source: PackSource,
}

#[derive(Debug, Clone)]
pub enum PackSource {
    Bytes(Vec<u8>),
    /// Streamed from disk when written; `size` is what the file held when listed.
    File {
        path: PathBuf,
        size: u64,
    },
    /// A file of a folder being packed, streamed when written; opened without following links (a file
    /// swapped for one since the folder was listed is refused, not followed).
    Listed(FolderFile),
    /// A range of a mapped file, copied when written: an untouched entry of an archive being edited
    /// (`relic edit`), so the rewrite holds no copy of the archive.
    Mapped {
        source: std::sync::Arc<crate::source::Source>,
        range: std::ops::Range<usize>,
    },
}

impl PackSource {
    pub fn size(&self) -> u64 {
        match self {
            PackSource::Bytes(b) => b.len() as u64,
            PackSource::File { size, .. } => *size,
            PackSource::Listed(file) => file.size,
            PackSource::Mapped { range, .. } => range.len() as u64,
        }
    }

    fn open(&self) -> Result<Box<dyn Read + '_>> {
        match self {
            PackSource::Bytes(b) => Ok(Box::new(b.as_slice())),
            PackSource::File { path, .. } => Ok(Box::new(crate::source::open_regular(path)?.0)),
            PackSource::Listed(file) => Ok(Box::new(file.open()?)),
            PackSource::Mapped { source, range } => Ok(Box::new(source.get(range.clone()).unwrap_or(&[]))),
        }
    }

    fn describe(&self) -> String {
        match self {
            PackSource::Bytes(_) => "in-memory entry".into(),
            PackSource::File { path, .. } | PackSource::Listed(FolderFile { path, .. }) => path.display().to_string(),
            PackSource::Mapped { range, .. } => format!("the archive's bytes at 0x{:X}", range.start),
        }
    }

    fn content_hash(&self) -> Result<blake3::Hash> {
        let mut hasher = blake3::Hasher::new();
        let mut reader = self.open()?;
        std::io::copy(&mut reader, &mut hasher).map_err(|e| Error::io(self.describe(), e))?;
        Ok(hasher.finalize())
    }
}

#[derive(Debug, Clone, Copy)]
pub struct PackOptions {
    /// Store identical contents once and point every name at them.
    pub dedupe: bool,
}

impl Default for PackOptions {
    fn default() -> Self {
        PackOptions { dedupe: true }
    }
}

/// Encodes a relative path (`/` or `\` separated) as a RES name.
pub fn encode_name(relative: &str) -> Result<Vec<u8>> {
    let name = relative.replace('/', "\\");
    encode(CP1251, &name).ok_or_else(|| {
        Error::refused(FORMAT_ID, "name", format!("`{relative}` has characters that cp1251 cannot hold"))
    })
}

fn align(v: u64) -> u64 {
    v.div_ceil(ALIGN) * ALIGN
}

fn sort_key(name: &[u8]) -> Vec<u8> {
    name.to_ascii_lowercase()
}

/// Writes a new archive. Returns the number of bytes written.
pub fn write_archive(mut inputs: Vec<PackInput>, opts: PackOptions, out: &mut dyn Write) -> Result<u64> {
    inputs.sort_by_cached_key(|i| (sort_key(&i.name), i.name.clone()));
    for pair in inputs.windows(2) {
        if let [a, b] = pair {
            if a.name.eq_ignore_ascii_case(&b.name) {
                return Err(Error::refused(
                    FORMAT_ID,
                    "entries",
                    format!(
                        "two entries named `{}` (names are case-insensitive in RES)",
                        crate::codec::text::decode(CP1251, &b.name)
                    ),
                ));
            }
        }
    }
    if let Some(long) = inputs.iter().find(|i| i.name.len() > usize::from(u16::MAX)) {
        return Err(Error::refused(
            FORMAT_ID,
            "name_len",
            format!(
                "the name `{}` is {} bytes, over the 65535 a RES holds",
                crate::codec::text::decode(CP1251, &long.name),
                long.name.len()
            ),
        ));
    }
    let n = inputs.len();

    // Content hashes for deduplication, in parallel: each input is read once here, once when written.
    let hashes: Vec<Option<blake3::Hash>> = if opts.dedupe {
        inputs.par_iter().map(|i| i.source.content_hash().map(Some)).collect::<Result<_>>()?
    } else {
        vec![None; n]
    };

    // Data offsets in name order.
    let mut offsets = Vec::with_capacity(n);
    let mut stored: Vec<bool> = Vec::with_capacity(n);
    let mut seen: HashMap<(blake3::Hash, u64), u64> = HashMap::new();
    let mut cursor = HEADER_SIZE as u64;
    for (input, hash) in inputs.iter().zip(&hashes) {
        let size = input.source.size();
        if let Some(&offset) = hash.and_then(|h| seen.get(&(h, size))) {
            offsets.push(offset);
            stored.push(false);
            continue;
        }
        if let Some(h) = hash {
            seen.insert((*h, size), cursor);
        }
        offsets.push(cursor);
        stored.push(true);
        cursor = align(cursor + size);
    }
    let filetable_offset = cursor;
    let nametable_size: u64 = inputs.iter().map(|i| i.name.len() as u64).sum();
    let total = filetable_offset + (RECORD_SIZE * n) as u64 + nametable_size;
    if total > u64::from(u32::MAX) {
        return Err(Error::refused(
            FORMAT_ID,
            "filetable_offset",
            format!("the archive would be {total} bytes; RES offsets stop at 4 GiB"),
        ));
    }

    // Table slots: hash slot, else the highest free slot linked at the end of the hash slot's chain.
    let mut slot_of = vec![0usize; n];
    let mut occupant: Vec<Option<usize>> = vec![None; n];
    let mut next = vec![-1i32; n];
    // Shortcuts towards each chain's end, so that appending stays near-linear even when many names share
    // a hash (a plain walk would be quadratic).
    let mut jump: Vec<usize> = (0..n).collect();
    let mut free = n;
    for (e, input) in inputs.iter().enumerate() {
        let home = name_hash(&input.name, n);
        let slot = if occupant[home].is_none() {
            home
        } else {
            while free > 0 && occupant[free - 1].is_some() {
                free -= 1;
            }
            free -= 1; // a free slot exists: fewer entries were placed than there are slots
            let end = chain_end(&next, &mut jump, home);
            next[end] = free as i32;
            jump[end] = free;
            free
        };
        occupant[slot] = Some(e);
        slot_of[e] = slot;
    }

    // Header, data, table, names — streamed.
    let io = |e: std::io::Error| Error::io("<output>", e);
    let put = |out: &mut dyn Write, b: &[u8]| -> Result<()> { out.write_all(b).map_err(io) };
    let mut head = Writer::with_capacity(FORMAT_ID, HEADER_SIZE);
    head.bytes(&MAGIC);
    head.count_u32("files_count", n)?;
    head.u32(filetable_offset as u32);
    head.u32(nametable_size as u32);
    put(out, head.data())?;
    let zeros = [0u8; ALIGN as usize];
    for (input, &is_stored) in inputs.iter().zip(&stored) {
        if !is_stored {
            continue;
        }
        let size = input.source.size();
        let mut reader = input.source.open()?.take(size);
        let copied = std::io::copy(&mut reader, out).map_err(|e| Error::io(input.source.describe(), e))?;
        if copied != size {
            return Err(Error::Refused(format!("{}: changed size while packing", input.source.describe())));
        }
        let pad = (align(size) - size) as usize;
        put(out, zeros.get(..pad).unwrap_or(&[]))?;
    }
    let mut table = vec![0u8; RECORD_SIZE * n];
    let mut name_offset = 0u64;
    for (e, input) in inputs.iter().enumerate() {
        let name_len = input.name.len() as u16; // checked above
        let rec = ResRecord {
            next_index: next[slot_of[e]],
            size: input.source.size() as u32,
            offset: offsets[e] as u32,
            modified: input.modified,
            name_len,
            name_offset: name_offset as u32,
        };
        name_offset += input.name.len() as u64;
        let at = slot_of[e] * RECORD_SIZE;
        if let Some(dst) = table.get_mut(at..at + RECORD_SIZE) {
            dst.copy_from_slice(&encode_record(&rec));
        }
    }
    put(out, &table)?;
    for input in &inputs {
        put(out, &input.name)?;
    }
    Ok(total)
}

/// The last slot of the chain through `start`, compressing the shortcuts on the way.
fn chain_end(next: &[i32], jump: &mut [usize], start: usize) -> usize {
    let mut path = Vec::new();
    let mut x = start;
    loop {
        let shortcut = jump[x];
        if shortcut != x {
            path.push(x);
            x = shortcut;
        } else if next[x] != -1 {
            path.push(x);
            x = next[x] as usize;
        } else {
            break;
        }
    }
    for p in path {
        jump[p] = x;
    }
    x
}

fn encode_record(rec: &ResRecord) -> Vec<u8> {
    let mut w = Writer::with_capacity(FORMAT_ID, RECORD_SIZE);
    w.i32(rec.next_index);
    w.u32(rec.size);
    w.u32(rec.offset);
    w.u32(rec.modified);
    w.u16(rec.name_len);
    w.u32(rec.name_offset);
    w.into_bytes()
}

/// Largest file a JSON document may describe (RES offsets are 32-bit).
const MAX_DOCUMENT_FILE: u64 = u32::MAX as u64;

/// Rebuilds the exact file a [`ResDocument`] describes, and checks it with the reader.
pub fn write_document(doc: &ResDocument) -> Result<Vec<u8>> {
    let err = |field: String, why: String| Error::refused(FORMAT_ID, field, why);
    if doc.file_size > MAX_DOCUMENT_FILE {
        return Err(err("file_size".into(), format!("{} is over 4 GiB", doc.file_size)));
    }
    if doc.entries.len() != doc.header.files_count as usize {
        return Err(err(
            "header.files_count".into(),
            format!("says {} but the document has {} entries", doc.header.files_count, doc.entries.len()),
        ));
    }
    let mut canvas = Canvas::new(FORMAT_ID, doc.file_size, MAX_DOCUMENT_FILE)?;
    let mut head = Writer::with_capacity(FORMAT_ID, HEADER_SIZE);
    head.bytes(&MAGIC);
    head.u32(doc.header.files_count);
    head.u32(doc.header.filetable_offset);
    head.u32(doc.header.nametable_size);
    canvas.place(0, head.data(), || "header".into())?;
    let names_at = doc.header.nametable_offset();
    for (i, e) in doc.entries.iter().enumerate() {
        let rec = &e.record;
        let at = u64::from(doc.header.filetable_offset) + (i * RECORD_SIZE) as u64;
        canvas.place(at, &encode_record(rec), || format!("entries[{i}]"))?;
        let name = match &e.name_bytes {
            Some(b) => b.0.clone(),
            None => encode(CP1251, &e.name)
                .ok_or_else(|| err(format!("entries[{i}].name"), "not encodable in cp1251".into()))?,
        };
        if name.len() != usize::from(rec.name_len) {
            return Err(err(
                format!("entries[{i}].name_len"),
                format!("is {} but the name has {} bytes", rec.name_len, name.len()),
            ));
        }
        canvas.place(names_at + u64::from(rec.name_offset), &name, || format!("entries[{i}].name_offset"))?;
        if let Some(data) = &e.data {
            if data.0.len() != rec.size as usize {
                return Err(err(
                    format!("entries[{i}].size"),
                    format!("is {} but data has {} bytes", rec.size, data.0.len()),
                ));
            }
            canvas.place(u64::from(rec.offset), &data.0, || format!("entries[{i}].offset"))?;
        } else {
            let src = e.same_as.and_then(|j| doc.entries.get(j)).filter(|_| e.same_as < Some(i));
            let ok = src.is_some_and(|s| s.record.offset == rec.offset && s.record.size == rec.size);
            if !ok {
                return Err(err(
                    format!("entries[{i}].data"),
                    "missing, and same_as names no earlier entry with the same range".into(),
                ));
            }
        }
    }
    canvas.place_gaps(&doc.gaps)?;
    let buf = canvas.into_bytes()?;
    parse(&buf).map_err(|e| e.within("rebuilt archive"))?;
    Ok(buf)
}
