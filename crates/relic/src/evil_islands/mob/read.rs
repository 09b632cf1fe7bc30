//! MOB reader (spec "MOB", docs/formats/evil-islands.md#mob-nodes): the file is a sequence of nodes `u32 type_id, u32 size
//! (whole node, header included), payload`; records hold child nodes; every other payload is decoded by
//! the kind the spec's table gives its type.
//!
//! Strict where the file's framing is at stake: the top-level nodes must tile the file exactly, and a
//! node whose size is under 8 or runs past its parent is an error. Lenient inside a node: a payload that
//! does not fit its kind (a wrong size, children that do not tile a record, a string array whose count is
//! off) is kept as hex, so nothing is lost and nothing is guessed.

use super::cipher;
use super::table::{self, Kind};
use super::types::*;
use super::FORMAT_ID;
use crate::codec::text::{decode_exact, CP1251};
use crate::error::{Error, Result};
use crate::reader::Reader;

/// Size of a node header (type id and size).
pub const NODE_HEADER: usize = 8;

/// Parses a MOB file.
pub fn parse(bytes: &[u8]) -> Result<Mob> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    if r.is_empty() {
        return Err(r.error("nodes", "the file is empty (a MOB holds at least one node)"));
    }
    let nodes = read_nodes(&mut r, "nodes")?;
    Ok(Mob { nodes })
}

/// Reads nodes until the reader is exhausted; every node must fit.
fn read_nodes(r: &mut Reader<'_>, path: &str) -> Result<Vec<Node>> {
    let mut nodes = Vec::new();
    while r.remaining() > 0 {
        let node = read_node(r).map_err(|e| e.within(format_args!("{path}[{}]", nodes.len())))?;
        nodes.push(node);
    }
    Ok(nodes)
}

/// One node header and its payload reader.
fn read_header<'a>(r: &mut Reader<'a>) -> Result<(u32, Reader<'a>)> {
    let type_id = r.u32("type_id")?;
    let size_at = r.pos();
    let size = r.u32("size")?;
    let len = size.checked_sub(NODE_HEADER as u32).ok_or_else(|| {
        r.error_at("size", size_at, format!("{size} is smaller than the {NODE_HEADER}-byte node header"))
    })?;
    let payload = r.sub(r.pos() as u64, u64::from(len), "size").map_err(|e| match e {
        Error::InvalidData { .. } => r.error_at(
            "size",
            size_at,
            format!("node of {size} bytes runs past the end ({} bytes remain after its header)", r.remaining()),
        ),
        other => other,
    })?;
    r.skip(len as usize, "payload")?;
    Ok((type_id, payload))
}

fn read_node(r: &mut Reader<'_>) -> Result<Node> {
    let (type_id, payload) = read_header(r)?;
    let value = decode(type_id, payload)?;
    Ok(Node { type_id, value })
}

/// Decodes a payload by its type's kind; payloads that do not fit are kept as hex. Only a depth limit
/// is an error here.
fn decode(type_id: u32, payload: Reader<'_>) -> Result<Value> {
    let bytes = payload.data();
    let hex = || Value::Hex(Hex(bytes.to_vec()));
    let Some((kind, _)) = table::lookup(type_id) else { return Ok(hex()) };
    let mut r = payload.clone();
    let fixed = |n: usize| bytes.len() == n;
    let value = match kind {
        Kind::Record => {
            r.descend("children")?;
            match read_nodes(&mut r, "children") {
                Ok(children) => Some(Value::Record(children)),
                Err(e @ Error::Limit { .. }) => return Err(e),
                Err(_) => None,
            }
        }
        Kind::Null => bytes.is_empty().then_some(Value::Null),
        Kind::Byte if fixed(1) => r.u8("byte").ok().map(Value::Byte),
        Kind::Dword if fixed(4) => r.u32("dword").ok().map(Value::Dword),
        Kind::Float if fixed(4) => r.f32("float").ok().map(|v| Value::Float(F32(v))),
        Kind::String => Some(Value::String(cp_string(bytes))),
        Kind::StringArray => string_array(type_id, &mut r).map(Value::StringArray),
        Kind::StringEncrypted => script(&mut r).map(Value::Script),
        Kind::Plot if fixed(12) => floats::<3>(&mut r).map(Value::Plot),
        Kind::Quaternion if fixed(16) => floats::<4>(&mut r).map(Value::Quaternion),
        Kind::Rectangle if fixed(16) => {
            (|| Some([r.u32("x").ok()?, r.u32("y").ok()?, r.u32("z").ok()?, r.u32("w").ok()?]))().map(Value::Rectangle)
        }
        Kind::LeverStats if fixed(12) => {
            (|| Some([r.i32("a").ok()?, r.i32("b").ok()?, r.i32("c").ok()?]))().map(Value::LeverStats)
        }
        Kind::UnitStats if fixed(UNIT_STATS_SIZE) => {
            UnitStats::read(&mut r).ok().map(|s| Value::UnitStats(Box::new(s)))
        }
        Kind::Diplomacy if fixed(32 * 32 * 4) => Some(Value::Diplomacy(diplomacy(bytes))),
        Kind::AreaArray => counted(&mut r, 12, |r| {
            Some(Area { x: F32(r.f32("x").ok()?), y: F32(r.f32("y").ok()?), r: F32(r.f32("r").ok()?) })
        })
        .map(Value::AreaArray),
        Kind::Plot2DArray => counted(&mut r, 8, floats::<2>).map(Value::Plot2DArray),
        _ => None,
    };
    Ok(value.unwrap_or_else(hex))
}

/// cp1251 text, with the raw bytes when the text does not give them back.
pub(super) fn cp_string(bytes: &[u8]) -> CpString {
    let (text, exact) = decode_exact(CP1251, bytes);
    CpString { text, raw: (!exact).then(|| Hex(bytes.to_vec())) }
}

fn floats<const N: usize>(r: &mut Reader<'_>) -> Option<[F32; N]> {
    let mut out = [F32(0.0); N];
    for v in &mut out {
        *v = F32(r.f32("float").ok()?);
    }
    Some(out)
}

/// 32 rows of 32 u32 (the caller checked the 4096-byte size).
fn diplomacy(bytes: &[u8]) -> Vec<Vec<u32>> {
    bytes
        .chunks_exact(32 * 4)
        .map(|row| row.chunks_exact(4).map(|v| v.try_into().map_or(0, u32::from_le_bytes)).collect())
        .collect()
}

/// `u32 n` then exactly `n` items of `size` bytes filling the payload.
fn counted<T>(r: &mut Reader<'_>, size: usize, item: impl Fn(&mut Reader<'_>) -> Option<T>) -> Option<Vec<T>> {
    let n = r.u32("count").ok()?;
    let n = r.count(u64::from(n), size, "count").ok()?;
    if r.remaining() != n * size {
        return None;
    }
    (0..n).map(|_| item(r)).collect()
}

/// `u32 count` then `count` (type, size, text) sub-nodes filling the payload.
fn string_array(type_id: u32, r: &mut Reader<'_>) -> Option<Vec<StringItem>> {
    let count = r.u32("count").ok()?;
    let mut items = Vec::new();
    while r.remaining() > 0 {
        let (item_type, payload) = read_header(r).ok()?;
        items
            .push(StringItem { type_id: (item_type != type_id).then_some(item_type), text: cp_string(payload.data()) });
    }
    (items.len() as u64 == u64::from(count)).then_some(items)
}

/// `u32 key` then the enciphered script.
fn script(r: &mut Reader<'_>) -> Option<Script> {
    let key = r.u32("key").ok()?;
    let mut text = r.bytes(r.remaining(), "text").ok()?.to_vec();
    cipher::apply(key, &mut text);
    Some(Script { key, text: cp_string(&text) })
}
