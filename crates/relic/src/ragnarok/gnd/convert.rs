//! GND summary for `relic info`, and the conversion: the ground scene ([`super::scene`]), a 16-bit height
//! map and the JSON document.
//!
//! Height map: one pixel per cell, the mean of its four corner heights; the top row is the northern edge
//! (GND row `height − 1`), columns run east. Heights are Y-down, so the highest point (the smallest
//! height) is 65535 and the lowest 0: `height = max − value / 65535 × (max − min)`; `min`, `max` (file
//! units, Y-down as stored) are in the document under `ground.heightmap`. A flat ground is all 0.

use serde_json::json;

use super::scene::{ground_scene, GroundOptions};
use super::types::Gnd;
use super::{parse, FORMAT_ID};
use crate::asset::{Asset, Document, Frame, FrameRole, Image, NamedAsset, Pixels};
use crate::error::Result;
use crate::ragnarok::rsm::scene::TextureLookup;
use crate::ragnarok::rsm::textures::{client_name, Found, TextureSources};
use crate::registry::ConvertOptions;

/// Summary for `relic info`.
pub fn info(gnd: &Gnd) -> serde_json::Value {
    let (min, max) = height_range(gnd);
    json!({
        "format": FORMAT_ID,
        "version": gnd.version.to_string(),
        "width": gnd.width,
        "height": gnd.height,
        "zoom": gnd.zoom,
        "textures": gnd.textures.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(),
        "lightmaps": gnd.lightmaps.count,
        "lightmap_size": [gnd.lightmaps.width, gnd.lightmaps.height, gnd.lightmaps.cells],
        "surfaces": gnd.surfaces.len(),
        "tops": gnd.cubes.iter().filter(|c| c.top >= 0).count(),
        "walls": gnd.cubes.iter().filter(|c| c.front >= 0).count() + gnd.cubes.iter().filter(|c| c.right >= 0).count(),
        "height_min": min,
        "height_max": max,
        "water": gnd.water.as_ref().map(|w| json!({
            "level": w.level,
            "type": w.settings.kind,
            "zones": [w.zones_across, w.zones_down],
        })),
        "surface_ids": gnd.surface_ids,
        "trailing_bytes": gnd.trailing.0.len(),
    })
}

/// The least and greatest cell mean height (Y-down, as stored); `(0, 0)` for an empty ground.
fn height_range(gnd: &Gnd) -> (f32, f32) {
    let mut min = f32::INFINITY;
    let mut max = f32::NEG_INFINITY;
    for c in &gnd.cubes {
        let h = mean(c);
        if h.is_finite() {
            min = min.min(h);
            max = max.max(h);
        }
    }
    if min > max {
        (0.0, 0.0)
    } else {
        (min, max)
    }
}

fn mean(c: &super::types::Cube) -> f32 {
    (c.height(0) + c.height(1) + c.height(2) + c.height(3)) / 4.0
}

/// The height map (see the module notes); `None` for an empty ground.
pub fn heightmap(gnd: &Gnd) -> Option<Image> {
    if gnd.width == 0 || gnd.height == 0 {
        return None;
    }
    let (min, max) = height_range(gnd);
    let span = max - min;
    let (w, h) = (gnd.width as usize, gnd.height as usize);
    let mut levels = vec![0u16; gnd.cubes.len()];
    for (i, c) in gnd.cubes.iter().enumerate() {
        let (x, y) = (i % w, i / w);
        let v = mean(c);
        let level = if span > 0.0 && v.is_finite() { ((max - v) / span * 65535.0).round() } else { 0.0 };
        if let Some(p) = levels.get_mut((h - 1 - y) * w + x) {
            *p = level.clamp(0.0, 65535.0) as u16;
        }
    }
    Some(Image {
        frames: vec![Frame {
            name: None,
            width: gnd.width,
            height: gnd.height,
            pixels: Pixels::Gray16(levels),
            offset: (0, 0),
            hotspots: vec![],
            role: FrameRole::Frame,
        }],
        palette: None,
        frame_rate: None,
        text: Vec::new(),
    })
}

/// Estimated bytes of the ground scene: at most three quads a cube and one water quad, each 4 vertices of
/// position, uv, colour and normal (48 bytes) and 6 indices.
fn scene_bytes(gnd: &Gnd) -> u64 {
    (gnd.cubes.len() as u64).saturating_mul(4 * (4 * 48 + 24))
}

/// The conversion of a lone `.gnd` (`path` when it is a file on disk, for its client folder's textures).
pub fn convert(data: &[u8], path: Option<&std::path::Path>, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let gnd = parse(data)?;
    let cells = u64::from(gnd.width) * u64::from(gnd.height);
    crate::limits::check_expansion(FORMAT_ID, "ground mesh", scene_bytes(&gnd), data.len() as u64)?;
    let sources = TextureSources::for_model(path, opts)?;
    let lookup = (!sources.is_empty()).then_some(&sources as &dyn TextureLookup);
    let scene = ground_scene(&gnd, lookup, &GroundOptions::default())?;
    note_untextured(&gnd, &scene, &sources, opts);
    let mut out = vec![NamedAsset { name: Some("ground.view".into()), asset: Asset::Scene(scene) }];
    let (min, max) = height_range(&gnd);
    let mut ground = json!({
        "scene": "ground.view.glb",
        "units": "file units (one cell = zoom); Y up; origin at the map centre (see relic::ragnarok::world)",
        "cells": cells,
    });
    if let Some(img) = heightmap(&gnd) {
        ground["heightmap"] = json!({
            "file": "heightmap.view.png",
            "width": gnd.width,
            "height": gnd.height,
            "min": min,
            "max": max,
            "pixels": "mean corner height of each cell, Y-down as stored: height = max − value / 65535 × \
                       (max − min) (higher ground is brighter); top row = northern edge, columns run east",
        });
        out.push(NamedAsset { name: Some("heightmap.view".into()), asset: Asset::Image(img) });
    }
    let mut value = crate::registry::tagged_document_json(FORMAT_ID, &gnd)?;
    value["ground"] = ground;
    out.push(NamedAsset {
        name: Some(NamedAsset::BESIDE.to_string()),
        asset: Asset::Document(Document { value, tables: vec![] }),
    });
    Ok(out)
}

/// A note (and a missing file recorded) for each texture the ground uses that `scene`, the ground drawn,
/// lacks: no place holds it, or holds it in a form relic does not decode. A lone `.gnd` and a map's
/// `.rsw` (its ground) say the same.
pub fn note_untextured(gnd: &Gnd, scene: &crate::asset::Scene, sources: &TextureSources, opts: &ConvertOptions) {
    let mut used: Vec<&str> = gnd
        .surfaces
        .iter()
        .filter_map(|s| usize::try_from(s.texture).ok().and_then(|t| gnd.textures.get(t)))
        .map(|t| t.text.as_str())
        .collect();
    used.sort_unstable();
    used.dedup();
    for name in used {
        if scene.textures.iter().any(|t| t.name == name) {
            continue;
        }
        let why = match sources.find(name) {
            Found::Undecodable(why) => format!("is not an image relic reads: {why}"),
            Found::Missing | Found::Image(_) => {
                opts.record_missing("texture", client_name(name));
                format!("not found (looked in {})", sources.describe())
            }
        };
        opts.note(format!("{FORMAT_ID}: texture '{}' {why}; its surfaces are untextured", client_name(name)));
    }
}
