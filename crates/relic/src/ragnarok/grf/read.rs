//! GRF reader: header, version, the file table of each layout (1.x plain with enciphered names, 0x200 and
//! 0x300 zlib-compressed), and every file entry's range checked against the file. Entry data is not touched
//! here; it is deciphered and inflated on demand.

use std::borrow::Cow;

use super::des;
use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Decipher, EntryData};
use crate::codec::text::{decode_exact, CP949};
use crate::codec::zlib::{self, At};
use crate::error::{Error, Result};
use crate::reader::Reader;

/// Parses a GRF archive of any version relic reads, borrowing `bytes`.
pub fn parse(bytes: &[u8]) -> Result<Grf<'_>> {
    let file_len = bytes.len() as u64;
    // Every range asked for was checked against the file first.
    let fetch = |at: u64, len: u64, _field: &str| Ok(Cow::Borrowed(crate::layout::range(bytes, at, len)));
    let parts = read_parts(file_len, None, fetch)?;
    let (packed_at, packed_len) = parts.table_packed;
    Ok(Grf {
        signature: parts.signature,
        header: parts.header,
        layout: parts.layout,
        table_packed_size: parts.table_packed_size,
        table_real_size: parts.table_real_size,
        table_reserved: parts.table_reserved,
        table_packed: crate::layout::range(bytes, packed_at, packed_len),
        entries: parts.entries,
        table_trailing: parts.table_trailing,
        bytes,
    })
}

/// What the header and the file table hold: all of a GRF that is read when it is opened, by the whole-file
/// [`parse`] and by [`super::SlicedGrf::open`] alike.
#[derive(Debug, Clone)]
pub(super) struct Parts {
    pub signature: Signature,
    pub header: GrfHeader,
    pub layout: Layout,
    pub table_packed_size: u64,
    pub table_real_size: u64,
    pub table_reserved: u32,
    /// Where the table's stored bytes lie: the compressed stream (0x200, 0x300) or the plain table (1.x), as
    /// (offset, length).
    pub table_packed: (u64, u64),
    pub entries: Vec<GrfEntry>,
    pub table_trailing: Vec<u8>,
}

/// Bytes of a 0x200 table's own header (packed and real size); 0x300 adds a u32 before them.
const ZLIB_TABLE_HEAD: u64 = 8;
/// Bytes of a 0x300 table's own header: a u32, then the packed and real sizes.
const ZLIB_TABLE_HEAD_V3: u64 = 12;

/// Reads the header and the file table of a `file_len`-byte GRF, asking `fetch(offset, len, field)` for
/// exactly the bytes it needs, in this order: the header's 46 bytes (fewer in a shorter file), then for 1.x
/// the table from its offset to the end of the file, for 0x200 and 0x300 the table's own header (fewer
/// bytes when the file ends sooner), then exactly the compressed bytes it declares. Every range is checked
/// against `file_len` before it is asked for, and every file entry's data range after the table is read.
/// `table_limit`: the most bytes of table fetched (a sliced reader reads them into memory), refused with a
/// located `Error::Limit` before they are asked for.
pub(super) fn read_parts<'b>(
    file_len: u64,
    table_limit: Option<u64>,
    fetch: impl Fn(u64, u64, &str) -> Result<Cow<'b, [u8]>>,
) -> Result<Parts> {
    let head = fetch(0, file_len.min(HEADER_SIZE as u64), "header")?;
    let mut r = Reader::new(FORMAT_ID, &head);
    // Either signature, whatever the version (docs/formats/ragnarok.md#grf-signatures: loaders accept both for every version).
    let signed = r.array::<SIGNED_BYTES>("signature")?;
    let (signature, key) = Signature::split(&signed).ok_or_else(|| {
        r.error_at("signature", 0, "expected `Master of Magic` or `Event Horizon` (`Event Horizon\\0RL`)")
    })?;
    let words = [r.u32("table_offset")?, r.u32("seed")?, r.u32("raw_count")?];
    let version = r.u32("version")?;
    let layout = check_version(version)?;
    // A 0x300 header holds a u64 table offset at 0x1E and the entry count itself at 0x26, unless its bytes
    // 35–37 are set: older 0x300 archives kept the 0x200 header (docs/formats/ragnarok.md#grf-event-horizon; GRF Editor tells the
    // two apart this way).
    let word = |i: usize| words.get(i).copied().unwrap_or(0);
    let wide = layout == Layout::V3 && word(1) >> 8 == 0;
    let header = GrfHeader {
        key,
        table_offset: if wide { u64::from(word(0)) | u64::from(word(1)) << 32 } else { u64::from(word(0)) },
        seed: if wide { 0 } else { word(1) },
        raw_count: word(2),
        version,
    };
    let count = header.entry_count().ok_or_else(|| {
        r.error_at(
            "raw_count",
            38,
            format!(
                "{} is below seed {} + {COUNT_BIAS}, so the entry count is negative",
                header.raw_count, header.seed
            ),
        )
    })?;

    let table_at = (HEADER_SIZE as u64).saturating_add(header.table_offset);
    if let Some(message) = past_end(table_at, file_len.saturating_sub(table_at), file_len) {
        return Err(Error::invalid(FORMAT_ID, "table_offset", 30, message));
    }
    let fetch_table = |at: u64, len: u64, field: &str| {
        if let Some(limit) = table_limit.filter(|&limit| len > limit) {
            return Err(Error::limit(
                FORMAT_ID,
                field,
                at,
                format!(
                    "a {len}-byte file table is more than the {limit} bytes relic reads at once (--max-entry-size \
                     raises the limit)"
                ),
            ));
        }
        fetch(at, len, field)
    };
    // Range errors are reported at the table (1.x) or its stream, naming the entry.
    let (parts, stream_at) = match layout {
        Layout::V1 => {
            let len = file_len.saturating_sub(table_at);
            let table = fetch_table(table_at, len, "table_offset")?;
            let mut t = Reader::with_base(FORMAT_ID, &table, table_at);
            let (entries, table_trailing) = read_v1_table(count, &mut t)?;
            let parts = Parts {
                signature,
                header,
                layout,
                table_packed_size: len,
                table_real_size: len,
                table_reserved: 0,
                table_packed: (table_at, len),
                entries,
                table_trailing,
            };
            (parts, table_at)
        }
        Layout::V2 | Layout::V3 => {
            let own = if layout == Layout::V3 { ZLIB_TABLE_HEAD_V3 } else { ZLIB_TABLE_HEAD };
            let small = fetch(table_at, own.min(file_len.saturating_sub(table_at)), "table")?;
            let mut t = Reader::with_base(FORMAT_ID, &small, table_at);
            let table_reserved = if layout == Layout::V3 { t.u32("table.reserved")? } else { 0 };
            let table_packed_size = t.u32("table.packed_size")?;
            let table_real_size = t.u32("table.real_size")?;
            let stream_at = t.offset();
            let remaining = file_len.saturating_sub(stream_at);
            if u64::from(table_packed_size) > remaining {
                return Err(Error::invalid(
                    FORMAT_ID,
                    "table.packed_size",
                    table_at,
                    format!("needs {table_packed_size} bytes but only {remaining} remain"),
                ));
            }
            let fixed = if layout == Layout::V3 { RECORD_FIXED_V3 } else { RECORD_FIXED };
            check_table_size(count, fixed, table_real_size, file_len, stream_at.saturating_sub(4))?;
            let packed_len = u64::from(table_packed_size);
            let packed = fetch_table(stream_at, packed_len, "table.packed_size")?;
            let (entries, table_trailing) = read_zlib_table(layout, count, &packed, table_real_size, stream_at)?;
            let parts = Parts {
                signature,
                header,
                layout,
                table_packed_size: packed_len,
                table_real_size: u64::from(table_real_size),
                table_reserved,
                table_packed: (stream_at, packed_len),
                entries,
                table_trailing,
            };
            (parts, stream_at)
        }
    };
    for (i, e) in parts.entries.iter().enumerate() {
        check_range(e, layout, stream_at, file_len).map_err(|e| e.within(format_args!("table.entries[{i}]")))?;
    }
    Ok(parts)
}

/// The message of a range that does not lie in a `file_len`-byte file (the words of [`Reader::sub`], so that
/// a file in memory and one read in slices give the same errors).
fn past_end(offset: u64, len: u64, file_len: u64) -> Option<String> {
    let fits = offset.checked_add(len).is_some_and(|end| end <= file_len);
    (!fits).then(|| format!("range 0x{offset:X}+0x{len:X} points past the end (data is 0x{file_len:X} bytes)"))
}

/// A 1.x table: from its offset to the end of the file, not compressed; each entry a u32 name field length,
/// the name field (2 bytes, the enciphered name, 4 bytes), sizes with constants added, flags, u32 offset.
/// Gives the entries and the bytes after them.
fn read_v1_table(count: u32, t: &mut Reader<'_>) -> Result<(Vec<GrfEntry>, Vec<u8>)> {
    let least = 4 + V1_NAME_LEAD + V1_NAME_TAIL + RECORD_FIXED;
    let n = t.count(u64::from(count), least, "entries").map_err(|e| match e {
        Error::Limit { message, .. } => {
            Error::limit(FORMAT_ID, "raw_count", 38, format!("{count} entries: {message} in the table"))
        }
        other => other,
    })?;
    let mut entries = Vec::with_capacity(n);
    for i in 0..n {
        entries.push(read_v1_entry(t).map_err(|e| e.within(format_args!("table.entries[{i}]")))?);
    }
    let table_trailing = t.data().get(t.pos()..).unwrap_or(&[]).to_vec();
    Ok((entries, table_trailing))
}

fn read_v1_entry(t: &mut Reader<'_>) -> Result<GrfEntry> {
    let at = t.pos();
    let field_len = t.u32("name_length")?;
    let framing = V1_NAME_LEAD + V1_NAME_TAIL;
    if (field_len as usize) < framing {
        return Err(t.error_at(
            "name_length",
            at,
            format!("{field_len} is shorter than the name field's {framing} bytes around the name"),
        ));
    }
    let field = t.bytes(field_len as usize, "name")?;
    let a = t.u32("compressed_size")?;
    let b = t.u32("aligned_size")?;
    let real_size = t.u32("real_size")?;
    let record = GrfRecord {
        compressed_size: a.wrapping_sub(real_size).wrapping_sub(V1_COMPRESSED_BIAS),
        aligned_size: b.wrapping_sub(V1_ALIGNED_BIAS),
        real_size,
        flags: t.u8("flags")?,
        offset: u64::from(t.u32("offset")?),
    };
    let plain = v1_name_of(field);
    let name_field = (v1_name_field(&plain) != field).then(|| field.to_vec());
    let (name, name_exact) = decode_exact(CP949, &plain);
    Ok(GrfEntry { name_raw: plain, name, name_exact, name_field, record })
}

/// The name a 1.x name field holds: the bytes between its 2 lead and 4 tail bytes, deciphered (whole blocks;
/// a partial last block stays as stored), up to the first NUL.
pub fn v1_name_of(field: &[u8]) -> Vec<u8> {
    let enciphered = field.get(V1_NAME_LEAD..field.len().saturating_sub(V1_NAME_TAIL)).unwrap_or(&[]);
    let mut plain = enciphered.to_vec();
    des::decipher_name(&mut plain);
    let end = plain.iter().position(|&c| c == 0).unwrap_or(plain.len());
    plain.truncate(end);
    plain
}

/// The 1.x name field GRF tools write for a name: two zero bytes, the name and its NUL padded with NULs to
/// a multiple of 8 and enciphered, four zero bytes.
pub fn v1_name_field(name_raw: &[u8]) -> Vec<u8> {
    let padded = (name_raw.len() + 1).div_ceil(8) * 8;
    let mut field = vec![0u8; V1_NAME_LEAD + padded + V1_NAME_TAIL];
    if let Some(name) = field.get_mut(V1_NAME_LEAD..V1_NAME_LEAD + padded) {
        if let Some(dst) = name.get_mut(..name_raw.len()) {
            dst.copy_from_slice(name_raw);
        }
        des::encipher_name(name);
    }
    field
}

/// The entries of a 0x200 or 0x300 table, (0x300: a u32,) u32 compressed size, u32 inflated size, then
/// `table_packed`, the zlib stream at `stream_at` of the entries: NUL-terminated name, sizes, flags, u32
/// (0x300: u64) offset. Gives the entries and the inflated bytes after them.
fn read_zlib_table(
    layout: Layout,
    count: u32,
    table_packed: &[u8],
    table_real_size: u32,
    stream_at: u64,
) -> Result<(Vec<GrfEntry>, Vec<u8>)> {
    let fixed = if layout == Layout::V3 { RECORD_FIXED_V3 } else { RECORD_FIXED };
    let at = At { format: FORMAT_ID, field: "table", offset: stream_at };
    let table = zlib::inflate_exact(table_packed, u64::from(table_real_size), at)?;

    // Errors inside the inflated table are reported at the table stream, naming the inflated offset.
    let in_table = |e: Error| match e {
        Error::InvalidData { at, message } => Error::invalid(
            FORMAT_ID,
            format!("table.{}", at.field),
            stream_at,
            format!("{message} (at byte 0x{:X} of the inflated table)", at.offset),
        ),
        Error::Limit { at, message } => Error::limit(
            FORMAT_ID,
            format!("table.{}", at.field),
            stream_at,
            format!("{message} (at byte 0x{:X} of the inflated table)", at.offset),
        ),
        other => other,
    };
    let mut tr = Reader::new(FORMAT_ID, &table);
    // Each entry takes at least its NUL and the fixed fields.
    let n = tr.count(u64::from(count), fixed + 1, "entries").map_err(|e| match e {
        Error::Limit { message, .. } => {
            Error::limit(FORMAT_ID, "raw_count", 38, format!("{count} entries: {message} in the inflated table"))
        }
        other => other,
    })?;
    let mut entries = Vec::with_capacity(n);
    for i in 0..n {
        entries.push(read_entry(&mut tr, layout).map_err(|e| in_table(e.within(format_args!("entries[{i}]"))))?);
    }
    let table_trailing = table.get(tr.pos()..).unwrap_or(&[]).to_vec();
    Ok((entries, table_trailing))
}

/// Longest name a table record holds, NUL excluded: GRF tools and the client keep names in 256-byte
/// buffers (the GRF layouts people published say nothing of a limit; this is the tools' one).
pub const MAX_NAME_BYTES: u64 = 255;

/// How many times its file's size an honest table can inflate to: a record is at most 277 bytes (a 255-byte
/// name, its NUL, 21 bytes of fields) and each file it lists takes at least an 8-byte zlib stream, so even
/// a table of empty files with the longest names stays near 35×; 64 leaves room. `--max-expansion` above
/// its default lifts this bound to itself, for the odd archive that needs it.
pub const TABLE_RATIO: u64 = 64;

/// Bytes an inflated table may hold after its records (kept as `table_trailing`; some tools leave some).
pub const TABLE_SLACK: u64 = 64 << 10;

/// The inflated table is bounded before it is inflated: by what its entry count can need (plus
/// [`TABLE_SLACK`]) and by [`TABLE_RATIO`] times the file's size, so a small file cannot make relic inflate
/// a huge table and hold millions of records (a table bomb).
fn check_table_size(count: u32, fixed: usize, real_size: u32, file_len: u64, at: u64) -> Result<()> {
    let most = u64::from(count) * (MAX_NAME_BYTES + 1 + fixed as u64) + TABLE_SLACK;
    let limit = |message: String| Error::limit(FORMAT_ID, "table.real_size", at, message);
    if u64::from(real_size) > most {
        return Err(limit(format!(
            "the table declares {real_size} bytes, more than its {count} entries can need ({most})"
        )));
    }
    let limits = crate::limits::current();
    let ratio = if limits.max_expansion > crate::limits::Limits::DEFAULT.max_expansion {
        limits.max_expansion
    } else {
        TABLE_RATIO
    };
    if u64::from(real_size) > file_len.saturating_mul(ratio) {
        return Err(limit(format!(
            "the table declares {real_size} bytes, more than {ratio}× the file's {file_len} bytes (a table \
             bomb; --max-expansion above {} lifts this)",
            crate::limits::Limits::DEFAULT.max_expansion
        )));
    }
    Ok(())
}

/// 0x101–0x103 (1.x), 0x200 and 0x300 are read; other versions are refused clearly.
fn check_version(version: u32) -> Result<Layout> {
    match Layout::of(version) {
        Some(layout) => Ok(layout),
        None if (0x100..=0x1FF).contains(&version) => Err(Error::Unsupported(format!(
            "{FORMAT_ID}: GRF version 0x{version:X} is not supported; relic reads 0x101–0x103, 0x200 and 0x300"
        ))),
        None => Err(Error::invalid(FORMAT_ID, "version", 42, format!("unknown GRF version 0x{version:X}"))),
    }
}

fn read_entry(r: &mut Reader<'_>, layout: Layout) -> Result<GrfEntry> {
    let rest = r.data().get(r.pos()..).unwrap_or(&[]);
    let len = rest.iter().position(|&b| b == 0).ok_or_else(|| r.error("name", "no NUL ends the name"))?;
    let name_raw = r.bytes(len, "name")?.to_vec();
    r.u8("name")?;
    let record = GrfRecord {
        compressed_size: r.u32("compressed_size")?,
        aligned_size: r.u32("aligned_size")?,
        real_size: r.u32("real_size")?,
        flags: r.u8("flags")?,
        offset: if layout == Layout::V3 { r.u64("offset")? } else { u64::from(r.u32("offset")?) },
    };
    let (name, name_exact) = decode_exact(CP949, &name_raw);
    Ok(GrfEntry { name_raw, name, name_exact, name_field: None, record })
}

/// A file entry's stored bytes must lie inside the file (enciphered entries are read in whole 8-byte
/// blocks, so their aligned size too). Folder records carry no data and are not checked.
fn check_range(e: &GrfEntry, layout: Layout, stream_at: u64, file_len: u64) -> Result<()> {
    let rec = &e.record;
    if !rec.is_file() {
        return Ok(());
    }
    let len = rec.stored_len(rec.cipher(layout, &e.name_raw).is_some());
    match past_end(rec.data_start(), len, file_len) {
        Some(message) => Err(Error::invalid(FORMAT_ID, "offset", stream_at, message)),
        None => Ok(()),
    }
}

/// Where a file entry's stored bytes lie, as (offset, length): [`GrfRecord::stored_len`] bytes from its data
/// start; `None` for folder records.
pub(super) fn stored_range(e: &GrfEntry, layout: Layout) -> Option<(u64, u64)> {
    let rec = e.record;
    rec.is_file().then(|| (rec.data_start(), rec.stored_len(rec.cipher(layout, &e.name_raw).is_some())))
}

/// How entry `i` of `entries` is read from `stored`, its stored bytes (see [`stored_range`]): the one place
/// that decides, for an archive in memory ([`Grf::entry_data`]) and one read in slices
/// ([`super::SlicedGrf::read_entry`]).
pub(super) fn entry_data<'s>(entries: &[GrfEntry], layout: Layout, i: usize, stored: &'s [u8]) -> EntryData<'s> {
    let Some(e) = entries.get(i) else {
        return EntryData::Unsupported(format!("{FORMAT_ID}: no entry {i}"));
    };
    let rec = e.record;
    if !rec.is_file() {
        return EntryData::Unsupported(format!("{FORMAT_ID}: `{}` is a folder record, not a file", e.name));
    }
    let size = u64::from(rec.real_size);
    let offset = rec.data_start();
    if let Some(cipher) = rec.cipher(layout, &e.name_raw) {
        return EntryData::Enciphered {
            stored,
            decipher: Decipher { apply: des::decipher_param, param: des::to_param(cipher) },
            packed_len: rec.compressed_size as usize,
            size,
            format: FORMAT_ID,
            offset,
        };
    }
    if rec.compressed_size == rec.real_size && !zlib::is_zlib_header(stored) {
        return EntryData::Stored(stored);
    }
    EntryData::Zlib { packed: stored, size, format: FORMAT_ID, offset }
}

/// The first file entry named `name`, ASCII case ignored and `\` and `/` alike (see [`Grf::find_ci`]).
pub(super) fn find_ci(entries: &[GrfEntry], name: &str) -> Option<usize> {
    entries.iter().position(|e| e.record.is_file() && same_name(&e.name, name))
}

/// `a` and `b` name the same entry: ASCII letters in either case, `\` and `/` alike.
fn same_name(a: &str, b: &str) -> bool {
    let fold = |c: char| match c {
        '\\' => '/',
        c => c.to_ascii_lowercase(),
    };
    a.chars().map(fold).eq(b.chars().map(fold))
}

impl<'a> Grf<'a> {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The whole file.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// How entry `i`'s stored bytes are enciphered (`None`: plain, or a folder record).
    pub fn cipher(&self, i: usize) -> Option<Cipher> {
        let e = self.entries.get(i)?;
        e.record.cipher(self.layout, &e.name_raw)
    }

    /// The stored bytes of entry `i` as they lie in the archive (enciphered ones too, in whole blocks: see
    /// [`GrfRecord::stored_len`]); empty for folder records.
    pub fn stored(&self, i: usize) -> &'a [u8] {
        match self.entries.get(i).and_then(|e| stored_range(e, self.layout)) {
            Some((start, len)) => crate::layout::range(self.bytes, start, len),
            None => &[],
        }
    }

    /// Finds a file entry by name the way the client looks names up: ASCII case ignored, `\` and `/` alike
    /// (`data/texture/x.BMP` finds `data\texture\x.bmp`). The first match in table order wins. Linear in the
    /// number of entries.
    pub fn find_ci(&self, name: &str) -> Option<usize> {
        find_ci(&self.entries, name)
    }

    /// How entry `i`'s bytes are obtained: deciphered (enciphered entries) and inflated on demand, stored
    /// as-is when a plain entry's sizes are equal and its bytes are no zlib stream (see the module notes), or
    /// an error for folders.
    pub fn entry_data(&self, i: usize) -> EntryData<'a> {
        entry_data(&self.entries, self.layout, i, self.stored(i))
    }

    /// The bytes of entry `i`, deciphered, inflated and checked against its real size.
    pub fn read_entry(&self, i: usize) -> Result<Cow<'a, [u8]>> {
        self.entry_data(i).bytes()
    }

    /// How many entries are files (not folder records).
    pub fn file_count(&self) -> usize {
        self.entries.iter().filter(|e| e.record.is_file()).count()
    }
}
