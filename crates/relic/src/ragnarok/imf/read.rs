//! IMF reader: every count (layers, actions, frames) is checked against the bytes that remain before
//! anything is allocated, so a hostile count costs nothing.

use super::types::*;
use super::FORMAT_ID;
use crate::codec::float::F32;
use crate::error::{Error, Result};
use crate::reader::Reader;

/// Parses an IMF file.
pub fn parse(data: &[u8]) -> Result<Imf> {
    let mut r = Reader::new(FORMAT_ID, data);
    let version = F32::from_le_bytes(r.array::<4>("version")?);
    let checksum = r.u32("checksum")?;
    let last_layer = r.u32("last_layer")?;
    // One layer more than the index of the last; a u32 plus one fits a u64.
    let layer_count = r.count(u64::from(last_layer) + 1, COUNT_LEN, "last_layer")?;
    let mut layers = Vec::with_capacity(layer_count);
    for l in 0..layer_count {
        let field = format!("layers[{l}].action_count");
        let action_count = r.u32(&field)?;
        let action_count = r.count(u64::from(action_count), COUNT_LEN, &field)?;
        let mut actions = Vec::with_capacity(action_count);
        for a in 0..action_count {
            let field = format!("layers[{l}][{a}].frame_count");
            let frame_count = r.u32(&field)?;
            let frame_count = r.count(u64::from(frame_count), FRAME_LEN, &field)?;
            let mut frames = Vec::with_capacity(frame_count);
            for f in 0..frame_count {
                let at = |part: &str| format!("layers[{l}][{a}][{f}].{part}");
                let priority = r.i32(&at("priority"))?;
                let x = r.i32(&at("x"))?;
                let y = r.i32(&at("y"))?;
                frames.push(Frame { priority, x, y });
            }
            actions.push(frames);
        }
        layers.push(actions);
    }
    let trailing = r.bytes(r.remaining(), "trailing")?.to_vec();
    Ok(Imf { version, checksum, layers, trailing: crate::bytes::Base64(trailing) })
}

/// `Error` for a document the writer refuses, naming the field.
pub(super) fn refuse(field: &str, message: impl std::fmt::Display) -> Error {
    Error::Refused(format!("{FORMAT_ID}: {field}: {message}"))
}
