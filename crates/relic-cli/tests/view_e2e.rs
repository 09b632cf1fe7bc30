//! `relic view` as a user runs it: the URL comes first on stdout, a host that is not loopback is a usage
//! error, and the app works in a real browser: `tools/view-e2e/run.mjs` drives headless Chromium (Debian's
//! `chromium`, through `playwright-core`) over `relic view samples`, clicking through an archive, textures,
//! sprites, sounds, models and documents and checking what is drawn. It saves a screenshot of each step
//! under `target/tmp/view-e2e/`; with `RELIC_VIEW_SCREENSHOT=1` it also writes `docs/view.png` (the
//! README's). Where node, the npm package or chromium is missing the browser test says so and skips;
//! `.ci/run` installs all three, and under CI (`CI` set) a missing one is a failure.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command as AssertCommand;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A `relic view` that is stopped when the test ends, however it ends.
struct Viewer {
    child: Child,
    url: String,
}

impl Viewer {
    fn start(path: &Path) -> Viewer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_relic"))
            .args(["view", "--port", "0"])
            .arg(path)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("relic starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        let url = first.trim().to_string();
        assert!(url.starts_with("http://127.0.0.1:") && url.ends_with('/'), "first line {first:?}");
        Viewer { child, url }
    }

    fn port(&self) -> u16 {
        self.url.trim_end_matches('/').rsplit(':').next().unwrap().parse().unwrap()
    }
}

impl Drop for Viewer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn view_prints_its_url_first_and_serves_until_stopped() {
    let viewer = Viewer::start(&repo().join("samples/evil_islands/example_dxt1.mmp"));
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", viewer.port())).unwrap();
    let port = viewer.port();
    write!(stream, "GET /api/preview?path= HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"kind\":\"image\""), "{answer}");
}

#[test]
fn view_refuses_a_host_that_is_not_loopback() {
    for host in ["0.0.0.0", "192.0.2.1", "example.com"] {
        let out = AssertCommand::cargo_bin("relic")
            .unwrap()
            .args(["view", "--host", host])
            .arg(repo().join("samples"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--host {host}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--unsafe-host") || err.contains("not an IP address"), "{err}");
        assert!(out.stdout.is_empty(), "nothing served, no URL printed");
    }
    let out = AssertCommand::cargo_bin("relic").unwrap().args(["view", "no/such/folder"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// Why the browser test cannot run on this machine, if it cannot.
fn missing() -> Option<String> {
    let chromium = std::env::var_os("RELIC_CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    if !chromium.exists() {
        return Some(format!(
            "no Chromium at {} (apt-get install chromium, or set RELIC_CHROMIUM)",
            chromium.display()
        ));
    }
    if Command::new("node").arg("--version").output().map_or(true, |o| !o.status.success()) {
        return Some("node is not installed".into());
    }
    if !repo().join("tools/view-e2e/node_modules/playwright-core").exists() {
        return Some("playwright-core is not installed: run `npm ci --prefix tools/view-e2e`".into());
    }
    None
}

#[test]
fn view_works_in_headless_chromium() {
    if let Some(why) = missing() {
        assert!(std::env::var_os("CI").is_none(), "CI must run the browser test of relic view, but {why}");
        eprintln!("skipped the browser test of relic view: {why}");
        return;
    }
    let viewer = Viewer::start(&repo().join("samples"));
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("view-e2e");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let mut node = Command::new("node");
    node.arg(repo().join("tools/view-e2e/run.mjs")).arg(&viewer.url).arg(&out);
    if std::env::var("RELIC_VIEW_SCREENSHOT").is_ok_and(|v| v == "1") {
        node.arg(repo().join("docs/view.png"));
    }
    let mut child = node.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("node starts");
    // The browser is given five minutes; a hung one is stopped rather than hanging the suite.
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let output = child.wait_with_output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    eprintln!("{stdout}{stderr}");
    assert!(output.status.success(), "the browser test failed ({}); screenshots in {}", stderr.trim(), out.display());
    assert!(stdout.contains("\"problems\":[]"), "{stdout}");
    let shots = std::fs::read_dir(&out).unwrap().count();
    assert!(shots >= 6, "{shots} screenshots in {}", out.display());
}
