//! ADB to the common model: the document (the same JSON `pack ei-adb` reads) with a CSV table of the
//! animations, and the info summary.

use serde_json::json;

use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Document, Table};
use crate::error::{Error, Result};

/// The lossless document.
pub fn to_document(adb: &Adb) -> AdbDocument {
    AdbDocument { format: FORMAT_ID.into(), adb: adb.clone() }
}

/// The document as an asset: JSON, and the animations as a CSV table.
pub fn to_asset(adb: &Adb) -> Result<Document> {
    let value =
        serde_json::to_value(to_document(adb)).map_err(|e| Error::Unsupported(format!("{FORMAT_ID}: JSON: {e}")))?;
    let mut columns = vec!["name".to_string(), "number".to_string()];
    columns.extend(FIELDS.iter().map(|f| f.0.to_string()));
    columns.extend(["other_bits", "action_probability", "animation_length", "movement_speed"].map(String::from));
    columns.extend(FRAME_FIELDS.iter().map(|f| f.to_string()));
    let rows = adb
        .animations
        .iter()
        .map(|a| {
            let mut row = vec![a.name.clone(), a.number.to_string()];
            row.extend(a.additionals.values().iter().map(u8::to_string));
            row.push(format!("{:?}", a.additionals.other_bits));
            row.push(a.action_probability.to_string());
            row.push(a.animation_length.to_string());
            row.push(a.movement_speed.to_text());
            row.extend(a.frames().iter().map(u32::to_string));
            row
        })
        .collect();
    Ok(Document { value, tables: vec![Table { name: "animations".into(), columns, rows }] })
}

/// Header summary for `relic info`.
pub fn info(adb: &Adb, file_size: usize) -> serde_json::Value {
    json!({
        "format": FORMAT_ID,
        "unit_name": adb.unit_name,
        "animations": adb.animations.len(),
        "min_height": adb.min_height,
        "mid_height": adb.mid_height,
        "max_height": adb.max_height,
        "trailing_bytes": adb.trailing.as_ref().map_or(0, |t| t.0.len()),
        "file_size": file_size,
    })
}
