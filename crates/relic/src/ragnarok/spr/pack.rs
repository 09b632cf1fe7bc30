//! `relic pack ro-spr x.json`: the document as it is, or the document of `relic convert` with the frame
//! PNGs it names beside it. A frame whose PNG shows what the document's bytes give keeps those bytes (so an
//! unedited conversion packs back byte for byte); an edited palette frame keeps the indices of an indexed
//! PNG in the palette convert drew it with, or is mapped back by colour through that palette (an RGBA PNG,
//! a palette an editor changed); an edited RGBA frame is stored as the PNG has it. The sheet view beside it is never read: when
//! it no longer shows what the frames give, a note says so.

use std::path::Path;

use super::convert::{drawn_frames, greyscale, sheet, SHEET_VIEW};
use super::document::SprDocument;
use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Frame, Pixels};
use crate::error::{Error, Result};
use crate::registry::PackRequest;

/// Writes the file the document at `json_path` describes (see the module notes); `request.quantize` maps a
/// colour the palette lacks to its nearest entry instead of refusing it.
pub fn from_json_at(
    value: serde_json::Value,
    json_path: &Path,
    request: &PackRequest,
    notes: &mut Vec<String>,
) -> Result<Vec<u8>> {
    let doc: SprDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
    let mut spr = doc.to_spr()?;
    let dir = json_path.parent().unwrap_or(Path::new(""));
    // The PNGs show the palette convert drew them with (`drawn_with`: `--palette`, or greyscale for a 1.0
    // sprite), and are mapped back through it.
    let palette = match &doc.drawn_with {
        Some(entries) => <[[u8; 4]; 256]>::try_from(entries.as_slice()).map_err(|_| {
            crate::registry::json_error(FORMAT_ID, "drawn_with", &format!("{} entries, not 256", entries.len()))
        })?,
        None => spr.palette.unwrap_or_else(greyscale),
    };
    let mut quantized = 0usize;
    for (i, row) in doc.palette_frames.iter().enumerate() {
        let Some(name) = &row.file else { continue };
        let Some(png) = frame_png(dir, name, notes)? else { continue };
        let Some(frame) = spr.palette_frames.get_mut(i) else { continue };
        let (w, h) = (png.width, png.height);
        let hint = (w == frame.width && h == frame.height).then_some(frame.indices.as_slice());
        let refusal = |(x, y, what): (usize, usize, String)| {
            Error::Refused(format!(
                "{FORMAT_ID}: {name} (palette frame {i}): pixel ({x}, {y}) {what}{}",
                if request.quantize || what.contains("past the end") {
                    ""
                } else {
                    " (--quantize maps it to the nearest palette colour)"
                }
            ))
        };
        let indices = match png.indices_as_drawn(&palette) {
            // An indexed PNG whose entries are the colours convert drew with: its indices as they are.
            Some(indices) => {
                if hint == Some(indices.as_slice()) {
                    continue;
                }
                indices
            }
            // An RGBA PNG, or an indexed one whose palette an editor changed: mapped by colour.
            None => {
                if matches!(png.pixels, FramePixels::Indexed { .. }) {
                    notes.push(format!(
                        "{}: its palette is not the one convert wrote: its colours are mapped to the sprite's palette",
                        dir.join(name).display()
                    ));
                }
                let rgba = png.rgba().map_err(refusal)?;
                if hint.is_some_and(|old| same_pixels(&draw_indices(old, &palette), &rgba)) {
                    continue;
                }
                map_to_palette(&rgba, usize::from(w), &palette, hint, request.quantize, &mut quantized)
                    .map_err(refusal)?
            }
        };
        *frame = PaletteFrame { width: w, height: h, indices, rle: None };
    }
    if quantized > 0 {
        notes.push(format!("{FORMAT_ID}: --quantize changed {quantized} pixels to their nearest palette colour"));
    }
    for (i, row) in doc.rgba_frames.iter().enumerate() {
        let Some(name) = &row.file else { continue };
        let Some(png) = frame_png(dir, name, notes)? else { continue };
        let Some(frame) = spr.rgba_frames.get_mut(i) else { continue };
        let (w, h) = (png.width, png.height);
        let rgba = png.rgba().map_err(|(x, y, what)| {
            Error::Refused(format!("{FORMAT_ID}: {name} (RGBA frame {i}): pixel ({x}, {y}) {what}"))
        })?;
        if (w, h) == (frame.width, frame.height) && abgr_to_rgba(w, &frame.abgr) == rgba {
            continue;
        }
        *frame = AbgrFrame { width: w, height: h, abgr: rgba_to_abgr(w, &rgba) };
    }
    let bytes = spr.to_bytes()?;
    // The view: compared, never read.
    let view = dir.join(format!("{SHEET_VIEW}.png"));
    if let Some(expected) = sheet(&drawn_frames(&spr, &palette)?)? {
        match crate::paths::read_unlinked(dir, Path::new(&format!("{SHEET_VIEW}.png"))) {
            Ok(Some(found)) => {
                notes.extend(crate::export::view::view_note_of(&view, &found, &expected, "the frame PNGs"))
            }
            Ok(None) => {}
            Err(e) => notes.push(format!("{e}: the sheet view was not compared")),
        }
    }
    Ok(bytes)
}

/// A frame PNG as read: its size, and its indices and palette when it is indexed, else its RGBA pixels.
struct FramePng {
    width: u16,
    height: u16,
    pixels: FramePixels,
}

enum FramePixels {
    /// An indexed PNG (colour type 3): one index a pixel, and its PLTE entries with their tRNS alpha.
    Indexed { indices: Vec<u8>, palette: Vec<[u8; 4]> },
    /// Any other PNG, as RGBA8.
    Rgba(Vec<u8>),
}

impl FramePng {
    /// The PNG's own indices when they show what they show in the sprite: every index used but 0 has the
    /// colour `palette` (what convert drew with) gives it, opaque. Index 0 is transparent in a sprite
    /// whatever the PNG says of it. A PLTE an editor shortened to the entries used still agrees.
    fn indices_as_drawn(&self, palette: &[[u8; 4]; 256]) -> Option<Vec<u8>> {
        let FramePixels::Indexed { indices, palette: plte } = &self.pixels else { return None };
        let mut agrees = [false; 256];
        agrees[0] = true;
        for (k, (entry, drawn)) in plte.iter().zip(palette).enumerate().skip(1) {
            agrees[k] = entry[3] == 255 && entry[..3] == drawn[..3];
        }
        indices.iter().all(|&i| agrees[usize::from(i)]).then(|| indices.clone())
    }

    /// The pixels as RGBA8 (an indexed PNG's through its own palette); a pixel whose index is past the end
    /// of the PNG's palette is an error `(x, y, what)`.
    fn rgba(&self) -> std::result::Result<Vec<u8>, (usize, usize, String)> {
        let (indices, plte) = match &self.pixels {
            FramePixels::Rgba(rgba) => return Ok(rgba.clone()),
            FramePixels::Indexed { indices, palette } => (indices, palette),
        };
        let width = usize::from(self.width).max(1);
        let mut out = Vec::with_capacity(indices.len() * 4);
        for (k, &i) in indices.iter().enumerate() {
            let entry = plte.get(usize::from(i)).ok_or_else(|| {
                (
                    k % width,
                    k / width,
                    format!("is index {i}, past the end of the PNG's palette of {} entries", plte.len()),
                )
            })?;
            out.extend_from_slice(entry);
        }
        Ok(out)
    }
}

/// A frame PNG named by the document; `None` (with a note) when it is not there.
fn frame_png(dir: &Path, name: &str, notes: &mut Vec<String>) -> Result<Option<FramePng>> {
    // The name comes from a document a user may edit: a plain file name beside it, nothing else.
    if name.is_empty() || name.contains(['/', '\\']) || name == "." || name == ".." {
        return Err(Error::Refused(format!("{FORMAT_ID} document: `{name}` is not a file name beside the document")));
    }
    let path = dir.join(name);
    let Some(bytes) = crate::paths::read_unlinked(dir, Path::new(name))? else {
        notes.push(format!("{}: missing; its frame is written from the document", path.display()));
        return Ok(None);
    };
    let image = match crate::export::png::decode_indexed(&bytes).map_err(|e| e.in_file(&path))? {
        Some(indexed) => indexed,
        None => crate::export::png::decode_rgba(&bytes).map_err(|e| e.in_file(&path))?,
    };
    let palette = image.palette.unwrap_or_default();
    let (width, height, pixels) = match image.frames.into_iter().next() {
        Some(Frame { width, height, pixels: Pixels::Rgba8(rgba), .. }) => (width, height, FramePixels::Rgba(rgba)),
        Some(Frame { width, height, pixels: Pixels::Indexed(indices), .. }) => {
            (width, height, FramePixels::Indexed { indices, palette })
        }
        _ => return Err(Error::Refused(format!("{}: no frame", path.display()))),
    };
    let fit = |v: u32| u16::try_from(v).ok();
    let (Some(w), Some(h)) = (fit(width), fit(height)) else {
        return Err(Error::Refused(format!(
            "{}: {width}×{height} is larger than a sprite frame holds (65535 a side)",
            path.display()
        )));
    };
    Ok(Some(FramePng { width: w, height: h, pixels }))
}

/// Equal pixels, any two fully transparent ones being equal whatever their colour.
fn same_pixels(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.chunks_exact(4).zip(b.chunks_exact(4)).all(|(p, q)| p == q || (p[3] == 0 && q[3] == 0))
}

/// RGBA pixels as palette indices: fully transparent → 0; opaque → the index the frame had there when it
/// still shows that colour (`hint`, same size), else the first entry from 1 up of that colour. A colour no
/// entry has, or a partly transparent pixel, is an error `(x, y, what)`, unless `quantize` takes the
/// nearest entry (and a pixel under half opacity as transparent), counted in `changed`.
fn map_to_palette(
    rgba: &[u8],
    width: usize,
    palette: &[[u8; 4]; 256],
    hint: Option<&[u8]>,
    quantize: bool,
    changed: &mut usize,
) -> std::result::Result<Vec<u8>, (usize, usize, String)> {
    // The first index of each colour, looked up by its 24-bit value.
    let mut first: std::collections::HashMap<[u8; 3], u8> = std::collections::HashMap::with_capacity(256);
    for (i, &[r, g, b, _]) in palette.iter().enumerate().skip(1) {
        first.entry([r, g, b]).or_insert(i as u8);
    }
    let mut out = Vec::with_capacity(rgba.len() / 4);
    for (k, px) in rgba.chunks_exact(4).enumerate() {
        let &[r, g, b, a] = px else { continue };
        let at = || (k % width.max(1), k / width.max(1));
        let index = match a {
            0 => 0,
            255 => {
                match hint.and_then(|h| h.get(k)).filter(|&&i| i != 0 && palette[usize::from(i)][..3] == [r, g, b]) {
                    Some(&i) => i,
                    None => match first.get(&[r, g, b]) {
                        Some(&i) => i,
                        None if quantize => {
                            *changed += 1;
                            nearest(palette, [r, g, b])
                        }
                        None => {
                            let (x, y) = at();
                            return Err((
                                x,
                                y,
                                format!("is #{r:02x}{g:02x}{b:02x}, a colour the palette does not have"),
                            ));
                        }
                    },
                }
            }
            _ if quantize => {
                *changed += 1;
                if a < 128 {
                    0
                } else {
                    first.get(&[r, g, b]).copied().unwrap_or_else(|| nearest(palette, [r, g, b]))
                }
            }
            _ => {
                let (x, y) = at();
                return Err((x, y, format!("has alpha {a}: palette frames are opaque or fully transparent")));
            }
        };
        out.push(index);
    }
    Ok(out)
}

/// The entry from 1 up nearest to `rgb` (squared distance; the first of equals).
fn nearest(palette: &[[u8; 4]; 256], rgb: [u8; 3]) -> u8 {
    let d = |c: &[u8; 4]| (0..3).map(|j| (i32::from(c[j]) - i32::from(rgb[j])).pow(2)).sum::<i32>();
    (1..=255u8).min_by_key(|&i| d(&palette[usize::from(i)])).unwrap_or(1)
}
