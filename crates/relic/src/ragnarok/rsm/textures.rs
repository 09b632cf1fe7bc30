//! Texture sources for `relic convert x.rsm --textures DIR_OR_GRF`: the game's BMP/TGA textures, found by
//! their stored path (relative to `data\texture\`), case-insensitively and with `\` or `/`, in a folder or
//! a GRF archive, decoded, and with magenta made transparent as the game does.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::scene::TextureLookup;
use crate::asset::{Image, Pixels};
use crate::error::{Error, Result};
use crate::ragnarok::grf;
use crate::source::{self, Source};

/// The prefix RSM texture paths are relative to.
const TEXTURE_ROOT: &str = "data/texture/";

/// Normalised lookup key: lower case, `/` separators, no leading `/`.
fn key(path: &str) -> String {
    path.replace('\\', "/").trim_start_matches('/').to_lowercase()
}

/// Candidate keys for a stored texture path: under `data/texture/`, under `texture/`, and as given.
fn candidates(stored: &str) -> [String; 3] {
    let k = key(stored);
    [format!("{TEXTURE_ROOT}{k}"), format!("texture/{k}"), k]
}

/// Decodes a BMP or TGA and makes magenta texels transparent (the game's colour key: red and blue ≥ 0xFE,
/// green ≤ 0x03, to allow for the rounding of 16-bit sources).
pub fn decode_texture(bytes: &[u8]) -> Result<Image> {
    let mut image = crate::codec::raster::decode(bytes)?;
    for frame in &mut image.frames {
        if let Pixels::Rgba8(px) = &mut frame.pixels {
            for p in px.chunks_exact_mut(4) {
                if p[0] >= 0xFE && p[1] <= 0x03 && p[2] >= 0xFE {
                    p.copy_from_slice(&[0, 0, 0, 0]);
                }
            }
        }
    }
    Ok(image)
}

/// Textures in a folder: every file indexed by its lower-cased relative path.
pub struct FolderTextures {
    files: HashMap<String, PathBuf>,
}

impl FolderTextures {
    pub fn open(dir: &Path) -> Result<Self> {
        let mut files = HashMap::new();
        for entry in walkdir::WalkDir::new(dir).follow_links(false) {
            let entry = entry.map_err(|e| Error::Refused(format!("{}: {e}", dir.display())))?;
            if entry.file_type().is_file() {
                if let Ok(rel) = entry.path().strip_prefix(dir) {
                    files.insert(key(&rel.to_string_lossy()), entry.path().to_path_buf());
                }
            }
        }
        Ok(FolderTextures { files })
    }
}

impl TextureLookup for FolderTextures {
    fn image(&self, path: &str) -> Option<Image> {
        let file = candidates(path).iter().find_map(|k| self.files.get(k))?;
        let bytes = std::fs::read(file).ok()?;
        decode_texture(&bytes).ok()
    }
}

/// Textures in a GRF archive (memory-mapped; entries inflated on demand).
pub struct GrfTextures {
    source: Source,
}

impl GrfTextures {
    pub fn open(path: &Path) -> Result<Self> {
        let source = source::open(path)?;
        grf::parse(&source)?; // fail early on a file that is not a GRF
        Ok(GrfTextures { source })
    }
}

impl TextureLookup for GrfTextures {
    fn image(&self, path: &str) -> Option<Image> {
        let grf = grf::parse(&self.source).ok()?;
        let i = candidates(path).iter().find_map(|k| grf.find_ci(k))?;
        let bytes = grf.read(i).ok()?;
        decode_texture(&bytes).ok()
    }
}

/// Opens `--textures`: a folder, or a GRF archive.
pub fn open(path: &Path) -> Result<Box<dyn TextureLookup>> {
    if path.is_dir() {
        Ok(Box::new(FolderTextures::open(path)?))
    } else {
        Ok(Box::new(GrfTextures::open(path)?))
    }
}
