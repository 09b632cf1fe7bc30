//! `relic ls`: an archive's entries, nested archives flattened with `--recursive`.

use std::borrow::Cow;
use std::path::Path;

use serde::Serialize;

use crate::asset::{Entry, EntryData, SNIFF_BYTES};
use crate::error::{Error, Result};
use crate::registry::{self, EntryTable, Format};
pub use crate::registry::{archive_entries, check_depth};

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
    pub record: Option<Cow<'a, crate::asset::RecordInfo>>,
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
            record: self.record.map(|r| Cow::Owned(r.into_owned())),
        }
    }
}

/// An entry with its place in a (possibly nested) archive. Its bytes are not decoded here: listing only
/// inflates the head of a compressed entry to sniff its format, and extraction decodes one entry at a time.
pub(super) struct FlatEntry<'a> {
    /// The entry as its archive gives it; a nested entry's name and path carry its archive's prefix.
    pub(super) entry: Entry<'a>,
    /// The entry's format, when [`flatten`] was asked to identify entries and relic knows it.
    pub(super) format: Option<&'static Format>,
    pub(super) nested: bool,
}

impl<'a> std::ops::Deref for FlatEntry<'a> {
    type Target = Entry<'a>;
    fn deref(&self) -> &Entry<'a> {
        &self.entry
    }
}

impl FlatEntry<'_> {
    /// The entry as `ls` shows it, borrowing everything.
    fn listed(&self) -> ListedEntry<'_> {
        ListedEntry {
            name: Cow::Borrowed(&self.entry.name),
            path: Cow::Borrowed(&self.entry.path),
            size: self.entry.size,
            modified: self.entry.modified,
            format: self.format.map(|f| f.id),
            nested: self.nested,
            record: self.entry.record.as_deref().map(Cow::Borrowed),
        }
    }
}

/// Where [`flatten`] hands the entries, a batch at a time and in order: a listing writes each batch out
/// (and may leave it in the vector), extraction takes them. The vector is cleared after each call.
pub(super) type Sink<'s, 'a> = dyn FnMut(&mut Vec<FlatEntry<'a>>) -> Result<()> + 's;

/// Entries made and identified at a time by [`flatten`], so a large table is never held whole.
const CHUNK: usize = 2048;

/// Flattens an archive's entries into `sink`; with `recursive`, nested archives are expanded after their own
/// entry. Names and paths are handed on as the format made them (borrowed from the archive where it could).
/// Entries are identified when `identify` or `recursive` asks for it (descending needs their formats);
/// extraction does not ask.
pub(super) fn flatten<'a>(
    format: &Format,
    data: &'a [u8],
    archive_name: &str,
    prefix: (&str, &str),
    (recursive, identify): (bool, bool),
    depth: u32,
    sink: &mut Sink<'_, 'a>,
) -> Result<()> {
    check_depth(format, archive_name, depth)?;
    let table = entry_table(format, data, archive_name)?;
    let mut chunk: Vec<FlatEntry<'a>> = Vec::with_capacity(CHUNK.min(table.len()));
    for start in (0..table.len()).step_by(CHUNK) {
        chunk.extend((start..table.len().min(start + CHUNK)).filter_map(|i| {
            let mut entry = table.entry(i)?.into_owned();
            entry.name = join(prefix.0, std::mem::take(&mut entry.name));
            entry.path = join(prefix.1, std::mem::take(&mut entry.path));
            Some(FlatEntry { entry, format: None, nested: false })
        }));
        if !(identify || recursive) {
            sink(&mut chunk)?;
            chunk.clear();
            continue;
        }
        identify_all(&mut chunk);
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
    Ok(())
}

/// An archive's entries by index (an error for a format that is not an archive).
fn entry_table<'a>(format: &Format, data: &'a [u8], name: &str) -> Result<Box<dyn EntryTable<'a> + 'a>> {
    format
        .archive
        .map(|a| a.entry_table(data, name))
        .unwrap_or_else(|| Err(Error::Unsupported(format!("{} is not an archive", format.id))))
}

/// A nested entry's name or path: its archive's prefix, then its own (top-level ones are passed on as they
/// are).
fn join<'a>(prefix: &str, own: Cow<'a, str>) -> Cow<'a, str> {
    if prefix.is_empty() {
        own
    } else {
        Cow::Owned(format!("{prefix}{own}"))
    }
}

/// What descending into a nested archive gave: its error when it is nested too deep (never swallowed),
/// nothing when it does not parse (it stays a plain file).
fn descended<T>(result: Result<T>) -> Result<Option<T>> {
    match result {
        Ok(t) => Ok(Some(t)),
        Err(e @ Error::TooDeep(_)) => Err(e),
        Err(_) => Ok(None),
    }
}

/// Identifies entries by their heads and names (a compressed entry's head is inflated for it), the most of
/// a listing's work: a full chunk is spread over the cores. An entry whose head cannot be decoded is
/// identified by its name alone; its error shows when it is extracted.
fn identify_all(chunk: &mut [FlatEntry<'_>]) {
    let identify = |flat: &mut FlatEntry<'_>| {
        flat.format = sniff(&flat.entry);
    };
    if chunk.len() >= 1024 {
        use crate::parallel::prelude::*;
        chunk.par_iter_mut().for_each(identify);
    } else {
        chunk.iter_mut().for_each(identify);
    }
}

/// An entry's format from its head and name.
fn sniff(entry: &Entry<'_>) -> Option<&'static Format> {
    let head = entry.data.head(SNIFF_BYTES).unwrap_or_default();
    registry::sniff_sized(&head, &entry.name, entry.size).map(|(f, _)| f)
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
    let done = descended(flatten(inner, bytes, &own_name, (&n, &p), (true, true), depth + 1, &mut gather))?;
    flat.nested = done.is_some();
    Ok(if flat.nested { children } else { Vec::new() })
}

/// Lists an archive, handing each entry to `each` as it is identified (nothing is gathered first, so a
/// listing's memory is a chunk of the archive's table, not a copy of it). An error `each` returns stops
/// the listing and is returned.
pub fn list_each(path: &Path, recursive: bool, each: &mut dyn FnMut(ListedEntry<'_>) -> Result<()>) -> Result<()> {
    list_each_as(path, recursive, None, each)
}

/// [`list_each`] of an archive read as `format` (`--format`: a name or magic that does not say it), or as
/// the format it is identified as.
pub fn list_each_as(
    path: &Path,
    recursive: bool,
    format: Option<&'static Format>,
    each: &mut dyn FnMut(ListedEntry<'_>) -> Result<()>,
) -> Result<()> {
    // Not while an edit writes the table (a GRF edited in place).
    let _reading = crate::paths::lock_for_reading(path).map_err(|e| e.in_file(path))?;
    let (data, format) = open_as(path, format).map_err(|e| e.in_file(path))?;
    let mut sink = |batch: &mut Vec<FlatEntry<'_>>| batch.iter().try_for_each(|e| each(e.listed()));
    flatten(format, &data, &path.to_string_lossy(), ("", ""), (recursive, true), 0, &mut sink)
        .map_err(|e| e.in_file(path))
}

/// Lists an archive into a vector (see [`list_each`]).
pub fn list(path: &Path, recursive: bool) -> Result<Vec<ListedEntry<'static>>> {
    let mut out = Vec::new();
    list_each(path, recursive, &mut |e| {
        out.push(e.into_owned());
        Ok(())
    })?;
    Ok(out)
}

/// Writes an archive's listing to `out` as a JSON array, one entry per line. Blocks of entries are made,
/// identified and serialized on all cores straight from the archive's [`EntryTable`] (nothing is gathered
/// or moved), then written in order through `out` (give it a buffered writer). A failed write is returned
/// as `Error::Io` for `standard output`, unwrapped, so a caller can tell a closed pipe.
pub fn list_json(path: &Path, recursive: bool, out: &mut dyn std::io::Write) -> Result<()> {
    list_json_as(path, recursive, None, out)
}

/// [`list_json`] of an archive read as `format` (`--format`), or as the format it is identified as.
pub fn list_json_as(
    path: &Path,
    recursive: bool,
    format: Option<&'static Format>,
    out: &mut dyn std::io::Write,
) -> Result<()> {
    let _reading = crate::paths::lock_for_reading(path).map_err(|e| e.in_file(path))?;
    let (data, format) = open_as(path, format).map_err(|e| e.in_file(path))?;
    let mut started = false;
    let mut failed: Option<std::io::Error> = None;
    // Each entry comes as `,\n{…}`; the very first `,` becomes the array's `[`.
    let mut write = |part: Vec<u8>| -> std::io::Result<()> {
        let part = match (started, part.split_first()) {
            (false, Some((_, rest))) => {
                started = true;
                out.write_all(b"[")?;
                rest
            }
            _ => &part[..],
        };
        out.write_all(part)
    };
    let mut emit = |part: Vec<u8>| {
        write(part).map_err(|e| {
            failed = Some(e);
            Error::Unsupported("writing the listing failed".into())
        })
    };
    let listed = json_entries(format, &data, &path.to_string_lossy(), ("", ""), recursive, 0, &mut emit);
    let to_stdout = |e| Error::io("standard output", e);
    if let Some(e) = failed {
        return Err(to_stdout(e));
    }
    listed.map_err(|e| e.in_file(path))?;
    out.write_all(if started { b"\n]\n" } else { b"[]\n" }).map_err(to_stdout)
}

/// The JSON lines of an archive's entries (see [`list_json`]), handed to `emit` in order, a part per block
/// of entries; with `recursive`, a nested archive's lines follow its own entry's.
fn json_entries(
    format: &Format,
    data: &[u8],
    archive_name: &str,
    prefix: (&str, &str),
    recursive: bool,
    depth: u32,
    emit: &mut dyn FnMut(Vec<u8>) -> Result<()>,
) -> Result<()> {
    use crate::parallel::prelude::*;
    // Blocks small enough to stay in cache, and a group of them in flight at a time.
    const BLOCK: usize = 1024;
    const GROUP: usize = 8 * BLOCK;
    check_depth(format, archive_name, depth)?;
    let table = entry_table(format, data, archive_name)?;
    let block = |start: usize| -> Result<Vec<u8>> {
        let end = table.len().min(start + BLOCK);
        let mut buf = Vec::with_capacity((end - start) * 128);
        // Every entry's head is read to identify it: fetch them all at once first (on a cold cache this
        // saves more than a millisecond of a 17,000-entry listing).
        std::hint::black_box(table.prefetch(start..end));
        for i in start..end {
            let Some(entry) = table.entry(i) else { continue };
            let format = sniff(&entry);
            let (name, path) = (join(prefix.0, Cow::Borrowed(&entry.name)), join(prefix.1, Cow::Borrowed(&entry.path)));
            let mut children = Vec::new();
            let nested = match (format, &entry.data) {
                (Some(inner), EntryData::Stored(bytes)) if recursive && inner.is_archive() => {
                    let (n, p) = (format!("{name}/"), format!("{path}/"));
                    let mut gather = |part: Vec<u8>| {
                        children.extend_from_slice(&part);
                        Ok(())
                    };
                    descended(json_entries(inner, bytes, &entry.name, (&n, &p), true, depth + 1, &mut gather))?
                        .is_some()
                }
                _ => false,
            };
            if !nested {
                children.clear();
            }
            let view = ListedEntry {
                name,
                path,
                size: entry.size,
                modified: entry.modified,
                format: format.map(|f| f.id),
                nested,
                record: entry.record.as_deref().map(Cow::Borrowed),
            };
            buf.extend_from_slice(b",\n");
            serde_json::to_writer(&mut buf, &view).map_err(|e| Error::Unsupported(format!("listing: {e}")))?;
            buf.extend_from_slice(&children);
        }
        Ok(buf)
    };
    for group in (0..table.len()).step_by(GROUP) {
        let end = table.len().min(group + GROUP);
        let parts: Vec<Result<Vec<u8>>> =
            (group..end).step_by(BLOCK).collect::<Vec<_>>().into_par_iter().map(block).collect();
        for part in parts {
            emit(part?)?;
        }
    }
    Ok(())
}
