//! Evil Islands FIG files (`ei-fig`): one model part's mesh, with 8 morph extremes (or 1).
//!
//! Layout (spec "FIG", corrected by docs/formats/evil-islands.md#fig): magic `FIG` + an ASCII digit n, the morph count
//! (`FIG8`; `FIG1` also exists); 9 × u32 header (vertex block count, normal block count, texture coordinate
//! count, index count, vertex component count, morphing component count, an unknown u32 at 0x1C, render
//! group, texture index); n centres, n box minima, n box maxima (vec3 each) and n radii; the vertex blocks;
//! the normal blocks; texture coordinates (2 × f32); u16 triangle indices into the vertex components;
//! vertex components (u16 position, normal, texture coordinate index); morphing components (u16 morph
//! index, vertex index).
//!
//! Vertices come in blocks of 4 (SSE lanes). docs/formats/evil-islands.md#fig-vertex-blocks: the floats of a block run **axis (x, y, z) →
//! morph m → lane**, so float `b·12n + axis·4n + m·4 + lane` of the vertex data is coordinate `axis` of
//! vertex `4b + lane` in morph `m` (the spec's .ksy reads them as per-morph `x[4]` `y[4]` `z[4]`, which puts real
//! vertices outside their bounding boxes). relic decodes them into one position list per morph
//! ([`Fig::positions`]); a vertex component's `position` indexes those lists (flat `4b + lane`). Lanes past
//! the last used vertex are padding (zeros in real files) and are kept. Normals are 4-blocks `x[4]` `y[4]`
//! `z[4]` `w[4]`, decoded into `[x, y, z, w]` per normal and kept as stored (not normalised:
//! [`Fig::unit_normals`] normalises). The morph extremes are the corners of the strength × dexterity ×
//! height cube that the spec's trilinear formula blends (`val[0]` … `val[7]`): in morph m, bit 0 picks the
//! extreme of the formula's `coefs[1]`, bit 1 that of `coefs[0]`, bit 2 that of `coefs[2]` (height). Which
//! of strength and dexterity `coefs[0]` and `coefs[1]` are is unsettled between public readers
//! (docs/formats/evil-islands.md#fig-morphs); the same morph order holds for BON offsets and the header bounds.
//!
//! What the spec leaves open and relic's choice:
//! - FIG1: the spec only shows FIG8; relic reads n of everything that FIG8 has 8 of (bounds and morphs).
//!   Digits 1–9 are accepted, anything else is refused.
//! - Header u32 at 0x1C ("unknown", 0 in every file) is kept as `unk_0x1c`; `group` and `texture_index`
//!   are kept as numbers.
//! - Normals written by one community editor before mid-2022 are stored one normal at a time (x, y, z, w)
//!   rather than in 4-blocks (`cannotDisplay.mod` in the corpus); nothing in the file tells the two apart, so
//!   relic always decodes 4-blocks (the game's layout) and writes back what it read. Non-unit normals are
//!   never rejected.
//! - The morphing components' meaning is not known (`(i, i)` in every file seen); they are kept as pairs.
//! - Texture coordinates are kept as stored (one community editor rescales those of some item groups by
//!   their file names; relic does not).
//! - Indices are not checked on reading (so any file round-trips); [`Fig::problems`] lists those out of
//!   range, and `info` reports them. Bytes after the morphing components are kept as `trailing`.

pub mod read;
pub mod types;
pub mod write;

pub use read::parse;
pub use types::{Bounds, Fig, MorphComponent, Vec2, Vec3, Vec4, VertexComponent};
pub use write::write;

use serde_json::json;

use crate::asset::NamedAsset;
use crate::error::Result;
use crate::registry::{Convert, ConvertInput, FileFormat, Format, Game, Kind, Probe, Typed};

pub const FORMAT_ID: &str = "ei-fig";

pub static FORMAT: Format = Format {
    extensions: &["fig"],
    notes: "magic FIG8 (8 morph extremes) or FIG1. JSON holds the vertex blocks decoded per docs/formats/evil-islands.md#fig-vertex-blocks into \
            one position list per morph, normals as stored (x, y, z, w), texture coordinates, triangle \
            indices and vertex components; `pack` writes them back byte for byte.",
    probe: Probe::check(|head| read::morph_count(head).is_some()),
    document: Some(&Typed::<Fig>::FACE),
    convert: Some(&FigConvert),
    ..Format::new(FORMAT_ID, "Evil Islands FIG (model part mesh with morph extremes)", Game::EvilIslands, Kind::Model)
};

impl FileFormat for Fig {
    const ID: &'static str = FORMAT_ID;

    fn parse(bytes: &[u8]) -> Result<Self> {
        parse(bytes)
    }

    fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    fn info(&self, bytes: &[u8]) -> Result<serde_json::Value> {
        Ok(info(self, bytes.len()))
    }

    fn to_document(&self) -> Result<serde_json::Value> {
        crate::registry::tagged_document_json(FORMAT_ID, self)
    }

    fn from_document(value: serde_json::Value) -> Result<Self> {
        crate::registry::tagged_document_from_json(FORMAT_ID, value)
    }
}

struct FigConvert;

impl Convert for FigConvert {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        crate::evil_islands::model::convert_part(&parse(input.data)?, input.options)
    }
}

/// Summary for `relic info`: counts, the header fields, morph 0's bounds and what does not hold together.
pub fn info(fig: &Fig, file_size: usize) -> serde_json::Value {
    let used = fig.used_positions().iter().filter(|&&u| u).count();
    json!({
        "format": FORMAT_ID,
        "morphs": fig.morph_count(),
        "vertex_blocks": fig.position_count() / types::LANES,
        "positions_per_morph": fig.position_count(),
        "positions_used": used,
        "normals": fig.normals.len(),
        "texcoords": fig.texcoords.len(),
        "indices": fig.indices.len(),
        "triangles": fig.indices.len() / 3,
        "vertex_components": fig.vertices.len(),
        "morph_components": fig.morph_components.len(),
        "unk_0x1c": fig.unk_0x1c,
        "group": fig.group,
        "texture_index": fig.texture_index,
        "bounds_morph_0": fig.bounds.first(),
        "positions_outside_bounds": fig.positions_outside_bounds().len(),
        "problems": fig.problems(),
        "trailing_bytes": fig.trailing.0.len(),
        "file_size": file_size,
    })
}

/// Typed access: the parse and the writer of the `ei-fig` codec.
impl Fig {
    /// Reads a FIG file: positions decoded per morph extreme, everything else as stored.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::fig::Fig;
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/body.fig")?;
    /// let fig = Fig::read(&bytes)?;
    /// assert_eq!(fig.morph_count(), 8);
    /// assert_eq!(fig.positions[0].len(), 4);
    /// assert_eq!((fig.indices.len(), fig.vertices.len()), (12, 4));
    /// assert_eq!((fig.group, fig.texture_index), (19, 1));
    /// assert!(fig.problems().is_empty());
    /// assert!(Fig::read(b"FIG0").is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<Fig> {
        parse(bytes)
    }

    /// The file's bytes (the writer of `relic pack ei-fig`): those read, when nothing was edited.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::fig::Fig;
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/body.fig")?;
    /// let fig = Fig::read(&bytes)?;
    /// assert_eq!(fig.morph_count(), 8);
    /// assert_eq!(fig.positions[0].len(), 4);
    /// assert_eq!((fig.indices.len(), fig.vertices.len()), (12, 4));
    /// assert_eq!((fig.group, fig.texture_index), (19, 1));
    /// let mut lowered = fig.clone();
    /// lowered.group = 18;
    /// let edited = lowered.to_bytes()?;
    /// assert_eq!(edited.len(), bytes.len());
    /// assert_eq!(Fig::read(&edited)?.group, 18);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }
}
