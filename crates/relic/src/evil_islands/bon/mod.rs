//! Evil Islands BON files (`ei-bon`): where a model part sits relative to its parent part, once per morph
//! extreme (strength, dexterity, height — see the FIG module).
//!
//! Layout (spec "Bon", docs/formats/evil-islands.md#bon): no header and no magic — vec3 offsets (3 × f32: x, y, z) to the end
//! of the file; 8 of them (96 bytes) in every real file, in the morph order of FIG vertices. Only a
//! translation is stored, no rotation. A *model's* `.bon` is a RES archive with one such entry per part,
//! named after the part (`ei-res` reads it; [`parse_set`] gives its parts); a `.bon` that does not start
//! with the RES magic is one part's offsets on its own, as real game files carry them next to single FIG
//! files.
//!
//! Identification: a `.bon` file is `ei-res` when it starts with the RES magic and `ei-bon` otherwise (by
//! content, not by extension alone). What the spec leaves open and relic's choice: the spec reads offsets
//! "to the end of the stream", so relic takes any multiple of 12 bytes (a one-morph model would have 12)
//! and refuses a partial offset at the end. An empty file (the spec is silent on it; real figure `.bon`
//! RES archives hold empty entries for some parts) is a part with no offsets: it writes back empty, and a
//! figure places that part at its parent's origin, with a note.

pub mod convert;
pub mod read;
pub mod types;
pub mod write;

pub use read::parse;
pub use types::{Bon, Vec3};
pub use write::write;

use serde_json::json;

use crate::codec::text::{decode, CP1251};
use crate::error::Result;
use crate::registry::{Claim, Convert, ConvertInput, FileFormat, Format, Game, Kind, Probe, Typed};

pub const FORMAT_ID: &str = "ei-bon";

pub static FORMAT: Format = Format {
    extensions: &["bon"],
    notes: "no magic: a .bon that is not a RES archive (a model's .bon is one: `ei-res`) holds one part's \
            offsets, 8 × vec3 (one per morph extreme); an empty file is a part with no offsets (real figure RES \
            archives hold such entries). JSON lists them; `pack` writes them back byte for byte. `convert` without \
            --to gives a friendly JSON (part, offset per morph extreme); offsets alone make no glTF (convert the \
            `.mod` beside them).",
    probe: Probe { claims: &[Claim::Extension("bon")], ..Probe::plausible(plausible) },
    // Offsets make JSON only: a glTF needs the figure they place (convert its `.mod`).
    only_targets: Some(&["json"]),
    document: Some(&Typed::<Bon>::FACE),
    convert: Some(&BonConvert),
    ..Format::new(FORMAT_ID, "Evil Islands BON (bone offsets of one part)", Game::EvilIslands, Kind::Model)
};

/// No magic: whole 12-byte offsets (an empty part too, as real figure archives hold). A `.bon` claims the
/// name only when its bytes did not match the RES magic (magic is checked before names).
fn plausible(_head: &[u8], len: u64) -> bool {
    len % types::OFFSET_SIZE as u64 == 0
}

impl FileFormat for Bon {
    const ID: &'static str = FORMAT_ID;

    fn parse(bytes: &[u8]) -> Result<Self> {
        parse(bytes)
    }

    fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    fn info(&self, bytes: &[u8]) -> Result<serde_json::Value> {
        Ok(json!({
            "format": FORMAT_ID,
            "offsets": self.offsets.len(),
            "morph_0": self.offsets.first(),
            "file_size": bytes.len(),
        }))
    }

    fn to_document(&self) -> Result<serde_json::Value> {
        crate::registry::tagged_document_json(FORMAT_ID, self)
    }

    fn from_document(value: serde_json::Value) -> Result<Self> {
        crate::registry::tagged_document_from_json(FORMAT_ID, value)
    }
}

/// The friendly JSON (see [`convert`]).
struct BonConvert;

impl Convert for BonConvert {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<crate::asset::NamedAsset>> {
        convert::convert_part(input.data, input.path, input.options)
    }
}

/// The parts of a bone set: a model's `.bon` RES archive gives each entry's name (cp1251) and offsets, in
/// file-table order; a `.bon` without the RES magic gives one part with an empty name.
pub fn parse_set(bytes: &[u8]) -> Result<Vec<(String, Bon)>> {
    if !bytes.starts_with(&crate::evil_islands::res::types::MAGIC) {
        return Ok(vec![(String::new(), parse(bytes)?)]);
    }
    let res = crate::evil_islands::res::parse(bytes)?;
    (0..res.len())
        .map(|i| {
            let name = decode(CP1251, res.name(i));
            let bon = parse(res.data(i)).map_err(|e| e.within(format_args!("entry {name:?}")))?;
            Ok((name, bon))
        })
        .collect()
}

/// Typed access: the parse and the writer of the `ei-bon` codec.
impl Bon {
    /// Reads one part's offsets (a `.bon` that is not a RES archive; see [`parse_set`] for a model's set). A
    /// size that is not a multiple of 12 is refused.
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::bon::Bon;
    ///
    /// let bytes: Vec<u8> = [0.25f32, 0.0, -2.0].iter().flat_map(|f| f.to_le_bytes()).collect();
    /// assert_eq!(Bon::read(&bytes)?.offset(0), Some([0.25, 0.0, -2.0]));
    /// assert!(Bon::read(&bytes[..11]).is_err());
    /// assert!(Bon::read(&[])?.offsets.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<Bon> {
        parse(bytes)
    }

    /// The file's bytes (the writer of `relic pack ei-bon`): those read, when nothing was edited.
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::codec::float::F32;
    /// use relic::evil_islands::bon::Bon;
    ///
    /// let bon = Bon { offsets: vec![[F32::new(1.0), F32::new(0.0), F32::new(0.0)]] };
    /// let bytes = bon.to_bytes()?;
    /// assert_eq!(bytes[..4], 1.0f32.to_le_bytes());
    /// assert_eq!(bytes.len(), 12);
    /// assert_eq!(Bon::read(&bytes)?, bon);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }
}
