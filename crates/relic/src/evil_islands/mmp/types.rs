//! MMP types: the texture exactly as stored. [`Mmp`] borrows the file's bytes; [`MmpDocument`] is its owned,
//! serde form — the JSON of `relic convert x.mmp --to json`, complete enough to rebuild the file byte for
//! byte (`relic pack ei-mmp x.json`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::bytes::Base64;
use crate::codec::pixel::{self, Channel, PixelLayout};

/// `MMP\0`.
pub const MAGIC: [u8; 4] = *b"MMP\0";
/// The header is 76 bytes; texels start right after it (docs/formats/evil-islands.md#mmp-header).
pub const HEADER_SIZE: usize = 76;

/// One `channel_format` record of the header: mask, shift and bit count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ChannelFormat {
    pub mask: u32,
    pub shift: u32,
    pub count: u32,
}

impl ChannelFormat {
    /// The record the game writes for a channel (count = bits in the mask).
    pub fn of(channel: Channel) -> ChannelFormat {
        ChannelFormat { mask: channel.mask, shift: channel.shift, count: channel.mask.count_ones() }
    }

    pub fn channel(self) -> Channel {
        Channel { mask: self.mask, shift: self.shift }
    }
}

/// The 76-byte header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MmpHeader {
    pub width: u32,
    pub height: u32,
    /// Number of stored mip levels; for PNT3 the byte size of the packed data (docs/formats/evil-islands.md#mmp-pnt3).
    pub mip_levels_count: u32,
    pub fourcc: FourCc,
    pub bits_per_pixel: u32,
    pub alpha_format: ChannelFormat,
    pub red_format: ChannelFormat,
    pub green_format: ChannelFormat,
    pub blue_format: ChannelFormat,
    /// The 4 bytes at 0x48 before the texels ("unused" in the spec); zero in every known file.
    pub unk_0x48: u32,
}

/// The pixel formats the game knows (spec enum `pixel_formats`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PixelFormat {
    Argb4,
    /// `0x5650`: R5G6B5 (the spec's table says R5G5B5; docs/formats/evil-islands.md#mmp-pixel-formats).
    R5g6b5,
    A1r5g5b5,
    Argb8,
    Dxt1,
    Dxt3,
    /// Run-length packed ARGB8.
    Pnt3,
}

impl PixelFormat {
    pub const ALL: [PixelFormat; 7] = [
        PixelFormat::Argb4,
        PixelFormat::R5g6b5,
        PixelFormat::A1r5g5b5,
        PixelFormat::Argb8,
        PixelFormat::Dxt1,
        PixelFormat::Dxt3,
        PixelFormat::Pnt3,
    ];

    pub fn fourcc(self) -> u32 {
        match self {
            PixelFormat::Argb4 => 0x0000_4444,
            PixelFormat::R5g6b5 => 0x0000_5650,
            PixelFormat::A1r5g5b5 => 0x0000_5551,
            PixelFormat::Argb8 => 0x0000_8888,
            PixelFormat::Dxt1 => u32::from_le_bytes(*b"DXT1"),
            PixelFormat::Dxt3 => u32::from_le_bytes(*b"DXT3"),
            PixelFormat::Pnt3 => u32::from_le_bytes(*b"PNT3"),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            PixelFormat::Argb4 => "argb4",
            PixelFormat::R5g6b5 => "r5g6b5",
            PixelFormat::A1r5g5b5 => "a1r5g5b5",
            PixelFormat::Argb8 => "argb8",
            PixelFormat::Dxt1 => "dxt1",
            PixelFormat::Dxt3 => "dxt3",
            PixelFormat::Pnt3 => "pnt3",
        }
    }

    pub fn from_fourcc(fourcc: u32) -> Option<PixelFormat> {
        PixelFormat::ALL.into_iter().find(|f| f.fourcc() == fourcc)
    }

    pub fn from_name(name: &str) -> Option<PixelFormat> {
        PixelFormat::ALL.into_iter().find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// The channel layout the game's header carries for this format. For the uncompressed formats it is
    /// spelled by the fourcc itself: its hex digits are the red, green, blue and alpha bit counts
    /// (`0x5650` = R5 G6 B5 A0), packed A, R, G, B from the top bit. DXT1 files carry A1R5G5B5 and DXT3
    /// files ARGB4 (as in the game's own files); PNT3 unpacks to ARGB8.
    pub fn layout(self) -> PixelLayout {
        match self {
            PixelFormat::Argb4 | PixelFormat::R5g6b5 | PixelFormat::A1r5g5b5 | PixelFormat::Argb8 => {
                let n = self.fourcc();
                let (r, g, b, a) = ((n >> 12) & 0xF, (n >> 8) & 0xF, (n >> 4) & 0xF, n & 0xF);
                PixelLayout::from_bits(a, r, g, b).unwrap_or(pixel::ARGB8)
            }
            PixelFormat::Dxt1 => pixel::A1R5G5B5,
            PixelFormat::Dxt3 => pixel::ARGB4,
            PixelFormat::Pnt3 => pixel::ARGB8,
        }
    }

    /// Bits per pixel written in the header.
    pub fn bits_per_pixel(self) -> u32 {
        match self {
            PixelFormat::Dxt1 => 4,
            PixelFormat::Dxt3 => 8,
            other => other.layout().bytes_per_pixel as u32 * 8,
        }
    }

    /// The header relic writes for a `width × height` texture; `count` is the mip level count (the packed
    /// byte size for PNT3).
    pub fn header(self, width: u32, height: u32, count: u32) -> MmpHeader {
        let layout = self.layout();
        MmpHeader {
            width,
            height,
            mip_levels_count: count,
            fourcc: FourCc(self.fourcc()),
            bits_per_pixel: self.bits_per_pixel(),
            alpha_format: layout.alpha.map(ChannelFormat::of).unwrap_or_default(),
            red_format: ChannelFormat::of(layout.red),
            green_format: ChannelFormat::of(layout.green),
            blue_format: ChannelFormat::of(layout.blue),
            unk_0x48: 0,
        }
    }
}

/// The header's fourcc. In JSON a known one is its name (`"dxt1"`), any other its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FourCc(pub u32);

impl FourCc {
    pub fn pixel_format(self) -> Option<PixelFormat> {
        PixelFormat::from_fourcc(self.0)
    }

    /// The format name, or the fourcc in hex.
    pub fn describe(self) -> String {
        self.pixel_format().map_or_else(|| format!("0x{:08X}", self.0), |f| f.name().to_string())
    }
}

impl Serialize for FourCc {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.pixel_format() {
            Some(f) => s.serialize_str(f.name()),
            None => s.serialize_u32(self.0),
        }
    }
}

impl<'de> Deserialize<'de> for FourCc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Repr {
            Number(u32),
            Name(String),
        }
        match Repr::deserialize(d)? {
            Repr::Number(n) => Ok(FourCc(n)),
            Repr::Name(name) => PixelFormat::from_name(&name)
                .map(|f| FourCc(f.fourcc()))
                .ok_or_else(|| serde::de::Error::custom(format!("unknown pixel format `{name}`"))),
        }
    }
}

/// One stored mip level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level<'a> {
    pub width: u32,
    pub height: u32,
    /// Absolute offset of the level's data.
    pub offset: usize,
    pub data: &'a [u8],
}

/// A parsed MMP borrowing the file's bytes, read with [`Mmp::read`]; [`Mmp::to_document`] gives the owned
/// [`MmpDocument`] (`relic convert --to json` is `serde_json::to_value` of it), and [`Mmp::to_bytes`] writes
/// the file back from it; [`to_image`](super::to_image) decodes the pixels. Level sizes were checked by the
/// reader; the pixels are decoded on demand (`convert`).
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::evil_islands::mmp::{encode, Mmp, PixelFormat};
///
/// // A 2 × 2 ARGB8 texture without mip levels, encoded from RGBA pixels by relic's packer.
/// let rgba = [255, 0, 0, 255].repeat(4);
/// let bytes = encode(&rgba, 2, 2, PixelFormat::Argb8, false)?;
/// let mmp = Mmp::read(&bytes)?;
/// assert_eq!((mmp.header.width, mmp.header.height, mmp.header.bits_per_pixel), (2, 2, 32));
/// assert_eq!(mmp.levels.len(), 1);
/// assert_eq!(mmp.levels[0].data.len(), 16);
/// assert_eq!(mmp.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Mmp<'a> {
    pub header: MmpHeader,
    /// Largest first. PNT3 has exactly one "level": its packed data.
    pub levels: Vec<Level<'a>>,
    /// Bytes after the last level.
    pub trailing: &'a [u8],
}

/// The owned, lossless form of an MMP file: [`MmpDocument::read`] and [`MmpDocument::to_bytes`]; `relic
/// convert --to json` is `serde_json::to_value` of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MmpDocument {
    pub format: String,
    pub header: MmpHeader,
    pub levels: Vec<LevelDocument>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trailing: Option<Base64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelDocument {
    pub width: u32,
    pub height: u32,
    /// The level's bytes as stored (packed for PNT3).
    pub data: Base64,
}
