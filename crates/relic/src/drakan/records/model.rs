//! Model records (spec "Model (0x0200 - 0x0209)", with docs/formats/drakan.md#model-polygons): name and shading 0x0200, the
//! database's counters 0x0202, vertices 0x0203, polygons 0x0204, the BSP table 0x0205, the texture list
//! 0x0206, bounding data 0x0207 and REO level of detail 0x0209. Character data 0x0208 is in
//! [`super::character`]. Plain data for JSON and byte-exact writing; the glTF conversion comes later.
//!
//! Where the spec is silent or unclear, as read here:
//! - 0x0204: a polygon with other than 3 or 4 vertices is an error (docs/formats/drakan.md#model-polygons: 3 or 4).
//! - 0x0205: `uint16[2 + uint16] polys` is read as a u16 count `n`, then `n + 2` u16 values.
//! - 0x0207: shapes are spheres when `is_obb` is 0, boxes for any other value (OpenDrakan reads it so); the
//!   stored value is kept.

use serde::{Deserialize, Serialize};

use super::common::{
    body_reader, count_u16, count_u32, hex_is_empty, list_u16, list_u32, read_f32, read_floats, rest, BoundingInfo,
    FlagNames, Flags, Name, Obb, Put, Sphere, Vec2, Vec3, F32,
};
use super::Ref;
use crate::bytes::Hex;
use crate::error::{Error, Result};

// ---------------------------------------------------------------------------------------------------------
// 0x0200

/// Shading bits of record 0x0200.
pub struct ShadingFlags;
impl FlagNames for ShadingFlags {
    const NAMES: &'static [(u32, &'static str)] = &[
        (0x01, "flat"),
        (0x02, "smooth"),
        (0x04, "blend_with_landscape"),
        (0x08, "shiny"),
        (0x10, "additive_blend"),
        (0x20, "environment_mapped"),
        (0x8000, "always_set"),
    ];
}

/// Record 0x0200, the first record of every model.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ModelName {
    pub name: Name,
    /// Flat 0x01, smooth 0x02 (both or neither: no shading, as OpenDrakan reads it), …
    pub shading: Flags<ShadingFlags>,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

pub fn parse_name(body: &[u8], base: u64) -> Result<ModelName> {
    let mut r = body_reader(body, base);
    let name = Name::read(&mut r, "model.name")?;
    let shading = Flags::new(r.u32("model.shading")?);
    Ok(ModelName { name, shading, trailing: rest(&mut r) })
}

pub fn write_name(m: &ModelName) -> Vec<u8> {
    let mut out = Vec::new();
    m.name.write(&mut out);
    out.put_u32(m.shading.value);
    out.extend_from_slice(&m.trailing.0);
    out
}

// ---------------------------------------------------------------------------------------------------------
// 0x0202

/// Record 0x0202: one per database (the last two fields are speculative in the spec).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Counters {
    pub group_count: u16,
    pub last_group_id: u16,
    pub last_model_id: u16,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

pub fn parse_counters(body: &[u8], base: u64) -> Result<Counters> {
    let mut r = body_reader(body, base);
    Ok(Counters {
        group_count: r.u16("model_counters.group_count")?,
        last_group_id: r.u16("model_counters.last_group_id")?,
        last_model_id: r.u16("model_counters.last_model_id")?,
        trailing: rest(&mut r),
    })
}

pub fn write_counters(c: &Counters) -> Vec<u8> {
    let mut out = Vec::new();
    out.put_u16(c.group_count);
    out.put_u16(c.last_group_id);
    out.put_u16(c.last_model_id);
    out.extend_from_slice(&c.trailing.0);
    out
}

// ---------------------------------------------------------------------------------------------------------
// 0x0203

/// Record 0x0203: mesh and bounding vertex positions.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Vertices {
    pub vertices: Vec<Vec3>,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

pub fn parse_vertices(body: &[u8], base: u64) -> Result<Vertices> {
    let mut r = body_reader(body, base);
    let vertices = list_u16(&mut r, "model_vertices", 12, |r| read_floats(r, "xyz"))?;
    Ok(Vertices { vertices, trailing: rest(&mut r) })
}

pub fn write_vertices(v: &Vertices) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 + v.vertices.len() * 12);
    out.put_u16(count_u16(v.vertices.len()));
    for p in &v.vertices {
        out.put_floats(p);
    }
    out.extend_from_slice(&v.trailing.0);
    out
}

// ---------------------------------------------------------------------------------------------------------
// 0x0204

/// Record 0x0204.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Polygons {
    pub polygons: Vec<Polygon>,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Polygon {
    /// 0x0002 = double sided (probably).
    pub flags: u16,
    /// Index into the model's texture list with its null references dropped (docs/formats/drakan.md#model-polygons).
    pub texture_index: u16,
    /// 3 or 4 corners.
    pub vertices: Vec<PolyVertex>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PolyVertex {
    /// Relative to where the current LOD starts in the vertex list.
    pub index: u16,
    pub uv: Vec2,
}

pub fn parse_polygons(body: &[u8], base: u64) -> Result<Polygons> {
    let mut r = body_reader(body, base);
    // A polygon is at least 6 + 3 × 10 bytes.
    let polygons = list_u16(&mut r, "model_polygons", 36, |r| {
        let flags = r.u16("flags")?;
        let at = r.offset();
        let n = r.u16("vertex_count")?;
        if !matches!(n, 3 | 4) {
            return Err(Error::invalid(
                super::FORMAT_ID,
                "vertex_count",
                at,
                format!("{n} vertices (3 or 4 expected)"),
            ));
        }
        let texture_index = r.u16("texture_index")?;
        let mut vertices = Vec::with_capacity(usize::from(n));
        for _ in 0..n {
            vertices.push(PolyVertex { index: r.u16("vertex_index")?, uv: read_floats(r, "uv")? });
        }
        Ok(Polygon { flags, texture_index, vertices })
    })?;
    Ok(Polygons { polygons, trailing: rest(&mut r) })
}

pub fn write_polygons(p: &Polygons) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 + p.polygons.len() * 46);
    out.put_u16(count_u16(p.polygons.len()));
    for poly in &p.polygons {
        out.put_u16(poly.flags);
        out.put_u16(count_u16(poly.vertices.len()));
        out.put_u16(poly.texture_index);
        for v in &poly.vertices {
            out.put_u16(v.index);
            out.put_floats(&v.uv);
        }
    }
    out.extend_from_slice(&p.trailing.0);
    out
}

// ---------------------------------------------------------------------------------------------------------
// 0x0205

/// Record 0x0205, "BSP tree (?)": models made with "Generate BSP Tree" carry it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Bsp {
    pub entries: Vec<BspEntry>,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct BspEntry {
    pub vertices: [u16; 3],
    /// `count + 2` polygon indices (the stored count is two less than the list).
    pub polys: Vec<u16>,
}

pub fn parse_bsp(body: &[u8], base: u64) -> Result<Bsp> {
    let mut r = body_reader(body, base);
    let entries = list_u16(&mut r, "model_bsp", 12, |r| {
        let vertices = [r.u16("vertices")?, r.u16("vertices")?, r.u16("vertices")?];
        let n = u64::from(r.u16("poly_count")?) + 2;
        let n = r.count(n, 2, "polys")?;
        let mut polys = Vec::with_capacity(n);
        for _ in 0..n {
            polys.push(r.u16("polys")?);
        }
        Ok(BspEntry { vertices, polys })
    })?;
    Ok(Bsp { entries, trailing: rest(&mut r) })
}

pub fn write_bsp(b: &Bsp) -> Vec<u8> {
    let mut out = Vec::new();
    out.put_u16(count_u16(b.entries.len()));
    for e in &b.entries {
        for v in e.vertices {
            out.put_u16(v);
        }
        out.put_u16(count_u16(e.polys.len().saturating_sub(2)));
        for p in &e.polys {
            out.put_u16(*p);
        }
    }
    out.extend_from_slice(&b.trailing.0);
    out
}

// ---------------------------------------------------------------------------------------------------------
// 0x0206

/// Record 0x0206: the model's textures, as stored (null references included).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TextureList {
    pub textures: Vec<Ref>,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

impl TextureList {
    /// The list polygons index: null references (0:0) dropped (docs/formats/drakan.md#model-polygons, as OpenDrakan does).
    pub fn used(&self) -> Vec<Ref> {
        self.textures.iter().copied().filter(|t| !t.is_null()).collect()
    }
}

pub fn parse_textures(body: &[u8], base: u64) -> Result<TextureList> {
    let mut r = body_reader(body, base);
    let textures = list_u32(&mut r, "model_textures", 4, |r| Ref::read(r, "ref"))?;
    Ok(TextureList { textures, trailing: rest(&mut r) })
}

pub fn write_textures(t: &TextureList) -> Vec<u8> {
    let mut out = Vec::with_capacity(4 + t.textures.len() * 4);
    out.put_u32(count_u32(t.textures.len()));
    for r in &t.textures {
        r.write(&mut out);
    }
    out.extend_from_slice(&t.trailing.0);
    out
}

// ---------------------------------------------------------------------------------------------------------
// 0x0207

/// Record 0x0207: bounds of non-character models, a sphere and a box around the model, then a hierarchy
/// of spheres or boxes.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Bounds {
    pub bounding_info: BoundingInfo,
    /// 0 = spheres, else boxes (as stored).
    pub is_obb: u16,
    /// `[first_child, first_sibling]` per shape.
    pub hierarchy: Vec<[u16; 2]>,
    pub shapes: Shapes,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shapes {
    Spheres(Vec<Sphere>),
    Boxes(Vec<BoxShape>),
}

impl Default for Shapes {
    fn default() -> Self {
        Shapes::Spheres(Vec::new())
    }
}

/// `obb_ex`: a box and a list of polygon indices of unknown use.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct BoxShape {
    pub obb: Obb,
    pub poly_indices: Vec<u16>,
}

pub fn parse_bounds(body: &[u8], base: u64) -> Result<Bounds> {
    let mut r = body_reader(body, base);
    let bounding_info = BoundingInfo::read(&mut r, "model_bounds.bounding_info")?;
    let n = r.u16("model_bounds.num_shapes")?;
    let is_obb = r.u16("model_bounds.is_obb")?;
    let hierarchy = super::common::items(&mut r, u64::from(n), "model_bounds.hierarchy", 4, |r| {
        Ok([r.u16("first_child")?, r.u16("first_sibling")?])
    })?;
    let shapes = if is_obb == 0 {
        Shapes::Spheres(super::common::items(&mut r, u64::from(n), "model_bounds.spheres", Sphere::SIZE, |r| {
            Sphere::read(r, "sphere")
        })?)
    } else {
        Shapes::Boxes(super::common::items(&mut r, u64::from(n), "model_bounds.boxes", Obb::SIZE + 2, |r| {
            let obb = Obb::read(r, "obb")?;
            let poly_indices = list_u16(r, "poly_indices", 2, |r| r.u16("index"))?;
            Ok(BoxShape { obb, poly_indices })
        })?)
    };
    Ok(Bounds { bounding_info, is_obb, hierarchy, shapes, trailing: rest(&mut r) })
}

pub fn write_bounds(b: &Bounds) -> Vec<u8> {
    let mut out = Vec::new();
    b.bounding_info.write(&mut out);
    out.put_u16(count_u16(b.hierarchy.len()));
    out.put_u16(b.is_obb);
    for [child, sibling] in &b.hierarchy {
        out.put_u16(*child);
        out.put_u16(*sibling);
    }
    match &b.shapes {
        Shapes::Spheres(spheres) => spheres.iter().for_each(|s| s.write(&mut out)),
        Shapes::Boxes(boxes) => {
            for bx in boxes {
                bx.obb.write(&mut out);
                out.put_u16(count_u16(bx.poly_indices.len()));
                for i in &bx.poly_indices {
                    out.put_u16(*i);
                }
            }
        }
    }
    out.extend_from_slice(&b.trailing.0);
    out
}

// ---------------------------------------------------------------------------------------------------------
// 0x0209

/// Record 0x0209: a lower level of detail of this model (REO = Riot Engine Object).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ReoLod {
    /// A model in the same database.
    pub record_id: u16,
    /// The distance from which that model is used (squared when loaded).
    pub threshold_distance: F32,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

pub fn parse_reo_lod(body: &[u8], base: u64) -> Result<ReoLod> {
    let mut r = body_reader(body, base);
    let record_id = r.u16("reo_lod.record_id")?;
    let threshold_distance = read_f32(&mut r, "reo_lod.threshold_distance")?;
    Ok(ReoLod { record_id, threshold_distance, trailing: rest(&mut r) })
}

pub fn write_reo_lod(l: &ReoLod) -> Vec<u8> {
    let mut out = Vec::new();
    out.put_u16(l.record_id);
    out.put_f32(l.threshold_distance);
    out.extend_from_slice(&l.trailing.0);
    out
}
