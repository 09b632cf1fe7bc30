//! The CLI contract: output shapes, exit codes, safety of extraction, and the pack/convert round trips,
//! run against the real `relic` binary.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

use crate::common::handmade_res;
use crate::common::relic;

fn sample() -> PathBuf {
    crate::common::samples().join("evil_islands/example.res")
}

fn json_of(cmd: &mut Command) -> Value {
    let out = cmd.assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out)))
}

#[test]
fn formats_lists_the_registry() {
    let v = json_of(relic().args(["formats", "--json"]));
    let res = v.as_array().unwrap().iter().find(|f| f["id"] == "ei-res").expect("ei-res listed");
    assert_eq!(res["capabilities"], serde_json::json!({"read": true, "convert": true, "write": true}));
    assert_eq!(res["kind"], "archive");
    assert!(res["extensions"].as_array().unwrap().contains(&Value::from("res")));
    let text = relic().arg("formats").assert().success().get_output().stdout.clone();
    assert!(String::from_utf8(text).unwrap().contains("ei-res"));
}

#[test]
fn identify_reports_format_or_null() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("notes.txt");
    std::fs::write(&other, "hello").unwrap();
    let v = json_of(relic().args(["identify", "--json"]).arg(sample()).arg(&other));
    assert_eq!(v[0]["path"], sample().display().to_string());
    assert_eq!(v[0]["format"], "ei-res");
    assert_eq!(v[1]["format"], Value::Null);
    relic().args(["identify", "missing.res"]).assert().code(1);
}

#[test]
fn info_summarises_the_header() {
    let v = json_of(relic().args(["info", "--json"]).arg(sample()));
    assert_eq!(v["format"], "ei-res");
    assert_eq!(v["entries"], 5);
    assert_eq!(v["unreachable_by_hash"], 0);
    assert_eq!(v["distinct_data_ranges"], 4);
}

#[test]
fn ls_lists_names_paths_and_sizes_recursively() {
    let v = json_of(relic().args(["ls", "--json", "--recursive"]).arg(sample()));
    let rows: Vec<(String, String, u64)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap().into(), e["path"].as_str().unwrap().into(), e["size"].as_u64().unwrap()))
        .collect();
    assert!(rows.contains(&("texts\\quest q1".into(), "texts/quest q1".into(), 21)), "{rows:?}");
    assert!(rows.contains(&("тексты\\привет.txt".into(), "тексты/привет.txt".into(), 16)));
    // Nested: names joined with "/", extensionless .bon entries inherit the extension in the path.
    assert!(rows.contains(&("unit.bon/head".into(), "unit.bon/head.bon".into(), 96)), "{rows:?}");
    assert_eq!(rows.len(), 7);
    let flat = json_of(relic().args(["ls", "--json"]).arg(sample()));
    assert_eq!(flat.as_array().unwrap().len(), 5);
}

#[test]
fn extract_keeps_folders_times_and_refuses_to_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    relic().args(["extract", "-q", "-o"]).arg(&out).arg(sample()).assert().success().stderr("");
    let q1 = out.join("texts/quest q1");
    assert_eq!(std::fs::read(&q1).unwrap(), b"Find the lost soul.\r\n");
    let modified = std::fs::metadata(&q1).unwrap().modified().unwrap();
    assert_eq!(modified.duration_since(std::time::UNIX_EPOCH).unwrap().as_secs(), 985_950_276);
    assert_eq!(std::fs::read(out.join("тексты/привет.txt")).unwrap().len(), 16);
    // Again without --force: refused once, up front, naming the first file and the count; exit 1, files
    // unchanged.
    std::fs::write(&q1, "edited").unwrap();
    let assert = relic().args(["extract", "-o"]).arg(&out).arg(sample()).assert().code(1);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let first = out.join("readme.txt");
    assert!(
        stderr.contains(&format!(
            "already holds 5 of the 5 files this extraction writes (the first: {})",
            first.display()
        )) && stderr.contains("--skip-existing"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&q1).unwrap(), b"edited");
    // --skip-existing keeps what is there and writes what is missing.
    std::fs::remove_file(&first).unwrap();
    let assert = relic().args(["extract", "--skip-existing", "-o"]).arg(&out).arg(sample()).assert().success();
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(
        stderr.trim_end(),
        format!("extracted 1 file (40 bytes) to {}, kept 4 files already there", out.display())
    );
    assert_eq!(std::fs::read(&q1).unwrap(), b"edited");
    assert!(first.is_file());
    relic().args(["extract", "-q", "--force", "--skip-existing", "-o"]).arg(&out).arg(sample()).assert().code(2);
    relic().args(["extract", "-q", "--force", "-o"]).arg(&out).arg(sample()).assert().success();
    assert_eq!(std::fs::read(&q1).unwrap(), b"Find the lost soul.\r\n");
}

#[test]
fn extract_recursive_and_globs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    relic().args(["extract", "-q", "-r", "-o"]).arg(&out).arg(sample()).arg("*.bon").assert().success();
    let mut found: Vec<String> = walkdir::WalkDir::new(&out)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().strip_prefix(&out).unwrap().to_string_lossy().replace('\\', "/"))
        .collect();
    found.sort();
    assert_eq!(found, vec!["unit.bon/body.bon", "unit.bon/head.bon"]);
    let head = std::fs::read(out.join("unit.bon/head.bon")).unwrap();
    assert_eq!(head.len(), 96);
    assert_eq!(&head[4..8], &0.25f32.to_le_bytes());
}

/// `extract --recursive` → the system's litter added → `pack`: the nested bone set goes back as the RES it
/// was, the litter is left out with one note, and the archive is the original byte for byte. Without the
/// folder's note the nested files pack as plain entries, as asked.
#[test]
fn a_recursive_extraction_packs_back_with_its_nested_archives_and_without_litter() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    relic().args(["extract", "-q", "-r", "-o"]).arg(&out).arg(sample()).assert().success();
    let marker: Value =
        serde_json::from_slice(&std::fs::read(out.join("unit.bon/.relic-archive.json")).unwrap()).unwrap();
    assert_eq!((marker["format"].as_str(), marker["modified"].as_u64()), (Some("ei-res"), Some(985_950_276)));
    for litter in [".DS_Store", "Thumbs.db", "texts/desktop.ini", "readme.txt~", "unit.bon/._head.bon"] {
        std::fs::write(out.join(litter), b"litter").unwrap();
    }
    let back = dir.path().join("back.res");
    let assert = relic().args(["pack", "ei-res", "-o"]).arg(&back).arg(&out).assert().success();
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("packed the folder unit.bon/ back as the ei-res archive `unit.bon`"), "{stderr}");
    assert!(stderr.contains("left out 5 files the system made"), "{stderr}");
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(sample()).unwrap());
    // An edit inside the nested archive is in the packed one.
    let mut head = std::fs::read(out.join("unit.bon/head.bon")).unwrap();
    head[4..8].copy_from_slice(&0.5f32.to_le_bytes());
    std::fs::write(out.join("unit.bon/head.bon"), &head).unwrap();
    let edited = dir.path().join("edited.res");
    relic().args(["pack", "ei-res", "-q", "-o"]).arg(&edited).arg(&out).assert().success();
    let again = dir.path().join("again");
    relic().args(["extract", "-q", "-r", "-o"]).arg(&again).arg(&edited).assert().success();
    assert_eq!(std::fs::read(again.join("unit.bon/head.bon")).unwrap(), head);
    let listed = json_of(relic().args(["ls", "--json"]).arg(&edited));
    let names: Vec<&str> = listed.as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"unit.bon") && !names.iter().any(|n| n.contains("head")), "{names:?}");
    // The note deleted: the folder's files are plain entries.
    std::fs::remove_file(out.join("unit.bon/.relic-archive.json")).unwrap();
    let plain = dir.path().join("plain.res");
    relic().args(["pack", "ei-res", "-q", "-o"]).arg(&plain).arg(&out).assert().success();
    let listed = json_of(relic().args(["ls", "--json"]).arg(&plain));
    let names: Vec<&str> = listed.as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert!(names.iter().any(|n| n.ends_with("head.bon")) && !names.contains(&"unit.bon"), "{names:?}");
}

#[test]
fn extract_refuses_escaping_names_and_keeps_the_good_ones() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("evil.res");
    std::fs::write(
        &archive,
        handmade_res(&[
            (b"..\\escape.txt", b"bad"),
            (b"C:\\drive.txt", b"bad"),
            (b"\\abs.txt", b"bad"),
            (b"ok\\good.txt", b"good"),
        ]),
    )
    .unwrap();
    let out = dir.path().join("out");
    let assert = relic().args(["extract", "-o"]).arg(&out).arg(&archive).assert().code(1);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    for name in ["..\\escape.txt", "C:\\drive.txt", "\\abs.txt"] {
        assert!(stderr.lines().any(|l| l.contains(name) && l.starts_with("relic: ")), "no line names {name}: {stderr}");
    }
    assert_eq!(std::fs::read(out.join("ok/good.txt")).unwrap(), b"good");
    assert!(!dir.path().join("escape.txt").exists());
    assert!(!Path::new("/abs.txt").exists());
    let written: Vec<_> = walkdir::WalkDir::new(dir.path())
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .collect();
    assert_eq!(written.len(), 2, "only the archive and ok/good.txt: {written:?}");
}

#[test]
fn pack_of_an_extraction_gives_the_same_archive_and_is_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    relic().args(["extract", "-q", "-o"]).arg(&out).arg(sample()).assert().success();
    let a = dir.path().join("a.res");
    let b = dir.path().join("b.res");
    relic().args(["pack", "ei-res", "-o"]).arg(&a).arg(&out).assert().success();
    relic().args(["pack", "ei-res", "-o"]).arg(&b).arg(&out).assert().success();
    let (a_bytes, b_bytes) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(a_bytes, b_bytes, "packing the same folder twice gives identical bytes");
    // The sample was written by the same writer from the same names, times and bytes.
    assert_eq!(a_bytes, std::fs::read(sample()).unwrap());
    // Without --force an existing output is refused; --no-dedupe stores the shared content twice.
    relic().args(["pack", "ei-res", "-o"]).arg(&a).arg(&out).assert().code(1);
    relic().args(["pack", "ei-res", "--force", "--no-dedupe", "-o"]).arg(&a).arg(&out).assert().success();
    assert_eq!(std::fs::read(&a).unwrap().len(), a_bytes.len() + 32);
    let v = json_of(relic().args(["info", "--json"]).arg(&a));
    assert_eq!(v["distinct_data_ranges"], 5);
}

#[test]
fn pack_ro_grf_takes_a_version() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("data/map")).unwrap();
    std::fs::write(src.join("data/readme.txt"), "hello").unwrap();
    std::fs::write(src.join("data/map/a.gnd"), vec![7u8; 5000]).unwrap();
    for (version, want) in [(None, "0x200"), (Some("0x300"), "0x300"), (Some("300"), "0x300"), (Some("0x103"), "0x103")]
    {
        let out = dir.path().join(format!("{want}-{}.grf", version.unwrap_or("default")));
        let mut cmd = relic();
        cmd.args(["pack", "ro-grf", "-o"]).arg(&out);
        if let Some(v) = version {
            cmd.args(["--version", v]);
        }
        cmd.arg(&src).assert().success();
        let v = json_of(relic().args(["info", "--json"]).arg(&out));
        assert_eq!(v["version"], want);
        let back = dir.path().join(format!("{want}-{}", version.unwrap_or("default")));
        relic().args(["extract", "-q", "-o"]).arg(&back).arg(&out).assert().success();
        assert_eq!(std::fs::read(back.join("data/map/a.gnd")).unwrap(), vec![7u8; 5000]);
        // Its JSON packs back to the same bytes, in the version it names.
        let json = dir.path().join(format!("json-{want}-{}", version.unwrap_or("default")));
        relic().args(["convert", "-q", "--to", "json", "-o"]).arg(&json).arg(&out).assert().success();
        let again = dir.path().join(format!("again-{want}-{}.grf", version.unwrap_or("default")));
        let doc = json.join(format!("{}.json", out.file_name().unwrap().to_string_lossy()));
        relic().args(["pack", "ro-grf", "-o"]).arg(&again).arg(&doc).assert().success();
        assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&out).unwrap());
        relic().args(["check", "-q"]).arg(&out).assert().success();
    }
    // Usage errors (exit 2): a version ro-grf does not write, not hex, a format with one form, a JSON input.
    let out = dir.path().join("bad.grf");
    let err = relic().args(["pack", "ro-grf", "--version", "0x999", "-o"]).arg(&out).arg(&src).assert().code(2);
    let text = String::from_utf8_lossy(&err.get_output().stderr).to_string();
    assert!(text.contains("0x999") && text.contains("0x300"), "{text}");
    relic().args(["pack", "ro-grf", "--version", "zz", "-o"]).arg(&out).arg(&src).assert().code(2);
    relic()
        .args(["pack", "ei-res", "--version", "0x300", "-o"])
        .arg(dir.path().join("x.res"))
        .arg(&src)
        .assert()
        .code(2);
    let doc = dir.path().join("json-0x300-0x300/0x300-0x300.grf.json");
    relic().args(["pack", "ro-grf", "--version", "0x300", "-o"]).arg(&out).arg(&doc).assert().code(2);
    assert!(!out.exists());
}

#[test]
fn convert_json_and_pack_back_is_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let v = json_of(relic().args(["convert", "--to", "json", "--json", "-o"]).arg(dir.path()).arg(sample()));
    let json_path = dir.path().join("example.res.json");
    assert_eq!(
        v,
        serde_json::json!({
            "outputs": [{"input": sample().display().to_string(), "output": json_path.display().to_string(), "kind": "document"}],
            "failures": [],
            "skipped": [],
            "existing": [],
            "warnings": [],
            "missing": [],
            "missing_summary": [],
        })
    );
    let doc: Value = serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();
    assert_eq!(doc["header"]["files_count"], 5);
    let back = dir.path().join("back.res");
    relic().args(["pack", "ei-res", "-o"]).arg(&back).arg(&json_path).assert().success();
    assert_eq!(std::fs::read(back).unwrap(), std::fs::read(sample()).unwrap());
}

#[test]
fn convert_walks_folders_and_writes_archives_entry_by_entry() {
    let dir = tempfile::tempdir().unwrap();
    let samples = sample().parent().unwrap().parent().unwrap().to_path_buf();
    let v = json_of(relic().args(["convert", "--json", "-q", "-o"]).arg(dir.path()).arg(&samples));
    let items = v["outputs"].as_array().unwrap();
    let outputs: Vec<&str> = items.iter().map(|i| i["output"].as_str().unwrap()).collect();
    // A text entry becomes UTF-8 `.txt`, marked by its byte order mark for `pack` (issue 28).
    let expect = dir.path().join("evil_islands/example.res/texts/quest q1.txt");
    assert!(outputs.contains(&expect.to_str().unwrap()), "{outputs:?}");
    assert_eq!(std::fs::read(expect).unwrap(), "\u{FEFF}Find the lost soul.\r\n".as_bytes());
    // The nested bone set converts whole, to its friendly JSON (issue 28), naming its part.
    let bones = std::fs::read_to_string(dir.path().join("evil_islands/example.res/unit.bon.json")).unwrap();
    assert!(bones.contains("\"head\""), "{bones}");
    // The GRF sample's entries are inflated into their folders; its BMP texture becomes a PNG (`ro-texture`,
    // issue 24).
    let png =
        std::fs::read(dir.path().join("ragnarok/example.grf/data/texture/유저인터페이스/sample.bmp.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    // Archive entries are copied raw (but the GRF's texture, converted, and the RES's text entries, UTF-8
    // `.txt`); other samples are converted next to them.
    let from_archives: Vec<_> = items
        .iter()
        .filter(|i| {
            i["input"].as_str().unwrap().contains("example.res") || i["input"].as_str().unwrap().contains("example.grf")
        })
        .collect();
    assert!(from_archives.iter().all(|i| i["kind"] == "raw"
        || i["output"].as_str().unwrap().ends_with("sample.bmp.png")
        || i["output"].as_str().unwrap().ends_with("quest q1.txt")
        || i["output"].as_str().unwrap().ends_with(".txt")
        || i["output"].as_str().unwrap().ends_with("unit.bon.json")));
    // example.res: readme.txt, three text entries and its bone set as one JSON (issue 28).
    assert_eq!(from_archives.len(), 5 + 2, "example.res yields 5 files, example.grf 2");
    let db = items.iter().find(|i| i["input"].as_str().unwrap().ends_with("items.idb")).expect("the DB sample");
    assert_eq!(db["kind"], "document");
    assert_eq!(db["output"].as_str().unwrap(), dir.path().join("evil_islands/items.idb.json").to_str().unwrap());
    // The sample textures become one PNG each.
    for name in ["example_dxt1", "example_argb4"] {
        let png = dir.path().join(format!("evil_islands/{name}.mmp.png"));
        assert!(items.iter().any(|i| i["output"] == png.display().to_string() && i["kind"] == "image"), "{items:?}");
    }
    // The sample level gives its document and its script.
    let level_dir = dir.path().join("evil_islands/level.mob");
    for (file, kind) in [("level.mob.json", "document"), ("level.mob.txt", "document")] {
        let path = level_dir.join(file);
        assert!(items.iter().any(|i| i["output"] == path.display().to_string() && i["kind"] == kind), "{items:?}");
    }
    let script = std::fs::read_to_string(level_dir.join("level.mob.txt")).unwrap();
    assert!(script.starts_with("GlobalVars (") && script.contains("Привет, Гипат!"), "{script}");
}

#[test]
fn pack_a_texture_from_png_with_mips() {
    let dir = tempfile::tempdir().unwrap();
    let texture = sample().parent().unwrap().join("example_argb4.mmp");
    relic().args(["convert", "-q", "-o"]).arg(dir.path()).arg(&texture).assert().success();
    let png = dir.path().join("example_argb4.mmp.png");
    let out = dir.path().join("out.mmp");
    relic().args(["pack", "ei-mmp", "--pixel-format", "dxt1", "--mips", "-o"]).arg(&out).arg(&png).assert().success();
    let v = json_of(relic().args(["info", "--json"]).arg(&out));
    assert_eq!(
        (v["pixel_format"].as_str(), v["mip_levels"].as_u64(), v["width"].as_u64()),
        (Some("dxt1"), Some(4), Some(8))
    );
    relic().args(["convert", "-q", "--mips", "-o"]).arg(dir.path()).arg(&out).assert().success();
    for level in 0..4 {
        assert!(dir.path().join(format!("out.mmp.mip{level}.png")).is_file());
    }
    // Without --pixel-format: the format and level count the PNG records (the original's: ARGB4, one level), the
    // same bytes as the original since the pixels are unedited.
    let plain = dir.path().join("plain.mmp");
    relic().args(["pack", "ei-mmp", "-o"]).arg(&plain).arg(&png).assert().success();
    let v = json_of(relic().args(["info", "--json"]).arg(&plain));
    assert_eq!((v["pixel_format"].as_str(), v["mip_levels"].as_u64()), (Some("argb4"), Some(1)));
    assert_eq!(std::fs::read(&plain).unwrap(), std::fs::read(&texture).unwrap());
    // An unknown pixel format is a usage error, and the message lists the accepted ones.
    let mut bc7 = relic();
    bc7.args(["pack", "ei-mmp", "--pixel-format", "bc7", "-o"]).arg(dir.path().join("x.mmp")).arg(&png);
    let stderr = String::from_utf8(bc7.assert().code(2).get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("[possible values: argb4, r5g6b5, a1r5g5b5, argb8, dxt1, dxt3, pnt3]"), "{stderr}");
}

#[test]
fn failures_exit_1_and_usage_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.res");
    std::fs::write(&junk, b"\x3C\xE2\x9C\x01\xFF\xFF\xFF\xFF").unwrap();
    let assert = relic().args(["convert", "-o"]).arg(dir.path()).arg(&junk).arg(sample()).assert().code(1);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    let failure = stderr.lines().find(|l| l.contains("junk.res")).expect("junk.res named");
    assert!(failure.contains("ei-res") && failure.contains("offset"), "{failure}");
    // The good input was still converted, below the folder both inputs share.
    let folder = relic::paths::lexical_absolute(sample().parent().unwrap());
    let common: PathBuf =
        dir.path().components().zip(folder.components()).take_while(|(a, b)| a == b).map(|(a, _)| a).collect();
    let placed = folder.strip_prefix(&common).unwrap().join("example.res/readme.txt");
    assert!(dir.path().join(placed).exists());
    relic().args(["info"]).arg(&junk).assert().code(1);
    relic().arg("frobnicate").assert().code(2);
    relic().args(["extract"]).assert().code(2);
    relic().args(["pack", "no-such-format", "-o", "x", "y"]).assert().code(2);
    relic().arg("--help").assert().success();
}

#[test]
fn mob_info_convert_and_pack_back() {
    let level = crate::common::samples().join("evil_islands/level.mob");
    let info = json_of(relic().args(["info", "--json"]).arg(&level));
    assert_eq!((info["units"].as_u64(), info["scripts"].as_u64()), (Some(1), Some(1)), "{info}");
    let dir = tempfile::tempdir().unwrap();
    relic().args(["convert", "--to", "json", "-q", "-o"]).arg(dir.path()).arg(&level).assert().success();
    let json_path = dir.path().join("level.mob.json");
    // Edit the script in the JSON, pack, and read it back.
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();
    assert_eq!(doc["nodes"][0]["children"][1]["name"], "SS_TEXT");
    let back = dir.path().join("back.mob");
    relic().args(["pack", "ei-mob"]).arg(&json_path).arg("-o").arg(&back).assert().success();
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&level).unwrap());
    doc["nodes"][0]["children"][1]["script"]["text"] = Value::from("GlobalVars ( )\n");
    std::fs::write(&json_path, serde_json::to_vec(&doc).unwrap()).unwrap();
    let edited = dir.path().join("edited.mob");
    relic().args(["pack", "ei-mob"]).arg(&json_path).arg("-o").arg(&edited).assert().success();
    relic().args(["convert", "-q", "-o"]).arg(dir.path().join("out")).arg(&edited).assert().success();
    let script = std::fs::read_to_string(dir.path().join("out/edited.mob/edited.mob.txt")).unwrap();
    assert_eq!(script, "GlobalVars ( )\n");
}

#[test]
fn models_convert_to_glb_or_gltf_with_textures_from_a_grf() {
    let dir = tempfile::tempdir().unwrap();
    let samples = sample().parent().unwrap().parent().unwrap().join("ragnarok");
    // The sample GRF holds no stone.bmp: the model converts without that texture, and says so.
    let assert = relic()
        .args(["convert", "-q", "--textures"])
        .arg(samples.join("example.grf"))
        .arg("-o")
        .arg(dir.path())
        .arg(samples.join("pyramid.rsm2"))
        .arg(samples.join("pyramid.rsm"))
        .assert()
        .success();
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    let grf = samples.join("example.grf");
    // One warning per missing texture and model that lacks it, naming the model (issues 24, 39), then the
    // batch's summary.
    let line = |model: &str| {
        format!(
            "relic: warning: {}: texture 'data\\texture\\stone.bmp' not found (looked in --textures {})",
            samples.join(model).display(),
            grf.display()
        )
    };
    let summary = "relic: warning: in all, 2 textures not found for 2 inputs (1 different file)".to_string();
    assert_eq!(stderr.lines().collect::<Vec<_>>(), [line("pyramid.rsm2"), line("pyramid.rsm"), summary]);
    // Without --textures: the same texture, and the flag to give.
    let assert =
        relic().args(["convert", "-q", "-o"]).arg(dir.path().join("bare")).arg(samples.join("pyramid.rsm")).assert();
    let stderr = String::from_utf8_lossy(&assert.success().get_output().stderr).into_owned();
    assert!(
        stderr.contains("pyramid.rsm: texture 'data\\texture\\stone.bmp' not found")
            && stderr.contains("give --textures")
    );
    // Same stem, same folder: each output keeps its input's whole name.
    for name in ["pyramid.rsm.glb", "pyramid.rsm2.glb"] {
        assert_eq!(&std::fs::read(dir.path().join(name)).unwrap()[..4], b"glTF");
    }
    relic()
        .args(["convert", "-q", "--to", "gltf", "-o"])
        .arg(dir.path().join("text"))
        .arg(samples.join("pyramid.rsm"))
        .assert()
        .success();
    let gltf: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("text/pyramid.rsm.gltf")).unwrap()).unwrap();
    assert_eq!(gltf["buffers"][0]["uri"], "pyramid.rsm.bin");
    assert!(dir.path().join("text/pyramid.rsm.bin").is_file());
    let Some(corpus) = crate::common::corpus("ragnarok") else { return };
    relic()
        .args(["convert", "-q", "--textures"])
        .arg(corpus.join("goldberg_textures.grf"))
        .arg("-o")
        .arg(dir.path())
        .arg(corpus.join("goldberg_s_01.rsm2"))
        .assert()
        .success();
    let path = dir.path().join("goldberg_s_01.rsm2.glb");
    let glb = std::fs::read(&path).unwrap();
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let doc: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    assert_eq!(doc["images"].as_array().unwrap().len(), 4);
    assert_eq!(doc["meshes"].as_array().unwrap().len(), 32);
    if let Some(reports) = relic::testing::validate_gltf(&[&path, &dir.path().join("pyramid.rsm2.glb")]) {
        for r in reports {
            assert_eq!(r.errors, 0, "{}: {:#?}", r.path, r.messages);
        }
    }
}

#[test]
fn check_reads_and_writes_back_every_file() {
    let samples = sample().parent().unwrap().parent().unwrap().to_path_buf();
    let v = json_of(relic().args(["check", "--json", "-q"]).arg(&samples));
    let items = v["files"].as_array().unwrap();
    // Every file under samples/, counted from the folder rather than written down here.
    let n = crate::common::sample_files().len() as u64;
    assert!(n >= 44, "{n}");
    assert_eq!(items.len() as u64, n, "{items:?}");
    assert_eq!((v["identical"].as_u64(), v["differs"].as_u64(), v["failed"].as_u64()), (Some(n), Some(0), Some(0)));
    assert!(items.iter().all(|i| i["outcome"] == "identical"), "{items:?}");
    let formats: std::collections::BTreeSet<&str> = items.iter().map(|i| i["format"].as_str().unwrap()).collect();
    // All but `dr-ftg-spr`, which is never identified (`--format` only), and `ro-table`, known by the
    // client's table names only: neither has a sample.
    assert_eq!(formats.len(), relic::FORMATS.len() - 2, "every format is checked on its sample");
    // A broken file fails the run and is named; an unknown one is only reported.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("broken.res"), b"\x3C\xE2\x9C\x01\x05\x00\x00\x00").unwrap();
    std::fs::write(dir.path().join("notes.txt"), b"hello").unwrap();
    let assert = relic().args(["check"]).arg(dir.path()).assert().code(1);
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(out.contains("failed") && out.contains("unknown"), "{out}");
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.contains("broken.res") && err.contains("ei-res"), "{err}");
    assert_eq!(err.lines().last(), Some("check: 0 identical, 0 differs, 1 failed, 1 unknown"), "{err}");
}

#[test]
fn check_names_each_texture_a_model_s_client_folder_lacks() {
    // The sample model uses `stone.bmp`; in a client folder whose `data\texture` lacks it, `check` still
    // finds it identical (exit 0) and says on stderr what is missing, once; `-q` keeps stderr quiet, and
    // `--json` carries the warning in the item.
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("client/data/model");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::create_dir_all(dir.path().join("client/data/texture")).unwrap();
    let samples = sample().parent().unwrap().parent().unwrap().to_path_buf();
    std::fs::copy(samples.join("ragnarok/pyramid.rsm"), models.join("pyramid.rsm")).unwrap();
    let assert = relic().arg("check").arg(dir.path().join("client")).assert().code(0);
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(out.starts_with("identical ro-rsm"), "{out}");
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    // The warning, then the summary.
    assert_eq!(err.lines().count(), 2, "{err}");
    assert_eq!(err.lines().last(), Some("check: 1 identical, 0 differs, 0 failed"), "{err}");
    assert!(
        err.starts_with("relic: warning: ")
            && err.contains("pyramid.rsm: ro-rsm: texture 'data\\texture\\stone.bmp' not found"),
        "{err}"
    );
    let quiet = relic().args(["check", "-q"]).arg(dir.path().join("client")).assert().code(0);
    assert!(quiet.get_output().stderr.is_empty());
    let v = json_of(relic().args(["check", "--json", "-q"]).arg(dir.path().join("client")));
    assert_eq!(v["files"][0]["warnings"].as_array().map(Vec::len), Some(1), "{v}");
}

/// `--compression` changes the PNG's size and speed, never its pixels; an unknown level is a usage error.
#[test]
fn png_compression_levels_give_the_same_pixels() {
    let texture = crate::common::samples().join("evil_islands/example_dxt1.mmp");
    let dir = tempfile::tempdir().unwrap();
    let mut decoded = Vec::new();
    for level in ["fast", "default", "best"] {
        let out = dir.path().join(level);
        relic()
            .args(["convert", "-q", "--mips", "--compression", level, "-o"])
            .arg(&out)
            .arg(&texture)
            .assert()
            .success();
        let mut levels = Vec::new();
        for mip in 0..5 {
            let png = out.join(format!("example_dxt1.mmp.mip{mip}.png"));
            let mut reader = png::Decoder::new(std::fs::File::open(&png).unwrap()).read_info().unwrap();
            let mut buf = vec![0; reader.output_buffer_size()];
            let info = reader.next_frame(&mut buf).unwrap();
            buf.truncate(info.buffer_size());
            levels.push((info.width, info.height, buf));
        }
        decoded.push(levels);
    }
    assert_eq!(decoded[0][0].0, 16);
    assert_eq!(decoded[0], decoded[1]);
    assert_eq!(decoded[0], decoded[2]);
    relic().args(["convert", "--compression", "fastest", "-o"]).arg(dir.path()).arg(&texture).assert().code(2);
}

/// `relic ls --json big.res | head -c 100`: the reader goes away mid-listing; relic stops quietly with
/// exit 0 (as `ls`, `cat` and `jq` do for a closed pipe), and writes nothing on stderr.
#[test]
fn ls_json_into_a_closed_pipe_stops_quietly() {
    use std::io::Read;
    let names: Vec<Vec<u8>> = (0..6000).map(|i| format!("folder\\entry{i:05}.bin").into_bytes()).collect();
    let entries: Vec<(&[u8], &[u8])> = names.iter().map(|n| (&n[..], &b"data"[..])).collect();
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("big.res");
    std::fs::write(&archive, handmade_res(&entries)).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("relic");
    let mut child = std::process::Command::new(bin)
        .args(["ls", "--json"])
        .arg(&archive)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 100];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    // (The pipe's read end is dropped here: the listing, some 500 KB, cannot all have been written.)
    let out = child.wait_with_output().unwrap();
    assert!(head.starts_with(b"[\n{\"name\":\"folder\\\\entry"), "{}", String::from_utf8_lossy(&head));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// `convert --to csv` of a folder converts what can be CSV and skips the rest with one line per reason,
/// exit 0; a single file's summary names the file written; singular and plural are right.
#[test]
fn a_folder_to_csv_skips_what_cannot_be_csv_with_one_note() {
    let dir = tempfile::tempdir().unwrap();
    let samples = sample().parent().unwrap().to_path_buf();
    let assert = relic().args(["convert", "--to", "csv", "-o"]).arg(dir.path()).arg(&samples).assert().success();
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.starts_with("relic: warning:")).collect();
    // `.anm` and `.bon` convert (to JSON) since issue 28, so nothing is "read but not converted yet".
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].starts_with("skipped 15 files: cannot be made into csv (ei-anm, ei-bon, ei-fig, ei-lnk, ei-mmp, ei-mob, ei-mp, ei-reg, ei-res, ei-sec; the first: "), "{stderr}");
    assert_eq!(lines[1], format!("wrote 9 files to {}, 15 skipped", dir.path().display()));
    for csv in ["intro.cam.csv", "items.idb.Materials.csv", "items.idb.Weapons.csv", "unhuma.adb.csv"] {
        assert!(dir.path().join(csv).is_file(), "{csv}");
    }
    // One file: named.
    let one = dir.path().join("one");
    let assert = relic().args(["convert", "-o"]).arg(&one).arg(samples.join("intro.cam")).assert().success();
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.trim_end(), format!("wrote {}", one.join("intro.cam.json").display()));
    // Named on the command line, a file that cannot be CSV is a usage error, not a skip.
    relic().args(["convert", "--to", "csv", "-o"]).arg(&one).arg(samples.join("unit.mmp")).assert().code(2);
}
