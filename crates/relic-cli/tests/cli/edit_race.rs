//! `relic edit` racing itself, killed while it writes, and the mode it leaves (issue 40), against the real
//! binary: two edits of one archive at once both land (the second waits for the first's lock), readers wait
//! for an edit, a kill -9 leaves no temporary file (or the next edit removes it and says so), and a private
//! archive stays private.

#![cfg(unix)]

use std::collections::BTreeMap;
use std::io::BufRead;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};

use crate::common::{relic, relic_process};

/// The archive's entries as `name → bytes` (SRSC: by path), read by relic's library, or `None`.
fn read_entries(path: &Path) -> Option<BTreeMap<String, Vec<u8>>> {
    let data = std::fs::read(path).ok()?;
    let (format, _) = relic::registry::sniff(&data, &path.to_string_lossy())?;
    let list = format.codec.entries(&data, &path.to_string_lossy())?.ok()?;
    list.iter()
        .map(|e| {
            let name = if e.record.is_some() { e.path.to_string() } else { e.name.to_string() };
            Some((name, e.data.bytes().ok()?.into_owned()))
        })
        .collect()
}

fn entries(path: &Path) -> BTreeMap<String, Vec<u8>> {
    read_entries(path).unwrap_or_else(|| panic!("{} does not read", path.display()))
}

/// The archive holds exactly `expected` (names and bytes); a failure names the entries missing, extra or
/// different rather than printing their bytes.
fn assert_holds(archive: &Path, expected: &BTreeMap<String, Vec<u8>>, context: &str) {
    let actual = entries(archive);
    let missing: Vec<&String> = expected.keys().filter(|k| !actual.contains_key(*k)).collect();
    let extra: Vec<&String> = actual.keys().filter(|k| !expected.contains_key(*k)).collect();
    let different: Vec<&String> =
        expected.iter().filter(|(k, v)| actual.get(*k).is_some_and(|a| a != *v)).map(|(k, _)| k).collect();
    assert!(
        missing.is_empty() && extra.is_empty() && different.is_empty(),
        "{context}: missing {missing:?}, extra {extra:?}, different bytes {different:?}"
    );
}

fn noise(n: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2_654_435_761).max(1);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}

/// A GRF 0x200 of `pairs`, by relic's writer.
fn grf_of(pairs: &[(&str, Vec<u8>)]) -> Vec<u8> {
    use relic::ragnarok::grf;
    let inputs = pairs
        .iter()
        .map(|(n, b)| grf::PackInput {
            name: grf::write::encode_name(n).unwrap(),
            source: grf::PackSource::Bytes(b.clone()),
        })
        .collect();
    grf::write_archive_bytes(inputs, 0x200).unwrap()
}

fn ftg_of(pairs: &[(&str, Vec<u8>)]) -> Vec<u8> {
    use relic::dark_reign::ftg;
    ftg::write_new(
        &pairs.iter().map(|(n, b)| ftg::NewEntry { name: n.to_string(), data: b.clone() }).collect::<Vec<_>>(),
    )
    .unwrap()
}

fn srsc_of(pairs: &[(u16, u16, Vec<u8>)]) -> Vec<u8> {
    use relic::drakan::srsc;
    let records: Vec<srsc::NewRecord> = pairs
        .iter()
        .map(|(t, id, b)| srsc::NewRecord { record_type: *t, id: *id, group: 0, body: b.clone() })
        .collect();
    srsc::write_packed(srsc::types::VERSION_DRAKAN, &records).unwrap()
}

/// Names of `.relic-*` files in `dir`, sorted.
fn leftovers(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".relic-"))
        .collect();
    names.sort();
    names
}

fn stderr_text(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `relic ls` and `relic extract` of the archive both exit 0, and what extract writes is `expected`
/// (names with `\` become folders).
fn lists_and_extracts(archive: &Path, expected: &BTreeMap<String, Vec<u8>>, scratch: &Path) {
    relic().arg("ls").arg(archive).assert().code(0);
    let out = scratch.join("out");
    let _ = std::fs::remove_dir_all(&out);
    relic().arg("extract").arg(archive).arg("-o").arg(&out).assert().code(0);
    for (name, bytes) in expected {
        let path = out.join(name.replace('\\', "/"));
        assert_eq!(&std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())), bytes, "{name}");
    }
}

/// Two edits of one GRF and of one RES started at once, 20 rounds each: both exit 0 every time (one waits
/// for the other's lock) and every acknowledged entry is in the archive, which lists and extracts. Before
/// the lock, one of the two entries was lost whenever they overlapped.
#[test]
fn two_edits_at_once_both_land() {
    for format in ["grf", "res"] {
        let dir = tempfile::tempdir().unwrap();
        let archive = dir.path().join(format!("race.{format}"));
        let mut expected: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        let first = ("data\\first.bin".to_string(), noise(700, 9));
        expected.insert(first.0.clone(), first.1.clone());
        match format {
            "grf" => std::fs::write(&archive, grf_of(&[(&first.0, first.1.clone())])).unwrap(),
            _ => std::fs::write(&archive, crate::common::handmade_res(&[(first.0.as_bytes(), &first.1)])).unwrap(),
        }
        let mut waited = 0;
        for round in 0..20u32 {
            let mut children: Vec<(String, Vec<u8>, Child)> = Vec::new();
            for side in ["a", "b"] {
                let name = format!("data\\{side}{round:02}.bin");
                let bytes = noise(3000 + round as usize, round * 2 + u32::from(side == "b"));
                let file = dir.path().join(format!("{side}{round}"));
                std::fs::write(&file, &bytes).unwrap();
                let child = relic_process()
                    .arg("edit")
                    .arg(&archive)
                    .arg("--add")
                    .arg(format!("{}={name}", file.display()))
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap();
                children.push((name, bytes, child));
            }
            for (name, bytes, child) in children {
                let out = child.wait_with_output().unwrap();
                let stderr = stderr_text(&out);
                assert_eq!(out.status.code(), Some(0), "{format} round {round} {name}: {stderr}");
                waited += usize::from(stderr.contains("relic: waiting for another relic edit or reader of"));
                expected.insert(name, bytes);
            }
            assert_holds(&archive, &expected, &format!("{format} round {round}"));
        }
        lists_and_extracts(&archive, &expected, dir.path());
        eprintln!("{format}: {waited} of 20 rounds had one edit wait for the other");
        assert!(leftovers(dir.path()).is_empty(), "{format}: {:?}", leftovers(dir.path()));
    }
}

/// An edit paused while it holds the lock (after its data is written) and a second edit started meanwhile:
/// the second says it waits, naming the first's process, and both land; a GRF `--add-folder` racing a
/// second edit (20 rounds) never loses or corrupts an entry of either.
#[test]
fn a_second_edit_waits_for_the_first_and_an_add_folder_race_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("data.grf");
    let mut expected: BTreeMap<String, Vec<u8>> = [("data\\old.bin".to_string(), noise(5000, 1))].into_iter().collect();
    std::fs::write(&archive, grf_of(&[("data\\old.bin", noise(5000, 1))])).unwrap();
    let one = dir.path().join("one");
    std::fs::write(&one, noise(4000, 2)).unwrap();
    let mut first = relic_process()
        .arg("edit")
        .arg(&archive)
        .arg("--add")
        .arg(format!("{}=data\\one.bin", one.display()))
        .env("RELIC_EDIT_PAUSE_AT", "after-data:1500")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first_err = std::io::BufReader::new(first.stderr.take().unwrap());
    let mut line = String::new();
    first_err.read_line(&mut line).unwrap();
    assert_eq!(line, "relic: paused at after-data\n");
    let two = dir.path().join("two");
    std::fs::write(&two, noise(4000, 3)).unwrap();
    let second =
        relic().arg("edit").arg(&archive).arg("--add").arg(format!("{}=data\\two.bin", two.display())).output();
    let second = second.unwrap();
    assert!(first.wait().unwrap().success());
    let stderr = stderr_text(&second);
    assert_eq!(second.status.code(), Some(0), "{stderr}");
    assert_eq!(
        stderr.lines().next().unwrap(),
        format!(
            "relic: waiting for another relic edit or reader of {} (process {}) to finish (up to 60 s)…",
            archive.display(),
            first.id()
        )
    );
    expected.insert("data\\one.bin".into(), noise(4000, 2));
    expected.insert("data\\two.bin".into(), noise(4000, 3));
    assert_holds(&archive, &expected, "one and two");

    // --add-folder (20 compressible files) against a second edit, 20 rounds.
    for round in 0..20u32 {
        let folder = dir.path().join(format!("folder{round}"));
        std::fs::create_dir_all(&folder).unwrap();
        let mut folder_entries = BTreeMap::new();
        for k in 0..20u32 {
            let bytes: Vec<u8> = format!("round {round} file {k} ")
                .repeat(200 + k as usize)
                .into_bytes()
                .into_iter()
                .chain(noise(300, k))
                .collect();
            std::fs::write(folder.join(format!("f{k:02}.txt")), &bytes).unwrap();
            folder_entries.insert(format!("r{round:02}\\f{k:02}.txt"), bytes);
        }
        let single = dir.path().join(format!("single{round}"));
        let single_bytes = noise(2500, 100 + round);
        std::fs::write(&single, &single_bytes).unwrap();
        let spawn = |args: Vec<String>| {
            relic_process().args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
        };
        let folder_edit = spawn(vec![
            "edit".into(),
            archive.display().to_string(),
            "--add-folder".into(),
            format!("{}=r{round:02}", folder.display()),
        ]);
        let single_edit = spawn(vec![
            "edit".into(),
            archive.display().to_string(),
            "--add".into(),
            format!("{}=data\\single{round:02}.bin", single.display()),
        ]);
        let folder_out = folder_edit.wait_with_output().unwrap();
        let single_out = single_edit.wait_with_output().unwrap();
        assert_eq!(folder_out.status.code(), Some(0), "round {round}: {}", stderr_text(&folder_out));
        assert_eq!(single_out.status.code(), Some(0), "round {round}: {}", stderr_text(&single_out));
        expected.extend(folder_entries);
        expected.insert(format!("data\\single{round:02}.bin"), single_bytes);
        // Every entry inflates to its bytes (the lost edits of before left corrupt deflate streams).
        assert_holds(&archive, &expected, &format!("round {round}"));
    }
    lists_and_extracts(&archive, &expected, dir.path());
}

/// An edit holding the lock (paused just after taking it): a second edit with `--wait 1` says it waits,
/// naming the first's process, then refuses with exit 1 and the archive untouched; `--wait 0` refuses at
/// once; `ls`, `extract` and a dry run wait for the first edit and then read the archive it wrote.
#[test]
fn a_held_archive_makes_an_edit_refuse_after_its_wait_and_readers_wait() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("held.res");
    let original = crate::common::handmade_res(&[(b"a.txt", b"alpha"), (b"b.txt", b"beta")]);
    std::fs::write(&archive, &original).unwrap();
    let c = dir.path().join("c.txt");
    std::fs::write(&c, b"gamma").unwrap();
    let d = dir.path().join("d.txt");
    std::fs::write(&d, b"delta").unwrap();
    let mut holder = relic_process()
        .arg("edit")
        .arg(&archive)
        .arg("--add")
        .arg(&c)
        .env("RELIC_EDIT_PAUSE_AT", "locked:4000")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut holder_err = std::io::BufReader::new(holder.stderr.take().unwrap());
    let mut line = String::new();
    holder_err.read_line(&mut line).unwrap();
    assert_eq!(line, "relic: paused at locked\n");
    let pid = holder.id();
    let shown = archive.display();

    let out = relic().arg("edit").arg(&archive).arg("--add").arg(&d).args(["--wait", "1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr_text(&out),
        format!(
            "relic: waiting for another relic edit or reader of {shown} (process {pid}) to finish (up to 1 s)…\n\
             relic: {shown} is in use by another relic edit or reader (process {pid}); waited 1 s, nothing was \
             done: try again when it has finished, or give --wait SECONDS\n"
        )
    );
    assert_eq!(std::fs::read(&archive).unwrap(), original);
    let out = relic().arg("edit").arg(&archive).arg("--add").arg(&d).args(["--wait", "0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr_text(&out).lines().count(), 1, "{}", stderr_text(&out));

    // Readers wait while the edit holds the archive, then read what it wrote.
    let extracted = dir.path().join("out");
    let readers: Vec<Child> = [
        vec!["ls".to_string(), shown.to_string()],
        vec!["extract".into(), shown.to_string(), "-o".into(), extracted.display().to_string()],
        vec!["edit".into(), shown.to_string(), "--dry-run".into(), "--delete".into(), "a.txt".into()],
    ]
    .into_iter()
    .map(|args| relic_process().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap())
    .collect();
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(!extracted.exists(), "extract did not wait for the edit");
    assert!(holder.wait().unwrap().success());
    for reader in readers {
        let out = reader.wait_with_output().unwrap();
        let stderr = stderr_text(&out);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert_eq!(
            stderr.lines().next().unwrap(),
            format!("relic: waiting for an edit of {shown} (process {pid}) to finish (up to 60 s)…")
        );
    }
    assert_eq!(std::fs::read(extracted.join("a.txt")).unwrap(), b"alpha");
    assert_eq!(std::fs::read(extracted.join("b.txt")).unwrap(), b"beta");
    assert_eq!(std::fs::read(extracted.join("c.txt")).unwrap(), b"gamma");
    // Released: the second edit goes through.
    relic().arg("edit").arg(&archive).arg("--add").arg(&d).assert().code(0);
    let expected: BTreeMap<String, Vec<u8>> =
        [("a.txt", &b"alpha"[..]), ("b.txt", b"beta"), ("c.txt", b"gamma"), ("d.txt", b"delta")]
            .into_iter()
            .map(|(n, b)| (n.to_string(), b.to_vec()))
            .collect();
    assert_holds(&archive, &expected, "after the wait");
    // A reader through a link locks the file the link names (and lists it).
    let link = dir.path().join("link.res");
    std::os::unix::fs::symlink(&archive, &link).unwrap();
    let listed = relic().arg("ls").arg(&link).output().unwrap();
    assert_eq!(listed.status.code(), Some(0), "{}", stderr_text(&listed));
    let names: Vec<String> = String::from_utf8_lossy(&listed.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().last().map(str::to_string))
        .collect();
    assert_eq!(names.iter().filter(|n| n.ends_with(".txt")).count(), 4, "{names:?}");
}

/// An archive of each rewritten kind and the edit arguments that rewrite it (RES, FTG, SRSC add an entry;
/// GRF is repacked after a delete left dead space).
fn rewritten_cases(dir: &Path) -> Vec<(&'static str, PathBuf, Vec<String>)> {
    let big = || noise(2 << 20, 7);
    let add = dir.join("added.bin");
    std::fs::write(&add, noise(1 << 20, 8)).unwrap();
    let mut cases = Vec::new();
    let res = dir.join("a.res");
    std::fs::write(&res, crate::common::handmade_res(&[(b"big.bin", &big()), (b"small.txt", b"small")])).unwrap();
    cases.push(("res", res, format!("{}=new.bin", add.display())));
    let ftg = dir.join("a.ftg");
    std::fs::write(&ftg, ftg_of(&[("BIG.SPR", big()), ("SMALL.PAL", b"small".to_vec())])).unwrap();
    cases.push(("ftg", ftg, format!("{}=NEW.SPR", add.display())));
    let srsc = dir.join("a.rrc");
    std::fs::write(&srsc, srsc_of(&[(0x7001, 1, big()), (0x7001, 2, b"small".to_vec())])).unwrap();
    cases.push(("srsc", srsc, format!("{}=7001_3.bin", add.display())));
    let grf = dir.join("a.grf");
    std::fs::write(&grf, grf_of(&[("data\\big.bin", big()), ("data\\gone.bin", noise(1 << 20, 9))])).unwrap();
    relic().arg("edit").arg(&grf).args(["--delete", "data\\gone.bin"]).assert().code(0);
    cases.push(("grf --repack", grf, String::new()));
    cases
        .into_iter()
        .map(|(what, path, add)| {
            let mut args = vec!["edit".to_string(), path.display().to_string()];
            if add.is_empty() {
                args.push("--repack".into());
            } else {
                args.extend(["--add".to_string(), add]);
            }
            (what, path, args)
        })
        .collect()
}

/// Starts an edit that stops at `after-data` (its new archive partly written) and kills it there with
/// SIGKILL; returns its process id.
fn kill_mid_write(args: &[String], unnamed_files: bool) -> u32 {
    let mut command = relic_process();
    command.args(args).env("RELIC_EDIT_PAUSE_AT", "after-data").stdout(Stdio::null()).stderr(Stdio::piped());
    if !unnamed_files {
        command.env("RELIC_TEST_NO_UNNAMED_FILES", "1");
    }
    let mut child = command.spawn().unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert_eq!(line, "relic: paused at after-data\n", "{args:?}");
    child.kill().unwrap(); // SIGKILL: no handler runs
    assert!(!child.wait().unwrap().success());
    child.id()
}

/// kill -9 in the middle of writing a RES, FTG, SRSC or a GRF `--repack`: the new archive was an unnamed
/// file (Linux), so nothing is left beside the archive, which is the old one byte for byte.
#[cfg(target_os = "linux")]
#[test]
fn a_kill_mid_write_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    for (what, archive, args) in rewritten_cases(dir.path()) {
        let before = std::fs::read(&archive).unwrap();
        kill_mid_write(&args, true);
        assert_eq!(leftovers(dir.path()), Vec::<String>::new(), "{what}");
        assert_eq!(std::fs::read(&archive).unwrap(), before, "{what}");
        // The next edit finds nothing to clean up.
        let out = relic().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{what}: {}", stderr_text(&out));
        assert!(!stderr_text(&out).contains("removed"), "{what}: {}", stderr_text(&out));
    }
}

/// Where the new archive has to be a named temporary file (no unnamed files: other systems, some file
/// systems), a kill -9 leaves `.relic-<pid>-….tmp`; the next edit of an archive in that folder removes it
/// and says so, and leaves alone the temporary files of a process still running and those of older relics
/// (whose process it cannot tell).
#[test]
fn the_next_edit_removes_the_temporary_file_a_killed_edit_left_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mine = format!(".relic-{}-live.tmp", std::process::id());
    std::fs::write(dir.path().join(&mine), b"a running process's").unwrap();
    std::fs::write(dir.path().join(".relic-Ab12Cd.tmp"), b"an older relic's").unwrap();
    for (what, archive, args) in rewritten_cases(dir.path()) {
        let before = std::fs::read(&archive).unwrap();
        let pid = kill_mid_write(&args, false);
        let left: Vec<String> =
            leftovers(dir.path()).into_iter().filter(|n| n.starts_with(&format!(".relic-{pid}-"))).collect();
        assert_eq!(left.len(), 1, "{what}: {:?}", leftovers(dir.path()));
        assert_eq!(std::fs::read(&archive).unwrap(), before, "{what}");
        let out = relic().args(&args).output().unwrap();
        let stderr = stderr_text(&out);
        assert_eq!(out.status.code(), Some(0), "{what}: {stderr}");
        let note = format!(
            "note: removed 1 temporary file an earlier relic edit left in {} when it was killed: {}",
            dir.path().display(),
            left[0]
        );
        assert_eq!(stderr.lines().filter(|l| *l == note).count(), 1, "{what}: {stderr}");
        let mut kept = vec![".relic-Ab12Cd.tmp".to_string(), mine.clone()];
        kept.sort();
        assert_eq!(leftovers(dir.path()), kept, "{what}");
    }
}

/// A private (0600) archive stays 0600 after an edit that rewrites it (RES, FTG, SRSC, GRF `--repack`),
/// and one of mode 0640 stays 0640; run as root, another user's archive keeps its owner and group.
#[test]
fn a_rewritten_archive_keeps_its_mode_and_owner() {
    use std::os::unix::fs::MetadataExt;
    for mode in [0o600, 0o640] {
        let dir = tempfile::tempdir().unwrap();
        for (what, archive, args) in rewritten_cases(dir.path()) {
            std::fs::set_permissions(&archive, std::fs::Permissions::from_mode(mode)).unwrap();
            let owned_by_another = std::os::unix::fs::chown(&archive, Some(4321), Some(4322)).is_ok();
            let before = std::fs::metadata(&archive).unwrap();
            let out = relic().args(&args).output().unwrap();
            assert_eq!(out.status.code(), Some(0), "{what}: {}", stderr_text(&out));
            let after = std::fs::metadata(&archive).unwrap();
            assert_ne!(after.ino(), before.ino(), "{what}: not rewritten");
            assert_eq!(after.permissions().mode() & 0o7777, mode, "{what}");
            if owned_by_another {
                assert_eq!((after.uid(), after.gid()), (4321, 4322), "{what}");
            } else {
                eprintln!("skipped the owner check: not root, cannot give the archive to another user");
            }
        }
    }
}
