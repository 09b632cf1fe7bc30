//! The data of a GND file, in file order:
//!
//! | part | layout | from |
//! | --- | --- | --- |
//! | header | `GRGN`, major, minor, i32 width, i32 height, f32 zoom | 1.5 |
//! | textures | i32 count, i32 name length (80), count × name (CP949, NUL-terminated, junk after it) | 1.5 |
//! | lightmaps | i32 count, i32 width (8), i32 height (8), i32 cells per grid (1), count × width × height × cells × 4 bytes | 1.5 |
//! | surfaces | i32 count, count × 40 bytes: 4 × f32 u, 4 × f32 v, i16 texture, u16 lightmap, u8 B, G, R, A | 1.5 |
//! | cubes | width × height × (4 × f32 heights, surface ids top, front, right) | 1.5 |
//! | water | f32 level, i32 type, f32 wave height, f32 wave speed, f32 wave pitch, i32 animation speed, i32 zones across, i32 zones down, then the zones | 1.8 |
//!
//! A zone is one f32 level in 1.8 (BrowEdit3, GND.MD; roBrowser reads none) and the six water fields in 1.9.
//! Surface ids are i32 from 1.7; before that their width is disputed (see [`SurfaceIds`]).
//!
//! JSON: the big arrays are compact. A cube is `[h0, h1, h2, h3, top, front, right]` (heights of the
//! corners (x, y), (x+1, y), (x, y+1), (x+1, y+1), Y-down; surface ids, −1 for none), with an eighth number
//! for the fourth 16-bit id of the `i16x4` layout. A surface is `[u0, u1, u2, u3, v0, v1, v2, v3, texture,
//! lightmap, b, g, r, a]` (corner order as the heights; the colour in stored order, blue first). Floats
//! are numbers written so they read back bit for bit (NaN and infinities as strings, see
//! [`crate::codec::float`]). Lightmaps are one base64 string of `count × width × height × cells × 4`
//! bytes: per lightmap, `width × height × cells` shadow intensities, then as many RGB colours; edit them
//! through a tool, or swap whole strings. A 400 × 400 map's JSON stays under ten times its file.

use std::fmt;

use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeTuple;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::bytes::Base64;
use crate::codec::float::F32;
use crate::codec::text::{decode, encode, CP949};

pub const MAGIC: [u8; 4] = *b"GRGN";
/// Bytes of one surface record.
pub const SURFACE_LEN: usize = 40;
/// The texture name length of every real file.
pub const TEXTURE_NAME_LEN: u32 = 80;

/// `major.minor`, stored major first. JSON `"1.7"`.
pub type Version = crate::ragnarok::version::Version<Gnd>;

impl crate::ragnarok::version::Family for Gnd {
    const AS_TEXT: bool = true;
    const EXAMPLE: &'static str = "1.7";
}

impl Version {
    /// 1.5 to 1.9.
    pub fn is_supported(self) -> bool {
        self.major == 1 && (5..=9).contains(&self.minor)
    }
    /// Water settings follow the cubes (≥ 1.8).
    pub fn has_water(self) -> bool {
        self.at_least(1, 8)
    }
    /// Each water zone has all six water fields (≥ 1.9), not only a level.
    pub fn has_full_zones(self) -> bool {
        self.at_least(1, 9)
    }
    /// Surface ids are i32 for certain (≥ 1.7).
    pub fn has_i32_surface_ids(self) -> bool {
        self.at_least(1, 7)
    }
}

/// How the three surface ids of a cube are stored. Only `i32` from 1.7 on; before 1.7 the sources
/// disagree (docs/formats/ragnarok.md#gnd-lightmaps): roBrowser and swift-ro always read i32, BrowEdit3 reads four i16 below 1.6
/// (and writes three), korangar three i16 below 1.7. relic takes the layout whose cube block fills the
/// rest of the file exactly (i32, then four i16, then three i16), else i32, and keeps it so the file
/// writes back as it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SurfaceIds {
    #[default]
    I32,
    I16x4,
    I16x3,
}

impl SurfaceIds {
    /// Bytes of one cube record.
    pub fn cube_len(self) -> usize {
        16 + match self {
            SurfaceIds::I32 => 12,
            SurfaceIds::I16x4 => 8,
            SurfaceIds::I16x3 => 6,
        }
    }
}

/// A texture path (relative to `data\texture\`) in its fixed field. `text` is CP949 before the first NUL;
/// `raw` holds the whole field when `text` zero-padded would not give it back (junk after the NUL). JSON:
/// a string, or `{"text", "raw"}` with `raw` in base64.
pub type TextureName = crate::codec::text::RawName<crate::codec::text::Cp949Base64>;

impl TextureName {
    /// Reads a field of `len` bytes.
    pub fn from_field(raw: &[u8]) -> Self {
        let text = decode(CP949, raw.split(|&b| b == 0).next().unwrap_or(raw));
        let rebuilt = Self::encode_field(&text, raw.len());
        let raw = (rebuilt.as_deref() != Some(raw)).then(|| raw.to_vec());
        TextureName::with_raw(text, raw)
    }

    /// The text as CP949, zero-padded to `len` (`None` when it has no CP949 form or does not fit).
    pub fn encode_field(text: &str, len: usize) -> Option<Vec<u8>> {
        let mut bytes = encode(CP949, text)?;
        if bytes.len() > len {
            return None;
        }
        bytes.resize(len, 0);
        Some(bytes)
    }

    /// The stored bytes, `len` long: `raw` while it still decodes to `text` and has that length.
    pub fn field(&self, len: usize) -> Option<Vec<u8>> {
        if let Some(raw) = &self.raw {
            let before = raw.split(|&b| b == 0).next().unwrap_or(raw);
            if raw.len() == len && decode(CP949, before) == self.text {
                return Some(raw.clone());
            }
        }
        Self::encode_field(&self.text, len)
    }
}

/// The lightmap block: `count` lightmaps of `width × height × cells` texels, each stored as that many
/// shadow intensities (0 = black, 255 = unshadowed) followed by as many RGB colours (added to the lit
/// texture by the client). `data` holds all of them, `count × per_lightmap()` bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lightmaps {
    pub width: i32,
    pub height: i32,
    pub cells: i32,
    pub count: u32,
    pub data: Base64,
}

impl Lightmaps {
    /// Texels of one lightmap (`width × height × cells`), 0 when a factor is negative or it overflows.
    pub fn texels(&self) -> usize {
        self.checked_texels().unwrap_or(0)
    }
    /// Texels of one lightmap; `None` when a factor is negative or the product overflows.
    pub fn checked_texels(&self) -> Option<usize> {
        let t = i64::from(self.width).checked_mul(i64::from(self.height))?.checked_mul(i64::from(self.cells))?;
        usize::try_from(t).ok()?.checked_mul(4).map(|_| usize::try_from(t).ok())?
    }
    /// Bytes of one lightmap: shadow texels plus RGB texels.
    pub fn per_lightmap(&self) -> usize {
        self.texels().saturating_mul(4)
    }
    /// Shadow intensity of lightmap `index` at texel `(x, y)` (row-major, `width` texels a row).
    pub fn shadow(&self, index: usize, x: usize, y: usize) -> Option<u8> {
        let w = usize::try_from(self.width).ok()?;
        let base = index.checked_mul(self.per_lightmap())?;
        self.data.0.get(base.checked_add(y.checked_mul(w)?.checked_add(x)?)?).copied()
    }
    /// RGB colour of lightmap `index` at texel `(x, y)`.
    pub fn color(&self, index: usize, x: usize, y: usize) -> Option<[u8; 3]> {
        let w = usize::try_from(self.width).ok()?;
        let base = index.checked_mul(self.per_lightmap())?.checked_add(self.texels())?;
        let at = base.checked_add(y.checked_mul(w)?.checked_add(x)?.checked_mul(3)?)?;
        let px = self.data.0.get(at..at.checked_add(3)?)?;
        Some([px[0], px[1], px[2]])
    }
}

/// One surface: a textured quad shared by the cubes that name it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Surface {
    /// Texture coordinates of the corners (x, y), (x+1, y), (x, y+1), (x+1, y+1) of a top surface
    /// (walls: see [`super::scene`]).
    pub u: [F32; 4],
    pub v: [F32; 4],
    /// Index into the texture list (i16: BrowEdit3 and korangar; roBrowser reads it unsigned).
    pub texture: i16,
    /// Index of the lightmap.
    pub lightmap: u16,
    /// The colour in stored order: blue, green, red, alpha.
    pub bgra: [u8; 4],
}

impl Surface {
    pub fn uv(&self, corner: usize) -> [f32; 2] {
        [self.u.get(corner).map_or(0.0, |f| f.get()), self.v.get(corner).map_or(0.0, |f| f.get())]
    }
    /// Red, green, blue.
    pub fn rgb(&self) -> [u8; 3] {
        [self.bgra[2], self.bgra[1], self.bgra[0]]
    }
}

/// One cube (cell): four corner heights (Y-down) and the surfaces on top, at the north (front) and the
/// east (right) side, −1 for none.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Cube {
    /// Corners (x, y), (x+1, y), (x, y+1), (x+1, y+1).
    pub heights: [F32; 4],
    pub top: i32,
    pub front: i32,
    pub right: i32,
    /// The fourth 16-bit id of the `i16x4` layout (BrowEdit3: unknown), 0 otherwise.
    pub extra: i16,
}

impl Cube {
    pub fn height(&self, corner: usize) -> f32 {
        self.heights.get(corner).map_or(0.0, |h| h.get())
    }
}

/// One water zone (1.8: the level only; 1.9: every field).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WaterZone {
    pub level: F32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<WaterSettings>,
}

/// The water fields after the level.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WaterSettings {
    /// The water texture set (`data\texture\워터\water<type><frame>.jpg`).
    #[serde(rename = "type")]
    pub kind: i32,
    pub wave_height: F32,
    pub wave_speed: F32,
    pub wave_pitch: F32,
    /// Frames between texture changes.
    pub animation_speed: i32,
}

/// Water (≥ 1.8): the default plane, then `zones_across × zones_down` zones covering the map (1.9 uses
/// them; 1.8 files hold one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Water {
    /// Y-down, like the cube heights.
    pub level: F32,
    #[serde(flatten)]
    pub settings: WaterSettings,
    pub zones_across: i32,
    pub zones_down: i32,
    /// As stored: `zones_across × zones_down` of them, or none when a 1.8 file ends before them.
    pub zones: Vec<WaterZone>,
}

impl Water {
    /// The zone covering cell `(x, y)` of a `width × height` ground, row-major from the south-west
    /// (GND.MD: ordered like the cubes; each zone `width / across` cells wide).
    pub fn zone_at(&self, width: u32, height: u32, x: u32, y: u32) -> Option<&WaterZone> {
        let across = u32::try_from(self.zones_across).ok().filter(|&n| n > 0)?;
        let down = u32::try_from(self.zones_down).ok().filter(|&n| n > 0)?;
        let zx = (u64::from(x) * u64::from(across) / u64::from(width.max(1))).min(u64::from(across - 1));
        let zy = (u64::from(y) * u64::from(down) / u64::from(height.max(1))).min(u64::from(down - 1));
        self.zones.get(usize::try_from(zy * u64::from(across) + zx).ok()?)
    }

    /// The water level (Y-down) and wave height at cell `(x, y)`: its zone's when the zone has them,
    /// else the default plane's.
    pub fn level_at(&self, width: u32, height: u32, x: u32, y: u32) -> (f32, f32) {
        match self.zone_at(width, height, x, y) {
            Some(z) => (z.level.get(), z.settings.unwrap_or(self.settings).wave_height.get()),
            None => (self.level.get(), self.settings.wave_height.get()),
        }
    }
}

/// A whole GND file. Read with [`Gnd::read`], written with [`Gnd::to_bytes`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Gnd {
    pub version: Version,
    /// Cells east–west.
    pub width: u32,
    /// Cells south–north.
    pub height: u32,
    /// World units per cell (10 in real files).
    pub zoom: F32,
    /// Bytes of each texture name field (80 in real files).
    pub texture_name_length: u32,
    pub textures: Vec<TextureName>,
    pub lightmaps: Lightmaps,
    /// JSON: arrays, see the module notes.
    pub surfaces: Vec<Surface>,
    /// `width × height`, row-major from the south-west corner. JSON: arrays.
    pub cubes: Vec<Cube>,
    /// The surface id layout (only `i32` from 1.7 on).
    #[serde(default, skip_serializing_if = "is_i32")]
    pub surface_ids: SurfaceIds,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub water: Option<Water>,
    /// Bytes after everything read, kept.
    #[serde(default, skip_serializing_if = "is_empty")]
    pub trailing: Base64,
}

fn is_i32(s: &SurfaceIds) -> bool {
    *s == SurfaceIds::I32
}

fn is_empty(b: &Base64) -> bool {
    b.0.is_empty()
}

impl Gnd {
    /// The cube at `(x, y)`.
    pub fn cube(&self, x: u32, y: u32) -> Option<&Cube> {
        if x >= self.width || y >= self.height {
            return None;
        }
        self.cubes.get(usize::try_from(u64::from(y) * u64::from(self.width) + u64::from(x)).ok()?)
    }

    /// The surface a cube names (`None` for −1 or an id out of range).
    pub fn surface(&self, id: i32) -> Option<&Surface> {
        self.surfaces.get(usize::try_from(id).ok()?)
    }
}

// Compact JSON forms of surfaces and cubes.

impl Serialize for Surface {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(14)?;
        for f in self.u.iter().chain(&self.v) {
            t.serialize_element(f)?;
        }
        t.serialize_element(&self.texture)?;
        t.serialize_element(&self.lightmap)?;
        for b in self.bgra {
            t.serialize_element(&b)?;
        }
        t.end()
    }
}

fn next<'de, A: SeqAccess<'de>, T: Deserialize<'de>>(seq: &mut A, i: usize, what: &str) -> Result<T, A::Error> {
    seq.next_element()?.ok_or_else(|| de::Error::invalid_length(i, &what))
}

impl<'de> Deserialize<'de> for Surface {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Surface;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("[u0, u1, u2, u3, v0, v1, v2, v3, texture, lightmap, b, g, r, a]")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Surface, A::Error> {
                const WHAT: &str = "14 numbers";
                let mut s = Surface::default();
                for i in 0..4 {
                    s.u[i] = next(&mut seq, i, WHAT)?;
                }
                for i in 0..4 {
                    s.v[i] = next(&mut seq, 4 + i, WHAT)?;
                }
                s.texture = next(&mut seq, 8, WHAT)?;
                s.lightmap = next(&mut seq, 9, WHAT)?;
                for i in 0..4 {
                    s.bgra[i] = next(&mut seq, 10 + i, WHAT)?;
                }
                if seq.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(15, &WHAT));
                }
                Ok(s)
            }
        }
        d.deserialize_seq(V)
    }
}

impl Serialize for Cube {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let n = if self.extra != 0 { 8 } else { 7 };
        let mut t = s.serialize_tuple(n)?;
        for h in &self.heights {
            t.serialize_element(h)?;
        }
        t.serialize_element(&self.top)?;
        t.serialize_element(&self.front)?;
        t.serialize_element(&self.right)?;
        if self.extra != 0 {
            t.serialize_element(&self.extra)?;
        }
        t.end()
    }
}

impl<'de> Deserialize<'de> for Cube {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Cube;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("[h0, h1, h2, h3, top, front, right] (and the fourth 16-bit id)")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Cube, A::Error> {
                const WHAT: &str = "7 or 8 numbers";
                let mut c = Cube::default();
                for i in 0..4 {
                    c.heights[i] = next(&mut seq, i, WHAT)?;
                }
                c.top = next(&mut seq, 4, WHAT)?;
                c.front = next(&mut seq, 5, WHAT)?;
                c.right = next(&mut seq, 6, WHAT)?;
                c.extra = seq.next_element()?.unwrap_or(0);
                if seq.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(9, &WHAT));
                }
                Ok(c)
            }
        }
        d.deserialize_seq(V)
    }
}
