//! `relic check` of an archive too large for its JSON document (today's multi-GiB client `data.grf`): the
//! write-back is verified without holding any entry's bytes.
//!
//! Why this is the same check: [`super::write::write_document_as`] places every entry's stored bytes and
//! every gap at their recorded offsets unchanged, keeps the compressed table when it inflates to the table
//! the entries describe, and rebuilds only the header and that table. So a document written back is the
//! file byte for byte exactly when the rebuilt header equals the stored one and the rebuilt table equals
//! the stored (inflated) table: both are compared here, in memory proportional to the table.

use super::types::{Grf, Layout, HEADER_SIZE};
use super::write::{header_bytes, table_bytes};
use crate::codec::zlib::{self, At};
use crate::error::Result;

/// Where the archive written back from its document would first differ from `grf`'s bytes, if anywhere:
/// `None` when it comes back identical.
pub fn first_difference(grf: &Grf<'_>) -> Result<Option<u64>> {
    let bytes = grf.bytes();
    let header = header_bytes(&grf.header, grf.signature)?;
    if let Some(at) = differs(&header, bytes.get(..HEADER_SIZE).unwrap_or(bytes)) {
        return Ok(Some(at as u64));
    }
    let rows = grf.entries.iter().map(|e| (e.name_raw.as_slice(), e.name_field.as_deref(), e.record));
    let table = table_bytes(grf.layout, rows, &grf.table_trailing)?;
    let table_at = (HEADER_SIZE as u64).saturating_add(grf.header.table_offset);
    let stored = match grf.layout {
        // 1.x: the plain table runs from its offset to the end of the file.
        Layout::V1 => std::borrow::Cow::Borrowed(grf.table_packed),
        Layout::V2 | Layout::V3 => {
            let at = At { format: super::FORMAT_ID, field: "table", offset: table_at };
            std::borrow::Cow::Owned(zlib::inflate_exact(grf.table_packed, grf.table_real_size, at)?)
        }
    };
    // A difference inside the compressed table is reported at the table's offset.
    Ok(differs(&table, &stored).map(|_| table_at))
}

/// The first index where `a` and `b` differ (a length difference counts at the shorter length).
fn differs(a: &[u8], b: &[u8]) -> Option<usize> {
    a.iter().zip(b).position(|(x, y)| x != y).or((a.len() != b.len()).then(|| a.len().min(b.len())))
}
