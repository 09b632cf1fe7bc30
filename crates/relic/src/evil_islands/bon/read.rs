//! BON reader (spec "Bon", docs/formats/evil-islands.md#bon): vec3 offsets (3 × f32) to the end of the file.

use super::types::*;
use super::FORMAT_ID;
use crate::codec::float::F32;
use crate::error::Result;
use crate::reader::Reader;

/// Parses one part's BON data (not a RES bone set: see [`super::parse_set`]). Its size must be a
/// multiple of 12 bytes; an empty file is a part with no offsets (real figure RES archives hold empty
/// entries: the spec is silent on them).
pub fn parse(bytes: &[u8]) -> Result<Bon> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let whole = bytes.len() / OFFSET_SIZE;
    let partial = bytes.len() % OFFSET_SIZE;
    if partial != 0 {
        return Err(r.error_at(
            &format!("offsets[{whole}]"),
            whole * OFFSET_SIZE,
            format!("a partial offset of {partial} bytes at the end (offsets are 3 × f32, {OFFSET_SIZE} bytes)"),
        ));
    }
    let n = r.count(whole as u64, OFFSET_SIZE, "offsets")?;
    let mut offsets = Vec::with_capacity(n);
    for i in 0..n {
        offsets.push(vec3(&mut r).map_err(|e| e.within(format_args!("offsets[{i}]")))?);
    }
    Ok(Bon { offsets })
}

pub(crate) fn vec3(r: &mut Reader<'_>) -> Result<Vec3> {
    Ok([F32::from_le_bytes(r.array("x")?), F32::from_le_bytes(r.array("y")?), F32::from_le_bytes(r.array("z")?)])
}
