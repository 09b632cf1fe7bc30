//! CAM to the common model: a document of the records (time read as the option says) with a CSV table,
//! and the info summary.

use serde_json::json;

use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Document, Table};
use crate::codec::float::F32;
use crate::error::{Error, Result};
use crate::registry::ConvertOptions;

/// The option that picks the time reading: `--option ei-cam.time=u32|f32`.
pub const TIME_OPTION: &str = "ei-cam.time";

/// The time reading the options ask for (u32 by default).
pub fn time_reading(opts: &ConvertOptions) -> Result<TimeReading> {
    match opts.setting(TIME_OPTION) {
        None | Some("u32") => Ok(TimeReading::U32),
        Some("f32") => Ok(TimeReading::F32),
        Some(other) => Err(Error::Refused(format!("{TIME_OPTION}={other}: the time is read as u32 or f32"))),
    }
}

/// The document (the same JSON `pack ei-cam` reads) and a CSV table of the records.
pub fn to_document(cam: &Cam, reading: TimeReading) -> Result<Document> {
    let doc = CamDocument::new(cam, reading);
    let value = serde_json::to_value(&doc).map_err(|e| Error::Unsupported(format!("{FORMAT_ID}: JSON: {e}")))?;
    let columns = ["time", "unk_0x04", "x", "y", "z", "qw", "qx", "qy", "qz"].map(String::from).to_vec();
    let rows = cam
        .records
        .iter()
        .map(|r| {
            let time = match reading {
                TimeReading::U32 => r.time.to_string(),
                TimeReading::F32 => F32(r.time).to_text(),
            };
            let p = r.position;
            let q = r.rotation;
            let mut row = vec![time, r.unk_0x04.to_string()];
            row.extend([p.x, p.y, p.z, q.w, q.x, q.y, q.z].iter().map(|f| f.to_text()));
            row
        })
        .collect();
    Ok(Document { value, tables: vec![Table { name: "records".into(), columns, rows }] })
}

/// Summary for `relic info`: the record count and the time field's range in both readings.
pub fn info(cam: &Cam, file_size: usize) -> serde_json::Value {
    let first = cam.records.first().map(|r| r.time);
    let last = cam.records.last().map(|r| r.time);
    let increasing = cam.records.windows(2).all(|w| matches!(w, [a, b] if a.time <= b.time));
    json!({
        "format": FORMAT_ID,
        "records": cam.records.len(),
        "file_size": file_size,
        "first_time_u32": first,
        "last_time_u32": last,
        "first_time_f32": first.map(|t| F32(t).to_text()),
        "last_time_f32": last.map(|t| F32(t).to_text()),
        "time_u32_never_decreases": increasing,
    })
}
