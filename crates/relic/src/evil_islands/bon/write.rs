//! BON writer: the offsets, 12 bytes each, checked with the reader.

use super::read::parse;
use super::types::*;
use super::FORMAT_ID;
use crate::error::Result;
use crate::writer::Writer;

/// Writes one part's BON data (nothing for a part with no offsets).
pub fn write(bon: &Bon) -> Result<Vec<u8>> {
    let mut w = Writer::with_capacity(FORMAT_ID, bon.offsets.len() * 12);
    bon.offsets.iter().flatten().for_each(|&f| w.f32_exact(f));
    let out = w.into_bytes();
    parse(&out).map_err(|e| e.within("rebuilt file"))?;
    Ok(out)
}
