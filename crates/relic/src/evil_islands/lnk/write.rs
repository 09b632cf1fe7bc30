//! LNK writer: the links as the reader reads them, checked with the reader.

use super::read::parse;
use super::types::*;
use super::FORMAT_ID;
use crate::codec::text::{encode, CP1251};
use crate::error::Result;
use crate::writer::Writer;

/// Writes a LNK file.
pub fn write(lnk: &Lnk) -> Result<Vec<u8>> {
    let mut w = Writer::new(FORMAT_ID);
    w.count_u32("links", lnk.links.len())?;
    for (i, link) in lnk.links.iter().enumerate() {
        let field = format!("links[{i}]");
        put_name(&mut w, Some(&link.name), !link.name_unterminated, &format!("{field}.name"))?;
        put_name(&mut w, link.parent.as_deref(), !link.parent_unterminated, &format!("{field}.parent"))?;
    }
    w.bytes(&lnk.trailing.0);
    let out = w.into_bytes();
    parse(&out).map_err(|e| e.within("rebuilt file"))?;
    Ok(out)
}

fn put_name(w: &mut Writer, name: Option<&str>, terminated: bool, field: &str) -> Result<()> {
    let mut raw = match name {
        None => Vec::new(),
        Some(text) => encode(CP1251, text).ok_or_else(|| w.refused(field, format!("{text:?} is not cp1251 text")))?,
    };
    if name.is_some() && terminated {
        raw.push(0);
    }
    w.count_u32(field, raw.len())?;
    w.bytes(&raw);
    Ok(())
}
