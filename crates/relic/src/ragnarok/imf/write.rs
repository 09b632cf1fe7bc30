//! IMF writer: the exact inverse of [`super::read::parse`]. A document without layers (a file stores the
//! index of its last) or with a count beyond `u32` is refused.

use super::read::refuse;
use super::types::*;
use crate::error::Result;

/// Writes an IMF file.
pub fn write(imf: &Imf) -> Result<Vec<u8>> {
    let last_layer =
        imf.layers.len().checked_sub(1).ok_or_else(|| refuse("layers", "an IMF has at least one layer"))?;
    let count =
        |n: usize, field: &str| u32::try_from(n).map_err(|_| refuse(field, format!("{n} is more than a u32 holds")));
    let frames: usize = imf.layers.iter().flatten().map(Vec::len).sum();
    let actions: usize = imf.layers.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(
        HEADER_LEN + (imf.layers.len() + actions) * COUNT_LEN + frames * FRAME_LEN + imf.trailing.0.len(),
    );
    out.extend_from_slice(&imf.version.to_le_bytes());
    out.extend_from_slice(&imf.checksum.to_le_bytes());
    out.extend_from_slice(&count(last_layer, "layers")?.to_le_bytes());
    for (l, layer) in imf.layers.iter().enumerate() {
        out.extend_from_slice(&count(layer.len(), &format!("layers[{l}]"))?.to_le_bytes());
        for (a, action) in layer.iter().enumerate() {
            out.extend_from_slice(&count(action.len(), &format!("layers[{l}][{a}]"))?.to_le_bytes());
            for frame in action {
                out.extend_from_slice(&frame.priority.to_le_bytes());
                out.extend_from_slice(&frame.x.to_le_bytes());
                out.extend_from_slice(&frame.y.to_le_bytes());
            }
        }
    }
    out.extend_from_slice(&imf.trailing.0);
    Ok(out)
}
