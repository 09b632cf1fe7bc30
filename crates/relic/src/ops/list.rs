//! `relic ls`: an archive's entries, nested archives flattened with `--recursive`.

use std::path::Path;

use serde::Serialize;

use crate::asset::{Entry, EntryData, SNIFF_BYTES};
use crate::error::{Error, Result};
use crate::paths::{self};
use crate::reader::MAX_DEPTH;
use crate::registry::{self, Format};

use super::*;

#[derive(Debug, Clone, Serialize)]
pub struct ListedEntry {
    /// Original name (nested names joined with `/`).
    pub name: String,
    /// Relative extraction path with `/`.
    pub path: String,
    pub size: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<u64>,
    /// The entry's format, when relic knows it.
    pub format: Option<&'static str>,
    /// Set when `--recursive` descended into this entry (its entries follow, prefixed with its name).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub nested: bool,
    /// Record type, id and group, for record containers (Drakan SRSC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<crate::asset::RecordInfo>,
}

/// An entry with its place in a (possibly nested) archive. Its bytes are not decoded here: listing only
/// inflates the head of a compressed entry to sniff its format, and extraction decodes one entry at a time.
pub(super) struct FlatEntry<'a> {
    pub(super) name: String,
    pub(super) path: String,
    pub(super) size: u64,
    pub(super) modified: Option<u64>,
    pub(super) format: Option<&'static Format>,
    pub(super) data: EntryData<'a>,
    pub(super) nested: bool,
    pub(super) record: Option<crate::asset::RecordInfo>,
}

/// An archive's entries (an error for a format that is not an archive).
pub fn archive_entries<'a>(format: &Format, data: &'a [u8], name: &str) -> Result<Vec<Entry<'a>>> {
    format
        .codec
        .entries(data, name)
        .unwrap_or_else(|| Err(Error::Unsupported(format!("{} is not an archive", format.id))))
}

/// Flattens an archive's entries; with `recursive`, nested archives are expanded after their own entry.
pub(super) fn flatten<'a>(
    format: &Format,
    data: &'a [u8],
    archive_name: &str,
    prefix: (&str, &str),
    recursive: bool,
    depth: u32,
    out: &mut Vec<FlatEntry<'a>>,
) -> Result<()> {
    check_depth(format, archive_name, depth)?;
    let entries = archive_entries(format, data, archive_name)?;
    out.reserve(entries.len());
    // Identifying entries (a compressed entry's head is inflated for it) is most of a listing's work:
    // spread it over the cores. An entry whose head cannot be decoded is identified by its name alone;
    // its error shows when it is extracted.
    let sniff = |entry: &Entry<'_>| {
        let head = entry.data.head(SNIFF_BYTES).unwrap_or_default();
        registry::sniff(&head, &entry.name).map(|(f, _)| f)
    };
    let formats: Vec<Option<&'static Format>> = if entries.len() >= 4096 {
        use rayon::prelude::*;
        entries.par_iter().map(sniff).collect()
    } else {
        entries.iter().map(sniff).collect()
    };
    for (entry, fmt) in entries.into_iter().zip(formats) {
        // The entry's own name names a nested archive when it is descended into.
        let inner_name = (recursive && fmt.is_some_and(|f| f.is_archive())).then(|| entry.name.clone());
        // Top-level names move as they are; nested ones get their archive's prefix.
        let join = |prefix: &str, s: String| if prefix.is_empty() { s } else { format!("{prefix}{s}") };
        let name = join(prefix.0, entry.name);
        let path = join(prefix.1, entry.path);
        let at = out.len();
        let stored = match entry.data {
            EntryData::Stored(b) => Some(b),
            _ => None,
        };
        out.push(FlatEntry {
            name,
            path,
            size: entry.size,
            modified: entry.modified,
            format: fmt,
            data: entry.data,
            nested: false,
            record: entry.record,
        });
        let Some(inner) = fmt.filter(|f| recursive && f.is_archive()) else { continue };
        // Only stored entries are descended into: their entries borrow the outer archive's bytes.
        let Some(data_ref) = stored else { continue };
        // A nested archive that does not parse stays a plain file; one nested too deep is an error.
        let mut children = Vec::new();
        let (n, p) = (format!("{}/", out[at].name), format!("{}/", out[at].path));
        let inner_name = inner_name.unwrap_or_default();
        match flatten(inner, data_ref, &inner_name, (&n, &p), true, depth + 1, &mut children) {
            Ok(()) => {
                out[at].nested = true;
                out.extend(children);
            }
            Err(e @ Error::TooDeep(_)) => return Err(e),
            Err(_) => {}
        }
    }
    Ok(())
}

/// Archives nest at most [`MAX_DEPTH`] deep; deeper is an error, never a silent stop.
pub fn check_depth(format: &Format, name: &str, depth: u32) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::TooDeep(format!(
            "{}: `{}` is nested more than {MAX_DEPTH} archives deep; relic stops there",
            format.id,
            paths::display_name(name)
        )));
    }
    Ok(())
}

/// Lists an archive.
pub fn list(path: &Path, recursive: bool) -> Result<Vec<ListedEntry>> {
    let (data, format) = open_known(path).map_err(|e| e.in_file(path))?;
    let mut flat = Vec::new();
    flatten(format, &data, &path.to_string_lossy(), ("", ""), recursive, 0, &mut flat).map_err(|e| e.in_file(path))?;
    Ok(flat
        .into_iter()
        .map(|e| ListedEntry {
            name: e.name,
            path: e.path,
            size: e.size,
            modified: e.modified,
            format: e.format.map(|f| f.id),
            nested: e.nested,
            record: e.record,
        })
        .collect())
}
