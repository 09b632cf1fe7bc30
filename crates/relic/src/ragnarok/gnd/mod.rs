//! Ragnarok Online ground (`ro-gnd`): `.gnd`, magic `GRGN`, versions 1.5 to 1.9. The map's visible
//! terrain: a grid of cubes (cells) with four corner heights each and up to three surfaces (top, a wall
//! to the north, a wall to the east), the surfaces' textures and texture coordinates, lightmaps (a shadow
//! intensity and a colour map per surface) and tile colours; water settings from 1.8, per-zone water
//! from 1.9. Layout and JSON form: [`types`].
//!
//! Spec: GND.MD of RagnarokFileFormats (rdw-archive), checked against roBrowser (`Loaders/Ground.js`,
//! `Renderer/Map/Ground.js`), BrowEdit3 (`components/Gnd.cpp`, `GndRenderer.cpp`) and korangar's map
//! loader, and docs/formats/ragnarok.md. Where they disagree or are silent:
//! - GND.MD's surface record (56 bytes, i32 texture and lightmap, a 16-byte colour) is wrong: every loader
//!   and every real file has 40 bytes, an i16 texture (roBrowser: u16), a u16 lightmap and 4 colour bytes
//!   in the order B, G, R, A.
//! - The lightmap block is `count × width × height × cells × 4` bytes (roBrowser; docs/formats/ragnarok.md#gnd-lightmaps);
//!   BrowEdit3 leaves out `cells` (1 in every real file), korangar reads `count × 16` bytes below 1.7.
//! - Surface ids before 1.7: see [`types::SurfaceIds`] (the layout that fills the file is taken).
//! - Water zones in 1.8: one f32 level each (BrowEdit3, GND.MD); roBrowser reads none. relic reads them
//!   when the file holds them, else none (kept as the file has them either way).
//! - Bytes after the water (or the cubes) are kept as `trailing`.
//! - Real files tried (23 maps of a public translated client, 2009–2012 era: towns, fields, indoor maps,
//!   event maps; 150 of another client's 1082, flat tool-made maps): every one is 1.7, zoom 10, texture
//!   names 80 bytes, lightmaps 8 × 8 × 1, and reads, writes back and packs back from JSON byte for byte.
//!   No 1.5, 1.6, 1.8 or 1.9 file was at hand: those layouts follow the loaders (and the disputes above),
//!   untested on real data.
//!
//! The conversion ([`scene`], [`convert`]): the ground as glTF through [`crate::ragnarok::world`]
//! (Y-up, file units, map centre at the origin), textures looked up as RSM textures are
//! ([`crate::ragnarok::rsm::textures`]), lightmap shadows, tile colours and the lightmaps' additive
//! colours baked into `COLOR_0`, smooth normals; a 16-bit
//! height map; the JSON document.
//!
//! ```
//! use relic::ragnarok::gnd::{Gnd, Version};
//!
//! // A 1.7 ground of one cell with no texture, lightmap or surface.
//! let mut bytes = b"GRGN\x01\x07".to_vec();
//! for v in [1i32, 1] { bytes.extend(v.to_le_bytes()); } // width, height
//! bytes.extend(10f32.to_le_bytes()); // zoom
//! for v in [0i32, 80, 0, 8, 8, 1, 0] { bytes.extend(v.to_le_bytes()); } // textures, lightmaps, surfaces
//! for h in [0f32, 0.0, 0.0, -5.0] { bytes.extend(h.to_le_bytes()); } // corner heights (Y-down)
//! for id in [-1i32, -1, -1] { bytes.extend(id.to_le_bytes()); } // top, front, right
//! let gnd = Gnd::read(&bytes)?;
//! assert_eq!(gnd.version, Version::new(1, 7));
//! assert_eq!(gnd.cubes[0].height(3), -5.0);
//! assert_eq!(gnd.to_bytes()?, bytes);
//! # Ok::<(), relic::Error>(())
//! ```

pub mod convert;
pub mod read;
pub mod scene;
pub mod types;
pub mod write;

pub use read::parse;
pub use scene::{ground_scene, GroundOptions};
pub use types::*;
pub use write::write;

use crate::asset::NamedAsset;
use crate::error::Result;
use crate::registry::{Convert, ConvertInput, FileFormat, Format, Game, Kind, Magic, Probe, Typed};

pub const FORMAT_ID: &str = "ro-gnd";

impl Gnd {
    /// Parses a GND file (see [`parse()`]).
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::ragnarok::gnd::{Gnd, Version};
    /// let bytes = std::fs::read("../../samples/ragnarok/map.gnd")?;
    /// let gnd = Gnd::read(&bytes)?;
    /// assert_eq!((gnd.width, gnd.height), (5, 4));
    /// assert_eq!(gnd.textures.len(), 2);
    /// assert!(Gnd::read(b"GRGN\x01\x07").is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<Gnd> {
        parse(bytes)
    }

    /// The file's bytes (see [`write()`]): those read, when nothing was edited.
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::ragnarok::gnd::Gnd;
    /// let bytes = std::fs::read("../../samples/ragnarok/map.gnd")?;
    /// let mut gnd = Gnd::read(&bytes)?;
    /// assert_eq!(gnd.to_bytes()?, bytes);
    /// gnd.cubes[0].heights[0] = relic::codec::float::F32::new(-20.0);
    /// assert_eq!(Gnd::read(&gnd.to_bytes()?)?.cubes[0].height(0), -20.0);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }
}

pub static FORMAT: Format = Format {
    extensions: &["gnd"],
    notes: "Versions 1.5 to 1.9 (water from 1.8, per-zone water 1.9). Surfaces are 40 bytes (GND.MD's 56 is \
            wrong); lightmaps count × w × h × cells × 4 bytes; surface ids before 1.7 as the file size says \
            (i32, 4 × i16 or 3 × i16). JSON: cubes and surfaces as compact arrays, lightmaps base64; packs \
            back byte for byte. Convert: ground.view.glb (Y-up, file units, map centre at the origin; walls \
            as roBrowser/BrowEdit3 draw them; lightmap shadow × tile colour + the additive colour map \
            baked into COLOR_0; smooth normals; water 1.8+ as an alpha-blended mesh), heightmap.view.png (16-bit, \
            one pixel per cell, higher is brighter), and the JSON document. Textures from the same GRF, the \
            client folder's data/texture, then --textures.",
    probe: Probe {
        check: Some(|head| matches!(head, [_, _, _, _, 1, minor, ..] if (5..=9).contains(minor))),
        ..Probe::magic(&[Magic::prefix(b"GRGN")])
    },
    document: Some(&Typed::<Gnd>::FACE),
    convert: Some(&GndConvert),
    ..Format::new(FORMAT_ID, "Ragnarok Online GND ground", Game::Ragnarok, Kind::Model)
};

impl FileFormat for Gnd {
    const ID: &'static str = FORMAT_ID;

    fn parse(bytes: &[u8]) -> Result<Self> {
        parse(bytes)
    }

    fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    fn info(&self, _bytes: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(self))
    }

    fn to_document(&self) -> Result<serde_json::Value> {
        crate::registry::tagged_document_json(FORMAT_ID, self)
    }

    fn from_document(value: serde_json::Value) -> Result<Self> {
        crate::registry::tagged_document_from_json(FORMAT_ID, value)
    }
}

struct GndConvert;

impl Convert for GndConvert {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        convert::convert(input.data, input.path, input.options)
    }
}
