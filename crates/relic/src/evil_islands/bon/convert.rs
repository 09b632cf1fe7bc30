//! BON to the common model: a friendly JSON of bone offsets — per part, one `[x, y, z]` per morph extreme,
//! each labelled with the extreme it belongs to. Offsets are JSON only: they place a figure's parts, so a
//! glTF needs the figure (convert the `.mod`, which takes the `.bon` beside it).
//!
//! Extreme labels follow the spec's trilinear blend as `evil_islands::model` reads it: offset `m` is the
//! extreme `strength = (m >> 1) & 1`, `dexterity = m & 1`, `height = m >> 2`. Which of strength and
//! dexterity drives which step is unsettled between public readers (docs/formats/evil-islands.md#fig-morphs).

use serde_json::{json, Value};

use super::types::Bon;
use crate::asset::{Asset, Document, NamedAsset};
use crate::codec::text::{decode, CP1251};
use crate::error::Result;
use crate::registry::ConvertOptions;

/// The friendly form of one part's offsets.
pub fn friendly(part: &str, bon: &Bon) -> Value {
    let offsets: Vec<Value> = bon
        .offsets
        .iter()
        .enumerate()
        .map(|(m, xyz)| json!({ "strength": (m >> 1) & 1, "dexterity": m & 1, "height": m >> 2, "offset": xyz }))
        .collect();
    json!({ "part": part, "offsets": offsets })
}

/// The part name of a lone `.bon` (its file's stem) or `part`.
fn part_name(path: Option<&std::path::Path>, opts: &ConvertOptions) -> String {
    path.and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .or_else(|| opts.nearby.entry_name().map(str::to_string))
        .map_or_else(|| "part".to_string(), |n| crate::evil_islands::model::stem(&n).to_string())
}

fn document(value: Value) -> Vec<NamedAsset> {
    vec![NamedAsset { name: None, asset: Asset::Document(Document { value, tables: vec![] }) }]
}

/// Converts one part's `.bon` (no RES) to its friendly JSON.
pub fn convert_part(data: &[u8], path: Option<&std::path::Path>, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let bon = super::parse(data)?;
    Ok(document(json!({ "format": super::FORMAT_ID, "bones": [friendly(&part_name(path, opts), &bon)] })))
}

/// Converts a model's `.bon` (a RES of one entry per part) to its friendly JSON.
pub fn convert_set(data: &[u8]) -> Result<Vec<NamedAsset>> {
    let res = crate::evil_islands::res::parse(data)?;
    let mut bones = Vec::with_capacity(res.len());
    for i in 0..res.len() {
        let name = decode(CP1251, res.name(i));
        let bon = super::parse(res.data(i)).map_err(|e| e.within(format_args!("entry {name:?}")))?;
        bones.push(friendly(&name, &bon));
    }
    Ok(document(json!({ "format": "ei-bon-set", "bones": bones })))
}
