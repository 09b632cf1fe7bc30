//! Dark Reign SPR sprites (`dr-spr`): every unit, building and effect of the game, palette-indexed and run-length
//! encoded, in sections (move, fire, …) of animation frames, each in several rotations. Spec: the Dark Reign SPR/FTG
//! specification, section "SPR Sprite Format", with docs/formats/dark-reign.md, which wins where they
//! differ.
//!
//! Layout: a 32-byte header (`RSPR`/`SSPR`/`LSPR`, int32 version 0x0210 or 0x0200, nanims, nrots, szx,
//! szy, npics, nsects), then at offsets computed from it: the anim-index table `picnr[nanims · nrots]`, the
//! sections (firstanim, lastanim, 16.16 rate in frames per game cycle, numhotspots), `anims[nanims]` (each
//! anim's section), the picture table (npics × (picoff, hotoff), then a 4-byte end marker), the pixel data
//! at `off_bits` (each picture's scanline runs, see [`rle`]), and at `off_bits` + end marker the hotspot
//! table (int32 count, 3-byte x, y, flag records).
//!
//! Readings relic chose where the spec and docs/formats/dark-reign.md#spr are silent or contradict each other:
//! - The spec's "npics + 1 entries" / `off_bits = off_picoffs + 8·npics + 4` contradiction: docs/formats/dark-reign.md#spr-tables
//!   settles it as npics 8-byte entries plus a 4-byte end marker; the end marker is the size of the pixel
//!   data, so the last picture ends there (the spec's "sentinel").
//! - The anim-index formula is missing from the spec: picture of (anim a, rotation r) = `picnr[a·nrots + r]`,
//!   as OpenDR's loader reads it.
//! - A picture's hotspots are records `hotoff .. hotoff + numhotspots` of the table, `numhotspots` being
//!   that of the section whose range holds the frame's anim (the section being walked, as the spec's atlas
//!   loop and OpenDR do; `anims[]` is kept but not consulted). x and y are unsigned bytes.
//! - Rotation r faces `r · 360 / nrots` degrees counter-clockwise from east. The engine's loader shifts
//!   rotations by nrots / 4 to face up; relic keeps the stored numbering.
//! - Pictures are decoded from their own offsets and may share bytes or leave gaps; a file whose pictures
//!   are not packed in table order keeps its offsets, end marker and non-zero gaps (`layout`).
//! - `LSPR` is read as a normal sprite; SSPR opaque pixels are drawn as [`paint::SHADOW`] (black at half
//!   opacity), never as palette index 47; index 0 is always transparent.
//! - Frame PNGs are named `<section>_<rotation>_<frame>`, the frame counted from the section's first anim.
//! - The hotspot table can be missing (docs/formats/dark-reign.md#spr-no-hotspots; the spec's own layout has none): a file that ends
//!   exactly after the pixel data is a sprite without hotspots (`layout.hotspot_table` false), written back
//!   the same way. A file ending 1 to 3 bytes after it is still a truncated count. The spec is silent on
//!   the table; it also says `hotoff` is "ignored when numhotspots == 0", which relic follows.
//!
//! `relic convert` writes sources (what `pack` reads: the frame PNGs and the JSON document, which holds
//! each hotspot once, under the first frame showing it) and a view (`atlas.view.png`, never read; `pack`
//! warns when it differs from the atlas the frames give).

pub mod convert;
pub mod pack;
pub mod paint;
pub mod read;
pub mod rle;
pub mod types;
pub mod write;

use std::path::Path;

pub use convert::{frames, to_assets, FrameRef, ATLAS_VIEW};
pub use read::parse;
pub use types::{HotspotRecord, Magic, Picture, PictureLayout, Section, SprDocument};
pub use write::{encode_picture, write_document};

use crate::asset::NamedAsset;
use crate::error::Result;
use crate::registry::{
    Convert, ConvertInput, ConvertOptions, Document, Format, Game, JsonContext, Kind, Magic as ProbeMagic, Probe,
};

pub const FORMAT_ID: &str = "dr-spr";

pub static FORMAT: Format = Format {
    extensions: &["spr"],
    notes: "convert: sources, which pack reads: <name>/<section>_<rotation>_<frame>.png per frame and \
            <name>/<name>.json (sizes, sections with rates in 16.16 frames per game cycle, rotation directions \
            counter-clockwise from east, each frame's hotspots, listed once, the palette). View, never read: \
            <name>/atlas.view.png (the atlas: one row, section by section, rotation by rotation, anim by anim); \
            pack warns when it differs from the frames. Palette: --palette, else the .pal beside the sprite, else \
            greyscale. Shadow sprites (SSPR) are drawn black at half opacity. A file that ends after its pixel \
            data (the spec's layout) is a sprite without a hotspot table and is written back so. Two zero-length \
            runs in a row make no progress and are refused; a header whose picture size its pixel data cannot \
            encode (each line takes at least 2·⌈width/255⌉ − 1 bytes) is refused before decoding. pack: from that \
            JSON with the frame PNGs beside it (colours mapped back through its palette), or from --to json, byte \
            for byte.",
    probe: Probe::magic(&[ProbeMagic::prefix(b"RSPR"), ProbeMagic::prefix(b"SSPR"), ProbeMagic::prefix(b"LSPR")]),
    document: Some(&SprFaces),
    convert: Some(&SprFaces),
    ..Format::new(FORMAT_ID, "Dark Reign SPR sprite (RSPR/SSPR)", Game::DarkReign, Kind::Image)
};

struct SprFaces;

impl Document for SprFaces {
    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(&parse(data)?))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        crate::registry::document_json(FORMAT_ID, &parse(data)?)
    }

    /// From JSON read from a file, the frame PNGs beside it (see [`pack`]); else the document alone.
    fn from_json(&self, value: serde_json::Value, context: &JsonContext<'_>) -> Result<Vec<u8>> {
        let Some(json_path) = context.path else {
            let doc: SprDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
            return write_document(&doc);
        };
        let mut notes = Vec::new();
        let bytes = pack::from_json_at(value, json_path, &mut notes)?;
        notes.into_iter().for_each(|n| context.note(n));
        Ok(bytes)
    }
}

impl Convert for SprFaces {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let (data, opts) = (input.data, input.options);
        match input.path {
            Some(path) => convert_with(data, opts, Some(path)),
            None => convert_with(data, opts, None),
        }
    }
}

/// Reads the file, then finds its palette (so that a file that does not read asks for none).
fn convert_with(data: &[u8], opts: &ConvertOptions, path: Option<&Path>) -> Result<Vec<NamedAsset>> {
    let doc = parse(data)?;
    let palette = crate::dark_reign::palette_for(opts, path)?;
    convert::assets(&doc, &palette, opts, crate::limits::expansion_budget(data.len() as u64))
}

/// Typed access: the parse and the writer of the `dr-spr` codec.
impl SprDocument {
    /// Reads an SPR sprite: header, tables, each picture's run-length data and the hotspots.
    ///
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
    /// assert!(SprDocument::read(&bytes[..31]).is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<SprDocument> {
        parse(bytes)
    }

    /// The file's bytes (the writer of `relic pack dr-spr x.json`): those read, when nothing was edited.
    ///
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
    /// let mut faster = spr.clone();
    /// faster.sections[0].rate *= 2;
    /// assert_eq!(SprDocument::read(&faster.to_bytes()?)?.sections[0].rate, spr.sections[0].rate * 2);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write_document(self)
    }
}
