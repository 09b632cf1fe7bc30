//! Texture, record 0x0040 (spec "Texture (0x0030-0x0040)" and "Texture format", with docs/formats/drakan.md#texture-header): a
//! 54-byte header, the pixel rows (zlib when `compression_level > 0`), and with flag 0x01 a separate alpha
//! map. Rows are stored bottom-up; [`to_image`] gives them top row first.
//!
//! Where the spec is silent, as read here (each also said where it is used):
//! - `pitch` is the stored row length in bytes (rows may be longer than `width × bytes per pixel`; the bytes
//!   past the row are skipped), so the pixel data is `pitch × height` bytes, inflated or stored.
//! - At compression level 0 the pixel data is those `pitch × height` bytes; the u32 "compressed size" that
//!   docs/formats/drakan.md#texture-header says is always present is kept as stored and not used there.
//! - 32 bpp: the fourth byte is alpha only when `alpha_bits == 8`, else the pixel is opaque (the spec calls
//!   it unused "but may be alpha"; the editor cannot make 32-bit textures with alpha).
//! - The separate alpha map's meaning is unknown (spec: "Unknown interpretation"). It is applied as one
//!   alpha byte per pixel, bottom-up like the pixels, when it holds exactly `width × height` bytes, or
//!   when the texture is compressed and it is a zlib stream that inflates to that size; otherwise it is
//!   kept raw and not applied. Applied alpha is the smaller of the map's and the pixel's own (so a colour
//!   key stays transparent).
//!
//! The pixel loop is written here: no crate reads bottom-up rows with a pitch through a `.txd` palette and a
//! colour key; the 16-bit words go through the shared masked decoder (`codec::pixel`), zlib through
//! `codec::zlib` (bounded), and the APNG of animations through the `png` crate (`export::png`).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::common::{body_reader, hex_is_empty, rest, FlagNames, Flags, Put};
use super::{Ref, FORMAT_ID};
use crate::asset::{Frame, FrameRole, Image, Pixels};
use crate::bytes::{Base64, Hex};
use crate::codec::pixel::{PixelLayout, A1R5G5B5, ARGB4, R5G6B5};
use crate::codec::zlib;
use crate::error::{Error, Result};

/// Size of the header, up to and including the compressed-size field (docs/formats/drakan.md#texture-header).
pub const HEADER_SIZE: usize = 54;

pub const FLAG_ALPHA_MAP: u32 = 0x01;
pub const FLAG_ALPHA_CHANNEL: u32 = 0x02;
pub const FLAG_NEXT_FRAME: u32 = 0x20;

/// Colour key value meaning "no colour key" (docs/formats/drakan.md#texture-header).
pub const NO_COLOUR_KEY: u32 = 0xFFFF_FFFF;

/// Names of the texture flag bits (spec: "partially speculative").
pub struct TextureFlags;
impl FlagNames for TextureFlags {
    const NAMES: &'static [(u32, &'static str)] = &[
        (0x01, "alpha_map"),
        (0x02, "alpha_channel"),
        (0x04, "alternate"),
        (0x08, "mip_map"),
        (0x20, "next_frame"),
        (0x40, "dynamic"),
        (0x80, "keep_high_quality"),
    ];
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Texture {
    pub width: u32,
    pub height: u32,
    /// Bytes per stored row.
    pub pitch: u32,
    pub bits_per_pixel: u16,
    /// 4 bytes (docs/formats/drakan.md#texture-header); selects the 16-bit alpha format with flag 0x02.
    pub alpha_bits: u32,
    /// 0xFFFFFFFF = none, else 0x00RRGGBB (8 and 24 bpp only).
    pub colour_key: u32,
    pub mip_map: Ref,
    pub alternate: Ref,
    pub bump_map: Ref,
    /// Only meaningful on the first frame of an animation.
    pub animation_fps: u8,
    pub flags: Flags<TextureFlags>,
    /// "This texture is mip map number …"; 0x10 for bump maps, 0x02 for bump maps with luminance.
    pub mip_map_number: u16,
    pub material: Ref,
    pub ref_count: u32,
    /// 0 = stored, 1–9 = zlib level.
    pub compression_level: u32,
    /// As stored; the length of `data` when compressed, unused at level 0.
    pub compressed_size: u32,
    /// The pixel data as stored: a zlib stream, or `pitch × height` bytes at level 0.
    pub data: Base64,
    /// Flag 0x01: the separate alpha map's bytes as stored (after their u32 size).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpha_map: Option<Base64>,
    /// Bytes after the texture (none in a well-formed body).
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
    /// File offset of `data`, for errors while decoding it.
    #[serde(skip)]
    pub data_offset: u64,
}

/// The byte order of 32-bit pixels (docs/formats/drakan.md#texture-32bpp, *unsettled*: the editor writes RGBA, the engine reads
/// BGRA). RGBA is the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChannelOrder {
    #[default]
    Rgba,
    Bgra,
}

pub fn parse(body: &[u8], base: u64) -> Result<Texture> {
    let mut r = body_reader(body, base);
    let mut t = Texture {
        width: r.u32("texture.width")?,
        height: r.u32("texture.height")?,
        pitch: r.u32("texture.pitch")?,
        bits_per_pixel: r.u16("texture.bits_per_pixel")?,
        alpha_bits: r.u32("texture.alpha_bits")?,
        colour_key: r.u32("texture.colour_key")?,
        mip_map: Ref::read(&mut r, "texture.mip_map")?,
        alternate: Ref::read(&mut r, "texture.alternate")?,
        bump_map: Ref::read(&mut r, "texture.bump_map")?,
        animation_fps: r.u8("texture.animation_fps")?,
        flags: Flags::new(u32::from(r.u8("texture.flags")?)),
        mip_map_number: r.u16("texture.mip_map_number")?,
        material: Ref::read(&mut r, "texture.material")?,
        ref_count: r.u32("texture.ref_count")?,
        compression_level: r.u32("texture.compression_level")?,
        compressed_size: r.u32("texture.compressed_size")?,
        ..Texture::default()
    };
    let size =
        if t.compression_level > 0 { u64::from(t.compressed_size) } else { u64::from(t.pitch) * u64::from(t.height) };
    t.data_offset = r.offset();
    let size = r.count(size, 1, "texture.data")?;
    t.data = Base64(r.bytes(size, "texture.data")?.to_vec());
    if t.flags.has(FLAG_ALPHA_MAP) {
        let n = r.u32("texture.alpha_map.size")?;
        let n = r.count(u64::from(n), 1, "texture.alpha_map")?;
        t.alpha_map = Some(Base64(r.bytes(n, "texture.alpha_map")?.to_vec()));
    }
    t.trailing = rest(&mut r);
    Ok(t)
}

pub fn write(t: &Texture) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_SIZE + t.data.0.len() + t.trailing.0.len());
    out.put_u32(t.width);
    out.put_u32(t.height);
    out.put_u32(t.pitch);
    out.put_u16(t.bits_per_pixel);
    out.put_u32(t.alpha_bits);
    out.put_u32(t.colour_key);
    t.mip_map.write(&mut out);
    t.alternate.write(&mut out);
    t.bump_map.write(&mut out);
    out.put_u8(t.animation_fps);
    out.put_u8(t.flags.value as u8);
    out.put_u16(t.mip_map_number);
    t.material.write(&mut out);
    out.put_u32(t.ref_count);
    out.put_u32(t.compression_level);
    // Compressed: the size of the stream we hold (equal to the stored field for a parsed body).
    let size = if t.compression_level > 0 { t.data.0.len() as u32 } else { t.compressed_size };
    out.put_u32(size);
    out.extend_from_slice(&t.data.0);
    if let Some(map) = &t.alpha_map {
        out.put_u32(map.0.len() as u32);
        out.extend_from_slice(&map.0);
    }
    out.extend_from_slice(&t.trailing.0);
    out
}

impl Texture {
    pub fn is_next_frame(&self) -> bool {
        self.flags.has(FLAG_NEXT_FRAME)
    }

    /// The pixel rows as stored (bottom-up, `pitch × height` bytes), inflated when compressed.
    pub fn pixel_bytes(&self) -> Result<Cow<'_, [u8]>> {
        let size = u64::from(self.pitch) * u64::from(self.height);
        if self.compression_level == 0 {
            if self.data.0.len() as u64 != size {
                return Err(Error::invalid(
                    FORMAT_ID,
                    "texture.data",
                    self.data_offset,
                    format!("holds {} bytes, pitch × height is {size}", self.data.0.len()),
                ));
            }
            return Ok(Cow::Borrowed(&self.data.0));
        }
        let at = zlib::At { format: FORMAT_ID, field: "texture.data", offset: self.data_offset };
        zlib::inflate_exact(&self.data.0, size, at).map(Cow::Owned)
    }

    /// The separate alpha map as one byte per pixel (bottom-up), when it can be read that way (see the
    /// module notes); `None` when there is none or its layout is not known.
    pub fn alpha_map_values(&self) -> Option<Cow<'_, [u8]>> {
        let map = &self.alpha_map.as_ref()?.0;
        let pixels = u64::from(self.width) * u64::from(self.height);
        if map.len() as u64 == pixels {
            return Some(Cow::Borrowed(map));
        }
        if self.compression_level > 0 && zlib::is_zlib_header(map) {
            let at = zlib::At { format: FORMAT_ID, field: "texture.alpha_map", offset: 0 };
            return zlib::inflate_exact(map, pixels, at).ok().map(Cow::Owned);
        }
        None
    }

    /// The 16-bit layout (spec "16 bpp"): 5:6:5, or with flag 0x02 the format the alpha bits select.
    fn layout16(&self) -> Result<PixelLayout> {
        if !self.flags.has(FLAG_ALPHA_CHANNEL) {
            return Ok(R5G6B5);
        }
        match self.alpha_bits {
            0 => Ok(R5G6B5),
            1 => Ok(A1R5G5B5),
            4 => Ok(ARGB4),
            8 => PixelLayout::from_bits(8, 3, 3, 2).ok_or_else(|| Error::Unsupported("3:3:2+8 layout".into())),
            n => Err(Error::Unsupported(format!("16-bpp texture with {n} alpha bits (known: 0, 1, 4, 8)"))),
        }
    }
}

/// Decodes a texture to one RGBA frame, top row first. `palette` is the `.txd`'s first 0x0030 record,
/// needed for 8 bpp; `order` is the byte order of 32-bit pixels.
pub fn to_image(t: &Texture, palette: Option<&[[u8; 4]]>, order: ChannelOrder) -> Result<Image> {
    let frame = to_frame(t, palette, order)?;
    Ok(Image { frames: vec![frame], palette: None, frame_rate: None, text: Vec::new() })
}

fn to_frame(t: &Texture, palette: Option<&[[u8; 4]]>, order: ChannelOrder) -> Result<Frame> {
    crate::limits::check_pixels("drakan texture", t.width, t.height)?;
    let bad = |msg: String| Error::invalid(FORMAT_ID, "texture", t.data_offset, msg);
    let bytes_pp = match t.bits_per_pixel {
        8 | 16 | 24 | 32 => usize::from(t.bits_per_pixel / 8),
        n => return Err(Error::Unsupported(format!("{n}-bpp Drakan texture (known: 8, 16, 24, 32)"))),
    };
    let (w, h, pitch) = (t.width as usize, t.height as usize, t.pitch as usize);
    if w == 0 || h == 0 {
        return Err(bad(format!("{w} × {h} texture has no pixels")));
    }
    let row_len = w.checked_mul(bytes_pp).ok_or_else(|| bad("row size overflows".into()))?;
    if pitch < row_len {
        return Err(bad(format!("pitch {pitch} is shorter than a row of {w} × {bytes_pp} bytes")));
    }
    // The spec lets rows be longer than their pixels but says nothing of how much; relic allows twice the
    // row (and 64 bytes for tiny textures), so that a 1 × 1 texture cannot ask for a gigabyte of padding
    // to be inflated before a single pixel is read.
    if pitch > row_len.saturating_mul(2).max(row_len + 64) {
        return Err(bad(format!(
            "pitch {pitch} is more than twice a row of {w} × {bytes_pp} bytes: the rows would be mostly padding"
        )));
    }
    let layout = if bytes_pp == 2 { Some(t.layout16()?) } else { None };
    let palette = match (bytes_pp, palette) {
        (1, None) => return Err(Error::Unsupported("8-bpp texture without its .txd's palette (0x0030)".into())),
        (_, p) => p.unwrap_or(&[]),
    };
    let key = (t.colour_key != NO_COLOUR_KEY && matches!(bytes_pp, 1 | 3)).then_some([
        (t.colour_key >> 16) as u8,
        (t.colour_key >> 8) as u8,
        t.colour_key as u8,
    ]);
    let data = t.pixel_bytes()?;
    let alpha_map = t.alpha_map_values();
    let mut out = vec![0u8; w.checked_mul(h).and_then(|n| n.checked_mul(4)).ok_or_else(|| bad("too large".into()))?];
    // Rows are stored bottom-up: output row y comes from stored row h - 1 - y.
    for (y, out_row) in out.chunks_exact_mut(w * 4).enumerate() {
        let stored = h - 1 - y;
        let row = data.get(stored * pitch..stored * pitch + row_len).ok_or_else(|| bad("row past the data".into()))?;
        for (x, (px, dst)) in row.chunks_exact(bytes_pp).zip(out_row.chunks_exact_mut(4)).enumerate() {
            let rgba = match px {
                [i] => {
                    let c = palette.get(usize::from(*i)).ok_or_else(|| {
                        bad(format!("pixel ({x}, {y}) uses colour {i}, the palette has {}", palette.len()))
                    })?;
                    let [red, green, blue, _flags] = *c;
                    [red, green, blue, 255]
                }
                [lo, hi] => layout.map_or([0; 4], |l| l.decode_word(u32::from(u16::from_le_bytes([*lo, *hi])))),
                [r, g, b] => [*r, *g, *b, 255],
                [a, b, c, d] => {
                    let alpha = if t.alpha_bits == 8 { *d } else { 255 };
                    match order {
                        ChannelOrder::Rgba => [*a, *b, *c, alpha],
                        ChannelOrder::Bgra => [*c, *b, *a, alpha],
                    }
                }
                _ => [0; 4],
            };
            let mut rgba = rgba;
            if key.is_some_and(|k| k == [rgba[0], rgba[1], rgba[2]]) {
                rgba[3] = 0;
            }
            if let Some(a) = alpha_map.as_deref().and_then(|m| m.get(stored * w + x)) {
                rgba[3] = rgba[3].min(*a);
            }
            dst.copy_from_slice(&rgba);
        }
    }
    Ok(Frame {
        name: None,
        width: t.width,
        height: t.height,
        pixels: Pixels::Rgba8(out),
        offset: (0, 0),
        hotspots: vec![],
        role: FrameRole::Frame,
    })
}

/// One animation: the record ids of its frames in order, and the first frame's frame rate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnimationGroup {
    pub ids: Vec<u16>,
    pub fps: u8,
}

/// Groups textures into animations (spec: "Texture animations are built by appending consecutive 'next
/// frame' textures to the first frame"; docs/formats/drakan.md#texture-animation: consecutive record ids with flag 0x20). A texture
/// with flag 0x20 whose id follows the previous texture's id joins that texture's group; every other
/// texture starts a group (a "next frame" texture with no predecessor is a group of its own: the spec does
/// not say what it means). Single-frame groups are still textures. Input in any order; output by id.
pub fn animation_groups(textures: &[(u16, &Texture)]) -> Vec<AnimationGroup> {
    let mut sorted: Vec<(u16, &Texture)> = textures.to_vec();
    sorted.sort_by_key(|(id, _)| *id);
    let mut groups: Vec<AnimationGroup> = Vec::new();
    for (id, t) in sorted {
        let joins = t.is_next_frame()
            && groups.last().and_then(|g| g.ids.last()).is_some_and(|&last| last.checked_add(1) == Some(id));
        match groups.last_mut() {
            Some(g) if joins => g.ids.push(id),
            _ => groups.push(AnimationGroup { ids: vec![id], fps: t.animation_fps }),
        }
    }
    groups
}

/// The frames of one animation as one image, each frame top row first, with the first frame's rate
/// (`None` when it is 0: the spec gives no default). The PNG exporter writes such an image as numbered
/// frames and an animated PNG.
pub fn animation_to_image(frames: &[&Texture], palette: Option<&[[u8; 4]]>, order: ChannelOrder) -> Result<Image> {
    let fps = frames.first().map_or(0, |t| t.animation_fps);
    let frames = frames.iter().map(|t| to_frame(t, palette, order)).collect::<Result<Vec<_>>>()?;
    Ok(Image { frames, palette: None, frame_rate: (fps > 0).then_some(f32::from(fps)), text: Vec::new() })
}

// ---------------------------------------------------------------------------------------------------------
// Writing pixels back (`relic pack` of a converted folder whose PNGs were edited)

/// How a texture's separate alpha map (flag 0x01) is laid out, as [`Texture::alpha_map_values`] reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AlphaMapKind {
    /// No alpha map.
    Absent,
    /// One byte per pixel, bottom-up, stored as is.
    Raw,
    /// The same, as a zlib stream.
    Zlib,
    /// A layout relic does not know: kept as stored and not applied.
    Unknown,
}

/// Whether two RGBA pixels look the same: equal, or both fully transparent (whatever their colour).
pub fn same_pixel(a: &[u8], b: &[u8]) -> bool {
    a == b || (a.get(3) == Some(&0) && b.get(3) == Some(&0))
}

/// Whether two RGBA images (same size) look the same, pixel by pixel as [`same_pixel`] sees them.
pub fn same_pixels(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.chunks_exact(4).zip(b.chunks_exact(4)).all(|(x, y)| same_pixel(x, y))
}

/// A texture re-encoded from RGBA pixels, with what the user should know about it (pixels the stored
/// format cannot hold exactly, a size the editor would not make, …).
#[derive(Debug, Clone)]
pub struct Reencoded {
    pub texture: Texture,
    pub notes: Vec<String>,
}

impl Texture {
    fn alpha_map_kind(&self) -> AlphaMapKind {
        let Some(map) = &self.alpha_map else { return AlphaMapKind::Absent };
        let pixels = u64::from(self.width) * u64::from(self.height);
        if map.0.len() as u64 == pixels {
            AlphaMapKind::Raw
        } else if self.alpha_map_values().is_some() {
            AlphaMapKind::Zlib
        } else {
            AlphaMapKind::Unknown
        }
    }

    /// The stored pixel format in words, for messages: `8 bpp (palette)`, `16 bpp 5:6:5`, `24 bpp`, ….
    pub fn format_name(&self) -> String {
        match self.bits_per_pixel {
            8 => "8 bpp (palette)".into(),
            16 => match self.layout16() {
                Ok(l) if l == R5G6B5 => "16 bpp 5:6:5".into(),
                Ok(l) if l == A1R5G5B5 => "16 bpp 5:5:5+1".into(),
                Ok(l) if l == ARGB4 => "16 bpp 4:4:4+4".into(),
                Ok(_) => "16 bpp 3:3:2+8".into(),
                Err(_) => format!("16 bpp with {} alpha bits", self.alpha_bits),
            },
            24 => "24 bpp".into(),
            32 if self.alpha_bits == 8 => "32 bpp with alpha".into(),
            32 => "32 bpp".into(),
            n => format!("{n} bpp"),
        }
    }

    /// Why relic cannot write this texture's pixels, if it cannot: a depth or 16-bit alpha format it does
    /// not know, or 8 bpp without the `.txd`'s palette.
    pub fn cannot_encode(&self, palette: Option<&[[u8; 4]]>) -> Option<String> {
        match self.bits_per_pixel {
            8 if palette.map_or(true, <[_]>::is_empty) => {
                Some("an 8-bpp texture needs its .txd's palette (record 0x0030), and there is none".into())
            }
            8 | 24 | 32 => None,
            16 => self.layout16().err().map(|e| e.to_string()),
            n => Some(format!("relic cannot encode {n}-bpp textures (known: 8, 16, 24, 32)")),
        }
    }
}

/// The palette index for `rgba`: with a colour key, a transparent pixel takes an entry of the key's colour
/// and an opaque one avoids such entries (they would turn transparent); otherwise the nearest colour (sum
/// of squared differences; the first of equals).
fn palette_index(palette: &[[u8; 4]], key: Option<[u8; 3]>, rgba: [u8; 4]) -> u8 {
    let is_key = |c: &[u8; 4]| key.is_some_and(|k| k == [c[0], c[1], c[2]]);
    if rgba[3] < 128 {
        if let Some(i) = palette.iter().position(is_key) {
            return i as u8;
        }
    }
    let distance =
        |c: &[u8; 4]| -> u32 { (0..3).map(|k| (i32::from(c[k]) - i32::from(rgba[k])).unsigned_abs().pow(2)).sum() };
    let candidates = palette.iter().enumerate().take(256).filter(|(_, c)| !is_key(c));
    let best = candidates.min_by_key(|(i, c)| (distance(c), *i)).map(|(i, _)| i);
    // Only key colours in the palette: the nearest of them (the pixel turns transparent; noted).
    best.or_else(|| palette.iter().enumerate().take(256).min_by_key(|(i, c)| (distance(c), *i)).map(|(i, _)| i))
        .unwrap_or(0) as u8
}

/// Re-encodes `t` from `rgba` (`width × height` RGBA8 pixels, top row first) in its stored format: the
/// same depth, 16-bit layout, alpha kind (flag 0x02 with the alpha bits, separate alpha map, colour key),
/// channel order, palette and compression level. When the size is the stored one, only the pixels that
/// look different ([`same_pixel`]) are encoded: every other stored byte (unchanged pixels, bytes past the
/// row up to the pitch, the unused fourth byte of 32-bpp pixels) is kept. At another size the header's
/// width, height and pitch follow, and the pixel data is made anew.
///
/// Choices where the spec is silent: a new pitch is `width × bytes per pixel` (no padding); the unused
/// fourth byte of a new 32-bpp pixel without alpha is 0xFF (opaque, should the engine read it as alpha);
/// at compression level 0 the stored "compressed size" follows the new `pitch × height` when it held the
/// old one, else it is kept; 8 bpp takes the nearest colour of the palette; a pixel with alpha below 128
/// is transparent where the format only has a colour key. A colour key is only used for transparent
/// pixels; formats without alpha store other alpha values as opaque, and each pixel the format cannot
/// hold exactly is counted in a note.
pub fn encode_rgba(
    t: &Texture,
    width: u32,
    height: u32,
    rgba: &[u8],
    palette: Option<&[[u8; 4]]>,
    order: ChannelOrder,
) -> Result<Reencoded> {
    if let Some(why) = t.cannot_encode(palette) {
        return Err(Error::Unsupported(why));
    }
    crate::limits::check_pixels("drakan texture", width, height)?;
    let (w, h) = (width as usize, height as usize);
    if w == 0 || h == 0 || rgba.len() != w * h * 4 {
        return Err(Error::Refused(format!("{width} × {height} pixels need {} RGBA bytes", w * h * 4)));
    }
    let bytes_pp = usize::from(t.bits_per_pixel / 8);
    let palette = palette.unwrap_or(&[]);
    let layout = if bytes_pp == 2 { Some(t.layout16()?) } else { None };
    let key = (t.colour_key != NO_COLOUR_KEY && matches!(bytes_pp, 1 | 3)).then_some([
        (t.colour_key >> 16) as u8,
        (t.colour_key >> 8) as u8,
        t.colour_key as u8,
    ]);
    let map_kind = t.alpha_map_kind();
    let same_size = (width, height) == (t.width, t.height);
    let mut notes = Vec::new();
    if !same_size && map_kind == AlphaMapKind::Unknown {
        return Err(Error::Refused(format!(
            "the texture is {} × {} and the image {width} × {height}: its separate alpha map has a layout relic \
             does not know, so it cannot be made at another size (keep the size)",
            t.width, t.height
        )));
    }
    let row_len = w * bytes_pp;
    // Start from what is stored (same size: unchanged pixels keep their bytes), or from nothing.
    let (pitch, mut data, old, mut map) = if same_size {
        let old = to_frame(t, Some(palette), order)?;
        let Pixels::Rgba8(old) = old.pixels else { return Err(Error::Unsupported("texture frame".into())) };
        let map = match map_kind {
            AlphaMapKind::Raw | AlphaMapKind::Zlib => t.alpha_map_values().map(Cow::into_owned),
            _ => None,
        };
        (t.pitch as usize, t.pixel_bytes()?.into_owned(), Some(old), map)
    } else {
        let pitch = u32::try_from(row_len)
            .map_err(|_| Error::Refused(format!("a {width}-pixel row does not fit the pitch field")))?;
        let map = matches!(map_kind, AlphaMapKind::Raw | AlphaMapKind::Zlib).then(|| vec![255u8; w * h]);
        (pitch as usize, vec![0u8; row_len * h], None, map)
    };
    let mut indices: std::collections::HashMap<[u8; 4], u8> = std::collections::HashMap::new();
    for y in 0..h {
        let stored = h - 1 - y;
        for x in 0..w {
            let at = (y * w + x) * 4;
            let Some(px) = rgba.get(at..at + 4) else { continue };
            if old.as_ref().and_then(|o| o.get(at..at + 4)).is_some_and(|o| same_pixel(o, px)) {
                continue;
            }
            let px = [px[0], px[1], px[2], px[3]];
            let Some(dst) = data.get_mut(stored * pitch + x * bytes_pp..stored * pitch + (x + 1) * bytes_pp) else {
                continue;
            };
            match dst {
                [i] => *i = *indices.entry(px).or_insert_with(|| palette_index(palette, key, px)),
                [lo, hi] => {
                    let word = layout.map_or(0, |l| l.encode_word(px)) as u16;
                    [*lo, *hi] = word.to_le_bytes();
                }
                [r, g, b] => {
                    [*r, *g, *b] = match key {
                        Some(k) if px[3] < 128 => k,
                        _ => [px[0], px[1], px[2]],
                    };
                }
                [a, b, c, d] => {
                    let (first, third) = match order {
                        ChannelOrder::Rgba => (px[0], px[2]),
                        ChannelOrder::Bgra => (px[2], px[0]),
                    };
                    [*a, *b, *c] = [first, px[1], third];
                    if t.alpha_bits == 8 {
                        *d = px[3];
                    } else if !same_size {
                        *d = 0xFF;
                    }
                }
                _ => {}
            }
            if let Some(m) = map.as_mut().and_then(|m| m.get_mut(stored * w + x)) {
                *m = px[3];
            }
        }
    }
    let mut out = t.clone();
    out.width = width;
    out.height = height;
    out.pitch = pitch as u32;
    let level = t.compression_level;
    out.data = Base64(if level > 0 { zlib::compress(&data, level) } else { data });
    if level == 0 && !same_size {
        let old_size = u64::from(t.pitch) * u64::from(t.height);
        if u64::from(t.compressed_size) == old_size {
            out.compressed_size = u32::try_from(pitch * h).unwrap_or(u32::MAX);
        }
    } else if level > 0 {
        out.compressed_size = out.data.0.len() as u32;
    }
    if let Some(map) = map {
        out.alpha_map = Some(Base64(if map_kind == AlphaMapKind::Zlib { zlib::compress(&map, level) } else { map }));
    }
    // What the stored format made of the pixels.
    let back = to_frame(&out, Some(palette), order)?;
    if let Pixels::Rgba8(back) = &back.pixels {
        let differ: Vec<usize> =
            (0..w * h).filter(|i| !same_pixel(&rgba[i * 4..i * 4 + 4], &back[i * 4..i * 4 + 4])).collect();
        if let Some(&first) = differ.first() {
            let hex = |p: &[u8]| format!("#{}", hex::encode(p));
            let why = match bytes_pp {
                1 => " (colours not in the .txd's palette take its nearest colour)",
                _ if key.is_some() => " (the format keeps full transparency only, through its colour key)",
                _ => "",
            };
            notes.push(format!(
                "{} pixel(s) cannot be stored exactly in {}{why}: the first, ({}, {}), {} is stored as {}",
                differ.len(),
                t.format_name(),
                first % w,
                first / w,
                hex(&rgba[first * 4..first * 4 + 4]),
                hex(&back[first * 4..first * 4 + 4]),
            ));
        }
    }
    if !same_size {
        if !matches!(width, 32 | 64 | 128 | 256) {
            notes.push(format!("a width of {width}: Drakan's editor makes only 32, 64, 128 or 256"));
        }
        if !t.mip_map.is_null() {
            notes.push(format!("its mip map (texture {}:{}) keeps its own size", t.mip_map.db, t.mip_map.id));
        }
    }
    Ok(Reencoded { texture: out, notes })
}
