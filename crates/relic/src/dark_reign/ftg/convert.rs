//! FTG to the common model: entries (duplicates kept, none overwriting another), the lossless document, the
//! extraction directory that `pack` rebuilds names and order from, and the info summary.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Entry, EntryData};
use crate::bytes::Base64;
use crate::layout::Gap;

/// Extraction paths: the names as stored; a later duplicate (names compare without ASCII case, as the game
/// looks them up) becomes `<stem>~<n>.<ext>`, so duplicates are extracted without overwriting each other.
pub fn paths(ftg: &Ftg<'_>) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    ftg.entries
        .iter()
        .map(|e| {
            let n = seen.entry(e.name.to_ascii_lowercase()).or_default();
            *n += 1;
            let name = e.name.replace('\\', "/");
            if *n == 1 {
                return name;
            }
            match name.rsplit_once('.') {
                Some((stem, ext)) if !stem.is_empty() => format!("{stem}~{n}.{ext}"),
                _ => format!("{name}~{n}"),
            }
        })
        .collect()
}

/// The entries in directory order, borrowing their data.
pub fn entries<'a>(ftg: &Ftg<'a>) -> Vec<Entry<'a>> {
    ftg.entries
        .iter()
        .zip(paths(ftg))
        .enumerate()
        .map(|(i, (e, path))| Entry {
            name_raw: Cow::Owned(e.name_field.split(|&b| b == 0).next().unwrap_or(&[]).to_vec()),
            name: Cow::Owned(e.name.clone()),
            path: Cow::Owned(path),
            size: u64::from(e.size),
            modified: None,
            data: EntryData::Stored(ftg.data(i)),
            record: None,
        })
        .collect()
}

/// The lossless document.
pub fn to_document(ftg: &Ftg<'_>) -> FtgDocument {
    let dir_at = u64::from(ftg.header.directory_offset);
    let mut covered = vec![(0, HEADER_SIZE as u64), (dir_at, dir_at + ftg.entries.len() as u64 * ENTRY_SIZE as u64)];
    let mut first: HashMap<(u32, u32), usize> = HashMap::new();
    let entries = ftg
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            covered.push((u64::from(e.offset), u64::from(e.offset) + u64::from(e.size)));
            let exact = super::write::name_field(&e.name).is_ok_and(|f| f == e.name_field);
            let mut doc = FtgDocumentEntry {
                name: e.name.clone(),
                name_field: (!exact).then(|| Base64(e.name_field.to_vec())),
                offset: e.offset,
                size: e.size,
                data: None,
                same_as: None,
            };
            match first.get(&(e.offset, e.size)) {
                Some(&j) if e.size > 0 => doc.same_as = Some(j),
                _ => {
                    first.insert((e.offset, e.size), i);
                    doc.data = Some(Base64(ftg.data(i).to_vec()));
                }
            }
            doc
        })
        .collect();
    FtgDocument {
        format: FORMAT_ID.into(),
        magic: if &ftg.header.magic == MAGIC { "BOTG".into() } else { "FTG\\0".into() },
        directory_offset: ftg.header.directory_offset,
        file_count: ftg.header.file_count,
        file_size: ftg.bytes.len() as u64,
        entries,
        gaps: crate::layout::gaps(ftg.bytes, covered),
    }
}

/// The directory `extract` writes beside the files (`directory.json`): each entry's name as stored and the
/// file it was extracted to, in directory order, and where its data lay, with the directory's place, the
/// file's size and the non-zero bytes outside every entry (`layout`), so that `pack` writes the archive
/// back byte for byte (docs/formats/dark-reign.md#ftg-directory: the directory's order need not be the data's). An older
/// `directory.json` without offsets and `layout` still packs: data in directory order from offset 12.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExtractedDirectory {
    pub format: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<ExtractedLayout>,
    pub entries: Vec<ExtractedEntry>,
}

/// Where the archive's directory lay, its size and its bytes outside header, data and directory.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExtractedLayout {
    pub directory_offset: u32,
    pub file_size: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gaps: Vec<Gap>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExtractedEntry {
    pub name: String,
    /// The 28-byte name field when the name alone does not give it back (bytes after the NUL); used only
    /// while it still holds `name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_field: Option<Base64>,
    pub path: String,
    /// Where the entry's data lay in the archive. The data order is the order of these offsets; an entry
    /// without one (added by hand) goes after the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u32>,
}

pub const DIRECTORY_FILE: &str = "directory.json";
pub const DIRECTORY_FORMAT: &str = "dr-ftg-directory";

pub fn extracted_directory(ftg: &Ftg<'_>) -> ExtractedDirectory {
    ExtractedDirectory {
        format: DIRECTORY_FORMAT.into(),
        layout: Some(ExtractedLayout {
            directory_offset: ftg.header.directory_offset,
            file_size: ftg.bytes.len() as u64,
            gaps: outside_bytes(ftg),
        }),
        entries: ftg
            .entries
            .iter()
            .zip(paths(ftg))
            .map(|(e, path)| {
                let exact = super::write::name_field(&e.name).is_ok_and(|f| f == e.name_field);
                ExtractedEntry {
                    name: e.name.clone(),
                    name_field: (!exact).then(|| Base64(e.name_field.to_vec())),
                    path,
                    offset: Some(e.offset),
                }
            })
            .collect(),
    }
}

/// The non-zero bytes outside header, directory and every entry's data.
fn outside_bytes(ftg: &Ftg<'_>) -> Vec<Gap> {
    let dir_at = u64::from(ftg.header.directory_offset);
    let mut covered = vec![(0, HEADER_SIZE as u64), (dir_at, dir_at + ftg.entries.len() as u64 * ENTRY_SIZE as u64)];
    covered.extend(ftg.entries.iter().map(|e| (u64::from(e.offset), u64::from(e.offset) + u64::from(e.size))));
    crate::layout::gaps(ftg.bytes, covered)
}

/// How the entries' data ranges meet (docs/formats/dark-reign.md#ftg-directory allows shared data): `shared` lists each entry whose
/// (offset, size) is an earlier entry's, with that entry; `overlapping`, each entry whose range overlaps
/// another's without being the same (one such other named). Entries of no data meet nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sharing {
    pub shared: Vec<(usize, usize)>,
    pub overlapping: Vec<(usize, usize)>,
}

pub fn sharing(ftg: &Ftg<'_>) -> Sharing {
    let (shared, overlapping) =
        crate::layout::meeting_ranges(ftg.entries.iter().enumerate().map(|(i, e)| (i, e.offset, e.size)));
    Sharing { shared, overlapping }
}

/// What `convert` says about shared and overlapping data (see [`sharing`]): each such entry is converted
/// on its own, as many times as it is listed.
pub fn sharing_notes(ftg: &Ftg<'_>) -> Vec<String> {
    let s = sharing(ftg);
    let name = |i: usize| ftg.entries.get(i).map_or("?", |e| e.name.as_str()).to_string();
    let mut notes = Vec::new();
    if let Some(&(i, j)) = s.shared.first() {
        notes.push(format!(
            "{FORMAT_ID}: {} entries have the very data of an earlier entry (`{}` that of `{}`{}); each is converted \
             as listed",
            s.shared.len(),
            name(i),
            name(j),
            if s.shared.len() > 1 { ", …" } else { "" }
        ));
    }
    if let Some(&(i, j)) = s.overlapping.first() {
        notes.push(format!(
            "{FORMAT_ID}: {} entries' data overlaps another's in part (`{}` and `{}`{})",
            s.overlapping.len(),
            name(i),
            name(j),
            if s.overlapping.len() > 1 { ", …" } else { "" }
        ));
    }
    notes
}

/// Summary for `relic info`.
pub fn info(ftg: &Ftg<'_>) -> serde_json::Value {
    let mut lower: HashMap<String, usize> = HashMap::new();
    for e in &ftg.entries {
        *lower.entry(e.name.to_ascii_lowercase()).or_default() += 1;
    }
    let duplicates = lower.values().filter(|&&n| n > 1).count();
    let in_order = ftg.entries.windows(2).all(|w| w.first().map(|a| a.offset) <= w.get(1).map(|b| b.offset));
    let meet = sharing(ftg);
    json!({
        "format": FORMAT_ID,
        "magic": if &ftg.header.magic == MAGIC { "BOTG" } else { "FTG\\0" },
        "files": ftg.entries.len(),
        "duplicate_names": duplicates,
        "data_in_directory_order": in_order,
        "shared_data": meet.shared.len(),
        "overlapping_data": meet.overlapping.len(),
        "directory_offset": ftg.header.directory_offset,
        "file_size": ftg.bytes.len(),
    })
}
