//! The SPR file as relic holds it: the version, the palette frames (decoded indices, with the RLE of a 2.1
//! file kept as stored), the RGBA frames as stored (ABGR, bottom row first), the bytes found between the
//! frames and the palette, and the palette.

use crate::error::{Error, Result};

use super::FORMAT_ID;

/// Bytes of the palette at the end of the file (256 entries of 4 bytes).
pub const PALETTE_SIZE: usize = 1024;

/// The version, stored as two bytes after `SP`: minor first, then major (roBrowser reads
/// `minor / 10 + major`; zrenderer a little-endian u16 `0x0201`).
pub type Version = crate::ragnarok::version::Version<Spr>;

impl crate::ragnarok::version::Family for Spr {
    const AS_TEXT: bool = true;
    const EXAMPLE: &'static str = "2.1";

    /// Only the versions relic knows (1.0, 1.1, 2.0, 2.1).
    fn from_text(text: &str) -> Result<Version, String> {
        Version::parse(text).ok_or_else(|| format!("`{text}` is not an SPR version (1.0, 1.1, 2.0 or 2.1)"))
    }
}

impl Version {
    pub const V1_0: Version = Version::new(1, 0);
    pub const V1_1: Version = Version::new(1, 1);
    pub const V2_0: Version = Version::new(2, 0);
    pub const V2_1: Version = Version::new(2, 1);
    /// Every version relic reads and writes.
    pub const ALL: [Version; 4] = [Version::V1_0, Version::V1_1, Version::V2_0, Version::V2_1];

    /// The version of the two stored bytes (minor, major), if relic knows it.
    pub fn from_bytes(minor: u8, major: u8) -> Option<Version> {
        Version::ALL.into_iter().find(|v| v.minor == minor && v.major == major)
    }

    /// Whether the header has an RGBA frame count and RGBA frames follow the palette frames (2.0+).
    pub fn has_rgba(self) -> bool {
        self >= Version::V2_0
    }

    /// Whether palette frames are stored with the zero-run RLE (2.1).
    pub fn has_rle(self) -> bool {
        self >= Version::V2_1
    }

    /// Whether the file ends with a 1,024-byte palette (1.1+; 1.0 drew with the "system palette").
    pub fn has_palette(self) -> bool {
        self >= Version::V1_1
    }

    /// `"2.1"`.
    pub fn text(self) -> String {
        format!("{}.{}", self.major, self.minor)
    }

    /// The version of `"2.1"`, if relic knows it.
    pub fn parse(text: &str) -> Option<Version> {
        let (major, minor) = text.split_once('.')?;
        Version::from_bytes(minor.parse().ok()?, major.parse().ok()?)
    }
}

/// A palette-indexed frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaletteFrame {
    pub width: u16,
    pub height: u16,
    /// `width × height` palette indices, row-major, top row first; index 0 is transparent.
    pub indices: Vec<u8>,
    /// The frame's zero-run RLE as the file stored it (2.1), kept so that an unedited frame is written back
    /// as it was (encoders differ in how they split long runs). Ignored when it no longer decodes to
    /// `indices`: the writer then encodes them afresh.
    pub rle: Option<Vec<u8>>,
}

/// An RGBA frame (2.0+) as stored: 4 bytes a pixel in the order A, B, G, R, the bottom row first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbgrFrame {
    pub width: u16,
    pub height: u16,
    /// `width × height × 4` bytes.
    pub abgr: Vec<u8>,
}

/// A frame drawn as straight RGBA, row-major, top row first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RgbaFrame {
    pub width: u16,
    pub height: u16,
    pub rgba: Vec<u8>,
}

/// A Ragnarok Online sprite (`.spr`).
///
/// ```
/// use relic::ragnarok::spr::{PaletteFrame, Spr, Version};
///
/// // A 2×1 palette frame: one transparent pixel, one of colour 1.
/// let mut palette = [[0u8; 4]; 256];
/// palette[1] = [255, 0, 0, 0];
/// let spr = Spr {
///     version: Version::V2_1,
///     palette_frames: vec![PaletteFrame { width: 2, height: 1, indices: vec![0, 1], rle: None }],
///     rgba_frames: Vec::new(),
///     trailing: Vec::new(),
///     palette: Some(palette),
/// };
/// let bytes = spr.to_bytes()?;
/// assert_eq!(&bytes[..4], b"SP\x01\x02");
/// let back = Spr::read(&bytes)?;
/// assert_eq!(back.palette_frames[0].indices, [0, 1]);
/// assert_eq!(back.palette_frames[0].rle.as_deref(), Some(&[0, 1, 1][..]));
/// let drawn = back.palette_frames_rgba(None)?;
/// assert_eq!(drawn[0].rgba, [0, 0, 0, 0, 255, 0, 0, 255]);
/// assert_eq!(back.to_bytes()?, bytes);
/// # Ok::<(), relic::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spr {
    pub version: Version,
    pub palette_frames: Vec<PaletteFrame>,
    /// Empty before 2.0.
    pub rgba_frames: Vec<AbgrFrame>,
    /// Bytes after the last frame and before the palette (after the last frame of a 1.0 file), kept so that
    /// such a file is written back as it was; real files have none.
    pub trailing: Vec<u8>,
    /// The 256 entries at the end of the file (1.1+; `None` for 1.0, and for a 1.1+ file that ends after
    /// its frames), each stored R, G, B and a fourth byte relic keeps but does not draw with (see the
    /// module notes).
    pub palette: Option<[[u8; 4]; 256]>,
}

impl Spr {
    /// Reads a sprite; every field is checked against the bytes there are.
    pub fn read(bytes: &[u8]) -> Result<Spr> {
        super::read::parse(bytes)
    }

    /// The file's bytes: the same bytes for a sprite read and not changed.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        super::write::write(self)
    }

    /// The palette frames drawn through `palette` (the file's own when `None`); index 0 transparent
    /// (`[0, 0, 0, 0]`), every other index opaque in its palette colour.
    pub fn palette_frames_rgba(&self, palette: Option<&[[u8; 4]; 256]>) -> Result<Vec<RgbaFrame>> {
        let palette = palette.or(self.palette.as_ref()).ok_or_else(|| {
            Error::Unsupported(format!(
                "{FORMAT_ID}: this sprite stores no palette (version {}); give one",
                self.version.text()
            ))
        })?;
        Ok(self
            .palette_frames
            .iter()
            .map(|f| RgbaFrame { width: f.width, height: f.height, rgba: draw_indices(&f.indices, palette) })
            .collect())
    }

    /// The RGBA frames (2.0+), turned top row first and into RGBA order.
    pub fn rgba_frames(&self) -> Result<Vec<RgbaFrame>> {
        Ok(self
            .rgba_frames
            .iter()
            .map(|f| RgbaFrame { width: f.width, height: f.height, rgba: abgr_to_rgba(f.width, &f.abgr) })
            .collect())
    }
}

/// Indices drawn through a palette: index 0 transparent, the rest opaque.
pub fn draw_indices(indices: &[u8], palette: &[[u8; 4]; 256]) -> Vec<u8> {
    let mut out = Vec::with_capacity(indices.len() * 4);
    for &i in indices {
        match (i, palette.get(usize::from(i))) {
            (1.., Some(&[r, g, b, _])) => out.extend_from_slice(&[r, g, b, 255]),
            _ => out.extend_from_slice(&[0, 0, 0, 0]),
        }
    }
    out
}

/// Stored ABGR rows, bottom row first, as RGBA rows, top row first.
pub fn abgr_to_rgba(width: u16, abgr: &[u8]) -> Vec<u8> {
    let row = usize::from(width) * 4;
    let mut out = Vec::with_capacity(abgr.len());
    if row == 0 {
        return out;
    }
    for line in abgr.chunks_exact(row).rev() {
        for px in line.chunks_exact(4) {
            if let &[a, b, g, r] = px {
                out.extend_from_slice(&[r, g, b, a]);
            }
        }
    }
    out
}

/// RGBA rows, top row first, as stored ABGR rows, bottom row first (the inverse of [`abgr_to_rgba`]).
pub fn rgba_to_abgr(width: u16, rgba: &[u8]) -> Vec<u8> {
    // Turning the rows over and swapping the bytes is its own inverse.
    abgr_to_rgba(width, rgba)
}
