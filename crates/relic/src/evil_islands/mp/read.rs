//! MP reader (spec "MP", docs/formats/evil-islands.md#mp-header): magic, f32 max altitude, 6 × u32 (sectors x, sectors y, texture
//! count, texture size, tile count, tile size), u16 material count, u32 animated-tile count, the 44-byte
//! materials, the u32 tile types and the (u16, u16) animated tiles.

use super::types::*;
use super::FORMAT_ID;
use crate::bytes::{Base64, Hex};
use crate::codec::float::F32;
use crate::error::Result;
use crate::reader::Reader;

fn f32(r: &mut Reader<'_>, field: &'static str) -> Result<F32> {
    r.array::<4>(field).map(F32::from_le_bytes)
}

/// Parses an MP file.
pub fn parse(bytes: &[u8]) -> Result<Mp> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let magic = r.array::<4>("magic")?;
    if magic != MAGIC {
        return Err(r.error_at("magic", 0, format!("expected 72f64ace, found {}", hex::encode(magic))));
    }
    let max_altitude = f32(&mut r, "max_altitude")?;
    let sectors_x = r.u32("x_chunks_count")?;
    let sectors_y = r.u32("y_chunks_count")?;
    let textures_count = r.u32("textures_count")?;
    let texture_size = r.u32("texture_size")?;
    let tiles_count = r.u32("tiles_count")?;
    let tile_size = r.u32("tile_size")?;
    let materials_count = r.u16("materials_count")?;
    let animated_count = r.u32("animated_tiles_count")?;

    let n = r.count(u64::from(materials_count), MATERIAL_SIZE, "materials")?;
    let mut materials = Vec::with_capacity(n);
    for i in 0..n {
        materials.push(read_material(&mut r).map_err(|e| e.within(format_args!("materials[{i}]")))?);
    }
    let n = r.count(u64::from(tiles_count), TILE_TYPE_SIZE, "id_array")?;
    let mut tile_types = Vec::with_capacity(n);
    for _ in 0..n {
        tile_types.push(r.u32("id_array")?);
    }
    let n = r.count(u64::from(animated_count), ANIMATED_TILE_SIZE, "animated_tiles")?;
    let mut animated_tiles = Vec::with_capacity(n);
    for _ in 0..n {
        // The count was checked against what remains, so these reads cannot fail.
        animated_tiles.push(AnimatedTile {
            start: r.u16("animated_tiles.start_index")?,
            length: r.u16("animated_tiles.length")?,
        });
    }
    let trailing = Base64(r.bytes(r.remaining(), "trailing")?.to_vec());
    Ok(Mp {
        max_altitude,
        sectors_x,
        sectors_y,
        textures_count,
        texture_size,
        tile_size,
        materials,
        tile_types,
        animated_tiles,
        trailing,
    })
}

fn read_material(r: &mut Reader<'_>) -> Result<Material> {
    Ok(Material {
        kind: r.u32("type")?,
        color: Rgba { r: f32(r, "color.r")?, g: f32(r, "color.g")?, b: f32(r, "color.b")?, a: f32(r, "color.a")? },
        self_illumination: f32(r, "self_illumination")?,
        wave_multiplier: f32(r, "wave_multiplier")?,
        warp_speed: f32(r, "warp_speed")?,
        unk_0x20: Hex(r.bytes(12, "unknown")?.to_vec()),
    })
}
