//! Where a model's textures come from, looked up the way the client looks them up (issue 24): the stored
//! path (relative to `data\texture\`), ASCII case ignored (the client's folding, which leaves CP949 text
//! alone), `\` and `/` alike, tried in this order:
//!
//! 1. the archive the model came from (`data\texture\<path>` in the same GRF), read lazily through
//!    [`crate::registry::Nearby::archive`];
//! 2. for a model file on disk, the client folder it sits in: the nearest ancestor folder named `data`
//!    (any case), then its `texture` folder (`X/data/model/a.rsm` finds `X/data/texture/…`);
//! 3. for a model file on disk, the archives lying beside it (`*.grf`, `*.gpf` in its folder, by name): a model
//!    kept with its textures' GRF (`goldberg_s_01.rsm2` beside `goldberg_textures.grf`) is textured with no
//!    option, by `relic convert` and `relic view` alike, and in the browser among the files opened (those
//!    read whole there); an archive that does not read is passed over;
//! 4. `--textures`: a folder (holding `data/texture/`, `texture/` or the paths themselves) or a GRF.
//!
//! Images are decoded by [`crate::ragnarok::texture`] (BMP magenta keyed transparent, TGA alpha as
//! stored). Stored paths with `..`, absolute paths or drive letters are never looked up on disk.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use super::scene::TextureLookup;
use crate::asset::{Decipher, EntryData, Image};
use crate::error::Result;
use crate::registry::{ConvertOptions, FileLookup, Format};
use crate::source::{self, Source};

/// The prefix RSM texture paths are relative to.
const TEXTURE_ROOT: &str = "data/texture/";
/// Where the client keeps sprites and their actions (`ro-act` finds a `.spr` there).
const SPRITE_ROOT: &str = "data/sprite/";
/// Where the client keeps models (a map, `ro-rsw`, finds its models there).
const MODEL_ROOT: &str = "data/model/";

/// A map's own files, directly in `data/` (`data/prontera.gnd`): what a map (`ro-rsw`) asks its archive for.
fn is_map_file(k: &str) -> bool {
    k.strip_prefix("data/")
        .is_some_and(|rest| !rest.contains('/') && [".gnd", ".gat", ".rsw"].iter().any(|ext| rest.ends_with(ext)))
}

/// Normalised lookup key: ASCII lower case, `/` separators, no leading `/`.
pub(crate) fn key(path: &str) -> String {
    path.replace('\\', "/").trim_start_matches('/').to_ascii_lowercase()
}

/// The texture as the client names it, for messages: `data\texture\<stored>`.
pub fn client_name(stored: &str) -> String {
    format!("data\\texture\\{}", stored.replace('/', "\\").trim_start_matches('\\'))
}

/// Decodes a texture: BMP with magenta keyed transparent, TGA with its own alpha
/// (see [`crate::ragnarok::texture::decode`]).
pub fn decode_texture(bytes: &[u8]) -> Result<Image> {
    crate::ragnarok::texture::decode(bytes)
}

/// Where an entry's bytes lie in the archive: [`EntryData`] with its slices as ranges, so that the index
/// outlives the borrow it was made from and reads from the kept archive later.
#[derive(Debug, Clone)]
enum Located {
    Stored(std::ops::Range<usize>),
    Zlib {
        packed: std::ops::Range<usize>,
        size: u64,
        format: &'static str,
        offset: u64,
    },
    Enciphered {
        stored: std::ops::Range<usize>,
        decipher: Decipher,
        packed_len: usize,
        size: u64,
        format: &'static str,
        offset: u64,
    },
}

/// `part`'s range inside `base`, if it lies there (it does for entries stored in the archive).
fn range_in(base: &[u8], part: &[u8]) -> Option<std::ops::Range<usize>> {
    let start = (part.as_ptr() as usize).checked_sub(base.as_ptr() as usize)?;
    let end = start.checked_add(part.len())?;
    (end <= base.len()).then_some(start..end)
}

impl Located {
    fn of(base: &[u8], data: &EntryData<'_>) -> Option<Located> {
        Some(match *data {
            EntryData::Stored(s) => Located::Stored(range_in(base, s)?),
            EntryData::Zlib { packed, size, format, offset } => {
                Located::Zlib { packed: range_in(base, packed)?, size, format, offset }
            }
            EntryData::Enciphered { stored, decipher, packed_len, size, format, offset } => {
                Located::Enciphered { stored: range_in(base, stored)?, decipher, packed_len, size, format, offset }
            }
            EntryData::Unsupported(_) => return None,
        })
    }

    fn data<'a>(&self, base: &'a [u8]) -> Option<EntryData<'a>> {
        Some(match self {
            Located::Stored(r) => EntryData::Stored(base.get(r.clone())?),
            Located::Zlib { packed, size, format, offset } => {
                EntryData::Zlib { packed: base.get(packed.clone())?, size: *size, format, offset: *offset }
            }
            Located::Enciphered { stored, decipher, packed_len, size, format, offset } => EntryData::Enciphered {
                stored: base.get(stored.clone())?,
                decipher: *decipher,
                packed_len: *packed_len,
                size: *size,
                format,
                offset: *offset,
            },
        })
    }
}

/// An archive kept open, its entries read on demand by name (a GRF for its own models, or `--textures`).
/// The index of names is made on the first read (one pass over the table), so an archive whose entries
/// never ask costs nothing; each read inflates one entry, its sizes checked against the limits first.
pub struct ArchiveFiles {
    source: Arc<Source>,
    format: &'static Format,
    label: String,
    /// Only names under these (normalised) prefixes are indexed: a client GRF holds some 500,000 entries,
    /// of which a model can only ask for those under `data/texture/` and an action (`ro-act`) for its
    /// sprite under `data/sprite/`.
    prefixes: &'static [&'static str],
    index: OnceLock<HashMap<String, Located>>,
}

impl std::fmt::Debug for ArchiveFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArchiveFiles").field("format", &self.format.id).field("label", &self.label).finish()
    }
}

impl ArchiveFiles {
    /// The texture entries (`data\texture\…`) of the archive a model came from, its sprite entries
    /// (`data\sprite\…`, for actions), its models (`data\model\…`) and map files (`data\x.gnd`, for
    /// maps); `label` names the archive in messages.
    pub fn new(source: Arc<Source>, format: &'static Format, label: impl Into<String>) -> Self {
        ArchiveFiles {
            source,
            format,
            label: label.into(),
            prefixes: &[TEXTURE_ROOT, SPRITE_ROOT, MODEL_ROOT],
            index: OnceLock::new(),
        }
    }

    /// Every entry of an archive (`--textures`, whose textures may lie anywhere).
    pub fn whole(source: Arc<Source>, format: &'static Format, label: impl Into<String>) -> Self {
        ArchiveFiles { prefixes: &[""], ..ArchiveFiles::new(source, format, label) }
    }

    fn index(&self) -> &HashMap<String, Located> {
        self.index.get_or_init(|| {
            let mut index = HashMap::new();
            let Some(Ok(entries)) = self.format.codec.entries(&self.source, &self.label) else { return index };
            for e in &entries {
                let k = key(&e.name);
                if !self.prefixes.iter().any(|p| k.starts_with(p)) && !is_map_file(&k) {
                    continue;
                }
                if let Some(at) = Located::of(&self.source, &e.data) {
                    // The first entry of a name wins, as in the client.
                    index.entry(k).or_insert(at);
                }
            }
            index
        })
    }
}

impl FileLookup for ArchiveFiles {
    fn read(&self, name: &str) -> Option<Vec<u8>> {
        let data = self.index().get(&key(name))?.data(&self.source)?;
        data.bytes().ok().map(std::borrow::Cow::into_owned)
    }

    fn describe(&self) -> String {
        self.label.clone()
    }
}

/// `relative` (`/` separated) under `dir`, each part matched exactly or else ignoring ASCII case; `None`
/// for a part that could leave `dir` (`..`, a root, a drive).
pub(crate) fn find_ci(dir: &Path, relative: &str) -> Option<PathBuf> {
    let mut at = dir.to_path_buf();
    for part in relative.split('/').filter(|p| !p.is_empty() && *p != ".") {
        if part == ".." || part.contains(':') {
            return None;
        }
        let exact = at.join(part);
        at = if exact.exists() {
            exact
        } else {
            std::fs::read_dir(&at)
                .ok()?
                .flatten()
                .find(|e| e.file_name().to_str().is_some_and(|n| n.eq_ignore_ascii_case(part)))?
                .path()
        };
    }
    Some(at)
}

/// The client's `data/texture` folder for a model file: under the nearest ancestor folder named `data`.
pub fn client_texture_folder(model: &Path) -> Option<PathBuf> {
    client_texture_folder_within(model, None)
}

/// [`client_texture_folder`] looked for at `confine` and below only ([`crate::registry::Nearby::confine`]: the walk up
/// stops at `relic view`'s root, and a folder reached through a link is not looked in).
pub fn client_texture_folder_within(model: &Path, confine: Option<&Path>) -> Option<PathBuf> {
    let data = model
        .ancestors()
        .skip(1)
        .take_while(|a| crate::paths::may_look_in(confine, a))
        .find(|a| a.file_name().is_some_and(|n| n.eq_ignore_ascii_case("data")))?;
    find_ci(data, "texture").filter(|p| p.is_dir() && crate::paths::may_look_in(confine, p))
}

/// One place textures are looked for.
enum Place {
    /// The model's own archive; names under `data/texture/`.
    Archive(Arc<dyn FileLookup>),
    /// A `data/texture` folder; names as stored. Read as [`crate::registry::Nearby::confine`] allows: a texture
    /// reached through a link below `relic view`'s root is refused, and the refusal is the note given.
    ClientFolder { dir: PathBuf, confine: Option<PathBuf>, refused: Arc<Mutex<Vec<String>>> },
    /// `--textures` folder: `data/texture/<name>`, `texture/<name>` or `<name>`.
    Folder(PathBuf),
    /// `--textures` archive: the same three names.
    OtherArchive(Arc<dyn FileLookup>),
    /// An archive beside the model on disk: the same three names.
    Beside(Arc<dyn FileLookup>),
}

impl Place {
    fn read(&self, stored: &str) -> Option<Vec<u8>> {
        let k = key(stored);
        let under = [format!("{TEXTURE_ROOT}{k}"), format!("texture/{k}"), k.clone()];
        match self {
            Place::Archive(a) => a.read(&under[0]),
            Place::OtherArchive(a) | Place::Beside(a) => under.iter().find_map(|n| a.read(n)),
            Place::ClientFolder { dir, confine, refused } => {
                let found = find_ci(dir, &k).filter(|p| p.is_file())?;
                match crate::paths::read_found(confine.as_deref(), &found) {
                    Ok(bytes) => bytes,
                    Err(e) => {
                        if matches!(e, crate::Error::Refused(_)) {
                            refused.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(format!(
                                "{}: texture '{}' not read: {e}",
                                super::FORMAT_ID,
                                client_name(stored)
                            ));
                        }
                        None
                    }
                }
            }
            Place::Folder(dir) => {
                under.iter().find_map(|n| find_ci(dir, n).filter(|p| p.is_file())).and_then(|p| source::read(&p).ok())
            }
        }
    }

    /// Whether the place holds `stored`: a folder is asked for the file, without reading it.
    fn holds(&self, stored: &str) -> bool {
        let k = key(stored);
        match self {
            Place::ClientFolder { dir, .. } => find_ci(dir, &k).is_some_and(|p| p.is_file()),
            Place::Folder(dir) => [format!("{TEXTURE_ROOT}{k}"), format!("texture/{k}"), k.clone()]
                .iter()
                .any(|n| find_ci(dir, n).is_some_and(|p| p.is_file())),
            Place::Archive(_) | Place::OtherArchive(_) | Place::Beside(_) => self.read(stored).is_some(),
        }
    }

    fn describe(&self) -> String {
        match self {
            Place::Archive(a) => a.describe(),
            Place::OtherArchive(a) => format!("--textures {}", a.describe()),
            Place::Beside(a) => format!("{} (beside it)", a.describe()),
            Place::ClientFolder { dir, .. } => dir.display().to_string(),
            Place::Folder(dir) => format!("--textures {}", dir.display()),
        }
    }
}

/// What became of one texture.
pub enum Found {
    Image(Image),
    /// Found, but not an image relic decodes (the error).
    Undecodable(String),
    Missing,
}

/// Every place a model's textures are looked for, in the client's order.
pub struct TextureSources {
    places: Vec<Place>,
}

impl TextureSources {
    /// The places for a model: its archive (`opts.nearby.archive()`), its client folder and the archives beside
    /// it (when `path` is a file on disk) and `--textures`.
    pub fn for_model(path: Option<&Path>, opts: &ConvertOptions) -> Result<Self> {
        Self::places(path, opts, true)
    }

    /// The places `relic check` looks in for a model on disk: its client folder, not the archives beside it
    /// (what a file needs and its folder lacks).
    pub(super) fn for_check(path: &Path) -> Result<Self> {
        Self::places(Some(path), &ConvertOptions::default(), false)
    }

    fn places(path: Option<&Path>, opts: &ConvertOptions, with_beside: bool) -> Result<Self> {
        let mut places = Vec::new();
        if let Some(a) = opts.nearby.archive() {
            places.push(Place::Archive(Arc::clone(a)));
        }
        let confine = opts.nearby.confine();
        if let Some(dir) = path.and_then(|p| client_texture_folder_within(p, confine)) {
            let refused = Arc::clone(&opts.notes);
            places.push(Place::ClientFolder { dir, confine: confine.map(Path::to_path_buf), refused });
        }
        match (path, opts.nearby.folder()) {
            (Some(model), _) if with_beside => {
                // An archive beside it that is also `--textures` is looked in once, as `--textures`.
                let given = opts.textures.as_deref().and_then(|t| std::fs::canonicalize(t).ok());
                places.extend(archives_beside(model, given.as_deref(), confine).into_iter().map(Place::Beside));
            }
            (None, Some(folder)) if with_beside => {
                places.extend(archives_among(folder.as_ref()).into_iter().map(Place::Beside))
            }
            _ => {}
        }
        if let Some(t) = &opts.textures {
            places.push(open_place(t)?);
        }
        Ok(TextureSources { places })
    }

    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }

    /// The first place holding `stored`, decoded.
    pub fn find(&self, stored: &str) -> Found {
        let Some(bytes) = self.places.iter().find_map(|p| p.read(stored)) else { return Found::Missing };
        match decode_texture(&bytes) {
            Ok(image) => Found::Image(image),
            Err(e) => Found::Undecodable(e.to_string()),
        }
    }

    /// Whether some place holds `stored` (files on disk are not read; archive entries are, not decoded).
    pub fn exists(&self, stored: &str) -> bool {
        self.places.iter().any(|p| p.holds(stored))
    }

    /// The places, for messages: `the GRF, /x/data/texture, --textures t.grf`.
    pub fn describe(&self) -> String {
        if self.places.is_empty() {
            return "nowhere: the file is in no archive and no client folder (`data` above it); give --textures \
                    with the game's folder or GRF"
                .into();
        }
        let places = self.places.iter().map(Place::describe).collect::<Vec<_>>().join(", ");
        // Only archives that happen to lie beside it: the file is still in no archive and no client folder.
        if self.places.iter().all(|p| matches!(p, Place::Beside(_))) {
            return format!(
                "{places}; the file is in no archive and no client folder: give --textures with the game's \
                 folder or GRF"
            );
        }
        places
    }

    /// The note for a texture not found.
    pub fn missing_note(&self, stored: &str) -> String {
        format!("{}: texture '{}' not found (looked in {})", super::FORMAT_ID, client_name(stored), self.describe())
    }
}

impl TextureLookup for TextureSources {
    fn image(&self, path: &str) -> Option<Image> {
        match self.find(path) {
            Found::Image(image) => Some(image),
            Found::Undecodable(_) | Found::Missing => None,
        }
    }
}

/// The archives in the folder of a model on disk (`*.grf`, `*.gpf`, ASCII case ignored), by name, each
/// opened as `--textures` would be; one that does not read is passed over (it is not the model's fault).
fn archives_beside(model: &Path, but: Option<&Path>, confine: Option<&Path>) -> Vec<Arc<dyn FileLookup>> {
    let Some(dir) = model.parent() else { return Vec::new() };
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    if !crate::paths::may_look_in(confine, dir) {
        return Vec::new();
    }
    let Ok(read) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut found: Vec<PathBuf> = read
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or_default();
            (ext.eq_ignore_ascii_case("grf") || ext.eq_ignore_ascii_case("gpf")) && p.is_file()
        })
        .filter(|p| but.is_none() || std::fs::canonicalize(p).ok().as_deref() != but)
        // Under `relic view`'s root an archive beside it that is a link (it may lead anywhere) is passed over.
        .filter(|p| crate::paths::may_look_in(confine, p))
        .collect();
    found.sort();
    found.into_iter().filter_map(|p| open_archive(&p, "beside the model").ok()).collect()
}

/// The archives among the files of a model's folder that is not on disk (the browser viewer's files opened:
/// [`crate::registry::Nearby::folder`]), as [`archives_beside`] finds them on disk. Each is read whole, so only
/// those its lookup gives whole (not an archive read in slices, 64 MiB and more) are looked in.
fn archives_among(folder: &dyn FileLookup) -> Vec<Arc<dyn FileLookup>> {
    let mut names: Vec<String> = folder
        .names()
        .into_iter()
        .filter(|n| {
            let ext = n.rsplit_once('.').map_or("", |(_, e)| e);
            ext.eq_ignore_ascii_case("grf") || ext.eq_ignore_ascii_case("gpf")
        })
        .collect();
    names.sort();
    let mut out: Vec<Arc<dyn FileLookup>> = Vec::new();
    for name in names {
        let Some(bytes) = folder.read(&name) else { continue };
        let source = Source::Owned(bytes);
        let Some(format) = crate::registry::sniff(&source, &name).map(|(f, _)| f).filter(|f| f.is_archive()) else {
            continue;
        };
        if !matches!(format.codec.entries(&source, &name), Some(Ok(_))) {
            continue;
        }
        out.push(Arc::new(ArchiveFiles::whole(Arc::new(source), format, name)));
    }
    out
}

/// `--textures` opened once per run: converting the models of an archive asks for it once per model, and
/// a GRF's table is indexed once (see [`open_archive`]).
fn open_place(path: &Path) -> Result<Place> {
    if path.is_dir() {
        return Ok(Place::Folder(path.to_path_buf()));
    }
    open_archive(path, "--textures").map(Place::OtherArchive)
}

/// Archives opened by [`open_archive`] kept at once (`--textures`, `--models` and the archives beside a
/// model: a viewer converting models of one folder asks for the same few again and again).
const KEPT_ARCHIVES: usize = 4;

/// An archive given on the command line (`--textures`, `--models`: `option` names it in messages) or lying
/// beside a model, its whole table indexed on the first read; the last [`KEPT_ARCHIVES`] opened are kept
/// for the rest of the run, keyed by path, size and modification time.
pub(crate) fn open_archive(path: &Path, option: &str) -> Result<Arc<dyn FileLookup>> {
    type Kept = Vec<(PathBuf, String, Arc<ArchiveFiles>)>;
    static KEPT: Mutex<Kept> = Mutex::new(Vec::new());
    let meta = std::fs::metadata(path).map_err(|e| crate::Error::io(path, e))?;
    let stamp = format!("{}@{:?}", meta.len(), meta.modified().ok());
    let mut kept = KEPT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, _, files)) = kept.iter().find(|(p, s, _)| p == path && *s == stamp) {
        return Ok(Arc::clone(files) as Arc<dyn FileLookup>);
    }
    let source = source::open(path)?;
    let format = crate::registry::sniff(&source, &path.to_string_lossy())
        .map(|(f, _)| f)
        .filter(|f| f.is_archive())
        .ok_or_else(|| {
            crate::Error::Refused(format!("{option} {}: neither a folder nor an archive relic reads", path.display()))
        })?;
    // Fail early on an archive that does not read, rather than report every texture missing.
    format.codec.entries(&source, &path.to_string_lossy()).transpose()?;
    let files = Arc::new(ArchiveFiles::whole(Arc::new(source), format, path.display().to_string()));
    kept.retain(|(p, _, _)| p != path);
    if kept.len() >= KEPT_ARCHIVES {
        kept.remove(0);
    }
    kept.push((path.to_path_buf(), stamp, Arc::clone(&files)));
    Ok(files)
}

/// Opens `--textures`: a folder, or an archive (a GRF).
pub fn open(path: &Path) -> Result<Box<dyn TextureLookup>> {
    Ok(Box::new(TextureSources { places: vec![open_place(path)?] }))
}
