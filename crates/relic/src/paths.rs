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
//! under its `.relic-*.tmp` name, never under a final one.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::fs::File;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

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
///   ever followed, whenever it appears;
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
            "refusing to read {}: {} is a link (pack reads no file through a link)",
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
    let Some((mut file, path)) = opened else { return Ok(None) };
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut file, &mut bytes).map_err(|e| Error::io(&path, e))?;
    Ok(Some(bytes))
}

#[cfg(target_os = "linux")]
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

#[cfg(not(target_os = "linux"))]
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
#[cfg(all(unix, not(target_os = "linux")))]
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

/// Options for writing one output file.
#[derive(Debug, Clone, Copy, Default)]
pub struct WriteOptions {
    pub force: bool,
    /// Modification time to set (Unix seconds).
    pub modified: Option<u64>,
}

/// Temporary files that exist right now (see [`exit_removing_temporaries`]).
static TEMPORARIES: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

fn temporaries() -> MutexGuard<'static, Option<HashSet<PathBuf>>> {
    TEMPORARIES.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Removes every temporary file relic is writing and exits with `code`, without letting another one be
/// created in between (the registry stays locked until the process ends). For Ctrl-C and SIGTERM handlers.
pub fn exit_removing_temporaries(code: i32) -> ! {
    let live = temporaries();
    for path in live.iter().flatten() {
        let _ = std::fs::remove_file(path);
    }
    std::process::exit(code)
}

/// Unregisters a temporary file when dropped (after the file itself is gone or renamed).
struct Registered(Option<PathBuf>);

impl Drop for Registered {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            if let Some(set) = temporaries().as_mut() {
                set.remove(&path);
            }
        }
    }
}

/// Creates the folders of `relative` below `root` one at a time, refusing any component that is a link or
/// a file. `root` itself is created if missing and may be a link (the user named it).
fn make_folders(root: &Path, relative: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(root).map_err(|e| Error::io(root, e))?;
    let mut dir = root.to_path_buf();
    for part in relative.components() {
        let Component::Normal(name) = part else {
            return Err(Error::Refused(format!(
                "refusing to write under {}: not a plain relative path",
                dir.display()
            )));
        };
        dir.push(name);
        check_folder(&dir, true)?;
    }
    Ok(dir)
}

/// `dir` must be a real folder (not a link); with `create`, a missing one is made.
fn check_folder(dir: &Path, create: bool) -> Result<()> {
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => Err(Error::Refused(format!(
            "refusing to write through {}: it is a link (relic never follows links in an output folder)",
            dir.display()
        ))),
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(Error::Refused(format!("cannot make folder {}: a file has that name", dir.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && create => match std::fs::create_dir(dir) {
            // Another thread may have made it meanwhile; either way it is checked again.
            Ok(()) => check_folder(dir, false),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => check_folder(dir, false),
            Err(e) => Err(Error::io(dir, e)),
        },
        Err(e) => Err(Error::io(dir, e)),
    }
}

/// A writer that keeps the first I/O error, so that a failure while filling a file is reported against the
/// file's path whatever the filling code made of it.
struct Capturing<'w> {
    inner: &'w mut dyn Write,
    error: Option<std::io::Error>,
}

impl Write for Capturing<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner.write(buf).inspect_err(|e| {
            self.error.get_or_insert_with(|| std::io::Error::new(e.kind(), e.to_string()));
        })
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush().inspect_err(|e| {
            self.error.get_or_insert_with(|| std::io::Error::new(e.kind(), e.to_string()));
        })
    }
}

/// Writes `root/relative` atomically: the content goes to a file nobody sees until it is whole, which then
/// takes its name, without replacing an existing file unless `force`. On Linux without `force` that file is
/// unnamed (`O_TMPFILE`) and linked into place; otherwise it is a temporary file in the same folder, renamed
/// into place. The folders below `root` are created one at a time and none may be a link; nor may the file
/// itself.
pub fn write_atomic(
    root: &Path,
    path: &Path,
    opts: WriteOptions,
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    write_atomic_as(root, path, opts, Durability::Process, fill)
}

/// What a finished write survives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Durability {
    /// relic being killed at any moment (the old file or the new one, never a part): outputs of `convert`,
    /// `extract` and `pack`, which a rerun makes again. No fsync, which would cost each of thousands of files.
    Process,
    /// A power loss too: the content is on disk before it takes the name, and the name change is on disk
    /// when the call returns. For an archive edited in place (`relic edit`), which is the user's only copy.
    Power,
}

fn write_atomic_as(
    root: &Path,
    path: &Path,
    opts: WriteOptions,
    durability: Durability,
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    let durable = durability == Durability::Power;
    let relative = path.strip_prefix(root).map_err(|_| {
        Error::Refused(format!("refusing to write {}: it is not inside {}", path.display(), root.display()))
    })?;
    let Some(Component::Normal(_)) = relative.components().next_back() else {
        return Err(Error::Refused(format!("refusing to write {}: no file name", path.display())));
    };
    let dir = make_folders(root, relative.parent().unwrap_or(Path::new("")))?;
    // Without --force, on Linux: an unnamed file in the folder, filled, then linked under its name. A file
    // nobody can see until it is whole, nothing to clean up if relic is killed, and one change to the folder
    // (a temporary name and a rename are two); the link fails if anything has the name.
    #[cfg(target_os = "linux")]
    if !opts.force {
        if let Some(file) = unnamed::create(&dir).map_err(|e| Error::io(&dir, e))? {
            let mut file = file;
            fill_file(&mut file, path, fill)?;
            if let Some(secs) = opts.modified {
                let time = SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
                file.set_modified(time).map_err(|e| Error::io(path, e))?;
            }
            if durable {
                file.sync_all().map_err(|e| Error::io(path, e))?;
            }
            unnamed::link(&file, path).map_err(|e| taken(path, e))?;
            return if durable { sync_folder(&dir) } else { Ok(()) };
        }
    }
    if let Some(refused) = refusal(path, opts.force) {
        return Err(refused);
    }
    let mut builder = tempfile::Builder::new();
    builder.prefix(".relic-").suffix(".tmp");
    // Temporary files are private (0600); the finished file gets ordinary permissions.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
    // The registry is held while the file is created, so a signal handler sees every temporary file.
    let mut registered = Registered(None);
    let mut tmp = {
        let mut live = temporaries();
        let tmp = builder.tempfile_in(&dir).map_err(|e| Error::io(&dir, e))?;
        live.get_or_insert_with(HashSet::new).insert(tmp.path().to_path_buf());
        registered.0 = Some(tmp.path().to_path_buf());
        tmp
    };
    fill_file(tmp.as_file_mut(), path, fill)?;
    if let Some(secs) = opts.modified {
        let time = SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
        tmp.as_file().set_modified(time).map_err(|e| Error::io(path, e))?;
    }
    if durable {
        tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
    }
    let persisted = if opts.force { tmp.persist(path) } else { tmp.persist_noclobber(path) };
    persisted.map_err(|e| taken(path, e.error))?;
    drop(registered);
    if durable {
        sync_folder(&dir)?;
    }
    Ok(())
}

/// Puts a folder's entries (a rename, a link) on disk. Unix only: Windows cannot open a folder as a file,
/// and its `MoveFileEx` of a flushed file is what it offers.
fn sync_folder(dir: &Path) -> Result<()> {
    #[cfg(unix)]
    std::fs::File::open(dir).and_then(|d| d.sync_all()).map_err(|e| Error::io(dir, e))?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Fills `file` through a buffer; an I/O error is reported against `path` whatever `fill` made of it.
fn fill_file(file: &mut std::fs::File, path: &Path, fill: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
    let mut buf = std::io::BufWriter::with_capacity(1 << 16, file);
    let mut capturing = Capturing { inner: &mut buf, error: None };
    let filled = fill(&mut capturing).and_then(|()| capturing.flush().map_err(|e| Error::io(path, e)));
    if let Err(e) = filled {
        return Err(capturing.error.take().map_or(e, |io| Error::io(path, io)));
    }
    buf.flush().map_err(|e| Error::io(path, e))
}

/// Why `path` cannot be written: a link or a folder has the name (never written through or over), or a
/// file does and there is no --force. `None` when nothing stands in the way.
fn refusal(path: &Path, force: bool) -> Option<Error> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    Some(Error::Refused(if meta.file_type().is_symlink() {
        format!("refusing to write {}: it is a link (relic never writes through links)", path.display())
    } else if meta.is_dir() {
        format!("{} is a folder", path.display())
    } else if !force {
        format!("{} exists (use --force to overwrite)", path.display())
    } else {
        return None;
    }))
}

/// The error of a last step that gave a file its name: why, when the name turned out to be taken.
fn taken(path: &Path, error: std::io::Error) -> Error {
    match error.kind() {
        std::io::ErrorKind::AlreadyExists => refusal(path, false).unwrap_or_else(|| Error::io(path, error)),
        _ => Error::io(path, error),
    }
}

/// Unnamed files (`O_TMPFILE`), linked into place when whole.
#[cfg(target_os = "linux")]
mod unnamed {
    use std::path::Path;

    use rustix::fs::{AtFlags, Mode, OFlags, CWD};

    /// An unnamed file in `dir` (checked by `make_folders`: no link below the root; the root itself may be
    /// one), or `None` where the file system or the kernel has no unnamed files, or `/proc` (through which
    /// it is linked) is missing.
    pub(super) fn create(dir: &Path) -> std::io::Result<Option<std::fs::File>> {
        static PROC: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        if !*PROC.get_or_init(|| Path::new("/proc/self/fd").is_dir()) {
            return Ok(None);
        }
        let flags = OFlags::TMPFILE | OFlags::WRONLY | OFlags::CLOEXEC;
        match rustix::fs::open(dir, flags, Mode::from_raw_mode(0o644)) {
            Ok(fd) => Ok(Some(std::fs::File::from(fd))),
            // Not supported here (the kernel, the file system): the named temporary file does it.
            Err(e)
                if [rustix::io::Errno::OPNOTSUPP, rustix::io::Errno::ISDIR, rustix::io::Errno::INVAL].contains(&e) =>
            {
                Ok(None)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Gives `file` the name `path`; fails if anything has that name.
    pub(super) fn link(file: &std::fs::File, path: &Path) -> std::io::Result<()> {
        use std::os::fd::AsRawFd;
        let proc = format!("/proc/self/fd/{}", file.as_raw_fd());
        rustix::fs::linkat(CWD, proc.as_str(), CWD, path, AtFlags::SYMLINK_FOLLOW).map_err(Into::into)
    }
}

/// Writes bytes atomically (see [`write_atomic`]).
pub fn write_bytes(root: &Path, path: &Path, bytes: &[u8], opts: WriteOptions) -> Result<()> {
    write_atomic(root, path, opts, |w| w.write_all(bytes).map_err(|e| Error::io(path, e)))
}

/// Writes a file the user named (`pack -o x.res`): its folder is the root, so only the file itself is
/// checked (it must not be a link), and it is written atomically.
pub fn write_named(path: &Path, opts: WriteOptions, fill: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
    write_named_as(path, opts, Durability::Process, fill)
}

/// [`write_named`] that also survives a power loss: the new content is synced before it takes the name,
/// and the folder after (an archive rewritten in place by `relic edit`, the user's only copy).
pub fn write_named_durably(
    path: &Path,
    opts: WriteOptions,
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    write_named_as(path, opts, Durability::Power, fill)
}

fn write_named_as(
    path: &Path,
    opts: WriteOptions,
    durability: Durability,
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    let root = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let file = path.file_name().map(|n| root.join(n)).unwrap_or_else(|| path.to_path_buf());
    write_atomic_as(root, &file, opts, durability, fill)
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
        let long = "x".repeat(256);
        let deep = vec!["abcdefgh"; 120].join("/");
        for bad in ["a?b", "a*", "x/y|z", "dir./x", "name ", "a\u{1b}[2J", long.as_str(), deep.as_str()] {
            assert!(safe_relative_path(bad).is_err(), "{bad:?} accepted");
        }
        assert!(safe_relative_path(&"x".repeat(255)).is_ok());
        assert_eq!(safe_relative_path("a\\b/c.txt").unwrap(), Path::new("a").join("b").join("c.txt"));
        assert_eq!(safe_relative_path("quest q72h").unwrap(), PathBuf::from("quest q72h"));
    }

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

    #[test]
    fn paths_outside_the_root_are_refused() {
        let root = tempfile::tempdir().unwrap();
        let err = write_bytes(&root.path().join("a"), &root.path().join("b"), b"x", WriteOptions::default());
        assert!(err.is_err());
    }

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
    #[test]
    fn linux_writes_unnamed_files() {
        let root = tempfile::tempdir().unwrap();
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
