//! Character data, record 0x0208 (spec "\[0x0208] Character data", with docs/formats/drakan.md#character): levels of detail,
//! the scene tree (node and joint infos with per-LOD vertex weights), LOD mesh infos, animation ids,
//! channels with their per-LOD caps, and character bounds. Plain data for JSON and byte-exact writing.
//!
//! Where the spec and docs/formats/drakan.md#character leave room, as read here:
//! - LOD mesh infos: per LOD a u16 count, then that many 28-byte infos (docs/formats/drakan.md#character: exactly one mesh per
//!   LOD; other counts are read as they are).
//! - The end (*unsettled*): docs/formats/drakan.md#character says a u16 equal to the LOD count, then one 16-byte sphere per
//!   LOD; the spec (and OpenDrakan) read per LOD a u16 count and that many spheres. relic takes the
//!   docs/formats/drakan.md#character reading when exactly `16 × count` bytes follow the u16; otherwise the spec's reading if
//!   it fits; otherwise the docs/formats/drakan.md#character reading with the extra bytes kept as trailing.
//! - A LOD count of 0 is an error (spec: "always >= 1"; the LOD names list would be −1 long).
//! - Node names are 32-byte fields: the text before the first NUL, with the raw bytes kept when other
//!   bytes follow it.

use serde::{Deserialize, Serialize};

use super::common::{
    body_reader, count_u16, hex_is_empty, items, list_u16, read_f32, rest, BoundingInfo, Mat3x4, Name, Put, F32,
};
use super::{Ref, FORMAT_ID};
use crate::bytes::Hex;
use crate::error::{Error, Result};
use crate::reader::Reader;

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Character {
    pub bounding_info: BoundingInfo,
    /// Names of LODs 1…; LOD 0 is named after the model. The LOD count is this list's length + 1.
    pub lod_names: Vec<Name>,
    pub nodes: Vec<NodeInfo>,
    pub joints: Vec<JointInfo>,
    /// Per LOD, its meshes (one in every known file).
    pub lod_meshes: Vec<Vec<LodMeshInfo>>,
    /// Animations (database index always 0).
    pub anim_ids: Vec<Ref>,
    pub channels: Vec<Channel>,
    pub bounds: CharBounds,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

/// A node of the modeller's scene tree (36 bytes).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct NodeInfo {
    pub name: String,
    /// The 32 stored bytes, when they are not the name followed by zeros.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_raw: Option<Hex>,
    /// Index in the joint table; −1 when the node is not a joint.
    pub joint_info_index: i32,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct JointInfo {
    /// Inverted model-relative transform.
    pub inverted_model_rel_xform: Mat3x4,
    /// The mesh this bone moves; −1 for attachment points.
    pub mesh_index: i32,
    /// 0 when there is none.
    pub first_child_index: i32,
    /// 0 for the last sibling.
    pub next_sibling_index: i32,
    /// Per LOD, the vertices this bone moves.
    pub weights_per_lod: Vec<Vec<VertexWeight>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct VertexWeight {
    /// Relative to where the LOD starts in the vertex list.
    pub vertex_index: u32,
    pub weight: F32,
}

/// 28 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct LodMeshInfo {
    pub distance_threshold: F32,
    pub usage: u32,
    pub node_index: u32,
    pub first_vertex_index: u32,
    pub num_vertices: u32,
    pub first_poly_index: u32,
    pub num_polys: u32,
}

/// An animation channel.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Channel {
    pub node_index: i32,
    /// The matrix as stored in the `.rec`.
    pub xform_a: Mat3x4,
    /// Precomputed from `xform_a`.
    pub xform_b: Mat3x4,
    pub lod_caps: Vec<LodCap>,
}

/// Dismemberment data of a channel (probably).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct LodCap {
    pub first_cap_poly_index: u32,
    pub num_cap_polys: u32,
    pub first_part_poly_index: u32,
    pub num_part_polys: u32,
    pub unk: u32,
    pub vertex_weights: Vec<VertexWeight>,
}

/// 16 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CharSphere {
    pub first_child: u16,
    pub next_sibling: u16,
    /// The vertex (in 0x0203) at the sphere's centre.
    pub position_vertex_id: u32,
    pub radius: F32,
    pub channel_index: u16,
    pub unknown2: u16,
}

/// The character bounds at the end of the record, in one of the two readings (see the module notes). The
/// stored u16 count is the list's length.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CharBounds {
    /// docs/formats/drakan.md#character: one sphere per LOD.
    OnePerLod(Vec<CharSphere>),
    /// The spec: per LOD a u16-counted list of spheres.
    Lists(Vec<Vec<CharSphere>>),
}

impl Default for CharBounds {
    fn default() -> Self {
        CharBounds::OnePerLod(Vec::new())
    }
}

const NODE_NAME_LEN: usize = 32;

fn read_weight(r: &mut Reader<'_>) -> Result<VertexWeight> {
    Ok(VertexWeight { vertex_index: r.u32("vertex_index")?, weight: read_f32(r, "weight")? })
}

fn read_sphere(r: &mut Reader<'_>) -> Result<CharSphere> {
    Ok(CharSphere {
        first_child: r.u16("first_child")?,
        next_sibling: r.u16("next_sibling")?,
        position_vertex_id: r.u32("position_vertex_id")?,
        radius: read_f32(r, "radius")?,
        channel_index: r.u16("channel_index")?,
        unknown2: r.u16("unknown2")?,
    })
}

fn read_node(r: &mut Reader<'_>) -> Result<NodeInfo> {
    let raw = r.bytes(NODE_NAME_LEN, "name")?;
    let text = raw.split(|&b| b == 0).next().unwrap_or(raw);
    let name = crate::codec::text::decode(encoding_rs::WINDOWS_1252, text);
    let exact = node_name_bytes(&name) == raw;
    Ok(NodeInfo { name, name_raw: (!exact).then(|| Hex(raw.to_vec())), joint_info_index: r.i32("joint_info_index")? })
}

/// A node name as its 32-byte field: Windows-1252, zero-padded (cut at 32 bytes).
fn node_name_bytes(name: &str) -> [u8; NODE_NAME_LEN] {
    let text = crate::codec::text::encode(encoding_rs::WINDOWS_1252, name).unwrap_or_else(|| name.as_bytes().to_vec());
    let mut out = [0u8; NODE_NAME_LEN];
    for (o, b) in out.iter_mut().zip(text) {
        *o = b;
    }
    out
}

pub fn parse(body: &[u8], base: u64) -> Result<Character> {
    let mut r = body_reader(body, base);
    let bounding_info = BoundingInfo::read(&mut r, "character.bounding_info")?;
    let at = r.offset();
    let lods = r.u16("character.num_lods")?;
    if lods == 0 {
        return Err(Error::invalid(FORMAT_ID, "character.num_lods", at, "0 levels of detail (at least 1 expected)"));
    }
    let lod_names = items(&mut r, u64::from(lods - 1), "character.lod_names", 2, |r| Name::read(r, "name"))?;
    let lods = usize::from(lods);
    let nodes = list_u16(&mut r, "character.nodes", NODE_NAME_LEN + 4, read_node)?;
    let joints = list_u16(&mut r, "character.joints", Mat3x4::SIZE + 12 + 2 * lods, |r| {
        Ok(JointInfo {
            inverted_model_rel_xform: Mat3x4::read(r, "inverted_model_rel_xform")?,
            mesh_index: r.i32("mesh_index")?,
            first_child_index: r.i32("first_child_index")?,
            next_sibling_index: r.i32("next_sibling_index")?,
            weights_per_lod: items(r, lods as u64, "weights_per_lod", 2, |r| list_u16(r, "weights", 8, read_weight))?,
        })
    })?;
    let lod_meshes = items(&mut r, lods as u64, "character.lod_meshes", 2, |r| {
        list_u16(r, "meshes", 28, |r| {
            Ok(LodMeshInfo {
                distance_threshold: read_f32(r, "distance_threshold")?,
                usage: r.u32("usage")?,
                node_index: r.u32("node_index")?,
                first_vertex_index: r.u32("first_vertex_index")?,
                num_vertices: r.u32("num_vertices")?,
                first_poly_index: r.u32("first_poly_index")?,
                num_polys: r.u32("num_polys")?,
            })
        })
    })?;
    let anim_ids = list_u16(&mut r, "character.anim_ids", 4, |r| Ref::read(r, "ref"))?;
    let channels = list_u16(&mut r, "character.channels", 4 + 2 * Mat3x4::SIZE + 2, |r| {
        Ok(Channel {
            node_index: r.i32("node_index")?,
            xform_a: Mat3x4::read(r, "xform_a")?,
            xform_b: Mat3x4::read(r, "xform_b")?,
            lod_caps: list_u16(r, "lod_caps", 22, |r| {
                Ok(LodCap {
                    first_cap_poly_index: r.u32("first_cap_poly_index")?,
                    num_cap_polys: r.u32("num_cap_polys")?,
                    first_part_poly_index: r.u32("first_part_poly_index")?,
                    num_part_polys: r.u32("num_part_polys")?,
                    unk: r.u32("unk")?,
                    vertex_weights: list_u16(r, "vertex_weights", 8, read_weight)?,
                })
            })?,
        })
    })?;
    let bounds = read_bounds(&mut r)?;
    Ok(Character {
        bounding_info,
        lod_names,
        nodes,
        joints,
        lod_meshes,
        anim_ids,
        channels,
        bounds,
        trailing: rest(&mut r),
    })
}

/// The character bounds in the reading that fits (see the module notes).
fn read_bounds(r: &mut Reader<'_>) -> Result<CharBounds> {
    let n = u64::from(r.u16("character.bounds.count")?);
    let one_per_lod = |r: &mut Reader<'_>| items(r, n, "character.bounds", 16, read_sphere).map(CharBounds::OnePerLod);
    if r.remaining() as u64 == n * 16 {
        return one_per_lod(r);
    }
    let mut lists = r.clone();
    match items(&mut lists, n, "character.bounds", 2, |r| list_u16(r, "spheres", 16, read_sphere)) {
        Ok(spheres) => {
            *r = lists;
            Ok(CharBounds::Lists(spheres))
        }
        Err(_) => one_per_lod(r),
    }
}

pub fn write(c: &Character) -> Vec<u8> {
    let mut out = Vec::new();
    c.bounding_info.write(&mut out);
    out.put_u16(count_u16(c.lod_names.len() + 1));
    for n in &c.lod_names {
        n.write(&mut out);
    }
    out.put_u16(count_u16(c.nodes.len()));
    for n in &c.nodes {
        match n.name_raw.as_ref().filter(|raw| raw.0.len() == NODE_NAME_LEN) {
            Some(raw)
                if raw
                    .0
                    .split(|&b| b == 0)
                    .next()
                    .is_some_and(|t| crate::codec::text::decode(encoding_rs::WINDOWS_1252, t) == n.name) =>
            {
                out.extend_from_slice(&raw.0)
            }
            _ => out.extend_from_slice(&node_name_bytes(&n.name)),
        }
        out.put_i32(n.joint_info_index);
    }
    out.put_u16(count_u16(c.joints.len()));
    for j in &c.joints {
        j.inverted_model_rel_xform.write(&mut out);
        out.put_i32(j.mesh_index);
        out.put_i32(j.first_child_index);
        out.put_i32(j.next_sibling_index);
        for weights in &j.weights_per_lod {
            write_weights(weights, &mut out);
        }
    }
    for meshes in &c.lod_meshes {
        out.put_u16(count_u16(meshes.len()));
        for m in meshes {
            out.put_f32(m.distance_threshold);
            for v in [m.usage, m.node_index, m.first_vertex_index, m.num_vertices, m.first_poly_index, m.num_polys] {
                out.put_u32(v);
            }
        }
    }
    out.put_u16(count_u16(c.anim_ids.len()));
    for a in &c.anim_ids {
        a.write(&mut out);
    }
    out.put_u16(count_u16(c.channels.len()));
    for ch in &c.channels {
        out.put_i32(ch.node_index);
        ch.xform_a.write(&mut out);
        ch.xform_b.write(&mut out);
        out.put_u16(count_u16(ch.lod_caps.len()));
        for cap in &ch.lod_caps {
            for v in
                [cap.first_cap_poly_index, cap.num_cap_polys, cap.first_part_poly_index, cap.num_part_polys, cap.unk]
            {
                out.put_u32(v);
            }
            write_weights(&cap.vertex_weights, &mut out);
        }
    }
    match &c.bounds {
        CharBounds::OnePerLod(spheres) => {
            out.put_u16(count_u16(spheres.len()));
            spheres.iter().for_each(|s| write_sphere(s, &mut out));
        }
        CharBounds::Lists(lists) => {
            out.put_u16(count_u16(lists.len()));
            for spheres in lists {
                out.put_u16(count_u16(spheres.len()));
                spheres.iter().for_each(|s| write_sphere(s, &mut out));
            }
        }
    }
    out.extend_from_slice(&c.trailing.0);
    out
}

fn write_weights(weights: &[VertexWeight], out: &mut Vec<u8>) {
    out.put_u16(count_u16(weights.len()));
    for w in weights {
        out.put_u32(w.vertex_index);
        out.put_f32(w.weight);
    }
}

fn write_sphere(s: &CharSphere, out: &mut Vec<u8>) {
    out.put_u16(s.first_child);
    out.put_u16(s.next_sibling);
    out.put_u32(s.position_vertex_id);
    out.put_f32(s.radius);
    out.put_u16(s.channel_index);
    out.put_u16(s.unknown2);
}
