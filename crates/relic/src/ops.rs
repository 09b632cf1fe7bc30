//! The operations behind the CLI, generic over the registry: identify, info, list, extract, convert and
//! pack. Parallel work (rayon) happens here, across files and entries, so library users get it too.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

use crate::asset::{Entry, EntryData, NamedAsset, SNIFF_BYTES};
use crate::error::{Error, Result};
use crate::export;
use crate::paths::{self, output_path, WriteOptions};
use crate::reader::MAX_DEPTH;
use crate::registry::{self, Confidence, ConvertOptions, FolderFile, Format, PackRequest};
use crate::source;

/// Progress of long work, reported in bytes or items; the CLI draws a bar from it.
pub trait Progress: Sync {
    fn start(&self, _total: u64) {}
    fn advance(&self, _n: u64) {}
}

/// Progress that goes nowhere.
pub struct Quiet;
impl Progress for Quiet {}

// ---------------------------------------------------------------------------------------------------------
// identify / info

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
        registry::sniff(&data, &name).ok_or_else(|| Error::Unsupported("not a format relic knows".into()))?;
    Ok((data, format))
}

/// Header summary of a file.
pub fn info(path: &Path) -> Result<(&'static Format, serde_json::Value)> {
    let run = || {
        let (data, format) = open_known(path)?;
        Ok((format, format.codec_for(&path.to_string_lossy()).info(&data)?))
    };
    run().map_err(|e: Error| e.in_file(path))
}

// ---------------------------------------------------------------------------------------------------------
// ls

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
struct FlatEntry<'a> {
    name: String,
    path: String,
    size: u64,
    modified: Option<u64>,
    format: Option<&'static Format>,
    data: EntryData<'a>,
    nested: bool,
    record: Option<crate::asset::RecordInfo>,
}

fn archive_entries<'a>(format: &Format, data: &'a [u8], name: &str) -> Result<Vec<Entry<'a>>> {
    format
        .codec
        .entries(data, name)
        .unwrap_or_else(|| Err(Error::Unsupported(format!("{} is not an archive", format.id))))
}

/// Flattens an archive's entries; with `recursive`, nested archives are expanded after their own entry.
fn flatten<'a>(
    format: &Format,
    data: &'a [u8],
    archive_name: &str,
    prefix: (&str, &str),
    recursive: bool,
    depth: u32,
    out: &mut Vec<FlatEntry<'a>>,
) -> Result<()> {
    check_depth(format, archive_name, depth)?;
    for entry in archive_entries(format, data, archive_name)? {
        // An entry whose head cannot be decoded is identified by its name alone; its error shows when it
        // is extracted.
        let head = entry.data.head(SNIFF_BYTES).unwrap_or_default();
        let fmt = registry::sniff(&head, &entry.name).map(|(f, _)| f);
        let name = format!("{}{}", prefix.0, entry.name);
        let path = format!("{}{}", prefix.1, entry.path);
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
        match flatten(inner, data_ref, &entry.name, (&n, &p), true, depth + 1, &mut children) {
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
fn check_depth(format: &Format, name: &str, depth: u32) -> Result<()> {
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

// ---------------------------------------------------------------------------------------------------------
// extract

#[derive(Debug, Clone, Default)]
pub struct ExtractOptions {
    pub recursive: bool,
    pub force: bool,
    /// Only entries whose path (or file name) matches one of these globs; all when empty.
    pub globs: Vec<String>,
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
}

fn glob_set(globs: &[String]) -> Result<Option<globset::GlobSet>> {
    if globs.is_empty() {
        return Ok(None);
    }
    let mut b = globset::GlobSetBuilder::new();
    for g in globs {
        let glob = globset::GlobBuilder::new(g)
            .case_insensitive(true)
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
    let (data, format) = open_known(path).map_err(|e| e.in_file(path))?;
    let mut flat = Vec::new();
    flatten(format, &data, &path.to_string_lossy(), ("", ""), opts.recursive, 0, &mut flat)
        .map_err(|e| e.in_file(path))?;
    let filter = glob_set(&opts.globs)?;
    let mut report = ExtractReport::default();
    let failure = |what: &str| format!("{}: {what}", path.display());
    let mut seen = HashSet::new();
    let mut jobs = Vec::new();
    for e in flat.iter().filter(|e| !e.nested) {
        if let Some(set) = &filter {
            let base = e.path.rsplit('/').next().unwrap_or(&e.path);
            if !set.is_match(&e.path) && !set.is_match(base) {
                continue;
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
    let index =
        if opts.globs.is_empty() { format.codec.extraction_index(&data, &path.to_string_lossy()) } else { None };
    let total: u64 = jobs.iter().map(|(e, _)| e.size).sum();
    crate::limits::check_expansion(format.id, "entries", total, data.len() as u64).map_err(|e| e.in_file(path))?;
    progress.start(total);
    // Each entry is streamed (inflated) straight into its temporary file, so memory holds no whole entry.
    let results: Vec<Result<u64>> = jobs
        .par_iter()
        .map(|(e, target)| {
            let wopts = WriteOptions { force: opts.force, modified: e.modified };
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
                    entry: e.name.clone(),
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

/// Names the entry in an error about its bytes (errors with a location already name format and offset).
fn entry_error(name: &str, err: Error) -> Error {
    let shown = paths::display_name(name);
    match err {
        Error::InvalidData { .. } | Error::Limit { .. } => err.within(format_args!("entry `{shown}`")),
        Error::Unsupported(msg) | Error::Refused(msg) if msg.contains(name) => Error::Refused(msg),
        other => Error::Refused(format!("entry `{shown}`: {other}")),
    }
}

// ---------------------------------------------------------------------------------------------------------
// convert

#[derive(Debug, Clone, Default)]
pub struct ConvertRequest {
    /// Output extension (`json`, `png`, …); each format's default when absent.
    pub to: Option<String>,
    pub force: bool,
    pub options: ConvertOptions,
}

/// One written output (the `--json` manifest of `relic convert`).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ManifestItem {
    pub input: String,
    pub output: String,
    /// `image`, `sound`, `model`, `document` or `raw`.
    pub kind: &'static str,
}

#[derive(Debug, Default)]
pub struct ConvertReport {
    pub outputs: Vec<ManifestItem>,
    /// Inputs that failed, one line each.
    pub failures: Vec<String>,
    /// Files in walked folders that were not converted, one line each with the reason (no format matched,
    /// or the format is read but not converted yet).
    pub skipped: Vec<String>,
}

/// A file to convert and the folder its outputs go to.
struct Job {
    path: PathBuf,
    out_dir: PathBuf,
    /// Named on the command line (an unknown format is then a failure, not a skip).
    explicit: bool,
    /// Output name without extension: the file's stem, or its whole name when another input of this run
    /// has the same stem and output folder (`x.rsm` and `x.rsm2` become `x.rsm.glb` and `x.rsm2.glb`).
    stem: String,
}

fn stem_of(name: &str) -> &str {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    match base.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => base,
    }
}

/// Checks a conversion request before anything runs, for the CLI's usage errors (exit 2): `--option` keys
/// and values the formats offer, a `--to` target some format makes, and for each file named (not folders)
/// a target its format can make.
pub fn check_convert_request(inputs: &[PathBuf], req: &ConvertRequest) -> std::result::Result<(), String> {
    registry::check_settings(&req.options.settings)?;
    let Some(to) = req.to.as_deref() else { return Ok(()) };
    let all = registry::all_targets();
    if !all.iter().any(|t| t.eq_ignore_ascii_case(to)) {
        return Err(format!("unknown --to target `{to}` (one of {})", all.join(", ")));
    }
    for input in inputs.iter().filter(|p| p.is_file()) {
        let Ok(Some((format, _))) = registry::identify_path(input) else { continue };
        let targets = format.targets();
        if !targets.iter().any(|t| t.eq_ignore_ascii_case(to)) {
            return Err(format!(
                "{} is {} ({}), which converts to {}, not {to}",
                input.display(),
                format.id,
                format.name,
                targets.join(", ")
            ));
        }
    }
    Ok(())
}

/// Converts files and folders (walked; their structure is kept under `out_dir`). A bad file or entry does
/// not stop the batch: it is reported in `failures`, and `outputs` lists exactly the files written.
pub fn convert(inputs: &[PathBuf], out_dir: &Path, req: &ConvertRequest, progress: &dyn Progress) -> ConvertReport {
    let mut report = ConvertReport::default();
    let mut jobs = Vec::new();
    for input in inputs {
        if input.is_dir() {
            for entry in walkdir::WalkDir::new(input).sort_by_file_name() {
                match entry {
                    Ok(e) if e.file_type().is_file() => {
                        let rel = e.path().strip_prefix(input).unwrap_or(e.path());
                        let sub = rel.parent().map(|p| out_dir.join(p)).unwrap_or_else(|| out_dir.to_path_buf());
                        jobs.push(Job {
                            path: e.path().to_path_buf(),
                            out_dir: sub,
                            explicit: false,
                            stem: String::new(),
                        });
                    }
                    Ok(_) => {}
                    Err(err) => report.failures.push(format!("{}: {err}", input.display())),
                }
            }
        } else {
            jobs.push(Job { path: input.clone(), out_dir: out_dir.to_path_buf(), explicit: true, stem: String::new() });
        }
    }
    let mut stems: std::collections::HashMap<(PathBuf, String), usize> = Default::default();
    for job in &mut jobs {
        job.stem = stem_of(&job.path.to_string_lossy()).to_string();
        *stems.entry((job.out_dir.clone(), job.stem.to_lowercase())).or_default() += 1;
    }
    for job in &mut jobs {
        if stems.get(&(job.out_dir.clone(), job.stem.to_lowercase())).is_some_and(|&n| n > 1) {
            job.stem = job.path.file_name().map_or_else(|| job.stem.clone(), |n| n.to_string_lossy().into_owned());
        }
    }
    progress.start(jobs.len() as u64);
    let results: Vec<(Job, Converted)> = jobs
        .into_par_iter()
        .map(|job| {
            let r = convert_file(&job, out_dir, req);
            progress.advance(1);
            (job, r)
        })
        .collect();
    for (job, r) in results {
        match r {
            Converted::Done(batch) => {
                let (items, failures) = batch.failure_lines();
                report.outputs.extend(items);
                report.failures.extend(failures);
            }
            Converted::Unknown if !job.explicit => {
                report.skipped.push(format!("{}: not a format relic knows", job.path.display()))
            }
            Converted::Unknown => report.failures.push(format!("{}: not a format relic knows", job.path.display())),
            Converted::NotYet(id) => report.skipped.push(format!(
                "{}: {id} is read but not converted yet (`--to json` gives its data)",
                job.path.display()
            )),
        }
    }
    report
}

/// What became of one file.
enum Converted {
    /// Converted, perhaps in part: what was written and what failed.
    Done(Batch),
    /// No format matched.
    Unknown,
    /// A file met in a walked folder whose format (this id) has no conversion yet.
    NotYet(&'static str),
}

/// What one file (or one archive entry) produced: the files written, and the failures, each naming the
/// input file and the entry.
#[derive(Debug, Default)]
struct Batch {
    items: Vec<ManifestItem>,
    failures: Vec<(String, Error)>,
}

impl Batch {
    fn failed(input: &str, err: Error) -> Self {
        Batch { items: vec![], failures: vec![(input.to_string(), err)] }
    }
    fn extend(&mut self, other: Batch) {
        self.items.extend(other.items);
        self.failures.extend(other.failures);
    }
    /// One line per failure: the input (file, or file/entry) first, its path not repeated.
    fn failure_lines(self) -> (Vec<ManifestItem>, Vec<String>) {
        let lines = self
            .failures
            .into_iter()
            .map(|(input, e)| {
                let msg = e.without_file().to_string();
                if msg.starts_with(&format!("{input}: ")) {
                    msg
                } else {
                    format!("{input}: {msg}")
                }
            })
            .collect();
        (self.items, lines)
    }
}

/// Where a conversion writes: the output root (nothing is written outside it, nor through a link below
/// it) and the options.
struct Target<'r> {
    root: &'r Path,
    req: &'r ConvertRequest,
    /// What the archives of this input may still expand to (`--max-expansion` times the input's size),
    /// shared by its nested archives.
    budget: std::sync::atomic::AtomicU64,
}

impl Target<'_> {
    /// Takes `n` bytes from the expansion budget, or refuses.
    fn spend(&self, format: &'static str, n: u64, file_len: u64) -> Result<()> {
        use std::sync::atomic::Ordering;
        let ok = self.budget.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| left.checked_sub(n)).is_ok();
        if ok {
            Ok(())
        } else {
            crate::limits::check_expansion(format, "entries", u64::MAX, file_len)
        }
    }

    fn write(&self, path: &Path, bytes: &[u8], modified: Option<u64>) -> Result<()> {
        paths::write_bytes(self.root, path, bytes, WriteOptions { force: self.req.force, modified })
    }
}

/// Converts one file.
fn convert_file(job: &Job, root: &Path, req: &ConvertRequest) -> Converted {
    let input = job.path.display().to_string();
    let data = match source::open(&job.path) {
        Ok(d) => d,
        Err(e) => return Converted::Done(Batch::failed(&input, e)),
    };
    let name = job.path.to_string_lossy().into_owned();
    let Some((format, _)) = registry::sniff(&data, &name) else { return Converted::Unknown };
    let to_json = req.to.as_deref().is_some_and(|t| t.eq_ignore_ascii_case("json"));
    if !job.explicit && !to_json && !format.capabilities.convert {
        return Converted::NotYet(format.id);
    }
    let budget = crate::limits::expansion_budget(data.len() as u64).into();
    let target = Target { root, req, budget };
    Converted::Done(convert_bytes(format, &data, &name, &input, &job.out_dir, &job.stem, &target, 0))
}

/// Converts bytes of a known format into `dir`, named after `stem`.
#[allow(clippy::too_many_arguments)]
fn convert_bytes(
    format: &'static Format,
    data: &[u8],
    name: &str,
    input: &str,
    dir: &Path,
    stem: &str,
    target: &Target<'_>,
    depth: u32,
) -> Batch {
    let mut batch = Batch::default();
    let mut write = |rel: &str, bytes: &[u8], kind: &'static str| match output_path(dir, rel, "output")
        .and_then(|path| target.write(&path, bytes, None).map(|()| path))
    {
        Ok(path) => {
            batch.items.push(ManifestItem { input: input.to_string(), output: path.display().to_string(), kind })
        }
        Err(e) => batch.failures.push((input.to_string(), e)),
    };
    if target.req.to.as_deref().is_some_and(|t| t.eq_ignore_ascii_case("json")) {
        match format.codec_for(name).to_json(data).and_then(|v| export::json::to_pretty(&v)) {
            Ok(bytes) => write(&format!("{stem}.json"), &bytes, "document"),
            Err(e) => return Batch::failed(input, e),
        }
        return batch;
    }
    if format.is_archive() && !format.codec.converts_whole() {
        return match safe_component(stem) {
            Ok(sub) => convert_archive(format, data, name, input, &dir.join(sub), target, depth),
            Err(e) => Batch::failed(input, e),
        };
    }
    let path = (depth == 0).then(|| Path::new(name));
    let files = match export_assets(format, data, name, path, stem, target.req) {
        Ok(files) => files,
        Err(e) => return Batch::failed(input, e),
    };
    for (rel, bytes, kind) in &files {
        write(rel, bytes, kind);
    }
    batch
}

/// A file's assets exported, as (relative output path, bytes, kind). One unnamed asset's files sit beside
/// each other as `<stem><suffix>.<ext>` (`x.png`, or `x.mip0.png`, `x.mip1.png`, … for a mip chain;
/// `x.<table>.csv` for tables); several assets go into `<stem>/`.
fn export_assets(
    format: &Format,
    data: &[u8],
    name: &str,
    path: Option<&Path>,
    stem: &str,
    req: &ConvertRequest,
) -> Result<Vec<(String, Vec<u8>, &'static str)>> {
    let codec = format.codec_for(name);
    let mut assets = match path {
        Some(p) => codec.convert_at(data, p, &req.options)?,
        None => codec.convert(data, &req.options)?,
    };
    // `--to` picks the assets that can be made into it (`--to txt` of a MOB: its scripts only).
    if let Some(to) = req.to.as_deref() {
        let fits = |a: &NamedAsset| export::extensions_for(&a.asset).iter().any(|e| e.eq_ignore_ascii_case(to));
        if assets.iter().any(fits) {
            assets.retain(fits);
        }
    }
    let single = matches!(assets.as_slice(), [NamedAsset { name: None, .. }]);
    let mut files = Vec::new();
    for named in &assets {
        let base = named.name.as_deref().unwrap_or(stem);
        for out in export::export(&named.asset, req.to.as_deref(), base)? {
            let rel = if single {
                format!("{stem}{}.{}", out.suffix, out.extension)
            } else {
                format!("{stem}/{base}{}.{}", out.suffix, out.extension)
            };
            files.push((rel, out.bytes, named.asset.kind()));
        }
    }
    Ok(files)
}

fn safe_component(stem: &str) -> Result<PathBuf> {
    paths::safe_relative_path(stem)
        .map_err(|why| Error::Refused(format!("refusing output folder `{}`: {why}", paths::display_name(stem))))
}

/// Converts an archive entry by entry into `dir`: known formats are converted, nested archives become
/// folders named after their entry, everything else is copied as it is (`raw`). Every entry is tried; a
/// bad one is reported (and, when its bytes could be read, kept raw so nothing is lost).
#[allow(clippy::too_many_arguments)]
fn convert_archive(
    format: &'static Format,
    data: &[u8],
    name: &str,
    input: &str,
    dir: &Path,
    target: &Target<'_>,
    depth: u32,
) -> Batch {
    if let Err(e) = check_depth(format, name, depth) {
        return Batch::failed(input, e);
    }
    let entries = match archive_entries(format, data, name) {
        Ok(entries) => entries,
        Err(e) => return Batch::failed(input, e),
    };
    let total = entries.iter().map(|e| e.size).sum();
    if let Err(e) = target.spend(format.id, total, data.len() as u64) {
        return Batch::failed(input, e);
    }
    let results: Vec<Batch> = entries.par_iter().map(|entry| convert_entry(entry, input, dir, target, depth)).collect();
    let mut batch = Batch::default();
    for b in results {
        batch.extend(b);
    }
    batch
}

/// Converts one archive entry (see [`convert_archive`]).
fn convert_entry(entry: &Entry<'_>, input: &str, dir: &Path, target: &Target<'_>, depth: u32) -> Batch {
    let entry_input = format!("{input}/{}", paths::display_name(&entry.path));
    let out = match output_path(dir, &entry.path, &format!("entry `{}`", paths::display_name(&entry.name))) {
        Ok(p) => p,
        Err(e) => return Batch::failed(input, e),
    };
    let bytes = match entry.data.bytes() {
        Ok(b) => b,
        Err(e) => return Batch::failed(&entry_input, e),
    };
    let entry_dir = out.parent().map(Path::to_path_buf).unwrap_or_else(|| dir.to_path_buf());
    let base = entry.path.rsplit('/').next().unwrap_or(&entry.path);
    let mut batch = Batch::default();
    if let Some((inner, _)) = registry::sniff(&bytes, &entry.name) {
        let converted = if inner.is_archive() {
            convert_archive(inner, &bytes, &entry.name, &entry_input, &entry_dir.join(base), target, depth + 1)
        } else {
            let stem = stem_of(base);
            convert_bytes(inner, &bytes, &entry.name, &entry_input, &entry_dir, stem, target, depth + 1)
        };
        // Converted, perhaps in part: what failed is reported as it is.
        if !converted.items.is_empty() || converted.failures.is_empty() {
            return converted;
        }
        // Nothing came of it. A format relic does not convert yet is kept raw quietly; anything else (a bad
        // file, one nested too deep, an expansion refused) is reported, and the entry is kept raw as well, so
        // that nothing is lost.
        if !converted.failures.iter().all(|(_, e)| matches!(e.without_file(), Error::Unsupported(_))) {
            batch.failures = converted.failures;
        }
    }
    match target.write(&out, &bytes, entry.modified) {
        Ok(()) => batch.items.push(ManifestItem { input: entry_input, output: out.display().to_string(), kind: "raw" }),
        Err(e) => batch.failures.push((entry_input, e)),
    }
    batch
}

// ---------------------------------------------------------------------------------------------------------
// pack

#[derive(Debug, Clone, Default)]
pub struct PackOptions {
    pub force: bool,
    pub no_dedupe: bool,
    /// Pixel format for images (`--format dxt1`, …); each format's default when absent.
    pub pixel_format: Option<String>,
    /// Write a full mip chain (images).
    pub mips: bool,
}

/// Lists the regular files under `dir` (sorted), skipping `exclude` and relic's own temporary files.
pub fn collect_folder(dir: &Path, exclude: &Path) -> Result<Vec<FolderFile>> {
    let exclude = exclude.canonicalize().ok();
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.map_err(|e| Error::Refused(format!("{}: {e}", dir.display())))?;
        if entry.file_type().is_dir() {
            continue;
        }
        let path = entry.path();
        if !entry.file_type().is_file() {
            return Err(Error::Refused(format!("{}: not a regular file (links are not followed)", path.display())));
        }
        let name = entry.file_name().to_string_lossy();
        if name.starts_with(".relic-") && name.ends_with(".tmp") {
            continue;
        }
        if exclude.is_some() && path.canonicalize().ok() == exclude {
            continue;
        }
        let rel = path.strip_prefix(dir).unwrap_or(path);
        let relative = rel
            .iter()
            .map(|c| c.to_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| Error::Refused(format!("{}: the name is not valid Unicode", path.display())))?
            .join("/");
        let meta = entry.metadata().map_err(|e| Error::Refused(format!("{}: {e}", path.display())))?;
        files.push(FolderFile {
            relative,
            path: path.to_path_buf(),
            size: meta.len(),
            modified: paths::modified_secs(&meta),
        });
    }
    Ok(files)
}

/// What `pack` did: the bytes written, and notes for the user (a companion file taken from beside the
/// JSON, …), printed on stderr by the CLI.
#[derive(Debug, Default)]
pub struct PackReport {
    pub bytes: u64,
    pub notes: Vec<String>,
}

/// Writes a file of `format_id` from `input`: a folder (archives), the JSON that `convert --to json`
/// writes, or another file the format is made from (a PNG for an image format, an INI for REG, …). The
/// result is read back with the format's own reader before it is kept.
pub fn pack(format_id: &str, input: &Path, output: &Path, opts: &PackOptions) -> Result<PackReport> {
    let format = registry::by_id(format_id)
        .ok_or_else(|| Error::Refused(format!("unknown format `{format_id}` (see `relic formats`)")))?;
    if !format.capabilities.write {
        return Err(Error::Unsupported(format!("{} files cannot be written yet", format.id)));
    }
    if !opts.force && output.exists() {
        return Err(Error::Refused(format!("{} exists (use --force to overwrite)", output.display())));
    }
    let request = PackRequest {
        output: output.to_path_buf(),
        no_dedupe: opts.no_dedupe,
        pixel_format: opts.pixel_format.clone(),
        mips: opts.mips,
    };
    let wopts = WriteOptions { force: opts.force, modified: None };
    let mut report = PackReport::default();
    let input_name = input.to_string_lossy();
    if input.is_dir() {
        if !format.is_archive() {
            return Err(Error::Refused(format!(
                "{} is not an archive: give the JSON that `relic convert --to json` writes",
                format.id
            )));
        }
        let files = collect_folder(input, output)?;
        paths::write_named(output, wopts, |w| {
            let mut counted = CountingWriter { inner: w, count: 0 };
            format.codec.pack_folder(files, &request, &mut counted)?;
            report.bytes = counted.count;
            Ok(())
        })?;
    } else {
        let content = std::fs::read(input).map_err(|e| Error::io(input, e))?;
        let bytes = if registry::extension_of(&input_name).is_some_and(|e| e.eq_ignore_ascii_case("json")) {
            let value: serde_json::Value = serde_json::from_slice(&content).map_err(|e| {
                Error::Refused(format!(
                    "{}: not JSON ({e}); give a folder or the JSON of `relic convert --to json`",
                    input.display()
                ))
            })?;
            format.codec.write_json_at(value, input, &mut report.notes).map_err(|e| e.in_file(input))?
        } else {
            // Another kind of input the format is made from (a PNG for a texture, …).
            format.codec.pack_input(&input_name, &content, &request).map_err(|e| e.in_file(input))?
        };
        report.bytes = bytes.len() as u64;
        paths::write_named(output, wopts, |w| w.write_all(&bytes).map_err(|e| Error::io(output, e)))?;
    }
    // Writers never produce a file their own reader rejects; should one, the file is not left behind.
    let check = source::open(output)?;
    if let Err(e) = format.codec_for(&output.to_string_lossy()).info(&check) {
        drop(check);
        let _ = std::fs::remove_file(output);
        return Err(Error::Unsupported(format!("relic wrote a file it cannot read back ({e}); please report this")));
    }
    Ok(report)
}

struct CountingWriter<'a> {
    inner: &'a mut dyn Write,
    count: u64,
}

impl Write for CountingWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.count += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

// ---------------------------------------------------------------------------------------------------------
// check

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
}

/// Reads every file under the inputs (folders are walked), writes each back through its format's JSON
/// document, and reports whether the bytes come back identical: the conformance run over a game's files.
pub fn check(inputs: &[PathBuf], progress: &dyn Progress) -> Vec<CheckItem> {
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
    progress.start(files.len() as u64);
    files
        .par_iter()
        .map(|path| {
            let item = check_file(path);
            progress.advance(1);
            item
        })
        .collect()
}

fn check_file(path: &Path) -> CheckItem {
    let item = |format, outcome, detail: Option<String>| CheckItem {
        path: path.display().to_string(),
        format,
        outcome,
        detail,
    };
    let data = match source::open(path) {
        Ok(d) => d,
        Err(e) => return item(None, "failed", Some(e.to_string())),
    };
    let name = path.to_string_lossy();
    let Some((format, _)) = registry::sniff(&data, &name) else { return item(None, "unknown", None) };
    let codec = format.codec_for(&name);
    let value = match codec.to_json(&data) {
        Ok(v) => v,
        Err(e) => return item(Some(format.id), "failed", Some(e.to_string())),
    };
    if !format.capabilities.write {
        return item(Some(format.id), "read", None);
    }
    match codec.write_json(value) {
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
