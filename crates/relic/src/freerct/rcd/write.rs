//! [`Rcd`] to bytes: the header, then each block as magic, version, body length and body, in order.

use super::types::*;
use super::{fields, layouts, text, FORMAT_ID};
use crate::error::{Error, Result};

pub fn write(rcd: &Rcd<'_>) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(
        FILE_HEADER + rcd.blocks.iter().map(|b| BLOCK_HEADER + body_len(b).unwrap_or(0)).sum::<usize>(),
    );
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&rcd.version.to_le_bytes());
    for (i, block) in rcd.blocks.iter().enumerate() {
        let body = body_bytes(&block.magic, block.version, &block.body)
            .map_err(|e| e.within(format!("block {} ({})", i + 1, block.magic_str())))?;
        let len = u32::try_from(body.len())
            .map_err(|_| Error::invalid(FORMAT_ID, format!("block[{}].length", i + 1), 0, "a block body over 4 GiB"))?;
        out.extend_from_slice(&block.magic);
        out.extend_from_slice(&block.version.to_le_bytes());
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&body);
    }
    Ok(out)
}

/// The length of a block's body as written, without writing pixel and raw data again.
pub fn body_len(block: &Block<'_>) -> Result<usize> {
    Ok(match &block.body {
        Body::Pixels8 { offset, data, .. } => 4 + if offset.is_some() { 4 } else { 0 } + data.len(),
        Body::Pixels32 { data, .. } => 8 + data.len(),
        Body::Raw { bytes, .. } => bytes.len(),
        body => body_bytes(&block.magic, block.version, body)?.len(),
    })
}

/// The body bytes of a block (without its 12-byte header).
pub fn body_bytes(magic: &[u8; 4], version: u32, body: &Body<'_>) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    match body {
        Body::Pixels8 { width, height, offset, data } => {
            out.extend_from_slice(&width.to_le_bytes());
            out.extend_from_slice(&height.to_le_bytes());
            if let Some((x, y)) = offset {
                out.extend_from_slice(&x.to_le_bytes());
                out.extend_from_slice(&y.to_le_bytes());
            }
            out.extend_from_slice(data);
        }
        Body::Pixels32 { width, height, offset: (x, y), data } => {
            for v in [*width, *height, *x as u16, *y as u16] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            out.extend_from_slice(data);
        }
        Body::Info(info) => text::write_info(info, &mut out)?,
        Body::Text(strings) => text::write_text(strings, &mut out)?,
        Body::Fields(map) => {
            let layout = layouts::layout(magic, version).ok_or_else(|| {
                Error::invalid(
                    FORMAT_ID,
                    magic_text(magic),
                    0,
                    format!("relic has no layout for {} version {version}: give the block as `raw`", magic_text(magic)),
                )
            })?;
            fields::write(layout, map, &mut out)?;
        }
        Body::Raw { bytes, .. } => out.extend_from_slice(bytes),
    }
    Ok(out)
}
