//! What the browser tests share (`view_e2e.rs` over `relic view`, `web_e2e.rs` over the static site): why
//! Chromium cannot be driven here, and running one of `tools/view-e2e`'s scripts with a time limit.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Why the browser tests cannot run on this machine (Chromium, node or playwright-core missing), if they
/// cannot.
pub fn tools_missing(repo: &Path) -> Option<String> {
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
    if !repo.join("tools/view-e2e/node_modules/playwright-core").exists() {
        return Some("playwright-core is not installed: run `npm ci --prefix tools/view-e2e`".into());
    }
    None
}

/// Runs `node SCRIPT URL OUT ARGS…` (five minutes at most: a hung browser is stopped rather than hanging
/// the suite), fails with its output unless it succeeded with no problem, and returns what it printed.
pub fn run_script(script: &Path, url: &str, out: &Path, args: &[&std::ffi::OsStr]) -> String {
    let _ = std::fs::remove_dir_all(out);
    std::fs::create_dir_all(out).unwrap();
    let mut node = Command::new("node");
    node.arg(script).arg(url).arg(out).args(args);
    let mut child = node.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("node starts");
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
    stdout.into_owned()
}
