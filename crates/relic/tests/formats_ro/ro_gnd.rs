//! Ragnarok GND (`ro-gnd`): files written here from the public description (GND.MD of
//! RagnarokFileFormats with the corrections the loaders agree on: 40-byte surfaces, lightmaps
//! `count × w × h × cells × 4` bytes, water from 1.8), read back with exact values, written back byte
//! for byte in every version, converted to a ground scene whose positions, walls, texture coordinates,
//! baked lightmap colours and water are checked against values worked out by hand, and checked by the
//! Khronos validator. The committed sample `samples/ragnarok/map.gnd` is this writer's output.

use relic::asset::{Pixels, Primitive, Scene};
use relic::ragnarok::gnd::{ground_scene, Gnd, GroundOptions, SurfaceIds, Version};
use relic::ragnarok::world;
use relic::registry;

// ---------------------------------------------------------------------------------------------------
// A GND writer from the specification (independent of relic's writer).

#[derive(Clone)]
struct SpecSurface {
    u: [f32; 4],
    v: [f32; 4],
    texture: i16,
    lightmap: u16,
    bgra: [u8; 4],
}

#[derive(Clone, Copy)]
struct SpecCube {
    h: [f32; 4],
    top: i32,
    front: i32,
    right: i32,
}

#[derive(Clone)]
struct SpecWater {
    level: f32,
    kind: i32,
    wave_height: f32,
    wave_speed: f32,
    wave_pitch: f32,
    anim: i32,
    across: i32,
    down: i32,
}

#[derive(Clone)]
struct SpecGnd {
    minor: u8,
    width: i32,
    height: i32,
    zoom: f32,
    textures: Vec<Vec<u8>>, // each exactly 80 bytes
    lightmaps: Vec<[u8; 256]>,
    surfaces: Vec<SpecSurface>,
    cubes: Vec<SpecCube>,
    /// Before 1.7: how many 16-bit ids a cube stores (3 or 4); 0 = i32.
    short_ids: usize,
    water: Option<SpecWater>,
}

fn name80(text: &str) -> Vec<u8> {
    let mut b = text.as_bytes().to_vec();
    b.resize(80, 0);
    b
}

fn spec_bytes(g: &SpecGnd) -> Vec<u8> {
    let mut b = b"GRGN".to_vec();
    b.extend([1, g.minor]);
    b.extend(g.width.to_le_bytes());
    b.extend(g.height.to_le_bytes());
    b.extend(g.zoom.to_le_bytes());
    b.extend((g.textures.len() as i32).to_le_bytes());
    b.extend(80i32.to_le_bytes());
    for t in &g.textures {
        b.extend(t);
    }
    b.extend((g.lightmaps.len() as i32).to_le_bytes());
    for v in [8i32, 8, 1] {
        b.extend(v.to_le_bytes());
    }
    for l in &g.lightmaps {
        b.extend(l);
    }
    b.extend((g.surfaces.len() as i32).to_le_bytes());
    for s in &g.surfaces {
        for f in s.u.iter().chain(&s.v) {
            b.extend(f.to_le_bytes());
        }
        b.extend(s.texture.to_le_bytes());
        b.extend(s.lightmap.to_le_bytes());
        b.extend(s.bgra);
    }
    for c in &g.cubes {
        for h in c.h {
            b.extend(h.to_le_bytes());
        }
        if g.short_ids == 0 {
            for id in [c.top, c.front, c.right] {
                b.extend(id.to_le_bytes());
            }
        } else {
            for id in [c.top, c.front, c.right] {
                b.extend((id as i16).to_le_bytes());
            }
            if g.short_ids == 4 {
                b.extend(0i16.to_le_bytes());
            }
        }
    }
    if let Some(w) = &g.water {
        let fields = |b: &mut Vec<u8>| {
            b.extend(w.kind.to_le_bytes());
            b.extend(w.wave_height.to_le_bytes());
            b.extend(w.wave_speed.to_le_bytes());
            b.extend(w.wave_pitch.to_le_bytes());
            b.extend(w.anim.to_le_bytes());
        };
        b.extend(w.level.to_le_bytes());
        fields(&mut b);
        b.extend(w.across.to_le_bytes());
        b.extend(w.down.to_le_bytes());
        for _ in 0..w.across * w.down {
            b.extend(w.level.to_le_bytes());
            if g.minor >= 9 {
                fields(&mut b);
            }
        }
    }
    b
}

/// Lightmap 1: shadow texel (x, y) = 15·x + 10·y + 40; colour texel = (x, y, 7).
fn gradient_lightmap() -> [u8; 256] {
    let mut l = [0u8; 256];
    for y in 0..8 {
        for x in 0..8 {
            l[y * 8 + x] = (15 * x + 10 * y + 40) as u8;
            let c = 64 + (y * 8 + x) * 3;
            l[c..c + 3].copy_from_slice(&[x as u8, y as u8, 7]);
        }
    }
    l
}

/// The sample: 5 × 4 cells, zoom 10, two textures, three lightmaps; cell (2, 1) raised to −10 (Y-down:
/// 10 up) with walls on its four sides; cell (4, 3) sunk to +10 under the water (level 5, wave 1);
/// a front wall asked for on the northern edge (cell (0, 3)), which cannot be drawn.
fn sample_spec(minor: u8) -> SpecGnd {
    let (w, h) = (5, 4);
    let mut cubes = vec![SpecCube { h: [0.0; 4], top: 0, front: -1, right: -1 }; 20];
    let at = |x: usize, y: usize| y * 5 + x;
    cubes[at(2, 1)] = SpecCube { h: [-10.0; 4], top: 1, front: 2, right: 2 };
    cubes[at(2, 0)].front = 2; // south wall of the raised cell
    cubes[at(1, 1)].right = 2; // west wall of the raised cell
    cubes[at(4, 3)].h = [10.0; 4];
    cubes[at(0, 3)].front = 2; // on the northern edge: not drawn
    let mut plain = [255u8; 256];
    plain[64..].fill(0);
    let mut coloured = [200u8; 256];
    for t in 0..64 {
        coloured[64 + t * 3..64 + t * 3 + 3].copy_from_slice(&[64, 32, 16]);
    }
    SpecGnd {
        minor,
        width: w,
        height: h,
        zoom: 10.0,
        textures: vec![name80("backside.bmp"), name80("prontera\\p_ground01.bmp")],
        lightmaps: vec![plain, gradient_lightmap(), coloured],
        surfaces: vec![
            SpecSurface {
                u: [0.0, 1.0, 0.0, 1.0],
                v: [0.0, 0.0, 1.0, 1.0],
                texture: 1,
                lightmap: 0,
                bgra: [255, 255, 255, 255],
            },
            SpecSurface {
                u: [0.125, 0.375, 0.125, 0.375],
                v: [0.25, 0.25, 0.5, 0.5],
                texture: 1,
                lightmap: 1,
                bgra: [128, 200, 255, 255],
            },
            SpecSurface {
                u: [0.0, 1.0, 0.0, 1.0],
                v: [0.0, 0.0, 1.0, 1.0],
                texture: 0,
                lightmap: 2,
                bgra: [0, 0, 0, 255],
            },
        ],
        cubes,
        short_ids: if minor < 7 { 3 } else { 0 },
        water: (minor >= 8).then_some(SpecWater {
            level: 5.0,
            kind: 1,
            wave_height: 1.0,
            wave_speed: 2.0,
            wave_pitch: 50.0,
            anim: 3,
            across: 1,
            down: 1,
        }),
    }
}

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/ragnarok/map.gnd");

/// The committed sample is this writer's output (`RELIC_WRITE_SAMPLES=1` writes it).
#[test]
fn sample_is_the_spec_writers_output() {
    let bytes = spec_bytes(&sample_spec(9));
    if std::env::var_os("RELIC_WRITE_SAMPLES").is_some() {
        std::fs::write(SAMPLE, &bytes).unwrap();
    }
    assert_eq!(std::fs::read(SAMPLE).unwrap(), bytes);
}

// ---------------------------------------------------------------------------------------------------
// Reading and writing.

#[test]
fn reads_the_fields_as_written() {
    let gnd = Gnd::read(&spec_bytes(&sample_spec(9))).unwrap();
    assert_eq!(gnd.version, Version::new(1, 9));
    assert_eq!((gnd.width, gnd.height, gnd.zoom.get()), (5, 4, 10.0));
    assert_eq!(gnd.textures[1].text, "prontera\\p_ground01.bmp");
    assert_eq!((gnd.lightmaps.count, gnd.lightmaps.width, gnd.lightmaps.cells), (3, 8, 1));
    assert_eq!(gnd.lightmaps.shadow(1, 3, 2), Some(15 * 3 + 10 * 2 + 40));
    assert_eq!(gnd.lightmaps.color(1, 3, 2), Some([3, 2, 7]));
    assert_eq!(gnd.surfaces[1].texture, 1);
    assert_eq!(gnd.surfaces[1].rgb(), [255, 200, 128]);
    assert_eq!(gnd.surfaces[1].uv(3), [0.375, 0.5]);
    let c = gnd.cube(2, 1).unwrap();
    assert_eq!((c.height(0), c.top, c.front, c.right), (-10.0, 1, 2, 2));
    let water = gnd.water.as_ref().unwrap();
    assert_eq!((water.level.get(), water.settings.kind, water.zones.len()), (5.0, 1, 1));
    assert_eq!(water.zones[0].settings.unwrap().animation_speed, 3);
    assert_eq!(gnd.surface_ids, SurfaceIds::I32);
}

/// Every version 1.5 to 1.9 (and both 16-bit id layouts before 1.7) reads and writes back byte for
/// byte, through the typed API and through the JSON document.
#[test]
fn every_version_round_trips() {
    let codec = registry::by_id("ro-gnd").unwrap();
    for (minor, short_ids, layout) in [
        (5, 3, SurfaceIds::I16x3),
        (5, 4, SurfaceIds::I16x4),
        (6, 3, SurfaceIds::I16x3),
        (6, 0, SurfaceIds::I32),
        (7, 0, SurfaceIds::I32),
        (8, 0, SurfaceIds::I32),
        (9, 0, SurfaceIds::I32),
    ] {
        let mut spec = sample_spec(minor);
        spec.short_ids = short_ids;
        let bytes = spec_bytes(&spec);
        let gnd = Gnd::read(&bytes).unwrap_or_else(|e| panic!("1.{minor}: {e}"));
        assert_eq!(gnd.surface_ids, layout, "1.{minor} {short_ids}");
        assert_eq!(gnd.cube(2, 1).unwrap().front, 2, "1.{minor}");
        assert_eq!(gnd.water.is_some(), minor >= 8);
        assert!(gnd.trailing.0.is_empty(), "1.{minor}");
        assert_eq!(gnd.to_bytes().unwrap(), bytes, "1.{minor} typed");
        let text = serde_json::to_string(&codec.to_json(&bytes).unwrap()).unwrap();
        let back = codec.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap();
        assert_eq!(back, bytes, "1.{minor} JSON");
    }
}

/// A 1.8 file may end before its zone levels (roBrowser reads none): it reads without zones and writes
/// back the same; bytes after the end are kept.
#[test]
fn water_zones_of_1_8_and_trailing_bytes() {
    let mut bytes = spec_bytes(&sample_spec(8));
    let without = bytes.len() - 4;
    let gnd = Gnd::read(&bytes[..without]).unwrap();
    assert!(gnd.water.as_ref().unwrap().zones.is_empty());
    assert_eq!(gnd.to_bytes().unwrap(), &bytes[..without]);
    let gnd = Gnd::read(&bytes).unwrap();
    assert_eq!(gnd.water.as_ref().unwrap().zones[0].level.get(), 5.0);
    bytes.extend(b"tail");
    let gnd = Gnd::read(&bytes).unwrap();
    assert_eq!(gnd.trailing.0, b"tail");
    assert_eq!(gnd.to_bytes().unwrap(), bytes);
}

/// Junk after a texture name's NUL, NaN heights and odd colours survive JSON.
#[test]
fn junk_and_nan_survive_json() {
    let mut spec = sample_spec(7);
    spec.textures[0][20] = 0xAB;
    spec.cubes[0].h[1] = f32::from_bits(0x7FC0_1234);
    let bytes = spec_bytes(&spec);
    let codec = registry::by_id("ro-gnd").unwrap();
    let value = codec.to_json(&bytes).unwrap();
    assert_eq!(value["textures"][0]["text"], "backside.bmp");
    assert_eq!(codec.from_json(value, &Default::default()).unwrap(), bytes);
}

#[test]
fn refuses_wrong_magic_and_versions() {
    let mut bytes = spec_bytes(&sample_spec(7));
    bytes[5] = 4;
    assert!(Gnd::read(&bytes).unwrap_err().to_string().contains("version 1.4"));
    bytes[5] = 7;
    bytes[0] = b'X';
    assert!(Gnd::read(&bytes).is_err());
}

/// Counts far beyond the file fail before anything is allocated, naming the field.
#[test]
fn hostile_counts_fail_before_allocating() {
    let good = spec_bytes(&sample_spec(9));
    let lm_at = 6 + 4 * 3 + 8 + 160; // after header, textures
    let surf_at = lm_at + 16 + 3 * 256;
    for (at, value, field) in [
        (18usize, i32::MAX, "textures"),
        (lm_at, i32::MAX, "lightmaps"),
        (lm_at + 4, 1 << 20, "lightmaps"),
        (surf_at, i32::MAX, "surfaces"),
        (6, i32::MAX, "cubes"),
    ] {
        let mut bytes = good.clone();
        bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
        let err = Gnd::read(&bytes).unwrap_err().to_string();
        assert!(err.contains(field), "{field}: {err}");
    }
    // Both dimensions huge: the product overflows nothing and still fails on the count.
    let mut bytes = good.clone();
    bytes[6..10].copy_from_slice(&i32::MAX.to_le_bytes());
    bytes[10..14].copy_from_slice(&i32::MAX.to_le_bytes());
    assert!(Gnd::read(&bytes).unwrap_err().to_string().contains("cubes"));
    // A water grid of 2³¹ zones.
    let mut bytes = good;
    let at = bytes.len() - 24 - 8;
    bytes[at..at + 4].copy_from_slice(&i32::MAX.to_le_bytes());
    assert!(Gnd::read(&bytes).unwrap_err().to_string().contains("water.zones"));
}

/// Every prefix and every single-bit flip of the sample: no panic; what reads writes back and reads
/// the same again; what reads converts.
#[test]
fn truncation_and_flip_sweep() {
    let bytes = spec_bytes(&sample_spec(9));
    for n in 0..bytes.len() {
        let _ = Gnd::read(&bytes[..n]);
    }
    for i in 0..bytes.len() {
        for bit in [0x01u8, 0x80] {
            let mut b = bytes.clone();
            b[i] ^= bit;
            if let Ok(gnd) = Gnd::read(&b) {
                if let Ok(out) = gnd.to_bytes() {
                    assert_eq!(Gnd::read(&out).unwrap(), gnd);
                }
                let _ = ground_scene(&gnd, None, &GroundOptions::default());
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// The ground scene.

fn prims(scene: &Scene, node: &str) -> Vec<Primitive> {
    let n = scene.nodes.iter().find(|n| n.name == node).unwrap_or_else(|| panic!("no node {node}"));
    scene.meshes[n.mesh.unwrap()].primitives.clone()
}

/// (position, uv, colour) of every vertex of the node's mesh.
fn vertices(scene: &Scene, node: &str) -> Vec<([f32; 3], [f32; 2], [f32; 4])> {
    prims(scene, node)
        .iter()
        .flat_map(|p| {
            (0..p.positions.len()).map(move |i| {
                (
                    p.positions[i],
                    p.uvs.get(i).copied().unwrap_or_default(),
                    p.colors.get(i).copied().unwrap_or_default(),
                )
            })
        })
        .collect()
}

fn sample_scene() -> Scene {
    let gnd = Gnd::read(&spec_bytes(&sample_spec(9))).unwrap();
    ground_scene(&gnd, None, &GroundOptions::default()).unwrap()
}

fn close(a: [f32; 3], b: [f32; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
}

/// Corner (x, y) of a 5 × 4 ground at zoom 10 with height h (Y-down): glTF (10x − 25, −h, 20 − 10y).
#[test]
fn ground_positions_follow_zoom_centre_and_the_y_flip() {
    assert_eq!(world::cell_corner(5, 4, 10.0, 2, 1, -10.0), [-5.0, 10.0, 10.0]);
    let scene = sample_scene();
    assert_eq!(scene.roots.len(), 2);
    assert_eq!(scene.nodes[scene.roots[0]].name, "ground");
    let v = vertices(&scene, "ground");
    // Tops: 20 cells × 4 corners; walls: 4 around the raised cell (the edge wall of (0, 3) is not drawn).
    assert_eq!(v.len(), 20 * 4 + 4 * 4);
    // The raised cell's top: its four corners 10 up, with surface 1's texture coordinates.
    for (corner, (x, y)) in [(2, 1), (3, 1), (2, 2), (3, 2)].into_iter().enumerate() {
        let p = [x as f32 * 10.0 - 25.0, 10.0, 20.0 - y as f32 * 10.0];
        let uv = [[0.125, 0.25], [0.375, 0.25], [0.125, 0.5], [0.375, 0.5]][corner];
        assert!(v.iter().any(|(q, t, _)| close(*q, p) && *t == uv), "corner {corner} at {p:?} {uv:?}");
    }
    // The sunk cell (4, 3): 10 down, at the north-east corner.
    assert!(v.iter().any(|(q, _, _)| close(*q, [25.0, -10.0, -20.0])));
    // Triangles of a top face up (counter-clockwise seen from +Y).
    for p in prims(&scene, "ground") {
        for t in p.indices.chunks(3) {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| glam::Vec3::from_array(p.positions[i as usize]));
            let n = (b - a).cross(c - a);
            if n.length() > 0.0 && n.normalize().y.abs() > 0.99 {
                assert!(n.y > 0.0, "top face facing down: {a} {b} {c}");
            }
        }
    }
}

/// The four walls of the raised cell join its top (10 up) to the ground (0), with surface 2's texture
/// coordinates in the loaders' corner order.
#[test]
fn walls_where_neighbour_heights_differ() {
    let scene = sample_scene();
    // Lightmap 2: shadow 200 everywhere on white (walls take no tile colour), plus its colour (64, 32, 16)
    // (multiples of 16: posterizing keeps them): (264, 232, 216) / 255, red clamped to 1.
    let wall = [1.0, 232.0 / 255.0, 216.0 / 255.0, 1.0];
    let walls: Vec<_> = vertices(&scene, "ground").into_iter().filter(|(_, _, c)| *c == wall).collect();
    assert_eq!(walls.len(), 16);
    let has = |p: [f32; 3], uv: [f32; 2]| walls.iter().any(|(q, t, _)| close(*q, p) && *t == uv);
    // Front wall of (2, 1), on row 2 (z = 0): this cube's corners 2, 3 (10 up) take uv 0, 1; the northern
    // cube's corners 0, 1 (0) take uv 2, 3.
    assert!(has([-5.0, 10.0, 0.0], [0.0, 0.0]));
    assert!(has([5.0, 10.0, 0.0], [1.0, 0.0]));
    assert!(has([-5.0, 0.0, 0.0], [0.0, 1.0]));
    assert!(has([5.0, 0.0, 0.0], [1.0, 1.0]));
    // Right wall of (2, 1), on column 3 (x = 5): corner 3 (row 2) uv 0, corner 1 (row 1) uv 1, the
    // eastern cube's corner 2 uv 2 and corner 0 uv 3.
    assert!(has([5.0, 10.0, 0.0], [0.0, 0.0]));
    assert!(has([5.0, 10.0, 10.0], [1.0, 0.0]));
    assert!(has([5.0, 0.0, 0.0], [0.0, 1.0]));
    assert!(has([5.0, 0.0, 10.0], [1.0, 1.0]));
    // The south wall (front of (2, 0), row 1) rises from 0 to 10.
    assert!(has([-5.0, 0.0, 10.0], [0.0, 0.0]));
    assert!(has([-5.0, 10.0, 10.0], [0.0, 1.0]));
    // Nothing on the northern edge (z = −20 only for tops).
    assert!(walls.iter().all(|(q, _, _)| q[2] > -20.0));
}

/// COLOR_0 = tile colour × shadow: the raised cell's corner (2, 1) is cube (2, 1)'s colour (surface 1:
/// R 255, G 200, B 128) times the rounded mean of lightmap 1's texels (0, 0), (1, 0), (0, 1), (1, 1):
/// (40 + 55 + 50 + 65) / 4 = 52.5 → 53; its corner (3, 2) takes cube (3, 2)'s colour (white) and texels
/// (6, 6), (7, 6), (6, 7), (7, 7): (190 + 205 + 200 + 215) / 4 = 202.5 → 203.
#[test]
fn lightmap_and_tile_colour_reach_color_0() {
    let scene = sample_scene();
    let v = vertices(&scene, "ground");
    let at = |p: [f32; 3], uv: [f32; 2]| v.iter().find(|(q, t, _)| close(*q, p) && *t == uv).unwrap().2;
    let c = at([-5.0, 10.0, 10.0], [0.125, 0.25]);
    let s = 53.0 / 255.0;
    for (got, want) in c.iter().zip([1.0 * s, 200.0 / 255.0 * s, 128.0 / 255.0 * s, 1.0]) {
        assert!((got - want).abs() < 1e-6, "{c:?}");
    }
    let c = at([5.0, 10.0, 0.0], [0.375, 0.5]);
    assert!((c[0] - 203.0 / 255.0).abs() < 1e-6 && c[0] == c[1] && c[1] == c[2], "{c:?}");
    // Without lightmaps: white.
    let gnd = Gnd::read(&spec_bytes(&sample_spec(9))).unwrap();
    let plain = ground_scene(&gnd, None, &GroundOptions { lightmaps: false, ..Default::default() }).unwrap();
    assert!(vertices(&plain, "ground").iter().all(|(_, _, c)| *c == [1.0; 4]));
}

/// The lightmap's colour is added to `COLOR_0`, each texel posterized to steps of 16 (`c >> 4 << 4`) before
/// the 2 × 2 mean, the sum clamped to 1: lightmap 1's colour texel (x, y) made (17x + 3, 100, 250 − 9y),
/// the raised cell's corner (2, 1) (texels (0, 0), (1, 0), (0, 1), (1, 1)) adds red (0 + 16 + 0 + 16) / 4 =
/// 8, green 96, blue (240 + 240 + 240 + 240) / 4 = 240 to the tile colour × shadow 53 of the test above.
#[test]
fn the_lightmap_colour_is_added_posterized() {
    let mut spec = sample_spec(9);
    for y in 0..8 {
        for x in 0..8 {
            let c = 64 + (y * 8 + x) * 3;
            spec.lightmaps[1][c..c + 3].copy_from_slice(&[(17 * x + 3) as u8, 100, (250 - 9 * y) as u8]);
        }
    }
    let gnd = Gnd::read(&spec_bytes(&spec)).unwrap();
    let scene = ground_scene(&gnd, None, &GroundOptions::default()).unwrap();
    let v = vertices(&scene, "ground");
    let c = v.iter().find(|(q, t, _)| close(*q, [-5.0, 10.0, 10.0]) && *t == [0.125, 0.25]).unwrap().2;
    let s = 53.0 / 255.0;
    let want = [s + 8.0 / 255.0, 200.0 / 255.0 * s + 96.0 / 255.0, 1.0, 1.0];
    for (got, want) in c.iter().zip(want) {
        assert!((got - want).abs() < 1e-6, "{c:?} vs {want:?}");
    }
    assert!(128.0 / 255.0 * s + 240.0 / 255.0 > 1.0, "blue is clamped");
    // Without lightmaps, no colour either.
    let plain = ground_scene(&gnd, None, &GroundOptions { lightmaps: false, ..Default::default() }).unwrap();
    assert!(vertices(&plain, "ground").iter().all(|(_, _, c)| *c == [1.0; 4]));
}

/// A 2 × 1 ground (zoom 10): cell 0 flat at `west` (Y-down), cell 1 rising 10 eastward from 0 to −10.
fn slope(west: f32) -> Scene {
    let surface = SpecSurface { u: [0.0; 4], v: [0.0; 4], texture: 0, lightmap: 0, bgra: [255; 4] };
    let mut plain = [255u8; 256];
    plain[64..].fill(0);
    let spec = SpecGnd {
        minor: 7,
        width: 2,
        height: 1,
        zoom: 10.0,
        textures: vec![name80("a.bmp")],
        lightmaps: vec![plain],
        surfaces: vec![surface],
        cubes: vec![
            SpecCube { h: [west; 4], top: 0, front: -1, right: -1 },
            SpecCube { h: [0.0, -10.0, 0.0, -10.0], top: 0, front: -1, right: -1 },
        ],
        short_ids: 0,
        water: None,
    };
    ground_scene(&Gnd::read(&spec_bytes(&spec)).unwrap(), None, &GroundOptions::default()).unwrap()
}

/// (position, normal) of every vertex of the ground.
fn normals(scene: &Scene) -> Vec<([f32; 3], [f32; 3])> {
    prims(scene, "ground").iter().flat_map(|p| p.positions.iter().copied().zip(p.normals.iter().copied())).collect()
}

/// Smooth normals from the corner heights: the area-weighted face normals of the tops meeting at a grid
/// corner at the same height. The flat cell's face sums to (0, 200, 0), the 45° slope's to (−200, 200, 0)
/// (twice its area, 141.4, along (−1, 1, 0)/√2): where they meet (x = 0) the normal is (−1, 2, 0)/√5; at
/// the slope's top (x = 10) the slope's own (−1, 1, 0)/√2; at the west edge up. A cliff (the flat cell 5
/// lower) keeps the edge sharp. Walls take their own face normal, on the side their winding faces.
#[test]
fn ground_normals_are_smooth_where_the_ground_is_continuous() {
    let scene = slope(0.0);
    let n = normals(&scene);
    assert_eq!(n.len(), 8);
    let near = |a: [f32; 3], b: [f32; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6);
    let (r5, r2) = (5f32.sqrt(), 2f32.sqrt());
    for (p, normal) in &n {
        let want = if p[0] == -10.0 {
            [0.0, 1.0, 0.0]
        } else if p[0] == 0.0 {
            [-1.0 / r5, 2.0 / r5, 0.0]
        } else {
            [-1.0 / r2, 1.0 / r2, 0.0]
        };
        assert!(near(*normal, want), "{p:?}: {normal:?} vs {want:?}");
    }
    for (p, normal) in normals(&slope(5.0)) {
        let want = if p[0] == -10.0 || p[1] == -5.0 { [0.0, 1.0, 0.0] } else { [-1.0 / r2, 1.0 / r2, 0.0] };
        assert!(near(normal, want), "cliff {p:?}: {normal:?} vs {want:?}");
    }
    // The sample's south wall of the raised cell (the front of (2, 0), on row 1: z = 10) faces south
    // (+Z), as its triangles wind; the raised top faces up; every normal is a unit vector.
    let sample = sample_scene();
    let all = normals(&sample);
    assert_eq!(all.len(), 20 * 4 + 4 * 4);
    assert!(all.iter().all(|(_, n)| (glam::Vec3::from_array(*n).length() - 1.0).abs() < 1e-6));
    for p in prims(&sample, "ground") {
        for t in p.indices.chunks(3) {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| glam::Vec3::from_array(p.positions[i as usize]));
            let face = (b - a).cross(c - a);
            for i in t {
                let normal = glam::Vec3::from_array(p.normals[*i as usize]);
                assert!(face.length() == 0.0 || normal.dot(face) > 0.0, "a normal against its winding");
            }
        }
    }
    assert!(all.iter().any(|(p, n)| close(*p, [-5.0, 0.0, 10.0]) && near(*n, [0.0, 0.0, 1.0])));
    assert!(all.iter().any(|(p, n)| close(*p, [-5.0, 10.0, 10.0]) && near(*n, [0.0, 1.0, 0.0])));
}

/// A ground with nothing drawn (no cube names a surface, the one texture unused: the property of
/// roBrowser's test ground) is a `ground` node without a mesh: glTF has no mesh without primitives.
#[test]
fn a_ground_with_nothing_drawn_has_no_empty_mesh() {
    let mut spec = sample_spec(7);
    for c in &mut spec.cubes {
        (c.top, c.front, c.right) = (-1, -1, -1);
    }
    let scene = ground_scene(&Gnd::read(&spec_bytes(&spec)).unwrap(), None, &GroundOptions::default()).unwrap();
    assert_eq!(scene.nodes.len(), 1);
    assert!(scene.nodes[0].name == "ground" && scene.nodes[0].mesh.is_none() && scene.meshes.is_empty());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.glb");
    std::fs::write(&path, relic::export::gltf::to_glb(&scene).unwrap()).unwrap();
    match relic::testing::validate_gltf(&[&path]) {
        Some(reports) => assert_eq!((reports[0].errors, reports[0].warnings), (0, 0), "{:#?}", reports[0].messages),
        None => assert!(std::env::var_os("CI").is_none(), "the validator must run under CI"),
    }
}

/// Water at level 5 (Y-down: 5 below the ground) over the one cell lower than level − wave height.
#[test]
fn water_height_and_extent() {
    let scene = sample_scene();
    let v = vertices(&scene, "water");
    assert_eq!(v.len(), 4);
    assert!(v.iter().all(|(p, _, _)| p[1] == -5.0));
    let xs: Vec<f32> = v.iter().map(|(p, _, _)| p[0]).collect();
    assert!(xs.contains(&15.0) && xs.contains(&25.0));
    let water = scene.materials.iter().find(|m| m.name == "water").unwrap();
    assert!(water.alpha_blend);
    // 1.7 has no water; an override draws one.
    let gnd = Gnd::read(&spec_bytes(&sample_spec(7))).unwrap();
    let scene = ground_scene(&gnd, None, &GroundOptions::default()).unwrap();
    assert!(scene.nodes.iter().all(|n| n.name != "water"));
    let other = Gnd::read(&spec_bytes(&sample_spec(9))).unwrap().water;
    let scene = ground_scene(&gnd, None, &GroundOptions { water_override: other, ..Default::default() }).unwrap();
    assert_eq!(vertices(&scene, "water").len(), 4);
}

/// One material per texture, named as stored, untextured when no lookup finds it.
#[test]
fn materials_per_texture() {
    let scene = sample_scene();
    let names: Vec<&str> = scene.materials.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["prontera\\p_ground01.bmp", "backside.bmp", "water"]);
    assert!(scene.materials[0].texture.is_none() && scene.materials[0].double_sided);
}

#[test]
fn khronos_validator_accepts_the_ground() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ground.glb");
    std::fs::write(&path, relic::export::gltf::to_glb(&sample_scene()).unwrap()).unwrap();
    if let Some(reports) = relic::testing::validate_gltf(&[&path]) {
        assert_eq!(reports[0].errors, 0, "{:#?}", reports[0].messages);
    }
}

/// `relic convert` of the sample: the ground scene, the height map (higher is brighter; top row
/// north) and the document, which packs back to the file.
#[test]
fn convert_gives_scene_heightmap_and_document() {
    let bytes = std::fs::read(SAMPLE).unwrap();
    let codec = registry::by_id("ro-gnd").unwrap();
    let out = codec.convert(&relic::registry::ConvertInput::new(&bytes, &Default::default())).unwrap();
    let names: Vec<_> = out.iter().map(|a| a.name.clone().unwrap_or_default()).collect();
    assert_eq!(names, ["ground.view", "heightmap.view", "."]);
    let relic::asset::Asset::Image(img) = &out[1].asset else { panic!() };
    let Pixels::Gray16(levels) = &img.frames[0].pixels else { panic!() };
    // Min −10 (the raised cell, brightest), max 10 (the sunk cell, 0), the rest 0 → 32768 (rounded).
    assert_eq!(levels.len(), 20);
    assert_eq!(levels[2 * 5 + 2], 65535); // cell (2, 1): image row 4 − 1 − 1 = 2
    assert_eq!(levels[4], 0); // cell (4, 3): top row
    assert_eq!(levels[0], 32768);
    let relic::asset::Asset::Document(doc) = &out[2].asset else { panic!() };
    assert_eq!(doc.value["ground"]["heightmap"]["min"], -10.0);
    assert_eq!(codec.from_json(doc.value.clone(), &Default::default()).unwrap(), bytes);
}

/// Textures are found as RSM textures are: `data\texture\<stored>` of the client folder the map sits
/// in (ASCII case ignored); a missing one leaves its material untextured and says so.
#[test]
fn textures_from_the_client_folder() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(data.join("texture/Prontera")).unwrap();
    let wall = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/ragnarok/wall.bmp");
    std::fs::copy(wall, data.join("texture/Prontera/P_Ground01.bmp")).unwrap();
    let map = data.join("map.gnd");
    std::fs::copy(SAMPLE, &map).unwrap();
    let opts = relic::registry::ConvertOptions::default();
    let out = registry::by_id("ro-gnd")
        .unwrap()
        .convert(&relic::registry::ConvertInput::at(&std::fs::read(&map).unwrap(), &map, &opts))
        .unwrap();
    let relic::asset::Asset::Scene(scene) = &out[0].asset else { panic!() };
    assert_eq!(scene.textures.len(), 1);
    assert_eq!(scene.textures[0].name, "prontera\\p_ground01.bmp");
    assert_eq!(scene.materials[0].texture, Some(0));
    assert!(scene.materials[1].texture.is_none());
    let notes = opts.notes.lock().unwrap().clone();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("data\\texture\\backside.bmp"), "{notes:?}");
}

/// Fuzz finding of issue 40 (`ro_gnd`): a 1.9 water grid of −1 × −1 zones read one zone (two negatives
/// made a grid of one) that the writer, counting a negative side as none, then refused. Both now hold no
/// zones there: the zone's bytes stay as trailing bytes and the file writes back byte for byte, also
/// through its JSON.
#[test]
fn a_water_grid_with_negative_sides_holds_no_zones_and_round_trips() {
    let mut spec = sample_spec(9);
    if let Some(w) = spec.water.as_mut() {
        w.across = -1;
        w.down = -1;
    }
    let bytes = spec_bytes(&spec);
    let gnd = Gnd::read(&bytes).unwrap();
    let water = gnd.water.as_ref().unwrap();
    assert_eq!((water.zones_across, water.zones_down), (-1, -1));
    assert!(water.zones.is_empty());
    // The one zone the spec writer wrote (level and settings, 24 bytes) is now trailing data.
    assert_eq!(gnd.trailing.0.len(), 24);
    assert_eq!(gnd.to_bytes().unwrap(), bytes);
    let codec = registry::by_id("ro-gnd").unwrap();
    assert_eq!(codec.from_json(codec.to_json(&bytes).unwrap(), &Default::default()).unwrap(), bytes);
}
