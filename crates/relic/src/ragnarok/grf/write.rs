//! GRF writers: a new archive from files (`relic pack ro-grf DIR`, version 0x200 unless `--version` asks for
//! 0x102, 0x103 or 0x300), and the byte-exact rebuild of a [`GrfDocument`] of any version (`relic pack ro-grf
//! x.json`).
//!
//! Layout of a new archive: the 46-byte header (signature, the common key bytes 00 01 … 0E, seed 0), then
//! each entry's zlib stream (level 9) in byte order of the CP949 names, padded with zeros to a multiple of 8
//! (`aligned_size`), then the table (0x200: u32 compressed size, u32 inflated size, zlib level 9 of the
//! entries: NUL-terminated name with `\` between folders, compressed, aligned and real sizes, flags 0x01,
//! u32 offset; 0x300: a zero u32 first and u64 offsets, with the u64 table offset and the plain entry count
//! in the header). 1.x archives encipher each entry after padding it (mixed, or header-only for `.gnd
//! .gat .act .str`) and keep a plain table of enciphered names padded with NULs to whole blocks, as GRF
//! Editor writes them. Every entry is compressed, even when that does not make it smaller: the game client
//! always inflates. No folder records are written. Packing the same files twice gives the same bytes (for a
//! given build of relic: another zlib implementation may choose other, equally valid, compressed bytes).

use std::borrow::Cow;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::parallel::prelude::*;

use super::des;
use super::read::{parse, v1_name_field, v1_name_of};
use super::types::*;
use super::FORMAT_ID;
use crate::codec::text::{decode, encode, CP949};
use crate::codec::zlib;
use crate::error::{Error, Result};
use crate::layout::Canvas;
use crate::registry::FolderFile;
use crate::writer::Writer;

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
    /// A file of a folder being packed, read when compressed; opened without following links (a file
    /// swapped for one since the folder was listed is refused, not followed).
    File(FolderFile),
}

impl PackSource {
    fn read(&self) -> Result<Cow<'_, [u8]>> {
        match self {
            PackSource::Bytes(b) => Ok(Cow::Borrowed(b)),
            PackSource::File(file) => file.read().map(Cow::Owned),
        }
    }

    fn describe(&self) -> String {
        match self {
            PackSource::Bytes(_) => "in-memory entry".into(),
            PackSource::File(file) => file.path.display().to_string(),
        }
    }
}

/// Encodes a relative path (`/` or `\` separated) as a GRF name: CP949 with `\`.
pub fn encode_name(relative: &str) -> Result<Vec<u8>> {
    let name = relative.replace('/', "\\");
    if name.contains('\0') {
        return Err(Error::refused(FORMAT_ID, "name", format!("`{}` contains a NUL", relative.escape_debug())));
    }
    encode(CP949, &name)
        .ok_or_else(|| Error::refused(FORMAT_ID, "name", format!("`{relative}` has characters that CP949 cannot hold")))
}

/// The folder every file of the client's archives lies in (`data\texture\…`, `data\model\…`).
pub const CLIENT_FOLDER: &str = "data";

/// The name of the folder being packed when it is kept in entry names (`relic pack ro-grf mygrf/data`
/// gives `data\texture\…`, as GRF Editor does when a folder is added and as the client needs): a folder
/// named [`CLIENT_FOLDER`] (ASCII case ignored) that does not itself hold one. Any other folder is the
/// archive's root, so that an extraction packs back under the same names: `relic extract x.grf -o out`
/// writes `out/data/…` and `relic pack ro-grf out` names them `data\…` again, also when `out` is itself
/// named `data` (`relic extract data.grf` writes `data/data/…`). `None` when the folder's name is kept out.
pub fn kept_folder_name(files: &[FolderFile]) -> Option<String> {
    let is_client = |c: &str| c.eq_ignore_ascii_case(CLIENT_FOLDER);
    let holds_client = files.iter().any(|f| f.relative.split_once('/').is_some_and(|(first, _)| is_client(first)));
    if holds_client {
        return None;
    }
    // The folder is any file's path without its relative part (nested archives packed first lie elsewhere).
    let root = files.iter().find_map(|f| {
        let mut root = f.path.clone();
        if !root.ends_with(&f.relative) {
            return None;
        }
        for _ in f.relative.split('/') {
            root.pop();
        }
        Some(root)
    })?;
    let name = match root.file_name() {
        Some(name) => name.to_str()?.to_owned(),
        // `.` or `..`: the folder's own name.
        None => root.canonicalize().ok()?.file_name()?.to_str()?.to_owned(),
    };
    is_client(&name).then_some(name)
}

fn align(v: u64) -> u64 {
    v.div_ceil(u64::from(ALIGN)) * u64::from(ALIGN)
}

/// The client's notion of the same name: ASCII case ignored, `\` and `/` alike.
fn lookup_key(name: &[u8]) -> String {
    decode(CP949, name).replace('/', "\\").to_ascii_lowercase()
}

/// Serialises table entries (and trailing bytes) as the table holds them (0x200, 0x300: before compression):
/// each row is the raw name, for 1.x the stored name field when it must be kept (`None`: the name enciphered
/// as GRF tools do), and the record. Offsets a layout cannot hold are refused.
pub fn table_bytes<'n>(
    layout: Layout,
    rows: impl IntoIterator<Item = (&'n [u8], Option<&'n [u8]>, GrfRecord)>,
    trailing: &[u8],
) -> Result<Vec<u8>> {
    let mut t = Writer::new(FORMAT_ID);
    for (i, (name, field, rec)) in rows.into_iter().enumerate() {
        let narrow = |t: &Writer| {
            u32::try_from(rec.offset).map_err(|_| {
                t.refused(
                    &format!("entries[{i}].offset"),
                    format!(
                        "{} is past the 4 GiB {} offsets address; write a 0x300 archive",
                        rec.offset,
                        name_of(layout)
                    ),
                )
            })
        };
        match layout {
            Layout::V1 => {
                let field = field.map_or_else(|| Cow::Owned(v1_name_field(name)), Cow::Borrowed);
                t.count_u32(&format!("entries[{i}].name"), field.len())?;
                t.bytes(&field);
                t.u32(rec.compressed_size.wrapping_add(rec.real_size).wrapping_add(V1_COMPRESSED_BIAS));
                t.u32(rec.aligned_size.wrapping_add(V1_ALIGNED_BIAS));
            }
            Layout::V2 | Layout::V3 => {
                t.bytes(name);
                t.u8(0);
                t.u32(rec.compressed_size);
                t.u32(rec.aligned_size);
            }
        }
        t.u32(rec.real_size);
        t.u8(rec.flags);
        match layout {
            Layout::V3 => t.u64(rec.offset),
            Layout::V1 | Layout::V2 => {
                let offset = narrow(&t)?;
                t.u32(offset);
            }
        }
    }
    t.bytes(trailing);
    Ok(t.into_bytes())
}

fn name_of(layout: Layout) -> &'static str {
    match layout {
        Layout::V1 => "GRF 1.x",
        Layout::V2 => "GRF 0x200",
        Layout::V3 => "GRF 0x300",
    }
}

/// The 46 header bytes: the signature and key, then the 0x300 form (u64 table offset, entry count) for a
/// wide header, the 1.x/0x200 form (u32 table offset, seed, raw count) otherwise.
pub fn header_bytes(h: &GrfHeader, signature: Signature) -> Result<Vec<u8>> {
    let err = |field: &str, why: String| Error::refused(FORMAT_ID, format!("header.{field}"), why);
    let mut b = Writer::with_capacity(FORMAT_ID, HEADER_SIZE);
    b.bytes(&signature.join(&h.key));
    if h.is_wide() {
        if h.seed != 0 {
            return Err(err(
                "seed",
                format!("{} cannot be stored: a 0x300 header has no seed (0), unless it is 256 or more (GRF Editor's older form)", h.seed),
            ));
        }
        if h.table_offset >> 40 != 0 {
            return Err(err(
                "table_offset",
                format!("{} would be read as GRF Editor's older 0x300 header (bytes 35–37 set)", h.table_offset),
            ));
        }
        b.u64(h.table_offset);
    } else {
        let offset = u32::try_from(h.table_offset).map_err(|_| {
            err(
                "table_offset",
                format!("{} is past the 4 GiB a 32-bit table offset reaches; write a 0x300 archive", h.table_offset),
            )
        })?;
        b.u32(offset);
        b.u32(h.seed);
    }
    b.u32(h.raw_count);
    b.u32(h.version);
    Ok(b.into_bytes())
}

fn too_big(field: &str, what: String) -> Error {
    Error::refused(FORMAT_ID, field, format!("{what}; GRF entry sizes stop at 4 GiB in every version"))
}

/// The versions [`write_archive`] writes, as their layouts.
pub fn check_write_version(version: u32) -> Result<Layout> {
    match Layout::of(version) {
        Some(layout) if WRITE_VERSIONS.contains(&version) => Ok(layout),
        _ => Err(Error::refused(
            FORMAT_ID,
            "version",
            format!("relic writes GRF versions 0x102, 0x103, 0x200 and 0x300, not 0x{version:X}"),
        )),
    }
}

/// Where each entry of a new archive goes: entries of the given compressed sizes one after the other, each
/// padded to 8 bytes, from byte 46. Returns their offsets (counted from byte 46) and the table's, after the
/// data. 1.x and 0x200 offsets are 32-bit: an archive whose data would pass 4 GiB is refused, telling the
/// user to write 0x300. Planned before anything is compressed into the output, so the refusal costs nothing.
pub fn plan_offsets(version: u32, compressed: impl IntoIterator<Item = u32>) -> Result<(Vec<u64>, u64)> {
    let layout = check_write_version(version)?;
    let mut offsets = Vec::new();
    let mut cursor = 0u64;
    for size in compressed {
        offsets.push(cursor);
        cursor += align(u64::from(size));
    }
    if layout != Layout::V3 && cursor > u64::from(u32::MAX) {
        return Err(Error::refused(
            FORMAT_ID,
            "header.table_offset",
            format!(
                "the entries' data would take {cursor} bytes, past the 4 GiB that GRF 0x{version:X} offsets \
                 address; write a 0x300 archive (`relic pack ro-grf --version 0x300`), whose offsets are 64-bit"
            ),
        ));
    }
    Ok((offsets, cursor))
}

/// Sizes of one entry found by the first pass.
#[derive(Debug, Clone, Copy)]
struct Sized {
    real: u32,
    compressed: u32,
}

/// Writes a new archive of `version` (see [`WRITE_VERSIONS`]) with the signature new archives of that
/// version carry ([`Signature::for_version`]: `Event Horizon` for 0x300), streamed to `out`. Returns the
/// number of bytes written.
pub fn write_archive(inputs: Vec<PackInput>, version: u32, out: &mut dyn Write) -> Result<u64> {
    write_archive_as(inputs, version, Signature::for_version(version), out)
}

/// [`write_archive`] with the signature chosen (a 0x300 archive signed `Master of Magic`, as GRF Editor
/// wrote them before 2024). Each entry is compressed twice at most (once to learn the sizes the header
/// needs, once when written) unless it fits in the memory budget; entries are compressed (and enciphered)
/// in parallel.
pub fn write_archive_as(
    mut inputs: Vec<PackInput>,
    version: u32,
    signature: Signature,
    out: &mut dyn Write,
) -> Result<u64> {
    let layout = check_write_version(version)?;
    inputs.sort_by(|a, b| a.name.cmp(&b.name));
    let mut seen = std::collections::HashMap::new();
    for input in &inputs {
        if input.name.contains(&0) || input.name.is_empty() {
            return Err(Error::refused(FORMAT_ID, "name", "an entry name is empty or contains a NUL"));
        }
        if let Some(first) = seen.insert(lookup_key(&input.name), &input.name) {
            return Err(Error::refused(
                FORMAT_ID,
                "name",
                format!(
                    "`{}` and `{}` are the same name to the game (case and `\\`/`/` are ignored)",
                    decode(CP949, first),
                    decode(CP949, &input.name)
                ),
            ));
        }
    }
    let n = inputs.len();
    let bias = if layout == Layout::V3 { 0 } else { COUNT_BIAS };
    let raw_count = u32::try_from(n)
        .ok()
        .and_then(|c| c.checked_add(bias))
        .ok_or_else(|| too_big("header.raw_count", format!("{n} entries")))?;

    // Pass 1: sizes (and, within the budget, the compressed bytes themselves).
    let budget = AtomicU64::new(RETAIN_BYTES);
    let first: Vec<(Sized, Option<Vec<u8>>)> = inputs
        .par_iter()
        .map(|input| {
            let data = input.source.read()?;
            let real = u32::try_from(data.len())
                .map_err(|_| too_big("real_size", format!("{} is too large", input.source.describe())))?;
            let packed = zlib::compress(&data, LEVEL);
            let compressed = u32::try_from(packed.len()).map_err(|_| too_big("compressed_size", "an entry".into()))?;
            let len = packed.len() as u64;
            let keep = budget.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| b.checked_sub(len)).is_ok();
            Ok((Sized { real, compressed }, keep.then_some(packed)))
        })
        .collect::<Result<_>>()?;
    let (sizes, mut kept): (Vec<Sized>, Vec<Option<Vec<u8>>>) = first.into_iter().unzip();

    // Offsets, records and the table.
    let (offsets, table_offset) = plan_offsets(version, sizes.iter().map(|s| s.compressed))?;
    let mut records = Vec::with_capacity(n);
    for (s, offset) in sizes.iter().zip(offsets) {
        let aligned =
            u32::try_from(align(u64::from(s.compressed))).map_err(|_| too_big("aligned_size", "an entry".into()))?;
        records.push(GrfRecord {
            compressed_size: s.compressed,
            aligned_size: aligned,
            real_size: s.real,
            flags: FLAG_FILE,
            offset,
        });
    }
    let ciphers: Vec<Option<Cipher>> = inputs.iter().zip(&records).map(|(i, r)| r.cipher(layout, &i.name)).collect();
    let rows = inputs.iter().zip(records.iter()).map(|(i, r)| (i.name.as_slice(), None, *r));
    let table = table_bytes(layout, rows, &[])?;
    let table_real = u32::try_from(table.len()).map_err(|_| too_big("table.real_size", "the file table".into()))?;
    let table_packed = if layout == Layout::V1 { Vec::new() } else { zlib::compress(&table, LEVEL) };
    let table_packed_len =
        u32::try_from(table_packed.len()).map_err(|_| too_big("table.packed_size", "the file table".into()))?;
    let header = GrfHeader { key: DEFAULT_KEY, table_offset, seed: 0, raw_count, version };

    // Pass 2: header, data in batches, table.
    let io = |e: std::io::Error| Error::io("<output>", e);
    out.write_all(&header_bytes(&header, signature)?).map_err(io)?;
    let batches =
        kept.chunks_mut(BATCH).zip(inputs.chunks(BATCH)).zip(records.chunks(BATCH)).zip(ciphers.chunks(BATCH));
    for (((kept, inputs), records), ciphers) in batches {
        let stored: Vec<Vec<u8>> = kept
            .par_iter_mut()
            .zip(inputs.par_iter())
            .zip(records.par_iter())
            .zip(ciphers.par_iter())
            .map(|(((kept, input), rec), cipher)| {
                let mut p = match kept.take() {
                    Some(p) => p,
                    None => {
                        let data = input.source.read()?;
                        let p = zlib::compress(&data, LEVEL);
                        if data.len() as u64 != u64::from(rec.real_size)
                            || p.len() as u64 != u64::from(rec.compressed_size)
                        {
                            return Err(Error::Refused(format!("{}: changed while packing", input.source.describe())));
                        }
                        p
                    }
                };
                // Zero padding to the aligned size, then (1.x) the cipher over whole blocks, in place.
                p.resize(rec.aligned_size as usize, 0);
                if let Some(cipher) = cipher {
                    des::encipher(&mut p, *cipher);
                }
                Ok(p)
            })
            .collect::<Result<_>>()?;
        for p in &stored {
            out.write_all(p).map_err(io)?;
        }
    }
    let mut written = HEADER_SIZE as u64 + table_offset;
    match layout {
        Layout::V1 => out.write_all(&table).map_err(io)?,
        Layout::V2 | Layout::V3 => {
            let mut sizes = Writer::with_capacity(FORMAT_ID, 12);
            if layout == Layout::V3 {
                sizes.u32(0);
            }
            sizes.u32(table_packed_len);
            sizes.u32(table_real);
            out.write_all(sizes.data()).map_err(io)?;
            out.write_all(&table_packed).map_err(io)?;
            written += sizes.len() as u64;
        }
    }
    Ok(written + if layout == Layout::V1 { table.len() as u64 } else { table_packed.len() as u64 })
}

/// Writes a new archive of `version` into memory and checks it with the reader.
pub fn write_archive_bytes(inputs: Vec<PackInput>, version: u32) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    write_archive(inputs, version, &mut out)?;
    parse(&out).map_err(|e| e.within("written archive"))?;
    Ok(out)
}

/// Largest file a JSON document may describe (the rebuild happens in memory).
const MAX_DOCUMENT_FILE: u64 = u32::MAX as u64;

/// Rebuilds the exact file a [`GrfDocument`] describes, signed `Master of Magic`, and checks it with the
/// reader (see [`write_document_as`] for the other signature).
pub fn write_document(doc: &GrfDocument) -> Result<Vec<u8>> {
    write_document_as(doc, Signature::MasterOfMagic)
}

/// Rebuilds the exact file a [`GrfDocument`] describes with `signature` (the JSON's `header.signature`,
/// see [`super::convert::from_json`]), and checks it with the reader. Entries' stored bytes are placed as
/// they are when their recorded cipher is the one the version, name and flags ask for; otherwise (an
/// edited document) they are deciphered and enciphered again.
pub fn write_document_as(doc: &GrfDocument, signature: Signature) -> Result<Vec<u8>> {
    let err = |field: String, why: String| Error::refused(FORMAT_ID, field, why);
    let version = doc.header.version;
    let layout = doc
        .header
        .layout()
        .ok_or_else(|| err("header.version".into(), format!("relic writes no GRF version 0x{version:X}")))?;
    if doc.header.entry_count() != u32::try_from(doc.entries.len()).ok() {
        return Err(err(
            "header.raw_count".into(),
            format!(
                "raw count {} (seed {}, version 0x{version:X}) does not give the document's {} entries",
                doc.header.raw_count,
                doc.header.seed,
                doc.entries.len()
            ),
        ));
    }
    let header = header_bytes(&doc.header, signature)?;

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
    // 1.x: a kept name field is used while it still holds the entry's name.
    let fields: Vec<Option<&[u8]>> = doc
        .entries
        .iter()
        .zip(&names)
        .map(|(e, name)| {
            e.name_field.as_ref().map(|f| f.0.as_slice()).filter(|f| layout == Layout::V1 && v1_name_of(f) == *name)
        })
        .collect();
    let trailing = doc.table_trailing.as_ref().map_or(&[][..], |b| b.0.as_slice());
    let rows = names.iter().zip(&fields).zip(&doc.entries).map(|((n, f), e)| (n.as_slice(), *f, e.record));
    let table = table_bytes(layout, rows, trailing)?;
    let table_at = (HEADER_SIZE as u64).saturating_add(doc.header.table_offset);
    let (t, file_size) = match layout {
        Layout::V1 => {
            let end = table_at.saturating_add(table.len() as u64);
            (table, end)
        }
        Layout::V2 | Layout::V3 => zlib_table(doc, layout, &table, table_at)?,
    };
    let mut canvas = Canvas::new(FORMAT_ID, file_size, MAX_DOCUMENT_FILE)?;
    canvas.place(0, &header, || "header".into())?;

    for (i, e) in doc.entries.iter().enumerate() {
        let rec = &e.record;
        let wanted = names.get(i).and_then(|n| rec.cipher(layout, n));
        let recorded = e.cipher.map(|c| c.with_size(rec.compressed_size));
        match (&e.data, e.same_as) {
            (Some(data), _) => {
                let len = rec.stored_len(recorded.is_some());
                if data.0.len() as u64 != len {
                    return Err(err(
                        format!("entries[{i}].compressed_size"),
                        format!(
                            "is {} (aligned {}) but data has {} bytes, not the {len} its cipher stores",
                            rec.compressed_size,
                            rec.aligned_size,
                            data.0.len()
                        ),
                    ));
                }
                if wanted == recorded {
                    canvas.place(rec.data_start(), &data.0, || format!("entries[{i}].offset"))?;
                } else {
                    // Checked against the file before the buffer grows to the new cipher's length.
                    let need = rec.stored_len(wanted.is_some());
                    if rec.data_start().saturating_add(need) > file_size {
                        return Err(err(
                            format!("entries[{i}].aligned_size"),
                            format!("{need} stored bytes at offset {} run past the file's end", rec.data_start()),
                        ));
                    }
                    let mut buf = data.0.clone();
                    if let Some(c) = recorded {
                        des::decipher(&mut buf, c);
                    }
                    buf.resize(rec.stored_len(wanted.is_some()) as usize, 0);
                    if let Some(c) = wanted {
                        des::encipher(&mut buf, c);
                    }
                    canvas.place(rec.data_start(), &buf, || format!("entries[{i}].offset"))?;
                }
            }
            (None, Some(j)) => {
                let src = doc.entries.get(j).filter(|_| j < i);
                let len = rec.stored_len(recorded.is_some());
                if !src.is_some_and(|s| s.record.offset == rec.offset && s.record.stored_len(s.cipher.is_some()) == len)
                {
                    return Err(err(
                        format!("entries[{i}].same_as"),
                        "names no earlier entry with the same offset and size".into(),
                    ));
                }
                if wanted != recorded {
                    return Err(err(
                        format!("entries[{i}].cipher"),
                        "shares its stored bytes with an earlier entry, so they cannot be enciphered again for it"
                            .into(),
                    ));
                }
            }
            (None, None) if !rec.is_file() => {}
            (None, None) => return Err(err(format!("entries[{i}].data"), "a file entry needs its data".into())),
        }
    }

    canvas.place(table_at, &t, || "header.table_offset".into())?;

    canvas.place_gaps(&doc.gaps)?;
    let buf = canvas.into_bytes()?;
    parse(&buf).map_err(|e| e.within("rebuilt archive"))?;
    Ok(buf)
}

/// A 0x200 or 0x300 document's stored table — (0x300: its u32,) the sizes and the stored compressed bytes
/// when they still inflate to `table`, or a fresh stream — and the file size: the document's, or when a
/// fresh table changes size and nothing but the table lies from its offset on, the end of the new table.
fn zlib_table(doc: &GrfDocument, layout: Layout, table: &[u8], table_at: u64) -> Result<(Vec<u8>, u64)> {
    let err = |field: &str, why: &str| Error::refused(FORMAT_ID, field, why);
    let table_real = u32::try_from(table.len()).map_err(|_| err("entries", "table over 4 GiB"))?;
    let at = zlib::At { format: FORMAT_ID, field: "table.packed", offset: 0 };
    let packed = match &doc.table.packed {
        Some(p) if zlib::inflate_exact(&p.0, table.len() as u64, at).is_ok_and(|t| t == table) => Cow::Borrowed(&p.0),
        _ => Cow::Owned(zlib::compress(table, LEVEL)),
    };
    let packed_len = u32::try_from(packed.len()).map_err(|_| err("table.packed", "over 4 GiB"))?;
    let mut t = Writer::with_capacity(FORMAT_ID, 12 + packed.len());
    if layout == Layout::V3 {
        t.u32(doc.table.reserved.unwrap_or(0));
    }
    t.u32(packed_len);
    t.u32(table_real);
    t.bytes(&packed);
    let t = t.into_bytes();
    let mut file_size = doc.file_size;
    if matches!(packed, Cow::Owned(_)) {
        let data_end = doc
            .entries
            .iter()
            .filter(|e| e.data.is_some())
            .map(|e| e.record.data_start().saturating_add(e.record.stored_len(e.cipher.is_some())))
            .chain(doc.gaps.iter().map(|g| g.offset + g.bytes.0.len() as u64))
            .max()
            .unwrap_or(0);
        if data_end <= table_at {
            file_size = table_at + t.len() as u64;
        }
    }
    Ok((t, file_size))
}
