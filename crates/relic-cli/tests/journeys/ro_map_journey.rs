//! A user's journey with a Ragnarok map through the `relic` binary (issue 39): `relic convert map.rsw`
//! gives a glTF that a renderer lights as the client does (the sun and the point lights in
//! `KHR_lights_punctual`'s photometric units, at the intensities the `ro-rsw` scene module documents), with
//! no walkability overlay over the ground unless `--option ro-rsw.walkability=scene|file` asks for it, and
//! smooth normals and the lightmap's colours on the ground; a light edited in the map's JSON packs back
//! and the next conversion lights with it; and every glTF relic writes of a real map or model (the samples,
//! the corpus' RSM/RSM2 with their GRF of textures, a hand-made GND 1.7 with nothing drawn, which gave a
//! mesh without primitives) passes the Khronos validator.

use std::path::{Path, PathBuf};

use relic::ragnarok::rsw::scene::{POINT_CANDELA_PER_RANGE_SQUARED, SUN_LUX};
use serde_json::Value;

use crate::common::relic;

fn samples() -> PathBuf {
    crate::common::samples().join("ragnarok")
}

/// The sample map (`map.rsw` with its `map.gnd`, `map.gat` and `pyramid.rsm`) copied into a folder.
fn sample_map(dir: &Path) -> PathBuf {
    for name in ["map.rsw", "map.gnd", "map.gat", "pyramid.rsm"] {
        std::fs::copy(samples().join(name), dir.join(name)).unwrap();
    }
    dir.join("map.rsw")
}

/// Written files (the manifest of `relic convert --json`).
fn convert(input: &Path, out: &Path, extra: &[&str]) -> Vec<PathBuf> {
    let assert =
        relic().args(["convert", "--json", "--force", "-o"]).arg(out).args(extra).arg(input).assert().success();
    let manifest: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    manifest["outputs"].as_array().unwrap().iter().map(|o| PathBuf::from(o["output"].as_str().unwrap())).collect()
}

fn named<'a>(files: &'a [PathBuf], name: &str) -> &'a Path {
    files.iter().find(|p| p.file_name().is_some_and(|n| n == name)).unwrap_or_else(|| panic!("{name} in {files:?}"))
}

/// The JSON chunk of a GLB.
fn glb_json(path: &Path) -> Value {
    let glb = std::fs::read(path).unwrap();
    assert_eq!(&glb[..4], b"glTF");
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + len]).unwrap()
}

fn root_names(doc: &Value) -> Vec<String> {
    let nodes = doc["nodes"].as_array().unwrap();
    doc["scenes"][0]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| nodes[r.as_u64().unwrap() as usize]["name"].as_str().unwrap().to_string())
        .collect()
}

/// Names of every node and mesh of a glTF.
fn every_name(doc: &Value) -> Vec<String> {
    let mut names = Vec::new();
    for list in ["nodes", "meshes", "materials"] {
        for item in doc[list].as_array().into_iter().flatten() {
            names.extend(item["name"].as_str().map(str::to_string));
        }
    }
    names
}

/// The Khronos validator over `paths`: no error and no warning. Skips (and fails under CI) without it.
fn assert_valid(paths: &[PathBuf]) {
    let paths: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let Some(reports) = relic::testing::validate_gltf(&paths) else {
        crate::common::skip("the glTF validation", "the Khronos validator did not run (the line above says why)");
        return;
    };
    assert_eq!(reports.len(), paths.len());
    for r in reports {
        assert_eq!((r.errors, r.warnings), (0, 0), "{}: {:#?}", r.path, r.messages);
    }
}

/// Colour scaled into 0..1 and the scale (the largest component when over 1), as the module doc says.
fn colour_and_scale(c: [f32; 3]) -> ([f32; 3], f32) {
    let max = c.iter().copied().fold(0.0f32, f32::max);
    if max > 1.0 {
        (c.map(|x| x / max), max)
    } else {
        (c, 1.0)
    }
}

fn f32s(v: &Value) -> Vec<f32> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect()
}

#[test]
fn a_map_is_lit_like_the_client_without_its_overlay_and_an_edited_light_packs_back() {
    let dir = tempfile::tempdir().unwrap();
    let map = sample_map(dir.path());
    let files = convert(&map, &dir.path().join("out"), &[]);
    // The document and the map's glTF: no overlay file, no overlay node, mesh or material.
    let mut names: Vec<String> =
        files.iter().map(|p| p.strip_prefix(dir.path().join("out")).unwrap().display().to_string()).collect();
    names.sort();
    assert_eq!(names, ["map.rsw.glb", "map.rsw.json"]);
    let glb = named(&files, "map.rsw.glb").to_path_buf();
    let doc = glb_json(&glb);
    assert_eq!(root_names(&doc), ["ground", "water", "models", "lights", "sounds", "effects"]);
    assert!(!every_name(&doc).iter().any(|n| n.contains("walkability")), "{:?}", every_name(&doc));

    // The lights, from the map's own fields, in the units and at the intensities the docs state.
    let rsw: Value = serde_json::from_slice(&std::fs::read(named(&files, "map.rsw.json")).unwrap()).unwrap();
    let sources: Vec<&Value> = rsw["objects"].as_array().unwrap().iter().filter(|o| o["type"] == "light").collect();
    assert!(!sources.is_empty(), "the sample map has a point light: {rsw:#}");
    let lights = doc["extensions"]["KHR_lights_punctual"]["lights"].as_array().unwrap();
    let points: Vec<&Value> = lights.iter().filter(|l| l["type"] == "point").collect();
    assert_eq!(points.len(), sources.len());
    for (light, source) in points.iter().zip(&sources) {
        let c = f32s(&source["color"]);
        let (colour, scale) = colour_and_scale([c[0], c[1], c[2]]);
        let range = source["range"].as_f64().unwrap() as f32;
        assert_eq!(f32s(&light["color"]), colour);
        assert_eq!(light["range"].as_f64().unwrap() as f32, range);
        let cd = light["intensity"].as_f64().unwrap() as f32;
        assert_eq!(cd, scale * POINT_CANDELA_PER_RANGE_SQUARED * range * range);
        // At half its range, facing it, a white surface gets π × half its colour's scale in W/m² (Blender's
        // conversion, cd / 683 / d²): the radiance of half the colour.
        let irradiance = cd / 683.0 / (range / 2.0).powi(2);
        assert!((irradiance - std::f32::consts::PI * scale / 2.0).abs() < 1e-3, "{irradiance}");
    }
    let sun = lights.iter().find(|l| l["type"] == "directional").expect("the sun");
    let d = f32s(&rsw["light"]["diffuse"]);
    let (colour, scale) = colour_and_scale([d[0], d[1], d[2]]);
    assert_eq!(f32s(&sun["color"]), colour);
    let lux = sun["intensity"].as_f64().unwrap() as f32;
    assert_eq!(lux, scale * SUN_LUX);
    // A few thousand lux: 2 to 5 W/m² in Blender terms for a diffuse of at most 1 (π here).
    assert!((2.0..=5.0).contains(&(lux / 683.0 / scale)), "{lux} lux");

    // The ground has smooth normals (unit, facing up on a top surface) and its baked colours.
    let ground_mesh = doc["meshes"].as_array().unwrap().iter().find(|m| m["name"] == "ground").unwrap();
    for p in ground_mesh["primitives"].as_array().unwrap() {
        for attribute in ["POSITION", "NORMAL", "TEXCOORD_0", "COLOR_0"] {
            assert!(p["attributes"].get(attribute).is_some(), "{attribute} in {p}");
        }
    }
    assert_valid(&[glb]);

    // Edit the first point light in the JSON as an editor re-saves it (another layout, a new range and
    // colour), pack, convert again: the light is drawn with its new intensity.
    let mut edited = rsw.clone();
    let at = edited["objects"].as_array().unwrap().iter().position(|o| o["type"] == "light").unwrap();
    edited["objects"][at]["range"] = serde_json::json!(80.0);
    edited["objects"][at]["color"] = serde_json::json!([3.0, 1.5, 0.0]);
    let json = dir.path().join("edited.json");
    std::fs::write(&json, serde_json::to_string(&edited).unwrap()).unwrap();
    let packed = dir.path().join("map.rsw");
    relic().args(["pack", "ro-rsw", "--force", "-o"]).arg(&packed).arg(&json).assert().success();
    let files = convert(&packed, &dir.path().join("out2"), &[]);
    let doc = glb_json(named(&files, "map.rsw.glb"));
    let light = doc["extensions"]["KHR_lights_punctual"]["lights"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["type"] == "point")
        .unwrap()
        .clone();
    assert_eq!(f32s(&light["color"]), [1.0, 0.5, 0.0]);
    assert_eq!(light["range"].as_f64(), Some(80.0));
    assert_eq!(light["intensity"].as_f64().unwrap() as f32, 3.0 * POINT_CANDELA_PER_RANGE_SQUARED * 80.0 * 80.0);
    // And the unedited document still packs back byte for byte.
    let again = dir.path().join("again.rsw");
    relic().args(["pack", "ro-rsw", "-o"]).arg(&again).arg(named(&files, "map.rsw.json")).assert().success();
    assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&packed).unwrap());
}

#[test]
fn the_overlay_is_a_file_of_its_own_or_in_the_scene_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let map = sample_map(dir.path());

    // `file`: its own glTF in the map's folder, the map's glTF without it.
    let files = convert(&map, &dir.path().join("file"), &["--option", "ro-rsw.walkability=file"]);
    let overlay = dir.path().join("file/map.rsw/walkability.glb");
    assert!(files.contains(&overlay), "{files:?}");
    let doc = glb_json(&overlay);
    assert_eq!(root_names(&doc), ["walkability"]);
    assert_eq!(doc["meshes"].as_array().unwrap().len(), 1);
    // One quad per GAT cell (the sample's 4 × 5 cells), unlit, half transparent.
    let gat: Value = serde_json::from_slice(
        &relic().args(["info", "--json"]).arg(dir.path().join("map.gat")).assert().success().get_output().stdout,
    )
    .unwrap();
    let cells = gat["width"].as_u64().unwrap() * gat["height"].as_u64().unwrap();
    let position = doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"].as_u64().unwrap() as usize;
    assert_eq!(doc["accessors"][position]["count"].as_u64(), Some(4 * cells));
    assert_eq!(doc["materials"][0]["alphaMode"], "BLEND");
    assert!(doc["materials"][0]["extensions"].get("KHR_materials_unlit").is_some());
    let map_glb = named(&files, "map.rsw.glb").to_path_buf();
    assert!(!every_name(&glb_json(&map_glb)).iter().any(|n| n.contains("walkability")));

    // `scene`: the root `walkability` of the map's glTF (what `relic view` toggles), no file of its own.
    let files = convert(&map, &dir.path().join("scene"), &["--option", "ro-rsw.walkability=scene"]);
    assert!(!dir.path().join("scene/map.rsw").exists(), "{files:?}");
    let scene_glb = named(&files, "map.rsw.glb").to_path_buf();
    let doc = glb_json(&scene_glb);
    assert_eq!(root_names(&doc), ["ground", "water", "models", "lights", "sounds", "effects", "walkability"]);

    // `off` is the default; anything else is a usage error naming the choices.
    let files = convert(&map, &dir.path().join("off"), &["--option", "ro-rsw.walkability=off"]);
    assert_eq!(files.len(), 2);
    let assert = relic()
        .args(["convert", "--option", "ro-rsw.walkability=maybe", "-o"])
        .arg(dir.path().join("bad"))
        .arg(&map)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("ro-rsw.walkability") && stderr.contains("scene"), "{stderr}");
    assert_valid(&[overlay, map_glb, scene_glb]);
}

// ---------------------------------------------------------------------------------------------------------
// A GND 1.7 written here from the layout (GND.MD, roBrowser's `Loaders/Ground.js`): 2 × 2 cubes, a texture
// and a surface that no cube names, so nothing is drawn (the property of roBrowser's test ground that
// made relic write a mesh without primitives).

fn i32s(out: &mut Vec<u8>, v: &[i32]) {
    out.extend(v.iter().flat_map(|x| x.to_le_bytes()));
}

fn nothing_drawn_gnd() -> Vec<u8> {
    let mut out = b"GRGN\x01\x07".to_vec();
    i32s(&mut out, &[2, 2]);
    out.extend(10f32.to_le_bytes());
    i32s(&mut out, &[1, 80]);
    let mut name = b"grass.bmp".to_vec();
    name.resize(80, 0);
    out.extend(name);
    i32s(&mut out, &[1, 8, 8, 1]);
    out.extend([255u8; 64]);
    out.extend([0u8; 192]);
    i32s(&mut out, &[1]);
    for f in [0.0f32, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0] {
        out.extend(f.to_le_bytes());
    }
    out.extend(0i16.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out.extend([255u8; 4]);
    for _ in 0..4 {
        for h in [0.0f32; 4] {
            out.extend(h.to_le_bytes());
        }
        i32s(&mut out, &[-1, -1, -1]);
    }
    out
}

/// An RSW 1.2 naming `empty.gnd` and no GAT that exists, with no objects.
fn empty_rsw() -> Vec<u8> {
    let mut out = b"GRSW\x01\x02".to_vec();
    for n in ["empty.ini", "empty.gnd", "empty.gat"] {
        let mut b = n.as_bytes().to_vec();
        b.resize(40, 0);
        out.extend(b);
    }
    i32s(&mut out, &[0]);
    out
}

#[test]
fn every_real_map_and_model_conversion_passes_the_validator() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut glbs = Vec::new();
    let mut glbs_of = |files: Vec<PathBuf>| {
        let found: Vec<PathBuf> = files.into_iter().filter(|f| f.extension().is_some_and(|e| e == "glb")).collect();
        assert!(!found.is_empty());
        glbs.extend(found);
    };

    // The ground with nothing drawn: a `ground` node without a mesh, no mesh without primitives.
    let gnd = dir.path().join("empty.gnd");
    std::fs::write(&gnd, nothing_drawn_gnd()).unwrap();
    let files = convert(&gnd, &out.join("empty-gnd"), &[]);
    let doc = glb_json(named(&files, "ground.view.glb"));
    assert_eq!(root_names(&doc), ["ground"]);
    assert!(doc["nodes"][0].get("mesh").is_none() && doc.get("meshes").is_none(), "{doc:#}");
    glbs_of(files);
    std::fs::write(dir.path().join("empty.rsw"), empty_rsw()).unwrap();
    let files = convert(&dir.path().join("empty.rsw"), &out.join("empty-rsw"), &[]);
    assert!(glb_json(named(&files, "empty.rsw.glb")).get("meshes").is_none());
    glbs_of(files);

    // The samples: the map in each overlay mode, its ground alone, the models.
    let map = sample_map(dir.path());
    for mode in ["off", "scene", "file"] {
        let option = format!("ro-rsw.walkability={mode}");
        glbs_of(convert(&map, &out.join(format!("map-{mode}")), &["--option", &option]));
    }
    for name in ["map.gnd", "pyramid.rsm", "pyramid.rsm2"] {
        glbs_of(convert(&samples().join(name), &out.join(name), &[]));
    }

    // The corpus: every RSM and RSM2 with its textures from the GRF.
    let corpus = crate::common::corpus_root().join("ragnarok");
    if corpus.is_dir() {
        let grf = corpus.join("goldberg_textures.grf");
        let mut models = 0;
        for entry in std::fs::read_dir(&corpus).unwrap() {
            let path = entry.unwrap().path();
            if !path.extension().is_some_and(|e| e == "rsm" || e == "rsm2") {
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            glbs_of(convert(&path, &out.join(&name), &["--textures", grf.to_str().unwrap()]));
            models += 1;
        }
        assert_eq!(models, 7);
    } else {
        eprintln!("skipped the corpus models: ../shared/corpus/ragnarok not found");
    }
    assert_valid(&glbs);
}
