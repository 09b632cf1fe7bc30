//! Level records of `.lvl` files (not in the spec; layouts from docs/formats/drakan.md#lvl, as OpenDrakan reads them):
//! 0x0000, the level's name, size and database references, and 0x0001, the landscape layers: their
//! definitions, then one zlib block per layer holding its vertex grid and cells. Blocks are kept as stored
//! (so writing is exact) and decoded on demand by [`decode_block`]; the terrain glTF comes later.
//!
//! Where docs/formats/drakan.md#lvl is silent, as read here: the u32 between the definitions and the blocks (said to
//! be 1) is kept whatever its value; the blocks are as many as the layers.

use serde::{Deserialize, Serialize};

use super::common::{body_reader, count_u32, hex_is_empty, items, list_u32, read_f32, rest, Name, Put, F32};
use super::{Ref, FORMAT_ID};
use crate::bytes::{Base64, Hex};
use crate::codec::zlib;
use crate::error::{Error, Result};
use crate::reader::Reader;

// ---------------------------------------------------------------------------------------------------------
// 0x0000

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct LevelInfo {
    pub name: Name,
    pub max_width: u32,
    pub max_height: u32,
    pub refs: Vec<DatabaseRef>,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

/// A database the level uses: its index (as references name it) and path.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DatabaseRef {
    pub db_index: u16,
    /// 0 in every known file.
    pub unk: u16,
    pub path: Name,
}

pub fn parse_info(body: &[u8], base: u64) -> Result<LevelInfo> {
    let mut r = body_reader(body, base);
    let name = Name::read(&mut r, "level_info.name")?;
    let max_width = r.u32("level_info.max_width")?;
    let max_height = r.u32("level_info.max_height")?;
    let refs = list_u32(&mut r, "level_info.refs", 6, |r| {
        Ok(DatabaseRef { db_index: r.u16("db_index")?, unk: r.u16("unk")?, path: Name::read(r, "path")? })
    })?;
    Ok(LevelInfo { name, max_width, max_height, refs, trailing: rest(&mut r) })
}

pub fn write_info(l: &LevelInfo) -> Vec<u8> {
    let mut out = Vec::new();
    l.name.write(&mut out);
    out.put_u32(l.max_width);
    out.put_u32(l.max_height);
    out.put_u32(count_u32(l.refs.len()));
    for d in &l.refs {
        out.put_u16(d.db_index);
        out.put_u16(d.unk);
        d.path.write(&mut out);
    }
    out.extend_from_slice(&l.trailing.0);
    out
}

// ---------------------------------------------------------------------------------------------------------
// 0x0001

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Layers {
    pub layers: Vec<LayerDefinition>,
    /// The u32 after the definitions (1).
    pub marker: u32,
    /// One per layer, in the same order.
    pub blocks: Vec<LayerBlock>,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct LayerDefinition {
    pub id: u32,
    /// In cells.
    pub width: u32,
    pub height: u32,
    pub layer_type: u32,
    pub origin_x: u32,
    pub origin_y: u32,
    pub world_height: F32,
    pub name: Name,
    pub flags: u32,
    pub light_direction: F32,
    pub light_ascension: F32,
    /// 0x00RRGGBB.
    pub light_colour: u32,
    /// 0x00RRGGBB.
    pub ambient_colour: u32,
    pub dropoff: u32,
    pub visible_layers: Vec<u32>,
}

/// A layer's zlib block as stored (after its u32 size).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct LayerBlock {
    pub data: Base64,
    /// File offset of `data`, for errors while decoding it.
    #[serde(skip)]
    pub offset: u64,
}

/// A decoded layer block: `(width + 1) × (height + 1)` vertices row by row, then `width × height` cells.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct LayerGrid {
    pub vertices: Vec<Vertex>,
    pub cells: Vec<Cell>,
}

/// 4 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Vertex {
    pub kind: u8,
    /// 0 in every known file.
    pub unk: u8,
    pub v: u16,
}

impl Vertex {
    /// Height in world units: (v − 0x8000) × 2.
    pub fn height(self) -> i32 {
        (i32::from(self.v) - 0x8000) * 2
    }
}

/// 26 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Cell {
    pub flags: u16,
    /// Texture of the left triangle: FFFF:FFFF = hole, FFFE:FFFF = invisible.
    pub left: Ref,
    pub right: Ref,
    pub uv: [u16; 8],
}

impl Cell {
    pub fn is_hole(r: Ref) -> bool {
        r == Ref { id: 0xFFFF, db: 0xFFFF }
    }
    pub fn is_invisible(r: Ref) -> bool {
        r == Ref { id: 0xFFFE, db: 0xFFFF }
    }
}

/// A definition is at least this many bytes (fixed fields, an empty name and an empty id list).
const MIN_DEFINITION: usize = 58;

fn read_definition(r: &mut Reader<'_>) -> Result<LayerDefinition> {
    Ok(LayerDefinition {
        id: r.u32("id")?,
        width: r.u32("width")?,
        height: r.u32("height")?,
        layer_type: r.u32("type")?,
        origin_x: r.u32("origin_x")?,
        origin_y: r.u32("origin_y")?,
        world_height: read_f32(r, "world_height")?,
        name: Name::read(r, "name")?,
        flags: r.u32("flags")?,
        light_direction: read_f32(r, "light_direction")?,
        light_ascension: read_f32(r, "light_ascension")?,
        light_colour: r.u32("light_colour")?,
        ambient_colour: r.u32("ambient_colour")?,
        dropoff: r.u32("dropoff")?,
        visible_layers: list_u32(r, "visible_layers", 4, |r| r.u32("id"))?,
    })
}

pub fn parse_layers(body: &[u8], base: u64) -> Result<Layers> {
    let mut r = body_reader(body, base);
    let layers = list_u32(&mut r, "level_layers", MIN_DEFINITION, read_definition)?;
    let marker = r.u32("level_layers.marker")?;
    let blocks = items(&mut r, layers.len() as u64, "level_layers.blocks", 4, |r| {
        let n = r.u32("size")?;
        let n = r.count(u64::from(n), 1, "data")?;
        let offset = r.offset();
        Ok(LayerBlock { data: Base64(r.bytes(n, "data")?.to_vec()), offset })
    })?;
    Ok(Layers { layers, marker, blocks, trailing: rest(&mut r) })
}

pub fn write_layers(l: &Layers) -> Vec<u8> {
    let mut out = Vec::new();
    out.put_u32(count_u32(l.layers.len()));
    for d in &l.layers {
        for v in [d.id, d.width, d.height, d.layer_type, d.origin_x, d.origin_y] {
            out.put_u32(v);
        }
        out.put_f32(d.world_height);
        d.name.write(&mut out);
        out.put_u32(d.flags);
        out.put_floats(&[d.light_direction, d.light_ascension]);
        out.put_u32(d.light_colour);
        out.put_u32(d.ambient_colour);
        out.put_u32(d.dropoff);
        out.put_u32(count_u32(d.visible_layers.len()));
        for v in &d.visible_layers {
            out.put_u32(*v);
        }
    }
    out.put_u32(l.marker);
    for b in &l.blocks {
        out.put_u32(count_u32(b.data.0.len()));
        out.extend_from_slice(&b.data.0);
    }
    out.extend_from_slice(&l.trailing.0);
    out
}

/// Inflates and reads a layer's block (bounded: the inflated size follows from the layer's width and
/// height, and must match exactly).
pub fn decode_block(def: &LayerDefinition, block: &LayerBlock) -> Result<LayerGrid> {
    let (w, h) = (u64::from(def.width), u64::from(def.height));
    // Widths and heights up to u32::MAX: (w + 1)(h + 1) alone can pass 2^64.
    let overflow = || Error::limit(FORMAT_ID, "level_layers.blocks", block.offset, "layer size overflows");
    let vertices = (w + 1).checked_mul(h + 1).ok_or_else(overflow)?;
    let cells = w * h;
    let size =
        vertices.checked_mul(4).zip(cells.checked_mul(26)).and_then(|(a, b)| a.checked_add(b)).ok_or_else(overflow)?;
    let at = zlib::At { format: FORMAT_ID, field: "level_layers.block", offset: block.offset };
    let data = zlib::inflate_exact(&block.data.0, size, at)?;
    // The inflated size is exact, so these reads cannot run short.
    let mut r = Reader::with_base(FORMAT_ID, &data, block.offset);
    let vertices = items(&mut r, vertices, "vertices", 4, |r| {
        Ok(Vertex { kind: r.u8("type")?, unk: r.u8("unk")?, v: r.u16("v")? })
    })?;
    let cells = items(&mut r, cells, "cells", 26, |r| {
        let flags = r.u16("flags")?;
        let left = Ref::read(r, "left")?;
        let right = Ref::read(r, "right")?;
        let mut uv = [0u16; 8];
        for v in &mut uv {
            *v = r.u16("uv")?;
        }
        Ok(Cell { flags, left, right, uv })
    })?;
    Ok(LayerGrid { vertices, cells })
}

/// A layer's block made from its grid (the inverse of [`decode_block`]): the vertices, then the cells,
/// zlib-compressed at `level`.
pub fn encode_block(grid: &LayerGrid, level: u32) -> LayerBlock {
    let mut raw = Vec::with_capacity(grid.vertices.len() * 4 + grid.cells.len() * 26);
    for v in &grid.vertices {
        raw.push(v.kind);
        raw.push(v.unk);
        raw.put_u16(v.v);
    }
    for c in &grid.cells {
        raw.put_u16(c.flags);
        c.left.write(&mut raw);
        c.right.write(&mut raw);
        for t in c.uv {
            raw.put_u16(t);
        }
    }
    LayerBlock { data: Base64(zlib::compress(&raw, level)), offset: 0 }
}

/// The zlib level a stream's header names (its FLEVEL bits: fastest, fast, default, best → 1, 5, 6, 9), for
/// compressing an edited block as its original was; 6 when the header says nothing.
pub fn zlib_level(stream: &[u8]) -> u32 {
    match stream.get(1).map(|b| b >> 6) {
        Some(0) => 1,
        Some(1) => 5,
        Some(3) => 9,
        _ => 6,
    }
}
