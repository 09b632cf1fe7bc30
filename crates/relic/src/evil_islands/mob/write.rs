//! MOB writer: nodes back to bytes, sizes computed from the payloads, the script enciphered again with
//! its own key. The result is read back with the reader before it is returned.

use super::cipher;
use super::read::{parse, NODE_HEADER};
use super::types::*;
use super::FORMAT_ID;
use crate::codec::text::{encode, CP1251};
use crate::error::{Error, Result};
use crate::reader::MAX_DEPTH;

/// Writes a MOB file.
pub fn write(mob: &Mob) -> Result<Vec<u8>> {
    write_tree(&mob.nodes)
}

fn write_tree(nodes: &[Node]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    write_nodes(nodes, &mut out, "nodes", 0)?;
    parse(&out).map_err(|e| e.within("written file"))?;
    Ok(out)
}

/// Writes the file a JSON document describes.
pub fn write_document(doc: &MobDocument) -> Result<Vec<u8>> {
    if doc.format != FORMAT_ID {
        return Err(err("format".into(), format!("is `{}`, not `{FORMAT_ID}`", doc.format)));
    }
    write_tree(&doc.nodes)
}

fn err(field: String, message: String) -> Error {
    Error::invalid(FORMAT_ID, field, 0, message)
}

fn write_nodes(nodes: &[Node], out: &mut Vec<u8>, path: &str, depth: u32) -> Result<()> {
    for (i, node) in nodes.iter().enumerate() {
        write_node(node, out, &format!("{path}[{i}]"), depth)?;
    }
    Ok(())
}

/// Starts a node whose size is patched by [`end_node`].
fn begin_node(type_id: u32, out: &mut Vec<u8>) -> usize {
    let start = out.len();
    out.extend_from_slice(&type_id.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    start
}

fn end_node(start: usize, out: &mut [u8], path: &str) -> Result<()> {
    let size =
        u32::try_from(out.len() - start).map_err(|_| err(path.to_string(), "node is larger than 4 GiB".into()))?;
    if let Some(slot) = out.get_mut(start + 4..start + NODE_HEADER) {
        slot.copy_from_slice(&size.to_le_bytes());
    }
    Ok(())
}

fn cp_bytes(s: &CpString, path: &str) -> Result<Vec<u8>> {
    match &s.raw {
        Some(raw) => Ok(raw.0.clone()),
        None => encode(CP1251, &s.text)
            .ok_or_else(|| err(path.to_string(), "text is not encodable in cp1251 (give `raw` bytes)".into())),
    }
}

fn write_node(node: &Node, out: &mut Vec<u8>, path: &str, depth: u32) -> Result<()> {
    let start = begin_node(node.type_id, out);
    let f32s = |out: &mut Vec<u8>, v: &[F32]| v.iter().for_each(|f| out.extend_from_slice(&f.0.to_le_bytes()));
    match &node.value {
        Value::Record(children) => {
            if depth >= MAX_DEPTH {
                return Err(err(path.to_string(), format!("nesting deeper than {MAX_DEPTH} levels")));
            }
            write_nodes(children, out, &format!("{path}.children"), depth + 1)?;
        }
        Value::Null => {}
        Value::Byte(v) => out.push(*v),
        Value::Dword(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::Float(v) => f32s(out, &[*v]),
        Value::String(s) => out.extend_from_slice(&cp_bytes(s, &format!("{path}.string"))?),
        Value::StringArray(items) => {
            let count = u32::try_from(items.len()).map_err(|_| err(path.to_string(), "too many strings".into()))?;
            out.extend_from_slice(&count.to_le_bytes());
            for (i, item) in items.iter().enumerate() {
                let at = format!("{path}.strings[{i}]");
                let sub = begin_node(item.type_id.unwrap_or(node.type_id), out);
                out.extend_from_slice(&cp_bytes(&item.text, &at)?);
                end_node(sub, out, &at)?;
            }
        }
        Value::Plot(v) => f32s(out, v),
        Value::Quaternion(v) => f32s(out, v),
        Value::Rectangle(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        Value::LeverStats(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        Value::UnitStats(s) => s.put(out),
        Value::Diplomacy(rows) => {
            if rows.len() != 32 || rows.iter().any(|r| r.len() != 32) {
                return Err(err(format!("{path}.diplomacy"), "must be 32 rows of 32 values".into()));
            }
            rows.iter().flatten().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        }
        Value::AreaArray(areas) => {
            let n = u32::try_from(areas.len()).map_err(|_| err(path.to_string(), "too many areas".into()))?;
            out.extend_from_slice(&n.to_le_bytes());
            areas.iter().for_each(|a| f32s(out, &[a.x, a.y, a.r]));
        }
        Value::Plot2DArray(points) => {
            let n = u32::try_from(points.len()).map_err(|_| err(path.to_string(), "too many points".into()))?;
            out.extend_from_slice(&n.to_le_bytes());
            points.iter().for_each(|p| f32s(out, p));
        }
        Value::Script(script) => {
            out.extend_from_slice(&script.key.to_le_bytes());
            let mut text = cp_bytes(&script.text, &format!("{path}.script.text"))?;
            cipher::apply(script.key, &mut text);
            out.extend_from_slice(&text);
        }
        Value::Hex(bytes) => out.extend_from_slice(&bytes.0),
    }
    end_node(start, out, path)
}
