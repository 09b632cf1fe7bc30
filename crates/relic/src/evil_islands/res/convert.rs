//! RES to the common model: archive entries (zero-copy), the lossless JSON document and the info summary.

use std::borrow::Cow;

use serde_json::json;

use super::types::*;
use crate::asset::{Entry, EntryData};
use crate::bytes::Base64;
use crate::codec::text::{decode_exact, CP1251};
use crate::export::json::utc_iso8601;

/// Archives whose extensionless entries take the archive's extension (spec "Res": "concerns BON and ANM").
pub(super) const INHERITING_EXTENSIONS: [&str; 2] = ["bon", "anm"];

/// The archive's entries in file-table order. `archive_name` is the archive's own file name, used to give
/// extensionless entries of `.bon`/`.anm` archives their parent's extension in the extraction path.
pub fn entries<'a>(res: &Res<'a>, archive_name: &str) -> Vec<Entry<'a>> {
    let inherited = inherited_extension(archive_name);
    (0..res.len()).map(|i| entry(res, i, inherited.as_deref())).collect()
}

/// The same entries made when asked for, owning the parsed table (`relic ls` of 17,000 entries makes them on
/// every core and holds none longer than it takes to write it out).
pub struct EntryTable<'a> {
    res: Res<'a>,
    inherited: Option<String>,
}

impl<'a> EntryTable<'a> {
    pub fn new(res: Res<'a>, archive_name: &str) -> Self {
        EntryTable { res, inherited: inherited_extension(archive_name) }
    }
}

impl<'a> crate::registry::EntryTable<'a> for EntryTable<'a> {
    fn len(&self) -> usize {
        self.res.len()
    }
    fn entry(&self, i: usize) -> Option<Cow<'_, Entry<'a>>> {
        (i < self.res.len()).then(|| Cow::Owned(entry(&self.res, i, self.inherited.as_deref())))
    }
    fn prefetch(&self, entries: std::ops::Range<usize>) -> u8 {
        entries.fold(0, |acc, i| acc ^ self.res.data(i).first().copied().unwrap_or(0))
    }
}

/// The parent's extension extensionless entries take (lower case), for `.bon`/`.anm` archives.
fn inherited_extension(archive_name: &str) -> Option<String> {
    extension(archive_name)
        .filter(|ext| INHERITING_EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(ext)))
        .map(str::to_ascii_lowercase)
}

/// Record `i` as an archive entry, its name and (where it has no `\\`) its path borrowed from the archive.
fn entry<'a>(res: &Res<'a>, i: usize, inherited: Option<&str>) -> Entry<'a> {
    let raw = res.name(i);
    // (Only the text is needed here: cp1251 decodes every byte reversibly.) ASCII names, the usual case, are
    // borrowed from the archive.
    let name = crate::codec::text::decode_borrowed(CP1251, raw);
    let mut path = if name.contains('\\') { Cow::Owned(name.replace('\\', "/")) } else { name.clone() };
    if let Some(ext) = inherited {
        let base = path.rsplit('/').next().unwrap_or(&path);
        if !base.contains('.') {
            path = Cow::Owned(format!("{path}.{ext}"));
        }
    }
    let rec = res.records.get(i).copied();
    Entry {
        name_raw: Cow::Borrowed(raw),
        name,
        path,
        size: rec.map_or(0, |r| u64::from(r.size)),
        modified: rec.map(|r| u64::from(r.modified)),
        data: EntryData::Stored(res.data(i)),
        record: None,
    }
}

fn extension(name: &str) -> Option<&str> {
    let base = name.rsplit(['/', '\\']).next()?;
    base.rsplit_once('.').map(|(_, e)| e)
}

/// The lossless document: every record field, names, data, and any non-zero bytes outside them.
pub fn to_document(res: &Res<'_>) -> ResDocument {
    let bytes = res.bytes();
    let mut covered: Vec<(u64, u64)> =
        vec![(0, HEADER_SIZE as u64), (u64::from(res.header.filetable_offset), res.header.nametable_offset())];
    let names_at = res.header.nametable_offset();
    let mut first_at: std::collections::HashMap<(u32, u32), usize> = Default::default();
    let entries = res
        .records
        .iter()
        .enumerate()
        .map(|(i, rec)| {
            let raw = res.name(i);
            let (name, exact) = decode_exact(CP1251, raw);
            covered.push((
                names_at + u64::from(rec.name_offset),
                names_at + u64::from(rec.name_offset) + u64::from(rec.name_len),
            ));
            covered.push((u64::from(rec.offset), u64::from(rec.offset) + u64::from(rec.size)));
            let same_as = first_at.get(&(rec.offset, rec.size)).copied();
            if same_as.is_none() {
                first_at.insert((rec.offset, rec.size), i);
            }
            ResDocumentEntry {
                name,
                name_bytes: (!exact).then(|| Base64(raw.to_vec())),
                record: *rec,
                data: same_as.is_none().then(|| Base64(res.data(i).to_vec())),
                same_as,
            }
        })
        .collect();
    ResDocument {
        format: super::FORMAT_ID.into(),
        header: res.header,
        file_size: bytes.len() as u64,
        entries,
        gaps: crate::layout::gaps(bytes, covered),
    }
}

/// Header summary for `relic info`.
pub fn info(res: &Res<'_>) -> serde_json::Value {
    let unique: std::collections::HashSet<u32> = res.records.iter().map(|r| r.offset).collect();
    let stored: u64 = res.records.iter().map(|r| u64::from(r.size)).sum();
    let unreachable = res.unreachable();
    let times = res.records.iter().map(|r| r.modified);
    json!({
        "format": super::FORMAT_ID,
        "entries": res.len(),
        "filetable_offset": res.header.filetable_offset,
        "nametable_size": res.header.nametable_size,
        "file_size": res.bytes().len(),
        "content_bytes": stored,
        "distinct_data_ranges": unique.len(),
        "unreachable_by_hash": unreachable.len(),
        "oldest_time": times.clone().min(),
        "oldest_time_utc": times.clone().min().map(|t| utc_iso8601(t.into())),
        "newest_time": times.clone().max(),
        "newest_time_utc": times.max().map(|t| utc_iso8601(t.into())),
    })
}
