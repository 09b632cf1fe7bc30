//! Locks on an archive while `relic edit` changes it, so that two edits never run on one archive at once
//! (each would start from the same old table and one would lose the other's work, or a GRF's read-back
//! restore would cut off what the other appended) and readers (`ls`, `extract`, the viewer opening an
//! archive) never read a table an edit is writing.
//!
//! The archive itself is locked, not a lock file beside it: a lock file left by a kill would be one more
//! thing to clean up, and it could be removed while someone waits on it, which needs the same check as
//! locking the archive. That check: RES, FTG, SRSC and a GRF `--repack` replace the archive by renaming a
//! new file over it, so an edit that waited on the old file wakes holding a lock on a file the name no
//! longer names. After taking the lock the name is looked at again; when it names another file now, the
//! lock is dropped and taken on that one.
//!
//! Unix: `flock`, advisory: an edit holds an exclusive lock, a reader a shared one.
//! Tools that do not lock are not kept out. Windows: share modes; a byte-range `LockFileEx` would not suit
//! (it is mandatory: relic's own read-back through another handle would be refused). An edit opens the
//! archive for writing and shares only reading and deleting (the rename), so a second edit, which asks to
//! write, and a reader, which refuses to share writing, cannot open it until it is closed.
//!
//! Where the system has no locks (some network file systems), the edit goes on unlocked, as before.

use std::fs::File;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// How long an edit waits for another edit (or a reader) of the same archive unless told (`--wait`), and
/// how long a reader waits for an edit.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(60);

/// A lock held on an archive until dropped.
#[derive(Debug)]
pub struct ArchiveLock {
    file: File,
}

impl ArchiveLock {
    /// The locked file's metadata (mode, owner: what a rewritten archive keeps).
    pub fn metadata(&self) -> std::io::Result<std::fs::Metadata> {
        self.file.metadata()
    }

    /// A handle to write the locked archive in place (a GRF append). Unix: the archive opened anew for
    /// writing (the lock is advisory); Windows: the locking handle itself, the only one its share mode lets
    /// write.
    pub fn open_for_writing(&self, path: &Path) -> std::io::Result<File> {
        #[cfg(windows)]
        {
            let _ = path;
            self.file.try_clone()
        }
        #[cfg(not(windows))]
        std::fs::OpenOptions::new().read(true).write(true).open(path)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// An edit: alone on the archive.
    Exclusive,
    /// A reader: with other readers, never with an edit.
    Shared,
}

/// Takes the exclusive lock of an edit on `path`, waiting up to `wait` for another edit or a reader (saying
/// so on stderr), then refusing with a line that names the archive. `None` where the system has no locks.
pub fn lock_for_edit(path: &Path, wait: Duration) -> Result<Option<ArchiveLock>> {
    acquire(path, Kind::Exclusive, wait)
}

/// Takes a reader's shared lock on `path`, waiting up to [`DEFAULT_WAIT`] for an edit of it to finish.
/// `None` when there is nothing to lock (a missing file, which the reader then reports as it always did; a
/// pipe; a folder) or the system has no locks; an error only when the wait ran out.
pub fn lock_for_reading(path: &Path) -> Result<Option<ArchiveLock>> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => acquire(path, Kind::Shared, DEFAULT_WAIT).or_else(|e| match e {
            Error::Refused(_) => Err(e),
            _ => Ok(None),
        }),
        _ => Ok(None),
    }
}

fn acquire(path: &Path, kind: Kind, wait: Duration) -> Result<Option<ArchiveLock>> {
    let started = Instant::now();
    let mut said = false;
    // Each replacement of the archive while this one waits costs a round; an archive renamed over this
    // often is being fought over, and the edit stops.
    for _ in 0..1000 {
        let file = match open(path, kind) {
            Ok(file) => file,
            Err(e) if is_busy(&e) => {
                wait_a_moment(path, kind, wait, started, &mut said)?;
                continue;
            }
            Err(e) => return Err(Error::io(path, e)),
        };
        match try_lock(&file, kind) {
            Ok(true) => {}
            Ok(false) => {
                wait_a_moment(path, kind, wait, started, &mut said)?;
                continue;
            }
            Err(e) if no_locks_here(&e) => return Ok(None),
            Err(e) => return Err(Error::io(path, e)),
        }
        if still_named(path, &file, kind) {
            return Ok(Some(ArchiveLock { file }));
        }
        // Replaced while this one waited: the lock is on a file nobody edits any more.
    }
    Err(Error::Refused(format!("{}: the archive keeps being replaced; nothing was done", shown(path))))
}

fn shown(path: &Path) -> String {
    super::terminal_safe(&path.display().to_string(), false).into_owned()
}

/// Sleeps a little, saying once that it waits; refuses when `wait` has run out.
fn wait_a_moment(path: &Path, kind: Kind, wait: Duration, started: Instant, said: &mut bool) -> Result<()> {
    let elapsed = started.elapsed();
    if elapsed >= wait {
        let holder = holders(path);
        return Err(Error::Refused(match kind {
            Kind::Exclusive => format!(
                "{} is in use by another relic edit or reader{holder}; waited {} s, nothing was done: try again \
                 when it has finished, or give --wait SECONDS",
                shown(path),
                wait.as_secs()
            ),
            Kind::Shared => format!(
                "{} is being edited{holder}; waited {} s: try again when the edit has finished",
                shown(path),
                wait.as_secs()
            ),
        }));
    }
    if !*said {
        *said = true;
        let holder = holders(path);
        let what = match kind {
            Kind::Exclusive => "another relic edit or reader of",
            Kind::Shared => "an edit of",
        };
        eprintln!("relic: waiting for {what} {}{holder} to finish (up to {} s)…", shown(path), wait.as_secs());
    }
    std::thread::sleep((wait - elapsed).min(Duration::from_millis(50)));
    Ok(())
}

/// ` (process N)` for the processes holding a lock on `path`, where the system says (Linux's
/// `/proc/locks`); empty otherwise.
fn holders(path: &Path) -> String {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt;
        let Ok(meta) = std::fs::metadata(path) else { return String::new() };
        let dev = meta.dev();
        // The kernel's own split of a device number (glibc's `major`/`minor`).
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & !0xfff);
        let minor = (dev & 0xff) | ((dev >> 12) & !0xff);
        let key = format!("{major:02x}:{minor:02x}:{}", meta.ino());
        let Ok(table) = std::fs::read_to_string("/proc/locks") else { return String::new() };
        let own = std::process::id().to_string();
        let mut pids: Vec<&str> = table
            .lines()
            .filter(|l| !l.contains("->"))
            .filter_map(|l| {
                let fields: Vec<&str> = l.split_whitespace().collect();
                let at = fields.iter().position(|f| *f == key)?;
                fields.get(at.checked_sub(1)?).copied()
            })
            .filter(|pid| *pid != own)
            .collect();
        pids.sort_unstable();
        pids.dedup();
        match pids.as_slice() {
            [] => String::new(),
            [one] => format!(" (process {one})"),
            many => format!(" (processes {})", many.join(", ")),
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = path;
        String::new()
    }
}

#[cfg(not(windows))]
fn open(path: &Path, _kind: Kind) -> std::io::Result<File> {
    // Reading is enough for `flock`; an edit that renames a new archive over the old one needs no write
    // permission on the old one.
    File::open(path)
}

#[cfg(windows)]
fn open(path: &Path, kind: Kind) -> std::io::Result<File> {
    use std::os::windows::fs::OpenOptionsExt;
    const FILE_SHARE_READ: u32 = 1;
    const FILE_SHARE_DELETE: u32 = 4;
    let mut options = std::fs::OpenOptions::new();
    options.read(true).share_mode(FILE_SHARE_READ | FILE_SHARE_DELETE);
    if kind == Kind::Exclusive {
        options.write(true);
    }
    options.open(path)
}

/// Whether opening failed because another process holds the file (Windows' sharing violation).
fn is_busy(e: &std::io::Error) -> bool {
    cfg!(windows) && e.raw_os_error() == Some(32)
}

#[cfg(unix)]
fn try_lock(file: &File, kind: Kind) -> std::io::Result<bool> {
    use rustix::fs::FlockOperation;
    // rustix's `flock` rather than std's `File::try_lock`, which is newer than the crate's MSRV (1.80).
    let operation = match kind {
        Kind::Exclusive => FlockOperation::NonBlockingLockExclusive,
        Kind::Shared => FlockOperation::NonBlockingLockShared,
    };
    match rustix::fs::flock(file, operation) {
        Ok(()) => Ok(true),
        Err(rustix::io::Errno::WOULDBLOCK) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Windows: the share mode the file was opened with is the lock. Elsewhere (WebAssembly) there are none.
#[cfg(not(unix))]
fn try_lock(_: &File, _: Kind) -> std::io::Result<bool> {
    Ok(true)
}

fn no_locks_here(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::ENOLCK) {
        return true;
    }
    e.kind() == std::io::ErrorKind::Unsupported
}

/// Whether `path` still names the file `file` is open on (not a file renamed over it meanwhile). An edit
/// never goes through a link (it refused one before locking), so a link now standing there is another
/// file; a reader may read through one.
#[cfg(unix)]
fn still_named(path: &Path, file: &File, kind: Kind) -> bool {
    use std::os::unix::fs::MetadataExt;
    let now = match kind {
        Kind::Exclusive => std::fs::symlink_metadata(path),
        Kind::Shared => std::fs::metadata(path),
    };
    match (now, file.metadata()) {
        (Ok(now), Ok(locked)) => now.dev() == locked.dev() && now.ino() == locked.ino(),
        _ => false,
    }
}

/// Windows: a waiting edit holds no handle (its open failed), so the file it opens is the one named.
#[cfg(not(unix))]
fn still_named(_: &Path, _: &File, _: Kind) -> bool {
    true
}
