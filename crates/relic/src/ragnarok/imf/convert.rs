//! The IMF's views: `info`, the lossless JSON document (with the derived priority grid), and `convert`,
//! which writes that document.

use serde_json::{json, Value};

use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Asset, Document, NamedAsset};
use crate::error::{Error, Result};

/// The header summary of `relic info`: version, checksum, and per layer its name (when a loader names it),
/// actions and frames; how many head frames draw the head under the body.
pub fn info(imf: &Imf) -> Value {
    let layers: Vec<Value> = imf
        .layers
        .iter()
        .enumerate()
        .map(|(i, actions)| {
            json!({
                "layer": i,
                "name": layer_name(i),
                "actions": actions.len(),
                "frames": actions.iter().map(Vec::len).sum::<usize>(),
            })
        })
        .collect();
    let head_under_body = imf.layers.get(1).map_or(0, |head| head.iter().flatten().filter(|f| f.priority == 1).count());
    json!({
        "format": FORMAT_ID,
        "version": imf.version.to_text(),
        "known_version": imf.is_known_version(),
        "checksum": imf.checksum,
        "layers": layers,
        "head_under_body_frames": head_under_body,
        "trailing_bytes": imf.trailing.0.len(),
    })
}

/// The priority grid: per layer its index, name and `actions[action][frame]` → priority. Derived from
/// `layers`, and ignored when packing.
pub fn priorities(imf: &Imf) -> Value {
    let layers: Vec<Value> = imf
        .layers
        .iter()
        .enumerate()
        .map(|(i, actions)| {
            let grid: Vec<Vec<i32>> =
                actions.iter().map(|frames| frames.iter().map(|f| f.priority).collect()).collect();
            json!({ "layer": i, "name": layer_name(i), "actions": grid })
        })
        .collect();
    Value::Array(layers)
}

/// The JSON of `relic convert --to json`: `format`, `version`, `checksum`, `layers` (every frame's priority,
/// `x` and `y`, `layers[layer][action][frame]`), `trailing` when there is any, and the derived `priorities`.
pub fn document(imf: &Imf) -> Result<Value> {
    let Value::Object(mut fields) = crate::registry::tagged_document_json(FORMAT_ID, imf)? else {
        return Err(Error::Unsupported(format!("{FORMAT_ID}: JSON: the document is not an object")));
    };
    fields.insert("priorities".into(), priorities(imf));
    Ok(Value::Object(fields))
}

/// The IMF a document describes (`priorities` is derived and ignored).
pub fn from_document(value: Value) -> Result<Imf> {
    let value = match value {
        Value::Object(mut fields) => {
            fields.remove("priorities");
            Value::Object(fields)
        }
        other => other,
    };
    crate::registry::tagged_document_from_json(FORMAT_ID, value)
}

/// `relic convert x.imf`: the document (`x.imf.json`), which packs back.
pub fn convert(data: &[u8]) -> Result<Vec<NamedAsset>> {
    let imf = super::parse(data)?;
    Ok(vec![NamedAsset { name: None, asset: Asset::Document(Document { value: document(&imf)?, tables: vec![] }) }])
}
