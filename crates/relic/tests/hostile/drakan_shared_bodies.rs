//! Issue 23: records of one Drakan SRSC file that name one body are converted once, and each record still
//! gets its own files; bodies that overlap in part are counted by `info` and said in one line by
//! `convert`. The hostile files are built here by hand; memory is measured with the counting allocator.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::srsc_fixtures;

use crate::counting::{peak_during, serial};
use relic::drakan::srsc::FORMAT;
use relic::ops::{self, ConvertRequest, PackOptions, Quiet};
use srsc_fixtures::Bytes as B;
use srsc_fixtures::{character, over};

/// Texture 0x0040 of `width` × `height` at 24 bpp: its rows stored (level 0) or as zlib (level 9).
fn texture_body(width: u32, height: u32, compressed: bool) -> Vec<u8> {
    // A gradient: each row one grey, so the PNG is small and the pixels are not all alike.
    let pixels: Vec<u8> = (0..height).flat_map(|y| vec![(y % 251) as u8; width as usize * 3]).collect();
    if !compressed {
        return srsc_fixtures::texture(width, height, 24, &pixels);
    }
    let stream = relic::codec::zlib::compress(&pixels, 9);
    let mut body = srsc_fixtures::texture(width, height, 24, &[]);
    // The header's compression level and compressed size (its last 8 bytes), then the stream.
    let at = body.len() - 8;
    body.truncate(at);
    body.extend(9u32.to_le_bytes());
    body.extend((stream.len() as u32).to_le_bytes());
    body.extend(stream);
    body
}

/// `n` texture records (ids 1…n) over one body at offset 12.
fn textures_over_one_body(body: &[u8], n: u16) -> Vec<u8> {
    let entries: Vec<_> = (1..=n).map(|id| (0x0040, id, 0, 12, body.len() as u32)).collect();
    over(body, &entries)
}

/// Converts `bytes` as `<name>` into a fresh folder under `dir`: the report and the folder of its outputs.
fn convert(dir: &Path, name: &str, bytes: &[u8], req: &ConvertRequest) -> (ops::ConvertReport, PathBuf) {
    let input = dir.join(name);
    std::fs::write(&input, bytes).unwrap();
    let out = dir.join(format!("out-{name}"));
    let report = ops::convert(std::slice::from_ref(&input), &out, req, &Quiet);
    (report, out.join(name))
}

/// Packs the document of `folder` (the conversion of `name`) back: the file's very bytes, with no warning
/// (the copies each record got read back as that record's sources).
fn packs_back(folder: &Path, name: &str, bytes: &[u8]) {
    let back = folder.with_file_name(format!("back-{name}"));
    let report =
        ops::pack("drakan-srsc", &folder.join(format!("{name}.json")), &back, &PackOptions::default()).unwrap();
    assert!(report.notes.iter().all(|n| !n.contains("warning")), "{:?}", report.notes);
    assert!(std::fs::read(&back).unwrap() == bytes, "{name} packs back as it was");
}

fn notes(req: &ConvertRequest) -> Vec<String> {
    req.options.notes.lock().unwrap().clone()
}

/// 64 records over one 1024² texture body decode it once: the heap peaks at about what one record
/// takes, not 64 times that, and each record gets its own PNG, the same bytes as the one record's.
#[test]
fn textures_over_one_body_decode_once_and_each_record_gets_the_png() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    let body = texture_body(1024, 1024, false);
    let (single, one_peak) = peak_during(|| {
        convert(
            dir.path(),
            "One.txd",
            &over(&body, &[(0x0040, 1, 0, 12, body.len() as u32)]),
            &ConvertRequest::default(),
        )
    });
    assert!(single.0.failures.is_empty(), "{:?}", single.0.failures);
    let png = std::fs::read(single.1.join("texture_1.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");

    let req = ConvertRequest::default();
    let ((report, folder), many_peak) =
        peak_during(|| convert(dir.path(), "Many.txd", &textures_over_one_body(&body, 64), &req));
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    for id in 1..=64 {
        assert_eq!(std::fs::read(folder.join(format!("texture_{id}.png"))).unwrap(), png, "texture {id}");
    }
    let pngs: Vec<_> = report.outputs.iter().filter(|i| i.output.ends_with(".png")).collect();
    assert_eq!(pngs.len(), 64, "{:?}", report.outputs);
    // One decode is 4 MiB of RGBA (and the 3 MiB body read); 64 would be 256 MiB.
    assert!(many_peak < one_peak + one_peak / 2, "64 records: {many_peak} bytes at peak, one record: {one_peak}");
    assert!(notes(&req)
        .iter()
        .any(|n| n.starts_with("drakan-srsc: 63 records have the very body of an earlier record")));
}

/// What the shared body decodes to is charged to the budget once, and each record by the PNG it writes:
/// 64 records over one 512² zlib stream of a 4 KB file (a budget of about 4 MB) all convert, where 64
/// decodes (64 MiB) would have been refused after the fourth.
#[test]
fn a_shared_texture_is_charged_once_plus_what_each_record_writes() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    let bytes = textures_over_one_body(&texture_body(512, 512, true), 64);
    let budget = bytes.len() as u64 * relic::limits::current().max_expansion;
    assert!(budget > 1 << 20 && budget < 8 << 20, "{budget}");
    let (report, folder) = convert(dir.path(), "Zlib.txd", &bytes, &ConvertRequest::default());
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let first = std::fs::read(folder.join("texture_1.png")).unwrap();
    for id in 2..=64 {
        assert_eq!(std::fs::read(folder.join(format!("texture_{id}.png"))).unwrap(), first, "texture {id}");
    }
    // records.json lists each record, the later ones naming the record whose body they have.
    let listing: Value = serde_json::from_slice(&std::fs::read(folder.join("records.json")).unwrap()).unwrap();
    let items = listing.as_array().unwrap();
    assert_eq!(items[0]["id"], 1);
    assert!(items[0].get("same_body_as").is_none());
    assert_eq!((items[63]["id"].clone(), items[63]["same_body_as"].clone()), (64.into(), 0.into()));
    // Its decoded fields are the first's, listed there once (issue 40).
    assert_eq!(items[63].get("decoded"), None);
    assert!(items[0]["decoded"].is_object());
    packs_back(&folder, "Zlib.txd", &bytes);

    // One record's PNG edited: that record gets a body of its own, the others keep the one they share.
    let blue: Vec<u8> = [10u8, 20, 30, 255].repeat(512 * 512);
    let image = relic::asset::Image::single(512, 512, blue, (0, 0), vec![]);
    let edited = relic::export::png::encode_image_with(&image, Default::default()).unwrap().remove(0).bytes;
    std::fs::write(folder.join("texture_5.png"), edited).unwrap();
    let back = dir.path().join("edited.txd");
    let report = ops::pack("drakan-srsc", &folder.join("Zlib.txd.json"), &back, &PackOptions::default()).unwrap();
    assert!(report.notes.iter().any(|n| n.contains("texture_5.png → texture 5")), "{:?}", report.notes);
    let packed = std::fs::read(&back).unwrap();
    let packed = relic::drakan::srsc::parse(&packed).unwrap();
    let first = relic::drakan::srsc::parse(&bytes).unwrap().body(0).to_vec();
    for i in 0..64 {
        assert_eq!(packed.body(i) == first.as_slice(), i != 4, "record {}", i + 1);
    }
}

/// `info` counts records that have an earlier record's very body and records whose body overlaps another's
/// in part; `convert` says each in one line, naming the first records.
#[test]
fn shared_and_overlapping_bodies_are_counted_and_said_in_one_line() {
    let _s = serial();
    let text = b"hello world\0";
    let bytes = over(
        text,
        &[
            (0x0401, 1, 0, 12, 12),
            (0x0401, 2, 0, 12, 12),
            (0x0402, 9, 0, 12, 12),
            (0x0401, 3, 0, 18, 6),
            (0x0401, 4, 0, 12, 0),
        ],
    );
    let info = FORMAT.info(&bytes).unwrap();
    assert_eq!((info["shared_bodies"].clone(), info["overlapping_bodies"].clone()), (2.into(), 1.into()), "{info}");

    let dir = tempfile::tempdir().unwrap();
    let req = ConvertRequest::default();
    let (report, folder) = convert(dir.path(), "Text.rrc", &bytes, &req);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert_eq!(
        notes(&req),
        vec![
            "drakan-srsc: 2 records have the very body of an earlier record (record 0x0401 id 2 at 0xC has the body \
             of record 0x0401 id 1 at 0xC; record 0x0402 id 9 at 0xC has the body of record 0x0401 id 1 at 0xC); a \
             body is converted once and each record of its type gets the result"
                .to_string(),
            "drakan-srsc: 1 records' bodies overlap another's in part (record 0x0401 id 3 at 0x12 overlaps record \
             0x0401 id 1 at 0xC); each is converted on its own"
                .to_string(),
        ]
    );
    let strings: Value = serde_json::from_slice(&std::fs::read(folder.join("strings.json")).unwrap()).unwrap();
    // The document keeps a shared body once (record 2 is `same_as` record 1), and so do the strings.
    assert_eq!(strings, serde_json::json!({"1": "hello world", "3": "world"}));
    packs_back(&folder, "Text.rrc", &bytes);
}

/// 20,000 records each overlapping the next are found in one sweep, and said in one line.
#[test]
fn many_overlapping_bodies_make_one_line() {
    let _s = serial();
    let n = 20_000u16;
    let data = vec![0u8; usize::from(n) + 1];
    let entries: Vec<_> = (0..n).map(|k| (0x7777, k, 0, 12 + u32::from(k), 2)).collect();
    let bytes = over(&data, &entries);
    let info = FORMAT.info(&bytes).unwrap();
    assert_eq!((info["shared_bodies"].clone(), info["overlapping_bodies"].clone()), (0.into(), (n - 1).into()));
    let opts = relic::registry::ConvertOptions::default();
    FORMAT.convert(&relic::registry::ConvertInput::new(&bytes, &opts)).unwrap();
    let notes = opts.notes.lock().unwrap().clone();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with(
            "drakan-srsc: 19999 records' bodies overlap another's in part (record 0x7777 id 1 at 0xD overlaps record \
             0x7777 id 0 at 0xC; record 0x7777 id 2 at 0xE overlaps record 0x7777 id 1 at 0xD; record 0x7777 id 3 at \
             0xF overlaps record 0x7777 id 2 at 0xE, …)"
        ),
        "{}",
        &notes[0][..300]
    );
}

/// Sounds whose records share a body: one WAV made, each record's written under its own name.
#[test]
fn sounds_over_one_body_are_written_for_each_record() {
    let _s = serial();
    let pcm: Vec<u8> = (0..4000u32).map(|i| (i % 256) as u8).collect();
    let body = B::default()
        .str("drip")
        .u32(0) // flags
        .u16(1) // channels
        .u16(8) // bits
        .u32(11025)
        .i32(0) // volume
        .f32(10.0) // dropoff
        .u32(1) // priority
        .u32(pcm.len() as u32)
        .u32(0) // stored
        .bytes(&pcm)
        .done();
    let bytes = over(&body, &[(0x0302, 4, 0, 12, body.len() as u32), (0x0302, 5, 0, 12, body.len() as u32)]);
    let dir = tempfile::tempdir().unwrap();
    let (report, folder) = convert(dir.path(), "Drip.sdb", &bytes, &ConvertRequest::default());
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let four = std::fs::read(folder.join("4_drip.wav")).unwrap();
    assert_eq!(&four[..4], b"RIFF");
    assert_eq!(std::fs::read(folder.join("5_drip.wav")).unwrap(), four);
    packs_back(&folder, "Drip.sdb", &bytes);
}

/// 40 models whose vertices, polygons, texture list and character are one set of bodies (each with its own
/// name record) build the skeleton and meshes once: each gets its own `.glb`, the first's scene under its
/// own name and id, and what the build went without is found once (later models say they are copies). A
/// model of the same records but another shading is built on its own.
#[test]
fn models_over_one_character_build_it_once_and_each_gets_its_scene() {
    let _s = serial();
    let joints = 500;
    let mut vertices = B::default().u16(3);
    for p in [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] {
        vertices = vertices.f32s(&p);
    }
    let mut polygons = B::default().u16(1).u16(0).u16(3).u16(0);
    for i in 0..3u16 {
        polygons = polygons.u16(i).f32s(&[0.0, 0.0]);
    }
    // One texture, id 1 of this database (`0:1`), which no .txd beside the file holds.
    let texture_list = B::default().u32(1).r(1, 0).done();
    let shared = [vertices.done(), polygons.done(), texture_list, character(joints, 3, 1)];
    let names: Vec<Vec<u8>> = (0..41)
        .map(|k| {
            let shading = if k == 40 { 0x8001 } else { 0x8002 }; // the last flat, the others smooth
            let name = if k == 40 { "odd".to_string() } else { format!("m{k}") };
            B::default().str(&name).u32(shading).done()
        })
        .collect();
    let mut data = Vec::new();
    let at = |body: &[u8], data: &mut Vec<u8>| {
        let offset = 12 + data.len() as u32;
        data.extend(body);
        (offset, body.len() as u32)
    };
    let shared_at: Vec<(u32, u32)> = shared.iter().map(|b| at(b, &mut data)).collect();
    let names_at: Vec<(u32, u32)> = names.iter().map(|b| at(b, &mut data)).collect();
    let mut entries = Vec::new();
    for (k, &(offset, size)) in names_at.iter().enumerate() {
        let id = k as u16 + 1;
        entries.push((0x0200, id, 0, offset, size));
        for (&record_type, &(offset, size)) in [0x0203u16, 0x0204, 0x0206, 0x0208].iter().zip(&shared_at) {
            entries.push((record_type, id, 0, offset, size));
        }
    }
    let bytes = over(&data, &entries);
    let dir = tempfile::tempdir().unwrap();
    let (report, folder) = convert(dir.path(), "Crowd.mod", &bytes, &ConvertRequest::default());
    assert!(report.failures.is_empty(), "{:?}", report.failures);

    let glb = |name: &str| {
        let bytes = std::fs::read(folder.join(format!("models/{name}.view.glb"))).unwrap();
        let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        let json: Value = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
        (json, bytes[20 + json_len..].to_vec())
    };
    let (first, first_bin) = glb("m0");
    assert_eq!(first["nodes"].as_array().unwrap().len(), joints as usize + 1);
    for k in 1..40 {
        let (json, bin) = glb(&format!("m{k}"));
        assert_eq!(bin, first_bin, "m{k}");
        assert_eq!(json["meshes"][0]["name"], format!("m{k}"));
        assert_eq!(json["scenes"][0]["extras"]["model"], format!("m{k}"));
        assert_eq!(json["scenes"][0]["extras"]["id"], k + 1);
        let mesh_node = json["nodes"].as_array().unwrap().iter().find(|n| n.get("mesh").is_some()).unwrap();
        assert_eq!(mesh_node["name"], format!("m{k}"));
        // Apart from its name and id, the scene is the first's.
        let mut renamed = json.clone();
        renamed["meshes"][0]["name"] = "m0".into();
        renamed["scenes"][0]["extras"]["model"] = "m0".into();
        renamed["scenes"][0]["extras"]["id"] = 1.into();
        for node in renamed["nodes"].as_array_mut().unwrap() {
            if node.get("mesh").is_some() {
                node["name"] = "m0".into();
            }
        }
        assert_eq!(renamed, first, "m{k}");
    }
    // A copy is as valid a glTF as the scene it was made from.
    let (m0, m39) = (folder.join("models/m0.view.glb"), folder.join("models/m39.view.glb"));
    for r in relic::testing::validate_gltf(&[&m0, &m39]).unwrap_or_default() {
        assert_eq!(r.errors, 0, "{r:?}");
    }
    packs_back(&folder, "Crowd.mod", &bytes);
    let (odd, _) = glb("odd");
    assert_eq!(odd["scenes"][0]["extras"]["shading"]["value"], 0x8001);

    let listing: Value = serde_json::from_slice(&std::fs::read(folder.join("records.json")).unwrap()).unwrap();
    let scene_lines: Vec<&str> =
        listing.as_array().unwrap().iter().filter_map(|v| v.get("scene").and_then(Value::as_str)).collect();
    // Built twice (m0, and odd with its other shading): each build finds the texture missing and the
    // vertices with more than 4 weights; the 39 others are copies.
    let built: Vec<&&str> = scene_lines.iter().filter(|l| !l.contains("a copy of")).collect();
    assert_eq!(built.len(), 4, "{scene_lines:?}");
    assert!(built[0].starts_with("model 1 `m0`: texture 0:1: ") && built[0].ends_with("Crowd.txd: not found"));
    assert_eq!(*built[1], "model 1 `m0`: LOD 0: 3 vertices have more than 4 joint weights; the 4 largest are kept");
    assert!(built[2].starts_with("model 41 `odd`: texture 0:1: "), "{scene_lines:?}");
    let copies: Vec<&&str> = scene_lines.iter().filter(|l| l.contains("a copy of")).collect();
    assert_eq!(copies.len(), 39, "{scene_lines:?}");
    assert_eq!(
        *copies[0],
        "model 2 `m1`: a copy of model 1 `m0`'s scene (the same records): its 2 problems above are this one's too"
    );
}
