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

/// An ANM file: the animation of one model part (an entry of an animation RES, named after the part).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Anm {
    /// One rotation per frame, relative to the parent part.
    pub rotations: Vec<Quat>,
    /// One translation per frame, `[x, y, z]`.
    pub translations: Vec<Vec3>,
    /// The morphing vertex count as stored; `None` when the file ends before it, as editor-written files
    /// without morphing frames do (CORRECTIONS.md). Every morphing frame has this many shifts.
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
