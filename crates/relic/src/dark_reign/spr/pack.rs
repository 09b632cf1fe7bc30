//! `relic pack dr-spr x.json`: the lossless document as it is, or the document of `relic convert` with the
//! frame PNGs beside it, their colours mapped back to palette indices through the palette it names.

use std::path::Path;

use super::convert::frames;
use super::paint::{read_png, Paint};
use super::types::SprDocument;
use super::write::{write_document, write_document_relaxed};
use super::FORMAT_ID;
use crate::bytes::Base64;
use crate::error::{Error, Result};

/// Writes the file a JSON document at `json_path` describes. The document of `relic convert` (it lists
/// `frames`) takes each picture from the PNG of the first frame that shows it, found beside the document;
/// a picture no frame shows, or whose PNG is missing, keeps the `pixels` the document holds. Every choice
/// made is said in `notes`.
pub fn from_json_at(value: serde_json::Value, json_path: &Path, notes: &mut Vec<String>) -> Result<Vec<u8>> {
    if value.get("frames").is_none() {
        let doc: SprDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
        return write_document(&doc);
    }
    let paint = match value.get("palette") {
        Some(p) => Paint::from_json(FORMAT_ID, p)?,
        None if value.get("magic").and_then(|m| m.as_str()) == Some("SSPR") => Paint::Shadow,
        None => return Err(Error::invalid(FORMAT_ID, "palette", 0, "the document lists frames but no palette")),
    };
    let mut doc: SprDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
    let dir = json_path.parent().unwrap_or(Path::new(""));
    take_pngs(&mut doc, &paint, dir, notes)?;
    write_document_relaxed(&doc, notes)
}

/// Replaces each shown picture's pixels with its frame PNG's (see [`from_json_at`]).
pub fn take_pngs(doc: &mut SprDocument, paint: &Paint, dir: &Path, notes: &mut Vec<String>) -> Result<()> {
    let (w, h) = (doc.width.max(0) as usize, doc.height.max(0) as usize);
    if w * h == 0 {
        // Frames of no pixels have no PNGs: the document holds the (empty) pictures.
        return Ok(());
    }
    let list = frames(doc, crate::limits::current().max_entry_size)?;
    let mut taken: Vec<Option<(String, Vec<u8>)>> = vec![None; doc.pictures.len()];
    let (mut used, mut inexact) = (0usize, 0usize);
    for f in &list {
        let path = dir.join(format!("{}.png", f.name));
        let Some(slot) = taken.get_mut(f.picture) else { continue };
        let picture = doc.pictures.get(f.picture);
        let hint = picture.and_then(|p| p.pixels.as_ref()).map(|p| p.0.as_slice());
        if let Some((first, pixels)) = slot {
            // Another frame of the same picture: its PNG can only agree.
            if path.is_file() {
                let (again, _) = paint.from_rgba(&read_png(&path, w, h)?, Some(pixels));
                if again != *pixels {
                    notes.push(format!(
                        "{}.png differs from {first}.png, which shows the same picture ({}); {first}.png was used",
                        f.name, f.picture
                    ));
                }
            }
            continue;
        }
        if !path.is_file() {
            if hint.is_none() {
                return Err(Error::Refused(format!(
                    "{}: missing, and the document holds no pixels for picture {} (frame {})",
                    path.display(),
                    f.picture,
                    f.name
                )));
            }
            notes.push(format!("{} is missing: picture {} kept as the document holds it", path.display(), f.picture));
            continue;
        }
        let (pixels, off) = paint.from_rgba(&read_png(&path, w, h)?, hint);
        if off > 0 {
            notes.push(format!("{off} pixels of {}.png are not palette colours: the nearest taken", f.name));
        }
        inexact += off;
        used += 1;
        *slot = Some((f.name.clone(), pixels));
    }
    for (picture, slot) in doc.pictures.iter_mut().zip(taken) {
        if let Some((_, pixels)) = slot {
            picture.pixels = Some(Base64(pixels));
        }
    }
    let shadow = if paint.is_shadow() { " (any colour not fully transparent is shadow)" } else { "" };
    notes.push(format!(
        "pictures taken from {used} frame PNGs beside the document{shadow}{}",
        if inexact > 0 { format!("; {inexact} pixels mapped to the nearest palette colour") } else { String::new() }
    ));
    Ok(())
}
