//! The viewer without a server (`relic::view::Viewer` over a `FileSet`, what the browser build runs in its
//! Web Worker): over the same files it answers exactly what `relic view`'s HTTP server answers (the tree,
//! previews, info, converted files), it packs edited files back as `relic pack` does, and zips a whole
//! conversion with the very files `relic convert` writes.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use relic::source::RandomRead;
use relic::view::volume::FileSet;
use relic::view::{serve, ViewOptions, Viewer};

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples");

/// Bytes in memory, counting what is read of them.
#[derive(Debug)]
struct Counted {
    bytes: Vec<u8>,
    read: Arc<AtomicU64>,
}

impl RandomRead for Counted {
    fn len(&self) -> u64 {
        self.bytes.len() as u64
    }
    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
        let start = usize::try_from(offset).map_err(std::io::Error::other)?;
        let part = self.bytes.get(start..start + len).ok_or_else(|| std::io::Error::other("past the end"))?;
        self.read.fetch_add(len as u64, Ordering::Relaxed);
        Ok(part.to_vec())
    }
}

/// A viewer over the files of `dir`, held in memory, and the counter of bytes read from them.
fn offline(dir: &Path, name: &str, sliced_from: Option<u64>) -> (Viewer, Arc<AtomicU64>) {
    let read = Arc::new(AtomicU64::new(0));
    let files = relic::testing::files_under(dir)
        .into_iter()
        .map(|(rel, bytes)| {
            let version = format!("{}", bytes.len());
            (rel, Arc::new(Counted { bytes, read: Arc::clone(&read) }) as Arc<dyn RandomRead>, version)
        })
        .collect();
    let mut set = FileSet::new(name, files).unwrap();
    if let Some(n) = sliced_from {
        set = set.sliced_from(n);
    }
    (Viewer::new(Arc::new(set), 64 << 20), read)
}

/// `GET target` from a server, its status and body.
fn http_get(addr: std::net::SocketAddr, target: &str) -> (u16, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(stream, "GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).unwrap();
    let split = reply.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&reply[..split]).into_owned();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, reply[split + 4..].to_vec())
}

fn get(viewer: &Viewer, target: &str) -> (u16, Vec<u8>) {
    let answer = viewer.get(target);
    (answer.status, answer.into_bytes().unwrap())
}

fn json(body: &[u8]) -> serde_json::Value {
    serde_json::from_slice(body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(body)))
}

/// A warning with where it looked left out: the server names folders on disk, the files given have none.
fn without_places(mut value: serde_json::Value) -> serde_json::Value {
    if let Some(warnings) = value.get_mut("warnings").and_then(|w| w.as_array_mut()) {
        for w in warnings {
            let text = w.as_str().unwrap_or_default().to_string();
            if let Some((head, rest)) = text.split_once("(looked in ") {
                let tail = rest.split_once("): ").map_or("", |(_, t)| t);
                *w = serde_json::json!(format!("{head}(looked in …): {tail}"));
            }
        }
    }
    value
}

/// The requests compared: the tree at every level the samples have, previews and info of one item of each
/// kind, and converted files.
const TARGETS: &[&str] = &[
    "/api/tree?path=",
    "/api/tree?path=evil_islands",
    "/api/tree?path=evil_islands/example.res",
    "/api/tree?path=ragnarok/example.grf",
    "/api/tree?path=drakan/Sample.sdb",
    "/api/preview?path=evil_islands/example_dxt1.mmp",
    "/api/preview?path=evil_islands/example.res",
    "/api/preview?path=ragnarok/example.grf",
    "/api/preview?path=ragnarok/sample.act",
    "/api/preview?path=dark_reign/SPRITES.FTG",
    "/api/info?path=freerct/tiles.rcd",
    // Conversions that read the files beside the one converted: a figure's bones, animations and
    // texture, a map's ground and altitudes, terrain sectors, a model's textures.
    "/api/preview?path=evil_islands/unit.mod",
    "/api/file?path=evil_islands/unit.mod&as=glb&asset=0",
    "/api/preview?path=evil_islands/body.fig",
    "/api/preview?path=ragnarok/map.rsw",
    "/api/file?path=ragnarok/map.rsw&as=glb&asset=0",
    "/api/preview?path=ragnarok/pyramid.rsm",
    "/api/preview?path=evil_islands/isle.mp",
    "/api/preview?path=evil_islands/isle001000.sec",
    "/api/file?path=evil_islands/isle001000.sec&as=glb&asset=0",
    "/api/preview?path=dark_reign/unit.spr",
    "/api/file?path=dark_reign/unit.spr&as=png&asset=0",
    "/api/file?path=evil_islands/example_dxt1.mmp&as=png",
    "/api/file?path=evil_islands/example_dxt1.mmp&as=json",
    "/api/file?path=evil_islands/example_dxt1.mmp&as=raw",
    "/api/file?path=drakan/Sample.sdb/Ambience/2_hum.wav&as=wav",
    "/api/file?path=evil_islands/unit.mod&as=glb&asset=0",
    "/api/file?path=nothing/here&as=png",
    "/api/file?path=..%2Fsecret&as=raw",
];

#[test]
fn answers_what_the_server_answers() {
    let server = serve(Path::new(SAMPLES), ViewOptions::default()).unwrap();
    let (viewer, _) = offline(Path::new(SAMPLES), "samples", None);
    for target in TARGETS {
        let (status, body) = http_get(server.addr(), target);
        let (offline_status, offline_body) = get(&viewer, target);
        assert_eq!(offline_status, status, "{target}");
        if body.first() == Some(&b'{') {
            assert_eq!(without_places(json(&offline_body)), without_places(json(&body)), "{target}");
        } else {
            assert!(offline_body == body, "{target}: {} bytes, the server's {}", offline_body.len(), body.len());
        }
    }
    // The root's name and kind, as the page shows them.
    let (_, root) = get(&viewer, "/api/tree?path=");
    assert_eq!(json(&root)["root"], serde_json::json!({"name": "samples", "is_dir": true, "kind": "folder"}));
}

#[test]
fn one_file_given_is_the_root() {
    let bytes = std::fs::read(Path::new(SAMPLES).join("evil_islands/example.res")).unwrap();
    let read = Arc::new(AtomicU64::new(0));
    let file: Arc<dyn RandomRead> = Arc::new(Counted { bytes, read });
    let viewer = Viewer::new(
        Arc::new(FileSet::new("ignored", vec![("example.res".into(), file, "1".into())]).unwrap()),
        1 << 20,
    );
    let (status, body) = get(&viewer, "/api/tree?path=");
    assert_eq!(status, 200);
    let tree = json(&body);
    assert_eq!(tree["root"], serde_json::json!({"name": "example.res", "is_dir": false, "kind": "archive"}));
    let names: Vec<&str> = tree["children"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["texts", "тексты", "readme.txt", "unit.bon"]);
}

#[test]
fn paths_that_leave_the_set_are_refused_and_clashes_too() {
    let file = || -> Arc<dyn RandomRead> { Arc::new(Counted { bytes: b"x".to_vec(), read: Arc::default() }) };
    let set =
        FileSet::new("root", vec![("a/../b".into(), file(), "1".into()), ("ok/c.txt".into(), file(), "1".into())])
            .unwrap();
    let viewer = Viewer::new(Arc::new(set), 1 << 20);
    let (_, body) = get(&viewer, "/api/tree?path=");
    let names: Vec<String> =
        json(&body)["children"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap().to_string()).collect();
    assert_eq!(names, ["ok"]);
    assert_eq!(get(&viewer, "/api/tree?path=a%2F..%2Fb").0, 400);
    let clash = FileSet::new("root", vec![("a".into(), file(), "1".into()), ("a/b".into(), file(), "1".into())]);
    assert_eq!(clash.err().unwrap(), "`a` is given as a file and as a folder");
}

#[test]
fn packs_edited_files_back_as_relic_pack_does() {
    let (viewer, _) = offline(Path::new(SAMPLES), "samples", None);
    let dir = tempfile::tempdir().unwrap();
    // The JSON of a file packs back to the file itself, byte for byte.
    for path in [
        "evil_islands/example_dxt1.mmp",
        "evil_islands/settings.reg",
        "ragnarok/sample.act",
        "evil_islands/example.res",
    ] {
        let (status, doc) = get(&viewer, &format!("/api/file?path={path}&as=json"));
        assert_eq!(status, 200, "{path}");
        let packed = viewer.pack(path, "edited.json", &doc).unwrap();
        assert_eq!(packed.bytes, std::fs::read(Path::new(SAMPLES).join(path)).unwrap(), "{path}");
        assert_eq!(packed.file_name, path.rsplit('/').next().unwrap());
    }
    // A PNG: the same bytes as `relic pack` of the same PNG.
    let (_, png) = get(&viewer, "/api/file?path=evil_islands/example_argb4.mmp&as=png");
    let png_path = dir.path().join("example_argb4.png");
    std::fs::write(&png_path, &png).unwrap();
    let out = dir.path().join("packed.mmp");
    relic::ops::pack("ei-mmp", &png_path, &out, &Default::default()).unwrap();
    let packed = viewer.pack("evil_islands/example_argb4.mmp", "example_argb4.png", &png).unwrap();
    assert_eq!(packed.bytes, std::fs::read(&out).unwrap());
    // What relic will not pack is said, not written.
    let refused = viewer.pack("evil_islands/example_dxt1.mmp", "notes.txt", b"text").unwrap_err();
    assert!(refused.contains("ei-mmp is made from a PNG"), "{refused}");
    let broken = viewer.pack("evil_islands/example_dxt1.mmp", "x.json", b"{not json").unwrap_err();
    assert!(broken.starts_with("x.json: not JSON"), "{broken}");
    assert!(viewer.pack("evil_islands", "x.json", b"{}").unwrap_err().contains("is not a file"));
}

#[test]
fn zips_the_files_relic_convert_writes() {
    let (viewer, _) = offline(Path::new(SAMPLES), "samples", None);
    for (item, file) in [
        ("evil_islands/example.res", "evil_islands/example.res"),
        ("ragnarok/example.grf", "ragnarok/example.grf"),
        ("evil_islands/example_dxt1.mmp", "evil_islands/example_dxt1.mmp"),
        ("dark_reign/SPRITES.FTG", "dark_reign/SPRITES.FTG"),
    ] {
        let zipped = viewer.zip(item).unwrap();
        let out = tempfile::tempdir().unwrap();
        let report =
            relic::ops::convert(&[Path::new(SAMPLES).join(file)], out.path(), &Default::default(), &relic::ops::Quiet);
        assert!(report.failures.is_empty(), "{:?}", report.failures);
        let written = relic::testing::files_under(out.path());
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zipped.bytes)).unwrap();
        let mut in_zip = BTreeMap::new();
        for i in 0..archive.len() {
            let mut f = archive.by_index(i).unwrap();
            let mut bytes = Vec::new();
            f.read_to_end(&mut bytes).unwrap();
            in_zip.insert(f.name().to_string(), bytes);
        }
        assert_eq!(in_zip.keys().collect::<Vec<_>>(), written.keys().collect::<Vec<_>>(), "{item}");
        assert!(in_zip == written, "{item}: the bytes differ");
        assert_eq!(zipped.files.len(), written.len());
        assert!(zipped.failures.is_empty(), "{:?}", zipped.failures);
    }
    // An entry of an archive zips as `relic convert` of the extracted entry.
    let zipped = viewer.zip("evil_islands/example.res/unit.bon").unwrap();
    assert_eq!(zipped.file_name, "unit.zip");
    assert!(!zipped.files.is_empty());
}

#[test]
fn an_archive_read_in_slices_answers_as_when_read_whole() {
    use relic::ragnarok::grf::{write_archive_bytes, PackInput, PackSource};
    let sample = |p: &str| std::fs::read(Path::new(SAMPLES).join(p)).unwrap();
    let input =
        |name: &str, bytes: Vec<u8>| PackInput { name: name.as_bytes().to_vec(), source: PackSource::Bytes(bytes) };
    // A model and its texture (stored in another case than the model names it), and padding that makes
    // the archive much larger than what is shown.
    let grf = write_archive_bytes(
        vec![
            input("data\\model\\pyramid.rsm", sample("ragnarok/pyramid.rsm")),
            input("data\\texture\\Stone.BMP", sample("ragnarok/wall.bmp")),
            input(
                "data\\padding.bin",
                (0..4_000_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect(),
            ),
        ],
        0x200,
    )
    .unwrap();
    let viewer_of = |sliced_from: u64| {
        let read = Arc::new(AtomicU64::new(0));
        let file: Arc<dyn RandomRead> = Arc::new(Counted { bytes: grf.clone(), read: Arc::clone(&read) });
        let set = FileSet::new("client", vec![("big.grf".into(), file, "1".into())]).unwrap().sliced_from(sliced_from);
        (Viewer::new(Arc::new(set), 64 << 20), read)
    };
    let (whole, _) = viewer_of(u64::MAX);
    let (sliced, read) = viewer_of(0);
    // Listing the archive reads its header and table, not its entries.
    let (status, tree) = get(&sliced, "/api/tree?path=data");
    assert_eq!(status, 200);
    assert_eq!(json(&tree), json(&get(&whole, "/api/tree?path=data").1));
    let after_listing = read.load(Ordering::Relaxed);
    assert!(after_listing < 2_000, "{after_listing} bytes read to list the archive");
    for target in [
        "/api/info?path=",
        "/api/tree?path=data/model",
        "/api/preview?path=data/model/pyramid.rsm",
        "/api/file?path=data/model/pyramid.rsm&as=glb&asset=0",
        "/api/preview?path=data/texture/Stone.BMP",
        "/api/file?path=data/texture/Stone.BMP&as=png",
    ] {
        let (a, b) = (get(&sliced, target), get(&whole, target));
        assert_eq!(a.0, b.0, "{target}");
        if a.1.first() == Some(&b'{') {
            assert_eq!(json(&a.1), json(&b.1), "{target}");
        } else {
            assert!(a.1 == b.1, "{target}");
        }
    }
    // The model found its texture in the archive.
    let preview = json(&get(&sliced, "/api/preview?path=data/model/pyramid.rsm").1);
    assert!(preview.get("warnings").is_none(), "{preview}");
    // Only the model and its texture (twice: the texture's own preview) were read, not the padding.
    let total = read.load(Ordering::Relaxed);
    assert!(total < grf.len() as u64 / 10, "{total} of {} bytes read", grf.len());
    // The archive is never read whole: its raw bytes and its JSON are refused, its entries are not.
    assert_eq!(get(&sliced, "/api/file?path=&as=raw").0, 413);
    let root = json(&get(&sliced, "/api/preview?path=").1);
    assert_eq!(root["kind"], "archive");
    assert_eq!(root["info"], json(&get(&whole, "/api/info?path=").1)["info"]);
    assert_eq!(root["downloads"], serde_json::json!([]), "no raw bytes of an archive never read whole");
}
