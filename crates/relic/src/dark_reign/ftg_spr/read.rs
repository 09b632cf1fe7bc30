//! Reader of the headerless FTG sprite layout (spec "FTG-bundled SPR Format").

use super::types::*;
use super::FORMAT_ID;
use crate::bytes::Base64;
use crate::error::Result;
use crate::reader::Reader;

/// Reads a file of the spec's headerless FTG sprite layout. Nothing in it can be told from other bytes:
/// any file whose counts and sizes fit reads.
pub fn parse(bytes: &[u8]) -> Result<FtgSprDocument> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let num_frames = r.u16("num_frames")?;
    let max_width = r.u16("max_width")?;
    let max_height = r.u16("max_height")?;
    let reserved = r.u16("reserved")?;
    let n = r.count(u64::from(num_frames), DESCRIPTOR_SIZE, "num_frames")?;
    let mut descriptors = Vec::with_capacity(n);
    for i in 0..n {
        let field = |name: &str| format!("frames[{i}].{name}");
        descriptors.push((
            r.u16(&field("width"))?,
            r.u16(&field("height"))?,
            r.i16(&field("offset_x"))?,
            r.i16(&field("offset_y"))?,
        ));
    }
    let mut frames = Vec::with_capacity(n);
    for (i, (width, height, offset_x, offset_y)) in descriptors.into_iter().enumerate() {
        let size = usize::from(width) * usize::from(height);
        let pixels = r.bytes(size, &format!("frames[{i}].pixels"))?;
        frames.push(FtgFrame { width, height, offset_x, offset_y, pixels: Some(Base64(pixels.to_vec())) });
    }
    let rest = r.bytes(r.remaining(), "trailing")?;
    Ok(FtgSprDocument {
        format: FORMAT_ID.into(),
        max_width,
        max_height,
        reserved,
        frames,
        trailing: (!rest.is_empty()).then(|| Base64(rest.to_vec())),
    })
}
