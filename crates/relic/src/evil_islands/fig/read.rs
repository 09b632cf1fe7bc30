//! FIG reader (spec "FIG", corrected by docs/formats/evil-islands.md#fig-header): the magic `FIG` + morph-count digit n, 9 × u32
//! header, bounds (n centres, n minima, n maxima, n radii), vertex blocks (per block: axis x, y, z → morph
//! → 4 lanes, so float `b·12n + axis·4n + m·4 + lane`), normal blocks (`x[4]` `y[4]` `z[4]` `w[4]`), texture
//! coordinates, u16 indices, vertex components (3 × u16) and morphing components (2 × u16).

use super::types::*;
use super::FORMAT_ID;
use crate::bytes::Base64;
use crate::codec::float::F32;
use crate::error::Result;
use crate::reader::Reader;

/// The header counts (docs/formats/evil-islands.md#fig-header: 9 × u32 after the magic).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub morphs: usize,
    pub vertex_blocks: u32,
    pub normal_blocks: u32,
    pub texcoords: u32,
    pub indices: u32,
    pub vertex_components: u32,
    pub morph_components: u32,
    pub unk_0x1c: u32,
    pub group: u32,
    pub texture_index: u32,
}

/// The morph count a FIG magic announces (`FIG1` … `FIG9`), if `head` starts with one.
pub fn morph_count(head: &[u8]) -> Option<usize> {
    match head {
        [b'F', b'I', b'G', d @ b'1'..=b'9', ..] => Some(usize::from(d - b'0')),
        _ => None,
    }
}

/// Reads the magic and the header.
pub fn read_header(r: &mut Reader<'_>) -> Result<Header> {
    let magic = r.array::<4>("magic")?;
    let Some(morphs) = morph_count(&magic) else {
        return Err(r.error_at(
            "magic",
            0,
            format!("expected `FIG` and a morph count digit 1–9 (FIG8, FIG1), found {}", hex::encode(magic)),
        ));
    };
    Ok(Header {
        morphs,
        vertex_blocks: r.u32("vertex_count")?,
        normal_blocks: r.u32("normal_count")?,
        texcoords: r.u32("texcoord_count")?,
        indices: r.u32("index_count")?,
        vertex_components: r.u32("vertex_components_count")?,
        morph_components: r.u32("morph_components_count")?,
        unk_0x1c: r.u32("unk_0x1c")?,
        group: r.u32("group")?,
        texture_index: r.u32("texture_index")?,
    })
}

/// Parses a FIG file.
pub fn parse(bytes: &[u8]) -> Result<Fig> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let h = read_header(&mut r)?;
    let n = h.morphs;

    let centers = vec3s(&mut r, n, "center")?;
    let mins = vec3s(&mut r, n, "aabb_min")?;
    let maxs = vec3s(&mut r, n, "aabb_max")?;
    let mut radii = Vec::with_capacity(n);
    for m in 0..n {
        radii.push(f32(&mut r, &format!("radius[{m}]"))?);
    }
    let bounds = centers
        .into_iter()
        .zip(mins)
        .zip(maxs)
        .zip(radii)
        .map(|(((center, min), max), radius)| Bounds { center, min, max, radius })
        .collect();

    // Vertex blocks: 4 lanes × 3 axes × n morphs × 4 bytes each.
    let blocks = r.count(u64::from(h.vertex_blocks), 48 * n, "vertex_count")?;
    let mut positions: Vec<Vec<Vec3>> = (0..n).map(|_| Vec::with_capacity(blocks * LANES)).collect();
    for _ in 0..blocks {
        // Whole blocks fit (counted above); the offset of an error names the block.
        let block = r.bytes(48 * n, "vertex_array")?;
        let at = |axis: usize, m: usize, lane: usize| float_at(block, (axis * n + m) * LANES + lane);
        for (m, morph) in positions.iter_mut().enumerate() {
            for lane in 0..LANES {
                morph.push([at(0, m, lane), at(1, m, lane), at(2, m, lane)]);
            }
        }
    }

    let blocks = r.count(u64::from(h.normal_blocks), 64, "normal_count")?;
    let mut normals = Vec::with_capacity(blocks * LANES);
    for _ in 0..blocks {
        let block = r.bytes(64, "normal_array")?;
        for lane in 0..LANES {
            normals.push([0, 1, 2, 3].map(|axis| float_at(block, axis * LANES + lane)));
        }
    }

    let count = r.count(u64::from(h.texcoords), 8, "texcoord_count")?;
    let mut texcoords = Vec::with_capacity(count);
    for i in 0..count {
        let uv = (|| Ok([f32(&mut r, "u")?, f32(&mut r, "v")?]))();
        texcoords.push(uv.map_err(|e: crate::error::Error| e.within(format_args!("texcoord_array[{i}]")))?);
    }

    let count = r.count(u64::from(h.indices), 2, "index_count")?;
    let mut indices = Vec::with_capacity(count);
    for _ in 0..count {
        indices.push(r.u16("index_array")?);
    }

    let count = r.count(u64::from(h.vertex_components), 6, "vertex_components_count")?;
    let mut vertices = Vec::with_capacity(count);
    for _ in 0..count {
        vertices.push(VertexComponent {
            position: r.u16("vertex_components_array.position_index")?,
            normal: r.u16("vertex_components_array.normal_index")?,
            texcoord: r.u16("vertex_components_array.texture_index")?,
        });
    }

    let count = r.count(u64::from(h.morph_components), 4, "morph_components_count")?;
    let mut morph_components = Vec::with_capacity(count);
    for _ in 0..count {
        morph_components.push(MorphComponent {
            morph: r.u16("morph_components_array.morph_index")?,
            vertex: r.u16("morph_components_array.vertex_index")?,
        });
    }

    let trailing = Base64(r.bytes(r.remaining(), "trailing")?.to_vec());
    Ok(Fig {
        unk_0x1c: h.unk_0x1c,
        group: h.group,
        texture_index: h.texture_index,
        bounds,
        positions,
        normals,
        texcoords,
        indices,
        vertices,
        morph_components,
        trailing,
    })
}

/// Float `i` of a block the reader has already bounds-checked.
fn float_at(block: &[u8], i: usize) -> F32 {
    block.get(i * 4..i * 4 + 4).and_then(|s| s.try_into().ok()).map(F32::from_le_bytes).unwrap_or_default()
}

fn f32(r: &mut Reader<'_>, field: &str) -> Result<F32> {
    r.array::<4>(field).map(F32::from_le_bytes)
}

fn vec3s(r: &mut Reader<'_>, n: usize, field: &str) -> Result<Vec<Vec3>> {
    (0..n)
        .map(|m| {
            let v = (|| Ok([f32(r, "x")?, f32(r, "y")?, f32(r, "z")?]))();
            v.map_err(|e: crate::error::Error| e.within(format_args!("{field}[{m}]")))
        })
        .collect()
}
