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
/// file; the file holds as many as its size allows). Read with [`Bon::read`], written with [`Bon::to_bytes`]; its
/// JSON is `serde_json::to_value` of it with `"format": "ei-bon"` first
/// ([`crate::registry::tagged_document_json`]).
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::evil_islands::bon::Bon;
///
/// // Two offsets: (1, 2, 3) and (-1, 0, 0.5).
/// let bytes: Vec<u8> = [1.0f32, 2.0, 3.0, -1.0, 0.0, 0.5].iter().flat_map(|f| f.to_le_bytes()).collect();
/// let bon = Bon::read(&bytes)?;
/// assert_eq!(bon.offset(0), Some([1.0, 2.0, 3.0]));
/// assert_eq!(bon.offset(1), Some([-1.0, 0.0, 0.5]));
/// assert_eq!(bon.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
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
