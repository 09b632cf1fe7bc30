//! Ragnarok Online altitude maps (`ro-gat`, `.gat`): the walkability and heights of a map's cells, for the
//! client's and the server's path finding. Each map has one beside its `.gnd` (ground) and `.rsw` (scene);
//! a GAT cell is half a GND cube wide (5 world units; GAT.MD).
//!
//! Layout (RagnarokFileFormats GAT.MD, checked against roBrowser `Loaders/Altitude.js`, BrowEdit3
//! `components/Gat.cpp`, korangar `ragnarok-formats/src/map.rs` and RagLite `RagnarokGAT.lua`, which
//! agree on it): `GRAT`, the version as major then minor byte (1.2 and 1.3 in real files), width and height
//! (`u32`), then width × height cells of four `f32` corner heights and a `u32` type, row by row from the
//! south-west. Details in [`types`]. Where sources differ or are silent:
//! - The type is a `u32` to GAT.MD, roBrowser, BrowEdit3 and RagLite (two `u16`); korangar reads one byte and
//!   skips three. relic keeps all 32 bits.
//! - Meanings: 0 walkable, 1 blocked and 5 blocked but snipable ("cliff"; shots pass) are the only types
//!   the client uses (GAT.MD). eAthena's `map_gat2cell` (which roBrowser copies) adds 3 = walkable water
//!   and reads 2, 4 and 6 as walkable ("???"); korangar reads 2 = water, 4 = water + snipable, 6 = cliff,
//!   none of them walkable. GAT 1.3 sets bit 31 on cells under water (GAT.MD; RagLite's fixture
//!   `v0103.gat` holds `0x80000001`); roBrowser's table has no such entry. [`kind_name`] and the legend say
//!   which reading is whose.
//! - Heights are Y-down (smaller is higher) in world units, as in the GND (GAT.MD, roBrowser × 0.2 per
//!   cell width).
//! - Bytes after the last cell: none in real files; RagLite refuses them, the others ignore them; relic
//!   keeps them (`trailing`).
//!
//! `relic convert x.gat` writes `x.gat.json` (the document below, which packs back) and in `x.gat/`:
//! - `walkability.png`: one pixel per cell, north up: image row 0 is GAT row `height − 1` (the northern
//!   edge; the client's cell (0, 0) is the south-west corner), column = x. Each type has its own colour
//!   ([`cell_colour`]); the PNG records the colour of every type it shows and the file itself (zlib,
//!   base64) in `tEXt` chunks, so `relic pack ro-gat walkability.png` writes the GAT back: the same bytes
//!   when unedited, the types of repainted pixels changed (a pixel of a type's colour of [`cell_colour`]
//!   takes that type), the heights kept.
//! - `heights.png`: a 16-bit grey height map of the `(width + 1) × (height + 1)` cell corners, north up,
//!   higher ground brighter. A corner shared by several cells takes the mean of their heights for it.
//!   Level `v` is the stored height `max − v × (max − min) / 65535` (`min`, `max` over the corners, in the
//!   PNG's text and the JSON's `heights`).
//!
//! `--to json` gives the document: the version, the size, a `legend` (each type present: its name,
//! colour, number of cells, whether it is walkable), `heights` (min, max, step of the height map) and every
//! cell; `relic pack ro-gat x.gat.json` writes it back byte for byte (`legend` and `heights` are derived and
//! ignored when packing).
//!
//! Typed access:
//!
//! ```
//! use relic::ragnarok::gat::{Gat, Version};
//!
//! // Version 1.2, one cell 1 × 1: heights 0, 0, -5, -5 (its north side higher), type 1 (blocked).
//! let mut bytes = b"GRAT\x01\x02".to_vec();
//! bytes.extend(1u32.to_le_bytes()); // width
//! bytes.extend(1u32.to_le_bytes()); // height
//! for h in [0.0f32, 0.0, -5.0, -5.0] {
//!     bytes.extend(h.to_le_bytes());
//! }
//! bytes.extend(1u32.to_le_bytes()); // type
//! let gat = Gat::read(&bytes)?;
//! assert_eq!(gat.version, Version::new(1, 2));
//! assert_eq!(gat.cells[0].top_left.get(), -5.0);
//! assert_eq!(relic::ragnarok::gat::kind_name(gat.cells[0].kind), "blocked");
//! assert_eq!(gat.to_bytes()?, bytes);
//! # Ok::<(), relic::Error>(())
//! ```

pub mod convert;
pub mod read;
pub mod types;
pub mod write;

pub use convert::{cell_colour, kind_name};
pub use read::parse;
pub use types::*;
pub use write::write;

use crate::asset::NamedAsset;
use crate::error::{Error, Result};
use crate::registry::{Convert, ConvertInput, FileFormat, Format, Game, Kind, Magic, Pack, PackRequest, Probe, Typed};

pub const FORMAT_ID: &str = "ro-gat";

impl Gat {
    /// Parses a GAT file (see [`parse()`]).
    pub fn read(bytes: &[u8]) -> Result<Gat> {
        parse(bytes)
    }

    /// The file's bytes (see [`write()`]).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }

    /// The JSON of `relic convert --to json` (see [`convert::document`]).
    pub fn to_json(&self) -> Result<serde_json::Value> {
        convert::document(self)
    }
}

pub static FORMAT: Format = Format {
    extensions: &["gat"],
    notes: "GRAT 1.2/1.3: per cell four corner heights (f32, Y-down) and a u32 type (0 walkable, 1 blocked, \
            5 blocked but snipable; 2, 3, 4, 6 read differently by eAthena/roBrowser and korangar; bit 31 = \
            1.3 water tile). convert: walkability.png (a pixel per cell, north up, a colour per type, listed \
            in the JSON legend), heights.png (16-bit, cell corners, higher = brighter, min/max in its text \
            and the JSON) and the JSON. pack takes the JSON (byte for byte) or a walkability PNG of convert \
            (types from the colours, heights from the file it records).",
    probe: Probe::magic(&[Magic::prefix(&MAGIC)]),
    pack_sources: &["png"],
    document: Some(&Typed::<Gat>::FACE),
    convert: Some(&GatFaces),
    pack: Some(&GatFaces),
    ..Format::new(FORMAT_ID, "Ragnarok Online GAT altitude map", Game::Ragnarok, Kind::Image)
};

struct GatFaces;

impl FileFormat for Gat {
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
        convert::document(self)
    }

    fn from_document(value: serde_json::Value) -> Result<Self> {
        convert::from_document(value)
    }
}

impl Convert for GatFaces {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let (data, opts) = (input.data, input.options);
        convert::convert(data, opts)
    }
}

impl Pack for GatFaces {
    fn pack_input(&self, input_name: &str, content: &[u8], request: &PackRequest) -> Result<Vec<u8>> {
        if !crate::registry::extension_of(input_name).is_some_and(|e| e.eq_ignore_ascii_case("png")) {
            return Err(Error::Unsupported(format!(
                "{FORMAT_ID} is made from a walkability PNG of `relic convert` or from the JSON of `relic convert \
                 --to json`, not from {input_name}"
            )));
        }
        convert::from_walkability_png(input_name, content, request)?.to_bytes()
    }
}
