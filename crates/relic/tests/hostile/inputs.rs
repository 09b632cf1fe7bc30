//! Issue 40: inputs that are not regular files. `/dev/zero` read whole took 4 GiB and died; a FIFO read
//! whole waited forever for a writer. Every path a user names is read through `relic::source` (`open`,
//! `read`): devices refused, FIFOs and pipes read at most `--max-entry-size` bytes and never waited on
//! without end, `/proc` files (which say they are empty) read.

#![cfg(target_os = "linux")]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::MutexGuard;
use std::time::{Duration, Instant};

use relic::limits::{self, Limits};
use relic::source;

/// The limits are process-wide: tests that set them run one at a time (with this binary's heap
/// measurements, which they would disturb), and put the defaults back.
fn serial() -> MutexGuard<'static, ()> {
    crate::counting::serial()
}

fn with_max_entry_size<T>(max: u64, f: impl FnOnce() -> T) -> T {
    limits::set(Limits { max_entry_size: max, ..Limits::DEFAULT });
    let out = f();
    limits::set(Limits::DEFAULT);
    out
}

/// Opens `path` for reading without blocking and closes it: a writer still waiting in its open (its reader
/// came and went first) gets its partner and goes on, so the test can join it.
fn unblock_writer(path: &Path) {
    use std::os::unix::fs::OpenOptionsExt;
    const O_NONBLOCK: i32 = 0o4000; // Linux
    let _ = std::fs::OpenOptions::new().read(true).custom_flags(O_NONBLOCK).open(path);
}

fn fifo(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    let status = std::process::Command::new("mkfifo").arg(&path).status().expect("mkfifo runs");
    assert!(status.success());
    path
}

#[test]
fn dev_zero_is_refused_as_a_device_at_once() {
    let _s = serial();
    let zero = Path::new("/dev/zero");
    let want = "/dev/zero is a device, not a file: relic reads files, and pipes or FIFOs up to --max-entry-size";
    assert_eq!(source::read(zero).unwrap_err().to_string(), want);
    assert_eq!(source::open(zero).unwrap_err().to_string(), want);
    assert_eq!(relic::registry::identify_path(zero).unwrap_err().to_string(), want);
    assert_eq!(relic::ops::info(zero).unwrap_err().to_string(), want);
}

#[test]
fn a_proc_file_that_says_it_is_empty_is_read_whole() {
    let _s = serial();
    let status = Path::new("/proc/self/status");
    if !status.exists() {
        println!("skip: no /proc on this system");
        return;
    }
    assert_eq!(std::fs::metadata(status).unwrap().len(), 0, "/proc says its files are empty");
    let bytes = source::read(status).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.starts_with("Name:\t"), "{text}");
    assert!(text.contains(&format!("\nPid:\t{}\n", std::process::id())), "{text}");
    // Bounded all the same: over the limit, refused by name.
    let err = with_max_entry_size(16, || source::read(status).unwrap_err().to_string());
    assert_eq!(
        err,
        "/proc/self/status: it holds more than relic's limit of 16 bytes for one input (--max-entry-size raises it)"
    );
}

#[test]
fn a_regular_file_over_the_limit_is_refused_before_it_is_read() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.pal");
    std::fs::write(&path, vec![0u8; 1000]).unwrap();
    let err = with_max_entry_size(999, || source::read(&path).unwrap_err().to_string());
    assert_eq!(
        err,
        format!(
            "{}: 1000 bytes, more than relic's limit of 999 bytes for one input (--max-entry-size raises it)",
            path.display()
        )
    );
    assert_eq!(with_max_entry_size(1000, || source::read(&path).unwrap().len()), 1000);
}

#[test]
fn a_fifo_whose_writer_writes_forever_is_refused_past_the_limit() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path(), "endless");
    let writer = {
        let path = path.clone();
        // Opening for writing waits for the reader; writing ends when the reader has gone (EPIPE).
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
            let block = [b'y'; 4096];
            let mut written = 0u64;
            while f.write_all(&block).is_ok() {
                written += block.len() as u64;
            }
            written
        })
    };
    let err = with_max_entry_size(1 << 20, || source::read(&path).unwrap_err().to_string());
    unblock_writer(&path);
    assert_eq!(
        err,
        format!(
            "{}: a stream (not a regular file) that sends more than relic's limit of 1048576 bytes for one input \
             (--max-entry-size raises it)",
            path.display()
        )
    );
    let written = writer.join().unwrap();
    assert!(written > 1 << 20, "{written}");
}

#[test]
fn a_fifo_nobody_opens_is_waited_on_for_the_idle_time_only() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path(), "lonely.act");
    source::set_stream_idle(Duration::from_millis(300));
    let started = Instant::now();
    let read = source::read(&path).unwrap_err().to_string();
    let opened = source::open(&path).unwrap_err().to_string();
    source::set_stream_idle(source::STREAM_IDLE);
    let want = format!("{}: a FIFO or pipe that sent nothing for 0.3 s; relic stopped waiting for it", path.display());
    assert_eq!((read, opened), (want.clone(), want));
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn a_fifo_whose_writer_closes_it_empty_is_refused() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path(), "empty.pal");
    let writer = {
        let path = path.clone();
        std::thread::spawn(move || drop(std::fs::OpenOptions::new().write(true).open(path).unwrap()))
    };
    let err = source::read(&path).unwrap_err().to_string();
    unblock_writer(&path);
    writer.join().unwrap();
    assert_eq!(
        err,
        format!("{}: nothing was written to it (a FIFO or pipe whose writer closed it empty)", path.display())
    );
}

#[test]
fn a_fifo_whose_writer_sends_nothing_is_given_up_on() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path(), "silent");
    let (opened, wait) = std::sync::mpsc::channel();
    let writer = {
        let path = path.clone();
        std::thread::spawn(move || {
            let f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
            // Held open, silent, until the reader has given up.
            let _ = wait.recv();
            drop(f);
        })
    };
    source::set_stream_idle(Duration::from_millis(300));
    let err = source::read(&path).unwrap_err().to_string();
    source::set_stream_idle(source::STREAM_IDLE);
    opened.send(()).unwrap();
    unblock_writer(&path);
    writer.join().unwrap();
    assert_eq!(
        err,
        format!("{}: a FIFO or pipe that sent nothing for 0.3 s; relic stopped waiting for it", path.display())
    );
}

#[test]
fn a_fifo_fed_a_game_file_reads_as_that_file() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    let palette = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/ragnarok/dye.pal")).unwrap();
    let path = fifo(dir.path(), "dye.pal");
    let writer = {
        let (path, bytes) = (path.clone(), palette.clone());
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
            // In pieces, with pauses: the reader waits for each.
            for piece in bytes.chunks(100) {
                f.write_all(piece).unwrap();
                std::thread::sleep(Duration::from_millis(5));
            }
        })
    };
    let read = source::read(&path);
    unblock_writer(&path);
    writer.join().unwrap();
    let read = read.unwrap();
    assert_eq!(read, palette);
}
