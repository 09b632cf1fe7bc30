//! Issue 31's proof: the static site (relic as WebAssembly in a Web Worker, built by `npm run --prefix
//! view-web build:web`) works in a real browser with no server behind it. `relic view --static SITE`
//! serves the built site; `tools/view-e2e/web.mjs` drives headless Chromium (Debian's `chromium`, through
//! `playwright-core`) over it: the samples folder picked through `#open-folder` shows the tree `relic view
//! samples` shows; a texture's pixels, a model drawn in WebGL, a sound's duration; the PNG of a texture and
//! the zip of an archive's conversion equal, byte for byte, what `relic convert` writes; the PNG packed back
//! through `#pack-input` equals `relic pack ei-mmp` of it (and the original texture); a GRF over 1 GiB (a
//! sparse file) opens and previews an entry with the page's memory bounded; and no request leaves the page
//! once it has loaded. Screenshots go to `target/tmp/web-e2e*/`; with `RELIC_WEB_SCREENSHOT=1` the test also
//! writes `docs/web.png`.
//!
//! The site is taken from `$RELIC_WEB_DIR`, else `<target dir>/relic-web` (`$CARGO_TARGET_DIR` or
//! `target/`). Where it is not built, or node, the npm package or chromium is missing, the test says so
//! and skips; under CI (`CI` set) that is a failure.

use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use assert_cmd::Command as AssertCommand;

use crate::browser;
use crate::common::repo;

/// A `relic view` (of files, or `--static` of a site) stopped when the test ends, however it ends.
struct Served {
    child: Child,
    url: String,
}

impl Served {
    fn start(args: &[&std::ffi::OsStr]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_relic"))
            .arg("view")
            .args(args)
            .args(["--port", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("relic starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        let url = first.trim().to_string();
        assert!(
            url.starts_with("http://127.0.0.1:") && url.ends_with('/'),
            "relic view {args:?}: first line {first:?}"
        );
        Served { child, url }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The built site: `$RELIC_WEB_DIR`, else `relic-web` in the target folder.
fn site() -> PathBuf {
    if let Some(dir) = std::env::var_os("RELIC_WEB_DIR") {
        return PathBuf::from(dir);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| repo().join("target"), PathBuf::from);
    target.join("relic-web")
}

/// Why the browser test cannot run on this machine, if it cannot.
fn missing(site: &Path) -> Option<String> {
    if !site.join("index.html").is_file() || !site.join("pkg/relic_wasm_bg.wasm").is_file() {
        return Some(format!(
            "the static site is not built at {} (run `tools/setup-web-build.sh && npm run --prefix view-web build:web`, or set RELIC_WEB_DIR)",
            site.display()
        ));
    }
    browser::tools_missing(&repo())
}

/// `relic` with arguments, which must succeed.
fn relic(args: &[&std::ffi::OsStr]) {
    let out = AssertCommand::cargo_bin("relic").unwrap().args(args).output().unwrap();
    assert!(out.status.success(), "relic {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// The samples' `example.grf` made larger than 1 GiB without taking the disk space: its file table moved
/// past a hole of a little over 1 GiB (the header's 32-bit table offset moved with it), the file sparse
/// (`set_len`). Its entries stay where they were, so that reading one reads a few bytes at the start and
/// listing it reads the table at the end; a page that read the file whole would need more than 1 GiB.
fn sparse_grf(path: &Path) -> u64 {
    const HOLE: u32 = (1 << 30) + 4096;
    let grf = std::fs::read(repo().join("samples/ragnarok/example.grf")).unwrap();
    assert_eq!(&grf[..16], b"Master of Magic\0", "the sample is a 0x200 GRF");
    let table_offset = u32::from_le_bytes(grf[30..34].try_into().unwrap());
    let table_at = 46 + table_offset as usize;
    let mut head = grf[..table_at].to_vec();
    head[30..34].copy_from_slice(&(table_offset + HOLE).to_le_bytes());
    let mut file = std::fs::File::create(path).unwrap();
    file.write_all(&head).unwrap();
    file.set_len(table_at as u64 + u64::from(HOLE)).unwrap();
    file.seek(SeekFrom::End(0)).unwrap();
    file.write_all(&grf[table_at..]).unwrap();
    file.metadata().unwrap().len()
}

/// Runs `tools/view-e2e/web.mjs` against the built site with `args`, its screenshots in
/// `target/tmp/NAME/`, and fails with its output unless it passed at least `least` checks and every one;
/// where the site, node, the npm package or chromium is missing it says why and skips (under CI it fails).
fn run_web(name: &str, least: usize, args: &[&std::ffi::OsStr]) {
    let site = site();
    if let Some(why) = missing(&site) {
        crate::common::skip(&format!("the browser test {name} of the static site"), &why);
        return;
    }
    let served = Served::start(&["--static".as_ref(), site.as_os_str()]);
    let out = crate::common::scratch(name);
    let stdout = browser::run_script(&repo().join("tools/view-e2e/web.mjs"), &served.url, &out, args);
    let checks = stdout.lines().filter(|l| l.starts_with("ok: ")).count();
    assert!(checks >= least, "{checks} checks passed, {least} expected:\n{stdout}");
}

/// The samples, picked as a folder: tree, texture, model, sound, downloads, zip and pack, compared with
/// what the CLI writes for the same files.
#[test]
fn the_static_site_shows_converts_and_packs_the_samples() {
    let dir = tempfile::tempdir().unwrap();
    let expected = dir.path().join("expected");
    let samples = repo().join("samples");
    // What the CLI makes of the files the page converts and packs.
    let texture = samples.join("evil_islands/example_argb4.mmp");
    let texture_out = expected.join("texture");
    relic(&["convert".as_ref(), "-q".as_ref(), "-o".as_ref(), texture_out.as_ref(), texture.as_ref()]);
    let png = texture_out.join("example_argb4.mmp.png");
    let packed = expected.join("packed.mmp");
    relic(&["pack".as_ref(), "ei-mmp".as_ref(), "-q".as_ref(), png.as_ref(), "-o".as_ref(), packed.as_ref()]);
    let archive = samples.join("evil_islands/example.res");
    let archive_out = expected.join("archive");
    relic(&["convert".as_ref(), "-q".as_ref(), "-o".as_ref(), archive_out.as_ref(), archive.as_ref()]);
    let sounds = expected.join("sounds");
    let ftg = samples.join("dark_reign/SPRITES.FTG");
    relic(&["extract".as_ref(), "-q".as_ref(), "-o".as_ref(), sounds.as_ref(), ftg.as_ref(), "BOOM.WAV".as_ref()]);
    std::fs::rename(sounds.join("BOOM.WAV"), expected.join("sound.wav")).unwrap();

    let server = Served::start(&[samples.as_os_str()]);
    let mut args: Vec<std::ffi::OsString> = vec![
        "--samples".into(),
        samples.into(),
        "--expected".into(),
        expected.into(),
        "--server".into(),
        server.url.clone().into(),
    ];
    if std::env::var("RELIC_WEB_SCREENSHOT").is_ok_and(|v| v == "1") {
        args.extend(["--screenshot".into(), repo().join("docs/web.png").into()]);
    }
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    run_web("web-e2e", 25, &args);
}

/// A GRF over 1 GiB (sparse), picked as a file: listed, an entry previewed, the page's memory bounded.
#[test]
fn the_static_site_opens_a_grf_over_1_gib() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.grf");
    assert!(sparse_grf(&big) > 1 << 30);
    let entry = "data/texture/유저인터페이스/sample.bmp";
    run_web("web-e2e-big", 9, &["--big".as_ref(), big.as_ref(), "--entry".as_ref(), entry.as_ref()]);
}
