//! Ragnarok Online models (`ro-rsm`): `.rsm` (versions 1.1 to 1.5) and `.rsm2` (2.2, 2.3), magic `GRSM`.
//! A tree of meshes, each with a 3×3 matrix, a placement, vertices, texture vertices, faces and key
//! frames (rotation; scale ≥ 1.6; position ≥ 2.2; texture key frames 2.3), plus volume boxes.
//!
//! Spec: the RSM/RSM2 specification of RagnarokFileFormats (rdw-archive), corrected by the Ragnarok part of
//! `docs/formats/ragnarok.md#rsm`. Version-dependent fields: alpha ≥ 1.4; texture-vertex colour and one smooth group per face ≥ 1.2;
//! volume-box flag ≥ 1.3; per-mesh scale keys ≥ 1.6 (a model-level scale key list after the meshes below 1.6); frame
//! rate, length-prefixed strings, several root names, face `len` and position keys ≥ 2.2; per-mesh textures and texture
//! key frames 2.3. Names are CP949; fixed 40-byte fields carry junk after the NUL, so raw bytes are kept wherever the
//! text would not write them back.
//!
//! Choices where the sources disagree or are silent:
//! - Face records ≥ 2.2: `len` counts the bytes after itself; `(len − 20) / 4` smooth groups are read
//!   (the spec reads at most three). A `len` below 20 or not 20 + 4·n is refused.
//! - RSM 1.5 carries one int32 more than the spec's layout (zero in real files); relic reads it after the
//!   meshes, before the model-level scale key list (`extra_v1_5`), and reads no per-mesh position keys in
//!   1.5. No real 1.5 file was at hand to place it for certain: a 1.5 file whose extra int32 sits
//!   elsewhere reads with the wrong values there, but still writes back byte-identically when both
//!   places hold zero.
//! - The volume-box count is read only when bytes remain (real 2.3 files end before it); bytes after the
//!   volume boxes are kept as `trailing`.
//! - Versions outside 1.1 to 2.3 (1.0, 2.4, …) are refused; 1.6 to 2.1 (never seen) are read by the same
//!   rules.
//! - Floats are written to JSON bit-exactly; NaN and infinities as bit-pattern strings (`float`).
//!
//! Unsettled for the conversion (see docs/formats/ragnarok.md#rsm-transforms-1x for the transforms): parents are found by name, first
//! match, and cycles are cut ([`model`]).
//!
//! The conversion ([`scene`]): 1.x is Y-down and mirrored into glTF's Y-up, 2.2+ is Y-up and written as
//! stored (docs/formats/ragnarok.md#rsm-axes, axes corrected 2026-11-25); face order as measured on the corpus
//! ([`scene::WINDING`]); the texture-vertex colour never becomes `COLOR_0` (0 in real files, it would
//! blacken every texture). Textures are found as the client finds them ([`textures`]).

pub mod convert;
pub mod float;
pub mod import;
pub mod model;
pub mod read;
pub mod scene;
pub mod textures;
pub mod types;
pub mod write;

pub use model::TimeBase;
pub use read::parse;
pub use types::*;
pub use write::write;

use crate::asset::{Asset, NamedAsset};
use crate::error::Result;
use crate::registry::{
    Convert, ConvertInput, ConvertOptions, FileFormat, Format, Game, Kind, Magic, Pack, PackRequest, Probe, Typed,
};

pub const FORMAT_ID: &str = "ro-rsm";

pub static FORMAT: Format = Format {
    extensions: &["rsm", "rsm2"],
    notes: "Versions 1.1 to 2.3. RSM 1.5: the extra int32 of real files is read after the meshes, before the \
            model-level scale keys (zero in real files). Face records ≥ 2.2 hold (len − 20)/4 smooth groups. \
            The volume-box count is optional at the end of the file. JSON keeps raw name bytes when the \
            CP949 text would not write them back, and NaN/infinite floats as bit-pattern strings. \
            glTF: node transforms as docs/formats/ragnarok.md#rsm-transforms-1x gives them for < 2.2 (mirrored from Y-down and centred) \
            and ≥ 2.2 (Y-up, unmirrored); faces as stored, reversed in meshes whose own matrix mirrors; no \
            COLOR_0 (the texture-vertex colour stays in the JSON). Textures from the same GRF, then the \
            client folder's data/texture, then --textures; a warning names each one not found. Texture key \
            frames as KHR_texture_transform animated through KHR_animation_pointer (needs the texture). \
            pack from glTF (.glb/.gltf): RSM 1.4 by default (rotation keys, ms), --version 0x203 (or an .rsm2 \
            output) for 2.3 (position/rotation/scale keys, 30 fps or the rate relic's export kept); relic's \
            export helpers fold back, the 1.x mirror and centring are undone; smoothing groups from the normals; \
            embedded textures written beside the output as BMP/TGA.",
    probe: Probe::magic(&[Magic::prefix(&MAGIC)]),
    pack_sources: &["glb", "gltf"],
    pack_versions: &import::VERSIONS,
    document: Some(&Typed::<Rsm>::FACE),
    convert: Some(&RsmFaces),
    pack: Some(&RsmFaces),
    ..Format::new(FORMAT_ID, "Ragnarok Online RSM/RSM2 model", Game::Ragnarok, Kind::Model)
};

impl FileFormat for Rsm {
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
        crate::registry::document_json(FORMAT_ID, self)
    }

    fn from_document(value: serde_json::Value) -> Result<Self> {
        crate::registry::document_from_json(FORMAT_ID, value)
    }
}

struct RsmFaces;

impl Convert for RsmFaces {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        convert_model(input.data, input.path, input.options)
    }

    /// The textures its client folder lacks (issue 24).
    fn check_warnings(&self, data: &[u8], path: &std::path::Path) -> Vec<String> {
        check_textures(data, path).unwrap_or_default()
    }
}

impl Pack for RsmFaces {
    /// A glTF as RSM 1.4 (default) or 2.3 ([`import`]); embedded textures beside it.
    fn pack_input(&self, input_name: &str, content: &[u8], request: &PackRequest) -> Result<Vec<u8>> {
        pack_gltf(input_name, content, request)
    }
}

/// `relic pack ro-rsm model.glb -o out.rsm`: the version from `--version`, else from the output's
/// extension (`.rsm2` → 2.3, else 1.4); a note when the two disagree.
fn pack_gltf(input_name: &str, content: &[u8], request: &PackRequest) -> Result<Vec<u8>> {
    let ext = crate::registry::extension_of(&request.output.to_string_lossy()).map(str::to_ascii_lowercase);
    let rsm2_name = ext.as_deref() == Some("rsm2");
    let version = match request.version {
        Some(v) => Version::new((v >> 8) as u8, (v & 0xFF) as u8),
        None if rsm2_name => Version::new(2, 3),
        None => Version::new(1, 4),
    };
    if request.version.is_some() && ext.is_some() && version.is_rsm2() != rsm2_name {
        request.note(format!(
            "{FORMAT_ID}: writing version {version} to a .{} file; the game looks for {} models as .{}",
            ext.as_deref().unwrap_or_default(),
            if version.is_rsm2() { "2.x" } else { "1.x" },
            if version.is_rsm2() { "rsm2" } else { "rsm" }
        ));
    }
    let packed = import::from_gltf(content, std::path::Path::new(input_name), version)?;
    for n in packed.notes {
        request.note(n);
    }
    for t in packed.textures {
        request.companion(t.file_name, t.bytes);
    }
    write(&packed.rsm)
}

/// The model as a glTF scene, its textures looked up as the client does ([`textures`]); each texture not
/// found (or found but not decodable) is named in a note of its own, since the model is then written
/// untextured there.
fn convert_model(data: &[u8], path: Option<&std::path::Path>, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let rsm = parse(data)?;
    let sources = textures::TextureSources::for_model(path, opts)?;
    let scene = scene::to_scene(&rsm, (!sources.is_empty()).then_some(&sources as &dyn scene::TextureLookup))?;
    let mut missing: Vec<&str> = scene
        .materials
        .iter()
        .filter(|m| m.texture.is_none() && m.name != scene::UNTEXTURED)
        .map(|m| m.name.as_str())
        .collect();
    missing.sort_unstable();
    missing.dedup();
    for name in missing {
        match sources.find(name) {
            textures::Found::Undecodable(why) => opts.note(format!(
                "{FORMAT_ID}: texture '{}' is not an image relic reads: {why}",
                textures::client_name(name)
            )),
            textures::Found::Missing | textures::Found::Image(_) => {
                opts.record_missing("texture", textures::client_name(name));
                opts.note(sources.missing_note(name));
            }
        }
    }
    Ok(vec![NamedAsset { name: None, asset: Asset::Scene(scene) }])
}

/// For `relic check`: a note for each texture of the model at `path` that its client folder (the `data`
/// folder above it) does not hold; none when the model sits in no client folder (there is nowhere to
/// look, and `check` takes no `--textures`).
pub fn check_textures(data: &[u8], path: &std::path::Path) -> Result<Vec<String>> {
    let rsm = parse(data)?;
    let sources = textures::TextureSources::for_check(path)?;
    if sources.is_empty() {
        return Ok(Vec::new());
    }
    Ok(rsm
        .texture_names()
        .into_iter()
        .filter(|n| !sources.exists(&n.text))
        .map(|n| sources.missing_note(&n.text))
        .collect())
}

/// Typed access: the parse and the writer of the `ro-rsm` codec.
impl Rsm {
    /// Reads an RSM (1.1 to 1.5) or RSM2 (2.2, 2.3) model.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::ragnarok::rsm::{Rsm, Version};
    ///
    /// let bytes = std::fs::read("../../samples/ragnarok/pyramid.rsm")?;
    /// let rsm = Rsm::read(&bytes)?;
    /// assert_eq!(rsm.version, Version::new(1, 4));
    /// assert_eq!(rsm.meshes.len(), 1);
    /// assert_eq!(rsm.root_names[0].text, "pyramid");
    /// assert_eq!(rsm.textures[0].text, "stone.bmp");
    /// assert!(Rsm::read(b"GRSM").is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<Rsm> {
        parse(bytes)
    }

    /// The file's bytes (the writer of `relic pack ro-rsm`): those read, when nothing was edited.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::ragnarok::rsm::{Rsm, Version};
    ///
    /// let bytes = std::fs::read("../../samples/ragnarok/pyramid.rsm")?;
    /// let rsm = Rsm::read(&bytes)?;
    /// assert_eq!(rsm.version, Version::new(1, 4));
    /// assert_eq!(rsm.meshes.len(), 1);
    /// assert_eq!(rsm.root_names[0].text, "pyramid");
    /// assert_eq!(rsm.textures[0].text, "stone.bmp");
    /// assert_eq!(rsm.to_bytes()?, bytes);
    /// let mut renamed = rsm.clone();
    /// renamed.shade_type = 2;
    /// assert_eq!(Rsm::read(&renamed.to_bytes()?)?.shade_type, 2);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }
}
