//! `relic pack drakan-srsc <folder>/<document>.json`: the file back from what `relic convert` wrote, with
//! every edit a user made to a source (see [`super::outputs`]) and a warning for each view they edited.
//!
//! Each source is compared with what the document as `convert` wrote it gives (pixels for PNGs, samples for
//! WAVs, heights for heightmaps, bytes for music, fields for `records.json`): what looks the same leaves the
//! record's stored bytes untouched, so an unedited folder packs back byte for byte; what differs is encoded
//! again in the record's stored format. Order: `strings.json` (by the caller), `records.json`, then the
//! PNGs, WAVs, music files and heightmaps (an edited PNG is encoded with the fields `records.json` gave its
//! record). A source that is missing keeps its record as stored (and is named in a note); one relic cannot
//! encode, or one it cannot read, stops the pack with an error naming the file.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::assets::{record_item, record_label};
use super::convert::group_paths;
use super::types::{Srsc, SrscDocument};
use super::write::{bodies_of, write_document};
use super::{outputs, parse, FORMAT_ID, STRINGS_FILE};
use crate::asset::{Frame, Pixels};
use crate::drakan::records::level::{self, LayerGrid};
use crate::drakan::records::strings::{self, StringBody};
use crate::drakan::records::texture::{self, ChannelOrder, Texture};
use crate::drakan::records::{self, palette, sound, Decoded};
use crate::error::{Error, Result};

/// Files in a converted folder that are never documents.
const NOT_DOCUMENTS: [&str; 3] = [STRINGS_FILE, outputs::RECORDS_FILE, super::convert::DIRECTORY_FILE];

/// The document a strings file (`given`) packs with: the one JSON file in its folder whose `format` is
/// `drakan-srsc`, whatever the folder or the document are called now. Refused when there is none or more
/// than one.
pub fn find_document(dir: &Path, given: &Path) -> Result<PathBuf> {
    let shown = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let found: Vec<PathBuf> = documents_in(shown)?.into_iter().filter(|p| !same_file(p, given)).collect();
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(Error::Refused(format!(
            "{}: a strings file packs with the Drakan document `relic convert` wrote beside it (a JSON file \
             whose \"format\" is \"{FORMAT_ID}\"), and {} holds none",
            given.display(),
            shown.display()
        ))),
        several => Err(Error::Refused(format!(
            "{}: {} holds {} Drakan documents ({}): pack the one you mean (it takes {STRINGS_FILE} from beside it)",
            given.display(),
            shown.display(),
            several.len(),
            several.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        ))),
    }
}

/// The Drakan documents in `dir` (not below it): JSON files whose `format` is `drakan-srsc`, sorted.
pub fn documents_in(dir: &Path) -> Result<Vec<PathBuf>> {
    #[derive(serde::Deserialize)]
    struct Head {
        #[serde(default)]
        format: Option<Value>,
    }
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_ascii_lowercase();
        let is_json = name.ends_with(".json") && path.is_file();
        if !is_json || NOT_DOCUMENTS.contains(&name.as_str()) {
            continue;
        }
        let Ok(bytes) = crate::source::read(&path) else { continue };
        let head: std::result::Result<Head, _> = serde_json::from_slice(&bytes);
        if head.ok().and_then(|h| h.format).and_then(|f| f.as_str().map(str::to_string)).as_deref() == Some(FORMAT_ID) {
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

fn same_file(a: &Path, b: &Path) -> bool {
    a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// What packing found in the folder: the record bodies as they are becoming, and which changed.
struct Pack<'a> {
    dir: &'a Path,
    /// The file as the document gave it before any edit (what `convert` converted).
    srsc: Srsc<'a>,
    groups: HashMap<u16, String>,
    bodies: Vec<Vec<u8>>,
    changed: BTreeSet<usize>,
    order: ChannelOrder,
    notes: &'a mut Vec<String>,
    /// Sources not found, by name.
    missing: Vec<String>,
    /// Whether any source was found (the folder is one `convert` wrote).
    found: bool,
}

/// Takes every source in `dir` into `doc` (its strings already applied; `original` is the document as it
/// was read). Returns whether the file must be packed anew (an edited body that other records shared).
pub fn apply(doc: &mut SrscDocument, original: &SrscDocument, dir: &Path, notes: &mut Vec<String>) -> Result<bool> {
    let bytes = write_document(original)?;
    let srsc = parse(&bytes)?;
    let mut pack = Pack {
        dir,
        groups: group_paths(&srsc),
        srsc,
        bodies: bodies_of(doc)?,
        changed: BTreeSet::new(),
        order: original.texture_order.unwrap_or_default(),
        notes,
        missing: Vec::new(),
        found: false,
    };
    pack.records_json()?;
    pack.textures()?;
    pack.sounds()?;
    pack.music()?;
    pack.heightmaps()?;
    // Sources missing from a folder that has others (a document written on its own, `convert --to json`,
    // has none, and packs from itself alone).
    if pack.found && !pack.missing.is_empty() {
        let n = pack.missing.len();
        let shown: Vec<&str> = pack.missing.iter().take(5).map(String::as_str).collect();
        let more = if n > shown.len() { format!(" and {} more", n - shown.len()) } else { String::new() };
        pack.notes.push(format!("{n} source(s) not found, their records kept as stored: {}{more}", shown.join(", ")));
    }
    let mut repack = false;
    for &i in &pack.changed {
        let shared =
            doc.records.get(i).is_some_and(|r| r.same_as.is_some()) || doc.records.iter().any(|r| r.same_as == Some(i));
        repack |= shared;
    }
    if repack {
        // Records that shared an edited body (or the body an edited record shared) get their own bytes.
        for (r, body) in doc.records.iter_mut().zip(&pack.bodies) {
            if r.same_as.is_some() {
                r.same_as = None;
                r.data = Some(crate::bytes::Base64(body.clone()));
            }
        }
    }
    for &i in &pack.changed {
        if let (Some(r), Some(body)) = (doc.records.get_mut(i), pack.bodies.get(i)) {
            r.text = None;
            r.same_as = None;
            r.data = Some(crate::bytes::Base64(body.clone()));
        }
    }
    Ok(repack)
}

impl Pack<'_> {
    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Reads a source that is there (and notes that the folder has sources).
    fn read(&mut self, path: &Path) -> Result<Vec<u8>> {
        self.found = true;
        crate::source::read(path)
    }

    fn set(&mut self, i: usize, body: Vec<u8>) {
        if let Some(slot) = self.bodies.get_mut(i) {
            if *slot != body {
                *slot = body;
                self.changed.insert(i);
            }
        }
    }

    fn body(&self, i: usize) -> &[u8] {
        self.bodies.get(i).map_or(&[], Vec::as_slice)
    }

    // -----------------------------------------------------------------------------------------------------
    // records.json

    /// Edited `decoded` fields of `records.json` are encoded into their records. Texture and sound fields
    /// that describe the pixels or samples come from the PNG or WAV and are refused here; other keys
    /// (type, id, group, a string's text) are not packed from `records.json` and are named in a warning.
    fn records_json(&mut self) -> Result<()> {
        let path = self.path(outputs::RECORDS_FILE);
        if !path.is_file() {
            return Ok(());
        }
        let text = self.read(&path)?;
        let value: Value = serde_json::from_slice(&text)
            .map_err(|e| Error::Refused(format!("{}: not JSON ({e}); fix it or convert again", path.display())))?;
        let items = value.as_array().ok_or_else(|| {
            Error::Refused(format!("{}: not the list of records `relic convert` writes", path.display()))
        })?;
        let n = self.srsc.entries.len();
        for (i, e) in self.srsc.entries.iter().enumerate() {
            let item = items.get(i);
            let kind = item.and_then(|v| v.get("type")).and_then(Value::as_str);
            let id = item.and_then(|v| v.get("id")).and_then(Value::as_u64);
            if kind != Some(format!("0x{:04X}", e.record_type).as_str()) || id != Some(u64::from(e.id)) {
                self.notes.push(format!(
                    "warning: {} no longer lists the document's {n} records in their order (item {i} is not record \
                     0x{:04X} id {}): none of its edits were packed back (records are added, removed or renumbered \
                     in the document)",
                    path.display(),
                    e.record_type,
                    e.id
                ));
                return Ok(());
            }
        }
        let mut packed = Vec::new();
        let mut ignored = Vec::new();
        for i in 0..n {
            let Some(item) = items.get(i) else { continue };
            let Some(e) = self.srsc.entries.get(i).copied() else { continue };
            let unlisted_body = item.get("same_body_as").is_some()
                && super::assets::SHARED_FIELDS.iter().all(|k| item.get(*k).is_none());
            let (expected, decoded) = if unlisted_body {
                // Nothing of its body listed to compare: what every item says, without decoding the record
                // again (40 copies of a 20,000-joint character took 34 s).
                let group = self.groups.get(&e.group).cloned().unwrap_or_default();
                (
                    serde_json::json!({"type_name": crate::drakan::records::type_name(e.record_type), "group": group}),
                    None,
                )
            } else {
                record_item(&self.srsc, &self.groups, i)
            };
            let label = record_label(&e, self.srsc.body(i));
            // An item with `same_body_as` lists no `decoded` or `body` (the item it names has them): what it
            // leaves out is no edit.
            let shared = item.get("same_body_as").is_some();
            let unlisted = |k: &str| shared && super::assets::SHARED_FIELDS.contains(&k) && item.get(k).is_none();
            let keys: Vec<&str> = ["type_name", "group", "body"]
                .into_iter()
                .filter(|k| !unlisted(k))
                .filter(|k| item.get(*k).unwrap_or(&Value::Null) != expected.get(*k).unwrap_or(&Value::Null))
                .collect();
            if !keys.is_empty() {
                ignored.push(format!("{label}: {}", keys.join(", ")));
            }
            let edited = item.get("decoded").unwrap_or(&Value::Null);
            if unlisted("decoded") || edited == expected.get("decoded").unwrap_or(&Value::Null) {
                continue;
            }
            if decoded.is_none() || edited.is_null() {
                ignored.push(format!("{label}: decoded"));
                continue;
            }
            let body = self.edited_body(i, edited).map_err(|err| {
                Error::Refused(format!("{}: {label}: `decoded` cannot be packed back: {err}", path.display()))
            })?;
            if body.as_slice() != self.body(i) {
                self.set(i, body);
                packed.push(format!("0x{:04X} id {}", e.record_type, e.id));
            }
        }
        if !packed.is_empty() {
            self.notes.push(format!(
                "{}: {} record(s) packed back: {}",
                path.display(),
                packed.len(),
                packed.join(", ")
            ));
        }
        if !ignored.is_empty() {
            self.notes.push(format!(
                "warning: {}: edits relic does not pack back from it (only `decoded` fields are; strings come from \
                 {STRINGS_FILE}, ids and groups from the document) were left out: {}",
                path.display(),
                ignored.join("; ")
            ));
        }
        Ok(())
    }

    /// The body `decoded` (as `records.json` holds it) encodes to, for record `i`.
    fn edited_body(&self, i: usize, edited: &Value) -> std::result::Result<Vec<u8>, String> {
        let e = self.srsc.entries.get(i).ok_or("no such record")?;
        let current = records::decode(e.record_type, self.body(i), 0)
            .map_err(|err| err.to_string())?
            .ok_or("the record has no decoded form")?;
        let mut edited = edited.clone();
        // Pixels and samples are not in records.json (their PNG and WAV are): put them back.
        let bulk = |value: &mut Value, kind: &str, data: Value, alpha: Option<Value>| {
            if let Some(fields) = value.get_mut(kind).and_then(Value::as_object_mut) {
                fields.remove("data_bytes");
                fields.remove("alpha_map_bytes");
                fields.insert("data".into(), data);
                if let Some(alpha) = alpha {
                    fields.insert("alpha_map".into(), alpha);
                }
            }
        };
        let json = |b: &crate::bytes::Base64| serde_json::to_value(b).unwrap_or(Value::Null);
        match &current {
            Decoded::Texture(t) => bulk(&mut edited, "texture", json(&t.data), t.alpha_map.as_ref().map(json)),
            Decoded::Sound(s) => bulk(&mut edited, "sound", json(&s.data), None),
            _ => {}
        }
        let new: Decoded = serde_json::from_value(edited).map_err(|err| err.to_string())?;
        if std::mem::discriminant(&new) != std::mem::discriminant(&current) {
            return Err("it names another kind of record".into());
        }
        match (&new, &current) {
            (Decoded::Texture(a), Decoded::Texture(b)) => {
                let fixed = [
                    ("width", a.width == b.width),
                    ("height", a.height == b.height),
                    ("pitch", a.pitch == b.pitch),
                    ("bits_per_pixel", a.bits_per_pixel == b.bits_per_pixel),
                    ("compression_level", a.compression_level == b.compression_level),
                    ("compressed_size", a.compressed_size == b.compressed_size),
                    ("flags 0x01 (alpha_map)", a.flags.has(1) == b.flags.has(1)),
                ];
                if let Some((field, _)) = fixed.iter().find(|(_, same)| !same) {
                    return Err(format!(
                        "`{field}` describes the pixels, which come from the texture's PNG: edit the PNG (a PNG of \
                         another size changes width, height and pitch)"
                    ));
                }
            }
            (Decoded::Sound(a), Decoded::Sound(b)) => {
                let fixed = [
                    ("channels", a.channels == b.channels),
                    ("bits", a.bits == b.bits),
                    ("decompressed_size", a.decompressed_size == b.decompressed_size),
                    ("compression_level", a.compression_level == b.compression_level),
                ];
                if let Some((field, _)) = fixed.iter().find(|(_, same)| !same) {
                    return Err(format!("`{field}` describes the samples, which come from the sound's WAV"));
                }
            }
            _ => {}
        }
        records::encode_edited(&new)
    }

    // -----------------------------------------------------------------------------------------------------
    // Textures

    /// The `.txd`'s palette (its first 0x0030 record) in `bodies`, or as the original file has it.
    fn palette(&self, current: bool) -> Option<Vec<[u8; 4]>> {
        let i = self.srsc.find_first(0x0030)?;
        let body = if current { self.body(i) } else { self.srsc.body(i) };
        palette::parse(body, 0).ok().map(|p| p.colors)
    }

    fn textures(&mut self) -> Result<()> {
        let mut decoded: Vec<(u16, Texture)> = Vec::new();
        let mut index: HashMap<u16, usize> = HashMap::new();
        for (i, e) in self.srsc.entries.iter().enumerate() {
            if e.record_type != 0x0040 {
                continue;
            }
            match texture::parse(self.srsc.body(i), self.srsc.body_offset(i)) {
                Ok(t) => {
                    decoded.push((e.id, t));
                    index.insert(e.id, i);
                }
                Err(err) => {
                    // `convert` wrote no PNG for it; one there now cannot be packed.
                    let name = format!("{}.png", outputs::texture(e.id));
                    if self.path(&name).is_file() {
                        return Err(Error::Refused(format!(
                            "{}: texture {} cannot be packed: its record does not decode ({err})",
                            self.path(&name).display(),
                            e.id
                        )));
                    }
                }
            }
        }
        let by_id: HashMap<u16, &Texture> = decoded.iter().map(|(id, t)| (*id, t)).collect();
        let refs: Vec<(u16, &Texture)> = decoded.iter().map(|(id, t)| (*id, t)).collect();
        let original_palette = self.palette(false);
        let mut re_encoded = Vec::new();
        // Records over one body (issue 23): a still texture's PNG found unchanged, by its record's body
        // (offset, size). Another record of that body whose PNG has those very bytes is unchanged too, and
        // neither is decoded again (64 records over one 8192² body are compared once).
        let mut unchanged_pngs: HashMap<(u32, u32), Vec<u8>> = HashMap::new();
        for group in texture::animation_groups(&refs) {
            let Some(&first) = group.ids.first() else { continue };
            let animated = group.ids.len() > 1;
            let body_of_still = match group.ids.as_slice() {
                [id] => index.get(id).and_then(|&i| self.srsc.entries.get(i)).map(|e| (e.offset, e.size)),
                _ => None,
            };
            if let Some(seen) = body_of_still.and_then(|key| unchanged_pngs.get(&key)) {
                let path = self.path(&format!("{}.png", outputs::texture(first)));
                if path.is_file() && self.read(&path)? == *seen {
                    continue;
                }
            }
            // What `convert` drew of each frame (it wrote PNGs only when every frame decoded).
            let befores: Vec<std::result::Result<Frame, String>> = group
                .ids
                .iter()
                .map(|id| {
                    let t = by_id.get(id).ok_or_else(|| "no record".to_string())?;
                    let img =
                        texture::to_image(t, original_palette.as_deref(), self.order).map_err(|e| e.to_string())?;
                    img.frames.into_iter().next().ok_or_else(|| "no frame".to_string())
                })
                .collect();
            let drawn = befores.iter().all(std::result::Result::is_ok);
            // Each frame's PNG, read (or missing), and a still's bytes.
            let mut frames = Vec::new();
            let mut still_png = None;
            for (k, (id, before)) in group.ids.iter().zip(befores).enumerate() {
                let name = if animated { outputs::frame(first, k) } else { outputs::texture(first) } + ".png";
                let path = self.path(&name);
                if !path.is_file() {
                    if drawn {
                        self.missing.push(name);
                    }
                    continue;
                }
                let before = before.map_err(|err| {
                    Error::Refused(format!(
                        "{}: texture {id} cannot be packed: relic cannot read its record ({err})",
                        path.display()
                    ))
                })?;
                let bytes = self.read(&path)?;
                let image = crate::export::png::decode_rgba(&bytes).map_err(|e| e.in_file(&path))?;
                if body_of_still.is_some() {
                    still_png = Some(bytes);
                }
                let Some(Frame { width, height, pixels: Pixels::Rgba8(rgba), .. }) = image.frames.into_iter().next()
                else {
                    return Err(Error::Refused(format!("{}: no pixels", path.display())));
                };
                frames.push((*id, path, width, height, rgba, before));
            }
            // The spec does not say whether an animation's frames may differ in size; Drakan's editor builds
            // them from one texture's frames, and the APNG view needs one size: a frame is resized only with
            // all the others alike.
            if animated {
                let sizes: BTreeSet<(u32, u32)> = frames.iter().map(|f| (f.2, f.3)).collect();
                let resized = frames.iter().any(|f| (f.2, f.3) != (f.5.width, f.5.height));
                if resized && (sizes.len() > 1 || frames.len() < group.ids.len()) {
                    let list: Vec<String> =
                        frames.iter().map(|f| format!("{} is {} × {}", file_name(&f.1), f.2, f.3)).collect();
                    return Err(Error::Refused(format!(
                        "animation {first}: its frames must share one size ({}): resize every frame alike",
                        list.join(", ")
                    )));
                }
            }
            for (id, path, width, height, rgba, before) in frames {
                let Some(&i) = index.get(&id) else { continue };
                let unchanged = matches!(&before, Frame { width: w, height: h, pixels: Pixels::Rgba8(p), .. }
                    if (*w, *h) == (width, height) && texture::same_pixels(p, &rgba));
                if unchanged {
                    if let (Some(key), Some(png)) = (body_of_still, still_png.take()) {
                        unchanged_pngs.insert(key, png);
                    }
                    continue;
                }
                let current = texture::parse(self.body(i), 0).map_err(|err| {
                    Error::Refused(format!("{}: texture {id}: its record does not decode ({err})", path.display()))
                })?;
                let palette = self.palette(true);
                let done = texture::encode_rgba(&current, width, height, &rgba, palette.as_deref(), self.order)
                    .map_err(|err| {
                        Error::Refused(format!(
                            "{}: texture {id} ({}) not packed: {err}",
                            path.display(),
                            current.format_name()
                        ))
                    })?;
                self.set(i, texture::write(&done.texture));
                let resized = if (width, height) != (current.width, current.height) {
                    format!(", now {width} × {height} (was {} × {})", current.width, current.height)
                } else {
                    String::new()
                };
                re_encoded.push(format!("{} → texture {id}{resized}", file_name(&path)));
                for note in done.notes {
                    self.notes.push(format!("{}: {note}", path.display()));
                }
            }
            if animated && group.fps > 0 {
                self.animation_view(first, &group.ids, &by_id, original_palette.as_deref())?;
            }
        }
        if !re_encoded.is_empty() {
            self.notes.push(format!("textures re-encoded from edited PNGs: {}", re_encoded.join(", ")));
        }
        Ok(())
    }

    /// Warns when the animated PNG view of an animation shows neither what `convert` made it from nor the
    /// frames as packed now.
    fn animation_view(
        &mut self,
        first: u16,
        ids: &[u16],
        original: &HashMap<u16, &Texture>,
        original_palette: Option<&[[u8; 4]]>,
    ) -> Result<()> {
        // Without a PNG decoder the view cannot be compared; a warning would be a false alarm.
        if cfg!(not(feature = "export")) {
            return Ok(());
        }
        let path = self.path(&format!("{}.png", outputs::animation_view(first)));
        let Ok(bytes) = crate::source::read(&path) else { return Ok(()) };
        let on_disk = apng_frames(&bytes);
        let frames_of = |textures: Vec<Option<Texture>>, palette: Option<&[[u8; 4]]>| -> Option<Vec<Frame>> {
            let refs: Vec<&Texture> = textures.iter().flatten().collect();
            if refs.len() != textures.len() {
                return None;
            }
            texture::animation_to_image(&refs, palette, self.order).ok().map(|img| img.frames)
        };
        let before = frames_of(ids.iter().map(|id| original.get(id).map(|t| (*t).clone())).collect(), original_palette);
        let now_palette = self.palette(true);
        let now: Vec<Option<Texture>> = ids
            .iter()
            .map(|id| {
                let i = self.srsc.find(0x0040, *id)?;
                texture::parse(self.body(i), 0).ok()
            })
            .collect();
        let now = frames_of(now, now_palette.as_deref());
        let shows = |frames: &Option<Vec<Frame>>| match (&on_disk, frames) {
            (Some(disk), Some(frames)) => {
                disk.len() == frames.len()
                    && disk.iter().zip(frames).all(|(d, f)| match &f.pixels {
                        Pixels::Rgba8(p) => d.0 == (f.width, f.height) && texture::same_pixels(&d.1, p),
                        _ => false,
                    })
            }
            _ => false,
        };
        if !shows(&before) && !shows(&now) {
            self.notes.push(format!(
                "warning: {} is a view and was not packed back: it differs from what the animation's frames \
                 (texture_{first}.frame<k>.png) give (edit those instead; convert again to refresh the view)",
                path.display()
            ));
        }
        Ok(())
    }

    // -----------------------------------------------------------------------------------------------------
    // Sounds

    fn sounds(&mut self) -> Result<()> {
        let mut re_encoded = Vec::new();
        for i in 0..self.srsc.entries.len() {
            let Some(e) = self.srsc.entries.get(i).copied() else { continue };
            if e.record_type != 0x0302 {
                continue;
            }
            let Ok(original) = sound::parse(self.srsc.body(i), self.srsc.body_offset(i)) else { continue };
            let name = format!("{}.wav", outputs::sound(&self.groups, &e, &original.name.text));
            let path = self.path(&name);
            if !path.is_file() {
                if sound::to_sound(&original).is_ok() {
                    self.missing.push(name);
                }
                continue;
            }
            self.found = true;
            let wav = read_wav(&path)?;
            let before = sound::to_sound(&original).map_err(|err| {
                Error::Refused(format!(
                    "{}: sound {} cannot be packed: relic cannot read its record ({err})",
                    path.display(),
                    e.id
                ))
            })?;
            let same = wav.rate == before.sample_rate
                && sound::pcm_from_samples(before.bits_per_sample, before.channels, wav.channels, &wav.samples)
                    .is_ok_and(|pcm| wav.channels == before.channels && pcm == before.data);
            if same {
                continue;
            }
            let current = sound::parse(self.body(i), 0).map_err(|err| {
                Error::Refused(format!("{}: sound {}: its record does not decode ({err})", path.display(), e.id))
            })?;
            let (done, notes) = sound::with_samples(&current, wav.channels, wav.rate, &wav.samples)
                .map_err(|err| Error::Refused(format!("{}: sound {} not packed: {err}", path.display(), e.id)))?;
            self.set(i, sound::write(&done));
            re_encoded.push(format!("{name} → sound {} ({}-bit, {} channel(s))", e.id, current.bits, current.channels));
            if wav.bits != current.bits {
                self.notes.push(format!(
                    "{}: {}-bit audio stored in {} bits, as the record stores it",
                    path.display(),
                    wav.bits,
                    current.bits
                ));
            }
            for note in notes {
                self.notes.push(format!("{}: {note}", path.display()));
            }
        }
        if !re_encoded.is_empty() {
            self.notes.push(format!("sounds re-encoded from edited WAVs: {}", re_encoded.join(", ")));
        }
        Ok(())
    }

    // -----------------------------------------------------------------------------------------------------
    // Music (RIFF blobs of 0x0401 records)

    fn music(&mut self) -> Result<()> {
        for i in 0..self.srsc.entries.len() {
            let Some(e) = self.srsc.entries.get(i).copied() else { continue };
            if e.record_type != strings::PLAIN {
                continue;
            }
            let StringBody::Riff { extension } = strings::read_body(e.record_type, self.srsc.body(i)) else { continue };
            let name = format!("{}.{extension}", outputs::music(&self.groups, &e));
            let path = self.path(&name);
            if !path.is_file() {
                self.missing.push(name);
                continue;
            }
            let bytes = self.read(&path)?;
            if bytes.as_slice() != self.srsc.body(i) {
                self.notes.push(format!(
                    "{}: packed as record 0x0401 id {} ({} bytes)",
                    path.display(),
                    e.id,
                    bytes.len()
                ));
                self.set(i, bytes);
            }
        }
        Ok(())
    }

    // -----------------------------------------------------------------------------------------------------
    // Heightmaps

    fn heightmaps(&mut self) -> Result<()> {
        let Some(li) = self.srsc.find_first(0x0001) else { return Ok(()) };
        let Ok(original) = level::parse_layers(self.srsc.body(li), self.srsc.body_offset(li)) else { return Ok(()) };
        let names = crate::drakan::scene::level::heightmap_names(&original.layers);
        let mut current: Option<level::Layers> = None;
        for (k, (def, block)) in original.layers.iter().zip(&original.blocks).enumerate() {
            let Some(name) = names.get(k) else { continue };
            let name = format!("heightmaps/{name}.png");
            let path = self.path(&name);
            if !path.is_file() {
                continue;
            }
            self.found = true;
            let (width, height, heights) = read_gray16(&path)?;
            let grid = level::decode_block(def, block).map_err(|err| {
                Error::Refused(format!(
                    "{}: layer {} cannot be packed: its block does not decode ({err})",
                    path.display(),
                    def.id
                ))
            })?;
            let (w, h) = (u64::from(def.width) + 1, u64::from(def.height) + 1);
            if (u64::from(width), u64::from(height)) != (w, h) {
                return Err(Error::Refused(format!(
                    "{}: {width} × {height} pixels, and layer {} has {w} × {h} vertices: a heightmap keeps its layer's \
                     size (one pixel a vertex)",
                    path.display(),
                    def.id
                )));
            }
            if grid.vertices.iter().map(|v| v.v).eq(heights.iter().copied()) {
                continue;
            }
            let layers = match current.as_mut() {
                Some(l) => l,
                None => current.insert(level::parse_layers(self.body(li), 0).map_err(|err| {
                    Error::Refused(format!("{}: the level's layers record does not decode ({err})", path.display()))
                })?),
            };
            let (Some(cur_def), Some(cur_block)) = (layers.layers.get(k), layers.blocks.get(k)) else { continue };
            let mut cur: LayerGrid = level::decode_block(cur_def, cur_block).map_err(|err| {
                Error::Refused(format!("{}: layer {}: its block does not decode ({err})", path.display(), def.id))
            })?;
            if cur.vertices.len() != heights.len() {
                return Err(Error::Refused(format!("{}: layer {} changed its size", path.display(), def.id)));
            }
            let edited = cur.vertices.iter().zip(&heights).filter(|(v, h)| v.v != **h).count();
            for (v, h) in cur.vertices.iter_mut().zip(&heights) {
                v.v = *h;
            }
            let level_of = level::zlib_level(&cur_block.data.0);
            if let Some(slot) = layers.blocks.get_mut(k) {
                *slot = level::encode_block(&cur, level_of);
            }
            self.notes.push(format!("{}: {edited} height(s) packed into layer {}", path.display(), def.id));
        }
        if let Some(layers) = current {
            self.set(li, level::write_layers(&layers));
        }
        Ok(())
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// A WAV's audio as packing reads it: interleaved samples scaled to the 16-bit range.
struct Wav {
    channels: u16,
    rate: u32,
    bits: u16,
    samples: Vec<i32>,
}

/// A WAV's audio: refused without a WAV reader.
#[cfg(not(feature = "export"))]
fn read_wav(_path: &Path) -> Result<Wav> {
    Err(crate::export::needs_export("WAV input"))
}

#[cfg(feature = "export")]
fn read_wav(path: &Path) -> Result<Wav> {
    let bad = |e: hound::Error| Error::Refused(format!("{}: not a WAV relic reads ({e})", path.display()));
    let bytes = crate::source::read(path)?;
    let mut reader = hound::WavReader::new(std::io::Cursor::new(bytes)).map_err(bad)?;
    let spec = reader.spec();
    let samples: Vec<i32> = match spec.sample_format {
        hound::SampleFormat::Float => reader
            .samples::<f32>()
            .map(|s| s.map(|v| (f64::from(v) * 32768.0).round().clamp(-32768.0, 32767.0) as i32))
            .collect::<std::result::Result<_, _>>()
            .map_err(bad)?,
        hound::SampleFormat::Int => {
            let bits = u32::from(spec.bits_per_sample);
            reader
                .samples::<i32>()
                .map(|s| s.map(|v| if bits <= 16 { v << (16 - bits) } else { v >> (bits - 16) }))
                .collect::<std::result::Result<_, _>>()
                .map_err(bad)?
        }
    };
    Ok(Wav { channels: spec.channels, rate: spec.sample_rate, bits: spec.bits_per_sample, samples })
}

/// A 16-bit greyscale PNG's size and values: refused without a PNG decoder.
#[cfg(not(feature = "export"))]
fn read_gray16(_path: &Path) -> Result<(u32, u32, Vec<u16>)> {
    Err(crate::export::needs_export("PNG input"))
}

/// A 16-bit greyscale PNG's size and values (a heightmap); anything else is refused.
#[cfg(feature = "export")]
fn read_gray16(path: &Path) -> Result<(u32, u32, Vec<u16>)> {
    let bytes = crate::source::read(path)?;
    let bad = |e: png::DecodingError| Error::Refused(format!("{}: not a PNG relic reads ({e})", path.display()));
    let mut decoder = png::Decoder::new(std::io::Cursor::new(&bytes));
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder.read_info().map_err(bad)?;
    let (width, height) = (reader.info().width, reader.info().height);
    crate::limits::check_pixels("heightmap", width, height)?;
    let (colour, depth) = (reader.info().color_type, reader.info().bit_depth);
    if (colour, depth) != (png::ColorType::Grayscale, png::BitDepth::Sixteen) {
        return Err(Error::Refused(format!(
            "{}: a {depth:?}-bit {colour:?} PNG; a heightmap packs from a 16-bit greyscale PNG (one height a pixel)",
            path.display()
        )));
    }
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).map_err(bad)?;
    buf.truncate(info.buffer_size());
    Ok((width, height, buf.chunks_exact(2).map(|b| u16::from_be_bytes([b[0], b[1]])).collect()))
}

/// One decoded PNG frame: (width, height) and its RGBA8 pixels.
type RgbaFrame = ((u32, u32), Vec<u8>);

/// Every frame of a PNG: none without a PNG decoder (see `animation_view`).
#[cfg(not(feature = "export"))]
fn apng_frames(_bytes: &[u8]) -> Option<Vec<RgbaFrame>> {
    None
}

/// Every frame of a PNG (an APNG's frames, or the one image); `None` when it does not decode.
#[cfg(feature = "export")]
fn apng_frames(bytes: &[u8]) -> Option<Vec<RgbaFrame>> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8() | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().ok()?;
    crate::limits::check_pixels("PNG", reader.info().width, reader.info().height).ok()?;
    let count = reader.info().animation_control.map_or(1, |a| a.num_frames).max(1);
    let mut out = Vec::new();
    for _ in 0..count.min(4096) {
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).ok()?;
        buf.truncate(info.buffer_size());
        let rgba = match info.color_type {
            png::ColorType::Rgba => buf,
            png::ColorType::GrayscaleAlpha => buf.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect(),
            _ => return None,
        };
        out.push(((info.width, info.height), rgba));
    }
    Some(out)
}
