//! FreeRCT RCD data files (`freerct-rcd`): the sprites and game data of FreeRCT, a block file. A header (`RCDF`, u32
//! version 1 or 2), then blocks of magic, version, body length and body, numbered from 1 in file order; game blocks
//! (surfaces, paths, GUI borders, shops, animations…) refer to sprite blocks by number. Spec: the FreeRCT RCD
//! specification (Alberth, version 1), corrected and extended by docs/formats/freerct.md (header, ANIM v1's 12-byte frames, PATH
//! v1's fields, the 8PXL run rules, version 2) and FreeRCT's `data_format.rst` for the version 2 blocks.
//!
//! - Version 1: 8PXL v1 pixels, SPRT sprites (offsets and the 8PXL; v1 also a 768-byte palette), the game
//!   blocks of the spec. Version 2: INFO first, 8PXL v2 (offsets inside), 32PX (RGBA with recolour
//!   layers), TEXT v3, and the game blocks of today's game: track pieces (TRCK v7), coasters (RCST v7),
//!   coaster platforms (CSPL v3), cars (CARS v4, sprites by zoom, pitch, roll and yaw), ride designs
//!   (FTKW v1, its saved-game stream kept as bytes), ride entrances (RIEE v3), gentle and thrill rides
//!   (FGTR v6), timed animations (TIMA v1), scenery (SCNY v3), person graphics (PRSG v2), fences (FENC
//!   v2), path decorations (PDEC v1), supports (SUPP v1), GUI slope sprites (GSLP v14), the main menu
//!   (MENU v3, its saved games kept as bytes) and missions (MISN v1). Their layouts come from FreeRCT's
//!   loader (`sprite_store.cpp`, `coaster.cpp`, `track_piece.cpp`, `gamelevel.cpp`) and its generator's
//!   writers (`rcdgen/nodes.cpp`, names from `rcdgen/check_data.cpp`), as `data_format.rst` lags behind
//!   (it documents RIEE v2 and FGTR v5; the files have v3 and v6). Every (magic, version) in `layouts.rs`
//!   is read field by field; any other version (or magic) is listed and kept raw.
//! - Sprite PNGs are named `<pixel block number>_<label>[_<row>]_<field>` after the pixel block's first
//!   user in file order. A game block's label is `<magic><block number>`, plus `_<internal name>` when it
//!   has one (`rcst23200_wooden`, `trck512_straight_n`); a block without a name that other game blocks use
//!   (an FSET, a TIMA) takes the label of its first user and that user's field (the FSET of a track
//!   voxel: `trck512_straight_n_voxels_0_background`, whose sprites are then
//!   `…_views_ne_x0_y0_z0.png`). Car sprites are `cars<n>_car_z<zoom>_p<pitch>_r<roll>_y<yaw>`, guest
//!   overlays `cars<n>_z<zoom>_seat<k>_p…_r…_y…`. A sprite no game block uses keeps `<number>_<magic>`.
//!   Recolourings pass down the same way (a ride's to its animations' frame sets).
//! - The 8bpp palette is fixed in the game (`palette.pal`, FreeRCT's, index 0 transparent); SPRT v1's own
//!   palette is used for its sprite when present. Its 768 bytes are read as 8-bit RGB: the spec does not
//!   say, and no version 1 file with one is known.
//! - 32PX recolour pixels are drawn with the gradient (`recolour.bin`, FreeRCT's 18 × 256 RGB tables) of
//!   the colour range the sprite's first user names as its source (SHOP recolourings through its FSET),
//!   grey where none does.
//! - Where the spec is wrong or silent: see docs/formats/freerct.md; beyond it, relic reads SHOP only in versions 1
//!   and 8 (the intermediate layouts are in no known file) and keeps FSET-less blocks raw.

pub mod convert;
pub mod fields;
pub mod json;
pub mod layouts;
pub mod pack;
pub mod pixels;
pub mod read;
pub mod text;
pub mod types;
pub mod write;

pub use read::parse;
pub use types::{Block, Body, Rcd};
pub use write::write;

use crate::asset::NamedAsset;
use crate::error::Result;
use crate::registry::{Convert, ConvertInput, Document, Format, Game, JsonContext, Kind, Magic, Probe};

pub const FORMAT_ID: &str = "freerct-rcd";

pub static FORMAT: Format = Format {
    extensions: &["rcd"],
    notes: "convert: <stem>.json (every block in file order with its fields by name, enumerations named, sprite \
            references as {block, png}) and <stem>/ with one PNG per pixel block (8PXL palette-indexed with \
            FreeRCT's fixed palette, index 0 transparent; 32PX RGBA with recolour pixels drawn in their colour \
            range, their layers and intensities in <name>.recolour.png: red = layer, green = intensity) and a \
            sheet per game block (<block>_<magic>_sheet.view.png, one row per view or group in the spec's order). \
            pack: from that JSON and folder (PNGs re-encoded as FreeRCT's generator does, identical blocks \
            shared), or from --to json, byte for byte. Sheets are views: pack never reads them, and warns when \
            one was edited (its pixels are not those convert drew, whose digest the JSON keeps) and differs \
            from what the sprite PNGs give (edit the sprite PNGs instead). Blocks relic does not read field by \
            field are kept raw.",
    probe: Probe::magic(&[Magic::prefix(types::MAGIC)]),
    document: Some(&RcdFaces),
    convert: Some(&RcdFaces),
    ..Format::new(FORMAT_ID, "FreeRCT RCD data file", Game::FreeRct, Kind::Image)
};

struct RcdFaces;

impl Document for RcdFaces {
    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(&parse(data)?))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        Ok(json::to_json(&parse(data)?))
    }

    /// From JSON read from a file, the sprite PNGs beside it; else the document alone.
    fn from_json(&self, value: serde_json::Value, context: &JsonContext<'_>) -> Result<Vec<u8>> {
        let Some(json_path) = context.path else {
            return write(&json::from_json(&value)?);
        };
        let mut notes = Vec::new();
        let bytes = pack::from_json_at(&value, json_path, &mut notes)?;
        notes.into_iter().for_each(|n| context.note(n));
        Ok(bytes)
    }
}

impl Convert for RcdFaces {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let (data, opts) = (input.data, input.options);
        convert::assets(&parse(data)?, data.len() as u64, opts)
    }
}

/// Typed access: the parse, the writer and the JSON of the `freerct-rcd` codec.
impl<'a> Rcd<'a> {
    /// Reads an RCD file: every block in file order, read field by field where relic knows its layout, else
    /// kept raw (borrowing `bytes`).
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::freerct::rcd::{Body, Rcd};
    ///
    /// // `RCDF` version 1, then one block relic has no layout for (`XMPL` version 1, a 3-byte body): kept raw.
    /// let mut bytes = b"RCDF".to_vec();
    /// bytes.extend(1u32.to_le_bytes());
    /// bytes.extend(b"XMPL");
    /// bytes.extend(1u32.to_le_bytes());
    /// bytes.extend(3u32.to_le_bytes());
    /// bytes.extend([1, 2, 3]);
    /// let rcd = Rcd::read(&bytes)?;
    /// assert_eq!(rcd.blocks.len(), 1);
    /// assert_eq!(rcd.blocks[0].version, 1);
    /// assert!(Rcd::read(&bytes[..20]).is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &'a [u8]) -> Result<Rcd<'a>> {
        parse(bytes)
    }

    /// The file's bytes (the writer of `relic pack freerct-rcd x.json`): those read, when nothing was edited.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::freerct::rcd::{Body, Rcd};
    ///
    /// // `RCDF` version 1, then one block relic has no layout for (`XMPL` version 1, a 3-byte body): kept raw.
    /// let mut bytes = b"RCDF".to_vec();
    /// bytes.extend(1u32.to_le_bytes());
    /// bytes.extend(b"XMPL");
    /// bytes.extend(1u32.to_le_bytes());
    /// bytes.extend(3u32.to_le_bytes());
    /// bytes.extend([1, 2, 3]);
    /// let rcd = Rcd::read(&bytes)?;
    /// assert_eq!(rcd.to_bytes()?, bytes);
    /// let json = rcd.to_json();
    /// assert_eq!(json["format"], "freerct-rcd");
    /// assert_eq!(Rcd::from_json(&json)?.to_bytes()?, bytes);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }

    /// The JSON of `relic convert --to json`.
    pub fn to_json(&self) -> serde_json::Value {
        json::to_json(self)
    }

    /// The file [`Rcd::to_json`] describes (`relic pack freerct-rcd x.json`, without the PNGs `convert` writes
    /// beside it).
    pub fn from_json(value: &serde_json::Value) -> Result<Rcd<'static>> {
        json::from_json(value)
    }
}
