//! SRSC records to assets: textures to PNG (animations to one PNG per frame, plus their APNG as a view; 8
//! bpp through the file's first palette), sounds to WAV, Music.rrc's RIFF blobs to `.sgt`/`.dls`, every
//! record decoded into `records.json` (classes with their field values, sequences with typed actions,
//! models, characters, animations, level records), the strings a translator edits, and the lossless
//! document. Output names, and which outputs `pack` reads back, are in [`super::outputs`].
//!
//! References (`ref {id, db}`) are named `database/file:id` (`Common/Common.txd:12`) through the database's
//! dependency table when the `.db` is known; a texture or sound a class or model refers to in another file
//! is read from that file and converted too, as a view under `refs/<database>/<file>/` (edit it in the
//! conversion of its own file).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use serde_json::{json, Value};

use super::convert::{self, group_paths};
use super::types::{DirectoryEntry, Srsc};
use super::{outputs, parse, shared, FORMAT_ID, STRINGS_FILE};
use crate::asset::{Asset, Binary, Document, Image, NamedAsset};
use crate::drakan::db::Database;
use crate::drakan::records::class::{RefKind, Value as FieldValue};
use crate::drakan::records::strings::{self, StringBody};
use crate::drakan::records::texture::{self, ChannelOrder, Texture};
use crate::drakan::records::{self, sound, Decoded, Ref};
use crate::error::{Error, Result};
use crate::registry::{ConvertOptions, FormatOption};

/// `--option drakan-texture.order=rgba|bgra`: the byte order of 32-bpp textures (docs/formats/drakan.md#texture-32bpp: unsettled;
/// the editor writes RGBA, the engine reads BGRA).
pub const ORDER_OPTION: FormatOption = FormatOption { key: "drakan-texture.order", values: &["rgba", "bgra"] };

/// The code page string records are read in (and `pack` writes them back in): `--option
/// drakan-strings.code-page=windows-1251` for a Russian release; Windows-1252 by default.
pub const CODE_PAGE_OPTION: FormatOption =
    FormatOption { key: "drakan-strings.code-page", values: crate::drakan::records::strings::CODE_PAGES };

fn channel_order(opts: &ConvertOptions) -> ChannelOrder {
    match opts.setting(ORDER_OPTION.key) {
        Some(v) if v.eq_ignore_ascii_case("bgra") => ChannelOrder::Bgra,
        _ => ChannelOrder::Rgba,
    }
}

/// Where a conversion stands: the file's own name and database, for naming and resolving references.
pub struct Context<'d> {
    /// The file's stem and extension (`Sample`, `odb`).
    pub stem: String,
    pub extension: String,
    pub db: Option<&'d Database>,
    /// The folder the file is in, when it is a file on disk: its database's other files (`x.txd`, `x.adb`
    /// for `x.mod`) are found there when no `.db` is known.
    pub dir: Option<PathBuf>,
    /// Converting a whole database: references into its own files are converted with those files.
    pub whole_database: bool,
    /// The folder the files found through the database must lie in, through no link
    /// ([`crate::registry::Nearby::confine`]: `relic view`'s root; a database path's `..` climbs no higher).
    pub confine: Option<PathBuf>,
}

/// The file extension a reference kind points into (spec "How the engine manages its assets").
fn extension_of(kind: RefKind) -> &'static str {
    match kind {
        RefKind::Class => "odb",
        RefKind::Model => "mod",
        RefKind::Sound => "sdb",
        RefKind::Animation => "adb",
        RefKind::Sequence => "ssd",
        RefKind::Texture => "txd",
    }
}

impl Context<'_> {
    /// The file with extension `ext` of database index `db` (0: this file's own database): through the
    /// `.db` when known, else (index 0) the file with this stem beside this one; and how output names it.
    pub fn database_file(&self, db: u16, ext: &str) -> Option<(PathBuf, String)> {
        if let Some(found) = self.db.and_then(|d| d.asset_file(db, ext)) {
            return self.confined(found);
        }
        if db != 0 || self.stem.is_empty() {
            return None;
        }
        let name = format!("{}.{ext}", self.stem);
        let dir = self.dir.clone().unwrap_or_default();
        // Any case, as the game's files come from case-insensitive file systems.
        let found = std::fs::read_dir(&dir)
            .ok()
            .and_then(|entries| {
                entries
                    .flatten()
                    .map(|e| e.path())
                    .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case(&name)))
            })
            .unwrap_or_else(|| dir.join(&name));
        self.confined((found, name))
    }

    /// A file found through the database, when [`Context::confine`] lets it be read.
    fn confined(&self, found: (PathBuf, String)) -> Option<(PathBuf, String)> {
        crate::paths::may_look_in(self.confine.as_deref(), &found.0).then_some(found)
    }

    /// `database/file:id`, or `file:id` for this database when its `.db` is unknown.
    fn name_ref(&self, r: Ref, ext: &str) -> String {
        match self.db.and_then(|db| db.asset_file(r.db, ext)) {
            Some((_, shown)) => format!("{shown}:{}", r.id),
            None if r.db == 0 => format!("{}.{ext}:{}", self.stem, r.id),
            None => format!("database {}/?.{ext}:{}", r.db, r.id),
        }
    }

    /// The SRSC file a reference points into, unless it is this very file or (converting a whole database)
    /// another file of it.
    fn foreign_file(&self, r: Ref, ext: &str) -> Option<(PathBuf, String)> {
        if r.db == 0 && (ext == self.extension || self.whole_database) {
            return None;
        }
        self.db.and_then(|db| db.asset_file(r.db, ext)).and_then(|found| self.confined(found))
    }
}

/// Converts an SRSC file's records (see the module notes). A record that does not decode, or a texture or
/// sound that cannot be made into PNG or WAV, is listed with its error in `records.json` and reported as a
/// failure of the file ([`ConvertOptions::fail`]); the rest of the file converts.
pub fn convert_in(data: &[u8], ctx: &Context<'_>, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let srsc = parse(data)?;
    let code_page = strings::code_page(opts.setting(CODE_PAGE_OPTION.key))?;
    let mut doc = convert::to_document_in(&srsc, code_page);
    let order = channel_order(opts);
    // How 32-bpp textures were drawn, so that `pack` reads their PNGs back the same way.
    doc.texture_order = (order != ChannelOrder::Rgba).then_some(order);
    // The lossless document (named after the file): `pack` rebuilds the file from it, with the sources
    // beside it (see `outputs`).
    let value = crate::registry::document_json(FORMAT_ID, &doc)?;
    let mut made = Made {
        out: vec![NamedAsset { name: None, asset: document(value) }],
        listing: Vec::with_capacity(srsc.entries.len()),
        textures: Vec::new(),
        parsed: HashMap::new(),
        files: HashMap::new(),
        // What the file's conversions make is charged to its expansion budget, as they are made: records
        // may share one body (16 records pointing at one 8192² stream took 4.4 GB), and what they make, not
        // what the file stores, is what costs.
        budget: Budget::of(data.len() as u64),
    };
    let strings = convert::strings_map(&doc);
    if !strings.is_empty() {
        made.out.push(named(STRINGS_FILE.trim_end_matches(".json"), document(to_value(&strings)?)));
    }
    let groups = group_paths(&srsc);
    // Records over one body are converted once (issue 23): the others take the first's listing and files.
    let sharing = shared::sharing(&srsc);
    shared::notes(&srsc, &sharing).into_iter().for_each(|n| opts.note(n));
    let mut palette: Option<Vec<[u8; 4]>> = None;
    let mut wanted: Vec<(Ref, &'static str)> = Vec::new();
    for (i, e) in srsc.entries.iter().enumerate() {
        let body = srsc.body(i);
        if let Some(j) = sharing.converted_as(i) {
            let item = made.shared_record(&srsc, &groups, (i, j), opts);
            made.listing.push(item);
            continue;
        }
        let (mut item, decoded) = record_item(&srsc, &groups, i);
        if let Some(err) = item.get("error").and_then(Value::as_str) {
            opts.fail(format!("{}: {err}{}", record_label(e, body), version_hint(&srsc)));
        }
        match decoded {
            Some(decoded) => {
                let refs = references(&decoded, ctx, &mut wanted);
                if !refs.is_empty() {
                    item["references"] = Value::Array(refs);
                }
                match decoded {
                    Decoded::Palette(p) if palette.is_none() => palette = Some(p.colors),
                    Decoded::Texture(t) => {
                        made.textures.push((e.id, i));
                        made.parsed.insert(i, t);
                    }
                    Decoded::Sound(s) => match sound::to_sound(&s) {
                        Ok(pcm) => {
                            made.files.insert(i, (made.out.len(), Some(s.name.text.clone())));
                            made.out.push(named(&outputs::sound(&groups, e, &s.name.text), Asset::Sound(pcm)));
                        }
                        Err(err) => {
                            opts.fail(format!("{}: no WAV: {err}", record_label(e, body)));
                            item["error"] = Value::String(err.to_string());
                        }
                    },
                    _ => {}
                }
            }
            None => {
                if let StringBody::Riff { extension } = strings::read_body(e.record_type, body) {
                    if e.record_type == strings::PLAIN {
                        let bytes = body.to_vec();
                        made.files.insert(i, (made.out.len(), None));
                        made.out.push(named(&outputs::music(&groups, e), Asset::Binary(Binary { extension, bytes })));
                    }
                }
            }
        }
        made.listing.push(item);
    }
    made.textures_to_assets(palette.as_deref(), order, opts)?;
    let Made { mut out, mut listing, .. } = made;
    let listed = listing.len();
    out.extend(referenced_assets(&wanted, ctx, order, &mut listing));
    // What the models refer to in other files and that could not be had: the models go without it, said
    // once for the file (each reference is listed in records.json).
    let missing: Vec<&str> = listing
        .get(listed..)
        .unwrap_or_default()
        .iter()
        .filter(|v| v.get("error").is_some())
        .filter_map(|v| v.get("refers_to").and_then(Value::as_str))
        .collect();
    if let Some(first) = missing.first() {
        opts.note(format!(
            "{}.{}: {} referred to in other files not found (models go without them; records.json lists each): \
             {first}{}",
            ctx.stem,
            ctx.extension,
            if missing.len() == 1 {
                "1 texture or sound".to_string()
            } else {
                format!("{} textures or sounds", missing.len())
            },
            if missing.len() > 1 { ", …" } else { "" }
        ));
    }
    // Models, characters and level layers as glTF scenes (with heightmaps for layers).
    out.extend(crate::drakan::scene::convert(&srsc, ctx, opts, order, &mut listing));
    out.push(named(outputs::RECORDS_FILE.trim_end_matches(".json"), document(Value::Array(listing))));
    Ok(out)
}

/// What a file's conversions may still make: `--max-expansion` times its size, taken as they are made.
struct Budget {
    file_len: u64,
    left: u64,
}

impl Budget {
    fn of(file_len: u64) -> Budget {
        Budget { file_len, left: crate::limits::expansion_budget(file_len) }
    }

    /// Takes `n` bytes of `what` (`textures`, `sounds`), or gives the refusal with the real figures: what
    /// was made so far and these `n` bytes.
    fn spend(&mut self, what: &str, n: u64) -> Result<()> {
        match self.left.checked_sub(n) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => {
                let spent = crate::limits::expansion_budget(self.file_len).saturating_sub(self.left);
                crate::limits::check_expansion(FORMAT_ID, what, spent.saturating_add(n), self.file_len)
            }
        }
    }
}

/// Later Riot games (SRSC 0x0101) use other record layouts (docs/formats/drakan.md#srsc-later-riot): a record's error says so.
fn version_hint(srsc: &Srsc<'_>) -> String {
    if srsc.header.version == super::types::VERSION_DRAKAN {
        return String::new();
    }
    format!(
        " (the file is SRSC version 0x{:04X}, a later Riot game's, whose record layouts may differ from Drakan's; \
         the record is kept as stored)",
        srsc.header.version
    )
}

/// The fields a `records.json` item with `same_body_as` leaves to the item it names (its record's very body).
pub const SHARED_FIELDS: [&str; 2] = ["decoded", "body"];

/// What a file's records made so far (see [`convert_in`]).
struct Made {
    out: Vec<NamedAsset>,
    /// `records.json`: one item per record in directory order, then what failed after.
    listing: Vec<Value>,
    /// Texture records by id, with the record whose parsed texture they use (their own, or that of the first
    /// record over their body).
    textures: Vec<(u16, usize)>,
    parsed: HashMap<usize, Texture>,
    /// The output (index in `out`) a sound (with its name) or music record made, for records sharing its body.
    files: HashMap<usize, (usize, Option<String>)>,
    budget: Budget,
}

impl Made {
    /// Record `i`, whose body record `j` (earlier, of its type) was converted from (see [`shared`]): `j`'s
    /// listing item under `i`'s id and group, a texture drawn from `j`'s parsed texture, and `j`'s WAV or
    /// music under `i`'s name, copied (charged to the budget by what each copy writes).
    fn shared_record(
        &mut self,
        srsc: &Srsc<'_>,
        groups: &HashMap<u16, String>,
        (i, j): (usize, usize),
        opts: &ConvertOptions,
    ) -> Value {
        let Some(e) = srsc.entries.get(i) else { return Value::Null };
        let label = record_label(e, srsc.body(i));
        // The item of `j` without its `decoded` fields or `body`: they are `j`'s, listed there once (40
        // models over one 20,000-joint character listed it 40 times, 650 MB; issue 40). An item given a
        // `decoded` of its own packs it into this record alone (see `sources.rs`).
        let mut item = match self.listing.get(j) {
            Some(Value::Object(first)) => Value::Object(
                first
                    .iter()
                    .filter(|(k, _)| !SHARED_FIELDS.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            ),
            _ => Value::Null,
        };
        item["id"] = json!(e.id);
        item["group"] = json!(groups.get(&e.group).cloned().unwrap_or_default());
        item["same_body_as"] = json!(j);
        if let Some(err) = item.get("error").and_then(Value::as_str) {
            opts.fail(format!("{label}: {err}{}", version_hint(srsc)));
        }
        if self.parsed.contains_key(&j) {
            self.textures.push((e.id, j));
        }
        if let Some((k, sound_name)) = self.files.get(&j) {
            let Some(asset) = self.out.get(*k).map(|n| n.asset.clone()) else { return item };
            let size = match &asset {
                Asset::Sound(s) => s.data.len(),
                Asset::Binary(b) => b.bytes.len(),
                _ => 0,
            };
            let name = match sound_name {
                Some(text) => outputs::sound(groups, e, text),
                None => outputs::music(groups, e),
            };
            match self.budget.spend("sounds", size as u64) {
                Ok(()) => self.out.push(named(&name, asset)),
                Err(err) => {
                    opts.fail(format!("{label}: not converted: {err}"));
                    item["error"] = Value::String(err.to_string());
                }
            }
        }
        item
    }

    /// The textures (id, and the record whose parsed texture it is) as PNGs: stills one by one, animations
    /// (consecutive ids with flag 0x20) as their frames. What each decodes to is charged to the budget before
    /// it is decoded. A texture body that several still textures share is decoded and encoded once, and each
    /// of them gets a copy of that PNG (charged by its bytes): 64 records over one 8192² stream make one
    /// image, not 64.
    fn textures_to_assets(
        &mut self,
        palette: Option<&[[u8; 4]]>,
        order: ChannelOrder,
        opts: &ConvertOptions,
    ) -> Result<()> {
        let Made { out, listing, textures, parsed, budget, .. } = self;
        let refs: Vec<(u16, &Texture)> =
            textures.iter().filter_map(|&(id, k)| parsed.get(&k).map(|t| (id, t))).collect();
        let owner: HashMap<u16, usize> = textures.iter().copied().collect();
        let groups = texture::animation_groups(&refs);
        let still_owner = |ids: &[u16]| match ids {
            [id] => owner.get(id).copied(),
            _ => None,
        };
        let mut stills: HashMap<usize, usize> = HashMap::new();
        for g in &groups {
            if let Some(k) = still_owner(&g.ids) {
                *stills.entry(k).or_default() += 1;
            }
        }
        // The PNG (or why there is none) of each shared still body, once made.
        let mut encoded: HashMap<usize, std::result::Result<Vec<u8>, String>> = HashMap::new();
        let failed = |first: u16, what: &str, err: String, listing: &mut Vec<Value>| {
            opts.fail(format!("{what} {first} (record 0x0040): {err}"));
            listing.push(json!({"texture": first, "error": err}));
        };
        for group in groups {
            let Some(&first) = group.ids.first() else { continue };
            let shared = still_owner(&group.ids).filter(|k| stills.get(k).is_some_and(|&n| n > 1));
            if let Some(done) = shared.and_then(|k| encoded.get(&k)) {
                match done.as_ref().map(|png| (png, budget.spend("textures", png.len() as u64))) {
                    Ok((png, Ok(()))) => out.push(named(&outputs::texture(first), png_asset(png.clone()))),
                    Ok((_, Err(err))) => failed(first, "texture", format!("not written: {err}"), listing),
                    Err(err) => failed(first, "texture", err.clone(), listing),
                }
                continue;
            }
            let frames: Vec<&Texture> =
                group.ids.iter().filter_map(|id| owner.get(id).and_then(|k| parsed.get(k))).collect();
            let pixels: u64 = frames.iter().map(|t| u64::from(t.width) * u64::from(t.height) * 4).sum();
            if let Err(err) = budget.spend("textures", pixels) {
                // The budget only shrinks: the other records over this body are refused alike, untried.
                let err = format!("not decoded: {err}");
                failed(first, "texture", err.clone(), listing);
                if let Some(k) = shared {
                    encoded.insert(k, Err(err));
                }
                continue;
            }
            let image = match frames.as_slice() {
                [single] => texture::to_image(single, palette, order),
                _ => texture::animation_to_image(&frames, palette, order),
            };
            let what = if frames.len() > 1 { "animation" } else { "texture" };
            match (image, shared) {
                (Ok(image), _) if image.frames.len() > 1 => out.extend(animation_assets(first, image, opts)?),
                (Ok(image), Some(k)) => {
                    let png = still_png(&image, opts).map_err(|err| format!("no PNG: {err}"));
                    drop(image);
                    match &png {
                        Ok(bytes) => match budget.spend("textures", bytes.len() as u64) {
                            Ok(()) => out.push(named(&outputs::texture(first), png_asset(bytes.clone()))),
                            Err(err) => failed(first, what, format!("not written: {err}"), listing),
                        },
                        Err(err) => failed(first, what, err.clone(), listing),
                    }
                    encoded.insert(k, png);
                }
                (Ok(image), None) => out.push(named(&outputs::texture(first), Asset::Image(image))),
                (Err(err), shared) => {
                    let err = format!("no PNG: {err}");
                    failed(first, what, err.clone(), listing);
                    if let Some(k) = shared {
                        encoded.insert(k, Err(err));
                    }
                }
            }
        }
        Ok(())
    }
}

/// A still image's PNG, as `relic convert` would write it (with its `--compression`).
fn still_png(image: &Image, opts: &ConvertOptions) -> Result<Vec<u8>> {
    crate::export::png::encode_image_with(image, opts.compression)?
        .into_iter()
        .find(|e| e.suffix.is_empty() && e.extension == "png")
        .map(|e| e.bytes)
        .ok_or_else(|| Error::Unsupported(format!("{FORMAT_ID}: the PNG encoder made no still image")))
}

fn png_asset(bytes: Vec<u8>) -> Asset {
    Asset::Binary(Binary { extension: "png", bytes })
}

/// `record 0x0040 (texture) id 7 `name``: a record as failures name it.
pub fn record_label(e: &DirectoryEntry, body: &[u8]) -> String {
    let kind = records::type_name(e.record_type).map(|n| format!(" ({n})")).unwrap_or_default();
    let name = convert::record_name(e.record_type, body).map(|n| format!(" `{n}`")).unwrap_or_default();
    format!("record 0x{:04X}{kind} id {}{name} at offset 0x{:X}", e.record_type, e.id, e.offset)
}

/// Record `i` as `records.json` lists it (type, name, id, group path, size, and its decoded fields, its
/// text or bytes, or the error that stopped its decoding), with the decoded record.
pub fn record_item(srsc: &Srsc<'_>, groups: &HashMap<u16, String>, i: usize) -> (Value, Option<Decoded>) {
    let Some(e) = srsc.entries.get(i) else { return (Value::Null, None) };
    let body = srsc.body(i);
    let mut item = json!({
        "type": format!("0x{:04X}", e.record_type),
        "type_name": records::type_name(e.record_type),
        "id": e.id,
        "group": groups.get(&e.group).cloned().unwrap_or_default(),
        "size": e.size,
    });
    match records::decode(e.record_type, body, srsc.body_offset(i)) {
        Ok(Some(decoded)) => match listing_value(&decoded) {
            Ok(v) => {
                item["decoded"] = v;
                return (item, Some(decoded));
            }
            Err(err) => item["error"] = Value::String(err.to_string()),
        },
        Ok(None) => {
            // Strings show their text; the version record (0x0402) and unknown records their bytes.
            item["body"] = string_item(e.record_type, body).unwrap_or_else(|| json!({"hex": hex::encode(body)}));
        }
        // A record that does not decode is listed with its error and kept in the document.
        Err(err) => item["error"] = Value::String(err.to_string()),
    }
    (item, None)
}

/// An animation's files: each frame a PNG of its own (`texture_<id>.frame<k>.png`, the sources `pack`
/// reads), and the animated PNG of them all as a view (`texture_<id>.view.png`) when the frames have one
/// size and a frame rate.
fn animation_assets(first: u16, image: Image, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let mut out = Vec::with_capacity(image.frames.len() + 1);
    let apng = crate::export::png::encode_image_with(&image, opts.compression)?
        .into_iter()
        .find(|e| e.suffix.is_empty() && e.extension == "png");
    if let Some(apng) = apng {
        out.push(named(&outputs::animation_view(first), Asset::Binary(Binary { extension: "png", bytes: apng.bytes })));
    }
    for (k, frame) in image.frames.into_iter().enumerate() {
        let single = Image { frames: vec![frame], palette: image.palette.clone(), frame_rate: None, text: Vec::new() };
        out.push(named(&outputs::frame(first, k), Asset::Image(single)));
    }
    Ok(out)
}

/// A decoded record as `records.json` shows it: every field, except that the pixel and sample data of
/// textures and sounds (already converted to PNG and WAV, and kept whole in the lossless document) are
/// given by their size rather than repeated as base64.
pub fn listing_value(decoded: &Decoded) -> Result<Value> {
    let mut value = to_value(decoded)?;
    for kind in ["texture", "sound"] {
        if let Some(fields) = value.get_mut(kind).and_then(Value::as_object_mut) {
            for bulk in ["data", "alpha_map"] {
                let size = match (decoded, bulk) {
                    (Decoded::Texture(t), "data") => Some(t.data.0.len()),
                    (Decoded::Texture(t), _) => t.alpha_map.as_ref().map(|a| a.0.len()),
                    (Decoded::Sound(s), "data") => Some(s.data.0.len()),
                    _ => None,
                };
                if fields.remove(bulk).is_some() {
                    fields.insert(format!("{bulk}_bytes"), json!(size));
                }
            }
        }
    }
    Ok(value)
}

/// A string record in the listing: its text, or what kind of blob it is.
fn string_item(record_type: u16, body: &[u8]) -> Option<Value> {
    if !matches!(record_type, strings::ENCIPHERED | strings::PLAIN) {
        return None;
    }
    Some(match strings::read_body(record_type, body) {
        StringBody::Text { text, .. } => json!({"text": text}),
        StringBody::Riff { extension } => json!({"riff": extension}),
        StringBody::Binary => json!({"hex": hex::encode(body)}),
    })
}

/// The references a decoded record makes, named (`{"field": "Sound", "refers_to": "Common/Common.sdb:4"}`);
/// textures and sounds are noted in `wanted` to be converted from their files.
fn references(decoded: &Decoded, ctx: &Context<'_>, wanted: &mut Vec<(Ref, &'static str)>) -> Vec<Value> {
    let mut out = Vec::new();
    match decoded {
        Decoded::Class(class) => {
            if !class.model.is_null() {
                out.push(json!({"field": "model", "refers_to": ctx.name_ref(class.model, "mod")}));
            }
            for field in &class.fields {
                let mut push = |kind: RefKind, target: Ref| {
                    if target.is_null() {
                        return;
                    }
                    let ext = extension_of(kind);
                    out.push(json!({"field": field.name.text, "refers_to": ctx.name_ref(target, ext)}));
                    if matches!(kind, RefKind::Texture | RefKind::Sound) {
                        wanted.push((target, ext));
                    }
                };
                match &field.value {
                    FieldValue::Ref { kind, target } => push(*kind, *target),
                    FieldValue::Array(items) => {
                        for item in items {
                            if let FieldValue::Ref { kind, target } = item {
                                push(*kind, *target);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        Decoded::ModelTextures(list) => {
            for (i, t) in list.used().into_iter().enumerate() {
                out.push(json!({"texture": i, "refers_to": ctx.name_ref(t, "txd")}));
                wanted.push((t, "txd"));
            }
        }
        _ => {}
    }
    out
}

/// Textures and sounds referred to in other files, read from those files and converted (each file read
/// once; what cannot be found is listed, not fatal).
fn referenced_assets(
    wanted: &[(Ref, &'static str)],
    ctx: &Context<'_>,
    order: ChannelOrder,
    listing: &mut Vec<Value>,
) -> Vec<NamedAsset> {
    let mut files: BTreeMap<PathBuf, Option<Vec<u8>>> = BTreeMap::new();
    let mut done = std::collections::HashSet::new();
    let mut out = Vec::new();
    for &(r, ext) in wanted {
        let Some((path, shown)) = ctx.foreign_file(r, ext) else { continue };
        if !done.insert((path.clone(), r.id)) {
            continue;
        }
        let bytes = files.entry(path.clone()).or_insert_with(|| crate::source::read(&path).ok());
        let converted = bytes
            .as_deref()
            .ok_or_else(|| Error::Refused(format!("{}: not found", path.display())))
            .and_then(|b| referenced_asset(b, r.id, ext, order));
        let folder: Vec<String> = shown.split('/').map(convert::file_component).collect();
        match converted {
            Ok(asset) => {
                let kind = if ext == "txd" { "texture" } else { "sound" };
                out.push(named(&outputs::reference_view(&folder.join("/"), kind, r.id), asset));
            }
            Err(err) => listing.push(json!({"refers_to": format!("{shown}:{}", r.id), "error": err.to_string()})),
        }
    }
    out
}

fn referenced_asset(bytes: &[u8], id: u16, ext: &str, order: ChannelOrder) -> Result<Asset> {
    let srsc: Srsc<'_> = parse(bytes)?;
    let record_type = if ext == "txd" { 0x0040 } else { 0x0302 };
    let i = srsc
        .find(record_type, id)
        .ok_or_else(|| Error::Refused(format!("no record 0x{record_type:04X} with id {id}")))?;
    let body = srsc.body(i);
    if ext == "txd" {
        let palette = srsc
            .find_first(0x0030)
            .map(|p| crate::drakan::records::palette::parse(srsc.body(p), srsc.body_offset(p)))
            .transpose()?;
        let t = texture::parse(body, srsc.body_offset(i))?;
        return texture::to_image(&t, palette.as_ref().map(|p| p.colors.as_slice()), order).map(Asset::Image);
    }
    sound::to_sound(&sound::parse(body, srsc.body_offset(i))?).map(Asset::Sound)
}

fn named(name: &str, asset: Asset) -> NamedAsset {
    NamedAsset { name: Some(name.to_string()), asset }
}

fn document(value: Value) -> Asset {
    Asset::Document(Document { value, tables: vec![] })
}

fn to_value<T: serde::Serialize>(v: &T) -> Result<Value> {
    serde_json::to_value(v).map_err(|e| Error::Unsupported(format!("{FORMAT_ID}: JSON: {e}")))
}
