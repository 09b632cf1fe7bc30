//! Sharding: N copies of a command with `--shard K/N` over one `--files-from` list do exactly one whole
//! run's work — the union of their outputs is the whole run's, byte for byte, no shard writes another's
//! file (they share one output folder without `--force`), and `merge-reports` of their reports equals the
//! whole run's report.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `relic` run from the repository root, so the lists' relative paths (`samples/…`) resolve.
fn relic() -> Command {
    let mut c = Command::cargo_bin("relic").unwrap();
    c.current_dir(repo());
    c
}

/// Every file under `dir`: relative path → bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/");
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

fn report(path: &Path, out_dir: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    // Output paths name the run's folder; compare what lies below it.
    serde_json::from_str(&text.replace(&out_dir.display().to_string(), "OUT")).unwrap()
}

/// Every sample file, as a list relative to the repository root.
fn sample_list(dir: &Path) -> (PathBuf, usize) {
    let mut lines: Vec<String> = walkdir::WalkDir::new(repo().join("samples"))
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().strip_prefix(repo()).unwrap().to_string_lossy().replace('\\', "/"))
        .collect();
    lines.sort();
    let n = lines.len();
    let list = dir.join("list.txt");
    std::fs::write(&list, format!("# every sample\n{}\n", lines.join("\n"))).unwrap();
    (list, n)
}

#[test]
fn four_convert_shards_make_exactly_one_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let (list, n) = sample_list(dir.path());
    let whole = dir.path().join("whole");
    relic()
        .args(["convert", "-q", "--files-from"])
        .arg(&list)
        .arg("-o")
        .arg(&whole)
        .arg("--report")
        .arg(dir.path().join("whole.json"))
        .assert()
        .success();
    let sharded = dir.path().join("sharded");
    let mut per_shard = Vec::new();
    for k in 1..=4 {
        let r = dir.path().join(format!("r{k}.json"));
        relic()
            .args(["convert", "-q", "--files-from"])
            .arg(&list)
            .args(["--shard", &format!("{k}/4"), "-o"])
            .arg(&sharded)
            .arg("--report")
            .arg(&r)
            .assert()
            .success();
        per_shard.push(report(&r, &sharded)["inputs"].as_array().unwrap().len());
    }
    assert_eq!(per_shard.iter().sum::<usize>(), n, "every input in exactly one shard: {per_shard:?}");
    assert!(per_shard.iter().filter(|&&k| k > 0).count() >= 3, "the hash spreads the inputs: {per_shard:?}");
    let (a, b) = (tree(&whole), tree(&sharded));
    assert!(a.len() > n, "the samples give more files than inputs ({} for {n})", a.len());
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (name, bytes) in &a {
        assert!(b[name] == *bytes, "{name} differs between the whole run and the shards");
    }
    let merged = dir.path().join("merged.json");
    relic()
        .arg("merge-reports")
        .arg("-o")
        .arg(&merged)
        .args((1..=4).map(|k| dir.path().join(format!("r{k}.json"))))
        .assert()
        .success();
    let (m, w) = (report(&merged, &sharded), report(&dir.path().join("whole.json"), &whole));
    assert_eq!(m["shards"], serde_json::json!(["1/4", "2/4", "3/4", "4/4"]));
    for key in ["command", "inputs", "outputs", "failures", "skipped"] {
        assert_eq!(m[key], w[key], "{key}");
    }
    // A missing shard is named; the same shard twice is refused.
    relic()
        .arg("merge-reports")
        .args([dir.path().join("r1.json"), dir.path().join("r2.json")])
        .assert()
        .success()
        .stderr(predicates::str::contains("missing shards: 3/4, 4/4"));
    relic().arg("merge-reports").args([dir.path().join("r1.json"), dir.path().join("r1.json")]).assert().code(1);
}

#[test]
fn extract_and_check_shard_the_same_way() {
    let dir = tempfile::tempdir().unwrap();
    let archives = [
        "samples/evil_islands/example.res",
        "samples/ragnarok/example.grf",
        "samples/dark_reign/SPRITES.FTG",
        "samples/drakan/Sample.txd",
        "samples/drakan/Dragon.rrc",
    ];
    let list = dir.path().join("archives.txt");
    std::fs::write(&list, archives.join("\n")).unwrap();
    let whole = dir.path().join("whole");
    relic().args(["extract", "-q", "--files-from"]).arg(&list).arg("-o").arg(&whole).assert().success();
    let sharded = dir.path().join("sharded");
    for k in 1..=3 {
        relic()
            .args(["extract", "-q", "--files-from"])
            .arg(&list)
            .args(["--shard", &format!("{k}/3"), "-o"])
            .arg(&sharded)
            .assert()
            .success();
    }
    let (a, b) = (tree(&whole), tree(&sharded));
    assert!(a.contains_key("samples/evil_islands/example/texts/quest q1"), "{:?}", a.keys().collect::<Vec<_>>());
    assert_eq!(a, b);

    let (list, n) = sample_list(dir.path());
    let mut outcomes = Vec::new();
    for k in 1..=2 {
        let r = dir.path().join(format!("c{k}.json"));
        relic()
            .args(["check", "-q", "--files-from"])
            .arg(&list)
            .args(["--shard", &format!("{k}/2"), "--report"])
            .arg(&r)
            .assert()
            .success();
        outcomes.extend(report(&r, dir.path())["outputs"].as_array().unwrap().clone());
    }
    let whole_check: Value = serde_json::from_slice(
        &relic().args(["check", "--json", "--files-from"]).arg(&list).assert().success().get_output().stdout,
    )
    .unwrap();
    assert_eq!(outcomes.len(), n);
    let mut want: Vec<String> = whole_check
        .as_array()
        .unwrap()
        .iter()
        .map(|i| format!("{}: {}", i["path"].as_str().unwrap(), i["outcome"].as_str().unwrap()))
        .collect();
    let mut got: Vec<String> = outcomes.iter().map(|v| v.as_str().unwrap().to_string()).collect();
    want.sort();
    got.sort();
    assert_eq!(got, want);
    relic().args(["convert", "--shard", "5/4", "samples"]).assert().code(2);
}
