//! SPR to the common model: one PNG per frame (`<section>_<rotation>_<frame>`), the atlas and a JSON
//! document; the frame list both `convert` and `pack` work from; the `relic info` summary.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::paint::{Paint, SHADOW};
use super::read::AT_NANIMS;
use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Asset, Document, Hotspot, Image, NamedAsset};
use crate::codec::palette::Palette;
use crate::error::{Error, Result};
use crate::registry::ConvertOptions;

/// One frame of the sprite: a picture shown for anim `anim` of section `section` at rotation `rotation`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameRef {
    /// `<section>_<rotation>_<frame>`, the name of the frame's PNG.
    pub name: String,
    pub section: usize,
    pub rotation: usize,
    /// The animation index (`firstanim ..= lastanim`).
    pub anim: usize,
    /// The frame's place in its section, `anim − firstanim`.
    pub frame: usize,
    /// Index into the picture table.
    pub picture: usize,
}

/// Each section's (first anim, anim count), checked (anims within `nanims`, hotspot counts not negative),
/// and the number of frames of all sections (anims × rotations).
pub fn section_ranges(doc: &SprDocument) -> Result<(Vec<(usize, usize)>, u64)> {
    let at = Offsets::of(doc);
    let nanims = usize::try_from(doc.anims).unwrap_or(0);
    let nrots = usize::try_from(doc.rotations).unwrap_or(0);
    let mut ranges = Vec::with_capacity(doc.sections.len());
    let mut total = 0u64;
    for (s, section) in doc.sections.iter().enumerate() {
        let bad = |name: &str, k: u64, m: String| {
            Error::invalid(FORMAT_ID, format!("sections[{s}].{name}"), at.sections + 16 * s as u64 + k, m)
        };
        let first = usize::try_from(section.first_anim)
            .map_err(|_| bad("firstanim", 0, format!("{} is negative", section.first_anim)))?;
        // An empty range (lastanim < firstanim) shows no frames.
        let count = usize::try_from(section.last_anim).ok().filter(|&l| l >= first).map_or(0, |l| l - first + 1);
        if count > 0 && first + count > nanims {
            return Err(bad("lastanim", 4, format!("{} is past the {nanims} anims (nanims)", section.last_anim)));
        }
        if section.hotspots < 0 {
            return Err(bad("numhotspots", 12, format!("{} is negative", section.hotspots)));
        }
        total = total.saturating_add((count as u64).saturating_mul(nrots as u64));
        ranges.push((first, count));
    }
    Ok((ranges, total))
}

/// The frames in atlas order (spec "Texture Atlas Layout": for each section, for r in rotations, for a in
/// firstanim..=lastanim), each checked against the tables: anims within `nanims`, pictures within `npics`.
/// `budget` bounds frames × pixels per frame (a hostile file can list the same anims in many sections).
pub fn frames(doc: &SprDocument, budget: u64) -> Result<Vec<FrameRef>> {
    let at = Offsets::of(doc);
    let nrots = usize::try_from(doc.rotations).unwrap_or(0);
    let per_frame = (doc.width.max(0) as u64).saturating_mul(doc.height.max(0) as u64).max(1);
    let (ranges, total) = section_ranges(doc)?;
    if total.saturating_mul(per_frame) > budget {
        return Err(Error::limit(
            FORMAT_ID,
            "sections",
            at.sections,
            format!("{total} frames of {per_frame} pixels are more than --max-expansion allows for this file"),
        ));
    }
    let mut out = Vec::with_capacity(total as usize);
    for (s, &(first, count)) in ranges.iter().enumerate() {
        for r in 0..nrots {
            for frame in 0..count {
                let anim = first + frame;
                let k = anim * nrots + r;
                let field = format!("picnr[{k}]");
                let v = *doc.picture_of_frames.get(k).ok_or_else(|| {
                    Error::invalid(FORMAT_ID, &field, AT_NANIMS, "the anim-index table is shorter than nanims × nrots")
                })?;
                let picture = usize::try_from(v).ok().filter(|&p| p < doc.pictures.len()).ok_or_else(|| {
                    Error::invalid(
                        FORMAT_ID,
                        &field,
                        HEADER_SIZE + 4 * k as u64,
                        format!("{v} is not one of the {} pictures (npics)", doc.pictures.len()),
                    )
                })?;
                out.push(FrameRef { name: format!("{s}_{r}_{frame}"), section: s, rotation: r, anim, frame, picture });
            }
        }
    }
    Ok(out)
}

/// Where a frame's hotspot records lie in the table: `(hotoff, numhotspots)` of its picture and section;
/// `None` when it has none (its section's `numhotspots` is 0, or the file has no hotspot table). Not
/// checked against the table (see [`frame_hotspots`]).
pub fn hotspot_range(doc: &SprDocument, f: &FrameRef) -> Option<(i64, usize)> {
    let n = doc.sections.get(f.section).map_or(0, |s| usize::try_from(s.hotspots).unwrap_or(0));
    if n == 0 || !PictureLayout::has_hotspot_table(doc.layout.as_ref()) {
        return None;
    }
    Some((doc.pictures.get(f.picture).map_or(-1, |p| i64::from(p.hotspot_index)), n))
}

/// The hotspot records of a frame: `numhotspots` of its section, from the picture's `hotoff` on; none when
/// the file has no hotspot table (docs/formats/dark-reign.md#spr-no-hotspots: a sprite without hotspots).
pub fn frame_hotspots(doc: &SprDocument, f: &FrameRef) -> Result<Vec<HotspotRecord>> {
    let Some((hotoff, n)) = hotspot_range(doc, f) else { return Ok(vec![]) };
    usize::try_from(hotoff)
        .ok()
        .and_then(|start| doc.hotspots.get(start..start.checked_add(n)?))
        .map(<[HotspotRecord]>::to_vec)
        .ok_or_else(|| {
            Error::invalid(
                FORMAT_ID,
                format!("picoffs[{}].hotoff", f.picture),
                Offsets::of(doc).picoffs + 8 * f.picture as u64 + 4,
                format!("{hotoff} + {n} hotspots of section {} pass the {} records", f.section, doc.hotspots.len()),
            )
        })
}

/// The direction rotation `r` faces, in degrees counter-clockwise from east (docs/formats/dark-reign.md#spr-rate: rotation 0
/// faces east, rotations go counter-clockwise; evenly spaced is relic's reading).
pub fn degrees(r: usize, nrots: usize) -> f64 {
    if nrots == 0 {
        0.0
    } else {
        r as f64 * 360.0 / nrots as f64
    }
}

/// A section's rate in frames per game cycle (16.16 fixed point, docs/formats/dark-reign.md#spr-rate).
pub fn frames_per_cycle(rate: i32) -> f64 {
    f64::from(rate) / 65536.0
}

/// The name of the atlas: a view (`atlas.view.png`), which `pack` never reads; it compares one found beside
/// the document with the atlas the frames give and warns when they differ.
pub const ATLAS_VIEW: &str = "atlas.view";

/// What `relic convert` makes of an SPR file drawn with `palette`: a PNG per frame, named
/// `<section>_<rotation>_<frame>` (the frame's hotspots in [`Frame::hotspots`], its offset the negated
/// centre hotspot); the atlas view [`ATLAS_VIEW`]; and the JSON document (unnamed: `<name>/<name>.json`)
/// from which `relic pack dr-spr` writes the file back with the frame PNGs. Public so that archives (FTG)
/// convert the sprites they hold with their own palette.
///
/// [`Frame::hotspots`]: crate::asset::Frame::hotspots
pub fn to_assets(data: &[u8], palette: &Palette, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let doc = super::parse(data)?;
    let budget = crate::limits::expansion_budget(data.len() as u64);
    assets(&doc, palette, opts, budget)
}

/// The atlas size (spec "Texture Atlas Layout": one row, frame after frame, each `width` × `height`), or
/// why none is drawn: no pixels (`Ok(None)`), or over `--max-pixels` (`Err(note)`).
fn atlas_size(doc: &SprDocument, frames: usize) -> std::result::Result<Option<(usize, usize)>, String> {
    let (w, h) = (doc.width.max(0) as usize, doc.height.max(0) as usize);
    let atlas_width = frames.saturating_mul(w);
    let max = crate::limits::current().max_pixels;
    if (atlas_width as u64).saturating_mul(h as u64) > max || u32::try_from(atlas_width).is_err() {
        return Err(format!("{atlas_width}×{h} atlas is over the limit of {max} pixels (--max-pixels): not written"));
    }
    Ok((atlas_width > 0 && h > 0).then_some((atlas_width, h)))
}

/// Each picture's RGBA drawn with `paint`, for the pictures `list` shows (`None` for the others, and for
/// all when frames have no pixels).
fn pictures_rgba(doc: &SprDocument, paint: &Paint, list: &[FrameRef]) -> Result<Vec<Option<Vec<u8>>>> {
    let (w, h) = (doc.width.max(0) as usize, doc.height.max(0) as usize);
    let mut out: Vec<Option<Vec<u8>>> = vec![None; doc.pictures.len()];
    for f in list {
        let picture = doc.pictures.get(f.picture).ok_or_else(|| Error::invalid(FORMAT_ID, "picnr", 0, "no picture"))?;
        let pixels = picture.pixels.as_ref().map(|p| p.0.as_slice()).unwrap_or_default();
        if pixels.len() != w * h {
            return Err(Error::invalid(FORMAT_ID, format!("pictures[{}].pixels", f.picture), 0, "wrong size"));
        }
        if w * h > 0 {
            if let Some(slot) = out.get_mut(f.picture).filter(|s| s.is_none()) {
                *slot = Some(paint.to_rgba(pixels));
            }
        }
    }
    Ok(out)
}

/// The atlas image of `size` (from [`atlas_size`]): frame k at x = k · width, y = 0.
fn atlas_image(doc: &SprDocument, list: &[FrameRef], rgba: &[Option<Vec<u8>>], size: (usize, usize)) -> Image {
    let (atlas_width, h) = size;
    let w = doc.width.max(0) as usize;
    let mut atlas = vec![0u8; atlas_width * h * 4];
    for (k, f) in list.iter().enumerate() {
        let Some(Some(px)) = rgba.get(f.picture) else { continue };
        for (y, row) in px.chunks_exact(w.max(1) * 4).enumerate() {
            let start = (y * atlas_width + k * w) * 4;
            if let Some(dst) = atlas.get_mut(start..start + w * 4) {
                dst.copy_from_slice(row);
            }
        }
    }
    Image::single(atlas_width as u32, h as u32, atlas, (0, 0), vec![])
}

/// The atlas of a document whose pictures all hold their pixels, as `convert` draws it; `None` when it
/// has no pixels or is over `--max-pixels`. `pack` compares the atlas view with it.
pub fn atlas_of(doc: &SprDocument, paint: &Paint, list: &[FrameRef]) -> Result<Option<Image>> {
    let Ok(Some(size)) = atlas_size(doc, list.len()) else { return Ok(None) };
    Ok(Some(atlas_image(doc, list, &pictures_rgba(doc, paint, list)?, size)))
}

/// [`to_assets`] of a parsed document.
pub fn assets(doc: &SprDocument, palette: &Palette, opts: &ConvertOptions, budget: u64) -> Result<Vec<NamedAsset>> {
    let paint = if doc.magic.is_shadow() { Paint::Shadow } else { Paint::palette(palette) };
    let list = frames(doc, budget)?;
    let (w, h) = (doc.width.max(0) as usize, doc.height.max(0) as usize);
    let atlas = atlas_size(doc, list.len()).unwrap_or_else(|note| {
        opts.note(note);
        None
    });
    // What the frames and the atlas hold (RGBA, 4 bytes a pixel) is charged to the budget before any is
    // drawn: frames showing one picture each get their own image.
    let drawn = list.len().saturating_add(usize::from(atlas.is_some()));
    let bytes = (drawn as u64).saturating_mul((w as u64).saturating_mul(h as u64)).saturating_mul(4);
    if bytes > budget {
        return Err(Error::limit(
            FORMAT_ID,
            "sections",
            Offsets::of(doc).sections,
            format!(
                "{} frames of {w}×{h} pixels{} are {bytes} bytes of RGBA, more than --max-expansion allows for this \
                 file ({budget})",
                list.len(),
                if atlas.is_some() { " and their atlas" } else { "" }
            ),
        ));
    }
    let mut rgba_of = pictures_rgba(doc, &paint, &list)?;
    let atlas_image = atlas.map(|size| atlas_image(doc, &list, &rgba_of, size));
    // The last frame showing a picture takes its RGBA; the others copy it.
    let mut last_use = vec![usize::MAX; rgba_of.len()];
    for (k, f) in list.iter().enumerate() {
        if let Some(slot) = last_use.get_mut(f.picture) {
            *slot = k;
        }
    }
    let shown: Vec<bool> = rgba_of.iter().map(Option::is_some).collect();
    let mut out = Vec::with_capacity(list.len() + 2);
    let mut rows = Vec::with_capacity(list.len());
    let mut listed: HashMap<(i64, usize), usize> = HashMap::new();
    let mut covered = vec![false; doc.hotspots.len()];
    for (k, f) in list.iter().enumerate() {
        let records = frame_hotspots(doc, f)?;
        let range = hotspot_range(doc, f);
        let hotspots_of = range.and_then(|r| listed.get(&r)).and_then(|&j| list.get(j)).map(|g| g.name.clone());
        if let Some((start, n)) = range {
            listed.entry((start, n)).or_insert(k);
            let start = usize::try_from(start).unwrap_or(0);
            covered.iter_mut().skip(start).take(n).for_each(|c| *c = true);
        }
        rows.push(FrameRow::new(doc, f, k * w, &records, hotspots_of));
        // A frame of no pixels has no PNG (nor can a PNG have no pixels); its picture stays in the document.
        let last = last_use.get(f.picture) == Some(&k);
        let Some(slot) = rgba_of.get_mut(f.picture) else { continue };
        let Some(rgba) = (if last { slot.take() } else { slot.clone() }) else { continue };
        let centre = records.iter().find(|r| r.flag == 0).map_or((0, 0), |r| (-i32::from(r.x), -i32::from(r.y)));
        let hotspots = records.iter().map(|r| Hotspot { x: r.x.into(), y: r.y.into(), flag: r.flag.into() }).collect();
        out.push(NamedAsset {
            name: Some(f.name.clone()),
            asset: Asset::Image(Image::single(w as u32, h as u32, rgba, centre, hotspots)),
        });
    }
    if let Some(image) = atlas_image {
        out.push(NamedAsset { name: Some(ATLAS_VIEW.into()), asset: Asset::Image(image) });
    }
    let unshown: Vec<UnshownHotspot> = doc
        .hotspots
        .iter()
        .zip(&covered)
        .enumerate()
        .filter(|(_, (_, &c))| !c)
        .map(|(index, (r, _))| UnshownHotspot { index, x: r.x, y: r.y, flag: r.flag })
        .collect();
    let value = convert_document(doc, &paint, &shown, rows, unshown, atlas)?;
    out.push(NamedAsset { name: None, asset: Asset::Document(Document { value, tables: vec![] }) });
    Ok(out)
}

/// A frame as the document of `relic convert` lists it. Its hotspots are the one place the document
/// holds them (`pack` reads them there): listed under the first frame, in atlas order, that shows those
/// records; a later frame showing the very same records (the same picture, or another picture with the
/// same `hotoff`, in a section of as many hotspots) names that frame in `hotspots_of` instead.
#[derive(Debug, Serialize)]
struct FrameRow {
    name: String,
    section: usize,
    rotation: usize,
    degrees: f64,
    anim: usize,
    frame: usize,
    picture: usize,
    atlas: Rect,
    #[serde(skip_serializing_if = "Option::is_none")]
    hotspots: Option<Vec<HotspotRow>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hotspots_of: Option<String>,
}

#[derive(Debug, Serialize)]
struct Rect {
    x: usize,
    y: usize,
    width: usize,
    height: usize,
}

/// A hotspot of a frame: x, y and flag are the record; `kind` says what the flag means (read only).
#[derive(Debug, Serialize)]
struct HotspotRow {
    x: u8,
    y: u8,
    flag: u8,
    kind: &'static str,
}

/// A record of the hotspot table that no frame shows, kept by its index so the file is written back whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnshownHotspot {
    pub index: usize,
    pub x: u8,
    pub y: u8,
    pub flag: u8,
}

impl FrameRow {
    fn new(
        doc: &SprDocument,
        f: &FrameRef,
        x: usize,
        records: &[HotspotRecord],
        hotspots_of: Option<String>,
    ) -> FrameRow {
        let hotspots = hotspots_of
            .is_none()
            .then(|| records.iter().map(|r| HotspotRow { x: r.x, y: r.y, flag: r.flag, kind: r.kind() }).collect());
        FrameRow {
            name: f.name.clone(),
            section: f.section,
            rotation: f.rotation,
            degrees: degrees(f.rotation, doc.rotations.max(0) as usize),
            anim: f.anim,
            frame: f.frame,
            picture: f.picture,
            atlas: Rect { x, y: 0, width: doc.width.max(0) as usize, height: doc.height.max(0) as usize },
            hotspots,
            hotspots_of,
        }
    }
}

/// What `pack` reads for the hotspots (see `FrameRow`); the file's table itself is not in the document
/// of `relic convert`, so that every record has one place: a frame, or `unshown_hotspots`.
pub const ABOUT: &str = "relic pack dr-spr <this file> writes the sprite from this file and the frame PNGs beside it: \
    each picture from the PNG of the first frame showing it, colours mapped back through `palette` (`pixels` is \
    kept only where a PNG cannot give the indices back). Hotspots are edited in `frames`: each frame lists its \
    own (x, y from the frame's top-left; flag 0 = centre of placement, 1 = turret, 2 = projectile, 3+ = \
    explosion; `kind` only says so), except a frame showing the same records as an earlier one, which names it \
    in `hotspots_of`; records no frame shows are in `unshown_hotspots`. atlas.view.png is a view: pack does not \
    read it (it warns when it differs from the frames); `atlas`, `degrees`, `frames_per_cycle` and \
    `rotation_degrees` are information, also not read.";

/// The document of `relic convert`: the lossless document without the pixels the frame PNGs give back
/// exactly and without the hotspot table (its records are in `frames`, and in `unshown_hotspots` when no
/// frame shows them), plus what a reader wants (ignored by `pack`): each section's rate in frames per
/// cycle, each rotation's direction, the palette the PNGs were drawn with (`pack` maps colours back through
/// it), the atlas size and every frame with its atlas rectangle.
fn convert_document(
    doc: &SprDocument,
    paint: &Paint,
    shown: &[bool],
    rows: Vec<FrameRow>,
    unshown: Vec<UnshownHotspot>,
    atlas: Option<(usize, usize)>,
) -> Result<serde_json::Value> {
    // The pictures copied one at a time, without the pixels the PNGs give back (not the whole document).
    let pictures = doc
        .pictures
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let exact = p.pixels.as_ref().is_some_and(|px| paint.reproducible(&px.0));
            let dropped = exact && shown.get(i).copied().unwrap_or(false);
            Picture {
                hotspot_index: p.hotspot_index,
                pixels: if dropped { None } else { p.pixels.clone() },
                runs: p.runs.clone(),
            }
        })
        .collect();
    let lean = SprDocument {
        format: doc.format.clone(),
        magic: doc.magic,
        version: doc.version,
        anims: doc.anims,
        rotations: doc.rotations,
        width: doc.width,
        height: doc.height,
        picture_of_frames: doc.picture_of_frames.clone(),
        sections: doc.sections.clone(),
        anim_sections: doc.anim_sections.clone(),
        pictures,
        layout: doc.layout.clone(),
        hotspots: vec![],
        trailing: doc.trailing.clone(),
    };
    let mut value = crate::registry::document_json(FORMAT_ID, &lean)?;
    if let Some(map) = value.as_object_mut() {
        map.remove("hotspots");
    }
    // Only the rotations the anim index table holds are listed: a header can claim 2^28 rotations with no
    // anims (a fuzz find: 2 GiB for this list alone).
    let nrots = (doc.rotations.max(0) as usize).min(doc.picture_of_frames.len());
    if let Some(sections) = value.get_mut("sections").and_then(|s| s.as_array_mut()) {
        for (v, s) in sections.iter_mut().zip(&doc.sections) {
            v["frames_per_cycle"] = json!(frames_per_cycle(s.rate));
        }
    }
    value["rotation_degrees"] = json!((0..nrots).map(|r| degrees(r, nrots)).collect::<Vec<_>>());
    match paint.to_json() {
        Some(colours) => value["palette"] = json!(colours),
        None => value["shadow_colour"] = json!(format!("#{}", hex::encode(SHADOW))),
    }
    value["atlas"] = match atlas {
        Some((width, height)) => json!({ "width": width, "height": height, "view": format!("{ATLAS_VIEW}.png") }),
        None => serde_json::Value::Null,
    };
    value["frames"] = json!(rows);
    if !unshown.is_empty() {
        value["unshown_hotspots"] = json!(unshown);
    }
    value["about"] = json!(ABOUT);
    Ok(value)
}

/// Header summary for `relic info`.
pub fn info(doc: &SprDocument) -> serde_json::Value {
    let frames = section_ranges(doc).map(|(_, total)| total).ok();
    json!({
        "format": FORMAT_ID,
        "magic": doc.magic,
        "version": format!("0x{:04X}", doc.version),
        "shadow": doc.magic.is_shadow(),
        "width": doc.width,
        "height": doc.height,
        "anims": doc.anims,
        "rotations": doc.rotations,
        "pictures": doc.pictures.len(),
        "frames": frames,
        "sections": doc.sections.iter().map(|s| json!({
            "first_anim": s.first_anim,
            "last_anim": s.last_anim,
            "rate": s.rate,
            "frames_per_cycle": frames_per_cycle(s.rate),
            "hotspots": s.hotspots,
        })).collect::<Vec<_>>(),
        "hotspot_records": doc.hotspots.len(),
        "hotspot_table": PictureLayout::has_hotspot_table(doc.layout.as_ref()),
        "layout": if doc.layout.as_ref().and_then(PictureLayout::placement).is_some() { "stored offsets" } else { "packed" },
    })
}
