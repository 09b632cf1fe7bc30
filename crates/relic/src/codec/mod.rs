//! Codecs shared by several formats: text code pages and zlib streams now; pixel formats, palettes, DXT and
//! RLE helpers join here as the formats that need them arrive, so each lives once.

pub mod text;
pub mod zlib;
