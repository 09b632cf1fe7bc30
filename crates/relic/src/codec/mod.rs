//! Codecs shared by several formats: text code pages, bit-exact floats, zlib streams, masked pixel formats,
//! DXT block compression and common raster images; palettes and RLE helpers join here as the formats that
//! need them arrive, so each lives once.

pub mod dxt;
pub mod float;
pub mod palette;
pub mod pixel;
pub mod raster;
pub mod text;
pub mod zlib;
