//! Sectors to a terrain scene and a height map: the geometry shared by `ei-mp` (a whole map) and `ei-sec`
//! (one sector).
//!
//! Placement (docs/formats/evil-islands.md#sec-vertices): vertex (column c, row r) of sector (sx, sy) lies at map
//! `x = 32·sx + c + dx/254`, `y = 32·sy + r + dy/254`, height `z · max_altitude / 65535`. The map is z-up;
//! glTF is y-up, so the scene holds `(x, height, −y)` (a rotation: the map seen from above keeps its
//! handedness, x to the right and y up the screen). Cells are split along the diagonal from (c, r) to
//! (c + 1, r + 1) (the spec's "comb"), both triangles facing up.
//!
//! Texturing: every 2 × 2-cell tile has its own 9 vertices, so that each tile samples its own square of
//! its atlas (`<map>NNN.mmp`, 8 × 8 tiles of `index` = row · 8 + column). Two public engine
//! re-implementations agree that atlas rows count from the bottom of the stored image and that the tile's
//! own y runs up it, which is the atlas lying the right way round on a map seen from above; relic does the
//! same. A tile's rotation turns its square `rotation` quarter turns clockwise as seen from above (the
//! texture coordinate of local point p is the tile's point `turn(p − ½) + ½` with
//! `turn(x, y) = (−y, x)` per step, as one of those re-implementations does). Neither is in the spec.
//!
//! The land is one mesh with a primitive per atlas; the water is a second mesh with a primitive per
//! (water material, atlas), alpha-blended and double-sided, drawn only over cells whose water material is
//! not 0xFFFF.

use std::collections::BTreeMap;

use crate::asset::{Frame, FrameRole, Image, Material, Mesh, Node, Pixels, Primitive, Scene, Texture, Transform};
use crate::error::Result;
use crate::evil_islands::sec::types::{Sec, Tile, Vertex, CELLS, NO_LIQUID, SIDE, TILE_SIDE};

use super::types::Mp;

/// Tiles per side of an atlas (docs/formats/evil-islands.md#sec-atlas).
pub const ATLAS_TILES: u16 = 8;
/// The divisor of stored altitudes (the spec's; whether the game uses 65534 is unsettled).
pub const ALTITUDE_DIVISOR: f64 = 65535.0;
/// Base colour of water when the map gives none (a lone sector): blue, 60 % opaque.
pub const DEFAULT_WATER: [f32; 4] = [0.2, 0.4, 0.8, 0.6];
/// Base colour of land whose atlas was not found.
pub const UNTEXTURED_LAND: [f32; 4] = [0.55, 0.55, 0.5, 1.0];

/// A sector and its place on the map.
pub struct Placed<'a> {
    pub x: u32,
    pub y: u32,
    pub sec: &'a Sec,
}

/// What the scene is built with besides the sectors.
pub struct Setting<'a> {
    /// The map's maximum altitude (the height of a stored 65535).
    pub max_altitude: f32,
    /// The map header, for the water materials' colours (none for a lone sector).
    pub mp: Option<&'a Mp>,
    /// The atlas images by atlas number, where found.
    pub atlases: &'a BTreeMap<u16, Image>,
    /// The map name atlases are named after (`<name>000.mmp`).
    pub map_name: &'a str,
}

/// The atlas file name of atlas `n` of map `map`.
pub fn atlas_name(map: &str, n: u16) -> String {
    format!("{map}{n:03}.mmp")
}

/// The map position `(x, y, height)` of vertex `index` (row-major 33 × 33) of a layer of sector (sx, sy).
pub fn vertex_position(sx: u32, sy: u32, index: usize, v: Vertex, scale: f64) -> [f64; 3] {
    let col = (index % SIDE) as f64;
    let row = (index / SIDE) as f64;
    [
        f64::from(sx) * CELLS as f64 + col + f64::from(v.dx) / 254.0,
        f64::from(sy) * CELLS as f64 + row + f64::from(v.dy) / 254.0,
        f64::from(v.z) * scale,
    ]
}

/// A map position as a glTF (y-up) position.
pub fn to_gltf([x, y, h]: [f64; 3]) -> [f32; 3] {
    [x as f32, h as f32, -y as f32]
}

/// The texture coordinate of local point (i/2, j/2) of a tile (i, j = 0, 1, 2 along x and y).
pub fn tile_uv(tile: Tile, i: usize, j: usize) -> [f32; 2] {
    let (px, py) = (i as f32 * 0.5 - 0.5, j as f32 * 0.5 - 0.5);
    let (sx, sy) = match tile.rotation() {
        0 => (px, py),
        1 => (-py, px),
        2 => (-px, -py),
        _ => (py, -px),
    };
    let (sx, sy) = (sx + 0.5, sy + 0.5);
    let column = f32::from(tile.index() % ATLAS_TILES);
    let row = f32::from(tile.index() / ATLAS_TILES);
    let n = f32::from(ATLAS_TILES);
    [(column + sx) / n, 1.0 - (row + sy) / n]
}

fn normal(v: Vertex) -> [f32; 3] {
    let [x, y, z] = v.unpacked_normal();
    let len = (x * x + y * y + z * z).sqrt();
    if len > 1e-6 {
        [x / len, z / len, -y / len]
    } else {
        [0.0, 1.0, 0.0]
    }
}

/// Adds tile (tx, ty) of a layer to `prim`: 9 vertices, 8 triangles.
fn add_tile(prim: &mut Primitive, layer: &[Vertex], at: (u32, u32), (tx, ty): (usize, usize), tile: Tile, scale: f64) {
    let base = prim.positions.len() as u32;
    for j in 0..3 {
        for i in 0..3 {
            let index = (2 * ty + j) * SIDE + 2 * tx + i;
            let v = layer.get(index).copied().unwrap_or_default();
            prim.positions.push(to_gltf(vertex_position(at.0, at.1, index, v, scale)));
            prim.normals.push(normal(v));
            prim.uvs.push(tile_uv(tile, i, j));
        }
    }
    for cj in 0..2 {
        for ci in 0..2 {
            let a = base + cj * 3 + ci;
            let (b, c, d) = (a + 1, a + 3, a + 4);
            prim.indices.extend([a, b, d, a, d, c]);
        }
    }
}

fn clamp_colour(c: [f32; 4], fallback: [f32; 4]) -> [f32; 4] {
    if c.iter().all(|v| v.is_finite()) {
        c.map(|v| v.clamp(0.0, 1.0))
    } else {
        fallback
    }
}

/// The base colour of water material `m`: the map material's colour (blue when the map has none).
fn water_colour(mp: Option<&Mp>, m: u16) -> [f32; 4] {
    match mp.and_then(|mp| mp.materials.get(usize::from(m))) {
        Some(mat) => {
            let c = mat.color;
            clamp_colour([c.r.get(), c.g.get(), c.b.get(), c.a.get()], DEFAULT_WATER)
        }
        None => DEFAULT_WATER,
    }
}

/// Builds the terrain scene: node `terrain` with children `land` and (when a sector has water) `water`.
pub fn scene(sectors: &[Placed<'_>], setting: &Setting<'_>) -> Scene {
    let scale = f64::from(setting.max_altitude) / ALTITUDE_DIVISOR;
    let mut land: BTreeMap<u16, Primitive> = BTreeMap::new();
    let mut water: BTreeMap<(u16, u16), Primitive> = BTreeMap::new();
    for s in sectors {
        for (t, tile) in s.sec.tiles.iter().enumerate().take(TILE_SIDE * TILE_SIDE) {
            let prim = land.entry(tile.texture()).or_default();
            add_tile(prim, &s.sec.vertices, (s.x, s.y), (t % TILE_SIDE, t / TILE_SIDE), *tile, scale);
        }
        let Some(w) = &s.sec.water else { continue };
        for (t, (tile, &m)) in w.tiles.iter().zip(&w.materials).enumerate().take(TILE_SIDE * TILE_SIDE) {
            if m == NO_LIQUID {
                continue;
            }
            let prim = water.entry((m, tile.texture())).or_default();
            add_tile(prim, &w.vertices, (s.x, s.y), (t % TILE_SIDE, t / TILE_SIDE), *tile, scale);
        }
    }

    let mut scene = Scene::default();
    let mut texture_of: BTreeMap<u16, usize> = BTreeMap::new();
    let mut texture = |scene: &mut Scene, atlas: u16| -> Option<usize> {
        if let Some(&i) = texture_of.get(&atlas) {
            return Some(i);
        }
        let image = setting.atlases.get(&atlas)?;
        scene.textures.push(Texture { name: atlas_name(setting.map_name, atlas), image: image.clone() });
        texture_of.insert(atlas, scene.textures.len() - 1);
        Some(scene.textures.len() - 1)
    };
    let mut land_prims = Vec::with_capacity(land.len());
    for (atlas, mut prim) in land {
        let tex = texture(&mut scene, atlas);
        scene.materials.push(Material {
            name: format!("land {}", atlas_name(setting.map_name, atlas)),
            base_color: if tex.is_some() { [1.0; 4] } else { UNTEXTURED_LAND },
            texture: tex,
            ..Material::default()
        });
        prim.material = Some(scene.materials.len() - 1);
        land_prims.push(prim);
    }
    let mut water_prims = Vec::with_capacity(water.len());
    for ((m, atlas), mut prim) in water {
        let tex = texture(&mut scene, atlas);
        let colour = water_colour(setting.mp, m);
        scene.materials.push(Material {
            name: format!("water material {m} {}", atlas_name(setting.map_name, atlas)),
            // Textured water shows the atlas with the material's opacity (the game draws the texture,
            // not the colour); untextured water shows the colour.
            base_color: if tex.is_some() { [1.0, 1.0, 1.0, colour[3]] } else { colour },
            texture: tex,
            double_sided: true,
            alpha_blend: true,
            ..Material::default()
        });
        prim.material = Some(scene.materials.len() - 1);
        water_prims.push(prim);
    }

    let node = |name: &str, mesh: Option<usize>, children: Vec<usize>| Node {
        name: name.into(),
        transform: Transform::Matrix(IDENTITY),
        children,
        mesh,
        ..Default::default()
    };
    scene.nodes.push(node(setting.map_name, None, vec![]));
    scene.roots.push(0);
    if !land_prims.is_empty() {
        scene.meshes.push(Mesh { name: "land".into(), primitives: land_prims, ..Default::default() });
        scene.nodes.push(node("land", Some(scene.meshes.len() - 1), vec![]));
    }
    if !water_prims.is_empty() {
        scene.meshes.push(Mesh { name: "water".into(), primitives: water_prims, ..Default::default() });
        scene.nodes.push(node("water", Some(scene.meshes.len() - 1), vec![]));
    }
    let children = (1..scene.nodes.len()).collect();
    if let Some(root) = scene.nodes.first_mut() {
        root.children = children;
    }
    scene
}

const IDENTITY: [f32; 16] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];

/// The height map of `sectors_x × sectors_y` sectors: `(32·sectors_x + 1) × (32·sectors_y + 1)` 16-bit grey
/// pixels holding the stored land altitudes (metres = value · max_altitude / 65535), the map seen from
/// above: the top row is the last vertex row (largest y), x to the right. Where two sectors share an edge
/// the sector further along x (or y) gives the value; missing sectors are 0.
pub fn heightmap(sectors: &[Placed<'_>], sectors_x: u32, sectors_y: u32) -> Result<Image> {
    heightmap_region(sectors, (0, 0), (sectors_x, sectors_y))
}

/// The height map of the `count.0 × count.1` sectors starting at sector `first` (as [`heightmap`] does for
/// the whole map from (0, 0)): what lies outside is left out, so a map that claims 1000 × 1000 sectors but
/// holds a few far from (0, 0) gives a small image. Refused over `--max-pixels` (`crate::limits`).
pub fn heightmap_region(sectors: &[Placed<'_>], first: (u32, u32), count: (u32, u32)) -> Result<Image> {
    let (sectors_x, sectors_y) = count;
    let side = |n: u32| n.checked_mul(CELLS as u32).and_then(|v| v.checked_add(1));
    let (Some(width), Some(height)) = (side(sectors_x), side(sectors_y)) else {
        return Err(crate::Error::Unsupported(format!(
            "a height map of {sectors_x} × {sectors_y} sectors is too large"
        )));
    };
    crate::limits::check_pixels("ei-mp height map", width, height)?;
    let (w, h) = (width as usize, height as usize);
    let mut levels = vec![0u16; w * h];
    let mut order: Vec<&Placed<'_>> = sectors.iter().collect();
    order.sort_by_key(|s| (s.y, s.x));
    for s in order {
        let (Some(sx), Some(sy)) = (s.x.checked_sub(first.0), s.y.checked_sub(first.1)) else { continue };
        if sx >= sectors_x || sy >= sectors_y {
            continue;
        }
        for (i, v) in s.sec.vertices.iter().enumerate().take(SIDE * SIDE) {
            let gx = sx as usize * CELLS + i % SIDE;
            let gy = sy as usize * CELLS + i / SIDE;
            if gx < w && gy < h {
                if let Some(p) = levels.get_mut((h - 1 - gy) * w + gx) {
                    *p = v.z;
                }
            }
        }
    }
    Ok(Image {
        frames: vec![Frame {
            name: None,
            width,
            height,
            pixels: Pixels::Gray16(levels),
            offset: (0, 0),
            hotspots: vec![],
            role: FrameRole::Frame,
        }],
        palette: None,
        frame_rate: None,
        text: Vec::new(),
    })
}
