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
use crate::dark_reign::spr::paint::{read_png, Paint};
use crate::error::{Error, Result};
use crate::registry::ConvertOptions;

/// The name of frame `i`'s PNG.
pub fn frame_name(i: usize) -> String {
    format!("frame_{i}")
}

/// What `relic convert --format dr-ftg-spr` makes of a file drawn with `palette` (index 0 transparent): a
/// PNG per frame of at least one pixel, `frame_<i>` (the descriptor's offset as the frame's hotspot, flag
/// 0, and its negation as the frame's offset); the atlas, unnamed (`<stem>/<stem>.png`): one row, frame i
/// at x = the widths before it, y = 0, as high as the highest frame, shorter frames not padded (spec "FTG
/// Texture Atlas Layout"); and the JSON document, unnamed (`<stem>/<stem>.json`).
pub fn to_assets(data: &[u8], palette: &Palette, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let doc = super::parse(data)?;
    let paint = Paint::palette(palette);
    let atlas_width: usize = doc.frames.iter().map(|f| usize::from(f.width)).sum();
    let atlas_height = doc.frames.iter().map(|f| usize::from(f.height)).max().unwrap_or(0);
    let max = crate::limits::current().max_pixels;
    let atlas_fits = (atlas_width as u64) * (atlas_height as u64) <= max;
    if !atlas_fits {
        opts.note(format!(
            "{atlas_width}×{atlas_height} atlas is over the limit of {max} pixels (--max-pixels): not written"
        ));
    }
    let write_atlas = atlas_fits && atlas_width > 0 && atlas_height > 0;
    let mut atlas = if write_atlas { vec![0u8; atlas_width * atlas_height * 4] } else { vec![] };
    let mut out = Vec::with_capacity(doc.frames.len() + 2);
    let mut rows = Vec::with_capacity(doc.frames.len());
    let mut lean = doc.clone();
    let mut x = 0usize;
    for (i, (f, kept)) in doc.frames.iter().zip(&mut lean.frames).enumerate() {
        let (w, h) = (usize::from(f.width), usize::from(f.height));
        let pixels = f.pixels.as_ref().map(|p| p.0.as_slice()).unwrap_or_default();
        let rgba = paint.to_rgba(pixels);
        if write_atlas {
            for (y, row) in rgba.chunks_exact(w.max(1) * 4).enumerate() {
                let start = (y * atlas_width + x) * 4;
                if let Some(dst) = atlas.get_mut(start..start + row.len()) {
                    dst.copy_from_slice(row);
                }
            }
        }
        let hotspot = Hotspot { x: f.offset_x.into(), y: f.offset_y.into(), flag: 0 };
        if w * h > 0 {
            if paint.reproducible(pixels) {
                kept.pixels = None;
            }
            let img = Image::single(w as u32, h as u32, rgba, (-hotspot.x, -hotspot.y), vec![hotspot]);
            out.push(NamedAsset { name: Some(frame_name(i)), asset: Asset::Image(img) });
        }
        rows.push(json!({
            "name": frame_name(i),
            "atlas": { "x": x, "y": 0, "width": w, "height": h },
            "hotspot": { "x": f.offset_x, "y": f.offset_y },
        }));
        x += w;
    }
    if write_atlas {
        let img = Image::single(atlas_width as u32, atlas_height as u32, atlas, (0, 0), vec![]);
        out.push(NamedAsset { name: None, asset: Asset::Image(img) });
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
    value["atlas"] = if write_atlas { json!({ "width": atlas_width, "height": atlas_height }) } else { json!(null) };
    value["about"] = json!(
        "relic pack dr-ftg-spr <this file> takes each frame from frame_<i>.png beside this file, mapping colours \
         back through `palette`; `pixels` is kept only where a PNG cannot give the indices back."
    );
    out.push(NamedAsset { name: None, asset: Asset::Document(Document { value, tables: vec![] }) });
    Ok(out)
}

/// Writes the file a JSON document at `json_path` describes: the lossless document as it is; the document
/// of `relic convert` (it has a `palette`) with each frame taken from `frame_<i>.png` beside it when there.
pub fn from_json_at(value: serde_json::Value, json_path: &Path, notes: &mut Vec<String>) -> Result<Vec<u8>> {
    let paint = value.get("palette").map(|p| Paint::from_json(FORMAT_ID, p)).transpose()?;
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
        if !path.is_file() {
            if f.pixels.is_none() {
                return Err(Error::Refused(format!(
                    "{}: missing, and the document holds no pixels for it",
                    path.display()
                )));
            }
            notes.push(format!("{} is missing: frame {i} kept as the document holds it", path.display()));
            continue;
        }
        let (pixels, off) = paint.from_rgba(&read_png(&path, w, h)?, f.pixels.as_ref().map(|p| p.0.as_slice()));
        inexact += off;
        used += 1;
        f.pixels = Some(Base64(pixels));
    }
    notes.push(format!(
        "frames taken from {used} PNGs beside the document{}",
        if inexact > 0 { format!("; {inexact} pixels mapped to the nearest palette colour") } else { String::new() }
    ));
    write_document(&doc)
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
