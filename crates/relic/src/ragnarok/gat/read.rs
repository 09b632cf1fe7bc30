//! GAT reader: the cell count (`width × height`) is checked against the bytes that remain before anything
//! is allocated.

use super::types::*;
use super::FORMAT_ID;
use crate::codec::float::F32;
use crate::error::{Error, Result};
use crate::reader::Reader;

/// Parses a GAT file.
pub fn parse(data: &[u8]) -> Result<Gat> {
    let mut r = Reader::new(FORMAT_ID, data);
    let magic = r.array::<4>("magic")?;
    if magic != MAGIC {
        return Err(r.error_at("magic", 0, format!("expected `GRAT`, found {magic:02X?}")));
    }
    let [major, minor] = r.array::<2>("version")?;
    let version = Version::new(major, minor);
    let width = r.u32("width")?;
    let height = r.u32("height")?;
    // The product of two u32 fits a u64; it is checked against the bytes that remain before allocating.
    let cells = u64::from(width) * u64::from(height);
    let count = r.count(cells, CELL_LEN, "width × height").map_err(|_| {
        Error::limit(
            FORMAT_ID,
            "width × height",
            6,
            format!(
                "{width} × {height} = {cells} cells of {CELL_LEN} bytes do not fit the {} bytes after the header",
                r.remaining()
            ),
        )
    })?;
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let field = |part: &str| format!("cells[{i}].{part}");
        let mut height = |part: &str| r.array::<4>(&field(part)).map(F32::from_le_bytes);
        let bottom_left = height("bottom_left")?;
        let bottom_right = height("bottom_right")?;
        let top_left = height("top_left")?;
        let top_right = height("top_right")?;
        let kind = r.u32(&field("type"))?;
        out.push(Cell { bottom_left, bottom_right, top_left, top_right, kind });
    }
    let trailing = r.bytes(r.remaining(), "trailing")?.to_vec();
    Ok(Gat { version, width, height, cells: out, trailing: crate::bytes::Base64(trailing) })
}
