//! The operations behind the CLI, generic over the registry: identify, info, list, extract, convert, pack,
//! edit and check, one file each. Parallel work (rayon) happens here, across files and entries, so library users get
//! it too. Every operation writes through `paths` (no escape, no link followed, atomic, no clobber) and
//! within `limits`.

mod check;
mod convert;
mod edit;
mod extract;
mod list;
mod pack;
mod shard;

pub use check::{check, check_as, check_shard, check_summary, CheckItem};
pub use convert::{
    check_convert_request, convert, convert_in_memory, layout_root, ConvertReport, ConvertRequest, FailedItem,
    InMemory, ManifestItem,
};
pub use edit::{edit, AddSpec, EditMethod, EditReport, EditRequest};
pub use extract::{extract, extract_many, ExtractOptions, ExtractReport, ExtractedItem};
pub use list::{archive_entries, check_depth, list, list_each, list_each_as, list_json, list_json_as, ListedEntry};
pub use pack::{
    check_pack_version, collect_folder, is_system_litter, pack, CollectedFolder, NestedArchive, PackOptions,
    PackReport, NESTED_MARKER,
};
pub use shard::{merge_reports, read_files_from, Report, Shard};

use std::path::{Path, PathBuf};

use crate::parallel::prelude::*;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::registry::{self, Confidence, Format};
use crate::source;

/// Progress of long work, reported in bytes or items; the CLI draws a bar from it.
pub trait Progress: Sync {
    fn start(&self, _total: u64) {}
    fn advance(&self, _n: u64) {}
}

/// Progress that goes nowhere.
pub struct Quiet;
impl Progress for Quiet {}

#[derive(Debug, Clone, Serialize)]
pub struct Identified {
    pub path: String,
    pub format: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
}

/// Identifies files by magic, then extension. Unreadable files are reported with no format.
pub fn identify(paths: &[PathBuf]) -> Vec<Identified> {
    paths
        .par_iter()
        .map(|p| {
            let found = registry::identify_path(p).ok().flatten();
            Identified {
                path: p.display().to_string(),
                format: found.map(|(f, _)| f.id),
                confidence: found.map(|(_, c)| c),
            }
        })
        .collect()
}

/// Opens a file and finds its format, or says that no format matched.
fn open_known(path: &Path) -> Result<(source::Source, &'static Format)> {
    let data = source::open(path)?;
    let name = path.to_string_lossy();
    let (format, _) =
        registry::sniff(&data, &name).ok_or_else(|| Error::Unsupported(registry::unknown_reason(&name)))?;
    Ok((data, format))
}

/// Opens a file as `format` (`--format`), or finds its format as [`open_known`] does.
fn open_as(path: &Path, format: Option<&'static Format>) -> Result<(source::Source, &'static Format)> {
    match format {
        Some(f) => Ok((source::open(path)?, f)),
        None => open_known(path),
    }
}

/// Header summary of a file.
pub fn info(path: &Path) -> Result<(&'static Format, serde_json::Value)> {
    info_as(path, None)
}

/// Header summary of a file read as `format` (`--format`), or as the format it is identified as.
pub fn info_as(path: &Path, format: Option<&'static Format>) -> Result<(&'static Format, serde_json::Value)> {
    let run = || {
        let (data, format) = open_as(path, format)?;
        Ok((format, format.for_name(&path.to_string_lossy()).info(&data)?))
    };
    run().map_err(|e: Error| e.in_file(path))
}
