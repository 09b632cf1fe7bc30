//! Texture, record 0x0040 (spec "Texture (0x0030-0x0040)" and "Texture format", with CORRECTIONS.md): a
//! 54-byte header, the pixel rows (zlib when `compression_level > 0`), and with flag 0x01 a separate alpha
//! map. Rows are stored bottom-up; [`to_image`] gives them top row first.
//!
//! Where the spec is silent, as read here (each also said where it is used):
//! - `pitch` is the stored row length in bytes (rows may be longer than `width × bytes per pixel`; the bytes
//!   past the row are skipped), so the pixel data is `pitch × height` bytes, inflated or stored.
//! - At compression level 0 the pixel data is those `pitch × height` bytes; the u32 "compressed size" that
//!   CORRECTIONS.md says is always present is kept as stored and not used there.
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

/// Size of the header, up to and including the compressed-size field (CORRECTIONS.md).
pub const HEADER_SIZE: usize = 54;

pub const FLAG_ALPHA_MAP: u32 = 0x01;
pub const FLAG_ALPHA_CHANNEL: u32 = 0x02;
pub const FLAG_NEXT_FRAME: u32 = 0x20;

/// Colour key value meaning "no colour key" (CORRECTIONS.md).
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
    /// 4 bytes (CORRECTIONS.md); selects the 16-bit alpha format with flag 0x02.
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

/// The byte order of 32-bit pixels (CORRECTIONS.md, *unsettled*: the editor writes RGBA, the engine reads
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
    Ok(Image { frames: vec![frame], palette: None, frame_rate: None })
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
/// frame' textures to the first frame"; CORRECTIONS.md: consecutive record ids with flag 0x20). A texture
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
    Ok(Image { frames, palette: None, frame_rate: (fps > 0).then_some(f32::from(fps)) })
}
