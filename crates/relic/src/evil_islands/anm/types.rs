//! ANM types: one part's animation — rotation keys, translation keys and morphing frames.

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;
use crate::codec::float::F32;

/// `[x, y, z]`, kept bit for bit.
pub type Vec3 = [F32; 3];

/// A rotation quaternion in the file's order, w first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Quat {
    pub w: F32,
    pub x: F32,
    pub y: F32,
    pub z: F32,
}

impl Quat {
    /// `[x, y, z, w]` as `f32`s, glTF's order.
    pub fn xyzw(&self) -> [f32; 4] {
        [self.x.get(), self.y.get(), self.z.get(), self.w.get()]
    }
}

/// An ANM file: the animation of one model part (an entry of an animation RES, named after the part). Read with
/// [`Anm::read`], written with [`Anm::to_bytes`]; its JSON is `serde_json::to_value` of it with `"format":
/// "ei-anm"` first ([`crate::registry::tagged_document_json`]).
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::evil_islands::anm::Anm;
///
/// // One rotation (w = 1), one translation (0, 0, 2), no morphing frames (count 0, vertex count 0).
/// let mut bytes = 1u32.to_le_bytes().to_vec();
/// bytes.extend([1.0f32, 0.0, 0.0, 0.0].iter().flat_map(|f| f.to_le_bytes()));
/// bytes.extend(1u32.to_le_bytes());
/// bytes.extend([0.0f32, 0.0, 2.0].iter().flat_map(|f| f.to_le_bytes()));
/// bytes.extend([0u8; 8]);
/// let anm = Anm::read(&bytes)?;
/// assert_eq!(anm.rotations[0].xyzw(), [0.0, 0.0, 0.0, 1.0]);
/// assert_eq!(anm.translations[0][2].get(), 2.0);
/// assert_eq!(anm.morph_vertex_count, Some(0));
/// assert_eq!(anm.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Anm {
    /// One rotation per frame, relative to the parent part.
    pub rotations: Vec<Quat>,
    /// One translation per frame, `[x, y, z]`.
    pub translations: Vec<Vec3>,
    /// The morphing vertex count as stored; `None` when the file ends before it, as editor-written files
    /// without morphing frames do (docs/formats/evil-islands.md#anm-morph-count). Every morphing frame has this many shifts.
    pub morph_vertex_count: Option<u32>,
    /// Morphing frames: one `[x, y, z]` shift per morphing vertex each.
    pub morph_frames: Vec<Vec<Vec3>>,
    /// Bytes after the morphing frames (none in real files), kept so that writing gives the same file.
    #[serde(default, skip_serializing_if = "is_empty")]
    pub trailing: Base64,
}

fn is_empty(b: &Base64) -> bool {
    b.0.is_empty()
}
