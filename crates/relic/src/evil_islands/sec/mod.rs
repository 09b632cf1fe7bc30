//! Evil Islands SEC files (`ei-sec`): one 32 × 32-cell sector of a map's terrain, `<map>XXXYYY.sec` (the
//! sector's x then y, three digits each; the map header is `<map>.mp`, `ei-mp`).
//!
//! Layout (spec "SEC", corrected by docs/formats/evil-islands.md#sec): magic `74 F7 4B CF`; a liquids byte (any value but 0
//! means a water layer; real files hold 3); 33 × 33 row-major land vertices of 8 bytes (s8 dx, s8 dy, u16
//! z, u32 packed normal); with water, 33 × 33 water vertices (dx and dy signed too); 16 × 16 land tiles
//! (u16: index bits 0–5, atlas bits 6–13, quarter turns bits 14–15); with water, 16 × 16 water tiles and
//! 16 × 16 u16 water material indices into the map's materials (0xFFFF: a dry cell, whose tile is 0xFFFF
//! too). Bytes after the last layer (none seen) are kept as `trailing`.
//!
//! Conversion: a sector alone becomes a one-sector `.glb` at its place on the map (from its name; the
//! origin when the name does not say), heights scaled with the max altitude of `<map>.mp` beside it (64 and
//! a note when there is none). The geometry is the map's ([`crate::evil_islands::mp::terrain`]). Packed
//! normals are not all unit length (docs/formats/evil-islands.md#sec-vertices): they are normalised in the scene and kept as stored
//! in the JSON.

pub mod convert;
pub mod read;
pub mod types;
pub mod write;

pub use read::parse;
pub use types::{Sec, Tile, Vertex, Water};
pub use write::write;

use crate::asset::NamedAsset;
use crate::error::Result;
use crate::registry::{Convert, ConvertInput, FileFormat, Format, Game, Kind, Probe, Typed};

pub const FORMAT_ID: &str = "ei-sec";

pub static FORMAT: Format = Format {
    extensions: &["sec"],
    notes: "magic 74F74BCF. convert x000001.sec gives a one-sector .glb at the sector's place (x 0, y 1 from \
            the name), heights scaled by the max altitude of x.mp beside it (64 when there is none); convert \
            the .mp or .mpr for the whole map. JSON lays each layer out as the sector: 33 rows of 33 dx, dy, \
            z and packed normals, 16 rows of 16 tiles (index, texture, rotation) and water materials.",
    probe: Probe::check(read::is_sec),
    document: Some(&Typed::<Sec>::FACE),
    convert: Some(&SecConvert),
    ..Format::new(FORMAT_ID, "Evil Islands SEC (map sector)", Game::EvilIslands, Kind::Model)
};

impl FileFormat for Sec {
    const ID: &'static str = FORMAT_ID;

    fn parse(bytes: &[u8]) -> Result<Self> {
        parse(bytes)
    }

    fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    fn info(&self, bytes: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(self, bytes.len()))
    }

    fn to_document(&self) -> Result<serde_json::Value> {
        crate::registry::tagged_document_json(FORMAT_ID, self)
    }

    fn from_document(value: serde_json::Value) -> Result<Self> {
        crate::registry::tagged_document_from_json(FORMAT_ID, value)
    }
}

struct SecConvert;

impl Convert for SecConvert {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        convert::convert_sector(&parse(input.data)?, input.path, input.options)
    }
}

/// The map name and sector position a sector file name gives: `zone1000002.sec` → (`zone1`, 0, 2). The
/// last six characters before the extension are the position, x then y, three digits each.
pub fn sector_name(name: &str) -> Option<(&str, u32, u32)> {
    let base = name.rsplit(['/', '\\']).next()?;
    let (stem, ext) = base.rsplit_once('.')?;
    if !ext.eq_ignore_ascii_case("sec") || stem.len() < 6 || !stem.is_char_boundary(stem.len() - 6) {
        return None;
    }
    let (prefix, digits) = stem.split_at(stem.len() - 6);
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let x = digits.get(..3)?.parse().ok()?;
    let y = digits.get(3..)?.parse().ok()?;
    Some((prefix, x, y))
}

/// Typed access: the parse and the writer of the `ei-sec` codec.
impl Sec {
    /// Reads a SEC file: land vertices and tiles, and the water layer when the liquids byte says so.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::sec::Sec;
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/isle000000.sec")?;
    /// let sec = Sec::read(&bytes)?;
    /// assert_eq!((sec.vertices.len(), sec.tiles.len()), (33 * 33, 16 * 16));
    /// assert!(sec.water.is_none());
    /// assert_eq!(sec.vertices[0].z, 9054);
    /// assert!(Sec::read(&bytes[..100]).is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<Sec> {
        parse(bytes)
    }

    /// The file's bytes (the writer of `relic pack ei-sec`): those read, when nothing was edited.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::sec::Sec;
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/isle000000.sec")?;
    /// let sec = Sec::read(&bytes)?;
    /// assert_eq!((sec.vertices.len(), sec.tiles.len()), (33 * 33, 16 * 16));
    /// assert!(sec.water.is_none());
    /// assert_eq!(sec.vertices[0].z, 9054);
    /// let mut raised = sec.clone();
    /// raised.vertices[0].z += 1;
    /// let edited = raised.to_bytes()?;
    /// assert_eq!(edited.len(), bytes.len());
    /// assert_eq!(Sec::read(&edited)?.vertices[0].z, 9055);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }
}
