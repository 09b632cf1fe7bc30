//! `relic info` and `relic convert` of a GAT: the JSON document (with a legend of the cell types and the
//! height map's range), the walkability PNG (a pixel per cell, a colour per type) and the 16-bit height map
//! of the cell corners; and the GAT back from an edited walkability PNG.

use std::collections::{BTreeMap, HashMap};

use base64::Engine;
use serde_json::{json, Value};

use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Asset, Document, Frame, FrameRole, Image, NamedAsset, Pixels};
use crate::error::{Error, Result};
use crate::registry::{ConvertOptions, PackRequest};

/// The `tEXt` keyword of the walkability PNG that lists the colour of each type it shows.
pub const LEGEND_KEYWORD: &str = "relic-ro-gat-legend";
/// The `tEXt` keyword of the walkability PNG that holds the GAT itself (`size=N zlib-base64=…`), for its
/// heights when the PNG is packed back.
pub const FILE_KEYWORD: &str = "relic-ro-gat-file";
/// The `tEXt` keyword of the height map that gives its range.
pub const HEIGHTS_KEYWORD: &str = "relic-ro-gat-heights";

/// The asset names `convert` gives the two images (files `<stem>/<name>.png`).
pub const WALKABILITY_NAME: &str = "walkability";
pub const HEIGHTS_NAME: &str = "heights";

/// The types some public source gives a meaning: the type, its name, its colour in the walkability PNG,
/// whether it is walkable (`None` where the sources disagree). Sources: GAT.MD (0, 1, 5 and the 1.3 water
/// bit), eAthena's `map_gat2cell` as copied by roBrowser (3; 2, 4, 6 walkable), korangar's `TileFlags`
/// (2 water, 3 walkable water, 4 water and snipable, 5 cliff and snipable, 6 cliff).
const KNOWN: &[(u32, &str, [u8; 4], Option<bool>)] = &[
    (0, "walkable", [255, 255, 255, 255], Some(true)),
    (1, "blocked", [0, 0, 0, 255], Some(false)),
    (2, "type 2: walkable (eAthena, roBrowser) or water, not walkable (korangar)", [0, 200, 200, 255], None),
    (3, "walkable water", [64, 128, 255, 255], Some(true)),
    (4, "type 4: walkable (eAthena, roBrowser) or water, snipable (korangar)", [0, 0, 160, 255], None),
    (5, "blocked, snipable (cliff)", [176, 96, 32, 255], Some(false)),
    (6, "type 6: walkable (eAthena, roBrowser) or cliff, not walkable (korangar)", [160, 0, 160, 255], None),
    (WATER_FLAG, "walkable, water tile (1.3)", [170, 210, 255, 255], Some(true)),
    (WATER_FLAG | 1, "blocked, water tile (1.3)", [0, 40, 110, 255], Some(false)),
    (WATER_FLAG | 2, "type 2, water tile (1.3)", [0, 120, 120, 255], None),
    (WATER_FLAG | 3, "walkable water, water tile (1.3)", [30, 80, 200, 255], Some(true)),
    (WATER_FLAG | 4, "type 4, water tile (1.3)", [0, 0, 90, 255], None),
    (WATER_FLAG | 5, "blocked, snipable (cliff), water tile (1.3)", [110, 60, 130, 255], Some(false)),
    (WATER_FLAG | 6, "type 6, water tile (1.3)", [100, 0, 100, 255], None),
];

/// Where the meanings come from, in the legend.
const SOURCES: &str = "0, 1, 5 and bit 31 (1.3 water tile): RagnarokFileFormats GAT.MD, which says the client \
                       knows only 0, 1 and 5. 3 (walkable water) and 2, 4, 6: eAthena's map_gat2cell (copied by \
                       roBrowser) reads 2, 4, 6 as walkable ('???'); korangar reads 2 as water, 4 as water and \
                       snipable, 6 as cliff, none walkable. The loaders disagree beyond 0, 1 and 5.";

fn known(kind: u32) -> Option<&'static (u32, &'static str, [u8; 4], Option<bool>)> {
    KNOWN.iter().find(|k| k.0 == kind)
}

/// What a cell type means, in a few words (the sources' readings where they disagree; "unknown type" for
/// one no public loader names).
pub fn kind_name(kind: u32) -> &'static str {
    known(kind).map_or("unknown type", |k| k.1)
}

/// Whether a cell of this type is walkable: `None` where the loaders disagree or no source knows the type.
pub fn walkable(kind: u32) -> Option<bool> {
    known(kind).and_then(|k| k.3)
}

/// The colour of a cell type in the walkability PNG (opaque RGBA): walkable white, blocked black, cliff
/// brown, water blue, the disputed types cyan, dark blue and purple, their 1.3 water-tile variants darker;
/// a type no source knows gets a colour made from its value.
pub fn cell_colour(kind: u32) -> [u8; 4] {
    known(kind).map_or_else(|| unknown_colour(kind, 0), |k| k.2)
}

/// The colour of a type no source knows, the `attempt`-th try (another when one is taken).
fn unknown_colour(kind: u32, attempt: u32) -> [u8; 4] {
    let h = kind.wrapping_add(attempt.wrapping_mul(0x0101_0101)).wrapping_mul(0x9E37_79B1) ^ 0x00A5_5A00;
    let [a, b, c, _] = h.to_be_bytes();
    [a, b, c, 255]
}

/// The types a file holds, each with its colour in the walkability PNG (distinct, the known types' own
/// colours reserved) and its number of cells, by type.
pub fn palette(gat: &Gat) -> Vec<(u32, [u8; 4], u64)> {
    let mut counts: BTreeMap<u32, u64> = BTreeMap::new();
    for cell in &gat.cells {
        *counts.entry(cell.kind).or_default() += 1;
    }
    let mut taken: std::collections::HashSet<[u8; 3]> = KNOWN.iter().map(|k| rgb(k.2)).collect();
    let mut out = Vec::with_capacity(counts.len());
    for (kind, n) in counts {
        let colour = match known(kind) {
            Some(k) => k.2,
            None => {
                let mut attempt = 0u32;
                let mut c = unknown_colour(kind, attempt);
                while !taken.insert(rgb(c)) {
                    attempt = attempt.wrapping_add(1);
                    c = unknown_colour(kind, attempt);
                }
                c
            }
        };
        out.push((kind, colour, n));
    }
    out
}

fn rgb(c: [u8; 4]) -> [u8; 3] {
    [c[0], c[1], c[2]]
}

fn hex_colour(c: [u8; 4]) -> String {
    format!("#{:02X}{:02X}{:02X}", c[0], c[1], c[2])
}

fn parse_hex_colour(text: &str) -> Option<[u8; 3]> {
    let h = text.strip_prefix('#').filter(|h| h.len() == 6 && h.is_ascii())?;
    let ch = |k: usize| h.get(k..k + 2).and_then(|d| u8::from_str_radix(d, 16).ok());
    Some([ch(0)?, ch(2)?, ch(4)?])
}

/// The legend of the document: every type present, what it means, its colour and how many cells have it.
fn legend(gat: &Gat) -> Value {
    let types: Vec<Value> = palette(gat)
        .into_iter()
        .map(|(kind, colour, n)| {
            json!({
                "type": kind,
                "hex": format!("0x{kind:08X}"),
                "name": kind_name(kind),
                "walkable": walkable(kind),
                "water_tile": kind & WATER_FLAG != 0,
                "colour": hex_colour(colour),
                "cells": n,
            })
        })
        .collect();
    json!({ "types": types, "sources": SOURCES })
}

pub fn info(gat: &Gat) -> Value {
    let types: Vec<Value> = palette(gat)
        .into_iter()
        .map(|(kind, _, n)| json!({"type": kind, "name": kind_name(kind), "cells": n}))
        .collect();
    json!({
        "format": FORMAT_ID,
        "version": gat.version.to_string(),
        "known_version": gat.version.is_known(),
        "width": gat.width,
        "height": gat.height,
        "cells": gat.cells.len(),
        "types": types,
        "trailing_bytes": gat.trailing.0.len(),
    })
}

// ---------------------------------------------------------------------------------------------------------
// The document

/// The document of `convert --to json`: version, size, `legend`, `heights`, the cells and any trailing
/// bytes.
pub fn document(gat: &Gat) -> Result<Value> {
    let Value::Object(fields) = crate::registry::tagged_document_json(FORMAT_ID, gat)? else {
        return Err(Error::Unsupported(format!("{FORMAT_ID}: JSON: the document is not an object")));
    };
    let mut out = serde_json::Map::with_capacity(fields.len() + 2);
    let mut rest = Vec::new();
    for (k, v) in fields {
        if matches!(k.as_str(), "format" | "version" | "width" | "height") {
            out.insert(k, v);
        } else {
            rest.push((k, v));
        }
    }
    out.insert("legend".into(), legend(gat));
    out.insert("heights".into(), heights_json(gat, &HeightGrid::of(gat)));
    out.extend(rest);
    Ok(Value::Object(out))
}

/// The file a document describes; `legend` and `heights` are derived and ignored.
pub fn from_document(value: Value) -> Result<Gat> {
    let value = match value {
        Value::Object(mut fields) => {
            fields.remove("legend");
            fields.remove("heights");
            Value::Object(fields)
        }
        other => other,
    };
    crate::registry::tagged_document_from_json(FORMAT_ID, value)
}

// ---------------------------------------------------------------------------------------------------------
// The height map

/// The heights of the `(width + 1) × (height + 1)` cell corners, row 0 the southern edge: each the mean of
/// the finite heights the cells touching it give it, `None` when none is finite.
pub struct HeightGrid {
    pub width: u32,
    pub height: u32,
    pub corners: Vec<Option<f64>>,
    /// Corners whose cells give different heights (a step in the ground).
    pub disagreeing: u64,
    /// The smallest and largest corner height (the highest and the lowest ground: Y-down); `None` when no
    /// corner has a finite height.
    pub range: Option<(f64, f64)>,
}

impl HeightGrid {
    /// The grid of a GAT with cells (empty for one without).
    pub fn of(gat: &Gat) -> HeightGrid {
        if gat.cells.is_empty() {
            return HeightGrid { width: 0, height: 0, corners: Vec::new(), disagreeing: 0, range: None };
        }
        // A file that parsed holds width × height cells, so the corner grid is at most 4 × the cells.
        let (w, h) = (gat.width as usize + 1, gat.height as usize + 1);
        let mut sum = vec![0f64; w * h];
        let mut n = vec![0u8; w * h];
        let mut lo = vec![f32::INFINITY; w * h];
        let mut hi = vec![f32::NEG_INFINITY; w * h];
        for (i, cell) in gat.cells.iter().enumerate() {
            let (x, y) = (i % (w - 1), i / (w - 1));
            let at = [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)];
            for ((cx, cy), v) in at.into_iter().zip(cell.heights()) {
                let v = v.get();
                let k = cy * w + cx;
                if let (true, Some(s), Some(c), Some(l), Some(u)) =
                    (v.is_finite(), sum.get_mut(k), n.get_mut(k), lo.get_mut(k), hi.get_mut(k))
                {
                    *s += f64::from(v);
                    *c += 1;
                    *l = l.min(v);
                    *u = u.max(v);
                }
            }
        }
        let disagreeing = lo.iter().zip(&hi).filter(|(l, u)| l < u).count() as u64;
        let corners: Vec<Option<f64>> = sum.iter().zip(&n).map(|(&s, &c)| (c > 0).then(|| s / f64::from(c))).collect();
        let mut finite = corners.iter().flatten().copied();
        let range = finite.next().map(|first| finite.fold((first, first), |(lo, hi), v| (lo.min(v), hi.max(v))));
        HeightGrid { width: w as u32, height: h as u32, corners, disagreeing, range }
    }

    /// The 16-bit level of a corner: 65535 at the highest ground (the smallest height), 0 at the lowest
    /// and for a corner without a finite height.
    pub fn level(&self, corner: Option<f64>) -> u16 {
        match (corner, self.range) {
            (Some(v), Some((min, max))) if max > min => ((max - v) / (max - min) * 65535.0).round() as u16,
            _ => 0,
        }
    }
}

/// The `heights` entry of the document and the height map's text.
fn heights_json(gat: &Gat, grid: &HeightGrid) -> Value {
    let range = grid.range;
    json!({
        "file": format!("{HEIGHTS_NAME}.png"),
        "width": grid.width,
        "height": grid.height,
        "min": range.map(|r| r.0),
        "max": range.map(|r| r.1),
        "step": range.map(|(min, max)| (max - min) / 65535.0),
        "levels": "16-bit grey, one pixel per cell corner, north up (image row 0 = corner row `height`), higher \
                   ground brighter: stored height = max - level * step (Y-down world units; a cell is 5 wide); \
                   a corner shared by cells of different heights takes their mean",
        "corners_with_a_step": grid.disagreeing,
        "corners_without_height": grid.corners.iter().filter(|c| c.is_none()).count(),
        "cells": gat.cells.len(),
    })
}

fn frame(width: u32, height: u32, pixels: Pixels) -> Frame {
    Frame { name: None, width, height, pixels, offset: (0, 0), hotspots: vec![], role: FrameRole::Frame }
}

/// The height map: `(width + 1) × (height + 1)` 16-bit levels, north up, with its range in a `tEXt` chunk.
pub fn height_map(grid: &HeightGrid) -> Image {
    let (w, h) = (grid.width as usize, grid.height as usize);
    let mut levels = Vec::with_capacity(w * h);
    for row in grid.corners.chunks(w.max(1)).rev() {
        levels.extend(row.iter().map(|&c| grid.level(c)));
    }
    let text = match grid.range {
        Some((min, max)) => format!(
            "min={min} max={max} step={} stored height = max - level * step (Y-down world units, a cell is 5 wide)",
            (max - min) / 65535.0
        ),
        None => "no finite height".to_string(),
    };
    Image {
        frames: vec![frame(grid.width, grid.height, Pixels::Gray16(levels))],
        palette: None,
        frame_rate: None,
        text: vec![(HEIGHTS_KEYWORD.into(), text)],
    }
}

/// The walkability image: a pixel per cell in its type's colour, north up (image row 0 = GAT row
/// `height − 1`), recording the colours and the file in `tEXt` chunks. `file` is the GAT's bytes.
pub fn walkability(gat: &Gat, file: &[u8]) -> Image {
    let colours: HashMap<u32, [u8; 4]> = palette(gat).into_iter().map(|(k, c, _)| (k, c)).collect();
    let w = gat.width as usize;
    let mut rgba = Vec::with_capacity(gat.cells.len() * 4);
    for row in gat.cells.chunks(w.max(1)).rev() {
        for cell in row {
            rgba.extend(colours.get(&cell.kind).copied().unwrap_or_else(|| cell_colour(cell.kind)));
        }
    }
    let mut legend: Vec<(u32, [u8; 4])> = colours.into_iter().collect();
    legend.sort_unstable();
    let legend = legend.iter().map(|(k, c)| format!("{k}={}", hex_colour(*c))).collect::<Vec<_>>().join(" ");
    let packed = crate::codec::zlib::compress(file, 6);
    let recorded =
        format!("size={} zlib-base64={}", file.len(), base64::engine::general_purpose::STANDARD.encode(packed));
    Image {
        frames: vec![frame(gat.width, gat.height, Pixels::Rgba8(rgba))],
        palette: None,
        frame_rate: None,
        text: vec![(LEGEND_KEYWORD.into(), legend), (FILE_KEYWORD.into(), recorded)],
    }
}

/// `relic convert`: the walkability PNG, the height map and the document (beside them). A map without
/// cells gives the document only.
pub fn convert(data: &[u8], opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let gat = super::parse(data)?;
    let mut out = Vec::new();
    let grid = HeightGrid::of(&gat);
    if gat.cells.is_empty() {
        opts.note(format!("{FORMAT_ID}: a map of {} × {} cells: no images", gat.width, gat.height));
    } else {
        // What the images cost: RGBA per cell, 16-bit levels and the grid's sums per corner, the file again.
        let corners = u64::from(grid.width) * u64::from(grid.height);
        let total = gat.cells.len() as u64 * 4 + corners * 20 + data.len() as u64;
        crate::limits::check_expansion(FORMAT_ID, "walkability and height maps", total, data.len() as u64)?;
        out.push(NamedAsset { name: Some(WALKABILITY_NAME.into()), asset: Asset::Image(walkability(&gat, data)) });
        out.push(NamedAsset { name: Some(HEIGHTS_NAME.into()), asset: Asset::Image(height_map(&grid)) });
    }
    let value = document(&gat)?;
    let name = if out.is_empty() { None } else { Some(NamedAsset::BESIDE.to_string()) };
    out.push(NamedAsset { name, asset: Asset::Document(Document { value, tables: vec![] }) });
    Ok(out)
}

// ---------------------------------------------------------------------------------------------------------
// Back from the walkability PNG

/// The GAT recorded in a walkability PNG, its types taken from the pixels' colours: first the colours the
/// PNG lists for the types it showed, then [`cell_colour`] of every type a source knows (so a pixel painted
/// in the blocked colour becomes blocked). Alpha is ignored. Refused: a PNG that records no GAT (one not
/// written by `relic convert`: the heights are not in the picture), a size other than the map's, a colour no
/// type has.
pub fn from_walkability_png(input_name: &str, png: &[u8], request: &PackRequest) -> Result<Gat> {
    let texts = crate::export::png::text_chunks(png);
    let text = |key: &str| texts.iter().find(|(k, _)| k == key).map(|(_, t)| t.as_str());
    let Some(recorded) = text(FILE_KEYWORD) else {
        return Err(Error::Refused(format!(
            "{input_name}: records no GAT (`{FILE_KEYWORD}`), and no record of relic convert beside it lists it: \
             only the walkability PNG of `relic convert` packs back, as it (or the record `<map>.gat.relic.json` \
             beside it, when an editor dropped its text chunks) carries the heights; a height map or another \
             picture does not (pack the JSON instead)"
        )));
    };
    let bad = |why: &str| Error::Refused(format!("{input_name}: `{FILE_KEYWORD}`: {why}"));
    let (size, packed) = recorded
        .strip_prefix("size=")
        .and_then(|r| r.split_once(" zlib-base64="))
        .and_then(|(n, b)| Some((n.parse::<u64>().ok()?, b)))
        .ok_or_else(|| bad("not `size=N zlib-base64=…`"))?;
    let packed = base64::engine::general_purpose::STANDARD.decode(packed).map_err(|e| bad(&format!("{e}")))?;
    let at = crate::codec::zlib::At { format: FORMAT_ID, field: FILE_KEYWORD, offset: 0 };
    let file = crate::codec::zlib::inflate_exact(&packed, size, at)?;
    let mut gat = super::parse(&file)?;
    if gat.cells.is_empty() {
        return Err(Error::Refused(format!("{input_name}: the map it records has no cells")));
    }

    let image = crate::export::png::decode_rgba(png)?;
    let frame = image.frames.first().ok_or_else(|| Error::Refused(format!("{input_name}: no image")))?;
    if (frame.width, frame.height) != (gat.width, gat.height) {
        return Err(Error::Refused(format!(
            "{input_name}: {} × {} pixels; the map it records is {} × {} cells (one pixel each)",
            frame.width, frame.height, gat.width, gat.height
        )));
    }
    let Pixels::Rgba8(px) = &frame.pixels else {
        return Err(Error::Refused(format!("{input_name}: not an RGBA image")));
    };
    let mut by_colour: HashMap<[u8; 3], u32> = HashMap::new();
    for pair in text(LEGEND_KEYWORD).unwrap_or("").split_whitespace() {
        let entry = pair.split_once('=').and_then(|(k, c)| Some((k.parse::<u32>().ok()?, parse_hex_colour(c)?)));
        let (kind, colour) = entry.ok_or_else(|| {
            Error::Refused(format!("{input_name}: `{LEGEND_KEYWORD}`: `{pair}` is not `type=#RRGGBB`"))
        })?;
        by_colour.entry(colour).or_insert(kind);
    }
    for k in KNOWN {
        by_colour.entry(rgb(k.2)).or_insert(k.0);
    }
    let w = gat.width as usize;
    let mut changed = 0u64;
    for (r, row) in px.chunks_exact(w * 4).enumerate() {
        // Image row r is GAT row height − 1 − r (north up).
        let y = gat.height as usize - 1 - r;
        for (x, p) in row.chunks_exact(4).enumerate() {
            let colour = [p[0], p[1], p[2]];
            let Some(&kind) = by_colour.get(&colour) else {
                return Err(Error::Refused(format!(
                    "{input_name}: pixel ({x}, {r}) (cell {x}, {y}) is #{:02X}{:02X}{:02X}, the colour of no type \
                     (the legend in the JSON lists them)",
                    colour[0], colour[1], colour[2]
                )));
            };
            if let Some(cell) = gat.cells.get_mut(y * w + x) {
                if cell.kind != kind {
                    cell.kind = kind;
                    changed += 1;
                }
            }
        }
    }
    if changed > 0 {
        request.note(format!("{input_name}: {changed} cell type(s) changed; heights kept from the recorded GAT"));
    }
    Ok(gat)
}
