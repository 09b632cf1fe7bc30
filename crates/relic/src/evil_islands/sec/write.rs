//! SEC writer: the layers in file order (land vertices, water vertices, land tiles, water tiles, water
//! materials); checked with the reader.

use super::read::parse;
use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};

fn refuse(field: &str, message: String) -> Error {
    Error::invalid(FORMAT_ID, field, 0, message)
}

fn exactly<T>(list: &[T], n: usize, field: &str) -> Result<()> {
    if list.len() == n {
        Ok(())
    } else {
        Err(refuse(field, format!("{} items where a sector has {n}", list.len())))
    }
}

/// Writes a SEC file. Refuses layers of the wrong size, and a water layer that does not agree with the
/// liquids byte (present exactly when it is not 0).
pub fn write(sec: &Sec) -> Result<Vec<u8>> {
    exactly(&sec.vertices, VERTICES, "vertices")?;
    exactly(&sec.tiles, TILES, "tiles")?;
    match (&sec.water, sec.liquids) {
        (Some(_), 0) => return Err(refuse("liquids", "0 (no water) but the sector has a water layer".into())),
        (None, l) if l != 0 => {
            return Err(refuse("liquids", format!("{l} (water follows) but the sector has no water layer")))
        }
        _ => {}
    }
    if let Some(w) = &sec.water {
        exactly(&w.vertices, VERTICES, "water.vertices")?;
        exactly(&w.tiles, TILES, "water.tiles")?;
        exactly(&w.materials, TILES, "water.materials")?;
    }
    let mut out = Vec::with_capacity(WET_SIZE + sec.trailing.0.len());
    out.extend(MAGIC);
    out.push(sec.liquids);
    let put_vertices = |out: &mut Vec<u8>, vs: &[Vertex]| {
        for v in vs {
            out.extend([v.dx as u8, v.dy as u8]);
            out.extend(v.z.to_le_bytes());
            out.extend(v.normal.to_le_bytes());
        }
    };
    put_vertices(&mut out, &sec.vertices);
    if let Some(w) = &sec.water {
        put_vertices(&mut out, &w.vertices);
    }
    for t in &sec.tiles {
        out.extend(t.0.to_le_bytes());
    }
    if let Some(w) = &sec.water {
        for t in &w.tiles {
            out.extend(t.0.to_le_bytes());
        }
        for m in &w.materials {
            out.extend(m.to_le_bytes());
        }
    }
    out.extend(&sec.trailing.0);
    parse(&out).map_err(|e| e.within("rebuilt file"))?;
    Ok(out)
}
