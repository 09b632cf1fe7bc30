//! `relic edit`: entries of an archive added or replaced (from files or folders), deleted (by name or
//! pattern) and merged from other archives, in place, for every archive relic writes (`ro-grf`, `ei-res`,
//! `dr-ftg`, `drakan-srsc`). Each format is edited the cheapest way that is safe: a crash at any moment
//! leaves the old archive or the new one on disk, never one that does not read.
//!
//! - GRF: the new data and a new table are appended and the header rewritten last (see
//!   [`crate::ragnarok::grf::edit`]); untouched entries are neither read nor written, and the space replaced
//!   entries and the old table took is dead until `--repack`, which writes the archive afresh to a temporary
//!   file and renames it over the old one.
//! - RES, FTG, SRSC: these formats keep their table where the data ends and their files are small next to
//!   client GRFs, so the archive is written afresh beside itself and renamed over the old one (the folder's
//!   one atomic step); untouched entries are streamed from the mapped old archive, never copied whole.
//!
//! One edit of an archive at a time: the archive is locked before it is read and until the new one is in
//! place and read back (see [`paths::lock_for_edit`]); a second edit waits (`EditRequest::wait`), then
//! refuses. A rewritten archive keeps the old one's mode and owner, and is an unnamed file until whole, so
//! a kill leaves no temporary file; where one is left, the next edit in that folder removes it (see
//! [`paths::replace_durably`]).
//!
//! What happens, in order: deletions apply to the archive's entries as they were; merged archives' entries
//! come next (a later archive's entry wins over an earlier one of the same name), then added files (which
//! win over merged entries; a name added twice is refused). An entry whose name an added entry has (names
//! compared as the game compares them: ASCII case ignored, `\` and `/` alike; an SRSC record by type, id
//! and group) is replaced where it stands and keeps its stored name; the others are added at the end.
//! New names are stored in the archive's encoding (CP949 for GRF, cp1251 for RES, Windows-1252 for FTG)
//! and refused, named, when it cannot hold them or when they could not be extracted safely.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use crate::asset::{Entry, EntryData};
use crate::dark_reign::ftg;
use crate::drakan::srsc;
use crate::error::{Error, Result};
use crate::evil_islands::res;
use crate::paths;
use crate::ragnarok::grf;
use crate::registry::{self, PackRequest};
use crate::source::{self, Source};

/// What to add: one file, or every file below a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddSpec {
    /// A file stored as `name` (`/` or `\` between folders), by default under its file name.
    File { path: PathBuf, name: Option<String> },
    /// Every file below `dir` (what the system leaves there excepted, as `pack` does), named by its path
    /// below it, under `prefix` when given. For GRF a folder named `data` keeps its name, as in `pack`.
    Folder { dir: PathBuf, prefix: Option<String> },
}

impl AddSpec {
    /// Reads `PATH[=NAME]` (`folder`: `DIR[=PREFIX]`) as the command line gives it. A path may hold `=`, and
    /// so may a name: the whole text is the path when something on disk has that name, else the text is
    /// split at the first `=` whose left side names something on disk, else at the first `=` (the missing
    /// path is then reported).
    pub fn parse(arg: &str, folder: bool) -> AddSpec {
        let splits = || {
            arg.match_indices('=').map(|(at, _)| {
                let (path, rest) = arg.split_at(at);
                (path, rest.strip_prefix('=').unwrap_or(rest))
            })
        };
        let split = if Path::new(arg).exists() {
            None
        } else {
            splits().find(|(path, _)| !path.is_empty() && Path::new(path).exists()).or_else(|| splits().next())
        };
        let (path, name) = match split {
            Some((path, name)) => (PathBuf::from(path), Some(name.to_string()).filter(|n| !n.is_empty())),
            None => (PathBuf::from(arg), None),
        };
        if folder {
            AddSpec::Folder { dir: path, prefix: name }
        } else {
            AddSpec::File { path, name }
        }
    }
}

/// An edit of one archive (see the module for the order in which its parts apply).
#[derive(Debug, Clone, Default)]
pub struct EditRequest {
    pub add: Vec<AddSpec>,
    /// Entry names or patterns (matched as `extract` matches them: the entry's path or its file name,
    /// ASCII case ignored, `\` or `/` between folders).
    pub delete: Vec<String>,
    /// Archives whose entries are added (or replace entries of the same name).
    pub merge: Vec<PathBuf>,
    /// Write the archive afresh, without the space earlier edits left (GRF; the other formats are
    /// always written afresh).
    pub repack: bool,
    /// Say what would change, write nothing.
    pub dry_run: bool,
    /// How long to wait for another edit (or a reader) of the archive to finish before refusing; `None`:
    /// [`paths::DEFAULT_LOCK_WAIT`]. See [`paths::lock_for_edit`].
    pub wait: Option<std::time::Duration>,
}

/// How the archive was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EditMethod {
    /// GRF: data and table appended, header rewritten.
    Append,
    /// Written afresh to a temporary file, renamed over the archive.
    Rewrite,
    /// GRF `--repack`: written afresh, dead space dropped.
    Repack,
    /// Nothing to change: the archive was not touched.
    Unchanged,
}

/// What `edit` did (the `--json` output of `relic edit`).
#[derive(Debug, Clone, Serialize)]
pub struct EditReport {
    pub archive: String,
    pub format: &'static str,
    pub method: EditMethod,
    pub dry_run: bool,
    /// Names of the entries added, replaced and deleted, as the archive stores them.
    pub added: Vec<String>,
    pub replaced: Vec<String>,
    pub deleted: Vec<String>,
    /// Delete patterns that matched no entry (a warning each; the CLI exits 1).
    pub unmatched: Vec<String>,
    /// Entries the archive holds afterwards.
    pub entries: usize,
    pub bytes_before: u64,
    pub bytes_after: u64,
    /// Bytes written to disk (GRF in place: what was appended, and the header).
    pub bytes_written: u64,
    /// GRF: bytes no entry or table uses (left by edits; `--repack` drops them).
    pub dead_bytes: u64,
    pub notes: Vec<String>,
}

/// Where a new entry's bytes come from.
enum Body<'m> {
    /// A file the user named (`--add PATH`).
    File { path: PathBuf, size: u64, modified: Option<u64> },
    /// A file of a folder (`--add-folder`), read without following links (see [`registry::FolderFile`]).
    Listed(registry::FolderFile),
    /// An entry of a merged archive (decoded on demand: inflated, deciphered).
    Merged { data: EntryData<'m>, modified: Option<u64> },
}

impl<'m> Body<'m> {
    fn modified(&self) -> Option<u64> {
        match self {
            Body::File { modified, .. } | Body::Merged { modified, .. } => *modified,
            Body::Listed(f) => f.modified,
        }
    }

    /// The bytes, checked against `--max-entry-size` before a file is read.
    fn bytes(&self) -> Result<Cow<'m, [u8]>> {
        let check = |path: &Path, size: u64| {
            let max = crate::limits::current().max_entry_size;
            if size > max {
                return Err(Error::Refused(format!("{}: {size} bytes, over --max-entry-size ({max})", path.display())));
            }
            Ok(())
        };
        match self {
            Body::File { path, size, .. } => {
                // The path the user named, read by that name (as `pack` reads its input); bounded, so a
                // file swapped for a larger one since it was looked at is refused, not read whole.
                check(path, *size)?;
                let bytes = crate::source::read(path)?;
                Ok(Cow::Owned(bytes))
            }
            Body::Listed(f) => {
                check(&f.path, f.size)?;
                f.read().map(Cow::Owned)
            }
            Body::Merged { data, .. } => data.bytes(),
        }
    }
}

/// A name as stored by the archive's format.
#[derive(Debug, Clone)]
enum StoredName {
    /// GRF (CP949) and RES (cp1251) names, `\` between folders.
    Bytes(Vec<u8>),
    /// An FTG directory name field (Windows-1252, NUL padded).
    Field([u8; ftg::types::NAME_SIZE]),
    /// An SRSC record: type, id, group.
    Record { record_type: u16, id: u16, group: u16 },
}

/// An entry the edit writes that the archive did not hold.
struct Added<'m> {
    shown: String,
    name: StoredName,
    body: Body<'m>,
}

/// What becomes of an existing entry.
enum Fate<'m> {
    Keep,
    Delete,
    Replace(Body<'m>),
}

/// The archive parsed, by format.
enum Parsed<'a> {
    Grf(grf::Grf<'a>),
    Res(res::Res<'a>),
    Ftg(ftg::Ftg<'a>),
    Srsc(srsc::Srsc<'a>),
}

/// An existing entry as an edit sees it.
struct Existing {
    /// The path patterns match (`/` between folders); `None` for what is no entry (GRF folder records).
    path: Option<String>,
    /// What an added entry of the same name has (see `Editor::store_name`): the name folded as the game
    /// compares names, or for an SRSC record its type, id and group.
    identity: String,
    /// The name shown in the report.
    shown: String,
}

/// The archive being edited: its format and entries, and how new names are stored.
struct Editor<'a> {
    parsed: Parsed<'a>,
    existing: Vec<Existing>,
    /// SRSC: the group of the records in each folder (lower-cased group path).
    groups: HashMap<String, u16>,
}

/// The refusal of a format `relic edit` does not write, naming those it does (the archives whose
/// [`registry::Archive::edits_in_place`] says so).
fn not_edited(format_id: &str) -> Error {
    let edited: Vec<&str> =
        registry::FORMATS.iter().filter(|f| f.archive.is_some_and(|a| a.edits_in_place())).map(|f| f.id).collect();
    let list = match edited.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => edited.join(""),
    };
    Error::Refused(format!("`relic edit` writes {list} archives, not {format_id}"))
}

/// The game's notion of a name: ASCII case ignored, `\` and `/` alike.
fn fold(name: &str) -> String {
    name.replace('\\', "/").to_ascii_lowercase()
}

fn record_identity(record_type: u16, id: u16, group: u16) -> String {
    format!("{record_type:04x}:{id}:{group}")
}

impl<'a> Editor<'a> {
    fn new(format_id: &str, data: &'a [u8]) -> Result<Self> {
        let mut groups = HashMap::new();
        let (parsed, existing) = match format_id {
            grf::FORMAT_ID => {
                let g = grf::parse(data)?;
                let existing = g
                    .entries
                    .iter()
                    .map(|e| Existing {
                        path: e.record.is_file().then(|| e.name.replace('\\', "/")),
                        identity: if e.record.is_file() { fold(&e.name) } else { String::new() },
                        shown: e.name.clone(),
                    })
                    .collect();
                (Parsed::Grf(g), existing)
            }
            res::FORMAT_ID => {
                let r = res::parse(data)?;
                let existing = (0..r.len())
                    .map(|i| {
                        let name = crate::codec::text::decode(crate::codec::text::CP1251, r.name(i));
                        Existing { path: Some(name.replace('\\', "/")), identity: fold(&name), shown: name }
                    })
                    .collect();
                (Parsed::Res(r), existing)
            }
            ftg::FORMAT_ID => {
                let f = ftg::parse(data)?;
                let existing = f
                    .entries
                    .iter()
                    .map(|e| Existing {
                        path: Some(e.name.replace('\\', "/")),
                        identity: fold(&e.name),
                        shown: e.name.clone(),
                    })
                    .collect();
                (Parsed::Ftg(f), existing)
            }
            srsc::FORMAT_ID => {
                let s = srsc::parse(data)?;
                // Records are named as `extract` names them (`<group path>/<type>_<id>_<name>.bin`).
                let paths: Vec<String> = srsc::convert::entries(&s).into_iter().map(|e| e.path.into_owned()).collect();
                let existing = s
                    .entries
                    .iter()
                    .zip(&paths)
                    .map(|(e, path)| {
                        if let Some((folder, _)) = path.rsplit_once('/') {
                            groups.entry(folder.to_ascii_lowercase()).or_insert(e.group);
                        }
                        Existing {
                            path: Some(path.clone()),
                            identity: record_identity(e.record_type, e.id, e.group),
                            shown: path.clone(),
                        }
                    })
                    .collect();
                (Parsed::Srsc(s), existing)
            }
            other => return Err(not_edited(other)),
        };
        Ok(Editor { parsed, existing, groups })
    }

    fn format_id(&self) -> &'static str {
        match self.parsed {
            Parsed::Grf(_) => grf::FORMAT_ID,
            Parsed::Res(_) => res::FORMAT_ID,
            Parsed::Ftg(_) => ftg::FORMAT_ID,
            Parsed::Srsc(_) => srsc::FORMAT_ID,
        }
    }

    /// A new entry's name as the archive stores it, with its identity and the name shown; refused, named,
    /// when the archive's encoding cannot hold it or it could not be extracted safely.
    fn store_name(&self, name: &str) -> Result<(String, StoredName, String)> {
        let format = self.format_id();
        paths::safe_relative_path(name).map_err(|why| {
            Error::Refused(format!("{format}: the name `{}` cannot be stored: {why}", paths::display_name(name)))
        })?;
        let backslashed = name.replace('/', "\\");
        Ok(match self.parsed {
            Parsed::Grf(_) => (fold(name), StoredName::Bytes(grf::write::encode_name(name)?), backslashed),
            Parsed::Res(_) => (fold(name), StoredName::Bytes(res::write::encode_name(name)?), backslashed),
            Parsed::Ftg(_) => (fold(name), StoredName::Field(ftg::write::name_field(&backslashed)?), backslashed),
            Parsed::Srsc(_) => {
                let slashed = name.replace('\\', "/");
                let (folder, file) = slashed.rsplit_once('/').unwrap_or(("", &slashed));
                let refuse = |why: String| {
                    Error::Refused(format!(
                        "{format}: the name `{}` cannot be stored: {why}",
                        paths::display_name(name)
                    ))
                };
                let (record_type, id) = srsc::write::record_of_file_name(file)
                    .ok_or_else(|| refuse("records are named `<group path>/<type hex>_<id>[_<name>].bin`".into()))?;
                let group = if folder.is_empty() {
                    0
                } else if let Some(&g) = self.groups.get(&folder.to_ascii_lowercase()) {
                    g
                } else if let Some(g) = folder.rsplit('/').next().and_then(|l| l.strip_prefix("group_")?.parse().ok()) {
                    g
                } else {
                    return Err(refuse(format!("no record of the file is in a group `{folder}`")));
                };
                (record_identity(record_type, id, group), StoredName::Record { record_type, id, group }, slashed)
            }
        })
    }
}

/// The crash points of the kill tests: `RELIC_EDIT_ABORT_AT=after-data|after-table|after-header` stops the
/// process there (abort: no cleanup, as a crash or `kill -9`); `RELIC_EDIT_PAUSE_AT=POINT[:MILLIS]` says
/// `relic: paused at POINT` on stderr and sleeps there (30 s unless told), for a test to kill it or to race
/// it (also `locked`: the archive just locked). Read only in debug builds.
fn crash_point(point: &str) {
    #[cfg(debug_assertions)]
    if std::env::var("RELIC_EDIT_ABORT_AT").is_ok_and(|v| v == point) {
        std::process::abort();
    }
    #[cfg(debug_assertions)]
    if let Ok(pause) = std::env::var("RELIC_EDIT_PAUSE_AT") {
        let (at, millis) = pause.split_once(':').unwrap_or((&pause, "30000"));
        if at == point {
            eprintln!("relic: paused at {point}");
            std::thread::sleep(std::time::Duration::from_millis(millis.parse().unwrap_or(30_000)));
        }
    }
    #[cfg(not(debug_assertions))]
    let _ = point;
}

/// New entries as `(name as given, body)`.
type Named<'m> = Vec<(String, Body<'m>)>;

/// The new entries a request names, in order (merged archives' entries, then files), as `(name, body)`.
fn gather<'m>(
    request: &EditRequest,
    archive: &Path,
    format_id: &str,
    merged: &'m [(PathBuf, Source, &'static registry::Format)],
    lists: &'m [Vec<Entry<'m>>],
    notes: &mut Vec<String>,
) -> Result<(Named<'m>, Named<'m>)> {
    let mut from_merges = Vec::new();
    for ((path, _, format), list) in merged.iter().zip(lists) {
        for e in list {
            // Records are named by path (type, id, group path); the others by their stored name.
            let name = if e.record.is_some() { e.path.to_string() } else { e.name.replace('\\', "/") };
            let body = Body::Merged { data: e.data.clone(), modified: e.modified };
            from_merges.push((name, body));
        }
        notes.push(format!("merged {} entries of {} ({})", list.len(), path.display(), format.id));
    }
    let mut files = Vec::new();
    for spec in &request.add {
        match spec {
            AddSpec::File { path, name } => {
                let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
                if !meta.is_file() {
                    return Err(Error::Refused(format!(
                        "{}: not a file (use --add-folder for a folder)",
                        path.display()
                    )));
                }
                let name =
                    match name {
                        Some(n) => n.clone(),
                        None => path.file_name().and_then(|n| n.to_str()).map(str::to_owned).ok_or_else(|| {
                            Error::Refused(format!("{}: the name is not valid Unicode", path.display()))
                        })?,
                    };
                let body = Body::File { path: path.clone(), size: meta.len(), modified: paths::modified_secs(&meta) };
                files.push((name, body));
            }
            AddSpec::Folder { dir, prefix } => {
                if !dir.is_dir() {
                    return Err(Error::Refused(format!("{}: not a folder", dir.display())));
                }
                let collected = super::collect_folder(dir, archive, &PackRequest::default())?;
                notes.extend(collected.notes.iter().cloned());
                let kept = match prefix {
                    None if format_id == grf::FORMAT_ID => grf::write::kept_folder_name(&collected.files),
                    _ => None,
                };
                let prefix = prefix.clone().or(kept).map(|p| p.trim_matches(['/', '\\']).to_string());
                for f in &collected.files {
                    let name = match &prefix {
                        Some(p) if !p.is_empty() => format!("{p}/{}", f.relative),
                        _ => f.relative.clone(),
                    };
                    files.push((name, Body::Listed(f.clone())));
                }
            }
        }
    }
    Ok((from_merges, files))
}

/// Applies `request` to `archive` (see the module): the archive is edited in place, or with `dry_run`
/// only looked at. Refused before anything is written when a name cannot be stored, a file cannot be
/// read, or the archive is no archive relic writes.
pub fn edit(archive: &Path, request: &EditRequest) -> Result<EditReport> {
    edit_inner(archive, request).map_err(|e| e.in_file(archive))
}

fn edit_inner(archive: &Path, request: &EditRequest) -> Result<EditReport> {
    // The archive is written in place: a link is refused, as every write of relic refuses one.
    let meta = std::fs::symlink_metadata(archive).map_err(|e| Error::io(archive, e))?;
    if meta.file_type().is_symlink() {
        return Err(Error::Refused("refusing to edit through a link (relic never writes through links)".into()));
    }
    if !meta.is_file() {
        return Err(Error::Refused("not a file".into()));
    }
    // One edit at a time, and no reader while it writes (a dry run is a reader): taken before the archive
    // is read, so the table an edit starts from is the last edit's.
    let wait = request.wait.unwrap_or(paths::DEFAULT_LOCK_WAIT);
    let lock = if request.dry_run { paths::lock_for_reading(archive)? } else { paths::lock_for_edit(archive, wait)? };
    crash_point("locked");
    // The file locked (the name may have been renamed over while this edit waited): what a rewrite keeps.
    let meta = match &lock {
        Some(l) => l.metadata().map_err(|e| Error::io(archive, e))?,
        None => meta,
    };
    let data = Arc::new(source::open(archive)?);
    let (format, _) = registry::sniff(&data, &archive.to_string_lossy())
        .ok_or_else(|| Error::Unsupported("not a format relic knows".into()))?;
    if !format.archive.is_some_and(|a| a.edits_in_place()) {
        return Err(not_edited(format.id));
    }
    let editor = Editor::new(format.id, &data)?;

    let merged = request
        .merge
        .iter()
        .map(|p| {
            let src = source::open(p)?;
            let (f, _) = registry::sniff(&src, &p.to_string_lossy())
                .filter(|(f, _)| f.is_archive())
                .ok_or_else(|| Error::Refused(format!("{}: not an archive relic reads", p.display())))?;
            Ok((p.clone(), src, f))
        })
        .collect::<Result<Vec<_>>>()?;
    let lists = merged
        .iter()
        .map(|(p, src, f)| {
            f.for_name(&p.to_string_lossy())
                .entries(src, &p.to_string_lossy())
                .unwrap_or_else(|| Ok(Vec::new()))
                .map_err(|e| e.in_file(p))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut notes = Vec::new();
    if !request.dry_run {
        let folder = archive.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let removed = paths::remove_stale_temporaries(folder);
        if !removed.is_empty() {
            notes.push(format!(
                "removed {} temporary file{} an earlier relic edit left in {} when it was killed: {}",
                removed.len(),
                if removed.len() == 1 { "" } else { "s" },
                folder.display(),
                removed.join(", ")
            ));
        }
    }
    let (from_merges, files) = gather(request, archive, format.id, &merged, &lists, &mut notes)?;

    // Deletions, on the archive as it was; then the new entries by identity.
    let mut fates: Vec<Fate<'_>> = editor.existing.iter().map(|_| Fate::Keep).collect();
    let unmatched = mark_deletions(&editor.existing, &mut fates, &request.delete)?;
    let order = by_identity(&editor, from_merges, files)?;
    let mut by_identity: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, e) in editor.existing.iter().enumerate() {
        if e.path.is_some() {
            by_identity.entry(e.identity.as_str()).or_default().push(i);
        }
    }
    let mut report = EditReport {
        archive: archive.display().to_string(),
        format: format.id,
        method: EditMethod::Unchanged,
        dry_run: request.dry_run,
        added: Vec::new(),
        replaced: Vec::new(),
        deleted: Vec::new(),
        unmatched,
        entries: 0,
        bytes_before: data.len() as u64,
        bytes_after: data.len() as u64,
        bytes_written: 0,
        dead_bytes: 0,
        notes,
    };
    let mut added = Vec::new();
    for (identity, name, shown, body) in order {
        match by_identity.get(identity.as_str()).map(Vec::as_slice) {
            Some([first, rest @ ..]) => {
                // Replaced where it stands; further entries of the name (FTG keeps duplicates) go with it.
                for &i in rest {
                    if let Some(f) = fates.get_mut(i) {
                        *f = Fate::Delete;
                    }
                }
                if let Some(f) = fates.get_mut(*first) {
                    *f = Fate::Replace(body);
                }
            }
            _ => added.push(Added { shown, name, body }),
        }
    }
    for (e, fate) in editor.existing.iter().zip(&fates) {
        match fate {
            Fate::Keep => {}
            Fate::Delete => report.deleted.push(e.shown.clone()),
            Fate::Replace(_) => report.replaced.push(e.shown.clone()),
        }
    }
    report.added = added.iter().map(|a| a.shown.clone()).collect();
    let entries_after =
        editor.existing.iter().zip(&fates).filter(|(e, f)| e.path.is_some() && !matches!(f, Fate::Delete)).count()
            + added.len();
    report.entries = entries_after;
    let changes = report.deleted.len() + report.replaced.len() + added.len();
    if changes == 0 && !request.repack {
        return Ok(report);
    }
    let grf_archive = matches!(editor.parsed, Parsed::Grf(_));
    report.method = match (grf_archive, request.repack) {
        (true, false) => EditMethod::Append,
        (true, true) => EditMethod::Repack,
        (false, _) => EditMethod::Rewrite,
    };
    if request.dry_run {
        return Ok(report);
    }
    let target = Target { path: archive, like: &meta, lock: lock.as_ref() };
    match &editor.parsed {
        Parsed::Grf(g) => write_grf(&target, g, &fates, &added, request.repack, &mut report)?,
        Parsed::Res(r) => write_res(&target, &data, r, &fates, &added, &mut report)?,
        Parsed::Ftg(f) => write_ftg(&target, f, &fates, &added, &mut report)?,
        Parsed::Srsc(s) => write_srsc(&target, s, &fates, &added, &mut report)?,
    }
    // The edited archive must read back with the entries planned; writers never make one that does not.
    let check = source::open(archive)?;
    let count =
        Editor::new(format.id, &check).map(|e| e.existing.iter().filter(|x| x.path.is_some()).count()).map_err(
            |e| Error::Unsupported(format!("relic wrote an archive it cannot read back ({e}); please report this")),
        )?;
    if count != entries_after {
        return Err(Error::Unsupported(format!(
            "relic wrote an archive of {count} entries where {entries_after} were planned; please report this"
        )));
    }
    report.bytes_after = check.len() as u64;
    Ok(report)
}

/// Marks the existing entries the delete patterns match (see [`EditRequest::delete`]); returns the
/// patterns that matched none.
fn mark_deletions(existing: &[Existing], fates: &mut [Fate<'_>], globs: &[String]) -> Result<Vec<String>> {
    let Some(set) = super::extract::glob_set(globs)? else { return Ok(Vec::new()) };
    let mut matched = vec![false; globs.len()];
    for (e, fate) in existing.iter().zip(fates.iter_mut()) {
        let Some(path) = &e.path else { continue };
        let base = path.rsplit('/').next().unwrap_or(path);
        let hits: Vec<usize> = set.matches(path.as_str()).into_iter().chain(set.matches(base)).collect();
        if !hits.is_empty() {
            *fate = Fate::Delete;
        }
        for i in hits {
            if let Some(m) = matched.get_mut(i) {
                *m = true;
            }
        }
    }
    Ok(super::extract::unmatched(globs, &matched))
}

/// A new entry by identity: `(identity, stored name, name shown, body)`.
type Keyed<'m> = (String, StoredName, String, Body<'m>);

/// The new entries, one per identity, their names stored as the archive stores them: merged entries first
/// (a later one takes an earlier one's place), then files, which win over merged entries; a file named
/// twice is refused.
fn by_identity<'m>(editor: &Editor<'_>, from_merges: Named<'m>, files: Named<'m>) -> Result<Vec<Keyed<'m>>> {
    let mut order: Vec<Keyed<'m>> = Vec::new();
    let mut at: HashMap<String, (usize, bool)> = HashMap::new();
    for (from_file, (name, body)) in
        from_merges.into_iter().map(|x| (false, x)).chain(files.into_iter().map(|x| (true, x)))
    {
        let (identity, stored, shown) = editor.store_name(&name)?;
        match at.get(&identity).copied() {
            Some((_, true)) if from_file => {
                return Err(Error::Refused(format!(
                    "`{}` is added twice (names are compared as the game compares them)",
                    paths::display_name(&shown)
                )))
            }
            Some((k, _)) => {
                if let Some(slot) = order.get_mut(k) {
                    *slot = (identity.clone(), stored, shown, body);
                }
                at.insert(identity, (k, from_file));
            }
            None => {
                at.insert(identity.clone(), (order.len(), from_file));
                order.push((identity, stored, shown, body));
            }
        }
    }
    Ok(order)
}

/// The archive being written: its path, the metadata a rewrite keeps (mode, owner), the lock held.
struct Target<'t> {
    path: &'t Path,
    like: &'t std::fs::Metadata,
    lock: Option<&'t paths::ArchiveLock>,
}

/// Writes a rewritten archive over the target atomically: `fill` writes it to a new file beside it (unnamed
/// where the system allows, so a kill leaves nothing), which takes the archive's mode and owner and is
/// renamed over it (crash points `after-data`: the new file partly written, `after-table`: whole but not
/// renamed, `after-header`: renamed).
fn rewrite(
    target: &Target<'_>,
    notes: &mut Vec<String>,
    fill: impl FnOnce(&mut dyn std::io::Write) -> Result<u64>,
) -> Result<u64> {
    let archive = target.path;
    let mut written = 0;
    // The user's only copy: on disk before it takes the archive's name (a power loss leaves one or the other).
    let said = paths::replace_durably(archive, target.like, |w| {
        written = fill(w)?;
        crash_point("after-data");
        w.flush().map_err(|e| Error::io(archive, e))?;
        crash_point("after-table");
        Ok(())
    })?;
    notes.extend(said);
    crash_point("after-header");
    Ok(written)
}

fn write_grf(
    target: &Target<'_>,
    g: &grf::Grf<'_>,
    fates: &[Fate<'_>],
    added: &[Added<'_>],
    repack: bool,
    report: &mut EditReport,
) -> Result<()> {
    let mut changes = Vec::new();
    let mut bodies: Vec<&Body<'_>> = Vec::new();
    let mut deleted = vec![false; fates.len()];
    for (i, (fate, e)) in fates.iter().zip(&g.entries).enumerate() {
        match fate {
            Fate::Keep => {}
            Fate::Delete => {
                if let Some(d) = deleted.get_mut(i) {
                    *d = true;
                }
            }
            Fate::Replace(body) => {
                changes.push(grf::edit::NewEntry { name: e.name_raw.clone(), replaces: Some(i) });
                bodies.push(body);
            }
        }
    }
    for a in added {
        if let StoredName::Bytes(name) = &a.name {
            changes.push(grf::edit::NewEntry { name: name.clone(), replaces: None });
            bodies.push(&a.body);
        }
    }
    let load = |k: usize| -> Result<grf::edit::Content<'_>> {
        let body = bodies.get(k).ok_or_else(|| Error::Unsupported(format!("no new entry {k}")))?;
        // A plain zlib entry of a merged GRF is copied as it is once it is checked to inflate to its size.
        if let Body::Merged { data: EntryData::Zlib { packed, size, format, offset }, .. } = body {
            let at = crate::codec::zlib::At { format, field: "entry", offset: *offset };
            crate::codec::zlib::inflate_to(packed, *size, at, &mut std::io::sink())?;
            if let Ok(real_size) = u32::try_from(*size) {
                return Ok(grf::edit::Content::Compressed { packed: Cow::Borrowed(packed), real_size });
            }
        }
        body.bytes().map(grf::edit::Content::Plain)
    };
    let archive = target.path;
    if repack {
        report.bytes_written =
            rewrite(target, &mut report.notes, |w| grf::edit::write_compacted(g, &deleted, &changes, &load, w))?;
        return Ok(());
    }
    let opened = match target.lock {
        Some(lock) => lock.open_for_writing(archive),
        None => std::fs::OpenOptions::new().read(true).write(true).open(archive),
    };
    let mut file = opened.map_err(|e| Error::io(archive, e))?;
    // The old header, copied before the map it lies in shows the new one.
    let old_header = g.bytes().get(..grf::types::HEADER_SIZE).map(<[u8]>::to_vec).unwrap_or_default();
    let old_len = g.bytes().len() as u64;
    let done = grf::edit::append_in_place(&mut file, archive, g, &deleted, &changes, &load, &crash_point)?;
    // Should the new table not read back (a bug, never seen), the old header goes back and the appended
    // bytes are cut off: the archive is exactly as it was. (The lock held means no other edit appended
    // meanwhile, whose bytes this would cut off.)
    let expected = report.entries;
    let readable = source::open(archive).ok().and_then(|check| {
        let parsed = grf::parse(&check).ok()?;
        Some(parsed.file_count() == expected)
    });
    if readable != Some(true) {
        use std::io::{Seek, Write};
        let restored = file
            .seek(std::io::SeekFrom::Start(0))
            .and_then(|_| file.write_all(&old_header))
            .and_then(|()| file.set_len(old_len))
            .and_then(|()| file.sync_data());
        return Err(Error::Unsupported(format!(
            "relic wrote a GRF table that does not read back with the {expected} entries planned; {} (please report \
             this)",
            if restored.is_ok() { "the archive was put back as it was" } else { "putting the archive back failed" }
        )));
    }
    report.bytes_written = done.written;
    report.dead_bytes = done.dead;
    if done.dead > 0 {
        report.notes.push(format!("{} bytes of the archive are no longer used; --repack drops them", done.dead));
    }
    Ok(())
}

fn write_res(
    target: &Target<'_>,
    data: &Arc<Source>,
    r: &res::Res<'_>,
    fates: &[Fate<'_>],
    added: &[Added<'_>],
    report: &mut EditReport,
) -> Result<()> {
    let time = |t: Option<u64>| t.map_or(0, |t| u32::try_from(t).unwrap_or(u32::MAX));
    let source_of = |body: &Body<'_>| -> Result<res::PackSource> {
        Ok(match body {
            Body::File { path, size, .. } => res::PackSource::File { path: path.clone(), size: *size },
            Body::Listed(f) => res::PackSource::Listed(f.clone()),
            Body::Merged { .. } => res::PackSource::Bytes(body.bytes()?.into_owned()),
        })
    };
    let mut inputs = Vec::with_capacity(fates.len() + added.len());
    for (i, (fate, record)) in fates.iter().zip(&r.records).enumerate() {
        let name = r.name(i).to_vec();
        match fate {
            Fate::Keep => {
                let start = record.offset as usize;
                let source = res::PackSource::Mapped {
                    source: Arc::clone(data),
                    range: start..start.saturating_add(record.size as usize),
                };
                inputs.push(res::PackInput { name, modified: record.modified, source });
            }
            Fate::Delete => {}
            Fate::Replace(body) => {
                let existing = r.data(i);
                let source = match res_text_source(&name, Some(existing), body, &mut report.notes)? {
                    Some(text) => text,
                    None => source_of(body)?,
                };
                inputs.push(res::PackInput { name, modified: time(body.modified()), source })
            }
        }
    }
    for a in added {
        if let StoredName::Bytes(name) = &a.name {
            let source = match res_text_source(name, None, &a.body, &mut report.notes)? {
                Some(text) => text,
                None => source_of(&a.body)?,
            };
            inputs.push(res::PackInput { name: name.clone(), modified: time(a.body.modified()), source });
        }
    }
    report.bytes_written =
        rewrite(target, &mut report.notes, |w| res::write_archive(inputs, res::PackOptions::default(), w))?;
    Ok(())
}

/// A `.txt` added onto a text entry of a RES (`existing`, its bytes when it replaces one; a new entry is one
/// when its name has no extension, as convert tells them): its UTF-8 (byte order mark or not) encoded to
/// cp1251 as `pack` encodes a converted text, refused with the file, line and column when it is not UTF-8
/// or holds a character cp1251 has not. `None` for any other body (stored as it is).
fn res_text_source(
    name: &[u8],
    existing: Option<&[u8]>,
    body: &Body<'_>,
    notes: &mut Vec<String>,
) -> Result<Option<res::PackSource>> {
    let path = match body {
        Body::File { path, .. } => path,
        Body::Listed(f) => &f.path,
        Body::Merged { .. } => return Ok(None),
    };
    if !path.extension().is_some_and(|e| e.eq_ignore_ascii_case("txt")) {
        return Ok(None);
    }
    let entry = crate::codec::text::decode(crate::codec::text::CP1251, name);
    let is_text = match existing {
        Some(bytes) => res::text::entry_text(&entry, bytes).is_some(),
        None => !entry.rsplit(['/', '\\']).next().unwrap_or(&entry).contains('.'),
    };
    if !is_text {
        return Ok(None);
    }
    let bytes = body.bytes()?;
    let shown = path.display().to_string();
    let text = res::text::utf8_text(&entry, &shown, &bytes)?;
    let data = res::text::encode_text(&entry, &shown, text)?;
    notes.push(format!("{shown}: UTF-8 text encoded to cp1251 for the text entry `{entry}`"));
    Ok(Some(res::PackSource::Bytes(data)))
}

/// Loads the bodies an FTG or SRSC rewrite stores anew (what an edit adds: the kept entries are borrowed).
fn load_all<'b, 'm>(bodies: impl Iterator<Item = &'b Body<'m>>) -> Result<Vec<Cow<'m, [u8]>>>
where
    'm: 'b,
{
    bodies.map(Body::bytes).collect()
}

fn write_ftg(
    target: &Target<'_>,
    f: &ftg::Ftg<'_>,
    fates: &[Fate<'_>],
    added: &[Added<'_>],
    report: &mut EditReport,
) -> Result<()> {
    let replacing = fates.iter().filter_map(|fate| if let Fate::Replace(b) = fate { Some(b) } else { None });
    let loaded = load_all(replacing.chain(added.iter().map(|a| &a.body)))?;
    let mut loaded = loaded.iter();
    let mut entries: Vec<([u8; ftg::types::NAME_SIZE], &[u8])> = Vec::with_capacity(fates.len() + added.len());
    for (i, (fate, e)) in fates.iter().zip(&f.entries).enumerate() {
        match fate {
            Fate::Keep => entries.push((e.name_field, f.data(i))),
            Fate::Delete => {}
            Fate::Replace(_) => entries.push((e.name_field, loaded.next().map_or(&[][..], |b| b))),
        }
    }
    for a in added {
        if let StoredName::Field(field) = &a.name {
            entries.push((*field, loaded.next().map_or(&[][..], |b| b)));
        }
    }
    let order: Vec<usize> = (0..entries.len()).collect();
    report.bytes_written = rewrite(target, &mut report.notes, |w| ftg::write::write_in_order_to(&entries, &order, w))?;
    Ok(())
}

fn write_srsc(
    target: &Target<'_>,
    s: &srsc::Srsc<'_>,
    fates: &[Fate<'_>],
    added: &[Added<'_>],
    report: &mut EditReport,
) -> Result<()> {
    use srsc::write::RecordRef;
    let replacing = fates.iter().filter_map(|fate| if let Fate::Replace(b) = fate { Some(b) } else { None });
    let loaded = load_all(replacing.chain(added.iter().map(|a| &a.body)))?;
    let mut loaded = loaded.iter();
    let mut records = Vec::with_capacity(fates.len() + added.len());
    for (i, (fate, e)) in fates.iter().zip(&s.entries).enumerate() {
        let record = |body| RecordRef { record_type: e.record_type, id: e.id, group: e.group, body };
        match fate {
            Fate::Keep => records.push(record(s.body(i))),
            Fate::Delete => {}
            Fate::Replace(_) => records.push(record(loaded.next().map_or(&[][..], |b| b))),
        }
    }
    for a in added {
        if let StoredName::Record { record_type, id, group } = a.name {
            records.push(RecordRef { record_type, id, group, body: loaded.next().map_or(&[][..], |b| b) });
        }
    }
    let order: Vec<usize> = (0..records.len()).collect();
    let version = s.header.version;
    report.bytes_written =
        rewrite(target, &mut report.notes, |w| srsc::write::write_packed_to(version, &records, &order, w))?;
    Ok(())
}
