//! Issue 40: everything `relic view` reads lies under its root. What a conversion finds by itself (a model's
//! textures in its client folder, the GRFs beside it, an action's sprite beside it) is looked for at the
//! root and below, never above it, and a file reached through a link is refused as `relic pack` refuses it,
//! the warning naming the link; `relic convert` (no root) still finds them as before. Fixtures: the samples'
//! `pyramid.rsm` (one texture, `stone.bmp`, in its 40-byte name field), its name patched by hand.

#![cfg(unix)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;

use relic::ops::{self, ConvertRequest};
use relic::registry::ConvertOptions;
use relic::view::{serve, ViewOptions};

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples");

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

fn warnings(preview: &serde_json::Value) -> Vec<String> {
    preview["warnings"].as_array().map_or_else(Vec::new, |w| w.iter().map(|s| s.as_str().unwrap().into()).collect())
}

/// The bytes of each image of a GLB (read through their buffer views).
fn glb_images(glb: &[u8]) -> Vec<Vec<u8>> {
    assert_eq!(&glb[..4], b"glTF");
    let le = |at: usize| u32::from_le_bytes(glb[at..at + 4].try_into().unwrap()) as usize;
    let json_len = le(12);
    let doc: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let bin_at = 20 + json_len;
    let bin = &glb[bin_at + 8..bin_at + 8 + le(bin_at)];
    let images = doc["images"].as_array().cloned().unwrap_or_default();
    images
        .iter()
        .map(|image| {
            let view = &doc["bufferViews"][image["bufferView"].as_u64().unwrap() as usize];
            let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
            bin[start..start + view["byteLength"].as_u64().unwrap() as usize].to_vec()
        })
        .collect()
}

/// The preview of a model item and the GLB it links.
fn viewed_glb(addr: SocketAddr, path: &str) -> (serde_json::Value, Vec<u8>) {
    let p: serde_json::Value = serde_json::from_slice(&ok(addr, &format!("/api/preview?path={path}"))).unwrap();
    assert_eq!(p["kind"], "model", "{path}: {p}");
    let url = p["assets"][0]["url"].as_str().unwrap().to_string();
    (p, ok(addr, &url))
}

/// The RGBA pixels and size of a PNG, decoded by the `png` crate.
fn png_rgba(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut reader = png::Decoder::new(bytes).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf.chunks(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        other => panic!("unexpected PNG colour type {other:?}"),
    };
    (info.width, info.height, rgba)
}

/// What `relic convert` (no root) writes for a model: its GLB.
fn converted_glb(input: &Path) -> Vec<u8> {
    let out = tempfile::tempdir().unwrap();
    let req = ConvertRequest { options: ConvertOptions::default(), ..Default::default() };
    let report = ops::convert(&[input.to_path_buf()], out.path(), &req, &ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let mut found = relic::testing::files_under(out.path()).into_iter().filter(|(n, _)| n.ends_with(".glb"));
    found.next().unwrap().1
}

/// A 4×4 24-bit BMP of one colour (bottom-up BGR rows, 54-byte header), as the spec lays it out.
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

/// The samples' pyramid with its one texture name (`stone.bmp`, a 40-byte NUL-padded field at byte 35)
/// replaced by `name`.
fn pyramid_naming(name: &str) -> Vec<u8> {
    let mut rsm = std::fs::read(Path::new(SAMPLES).join("ragnarok/pyramid.rsm")).unwrap();
    assert_eq!(&rsm[35..45], b"stone.bmp\0", "the sample's texture field");
    assert!(name.len() < 40);
    let field = &mut rsm[35..75];
    field.fill(0);
    field[..name.len()].copy_from_slice(name.as_bytes());
    rsm
}

fn stone_pixels(rgb: [u8; 3]) -> Vec<u8> {
    (0..16).flat_map(|_| [rgb[0], rgb[1], rgb[2], 255]).collect()
}

/// The case: `data/texture/lnk` links to a folder outside the root and a model names
/// `lnk\secret.bmp`: the viewer's GLB holds no image, and its warning names the link; the same model
/// converted by `relic convert` embeds the secret (the link is followed there, as before). A plain texture
/// in the root's client folder still embeds, pixel for pixel.
#[test]
fn a_texture_through_a_link_out_of_the_root_is_refused_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(root.join("data/model")).unwrap();
    std::fs::create_dir_all(root.join("data/texture")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let secret = solid_bmp([0x5E, 0xC7, 0xE7]);
    std::fs::write(outside.join("secret.bmp"), &secret).unwrap();
    std::os::unix::fs::symlink(&outside, root.join("data/texture/lnk")).unwrap();
    std::fs::write(root.join("data/model/linked.rsm"), pyramid_naming("lnk\\secret.bmp")).unwrap();
    std::fs::write(root.join("data/model/plain.rsm"), pyramid_naming("stone.bmp")).unwrap();
    std::fs::write(root.join("data/texture/stone.bmp"), solid_bmp([255, 140, 0])).unwrap();

    let server = serve(&root, ViewOptions::default()).unwrap();
    let a = server.addr();
    let (p, glb) = viewed_glb(a, "data/model/linked.rsm");
    assert_eq!(glb_images(&glb).len(), 0, "the secret is not embedded");
    assert!(!glb.windows(secret.len()).any(|w| w == secret.as_slice()));
    let warned = warnings(&p);
    let link = root.join("data/texture/lnk").canonicalize().unwrap_or_else(|_| root.join("data/texture/lnk"));
    let named = warned.iter().any(|w| {
        w.contains("texture 'data\\texture\\lnk\\secret.bmp' not read")
            && w.contains("is a link")
            && (w.contains(&link.display().to_string()) || w.contains("data/texture/lnk"))
    });
    assert!(named, "a warning names the refused link: {warned:?}");
    // The file itself is not served either (the tree's own check).
    assert_eq!(get(a, "/api/file?path=data/texture/lnk/secret.bmp&as=raw").0, 403);

    let (p, glb) = viewed_glb(a, "data/model/plain.rsm");
    assert_eq!(warnings(&p), Vec::<String>::new());
    let images = glb_images(&glb);
    assert_eq!(images.len(), 1, "the texture in the root's client folder");
    assert_eq!(png_rgba(&images[0]), (4, 4, stone_pixels([255, 140, 0])));
    drop(server);

    // `relic convert` is given the file by the user, with no root: the link is followed as before.
    let images = glb_images(&converted_glb(&root.join("data/model/linked.rsm")));
    assert_eq!(images.len(), 1);
    assert_eq!(png_rgba(&images[0]), (4, 4, stone_pixels([0x5E, 0xC7, 0xE7])));
}

/// A root below a client folder (`relic view client/data/model`, or one model of it): the client's
/// `data/texture/stone.bmp` above the root is not looked in, and the warning says the model is in no client
/// folder; served from the client folder itself, the same model is textured.
#[test]
fn a_client_folder_above_the_root_is_not_looked_in() {
    let dir = tempfile::tempdir().unwrap();
    let client = dir.path().join("client");
    std::fs::create_dir_all(client.join("data/model")).unwrap();
    std::fs::create_dir_all(client.join("data/texture")).unwrap();
    std::fs::write(client.join("data/model/pyramid.rsm"), pyramid_naming("stone.bmp")).unwrap();
    std::fs::write(client.join("data/texture/stone.bmp"), solid_bmp([10, 20, 30])).unwrap();

    for (root, item) in [
        (client.join("data/model"), "pyramid.rsm"),
        // A single file: the files beside it are its root, never a folder above.
        (client.join("data/model/pyramid.rsm"), ""),
    ] {
        let server = serve(&root, ViewOptions::default()).unwrap();
        let (p, glb) = viewed_glb(server.addr(), item);
        assert_eq!(glb_images(&glb).len(), 0, "{}: nothing from above the root", root.display());
        let warned = warnings(&p);
        assert_eq!(warned.len(), 1, "{warned:?}");
        assert!(
            warned[0].contains("texture 'data\\texture\\stone.bmp' not found") && warned[0].contains("nowhere"),
            "{warned:?}"
        );
    }
    let server = serve(&client, ViewOptions::default()).unwrap();
    let (p, glb) = viewed_glb(server.addr(), "data/model/pyramid.rsm");
    assert_eq!(warnings(&p), Vec::<String>::new());
    let images = glb_images(&glb);
    assert_eq!(images.len(), 1);
    assert_eq!(png_rgba(&images[0]), (4, 4, stone_pixels([10, 20, 30])));
}

/// A GRF beside the model that is a link to an archive outside the root is passed over (a GRF really
/// beside it is used: `view_lookup.rs`), and an action's sprite beside it that is a link is not read.
#[test]
fn files_beside_an_item_that_are_links_out_of_the_root_are_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let grf = relic::ragnarok::grf::write_archive_bytes(
        vec![relic::ragnarok::grf::PackInput {
            name: relic::ragnarok::grf::write::encode_name("data\\texture\\stone.bmp").unwrap(),
            source: relic::ragnarok::grf::PackSource::Bytes(solid_bmp([1, 2, 3])),
        }],
        0x200,
    )
    .unwrap();
    std::fs::write(outside.join("textures.grf"), &grf).unwrap();
    std::os::unix::fs::symlink(outside.join("textures.grf"), root.join("TEXTURES.GRF")).unwrap();
    std::fs::write(root.join("pyramid.rsm"), pyramid_naming("stone.bmp")).unwrap();
    std::fs::copy(Path::new(SAMPLES).join("ragnarok/sprite.spr"), outside.join("body.spr")).unwrap();
    std::fs::copy(Path::new(SAMPLES).join("ragnarok/sample.act"), root.join("body.act")).unwrap();
    std::os::unix::fs::symlink(outside.join("body.spr"), root.join("body.spr")).unwrap();

    let server = serve(&root, ViewOptions::default()).unwrap();
    let a = server.addr();
    let (p, glb) = viewed_glb(a, "pyramid.rsm");
    assert_eq!(glb_images(&glb).len(), 0, "the linked GRF is not looked in");
    assert!(warnings(&p).iter().any(|w| w.contains("texture 'data\\texture\\stone.bmp' not found")), "{p}");

    let (status, body) = get(a, "/api/preview?path=body.act");
    let preview: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let frames = preview["assets"].as_array().map_or(0, |a| a.iter().filter(|v| v["frames"].is_array()).count());
    assert_eq!(frames, 0, "no frame drawn from the linked sprite: {status} {preview}");
    assert_eq!(status, 200);
    let warned = warnings(&preview);
    assert!(warned.iter().any(|w| w.contains("body.spr is a link")), "the warning names the link: {warned:?}");
    assert!(warned.iter().any(|w| w.contains("no sprite `body.spr` beside `body.act`")), "{warned:?}");
    drop(server);
    // `relic convert` follows the sprite's link as before.
    let out = tempfile::tempdir().unwrap();
    let req = ConvertRequest::default();
    let report = ops::convert(&[root.join("body.act")], out.path(), &req, &ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert!(relic::testing::files_under(out.path()).keys().any(|n| n.ends_with(".png")));
}

/// A map's models in a `model/` folder beside it that is a link out of the root are not read (a warning
/// names the link); `relic convert` of the same map, with no root, follows the link and places them.
#[test]
fn a_maps_models_through_a_link_out_of_the_root_are_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(root.join("map")).unwrap();
    for f in ["map.rsw", "map.gnd", "map.gat"] {
        std::fs::copy(Path::new(SAMPLES).join("ragnarok").join(f), root.join("map").join(f)).unwrap();
    }
    let rsw = relic::ragnarok::rsw::parse(&std::fs::read(root.join("map/map.rsw")).unwrap()).unwrap();
    let wanted: std::collections::BTreeSet<String> = rsw.models().map(|m| m.file.to_string()).collect();
    assert!(!wanted.is_empty(), "the sample map places models");
    for file in &wanted {
        let to = outside.join("model").join(file.replace('\\', "/"));
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(Path::new(SAMPLES).join("ragnarok/pyramid.rsm"), to).unwrap();
    }
    std::os::unix::fs::symlink(outside.join("model"), root.join("map/model")).unwrap();
    let meshes = |glb: &[u8]| {
        let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
        let doc: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
        doc["meshes"].as_array().map_or(0, Vec::len)
    };

    let server = serve(&root, ViewOptions::default()).unwrap();
    let a = server.addr();
    let p: serde_json::Value = serde_json::from_slice(&ok(a, "/api/preview?path=map/map.rsw")).unwrap();
    let url = p["assets"].as_array().unwrap().iter().find(|v| v["kind"] == "model").unwrap()["url"]
        .as_str()
        .unwrap()
        .to_string();
    let viewed = ok(a, &url);
    let warned = warnings(&p);
    assert!(warned.iter().any(|w| w.contains("map/model is a link")), "the warning names the link: {warned:?}");
    drop(server);
    let out = tempfile::tempdir().unwrap();
    let options = ConvertOptions {
        settings: vec![(relic::ragnarok::rsw::scene::WALKABILITY_OPTION.to_string(), "scene".to_string())],
        ..Default::default()
    };
    let req = ConvertRequest { options, ..Default::default() };
    let report = ops::convert(&[root.join("map/map.rsw")], out.path(), &req, &ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let converted = relic::testing::files_under(out.path()).into_iter().find(|(n, _)| n.ends_with(".glb")).unwrap().1;
    assert!(
        meshes(&converted) > meshes(&viewed),
        "convert places the linked models, the viewer does not ({} → {})",
        meshes(&viewed),
        meshes(&converted)
    );
}
