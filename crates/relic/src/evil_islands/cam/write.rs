//! CAM writer: the records, 36 bytes each, checked with the reader.

use super::read::parse;
use super::types::*;
use super::FORMAT_ID;
use crate::error::Result;
use crate::writer::Writer;

/// Writes the records of a CAM file.
pub fn write(cam: &Cam) -> Result<Vec<u8>> {
    let mut w = Writer::with_capacity(FORMAT_ID, cam.records.len() * RECORD_SIZE);
    for r in &cam.records {
        w.u32(r.time);
        w.u32(r.unk_0x04);
        for f in [r.position.x, r.position.y, r.position.z, r.rotation.w, r.rotation.x, r.rotation.y, r.rotation.z] {
            w.f32_exact(f);
        }
    }
    let out = w.into_bytes();
    parse(&out).map_err(|e| e.within("rebuilt file"))?;
    Ok(out)
}
