//! What the integration tests share: where the repository, its samples and the shared corpus are, and
//! the small byte builders several tests need. Every test binary includes it (`#[path = "../common/mod.rs"]
//! mod common;`), so a binary uses some of it.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository's root (`crates/relic/../..`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `samples/`, the files `examples/make_samples.rs` writes.
pub fn samples_dir() -> PathBuf {
    repo_root().join("samples")
}

/// The shared corpus of real game files (`../shared/corpus`, beside the repository), which a clone may not
/// have: `None`, said on stderr, when `sub` is not in it, so that a test on real files never skips silently.
pub fn corpus(sub: &str) -> Option<PathBuf> {
    let dir = repo_root().join("../shared/corpus").join(sub);
    if dir.exists() {
        Some(dir)
    } else {
        eprintln!("skipped: no corpus at {} (tests on real files did not run)", dir.display());
        None
    }
}

/// The bytes of a corpus file (`sub` below the corpus root), or `None` as [`corpus`] says.
pub fn corpus_file(sub: &str) -> Option<Vec<u8>> {
    let path = corpus(sub)?;
    Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// A little-endian byte builder for hand-made files, field by field as the specs list them.
#[derive(Default, Clone, Debug)]
pub struct Le(pub Vec<u8>);

impl Le {
    pub fn new() -> Self {
        Le(Vec::new())
    }
    pub fn u8(mut self, v: u8) -> Self {
        self.0.push(v);
        self
    }
    pub fn u16(mut self, v: u16) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn u32(mut self, v: u32) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn i32(mut self, v: i32) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn f32(mut self, v: f32) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn bytes(mut self, v: &[u8]) -> Self {
        self.0.extend_from_slice(v);
        self
    }
    /// `v` in a field of `width` bytes, zero padded (a fixed-size name).
    pub fn fixed(mut self, v: &[u8], width: usize) -> Self {
        let mut field = v.to_vec();
        field.resize(width, 0);
        self.0.extend_from_slice(&field);
        self
    }
    pub fn zeros(mut self, n: usize) -> Self {
        self.0.resize(self.0.len() + n, 0);
        self
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn build(self) -> Vec<u8> {
        self.0
    }
}

/// `data` as a zlib stream at level 6 (what the games' packers write), by flate2, not relic's encoder.
pub fn zlib6(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(6));
    e.write_all(data).unwrap_or_else(|e| panic!("zlib: {e}"));
    e.finish().unwrap_or_else(|e| panic!("zlib: {e}"))
}

/// The little-endian `u32` at `at`.
pub fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let field: [u8; 4] =
        bytes.get(at..at + 4).and_then(|b| b.try_into().ok()).unwrap_or_else(|| panic!("no u32 at {at}"));
    u32::from_le_bytes(field)
}

/// Writes `bytes` to `dir/name` and returns the path.
pub fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    path
}
