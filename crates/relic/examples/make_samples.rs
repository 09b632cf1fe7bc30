//! Writes `samples/`: small files of every format relic supports, made by relic's own writers, so that the
//! README's main command (`relic convert -o out samples`) works on a fresh clone.
//!
//! Run from the repository root: `cargo run -p relic --example make_samples`. The test
//! `samples_match_generator` checks that the committed files are what this program writes.

use std::path::Path;

use relic::evil_islands::res::{write_archive, PackInput, PackOptions, PackSource};
use relic::ragnarok::rsm::{
    self, Face, Mesh, Name, RotationKey, Rsm, TexVertex, TextureAnimation, TextureChannel, TextureKey, Version,
};

/// 2001-03-30, the time stamp of the game's own text archives.
const TIME: u32 = 985_950_276;

fn entry(name: &str, data: &[u8]) -> PackInput {
    PackInput {
        name: relic::evil_islands::res::write::encode_name(name).unwrap_or_else(|e| panic!("{e}")),
        modified: TIME,
        source: PackSource::Bytes(data.to_vec()),
    }
}

fn res(entries: Vec<PackInput>) -> Vec<u8> {
    let mut out = Vec::new();
    write_archive(entries, PackOptions::default(), &mut out).unwrap_or_else(|e| panic!("{e}"));
    out
}

/// A textured square pyramid (apex up: model space is Y-down) turning once about its vertical axis over
/// two seconds: milliseconds in 1.4, 60 frames at 30 fps in 2.3, where its texture also scrolls.
fn pyramid(version: Version) -> Vec<u8> {
    let mut rsm = Rsm::new(version);
    rsm.animation_length = if version.is_rsm2() { 60 } else { 2000 };
    rsm.shade_type = 1;
    rsm.root_names = vec![Name::new("pyramid")];
    let mut m = Mesh::new(version, "pyramid");
    if version.has_mesh_textures() {
        m.textures = vec![Name::new("stone.bmp")];
    } else {
        rsm.textures = vec![Name::new("stone.bmp")];
        m.texture_indices = vec![0];
    }
    m.vertices = vec![[-1.0, 0.0, -1.0], [1.0, 0.0, -1.0], [1.0, 0.0, 1.0], [-1.0, 0.0, 1.0], [0.0, -2.0, 0.0]];
    m.tex_vertices = [[0.0, 1.0], [1.0, 1.0], [0.5, 0.0], [0.0, 0.0], [1.0, 0.0]]
        .map(|uv| TexVertex { color: Some(0xFFFF_FFFF), uv })
        .to_vec();
    let side = |v: [u16; 3]| Face { vertices: v, tex_vertices: [0, 1, 2], smooth_groups: vec![1], ..Face::default() };
    let base =
        |v: [u16; 3], t: [u16; 3]| Face { vertices: v, tex_vertices: t, smooth_groups: vec![2], ..Face::default() };
    m.faces = vec![
        side([0, 1, 4]),
        side([1, 2, 4]),
        side([2, 3, 4]),
        side([3, 0, 4]),
        base([0, 2, 1], [3, 1, 4]),
        base([0, 3, 2], [3, 0, 1]),
    ];
    // Half turns about Y: identity, 180°, back to identity (q and −q are the same rotation).
    let end = rsm.animation_length;
    m.rotation_keys = vec![
        RotationKey { frame: 0, quaternion: [0.0, 0.0, 0.0, 1.0] },
        RotationKey { frame: end / 2, quaternion: [0.0, 1.0, 0.0, 0.0] },
        RotationKey { frame: end, quaternion: [0.0, 0.0, 0.0, -1.0] },
    ];
    if version.has_mesh_textures() {
        m.texture_animations = vec![TextureAnimation {
            texture: 0,
            channels: vec![TextureChannel {
                kind: rsm::texture_kind::TRANSLATE_U,
                keys: vec![TextureKey { frame: 0, value: 0.0 }, TextureKey { frame: end, value: 1.0 }],
            }],
        }];
        // As real 2.3 files: no volume-box count at the end.
        rsm.volume_boxes = None;
    }
    rsm.meshes.push(m);
    rsm::write(&rsm).unwrap_or_else(|e| panic!("{e}"))
}

/// Every sample: path under `samples/` and bytes.
pub fn build() -> Vec<(&'static str, Vec<u8>)> {
    // A bone set is itself a RES of 96-byte entries (8 × vec3) without extensions (spec "Bon").
    let bones: Vec<u8> = (0..24u32).flat_map(|i| (i as f32 * 0.25).to_le_bytes()).collect();
    let bon = res(vec![entry("head", &bones), entry("body", &bones[..].iter().rev().copied().collect::<Vec<_>>())]);
    let greeting = "Привет, Гипат!\r\n".to_string();
    let greeting = relic::codec::text::encode(relic::codec::text::CP1251, &greeting).unwrap_or_default();
    let archive = res(vec![
        entry("readme.txt", b"A sample RES archive written by relic.\r\n"),
        entry("texts\\quest q1", b"Find the lost soul.\r\n"),
        // Same bytes under a second name: stored once (deduplicated).
        entry("texts\\quest q1 copy", b"Find the lost soul.\r\n"),
        entry("тексты\\привет.txt", &greeting),
        entry("unit.bon", &bon),
    ]);
    vec![
        ("evil_islands/example.res", archive),
        ("ragnarok/example.rsm", pyramid(Version::new(1, 4))),
        ("ragnarok/example.rsm2", pyramid(Version::new(2, 3))),
    ]
}

#[allow(dead_code)]
fn main() {
    let root = Path::new("samples");
    for (path, bytes) in build() {
        let target = root.join(path);
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        }
        std::fs::write(&target, bytes).unwrap_or_else(|e| panic!("{}: {e}", target.display()));
        println!("wrote {}", target.display());
    }
}
