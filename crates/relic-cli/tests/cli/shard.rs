//! Sharding: N copies of a command with `--shard K/N` over one `--files-from` list do exactly one whole
//! run's work — the union of their outputs is the whole run's, byte for byte, no shard writes another's
//! file (they share one output folder without `--force`), and `merge-reports` of their reports equals the
//! whole run's report.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

use crate::common::repo;

/// `relic` run from the repository root, so the lists' relative paths (`samples/…`) resolve.
fn relic() -> Command {
    let mut c = crate::common::relic();
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
    assert!(a.contains_key("evil_islands/example.res/texts/quest q1"), "{:?}", a.keys().collect::<Vec<_>>());
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
    let mut want: Vec<String> = whole_check["files"]
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

/// Copies sample `from` (below `samples/`) to `dir/to`.
fn copy_sample(dir: &Path, from: &str, to: &str) -> PathBuf {
    let path = dir.join(to);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::copy(repo().join("samples").join(from), &path).unwrap();
    path
}

/// Inputs that share names across folders (and stems within one) never share an output, whether named,
/// walked, listed or sharded; the layout is the same every way, and follows from each input's name.
#[test]
fn inputs_sharing_names_across_folders_never_share_an_output() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game");
    let inputs = [
        copy_sample(&game, "evil_islands/intro.cam", "a/intro.cam"),
        copy_sample(&game, "evil_islands/intro.cam", "b/intro.cam"),
        copy_sample(&game, "ragnarok/pyramid.rsm", "a/pyramid.rsm"),
        copy_sample(&game, "ragnarok/pyramid.rsm2", "a/pyramid.rsm2"),
        copy_sample(&game, "evil_islands/unit.mmp", "b/unit.mmp"),
        copy_sample(&game, "drakan/Sample.mod", "d/Sample.mod"),
        copy_sample(&game, "drakan/Sample.lvl", "d/Sample.lvl"),
        copy_sample(&game, "drakan/Sample.db", "d/Sample.db"),
        copy_sample(&game, "drakan/Sample.txd", "d/Sample.txd"),
    ];
    let expected = [
        "a/intro.cam.json",
        "b/intro.cam.json",
        "a/pyramid.rsm.glb",
        "a/pyramid.rsm2.glb",
        "b/unit.mmp.png",
        // The model and texture files are the database's: converted through the `.db`, once (issue 39).
        "d/Sample.db/mod",
        "d/Sample.db/txd",
        "d/Sample.lvl",
    ];
    let list = dir.path().join("list.txt");
    std::fs::write(&list, inputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join("\n")).unwrap();
    // One run from the list.
    let listed = dir.path().join("listed");
    relic().args(["convert", "-q", "--files-from"]).arg(&list).arg("-o").arg(&listed).assert().success();
    let whole = tree(&listed);
    for want in expected {
        assert!(whole.keys().any(|k| k == want || k.starts_with(&format!("{want}/"))), "{want}: {:?}", whole.keys());
    }
    // The two same-named cameras are both there, each its own file.
    assert_eq!(whole["a/intro.cam.json"], whole["b/intro.cam.json"]);
    assert!(
        !whole.keys().any(|k| k.starts_with("d/Sample.mod") || k.starts_with("d/Sample.txd")),
        "{:?}",
        whole.keys()
    );
    // The Drakan model and level of one stem keep their documents apart.
    let model_docs: Vec<&String> = whole.keys().filter(|k| k.starts_with("d/Sample.db/mod/")).collect();
    let level_docs: Vec<&String> = whole.keys().filter(|k| k.starts_with("d/Sample.lvl/")).collect();
    assert!(!model_docs.is_empty() && !level_docs.is_empty(), "{:?}", whole.keys());
    // The same inputs named on the command line, walked as a folder, and sharded three ways: one layout.
    let named = dir.path().join("named");
    relic().args(["convert", "-q", "-o"]).arg(&named).args(&inputs).assert().success();
    assert_eq!(tree(&named), whole);
    let walked = dir.path().join("walked");
    relic().args(["convert", "-q", "-o"]).arg(&walked).arg(&game).assert().success();
    assert_eq!(tree(&walked), whole);
    // A file named twice, and inside a folder named too, is converted once.
    let twice = dir.path().join("twice");
    relic()
        .args(["convert", "-q", "-o"])
        .arg(&twice)
        .arg(&game)
        .args([&inputs[0], &inputs[0]])
        .arg(game.join("a/../a/intro.cam"))
        .assert()
        .success();
    assert_eq!(tree(&twice), whole);
    let sharded = dir.path().join("sharded");
    for k in 1..=3 {
        relic()
            .args(["convert", "-q", "--files-from"])
            .arg(&list)
            .args(["--shard", &format!("{k}/3"), "-o"])
            .arg(&sharded)
            .assert()
            .success();
    }
    assert_eq!(tree(&sharded), whole);
    // A name is predictable from the input alone: one file converted by itself lands where the batch put it.
    let alone = dir.path().join("alone");
    relic().args(["convert", "-q", "-o"]).arg(&alone).arg(&inputs[4]).assert().success();
    // (With the record of the texture's provenance beside it, `relic::record`.)
    assert_eq!(tree(&alone).keys().collect::<Vec<_>>(), ["unit.mmp.png", "unit.mmp.relic.json"]);
    // --base names the root: the same file keeps its folder below it.
    let based = dir.path().join("based");
    relic().args(["convert", "-q", "--base"]).arg(&game).arg("-o").arg(&based).arg(&inputs[4]).assert().success();
    assert_eq!(tree(&based).keys().collect::<Vec<_>>(), ["b/unit.mmp.png", "b/unit.mmp.relic.json"]);
    // An input outside --base is a usage error.
    relic()
        .args(["convert", "-q", "--base"])
        .arg(game.join("a"))
        .arg("-o")
        .arg(&based)
        .arg(&inputs[1])
        .assert()
        .code(2);
}

/// `convert -o out .` does not walk into `out`, however often it runs.
#[test]
fn the_output_folder_is_never_walked_into() {
    let dir = tempfile::tempdir().unwrap();
    copy_sample(dir.path(), "evil_islands/intro.cam", "intro.cam");
    copy_sample(dir.path(), "evil_islands/example.res", "example.res");
    let run = || {
        let mut c = Command::cargo_bin("relic").unwrap();
        c.current_dir(dir.path()).args(["convert", "--json", "-o", "out", "."]);
        let out = c.assert().success().get_output().stdout.clone();
        serde_json::from_slice::<Value>(&out).unwrap()
    };
    let first = run();
    let written = first["outputs"].as_array().unwrap().len();
    // example.res: readme.txt, two text folders (three .txt) and unit.bon, now one JSON (issue 28).
    assert_eq!(written, 1 + 5, "intro.cam.json and example.res's five outputs");
    // Again with the outputs in place: the same inputs refuse to overwrite, and nothing under out/ is an input.
    let mut again = Command::cargo_bin("relic").unwrap();
    let assert = again.current_dir(dir.path()).args(["convert", "--json", "-o", "out", "."]).assert().code(1);
    let manifest: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    let failures = manifest["failures"].as_array().unwrap();
    assert!(failures.iter().all(|f| !f["input"].as_str().unwrap().contains("out/")), "{manifest}");
    assert_eq!(manifest["skipped"], serde_json::json!([]), "{manifest}");
    // What was written, and the record of example.res (its texts), which the second run left as it was.
    assert_eq!(tree(&dir.path().join("out")).len(), written + 1);
    assert!(dir.path().join("out/example.res.relic.json").is_file());
}
