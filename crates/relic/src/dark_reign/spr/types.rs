//! The SPR file as it is (spec "SPR Sprite Format", with docs/formats/dark-reign.md): every
//! header field, the anim-index table, the sections, the anims table, the picture table with its end
//! marker, the decoded pictures and the hotspot table. This is the lossless document of
//! `relic convert --to json`; `relic pack dr-spr` writes it back byte for byte.

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;
use crate::layout::Gap;

/// Header size (spec "Header (32 bytes)").
pub const HEADER_SIZE: u64 = 32;
/// The version of every real file (docs/formats/dark-reign.md#spr-header: an int32, 0x0210).
pub const VERSION: i32 = 0x0210;
/// The older version some readers also accept (docs/formats/dark-reign.md#spr-header; no sample seen).
pub const VERSION_0200: i32 = 0x0200;
/// Bytes of one hotspot record: x, y, flag (docs/formats/dark-reign.md#spr-hotspots).
pub const HOTSPOT_SIZE: usize = 3;

/// The file's magic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Magic {
    /// A normal sprite: opaque runs carry their palette indices.
    #[serde(rename = "RSPR")]
    Rspr,
    /// A shadow sprite: opaque runs carry no pixel bytes (spec; docs/formats/dark-reign.md#spr-shadow).
    #[serde(rename = "SSPR")]
    Sspr,
    /// Accepted by some readers (docs/formats/dark-reign.md#spr), no sample seen. relic reads it as a normal sprite (pixel
    /// bytes in opaque runs): the spec only singles out `SSPR` as carrying none.
    #[serde(rename = "LSPR")]
    Lspr,
}

impl Magic {
    pub const ALL: [Magic; 3] = [Magic::Rspr, Magic::Sspr, Magic::Lspr];

    pub fn bytes(self) -> [u8; 4] {
        match self {
            Magic::Rspr => *b"RSPR",
            Magic::Sspr => *b"SSPR",
            Magic::Lspr => *b"LSPR",
        }
    }

    pub fn from_bytes(b: [u8; 4]) -> Option<Magic> {
        Magic::ALL.into_iter().find(|m| m.bytes() == b)
    }

    /// Whether opaque runs are shadow (no pixel bytes).
    pub fn is_shadow(self) -> bool {
        self == Magic::Sspr
    }
}

/// A whole SPR file. Read with [`SprDocument::read`], written with [`SprDocument::to_bytes`]; `relic convert --to
/// json` is `serde_json::to_value` of it, and [`frames`](super::frames) decodes its pictures.
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::dark_reign::spr::{Magic, SprDocument};
///
/// let bytes = std::fs::read("../../samples/dark_reign/unit.spr")?;
/// let spr = SprDocument::read(&bytes)?;
/// assert_eq!((spr.magic, spr.version), (Magic::Rspr, 0x0210));
/// assert_eq!((spr.anims, spr.rotations, spr.width, spr.height), (3, 4, 12, 9));
/// assert_eq!((spr.pictures.len(), spr.sections.len()), (12, 2));
/// assert_eq!(spr.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SprDocument {
    /// Always `dr-spr`.
    pub format: String,
    pub magic: Magic,
    /// int32 (docs/formats/dark-reign.md#spr-header): 0x0210, or 0x0200.
    pub version: i32,
    /// `nanims`: animation frames (of all sections together).
    pub anims: i32,
    /// `nrots`: rotations; rotation 0 faces east, the next ones go counter-clockwise (docs/formats/dark-reign.md#spr-rate).
    pub rotations: i32,
    /// `szx`, `szy`: the size of every picture.
    pub width: i32,
    pub height: i32,
    /// The anim-index table, `picnr[nanims · nrots]`: the picture of anim `a`, rotation `r` is entry
    /// `a · nrots + r` (the spec's formula is missing; this is the order OpenDR's loader reads).
    pub picture_of_frames: Vec<i32>,
    /// `nsects` sections (16 bytes each).
    pub sections: Vec<Section>,
    /// `anims[nanims]`: the section of each animation (docs/formats/dark-reign.md#spr-tables).
    pub anim_sections: Vec<i32>,
    /// `npics` pictures, in the order of the picture table.
    pub pictures: Vec<Picture>,
    /// Where the pictures lie in the pixel data, when not one after the other from offset 0 in table
    /// order with nothing between them, and whether the hotspot table is missing; absent for files laid
    /// out as relic writes them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<PictureLayout>,
    /// The hotspot table (at `off_bits` + the end marker: an int32 count, then the records); empty when
    /// the file has none (`layout.hotspot_table`).
    pub hotspots: Vec<HotspotRecord>,
    /// Bytes after the hotspot table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trailing: Option<Base64>,
}

/// One section (spec "Section Table"): an animation purpose (move, fire, …) with its anim range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    /// `firstanim`, `lastanim` (inclusive).
    pub first_anim: i32,
    pub last_anim: i32,
    /// `framerate`: 16.16 fixed point, frames per game cycle (docs/formats/dark-reign.md#spr-rate: 65536 = one frame each
    /// cycle; a real sprite has 19660).
    pub rate: i32,
    /// `numhotspots`: hotspot records per picture of this section (docs/formats/dark-reign.md#spr-hotspots: per section).
    pub hotspots: i32,
}

/// One picture of the picture table with its decoded pixels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Picture {
    /// `hotoff`: index of the picture's first hotspot record (docs/formats/dark-reign.md#spr-hotspots: counts 3-byte records);
    /// ignored when its section has no hotspots.
    pub hotspot_index: i32,
    /// `width · height` bytes, rows top to bottom: palette indices (RSPR, LSPR; 0 where a transparent run
    /// skips, though an opaque run may also store index 0), or 0 / 1 for transparent / shadow (SSPR).
    /// Always present in the lossless document; the document of `relic convert` leaves it out where the
    /// frame PNG gives the indices back exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pixels: Option<Base64>,
    /// The run counts as stored, every line's in turn (without the pixel bytes), when they differ from
    /// what relic's encoder makes of `pixels` (an opaque count with its high bit set, a run split another
    /// way, an index 0 stored in an opaque run). Kept only while they still fit the pixels, line by line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs: Option<Base64>,
}

/// Where the file departs from the layout relic writes (pictures one after the other in table order, then
/// the hotspot table): the stored placement of the pictures in the pixel data (offsets relative to
/// `off_bits`), and whether the hotspot table is there at all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PictureLayout {
    /// `picoff` of each picture; absent when the pictures lie one after the other in table order (then
    /// `end` is absent too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offsets: Option<Vec<u32>>,
    /// The end marker after the picture table: the size of the pixel data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<u32>,
    /// Non-zero bytes of the pixel data that no picture covers, offsets relative to `off_bits`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gaps: Vec<Gap>,
    /// `false` when the file ends right after the pixel data, without a hotspot table (the layout the spec
    /// describes; docs/formats/dark-reign.md#spr-no-hotspots: a sprite with no hotspots, not a truncated file). Such a document has no
    /// hotspot records and no trailing bytes.
    #[serde(default = "present", skip_serializing_if = "is_present")]
    pub hotspot_table: bool,
}

fn present() -> bool {
    true
}

fn is_present(v: &bool) -> bool {
    *v
}

impl PictureLayout {
    /// The stored picture offsets and end marker, when they are not the packed ones.
    pub fn placement(&self) -> Option<(&[u32], u32)> {
        Some((self.offsets.as_deref()?, self.end?))
    }

    /// Whether a document with this layout (or none) has a hotspot table.
    pub fn has_hotspot_table(layout: Option<&PictureLayout>) -> bool {
        layout.map_or(true, |l| l.hotspot_table)
    }
}

/// One 3-byte hotspot record (docs/formats/dark-reign.md#spr-hotspots). x and y are unsigned pixels from the picture's top-left
/// (OpenDR reads them as bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HotspotRecord {
    pub x: u8,
    pub y: u8,
    /// 0 = centre of placement, 1 = turret, 2 = projectile, more = explosions (docs/formats/dark-reign.md#spr-hotspots).
    pub flag: u8,
}

impl HotspotRecord {
    /// What the flag means (docs/formats/dark-reign.md#spr-hotspots).
    pub fn kind(self) -> &'static str {
        match self.flag {
            0 => "centre",
            1 => "turret",
            2 => "projectile",
            _ => "explosion",
        }
    }
}

/// The offsets the spec computes from the header (spec "Computed Offsets", with docs/formats/dark-reign.md#spr-tables, the 4-byte
/// end marker after `npics` 8-byte entries).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offsets {
    pub sections: u64,
    pub anims: u64,
    pub picoffs: u64,
    /// The end marker.
    pub end_marker: u64,
    pub bits: u64,
}

impl Offsets {
    /// From non-negative header counts (saturating: callers check the counts against the file first).
    pub fn new(nanims: u64, nrots: u64, npics: u64, nsects: u64) -> Offsets {
        let table = |n: u64, size: u64| n.saturating_mul(size);
        let sections = HEADER_SIZE.saturating_add(table(nanims.saturating_mul(nrots), 4));
        let anims = sections.saturating_add(table(nsects, 16));
        let picoffs = anims.saturating_add(table(nanims, 4));
        let end_marker = picoffs.saturating_add(table(npics, 8));
        Offsets { sections, anims, picoffs, end_marker, bits: end_marker.saturating_add(4) }
    }

    pub fn of(doc: &SprDocument) -> Offsets {
        let n = |v: i32| u64::try_from(v).unwrap_or(0);
        Offsets::new(n(doc.anims), n(doc.rotations), doc.pictures.len() as u64, doc.sections.len() as u64)
    }
}
