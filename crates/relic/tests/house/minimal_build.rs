//! relic with `default-features = false`, as an engine would depend on it: it builds, it reads and writes
//! back every sample, and none of the optional dependencies (HTTP server, threads, encoders, file
//! writers) is compiled in.
//!
//! The build goes to `<target>/minimal`, a target folder of its own: the features differ from the ones the
//! test suite was built with (a shared folder would rebuild relic back and forth), and a separate folder
//! does not wait on the lock of the build running this test.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    crate::common::repo_root()
}

/// `target/` of the build running this test (`target/<profile>/deps/minimal_build-…`).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.ancestors().nth(3).expect("the test runs from target/<profile>/deps").to_path_buf()
}

#[test]
fn without_default_features_every_sample_is_read_and_written_back() {
    let out = Command::new(env!("CARGO"))
        .args(["run", "-q", "-p", "relic", "--no-default-features", "--example", "parse_samples", "--target-dir"])
        .arg(target_dir().join("minimal"))
        .args(["--", "samples"])
        .current_dir(root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "parse_samples failed:\n{stdout}\n{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    // Every file under samples/ (the contract's rows name them) is identified, and its document is written
    // back to the same bytes.
    let n = crate::contract::samples().len();
    let summary = format!(
        "{n} files, {n} identified, {n} documents, {n} written back, {n} byte for byte, 13 archives with 47 entries"
    );
    assert!(lines.contains(&summary.as_str()), "{stdout}");
    // Conversion to the asset model works; what needs an encoder is refused, naming the feature.
    assert!(lines.contains(&"30 converted to 73 assets: 21 exported, 52 refused for want of `export`"), "{stdout}");
    for line in [
        "samples/ragnarok/example.grf: ro-grf, 2 entries, written back byte for byte",
        "samples/evil_islands/example.res: ei-res, 5 entries, written back byte for byte",
        "samples/drakan/Sample.mod: drakan-srsc, 11 entries, written back byte for byte",
        "samples/freerct/tiles.rcd: freerct-rcd, written back byte for byte",
        "samples/dark_reign/SPRITES.FTG: dr-ftg, 3 entries, written back byte for byte",
    ] {
        assert!(lines.contains(&line), "missing `{line}` in:\n{stdout}");
    }
}

#[test]
fn without_default_features_no_optional_dependency_is_compiled() {
    let out = Command::new(env!("CARGO"))
        .args(["tree", "-p", "relic", "--no-default-features", "-e", "normal", "--prefix", "none"])
        .current_dir(root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&out.stderr));
    let crates: std::collections::BTreeSet<&str> = stdout.lines().filter_map(|l| l.split(' ').next()).collect();
    assert!(crates.contains("relic") && crates.contains("serde_json"), "{stdout}");
    for optional in ["tiny_http", "rayon", "png", "hound", "image", "csv", "tempfile", "walkdir", "globset", "rustix"] {
        assert!(!crates.contains(optional), "{optional} is compiled without default features:\n{stdout}");
    }
    // The default build has them (the list above is not just names cargo never prints).
    let out = Command::new(env!("CARGO"))
        .args(["tree", "-p", "relic", "-e", "normal", "--prefix", "none"])
        .current_dir(root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let crates: std::collections::BTreeSet<&str> = stdout.lines().filter_map(|l| l.split(' ').next()).collect();
    for optional in ["tiny_http", "rayon", "png", "hound", "image", "csv", "tempfile", "walkdir", "globset"] {
        assert!(crates.contains(optional), "{optional} is missing from the default build:\n{stdout}");
    }
}
