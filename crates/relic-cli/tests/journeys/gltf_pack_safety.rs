//! What a glTF packs into, checked from the user's side (issue 40): node names that could not be file
//! names become entries `relic extract` writes (renamed, noted); triangles a writer leaves out are counted
//! in one note per reason; each file `pack` writes is reported with its own size; a `.gltf` never reads a
//! file through a link below its folder. The glTFs are written by hand (`relic::testing::hand_gltf`, or
//! JSON built here from the glTF 2.0 specification) and checked with the Khronos validator.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::common::{relic, stderr_of};

/// Validates with the Khronos validator: every file clean, but for the error codes `allowed` (a fixture
/// that is hostile on purpose names the one rule it breaks). Skips when the validator is absent (never
/// under CI).
fn validate(paths: &[&Path], allowed: &[&str]) {
    match relic::testing::validate_gltf(paths) {
        Some(reports) => {
            for r in reports {
                let unexpected: Vec<&String> =
                    r.messages.iter().filter(|m| !allowed.iter().any(|code| m.contains(code))).collect();
                assert!(unexpected.is_empty(), "{}: {:?}", r.path, r.messages);
                for code in allowed {
                    assert!(r.messages.iter().any(|m| m.contains(code)), "{}: {code} not reported", r.path);
                }
            }
        }
        None => {
            crate::common::skip("the glTF validation", "the Khronos validator did not run (the line above says why)")
        }
    }
}

/// The hand-written two-box glTF (`.gltf` and its buffer `bin_name` in `dir`) with `edit` applied to
/// its JSON.
fn hand_gltf(dir: &Path, name: &str, bin_name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let (text, bin) = relic::testing::hand_gltf::box_two_bones_gltf(bin_name);
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    edit(&mut doc);
    let path = dir.join(name);
    std::fs::write(&path, doc.to_string()).unwrap();
    let bin_path = dir.join(bin_name);
    std::fs::create_dir_all(bin_path.parent().unwrap()).unwrap();
    std::fs::write(bin_path, bin).unwrap();
    path
}

/// Entry names as `relic ls --json` lists them, in its order.
fn listed(archive: &Path) -> Vec<String> {
    let out = relic().args(["ls", "--json"]).arg(archive).assert().success().get_output().stdout.clone();
    let v: Value = serde_json::from_slice(&out).unwrap();
    v.as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap().to_string()).collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// The `wrote FILE (N bytes)` lines of a pack, each checked against the file's length on disk.
fn assert_sizes_on_disk(stderr: &str, expected_files: &[&Path]) {
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("wrote ")).collect();
    let want: Vec<String> = expected_files
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let len = std::fs::metadata(p).unwrap().len();
            let beside = if k == 0 { "" } else { " beside it" };
            format!("wrote {} ({len} bytes){beside}", p.display())
        })
        .collect();
    assert_eq!(lines, want, "{stderr}");
}

// ---- names ----------------------------------------------------------------------------------------------

/// Ten node names, eight of which `relic extract` refused as entry names before (and `a/b`, `a\b` would
/// have been one entry), with the name each becomes.
const NAMES: [(&str, &str); 10] = [
    (r"..\..\tmp\evil", ".._.._tmp_evil"),
    ("/etc/evil", "_etc_evil"),
    (r"C:\evil", "C__evil"),
    ("con", "_con"),
    ("..", "._"),
    ("a/b", "a_b"),
    (r"a\b", "a_b_2"),
    ("nul.fig", "_nul.fig"),
    ("name.", "name_"),
    ("body", "body"),
];

#[test]
fn node_names_that_cannot_be_file_names_are_renamed_and_every_entry_extracts() {
    let dir = tempfile::tempdir().unwrap();
    let gltf = hand_gltf(dir.path(), "hand.gltf", "hand.bin", |doc| {
        doc["nodes"] = Value::Array(NAMES.iter().map(|(raw, _)| json!({"name": raw, "mesh": 0})).collect());
        doc["scenes"][0]["nodes"] = json!((0..NAMES.len()).collect::<Vec<_>>());
        doc["animations"][0]["name"] = json!(r"..\wave");
    });
    validate(&[&gltf], &[]);

    let model = dir.path().join("unit.mod");
    let packed = relic().args(["pack", "ei-res"]).arg(&gltf).arg("-o").arg(&model).assert().success();
    let stderr = stderr_of(&packed);
    assert!(
        stderr.contains(
            r#"unit: 9 node name(s) renamed, as relic extract could not write a file under them: ..\..\tmp\evil (`..` path component) → .._.._tmp_evil, /etc/evil (absolute path) → _etc_evil, C:\evil (drive letter) → C__evil, con (`con` is a Windows device name) → _con, and 5 more"#
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(r"unit: 1 clip name(s) renamed, as relic extract could not write a file under them: ..\wave (`..` path component) → .._wave"),
        "{stderr}"
    );
    let mut want: Vec<String> = NAMES.iter().map(|(_, safe)| safe.to_string()).collect();
    want.push("unit".into());
    assert_eq!(sorted(listed(&model)), sorted(want.clone()));
    assert_eq!(listed(&dir.path().join("unit.anm")), vec![".._wave".to_string()]);

    // Every entry extracts, each to its own file.
    let out = dir.path().join("extracted");
    relic().args(["extract", "-q", "-o"]).arg(&out).arg(&model).assert().success();
    let files: Vec<String> =
        relic::testing::files_under(&out).keys().filter(|k| !k.starts_with(".relic")).cloned().collect();
    assert_eq!(sorted(files), sorted(want));
    relic()
        .args(["extract", "-q", "-o"])
        .arg(dir.path().join("clips"))
        .arg(dir.path().join("unit.anm"))
        .assert()
        .success();
    assert!(dir.path().join("clips/.._wave").is_file());

    // The model's own name is the LNK entry the game looks up: one extract could not write is refused.
    let refused =
        relic().args(["pack", "ei-res"]).arg(&gltf).arg("-o").arg(dir.path().join("con.mod")).assert().failure();
    assert!(
        stderr_of(&refused)
            .contains("the model name `con` (`con` is a Windows device name) names the figure's LNK entry"),
        "{}",
        stderr_of(&refused)
    );
    assert!(!dir.path().join("con.mod").exists() && !dir.path().join("con.bon").exists());

    // Converted again, the figure's nodes carry the new names.
    let again = dir.path().join("again");
    relic().args(["convert", "-q", "-o"]).arg(&again).arg(&model).assert().success();
    let glb = again.join("unit.mod.glb");
    validate(&[&glb], &[]);
    let scene = relic::import::gltf::read(&std::fs::read(&glb).unwrap(), &glb).unwrap();
    let names: Vec<String> = scene.nodes.iter().map(|n| n.name.clone()).filter(|n| n != "unit").collect();
    assert_eq!(sorted(names), sorted(NAMES.iter().map(|(_, s)| s.to_string()).collect()));
}

// ---- dropped triangles ----------------------------------------------------------------------------------

/// Two triangles of one mesh skinned to a one-joint skin: the first triangle's corners bound to joint 0,
/// the second's to joint `second_joint` (7 is past the skin: the validator's ACCESSOR_JOINTS_INDEX_OOB).
fn two_triangles_glb(second_joint: u8) -> Vec<u8> {
    let positions: [[f32; 3]; 6] =
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [2.0, 0.0, 0.0], [3.0, 0.0, 0.0], [2.0, 1.0, 0.0]];
    let mut bin: Vec<u8> = positions.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let joints_at = bin.len();
    for v in 0..6 {
        bin.extend_from_slice(&[if v < 3 { 0 } else { second_joint }, 0, 0, 0]);
    }
    let weights_at = bin.len();
    for _ in 0..6 {
        bin.extend([1.0f32, 0.0, 0.0, 0.0].iter().flat_map(|f| f.to_le_bytes()));
    }
    let doc = json!({
        "asset": {"version": "2.0", "generator": "relic tests: written by hand"},
        "scene": 0,
        "scenes": [{"nodes": [0, 1]}],
        "nodes": [{"name": "bone"}, {"name": "skinned", "mesh": 0, "skin": 0}],
        "skins": [{"joints": [0]}],
        "meshes": [{"name": "tri", "primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}}]}],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": joints_at, "target": 34962},
            {"buffer": 0, "byteOffset": joints_at, "byteLength": weights_at - joints_at, "target": 34962},
            {"buffer": 0, "byteOffset": weights_at, "byteLength": bin.len() - weights_at, "target": 34962},
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 6, "type": "VEC3", "min": [0.0, 0.0, 0.0], "max": [3.0, 1.0, 0.0]},
            {"bufferView": 1, "componentType": 5121, "count": 6, "type": "VEC4"},
            {"bufferView": 2, "componentType": 5126, "count": 6, "type": "VEC4"},
        ],
    });
    relic::testing::hand_gltf::glb(doc.to_string().as_bytes(), &bin)
}

/// Triangles of every mesh of a glTF relic wrote.
fn triangle_count(glb: &Path) -> usize {
    let scene = relic::import::gltf::read(&std::fs::read(glb).unwrap(), glb).unwrap();
    scene.meshes.iter().flat_map(|m| &m.primitives).map(|p| p.indices.len() / 3).sum()
}

#[test]
fn a_triangle_bound_past_the_skin_is_counted_where_it_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.glb");
    std::fs::write(&bad, two_triangles_glb(7)).unwrap();
    let good = dir.path().join("good.glb");
    std::fs::write(&good, two_triangles_glb(0)).unwrap();
    // The validator also counts the weight of joint 7 as missing (ACCESSOR_WEIGHTS_NON_NORMALIZED).
    validate(&[&bad], &["ACCESSOR_JOINTS_INDEX_OOB", "ACCESSOR_WEIGHTS_NON_NORMALIZED"]);
    validate(&[&good], &[]);

    // RSM: the triangle goes, and the note says how many of how many, and why.
    let rsm = dir.path().join("bad.rsm");
    let packed = relic().args(["pack", "ro-rsm"]).arg(&bad).arg("-o").arg(&rsm).assert().success();
    let stderr = stderr_of(&packed);
    let note =
        "ro-rsm: 1 of 2 triangles of mesh 0 'tri' (node 1 'skinned') dropped: JOINTS_0 7 is past the skin's 1 joint";
    assert_eq!(stderr.lines().filter(|l| l.contains("dropped: JOINTS_0")).collect::<Vec<_>>(), [note], "{stderr}");
    relic().args(["convert", "-q", "-o"]).arg(dir.path().join("bad-again")).arg(&rsm).assert().success();
    let again = dir.path().join("bad-again/bad.rsm.glb");
    validate(&[&again], &[]);
    assert_eq!(triangle_count(&again), 1);
    // Bound inside the skin, both triangles are written and nothing is said to be dropped.
    let rsm = dir.path().join("good.rsm");
    let packed = relic().args(["pack", "ro-rsm"]).arg(&good).arg("-o").arg(&rsm).assert().success();
    assert!(!stderr_of(&packed).contains("dropped: JOINTS_0"), "{}", stderr_of(&packed));
    relic().args(["convert", "-q", "-o"]).arg(dir.path().join("good-again")).arg(&rsm).assert().success();
    assert_eq!(triangle_count(&dir.path().join("good-again/good.rsm.glb")), 2);

    // Drakan keeps both triangles; the 3 vertices whose joint is past the skin are counted.
    let model = dir.path().join("bad.mod");
    let packed = relic().args(["pack", "drakan-srsc"]).arg(&bad).arg("-o").arg(&model).assert().success();
    let stderr = stderr_of(&packed);
    assert!(
        stderr.contains(
            "3 of 6 skinned vertices are bound to a joint past their skin's (first: mesh 0 `tri` (node 1 `skinned`), \
             primitive 0, JOINTS_0 7 past the skin's 1 joint)"
        ),
        "{stderr}"
    );
    // The EI figure writer refuses such a mesh, naming the vertex (nothing written).
    let figure = dir.path().join("bad-ei.mod");
    let refused = relic().args(["pack", "ei-res"]).arg(&bad).arg("-o").arg(&figure).assert().failure();
    assert!(stderr_of(&refused).contains("vertex 3 is bound to joint 7; the skin has 1"), "{}", stderr_of(&refused));
    assert!(!figure.exists());
}

#[test]
fn a_triangle_list_with_a_partial_triangle_says_what_it_drops() {
    let dir = tempfile::tempdir().unwrap();
    // The body's 36 indices cut to 34: the last 1 (a partial triangle) cannot be drawn.
    let gltf = hand_gltf(dir.path(), "partial.gltf", "partial.bin", |doc| {
        let index = doc["meshes"][0]["primitives"][0]["indices"].as_u64().unwrap() as usize;
        doc["accessors"][index]["count"] = json!(34);
    });
    validate(&[&gltf], &["MESH_PRIMITIVE_INCOMPATIBLE_MODE"]);
    let out = dir.path().join("partial.rsm");
    let packed = relic().args(["pack", "ro-rsm"]).arg(&gltf).arg("-o").arg(&out).assert().success();
    let stderr = stderr_of(&packed);
    assert!(
        stderr.contains(
            "glTF input: meshes[0] `body` primitives[0]: 34 indices are no whole triangles; the last 1 dropped"
        ),
        "{stderr}"
    );
    // 11 whole triangles of the body and the arm's 12 are written.
    relic().args(["convert", "-q", "-o"]).arg(dir.path().join("again")).arg(&out).assert().success();
    let again = dir.path().join("again/partial.rsm.glb");
    validate(&[&again], &[]);
    assert_eq!(triangle_count(&again), 23);
}

// ---- sizes ----------------------------------------------------------------------------------------------

#[test]
fn each_file_a_glb_packs_into_is_reported_with_its_own_size() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("hand.glb");
    std::fs::write(&glb, relic::testing::hand_gltf::box_two_bones_glb()).unwrap();
    validate(&[&glb], &[]);
    let d = dir.path();

    let packed = relic().args(["pack", "ei-res"]).arg(&glb).arg("-o").arg(d.join("unit.mod")).assert().success();
    let files = ["unit.mod", "unit.bon", "unit.anm", "unit.mmp"].map(|n| d.join(n));
    assert_sizes_on_disk(&stderr_of(&packed), &files.iter().map(PathBuf::as_path).collect::<Vec<_>>());
    // The figure's own bytes: not the four files' sum.
    let model_len = std::fs::metadata(d.join("unit.mod")).unwrap().len();
    let sum: u64 = files.iter().map(|p| std::fs::metadata(p).unwrap().len()).sum();
    assert!(model_len < sum);

    let packed = relic().args(["pack", "ro-rsm"]).arg(&glb).arg("-o").arg(d.join("hand.rsm")).assert().success();
    assert_sizes_on_disk(&stderr_of(&packed), &[&d.join("hand.rsm"), &d.join("skin.bmp")]);

    let packed = relic().args(["pack", "drakan-srsc"]).arg(&glb).arg("-o").arg(d.join("Hand.mod")).assert().success();
    assert_sizes_on_disk(&stderr_of(&packed), &[&d.join("Hand.mod"), &d.join("Hand.txd")]);
}

// ---- links ----------------------------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn a_gltf_reads_no_buffer_through_a_linked_folder() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    // The buffer sits outside; `lnk` inside the glTF's folder leads there.
    let gltf = hand_gltf(outside.path(), "unused.gltf", "secret.bin", |_| {});
    std::fs::remove_file(gltf).unwrap();
    std::os::unix::fs::symlink(outside.path(), work.join("lnk")).unwrap();
    let linked =
        hand_gltf(&work, "linked.gltf", "plain/hand.bin", |doc| doc["buffers"][0]["uri"] = json!("lnk/secret.bin"));
    let out = work.join("linked.mod");
    let refused = relic().args(["pack", "ei-res"]).arg(&linked).arg("-o").arg(&out).assert().failure();
    let stderr = stderr_of(&refused);
    let link = std::fs::canonicalize(&work).unwrap().join("lnk");
    assert!(
        stderr.contains(&format!(
            "glTF input: buffers[0].uri `lnk/secret.bin`: refusing to read {}: {} is a link",
            link.join("secret.bin").display(),
            link.display()
        )),
        "{stderr}"
    );
    assert!(!out.exists() && !work.join("linked.bon").exists());
    // The same through `./lnk/` and a percent-escaped name: refused as well.
    let escaped = hand_gltf(&work, "escaped.gltf", "plain/hand.bin", |doc| {
        doc["buffers"][0]["uri"] = json!("./l%6Ek/secret.bin")
    });
    let refused = relic().args(["pack", "ei-res"]).arg(&escaped).arg("-o").arg(&out).assert().failure();
    assert!(stderr_of(&refused).contains(&format!("{} is a link", link.display())), "{}", stderr_of(&refused));
    // A link as the buffer's own name is refused too.
    std::os::unix::fs::symlink(outside.path().join("secret.bin"), work.join("direct.bin")).unwrap();
    let direct =
        hand_gltf(&work, "direct.gltf", "plain/hand.bin", |doc| doc["buffers"][0]["uri"] = json!("direct.bin"));
    let refused = relic().args(["pack", "ei-res"]).arg(&direct).arg("-o").arg(&out).assert().failure();
    assert!(stderr_of(&refused).contains("direct.bin is a link"), "{}", stderr_of(&refused));
    assert!(!out.exists());

    // A plain subfolder is read, and the glTF's own folder may be reached through a link (the user's choice).
    let plain = hand_gltf(&work, "plain.gltf", "plain/hand.bin", |_| {});
    validate(&[&plain], &[]);
    relic().args(["pack", "-q", "ei-res"]).arg(&plain).arg("-o").arg(work.join("plain.mod")).assert().success();
    assert_eq!(sorted(listed(&work.join("plain.mod"))), ["arm", "body", "plain"]);
    std::os::unix::fs::symlink(&work, dir.path().join("via")).unwrap();
    let via = dir.path().join("via/plain.gltf");
    relic().args(["pack", "-q", "ei-res"]).arg(&via).arg("-o").arg(dir.path().join("via.mod")).assert().success();
    assert_eq!(sorted(listed(&dir.path().join("via.mod"))), ["arm", "body", "via"]);
}
