//! Input files as bytes: memory-mapped so that large archives are parsed in place and extracted without
//! being read into memory.
//!
//! A map faults (SIGBUS) where its file was cut short after it was made. A short-lived command accepts
//! that, as tools that map their inputs do; a process that must outlive the files it reads (`relic view`)
//! calls [`guard_truncation`] first: from then on, pages past a cut read as zeros and the map says it was
//! cut ([`Source::truncated`]), so whoever read it can discard what it made.
//!
//! Where a file is not mapped but read in ranges on demand (a large archive in a browser), it is a
//! [`RandomRead`].
//!
//! # Inputs that are not regular files
//!
//! Every path a user names is opened here ([`open`] for what is parsed in place, [`read`] for what is read
//! whole: `--with`, `--palette`, `--base`, lookups beside an input, `pack` inputs), and what it is is
//! judged by the opened handle's metadata, not by a second look at the name (which could be swapped in
//! between):
//!
//! - a regular file is mapped ([`open`]) or read whole, at most `--max-entry-size` bytes ([`read`]; a file
//!   that says it is larger is refused before anything is read). A file that says it is empty but is not
//!   (`/proc/self/status`) is read up to that limit as well;
//! - a FIFO, a pipe or a socket (`/dev/stdin` under `|`, `<(…)`) is read as a stream, at most
//!   `--max-entry-size` bytes: one byte more is refused, naming the path and the flag. It is opened without
//!   blocking, then waited on for at most [`STREAM_IDLE`] (30 s) at a time: a FIFO that no writer opens, or
//!   whose writer sends nothing, for that long is refused rather than waited on forever, and one whose
//!   writer closes it having written nothing is refused as empty ("nothing was written to it");
//! - a device (`/dev/zero`, `/dev/urandom`, a terminal, a disk) is refused outright: no game file is one,
//!   and a device may never end;
//! - a folder is refused (commands that take folders list them themselves).

use std::ops::Deref;
use std::path::Path;

use crate::error::{Error, Result};

/// The bytes of an input file.
pub enum Source {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
    /// A map watched by the handler [`guard_truncation`] installs.
    #[cfg(unix)]
    Guarded(guard::Guarded),
}

impl Deref for Source {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Source::Mapped(m) => m,
            Source::Owned(v) => v,
            #[cfg(unix)]
            Source::Guarded(g) => g.bytes(),
        }
    }
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self {
            Source::Mapped(_) => "Mapped",
            Source::Owned(_) => "Owned",
            #[cfg(unix)]
            Source::Guarded(_) => "Guarded",
        };
        write!(f, "Source::{kind}({} bytes)", self.len())
    }
}

impl Source {
    /// Whether the file was found cut short while these bytes were read (a guarded map only): the pages
    /// past the cut read as zeros, so what was made of them is not the file's.
    pub fn truncated(&self) -> bool {
        match self {
            #[cfg(unix)]
            Source::Guarded(g) => g.truncated(),
            _ => false,
        }
    }
}

/// Opens a file for reading: a memory map for regular files, a bounded read otherwise (pipes, FIFOs,
/// files that say they are empty); devices and folders are refused (see the module notes).
pub fn open(path: &Path) -> Result<Source> {
    let (file, kind) = open_input(path)?;
    if let Input::Regular(len @ 1..) = kind {
        // The size is needed only to fall back to reading a guarded map (Unix).
        #[cfg(not(unix))]
        let _ = len;
        // SAFETY: the map is read-only. If another process truncates or rewrites the file while relic runs,
        // reads may see changed bytes or fault (unless guarded, see the module); every parser bounds-checks
        // what it reads, and this is the usual trade-off of tools that map their inputs (ripgrep, 7-Zip).
        #[allow(unsafe_code)]
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| Error::io(path, e))?;
        #[cfg(unix)]
        if guard::active() {
            // With every watch taken, the file is read instead: nothing maps it unguarded.
            return match guard::Guarded::new(map) {
                Ok(g) => Ok(Source::Guarded(g)),
                Err(map) => {
                    drop(map);
                    read_input(file, Input::Regular(len), path).map(Source::Owned)
                }
            };
        }
        return Ok(Source::Mapped(map));
    }
    read_input(file, kind, path).map(Source::Owned)
}

/// How long a FIFO or pipe may send nothing before relic stops waiting for it.
pub const STREAM_IDLE: std::time::Duration = std::time::Duration::from_secs(30);

/// The idle time in force (tests shorten it), in milliseconds.
static STREAM_IDLE_MS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(STREAM_IDLE.as_secs() * 1000);

/// Sets how long a FIFO may send nothing before it is refused (for tests; [`STREAM_IDLE`] otherwise).
#[doc(hidden)]
pub fn set_stream_idle(idle: std::time::Duration) {
    let ms = u64::try_from(idle.as_millis()).unwrap_or(u64::MAX);
    STREAM_IDLE_MS.store(ms, std::sync::atomic::Ordering::Relaxed);
}

/// What an opened input is, by its handle's metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// A regular file of the size its metadata gives (0 for `/proc` files, whatever they hold).
    Regular(u64),
    /// A FIFO, pipe or socket: read as a stream, bounded.
    Stream,
}

/// Opens a path the user named for reading, without waiting on a FIFO that has no writer, and says what it
/// is; a folder or a device is refused (see the module notes), naming the path.
pub fn open_input(path: &Path) -> Result<(std::fs::File, Input)> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // Without O_NONBLOCK, opening a FIFO waits until something opens it for writing, maybe forever.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path).map_err(|e| Error::io(path, e))?;
    let kind = input_kind(&file, path)?;
    Ok((file, kind))
}

/// [`open_input`] for what is read in ranges or streamed by size (an archive, a file packed into one): a
/// FIFO or pipe is refused too. Returns the file and its size.
pub fn open_regular(path: &Path) -> Result<(std::fs::File, u64)> {
    match open_input(path)? {
        (file, Input::Regular(len)) => Ok((file, len)),
        (_, Input::Stream) => Err(Error::Refused(format!(
            "{} is a FIFO or pipe: relic reads this input by its size, so it must be a regular file",
            path.display()
        ))),
    }
}

/// What `file` (opened from `path`) is, by its own metadata; a folder or a device is refused.
pub fn input_kind(file: &std::fs::File, path: &Path) -> Result<Input> {
    let meta = file.metadata().map_err(|e| Error::io(path, e))?;
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok(Input::Regular(meta.len()));
    }
    if kind.is_dir() {
        return Err(Error::Refused(format!("{} is a folder", path.display())));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() || kind.is_block_device() {
            return Err(Error::Refused(format!(
                "{} is a device, not a file: relic reads files, and pipes or FIFOs up to --max-entry-size",
                path.display()
            )));
        }
    }
    Ok(Input::Stream)
}

/// The whole content of a path the user named (see the module notes): at most `--max-entry-size` bytes,
/// refused past that, naming the path and the flag; a folder or a device is refused.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    let (file, kind) = open_input(path)?;
    read_input(file, kind, path)
}

/// [`read`] of a file already opened (by [`crate::paths::open_unlinked`], say), judged by its metadata.
pub fn read_file(file: std::fs::File, path: &Path) -> Result<Vec<u8>> {
    let kind = input_kind(&file, path)?;
    read_input(file, kind, path)
}

/// [`read`] as text (UTF-8), for lists and documents the user names.
pub fn read_to_string(path: &Path) -> Result<String> {
    String::from_utf8(read(path)?).map_err(|e| {
        Error::io(path, std::io::Error::new(std::io::ErrorKind::InvalidData, format!("not UTF-8 text: {e}")))
    })
}

fn too_large(path: &Path, what: &str, max: u64) -> Error {
    Error::Refused(format!(
        "{}: {what} more than relic's limit of {max} bytes for one input (--max-entry-size raises it)",
        path.display()
    ))
}

/// Reads what `file` holds, at most the limit plus one byte (to tell a stream that goes on).
fn read_input(mut file: std::fs::File, kind: Input, path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let max = crate::limits::current().max_entry_size;
    let mut bytes = Vec::new();
    match kind {
        Input::Regular(len) => {
            if len > max {
                return Err(too_large(path, &format!("{len} bytes,"), max));
            }
            // `take`: a file that grew since, or one that says it is empty (`/proc`), is still bounded.
            // A regular file never blocks, O_NONBLOCK or not.
            bytes.reserve(usize::try_from(len).unwrap_or(0));
            (&mut file).take(max.saturating_add(1)).read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
            if bytes.len() as u64 > max {
                return Err(too_large(path, "it holds", max));
            }
        }
        Input::Stream => read_stream(&mut file, path, max, &mut bytes)?,
    }
    Ok(bytes)
}

/// A FIFO, pipe or socket read to its end, at most `max` bytes; one that sends nothing for the idle time
/// is refused, and so is a FIFO with nothing written to it.
fn read_stream(file: &mut std::fs::File, path: &Path, max: u64, bytes: &mut Vec<u8>) -> Result<()> {
    use std::io::Read;
    let mut chunk = vec![0u8; 64 * 1024];
    // A FIFO nobody has opened for writing yet reads as ended: its writer may be on its way (`cat x > f &
    // relic info f` opens it second), so the end of nothing is waited past once, for the idle time.
    let mut waited_for_writer = false;
    loop {
        match file.read(&mut chunk) {
            Ok(0) if bytes.is_empty() && !waited_for_writer => {
                waited_for_writer = true;
                wait_readable(file, path)?;
            }
            Ok(0) => break,
            Ok(n) => {
                bytes.extend_from_slice(chunk.get(..n).unwrap_or(&[]));
                if bytes.len() as u64 > max {
                    return Err(too_large(path, "a stream (not a regular file) that sends", max));
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => wait_readable(file, path)?,
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    if bytes.is_empty() {
        return Err(Error::Refused(format!(
            "{}: nothing was written to it (a FIFO or pipe whose writer closed it empty)",
            path.display()
        )));
    }
    Ok(())
}

/// Waits until a stream opened without blocking has something to read, or refuses after the idle time.
#[cfg(unix)]
fn wait_readable(file: &std::fs::File, path: &Path) -> Result<()> {
    use std::os::unix::io::AsRawFd;
    let idle = STREAM_IDLE_MS.load(std::sync::atomic::Ordering::Relaxed);
    let mut poll = libc::pollfd { fd: file.as_raw_fd(), events: libc::POLLIN, revents: 0 };
    loop {
        // SAFETY: one valid pollfd, for a descriptor `file` keeps open.
        #[allow(unsafe_code)]
        let ready = unsafe { libc::poll(&mut poll, 1, i32::try_from(idle).unwrap_or(i32::MAX)) };
        match ready {
            0 => {
                return Err(Error::Refused(format!(
                    "{}: a FIFO or pipe that sent nothing for {:.1} s; relic stopped waiting for it",
                    path.display(),
                    idle as f64 / 1000.0
                )))
            }
            1.. => return Ok(()),
            _ => {
                let e = std::io::Error::last_os_error();
                if e.kind() != std::io::ErrorKind::Interrupted {
                    return Err(Error::io(path, e));
                }
            }
        }
    }
}

/// Elsewhere streams are opened blocking and never say `WouldBlock`: a short pause, then read again.
#[cfg(not(unix))]
fn wait_readable(_file: &std::fs::File, _path: &Path) -> Result<()> {
    std::thread::sleep(std::time::Duration::from_millis(10));
    Ok(())
}

/// Makes the maps [`open`] makes from now on (in this process) survive their file being truncated: a read
/// past the cut no longer ends the process but reads zeros, and [`Source::truncated`] tells. Installs a
/// SIGBUS handler that serves faults in those maps and hands any other fault to the handler it replaced.
/// Returns whether the guard is on (on Windows a mapped file cannot be truncated: nothing to guard, and
/// `false`).
pub fn guard_truncation() -> bool {
    #[cfg(unix)]
    return guard::enable();
    #[cfg(not(unix))]
    return false;
}

/// Faults served by the guard since the process started (for tests).
#[doc(hidden)]
pub fn truncation_faults() -> u64 {
    #[cfg(unix)]
    return guard::faults();
    #[cfg(not(unix))]
    return 0;
}

#[cfg(unix)]
#[allow(unsafe_code)]
mod guard {
    //! The SIGBUS handler and the table of watched maps it reads. The handler may only touch atomics and
    //! make system calls, so the table is a fixed array of atomic slots rather than a locked map.

    use std::ffi::c_void;
    use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
    use std::sync::{Once, OnceLock};

    /// Maps watched at once, at most; past that, files are read instead.
    const SLOTS: usize = 1024;
    /// A slot's start while it is being filled (never a map's address).
    const FILLING: usize = 1;

    struct Slot {
        start: AtomicUsize,
        len: AtomicUsize,
        cut: AtomicBool,
    }

    #[allow(clippy::declare_interior_mutable_const)]
    const EMPTY: Slot = Slot { start: AtomicUsize::new(0), len: AtomicUsize::new(0), cut: AtomicBool::new(false) };
    static TABLE: [Slot; SLOTS] = [EMPTY; SLOTS];
    static ON: AtomicBool = AtomicBool::new(false);
    static PAGE: AtomicUsize = AtomicUsize::new(4096);
    static FAULTS: AtomicU64 = AtomicU64::new(0);
    /// The handler replaced, which faults outside the watched maps go to.
    static PREVIOUS: OnceLock<libc::sigaction> = OnceLock::new();

    pub(super) fn active() -> bool {
        ON.load(Ordering::Acquire)
    }

    pub(super) fn faults() -> u64 {
        FAULTS.load(Ordering::Relaxed)
    }

    pub(super) fn enable() -> bool {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            // SAFETY: sysconf and sigaction with valid pointers; the handler only reads atomics, calls mmap
            // and sigaction, and chains to the previous handler.
            unsafe {
                let page = libc::sysconf(libc::_SC_PAGESIZE);
                if let Ok(page @ 1..) = usize::try_from(page) {
                    PAGE.store(page, Ordering::Relaxed);
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_fault as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                let mut previous: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(libc::SIGBUS, &action, &mut previous) == 0 {
                    let _ = PREVIOUS.set(previous);
                    ON.store(true, Ordering::Release);
                }
            }
        });
        active()
    }

    /// A map in the table; its slot is freed before the map is unmapped.
    pub struct Guarded {
        map: memmap2::Mmap,
        slot: usize,
    }

    impl Guarded {
        /// Watches `map`, or gives it back when every slot is taken.
        pub(super) fn new(map: memmap2::Mmap) -> Result<Guarded, memmap2::Mmap> {
            let (start, len) = (map.as_ptr() as usize, map.len());
            for (i, slot) in TABLE.iter().enumerate() {
                if slot.start.compare_exchange(0, FILLING, Ordering::AcqRel, Ordering::Relaxed).is_ok() {
                    slot.len.store(len, Ordering::Release);
                    slot.cut.store(false, Ordering::Release);
                    slot.start.store(start, Ordering::Release);
                    return Ok(Guarded { map, slot: i });
                }
            }
            Err(map)
        }

        pub(super) fn bytes(&self) -> &[u8] {
            &self.map
        }

        pub(super) fn truncated(&self) -> bool {
            TABLE.get(self.slot).is_some_and(|s| s.cut.load(Ordering::Acquire))
        }
    }

    impl Drop for Guarded {
        fn drop(&mut self) {
            // The map (a field) is unmapped after this: no fault can come from it once its slot is free.
            if let Some(slot) = TABLE.get(self.slot) {
                slot.start.store(0, Ordering::Release);
            }
        }
    }

    /// Serves a fault in a watched map: the pages from the faulting one to the map's end become zeros
    /// (anonymous, read-only), the map is marked cut, and the read is retried. Any other fault goes to the
    /// handler this one replaced, or to the default action (the process ends, as without the guard).
    extern "C" fn on_fault(signal: libc::c_int, info: *mut libc::siginfo_t, context: *mut c_void) {
        // SAFETY: the kernel passes a valid siginfo for an SA_SIGINFO handler.
        let addr = unsafe { (*info).si_addr() } as usize;
        let page = PAGE.load(Ordering::Relaxed);
        for slot in &TABLE {
            let start = slot.start.load(Ordering::Acquire);
            let len = slot.len.load(Ordering::Acquire);
            if start <= FILLING || addr < start || addr - start >= len {
                continue;
            }
            let from = addr & !(page - 1);
            let end = (start + len).div_ceil(page) * page;
            // SAFETY: [from, end) lies in the watched map, which is alive (its slot is taken) and only read.
            let zeros = unsafe {
                libc::mmap(
                    from as *mut c_void,
                    end - from,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if zeros != libc::MAP_FAILED {
                slot.cut.store(true, Ordering::Release);
                FAULTS.fetch_add(1, Ordering::Relaxed);
                return;
            }
        }
        // SAFETY: the previous action is called as the kind of handler its flags say it is; without one,
        // the default action is restored and the faulting read, retried, ends the process.
        unsafe {
            match PREVIOUS.get() {
                Some(p) if p.sa_sigaction > libc::SIG_IGN && p.sa_flags & libc::SA_SIGINFO != 0 => {
                    let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut c_void) =
                        std::mem::transmute(p.sa_sigaction);
                    f(signal, info, context);
                }
                Some(p) if p.sa_sigaction > libc::SIG_IGN => {
                    let f: extern "C" fn(libc::c_int) = std::mem::transmute(p.sa_sigaction);
                    f(signal);
                }
                _ => {
                    let mut default: libc::sigaction = std::mem::zeroed();
                    default.sa_sigaction = libc::SIG_DFL;
                    libc::sigaction(signal, &default, std::ptr::null_mut());
                }
            }
        }
    }
}

/// A file read in ranges, never whole: what [`crate::ragnarok::grf::SlicedGrf`] opens, so that a large archive
/// (a client's `data.grf`, several GiB; or a `File` dropped in a browser, read with `FileReaderSync` over
/// `file.slice(a, b)`) costs the ranges read, not its size. Implemented over files on disk ([`FileSlices`]),
/// over bytes in memory ([`MemorySlices`]) and, by the browser's bindings, over JS `File`s.
pub trait RandomRead: Send + Sync + std::fmt::Debug {
    /// The file's size in bytes.
    fn len(&self) -> u64;

    /// Whether the file is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Exactly `len` bytes from `offset`, or an error (a range past the end is an error, never a shorter
    /// read): callers rely on the length and check sizes against the limits before asking.
    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>>;
}

/// The error of a range past the end of a [`RandomRead`] of `size` bytes, before anything is allocated.
fn past_end(offset: u64, len: usize, size: u64) -> Option<std::io::Error> {
    let fits = offset.checked_add(len as u64).is_some_and(|end| end <= size);
    (!fits).then(|| {
        std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            format!("bytes 0x{offset:X}+0x{len:X} lie past the end of a 0x{size:X}-byte file"),
        )
    })
}

/// A file on disk read in ranges ([`RandomRead`]); its size is taken once, when it is opened.
#[derive(Debug)]
pub struct FileSlices {
    file: std::fs::File,
    len: u64,
    /// Where files have no positioned reads (neither unix nor Windows), a seek and a read under a lock.
    #[cfg(not(any(unix, windows)))]
    lock: std::sync::Mutex<()>,
}

impl FileSlices {
    /// Opens `path` for ranged reads.
    pub fn open(path: &Path) -> Result<FileSlices> {
        let (file, len) = open_regular(path)?;
        Ok(FileSlices::new(file, len))
    }

    /// Reads `file` in ranges, taking it to be `len` bytes long.
    pub fn new(file: std::fs::File, len: u64) -> FileSlices {
        FileSlices {
            file,
            len,
            #[cfg(not(any(unix, windows)))]
            lock: std::sync::Mutex::new(()),
        }
    }
}

impl RandomRead for FileSlices {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
        if let Some(e) = past_end(offset, len, self.len) {
            return Err(e);
        }
        let mut buf = vec![0u8; len];
        #[cfg(unix)]
        std::os::unix::fs::FileExt::read_exact_at(&self.file, &mut buf, offset)?;
        #[cfg(windows)]
        {
            // `seek_read` may read less than asked: loop until the buffer is full.
            let mut done = 0;
            while let Some(rest) = buf.get_mut(done..).filter(|r| !r.is_empty()) {
                match std::os::windows::fs::FileExt::seek_read(&self.file, rest, offset + done as u64) {
                    Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
                    Ok(n) => done += n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        #[cfg(not(any(unix, windows)))]
        {
            use std::io::{Read, Seek};
            let _held = self.lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let mut file = &self.file;
            file.seek(std::io::SeekFrom::Start(offset))?;
            file.read_exact(&mut buf)?;
        }
        Ok(buf)
    }
}

/// Bytes already in memory read through [`RandomRead`] (tests, and callers that hold a small file whole).
#[derive(Debug, Clone)]
pub struct MemorySlices(std::sync::Arc<[u8]>);

impl MemorySlices {
    pub fn new(bytes: impl Into<std::sync::Arc<[u8]>>) -> MemorySlices {
        MemorySlices(bytes.into())
    }

    /// The whole bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
}

impl From<Vec<u8>> for MemorySlices {
    fn from(bytes: Vec<u8>) -> Self {
        MemorySlices::new(bytes)
    }
}

impl From<std::sync::Arc<[u8]>> for MemorySlices {
    fn from(bytes: std::sync::Arc<[u8]>) -> Self {
        MemorySlices(bytes)
    }
}

impl RandomRead for MemorySlices {
    fn len(&self) -> u64 {
        self.0.len() as u64
    }

    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
        if let Some(e) = past_end(offset, len, self.len()) {
            return Err(e);
        }
        Ok(crate::layout::range(&self.0, offset, len as u64).to_vec())
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// A guarded map whose file is cut short reads zeros past the cut instead of ending the process, and
    /// says so; an untouched one does not.
    #[test]
    fn a_guarded_map_survives_its_file_being_truncated() {
        assert!(guard_truncation());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cut.bin");
        std::fs::write(&path, vec![7u8; 1 << 20]).unwrap();
        let whole = open(&path).unwrap();
        assert!(matches!(whole, Source::Guarded(_)));
        let cut = open(&path).unwrap();
        std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(5000).unwrap();
        let faults = truncation_faults();
        let sum: u64 = cut.iter().map(|&b| u64::from(b)).sum();
        // The first page and the part of the second the file still holds are 7s.
        assert_eq!(sum, 7 * 5000);
        assert!(cut.truncated());
        assert!(truncation_faults() > faults);
        drop(cut);
        std::fs::write(&path, vec![1u8; 100]).unwrap();
        let again = open(&path).unwrap();
        assert_eq!(again.iter().map(|&b| u64::from(b)).sum::<u64>(), 100);
        assert!(!again.truncated());
        drop(whole);
    }
}
