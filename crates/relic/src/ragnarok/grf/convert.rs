//! GRF to the common model: archive entries (inflated on demand), the lossless JSON document and the info
//! summary.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::json;

use super::sliced::SlicedEntry;
use super::types::*;
use crate::asset::Entry;
use crate::bytes::Base64;
use crate::error::{Error, Result};

/// The archive's file entries in table order (folder records are left out: they hold no data). Paths use
/// `/` for the stored `\`; GRF keeps no times.
pub fn entries<'a>(grf: &Grf<'a>) -> Vec<Entry<'a>> {
    listed(&grf.entries)
        .map(|(listed, e)| Entry {
            name_raw: Cow::Owned(e.name_raw.clone()),
            name: Cow::Owned(listed.name),
            path: Cow::Owned(listed.path),
            size: listed.size,
            modified: None,
            data: grf.entry_data(listed.index),
            record: listed.record.map(Box::new),
        })
        .collect()
}

/// The file entries of a table as archive listings show them (see [`entries`]), each with its table entry:
/// the one computation behind [`entries`] and [`SlicedGrf::listing`](super::SlicedGrf::listing).
pub(super) fn listed(entries: &[GrfEntry]) -> impl Iterator<Item = (SlicedEntry, &GrfEntry)> {
    entries.iter().enumerate().filter(|(_, e)| e.record.is_file()).map(|(index, e)| {
        let listed = SlicedEntry {
            index,
            name: e.name.clone(),
            path: e.name.replace('\\', "/"),
            size: u64::from(e.record.real_size),
            // GRF entries are files, not records of a record container.
            record: None,
        };
        (listed, e)
    })
}

/// The lossless document: header, the compressed table as stored (0x200, 0x300), every entry with its stored
/// bytes (enciphered ones as stored, with their cipher named), and any non-zero bytes outside them.
pub fn to_document(grf: &Grf<'_>) -> GrfDocument {
    let bytes = grf.bytes();
    let table_at = (HEADER_SIZE as u64).saturating_add(grf.header.table_offset);
    let table_end = match grf.layout {
        Layout::V1 => bytes.len() as u64,
        Layout::V2 => table_at + 8 + grf.table_packed.len() as u64,
        Layout::V3 => table_at + 12 + grf.table_packed.len() as u64,
    };
    let mut covered = vec![(0, HEADER_SIZE as u64), (table_at, table_end)];
    let mut first_at: HashMap<(u64, u64), usize> = HashMap::new();
    let entries = grf
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let rec = e.record;
            let cipher = grf.cipher(i);
            let mut data = None;
            let mut same_as = None;
            if rec.is_file() {
                let start = rec.data_start();
                let len = rec.stored_len(cipher.is_some());
                covered.push((start, start.saturating_add(len)));
                match first_at.get(&(rec.offset, len)) {
                    Some(&j) => same_as = Some(j),
                    None => {
                        first_at.insert((rec.offset, len), i);
                        data = Some(Base64(grf.stored(i).to_vec()));
                    }
                }
            }
            GrfDocumentEntry {
                name: e.name.clone(),
                name_bytes: (!e.name_exact).then(|| Base64(e.name_raw.clone())),
                name_field: e.name_field.clone().map(Base64),
                record: rec,
                cipher: cipher.map(StoredCipher::of),
                data,
                same_as,
            }
        })
        .collect();
    GrfDocument {
        format: super::FORMAT_ID.into(),
        header: grf.header,
        file_size: bytes.len() as u64,
        table: GrfTableDocument {
            packed: (grf.layout != Layout::V1).then(|| Base64(grf.table_packed.to_vec())),
            reserved: (grf.table_reserved != 0).then_some(grf.table_reserved),
        },
        entries,
        table_trailing: (!grf.table_trailing.is_empty()).then(|| Base64(grf.table_trailing.clone())),
        gaps: crate::layout::gaps(bytes, covered),
    }
}

/// The JSON of `relic convert x.grf --to json`: the [`GrfDocument`] with the signature in
/// `header.signature` (kept beside the document's types, which do not hold it), so that `relic pack` writes
/// the same first bytes back. An archive larger than `--max-entry-size` is refused: the document holds
/// every stored byte, so it would take the whole archive (several GiB for a client's `data.grf`) in memory,
/// where extraction holds one entry at a time.
pub fn to_json(grf: &Grf<'_>) -> Result<serde_json::Value> {
    let limit = crate::limits::current().max_entry_size;
    let size = grf.bytes().len() as u64;
    if size > limit {
        return Err(Error::limit(
            super::FORMAT_ID,
            "file_size",
            0,
            format!(
                "a {size}-byte archive is more than the {limit} bytes one JSON document holds (it keeps every \
                 entry's bytes in memory); extract it and pack the folder instead, or raise --max-entry-size"
            ),
        ));
    }
    let mut value = crate::registry::document_json(super::FORMAT_ID, &to_document(grf))?;
    if let Some(header) = value.get_mut("header").and_then(serde_json::Value::as_object_mut) {
        header.insert(SIGNATURE_FIELD.into(), serde_json::Value::String(grf.signature.name().into()));
    }
    Ok(value)
}

/// The key of the signature in the JSON's `header`.
const SIGNATURE_FIELD: &str = "signature";

/// The document and signature of the JSON [`to_json`] writes; a document without `header.signature` (from
/// relic before it read `Event Horizon` archives) is signed `Master of Magic`.
pub fn from_json(mut value: serde_json::Value) -> Result<(GrfDocument, Signature)> {
    let field =
        value.get_mut("header").and_then(serde_json::Value::as_object_mut).and_then(|h| h.remove(SIGNATURE_FIELD));
    let signature = match field {
        None => Signature::MasterOfMagic,
        Some(v) => serde_json::from_value(v).map_err(|e| {
            crate::registry::json_error(
                super::FORMAT_ID,
                "header.signature",
                &format!("{e} (`Master of Magic` or `Event Horizon`)"),
            )
        })?,
    };
    Ok((crate::registry::document_from_json(super::FORMAT_ID, value)?, signature))
}

/// Header summary for `relic info`.
pub fn info(grf: &Grf<'_>) -> serde_json::Value {
    summary_info(&Summary {
        signature: grf.signature,
        header: grf.header,
        layout: grf.layout,
        entries: &grf.entries,
        table_packed_size: grf.table_packed_size,
        table_real_size: grf.table_real_size,
        file_size: grf.bytes().len() as u64,
    })
}

/// What `relic info` summarises: the header and table, which an archive in memory ([`Grf`]) and one read
/// in slices ([`super::SlicedGrf`]) both hold.
pub(super) struct Summary<'e> {
    pub signature: Signature,
    pub header: GrfHeader,
    pub layout: Layout,
    pub entries: &'e [GrfEntry],
    pub table_packed_size: u64,
    pub table_real_size: u64,
    pub file_size: u64,
}

/// The JSON of [`info`] for either kind of archive.
pub(super) fn summary_info(s: &Summary<'_>) -> serde_json::Value {
    let files = s.entries.iter().filter(|e| e.record.is_file());
    let enciphered = files.clone().filter(|e| e.record.cipher(s.layout, &e.name_raw).is_some()).count();
    let real: u64 = files.clone().map(|e| u64::from(e.record.real_size)).sum();
    let packed: u64 = files.clone().map(|e| u64::from(e.record.compressed_size)).sum();
    let file_count = files.count();
    let layout = match s.layout {
        Layout::V1 => "1.x: DES-enciphered names and entries, plain file table, 32-bit offsets",
        Layout::V2 => "0x200: zlib-compressed file table, 32-bit offsets",
        Layout::V3 => "0x300: zlib-compressed file table, 64-bit offsets",
    };
    let header = if s.header.is_wide() {
        "64-bit table offset at 0x1E, entry count at 0x26"
    } else {
        "32-bit table offset at 0x1E, seed at 0x22, entry count + seed + 7 at 0x26"
    };
    json!({
        "format": super::FORMAT_ID,
        "version": format!("0x{:X}", s.header.version),
        "signature": s.signature.name(),
        "header": header,
        "layout": layout,
        "entries": s.entries.len(),
        "files": file_count,
        "folders": s.entries.len() - file_count,
        "encrypted_entries": enciphered,
        "seed": s.header.seed,
        "table_offset": (HEADER_SIZE as u64).saturating_add(s.header.table_offset),
        "table_packed_size": s.table_packed_size,
        "table_real_size": s.table_real_size,
        "file_size": s.file_size,
        "content_bytes": real,
        "stored_bytes": packed,
    })
}
