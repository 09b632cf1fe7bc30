//! GRF reader: header, version check, the zlib-compressed file table, and every file entry's range checked
//! against the file. Entry data is not touched here; it is inflated on demand.

use std::borrow::Cow;

use super::types::*;
use super::FORMAT_ID;
use crate::asset::EntryData;
use crate::codec::text::{decode_exact, CP949};
use crate::codec::zlib::{self, At};
use crate::error::{Error, Result};
use crate::reader::Reader;

/// Parses a GRF archive, borrowing `bytes`.
pub fn parse(bytes: &[u8]) -> Result<Grf<'_>> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let signature = r.bytes(SIGNATURE.len(), "signature")?;
    if signature != SIGNATURE {
        return Err(r.error_at("signature", 0, "expected `Master of Magic`"));
    }
    let header = GrfHeader {
        key: r.array::<15>("key")?,
        table_offset: r.u32("table_offset")?,
        seed: r.u32("seed")?,
        raw_count: r.u32("raw_count")?,
        version: r.u32("version")?,
    };
    check_version(header.version)?;
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

    // The table: u32 compressed size, u32 inflated size, then the zlib stream.
    let table_at = HEADER_SIZE as u64 + u64::from(header.table_offset);
    let mut t =
        r.sub(table_at, (bytes.len() as u64).saturating_sub(table_at), "table_offset").map_err(|e| e.at_offset(30))?;
    let table_packed_size = t.u32("table.packed_size")?;
    let table_real_size = t.u32("table.real_size")?;
    let stream_at = t.offset();
    let table_packed = t.bytes(table_packed_size as usize, "table.packed_size").map_err(|e| e.at_offset(table_at))?;
    check_table_size(count, table_real_size, bytes.len() as u64, table_at + 4)?;
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
    let n = tr.count(u64::from(count), RECORD_FIXED + 1, "entries").map_err(|e| match e {
        Error::Limit { message, .. } => {
            Error::limit(FORMAT_ID, "raw_count", 38, format!("{count} entries: {message} in the inflated table"))
        }
        other => other,
    })?;
    let mut entries = Vec::with_capacity(n);
    for i in 0..n {
        entries.push(read_entry(&mut tr).map_err(|e| in_table(e.within(format_args!("entries[{i}]"))))?);
    }
    let table_trailing = table.get(tr.pos()..).unwrap_or(&[]).to_vec();

    for (i, e) in entries.iter().enumerate() {
        check_range(&r, &e.record, stream_at).map_err(|e| e.within(format_args!("table.entries[{i}]")))?;
    }
    Ok(Grf { header, table_packed_size, table_real_size, table_packed, entries, table_trailing, bytes })
}

/// Longest name a table record holds, NUL excluded: GRF tools and the client keep names in 256-byte
/// buffers (the GRF layouts people published say nothing of a limit; this is the tools' one).
pub const MAX_NAME_BYTES: u64 = 255;

/// How many times its file's size an honest table can inflate to: a record is at most 273 bytes (a 255-byte
/// name, its NUL, 17 bytes of fields) and each file it lists takes at least an 8-byte zlib stream, so even
/// a table of empty files with the longest names stays near 34×; 64 leaves room. `--max-expansion` above
/// its default lifts this bound to itself, for the odd archive that needs it.
pub const TABLE_RATIO: u64 = 64;

/// Bytes an inflated table may hold after its records (kept as `table_trailing`; some tools leave some).
pub const TABLE_SLACK: u64 = 64 << 10;

/// The inflated table is bounded before it is inflated: by what its entry count can need (plus
/// [`TABLE_SLACK`]) and by [`TABLE_RATIO`] times the file's size, so a small file cannot make relic inflate
/// a huge table and hold millions of records (a table bomb).
fn check_table_size(count: u32, real_size: u32, file_len: u64, at: u64) -> Result<()> {
    let most = u64::from(count) * (MAX_NAME_BYTES + 1 + RECORD_FIXED as u64) + TABLE_SLACK;
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

/// Version 0x200 is read; the DES-encrypted 1.x versions and 0x300 are recognised and refused clearly.
fn check_version(version: u32) -> Result<()> {
    match version {
        VERSION_0X200 => Ok(()),
        0x100..=0x1FF => Err(Error::Unsupported(format!(
            "{FORMAT_ID}: GRF version 0x{version:X} (1.x: DES-encrypted file names, \"mixed\" encrypted entries) \
             is not supported yet; relic reads version 0x200"
        ))),
        0x300 => Err(Error::Unsupported(format!(
            "{FORMAT_ID}: GRF version 0x300 (64-bit table offset) is not supported yet; relic reads version 0x200"
        ))),
        _ => Err(Error::invalid(FORMAT_ID, "version", 42, format!("unknown GRF version 0x{version:X}"))),
    }
}

fn read_entry(r: &mut Reader<'_>) -> Result<GrfEntry> {
    let rest = r.data().get(r.pos()..).unwrap_or(&[]);
    let len = rest.iter().position(|&b| b == 0).ok_or_else(|| r.error("name", "no NUL ends the name"))?;
    let name_raw = r.bytes(len, "name")?.to_vec();
    r.u8("name")?;
    let record = GrfRecord {
        compressed_size: r.u32("compressed_size")?,
        aligned_size: r.u32("aligned_size")?,
        real_size: r.u32("real_size")?,
        flags: r.u8("flags")?,
        offset: r.u32("offset")?,
    };
    let (name, name_exact) = decode_exact(CP949, &name_raw);
    Ok(GrfEntry { name_raw, name, name_exact, record })
}

/// A file entry's stored bytes must lie inside the file (encrypted entries are read in whole 8-byte blocks,
/// so their aligned size too). Folder records carry no data and are not checked.
fn check_range(file: &Reader<'_>, rec: &GrfRecord, stream_at: u64) -> Result<()> {
    if !rec.is_file() {
        return Ok(());
    }
    let len = if rec.is_encrypted() { rec.compressed_size.max(rec.aligned_size) } else { rec.compressed_size };
    file.sub(rec.data_start(), u64::from(len), "offset").map(|_| ()).map_err(|e| match e {
        Error::InvalidData { message, .. } => Error::invalid(FORMAT_ID, "offset", stream_at, message),
        other => other,
    })
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

    /// The stored (compressed) bytes of entry `i`; empty for folder records.
    pub fn stored(&self, i: usize) -> &'a [u8] {
        match self.entries.get(i).map(|e| e.record) {
            Some(rec) if rec.is_file() => {
                crate::layout::range(self.bytes, rec.data_start(), u64::from(rec.compressed_size))
            }
            _ => &[],
        }
    }

    /// Finds a file entry by name the way the client looks names up: ASCII case ignored, `\` and `/` alike
    /// (`data/texture/x.BMP` finds `data\texture\x.bmp`). The first match in table order wins. Linear in the
    /// number of entries.
    pub fn find_ci(&self, name: &str) -> Option<usize> {
        self.entries.iter().position(|e| e.record.is_file() && same_name(&e.name, name))
    }

    /// How entry `i`'s bytes are obtained: inflated on demand, stored as-is when the sizes are equal and the
    /// bytes are no zlib stream (see the module notes), or an error for encrypted entries and folders.
    pub fn entry_data(&self, i: usize) -> EntryData<'a> {
        let Some(e) = self.entries.get(i) else {
            return EntryData::Unsupported(format!("{FORMAT_ID}: no entry {i}"));
        };
        let rec = e.record;
        if !rec.is_file() {
            return EntryData::Unsupported(format!("{FORMAT_ID}: `{}` is a folder record, not a file", e.name));
        }
        if rec.is_encrypted() {
            return EntryData::Unsupported(format!(
                "{FORMAT_ID}: entry `{}` is DES-encrypted (flags 0x{:02X}); encrypted entries are not supported yet",
                e.name, rec.flags
            ));
        }
        let packed = self.stored(i);
        if rec.compressed_size == rec.real_size && !zlib::is_zlib_header(packed) {
            return EntryData::Stored(packed);
        }
        EntryData::Zlib { packed, size: u64::from(rec.real_size), format: FORMAT_ID, offset: rec.data_start() }
    }

    /// The bytes of entry `i`, inflated and checked against its real size.
    pub fn read(&self, i: usize) -> Result<Cow<'a, [u8]>> {
        self.entry_data(i).bytes()
    }

    /// How many entries are files (not folder records).
    pub fn file_count(&self) -> usize {
        self.entries.iter().filter(|e| e.record.is_file()).count()
    }
}
