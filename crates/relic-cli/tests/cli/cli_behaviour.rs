//! Issue 25's CLI bullets, one test each, against the real `relic` binary: -q/--json everywhere, limits
//! only where relic decodes, --pixel-format, suggestions for mistyped format ids, completions and man pages,
//! --version, and the wording of messages (paths said once, -o naming a file, extensionless archives, pack's
//! inputs, UTC times, check's summary).

use std::io::BufRead as _;
use std::path::Path;

use serde_json::{json, Value};

use crate::common::{relic, samples};

/// Every subcommand, in the order `relic --help` lists them.
const SUBCOMMANDS: [&str; 13] = [
    "formats",
    "identify",
    "info",
    "ls",
    "extract",
    "convert",
    "check",
    "merge-reports",
    "view",
    "pack",
    "edit",
    "completions",
    "man",
];

/// Runs `relic ARGS` expecting `code`; stdout and stderr as text.
fn run(args: &[&str], code: i32) -> (String, String) {
    let assert = relic().args(args).assert().code(code);
    let output = assert.get_output();
    (String::from_utf8(output.stdout.clone()).unwrap(), String::from_utf8(output.stderr.clone()).unwrap())
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn parsed(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

/// `relic --help` names exactly these subcommands, so the lists below cover them all.
#[test]
fn the_subcommand_list_is_complete() {
    let (help, _) = run(&["--help"], 0);
    let listed: Vec<&str> = help
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        // A subcommand's line; its wrapped description is indented further.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .collect();
    assert_eq!(listed, SUBCOMMANDS);
}

/// `-q` and `--json` on every subcommand: each runs with both, prints JSON on stdout and nothing on stderr.
/// (`relic pack -q` and `relic info -q` were usage errors.)
#[test]
fn quiet_and_json_are_accepted_by_every_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let res = samples().join("evil_islands/example.res");
    let cam = samples().join("evil_islands/intro.cam");
    let report = dir.path().join("r.json");
    let edited = dir.path().join("edited.res");
    std::fs::copy(&res, &edited).unwrap();
    let (extracted, converted, packed, pages) =
        (dir.path().join("x"), dir.path().join("c"), dir.path().join("p.cam"), dir.path().join("man"));
    let cam_json = converted.join("intro.cam.json");
    let runs: Vec<Vec<&str>> = vec![
        vec!["formats"],
        vec!["identify", text(&res)],
        vec!["info", text(&res)],
        vec!["ls", text(&res)],
        vec!["extract", "-o", text(&extracted), text(&res)],
        vec!["convert", "--to", "json", "-o", text(&converted), text(&cam)],
        vec!["check", "--report", text(&report), text(&res)],
        vec!["merge-reports", text(&report)],
        vec!["pack", "ei-cam", "-o", text(&packed), text(&cam_json)],
        vec!["edit", "--dry-run", text(&edited), "--delete", "readme.txt"],
        vec!["completions", "bash"],
        vec!["man", "-o", text(&pages)],
    ];
    for args in runs {
        let (name, rest) = args.split_first().unwrap();
        let mut all = vec![*name, "-q", "--json"];
        all.extend(rest);
        let (stdout, stderr) = run(&all, 0);
        assert_eq!(stderr, "", "{all:?}");
        let value = parsed(&stdout);
        assert!(value.is_array() || value.is_object(), "{all:?}: {stdout}");
    }
    // -q alone: nothing at all, the exit code says it went well.
    let texture = samples().join("evil_islands/unit.mmp");
    for args in [
        vec!["info", "-q", text(&res)],
        vec!["pack", "-q", "--force", "ei-cam", "-o", text(&packed), text(&cam_json)],
        vec!["check", "-q", text(&texture)],
        vec!["identify", "-q", text(&texture)],
    ] {
        assert_eq!(run(&args, 0), (String::new(), String::new()), "{args:?}");
    }
    // What the JSON says: pack names its output and size, check counts.
    let (stdout, _) = run(&["pack", "--json", "--force", "ei-cam", "-o", text(&packed), text(&cam_json)], 0);
    let bytes = std::fs::metadata(&packed).unwrap().len();
    assert_eq!(parsed(&stdout), json!({"output": text(&packed), "bytes": bytes, "companions": [], "notes": []}));
    // view: the URL, as JSON, is the first line; -q leaves it (it is how the page is reached) and says no more.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("relic"))
        .args(["view", "-q", "--json", text(&res)])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    child.kill().unwrap();
    let output = child.wait_with_output().unwrap();
    let url = parsed(&first)["url"].as_str().unwrap().to_string();
    assert!(url.starts_with("http://127.0.0.1:") && url.ends_with('/'), "{first}");
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

/// `--max-*` belong to the subcommands that decode: elsewhere (and before the subcommand) they are usage
/// errors; where they belong, they bind.
#[test]
fn limits_only_on_the_subcommands_that_use_them() {
    let res = samples().join("evil_islands/example.res");
    let (_, stderr) = run(&["formats", "--max-pixels", "1"], 2);
    assert!(stderr.starts_with("error: unexpected argument '--max-pixels' found"), "{stderr}");
    run(&["identify", "--max-entry-size", "1K", text(&res)], 2);
    run(&["merge-reports", "--max-expansion", "5", "r.json"], 2);
    run(&["--max-expansion", "5", "info", text(&res)], 2);
    run(&["completions", "--max-pixels", "1", "bash"], 2);
    // On `pack`, --max-pixels refuses a PNG larger than it, naming the flag.
    let dir = tempfile::tempdir().unwrap();
    run(&["convert", "-q", "-o", text(dir.path()), text(&samples().join("evil_islands/unit.mmp"))], 0);
    let png = dir.path().join("unit.mmp.png");
    let out = dir.path().join("again.mmp");
    let (_, stderr) = run(&["pack", "ei-mmp", "--max-pixels", "16", "-o", text(&out), text(&png)], 1);
    assert!(stderr.starts_with("relic: ") && stderr.contains("--max-pixels"), "{stderr}");
    run(&["pack", "ei-mmp", "-q", "--max-pixels", "1000000", "-o", text(&out), text(&png)], 0);
}

/// `pack`'s pixel format is `--pixel-format`, checked by clap (exit 2 with the accepted values); `--format`
/// means a format id only, and pack has none.
#[test]
fn pack_pixel_format_is_its_own_flag_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    run(&["convert", "-q", "-o", text(dir.path()), text(&samples().join("evil_islands/unit.mmp"))], 0);
    let png = dir.path().join("unit.mmp.png");
    let out = dir.path().join("x.mmp");
    let (_, stderr) = run(&["pack", "ei-mmp", "--format", "dxt1", "-o", text(&out), text(&png)], 2);
    assert!(stderr.starts_with("error: unexpected argument '--format' found"), "{stderr}");
    let (_, stderr) = run(&["pack", "ei-mmp", "--pixel-format", "bc7", "-o", text(&out), text(&png)], 2);
    let lines: Vec<&str> = stderr.lines().take(2).collect();
    assert_eq!(
        lines,
        [
            "error: invalid value 'bc7' for '--pixel-format <PIXEL_FORMAT>'",
            "  [possible values: argb4, r5g6b5, a1r5g5b5, argb8, dxt1, dxt3, pnt3]"
        ]
    );
    assert!(!out.exists());
    // Any case, as the game's names are written.
    run(&["pack", "ei-mmp", "-q", "--pixel-format", "DXT1", "-o", text(&out), text(&png)], 0);
    let (stdout, _) = run(&["info", "--json", text(&out)], 0);
    assert_eq!(parsed(&stdout)["pixel_format"], "dxt1");
    // A format with no pixel format to choose says so.
    let res = dir.path().join("x.res");
    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    let (_, stderr) = run(&["pack", "ei-res", "--pixel-format", "dxt1", "-o", text(&res), text(&folder)], 2);
    assert_eq!(stderr, "relic: ei-res has no pixel format to choose (--pixel-format is for ei-mmp)\n");
}

/// A mistyped format id, wherever one is taken, is a usage error naming the nearest id.
#[test]
fn a_mistyped_format_id_suggests_the_nearest() {
    let res = samples().join("evil_islands/example.res");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    for args in [
        vec!["pack", "ei-rse", "-o", text(&out), text(&res)],
        vec!["info", "--format", "ei-rse", text(&res)],
        vec!["convert", "--format", "ei-rse", "-o", text(&out), text(&res)],
    ] {
        let (stdout, stderr) = run(&args, 2);
        assert_eq!(
            (stdout.as_str(), stderr.as_str()),
            ("", "relic: unknown format `ei-rse`; did you mean `ei-res`?\n")
        );
    }
    let (_, stderr) = run(&["info", "--format", "ro-gfr", text(&res)], 2);
    assert_eq!(stderr, "relic: unknown format `ro-gfr`; did you mean `ro-grf`?\n");
    // Nothing near: the whole list.
    let (_, stderr) = run(&["info", "--format", "zip", text(&res)], 2);
    assert!(stderr.starts_with("relic: unknown format `zip` (one of ei-res, ei-reg, "), "{stderr}");
    assert!(!out.exists());
}

/// Completion scripts for every shell, from the same definitions: each names every subcommand; bash's
/// parses.
#[test]
fn completions_for_every_shell() {
    let markers = [
        ("bash", "complete -F _relic"),
        ("zsh", "#compdef relic"),
        ("fish", "complete -c relic"),
        ("powershell", "Register-ArgumentCompleter -Native -CommandName 'relic'"),
        ("elvish", "set edit:completion:arg-completer[relic]"),
    ];
    for (shell, marker) in markers {
        let (script, stderr) = run(&["completions", shell], 0);
        assert_eq!(stderr, "");
        assert!(script.contains(marker), "{shell}: no `{marker}`");
        for sub in SUBCOMMANDS {
            assert!(script.contains(sub), "{shell} does not complete `{sub}`");
        }
        assert!(script.contains("pixel-format"), "{shell} does not complete --pixel-format");
    }
    let (_, stderr) = run(&["completions", "tcsh"], 2);
    assert!(stderr.starts_with("error: invalid value 'tcsh' for '<SHELL>'"), "{stderr}");
    // The JSON form carries the same script.
    let (bash, _) = run(&["completions", "bash"], 0);
    let (stdout, _) = run(&["completions", "--json", "bash"], 0);
    assert_eq!(parsed(&stdout), json!({"shell": "bash", "script": bash}));
    match std::process::Command::new("bash").arg("-n").stdin(std::process::Stdio::piped()).spawn() {
        Ok(mut child) => {
            use std::io::Write as _;
            child.stdin.take().unwrap().write_all(bash.as_bytes()).unwrap();
            assert!(child.wait().unwrap().success(), "bash -n refuses the script");
        }
        Err(e) => {
            crate::common::skip("bash -n of the completion script", &format!("no bash: {e}"));
        }
    }
}

/// `relic man` prints relic's page (naming every subcommand); `relic man -o DIR` writes one page per
/// subcommand, and each names every flag `relic SUB --help` lists.
#[test]
fn man_pages_name_every_subcommand_and_flag() {
    let (page, _) = run(&["man"], 0);
    assert!(page.contains(".TH relic 1"), "{page}");
    let plain = page.replace("\\-", "-");
    for sub in SUBCOMMANDS {
        assert!(plain.contains(&format!("relic-{sub}(1)")), "relic.1 does not name {sub}");
    }
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man1");
    let (_, stderr) = run(&["man", "-o", text(&pages)], 0);
    assert_eq!(stderr, format!("wrote 14 man pages to {}\n", pages.display()));
    for sub in SUBCOMMANDS {
        let roff = std::fs::read_to_string(pages.join(format!("relic-{sub}.1"))).unwrap().replace("\\-", "-");
        assert!(roff.contains(&format!(".TH relic-{sub} 1")), "relic-{sub}.1");
        let (help, _) = run(&[sub, "--help"], 0);
        let flags: Vec<&str> = help
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| {
                w.starts_with("--") && w.len() > 2 && w[2..].chars().all(|c| c.is_ascii_lowercase() || c == '-')
            })
            .collect();
        assert!(flags.contains(&"--quiet"), "{sub}: {flags:?}");
        for flag in flags {
            assert!(roff.contains(flag), "relic-{sub}.1 does not name {flag}");
        }
    }
    assert_eq!(std::fs::read_to_string(pages.join("relic.1")).unwrap(), page);
    // One subcommand's page on standard output is the one written.
    let (pack, _) = run(&["man", "pack"], 0);
    assert_eq!(pack, std::fs::read_to_string(pages.join("relic-pack.1")).unwrap());
    let (_, stderr) = run(&["man", "pak"], 2);
    assert!(stderr.starts_with("relic: no subcommand `pak` (one of formats, identify, "), "{stderr}");
}

/// `--version`: the version, the commit built from (`unknown` outside a git checkout) and the formats' count.
#[test]
fn version_names_the_commit_and_the_formats_count() {
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map_or_else(|| "unknown".to_string(), |o| String::from_utf8(o.stdout).unwrap().trim().to_string());
    let want = format!("relic {} (commit {commit}, {} formats)\n", env!("CARGO_PKG_VERSION"), relic::FORMATS.len());
    assert_eq!(run(&["--version"], 0).0, want);
    assert_eq!(run(&["-V"], 0).0, want);
}

/// An error that already names its path is not prefixed with it again.
#[test]
fn a_path_is_named_once() {
    let dir = tempfile::tempdir().unwrap();
    let (stdout, stderr) = run(&["info", text(dir.path())], 1);
    assert_eq!((stdout.as_str(), stderr), ("", format!("relic: {} is a folder\n", dir.path().display())));
    let missing = dir.path().join("gone.res");
    let (_, stderr) = run(&["info", text(&missing)], 1);
    assert_eq!(stderr.matches(text(&missing)).count(), 1, "{stderr}");
}

/// `-o` naming an existing file, for a command that writes into a folder, is said in words (exit 2), and
/// nothing is written.
#[test]
fn output_naming_a_file_is_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("notes.txt");
    std::fs::write(&file, b"keep").unwrap();
    let res = samples().join("evil_islands/example.res");
    let want = format!("relic: `{}` is a file; -o needs a folder (or a new name)\n", file.display());
    for args in [
        vec!["extract", "-o", text(&file), text(&res)],
        vec!["convert", "-o", text(&file), text(&res)],
        vec!["man", "-o", text(&file)],
    ] {
        assert_eq!(run(&args, 2), (String::new(), want.clone()), "{args:?}");
    }
    assert_eq!(std::fs::read(&file).unwrap(), b"keep");
}

/// An archive with no extension extracts into `<name>.extracted`, never over itself.
#[test]
fn an_archive_without_extension_never_extracts_into_itself() {
    let dir = tempfile::tempdir().unwrap();
    let grf = samples().join("ragnarok/example.grf");
    std::fs::copy(&grf, dir.path().join("data")).unwrap();
    let assert = relic().current_dir(dir.path()).args(["extract", "data"]).assert().success();
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr, "extracted 2 files (110 bytes) to data.extracted\n");
    assert_eq!(std::fs::read(dir.path().join("data")).unwrap(), std::fs::read(&grf).unwrap());
    let readme = dir.path().join("data.extracted/data/readme.txt");
    assert_eq!(std::fs::metadata(readme).unwrap().len(), 40);
    // With an extension, the name without it, as before.
    std::fs::copy(&grf, dir.path().join("example.grf")).unwrap();
    relic().current_dir(dir.path()).args(["extract", "-q", "example.grf"]).assert().success();
    assert!(dir.path().join("example/data/readme.txt").is_file());
}

/// `pack FORMAT` without an input names every input that format is made from.
#[test]
fn pack_without_input_names_the_accepted_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    for (format, inputs) in [
        ("ei-mmp", "a PNG or the JSON of `relic convert --to json`"),
        ("ei-reg", "an INI or the JSON of `relic convert --to json`"),
        ("ro-grf", "a folder or the JSON of `relic convert --to json`"),
        ("ei-cam", "the JSON of `relic convert --to json`"),
    ] {
        let (_, stderr) = run(&["pack", format, "-o", text(&out)], 2);
        assert_eq!(stderr, format!("relic: pack {format} needs an input: {inputs}\n"));
    }
    assert!(!out.exists());
    // An input of another kind is named with the same list.
    let res = samples().join("evil_islands/example.res");
    let (_, stderr) = run(&["pack", "ei-res", "-o", text(&out), text(&res)], 1);
    let want = "ei-res is made from a folder, a glTF model (.glb or .gltf) or the JSON of `relic convert --to json`";
    assert_eq!(stderr, format!("relic: {}: {want}\n", res.display()));
    assert!(!out.exists());
}

/// `info` shows a time as the raw value and as ISO 8601 in UTC.
#[test]
fn info_times_are_iso8601_utc_beside_the_raw_value() {
    let res = samples().join("evil_islands/example.res");
    let (stdout, _) = run(&["info", text(&res)], 0);
    let times: Vec<&str> = stdout.lines().filter(|l| l.contains("_time")).collect();
    assert_eq!(
        times,
        ["  oldest_time: 985950276 (2001-03-30T11:04:36Z)", "  newest_time: 985950276 (2001-03-30T11:04:36Z)"]
    );
    let (stdout, _) = run(&["info", "--json", text(&res)], 0);
    let v = parsed(&stdout);
    assert_eq!(
        [&v["oldest_time"], &v["oldest_time_utc"], &v["newest_time"], &v["newest_time_utc"]],
        [&json!(985950276), &json!("2001-03-30T11:04:36Z"), &json!(985950276), &json!("2001-03-30T11:04:36Z")]
    );
}

/// `check` ends with one line counting identical, differing and failed files; `--json` carries the counts.
#[test]
fn check_ends_with_a_summary() {
    let (stdout, stderr) = run(&["check", text(&samples().join("evil_islands"))], 0);
    assert_eq!(stdout.lines().count(), 19);
    assert_eq!(stderr, "check: 19 identical, 0 differs, 0 failed\n");
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(samples().join("evil_islands/intro.cam"), dir.path().join("intro.cam")).unwrap();
    std::fs::write(dir.path().join("broken.res"), b"\x3C\xE2\x9C\x01\x05\x00\x00\x00").unwrap();
    std::fs::write(dir.path().join("notes.txt"), b"hello").unwrap();
    let (_, stderr) = run(&["check", text(dir.path())], 1);
    assert_eq!(stderr.lines().last(), Some("check: 1 identical, 0 differs, 1 failed, 1 unknown"), "{stderr}");
    let (stdout, _) = run(&["check", "--json", text(dir.path())], 1);
    let v = parsed(&stdout);
    let counts = [&v["identical"], &v["differs"], &v["failed"], &v["read"], &v["unknown"]];
    assert_eq!(counts, [&json!(1), &json!(0), &json!(1), &json!(0), &json!(1)]);
    assert_eq!(v["files"].as_array().map(Vec::len), Some(3));
    // -q: only the failure.
    let (stdout, stderr) = run(&["check", "-q", text(dir.path())], 1);
    assert_eq!(stdout, "");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("relic: ") && stderr.contains("broken.res"), "{stderr}");
}
