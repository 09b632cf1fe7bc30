//! The headerless FTG sprite layout as the spec gives it ("FTG-bundled SPR Format"): an 8-byte header, an
//! 8-byte descriptor per frame, then each frame's raw 8-bit pixels. Every field is kept, so the lossless
//! document of `relic convert --to json` writes the file back byte for byte.

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;

/// A whole file. Read with [`FtgSprDocument::read`], written with [`FtgSprDocument::to_bytes`]; `relic convert
/// --to json` is `serde_json::to_value` of it.
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::dark_reign::ftg_spr::FtgSprDocument;
///
/// // One 2 × 1 frame with its hotspot at (1, 0): header (frames, max width, max height, reserved), descriptor
/// // (width, height, hotspot x, hotspot y), then the palette indices.
/// let words: [u16; 8] = [1, 2, 1, 0, 2, 1, 1, 0];
/// let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
/// bytes.extend([5, 9]);
/// let sprite = FtgSprDocument::read(&bytes)?;
/// assert_eq!(sprite.frames.len(), 1);
/// assert_eq!((sprite.frames[0].width, sprite.frames[0].height, sprite.frames[0].offset_x), (2, 1, 1));
/// assert_eq!(sprite.frames[0].pixels.as_ref().map(|p| p.0.as_slice()), Some(&[5u8, 9][..]));
/// assert_eq!(sprite.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
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
