//! What the preview pane shows of an item (`/api/preview`), its `info` (`/api/info`), and its files
//! (`/api/file`): converted assets exported through [`crate::export`] exactly as `relic convert` writes
//! them (one image frame at a time for the frame picker), the file's own data as JSON (`convert --to
//! json`), or its bytes.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::cache::Cache;
use super::request::{percent_encode, shown, Query, Rejection};
use super::tree::{asset_file_name, asset_kind, kind_of, Converted, Data, Item, Tree};
use crate::asset::{Asset, FrameRole, Image, NamedAsset};
use crate::export;

/// Rows of tables and bytes of text put inline in a preview; the rest is in the downloads.
const MAX_TABLE_CELLS: usize = 200_000;
const MAX_INLINE_TEXT: usize = 1 << 20;
/// Rows of an archive's listing in its preview.
const MAX_LISTING: usize = 2000;
/// The largest file whose own data is given as JSON (`convert --to json` of an archive holds its every
/// byte, base64-encoded): past it, the raw bytes are the download.
const MAX_JSON_INPUT: usize = 64 << 20;

/// The downloads of a file's own data: its JSON (when relic reads it and it is not too large) and its bytes.
fn own_downloads(data: &Data, path: &str, downloads: &mut Vec<Value>) {
    if data.format.is_some() && data.size <= MAX_JSON_INPUT as u64 && !data.is_sliced() {
        downloads.push(json!({"label": "JSON (file data)", "url": file_url(path, "json", None, None)}));
    }
    if !data.is_sliced() {
        downloads.push(json!({"label": "raw bytes", "url": file_url(path, "raw", None, None)}));
    }
}

/// The bytes of a file to send: made (shared with the cache), held in memory (an archive entry's bytes), or
/// a file on disk, read as it is sent and never from a memory map, so that a file truncated meanwhile gives a
/// short answer rather than a fault.
pub(super) enum Body {
    Made(Arc<Vec<u8>>),
    Held(Arc<crate::source::Source>),
    Disk { file: std::fs::File, len: u64 },
}

impl Body {
    pub(super) fn len(&self) -> u64 {
        match self {
            Body::Made(v) => v.len() as u64,
            Body::Held(s) => s.len() as u64,
            Body::Disk { len, .. } => *len,
        }
    }

    /// A reader of `len` bytes from `start` (within [`Body::len`]).
    pub(super) fn reader(self, start: u64, len: u64) -> Box<dyn std::io::Read + Send> {
        use std::io::{Read, Seek, SeekFrom};
        match self {
            Body::Made(v) => {
                Box::new(std::io::Cursor::new(Slice(Body::Made(v), start as usize, (start + len) as usize)))
            }
            Body::Held(s) => {
                Box::new(std::io::Cursor::new(Slice(Body::Held(s), start as usize, (start + len) as usize)))
            }
            Body::Disk { mut file, .. } => {
                let read = match file.seek(SeekFrom::Start(start)) {
                    Ok(_) => Some(FileRead { file, left: len }),
                    Err(_) => None,
                };
                match read {
                    Some(r) => Box::new(std::io::BufReader::with_capacity(1 << 16, r)),
                    None => Box::new(std::io::empty().take(0)),
                }
            }
        }
    }
}

/// Part of a body held in memory.
struct Slice(Body, usize, usize);

impl AsRef<[u8]> for Slice {
    fn as_ref(&self) -> &[u8] {
        match &self.0 {
            Body::Made(v) => &v[self.1..self.2],
            Body::Held(s) => &s[self.1..self.2],
            Body::Disk { .. } => &[],
        }
    }
}

/// The next `left` bytes of a file, read in chunks; a file that ends sooner (truncated while it is sent) is
/// an error, so the answer stops short of its `Content-Length` and the client sees it was cut.
struct FileRead {
    file: std::fs::File,
    left: u64,
}

impl std::io::Read for FileRead {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left == 0 || buf.is_empty() {
            return Ok(0);
        }
        let want = buf.len().min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = self.file.read(&mut buf[..want])?;
        if n == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the file got shorter while it was sent",
            ));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// A file to send.
pub(super) struct FileOut {
    pub(super) body: Body,
    pub(super) content_type: &'static str,
    pub(super) file_name: String,
}

/// The URL of an item's file.
fn file_url(path: &str, ext: &str, asset: Option<usize>, frame: Option<usize>) -> String {
    let mut url = format!("/api/file?path={}&as={ext}", percent_encode(path));
    if let Some(a) = asset {
        url.push_str(&format!("&asset={a}"));
    }
    if let Some(f) = frame {
        url.push_str(&format!("&frame={f}"));
    }
    url
}

fn format_value(data: &Data) -> Value {
    match data.format {
        Some(f) => json!({"id": f.id, "name": f.name, "game": f.game.title(), "kind": kind_of(f)}),
        None => Value::Null,
    }
}

/// What is converted for an item: the whole conversion of a file or entry, or one converted file of a
/// record container.
struct Subject<'i> {
    data: &'i Data,
    converted: Option<Arc<Converted>>,
    /// The assets shown (indices into `converted`).
    shown: Vec<usize>,
    /// Conversion failed with this message.
    error: Option<String>,
}

/// Whether an item converts (else its preview is its JSON, or its bytes for a file of no known format).
fn converts(data: &Data) -> bool {
    data.format.is_some_and(|f| f.capabilities.convert && (!f.is_archive() || f.codec_for(&data.name).converts_whole()))
}

fn subject<'i>(tree: &Tree, item: &'i Item) -> Option<Subject<'i>> {
    match item {
        Item::Data(data) if converts(data) => Some(match tree.converted(data) {
            Ok(c) => Subject { data, shown: (0..c.assets.len()).collect(), converted: Some(c), error: None },
            Err(e) => Subject { data, converted: None, shown: Vec::new(), error: Some(e) },
        }),
        Item::Asset { container, index, converted, .. } => {
            Some(Subject { data: container, converted: Some(Arc::clone(converted)), shown: vec![*index], error: None })
        }
        _ => None,
    }
}

/// `/api/info`.
pub(super) fn info(tree: &Tree, item: &Item) -> Value {
    let mut out = Map::new();
    out.insert("path".into(), json!(item.path()));
    out.insert("name".into(), json!(display_name(tree, item.path())));
    match item {
        Item::Folder { .. } | Item::Virtual { .. } => {
            out.insert("kind".into(), json!("folder"));
        }
        Item::Data(data) => {
            out.insert("kind".into(), json!(data.format.map_or("file", kind_of)));
            out.insert("format".into(), format_value(data));
            out.insert("size".into(), json!(data.size));
            if let Some(r) = &data.record {
                out.insert("record".into(), json!(r));
            }
            match tree.info(data) {
                Some(Ok(v)) => out.insert("info".into(), Value::clone(&v)),
                Some(Err(e)) => out.insert("info_error".into(), json!(e)),
                None => None,
            };
        }
        Item::Asset { container, index, converted, .. } => {
            let named = &converted.assets[*index];
            out.insert("kind".into(), json!(asset_kind(&named.asset)));
            out.insert("format".into(), format_value(container));
            out.insert("info".into(), asset_summary(&named.asset));
            out.insert("converted_from".into(), json!(container.path));
            warnings(converted, &mut out);
        }
    }
    Value::Object(out)
}

/// What the conversion warned of (a model's texture not found, naming where it was looked for), as
/// `relic convert` prints them: `warnings`, absent when there are none.
fn warnings(converted: &Converted, out: &mut Map<String, Value>) {
    if !converted.notes.is_empty() {
        out.insert("warnings".into(), json!(converted.notes));
    }
}

fn display_name(tree: &Tree, path: &str) -> String {
    path.rsplit('/').next().filter(|n| !n.is_empty()).map_or_else(|| tree.volume.name().to_string(), str::to_string)
}

/// A few facts about a converted asset, for its `info`.
fn asset_summary(asset: &Asset) -> Value {
    match asset {
        Asset::Image(img) => json!({
            "frames": img.frames.len(),
            "width": img.frames.first().map(|f| f.width),
            "height": img.frames.first().map(|f| f.height),
            "frame_rate": img.frame_rate,
        }),
        Asset::Sound(s) => json!({
            "channels": s.channels, "sample_rate": s.sample_rate, "bits_per_sample": s.bits_per_sample,
            "duration": duration(s),
        }),
        Asset::Scene(s) => json!({
            "nodes": s.nodes.len(), "meshes": s.meshes.len(), "materials": s.materials.len(),
            "textures": s.textures.len(), "animations": s.animations.len(),
        }),
        Asset::Document(d) => json!({"tables": d.tables.len()}),
        Asset::Text(t) => json!({"extension": t.extension, "bytes": t.text.len()}),
        Asset::Binary(b) => json!({"extension": b.extension, "bytes": b.bytes.len()}),
    }
}

fn duration(s: &crate::asset::Sound) -> f64 {
    let frame = u64::from(s.channels.max(1)) * u64::from(s.bits_per_sample / 8).max(1);
    (s.data.len() as u64 / frame) as f64 / f64::from(s.sample_rate.max(1))
}

/// `/api/preview`: `Ok` with what to show, or `Err` with the status and the body (the error and what is
/// still known: kind, info, downloads).
pub(super) fn preview(tree: &Tree, item: &Item) -> Result<Value, (u16, Value)> {
    let Value::Object(mut out) = info(tree, item) else { unreachable!("info is an object") };
    let mut downloads = Vec::new();
    let path = item.path().to_string();
    match item {
        Item::Folder { .. } | Item::Virtual { .. } => {
            out.insert("kind".into(), json!("folder"));
            listing(tree, item, &mut out);
        }
        Item::Data(data) if !converts(data) => {
            let format = data.format;
            if format.is_some_and(|f| f.is_archive()) {
                out.insert("kind".into(), json!("archive"));
                listing(tree, item, &mut out);
            } else if format.is_some() {
                // Read but not converted: its data as a document.
                out.insert("kind".into(), json!("document"));
                out.insert(
                    "assets".into(),
                    json!([{"name": "data", "kind": "document", "json": file_url(&path, "json", None, None)}]),
                );
            } else {
                match tree.bytes(data) {
                    Ok(bytes) => raw_view(&path, &bytes, &mut out),
                    Err(e) => return Err((e.status, json!({"error": e.message}))),
                }
            }
            own_downloads(data, &path, &mut downloads);
        }
        _ => {
            let subject = subject(tree, item).expect("items that convert have a subject");
            let data = subject.data;
            if let Some(error) = subject.error {
                out.insert("error".into(), json!(error));
                out.insert("kind".into(), json!(data.format.map_or("file", kind_of)));
                if !matches!(item, Item::Asset { .. }) {
                    own_downloads(data, &path, &mut downloads);
                }
                out.insert("downloads".into(), Value::Array(downloads));
                return Err((422, Value::Object(out)));
            }
            let converted = subject.converted.as_ref().expect("converted without error");
            let is_leaf = matches!(item, Item::Asset { .. });
            let stem = if is_leaf { leaf_stem(&path) } else { data.stem() };
            let mut views = Vec::new();
            for &i in &subject.shown {
                let named = &converted.assets[i];
                // A container's own conversion is addressed without `asset`: a converted file is an item.
                let index = if is_leaf { None } else { Some(i) };
                views.push(asset_view(&path, index, named, &stem));
                let ext = export::extensions_for(&named.asset).first().copied().unwrap_or("bin");
                let label = if is_leaf {
                    path.rsplit('/').next().unwrap_or(&path).to_string()
                } else {
                    asset_file_name(named, &stem)
                };
                downloads.push(json!({"label": label, "url": file_url(&path, ext, index, None)}));
            }
            let kind = match (data.format, &item) {
                (_, Item::Asset { .. }) => views.first().and_then(|v| v["kind"].as_str()).unwrap_or("file"),
                (Some(f), _) if f.is_archive() && converted.assets.len() > 1 => "archive",
                (Some(f), _) if f.is_archive() => views.first().and_then(|v| v["kind"].as_str()).unwrap_or("archive"),
                (Some(f), _) => kind_of(f),
                (None, _) => "file",
            };
            // Bytes a conversion passes on as they are (a DirectMusic `.sgt`) are shown as bytes.
            let kind = if kind == "file" { "binary" } else { kind };
            out.insert("kind".into(), json!(kind));
            if kind == "archive" {
                listing(tree, item, &mut out);
            }
            out.insert("assets".into(), Value::Array(views));
            if !is_leaf && data.format.is_some_and(|f| f.id == crate::ragnarok::act::FORMAT_ID) {
                out.extend(heads(tree, &path));
                let head =
                    crate::ragnarok::act::HeadSettings::of(&data.options).with_files.as_ref().map(|w| w.name.as_str());
                out.extend(palettes(tree, &path, head));
            }
            warnings(converted, &mut out);
            if !is_leaf {
                own_downloads(data, &path, &mut downloads);
            }
        }
    }
    out.insert("downloads".into(), Value::Array(downloads));
    Ok(Value::Object(out))
}

/// How many heads an ACT's picker lists at most (a client's head folder holds a few hundred).
pub(super) const MAX_HEADS: usize = 200;

/// The client's folders of player sprites (`data/sprite/인간족/몸통/남/<job>_남.act`, heads in
/// `…/머리통/남/<n>_남.act`; the same under `도람족`), as GRF names decode from CP949, and as the same CP949
/// bytes read as Latin-1, which is how clients extracted by tools unaware of CP949 name them on disk.
const BODY_FOLDERS: [&str; 2] = ["몸통", "\u{b8}\u{f6}\u{c5}\u{eb}"];
const HEAD_FOLDERS: [&str; 2] = ["머리통", "\u{b8}\u{d3}\u{b8}\u{ae}\u{c5}\u{eb}"];

/// Where an ACT lies in the client's layout.
#[derive(Debug, PartialEq)]
enum ActRole {
    /// In a body folder: its heads are in this folder (the head folder beside it, the same sex folder).
    Body { head_folder: String },
    /// In a head folder: it is drawn over a body, not under a head.
    Head,
    /// Anywhere else.
    Unknown,
}

/// The role the folders of `path` give an ACT: the nearest body or head folder above it.
fn act_role(path: &str) -> ActRole {
    let parts: Vec<&str> = path.split('/').collect();
    let folders = &parts[..parts.len().saturating_sub(1)];
    for (i, name) in folders.iter().enumerate().rev() {
        if HEAD_FOLDERS.contains(name) {
            return ActRole::Head;
        }
        if let Some(k) = BODY_FOLDERS.iter().position(|b| b == name) {
            let mut head = folders[..i].to_vec();
            head.push(HEAD_FOLDERS[k]);
            // The sex folder (남, 여) below the body folder, when the file is in one.
            if i + 2 < parts.len() {
                head.push(folders[i + 1]);
            }
            return ActRole::Body { head_folder: head.join("/") };
        }
    }
    ActRole::Unknown
}

/// The ACTs of a folder (or a GRF's folder) that have their `.spr` beside them (ASCII case ignored), in
/// the order of their numbers (`2_남` before `10_남`), then their names.
fn acts_with_sprites(tree: &Tree, folder: &str) -> Vec<super::tree::Child> {
    let Ok(children) = tree.resolve(folder).and_then(|item| tree.children(&item)) else { return Vec::new() };
    let stem = |name: &str| name.rsplit_once('.').map_or(name, |(s, _)| s).to_lowercase();
    let sprites: std::collections::HashSet<String> =
        children.iter().filter(|c| c.format == Some(crate::ragnarok::spr::FORMAT_ID)).map(|c| stem(&c.name)).collect();
    let mut acts: Vec<_> = children
        .into_iter()
        .filter(|c| c.format == Some(crate::ragnarok::act::FORMAT_ID) && sprites.contains(&stem(&c.name)))
        .collect();
    let number = |name: &str| {
        let digits: String = name.chars().take_while(char::is_ascii_digit).collect();
        digits.parse::<u64>().ok()
    };
    acts.sort_by_cached_key(|c| (number(&c.name).is_none(), number(&c.name), c.name.to_lowercase()));
    acts
}

/// The heads a Ragnarok ACT may be drawn with (`with=`), into the preview: `heads` (at most
/// [`MAX_HEADS`], each `{name, path, role}`), `heads_total`, `heads_note` and `act_role`.
/// - A body in the client's layout (`…/몸통/남/x.act`): the heads of the head folder of the same sex
///   (`…/머리통/남/`, role `head`) first, then the other bodies of its folder (role `body`).
/// - A head (`…/머리통/…`): none; a head is drawn over a body, not under another head.
/// - Elsewhere: the other ACTs of its folder (role `act`). Nothing in an ACT's bytes tells a head from a
///   body (both of a player hold 13 groups of 8 actions, with anchors): the user picks.
///
/// Only ACTs with their `.spr` beside them are offered (a head is drawn with its sprite).
fn heads(tree: &Tree, path: &str) -> Map<String, Value> {
    let parent = path.rsplit_once('/').map_or("", |(p, _)| p);
    let role = act_role(path);
    let mut out = Map::new();
    let (found, note): (Vec<(super::tree::Child, &str)>, String) = match &role {
        ActRole::Head => {
            out.insert("act_role".into(), json!("head"));
            (Vec::new(), "this ACT is a head (its folder is a head folder): it is drawn over a body".to_string())
        }
        ActRole::Body { head_folder } => {
            out.insert("act_role".into(), json!("body"));
            let mut found: Vec<_> = acts_with_sprites(tree, head_folder).into_iter().map(|c| (c, "head")).collect();
            found.extend(acts_with_sprites(tree, parent).into_iter().filter(|c| c.path != path).map(|c| (c, "body")));
            (found, format!("heads of `{head_folder}` (the client's head folder beside this body's), then the other bodies of this folder"))
        }
        ActRole::Unknown => {
            let found: Vec<_> =
                acts_with_sprites(tree, parent).into_iter().filter(|c| c.path != path).map(|c| (c, "act")).collect();
            (found, "the other ACTs of this folder: which of them are heads is not known (the client keeps heads in `머리통` folders)".to_string())
        }
    };
    out.insert("heads_total".into(), json!(found.len()));
    let note = if found.len() > MAX_HEADS { format!("{note}; the first {MAX_HEADS} of {}", found.len()) } else { note };
    out.insert("heads_note".into(), json!(note));
    let shown: Vec<Value> = found
        .into_iter()
        .take(MAX_HEADS)
        .map(|(c, role)| json!({"name": c.name, "path": c.path, "role": role}))
        .collect();
    out.insert("heads".into(), Value::Array(shown));
    out
}

/// How many palettes a palette picker lists at most (a client's `data/palette/몸/` holds thousands).
pub(super) const MAX_PALETTES: usize = 200;

/// The client's dye folders below `data/palette/` (roBrowser's `DB.getBodyPalPath`, `getHeadPalPath`):
/// body dyes `몸/<job>_<sex>_<n>.pal`, hair dyes `머리/머리<head>_<sex>_<n>.pal`; as GRF names decode from CP949,
/// and as those bytes read as Latin-1 (see [`BODY_FOLDERS`]).
/// Each `(folder, what a dye's name starts with before the sprite's name)`.
const BODY_DYE_FOLDERS: [(&str, &str); 2] = [("몸", ""), ("\u{b8}\u{f6}", "")];
const HAIR_DYE_FOLDERS: [(&str, &str); 2] =
    [("머리", "머리"), ("\u{b8}\u{d3}\u{b8}\u{ae}", "\u{b8}\u{d3}\u{b8}\u{ae}")];

/// The palettes a Ragnarok ACT's sprite may be drawn in (`palette=`), and with a head (`with`) the head's
/// (`head_palette=`), into the preview: `palettes` and `head_palettes` (at most [`MAX_PALETTES`] each, as
/// `{name, path, role}`), `palettes_total` and `head_palettes_total`. For each sprite: the `.pal` files of
/// its own folder (role `folder`), then, in the client's layout (`<root>/sprite/…`), its dyes in
/// `<root>/palette/몸/` (`<body>_<n>.pal`) or `<root>/palette/머리/` (`머리<head>_<n>.pal`), role `dye`.
fn palettes(tree: &Tree, path: &str, head: Option<&str>) -> Map<String, Value> {
    let mut out = Map::new();
    let mut list = |key: &str, found: Vec<(super::tree::Child, &str)>| {
        out.insert(format!("{key}_total"), json!(found.len()));
        let shown: Vec<Value> = found
            .into_iter()
            .take(MAX_PALETTES)
            .map(|(c, role)| json!({"name": c.name, "path": c.path, "role": role}))
            .collect();
        out.insert(key.into(), Value::Array(shown));
    };
    list("palettes", palettes_of(tree, path, &BODY_DYE_FOLDERS));
    if let Some(head) = head {
        list("head_palettes", palettes_of(tree, head, &HAIR_DYE_FOLDERS));
    }
    out
}

/// The palettes of the sprite of the ACT at `path` (see [`palettes`]): its folder's, then its dyes in the
/// client's dye folder (one of `dye_folders`), named `<prefix><stem>_<n>.pal`.
fn palettes_of(tree: &Tree, path: &str, dye_folders: &[(&str, &str)]) -> Vec<(super::tree::Child, &'static str)> {
    let is_pal = |c: &super::tree::Child| c.kind != "folder" && c.name.to_ascii_lowercase().ends_with(".pal");
    let listed = |folder: &str| -> Vec<super::tree::Child> {
        let Ok(children) = tree.resolve(folder).and_then(|item| tree.children(&item)) else { return Vec::new() };
        let mut pals: Vec<_> = children.into_iter().filter(|c| is_pal(c)).collect();
        // `x_2` before `x_10`: by the number the name ends with, then the name.
        let number = |name: &str| {
            let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
            let digits: String = stem.chars().rev().take_while(char::is_ascii_digit).collect();
            digits.chars().rev().collect::<String>().parse::<u64>().ok()
        };
        pals.sort_by_cached_key(|c| (number(&c.name), c.name.to_lowercase()));
        pals
    };
    let parent = path.rsplit_once('/').map_or("", |(p, _)| p);
    let mut found: Vec<_> = listed(parent).into_iter().map(|c| (c, "folder")).collect();
    let parts: Vec<&str> = path.split('/').collect();
    if let Some(at) = parts.iter().rposition(|p| p.eq_ignore_ascii_case("sprite")) {
        let root = parts[..at].iter().map(|p| format!("{p}/")).collect::<String>();
        for (folder, prefix) in dye_folders {
            let own = format!("{prefix}{}_", leaf_stem(path)).to_lowercase();
            let dyes = listed(&format!("{root}palette/{folder}"));
            found.extend(dyes.into_iter().filter(|c| c.name.to_lowercase().starts_with(&own)).map(|c| (c, "dye")));
        }
    }
    found
}

fn leaf_stem(path: &str) -> String {
    let base = path.rsplit('/').next().unwrap_or(path);
    base.rsplit_once('.').map_or(base, |(s, _)| s).to_string()
}

/// A container's children as the pane's table (the first [`MAX_LISTING`]).
fn listing(tree: &Tree, item: &Item, out: &mut Map<String, Value>) {
    match tree.children(item) {
        Ok(children) => {
            out.insert("total".into(), json!(children.len()));
            let shown: Vec<_> = children.into_iter().take(MAX_LISTING).collect();
            out.insert("listing".into(), json!(shown));
        }
        Err(e) => {
            out.insert("listing_error".into(), json!(e.message));
        }
    }
}

/// Files relic has no format for that a browser shows as they are (a `.wav` in an FTG, a `.bmp` in a
/// GRF), by their magic: the kind and the media type they are sent as. None of these types runs.
pub(super) fn media_type(head: &[u8]) -> Option<(&'static str, &'static str)> {
    let starts = |magic: &[u8]| head.starts_with(magic);
    if starts(b"RIFF") && head.get(8..12) == Some(b"WAVE") {
        Some(("sound", "audio/wav"))
    } else if starts(b"OggS") {
        Some(("sound", "audio/ogg"))
    } else if starts(b"ID3") || (head.len() > 1 && head[0] == 0xFF && head[1] & 0xE0 == 0xE0) {
        Some(("sound", "audio/mpeg"))
    } else if starts(b"\x89PNG\r\n\x1a\n") {
        Some(("image", "image/png"))
    } else if starts(b"BM") && head.len() >= 26 {
        Some(("image", "image/bmp"))
    } else if starts(b"\xFF\xD8\xFF") {
        Some(("image", "image/jpeg"))
    } else if starts(b"GIF87a") || starts(b"GIF89a") {
        Some(("image", "image/gif"))
    } else {
        None
    }
}

/// Text of a file of no known format, when it reads as text: UTF-8, else a Windows code page (1251 when
/// most letters are Cyrillic, the code page of Evil Islands' texts, else 1252).
fn as_text(bytes: &[u8]) -> Option<(std::borrow::Cow<'_, str>, &'static str)> {
    if bytes.iter().any(|&b| (b < 0x20 && !b"\n\r\t".contains(&b)) || b == 0x7F) {
        return None;
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Some((text.into(), "utf-8"));
    }
    let high = bytes.iter().filter(|&&b| b >= 0x80).count();
    let cyrillic = bytes.iter().filter(|&&b| b >= 0xC0).count();
    let encoding = if cyrillic * 2 >= high { encoding_rs::WINDOWS_1251 } else { encoding_rs::WINDOWS_1252 };
    let (text, _, _) = encoding.decode(bytes);
    Some((text, if cyrillic * 2 >= high { "windows-1251" } else { "windows-1252" }))
}

/// A file relic has no format for: shown by the browser when it can (sounds, images), as text when it reads
/// as text, else the start of its bytes in hex.
fn raw_view(path: &str, bytes: &[u8], out: &mut Map<String, Value>) {
    if let Some((kind, _)) = media_type(bytes) {
        let url = file_url(path, "raw", None, None);
        let view = match kind {
            "sound" => json!({"name": "sound", "kind": "sound", "url": url}),
            _ => {
                json!({"name": "image", "kind": "image", "frames": [{"label": "image", "url": url}], "frame_rate": null})
            }
        };
        out.insert("kind".into(), json!(kind));
        out.insert("assets".into(), json!([view]));
        return;
    }
    let head = &bytes[..bytes.len().min(MAX_INLINE_TEXT)];
    match as_text(head) {
        Some((text, encoding)) => {
            out.insert("kind".into(), json!("document"));
            let truncated = head.len() < bytes.len();
            let view =
                json!({"name": "text", "kind": "text", "text": text, "encoding": encoding, "truncated": truncated});
            out.insert("assets".into(), json!([view]));
        }
        None => {
            out.insert("kind".into(), json!("binary"));
            out.insert("hex".into(), json!(hex::encode(&bytes[..bytes.len().min(4096)])));
        }
    }
}

/// One converted asset, as the pane draws it.
fn asset_view(path: &str, index: Option<usize>, named: &NamedAsset, stem: &str) -> Value {
    let name = named.name.as_deref().filter(|n| *n != NamedAsset::BESIDE).unwrap_or(stem);
    let mut v = json!({"name": name, "kind": asset_kind(&named.asset)});
    match &named.asset {
        Asset::Image(img) => {
            let frames: Vec<Value> = img
                .frames
                .iter()
                .enumerate()
                .map(|(j, f)| {
                    let label = match (f.role, &f.name) {
                        (FrameRole::Mip(level), _) => format!("mip {level}"),
                        (_, Some(n)) => n.clone(),
                        _ if img.frames.len() == 1 => "image".to_string(),
                        _ => format!("frame {j}"),
                    };
                    json!({
                        "label": label, "width": f.width, "height": f.height, "offset": [f.offset.0, f.offset.1],
                        "mip": matches!(f.role, FrameRole::Mip(_)), "url": file_url(path, "png", index, Some(j)),
                    })
                })
                .collect();
            v["frames"] = Value::Array(frames);
            v["frame_rate"] = json!(img.frame_rate);
        }
        Asset::Sound(s) => {
            v["url"] = json!(file_url(path, "wav", index, None));
            v["channels"] = json!(s.channels);
            v["sample_rate"] = json!(s.sample_rate);
            v["bits_per_sample"] = json!(s.bits_per_sample);
            v["duration"] = json!(duration(s));
        }
        Asset::Scene(scene) => {
            v["url"] = json!(file_url(path, "glb", index, None));
            v["animations"] = json!(scene.animations.iter().map(|a| a.name.as_str()).collect::<Vec<_>>());
            v["meshes"] = json!(scene.meshes.len());
        }
        Asset::Document(d) => {
            v["json"] = json!(file_url(path, "json", index, None));
            let mut budget = MAX_TABLE_CELLS;
            let tables: Vec<Value> = d
                .tables
                .iter()
                .map(|t| {
                    let per_row = t.columns.len().max(1);
                    let rows = (budget / per_row).min(t.rows.len());
                    budget -= rows * per_row;
                    json!({"name": t.name, "columns": t.columns, "rows": &t.rows[..rows], "total": t.rows.len()})
                })
                .collect();
            v["tables"] = Value::Array(tables);
        }
        Asset::Text(t) => {
            let mut end = t.text.len().min(MAX_INLINE_TEXT);
            while !t.text.is_char_boundary(end) {
                end -= 1;
            }
            v["kind"] = json!("text");
            v["extension"] = json!(t.extension);
            v["text"] = json!(&t.text[..end]);
            v["truncated"] = json!(end < t.text.len());
        }
        Asset::Binary(b) => {
            v["extension"] = json!(b.extension);
            v["size"] = json!(b.bytes.len());
            v["hex"] = json!(hex::encode(&b.bytes[..b.bytes.len().min(4096)]));
            v["url"] = json!(file_url(path, b.extension, index, None));
        }
    }
    v
}

fn content_type(ext: &str) -> &'static str {
    match ext.to_ascii_lowercase().as_str() {
        "png" => "image/png",
        "wav" => "audio/wav",
        "glb" => "model/gltf-binary",
        "json" => "application/json",
        "txt" | "ini" | "csv" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// `/api/file`.
pub(super) fn file(tree: &Tree, files: &Cache<Arc<Vec<u8>>>, item: &Item, query: &Query) -> Result<FileOut, Rejection> {
    let ext = query.get("as").unwrap_or("raw").to_ascii_lowercase();
    if ext.is_empty() || !ext.bytes().all(|b| b.is_ascii_alphanumeric()) || ext.len() > 8 {
        return Err(Rejection::bad(format!("`as={}` is not a file type", shown(&ext))));
    }
    let (asset, frame) = (query.index("asset")?, query.index("frame")?);
    let path = item.path().to_string();
    // The version of the file the item comes from is in the key: a file changed on disk is made again.
    let version = match item {
        Item::Data(d) | Item::Asset { container: d, .. } | Item::Virtual { container: d, .. } => d.version.as_str(),
        Item::Folder { .. } => "",
    };
    let key = format!("{path}\0{version}\0{ext}\0{asset:?}\0{frame:?}");
    let base = display_name(tree, &path);
    let out = |bytes: Arc<Vec<u8>>, ext: &str, name: String| FileOut {
        body: Body::Made(bytes),
        content_type: content_type(ext),
        file_name: name,
    };
    let data = match item {
        Item::Data(d) => Some(d),
        _ => None,
    };
    // The item's own bytes, and its own data as JSON.
    if ext == "raw" {
        let d = data.ok_or_else(|| Rejection::bad("only files and archive entries have raw bytes"))?;
        let (body, head) = match &d.disk {
            Some(disk) => {
                let unreadable =
                    |e: std::io::Error| Rejection::new(404, format!("cannot read `{}`: {e}", shown(&path)));
                // A regular file only (a FIFO opened by name would wait for a writer, maybe forever).
                let (mut file, len) = crate::source::open_regular(disk)
                    .map_err(|e| Rejection::new(404, format!("cannot read `{}`: {e}", shown(&path))))?;
                // The head is read from the file too (the reader seeks back to where it starts).
                let mut head = Vec::with_capacity(64);
                std::io::Read::read_to_end(&mut std::io::Read::take(&mut file, 64), &mut head).map_err(unreadable)?;
                (Body::Disk { file, len }, head)
            }
            None => {
                let bytes = tree.bytes(d)?;
                let head = bytes.get(..64).unwrap_or(&bytes).to_vec();
                (Body::Held(bytes), head)
            }
        };
        // Raw bytes are sent as data, except media a browser shows as they are (never a type that runs).
        let media = if d.format.is_none() { media_type(&head) } else { None };
        let content_type = media.map_or("application/octet-stream", |(_, mime)| mime);
        return Ok(FileOut { body, content_type, file_name: base });
    }
    if let Some(d) = data.filter(|_| ext == "json" && asset.is_none()) {
        let format = d.format.ok_or_else(|| Rejection::new(422, "not a format relic knows"))?;
        if d.size > MAX_JSON_INPUT as u64 {
            let why = format!("{} bytes is too large to give as JSON here: take the raw bytes", d.size);
            return Err(Rejection::new(413, why));
        }
        let bytes = files.get(&key, || {
            let bytes = tree.bytes(d).map_err(|r| r.message)?;
            format
                .codec_for(&d.name)
                .to_json(&bytes)
                .and_then(|v| export::json::to_pretty(&v))
                .map(Arc::new)
                .map_err(|e| tree.message(&e))
        });
        let bytes = bytes.map_err(|e| Rejection::new(422, e))?;
        return Ok(out(bytes, "json", format!("{}.json", d.stem())));
    }
    let subject = subject(tree, item).ok_or_else(|| Rejection::new(404, "this item has no converted files"))?;
    if let Some(e) = subject.error {
        return Err(Rejection::new(422, e));
    }
    let converted = subject.converted.expect("converted without error");
    // Which asset: the one asked for, else the first that exports to `ext`.
    let index = match (asset, subject.shown.as_slice()) {
        (Some(i), _) if matches!(item, Item::Data(_)) => i,
        (Some(_), _) => return Err(Rejection::bad("a converted file has no `asset` of its own")),
        (None, [one]) => *one,
        (None, shown) => *shown
            .iter()
            .find(|&&i| export::extensions_for(&converted.assets[i].asset).contains(&ext.as_str()))
            .ok_or_else(|| Rejection::new(404, format!("nothing here converts to .{ext}")))?,
    };
    let named = converted.assets.get(index).ok_or_else(|| Rejection::new(404, format!("no asset {index}")))?;
    let exts = export::extensions_for(&named.asset);
    let Some(ext) = exts.iter().copied().find(|e| e.eq_ignore_ascii_case(&ext)) else {
        return Err(Rejection::new(
            404,
            format!("a {} converts to {}, not .{ext}", named.asset.kind(), exts.join(", ")),
        ));
    };
    let stem = match item {
        Item::Asset { .. } => leaf_stem(&path),
        _ => {
            asset_file_name(named, &subject.data.stem()).rsplit_once('.').map_or(String::new(), |(s, _)| s.to_string())
        }
    };
    let file_stem = stem.rsplit('/').next().unwrap_or(&stem).to_string();
    let bytes = files
        .get(&key, || export_one(&named.asset, ext, frame, &file_stem).map(Arc::new))
        .map_err(|e| Rejection::new(422, e))?;
    let name = match frame {
        Some(j) => format!("{file_stem}.frame{j}.{ext}"),
        None => format!("{file_stem}.{ext}"),
    };
    Ok(out(bytes, ext, name))
}

/// One file of an asset: its first export (the image, the APNG of an animation, the GLB), or one frame of
/// an image.
fn export_one(asset: &Asset, ext: &'static str, frame: Option<usize>, stem: &str) -> Result<Vec<u8>, String> {
    let single;
    let asset = match (asset, frame) {
        (Asset::Image(img), Some(j)) => {
            let f = img.frames.get(j).ok_or_else(|| format!("no frame {j}"))?;
            let f = crate::asset::Frame { role: crate::asset::FrameRole::Frame, ..f.clone() };
            single = Asset::Image(Image {
                frames: vec![f],
                palette: img.palette.clone(),
                frame_rate: None,
                text: Vec::new(),
            });
            &single
        }
        (_, Some(_)) => return Err("only images have frames".into()),
        _ => asset,
    };
    let outputs = export::export(asset, Some(ext), stem).map_err(|e| e.to_string())?;
    outputs.into_iter().next().map(|o| o.bytes).ok_or_else(|| "nothing was exported".to_string())
}
