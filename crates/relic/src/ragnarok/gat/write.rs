//! GAT writer: the exact inverse of [`super::read::parse`]. A cell list that does not hold `width × height`
//! cells is refused.

use super::read::refuse;
use super::types::*;
use crate::error::Result;

/// Writes a GAT file.
pub fn write(gat: &Gat) -> Result<Vec<u8>> {
    let cells = u64::from(gat.width) * u64::from(gat.height);
    if gat.cells.len() as u64 != cells {
        return Err(refuse(
            "cells",
            format!("{} cells, but width × height = {} × {} = {cells}", gat.cells.len(), gat.width, gat.height),
        ));
    }
    let mut out = Vec::with_capacity(HEADER_LEN + gat.cells.len() * CELL_LEN + gat.trailing.0.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&[gat.version.major, gat.version.minor]);
    out.extend_from_slice(&gat.width.to_le_bytes());
    out.extend_from_slice(&gat.height.to_le_bytes());
    for cell in &gat.cells {
        for h in cell.heights() {
            out.extend_from_slice(&h.to_le_bytes());
        }
        out.extend_from_slice(&cell.kind.to_le_bytes());
    }
    out.extend_from_slice(&gat.trailing.0);
    Ok(out)
}
