//! Journeys where an editor drops what relic marks its outputs with, through the `relic` binary: the record
//! `relic convert` writes beside its outputs (`<input>.relic.json`) keeps what `pack` needs.
//!
//! - Evil Islands texts saved without their byte order mark pack back to their entries in cp1251; text that
//!   is not UTF-8 is refused with file, line and column; `edit --add` of a `.txt` onto a text entry
//!   encodes it.
//! - An MMP PNG and a GAT walkability PNG re-saved without their `tEXt` chunks keep the texture's pixel
//!   format and mip count, the map's heights; without record and chunks, pack says what it chose.
//! - An edited frame of a Dark Reign or Ragnarok sprite gives no warning about the (untouched) view; an
//!   edited view does.

use std::path::{Path, PathBuf};

use relic::evil_islands::res::Res;

use crate::common::{corpus, relic, samples};

fn stderr(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

/// The entries of a RES: (name as stored, bytes).
fn entries(path: &Path) -> Vec<(Vec<u8>, Vec<u8>)> {
    let bytes = std::fs::read(path).unwrap();
    let res = Res::read(&bytes).unwrap();
    let mut out: Vec<(Vec<u8>, Vec<u8>)> =
        (0..res.records.len()).map(|i| (res.name(i).to_vec(), res.data(i).to_vec())).collect();
    out.sort();
    out
}

fn entry<'a>(entries: &'a [(Vec<u8>, Vec<u8>)], name: &[u8]) -> Option<&'a [u8]> {
    entries.iter().find(|(n, _)| n == name).map(|(_, d)| d.as_slice())
}

/// `Привет` then CRLF then `мир` in cp1251.
const GREETING_CP1251: &[u8] = b"\xCF\xF0\xE8\xE2\xE5\xF2\r\n\xEC\xE8\xF0";

/// A hand-built RES: two text entries (one cp1251 Cyrillic, one ASCII) and a real `map.txt` entry (kept raw
/// by convert).
fn text_archive() -> Vec<u8> {
    crate::common::handmade_res(&[
        (b"string greeting", GREETING_CP1251),
        (b"tip 21201", b"Keys\r\nPress F1"),
        (b"map.txt", b"raw map notes"),
    ])
}

#[test]
fn a_text_saved_without_its_bom_packs_back_to_its_entry_in_cp1251() {
    let dir = tempfile::tempdir().unwrap();
    let res = dir.path().join("t.res");
    std::fs::write(&res, text_archive()).unwrap();
    let out = dir.path().join("out");
    relic().args(["convert", "-q", "-o"]).arg(&out).arg(&res).assert().success();
    let folder = out.join("t.res");
    let greeting = folder.join("string greeting.txt");
    assert_eq!(std::fs::read(&greeting).unwrap(), "\u{FEFF}Привет\r\nмир".as_bytes());
    assert_eq!(std::fs::read(folder.join("map.txt")).unwrap(), b"raw map notes", "kept raw");
    // The record lists the texts as texts, the raw entry as an output.
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("t.res.relic.json")).unwrap()).unwrap();
    let role =
        |path: &str| record["files"].as_array().unwrap().iter().find(|f| f["path"] == path).map(|f| f["role"].clone());
    assert_eq!(role("t.res/string greeting.txt"), Some("text".into()));
    assert_eq!(role("t.res/tip 21201.txt"), Some("text".into()));
    assert_eq!(role("t.res/map.txt"), Some("output".into()));

    // An editor saves the text as UTF-8 without the mark, edited; another strips the mark only.
    std::fs::write(&greeting, "Привет\r\nвсем".as_bytes()).unwrap();
    let tip = folder.join("tip 21201.txt");
    let tip_text = std::fs::read(&tip).unwrap();
    std::fs::write(&tip, &tip_text[3..]).unwrap();
    let back = dir.path().join("back.res");
    let packed = relic().args(["pack", "ei-res", "-o"]).arg(&back).arg(&folder).assert().success();
    assert!(!stderr(&packed).contains("warning"), "{}", stderr(&packed));
    let got = entries(&back);
    let names: Vec<&[u8]> = got.iter().map(|(n, _)| n.as_slice()).collect();
    assert_eq!(names, [&b"map.txt"[..], b"string greeting", b"tip 21201"], "names kept, nothing renamed");
    assert_eq!(entry(&got, b"string greeting"), Some(&b"\xCF\xF0\xE8\xE2\xE5\xF2\r\n\xE2\xF1\xE5\xEC"[..]));
    assert_eq!(entry(&got, b"tip 21201"), Some(&b"Keys\r\nPress F1"[..]), "unedited: the same bytes");
    assert_eq!(entry(&got, b"map.txt"), Some(&b"raw map notes"[..]));

    // Converted again, the edit is there.
    let again = dir.path().join("again");
    relic().args(["convert", "-q", "-o"]).arg(&again).arg(&back).assert().success();
    assert_eq!(std::fs::read(again.join("back.res/string greeting.txt")).unwrap(), "\u{FEFF}Привет\r\nвсем".as_bytes());

    // A folder holding the record packs without it: the record is relic's, never an entry.
    let whole = dir.path().join("whole.res");
    let packed = relic().args(["pack", "ei-res", "-o"]).arg(&whole).arg(&out).assert().success();
    assert!(stderr(&packed).contains("left out t.res.relic.json: relic's record"), "{}", stderr(&packed));
    let got = entries(&whole);
    assert!(
        got.iter().all(|(n, _)| !n.ends_with(b".relic.json")),
        "{:?}",
        got.iter().map(|e| &e.0).collect::<Vec<_>>()
    );
    assert_eq!(entry(&got, b"t.res\\string greeting").map(<[u8]>::len), Some(12));
}

#[test]
fn a_text_that_is_not_utf8_is_refused_with_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let res = dir.path().join("t.res");
    std::fs::write(&res, text_archive()).unwrap();
    let out = dir.path().join("out");
    relic().args(["convert", "-q", "-o"]).arg(&out).arg(&res).assert().success();
    let greeting = out.join("t.res/string greeting.txt");
    // Saved as cp1251 by an editor that guessed the code page (no mark): `Привет` CRLF `м` then 0xE8.
    std::fs::write(&greeting, b"Hi\r\nx\xE8y").unwrap();
    let back = dir.path().join("back.res");
    let refused = relic().args(["pack", "ei-res", "-o"]).arg(&back).arg(out.join("t.res")).assert().failure();
    let err = stderr(&refused);
    assert!(
        err.contains("string greeting.txt:2:2: text entry `string greeting`: byte 0xE8 at offset 5 is not UTF-8"),
        "{err}"
    );
    assert_eq!(refused.get_output().status.code(), Some(1));
    assert!(!back.exists(), "nothing written");
}

#[test]
fn without_a_record_the_mark_still_decides_and_utf8_without_it_is_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    let res = dir.path().join("t.res");
    std::fs::write(&res, text_archive()).unwrap();
    let out = dir.path().join("out");
    relic().args(["convert", "-q", "-o"]).arg(&out).arg(&res).assert().success();
    std::fs::remove_file(out.join("t.res.relic.json")).unwrap();
    let greeting = out.join("t.res/string greeting.txt");
    std::fs::write(&greeting, "Привет".as_bytes()).unwrap();
    let back = dir.path().join("back.res");
    let packed = relic().args(["pack", "ei-res", "-o"]).arg(&back).arg(out.join("t.res")).assert().success();
    let said = stderr(&packed);
    assert!(said.contains("warning: ") && said.contains("string greeting.txt has no UTF-8 byte order mark"), "{said}");
    let got = entries(&back);
    // The text with its mark still packs back; the other is stored as the file it is, as the warning said.
    assert_eq!(entry(&got, b"tip 21201"), Some(&b"Keys\r\nPress F1"[..]));
    assert_eq!(entry(&got, b"string greeting.txt"), Some("Привет".as_bytes()));
}

#[test]
fn a_hostile_record_is_ignored_with_its_place_named() {
    let dir = tempfile::tempdir().unwrap();
    let res = dir.path().join("t.res");
    std::fs::write(&res, text_archive()).unwrap();
    let out = dir.path().join("out");
    relic().args(["convert", "-q", "-o"]).arg(&out).arg(&res).assert().success();
    let record = out.join("t.res.relic.json");
    // A record claiming a file outside its folder, and one not JSON at all.
    std::fs::write(
        &record,
        r#"{"relic_record": 1, "input": "t.res", "format": "ei-res", "note": "",
            "files": [{"path": "../elsewhere/x.txt", "role": "text", "blake3": ""}]}"#,
    )
    .unwrap();
    let back = dir.path().join("back.res");
    let packed = relic().args(["pack", "ei-res", "-o"]).arg(&back).arg(out.join("t.res")).assert().success();
    assert!(
        stderr(&packed).contains("t.res.relic.json: files[0].path `../elsewhere/x.txt`: `..` path component: ignored"),
        "{}",
        stderr(&packed)
    );
    assert_eq!(entry(&entries(&back), b"string greeting"), Some(GREETING_CP1251));
    std::fs::write(&record, "{\n  \"relic_record\": 1,\n  \"files\": [\n    oops").unwrap();
    let packed = relic().args(["pack", "ei-res", "--force", "-o"]).arg(&back).arg(out.join("t.res")).assert().success();
    assert!(
        stderr(&packed).contains("t.res.relic.json: not a record relic convert wrote (line 4, column 5"),
        "{}",
        stderr(&packed)
    );
    // One claiming more than a record can hold is not read at all (a sparse file: nothing is allocated).
    let file = std::fs::OpenOptions::new().write(true).open(&record).unwrap();
    file.set_len(relic::record::MAX_RECORD_BYTES + 1).unwrap();
    let packed = relic().args(["pack", "ei-res", "--force", "-o"]).arg(&back).arg(out.join("t.res")).assert().success();
    let said = stderr(&packed);
    assert!(
        said.contains(&format!("t.res.relic.json: {} bytes, over the", relic::record::MAX_RECORD_BYTES + 1)),
        "{said}"
    );
    assert_eq!(entry(&entries(&back), b"string greeting"), Some(GREETING_CP1251), "the marked texts still pack");
}

#[test]
fn the_corpus_texts_pack_back_without_their_bom() {
    let Some(texts) = corpus("evil-islands/texts_en.res") else { return };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    relic().args(["convert", "-q", "-o"]).arg(&out).arg(&texts).assert().success();
    let folder = out.join("texts_en.res");
    let original = entries(&texts);
    assert_eq!(original.len(), 3170);
    // Every text loses its mark (a script re-saving the folder), and one is edited.
    let mut edited_name = None;
    for e in std::fs::read_dir(&folder).unwrap() {
        let path = e.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        if let Some(body) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
            std::fs::write(&path, body).unwrap();
            if edited_name.is_none() {
                let name = path.file_name().unwrap().to_string_lossy().trim_end_matches(".txt").to_string();
                std::fs::write(&path, "Edited — by hand\r\n").unwrap();
                edited_name = Some(name);
            }
        }
    }
    let edited_name = edited_name.expect("a text entry");
    let back = dir.path().join("back.res");
    relic().args(["pack", "ei-res", "-q", "-o"]).arg(&back).arg(&folder).assert().success();
    let packed = entries(&back);
    assert_eq!(packed.len(), original.len(), "every entry, none renamed");
    let edited = relic::codec::text::encode(relic::codec::text::CP1251, &edited_name).unwrap();
    for ((name, data), (name_before, before)) in packed.iter().zip(&original) {
        assert_eq!(name, name_before);
        if *name == edited {
            assert_eq!(data, b"Edited \x97 by hand\r\n", "the em dash is 0x97 in cp1251");
        } else {
            assert_eq!(data, before, "{}", String::from_utf8_lossy(name));
        }
    }
}

#[test]
fn edit_add_of_a_text_onto_a_text_entry_encodes_it_to_cp1251() {
    let dir = tempfile::tempdir().unwrap();
    let res = dir.path().join("t.res");
    std::fs::write(&res, text_archive()).unwrap();
    // As an editor saves UTF-8: with a mark (Notepad) or without.
    let helm = dir.path().join("helm.txt");
    std::fs::write(&helm, "\u{FEFF}Шлем полиции\r\n").unwrap();
    let hello = dir.path().join("hello.txt");
    std::fs::write(&hello, "Здравствуй").unwrap();
    let done = relic()
        .arg("edit")
        .arg(&res)
        .arg("--add")
        .arg(format!("{}=UNIT Human_Kania_Police_Helm_F10", helm.display()))
        .arg("--add")
        .arg(format!("{}=string greeting", hello.display()))
        .assert()
        .success();
    let said = stderr(&done);
    assert!(
        said.contains("UTF-8 text encoded to cp1251 for the text entry `UNIT Human_Kania_Police_Helm_F10`"),
        "{said}"
    );
    let got = entries(&res);
    assert_eq!(
        entry(&got, b"UNIT Human_Kania_Police_Helm_F10"),
        Some(&b"\xD8\xEB\xE5\xEC \xEF\xEE\xEB\xE8\xF6\xE8\xE8\r\n"[..])
    );
    assert_eq!(entry(&got, b"string greeting"), Some(&b"\xC7\xE4\xF0\xE0\xE2\xF1\xF2\xE2\xF3\xE9"[..]));
    // A `.txt` onto an entry with an extension is a file like any other: stored as it is.
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "\u{FEFF}plain").unwrap();
    relic().arg("edit").arg(&res).arg("--add").arg(format!("{}=map.txt", notes.display())).assert().success();
    assert_eq!(entry(&entries(&res), b"map.txt"), Some("\u{FEFF}plain".as_bytes()));
    // Not UTF-8, or a character cp1251 lacks: refused, located, the archive untouched.
    let before = std::fs::read(&res).unwrap();
    std::fs::write(&hello, b"ok\n\xFFbad").unwrap();
    let refused =
        relic().arg("edit").arg(&res).arg("--add").arg(format!("{}=tip 21201", hello.display())).assert().failure();
    assert!(
        stderr(&refused).contains("hello.txt:2:1: text entry `tip 21201`: byte 0xFF at offset 3 is not UTF-8"),
        "{}",
        stderr(&refused)
    );
    std::fs::write(&hello, "a ★").unwrap();
    let refused =
        relic().arg("edit").arg(&res).arg("--add").arg(format!("{}=tip 21201", hello.display())).assert().failure();
    assert!(
        stderr(&refused).contains("hello.txt:1:3: text entry `tip 21201`: the character '★'"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(std::fs::read(&res).unwrap(), before);
}

/// A PNG decoded and written again by the `png` crate with nothing but its pixels (as GIMP, Photoshop and
/// optimisers save), with `paint` applied to its RGBA pixels.
fn resave_without_text(path: &Path, paint: impl FnOnce(u32, u32, &mut [u8])) {
    let mut decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Rgba, png::BitDepth::Eight), "{path:?}");
    paint(info.width, info.height, &mut buf);
    let mut encoder = png::Encoder::new(std::fs::File::create(path).unwrap(), info.width, info.height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header().unwrap().write_image_data(&buf).unwrap();
    assert!(!std::fs::read(path).unwrap().windows(4).any(|w| w == b"tEXt"), "no text chunk left");
}

#[test]
fn an_mmp_png_resaved_without_its_text_keeps_dxt1_and_its_mips() {
    let dir = tempfile::tempdir().unwrap();
    let mmp = dir.path().join("tex.mmp");
    std::fs::copy(samples().join("evil_islands/example_dxt1.mmp"), &mmp).unwrap();
    let original = std::fs::read(&mmp).unwrap();
    let header = relic::evil_islands::mmp::parse(&original).unwrap().header;
    assert_eq!(header.fourcc.0, u32::from_le_bytes(*b"DXT1"));
    assert!(header.mip_levels_count > 1, "a texture with mips: {}", header.mip_levels_count);
    let out = dir.path().join("out");
    relic().args(["convert", "-q", "-o"]).arg(&out).arg(&mmp).assert().success();
    let png_path = out.join("tex.mmp.png");
    assert!(out.join("tex.mmp.relic.json").is_file());
    // Painted: the top-left 4 × 4 block pure red (exact in DXT1's 5:6:5), then saved without text chunks.
    resave_without_text(&png_path, |w, _, px| {
        for y in 0..4 {
            for x in 0..4 {
                px[(y * w as usize + x) * 4..][..4].copy_from_slice(&[255, 0, 0, 255]);
            }
        }
    });
    let back = dir.path().join("back.mmp");
    let packed = relic().args(["pack", "ei-mmp", "-o"]).arg(&back).arg(&png_path).assert().success();
    assert!(stderr(&packed).contains("has lost relic's text chunks"), "{}", stderr(&packed));
    let bytes = std::fs::read(&back).unwrap();
    let packed_header = relic::evil_islands::mmp::parse(&bytes).unwrap().header;
    assert_eq!(packed_header.fourcc, header.fourcc, "DXT1 kept");
    assert_eq!(packed_header.mip_levels_count, header.mip_levels_count, "the mip count kept");
    assert_eq!(bytes.len(), original.len(), "as large as the original, not ARGB8");
    // Converted again, the red block is there.
    let again = dir.path().join("again");
    relic().args(["convert", "-q", "-o"]).arg(&again).arg(&back).assert().success();
    let image = relic::export::png::decode_rgba(&std::fs::read(again.join("back.mmp.png")).unwrap()).unwrap();
    let relic::asset::Pixels::Rgba8(px) = &image.frames[0].pixels else { panic!("RGBA") };
    assert_eq!(&px[..4], [255, 0, 0, 255]);

    // No record and no chunk: pack says what it chose and why.
    std::fs::remove_file(out.join("tex.mmp.relic.json")).unwrap();
    let plain = dir.path().join("plain.mmp");
    let packed = relic().args(["pack", "ei-mmp", "-o"]).arg(&plain).arg(&png_path).assert().success();
    let said = stderr(&packed);
    assert!(
        said.contains("records no texture") && said.contains("written as argb8") && said.contains("1 mip level"),
        "{said}"
    );
    let plain_header = relic::evil_islands::mmp::parse(&std::fs::read(&plain).unwrap()).unwrap().header;
    assert_eq!(plain_header.fourcc.pixel_format(), Some(relic::evil_islands::mmp::PixelFormat::Argb8));
    assert_eq!(plain_header.mip_levels_count, 1);
}

#[test]
fn a_gat_png_resaved_without_its_text_keeps_the_map_and_its_heights() {
    let dir = tempfile::tempdir().unwrap();
    let gat = dir.path().join("map.gat");
    std::fs::copy(samples().join("ragnarok/map.gat"), &gat).unwrap();
    let original = std::fs::read(&gat).unwrap();
    let out = dir.path().join("out");
    relic().args(["convert", "-q", "-o"]).arg(&out).arg(&gat).assert().success();
    let png_path = out.join("map.gat/walkability.png");
    assert!(png_path.is_file());
    resave_without_text(&png_path, |_, _, _| {});
    let back = dir.path().join("back.gat");
    let packed = relic().args(["pack", "ro-gat", "-o"]).arg(&back).arg(&png_path).assert().success();
    assert!(stderr(&packed).contains("has lost relic's text chunks"), "{}", stderr(&packed));
    assert_eq!(std::fs::read(&back).unwrap(), original, "heights and cells as they were");
    // Without the record, refused, saying where the heights would have come from.
    std::fs::remove_file(out.join("map.gat.relic.json")).unwrap();
    let refused =
        relic().args(["pack", "ro-gat", "-o"]).arg(dir.path().join("no.gat")).arg(&png_path).assert().failure();
    assert!(stderr(&refused).contains("records no GAT"), "{}", stderr(&refused));
}

/// The last line of an edit: whether pack said anything about a view.
fn view_warning(said: &str) -> Option<&str> {
    said.lines().find(|l| l.contains("is a view"))
}

fn manifest(assert: &assert_cmd::assert::Assert) -> Vec<PathBuf> {
    let v: serde_json::Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    v["outputs"].as_array().unwrap().iter().map(|o| PathBuf::from(o["output"].as_str().unwrap())).collect()
}

fn repaint(path: &Path, rgba: [u8; 4]) {
    let image = relic::export::png::decode_rgba(&std::fs::read(path).unwrap()).unwrap();
    let f = &image.frames[0];
    let relic::asset::Pixels::Rgba8(px) = &f.pixels else { panic!("RGBA") };
    let mut px = px.clone();
    px[..4].copy_from_slice(&rgba);
    let mut encoder = png::Encoder::new(std::fs::File::create(path).unwrap(), f.width, f.height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header().unwrap().write_image_data(&px).unwrap();
}

#[test]
fn an_edited_dark_reign_frame_gives_no_view_warning_and_an_edited_view_does() {
    let dir = tempfile::tempdir().unwrap();
    let spr = dir.path().join("unit.spr");
    std::fs::copy(samples().join("dark_reign/unit.spr"), &spr).unwrap();
    std::fs::copy(samples().join("dark_reign/BARREN.PAL"), dir.path().join("BARREN.PAL")).unwrap();
    let converted = relic().args(["convert", "--json", "-o"]).arg(dir.path().join("out")).arg(&spr).assert().success();
    let outputs = manifest(&converted);
    let json = outputs.iter().find(|p| p.extension().is_some_and(|e| e == "json")).unwrap();
    let atlas = outputs.iter().find(|p| p.ends_with("atlas.view.png")).unwrap();
    let frame = outputs.iter().find(|p| p.file_name().is_some_and(|n| n == "0_2_1.png")).unwrap();
    // A frame's first pixel painted with a colour of its own (another frame pixel's).
    let image = relic::export::png::decode_rgba(&std::fs::read(frame).unwrap()).unwrap();
    let relic::asset::Pixels::Rgba8(px) = &image.frames[0].pixels else { panic!("RGBA") };
    let opaque = px.chunks_exact(4).find(|p| p[3] == 255).unwrap();
    repaint(frame, opaque.try_into().unwrap());
    let packed = relic().args(["pack", "dr-spr", "-o"]).arg(dir.path().join("a.spr")).arg(json).assert().success();
    let said = stderr(&packed);
    assert_eq!(view_warning(&said), None, "{said}");
    // The view itself edited: warned about.
    repaint(atlas, [1, 2, 3, 255]);
    let packed = relic().args(["pack", "dr-spr", "-o"]).arg(dir.path().join("b.spr")).arg(json).assert().success();
    let said = stderr(&packed);
    let warning = view_warning(&said).unwrap_or_else(|| panic!("{said}"));
    assert!(warning.starts_with("warning: ") && warning.contains("atlas.view.png"), "{warning}");
}

/// A Ragnarok sprite (SPR 2.1) by hand: one 3 × 2 palette frame (RLE `05 00 04 06`), one 1 × 1 RGBA frame,
/// the palette (entry i is (i, 2i, 255 − i)).
fn ragnarok_sprite() -> Vec<u8> {
    let mut out = b"SP\x01\x02".to_vec();
    out.extend([1, 0, 1, 0]);
    out.extend([3, 0, 2, 0, 4, 0, 5, 0, 4, 6]);
    out.extend([1, 0, 1, 0, 0x80, 0x30, 0x20, 0x10]);
    out.extend((0..=255u8).flat_map(|i| [i, i.wrapping_mul(2), 255 - i, 0]));
    out
}

#[test]
fn an_edited_ragnarok_frame_gives_no_view_warning_and_an_edited_view_does() {
    let dir = tempfile::tempdir().unwrap();
    let spr = dir.path().join("body.spr");
    std::fs::write(&spr, ragnarok_sprite()).unwrap();
    let converted = relic().args(["convert", "--json", "-o"]).arg(dir.path().join("out")).arg(&spr).assert().success();
    let outputs = manifest(&converted);
    let json = outputs.iter().find(|p| p.extension().is_some_and(|e| e == "json")).unwrap();
    let sheet = outputs.iter().find(|p| p.ends_with("sheet.view.png")).unwrap();
    let rgba = outputs.iter().find(|p| p.file_name().is_some_and(|n| n == "rgba_000.png")).unwrap();
    repaint(rgba, [9, 8, 7, 255]);
    let packed = relic().args(["pack", "ro-spr", "-o"]).arg(dir.path().join("a.spr")).arg(json).assert().success();
    let said = stderr(&packed);
    assert_eq!(view_warning(&said), None, "{said}");
    let bytes = std::fs::read(dir.path().join("a.spr")).unwrap();
    assert_eq!(&bytes[18..26], [1, 0, 1, 0, 255, 7, 8, 9], "the frame edit is packed (stored A B G R)");
    repaint(sheet, [1, 2, 3, 255]);
    let packed = relic().args(["pack", "ro-spr", "-o"]).arg(dir.path().join("b.spr")).arg(json).assert().success();
    let said = stderr(&packed);
    let warning = view_warning(&said).unwrap_or_else(|| panic!("{said}"));
    assert!(warning.starts_with("warning: ") && warning.contains("sheet.view.png"), "{warning}");
}

/// Every PNG below `dir`.
fn pngs_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.is_dir() {
            out.extend(pngs_under(&path));
        } else if path.extension().is_some_and(|e| e == "png") {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn the_corpus_dxt_textures_of_an_archive_keep_their_format_when_resaved() {
    let Some(aux) = corpus("evil-islands/auxData.res") else { return };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    relic().args(["convert", "-q", "-o"]).arg(&out).arg(&aux).assert().success();
    assert!(out.join("auxData.res.relic.json").is_file());
    let original = std::fs::read(&aux).unwrap();
    let res = Res::read(&original).unwrap();
    // Each DXT texture's PNG, re-saved without its chunks, packs in the entry's own format and level count:
    // the record is found above the archive's folder.
    let mut checked = 0;
    for png_path in pngs_under(&out.join("auxData.res")) {
        let rel = png_path.strip_prefix(out.join("auxData.res")).unwrap().to_string_lossy().replace('/', "\\");
        let Some(name) = rel.strip_suffix(".png").filter(|n| n.to_ascii_lowercase().ends_with(".mmp")) else {
            continue;
        };
        let Some(i) = (0..res.records.len()).find(|&i| res.name(i) == name.as_bytes()) else { continue };
        let header = relic::evil_islands::mmp::parse(res.data(i)).unwrap().header;
        let format = header.fourcc.pixel_format();
        use relic::evil_islands::mmp::PixelFormat::{Dxt1, Dxt3};
        if !matches!(format, Some(Dxt1 | Dxt3)) {
            continue;
        }
        resave_without_text(&png_path, |_, _, _| {});
        let back = dir.path().join(format!("{checked}.mmp"));
        let packed = relic().args(["pack", "ei-mmp", "-o"]).arg(&back).arg(&png_path).assert().success();
        assert!(stderr(&packed).contains("has lost relic's text chunks"), "{}", stderr(&packed));
        let got = relic::evil_islands::mmp::parse(&std::fs::read(&back).unwrap()).unwrap().header;
        assert_eq!((got.fourcc, got.mip_levels_count), (header.fourcc, header.mip_levels_count), "{name}");
        checked += 1;
    }
    assert!(checked >= 2, "DXT1 and DXT3 textures: {checked}");
}
