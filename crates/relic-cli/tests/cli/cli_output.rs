//! What relic prints must neither mislead nor drown the user (issue 39): a second conversion into the same
//! folder says so once; `pack` names each file with its own size; warnings name their input, once per
//! missing file, and a batch sums them up; a Drakan database's files are converted once; a Dark Reign
//! `FTG\0` archive is identified; `ls`, `extract` and `check` take `--format`. Run against the real binary,
//! with exact lines and exit codes.

use std::path::Path;

use serde_json::Value;

use crate::common::{relic, samples, stderr_of};

fn json_of(assert: &assert_cmd::assert::Assert) -> Value {
    let out = &assert.get_output().stdout;
    serde_json::from_slice(out).unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(out)))
}

/// Copies `names` from `samples/<game>/` into `dir`.
fn copy_samples(game: &str, names: &[&str], dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    for name in names {
        std::fs::copy(samples().join(game).join(name), dir.join(name)).unwrap();
    }
}

/// Every file below `dir`, as paths relative to it with `/`, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/"))
        .collect();
    out.sort();
    out
}

// ---- convert into a folder that holds an earlier conversion -------------------------------------------

#[test]
fn converting_again_into_the_same_folder_says_so_once_and_keeps_the_edits() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game");
    copy_samples("evil_islands", &["intro.cam", "unit.mmp", "settings.reg"], &game);
    let out = dir.path().join("out");
    let first = relic().args(["convert", "--json", "-o"]).arg(&out).arg(&game).assert().success();
    let outputs: Vec<String> = json_of(&first)["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["output"].as_str().unwrap().to_string())
        .collect();
    // The texture's record (its pixel format, for a re-saved PNG) is relic's own file, not an output.
    assert_eq!(files_under(&out), ["intro.cam.json", "settings.reg.ini", "unit.mmp.png", "unit.mmp.relic.json"]);
    assert_eq!(outputs.len(), 3);
    // The user edits the camera's JSON as an editor saves it (no BOM, LF), then runs the same command again.
    let camera = out.join("intro.cam.json");
    let edited = std::fs::read_to_string(&camera).unwrap().replace("\r\n", "\n") + "\n";
    std::fs::write(&camera, &edited).unwrap();
    let again = relic().args(["convert", "-o"]).arg(&out).arg(&game).assert().code(1);
    let stderr = stderr_of(&again);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines,
        [
            format!(
                "relic: {}: already holds 3 of the 3 files this conversion writes (the first: {}), left as they \
                 were; use --force to overwrite them or --skip-existing to keep them",
                out.display(),
                outputs[0]
            ),
            format!("wrote 0 files to {}, left 3 files already there", out.display()),
        ],
        "one line up front, then the summary: {stderr}"
    );
    assert_eq!(std::fs::read_to_string(&camera).unwrap(), edited, "the edit is kept");
    // The edited JSON packs back, and converting the packed camera gives the edit back.
    let packed = dir.path().join("intro.cam");
    relic().args(["pack", "ei-cam", "-q", "-o"]).arg(&packed).arg(&camera).assert().success();
    let back = dir.path().join("back");
    relic().args(["convert", "-q", "-o"]).arg(&back).arg(&packed).assert().success();
    let reread: Value = serde_json::from_str(&std::fs::read_to_string(back.join("intro.cam.json")).unwrap()).unwrap();
    assert_eq!(reread, serde_json::from_str::<Value>(&edited).unwrap());
    // One output gone: written again, the others kept; without --skip-existing it is still the one refusal.
    let picture = out.join("unit.mmp.png");
    std::fs::remove_file(&picture).unwrap();
    let again = relic().args(["convert", "--json", "-o"]).arg(&out).arg(&game).assert().code(1);
    let manifest = json_of(&again);
    assert_eq!(manifest["outputs"].as_array().unwrap().len(), 1, "{manifest}");
    assert_eq!(manifest["existing"].as_array().unwrap().len(), 2, "{manifest}");
    let failures = manifest["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1, "{manifest}");
    assert_eq!(failures[0]["input"], out.display().to_string());
    assert!(failures[0]["message"].as_str().unwrap().starts_with("already holds 2 of the 3 files"), "{manifest}");
    assert!(picture.is_file());
    // --skip-existing: kept without an error.
    std::fs::remove_file(&picture).unwrap();
    let kept = relic().args(["convert", "--skip-existing", "-o"]).arg(&out).arg(&game).assert().success();
    assert_eq!(stderr_of(&kept), format!("wrote {}, kept 2 files already there\n", picture.display()));
    let kept = relic().args(["convert", "--skip-existing", "-o"]).arg(&out).arg(&game).assert().success();
    assert_eq!(stderr_of(&kept), format!("wrote 0 files to {}, kept 3 files already there\n", out.display()));
    assert_eq!(std::fs::read_to_string(&camera).unwrap(), edited);
    // --force overwrites; with --skip-existing it is a usage error.
    relic().args(["convert", "-q", "--force", "-o"]).arg(&out).arg(&game).assert().success();
    assert_ne!(std::fs::read_to_string(&camera).unwrap(), edited);
    relic().args(["convert", "-q", "--force", "--skip-existing", "-o"]).arg(&out).arg(&game).assert().code(2);
}

// ---- pack: each file's own size -------------------------------------------------------------------------

#[test]
fn pack_gives_each_file_its_own_size_and_lists_the_files_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game");
    copy_samples("evil_islands", &["unit.mod", "unit.bon", "unit.anm", "unit.mmp"], &game);
    let out = dir.path().join("out");
    relic().args(["convert", "-q", "-o"]).arg(&out).arg(game.join("unit.mod")).assert().success();
    let glb = out.join("unit.mod.glb");
    assert!(glb.is_file(), "{:?}", files_under(&out));
    let new = dir.path().join("new");
    std::fs::create_dir(&new).unwrap();
    let model = new.join("unit.mod");
    let packed = relic().args(["pack", "ei-res", "-o"]).arg(&model).arg(&glb).assert().success();
    let size = |p: &Path| std::fs::metadata(p).unwrap().len();
    let beside = ["unit.bon", "unit.anm", "unit.mmp"].map(|n| new.join(n));
    let mut expected = vec![format!("wrote {} ({} bytes)", model.display(), size(&model))];
    expected.extend(beside.iter().map(|p| format!("wrote {} ({} bytes) beside it", p.display(), size(p))));
    let stderr = stderr_of(&packed);
    assert_eq!(stderr.lines().collect::<Vec<_>>(), expected, "{stderr}");
    // --json: the output's own size, the companions each with theirs.
    let again = dir.path().join("again");
    std::fs::create_dir(&again).unwrap();
    let packed =
        relic().args(["pack", "ei-res", "--json", "-o"]).arg(again.join("unit.mod")).arg(&glb).assert().success();
    let report = json_of(&packed);
    assert_eq!(report["bytes"], size(&model));
    let companions: Vec<(String, u64)> = report["companions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["output"].as_str().unwrap().to_string(), c["bytes"].as_u64().unwrap()))
        .collect();
    let expected: Vec<(String, u64)> = ["unit.bon", "unit.anm", "unit.mmp"]
        .iter()
        .map(|n| (again.join(n).display().to_string(), size(&new.join(n))))
        .collect();
    assert_eq!(companions, expected);
    // The packed figure, with what was written beside it, converts again without a warning.
    let reconverted = relic().args(["convert", "-o"]).arg(dir.path().join("re")).arg(&model).assert().success();
    assert_eq!(stderr_of(&reconverted), format!("wrote {}\n", dir.path().join("re/unit.mod.glb").display()));
}

#[test]
fn the_version_counts_every_format_relic_formats_lists() {
    let formats = json_of(&relic().args(["formats", "--json"]).assert().success());
    let n = formats.as_array().unwrap().len();
    let version = String::from_utf8(relic().arg("--version").assert().success().get_output().stdout.clone()).unwrap();
    assert!(version.trim_end().ends_with(&format!(", {n} formats)")), "{version}");
}

// ---- warnings name their input --------------------------------------------------------------------------

/// The lines of `stderr` that are warnings, without the `relic: warning: ` lead.
fn warnings(stderr: &str) -> Vec<&str> {
    stderr.lines().filter_map(|l| l.strip_prefix("relic: warning: ")).collect()
}

#[test]
fn a_folder_of_models_without_textures_names_each_model_once_per_texture_and_sums_up() {
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    copy_samples("ragnarok", &["pyramid.rsm", "pyramid.rsm2"], &models);
    let out = dir.path().join("out");
    let run = relic().args(["convert", "-o"]).arg(&out).arg(&models).assert().success();
    let stderr = stderr_of(&run);
    let nowhere = "nowhere: the file is in no archive and no client folder (`data` above it); give --textures \
                   with the game's folder or GRF";
    let rsm = models.join("pyramid.rsm").display().to_string();
    let rsm2 = models.join("pyramid.rsm2").display().to_string();
    assert_eq!(
        warnings(&stderr),
        [
            format!("{rsm}: texture 'data\\texture\\stone.bmp' not found (looked in {nowhere})"),
            format!("{rsm2}: texture 'data\\texture\\stone.bmp' not found (looked in {nowhere})"),
            "in all, 2 textures not found for 2 inputs (1 different file)".to_string(),
        ],
        "{stderr}"
    );
    // The same in --json: the warnings, each missing file with its input, the summary.
    let run = relic().args(["convert", "--json", "--force", "-o"]).arg(&out).arg(&models).assert().success();
    let manifest = json_of(&run);
    assert_eq!(manifest["warnings"].as_array().unwrap().len(), 2, "{manifest}");
    assert_eq!(
        manifest["missing"],
        serde_json::json!([
            {"input": rsm, "what": "texture", "name": "data\\texture\\stone.bmp"},
            {"input": rsm2, "what": "texture", "name": "data\\texture\\stone.bmp"},
        ])
    );
    assert_eq!(
        manifest["missing_summary"],
        serde_json::json!(["2 textures not found for 2 inputs (1 different file)"])
    );
    // With the texture in the client folder above the models, nothing is missing and nothing is summed up.
    let client = dir.path().join("client");
    copy_samples("ragnarok", &["pyramid.rsm", "pyramid.rsm2"], &client.join("data/model"));
    std::fs::create_dir_all(client.join("data/texture")).unwrap();
    std::fs::copy(samples().join("ragnarok/wall.bmp"), client.join("data/texture/stone.bmp")).unwrap();
    let run = relic().args(["convert", "-o"]).arg(dir.path().join("textured")).arg(client.join("data/model")).assert();
    let stderr = stderr_of(&run.success());
    assert_eq!(warnings(&stderr), Vec::<&str>::new(), "{stderr}");
}

#[test]
fn a_map_names_the_ground_textures_it_did_not_find() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("map");
    copy_samples("ragnarok", &["map.rsw", "map.gnd", "map.gat"], &map);
    let out = dir.path().join("out");
    let rsw = map.join("map.rsw");
    let by_map = relic().args(["convert", "-o"]).arg(&out).arg(&rsw).assert().success();
    let by_map = stderr_of(&by_map);
    let gnd = map.join("map.gnd");
    let by_ground = relic().args(["convert", "-o"]).arg(dir.path().join("ground")).arg(&gnd).assert().success();
    let by_ground = stderr_of(&by_ground);
    // The map says what its ground says, each line naming the map.
    let ground_lines: Vec<String> = warnings(&by_ground)
        .iter()
        .filter(|w| w.contains("texture '"))
        .map(|w| w.replacen(&gnd.display().to_string(), &rsw.display().to_string(), 1))
        .collect();
    assert!(!ground_lines.is_empty(), "{by_ground}");
    let map_lines: Vec<String> =
        warnings(&by_map).iter().filter(|w| w.contains("texture '")).map(|w| w.to_string()).collect();
    assert_eq!(map_lines, ground_lines, "{by_map}");
    assert!(map_lines.iter().all(|l| l.starts_with(&format!("{}: texture '", rsw.display()))), "{by_map}");
    assert_eq!(ground_lines.len(), 2, "backside.bmp and p_ground01.bmp: {by_ground}");
    // It ends with the summary: the ground's two textures, and the two model files the map places (none was
    // copied beside it).
    let summary: Vec<&str> = warnings(&by_map).into_iter().filter(|w| w.starts_with("in all, ")).collect();
    assert_eq!(
        summary,
        [
            "in all, 2 models not found for 1 input (2 different files)",
            "in all, 2 textures not found for 1 input (2 different files)"
        ]
    );
    assert_eq!(warnings(&by_map).last(), summary.last(), "{by_map}");
}

// ---- a Drakan database's files, once ---------------------------------------------------------------------

#[test]
fn the_drakan_samples_convert_each_srsc_file_once() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("drakan");
    let names = ["Common.db", "Common.txd", "Sample.db", "Sample.txd", "Sample.sdb", "Sample.mod", "Sample.adb"];
    copy_samples("drakan", &names, &game);
    let out = dir.path().join("out");
    let run = relic().args(["convert", "--json", "-o"]).arg(&out).arg(&game).assert().success();
    let manifest = json_of(&run);
    let inputs: std::collections::BTreeSet<String> =
        manifest["outputs"].as_array().unwrap().iter().map(|o| o["input"].as_str().unwrap().to_string()).collect();
    let path = |n: &str| game.join(n).display().to_string();
    assert_eq!(inputs, [path("Common.db"), path("Sample.db")].into_iter().collect());
    let mut skipped: Vec<&str> = manifest["skipped"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    skipped.sort_unstable();
    let mut expected: Vec<String> = vec![format!("{}: converted through {}", path("Common.txd"), path("Common.db"))];
    for n in ["Sample.adb", "Sample.mod", "Sample.sdb", "Sample.txd"] {
        expected.push(format!("{}: converted through {}", path(n), path("Sample.db")));
    }
    expected.sort();
    assert_eq!(skipped, expected);
    // No SRSC file has a folder of its own beside its database's.
    let files = files_under(&out);
    for n in ["Common.txd", "Sample.txd", "Sample.sdb", "Sample.mod", "Sample.adb"] {
        assert!(
            !files.iter().any(|f| f.starts_with(&format!("{n}/")) || f.starts_with(&format!("{n}."))),
            "{n}: {files:?}"
        );
    }
    assert!(files.iter().any(|f| f.starts_with("Sample.db/txd/")), "{files:?}");
    // A texture painted in the database's output (16 bpp 5:6:5: pure red is exact) packs back into the
    // `.txd`, and the folder converted again shows it, once.
    let texture = out.join("Sample.db/txd/texture_3.png");
    let (width, height, mut rgba) = read_png(&texture);
    assert_ne!(rgba[..4], [255, 0, 0, 255]);
    rgba[..4].copy_from_slice(&[255, 0, 0, 255]);
    write_png(&texture, width, height, &rgba);
    let packed = dir.path().join("Sample.txd");
    let document = out.join("Sample.db/txd/Sample.json");
    relic().args(["pack", "drakan-srsc", "-q", "-o"]).arg(&packed).arg(&document).assert().success();
    std::fs::copy(&packed, game.join("Sample.txd")).unwrap();
    let again = dir.path().join("again");
    relic().args(["convert", "-q", "-o"]).arg(&again).arg(&game).assert().success();
    assert_eq!(read_png(&again.join("Sample.db/txd/texture_3.png")).2, rgba);
    assert!(!files_under(&again).iter().any(|f| f.starts_with("Sample.txd")));
    // The SRSC file named alone still converts by itself.
    let alone = dir.path().join("alone");
    relic().args(["convert", "-q", "-o"]).arg(&alone).arg(game.join("Sample.txd")).assert().success();
    assert!(files_under(&alone).iter().any(|f| f.starts_with("Sample.txd/")));
}

fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    decoder.set_transformations(png::Transformations::normalize_to_color8() | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// A PNG as an editor saves it: RGBA, no text chunks.
fn write_png(path: &Path, width: u32, height: u32, rgba: &[u8]) {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header().unwrap().write_image_data(rgba).unwrap();
    std::fs::write(path, bytes).unwrap();
}

// ---- the Dark Reign FTG\0 magic, and --format ----------------------------------------------------------

/// An FTG by hand (spec "FTG Package Format", docs/formats/dark-reign.md#ftg-magic): `FTG\0`, the directory's offset and file
/// count, the data, then 36-byte entries (28-byte NUL-padded name, offset, size).
fn ftg_community(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut data = Vec::new();
    let mut entries = Vec::new();
    for (name, body) in files {
        let offset = 12 + data.len() as u32;
        data.extend_from_slice(body);
        let mut field = [0u8; 28];
        field[..name.len()].copy_from_slice(name.as_bytes());
        entries.extend_from_slice(&field);
        entries.extend(offset.to_le_bytes());
        entries.extend((body.len() as u32).to_le_bytes());
    }
    let mut out = b"FTG\0".to_vec();
    out.extend((12 + data.len() as u32).to_le_bytes());
    out.extend((files.len() as u32).to_le_bytes());
    out.extend(data);
    out.extend(entries);
    out
}

#[test]
fn an_ftg_with_the_community_magic_is_identified_listed_and_packed_back() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("MAPS.DAT");
    std::fs::write(&archive, ftg_community(&[("README.TXT", b"hello\r\n"), ("NOTES.TXT", b"two lines\r\nhere\r\n")]))
        .unwrap();
    let identify = relic().arg("identify").arg(&archive).assert().success();
    assert_eq!(
        String::from_utf8_lossy(&identify.get_output().stdout),
        format!("{}: dr-ftg (by magic)\n", archive.display())
    );
    let info = json_of(&relic().args(["info", "--json"]).arg(&archive).assert().success());
    assert_eq!(
        (info["format"].as_str(), info["magic"].as_str(), info["files"].as_u64()),
        (Some("dr-ftg"), Some("FTG\\0"), Some(2))
    );
    let ls = relic().arg("ls").arg(&archive).assert().success();
    let listing = String::from_utf8_lossy(&ls.get_output().stdout).into_owned();
    let rows: Vec<Vec<&str>> = listing.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows, [vec!["7", "README.TXT"], vec!["17", "NOTES.TXT"]], "{listing}");
    // extract → edit as an editor saves (LF) → pack → the edit is in the archive.
    let out = dir.path().join("x");
    relic().args(["extract", "-q", "-o"]).arg(&out).arg(&archive).assert().success();
    std::fs::write(out.join("README.TXT"), b"hello, edited\n").unwrap();
    let packed = dir.path().join("back.ftg");
    relic().args(["pack", "dr-ftg", "-q", "-o"]).arg(&packed).arg(&out).assert().success();
    let again = dir.path().join("y");
    relic().args(["extract", "-q", "-o"]).arg(&again).arg(&packed).assert().success();
    assert_eq!(std::fs::read(again.join("README.TXT")).unwrap(), b"hello, edited\n");
    assert_eq!(std::fs::read(again.join("NOTES.TXT")).unwrap(), b"two lines\r\nhere\r\n");
    // What the archive itself notes (two entries sharing one body) names the archive too.
    let mut shared = ftg_community(&[("A.TXT", b"same"), ("B.TXT", b"same")]);
    shared[12 + 8 + 36 + 28..12 + 8 + 36 + 32].copy_from_slice(&12u32.to_le_bytes());
    let shared_path = dir.path().join("SHARED.FTG");
    std::fs::write(&shared_path, &shared).unwrap();
    let run = relic().args(["convert", "-o"]).arg(dir.path().join("s")).arg(&shared_path).assert().success();
    assert_eq!(
        warnings(&stderr_of(&run)),
        [format!(
            "{}: 1 entries have the very data of an earlier entry (`B.TXT` that of `A.TXT`); each is converted as \
             listed",
            shared_path.display()
        )]
    );
}

#[test]
fn ls_extract_and_check_read_a_file_as_the_format_given() {
    let dir = tempfile::tempdir().unwrap();
    // A camera path has no magic: named otherwise it is no format relic knows, until --format says.
    let camera = dir.path().join("intro.bin");
    std::fs::copy(samples().join("evil_islands/intro.cam"), &camera).unwrap();
    let unknown = relic().args(["check"]).arg(&camera).assert().success();
    assert!(String::from_utf8_lossy(&unknown.get_output().stdout).starts_with("unknown "), "{}", stderr_of(&unknown));
    let checked = json_of(&relic().args(["check", "--json", "--format", "ei-cam"]).arg(&camera).assert().success());
    assert_eq!((checked["identical"].as_u64(), checked["files"][0]["format"].as_str()), (Some(1), Some("ei-cam")));
    // An archive read as the format given (the same listing as identified), and as a wrong one: an error
    // naming the format, exit 1; an unknown id: a usage error with the nearest, exit 2.
    let res = samples().join("evil_islands/example.res");
    let as_given = relic().args(["ls", "--format", "ei-res"]).arg(&res).assert().success().get_output().stdout.clone();
    let identified = relic().arg("ls").arg(&res).assert().success().get_output().stdout.clone();
    assert_eq!(as_given, identified);
    let wrong = relic().args(["ls", "--format", "ro-grf"]).arg(&res).assert().code(1);
    assert!(stderr_of(&wrong).starts_with(&format!("relic: {}: ro-grf", res.display())), "{}", stderr_of(&wrong));
    let typo =
        relic().args(["extract", "--format", "ei-rse", "-o"]).arg(dir.path().join("t")).arg(&res).assert().code(2);
    assert_eq!(stderr_of(&typo), "relic: unknown format `ei-rse`; did you mean `ei-res`?\n");
    let out = dir.path().join("extracted");
    relic().args(["extract", "-q", "--format", "ei-res", "-o"]).arg(&out).arg(&res).assert().success();
    let mut names = files_under(&out);
    names.retain(|n| !n.starts_with('.'));
    assert!(!names.is_empty());
    relic().args(["extract", "-q", "--format", "ro-grf", "-o"]).arg(dir.path().join("g")).arg(&res).assert().code(1);
}
