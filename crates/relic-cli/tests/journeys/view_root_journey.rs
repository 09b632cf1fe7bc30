//! Issue 40, as a user meets it: `relic view ROOT` over a client folder whose `data/texture/lnk` is a link
//! out of ROOT. A model naming `lnk\secret.bmp` is served untextured, its warning naming the link; given
//! explicitly (`--textures`, the user's own root) the same folder textures it; and `relic convert`, given the
//! file by the user with no root, follows the link as before.

#![cfg(unix)]

use std::io::{BufRead, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples");

/// A 4×4 24-bit BMP of one colour (bottom-up BGR rows after the 54-byte header).
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

/// The samples' pyramid with its one texture name (a 40-byte NUL-padded field at byte 35) set to `name`.
fn pyramid_naming(name: &str) -> Vec<u8> {
    let mut rsm = std::fs::read(Path::new(SAMPLES).join("ragnarok/pyramid.rsm")).unwrap();
    assert_eq!(&rsm[35..45], b"stone.bmp\0");
    rsm[35..75].fill(0);
    rsm[35..35 + name.len()].copy_from_slice(name.as_bytes());
    rsm
}

/// A running `relic view`, ended when dropped.
struct Viewer {
    child: std::process::Child,
    host: String,
}

impl Viewer {
    fn start(args: &[&str]) -> Viewer {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("relic"))
            .arg("view")
            .args(["-q", "--json"])
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        let url: serde_json::Value = serde_json::from_str(&first).unwrap();
        let host = url["url"].as_str().unwrap().trim_start_matches("http://").trim_end_matches('/').to_string();
        Viewer { child, host }
    }

    /// `GET target`: status and body (`Connection: close`, not chunked for JSON and files here).
    fn get(&self, target: &str) -> (u16, Vec<u8>) {
        let mut stream = TcpStream::connect(&self.host).unwrap();
        write!(stream, "GET {target} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", self.host).unwrap();
        let mut reply = Vec::new();
        stream.read_to_end(&mut reply).unwrap();
        let split = reply.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8_lossy(&reply[..split]).to_ascii_lowercase();
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        let mut body = reply[split + 4..].to_vec();
        if head.contains("transfer-encoding: chunked") {
            body = dechunk(&body);
        }
        (status, body)
    }

    /// The model's preview (its warnings) and the number of images in the GLB it links.
    fn model(&self, path: &str) -> (Vec<String>, usize) {
        let (status, body) = self.get(&format!("/api/preview?path={path}"));
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
        let p: serde_json::Value = serde_json::from_slice(&body).unwrap();
        let warnings = p["warnings"]
            .as_array()
            .map_or_else(Vec::new, |w| w.iter().map(|s| s.as_str().unwrap().to_string()).collect::<Vec<String>>());
        let (status, glb) = self.get(p["assets"][0]["url"].as_str().unwrap());
        assert_eq!(status, 200);
        (warnings, glb_image_count(&glb))
    }
}

impl Drop for Viewer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
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

fn glb_image_count(glb: &[u8]) -> usize {
    assert_eq!(&glb[..4], b"glTF");
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    doc["images"].as_array().map_or(0, Vec::len)
}

fn text(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_texture_linked_out_of_the_viewed_folder_is_refused_unless_given() {
    let dir = tempfile::tempdir().unwrap();
    let root: PathBuf = dir.path().join("client");
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(root.join("data/model")).unwrap();
    std::fs::create_dir_all(root.join("data/texture")).unwrap();
    std::fs::create_dir_all(elsewhere.join("lnk")).unwrap();
    std::fs::write(elsewhere.join("lnk/secret.bmp"), solid_bmp([9, 8, 7])).unwrap();
    std::os::unix::fs::symlink(elsewhere.join("lnk"), root.join("data/texture/lnk")).unwrap();
    std::fs::write(root.join("data/model/linked.rsm"), pyramid_naming("lnk\\secret.bmp")).unwrap();

    let viewer = Viewer::start(&[text(&root)]);
    let (warnings, images) = viewer.model("data/model/linked.rsm");
    assert_eq!(images, 0, "the secret is not in the served GLB");
    assert!(
        warnings.iter().any(|w| w.contains("data\\texture\\lnk\\secret.bmp") && w.contains("lnk is a link")),
        "a warning names the link: {warnings:?}"
    );
    drop(viewer);

    // Given explicitly, the folder is the user's own: the texture is found there.
    let viewer = Viewer::start(&["--textures", text(&elsewhere), text(&root)]);
    let (warnings, images) = viewer.model("data/model/linked.rsm");
    assert_eq!(images, 1, "--textures is read where it is: {warnings:?}");
    drop(viewer);

    // `relic convert` of the file the user names follows the link, as before.
    let out = dir.path().join("out");
    assert_cmd::Command::cargo_bin("relic")
        .unwrap()
        .args(["convert", "-q", "-o", text(&out), text(&root.join("data/model/linked.rsm"))])
        .assert()
        .code(0);
    let glb = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "glb"))
        .expect("a GLB");
    assert_eq!(glb_image_count(&std::fs::read(glb).unwrap()), 1);
}
