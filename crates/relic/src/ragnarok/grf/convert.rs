//! GRF to the common model: archive entries (inflated on demand), the lossless JSON document and the info
//! summary.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::json;

use super::types::*;
use crate::asset::Entry;
use crate::bytes::Base64;

/// The archive's file entries in table order (folder records are left out: they hold no data). Paths use
/// `/` for the stored `\`; GRF keeps no times.
pub fn entries<'a>(grf: &Grf<'a>) -> Vec<Entry<'a>> {
    grf.entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.record.is_file())
        .map(|(i, e)| Entry {
            name_raw: Cow::Owned(e.name_raw.clone()),
            name: e.name.clone(),
            path: e.name.replace('\\', "/"),
            size: u64::from(e.record.real_size),
            modified: None,
            data: grf.entry_data(i),
            record: None,
        })
        .collect()
}

/// The lossless document: header, the compressed table as stored, every entry with its stored bytes, and
/// any non-zero bytes outside them.
pub fn to_document(grf: &Grf<'_>) -> GrfDocument {
    let bytes = grf.bytes();
    let table_at = HEADER_SIZE as u64 + u64::from(grf.header.table_offset);
    let mut covered = vec![(0, HEADER_SIZE as u64), (table_at, table_at + 8 + grf.table_packed.len() as u64)];
    let mut first_at: HashMap<(u32, u32), usize> = HashMap::new();
    let entries = grf
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let rec = e.record;
            let mut data = None;
            let mut same_as = None;
            if rec.is_file() {
                let start = rec.data_start();
                covered.push((start, start + u64::from(rec.compressed_size)));
                match first_at.get(&(rec.offset, rec.compressed_size)) {
                    Some(&j) => same_as = Some(j),
                    None => {
                        first_at.insert((rec.offset, rec.compressed_size), i);
                        data = Some(Base64(grf.stored(i).to_vec()));
                    }
                }
            }
            GrfDocumentEntry {
                name: e.name.clone(),
                name_bytes: (!e.name_exact).then(|| Base64(e.name_raw.clone())),
                record: rec,
                data,
                same_as,
            }
        })
        .collect();
    GrfDocument {
        format: super::FORMAT_ID.into(),
        header: grf.header,
        file_size: bytes.len() as u64,
        table: GrfTableDocument { packed: Some(Base64(grf.table_packed.to_vec())) },
        entries,
        table_trailing: (!grf.table_trailing.is_empty()).then(|| Base64(grf.table_trailing.clone())),
        gaps: crate::layout::gaps(bytes, covered),
    }
}

/// Header summary for `relic info`.
pub fn info(grf: &Grf<'_>) -> serde_json::Value {
    let files = grf.entries.iter().filter(|e| e.record.is_file());
    let encrypted = files.clone().filter(|e| e.record.is_encrypted()).count();
    let real: u64 = files.clone().map(|e| u64::from(e.record.real_size)).sum();
    let packed: u64 = files.clone().map(|e| u64::from(e.record.compressed_size)).sum();
    json!({
        "format": super::FORMAT_ID,
        "version": format!("0x{:X}", grf.header.version),
        "entries": grf.len(),
        "files": grf.file_count(),
        "folders": grf.len() - grf.file_count(),
        "encrypted_entries": encrypted,
        "seed": grf.header.seed,
        "table_offset": HEADER_SIZE as u64 + u64::from(grf.header.table_offset),
        "table_packed_size": grf.table_packed_size,
        "table_real_size": grf.table_real_size,
        "file_size": grf.bytes().len(),
        "content_bytes": real,
        "stored_bytes": packed,
    })
}
