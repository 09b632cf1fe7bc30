//! Pixels of Dark Reign sprites to RGBA and back, shared by `dr-spr` and `dr-ftg-spr`: palette indices
//! through a palette whose index 0 is transparent (spec: "index 0 is always transparent"), or a shadow
//! sprite's opaque pixels as one translucent dark colour ([`SHADOW`]). Going back from a PNG, colours map to
//! the palette index that has them (the lowest one when several do), or to the nearest colour, counted so
//! that `pack` can say so.

use std::collections::HashMap;

use crate::codec::palette::Palette;
use crate::error::{Error, Result};

/// How a shadow sprite's opaque pixels are drawn: black at half opacity. docs/formats/dark-reign.md#spr-shadow: SSPR opaque runs
/// carry no pixel bytes and the game draws them as a translucent dark shadow; which colour is relic's
/// choice (index 47 is a team colour, not a shadow, and is never used for them).
pub const SHADOW: [u8; 4] = [0, 0, 0, 128];
/// Skipped pixels.
pub const TRANSPARENT: [u8; 4] = [0, 0, 0, 0];

/// A sprite's colours.
#[derive(Debug, Clone)]
pub enum Paint {
    /// 256 RGBA colours, index 0 transparent.
    Palette { colours: Vec<[u8; 4]>, exact: HashMap<[u8; 4], u8> },
    /// Shadow sprites: 0 transparent, anything else [`SHADOW`].
    Shadow,
}

impl Paint {
    /// The colours of `palette` (missing entries opaque black), index 0 made transparent.
    pub fn palette(palette: &Palette) -> Paint {
        let mut colours: Vec<[u8; 4]> = palette.colors.iter().take(256).copied().collect();
        colours.resize(256, [0, 0, 0, 255]);
        if let Some(c) = colours.first_mut() {
            *c = TRANSPARENT;
        }
        Paint::from_colours(colours)
    }

    fn from_colours(colours: Vec<[u8; 4]>) -> Paint {
        let mut exact = HashMap::new();
        // Index 0 is transparent whatever its entry says; drawn colours map among 1..=255, lowest first.
        for (i, c) in colours.iter().enumerate().skip(1).rev() {
            exact.insert(*c, i as u8);
        }
        Paint::Palette { colours, exact }
    }

    pub fn is_shadow(&self) -> bool {
        matches!(self, Paint::Shadow)
    }

    /// The colour of a pixel value.
    pub fn rgba(&self, index: u8) -> [u8; 4] {
        match self {
            _ if index == 0 => TRANSPARENT,
            Paint::Shadow => SHADOW,
            Paint::Palette { colours, .. } => colours.get(usize::from(index)).copied().unwrap_or(TRANSPARENT),
        }
    }

    /// Pixel values to RGBA8.
    pub fn to_rgba(&self, pixels: &[u8]) -> Vec<u8> {
        pixels.iter().flat_map(|&p| self.rgba(p)).collect()
    }

    /// The pixel value of a colour, and whether the colour was exact: alpha 0 is transparent (0); a shadow
    /// sprite's other pixels are shadow (1); a palette colour maps to its lowest index above 0, another
    /// colour to the nearest one (RGB distance) that is not transparent.
    pub fn index(&self, rgba: [u8; 4]) -> (u8, bool) {
        if rgba[3] == 0 {
            return (0, true);
        }
        let Paint::Palette { colours, exact } = self else { return (1, true) };
        if let Some(&i) = exact.get(&rgba) {
            return (i, true);
        }
        let distance =
            |c: &[u8; 4]| -> u32 { (0..3).map(|k| (i32::from(c[k]) - i32::from(rgba[k])).pow(2) as u32).sum() };
        let nearest = colours
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(_, c)| c[3] != 0)
            .min_by_key(|(_, c)| distance(c))
            .map_or(0, |(i, _)| i as u8);
        (nearest, false)
    }

    /// Whether RGBA made of `pixels` maps back to exactly `pixels`.
    pub fn reproducible(&self, pixels: &[u8]) -> bool {
        let mut back = [false; 256];
        for (v, ok) in back.iter_mut().enumerate() {
            *ok = self.index(self.rgba(v as u8)).0 == v as u8;
        }
        pixels.iter().all(|&p| back[usize::from(p)])
    }

    /// RGBA8 back to pixel values. Where `hint` (the values the picture had) gives a value whose colour is
    /// the pixel's, that value is kept (so that duplicate palette colours come back as they were).
    /// Returns the values and how many pixels were not exact colours.
    pub fn from_rgba(&self, rgba: &[u8], hint: Option<&[u8]>) -> (Vec<u8>, usize) {
        let mut inexact = 0;
        let values = rgba
            .chunks_exact(4)
            .enumerate()
            .map(|(i, px)| {
                let c = [px[0], px[1], px[2], px[3]];
                if let Some(&h) = hint.and_then(|h| h.get(i)) {
                    if self.rgba(h) == c {
                        return h;
                    }
                }
                let (v, exact) = self.index(c);
                inexact += usize::from(!exact);
                v
            })
            .collect();
        (values, inexact)
    }

    /// The palette as `#rrggbbaa` strings, for the document of `relic convert`; `None` for shadows.
    pub fn to_json(&self) -> Option<Vec<String>> {
        match self {
            Paint::Shadow => None,
            Paint::Palette { colours, .. } => Some(colours.iter().map(|c| format!("#{}", hex::encode(c))).collect()),
        }
    }

    /// A palette written by [`Paint::to_json`].
    pub fn from_json(format: &'static str, value: &serde_json::Value) -> Result<Paint> {
        let bad = |m: String| Error::refused(format, "palette", m);
        let list = value.as_array().ok_or_else(|| bad("not a list of colours".into()))?;
        if list.len() != 256 {
            return Err(bad(format!("{} colours (256 expected)", list.len())));
        }
        let mut colours = Vec::with_capacity(256);
        for (i, v) in list.iter().enumerate() {
            let text = v.as_str().and_then(|s| s.strip_prefix('#')).unwrap_or_default();
            let bytes = hex::decode(text).ok().filter(|b| b.len() == 4);
            let c = bytes.ok_or_else(|| bad(format!("entry {i} is not `#rrggbbaa`")))?;
            colours.push([c[0], c[1], c[2], c[3]]);
        }
        Ok(Paint::from_colours(colours))
    }
}

/// Reads a frame PNG of `width × height` pixels as RGBA8.
pub fn read_png(path: &std::path::Path, width: usize, height: usize) -> Result<Vec<u8>> {
    decode_png(path, &crate::source::read(path)?, width, height)
}

/// [`read_png`] of a PNG already read (`bytes`, from `path`): pack opens frames without following links.
pub fn decode_png(path: &std::path::Path, bytes: &[u8], width: usize, height: usize) -> Result<Vec<u8>> {
    let image = crate::export::png::decode_rgba(bytes).map_err(|e| e.in_file(path))?;
    match image.frames.into_iter().next() {
        Some(crate::asset::Frame { width: w, height: h, pixels: crate::asset::Pixels::Rgba8(px), .. })
            if w as usize == width && h as usize == height =>
        {
            Ok(px)
        }
        Some(f) => Err(Error::Refused(format!(
            "{}: {}×{} pixels, the sprite's frames are {width}×{height}",
            path.display(),
            f.width,
            f.height
        ))),
        None => Err(Error::Refused(format!("{}: no image", path.display()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_map_back_to_their_lowest_index_or_the_hint() {
        let mut pal = Palette::greyscale();
        pal.colors[9] = pal.colors[5];
        let paint = Paint::palette(&pal);
        assert_eq!(paint.rgba(0), TRANSPARENT);
        assert_eq!(paint.index([5, 5, 5, 255]), (5, true));
        assert_eq!(paint.index([7, 6, 7, 200]), (7, false));
        assert_eq!(paint.index([1, 2, 3, 0]), (0, true));
        assert!(!paint.reproducible(&[9]));
        assert!(paint.reproducible(&[0, 5, 200]));
        let rgba = paint.to_rgba(&[9, 5, 0]);
        assert_eq!(paint.from_rgba(&rgba, None), (vec![5, 5, 0], 0));
        assert_eq!(paint.from_rgba(&rgba, Some(&[9, 9, 9])), (vec![9, 9, 0], 0));
        let back = Paint::from_json("test", &serde_json::json!(paint.to_json().unwrap())).unwrap();
        assert_eq!(back.to_rgba(&[9, 5, 0, 255]), paint.to_rgba(&[9, 5, 0, 255]));
        assert!(Paint::from_json("test", &serde_json::json!(["#00"])).is_err());
    }

    #[test]
    fn shadows_are_translucent_black() {
        let paint = Paint::Shadow;
        assert_eq!(paint.to_rgba(&[0, 1]), [0, 0, 0, 0, 0, 0, 0, 128]);
        assert_eq!(paint.from_rgba(&[9, 9, 9, 255, 9, 9, 9, 0], None), (vec![1, 0], 0));
        assert!(paint.reproducible(&[0, 1]));
        assert!(!paint.reproducible(&[2]));
    }
}
