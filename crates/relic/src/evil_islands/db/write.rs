//! DB writer: the document's node tree back to bytes. Lengths are computed from the content; each node uses
//! the 1-byte length form when its length fits (0–127) unless the document says `long`, and the 4-byte form
//! of the document's `length_encoding` otherwise. The output is parsed again before it is returned.

use super::read::parse_with;
use super::types::*;
use super::FORMAT_ID;
use crate::codec::text::{encode, CP1251};
use crate::error::{Error, Result};
use crate::writer::Writer;

fn invalid(path: &str, why: impl std::fmt::Display) -> Error {
    Error::refused(FORMAT_ID, path, why)
}

/// Appends a node: type byte, length, payload.
pub fn put_node(out: &mut Vec<u8>, type_byte: u8, long: bool, payload: &[u8], encoding: LengthEncoding) -> Result<()> {
    let len = u32::try_from(payload.len())
        .ok()
        .filter(|&l| l <= MAX_LENGTH)
        .ok_or_else(|| invalid("node", format!("a node of {} bytes is longer than 2^31 − 1", payload.len())))?;
    out.push(type_byte);
    out.extend_from_slice(&encode_length(len, long, encoding));
    out.extend_from_slice(payload);
    Ok(())
}

/// The length bytes of a node (1 or 4). `len` must be at most [`MAX_LENGTH`].
pub fn encode_length(len: u32, long: bool, encoding: LengthEncoding) -> Vec<u8> {
    let mut w = Writer::with_capacity(FORMAT_ID, 4);
    match encoding {
        _ if len <= MAX_SHORT && !long => w.u8((len << 1) as u8),
        LengthEncoding::U32Le => w.u32(len << 1 | 1),
        LengthEncoding::BytesBe => {
            let [b0, b1, b2, b3] = len.to_be_bytes();
            w.bytes(&[b0 << 1 | 1, b1, b2, b3]);
        }
    }
    w.into_bytes()
}

/// Writes a document, then checks that the bytes parse.
pub fn write_document(doc: &DbDocument) -> Result<Vec<u8>> {
    let enc = doc.length_encoding;
    let mut tables = Vec::new();
    for (i, table) in doc.database.tables.iter().enumerate() {
        let path = format!("database.tables[{i}]");
        let payload = match &table.body {
            TableBody::Records(records) => {
                let mut p = Vec::new();
                for (j, rec) in records.iter().enumerate() {
                    put_record(&mut p, rec, enc, &format!("{path}.records[{j}]"))?;
                }
                p
            }
            TableBody::Data(data) => data.0.clone(),
        };
        put_node(&mut tables, table.type_byte, table.long, &payload, enc)?;
    }
    // What identification would not take for a database (`super::plausible`) is refused here, so a
    // written file is always read back under its name.
    if doc.database.tables.first().is_some_and(|t| t.type_byte == 0) {
        return Err(invalid(
            "database.tables[0].type_byte",
            "0 is not a table number (tables count from 1); the file would not be recognised as a database",
        ));
    }
    if doc.database.tables.is_empty() && doc.database.type_byte == 0 && !doc.trailer.is_empty() {
        return Err(invalid(
            "trailer",
            "an empty database of type 0 followed by trailer nodes would not be recognised as a database",
        ));
    }
    let mut out = Vec::new();
    put_node(&mut out, doc.database.type_byte, doc.database.long, &tables, enc)?;
    for node in &doc.trailer {
        put_node(&mut out, node.type_byte, node.long, &node.data.0, enc)?;
    }
    parse_with(&out, doc.file_type, enc)
        .map_err(|e| Error::Unsupported(format!("{FORMAT_ID}: the written file does not parse back ({e})")))?;
    if !super::plausible(&out, out.len() as u64) {
        return Err(invalid("database", "the written file would not be recognised as a database"));
    }
    Ok(out)
}

/// The bytes of one record node as [`write_document`] writes it.
pub fn record_bytes(rec: &Record, enc: LengthEncoding, path: &str) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    put_record(&mut out, rec, enc, path)?;
    Ok(out)
}

fn put_record(out: &mut Vec<u8>, rec: &Record, enc: LengthEncoding, path: &str) -> Result<()> {
    let payload = match &rec.body {
        RecordBody::Fields(fields) => fields_payload(fields, enc, path)?,
        RecordBody::Data(data) => data.0.clone(),
    };
    put_node(out, rec.type_byte, rec.long, &payload, enc)
}

fn fields_payload(fields: &[Field], enc: LengthEncoding, path: &str) -> Result<Vec<u8>> {
    let mut p = Vec::new();
    for (k, f) in fields.iter().enumerate() {
        let fpath = format!("{path}.fields[{k}]");
        let payload = encode_value(&f.value, enc, &fpath)?;
        put_node(&mut p, f.type_byte, f.long, &payload, enc)?;
    }
    Ok(p)
}

/// The payload bytes of a field value.
pub fn encode_value(value: &Value, enc: LengthEncoding, path: &str) -> Result<Vec<u8>> {
    let mut w = Writer::new(FORMAT_ID);
    match value {
        Value::String(s) => {
            w.bytes(
                &encode(CP1251, s)
                    .ok_or_else(|| invalid(path, format!("`{s}` has characters that cp1251 cannot hold")))?,
            );
            w.u8(0);
        }
        Value::Int(v) | Value::Time(v) => w.i32(*v),
        Value::Uint(v) => w.u32(*v),
        Value::Float(v) => w.f32(*v),
        Value::Bits(s) => {
            w.bytes(&bits_to_bytes(s).ok_or_else(|| {
                invalid(path, format!("bits `{s}` must be 8 `0`/`1` characters per byte, bit 0 first"))
            })?)
        }
        Value::Floats(v) => v.iter().for_each(|&x| w.f32(x)),
        Value::Ints(v) => v.iter().for_each(|&x| w.i32(x)),
        Value::Bool(b) => w.u8(u8::from(*b)),
        Value::Bools(v) => v.iter().for_each(|&b| w.u8(u8::from(b))),
        Value::Hex(h) | Value::Raw(h) => w.bytes(&h.0),
        Value::Strings(items) | Value::Record(items) => w.bytes(&fields_payload(items, enc, path)?),
        Value::Records(records) => {
            for (j, rec) in records.iter().enumerate() {
                w.bytes(&record_bytes(rec, enc, &format!("{path}.records[{j}]"))?);
            }
        }
    }
    Ok(w.into_bytes())
}

fn bits_to_bytes(s: &str) -> Option<Vec<u8>> {
    let chars: Vec<char> = s.chars().collect();
    if chars.len() % 8 != 0 {
        return None;
    }
    chars
        .chunks(8)
        .map(|byte| {
            byte.iter().enumerate().try_fold(0u8, |acc, (i, c)| match c {
                '0' => Some(acc),
                '1' => Some(acc | 1 << i),
                _ => None,
            })
        })
        .collect()
}
