//! FIG writer: the header counts from the list lengths, the positions interleaved back into blocks
//! (block → axis → morph → lane), the normals into 4-blocks; checked with the reader.

use super::read::parse;
use super::types::*;
use super::FORMAT_ID;
use crate::error::Result;
use crate::writer::Writer;

/// Writes a FIG file. Refuses lists that do not fit the layout: a morph count (bounds) outside 1–9,
/// position lists of another count or of unequal lengths, and position or normal counts that are not
/// multiples of 4 (the padding lanes of the last block are part of the file).
pub fn write(fig: &Fig) -> Result<Vec<u8>> {
    let n = fig.bounds.len();
    let per_morph = fig.position_count();
    let blocks = per_morph / LANES;
    let normal_blocks = fig.normals.len() / LANES;
    let mut w = Writer::with_capacity(FORMAT_ID, HEADER_SIZE + 40 * n + 48 * n * blocks + 64 * normal_blocks);
    let digit = u8::try_from(n).ok().filter(|d| (1..=9).contains(d)).ok_or_else(|| {
        w.refused("bounds", format!("{n} morph extremes: the magic holds one digit, 1–9 (FIG8, FIG1)"))
    })?;
    if fig.positions.len() != n {
        return Err(w.refused("positions", format!("{} position lists for {n} morph extremes", fig.positions.len())));
    }
    if let Some(m) = fig.positions.iter().position(|p| p.len() != per_morph) {
        return Err(w.refused(
            &format!("positions[{m}]"),
            format!("{} positions where morph 0 has {per_morph}", fig.positions.get(m).map_or(0, Vec::len)),
        ));
    }
    if per_morph % LANES != 0 {
        return Err(w.refused("positions", format!("{per_morph} positions per morph: not whole blocks of 4")));
    }
    if fig.normals.len() % LANES != 0 {
        return Err(w.refused("normals", format!("{} normals: not whole blocks of 4", fig.normals.len())));
    }

    w.bytes(&MAGIC_PREFIX);
    w.u8(b'0' + digit);
    w.count_u32("positions", blocks)?;
    w.count_u32("normals", normal_blocks)?;
    w.count_u32("texcoords", fig.texcoords.len())?;
    w.count_u32("indices", fig.indices.len())?;
    w.count_u32("vertices", fig.vertices.len())?;
    w.count_u32("morph_components", fig.morph_components.len())?;
    w.u32(fig.unk_0x1c);
    w.u32(fig.group);
    w.u32(fig.texture_index);
    let picks: [fn(&Bounds) -> Vec3; 3] = [|b| b.center, |b| b.min, |b| b.max];
    for pick in picks {
        fig.bounds.iter().flat_map(pick).for_each(|f| w.f32_exact(f));
    }
    fig.bounds.iter().for_each(|b| w.f32_exact(b.radius));
    for b in 0..blocks {
        let range = b * LANES..(b + 1) * LANES;
        for axis in 0..3 {
            for morph in &fig.positions {
                for p in morph.get(range.clone()).into_iter().flatten() {
                    w.f32_exact(p.get(axis).copied().unwrap_or_default());
                }
            }
        }
    }
    for block in fig.normals.chunks(LANES) {
        for axis in 0..4 {
            for n in block {
                w.f32_exact(n.get(axis).copied().unwrap_or_default());
            }
        }
    }
    fig.texcoords.iter().flatten().for_each(|&f| w.f32_exact(f));
    fig.indices.iter().for_each(|&i| w.u16(i));
    for v in &fig.vertices {
        for i in [v.position, v.normal, v.texcoord] {
            w.u16(i);
        }
    }
    for c in &fig.morph_components {
        w.u16(c.morph);
        w.u16(c.vertex);
    }
    w.bytes(&fig.trailing.0);
    let out = w.into_bytes();
    parse(&out).map_err(|e| e.within("rebuilt file"))?;
    Ok(out)
}
