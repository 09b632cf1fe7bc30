//! Resource limits: how much a file may make relic inflate, write or decode. Every input is hostile until
//! read, so a small file must not be able to exhaust memory or disk: zlib streams are refused past
//! [`Limits::max_entry_size`], an archive whose entries would expand past [`Limits::max_expansion`] times its
//! own size is refused before anything is written, and images are checked against [`Limits::max_pixels`]
//! before they are decoded.
//!
//! The limits are process-wide (the CLI sets them once from `--max-entry-size`, `--max-expansion` and
//! `--max-pixels`), because they are read deep inside format code that the registry's faces
//! ([`crate::registry::Convert`], …) call without a context; they are plain atomics, so reading them costs nothing.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};

/// The limits in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest single entry or stream relic decodes (declared or actual), in bytes. Default 1 GiB: no asset
    /// of the supported games comes near it.
    pub max_entry_size: u64,
    /// Largest ratio of what an archive expands to (bytes that would be written, or a table inflated) to
    /// the archive's own size. Default 1000.
    pub max_expansion: u64,
    /// Largest image (width × height) decoded from an input such as a PNG to pack. Default 8192 × 8192.
    pub max_pixels: u64,
}

impl Limits {
    pub const DEFAULT: Limits = Limits { max_entry_size: 1 << 30, max_expansion: 1000, max_pixels: 8192 * 8192 };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

static MAX_ENTRY_SIZE: AtomicU64 = AtomicU64::new(Limits::DEFAULT.max_entry_size);
static MAX_EXPANSION: AtomicU64 = AtomicU64::new(Limits::DEFAULT.max_expansion);
static MAX_PIXELS: AtomicU64 = AtomicU64::new(Limits::DEFAULT.max_pixels);

/// The limits in force now.
pub fn current() -> Limits {
    Limits {
        max_entry_size: MAX_ENTRY_SIZE.load(Ordering::Relaxed),
        max_expansion: MAX_EXPANSION.load(Ordering::Relaxed),
        max_pixels: MAX_PIXELS.load(Ordering::Relaxed),
    }
}

/// Sets the limits for the whole process.
pub fn set(limits: Limits) {
    MAX_ENTRY_SIZE.store(limits.max_entry_size, Ordering::Relaxed);
    MAX_EXPANSION.store(limits.max_expansion, Ordering::Relaxed);
    MAX_PIXELS.store(limits.max_pixels, Ordering::Relaxed);
}

/// The most bytes a file of `file_len` bytes may expand to (see [`Limits::max_expansion`]).
pub fn expansion_budget(file_len: u64) -> u64 {
    file_len.max(1).saturating_mul(current().max_expansion)
}

/// Refuses an archive whose entries would expand to `total` bytes when it is only `file_len` bytes long.
pub fn check_expansion(format: &'static str, what: &str, total: u64, file_len: u64) -> Result<()> {
    let limits = current();
    if total > expansion_budget(file_len) {
        return Err(Error::limit(
            format,
            what,
            0,
            format!(
                "would expand {file_len} bytes to {total} bytes, more than {}× (--max-expansion raises the limit)",
                limits.max_expansion
            ),
        ));
    }
    Ok(())
}

/// Refuses an image of `width × height` pixels over [`Limits::max_pixels`], before it is decoded.
pub fn check_pixels(what: &str, width: u32, height: u32) -> Result<()> {
    let pixels = u64::from(width) * u64::from(height);
    let max = current().max_pixels;
    if pixels > max {
        return Err(Error::Refused(format!(
            "{what}: {width}×{height} = {pixels} pixels is over the limit of {max} (--max-pixels raises it)"
        )));
    }
    Ok(())
}
