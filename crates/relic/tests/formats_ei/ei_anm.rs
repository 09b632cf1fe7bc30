//! Evil Islands ANM files (`ei-anm`): reader, JSON, writer.
//!
//! Layout (spec `evil-islands.txt`, section "ANM", with docs/formats/evil-islands.md#anm): u32 rotation count, quaternions
//! (w, x, y, z); u32 translation count, vec3s; u32 morphing frame count, u32 morphing vertex count (left out
//! at the end of editor-written files without frames), one vec3 shift per vertex per frame. The fixtures
//! are assembled byte by byte here.

use crate::corpus;

use relic::codec::float::F32;
use relic::evil_islands::anm::{self, parse, write, Anm, Quat};
use relic::registry::{sniff, Confidence};
use relic::testing::check_robustness;
use relic::Error;

const H: f32 = std::f32::consts::FRAC_1_SQRT_2;

fn floats(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend(v.to_le_bytes());
    }
}

/// Shift of morphing vertex v in frame f.
fn shift(f: usize, v: usize) -> [f32; 3] {
    [f as f32 * 0.5 + v as f32, -(v as f32), 0.25 * f as f32]
}

/// Rotations and translations of three frames: the identity, a quarter turn about z, a half turn about x.
fn keys() -> Vec<u8> {
    let mut out = 3u32.to_le_bytes().to_vec();
    floats(&mut out, &[1.0, 0.0, 0.0, 0.0, H, 0.0, 0.0, H, 0.0, 1.0, 0.0, 0.0]);
    out.extend(3u32.to_le_bytes());
    floats(&mut out, &[0.0, 0.0, 1.0, 0.5, 0.0, 1.0, 1.0, 0.0, 1.25]);
    out
}

/// Game style: two morphing frames of three vertices.
fn fixture() -> Vec<u8> {
    let mut out = keys();
    out.extend(2u32.to_le_bytes());
    out.extend(3u32.to_le_bytes());
    for f in 0..2 {
        for v in 0..3 {
            floats(&mut out, &shift(f, v));
        }
    }
    assert_eq!(out.len(), 4 + 48 + 4 + 36 + 8 + 72);
    out
}

/// Editor style: no morphing frames, and the file ends before the vertex count.
fn editor_fixture() -> Vec<u8> {
    let mut out = keys();
    out.extend(0u32.to_le_bytes());
    out
}

fn q(w: f32, x: f32, y: f32, z: f32) -> Quat {
    Quat { w: F32::new(w), x: F32::new(x), y: F32::new(y), z: F32::new(z) }
}

#[test]
fn fixture_parses_to_exact_keys_and_frames() {
    let anm = parse(&fixture()).unwrap();
    assert_eq!(anm.rotations, [q(1.0, 0.0, 0.0, 0.0), q(H, 0.0, 0.0, H), q(0.0, 1.0, 0.0, 0.0)]);
    assert_eq!(anm.rotations[1].w.get(), 0.70710677);
    assert_eq!(anm.rotations[1].xyzw(), [0.0, 0.0, H, H], "glTF order: x, y, z, w");
    assert_eq!(anm.rotations[2].xyzw(), [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(anm.translations[1], [0.5, 0.0, 1.0].map(F32::new));
    assert_eq!(anm.translations[2], [1.0, 0.0, 1.25].map(F32::new));
    assert_eq!(anm.morph_vertex_count, Some(3));
    assert_eq!(anm.morph_frames.len(), 2);
    assert_eq!(anm.morph_frames[1][2], shift(1, 2).map(F32::new));
    assert_eq!(anm.morph_frames[0][1], [1.0, -1.0, 0.0].map(F32::new));
    assert!(anm.trailing.0.is_empty());
}

#[test]
fn the_morphing_vertex_count_may_be_left_out() {
    let editor = parse(&editor_fixture()).unwrap();
    assert_eq!((editor.morph_vertex_count, editor.morph_frames.len()), (None, 0));
    assert_eq!(editor.rotations.len(), 3);
    assert_eq!(write(&editor).unwrap(), editor_fixture());
    let value = anm::FORMAT.to_json(&editor_fixture()).unwrap();
    assert_eq!(value["morph_vertex_count"], serde_json::Value::Null);
    assert_eq!(corpus::through_json_text(&anm::FORMAT, &editor_fixture()), editor_fixture());
    // Game style without frames keeps it.
    let mut game = editor_fixture();
    game.extend(0u32.to_le_bytes());
    let parsed = parse(&game).unwrap();
    assert_eq!((parsed.morph_vertex_count, parsed.morph_frames.len()), (Some(0), 0));
    assert_eq!(corpus::through_json_text(&anm::FORMAT, &game), game);
    // A vertex count without frames is kept whatever it is.
    let mut stated = editor_fixture();
    stated.extend(500u32.to_le_bytes());
    assert_eq!(parse(&stated).unwrap().morph_vertex_count, Some(500));
    assert_eq!(corpus::through_json_text(&anm::FORMAT, &stated), stated);
    // Two bytes where the count would be are neither.
    let mut short = editor_fixture();
    short.extend([0, 0]);
    let err = parse(&short).unwrap_err();
    assert_eq!(err.location().unwrap().field, "morphing_vertex_count");
    assert_eq!(err.location().unwrap().offset, editor_fixture().len() as u64);
    // A count of frames without the vertex count is cut short.
    let mut frames_without_count = keys();
    frames_without_count.extend(1u32.to_le_bytes());
    assert!(parse(&frames_without_count).is_err());
}

#[test]
fn writes_back_byte_for_byte_and_through_json() {
    let bytes = fixture();
    assert_eq!(write(&parse(&bytes).unwrap()).unwrap(), bytes);
    let value = anm::FORMAT.to_json(&bytes).unwrap();
    assert_eq!(value["format"], "ei-anm");
    assert_eq!(value["rotations"][1], serde_json::json!({"w": 0.70710677, "x": 0.0, "y": 0.0, "z": 0.70710677}));
    assert_eq!(value["translations"][2], serde_json::json!([1.0, 0.0, 1.25]));
    assert_eq!(value["morph_vertex_count"], 3);
    assert_eq!(value["morph_frames"][1][2], serde_json::json!([2.5, -2.0, 0.25]));
    assert_eq!(corpus::through_json_text(&anm::FORMAT, &bytes), bytes);
    let mut trailing = fixture();
    trailing.extend([9; 5]);
    assert_eq!(corpus::through_json_text(&anm::FORMAT, &trailing), trailing);
}

#[test]
fn the_writer_refuses_frames_that_do_not_fit() {
    let good = parse(&fixture()).unwrap();
    let mut anm = good.clone();
    anm.morph_frames[1].pop();
    let err = write(&anm).unwrap_err();
    assert_eq!(err.field(), Some("morph_frames[1]"));
    let anm = Anm { morph_vertex_count: None, ..good };
    assert_eq!(write(&anm).unwrap_err().field(), Some("morph_vertex_count"));
}

#[test]
fn hostile_counts_are_refused_before_allocating() {
    let mut bytes = u32::MAX.to_le_bytes().to_vec();
    assert!(matches!(parse(&bytes), Err(Error::Limit { .. })));
    bytes = keys();
    bytes.extend(u32::MAX.to_le_bytes());
    bytes.extend(u32::MAX.to_le_bytes());
    let err = parse(&bytes).unwrap_err();
    assert!(matches!(err, Error::Limit { .. }), "{err}");
    // Frames of zero vertices still cannot outnumber the bytes that remain.
    bytes = keys();
    bytes.extend(u32::MAX.to_le_bytes());
    bytes.extend(0u32.to_le_bytes());
    assert!(matches!(parse(&bytes), Err(Error::Limit { .. })));
}

#[test]
fn info_counts_frames() {
    let info = anm::FORMAT.info(&fixture()).unwrap();
    assert_eq!(info["rotation_frames"], 3);
    assert_eq!(info["translation_frames"], 3);
    assert_eq!(info["morphing_frames"], 2);
    assert_eq!(info["morphing_vertex_count"], 3);
    assert_eq!(info["seconds_at_15_fps"], 0.2);
}

#[test]
fn identified_by_content_then_extension() {
    let (f, c) = sniff(&fixture(), "anims/walk.ANM").unwrap();
    assert_eq!((f.id, c), ("ei-anm", Confidence::Extension));
    assert!(sniff(&fixture(), "body").is_none());
    let (f, c) = sniff(&relic::evil_islands::res::types::MAGIC, "unit.anm").unwrap();
    assert_eq!((f.id, c), ("ei-res", Confidence::Magic), "an animation set is a RES archive");
}

#[test]
fn robustness() {
    for bytes in [fixture(), editor_fixture()] {
        let r = check_robustness(&bytes, true, |b| parse(b).map(|_| ()));
        assert_eq!(r.truncations_rejected, r.truncations);
        check_robustness(&bytes, false, |b| {
            let anm = parse(b)?;
            assert_eq!(write(&anm).unwrap(), b);
            Ok::<(), Error>(())
        });
    }
}

#[test]
fn corpus_animations_round_trip() {
    // auxData.res holds no animation set; the walk finds any that a larger corpus adds.
    let Some(files) = corpus::of_kind(corpus::Kind::Anm) else { return };
    for f in &files {
        let anm = parse(&f.data).unwrap_or_else(|e| panic!("{}: {e}", f.label));
        assert_eq!(write(&anm).unwrap(), f.data, "{}", f.label);
        assert_eq!(corpus::through_json_text(&anm::FORMAT, &f.data), f.data, "{}", f.label);
    }
    eprintln!("{} ANM entries in the corpus read and written back", files.len());
}
