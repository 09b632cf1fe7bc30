//! MP types: the map header as stored. The counts of materials, tile types and animated tiles are not kept:
//! they are the lengths of these lists.

use serde::{Deserialize, Serialize};

use crate::bytes::{Base64, Hex};
use crate::codec::float::F32;

/// `72 F6 4A CE` (the u32 0xCE4AF672).
pub const MAGIC: [u8; 4] = [0x72, 0xF6, 0x4A, 0xCE];
/// Magic, max altitude, 6 × u32, the u16 material count and the u32 animated-tile count (docs/formats/evil-islands.md#mp-header:
/// unaligned).
pub const HEADER_SIZE: usize = 38;
/// One material record (docs/formats/evil-islands.md#mp-header).
pub const MATERIAL_SIZE: usize = 44;
/// One tile type (u32).
pub const TILE_TYPE_SIZE: usize = 4;
/// One animated tile (2 × u16).
pub const ANIMATED_TILE_SIZE: usize = 4;

/// An MP file: the header of a map whose sectors are `<name>XXXYYY.sec` files. Read with [`Mp::read`], written
/// with [`Mp::to_bytes`]; its JSON is `serde_json::to_value` of it with `"format": "ei-mp"` first
/// ([`crate::registry::tagged_document_json`]).
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::codec::float::F32;
/// use relic::evil_islands::mp::Mp;
///
/// // A map of 2 × 1 sectors, one 256-pixel atlas of 32-pixel tiles, no materials.
/// let mp = Mp {
///     max_altitude: F32::new(40.0),
///     sectors_x: 2,
///     sectors_y: 1,
///     textures_count: 1,
///     texture_size: 256,
///     tile_size: 32,
///     ..Mp::default()
/// };
/// let bytes = mp.to_bytes()?;
/// assert_eq!(bytes[..4], [0x72, 0xF6, 0x4A, 0xCE]);
/// assert_eq!(bytes.len(), 38);
/// assert_eq!(Mp::read(&bytes)?, mp);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Mp {
    /// The height of a vertex whose stored altitude is 65535 (heights are stored as u16 fractions of it).
    pub max_altitude: F32,
    /// Sectors along x (the spec's `x_chunks_count`).
    pub sectors_x: u32,
    /// Sectors along y (the spec's `y_chunks_count`).
    pub sectors_y: u32,
    /// Texture atlases (`<name>000.mmp`, `<name>001.mmp`, …).
    pub textures_count: u32,
    /// Side of an atlas in pixels.
    pub texture_size: u32,
    /// Side of a tile in pixels.
    pub tile_size: u32,
    pub materials: Vec<Material>,
    /// The ground type of every atlas tile (the spec's `id_array`, `tiles_count` long): 0 grass, 1 ground,
    /// 2 stone, 3 sand, 4 rock, 5 field, 6 water, 7 road, 8 (empty), 9 snow, 10 ice, 11 dry grass,
    /// 12 snowballs, 13 lava, 14 swamp, 15 high rock. Tile `t` of atlas `a` is entry `64 · a + t`.
    pub tile_types: Vec<u32>,
    pub animated_tiles: Vec<AnimatedTile>,
    /// Bytes after the animated tiles (none in the files seen), kept so that writing gives the same file.
    #[serde(default, skip_serializing_if = "is_empty")]
    pub trailing: Base64,
}

fn is_empty(b: &Base64) -> bool {
    b.0.is_empty()
}

/// RGBA as four floats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Rgba {
    pub r: F32,
    pub g: F32,
    pub b: F32,
    pub a: F32,
}

/// One map material (44 bytes). Water cells of a sector name theirs by index.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Material {
    /// 0x00: the material type. Its meaning is unsettled (docs/formats/evil-islands.md#mp-materials): the spec's table says
    /// 0 base, 1 water without texture, 2 grass, 3 water; in the one real map seen, type 1 is an opaque
    /// earth colour and type 3 the water the water cells use.
    #[serde(rename = "type")]
    pub kind: u32,
    /// 0x04: diffuse colour.
    pub color: Rgba,
    /// 0x14.
    pub self_illumination: F32,
    /// 0x18: wave speed multiplier.
    pub wave_multiplier: F32,
    /// 0x1C: warp speed multiplier.
    pub warp_speed: F32,
    /// 0x20: 12 bytes the spec calls unknown (public readers guess a specular colour).
    pub unk_0x20: Hex,
}

/// An animated tile: `length` frames starting at atlas tile `start` (water, lava).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AnimatedTile {
    pub start: u16,
    pub length: u16,
}

/// The name of a tile ground type (the spec's `tile_type` enum), if it has one.
pub fn tile_type_name(t: u32) -> Option<&'static str> {
    const NAMES: [&str; 16] = [
        "grass",
        "ground",
        "stone",
        "sand",
        "rock",
        "field",
        "water",
        "road",
        "empty",
        "snow",
        "ice",
        "drygrass",
        "snowballs",
        "lava",
        "swamp",
        "highrock",
    ];
    usize::try_from(t).ok().and_then(|i| NAMES.get(i)).copied()
}
