//! `relic pack drakan-srsc FOLDER`: a file from an extraction. With the `directory.json` that `extract`
//! writes, every record keeps its type, id, group and place (directory order and body order), and the
//! bodies come from the files (edited or not); without it, files named `<type>_<id>[_<name>].bin` are packed
//! in path order, their group taken from the group definition whose folder they sit in.

use std::collections::HashMap;

use super::convert::{self, ExtractedDirectory, DIRECTORY_FILE, DIRECTORY_FORMAT};
use super::types::VERSION_DRAKAN;
use super::write::{write_packed_in_order, NewRecord};
use super::FORMAT_ID;
use crate::drakan::records;
use crate::error::{Error, Result};
use crate::registry::{FolderFile, PackFolder};

pub fn from_folder(files: &[FolderFile]) -> Result<Vec<u8>> {
    let folder = PackFolder::new(files);
    if let Some(dir) = folder.index::<ExtractedDirectory>(DIRECTORY_FILE, DIRECTORY_FORMAT)? {
        folder.all_listed(DIRECTORY_FILE, dir.records.iter().map(|r| r.path.as_str()))?;
        let mut new = Vec::with_capacity(dir.records.len());
        for r in &dir.records {
            let body = folder.read(&r.path, DIRECTORY_FILE)?;
            new.push(NewRecord { record_type: r.record_type, id: r.id, group: r.group, body });
        }
        let mut order: Vec<usize> = (0..dir.records.len()).collect();
        order.sort_by_key(|&i| (dir.records.get(i).map_or(0, |r| r.body_order), i));
        return write_packed_in_order(dir.version, &new, &order);
    }
    // A folder `relic convert` wrote (a document beside PNGs and WAVs) packs from its document, which takes
    // the edited files from beside it and reports what it did: say so rather than read it as records.
    let top = files.iter().find(|f| !f.relative.contains('/') && f.relative.to_ascii_lowercase().ends_with(".json"));
    if let Some(folder) = top.and_then(|f| f.path.parent()) {
        if let Some(doc) = super::sources::documents_in(folder)?.first() {
            return Err(Error::Refused(format!(
                "{} is a folder `relic convert` wrote: pack its document, `relic pack {FORMAT_ID} {}` (it takes \
                 the edited PNGs, WAVs and strings from beside it)",
                folder.display(),
                doc.display()
            )));
        }
    }
    from_names(files)
}

/// `<type hex>_<id>[_<name>].bin` → (type, id).
pub(crate) fn parse_name(file_name: &str) -> Option<(u16, u16)> {
    let stem = file_name.strip_suffix(".bin")?;
    let mut parts = stem.splitn(3, '_');
    let record_type = u16::from_str_radix(parts.next()?, 16).ok()?;
    let id = parts.next()?.split('.').next()?.parse().ok()?;
    Some((record_type, id))
}

fn from_names(files: &[FolderFile]) -> Result<Vec<u8>> {
    let mut parsed = Vec::with_capacity(files.len());
    for f in files {
        let (folder, base) = f.relative.rsplit_once('/').unwrap_or(("", f.relative.as_str()));
        let (record_type, id) = parse_name(base).ok_or_else(|| {
            Error::Refused(format!(
                "{}: not a record file (`<type hex>_<id>[_<name>].bin`) and no {DIRECTORY_FILE} in the folder",
                f.path.display()
            ))
        })?;
        parsed.push((folder.to_string(), record_type, id, f.read()?));
    }
    // Group folders: a group definition in folder `P` named `N` is the group of the files in `P/N` (or
    // `P/N_<id>` when siblings share the name); `group_<id>` is a group with no definition.
    let mut group_of: HashMap<String, u16> = HashMap::new();
    for (folder, record_type, id, body) in &parsed {
        if records::is_group_definition(*record_type) {
            let name =
                convert::record_name(*record_type, body).map(|n| convert::file_component(&n)).unwrap_or_default();
            let path = if folder.is_empty() { name } else { format!("{folder}/{name}") };
            group_of.insert(format!("{path}_{id}"), *id);
            group_of.insert(path, *id);
        }
    }
    let undefined = |folder: &str| folder.rsplit('/').next()?.strip_prefix("group_")?.parse::<u16>().ok();
    let mut new = Vec::with_capacity(parsed.len());
    for (folder, record_type, id, body) in parsed {
        let group = if folder.is_empty() {
            0
        } else {
            group_of.get(&folder).copied().or_else(|| undefined(&folder)).ok_or_else(|| {
                Error::Refused(format!(
                    "{FORMAT_ID}: folder `{folder}` is no group (no group definition record names it)"
                ))
            })?
        };
        new.push(NewRecord { record_type, id, group, body });
    }
    super::write_packed(VERSION_DRAKAN, &new)
}
