//! LNK reader (spec "Lnk", docs/formats/evil-islands.md#lnk): a u32 link count, then per link a length-prefixed part name
//! and a length-prefixed parent name (lengths count the trailing NUL; the root's parent has length 0).

use super::types::*;
use super::FORMAT_ID;
use crate::bytes::Base64;
use crate::codec::text::{decode, CP1251};
use crate::error::Result;
use crate::reader::Reader;

/// Parses a LNK file.
pub fn parse(bytes: &[u8]) -> Result<Lnk> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let count = r.u32("links_count")?;
    // Every link takes at least its two 4-byte lengths.
    let n = r.count(u64::from(count), 8, "links_count")?;
    let mut links = Vec::with_capacity(n);
    for i in 0..n {
        links.push(read_link(&mut r).map_err(|e| e.within(format_args!("links[{i}]")))?);
    }
    let trailing = Base64(r.bytes(r.remaining(), "trailing")?.to_vec());
    Ok(Lnk { links, trailing })
}

fn read_link(r: &mut Reader<'_>) -> Result<Link> {
    let (name, name_terminated) = read_name(r, "name_len", "name")?;
    let (parent, parent_terminated) = read_name(r, "parent_len", "parent")?;
    // Length 0 (the root's parent) is no parent; a lone NUL is an empty parent name.
    let parent_stored = !parent.is_empty() || parent_terminated;
    Ok(Link {
        name,
        name_unterminated: !name_terminated,
        parent: parent_stored.then_some(parent),
        parent_unterminated: parent_stored && !parent_terminated,
    })
}

/// A length-prefixed cp1251 name: the text before the trailing NUL, and whether there was one.
fn read_name(r: &mut Reader<'_>, len_field: &str, field: &str) -> Result<(String, bool)> {
    let len = r.u32(len_field)?;
    let len = r.count(u64::from(len), 1, len_field)?;
    let raw = r.bytes(len, field)?;
    Ok(match raw.split_last() {
        Some((0, body)) => (decode(CP1251, body), true),
        _ => (decode(CP1251, raw), false),
    })
}
