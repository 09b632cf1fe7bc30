//! The Blender add-on (`blender/relic_io`) in Blender itself: `blender/tests/test_addon.py` run in background
//! mode installs it from its zip, imports every sample model, map and terrain and exports models back (see
//! that script for what it checks).
//!
//! It needs `blender` on PATH with numpy for Blender's glTF importer (Debian: `apt-get install blender
//! python3-numpy`) and the `relic` Python package: `RELIC_PY_SITE` names the folder it is installed in
//! (`pip install --target DIR ./python`, or a venv's `site-packages`); else the venv `.ci/run` builds it
//! in (`<target>/python-venv`) when it holds the package. Without either the add-on runs over
//! `blender/tests/support`'s stand-in package, which calls this build's `relic` binary, and the test says
//! so. Where Blender or numpy is missing the test says so and skips; under CI (`CI` set) each of these is a
//! failure.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::repo;

/// Written to the process's stderr, which the test harness does not capture, so `cargo test` shows it.
fn say(what: &str) {
    let _ = writeln!(std::io::stderr(), "{what}");
}

/// Runs Blender in background mode with `args` after the usual flags; (success, stdout + stderr), or None
/// when it did not finish in `limit`.
fn blender(args: &[&std::ffi::OsStr], envs: &[(&str, &Path)], limit: Duration) -> Option<(bool, String)> {
    let mut command = Command::new("blender");
    command.args(["--background", "--factory-startup", "--python-exit-code", "1"]).args(args);
    for (key, value) in envs {
        command.env(key, value);
    }
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().ok()?;
    let started = Instant::now();
    // Drain both pipes while waiting, so a chatty Blender never blocks on a full pipe.
    let mut stdout = child.stdout.take()?;
    let mut stderr = child.stderr.take()?;
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().ok()? {
            break Some(status);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let text = format!("{}{}", out.join().unwrap_or_default(), err.join().unwrap_or_default());
    status.map(|s| (s.success(), text))
}

/// Why the test cannot run here, or None.
fn missing() -> Option<String> {
    let ok = Command::new("blender").arg("--version").output().is_ok_and(|o| o.status.success());
    if !ok {
        return Some("blender is not installed (apt-get install blender python3-numpy)".into());
    }
    let expr: &std::ffi::OsStr = "import numpy".as_ref();
    match blender(&["--python-expr".as_ref(), expr], &[], Duration::from_secs(120)) {
        Some((true, _)) => None,
        _ => {
            Some("Blender's Python has no numpy, which its glTF importer needs (apt-get install python3-numpy)".into())
        }
    }
}

/// The site-packages of `.ci/run`'s venv (`<target>/python-venv`) when the relic package is installed there.
fn venv_site() -> Option<PathBuf> {
    let lib = Path::new(env!("CARGO_TARGET_TMPDIR")).join("../python-venv/lib");
    std::fs::read_dir(lib)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("site-packages"))
        .find(|site| site.join("relic/__init__.py").is_file())
}

#[test]
fn blender_addon_imports_and_exports_every_sample_model() {
    if let Some(why) = missing() {
        crate::common::skip("the Blender add-on test", &why);
        return;
    }
    let out = crate::common::scratch("blender-addon");
    let _ = std::fs::remove_dir_all(&out);
    let scripts = out.join("user-scripts");
    std::fs::create_dir_all(&scripts).unwrap();
    let script = repo().join("blender/tests/test_addon.py");
    let samples = repo().join("samples");
    let results = out.join("results");
    let mut args: Vec<std::ffi::OsString> = vec!["--python".into(), script.into(), "--".into()];
    args.extend(["--samples".into(), samples.into(), "--out".into(), results.into()]);
    let mut package = None;
    match std::env::var_os("RELIC_PY_SITE").map(PathBuf::from).or_else(venv_site) {
        Some(site) => {
            let site = std::fs::canonicalize(&site).unwrap_or(site);
            say(&format!("the Blender add-on test runs over the relic package in {}", site.display()));
            package = Some(site.join("relic"));
            args.extend(["--pythonpath".into(), site.into()]);
        }
        None => {
            assert!(
                !crate::common::under_ci(),
                "CI must run the Blender add-on test over the relic package: set RELIC_PY_SITE"
            );
            say("the Blender add-on test runs over the CLI stand-in (blender/tests/support): RELIC_PY_SITE names no installed relic package");
            args.extend(["--shim".into(), env!("CARGO_BIN_EXE_relic").into()]);
        }
    }
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let (ok, text) = blender(&args, &[("BLENDER_USER_SCRIPTS", &scripts)], Duration::from_secs(600))
        .expect("Blender finishes the add-on test within 10 minutes");
    assert!(ok && text.contains("all add-on tests passed"), "the Blender add-on test failed:\n{text}");
    // The package under test is the one named, not another one Blender's Python finds first.
    if let Some(package) = package {
        assert!(
            text.contains(&format!(" from {}\n", package.display())),
            "relic was not taken from {package:?}:\n{text}"
        );
    }
    // The add-on ran from the zip Blender installed, not from the repository's folder.
    assert!(text.contains(&format!("add-on relic_io from {}", scripts.join("addons/relic_io").display())), "{text}");
}
