//! The friendly forms of a database: each table as records with named columns (the names and types of
//! [`super::descriptor`]), as one JSON document (`relic convert x.idb`) and as one CSV per table (`--to csv`),
//! and both back to the file (`relic pack ei-db x.idb.json` / `x.idb.Weapons.csv`).
//!
//! What makes them pack byte for byte although a record shows only its values: a record is written
//! *canonically* — its fields in ascending id order, each node's length in its shortest form, the table's
//! record type byte (`record_type`, 0 when absent), nested nodes typed as the descriptor says (sub-field id;
//! 0 for strings of a StringList and the records of an acks list, relic's choice) — and a record the file
//! does not hold that way carries its structure in `"~record"`: its type byte, `long` when its length used
//! the 4-byte form, and its fields in stored order (`[id]`, `[id, 1]` for a 4-byte length, `[id, long, hex]`
//! for a payload the value does not write back to exactly, or a repeated field). An edited value is written
//! canonically in its field's place; a value left as it was keeps its bytes.
//!
//! A value of the wrong type (text in a number column, `2.5` in an integer one, a number where text is due)
//! is an error naming the table, record, column and where it was (the JSON path, or the CSV line and
//! column). A payload that does not decode under the descriptor's type shows as `{"raw": hex}` (JSON) or
//! `raw:<hex>` (CSV) in the field's first column and packs back as those bytes.

use serde_json::{json, Map, Value as Json};

use super::descriptor::{self, BlockDesc, DbDesc, FieldType};
use super::read::read_nodes;
use super::types::*;
use super::write::{encode_value, put_node, record_bytes};
use super::FORMAT_ID;
use crate::asset::Table as CsvTable;
use crate::bytes::Hex;
use crate::codec::text::{decode_exact, encode, CP1251};
use crate::error::{Error, Result};
use crate::reader::Reader;

/// A field's value as the friendly forms show it.
#[derive(Debug, Clone, PartialEq)]
pub enum FVal {
    Str(String),
    Int(i64),
    Float(f32),
    Hex(Vec<u8>),
    /// FloatList, ByteList, BitList, StringList elements.
    List(Vec<FVal>),
    /// TypeList: sub-field id → value.
    Sub(Vec<(u8, FVal)>),
    /// AcksUniqueType: records of sub-fields.
    Acks(Vec<Vec<(u8, FVal)>>),
    /// Bytes that do not decode under the field's type.
    Raw(Vec<u8>),
}

/// How a field stored differs from its canonical writing (see the module doc).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Shape {
    pub type_byte: Option<u8>,
    pub long: bool,
    /// `Some`: the record's payload is not a node sequence; kept as it is.
    pub data: Option<Vec<u8>>,
    pub fields: Vec<ShapeField>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ShapeField {
    pub id: u8,
    pub long: bool,
    /// Bytes kept: the value does not write back to them, or the field repeats.
    pub payload: Option<Vec<u8>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FRecord {
    /// The first occurrence of each field, in stored order.
    pub values: Vec<(u8, FVal)>,
    pub shape: Option<Shape>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum FBody {
    Records(Vec<FRecord>),
    Data(Vec<u8>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct FTable {
    pub block: u8,
    pub long: bool,
    pub record_type: u8,
    pub body: FBody,
}

/// A database in its friendly form.
#[derive(Debug, Clone, PartialEq)]
pub struct FDoc {
    pub file_type: FileType,
    pub encoding: LengthEncoding,
    pub db_type: u8,
    pub db_long: bool,
    pub tables: Vec<FTable>,
    pub trailer: Vec<RawNode>,
}

// ---------------------------------------------------------------------------------------------------------
// Columns

/// Which part of a field a column shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Part {
    Whole,
    Elem(u16),
    Sub(u8),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub name: String,
    pub field: u8,
    pub part: Part,
    /// The descriptor's type of the field (`Hex` for a field it does not describe).
    pub type_name: String,
}

/// How a field is laid out in columns.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Layout {
    Whole,
    Elements,
    Subs(u8),
}

fn layout(ty: FieldType, named: usize) -> Layout {
    match ty {
        t if t.is_element_list() && named >= 2 => Layout::Elements,
        FieldType::TypeList(sub) => Layout::Subs(sub),
        _ => Layout::Whole,
    }
}

/// The type of field `id` of a table (`Hex` when the descriptor does not type it).
fn field_type(block: Option<&BlockDesc>, id: u8) -> (FieldType, &'static str) {
    block.and_then(|b| b.field(id)).map_or((FieldType::Hex, "Hex"), |f| (f.ty, f.type_name))
}

fn field_layout(block: Option<&BlockDesc>, id: u8) -> Layout {
    block.and_then(|b| b.field(id)).map_or(Layout::Whole, |f| layout(f.ty, f.names.len()))
}

/// The columns of a table: the descriptor's, then those `seen` in the data that it does not name.
pub fn columns(db: Option<&'static DbDesc>, block: Option<&BlockDesc>, seen: &[(u8, Part)]) -> Vec<Column> {
    let mut cols: Vec<Column> = Vec::new();
    let push = |cols: &mut Vec<Column>, name: String, field: u8, part: Part, ty: &str| {
        if !cols.iter().any(|c| c.field == field && c.part == part) {
            cols.push(Column { name, field, part, type_name: ty.to_string() });
        }
    };
    if let Some(b) = block {
        for f in &b.fields {
            match layout(f.ty, f.names.len()) {
                Layout::Whole => push(
                    &mut cols,
                    f.name().map_or_else(|| format!("f{}", f.id), String::from),
                    f.id,
                    Part::Whole,
                    f.type_name,
                ),
                Layout::Elements => {
                    for (k, n) in &f.names {
                        push(&mut cols, n.to_string(), f.id, Part::Elem(u16::from(*k)), f.type_name);
                    }
                }
                Layout::Subs(sub) => {
                    for s in db.and_then(|d| d.sub(sub)).map(|s| s.fields.as_slice()).unwrap_or_default() {
                        let name = f
                            .names
                            .iter()
                            .find(|(i, _)| *i == s.id)
                            .map_or_else(|| format!("f{}.{}", f.id, s.id), |(_, n)| n.to_string());
                        push(&mut cols, name, f.id, Part::Sub(s.id), s.type_name);
                    }
                }
            }
        }
    }
    let described: std::collections::HashSet<(u8, Part)> = cols.iter().map(|c| (c.field, c.part)).collect();
    let mut extra: Vec<(u8, Part)> = seen.iter().copied().filter(|k| !described.contains(k)).collect();
    extra.sort();
    extra.dedup();
    for (field, part) in extra {
        let name = match part {
            Part::Whole => format!("f{field}"),
            Part::Elem(k) => format!("f{field}[{k}]"),
            Part::Sub(s) => format!("f{field}.{s}"),
        };
        let ty = match part {
            Part::Sub(_) => "Hex",
            _ => field_type(block, field).1,
        };
        cols.push(Column { name, field, part, type_name: ty.to_string() });
    }
    // Names repeated within a table: the later ones say their field.
    let mut names = std::collections::HashSet::new();
    for c in &mut cols {
        if !names.insert(c.name.clone()) {
            c.name = format!("{} (f{})", c.name, c.field);
            names.insert(c.name.clone());
        }
    }
    cols
}

/// The column a name stands for: one of `cols`, or the `f<id>`, `f<id>[k]`, `f<id>.<k>` forms.
fn resolve(cols: &[Column], name: &str) -> Option<(u8, Part)> {
    if let Some(c) = cols.iter().find(|c| c.name == name) {
        return Some((c.field, c.part));
    }
    let rest = name.strip_prefix('f')?;
    if let Some((id, k)) = rest.split_once('[') {
        return Some((id.parse().ok()?, Part::Elem(k.strip_suffix(']')?.parse().ok()?)));
    }
    if let Some((id, s)) = rest.split_once('.') {
        return Some((id.parse().ok()?, Part::Sub(s.parse().ok()?)));
    }
    Some((rest.parse().ok()?, Part::Whole))
}

// ---------------------------------------------------------------------------------------------------------
// Decoding and encoding payloads by the descriptor's types

fn string(p: &[u8]) -> Option<String> {
    let (&last, body) = p.split_last()?;
    if last != 0 || body.contains(&0) {
        return None;
    }
    let (text, exact) = decode_exact(CP1251, body);
    exact.then_some(text)
}

fn nodes(p: &[u8], enc: LengthEncoding) -> Option<Vec<(u8, &[u8])>> {
    let mut r = Reader::new(FORMAT_ID, p);
    let list = read_nodes(&mut r, enc, "nested").ok()?;
    Some(list.into_iter().map(|n| (n.type_byte, n.payload.data())).collect())
}

fn sub_fields(p: &[u8], enc: LengthEncoding, sub: Option<&BlockDesc>) -> Option<Vec<(u8, FVal)>> {
    let mut out: Vec<(u8, FVal)> = Vec::new();
    for (id, payload) in nodes(p, enc)? {
        if out.iter().any(|(i, _)| *i == id) {
            return None;
        }
        let ty = field_type(sub, id).0;
        out.push((id, decode_opt(ty, payload, enc, None)?));
    }
    Some(out)
}

fn decode_opt(ty: FieldType, p: &[u8], enc: LengthEncoding, db: Option<&'static DbDesc>) -> Option<FVal> {
    let word = |p: &[u8]| <[u8; 4]>::try_from(p).ok();
    Some(match ty {
        FieldType::String => FVal::Str(string(p)?),
        FieldType::SignedLong => FVal::Int(i64::from(i32::from_le_bytes(word(p)?))),
        FieldType::UnsignedLong => FVal::Int(i64::from(u32::from_le_bytes(word(p)?))),
        FieldType::Float => FVal::Float(Some(f32::from_le_bytes(word(p)?)).filter(|f| f.is_finite())?),
        FieldType::Byte => match p {
            [b] => FVal::Int(i64::from(*b)),
            _ => return None,
        },
        FieldType::Hex => FVal::Hex(p.to_vec()),
        FieldType::FloatList => {
            if p.len() % 4 != 0 {
                return None;
            }
            let v: Option<Vec<FVal>> = p
                .chunks_exact(4)
                .map(|c| word(c).map(f32::from_le_bytes).filter(|f| f.is_finite()).map(FVal::Float))
                .collect();
            FVal::List(v?)
        }
        FieldType::ByteList => FVal::List(p.iter().map(|&b| FVal::Int(i64::from(b))).collect()),
        FieldType::BitList => {
            FVal::List(p.iter().flat_map(|&b| (0..8).map(move |i| FVal::Int(i64::from(b >> i & 1)))).collect())
        }
        FieldType::StringList => {
            FVal::List(nodes(p, enc)?.into_iter().map(|(_, s)| string(s).map(FVal::Str)).collect::<Option<_>>()?)
        }
        FieldType::TypeList(sub) => FVal::Sub(sub_fields(p, enc, db.and_then(|d| d.sub(sub)))?),
        FieldType::Acks(sub) => FVal::Acks(
            nodes(p, enc)?
                .into_iter()
                .map(|(_, rec)| sub_fields(rec, enc, db.and_then(|d| d.sub(sub))))
                .collect::<Option<_>>()?,
        ),
    })
}

/// A payload as its friendly value (`Raw` when it does not decode under `ty`).
pub fn decode(ty: FieldType, p: &[u8], enc: LengthEncoding, db: Option<&'static DbDesc>) -> FVal {
    decode_opt(ty, p, enc, db).unwrap_or_else(|| FVal::Raw(p.to_vec()))
}

fn node(out: &mut Vec<u8>, type_byte: u8, payload: &[u8], enc: LengthEncoding) -> std::result::Result<(), String> {
    put_node(out, type_byte, false, payload, enc).map_err(|e| e.to_string())
}

fn encode_subs(
    items: &[(u8, FVal)],
    sub: Option<&BlockDesc>,
    enc: LengthEncoding,
) -> std::result::Result<Vec<u8>, String> {
    let mut out = Vec::new();
    for (id, v) in items {
        let payload = encode_val(field_type(sub, *id).0, v, enc, None)?;
        node(&mut out, *id, &payload, enc)?;
    }
    Ok(out)
}

/// A friendly value's canonical payload under `ty`.
pub fn encode_val(
    ty: FieldType,
    v: &FVal,
    enc: LengthEncoding,
    db: Option<&'static DbDesc>,
) -> std::result::Result<Vec<u8>, String> {
    let mismatch = || format!("a {} value does not fit a {ty:?} field", kind(v));
    let int = |v: &FVal, lo: i64, hi: i64| match v {
        FVal::Int(i) if (lo..=hi).contains(i) => Ok(*i),
        FVal::Int(i) => Err(format!("{i} is out of range {lo}…{hi}")),
        _ => Err(mismatch()),
    };
    Ok(match (ty, v) {
        (_, FVal::Raw(b)) => b.clone(),
        (FieldType::String, FVal::Str(s)) => {
            let mut b = encode(CP1251, s).ok_or_else(|| format!("`{s}` has characters that cp1251 cannot hold"))?;
            b.push(0);
            b
        }
        (FieldType::SignedLong, _) => (int(v, i64::from(i32::MIN), i64::from(i32::MAX))? as i32).to_le_bytes().to_vec(),
        (FieldType::UnsignedLong, _) => (int(v, 0, i64::from(u32::MAX))? as u32).to_le_bytes().to_vec(),
        (FieldType::Byte, _) => vec![int(v, 0, 255)? as u8],
        (FieldType::Float, FVal::Float(f)) => f.to_le_bytes().to_vec(),
        (FieldType::Hex, FVal::Hex(b)) => b.clone(),
        (FieldType::FloatList, FVal::List(items)) => {
            let mut out = Vec::new();
            for i in items {
                out.extend(encode_val(FieldType::Float, i, enc, db)?);
            }
            out
        }
        (FieldType::ByteList, FVal::List(items)) => {
            items.iter().map(|i| int(i, 0, 255).map(|b| b as u8)).collect::<std::result::Result<_, _>>()?
        }
        (FieldType::BitList, FVal::List(items)) => {
            let mut out = vec![0u8; items.len().div_ceil(8)];
            for (k, i) in items.iter().enumerate() {
                if int(i, 0, 1)? == 1 {
                    if let Some(b) = out.get_mut(k / 8) {
                        *b |= 1 << (k % 8);
                    }
                }
            }
            out
        }
        (FieldType::StringList, FVal::List(items)) => {
            let mut out = Vec::new();
            for i in items {
                node(&mut out, 0, &encode_val(FieldType::String, i, enc, db)?, enc)?;
            }
            out
        }
        (FieldType::TypeList(sub), FVal::Sub(items)) => encode_subs(items, db.and_then(|d| d.sub(sub)), enc)?,
        (FieldType::Acks(sub), FVal::Acks(records)) => {
            let mut out = Vec::new();
            for rec in records {
                node(&mut out, 0, &encode_subs(rec, db.and_then(|d| d.sub(sub)), enc)?, enc)?;
            }
            out
        }
        _ => return Err(mismatch()),
    })
}

fn kind(v: &FVal) -> &'static str {
    match v {
        FVal::Str(_) => "text",
        FVal::Int(_) => "integer",
        FVal::Float(_) => "number",
        FVal::Hex(_) => "hex",
        FVal::List(_) => "list",
        FVal::Sub(_) => "sub-field",
        FVal::Acks(_) => "acks list",
        FVal::Raw(_) => "raw",
    }
}

// ---------------------------------------------------------------------------------------------------------
// From the node tree

/// The friendly form of a parsed database.
pub fn from_lossless(doc: &DbDocument) -> Result<FDoc> {
    let enc = doc.length_encoding;
    let db = descriptor::of(doc.file_type);
    let mut tables = Vec::new();
    for (ti, t) in doc.database.tables.iter().enumerate() {
        let block = db.and_then(|d| d.table(t.type_byte));
        let body = match &t.body {
            TableBody::Data(d) => FBody::Data(d.0.clone()),
            TableBody::Records(records) => {
                let record_type = records.first().map_or(0, |r| r.type_byte);
                let mut out = Vec::new();
                for (ri, rec) in records.iter().enumerate() {
                    let path = format!("database.tables[{ti}].records[{ri}]");
                    out.push(friendly_record(rec, record_type, block, db, enc, &path)?);
                }
                FBody::Records(out)
            }
        };
        let record_type = match &t.body {
            TableBody::Records(r) => r.first().map_or(0, |r| r.type_byte),
            TableBody::Data(_) => 0,
        };
        tables.push(FTable { block: t.type_byte, long: t.long, record_type, body });
    }
    Ok(FDoc {
        file_type: doc.file_type,
        encoding: enc,
        db_type: doc.database.type_byte,
        db_long: doc.database.long,
        tables,
        trailer: doc.trailer.clone(),
    })
}

fn friendly_record(
    rec: &Record,
    record_type: u8,
    block: Option<&BlockDesc>,
    db: Option<&'static DbDesc>,
    enc: LengthEncoding,
    path: &str,
) -> Result<FRecord> {
    let original = record_bytes(rec, enc, path)?;
    let fields = match &rec.body {
        RecordBody::Data(d) => {
            let shape =
                Shape { type_byte: Some(rec.type_byte), long: rec.long, data: Some(d.0.clone()), fields: Vec::new() };
            return Ok(FRecord { values: Vec::new(), shape: Some(shape) });
        }
        RecordBody::Fields(f) => f,
    };
    let mut values: Vec<(u8, FVal)> = Vec::new();
    let mut shape = Shape { type_byte: Some(rec.type_byte), long: rec.long, data: None, fields: Vec::new() };
    for (k, f) in fields.iter().enumerate() {
        let payload = encode_value(&f.value, enc, &format!("{path}.fields[{k}]"))?;
        let repeated = values.iter().any(|(id, _)| *id == f.type_byte);
        let mut kept = None;
        if repeated {
            kept = Some(payload);
        } else {
            let ty = field_type(block, f.type_byte).0;
            let v = decode(ty, &payload, enc, db);
            if encode_val(ty, &v, enc, db).ok().as_deref() != Some(payload.as_slice()) {
                kept = Some(payload);
            }
            values.push((f.type_byte, v));
        }
        shape.fields.push(ShapeField { id: f.type_byte, long: f.long, payload: kept });
    }
    let plain = FRecord { values: values.clone(), shape: None };
    let canonical = build_record(&plain, record_type, block, db, enc).ok();
    let shape = (canonical.as_deref() != Some(original.as_slice())).then_some(shape);
    Ok(FRecord { values, shape })
}

/// The bytes of a record node: canonical, or over its shape (see the module doc).
pub fn build_record(
    rec: &FRecord,
    record_type: u8,
    block: Option<&BlockDesc>,
    db: Option<&'static DbDesc>,
    enc: LengthEncoding,
) -> std::result::Result<Vec<u8>, String> {
    let shape = rec.shape.as_ref();
    let type_byte = shape.and_then(|s| s.type_byte).unwrap_or(record_type);
    let long = shape.is_some_and(|s| s.long);
    let mut out = Vec::new();
    if let Some(data) = shape.and_then(|s| s.data.as_ref()) {
        put_node(&mut out, type_byte, long, data, enc).map_err(|e| e.to_string())?;
        return Ok(out);
    }
    // (id, long, payload) in the order written.
    let mut written: Vec<(u8, bool, Vec<u8>)> = Vec::new();
    let mut used = vec![false; rec.values.len()];
    let mut seen = [false; 256];
    for sf in shape.map(|s| s.fields.as_slice()).unwrap_or_default() {
        let first = !std::mem::replace(&mut seen[usize::from(sf.id)], true);
        let at = rec.values.iter().position(|(id, _)| *id == sf.id);
        match (first, at) {
            (true, Some(i)) => {
                used[i] = true;
                let ty = field_type(block, sf.id).0;
                let new = encode_val(ty, &rec.values[i].1, enc, db).map_err(|e| format!("field f{}: {e}", sf.id))?;
                let payload = match &sf.payload {
                    // Kept bytes stay while the value is the one they show.
                    Some(old) if encode_val(ty, &decode(ty, old, enc, db), enc, db).ok() == Some(new.clone()) => {
                        old.clone()
                    }
                    _ => new,
                };
                written.push((sf.id, sf.long, payload));
            }
            (true, None) => {} // the value was removed
            (false, _) => written.push((sf.id, sf.long, sf.payload.clone().unwrap_or_default())),
        }
    }
    let mut rest: Vec<usize> = (0..rec.values.len()).filter(|&i| !used[i]).collect();
    rest.sort_by_key(|&i| rec.values[i].0);
    for i in rest {
        let (id, v) = &rec.values[i];
        let payload = encode_val(field_type(block, *id).0, v, enc, db).map_err(|e| format!("field f{id}: {e}"))?;
        let pos = written.iter().position(|(w, _, _)| w > id).unwrap_or(written.len());
        written.insert(pos, (*id, false, payload));
    }
    let mut payload = Vec::new();
    for (id, long, p) in &written {
        put_node(&mut payload, *id, *long, p, enc).map_err(|e| e.to_string())?;
    }
    put_node(&mut out, type_byte, long, &payload, enc).map_err(|e| e.to_string())?;
    Ok(out)
}

/// The node tree of a friendly database (fields as raw payloads), for [`super::write_document`].
pub fn to_lossless(doc: &FDoc) -> Result<DbDocument> {
    let db = descriptor::of(doc.file_type);
    let enc = doc.encoding;
    let mut tables = Vec::new();
    for t in &doc.tables {
        let block = db.and_then(|d| d.table(t.block));
        let body = match &t.body {
            FBody::Data(d) => TableBody::Data(Hex(d.clone())),
            FBody::Records(records) => {
                let mut out = Vec::new();
                for (ri, rec) in records.iter().enumerate() {
                    let bytes = build_record(rec, t.record_type, block, db, enc).map_err(|e| {
                        Error::Refused(format!("{FORMAT_ID}: table {}, record {ri}: {e}", table_name(db, t.block)))
                    })?;
                    let mut r = Reader::new(FORMAT_ID, &bytes);
                    let n = super::read::read_node(&mut r, enc, "record")?;
                    let long = n.non_minimal();
                    let fields = read_nodes(&mut n.payload.clone(), enc, "fields").ok();
                    let body = match (rec.shape.as_ref().and_then(|s| s.data.as_ref()), fields) {
                        (None, Some(fields)) => RecordBody::Fields(
                            fields
                                .into_iter()
                                .map(|f| Field {
                                    type_byte: f.type_byte,
                                    long: f.non_minimal(),
                                    value: Value::Raw(Hex(f.payload.data().to_vec())),
                                })
                                .collect(),
                        ),
                        _ => RecordBody::Data(Hex(n.payload.data().to_vec())),
                    };
                    out.push(Record { type_byte: n.type_byte, long, body });
                }
                TableBody::Records(out)
            }
        };
        tables.push(Table { type_byte: t.block, long: t.long, name: None, name_ru: None, layout: None, body });
    }
    Ok(DbDocument {
        format: FORMAT_ID.into(),
        file_type: doc.file_type,
        length_encoding: enc,
        database: Database { type_byte: doc.db_type, long: doc.db_long, tables },
        trailer: doc.trailer.clone(),
    })
}

/// The descriptor's name of a table, or `table_<n>`.
pub fn table_name(db: Option<&'static DbDesc>, block: u8) -> String {
    db.and_then(|d| d.table(block)).map_or_else(|| format!("table_{block}"), |b| b.name.to_string())
}

/// Unique names of a document's tables (a repeated block gets `_2`, `_3`, …).
pub fn table_names(doc: &FDoc) -> Vec<String> {
    let db = descriptor::of(doc.file_type);
    let mut out: Vec<String> = Vec::new();
    for t in &doc.tables {
        let base = table_name(db, t.block);
        let mut name = base.clone();
        let mut n = 1;
        while out.contains(&name) {
            n += 1;
            name = format!("{base}_{n}");
        }
        out.push(name);
    }
    out
}

// ---------------------------------------------------------------------------------------------------------
// To JSON and CSV

fn pretty(f: f32) -> Json {
    Json::from(pretty_f64(f))
}

fn sub_object(items: &[(u8, FVal)], sub: Option<&BlockDesc>) -> Json {
    Json::Object(
        items
            .iter()
            .map(|(id, v)| {
                let name = sub
                    .and_then(|s| s.field(*id))
                    .and_then(|f| f.name())
                    .map_or_else(|| format!("f{id}"), String::from);
                (name, value_json(v, sub))
            })
            .collect(),
    )
}

fn value_json(v: &FVal, sub: Option<&BlockDesc>) -> Json {
    match v {
        FVal::Str(s) => Json::from(s.as_str()),
        FVal::Int(i) => Json::from(*i),
        FVal::Float(f) => pretty(*f),
        FVal::Hex(h) => Json::from(hex::encode(h)),
        FVal::List(items) => Json::Array(items.iter().map(|i| value_json(i, sub)).collect()),
        FVal::Sub(items) => sub_object(items, sub),
        FVal::Acks(records) => Json::Array(records.iter().map(|r| sub_object(r, sub)).collect()),
        FVal::Raw(b) => json!({ "raw": hex::encode(b) }),
    }
}

fn cell_text(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        Json::Object(o) if o.len() == 1 && o.get("raw").is_some_and(Json::is_string) => {
            format!("raw:{}", o.get("raw").and_then(Json::as_str).unwrap_or_default())
        }
        Json::Null => String::new(),
        other => other.to_string(),
    }
}

fn sub_block(db: Option<&'static DbDesc>, block: Option<&BlockDesc>, field: u8) -> Option<&'static BlockDesc> {
    match field_type(block, field).0 {
        FieldType::TypeList(s) | FieldType::Acks(s) => db.and_then(|d| d.sub(s)),
        _ => None,
    }
}

/// The cells of one field: (part, JSON value).
fn field_cells(id: u8, v: &FVal, block: Option<&BlockDesc>, db: Option<&'static DbDesc>) -> Vec<(Part, Json)> {
    let sub = sub_block(db, block, id);
    let cells = field_cells_of(id, v, block, db, sub);
    if cells.is_empty() {
        // An empty list or TypeList has no element to show: its (empty) bytes stand in its first column.
        return vec![(first_part(db, block, id), value_json(&FVal::Raw(Vec::new()), sub))];
    }
    cells
}

fn field_cells_of(
    id: u8,
    v: &FVal,
    block: Option<&BlockDesc>,
    db: Option<&'static DbDesc>,
    sub: Option<&BlockDesc>,
) -> Vec<(Part, Json)> {
    match (field_layout(block, id), v) {
        (_, FVal::Raw(_)) => vec![(first_part(db, block, id), value_json(v, sub))],
        (Layout::Elements, FVal::List(items)) => {
            items.iter().enumerate().map(|(k, i)| (Part::Elem(k as u16), value_json(i, sub))).collect()
        }
        (Layout::Subs(_), FVal::Sub(items)) => items.iter().map(|(s, i)| (Part::Sub(*s), value_json(i, sub))).collect(),
        _ => vec![(Part::Whole, value_json(v, sub))],
    }
}

/// The first column of a field (where a raw value goes).
fn first_part(db: Option<&'static DbDesc>, block: Option<&BlockDesc>, id: u8) -> Part {
    let fd = block.and_then(|b| b.field(id));
    match field_layout(block, id) {
        Layout::Whole => Part::Whole,
        Layout::Elements => Part::Elem(fd.and_then(|f| f.names.first()).map_or(0, |(k, _)| u16::from(*k))),
        Layout::Subs(s) => Part::Sub(db.and_then(|d| d.sub(s)).and_then(|b| b.fields.first()).map_or(0, |f| f.id)),
    }
}

fn record_cells(rec: &FRecord, block: Option<&BlockDesc>, db: Option<&'static DbDesc>) -> Vec<(u8, Part, Json)> {
    rec.values
        .iter()
        .flat_map(|(id, v)| field_cells(*id, v, block, db).into_iter().map(move |(p, j)| (*id, p, j)))
        .collect()
}

fn shape_json(s: &Shape) -> Json {
    let mut o = Map::new();
    if let Some(t) = s.type_byte {
        o.insert("type".into(), Json::from(t));
    }
    if s.long {
        o.insert("long".into(), Json::Bool(true));
    }
    if let Some(d) = &s.data {
        o.insert("data".into(), Json::from(hex::encode(d)));
    } else {
        let fields = s
            .fields
            .iter()
            .map(|f| match (&f.payload, f.long) {
                (Some(p), l) => json!([f.id, u8::from(l), hex::encode(p)]),
                (None, true) => json!([f.id, 1]),
                (None, false) => json!([f.id]),
            })
            .collect();
        o.insert("fields".into(), Json::Array(fields));
    }
    Json::Object(o)
}

/// The friendly JSON of a database and its tables as CSV; their cells are charged against `budget` (bytes)
/// before they are made.
pub fn to_json_and_csv(doc: &FDoc, mut budget: u64) -> Result<(Json, Vec<CsvTable>)> {
    let db = descriptor::of(doc.file_type);
    let names = table_names(doc);
    let mut tables = Vec::new();
    let mut csv = Vec::new();
    for (ti, (t, name)) in doc.tables.iter().zip(&names).enumerate() {
        let block = db.and_then(|d| d.table(t.block));
        let mut o = Map::new();
        o.insert("name".into(), Json::from(name.as_str()));
        o.insert("title".into(), block.map_or(Json::Null, |b| Json::from(b.title)));
        o.insert("block".into(), Json::from(t.block));
        if t.long {
            o.insert("long".into(), Json::Bool(true));
        }
        match &t.body {
            FBody::Data(d) => {
                o.insert("data".into(), Json::from(hex::encode(d)));
                csv.push(CsvTable {
                    name: name.clone(),
                    columns: vec!["data".into()],
                    rows: vec![vec![hex::encode(d)]],
                });
            }
            FBody::Records(records) => {
                if t.record_type != 0 {
                    o.insert("record_type".into(), Json::from(t.record_type));
                }
                let cells: Vec<Vec<(u8, Part, Json)>> = records.iter().map(|r| record_cells(r, block, db)).collect();
                let seen: Vec<(u8, Part)> = cells.iter().flatten().map(|(f, p, _)| (*f, *p)).collect();
                let cols = columns(db, block, &seen);
                // Every CSV row holds every column; every JSON cell its name and value.
                let cost = (records.len() as u64)
                    .saturating_mul(cols.len() as u64)
                    .saturating_add((seen.len() as u64).saturating_mul(24));
                budget = budget.checked_sub(cost).ok_or_else(|| {
                    Error::limit(
                        FORMAT_ID,
                        format!("tables[{ti}]"),
                        0,
                        "the table's cells would take more bytes than the expansion limit allows (--max-expansion raises it)",
                    )
                })?;
                o.insert(
                    "columns".into(),
                    Json::Array(cols.iter().map(|c| json!({ "name": c.name, "type": c.type_name })).collect()),
                );
                let mut rows_json = Vec::new();
                let mut rows_csv = Vec::new();
                let index: std::collections::HashMap<(u8, Part), usize> =
                    cols.iter().enumerate().map(|(ci, c)| ((c.field, c.part), ci)).collect();
                for (rec, cells) in records.iter().zip(&cells) {
                    let mut r = Map::new();
                    let mut row = vec![String::new(); cols.len()];
                    let mut by_column: Vec<(usize, &Json)> =
                        cells.iter().filter_map(|(f, p, v)| index.get(&(*f, *p)).map(|&ci| (ci, v))).collect();
                    // Columns in table order.
                    by_column.sort_by_key(|(ci, _)| *ci);
                    for (ci, v) in by_column {
                        if let (Some(c), Some(cell)) = (cols.get(ci), row.get_mut(ci)) {
                            r.insert(c.name.clone(), v.clone());
                            *cell = cell_text(v);
                        }
                    }
                    if let Some(s) = &rec.shape {
                        r.insert("~record".into(), shape_json(s));
                    }
                    rows_json.push(Json::Object(r));
                    rows_csv.push(row);
                }
                o.insert("records".into(), Json::Array(rows_json));
                csv.push(CsvTable {
                    name: name.clone(),
                    columns: cols.iter().map(|c| c.name.clone()).collect(),
                    rows: rows_csv,
                });
            }
        }
        tables.push(Json::Object(o));
    }
    let (title, _) = doc.file_type.titles();
    let mut top = json!({
        "format": FORMAT_ID,
        "form": "tables",
        "file_type": doc.file_type.id(),
        "title": title,
        "length_encoding": doc.encoding.id(),
        "database": if doc.db_long { json!({"type": doc.db_type, "long": true}) } else { json!({"type": doc.db_type}) },
        "tables": tables,
    });
    if !doc.trailer.is_empty() {
        top["trailer"] = serde_json::to_value(&doc.trailer).unwrap_or(Json::Null);
    }
    Ok((top, csv))
}

// ---------------------------------------------------------------------------------------------------------
// Back from JSON and CSV

/// One input cell: a JSON value or CSV text.
#[derive(Debug, Clone, Copy)]
enum In<'a> {
    J(&'a Json),
    C(&'a str),
}

fn found(input: In<'_>) -> String {
    match input {
        In::J(Json::String(s)) => format!("text \"{s}\""),
        In::C(s) if s.trim().parse::<f64>().is_err() => format!("text \"{s}\""),
        In::C(s) => s.to_string(),
        In::J(other) => other.to_string(),
    }
}

fn as_raw(input: In<'_>) -> Option<std::result::Result<Vec<u8>, String>> {
    let hex_text = match input {
        In::J(Json::Object(o)) if o.len() == 1 => o.get("raw")?.as_str()?,
        In::C(s) => s.strip_prefix("raw:")?,
        _ => return None,
    };
    Some(hex::decode(hex_text.trim()).map_err(|e| format!("raw bytes `{hex_text}` are not hex ({e})")))
}

/// A scalar value of type `ty` (the element type, for lists).
fn scalar(ty: FieldType, type_name: &str, input: In<'_>) -> std::result::Result<FVal, String> {
    let integer = |lo: i64, hi: i64| -> std::result::Result<FVal, String> {
        let v = match input {
            In::J(Json::Number(n)) => n.as_i64().or_else(|| n.as_u64().map(|_| i64::MAX)),
            In::C(s) => s.trim().parse::<i64>().ok(),
            _ => None,
        };
        match v {
            Some(i) if (lo..=hi).contains(&i) => Ok(FVal::Int(i)),
            Some(i) => Err(format!("{i} is out of range {lo}…{hi} ({type_name})")),
            None => Err(format!("expected an integer ({type_name}), found {}", found(input))),
        }
    };
    match ty {
        FieldType::String | FieldType::StringList => match input {
            In::J(Json::String(s)) => Ok(FVal::Str(s.clone())),
            In::C(s) => Ok(FVal::Str(s.to_string())),
            In::J(_) => Err(format!("expected text ({type_name}), found {}", found(input))),
        },
        FieldType::SignedLong => integer(i64::from(i32::MIN), i64::from(i32::MAX)),
        FieldType::UnsignedLong => integer(0, i64::from(u32::MAX)),
        FieldType::Byte | FieldType::ByteList => integer(0, 255),
        FieldType::BitList => integer(0, 1),
        FieldType::Float | FieldType::FloatList => {
            let v = match input {
                In::J(Json::Number(n)) => n.as_f64(),
                In::C(s) => s.trim().parse::<f64>().ok().filter(|_| !s.trim().is_empty()),
                _ => None,
            };
            match v.map(|f| f as f32) {
                Some(f) if f.is_finite() => Ok(FVal::Float(f)),
                Some(_) => Err(format!("{} does not fit a 32-bit float ({type_name})", found(input))),
                None => Err(format!("expected a number ({type_name}), found {}", found(input))),
            }
        }
        FieldType::Hex | FieldType::TypeList(_) | FieldType::Acks(_) => {
            let text = match input {
                In::J(Json::String(s)) => s.as_str(),
                In::C(s) => s,
                In::J(_) => return Err(format!("expected hex bytes ({type_name}), found {}", found(input))),
            };
            hex::decode(text.trim())
                .map(FVal::Hex)
                .map_err(|_| format!("expected hex bytes ({type_name}), found {}", found(input)))
        }
    }
}

/// The sub-fields of an object (acks records).
fn sub_values(o: &Json, sub: Option<&BlockDesc>) -> std::result::Result<Vec<(u8, FVal)>, String> {
    let Json::Object(o) = o else { return Err(format!("expected an object of sub-fields, found {o}")) };
    let mut out = Vec::new();
    for (k, v) in o {
        let id = sub
            .and_then(|s| s.fields.iter().find(|f| f.name() == Some(k.as_str())))
            .map(|f| f.id)
            .or_else(|| k.strip_prefix('f').and_then(|n| n.parse().ok()))
            .ok_or_else(|| format!("unknown sub-field `{k}`"))?;
        let (ty, tn) = field_type(sub, id);
        out.push((id, scalar(ty, tn, In::J(v)).map_err(|e| format!("`{k}`: {e}"))?));
    }
    out.sort_by_key(|(id, _)| *id);
    Ok(out)
}

/// A whole field from one cell (lists and acks as JSON arrays; CSV cells hold the array's JSON text).
fn whole(ty: FieldType, type_name: &str, input: In<'_>, sub: Option<&BlockDesc>) -> std::result::Result<FVal, String> {
    let list_like = matches!(
        ty,
        FieldType::FloatList | FieldType::ByteList | FieldType::BitList | FieldType::StringList | FieldType::Acks(_)
    );
    if !list_like {
        return scalar(ty, type_name, input);
    }
    let parsed;
    let value = match input {
        In::J(v) => v,
        In::C(s) => {
            parsed = serde_json::from_str::<Json>(s).map_err(|_| {
                format!("expected a list ({type_name}) written as JSON, like [1, 2], found {}", found(input))
            })?;
            &parsed
        }
    };
    let Json::Array(items) = value else {
        return Err(match input {
            In::C(_) => format!("expected a list ({type_name}) written as JSON, like [1, 2], found {}", found(input)),
            In::J(_) => format!("expected a list ({type_name}), found {}", found(input)),
        });
    };
    if let FieldType::Acks(_) = ty {
        return items.iter().map(|i| sub_values(i, sub)).collect::<std::result::Result<_, _>>().map(FVal::Acks);
    }
    items
        .iter()
        .enumerate()
        .map(|(k, i)| scalar(ty, type_name, In::J(i)).map_err(|e| format!("element {k}: {e}")))
        .collect::<std::result::Result<_, _>>()
        .map(FVal::List)
}

/// One input cell of a record: column name, its index (CSV), field, part, value.
type CellIn<'a> = (String, Option<usize>, u8, Part, In<'a>);

/// Where a cell is, for messages.
struct Ctx<'a> {
    table: &'a str,
    record: usize,
    /// `tables[1].records[0]` (JSON) or `` for CSV.
    json: Option<String>,
    /// (line, first column number) for CSV.
    csv: Option<(usize, &'a [Column])>,
}

fn cell_error(ctx: &Ctx<'_>, col: &str, col_index: Option<usize>, message: &str) -> Error {
    let at = match (&ctx.json, ctx.csv) {
        (Some(p), _) => format!("`{p}[\"{col}\"]`"),
        (None, Some((line, _))) => match col_index {
            Some(c) => format!("CSV line {line}, column {}", c + 1),
            None => format!("CSV line {line}, the stored value of a column the CSV leaves out"),
        },
        _ => String::new(),
    };
    let row = if ctx.csv.is_some() { format!("row {}", ctx.record + 1) } else { format!("record {}", ctx.record) };
    Error::Refused(format!("{FORMAT_ID}: table {}, {row}, column \"{col}\" ({at}): {message}", ctx.table))
}

/// The values of one record from its cells: `(column name, its index for CSV, field, part, input)`.
fn assemble(
    cells: Vec<CellIn<'_>>,
    block: Option<&BlockDesc>,
    db: Option<&'static DbDesc>,
    ctx: &Ctx<'_>,
) -> Result<Vec<(u8, FVal)>> {
    let mut ids: Vec<u8> = cells.iter().map(|c| c.2).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut out = Vec::new();
    for id in ids {
        let mine: Vec<&CellIn<'_>> = cells.iter().filter(|c| c.2 == id).collect();
        // One cell per column: a second (`Name` and `f0` in a JSON record) would be dropped unseen.
        for (k, c) in mine.iter().enumerate() {
            if let Some(first) = mine[..k].iter().find(|o| o.3 == c.3) {
                let message = format!("this is column \"{}\" again: give each column once", first.0);
                return Err(cell_error(ctx, &c.0, c.1, &message));
            }
        }
        let (ty, type_name) = field_type(block, id);
        // Raw bytes: the field's only cell.
        if let Some(c) = mine.iter().find(|c| as_raw(c.4).is_some()) {
            let bytes = as_raw(c.4).unwrap_or(Ok(Vec::new())).map_err(|e| cell_error(ctx, &c.0, c.1, &e))?;
            if let Some(other) = mine.iter().find(|o| o.0 != c.0) {
                return Err(cell_error(
                    ctx,
                    &other.0,
                    other.1,
                    &format!("the field's raw bytes are given in \"{}\"; leave its other columns empty", c.0),
                ));
            }
            out.push((id, FVal::Raw(bytes)));
            continue;
        }
        let sub = sub_block(db, block, id);
        let value = match field_layout(block, id) {
            Layout::Whole => {
                let c = mine.first().copied();
                match (c, mine.iter().find(|c| c.3 != Part::Whole)) {
                    (_, Some(bad)) => return Err(cell_error(ctx, &bad.0, bad.1, "this field has one column")),
                    (Some(c), None) => whole(ty, type_name, c.4, sub).map_err(|e| cell_error(ctx, &c.0, c.1, &e))?,
                    (None, None) => continue,
                }
            }
            Layout::Elements => {
                let mut elems: Vec<(u16, &CellIn<'_>)> = Vec::new();
                for c in &mine {
                    match c.3 {
                        Part::Elem(k) => elems.push((k, c)),
                        _ => return Err(cell_error(ctx, &c.0, c.1, "this field's columns are its elements")),
                    }
                }
                elems.sort_by_key(|(k, _)| *k);
                let mut items = Vec::new();
                for (n, (k, c)) in elems.iter().enumerate() {
                    if usize::from(*k) != n {
                        return Err(cell_error(
                            ctx,
                            &c.0,
                            c.1,
                            &format!("element {k} is given but element {n} of the same list is empty"),
                        ));
                    }
                    items.push(scalar(ty, type_name, c.4).map_err(|e| cell_error(ctx, &c.0, c.1, &e))?);
                }
                FVal::List(items)
            }
            Layout::Subs(_) => {
                let mut items = Vec::new();
                for c in &mine {
                    let Part::Sub(s) = c.3 else {
                        return Err(cell_error(ctx, &c.0, c.1, "this field's columns are its sub-fields"));
                    };
                    let (sty, stn) = field_type(sub, s);
                    items.push((s, scalar(sty, stn, c.4).map_err(|e| cell_error(ctx, &c.0, c.1, &e))?));
                }
                items.sort_by_key(|(s, _)| *s);
                FVal::Sub(items)
            }
        };
        out.push((id, value));
    }
    Ok(out)
}

fn shape_from_json(v: &Json, path: &str) -> Result<Shape> {
    let bad = |m: &str| Error::Refused(format!("{FORMAT_ID} document: `{path}`: {m}"));
    let Json::Object(o) = v else { return Err(bad("expected an object")) };
    let type_byte = match o.get("type") {
        None => None,
        Some(t) => Some(t.as_u64().and_then(|t| u8::try_from(t).ok()).ok_or_else(|| bad("`type` is a byte"))?),
    };
    let long = o.get("long").and_then(Json::as_bool).unwrap_or(false);
    if let Some(d) = o.get("data") {
        let d = d.as_str().and_then(|d| hex::decode(d).ok()).ok_or_else(|| bad("`data` is hex"))?;
        return Ok(Shape { type_byte, long, data: Some(d), fields: Vec::new() });
    }
    let mut fields = Vec::new();
    for f in o.get("fields").and_then(Json::as_array).map(Vec::as_slice).unwrap_or_default() {
        let a = f.as_array().map(Vec::as_slice).unwrap_or_default();
        let byte = |i: usize| a.get(i).and_then(Json::as_u64).and_then(|v| u8::try_from(v).ok());
        let id = byte(0).ok_or_else(|| bad("each field is [id], [id, long] or [id, long, hex]"))?;
        let payload = match a.get(2) {
            None => None,
            Some(h) => Some(h.as_str().and_then(|h| hex::decode(h).ok()).ok_or_else(|| bad("a kept payload is hex"))?),
        };
        fields.push(ShapeField { id, long: byte(1) == Some(1), payload });
    }
    Ok(Shape { type_byte, long, data: None, fields })
}

fn get_u8(o: &Map<String, Json>, key: &str, path: &str) -> Result<Option<u8>> {
    match o.get(key) {
        None => Ok(None),
        Some(v) => v.as_u64().and_then(|v| u8::try_from(v).ok()).map(Some).ok_or_else(|| {
            Error::Refused(format!("{FORMAT_ID} document: `{path}.{key}`: expected a byte (0–255), found {v}"))
        }),
    }
}

/// Whether a JSON document is the friendly form (rather than the node tree).
pub fn is_friendly(v: &Json) -> bool {
    v.get("form").and_then(Json::as_str) == Some("tables")
        || (v.get("tables").is_some() && v.get("database").and_then(|d| d.get("tables")).is_none())
}

/// The friendly JSON back to a database.
pub fn from_json(v: &Json) -> Result<FDoc> {
    let bad = |path: &str, m: String| Error::Refused(format!("{FORMAT_ID} document: `{path}`: {m}"));
    let Json::Object(top) = v else { return Err(bad("", "not a JSON object".into())) };
    let file_type: FileType = serde_json::from_value(top.get("file_type").cloned().unwrap_or(Json::Null))
        .map_err(|e| bad("file_type", e.to_string()))?;
    let encoding: LengthEncoding = match top.get("length_encoding") {
        None => LengthEncoding::default(),
        Some(e) => serde_json::from_value(e.clone()).map_err(|e| bad("length_encoding", e.to_string()))?,
    };
    let empty = Map::new();
    let dbo = top.get("database").and_then(Json::as_object).unwrap_or(&empty);
    let db_type = get_u8(dbo, "type", "database")?.unwrap_or(0);
    let db_long = dbo.get("long").and_then(Json::as_bool).unwrap_or(false);
    let trailer: Vec<RawNode> = match top.get("trailer") {
        None => Vec::new(),
        Some(t) => serde_json::from_value(t.clone()).map_err(|e| bad("trailer", e.to_string()))?,
    };
    let db = descriptor::of(file_type);
    let mut tables = Vec::new();
    let list =
        top.get("tables").and_then(Json::as_array).ok_or_else(|| bad("tables", "expected a list of tables".into()))?;
    for (ti, t) in list.iter().enumerate() {
        let path = format!("tables[{ti}]");
        let Json::Object(t) = t else { return Err(bad(&path, "expected an object".into())) };
        // The block: `block`, else the descriptor's table `name`.
        let named = t
            .get("name")
            .and_then(Json::as_str)
            .and_then(|n| db?.tables.iter().find(|b| b.name.eq_ignore_ascii_case(n)).map(|b| b.id));
        let block_id =
            get_u8(t, "block", &path)?.or(named).ok_or_else(|| bad(&path, "names no table: give `block`".into()))?;
        let block = db.and_then(|d| d.table(block_id));
        let name = table_name(db, block_id);
        let long = t.get("long").and_then(Json::as_bool).unwrap_or(false);
        let record_type = get_u8(t, "record_type", &path)?.unwrap_or(0);
        let body = if let Some(d) = t.get("data") {
            FBody::Data(
                d.as_str()
                    .and_then(|d| hex::decode(d).ok())
                    .ok_or_else(|| bad(&format!("{path}.data"), "expected hex".into()))?,
            )
        } else {
            let cols = columns(db, block, &[]);
            let records = t.get("records").and_then(Json::as_array).map(Vec::as_slice).unwrap_or_default();
            let mut out = Vec::new();
            for (ri, r) in records.iter().enumerate() {
                let rpath = format!("{path}.records[{ri}]");
                let Json::Object(r) = r else { return Err(bad(&rpath, "expected an object".into())) };
                let ctx = Ctx { table: &name, record: ri, json: Some(rpath.clone()), csv: None };
                let mut shape = None;
                let mut cells = Vec::new();
                for (k, v) in r {
                    if k == "~record" {
                        shape = Some(shape_from_json(v, &format!("{rpath}.~record"))?);
                        continue;
                    }
                    if v.is_null() {
                        continue;
                    }
                    let (field, part) = resolve(&cols, k)
                        .ok_or_else(|| cell_error(&ctx, k, None, &format!("table {name} has no column \"{k}\"")))?;
                    cells.push((k.clone(), None, field, part, In::J(v)));
                }
                let values = assemble(cells, block, db, &ctx)?;
                out.push(FRecord { values, shape });
            }
            FBody::Records(out)
        };
        tables.push(FTable { block: block_id, long, record_type, body });
    }
    Ok(FDoc { file_type, encoding, db_type, db_long, tables, trailer })
}

/// Reads CSV text (RFC 4180: `,`, `"` quoting, `""` for a quote, LF or CRLF) as rows of cells, each row with
/// the line it starts on (1-based).
pub fn read_csv(text: &str) -> std::result::Result<Vec<(usize, Vec<String>)>, String> {
    read_csv_with(text, ',')
}

/// The cell separators a spreadsheet saves CSV with: `,`; `;` (Excel where the decimal mark is a comma:
/// Russian, German, French locales); tab ("Text (Tab delimited)", and what a copy from a sheet gives).
pub const CSV_DELIMITERS: [char; 3] = [',', ';', '\t'];

/// How a delimiter is named in messages.
pub fn delimiter_name(delimiter: char) -> &'static str {
    match delimiter {
        ';' => "semicolons (;)",
        '\t' => "tabs",
        _ => "commas (,)",
    }
}

/// [`read_csv`] with `delimiter` between cells.
pub fn read_csv_with(text: &str, delimiter: char) -> std::result::Result<Vec<(usize, Vec<String>)>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows = Vec::new();
    let mut row: Vec<String> = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut line = 1;
    let mut row_line = 1;
    let mut chars = text.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        any = true;
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    cell.push('"');
                }
                '"' => quoted = false,
                '\n' => {
                    line += 1;
                    cell.push(c);
                }
                _ => cell.push(c),
            }
            continue;
        }
        match c {
            '"' if cell.is_empty() => quoted = true,
            c if c == delimiter => row.push(std::mem::take(&mut cell)),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                row.push(std::mem::take(&mut cell));
                rows.push((row_line, std::mem::take(&mut row)));
                line += 1;
                row_line = line;
                any = false;
            }
            _ => cell.push(c),
        }
    }
    if quoted {
        return Err(format!("line {row_line}: a quoted cell is not closed"));
    }
    if any {
        row.push(cell);
        rows.push((row_line, row));
    }
    Ok(rows)
}

/// The delimiter of a table's CSV: the first of [`CSV_DELIMITERS`] whose header line splits into names
/// of `cols` only (so a `;` inside a quoted text cell does not decide), else the one the header line
/// holds most of outside quotes (for the error naming the column), `,` when it holds none.
fn csv_delimiter(text: &str, cols: &[Column]) -> char {
    let header = |d: char| read_csv_with(text, d).ok().and_then(|rows| rows.into_iter().next()).map(|(_, h)| h);
    let all_columns = |h: &[String]| h.len() > 1 && h.iter().all(|name| resolve(cols, name).is_some());
    if let Some(d) = CSV_DELIMITERS.into_iter().find(|&d| header(d).is_some_and(|h| all_columns(&h))) {
        return d;
    }
    let counts = CSV_DELIMITERS.map(|d| (header(d).map_or(0, |h| h.len()), d));
    counts.into_iter().rev().filter(|(n, _)| *n > 1).max_by_key(|(n, _)| *n).map_or(',', |(_, d)| d)
}

/// What reading a table's CSV found besides its rows (see [`apply_csv_from`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvApplied {
    /// The cell separator the header line decided.
    pub delimiter: char,
    /// The columns the CSV left out whose stored values were kept, in table order.
    pub kept: Vec<String>,
}

/// [`apply_csv_from`] for a CSV without a name to give in messages; returns the delimiter read.
pub fn apply_csv(doc: &mut FDoc, table: &str, text: &str) -> Result<char> {
    apply_csv_from(doc, table, text, "the CSV").map(|applied| applied.delimiter)
}

/// Replaces the records of table `table` (a name of [`table_names`]) by the rows of a CSV that
/// `relic convert --to csv` wrote (and a user edited), named `source` in messages. Row `i` keeps the stored
/// structure of record `i` of `doc`; an empty cell is an absent value, except that a field holding empty
/// text stays so.
///
/// The header line must name each column once: a column named twice (`Price` renamed `Name`, or `Name`
/// and `f0`) or one the table does not have is refused, naming it, the file, line 1 and its column number.
/// A column the CSV leaves out (deleted in a spreadsheet) keeps the stored values of the rows `doc` holds,
/// and is listed in [`CsvApplied::kept`] for the caller to say so; a left-out column that holds no stored
/// value reads as its empty cells would. The values go with the rows in stored order (row `i` takes record
/// `i`'s), so a CSV that leaves out a column holding values must hold as many rows as the table: with rows
/// added (no value to keep) or deleted (which one is unknown) it is refused, naming the column.
///
/// The CSV may be saved as spreadsheets save it: cells separated by `,`, `;` or tabs (the header line
/// decides; the delimiter read is returned), a decimal comma in number cells when `,` does not separate
/// cells, and hex bytes a spreadsheet took for a number (see [`spreadsheet_cell`]).
pub fn apply_csv_from(doc: &mut FDoc, table: &str, text: &str, source: &str) -> Result<CsvApplied> {
    let db = descriptor::of(doc.file_type);
    let names = table_names(doc);
    let ti = names.iter().position(|n| n.eq_ignore_ascii_case(table)).ok_or_else(|| {
        Error::Refused(format!("{FORMAT_ID}: the database has no table `{table}` (it has {})", names.join(", ")))
    })?;
    let name = names[ti].clone();
    let t = &mut doc.tables[ti];
    let block = db.and_then(|d| d.table(t.block));
    let cols = columns(db, block, &[]);
    let delimiter = csv_delimiter(text, &cols);
    let rows =
        read_csv_with(text, delimiter).map_err(|e| Error::Refused(format!("{FORMAT_ID}: table {name}: CSV {e}")))?;
    let Some(((_, header), rows)) = rows.split_first() else {
        return Err(Error::Refused(format!("{FORMAT_ID}: table {name}: the CSV is empty (it needs its header line)")));
    };
    let FBody::Records(base) = &t.body else {
        // A table kept as raw bytes: one `data` column, one row of hex.
        let data = match (header.as_slice(), rows) {
            ([h], [(_, row)]) if h == "data" => row.first().and_then(|c| hex::decode(c.trim()).ok()),
            _ => None,
        };
        let data = data.ok_or_else(|| {
            Error::Refused(format!(
                "{FORMAT_ID}: table {name} is kept as raw bytes: its CSV is a `data` column and one row of hex"
            ))
        })?;
        t.body = FBody::Data(data);
        return Ok(CsvApplied { delimiter, kept: Vec::new() });
    };
    // A table with no columns (records without fields) has an empty header line.
    let header: &[String] = if header.len() == 1 && header[0].is_empty() { &[] } else { header };
    let mut resolved: Vec<(u8, Part)> = Vec::new();
    for (ci, h) in header.iter().enumerate() {
        let at = format!("{FORMAT_ID}: table {name}: {source} line 1, column {}", ci + 1);
        let r = resolve(&cols, h).ok_or_else(|| Error::Refused(format!("{at}: table {name} has no column \"{h}\"")))?;
        if let Some(first) = resolved.iter().position(|&seen| seen == r) {
            let again = if header[first] == *h {
                format!("column \"{h}\" is given twice (columns {} and {})", first + 1, ci + 1)
            } else {
                format!("column \"{h}\" is column {} (\"{}\") again", first + 1, header[first])
            };
            return Err(Error::Refused(format!("{at}: {again}: each column may be given once")));
        }
        resolved.push(r);
    }
    // The columns `relic convert` wrote for the stored records that the header leaves out: their stored
    // values are kept (nothing typed in the CSV speaks for them). One holding no value reads as empty cells.
    let stored: Vec<Vec<(u8, Part, Json)>> = base.iter().map(|r| record_cells(r, block, db)).collect();
    let seen: Vec<(u8, Part)> = stored.iter().flatten().map(|(f, p, _)| (*f, *p)).collect();
    let missing: Vec<Column> = columns(db, block, &seen)
        .into_iter()
        .filter(|c| !resolved.contains(&(c.field, c.part)) && seen.contains(&(c.field, c.part)))
        .collect();
    if let Some(first) = missing.first() {
        if header.is_empty() {
            return Err(Error::Refused(format!(
                "{FORMAT_ID}: table {name}: {source} line 1 names no column, and the stored records hold \
                 values (column {} first): put the header line back",
                first.name
            )));
        }
        let blank = |cells: &[String]| cells.len() == 1 && cells[0].is_empty() && header.len() != 1;
        let mut data_rows = rows.iter().filter(|(_, cells)| !blank(cells));
        if let Some((line, _)) = data_rows.nth(base.len()) {
            return Err(Error::Refused(format!(
                "{FORMAT_ID}: table {name}: column {} missing from {source}: the stored values would be kept, \
                 but the row on line {line} is new and has none (the table holds {} {}): put the column back",
                first.name,
                base.len(),
                if base.len() == 1 { "record" } else { "records" }
            )));
        }
        // Row i takes record i's values: with a row deleted, which one lost its value is unknown.
        let count = rows.iter().filter(|(_, cells)| !blank(cells)).count();
        if count < base.len() {
            return Err(Error::Refused(format!(
                "{FORMAT_ID}: table {name}: column {} missing from {source}: its stored values go with the rows in \
                 stored order, and the CSV has {count} {} where the table holds {}: which one was deleted is \
                 unclear; put the column back",
                first.name,
                if count == 1 { "row" } else { "rows" },
                base.len()
            )));
        }
    }
    let mut out = Vec::new();
    for (ri, (line, cells)) in rows.iter().enumerate() {
        if cells.len() == 1 && cells[0].is_empty() && header.len() != 1 {
            if header.is_empty() {
                out.push(FRecord { values: Vec::new(), shape: base.get(out.len()).and_then(|r| r.shape.clone()) });
            }
            continue; // a blank line, or a record without fields
        }
        let ctx = Ctx { table: &name, record: ri, json: None, csv: Some((*line, &cols)) };
        if cells.len() != header.len() {
            return Err(Error::Refused(format!(
                "{FORMAT_ID}: table {name}, row {} (CSV line {line}): {} cells, the header has {}",
                ri + 1,
                cells.len(),
                header.len()
            )));
        }
        let base_rec = base.get(out.len());
        let base_text: std::collections::HashMap<(u8, Part), String> = base_rec
            .map(|r| record_cells(r, block, db))
            .unwrap_or_default()
            .into_iter()
            .map(|(f, p, v)| ((f, p), cell_text(&v)))
            .collect();
        let mut read = Vec::with_capacity(cells.len());
        for (ci, (cell, (field, part))) in cells.iter().zip(&resolved).enumerate() {
            let layout = field_layout(block, *field);
            let (ty, _) = field_type(block, *field);
            let scalar_cell = matches!(layout, Layout::Elements) || !is_list_like(ty);
            let was = base_text.get(&(*field, *part)).map(String::as_str);
            let cell = if scalar_cell { spreadsheet_cell(ty, cell, was, delimiter) } else { Ok(cell.clone()) };
            read.push(cell.map_err(|e| cell_error(&ctx, &header[ci], Some(ci), &e))?);
        }
        let mut input = Vec::new();
        for c in &missing {
            if let Some(text) = base_text.get(&(c.field, c.part)) {
                input.push((c.name.clone(), None, c.field, c.part, In::C(text.as_str())));
            }
        }
        for (ci, (cell, (field, part))) in read.iter().zip(&resolved).enumerate() {
            if cell.is_empty() {
                // A value that showed as an empty cell (empty text, no bytes) stays; any other empty cell is
                // an absent value.
                if !base_text.get(&(*field, *part)).is_some_and(String::is_empty) {
                    continue;
                }
            }
            input.push((header[ci].clone(), Some(ci), *field, *part, In::C(cell.as_str())));
        }
        let values = assemble(input, block, db, &ctx)?;
        out.push(FRecord { values, shape: base_rec.and_then(|r| r.shape.clone()) });
    }
    t.body = FBody::Records(out);
    Ok(CsvApplied { delimiter, kept: missing.into_iter().map(|c| c.name).collect() })
}

/// Whether a field's one cell holds a whole list (as JSON).
fn is_list_like(ty: FieldType) -> bool {
    matches!(
        ty,
        FieldType::FloatList | FieldType::ByteList | FieldType::BitList | FieldType::StringList | FieldType::Acks(_)
    )
}

/// A CSV cell of a scalar of type `ty` as a spreadsheet may have saved it, read back to what relic wrote;
/// `was` is what the cell showed in the file packed over (the base record), `delimiter` the CSV's.
///
/// - Hex bytes (`000000`, `00e0`) are numbers to a spreadsheet, which saves them without leading zeros
///   (`0`). Digits-only text shorter than the field's stored bytes is that number: padded back to the
///   stored length. A number in another form (`1E+05`, `1.5`) is refused, naming the cell, unless it is
///   the very number the stored text reads as (then the stored bytes stay).
/// - Floats take a decimal comma (`2,5`) when `,` does not separate cells (Excel's `;` CSV in locales
///   whose decimal mark is a comma).
///
/// Anything else is the cell as it is, for `scalar` to judge.
pub fn spreadsheet_cell(
    ty: FieldType,
    cell: &str,
    was: Option<&str>,
    delimiter: char,
) -> std::result::Result<String, String> {
    let trimmed = cell.trim();
    match ty {
        FieldType::Hex => {
            let Some(was) = was.map(str::trim).filter(|w| !w.is_empty()) else { return Ok(cell.to_string()) };
            let digits = !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit());
            let is_hex = trimmed.len() % 2 == 0 && trimmed.bytes().all(|b| b.is_ascii_hexdigit());
            if trimmed.is_empty() || (is_hex && !(digits && trimmed.len() < was.len())) {
                return Ok(cell.to_string());
            }
            let as_number = |s: &str| s.replace(',', ".").parse::<f64>().ok().filter(|f| f.is_finite());
            match (as_number(trimmed), as_number(was)) {
                (Some(a), Some(b)) if a == b => Ok(was.to_string()),
                _ if digits && trimmed.len() < was.len() => Ok(format!("{trimmed:0>width$}", width = was.len())),
                (Some(_), _) => Err(format!(
                    "`{trimmed}` looks like hex bytes (the cell held `{was}`) that a spreadsheet turned into a \
                     number, and which bytes it stands for is unclear: write the cell as hex text (format the \
                     column as text before typing)"
                )),
                _ => Ok(cell.to_string()),
            }
        }
        FieldType::Float | FieldType::FloatList if delimiter != ',' => {
            let body = trimmed.strip_prefix('-').unwrap_or(trimmed);
            match body.split_once(',') {
                Some((i, f))
                    if !i.is_empty()
                        && !f.is_empty()
                        && i.bytes().all(|b| b.is_ascii_digit())
                        && f.bytes().all(|b| b.is_ascii_digit()) =>
                {
                    Ok(trimmed.replacen(',', ".", 1))
                }
                _ => Ok(cell.to_string()),
            }
        }
        _ => Ok(cell.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_bytes_a_spreadsheet_made_a_number_read_back_to_the_stored_bytes() {
        let hex = |cell: &str, was: Option<&str>| spreadsheet_cell(FieldType::Hex, cell, was, ',');
        // The number the stored text reads as: the stored bytes.
        assert_eq!(hex("0", Some("000000")), Ok("000000".into()));
        assert_eq!(hex("1000", Some("001000")), Ok("001000".into()));
        assert_eq!(hex("0", Some("00e0")), Ok("00e0".into()));
        assert_eq!(hex("1.00E+05", Some("1e05")), Ok("1e05".into()));
        // Another number of digits only: its leading zeros back.
        assert_eq!(hex("1001", Some("001000")), Ok("001001".into()));
        // Hex text, or a cell without stored bytes to go by, as it is.
        assert_eq!(hex("0a0b", Some("000000")), Ok("0a0b".into()));
        assert_eq!(hex("0", None), Ok("0".into()));
        assert_eq!(hex("", Some("00")), Ok("".into()));
        // Any other number could be other bytes.
        assert!(hex("1.5E+03", Some("000000")).unwrap_err().contains("which bytes it stands for is unclear"));
    }

    #[test]
    fn a_decimal_comma_is_read_where_commas_do_not_separate_cells() {
        let float = |cell: &str, d: char| spreadsheet_cell(FieldType::Float, cell, None, d);
        assert_eq!(float("2,5", ';'), Ok("2.5".into()));
        assert_eq!(float("-0,75", '\t'), Ok("-0.75".into()));
        assert_eq!(float("2,5", ','), Ok("2,5".into()));
        assert_eq!(float("1,234,5", ';'), Ok("1,234,5".into()));
        assert_eq!(spreadsheet_cell(FieldType::SignedLong, "2,5", None, ';'), Ok("2,5".into()));
    }

    #[test]
    fn the_header_line_decides_the_delimiter() {
        let cols = |names: &[&str]| -> Vec<Column> {
            names
                .iter()
                .enumerate()
                .map(|(k, n)| Column {
                    name: n.to_string(),
                    field: k as u8,
                    part: Part::Whole,
                    type_name: "String".into(),
                })
                .collect()
        };
        let c = cols(&["Name", "Price", "A;B"]);
        assert_eq!(csv_delimiter("Name,Price\n", &c), ',');
        assert_eq!(csv_delimiter("\u{feff}Name;Price\r\n", &c), ';');
        assert_eq!(csv_delimiter("Name\tPrice\r\n", &c), '\t');
        // A `;` inside a quoted column name does not make the file `;`-separated.
        assert_eq!(csv_delimiter("\"A;B\",Name\n", &c), ',');
        // No dialect names only columns: the one the header holds most of, for the error to name.
        assert_eq!(csv_delimiter("Name;Cost;Size\n", &c), ';');
        assert_eq!(csv_delimiter("Name\n", &c), ',');
        assert_eq!(
            read_csv_with("a;\"b;c\"\r\n1;2", ';'),
            Ok(vec![(1, vec!["a".into(), "b;c".into()]), (2, vec!["1".into(), "2".into()])])
        );
    }
}
