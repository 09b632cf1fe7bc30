//! Writer of the headerless FTG sprite layout: the document back to bytes, byte for byte.

use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};

/// Writes a document: header (`num_frames` from the frame list), descriptors, pixels, trailing bytes.
pub fn write_document(doc: &FtgSprDocument) -> Result<Vec<u8>> {
    let bad = |field: String, m: String| Error::invalid(FORMAT_ID, field, 0, m);
    let count = u16::try_from(doc.frames.len())
        .map_err(|_| bad("frames".into(), format!("{} frames (at most 65535)", doc.frames.len())))?;
    let mut out = Vec::with_capacity(HEADER_SIZE + DESCRIPTOR_SIZE * doc.frames.len());
    for v in [count, doc.max_width, doc.max_height, doc.reserved] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for f in &doc.frames {
        for v in [f.width.to_le_bytes(), f.height.to_le_bytes(), f.offset_x.to_le_bytes(), f.offset_y.to_le_bytes()] {
            out.extend_from_slice(&v);
        }
    }
    for (i, f) in doc.frames.iter().enumerate() {
        let pixels = f.pixels.as_ref().ok_or_else(|| {
            bad(
                format!("frames[{i}].pixels"),
                "missing: the document of `relic convert` takes it from the frame PNGs beside it (pack that file)"
                    .into(),
            )
        })?;
        let size = usize::from(f.width) * usize::from(f.height);
        if pixels.0.len() != size {
            return Err(bad(
                format!("frames[{i}].pixels"),
                format!("{} bytes for a {}×{} frame", pixels.0.len(), f.width, f.height),
            ));
        }
        out.extend_from_slice(&pixels.0);
    }
    if let Some(t) = &doc.trailing {
        out.extend_from_slice(&t.0);
    }
    Ok(out)
}
