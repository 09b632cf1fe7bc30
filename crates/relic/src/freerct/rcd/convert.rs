//! RCD to the common model: `<stem>.json` (the blocks with their fields, sprite references resolved to
//! PNG names), one PNG per pixel block in `<stem>/` (named after the block and its first user), the
//! recolour layers of 32PX sprites that have them, and a sheet per game block, one row per view or group
//! in the spec's order, each sprite placed by its offset so that a tile set lines up as in the game.
//! Sheets are views (`<block>_<magic>_sheet.view.png`, see `crate::export::view`): pack never reads them
//! and compares them with what the sprite PNGs give (`pack.rs`).

use crate::parallel::prelude::*;
use serde_json::{json, Map, Value};

use super::fields::{reference, visit_refs};
use super::json::block_json;
use super::layouts::{self, COLOUR_RANGES};
use super::pixels::{decode_32bpp, decode_8bpp, encode_32bpp, encode_8bpp, Planes32};
use super::types::*;
use crate::asset::{Asset, Document, Frame, FrameRole, Image, NamedAsset, Pixels};
use crate::codec::palette::{Palette, SixBitScaling};
use crate::error::Result;
use crate::export::view::VIEW_SUFFIX;
use crate::registry::ConvertOptions;

/// FreeRCT's fixed 8bpp palette (JASC-PAL, `palette.pal` beside this module, a copy of FreeRCT's): index 0 is
/// transparent; the game draws the others opaque.
pub const PALETTE_FILE: &[u8] = include_bytes!("palette.pal");
/// FreeRCT's recolour gradients: 18 colour ranges × 256 intensities × RGB (the game's
/// `recolour_palettes.cpp` tables, as data).
pub const GRADIENTS: &[u8; 18 * 256 * 3] = include_bytes!("recolour.bin");

/// The fixed palette, index 0 transparent.
pub fn palette() -> Palette {
    Palette::read(PALETTE_FILE, SixBitScaling::Replicate).unwrap_or_else(|_| Palette::greyscale()).with_transparent(0)
}

/// A SPRT v1 palette: 768 bytes of RGB, index 0 transparent. Taken as raw RGB whatever its first bytes
/// spell (entry 0's colour is unused and may read `PALS` or `JASC-PAL`), never sniffed as a palette file.
pub fn sprite_palette(bytes: &[u8]) -> Option<Palette> {
    (bytes.len() == 768).then(|| {
        Palette { colors: bytes.chunks_exact(3).map(|c| [c[0], c[1], c[2], 255]).collect() }.with_transparent(0)
    })
}

/// The colour of `intensity` in colour range `range` (grey for a range past the 18).
pub fn gradient(range: usize, intensity: u8) -> [u8; 3] {
    let at = ((if range < 18 { range } else { 0 }) * 256 + usize::from(intensity)) * 3;
    match GRADIENTS.get(at..at + 3) {
        Some(c) => [c[0], c[1], c[2]],
        None => [0, 0, 0],
    }
}

/// `relic info`: versions, block counts by magic and version, what is kept raw, the INFO strings.
pub fn info(rcd: &Rcd<'_>) -> Value {
    let mut counts: Vec<(String, u32, usize)> = Vec::new();
    let mut unparsed = Vec::new();
    for (i, b) in rcd.blocks.iter().enumerate() {
        let magic = b.magic_str();
        match counts.iter_mut().find(|(m, v, _)| *m == magic && *v == b.version) {
            Some(c) => c.2 += 1,
            None => counts.push((magic.clone(), b.version, 1)),
        }
        if let Body::Raw { reason: Some(r), .. } = &b.body {
            unparsed.push(json!({ "block": i + 1, "magic": magic, "reason": r }));
        }
    }
    let mut v = json!({
        "format": super::FORMAT_ID,
        "file_version": rcd.version,
        "blocks": rcd.blocks.len(),
        "sprites": rcd.blocks.iter().filter(|b| b.is_pixels()).count(),
        "block_counts": counts.iter().map(|(m, v, n)| json!({ "magic": m, "version": v, "count": n })).collect::<Vec<_>>(),
        "kept_raw": counts.iter().filter(|(m, v, _)| {
            let magic = magic_from_text(m).unwrap_or_default();
            !matches!((&magic, *v), (b"8PXL", 1 | 2) | (b"32PX", 1) | (b"INFO", 1) | (b"TEXT", 3))
                && layouts::layout(&magic, *v).is_none()
        }).map(|(m, v, _)| format!("{m} v{v}")).collect::<Vec<_>>(),
    });
    if !unparsed.is_empty() {
        v["unparsed"] = json!(unparsed);
    }
    if let Some(Body::Info(i)) = rcd.blocks.first().map(|b| &b.body) {
        v["info"] = serde_json::to_value(i).unwrap_or(Value::Null);
    }
    v
}

/// A sprite as game blocks see it: its pixel block and drawing offset.
#[derive(Debug, Clone, Copy)]
pub(super) struct SpriteRef {
    /// The pixel block (0-based).
    pub pixels: usize,
    pub offset: (i32, i32),
}

/// What a reference to block `n` draws: a SPRT (version 1) through its 8PXL, or a pixel block itself.
fn sprite_ref(rcd: &Rcd<'_>, n: u32) -> Option<SpriteRef> {
    let i = usize::try_from(n).ok()?.checked_sub(1)?;
    match &rcd.blocks.get(i)?.body {
        Body::Pixels8 { offset, .. } => {
            Some(SpriteRef { pixels: i, offset: offset.map_or((0, 0), |(x, y)| (i32::from(x), i32::from(y))) })
        }
        Body::Pixels32 { offset: (x, y), .. } => Some(SpriteRef { pixels: i, offset: (i32::from(*x), i32::from(*y)) }),
        Body::Fields(m) if &rcd.blocks.get(i)?.magic == b"SPRT" => {
            let p = usize::try_from(reference(m.get("pixels")?, "").ok()?).ok()?.checked_sub(1)?;
            let x = m.get("x_offset")?.as_i64()? as i32;
            let y = m.get("y_offset")?.as_i64()? as i32;
            matches!(rcd.blocks.get(p)?.body, Body::Pixels8 { .. }).then_some(SpriteRef { pixels: p, offset: (x, y) })
        }
        _ => None,
    }
}

/// A pixel block decoded: RGBA for sheets, plus what its PNG holds.
struct Decoded {
    width: u32,
    height: u32,
    offset: (i32, i32),
    rgba: Vec<u8>,
    /// Palette indices of an 8PXL (its PNG is indexed).
    indices: Option<Vec<u8>>,
    /// A 32PX's recolour layers as an image (red = layer, green = intensity, opaque where recoloured).
    recolour: Option<Vec<u8>>,
    /// Whether re-encoding the pixels gives the block's bytes (else the document keeps them).
    canonical: bool,
    /// What pack compares the PNGs with to tell an edited sprite (see [`pixels_digest`]): the PNG's
    /// (`png_digest`), the recolour layers' (`recolour_digest`), and the colour ranges the recolour
    /// pixels were drawn in (`recolour_ranges`, by layer entry).
    digest: String,
    recolour_digest: Option<String>,
    ranges: Option<[usize; 4]>,
}

/// What the pixel blocks' first users say about them: a name, SPRT v1's palette, recolour sources.
#[derive(Default, Clone)]
struct Usage {
    name: Option<String>,
    palette: Option<Vec<u8>>,
    sources: [Option<usize>; 4],
}

fn sanitize(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c.to_ascii_lowercase() } else { '_' }).collect()
}

/// What names a block's sprites: `<magic><number>`, with `_<internal name>` when the block has one; a
/// block without one that another game block uses (an FSET of a track voxel, a TIMA of a ride) takes its
/// first user's label and the field that refers to it (`trck52_wooden_straight_n_voxels_0_background`),
/// and that user's recolourings when it has none of its own.
struct Labels {
    label: Vec<String>,
    sources: Vec<[Option<usize>; 4]>,
}

fn labels(rcd: &Rcd<'_>) -> Labels {
    let n = rcd.blocks.len();
    let mut label: Vec<String> = Vec::with_capacity(n);
    let mut own_name = vec![false; n];
    let mut sources = vec![[None; 4]; n];
    for (bi, b) in rcd.blocks.iter().enumerate() {
        let mut l = format!("{}{}", sanitize(&b.magic_str()), bi + 1);
        if let Body::Fields(m) = &b.body {
            if let Some(name) = m.get("internal_name").and_then(Value::as_str).filter(|s| !s.is_empty()) {
                l = format!("{l}_{}", sanitize(name));
                own_name[bi] = true;
            }
            for (k, s) in sources[bi].iter_mut().take(3).enumerate() {
                *s = m.get(&format!("recolour_{}", k + 1)).and_then(recolour_source);
            }
        }
        label.push(l);
    }
    let has_own_sources: Vec<bool> = sources.iter().map(|s| s.iter().any(Option::is_some)).collect();
    // Users come after what they use (FreeRCT's generator writes a block's parts first): from the last
    // block back, each passes its label down; the first user in file order passes it last, and wins.
    for bi in (0..n).rev() {
        let b = &rcd.blocks[bi];
        let (Body::Fields(m), Some(layout)) = (&b.body, layouts::layout(&b.magic, b.version)) else { continue };
        if &b.magic == b"SPRT" {
            continue;
        }
        let mut m = m.clone();
        let mut users = Vec::new();
        visit_refs(layout, &mut m, true, &mut |row, name, v| {
            if let Some(t) = reference(v, "").ok().and_then(|t| usize::try_from(t).ok()?.checked_sub(1)) {
                users.push((t, row.to_string(), name.to_string()));
            }
        });
        // The first field naming a block wins within a user too.
        for (t, row, name) in users.into_iter().rev() {
            let Some(target) = rcd.blocks.get(t) else { continue };
            if t >= bi || own_name[t] || !matches!(target.body, Body::Fields(_)) || &target.magic == b"SPRT" {
                continue;
            }
            let row = if row.is_empty() { String::new() } else { format!("_{}", sanitize(&row)) };
            label[t] = format!("{}{row}_{}", label[bi], sanitize(&name));
            if !has_own_sources[t] {
                sources[t] = sources[bi];
            }
        }
    }
    Labels { label, sources }
}

/// The first user of every pixel block, in file order.
fn usages(rcd: &Rcd<'_>) -> Vec<Usage> {
    let mut out = vec![Usage::default(); rcd.blocks.len()];
    let labels = labels(rcd);
    for (bi, b) in rcd.blocks.iter().enumerate() {
        let Body::Fields(m) = &b.body else { continue };
        let Some(layout) = layouts::layout(&b.magic, b.version) else { continue };
        if &b.magic == b"SPRT" {
            // A version 1 sprite's palette belongs to its 8PXL.
            if let (Some(p), Some(pal)) = (sprite_ref(rcd, bi as u32 + 1), m.get("palette").and_then(Value::as_str)) {
                let slot = &mut out[p.pixels];
                if slot.palette.is_none() {
                    slot.palette = hex::decode(pal).ok();
                }
            }
            continue;
        }
        let sources = labels.sources[bi];
        let label = &labels.label[bi];
        let mut m = m.clone();
        visit_refs(layout, &mut m, false, &mut |row, name, v| {
            let Some(s) = reference(v, "").ok().and_then(|n| sprite_ref(rcd, n)) else { return };
            let slot = &mut out[s.pixels];
            if slot.name.is_none() {
                let row = if row.is_empty() { String::new() } else { format!("_{}", sanitize(row)) };
                slot.name = Some(format!("{label}{row}_{}", sanitize(name)));
                slot.sources = sources;
            }
        });
    }
    out
}

/// The PNG name (without `.png`) `relic convert` gives each pixel block (`None` for other blocks):
/// `<block number>_<user's label>[_<row>]_<field>` after the pixel block's first user, or
/// `<block number>_<magic>` for a sprite no game block uses (an anonymous sprite).
pub fn sprite_names(rcd: &Rcd<'_>) -> Vec<Option<String>> {
    let usage = usages(rcd);
    rcd.blocks.iter().enumerate().map(|(i, b)| b.is_pixels().then(|| png_name(i, rcd, &usage[i]))).collect()
}

/// How many pixel blocks no game block uses (their PNGs are named after the block number alone).
pub fn anonymous_sprites(rcd: &Rcd<'_>) -> usize {
    let usage = usages(rcd);
    rcd.blocks.iter().zip(&usage).filter(|(b, u)| b.is_pixels() && u.name.is_none()).count()
}

/// The source colour range of a recolouring, when it names one of the 18.
fn recolour_source(v: &Value) -> Option<usize> {
    let source = match v.get("source") {
        Some(Value::String(s)) => COLOUR_RANGES.iter().position(|n| n == s)?,
        Some(n) => n.as_u64()? as usize,
        None => (v.as_u64()? >> 24) as usize,
    };
    (source < 18).then_some(source)
}

/// The PNG name (without extension) of pixel block `i`.
fn png_name(i: usize, rcd: &Rcd<'_>, usage: &Usage) -> String {
    match &usage.name {
        Some(n) => format!("{:04}_{n}", i + 1),
        None => format!("{:04}_{}", i + 1, sanitize(&rcd.blocks[i].magic_str())),
    }
}

fn decode(block: &Block<'_>, at: u64, usage: &Usage, fixed: &Palette) -> Result<Decoded> {
    match &block.body {
        Body::Pixels8 { width, height, offset, data } => {
            let indices = decode_8bpp(data, *width, *height, at)?;
            let canonical = encode_8bpp(*width, *height, &indices) == data.as_ref();
            let pal = usage.palette.as_deref().and_then(sprite_palette).unwrap_or_else(|| fixed.clone());
            let mut rgba = Vec::with_capacity(indices.len() * 4);
            for &i in &indices {
                rgba.extend_from_slice(pal.colors.get(usize::from(i)).unwrap_or(&[0; 4]));
            }
            Ok(Decoded {
                width: u32::from(*width),
                height: u32::from(*height),
                offset: offset.map_or((0, 0), |(x, y)| (i32::from(x), i32::from(y))),
                rgba,
                digest: pixels_digest(u32::from(*width), u32::from(*height), &indices, 1),
                indices: Some(indices),
                recolour: None,
                canonical,
                recolour_digest: None,
                ranges: None,
            })
        }
        Body::Pixels32 { width, height, offset: (x, y), data } => {
            let planes = decode_32bpp(data, *width, *height, at)?;
            let canonical = encode_32bpp(*width, *height, &planes) == data.as_ref();
            let (rgba, recolour) = draw_32bpp(planes, &usage.sources);
            let (w, h) = (u32::from(*width), u32::from(*height));
            Ok(Decoded {
                width: w,
                height: h,
                offset: (i32::from(*x), i32::from(*y)),
                digest: pixels_digest(w, h, &rgba, 4),
                recolour_digest: recolour.as_ref().map(|l| pixels_digest(w, h, l, 4)),
                ranges: recolour.is_some().then(|| usage.sources.map(|s| s.unwrap_or(0))),
                rgba,
                indices: None,
                recolour,
                canonical,
            })
        }
        _ => Ok(Decoded {
            width: 0,
            height: 0,
            offset: (0, 0),
            rgba: vec![],
            indices: None,
            recolour: None,
            canonical: true,
            digest: String::new(),
            recolour_digest: None,
            ranges: None,
        }),
    }
}

/// A 32PX sprite drawn: recolour pixels in the gradient of their layer's source range (docs/formats/freerct.md#32px-recolour:
/// layer L ≥ 1 is entry L − 1 of the object's recolourings, anything else the first), and the layers as
/// an image when there are any.
fn draw_32bpp(p: Planes32, sources: &[Option<usize>; 4]) -> (Vec<u8>, Option<Vec<u8>>) {
    let mut rgba = p.rgba;
    if !p.recolour.iter().any(|&r| r) {
        return (rgba, None);
    }
    let mut layers = vec![0u8; p.recolour.len() * 4];
    for (i, &rec) in p.recolour.iter().enumerate() {
        if !rec {
            continue;
        }
        let layer = p.layer[i];
        rgba[i * 4..i * 4 + 3].copy_from_slice(&recolour_colour(
            sources.map(|s| s.unwrap_or(0)),
            layer,
            p.intensity[i],
        ));
        layers[i * 4..i * 4 + 4].copy_from_slice(&[layer, p.intensity[i], 0, 255]);
    }
    (rgba, Some(layers))
}

/// The colour a recolour pixel of `layer` and `intensity` is drawn in, `ranges` being the colour range of
/// each of the object's recolourings (docs/formats/freerct.md#32px-recolour: layer L ≥ 1 is entry L − 1, anything else the first).
pub(super) fn recolour_colour(ranges: [usize; 4], layer: u8, intensity: u8) -> [u8; 3] {
    let entry = if (1..=4).contains(&layer) { usize::from(layer - 1) } else { 0 };
    gradient(ranges[entry], intensity)
}

/// What a sprite's pixels were when convert wrote its PNG (palette indices, `channels` 1, or RGBA, 4), so
/// that pack tells an edited sprite from one left alone: BLAKE3 of the size and the pixels, fully
/// transparent RGBA pixels counted as transparent black (an editor may change colours under alpha 0).
pub(super) fn pixels_digest(width: u32, height: u32, pixels: &[u8], channels: usize) -> String {
    if channels == 4 {
        return sheet_digest(width, height, pixels);
    }
    let mut hasher = blake3::Hasher::new();
    hasher.update(&width.to_le_bytes());
    hasher.update(&height.to_le_bytes());
    hasher.update(pixels);
    hasher.finalize().to_hex().to_string()
}

fn image(width: u32, height: u32, pixels: Pixels, offset: (i32, i32), palette: Option<Vec<[u8; 4]>>) -> Asset {
    Asset::Image(Image {
        frames: vec![Frame { name: None, width, height, pixels, offset, hotspots: vec![], role: FrameRole::Frame }],
        palette,
        frame_rate: None,
        text: Vec::new(),
    })
}

/// The assets of an RCD file: its document (beside the folder), a PNG per pixel block, recolour layers,
/// a sheet per game block.
///
/// `file_len` bounds what is drawn: the RGBA of every sprite and sheet together stays within
/// `--max-expansion` times the file (a few header bytes can declare a 65535-pixel-wide sprite of empty
/// lines), checked from the headers before anything is decoded.
pub fn assets(rcd: &Rcd<'_>, file_len: u64, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let mut budget = crate::limits::expansion_budget(file_len);
    let mut drawn = 0u64;
    for (i, b) in rcd.blocks.iter().enumerate() {
        if let Body::Pixels8 { width, height, .. } | Body::Pixels32 { width, height, .. } = &b.body {
            drawn += u64::from(*width) * u64::from(*height) * 4;
            if drawn > budget {
                return Err(crate::error::Error::limit(
                    super::FORMAT_ID,
                    format!("block[{}].width", i + 1),
                    0,
                    format!("its sprites draw {drawn} bytes or more, past --max-expansion times the file's {file_len}"),
                ));
            }
        }
    }
    budget -= drawn;
    let fixed = match &opts.palette {
        Some(path) => Palette::read_file(path, SixBitScaling::Replicate)?.with_transparent(0),
        None => palette(),
    };
    let usage = usages(rcd);
    // Block body offsets, for errors naming a byte of the file.
    let mut at = Vec::with_capacity(rcd.blocks.len());
    let mut pos = FILE_HEADER as u64;
    for b in &rcd.blocks {
        let header = match &b.body {
            Body::Pixels8 { offset: Some(_), .. } | Body::Pixels32 { .. } => 8,
            _ => 4,
        };
        at.push(pos + BLOCK_HEADER as u64 + header);
        pos += BLOCK_HEADER as u64 + super::write::body_len(b).map_or(0, |n| n as u64);
    }
    let decoded: Vec<Option<Result<Decoded>>> = rcd
        .blocks
        .par_iter()
        .enumerate()
        .map(|(i, b)| b.is_pixels().then(|| decode(b, at[i], &usage[i], &fixed)))
        .collect();

    // Names first: the document and the sheets refer to the PNGs; the pixels move into them last, so
    // that no sprite is held twice.
    let mut names: Vec<Option<String>> = vec![None; rcd.blocks.len()];
    for (i, b) in rcd.blocks.iter().enumerate() {
        match &decoded[i] {
            Some(Ok(d)) if d.width * d.height > 0 => names[i] = Some(png_name(i, rcd, &usage[i])),
            Some(Err(e)) => {
                opts.note(format!("{}: block {} ({}) kept as bytes: {e}", super::FORMAT_ID, i + 1, b.magic_str()))
            }
            _ => {}
        }
    }
    let mut sheets = Vec::new();
    let mut doc_blocks = Vec::with_capacity(rcd.blocks.len());
    for (i, b) in rcd.blocks.iter().enumerate() {
        let keep_data = match &decoded[i] {
            Some(Ok(d)) => !d.canonical || names[i].is_none(),
            _ => true,
        };
        let mut v = block_json(i + 1, b, keep_data);
        if let (Some(name), Some(Ok(d))) = (&names[i], &decoded[i]) {
            v["png"] = json!(format!("{name}.png"));
            v["png_digest"] = json!(d.digest);
            if let (Some(digest), Some(ranges)) = (&d.recolour_digest, d.ranges) {
                v["recolour_png"] = json!(format!("{name}.recolour.png"));
                v["recolour_digest"] = json!(digest);
                v["recolour_ranges"] = json!(ranges);
            }
        }
        if let (Body::Fields(_), Some(layout)) = (&b.body, layouts::layout(&b.magic, b.version)) {
            let mut m: Map<String, Value> = v.as_object().cloned().unwrap_or_default();
            visit_refs(layout, &mut m, false, &mut |_row, _name, value| {
                let n = reference(value, "").unwrap_or(0);
                if n != 0 {
                    let png = sprite_ref(rcd, n).and_then(|s| names[s.pixels].as_ref()).map(|n| format!("{n}.png"));
                    *value = json!({ "block": n, "png": png });
                }
            });
            if let Some(rows) = sheet_rows(rcd, b) {
                // A view (`.view.png`): pack never reads it, and warns when it was edited.
                let sheet_name = format!("{:04}_{}_sheet{VIEW_SUFFIX}", i + 1, sanitize(&b.magic_str()));
                let drawn = |p: usize| match decoded.get(p) {
                    Some(Some(Ok(d))) if d.width * d.height > 0 => Some(d),
                    _ => None,
                };
                match sheet_grid(&rows, |p| drawn(p).map(|d| (d.width, d.height)), budget) {
                    Some(grid) => {
                        let rgba = draw_sheet(&grid, &rows, |p| drawn(p).map(|d| (d.width, d.rgba.as_slice())));
                        budget -= rgba.len() as u64;
                        m.insert("sheet".into(), json!(format!("{sheet_name}.png")));
                        m.insert("sheet_digest".into(), json!(sheet_digest(grid.width, grid.height, &rgba)));
                        sheets.push(NamedAsset {
                            name: Some(sheet_name),
                            asset: image(grid.width, grid.height, Pixels::Rgba8(rgba), (0, 0), None),
                        });
                    }
                    None => opts.note(format!(
                        "{}: block {} ({}): its sheet would be past --max-pixels or --max-expansion, or far larger than its sprites; none written",
                        super::FORMAT_ID,
                        i + 1,
                        b.magic_str()
                    )),
                }
            }
            v = Value::Object(m);
        }
        doc_blocks.push(v);
    }
    let doc = json!({
        "format": super::FORMAT_ID,
        "file_version": rcd.version,
        "images": "PNG names are relative to the folder named after this document",
        "blocks": doc_blocks,
    });
    let mut out = vec![NamedAsset {
        name: Some(NamedAsset::BESIDE.into()),
        asset: Asset::Document(Document { value: doc, tables: vec![] }),
    }];
    for (i, d) in decoded.into_iter().enumerate() {
        let (Some(Ok(d)), Some(name)) = (d, names[i].take()) else { continue };
        let (pixels, palette) = match d.indices {
            Some(ix) => {
                let pal = usage[i].palette.as_deref().and_then(sprite_palette).unwrap_or_else(|| fixed.clone());
                (Pixels::Indexed(ix), Some(pal.colors))
            }
            None => (Pixels::Rgba8(d.rgba), None),
        };
        out.push(NamedAsset { name: Some(name.clone()), asset: image(d.width, d.height, pixels, d.offset, palette) });
        if let Some(layers) = d.recolour {
            out.push(NamedAsset {
                name: Some(format!("{name}.recolour")),
                asset: image(d.width, d.height, Pixels::Rgba8(layers), d.offset, None),
            });
        }
    }
    out.extend(sheets);
    Ok(out)
}

/// Space between the cells of a sheet, in pixels.
const SHEET_GAP: u32 = 2;
/// A sheet is drawn when it is at most this many times its sprites' area (plus a megapixel): far more
/// than any generator-made block needs (real sheets stay under 40 times: TCOR's corner highlights, small sprites spread over a tile; most under 2).
const SHEET_SLACK: u64 = 64;

/// The rows of a sheet: one per group of the block (a view, a sub-block, a frame list) in the spec's
/// order, one cell per sprite reference (`None`: no sprite there).
pub(super) type SheetRows = Vec<(String, Vec<Option<SpriteRef>>)>;

/// The rows of game block `b`'s sheet; `None` for a block without a layout or without a sprite.
pub(super) fn sheet_rows(rcd: &Rcd<'_>, b: &Block<'_>) -> Option<SheetRows> {
    let (Body::Fields(m), Some(layout)) = (&b.body, layouts::layout(&b.magic, b.version)) else { return None };
    let mut m = m.clone();
    let mut rows: SheetRows = Vec::new();
    visit_refs(layout, &mut m, false, &mut |row, _name, value| {
        let n = reference(value, "").unwrap_or(0);
        let s = if n == 0 { None } else { sprite_ref(rcd, n) };
        match rows.last_mut() {
            Some((r, cells)) if r == row => cells.push(s),
            _ => rows.push((row.to_string(), vec![s])),
        }
    });
    if let Some(columns) = layouts::sheet_columns(&b.magic) {
        rows = rows
            .into_iter()
            .flat_map(|(row, cells)| cells.chunks(columns).map(|c| (row.clone(), c.to_vec())).collect::<Vec<_>>())
            .collect();
    }
    rows.iter().any(|(_, cells)| cells.iter().any(Option::is_some)).then_some(rows)
}

/// Where a sheet's sprites go: every cell is the size of the union of the sprites' rectangles around their
/// common origin (`cell`, from `origin`), so sprites keep their relative placement; cells are
/// [`SHEET_GAP`] apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Grid {
    pub width: u32,
    pub height: u32,
    origin: (i64, i64),
    cell: (u32, u32),
}

impl Grid {
    /// The rectangle (left, top, width, height) of cell (`row`, `column`), with the gap after it.
    pub fn cell(&self, row: usize, column: usize) -> (u32, u32, u32, u32) {
        let (w, h) = (self.cell.0 + SHEET_GAP, self.cell.1 + SHEET_GAP);
        (column as u32 * w, row as u32 * h, w, h)
    }
}

/// The grid of a sheet whose sprites (by pixel block) have the sizes `size` gives (`None` for a sprite
/// not drawn). `None` when it would pass `--max-pixels` or take more than `budget` bytes of RGBA.
pub(super) fn sheet_grid(rows: &SheetRows, size: impl Fn(usize) -> Option<(u32, u32)>, budget: u64) -> Option<Grid> {
    let (mut x0, mut y0, mut x1, mut y1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
    let mut sprite_pixels = 0u64;
    for s in rows.iter().flat_map(|(_, c)| c.iter().flatten()) {
        if let Some((w, h)) = size(s.pixels).filter(|(w, h)| w * h > 0) {
            sprite_pixels += u64::from(w) * u64::from(h);
            x0 = x0.min(i64::from(s.offset.0));
            y0 = y0.min(i64::from(s.offset.1));
            x1 = x1.max(i64::from(s.offset.0) + i64::from(w));
            y1 = y1.max(i64::from(s.offset.1) + i64::from(h));
        }
    }
    if x0 > x1 {
        return None;
    }
    let (cw, ch) = (u64::try_from(x1 - x0).ok()?, u64::try_from(y1 - y0).ok()?);
    let cols = rows.iter().map(|(_, c)| c.len()).max().unwrap_or(0) as u64;
    let w = cols * (cw + u64::from(SHEET_GAP));
    let h = rows.len() as u64 * (ch + u64::from(SHEET_GAP));
    let pixels = w.saturating_mul(h);
    // A sheet is about as large as its sprites (cells are their union); one far larger comes from a sprite
    // far out of place, and would cost memory for nothing to see.
    let plausible = sprite_pixels.saturating_mul(SHEET_SLACK).saturating_add(1 << 20);
    if pixels == 0
        || pixels > crate::limits::current().max_pixels
        || pixels > plausible
        || pixels.saturating_mul(4) > budget
    {
        return None;
    }
    Some(Grid {
        width: u32::try_from(w).ok()?,
        height: u32::try_from(h).ok()?,
        origin: (x0, y0),
        cell: (u32::try_from(cw).ok()?, u32::try_from(ch).ok()?),
    })
}

/// What a sheet's pixels were when convert drew it, so that pack tells a sheet the user edited from one
/// that is only stale (its sprites were edited): BLAKE3 of the size and the RGBA, fully transparent pixels
/// counted as transparent black (an editor may change colours under alpha 0).
pub(super) fn sheet_digest(width: u32, height: u32, rgba: &[u8]) -> String {
    let mut hasher = blake3::Hasher::new();
    hasher.update(&width.to_le_bytes());
    hasher.update(&height.to_le_bytes());
    for px in rgba.chunks_exact(4) {
        hasher.update(if px[3] == 0 { &[0; 4] } else { px });
    }
    hasher.finalize().to_hex().to_string()
}

/// A sheet's RGBA: each sprite's pixels (`rgba` gives its width and RGBA by pixel block) in its cell.
pub(super) fn draw_sheet<'d>(
    grid: &Grid,
    rows: &SheetRows,
    rgba: impl Fn(usize) -> Option<(u32, &'d [u8])>,
) -> Vec<u8> {
    let w = grid.width as usize;
    let mut out = vec![0u8; w * grid.height as usize * 4];
    for (r, (_, cells)) in rows.iter().enumerate() {
        for (c, s) in cells.iter().enumerate() {
            let Some((s, (dw, src))) = s.as_ref().and_then(|s| Some((s, rgba(s.pixels)?))) else { continue };
            let (cell_left, cell_top, _, _) = grid.cell(r, c);
            let left = cell_left as usize + (i64::from(s.offset.0) - grid.origin.0) as usize;
            let top = cell_top as usize + (i64::from(s.offset.1) - grid.origin.1) as usize;
            let dw = dw as usize;
            if dw == 0 {
                continue;
            }
            for (y, line) in src.chunks_exact(dw * 4).enumerate() {
                let start = ((top + y) * w + left) * 4;
                if let Some(dest) = out.get_mut(start..start + dw * 4) {
                    dest.copy_from_slice(line);
                }
            }
        }
    }
    out
}
