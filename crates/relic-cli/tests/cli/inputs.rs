//! Issue 40, through the `relic` binary: inputs that are not regular files. `relic info /dev/zero` and
//! `convert --with /dev/zero` took 4 GiB and died; now a device is refused at once, a FIFO is read at most
//! `--max-entry-size` bytes, and a game file fed through a FIFO converts as the file does.

#![cfg(target_os = "linux")]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::common::relic;

fn sample(name: &str) -> PathBuf {
    crate::common::samples().join("ragnarok").join(name)
}

fn fifo(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    assert!(std::process::Command::new("mkfifo").arg(&path).status().unwrap().success());
    path
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every file under `dir` (relative path → bytes), but relic's own record, which names its input.
fn tree(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if !p.to_string_lossy().ends_with(".relic.json") {
                out.insert(p.strip_prefix(dir).unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

const DEVICE: &str = "/dev/zero is a device, not a file: relic reads files, and pipes or FIFOs up to --max-entry-size";

#[test]
fn info_of_dev_zero_is_refused_at_once() {
    let out = relic().args(["info", "/dev/zero"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains(DEVICE), "{}", stderr(&out));
}

#[test]
fn convert_with_dev_zero_is_refused_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let body = dir.path().join("body.act");
    std::fs::copy(sample("sample.act"), &body).unwrap();
    std::fs::copy(sample("sprite.spr"), dir.path().join("body.spr")).unwrap();
    let out_dir = dir.path().join("out");
    let out = relic().args(["convert", "--with", "/dev/zero", "-o"]).arg(&out_dir).arg(&body).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains(DEVICE), "{}", stderr(&out));
    assert!(!out_dir.join("body.act").exists());
    // The same with --palette.
    let out = relic().args(["convert", "--palette", "/dev/zero", "-o"]).arg(&out_dir).arg(&body).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains(DEVICE), "{}", stderr(&out));
}

#[test]
fn a_fifo_that_never_ends_is_refused_past_max_entry_size() {
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path(), "endless.spr");
    // A writer that writes forever: `yes`, until its reader has gone.
    let mut writer = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("exec yes relic > '{}'", path.display()))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = relic().args(["info", "--max-entry-size", "1M"]).arg(&path).output().unwrap();
    let _ = writer.kill();
    let _ = writer.wait();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let want = format!(
        "{}: a stream (not a regular file) that sends more than relic's limit of 1048576 bytes for one input \
         (--max-entry-size raises it)",
        path.display()
    );
    assert!(stderr(&out).contains(&want), "{}", stderr(&out));
}

#[test]
fn a_fifo_whose_writer_closes_it_empty_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path(), "empty.pal");
    // `true > fifo`: opens it, writes nothing, closes it.
    let mut writer =
        std::process::Command::new("sh").arg("-c").arg(format!("exec true > '{}'", path.display())).spawn().unwrap();
    let out = relic().args(["info"]).arg(&path).timeout(std::time::Duration::from_secs(120)).output().unwrap();
    let _ = writer.kill();
    let _ = writer.wait();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let want = format!("{}: nothing was written to it (a FIFO or pipe whose writer closed it empty)", path.display());
    assert!(stderr(&out).contains(&want), "{}", stderr(&out));
}

/// The journey: a palette piped in through a FIFO (as `<(…)` or `mkfifo` give it) converts to what the
/// file itself converts to.
#[test]
fn a_game_file_through_a_fifo_converts_as_the_file_does() {
    let dir = tempfile::tempdir().unwrap();
    let file_dir = dir.path().join("file");
    std::fs::create_dir(&file_dir).unwrap();
    let file = file_dir.join("dye.pal");
    std::fs::copy(sample("dye.pal"), &file).unwrap();
    relic().args(["convert", "-o"]).arg(dir.path().join("from-file")).arg(&file).assert().success();

    let piped_dir = dir.path().join("piped");
    std::fs::create_dir(&piped_dir).unwrap();
    let path = fifo(&piped_dir, "dye.pal");
    let bytes = std::fs::read(sample("dye.pal")).unwrap();
    let writer = {
        let path = path.clone();
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
            f.write_all(&bytes).unwrap();
        })
    };
    relic().args(["convert", "-o"]).arg(dir.path().join("from-fifo")).arg(&path).assert().success();
    writer.join().unwrap();
    let (from_file, from_fifo) = (tree(&dir.path().join("from-file")), tree(&dir.path().join("from-fifo")));
    assert!(!from_file.is_empty());
    assert_eq!(from_fifo, from_file);
}
