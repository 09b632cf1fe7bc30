//! BON writer: the offsets, 12 bytes each, checked with the reader.

use super::read::parse;
use super::types::*;
use crate::error::Result;

/// Writes one part's BON data (nothing for a part with no offsets).
pub fn write(bon: &Bon) -> Result<Vec<u8>> {
    let out: Vec<u8> = bon.offsets.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    parse(&out).map_err(|e| e.within("rebuilt file"))?;
    Ok(out)
}
