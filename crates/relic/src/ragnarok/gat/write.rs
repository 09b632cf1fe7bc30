//! GAT writer: the exact inverse of [`super::read::parse`]. A cell list that does not hold `width × height`
//! cells is refused.

use super::types::*;
use super::FORMAT_ID;
use crate::error::Result;
use crate::writer::Writer;

/// Writes a GAT file.
pub fn write(gat: &Gat) -> Result<Vec<u8>> {
    let cells = u64::from(gat.width) * u64::from(gat.height);
    let mut w = Writer::with_capacity(FORMAT_ID, HEADER_LEN + gat.cells.len() * CELL_LEN + gat.trailing.0.len());
    if gat.cells.len() as u64 != cells {
        return Err(w.refused(
            "cells",
            format!("{} cells, but width × height = {} × {} = {cells}", gat.cells.len(), gat.width, gat.height),
        ));
    }
    w.bytes(&MAGIC);
    w.u8(gat.version.major);
    w.u8(gat.version.minor);
    w.u32(gat.width);
    w.u32(gat.height);
    for cell in &gat.cells {
        for h in cell.heights() {
            w.f32_exact(h);
        }
        w.u32(cell.kind);
    }
    w.bytes(&gat.trailing.0);
    Ok(w.into_bytes())
}
