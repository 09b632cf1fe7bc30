//! BON types: one part's offsets from its parent part, one per morph extreme.

use serde::{Deserialize, Serialize};

use crate::codec::float::F32;

/// `[x, y, z]`, kept bit for bit.
pub type Vec3 = [F32; 3];

/// Bytes of one offset (3 × f32).
pub const OFFSET_SIZE: usize = 12;
/// Offsets in a part of a morphing model (8 × vec3 = 96 bytes).
pub const MORPHS: usize = 8;

/// A BON file: one part's translation relative to its parent part, per morph extreme (8 in every real
/// file; the file holds as many as its size allows).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Bon {
    /// `[x, y, z]` per morph extreme, in the morph order of FIG files.
    pub offsets: Vec<Vec3>,
}

impl Bon {
    /// The offset of morph `m` as `f32`s.
    pub fn offset(&self, m: usize) -> Option<[f32; 3]> {
        self.offsets.get(m).map(|v| v.map(F32::get))
    }
}
