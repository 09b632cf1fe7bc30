//! Safe output paths and atomic writes. Extraction and conversion never write outside the target folder,
//! never overwrite without `force`, and write each file to a temporary name before renaming it into place.

use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::error::{Error, Result};

/// Checks a relative path taken from a file (`/` or `\` separated) and turns it into a `PathBuf`.
/// Rejects empty names, NUL and control characters, absolute paths, drive letters (`C:`), and `.`/`..`.
pub fn safe_relative_path(path: &str) -> std::result::Result<PathBuf, String> {
    if path.is_empty() {
        return Err("empty name".into());
    }
    if path.chars().any(|c| c == '\0' || c.is_control()) {
        return Err("name contains a NUL or control character".into());
    }
    if path.starts_with('/') || path.starts_with('\\') {
        return Err("absolute path".into());
    }
    let bytes = path.as_bytes();
    if bytes.len() >= 2 && bytes[1] == b':' && bytes[0].is_ascii_alphabetic() {
        return Err("drive letter".into());
    }
    let mut out = PathBuf::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" => return Err("empty path component".into()),
            "." | ".." => return Err(format!("`{part}` path component")),
            _ if part.contains(':') => return Err("`:` in a path component".into()),
            _ => out.push(part),
        }
    }
    // Belt and braces: whatever the platform makes of the parts, only normal components may remain.
    if !out.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err("not a plain relative path".into());
    }
    Ok(out)
}

/// Joins a checked relative path under `root`, naming the entry in the error.
pub fn output_path(root: &Path, relative: &str, what: &str) -> Result<PathBuf> {
    safe_relative_path(relative)
        .map(|p| root.join(p))
        .map_err(|why| Error::Refused(format!("refusing to write {what} (path `{}`): {why}", relative.escape_debug())))
}

/// Options for writing one output file.
#[derive(Debug, Clone, Copy, Default)]
pub struct WriteOptions {
    pub force: bool,
    /// Modification time to set (Unix seconds).
    pub modified: Option<u64>,
}

/// Writes a file atomically: the content goes to a temporary file in the same folder, which is then renamed
/// into place (without replacing an existing file unless `force`). Parent folders are created.
pub fn write_atomic(
    path: &Path,
    opts: WriteOptions,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !opts.force && path.exists() {
        return Err(Error::Refused(format!("{} exists (use --force to overwrite)", path.display())));
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".relic-").suffix(".tmp");
    // Temporary files are private (0600); the finished file gets ordinary permissions.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
    let mut tmp = builder.tempfile_in(dir).map_err(|e| Error::io(dir, e))?;
    {
        let mut buf = std::io::BufWriter::with_capacity(1 << 16, tmp.as_file_mut());
        fill(&mut buf).map_err(|e| Error::io(path, e))?;
        buf.flush().map_err(|e| Error::io(path, e))?;
    }
    if let Some(secs) = opts.modified {
        let time = SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
        tmp.as_file().set_modified(time).map_err(|e| Error::io(path, e))?;
    }
    let persisted = if opts.force { tmp.persist(path) } else { tmp.persist_noclobber(path) };
    persisted.map_err(|e| {
        if e.error.kind() == std::io::ErrorKind::AlreadyExists {
            Error::Refused(format!("{} exists (use --force to overwrite)", path.display()))
        } else {
            Error::io(path, e.error)
        }
    })?;
    Ok(())
}

/// Writes bytes atomically (see [`write_atomic`]).
pub fn write_bytes(path: &Path, bytes: &[u8], opts: WriteOptions) -> Result<()> {
    write_atomic(path, opts, |w| w.write_all(bytes))
}

/// Modification time of a file in Unix seconds.
pub fn modified_secs(meta: &std::fs::Metadata) -> Option<u64> {
    meta.modified().ok()?.duration_since(SystemTime::UNIX_EPOCH).ok().map(|d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_escaping_paths() {
        for bad in
            ["", "../x", "a/../../x", "a\\..\\x", "/etc/passwd", "\\x", "C:\\x", "c:x", "a\0b", "a//b", "./a", "a/b:c"]
        {
            assert!(safe_relative_path(bad).is_err(), "{bad:?} accepted");
        }
        assert_eq!(safe_relative_path("a\\b/c.txt").unwrap(), Path::new("a").join("b").join("c.txt"));
        assert_eq!(safe_relative_path("quest q72h").unwrap(), PathBuf::from("quest q72h"));
    }

    #[test]
    fn atomic_write_refuses_overwrite_without_force_and_sets_time() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("sub/f.bin");
        write_bytes(&p, b"one", WriteOptions { force: false, modified: Some(1_000_000_000) }).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        let err = write_bytes(&p, b"two", WriteOptions::default()).unwrap_err();
        assert!(matches!(err, Error::Refused(_)), "{err}");
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        write_bytes(&p, b"two", WriteOptions { force: true, modified: None }).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        let meta = std::fs::metadata(dir.path().join("sub/f.bin")).unwrap();
        assert!(modified_secs(&meta).unwrap() > 1_000_000_000);
        // No temporary files left behind.
        let names: Vec<_> =
            std::fs::read_dir(dir.path().join("sub")).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("f.bin")]);
    }
}
