//! `relic extract`: entries streamed to disk under the output folder, safely and atomically.

use std::collections::HashSet;
use std::path::Path;

use crate::parallel::prelude::*;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::paths::{self, output_path, WriteOptions};

use super::list::flatten;
use super::*;

#[derive(Debug, Clone, Default)]
pub struct ExtractOptions {
    pub recursive: bool,
    pub force: bool,
    /// Keep the files an earlier extraction left in the output folder and write only the missing ones
    /// (`--skip-existing`); without it or `--force`, a folder that already holds any of them is refused
    /// before anything is written.
    pub skip_existing: bool,
    /// Only entries whose path (or file name) matches one of these globs, ASCII case ignored; all when
    /// empty. `\` in a pattern is a folder separator like `/` (GRF, RES and FTG names use `\`; see
    /// `pattern_text`).
    pub globs: Vec<String>,
    /// Read the archive as this format instead of identifying it (`--format`).
    pub format: Option<&'static Format>,
}

/// One extracted file (the `--json` manifest of `relic extract`).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ExtractedItem {
    /// The entry's name in the archive (nested names joined with `/`).
    pub entry: String,
    pub output: String,
    pub size: u64,
}

#[derive(Debug, Default, Serialize)]
pub struct ExtractReport {
    /// Exactly the files written, in archive order.
    pub written: Vec<ExtractedItem>,
    pub bytes: u64,
    /// One line per entry that was not written, naming the archive and the entry.
    pub failures: Vec<String>,
    /// Files already there and kept (`--skip-existing`).
    pub kept: usize,
    /// The patterns (as given) that matched no entry: the CLI warns about each and exits 1, since a
    /// pattern that selects nothing is almost always a mistyped one.
    pub unmatched: Vec<String>,
}

/// A pattern as matched: `\` becomes `/`. Entry paths always use `/`, while archives such as GRF store
/// `\` and users copy names from their listings (`data\texture\*.bmp`); a backslash is therefore never a
/// glob escape here (`[*]` matches a literal `*`).
pub fn pattern_text(glob: &str) -> String {
    glob.replace('\\', "/")
}

/// The patterns whose `matched` flag is not set.
pub(super) fn unmatched(globs: &[String], matched: &[bool]) -> Vec<String> {
    globs.iter().zip(matched).filter(|(_, m)| !**m).map(|(g, _)| g.clone()).collect()
}

/// Patterns as `extract` (and `edit --delete`) match them: case-insensitive, `\` as a folder separator.
pub(super) fn glob_set(globs: &[String]) -> Result<Option<globset::GlobSet>> {
    if globs.is_empty() {
        return Ok(None);
    }
    let mut b = globset::GlobSetBuilder::new();
    for g in globs {
        let glob = globset::GlobBuilder::new(&pattern_text(g))
            .case_insensitive(true)
            .backslash_escape(false)
            .build()
            .map_err(|e| Error::Refused(format!("bad pattern `{g}`: {e}")))?;
        b.add(glob);
    }
    b.build().map(Some).map_err(|e| Error::Refused(format!("bad patterns: {e}")))
}

/// Extracts an archive into `out_dir`: every entry is checked for a safe path, streamed to a temporary file
/// and renamed into place, with its modification time; entries are written in parallel. With `recursive`,
/// a nested archive is written as a folder of the same name holding its entries. An archive whose entries
/// would expand past `--max-expansion` times its size is refused before anything is written.
pub fn extract(path: &Path, out_dir: &Path, opts: &ExtractOptions, progress: &dyn Progress) -> Result<ExtractReport> {
    // Not while an edit writes the archive (a GRF edited in place): held until every entry is out.
    let _reading = paths::lock_for_reading(path).map_err(|e| e.in_file(path))?;
    let (data, format) = open_as(path, opts.format).map_err(|e| e.in_file(path))?;
    let mut flat = Vec::new();
    let mut gather = |batch: &mut Vec<_>| {
        flat.append(batch);
        Ok(())
    };
    // (Formats only matter for descending: extraction never identifies what it does not descend into.)
    flatten(format, &data, &path.to_string_lossy(), ("", ""), (opts.recursive, false), 0, &mut gather)
        .map_err(|e| e.in_file(path))?;
    let filter = glob_set(&opts.globs)?;
    let mut report = ExtractReport::default();
    let failure = |what: &str| format!("{}: {what}", path.display());
    let mut seen = HashSet::new();
    let mut jobs = Vec::new();
    let mut markers = Vec::new();
    let mut matched = vec![false; opts.globs.len()];
    for e in flat.iter().filter(|e| !e.nested) {
        if let Some(set) = &filter {
            let base = e.path.rsplit('/').next().unwrap_or(&e.path);
            let hits: Vec<usize> = set.matches(e.path.as_ref()).into_iter().chain(set.matches(base)).collect();
            if hits.is_empty() {
                continue;
            }
            for i in hits {
                if let Some(m) = matched.get_mut(i) {
                    *m = true;
                }
            }
        }
        let name = paths::display_name(&e.name);
        match output_path(out_dir, &e.path, &format!("entry `{name}`")) {
            // (On a case-insensitive disk a second entry differing only in case fails as existing: no
            // entry ever overwrites another.)
            Ok(target) if seen.insert(target.clone()) => jobs.push((e, target)),
            Ok(_) => report.failures.push(failure(&format!(
                "entry `{name}`: another entry has the same path `{}`",
                paths::display_name(&e.path)
            ))),
            Err(err) => report.failures.push(failure(&err.to_string())),
        }
    }
    // Each nested archive descended into leaves a note in its folder, so that `relic pack` packs that
    // folder back as the archive (see `NESTED_MARKER`); only a whole extraction can be packed back.
    if opts.globs.is_empty() {
        for e in flat.iter().filter(|e| e.nested) {
            let marker = format!("{}/{}", e.path, super::NESTED_MARKER);
            let Some(format) = e.format else { continue };
            let note = super::NestedArchive {
                format: format.id.into(),
                modified: e.modified,
                note: super::NestedArchive::NOTE,
            };
            match (
                output_path(out_dir, &marker, "nested archive note"),
                serde_json::to_vec_pretty(&note).map_err(|e| Error::Unsupported(format!("JSON: {e}"))),
            ) {
                (Ok(target), Ok(bytes)) if seen.insert(target.clone()) => {
                    markers.push((e.name.to_string(), target, bytes))
                }
                (Ok(_), Ok(_)) => {}
                (Err(err), _) | (_, Err(err)) => report.failures.push(failure(&err.to_string())),
            }
        }
    }
    let mut index = if opts.globs.is_empty() {
        format.archive.and_then(|a| a.extraction_index(&data, &path.to_string_lossy()))
    } else {
        None
    };
    // A folder an earlier extraction filled: refused once, up front (not one failure per entry), or its
    // files kept. Only a folder that holds something is looked at, so a fresh extraction costs nothing.
    let holds_files = std::fs::read_dir(out_dir).is_ok_and(|mut d| d.next().is_some());
    if !opts.force && holds_files {
        let taken = |p: &Path| std::fs::symlink_metadata(p).is_ok();
        let index_target = match &index {
            Some(Ok((rel, _))) => output_path(out_dir, rel, "index").ok(),
            _ => None,
        };
        let index_taken = index_target.as_deref().is_some_and(taken);
        let existing: Vec<&std::path::PathBuf> = jobs.iter().map(|(_, t)| t).filter(|t| taken(t)).collect();
        let count = existing.len() + usize::from(index_taken);
        let first = existing.first().map(|p| p.to_path_buf()).or(index_target.filter(|_| index_taken));
        if opts.skip_existing {
            jobs.retain(|(_, t)| !taken(t));
            if index_taken {
                index = None;
            }
            report.kept = count;
        } else if let Some(first) = first {
            return Err(Error::Refused(format!(
                "{} already holds {count} of the {} files this extraction writes (the first: {}); use --force \
                 to overwrite them or --skip-existing to keep them",
                out_dir.display(),
                jobs.len() + usize::from(index.is_some()),
                first.display()
            ))
            .in_file(path));
        }
    }
    report.unmatched = unmatched(&opts.globs, &matched);
    let total: u64 = jobs.iter().map(|(e, _)| e.size).sum();
    crate::limits::check_expansion(format.id, "entries", total, data.len() as u64).map_err(|e| e.in_file(path))?;
    progress.start(total);
    // Each entry is streamed (inflated) straight into its temporary file, so memory holds no whole entry.
    let results: Vec<Result<u64>> = jobs
        .par_iter()
        .map(|(e, target)| {
            let wopts = WriteOptions { force: opts.force, modified: e.entry.modified };
            let mut written = 0;
            paths::write_atomic(out_dir, target, wopts, |w| {
                written = e.data.write_to(w)?;
                Ok(())
            })
            .map_err(|err| entry_error(&e.name, err))?;
            progress.advance(e.size);
            Ok(written)
        })
        .collect();
    for (entry, target, bytes) in markers {
        let wopts = WriteOptions { force: opts.force, modified: None };
        if opts.skip_existing && std::fs::symlink_metadata(&target).is_ok() {
            continue;
        }
        match paths::write_bytes(out_dir, &target, &bytes, wopts) {
            Ok(()) => report.written.push(ExtractedItem {
                entry: format!("{entry}/{}", super::NESTED_MARKER),
                output: target.display().to_string(),
                size: bytes.len() as u64,
            }),
            Err(err) => report.failures.push(failure(&err.to_string())),
        }
    }
    if let Some(index) = index {
        let written = index.and_then(|(rel, bytes)| {
            let target = output_path(out_dir, &rel, "index")?;
            let wopts = WriteOptions { force: opts.force, modified: None };
            paths::write_bytes(out_dir, &target, &bytes, wopts)?;
            Ok(ExtractedItem { entry: rel, output: target.display().to_string(), size: bytes.len() as u64 })
        });
        match written {
            Ok(item) => report.written.push(item),
            Err(err) => report.failures.push(failure(&err.to_string())),
        }
    }
    for ((e, target), r) in jobs.iter().zip(results) {
        match r {
            Ok(n) => {
                report.written.push(ExtractedItem {
                    entry: e.name.to_string(),
                    output: target.display().to_string(),
                    size: n,
                });
                report.bytes += n;
            }
            Err(err) => report.failures.push(failure(&err.to_string())),
        }
    }
    Ok(report)
}

/// Extracts many archives (a `--files-from` list), each into a folder of its own under `out_dir`, laid out
/// as `relic convert` lays out its outputs: the archive's path below the deepest folder holding every listed
/// archive, with its whole file name (`game/Res/textures.res` listed with `game/Res/sound.res` →
/// `textures.res/`, `sound.res/`). So a folder follows from the archive's name alone, two archives never
/// share one, and shards never write into each other's folders. One archive failing does not stop the
/// others.
pub fn extract_many(
    archives: &[std::path::PathBuf],
    out_dir: &Path,
    opts: &ExtractOptions,
    shard: Option<super::Shard>,
    progress: &dyn Progress,
) -> ExtractReport {
    let mut report = ExtractReport::default();
    let root = match super::layout_root(archives, None) {
        Ok(root) => root,
        Err(e) => {
            report.failures.push(e);
            return report;
        }
    };
    let jobs: Vec<(&std::path::PathBuf, std::path::PathBuf)> = archives
        .iter()
        .map(|a| {
            let abs = paths::lexical_absolute(a);
            let rel = abs.strip_prefix(&root).map(Path::to_path_buf).unwrap_or_else(|_| abs.clone());
            (a, out_dir.join(rel))
        })
        .collect();
    let jobs = super::Shard::select(shard, jobs, |(a, _)| a.as_path());
    // A pattern is unmatched when no archive extracted has an entry it matches.
    let mut matched = vec![false; opts.globs.len()];
    let mut any = false;
    for (archive, dest) in jobs {
        match extract(archive, &dest, opts, progress) {
            Ok(r) => {
                report.written.extend(r.written);
                report.bytes += r.bytes;
                report.failures.extend(r.failures);
                report.kept += r.kept;
                any = true;
                for (m, g) in matched.iter_mut().zip(&opts.globs) {
                    *m |= !r.unmatched.contains(g);
                }
            }
            Err(e) => report.failures.push(e.to_string()),
        }
    }
    if any {
        report.unmatched = unmatched(&opts.globs, &matched);
    }
    report
}

/// Names the entry in an error about its bytes (errors with a location already name format and offset).
pub(super) fn entry_error(name: &str, err: Error) -> Error {
    let shown = paths::display_name(name);
    match err {
        Error::InvalidData { .. } | Error::Limit { .. } => err.within(format_args!("entry `{shown}`")),
        Error::Unsupported(msg) | Error::Refused(msg) if msg.contains(name) => Error::Refused(msg),
        other => Error::Refused(format!("entry `{shown}`: {other}")),
    }
}
