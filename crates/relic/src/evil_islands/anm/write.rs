//! ANM writer: the keys and frames as the reader reads them, checked with the reader.

use super::read::parse;
use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};

fn refuse(field: &str, message: String) -> Error {
    Error::invalid(FORMAT_ID, field, 0, message)
}

fn count(n: usize, field: &str) -> Result<u32> {
    u32::try_from(n).map_err(|_| refuse(field, format!("{n} is more than a u32 holds")))
}

/// Writes an ANM file. Refuses morphing frames without a `morph_vertex_count`, frames whose length is not
/// that count, and a file that would end where the vertex count is left out while bytes follow.
pub fn write(anm: &Anm) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    out.extend(count(anm.rotations.len(), "rotations")?.to_le_bytes());
    for q in &anm.rotations {
        for f in [q.w, q.x, q.y, q.z] {
            out.extend(f.to_le_bytes());
        }
    }
    out.extend(count(anm.translations.len(), "translations")?.to_le_bytes());
    out.extend(anm.translations.iter().flatten().flat_map(|f| f.to_le_bytes()));
    out.extend(count(anm.morph_frames.len(), "morph_frames")?.to_le_bytes());
    match anm.morph_vertex_count {
        None if !anm.morph_frames.is_empty() => {
            return Err(refuse("morph_vertex_count", "morphing frames need a morphing vertex count".into()))
        }
        None if !anm.trailing.0.is_empty() => {
            return Err(refuse("morph_vertex_count", "bytes after the frames need a morphing vertex count".into()))
        }
        None => {}
        Some(vertices) => {
            out.extend(vertices.to_le_bytes());
            for (i, frame) in anm.morph_frames.iter().enumerate() {
                if u32::try_from(frame.len()).ok() != Some(vertices) {
                    return Err(refuse(
                        &format!("morph_frames[{i}]"),
                        format!("{} shifts where morph_vertex_count is {vertices}", frame.len()),
                    ));
                }
                out.extend(frame.iter().flatten().flat_map(|f| f.to_le_bytes()));
            }
        }
    }
    out.extend_from_slice(&anm.trailing.0);
    parse(&out).map_err(|e| e.within("rebuilt file"))?;
    Ok(out)
}
