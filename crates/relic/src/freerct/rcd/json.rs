//! The lossless JSON document of an RCD file (`convert --to json`, `pack`): the file version and one
//! object per block in file order, `{block, magic, version, …}` followed by the block's fields. Pixel
//! blocks hold their line data in base64 (`data`), blocks relic does not read field by field their bytes
//! (`raw`, with `unparsed` saying why).

use std::borrow::Cow;

use serde_json::{json, Map, Value};

use super::text::{Info, TextString};
use super::types::*;
use super::{layouts, FORMAT_ID};
use crate::bytes::Base64;
use crate::error::{Error, Result};

/// Keys every block object has; a layout's fields never use them.
pub const BLOCK_KEYS: [&str; 3] = ["block", "magic", "version"];

pub fn to_json(rcd: &Rcd<'_>) -> Value {
    let blocks: Vec<Value> = rcd.blocks.iter().enumerate().map(|(i, b)| block_json(i + 1, b, true)).collect();
    json!({ "format": FORMAT_ID, "file_version": rcd.version, "blocks": blocks })
}

/// One block's object; `with_data` false leaves the pixel data out (the convert document, whose PNGs hold it).
pub fn block_json(number: usize, block: &Block<'_>, with_data: bool) -> Value {
    let mut m = Map::new();
    m.insert("block".into(), json!(number));
    m.insert("magic".into(), json!(block.magic_str()));
    m.insert("version".into(), json!(block.version));
    match &block.body {
        Body::Pixels8 { width, height, offset, data } => {
            m.insert("width".into(), json!(width));
            m.insert("height".into(), json!(height));
            if let Some((x, y)) = offset {
                m.insert("x_offset".into(), json!(x));
                m.insert("y_offset".into(), json!(y));
            }
            if with_data {
                m.insert("data".into(), json!(Base64(data.to_vec())));
            }
        }
        Body::Pixels32 { width, height, offset: (x, y), data } => {
            m.insert("width".into(), json!(width));
            m.insert("height".into(), json!(height));
            m.insert("x_offset".into(), json!(x));
            m.insert("y_offset".into(), json!(y));
            if with_data {
                m.insert("data".into(), json!(Base64(data.to_vec())));
            }
        }
        Body::Info(info) => {
            if let Ok(Value::Object(o)) = serde_json::to_value(info) {
                m.extend(o);
            }
        }
        Body::Text(strings) => {
            m.insert("strings".into(), serde_json::to_value(strings).unwrap_or(Value::Null));
        }
        Body::Fields(fields) => m.extend(fields.clone()),
        Body::Raw { bytes, reason } => {
            m.insert("unparsed".into(), json!(reason.as_deref().unwrap_or("relic has no layout for this block")));
            m.insert("raw".into(), json!(Base64(bytes.to_vec())));
        }
    }
    Value::Object(m)
}

fn bad(field: impl Into<String>, m: impl Into<String>) -> Error {
    Error::refused(FORMAT_ID, field.into(), m.into())
}

pub fn from_json(value: &Value) -> Result<Rcd<'static>> {
    let version = value
        .get("file_version")
        .and_then(Value::as_u64)
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| bad("file_version", "missing (1 or 2)"))?;
    let list = value.get("blocks").and_then(Value::as_array).ok_or_else(|| bad("blocks", "missing"))?;
    let mut blocks = Vec::with_capacity(list.len());
    for (i, b) in list.iter().enumerate() {
        blocks.push(block_from_json(i + 1, b)?);
    }
    Ok(Rcd { version, blocks })
}

/// The header of a block object: its magic and version, checking that `block` (when given) is its place.
pub fn block_header(number: usize, b: &Value) -> Result<([u8; 4], u32)> {
    let at = |f: &str| format!("blocks[{number}].{f}");
    let o = b.as_object().ok_or_else(|| bad(format!("blocks[{number}]"), "must be an object"))?;
    if let Some(n) = o.get("block") {
        if n.as_u64() != Some(number as u64) {
            return Err(bad(
                at("block"),
                format!("{n} is not its place in the list ({number}): blocks are numbered in file order"),
            ));
        }
    }
    let magic = o
        .get("magic")
        .and_then(Value::as_str)
        .and_then(magic_from_text)
        .ok_or_else(|| bad(at("magic"), "must be four characters"))?;
    let version = o
        .get("version")
        .and_then(Value::as_u64)
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| bad(at("version"), "missing"))?;
    Ok((magic, version))
}

fn block_from_json(number: usize, b: &Value) -> Result<Block<'static>> {
    let (magic, version) = block_header(number, b)?;
    let at = |f: &str| format!("blocks[{number}].{f}");
    let int = |k: &str, min: i64, max: i64| -> Result<i64> {
        b.get(k)
            .and_then(Value::as_i64)
            .filter(|v| (min..=max).contains(v))
            .ok_or_else(|| bad(at(k), format!("missing or not in {min}..={max}")))
    };
    let data = |k: &str| -> Result<Vec<u8>> {
        let v = b.get(k).cloned().ok_or_else(|| bad(at(k), "missing"))?;
        serde_json::from_value::<Base64>(v).map(|d| d.0).map_err(|e| bad(at(k), e.to_string()))
    };
    let body = if b.get("raw").is_some() {
        Body::Raw { bytes: Cow::Owned(data("raw")?), reason: None }
    } else {
        match (&magic, version) {
            (b"8PXL", 1 | 2) => Body::Pixels8 {
                width: int("width", 0, 65535)? as u16,
                height: int("height", 0, 65535)? as u16,
                offset: if version == 2 {
                    Some((int("x_offset", -32768, 32767)? as i16, int("y_offset", -32768, 32767)? as i16))
                } else {
                    None
                },
                data: Cow::Owned(data("data")?),
            },
            (b"32PX", 1) => Body::Pixels32 {
                width: int("width", 0, 65535)? as u16,
                height: int("height", 0, 65535)? as u16,
                offset: (int("x_offset", -32768, 32767)? as i16, int("y_offset", -32768, 32767)? as i16),
                data: Cow::Owned(data("data")?),
            },
            (b"INFO", 1) => Body::Info(
                serde_json::from_value::<Info>(without_header(b)).map_err(|e| bad(at("INFO"), e.to_string()))?,
            ),
            (b"TEXT", 3) => Body::Text(
                serde_json::from_value::<Vec<TextString>>(b.get("strings").cloned().unwrap_or(Value::Null))
                    .map_err(|e| bad(at("strings"), e.to_string()))?,
            ),
            _ if layouts::layout(&magic, version).is_some() => match without_header(b) {
                Value::Object(m) => Body::Fields(m),
                _ => return Err(bad(format!("blocks[{number}]"), "must be an object")),
            },
            _ => {
                return Err(bad(
                    format!("blocks[{number}]"),
                    format!(
                        "relic has no layout for {} version {version}: give its bytes as `raw`",
                        magic_text(&magic)
                    ),
                ))
            }
        }
    };
    Ok(Block { magic, version, body })
}

/// The block object without `block`, `magic`, `version` and the convert document's extras.
fn without_header(b: &Value) -> Value {
    let mut m = b.as_object().cloned().unwrap_or_default();
    for k in BLOCK_KEYS.iter().chain(&[
        "png",
        "png_digest",
        "recolour_png",
        "recolour_digest",
        "recolour_ranges",
        "sheet",
        "sheet_digest",
        "unparsed",
    ]) {
        m.shift_remove(*k);
    }
    Value::Object(m)
}
