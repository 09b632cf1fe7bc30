//! Ragnarok Online layer orders (`ro-imf`, `.imf`): for each job and sex (`data\imf\<job>_<sex>.imf`), in
//! which order the client stacks a character's sprite layers, per action and frame of the job's ACT.
//! Layer 0 is the body, layer 1 the head: a head frame of priority 1 is drawn before (under) the body,
//! as when a character faces away and its hair hangs behind the collar.
//!
//! Layout, from the public loaders, which agree on it: zrenderer (`source/resource/imf.d`, and
//! `source/sprite.d` for what layer 1 means), GRF Editor's `GRF.FileFormats.ImfFormat` (reader and writer),
//! a Rust reader of ragnarok-rebuild (`imf` crate) and a Lua decoder (`RagnarokIMF`):
//! - the version as an `f32`: 1.01 (`AE 47 81 3F`) in every file they know. GRF Editor takes the four bytes
//!   as the magic, the Rust and Lua readers refuse any other version, zrenderer reads any;
//! - a `u32` all call the checksum; none checks it, GRF Editor writes 0;
//! - the index of the last layer (`u32`): a file holds one layer more than it says;
//! - per layer a `u32` action count, per action a `u32` frame count, per frame three `i32`: the priority
//!   and two coordinates (zrenderer's `cx`/`cy`, GRF Editor's `X`/`Y`) that no loader uses.
//!
//! Uncertain, and kept as stored so that a file writes back byte for byte:
//! - what the coordinates mean (all loaders skip them), and what priorities other than 0 and 1 or layers
//!   past the head do: relic reads them as numbers and names only layers 0 and 1;
//! - versions other than 1.01: read with the same layout (no source knows another), `info` says the
//!   version is unknown; identification ([`FORMAT`]'s probe) takes the 1.01 bytes only;
//! - bytes after the last frame: the Rust and Lua readers refuse them, zrenderer and GRF Editor ignore them;
//!   relic keeps them (`trailing`);
//! - GRF Editor's writer always stores 1 as the last layer index (two layers), whatever its document
//!   holds; relic stores the document's own count.
//!
//! `relic convert x.imf` writes `x.imf.json`: the version, the checksum, every frame's priority, `x` and
//! `y` as `layers[layer][action][frame]`, and the derived `priorities` grid (per layer its name and
//! `actions[action][frame]` → priority), which packing ignores; `relic pack ro-imf x.imf.json` writes the
//! file back byte for byte.
//!
//! Typed access:
//!
//! ```
//! use relic::ragnarok::imf::{Frame, Imf, VERSION_1_01};
//!
//! // Version 1.01, checksum 0, last layer 1 (two layers), one action of one frame each.
//! let mut bytes = vec![0xAE, 0x47, 0x81, 0x3F, 0, 0, 0, 0, 1, 0, 0, 0];
//! for priority in [0i32, 1] {
//!     bytes.extend(1u32.to_le_bytes()); // actions
//!     bytes.extend(1u32.to_le_bytes()); // frames
//!     for v in [priority, 0, 0] {
//!         bytes.extend(v.to_le_bytes());
//!     }
//! }
//! let imf = Imf::read(&bytes)?;
//! assert_eq!(imf.version, VERSION_1_01);
//! assert_eq!(imf.priority(1, 0, 0), Some(1)); // the head under the body
//! assert_eq!(imf.layers[0][0][0], Frame { priority: 0, x: 0, y: 0 });
//! assert_eq!(imf.to_bytes()?, bytes);
//! # Ok::<(), relic::Error>(())
//! ```

pub mod convert;
pub mod read;
pub mod types;
pub mod write;

pub use read::parse;
pub use types::*;
pub use write::write;

use crate::asset::NamedAsset;
use crate::error::Result;
use crate::registry::{Convert, ConvertInput, FileFormat, Format, Game, Kind, Magic, Probe, Typed};

pub const FORMAT_ID: &str = "ro-imf";

impl Imf {
    /// Parses an IMF file (see [`parse()`]).
    pub fn read(bytes: &[u8]) -> Result<Imf> {
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
    extensions: &["imf"],
    notes: "version 1.01 (f32): per layer (0 body, 1 head), action and frame a priority (i32; head 1 = drawn \
            under the body) and two coordinates no loader uses. convert: the JSON with a layers × actions × \
            frames priority grid; pack takes the JSON, byte for byte.",
    // Only the 1.01 bytes identify a file: no loader knows another version (see the module's notes).
    probe: Probe::magic(&[Magic::prefix(&MAGIC)]),
    document: Some(&Typed::<Imf>::FACE),
    convert: Some(&ImfFaces),
    ..Format::new(FORMAT_ID, "Ragnarok Online IMF layer order", Game::Ragnarok, Kind::Document)
};

struct ImfFaces;

impl FileFormat for Imf {
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

impl Convert for ImfFaces {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        convert::convert(input.data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    fn frame(priority: i32, x: i32, y: i32) -> Frame {
        Frame { priority, x, y }
    }

    /// Version 1.01, checksum 7, two layers: the body with two actions (2 frames, 0 frames), the head with
    /// one action of one frame (priority 1, x -3, y 5); then two trailing bytes.
    fn sample() -> Vec<u8> {
        let mut out = vec![0xAE, 0x47, 0x81, 0x3F];
        out.extend(7u32.to_le_bytes());
        out.extend(1u32.to_le_bytes());
        out.extend(2u32.to_le_bytes());
        out.extend(2u32.to_le_bytes());
        for v in [0i32, 0, 0, 2, 10, -10] {
            out.extend(v.to_le_bytes());
        }
        out.extend(0u32.to_le_bytes());
        out.extend(1u32.to_le_bytes());
        out.extend(1u32.to_le_bytes());
        for v in [1i32, -3, 5] {
            out.extend(v.to_le_bytes());
        }
        out.extend([0xEE, 0xFF]);
        out
    }

    #[test]
    fn reads_every_field_and_writes_the_same_bytes() {
        let bytes = sample();
        let imf = Imf::read(&bytes).unwrap();
        assert_eq!(imf.version, VERSION_1_01);
        assert!(imf.is_known_version());
        assert_eq!(imf.checksum, 7);
        assert_eq!(
            imf.layers,
            vec![vec![vec![frame(0, 0, 0), frame(2, 10, -10)], vec![]], vec![vec![frame(1, -3, 5)]]]
        );
        assert_eq!(imf.trailing.0, [0xEE, 0xFF]);
        assert_eq!(imf.priority(0, 0, 1), Some(2));
        assert_eq!(imf.priority(1, 0, 0), Some(1));
        assert_eq!(imf.priority(0, 1, 0), None);
        assert_eq!(imf.priority(2, 0, 0), None);
        assert_eq!(imf.to_bytes().unwrap(), bytes);
    }

    #[test]
    fn the_json_document_packs_back_and_its_priority_grid_is_derived() {
        let bytes = sample();
        let value = FORMAT.to_json(&bytes).unwrap();
        assert_eq!(value["format"], "ro-imf");
        assert_eq!(value["version"], serde_json::json!(1.01));
        assert_eq!(value["checksum"], 7);
        assert_eq!(value["layers"][1][0][0], serde_json::json!({"priority": 1, "x": -3, "y": 5}));
        assert_eq!(value["trailing"], "7v8=");
        assert_eq!(
            value["priorities"],
            serde_json::json!([
                {"layer": 0, "name": "body", "actions": [[0, 2], []]},
                {"layer": 1, "name": "head", "actions": [[1]]},
            ])
        );
        let text = serde_json::to_string(&value).unwrap();
        assert_eq!(FORMAT.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap(), bytes);
        // An edited grid changes nothing: `layers` is the document.
        let mut edited = value.clone();
        edited["priorities"][1]["actions"][0][0] = serde_json::json!(9);
        assert_eq!(FORMAT.from_json(edited, &Default::default()).unwrap(), bytes);
        let mut edited = value;
        edited["layers"][1][0][0]["priority"] = serde_json::json!(0);
        assert_eq!(
            Imf::read(&FORMAT.from_json(edited, &Default::default()).unwrap()).unwrap().priority(1, 0, 0),
            Some(0)
        );
    }

    #[test]
    fn info_counts_layers_actions_frames_and_the_head_under_the_body() {
        let info = FORMAT.info(&sample()).unwrap();
        assert_eq!(
            info,
            serde_json::json!({
                "format": "ro-imf",
                "version": "1.01",
                "known_version": true,
                "checksum": 7,
                "layers": [
                    {"layer": 0, "name": "body", "actions": 2, "frames": 2},
                    {"layer": 1, "name": "head", "actions": 1, "frames": 1},
                ],
                "head_under_body_frames": 1,
                "trailing_bytes": 2,
            })
        );
    }

    #[test]
    fn converts_to_its_document() {
        let assets = FORMAT.convert(&ConvertInput::new(&sample(), &Default::default())).unwrap();
        assert_eq!(assets.len(), 1);
        let crate::asset::Asset::Document(doc) = &assets[0].asset else { panic!("not a document") };
        assert_eq!(doc.value, FORMAT.to_json(&sample()).unwrap());
        assert!(doc.tables.is_empty());
    }

    #[test]
    fn every_truncation_is_an_error_inside_the_file() {
        let bytes = sample();
        // Cut before the trailing bytes: every shorter file misses a field.
        for len in 0..bytes.len() - 2 {
            let err = parse(&bytes[..len]).unwrap_err();
            let at = err.location().unwrap_or_else(|| panic!("{len}: {err} has no location"));
            assert_eq!(at.format, FORMAT_ID);
            assert!(at.offset <= len as u64, "{len}: {err}");
        }
        assert_eq!(parse(&bytes[..bytes.len() - 2]).unwrap().trailing.0, Vec::<u8>::new());
    }

    #[test]
    fn hostile_counts_are_refused_before_allocating() {
        // The last layer u32::MAX: 2^32 layers of at least 4 bytes in 0 bytes.
        let mut bytes = MAGIC.to_vec();
        bytes.extend(0u32.to_le_bytes());
        bytes.extend(u32::MAX.to_le_bytes());
        let err = parse(&bytes).unwrap_err();
        assert!(matches!(err, Error::Limit { .. }), "{err}");
        assert_eq!(err.location().unwrap().field, "last_layer");
        assert_eq!(err.location().unwrap().offset, 12);
        // One layer of 1000 actions in 8 bytes; one action of u32::MAX frames.
        let mut bytes = MAGIC.to_vec();
        bytes.extend([0; 8]);
        bytes.extend(1000u32.to_le_bytes());
        bytes.extend([0; 8]);
        assert_eq!(parse(&bytes).unwrap_err().location().unwrap().field, "layers[0].action_count");
        let mut bytes = MAGIC.to_vec();
        bytes.extend([0; 8]);
        bytes.extend(1u32.to_le_bytes());
        bytes.extend(u32::MAX.to_le_bytes());
        let err = parse(&bytes).unwrap_err();
        assert_eq!(err.location().unwrap().field, "layers[0][0].frame_count");
        assert_eq!(err.location().unwrap().offset, 20);
    }

    #[test]
    fn another_version_reads_with_the_same_layout_and_is_not_sniffed() {
        let mut bytes = sample();
        bytes[..4].copy_from_slice(&2.0f32.to_le_bytes());
        let imf = parse(&bytes).unwrap();
        assert!(!imf.is_known_version());
        assert_eq!(FORMAT.info(&bytes).unwrap()["version"], "2.0");
        assert_eq!(imf.to_bytes().unwrap(), bytes);
        assert!(!FORMAT.sniff(&bytes));
        assert!(FORMAT.sniff(&sample()));
    }

    #[test]
    fn the_writer_refuses_a_document_without_layers() {
        let imf = Imf { version: VERSION_1_01, checksum: 0, layers: vec![], trailing: Default::default() };
        let err = imf.to_bytes().unwrap_err();
        assert_eq!(err.to_string(), "ro-imf: layers: an IMF has at least one layer");
        let value = serde_json::json!({"format": "ro-imf", "version": 1.01, "checksum": 0, "layers": []});
        assert!(FORMAT.from_json(value, &Default::default()).is_err());
        let value =
            serde_json::json!({"format": "ro-imf", "version": 1.01, "checksum": 0, "layers": [[[{"priority": 1}]]]});
        let err = FORMAT.from_json(value, &Default::default()).unwrap_err().to_string();
        assert!(err.contains("layers[0][0][0]"), "{err}");
    }

    /// The sample `make_samples` writes (`samples/ragnarok/novice_m.imf`): the body and head over one
    /// action group (8 directions) of two frames, the head under the body in the directions facing away
    /// (3, 4, 5).
    fn novice_sample() -> Vec<u8> {
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/ragnarok/novice_m.imf")).expect("the sample")
    }

    #[test]
    fn the_novice_sample_reads_with_the_head_under_the_body_facing_away() {
        let bytes = novice_sample();
        assert_eq!(bytes.len(), 12 + 2 * 4 + 16 * 4 + 32 * 12);
        assert!(FORMAT.sniff(&bytes));
        let info = FORMAT.info(&bytes).unwrap();
        assert_eq!(info["head_under_body_frames"], 6);
        assert_eq!(info["layers"][1], serde_json::json!({"layer": 1, "name": "head", "actions": 8, "frames": 16}));
    }
}
