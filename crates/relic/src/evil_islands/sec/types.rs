//! SEC types: one sector as stored. Vertices keep their packed normal (11 + 11 + 10 bits) as a u32; tiles
//! are shown unpacked (6 + 8 + 2 bits, so nothing is lost).

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;

/// `74 F7 4B CF` (the u32 0xCF4BF774).
pub const MAGIC: [u8; 4] = [0x74, 0xF7, 0x4B, 0xCF];
/// Vertices per side of a sector (32 × 32 cells).
pub const SIDE: usize = 33;
/// Vertices of a layer.
pub const VERTICES: usize = SIDE * SIDE;
/// Tiles per side of a sector (each covers 2 × 2 cells).
pub const TILE_SIDE: usize = 16;
/// Tiles of a layer.
pub const TILES: usize = TILE_SIDE * TILE_SIDE;
/// Cells per side of a sector.
pub const CELLS: usize = 32;
/// One stored vertex: s8 dx, s8 dy, u16 z, u32 packed normal.
pub const VERTEX_SIZE: usize = 8;
/// Magic and the liquids byte.
pub const HEADER_SIZE: usize = 5;
/// A sector without water: header, land vertices, land tiles.
pub const DRY_SIZE: usize = HEADER_SIZE + VERTICES * VERTEX_SIZE + TILES * 2;
/// A sector with water: also the water vertices, water tiles and water materials.
pub const WET_SIZE: usize = DRY_SIZE + VERTICES * VERTEX_SIZE + TILES * 2 + TILES * 2;
/// The water material of a dry cell in a wet sector (its tile is 0xFFFF too).
pub const NO_LIQUID: u16 = 0xFFFF;

/// A SEC file: one 32 × 32-cell sector of a map, `<map>XXXYYY.sec` (sector x, then y, three digits each).
///
/// Its JSON form is laid out as the sector is: per layer, 33 rows of 33 values for each vertex field
/// (`dx`, `dy`, `z`, `normal`; row = y, column = x) and 16 rows of 16 tiles (see [`SecJson`]), with `"format":
/// "ei-sec"` first ([`crate::registry::tagged_document_json`]). Read with [`Sec::read`], written with
/// [`Sec::to_bytes`].
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::evil_islands::sec::Sec;
///
/// let bytes = std::fs::read("../../samples/evil_islands/isle000000.sec")?;
/// let sec = Sec::read(&bytes)?;
/// assert_eq!((sec.vertices.len(), sec.tiles.len()), (33 * 33, 16 * 16));
/// assert!(sec.water.is_none());
/// assert_eq!(sec.vertices[0].z, 9054);
/// assert_eq!(sec.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(into = "SecJson", try_from = "SecJson")]
pub struct Sec {
    /// The liquids byte: any value but 0 means a water layer follows (real files hold 3). Kept as stored.
    pub liquids: u8,
    /// 33 × 33 land vertices, row-major (row = y, column = x).
    pub vertices: Vec<Vertex>,
    /// 16 × 16 land tiles, row-major; tile (tx, ty) covers cells 2tx, 2tx + 1 × 2ty, 2ty + 1.
    pub tiles: Vec<Tile>,
    /// The water layer, present when `liquids` is not 0.
    pub water: Option<Water>,
    /// Bytes after the last layer (none in the files seen), kept so that writing gives the same file.
    pub trailing: Base64,
}

fn is_empty(b: &Base64) -> bool {
    b.0.is_empty()
}

/// The water layer of a sector.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Water {
    /// 33 × 33 water surface vertices (dx and dy signed, as the land's: docs/formats/evil-islands.md#sec-water).
    pub vertices: Vec<Vertex>,
    /// 16 × 16 water tiles (0xFFFF, shown as index 63, texture 255, rotation 3, on dry cells).
    pub tiles: Vec<Tile>,
    /// 16 × 16 water material indices into the map's materials; 0xFFFF (65535) on a dry cell.
    pub materials: Vec<u16>,
}

/// The JSON form of a [`Sec`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SecJson {
    pub liquids: u8,
    pub land: LayerJson,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub water: Option<WaterJson>,
    #[serde(default, skip_serializing_if = "is_empty")]
    pub trailing: Base64,
}

/// A layer in JSON: each vertex field as 33 rows of 33 values, the tiles as 16 rows of 16.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LayerJson {
    pub dx: Vec<Vec<i8>>,
    pub dy: Vec<Vec<i8>>,
    pub z: Vec<Vec<u16>>,
    pub normal: Vec<Vec<u32>>,
    pub tiles: Vec<Vec<Tile>>,
}

/// The water layer in JSON: a layer, and the water materials as 16 rows of 16.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WaterJson {
    pub dx: Vec<Vec<i8>>,
    pub dy: Vec<Vec<i8>>,
    pub z: Vec<Vec<u16>>,
    pub normal: Vec<Vec<u32>>,
    pub tiles: Vec<Vec<Tile>>,
    pub materials: Vec<Vec<u16>>,
}

fn rows<T: Copy>(items: impl Iterator<Item = T>, side: usize) -> Vec<Vec<T>> {
    let items: Vec<T> = items.collect();
    items.chunks(side).map(<[T]>::to_vec).collect()
}

fn layer_json(vertices: &[Vertex], tiles: &[Tile]) -> LayerJson {
    LayerJson {
        dx: rows(vertices.iter().map(|v| v.dx), SIDE),
        dy: rows(vertices.iter().map(|v| v.dy), SIDE),
        z: rows(vertices.iter().map(|v| v.z), SIDE),
        normal: rows(vertices.iter().map(|v| v.normal), SIDE),
        tiles: rows(tiles.iter().copied(), TILE_SIDE),
    }
}

/// The values of `grid` row by row, when it has `side` rows of `side`.
fn flat<T: Copy>(grid: &[Vec<T>], side: usize, field: &str) -> Result<Vec<T>, String> {
    if grid.len() != side || grid.iter().any(|r| r.len() != side) {
        let lens: Vec<usize> = grid.iter().map(Vec::len).collect();
        return Err(format!("`{field}` must be {side} rows of {side} values, not rows of {lens:?}"));
    }
    Ok(grid.iter().flatten().copied().collect())
}

fn layer_from(
    what: &str,
    [dx, dy]: [&[Vec<i8>]; 2],
    z: &[Vec<u16>],
    normal: &[Vec<u32>],
    tiles: &[Vec<Tile>],
) -> Result<(Vec<Vertex>, Vec<Tile>), String> {
    let dx = flat(dx, SIDE, &format!("{what}.dx"))?;
    let dy = flat(dy, SIDE, &format!("{what}.dy"))?;
    let z = flat(z, SIDE, &format!("{what}.z"))?;
    let normal = flat(normal, SIDE, &format!("{what}.normal"))?;
    let vertices = (0..VERTICES)
        .map(|i| Vertex {
            dx: dx.get(i).copied().unwrap_or_default(),
            dy: dy.get(i).copied().unwrap_or_default(),
            z: z.get(i).copied().unwrap_or_default(),
            normal: normal.get(i).copied().unwrap_or_default(),
        })
        .collect();
    Ok((vertices, flat(tiles, TILE_SIDE, &format!("{what}.tiles"))?))
}

impl From<Sec> for SecJson {
    fn from(s: Sec) -> Self {
        SecJson {
            liquids: s.liquids,
            land: layer_json(&s.vertices, &s.tiles),
            water: s.water.map(|w| {
                let l = layer_json(&w.vertices, &w.tiles);
                WaterJson {
                    dx: l.dx,
                    dy: l.dy,
                    z: l.z,
                    normal: l.normal,
                    tiles: l.tiles,
                    materials: rows(w.materials.iter().copied(), TILE_SIDE),
                }
            }),
            trailing: s.trailing,
        }
    }
}

impl TryFrom<SecJson> for Sec {
    type Error = String;
    fn try_from(j: SecJson) -> Result<Self, String> {
        let l = &j.land;
        let (vertices, tiles) = layer_from("land", [&l.dx, &l.dy], &l.z, &l.normal, &l.tiles)?;
        let water = match &j.water {
            Some(w) => {
                let (vertices, tiles) = layer_from("water", [&w.dx, &w.dy], &w.z, &w.normal, &w.tiles)?;
                Some(Water { vertices, tiles, materials: flat(&w.materials, TILE_SIDE, "water.materials")? })
            }
            None => None,
        };
        Ok(Sec { liquids: j.liquids, vertices, tiles, water, trailing: j.trailing })
    }
}

/// One vertex: its offset from the grid point in 1/254 of a cell, its altitude in 1/65535 of the map's
/// maximum altitude, and its packed normal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Vertex {
    pub dx: i8,
    pub dy: i8,
    pub z: u16,
    /// x in bits 11–21 and y in bits 0–10 (each `(v − 1000) / 1000`), z in bits 22–31 (`v / 1000`).
    pub normal: u32,
}

impl Vertex {
    /// The unpacked normal `[x, y, z]` (spec "Unpacking"), not normalised (real normals are not all unit).
    pub fn unpacked_normal(self) -> [f32; 3] {
        let n = self.normal;
        [
            (((n >> 11) & 0x7FF) as f32 - 1000.0) / 1000.0,
            ((n & 0x7FF) as f32 - 1000.0) / 1000.0,
            (n >> 22) as f32 / 1000.0,
        ]
    }
}

/// A tile: the packed u16 (`index` bits 0–5, `texture` bits 6–13, `rotation` bits 14–15), shown unpacked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(try_from = "TileFields", into = "TileFields")]
pub struct Tile(pub u16);

impl Tile {
    /// The tile within its atlas, 0–63 (8 × 8 tiles, row-major).
    pub fn index(self) -> u16 {
        self.0 & 63
    }
    /// The atlas (`<map>NNN.mmp`), 0–255.
    pub fn texture(self) -> u16 {
        (self.0 >> 6) & 255
    }
    /// Quarter turns, 0–3.
    pub fn rotation(self) -> u16 {
        self.0 >> 14
    }
    pub fn new(index: u16, texture: u16, rotation: u16) -> Option<Tile> {
        (index < 64 && texture < 256 && rotation < 4).then_some(Tile(index | texture << 6 | rotation << 14))
    }
}

/// The JSON form of a [`Tile`].
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct TileFields {
    index: u16,
    texture: u16,
    rotation: u16,
}

impl From<Tile> for TileFields {
    fn from(t: Tile) -> Self {
        TileFields { index: t.index(), texture: t.texture(), rotation: t.rotation() }
    }
}

impl TryFrom<TileFields> for Tile {
    type Error = String;
    fn try_from(f: TileFields) -> Result<Self, String> {
        Tile::new(f.index, f.texture, f.rotation).ok_or_else(|| {
            format!(
                "tile index {}, texture {}, rotation {}: the packed u16 holds index 0–63, texture 0–255, rotation 0–3",
                f.index, f.texture, f.rotation
            )
        })
    }
}
