//! `relic pack`: a file of a format from a folder, its JSON, or another input it is made from.

use std::io::Write;
use std::path::Path;

use crate::error::{Error, Result};
use crate::paths::{self, WriteOptions};
use crate::registry::{self, FolderFile, PackRequest};
use crate::source;

#[derive(Debug, Clone, Default)]
pub struct PackOptions {
    pub force: bool,
    pub no_dedupe: bool,
    /// Pixel format for images (`--pixel-format dxt1`, …); each format's default when absent.
    pub pixel_format: Option<String>,
    /// Write a full mip chain (images).
    pub mips: bool,
    /// The version to write when packing a folder (`--version`); see [`crate::registry::Format::pack_versions`].
    pub version: Option<u32>,
    /// Map colours a palette cannot show to the nearest entry (`--quantize`; see [`PackRequest::quantize`]).
    pub quantize: bool,
    /// The file the input packs over (`--base`; see [`PackRequest::base`]).
    pub base: Option<std::path::PathBuf>,
}

/// The file `relic extract --recursive` leaves in the folder of each nested archive it descended into, so
/// that `relic pack` packs that folder back as the archive it was (an entry `unit.bon` of a RES, not
/// `unit.bon/body.bon` entries). Deleting it packs the folder's files as plain entries.
pub const NESTED_MARKER: &str = ".relic-archive.json";

/// What [`NESTED_MARKER`] holds.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct NestedArchive {
    /// The nested archive's format id.
    pub format: String,
    /// The entry's modification time in its archive (Unix seconds), given back to the packed entry.
    #[serde(default)]
    pub modified: Option<u64>,
    #[serde(default, skip_deserializing)]
    pub note: &'static str,
}

impl NestedArchive {
    pub const NOTE: &'static str =
        "relic pack packs this folder back as one archive entry of this format; delete this file to pack its files \
         as plain entries instead";
}

/// Files the operating system or an editor leaves in folders, never part of an archive: left out of a pack,
/// with a note.
pub fn is_system_litter(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    matches!(lower.as_str(), ".ds_store" | "thumbs.db" | "ehthumbs.db" | "desktop.ini" | ".directory")
        || name.ends_with('~')
        || name.starts_with("._")
}

/// A folder to pack: its files (sorted), nested archives already packed into `scratch` (see
/// [`NESTED_MARKER`]), and notes for the user (litter left out, archives packed).
pub struct CollectedFolder {
    pub files: Vec<FolderFile>,
    pub notes: Vec<String>,
    /// The folder given to pack: every file below it, nested archives' folders included, is read below it
    /// without following links (see [`FolderFile::open`]).
    root: std::path::PathBuf,
    /// Holds the nested archives packed for this folder until the pack is done.
    _scratch: Option<tempfile::TempDir>,
}

/// Lists the regular files under `dir` (sorted), skipping `exclude`, relic's own temporary files and the
/// system's litter ([`is_system_litter`]); a folder holding [`NESTED_MARKER`] is packed into one file of
/// its format first and stands in its place.
pub fn collect_folder(dir: &Path, exclude: &Path, request: &PackRequest) -> Result<CollectedFolder> {
    let mut collected =
        CollectedFolder { files: Vec::new(), notes: Vec::new(), root: dir.to_path_buf(), _scratch: None };
    let exclude = exclude.canonicalize().ok();
    let mut litter = Vec::new();
    collect_into(dir, dir, exclude.as_deref(), request, 0, &mut collected, &mut litter)?;
    if !litter.is_empty() {
        let shown: Vec<&str> = litter.iter().take(3).map(String::as_str).collect();
        let more = if litter.len() > 3 { format!(" and {} more", litter.len() - 3) } else { String::new() };
        collected.notes.push(format!(
            "left out {} the system made, not the game: {}{more}",
            if litter.len() == 1 { "1 file".to_string() } else { format!("{} files", litter.len()) },
            shown.join(", ")
        ));
    }
    Ok(collected)
}

fn collect_into(
    root: &Path,
    dir: &Path,
    exclude: Option<&Path>,
    request: &PackRequest,
    depth: u32,
    out: &mut CollectedFolder,
    litter: &mut Vec<String>,
) -> Result<()> {
    let relative_of = |path: &Path| -> Result<String> {
        let rel = path.strip_prefix(root).unwrap_or(path);
        Ok(rel
            .iter()
            .map(|c| c.to_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| Error::Refused(format!("{}: the name is not valid Unicode", path.display())))?
            .join("/"))
    };
    let mut walk = walkdir::WalkDir::new(dir).sort_by_file_name().into_iter();
    while let Some(entry) = walk.next() {
        let entry = entry.map_err(|e| Error::Refused(format!("{}: {e}", dir.display())))?;
        let path = entry.path();
        if entry.file_type().is_dir() {
            // Read as the files are, so a marker that is a link is not followed.
            let marker = match entry.depth() {
                0 => None,
                _ => paths::read_listed(&out.root, &path.join(NESTED_MARKER))?,
            };
            if let Some(marker) = marker {
                walk.skip_current_dir();
                let packed = pack_nested(path, &marker, relative_of(path)?, request, depth, out, litter)?;
                out.files.push(packed);
            }
            continue;
        }
        if !entry.file_type().is_file() {
            return Err(Error::Refused(format!("{}: not a regular file (links are not followed)", path.display())));
        }
        let name = entry.file_name().to_string_lossy();
        if name.starts_with(".relic-") && name.ends_with(".tmp") {
            continue;
        }
        // The packed folder's own note (a nested archive's folder packed by itself) is relic's, not an entry.
        if entry.depth() == 1 && name == NESTED_MARKER {
            continue;
        }
        if is_system_litter(&name) {
            litter.push(relative_of(path)?);
            continue;
        }
        // The record of a conversion ([`crate::record`]) is relic's, never an entry.
        if name.ends_with(crate::record::RECORD_SUFFIX) && is_record_file(&out.root, path) {
            out.notes.push(format!("left out {}: relic's record of a conversion, not an entry", relative_of(path)?));
            continue;
        }
        if exclude.is_some() && path.canonicalize().ok().as_deref() == exclude {
            continue;
        }
        let meta = entry.metadata().map_err(|e| Error::Refused(format!("{}: {e}", path.display())))?;
        out.files.push(FolderFile {
            relative: relative_of(path)?,
            path: path.to_path_buf(),
            root: out.root.clone(),
            size: meta.len(),
            modified: paths::modified_secs(&meta),
        });
    }
    Ok(())
}

/// Whether the file at `path` (below `root`) is a record of relic convert: its first bytes say so.
fn is_record_file(root: &Path, path: &Path) -> bool {
    let Ok(Some((file, _))) = paths::open_listed(root, path) else { return false };
    let mut head = Vec::with_capacity(64);
    let read = std::io::Read::read_to_end(&mut std::io::Read::take(file, 64), &mut head);
    read.is_ok() && crate::record::is_record(&path.to_string_lossy(), &head)
}

/// Packs the nested archive folder `dir` (see [`NESTED_MARKER`], whose bytes are `text`) into a scratch
/// file, as the entry `relative` of the folder being packed.
fn pack_nested(
    dir: &Path,
    text: &[u8],
    relative: String,
    request: &PackRequest,
    depth: u32,
    out: &mut CollectedFolder,
    litter: &mut Vec<String>,
) -> Result<FolderFile> {
    let marker = dir.join(NESTED_MARKER);
    let nested: NestedArchive = serde_json::from_slice(text)
        .map_err(|e| Error::Refused(format!("{}: not the file relic extract wrote ({e})", marker.display())))?;
    let format = registry::by_id(&nested.format)
        .filter(|f| f.is_archive())
        .ok_or_else(|| Error::Refused(format!("{}: `{}` is not an archive format", marker.display(), nested.format)))?;
    crate::ops::check_depth(format, &relative, depth + 1)?;
    let mut inner = CollectedFolder { files: Vec::new(), notes: Vec::new(), root: out.root.clone(), _scratch: None };
    collect_into(dir, dir, None, request, depth + 1, &mut inner, litter)?;
    if out._scratch.is_none() {
        out._scratch = Some(tempfile::tempdir().map_err(|e| Error::io(std::env::temp_dir(), e))?);
    }
    let scratch = out._scratch.as_ref().map(|t| t.path().to_path_buf()).unwrap_or_default();
    let file_name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let target = scratch.join(format!("{}-{file_name}", out.files.len()));
    let nested_request = PackRequest { output: target.clone(), version: None, ..request.clone() };
    let mut file = std::fs::File::create(&target).map_err(|e| Error::io(&target, e))?;
    let mut writer = std::io::BufWriter::new(&mut file);
    let size = format.pack_folder(inner.files, &nested_request, &mut writer).map_err(|e| e.in_file(dir))?;
    writer.flush().map_err(|e| Error::io(&target, e))?;
    drop(writer);
    // Its own nested archives' scratch files must outlive this pack too.
    if let Some(t) = inner._scratch {
        out.notes.extend(inner.notes);
        std::mem::forget(t.keep());
    } else {
        out.notes.extend(inner.notes);
    }
    out.notes.push(format!("packed the folder {relative}/ back as the {} archive `{relative}`", format.id));
    Ok(FolderFile { relative, path: target, root: scratch, size, modified: nested.modified })
}

/// What `pack` did: the size of the file written (its own, not the files beside it), the files written
/// beside it with their sizes, and notes for the user (a companion file taken from beside the JSON, …),
/// printed on stderr by the CLI.
#[derive(Debug, Default)]
pub struct PackReport {
    pub bytes: u64,
    /// Files written beside the output (a model's textures), each with its own size.
    pub companions: Vec<(std::path::PathBuf, u64)>,
    pub notes: Vec<String>,
}

/// Writes a file of `format_id` from `input`: a folder (archives), the JSON that `convert --to json`
/// writes, or another file the format is made from (a PNG for an image format, an INI for REG, …). The
/// result is read back with the format's own reader before it is kept.
pub fn pack(format_id: &str, input: &Path, output: &Path, opts: &PackOptions) -> Result<PackReport> {
    let format = registry::by_id(format_id)
        .ok_or_else(|| Error::Refused(format!("unknown format `{format_id}` (see `relic formats`)")))?;
    if !format.capabilities().write {
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
        version: opts.version,
        quantize: opts.quantize,
        base: opts.base.clone(),
        notes: Default::default(),
        companions: Default::default(),
    };
    let input_name = input.to_string_lossy();
    let is_json = registry::extension_of(&input_name).is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if let Some(v) = opts.version {
        check_pack_version(format, v, input.is_dir() || !is_json)?;
    }
    let wopts = WriteOptions { force: opts.force, modified: None };
    let mut report = PackReport::default();
    if input.is_dir() {
        if !format.is_archive() {
            return Err(Error::Refused(format!(
                "{} is not an archive: give the JSON that `relic convert --to json` writes",
                format.id
            )));
        }
        let collected = collect_folder(input, output, &request)?;
        report.notes.extend(collected.notes.iter().map(|n| format!("note: {n}")));
        let files = collected.files.clone();
        paths::write_named(output, wopts, |w| {
            let mut counted = CountingWriter { inner: w, count: 0 };
            format.pack_folder(files, &request, &mut counted)?;
            report.bytes = counted.count;
            Ok(())
        })?;
    } else {
        let mut content = source::read(input)?;
        // A PNG whose provenance chunks an editor dropped gets them back from the conversion's record.
        let records = crate::record::Records::default();
        if let Some((restored, note)) = crate::record::restore_png_text(input, &content, &records) {
            content = restored;
            report.notes.push(note);
        }
        report.notes.extend(records.take_warnings());
        let packed =
            crate::game_file::pack_bytes(format, &input_name, &content, &request).map_err(|e| e.in_file(input))?;
        let (bytes, companions) = (packed.bytes, packed.companions);
        report.notes.extend(packed.notes);
        report.bytes = bytes.len() as u64;
        let companions = companion_paths(output, companions, opts.force, &mut report.notes)?;
        paths::write_named(output, wopts, |w| w.write_all(&bytes).map_err(|e| Error::io(output, e)))?;
        for (path, bytes) in &companions {
            paths::write_named(path, wopts, |w| w.write_all(bytes).map_err(|e| Error::io(path, e)))?;
            check_written(path)?;
            report.companions.push((path.clone(), bytes.len() as u64));
        }
    }
    report.notes.extend(std::mem::take(&mut *request.notes.lock().unwrap_or_else(std::sync::PoisonError::into_inner)));
    // Writers never produce a file their own reader rejects; should one, the file is not left behind.
    let check = source::open(output)?;
    if let Err(e) = format.for_name(&output.to_string_lossy()).info(&check) {
        drop(check);
        let _ = std::fs::remove_file(output);
        return Err(Error::Unsupported(format!("relic wrote a file it cannot read back ({e}); please report this")));
    }
    Ok(report)
}

/// Where the files a format writes beside the output go: plain names in the output's folder, each refused
/// when it exists without `--force` (before anything is written; a file that already holds the same bytes is
/// left as it is) or when two share a name.
fn companion_paths(
    output: &Path,
    companions: Vec<(String, Vec<u8>)>,
    force: bool,
    notes: &mut Vec<String>,
) -> Result<Vec<(std::path::PathBuf, Vec<u8>)>> {
    let folder = output.parent().unwrap_or(Path::new(""));
    let mut out: Vec<(std::path::PathBuf, Vec<u8>)> = Vec::with_capacity(companions.len());
    for (name, bytes) in companions {
        let plain = !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0']);
        if !plain {
            return Err(Error::Unsupported(format!("a file beside the output is named `{name}`; please report this")));
        }
        let path = folder.join(&name);
        if path == output || out.iter().any(|(p, _)| p == &path) {
            return Err(Error::Refused(format!("two files written would share the name {}", path.display())));
        }
        if !force && (path.exists() || path.symlink_metadata().is_ok()) {
            // The same bytes already there (a texture two models share, packed one after the other) are
            // no overwrite: kept as they are. A link is never read through.
            let is_file = path.symlink_metadata().is_ok_and(|m| m.file_type().is_file());
            if is_file && source::read(&path).is_ok_and(|old| old == bytes) {
                notes.push(format!("{} beside it already holds what would be written: left as it is", path.display()));
                continue;
            }
            return Err(Error::Refused(format!("{} exists (use --force to overwrite)", path.display())));
        }
        out.push((path, bytes));
    }
    Ok(out)
}

/// A file written beside the output is read back by the format its bytes and name say it is.
fn check_written(path: &Path) -> Result<()> {
    let data = source::open(path)?;
    let name = path.to_string_lossy();
    let Some((format, _)) = registry::sniff(&data, &name) else {
        return Ok(());
    };
    if let Err(e) = format.for_name(&name).info(&data) {
        drop(data);
        let _ = std::fs::remove_file(path);
        return Err(Error::Unsupported(format!("relic wrote a file it cannot read back ({e}); please report this")));
    }
    Ok(())
}

/// `--version` must be one the format writes, and only a folder or a file the format is made from (a glTF)
/// is packed to a chosen version (a JSON document keeps its own).
pub fn check_pack_version(format: &registry::Format, version: u32, folder: bool) -> Result<()> {
    let versions = format.pack_versions;
    if versions.is_empty() {
        return Err(Error::Refused(format!("{} has one form: `--version` does not apply", format.id)));
    }
    if !versions.contains(&version) {
        let list: Vec<String> = versions.iter().map(|v| format!("0x{v:X}")).collect();
        return Err(Error::Refused(format!(
            "{} writes versions {} (the first is the default), not 0x{version:X}",
            format.id,
            list.join(", ")
        )));
    }
    if !folder {
        return Err(Error::Refused(format!(
            "`--version` applies when packing a folder or a glTF; a {} document keeps the version it names",
            format.id
        )));
    }
    Ok(())
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
