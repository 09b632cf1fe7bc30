//! Where the files being viewed are: a [`Volume`] answers what lies at an item path outside any file (a
//! folder, a file), lists folders and opens files. [`DiskVolume`] is the disk under `relic view`'s root; the
//! browser build (`crates/relic-wasm`) gives the files a page was handed (dropped, picked) as another. Everything
//! inside a file (archive entries, nested archives, converted files) is the tree's, whatever the volume.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::request::{shown, Rejection};
use crate::error::Error;
use crate::source::{self, Source};

/// What lies at a path of a volume.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    Folder,
    /// A file: its length, and a version that changes when the file does (what is cached of it is keyed by
    /// it).
    File {
        len: u64,
        version: String,
    },
}

/// A file opened by a volume.
pub enum Opened {
    /// Its bytes, whole (mapped or read).
    Bytes(Source),
    /// An archive read in slices, never whole (a GRF of a gigabyte in the browser): its table is read, its
    /// entries are read when asked for.
    Sliced(Arc<dyn super::sliced::SlicedArchive>),
}

/// The files under a viewer's root. Paths are item paths already checked by [`super::request::item_path`]:
/// `/`-separated components below the root, `""` for the root itself.
pub trait Volume: Send + Sync {
    /// The root's name, shown in the page's title.
    fn name(&self) -> &str;
    /// Whether the root is a folder (else it is one file, at the path `""`).
    fn is_dir(&self) -> bool;
    /// What is at `path`: `Ok(None)` for nothing, a refusal for a path that leads outside the root (a link)
    /// or to something that is neither a file nor a folder.
    fn node(&self, path: &str) -> Result<Option<Node>, Rejection>;
    /// A folder's members: names and what they are. Members a volume does not show (dot files, links that
    /// lead outside) are left out.
    fn list(&self, path: &str) -> Vec<(String, Node)>;
    /// The first `n` bytes of a file (fewer when it is shorter), to identify it.
    fn head(&self, path: &str, n: usize) -> Option<Vec<u8>>;
    /// Opens a file.
    fn open(&self, path: &str) -> Result<Opened, Rejection>;
    /// The file on disk, when there is one: a conversion then finds the files beside it (a model's textures
    /// in its client folder), and raw downloads are read from it as they are sent.
    fn disk_path(&self, _path: &str) -> Option<PathBuf> {
        None
    }
    /// The folder on disk every file a conversion finds by itself must lie under, none reached through a
    /// link ([`crate::registry::Nearby::confine`]), when files are on disk.
    fn confine(&self) -> Option<PathBuf> {
        None
    }
    /// An error as the user sees it: one line, paths shown relative to the root.
    fn message(&self, e: &Error) -> String {
        e.to_string()
    }
}

/// The disk under a root (`relic view PATH`). Every path is followed component by component, each
/// canonicalized and required to stay under the root, so a symbolic link (or junction) that leads outside
/// is refused wherever it sits.
pub struct DiskVolume {
    /// Canonical.
    root: PathBuf,
    is_dir: bool,
    name: String,
}

impl DiskVolume {
    pub fn new(path: &Path) -> crate::Result<DiskVolume> {
        let canonical = std::fs::canonicalize(path).map_err(|e| Error::io(path, e))?;
        let meta = std::fs::metadata(&canonical).map_err(|e| Error::io(path, e))?;
        if !meta.is_dir() && !meta.is_file() {
            return Err(Error::Refused(format!("{}: neither a file nor a folder", path.display())));
        }
        let name = canonical.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into());
        Ok(DiskVolume { root: canonical, is_dir: meta.is_dir(), name })
    }

    /// The folder error messages are shown relative to.
    fn base(&self) -> &Path {
        if self.is_dir {
            &self.root
        } else {
            self.root.parent().unwrap_or(&self.root)
        }
    }

    /// The canonical path of an item on disk, checked to stay under the root.
    fn real(&self, path: &str) -> Result<Option<PathBuf>, Rejection> {
        if path.is_empty() {
            return Ok(Some(self.root.clone()));
        }
        if !self.is_dir {
            return Ok(None);
        }
        let Ok(real) = std::fs::canonicalize(self.root.join(path)) else { return Ok(None) };
        if !real.starts_with(&self.root) {
            return Err(Rejection::new(
                403,
                format!("refusing `{}`: it leads outside the folder being viewed", shown(path)),
            ));
        }
        Ok(Some(real))
    }
}

/// A file's version: its size and modification time (to the nanosecond where the system keeps it).
fn version_of(meta: &std::fs::Metadata) -> String {
    let modified = meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
    match modified {
        Some(t) => format!("{}@{}.{:09}", meta.len(), t.as_secs(), t.subsec_nanos()),
        None => format!("{}@?", meta.len()),
    }
}

fn node_of(meta: &std::fs::Metadata) -> Option<Node> {
    if meta.is_dir() {
        Some(Node::Folder)
    } else if meta.is_file() {
        Some(Node::File { len: meta.len(), version: version_of(meta) })
    } else {
        None
    }
}

impl Volume for DiskVolume {
    fn name(&self) -> &str {
        &self.name
    }

    fn is_dir(&self) -> bool {
        self.is_dir
    }

    fn node(&self, path: &str) -> Result<Option<Node>, Rejection> {
        let Some(real) = self.real(path)? else { return Ok(None) };
        let Ok(meta) = std::fs::metadata(&real) else { return Ok(None) };
        match node_of(&meta) {
            Some(node) => Ok(Some(node)),
            None => Err(Rejection::new(403, format!("refusing `{}`: not a regular file", shown(path)))),
        }
    }

    fn list(&self, path: &str) -> Vec<(String, Node)> {
        let Ok(Some(dir)) = self.real(path) else { return Vec::new() };
        let Ok(read) = std::fs::read_dir(dir) else { return Vec::new() };
        let mut out = Vec::new();
        for entry in read.flatten() {
            let Some(name) = entry.file_name().to_str().map(str::to_string) else { continue };
            let Ok(real) = std::fs::canonicalize(entry.path()) else { continue };
            if !real.starts_with(&self.root) {
                continue;
            }
            if let Some(node) = std::fs::metadata(&real).ok().as_ref().and_then(node_of) {
                out.push((name, node));
            }
        }
        out
    }

    fn head(&self, path: &str, n: usize) -> Option<Vec<u8>> {
        use std::io::Read;
        let real = self.real(path).ok()??;
        let mut head = Vec::with_capacity(n);
        // A regular file only: opening a FIFO by name would wait for a writer, maybe forever.
        let (file, _) = source::open_regular(&real).ok()?;
        file.take(n as u64).read_to_end(&mut head).ok()?;
        Some(head)
    }

    fn open(&self, path: &str) -> Result<Opened, Rejection> {
        let real = self.real(path)?.ok_or_else(|| Rejection::new(404, format!("nothing at `{}`", shown(path))))?;
        // Opened once no edit writes it (a later GRF append leaves the old table as it was; a header it rewrites
        // points past the map, refused as any bounds error).
        let _reading = crate::paths::lock_for_reading(&real).map_err(|e| Rejection::new(409, self.message(&e)))?;
        source::open(&real).map(Opened::Bytes).map_err(|e| Rejection::new(422, self.message(&e)))
    }

    fn disk_path(&self, path: &str) -> Option<PathBuf> {
        self.real(path).ok().flatten()
    }

    /// The root folder; for a single file, its folder (the files beside it, never a folder above).
    fn confine(&self) -> Option<PathBuf> {
        Some(self.base().to_path_buf())
    }

    fn message(&self, e: &Error) -> String {
        let text = e.to_string();
        let base = format!("{}{}", self.base().display(), std::path::MAIN_SEPARATOR);
        text.replace(&base, "")
    }
}

/// Archives at least this large are read in slices by a [`FileSet`] when their format allows it (a GRF):
/// their table when listed, each entry when shown.
pub const SLICED_FROM: u64 = 64 << 20;

/// The largest file a [`FileSet`] reads whole into memory (a browser tab's WebAssembly memory is 4 GiB at
/// most, and often less).
pub const MAX_WHOLE: u64 = 1 << 30;

/// One file of a [`FileSet`]: where its bytes are read from, and its version.
struct SetFile {
    bytes: Arc<dyn crate::source::RandomRead>,
    version: String,
}

/// Files given by path, read a range at a time: the files a browser page was dropped or picked
/// (`crates/relic-wasm` reads them with `FileReaderSync`), or files held in memory. Folders are the paths'
/// parents. One file given alone, at a path without `/`, is the root itself (as `relic view FILE`).
pub struct FileSet {
    name: String,
    single: bool,
    files: std::collections::BTreeMap<String, SetFile>,
    folders: std::collections::BTreeSet<String>,
    sliced_from: u64,
}

impl FileSet {
    /// The set of `files` (`/`-separated path, bytes, version: anything that changes when the file does),
    /// under a root folder named `name`. A path an item path could not hold (`..`, `\`, a control
    /// character) is left out, as a folder's listing leaves such names out; a path given as a file and as a
    /// folder (`a` and `a/b`) is refused.
    pub fn new(
        name: &str,
        files: Vec<(String, Arc<dyn crate::source::RandomRead>, String)>,
    ) -> Result<FileSet, String> {
        let mut set = std::collections::BTreeMap::new();
        let mut folders = std::collections::BTreeSet::new();
        for (path, bytes, version) in files {
            let Ok(path) = super::request::item_path(&path) else { continue };
            if path.is_empty() {
                continue;
            }
            let mut parent = path.as_str();
            while let Some((p, _)) = parent.rsplit_once('/') {
                folders.insert(p.to_string());
                parent = p;
            }
            set.insert(path, SetFile { bytes, version });
        }
        if let Some(clash) = set.keys().find(|p| folders.contains(p.as_str())) {
            return Err(format!("`{}` is given as a file and as a folder", shown(clash)));
        }
        let single = set.len() == 1 && folders.is_empty();
        let name = match (single, set.keys().next()) {
            (true, Some(path)) => path.clone(),
            _ => name.to_string(),
        };
        if single {
            set = set.into_values().map(|f| (String::new(), f)).collect();
        }
        Ok(FileSet { name, single, files: set, folders, sliced_from: SLICED_FROM })
    }

    /// Reads archives from `bytes` on in slices (see [`SLICED_FROM`]).
    pub fn sliced_from(mut self, bytes: u64) -> FileSet {
        self.sliced_from = bytes;
        self
    }

    fn file(&self, path: &str) -> Option<&SetFile> {
        if self.single != path.is_empty() {
            return None;
        }
        self.files.get(path)
    }
}

/// The name below `prefix` of a direct member (no `/` in the rest).
fn direct<'p>(path: &'p str, prefix: &str) -> Option<&'p str> {
    path.strip_prefix(prefix).filter(|rest| !rest.is_empty() && !rest.contains('/'))
}

impl Volume for FileSet {
    fn name(&self) -> &str {
        &self.name
    }

    fn is_dir(&self) -> bool {
        !self.single
    }

    fn node(&self, path: &str) -> Result<Option<Node>, Rejection> {
        if let Some(f) = self.file(path) {
            return Ok(Some(Node::File { len: f.bytes.len(), version: f.version.clone() }));
        }
        Ok((!self.single && (path.is_empty() || self.folders.contains(path))).then_some(Node::Folder))
    }

    fn list(&self, path: &str) -> Vec<(String, Node)> {
        if self.single {
            return Vec::new();
        }
        let prefix = if path.is_empty() { String::new() } else { format!("{path}/") };
        let mut out: Vec<(String, Node)> = Vec::new();
        // Ranges of the sorted maps: a folder's listing costs its own members, not every file given.
        for folder in self.folders.range(prefix.clone()..).take_while(|p| p.starts_with(prefix.as_str())) {
            if let Some(name) = direct(folder, &prefix) {
                out.push((name.to_string(), Node::Folder));
            }
        }
        for (p, f) in self.files.range(prefix.clone()..).take_while(|(p, _)| p.starts_with(prefix.as_str())) {
            if let Some(name) = direct(p, &prefix) {
                out.push((name.to_string(), Node::File { len: f.bytes.len(), version: f.version.clone() }));
            }
        }
        out
    }

    fn head(&self, path: &str, n: usize) -> Option<Vec<u8>> {
        let f = self.file(path)?;
        let n = usize::try_from(f.bytes.len()).map_or(n, |len| len.min(n));
        f.bytes.read_at(0, n).ok()
    }

    fn open(&self, path: &str) -> Result<Opened, Rejection> {
        let f = self.file(path).ok_or_else(|| Rejection::new(404, format!("nothing at `{}`", shown(path))))?;
        let len = f.bytes.len();
        if len >= self.sliced_from {
            let opened = super::sliced::open_sliced(Arc::clone(&f.bytes))
                .map_err(|e| Rejection::new(422, format!("`{}`: {e}", shown(path))))?;
            if let Some(archive) = opened {
                return Ok(Opened::Sliced(archive));
            }
        }
        if len > MAX_WHOLE {
            return Err(Rejection::new(
                413,
                format!(
                    "`{}` is {len} bytes: files of at most {MAX_WHOLE} bytes are read whole here, and this one's \
                     format is not read in slices",
                    shown(path)
                ),
            ));
        }
        let whole = usize::try_from(len).map_err(|_| Rejection::new(413, "too large"))?;
        let bytes = f.bytes.read_at(0, whole).map_err(|e| Rejection::new(422, format!("`{}`: {e}", shown(path))))?;
        Ok(Opened::Bytes(Source::Owned(bytes)))
    }
}
