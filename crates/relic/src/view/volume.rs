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
        std::fs::File::open(real).ok()?.take(n as u64).read_to_end(&mut head).ok()?;
        Some(head)
    }

    fn open(&self, path: &str) -> Result<Opened, Rejection> {
        let real = self.real(path)?.ok_or_else(|| Rejection::new(404, format!("nothing at `{}`", shown(path))))?;
        source::open(&real).map(Opened::Bytes).map_err(|e| Rejection::new(422, self.message(&e)))
    }

    fn disk_path(&self, path: &str) -> Option<PathBuf> {
        self.real(path).ok().flatten()
    }

    fn message(&self, e: &Error) -> String {
        let text = e.to_string();
        let base = format!("{}{}", self.base().display(), std::path::MAIN_SEPARATOR);
        text.replace(&base, "")
    }
}
