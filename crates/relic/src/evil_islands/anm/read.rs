//! ANM reader (spec "ANM", docs/formats/evil-islands.md#anm): u32 rotation count and quaternions (w, x, y, z), u32
//! translation count and vec3s, u32 morphing frame count, u32 morphing vertex count (absent at the end of
//! the file when there are no frames), then the frames.

use super::types::*;
use super::FORMAT_ID;
use crate::bytes::Base64;
use crate::codec::float::F32;
use crate::error::{Error, Result};
use crate::reader::Reader;

/// Parses an ANM file (one part's animation, not an animation RES).
pub fn parse(bytes: &[u8]) -> Result<Anm> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let count = r.u32("rotation_frames_count")?;
    let n = r.count(u64::from(count), 16, "rotation_frames_count")?;
    let mut rotations = Vec::with_capacity(n);
    for i in 0..n {
        let q =
            (|| Ok(Quat { w: f32(&mut r, "w")?, x: f32(&mut r, "x")?, y: f32(&mut r, "y")?, z: f32(&mut r, "z")? }))();
        rotations.push(q.map_err(|e: Error| e.within(format_args!("rotation_frames[{i}]")))?);
    }

    let count = r.u32("translation_frames_count")?;
    let n = r.count(u64::from(count), 12, "translation_frames_count")?;
    let mut translations = Vec::with_capacity(n);
    for i in 0..n {
        translations.push(vec3(&mut r).map_err(|e| e.within(format_args!("translation_frames[{i}]")))?);
    }

    let frames = r.u32("morphing_frames_count")?;
    if frames == 0 && r.remaining() == 0 {
        return Ok(Anm {
            rotations,
            translations,
            morph_vertex_count: None,
            morph_frames: Vec::new(),
            trailing: Base64::default(),
        });
    }
    let vertices = r.u32("morphing_vertex_count")?;
    let frame_size = usize::try_from(u64::from(vertices) * 12).map_err(|_| {
        Error::limit(FORMAT_ID, "morphing_vertex_count", r.offset() - 4, format!("{vertices} vertices per frame"))
    })?;
    let n = r.count(u64::from(frames), frame_size, "morphing_frames_count")?;
    // Checked only when frames follow: a file without frames may still state a vertex count.
    let per_frame = if n == 0 { 0 } else { r.count(u64::from(vertices), 12, "morphing_vertex_count")? };
    let mut morph_frames = Vec::with_capacity(n);
    for f in 0..n {
        let mut frame = Vec::with_capacity(per_frame);
        for v in 0..per_frame {
            let at = |e: Error| e.within(format_args!("morphing_frames[{f}].vertex_shift[{v}]"));
            frame.push(vec3(&mut r).map_err(at)?);
        }
        morph_frames.push(frame);
    }
    let trailing = Base64(r.bytes(r.remaining(), "trailing")?.to_vec());
    Ok(Anm { rotations, translations, morph_vertex_count: Some(vertices), morph_frames, trailing })
}

fn f32(r: &mut Reader<'_>, field: &str) -> Result<F32> {
    r.array::<4>(field).map(F32::from_le_bytes)
}

fn vec3(r: &mut Reader<'_>) -> Result<Vec3> {
    Ok([f32(r, "x")?, f32(r, "y")?, f32(r, "z")?])
}
