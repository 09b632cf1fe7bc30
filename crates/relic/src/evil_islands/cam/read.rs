//! CAM reader (spec "Cam", docs/formats/evil-islands.md#cam): 36-byte records to the end of the file.

use super::types::*;
use super::FORMAT_ID;
use crate::codec::float::F32;
use crate::error::Result;
use crate::reader::Reader;

/// Parses a CAM file. Its size must be a multiple of 36 bytes (an empty file has no records).
pub fn parse(bytes: &[u8]) -> Result<Cam> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let whole = bytes.len() / RECORD_SIZE;
    let partial = bytes.len() % RECORD_SIZE;
    if partial != 0 {
        return Err(r.error_at(
            &format!("records[{whole}]"),
            whole * RECORD_SIZE,
            format!("a partial record of {partial} bytes at the end (CAM records are {RECORD_SIZE} bytes)"),
        ));
    }
    let n = r.count(whole as u64, RECORD_SIZE, "records")?;
    let mut records = Vec::with_capacity(n);
    for i in 0..n {
        records.push(read_record(&mut r).map_err(|e| e.within(format_args!("records[{i}]")))?);
    }
    Ok(Cam { records })
}

fn f32(r: &mut Reader<'_>, field: &str) -> Result<F32> {
    r.array::<4>(field).map(F32::from_le_bytes)
}

fn read_record(r: &mut Reader<'_>) -> Result<Record<u32>> {
    Ok(Record {
        time: r.u32("time")?,
        unk_0x04: r.u32("unk_0x04")?,
        position: Vec3 { x: f32(r, "position.x")?, y: f32(r, "position.y")?, z: f32(r, "position.z")? },
        rotation: Quat {
            w: f32(r, "rotation.w")?,
            x: f32(r, "rotation.x")?,
            y: f32(r, "rotation.y")?,
            z: f32(r, "rotation.z")?,
        },
    })
}
