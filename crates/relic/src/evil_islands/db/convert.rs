//! DB to the common model: the friendly forms of [`super::friendly`] (the tables with the DB editor's
//! column names as a JSON document and as CSV tables), the plain JSON of a lossless value, and the info
//! summary.

use serde_json::{json, Map, Value as Json};

use super::types::*;
use crate::asset::Document;

/// The plain JSON of a typed value (floats as their shortest decimal, raw bytes as `{"raw": hex}`).
pub fn value_json(v: &Value) -> Json {
    match v {
        Value::String(s) | Value::Bits(s) => Json::from(s.as_str()),
        Value::Int(i) | Value::Time(i) => Json::from(*i),
        Value::Uint(u) => Json::from(*u),
        Value::Float(f) => Json::from(pretty_f64(*f)),
        Value::Floats(v) => Json::from(v.iter().map(|&f| pretty_f64(f)).collect::<Vec<_>>()),
        Value::Ints(v) => Json::from(v.clone()),
        Value::Bool(b) => Json::from(*b),
        Value::Bools(v) => Json::from(v.clone()),
        Value::Hex(h) => Json::from(hex::encode(&h.0)),
        Value::Raw(h) => json!({ "raw": hex::encode(&h.0) }),
        Value::Strings(items) => Json::Array(items.iter().map(|f| value_json(&f.value)).collect()),
        Value::Record(fields) => Json::Object(fields_object(fields)),
        Value::Records(records) => Json::Array(records.iter().map(record_json).collect()),
    }
}

/// `f<index>` keys; a repeated index gets `#2`, `#3`, … (a record should hold each field once).
fn field_keys(fields: &[Field]) -> Vec<String> {
    let mut seen: std::collections::HashMap<u8, usize> = Default::default();
    fields
        .iter()
        .map(|f| {
            let n = seen.entry(f.type_byte).or_insert(0);
            *n += 1;
            if *n == 1 {
                format!("f{}", f.type_byte)
            } else {
                format!("f{}#{}", f.type_byte, n)
            }
        })
        .collect()
}

fn fields_object(fields: &[Field]) -> Map<String, Json> {
    field_keys(fields).into_iter().zip(fields).map(|(k, f)| (k, value_json(&f.value))).collect()
}

fn record_json(rec: &Record) -> Json {
    match &rec.body {
        RecordBody::Fields(fields) => Json::Object(fields_object(fields)),
        RecordBody::Data(d) => json!({ "raw": hex::encode(&d.0) }),
    }
}

/// A unique file-safe name for each table: the layout's id, `table_<type>` for unknown ones.
pub fn table_ids(doc: &DbDocument) -> Vec<String> {
    let mut used = std::collections::HashSet::new();
    doc.database
        .tables
        .iter()
        .map(|t| {
            // The DB editor's descriptor names tables as the friendly forms do (`Materials`, `QuickItems`).
            let base = super::friendly::table_name(super::descriptor::of(doc.file_type), t.type_byte);
            let mut id = base.clone();
            let mut n = 1;
            while !used.insert(id.clone()) {
                n += 1;
                id = format!("{base}_{n}");
            }
            id
        })
        .collect()
}

/// The friendly forms (see [`super::friendly`]): the tables with the descriptor's named columns as JSON, and
/// one CSV table each; both pack back.
/// `file_len` (the file's size) sets the expansion budget the cells are charged against.
pub fn to_document(doc: &DbDocument, file_len: usize) -> crate::error::Result<Document> {
    let budget = crate::limits::expansion_budget(file_len as u64);
    let (value, tables) = super::friendly::to_json_and_csv(&super::friendly::from_lossless(doc)?, budget)?;
    Ok(Document { value, tables })
}

/// Summary for `relic info`: file type, length reading, tables with their record counts.
pub fn info(doc: &DbDocument, file_size: usize) -> Json {
    let ids = table_ids(doc);
    let tables: Vec<Json> = doc
        .database
        .tables
        .iter()
        .zip(&ids)
        .map(|(t, id)| {
            let layout = doc.file_type.table(t.type_byte);
            let (records, raw) = match &t.body {
                TableBody::Records(r) => (r.len(), false),
                TableBody::Data(_) => (0, true),
            };
            let mut o = json!({
                "name": id,
                "title": layout.map(|l| l.title),
                "title_ru": layout.map(|l| l.title_ru),
                "type": t.type_byte,
                "records": records,
            });
            if raw {
                o["raw"] = Json::Bool(true);
            }
            o
        })
        .collect();
    let (title, title_ru) = doc.file_type.titles();
    json!({
        "format": super::FORMAT_ID,
        "file_type": doc.file_type.id(),
        "title": title,
        "title_ru": title_ru,
        "length_encoding": doc.length_encoding.id(),
        "database_type": doc.database.type_byte,
        "tables": tables,
        "records": doc.database.tables.iter().map(|t| match &t.body {
            TableBody::Records(r) => r.len(),
            TableBody::Data(_) => 0,
        }).sum::<usize>(),
        "trailer_nodes": doc.trailer.len(),
        "file_size": file_size,
    })
}
