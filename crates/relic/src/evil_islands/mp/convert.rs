//! MP to the common model: the map's terrain scene, height map and document, from the MP and its sectors
//! (files beside it, or entries of the `.mpr` archive that holds them); and the info summary.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::json;

use super::atlas::AtlasSource;
use super::terrain::{self, Placed, Setting};
use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Asset, Document, NamedAsset};
use crate::error::Result;
use crate::evil_islands::sec::{self, Sec};
use crate::registry::ConvertOptions;

/// Max altitude used when none is known (a sector converted without its map) or the map's is not a finite
/// number: a guess, said so in a note.
pub const DEFAULT_MAX_ALTITUDE: f32 = 64.0;
/// Missing sectors named in notes and the document (the rest are counted).
const LISTED_MISSING: usize = 16;

/// Summary for `relic info`.
pub fn info(mp: &Mp, file_size: usize) -> serde_json::Value {
    let mut types: BTreeMap<String, usize> = BTreeMap::new();
    for &t in &mp.tile_types {
        *types.entry(tile_type_name(t).map_or_else(|| t.to_string(), str::to_string)).or_default() += 1;
    }
    json!({
        "format": FORMAT_ID,
        "max_altitude": mp.max_altitude,
        "sectors_x": mp.sectors_x,
        "sectors_y": mp.sectors_y,
        "size_in_cells": [u64::from(mp.sectors_x) * 32, u64::from(mp.sectors_y) * 32],
        "textures_count": mp.textures_count,
        "texture_size": mp.texture_size,
        "tile_size": mp.tile_size,
        "tiles_count": mp.tile_types.len(),
        "tile_types": types,
        "materials": mp.materials.len(),
        "material_types": mp.materials.iter().map(|m| m.kind).collect::<Vec<_>>(),
        "animated_tiles": mp.animated_tiles.len(),
        "trailing_bytes": mp.trailing.0.len(),
        "file_size": file_size,
    })
}

/// A map's sector files as `(x, y, name, bytes)`; `name` is what errors and notes call the file.
pub type SectorFile = (u32, u32, String, Vec<u8>);

/// The sector files in `dir` that belong to map `map` (`<map>XXXYYY.sec`, any case), read as `opts` allows
/// ([`crate::registry::Nearby::confine`]: under `relic view`'s root a sector that is a link is not read).
pub fn sectors_in_folder(dir: &Path, map: &str, opts: &ConvertOptions) -> Vec<SectorFile> {
    let Ok(list) = std::fs::read_dir(dir) else { return vec![] };
    let mut out = Vec::new();
    for entry in list.filter_map(std::result::Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((prefix, x, y)) = sec::sector_name(&name) else { continue };
        if prefix.eq_ignore_ascii_case(map) && entry.path().is_file() {
            if let Some(bytes) = opts.read_found(&entry.path()) {
                out.push((x, y, name, bytes));
            }
        }
    }
    out.sort_by_key(|s| (s.1, s.0));
    out
}

/// The sector files of map `map` among the files `files` can list (see [`sectors_in_folder`]).
pub fn sectors_in(files: &dyn crate::registry::FileLookup, map: &str) -> Vec<SectorFile> {
    let mut out: Vec<SectorFile> = files
        .names()
        .into_iter()
        .filter_map(|name| {
            let (prefix, x, y) = sec::sector_name(&name)?;
            let bytes = prefix.eq_ignore_ascii_case(map).then(|| files.read(&name)).flatten()?;
            Some((x, y, name, bytes))
        })
        .collect();
    out.sort_by_key(|s| (s.1, s.0));
    out
}

/// The max altitude to scale heights with: the map's when it is a finite number, else the default (noted).
pub fn max_altitude(mp: Option<&Mp>, opts: &ConvertOptions, what: &str) -> f32 {
    match mp.map(|m| m.max_altitude.get()) {
        Some(a) if a.is_finite() => a,
        Some(a) => {
            opts.note(format!("{what}: the map's max altitude is {a}; heights are scaled to {DEFAULT_MAX_ALTITUDE}"));
            DEFAULT_MAX_ALTITUDE
        }
        None => {
            opts.note(format!(
                "{what}: no map header (.mp) found, so heights are scaled to a max altitude of {DEFAULT_MAX_ALTITUDE}"
            ));
            DEFAULT_MAX_ALTITUDE
        }
    }
}

/// Converts a map: the document (the MP's own data, which `pack ei-mp` reads back, and a `terrain` summary);
/// with sectors, also the terrain scene (`terrain`) and the height map (`heightmap`), which go into the
/// `<stem>/` folder beside the document.
pub fn convert_map(
    map: &str,
    mp: &Mp,
    sector_files: Vec<SectorFile>,
    atlases: &AtlasSource,
    opts: &ConvertOptions,
) -> Result<Vec<NamedAsset>> {
    let mut sectors: Vec<(u32, u32, Sec)> = Vec::new();
    let mut outside = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (x, y, name, bytes) in sector_files {
        if x >= mp.sectors_x || y >= mp.sectors_y {
            outside.push(name);
            continue;
        }
        if seen.contains(&(x, y)) {
            continue; // the same sector under another case of its name
        }
        match sec::parse(&bytes) {
            Ok(sec) => {
                seen.insert((x, y));
                sectors.push((x, y, sec))
            }
            Err(e) => opts.note(format!("{map}: sector {name} left out (a hole in the terrain): {e}")),
        }
    }
    if !outside.is_empty() {
        opts.note(format!(
            "{map}: {} sector file(s) outside the map's {} × {} sectors left out: {}",
            outside.len(),
            mp.sectors_x,
            mp.sectors_y,
            outside.join(", ")
        ));
    }
    let total = u64::from(mp.sectors_x) * u64::from(mp.sectors_y);
    let found: std::collections::HashSet<(u32, u32)> = sectors.iter().map(|s| (s.0, s.1)).collect();
    let missing_count = total.saturating_sub(found.len() as u64);
    let mut missing = Vec::new();
    'scan: for y in 0..mp.sectors_y {
        for x in 0..mp.sectors_x {
            if missing.len() >= LISTED_MISSING {
                break 'scan;
            }
            if !found.contains(&(x, y)) {
                missing.push(format!("{map}{x:03}{y:03}.sec"));
            }
        }
    }
    if missing_count > 0 && !sectors.is_empty() {
        opts.note(format!(
            "{map}: {missing_count} of {total} sectors not found (left as holes): {}{}",
            missing.join(", "),
            if missing_count > missing.len() as u64 { ", …" } else { "" }
        ));
    }

    let mut out = Vec::new();
    let mut terrain_doc = json!({
        "coordinates": "glTF y-up: (x, height, -y) of the map's (x, y, z); one cell = 1 unit",
        "files": "scene and height map are in the folder beside this document named as it is without .json",
        "height_scale": f64::from(mp.max_altitude.get()) / terrain::ALTITUDE_DIVISOR,
        "sectors_found": sectors.len(),
        "sectors_missing": missing_count,
        "missing": missing,
    });
    if sectors.is_empty() {
        opts.note(format!(
            "{map}: no sector files (`{map}XXXYYY.sec`) found beside it: only the map's data is converted"
        ));
    } else {
        let placed: Vec<Placed<'_>> = sectors.iter().map(|(x, y, sec)| Placed { x: *x, y: *y, sec }).collect();
        let used = used_atlases(&sectors);
        let (images, not_found) = atlases.load(map, used.iter().copied());
        for atlas in &not_found {
            opts.record_missing("texture", atlas.to_string());
        }
        if !not_found.is_empty() {
            opts.note(format!(
                "{map}: texture atlas(es) not found (give --textures with a folder or RES that holds them): {}",
                not_found.join(", ")
            ));
        }
        let setting =
            Setting { max_altitude: max_altitude(Some(mp), opts, map), mp: Some(mp), atlases: &images, map_name: map };
        terrain_doc["atlases"] = json!(used
            .iter()
            .map(|&n| json!({"file": terrain::atlas_name(map, n), "found": images.contains_key(&n)}))
            .collect::<Vec<_>>());
        out.push(NamedAsset {
            name: Some("terrain.view".into()),
            asset: Asset::Scene(terrain::scene(&placed, &setting)),
        });
        terrain_doc["scene"] = json!("terrain.view.glb");
        // The height map covers the sectors present, from the first to the last along x and y: the header's
        // extents for a whole map, and never a huge empty image for a header that claims more sectors than
        // there are (1000 × 1000 sectors with one present gives 33 × 33 pixels, cropped with a note). Sectors
        // far apart can still span more than `--max-pixels`: then there is no height map (noted).
        let first_x = sectors.iter().map(|s| s.0).min().unwrap_or(0);
        let first_y = sectors.iter().map(|s| s.1).min().unwrap_or(0);
        let extent_x = sectors.iter().map(|s| s.0 + 1).max().unwrap_or(0) - first_x;
        let extent_y = sectors.iter().map(|s| s.1 + 1).max().unwrap_or(0) - first_y;
        match terrain::heightmap_region(&placed, (first_x, first_y), (extent_x, extent_y)) {
            Ok(img) => {
                let size = img.frames.first().map(|f| (f.width, f.height)).unwrap_or_default();
                if (first_x, first_y, extent_x, extent_y) != (0, 0, mp.sectors_x, mp.sectors_y) {
                    opts.note(format!(
                        "{map}: the height map covers only the sectors present, {extent_x} × {extent_y} from sector \
                         ({first_x}, {first_y}) (of the map's {} × {}): its bottom-left pixel is cell ({}, {})",
                        mp.sectors_x,
                        mp.sectors_y,
                        u64::from(first_x) * 32,
                        u64::from(first_y) * 32
                    ));
                }
                terrain_doc["heightmap"] = json!({
                    "file": "heightmap.view.png",
                    "width": size.0,
                    "height": size.1,
                    "first_sector": [first_x, first_y],
                    "sectors": [extent_x, extent_y],
                    "pixels": "16-bit stored altitudes (height = value × height_scale); top row = largest y, \
                               column = x",
                });
                out.push(NamedAsset { name: Some("heightmap.view".into()), asset: Asset::Image(img) });
            }
            Err(e) => opts.note(format!("{map}: no height map: {e}")),
        }
    }
    let mut value = crate::registry::tagged_document_json(FORMAT_ID, mp)?;
    value["terrain"] = terrain_doc;
    let doc = Document { value, tables: vec![] };
    let name = if out.is_empty() { None } else { Some(NamedAsset::BESIDE.to_string()) };
    out.push(NamedAsset { name, asset: Asset::Document(doc) });
    Ok(out)
}

/// The atlases the sectors' land and water tiles use, in order.
fn used_atlases(sectors: &[(u32, u32, Sec)]) -> Vec<u16> {
    let mut used = std::collections::BTreeSet::new();
    for (_, _, sec) in sectors {
        used.extend(sec.tiles.iter().map(|t| t.texture()));
        if let Some(w) = &sec.water {
            used.extend(
                w.tiles.iter().zip(&w.materials).filter(|(_, &m)| m != sec::types::NO_LIQUID).map(|(t, _)| t.texture()),
            );
        }
    }
    used.into_iter().collect()
}
