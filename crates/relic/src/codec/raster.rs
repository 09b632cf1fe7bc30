//! Common raster images that games ship beside their own formats (BMP, TGA), decoded through the `image`
//! crate into the asset model, so that formats referring to them (model textures) can embed them.

use crate::asset::Image;
#[cfg(feature = "export")]
use crate::asset::{Frame, FrameRole, Pixels};
#[cfg(feature = "export")]
use crate::error::Error;
use crate::error::Result;

/// Decodes a BMP or TGA (any depth the `image` crate reads) into one RGBA8 frame, top row first.
#[cfg(feature = "export")]
pub fn decode(bytes: &[u8]) -> Result<Image> {
    let format = image::guess_format(bytes)
        .ok()
        .filter(|f| matches!(f, image::ImageFormat::Bmp))
        .unwrap_or(image::ImageFormat::Tga); // TGA has no magic at its start
    let decoded = image::load_from_memory_with_format(bytes, format)
        .map_err(|e| Error::Unsupported(format!("{} image: {e}", format.extensions_str().first().unwrap_or(&"?"))))?
        .into_rgba8();
    let (width, height) = decoded.dimensions();
    Ok(Image {
        frames: vec![Frame {
            name: None,
            width,
            height,
            pixels: Pixels::Rgba8(decoded.into_raw()),
            offset: (0, 0),
            hotspots: vec![],
            role: FrameRole::Frame,
        }],
        palette: None,
        frame_rate: None,
        text: Vec::new(),
    })
}

/// A BMP or TGA's pixels: refused, this build has no decoder for them (the `export` feature).
#[cfg(not(feature = "export"))]
pub fn decode(_bytes: &[u8]) -> Result<Image> {
    Err(crate::export::needs_export("BMP and TGA input"))
}

#[cfg(all(test, feature = "export"))]
mod tests {
    use super::*;

    #[test]
    fn decodes_a_bottom_up_bmp_top_row_first() {
        // 2 × 2, 24-bit, bottom row first: bottom = blue, white; top = red, green.
        let mut b = Vec::new();
        b.extend_from_slice(b"BM");
        b.extend_from_slice(&70u32.to_le_bytes());
        b.extend_from_slice(&[0; 4]);
        b.extend_from_slice(&54u32.to_le_bytes());
        b.extend_from_slice(&40u32.to_le_bytes());
        b.extend_from_slice(&2i32.to_le_bytes());
        b.extend_from_slice(&2i32.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&24u16.to_le_bytes());
        b.extend_from_slice(&[0; 24]);
        b.extend_from_slice(&[255, 0, 0, 255, 255, 255, 0, 0]); // BGR: blue, white
        b.extend_from_slice(&[0, 0, 255, 0, 255, 0, 0, 0]); // red, green
        let img = decode(&b).unwrap();
        let Pixels::Rgba8(px) = &img.frames[0].pixels else { panic!() };
        assert_eq!(&px[..8], &[255, 0, 0, 255, 0, 255, 0, 255]);
        assert_eq!(&px[8..], &[0, 0, 255, 255, 255, 255, 255, 255]);
        assert!(decode(b"not an image").is_err());
    }
}
