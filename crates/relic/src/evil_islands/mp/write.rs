//! MP writer: the header counts from the list lengths; checked with the reader.

use super::read::parse;
use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};

fn refuse(field: &str, message: String) -> Error {
    Error::invalid(FORMAT_ID, field, 0, message)
}

/// Writes an MP file. Refuses more materials than a u16 counts, more tile types or animated tiles than a
/// u32 counts, and a material whose unknown field is not 12 bytes.
pub fn write(mp: &Mp) -> Result<Vec<u8>> {
    let materials = u16::try_from(mp.materials.len())
        .map_err(|_| refuse("materials", format!("{} materials: the count is a u16", mp.materials.len())))?;
    let tiles = u32::try_from(mp.tile_types.len())
        .map_err(|_| refuse("tile_types", format!("{} tile types: the count is a u32", mp.tile_types.len())))?;
    let animated = u32::try_from(mp.animated_tiles.len()).map_err(|_| {
        refuse("animated_tiles", format!("{} animated tiles: the count is a u32", mp.animated_tiles.len()))
    })?;
    let mut out = Vec::with_capacity(
        HEADER_SIZE
            + MATERIAL_SIZE * mp.materials.len()
            + TILE_TYPE_SIZE * mp.tile_types.len()
            + ANIMATED_TILE_SIZE * mp.animated_tiles.len()
            + mp.trailing.0.len(),
    );
    out.extend(MAGIC);
    out.extend(mp.max_altitude.to_le_bytes());
    for v in [mp.sectors_x, mp.sectors_y, mp.textures_count, mp.texture_size, tiles, mp.tile_size] {
        out.extend(v.to_le_bytes());
    }
    out.extend(materials.to_le_bytes());
    out.extend(animated.to_le_bytes());
    for (i, m) in mp.materials.iter().enumerate() {
        out.extend(m.kind.to_le_bytes());
        for f in [m.color.r, m.color.g, m.color.b, m.color.a, m.self_illumination, m.wave_multiplier, m.warp_speed] {
            out.extend(f.to_le_bytes());
        }
        if m.unk_0x20.0.len() != 12 {
            return Err(refuse(
                &format!("materials[{i}].unk_0x20"),
                format!("{} bytes where the record has 12", m.unk_0x20.0.len()),
            ));
        }
        out.extend(&m.unk_0x20.0);
    }
    for t in &mp.tile_types {
        out.extend(t.to_le_bytes());
    }
    for a in &mp.animated_tiles {
        out.extend(a.start.to_le_bytes());
        out.extend(a.length.to_le_bytes());
    }
    out.extend(&mp.trailing.0);
    parse(&out).map_err(|e| e.within("rebuilt file"))?;
    Ok(out)
}
