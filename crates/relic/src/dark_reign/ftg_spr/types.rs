//! The headerless FTG sprite layout as the spec gives it ("FTG-bundled SPR Format"): an 8-byte header, an
//! 8-byte descriptor per frame, then each frame's raw 8-bit pixels. Every field is kept, so the lossless
//! document of `relic convert --to json` writes the file back byte for byte.

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;

/// A whole file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FtgSprDocument {
    /// Always `dr-ftg-spr`.
    pub format: String,
    /// `max_width`, `max_height`: informational, may be 0 (spec); kept as stored, never recomputed.
    pub max_width: u16,
    pub max_height: u16,
    /// `reserved`: unused / padding (spec); kept.
    pub reserved: u16,
    /// `num_frames` frames, in file order.
    pub frames: Vec<FtgFrame>,
    /// Bytes after the last frame's pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trailing: Option<Base64>,
}

/// One frame: its descriptor and its pixels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FtgFrame {
    pub width: u16,
    pub height: u16,
    /// The hotspot: the sprite's origin is this many pixels right of and below the top-left (spec).
    pub offset_x: i16,
    pub offset_y: i16,
    /// `width · height` palette indices, rows top to bottom. Always present in the lossless document; the
    /// document of `relic convert` leaves it out where the frame PNG gives the indices back exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pixels: Option<Base64>,
}

/// Header bytes (spec "Header (8 bytes)").
pub const HEADER_SIZE: usize = 8;
/// Descriptor bytes (spec "Per-Frame Descriptors (8 bytes × num_frames)").
pub const DESCRIPTOR_SIZE: usize = 8;
