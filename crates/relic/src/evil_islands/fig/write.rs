//! FIG writer: the header counts from the list lengths, the positions interleaved back into blocks
//! (block → axis → morph → lane), the normals into 4-blocks; checked with the reader.

use super::read::parse;
use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};

fn refuse(field: &str, message: String) -> Error {
    Error::invalid(FORMAT_ID, field, 0, message)
}

fn count(n: usize, field: &str) -> Result<u32> {
    u32::try_from(n).map_err(|_| refuse(field, format!("{n} is more than a u32 holds")))
}

/// Writes a FIG file. Refuses lists that do not fit the layout: a morph count (bounds) outside 1–9,
/// position lists of another count or of unequal lengths, and position or normal counts that are not
/// multiples of 4 (the padding lanes of the last block are part of the file).
pub fn write(fig: &Fig) -> Result<Vec<u8>> {
    let n = fig.bounds.len();
    let digit = u8::try_from(n)
        .ok()
        .filter(|d| (1..=9).contains(d))
        .ok_or_else(|| refuse("bounds", format!("{n} morph extremes: the magic holds one digit, 1–9 (FIG8, FIG1)")))?;
    if fig.positions.len() != n {
        return Err(refuse("positions", format!("{} position lists for {n} morph extremes", fig.positions.len())));
    }
    let per_morph = fig.position_count();
    if let Some(m) = fig.positions.iter().position(|p| p.len() != per_morph) {
        return Err(refuse(
            &format!("positions[{m}]"),
            format!("{} positions where morph 0 has {per_morph}", fig.positions.get(m).map_or(0, Vec::len)),
        ));
    }
    if per_morph % LANES != 0 {
        return Err(refuse("positions", format!("{per_morph} positions per morph: not whole blocks of 4")));
    }
    if fig.normals.len() % LANES != 0 {
        return Err(refuse("normals", format!("{} normals: not whole blocks of 4", fig.normals.len())));
    }

    let blocks = per_morph / LANES;
    let normal_blocks = fig.normals.len() / LANES;
    let mut out = Vec::with_capacity(HEADER_SIZE + 40 * n + 48 * n * blocks + 64 * normal_blocks);
    out.extend(MAGIC_PREFIX);
    out.push(b'0' + digit);
    for v in [
        count(blocks, "positions")?,
        count(normal_blocks, "normals")?,
        count(fig.texcoords.len(), "texcoords")?,
        count(fig.indices.len(), "indices")?,
        count(fig.vertices.len(), "vertices")?,
        count(fig.morph_components.len(), "morph_components")?,
        fig.unk_0x1c,
        fig.group,
        fig.texture_index,
    ] {
        out.extend(v.to_le_bytes());
    }
    let picks: [fn(&Bounds) -> Vec3; 3] = [|b| b.center, |b| b.min, |b| b.max];
    for pick in picks {
        out.extend(fig.bounds.iter().flat_map(pick).flat_map(|f| f.to_le_bytes()));
    }
    out.extend(fig.bounds.iter().flat_map(|b| b.radius.to_le_bytes()));
    for b in 0..blocks {
        let range = b * LANES..(b + 1) * LANES;
        for axis in 0..3 {
            for morph in &fig.positions {
                for p in morph.get(range.clone()).into_iter().flatten() {
                    out.extend(p.get(axis).map_or([0; 4], |f| f.to_le_bytes()));
                }
            }
        }
    }
    for block in fig.normals.chunks(LANES) {
        for axis in 0..4 {
            for n in block {
                out.extend(n.get(axis).map_or([0; 4], |f| f.to_le_bytes()));
            }
        }
    }
    out.extend(fig.texcoords.iter().flatten().flat_map(|f| f.to_le_bytes()));
    out.extend(fig.indices.iter().flat_map(|i| i.to_le_bytes()));
    for v in &fig.vertices {
        for i in [v.position, v.normal, v.texcoord] {
            out.extend(i.to_le_bytes());
        }
    }
    for c in &fig.morph_components {
        out.extend(c.morph.to_le_bytes());
        out.extend(c.vertex.to_le_bytes());
    }
    out.extend_from_slice(&fig.trailing.0);
    parse(&out).map_err(|e| e.within("rebuilt file"))?;
    Ok(out)
}
