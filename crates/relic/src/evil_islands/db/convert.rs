//! DB to the common model: one table per DB table (records as objects with typed fields, `f<index>` keys),
//! as a JSON document and as CSV tables, and the info summary.

use serde_json::{json, Map, Value as Json};

use super::types::*;
use crate::asset::{Document, Table as CsvTable};

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
            let base =
                doc.file_type.table(t.type_byte).map_or_else(|| format!("table_{}", t.type_byte), |l| l.id.to_string());
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

/// The tables as JSON (records as objects with typed fields) plus one CSV table each.
pub fn to_document(doc: &DbDocument) -> Document {
    let (title, title_ru) = doc.file_type.titles();
    let ids = table_ids(doc);
    let mut tables_json = Vec::new();
    let mut csv = Vec::new();
    for (t, id) in doc.database.tables.iter().zip(&ids) {
        let layout = doc.file_type.table(t.type_byte);
        let mut obj = Map::new();
        obj.insert("name".into(), Json::from(id.as_str()));
        obj.insert("title".into(), layout.map_or(Json::Null, |l| Json::from(l.title)));
        obj.insert("title_ru".into(), layout.map_or(Json::Null, |l| Json::from(l.title_ru)));
        obj.insert("type".into(), Json::from(t.type_byte));
        obj.insert("layout".into(), layout.map_or(Json::Null, |l| Json::from(l.format)));
        match &t.body {
            TableBody::Records(records) => {
                obj.insert("records".into(), Json::Array(records.iter().map(record_json).collect()));
                csv.push(csv_table(id, records));
            }
            TableBody::Data(d) => {
                obj.insert("records".into(), Json::Array(Vec::new()));
                obj.insert("raw".into(), Json::from(hex::encode(&d.0)));
                csv.push(CsvTable {
                    name: id.clone(),
                    columns: vec!["raw".into()],
                    rows: vec![vec![hex::encode(&d.0)]],
                });
            }
        }
        tables_json.push(Json::Object(obj));
    }
    let value = json!({
        "format": super::FORMAT_ID,
        "file_type": doc.file_type.id(),
        "title": title,
        "title_ru": title_ru,
        "tables": tables_json,
    });
    Document { value, tables: csv }
}

/// A CSV cell: text as it is, numbers as their shortest decimal, lists and composites as compact JSON,
/// raw bytes as `raw:<hex>`.
fn cell(v: &Value) -> String {
    match v {
        Value::String(s) | Value::Bits(s) => s.clone(),
        Value::Int(i) | Value::Time(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Hex(h) => hex::encode(&h.0),
        Value::Raw(h) => format!("raw:{}", hex::encode(&h.0)),
        other => value_json(other).to_string(),
    }
}

fn csv_table(id: &str, records: &[Record]) -> CsvTable {
    // Columns: every key seen, ordered by field index, then repeat number.
    let mut columns: Vec<(u8, usize, String)> = Vec::new();
    let keyed: Vec<Option<Vec<(String, &Field)>>> = records
        .iter()
        .map(|r| match &r.body {
            RecordBody::Fields(fields) => Some(field_keys(fields).into_iter().zip(fields).collect()),
            RecordBody::Data(_) => None,
        })
        .collect();
    let mut has_raw = false;
    for rec in &keyed {
        match rec {
            Some(fields) => {
                for (k, f) in fields {
                    if !columns.iter().any(|(_, _, c)| c == k) {
                        let repeat = k.split_once('#').and_then(|(_, n)| n.parse().ok()).unwrap_or(1);
                        columns.push((f.type_byte, repeat, k.clone()));
                    }
                }
            }
            None => has_raw = true,
        }
    }
    columns.sort();
    let mut names: Vec<String> = columns.into_iter().map(|(_, _, c)| c).collect();
    if has_raw {
        names.push("raw".into());
    }
    let rows = records
        .iter()
        .zip(&keyed)
        .map(|(r, k)| {
            names
                .iter()
                .map(|col| match (k, &r.body) {
                    (Some(fields), _) => fields.iter().find(|(key, _)| key == col).map(|(_, f)| cell(&f.value)),
                    (None, RecordBody::Data(d)) if col == "raw" => Some(hex::encode(&d.0)),
                    _ => None,
                })
                .map(Option::unwrap_or_default)
                .collect()
        })
        .collect();
    CsvTable { name: id.to_string(), columns: names, rows }
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
