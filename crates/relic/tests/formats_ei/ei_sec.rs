//! Evil Islands SEC files (`ei-sec`): reader, JSON, writer, and a sector converted on its own. The fixtures
//! (`ei_map/fixtures.rs`) are assembled byte by byte from the spec's tables, not by relic's writers.

use crate::ei_map_fixtures as fixtures;

use fixtures::*;
use relic::asset::{Asset, NamedAsset, Scene};
use relic::evil_islands::sec::{self, parse, write, Sec, Tile};
use relic::registry::{sniff, Confidence, ConvertOptions};
use relic::testing::check_robustness;

#[test]
fn dry_sector_parses_to_exact_layers() {
    let s: Sec = parse(&dry_sec()).unwrap();
    assert_eq!(s.liquids, 0);
    assert!(s.water.is_none());
    assert_eq!(s.vertices.len(), 1089);
    let v = s.vertices[7 * 33 + 5];
    assert_eq!((v.dx, v.dy, v.z, v.normal), (127, -127, dry_z(5, 7), UP));
    assert_eq!(v.unpacked_normal(), [0.0, 0.0, 1.0]);
    assert_eq!(s.vertices[33 * 33 - 1].z, dry_z(32, 32));
    assert_eq!(s.tiles.len(), 256);
    assert_eq!((s.tiles[70].index(), s.tiles[70].texture(), s.tiles[70].rotation()), (6, 0, 2));
}

#[test]
fn wet_sector_parses_its_water_layer() {
    let s = parse(&wet_sec()).unwrap();
    assert_eq!(s.liquids, 3);
    let w = s.water.as_ref().unwrap();
    assert_eq!((w.vertices[40].dx, w.vertices[40].dy, w.vertices[40].z), (-3, 5, WATER_Z));
    assert_eq!(w.tiles[0], Tile::new(9, 0, 1).unwrap());
    assert_eq!(w.tiles[255], Tile(0xFFFF));
    assert_eq!((w.materials[127], w.materials[128]), (1, 0xFFFF));
    assert_eq!(s.vertices[32].z, wet_z(32));
}

#[test]
fn json_text_and_bytes_round_trip() {
    for bytes in [dry_sec(), wet_sec()] {
        assert_eq!(write(&parse(&bytes).unwrap()).unwrap(), bytes);
        let value = sec::FORMAT.to_json(&bytes).unwrap();
        assert_eq!(value["format"], "ei-sec");
        let text = serde_json::to_string_pretty(&value).unwrap();
        let back = sec::FORMAT.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap();
        assert_eq!(back, bytes);
        let again = serde_json::to_string_pretty(&sec::FORMAT.to_json(&back).unwrap()).unwrap();
        assert_eq!(again, text);
    }
    let value = sec::FORMAT.to_json(&wet_sec()).unwrap();
    // Laid out as the sector: 33 rows (y) of 33 values (x) per vertex field, 16 rows of 16 tiles.
    assert_eq!(value["land"]["z"][1][7], wet_z(7));
    assert_eq!(value["land"]["z"][32].as_array().unwrap().len(), 33);
    assert_eq!(value["land"]["normal"][1][7], UP);
    assert_eq!(value["water"]["dx"][4][5], -3);
    assert_eq!(value["water"]["dy"][4][5], 5);
    assert_eq!(value["water"]["tiles"][0][0], serde_json::json!({"index": 9, "texture": 0, "rotation": 1}));
    assert_eq!(value["water"]["tiles"][15][15], serde_json::json!({"index": 63, "texture": 255, "rotation": 3}));
    assert_eq!(value["water"]["materials"][7][15], 1);
    assert_eq!(value["water"]["materials"][15][15], 65535);
    let dry = sec::FORMAT.to_json(&dry_sec()).unwrap();
    assert_eq!((dry["land"]["dx"][7][5].clone(), dry["land"]["dy"][7][5].clone()), (127.into(), (-127).into()));
    assert_eq!(dry["land"]["z"][7][5], dry_z(5, 7));
    assert!(dry.get("water").is_none());
    // What the packed u16 cannot hold is refused, as is a water layer the liquids byte does not announce.
    let mut bad = value.clone();
    bad["land"]["tiles"][0][0]["rotation"] = serde_json::json!(4);
    assert!(sec::FORMAT.from_json(bad, &Default::default()).is_err());
    let mut bad = value.clone();
    bad["liquids"] = serde_json::json!(0);
    assert!(sec::FORMAT.from_json(bad, &Default::default()).is_err());
    let mut bad = value;
    bad["land"]["z"][3].as_array_mut().unwrap().pop();
    assert!(sec::FORMAT.from_json(bad, &Default::default()).is_err());
    // Trailing bytes are kept.
    let mut longer = dry_sec();
    longer.extend(b"tail");
    assert_eq!(sec::FORMAT.from_json(sec::FORMAT.to_json(&longer).unwrap(), &Default::default()).unwrap(), longer);
}

#[test]
fn identified_by_magic_and_named_by_position() {
    let (f, c) = sniff(&dry_sec(), "x.bin").unwrap();
    assert_eq!((f.id, c), ("ei-sec", Confidence::Magic));
    assert_eq!(sec::sector_name("maps/ZONE1012003.SEC"), Some(("ZONE1", 12, 3)));
    assert_eq!(sec::sector_name("zone000001.sec"), Some(("zone", 0, 1)));
    assert_eq!(sec::sector_name("zone00001.sec"), None, "five digits");
    assert_eq!(sec::sector_name("000001.sec"), Some(("", 0, 1)));
    assert_eq!(sec::sector_name("zone0000x1.sec"), None);
    assert_eq!(sec::sector_name("zone000001.mp"), None);
}

#[test]
fn errors_name_the_field_and_offset() {
    let bytes = wet_sec();
    let err = parse(&bytes[..5000]).unwrap_err();
    let at = err.location().unwrap();
    assert_eq!((at.format, at.field.as_str(), at.offset), ("ei-sec", "vertexes", 5));
    assert!(err.to_string().contains("wet"), "{err}");
    // A dry sector's size read as wet is too short; a wet one read as dry has 9,736 trailing bytes.
    let mut as_wet = dry_sec();
    as_wet[4] = 1;
    assert!(parse(&as_wet).is_err());
    let mut as_dry = wet_sec();
    as_dry[4] = 0;
    assert_eq!(parse(&as_dry).unwrap().trailing.0.len(), 1089 * 8 + 1024);
    let mut bad = dry_sec();
    bad[3] = 0;
    assert_eq!(parse(&bad).unwrap_err().location().unwrap().field, "magic");
}

#[test]
fn robustness() {
    for bytes in [dry_sec(), wet_sec()] {
        // Every truncation is refused; flips never panic.
        let r = check_robustness(&bytes, true, |b| parse(b).map(|_| ()));
        assert_eq!(r.truncations_rejected, r.truncations);
        // The magic's 12 flips; a dry sector's liquids byte flipped announces water its size lacks (a wet
        // sector's 3 stays non-zero).
        let liquids = if bytes[4] == 0 { 3 } else { 0 };
        assert_eq!(r.flips_rejected, 4 * 3 + liquids);
    }
    // Whatever parses writes back byte for byte (the dry sector's mutants; the wet one's layers are the
    // same code).
    check_robustness(&dry_sec(), false, |b| {
        let s = parse(b)?;
        assert_eq!(write(&s).unwrap(), b);
        Ok::<(), relic::Error>(())
    });
}

fn scene_of(assets: Vec<NamedAsset>) -> Scene {
    match assets.as_slice() {
        [NamedAsset { name: None, asset: Asset::Scene(s) }] => s.clone(),
        other => panic!("expected one scene, got {other:?}"),
    }
}

#[test]
fn a_sector_alone_is_placed_by_its_name_and_scaled_by_the_map_beside_it() {
    let dir = map_folder(["zone.mp", "zone000000.sec", "zone001000.sec"]);
    let path = dir.path().join("zone001000.sec");
    let opts = ConvertOptions::default();
    let scene = scene_of(sec::FORMAT.convert(&relic::registry::ConvertInput::at(&wet_sec(), &path, &opts)).unwrap());
    assert!(opts.notes.lock().unwrap().is_empty(), "{:?}", opts.notes);
    let land = scene.meshes.iter().find(|m| m.name == "land").unwrap();
    let h = |z: u16| (f64::from(z) * 100.0 / 65535.0) as f32;
    assert_eq!(land.primitives[0].positions.len(), 256 * 9);
    assert!(holds(&land.primitives[0].positions, [36.0, h(wet_z(4)), -6.0]), "sector x 1 starts at x 32");
    let water = scene.meshes.iter().find(|m| m.name == "water").unwrap();
    assert!(holds(&water.primitives[0].positions, [34.0 - 3.0 / 254.0, h(WATER_Z), -(3.0 + 5.0 / 254.0)]));
    let m = &scene.materials[water.primitives[0].material.unwrap()];
    assert_eq!(m.base_color, [0.125, 0.25, 0.75, 0.625], "the map's water material");

    // Without its map: heights scaled to the default max altitude of 64, the water blue, and a note.
    let lone = tempfile::tempdir().unwrap();
    let path = lone.path().join("island002003.sec");
    std::fs::write(&path, dry_sec()).unwrap();
    let opts = ConvertOptions::default();
    let scene = scene_of(sec::FORMAT.convert(&relic::registry::ConvertInput::at(&dry_sec(), &path, &opts)).unwrap());
    assert!(opts.notes.lock().unwrap().iter().any(|n| n.contains("64")), "{:?}", opts.notes);
    let h64 = |z: u16| (f64::from(z) * 64.0 / 65535.0) as f32;
    let land = &scene.meshes[0].primitives[0].positions;
    assert!(holds(land, [64.0 + 5.5, h64(dry_z(5, 7)), -(96.0 + 6.5)]));
    assert_eq!(scene.meshes.len(), 1, "a dry sector has no water mesh");

    // Without a name (bytes only): at the origin.
    let scene = scene_of(
        sec::FORMAT.convert(&relic::registry::ConvertInput::new(&wet_sec(), &ConvertOptions::default())).unwrap(),
    );
    let water = scene.meshes.iter().find(|m| m.name == "water").unwrap();
    assert!(holds(&water.primitives[0].positions, [2.0 - 3.0 / 254.0, h64(WATER_Z), -(3.0 + 5.0 / 254.0)]));
    let m = &scene.materials[water.primitives[0].material.unwrap()];
    assert!(m.alpha_blend && m.base_color[2] > m.base_color[0], "blue: {:?}", m.base_color);

    // Every GLB passes the Khronos validator.
    let glb = lone.path().join("sector.glb");
    std::fs::write(&glb, relic::export::gltf::to_glb(&scene).unwrap()).unwrap();
    validate(&[&glb]);
}
