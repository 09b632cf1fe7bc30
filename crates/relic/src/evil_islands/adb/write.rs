//! ADB writer: header, records and trailing bytes, checked with the reader.

use super::read::parse;
use super::types::*;
use super::FORMAT_ID;
use crate::bytes::Base64;
use crate::codec::text::{encode, CP1251};
use crate::error::{Error, Result};
use crate::writer::Writer;

fn invalid(field: impl std::fmt::Display, why: impl std::fmt::Display) -> Error {
    Error::refused(FORMAT_ID, field, why)
}

/// A fixed-size cp1251 field from its text and the bytes kept after the NUL (zeros when none).
fn fixed_name(text: &str, tail: Option<&Base64>, size: usize, field: &str) -> Result<Vec<u8>> {
    if text.contains('\0') {
        return Err(invalid(field, "a name cannot contain NUL (bytes after the NUL go in the tail)"));
    }
    let mut bytes =
        encode(CP1251, text).ok_or_else(|| invalid(field, format!("`{text}` has characters cp1251 cannot hold")))?;
    if bytes.len() > size {
        return Err(invalid(field, format!("`{text}` is {} bytes; the field holds {size}", bytes.len())));
    }
    match tail {
        None => bytes.resize(size, 0),
        Some(Base64(t)) => {
            if bytes.len() + t.len() != size || t.first().is_some_and(|&b| b != 0) {
                return Err(invalid(
                    format!("{field}_tail"),
                    format!(
                        "must be the {} bytes after the name, starting with NUL (the name is {} bytes of {size})",
                        size - bytes.len(),
                        bytes.len()
                    ),
                ));
            }
            bytes.extend_from_slice(t);
        }
    }
    Ok(bytes)
}

/// Writes an ADB file.
pub fn write(adb: &Adb) -> Result<Vec<u8>> {
    let trailing = adb.trailing.as_ref().map_or(0, |t| t.0.len());
    let mut w = Writer::with_capacity(FORMAT_ID, HEADER_SIZE + RECORD_SIZE * adb.animations.len() + trailing);
    w.bytes(&MAGIC);
    w.count_u32("animations", adb.animations.len())?;
    w.bytes(&fixed_name(&adb.unit_name, adb.unit_name_tail.as_ref(), UNIT_NAME_SIZE, "unit_name")?);
    for h in [adb.min_height, adb.mid_height, adb.max_height] {
        w.f32_exact(h);
    }
    for (i, a) in adb.animations.iter().enumerate() {
        let field = |f: &str| format!("animations[{i}].{f}");
        w.bytes(&fixed_name(&a.name, a.name_tail.as_ref(), ANIMATION_NAME_SIZE, &field("name"))?);
        w.u32(a.number);
        w.u64(a.additionals.pack().map_err(|m| invalid(field("additionals"), m))?);
        w.u32(a.action_probability);
        w.u32(a.animation_length);
        w.f32_exact(a.movement_speed);
        for v in a.frames() {
            w.u32(v);
        }
    }
    if let Some(t) = &adb.trailing {
        w.bytes(&t.0);
    }
    let out = w.into_bytes();
    parse(&out).map_err(|e| e.within("rebuilt file"))?;
    Ok(out)
}
