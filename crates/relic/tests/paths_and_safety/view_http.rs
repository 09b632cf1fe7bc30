//! `relic view`'s server over HTTP: every endpoint, and every way out of the root the Security section of
//! the issue names (`..`, percent-encoded escapes, absolute paths, drive letters, backslashes, NUL,
//! symbolic links that lead outside, a Host header that is not the address served). Requests are written
//! byte for byte on a `TcpStream`, so that nothing normalizes them on the way; the server runs in-process
//! on port 0 over a temporary copy of some samples, with a secret file beside the root and links to it.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use relic::view::{serve, Server, ViewOptions};

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples");
const SECRET: &str = "TOP SECRET: outside the root";

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
    server: Server,
}

impl Fixture {
    fn addr(&self) -> SocketAddr {
        self.server.addr()
    }
}

fn copy(from: &str, root: &Path) {
    let to = root.join(from);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(Path::new(SAMPLES).join(from), to).unwrap();
}

/// A root with samples in it, a secret file beside it, and links (on Unix) that lead out of it.
fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    for f in [
        "evil_islands/example.res",
        "evil_islands/example_dxt1.mmp",
        "evil_islands/settings.reg",
        "evil_islands/unit.mod",
        "dark_reign/SPRITES.FTG",
        "drakan/Sample.sdb",
        "ragnarok/pyramid.rsm",
    ] {
        copy(f, &root);
    }
    std::fs::write(root.join("evil_islands/broken.mmp"), b"MMP\0 not really a texture").unwrap();
    std::fs::write(root.join("notes.txt"), b"plain text, no format").unwrap();
    std::fs::create_dir_all(root.join("%2e%2e")).unwrap();
    std::fs::write(dir.path().join("secret.txt"), SECRET).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink("../secret.txt", root.join("escape")).unwrap();
        symlink("..", root.join("escape_dir")).unwrap();
        symlink(dir.path().join("secret.txt"), root.join("evil_islands/absolute_escape.mmp")).unwrap();
        symlink("evil_islands/example_dxt1.mmp", root.join("inside.mmp")).unwrap();
        // A FIFO would block whoever opens it: it must be refused, not read.
        let _ = std::process::Command::new("mkfifo").arg(root.join("fifo")).status();
    }
    let server = serve(&root, ViewOptions::default()).unwrap();
    Fixture { _dir: dir, root, server }
}

struct Reply {
    status: u16,
    headers: BTreeMap<String, String>,
    body: Vec<u8>,
}

impl Reply {
    fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
    /// The body as text, cut short for messages.
    fn text(&self) -> String {
        let text = String::from_utf8_lossy(&self.body);
        text.chars().take(600).collect()
    }
    fn header(&self, name: &str) -> &str {
        self.headers.get(&name.to_ascii_lowercase()).map_or("", String::as_str)
    }
}

/// Sends `request` as it is and reads the whole answer.
fn raw(addr: SocketAddr, request: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    stream.write_all(request).unwrap();
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).unwrap();
    let split = bytes.windows(4).position(|w| w == b"\r\n\r\n").expect("a complete head");
    let head = String::from_utf8_lossy(&bytes[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers: BTreeMap<String, String> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = bytes[split + 4..].to_vec();
    if headers.get("transfer-encoding").is_some_and(|t| t.eq_ignore_ascii_case("chunked")) {
        body = dechunk(&body);
    }
    Reply { status, headers, body }
}

/// The body of a chunked answer.
fn dechunk(mut bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = bytes.windows(2).position(|w| w == b"\r\n").expect("a chunk size line");
        let size_text = String::from_utf8_lossy(&bytes[..line_end]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16).unwrap();
        bytes = &bytes[line_end + 2..];
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&bytes[..size]);
        bytes = &bytes[size + 2..];
    }
}

fn request(addr: SocketAddr, method: &str, target: &str, host: &str) -> Reply {
    raw(addr, format!("{method} {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes())
}

fn get(addr: SocketAddr, target: &str) -> Reply {
    request(addr, "GET", target, &format!("127.0.0.1:{}", addr.port()))
}

fn ok(addr: SocketAddr, target: &str) -> Reply {
    let r = get(addr, target);
    assert_eq!(r.status, 200, "{target}: {}", r.text());
    r
}

/// Every file under `root` (links not followed) with a hash of its bytes.
fn snapshot(root: &Path) -> BTreeMap<String, String> {
    walkdir::WalkDir::new(root)
        .follow_links(false)
        .into_iter()
        .map(|e| e.unwrap())
        .map(|e| {
            let rel = e.path().strip_prefix(root).unwrap().to_string_lossy().into_owned();
            let what = if e.file_type().is_file() {
                blake3::hash(&std::fs::read(e.path()).unwrap()).to_hex().to_string()
            } else {
                format!("{:?}", e.file_type())
            };
            (rel, what)
        })
        .collect()
}

fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

fn names(children: &serde_json::Value) -> Vec<String> {
    children.as_array().unwrap().iter().map(|c| c["path"].as_str().unwrap().to_string()).collect()
}

#[test]
fn every_endpoint_answers_and_nothing_under_the_root_is_written() {
    let f = fixture();
    let before = snapshot(&f.root);
    let a = f.addr();

    // The app and its files.
    let page = ok(a, "/");
    assert!(page.header("content-type").starts_with("text/html"));
    let html = String::from_utf8(page.body.clone()).unwrap();
    assert!(html.contains("/assets/app.js") && html.contains("id=\"preview\""));
    assert!(page.header("content-security-policy").contains("script-src 'self'"));
    assert!(ok(a, "/assets/app.js").header("content-type").starts_with("text/javascript"));
    assert!(ok(a, "/assets/app.css").header("content-type").starts_with("text/css"));
    assert_eq!(get(a, "/assets/nope.js").status, 404);
    assert_eq!(get(a, "/api/nothing").status, 404);

    // The tree, one level at a time; links out of the root and FIFOs are not listed.
    let top = ok(a, "/api/tree").json();
    assert_eq!(top["root"]["is_dir"], true);
    let listed = names(&top["children"]);
    for expected in
        ["dark_reign", "drakan", "evil_islands", "ragnarok", if cfg!(unix) { "inside.mmp" } else { "drakan" }]
    {
        assert!(listed.iter().any(|n| n == expected), "{expected} not in {listed:?}");
    }
    for hidden in ["escape", "escape_dir", "fifo", "notes.txt"] {
        assert!(!listed.iter().any(|n| n == hidden), "{hidden} listed: {listed:?}");
    }
    let ei = names(&ok(a, "/api/tree?path=evil_islands").json()["children"]);
    assert!(ei.contains(&"evil_islands/example.res".to_string()) && !ei.iter().any(|n| n.contains("absolute_escape")));
    let res = ok(a, "/api/tree?path=evil_islands/example.res").json();
    let res_children = names(&res["children"]);
    assert!(res_children.contains(&"evil_islands/example.res/unit.bon".to_string()), "{res_children:?}");
    assert!(res_children.contains(&"evil_islands/example.res/texts".to_string()), "{res_children:?}");
    let nested = names(&ok(a, "/api/tree?path=evil_islands/example.res/unit.bon").json()["children"]);
    assert_eq!(nested, ["evil_islands/example.res/unit.bon/body.bon", "evil_islands/example.res/unit.bon/head.bon"]);
    let folder = names(&ok(a, "/api/tree?path=evil_islands/example.res/texts").json()["children"]);
    assert!(folder.contains(&"evil_islands/example.res/texts/quest q1".to_string()), "{folder:?}");
    // A record container lists what it converts to.
    let sdb = names(&ok(a, "/api/tree?path=drakan/Sample.sdb/Ambience").json()["children"]);
    assert_eq!(sdb, ["drakan/Sample.sdb/Ambience/2_hum.wav", "drakan/Sample.sdb/Ambience/3_wind.wav"]);

    // Info.
    let info = ok(a, "/api/info?path=evil_islands/example_dxt1.mmp").json();
    assert_eq!((info["kind"].as_str(), info["info"]["width"].as_u64()), (Some("image"), Some(16)));
    assert_eq!(info["format"]["id"], "ei-mmp");
    assert_eq!(ok(a, "/api/info?path=evil_islands").json()["kind"], "folder");

    // An image: its frames (mip levels) as PNGs.
    let preview = ok(a, "/api/preview?path=evil_islands/example_dxt1.mmp").json();
    assert_eq!(preview["kind"], "image");
    let frames = preview["assets"][0]["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 5);
    let png = ok(a, frames[0]["url"].as_str().unwrap());
    assert_eq!((png.header("content-type"), png_size(&png.body)), ("image/png", (16, 16)));
    assert_eq!(png_size(&ok(a, frames[1]["url"].as_str().unwrap()).body), (8, 8));
    #[cfg(unix)]
    assert_eq!(ok(a, "/api/preview?path=inside.mmp").json()["kind"], "image");

    // Raw bytes, the file's own data as JSON, and downloads.
    let raw_bytes = ok(a, "/api/file?path=evil_islands/example_dxt1.mmp&as=raw");
    assert_eq!(raw_bytes.body, std::fs::read(f.root.join("evil_islands/example_dxt1.mmp")).unwrap());
    assert_eq!(raw_bytes.header("content-type"), "application/octet-stream");
    let json = ok(a, "/api/file?path=evil_islands/example_dxt1.mmp&as=json").json();
    assert_eq!(json["format"], "ei-mmp");
    let download = ok(a, "/api/file?path=evil_islands/example_dxt1.mmp&as=png&download=1");
    assert!(download.header("content-disposition").starts_with("attachment; filename=\"example_dxt1.png\""));
    assert_eq!(get(a, "/api/file?path=evil_islands/example_dxt1.mmp&as=wav").status, 404);
    assert_eq!(get(a, "/api/file?path=evil_islands/example_dxt1.mmp&as=png&frame=9").status, 422);
    assert_eq!(get(a, "/api/file?path=evil_islands/example_dxt1.mmp&as=..").status, 400);

    // Sounds: a WAV inside an FTG (sent as it is), and a Drakan sound record converted.
    let boom = ok(a, "/api/preview?path=dark_reign/SPRITES.FTG/BOOM.WAV").json();
    assert_eq!(boom["kind"], "sound");
    let wav = ok(a, boom["assets"][0]["url"].as_str().unwrap());
    assert_eq!((wav.header("content-type"), &wav.body[..4]), ("audio/wav", &b"RIFF"[..]));
    let hum = ok(a, "/api/preview?path=drakan/Sample.sdb/Ambience/2_hum.wav").json();
    assert_eq!(hum["kind"], "sound");
    assert!(hum["assets"][0]["duration"].as_f64().unwrap() > 0.0);
    let wav = ok(a, hum["assets"][0]["url"].as_str().unwrap());
    assert_eq!(&wav.body[8..12], b"WAVE");
    assert_eq!(ok(a, "/api/preview?path=drakan/Sample.sdb").json()["kind"], "archive");

    // Sprite frames drawn with their archive's palette.
    let sprite = ok(a, "/api/preview?path=dark_reign/SPRITES.FTG/UNIT.SPR").json();
    assert_eq!(sprite["kind"], "image");
    assert!(sprite["assets"].as_array().unwrap().len() > 1);

    // Models as GLB.
    let model = ok(a, "/api/preview?path=ragnarok/pyramid.rsm").json();
    assert_eq!(model["kind"], "model");
    assert_eq!(model["assets"][0]["animations"].as_array().unwrap().len(), 1);
    let glb = ok(a, model["assets"][0]["url"].as_str().unwrap());
    assert_eq!((glb.header("content-type"), &glb.body[..4]), ("model/gltf-binary", &b"glTF"[..]));
    assert_eq!(ok(a, "/api/preview?path=evil_islands/unit.mod").json()["kind"], "model");

    // Documents: an INI (text), archive entries of no format as text or hex.
    let reg = ok(a, "/api/preview?path=evil_islands/settings.reg").json();
    assert_eq!(reg["kind"], "document");
    assert!(reg["assets"][0]["text"].as_str().unwrap().contains("[Game]"));
    let readme = ok(a, "/api/preview?path=evil_islands/example.res/readme.txt").json();
    assert_eq!((readme["kind"].as_str(), readme["assets"][0]["kind"].as_str()), (Some("document"), Some("text")));
    assert_eq!(ok(a, "/api/preview?path=evil_islands/example.res/unit.bon/body.bon").json()["kind"], "binary");
    assert_eq!(ok(a, "/api/preview?path=evil_islands/example.res").json()["kind"], "archive");
    assert_eq!(ok(a, "/api/preview?path=").json()["kind"], "folder");

    // An item that cannot be read: relic's one-line error, with what is known.
    let broken = get(a, "/api/preview?path=evil_islands/broken.mmp");
    assert_eq!(broken.status, 422, "{}", broken.text());
    let body = broken.json();
    let error = body["error"].as_str().unwrap();
    assert!(
        error.contains("ei-mmp") && !error.contains('\n') && !error.contains(&*f.root.to_string_lossy()),
        "{error}"
    );
    assert_eq!(body["kind"], "image");
    assert_eq!(get(a, "/api/preview?path=evil_islands/nothing.mmp").status, 404);
    assert_eq!(get(a, "/api/tree?path=evil_islands/example.res/nothing").status, 404);
    assert_eq!(get(a, "/api/tree?path=evil_islands/example_dxt1.mmp/below").status, 404);

    // HEAD has no body; other methods are refused.
    let head = request(a, "HEAD", "/api/tree", &format!("127.0.0.1:{}", a.port()));
    assert_eq!((head.status, head.body.len()), (200, 0));
    let post = request(a, "POST", "/api/tree", &format!("127.0.0.1:{}", a.port()));
    assert_eq!((post.status, post.header("allow")), (405, "GET, HEAD"));
    // Every answer carries the headers that keep files from running as pages.
    assert_eq!(glb.header("x-content-type-options"), "nosniff");
    assert!(glb.header("content-security-policy").contains("sandbox"));
    assert_eq!(glb.header("cross-origin-resource-policy"), "same-origin");

    // Many requests for one conversion at once: one answer for all.
    let target = "/api/file?path=evil_islands/unit.mod&as=glb";
    let bodies: Vec<Vec<u8>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8).map(|_| s.spawn(move || ok(a, target).body)).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(bodies.iter().all(|b| b == &bodies[0] && b.starts_with(b"glTF")));

    assert_eq!(snapshot(&f.root), before, "the server wrote under its root");
}

/// Each target must be refused with `status` and a JSON error, and never show the secret.
fn refused(a: SocketAddr, target: &str, status: u16) {
    let r = get(a, target);
    assert_eq!(r.status, status, "{target}: {}", r.text());
    assert!(r.json()["error"].is_string(), "{target}");
    assert!(!String::from_utf8_lossy(&r.body).contains(SECRET), "{target} leaked the secret");
}

#[test]
fn every_escape_from_the_root_is_refused() {
    let f = fixture();
    let a = f.addr();
    for endpoint in ["file", "tree", "info", "preview"] {
        for path in [
            "..",
            "../secret.txt",
            "evil_islands/../../secret.txt",
            "%2e%2e/secret.txt",
            "%2E%2E%2Fsecret.txt",
            "evil_islands%2F..%2F..%2Fsecret.txt",
            ".%2e/secret.txt",
            "./evil_islands",
            "evil_islands/./example.res",
            "/etc/passwd",
            "%2Fetc%2Fpasswd",
            "%2F%2Fserver%2Fshare",
            "C:/Windows/win.ini",
            "c%3A%5CWindows%5Cwin.ini",
            "evil_islands%5C..%5C..%5Csecret.txt",
            "..%5Csecret.txt",
            "evil_islands%00/../../secret.txt",
            "evil_islands/example.res%00",
            "%c0%ae%c0%ae/secret.txt",
            "%e0%80%ae%e0%80%ae/secret.txt",
            "evil_islands//example.res",
            "evil_islands/",
            "%zz",
            "%2",
            "evil_islands%0a",
        ] {
            refused(a, &format!("/api/{endpoint}?path={path}&as=raw"), 400);
        }
        // Links that lead outside, wherever they are on the path, and things that are not files.
        #[cfg(unix)]
        for path in ["escape", "escape_dir", "escape_dir/secret.txt", "escape_dir/root/notes.txt"] {
            refused(a, &format!("/api/{endpoint}?path={path}&as=raw"), 403);
        }
        #[cfg(unix)]
        if f.root.join("fifo").exists() {
            refused(a, &format!("/api/{endpoint}?path=fifo&as=raw"), 403);
        }
        #[cfg(unix)]
        refused(a, &format!("/api/{endpoint}?path=evil_islands/absolute_escape.mmp&as=raw"), 403);
    }
    // Encoded twice is a name, not an escape: the folder literally named `%2e%2e` is under the root.
    assert_eq!(get(a, "/api/tree?path=%252e%252e").status, 200);
    refused(a, "/api/file?path=%252e%252e/secret.txt&as=raw", 404);
    // Two paths, one of which might be checked and the other used.
    refused(a, "/api/file?path=notes.txt&path=../secret.txt&as=raw", 400);
    // The request target itself.
    for target in [
        "/api/../../secret.txt",
        "/assets/../../secret.txt",
        "/assets/..%2f..%2f..%2fsecret.txt",
        "/assets/%2e%2e/%2e%2e/secret.txt",
        "//etc/passwd",
        "/secret.txt",
        "/../secret.txt",
    ] {
        refused(a, target, 404);
    }
    let absolute = get(a, &format!("http://127.0.0.1:{}/api/tree", a.port()));
    assert_eq!(absolute.status, 400, "{}", absolute.text());
    // A link that stays inside the root is followed.
    #[cfg(unix)]
    assert_eq!(ok(a, "/api/file?path=inside.mmp&as=raw").body, std::fs::read(f.root.join("inside.mmp")).unwrap());
}

#[test]
fn only_the_address_served_is_answered() {
    let f = fixture();
    let a = f.addr();
    let port = a.port();
    for host in [format!("127.0.0.1:{port}"), format!("localhost:{port}"), format!("LocalHost:{port}")] {
        assert_eq!(request(a, "GET", "/api/tree", &host).status, 200, "{host}");
    }
    for host in [
        format!("evil.example:{port}"),
        format!("127.0.0.1.nip.io:{port}"),
        format!("localhost.:{port}"),
        format!("attacker.localhost:{port}"),
        format!("[::1]:{port}"),
        format!("127.0.0.2:{port}"),
        format!("0.0.0.0:{port}"),
        "127.0.0.1".to_string(),
        "localhost".to_string(),
        format!("127.0.0.1:{}", port.wrapping_add(1)),
        format!("127.0.0.1:0{port}"),
        String::new(),
    ] {
        let r = request(a, "GET", "/api/tree", &host);
        assert_eq!(r.status, 403, "Host {host:?}: {}", r.text());
        assert!(r.json()["error"].as_str().unwrap().contains("refusing"));
        // The app itself too: a rebound page must not even load.
        assert_eq!(request(a, "GET", "/", &host).status, 403, "{host}");
    }
    let no_host = raw(a, b"GET /api/tree HTTP/1.0\r\n\r\n");
    assert_eq!(no_host.status, 403);
    let two = raw(
        a,
        format!("GET /api/tree HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    );
    assert_eq!(two.status, 403);
    // A request another site's page makes (browsers say so in Sec-Fetch-Site).
    for (site, status) in [("cross-site", 403), ("same-site", 403), ("same-origin", 200), ("none", 200)] {
        let r = raw(
            a,
            format!("GET /api/tree HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nSec-Fetch-Site: {site}\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        );
        assert_eq!(r.status, status, "Sec-Fetch-Site: {site}");
    }
}

#[test]
fn only_loopback_addresses_are_served_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    for host in ["0.0.0.0", "192.0.2.1", "::"] {
        let options = ViewOptions { host: host.parse().unwrap(), ..Default::default() };
        let err = serve(dir.path(), options).err().expect("refused");
        assert!(err.to_string().contains("not a loopback address"), "{err}");
    }
    for host in ["localhost", "127.0.0.1", "::1", "[::1]"] {
        assert!(relic::view::parse_host(host).unwrap().is_loopback());
    }
    assert!(relic::view::parse_host("example.com").is_err());
    // IPv6 loopback, where the machine has it.
    if std::net::TcpListener::bind("[::1]:0").is_ok() {
        let server = serve(dir.path(), ViewOptions { host: "::1".parse().unwrap(), ..Default::default() }).unwrap();
        let a = server.addr();
        assert!(server.url().starts_with("http://[::1]:"));
        assert_eq!(request(a, "GET", "/api/tree", &format!("[::1]:{}", a.port())).status, 200);
        assert_eq!(request(a, "GET", "/api/tree", &format!("127.0.0.1:{}", a.port())).status, 403);
    }
}

#[test]
fn an_archive_can_be_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("example.res");
    std::fs::copy(Path::new(SAMPLES).join("evil_islands/example.res"), &file).unwrap();
    std::fs::write(dir.path().join("beside.txt"), SECRET).unwrap();
    let server = serve(&file, ViewOptions::default()).unwrap();
    let a = server.addr();
    let top = ok(a, "/api/tree").json();
    assert_eq!((top["root"]["is_dir"].as_bool(), top["root"]["kind"].as_str()), (Some(false), Some("archive")));
    assert!(names(&top["children"]).contains(&"unit.bon".to_string()));
    assert_eq!(ok(a, "/api/preview?path=").json()["kind"], "archive");
    assert_eq!(ok(a, "/api/file?path=unit.bon/body.bon&as=raw").body.len(), 96);
    refused(a, "/api/file?path=../beside.txt&as=raw", 400);
    refused(a, "/api/file?path=beside.txt&as=raw", 404);
}

#[test]
fn a_large_archive_lists_quickly_and_once() {
    use relic::evil_islands::res::write::{write_archive, PackInput, PackOptions, PackSource};
    let dir = tempfile::tempdir().unwrap();
    let texture = std::fs::read(Path::new(SAMPLES).join("evil_islands/example_dxt1.mmp")).unwrap();
    let inputs = (0..17_000)
        .map(|i| PackInput {
            name: format!("textures\\t{i:05}.mmp").into_bytes(),
            modified: 0,
            source: PackSource::Bytes(texture.clone()),
        })
        .collect();
    let mut bytes = Vec::new();
    write_archive(inputs, PackOptions::default(), &mut bytes).unwrap();
    std::fs::write(dir.path().join("big.res"), bytes).unwrap();
    let server = serve(dir.path(), ViewOptions::default()).unwrap();
    let a = server.addr();
    let start = Instant::now();
    let level = ok(a, "/api/tree?path=big.res").json();
    assert_eq!(names(&level["children"]), ["big.res/textures"]);
    let entries = ok(a, "/api/tree?path=big.res/textures").json();
    assert_eq!(entries["children"].as_array().unwrap().len(), 17_000);
    assert_eq!(entries["children"][16_999]["kind"], "image");
    let first = start.elapsed();
    let again = Instant::now();
    ok(a, "/api/tree?path=big.res/textures");
    let png = ok(a, "/api/file?path=big.res/textures/t16999.mmp&as=png&asset=0&frame=0");
    assert_eq!(png_size(&png.body), (16, 16));
    eprintln!("17,000 entries: listed in {first:?}, again with an entry converted in {:?}", again.elapsed());
    assert!(first < Duration::from_secs(20), "{first:?}");
}

/// Issue #23: a file truncated while it is sent ends its answer short (its `Content-Length` unmet); it
/// does not bring the server down (served from a memory map, the truncated pages were a SIGBUS), and a
/// client that keeps its connection alive is not left waiting for the rest: the server ends the connection.
#[test]
fn a_file_truncated_while_it_is_sent_gives_a_short_answer() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.bin");
    let size: usize = 64 << 20;
    let server = serve(dir.path(), ViewOptions::default()).unwrap();
    let a = server.addr();
    for connection in ["Connection: close\r\n", "Connection: keep-alive\r\n", ""] {
        std::fs::write(&big, vec![0x5Au8; size]).unwrap();
        let mut stream = TcpStream::connect(a).unwrap();
        // Generous: only a hang runs into it.
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let head =
            format!("GET /api/file?path=big.bin&as=raw HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n{connection}\r\n", a.port());
        stream.write_all(head.as_bytes()).unwrap();
        let mut start = vec![0u8; 1 << 20];
        stream.read_exact(&mut start).unwrap();
        std::fs::OpenOptions::new().write(true).open(&big).unwrap().set_len(4096).unwrap();
        let mut rest = Vec::new();
        // The server may end the connection with a reset: what came is what counts, but not a timeout.
        if let Err(e) = stream.read_to_end(&mut rest) {
            let hung = matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut);
            assert!(!hung, "{connection:?}: the connection was left open ({e})");
        }
        let mut bytes = start;
        bytes.extend(rest);
        let split = bytes.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8_lossy(&bytes[..split]).to_ascii_lowercase();
        assert!(head.starts_with("http/1.1 200"), "{head}");
        assert!(head.contains(&format!("content-length: {size}")), "{head}");
        let body = &bytes[split + 4..];
        assert!(body.len() < size, "{} bytes of a file truncated to 4096", body.len());
        assert!(body.iter().all(|&b| b == 0x5A));
        // The server still answers, and the file as it is now.
        assert_eq!(ok(a, "/").status, 200);
        assert_eq!(ok(a, "/api/file?path=big.bin&as=raw").body.len(), 4096);
    }
}

fn ranged(a: SocketAddr, target: &str, range: &str) -> Reply {
    let r =
        format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nRange: {range}\r\nConnection: close\r\n\r\n", a.port());
    raw(a, r.as_bytes())
}

/// Issue #23: `/api/file` answers single byte ranges (206, `Content-Range`), 416 for a range past the end.
#[test]
fn file_downloads_answer_byte_ranges() {
    let f = fixture();
    let a = f.addr();
    let target = "/api/file?path=evil_islands/example.res&as=raw";
    let whole = ok(a, target);
    assert_eq!(whole.header("Accept-Ranges"), "bytes");
    let file = std::fs::read(f.root.join("evil_islands/example.res")).unwrap();
    assert_eq!(whole.body, file);
    let len = file.len();
    for (range, from, to) in
        [("bytes=0-9", 0, 10), ("bytes=10-", 10, len), ("bytes=-7", len - 7, len), ("bytes=5-99999999", 5, len)]
    {
        let r = ranged(a, target, range);
        assert_eq!(r.status, 206, "{range}: {}", r.text());
        assert_eq!(r.header("Content-Range"), format!("bytes {from}-{}/{len}", to - 1), "{range}");
        assert_eq!(r.header("Content-Length"), (to - from).to_string(), "{range}");
        assert_eq!(r.body, &file[from..to], "{range}");
    }
    for range in [format!("bytes={len}-"), "bytes=-0".to_string(), format!("bytes={}-{}", len + 1, len + 9)] {
        let r = ranged(a, target, &range);
        assert_eq!(r.status, 416, "{range}: {}", r.text());
        assert_eq!(r.header("Content-Range"), format!("bytes */{len}"));
        assert!(r.json()["error"].is_string());
    }
    // Several ranges, or another unit: the whole file.
    for range in ["bytes=0-1,5-6", "items=0-1"] {
        let r = ranged(a, target, range);
        assert_eq!((r.status, r.body.len()), (200, len), "{range}");
    }
    // A converted file (made in memory) and an archive entry (held in memory) answer ranges too.
    let png = ok(a, "/api/file?path=evil_islands/example_dxt1.mmp&as=png&asset=0&frame=0").body;
    let r = ranged(a, "/api/file?path=evil_islands/example_dxt1.mmp&as=png&asset=0&frame=0", "bytes=1-3");
    assert_eq!((r.status, r.body.as_slice()), (206, &png[1..4]));
    let entry = ok(a, "/api/file?path=evil_islands/example.res/unit.bon/body.bon&as=raw").body;
    let r = ranged(a, "/api/file?path=evil_islands/example.res/unit.bon/body.bon&as=raw", "bytes=-16");
    assert_eq!((r.status, r.body.as_slice()), (206, &entry[entry.len() - 16..]));
    // HEAD gives the length of the part and no body.
    let r = raw(
        a,
        format!(
            "HEAD {target} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nRange: bytes=0-9\r\nConnection: close\r\n\r\n",
            a.port()
        )
        .as_bytes(),
    );
    assert_eq!((r.status, r.header("Content-Length"), r.body.len()), (206, "10", 0));
}

/// Issue #23: what is cached is keyed by the version of its file (size, modification time): a file
/// changed on disk is converted again, not served as it was; and with a budget smaller than any value
/// (none is kept: a value larger than the budget is given, not cached) every answer is still right.
#[test]
fn a_file_changed_on_disk_is_converted_again() {
    let dir = tempfile::tempdir().unwrap();
    let ei = Path::new(SAMPLES).join("evil_islands");
    std::fs::copy(ei.join("example_dxt1.mmp"), dir.path().join("t.mmp")).unwrap();
    std::fs::copy(ei.join("example_argb4.mmp"), dir.path().join("argb4.mmp")).unwrap();
    for cache_bytes in [512 << 20, 64] {
        std::fs::copy(ei.join("example_dxt1.mmp"), dir.path().join("t.mmp")).unwrap();
        let server = serve(dir.path(), ViewOptions { cache_bytes, ..ViewOptions::default() }).unwrap();
        let a = server.addr();
        let png = "/api/file?path=t.mmp&as=png&asset=0&frame=0";
        let before = ok(a, png).body;
        assert_eq!(ok(a, png).body, before);
        let info = ok(a, "/api/preview?path=t.mmp").json();
        assert_eq!(info["size"], 260);
        let argb4 = ok(a, "/api/file?path=argb4.mmp&as=png&asset=0&frame=0").body;
        assert_ne!(argb4, before);
        std::fs::copy(ei.join("example_argb4.mmp"), dir.path().join("t.mmp")).unwrap();
        assert_eq!(ok(a, png).body, argb4, "cache_bytes {cache_bytes}: the file as it is now");
        assert_eq!(ok(a, "/api/preview?path=t.mmp").json()["size"], 204);
        // An archive's listing, too.
        let inputs = vec![relic::evil_islands::res::write::PackInput {
            name: b"only.txt".to_vec(),
            modified: 0,
            source: relic::evil_islands::res::write::PackSource::Bytes(b"one".to_vec()),
        }];
        let mut bytes = Vec::new();
        relic::evil_islands::res::write::write_archive(inputs, Default::default(), &mut bytes).unwrap();
        let res = dir.path().join("b.res");
        std::fs::copy(ei.join("example.res"), &res).unwrap();
        let children = ok(a, "/api/tree?path=b.res").json()["children"].clone();
        std::fs::write(&res, &bytes).unwrap();
        let now = ok(a, "/api/tree?path=b.res").json()["children"].clone();
        assert_ne!(now, children);
        assert_eq!(names(&now), ["b.res/only.txt"]);
        std::fs::remove_file(&res).unwrap();
    }
}

/// Issue #23: a query of 80,000 parameters (17 s to parse, each name compared with every other) is
/// refused at once; a query within the limit is parsed, repeats still refused.
#[test]
fn a_query_of_many_parameters_is_refused_quickly() {
    let f = fixture();
    let a = f.addr();
    let many = |n: usize| (0..n).map(|i| format!("p{i}=x")).collect::<Vec<_>>().join("&");
    let start = Instant::now();
    let r = get(a, &format!("/api/tree?path=evil_islands&{}", many(80_000)));
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(r.json()["error"].as_str().unwrap().contains("query parameters"), "{}", r.text());
    assert!(start.elapsed() < Duration::from_secs(2), "{:?}", start.elapsed());
    let r = get(a, &format!("/api/tree?path=evil_islands&{}", many(relic::view::request::MAX_PARAMETERS - 1)));
    assert_eq!(r.status, 200, "{}", r.text());
    refused(a, &format!("/api/tree?path=evil_islands&{}", many(relic::view::request::MAX_PARAMETERS)), 400);
    refused(a, "/api/tree?path=evil_islands&path=evil_islands", 400);
}

/// Issue #23: requests that work on a file run on workers of their own, a bounded number at once: with
/// every worker busy (clients that do not read a large download) and more waiting, the app and the folders'
/// tree still answer at once (a listing inside a file is work on a file: it waits for a worker); past the
/// queue, a request that works on a file is told to come back (503).
#[test]
fn the_app_and_the_tree_answer_while_files_are_worked_on() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big.bin"), vec![7u8; 32 << 20]).unwrap();
    std::fs::copy(Path::new(SAMPLES).join("evil_islands/example.res"), dir.path().join("example.res")).unwrap();
    let server = serve(dir.path(), ViewOptions { heavy_jobs: 4, ..ViewOptions::default() }).unwrap();
    let a = server.addr();
    let stuck: Vec<TcpStream> = (0..4 + relic::view::HEAVY_QUEUE + 8)
        .map(|_| {
            let mut s = TcpStream::connect(a).unwrap();
            let head = format!(
                "GET /api/file?path=big.bin&as=raw HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
                a.port()
            );
            s.write_all(head.as_bytes()).unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    for target in ["/", "/api/tree", "/assets/app.js"] {
        let start = Instant::now();
        let r = get(a, target);
        assert!(r.status == 200 || target.starts_with("/assets"), "{target}: {}", r.status);
        assert!(start.elapsed() < Duration::from_secs(2), "{target}: {:?}", start.elapsed());
    }
    // Those past the queue were answered 503 at once.
    let mut busy = 0;
    for mut s in stuck {
        s.set_read_timeout(Some(Duration::from_millis(20))).unwrap();
        let mut head = [0u8; 12];
        if s.read_exact(&mut head).is_ok() && &head == b"HTTP/1.1 503" {
            busy += 1;
        }
    }
    assert!(busy >= 1, "{busy}");
}

/// Issue #23: an archive entry larger than the limit relic reads of one entry is refused before it is read
/// (its bytes, once read, are cached rather than read again for every request).
#[test]
fn an_entry_past_the_limits_is_refused_unread() {
    use relic::evil_islands::res::write::{write_archive, PackInput, PackOptions, PackSource};
    let dir = tempfile::tempdir().unwrap();
    let input = |name: &str, len: usize| PackInput {
        name: name.as_bytes().to_vec(),
        modified: 0,
        source: PackSource::Bytes(vec![b'x'; len]),
    };
    let mut bytes = Vec::new();
    write_archive(vec![input("huge.txt", 3 << 20), input("small.txt", 10)], PackOptions::default(), &mut bytes)
        .unwrap();
    std::fs::write(dir.path().join("a.res"), bytes).unwrap();
    let server = serve(dir.path(), ViewOptions::default()).unwrap();
    let a = server.addr();
    for _ in 0..3 {
        assert_eq!(ok(a, "/api/info?path=a.res/huge.txt").json()["size"], 3 << 20);
    }
    let before = relic::limits::current();
    relic::limits::set(relic::limits::Limits { max_entry_size: 1 << 20, ..before });
    let refused_info = get(a, "/api/info?path=a.res/huge.txt");
    let small = get(a, "/api/file?path=a.res/small.txt&as=raw");
    relic::limits::set(before);
    assert_eq!(refused_info.status, 413, "{}", refused_info.text());
    assert!(refused_info.json()["error"].as_str().unwrap().contains("more than"), "{}", refused_info.text());
    assert_eq!((small.status, small.body.as_slice()), (200, &b"xxxxxxxxxx"[..]));
}

/// A RES archive of `entries` (name, bytes).
fn res(entries: Vec<(String, Vec<u8>)>) -> Vec<u8> {
    use relic::evil_islands::res::write::{write_archive, PackInput, PackOptions, PackSource};
    let inputs = entries
        .into_iter()
        .map(|(name, bytes)| PackInput { name: name.into_bytes(), modified: 0, source: PackSource::Bytes(bytes) })
        .collect();
    let mut out = Vec::new();
    write_archive(inputs, PackOptions::default(), &mut out).unwrap();
    out
}

/// Issue #23: the `info` of an entry is computed once however many ask for it at the same time, and kept:
/// asked again, the entry (3 MB, more than the entries' share of the cache keeps) is not read again.
#[test]
fn the_info_of_an_entry_is_computed_once() {
    let dir = tempfile::tempdir().unwrap();
    let inner = res(vec![("big.txt".into(), vec![b'x'; 3 << 20]), ("small.txt".into(), b"one".to_vec())]);
    std::fs::write(dir.path().join("outer.res"), res(vec![("inner.res".into(), inner)])).unwrap();
    let server = serve(dir.path(), ViewOptions { cache_bytes: 4 << 20, ..ViewOptions::default() }).unwrap();
    let a = server.addr();
    let target = "/api/info?path=outer.res/inner.res";
    let answers: Vec<serde_json::Value> = std::thread::scope(|s| {
        let asks: Vec<_> = (0..4).map(|_| s.spawn(|| ok(a, target).json())).collect();
        asks.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(answers.iter().all(|v| *v == answers[0]), "{answers:?}");
    assert_eq!(answers[0]["format"]["id"], "ei-res", "{}", answers[0]);
    assert!(answers[0]["info"].is_object(), "{}", answers[0]);
    let first = server.stats();
    assert_eq!((first.infos_made, first.entries_read), (1, 1), "{first:?}");
    for _ in 0..4 {
        assert_eq!(ok(a, target).json(), answers[0]);
    }
    assert_eq!(server.stats(), first, "asked again, nothing is computed or read");
}

/// Issue #23: the listing of an archive inside an archive is work on a file, done by a heavy worker: with
/// the only worker busy (a client that does not read a large download), the app and the folders' tree are
/// answered by the request thread, and the nested listing waits for the worker instead of holding it.
#[test]
fn a_nested_listing_runs_on_the_workers() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big.bin"), vec![7u8; 32 << 20]).unwrap();
    let inner = res((0..1000).map(|i| (format!("t{i:04}.txt"), b"text".to_vec())).collect());
    std::fs::write(dir.path().join("outer.res"), res(vec![("inner.res".into(), inner)])).unwrap();
    let options = ViewOptions { threads: 1, heavy_jobs: 1, ..ViewOptions::default() };
    let server = serve(dir.path(), options).unwrap();
    let a = server.addr();
    let send = |target: &str| {
        let mut s = TcpStream::connect(a).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let head = format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n", a.port());
        s.write_all(head.as_bytes()).unwrap();
        s
    };
    // The worker is sending the download (its head came) and stays on it while the client does not read.
    let mut stuck = send("/api/file?path=big.bin&as=raw");
    let mut head = [0u8; 12];
    stuck.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 200");
    let mut nested = send("/api/tree?path=outer.res/inner.res");
    assert_eq!(ok(a, "/").status, 200);
    assert_eq!(names(&ok(a, "/api/tree").json()["children"]), ["outer.res"]);
    nested.set_read_timeout(Some(Duration::from_millis(200))).unwrap();
    let mut byte = [0u8; 1];
    let waiting = nested.peek(&mut byte);
    assert!(waiting.is_err(), "the nested listing was answered while the only worker was busy");
    drop(stuck);
    nested.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut bytes = Vec::new();
    nested.read_to_end(&mut bytes).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.starts_with("HTTP/1.1 200"), "{}", &text[..text.len().min(300)]);
    let body = &text[text.find("\r\n\r\n").unwrap() + 4..];
    let value: serde_json::Value = serde_json::from_str(body).unwrap();
    assert_eq!(value["children"].as_array().unwrap().len(), 1000);
}

/// Issue #23: a file truncated while it is converted (its map faults past the cut: a SIGBUS that ended the
/// server) gives an answer, the file's JSON or an error saying it was cut short, and the server goes on,
/// answering for the file as it is now.
#[test]
fn a_file_truncated_while_it_is_converted_does_not_end_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.res");
    let server = serve(dir.path(), ViewOptions::default()).unwrap();
    let a = server.addr();
    let faults = relic::source::truncation_faults();
    for (round, delay) in [0u64, 5, 20, 50].into_iter().enumerate() {
        let bytes = res((0..48).map(|i| (format!("e{i:02}.bin"), vec![round as u8 + i; 1 << 20])).collect());
        std::fs::write(&path, &bytes).unwrap();
        let target = format!("/api/file?path=a.res&as=json&round={round}");
        let answer = std::thread::scope(|s| {
            let asked = s.spawn(|| get(a, &target));
            std::thread::sleep(Duration::from_millis(delay));
            std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(4096).unwrap();
            asked.join().unwrap()
        });
        assert!(answer.status == 200 || answer.status == 422, "{}: {}", answer.status, answer.text());
        if answer.status == 422 {
            assert!(answer.json()["error"].is_string(), "{}", answer.text());
        }
        assert_eq!(ok(a, "/").status, 200);
        // The file as it is now: 4096 bytes of a RES whose table is past its end.
        let info = ok(a, "/api/info?path=a.res").json();
        assert_eq!(info["size"], 4096, "{info}");
    }
    eprintln!("faults served while converting: {}", relic::source::truncation_faults() - faults);
}

/// A 4×4 24-bit BMP of one colour (`rgb`).
fn solid_bmp(rgb: [u8; 3]) -> Vec<u8> {
    let row: Vec<u8> = std::iter::repeat([rgb[2], rgb[1], rgb[0]]).take(4).flatten().collect();
    let mut b = b"BM".to_vec();
    b.extend_from_slice(&(54u32 + 48).to_le_bytes());
    b.extend_from_slice(&[0; 4]);
    b.extend_from_slice(&54u32.to_le_bytes());
    b.extend_from_slice(&40u32.to_le_bytes());
    b.extend_from_slice(&4i32.to_le_bytes());
    b.extend_from_slice(&4i32.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&24u16.to_le_bytes());
    b.extend_from_slice(&[0; 24]);
    for _ in 0..4 {
        b.extend_from_slice(&row);
    }
    b
}

/// A 2×2 32-bit TGA (uncompressed, top row first).
fn tga() -> Vec<u8> {
    let mut b = vec![0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    b.extend_from_slice(&2u16.to_le_bytes());
    b.extend_from_slice(&2u16.to_le_bytes());
    b.extend_from_slice(&[32, 0x28]);
    b.extend_from_slice(&[0, 0, 255, 255, 0, 255, 0, 128, 255, 0, 255, 255, 255, 0, 0, 0]);
    b
}

fn grf_with(files: &[(&str, Vec<u8>)]) -> Vec<u8> {
    use relic::ragnarok::grf;
    let inputs = files
        .iter()
        .map(|(name, bytes)| grf::PackInput {
            name: grf::write::encode_name(name).unwrap(),
            source: grf::PackSource::Bytes(bytes.clone()),
        })
        .collect();
    grf::write_archive_bytes(inputs, 0x200).unwrap()
}

/// How many images the GLB's glTF holds.
fn glb_images(glb: &[u8]) -> usize {
    assert_eq!(&glb[..4], b"glTF");
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&glb[20..20 + len]).unwrap();
    json["images"].as_array().map_or(0, Vec::len)
}

/// The `warnings` of a preview (none: empty).
fn warnings(preview: &serde_json::Value) -> Vec<String> {
    preview["warnings"].as_array().map_or_else(Vec::new, |w| w.iter().map(|s| s.as_str().unwrap().into()).collect())
}

/// Issue 24: a model finds its textures as `relic convert` finds them (in the GRF it is in, in the
/// `data\texture\` of the client folder it is in), and says which it did not find; BMP and TGA items
/// preview as images.
#[test]
fn models_find_their_textures_as_convert_does_and_warn_of_the_missing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let model = std::fs::read(Path::new(SAMPLES).join("ragnarok/pyramid.rsm")).unwrap(); // uses stone.bmp
    let stone = solid_bmp([255, 140, 0]);
    // Names in another case than the model's, as client data has them: looked up ignoring ASCII case.
    let textured =
        grf_with(&[("data\\model\\pyramid.rsm", model.clone()), ("data\\Texture\\STONE.bmp", stone.clone())]);
    std::fs::write(root.join("textured.grf"), textured).unwrap();
    std::fs::write(root.join("bare.grf"), grf_with(&[("data\\model\\pyramid.rsm", model.clone())])).unwrap();
    std::fs::create_dir_all(root.join("client/data/model")).unwrap();
    std::fs::create_dir_all(root.join("client/data/texture")).unwrap();
    std::fs::write(root.join("client/data/model/pyramid.rsm"), &model).unwrap();
    std::fs::write(root.join("client/data/texture/stone.bmp"), &stone).unwrap();
    // In a folder of its own: beside the GRFs it would find them (issue 39).
    std::fs::create_dir_all(root.join("alone")).unwrap();
    std::fs::write(root.join("alone/alone.rsm"), &model).unwrap();
    std::fs::write(root.join("texture.tga"), tga()).unwrap();
    std::fs::write(
        root.join("images.grf"),
        grf_with(&[("data\\texture\\a.tga", tga()), ("data\\texture\\b.bmp", stone)]),
    )
    .unwrap();
    let server = serve(root, ViewOptions::default()).unwrap();
    let a = server.addr();

    for path in ["textured.grf/data/model/pyramid.rsm", "client/data/model/pyramid.rsm"] {
        let preview = ok(a, &format!("/api/preview?path={path}")).json();
        assert_eq!(preview["kind"], "model", "{path}: {preview}");
        assert_eq!(warnings(&preview), Vec::<String>::new(), "{path}");
        let glb = ok(a, preview["assets"][0]["url"].as_str().unwrap()).body;
        assert_eq!(glb_images(&glb), 1, "{path}: the texture is in the GLB");
    }
    for (path, looked_in) in [("bare.grf/data/model/pyramid.rsm", "the GRF"), ("alone/alone.rsm", "nowhere")] {
        let preview = ok(a, &format!("/api/preview?path={path}")).json();
        assert_eq!(preview["kind"], "model", "{path}: {preview}");
        let warned = warnings(&preview);
        assert_eq!(warned.len(), 1, "{path}: {warned:?}");
        assert!(warned[0].contains("texture 'data\\texture\\stone.bmp' not found"), "{path}: {warned:?}");
        assert!(warned[0].contains(looked_in), "{path}: {warned:?}");
        let glb = ok(a, preview["assets"][0]["url"].as_str().unwrap()).body;
        assert_eq!(glb_images(&glb), 0, "{path}: drawn untextured");
    }

    // BMP and TGA, as files and as GRF entries: images (a TGA was a hex dump), their PNG of the right size.
    for (path, size) in
        [("texture.tga", (2, 2)), ("images.grf/data/texture/a.tga", (2, 2)), ("images.grf/data/texture/b.bmp", (4, 4))]
    {
        let preview = ok(a, &format!("/api/preview?path={path}")).json();
        assert_eq!(
            (preview["kind"].as_str(), preview["format"]["id"].as_str()),
            (Some("image"), Some("ro-texture")),
            "{path}"
        );
        let png = ok(a, preview["assets"][0]["frames"][0]["url"].as_str().unwrap()).body;
        assert_eq!(png_size(&png), size, "{path}");
    }
}

/// The RGBA pixels and size of a PNG.
fn png_rgba(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut reader = png::Decoder::new(bytes).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Rgba, png::BitDepth::Eight));
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// Issue 26: an ACT beside its SPR previews as its actions (`<group>_<direction>`, each with its motions'
/// frame URLs and its frame rate, 1000 / (25 ms × delay)), lists the other ACTs of its folder as heads,
/// and with `with=HEAD` is drawn with that head over it through the anchors. The body is the samples'
/// `sample.act` with `sprite.spr` as `sample.spr`; the head the same ACT with its anchors 3 pixels lower,
/// written by relic's ACT writer, so that it is drawn 3 pixels above the body.
#[test]
fn a_ragnarok_act_previews_as_actions_and_with_a_head() {
    use relic::ragnarok::act::Act;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let act = std::fs::read(Path::new(SAMPLES).join("ragnarok/sample.act")).unwrap();
    let spr = std::fs::read(Path::new(SAMPLES).join("ragnarok/sprite.spr")).unwrap();
    std::fs::write(root.join("body.act"), &act).unwrap();
    std::fs::write(root.join("body.spr"), &spr).unwrap();
    let mut head = Act::read(&act).unwrap();
    for anchor in head.actions.iter_mut().flat_map(|a| &mut a.motions).flat_map(|m| &mut m.anchors) {
        anchor.y += 3;
    }
    std::fs::write(root.join("head.act"), head.to_bytes().unwrap()).unwrap();
    std::fs::write(root.join("head.spr"), &spr).unwrap();
    let server = serve(root, ViewOptions::default()).unwrap();
    let a = server.addr();

    let p = ok(a, "/api/preview?path=body.act").json();
    assert_eq!(p["kind"], "image");
    assert_eq!(p["format"]["id"], "ro-act");
    // A flat folder: the other ACTs with a sprite, not known to be heads.
    assert_eq!(p["heads"], serde_json::json!([{"name": "head.act", "path": "head.act", "role": "act"}]));
    assert_eq!(p["heads_total"], 1);
    assert!(p["heads_note"].as_str().unwrap().contains("not known"), "{}", p["heads_note"]);
    assert!(p.get("act_role").is_none());
    let assets = p["assets"].as_array().unwrap();
    let names: Vec<&str> = assets.iter().map(|v| v["name"].as_str().unwrap()).collect();
    let mut want = vec!["body"];
    let actions: Vec<String> = (0..16).map(|i| format!("{}_{}", i / 8, i % 8)).collect();
    want.extend(actions.iter().map(String::as_str));
    assert_eq!(names, want);
    // Action 0 (delay 4) one motion; action 1_3 (delay 3) three, at 1000 / 75 frames per second.
    assert_eq!(assets[1]["frames"].as_array().unwrap().len(), 1);
    assert!(assets[1]["frame_rate"].is_null());
    let walk = &assets[12];
    assert_eq!(walk["name"], "1_3");
    assert_eq!(walk["frames"].as_array().unwrap().len(), 3);
    assert!((walk["frame_rate"].as_f64().unwrap() - 1000.0 / 75.0).abs() < 1e-4);
    assert_eq!(walk["frames"][1]["url"], "/api/file?path=body.act&as=png&asset=12&frame=1");
    let (w, h, px) = png_rgba(&ok(a, "/api/file?path=body.act&as=png&asset=1&frame=0").body);
    assert_eq!((w, h), (6, 4));
    let green = [1, 254, 0, 255];
    let pixel = |px: &[u8], w: u32, x: u32, y: u32| px[((y * w + x) * 4) as usize..][..4].to_vec();
    assert_eq!(pixel(&px, w, 2, 0), green);
    let opaque = |px: &[u8]| px.chunks(4).filter(|p| p[3] > 0).count();
    assert_eq!(opaque(&px), 12);
    let (w, h, px) = png_rgba(&ok(a, "/api/file?path=body.act&as=png&asset=12&frame=1").body);
    assert_eq!((w, h), (8, 10));
    assert_eq!(pixel(&px, w, 3, 6), [2, 253, 1, 255]);

    // With the head: the same actions, every file URL asking for the head too.
    let p = ok(a, "/api/preview?path=body.act&with=head.act").json();
    assert_eq!(p["assets"][1]["frames"][0]["url"], "/api/file?path=body.act&as=png&asset=1&frame=0&with=head.act");
    let (w, h, px) = png_rgba(&ok(a, "/api/file?path=body.act&as=png&asset=1&frame=0&with=head.act").body);
    // The head 3 pixels above the body: 6×7, their 12 pixels each, 2 of them on the same row 3.
    assert_eq!((w, h), (6, 7));
    assert_eq!(opaque(&px), 22);
    assert_eq!(pixel(&px, w, 2, 0), green);
    assert_eq!(pixel(&px, w, 2, 6), green);
    // What the user downloads is what they see: every download of the item carries the head too.
    let downloads = p["downloads"].as_array().unwrap();
    assert!(downloads.len() > 16, "{downloads:?}");
    for d in downloads {
        assert!(d["url"].as_str().unwrap().ends_with("&with=head.act"), "{d}");
    }
    let (w, h, _) = png_rgba(&ok(a, downloads[1]["url"].as_str().unwrap()).body);
    assert_eq!((w, h), (6, 7), "{}", downloads[1]);
    // The body alone is still as it was (cached apart).
    let (w, h, _) = png_rgba(&ok(a, "/api/file?path=body.act&as=png&asset=1&frame=0").body);
    assert_eq!((w, h), (6, 4));

    refused(a, "/api/preview?path=body.act&with=nothere.act", 404);
    refused(a, "/api/preview?path=body.spr&with=head.act", 400);
    refused(a, "/api/preview?path=body.act&with=../x.act", 400);
    std::fs::remove_file(root.join("head.spr")).unwrap();
    refused(a, "/api/preview?path=body.act&with=head.act", 404);
}

/// Percent-encodes a query value (every byte but ASCII letters, digits and `-._~/`).
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Issue 26, the client's layout: a body in `data/sprite/인간족/몸통/남/` is offered the heads of
/// `data/sprite/인간족/머리통/남/` first (by number), labelled heads, then the other bodies of its folder;
/// ACTs without their sprite, and the other sex's heads, are not offered; a head is offered none. The
/// same in a GRF (names stored in CP949), and in a folder named with the CP949 bytes read as Latin-1 (as
/// clients extracted by tools unaware of CP949 are named). The list stops at 200 and says so.
#[test]
fn a_body_in_the_client_layout_is_offered_the_heads_of_its_sex() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let act = std::fs::read(Path::new(SAMPLES).join("ragnarok/sample.act")).unwrap();
    let spr = std::fs::read(Path::new(SAMPLES).join("ragnarok/sprite.spr")).unwrap();
    let body = "data/sprite/인간족/몸통/남";
    let heads = "data/sprite/인간족/머리통/남";
    let mut files: Vec<(String, &[u8])> = Vec::new();
    for stem in [format!("{body}/초보자_남"), format!("{body}/검사_남")] {
        files.push((format!("{stem}.act"), &act));
        files.push((format!("{stem}.spr"), &spr));
    }
    files.push((format!("{body}/lonely_남.act"), &act));
    for n in [10, 2, 1] {
        files.push((format!("{heads}/{n}_남.act"), &act));
        files.push((format!("{heads}/{n}_남.Spr"), &spr));
    }
    files.push(("data/sprite/인간족/머리통/여/1_여.act".into(), &act));
    files.push(("data/sprite/인간족/머리통/여/1_여.spr".into(), &spr));
    for (name, bytes) in &files {
        let path = root.join("client").join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    let stored: Vec<(String, Vec<u8>)> = files.iter().map(|(n, b)| (n.replace('/', "\\"), b.to_vec())).collect();
    let stored: Vec<(&str, Vec<u8>)> = stored.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    std::fs::write(root.join("sprites.grf"), grf_with(&stored)).unwrap();
    // The Latin-1 reading of the same CP949 names: ÀÎ°£Á· / ¸öÅë / ³² and ¸Ó¸®Åë.
    let latin1 = |s: &str| -> String {
        let (bytes, _, _) = encoding_rs::EUC_KR.encode(s);
        bytes.iter().map(|&b| b as char).collect()
    };
    for name in [format!("{body}/초보자_남"), format!("{heads}/1_남")] {
        let path = root.join("moji").join(latin1(&name));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path.with_extension("act"), &act).unwrap();
        std::fs::write(path.with_extension("spr"), &spr).unwrap();
    }
    let server = serve(root, ViewOptions::default()).unwrap();
    let a = server.addr();

    for top in ["client", "sprites.grf"] {
        let p = ok(a, &format!("/api/preview?path={}", enc(&format!("{top}/{body}/초보자_남.act")))).json();
        assert_eq!(p["act_role"], "body", "{top}");
        let offered: Vec<(String, String)> = p["heads"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| (h["name"].as_str().unwrap().to_string(), h["role"].as_str().unwrap().to_string()))
            .collect();
        let want: Vec<(String, String)> =
            [("1_남.act", "head"), ("2_남.act", "head"), ("10_남.act", "head"), ("검사_남.act", "body")]
                .iter()
                .map(|(n, r)| (n.to_string(), r.to_string()))
                .collect();
        assert_eq!(offered, want, "{top}");
        assert_eq!(p["heads"][0]["path"], format!("{top}/{heads}/1_남.act"));
        assert_eq!(p["heads_total"], 4);
        assert!(p["heads_note"].as_str().unwrap().contains("머리통/남"), "{}", p["heads_note"]);
        // Picked, the head reaches every download of the item.
        let with = enc(&format!("{top}/{heads}/1_남.act"));
        let q = ok(a, &format!("/api/preview?path={}&with={with}", enc(&format!("{top}/{body}/초보자_남.act")))).json();
        for d in q["downloads"].as_array().unwrap() {
            assert!(d["url"].as_str().unwrap().ends_with(&format!("&with={with}")), "{d}");
        }
        // A head is offered none.
        let h = ok(a, &format!("/api/preview?path={}", enc(&format!("{top}/{heads}/2_남.act")))).json();
        assert_eq!(
            (&h["act_role"], &h["heads"], &h["heads_total"]),
            (&serde_json::json!("head"), &serde_json::json!([]), &serde_json::json!(0))
        );
    }
    let p = ok(a, &format!("/api/preview?path={}", enc(&format!("moji/{}.act", latin1(&format!("{body}/초보자_남"))))))
        .json();
    assert_eq!(p["act_role"], "body");
    assert_eq!(p["heads"][0]["path"], format!("moji/{}.act", latin1(&format!("{heads}/1_남"))));
    assert_eq!(p["heads"][0]["role"], "head");

    // A head folder of 207 heads: the first 200, by number, and the note says how many there are.
    for n in 3..208 {
        let stem = root.join("client").join(format!("{heads}/{n}_남"));
        std::fs::write(stem.with_extension("act"), &act).unwrap();
        std::fs::write(stem.with_extension("spr"), &spr).unwrap();
    }
    let p = ok(a, &format!("/api/preview?path={}", enc(&format!("client/{body}/초보자_남.act")))).json();
    let offered = p["heads"].as_array().unwrap();
    assert_eq!((offered.len(), &p["heads_total"]), (200, &serde_json::json!(208)));
    assert_eq!((offered[0]["name"].as_str(), offered[199]["name"].as_str()), (Some("1_남.act"), Some("200_남.act")));
    assert!(p["heads_note"].as_str().unwrap().ends_with("the first 200 of 208"), "{}", p["heads_note"]);
}

/// Issue 26: the head's direction in idle (`head_direction=0|1|2|all`, as `--option
/// ro-act.head-direction`). The body is the samples' `sample.act` whose idle south (action 0) holds three
/// copies of its motion, the anchor moved 0, 1 and 2 pixels right; the head the same ACT, anchors 3
/// pixels lower and not moved. Straight (the default) the head is drawn as before (6×7); turned, with
/// body frame 1 or 2, one or two pixels further right (7×7, 8×7); `all` the three in turn on one canvas.
#[test]
fn the_head_direction_of_idle_is_picked_with_head_direction() {
    use relic::ragnarok::act::Act;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let act = Act::read(&std::fs::read(Path::new(SAMPLES).join("ragnarok/sample.act")).unwrap()).unwrap();
    let spr = std::fs::read(Path::new(SAMPLES).join("ragnarok/sprite.spr")).unwrap();
    let turned = |act: &Act, step: i32, down: i32| {
        let mut act = act.clone();
        let first = act.actions[0].motions[0].clone();
        act.actions[0].motions = (0..3)
            .map(|k| {
                let mut m = first.clone();
                for anchor in &mut m.anchors {
                    anchor.x += k * step;
                    anchor.y += down;
                }
                m
            })
            .collect();
        act.to_bytes().unwrap()
    };
    std::fs::write(root.join("body.act"), turned(&act, 1, 0)).unwrap();
    std::fs::write(root.join("head.act"), turned(&act, 0, 3)).unwrap();
    std::fs::write(root.join("body.spr"), &spr).unwrap();
    std::fs::write(root.join("head.spr"), &spr).unwrap();
    let server = serve(root, ViewOptions::default()).unwrap();
    let a = server.addr();
    let idle = |query: &str| {
        let p = ok(a, &format!("/api/preview?path=body.act&with=head.act{query}")).json();
        let frames = p["assets"][1]["frames"].as_array().unwrap().clone();
        let sizes: Vec<(u32, u32)> =
            frames.iter().map(|f| png_rgba(&ok(a, f["url"].as_str().unwrap()).body)).map(|(w, h, _)| (w, h)).collect();
        (sizes, frames[0]["url"].as_str().unwrap().to_string(), p["downloads"][1]["url"].as_str().unwrap().to_string())
    };
    let (sizes, url, download) = idle("");
    assert_eq!(sizes, vec![(6, 7)]);
    assert!(!url.contains("head_direction") && !download.contains("head_direction"), "{url}");
    assert_eq!(idle("&head_direction=0").0, vec![(6, 7)]);
    let (sizes, url, download) = idle("&head_direction=1");
    assert_eq!(sizes, vec![(7, 7)]);
    assert!(
        url.ends_with("&with=head.act&head_direction=1") && download.ends_with("&head_direction=1"),
        "{url} {download}"
    );
    assert_eq!(idle("&head_direction=2").0, vec![(8, 7)]);
    assert_eq!(idle("&head_direction=all").0, vec![(8, 7); 3]);
    refused(a, "/api/preview?path=body.act&with=head.act&head_direction=3", 400);
    refused(a, "/api/preview?path=body.act&head_direction=1", 400);
}

/// `relic view --static DIR`: the folder's files as they are, with the types a browser needs (WebAssembly
/// as `application/wasm`) and a policy that lets the page run WebAssembly and connect nowhere else; nothing
/// outside the folder, links included, and the same `Host` rule as the viewer.
#[test]
fn a_static_site_is_served_as_it_is_and_nothing_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    std::fs::create_dir_all(site.join("pkg")).unwrap();
    std::fs::write(site.join("index.html"), "<!doctype html><p>relic</p>").unwrap();
    std::fs::write(site.join("app.js"), "console.log(1)").unwrap();
    std::fs::write(site.join("pkg/relic_wasm_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    std::fs::write(dir.path().join("secret.txt"), SECRET).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("../secret.txt", site.join("escape.txt")).unwrap();
    let server = relic::view::serve_static(&site, ViewOptions::default()).unwrap();
    let a = server.addr();
    let index = ok(a, "/");
    assert_eq!(index.body, b"<!doctype html><p>relic</p>");
    assert_eq!(index.header("content-type"), "text/html; charset=utf-8");
    let policy = index.header("content-security-policy");
    assert!(policy.contains("script-src 'self' 'wasm-unsafe-eval'"), "{policy}");
    assert!(policy.contains("connect-src 'self' blob: data:"), "{policy}");
    assert_eq!(ok(a, "/index.html").body, index.body);
    assert_eq!(ok(a, "/app.js").header("content-type"), "text/javascript; charset=utf-8");
    let wasm = ok(a, "/pkg/relic_wasm_bg.wasm");
    assert_eq!((wasm.header("content-type"), wasm.body.as_slice()), ("application/wasm", &b"\0asm\x01\0\0\0"[..]));
    for target in ["/../secret.txt", "/%2e%2e/secret.txt", "/escape.txt", "/pkg/../../secret.txt", "/nothing.js"] {
        let r = get(a, target);
        assert!(matches!(r.status, 400 | 404), "{target}: {}", r.status);
        assert!(!r.text().contains(SECRET), "{target}");
    }
    // The viewer's API is not there: only the folder's files are.
    assert_eq!(get(a, "/api/tree?path=").status, 404);
    assert_eq!(request(a, "GET", "/", "rebound.example:80").status, 403);
    // A folder without a page is refused, naming the build command.
    let refused = relic::view::serve_static(&site.join("pkg"), ViewOptions::default()).err().unwrap().to_string();
    assert!(refused.contains("build:web"), "{refused}");
}

/// Issue 39: the body and the head each take their own palette (`palette=`, `head_palette=`, as `relic
/// convert --palette` and `--head-palette`): a hair dye dyes the head only. In the client's layout an ACT
/// is offered its dyes (`data/palette/몸/<body>_<n>.pal`; with a head, `data/palette/머리/머리<head>_<n>.pal`),
/// and the `.pal` files of its folder. The sprites are the samples' `sprite.spr` (index 1 green,
/// (1, 254, 0)); the head the samples' ACT with its anchors 3 pixels lower: in action 0, 6×7, the head's
/// index 1 at (2, 0), the body's at (2, 6).
#[test]
fn the_body_and_the_head_are_drawn_in_palettes_of_their_own() {
    use relic::ragnarok::act::Act;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("data");
    let act = std::fs::read(Path::new(SAMPLES).join("ragnarok/sample.act")).unwrap();
    let spr = std::fs::read(Path::new(SAMPLES).join("ragnarok/sprite.spr")).unwrap();
    let mut head = Act::read(&act).unwrap();
    for anchor in head.actions.iter_mut().flat_map(|a| &mut a.motions).flat_map(|m| &mut m.anchors) {
        anchor.y += 3;
    }
    let dye = |c: [u8; 3]| {
        let mut pal = vec![0u8; 1024];
        pal[4..7].copy_from_slice(&c);
        pal
    };
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("sprite/인간족/몸통/남/초보자_남.act", act.clone()),
        ("sprite/인간족/몸통/남/초보자_남.spr", spr.clone()),
        ("sprite/인간족/머리통/남/1_남.act", head.to_bytes().unwrap()),
        ("sprite/인간족/머리통/남/1_남.spr", spr.clone()),
        ("palette/몸/초보자_남_10.pal", dye([12, 22, 32])),
        ("palette/몸/초보자_남_2.pal", dye([10, 20, 30])),
        ("palette/몸/검사_남_1.pal", dye([9, 9, 9])),
        ("palette/머리/머리1_남_3.pal", dye([200, 100, 50])),
        ("palette/머리/머리2_남_1.pal", dye([8, 8, 8])),
    ];
    for (name, bytes) in &files {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    let server = serve(dir.path(), ViewOptions::default()).unwrap();
    let a = server.addr();
    let body = enc("data/sprite/인간족/몸통/남/초보자_남.act");
    let with = enc("data/sprite/인간족/머리통/남/1_남.act");
    let (body_dye, hair_dye) = (enc("data/palette/몸/초보자_남_2.pal"), enc("data/palette/머리/머리1_남_3.pal"));

    // Offered: the body's own dyes, by number; with the head, the head's.
    let p = ok(a, &format!("/api/preview?path={body}")).json();
    let names = |v: &serde_json::Value| -> Vec<String> {
        v.as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(names(&p["palettes"]), ["초보자_남_2.pal", "초보자_남_10.pal"]);
    assert_eq!(p["palettes"][0]["path"], "data/palette/몸/초보자_남_2.pal");
    assert_eq!(p["palettes"][0]["role"], "dye");
    assert_eq!(p["palettes_total"], 2);
    assert!(p.get("head_palettes").is_none());
    let p = ok(a, &format!("/api/preview?path={body}&with={with}")).json();
    assert_eq!(names(&p["head_palettes"]), ["머리1_남_3.pal"]);

    let pixel = |url: &str, x: u32, y: u32| {
        let (w, h, px) = png_rgba(&ok(a, url).body);
        assert_eq!((w, h), (6, 7), "{url}");
        px[((y * w + x) * 4) as usize..][..4].to_vec()
    };
    let file = format!("/api/file?path={body}&as=png&asset=1&frame=0&with={with}");
    let green = vec![1, 254, 0, 255];
    assert_eq!((pixel(&file, 2, 0), pixel(&file, 2, 6)), (green.clone(), green.clone()));
    // The body's dye dyes the body only.
    let dyed = format!("{file}&palette={body_dye}");
    assert_eq!((pixel(&dyed, 2, 0), pixel(&dyed, 2, 6)), (green.clone(), vec![10, 20, 30, 255]));
    // The hair dye the head only; both together.
    let hair = format!("{file}&head_palette={hair_dye}");
    assert_eq!((pixel(&hair, 2, 0), pixel(&hair, 2, 6)), (vec![200, 100, 50, 255], green.clone()));
    let both = format!("{dyed}&head_palette={hair_dye}");
    assert_eq!((pixel(&both, 2, 0), pixel(&both, 2, 6)), (vec![200, 100, 50, 255], vec![10, 20, 30, 255]));
    // The URLs of a preview so drawn ask for the same palettes, downloads too.
    let p = ok(a, &format!("/api/preview?path={body}&with={with}&palette={body_dye}&head_palette={hair_dye}")).json();
    let tail = format!("&with={with}&palette={body_dye}&head_palette={hair_dye}");
    assert_eq!(p["assets"][1]["frames"][0]["url"], format!("/api/file?path={body}&as=png&asset=1&frame=0{tail}"));
    for d in p["downloads"].as_array().unwrap() {
        assert!(d["url"].as_str().unwrap().ends_with(&tail), "{d}");
    }
    // The body alone is still drawn in its own palette (cached apart).
    assert_eq!(pixel(&file, 2, 6), green);

    // A head palette without a head, a file that is no palette, a path outside: refused.
    refused(a, &format!("/api/preview?path={body}&head_palette={hair_dye}"), 400);
    refused(a, &format!("/api/preview?path={body}&palette={with}"), 400);
    refused(a, &format!("/api/preview?path={body}&palette=../x.pal"), 400);
    refused(a, &format!("/api/preview?path={body}&palette=nothere.pal"), 404);
}
