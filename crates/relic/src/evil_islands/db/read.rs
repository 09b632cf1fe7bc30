//! DB reader: the node tree (spec "Databases"), every length checked against its parent, and field payloads
//! decoded by the type letters of the file type's format strings.

use super::types::*;
use super::FORMAT_ID;
use crate::bytes::Hex;
use crate::codec::text::{decode_exact, CP1251};
use crate::error::{Error, Result};
use crate::reader::Reader;

/// One node as stored: type byte, whether its length used the 4-byte form, and a reader over its payload.
#[derive(Debug, Clone)]
pub struct NodeRef<'a> {
    pub type_byte: u8,
    /// The 4-byte length form was used.
    pub long_form: bool,
    /// File offset of the type byte.
    pub offset: u64,
    pub payload: Reader<'a>,
}

impl NodeRef<'_> {
    /// The 4-byte form was used for a length the 1-byte form holds (kept so the file writes back as it was).
    pub fn non_minimal(&self) -> bool {
        self.long_form && self.payload.len() <= MAX_SHORT as usize
    }
}

/// Reads a node's type byte and length, and moves past its payload.
pub fn read_node<'a>(r: &mut Reader<'a>, encoding: LengthEncoding, field: &str) -> Result<NodeRef<'a>> {
    let offset = r.offset();
    let type_byte = r.u8(&format!("{field}.type"))?;
    let size_field = format!("{field}.length");
    let b0 = r.u8(&size_field)?;
    let (len, long_form) = if b0 & 1 == 0 {
        (u32::from(b0 >> 1), false)
    } else {
        let [b1, b2, b3] = r.array::<3>(&size_field)?;
        let len = match encoding {
            LengthEncoding::U32Le => u32::from_le_bytes([b0, b1, b2, b3]) >> 1,
            LengthEncoding::BytesBe => u32::from(b0 >> 1) << 24 | u32::from_be_bytes([0, b1, b2, b3]),
        };
        (len, true)
    };
    let at = r.pos();
    let mut payload = r.sub(at as u64, u64::from(len), &size_field).map_err(|e| {
        let msg = format!(
            "node length {len} ({}) runs past the end of its parent ({} bytes remain)",
            encoding.id(),
            r.remaining()
        );
        match e {
            Error::InvalidData { at, .. } => Error::invalid(FORMAT_ID, at.field, offset + 1, msg),
            other => other,
        }
    })?;
    r.skip(len as usize, &size_field)?;
    payload.descend(field)?;
    Ok(NodeRef { type_byte, long_form, offset, payload })
}

/// Reads nodes until `r` is exhausted; `field` names them (`field[i]`).
pub fn read_nodes<'a>(r: &mut Reader<'a>, encoding: LengthEncoding, field: &str) -> Result<Vec<NodeRef<'a>>> {
    let mut out = Vec::new();
    while r.remaining() > 0 {
        out.push(read_node(r, encoding, &format!("{field}[{}]", out.len()))?);
    }
    Ok(out)
}

/// Parses a DB. The length reading is tried in the default order (u32 LE first); the other reading is
/// used when the file does not parse with the first; the document records which one was used.
pub fn parse(bytes: &[u8], file_type: FileType) -> Result<DbDocument> {
    let first = LengthEncoding::default();
    match parse_with(bytes, file_type, first) {
        Ok(doc) => Ok(doc),
        Err(e) => parse_with(bytes, file_type, first.other()).map_err(|_| e),
    }
}

/// Parses a DB with one length reading.
pub fn parse_with(bytes: &[u8], file_type: FileType, encoding: LengthEncoding) -> Result<DbDocument> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    if bytes.is_empty() {
        return Err(r.error("database", "the file is empty (a DB holds at least its database node)"));
    }
    let mut db = read_node(&mut r, encoding, "database")?;
    let tables = read_nodes(&mut db.payload, encoding, "database.tables")?;
    let tables = tables.into_iter().map(|t| table(t, file_type, encoding)).collect();
    let database = Database { type_byte: db.type_byte, long: db.non_minimal(), tables };
    let mut trailer = Vec::new();
    while r.remaining() > 0 {
        let node = read_node(&mut r, encoding, &format!("trailer[{}]", trailer.len()))?;
        trailer.push(RawNode {
            type_byte: node.type_byte,
            long: node.non_minimal(),
            data: Hex(node.payload.data().to_vec()),
        });
    }
    Ok(DbDocument { format: FORMAT_ID.into(), file_type, length_encoding: encoding, database, trailer })
}

fn table(mut node: NodeRef<'_>, file_type: FileType, encoding: LengthEncoding) -> Table {
    let layout = file_type.table(node.type_byte);
    let format = layout.map(|l| l.format.as_bytes()).unwrap_or_default();
    let whole = node.payload.data();
    let body = match read_nodes(&mut node.payload, encoding, "records") {
        Ok(records) => TableBody::Records(records.into_iter().map(|rec| record(rec, format, encoding)).collect()),
        Err(_) => TableBody::Data(Hex(whole.to_vec())),
    };
    Table {
        type_byte: node.type_byte,
        long: node.non_minimal(),
        name: layout.map(|l| l.title.to_string()),
        name_ru: layout.map(|l| l.title_ru.to_string()),
        layout: layout.map(|l| l.format.to_string()),
        body,
    }
}

/// A record node: fields typed by `format` (empty: all raw).
fn record(mut node: NodeRef<'_>, format: &[u8], encoding: LengthEncoding) -> Record {
    let whole = node.payload.data();
    let body = match read_nodes(&mut node.payload, encoding, "fields") {
        Ok(fields) => RecordBody::Fields(
            fields
                .into_iter()
                .map(|f| {
                    let letter = format.get(usize::from(f.type_byte)).copied();
                    field(f, letter, encoding)
                })
                .collect(),
        ),
        Err(_) => RecordBody::Data(Hex(whole.to_vec())),
    };
    Record { type_byte: node.type_byte, long: node.non_minimal(), body }
}

fn field(node: NodeRef<'_>, letter: Option<u8>, encoding: LengthEncoding) -> Field {
    let long = node.non_minimal();
    Field { type_byte: node.type_byte, long, value: decode_value(node.payload, letter, encoding) }
}

fn le4(p: &[u8]) -> Option<[u8; 4]> {
    p.try_into().ok()
}

/// The payload as 4-byte words, when its length is a multiple of 4.
fn words(p: &[u8]) -> Option<Vec<[u8; 4]>> {
    if p.len() % 4 != 0 {
        return None;
    }
    p.chunks_exact(4).map(le4).collect()
}

/// Decodes a field payload by its type letter; anything that would not encode back to the same bytes is
/// kept raw.
pub fn decode_value(mut payload: Reader<'_>, letter: Option<u8>, encoding: LengthEncoding) -> Value {
    let p = payload.data();
    let raw = || Value::Raw(Hex(p.to_vec()));
    let decoded = match letter {
        Some(b'S') => decode_string(p),
        Some(b'I') => le4(p).map(|b| Value::Int(i32::from_le_bytes(b))),
        Some(b'U') => le4(p).map(|b| Value::Uint(u32::from_le_bytes(b))),
        Some(b'T') => le4(p).map(|b| Value::Time(i32::from_le_bytes(b))),
        Some(b'F') => le4(p).map(f32::from_le_bytes).filter(|v| v.is_finite()).map(Value::Float),
        Some(b'X') => Some(Value::Bits(p.iter().map(|&b| bits(b)).collect())),
        Some(b'f') => words(p)
            .map(|w| w.into_iter().map(f32::from_le_bytes).collect::<Vec<_>>())
            .filter(|v| v.iter().all(|x| x.is_finite()))
            .map(Value::Floats),
        Some(b'i') => words(p).map(|w| Value::Ints(w.into_iter().map(i32::from_le_bytes).collect())),
        Some(b'B') => match p {
            [b @ (0 | 1)] => Some(Value::Bool(*b == 1)),
            _ => None,
        },
        Some(b'b') => p.iter().all(|&b| b <= 1).then(|| Value::Bools(p.iter().map(|&b| b == 1).collect())),
        Some(b'H') => Some(Value::Hex(Hex(p.to_vec()))),
        Some(b's') => read_nodes(&mut payload, encoding, "strings")
            .ok()
            .map(|items| Value::Strings(items.into_iter().map(|n| field(n, Some(b'S'), encoding)).collect())),
        Some(c @ b'1'..=b'3') => composite_format(c).and_then(|fmt| {
            let items = read_nodes(&mut payload, encoding, "record").ok()?;
            let fmt = fmt.as_bytes();
            Some(Value::Record(
                items
                    .into_iter()
                    .map(|n| {
                        let letter = fmt.get(usize::from(n.type_byte)).copied();
                        field(n, letter, encoding)
                    })
                    .collect(),
            ))
        }),
        Some(c @ b'4'..=b'5') => composite_format(c).and_then(|fmt| {
            let items = read_nodes(&mut payload, encoding, "records").ok()?;
            Some(Value::Records(items.into_iter().map(|n| record(n, fmt.as_bytes(), encoding)).collect()))
        }),
        _ => None,
    };
    decoded.unwrap_or_else(raw)
}

/// `S`: cp1251 text, one terminating NUL and no other.
fn decode_string(p: &[u8]) -> Option<Value> {
    let (&last, body) = p.split_last()?;
    if last != 0 || body.contains(&0) {
        return None;
    }
    let (text, exact) = decode_exact(CP1251, body);
    exact.then_some(Value::String(text))
}

/// A byte as eight `0`/`1` characters, bit 0 first.
fn bits(b: u8) -> String {
    (0..8).map(|i| if b >> i & 1 == 1 { '1' } else { '0' }).collect()
}
