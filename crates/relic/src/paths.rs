//! Safe output paths and atomic writes. Extraction, conversion and packing never write outside the target
//! folder, never overwrite without `force`, and write each file to a temporary name before renaming it into
//! place, so no partial file ever stands under a final name.
//!
//! Names taken from files are checked twice: [`safe_relative_path`] refuses names that could leave the folder
//! or that cannot be created everywhere the files travel (`..`, rooted paths, drive letters, NUL and control
//! characters, Windows device names, over-long names); [`write_atomic`] then walks the folders below the
//! output root one component at a time and refuses any that is a link (a symlink, or on Windows a junction,
//! which `symlink_metadata` reports as a link too), so a link already sitting in the output folder cannot
//! redirect a write. The root itself is the user's choice and may be a link.
//!
//! Temporary files are registered while they exist, so that a Ctrl-C or SIGTERM handler can remove them
//! before the process exits ([`exit_removing_temporaries`]); only `kill -9` can leave one behind, and then
//! under its `.relic-*.tmp` name, never under a final one. An archive `relic edit` rewrites is an unnamed
//! file until whole where the system allows, and otherwise named `.relic-<pid>-*.tmp`, which the next edit
//! in that folder removes once that process is gone ([`replace_durably`], [`remove_stale_temporaries`]).
//! Archives edited in place are locked ([`lock_for_edit`], [`lock_for_reading`]).

use std::ffi::OsStr;
use std::fs::File;
use std::path::{Component, Path, PathBuf};
use std::time::SystemTime;

use crate::error::{Error, Result};

/// Longest file or folder name relic creates, in bytes (the limit of ext4, NTFS and APFS).
pub const MAX_COMPONENT_BYTES: usize = 255;
/// Longest relative path relic creates below an output folder, in bytes.
pub const MAX_RELATIVE_BYTES: usize = 1024;

/// Windows device names: `CON.txt` opens the console there, whatever the extension, so such names are
/// refused on every platform (the files travel).
const DEVICE_NAMES: &[&str] = &["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$", "CLOCK$"];

fn is_device_name(part: &str) -> bool {
    let base = part.split('.').next().unwrap_or(part).trim_end_matches(' ');
    let upper = base.to_ascii_uppercase();
    if DEVICE_NAMES.contains(&upper.as_str()) {
        return true;
    }
    // COM0–COM9 and LPT0–LPT9, with the superscript digits Windows also treats as devices.
    let mut chars = upper.chars();
    let prefix: String = chars.by_ref().take(3).collect();
    let rest: Vec<char> = chars.collect();
    (prefix == "COM" || prefix == "LPT") && matches!(rest.as_slice(), [d] if d.is_ascii_digit() || "¹²³".contains(*d))
}

/// Checks a relative path taken from a file (`/` or `\` separated) and turns it into a `PathBuf`.
/// Rejects empty names, NUL and control characters, absolute paths, drive letters (`C:`), `.`/`..`,
/// characters Windows does not allow in names, device names (`CON`, `aux.txt`, `COM1`, …), names ending in
/// a dot or space (Windows drops them, so two entries could meet), and over-long names.
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
    if path.len() > MAX_RELATIVE_BYTES {
        return Err(format!("path of {} bytes is longer than {MAX_RELATIVE_BYTES}", path.len()));
    }
    let mut out = PathBuf::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" => return Err("empty path component".into()),
            "." | ".." => return Err(format!("`{part}` path component")),
            _ if part.contains(':') => return Err("`:` in a path component".into()),
            _ if part.contains(['<', '>', '"', '|', '?', '*']) => {
                return Err("a character Windows does not allow in names (< > \" | ? *)".into())
            }
            _ if part.ends_with('.') || part.ends_with(' ') => {
                return Err("a name ending in a dot or space (Windows drops them)".into())
            }
            _ if is_device_name(part) => return Err(format!("`{part}` is a Windows device name")),
            _ if part.len() > MAX_COMPONENT_BYTES => {
                return Err(format!("a name of {} bytes is longer than {MAX_COMPONENT_BYTES}", part.len()))
            }
            _ => out.push(part),
        }
    }
    // Belt and braces: whatever the platform makes of the parts, only normal components may remain.
    if !out.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err("not a plain relative path".into());
    }
    Ok(out)
}

/// Whether a character can change what a terminal shows beyond itself: control characters (ESC starts
/// the sequences that clear a screen or move the cursor) and the bidirectional overrides that reorder text.
fn is_terminal_control(c: char) -> bool {
    c.is_control() || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The first of `folder` and the components `names` below it that is a symbolic link (or, on Windows, a
/// junction, which `symlink_metadata` reports as a link too). A missing component is no link.
fn first_link(folder: &Path, names: &[&OsStr]) -> Option<PathBuf> {
    let is_link = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink());
    let mut path = folder.to_path_buf();
    if is_link(&path) {
        return Some(path);
    }
    names.iter().find_map(|name| {
        path.push(name);
        is_link(&path).then(|| path.clone())
    })
}

/// What opening a file without following links found.
enum Opened {
    File(File),
    /// Nothing has the name (or a file stands where a folder is named).
    Missing,
    /// A folder, a FIFO, a device: not read.
    NotAFile,
    /// A link was met (Linux), or the file opened is not the one checked: a link was swapped in.
    Swapped,
}

/// `folder/rel` opened for reading when a regular file has that name, `None` when nothing (or a folder)
/// does; the path is returned for messages. Refused when `folder` (the document's `x/` beside `x.json`) or
/// any component below it is a symbolic link: a link may lead out of the document's folder, and folder packs
/// refuse links too.
///
/// The check and the open are one: a check by name followed by an open by name would follow a link
/// swapped in between (a TOCTOU race), so the file read is the one checked:
/// - on Linux every component is opened below the one before with `O_NOFOLLOW` (`openat`): no link is
///   ever followed, whenever it appears (with the `fs` feature, which brings rustix; without it, as on
///   other Unix systems);
/// - on other Unix systems the opened file must be the one the check saw (same device and inode), and the
///   folders are checked again once it is open (a folder swapped for a link and back within that window
///   is the one case left);
/// - on Windows the final component is opened without following a link or junction
///   (`FILE_FLAG_OPEN_REPARSE_POINT`) and the folders are checked again once it is open.
pub fn open_unlinked(folder: &Path, rel: &Path) -> Result<Option<(File, PathBuf)>> {
    let path = folder.join(rel);
    let names = rel
        .components()
        .map(|c| match c {
            Component::Normal(name) => Ok(name),
            _ => Err(Error::Refused(format!("refusing to read {}: not a plain relative path", path.display()))),
        })
        .collect::<Result<Vec<&OsStr>>>()?;
    if names.is_empty() {
        return Err(Error::Refused(format!("refusing to read {}: no file name", path.display())));
    }
    let refuse = |link: &Path| {
        Error::Refused(format!(
            "refusing to read {}: {} is a link (relic reads no file through a link here)",
            path.display(),
            link.display()
        ))
    };
    // `x.json` in the current folder has an empty parent.
    let folder = if folder.as_os_str().is_empty() { Path::new(".") } else { folder };
    // Checked first for the message that names the link; the open below is what makes it safe.
    if let Some(link) = first_link(folder, &names) {
        return Err(refuse(&link));
    }
    match open_no_follow(folder, &names).map_err(|e| Error::io(&path, e))? {
        Opened::File(file) => Ok(Some((file, path))),
        Opened::Missing | Opened::NotAFile => Ok(None),
        Opened::Swapped => Err(match first_link(folder, &names) {
            Some(link) => refuse(&link),
            None => Error::Refused(format!(
                "refusing to read {}: a link was swapped into its path while it was opened",
                path.display()
            )),
        }),
    }
}

/// The bytes of `folder/rel` when a regular file has that name, `None` when nothing (or a folder) does; a
/// link is refused and the file read is the one checked (see [`open_unlinked`]).
pub fn read_unlinked(folder: &Path, rel: &Path) -> Result<Option<Vec<u8>>> {
    read_opened(open_unlinked(folder, rel)?)
}

/// `path`, a file found by listing `root` (the folder `relic pack` was given), opened as [`open_unlinked`]
/// opens it: a link at `root` or below it, there when listed or swapped in since, is refused, and the file
/// read is the one checked. `None` when nothing (or a folder) has the name any more.
pub fn open_listed(root: &Path, path: &Path) -> Result<Option<(File, PathBuf)>> {
    let rel = path.strip_prefix(root).map_err(|_| {
        Error::Refused(format!("refusing to read {}: it is not inside {}", path.display(), root.display()))
    })?;
    open_unlinked(root, rel)
}

/// The bytes of `path` below `root` (see [`open_listed`]).
pub fn read_listed(root: &Path, path: &Path) -> Result<Option<Vec<u8>>> {
    read_opened(open_listed(root, path)?)
}

fn read_opened(opened: Option<(File, PathBuf)>) -> Result<Option<Vec<u8>>> {
    let Some((file, path)) = opened else { return Ok(None) };
    // Bounded by --max-entry-size, as every input is (`source::read_file`).
    crate::source::read_file(file, &path).map(Some)
}

#[cfg(all(target_os = "linux", feature = "fs"))]
fn open_no_follow(folder: &Path, names: &[&OsStr]) -> std::io::Result<Opened> {
    use rustix::fs::{Mode, OFlags};
    use rustix::io::Errno;
    let base = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let outcome = |r: rustix::io::Result<rustix::fd::OwnedFd>| match r {
        Ok(fd) => Ok(Ok(fd)),
        Err(Errno::LOOP) => Ok(Err(Opened::Swapped)),
        Err(Errno::NOENT | Errno::NOTDIR) => Ok(Err(Opened::Missing)),
        Err(e) => Err(std::io::Error::from(e)),
    };
    let Some((last, folders)) = names.split_last() else { return Ok(Opened::Missing) };
    let mut dir = match outcome(rustix::fs::open(folder, base | OFlags::DIRECTORY, Mode::empty()))? {
        Ok(fd) => fd,
        Err(opened) => return Ok(opened),
    };
    for name in folders {
        dir = match outcome(rustix::fs::openat(&dir, *name, base | OFlags::DIRECTORY, Mode::empty()))? {
            Ok(fd) => fd,
            Err(opened) => return Ok(opened),
        };
    }
    // Non-blocking, so that a FIFO put there cannot hold the open (it is refused below as not a file).
    let file = match outcome(rustix::fs::openat(&dir, *last, base | OFlags::NONBLOCK, Mode::empty()))? {
        Ok(fd) => File::from(fd),
        Err(opened) => return Ok(opened),
    };
    Ok(if file.metadata()?.is_file() { Opened::File(file) } else { Opened::NotAFile })
}

#[cfg(not(all(target_os = "linux", feature = "fs")))]
fn open_no_follow(folder: &Path, names: &[&OsStr]) -> std::io::Result<Opened> {
    let path = names.iter().fold(folder.to_path_buf(), |p, name| p.join(name));
    let before = match std::fs::symlink_metadata(&path) {
        Ok(m) if m.is_file() => m,
        Ok(m) if m.file_type().is_symlink() => return Ok(Opened::Swapped),
        Ok(_) => return Ok(Opened::NotAFile),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Opened::Missing),
        Err(e) => return Err(e),
    };
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // FILE_FLAG_OPEN_REPARSE_POINT: a link or junction at the name is opened itself, not followed.
    #[cfg(windows)]
    std::os::windows::fs::OpenOptionsExt::custom_flags(&mut options, 0x0020_0000);
    let file = match options.open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Opened::Missing),
        Err(e) => return Err(e),
    };
    let after = file.metadata()?;
    let swapped = after.file_type().is_symlink() || !same_file(&before, &after) || first_link(folder, names).is_some();
    Ok(if swapped { Opened::Swapped } else { Opened::File(file) })
}

/// Whether two metadata are of one file: same device and inode.
#[cfg(all(unix, not(all(target_os = "linux", feature = "fs"))))]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

/// Elsewhere std gives no stable file identity; Windows opens the final link itself instead (see
/// [`open_no_follow`]), and only a regular file is accepted.
#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    b.is_file()
}

/// `path` made absolute (against the current folder) with `.` and `..` resolved by name, links not
/// followed: what the user sees, for laying out outputs (`a/../b/x` and `b/x` are one path).
pub fn lexical_absolute(path: &Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Text made safe to print on a terminal: control characters and bidirectional overrides become escapes
/// (`\u{1b}`); everything else, non-ASCII letters included, is kept. `keep_newlines` leaves `\n` alone for
/// multi-line output.
pub fn terminal_safe(text: &str, keep_newlines: bool) -> std::borrow::Cow<'_, str> {
    let escape = |c: char| is_terminal_control(c) && !(keep_newlines && c == '\n');
    if !text.chars().any(escape) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if escape(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A name as it is shown in messages: terminal controls escaped, and shortened to its start and end when
/// it is over 120 characters (a hostile archive's names can be kilobytes long).
pub fn display_name(name: &str) -> String {
    const MAX: usize = 120;
    let escaped = terminal_safe(name, false);
    let count = escaped.chars().count();
    if count <= MAX {
        return escaped.into_owned();
    }
    let head: String = escaped.chars().take(MAX * 2 / 3).collect();
    let tail: String = escaped.chars().skip(count - MAX / 3).collect();
    format!("{head}…{tail}")
}

/// Joins a checked relative path under `root`, naming the entry in the error.
pub fn output_path(root: &Path, relative: &str, what: &str) -> Result<PathBuf> {
    safe_relative_path(relative)
        .map(|p| root.join(p))
        .map_err(|why| Error::Refused(format!("refusing to write {what} (path `{}`): {why}", display_name(relative))))
}

// Reads of the files a conversion finds by itself, kept under `relic view`'s root.
mod confined;
pub use confined::{may_look_in, read_found};

// The writers, with the batch operations that use them (the `fs` feature).
#[cfg(feature = "fs")]
mod write;
#[cfg(feature = "fs")]
#[cfg_attr(docsrs, doc(cfg(feature = "fs")))]
pub use write::{exit_removing_temporaries, write_atomic, write_bytes, write_named, write_named_durably, WriteOptions};
#[cfg(feature = "fs")]
pub use write::{remove_stale_temporaries, replace_durably};

#[cfg(feature = "fs")]
mod lock;
#[cfg(feature = "fs")]
#[cfg_attr(docsrs, doc(cfg(feature = "fs")))]
pub use lock::{lock_for_edit, lock_for_reading, ArchiveLock, DEFAULT_WAIT as DEFAULT_LOCK_WAIT};

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
        let long = "x".repeat(256);
        let deep = vec!["abcdefgh"; 120].join("/");
        for bad in ["a?b", "a*", "x/y|z", "dir./x", "name ", "a\u{1b}[2J", long.as_str(), deep.as_str()] {
            assert!(safe_relative_path(bad).is_err(), "{bad:?} accepted");
        }
        assert!(safe_relative_path(&"x".repeat(255)).is_ok());
        assert_eq!(safe_relative_path("a\\b/c.txt").unwrap(), Path::new("a").join("b").join("c.txt"));
        assert_eq!(safe_relative_path("quest q72h").unwrap(), PathBuf::from("quest q72h"));
    }

    #[cfg(feature = "fs")]
    #[test]
    fn atomic_write_refuses_overwrite_without_force_and_sets_time() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("sub/f.bin");
        let root = dir.path();
        write_bytes(root, &p, b"one", WriteOptions { force: false, modified: Some(1_000_000_000) }).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        let err = write_bytes(root, &p, b"two", WriteOptions::default()).unwrap_err();
        assert!(matches!(err, Error::Refused(_)), "{err}");
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        write_bytes(root, &p, b"two", WriteOptions { force: true, modified: None }).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        let meta = std::fs::metadata(dir.path().join("sub/f.bin")).unwrap();
        assert!(modified_secs(&meta).unwrap() > 1_000_000_000);
        // No temporary files left behind.
        let names: Vec<_> =
            std::fs::read_dir(dir.path().join("sub")).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("f.bin")]);
    }

    #[cfg(feature = "fs")]
    #[test]
    fn a_durable_write_replaces_only_with_force_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.grf");
        let write = |bytes: &'static [u8], force| {
            write_named_durably(&p, WriteOptions { force, modified: None }, |w| {
                w.write_all(bytes).map_err(|e| Error::io(&p, e))
            })
        };
        write(b"old", false).unwrap();
        assert!(matches!(write(b"new", false), Err(Error::Refused(_))));
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
        write(b"new", true).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("a.grf")]);
    }
}

#[cfg(test)]
mod device_and_link_tests {
    use super::*;

    #[test]
    fn windows_device_names_are_refused_on_every_platform() {
        for bad in
            ["CON", "con.txt", "aux", "Nul.mmp", "PRN", "COM1", "com9.res", "LPT1", "lpt3.x", "dir/CON/x", "CONIN$"]
        {
            let err = safe_relative_path(bad).unwrap_err();
            assert!(err.contains("device name"), "{bad:?}: {err}");
        }
        for good in ["CONSOLE", "com10", "auxData.res", "nul_x", "LPT", "concat.txt"] {
            assert!(safe_relative_path(good).is_ok(), "{good:?} refused");
        }
    }

    #[test]
    fn display_names_are_escaped_and_shortened() {
        assert_eq!(display_name("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(display_name("data\\texture\\ä.bmp"), "data\\texture\\ä.bmp");
        assert_eq!(terminal_safe("x\u{202E}y\n", true), "x\\u{202e}y\n");
        assert_eq!(terminal_safe("x\n", false), "x\\u{a}");
        let long = display_name(&"y".repeat(5000));
        assert!(long.chars().count() <= 121 && long.contains('…'), "{long}");
    }

    #[cfg(unix)]
    #[cfg(feature = "fs")]
    #[test]
    fn a_link_below_the_root_is_never_written_through() {
        let root = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), root.path().join("data")).unwrap();
        let target = root.path().join("data").join("x");
        let err = write_bytes(root.path(), &target, b"x", WriteOptions { force: true, modified: None }).unwrap_err();
        assert!(err.to_string().contains("is a link"), "{err}");
        assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
        // A link at the final name is refused too, with or without --force.
        std::os::unix::fs::symlink(elsewhere.path().join("f"), root.path().join("f")).unwrap();
        for force in [false, true] {
            let err = write_bytes(root.path(), &root.path().join("f"), b"x", WriteOptions { force, modified: None })
                .unwrap_err();
            assert!(err.to_string().contains("link"), "{err}");
        }
        assert!(!elsewhere.path().join("f").exists());
        // The root itself may be a link: the user chose it.
        let linked_root = root.path().join("out");
        std::os::unix::fs::symlink(elsewhere.path(), &linked_root).unwrap();
        write_bytes(&linked_root, &linked_root.join("ok"), b"ok", WriteOptions::default()).unwrap();
        assert_eq!(std::fs::read(elsewhere.path().join("ok")).unwrap(), b"ok");
    }

    #[cfg(feature = "fs")]
    #[test]
    fn paths_outside_the_root_are_refused() {
        let root = tempfile::tempdir().unwrap();
        let err = write_bytes(&root.path().join("a"), &root.path().join("b"), b"x", WriteOptions::default());
        assert!(err.is_err());
    }

    #[cfg(feature = "fs")]
    #[test]
    fn a_new_file_appears_whole_with_its_time_and_never_replaces_anything() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("d");
        let path = dir.join("f.bin");
        let opts = WriteOptions { force: false, modified: Some(1_000_000_000) };
        write_bytes(root.path(), &path, b"first", opts).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        let meta = std::fs::metadata(&path).unwrap();
        assert_eq!(modified_secs(&meta), Some(1_000_000_000));
        #[cfg(unix)]
        assert_eq!(std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o7000, 0);
        // Nothing else is left in the folder (no temporary file).
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, [std::ffi::OsString::from("f.bin")]);
        // Taken names: a file, a folder, a link; each refused with its own reason, nothing changed.
        let err = write_bytes(root.path(), &path, b"second", opts).unwrap_err().to_string();
        assert!(err.contains("exists (use --force"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        std::fs::create_dir(dir.join("sub")).unwrap();
        let err = write_bytes(root.path(), &dir.join("sub"), b"x", opts).unwrap_err().to_string();
        assert!(err.contains("is a folder"), "{err}");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&path, dir.join("link")).unwrap();
            let err = write_bytes(root.path(), &dir.join("link"), b"x", opts).unwrap_err().to_string();
            assert!(err.contains("is a link"), "{err}");
            assert_eq!(std::fs::read(&path).unwrap(), b"first");
        }
        // With --force the file is replaced.
        write_bytes(root.path(), &path, b"third", WriteOptions { force: true, modified: None }).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"third");
    }

    /// On Linux the file is written unnamed and linked into place where the file system allows it (ext4,
    /// tmpfs and xfs do), so this test knows which path the one above took.
    #[cfg(target_os = "linux")]
    #[cfg(feature = "fs")]
    #[test]
    fn linux_writes_unnamed_files() {
        let root = tempfile::tempdir().unwrap();
        use std::io::Write;

        use super::write::unnamed;
        match unnamed::create(root.path()).unwrap() {
            Some(mut file) => {
                file.write_all(b"abc").unwrap();
                let path = root.path().join("n");
                unnamed::link(&file, &path).unwrap();
                assert_eq!(std::fs::read(&path).unwrap(), b"abc");
                assert_eq!(unnamed::link(&file, &path).unwrap_err().kind(), std::io::ErrorKind::AlreadyExists);
            }
            None => eprintln!("skipped: this file system has no unnamed files (O_TMPFILE)"),
        }
    }
}
