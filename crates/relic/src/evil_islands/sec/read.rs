//! SEC reader (spec "SEC", corrected by docs/formats/evil-islands.md#sec): magic, liquids byte, 33 × 33 land vertices, then
//! when the liquids byte is not 0 33 × 33 water vertices; 16 × 16 land tiles, then when there is water
//! 16 × 16 water tiles and 16 × 16 water material indices.

use super::types::*;
use super::FORMAT_ID;
use crate::bytes::Base64;
use crate::error::Result;
use crate::reader::Reader;

/// Whether `head` starts with the SEC magic.
pub fn is_sec(head: &[u8]) -> bool {
    head.starts_with(&MAGIC)
}

/// Parses a SEC file.
pub fn parse(bytes: &[u8]) -> Result<Sec> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let magic = r.array::<4>("magic")?;
    if magic != MAGIC {
        return Err(r.error_at("magic", 0, format!("expected 74f74bcf, found {}", hex::encode(magic))));
    }
    let liquids = r.u8("liquids")?;
    let wet = liquids != 0;
    // The layout is fixed by the liquids byte: check the whole size before reading any of it.
    let need = if wet { WET_SIZE } else { DRY_SIZE } - HEADER_SIZE;
    if r.remaining() < need {
        return Err(r.error(
            "vertexes",
            format!(
                "a {} sector needs {need} bytes after its header but only {} remain",
                if wet { "wet (liquids byte not 0)" } else { "dry" },
                r.remaining()
            ),
        ));
    }
    let vertices = vertices(&mut r, "vertexes")?;
    let water_vertices = if wet { Some(self::vertices(&mut r, "liquid_vertexes")?) } else { None };
    let tiles = tiles(&mut r, "tiles")?;
    let water = match water_vertices {
        Some(vertices) => {
            let tiles = self::tiles(&mut r, "liquid_tiles")?;
            let mut materials = Vec::with_capacity(TILES);
            for _ in 0..TILES {
                materials.push(r.u16("liquid_material")?);
            }
            Some(Water { vertices, tiles, materials })
        }
        None => None,
    };
    let trailing = Base64(r.bytes(r.remaining(), "trailing")?.to_vec());
    Ok(Sec { liquids, vertices, tiles, water, trailing })
}

fn vertices(r: &mut Reader<'_>, field: &'static str) -> Result<Vec<Vertex>> {
    let mut out = Vec::with_capacity(VERTICES);
    for _ in 0..VERTICES {
        let [dx, dy, z0, z1, n0, n1, n2, n3] = r.array::<VERTEX_SIZE>(field)?;
        out.push(Vertex {
            dx: dx as i8,
            dy: dy as i8,
            z: u16::from_le_bytes([z0, z1]),
            normal: u32::from_le_bytes([n0, n1, n2, n3]),
        });
    }
    Ok(out)
}

fn tiles(r: &mut Reader<'_>, field: &'static str) -> Result<Vec<Tile>> {
    let mut out = Vec::with_capacity(TILES);
    for _ in 0..TILES {
        out.push(Tile(r.u16(field)?));
    }
    Ok(out)
}
