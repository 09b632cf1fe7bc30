//! Hand-made Evil Islands map fixtures, assembled byte by byte from the spec's tables (sections "MP" and
//! "SEC" of `evil-islands.txt`, with docs/formats/evil-islands.md#mp-header: a u16 material count then a u32 animated-tile count,
//! 44-byte materials; 33 × 33 row-major vertices of s8 dx, s8 dy, u16 z, u32 packed normal), never through
//! relic's writers.
//!
//! The map `zone` is 2 × 1 sectors, max altitude 100:
//! - `zone000000.sec` is dry: vertex (c, r) has z = 1000·r + 100·c + 7 and no offset, except vertex
//!   (5, 7), which is pushed by dx = 127, dy = −127; tile t has index t % 64, atlas 0, rotation t % 4.
//! - `zone001000.sec` is wet (liquids byte 3): land z = 2000 + 10·c; water vertices z = 30000, dx = −3,
//!   dy = 5; land tiles index 2, atlas 0, rotation 0; water tiles of rows 0–7 index 9, atlas 0,
//!   rotation 1, material 1; rows 8–15 dry (tile and material 0xFFFF).
#![allow(dead_code)]

pub const MAX_ALTITUDE: f32 = 100.0;
/// Packed normal (0, 0, 1): x and y 1000 (→ 0), z 1000 (→ 1).
pub const UP: u32 = (1000 << 22) | (1000 << 11) | 1000;

pub fn dry_z(c: usize, r: usize) -> u16 {
    (1000 * r + 100 * c + 7) as u16
}
pub fn wet_z(c: usize) -> u16 {
    (2000 + 10 * c) as u16
}
pub const WATER_Z: u16 = 30000;

fn f32s(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend(v.to_le_bytes());
    }
}

/// `zone.mp`: 2 × 1 sectors, one 64-pixel atlas of 8-pixel tiles (64 tile types, `i % 16`), two
/// materials (earth type 1, water type 3) and two animated tiles.
pub fn mp() -> Vec<u8> {
    let mut out = vec![0x72, 0xF6, 0x4A, 0xCE];
    out.extend(MAX_ALTITUDE.to_le_bytes());
    for v in [2u32, 1, 1, 64, 64, 8] {
        // sectors x, sectors y, textures, texture size, tiles count, tile size
        out.extend(v.to_le_bytes());
    }
    out.extend(2u16.to_le_bytes()); // materials count
    out.extend(2u32.to_le_bytes()); // animated tiles count
                                    // material 0: type 1, earth colour, self illumination 0, wave 1, warp 0, 12 unknown bytes 1..=12
    out.extend(1u32.to_le_bytes());
    f32s(&mut out, &[0.5, 0.375, 0.25, 1.0, 0.0, 1.0, 0.0]);
    out.extend(1u8..=12);
    // material 1: type 3, water, alpha 0.625, self illumination 0.5, wave 0.5, warp 1.25, unknown zeros
    out.extend(3u32.to_le_bytes());
    f32s(&mut out, &[0.125, 0.25, 0.75, 0.625, 0.5, 0.5, 1.25]);
    out.extend([0u8; 12]);
    for i in 0..64u32 {
        out.extend((i % 16).to_le_bytes());
    }
    for (start, len) in [(8u16, 4u16), (20, 2)] {
        out.extend(start.to_le_bytes());
        out.extend(len.to_le_bytes());
    }
    assert_eq!(out.len(), 38 + 2 * 44 + 64 * 4 + 2 * 4);
    out
}

fn vertex(out: &mut Vec<u8>, dx: i8, dy: i8, z: u16, normal: u32) {
    out.push(dx as u8);
    out.push(dy as u8);
    out.extend(z.to_le_bytes());
    out.extend(normal.to_le_bytes());
}

fn tile(index: u16, texture: u16, rotation: u16) -> u16 {
    index | texture << 6 | rotation << 14
}

/// `zone000000.sec` (dry).
pub fn dry_sec() -> Vec<u8> {
    let mut out = vec![0x74, 0xF7, 0x4B, 0xCF, 0];
    for r in 0..33 {
        for c in 0..33 {
            let (dx, dy) = if (c, r) == (5, 7) { (127, -127) } else { (0, 0) };
            vertex(&mut out, dx, dy, dry_z(c, r), UP);
        }
    }
    for t in 0..256u16 {
        out.extend(tile(t % 64, 0, t % 4).to_le_bytes());
    }
    assert_eq!(out.len(), 5 + 1089 * 8 + 512);
    out
}

/// `zone001000.sec` (wet).
pub fn wet_sec() -> Vec<u8> {
    let mut out = vec![0x74, 0xF7, 0x4B, 0xCF, 3];
    for _r in 0..33 {
        for c in 0..33 {
            vertex(&mut out, 0, 0, wet_z(c), UP);
        }
    }
    for _ in 0..1089 {
        vertex(&mut out, -3, 5, WATER_Z, UP);
    }
    for _ in 0..256 {
        out.extend(tile(2, 0, 0).to_le_bytes());
    }
    for t in 0..256 {
        let v = if t / 16 < 8 { tile(9, 0, 1) } else { 0xFFFF };
        out.extend(v.to_le_bytes());
    }
    for t in 0..256 {
        let m: u16 = if t / 16 < 8 { 1 } else { 0xFFFF };
        out.extend(m.to_le_bytes());
    }
    assert_eq!(out.len(), 5 + 2 * 1089 * 8 + 3 * 512);
    out
}

/// A folder with `zone.mp` and its two sectors (names as given).
pub fn map_folder(names: [&str; 3]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(names[0]), mp()).unwrap();
    std::fs::write(dir.path().join(names[1]), dry_sec()).unwrap();
    std::fs::write(dir.path().join(names[2]), wet_sec()).unwrap();
    dir
}

/// Splits a GLB into its JSON document and BIN chunk.
pub fn read_glb(glb: &[u8]) -> (serde_json::Value, Vec<u8>) {
    assert_eq!(&glb[0..4], b"glTF");
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let rest = &glb[20 + json_len..];
    let bin_len = u32::from_le_bytes(rest[0..4].try_into().unwrap()) as usize;
    assert_eq!(&rest[4..8], b"BIN\0");
    (doc, rest[8..8 + bin_len].to_vec())
}

/// The floats of accessor `i`, grouped `n` at a time.
pub fn accessor<const N: usize>(doc: &serde_json::Value, bin: &[u8], i: u64) -> Vec<[f32; N]> {
    let a = &doc["accessors"][i as usize];
    assert_eq!(a["componentType"], 5126);
    let view = &doc["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap() as usize;
    let len = view["byteLength"].as_u64().unwrap() as usize;
    let floats: Vec<f32> =
        bin[start..start + len].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    floats.chunks_exact(N).map(|c| c.try_into().unwrap()).collect()
}

/// Validates GLB files with the Khronos validator (0 errors), or says it skipped.
pub fn validate(paths: &[&std::path::Path]) {
    let Some(reports) = relic::testing::validate_gltf(paths) else { return };
    assert_eq!(reports.len(), paths.len());
    for r in reports {
        assert_eq!(r.errors, 0, "{}: {:#?}", r.path, r.messages);
    }
}

/// Whether `points` holds `p` (to 1e-4).
pub fn holds(points: &[[f32; 3]], p: [f32; 3]) -> bool {
    points.iter().any(|q| (0..3).all(|k| (q[k] - p[k]).abs() < 1e-4))
}
