//! Ragnarok Online SPR sprites (`ro-spr`): the frames of a character, monster, item or effect, which an ACT
//! file places and animates. Spec: SPR.MD of RagnarokFileFormats (rdw-archive), checked against the loaders
//! of roBrowser (`src/Loaders/Sprite.js`) and zrenderer (`source/resource/spr.d`).
//!
//! Layout: `SP`, the version as two bytes (minor, then major), the palette frame count (u16), from 2.0 the
//! RGBA frame count (u16); then each palette frame (u16 width, u16 height, then `width × height` indices, or
//! from 2.1 a u16 size and that many bytes of the zero-run RLE, see [`rle`]); then from 2.0 each RGBA frame
//! (u16 width, u16 height, `width × height × 4` bytes); from 1.1 the palette, the last 1,024 bytes.
//!
//! Readings relic chose where the spec and the loaders disagree or are silent:
//! - Palette byte order: SPR.MD says "listed in order ABGR"; roBrowser and zrenderer draw entry bytes 0, 1,
//!   2 as red, green, blue, and the fourth byte (0 in files seen) is not drawn. relic follows the loaders and
//!   keeps the fourth byte as stored.
//! - RGBA frames: SPR.MD says RGBA; both loaders read the bytes A, B, G, R and the rows bottom row first,
//!   which relic follows. SPR.MD calls the 2.1 section "RLE-encoded RGBA bitmaps", but its own text and both
//!   loaders put the RLE on the palette frames only.
//! - Version 1.0 has no palette (SPR.MD: it drew with the "system palette"; zrenderer takes the last 1,024
//!   bytes anyway). relic reads no palette: bytes after the frames are kept as `trailing`, and palette
//!   frames are drawn with `--palette`, else greyscale (index i as grey i), with a note.
//! - SPR.MD gives every 1.1+ file a palette, and zrenderer refuses files under 1,032 bytes; but real
//!   client sprites of RGBA frames only (a guild flag: no palette frames, one RGBA frame) and stubs of no
//!   frames (an 8-byte `shadow.spr`) end right after their frames. relic reads a 1.1+ file that ends after
//!   its frames as having no palette, and 1 to 1,023 bytes after them as an error.
//! - `00 00` in the RLE: see [`rle`].
//! - Index 0 is transparent whatever its colour (SPR.MD, both loaders); every other index is opaque.
//! - RGBA frames are drawn with their stored alpha, no colour key (zrenderer's `loadImageData` likewise).
//!   Of 77 real sprites with RGBA frames (below), 74 have transparent surroundings, but three effects fill
//!   their RGBA frames with opaque magenta (`FF FF 00 FF`: A 255, B 255, G 0, R 255): `m_ef07.spr` (one
//!   256×256 frame, all magenta), `스프레드.spr` (128×128, all magenta) and `su_lunaticcarrotbeat.spr`
//!   (99.4% magenta around small pictures). A frame of nothing but magenta suggests that the client keys
//!   magenta out of RGBA frames as it does out of BMP textures; no loader read does, so relic draws them
//!   as stored (magenta squares). Open question.
//! - Real files read and written back byte for byte (`relic check`, and `convert` then `pack` from the
//!   frame PNGs): 1,183 sprites of the public client repository aleDsz/ragnaMOBA-ClientSide (versions 2.1
//!   and 2.0; 41 with RGBA frames) and 96 effect sprites of `data/sprite/이팩트/` in the history of the
//!   public GRF repository Spylher/MySpyGRF (2.1 and 2.0; 36 with RGBA frames).
//!
//! `relic convert` writes sources (what `pack` reads): `<name>/pal_000.png` … for the palette frames and
//! `<name>/rgba_000.png` … for the RGBA frames, numbered within each kind as an ACT refers to them (a layer's
//! sprite index and type), and beside them the lossless document naming them (`<name>.json`, with
//! `drawn_with`, the palette the PNGs were drawn with when it is not the file's: `--palette`, or greyscale);
//! and a view, never read: `sheet.view.png`, every frame side by side, palette frames first.
//!
//! Palette frame PNGs are indexed (colour type 3): the stored indices, the palette they are drawn with as
//! PLTE (the dye of `--palette`: what the user sees and paints with), tRNS making index 0 transparent, so
//! that palette-aware editors keep indices. `pack` takes an indexed PNG's indices as they are when each
//! index used has, in the PNG, the colour convert drew it with (editors cut the PLTE after the last entry
//! used, or save fewer bits a pixel); otherwise (an RGBA PNG, a palette an editor sorted or recoloured) it
//! maps colours back through that palette. Indices are stored against the file's own palette either way.

pub mod convert;
pub mod document;
pub mod pack;
pub mod read;
pub mod rle;
pub mod types;
pub mod write;

pub use document::{FrameDocument, SprDocument};
pub use types::{AbgrFrame, PaletteFrame, RgbaFrame, Spr, Version, PALETTE_SIZE};

use crate::asset::NamedAsset;
use crate::error::Result;
use crate::registry::{Convert, ConvertInput, Document, Format, Game, JsonContext, Kind, Magic, PackRequest, Probe};

pub const FORMAT_ID: &str = "ro-spr";

pub static FORMAT: Format = Format {
    extensions: &["spr"],
    notes: "versions 1.0, 1.1, 2.0, 2.1 (SP + minor, major). convert: sources, which pack reads: \
            <name>/pal_NNN.png per palette frame (an indexed PNG: the stored indices, the drawing palette as \
            PLTE, index 0 transparent) and <name>/rgba_NNN.png per RGBA frame \
            (2.0+), numbered as an ACT refers to them, and the lossless document beside them (stored frame \
            bytes as base64, the 2.1 RLE as stored, the palette). View, never read: <name>/sheet.view.png. \
            Palette: --palette (a Ragnarok .pal or any palette file relic reads), else the file's own, else \
            greyscale (1.0, and RGBA-only files, which end after their frames). pack: from \
            that JSON with the PNGs beside it, byte for byte when unedited; an indexed PNG in the palette \
            convert wrote gives its indices as they are; any other edited palette frame is mapped by colour \
            through that palette (a colour not in it is an error naming frame and pixel, unless \
            --quantize takes the nearest), an edited RGBA frame is stored as it is; sizes may change.",
    probe: Probe {
        check: Some(|head| matches!(head, [_, _, minor, major, ..] if Version::from_bytes(*minor, *major).is_some())),
        ..Probe::magic(&[Magic::prefix(b"SP")])
    },
    document: Some(&SprFaces),
    convert: Some(&SprFaces),
    ..Format::new(FORMAT_ID, "Ragnarok Online SPR sprite", Game::Ragnarok, Kind::Image)
};

struct SprFaces;

impl Document for SprFaces {
    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(&Spr::read(data)?))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        crate::registry::document_json(FORMAT_ID, &SprDocument::of(&Spr::read(data)?))
    }

    /// From JSON read from a file, the frame PNGs beside it (see [`pack`]); else the document alone.
    fn from_json(&self, value: serde_json::Value, context: &JsonContext<'_>) -> Result<Vec<u8>> {
        let Some(json_path) = context.path else {
            let doc: SprDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
            return doc.to_spr()?.to_bytes();
        };
        let mut notes = Vec::new();
        let default = PackRequest::default();
        let bytes = pack::from_json_at(value, json_path, context.request.unwrap_or(&default), &mut notes)?;
        notes.into_iter().for_each(|n| context.note(n));
        Ok(bytes)
    }
}

impl Convert for SprFaces {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let (data, opts) = (input.data, input.options);
        convert::assets(&Spr::read(data)?, opts)
    }
}
