//! SRSC writers: the lossless document back to its exact bytes, and new files packed the way Drakan packs
//! them (header, bodies in order from offset 12, the directory at the end).

use std::collections::HashMap;

use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};
use crate::layout::Canvas;

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
    let count = u16::try_from(records.len())
        .map_err(|_| Error::Refused(format!("{FORMAT_ID}: {} records, more than 65535", records.len())))?;
    let bodies: u64 = records.iter().map(|r| r.body.len() as u64).sum();
    let directory_offset = u32::try_from(HEADER_SIZE as u64 + bodies)
        .map_err(|_| Error::Refused(format!("{FORMAT_ID}: {bodies} bytes of bodies do not fit u32 offsets")))?;
    let io = |e: std::io::Error| Error::io("<output>", e);
    let mut head = Vec::with_capacity(HEADER_SIZE);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&version.to_le_bytes());
    head.extend_from_slice(&directory_offset.to_le_bytes());
    head.extend_from_slice(&count.to_le_bytes());
    out.write_all(&head).map_err(io)?;
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
    let mut dir = Vec::with_capacity(records.len() * ENTRY_SIZE);
    for (r, offset) in records.iter().zip(offsets) {
        dir.extend_from_slice(&r.record_type.to_le_bytes());
        dir.extend_from_slice(&r.id.to_le_bytes());
        dir.extend_from_slice(&r.group.to_le_bytes());
        dir.extend_from_slice(&offset.to_le_bytes());
        dir.extend_from_slice(&(r.body.len() as u32).to_le_bytes());
    }
    out.write_all(&dir).map_err(io)?;
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
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&doc.header.version.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    let count = u16::try_from(doc.records.len())
        .map_err(|_| Error::invalid(FORMAT_ID, "records", 0, "more than 65535 records"))?;
    out.extend_from_slice(&count.to_le_bytes());
    let mut offsets = vec![0u32; doc.records.len()];
    let mut placed: HashMap<usize, u32> = HashMap::new();
    for i in order {
        // Records sharing a body keep sharing it.
        let source = doc.records.get(i).and_then(|r| r.same_as).unwrap_or(i);
        let offset = match placed.get(&source) {
            Some(&o) => o,
            None => {
                let o =
                    u32::try_from(out.len()).map_err(|_| Error::invalid(FORMAT_ID, "records", 0, "file over 4 GiB"))?;
                out.extend_from_slice(bodies.get(i).map_or(&[][..], Vec::as_slice));
                placed.insert(source, o);
                o
            }
        };
        if let Some(slot) = offsets.get_mut(i) {
            *slot = offset;
        }
    }
    let dir = u32::try_from(out.len()).map_err(|_| Error::invalid(FORMAT_ID, "records", 0, "file over 4 GiB"))?;
    if let Some(slot) = out.get_mut(6..10) {
        slot.copy_from_slice(&dir.to_le_bytes());
    }
    for ((r, body), offset) in doc.records.iter().zip(bodies).zip(offsets) {
        out.extend_from_slice(&r.entry.record_type.to_le_bytes());
        out.extend_from_slice(&r.entry.id.to_le_bytes());
        out.extend_from_slice(&r.entry.group.to_le_bytes());
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    }
    Ok(out)
}

fn write_in_place(doc: &SrscDocument, bodies: &[Vec<u8>]) -> Result<Vec<u8>> {
    let mut canvas = Canvas::new(FORMAT_ID, doc.file_size, MAX_SIZE)?;
    let mut head = Vec::with_capacity(HEADER_SIZE);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&doc.header.version.to_le_bytes());
    head.extend_from_slice(&doc.header.directory_offset.to_le_bytes());
    head.extend_from_slice(&doc.header.record_count.to_le_bytes());
    canvas.place(0, &head, || "header".into())?;
    let mut dir = Vec::with_capacity(doc.records.len() * ENTRY_SIZE);
    for (i, (r, body)) in doc.records.iter().zip(bodies).enumerate() {
        let e = r.entry;
        dir.extend_from_slice(&e.record_type.to_le_bytes());
        dir.extend_from_slice(&e.id.to_le_bytes());
        dir.extend_from_slice(&e.group.to_le_bytes());
        dir.extend_from_slice(&e.offset.to_le_bytes());
        dir.extend_from_slice(&e.size.to_le_bytes());
        canvas.place(u64::from(e.offset), body, || format!("records[{i}].data"))?;
    }
    canvas.place(u64::from(doc.header.directory_offset), &dir, || "directory".into())?;
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
                return Err(Error::invalid(
                    FORMAT_ID,
                    format!("records[{i}].same_as"),
                    0,
                    format!("{j} is not an earlier record"),
                ))
            }
            (None, None) if r.entry.size == 0 => Vec::new(),
            (None, None) => {
                return Err(Error::invalid(FORMAT_ID, format!("records[{i}]"), 0, "no data, text or same_as"))
            }
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
