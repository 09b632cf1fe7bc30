//! SEC to the common model: a one-sector terrain scene, and the info summary.

use std::path::Path;

use serde_json::json;

use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Asset, NamedAsset};
use crate::error::Result;
use crate::evil_islands::mp::{self, atlas::AtlasSource, terrain};
use crate::registry::ConvertOptions;

/// Summary for `relic info`.
pub fn info(sec: &Sec, file_size: usize) -> serde_json::Value {
    let heights = sec.vertices.iter().map(|v| v.z);
    let mut textures: Vec<u16> = sec.tiles.iter().map(|t| t.texture()).collect();
    textures.sort_unstable();
    textures.dedup();
    let water = sec.water.as_ref().map(|w| {
        let mut materials: Vec<u16> = w.materials.iter().copied().filter(|&m| m != NO_LIQUID).collect();
        materials.sort_unstable();
        materials.dedup();
        json!({
            "water_tiles": w.materials.iter().filter(|&&m| m != NO_LIQUID).count(),
            "materials": materials,
            "min_z": w.vertices.iter().map(|v| v.z).min(),
            "max_z": w.vertices.iter().map(|v| v.z).max(),
        })
    });
    json!({
        "format": FORMAT_ID,
        "liquids": sec.liquids,
        "min_z": heights.clone().min(),
        "max_z": heights.max(),
        "atlases": textures,
        "water": water,
        "trailing_bytes": sec.trailing.0.len(),
        "file_size": file_size,
    })
}

/// Converts one sector: placed by its file name (when `path` gives one), heights scaled by the map header
/// beside it (found case-insensitively as `<map>.mp`), atlases from `--textures` or beside it.
pub fn convert_sector(sec: &Sec, path: Option<&Path>, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    // A sector that is not on disk but whose folder's files are given (the browser's) finds its map header
    // and atlases there, by its own name, as on disk.
    let folder = opts.nearby.folder().filter(|_| path.is_none());
    let name = match path {
        Some(p) => Some(p.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())),
        None => folder.and(opts.nearby.entry_name().map(str::to_string)),
    };
    let parsed = name.as_deref().and_then(super::sector_name);
    let (map, x, y) = parsed.map_or(("sector".to_string(), 0, 0), |(m, x, y)| (m.to_string(), x, y));
    let dir = path.and_then(Path::parent).map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d });
    let header = match (dir, folder, parsed) {
        (Some(d), _, Some(_)) => find_header(d, &map, opts),
        (None, Some(files), Some(_)) => files.read(&format!("{map}.mp")).and_then(|b| mp::parse(&b).ok()),
        _ => None,
    };
    let what = name.unwrap_or_else(|| "sector".into());
    let max_altitude = mp::convert::max_altitude(header.as_ref(), opts, &what);
    let atlases = match (folder, &opts.textures) {
        (Some(files), None) => AtlasSource::Lookup(std::sync::Arc::clone(files)),
        _ => AtlasSource::open(opts.textures.as_deref(), dir)?,
    };
    let mut used: Vec<u16> = sec.tiles.iter().map(|t| t.texture()).collect();
    if let Some(w) = &sec.water {
        used.extend(w.tiles.iter().zip(&w.materials).filter(|(_, &m)| m != NO_LIQUID).map(|(t, _)| t.texture()));
    }
    used.sort_unstable();
    used.dedup();
    let (images, missing) =
        if matches!(atlases, AtlasSource::None) { (Default::default(), vec![]) } else { atlases.load(&map, used) };
    if !missing.is_empty() && opts.textures.is_some() {
        for atlas in &missing {
            opts.record_missing("texture", atlas.to_string());
        }
        opts.note(format!("{what}: texture atlas(es) not found in --textures: {}", missing.join(", ")));
    }
    let setting = terrain::Setting { max_altitude, mp: header.as_ref(), atlases: &images, map_name: &map };
    let scene = terrain::scene(&[terrain::Placed { x, y, sec }], &setting);
    Ok(vec![NamedAsset { name: None, asset: Asset::Scene(scene) }])
}

/// `<map>.mp` in `dir` (any case), when it is there and reads (as [`crate::registry::Nearby::confine`] allows).
fn find_header(dir: &Path, map: &str, opts: &ConvertOptions) -> Option<mp::Mp> {
    let wanted = format!("{map}.mp");
    let entry = std::fs::read_dir(dir)
        .ok()?
        .filter_map(std::result::Result::ok)
        .find(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(&wanted))?;
    mp::parse(&opts.read_found(&entry.path())?).ok()
}
