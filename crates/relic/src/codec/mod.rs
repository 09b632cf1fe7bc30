//! Codecs shared by several formats: text code pages, bit-exact floats; pixel formats, palettes, DXT and
//! RLE helpers join here as the formats that need them arrive, so each lives once.

pub mod float;
pub mod text;
