//! MP writer: the header counts from the list lengths; checked with the reader.

use super::read::parse;
use super::types::*;
use super::FORMAT_ID;
use crate::error::Result;
use crate::writer::Writer;

/// Writes an MP file. Refuses more materials than a u16 counts, more tile types or animated tiles than a
/// u32 counts, and a material whose unknown field is not 12 bytes.
pub fn write(mp: &Mp) -> Result<Vec<u8>> {
    let mut w = Writer::with_capacity(
        FORMAT_ID,
        HEADER_SIZE
            + MATERIAL_SIZE * mp.materials.len()
            + TILE_TYPE_SIZE * mp.tile_types.len()
            + ANIMATED_TILE_SIZE * mp.animated_tiles.len()
            + mp.trailing.0.len(),
    );
    w.bytes(&MAGIC);
    w.f32_exact(mp.max_altitude);
    w.u32(mp.sectors_x);
    w.u32(mp.sectors_y);
    w.u32(mp.textures_count);
    w.u32(mp.texture_size);
    w.count_u32("tile_types", mp.tile_types.len())?;
    w.u32(mp.tile_size);
    w.count_u16("materials", mp.materials.len())?;
    w.count_u32("animated_tiles", mp.animated_tiles.len())?;
    for (i, m) in mp.materials.iter().enumerate() {
        w.u32(m.kind);
        for f in [m.color.r, m.color.g, m.color.b, m.color.a, m.self_illumination, m.wave_multiplier, m.warp_speed] {
            w.f32_exact(f);
        }
        if m.unk_0x20.0.len() != 12 {
            return Err(w.refused(
                &format!("materials[{i}].unk_0x20"),
                format!("{} bytes where the record has 12", m.unk_0x20.0.len()),
            ));
        }
        w.bytes(&m.unk_0x20.0);
    }
    for &t in &mp.tile_types {
        w.u32(t);
    }
    for a in &mp.animated_tiles {
        w.u16(a.start);
        w.u16(a.length);
    }
    w.bytes(&mp.trailing.0);
    let out = w.into_bytes();
    parse(&out).map_err(|e| e.within("rebuilt file"))?;
    Ok(out)
}
