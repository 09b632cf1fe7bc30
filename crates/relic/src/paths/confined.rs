//! Reads of the files a conversion finds by itself (a model's textures in its client folder, the files and
//! archives beside it, a map's models, a level's databases), kept under one folder when the caller sets one
//! ([`crate::convert_options::Nearby::confine`], `relic view`'s root): a file or folder above it is never
//! looked in, and a file reached through a link (a symlink or junction at or below the folder) is refused, as
//! [`super::open_unlinked`] refuses it. Without a folder (`relic convert`) they read as they always did.

use std::path::{Path, PathBuf};

use super::{lexical_absolute, open_unlinked, read_opened};
use crate::error::{Error, Result};

/// `path` below `root`, by name (`..` resolved, links not followed); `None` when it lies elsewhere.
fn below(root: &Path, path: &Path) -> Option<PathBuf> {
    lexical_absolute(path).strip_prefix(lexical_absolute(root)).ok().map(Path::to_path_buf)
}

/// Whether a lookup may look in `dir`: always without `confine`; with it, when `dir` is `confine` or a
/// folder below it reached through no link.
pub fn may_look_in(confine: Option<&Path>, dir: &Path) -> bool {
    let Some(root) = confine else { return true };
    let Some(rel) = below(root, dir) else { return false };
    let names: Vec<&std::ffi::OsStr> = rel.iter().collect();
    super::first_link(root, &names).is_none()
}

/// The bytes of the file at `path` when a regular file has that name, `None` when nothing (or a folder)
/// does. With `confine`, a path outside it, or one through a link at or below it, is refused (the error
/// names the link).
pub fn read_found(confine: Option<&Path>, path: &Path) -> Result<Option<Vec<u8>>> {
    let Some(root) = confine else {
        if !path.is_file() {
            return Ok(None);
        }
        return crate::source::read(path).map(Some);
    };
    let rel = below(root, path).ok_or_else(|| {
        Error::Refused(format!("refusing to read {}: it lies outside {}", path.display(), root.display()))
    })?;
    if rel.as_os_str().is_empty() {
        return Ok(None);
    }
    read_opened(open_unlinked(root, &rel)?)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_confined_read_stays_below_its_folder_and_refuses_links() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("data/texture")).unwrap();
        std::fs::create_dir_all(dir.path().join("outside")).unwrap();
        std::fs::write(dir.path().join("outside/secret.bmp"), b"secret").unwrap();
        std::fs::write(root.join("data/texture/own.bmp"), b"own").unwrap();
        std::os::unix::fs::symlink(dir.path().join("outside"), root.join("data/texture/lnk")).unwrap();
        let root = root.as_path();
        let confine = Some(root);
        assert_eq!(read_found(confine, &root.join("data/texture/own.bmp")).unwrap(), Some(b"own".to_vec()));
        assert_eq!(read_found(confine, &root.join("data/texture/none.bmp")).unwrap(), None);
        // A link in an intermediate folder is refused, and named.
        let err = read_found(confine, &root.join("data/texture/lnk/secret.bmp")).unwrap_err().to_string();
        assert!(err.contains("lnk is a link"), "{err}");
        // So do the openers `relic pack` reads folders with, for an intermediate folder that is a link.
        let listed = root.join("data/texture/lnk/secret.bmp");
        let err = super::super::open_listed(root, &listed).map(|_| ()).unwrap_err().to_string();
        assert!(err.contains("lnk is a link"), "{err}");
        let err = super::super::read_unlinked(&root.join("data"), Path::new("texture/lnk/secret.bmp"));
        assert!(err.unwrap_err().to_string().contains("lnk is a link"));
        // Above the folder: refused by name, `..` included.
        let err = read_found(confine, &root.join("../outside/secret.bmp")).unwrap_err().to_string();
        assert!(err.contains("lies outside"), "{err}");
        assert!(may_look_in(confine, &root.join("data/texture")));
        assert!(!may_look_in(confine, &root.join("data/texture/lnk")));
        assert!(!may_look_in(confine, root.parent().unwrap()));
        // Without a folder, as before: the link is followed.
        assert_eq!(read_found(None, &root.join("data/texture/lnk/secret.bmp")).unwrap(), Some(b"secret".to_vec()));
        assert!(may_look_in(None, root.parent().unwrap()));
    }
}
