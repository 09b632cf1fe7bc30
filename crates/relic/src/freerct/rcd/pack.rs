//! `relic pack freerct-rcd x.json`: the lossless document as it is, or the document of `relic convert`
//! with its PNGs in the folder beside it (`x/` for `x.json`). Each pixel block takes its pixels from its
//! PNG: unchanged pixels keep the block's bytes (the document holds them when re-encoding would not give
//! them), changed ones are encoded as FreeRCT's generator does. Blocks that then became identical are
//! written once and references renumbered, as the generator shares them.
//!
//! The document holds digests of the PNGs as convert wrote them (`png_digest`, `recolour_digest`) and the
//! colour ranges a 32PX's recolour pixels were drawn in (`recolour_ranges`), so that pack says exactly how
//! many sprites were edited, and reads a 32PX PNG pixel over a recolour pixel rightly: while the recolour
//! layers are as convert wrote them, a colour other than the one drawn there is paint, and the pixel
//! becomes a plain pixel of that colour (32PX lines mix runs of every kind); while the PNG is as convert
//! wrote it, the layers' edit stands; both edited at such a pixel is refused, naming it.
//!
//! Sheets (`<block>_<magic>_sheet.view.png`) are views: never read as a source. A sheet the folder holds
//! is left alone while its pixels are still those convert drew (the document's `sheet_digest`): after an
//! edit of its sprites it is stale, not edited. One whose pixels changed is compared with the sheet the
//! sprite PNGs give (drawn as convert draws it, in the PNGs' own colours, placed by the document's
//! offsets), and a note warns when they differ: that edit would be lost. A document without digests
//! (written before them) has every sheet compared.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::parallel::prelude::*;
use serde_json::{json, Value};

use super::convert::{
    draw_sheet, palette, pixels_digest, recolour_colour, sheet_digest, sheet_grid, sheet_rows, sprite_palette,
    SheetRows,
};
use super::fields::{reference, visit_refs};
use super::json::{block_header, from_json};
use super::layouts;
use super::pixels::{decode_32bpp, decode_8bpp, encode_32bpp, encode_8bpp, Planes32};
use super::types::*;
use super::write::{body_bytes, write};
use super::FORMAT_ID;
use crate::asset::Image;
use crate::bytes::Base64;
use crate::codec::palette::Palette;
use crate::error::{Error, Result};
use crate::export::view::view_note_of;

pub fn from_json_at(value: &Value, json_path: &Path, notes: &mut Vec<String>) -> Result<Vec<u8>> {
    let uses_pngs =
        value.get("blocks").and_then(Value::as_array).is_some_and(|list| list.iter().any(|b| b.get("png").is_some()));
    if !uses_pngs {
        return write(&from_json(value)?);
    }
    let folder = json_path.with_extension("");
    let mut value = value.clone();
    let palettes = sprite_palettes(&value);
    let fixed = palette();
    let Some(blocks) = value.get_mut("blocks").and_then(Value::as_array_mut) else {
        return Err(Error::refused(FORMAT_ID, "blocks", "missing"));
    };
    let sheets = edited_sheets(blocks, &folder);
    let results: Vec<Result<(Taken, Option<Sprite>)>> = blocks
        .par_iter_mut()
        .enumerate()
        .map(|(i, b)| {
            let pal = palettes.get(&(i + 1)).unwrap_or(&fixed);
            take_png(i + 1, b, &folder, pal, !sheets.is_empty())
        })
        .collect();
    let mut counts = Counts::default();
    let mut sprites: HashMap<usize, Sprite> = HashMap::new();
    for (i, r) in results.into_iter().enumerate() {
        let (taken, sprite) = r?;
        counts.add(taken);
        if let Some(sprite) = sprite {
            sprites.insert(i, sprite);
        }
    }
    notes.push(counts.note(&folder));
    if counts.undigested_recolour > 0 {
        notes.push(format!(
            "warning: {} with recolour layers {} from a document an older relic wrote (it has no \
             `recolour_ranges`): paint over their recolour pixels is not kept; convert the file again to edit them",
            counted(counts.undigested_recolour, "sprite"),
            if counts.undigested_recolour == 1 { "comes" } else { "come" }
        ));
    }
    let rcd = from_json(&value)?;
    for (i, path, bytes) in &sheets {
        if let Some(note) = sheet_view_note(&rcd, *i, path, bytes, &sprites) {
            notes.push(note);
        }
    }
    drop(sprites);
    let rcd = share_identical(rcd, notes)?;
    write(&rcd)
}

/// A sprite PNG's pixels as RGBA (width, height, pixels), for comparing sheets.
type Sprite = (u32, u32, Vec<u8>);

/// The sheets the folder holds that are no longer what convert drew: (block index, path, bytes) of every
/// block whose `sheet` names a file there with other pixels than its `sheet_digest` says (every such file
/// when the document has no digest).
fn edited_sheets(blocks: &[Value], folder: &Path) -> Vec<(usize, PathBuf, Vec<u8>)> {
    blocks
        .par_iter()
        .enumerate()
        .filter_map(|(i, b)| {
            let name = b.get("sheet")?.as_str()?;
            // A sheet reached through a link is not read (nor compared); the bytes kept are the file checked.
            let rel = crate::paths::safe_relative_path(name).ok()?;
            let bytes = crate::paths::read_unlinked(folder, &rel).ok()??;
            let path = folder.join(rel);
            let unedited = b.get("sheet_digest").and_then(Value::as_str).is_some_and(|want| {
                let found = crate::export::png::decode_rgba(&bytes).ok();
                match found.as_ref().and_then(|img| img.frames.first()) {
                    Some(f) => match &f.pixels {
                        crate::asset::Pixels::Rgba8(p) => sheet_digest(f.width, f.height, p) == want,
                        _ => false,
                    },
                    None => false,
                }
            });
            (!unedited).then_some((i, path, bytes))
        })
        .collect()
}

/// The warning for block `i`'s sheet (`bytes`, read from `path`) when it differs from what the sprite PNGs
/// give (see the module doc). `None` when it matches, or when the sprites give no sheet.
fn sheet_view_note(
    rcd: &Rcd<'_>,
    i: usize,
    path: &Path,
    bytes: &[u8],
    sprites: &HashMap<usize, Sprite>,
) -> Option<String> {
    let rows: SheetRows = sheet_rows(rcd, rcd.blocks.get(i)?)?;
    let grid = sheet_grid(&rows, |p| sprites.get(&p).map(|s| (s.0, s.1)), u64::MAX)?;
    let rgba = draw_sheet(&grid, &rows, |p| sprites.get(&p).map(|s| (s.0, s.2.as_slice())));
    let expected = Image::single(grid.width, grid.height, rgba, (0, 0), vec![]);
    view_note_of(path, bytes, &expected, "the sprite PNGs")
}

/// `1 pixel`, `2 pixels`.
fn counted(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// What pack did with one pixel block's PNG.
enum Taken {
    None,
    /// Its pixels are those of the stored bytes the document holds: kept.
    Kept,
    Encoded(Encoded),
}

/// A pixel block encoded from its PNG.
#[derive(Default)]
struct Encoded {
    /// Whether its PNGs hold what convert wrote (their digests say so): then encoding gives the block's bytes.
    /// `None` when the document has no digest to compare with.
    unedited: Option<bool>,
    /// 8PXL: pixels that are not colours of the palette, mapped to the nearest, and those colours.
    off_pixels: usize,
    off_colours: Vec<[u8; 3]>,
    /// 32PX: recolour pixels painted over in the PNG, now plain pixels of the colour painted.
    repainted: usize,
    /// 32PX with recolour layers in a document without `recolour_ranges` (an older relic's).
    undigested_recolour: bool,
}

/// The sums of [`Taken`] over a document's pixel blocks, for the note that says what pack did.
#[derive(Default)]
struct Counts {
    kept: usize,
    unedited: usize,
    edited: usize,
    unknown: usize,
    off_pixels: usize,
    off_colours: std::collections::HashSet<[u8; 3]>,
    repainted: usize,
    undigested_recolour: usize,
}

impl Counts {
    fn add(&mut self, taken: Taken) {
        let Taken::Encoded(e) = taken else {
            if let Taken::Kept = taken {
                self.kept += 1;
            }
            return;
        };
        match e.unedited {
            Some(true) => self.unedited += 1,
            Some(false) => self.edited += 1,
            None => self.unknown += 1,
        }
        self.off_pixels += e.off_pixels;
        self.off_colours.extend(e.off_colours);
        self.repainted += e.repainted;
        self.undigested_recolour += usize::from(e.undigested_recolour);
    }

    /// `pixel blocks from the PNGs in F: 2 edited and encoded anew, 3799 unedited (3799 encoded to their
    /// bytes again, 0 kept as stored); 50 recolour pixels painted over are plain pixels now; …`
    fn note(&self, folder: &Path) -> String {
        let mut parts = vec![format!(
            "{} edited and encoded anew, {} unedited ({} encoded to their bytes again, {} kept as stored)",
            self.edited,
            self.unedited + self.kept,
            self.unedited,
            self.kept
        )];
        if self.unknown > 0 {
            parts.push(format!(
                "{} encoded from PNGs the document has no digest of (an older relic's), edited or not",
                self.unknown
            ));
        }
        if self.repainted > 0 {
            parts.push(format!(
                "{} painted over in the PNGs {} plain {} of the colour painted now",
                counted(self.repainted, "recolour pixel"),
                if self.repainted == 1 { "is a" } else { "are" },
                if self.repainted == 1 { "pixel" } else { "pixels" }
            ));
        }
        if self.off_pixels > 0 {
            parts.push(format!(
                "{} in {} {} not palette colours: the nearest taken",
                counted(self.off_pixels, "pixel"),
                counted(self.off_colours.len(), "colour"),
                if self.off_colours.len() == 1 { "was" } else { "were" }
            ));
        }
        format!("pixel blocks from the PNGs in {}: {}", folder.display(), parts.join("; "))
    }
}

/// The palettes of version 1 sprites (SPRT v1) by the 8PXL block they draw.
fn sprite_palettes(value: &Value) -> HashMap<usize, Palette> {
    let mut out = HashMap::new();
    for b in value.get("blocks").and_then(Value::as_array).into_iter().flatten() {
        if b.get("magic").and_then(Value::as_str) != Some("SPRT") {
            continue;
        }
        let (Some(pixels), Some(pal)) = (b.get("pixels"), b.get("palette").and_then(Value::as_str)) else { continue };
        let Ok(n) = reference(pixels, "") else { continue };
        if let Some(p) = hex::decode(pal).ok().and_then(|p| sprite_palette(&p)) {
            out.entry(n as usize).or_insert(p);
        }
    }
    out
}

fn bad(number: usize, field: &str, m: impl Into<String>) -> Error {
    Error::refused(FORMAT_ID, format!("blocks[{number}].{field}"), m.into())
}

fn read_file(folder: &Path, name: &str, number: usize, field: &str) -> Result<Vec<u8>> {
    let rel = crate::paths::safe_relative_path(name).map_err(|why| bad(number, field, format!("`{name}`: {why}")))?;
    crate::paths::read_unlinked(folder, &rel)?
        .ok_or_else(|| bad(number, field, format!("`{name}`: no such file in {}", folder.display())))
}

/// Replaces a pixel block's `data`, `width` and `height` with its PNG's (see the module doc); with
/// `want_rgba`, also gives the PNG's pixels as RGBA (its own colours), for the sheets.
fn take_png(
    number: usize,
    b: &mut Value,
    folder: &Path,
    pal: &Palette,
    want_rgba: bool,
) -> Result<(Taken, Option<Sprite>)> {
    let Some(png) = b.get("png").and_then(Value::as_str).map(str::to_string) else { return Ok((Taken::None, None)) };
    let (magic, version) = block_header(number, b)?;
    let old = match b.get("data") {
        Some(d) => Some(serde_json::from_value::<Base64>(d.clone()).map_err(|e| bad(number, "data", e.to_string()))?.0),
        None => None,
    };
    let old_size = (b.get("width").and_then(Value::as_u64), b.get("height").and_then(Value::as_u64));
    let bytes = read_file(folder, &png, number, "png")?;
    let size_of = |w: u32, h: u32| -> Result<(u16, u16)> {
        Ok((
            u16::try_from(w).map_err(|_| bad(number, "png", format!("{png} is wider than 65535")))?,
            u16::try_from(h).map_err(|_| bad(number, "png", format!("{png} is higher than 65535")))?,
        ))
    };
    let png_digest = b.get("png_digest").and_then(Value::as_str).map(str::to_string);
    let png_digest = png_digest.as_deref();
    let (w, h, data, encoded, sprite) = match (&magic, version) {
        (b"8PXL", _) => {
            let hint = match (&old, old_size) {
                (Some(d), (Some(ow), Some(oh))) => decode_8bpp(d, ow as u16, oh as u16, 0).ok().map(|p| (ow, oh, p)),
                _ => None,
            };
            let found = indices_of_png(&bytes, pal, hint.as_ref().map(|(_, _, p)| p.as_slice()), want_rgba)?;
            let sprite = found.rgba.map(|p| (found.width, found.height, p));
            let (w, h) = size_of(found.width, found.height)?;
            if let Some((ow, oh, p)) = &hint {
                if (*ow, *oh) == (u64::from(w), u64::from(h)) && *p == found.indices {
                    return Ok((Taken::Kept, sprite));
                }
            }
            let digest = pixels_digest(found.width, found.height, &found.indices, 1);
            let encoded = Encoded {
                unedited: png_digest.map(|d| d == digest),
                off_pixels: found.off_pixels,
                off_colours: found.off_colours,
                ..Default::default()
            };
            (w, h, encode_8bpp(w, h, &found.indices), encoded, sprite)
        }
        (b"32PX", _) => {
            let img = crate::export::png::decode_rgba(&bytes)?;
            let frame = img.frames.first().ok_or_else(|| bad(number, "png", "no frame"))?;
            let crate::asset::Pixels::Rgba8(rgba) = &frame.pixels else { return Err(bad(number, "png", "not RGBA")) };
            let layers = match b.get("recolour_png").and_then(Value::as_str) {
                Some(name) => {
                    let img = crate::export::png::decode_rgba(&read_file(folder, name, number, "recolour_png")?)?;
                    match img.frames.into_iter().next() {
                        Some(f) if (f.width, f.height) == (frame.width, frame.height) => match f.pixels {
                            crate::asset::Pixels::Rgba8(p) => Some(p),
                            _ => None,
                        },
                        _ => return Err(bad(number, "recolour_png", format!("{name} is not the size of {png}"))),
                    }
                }
                None => None,
            };
            let (w, h) = size_of(frame.width, frame.height)?;
            let png_unedited = png_digest.map(|d| d == pixels_digest(frame.width, frame.height, rgba, 4));
            let layers_unedited = match (&layers, b.get("recolour_digest").and_then(Value::as_str)) {
                (Some(l), Some(d)) => Some(d == pixels_digest(frame.width, frame.height, l, 4)),
                (None, _) => Some(true),
                (Some(_), None) => None,
            };
            let ranges = recolour_ranges(b);
            let paint = match (png_unedited, layers_unedited, ranges) {
                (Some(true), _, _) => Paint::Unedited,
                (_, _, None) => Paint::Unknown,
                (_, Some(true), Some(r)) => Paint::BecomesPlain(r),
                (_, _, Some(r)) => Paint::Ambiguous(r),
            };
            let (planes, repainted) = planes_of(rgba, layers.as_deref(), paint, frame.width).map_err(|(n, x, y)| {
                let recolour = b.get("recolour_png").and_then(Value::as_str).unwrap_or("the recolour PNG");
                let which = if n == 1 {
                    format!(
                        "1 pixel of {png}, at ({x}, {y}), is a recolour pixel in {recolour} that {png} shows in \
                         another colour than its recolouring draws"
                    )
                } else {
                    format!(
                        "{n} pixels of {png}, the first at ({x}, {y}), are recolour pixels in {recolour} that {png} \
                         shows in other colours than their recolouring draws"
                    )
                };
                bad(
                    number,
                    "png",
                    format!(
                        "{which}; both files were edited, so relic cannot tell paint from a recolour edit. Paint \
                         {png} with {recolour} as convert wrote it (the pixels painted become plain pixels), or \
                         edit {recolour} alone and leave {png} as it was"
                    ),
                )
            })?;
            let sprite = want_rgba.then(|| (frame.width, frame.height, rgba.clone()));
            if let (Some(d), (Some(ow), Some(oh))) = (&old, old_size) {
                if (ow, oh) == (u64::from(w), u64::from(h)) && decode_32bpp(d, w, h, 0).is_ok_and(|p| p == planes) {
                    return Ok((Taken::Kept, sprite));
                }
            }
            let unedited = match (png_unedited, layers_unedited) {
                (Some(a), Some(b)) => Some(a && b),
                (Some(false), _) | (_, Some(false)) => Some(false),
                _ => None,
            };
            let encoded = Encoded {
                unedited,
                repainted,
                undigested_recolour: layers.is_some() && matches!(paint, Paint::Unknown),
                ..Default::default()
            };
            (w, h, encode_32bpp(w, h, &planes), encoded, sprite)
        }
        _ => {
            return Err(bad(number, "png", format!("only 8PXL and 32PX blocks take a PNG, not {}", magic_text(&magic))))
        }
    };
    b["width"] = json!(w);
    b["height"] = json!(h);
    b["data"] = json!(Base64(data));
    Ok((Taken::Encoded(encoded), sprite))
}

/// An 8PXL's PNG read: its palette indices, how many pixels took a nearest colour, and with `want_rgba`
/// its pixels in the PNG's own colours.
struct Indices {
    width: u32,
    height: u32,
    indices: Vec<u8>,
    /// Pixels whose colour the palette lacks (mapped to the nearest entry), and those colours.
    off_pixels: usize,
    off_colours: Vec<[u8; 3]>,
    rgba: Option<Vec<u8>>,
}

/// A PNG's palette indices: refused without a PNG decoder.
#[cfg(not(feature = "export"))]
fn indices_of_png(_bytes: &[u8], _pal: &Palette, _hint: Option<&[u8]>, _want_rgba: bool) -> Result<Indices> {
    Err(crate::export::needs_export("PNG input"))
}

/// A PNG's palette indices: an 8-bit indexed PNG's own (as convert writes them), else its colours mapped
/// to `pal` (alpha 0 is index 0; a colour several entries share keeps the index `hint` had there).
#[cfg(feature = "export")]
fn indices_of_png(bytes: &[u8], pal: &Palette, hint: Option<&[u8]>, want_rgba: bool) -> Result<Indices> {
    let err = |e: png::DecodingError| Error::Refused(format!("PNG input: {e}"));
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::IDENTITY);
    decoder.set_limits(png::Limits {
        bytes: usize::try_from(crate::limits::current().max_pixels * 8).unwrap_or(usize::MAX),
    });
    let mut reader = decoder.read_info().map_err(err)?;
    let (w, h) = (reader.info().width, reader.info().height);
    crate::limits::check_pixels("PNG input", w, h)?;
    if reader.info().color_type == png::ColorType::Indexed && reader.info().bit_depth == png::BitDepth::Eight {
        let plte = reader.info().palette.as_deref().unwrap_or_default().to_vec();
        let trns = reader.info().trns.as_deref().unwrap_or_default().to_vec();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).map_err(err)?;
        buf.truncate(info.buffer_size());
        let rgba = want_rgba.then(|| {
            buf.iter()
                .flat_map(|&k| {
                    let k = usize::from(k);
                    match plte.get(k * 3..k * 3 + 3) {
                        Some(c) => [c[0], c[1], c[2], trns.get(k).copied().unwrap_or(255)],
                        None => [0; 4],
                    }
                })
                .collect()
        });
        return Ok(Indices { width: w, height: h, indices: buf, off_pixels: 0, off_colours: vec![], rgba });
    }
    let img = crate::export::png::decode_rgba(bytes)?;
    let Some(crate::asset::Pixels::Rgba8(rgba)) = img.frames.first().map(|f| &f.pixels) else {
        return Err(Error::Refused("PNG input: no pixels".into()));
    };
    let mut off_pixels = 0;
    let mut cache: HashMap<[u8; 3], (u8, u32)> = HashMap::new();
    let indices = rgba
        .chunks_exact(4)
        .enumerate()
        .map(|(i, p)| {
            if p[3] == 0 {
                return 0;
            }
            let rgb = [p[0], p[1], p[2]];
            if let Some(&k) = hint
                .and_then(|h| h.get(i))
                .filter(|&&k| k != 0 && pal.colors.get(usize::from(k)).is_some_and(|c| c[..3] == rgb))
            {
                return k;
            }
            let (k, distance) = *cache.entry(rgb).or_insert_with(|| nearest(pal, rgb));
            if distance > 0 {
                off_pixels += 1;
            }
            k
        })
        .collect();
    let off_colours = cache.iter().filter(|(_, (_, d))| *d > 0).map(|(rgb, _)| *rgb).collect();
    Ok(Indices { width: w, height: h, indices, off_pixels, off_colours, rgba: want_rgba.then(|| rgba.clone()) })
}

/// The palette entry (1–255) nearest to `rgb`, and its squared distance.
#[cfg(feature = "export")]
fn nearest(pal: &Palette, rgb: [u8; 3]) -> (u8, u32) {
    let mut best = (1u8, u32::MAX);
    for (k, c) in pal.colors.iter().enumerate().skip(1).take(255) {
        let d: u32 = (0..3).map(|j| (i32::from(c[j]) - i32::from(rgb[j])).pow(2) as u32).sum();
        if d < best.1 {
            best = (k as u8, d);
        }
    }
    best
}

/// The colour ranges convert drew a 32PX's recolour pixels in (`recolour_ranges`, by layer entry).
fn recolour_ranges(b: &Value) -> Option<[usize; 4]> {
    let list = b.get("recolour_ranges")?.as_array()?;
    let mut out = [0usize; 4];
    for (slot, v) in out.iter_mut().zip(list) {
        *slot = usize::try_from(v.as_u64()?).ok()?;
    }
    (list.len() == 4).then_some(out)
}

/// How a 32PX's PNG pixel over a recolour pixel (of its recolour layer image) is read when its colour is
/// not the one that recolouring draws (convert draws each in its layer's range, `recolour_ranges`).
#[derive(Clone, Copy)]
enum Paint {
    /// The PNG is as convert wrote it: what differs is an edit of the recolour layers; the pixel stays
    /// a recolour pixel of the layer image.
    Unedited,
    /// The layer image is as convert wrote it, the PNG was edited: the pixel was painted over and becomes
    /// a plain pixel of the colour painted (32PX runs of every kind may follow each other anywhere).
    BecomesPlain([usize; 4]),
    /// Both were edited: paint and a recolour edit cannot be told apart; such a pixel is refused.
    Ambiguous([usize; 4]),
    /// The document does not say the ranges (an older relic's): recolour pixels stay as the layers say.
    Unknown,
}

/// 32PX planes from a PNG's RGBA and its recolour layer image (red = layer, green = intensity, opaque
/// where the pixel is recoloured): the form `decode_32bpp` gives, and how many recolour pixels became
/// plain ones (see [`Paint`]). `Err((n, x, y))`: the pixels [`Paint::Ambiguous`] refuses, and the first.
fn planes_of(
    rgba: &[u8],
    layers: Option<&[u8]>,
    paint: Paint,
    width: u32,
) -> std::result::Result<(Planes32, usize), (usize, usize, usize)> {
    let n = rgba.len() / 4;
    let mut p = Planes32 { rgba: vec![0; n * 4], layer: vec![0; n], intensity: vec![0; n], recolour: vec![false; n] };
    let (mut repainted, mut refused, mut refused_count) = (0usize, None, 0usize);
    let width = (width as usize).max(1);
    for (i, px) in rgba.chunks_exact(4).enumerate() {
        match layers.and_then(|l| l.get(i * 4..i * 4 + 4)).filter(|l| l[3] == 255) {
            Some(l) => {
                // The PNG's colour over a recolour pixel tells paint from the gradient colour convert drew.
                let painted = px[3] != 0
                    && match paint {
                        Paint::BecomesPlain(r) | Paint::Ambiguous(r) => px[..3] != recolour_colour(r, l[0], l[1]),
                        Paint::Unedited | Paint::Unknown => false,
                    };
                if painted && matches!(paint, Paint::Ambiguous(_)) {
                    refused.get_or_insert((i % width, i / width));
                    refused_count += 1;
                }
                if painted {
                    repainted += 1;
                    p.rgba[i * 4..i * 4 + 4].copy_from_slice(px);
                } else {
                    p.recolour[i] = true;
                    p.layer[i] = l[0];
                    p.intensity[i] = l[1];
                    p.rgba[i * 4 + 3] = px[3];
                }
            }
            None if px[3] == 0 => {}
            None => p.rgba[i * 4..i * 4 + 4].copy_from_slice(px),
        }
    }
    match refused {
        Some((x, y)) => Err((refused_count, x, y)),
        None => Ok((p, repainted)),
    }
}

/// Writes each block once, as FreeRCT's generator does: a block identical to an earlier one (after its
/// own references were renumbered) is dropped and references to it point at the earlier one. A raw
/// block after a dropped one cannot be renumbered (its references are unknown), so then nothing is
/// shared and the notes say so.
fn share_identical(rcd: Rcd<'static>, notes: &mut Vec<String>) -> Result<Rcd<'static>> {
    let mut renumber: Vec<u32> = Vec::with_capacity(rcd.blocks.len() + 1);
    renumber.push(0);
    let mut seen: HashMap<([u8; 4], u32, Vec<u8>), u32> = HashMap::new();
    let mut kept: Vec<Block<'static>> = Vec::with_capacity(rcd.blocks.len());
    let mut dropped = 0usize;
    let original = rcd.clone();
    for mut block in rcd.blocks {
        let mut forward = false;
        if let (Body::Fields(m), Some(layout)) = (&mut block.body, layouts::layout(&block.magic, block.version)) {
            visit_refs(layout, m, true, &mut |_, _, v| {
                if let Ok(n) = reference(v, "") {
                    match renumber.get(n as usize) {
                        Some(&to) if to != n => *v = json!(to),
                        Some(_) => {}
                        None => forward = true,
                    }
                }
            });
        }
        if dropped > 0 && forward {
            notes.push(format!(
                "{dropped} blocks are identical to earlier ones but were kept: a {} block refers forward",
                block.magic_str()
            ));
            return Ok(original);
        }
        if dropped > 0 && matches!(block.body, Body::Raw { .. }) {
            notes.push(format!(
                "{dropped} blocks are identical to earlier ones but were kept: a {} block relic cannot renumber follows",
                block.magic_str()
            ));
            return Ok(original);
        }
        let bytes = body_bytes(&block.magic, block.version, &block.body)?;
        let key = (block.magic, block.version, bytes);
        match seen.get(&key) {
            Some(&n) => {
                renumber.push(n);
                dropped += 1;
            }
            None => {
                kept.push(block);
                let n = kept.len() as u32;
                seen.insert(key, n);
                renumber.push(n);
            }
        }
    }
    if dropped > 0 {
        notes.push(format!("{dropped} blocks identical to earlier ones are shared, as FreeRCT's generator does"));
    }
    Ok(Rcd { version: original.version, blocks: kept })
}
