//! Writer of the headerless FTG sprite layout: the document back to bytes, byte for byte.

use super::types::*;
use super::FORMAT_ID;
use crate::error::Result;
use crate::writer::Writer;

/// Writes a document: header (`num_frames` from the frame list), descriptors, pixels, trailing bytes.
pub fn write_document(doc: &FtgSprDocument) -> Result<Vec<u8>> {
    let mut out = Writer::with_capacity(FORMAT_ID, HEADER_SIZE + DESCRIPTOR_SIZE * doc.frames.len());
    out.count_u16("frames", doc.frames.len())?;
    out.u16(doc.max_width);
    out.u16(doc.max_height);
    out.u16(doc.reserved);
    for f in &doc.frames {
        out.u16(f.width);
        out.u16(f.height);
        out.i16(f.offset_x);
        out.i16(f.offset_y);
    }
    for (i, f) in doc.frames.iter().enumerate() {
        let pixels = f.pixels.as_ref().ok_or_else(|| {
            out.refused(
                &format!("frames[{i}].pixels"),
                "missing: the document of `relic convert` takes it from the frame PNGs beside it (pack that file)",
            )
        })?;
        let size = usize::from(f.width) * usize::from(f.height);
        if pixels.0.len() != size {
            return Err(out.refused(
                &format!("frames[{i}].pixels"),
                format!("{} bytes for a {}×{} frame", pixels.0.len(), f.width, f.height),
            ));
        }
        out.bytes(&pixels.0);
    }
    if let Some(t) = &doc.trailing {
        out.bytes(&t.0);
    }
    Ok(out.into_bytes())
}
