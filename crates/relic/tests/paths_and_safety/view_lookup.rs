//! Issue 39: `relic view` finds what `relic convert` finds. A model with the GRF of its textures lying beside
//! it is textured in the viewer as convert textures it (no option needed by either), and the viewer takes
//! convert's `--textures`, `--models` and `--palette` (`ViewOptions::lookup`), each changing the preview as
//! it changes convert's output: the files the viewer serves are byte for byte the files `relic convert`
//! writes with the same options. The corpus model (`goldberg_s_01.rsm2` with `goldberg_textures.grf`, in
//! `/work/shared/corpus/ragnarok`, never in the repository) is copied into a temporary folder; without it
//! the test says so and checks the samples' model alone.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};

use relic::ops::{self, ConvertRequest};
use relic::registry::ConvertOptions;
use relic::view::{serve, Lookup, ViewOptions};

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples");

fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/ragnarok");
    if dir.join("goldberg_s_01.rsm2").is_file() && dir.join("goldberg_textures.grf").is_file() {
        return Some(dir);
    }
    let _ = writeln!(std::io::stderr(), "skipped goldberg_s_01.rsm2 in the viewer: no corpus at {}", dir.display());
    None
}

/// `GET target`: the status and the body.
fn get(addr: SocketAddr, target: &str) -> (u16, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(stream, "GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).unwrap();
    let split = reply.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&reply[..split]).into_owned();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let body = reply[split + 4..].to_vec();
    if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        return (status, dechunk(&body));
    }
    (status, body)
}

fn dechunk(mut bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = bytes.windows(2).position(|w| w == b"\r\n").unwrap();
        let size = usize::from_str_radix(std::str::from_utf8(&bytes[..line_end]).unwrap().trim(), 16).unwrap();
        bytes = &bytes[line_end + 2..];
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&bytes[..size]);
        bytes = &bytes[size + 2..];
    }
}

fn ok(addr: SocketAddr, target: &str) -> Vec<u8> {
    let (status, body) = get(addr, target);
    assert_eq!(status, 200, "{target}: {}", String::from_utf8_lossy(&body));
    body
}

fn preview(addr: SocketAddr, path: &str) -> serde_json::Value {
    serde_json::from_slice(&ok(addr, &format!("/api/preview?path={}", encode(path)))).unwrap()
}

fn encode(path: &str) -> String {
    path.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"/._-".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// The preview's warnings (none: empty).
fn warnings(preview: &serde_json::Value) -> Vec<String> {
    preview["warnings"].as_array().map_or_else(Vec::new, |w| w.iter().map(|s| s.as_str().unwrap().into()).collect())
}

/// The glTF JSON of a GLB, and the bytes of each of its images (read through their buffer views).
fn glb_images(glb: &[u8]) -> (serde_json::Value, Vec<Vec<u8>>) {
    assert_eq!(&glb[..4], b"glTF");
    let le = |at: usize| u32::from_le_bytes(glb[at..at + 4].try_into().unwrap()) as usize;
    let json_len = le(12);
    let doc: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let bin_at = 20 + json_len;
    let bin = &glb[bin_at + 8..bin_at + 8 + le(bin_at)];
    let images = doc["images"].as_array().cloned().unwrap_or_default();
    let bytes = images
        .iter()
        .map(|image| {
            let view = &doc["bufferViews"][image["bufferView"].as_u64().unwrap() as usize];
            let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
            bin[start..start + view["byteLength"].as_u64().unwrap() as usize].to_vec()
        })
        .collect();
    (doc, bytes)
}

/// What `relic convert` writes for `input` with `options` (`-o` a new folder): the file whose name ends
/// with `suffix`.
fn converted(input: &Path, options: ConvertOptions, suffix: &str) -> Vec<u8> {
    let out = tempfile::tempdir().unwrap();
    let req = ConvertRequest { options, ..Default::default() };
    let report = ops::convert(&[input.to_path_buf()], out.path(), &req, &ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let found: Vec<_> =
        relic::testing::files_under(out.path()).into_iter().filter(|(n, _)| n.ends_with(suffix)).collect();
    assert_eq!(
        found.len(),
        1,
        "{suffix} in {:?}",
        relic::testing::files_under(out.path()).into_keys().collect::<Vec<_>>()
    );
    found.into_iter().next().unwrap().1
}

/// The GLB of a model item as the viewer gives it (its preview's first asset).
fn viewed_glb(addr: SocketAddr, path: &str) -> (serde_json::Value, Vec<u8>) {
    let p = preview(addr, path);
    assert_eq!(p["kind"], "model", "{path}: {p}");
    let url = p["assets"][0]["url"].as_str().unwrap().to_string();
    (p, ok(addr, &url))
}

/// A 4×4 24-bit BMP of one colour.
fn solid_bmp(rgb: [u8; 3]) -> Vec<u8> {
    let mut b = b"BM".to_vec();
    for v in [54u32 + 48, 0, 54, 40, 4, 4] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&24u16.to_le_bytes());
    b.extend_from_slice(&[0; 24]);
    for _ in 0..16 {
        b.extend_from_slice(&[rgb[2], rgb[1], rgb[0]]);
    }
    b
}

/// The case: `goldberg_s_01.rsm2` with `goldberg_textures.grf` beside it is textured in the viewer
/// with its four textures, the GLB served byte for byte what `relic convert` writes, no warning; alone, it
/// is untextured and the warning says where it looked; alone with `--textures` (the GRF elsewhere), it is
/// textured again, as convert with `--textures`. The samples' pyramid (its `stone.bmp` in a GRF beside it,
/// and in a `--textures` folder) shows the same without the corpus.
#[test]
fn a_model_finds_the_grf_beside_it_and_the_textures_given() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(root.join("beside")).unwrap();
    std::fs::create_dir_all(root.join("alone")).unwrap();
    std::fs::create_dir_all(elsewhere.join("data/texture")).unwrap();
    let pyramid = std::fs::read(Path::new(SAMPLES).join("ragnarok/pyramid.rsm")).unwrap(); // uses stone.bmp
    std::fs::write(root.join("beside/pyramid.rsm"), &pyramid).unwrap();
    std::fs::write(root.join("alone/pyramid.rsm"), &pyramid).unwrap();
    let stone = solid_bmp([255, 140, 0]);
    // The GRF beside the model, named in upper case (found ignoring case), built by hand as `relic pack` would.
    let grf = relic::ragnarok::grf::write_archive_bytes(
        vec![relic::ragnarok::grf::PackInput {
            name: relic::ragnarok::grf::write::encode_name("data\\texture\\stone.bmp").unwrap(),
            source: relic::ragnarok::grf::PackSource::Bytes(stone.clone()),
        }],
        0x200,
    )
    .unwrap();
    std::fs::write(root.join("beside/TEXTURES.GRF"), &grf).unwrap();
    std::fs::write(elsewhere.join("data/texture/stone.bmp"), &stone).unwrap();
    let goldberg = corpus();
    if let Some(corpus) = &goldberg {
        for (name, to) in
            [("goldberg_s_01.rsm2", "beside"), ("goldberg_textures.grf", "beside"), ("goldberg_s_01.rsm2", "alone")]
        {
            std::fs::copy(corpus.join(name), root.join(to).join(name)).unwrap();
        }
        std::fs::copy(corpus.join("goldberg_textures.grf"), elsewhere.join("goldberg_textures.grf")).unwrap();
    }

    // No option: the GRF beside is found, the alone model warns.
    let plain = serve(&root, ViewOptions::default()).unwrap();
    let (p, glb) = viewed_glb(plain.addr(), "beside/pyramid.rsm");
    assert_eq!(warnings(&p), Vec::<String>::new());
    let (_, images) = glb_images(&glb);
    assert_eq!(images.len(), 1, "stone.bmp from TEXTURES.GRF beside it");
    assert_eq!(
        glb,
        converted(&root.join("beside/pyramid.rsm"), ConvertOptions::default(), ".glb"),
        "the viewer's GLB is convert's"
    );
    let (p, glb) = viewed_glb(plain.addr(), "alone/pyramid.rsm");
    let warned = warnings(&p);
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(
        warned[0].contains("texture 'data\\texture\\stone.bmp' not found") && warned[0].contains("give --textures"),
        "{warned:?}"
    );
    assert_eq!(glb_images(&glb).1.len(), 0);
    if goldberg.is_some() {
        let (p, glb) = viewed_glb(plain.addr(), "beside/goldberg_s_01.rsm2");
        assert_eq!(warnings(&p), Vec::<String>::new(), "every texture found in the GRF beside it");
        let (doc, images) = glb_images(&glb);
        assert_eq!((images.len(), doc["meshes"].as_array().unwrap().len()), (4, 32));
        let convert = converted(&root.join("beside/goldberg_s_01.rsm2"), ConvertOptions::default(), ".glb");
        assert_eq!(glb_images(&convert).1, images, "the texture bytes are convert's");
        assert_eq!(glb, convert, "the whole GLB is convert's");
        let (p, glb) = viewed_glb(plain.addr(), "alone/goldberg_s_01.rsm2");
        assert_eq!(warnings(&p).len(), 4, "{p}");
        assert_eq!(glb_images(&glb).1.len(), 0);
    }
    drop(plain);

    // `--textures`: a folder for the pyramid, the GRF for goldberg (another viewer, each its own).
    for (textures, model) in [
        (elsewhere.clone(), "alone/pyramid.rsm"),
        (elsewhere.join("goldberg_textures.grf"), "alone/goldberg_s_01.rsm2"),
    ] {
        if model.contains("goldberg") && goldberg.is_none() {
            continue;
        }
        let lookup = Lookup { textures: Some(textures.clone()), ..Default::default() };
        let server = serve(&root, ViewOptions { lookup, ..Default::default() }).unwrap();
        let (p, glb) = viewed_glb(server.addr(), model);
        assert_eq!(warnings(&p), Vec::<String>::new(), "{model} with --textures {}", textures.display());
        let want = if model.contains("goldberg") { 4 } else { 1 };
        assert_eq!(glb_images(&glb).1.len(), want, "{model}");
        let options = ConvertOptions { textures: Some(textures), ..Default::default() };
        assert_eq!(glb, converted(&root.join(model), options, ".glb"), "{model}: the viewer's GLB is convert's");
    }
    // What the viewer served passes the Khronos validator (the textured goldberg when the corpus is here).
    let served = dir.path().join("served");
    std::fs::create_dir_all(&served).unwrap();
    let plain = serve(&root, ViewOptions::default()).unwrap();
    let mut paths = Vec::new();
    for model in ["beside/pyramid.rsm", "beside/goldberg_s_01.rsm2"] {
        if model.contains("goldberg") && goldberg.is_none() {
            continue;
        }
        let path = served.join(format!("{}.glb", model.replace('/', "_")));
        std::fs::write(&path, viewed_glb(plain.addr(), model).1).unwrap();
        paths.push(path);
    }
    let paths: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    match relic::testing::validate_gltf(&paths) {
        Some(reports) => {
            for r in reports {
                assert_eq!(r.errors, 0, "{}: {:#?}", r.path, r.messages);
            }
        }
        None => assert!(std::env::var_os("CI").is_none(), "CI validates the glTF the viewer serves"),
    }
}

/// `--palette` recolours a sprite's frames in the viewer as it does convert's (the samples' `sprite.spr`
/// with their `dye.pal`); `--models` gives a map the models it does not find beside it (the samples' map,
/// alone in a folder, its models in another), as convert with `--models`. Paths that are not there are
/// refused when the viewer starts.
#[test]
fn palette_and_models_change_the_preview_as_they_change_convert() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("map")).unwrap();
    std::fs::copy(Path::new(SAMPLES).join("ragnarok/sprite.spr"), root.join("sprite.spr")).unwrap();
    for f in ["map.rsw", "map.gnd", "map.gat"] {
        std::fs::copy(Path::new(SAMPLES).join("ragnarok").join(f), root.join("map").join(f)).unwrap();
    }
    let palette = Path::new(SAMPLES).join("ragnarok/dye.pal");
    let models = dir.path().join("models");
    std::fs::create_dir_all(models.join("data/model")).unwrap();
    let rsw = relic::ragnarok::rsw::parse(&std::fs::read(root.join("map/map.rsw")).unwrap()).unwrap();
    let wanted: std::collections::BTreeSet<String> = rsw.models().map(|m| m.file.to_string()).collect();
    assert!(!wanted.is_empty(), "the sample map places models");
    for file in &wanted {
        let to = models.join("data/model").join(file.replace('\\', "/"));
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(Path::new(SAMPLES).join("ragnarok/pyramid.rsm"), to).unwrap();
    }

    let frame = |addr: SocketAddr| {
        let p = preview(addr, "sprite.spr");
        ok(addr, p["assets"][0]["frames"][0]["url"].as_str().unwrap())
    };
    let map_glb = |addr: SocketAddr| {
        let p = preview(addr, "map/map.rsw");
        let url = p["assets"].as_array().unwrap().iter().find(|a| a["kind"] == "model").unwrap()["url"]
            .as_str()
            .unwrap()
            .to_string();
        (p, ok(addr, &url))
    };
    let plain = serve(&root, ViewOptions::default()).unwrap();
    let (undyed, (plain_map, plain_glb)) = (frame(plain.addr()), map_glb(plain.addr()));
    drop(plain);
    let lookup = Lookup { palette: Some(palette.clone()), models: Some(models.clone()), ..Default::default() };
    let server = serve(&root, ViewOptions { lookup, ..Default::default() }).unwrap();
    let dyed = frame(server.addr());
    assert_ne!(dyed, undyed, "--palette recolours the frame");
    let convert_frame = |options: ConvertOptions| converted(&root.join("sprite.spr"), options, "/pal_000.png");
    assert_eq!(undyed, convert_frame(ConvertOptions::default()), "the undyed frame is convert's");
    assert_eq!(
        dyed,
        convert_frame(ConvertOptions { palette: Some(palette.clone()), ..Default::default() }),
        "the dyed frame is convert's --palette"
    );

    let (with_map, with_glb) = map_glb(server.addr());
    let meshes = |glb: &[u8]| glb_images(glb).0["meshes"].as_array().map_or(0, Vec::len);
    assert!(
        meshes(&with_glb) > meshes(&plain_glb),
        "--models adds the map's models ({} → {})",
        meshes(&plain_glb),
        meshes(&with_glb)
    );
    assert!(warnings(&plain_map).iter().any(|w| w.contains("not found")), "{plain_map}");
    assert!(!warnings(&with_map).iter().any(|w| w.contains("model") && w.contains("not found")), "{with_map}");
    // The viewer keeps a map's walkability overlay as a layer (a toggle), as convert's `=scene` does.
    let options = ConvertOptions {
        models: Some(models.clone()),
        settings: vec![(relic::ragnarok::rsw::scene::WALKABILITY_OPTION.to_string(), "scene".to_string())],
        ..Default::default()
    };
    assert_eq!(
        with_glb,
        converted(&root.join("map/map.rsw"), options, ".glb"),
        "the map's GLB is convert's with --models"
    );
    drop(server);

    for lookup in [
        Lookup { textures: Some(dir.path().join("no such.grf")), ..Default::default() },
        Lookup { models: Some(dir.path().join("nowhere")), ..Default::default() },
        Lookup { palette: Some(models.clone()), ..Default::default() },
    ] {
        let refused = serve(&root, ViewOptions { lookup: lookup.clone(), ..Default::default() }).err();
        let message = refused.map(|e| e.to_string()).unwrap_or_default();
        assert!(
            message.contains("no such.grf") || message.contains("nowhere") || message.contains("--palette"),
            "{lookup:?}: {message}"
        );
    }
}

/// The browser's viewer (a `Viewer` over the files opened, no disk behind them) finds the GRF beside a model
/// among those files as the server finds it on disk: the same GLB, its textures embedded, no warning.
#[test]
fn the_browser_finds_the_grf_beside_a_model_among_the_files_opened() {
    use relic::source::{MemorySlices, RandomRead};
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("opened");
    std::fs::create_dir_all(root.join("beside")).unwrap();
    std::fs::copy(Path::new(SAMPLES).join("ragnarok/pyramid.rsm"), root.join("beside/pyramid.rsm")).unwrap();
    let grf = relic::ragnarok::grf::write_archive_bytes(
        vec![relic::ragnarok::grf::PackInput {
            name: relic::ragnarok::grf::write::encode_name("data\\texture\\stone.bmp").unwrap(),
            source: relic::ragnarok::grf::PackSource::Bytes(solid_bmp([255, 140, 0])),
        }],
        0x200,
    )
    .unwrap();
    std::fs::write(root.join("beside/textures.grf"), grf).unwrap();
    let mut models = vec![("beside/pyramid.rsm", 1)];
    if let Some(corpus) = corpus() {
        for name in ["goldberg_s_01.rsm2", "goldberg_textures.grf"] {
            std::fs::copy(corpus.join(name), root.join("beside").join(name)).unwrap();
        }
        models.push(("beside/goldberg_s_01.rsm2", 4));
    }
    let files = relic::testing::files_under(&root)
        .into_iter()
        .map(|(rel, bytes)| {
            let version = bytes.len().to_string();
            (rel, Arc::new(MemorySlices::new(bytes)) as Arc<dyn RandomRead>, version)
        })
        .collect();
    let set = relic::view::volume::FileSet::new("opened", files).unwrap();
    let offline = relic::view::Viewer::new(Arc::new(set), 64 << 20);
    let server = serve(&root, ViewOptions::default()).unwrap();
    for (model, images) in models {
        let answer = offline.get(&format!("/api/preview?path={}", encode(model)));
        assert_eq!(answer.status, 200, "{model}");
        let p: serde_json::Value = serde_json::from_slice(&answer.into_bytes().unwrap()).unwrap();
        assert_eq!(warnings(&p), Vec::<String>::new(), "{model}: {p}");
        let glb = offline.get(p["assets"][0]["url"].as_str().unwrap()).into_bytes().unwrap();
        assert_eq!(glb_images(&glb).1.len(), images, "{model}");
        assert_eq!(glb, viewed_glb(server.addr(), model).1, "{model}: the browser's GLB is the server's");
    }
}
