//! The checks one format has beyond the common ones of [`crate::check`]: typed round trips (`parse` →
//! `write` without the JSON), invariants of its model, and its friendly forms. A new format needs nothing
//! here to be fuzzed; add an arm when it has a property of its own worth asserting.
//!
//! These call the formats' typed APIs, not the registry: only [`crate::faces`] calls the registry faces.

use relic::registry::{ConvertOptions, PackRequest};

use crate::Faces;

/// Checks on any input of format `id` named `name`, whether it parses or not.
pub fn any(id: &str, name: &str, data: &[u8]) {
    match id {
        "dr-pal" => dr_pal_any(data),
        "ro-pal" => ro_pal_any(data),
        "ro-table" => {
            // Any bytes as edited text: refused or encoded, never a panic.
            let faces = Faces::of(&relic::ragnarok::table::FORMAT, name);
            let _ = faces.pack_input("t.txt", data, &PackRequest::default());
        }
        _ => {}
    }
}

/// Checks on an input of format `id` named `name` that [`crate::check`] parsed.
pub fn parsed(id: &str, name: &str, data: &[u8]) {
    match id {
        "ei-res" => ei_res(data),
        "ei-reg" => ei_reg(data),
        "ei-cam" => ei_cam(name, data),
        "ei-adb" => {
            use relic::evil_islands::adb;
            let parsed = adb::parse(data).expect("parsed once");
            assert_eq!(adb::write(&parsed).expect("a parsed file writes"), data, "parse → write");
        }
        "ei-mmp" => ei_mmp(data),
        "ei-db" => ei_db(name, data),
        "ei-lnk" => {
            use relic::evil_islands::lnk;
            let parsed = lnk::parse(data).expect("parsed once");
            assert_eq!(lnk::write(&parsed).expect("a parsed file writes"), data, "parse → write");
        }
        "ei-bon" => {
            use relic::evil_islands::bon;
            let parsed = bon::parse(data).expect("parsed once");
            assert_eq!(bon::write(&parsed).expect("a parsed file writes"), data, "parse → write");
        }
        "ei-fig" => {
            use relic::evil_islands::fig;
            let parsed = fig::parse(data).expect("parsed once");
            assert_eq!(fig::write(&parsed).expect("a parsed file writes"), data, "parse → write");
        }
        "ei-anm" => {
            use relic::evil_islands::anm;
            let parsed = anm::parse(data).expect("parsed once");
            assert_eq!(anm::write(&parsed).expect("a parsed file writes"), data, "parse → write");
        }
        "ei-mp" => ei_mp(data),
        "ei-sec" => {
            use relic::evil_islands::sec;
            let parsed = sec::parse(data).expect("parsed once");
            assert_eq!(sec::write(&parsed).expect("a parsed file writes"), data, "parse → write");
        }
        "ro-grf" => grf(data),
        "ro-rsm" => ro_rsm(data),
        "ro-rsw" => {
            use relic::ragnarok::rsw::Rsw;
            let parsed = Rsw::read(data).expect("parsed once");
            assert_eq!(parsed.to_bytes().expect("a parsed file writes"), data, "read → write");
        }
        "ro-act" => ro_act(data),
        "ro-gnd" => ro_gnd(data),
        "ro-gat" => ro_gat(name, data),
        "ro-table" => ro_table(name, data),
        "ro-imf" => ro_imf(data),
        "drakan-srsc" => drakan_srsc(data),
        "drakan-db" => {
            use relic::drakan::db;
            let file = db::parse(data).expect("parsed once");
            for d in &file.dependencies {
                let _ = file.dependency(d.index.unwrap_or(1));
            }
        }
        "dr-ftg" => dr_ftg(name, data),
        "ro-spr" => ro_spr(data),
        "dr-spr" => {
            use relic::dark_reign::spr;
            let doc = spr::parse(data).expect("parsed once");
            let again = spr::write_document(&doc).expect("a parsed sprite's document must be writable");
            assert_eq!(again, data, "SPR document rebuild differs from the input");
            let _ = spr::to_assets(data, &relic::codec::palette::Palette::greyscale(), &ConvertOptions::default());
        }
        "dr-ftg-spr" => {
            use relic::dark_reign::ftg_spr;
            let doc = ftg_spr::parse(data).expect("parsed once");
            let again = ftg_spr::write_document(&doc).expect("a parsed FTG sprite's document must be writable");
            assert_eq!(again, data, "FTG sprite document rebuild differs from the input");
            let _ = ftg_spr::to_assets(data, &relic::codec::palette::Palette::greyscale(), &ConvertOptions::default());
        }
        "freerct-rcd" => freerct_rcd(data),
        _ => {}
    }
}

/// Every name and data range of a RES can be walked, hash lookups through the input's `next_index`
/// chains end (`info` runs `unreachable`), and the archive writes back from its document. (Its entries as
/// a `.bon`, whose extensionless entries inherit the extension, are the name `fuzz.bon` of the pick.)
fn ei_res(data: &[u8]) {
    use relic::evil_islands::res::{self, convert};
    let archive = res::parse(data).expect("parsed once");
    for i in 0..archive.len() {
        let record = archive.records[i];
        assert_eq!(archive.name(i).len(), usize::from(record.name_len));
        assert_eq!(archive.data(i).len() as u64, u64::from(record.size));
    }
    let _ = convert::info(&archive);
    let rebuilt = res::write_document(&convert::to_document(&archive)).expect("the document rebuilds");
    assert!(rebuilt == data, "the rebuilt archive differs from the input");
}

/// A REG converts to typed INI that reads and packs (byte for byte when the file is laid out as relic lays
/// files out), and the packed file reads back to the same INI.
fn ei_reg(data: &[u8]) {
    use relic::evil_islands::reg::{self, convert, ini};
    let file = reg::parse(data).expect("parsed once");
    let (_, layout) = convert::to_content(&file);
    let text = convert::to_ini(&file);
    let content = ini::parse(&text).unwrap_or_else(|e| panic!("our INI does not read back: {e}"));
    let packed = reg::write_content(&content).unwrap_or_else(|e| panic!("our INI does not pack: {e}"));
    if layout != convert::Layout::Other {
        assert_eq!(packed, data, "REG → INI → REG");
    }
    let again = reg::parse(&packed).unwrap_or_else(|e| panic!("relic does not read what it wrote: {e}"));
    let again_ini = convert::to_ini(&again);
    let again_content = ini::parse(&again_ini).expect("our INI reads back");
    assert_eq!(reg::write_content(&again_content).expect("packs again"), packed, "INI → REG → INI → REG");
}

/// A CAM writes back through its JSON in both time readings (u32, f32), and converts with `ei-cam.time=f32`.
fn ei_cam(name: &str, data: &[u8]) {
    use relic::evil_islands::cam::{self, CamDocument, TimeReading};
    let file = cam::parse(data).expect("parsed once");
    let faces = Faces::of(&cam::FORMAT, name);
    for reading in [TimeReading::U32, TimeReading::F32] {
        let json = serde_json::to_string(&CamDocument::new(&file, reading)).expect("JSON");
        let value = serde_json::from_str(&json).expect("JSON reads back");
        let back = faces.write_json(value).expect("write_json of our own JSON");
        assert_eq!(back, data, "CAM → JSON ({reading:?}) → CAM");
    }
    let opts = ConvertOptions { settings: vec![("ei-cam.time".into(), "f32".into())], ..Default::default() };
    crate::convert_and_export_with(&cam::FORMAT, name, data, &opts);
}

/// Every level of an MMP decodes or fails cleanly, and the file rebuilds from its document.
fn ei_mmp(data: &[u8]) {
    use relic::evil_islands::mmp::{convert, decode_level, parse, write_document};
    let file = parse(data).expect("parsed once");
    for i in 0..file.levels.len() {
        let _ = decode_level(&file, i);
    }
    let again = write_document(&convert::to_document(&file)).expect("a parsed file's document writes");
    assert_eq!(again, data, "MMP document rebuild differs from the input");
}

/// A database of the layout its name picks writes back from its document, and its friendly forms (the
/// tables' JSON, each table's CSV over the file) write back byte for byte too.
fn ei_db(name: &str, data: &[u8]) {
    use relic::evil_islands::db;
    let doc = db::parse(data, db::FileType::from_name(name)).expect("parsed once");
    let _ = db::convert::info(&doc, data.len());
    if !relic::registry::sniff(data, name).is_some_and(|(f, _)| f.id == db::FORMAT_ID) {
        // Not identified as a database (a first table numbered 0): the writer refuses it.
        let err = db::write_document(&doc).expect_err("a file not identified as a database is not written");
        assert!(err.is_refusal(), "{err}");
        return;
    }
    assert_eq!(db::write_document(&doc).expect("a parsed file writes"), data, "parse → write");
    let friendly = db::friendly::from_lossless(&doc).expect("a parsed file has friendly forms");
    let Ok((value, tables)) = db::friendly::to_json_and_csv(&friendly, 1 << 24) else { return };
    let back = db::friendly::to_lossless(&db::friendly::from_json(&value).expect("friendly JSON reads back"));
    assert_eq!(db::write_document(&back.expect("friendly JSON packs")).expect("writes"), data, "friendly JSON");
    for t in &tables {
        let line = |cells: &[String]| {
            let quoted: Vec<String> = cells.iter().map(|c| format!("\"{}\"", c.replace('"', "\"\""))).collect();
            quoted.join(",") + "\n"
        };
        let text: String = std::iter::once(line(&t.columns)).chain(t.rows.iter().map(|r| line(r))).collect();
        let mut again = friendly.clone();
        db::friendly::apply_csv(&mut again, &t.name, &text).expect("its CSV reads back");
        let written = db::write_document(&db::friendly::to_lossless(&again).expect("packs")).expect("writes");
        assert_eq!(written, data, "table {} through CSV", t.name);
    }
}

/// A dry sector: magic, liquids 0, 33 × 33 vertices of altitude 0x0102 and normal bits 0x01020304, tiles 0.
fn dry_sector() -> Vec<u8> {
    let mut out = vec![0x74, 0xF7, 0x4B, 0xCF, 0];
    for _ in 0..33 * 33 {
        out.extend([0, 0, 2, 1, 4, 3, 2, 1]);
    }
    out.extend([0u8; 512]);
    out
}

/// A map header writes back, and converts with a fixed dry sector beside it to a terrain scene, height map
/// and document exported to every output they offer.
fn ei_mp(data: &[u8]) {
    use relic::evil_islands::mp::{self, atlas::AtlasSource, convert::convert_map};
    let parsed = mp::parse(data).expect("parsed once");
    assert_eq!(mp::write(&parsed).expect("a parsed file writes"), data, "parse → write");
    let sectors = vec![(0, 0, "fuzz000000.sec".to_string(), dry_sector())];
    let opts = ConvertOptions::default();
    let assets = convert_map("fuzz", &parsed, sectors, &AtlasSource::None, &opts).expect("a parsed map converts");
    for asset in &assets {
        for ext in relic::export::extensions_for(&asset.asset) {
            let _ = relic::export::export(&asset.asset, Some(ext), "fuzz");
        }
    }
}

/// A whole GRF that parsed: names look up; a kept 1.x name field holds the name read from it; the document
/// rebuilds the file byte for byte (under the file's signature); enciphering undoes deciphering on whatever bytes an entry holds.
pub fn grf(data: &[u8]) {
    use relic::ragnarok::grf;
    let archive = grf::parse(data).expect("parsed once");
    for entry in &archive.entries {
        let _ = archive.find_ci(&entry.name);
        if let Some(field) = &entry.name_field {
            assert!(grf::read::v1_name_of(field) == entry.name_raw, "name field and name disagree");
        }
    }
    // Under the signature it was read with: an Event Horizon file keeps its own (the document does not say).
    let rebuilt =
        grf::write_document_as(&grf::convert::to_document(&archive), archive.signature).expect("the document writes");
    assert!(rebuilt == data, "document round trip differs");
    for i in 0..archive.len() {
        if let Some(cipher) = archive.cipher(i) {
            let stored = archive.stored(i);
            let mut b = stored.to_vec();
            grf::des::decipher(&mut b, cipher);
            grf::des::encipher(&mut b, cipher);
            assert!(b == stored, "entry {i}: encipher(decipher(x)) != x");
        }
    }
}

/// An RSM's mesh tree (roots, parents, textures per mesh) is walked, and the model writes back.
fn ro_rsm(data: &[u8]) {
    use relic::ragnarok::rsm::{parse, write};
    let model = parse(data).expect("parsed once");
    let _ = model.roots();
    let _ = model.parents();
    for m in &model.meshes {
        let _ = model.mesh_textures(m);
    }
    assert_eq!(write(&model).expect("a parsed model writes"), data, "parse → write");
}

/// An ACT writes back, and every action draws (with a small made-up sprite, within a pixel budget), as a
/// body and with itself as its head (through its own anchors).
fn ro_act(data: &[u8]) {
    use relic::ragnarok::act::convert::{draw_action, Drawn};
    use relic::ragnarok::act::render::{FrameImage, Sprites};
    use relic::ragnarok::act::Act;
    let parsed = Act::read(data).expect("parsed once");
    assert_eq!(parsed.to_bytes().expect("a parsed file writes"), data, "read → write");
    let (three, one) = ([200u8; 3 * 2 * 4], [100u8; 4]);
    let palette = [FrameImage { width: 3, height: 2, rgba: &three }];
    let rgba = [FrameImage { width: 1, height: 1, rgba: &one }];
    let body = Drawn { act: &parsed, sprites: Sprites { palette: &palette, rgba: &rgba } };
    let mut budget = 1 << 22;
    for a in 0..parsed.actions.len() {
        if draw_action(&body, None, a, &mut budget).is_err() || draw_action(&body, Some(&body), a, &mut budget).is_err()
        {
            break;
        }
    }
}

/// A GND writes back, and its ground scene (with water) builds.
fn ro_gnd(data: &[u8]) {
    use relic::ragnarok::gnd::{ground_scene, Gnd, GroundOptions};
    let parsed = Gnd::read(data).expect("parsed once");
    assert_eq!(parsed.to_bytes().expect("a parsed file writes"), data, "read → write");
    let scene = ground_scene(&parsed, None, &GroundOptions::default()).expect("a parsed ground builds");
    assert!(!scene.roots.is_empty());
}

/// A palette that reads writes back as read; identification by name and content never claims a `.pal` its bytes contradict: a file is `ro-pal` only
/// at 1024 bytes, whatever the names of other formats it is tried under.
fn ro_pal_any(data: &[u8]) {
    use relic::ragnarok::pal::{self, RoPalette};
    if let Ok(p) = RoPalette::read(data) {
        assert_eq!(p.to_bytes().ok().as_deref(), Some(data), "a palette writes back as read");
    }
    for name in ["fuzz.pal", "fuzz.spr", "fuzz.db", "acks.db", "fuzz.cam", "fuzz.bon", "fuzz.tga", "fuzz.mob"] {
        crate::check_identify(name, data);
        if relic::registry::sniff(data, name).is_some_and(|(f, _)| f.id == pal::FORMAT_ID) {
            assert_eq!(data.len(), pal::SIZE, "only a 1024-byte file is a Ragnarok palette");
        }
    }
}

/// A GAT writes back, and its walkability PNG (which records the map) packs back to the same bytes.
fn ro_gat(name: &str, data: &[u8]) {
    use relic::ragnarok::gat::{self, Gat};
    let parsed = Gat::read(data).expect("parsed once");
    assert_eq!(parsed.to_bytes().expect("a parsed file writes"), data, "read → write");
    if parsed.cells.is_empty() {
        return;
    }
    let png = relic::export::png::encode_image(&gat::convert::walkability(&parsed, data)).expect("encodes");
    let png = &png.first().expect("one PNG").bytes;
    let faces = Faces::of(&gat::FORMAT, name);
    let back = faces.pack_input("w.png", png, &PackRequest::default()).expect("its PNG packs");
    assert_eq!(back, data, "walkability PNG → GAT");
}

/// A client table writes back, and its UTF-8 text packs back to the same bytes.
/// A layer order writes back byte for byte, and every frame the document lists answers `priority`.
fn ro_imf(data: &[u8]) {
    use relic::ragnarok::imf::Imf;
    let parsed = Imf::read(data).expect("parsed once");
    assert_eq!(parsed.to_bytes().expect("a parsed file writes"), data, "read → write");
    for (layer, actions) in parsed.layers.iter().enumerate() {
        for (action, frames) in actions.iter().enumerate() {
            for (frame, f) in frames.iter().enumerate() {
                assert_eq!(
                    parsed.priority(layer, action, frame),
                    Some(f.priority),
                    "priority {layer}/{action}/{frame}"
                );
            }
        }
    }
}

fn ro_table(name: &str, data: &[u8]) {
    use relic::ragnarok::table::{self, Table};
    let parsed = Table::read(data).expect("parsed once");
    assert_eq!(parsed.to_bytes().ok().as_deref(), Some(data), "read → write");
    let faces = Faces::of(&table::FORMAT, name);
    let back = faces.pack_input("t.txt", parsed.text.as_bytes(), &PackRequest::default());
    assert_eq!(back.ok().as_deref(), Some(data), "UTF-8 text → the same bytes");
}

/// Every SRSC record body decodes or fails cleanly and what decodes encodes back to the same bytes; the
/// strings a translator edits apply and write unchanged.
fn drakan_srsc(data: &[u8]) {
    use relic::drakan::{records, srsc};
    let file = srsc::parse(data).expect("parsed once");
    for i in 0..file.entries.len() {
        let e = file.entries[i];
        if let Ok(Some(decoded)) = records::decode(e.record_type, file.body(i), file.body_offset(i)) {
            assert!(records::encode(&decoded) == file.body(i), "record 0x{:04X} encodes differently", e.record_type);
        }
    }
    let mut doc = srsc::convert::to_document(&file);
    let strings = srsc::convert::strings_map(&doc);
    srsc::convert::apply_strings(&mut doc, &strings).expect("its own strings apply");
    assert!(srsc::write_document(&doc).expect("writes") == data, "unchanged strings change the file");
}

/// Every FTG name is found again (the first of duplicates), extraction paths never meet, and the archive
/// lends its palette to its entries.
fn dr_ftg(name: &str, data: &[u8]) {
    use relic::dark_reign::ftg;
    let archive = ftg::parse(data).expect("parsed once");
    for (i, e) in archive.entries.iter().enumerate() {
        assert!(archive.find(&e.name).is_some_and(|j| j <= i), "lookup misses `{}`", e.name);
    }
    let paths = ftg::convert::paths(&archive);
    let unique: std::collections::HashSet<String> = paths.iter().map(|p| p.to_ascii_lowercase()).collect();
    assert!(unique.len() == paths.len() || paths.iter().any(|p| p.contains('~')), "paths meet");
    let _ = Faces::of(&ftg::FORMAT, name).entry_options(data, &ConvertOptions::default());
}

/// Any input as a `--palette` file of every kind (PALS, JASC-PAL, RIFF, raw) in both scalings.
fn dr_pal_any(data: &[u8]) {
    use relic::codec::palette::{Palette, SixBitScaling};
    for scaling in [SixBitScaling::Replicate, SixBitScaling::Times4] {
        if let Ok(p) = Palette::read(data, scaling) {
            assert_eq!(p.colors.len(), 256, "a palette has 256 entries");
        }
    }
}

/// A Ragnarok sprite writes back, draws its palette frames through its own palette and a fixed one, turns
/// its RGBA frames, every palette frame's indices survive relic's RLE encoder, and an edit through the typed
/// API (RLE dropped) writes a file that reads back the same.
fn ro_spr(data: &[u8]) {
    use relic::ragnarok::spr::{self, rle, Spr};
    let sprite = Spr::read(data).expect("parsed once");
    assert_eq!(sprite.to_bytes().expect("a parsed sprite writes"), data, "read → to_bytes");
    let grey: [[u8; 4]; 256] = std::array::from_fn(|i| [i as u8, i as u8, i as u8, 0]);
    let drawn = sprite.palette_frames_rgba(Some(&grey)).expect("drawn through a given palette");
    assert_eq!(drawn.len(), sprite.palette_frames.len());
    if sprite.palette.is_some() {
        sprite.palette_frames_rgba(None).expect("drawn through its own palette");
    }
    for (f, d) in sprite.palette_frames.iter().zip(&drawn) {
        assert_eq!(d.rgba.len(), f.indices.len() * 4);
        let encoded = rle::encode(&f.indices);
        assert_eq!(rle::decode(&encoded, f.indices.len(), 0, 0).expect("own RLE decodes"), f.indices);
    }
    for (f, d) in sprite.rgba_frames.iter().zip(sprite.rgba_frames().expect("turned")) {
        assert_eq!(spr::types::rgba_to_abgr(f.width, &d.rgba), f.abgr, "RGBA → ABGR undoes ABGR → RGBA");
    }
    let mut edited = sprite.clone();
    edited.palette_frames.iter_mut().for_each(|f| f.rle = None);
    if let Ok(bytes) = edited.to_bytes() {
        let back = Spr::read(&bytes).expect("a written sprite reads");
        assert_eq!(
            back.palette_frames.iter().map(|f| &f.indices).collect::<Vec<_>>(),
            sprite.palette_frames.iter().map(|f| &f.indices).collect::<Vec<_>>()
        );
    }
}

/// An RCD writes back, and every pixel block whose lines decode re-encodes as FreeRCT's generator writes it
/// to the same pixels (32PX: as the generator can write them).
fn freerct_rcd(data: &[u8]) {
    use relic::freerct::rcd::{self, pixels, Body};
    let file = rcd::parse(data).expect("parsed once");
    assert_eq!(rcd::write(&file).expect("a parsed file writes"), data, "parse → write");
    for block in &file.blocks {
        match &block.body {
            Body::Pixels8 { width, height, data, .. } => {
                let Ok(indices) = pixels::decode_8bpp(data, *width, *height, 0) else { continue };
                let again = pixels::encode_8bpp(*width, *height, &indices);
                let back = pixels::decode_8bpp(&again, *width, *height, 0).expect("re-encoded 8PXL lines decode");
                assert!(back == indices, "8PXL decode → encode → decode changed the pixels");
            }
            Body::Pixels32 { width, height, data, .. } => {
                let Ok(planes) = pixels::decode_32bpp(data, *width, *height, 0) else { continue };
                let again = pixels::encode_32bpp(*width, *height, &planes);
                let back = pixels::decode_32bpp(&again, *width, *height, 0).expect("re-encoded 32PX lines decode");
                assert!(back == drawable(planes), "32PX decode → encode → decode changed the pixels");
            }
            _ => {}
        }
    }
}

/// The planes as the generator can write them: a recolour pixel of layer 0 is a plain (black) pixel, and a
/// fully transparent plain pixel has no colour.
fn drawable(mut p: relic::freerct::rcd::pixels::Planes32) -> relic::freerct::rcd::pixels::Planes32 {
    for i in 0..p.recolour.len() {
        if p.recolour[i] && p.layer[i] == 0 {
            p.recolour[i] = false;
            p.intensity[i] = 0;
        }
        if !p.recolour[i] && p.rgba[i * 4 + 3] == 0 {
            p.rgba[i * 4..i * 4 + 4].fill(0);
        }
    }
    p
}
