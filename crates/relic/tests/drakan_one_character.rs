//! Issue 40: 40 models over one 20,000-joint character (a 1.9 MB `.mod`) built the character 40 times and
//! held every scene at once (3.7 GiB, 21 s). The hostile file is built here by hand from the spec
//! (`drakan-riot-srsc.txt`, CORRECTIONS.md's character layout, through `srsc_fixtures`).

use std::path::Path;

mod srsc_fixtures;

use relic::ops::{self, ConvertRequest, Quiet};
use srsc_fixtures::Bytes as B;
use srsc_fixtures::{character, over};

/// `models` models (ids 1…) over one character body of `joints` joints; each model has its own 3-vertex
/// 0x0203 record (a distinct body, so no two models have the very same records) and one shared polygon
/// list; model k's shading is 0x8002 (smooth).
fn crowd(models: u16, joints: u32) -> Vec<u8> {
    let mut data = Vec::new();
    let mut at = |body: &[u8]| {
        let offset = 12 + data.len() as u32;
        data.extend(body);
        (offset, body.len() as u32)
    };
    let mut polygons = B::default().u16(1).u16(0).u16(3).u16(0);
    for i in 0..3u16 {
        polygons = polygons.u16(i).f32s(&[0.0, 0.0]);
    }
    let polygons = at(&polygons.done());
    let body = at(&character(joints, 3, 1));
    let mut entries = Vec::new();
    for k in 0..models {
        let id = k + 1;
        let name = at(&B::default().str(&format!("m{k}")).u32(0x8002).done());
        let mut vertices = B::default().u16(3);
        for p in [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, f32::from(k)]] {
            vertices = vertices.f32s(&p);
        }
        let vertices = at(&vertices.done());
        entries.push((0x0200, id, 0, name.0, name.1));
        entries.push((0x0203, id, 0, vertices.0, vertices.1));
        entries.push((0x0204, id, 0, polygons.0, polygons.1));
        entries.push((0x0208, id, 0, body.0, body.1));
    }
    over(&data, &entries)
}

/// Writes the hostile file where `RELIC_WRITE_CROWD` says (for measuring `relic convert` by hand with
/// `/usr/bin/time -v`); does nothing otherwise.
#[test]
fn write_the_hostile_crowd_when_asked() {
    if let Ok(path) = std::env::var("RELIC_WRITE_CROWD") {
        let models = std::env::var("RELIC_CROWD_MODELS").ok().and_then(|n| n.parse().ok()).unwrap_or(40);
        std::fs::write(&path, crowd(models, 20_000)).unwrap();
        eprintln!("wrote {path}");
    }
}

fn convert(dir: &Path, name: &str, bytes: &[u8]) -> (ops::ConvertReport, ConvertRequest) {
    let input = dir.join(name);
    std::fs::write(&input, bytes).unwrap();
    let req = ConvertRequest::default();
    let report = ops::convert(std::slice::from_ref(&input), &dir.join("out"), &req, &Quiet);
    (report, req)
}
