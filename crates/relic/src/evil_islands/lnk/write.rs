//! LNK writer: the links as the reader reads them, checked with the reader.

use super::read::parse;
use super::types::*;
use super::FORMAT_ID;
use crate::codec::text::{encode, CP1251};
use crate::error::{Error, Result};

/// Writes a LNK file.
pub fn write(lnk: &Lnk) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    out.extend(count(lnk.links.len(), "links")?.to_le_bytes());
    for (i, link) in lnk.links.iter().enumerate() {
        let field = format!("links[{i}]");
        put_name(&mut out, Some(&link.name), !link.name_unterminated, &format!("{field}.name"))?;
        put_name(&mut out, link.parent.as_deref(), !link.parent_unterminated, &format!("{field}.parent"))?;
    }
    out.extend_from_slice(&lnk.trailing.0);
    parse(&out).map_err(|e| e.within("rebuilt file"))?;
    Ok(out)
}

fn count(n: usize, field: &str) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::invalid(FORMAT_ID, field, 0, format!("{n} is more than a u32 holds")))
}

fn put_name(out: &mut Vec<u8>, name: Option<&str>, terminated: bool, field: &str) -> Result<()> {
    let mut raw = match name {
        None => Vec::new(),
        Some(text) => encode(CP1251, text)
            .ok_or_else(|| Error::invalid(FORMAT_ID, field, 0, format!("{text:?} is not cp1251 text")))?,
    };
    if name.is_some() && terminated {
        raw.push(0);
    }
    out.extend(count(raw.len(), field)?.to_le_bytes());
    out.extend(raw);
    Ok(())
}
