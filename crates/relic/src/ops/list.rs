//! `relic ls`: an archive's entries, nested archives flattened with `--recursive`.

use std::borrow::Cow;
use std::path::Path;

use serde::Serialize;

use crate::asset::{Entry, EntryData, SNIFF_BYTES};
use crate::error::{Error, Result};
use crate::paths::{self};
use crate::reader::MAX_DEPTH;
use crate::registry::{self, Format};

use super::*;

#[derive(Debug, Clone, Serialize)]
pub struct ListedEntry<'a> {
    /// Original name (nested names joined with `/`).
    pub name: Cow<'a, str>,
    /// Relative extraction path with `/`.
    pub path: Cow<'a, str>,
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
    pub record: Option<Box<crate::asset::RecordInfo>>,
}

impl ListedEntry<'_> {
    /// The entry with its own copies of the names (it no longer borrows the archive).
    pub fn into_owned(self) -> ListedEntry<'static> {
        ListedEntry {
            name: Cow::Owned(self.name.into_owned()),
            path: Cow::Owned(self.path.into_owned()),
            size: self.size,
            modified: self.modified,
            format: self.format,
            nested: self.nested,
            record: self.record,
        }
    }
}

/// An entry with its place in a (possibly nested) archive. Its bytes are not decoded here: listing only
/// inflates the head of a compressed entry to sniff its format, and extraction decodes one entry at a time.
pub(super) struct FlatEntry<'a> {
    /// The entry as its archive gives it; a nested entry's name and path carry its archive's prefix.
    pub(super) entry: Entry<'a>,
    pub(super) format: Option<&'static Format>,
    pub(super) nested: bool,
}

impl<'a> std::ops::Deref for FlatEntry<'a> {
    type Target = Entry<'a>;
    fn deref(&self) -> &Entry<'a> {
        &self.entry
    }
}

/// How `ls` shows a flattened entry (the fields of [`ListedEntry`], borrowed).
#[derive(Serialize)]
struct ListedView<'b> {
    name: &'b str,
    path: &'b str,
    size: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    modified: Option<u64>,
    format: Option<&'static str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    nested: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    record: Option<&'b crate::asset::RecordInfo>,
}

impl FlatEntry<'_> {
    fn view(&self) -> ListedView<'_> {
        ListedView {
            name: &self.entry.name,
            path: &self.entry.path,
            size: self.entry.size,
            modified: self.entry.modified,
            format: self.format.map(|f| f.id),
            nested: self.nested,
            record: self.entry.record.as_deref(),
        }
    }

    fn into_listed(self) -> ListedEntry<'static> {
        ListedEntry {
            name: Cow::Owned(self.entry.name.into_owned()),
            path: Cow::Owned(self.entry.path.into_owned()),
            size: self.entry.size,
            modified: self.entry.modified,
            format: self.format.map(|f| f.id),
            nested: self.nested,
            record: self.entry.record,
        }
    }
}

/// An archive's entries (an error for a format that is not an archive).
pub fn archive_entries<'a>(format: &Format, data: &'a [u8], name: &str) -> Result<Vec<Entry<'a>>> {
    format
        .codec
        .entries(data, name)
        .unwrap_or_else(|| Err(Error::Unsupported(format!("{} is not an archive", format.id))))
}

/// Where [`flatten`] hands the entries, a batch at a time and in order: a listing writes each batch out
/// (and may leave it in the vector), extraction takes them. The vector is cleared after each call.
pub(super) type Sink<'s, 'a> = dyn FnMut(&mut Vec<FlatEntry<'a>>) -> Result<()> + 's;

/// Entries made and identified at a time by [`flatten`], so a large table is never held whole.
const CHUNK: usize = 2048;

/// Flattens an archive's entries into `sink`; with `recursive`, nested archives are expanded after their own
/// entry. Names and paths are handed on as the format made them (borrowed from the archive where it could).
pub(super) fn flatten<'a>(
    format: &Format,
    data: &'a [u8],
    archive_name: &str,
    prefix: (&str, &str),
    recursive: bool,
    depth: u32,
    sink: &mut Sink<'_, 'a>,
) -> Result<()> {
    check_depth(format, archive_name, depth)?;
    let mut entries = format
        .codec
        .entries_lazy(data, archive_name)
        .unwrap_or_else(|| Err(Error::Unsupported(format!("{} is not an archive", format.id))))?;
    // Nested names get their archive's prefix; top-level ones are passed on as they are.
    let join = |prefix: &str, s: Cow<'a, str>| if prefix.is_empty() { s } else { Cow::Owned(format!("{prefix}{s}")) };
    let mut chunk: Vec<FlatEntry<'a>> = Vec::with_capacity(CHUNK);
    loop {
        chunk.extend(entries.by_ref().take(CHUNK).map(|mut entry| {
            entry.name = join(prefix.0, std::mem::take(&mut entry.name));
            entry.path = join(prefix.1, std::mem::take(&mut entry.path));
            FlatEntry { entry, format: None, nested: false }
        }));
        if chunk.is_empty() {
            return Ok(());
        }
        identify(&mut chunk);
        let descends = |e: &FlatEntry<'_>| {
            recursive && e.format.is_some_and(Format::is_archive) && matches!(e.entry.data, EntryData::Stored(_))
        };
        if !chunk.iter().any(descends) {
            sink(&mut chunk)?;
            chunk.clear();
            continue;
        }
        // Some entries are archives to descend into: their entries follow them.
        let mut out = Vec::with_capacity(chunk.len());
        for mut flat in chunk.drain(..) {
            let children = if descends(&flat) { nested_entries(&mut flat, prefix, depth)? } else { Vec::new() };
            out.push(flat);
            out.extend(children);
        }
        sink(&mut out)?;
    }
}

/// Identifies entries by their heads and names (a compressed entry's head is inflated for it), the most of
/// a listing's work: a full chunk is spread over the cores. An entry whose head cannot be decoded is
/// identified by its name alone; its error shows when it is extracted.
fn identify(chunk: &mut [FlatEntry<'_>]) {
    let sniff = |flat: &mut FlatEntry<'_>| {
        let head = flat.entry.data.head(SNIFF_BYTES).unwrap_or_default();
        flat.format = registry::sniff(&head, &flat.entry.name).map(|(f, _)| f);
    };
    if chunk.len() >= 1024 {
        use rayon::prelude::*;
        chunk.par_iter_mut().for_each(sniff);
    } else {
        chunk.iter_mut().for_each(sniff);
    }
}

/// The entries of a stored entry that is itself an archive, prefixed with its name, and marks it `nested`.
/// A nested archive that does not parse stays a plain file (no entries); one nested too deep is an error.
fn nested_entries<'a>(flat: &mut FlatEntry<'a>, prefix: (&str, &str), depth: u32) -> Result<Vec<FlatEntry<'a>>> {
    let (Some(inner), EntryData::Stored(bytes)) = (flat.format, &flat.entry.data) else { return Ok(Vec::new()) };
    let bytes: &'a [u8] = bytes;
    let (n, p) = (format!("{}/", flat.entry.name), format!("{}/", flat.entry.path));
    // The entry's own name (without the prefix) names the nested archive in messages.
    let own_name = flat.entry.name.get(prefix.0.len()..).unwrap_or(&flat.entry.name).to_string();
    let mut children = Vec::new();
    let mut gather = |batch: &mut Vec<FlatEntry<'a>>| {
        children.append(batch);
        Ok(())
    };
    match flatten(inner, bytes, &own_name, (&n, &p), true, depth + 1, &mut gather) {
        Ok(()) => {
            flat.nested = true;
            Ok(children)
        }
        Err(e @ Error::TooDeep(_)) => Err(e),
        Err(_) => Ok(Vec::new()),
    }
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

/// Lists an archive, handing each entry to `each` as it is identified (nothing is gathered first, so a
/// listing's memory is a chunk of the archive's table, not a copy of it). An error `each` returns stops
/// the listing and is returned.
pub fn list_each(path: &Path, recursive: bool, each: &mut dyn FnMut(ListedEntry<'_>) -> Result<()>) -> Result<()> {
    let (data, format) = open_known(path).map_err(|e| e.in_file(path))?;
    let mut sink = |batch: &mut Vec<FlatEntry<'_>>| {
        batch.drain(..).try_for_each(|e| {
            let view = e.view();
            each(ListedEntry {
                name: Cow::Borrowed(view.name),
                path: Cow::Borrowed(view.path),
                size: view.size,
                modified: view.modified,
                format: view.format,
                nested: view.nested,
                record: e.entry.record.clone(),
            })
        })
    };
    flatten(format, &data, &path.to_string_lossy(), ("", ""), recursive, 0, &mut sink).map_err(|e| e.in_file(path))
}

/// Lists an archive into a vector (see [`list_each`]).
pub fn list(path: &Path, recursive: bool) -> Result<Vec<ListedEntry<'static>>> {
    let (data, format) = open_known(path).map_err(|e| e.in_file(path))?;
    let mut out = Vec::new();
    let mut sink = |batch: &mut Vec<FlatEntry<'_>>| {
        out.extend(batch.drain(..).map(FlatEntry::into_listed));
        Ok(())
    };
    flatten(format, &data, &path.to_string_lossy(), ("", ""), recursive, 0, &mut sink).map_err(|e| e.in_file(path))?;
    Ok(out)
}

/// Writes an archive's listing to `out` as a JSON array, one entry per line, a batch at a time as
/// [`flatten`] makes them: each batch is serialized on all cores, by reference, and written in order through
/// `out` (give it a buffered writer). A failed write is returned as `Error::Io` for `standard output`,
/// unwrapped, so a caller can tell a closed pipe.
pub fn list_json(path: &Path, recursive: bool, out: &mut dyn std::io::Write) -> Result<()> {
    use rayon::prelude::*;
    let (data, format) = open_known(path).map_err(|e| e.in_file(path))?;
    let mut started = false;
    let mut failed: Option<std::io::Error> = None;
    // Each entry is written as `,\n{…}`; the very first `,` becomes the array's `[`.
    let mut write_batch = |batch: &[FlatEntry<'_>]| -> std::io::Result<()> {
        let parts: Vec<std::io::Result<Vec<u8>>> = batch
            .par_chunks(1024)
            .map(|entries| {
                let mut buf = Vec::with_capacity(entries.len() * 160);
                for e in entries {
                    buf.extend_from_slice(b",\n");
                    serde_json::to_writer(&mut buf, &e.view())?;
                }
                Ok(buf)
            })
            .collect();
        for part in parts {
            let part = part?;
            let part = match (started, part.split_first()) {
                (false, Some((_, rest))) => {
                    started = true;
                    out.write_all(b"[")?;
                    rest
                }
                _ => &part[..],
            };
            out.write_all(part)?;
        }
        Ok(())
    };
    let mut sink = |batch: &mut Vec<FlatEntry<'_>>| {
        write_batch(batch).map_err(|e| {
            failed = Some(e);
            Error::Unsupported("writing the listing failed".into())
        })
    };
    let flattened = flatten(format, &data, &path.to_string_lossy(), ("", ""), recursive, 0, &mut sink);
    let to_stdout = |e| Error::io("standard output", e);
    if let Some(e) = failed {
        return Err(to_stdout(e));
    }
    flattened.map_err(|e| e.in_file(path))?;
    out.write_all(if started { b"\n]\n" } else { b"[]\n" }).map_err(to_stdout)
}
