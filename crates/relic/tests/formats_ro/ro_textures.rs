//! Ragnarok textures (issue 24): models find their textures as the client does (the same GRF's
//! `data\texture\`, the client folder the model sits in, then `--textures`), every texture not found is
//! named in a warning of its own (`convert` and `check`), and BMP/TGA files and archive entries convert to
//! PNG with exact pixels (`ro-texture`: BMP magenta keyed transparent, TGA alpha as stored) and pack back
//! from PNG. Models, BMPs and TGAs are built byte by byte here; GRFs with relic's writer.

use crate::glb_read;

use std::path::{Path, PathBuf};

use relic::ops;
use relic::ragnarok::grf;
use relic::registry::{self, ConvertOptions, PackRequest};

/// A 2.3 model: one triangle whose mesh uses the given textures (one face per texture).
fn model(textures: &[&str]) -> Vec<u8> {
    let mut b = Vec::new();
    let i32 = |b: &mut Vec<u8>, v: i32| b.extend_from_slice(&v.to_le_bytes());
    let f32 = |b: &mut Vec<u8>, v: f32| b.extend_from_slice(&v.to_le_bytes());
    let string = |b: &mut Vec<u8>, s: &[u8]| {
        b.extend_from_slice(&(s.len() as i32).to_le_bytes());
        b.extend_from_slice(s);
    };
    b.extend_from_slice(b"GRSM\x02\x03");
    i32(&mut b, 0); // animation length
    i32(&mut b, 0); // shade type
    b.push(255);
    f32(&mut b, 30.0);
    i32(&mut b, 1);
    string(&mut b, b"m");
    i32(&mut b, 1); // meshes
    string(&mut b, b"m");
    string(&mut b, b"");
    i32(&mut b, textures.len() as i32);
    for t in textures {
        // CP949: the names here are ASCII, which CP949 leaves as they are.
        string(&mut b, t.as_bytes());
    }
    for v in [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0] {
        f32(&mut b, v); // matrix, position
    }
    i32(&mut b, 3);
    for v in [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] {
        v.iter().for_each(|&x| f32(&mut b, x));
    }
    i32(&mut b, 3);
    for uv in [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]] {
        i32(&mut b, 0); // colour: 0, as in real files
        uv.iter().for_each(|&x| f32(&mut b, x));
    }
    i32(&mut b, textures.len() as i32);
    for t in 0..textures.len() as u16 {
        i32(&mut b, 24);
        for v in [0u16, 1, 2, 0, 1, 2, t, 0] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        i32(&mut b, 0);
        i32(&mut b, 1);
    }
    for _ in 0..4 {
        i32(&mut b, 0); // scale, rotation and position keys, texture animations
    }
    b
}

/// A 2 × 2 24-bit BMP, bottom row first: bottom = magenta, grey; top = red, (0xFE, 0x02, 0xFF) (magenta as a
/// 16-bit source rounds it).
fn bmp() -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(b"BM");
    b.extend_from_slice(&(54u32 + 16).to_le_bytes());
    b.extend_from_slice(&[0; 4]);
    b.extend_from_slice(&54u32.to_le_bytes());
    b.extend_from_slice(&40u32.to_le_bytes());
    b.extend_from_slice(&2i32.to_le_bytes());
    b.extend_from_slice(&2i32.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&24u16.to_le_bytes());
    b.extend_from_slice(&[0; 24]);
    b.extend_from_slice(&[0xFF, 0x00, 0xFF, 0x80, 0x80, 0x80, 0, 0]); // BGR rows padded to 4 bytes
    b.extend_from_slice(&[0x00, 0x00, 0xFF, 0xFF, 0x02, 0xFE, 0, 0]);
    b
}

/// What [`bmp`] decodes to, top row first.
const BMP_RGBA: [u8; 16] = [255, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0, 0, 128, 128, 128, 255];

/// A 2 × 2 uncompressed 32-bit TGA, top row first (descriptor bit 5), BGRA: red opaque, green half
/// transparent; magenta opaque (TGA has alpha: no colour key), blue transparent.
fn tga() -> Vec<u8> {
    let mut b = vec![0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    b.extend_from_slice(&2u16.to_le_bytes());
    b.extend_from_slice(&2u16.to_le_bytes());
    b.extend_from_slice(&[32, 0x28]);
    b.extend_from_slice(&[0, 0, 255, 255, 0, 255, 0, 128, 255, 0, 255, 255, 255, 0, 0, 0]);
    b
}

const TGA_RGBA: [u8; 16] = [255, 0, 0, 255, 0, 255, 0, 128, 255, 0, 255, 255, 0, 0, 255, 0];

fn png_rgba(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let image = relic::export::png::decode_rgba(bytes).unwrap();
    let f = &image.frames[0];
    let relic::asset::Pixels::Rgba8(px) = &f.pixels else { panic!() };
    (f.width, f.height, px.clone())
}

fn grf_with(files: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let inputs = files
        .iter()
        .map(|(name, bytes)| grf::PackInput {
            name: name.as_bytes().to_vec(),
            source: grf::PackSource::Bytes(bytes.clone()),
        })
        .collect();
    grf::write_archive_bytes(inputs, 0x200).unwrap()
}

/// Converts the inputs with `options`; returns the outputs by path and the run's warnings.
fn convert(inputs: &[PathBuf], out: &Path, options: ConvertOptions) -> (Vec<PathBuf>, Vec<String>) {
    let req = ops::ConvertRequest { options, ..Default::default() };
    let report = ops::convert(inputs, out, &req, &ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let notes = req.options.notes.lock().unwrap().clone();
    (report.outputs.iter().map(|o| PathBuf::from(&o.output)).collect(), notes)
}

fn output<'a>(outputs: &'a [PathBuf], suffix: &str) -> &'a Path {
    outputs
        .iter()
        .find(|p| p.to_string_lossy().ends_with(suffix))
        .unwrap_or_else(|| panic!("no {suffix} in {outputs:?}"))
}

/// The glTF's images, decoded, in order.
fn images(glb: &[u8]) -> Vec<(u32, u32, Vec<u8>)> {
    let g = glb_read::parse(glb);
    g.json["images"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|i| {
                    let v = &g.json["bufferViews"][i["bufferView"].as_u64().unwrap() as usize];
                    let at = v["byteOffset"].as_u64().unwrap_or(0) as usize;
                    png_rgba(&g.bin[at..at + v["byteLength"].as_u64().unwrap() as usize])
                })
                .collect()
        })
        .unwrap_or_default()
}

fn validate(path: &Path) {
    if let Some(reports) = relic::testing::validate_gltf(&[path]) {
        assert_eq!(reports[0].errors, 0, "{}: {:#?}", path.display(), reports[0].messages);
    }
}

#[test]
fn a_model_in_a_grf_finds_its_textures_in_the_same_grf() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("m.grf");
    let files = [
        ("data\\model\\x.rsm", model(&["T.BMP", "sub\\u.tga"])),
        ("data\\texture\\t.bmp", bmp()),
        ("data\\texture\\Sub\\U.TGA", tga()),
    ];
    std::fs::write(&archive, grf_with(&files)).unwrap();
    let (outputs, notes) = convert(&[archive], &dir.path().join("out"), ConvertOptions::default());
    assert!(notes.is_empty(), "{notes:?}");
    let glb_path = output(&outputs, "x.rsm.glb");
    let glb = std::fs::read(glb_path).unwrap();
    assert_eq!(images(&glb), vec![(2, 2, BMP_RGBA.to_vec()), (2, 2, TGA_RGBA.to_vec())]);
    assert!(glb_read::parse(&glb).placed().iter().all(|p| !p.attributes.iter().any(|a| a.starts_with("COLOR"))));
    validate(glb_path);
    // The texture entries themselves became PNGs with the same pixels.
    assert_eq!(png_rgba(&std::fs::read(output(&outputs, "t.bmp.png")).unwrap()), (2, 2, BMP_RGBA.to_vec()));
    assert_eq!(png_rgba(&std::fs::read(output(&outputs, "U.TGA.png")).unwrap()), (2, 2, TGA_RGBA.to_vec()));
}

#[test]
fn a_model_in_a_client_folder_finds_data_texture() {
    let dir = tempfile::tempdir().unwrap();
    let client = dir.path().join("client");
    std::fs::create_dir_all(client.join("Data/Model/town")).unwrap();
    std::fs::create_dir_all(client.join("Data/TEXTURE/Stone")).unwrap();
    std::fs::write(client.join("Data/TEXTURE/Stone/Wall.bmp"), bmp()).unwrap();
    // `Data` is the nearest ancestor named data (any case); its `texture` folder and the stored path (with
    // `\`) are found ignoring ASCII case, as the client does.
    let model_path = client.join("Data/Model/town/a.rsm2");
    std::fs::write(&model_path, model(&["stone\\WALL.BMP"])).unwrap();
    let (outputs, notes) = convert(&[model_path], &dir.path().join("out"), ConvertOptions::default());
    assert!(notes.is_empty(), "{notes:?}");
    let glb = std::fs::read(output(&outputs, ".glb")).unwrap();
    assert_eq!(images(&glb), vec![(2, 2, BMP_RGBA.to_vec())]);
    validate(output(&outputs, ".glb"));
}

#[test]
fn each_texture_not_found_is_named_in_a_warning_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let client = dir.path().join("c");
    std::fs::create_dir_all(client.join("data/model")).unwrap();
    std::fs::create_dir_all(client.join("data/texture")).unwrap();
    std::fs::write(client.join("data/texture/here.bmp"), bmp()).unwrap();
    let model_path = client.join("data/model/m.rsm");
    std::fs::write(&model_path, model(&["here.bmp", "gone\\one.bmp", "two.tga"])).unwrap();
    // `--textures` is looked in last; it lacks them too.
    let extra = dir.path().join("extra");
    std::fs::create_dir_all(&extra).unwrap();
    let options = ConvertOptions { textures: Some(extra.clone()), ..Default::default() };
    let (outputs, mut notes) = convert(std::slice::from_ref(&model_path), &dir.path().join("out"), options);
    notes.sort();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].starts_with("ro-rsm: texture 'data\\texture\\gone\\one.bmp' not found (looked in "),
        "{}",
        notes[0]
    );
    assert!(notes[1].starts_with("ro-rsm: texture 'data\\texture\\two.tga' not found"), "{}", notes[1]);
    assert!(notes.iter().all(|n| n.contains("data/texture") && n.contains(&format!("--textures {}", extra.display()))));
    let glb = std::fs::read(output(&outputs, ".glb")).unwrap();
    assert_eq!(images(&glb).len(), 1);
    validate(output(&outputs, ".glb"));

    // `check` reads and writes the model back, and says the same of its client folder.
    let items = ops::check(&[model_path], &ops::Quiet);
    assert_eq!(items[0].outcome, "identical");
    assert_eq!(items[0].warnings.len(), 2, "{:?}", items[0].warnings);
    assert!(items[0].warnings.iter().any(|w| w.contains("'data\\texture\\two.tga' not found")));
}

#[test]
fn a_model_in_no_client_folder_says_where_to_look() {
    let dir = tempfile::tempdir().unwrap();
    let model_path = dir.path().join("m.rsm");
    std::fs::write(&model_path, model(&["a.bmp"])).unwrap();
    let (_, notes) = convert(std::slice::from_ref(&model_path), &dir.path().join("out"), ConvertOptions::default());
    assert_eq!(notes.len(), 1);
    assert!(notes[0].contains("'data\\texture\\a.bmp' not found") && notes[0].contains("--textures"), "{}", notes[0]);
    // `check` has nowhere to look and says nothing.
    assert!(ops::check(&[model_path], &ops::Quiet)[0].warnings.is_empty());
}

#[test]
fn textures_from_a_grf_given_with_textures() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("tex.grf");
    std::fs::write(&archive, grf_with(&[("data\\texture\\t.bmp", bmp())])).unwrap();
    let model_path = dir.path().join("m.rsm");
    std::fs::write(&model_path, model(&["t.bmp"])).unwrap();
    let options = ConvertOptions { textures: Some(archive), ..Default::default() };
    let (outputs, notes) = convert(&[model_path], &dir.path().join("out"), options);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(images(&std::fs::read(output(&outputs, ".glb")).unwrap()), vec![(2, 2, BMP_RGBA.to_vec())]);
}

#[test]
fn bmp_and_tga_files_convert_to_png_with_exact_pixels() {
    let dir = tempfile::tempdir().unwrap();
    let (b, t) = (dir.path().join("a.bmp"), dir.path().join("b.tga"));
    std::fs::write(&b, bmp()).unwrap();
    std::fs::write(&t, tga()).unwrap();
    let (outputs, _) = convert(&[b, t], &dir.path().join("out"), ConvertOptions::default());
    assert_eq!(png_rgba(&std::fs::read(output(&outputs, "a.bmp.png")).unwrap()), (2, 2, BMP_RGBA.to_vec()));
    assert_eq!(png_rgba(&std::fs::read(output(&outputs, "b.tga.png")).unwrap()), (2, 2, TGA_RGBA.to_vec()));
}

#[test]
fn identified_by_content() {
    // A BMP by its header, whatever its name; a TGA by its extension (it has no magic).
    let (f, c) = registry::sniff(&bmp(), "texture.dat").unwrap();
    assert_eq!((f.id, c), ("ro-texture", registry::Confidence::Magic));
    assert_eq!(registry::sniff(&tga(), "x.TGA").map(|(f, _)| f.id), Some("ro-texture"));
    assert!(registry::sniff(&tga(), "x.dat").is_none());
    // `BM` with a header that is no BMP's is not taken for one.
    let mut not_bmp = bmp();
    not_bmp[14] = 41;
    assert!(registry::sniff(&not_bmp, "x.dat").is_none());
    // A .tga whose header is no TGA's is refused naming the field and its offset.
    let mut bad = tga();
    bad[2] = 7;
    let codec = registry::by_id("ro-texture").unwrap();
    let e =
        codec.convert(&relic::registry::ConvertInput::new(&bad, &ConvertOptions::default())).unwrap_err().to_string();
    assert!(e.contains("image_type") && e.contains("ro-texture"), "{e}");
    // A header declaring more pixels than the limit is refused before decoding.
    let mut huge = tga();
    huge[12..16].copy_from_slice(&[0xFF, 0xFF, 0xFF, 0xFF]);
    assert!(codec.convert(&relic::registry::ConvertInput::new(&huge, &ConvertOptions::default())).is_err());
    // Every truncation fails cleanly.
    for bytes in [bmp(), tga()] {
        for n in 0..bytes.len() {
            let _ = codec.convert(&relic::registry::ConvertInput::new(&bytes[..n], &ConvertOptions::default()));
        }
    }
}

#[test]
fn json_writes_the_same_bytes_back() {
    let codec = registry::by_id("ro-texture").unwrap();
    for bytes in [bmp(), tga()] {
        let json = codec.to_json(&bytes).unwrap();
        assert_eq!(json["format"], "ro-texture");
        assert_eq!(json["width"], 2);
        assert_eq!(codec.from_json(json.clone(), &Default::default()).unwrap(), bytes);
        let mut edited = json;
        edited["width"] = 3.into();
        assert!(codec.from_json(edited, &Default::default()).is_err());
    }
}

#[test]
fn packs_from_png_by_the_output_extension() {
    let codec = registry::by_id("ro-texture").unwrap();
    let image = relic::ragnarok::texture::decode(&tga()).unwrap();
    let png = relic::export::png::encode_image(&image).unwrap().remove(0).bytes;
    // TGA keeps alpha exactly.
    let req = PackRequest { output: "x.tga".into(), ..Default::default() };
    let t = codec.pack_input("x.png", &png, &req).unwrap();
    let back = relic::ragnarok::texture::decode(&t).unwrap();
    let relic::asset::Pixels::Rgba8(px) = &back.frames[0].pixels else { panic!() };
    assert_eq!(px.as_slice(), TGA_RGBA);
    // BMP: transparent becomes magenta, which reads back transparent; half alpha is noted.
    let req = PackRequest { output: "x.bmp".into(), ..Default::default() };
    let b = codec.pack_input("x.png", &png, &req).unwrap();
    assert!(b.starts_with(b"BM"));
    let back = relic::ragnarok::texture::decode(&b).unwrap();
    let relic::asset::Pixels::Rgba8(px) = &back.frames[0].pixels else { panic!() };
    assert_eq!(px.as_slice(), [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(req.notes.lock().unwrap().len(), 1);
    // Neither extension: refused, saying what to do.
    let req = PackRequest { output: "x.png".into(), ..Default::default() };
    assert!(codec.pack_input("x.png", &png, &req).unwrap_err().to_string().contains(".bmp or .tga"));
}

fn corpus() -> Option<PathBuf> {
    crate::common::corpus("ragnarok")
}

/// Goldberg's model converted with its GRF as `--textures`: every texture found (no warning), embedded.
#[test]
fn goldberg_with_its_grf_has_every_texture_and_no_warning() {
    let Some(corpus) = corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    let options = ConvertOptions { textures: Some(corpus.join("goldberg_textures.grf")), ..Default::default() };
    let (outputs, notes) = convert(&[corpus.join("goldberg_s_01.rsm2")], dir.path(), options);
    assert!(notes.is_empty(), "{notes:?}");
    let glb = std::fs::read(output(&outputs, ".glb")).unwrap();
    let images = images(&glb);
    assert_eq!(images.len(), 4);
    assert!(images.iter().all(|(w, h, px)| *w > 0 && *h > 0 && px.len() == (*w * *h * 4) as usize));
    validate(output(&outputs, ".glb"));
    // The GRF's texture entries convert to PNG too.
    let (outputs, notes) =
        convert(&[corpus.join("goldberg_textures.grf")], &dir.path().join("grf"), ConvertOptions::default());
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(outputs.iter().filter(|p| p.extension().is_some_and(|e| e == "png")).count(), 4, "{outputs:?}");
}
