//! [`Gnd`] to bytes: the layout of [`super::types`], the same bytes as read when nothing was edited. A
//! document whose parts do not agree (cube count against width × height, lightmap bytes against their
//! count and size, a texture name longer than its field, zones against their grid in 1.9) is refused.

use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};

fn refuse(what: impl Into<String>) -> Error {
    Error::Refused(format!("{FORMAT_ID}: {}", what.into()))
}

fn put_i32(out: &mut Vec<u8>, v: i32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn count(n: usize, what: &str) -> Result<i32> {
    i32::try_from(n).map_err(|_| refuse(format!("{what}: {n} is more than a GND can hold")))
}

fn settings(out: &mut Vec<u8>, s: &WaterSettings) {
    put_i32(out, s.kind);
    out.extend_from_slice(&s.wave_height.to_le_bytes());
    out.extend_from_slice(&s.wave_speed.to_le_bytes());
    out.extend_from_slice(&s.wave_pitch.to_le_bytes());
    put_i32(out, s.animation_speed);
}

/// The file's bytes.
pub fn write(gnd: &Gnd) -> Result<Vec<u8>> {
    if !gnd.version.is_supported() {
        return Err(refuse(format!("version {} is not one relic writes (1.5 to 1.9)", gnd.version)));
    }
    let cells = u64::from(gnd.width) * u64::from(gnd.height);
    if gnd.cubes.len() as u64 != cells {
        return Err(refuse(format!(
            "{} cubes for a {} × {} ground (needs {cells})",
            gnd.cubes.len(),
            gnd.width,
            gnd.height
        )));
    }
    if gnd.version.has_i32_surface_ids() && gnd.surface_ids != SurfaceIds::I32 {
        return Err(refuse(format!("version {} stores i32 surface ids", gnd.version)));
    }
    let lm = &gnd.lightmaps;
    if lm.width < 0 || lm.height < 0 || lm.cells < 0 {
        return Err(refuse("lightmaps: a negative size"));
    }
    let need = (lm.count as usize).checked_mul(lm.per_lightmap());
    if need != Some(lm.data.0.len()) {
        return Err(refuse(format!(
            "lightmaps: {} bytes of data for {} lightmaps of {} bytes",
            lm.data.0.len(),
            lm.count,
            lm.per_lightmap()
        )));
    }
    let mut out = Vec::with_capacity(
        64 + gnd.textures.len() * gnd.texture_name_length as usize
            + lm.data.0.len()
            + gnd.surfaces.len() * SURFACE_LEN
            + gnd.cubes.len() * gnd.surface_ids.cube_len()
            + gnd.trailing.0.len(),
    );
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&[gnd.version.major, gnd.version.minor]);
    put_i32(&mut out, count(gnd.width as usize, "width")?);
    put_i32(&mut out, count(gnd.height as usize, "height")?);
    out.extend_from_slice(&gnd.zoom.to_le_bytes());
    put_i32(&mut out, count(gnd.textures.len(), "textures")?);
    put_i32(&mut out, count(gnd.texture_name_length as usize, "texture_name_length")?);
    for (i, t) in gnd.textures.iter().enumerate() {
        let field = t.field(gnd.texture_name_length as usize).ok_or_else(|| {
            refuse(format!(
                "textures[{i}] `{}` has no CP949 form or is longer than {} bytes",
                t.text, gnd.texture_name_length
            ))
        })?;
        out.extend_from_slice(&field);
    }
    put_i32(&mut out, count(lm.count as usize, "lightmaps.count")?);
    put_i32(&mut out, lm.width);
    put_i32(&mut out, lm.height);
    put_i32(&mut out, lm.cells);
    out.extend_from_slice(&lm.data.0);
    put_i32(&mut out, count(gnd.surfaces.len(), "surfaces")?);
    for s in &gnd.surfaces {
        for f in s.u.iter().chain(&s.v) {
            out.extend_from_slice(&f.to_le_bytes());
        }
        out.extend_from_slice(&s.texture.to_le_bytes());
        out.extend_from_slice(&s.lightmap.to_le_bytes());
        out.extend_from_slice(&s.bgra);
    }
    for (i, c) in gnd.cubes.iter().enumerate() {
        for h in &c.heights {
            out.extend_from_slice(&h.to_le_bytes());
        }
        match gnd.surface_ids {
            SurfaceIds::I32 => {
                for v in [c.top, c.front, c.right] {
                    put_i32(&mut out, v);
                }
            }
            SurfaceIds::I16x4 | SurfaceIds::I16x3 => {
                for v in [c.top, c.front, c.right] {
                    let v = i16::try_from(v)
                        .map_err(|_| refuse(format!("cubes[{i}]: surface id {v} does not fit 16 bits")))?;
                    out.extend_from_slice(&v.to_le_bytes());
                }
                if gnd.surface_ids == SurfaceIds::I16x4 {
                    out.extend_from_slice(&c.extra.to_le_bytes());
                }
            }
        }
    }
    match (&gnd.water, gnd.version.has_water()) {
        (Some(w), true) => {
            out.extend_from_slice(&w.level.to_le_bytes());
            settings(&mut out, &w.settings);
            put_i32(&mut out, w.zones_across);
            put_i32(&mut out, w.zones_down);
            let n = i64::from(w.zones_across).max(0) * i64::from(w.zones_down).max(0);
            if gnd.version.has_full_zones() && w.zones.len() as i64 != n {
                return Err(refuse(format!(
                    "water: {} zones for a {} × {} grid",
                    w.zones.len(),
                    w.zones_across,
                    w.zones_down
                )));
            }
            for (i, z) in w.zones.iter().enumerate() {
                out.extend_from_slice(&z.level.to_le_bytes());
                match (&z.settings, gnd.version.has_full_zones()) {
                    (Some(s), true) => settings(&mut out, s),
                    (None, false) => {}
                    (None, true) => return Err(refuse(format!("water.zones[{i}]: 1.9 zones need every field"))),
                    (Some(_), false) => {
                        return Err(refuse(format!("water.zones[{i}]: 1.8 zones hold only a level")));
                    }
                }
            }
        }
        (None, false) => {}
        (None, true) => return Err(refuse(format!("version {} needs water settings", gnd.version))),
        (Some(_), false) => return Err(refuse(format!("version {} has no water settings", gnd.version))),
    }
    out.extend_from_slice(&gnd.trailing.0);
    Ok(out)
}
