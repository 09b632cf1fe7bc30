//! Evil Islands ANM files (`ei-anm`): one model part's animation — a rotation and a translation per frame,
//! and optional morphing frames that shift the part's vertices.
//!
//! Layout (spec "ANM", docs/formats/evil-islands.md#anm): u32 rotation count, quaternions (4 × f32, stored w, x, y, z); u32
//! translation count, vec3s; u32 morphing frame count, u32 morphing vertex count, then per frame one vec3
//! shift per vertex. An animation set `.anm` is a RES archive (`ei-res`) whose entries are the animations,
//! themselves RES archives of one ANM entry per part, named after the part.
//!
//! What the spec leaves open and relic's choice:
//! - The morphing vertex count may be missing: editor-written files end right after a zero frame count,
//!   game files keep it (docs/formats/evil-islands.md#anm-morph-count). relic reads it as absent (`morph_vertex_count: null`) only when the
//!   file ends there, and writes it back only when it was there.
//! - No file states a frame rate; one engine re-implementation assumes 15 frames per second. Frames here
//!   are plain indices.
//! - Rotations are kept as stored (w first, not normalised); [`Quat::xyzw`] gives glTF's order. Whether
//!   translation and rotation counts must agree is not said; relic keeps both lists as they are.
//! - Bytes after the last frame are kept as `trailing` (real files have none).
//!
//! Identification: no magic. A `.anm` file is `ei-res` when it starts with the RES magic and `ei-anm`
//! otherwise; entries inside animation archives carry no extension.

pub mod convert;
pub mod read;
pub mod types;
pub mod write;

pub use read::parse;
pub use types::{Anm, Quat, Vec3};
pub use write::write;

use serde_json::json;

use crate::error::Result;
use crate::registry::{Claim, Convert, ConvertInput, FileFormat, Format, Game, Kind, Probe, Typed};

pub const FORMAT_ID: &str = "ei-anm";

/// The frame rate one engine re-implementation assumes (docs/formats/evil-islands.md#anm-frame-rate: no file states one).
pub const ASSUMED_FRAMES_PER_SECOND: u32 = 15;

pub static FORMAT: Format = Format {
    extensions: &["anm"],
    notes: "no magic: a .anm that is not a RES archive (an animation set is one: `ei-res`) is one part's \
            animation. JSON holds rotations (w, x, y, z as stored), translations and morphing frames; the \
            morphing vertex count is null when the file leaves it out. `pack` writes it back byte for byte. `convert` \
            without --to gives a friendly JSON (part, frames, rotations as x, y, z, w quaternions, translations, \
            morphing frames) and, when the part's figure `<part>.fig` lies beside it, a glTF of that part playing \
            it (--to glb|gltf; without the figure that is an error, and in a folder a skip).",
    probe: Probe { claims: &[Claim::Extension("anm")], ..Probe::plausible(plausible) },
    document: Some(&Typed::<Anm>::FACE),
    convert: Some(&AnmConvert),
    ..Format::new(FORMAT_ID, "Evil Islands ANM (one part's animation)", Game::EvilIslands, Kind::Model)
};

/// No magic: the counts read so far (rotations, translations, morphing frames and vertices) fit the
/// file, and when all of them are in `head`, they make up exactly its length. A `.anm` claims the name only
/// when its bytes did not match the RES magic (magic is checked before names).
fn plausible(head: &[u8], len: u64) -> bool {
    let at = |offset: u64| usize::try_from(offset).ok().and_then(|o| crate::registry::le_u32_at(head, o));
    let Some(rotations) = at(0) else { return false };
    let translations_at = 4 + 16 * u64::from(rotations);
    let Some(translations) = at(translations_at) else { return translations_at + 8 <= len };
    let frames_at = translations_at + 4 + 12 * u64::from(translations);
    let Some(frames) = at(frames_at) else { return frames_at + 4 <= len };
    let Some(vertices) = at(frames_at + 4) else { return frames_at + 4 == len || frames_at + 8 <= len };
    // Editor-written files end after a zero frame count (docs/formats/evil-islands.md#anm-morph-count); game files keep the vertex count.
    len == frames_at + 8 + 12 * u64::from(frames) * u64::from(vertices) || (frames == 0 && len == frames_at + 4)
}

impl FileFormat for Anm {
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
            "rotation_frames": self.rotations.len(),
            "translation_frames": self.translations.len(),
            "morphing_frames": self.morph_frames.len(),
            "morphing_vertex_count": self.morph_vertex_count,
            "seconds_at_15_fps": self.rotations.len().max(self.translations.len()) as f64
                / f64::from(ASSUMED_FRAMES_PER_SECOND),
            "trailing_bytes": self.trailing.0.len(),
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

/// The friendly JSON, and a glTF clip on the model beside it (see [`convert`]).
struct AnmConvert;

impl Convert for AnmConvert {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<crate::asset::NamedAsset>> {
        convert::convert_part(input.data, input.path, input.options)
    }
}

/// Typed access: the parse and the writer of the `ei-anm` codec.
impl Anm {
    /// Reads one part's animation (a `.anm` that is not a RES archive).
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::anm::Anm;
    ///
    /// // No rotations, no translations, no morphing frames, and no morphing vertex count (editor files).
    /// let anm = Anm::read(&[0u8; 12])?;
    /// assert!(anm.rotations.is_empty() && anm.translations.is_empty());
    /// assert_eq!(anm.morph_vertex_count, None);
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<Anm> {
        parse(bytes)
    }

    /// The file's bytes (the writer of `relic pack ei-anm`): those read, when nothing was edited.
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::anm::Anm;
    ///
    /// let mut anm = Anm::read(&[0u8; 12])?;
    /// assert_eq!(anm.to_bytes()?, [0u8; 12]);
    /// anm.morph_vertex_count = Some(0);
    /// assert_eq!(anm.to_bytes()?, [0u8; 16]);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }
}
