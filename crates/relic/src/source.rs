//! Input files as bytes: memory-mapped so that large archives are parsed in place and extracted without
//! being read into memory.

use std::ops::Deref;
use std::path::Path;

use crate::error::{Error, Result};

/// The bytes of an input file.
pub enum Source {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl Deref for Source {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Source::Mapped(m) => m,
            Source::Owned(v) => v,
        }
    }
}

/// Opens a file for reading: a memory map for regular files, a plain read otherwise (pipes, empty files).
pub fn open(path: &Path) -> Result<Source> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let meta = file.metadata().map_err(|e| Error::io(path, e))?;
    if meta.is_dir() {
        return Err(Error::Refused(format!("{} is a folder", path.display())));
    }
    if meta.is_file() && meta.len() > 0 {
        // SAFETY: the map is read-only. If another process truncates or rewrites the file while relic runs,
        // reads may see changed bytes or fault; every parser bounds-checks what it reads, and this is the
        // usual trade-off of tools that map their inputs (ripgrep, 7-Zip).
        #[allow(unsafe_code)]
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| Error::io(path, e))?;
        return Ok(Source::Mapped(map));
    }
    std::fs::read(path).map(Source::Owned).map_err(|e| Error::io(path, e))
}
