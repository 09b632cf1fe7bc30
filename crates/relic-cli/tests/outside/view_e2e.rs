//! `relic view` as a user runs it: the URL comes first on stdout, a host that is not loopback is a usage
//! error, and the app works in a real browser: `tools/view-e2e/run.mjs` drives headless Chromium (Debian's
//! `chromium`, through `playwright-core`) over `relic view samples`, clicking through an archive, textures,
//! sprites, sounds, models and documents and checking what is drawn. It saves a screenshot of each step
//! under `target/tmp/view-e2e/`; with `RELIC_VIEW_SCREENSHOT=1` it also writes `docs/view.png` (the
//! README's). `tools/view-e2e/textured.mjs` checks Ragnarok models are drawn with their textures (issue 24).
//! Where node, the npm package or chromium is missing the browser tests say so and skip;
//! `.ci/run` installs all three, and under CI (`CI` set) a missing one is a failure.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use assert_cmd::Command as AssertCommand;

use crate::browser;
use crate::common::repo;

/// A `relic view` that is stopped when the test ends, however it ends.
struct Viewer {
    child: Child,
    url: String,
}

impl Viewer {
    fn start(path: &Path) -> Viewer {
        Viewer::start_with(path, &[])
    }

    /// `relic view` with more flags (`--textures DIR`) before the path.
    fn start_with(path: &Path, flags: &[&std::ffi::OsStr]) -> Viewer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_relic"))
            .args(["view", "--port", "0"])
            .args(flags)
            .arg(path)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("relic starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        let url = first.trim().to_string();
        assert!(url.starts_with("http://127.0.0.1:") && url.ends_with('/'), "first line {first:?}");
        Viewer { child, url }
    }

    fn port(&self) -> u16 {
        self.url.trim_end_matches('/').rsplit(':').next().unwrap().parse().unwrap()
    }
}

impl Drop for Viewer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn view_prints_its_url_first_and_serves_until_stopped() {
    let viewer = Viewer::start(&repo().join("samples/evil_islands/example_dxt1.mmp"));
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", viewer.port())).unwrap();
    let port = viewer.port();
    write!(stream, "GET /api/preview?path= HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"kind\":\"image\""), "{answer}");
}

#[test]
fn view_refuses_a_host_that_is_not_loopback() {
    for host in ["0.0.0.0", "192.0.2.1", "example.com"] {
        let out = AssertCommand::cargo_bin("relic")
            .unwrap()
            .args(["view", "--host", host])
            .arg(repo().join("samples"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--host {host}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--unsafe-host") || err.contains("not an IP address"), "{err}");
        assert!(out.stdout.is_empty(), "nothing served, no URL printed");
    }
    let out = AssertCommand::cargo_bin("relic").unwrap().args(["view", "no/such/folder"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// `GET target` of a viewer: the status and the body (`Connection: close`, so read to the end).
fn http_get(viewer: &Viewer, target: &str) -> (u16, Vec<u8>) {
    let port = viewer.port();
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(stream, "GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n").unwrap();
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).unwrap();
    let split = reply.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&reply[..split]).to_ascii_lowercase();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    assert!(!head.contains("transfer-encoding: chunked"), "{head}");
    (status, reply[split + 4..].to_vec())
}

/// Issue 39 as a user meets it: `relic view --textures GRF FOLDER` draws a model with the textures
/// `relic convert --textures GRF` gives it (the GLB served is the file convert writes), with no warning;
/// without the flag the page warns and says to give --textures, which `view` now takes; a flag naming
/// nothing is refused at once (exit 1, the path named, no URL printed); `--static` takes none of them.
#[test]
fn view_takes_converts_textures_flag() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("models");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::copy(repo().join("samples/ragnarok/pyramid.rsm"), root.join("pyramid.rsm")).unwrap();
    let textures = dir.path().join("textures/data/texture");
    std::fs::create_dir_all(&textures).unwrap();
    std::fs::write(textures.join("Stone.BMP"), solid_bmp([255, 140, 0])).unwrap();
    let textures = dir.path().join("textures");
    let preview = |viewer: &Viewer| {
        let (status, body) = http_get(viewer, "/api/preview?path=pyramid.rsm");
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        let (status, glb) = http_get(viewer, v["assets"][0]["url"].as_str().unwrap());
        assert_eq!(status, 200);
        (v, glb)
    };
    let (plain, _) = preview(&Viewer::start(&root));
    let warned = plain["warnings"].to_string();
    assert!(warned.contains("stone.bmp' not found") && warned.contains("give --textures"), "{warned}");

    let viewer = Viewer::start_with(&root, &["--textures".as_ref(), textures.as_os_str()]);
    let (v, glb) = preview(&viewer);
    assert!(v.get("warnings").is_none(), "{v}");
    let out = dir.path().join("out");
    relic(&[
        "convert".as_ref(),
        "-q".as_ref(),
        "--textures".as_ref(),
        textures.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        root.join("pyramid.rsm").as_os_str(),
    ]);
    assert_eq!(glb, std::fs::read(out.join("pyramid.rsm.glb")).unwrap(), "the viewer serves what convert writes");
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    assert_eq!(doc["images"].as_array().map(Vec::len), Some(1), "the texture is embedded");

    let missing = dir.path().join("no-such.grf");
    let out = AssertCommand::cargo_bin("relic")
        .unwrap()
        .args(["view", "--textures"])
        .arg(&missing)
        .arg(&root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such.grf"), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty(), "nothing served, no URL printed");
    let out = AssertCommand::cargo_bin("relic")
        .unwrap()
        .args(["view", "--static"])
        .arg(&root)
        .arg("--palette")
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let help = AssertCommand::cargo_bin("relic").unwrap().args(["view", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for flag in ["--textures <DIR_OR_ARCHIVE>", "--models <DIR_OR_ARCHIVE>", "--palette <FILE>"] {
        assert!(help.contains(flag), "view --help lists {flag}: {help}");
    }
}

/// Says what a test leaves out where `cargo test` shows it: written to the process's stderr, which the
/// test harness does not capture (it captures `eprintln!`, shown only when a test fails).
fn skip(why: &str) {
    let _ = writeln!(std::io::stderr(), "{why}");
}

/// Runs a browser script of `tools/view-e2e` against a viewer (`node SCRIPT URL OUT_DIR ARGS…`), its
/// screenshots in `target/tmp/NAME/`, and fails with its output unless it passed every check; with node,
/// the npm package or chromium missing it says why and skips (under CI it fails instead).
fn run_browser(script: &str, name: &str, viewer: &Viewer, args: &[PathBuf]) -> Option<PathBuf> {
    if let Some(why) = browser::tools_missing(&repo()) {
        crate::common::skip(&format!("the browser test {script} of relic view"), &why);
        return None;
    }
    let out = crate::common::scratch(name);
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    browser::run_script(&repo().join("tools/view-e2e").join(script), &viewer.url, &out, &args);
    Some(out)
}

#[test]
fn view_works_in_headless_chromium() {
    let viewer = Viewer::start(&repo().join("samples"));
    let mut args = Vec::new();
    if std::env::var("RELIC_VIEW_SCREENSHOT").is_ok_and(|v| v == "1") {
        args.push(repo().join("docs/view.png"));
    }
    let Some(out) = run_browser("run.mjs", "view-e2e", &viewer, &args) else { return };
    let shots = std::fs::read_dir(&out).unwrap().count();
    assert!(shots >= 6, "{shots} screenshots in {}", out.display());
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

/// `relic` with arguments, which must succeed.
fn relic(args: &[&std::ffi::OsStr]) {
    let out = AssertCommand::cargo_bin("relic").unwrap().args(args).output().unwrap();
    assert!(out.status.success(), "relic {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Issue 24's proof in the browser: a Ragnarok model is drawn textured, its texture found as the client
/// finds it (the `data\texture\` of its client folder, or of the GRF it is in), not black; one whose GRF
/// lacks it says so. The model is the samples' pyramid (which uses `stone.bmp`), the texture a plain orange
/// made here. With the corpus (`/work/shared/corpus/ragnarok`, or `RELIC_CORPUS`/ragnarok), also the real
/// `goldberg_s_01.rsm2`, put with `goldberg_textures.grf` as the client has them: in its `data.grf`
/// (copied, then the model added with `relic edit`), never in the repository; and (issue 39) the two side by
/// side in a folder, as the corpus has them.
#[test]
fn ragnarok_models_are_drawn_textured() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let client = root.join("client/data");
    std::fs::create_dir_all(client.join("model")).unwrap();
    std::fs::create_dir_all(client.join("texture")).unwrap();
    std::fs::copy(repo().join("samples/ragnarok/pyramid.rsm"), client.join("model/pyramid.rsm")).unwrap();
    std::fs::write(client.join("texture/stone.bmp"), solid_bmp([255, 140, 0])).unwrap();
    let textured = root.join("textured.grf");
    relic(&["pack".as_ref(), "ro-grf".as_ref(), "-q".as_ref(), "-o".as_ref(), textured.as_ref(), client.as_ref()]);
    // A GRF with the model and no texture: packed from a folder of its own, removed once packed.
    let bare = root.join("bare.grf");
    let lonely = root.join("lonely/data");
    std::fs::create_dir_all(lonely.join("model")).unwrap();
    std::fs::copy(repo().join("samples/ragnarok/pyramid.rsm"), lonely.join("model/pyramid.rsm")).unwrap();
    relic(&["pack".as_ref(), "ro-grf".as_ref(), "-q".as_ref(), "-o".as_ref(), bare.as_ref(), lonely.as_ref()]);
    std::fs::remove_dir_all(root.join("lonely")).unwrap();
    let corpus = std::env::var_os("RELIC_CORPUS")
        .map_or_else(|| PathBuf::from("/work/shared/corpus"), PathBuf::from)
        .join("ragnarok");
    let mut args = Vec::new();
    if corpus.join("goldberg_s_01.rsm2").is_file() && corpus.join("goldberg_textures.grf").is_file() {
        let grf = root.join("goldberg/data.grf");
        std::fs::create_dir_all(grf.parent().unwrap()).unwrap();
        std::fs::write(&grf, std::fs::read(corpus.join("goldberg_textures.grf")).unwrap()).unwrap();
        let add = format!("{}=data\\model\\goldberg_s_01.rsm2", corpus.join("goldberg_s_01.rsm2").display());
        relic(&["edit".as_ref(), "-q".as_ref(), grf.as_ref(), "--add".as_ref(), add.as_ref()]);
        args.push(PathBuf::from("goldberg/data.grf/data/model/goldberg_s_01.rsm2"));
        // Issue 39: the model with the GRF of its textures beside it, as the corpus has them.
        std::fs::create_dir_all(root.join("beside")).unwrap();
        for name in ["goldberg_s_01.rsm2", "goldberg_textures.grf"] {
            std::fs::copy(corpus.join(name), root.join("beside").join(name)).unwrap();
        }
        args.push(PathBuf::from("beside/goldberg_s_01.rsm2"));
    } else {
        skip(&format!("goldberg_s_01.rsm2 is not drawn: no corpus at {}", corpus.display()));
    }
    let viewer = Viewer::start(root);
    run_browser("textured.mjs", "view-e2e-textured", &viewer, &args);
}

/// Issue 26 in the browser: an ACT beside its SPR is shown as actions with an action and a direction
/// picker, frame stepping and playback, and with a head picked among the other ACTs of its folder or GRF
/// drawn over it; the SPR as frames. The body is the samples' `sample.act` with `sprite.spr` copied beside
/// it under one stem, as the client keeps them; the head the same ACT with its anchors 3 pixels lower
/// (written with relic's ACT writer), so that it is drawn 3 pixels above the body. `sprites.grf` holds
/// both pairs under `data\sprite\`. The client's layout, in `client/` and in `sprites.grf`: the body as
/// `data/sprite/인간족/몸통/남/초보자_남`, the head as `…/머리통/남/1_남` and `2_남`, so that the body is
/// offered those heads, labelled heads, and a head is offered none. Beside them in `data/palette/`, a body
/// dye and a hair dye (issue 39), each picked in a palette picker of its own.
#[test]
fn ragnarok_actions_are_picked_and_stepped() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let act = std::fs::read(repo().join("samples/ragnarok/sample.act")).unwrap();
    let spr = std::fs::read(repo().join("samples/ragnarok/sprite.spr")).unwrap();
    let mut head = relic::ragnarok::act::Act::read(&act).unwrap();
    for anchor in head.actions.iter_mut().flat_map(|a| &mut a.motions).flat_map(|m| &mut m.anchors) {
        anchor.y += 3;
    }
    let head = head.to_bytes().unwrap();
    let sprites = root.join("grf/data/sprite");
    std::fs::create_dir_all(&sprites).unwrap();
    for dir in [root, sprites.as_path()] {
        let (body, head_name) = if dir == root { ("sample", "head") } else { ("body", "head") };
        std::fs::write(dir.join(format!("{body}.act")), &act).unwrap();
        std::fs::write(dir.join(format!("{body}.spr")), &spr).unwrap();
        std::fs::write(dir.join(format!("{head_name}.act")), &head).unwrap();
        std::fs::write(dir.join(format!("{head_name}.spr")), &spr).unwrap();
    }
    // In the client's layout, idle south (action 0) holds three motions, one per head direction: the
    // body's anchor moved 0, 1 and 2 pixels right, the head's not, so that a turned head lands further right.
    let turned = |bytes: &[u8], step: i32| {
        let mut act = relic::ragnarok::act::Act::read(bytes).unwrap();
        let first = act.actions[0].motions[0].clone();
        act.actions[0].motions = (0..3)
            .map(|k| {
                let mut m = first.clone();
                m.anchors.iter_mut().for_each(|a| a.x += k * step);
                m
            })
            .collect();
        act.to_bytes().unwrap()
    };
    let (client_body, client_head) = (turned(&act, 1), turned(&head, 0));
    for top in [root.join("client/data/sprite"), sprites.clone()] {
        let (bodies, heads) = (top.join("인간족/몸통/남"), top.join("인간족/머리통/남"));
        std::fs::create_dir_all(&bodies).unwrap();
        std::fs::create_dir_all(&heads).unwrap();
        let pairs = [
            (bodies.join("초보자_남"), &client_body),
            (heads.join("1_남"), &client_head),
            (heads.join("2_남"), &client_head),
        ];
        for (stem, bytes) in pairs {
            std::fs::write(stem.with_extension("act"), bytes).unwrap();
            std::fs::write(stem.with_extension("spr"), &spr).unwrap();
        }
        // Issue 39: a body dye and a hair dye (entry 1 of each), and a dye of another body, not offered.
        let palettes = top.parent().unwrap().join("palette");
        for (name, colour) in [
            ("몸/초보자_남_1.pal", [10, 20, 30]),
            ("몸/검사_남_1.pal", [9, 9, 9]),
            ("머리/머리2_남_1.pal", [200, 100, 50]),
        ] {
            let mut pal = vec![0u8; 1024];
            pal[4..7].copy_from_slice(&colour);
            std::fs::create_dir_all(palettes.join(name).parent().unwrap()).unwrap();
            std::fs::write(palettes.join(name), pal).unwrap();
        }
    }
    let grf = root.join("sprites.grf");
    let from = root.join("grf");
    relic(&["pack".as_ref(), "ro-grf".as_ref(), "-q".as_ref(), "-o".as_ref(), grf.as_ref(), from.as_ref()]);
    std::fs::remove_dir_all(&from).unwrap();
    let viewer = Viewer::start(root);
    run_browser("actions.mjs", "view-e2e-actions", &viewer, &[]);
}

/// Issue 39 in the browser: the sprite page's pickers changed within the same instant, or again before the
/// first answer came (answers delayed by intercepting them), show the last choice and no error. The body is
/// the samples' `sample.act` (its `sprite.spr` beside it as `body.spr`), the heads the same ACT with its
/// anchors 3 and 6 pixels lower (written with relic's ACT writer), so that each drawing has its own height.
#[test]
fn ragnarok_sprite_pickers_show_the_last_choice() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let act = std::fs::read(repo().join("samples/ragnarok/sample.act")).unwrap();
    let spr = std::fs::read(repo().join("samples/ragnarok/sprite.spr")).unwrap();
    let lowered = |by: i32| {
        let mut head = relic::ragnarok::act::Act::read(&act).unwrap();
        for anchor in head.actions.iter_mut().flat_map(|a| &mut a.motions).flat_map(|m| &mut m.anchors) {
            anchor.y += by;
        }
        head.to_bytes().unwrap()
    };
    for (stem, bytes) in [("body", act.clone()), ("head1", lowered(3)), ("head2", lowered(6))] {
        std::fs::write(root.join(format!("{stem}.act")), bytes).unwrap();
        std::fs::write(root.join(format!("{stem}.spr")), &spr).unwrap();
    }
    let viewer = Viewer::start(root);
    run_browser("race.mjs", "view-e2e-race", &viewer, &[]);
}

/// Issue 27 in the browser: a Ragnarok map (the samples' `map.rsw` with its `map.gnd`, `map.gat` and the
/// placed `pyramid.rsm` in the client's layout) opens as one scene with a toggle per layer (placed models,
/// water, the walkability overlay) and a fly mode; each toggle changes what the canvas shows.
#[test]
fn ragnarok_maps_toggle_their_layers_and_fly() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let samples = repo().join("samples/ragnarok");
    let data = root.join("client/data");
    std::fs::create_dir_all(data.join("model")).unwrap();
    for name in ["map.rsw", "map.gnd", "map.gat"] {
        std::fs::copy(samples.join(name), data.join(name)).unwrap();
    }
    std::fs::copy(samples.join("pyramid.rsm"), data.join("model/pyramid.rsm")).unwrap();
    let viewer = Viewer::start(root);
    run_browser("map.mjs", "view-e2e-map", &viewer, &[PathBuf::from("client/data/map.rsw")]);
}
