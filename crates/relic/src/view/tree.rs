//! What lies under the root, item by item: resolving a checked item path to a folder, a file, an archive
//! entry (at any depth of nesting), a folder inside an archive, or a converted file of a record container;
//! and listing an item's children one level at a time.
//!
//! On disk a path is followed component by component, each canonicalized and required to stay under the
//! root, so a symbolic link (or junction) that leads outside is refused wherever it sits. Inside a file the
//! rest of the path names an entry of the archive (entries whose own paths hold `/` make folders), and past
//! a nested archive's entry, one of its entries, as `ls --recursive` and `convert` descend: the outer
//! entry's bytes are read and the registry asked again, no deeper than [`crate::reader::MAX_DEPTH`]. An
//! archive's entries are converted with the options the archive gives them (`entry_options_shared`: an
//! FTG's palette, a RES's siblings, a GRF's own `data\texture\` for its models), as `relic convert` does;
//! a file on disk is converted knowing its path (a model finds the `data\texture\` of its client folder).
//!
//! Record containers that convert as a whole (Drakan SRSC: `converts_whole`) list what their conversion
//! makes (`Sample.sdb/Ambience/2_hum.wav`, `records.json`) rather than their raw records, which open
//! nothing on their own; when the conversion makes a single asset (an Evil Islands `.mod` figure) the
//! container shows that asset and lists its entries.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde::Serialize;

use super::cache::{Cache, Outcome};
use super::request::{item_path, shown, Rejection};
use super::sliced::SlicedArchive;
use super::volume::{Node, Opened, Volume};
use crate::asset::{Asset, NamedAsset, RecordInfo, SNIFF_BYTES};
use crate::error::Error;
use crate::registry::{self, ConvertOptions, Format, Kind, Nearby};
use crate::source::Source;

/// The files of a volume a conversion asks for by name (see [`Tree::open_file`]): by a path below one
/// folder, or (`from_ancestors`) below it or any folder above it (a client path such as
/// `data\texture\x.bmp`, as a client folder dropped whole holds them). Names match ignoring ASCII case, `\` and
/// `/` alike.
struct VolumeFiles {
    volume: Arc<dyn Volume>,
    folder: String,
    from_ancestors: bool,
}

impl std::fmt::Debug for VolumeFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "VolumeFiles({:?})", self.folder)
    }
}

impl VolumeFiles {
    /// The path of `parts` below `start`, each component matched ignoring ASCII case.
    fn find(&self, start: &str, parts: &[&str]) -> Option<String> {
        let mut at = start.to_string();
        for (i, part) in parts.iter().enumerate() {
            let exact = join(&at, part);
            let last = i + 1 == parts.len();
            let wanted = |node: &Node| matches!(node, Node::File { .. }) == last;
            let found = match self.volume.node(&exact) {
                Ok(Some(node)) if wanted(&node) => exact,
                _ => {
                    let (name, _) = self
                        .volume
                        .list(&at)
                        .into_iter()
                        .find(|(name, node)| name.eq_ignore_ascii_case(part) && wanted(node))?;
                    join(&at, &name)
                }
            };
            at = found;
        }
        Some(at)
    }
}

impl registry::FileLookup for VolumeFiles {
    fn read(&self, name: &str) -> Option<Vec<u8>> {
        let parts: Vec<&str> = name.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
        if parts.is_empty() || parts.iter().any(|p| *p == "." || *p == "..") {
            return None;
        }
        let mut start = Some(self.folder.as_str());
        while let Some(folder) = start {
            if let Some(path) = self.find(folder, &parts) {
                if let Ok(Opened::Bytes(bytes)) = self.volume.open(&path) {
                    return Some(bytes.to_vec());
                }
            }
            if !self.from_ancestors {
                break;
            }
            start = match folder.rsplit_once('/') {
                Some((parent, _)) => Some(parent),
                None if !folder.is_empty() => Some(""),
                None => None,
            };
        }
        None
    }

    fn names(&self) -> Vec<String> {
        let files = self.volume.list(&self.folder).into_iter();
        files.filter(|(_, node)| matches!(node, Node::File { .. })).map(|(name, _)| name).collect()
    }

    fn describe(&self) -> String {
        if self.folder.is_empty() {
            "the files opened".to_string()
        } else {
            format!("`{}` of the files opened", shown(&self.folder))
        }
    }
}

/// A file or an archive entry, with what it is read as. A file's bytes are mapped when it is resolved (under
/// the truncation guard, see [`super`]); an entry's are read when first asked for ([`Tree::bytes`]), so that
/// what is cached of it (its `info`, its conversion) is answered without reading it again.
#[derive(Clone)]
pub(super) struct Data {
    /// Item path.
    pub(super) path: String,
    /// The name formats are identified by: the file's path on disk, or the entry's name.
    pub(super) name: String,
    /// The file on disk (canonical), when the item is one: conversions then find the files beside it.
    pub(super) disk: Option<PathBuf>,
    bytes: Bytes,
    /// Bytes: the file's, or what the archive says of its entry.
    pub(super) size: u64,
    pub(super) format: Option<&'static Format>,
    /// What this item is converted with (from the archive it is in).
    pub(super) options: ConvertOptions,
    pub(super) record: Option<RecordInfo>,
    pub(super) depth: u32,
    /// The version of the file on disk the bytes come from (the file's, or its archive's): its size and
    /// modification time when it was opened.
    pub(super) version: String,
}

/// Where an item's bytes are.
#[derive(Clone)]
enum Bytes {
    Ready(Arc<Source>),
    /// An archive read in slices: its bytes are never held whole (see [`super::sliced`]).
    Sliced(Arc<dyn SlicedArchive>),
    /// Entry `index` of an archive.
    Entry {
        container: Arc<Data>,
        index: usize,
    },
}

impl Data {
    /// The key of what is cached for this item: its path and the version of its file, so that a file
    /// changed on disk is converted again rather than served as it was.
    pub(super) fn key(&self) -> String {
        format!("{}\0{}", self.path, self.version)
    }

    /// Whether the item is an archive read in slices, never whole (it has no raw bytes to give).
    pub(super) fn is_sliced(&self) -> bool {
        matches!(self.bytes, Bytes::Sliced(_))
    }

    /// The file name without its extension, for the names of converted files.
    pub(super) fn stem(&self) -> String {
        let base = self.path.rsplit('/').next().filter(|b| !b.is_empty()).unwrap_or(&self.name);
        let base = base.rsplit(['/', '\\']).next().unwrap_or(base);
        match base.rsplit_once('.') {
            Some((stem, _)) if !stem.is_empty() => stem.to_string(),
            _ => base.to_string(),
        }
    }
}

/// What a conversion made of an item.
pub(super) struct Converted {
    pub(super) assets: Vec<NamedAsset>,
    /// Notes for the user (a texture not found, a default taken).
    pub(super) notes: Vec<String>,
}

/// A resolved item.
pub(super) enum Item {
    Folder {
        path: String,
    },
    Data(Data),
    /// A folder inside a container's listing (`data/texture` of a GRF).
    Virtual {
        path: String,
        container: Data,
        prefix: String,
    },
    /// Converted file `index` of a record container.
    Asset {
        path: String,
        container: Data,
        index: usize,
        converted: Arc<Converted>,
    },
}

impl Item {
    pub(super) fn path(&self) -> &str {
        match self {
            Item::Folder { path, .. } | Item::Virtual { path, .. } | Item::Asset { path, .. } => path,
            Item::Data(d) => &d.path,
        }
    }
}

/// One member of a container: an archive entry, or a converted file of a record container.
pub(super) struct Leaf {
    /// Path below the container.
    pub(super) path: String,
    /// The name formats are identified by (the entry's name; empty for converted files).
    name: String,
    pub(super) size: u64,
    pub(super) format: Option<&'static Format>,
    pub(super) kind: &'static str,
    pub(super) source: LeafSource,
    pub(super) record: Option<RecordInfo>,
}

#[derive(Clone, Copy)]
pub(super) enum LeafSource {
    /// Index in the archive's `entries`.
    Entry(usize),
    /// Index in the container's conversion.
    Asset(usize),
}

pub(super) struct Listing {
    pub(super) leaves: Vec<Leaf>,
    by_path: HashMap<String, usize>,
}

/// One child in `/api/tree`.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Child {
    pub(super) name: String,
    pub(super) path: String,
    pub(super) kind: &'static str,
    pub(super) format: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) size: Option<u64>,
    pub(super) expandable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) record: Option<RecordInfo>,
}

/// The kind a format's items are shown as: what its conversion makes, or `document` (its data as JSON) for a
/// format relic reads but does not convert.
pub(super) fn kind_of(format: &Format) -> &'static str {
    if !format.capabilities.convert && format.kind != Kind::Archive {
        return "document";
    }
    match format.kind {
        Kind::Archive => "archive",
        Kind::Image => "image",
        Kind::Sound => "sound",
        Kind::Model => "model",
        Kind::Document => "document",
    }
}

/// The kind an asset is shown as.
pub(super) fn asset_kind(asset: &Asset) -> &'static str {
    match asset {
        Asset::Image(_) => "image",
        Asset::Sound(_) => "sound",
        Asset::Scene(_) => "model",
        Asset::Document(_) | Asset::Text(_) => "document",
        Asset::Binary(_) => "file",
    }
}

/// The name a converted asset is listed under: `<name>.<ext>`, the file's stem for its unnamed asset.
pub(super) fn asset_file_name(named: &NamedAsset, stem: &str) -> String {
    let base = match named.name.as_deref() {
        None | Some(NamedAsset::BESIDE) => stem,
        Some(name) => name,
    };
    let ext = crate::export::extensions_for(&named.asset).first().copied().unwrap_or("bin");
    format!("{base}.{ext}")
}

/// Everything under the root, with the caches of what is computed from it: listings, entries' bytes, `info`s
/// and conversions.
pub(super) struct Tree {
    pub(super) volume: Arc<dyn Volume>,
    /// Where every file's conversion also looks, as `relic convert`'s flags say (`relic view --textures`,
    /// `--models`, `--palette`); entries get it through their archive's options.
    lookup: super::Lookup,
    listings: Cache<Arc<Listing>>,
    conversions: Cache<Arc<Converted>>,
    entries: Cache<Arc<Source>>,
    infos: Cache<Arc<serde_json::Value>>,
    /// What was computed, for tests ([`super::Server::stats`]).
    pub(super) stats: Stats,
}

/// Counts of the work done (tests check that work is done once).
#[derive(Default)]
pub(super) struct Stats {
    pub(super) entries_read: AtomicU64,
    pub(super) infos_made: AtomicU64,
    pub(super) listings_made: AtomicU64,
}

fn count(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

fn not_found(path: &str) -> Rejection {
    Rejection::new(404, format!("nothing at `{}` under the root", shown(path)))
}

fn join(parent: &str, rest: &str) -> String {
    if parent.is_empty() {
        rest.to_string()
    } else {
        format!("{parent}/{rest}")
    }
}

impl Tree {
    pub(super) fn new(volume: Arc<dyn Volume>, cache_bytes: usize, lookup: &super::Lookup) -> Tree {
        Tree {
            volume,
            lookup: lookup.clone(),
            // With the files made ([`super::http::State`], a quarter), the budgets add up to `cache_bytes`.
            listings: Cache::new(cache_bytes / 8, |l: &Arc<Listing>| 256 + l.leaves.len() * 160),
            conversions: Cache::new(cache_bytes / 16 * 7, |c: &Arc<Converted>| converted_size(c)),
            entries: Cache::new(cache_bytes / 8, |b: &Arc<Source>| 64 + b.len()),
            infos: Cache::new(cache_bytes / 16, |v: &Arc<serde_json::Value>| json_size(v)),
            stats: Stats::default(),
        }
    }

    /// An error as the user sees it: one line, paths shown relative to the root.
    pub(super) fn message(&self, e: &Error) -> String {
        self.volume.message(e)
    }

    fn unreadable(&self, e: &Error) -> Rejection {
        Rejection::new(422, self.message(e))
    }

    /// Whether `path` is a folder on disk under the root: its children are listed at once, by the request
    /// thread (what lies inside a file is listed by a heavy worker). Only routes a request: the path is
    /// checked again when it is resolved.
    #[cfg_attr(not(feature = "view"), allow(dead_code))]
    pub(super) fn is_folder(&self, path: &str) -> bool {
        self.volume.is_dir() && matches!(self.volume.node(path), Ok(Some(Node::Folder)))
    }

    /// An item's bytes: a file's as mapped, an entry's read (inflated) once and cached by the archive's
    /// version and the entry's index.
    pub(super) fn bytes(&self, data: &Data) -> Result<Arc<Source>, Rejection> {
        let (container, index) = match &data.bytes {
            Bytes::Ready(bytes) => return Ok(Arc::clone(bytes)),
            Bytes::Sliced(_) => {
                let why = format!("`{}` is read in slices, never whole: open its entries", shown(&data.path));
                return Err(Rejection::new(413, why));
            }
            Bytes::Entry { container, index } => (container, *index),
        };
        let format = container.format.ok_or_else(|| not_found(&data.path))?;
        self.entries
            .get(&format!("{}\0#{index}", container.key()), || {
                count(&self.stats.entries_read);
                if let Bytes::Sliced(archive) = &container.bytes {
                    let bytes = archive.read(index).map_err(|e| self.message(&e))?;
                    return Ok(Arc::new(Source::Owned(bytes)));
                }
                let archive = self.bytes(container).map_err(|r| r.message)?;
                let entries = crate::registry::archive_entries(format, &archive, &container.name)
                    .map_err(|e| self.message(&e))?;
                let entry = entries.get(index).ok_or_else(|| format!("no entry {index}"))?;
                let bytes = entry.data.bytes().map_err(|e| self.message(&e))?.into_owned();
                whole(container, &archive)?;
                Ok(Arc::new(Source::Owned(bytes)))
            })
            .map_err(|e| Rejection::new(422, e))
    }

    /// The format's `info` of an item (cached: asked again, nothing is read).
    pub(super) fn info(&self, data: &Data) -> Option<Outcome<Arc<serde_json::Value>>> {
        let format = data.format?;
        Some(self.infos.get(&data.key(), || {
            count(&self.stats.infos_made);
            if let Bytes::Sliced(archive) = &data.bytes {
                return archive.info().map(Arc::new).map_err(|e| self.message(&e));
            }
            let bytes = self.bytes(data).map_err(|r| r.message)?;
            let info = format.codec_for(&data.name).info(&bytes).map_err(|e| self.message(&e))?;
            whole(data, &bytes)?;
            Ok(Arc::new(info))
        }))
    }

    /// The item at a checked path: followed through the volume's folders to a file, then inside it.
    pub(super) fn resolve(&self, path: &str) -> Result<Item, Rejection> {
        let parts: Vec<&str> = if path.is_empty() { Vec::new() } else { path.split('/').collect() };
        if !self.volume.is_dir() {
            let data = self.open_file(String::new())?;
            return self.descend(data, &parts);
        }
        for i in 0..parts.len() {
            let prefix = parts[..=i].join("/");
            match self.volume.node(&prefix)? {
                None => return Err(not_found(path)),
                Some(Node::Folder) => {}
                Some(Node::File { .. }) => {
                    let data = self.open_file(prefix)?;
                    return self.descend(data, &parts[i + 1..]);
                }
            }
        }
        Ok(Item::Folder { path: path.to_string() })
    }

    fn open_file(&self, path: String) -> Result<Data, Rejection> {
        let opened = self.volume.open(&path)?;
        // Taken once the file is open: a change after it makes another version the next time it is opened.
        let version = match self.volume.node(&path) {
            Ok(Some(Node::File { version, .. })) => version,
            _ => String::from("?"),
        };
        let disk = self.volume.disk_path(&path);
        let name = match &disk {
            Some(disk) => disk.to_string_lossy().into_owned(),
            None => path.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or(self.volume.name()).to_string(),
        };
        // Options of its own (notes and failures are not shared with another file's).
        let mut options = ConvertOptions {
            mips: true,
            textures: self.lookup.textures.clone(),
            models: self.lookup.models.clone(),
            palette: self.lookup.palette.clone(),
            // What the conversion finds by itself stays under the root, through no link (issue 40).
            nearby: self.volume.confine().map(Nearby::confined).unwrap_or_default(),
            ..Default::default()
        };
        if disk.is_none() {
            // Not on disk (the browser's files): the files beside it and the folders above it are the
            // volume's, read when a conversion asks (an ACT's sprite, a model's textures in the client's
            // `data\texture\`), as `convert_at` finds them on disk.
            let (folder, base) = path.rsplit_once('/').unwrap_or(("", path.as_str()));
            let base = if base.is_empty() { self.volume.name() } else { base };
            let lookup = |from_ancestors| VolumeFiles {
                volume: Arc::clone(&self.volume),
                folder: folder.to_string(),
                from_ancestors,
            };
            options.nearby = std::mem::take(&mut options.nearby)
                .with_entry_name(base)
                .with_folder(Arc::new(lookup(false)))
                .with_archive(Arc::new(lookup(true)));
        }
        // A map's walkability overlay is one of its layers here (a toggle, off at first), not left out as
        // `relic convert` leaves it by default.
        let overlay = crate::ragnarok::rsw::scene::WALKABILITY_OPTION;
        options.settings.push((overlay.to_string(), "scene".to_string()));
        let (bytes, size, format) = match opened {
            Opened::Bytes(bytes) => {
                let format = registry::sniff(&bytes, &name).map(|(f, _)| f);
                let size = bytes.len() as u64;
                (Bytes::Ready(Arc::new(bytes)), size, format)
            }
            Opened::Sliced(archive) => {
                let size = match self.volume.node(&path) {
                    Ok(Some(Node::File { len, .. })) => len,
                    _ => 0,
                };
                let format = Some(archive.format());
                (Bytes::Sliced(archive), size, format)
            }
        };
        Ok(Data { path, name, disk, bytes, size, format, options, record: None, depth: 0, version })
    }

    /// Follows the rest of a path inside `data`.
    fn descend(&self, mut data: Data, rest: &[&str]) -> Result<Item, Rejection> {
        let mut rest = rest.to_vec();
        while !rest.is_empty() {
            let full = join(&data.path, &rest.join("/"));
            if !data.format.is_some_and(Format::is_archive) {
                return Err(not_found(&full));
            }
            let (listing, converted) = self.listing(&data)?;
            let found = (1..=rest.len()).rev().find_map(|k| listing.by_path.get(&rest[..k].join("/")).map(|&i| (i, k)));
            let Some((i, k)) = found else {
                let prefix = rest.join("/");
                let below = format!("{prefix}/");
                if listing.leaves.iter().any(|l| l.path.starts_with(&below)) {
                    return Ok(Item::Virtual { path: full, container: data, prefix });
                }
                return Err(not_found(&full));
            };
            let leaf = &listing.leaves[i];
            let leaf_path = join(&data.path, &rest[..k].join("/"));
            match (leaf.source, converted) {
                (LeafSource::Asset(index), Some(converted)) if k == rest.len() => {
                    return Ok(Item::Asset { path: leaf_path, container: data, index, converted });
                }
                (LeafSource::Asset(_), _) => return Err(not_found(&full)),
                (LeafSource::Entry(index), _) => {
                    data = self.open_entry(&data, leaf, index, leaf_path)?;
                    rest.drain(..k);
                }
            }
        }
        Ok(Item::Data(data))
    }

    /// An archive entry's item, its bytes not read yet (see [`Tree::bytes`]); an entry declared larger than
    /// [`crate::limits::Limits::max_entry_size`] is refused before anything is read.
    fn open_entry(&self, container: &Data, leaf: &Leaf, index: usize, path: String) -> Result<Data, Rejection> {
        let format = container.format.ok_or_else(|| not_found(&path))?;
        crate::registry::check_depth(format, &container.name, container.depth + 1).map_err(|e| self.unreadable(&e))?;
        let max = crate::limits::current().max_entry_size;
        if leaf.size > max {
            let why =
                format!("`{}` is {} bytes, more than the {max} relic reads of one entry", shown(&path), leaf.size);
            return Err(Rejection::new(413, why));
        }
        // As `relic convert` of an archive file: the archive's bytes are held for as long as the entry's
        // options live, so they may read other entries when asked (a model's textures in its GRF).
        let options = match &container.bytes {
            Bytes::Sliced(archive) => Arc::clone(archive).files().map(|files| ConvertOptions {
                nearby: container.options.nearby.clone().with_archive(files),
                ..container.options.clone()
            }),
            _ => format.codec.entry_options_shared(&self.bytes(container)?, &container.options),
        };
        let mut data = Data {
            path,
            name: leaf.name.clone(),
            disk: None,
            format: leaf.format,
            bytes: Bytes::Entry { container: Arc::new(container.clone()), index },
            size: leaf.size,
            // Its stored name, as `relic convert` gives it: what an ACT finds its SPR in the same archive by.
            options: {
                let options = options.unwrap_or_else(|| container.options.clone());
                ConvertOptions { nearby: options.nearby.clone().with_entry_name(&leaf.name), ..options }
            },
            record: leaf.record.clone(),
            depth: container.depth + 1,
            version: container.version.clone(),
        };
        // An archive read in slices listed its entries by name; an entry opened is identified by its bytes
        // as any other (a `.bmp` is a texture by its magic), read once and cached.
        if matches!(container.bytes, Bytes::Sliced(_)) {
            let bytes = self.bytes(&data)?;
            data.format = registry::sniff_sized(&bytes, &leaf.name, leaf.size).map(|(f, _)| f);
        }
        Ok(data)
    }

    /// A Ragnarok body ACT drawn with the head ACT at `head` (another item; its SPR the item of the same
    /// path ending `.spr`), as `relic convert --with` draws it: the body's item, converted and cached apart.
    pub(super) fn with_head(&self, mut data: Data, head: &str) -> Result<Data, Rejection> {
        let is_act = |d: &Data| d.format.is_some_and(|f| f.id == crate::ragnarok::act::FORMAT_ID);
        if !is_act(&data) {
            return Err(Rejection::bad("`with` is a head drawn over a Ragnarok ACT: this item is none"));
        }
        let Item::Data(head_data) = self.resolve(head)? else {
            return Err(Rejection::bad(format!("`with`: `{}` is not a file", shown(head))));
        };
        if !is_act(&head_data) {
            return Err(Rejection::bad(format!("`with`: `{}` is not a Ragnarok ACT", shown(head))));
        }
        let stem = head.rsplit_once('.').map_or(head, |(s, _)| s);
        let spr = ["spr", "SPR", "Spr"]
            .iter()
            .find_map(|ext| match self.resolve(&format!("{stem}.{ext}")) {
                Ok(Item::Data(d)) => Some(d),
                _ => None,
            })
            .ok_or_else(|| Rejection::new(404, format!("`with`: no sprite `{}.spr` beside the head", shown(stem))))?;
        let files = crate::ragnarok::act::WithFiles {
            name: head.to_string(),
            main: self.bytes(&head_data)?.to_vec(),
            companion: self.bytes(&spr)?.to_vec(),
        };
        data.options
            .update_settings(|head: &mut crate::ragnarok::act::HeadSettings| head.with_files = Some(Arc::new(files)));
        // Another key: the body drawn alone stays cached as it is.
        data.version = format!("{}\0with\0{head}\0{}\0{}", data.version, head_data.version, spr.version);
        Ok(data)
    }

    /// `data` drawn with palettes picked among the items, as `relic convert --palette` (`main`: the sprite's
    /// own, a body's) and `--head-palette` (`head`: the head of `with`); each a palette file `--palette`
    /// reads (a Ragnarok `.pal`, PALS, JASC-PAL, …).
    pub(super) fn with_palettes(
        &self,
        mut data: Data,
        main: Option<&str>,
        head: Option<&str>,
    ) -> Result<Data, Rejection> {
        // A palette is a few KiB: a bigger file is no palette, and is not read whole to find out.
        const MAX_PALETTE_BYTES: u64 = 64 * 1024;
        let mut read = |key: &str, path: &str| -> Result<(String, Vec<u8>), Rejection> {
            let Item::Data(picked) = self.resolve(path)? else {
                return Err(Rejection::bad(format!("`{key}`: `{}` is not a file", shown(path))));
            };
            if picked.size > MAX_PALETTE_BYTES {
                return Err(Rejection::bad(format!("`{key}`: `{}` is larger than a palette", shown(path))));
            }
            let bytes = self.bytes(&picked)?.to_vec();
            crate::ragnarok::spr::convert::palette_file(&bytes)
                .map_err(|e| Rejection::bad(format!("`{key}`: `{}`: {e}", shown(path))))?;
            // Another key: the sprite in each palette is converted and cached apart.
            data.version = format!("{}\0{key}\0{path}\0{}", data.version, picked.version);
            Ok((path.to_string(), bytes))
        };
        let main = main.map(|p| read("palette", p)).transpose()?;
        let with = head.map(|p| read("head_palette", p)).transpose()?;
        let picked = Arc::new(crate::ragnarok::act::PickedPalettes { main, with });
        data.options
            .update_settings(|head: &mut crate::ragnarok::act::HeadSettings| head.picked_palettes = Some(picked));
        Ok(data)
    }

    /// What an item converts to (cached).
    pub(super) fn converted(&self, data: &Data) -> Outcome<Arc<Converted>> {
        self.conversions.get(&data.key(), || {
            let bytes = self.bytes(data).map_err(|r| r.message)?;
            let converted = convert(data, &bytes).map_err(|e| self.message(&e))?;
            whole(data, &bytes)?;
            Ok(Arc::new(converted))
        })
    }

    /// Whether a container lists its converted files (a record container whose conversion makes several).
    fn lists_assets(&self, data: &Data) -> Option<Arc<Converted>> {
        let format = data.format?;
        if !format.is_archive() || !format.codec_for(&data.name).converts_whole() {
            return None;
        }
        self.converted(data).ok().filter(|c| c.assets.len() > 1)
    }

    /// A container's members (cached), and its conversion when it lists converted files.
    pub(super) fn listing(&self, data: &Data) -> Result<(Arc<Listing>, Option<Arc<Converted>>), Rejection> {
        let converted = self.lists_assets(data);
        let listing = self
            .listings
            .get(&data.key(), || {
                count(&self.stats.listings_made);
                if let Bytes::Sliced(archive) = &data.bytes {
                    return Ok(sliced_listing(archive.as_ref()));
                }
                let bytes = self.bytes(data).map_err(|r| r.message)?;
                let listing = build_listing(data, &bytes, converted.as_deref())?;
                whole(data, &bytes)?;
                Ok(listing)
            })
            .map_err(|e| Rejection::new(422, e))?;
        Ok((listing, converted))
    }

    /// The children of an item, one level.
    pub(super) fn children(&self, item: &Item) -> Result<Vec<Child>, Rejection> {
        match item {
            Item::Folder { path } => Ok(self.folder_children(path)),
            Item::Data(data) if data.format.is_some_and(Format::is_archive) => {
                let (listing, _) = self.listing(data)?;
                Ok(level(&listing, &data.path, ""))
            }
            Item::Virtual { container, prefix, .. } => {
                let (listing, _) = self.listing(container)?;
                Ok(level(&listing, &container.path, prefix))
            }
            Item::Data(_) | Item::Asset { .. } => Ok(Vec::new()),
        }
    }

    /// A folder's subfolders and the files relic knows, folders first, by name; dot files, names an item
    /// path cannot hold and what the volume leaves out (links that lead outside the root) are left out.
    fn folder_children(&self, path: &str) -> Vec<Child> {
        let mut out = Vec::new();
        for (name, node) in self.volume.list(path) {
            let child_path = join(path, &name);
            if name.starts_with('.') || item_path(&child_path).is_err() {
                continue;
            }
            match node {
                Node::Folder => out.push(Child {
                    name,
                    path: child_path,
                    kind: "folder",
                    format: None,
                    size: None,
                    expandable: true,
                    record: None,
                }),
                Node::File { len, .. } => {
                    let Some(head) = self.volume.head(&child_path, SNIFF_BYTES) else { continue };
                    let Some((format, _)) = registry::sniff_sized(&head, &name, len) else { continue };
                    out.push(Child {
                        name,
                        path: child_path,
                        kind: kind_of(format),
                        format: Some(format.id),
                        size: Some(len),
                        expandable: format.is_archive(),
                        record: None,
                    });
                }
            }
        }
        out.sort_by(|a, b| {
            (a.kind != "folder", a.name.to_lowercase(), &a.name).cmp(&(
                b.kind != "folder",
                b.name.to_lowercase(),
                &b.name,
            ))
        });
        out
    }
}

/// Refuses what was made of bytes whose file was cut short while they were read (the guard gave zeros past
/// the cut): the file changed, and asking again reads it as it is now.
fn whole(data: &Data, bytes: &Source) -> Outcome<()> {
    if bytes.truncated() {
        return Err(format!("`{}` {}", shown(&data.path), super::cache::CUT_SHORT));
    }
    Ok(())
}

/// Converts an item as `relic convert` does: a file on disk through `convert_at` (it may read the files
/// beside it), an entry through `convert` with its archive's options.
fn convert(data: &Data, bytes: &[u8]) -> crate::Result<Converted> {
    let format = data.format.ok_or_else(|| Error::Unsupported("not a format relic knows".into()))?;
    let codec = format.codec_for(&data.name);
    let notes = Arc::new(Mutex::new(Vec::new()));
    let options = ConvertOptions { notes: Arc::clone(&notes), ..data.options.clone() };
    let assets = match &data.disk {
        Some(path) => codec.convert_at(bytes, path, &options)?,
        None => codec.convert(bytes, &options)?,
    };
    let mut notes = notes.lock().map(|n| n.clone()).unwrap_or_default();
    notes.sort();
    notes.dedup();
    Ok(Converted { assets, notes })
}

/// Lists an archive read in slices: its entries identified by their names' extensions, the first format
/// each names (reading the head of each would read every entry of a gigabyte archive).
fn sliced_listing(archive: &dyn SlicedArchive) -> Arc<Listing> {
    let leaves = archive
        .entries()
        .into_iter()
        .enumerate()
        .map(|(i, entry)| {
            let format = registry::named_as(&entry.name).first().copied();
            Leaf {
                kind: format.map_or("file", kind_of),
                path: entry.path,
                name: entry.name,
                size: entry.size,
                format,
                source: LeafSource::Entry(i),
                record: entry.record,
            }
        })
        .collect();
    index_leaves(leaves)
}

/// Lists a container: its converted files, or its entries (each identified from its first bytes, as `ls`
/// does). Paths that repeat get `~2`, `~3`, … so that each leaf has its own.
fn build_listing(data: &Data, bytes: &[u8], converted: Option<&Converted>) -> Outcome<Arc<Listing>> {
    let mut leaves = Vec::new();
    if let Some(converted) = converted {
        let stem = data.stem();
        for (i, named) in converted.assets.iter().enumerate() {
            leaves.push(Leaf {
                path: asset_file_name(named, &stem),
                name: String::new(),
                size: asset_size(&named.asset) as u64,
                format: None,
                kind: asset_kind(&named.asset),
                source: LeafSource::Asset(i),
                record: None,
            });
        }
    } else {
        let format = data.format.ok_or("not an archive")?;
        let entries = crate::registry::archive_entries(format, bytes, &data.name).map_err(|e| e.to_string())?;
        for (i, entry) in entries.iter().enumerate() {
            let head = entry.data.head(SNIFF_BYTES).unwrap_or_default();
            let format = registry::sniff_sized(&head, &entry.name, entry.size).map(|(f, _)| f);
            let kind = match format {
                Some(f) => kind_of(f),
                None => super::preview::media_type(&head).map_or("file", |(kind, _)| kind),
            };
            leaves.push(Leaf {
                path: entry.path.to_string(),
                name: entry.name.to_string(),
                size: entry.size,
                format,
                kind,
                source: LeafSource::Entry(i),
                record: entry.record.as_deref().cloned(),
            });
        }
    }
    Ok(index_leaves(leaves))
}

/// A listing of `leaves`: paths that repeat get `~2`, `~3`, … so that each leaf has its own.
fn index_leaves(mut leaves: Vec<Leaf>) -> Arc<Listing> {
    let mut by_path = HashMap::with_capacity(leaves.len());
    for (i, leaf) in leaves.iter_mut().enumerate() {
        let mut n = 1;
        let base = leaf.path.clone();
        while by_path.contains_key(&leaf.path) {
            n += 1;
            leaf.path = format!("{base}~{n}");
        }
        by_path.insert(leaf.path.clone(), i);
    }
    Arc::new(Listing { leaves, by_path })
}

/// The children of `prefix` (`""`: the top) in a container at item path `container`: leaves directly in it,
/// and the folders their paths make.
fn level(listing: &Listing, container: &str, prefix: &str) -> Vec<Child> {
    let below = if prefix.is_empty() { String::new() } else { format!("{prefix}/") };
    let mut folders: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut files = Vec::new();
    for leaf in &listing.leaves {
        let Some(rest) = leaf.path.strip_prefix(below.as_str()) else { continue };
        match rest.split_once('/') {
            Some((folder, _)) => {
                // A leaf with the folder's own path wins (it is what the path resolves to).
                if seen.insert(folder.to_string()) && !listing.by_path.contains_key(&format!("{below}{folder}")) {
                    folders.push(folder.to_string());
                }
            }
            None => files.push(Child {
                name: rest.to_string(),
                path: join(container, &leaf.path),
                kind: leaf.kind,
                format: leaf.format.map(|f| f.id),
                size: Some(leaf.size),
                expandable: leaf.format.is_some_and(Format::is_archive),
                record: leaf.record.clone(),
            }),
        }
    }
    let mut out: Vec<Child> = folders
        .into_iter()
        .map(|name| Child {
            path: join(container, &format!("{below}{name}")),
            name,
            kind: "folder",
            format: None,
            size: None,
            expandable: true,
            record: None,
        })
        .collect();
    out.extend(files);
    out
}

/// Roughly how many bytes an asset holds (for the cache's budget).
pub(super) fn asset_size(asset: &Asset) -> usize {
    use crate::asset::Pixels;
    let image = |img: &crate::asset::Image| {
        img.frames
            .iter()
            .map(|f| match &f.pixels {
                Pixels::Rgba8(p) | Pixels::Indexed(p) => p.len(),
                Pixels::Gray16(p) => p.len() * 2,
            })
            .sum::<usize>()
    };
    match asset {
        Asset::Image(img) => image(img),
        Asset::Sound(s) => s.data.len(),
        Asset::Scene(scene) => {
            let prims: usize = scene
                .meshes
                .iter()
                .flat_map(|m| &m.primitives)
                .map(|p| p.positions.len() * 48 * (1 + p.morph_targets.len()) + p.indices.len() * 4)
                .sum();
            prims + scene.textures.iter().map(|t| image(&t.image)).sum::<usize>() + scene.nodes.len() * 128
        }
        Asset::Document(d) => {
            json_size(&d.value)
                + d.tables.iter().map(|t| t.rows.iter().flatten().map(String::len).sum::<usize>()).sum::<usize>()
        }
        Asset::Text(t) => t.text.len(),
        Asset::Binary(b) => b.bytes.len(),
    }
}

pub(super) fn json_size(value: &serde_json::Value) -> usize {
    use serde_json::Value;
    match value {
        Value::String(s) => s.len() + 8,
        Value::Array(a) => 8 + a.iter().map(json_size).sum::<usize>(),
        Value::Object(o) => 8 + o.iter().map(|(k, v)| k.len() + json_size(v)).sum::<usize>(),
        _ => 8,
    }
}

fn converted_size(c: &Converted) -> usize {
    256 + c.assets.iter().map(|a| asset_size(&a.asset)).sum::<usize>()
}
