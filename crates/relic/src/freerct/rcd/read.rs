//! Bytes to [`Rcd`]: the header, then every block by its 12-byte header. Pixel blocks keep their line data
//! borrowed (decoded only when converted); game blocks with a layout are read field by field and kept only
//! when writing them back gives their bytes again, else they stay raw with the reason.

use std::borrow::Cow;

use super::types::*;
use super::{fields, layouts, text, write, FORMAT_ID};
use crate::error::{Error, Result};
use crate::reader::Reader;

pub fn parse(data: &[u8]) -> Result<Rcd<'_>> {
    let mut r = Reader::new(FORMAT_ID, data);
    let magic = r.array::<4>("magic")?;
    if &magic != MAGIC {
        return Err(r.error_at("magic", 0, format!("{magic:02X?} is not `RCDF`")));
    }
    let version = r.u32("version")?;
    if !(1..=2).contains(&version) {
        return Err(Error::Unsupported(format!("{FORMAT_ID}: RCD file version {version} (relic reads 1 and 2)")));
    }
    let mut blocks = Vec::new();
    while r.remaining() > 0 {
        let n = blocks.len() + 1;
        let magic = r.array::<4>(&format!("block[{n}].magic"))?;
        let block_version = r.u32(&format!("block[{n}].version"))?;
        let length = r.u32(&format!("block[{n}].length"))?;
        let body_at = r.pos();
        let body = r.bytes(length as usize, &format!("block[{n}] ({}) body", magic_text(&magic)))?;
        let body_r = Reader::with_base(FORMAT_ID, body, body_at as u64);
        blocks.push(Block { magic, version: block_version, body: read_body(&magic, block_version, body_r)? });
    }
    Ok(Rcd { version, blocks })
}

fn read_body<'a>(magic: &[u8; 4], version: u32, mut r: Reader<'a>) -> Result<Body<'a>> {
    let raw = |r: &Reader<'a>, reason: Option<String>| Body::Raw { bytes: Cow::Borrowed(r.data()), reason };
    let body = match (magic, version) {
        (b"8PXL", 1) => {
            let (width, height) = (r.u16("8PXL.width")?, r.u16("8PXL.height")?);
            let data = Cow::Borrowed(r.bytes(r.remaining(), "8PXL.pixels")?);
            Body::Pixels8 { width, height, offset: None, data }
        }
        (b"8PXL", 2) | (b"32PX", 1) => {
            let (width, height) = (r.u16("width")?, r.u16("height")?);
            let offset = (r.i16("x_offset")?, r.i16("y_offset")?);
            let data = Cow::Borrowed(r.bytes(r.remaining(), "pixels")?);
            if magic == b"8PXL" {
                Body::Pixels8 { width, height, offset: Some(offset), data }
            } else {
                Body::Pixels32 { width, height, offset, data }
            }
        }
        (b"INFO", 1) => match text::read_info(&mut r.clone()) {
            Ok(info) => Body::Info(info),
            Err(e) => raw(&r, Some(e.to_string())),
        },
        (b"TEXT", 3) => match text::read_text(&mut r.clone()) {
            Ok(strings) => Body::Text(strings),
            Err(e) => raw(&r, Some(e.to_string())),
        },
        _ => match layouts::layout(magic, version) {
            None => raw(&r, None),
            Some(layout) => {
                let mut fr = r.clone();
                match fields::read(layout, &mut fr) {
                    Ok(_) if fr.remaining() > 0 => {
                        raw(&r, Some(format!("{} bytes follow the layout's last field", fr.remaining())))
                    }
                    Ok(map) => Body::Fields(map),
                    Err(e) => raw(&r, Some(e.to_string())),
                }
            }
        },
    };
    // A block is kept as read only when it writes back to its own bytes (a string with a stray byte after
    // its NUL, say, would not): anything else stays raw, so reading and writing stays lossless.
    if matches!(body, Body::Info(_) | Body::Text(_) | Body::Fields(_)) {
        match write::body_bytes(magic, version, &body) {
            Ok(b) if b == r.data() => {}
            Ok(_) => return Ok(raw(&r, Some("written back it would differ from the file".into()))),
            Err(e) => return Ok(raw(&r, Some(e.to_string()))),
        }
    }
    Ok(body)
}
