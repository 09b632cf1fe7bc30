//! MOB writer: nodes back to bytes, sizes computed from the payloads, the script enciphered again with
//! its own key. The result is read back with the reader before it is returned.

use super::cipher;
use super::read::parse;
use super::types::*;
use super::FORMAT_ID;
use crate::codec::text::{encode, CP1251};
use crate::error::{Error, Result};
use crate::reader::MAX_DEPTH;
use crate::writer::Writer;

/// Writes a MOB file.
pub fn write(mob: &Mob) -> Result<Vec<u8>> {
    write_tree(&mob.nodes)
}

fn write_tree(nodes: &[Node]) -> Result<Vec<u8>> {
    let mut w = Writer::new(FORMAT_ID);
    write_nodes(nodes, &mut w, "nodes", 0)?;
    let out = w.into_bytes();
    parse(&out).map_err(|e| e.within("written file"))?;
    Ok(out)
}

/// Writes the file a JSON document describes.
pub fn write_document(doc: &MobDocument) -> Result<Vec<u8>> {
    if doc.format != FORMAT_ID {
        return Err(Error::refused(FORMAT_ID, "format", format!("is `{}`, not `{FORMAT_ID}`", doc.format)));
    }
    write_tree(&doc.nodes)
}

fn write_nodes(nodes: &[Node], w: &mut Writer, path: &str, depth: u32) -> Result<()> {
    for (i, node) in nodes.iter().enumerate() {
        write_node(node, w, &format!("{path}[{i}]"), depth)?;
    }
    Ok(())
}

/// Starts a node whose size is patched by [`end_node`].
fn begin_node(type_id: u32, w: &mut Writer) -> usize {
    let start = w.len();
    w.u32(type_id);
    w.zeros(4);
    start
}

fn end_node(start: usize, w: &mut Writer, path: &str) -> Result<()> {
    let size = u32::try_from(w.len() - start).map_err(|_| w.refused(path, "node is larger than 4 GiB"))?;
    w.patch_u32_at(path, start + 4, size)
}

fn cp_bytes(s: &CpString, path: &str) -> Result<Vec<u8>> {
    match &s.raw {
        Some(raw) => Ok(raw.0.clone()),
        None => encode(CP1251, &s.text)
            .ok_or_else(|| Error::refused(FORMAT_ID, path, "text is not encodable in cp1251 (give `raw` bytes)")),
    }
}

fn write_node(node: &Node, w: &mut Writer, path: &str, depth: u32) -> Result<()> {
    let start = begin_node(node.type_id, w);
    let f32s = |w: &mut Writer, v: &[F32]| v.iter().for_each(|f| w.f32(f.0));
    match &node.value {
        Value::Record(children) => {
            if depth >= MAX_DEPTH {
                return Err(w.refused(path, format!("nesting deeper than {MAX_DEPTH} levels")));
            }
            write_nodes(children, w, &format!("{path}.children"), depth + 1)?;
        }
        Value::Null => {}
        Value::Byte(v) => w.u8(*v),
        Value::Dword(v) => w.u32(*v),
        Value::Float(v) => f32s(w, &[*v]),
        Value::String(s) => w.bytes(&cp_bytes(s, &format!("{path}.string"))?),
        Value::StringArray(items) => {
            w.count_u32(path, items.len())?;
            for (i, item) in items.iter().enumerate() {
                let at = format!("{path}.strings[{i}]");
                let sub = begin_node(item.type_id.unwrap_or(node.type_id), w);
                w.bytes(&cp_bytes(&item.text, &at)?);
                end_node(sub, w, &at)?;
            }
        }
        Value::Plot(v) => f32s(w, v),
        Value::Quaternion(v) => f32s(w, v),
        Value::Rectangle(v) => v.iter().for_each(|&x| w.u32(x)),
        Value::LeverStats(v) => v.iter().for_each(|&x| w.i32(x)),
        Value::UnitStats(s) => s.put(w),
        Value::Diplomacy(rows) => {
            if rows.len() != 32 || rows.iter().any(|r| r.len() != 32) {
                return Err(w.refused(&format!("{path}.diplomacy"), "must be 32 rows of 32 values"));
            }
            rows.iter().flatten().for_each(|&x| w.u32(x));
        }
        Value::AreaArray(areas) => {
            w.count_u32(path, areas.len())?;
            areas.iter().for_each(|a| f32s(w, &[a.x, a.y, a.r]));
        }
        Value::Plot2DArray(points) => {
            w.count_u32(path, points.len())?;
            points.iter().for_each(|p| f32s(w, p));
        }
        Value::Script(script) => {
            w.u32(script.key);
            let mut text = cp_bytes(&script.text, &format!("{path}.script.text"))?;
            cipher::apply(script.key, &mut text);
            w.bytes(&text);
        }
        Value::Hex(bytes) => w.bytes(&bytes.0),
    }
    end_node(start, w, path)
}
