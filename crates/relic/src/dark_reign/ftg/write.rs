//! FTG writers: the lossless document back to its exact bytes (canvas of the stored size), and new archives
//! laid out simply: `BOTG`, the data in directory order from offset 12, the directory last.

use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};
use crate::layout::Canvas;
use crate::writer::Writer;

/// One file of a new archive.
#[derive(Debug, Clone)]
pub struct NewEntry {
    pub name: String,
    pub data: Vec<u8>,
}

/// A name as the 28-byte field: Windows-1252, at most 27 bytes, NUL-padded.
pub fn name_field(name: &str) -> Result<[u8; NAME_SIZE]> {
    let bytes =
        crate::codec::text::encode(encoding_rs::WINDOWS_1252, name).filter(|b| !b.contains(&0)).ok_or_else(|| {
            Error::refused(
                FORMAT_ID,
                "name",
                format!("the name `{}` cannot be stored", crate::paths::display_name(name)),
            )
        })?;
    if bytes.len() >= NAME_SIZE {
        return Err(Error::refused(
            FORMAT_ID,
            "name",
            format!(
                "the name `{}` is {} bytes; FTG names hold at most 27",
                crate::paths::display_name(name),
                bytes.len()
            ),
        ));
    }
    let mut field = [0u8; NAME_SIZE];
    if let Some(f) = field.get_mut(..bytes.len()) {
        f.copy_from_slice(&bytes);
    }
    Ok(field)
}

/// Writes a new archive.
pub fn write_new(entries: &[NewEntry]) -> Result<Vec<u8>> {
    let fields = entries.iter().map(|e| name_field(&e.name)).collect::<Result<Vec<_>>>()?;
    let pieces: Vec<([u8; NAME_SIZE], &[u8])> = fields.into_iter().zip(entries.iter().map(|e| &e.data[..])).collect();
    write_in_order(&pieces, &(0..pieces.len()).collect::<Vec<_>>())
}

/// Writes a new archive of `(name field, data)` entries in directory order: `BOTG`, the data in `order`
/// (indices into `entries`) from offset 12, the directory last.
pub fn write_in_order(entries: &[([u8; NAME_SIZE], &[u8])], order: &[usize]) -> Result<Vec<u8>> {
    let data: usize = entries.iter().map(|e| e.1.len()).sum();
    let mut out = Vec::with_capacity(HEADER_SIZE + data + entries.len() * ENTRY_SIZE);
    write_in_order_to(entries, order, &mut out)?;
    Ok(out)
}

/// [`write_in_order`] streamed to `out` (`relic edit` copies untouched entries from the mapped archive
/// without holding the new one in memory). Returns the bytes written.
pub(crate) fn write_in_order_to(
    entries: &[([u8; NAME_SIZE], &[u8])],
    order: &[usize],
    out: &mut dyn std::io::Write,
) -> Result<u64> {
    let data: u64 = entries.iter().map(|e| e.1.len() as u64).sum();
    let directory_offset = u32::try_from(HEADER_SIZE as u64 + data).map_err(|_| {
        Error::refused(FORMAT_ID, "directory_offset", format!("{data} bytes do not fit 32-bit offsets"))
    })?;
    let io = |e: std::io::Error| Error::io("<output>", e);
    let mut head = Writer::with_capacity(FORMAT_ID, HEADER_SIZE);
    head.bytes(MAGIC);
    head.u32(directory_offset);
    head.count_u32("file_count", entries.len())?;
    out.write_all(head.data()).map_err(io)?;
    let mut offsets = vec![0u32; entries.len()];
    let mut at = HEADER_SIZE as u32;
    for &i in order {
        let (Some(slot), Some((_, bytes))) = (offsets.get_mut(i), entries.get(i)) else { continue };
        *slot = at;
        out.write_all(bytes).map_err(io)?;
        // (Fits: the sum of every entry's size was checked against u32 above.)
        at = at.saturating_add(bytes.len() as u32);
    }
    let mut dir = Writer::with_capacity(FORMAT_ID, entries.len() * ENTRY_SIZE);
    for ((field, bytes), offset) in entries.iter().zip(offsets) {
        dir.bytes(field);
        dir.u32(offset);
        dir.u32(bytes.len() as u32);
    }
    out.write_all(dir.data()).map_err(io)?;
    Ok(u64::from(at) + dir.len() as u64)
}

/// Writes `(name field, data, offset)` entries back into a stored layout: `BOTG`, each entry's data at its
/// offset, the directory at `directory_offset`, `gaps` restored, in a file of `file_size` bytes. Fails when
/// the entries no longer fit it (data that grew into other data or past the end, shared data edited in one
/// copy only).
pub fn write_placed(
    entries: &[([u8; NAME_SIZE], &[u8], u32)],
    directory_offset: u32,
    file_size: u64,
    gaps: &[crate::layout::Gap],
) -> Result<Vec<u8>> {
    let mut canvas = Canvas::new(FORMAT_ID, file_size, u64::from(u32::MAX))?;
    let mut head = Writer::with_capacity(FORMAT_ID, HEADER_SIZE);
    head.bytes(MAGIC);
    head.u32(directory_offset);
    head.count_u32("file_count", entries.len())?;
    canvas.place(0, head.data(), || "header".into())?;
    let mut dir = Writer::with_capacity(FORMAT_ID, entries.len() * ENTRY_SIZE);
    for (i, (field, data, offset)) in entries.iter().enumerate() {
        dir.bytes(field);
        dir.u32(*offset);
        dir.count_u32(&format!("entries[{i}].size"), data.len())?;
        canvas.place(u64::from(*offset), data, || format!("entries[{i}].data"))?;
    }
    canvas.place(u64::from(directory_offset), dir.data(), || "directory".into())?;
    canvas.place_gaps(gaps)?;
    canvas.into_bytes()
}

/// Writes the file a document describes, byte for byte.
pub fn write_document(doc: &FtgDocument) -> Result<Vec<u8>> {
    let magic: [u8; 4] = match doc.magic.as_str() {
        "BOTG" => *MAGIC,
        "FTG\\0" | "FTG\0" => *MAGIC_COMMUNITY,
        other => return Err(Error::refused(FORMAT_ID, "magic", format!("`{other}` is not BOTG or FTG\\0"))),
    };
    let mut canvas = Canvas::new(FORMAT_ID, doc.file_size, u64::from(u32::MAX))?;
    let mut head = Writer::with_capacity(FORMAT_ID, HEADER_SIZE);
    head.bytes(&magic);
    head.u32(doc.directory_offset);
    head.u32(doc.file_count);
    canvas.place(0, head.data(), || "header".into())?;
    let mut dir = Writer::with_capacity(FORMAT_ID, doc.entries.len() * ENTRY_SIZE);
    let mut datas: Vec<&[u8]> = Vec::with_capacity(doc.entries.len());
    for (i, e) in doc.entries.iter().enumerate() {
        let field = match &e.name_field {
            Some(raw) => <[u8; NAME_SIZE]>::try_from(raw.0.as_slice())
                .map_err(|_| Error::refused(FORMAT_ID, format!("entries[{i}].name_field"), "not 28 bytes"))?,
            None => name_field(&e.name).map_err(|err| err.within(format_args!("entries[{i}]")))?,
        };
        dir.bytes(&field);
        dir.u32(e.offset);
        dir.u32(e.size);
        let data: &[u8] = match (&e.data, e.same_as) {
            (Some(d), _) => &d.0,
            (None, Some(j)) if j < i => datas.get(j).copied().unwrap_or(&[]),
            (None, _) if e.size == 0 => &[],
            _ => return Err(Error::refused(FORMAT_ID, format!("entries[{i}]"), "no data and no earlier same_as")),
        };
        if data.len() as u64 != u64::from(e.size) {
            return Err(Error::refused(
                FORMAT_ID,
                format!("entries[{i}].size"),
                format!("{} bytes of data, size {}", data.len(), e.size),
            ));
        }
        canvas.place(u64::from(e.offset), data, || format!("entries[{i}].data"))?;
        datas.push(data);
    }
    canvas.place(u64::from(doc.directory_offset), dir.data(), || "directory".into())?;
    canvas.place_gaps(&doc.gaps)?;
    canvas.into_bytes()
}

/// The archive an extraction's `directory.json` and its files' `data` (in directory order) give: with the
/// stored layout (every entry's offset, the directory's place, the file size, the bytes outside them) the
/// archive as it was, byte for byte, edits included as long as they still fit it; else, or when they do
/// not fit (data that grew), the data in its stored order (entries without an offset last, in directory
/// order) from offset 12, the directory last. Each name is written from its stored 28-byte field while that
/// still holds the name (an edited name wins). The magic is always `BOTG` (docs/formats/dark-reign.md#ftg-magic).
pub fn from_directory(dir: &super::convert::ExtractedDirectory, data: &[Vec<u8>]) -> Result<Vec<u8>> {
    from_directory_noting(dir, data, &mut |_| {})
}

/// [`from_directory`], telling `note` when the recorded layout could not be kept (edited files no longer
/// fit it) and the data was laid out afresh in the recorded order.
pub fn from_directory_noting(
    dir: &super::convert::ExtractedDirectory,
    data: &[Vec<u8>],
    note: &mut dyn FnMut(String),
) -> Result<Vec<u8>> {
    let fields = dir
        .entries
        .iter()
        .map(|e| {
            let stored = e.name_field.as_ref().and_then(|f| <[u8; NAME_SIZE]>::try_from(f.0.as_slice()).ok());
            let holds_name = |f: &[u8; NAME_SIZE]| {
                let end = f.iter().position(|&b| b == 0).unwrap_or(NAME_SIZE);
                crate::codec::text::decode(encoding_rs::WINDOWS_1252, f.get(..end).unwrap_or(&[])) == e.name
            };
            match stored.filter(holds_name) {
                Some(field) => Ok(field),
                None => name_field(&e.name),
            }
        })
        .collect::<Result<Vec<_>>>()?;
    let offsets: Option<Vec<u32>> = dir.entries.iter().map(|e| e.offset).collect();
    if let (Some(layout), Some(offsets)) = (&dir.layout, &offsets) {
        let placed: Vec<([u8; NAME_SIZE], &[u8], u32)> =
            fields.iter().zip(data).zip(offsets).map(|((f, d), &o)| (*f, d.as_slice(), o)).collect();
        match write_placed(&placed, layout.directory_offset, layout.file_size, &layout.gaps) {
            Ok(bytes) => return Ok(bytes),
            Err(why) => note(format!(
                "dr-ftg: the recorded layout no longer fits the edited files ({why}); the data is laid out afresh \
                 in the recorded order, so the archive is not byte for byte the original"
            )),
        }
    }
    let mut order: Vec<usize> = (0..dir.entries.len()).collect();
    order.sort_by_key(|&i| (dir.entries.get(i).and_then(|e| e.offset).map_or(u64::MAX, u64::from), i));
    // Entries that shared one range are written once each: their files may have been edited apart.
    let pieces: Vec<([u8; NAME_SIZE], &[u8])> = fields.into_iter().zip(data.iter().map(Vec::as_slice)).collect();
    write_in_order(&pieces, &order)
}
