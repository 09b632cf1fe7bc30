//! ANM writer: the keys and frames as the reader reads them, checked with the reader.

use super::read::parse;
use super::types::*;
use super::FORMAT_ID;
use crate::error::Result;
use crate::writer::Writer;

/// Writes an ANM file. Refuses morphing frames without a `morph_vertex_count`, frames whose length is not
/// that count, and a file that would end where the vertex count is left out while bytes follow.
pub fn write(anm: &Anm) -> Result<Vec<u8>> {
    let mut w = Writer::new(FORMAT_ID);
    w.count_u32("rotations", anm.rotations.len())?;
    for q in &anm.rotations {
        for f in [q.w, q.x, q.y, q.z] {
            w.f32_exact(f);
        }
    }
    w.count_u32("translations", anm.translations.len())?;
    anm.translations.iter().flatten().for_each(|&f| w.f32_exact(f));
    w.count_u32("morph_frames", anm.morph_frames.len())?;
    match anm.morph_vertex_count {
        None if !anm.morph_frames.is_empty() => {
            return Err(w.refused("morph_vertex_count", "morphing frames need a morphing vertex count"))
        }
        None if !anm.trailing.0.is_empty() => {
            return Err(w.refused("morph_vertex_count", "bytes after the frames need a morphing vertex count"))
        }
        None => {}
        Some(vertices) => {
            w.u32(vertices);
            for (i, frame) in anm.morph_frames.iter().enumerate() {
                if u32::try_from(frame.len()).ok() != Some(vertices) {
                    return Err(w.refused(
                        &format!("morph_frames[{i}]"),
                        format!("{} shifts where morph_vertex_count is {vertices}", frame.len()),
                    ));
                }
                frame.iter().flatten().for_each(|&f| w.f32_exact(f));
            }
        }
    }
    w.bytes(&anm.trailing.0);
    let out = w.into_bytes();
    parse(&out).map_err(|e| e.within("rebuilt file"))?;
    Ok(out)
}
