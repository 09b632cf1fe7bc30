//! SRSC writers: the lossless document back to its exact bytes, and new files packed the way Drakan packs
//! them (header, bodies in order from offset 12, the directory at the end).

use std::collections::HashMap;

use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};
use crate::layout::Canvas;
use crate::writer::Writer;

/// Largest SRSC relic writes: offsets are u32.
const MAX_SIZE: u64 = u32::MAX as u64;

/// One record of a new file.
#[derive(Debug, Clone)]
pub struct NewRecord {
    pub record_type: u16,
    pub id: u16,
    pub group: u16,
    pub body: Vec<u8>,
}

/// Writes a new SRSC: bodies packed from offset 12 in the given order, then the directory in the same order
/// (Drakan's own layout).
pub fn write_packed(version: u16, records: &[NewRecord]) -> Result<Vec<u8>> {
    let order: Vec<usize> = (0..records.len()).collect();
    write_packed_in_order(version, records, &order)
}

/// Like [`write_packed`], with the bodies in `body_order` (indices into `records`; the directory stays in
/// the records' order).
pub fn write_packed_in_order(version: u16, records: &[NewRecord], body_order: &[usize]) -> Result<Vec<u8>> {
    let bodies: usize = records.iter().map(|r| r.body.len()).sum();
    let mut out = Vec::with_capacity(HEADER_SIZE + bodies + records.len() * ENTRY_SIZE);
    let refs: Vec<RecordRef<'_>> = records
        .iter()
        .map(|r| RecordRef { record_type: r.record_type, id: r.id, group: r.group, body: &r.body })
        .collect();
    write_packed_to(version, &refs, body_order, &mut out)?;
    Ok(out)
}

/// A record to write whose body is borrowed (from a mapped file being edited, `relic edit`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RecordRef<'b> {
    pub record_type: u16,
    pub id: u16,
    pub group: u16,
    pub body: &'b [u8],
}

/// [`write_packed_in_order`] streamed to `out`, so an edit holds no copy of the file. Returns the bytes
/// written.
pub(crate) fn write_packed_to(
    version: u16,
    records: &[RecordRef<'_>],
    body_order: &[usize],
    out: &mut dyn std::io::Write,
) -> Result<u64> {
    let bodies: u64 = records.iter().map(|r| r.body.len() as u64).sum();
    let mut head = Writer::with_capacity(FORMAT_ID, HEADER_SIZE);
    let directory_offset = u32::try_from(HEADER_SIZE as u64 + bodies).map_err(|_| {
        head.refused("header.directory_offset", format!("{bodies} bytes of bodies do not fit u32 offsets"))
    })?;
    let io = |e: std::io::Error| Error::io("<output>", e);
    head.bytes(MAGIC);
    head.u16(version);
    head.u32(directory_offset);
    head.count_u16("records", records.len())?;
    out.write_all(head.data()).map_err(io)?;
    let mut offsets = vec![0u32; records.len()];
    let mut at = HEADER_SIZE as u32;
    for &i in body_order {
        if let (Some(r), Some(slot)) = (records.get(i), offsets.get_mut(i)) {
            *slot = at;
            out.write_all(r.body).map_err(io)?;
            // (Fits: the bodies' total was checked against u32 above.)
            at = at.saturating_add(r.body.len() as u32);
        }
    }
    let mut dir = Writer::with_capacity(FORMAT_ID, records.len() * ENTRY_SIZE);
    for (r, offset) in records.iter().zip(offsets) {
        dir.u16(r.record_type);
        dir.u16(r.id);
        dir.u16(r.group);
        dir.u32(offset);
        dir.u32(r.body.len() as u32);
    }
    out.write_all(dir.data()).map_err(io)?;
    Ok(u64::from(at) + dir.len() as u64)
}

/// Writes the file a document describes. Bodies whose bytes are given (`data`, or `text` that encodes to
/// the stored size) go to their stored offsets on a canvas of the stored size, so an unedited document
/// gives back the exact bytes; when an edited text changes a body's size, the file is packed anew
/// (header, bodies in offset order, directory last) keeping every record's type, id, group and order.
pub fn write_document(doc: &SrscDocument) -> Result<Vec<u8>> {
    let bodies = bodies_of(doc)?;
    let sizes_kept = doc.records.iter().zip(&bodies).all(|(r, b)| b.len() as u64 == u64::from(r.entry.size));
    let count_kept = usize::from(doc.header.record_count) == doc.records.len();
    if sizes_kept && count_kept {
        return write_in_place(doc, &bodies);
    }
    repack(doc, &bodies)
}

/// Writes the file a document describes packed anew (see [`write_document`]), whatever the sizes: for a
/// document whose records no longer share the bodies they shared at their stored offsets.
pub fn write_document_repacked(doc: &SrscDocument) -> Result<Vec<u8>> {
    repack(doc, &bodies_of(doc)?)
}

fn repack(doc: &SrscDocument, bodies: &[Vec<u8>]) -> Result<Vec<u8>> {
    // Repack: bodies in their stored order (offset, then directory index), directory in directory order.
    let mut order: Vec<usize> = (0..doc.records.len()).collect();
    order.sort_by_key(|&i| (doc.records.get(i).map_or(0, |r| r.entry.offset), i));
    let mut out = Writer::new(FORMAT_ID);
    out.bytes(MAGIC);
    out.u16(doc.header.version);
    let directory_at = out.len();
    out.u32(0);
    out.count_u16("records", doc.records.len())?;
    let mut offsets = vec![0u32; doc.records.len()];
    let mut placed: HashMap<usize, u32> = HashMap::new();
    for i in order {
        // Records sharing a body keep sharing it.
        let source = doc.records.get(i).and_then(|r| r.same_as).unwrap_or(i);
        let offset = match placed.get(&source) {
            Some(&o) => o,
            None => {
                let o = u32::try_from(out.len()).map_err(|_| out.refused("records", "file over 4 GiB"))?;
                out.bytes(bodies.get(i).map_or(&[][..], Vec::as_slice));
                placed.insert(source, o);
                o
            }
        };
        if let Some(slot) = offsets.get_mut(i) {
            *slot = offset;
        }
    }
    let dir = u32::try_from(out.len()).map_err(|_| out.refused("records", "file over 4 GiB"))?;
    out.patch_u32_at("header.directory_offset", directory_at, dir)?;
    for ((r, body), offset) in doc.records.iter().zip(bodies).zip(offsets) {
        out.u16(r.entry.record_type);
        out.u16(r.entry.id);
        out.u16(r.entry.group);
        out.u32(offset);
        out.u32(body.len() as u32);
    }
    Ok(out.into_bytes())
}

fn write_in_place(doc: &SrscDocument, bodies: &[Vec<u8>]) -> Result<Vec<u8>> {
    let mut canvas = Canvas::new(FORMAT_ID, doc.file_size, MAX_SIZE)?;
    let mut head = Writer::with_capacity(FORMAT_ID, HEADER_SIZE);
    head.bytes(MAGIC);
    head.u16(doc.header.version);
    head.u32(doc.header.directory_offset);
    head.u16(doc.header.record_count);
    canvas.place(0, head.data(), || "header".into())?;
    let mut dir = Writer::with_capacity(FORMAT_ID, doc.records.len() * ENTRY_SIZE);
    for (i, (r, body)) in doc.records.iter().zip(bodies).enumerate() {
        let e = r.entry;
        dir.u16(e.record_type);
        dir.u16(e.id);
        dir.u16(e.group);
        dir.u32(e.offset);
        dir.u32(e.size);
        canvas.place(u64::from(e.offset), body, || format!("records[{i}].data"))?;
    }
    canvas.place(u64::from(doc.header.directory_offset), dir.data(), || "directory".into())?;
    canvas.place_gaps(&doc.gaps)?;
    canvas.into_bytes()
}

/// Every record's body from the document: its data, the data of the record it shares with, or its text.
pub(crate) fn bodies_of(doc: &SrscDocument) -> Result<Vec<Vec<u8>>> {
    let enc = crate::drakan::records::strings::code_page(doc.code_page.as_deref())?;
    let own = |i: usize, r: &SrscDocumentRecord| -> Result<Option<Vec<u8>>> {
        if let Some(text) = &r.text {
            let data = r.data.as_ref().map(|d| d.0.as_slice());
            // A text the code page cannot hold names the string's id, as strings.json keys it.
            return super::convert::text_body_in(enc, r.entry.record_type, text, data).map(Some).map_err(|e| {
                Error::Refused(format!(
                    "string {} (record type 0x{:04X}, records[{i}]): {}",
                    r.entry.id,
                    r.entry.record_type,
                    e.to_string().trim_start_matches("drakan-srsc: ")
                ))
            });
        }
        Ok(r.data.as_ref().map(|d| d.0.clone()))
    };
    let mut out = Vec::with_capacity(doc.records.len());
    for (i, r) in doc.records.iter().enumerate() {
        let body = match (own(i, r)?, r.same_as) {
            (Some(b), _) => b,
            (None, Some(j)) if j < i => out.get(j).cloned().unwrap_or_default(),
            (None, Some(j)) => {
                return Err(Error::refused(
                    FORMAT_ID,
                    format!("records[{i}].same_as"),
                    format!("{j} is not an earlier record"),
                ))
            }
            (None, None) if r.entry.size == 0 => Vec::new(),
            (None, None) => return Err(Error::refused(FORMAT_ID, format!("records[{i}]"), "no data, text or same_as")),
        };
        out.push(body);
    }
    Ok(out)
}

/// The type and id a record file's name gives (`<type hex>_<id>[_<name>].bin`, as `extract` names
/// records and `pack` reads them), for `relic edit`.
#[cfg(feature = "fs")]
pub(crate) fn record_of_file_name(file_name: &str) -> Option<(u16, u16)> {
    super::pack::parse_name(file_name)
}
