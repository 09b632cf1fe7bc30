//! `relic check`: every file read and written back, reported as identical or not.

use std::path::{Path, PathBuf};

use crate::parallel::prelude::*;
use serde::Serialize;

use crate::registry;
use crate::source;

use super::*;

/// What `check` found for one file.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct CheckItem {
    pub path: String,
    pub format: Option<&'static str>,
    /// `identical` (read, written back byte for byte), `differs` (written back, other bytes), `read` (read
    /// but the format is not written), `failed` (not read or not written) or `unknown` (no format).
    pub outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// What the file needs and its folder lacks, though it reads and writes back: a Ragnarok model's
    /// textures not in its client folder (`ro-rsm: texture 'data\texture\x.bmp' not found (looked in …)`),
    /// one line each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Reads every file under the inputs (folders are walked), writes each back through its format's JSON
/// document, and reports whether the bytes come back identical: the conformance run over a game's files.
pub fn check(inputs: &[PathBuf], progress: &dyn Progress) -> Vec<CheckItem> {
    check_shard(inputs, None, progress)
}

/// [`check`] of the files of one shard (`--shard K/N`, by each file's path).
pub fn check_shard(inputs: &[PathBuf], shard: Option<super::Shard>, progress: &dyn Progress) -> Vec<CheckItem> {
    check_as(inputs, shard, None, progress)
}

/// [`check_shard`] with every file read as `format` (`--format`: a name or magic that does not say it),
/// or as the format each is identified as.
pub fn check_as(
    inputs: &[PathBuf],
    shard: Option<super::Shard>,
    format: Option<&'static crate::registry::Format>,
    progress: &dyn Progress,
) -> Vec<CheckItem> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            files.extend(
                walkdir::WalkDir::new(input)
                    .sort_by_file_name()
                    .into_iter()
                    .filter_map(std::result::Result::ok)
                    .filter(|e| e.file_type().is_file())
                    .map(|e| e.into_path()),
            );
        } else {
            files.push(input.clone());
        }
    }
    let files = super::Shard::select(shard, files, |p| p.as_path());
    progress.start(files.len() as u64);
    files
        .par_iter()
        .map(|path| {
            let item = check_file(path, format);
            progress.advance(1);
            item
        })
        .collect()
}

/// What `relic check --json` prints for `items`: the count of each outcome (`identical`, `differs`,
/// `failed`, `read`, `unknown`) and the items themselves as `files`.
pub fn check_summary(items: &[CheckItem]) -> serde_json::Value {
    let mut value = serde_json::Map::new();
    for outcome in ["identical", "differs", "failed", "read", "unknown"] {
        value.insert(outcome.into(), items.iter().filter(|i| i.outcome == outcome).count().into());
    }
    let files = items.iter().map(|i| serde_json::to_value(i).unwrap_or(serde_json::Value::Null)).collect();
    value.insert("files".into(), serde_json::Value::Array(files));
    serde_json::Value::Object(value)
}

fn check_file(path: &Path, forced: Option<&'static crate::registry::Format>) -> CheckItem {
    let item = |format, outcome, detail: Option<String>| CheckItem {
        path: path.display().to_string(),
        format,
        outcome,
        detail,
        warnings: Vec::new(),
    };
    let data = match source::open(path) {
        Ok(d) => d,
        Err(e) => return item(None, "failed", Some(e.to_string())),
    };
    let name = path.to_string_lossy();
    let Some(format) = forced.or_else(|| registry::sniff(&data, &name).map(|(f, _)| f)) else {
        return item(None, "unknown", None);
    };
    let codec = format.for_name(&name);
    let value = match codec.to_json(&data) {
        Ok(v) => v,
        // Too large for its document (a client's multi-GiB GRF): checked without it, where the format can.
        Err(e @ crate::Error::Limit { .. }) => {
            return match codec.archive.and_then(|a| a.check_without_document(&data)) {
                Some(Ok(None)) => item(Some(format.id), "identical", None),
                Some(Ok(Some(at))) => item(
                    Some(format.id),
                    "differs",
                    Some(format!("first difference at offset 0x{at:X} (header or table written back)")),
                ),
                Some(Err(e)) => item(Some(format.id), "failed", Some(e.to_string())),
                None => item(Some(format.id), "failed", Some(e.to_string())),
            }
        }
        Err(e) => return item(Some(format.id), "failed", Some(e.to_string())),
    };
    // A model whose textures its client folder lacks still reads; say which (issue 24).
    let warnings = codec.convert.map(|c| c.check_warnings(&data, path)).unwrap_or_default();
    let item = |format, outcome, detail| CheckItem { warnings: warnings.clone(), ..item(format, outcome, detail) };
    if !format.capabilities().write {
        return item(Some(format.id), "read", None);
    }
    match codec.from_json(value, &Default::default()) {
        Ok(bytes) if bytes[..] == data[..] => item(Some(format.id), "identical", None),
        Ok(bytes) => {
            let at = bytes.iter().zip(data.iter()).position(|(a, b)| a != b).unwrap_or(bytes.len().min(data.len()));
            let detail =
                format!("first difference at offset 0x{at:X} ({} bytes written, {} read)", bytes.len(), data.len());
            item(Some(format.id), "differs", Some(detail))
        }
        Err(e) => item(Some(format.id), "failed", Some(format!("writing back: {e}"))),
    }
}
