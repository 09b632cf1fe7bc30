//! JSON and CSV output for documents.

#[cfg(feature = "export")]
use super::Exported;
#[cfg(feature = "export")]
use crate::asset::Document;
use crate::error::{Error, Result};

pub fn to_pretty(value: &serde_json::Value) -> Result<Vec<u8>> {
    let mut out = serde_json::to_vec_pretty(value).map_err(|e| Error::Unsupported(format!("JSON output: {e}")))?;
    out.push(b'\n');
    Ok(out)
}

#[cfg(feature = "export")]
#[cfg_attr(docsrs, doc(cfg(feature = "export")))]
/// One CSV file per table (`<stem>.<table>.csv`, or `<stem>.csv` for a single table).
pub fn tables_to_csv(doc: &Document) -> Result<Vec<Exported>> {
    if doc.tables.is_empty() {
        return Err(Error::Unsupported("this document has no tables to write as CSV".into()));
    }
    let single = doc.tables.len() == 1;
    doc.tables
        .iter()
        .map(|t| {
            let mut w = csv::Writer::from_writer(Vec::new());
            let io = |e: csv::Error| Error::Unsupported(format!("CSV output: {e}"));
            w.write_record(&t.columns).map_err(io)?;
            for row in &t.rows {
                w.write_record(row).map_err(io)?;
            }
            let bytes = w.into_inner().map_err(|e| Error::Unsupported(format!("CSV output: {e}")))?;
            let suffix = if single { String::new() } else { format!(".{}", t.name) };
            Ok(Exported { suffix, extension: "csv", bytes })
        })
        .collect()
}
