//! [`Gnd`] to bytes: the layout of [`super::types`], the same bytes as read when nothing was edited. A
//! document whose parts do not agree (cube count against width × height, lightmap bytes against their
//! count and size, a texture name longer than its field, zones against their grid in 1.9) is refused.

use super::types::*;
use super::FORMAT_ID;
use crate::error::Result;
use crate::writer::Writer;

fn settings(w: &mut Writer, s: &WaterSettings) {
    w.i32(s.kind);
    w.f32_exact(s.wave_height);
    w.f32_exact(s.wave_speed);
    w.f32_exact(s.wave_pitch);
    w.i32(s.animation_speed);
}

/// The file's bytes.
pub fn write(gnd: &Gnd) -> Result<Vec<u8>> {
    let lm = &gnd.lightmaps;
    let mut w = Writer::with_capacity(
        FORMAT_ID,
        64 + gnd.textures.len() * gnd.texture_name_length as usize
            + lm.data.0.len()
            + gnd.surfaces.len() * SURFACE_LEN
            + gnd.cubes.len() * gnd.surface_ids.cube_len()
            + gnd.trailing.0.len(),
    );
    if !gnd.version.is_supported() {
        return Err(w.refused("version", format!("{} is not one relic writes (1.5 to 1.9)", gnd.version)));
    }
    let cells = u64::from(gnd.width) * u64::from(gnd.height);
    if gnd.cubes.len() as u64 != cells {
        return Err(w.refused(
            "cubes",
            format!("{} cubes for a {} × {} ground (needs {cells})", gnd.cubes.len(), gnd.width, gnd.height),
        ));
    }
    if gnd.version.has_i32_surface_ids() && gnd.surface_ids != SurfaceIds::I32 {
        return Err(w.refused("surface_ids", format!("version {} stores i32 surface ids", gnd.version)));
    }
    if lm.width < 0 || lm.height < 0 || lm.cells < 0 {
        return Err(w.refused("lightmaps", "a negative size"));
    }
    let need = (lm.count as usize).checked_mul(lm.per_lightmap());
    if need != Some(lm.data.0.len()) {
        return Err(w.refused(
            "lightmaps",
            format!("{} bytes of data for {} lightmaps of {} bytes", lm.data.0.len(), lm.count, lm.per_lightmap()),
        ));
    }
    w.bytes(&MAGIC);
    w.u8(gnd.version.major);
    w.u8(gnd.version.minor);
    w.count_i32("width", gnd.width as usize)?;
    w.count_i32("height", gnd.height as usize)?;
    w.f32_exact(gnd.zoom);
    w.count_i32("textures", gnd.textures.len())?;
    w.count_i32("texture_name_length", gnd.texture_name_length as usize)?;
    for (i, t) in gnd.textures.iter().enumerate() {
        let field = t.field(gnd.texture_name_length as usize).ok_or_else(|| {
            w.refused(
                &format!("textures[{i}]"),
                format!("`{}` has no CP949 form or is longer than {} bytes", t.text, gnd.texture_name_length),
            )
        })?;
        w.bytes(&field);
    }
    w.count_i32("lightmaps.count", lm.count as usize)?;
    w.i32(lm.width);
    w.i32(lm.height);
    w.i32(lm.cells);
    w.bytes(&lm.data.0);
    w.count_i32("surfaces", gnd.surfaces.len())?;
    for s in &gnd.surfaces {
        for &f in s.u.iter().chain(&s.v) {
            w.f32_exact(f);
        }
        w.i16(s.texture);
        w.u16(s.lightmap);
        w.bytes(&s.bgra);
    }
    for (i, c) in gnd.cubes.iter().enumerate() {
        for &h in &c.heights {
            w.f32_exact(h);
        }
        match gnd.surface_ids {
            SurfaceIds::I32 => {
                for v in [c.top, c.front, c.right] {
                    w.i32(v);
                }
            }
            SurfaceIds::I16x4 | SurfaceIds::I16x3 => {
                for v in [c.top, c.front, c.right] {
                    let v = i16::try_from(v).map_err(|_| {
                        w.refused(&format!("cubes[{i}]"), format!("surface id {v} does not fit 16 bits"))
                    })?;
                    w.i16(v);
                }
                if gnd.surface_ids == SurfaceIds::I16x4 {
                    w.i16(c.extra);
                }
            }
        }
    }
    match (&gnd.water, gnd.version.has_water()) {
        (Some(water), true) => {
            w.f32_exact(water.level);
            settings(&mut w, &water.settings);
            w.i32(water.zones_across);
            w.i32(water.zones_down);
            let n = i64::from(water.zones_across).max(0) * i64::from(water.zones_down).max(0);
            if gnd.version.has_full_zones() && water.zones.len() as i64 != n {
                return Err(w.refused(
                    "water",
                    format!("{} zones for a {} × {} grid", water.zones.len(), water.zones_across, water.zones_down),
                ));
            }
            for (i, z) in water.zones.iter().enumerate() {
                w.f32_exact(z.level);
                match (&z.settings, gnd.version.has_full_zones()) {
                    (Some(s), true) => settings(&mut w, s),
                    (None, false) => {}
                    (None, true) => return Err(w.refused(&format!("water.zones[{i}]"), "1.9 zones need every field")),
                    (Some(_), false) => {
                        return Err(w.refused(&format!("water.zones[{i}]"), "1.8 zones hold only a level"));
                    }
                }
            }
        }
        (None, false) => {}
        (None, true) => return Err(w.refused("water", format!("version {} needs water settings", gnd.version))),
        (Some(_), false) => return Err(w.refused("water", format!("version {} has no water settings", gnd.version))),
    }
    w.bytes(&gnd.trailing.0);
    Ok(w.into_bytes())
}
