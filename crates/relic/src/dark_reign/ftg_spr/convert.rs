//! FTG sprites to the common model: a PNG per frame (`frame_<i>`), the atlas and a JSON document; and
//! back, from that document with the frame PNGs beside it.

use std::path::Path;

use serde_json::json;

use super::types::*;
use super::write::write_document;
use super::FORMAT_ID;
use crate::asset::{Asset, Document, Hotspot, Image, NamedAsset};
use crate::bytes::Base64;
use crate::codec::palette::Palette;
use crate::dark_reign::spr::pack::png_beside;
use crate::dark_reign::spr::paint::{decode_png, Paint};
use crate::error::{Error, Result};
use crate::registry::ConvertOptions;

/// The name of frame `i`'s PNG.
pub fn frame_name(i: usize) -> String {
    format!("frame_{i}")
}

/// The name of the atlas: a view (`atlas.view.png`), which `pack` never reads; it compares one found beside
/// the document with the atlas the frames give and warns when they differ.
pub const ATLAS_VIEW: &str = "atlas.view";

/// What `relic convert --format dr-ftg-spr` makes of a file drawn with `palette` (index 0 transparent): a
/// PNG per frame of at least one pixel, `frame_<i>` (the descriptor's offset as the frame's hotspot, flag
/// 0, and its negation as the frame's offset); the atlas view [`ATLAS_VIEW`]: one row, frame i at x = the
/// widths before it, y = 0, as high as the highest frame, shorter frames not padded (spec "FTG Texture
/// Atlas Layout"); and the JSON document, unnamed (`<name>/<name>.json`). The document holds each frame's
/// hotspot once, as its descriptor's `offset_x`, `offset_y`.
pub fn to_assets(data: &[u8], palette: &Palette, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let doc = super::parse(data)?;
    let paint = Paint::palette(palette);
    let atlas = atlas_of(&doc, &paint).unwrap_or_else(|note| {
        opts.note(note);
        None
    });
    let mut out = Vec::with_capacity(doc.frames.len() + 2);
    let mut rows = Vec::with_capacity(doc.frames.len());
    let mut lean = doc.clone();
    let mut x = 0usize;
    for (i, (f, kept)) in doc.frames.iter().zip(&mut lean.frames).enumerate() {
        let (w, h) = (usize::from(f.width), usize::from(f.height));
        let pixels = f.pixels.as_ref().map(|p| p.0.as_slice()).unwrap_or_default();
        if w * h > 0 {
            if paint.reproducible(pixels) {
                kept.pixels = None;
            }
            let hotspot = Hotspot { x: f.offset_x.into(), y: f.offset_y.into(), flag: 0 };
            let img = Image::single(w as u32, h as u32, paint.to_rgba(pixels), (-hotspot.x, -hotspot.y), vec![hotspot]);
            out.push(NamedAsset { name: Some(frame_name(i)), asset: Asset::Image(img) });
        }
        rows.push(json!({ "name": frame_name(i), "atlas": { "x": x, "y": 0, "width": w, "height": h } }));
        x += w;
    }
    let size = atlas.as_ref().and_then(|a| a.frames.first()).map(|f| (f.width, f.height));
    if let Some(img) = atlas {
        out.push(NamedAsset { name: Some(ATLAS_VIEW.into()), asset: Asset::Image(img) });
    }
    let mut value = crate::registry::document_json(FORMAT_ID, &lean)?;
    if let Some(frames) = value.get_mut("frames").and_then(|f| f.as_array_mut()) {
        for (v, row) in frames.iter_mut().zip(rows) {
            if let (Some(v), Some(row)) = (v.as_object_mut(), row.as_object()) {
                v.extend(row.clone());
            }
        }
    }
    value["palette"] = json!(paint.to_json());
    value["atlas"] = match size {
        Some((width, height)) => json!({ "width": width, "height": height, "view": format!("{ATLAS_VIEW}.png") }),
        None => json!(null),
    };
    value["about"] = json!(
        "relic pack dr-ftg-spr <this file> writes the sprite from this file and frame_<i>.png beside it, mapping \
         colours back through `palette`; `pixels` is kept only where a PNG cannot give the indices back. A \
         frame's hotspot is its `offset_x`, `offset_y` (the origin, right of and below the top-left). \
         atlas.view.png is a view: pack does not read it (it warns when it differs from the frames); `atlas` is \
         information, also not read."
    );
    out.push(NamedAsset { name: None, asset: Asset::Document(Document { value, tables: vec![] }) });
    Ok(out)
}

/// The atlas of a document whose frames hold their pixels (spec "FTG Texture Atlas Layout"): `None` when it
/// has no pixels, `Err(note)` when it is over `--max-pixels`.
pub fn atlas_of(doc: &FtgSprDocument, paint: &Paint) -> std::result::Result<Option<Image>, String> {
    let atlas_width: usize = doc.frames.iter().map(|f| usize::from(f.width)).sum();
    let atlas_height = doc.frames.iter().map(|f| usize::from(f.height)).max().unwrap_or(0);
    let max = crate::limits::current().max_pixels;
    if (atlas_width as u64) * (atlas_height as u64) > max {
        return Err(format!(
            "{atlas_width}×{atlas_height} atlas is over the limit of {max} pixels (--max-pixels): not written"
        ));
    }
    if atlas_width == 0 || atlas_height == 0 {
        return Ok(None);
    }
    let mut atlas = vec![0u8; atlas_width * atlas_height * 4];
    let mut x = 0usize;
    for f in &doc.frames {
        let w = usize::from(f.width);
        let pixels = f.pixels.as_ref().map(|p| p.0.as_slice()).unwrap_or_default();
        for (y, row) in paint.to_rgba(pixels).chunks_exact(w.max(1) * 4).enumerate() {
            let start = (y * atlas_width + x) * 4;
            if let Some(dst) = atlas.get_mut(start..start + row.len()) {
                dst.copy_from_slice(row);
            }
        }
        x += w;
    }
    Ok(Some(Image::single(atlas_width as u32, atlas_height as u32, atlas, (0, 0), vec![])))
}

/// Writes the file a JSON document at `json_path` describes: the lossless document as it is; the document
/// of `relic convert` (it has a `palette`) with each frame taken from `frame_<i>.png` beside it when there,
/// and a note when the atlas view beside it differs from the atlas those frames give.
pub fn from_json_at(value: serde_json::Value, json_path: &Path, notes: &mut Vec<String>) -> Result<Vec<u8>> {
    let paint = value.get("palette").map(|p| Paint::from_json(FORMAT_ID, p)).transpose()?;
    older_hotspot_copies(&value, notes);
    let mut doc: FtgSprDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
    let Some(paint) = paint else { return write_document(&doc) };
    let dir = json_path.parent().unwrap_or(Path::new(""));
    let (mut used, mut inexact) = (0usize, 0usize);
    for (i, f) in doc.frames.iter_mut().enumerate() {
        let (w, h) = (usize::from(f.width), usize::from(f.height));
        let path = dir.join(format!("{}.png", frame_name(i)));
        if w * h == 0 {
            continue;
        }
        // Read as `pack dr-spr` reads its frames: a link is refused, the file read is the one checked.
        let Some(bytes) = png_beside(&path)? else {
            if f.pixels.is_none() {
                return Err(Error::Refused(format!(
                    "{}: missing, and the document holds no pixels for it",
                    path.display()
                )));
            }
            notes.push(format!("{} is missing: frame {i} kept as the document holds it", path.display()));
            continue;
        };
        let (pixels, off) =
            paint.from_rgba(&decode_png(&path, &bytes, w, h)?, f.pixels.as_ref().map(|p| p.0.as_slice()));
        inexact += off;
        used += 1;
        f.pixels = Some(Base64(pixels));
    }
    notes.push(format!(
        "frames taken from {used} PNGs beside the document{}",
        if inexact > 0 { format!("; {inexact} pixels mapped to the nearest palette colour") } else { String::new() }
    ));
    let bytes = write_document(&doc)?;
    if let Ok(Some(atlas)) = atlas_of(&doc, &paint) {
        let view = dir.join(format!("{ATLAS_VIEW}.png"));
        match png_beside(&view) {
            Ok(Some(bytes)) => notes.extend(crate::export::view::view_note_of(&view, &bytes, &atlas, "the frame PNGs")),
            Ok(None) => {}
            Err(e) => notes.push(format!("{e}: the atlas view was not compared")),
        }
    }
    Ok(bytes)
}

/// Documents of an older shape repeated each frame's hotspot as `hotspot` {x, y} beside `offset_x`,
/// `offset_y`, which alone are packed: a note for each copy that differs (an edit that is not used).
fn older_hotspot_copies(value: &serde_json::Value, notes: &mut Vec<String>) {
    let Some(frames) = value.get("frames").and_then(|f| f.as_array()) else { return };
    for (i, f) in frames.iter().enumerate() {
        let Some(copy) = f.get("hotspot") else { continue };
        if copy.get("x") != f.get("offset_x") || copy.get("y") != f.get("offset_y") {
            notes.push(format!(
                "frames[{i}].hotspot differs from its offset_x, offset_y, which are packed (an older document \
                 shape; the hotspot is edited in offset_x, offset_y)"
            ));
        }
    }
}

/// Header summary for `relic info`.
pub fn info(doc: &FtgSprDocument) -> serde_json::Value {
    json!({
        "format": FORMAT_ID,
        "frames": doc.frames.len(),
        "max_width": doc.max_width,
        "max_height": doc.max_height,
        "reserved": doc.reserved,
        "sizes": doc.frames.iter().map(|f| format!("{}x{}", f.width, f.height)).collect::<Vec<_>>(),
        "trailing_bytes": doc.trailing.as_ref().map_or(0, |t| t.0.len()),
    })
}
