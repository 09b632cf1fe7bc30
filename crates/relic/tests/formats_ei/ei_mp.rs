//! Evil Islands maps (`ei-mp`, with its `ei-sec` sectors): reader, JSON, writer, and the terrain conversion
//! of a hand-made 2 × 1-sector map (see `ei_map/fixtures.rs`: assembled byte by byte from the spec's tables,
//! not by relic's writers) — world-space vertex positions in the scene and in the GLB, tile texture
//! coordinates, the water layer, the 16-bit height map, the `.mpr` archive as a whole, and the Khronos
//! validator on every GLB.

use crate::ei_map_fixtures as fixtures;

use fixtures::*;
use relic::asset::{Asset, NamedAsset, Pixels, Scene};
use relic::codec::float::F32;
use relic::evil_islands::mp::{self, parse, write, AnimatedTile, Mp};
use relic::registry::{sniff, Confidence, ConvertOptions};

fn f(v: f32) -> F32 {
    F32::new(v)
}

/// Height of stored altitude `z` in the fixture map.
fn height(z: u16) -> f32 {
    (f64::from(z) * f64::from(MAX_ALTITUDE) / 65535.0) as f32
}

#[test]
fn header_parses_to_exact_fields() {
    let m: Mp = parse(&mp()).unwrap();
    assert_eq!(m.max_altitude, f(100.0));
    assert_eq!((m.sectors_x, m.sectors_y), (2, 1));
    assert_eq!((m.textures_count, m.texture_size, m.tile_size), (1, 64, 8));
    assert_eq!(m.materials.len(), 2);
    assert_eq!(m.materials[0].kind, 1);
    assert_eq!(m.materials[0].color.g, f(0.375));
    assert_eq!(m.materials[0].wave_multiplier, f(1.0));
    assert_eq!(m.materials[0].unk_0x20.0, (1u8..=12).collect::<Vec<_>>());
    assert_eq!(m.materials[1].kind, 3);
    assert_eq!(m.materials[1].color.a, f(0.625));
    assert_eq!(m.materials[1].self_illumination, f(0.5));
    assert_eq!(m.materials[1].warp_speed, f(1.25));
    assert_eq!(m.tile_types.len(), 64);
    assert_eq!(m.tile_types[17], 1);
    assert_eq!(m.animated_tiles, vec![AnimatedTile { start: 8, length: 4 }, AnimatedTile { start: 20, length: 2 }]);
    assert!(m.trailing.0.is_empty());
}

#[test]
fn json_text_and_bytes_round_trip() {
    let bytes = mp();
    assert_eq!(write(&parse(&bytes).unwrap()).unwrap(), bytes);
    let value = mp::FORMAT.to_json(&bytes).unwrap();
    assert_eq!(value["format"], "ei-mp");
    assert_eq!(value["materials"][1]["type"], 3);
    assert_eq!(value["materials"][1]["color"], serde_json::json!({"r": 0.125, "g": 0.25, "b": 0.75, "a": 0.625}));
    assert_eq!(value["materials"][0]["unk_0x20"], "0102030405060708090a0b0c");
    assert_eq!(value["animated_tiles"][1], serde_json::json!({"start": 20, "length": 2}));
    let text = serde_json::to_string_pretty(&value).unwrap();
    let back = mp::FORMAT.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap();
    assert_eq!(back, bytes);
    // The JSON text of what was written back is the same text.
    let again = serde_json::to_string_pretty(&mp::FORMAT.to_json(&back).unwrap()).unwrap();
    assert_eq!(again, text);
    // Trailing bytes are kept.
    let mut longer = bytes.clone();
    longer.extend(b"tail");
    assert_eq!(mp::FORMAT.from_json(mp::FORMAT.to_json(&longer).unwrap(), &Default::default()).unwrap(), longer);
    // A material's unknown field must stay 12 bytes.
    let mut bad = value.clone();
    bad["materials"][0]["unk_0x20"] = serde_json::json!("0102");
    assert!(mp::FORMAT.from_json(bad, &Default::default()).is_err());
}

#[test]
fn identified_by_magic() {
    let (f, c) = sniff(&mp(), "whatever.bin").unwrap();
    assert_eq!((f.id, c), ("ei-mp", Confidence::Magic));
    // MP has magic: a `.mp` without it is nothing (issue 26: names need bytes that agree).
    assert!(sniff(b"nope", "zone.MP").is_none());
}

#[test]
fn errors_name_the_field_and_offset() {
    let bytes = mp();
    let err = parse(&bytes[..40]).unwrap_err();
    let at = err.location().unwrap();
    assert_eq!((at.format, at.offset), ("ei-mp", 38));
    assert_eq!(at.field, "materials");
    let mut bad = bytes.clone();
    bad[0] = 0;
    assert_eq!(parse(&bad).unwrap_err().location().unwrap().field, "magic");
    // A hostile tile count is refused before anything is allocated.
    let mut huge = bytes;
    huge[24..28].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(parse(&huge), Err(relic::Error::Limit { .. })));
}

/// Converts the fixture map from a folder, through `convert_at` as `relic convert zone.mp` does.
fn convert_folder(names: [&str; 3], opts: &ConvertOptions) -> Vec<NamedAsset> {
    let dir = map_folder(names);
    let path = dir.path().join(names[0]);
    let bytes = std::fs::read(&path).unwrap();
    mp::FORMAT.convert(&relic::registry::ConvertInput::at(&bytes, &path, opts)).unwrap()
}

fn parts(assets: &[NamedAsset]) -> (&Scene, &relic::asset::Image, &serde_json::Value) {
    let find = |name: &str| assets.iter().find(|a| a.name.as_deref() == Some(name)).map(|a| &a.asset);
    let Some(Asset::Scene(scene)) = find("terrain.view") else { panic!("no terrain scene") };
    let Some(Asset::Image(hm)) = find("heightmap.view") else { panic!("no height map") };
    let Some(Asset::Document(doc)) = find(NamedAsset::BESIDE) else { panic!("no document") };
    assert_eq!(assets.len(), 3);
    (scene, hm, &doc.value)
}

fn mesh<'s>(scene: &'s Scene, name: &str) -> &'s relic::asset::Mesh {
    scene.meshes.iter().find(|m| m.name == name).unwrap_or_else(|| panic!("no mesh {name}"))
}

#[test]
fn world_positions_of_known_vertices() {
    let assets = convert_folder(["zone.mp", "zone000000.sec", "zone001000.sec"], &ConvertOptions::default());
    let (scene, _, _) = parts(&assets);
    let land = mesh(scene, "land");
    assert_eq!(land.primitives.len(), 1, "one atlas");
    let p = &land.primitives[0].positions;
    assert_eq!(p.len(), 2 * 256 * 9, "9 vertices per tile, 256 tiles per sector");
    assert_eq!(land.primitives[0].indices.len(), 2 * 256 * 8 * 3, "two triangles per cell");
    // glTF is y-up: the map's (x, y, z) is (x, z, -y).
    // Sector 0, vertex (5, 7), pushed by dx 127 and dy -127 (half a cell each).
    assert!(holds(p, [5.5, height(dry_z(5, 7)), -6.5]), "offset vertex");
    assert!(!holds(p, [5.0, height(dry_z(5, 7)), -7.0]));
    // Sector 0, corner (32, 32).
    assert!(holds(p, [32.0, height(dry_z(32, 32)), -32.0]));
    assert!((height(dry_z(32, 32)) - 53.7224).abs() < 1e-3);
    // Sector 1 (x 1, y 0) starts 32 cells along x: its vertex (4, 6).
    assert!(holds(p, [36.0, height(wet_z(4)), -6.0]));
    assert!(holds(p, [64.0, height(wet_z(32)), -32.0]), "the map's far corner");
    // Heights run from 0 to the max altitude: 65535 would be 100.
    assert!(p.iter().all(|v| (0.0..=100.0).contains(&v[1])));
    // Normals: (0, 0, 1) in the map, up in glTF.
    assert!(land.primitives[0].normals.iter().all(|n| *n == [0.0, 1.0, 0.0]));
}

#[test]
fn water_is_a_second_mesh_over_the_wet_cells() {
    let assets = convert_folder(["zone.mp", "zone000000.sec", "zone001000.sec"], &ConvertOptions::default());
    let (scene, _, _) = parts(&assets);
    let water = mesh(scene, "water");
    assert_eq!(water.primitives.len(), 1, "one water material, one atlas");
    let prim = &water.primitives[0];
    assert_eq!(prim.positions.len(), 128 * 9, "the 8 wet tile rows only");
    // Water vertex (2, 3) of sector 1: dx -3, dy 5 (signed), z 30000.
    let h = height(WATER_Z);
    assert!((h - 45.7771).abs() < 1e-3);
    assert!(holds(&prim.positions, [32.0 + 2.0 - 3.0 / 254.0, h, -(3.0 + 5.0 / 254.0)]));
    // Wet tile rows 0–7 cover cell rows 0–16: no water vertex beyond y = 16 (+ its offset).
    assert!(prim.positions.iter().all(|v| -v[2] <= 16.0 + 5.0 / 254.0 + 1e-4 && v[0] >= 32.0 - 3.0 / 254.0 - 1e-4));
    let material = &scene.materials[prim.material.unwrap()];
    assert!(material.alpha_blend && material.double_sided);
    assert_eq!(material.base_color, [0.125, 0.25, 0.75, 0.625], "water material 1's colour");
    assert_eq!(material.texture, None, "no atlas given");
    let land = &scene.materials[mesh(scene, "land").primitives[0].material.unwrap()];
    assert!(!land.alpha_blend);
}

#[test]
fn tile_texture_coordinates_follow_index_and_rotation() {
    let assets = convert_folder(["zone.mp", "zone000000.sec", "zone001000.sec"], &ConvertOptions::default());
    let (scene, _, _) = parts(&assets);
    let uvs = &mesh(scene, "land").primitives[0].uvs;
    // Tiles are emitted sector by sector, row-major, 9 vertices each (local points row-major: (i, j) at
    // 3j + i). Atlas tile `index` is column index % 8, row index / 8 counted from the image's bottom.
    let uv = |tile: usize, i: usize, j: usize| uvs[tile * 9 + j * 3 + i];
    // Tile 0: index 0, rotation 0: local (0, 0) is the tile's bottom-left, (2, 2) its top-right.
    assert_eq!(uv(0, 0, 0), [0.0, 1.0]);
    assert_eq!(uv(0, 2, 2), [0.125, 0.875]);
    assert_eq!(uv(0, 1, 1), [0.0625, 0.9375]);
    // Tile 1: index 1, one quarter turn: local (0, 0) samples the tile's bottom-right corner.
    assert_eq!(uv(1, 0, 0), [0.25, 1.0]);
    assert_eq!(uv(1, 2, 0), [0.25, 0.875]);
    assert_eq!(uv(1, 0, 2), [0.125, 1.0]);
    // Tile 2: index 2, half a turn: local (0, 0) samples the top-right.
    assert_eq!(uv(2, 0, 0), [0.375, 0.875]);
    // Tile 3: index 3, three quarter turns: local (0, 0) samples the top-left.
    assert_eq!(uv(3, 0, 0), [0.375, 0.875]);
    assert_eq!(uv(3, 2, 0), [0.375, 1.0]);
    // Tile 17 (second tile row): index 17 = column 1, row 2 from the bottom; rotation 1.
    assert_eq!(uv(17, 0, 2), [0.125, 0.75]);
}

#[test]
fn heightmap_holds_the_stored_altitudes() {
    let assets = convert_folder(["zone.mp", "zone000000.sec", "zone001000.sec"], &ConvertOptions::default());
    let (_, hm, doc) = parts(&assets);
    let frame = &hm.frames[0];
    assert_eq!((frame.width, frame.height), (65, 33));
    let Pixels::Gray16(px) = &frame.pixels else { panic!("not 16-bit grey") };
    // The map seen from above: image row 0 is the last vertex row (y = 32), column = x.
    let at = |x: usize, y: usize| px[(32 - y) * 65 + x];
    assert_eq!(at(5, 7), dry_z(5, 7));
    assert_eq!(at(0, 0), 7);
    assert_eq!(at(0, 32), dry_z(0, 32));
    assert_eq!(at(31, 32), dry_z(31, 32));
    assert_eq!(at(32, 5), wet_z(0), "a shared edge takes the sector further along x");
    assert_eq!(at(40, 20), wet_z(8));
    assert_eq!(at(64, 0), wet_z(32));
    assert_eq!(doc["terrain"]["heightmap"]["width"], 65);
    // Through the PNG exporter: 16-bit greyscale with the same values.
    let png = relic::export::export(&Asset::Image(hm.clone()), None, "heightmap").unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(&png[0].bytes)).read_info().unwrap();
    assert_eq!(reader.info().bit_depth, png::BitDepth::Sixteen);
    assert_eq!(reader.info().color_type, png::ColorType::Grayscale);
    let mut buf = vec![0; reader.output_buffer_size()];
    reader.next_frame(&mut buf).unwrap();
    let value = |x: usize, row: usize| u16::from_be_bytes([buf[(row * 65 + x) * 2], buf[(row * 65 + x) * 2 + 1]]);
    assert_eq!(value(5, 32 - 7), dry_z(5, 7));
    assert_eq!(value(64, 32), wet_z(32));
}

#[test]
fn document_holds_materials_animated_tiles_and_packs_back() {
    let assets = convert_folder(["zone.mp", "zone000000.sec", "zone001000.sec"], &ConvertOptions::default());
    let (_, _, doc) = parts(&assets);
    assert_eq!(doc["format"], "ei-mp");
    assert_eq!(doc["materials"][1]["type"], 3);
    assert_eq!(doc["materials"][1]["wave_multiplier"], 0.5);
    assert_eq!(doc["animated_tiles"][0], serde_json::json!({"start": 8, "length": 4}));
    assert_eq!(doc["terrain"]["sectors_found"], 2);
    assert_eq!(doc["terrain"]["sectors_missing"], 0);
    assert_eq!(doc["terrain"]["atlases"][0], serde_json::json!({"file": "zone000.mmp", "found": false}));
    // The conversion document is the MP's own document plus the summary: it packs back to the file.
    assert_eq!(mp::FORMAT.from_json(doc.clone(), &Default::default()).unwrap(), mp());
}

#[test]
fn sector_names_match_in_any_case_and_missing_sectors_are_noted() {
    let opts = ConvertOptions::default();
    let assets = convert_folder(["ZONE.MP", "ZONE000000.SEC", "Zone001000.Sec"], &opts);
    let (scene, _, _) = parts(&assets);
    assert_eq!(mesh(scene, "land").primitives[0].positions.len(), 2 * 256 * 9);
    assert!(opts.notes.lock().unwrap().iter().any(|n| n.contains("zone000.mmp") || n.contains("ZONE000.mmp")));

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zone.mp");
    std::fs::write(&path, mp()).unwrap();
    std::fs::write(dir.path().join("zone001000.sec"), wet_sec()).unwrap();
    let opts = ConvertOptions::default();
    let assets = mp::FORMAT.convert(&relic::registry::ConvertInput::at(&mp(), &path, &opts)).unwrap();
    let (scene, hm, doc) = parts(&assets);
    assert_eq!(mesh(scene, "land").primitives[0].positions.len(), 256 * 9);
    assert_eq!(doc["terrain"]["missing"], serde_json::json!(["zone000000.sec"]));
    // The height map covers the sectors present only: sector (1, 0), cropped with a note.
    assert_eq!((hm.frames[0].width, hm.frames[0].height), (33, 33));
    assert_eq!(doc["terrain"]["heightmap"]["first_sector"], serde_json::json!([1, 0]));
    assert_eq!(doc["terrain"]["heightmap"]["sectors"], serde_json::json!([1, 1]));
    let notes = opts.notes.lock().unwrap();
    assert!(notes.iter().any(|n| n.contains("1 of 2 sectors not found")), "{notes:?}");
    assert!(
        notes.iter().any(|n| n
            == "zone: the height map covers only the sectors present, 1 × 1 from sector (1, 0) \
                                   (of the map's 2 × 1): its bottom-left pixel is cell (32, 0)"),
        "{notes:?}"
    );
    drop(notes);

    // Without a path (no sectors), only the document.
    let opts = ConvertOptions::default();
    let only = mp::FORMAT.convert(&relic::registry::ConvertInput::new(&mp(), &opts)).unwrap();
    assert!(matches!(only.as_slice(), [NamedAsset { name: None, asset: Asset::Document(_) }]));
    assert!(!opts.notes.lock().unwrap().is_empty());
}

/// An ARGB8 64 × 64 atlas through relic's MMP writer (the atlas is not what these tests check).
fn atlas_mmp() -> Vec<u8> {
    let rgba: Vec<u8> = (0..64 * 64).flat_map(|i| [(i % 64 * 4) as u8, (i / 64 * 4) as u8, 128, 255]).collect();
    relic::evil_islands::mmp::encode(&rgba, 64, 64, relic::evil_islands::mmp::PixelFormat::Argb8, false).unwrap()
}

fn check_textured(scene: &Scene) {
    assert_eq!(scene.textures.len(), 1);
    assert_eq!(scene.textures[0].name.to_lowercase(), "zone000.mmp");
    assert_eq!(scene.textures[0].image.frames[0].width, 64);
    let land = &scene.materials[mesh(scene, "land").primitives[0].material.unwrap()];
    assert_eq!((land.texture, land.base_color), (Some(0), [1.0; 4]));
    let water = &scene.materials[mesh(scene, "water").primitives[0].material.unwrap()];
    assert_eq!((water.texture, water.base_color), (Some(0), [1.0, 1.0, 1.0, 0.625]));
}

#[test]
fn atlases_are_embedded_from_beside_a_folder_or_a_res() {
    // Beside the map.
    let dir = map_folder(["zone.mp", "zone000000.sec", "zone001000.sec"]);
    std::fs::write(dir.path().join("ZONE000.MMP"), atlas_mmp()).unwrap();
    let path = dir.path().join("zone.mp");
    let assets =
        mp::FORMAT.convert(&relic::registry::ConvertInput::at(&mp(), &path, &ConvertOptions::default())).unwrap();
    check_textured(parts(&assets).0);
    assert_eq!(parts(&assets).2["terrain"]["atlases"][0]["found"], true);

    // In a --textures folder (searched below its top).
    let dir = map_folder(["zone.mp", "zone000000.sec", "zone001000.sec"]);
    let textures = tempfile::tempdir().unwrap();
    std::fs::create_dir(textures.path().join("terrain")).unwrap();
    std::fs::write(textures.path().join("terrain/zone000.mmp"), atlas_mmp()).unwrap();
    let opts = ConvertOptions { textures: Some(textures.path().to_path_buf()), ..Default::default() };
    let assets =
        mp::FORMAT.convert(&relic::registry::ConvertInput::at(&mp(), &dir.path().join("zone.mp"), &opts)).unwrap();
    check_textured(parts(&assets).0);

    // In a --textures RES archive (as the game's textures.res).
    let mut res = Vec::new();
    let input = |name: &str, data: Vec<u8>| relic::evil_islands::res::PackInput {
        name: name.as_bytes().to_vec(),
        modified: 0,
        source: relic::evil_islands::res::PackSource::Bytes(data),
    };
    relic::evil_islands::res::write_archive(
        vec![input("other.mmp", vec![1, 2, 3]), input("Zone000.mmp", atlas_mmp())],
        Default::default(),
        &mut res,
    )
    .unwrap();
    let res_path = textures.path().join("textures.res");
    std::fs::write(&res_path, res).unwrap();
    let opts = ConvertOptions { textures: Some(res_path), ..Default::default() };
    let assets =
        mp::FORMAT.convert(&relic::registry::ConvertInput::at(&mp(), &dir.path().join("zone.mp"), &opts)).unwrap();
    let scene = parts(&assets).0;
    check_textured(scene);
    let glb = relic::export::gltf::to_glb(scene).unwrap();
    let path = dir.path().join("textured.glb");
    std::fs::write(&path, &glb).unwrap();
    validate(&[&path]);
}

/// The `.mpr` RES of the game, upper-case names.
fn mpr() -> Vec<u8> {
    let input = |name: &str, data: Vec<u8>| relic::evil_islands::res::PackInput {
        name: name.as_bytes().to_vec(),
        modified: 985_950_276,
        source: relic::evil_islands::res::PackSource::Bytes(data),
    };
    let mut out = Vec::new();
    relic::evil_islands::res::write_archive(
        vec![input("ZONE.MP", mp()), input("ZONE000000.SEC", dry_sec()), input("ZONE001000.SEC", wet_sec())],
        Default::default(),
        &mut out,
    )
    .unwrap();
    out
}

#[test]
fn an_mpr_converts_as_a_whole_map_and_lists_as_a_res() {
    let bytes = mpr();
    let (format, _) = sniff(&bytes, "zone.mpr").unwrap();
    assert_eq!(format.id, "ei-res");
    let codec = format.for_name("maps/zone.mpr");
    assert!(codec.converts_whole());
    assert!(!format.for_name("other.res").converts_whole(), "other RES files convert entry by entry");
    // Its other faces are the RES format's.
    assert_eq!(codec.entries(&bytes, "zone.mpr").unwrap().unwrap().len(), 3);
    assert_eq!(codec.info(&bytes).unwrap()["entries"], 3);
    assert_eq!(codec.from_json(codec.to_json(&bytes).unwrap(), &Default::default()).unwrap(), bytes);

    let from_mpr = codec.convert(&relic::registry::ConvertInput::new(&bytes, &ConvertOptions::default())).unwrap();
    let from_folder = convert_folder(["zone.mp", "zone000000.sec", "zone001000.sec"], &ConvertOptions::default());
    let (a, ha, _) = parts(&from_mpr);
    let (b, hb, _) = parts(&from_folder);
    assert_eq!(mesh(a, "land").primitives[0].positions, mesh(b, "land").primitives[0].positions);
    assert_eq!(mesh(a, "water").primitives[0].positions, mesh(b, "water").primitives[0].positions);
    assert_eq!(ha.frames[0].pixels, hb.frames[0].pixels);
}

#[test]
fn relic_convert_writes_the_glb_heightmap_and_document_and_they_validate() {
    use relic::ops::{convert, ConvertRequest};
    let dir = map_folder(["zone.mp", "zone000000.sec", "zone001000.sec"]);
    std::fs::write(dir.path().join("zone.mpr"), mpr()).unwrap();
    let out = tempfile::tempdir().unwrap();
    let req = ConvertRequest::default();
    let inputs = [dir.path().join("zone.mp"), dir.path().join("zone.mpr"), dir.path().join("zone000000.sec")];
    let report = convert(&inputs, out.path(), &req, &relic::ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let mut written: Vec<String> = report
        .outputs
        .iter()
        .map(|o| o.output.strip_prefix(&*out.path().to_string_lossy()).unwrap().replace('\\', "/"))
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            "/zone.mp.json",
            "/zone.mp/heightmap.view.png",
            "/zone.mp/terrain.view.glb",
            "/zone.mpr.json",
            "/zone.mpr/heightmap.view.png",
            "/zone.mpr/terrain.view.glb",
            "/zone000000.sec.glb"
        ]
    );
    let glbs = [
        out.path().join("zone.mp/terrain.view.glb"),
        out.path().join("zone.mpr/terrain.view.glb"),
        out.path().join("zone000000.sec.glb"),
    ];
    // World positions read back from the GLB's accessors.
    let (doc, bin) = read_glb(&std::fs::read(&glbs[0]).unwrap());
    let land = doc["meshes"].as_array().unwrap().iter().find(|m| m["name"] == "land").unwrap();
    let positions = accessor::<3>(&doc, &bin, land["primitives"][0]["attributes"]["POSITION"].as_u64().unwrap());
    assert!(holds(&positions, [5.5, height(dry_z(5, 7)), -6.5]));
    assert!(holds(&positions, [36.0, height(wet_z(4)), -6.0]));
    let water = doc["meshes"].as_array().unwrap().iter().find(|m| m["name"] == "water").unwrap();
    let material = &doc["materials"][water["primitives"][0]["material"].as_u64().unwrap() as usize];
    assert_eq!(material["alphaMode"], "BLEND");
    let paths: Vec<&std::path::Path> = glbs.iter().map(|p| p.as_path()).collect();
    validate(&paths);
}

#[test]
fn a_bad_sector_is_left_out_with_a_note_and_to_png_gives_the_heightmap() {
    use relic::ops::{convert, ConvertRequest};
    let dir = map_folder(["zone.mp", "zone000000.sec", "zone001000.sec"]);
    std::fs::write(dir.path().join("zone001000.sec"), &wet_sec()[..100]).unwrap();
    let out = tempfile::tempdir().unwrap();
    let req = ConvertRequest { to: Some("png".into()), ..Default::default() };
    relic::ops::check_convert_request(&[dir.path().join("zone.mp")], &req).unwrap();
    let report = convert(&[dir.path().join("zone.mp")], out.path(), &req, &relic::ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert_eq!(report.outputs.len(), 1);
    assert!(report.outputs[0].output.ends_with("heightmap.view.png"), "{:?}", report.outputs);
    let notes = req.options.notes.lock().unwrap();
    assert!(notes.iter().any(|n| n.contains("zone001000.sec left out")), "{notes:?}");
    // The height map covers the sectors found: sector 0 only.
    let png = std::fs::read(&report.outputs[0].output).unwrap();
    let reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (33, 33));
}

#[test]
fn the_sample_map_converts_and_every_glb_validates() {
    use relic::ops::{convert, ConvertRequest};
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/evil_islands");
    let inputs = ["isle.mp", "isle000000.sec", "isle001000.sec"].map(|n| samples.join(n));
    let out = tempfile::tempdir().unwrap();
    let req = ConvertRequest::default();
    let report = convert(&inputs, out.path(), &req, &relic::ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let glbs = ["isle.mp/terrain.view.glb", "isle000000.sec.glb", "isle001000.sec.glb"].map(|n| out.path().join(n));
    let (doc, bin) = read_glb(&std::fs::read(&glbs[0]).unwrap());
    assert_eq!(doc["nodes"][0]["name"], "isle");
    let water = doc["meshes"].as_array().unwrap().iter().find(|m| m["name"] == "water").unwrap();
    let positions = accessor::<3>(&doc, &bin, water["primitives"][0]["attributes"]["POSITION"].as_u64().unwrap());
    assert_eq!(positions.len(), 60 * 9, "the lake's 60 tiles in sector 1");
    let lake = (6000.0 * 40.0 / 65535.0) as f32;
    assert!(positions.iter().all(|p| (p[1] - lake).abs() < 1e-4 && p[0] >= 32.0));
    let heightmap =
        png::Decoder::new(std::io::Cursor::new(std::fs::read(out.path().join("isle.mp/heightmap.view.png")).unwrap()));
    let reader = heightmap.read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (65, 33));
    let paths: Vec<&std::path::Path> = glbs.iter().map(|p| p.as_path()).collect();
    validate(&paths);
}
