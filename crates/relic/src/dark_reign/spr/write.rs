//! SPR writer: the document back to bytes, byte for byte for a document read from a file; pictures are
//! run-length encoded from their pixels (keeping stored counts where they still fit, see [`rle`]).

use super::rle;
use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};
use crate::layout::Canvas;
use crate::writer::Writer;

fn bad(field: impl std::fmt::Display, why: impl std::fmt::Display) -> Error {
    Error::refused(FORMAT_ID, field, why)
}

/// A count as the int32 the file stores.
fn int32(n: usize, field: &str) -> Result<i32> {
    i32::try_from(n).map_err(|_| bad(field, format!("{n} does not fit an int32")))
}

/// Writes a document; a stored layout (`layout`) must still hold the pictures.
pub fn write_document(doc: &SprDocument) -> Result<Vec<u8>> {
    let pictures = encode_pictures(doc)?;
    let (offsets, bits) = match doc.layout.as_ref().and_then(PictureLayout::placement) {
        Some(placement) => place(placement, doc.layout.as_ref().map_or(&[], |l| &l.gaps), &pictures)?,
        None => packed(&pictures)?,
    };
    assemble(doc, &offsets, &bits)
}

/// Writes a document as [`write_document`] does, except that pictures which no longer fit the stored
/// layout (edited pixels that encode longer) are laid out afresh, one after the other, with a note; the
/// stored gaps then go.
pub fn write_document_relaxed(doc: &SprDocument, notes: &mut Vec<String>) -> Result<Vec<u8>> {
    let pictures = encode_pictures(doc)?;
    let (offsets, bits) = match doc.layout.as_ref().and_then(PictureLayout::placement) {
        Some(placement) => match place(placement, doc.layout.as_ref().map_or(&[], |l| &l.gaps), &pictures) {
            Ok(placed) => placed,
            Err(e) => {
                notes.push(format!("the pictures no longer fit the stored layout ({e}): laid out one after the other"));
                packed(&pictures)?
            }
        },
        None => packed(&pictures)?,
    };
    assemble(doc, &offsets, &bits)
}

/// Encodes one picture of the document (its stored counts kept where they fit).
pub fn encode_picture(doc: &SprDocument, i: usize) -> Result<Vec<u8>> {
    let field = |name: &str| format!("pictures[{i}].{name}");
    let picture = doc.pictures.get(i).ok_or_else(|| bad("pictures", format!("no picture {i}")))?;
    let (w, h) = size(doc)?;
    let pixels = picture.pixels.as_ref().ok_or_else(|| {
        bad(
            field("pixels"),
            "missing: the document of `relic convert` takes it from the frame PNGs beside it (pack that file)",
        )
    })?;
    if pixels.0.len() as u64 != w as u64 * h as u64 {
        return Err(bad(field("pixels"), format!("{} bytes for a {w}×{h} picture", pixels.0.len())));
    }
    let shadow = doc.magic.is_shadow();
    match &picture.runs {
        None => Ok(rle::encode(&pixels.0, w, shadow)),
        Some(runs) => rle::encode_with(&pixels.0, w, h, shadow, &runs.0).map_err(|m| bad(field("runs"), m)),
    }
}

/// The picture size, checked.
fn size(doc: &SprDocument) -> Result<(usize, usize)> {
    let side = |v: i32, field: &str| usize::try_from(v).map_err(|_| bad(field, format!("{v} is negative")));
    Ok((side(doc.width, "width")?, side(doc.height, "height")?))
}

fn encode_pictures(doc: &SprDocument) -> Result<Vec<Vec<u8>>> {
    (0..doc.pictures.len()).map(|i| encode_picture(doc, i)).collect()
}

/// Pictures one after the other from offset 0, in table order (the layout relic writes).
fn packed(pictures: &[Vec<u8>]) -> Result<(Vec<u32>, Vec<u8>)> {
    let mut offsets = Vec::with_capacity(pictures.len());
    let mut bits = Vec::new();
    for (i, p) in pictures.iter().enumerate() {
        offsets.push(int32(bits.len(), &format!("pictures[{i}] offset"))? as u32);
        bits.extend_from_slice(p);
    }
    int32(bits.len(), "end marker")?;
    Ok((offsets, bits))
}

/// Pictures and gaps at their stored offsets (`placement`: offsets, end marker) in pixel data of the
/// stored size.
fn place(placement: (&[u32], u32), gaps: &[crate::layout::Gap], pictures: &[Vec<u8>]) -> Result<(Vec<u32>, Vec<u8>)> {
    let (offsets, end) = placement;
    if offsets.len() != pictures.len() {
        return Err(bad("layout.offsets", format!("{} offsets for {} pictures", offsets.len(), pictures.len())));
    }
    int32(end as usize, "layout.end")?;
    // The pixel data is allocated whole: no larger than an entry relic decodes (--max-entry-size).
    let max = crate::limits::current().max_entry_size.min(i32::MAX as u64);
    let mut canvas = Canvas::new(FORMAT_ID, u64::from(end), max).map_err(|e| e.within("layout.end"))?;
    for (i, (p, &offset)) in pictures.iter().zip(offsets).enumerate() {
        canvas.place(u64::from(offset), p, || format!("layout.offsets[{i}]"))?;
    }
    canvas.place_gaps(gaps).map_err(|e| e.within("layout"))?;
    Ok((offsets.to_vec(), canvas.into_bytes().map_err(document_field)?))
}

/// An error of the pixel data's canvas named after the document's field: its size is `layout.end`, its
/// gaps `layout.gaps`.
fn document_field(mut e: Error) -> Error {
    if let Some(field) = e.field_mut() {
        if field == "file_size" {
            *field = "layout.end".into();
        } else if field.starts_with("gaps[") {
            *field = format!("layout.{field}");
        }
    }
    e
}

/// The file: header, tables, pixel data, hotspot table, trailing bytes.
fn assemble(doc: &SprDocument, offsets: &[u32], bits: &[u8]) -> Result<Vec<u8>> {
    let (w, h) = size(doc)?;
    let nanims = usize::try_from(doc.anims).map_err(|_| bad("anims", format!("{} is negative", doc.anims)))?;
    let nrots =
        usize::try_from(doc.rotations).map_err(|_| bad("rotations", format!("{} is negative", doc.rotations)))?;
    let frames = nanims.checked_mul(nrots).ok_or_else(|| bad("rotations", "anims × rotations overflows"))?;
    if doc.picture_of_frames.len() != frames {
        return Err(bad(
            "picture_of_frames",
            format!("{} entries for {nanims} anims × {nrots} rotations", doc.picture_of_frames.len()),
        ));
    }
    if doc.anim_sections.len() != nanims {
        return Err(bad("anim_sections", format!("{} entries for {nanims} anims", doc.anim_sections.len())));
    }
    let mut out = Writer::with_capacity(FORMAT_ID, 64 + 4 * frames + 16 * doc.sections.len() + bits.len());
    out.bytes(&doc.magic.bytes());
    out.i32(doc.version);
    out.i32(doc.anims);
    out.i32(doc.rotations);
    out.count_i32("width", w)?;
    out.count_i32("height", h)?;
    out.count_i32("pictures", doc.pictures.len())?;
    out.count_i32("sections", doc.sections.len())?;
    doc.picture_of_frames.iter().for_each(|&v| out.i32(v));
    for s in &doc.sections {
        [s.first_anim, s.last_anim, s.rate, s.hotspots].into_iter().for_each(|v| out.i32(v));
    }
    doc.anim_sections.iter().for_each(|&v| out.i32(v));
    for (i, (p, &offset)) in doc.pictures.iter().zip(offsets).enumerate() {
        out.count_i32(&format!("pictures[{i}] offset"), offset as usize)?;
        out.i32(p.hotspot_index);
    }
    out.count_i32("end marker", bits.len())?;
    out.bytes(bits);
    if !PictureLayout::has_hotspot_table(doc.layout.as_ref()) {
        // The spec's layout: the file ends after the pixel data (docs/formats/dark-reign.md#spr-no-hotspots).
        if !doc.hotspots.is_empty() || doc.trailing.is_some() {
            return Err(bad(
                "layout.hotspot_table",
                "false (the file ends after the pixel data), yet the document has hotspot records or trailing bytes",
            ));
        }
        return Ok(out.into_bytes());
    }
    out.count_i32("hotspots", doc.hotspots.len())?;
    for hs in &doc.hotspots {
        out.bytes(&[hs.x, hs.y, hs.flag]);
    }
    if let Some(t) = &doc.trailing {
        out.bytes(&t.0);
    }
    Ok(out.into_bytes())
}
