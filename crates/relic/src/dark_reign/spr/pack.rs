//! `relic pack dr-spr x.json`: the lossless document as it is, or the document of `relic convert` with the
//! frame PNGs beside it, their colours mapped back to palette indices through the palette it names, and
//! the hotspot table rebuilt from the hotspots its frames list. The atlas view beside it is never read:
//! when it no longer shows what the frames give, a note says so.

use std::collections::HashMap;
use std::path::Path;

use super::convert::{atlas_of, frames, hotspot_range, UnshownHotspot, ATLAS_VIEW};
use super::paint::{decode_png, Paint};
use super::types::{HotspotRecord, PictureLayout, SprDocument};
use super::write::{write_document, write_document_relaxed};
use super::FORMAT_ID;
use crate::bytes::Base64;
use crate::error::{Error, Result};

/// Writes the file a JSON document at `json_path` describes. The document of `relic convert` (it lists
/// `frames`) takes each picture from the PNG of the first frame that shows it, found beside the document;
/// a picture no frame shows, or whose PNG is missing, keeps the `pixels` the document holds. Its hotspot
/// table is made from the hotspots of `frames` and `unshown_hotspots`; a document of the older shape (the
/// table in `hotspots`, copies in `frames`) still packs from its table, with a note where a frame's copy
/// differs. Every choice made is said in `notes`, and so is an atlas view that differs from the frames.
pub fn from_json_at(mut value: serde_json::Value, json_path: &Path, notes: &mut Vec<String>) -> Result<Vec<u8>> {
    if value.get("frames").is_none() {
        let doc: SprDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
        return write_document(&doc);
    }
    let paint = match value.get("palette") {
        Some(p) => Paint::from_json(FORMAT_ID, p)?,
        None if value.get("magic").and_then(|m| m.as_str()) == Some("SSPR") => Paint::Shadow,
        None => return Err(Error::refused(FORMAT_ID, "palette", "the document lists frames but no palette")),
    };
    let map = value.as_object_mut().ok_or_else(|| Error::refused(FORMAT_ID, "document", "not an object"))?;
    let rows = match map.remove("frames") {
        Some(serde_json::Value::Array(rows)) => rows,
        _ => return Err(Error::refused(FORMAT_ID, "frames", "not a list")),
    };
    let unshown = match map.remove("unshown_hotspots") {
        None | Some(serde_json::Value::Null) => vec![],
        Some(v) => serde_json::from_value::<Vec<UnshownHotspot>>(v)
            .map_err(|e| Error::refused(FORMAT_ID, "unshown_hotspots", e.to_string()))?,
    };
    // The older shape kept the table in `hotspots`; the current one has its records in `frames` only.
    let older = map.contains_key("hotspots");
    if !older {
        map.insert("hotspots".into(), serde_json::json!([]));
    }
    let mut doc: SprDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
    let edits = frame_edits(&rows)?;
    if older {
        if !unshown.is_empty() {
            return Err(Error::refused(
                FORMAT_ID,
                "unshown_hotspots",
                "the document has the table `hotspots` too: keep one of them",
            ));
        }
        notes.push(
            "an older document shape: hotspots taken from its table `hotspots` (convert again to edit them in \
             `frames`)"
                .into(),
        );
        compare_older(&doc, &edits, notes)?;
    } else {
        doc.hotspots = hotspot_table(&doc, &edits, &unshown, notes)?;
    }
    let dir = json_path.parent().unwrap_or(Path::new(""));
    take_pngs(&mut doc, &paint, dir, notes)?;
    let bytes = write_document_relaxed(&doc, notes)?;
    let list = frames(&doc, crate::limits::current().max_entry_size)?;
    if let Some(atlas) = atlas_of(&doc, &paint, &list)? {
        let view = dir.join(format!("{ATLAS_VIEW}.png"));
        match png_beside(&view) {
            Ok(Some(bytes)) => notes.extend(crate::export::view::view_note_of(&view, &bytes, &atlas, "the frame PNGs")),
            Ok(None) => {}
            Err(e) => notes.push(format!("{e}: the atlas view was not compared")),
        }
    }
    Ok(bytes)
}

/// What `frames[k]` of the document says about its hotspots.
struct FrameEdit {
    name: String,
    /// `hotspots`: the records, and each one's `kind` when given.
    hotspots: Option<Vec<(HotspotRecord, Option<String>)>>,
    /// `hotspots_of`: the earlier frame that lists the same records.
    hotspots_of: Option<String>,
}

fn frame_edits(rows: &[serde_json::Value]) -> Result<Vec<FrameEdit>> {
    let mut out = Vec::with_capacity(rows.len());
    for (k, row) in rows.iter().enumerate() {
        let bad = |field: String, m: &str| Error::refused(FORMAT_ID, field, m.to_string());
        let name =
            row.get("name").and_then(|n| n.as_str()).ok_or_else(|| bad(format!("frames[{k}].name"), "missing"))?;
        let hotspots = match row.get("hotspots") {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::Array(list)) => Some(
                list.iter()
                    .enumerate()
                    .map(|(j, h)| {
                        let byte = |key: &str| {
                            h.get(key).and_then(|v| v.as_u64()).and_then(|v| u8::try_from(v).ok()).ok_or_else(|| {
                                bad(format!("frames[{k}].hotspots[{j}].{key}"), "not a number from 0 to 255")
                            })
                        };
                        let record = HotspotRecord { x: byte("x")?, y: byte("y")?, flag: byte("flag")? };
                        Ok((record, h.get("kind").and_then(|v| v.as_str()).map(str::to_string)))
                    })
                    .collect::<Result<Vec<_>>>()?,
            ),
            Some(_) => return Err(bad(format!("frames[{k}].hotspots"), "not a list")),
        };
        let hotspots_of = match row.get("hotspots_of") {
            None | Some(serde_json::Value::Null) => None,
            Some(v) => {
                Some(v.as_str().ok_or_else(|| bad(format!("frames[{k}].hotspots_of"), "not a frame name"))?.into())
            }
        };
        out.push(FrameEdit { name: name.into(), hotspots, hotspots_of });
    }
    Ok(out)
}

/// The frames of the document's tables, each with its edit (matched by name); a listed name that is no
/// frame, or a name listed twice, is refused.
fn matched<'e>(doc: &SprDocument, edits: &'e [FrameEdit]) -> Result<Vec<(super::FrameRef, Option<&'e FrameEdit>)>> {
    let list = frames(doc, crate::limits::current().max_entry_size)?;
    let mut by_name: HashMap<&str, &FrameEdit> = HashMap::with_capacity(edits.len());
    for e in edits {
        if by_name.insert(e.name.as_str(), e).is_some() {
            return Err(Error::refused(FORMAT_ID, "frames", format!("`{}` is listed twice", e.name)));
        }
    }
    for e in edits {
        if !list.iter().any(|f| f.name == e.name) {
            return Err(Error::refused(
                FORMAT_ID,
                "frames",
                format!("`{}` is no frame of the sprite's sections and rotations", e.name),
            ));
        }
    }
    Ok(list
        .into_iter()
        .map(|f| {
            let e = by_name.get(f.name.as_str()).copied();
            (f, e)
        })
        .collect())
}

/// The hotspot table the frames' hotspots and `unshown` give (see [`super::convert`]'s frame rows): each
/// frame's records at its picture's `hotoff`; a frame naming another in `hotspots_of` must show the same
/// records; where two frames list one record differently (their ranges overlap without being the same),
/// the first frame's is kept, with a note. Every record must come from somewhere.
fn hotspot_table(
    doc: &SprDocument,
    edits: &[FrameEdit],
    unshown: &[UnshownHotspot],
    notes: &mut Vec<String>,
) -> Result<Vec<HotspotRecord>> {
    let frames = matched(doc, edits)?;
    let bad = |field: String, m: String| Error::refused(FORMAT_ID, field, m);
    if let Some((f, n)) = frames.iter().find_map(|(f, e)| Some((f, hotspot_range(doc, f)?.1)).filter(|_| e.is_none())) {
        return Err(bad("frames".into(), format!("`{}` is missing: its {n} hotspots are listed nowhere else", f.name)));
    }
    let has_table = PictureLayout::has_hotspot_table(doc.layout.as_ref());
    // Each record is given at least once, so the table holds no more records than are given.
    let given: usize = edits.iter().map(|e| e.hotspots.as_ref().map_or(0, Vec::len)).sum::<usize>() + unshown.len();
    let mut table: Vec<Option<(HotspotRecord, usize)>> = vec![None; given];
    let range_of: HashMap<&str, Option<(i64, usize)>> =
        frames.iter().map(|(f, _)| (f.name.as_str(), hotspot_range(doc, f))).collect();
    for (k, (f, edit)) in frames.iter().enumerate() {
        let field = |name: &str| format!("frames[`{}`].{name}", f.name);
        let listed = edit.and_then(|e| e.hotspots.as_ref());
        let Some((start, n)) = hotspot_range(doc, f) else {
            if listed.is_some_and(|l| !l.is_empty()) || edit.is_some_and(|e| e.hotspots_of.is_some()) {
                let why = if has_table {
                    format!("section {} has no hotspots per frame (numhotspots 0)", f.section)
                } else {
                    "the sprite has no hotspot table (layout.hotspot_table is false)".to_string()
                };
                return Err(bad(field("hotspots"), format!("given, but {why}")));
            }
            continue;
        };
        let Some(edit) = edit else { continue };
        match (listed, &edit.hotspots_of) {
            (Some(_), Some(_)) => {
                return Err(bad(field("hotspots_of"), "given with `hotspots`: keep one of them".into()));
            }
            (None, None) => return Err(bad(field("hotspots"), format!("missing (section {} has {n})", f.section))),
            (None, Some(other)) => {
                if range_of.get(other.as_str()).copied().flatten() != Some((start, n)) {
                    return Err(bad(
                        field("hotspots_of"),
                        format!("`{other}` is no frame showing the same {n} hotspot records as this one"),
                    ));
                }
            }
            (Some(list), None) => {
                if list.len() != n {
                    return Err(bad(
                        field("hotspots"),
                        format!(
                            "{} hotspots: section {} has {n} per frame (sections[{}].hotspots)",
                            list.len(),
                            f.section,
                            f.section
                        ),
                    ));
                }
                for (j, (record, kind)) in list.iter().enumerate() {
                    if kind.as_deref().is_some_and(|kind| kind != record.kind()) {
                        notes.push(format!(
                            "frame {} hotspot {j}: `kind` {} does not match flag {} ({}); the flag was used (`kind` \
                             only describes it)",
                            f.name,
                            kind.as_deref().unwrap_or_default(),
                            record.flag,
                            record.kind()
                        ));
                    }
                    let at = usize::try_from(start).ok().and_then(|s| s.checked_add(j)).filter(|&i| i < given);
                    let slot = at.and_then(|i| table.get_mut(i)).ok_or_else(|| {
                        bad(
                            format!("pictures[{}].hotspot_index", f.picture),
                            format!("{start}: past the {given} hotspot records the document gives"),
                        )
                    })?;
                    match slot {
                        None => *slot = Some((*record, k)),
                        Some((first, by)) if first != record => {
                            let by = frames.get(*by).map_or("?", |(g, _)| g.name.as_str());
                            notes.push(format!(
                                "frames {by} and {} both show hotspot record {}, listed differently: {by}'s kept",
                                f.name,
                                start + j as i64
                            ));
                        }
                        Some(_) => {}
                    }
                }
            }
        }
    }
    for (i, u) in unshown.iter().enumerate() {
        let slot = table.get_mut(u.index).ok_or_else(|| {
            bad(format!("unshown_hotspots[{i}].index"), format!("{}: past the {given} records given", u.index))
        })?;
        if let Some((_, by)) = slot {
            let by = frames.get(*by).map_or("?", |(g, _)| g.name.as_str());
            return Err(bad(format!("unshown_hotspots[{i}]"), format!("record {} is shown by frame {by}", u.index)));
        }
        *slot = Some((HotspotRecord { x: u.x, y: u.y, flag: u.flag }, usize::MAX));
    }
    let len = table.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
    table.truncate(len);
    table
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            r.map(|(r, _)| r).ok_or_else(|| {
                bad("unshown_hotspots".into(), format!("hotspot record {i} is shown by no frame and not listed here"))
            })
        })
        .collect()
}

/// An older document's frames list copies of the table's records: a note for each frame whose copy
/// differs (it was edited, and is not what is packed).
fn compare_older(doc: &SprDocument, edits: &[FrameEdit], notes: &mut Vec<String>) -> Result<()> {
    for (f, edit) in matched(doc, edits)? {
        let Some(listed) = edit.and_then(|e| e.hotspots.as_ref()) else { continue };
        let stored = super::convert::frame_hotspots(doc, &f)?;
        if listed.iter().map(|(r, _)| *r).ne(stored.iter().copied()) {
            notes.push(format!(
                "frame {}: its hotspots differ from the table `hotspots`, which this older document shape packs; \
                 the frame's were not used",
                f.name
            ));
        }
    }
    Ok(())
}

/// The bytes of a PNG the document's folder should hold, when a file is there (`None` when nothing, or a
/// folder, is). A symbolic link, at the file or its folder, is refused, and the file read is the one checked
/// ([`crate::paths::read_unlinked`]).
pub fn png_beside(path: &Path) -> Result<Option<Vec<u8>>> {
    let (dir, name) = (path.parent().unwrap_or(Path::new("")), path.file_name().unwrap_or_default());
    crate::paths::read_unlinked(dir, Path::new(name))
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
        let found = png_beside(&path)?;
        let Some(slot) = taken.get_mut(f.picture) else { continue };
        let picture = doc.pictures.get(f.picture);
        let hint = picture.and_then(|p| p.pixels.as_ref()).map(|p| p.0.as_slice());
        if let Some((first, pixels)) = slot {
            // Another frame of the same picture: its PNG can only agree.
            if let Some(bytes) = &found {
                let (again, _) = paint.from_rgba(&decode_png(&path, bytes, w, h)?, Some(pixels));
                if again != *pixels {
                    notes.push(format!(
                        "{}.png differs from {first}.png, which shows the same picture ({}); {first}.png was used",
                        f.name, f.picture
                    ));
                }
            }
            continue;
        }
        let Some(bytes) = found else {
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
        };
        let (pixels, off) = paint.from_rgba(&decode_png(&path, &bytes, w, h)?, hint);
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
