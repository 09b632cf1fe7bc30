//! SEC writer: the layers in file order (land vertices, water vertices, land tiles, water tiles, water
//! materials); checked with the reader.

use super::read::parse;
use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};
use crate::writer::Writer;

fn exactly<T>(list: &[T], n: usize, field: &str) -> Result<()> {
    if list.len() == n {
        Ok(())
    } else {
        Err(Error::refused(FORMAT_ID, field, format!("{} items where a sector has {n}", list.len())))
    }
}

/// Writes a SEC file. Refuses layers of the wrong size, and a water layer that does not agree with the
/// liquids byte (present exactly when it is not 0).
pub fn write(sec: &Sec) -> Result<Vec<u8>> {
    exactly(&sec.vertices, VERTICES, "vertices")?;
    exactly(&sec.tiles, TILES, "tiles")?;
    let mut w = Writer::with_capacity(FORMAT_ID, WET_SIZE + sec.trailing.0.len());
    match (&sec.water, sec.liquids) {
        (Some(_), 0) => return Err(w.refused("liquids", "0 (no water) but the sector has a water layer")),
        (None, l) if l != 0 => {
            return Err(w.refused("liquids", format!("{l} (water follows) but the sector has no water layer")))
        }
        _ => {}
    }
    if let Some(water) = &sec.water {
        exactly(&water.vertices, VERTICES, "water.vertices")?;
        exactly(&water.tiles, TILES, "water.tiles")?;
        exactly(&water.materials, TILES, "water.materials")?;
    }
    w.bytes(&MAGIC);
    w.u8(sec.liquids);
    let put_vertices = |w: &mut Writer, vs: &[Vertex]| {
        for v in vs {
            w.i8(v.dx);
            w.i8(v.dy);
            w.u16(v.z);
            w.u32(v.normal);
        }
    };
    put_vertices(&mut w, &sec.vertices);
    if let Some(water) = &sec.water {
        put_vertices(&mut w, &water.vertices);
    }
    for t in &sec.tiles {
        w.u16(t.0);
    }
    if let Some(water) = &sec.water {
        for t in &water.tiles {
            w.u16(t.0);
        }
        for &m in &water.materials {
            w.u16(m);
        }
    }
    w.bytes(&sec.trailing.0);
    let out = w.into_bytes();
    parse(&out).map_err(|e| e.within("rebuilt file"))?;
    Ok(out)
}
