//! The reliability contract, against the real `relic` binary: nothing escapes the output folder (links,
//! device names), nothing half-written survives a kill, terminal output cannot be hijacked by a name,
//! batches go on past bad entries and list exactly what they wrote, usage errors exit 2, and bombs fail
//! cleanly inside a small address space.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::handmade_res;
use crate::common::{relic, samples, stderr_of};

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| !e.file_type().is_dir())
        .map(|e| e.into_path())
        .collect();
    files.sort();
    files
}

#[cfg(unix)]
#[test]
fn a_symlink_in_the_output_folder_is_never_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let res = dir.path().join("a.res");
    std::fs::write(&res, handmade_res(&[(b"data\\x.txt", b"escaped"), (b"ok.txt", b"fine")])).unwrap();

    // extract: `out/data` is a link to another folder.
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), out.join("data")).unwrap();
    let assert = relic().args(["extract", "--force", "-o"]).arg(&out).arg(&res).assert().code(1);
    let stderr = stderr_of(&assert);
    assert!(stderr.contains("is a link") && stderr.contains("data\\x.txt"), "{stderr}");
    assert_eq!(std::fs::read(out.join("ok.txt")).unwrap(), b"fine");
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0, "nothing written through the link");

    // convert: the archive's own folder `conv/a.res` is the link.
    let conv = dir.path().join("conv");
    std::fs::create_dir(&conv).unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), conv.join("a.res")).unwrap();
    let assert = relic().args(["convert", "--force", "-o"]).arg(&conv).arg(&res).assert().code(1);
    assert!(stderr_of(&assert).contains("is a link"), "{}", stderr_of(&assert));
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);

    // pack: the output file itself is a link (even with --force it is not written through).
    let target = elsewhere.path().join("victim.res");
    std::fs::write(&target, b"keep").unwrap();
    let link = dir.path().join("packed.res");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("f.txt"), b"x").unwrap();
    let assert = relic().args(["pack", "ei-res", "--force", "-o"]).arg(&link).arg(&folder).assert().code(1);
    assert!(stderr_of(&assert).contains("link"), "{}", stderr_of(&assert));
    assert_eq!(std::fs::read(&target).unwrap(), b"keep");
}

#[test]
fn windows_device_names_are_refused_on_every_platform() {
    let dir = tempfile::tempdir().unwrap();
    let res = dir.path().join("devices.res");
    let entries: [(&[u8], &[u8]); 5] =
        [(b"CON", b"1"), (b"aux.txt", b"2"), (b"sub\\COM1.mmp", b"3"), (b"lpt9", b"4"), (b"ok.txt", b"fine")];
    std::fs::write(&res, handmade_res(&entries)).unwrap();
    let out = dir.path().join("out");
    let assert = relic().args(["extract", "--json", "-o"]).arg(&out).arg(&res).assert().code(1);
    let stderr = stderr_of(&assert);
    for name in ["CON", "aux.txt", "COM1.mmp", "lpt9"] {
        let line = stderr.lines().find(|l| l.contains(name)).unwrap_or_else(|| panic!("{name} not named: {stderr}"));
        assert!(line.contains("device name") && line.contains("devices.res"), "{line}");
    }
    let manifest: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    assert_eq!(manifest.as_array().unwrap().len(), 1, "{manifest}");
    assert_eq!(manifest[0]["entry"], "ok.txt");
    assert_eq!(files_under(&out), vec![out.join("ok.txt")]);
}

/// A RES of `count` entries of `size` bytes each, every one with its own content.
fn large_res(count: usize, size: usize) -> (Vec<u8>, Vec<(String, Vec<u8>)>) {
    let contents: Vec<(String, Vec<u8>)> = (0..count)
        .map(|i| {
            let bytes: Vec<u8> = (0..size).map(|j| ((j * 31 + i * 7) % 251) as u8).collect();
            (format!("part{i:02}.bin"), bytes)
        })
        .collect();
    let refs: Vec<(&[u8], &[u8])> = contents.iter().map(|(n, b)| (n.as_bytes(), b.as_slice())).collect();
    (handmade_res(&refs), contents)
}

/// Every file under `out` with a final name holds exactly its entry's bytes; returns how many there are
/// and how many temporary files remain.
fn check_extracted(out: &Path, contents: &[(String, Vec<u8>)]) -> (usize, usize) {
    let (mut finals, mut temps) = (0, 0);
    for path in files_under(out) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with(".relic-") && name.ends_with(".tmp") {
            temps += 1;
            continue;
        }
        let (_, expected) = contents.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("unexpected {name}"));
        assert!(std::fs::read(&path).unwrap() == *expected, "{name} holds other bytes than its entry");
        finals += 1;
    }
    (finals, temps)
}

/// `relic extract -q -o OUT ARCHIVE`, running in the background.
fn spawn_extract(archive: &Path, out: &Path) -> std::process::Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("relic"))
        .args(["extract", "-q", "-o"])
        .arg(out)
        .arg(archive)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

#[cfg(unix)]
#[test]
fn a_kill_at_any_moment_leaves_no_partial_file_under_a_final_name() {
    let dir = tempfile::tempdir().unwrap();
    let (bytes, contents) = large_res(48, 2 << 20);
    let res = dir.path().join("large.res");
    std::fs::write(&res, bytes).unwrap();
    let mut saw_partial_run = false;
    for (i, delay_ms) in [0u64, 5, 20, 50, 100, 200, 400].into_iter().enumerate() {
        let out = dir.path().join(format!("out{i}"));
        let mut child = spawn_extract(&res, &out);
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill(); // SIGKILL: no handler runs
        let _ = child.wait();
        let (finals, _temps) = if out.exists() { check_extracted(&out, &contents) } else { (0, 0) };
        saw_partial_run |= finals < contents.len();
    }
    assert!(saw_partial_run, "no kill landed before the extraction finished; the test proved nothing");
}

#[cfg(unix)]
#[test]
fn sigterm_and_sigint_remove_the_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    let (bytes, contents) = large_res(48, 2 << 20);
    let res = dir.path().join("large.res");
    std::fs::write(&res, bytes).unwrap();
    let mut interrupted = 0;
    for (i, (signal, delay_ms)) in
        [("TERM", 30u64), ("INT", 30), ("TERM", 80), ("INT", 150), ("TERM", 5)].into_iter().enumerate()
    {
        let out = dir.path().join(format!("out{i}"));
        let mut child = spawn_extract(&res, &out);
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = std::process::Command::new("kill").arg(format!("-{signal}")).arg(child.id().to_string()).status();
        let status = child.wait().unwrap();
        let (finals, temps) = if out.exists() { check_extracted(&out, &contents) } else { (0, 0) };
        assert_eq!(temps, 0, "SIG{signal} after {delay_ms} ms left temporary files");
        if status.code() == Some(130) {
            interrupted += 1;
            assert!(finals < contents.len() || finals == contents.len());
        }
    }
    assert!(interrupted > 0, "no signal landed during the extraction; the test proved nothing");
}

#[test]
fn names_printed_for_a_person_cannot_drive_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let res = dir.path().join("esc.res");
    let evil: &[u8] = b"\x1b[2J\x1b[Hfake.txt";
    std::fs::write(&res, handmade_res(&[(evil, b"x"), (b"plain.txt", b"y")])).unwrap();
    let out = relic().args(["ls"]).arg(&res).assert().success().get_output().stdout.clone();
    assert!(!out.contains(&0x1b), "raw ESC on stdout: {out:?}");
    assert!(String::from_utf8_lossy(&out).contains("\\u{1b}[2J\\u{1b}[Hfake.txt"));
    // JSON stays exact.
    let json: Value =
        serde_json::from_slice(&relic().args(["ls", "--json"]).arg(&res).assert().success().get_output().stdout)
            .unwrap();
    assert_eq!(json[0]["name"], "\u{1b}[2J\u{1b}[Hfake.txt");
    // Errors too: extracting refuses the name and says so without the raw bytes.
    let assert = relic().args(["extract", "-o"]).arg(dir.path().join("out")).arg(&res).assert().code(1);
    let stderr = &assert.get_output().stderr;
    assert!(!stderr.contains(&0x1b), "raw ESC on stderr: {}", String::from_utf8_lossy(stderr));
    assert!(String::from_utf8_lossy(stderr).contains("control character"));
}

#[test]
fn convert_goes_on_past_bad_entries_and_lists_exactly_what_it_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let good_mmp = std::fs::read(samples().join("evil_islands/example_argb4.mmp")).unwrap();
    let mut bad_mmp = good_mmp.clone();
    bad_mmp.truncate(40);
    let res = dir.path().join("mixed.res");
    let entries: [(&[u8], &[u8]); 5] = [
        (b"first.txt", b"one"),
        (b"broken.mmp", &bad_mmp),
        (b"..\\evil.txt", b"escape"),
        (b"tex\\good.mmp", &good_mmp),
        (b"last.txt", b"two"),
    ];
    std::fs::write(&res, handmade_res(&entries)).unwrap();
    let out = dir.path().join("out");
    let assert = relic().args(["convert", "--json", "-o"]).arg(&out).arg(&res).assert().code(1);
    let stderr = stderr_of(&assert);
    let failures: Vec<&str> = stderr.lines().filter(|l| l.starts_with("relic: ")).collect();
    assert_eq!(failures.len(), 2, "{stderr}");
    assert!(failures.iter().any(|l| l.contains("mixed.res/broken.mmp") && l.contains("ei-mmp")), "{stderr}");
    assert!(failures.iter().any(|l| l.contains("mixed.res") && l.contains("evil.txt") && l.contains("..")), "{stderr}");
    for line in &failures {
        assert_eq!(line.matches(&*res.display().to_string()).count(), 1, "path printed once: {line}");
    }
    let manifest: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    let mut listed: Vec<PathBuf> =
        manifest["outputs"].as_array().unwrap().iter().map(|i| PathBuf::from(i["output"].as_str().unwrap())).collect();
    // The manifest lists the failures too, input and message apart.
    let failed = manifest["failures"].as_array().unwrap();
    assert_eq!(failed.len(), 2, "{manifest}");
    assert!(
        failed.iter().any(|f| f["input"].as_str().unwrap().ends_with("mixed.res/broken.mmp")
            && f["message"].as_str().unwrap().contains("ei-mmp")),
        "{manifest}"
    );
    // With the record of the conversion (the texture's provenance), listed apart.
    listed.extend(manifest["records"].as_array().unwrap().iter().map(|r| PathBuf::from(r.as_str().unwrap())));
    assert_eq!(manifest["records"], serde_json::json!([out.join("mixed.res.relic.json").to_str().unwrap()]));
    listed.sort();
    assert_eq!(listed, files_under(&out), "the manifest lists exactly the files written");
    let root = out.join("mixed.res");
    assert!(listed.contains(&root.join("tex/good.mmp.png")));
    // The broken texture is kept as it is, so nothing is lost.
    assert_eq!(std::fs::read(root.join("broken.mmp")).unwrap(), bad_mmp);
    assert_eq!(listed.len(), 4 + 1, "with the record");
    // The human summary says the same.
    let assert = relic().args(["convert", "--force", "-o"]).arg(&out).arg(&res).assert().code(1);
    let stderr = stderr_of(&assert);
    // The errors first, then the summary, which counts them.
    assert!(stderr.trim_end().ends_with(&format!("wrote 4 files to {}, 2 failed", out.display())), "{stderr}");
}

#[test]
fn pack_ei_mob_takes_the_edited_script_beside_the_json() {
    let dir = tempfile::tempdir().unwrap();
    let level = samples().join("evil_islands/level.mob");
    relic().args(["convert", "-q", "-o"]).arg(dir.path()).arg(&level).assert().success();
    let json = dir.path().join("level.mob/level.mob.json");
    let txt = dir.path().join("level.mob/level.mob.txt");
    let original = std::fs::read_to_string(&txt).unwrap();
    // Unedited: the same bytes come back, and the script file is named.
    let same = dir.path().join("same.mob");
    let assert = relic().args(["pack", "ei-mob", "-o"]).arg(&same).arg(&json).assert().success();
    assert!(stderr_of(&assert).contains("level.mob.txt (unchanged)"), "{}", stderr_of(&assert));
    assert_eq!(std::fs::read(&same).unwrap(), std::fs::read(&level).unwrap());
    // Edited: the edit is what the new level holds.
    let edited = original.replacen("GlobalVars", "GlobalVars /* edited in relic's test */", 1);
    assert_ne!(edited, original);
    std::fs::write(&txt, &edited).unwrap();
    let new = dir.path().join("new.mob");
    let assert = relic().args(["pack", "ei-mob", "-o"]).arg(&new).arg(&json).assert().success();
    assert!(stderr_of(&assert).contains("level.mob.txt (edited)"), "{}", stderr_of(&assert));
    let back = dir.path().join("back");
    relic().args(["convert", "-q", "-o"]).arg(&back).arg(&new).assert().success();
    assert_eq!(std::fs::read_to_string(back.join("new.mob/new.mob.txt")).unwrap(), edited);
    // Without the .txt, the JSON's script is used, silently as before.
    std::fs::remove_file(&txt).unwrap();
    let plain = dir.path().join("plain.mob");
    let assert = relic().args(["pack", "ei-mob", "-o"]).arg(&plain).arg(&json).assert().success();
    assert!(!stderr_of(&assert).contains("script"), "{}", stderr_of(&assert));
    assert_eq!(std::fs::read(&plain).unwrap(), std::fs::read(&level).unwrap());
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let mmp = samples().join("evil_islands/example_argb4.mmp");
    let assert = relic().args(["convert", "--to", "xyz", "-o"]).arg(dir.path()).arg(&mmp).assert().code(2);
    assert!(stderr_of(&assert).contains("unknown --to target `xyz`"), "{}", stderr_of(&assert));
    let assert = relic().args(["convert", "--to", "wav", "-o"]).arg(dir.path()).arg(&mmp).assert().code(2);
    assert!(stderr_of(&assert).contains("converts to json, png, not wav"), "{}", stderr_of(&assert));
    let assert = relic().args(["pack", "ei-nope", "-o"]).arg(dir.path().join("x")).arg(&mmp).assert().code(2);
    assert!(stderr_of(&assert).contains("unknown format `ei-nope`"), "{}", stderr_of(&assert));
    relic().args(["ls", "--max-entry-size", "lots"]).arg(&mmp).assert().code(2);
    // Nothing was written by any of them.
    assert!(files_under(dir.path()).is_empty());
    // Targets a format does make are fine: `--to txt` of a MOB writes only its script.
    let level = samples().join("evil_islands/level.mob");
    relic().args(["convert", "-q", "--to", "txt", "-o"]).arg(dir.path()).arg(&level).assert().success();
    assert_eq!(files_under(dir.path()), vec![dir.path().join("level.mob.txt")]);
}

#[test]
fn every_error_names_the_input_file_once() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.res");
    std::fs::write(&junk, b"\x3C\xE2\x9C\x01\xFF\xFF\xFF\xFF").unwrap();
    let missing = dir.path().join("missing.res");
    for (args, path) in [(vec!["info"], &junk), (vec!["ls"], &junk), (vec!["info"], &missing), (vec!["ls"], &missing)] {
        let assert = relic().args(&args).arg(path).assert().code(1);
        let stderr = stderr_of(&assert);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert_eq!(stderr.matches(&*path.display().to_string()).count(), 1, "{stderr}");
    }
    let assert = relic().args(["extract", "-o"]).arg(dir.path().join("o")).arg(&junk).assert().code(1);
    assert!(stderr_of(&assert).contains("junk.res: ei-res"), "{}", stderr_of(&assert));
}

/// The bombs fail with relic's own error (exit 1) inside a 1 GiB address space: without the limits they
/// would need several GiB and die by allocation failure instead.
#[cfg(target_os = "linux")]
#[test]
fn bombs_fail_cleanly_inside_a_small_address_space() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("huge.png");
    std::fs::write(&png, relic::testing::png_header_only(20_000, 20_000)).unwrap();
    let stream = relic::testing::zeros_zlib(1 << 30);
    let table_bomb = dir.path().join("table.grf");
    std::fs::write(&table_bomb, relic::testing::grf_bytes(&[], &[], 4_000_000, Some((&stream, 1 << 30)))).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("relic");
    let run = |args: &str| {
        let script = format!("ulimit -v 1048576; exec '{}' {args}", bin.display());
        std::process::Command::new("sh").arg("-c").arg(script).output().unwrap()
    };
    let out = dir.path().join("huge.mmp");
    for (args, expect) in [
        (format!("pack ei-mmp -o '{}' '{}'", out.display(), png.display()), "--max-pixels"),
        (format!("info '{}'", table_bomb.display()), "table bomb"),
        (format!("ls '{}'", table_bomb.display()), "table bomb"),
        (format!("check '{}'", table_bomb.display()), "table bomb"),
    ] {
        let output = run(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args}: {stderr}");
        assert!(stderr.contains(expect), "{args}: {stderr}");
    }
}

#[test]
fn drakan_ls_shows_record_types_ids_and_groups() {
    let sdb = samples().join("drakan/Sample.sdb");
    let out = relic().args(["ls"]).arg(&sdb).assert().success().get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].contains("0x0301 sound_group") && lines[0].ends_with("0301_1_Ambience.bin"), "{text}");
    assert!(lines[2].contains("0x0302 sound") && lines[2].contains("    3  Ambience/0302_3_wind.bin"), "{text}");
    let json: Value =
        serde_json::from_slice(&relic().args(["ls", "--json"]).arg(&sdb).assert().success().get_output().stdout)
            .unwrap();
    assert_eq!(
        json[1]["record"],
        serde_json::json!({"type": "0x0302", "type_name": "sound", "id": 2, "group": "Ambience"})
    );
    // extract → pack gives the file back byte for byte.
    let dir = tempfile::tempdir().unwrap();
    relic().args(["extract", "-q", "-o"]).arg(dir.path().join("x")).arg(&sdb).assert().success();
    let back = dir.path().join("back.sdb");
    relic().args(["pack", "drakan-srsc", "-o"]).arg(&back).arg(dir.path().join("x")).assert().success();
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&sdb).unwrap());
}

#[test]
fn dark_reign_sprites_find_their_palette_or_say_they_are_grey() {
    let dir = tempfile::tempdir().unwrap();
    let spr = dir.path().join("unit.spr");
    std::fs::copy(samples().join("dark_reign/unit.spr"), &spr).unwrap();
    // Alone: greyscale, with a one-line warning.
    let assert = relic().args(["convert", "-o"]).arg(dir.path().join("grey")).arg(&spr).assert().success();
    let warnings: Vec<String> =
        stderr_of(&assert).lines().filter(|l| l.contains("warning:")).map(String::from).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("no palette found"), "{warnings:?}");
    // With the tileset's palette beside it: no warning, and other colours.
    std::fs::copy(samples().join("dark_reign/BARREN.PAL"), dir.path().join("BARREN.PAL")).unwrap();
    let assert = relic().args(["convert", "-o"]).arg(dir.path().join("pal")).arg(&spr).assert().success();
    assert!(!stderr_of(&assert).contains("warning:"), "{}", stderr_of(&assert));
    let grey = std::fs::read(dir.path().join("grey/unit.spr/0_0_0.png")).unwrap();
    let coloured = std::fs::read(dir.path().join("pal/unit.spr/0_0_0.png")).unwrap();
    assert_ne!(grey, coloured);
    // --palette takes other palette files too (JASC-PAL here) and wins.
    let jasc = dir.path().join("red.pal.txt");
    let mut text = String::from("JASC-PAL\r\n0100\r\n256\r\n");
    for _ in 0..256 {
        text.push_str("255 0 0\r\n");
    }
    std::fs::write(&jasc, text).unwrap();
    relic()
        .args(["convert", "--palette"])
        .arg(&jasc)
        .arg("-o")
        .arg(dir.path().join("red"))
        .arg(&spr)
        .assert()
        .success();
    assert_ne!(std::fs::read(dir.path().join("red/unit.spr/0_0_0.png")).unwrap(), coloured);
}

/// Two entries that map to one output (an archive holding `t.mmp`, converted to `t.mmp.png`, and a raw
/// `t.mmp.png`): the second is refused, even with `--force`, and the summary counts exactly what exists.
#[test]
fn two_inputs_mapped_to_one_output_never_replace_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let mmp = std::fs::read(samples().join("evil_islands/example_argb4.mmp")).unwrap();
    let res = dir.path().join("clash.res");
    std::fs::write(&res, handmade_res(&[(b"t.mmp", &mmp), (b"t.mmp.png", b"not a picture")])).unwrap();
    let out = dir.path().join("out");
    for force in [false, true] {
        let mut cmd = relic();
        cmd.args(["convert", "--json", "-o"]).arg(&out).arg(&res);
        if force {
            cmd.arg("--force");
        }
        let assert = cmd.assert().code(1);
        let manifest: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
        let outputs = manifest["outputs"].as_array().unwrap();
        let failures = manifest["failures"].as_array().unwrap();
        assert_eq!(failures.len(), 1, "{manifest}");
        assert!(failures[0]["message"].as_str().unwrap().contains("two inputs map to one output"), "{manifest}");
        let mut listed: Vec<PathBuf> = outputs.iter().map(|o| PathBuf::from(o["output"].as_str().unwrap())).collect();
        // The record of the conversion, when it wrote one, is listed apart.
        let records = manifest["records"].as_array().into_iter().flatten();
        listed.extend(records.map(|r| PathBuf::from(r.as_str().unwrap())));
        listed.sort();
        assert_eq!(listed, files_under(&out), "the manifest lists exactly what exists");
        // Whichever entry came first, the file is exactly that entry's output; the texture, when it came
        // second, is kept raw beside it so nothing is lost.
        let png = out.join("clash.res/t.mmp.png");
        let by = outputs.iter().find(|o| o["output"] == png.display().to_string()).unwrap();
        let written = std::fs::read(&png).unwrap();
        if by["kind"] == "raw" {
            assert_eq!(written, b"not a picture");
            assert_eq!(std::fs::read(out.join("clash.res/t.mmp")).unwrap(), mmp);
        } else {
            assert_eq!(by["kind"], "image");
            assert_eq!(&written[1..4], b"PNG");
            // The texture's PNG, and the record of its provenance.
            assert_eq!(listed, [png.clone(), out.join("clash.res.relic.json")]);
        }
        std::fs::remove_dir_all(&out).unwrap();
    }
}

/// A small document whose `file_size` claims 4 GiB is refused with the field named, and nothing is written:
/// the zeros a document implies are bounded by what it holds.
#[test]
fn a_document_that_claims_gigabytes_it_does_not_hold_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("evil_islands/example.res", "ei-res"),
        ("ragnarok/example.grf", "ro-grf"),
        ("evil_islands/settings.reg", "ei-reg"),
        ("drakan/Sample.txd", "drakan-srsc"),
    ];
    for (sample, id) in cases {
        let input = samples().join(sample);
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        let out = dir.path().join(id);
        relic().args(["convert", "-q", "--to", "json", "-o"]).arg(&out).arg(&input).assert().success();
        let json = out.join(format!("{name}.json"));
        let mut doc: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        // Unedited, it packs back as it was.
        let same = dir.path().join(format!("same-{name}"));
        relic().args(["pack", id, "-q", "-o"]).arg(&same).arg(&json).assert().success();
        assert_eq!(std::fs::read(&same).unwrap(), std::fs::read(&input).unwrap(), "{id}");
        doc["file_size"] = Value::from(u32::MAX);
        std::fs::write(&json, serde_json::to_vec(&doc).unwrap()).unwrap();
        let packed = dir.path().join(format!("big-{name}"));
        let assert = relic().args(["pack", id, "-o"]).arg(&packed).arg(&json).assert().code(1);
        let stderr = stderr_of(&assert);
        assert!(stderr.contains("file_size") && stderr.contains("would be zeros it does not hold"), "{id}: {stderr}");
        assert!(!packed.exists(), "{id}: nothing written");
    }
}

/// What an archive entry's conversion makes counts against `--max-expansion`, not only what the archive
/// stores: a DXT1 texture of noise makes a PNG about eight times its size.
#[test]
fn what_a_conversion_makes_is_charged_to_the_expansion_budget() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("noise.png");
    let mut state = 0x1234_5678u32;
    let pixels: Vec<u8> = (0..64 * 64 * 4)
        .map(|i| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            if i % 4 == 3 {
                255
            } else {
                (state >> 24) as u8
            }
        })
        .collect();
    let mut encoder = png::Encoder::new(std::fs::File::create(&png).unwrap(), 64, 64);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header().unwrap().write_image_data(&pixels).unwrap();
    let mmp = dir.path().join("noise.mmp");
    relic().args(["pack", "ei-mmp", "-q", "--pixel-format", "dxt1", "-o"]).arg(&mmp).arg(&png).assert().success();
    let res = dir.path().join("noise.res");
    std::fs::write(&res, handmade_res(&[(b"noise.mmp", &std::fs::read(&mmp).unwrap())])).unwrap();
    let size = std::fs::metadata(&res).unwrap().len();
    let tight = dir.path().join("tight");
    let assert = relic().args(["convert", "--max-expansion", "4", "-o"]).arg(&tight).arg(&res).assert().code(1);
    let stderr = stderr_of(&assert);
    assert!(stderr.contains(&format!("would expand {size} bytes to ")) && stderr.contains("more than 4×"), "{stderr}");
    // Refused, the entry is kept raw (nothing is lost), and nothing else is written.
    assert_eq!(files_under(&tight), vec![tight.join("noise.res/noise.mmp")]);
    // The default budget takes it.
    relic().args(["convert", "-q", "-o"]).arg(dir.path().join("fine")).arg(&res).assert().success();
}

/// Texture records of a `.txd` are charged to the file's expansion budget by the pixels they decode to
/// before each is decoded: 16 records of 1024² (a few kilobytes of zlib each) stop at the budget, each
/// refused one a failure of the file.
#[test]
fn drakan_textures_are_charged_by_the_pixels_they_make() {
    use relic::drakan::records::texture::{self, Texture, NO_COLOUR_KEY};
    use relic::drakan::srsc::{write_packed, NewRecord};
    let dir = tempfile::tempdir().unwrap();
    let stream = relic::codec::zlib::compress(&vec![0u8; 1024 * 1024 * 3], 9);
    let body = texture::write(&Texture {
        width: 1024,
        height: 1024,
        pitch: 1024 * 3,
        bits_per_pixel: 24,
        colour_key: NO_COLOUR_KEY,
        compression_level: 9,
        compressed_size: stream.len() as u32,
        data: relic::bytes::Base64(stream),
        ..Texture::default()
    });
    let records: Vec<NewRecord> =
        (1..=16).map(|id| NewRecord { record_type: 0x0040, id, group: 0, body: body.clone() }).collect();
    let txd = dir.path().join("Big.txd");
    std::fs::write(&txd, write_packed(0x0100, &records).unwrap()).unwrap();
    let size = std::fs::metadata(&txd).unwrap().len();
    // 100 × the file's size holds one texture's 4 MiB of RGBA, not two.
    assert!(size * 100 >= 4 << 20 && size * 100 < 8 << 20, "{size}");
    let out = dir.path().join("out");
    let assert =
        relic().args(["convert", "--max-expansion", "100", "--json", "-o"]).arg(&out).arg(&txd).assert().code(1);
    let manifest: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    let failures = manifest["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 15, "{manifest}");
    assert!(
        failures.iter().all(|f| f["message"].as_str().unwrap().contains("not decoded")
            && f["message"].as_str().unwrap().contains("more than 100×")),
        "{manifest}"
    );
    let pngs = manifest["outputs"].as_array().unwrap().iter().filter(|o| o["kind"] == "image").count();
    assert_eq!(pngs, 1, "{manifest}");
}

/// FTG entries that share one body are converted once and the others take its files under their own
/// names: the outputs are exactly those of an archive holding a copy for each entry.
#[test]
fn entries_sharing_one_body_convert_once_to_what_copies_would_give() {
    let dir = tempfile::tempdir().unwrap();
    let sprite = std::fs::read(samples().join("dark_reign/unit.spr")).unwrap();
    let names = ["A.SPR", "B.SPR", "C.SPR", "D.SPR"];
    // BOTG, directory offset, count; the data; 36-byte directory entries (28-byte name, offset, size).
    let ftg = |shared: bool| {
        let copies = if shared { 1 } else { names.len() };
        let mut out = b"BOTG".to_vec();
        out.extend(((12 + sprite.len() * copies) as u32).to_le_bytes());
        out.extend((names.len() as u32).to_le_bytes());
        for _ in 0..copies {
            out.extend(&sprite);
        }
        for (i, name) in names.iter().enumerate() {
            let mut field = name.as_bytes().to_vec();
            field.resize(28, 0);
            out.extend(field);
            let at = 12 + if shared { 0 } else { i * sprite.len() };
            out.extend((at as u32).to_le_bytes());
            out.extend((sprite.len() as u32).to_le_bytes());
        }
        out
    };
    let tree = |root: &Path| -> Vec<(PathBuf, Vec<u8>)> {
        files_under(root)
            .into_iter()
            .map(|p| (p.strip_prefix(root).unwrap().to_path_buf(), std::fs::read(&p).unwrap()))
            .collect()
    };
    let mut trees = Vec::new();
    for shared in [true, false] {
        let path = dir.path().join(format!("{shared}.ftg"));
        std::fs::write(&path, ftg(shared)).unwrap();
        let out = dir.path().join(format!("out-{shared}"));
        let assert = relic().args(["convert", "-o"]).arg(&out).arg(&path).assert().success();
        assert_eq!(
            stderr_of(&assert).contains("have the very data of an earlier entry"),
            shared,
            "{}",
            stderr_of(&assert)
        );
        trees.push(tree(&out.join(format!("{shared}.ftg"))));
    }
    assert_eq!(trees[0].len(), 4 * 14, "{:?}", trees[0].iter().map(|t| &t.0).collect::<Vec<_>>());
    assert!(trees[0].iter().any(|(p, _)| p == Path::new("D.SPR/D.SPR.json")));
    assert!(trees[0] == trees[1], "shared and copied bodies give the same files");
}

/// Drakan models are charged to their file's expansion budget by what their scenes hold, as they are
/// built: past it, the rest are not built and the warning says so.
#[test]
fn drakan_models_are_charged_by_what_their_scenes_hold() {
    use relic::drakan::srsc::{write_packed, NewRecord};
    let le16 = |v: u16| v.to_le_bytes().to_vec();
    let f32s = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    // A cube: 8 vertices, 6 quads (flags, 4 corners, texture 0; each corner a vertex and its UV).
    let mut vertices = le16(8);
    for i in 0..8u32 {
        vertices.extend(f32s(&[(i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2 & 1) as f32]));
    }
    let quads = [[0u16, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
    let mut polygons = le16(6);
    for quad in quads {
        polygons.extend([le16(0), le16(4), le16(0)].concat());
        for v in quad {
            polygons.extend(le16(v));
            polygons.extend(f32s(&[0.0, 0.0]));
        }
    }
    let mut records = Vec::new();
    for id in 1..=10u16 {
        let name = format!("Cube{id:02}");
        let mut named = le16(name.len() as u16);
        named.extend(name.as_bytes());
        named.extend(0x8001u32.to_le_bytes());
        records.push(NewRecord { record_type: 0x0200, id, group: 0, body: named });
        records.push(NewRecord { record_type: 0x0203, id, group: 0, body: vertices.clone() });
        records.push(NewRecord { record_type: 0x0204, id, group: 0, body: polygons.clone() });
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("Cubes.mod");
    std::fs::write(&file, write_packed(0x0100, &records).unwrap()).unwrap();
    let glbs = |out: &Path| files_under(out).iter().filter(|p| p.to_string_lossy().ends_with(".view.glb")).count();
    let out = dir.path().join("all");
    relic().args(["convert", "-q", "-o"]).arg(&out).arg(&file).assert().success();
    assert_eq!(glbs(&out), 10);
    let tight = dir.path().join("tight");
    let assert = relic().args(["convert", "--max-expansion", "1", "-o"]).arg(&tight).arg(&file).assert().success();
    let stderr = stderr_of(&assert);
    let built = glbs(&tight);
    assert!((1..10).contains(&built), "{built} built: {stderr}");
    assert!(stderr.contains("not built: the file's models already made more than 1×"), "{stderr}");
}
