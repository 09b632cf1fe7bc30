//! The data of an IMF file, in file order: the version (`f32`, 1.01 in every file the loaders know), a
//! `u32` the loaders call the checksum, the index of the last layer (`u32`: a file holds one layer more),
//! then per layer a `u32` action count, per action a `u32` frame count, and per frame three `i32`: the
//! priority and two coordinates (`x`, `y`) no loader uses. Bytes after the last frame are kept in
//! `trailing`.

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;
use crate::codec::float::F32;

/// The version every known file has, 1.01 as a little-endian `f32` (`AE 47 81 3F`); GRF Editor takes these
/// four bytes as the magic.
pub const MAGIC: [u8; 4] = [0xAE, 0x47, 0x81, 0x3F];

/// The version 1.01 as stored (`f32` bits).
pub const VERSION_1_01: F32 = F32(0x3F81_47AE);

/// Bytes before the first layer: version, checksum, last layer index.
pub const HEADER_LEN: usize = 12;

/// Bytes of one frame: priority, x, y.
pub const FRAME_LEN: usize = 12;

/// Bytes of a count (a layer's actions, an action's frames): the least a layer or an action takes.
pub const COUNT_LEN: usize = 4;

/// The layers the loaders name: 0 is the body, 1 the head (zrenderer, and the renderers after it, read
/// layer 1 to place the head). Others are unnamed.
pub const LAYER_NAMES: [&str; 2] = ["body", "head"];

/// One frame of one action of one layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Frame {
    /// Where the layer is drawn in this frame; for the head layer, 1 draws the head before (under) the
    /// body (zrenderer), other values over it.
    pub priority: i32,
    /// Stored after the priority (zrenderer's `cx`, GRF Editor's `X`); no loader uses it.
    pub x: i32,
    /// Stored after `x` (zrenderer's `cy`, GRF Editor's `Y`); no loader uses it.
    pub y: i32,
}

/// An IMF file: `layers[layer][action][frame]`, actions in the order of the job's ACT (8 directions per
/// action group).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Imf {
    /// As stored (1.01 in real files; other values read with the same layout).
    pub version: F32,
    /// As stored; no loader checks it, GRF Editor writes 0.
    pub checksum: u32,
    /// At least one: the file stores the index of the last.
    pub layers: Vec<Vec<Vec<Frame>>>,
    /// Bytes after the last frame, kept so the file writes back as it was.
    #[serde(default, skip_serializing_if = "is_empty")]
    pub trailing: Base64,
}

fn is_empty(b: &Base64) -> bool {
    b.0.is_empty()
}

impl Imf {
    /// The frame of `layer`, `action`, `frame`, if the file has it.
    pub fn frame(&self, layer: usize, action: usize, frame: usize) -> Option<&Frame> {
        self.layers.get(layer)?.get(action)?.get(frame)
    }

    /// The priority of `layer` in `action`'s `frame` (what zrenderer's `priority(layer, action, frame)` reads).
    pub fn priority(&self, layer: usize, action: usize, frame: usize) -> Option<i32> {
        self.frame(layer, action, frame).map(|f| f.priority)
    }

    /// Whether the version is 1.01, the only one known.
    pub fn is_known_version(&self) -> bool {
        self.version == VERSION_1_01
    }
}

/// The name of layer `index` (`body`, `head`), or `None` for layers no loader names.
pub fn layer_name(index: usize) -> Option<&'static str> {
    LAYER_NAMES.get(index).copied()
}
