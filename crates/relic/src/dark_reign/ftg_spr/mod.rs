//! The spec's "FTG-bundled SPR" layout (`dr-ftg-spr`): a headerless sprite of `num_frames` frames, each an 8-byte
//! descriptor (u16 width, u16 height, i16 hotspot x, i16 hotspot y) after an 8-byte header (u16 num_frames, u16
//! max_width, u16 max_height, u16 reserved), then every frame's raw 8-bit palette indices, rows top to bottom. Spec:
//! the Dark Reign SPR/FTG specification, section "FTG-bundled SPR Format".
//!
//! This section is believed wrong (docs/formats/dark-reign.md#ftg-spr): the sprites inside real SPRITES.FTG archives are RSPR/SSPR
//! (`dr-spr`). relic reads the layout only when asked (`--format dr-ftg-spr`): it has no magic, so it is
//! never sniffed and claims no extension.
//!
//! Choices: index 0 is transparent, as in every Dark Reign sprite; `max_width`/`max_height` are kept as
//! stored (the spec says they may be 0), not recomputed; frame PNGs are `frame_<i>`; frames of no pixels
//! get no PNG; the atlas is one row, frames of different heights not padded (spec "FTG Texture Atlas").
//!
//! `relic convert` writes sources (the frame PNGs and the JSON, which holds each hotspot once, as
//! `offset_x`, `offset_y`) and a view, `atlas.view.png`, which `pack` never reads (it warns when the view
//! differs from the atlas the frames give).

pub mod convert;
pub mod read;
pub mod types;
pub mod write;

pub use convert::to_assets;
pub use read::parse;
pub use types::{FtgFrame, FtgSprDocument};
pub use write::write_document;

use crate::asset::NamedAsset;
use crate::error::Result;
use crate::registry::{Convert, ConvertInput, Document, Format, Game, JsonContext, Kind};

pub const FORMAT_ID: &str = "dr-ftg-spr";

pub static FORMAT: Format = Format {
    extensions: &[],
    notes: "The spec's headerless \"FTG-bundled SPR\" layout (u16 frame count and sizes, raw 8-bit pixels). \
            Real archives hold RSPR/SSPR sprites (dr-spr), so this is never identified: select it with \
            --format dr-ftg-spr (info, convert). convert: sources, which pack reads: <name>/frame_<i>.png per \
            frame and <name>/<name>.json (each frame's hotspot as its descriptor's offset_x, offset_y); view, \
            never read: <name>/atlas.view.png (one row, frames not padded), and pack warns when it differs from \
            the frames. pack from that JSON with the frame PNGs beside it, or from --to json, byte for byte.",
    document: Some(&FtgSprFaces),
    convert: Some(&FtgSprFaces),
    ..Format::new(FORMAT_ID, "Dark Reign headerless FTG sprite (spec layout)", Game::DarkReign, Kind::Image)
};

struct FtgSprFaces;

impl Document for FtgSprFaces {
    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(&parse(data)?))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        crate::registry::document_json(FORMAT_ID, &parse(data)?)
    }

    /// From JSON read from a file, the frame PNGs beside it; else the document alone.
    fn from_json(&self, value: serde_json::Value, context: &JsonContext<'_>) -> Result<Vec<u8>> {
        let Some(json_path) = context.path else {
            let doc: FtgSprDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
            return write_document(&doc);
        };
        let mut notes = Vec::new();
        let bytes = convert::from_json_at(value, json_path, &mut notes)?;
        notes.into_iter().for_each(|n| context.note(n));
        Ok(bytes)
    }
}

impl Convert for FtgSprFaces {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let (data, opts) = (input.data, input.options);
        match input.path {
            Some(path) => {
                parse(data)?;
                to_assets(data, &crate::dark_reign::palette_for(opts, Some(path))?, opts)
            }
            None => {
                parse(data)?;
                to_assets(data, &crate::dark_reign::palette_for(opts, None)?, opts)
            }
        }
    }
}

/// Typed access: the parse and the writer of the `dr-ftg-spr` codec.
impl FtgSprDocument {
    /// Reads the spec's headerless FTG sprite layout (it has no magic: nothing tells it apart but a reading
    /// that fits).
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::dark_reign::ftg_spr::FtgSprDocument;
    ///
    /// // One 2 × 1 frame with its hotspot at (1, 0): header (frames, max width, max height, reserved), descriptor
    /// // (width, height, hotspot x, hotspot y), then the palette indices.
    /// let words: [u16; 8] = [1, 2, 1, 0, 2, 1, 1, 0];
    /// let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    /// bytes.extend([5, 9]);
    /// let sprite = FtgSprDocument::read(&bytes)?;
    /// assert_eq!((sprite.max_width, sprite.max_height), (2, 1));
    /// assert!(FtgSprDocument::read(&bytes[..17]).is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<FtgSprDocument> {
        parse(bytes)
    }

    /// The file's bytes (the writer of `relic pack dr-ftg-spr x.json`): those read, when nothing was edited.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::dark_reign::ftg_spr::FtgSprDocument;
    ///
    /// // One 2 × 1 frame with its hotspot at (1, 0): header (frames, max width, max height, reserved), descriptor
    /// // (width, height, hotspot x, hotspot y), then the palette indices.
    /// let words: [u16; 8] = [1, 2, 1, 0, 2, 1, 1, 0];
    /// let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    /// bytes.extend([5, 9]);
    /// let mut sprite = FtgSprDocument::read(&bytes)?;
    /// assert_eq!(sprite.to_bytes()?, bytes);
    /// sprite.frames[0].offset_y = -3;
    /// assert_eq!(FtgSprDocument::read(&sprite.to_bytes()?)?.frames[0].offset_y, -3);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write_document(self)
    }
}
