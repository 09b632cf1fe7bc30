//! The compositor: draws a motion's layers onto an RGBA canvas as the client places them.
//!
//! A layer's image (the sprite's palette frame or RGBA frame its `kind` names) is centred on the layer's
//! offset from the origin (y down), mirrored horizontally when its flag is set, scaled by `scale_x` and
//! `scale_y`, rotated by `rotation` degrees clockwise on screen about its centre (roBrowser's and
//! zrenderer's order: mirror, scale, rotate, translate), multiplied by its colour (RGBA, each /255) and
//! drawn over the layers before it ("over" with straight alpha).
//!
//! Sampling: nearest neighbour. The client draws layers as textured quads in Direct3D, whose pixel
//! centres lie on integer coordinates; roBrowser samples its sprite textures with `NEAREST` filtering,
//! zrenderer also nearest. So canvas pixel `(i, j)` takes the image pixel its point `(i, j)` falls in,
//! mapped back through the layer's transform, and an image of odd width `w` at offset `x` covers columns
//! `x − ⌊w/2⌋ ..= x + ⌊w/2⌋` (a 1-pixel image at 0 is column 0). A point exactly on an edge of the quad
//! is decided by nudging every point by a millionth of a pixel right and down, so the pixels a turned
//! image covers never depend on floating-point noise. Mirroring flips the image within the pixels it
//! covers unmirrored (zrenderer shifts mirrored images by half a pixel, "a dirty hack to fix rounding
//! errors on mirrored sprites", for the same reason).
//!
//! The compositor works on plain images ([`FrameImage`]) so that it needs nothing of the SPR reader.

use crate::error::Result;

use super::types::Layer;

/// A sprite image: `width × height` RGBA pixels, row by row.
#[derive(Debug, Clone, Copy)]
pub struct FrameImage<'a> {
    pub width: u16,
    pub height: u16,
    pub rgba: &'a [u8],
}

/// The images a sprite offers to layers: palette frames (layer kind 0) and RGBA frames (kind 1).
#[derive(Debug, Clone, Copy, Default)]
pub struct Sprites<'a> {
    pub palette: &'a [FrameImage<'a>],
    pub rgba: &'a [FrameImage<'a>],
}

impl<'a> Sprites<'a> {
    /// The image a layer shows, if any (index −1, an unknown kind or an index past the end: none; an
    /// image whose pixels do not fill `width × height`: none).
    pub fn image(&self, layer: &Layer) -> Option<FrameImage<'a>> {
        self.lookup(layer).ok().flatten()
    }

    /// [`Sprites::image`], telling a layer that shows nothing by design (index −1, an empty frame) from
    /// one whose image is not there (an unknown kind, an index past the sprite's frames).
    fn lookup(&self, layer: &Layer) -> std::result::Result<Option<FrameImage<'a>>, Skip> {
        let list = match layer.kind {
            0 => self.palette,
            1 => self.rgba,
            _ => return Err(Skip::UnknownKind),
        };
        let Ok(index) = usize::try_from(layer.sprite) else {
            return if layer.sprite == -1 { Ok(None) } else { Err(Skip::MissingFrame) };
        };
        let image = *list.get(index).ok_or(Skip::MissingFrame)?;
        let need = usize::from(image.width) * usize::from(image.height) * 4;
        Ok((image.width > 0 && image.height > 0 && image.rgba.len() >= need).then_some(image))
    }
}

/// How far from the origin a layer may reach, in pixels, before it is skipped: real sprites stay within
/// a few hundred; a layer past this (a corrupt or hostile offset like x = 1.5e9) would make a canvas no
/// one could open, or draw nowhere.
pub const MAX_REACH: f64 = 32768.0;

/// Why a layer is not drawn although it names an image (each said in one note per file by
/// [`super::convert::draw_all`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Skip {
    /// Its kind is neither 0 (palette frames) nor 1 (RGBA frames).
    UnknownKind,
    /// Its index is past the sprite's frames of its kind (or negative, other than −1).
    MissingFrame,
    /// A scale of 0, infinite or NaN.
    Scale,
    /// Its centre lies past ±[`MAX_REACH`].
    Offset,
    /// Centred within reach, scaled or rotated it reaches past ±[`MAX_REACH`].
    Extent,
}

impl Skip {
    /// The reason, for the note.
    pub fn reason(self) -> &'static str {
        match self {
            Skip::UnknownKind => "image kind not 0 (palette) or 1 (RGBA)",
            Skip::MissingFrame => "sprite frame missing from the .spr",
            Skip::Scale => "scale 0, infinite or NaN",
            Skip::Offset => "offset past ±32768 px",
            Skip::Extent => "scaled past ±32768 px",
        }
    }
}

/// Why a layer of a part at `offset` is skipped, if it is (see [`Skip`]); `None` for one drawn, or one
/// that shows nothing by design (index −1, an empty frame).
pub fn skipped(layer: &Layer, sprites: &Sprites<'_>, offset: (i32, i32)) -> Option<Skip> {
    place(layer, sprites, offset).err()
}

/// A layer's image and placement; `Ok(None)` when it shows nothing by design.
fn place<'a>(
    layer: &Layer,
    sprites: &Sprites<'a>,
    offset: (i32, i32),
) -> std::result::Result<Option<(FrameImage<'a>, Placement)>, Skip> {
    let Some(image) = sprites.lookup(layer)? else { return Ok(None) };
    let p = Placement::new(layer, &image, offset).ok_or(Skip::Scale)?;
    if p.cx.abs() > MAX_REACH || p.cy.abs() > MAX_REACH {
        return Err(Skip::Offset);
    }
    let (x0, y0, x1, y1) = p.extent();
    if [x0, y0, x1, y1].iter().any(|v| v.abs() > MAX_REACH) {
        return Err(Skip::Extent);
    }
    Ok(Some((image, p)))
}

/// One set of layers drawn together: a motion of one sprite, moved by `offset` (a head drawn through
/// its body's anchor).
#[derive(Debug, Clone, Copy)]
pub struct Part<'a> {
    pub layers: &'a [Layer],
    pub sprites: Sprites<'a>,
    pub offset: (i32, i32),
}

/// A rectangle of canvas pixels relative to the origin: columns `left..right`, rows `top..bottom`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    pub left: i64,
    pub top: i64,
    pub right: i64,
    pub bottom: i64,
}

impl Rect {
    pub fn width(&self) -> u64 {
        (self.right - self.left).max(0) as u64
    }
    pub fn height(&self) -> u64 {
        (self.bottom - self.top).max(0) as u64
    }
    pub fn union(self, other: Rect) -> Rect {
        Rect {
            left: self.left.min(other.left),
            top: self.top.min(other.top),
            right: self.right.max(other.right),
            bottom: self.bottom.max(other.bottom),
        }
    }
}

/// Coordinates past this are refused by the pixel limit anyway; clamping keeps the float → integer
/// conversions meaningful.
const FAR: f64 = 1e9;

/// How far each pixel's point is moved right and down so that none lies on an edge (see the module).
const NUDGE: f64 = 1e-6;

/// A layer's mapping between image and canvas.
struct Placement {
    /// The image centre on the canvas (relative to the origin).
    cx: f64,
    cy: f64,
    /// Half the image's size.
    hw: f64,
    hh: f64,
    sx: f64,
    sy: f64,
    mirror: bool,
    cos: f64,
    sin: f64,
}

impl Placement {
    fn new(layer: &Layer, image: &FrameImage<'_>, offset: (i32, i32)) -> Option<Placement> {
        let sx = f64::from(layer.scale_x.get());
        let sy = f64::from(layer.scale_y());
        // A layer scaled to nothing (or by NaN or infinity) covers no pixel.
        if !(sx.is_finite() && sy.is_finite()) || sx == 0.0 || sy == 0.0 {
            return None;
        }
        let angle = f64::from(layer.rotation % 360).to_radians();
        Some(Placement {
            cx: f64::from(layer.x) + f64::from(offset.0),
            cy: f64::from(layer.y) + f64::from(offset.1),
            hw: f64::from(image.width) / 2.0,
            hh: f64::from(image.height) / 2.0,
            sx,
            sy,
            mirror: layer.mirror != 0,
            cos: snap(angle.cos()),
            sin: snap(angle.sin()),
        })
    }

    /// A point of the image (relative to its centre) on the canvas.
    fn forward(&self, u: f64, v: f64) -> (f64, f64) {
        let (x, y) = (u * self.sx, v * self.sy);
        (self.cx + x * self.cos - y * self.sin, self.cy + x * self.sin + y * self.cos)
    }

    /// A canvas point back in the image (relative to its top-left corner).
    fn inverse(&self, x: f64, y: f64) -> (f64, f64) {
        let (dx, dy) = (x - self.cx, y - self.cy);
        let (rx, ry) = (dx * self.cos + dy * self.sin, -dx * self.sin + dy * self.cos);
        (rx / self.sx + self.hw, ry / self.sy + self.hh)
    }

    /// The box the image's corners span on the canvas: left, top, right, bottom.
    fn extent(&self) -> (f64, f64, f64, f64) {
        let corners = [(-self.hw, -self.hh), (self.hw, -self.hh), (-self.hw, self.hh), (self.hw, self.hh)]
            .map(|(u, v)| self.forward(u, v));
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for (x, y) in corners {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        (x0, y0, x1, y1)
    }

    /// The canvas pixels whose centres may fall inside the image.
    fn bounds(&self) -> Rect {
        let (x0, y0, x1, y1) = self.extent();
        // Pixel i is the point i + NUDGE: the first inside is ⌈x0 − NUDGE⌉, the first past ⌈x1 − NUDGE⌉.
        let edge = |v: f64| (v - NUDGE).ceil().clamp(-FAR, FAR) as i64;
        Rect { left: edge(x0), top: edge(y0), right: edge(x1), bottom: edge(y1) }
    }
}

/// Cosine and sine of right angles exact (cos 90° is 6e-17 in floating point, which would move a pixel
/// centre lying on an edge).
fn snap(v: f64) -> f64 {
    if (v - v.round()).abs() < 1e-12 {
        v.round()
    } else {
        v
    }
}

/// The canvas rectangle the parts cover (`None` when they draw nothing).
pub fn bounds(parts: &[Part<'_>]) -> Option<Rect> {
    let mut out: Option<Rect> = None;
    for part in parts {
        for layer in part.layers {
            // Skipped layers are said by the caller (see [`skipped`]).
            let Ok(Some((_, p))) = place(layer, &part.sprites, part.offset) else { continue };
            let r = p.bounds();
            if r.width() == 0 || r.height() == 0 {
                continue;
            }
            out = Some(out.map_or(r, |o| o.union(r)));
        }
    }
    out
}

/// The pixels drawing the parts onto `rect` visits: the area of each layer's rectangle within it. A file
/// of many large layers costs this much work, however small its canvas: callers budget it.
pub fn cost(parts: &[Part<'_>], rect: Rect) -> u64 {
    let mut total = 0u64;
    for part in parts {
        for layer in part.layers {
            // Skipped layers are said by the caller (see [`skipped`]).
            let Ok(Some((_, p))) = place(layer, &part.sprites, part.offset) else { continue };
            let r = p.bounds();
            let w = (r.right.min(rect.right) - r.left.max(rect.left)).max(0) as u64;
            let h = (r.bottom.min(rect.bottom) - r.top.max(rect.top)).max(0) as u64;
            total = total.saturating_add(w.saturating_mul(h));
        }
    }
    total
}

/// Draws the parts, in order, onto a transparent canvas covering `rect` (rows of `rect.width()` RGBA
/// pixels). The canvas size must have passed [`crate::limits::check_pixels`].
pub fn draw(parts: &[Part<'_>], rect: Rect) -> Result<Vec<u8>> {
    let (w, h) = (rect.width(), rect.height());
    crate::limits::check_pixels(
        "ro-act canvas",
        u32::try_from(w).unwrap_or(u32::MAX),
        u32::try_from(h).unwrap_or(u32::MAX),
    )?;
    let w = w as usize;
    let mut canvas = vec![0u8; w * h as usize * 4];
    for part in parts {
        for layer in part.layers {
            // Skipped layers are said by the caller (see [`skipped`]).
            let Ok(Some((image, p))) = place(layer, &part.sprites, part.offset) else { continue };
            let r = p.bounds();
            let (x0, x1) = (r.left.max(rect.left), r.right.min(rect.right));
            let (y0, y1) = (r.top.max(rect.top), r.bottom.min(rect.bottom));
            let (iw, ih) = (f64::from(image.width), f64::from(image.height));
            for y in y0..y1 {
                for x in x0..x1 {
                    let (u, v) = p.inverse(x as f64 + NUDGE, y as f64 + NUDGE);
                    if !(0.0..iw).contains(&u) || !(0.0..ih).contains(&v) {
                        continue;
                    }
                    let column = if p.mirror { usize::from(image.width) - 1 - u as usize } else { u as usize };
                    let src = (v as usize * usize::from(image.width) + column) * 4;
                    let dst = ((y - rect.top) as usize * w + (x - rect.left) as usize) * 4;
                    let (Some(s), Some(d)) = (image.rgba.get(src..src + 4), canvas.get_mut(dst..dst + 4)) else {
                        continue;
                    };
                    let tinted: [u8; 4] = std::array::from_fn(|c| mul(s[c], layer.color[c]));
                    over(d, tinted);
                }
            }
        }
    }
    Ok(canvas)
}

/// `a · b / 255`, rounded.
fn mul(a: u8, b: u8) -> u8 {
    ((u32::from(a) * u32::from(b) + 127) / 255) as u8
}

/// `src` over `dst`, straight alpha.
fn over(dst: &mut [u8], src: [u8; 4]) {
    let sa = u32::from(src[3]);
    if sa == 0 {
        return;
    }
    if sa == 255 {
        dst.copy_from_slice(&src);
        return;
    }
    let da = u32::from(dst[3]);
    // Alpha of the result, in 255ths: sa + da·(1 − sa).
    let out_a = sa * 255 + da * (255 - sa);
    if out_a == 0 {
        return;
    }
    for c in 0..3 {
        let num = u32::from(src[c]) * sa * 255 + u32::from(dst[c]) * da * (255 - sa);
        dst[c] = ((num + out_a / 2) / out_a) as u8;
    }
    dst[3] = ((out_a + 127) / 255) as u8;
}
