//! SRSC to the common model: records as archive entries (named by group path, type, id and name), the
//! lossless JSON document (string records as text), the extraction directory that `pack` rebuilds a file
//! from, the strings a translator edits, and the info summary.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Entry, EntryData, RecordInfo};
use crate::bytes::Base64;
use crate::drakan::records::{self, strings, strings::StringBody};
use crate::error::{Error, Result};
use crate::reader::Reader;

/// The name a record carries in its body, for the types whose body starts with one (spec "Record types"):
/// group definitions, model names, sounds, sequences, animations and classes; the RFL reference gives its
/// file name.
pub fn record_name(record_type: u16, body: &[u8]) -> Option<String> {
    let mut r = Reader::new(FORMAT_ID, body);
    let stored = match record_type {
        0x0101 | 0x0201 | 0x0301 | 0x0312 | 0x0200 | 0x0302 | 0x0311 | 0x0501 | 0x0102 => {
            records::read_string(&mut r, "name").ok()?
        }
        0x0100 => {
            r.skip(8, "unknown").ok()?;
            records::read_string(&mut r, "rfl_path").ok()?
        }
        _ => return None,
    };
    let text = records::string_text(stored);
    let base = text.rsplit(['/', '\\']).next().unwrap_or(&text).to_string();
    (!base.is_empty()).then_some(base)
}

/// A name made safe as one path component: characters no file system takes become `_`, control characters
/// go, trailing dots and spaces go, Windows device names get a leading `_`, and it is at most 64 bytes.
pub fn file_component(name: &str) -> String {
    let mut out: String = name
        .chars()
        .filter(|c| !c.is_control())
        .map(|c| if matches!(c, '/' | '\\' | ':' | '<' | '>' | '"' | '|' | '?' | '*') { '_' } else { c })
        .collect();
    while out.len() > 64 {
        out.pop();
    }
    let trimmed = out.trim_end_matches(['.', ' ']).trim_start().to_string();
    if trimmed.is_empty() || trimmed == "." || trimmed == ".." {
        return String::new();
    }
    if crate::paths::safe_relative_path(&trimmed).is_err() {
        return format!("_{trimmed}");
    }
    trimmed
}

/// Group ids resolved to folder paths (spec "Record ID and grouping"): each group definition record's id is
/// a group, its own group its parent. Sibling groups with the same name get their id appended; a group id
/// with no definition (later Riot games, docs/formats/drakan.md#srsc-later-riot) is `group_<id>`; cycles stop at the depth limit.
pub fn group_paths(srsc: &Srsc<'_>) -> HashMap<u16, String> {
    let mut defs: HashMap<u16, (u16, String)> = HashMap::new();
    for (i, e) in srsc.entries.iter().enumerate() {
        if records::is_group_definition(e.record_type) && e.id != 0 {
            let name = record_name(e.record_type, srsc.body(i)).map(|n| file_component(&n)).unwrap_or_default();
            defs.entry(e.id).or_insert((e.group, name));
        }
    }
    // Unique names among siblings.
    let mut seen: HashMap<(u16, String), usize> = HashMap::new();
    for (parent, name) in defs.values() {
        *seen.entry((*parent, name.to_lowercase())).or_default() += 1;
    }
    let component = |id: u16| -> String {
        match defs.get(&id) {
            Some((parent, name)) if !name.is_empty() && seen.get(&(*parent, name.to_lowercase())) == Some(&1) => {
                name.clone()
            }
            Some((_, name)) if !name.is_empty() => format!("{name}_{id}"),
            _ => format!("group_{id}"),
        }
    };
    let mut out = HashMap::new();
    let ids: Vec<u16> = srsc.entries.iter().map(|e| e.group).chain(defs.keys().copied()).collect();
    for id in ids {
        if id == 0 || out.contains_key(&id) {
            continue;
        }
        let mut parts = Vec::new();
        let mut at = id;
        while at != 0 && parts.len() <= crate::reader::MAX_DEPTH as usize {
            parts.push(component(at));
            at = defs.get(&at).map_or(0, |(parent, _)| *parent);
        }
        parts.reverse();
        out.insert(id, parts.join("/"));
    }
    out
}

/// The extraction path of record `i`: `<group path>/<type>_<id>[_<name>].bin` (type in hex).
fn entry_path(srsc: &Srsc<'_>, groups: &HashMap<u16, String>, i: usize) -> String {
    let Some(e) = srsc.entries.get(i) else { return String::new() };
    let name = record_name(e.record_type, srsc.body(i)).map(|n| file_component(&n)).filter(|n| !n.is_empty());
    let file = match name {
        Some(n) => format!("{:04X}_{}_{n}.bin", e.record_type, e.id),
        None => format!("{:04X}_{}.bin", e.record_type, e.id),
    };
    match groups.get(&e.group) {
        Some(g) if !g.is_empty() => format!("{g}/{file}"),
        _ => file,
    }
}

/// The records as archive entries, in directory order, borrowing their bodies.
pub fn entries<'a>(srsc: &Srsc<'a>) -> Vec<Entry<'a>> {
    let groups = group_paths(srsc);
    let mut paths_seen: HashMap<String, usize> = HashMap::new();
    (0..srsc.entries.len())
        .filter_map(|i| {
            let e = srsc.entries.get(i)?;
            let mut path = entry_path(srsc, &groups, i);
            // Two records with the same type, id and group (a damaged or odd file) must not meet on disk.
            let n = paths_seen.entry(path.to_lowercase()).or_default();
            *n += 1;
            if *n > 1 {
                path = format!("{}.{n}.bin", path.trim_end_matches(".bin"));
            }
            let name = path.rsplit('/').next().unwrap_or(&path).to_string();
            Some(Entry {
                name_raw: Cow::Owned(name.clone().into_bytes()),
                name: Cow::Owned(name),
                path: Cow::Owned(path),
                size: u64::from(e.size),
                modified: None,
                data: EntryData::Stored(srsc.body(i)),
                record: Some(Box::new(RecordInfo {
                    record_type: format!("0x{:04X}", e.record_type),
                    type_name: records::type_name(e.record_type),
                    id: u32::from(e.id),
                    group: groups.get(&e.group).cloned().unwrap_or_default(),
                })),
            })
        })
        .collect()
}

/// The lossless document: string records as text where the text gives their bytes back (0x0400
/// deciphered), every other body as base64, shared bodies once.
pub fn to_document(srsc: &Srsc<'_>) -> SrscDocument {
    to_document_in(srsc, encoding_rs::WINDOWS_1252)
}

/// The lossless document with string records read in the code page `enc` (recorded in the document when
/// it is not Windows-1252, so that `pack` uses it too).
pub fn to_document_in(srsc: &Srsc<'_>, enc: &'static encoding_rs::Encoding) -> SrscDocument {
    let bytes = srsc.bytes;
    let dir_at = u64::from(srsc.header.directory_offset);
    let mut covered = vec![(0, HEADER_SIZE as u64), (dir_at, dir_at + srsc.entries.len() as u64 * ENTRY_SIZE as u64)];
    let mut first: HashMap<(u32, u32), usize> = HashMap::new();
    let records = srsc
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            covered.push((u64::from(e.offset), u64::from(e.offset) + u64::from(e.size)));
            let body = srsc.body(i);
            let mut rec = SrscDocumentRecord {
                entry: *e,
                type_name: records::type_name(e.record_type).map(str::to_string),
                text: None,
                data: None,
                same_as: None,
            };
            if e.size > 0 {
                if let Some(&j) = first.get(&(e.offset, e.size)) {
                    rec.same_as = Some(j);
                    return rec;
                }
                first.insert((e.offset, e.size), i);
            }
            match is_string(e.record_type).then(|| strings::read_body_in(enc, e.record_type, body)) {
                Some(StringBody::Text { text, exact: true }) => rec.text = Some(text),
                Some(StringBody::Text { text, exact: false }) => {
                    // The text shows what the body says; the bytes keep what it is.
                    rec.text = Some(text);
                    rec.data = Some(Base64(body.to_vec()));
                }
                _ => rec.data = Some(Base64(body.to_vec())),
            }
            rec
        })
        .collect();
    SrscDocument {
        format: FORMAT_ID.into(),
        header: srsc.header,
        file_size: bytes.len() as u64,
        records,
        gaps: crate::layout::gaps(bytes, covered),
        texture_order: None,
        code_page: (enc != encoding_rs::WINDOWS_1252).then(|| strings::code_page_name(enc)),
    }
}

fn is_string(record_type: u16) -> bool {
    matches!(record_type, strings::ENCIPHERED | strings::PLAIN)
}

/// The body a document record's `text` stands for (see [`strings::text_body`]); with `data` beside it (a
/// body the text alone does not give back), the data is kept while the text is unchanged.
pub fn text_body(record_type: u16, text: &str, data: Option<&[u8]>) -> Result<Vec<u8>> {
    text_body_in(encoding_rs::WINDOWS_1252, record_type, text, data)
}

/// [`text_body`] in the code page `enc`.
pub fn text_body_in(
    enc: &'static encoding_rs::Encoding,
    record_type: u16,
    text: &str,
    data: Option<&[u8]>,
) -> Result<Vec<u8>> {
    if !is_string(record_type) {
        return Err(Error::refused(FORMAT_ID, "text", format!("record type 0x{record_type:04X} holds no text")));
    }
    if let Some(data) = data {
        if matches!(strings::read_body_in(enc, record_type, data), StringBody::Text { text: t, .. } if t == text) {
            return Ok(data.to_vec());
        }
    }
    strings::text_body_in(enc, record_type, text)
}

/// The strings a translator edits: `{id: text}` for every string record that reads as text, in directory
/// order. A plain-text record whose id an enciphered one already took is keyed `<id>@0x0401`.
pub fn strings_map(doc: &SrscDocument) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for r in &doc.records {
        let Some(text) = &r.text else { continue };
        out.insert(string_key(&out, r.entry), text.clone());
    }
    out
}

fn string_key(taken: &BTreeMap<String, String>, e: DirectoryEntry) -> String {
    let plain = e.id.to_string();
    if e.record_type == strings::ENCIPHERED || !taken.contains_key(&plain) {
        plain
    } else {
        format!("{}@0x{:04X}", e.id, e.record_type)
    }
}

/// Applies an edited strings map to a document: each key's text replaces the record's; keys that name no
/// string record are an error (a typo would otherwise be lost silently). Returns how many texts changed.
pub fn apply_strings(doc: &mut SrscDocument, edited: &BTreeMap<String, String>) -> Result<usize> {
    let mut keys = BTreeMap::new();
    for (i, r) in doc.records.iter().enumerate() {
        if r.text.is_some() {
            let key = string_key(&keys, r.entry);
            keys.insert(key, i.to_string());
        }
    }
    let mut changed = 0;
    for (key, text) in edited {
        let i: usize = keys
            .get(key)
            .and_then(|i| i.parse().ok())
            .ok_or_else(|| Error::Refused(format!("{FORMAT_ID}: strings: `{key}` names no string record")))?;
        if let Some(r) = doc.records.get_mut(i) {
            if r.text.as_deref() != Some(text) {
                r.text = Some(text.clone());
                changed += 1;
            }
        }
    }
    Ok(changed)
}

/// The directory `extract` writes beside the records (`directory.json`), from which `pack` rebuilds the
/// file with every record's type, id, group and order.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExtractedDirectory {
    pub format: String,
    #[serde(with = "hex_u16")]
    pub version: u16,
    /// Directory order.
    pub records: Vec<ExtractedRecord>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExtractedRecord {
    #[serde(rename = "type", with = "hex_u16")]
    pub record_type: u16,
    pub id: u16,
    pub group: u16,
    /// The extracted file, relative to the folder.
    pub path: String,
    /// Position of the body in the file's body order (Drakan packs bodies in directory order; this keeps
    /// any other order).
    pub body_order: usize,
}

pub const DIRECTORY_FILE: &str = "directory.json";
pub const DIRECTORY_FORMAT: &str = "drakan-srsc-directory";

pub fn extracted_directory(srsc: &Srsc<'_>) -> ExtractedDirectory {
    let entries = entries(srsc);
    let mut order: Vec<usize> = (0..srsc.entries.len()).collect();
    order.sort_by_key(|&i| (srsc.body_offset(i), i));
    let mut rank = vec![0; order.len()];
    for (pos, &i) in order.iter().enumerate() {
        if let Some(r) = rank.get_mut(i) {
            *r = pos;
        }
    }
    ExtractedDirectory {
        format: DIRECTORY_FORMAT.into(),
        version: srsc.header.version,
        records: srsc
            .entries
            .iter()
            .zip(entries)
            .zip(rank)
            .map(|((e, entry), body_order)| ExtractedRecord {
                record_type: e.record_type,
                id: e.id,
                group: e.group,
                path: entry.path.into_owned(),
                body_order,
            })
            .collect(),
    }
}

/// Summary for `relic info`.
pub fn info(srsc: &Srsc<'_>) -> serde_json::Value {
    let mut types: BTreeMap<String, usize> = BTreeMap::new();
    for e in &srsc.entries {
        let name = records::type_name(e.record_type).map_or_else(|| "unknown".to_string(), str::to_string);
        *types.entry(format!("0x{:04X} {name}", e.record_type)).or_default() += 1;
    }
    let groups = srsc.entries.iter().filter(|e| records::is_group_definition(e.record_type)).count();
    let meet = super::shared::sharing(srsc);
    json!({
        "format": FORMAT_ID,
        "version": format!("0x{:04X}", srsc.header.version),
        "records": srsc.entries.len(),
        "groups": groups,
        "shared_bodies": meet.shared.len(),
        "overlapping_bodies": meet.overlapping.len(),
        "directory_offset": srsc.header.directory_offset,
        "file_size": srsc.bytes.len(),
        "record_types": types,
    })
}
