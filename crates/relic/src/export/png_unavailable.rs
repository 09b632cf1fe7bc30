//! `export::png` without the `export` feature: the same functions, which formats call to write images from
//! PNG (and SRSC to embed PNG), each refusing with [`crate::Error::Unsupported`] that names the feature. Keeping
//! them lets every format compile unchanged and answer through the same [`crate::registry`] faces.

pub use super::compression::PngCompression;
/// PNG text chunks, read in every build (`export/png_text.rs`, shared by both builds of `png`).
pub use super::png_text::{insert_text_chunks, text_chunks};
use super::Exported;
use crate::asset::Image;
use crate::error::Result;

/// PNG files of an image: refused, this build has no PNG encoder.
pub fn encode_image(_img: &Image) -> Result<Vec<Exported>> {
    Err(super::needs_export("PNG output"))
}

/// PNG files of an image: refused, this build has no PNG encoder.
pub fn encode_image_with(_img: &Image, _level: PngCompression) -> Result<Vec<Exported>> {
    Err(super::needs_export("PNG output"))
}

/// A PNG's pixels: refused, this build has no PNG decoder.
pub fn decode_rgba(_bytes: &[u8]) -> Result<Image> {
    Err(super::needs_export("PNG input"))
}

/// An indexed PNG's indices and palette: refused, this build has no PNG decoder.
pub fn decode_indexed(_bytes: &[u8]) -> Result<Option<Image>> {
    Err(super::needs_export("PNG input"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn refuses_naming_the_feature() {
        let err = super::decode_rgba(b"\x89PNG").unwrap_err().to_string();
        assert!(err.contains("PNG input needs relic's `export` feature"), "{err}");
    }
}
