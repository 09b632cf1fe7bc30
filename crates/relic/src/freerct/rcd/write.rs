//! [`Rcd`] to bytes: the header, then each block as magic, version, body length and body, in order.

use super::types::*;
use super::{fields, layouts, text, FORMAT_ID};
use crate::error::{Error, Result};
use crate::writer::Writer;

pub fn write(rcd: &Rcd<'_>) -> Result<Vec<u8>> {
    let mut out = Writer::with_capacity(
        FORMAT_ID,
        FILE_HEADER + rcd.blocks.iter().map(|b| BLOCK_HEADER + body_len(b).unwrap_or(0)).sum::<usize>(),
    );
    out.bytes(MAGIC);
    out.u32(rcd.version);
    for (i, block) in rcd.blocks.iter().enumerate() {
        let body = body_bytes(&block.magic, block.version, &block.body)
            .map_err(|e| e.within(format!("block {} ({})", i + 1, block.magic_str())))?;
        out.bytes(&block.magic);
        out.u32(block.version);
        out.count_u32(&format!("block[{}].length", i + 1), body.len())?;
        out.bytes(&body);
    }
    Ok(out.into_bytes())
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
            let mut w = Writer::with_capacity(FORMAT_ID, 8 + data.len());
            w.u16(*width);
            w.u16(*height);
            if let Some((x, y)) = offset {
                w.i16(*x);
                w.i16(*y);
            }
            w.bytes(data);
            return Ok(w.into_bytes());
        }
        Body::Pixels32 { width, height, offset: (x, y), data } => {
            let mut w = Writer::with_capacity(FORMAT_ID, 8 + data.len());
            w.u16(*width);
            w.u16(*height);
            w.i16(*x);
            w.i16(*y);
            w.bytes(data);
            return Ok(w.into_bytes());
        }
        Body::Info(info) => text::write_info(info, &mut out)?,
        Body::Text(strings) => text::write_text(strings, &mut out)?,
        Body::Fields(map) => {
            let layout = layouts::layout(magic, version).ok_or_else(|| {
                Error::refused(
                    FORMAT_ID,
                    magic_text(magic),
                    format!("relic has no layout for {} version {version}: give the block as `raw`", magic_text(magic)),
                )
            })?;
            fields::write(layout, map, &mut out)?;
        }
        Body::Raw { bytes, .. } => out.extend_from_slice(bytes),
    }
    Ok(out)
}
