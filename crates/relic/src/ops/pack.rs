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
    /// Pixel format for images (`--format dxt1`, …); each format's default when absent.
    pub pixel_format: Option<String>,
    /// Write a full mip chain (images).
    pub mips: bool,
    /// The version to write when packing a folder (`--version`); see [`crate::registry::Codec::pack_versions`].
    pub version: Option<u32>,
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
        version: opts.version,
    };
    if let Some(v) = opts.version {
        check_pack_version(format, v, input.is_dir())?;
    }
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

/// `--version` must be one the format writes, and only a folder is packed to a chosen version (a JSON
/// document keeps its own).
pub fn check_pack_version(format: &registry::Format, version: u32, folder: bool) -> Result<()> {
    let versions = format.codec.pack_versions();
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
            "`--version` applies when packing a folder; a {} document keeps the version it names",
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
