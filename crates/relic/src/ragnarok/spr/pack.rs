//! `relic pack ro-spr x.json`: the document as it is, or with the frame PNGs it names beside it.

use std::path::Path;

use super::document::SprDocument;
use super::FORMAT_ID;
use crate::error::Result;
use crate::registry::PackRequest;

/// Writes the file the document at `json_path` describes.
pub fn from_json_at(
    value: serde_json::Value,
    _json_path: &Path,
    _request: &PackRequest,
    _notes: &mut Vec<String>,
) -> Result<Vec<u8>> {
    let doc: SprDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
    doc.to_spr()?.to_bytes()
}
