//! Ragnarok Online map scenes (`ro-rsw`): `.rsw`, magic `GRSW`, versions 1.0 to 2.7 (real files: 1.2 to
//! 2.6 and 2.6 with build numbers). The scene of a map: the names of its ground (`.gnd`) and altitude
//! (`.gat`) files, the water plane (below 2.6), the sun and ambient light, the ground bounds, and every
//! placed object: RSM models (position, rotation, scale), point lights, ambient sounds and effect
//! emitters; from 2.1 a quadtree of bounding boxes (1365 nodes × 48 bytes) follows the objects. Which
//! version carries which field: [`types::Version`].
//!
//! Spec: RagnarokFileFormats' RSW.MD (rdw-archive) gives the meaning of the water and the quadtree but no
//! layout; the layout follows roBrowser (`src/Loaders/World.js`), korangar (`ragnarok-formats/src/map.rs`),
//! BrowEdit3 (`browedit/components/Rsw.cpp`, `RswModel.cpp`) and GRF Editor (`RswFormat`), which agree but
//! where listed here; docs/formats/ragnarok.md adds the quadtree and the shared Y-down frame.
//! Where they differ or are silent:
//! - The header names at 1.4: roBrowser and korangar read ini, gnd, gat and (≥ 1.4) src; BrowEdit3 reads
//!   the gat name only above 1.4 (ini, gnd, src). relic reads four names at 1.4 and falls back to
//!   BrowEdit3's three when the file does not read that way or leaves bytes unread that three names
//!   read (`gat_file` then absent). Below 1.4 both
//!   read three names (relic calls the third the GAT, as roBrowser does).
//! - The byte after the version (≥ 2.2) and, in 2.6+, one byte in each model record: unknown meaning,
//!   kept. roBrowser, korangar, BrowEdit3 and GRF Editor read the model byte from build 186; RagLite from
//!   build 162, and its fixtures (`v0206-with-rsm2-flag.rsw` of build 162, `v0206-no-rsm2-flag.rsw` of
//!   build 161) agree with it. relic reads by RagLite's threshold and falls back to the other reading
//!   when the objects do not read that way (or leave bytes unread that the other reading reads).
//! - 2.7: a counted int32 list before the objects and an int32 in each model record (roBrowser,
//!   BrowEdit3, GRF Editor agree on the place; the meaning is unknown); no 2.7 file was at hand.
//! - Light colours: roBrowser reads three int32, korangar, BrowEdit3 and GRF Editor three floats; real
//!   files hold floats (1.0 = full), so relic reads floats.
//! - The quadtree is read when at least 1365 × 48 bytes remain (korangar reads exactly that, BrowEdit3
//!   reads floats to the end); any other bytes after the objects are kept as `trailing`.
//! - An object type other than 1 to 4 stops the reading (its size is unknown): refused.
//!
//! `relic convert x.rsw` writes the JSON document and, when the ground file is found, the map as one
//! glTF scene ([`scene`]).
//!
//! Typed access:
//!
//! ```
//! use relic::ragnarok::rsw::{Object, Rsw, Version};
//!
//! // A 1.2 map naming its files, water level 0, one model.
//! let name = |s: &str, len: usize| {
//!     let mut b = s.as_bytes().to_vec();
//!     b.resize(len, 0);
//!     b
//! };
//! let mut bytes = b"GRSW\x01\x02".to_vec();
//! for n in ["map.ini", "map.gnd", "map.gat"] {
//!     bytes.extend(name(n, 40));
//! }
//! bytes.extend(1u32.to_le_bytes()); // one object
//! bytes.extend(1u32.to_le_bytes()); // a model (no name or animation before 1.3)
//! bytes.extend(name("house.rsm", 80));
//! bytes.extend(name("", 80));
//! for v in [10.0f32, -5.0, 20.0, 0.0, 90.0, 0.0, 1.0, 1.0, 1.0] {
//!     bytes.extend(v.to_le_bytes());
//! }
//! let rsw = Rsw::read(&bytes)?;
//! assert_eq!(rsw.version, Version::new(1, 2));
//! assert_eq!(rsw.gnd_file.text, "map.gnd");
//! let Object::Model(m) = &rsw.objects[0] else { panic!() };
//! assert_eq!((m.file.text.as_str(), m.rotation), ("house.rsm", [0.0, 90.0, 0.0]));
//! assert_eq!(rsw.to_bytes()?, bytes);
//! # Ok::<(), relic::Error>(())
//! ```

pub mod read;
pub mod scene;
pub mod types;
pub mod write;

pub use read::parse;
pub use types::*;
pub use write::write;

use serde_json::json;

use crate::asset::{Asset, Document, NamedAsset};
use crate::error::Result;
use crate::registry::{
    Convert, ConvertInput, ConvertOptions, FileFormat, Format, FormatOption, Game, Kind, Magic, Probe, Typed,
};

pub const FORMAT_ID: &str = "ro-rsw";

impl Rsw {
    /// Parses an RSW file (see [`parse()`]).
    pub fn read(bytes: &[u8]) -> Result<Rsw> {
        parse(bytes)
    }

    /// The file's bytes (see [`write()`]): those read, when nothing was edited.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }
}

pub static FORMAT: Format = Format {
    extensions: &["rsw"],
    notes: "Versions 1.0 to 2.7 (layout from roBrowser, korangar, BrowEdit3, GRF Editor). At 1.4 four header \
            names are read (roBrowser, korangar), three when the file reads only so (BrowEdit3). 2.6+ model \
            records carry a byte from build 162 (RagLite; other loaders say 186: the other reading is tried when the objects do not read). \
            The 2.1+ quadtree (1365 × 48 bytes) and any trailing bytes are kept. JSON packs back byte for \
            byte. Converted with its .gnd (and .gat) beside it or in the same GRF: one glTF of the ground, \
            the water, every RSM model placed (models shared between placements; found in data\\model\\ \
            of the same GRF or client folder, then --models, then --textures), lights as \
            KHR_lights_punctual (photometric: the sun pi x 683 lux per unit of diffuse, points \
            268.2 cd x range squared), sounds and effects as empty nodes with extras; root nodes ground, water, \
            models, lights, sounds, effects. The walkability overlay only with --option \
            ro-rsw.walkability=scene (a root node walkability) or =file (its own walkability.glb).",
    probe: Probe { check: Some(|head| matches!(head, [_, _, _, _, major, minor, ..] if Version::new(*major, *minor).is_supported())), ..Probe::magic(&[Magic::prefix(b"GRSW")]) },
    options: &[FormatOption { key: scene::WALKABILITY_OPTION, values: &["off", "scene", "file"] }],
    document: Some(&Typed::<Rsw>::FACE),
    convert: Some(&RswConvert),
    ..Format::new(FORMAT_ID, "Ragnarok Online RSW map scene", Game::Ragnarok, Kind::Model)
};

impl FileFormat for Rsw {
    const ID: &'static str = FORMAT_ID;

    fn parse(bytes: &[u8]) -> Result<Self> {
        parse(bytes)
    }

    fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    fn info(&self, _bytes: &[u8]) -> Result<serde_json::Value> {
        Ok(info(self))
    }

    fn to_document(&self) -> Result<serde_json::Value> {
        crate::registry::tagged_document_json(FORMAT_ID, self)
    }

    fn from_document(value: serde_json::Value) -> Result<Self> {
        crate::registry::tagged_document_from_json(FORMAT_ID, value)
    }
}

struct RswConvert;

impl Convert for RswConvert {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        convert(input.data, input.path, input.options)
    }
}

/// `relic convert`: the JSON document beside the map's glTF scene (when its ground file is found).
fn convert(data: &[u8], path: Option<&std::path::Path>, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let rsw = parse(data)?;
    let value = crate::registry::tagged_document_json(FORMAT_ID, &rsw)?;
    let mut out = vec![NamedAsset {
        name: Some(NamedAsset::BESIDE.into()),
        asset: Asset::Document(Document { value, tables: vec![] }),
    }];
    if let Some(scenes) = scene::convert_map(&rsw, data.len() as u64, path, opts)? {
        out.push(NamedAsset { name: Some(NamedAsset::BESIDE.into()), asset: Asset::Scene(scenes.map) });
        if let Some(overlay) = scenes.walkability {
            out.push(NamedAsset { name: Some("walkability".into()), asset: Asset::Scene(overlay) });
        }
    }
    Ok(out)
}

/// Summary for `relic info`.
pub fn info(rsw: &Rsw) -> serde_json::Value {
    let count = |t: i32| rsw.objects.iter().filter(|o| o.type_id() == t).count();
    let mut files: Vec<&str> = rsw.models().map(|m| m.file.as_str()).collect();
    files.sort_unstable();
    files.dedup();
    json!({
        "format": FORMAT_ID,
        "version": rsw.version.to_string(),
        "build_number": rsw.build_number,
        "gnd_file": rsw.gnd_file.as_str(),
        "gat_file": rsw.gat_file.as_ref().map(|n| n.as_str()),
        "water_level": rsw.water.as_ref().and_then(|w| w.level),
        "models": count(1),
        "model_files": files.len(),
        "lights": count(2),
        "sounds": count(3),
        "effects": count(4),
        "quadtree": rsw.quadtree.is_some(),
        "trailing_bytes": rsw.trailing.0.len(),
    })
}
