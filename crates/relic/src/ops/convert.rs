//! `relic convert`: files, folders and archives to open formats; a batch never stops at a bad entry.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

use crate::asset::{Entry, NamedAsset};
use crate::error::{Error, Result};
use crate::export;
use crate::paths::{self, output_path, WriteOptions};
use crate::registry::{self, ConvertOptions, Format};
use crate::source;

use super::list::{archive_entries, check_depth};
use super::*;

#[derive(Debug, Clone, Default)]
pub struct ConvertRequest {
    /// Output extension (`json`, `png`, …); each format's default when absent.
    pub to: Option<String>,
    pub force: bool,
    pub options: ConvertOptions,
    /// Read every input as this format instead of identifying it (`--format`): for layouts that have no
    /// magic and are never sniffed (Dark Reign's headerless FTG sprites).
    pub format: Option<&'static Format>,
    /// Only the inputs of this shard (`--shard K/N`); names are still chosen over every input, so the
    /// union of the shards is one whole run.
    pub shard: Option<super::Shard>,
    /// The inputs come from a list (`--files-from`): a file of no known format, or of a format not
    /// converted yet, is skipped as in a walked folder, not a failure.
    pub listed: bool,
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
    /// The files this run took up (those of its shard), as found.
    pub inputs: Vec<String>,
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
            jobs.push(Job {
                path: input.clone(),
                out_dir: out_dir.to_path_buf(),
                explicit: !req.listed,
                stem: String::new(),
            });
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
    // The shard is taken after the names: a name two inputs share is made unique over the whole batch.
    let jobs = super::Shard::select(req.shard, jobs, |j| j.path.as_path());
    report.inputs = jobs.iter().map(|j| j.path.display().to_string()).collect();
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
    budget: &'r std::sync::atomic::AtomicU64,
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
    let sniffed = registry::sniff(&data, &name).map(|(f, _)| f);
    let Some(format) = req.format.or(sniffed) else { return Converted::Unknown };
    let to_json = req.to.as_deref().is_some_and(|t| t.eq_ignore_ascii_case("json"));
    if !job.explicit && !to_json && !format.capabilities.convert {
        return Converted::NotYet(format.id);
    }
    let budget = crate::limits::expansion_budget(data.len() as u64).into();
    let target = Target { root, req, budget: &budget };
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
    if format.is_archive() && !format.codec_for(name).converts_whole() {
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
/// `x.<table>.csv` for tables); several assets go into `<stem>/`, except one named
/// [`NamedAsset::BESIDE`], which sits beside that folder as `<stem>.<ext>` (the document that indexes it).
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
        let base = match named.name.as_deref() {
            None | Some(NamedAsset::BESIDE) => stem,
            Some(name) => name,
        };
        for out in export::export_with(&named.asset, req.to.as_deref(), base, req.options.compression)? {
            let rel = if single || named.name.as_deref() == Some(NamedAsset::BESIDE) {
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
    // An archive may hold what its entries are converted with (an FTG's palette).
    let entry_req;
    let target = match format.codec.entry_options(data, &target.req.options) {
        Some(options) => {
            entry_req = ConvertRequest { options, ..target.req.clone() };
            &Target { root: target.root, req: &entry_req, budget: target.budget }
        }
        None => target,
    };
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
        let converted = if inner.is_archive() && !inner.codec_for(&entry.name).converts_whole() {
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
