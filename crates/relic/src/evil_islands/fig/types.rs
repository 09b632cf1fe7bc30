//! FIG types: the mesh as stored, with the interleaved vertex blocks decoded into one position list per
//! morph extreme and the normal blocks into one list, so that a vertex component's `position` and `normal`
//! index straight into them. Header counts are not kept: they are the lengths of these lists.

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;
use crate::codec::float::F32;

/// `FIG` followed by the morph count as an ASCII digit (`FIG8`, `FIG1`).
pub const MAGIC_PREFIX: [u8; 3] = *b"FIG";
/// Bytes before the bounds: the magic and 9 × u32.
pub const HEADER_SIZE: usize = 40;
/// Vertices per block (SSE lanes).
pub const LANES: usize = 4;

pub type Vec2 = [F32; 2];
/// `[x, y, z]`, kept bit for bit.
pub type Vec3 = [F32; 3];
pub type Vec4 = [F32; 4];

/// A FIG file. Read with [`Fig::read`], written with [`Fig::to_bytes`]; its JSON is `serde_json::to_value` of
/// it with `"format": "ei-fig"` first ([`crate::registry::tagged_document_json`]).
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::evil_islands::fig::Fig;
///
/// let bytes = std::fs::read("../../samples/evil_islands/body.fig")?;
/// let fig = Fig::read(&bytes)?;
/// assert_eq!(fig.morph_count(), 8);
/// assert_eq!(fig.positions[0].len(), 4);
/// assert_eq!((fig.indices.len(), fig.vertices.len()), (12, 4));
/// assert_eq!((fig.group, fig.texture_index), (19, 1));
/// assert_eq!(fig.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Fig {
    /// Header u32 at 0x1C (the spec's "unknown", 0 in every file seen).
    pub unk_0x1c: u32,
    /// Header u32 at 0x20: the render group (18 and 19 are common).
    pub group: u32,
    /// Header u32 at 0x24: the texture slot (the spec's "texture offset"; 8 in editor-made world objects).
    pub texture_index: u32,
    /// Bounding data per morph extreme; its length is the morph count of the magic (`FIG8`: 8).
    pub bounds: Vec<Bounds>,
    /// Vertex positions per morph extreme (same length for every morph: 4 × the header's vertex block
    /// count). Vertex `v` is lane `v % 4` of block `v / 4`; lanes past the last used vertex are padding.
    pub positions: Vec<Vec<Vec3>>,
    /// Normals `[x, y, z, w]` as stored (4 × the normal block count), not normalised: real files hold
    /// non-unit ones. Normal `v` is lane `v % 4` of block `v / 4`.
    pub normals: Vec<Vec4>,
    /// Texture coordinates `[u, v]` as stored.
    pub texcoords: Vec<Vec2>,
    /// Triangle list: three indices into `vertices` per triangle.
    pub indices: Vec<u16>,
    /// The render vertices: each joins a position, a normal and a texture coordinate.
    pub vertices: Vec<VertexComponent>,
    /// The spec's morphing components (morph index, vertex index pairs; `(i, i)` in every file seen).
    pub morph_components: Vec<MorphComponent>,
    /// Bytes after the morphing components (none in real files), kept so that writing gives the same file.
    #[serde(default, skip_serializing_if = "is_empty")]
    pub trailing: Base64,
}

fn is_empty(b: &Base64) -> bool {
    b.0.is_empty()
}

/// The header's bounding data of one morph extreme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Bounds {
    pub center: Vec3,
    /// Axis-aligned box of the morph's positions.
    pub min: Vec3,
    pub max: Vec3,
    pub radius: F32,
}

/// One render vertex (the spec's `vertex_component`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct VertexComponent {
    /// Index into each morph's `positions` (spec `position_index`).
    pub position: u16,
    /// Index into `normals` (spec `normal_index`).
    pub normal: u16,
    /// Index into `texcoords` (spec `texture_index`).
    pub texcoord: u16,
}

/// One morphing component (the spec's `morph_component`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MorphComponent {
    /// Spec `morph_index`: "index of morphing data".
    pub morph: u16,
    /// Spec `vertex_index`.
    pub vertex: u16,
}

/// A vertex component field, what it indexes and how long that is.
type IndexCheck = (&'static str, usize, fn(&VertexComponent) -> u16);

impl Fig {
    /// Morph extremes in the file (the digit of its magic).
    pub fn morph_count(&self) -> usize {
        self.bounds.len()
    }

    /// Positions per morph (padding lanes included).
    pub fn position_count(&self) -> usize {
        self.positions.first().map_or(0, Vec::len)
    }

    /// The positions of morph `m` as `f32`s.
    pub fn morph_positions(&self, m: usize) -> Option<Vec<[f32; 3]>> {
        self.positions.get(m).map(|p| p.iter().map(|v| v.map(F32::get)).collect())
    }

    /// The normals as unit `[x, y, z]` (`w` dropped); a zero or non-finite normal gives `[0, 0, 1]`.
    pub fn unit_normals(&self) -> Vec<[f32; 3]> {
        self.normals
            .iter()
            .map(|n| {
                let [x, y, z] = [n[0].get(), n[1].get(), n[2].get()];
                let len = (x * x + y * y + z * z).sqrt();
                if len.is_finite() && len > 0.0 {
                    [x / len, y / len, z / len]
                } else {
                    [0.0, 0.0, 1.0]
                }
            })
            .collect()
    }

    /// The triangles, three vertex-component indices each (an incomplete last triangle is left out).
    pub fn triangles(&self) -> impl Iterator<Item = [u16; 3]> + '_ {
        self.indices.chunks_exact(3).filter_map(|t| match *t {
            [a, b, c] => Some([a, b, c]),
            _ => None,
        })
    }

    /// Whether position `v` is used by a vertex component (the others are block padding).
    pub fn used_positions(&self) -> Vec<bool> {
        let mut used = vec![false; self.position_count()];
        for vc in &self.vertices {
            if let Some(u) = used.get_mut(usize::from(vc.position)) {
                *u = true;
            }
        }
        used
    }

    /// Used positions (see [`Fig::used_positions`]) outside their morph's bounding box in the header, as
    /// `(morph, position index)`. Empty for every real file: the check that catches a wrong vertex layout.
    pub fn positions_outside_bounds(&self) -> Vec<(usize, usize)> {
        let used = self.used_positions();
        let mut out = Vec::new();
        for (m, (positions, b)) in self.positions.iter().zip(&self.bounds).enumerate() {
            for (v, p) in positions.iter().enumerate() {
                let inside = (0..3).all(|a| b.min[a].get() <= p[a].get() && p[a].get() <= b.max[a].get());
                if used.get(v).copied().unwrap_or(false) && !inside {
                    out.push((m, v));
                }
            }
        }
        out
    }

    /// What does not hold together (indices past the end of what they index), for `info` and exporters.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.indices.len() % 3 != 0 {
            out.push(format!("{} indices are not whole triangles", self.indices.len()));
        }
        let vertices = self.vertices.len();
        if let Some(i) = self.indices.iter().position(|&i| usize::from(i) >= vertices) {
            out.push(format!("indices[{i}] points past the {vertices} vertex components"));
        }
        let checks: [IndexCheck; 3] = [
            ("position", self.position_count(), |v| v.position),
            ("normal", self.normals.len(), |v| v.normal),
            ("texcoord", self.texcoords.len(), |v| v.texcoord),
        ];
        for (name, len, get) in checks {
            if let Some(i) = self.vertices.iter().position(|v| usize::from(get(v)) >= len) {
                out.push(format!("vertices[{i}].{name} points past the {len} {name}s"));
            }
        }
        out
    }
}
