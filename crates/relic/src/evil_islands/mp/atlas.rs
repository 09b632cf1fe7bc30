//! Finding a map's texture atlases, `<map>NNN.mmp` (three digits, from 000): in `--textures` (a folder,
//! searched recursively, or a RES archive such as the game's `textures.res`), else in the folder of the
//! file being converted. Names are compared case-insensitively, by file name only (folders inside the
//! archive or below the folder do not matter). Figures look their texture up here too
//! (`evil_islands::model`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::asset::Image;
use crate::error::Result;
use crate::evil_islands::{mmp, res};

/// Where atlases are looked up.
pub enum AtlasSource {
    /// Files by lower-cased file name.
    Files(BTreeMap<String, PathBuf>),
    /// A RES archive's bytes.
    Res(crate::source::Source),
    /// Files read by name on demand (the folder of a map that is not on disk: the browser's files).
    Lookup(std::sync::Arc<dyn crate::registry::FileLookup>),
    None,
}

fn base_name(name: &str) -> String {
    name.rsplit(['/', '\\']).next().unwrap_or(name).to_lowercase()
}

impl AtlasSource {
    /// `--textures` when given (a folder or a RES archive), else the folder `beside` (when known).
    pub fn open(textures: Option<&Path>, beside: Option<&Path>) -> Result<AtlasSource> {
        match textures {
            Some(p) if p.is_dir() => Ok(AtlasSource::Files(folder(p, true))),
            Some(p) => {
                let source = crate::source::open(p)?;
                res::parse(&source).map_err(|e| e.in_file(p))?;
                Ok(AtlasSource::Res(source))
            }
            None => Ok(beside.map_or(AtlasSource::None, |dir| AtlasSource::Files(folder(dir, false)))),
        }
    }

    /// The bytes of the file called `name` (any case), if there is one.
    pub fn bytes(&self, name: &str) -> Option<Vec<u8>> {
        let key = base_name(name);
        match self {
            AtlasSource::Files(files) => crate::source::read(files.get(&key)?).ok(),
            AtlasSource::Res(source) => {
                let archive = res::parse(source).ok()?;
                let i = (0..archive.len()).find(|&i| {
                    base_name(&crate::codec::text::decode(crate::codec::text::CP1251, archive.name(i))) == key
                })?;
                Some(archive.data(i).to_vec())
            }
            AtlasSource::Lookup(files) => files.read(&key),
            AtlasSource::None => None,
        }
    }

    /// The decoded atlases `atlases` of map `map` that are found, and the names of those that are not (or
    /// do not decode).
    pub fn load(&self, map: &str, atlases: impl IntoIterator<Item = u16>) -> (BTreeMap<u16, Image>, Vec<String>) {
        let mut found = BTreeMap::new();
        let mut missing = Vec::new();
        for n in atlases {
            let name = super::terrain::atlas_name(map, n);
            let image = self.bytes(&name).and_then(|b| mmp::parse(&b).and_then(|m| mmp::to_image(&m, false)).ok());
            match image {
                Some(img) => {
                    found.insert(n, img);
                }
                None => missing.push(name),
            }
        }
        (found, missing)
    }
}

/// The files of a folder by lower-cased file name (recursively when asked); unreadable folders give none.
fn folder(dir: &Path, recursive: bool) -> BTreeMap<String, PathBuf> {
    let mut files = BTreeMap::new();
    add_folder(dir, recursive, &mut files);
    files
}

/// [`folder`]'s walk, on std alone so that reading a map needs no walker: links are not followed (a
/// `DirEntry`'s file type is the link's own), and entries are taken in name order so that the first of two
/// files with one lower-cased name is always the same one.
fn add_folder(dir: &Path, recursive: bool, files: &mut BTreeMap<String, PathBuf>) {
    let Ok(read) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<std::fs::DirEntry> = read.filter_map(std::result::Result::ok).collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let Ok(kind) = entry.file_type() else { continue };
        let key = entry.file_name().to_string_lossy().to_lowercase();
        if kind.is_file() && key.ends_with(".mmp") {
            files.entry(key).or_insert_with(|| entry.path());
        } else if kind.is_dir() && recursive {
            add_folder(&entry.path(), recursive, files);
        }
    }
}
