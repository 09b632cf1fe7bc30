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
            name: Cow::Owned(e.name.clone()),
            path: Cow::Owned(e.name.replace('\\', "/")),
            size: u64::from(e.record.real_size),
            modified: None,
            data: grf.entry_data(i),
            record: None,
        })
        .collect()
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

/// Header summary for `relic info`.
pub fn info(grf: &Grf<'_>) -> serde_json::Value {
    let files = grf.entries.iter().enumerate().filter(|(_, e)| e.record.is_file());
    let enciphered = files.clone().filter(|&(i, _)| grf.cipher(i).is_some()).count();
    let real: u64 = files.clone().map(|(_, e)| u64::from(e.record.real_size)).sum();
    let packed: u64 = files.clone().map(|(_, e)| u64::from(e.record.compressed_size)).sum();
    let layout = match grf.layout {
        Layout::V1 => "1.x: DES-enciphered names and entries, plain file table, 32-bit offsets",
        Layout::V2 => "0x200: zlib-compressed file table, 32-bit offsets",
        Layout::V3 => "0x300: zlib-compressed file table, 64-bit offsets",
    };
    json!({
        "format": super::FORMAT_ID,
        "version": format!("0x{:X}", grf.header.version),
        "layout": layout,
        "entries": grf.len(),
        "files": grf.file_count(),
        "folders": grf.len() - grf.file_count(),
        "encrypted_entries": enciphered,
        "seed": grf.header.seed,
        "table_offset": (HEADER_SIZE as u64).saturating_add(grf.header.table_offset),
        "table_packed_size": grf.table_packed_size,
        "table_real_size": grf.table_real_size,
        "file_size": grf.bytes().len(),
        "content_bytes": real,
        "stored_bytes": packed,
    })
}
