//! The atomic, link-refusing writers (see the module above); only the `fs` feature compiles them.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use crate::error::{Error, Result};

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
    // A file --force replaces keeps its permissions (a private file stays private).
    let replaced = std::fs::symlink_metadata(path).ok().filter(std::fs::Metadata::is_file);
    // With --force, on Linux: the same unnamed file, linked under a temporary name of this process's own and
    // at once renamed over the old one (a link cannot replace a name), so a kill leaves nothing behind.
    #[cfg(target_os = "linux")]
    if let Some(mut file) = if opts.force { unnamed::create(&dir).map_err(|e| Error::io(&dir, e))? } else { None } {
        fill_file(&mut file, path, fill)?;
        if let Some(secs) = opts.modified {
            let time = SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
            file.set_modified(time).map_err(|e| Error::io(path, e))?;
        }
        keep_mode(&file, replaced.as_ref(), path)?;
        if durable {
            file.sync_all().map_err(|e| Error::io(path, e))?;
        }
        let mut registered = Registered(None);
        let named = {
            let mut live = temporaries();
            let named = link_unique(&file, &dir)?;
            live.get_or_insert_with(HashSet::new).insert(named.clone());
            registered.0 = Some(named.clone());
            named
        };
        if let Err(e) = std::fs::rename(&named, path) {
            let _ = std::fs::remove_file(&named);
            return Err(Error::io(path, e));
        }
        drop(registered);
        return if durable { sync_folder(&dir) } else { Ok(()) };
    }
    let mut builder = tempfile::Builder::new();
    // The name says the process, so that a later run can tell one a killed process left.
    let prefix = own_temporary_prefix();
    builder.prefix(&prefix).suffix(".tmp");
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
    if opts.force {
        keep_mode(tmp.as_file(), replaced.as_ref(), path)?;
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
pub(in crate::paths) mod unnamed {
    use std::path::Path;

    use rustix::fs::{AtFlags, Mode, OFlags, CWD};

    /// An unnamed file in `dir` (checked by `make_folders`: no link below the root; the root itself may be
    /// one), or `None` where the file system or the kernel has no unnamed files, or `/proc` (through which
    /// it is linked) is missing.
    pub(in crate::paths) fn create(dir: &Path) -> std::io::Result<Option<std::fs::File>> {
        // The tests of the named fallback (what a kill leaves there) turn unnamed files off; debug builds only.
        #[cfg(debug_assertions)]
        if std::env::var_os("RELIC_TEST_NO_UNNAMED_FILES").is_some() {
            return Ok(None);
        }
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
    pub(in crate::paths) fn link(file: &std::fs::File, path: &Path) -> std::io::Result<()> {
        use std::os::fd::AsRawFd;
        let proc = format!("/proc/self/fd/{}", file.as_raw_fd());
        rustix::fs::linkat(CWD, proc.as_str(), CWD, path, AtFlags::SYMLINK_FOLLOW).map_err(Into::into)
    }
}

/// The temporary name of a file replacing another (`relic edit`): `.relic-<pid>-<unique>.tmp`, so that a
/// later run can tell one a killed process left (see [`remove_stale_temporaries`]).
fn own_temporary_prefix() -> String {
    format!(".relic-{}-", std::process::id())
}

/// Replaces the file `path` (an archive `relic edit` rewrites: the user's only copy) with what `fill`
/// writes, keeping the mode and, where the system lets this user, the owner of `like` (the old file's
/// metadata). The new file survives a power loss (synced before it takes the name, the folder after).
///
/// A kill at any moment leaves nothing behind where it can: on Linux the new file is unnamed
/// (`O_TMPFILE`) until whole, then linked under a temporary name and at once renamed over the old one (a
/// link cannot replace a name); elsewhere it is a named temporary file from the start. Either name says
/// the process (see [`remove_stale_temporaries`]). Returns notes for the user (an owner not kept).
pub fn replace_durably(
    path: &Path,
    like: &std::fs::Metadata,
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<Vec<String>> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Some(refused) = refusal(path, true) {
        return Err(refused);
    }
    let mut notes = Vec::new();
    #[cfg(target_os = "linux")]
    if let Some(mut file) = unnamed::create(dir).map_err(|e| Error::io(dir, e))? {
        hold_as_in_use(&file);
        fill_file(&mut file, path, fill)?;
        keep_owner_and_mode(&file, like, path, &mut notes)?;
        file.sync_all().map_err(|e| Error::io(path, e))?;
        // Named only for the moment between the link and the rename (registered: a Ctrl-C removes it).
        let mut registered = Registered(None);
        let named = {
            let mut live = temporaries();
            let named = link_unique(&file, dir)?;
            live.get_or_insert_with(HashSet::new).insert(named.clone());
            registered.0 = Some(named.clone());
            named
        };
        if let Err(e) = std::fs::rename(&named, path) {
            let _ = std::fs::remove_file(&named);
            return Err(Error::io(path, e));
        }
        drop(registered);
        sync_folder(dir)?;
        return Ok(notes);
    }
    let mut builder = tempfile::Builder::new();
    let prefix = own_temporary_prefix();
    builder.prefix(&prefix).suffix(".tmp");
    let mut registered = Registered(None);
    let mut tmp = {
        let mut live = temporaries();
        let tmp = builder.tempfile_in(dir).map_err(|e| Error::io(dir, e))?;
        live.get_or_insert_with(HashSet::new).insert(tmp.path().to_path_buf());
        registered.0 = Some(tmp.path().to_path_buf());
        tmp
    };
    hold_as_in_use(tmp.as_file());
    fill_file(tmp.as_file_mut(), path, fill)?;
    keep_owner_and_mode(tmp.as_file(), like, path, &mut notes)?;
    tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    drop(registered);
    sync_folder(dir)?;
    Ok(notes)
}

/// Gives a file that replaces another (`--force`) the old one's permissions; a new file keeps the ordinary
/// ones it was made with.
fn keep_mode(file: &std::fs::File, replaced: Option<&std::fs::Metadata>, path: &Path) -> Result<()> {
    #[cfg(unix)]
    if let Some(old) = replaced {
        use std::os::unix::fs::PermissionsExt;
        let mode = old.permissions().mode() & 0o7777;
        file.set_permissions(std::fs::Permissions::from_mode(mode)).map_err(|e| Error::io(path, e))?;
    }
    #[cfg(not(unix))]
    let _ = (file, replaced, path);
    Ok(())
}

/// Marks a temporary file as being written (an exclusive `flock` held while its handle is open), so that
/// [`remove_stale_temporaries`] never removes it even when its process id does not say (another pid
/// namespace: a container sharing the folder). Best effort: without locks the process id alone decides.
fn hold_as_in_use(file: &std::fs::File) {
    #[cfg(unix)]
    let _ = rustix::fs::flock(file, rustix::fs::FlockOperation::NonBlockingLockExclusive);
    #[cfg(not(unix))]
    let _ = file;
}

/// Whether a temporary file is being written by a process that holds it (see [`hold_as_in_use`]).
fn in_use(path: &Path) -> bool {
    #[cfg(unix)]
    {
        let Ok(file) = std::fs::File::open(path) else { return true };
        rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive).is_err()
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        true
    }
}

/// Links the unnamed `file` into `dir` under a temporary name of this process's own.
#[cfg(target_os = "linux")]
fn link_unique(file: &std::fs::File, dir: &Path) -> Result<PathBuf> {
    let nanos = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let prefix = own_temporary_prefix();
    for attempt in 0..100u32 {
        let named = dir.join(format!("{prefix}{:08x}.tmp", nanos.wrapping_add(attempt.wrapping_mul(0x9e37_79b9))));
        match unnamed::link(file, &named) {
            Ok(()) => return Ok(named),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(Error::io(&named, e)),
        }
    }
    Err(Error::Refused(format!("{}: no free temporary name", dir.display())))
}

/// Gives the new file the old one's permissions, and its owner and group where this user may (root; or a
/// group of its own): a private archive stays private.
fn keep_owner_and_mode(
    file: &std::fs::File,
    like: &std::fs::Metadata,
    path: &Path,
    notes: &mut Vec<String>,
) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        // The owner first: changing it clears set-id bits, which the mode then gives back.
        let owner = file.metadata().map_err(|e| Error::io(path, e))?;
        if (owner.uid(), owner.gid()) != (like.uid(), like.gid()) {
            if std::os::unix::fs::fchown(file, Some(like.uid()), Some(like.gid())).is_err() {
                // Not root: the group at least, when this user is in it.
                let _ = std::os::unix::fs::fchown(file, None, Some(like.gid()));
            }
            let now = file.metadata().map_err(|e| Error::io(path, e))?;
            if (now.uid(), now.gid()) != (like.uid(), like.gid()) {
                notes.push(format!(
                    "{}: belonged to user {} group {}; the rewritten archive is user {} group {} (only the \
                     system's administrator can give a file away)",
                    path.display(),
                    like.uid(),
                    like.gid(),
                    now.uid(),
                    now.gid()
                ));
            }
        }
        let mode = like.permissions().mode() & 0o7777;
        file.set_permissions(std::fs::Permissions::from_mode(mode)).map_err(|e| Error::io(path, e))?;
    }
    #[cfg(not(unix))]
    {
        let _ = (notes, path);
        // Windows: the one permission a file carries is read-only, which the edit itself had to overcome.
        let _ = (file, like);
    }
    Ok(())
}

/// Removes the temporary files of relic's own in `dir` (`.relic-<pid>-*.tmp`, see [`replace_durably`]) whose
/// process is gone (killed while it wrote; only `kill -9` or a crash leaves one), that no process holds
/// locked as it writes them and that belong to this user; returns their names. Those of a process still
/// running, or of another user, are left alone.
pub fn remove_stale_temporaries(dir: &Path) -> Vec<String> {
    let Ok(read) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut removed = Vec::new();
    for entry in read.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(pid) = stale_owner(name) else { continue };
        if pid == std::process::id() || process_alive(pid) {
            continue;
        }
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
        if !meta.is_file() || !owned_by_this_user(&meta) || in_use(&path) {
            continue;
        }
        if std::fs::remove_file(&path).is_ok() {
            removed.push(name.to_string());
        }
    }
    removed.sort();
    removed
}

/// The process a `.relic-<pid>-<unique>.tmp` name says.
fn stale_owner(name: &str) -> Option<u32> {
    let middle = name.strip_prefix(".relic-")?.strip_suffix(".tmp")?;
    let (pid, unique) = middle.split_once('-')?;
    if unique.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

#[cfg(unix)]
#[allow(unsafe_code)]
fn process_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return true };
    // SAFETY: signal 0 sends nothing; it only asks whether the process exists (EPERM: it does, another
    // user's).
    let found = unsafe { libc::kill(pid, 0) } == 0;
    found || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Elsewhere no process is known to be gone: nothing is removed.
#[cfg(not(unix))]
fn process_alive(_: u32) -> bool {
    true
}

#[cfg(unix)]
#[allow(unsafe_code)]
fn owned_by_this_user(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    meta.uid() == unsafe { libc::geteuid() }
}

#[cfg(not(unix))]
fn owned_by_this_user(_: &std::fs::Metadata) -> bool {
    true
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

#[cfg(test)]
mod tests {
    #[test]
    fn a_temporary_name_says_its_process_and_older_names_say_none() {
        assert_eq!(super::stale_owner(".relic-4711-a1b2c3.tmp"), Some(4711));
        assert_eq!(super::stale_owner(".relic-4711-0badf00d.tmp"), Some(4711));
        // Older relics' names (tempfile's six letters and digits) and look-alikes.
        assert_eq!(super::stale_owner(".relic-Ab12Cd.tmp"), None);
        assert_eq!(super::stale_owner(".relic-4711-.tmp"), None);
        assert_eq!(super::stale_owner(".relic-47x1-abc.tmp"), None);
        assert_eq!(super::stale_owner(".relic--abc.tmp"), None);
        assert_eq!(super::stale_owner("relic-4711-abc.tmp"), None);
        assert_eq!(super::stale_owner(".relic-4711-abc.tmp~"), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode_and_only_stale_temporaries_of_gone_processes_are_removed() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("archive.res");
        std::fs::write(&path, b"old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        let like = std::fs::metadata(&path).unwrap();
        let notes = super::replace_durably(&path, &like, |w| {
            std::io::Write::write_all(w, b"new").unwrap();
            Ok(())
        })
        .unwrap();
        assert_eq!(notes, Vec::<String>::new());
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777, 0o600);
        // A process that has ended (its id is not reused this soon), this one, and an older relic's name.
        let mut ended = std::process::Command::new("true").spawn().unwrap();
        let gone = ended.id();
        ended.wait().unwrap();
        let stale = format!(".relic-{gone}-abcdef.tmp");
        let live = format!(".relic-{}-abcdef.tmp", std::process::id());
        for name in [&stale, &live, &".relic-Ab12Cd.tmp".to_string()] {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        // One a process holds as it writes it is kept even when its id says a process that has ended.
        let held = format!(".relic-{gone}-held.tmp");
        std::fs::write(dir.path().join(&held), b"x").unwrap();
        let holding = std::fs::File::open(dir.path().join(&held)).unwrap();
        super::hold_as_in_use(&holding);
        assert_eq!(super::remove_stale_temporaries(dir.path()), vec![stale.clone()]);
        assert!(dir.path().join(&held).exists());
        drop(holding);
        assert_eq!(super::remove_stale_temporaries(dir.path()), vec![held]);
        assert!(!dir.path().join(&stale).exists());
        assert!(dir.path().join(&live).exists() && dir.path().join(".relic-Ab12Cd.tmp").exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_file_force_replaces_keeps_its_mode_and_no_temporary_is_left() {
        use std::os::unix::fs::PermissionsExt;
        let fill = |w: &mut dyn std::io::Write| w.write_all(b"new").map_err(|e| crate::error::Error::io("x", e));
        for unnamed in [true, false] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("out.png");
            std::fs::write(&path, b"old").unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
            let opts = super::WriteOptions { force: true, ..Default::default() };
            if unnamed {
                super::write_named(&path, opts, fill).unwrap();
            } else {
                // The named fallback: a temporary name of this process's own, renamed over the old file.
                let mut builder = tempfile::Builder::new();
                let prefix = super::own_temporary_prefix();
                builder.prefix(&prefix).suffix(".tmp");
                let mut tmp = builder.tempfile_in(dir.path()).unwrap();
                fill(tmp.as_file_mut()).unwrap();
                super::keep_mode(tmp.as_file(), std::fs::metadata(&path).ok().as_ref(), &path).unwrap();
                tmp.persist(&path).unwrap();
            }
            assert_eq!(std::fs::read(&path).unwrap(), b"new");
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777, 0o600, "unnamed: {unnamed}");
            let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
            assert_eq!(names, vec![std::ffi::OsString::from("out.png")]);
            // A new file gets the ordinary mode, not the temporary's private one.
            let fresh = dir.path().join("fresh.png");
            super::write_named(&fresh, super::WriteOptions { force: true, ..Default::default() }, fill).unwrap();
            assert_eq!(std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777, 0o644 & !umask());
        }
    }

    /// This process's umask, as Linux reports it (no call that sets it, which would race other tests).
    #[cfg(unix)]
    fn umask() -> u32 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let line = status.lines().find_map(|l| l.strip_prefix("Umask:")).unwrap_or("0022");
        u32::from_str_radix(line.trim(), 8).unwrap()
    }
}
