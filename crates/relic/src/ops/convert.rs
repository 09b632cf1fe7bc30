//! `relic convert`: files, folders and archives to open formats; a batch never stops at a bad entry.

use std::path::{Path, PathBuf};

use crate::parallel::prelude::*;
use serde::Serialize;

use crate::asset::Entry;
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
    /// Keep the outputs an earlier run left and write only the missing ones (`--skip-existing`); without
    /// it or `force`, the outputs already there are one refusal of the run, counted (see
    /// [`ConvertReport::existing_refusal`]).
    pub skip_existing: bool,
    pub options: ConvertOptions,
    /// Read every input as this format instead of identifying it (`--format`): for layouts that have no
    /// magic and are never sniffed (Dark Reign's headerless FTG sprites).
    pub format: Option<&'static Format>,
    /// Only the inputs of this shard (`--shard K/N`); the layout root is still found over every input, so
    /// the union of the shards is one whole run.
    pub shard: Option<super::Shard>,
    /// The inputs come from a list (`--files-from`): a file of no known format, or of a format not
    /// converted yet, is skipped as in a walked folder, not a failure.
    pub listed: bool,
    /// The folder output paths are taken relative to (`--base`); the deepest folder holding every input
    /// when absent (see [`layout_root`]).
    pub base: Option<PathBuf>,
}

/// One written output (the `--json` manifest of `relic convert`).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ManifestItem {
    pub input: String,
    pub output: String,
    /// `image`, `sound`, `model`, `document` or `raw`.
    pub kind: &'static str,
}

/// One failure of a run, for the `--json` manifest: the input (a file, or `file/entry`) and why.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct FailedItem {
    pub input: String,
    pub message: String,
}

#[derive(Debug, Default)]
pub struct ConvertReport {
    pub outputs: Vec<ManifestItem>,
    /// Inputs that failed, one line each (`input: message`).
    pub failures: Vec<String>,
    /// The same failures, input and message apart, in the same order.
    pub failed: Vec<FailedItem>,
    /// Files in walked folders that were not converted, one line each with the reason (no format matched,
    /// or the format is read but not converted yet).
    pub skipped: Vec<String>,
    /// The files this run took up (those of its shard), as found.
    pub inputs: Vec<String>,
    /// Outputs that were already there (an earlier conversion's) and were left as they were, in the order
    /// met: kept with `skip_existing`, else refused once in [`ConvertReport::existing_refusal`].
    pub existing: Vec<String>,
    /// The one failure that stands for every output already there (without `force` or `skip_existing`),
    /// also the first of `failures` and `failed`: `OUT: already holds N of the M files …`.
    pub existing_refusal: Option<String>,
    /// The run's warnings for a person, each once: those of an input's conversion name it
    /// (`x.rsm: texture 'y.bmp' not found (looked in …)`), in the order of the inputs; then any other note
    /// of the run.
    pub warnings: Vec<String>,
    /// The files the inputs looked for and did not find (textures, models), once per input and name.
    pub missing: Vec<registry::MissingFile>,
    /// One line per kind of file in `missing`: `12 textures not found for 5 inputs (7 different files)`.
    pub missing_summary: Vec<String>,
    /// The records written beside the outputs ([`crate::record`]): relic's, so not among `outputs`.
    pub records: Vec<String>,
}

/// A file to convert and the folder its outputs go to.
struct Job {
    path: PathBuf,
    out_dir: PathBuf,
    /// Named on the command line (an unknown format is then a failure, not a skip).
    explicit: bool,
    /// Output name without extension: the input's whole file name (`x.rsm` → `x.rsm.glb`, `x.rsm2` →
    /// `x.rsm2.glb`), so that it follows from the input's name alone, whatever else the batch holds.
    stem: String,
}

/// The folder a file's name is taken relative to: `--base`, else the deepest folder that holds every input
/// (a folder input counts as itself, a file as its folder). Paths are made absolute and `.`/`..` resolved
/// by name, without following links, so that `a/../b/x` and `b/x` agree.
pub fn layout_root(inputs: &[PathBuf], base: Option<&Path>) -> std::result::Result<PathBuf, String> {
    if let Some(base) = base {
        let root = paths::lexical_absolute(base);
        for input in inputs {
            if !paths::lexical_absolute(input).starts_with(&root) {
                return Err(format!(
                    "{} is not under --base {}: every input's outputs are placed by its path below the base",
                    input.display(),
                    base.display()
                ));
            }
        }
        return Ok(root);
    }
    let mut root: Option<PathBuf> = None;
    for input in inputs {
        let abs = paths::lexical_absolute(input);
        let folder = if input.is_dir() { abs } else { abs.parent().map(Path::to_path_buf).unwrap_or(abs) };
        root = Some(match root {
            None => folder,
            Some(r) => r.components().zip(folder.components()).take_while(|(a, b)| a == b).map(|(a, _)| a).collect(),
        });
    }
    Ok(root.unwrap_or_default())
}

/// Checks a conversion request before anything runs, for the CLI's usage errors (exit 2): `--option` keys
/// and values the formats offer, a `--to` target some format makes, inputs under `--base`, and for each file
/// named (not folders) a target its format can make.
pub fn check_convert_request(inputs: &[PathBuf], req: &ConvertRequest) -> std::result::Result<(), String> {
    registry::check_settings(&req.options.settings)?;
    layout_root(inputs, req.base.as_deref())?;
    let Some(to) = req.to.as_deref() else { return Ok(()) };
    let all = registry::all_targets();
    if !all.iter().any(|t| t.eq_ignore_ascii_case(to)) {
        return Err(format!("unknown --to target `{to}` (one of {})", all.join(", ")));
    }
    if req.listed {
        return Ok(());
    }
    for input in inputs.iter().filter(|p| p.is_file()) {
        let Ok(Some((format, _))) = registry::identify_path(input) else { continue };
        let name = input.to_string_lossy();
        if !can_make(format, &name, to) {
            return Err(format!(
                "{} is {} ({}), which converts to {}, not {to}",
                input.display(),
                format.id,
                format.name,
                format.targets_for(&name).join(", ")
            ));
        }
    }
    Ok(())
}

fn can_make(format: &Format, name: &str, to: &str) -> bool {
    format.targets_for(name).iter().any(|t| t.eq_ignore_ascii_case(to))
}

/// Converts files and folders. Outputs are laid out by one rule, a pure function of each input's path: a
/// file at `REL/NAME` below the root ([`layout_root`]) writes `out/REL/NAME.<ext>` when it makes one file,
/// and `out/REL/NAME/…` (with an index document as `out/REL/NAME.json` beside it, for some formats) when it
/// makes several; an archive's entries go into `out/REL/NAME/` by their own paths, by the same rule. So the
/// name follows from the input's name alone, two inputs never share an output, and N shards of a list write
/// what one run would. The output folder is never walked into. A bad file or entry does not stop the batch:
/// it is reported in `failures`, and `outputs` lists exactly the files written.
pub fn convert(inputs: &[PathBuf], out_dir: &Path, req: &ConvertRequest, progress: &dyn Progress) -> ConvertReport {
    let mut report = ConvertReport::default();
    let root = match layout_root(inputs, req.base.as_deref()) {
        Ok(root) => root,
        Err(message) => {
            report.failures.push(message.clone());
            report.failed.push(FailedItem { input: String::new(), message });
            return report;
        }
    };
    let out_abs = paths::lexical_absolute(out_dir);
    let out_real = out_dir.canonicalize().ok();
    // The output folder, met while walking an input (`convert -o out .`), holds outputs, not inputs.
    let is_output =
        |p: &Path| paths::lexical_absolute(p) == out_abs || (out_real.is_some() && p.canonicalize().ok() == out_real);
    let place = |path: &Path| -> PathBuf {
        let abs = paths::lexical_absolute(path);
        let rel = abs.strip_prefix(&root).unwrap_or(&abs);
        rel.parent().map_or_else(|| out_dir.to_path_buf(), |p| out_dir.join(p))
    };
    let mut jobs = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let walk = walkdir::WalkDir::new(input)
                .sort_by_file_name()
                .into_iter()
                .filter_entry(|e| !(e.file_type().is_dir() && e.depth() > 0 && is_output(e.path())));
            for entry in walk {
                match entry {
                    Ok(e) if e.file_type().is_file() => jobs.push(Job {
                        path: e.path().to_path_buf(),
                        out_dir: place(e.path()),
                        explicit: false,
                        stem: file_name(e.path()),
                    }),
                    Ok(_) => {}
                    Err(err) => {
                        report.failed.push(FailedItem { input: input.display().to_string(), message: err.to_string() })
                    }
                }
            }
        } else {
            jobs.push(Job {
                path: input.clone(),
                out_dir: place(input),
                explicit: !req.listed,
                stem: file_name(input),
            });
        }
    }
    // A file named twice (`convert samples samples/x.cam`, a list with a line twice) is converted once, in
    // its first place; named on the command line once, it keeps the failure rules of a named file.
    let mut first: std::collections::HashMap<PathBuf, usize> = Default::default();
    let mut unique: Vec<Job> = Vec::with_capacity(jobs.len());
    for job in jobs {
        match first.entry(paths::lexical_absolute(&job.path)) {
            std::collections::hash_map::Entry::Occupied(e) => {
                if let Some(kept) = unique.get_mut(*e.get()) {
                    kept.explicit |= job.explicit;
                }
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(unique.len());
                unique.push(job);
            }
        }
    }
    let jobs = unique;
    // A file another input converts as part of itself (a Drakan database's SRSC files, converted through
    // the `.db` with its references resolved) is converted there only: one input, one set of outputs. Over
    // every input, before the shards are taken, so that N shards still write what one run would.
    let (jobs, claimed) = leave_claimed(jobs, req);
    let claimed = super::Shard::select(req.shard, claimed, |(file, _)| file.as_path());
    let jobs = super::Shard::select(req.shard, jobs, |j| j.path.as_path());
    report.inputs = jobs.iter().map(|j| j.path.display().to_string()).collect();
    // Taken up by this run all the same: each is an input of one shard, skipped as converted elsewhere.
    for (file, by) in claimed {
        report.inputs.push(file.display().to_string());
        report.skipped.push(format!("{}: converted through {}", file.display(), by.display()));
    }
    progress.start(jobs.len() as u64);
    let claimed = Claimed::default();
    let results: Vec<(Job, Converted)> = jobs
        .into_par_iter()
        .map(|job| {
            let r = convert_file(&job, out_dir, req, &claimed);
            progress.advance(1);
            (job, r)
        })
        .collect();
    // The notes the inputs' warnings already say (the others are the run's own, said as they are).
    let mut named_raw: Vec<String> = Vec::new();
    for (job, r) in results {
        match r {
            Converted::Done(mut batch) => {
                report.records.extend(batch.records.iter().cloned());
                for (raw, line) in std::mem::take(&mut batch.notes) {
                    if !named_raw.contains(&raw) {
                        named_raw.push(raw);
                    }
                    if !report.warnings.contains(&line) {
                        report.warnings.push(line);
                    }
                }
                for m in std::mem::take(&mut batch.missing) {
                    if !report.missing.contains(&m) {
                        report.missing.push(m);
                    }
                }
                // An output an earlier run left is not this input's failure: counted for the whole run.
                batch.failures.retain(|(_, e)| match existing_output(e) {
                    Some(path) => {
                        report.existing.push(path.to_string());
                        false
                    }
                    None => true,
                });
                let (items, failures) = batch.failure_lines();
                report.outputs.extend(items);
                report.failed.extend(failures);
            }
            Converted::Unknown if !job.explicit => report.skipped.push(format!(
                "{}: {}",
                job.path.display(),
                registry::unknown_reason(&job.path.to_string_lossy())
            )),
            Converted::Unknown => report.failed.push(FailedItem {
                input: job.path.display().to_string(),
                message: registry::unknown_reason(&job.path.to_string_lossy()),
            }),
            Converted::NotYet(id) => report.skipped.push(format!(
                "{}: {id} is read but not converted yet (`--to json` gives its data)",
                job.path.display()
            )),
            Converted::NotTo(id, to) => {
                report.skipped.push(format!("{}: {id} cannot be made into {to}", job.path.display()))
            }
        }
    }
    // The run's notes stay where a library caller reads them; those no input's warning says are said as
    // they are, once.
    let run_notes: std::collections::BTreeSet<String> =
        req.options.notes.lock().unwrap_or_else(std::sync::PoisonError::into_inner).iter().cloned().collect();
    report.warnings.extend(run_notes.into_iter().filter(|n| !named_raw.contains(n)));
    report.missing_summary = missing_summary(&report.missing);
    if let (Some(first), false) = (report.existing.first(), req.skip_existing) {
        let message = format!(
            "already holds {} of the {} files this conversion writes (the first: {first}), left as they were; use \
             --force to overwrite them or --skip-existing to keep them",
            report.existing.len(),
            report.existing.len() + report.outputs.len()
        );
        let refusal = FailedItem { input: out_dir.display().to_string(), message };
        report.existing_refusal = Some(format!("{}: {}", refusal.input, refusal.message));
        report.failed.insert(0, refusal);
    }
    report.failures = report.failed.iter().map(|f| format!("{}: {}", f.input, f.message)).collect();
    report
}

/// One line per kind of file not found: how many (once per input and name), for how many inputs, and how
/// many different names.
fn missing_summary(missing: &[registry::MissingFile]) -> Vec<String> {
    let mut kinds: Vec<&str> = missing.iter().map(|m| m.what).collect();
    kinds.sort_unstable();
    kinds.dedup();
    let plural = |n: usize, one: &str| if n == 1 { format!("{n} {one}") } else { format!("{n} {one}s") };
    kinds
        .into_iter()
        .map(|what| {
            let of: Vec<&registry::MissingFile> = missing.iter().filter(|m| m.what == what).collect();
            let inputs: std::collections::BTreeSet<&str> = of.iter().map(|m| m.input.as_str()).collect();
            let names: std::collections::BTreeSet<String> = of.iter().map(|m| m.name.to_ascii_lowercase()).collect();
            format!(
                "{} not found for {} ({})",
                plural(of.len(), what),
                plural(inputs.len(), "input"),
                plural(names.len(), "different file")
            )
        })
        .collect()
}

/// How a write refuses an output that exists (without `--force`); [`existing_output`] recognises it.
const EXISTS: &str = " exists (use --force to overwrite)";

/// The output path of a refusal to overwrite an existing file (as [`Target::write`] and `paths` word it).
fn existing_output(e: &Error) -> Option<&str> {
    match e.without_file() {
        Error::Refused(message) => message.strip_suffix(EXISTS),
        _ => None,
    }
}

/// The jobs no other job's conversion takes up, and those it does with the input that does (see
/// [`registry::Codec::converts_beside`]); with `--format`, every input is read as that format and claims nothing.
/// Only files whose extension names a format are asked (a `.db`), so the others cost nothing.
fn leave_claimed(jobs: Vec<Job>, req: &ConvertRequest) -> (Vec<Job>, Vec<(PathBuf, PathBuf)>) {
    // (`--to json` gives each file's own data: a `.db`'s JSON holds no SRSC file.)
    if req.format.is_some() || req.to.as_deref().is_some_and(|t| t.eq_ignore_ascii_case("json")) {
        return (jobs, Vec::new());
    }
    let mut claims: std::collections::HashMap<PathBuf, PathBuf> = Default::default();
    for job in &jobs {
        let name = job.path.to_string_lossy();
        let Some(extension) = registry::extension_of(&name) else { continue };
        let by_name =
            registry::FORMATS.iter().filter(|f| f.extensions.iter().any(|e| e.eq_ignore_ascii_case(extension)));
        for format in by_name {
            for file in format.codec.converts_beside(&job.path) {
                claims.entry(paths::lexical_absolute(&file)).or_insert_with(|| job.path.clone());
            }
        }
    }
    if claims.is_empty() {
        return (jobs, Vec::new());
    }
    let mut claimed = Vec::new();
    let kept = jobs
        .into_iter()
        .filter(|job| match claims.get(&paths::lexical_absolute(&job.path)) {
            Some(by) if by != &job.path => {
                claimed.push((job.path.clone(), by.clone()));
                false
            }
            _ => true,
        })
        .collect();
    (kept, claimed)
}

/// The whole file name of a path (the stem of its outputs).
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.to_string_lossy().into_owned(), |n| n.to_string_lossy().into_owned())
}

/// What a [`Claimed`] refusal says, and how [`convert_entry`] tells it from an output that was there before
/// the run.
const CLASH: &str = "in this run: two inputs map to one output";

/// The outputs of one run and the input that wrote each: a second input mapped to a path already written
/// (an archive holding `x.mmp` and a raw `x.mmp.png`) fails instead of replacing the first, even with
/// `--force`.
#[derive(Default)]
struct Claimed(std::sync::Mutex<std::collections::HashMap<PathBuf, String>>);

impl Claimed {
    fn claim(&self, path: &Path, input: &str) -> Result<()> {
        let mut map = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match map.get(path) {
            Some(first) if first != input => Err(Error::Refused(format!(
                "{} is also an output of {first} {CLASH}, so it was not written again",
                path.display()
            ))),
            _ => {
                map.insert(path.to_path_buf(), input.to_string());
                Ok(())
            }
        }
    }
}

/// What became of one file.
enum Converted {
    /// Converted, perhaps in part: what was written and what failed.
    Done(Batch),
    /// No format matched.
    Unknown,
    /// A file met in a walked folder or a list whose format (this id) cannot be made into `--to` (this).
    NotTo(&'static str, String),
    /// A file met in a walked folder whose format (this id) has no conversion yet.
    NotYet(&'static str),
}

/// What one file (or one archive entry) produced: the files written, and the failures, each naming the
/// input file and the entry.
#[derive(Debug, Default)]
struct Batch {
    items: Vec<ManifestItem>,
    failures: Vec<(String, Error)>,
    /// Nothing the file gives can be made into `--to` (a model's archive asked for CSV).
    unfit: bool,
    /// The notes of each input's conversion: the note as made, and the warning line naming the input.
    notes: Vec<(String, String)>,
    /// The files each input looked for and did not find.
    missing: Vec<registry::MissingFile>,
    /// The record written of what this file gave ([`crate::record`]).
    records: Vec<String>,
}

impl Batch {
    fn failed(input: &str, err: Error) -> Self {
        Batch { failures: vec![(input.to_string(), err)], ..Default::default() }
    }
    fn extend(&mut self, other: Batch) {
        self.items.extend(other.items);
        self.failures.extend(other.failures);
        self.notes.extend(other.notes);
        self.missing.extend(other.missing);
        self.records.extend(other.records);
    }
    /// One failure per line: the input (file, or file/entry) and the message, its path not repeated.
    fn failure_lines(self) -> (Vec<ManifestItem>, Vec<FailedItem>) {
        let lines = self
            .failures
            .into_iter()
            .map(|(input, e)| {
                let msg = e.without_file().to_string();
                let message = msg.strip_prefix(&format!("{input}: ")).map(str::to_owned).unwrap_or(msg);
                FailedItem { input, message }
            })
            .collect();
        (self.items, lines)
    }
}

/// Files kept in memory by path below the output root ([`convert_in_memory`]).
type MemoryFiles = std::sync::Mutex<Vec<(PathBuf, Vec<u8>)>>;

/// Where a conversion writes: the output root (nothing is written outside it, nor through a link below
/// it) and the options.
struct Target<'r> {
    root: &'r Path,
    /// Where the files go instead of the disk ([`convert_in_memory`]): their paths below `root`.
    memory: Option<&'r MemoryFiles>,
    req: &'r ConvertRequest,
    /// What the archives of this input may still expand to (`--max-expansion` times the input's size),
    /// shared by its nested archives.
    budget: &'r std::sync::atomic::AtomicU64,
    /// Every output of the run so far, with the input that wrote it.
    claimed: &'r Claimed,
    /// The size of the input the budget is for (its errors give it).
    input_len: u64,
    /// Conversions of the archive being converted, by the stored bytes they came from, so that entries
    /// sharing one body are converted once (see [`SharedBodies`]); `None` outside an archive.
    shared: Option<&'r SharedBodies>,
    /// The input's bytes, kept: an archive that is the whole input gives its entries options that read
    /// other entries lazily (see [`registry::Codec::entry_options_shared`]).
    whole: Option<&'r std::sync::Arc<source::Source>>,
    /// What was written, for the record of this input ([`crate::record`]).
    recorder: Option<&'r crate::record::Recorder>,
}

/// What an archive's entries converted to, by the range of the archive they are stored in (its address
/// and length, valid while the archive's bytes are: one table per archive) and their format: 200 FTG
/// entries sharing one sprite are drawn once, and the others take its files under their own names.
/// Only bodies that more than one entry is stored in are kept (the others' files are written and dropped,
/// so converting an archive holds one entry's outputs at a time, not all of them).
#[derive(Default)]
struct SharedBodies {
    kept: std::sync::Mutex<std::collections::HashMap<BodyKey, SharedResult>>,
    /// The ranges (address, length) more than one entry is stored in.
    shared: std::collections::HashSet<(usize, usize)>,
}

/// A stored body: its address and length in the archive, the format it is read as, and the entry name's
/// extension (the codec a format picks can depend on it).
type BodyKey = (usize, usize, &'static str, String);

/// One conversion's files (named after `stem`) and the parts of it that failed.
type SharedResult = std::sync::Arc<(String, Vec<OutputFile>, Vec<String>)>;

impl SharedBodies {
    /// The table for `entries`: which of their stored ranges are shared.
    fn of(entries: &[Entry<'_>]) -> Self {
        let mut seen = std::collections::HashSet::new();
        let mut shared = std::collections::HashSet::new();
        for e in entries {
            if let crate::asset::EntryData::Stored(slice) = &e.data {
                let range = (slice.as_ptr() as usize, slice.len());
                if !seen.insert(range) {
                    shared.insert(range);
                }
            }
        }
        SharedBodies { kept: Default::default(), shared }
    }
    fn get(&self, key: &BodyKey) -> Option<SharedResult> {
        if !self.shared.contains(&(key.0, key.1)) {
            return None;
        }
        self.kept.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(key).cloned()
    }
    fn wants(&self, key: &BodyKey) -> bool {
        self.shared.contains(&(key.0, key.1))
    }
    fn put(&self, key: BodyKey, value: SharedResult) {
        self.kept.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(key, value);
    }
}

impl Target<'_> {
    /// Takes `n` bytes from the expansion budget, or refuses.
    fn spend(&self, format: &'static str, n: u64, file_len: u64) -> Result<()> {
        use std::sync::atomic::Ordering;
        match self.budget.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| left.checked_sub(n)) {
            Ok(_) => Ok(()),
            // What this input would have made so far, with these `n` bytes: what was spent of the budget, and
            // `n` (the real figures, not a sentinel).
            Err(left) => {
                let spent = crate::limits::expansion_budget(file_len).saturating_sub(left);
                crate::limits::check_expansion(format, "entries", spent.saturating_add(n), file_len)
            }
        }
    }

    fn write(&self, path: &Path, bytes: &[u8], modified: Option<u64>, input: &str) -> Result<()> {
        self.write_as(path, bytes, modified, input, None)
    }

    /// [`Target::write`], noting the file in the record with its role (taken from its name and bytes
    /// when `None`).
    fn write_as(
        &self,
        path: &Path,
        bytes: &[u8],
        modified: Option<u64>,
        input: &str,
        role: Option<(crate::record::Role, &str)>,
    ) -> Result<()> {
        self.write_unrecorded(path, bytes, modified, input)?;
        if let Some(recorder) = self.recorder {
            recorder.add(path, bytes, role.map(|r| r.0), role.map(|r| r.1).filter(|e| !e.is_empty()));
        }
        Ok(())
    }

    /// Writes the record of the input converted into `dir` as `stem` (`<stem>.relic.json`), when it has
    /// something for pack to learn; a record already there (of an earlier run) is rewritten, what it lists
    /// of files not written now kept; any other file of that name is left, as any output is.
    fn write_record(&self, dir: &Path, stem: &str, input: &str, format: &str, batch: &mut Batch) {
        let Some(recorder) = self.recorder else { return };
        let name = format!("{stem}{}", crate::record::RECORD_SUFFIX);
        let path = match output_path(dir, &name, "record") {
            Ok(p) => p,
            Err(e) => return batch.failures.push((input.to_string(), e)),
        };
        let previous = match self.memory {
            Some(_) => None,
            None => paths::read_unlinked(dir, Path::new(&name)).ok().flatten(),
        };
        let is_ours = previous.as_deref().is_some_and(|b| crate::record::is_record(&name, b));
        let Some(bytes) = recorder.finish(input, format, previous.as_deref().filter(|_| is_ours)) else { return };
        let force = self.req.force || is_ours;
        let written = self.claimed.claim(&path, input).and_then(|()| match self.memory {
            Some(memory) => {
                let relative = path.strip_prefix(self.root).unwrap_or(&path).to_path_buf();
                memory.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((relative, bytes));
                Ok(())
            }
            None => paths::write_bytes(self.root, &path, &bytes, WriteOptions { force, modified: None }),
        });
        match written {
            Ok(()) => batch.records.push(path.display().to_string()),
            Err(e) => batch.failures.push((input.to_string(), e)),
        }
    }

    fn write_unrecorded(&self, path: &Path, bytes: &[u8], modified: Option<u64>, input: &str) -> Result<()> {
        self.claimed.claim(path, input)?;
        if let Some(memory) = self.memory {
            let relative = path.strip_prefix(self.root).unwrap_or(path).to_path_buf();
            memory.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((relative, bytes.to_vec()));
            return Ok(());
        }
        // A file an earlier run wrote: refused before its bytes go anywhere (a rerun costs no writes), and
        // counted once for the run by `convert` (kept with --skip-existing). Links and folders are
        // refused by the write itself, in their own words.
        if !self.req.force && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file()) {
            return Err(Error::Refused(format!("{}{EXISTS}", path.display())));
        }
        paths::write_bytes(self.root, path, bytes, WriteOptions { force: self.req.force, modified })
    }
}

/// Converts one file.
fn convert_file(job: &Job, root: &Path, req: &ConvertRequest, claimed: &Claimed) -> Converted {
    let input = job.path.display().to_string();
    let data = match source::open(&job.path) {
        Ok(d) => std::sync::Arc::new(d),
        Err(e) => return Converted::Done(Batch::failed(&input, e)),
    };
    let name = job.path.to_string_lossy().into_owned();
    let sniffed = registry::sniff(&data, &name).map(|(f, _)| f);
    let Some(format) = req.format.or(sniffed) else { return Converted::Unknown };
    let to_json = req.to.as_deref().is_some_and(|t| t.eq_ignore_ascii_case("json"));
    if !job.explicit && !to_json && !format.capabilities.convert {
        return Converted::NotYet(format.id);
    }
    if let Some(to) = req.to.as_deref().filter(|to| !job.explicit && !can_make(format, &name, to)) {
        return Converted::NotTo(format.id, to.to_string());
    }
    let budget = crate::limits::expansion_budget(data.len() as u64).into();
    let recorder = crate::record::Recorder::new(&job.out_dir);
    let target = Target {
        root,
        memory: None,
        req,
        budget: &budget,
        claimed,
        input_len: data.len() as u64,
        shared: None,
        whole: Some(&data),
        recorder: Some(&recorder),
    };
    let mut batch = convert_bytes(format, &data, &name, &input, &job.out_dir, &job.stem, &target, 0, None);
    target.write_record(&job.out_dir, &job.stem, &file_name(&job.path), format.id, &mut batch);
    match (batch.unfit, req.to.as_deref()) {
        (true, Some(to)) if !job.explicit => Converted::NotTo(format.id, to.to_string()),
        _ => Converted::Done(batch),
    }
}

/// What [`convert_in_memory`] made.
#[derive(Debug, Default)]
pub struct InMemory {
    /// The files `relic convert` would write, by `/`-separated path below the output folder, in the order
    /// they were made.
    pub files: Vec<(String, Vec<u8>)>,
    /// What failed (`input: message`), as `relic convert` prints it.
    pub failures: Vec<String>,
    /// Notes for the user (a texture not found).
    pub notes: Vec<String>,
}

/// Converts one file's bytes as `relic convert FILE -o OUT` does, keeping in memory the files it would
/// write into `OUT` (the browser viewer's zip of a conversion). `name` is the file's name (its whole file
/// name leads the outputs' names, as `relic convert` names them); `path`, when the file is on disk, lets a
/// conversion find the files beside it; `options` are the conversion's (an archive entry's are those its
/// archive gives). Every file is still charged to the expansion budget and checked against the others'
/// paths.
pub fn convert_in_memory(
    name: &str,
    data: std::sync::Arc<source::Source>,
    path: Option<&Path>,
    options: &ConvertOptions,
    req: &ConvertRequest,
) -> InMemory {
    let root = Path::new("");
    let full = path.map_or_else(|| name.to_string(), |p| p.to_string_lossy().into_owned());
    let stem = file_name(Path::new(name));
    let notes = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let options = ConvertOptions { notes: std::sync::Arc::clone(&notes), ..options.clone() };
    let req = ConvertRequest { options, ..req.clone() };
    let mut out = InMemory::default();
    let format = req.format.or_else(|| registry::sniff(&data, &full).map(|(f, _)| f));
    let Some(format) = format else {
        out.failures.push(format!("{stem}: {}", registry::unknown_reason(&full)));
        return out;
    };
    let memory = std::sync::Mutex::new(Vec::new());
    let budget = crate::limits::expansion_budget(data.len() as u64).into();
    let claimed = Claimed::default();
    let recorder = crate::record::Recorder::new(root);
    let target = Target {
        root,
        memory: Some(&memory),
        req: &req,
        budget: &budget,
        claimed: &claimed,
        input_len: data.len() as u64,
        shared: None,
        whole: Some(&data),
        recorder: Some(&recorder),
    };
    // A file on disk converts knowing its path (depth 0 with its name as a path); an archive entry
    // converts as one (its name alone).
    let depth = if path.is_some() { 0 } else { 1 };
    let mut batch = convert_bytes(format, &data, &full, &stem, root, &stem, &target, depth, None);
    target.write_record(root, &stem, &stem, format.id, &mut batch);
    let (_, failed) = batch.failure_lines();
    out.failures = failed.into_iter().map(|f| format!("{}: {}", f.input, f.message)).collect();
    out.files = memory
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .into_iter()
        .map(|(p, bytes)| {
            let parts: Vec<String> = p.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            (parts.join("/"), bytes)
        })
        .collect();
    let mut notes = notes.lock().map(|n| n.clone()).unwrap_or_default();
    notes.sort();
    notes.dedup();
    out.notes = notes;
    out
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
    stored: Option<&[u8]>,
) -> Batch {
    let mut batch = Batch::default();
    let mut write = |rel: &str, bytes: &[u8], kind: &'static str| match output_path(dir, rel, "output")
        .and_then(|path| target.write(&path, bytes, None, input).map(|()| path))
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
    // An entry whose stored bytes another entry of its archive already converted takes that conversion's
    // files, renamed (a `.gltf` names its `.bin` inside, so it is always made anew).
    let key = stored.filter(|_| !target.req.to.as_deref().is_some_and(|t| t.eq_ignore_ascii_case("gltf")));
    let extension = registry::extension_of(name).unwrap_or_default().to_ascii_lowercase();
    let key = key.zip(target.shared).map(|(k, shared)| ((k.as_ptr() as usize, k.len(), format.id, extension), shared));
    if let Some(done) = key.as_ref().and_then(|(k, shared)| shared.get(k)) {
        let (first_stem, files, failed) = &*done;
        let produced = files.iter().map(|(_, bytes, _)| bytes.len() as u64).sum();
        if let Err(e) = target.spend(format.id, produced, target.input_len) {
            return Batch::failed(input, e);
        }
        for (rel, bytes, kind) in files.iter() {
            // The first entry's name leads the path (`A.SPR.png`, `A.SPR/…`) and may name a file in its
            // folder (`A.SPR/A.SPR.json`); what a conversion makes never depends on the entry's name (it
            // converts the bytes alone), so the files are the same under the other name.
            let renamed: Vec<String> = rel
                .split('/')
                .map(|part| match part.strip_prefix(first_stem.as_str()) {
                    Some(rest) => format!("{stem}{rest}"),
                    None => part.to_string(),
                })
                .collect();
            write(&renamed.join("/"), bytes, kind);
        }
        batch.failures.extend(failed.iter().map(|text| (input.to_string(), Error::Refused(text.clone()))));
        return batch;
    }
    // The parts of this file that fail while the rest converts (see `ConvertOptions::fail`) are its own, and
    // so are its notes and the files it did not find: each warning names its input.
    let failures = std::sync::Arc::default();
    let (notes, missing) = (std::sync::Arc::default(), std::sync::Arc::default());
    let options = registry::ConvertOptions {
        failures: std::sync::Arc::clone(&failures),
        notes: std::sync::Arc::clone(&notes),
        missing: std::sync::Arc::clone(&missing),
        ..target.req.options.clone()
    };
    let exported = export_assets(format, data, name, path, stem, target.req, &options);
    drop(options);
    let (notes, missing) = (take_shared(&notes), take_shared(&missing));
    let named = |mut batch: Batch| {
        batch.notes = named_notes(&notes, format, input, &target.req.options);
        batch.missing =
            missing.iter().map(|m| registry::MissingFile { input: input.to_string(), ..m.clone() }).collect();
        batch
    };
    let files = match exported {
        Ok(Some(files)) => files,
        Ok(None) => {
            let to = target.req.to.as_deref().unwrap_or_default();
            let mut batch =
                Batch::failed(input, Error::Unsupported(format!("{}: nothing in it can be made into {to}", format.id)));
            batch.unfit = true;
            return named(batch);
        }
        Err(e) => return named(Batch::failed(input, e)),
    };
    // What an archive entry's conversion makes is charged to the archive's budget too, not only what the
    // archive stores: 200 entries sharing one sprite, each drawn in full, stop at the budget. (A file
    // converted on its own is not charged: it may rightly draw on files beside it, as a map on its sectors.)
    let produced = files.iter().map(|(_, bytes, _)| bytes.len() as u64).sum();
    if depth > 0 {
        if let Err(e) = target.spend(format.id, produced, target.input_len) {
            return named(Batch::failed(input, e));
        }
    }
    for (rel, bytes, kind) in &files {
        write(rel, bytes, kind);
    }
    let failed = std::mem::take(&mut *failures.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    batch.failures.extend(failed.iter().map(|text| (input.to_string(), Error::Refused(text.clone()))));
    let batch = named(batch);
    if let Some((k, shared)) = key.filter(|(k, shared)| shared.wants(k)) {
        shared.put(k, std::sync::Arc::new((stem.to_string(), files, failed)));
    }
    batch
}

use export::OutputFile;

/// What a shared list holds, taken out of it.
fn take_shared<T>(list: &std::sync::Mutex<Vec<T>>) -> Vec<T> {
    std::mem::take(&mut *list.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
}

/// One input's notes, each once: given to the run's own notes as they were made (what library callers
/// read), and paired with the warning that names the input (`x.rsm: texture 'y.bmp' not found (…)`): a
/// leading format id or file name is the input's own, so the input's path takes its place.
fn named_notes(
    notes: &[String],
    format: &Format,
    input: &str,
    run: &registry::ConvertOptions,
) -> Vec<(String, String)> {
    let file = input.rsplit(['/', '\\']).next().unwrap_or(input);
    let mut named: Vec<(String, String)> = Vec::new();
    for note in notes {
        if named.iter().any(|(n, _)| n == note) {
            continue;
        }
        run.note(note.clone());
        // (A format's id: the input's own, or that of a file it draws, as a map its ground's: the message
        // says what it is about.)
        let ids = std::iter::once(format.id).chain(registry::FORMATS.iter().map(|f| f.id));
        let own = ids.chain([file]).find_map(|p| note.strip_prefix(p).and_then(|r| r.strip_prefix(": ")));
        named.push((note.clone(), format!("{input}: {}", own.unwrap_or(note))));
    }
    named
}

/// A file converted and its assets exported and named (see [`export::name_files`]); `None` when `--to` is
/// given and none of them can be made into it.
fn export_assets(
    format: &Format,
    data: &[u8],
    name: &str,
    path: Option<&Path>,
    stem: &str,
    req: &ConvertRequest,
    options: &registry::ConvertOptions,
) -> Result<Option<Vec<OutputFile>>> {
    let codec = format.codec_for(name);
    let assets = match path {
        Some(p) => codec.convert_at(data, p, options)?,
        None => {
            let nearby = options.nearby.clone().with_entry_name(name);
            let named = registry::ConvertOptions { nearby, ..options.clone() };
            codec.convert(data, &named)?
        }
    };
    export::name_files(&assets, stem, req.to.as_deref(), req.options.compression)
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
    // An archive may hold what its entries are converted with (an FTG's palette). What it notes meanwhile
    // (entries sharing data) is the archive's own, named after it; its entries' notes go to the run's.
    let entry_req;
    let run_options = &target.req.options;
    let archive_notes = std::sync::Arc::default();
    let scoped = registry::ConvertOptions { notes: std::sync::Arc::clone(&archive_notes), ..run_options.clone() };
    let options = match target.whole.filter(|w| std::ptr::eq(w.as_ptr(), data.as_ptr()) && w.len() == data.len()) {
        Some(whole) => format.codec.entry_options_shared(whole, &scoped),
        None => format.codec.entry_options(data, &scoped),
    };
    drop(scoped);
    let notes = named_notes(&take_shared(&archive_notes), format, input, run_options);
    let target = match options {
        Some(options) => {
            let options = registry::ConvertOptions { notes: std::sync::Arc::clone(&run_options.notes), ..options };
            entry_req = ConvertRequest { options, ..target.req.clone() };
            &Target { req: &entry_req, ..*target }
        }
        None => target,
    };
    // This archive's shared bodies: keyed by ranges of its bytes, which live as long as this call.
    let shared = SharedBodies::of(&entries);
    let target = &Target { shared: Some(&shared), ..*target };
    let results: Vec<Batch> =
        entries.par_iter().map(|entry| convert_entry(format, entry, input, dir, target, depth)).collect();
    let mut batch = Batch { notes, ..Default::default() };
    for b in results {
        batch.extend(b);
    }
    batch
}

/// Converts one archive entry (see [`convert_archive`]).
fn convert_entry(
    archive: &'static Format,
    entry: &Entry<'_>,
    input: &str,
    dir: &Path,
    target: &Target<'_>,
    depth: u32,
) -> Batch {
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
    let sniffed = registry::sniff(&bytes, &entry.name);
    // A text entry the archive knows (no format claims it): UTF-8 `.txt`, marked by its byte order mark
    // for `pack` (see [`crate::registry::Codec::entry_text`]).
    if let (None, Some(text)) = (&sniffed, archive.codec.entry_text(&entry.name, &bytes)) {
        let mut utf8 = Vec::with_capacity(3 + text.len());
        utf8.extend_from_slice(crate::codec::text::UTF8_BOM);
        utf8.extend_from_slice(text.as_bytes());
        let mut name = out.clone().into_os_string();
        name.push(".txt");
        let txt = PathBuf::from(name);
        let mut batch = Batch::default();
        // The record says it is a text, in the archive's code page, for a `.txt` whose mark an editor drops.
        let text_role = (crate::record::Role::Text, archive.codec.text_encoding());
        match target.write_as(&txt, &utf8, entry.modified, &entry_input, Some(text_role)) {
            Ok(()) => batch.items.push(ManifestItem {
                input: entry_input,
                output: txt.display().to_string(),
                kind: "document",
            }),
            Err(e) => batch.failures.push((entry_input, e)),
        }
        return batch;
    }
    if let Some((inner, _)) = sniffed {
        let converted = if inner.is_archive() && !inner.codec_for(&entry.name).converts_whole() {
            convert_archive(inner, &bytes, &entry.name, &entry_input, &entry_dir.join(base), target, depth + 1)
        } else {
            // Stored entries are slices of the archive, alive while it is converted: they may share a body.
            let stored = match &entry.data {
                crate::asset::EntryData::Stored(slice) => Some(*slice),
                _ => None,
            };
            convert_bytes(inner, &bytes, &entry.name, &entry_input, &entry_dir, base, target, depth + 1, stored)
        };
        // Converted, perhaps in part: what failed is reported as it is.
        if !converted.items.is_empty() || converted.failures.is_empty() {
            return converted;
        }
        // Nothing came of it. A format relic does not convert yet is kept raw quietly; anything else (a bad
        // file, one nested too deep, an expansion refused) is reported, and the entry is kept raw as well, so
        // that nothing is lost.
        // But an output that could not be written (one that exists without --force, a link, a full disk)
        // is no fault of the entry: keeping it raw then would write a second output for it beside the
        // first (`unit.bon` beside the `unit.bon.json` a previous run wrote).
        // (An output another entry of this run wrote first is different: the entry is then kept raw, so that
        // nothing is lost.)
        let unwritable = |e: &Error| match e.without_file() {
            Error::Refused(message) => !message.contains(CLASH),
            Error::Io { .. } => true,
            _ => false,
        };
        if converted.failures.iter().any(|(_, e)| unwritable(e)) {
            return converted;
        }
        if !converted.failures.iter().all(|(_, e)| matches!(e.without_file(), Error::Unsupported(_))) {
            batch.failures = converted.failures;
        }
    }
    match target.write(&out, &bytes, entry.modified, &entry_input) {
        Ok(()) => batch.items.push(ManifestItem { input: entry_input, output: out.display().to_string(), kind: "raw" }),
        Err(e) => batch.failures.push((entry_input, e)),
    }
    batch
}
