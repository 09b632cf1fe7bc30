//! CAM writer: the records, 36 bytes each, checked with the reader.

use super::read::parse;
use super::types::*;
use crate::error::Result;

/// Writes the records of a CAM file.
pub fn write(cam: &Cam) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(cam.records.len() * RECORD_SIZE);
    for r in &cam.records {
        out.extend_from_slice(&r.time.to_le_bytes());
        out.extend_from_slice(&r.unk_0x04.to_le_bytes());
        for f in [r.position.x, r.position.y, r.position.z, r.rotation.w, r.rotation.x, r.rotation.y, r.rotation.z] {
            out.extend_from_slice(&f.to_le_bytes());
        }
    }
    parse(&out).map_err(|e| e.within("rebuilt file"))?;
    Ok(out)
}
