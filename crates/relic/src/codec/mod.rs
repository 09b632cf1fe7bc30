//! Codecs shared by several formats: text code pages, zlib streams, masked pixel formats and DXT block
//! compression; palettes and RLE helpers join here as the formats that need them arrive, so each lives once.

pub mod dxt;
pub mod pixel;
pub mod raster;
pub mod text;
pub mod zlib;
