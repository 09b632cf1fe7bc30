//! GND bytes to [`Gnd`], through the bounded reader: every count is checked against the bytes that remain
//! before anything is allocated; errors name the field and its byte offset.

use super::types::*;
use super::FORMAT_ID;
use crate::bytes::Base64;
use crate::codec::float::F32;
use crate::error::Result;
use crate::reader::Reader;

fn non_negative(r: &Reader<'_>, v: i32, field: &str) -> Result<u32> {
    u32::try_from(v).map_err(|_| r.error(field, format!("{v} is negative")))
}

fn f32_bits(r: &mut Reader<'_>, field: &str) -> Result<F32> {
    Ok(F32::from_le_bytes(r.array::<4>(field)?))
}

fn read_settings(r: &mut Reader<'_>, field: &str) -> Result<WaterSettings> {
    Ok(WaterSettings {
        kind: r.i32(&format!("{field}.type"))?,
        wave_height: f32_bits(r, &format!("{field}.wave_height"))?,
        wave_speed: f32_bits(r, &format!("{field}.wave_speed"))?,
        wave_pitch: f32_bits(r, &format!("{field}.wave_pitch"))?,
        animation_speed: r.i32(&format!("{field}.animation_speed"))?,
    })
}

/// Parses a whole GND file (versions 1.5 to 1.9).
pub fn parse(bytes: &[u8]) -> Result<Gnd> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let magic = r.array::<4>("magic")?;
    if magic != MAGIC {
        return Err(r.error_at("magic", 0, format!("expected `GRGN`, found {magic:02X?}")));
    }
    let version = Version::new(r.u8("version.major")?, r.u8("version.minor")?);
    if !version.is_supported() {
        return Err(r.error_at("version", 4, format!("version {version} is not one relic reads (1.5 to 1.9)")));
    }
    let w = r.i32("width")?;
    let width = non_negative(&r, w, "width")?;
    let h = r.i32("height")?;
    let height = non_negative(&r, h, "height")?;
    let zoom = f32_bits(&mut r, "zoom")?;

    let n = r.i32("texture_count")?;
    let texture_count = non_negative(&r, n, "texture_count")?;
    let l = r.i32("texture_name_length")?;
    let texture_name_length = non_negative(&r, l, "texture_name_length")?;
    let name_len = texture_name_length as usize;
    let count = r.count(u64::from(texture_count), name_len, "textures")?;
    let mut textures = Vec::with_capacity(if name_len == 0 { 0 } else { count });
    for i in 0..count {
        textures.push(TextureName::from_field(r.bytes(name_len, &format!("textures[{i}]"))?));
    }

    let n = r.i32("lightmaps.count")?;
    let lm_count = non_negative(&r, n, "lightmaps.count")?;
    let mut lightmaps = Lightmaps {
        width: r.i32("lightmaps.width")?,
        height: r.i32("lightmaps.height")?,
        cells: r.i32("lightmaps.cells")?,
        count: lm_count,
        data: Base64::default(),
    };
    if lightmaps.width < 0 || lightmaps.height < 0 || lightmaps.cells < 0 {
        return Err(r.error("lightmaps", "a negative lightmap size"));
    }
    let per =
        lightmaps.checked_texels().map(|t| t * 4).ok_or_else(|| r.error("lightmaps", "lightmap size overflows"))?;
    let n = r.count(u64::from(lm_count), per, "lightmaps.data")?;
    let total = n.checked_mul(per).ok_or_else(|| r.error("lightmaps.data", "size overflows"))?;
    lightmaps.data = Base64(r.bytes(total, "lightmaps.data")?.to_vec());

    let n = r.i32("surface_count")?;
    let surface_count = non_negative(&r, n, "surface_count")?;
    let count = r.count(u64::from(surface_count), SURFACE_LEN, "surfaces")?;
    let mut surfaces = Vec::with_capacity(count);
    for _ in 0..count {
        let rec = r.array::<SURFACE_LEN>("surfaces")?;
        let mut s = Surface::default();
        let f = |k: usize| F32::from_le_bytes([rec[k], rec[k + 1], rec[k + 2], rec[k + 3]]);
        for c in 0..4 {
            s.u[c] = f(c * 4);
            s.v[c] = f(16 + c * 4);
        }
        s.texture = i16::from_le_bytes([rec[32], rec[33]]);
        s.lightmap = u16::from_le_bytes([rec[34], rec[35]]);
        s.bgra = [rec[36], rec[37], rec[38], rec[39]];
        surfaces.push(s);
    }

    let cells = u64::from(width) * u64::from(height);
    let surface_ids = if version.has_i32_surface_ids() {
        SurfaceIds::I32
    } else {
        // Before 1.7 the id width is disputed: the layout whose cube block fills the file exactly wins.
        let rest = r.remaining() as u64;
        let fits = |s: SurfaceIds| cells.checked_mul(s.cube_len() as u64);
        let candidates = [SurfaceIds::I32, SurfaceIds::I16x4, SurfaceIds::I16x3];
        candidates
            .into_iter()
            .find(|&s| fits(s) == Some(rest))
            .or_else(|| candidates.into_iter().find(|&s| fits(s).is_some_and(|need| need <= rest)))
            .unwrap_or(SurfaceIds::I32)
    };
    let count = r.count(cells, surface_ids.cube_len(), "cubes")?;
    let mut cubes = Vec::with_capacity(count);
    for _ in 0..count {
        let mut c = Cube::default();
        for h in &mut c.heights {
            *h = f32_bits(&mut r, "cubes.heights")?;
        }
        match surface_ids {
            SurfaceIds::I32 => {
                c.top = r.i32("cubes.top")?;
                c.front = r.i32("cubes.front")?;
                c.right = r.i32("cubes.right")?;
            }
            SurfaceIds::I16x4 | SurfaceIds::I16x3 => {
                c.top = i32::from(r.i16("cubes.top")?);
                c.front = i32::from(r.i16("cubes.front")?);
                c.right = i32::from(r.i16("cubes.right")?);
                if surface_ids == SurfaceIds::I16x4 {
                    c.extra = r.i16("cubes.extra")?;
                }
            }
        }
        cubes.push(c);
    }

    let water = if version.has_water() {
        let level = f32_bits(&mut r, "water.level")?;
        let settings = read_settings(&mut r, "water")?;
        let zones_across = r.i32("water.zones_across")?;
        let zones_down = r.i32("water.zones_down")?;
        let zone_len = if version.has_full_zones() { 24 } else { 4 };
        // A negative side holds no zones (two negatives do not make a grid), as the writer counts them.
        let n = u64::try_from(i64::from(zones_across).max(0) * i64::from(zones_down).max(0)).unwrap_or(0);
        // A 1.8 file may end before its zone levels (roBrowser reads none): they are then absent.
        let stored = version.has_full_zones() || n.checked_mul(zone_len).is_some_and(|b| b <= r.remaining() as u64);
        let mut zones = Vec::new();
        if stored && n > 0 {
            let count = r.count(n, zone_len as usize, "water.zones")?;
            zones.reserve_exact(count);
            for i in 0..count {
                let field = format!("water.zones[{i}]");
                let level = f32_bits(&mut r, &format!("{field}.level"))?;
                let settings = if version.has_full_zones() { Some(read_settings(&mut r, &field)?) } else { None };
                zones.push(WaterZone { level, settings });
            }
        }
        Some(Water { level, settings, zones_across, zones_down, zones })
    } else {
        None
    };
    let trailing = Base64(r.bytes(r.remaining(), "trailing")?.to_vec());
    Ok(Gnd {
        version,
        width,
        height,
        zoom,
        texture_name_length,
        textures,
        lightmaps,
        surfaces,
        cubes,
        surface_ids,
        water,
        trailing,
    })
}
