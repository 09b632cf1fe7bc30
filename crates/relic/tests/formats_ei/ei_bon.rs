//! Evil Islands BON files (`ei-bon`): reader, JSON, writer, and bone sets (a model's `.bon` RES).
//!
//! Layout (spec `evil-islands.txt`, section "Bon", with docs/formats/evil-islands.md#bon): no header; vec3 offsets (3 × f32)
//! to the end of the file, 8 in real files (one per morph extreme, 96 bytes). A model's `.bon` is a RES
//! archive of such entries, one per part. The fixtures are assembled byte by byte here.

use crate::corpus;

use relic::codec::float::F32;
use relic::evil_islands::bon::{self, parse, parse_set, write, Bon};
use relic::registry::{sniff, Confidence};
use relic::testing::check_robustness;
use relic::Error;

/// Morph m's offset: (m, −m/2, 1 + m/4) — exact in binary.
fn offset(m: usize) -> [f32; 3] {
    [m as f32, -(m as f32) / 2.0, 1.0 + m as f32 / 4.0]
}

fn fixture() -> Vec<u8> {
    let out: Vec<u8> = (0..8).flat_map(offset).flat_map(f32::to_le_bytes).collect();
    assert_eq!(out.len(), 96);
    out
}

#[test]
fn fixture_parses_to_exact_offsets() {
    let bon = parse(&fixture()).unwrap();
    assert_eq!(bon.offsets.len(), 8);
    assert_eq!(bon.offset(0), Some([0.0, 0.0, 1.0]));
    assert_eq!(bon.offset(7), Some([7.0, -3.5, 2.75]));
    assert_eq!(bon.offsets[3], [F32::new(3.0), F32::new(-1.5), F32::new(1.75)]);
    assert_eq!(bon.offset(8), None);
}

#[test]
fn writes_back_byte_for_byte_and_through_json() {
    let bytes = fixture();
    assert_eq!(write(&parse(&bytes).unwrap()).unwrap(), bytes);
    let value = bon::FORMAT.to_json(&bytes).unwrap();
    assert_eq!(value["format"], "ei-bon");
    assert_eq!(value["offsets"][7], serde_json::json!([7.0, -3.5, 2.75]));
    assert_eq!(corpus::through_json_text(&bon::FORMAT, &bytes), bytes);
    // -0.0 and a NaN payload survive the JSON.
    let odd: Vec<u8> = [(-0.0f32).to_bits(), 0x7FC0_1234, 0x7F80_0000].iter().flat_map(|b| b.to_le_bytes()).collect();
    assert_eq!(corpus::through_json_text(&bon::FORMAT, &odd), odd);
    // A part with no offsets (an empty `.bon` entry of a real figure RES) is an empty file, both ways.
    assert_eq!(write(&Bon::default()).unwrap(), Vec::<u8>::new());
}

#[test]
fn partial_files_are_refused_where_they_go_wrong_and_empty_ones_are_parts_without_offsets() {
    let bytes = fixture();
    let err = parse(&bytes[..95]).unwrap_err();
    let at = err.location().unwrap();
    assert_eq!((at.format, at.field.as_str(), at.offset), ("ei-bon", "offsets[7]", 84));
    assert!(err.to_string().contains("11 bytes"), "{err}");
    assert_eq!(parse(&[]).unwrap().offsets.len(), 0);
    // One offset (a model without morphing) is a file.
    assert_eq!(parse(&bytes[..12]).unwrap().offsets.len(), 1);
}

#[test]
fn info_counts_offsets() {
    let info = bon::FORMAT.info(&fixture()).unwrap();
    assert_eq!(info["offsets"], 8);
    assert_eq!(info["morph_0"], serde_json::json!([0.0, 0.0, 1.0]));
}

/// A model's bone set: a RES archive of two parts, made with relic's RES writer.
fn bone_set() -> Vec<u8> {
    use relic::evil_islands::res::{write_archive, PackInput, PackOptions, PackSource};
    let body = fixture();
    let head: Vec<u8> = (0..8).flat_map(|_| [0.0f32, 0.0, 0.25]).flat_map(f32::to_le_bytes).collect();
    let inputs = [("body", body), ("head", head)]
        .into_iter()
        .map(|(name, data)| PackInput { name: name.into(), modified: 0, source: PackSource::Bytes(data) })
        .collect();
    let mut out = Vec::new();
    write_archive(inputs, PackOptions::default(), &mut out).unwrap();
    out
}

#[test]
fn identified_by_content_then_extension() {
    let bytes = fixture();
    let (f, c) = sniff(&bytes, "figures/mesh.BON").unwrap();
    assert_eq!((f.id, c), ("ei-bon", Confidence::Extension));
    assert!(sniff(&bytes, "mesh").is_none());
    // A model's .bon is a RES archive: the RES magic wins.
    let set = bone_set();
    let (f, c) = sniff(&set, "unit.bon").unwrap();
    assert_eq!((f.id, c), ("ei-res", Confidence::Magic));
    // A .bon that is neither is still read as BON, and refused cleanly.
    assert!(bon::FORMAT.info(b"not a bone file").is_err());
}

#[test]
fn bone_sets_give_each_part() {
    let parts = parse_set(&bone_set()).unwrap();
    let names: Vec<&str> = parts.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names.len(), 2);
    assert!(names.contains(&"body") && names.contains(&"head"), "{names:?}");
    let head = &parts.iter().find(|(n, _)| n == "head").unwrap().1;
    assert_eq!(head.offset(7), Some([0.0, 0.0, 0.25]));
    let single = parse_set(&fixture()).unwrap();
    assert_eq!(single, vec![(String::new(), parse(&fixture()).unwrap())]);
    // The sample archive's unit.bon holds two 96-byte parts.
    let sample =
        std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/evil_islands/example.res"))
            .unwrap();
    let res = relic::evil_islands::res::parse(&sample).unwrap();
    let unit = res.data(res.find(b"unit.bon").unwrap());
    assert_eq!(parse_set(unit).unwrap().len(), 2);
}

#[test]
fn robustness() {
    // Truncation at a whole offset leaves a valid file (8 of them: 0 to 84 bytes).
    let r = check_robustness(&fixture(), false, |b| parse(b).map(|_| ()));
    assert_eq!(r.truncations_rejected, 96 - 8);
    check_robustness(&fixture(), false, |b| {
        let bon = parse(b)?;
        assert_eq!(write(&bon).unwrap(), b);
        Ok::<(), Error>(())
    });
    check_robustness(&bone_set(), false, |b| parse_set(b).map(|_| ()));
}

#[test]
fn corpus_bone_offsets_round_trip() {
    let Some(files) = corpus::of_kind(corpus::Kind::Bon) else { return };
    assert!(files.len() >= 10, "auxData.res holds 10 bone sets: {files:#?}");
    for f in &files {
        let bon = parse(&f.data).unwrap_or_else(|e| panic!("{}: {e}", f.label));
        assert_eq!(bon.offsets.len(), 8, "{}", f.label);
        assert_eq!(write(&bon).unwrap(), f.data, "{}", f.label);
        assert_eq!(corpus::through_json_text(&bon::FORMAT, &f.data), f.data, "{}", f.label);
    }
    // Each model's .bon names the FIG parts of its .mod.
    let Some(aux) = corpus::aux_data() else { return };
    let res = relic::evil_islands::res::parse(&aux).unwrap();
    let mut sets = 0;
    for i in 0..res.len() {
        let name = String::from_utf8_lossy(res.name(i)).into_owned();
        let Some(model) = name.strip_suffix(".bon") else { continue };
        let parts = parse_set(res.data(i)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let figs = corpus::of_kind(corpus::Kind::Fig).unwrap();
        for (part, _) in &parts {
            let label = format!("auxData.res/{model}.mod/{part}");
            assert!(figs.iter().any(|f| f.label == label), "{name}: no FIG {label}");
        }
        sets += 1;
    }
    assert_eq!(sets, 10);
    eprintln!("{} BON files read and written back, {sets} bone sets matched to their models", files.len());
}
