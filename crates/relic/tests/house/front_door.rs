//! The library's front door (`relic::open`, `relic::GameFile`) as a program uses it: an archive's entries
//! opened and converted with what they need from the same archive, outputs named and made as `relic
//! convert` makes them, documents written back, and the errors a program meets.

use std::path::{Path, PathBuf};

use relic::ragnarok::grf::{write::PackInput, write::PackSource, write_archive_bytes};
use relic::GameFile;

fn samples() -> PathBuf {
    crate::common::samples_dir()
}

fn sample(rel: &str) -> Vec<u8> {
    std::fs::read(samples().join(rel)).unwrap()
}

/// The glTF JSON chunk of a `.glb`.
fn glb_json(glb: &[u8]) -> serde_json::Value {
    assert_eq!(&glb[..4], b"glTF");
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + len]).unwrap()
}

/// A GRF holding the pyramid model under `data\model\` and its texture `stone.bmp` under `data\texture\`,
/// as a client's archive holds them.
fn model_archive() -> Vec<u8> {
    let entry =
        |name: &str, bytes: Vec<u8>| PackInput { name: name.as_bytes().to_vec(), source: PackSource::Bytes(bytes) };
    let inputs = vec![
        entry("data\\model\\pyramid.rsm", sample("ragnarok/pyramid.rsm")),
        entry("data\\texture\\stone.bmp", sample("ragnarok/wall.bmp")),
    ];
    write_archive_bytes(inputs, 0x200).unwrap()
}

#[test]
fn a_model_opened_from_an_archive_finds_its_texture_in_it() {
    let grf = GameFile::from_bytes("client.grf", model_archive()).unwrap();
    assert_eq!(grf.format().id, "ro-grf");
    let names: Vec<String> = grf.entries().unwrap().into_iter().map(|e| e.name).collect();
    assert_eq!(names, ["data\\model\\pyramid.rsm", "data\\texture\\stone.bmp"]);

    let model = grf.open_entry("DATA/MODEL/PYRAMID.RSM").unwrap();
    assert_eq!(model.format().id, "ro-rsm");
    let json = glb_json(&model.to_glb().unwrap());
    // The texture came from the archive: one image, embedded, a 2 × 2 PNG.
    let images = json["images"].as_array().expect("the model's texture embedded");
    assert_eq!(images.len(), 1);
    assert_eq!(images[0]["mimeType"], "image/png");

    // The same model opened on its own has no archive to look in: no image, and the conversion says so.
    let alone = GameFile::from_bytes("pyramid.rsm", sample("ragnarok/pyramid.rsm")).unwrap();
    let json = glb_json(&alone.to_glb().unwrap());
    assert!(json.get("images").is_none(), "{json}");
}

#[test]
fn export_gives_the_files_relic_convert_writes() {
    for rel in ["evil_islands/settings.reg", "evil_islands/unit.mmp", "dark_reign/unit.spr", "ragnarok/pyramid.rsm"] {
        let input = samples().join(rel);
        let file = relic::open(&input).unwrap();
        let exported = file.export(None).unwrap();
        let out = tempfile::tempdir().unwrap();
        let request = relic::ops::ConvertRequest::default();
        let report = relic::ops::convert(std::slice::from_ref(&input), out.path(), &request, &relic::ops::Quiet);
        assert!(report.failures.is_empty(), "{rel}: {:?}", report.failures);
        let mut written: Vec<(String, Vec<u8>)> = report
            .outputs
            .iter()
            .map(|item| {
                let path = Path::new(&item.output);
                let rel = path.strip_prefix(out.path()).unwrap().to_string_lossy().replace('\\', "/");
                (rel, std::fs::read(path).unwrap())
            })
            .collect();
        written.sort();
        let mut ours: Vec<(String, Vec<u8>)> = exported.into_iter().map(|o| (o.path, o.bytes)).collect();
        ours.sort();
        let names = |v: &[(String, Vec<u8>)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        assert_eq!(names(&ours), names(&written), "{rel}");
        assert!(ours == written, "{rel}: the bytes differ from relic convert's");
    }
}

#[test]
fn export_to_writes_files_and_refuses_to_overwrite_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let file = relic::open(samples().join("ragnarok/wall.bmp")).unwrap();
    let written = file.export_to(dir.path(), None, false).unwrap();
    assert_eq!(written, [dir.path().join("wall.bmp.png")]);
    let err = file.export_to(dir.path(), None, false).unwrap_err().to_string();
    assert!(err.contains("wall.bmp.png") && err.contains("--force"), "{err}");
    assert_eq!(file.export_to(dir.path(), None, true).unwrap().len(), 1);
}

#[test]
fn every_sample_comes_back_from_its_document() {
    let mut checked = 0;
    for entry in walkdir::WalkDir::new(samples()).into_iter().map(Result::unwrap).filter(|e| e.file_type().is_file()) {
        let file = relic::open(entry.path()).unwrap();
        let back = relic::write_json(file.format().id, file.to_json().unwrap()).unwrap();
        assert!(back == file.bytes(), "{}", entry.path().display());
        assert_eq!(file.write_back().unwrap(), back);
        checked += 1;
    }
    assert!(checked >= 37, "{checked}");
}

#[test]
fn errors_say_what_and_where() {
    let not_archive = relic::open(samples().join("ragnarok/wall.bmp")).unwrap();
    let err = not_archive.entries().unwrap_err().to_string();
    assert!(err.ends_with("wall.bmp: ro-texture: not an archive"), "{err}");

    let grf = relic::open(samples().join("ragnarok/example.grf")).unwrap();
    let err = grf.read_entry("data\\missing.bmp").unwrap_err().to_string();
    assert!(err.ends_with("example.grf: no entry named `data\\missing.bmp`"), "{err}");
    let err = grf.to_png().unwrap_err().to_string();
    assert!(err.contains("an archive converts entry by entry"), "{err}");

    let err = GameFile::from_bytes("notes.txt", b"hello".to_vec()).unwrap_err().to_string();
    assert_eq!(err, "notes.txt: not a format relic knows");
    let err = relic::write_json("ei-rse", serde_json::json!({})).unwrap_err().to_string();
    assert!(err.starts_with("unknown format `ei-rse` (known: ei-res, "), "{err}");

    let bmp = relic::open(samples().join("ragnarok/wall.bmp")).unwrap();
    let err = bmp.to_glb().unwrap_err().to_string();
    assert!(err.ends_with("wall.bmp: a ro-texture file holds no model"), "{err}");
    // A damaged file's error names the file, the format and the offset.
    let mut bytes = sample("ragnarok/pyramid.rsm");
    bytes.truncate(20);
    let err = GameFile::from_bytes("cut.rsm", bytes).unwrap().to_json().unwrap_err().to_string();
    assert!(err.contains("ro-rsm") && err.contains("0x"), "{err}");
}
