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
    let head_len = usize::try_from(file.len()).map_or(crate::asset::SNIFF_BYTES, |n| n.min(crate::asset::SNIFF_BYTES));
    let head = file.read_at(0, head_len).map_err(|e| crate::Error::io("the file's first bytes", e))?;
    if !crate::ragnarok::grf::Signature::sniff(&head) {
        return Ok(None);
    }
    let grf = crate::ragnarok::grf::SlicedGrf::open(file)?;
    let listing = grf.listing();
    Ok(Some(Arc::new(SlicedGrfArchive { grf: Arc::new(grf), listing })))
}

/// A GRF read in slices ([`crate::ragnarok::grf::SlicedGrf`]), with its listing kept: the viewer's entries
/// are its file entries, in table order.
struct SlicedGrfArchive {
    grf: Arc<crate::ragnarok::grf::SlicedGrf>,
    listing: Vec<crate::ragnarok::grf::SlicedEntry>,
}

impl SlicedArchive for SlicedGrfArchive {
    fn format(&self) -> &'static Format {
        &crate::ragnarok::grf::FORMAT
    }

    fn info(&self) -> crate::Result<serde_json::Value> {
        Ok(self.grf.info())
    }

    fn entries(&self) -> Vec<SlicedEntry> {
        let entry = |e: &crate::ragnarok::grf::SlicedEntry| SlicedEntry {
            name: e.name.clone(),
            path: e.path.clone(),
            size: e.size,
            record: e.record.clone(),
        };
        self.listing.iter().map(entry).collect()
    }

    fn read(&self, index: usize) -> crate::Result<Vec<u8>> {
        let entry = self.listing.get(index).ok_or_else(|| crate::Error::Refused(format!("no entry {index}")))?;
        self.grf.read_entry(entry.index)
    }

    fn files(self: Arc<Self>) -> Option<Arc<dyn FileLookup>> {
        Some(Arc::clone(&self.grf) as Arc<dyn FileLookup>)
    }
}
