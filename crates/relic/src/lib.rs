//! relic opens the asset files of classic games, converts them to open formats (PNG, WAV, glTF, JSON) and
//! writes back the ones modders edit.
//!
//! # Start here
//!
//! [`open`] a file (or [`GameFile::from_bytes`]), and each common task is one call on the [`GameFile`] it
//! gives: its format, [`info`](GameFile::info), its lossless JSON document ([`to_json`](GameFile::to_json),
//! written back by [`write_json`]), an archive's [`entries`](GameFile::entries) and
//! [`open_entry`](GameFile::open_entry), and conversion to [`to_png`](GameFile::to_png),
//! [`to_wav`](GameFile::to_wav), [`to_glb`](GameFile::to_glb) or every output `relic convert` makes
//! ([`export`](GameFile::export), [`export_to`](GameFile::export_to)). This program lists a Ragnarok archive
//! and writes one of its textures as a PNG:
//!
//! ```
//! fn main() -> relic::Result<()> {
//!     let grf = relic::open("../../samples/ragnarok/example.grf")?;
//!     for entry in grf.entries()? {
//!         println!("{:>8}  {}", entry.size, entry.name);
//!     }
//!     let texture = grf.open_entry("data\\texture\\유저인터페이스\\sample.bmp")?;
//!     std::fs::write(std::env::temp_dir().join("sample.png"), texture.to_png()?)?;
//!     Ok(())
//! }
//! ```
//!
//! (The path is relative to this crate's folder, where doc-tests run; `examples/first_texture.rs` is the
//! same program run from the repository root.) Each format's own document is there too for those who want
//! types rather than JSON (`relic::ragnarok::rsm::Rsm::read(&bytes)`: see each game's module for the table
//! of formats and types), and the layers below stay open: the [`registry`] of formats and their codecs, the
//! [`asset`] model, the [`export`]ers and the batch [`ops`] the CLI runs.
//!
//! The house: game folders hold the formats, each with types, a reader, a writer and a conversion to the common
//! [`asset`] model; [`codec`] and [`export`] hold what formats share; the [`registry`] lists every format; [`ops`]
//! holds the batch operations the CLI calls.
//!
//! The format modules cite the reverse-engineered specifications they follow by name and section (the Drakan
//! SRSC specification, the Evil Islands specification, …) and relic's format notes (`docs/formats/`), which say where those
//! specifications are wrong, checked against public implementations and real files. The specifications are not
//! part of this repository, the notes are; where a module's docs and a specification disagree, the module's docs
//! say what relic does.
//!
//! # Features
//!
//! The parsers, writers, [`registry`] and [`asset`] model need none; the CLI enables all of these, which
//! are the default. An engine that only reads and writes the games' files depends on
//! `relic = { version = "0.1", default-features = false }`.
//!
//! - `parallel`: work across files, entries and frames runs on every core (rayon); without it the same
//!   work runs in turn, with the same results.
//! - `export`: the encoders and decoders of open formats: PNG, WAV, glTF and CSV output
//!   ([`export`]'s `png`, `wav`, `gltf`), packing images from PNG, BMP/TGA textures. Without it those
//!   conversions return [`Error::Unsupported`] naming the feature; JSON, text and the asset model remain.
//! - `fs`: `ops`, the batch operations that write files (extract, convert, pack, edit, check), and the
//!   atomic, link-refusing writers of [`paths`].
//! - `view`: `view`, the local browser viewer; implies the three above.
//! - `testing`: test helpers shared by relic's own tests; not part of the API.
//!
//! On [`GameFile`], `to_png`, `to_wav` and `to_glb` need `export`, `export_to` needs `fs`; everything else
//! (identify, info, JSON documents, entries, conversion to the asset model, `export` to JSON and text) is in
//! every build.
//!
//! Every build reads files: [`source`] maps them into memory, and [`paths`] opens the files a folder pack
//! or a JSON document names without following links (on Linux through `openat` with the `fs` feature,
//! else by comparing the file opened with the one checked).
// Unsafe code is denied everywhere; the one exception is opening a memory map in `source`.
#![deny(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod asset;
pub mod bytes;
pub mod codec;
pub mod convert_options;
pub mod error;
pub mod export;
pub mod game_file;
pub mod import;
pub mod layout;
pub mod limits;
#[cfg(feature = "fs")]
#[cfg_attr(docsrs, doc(cfg(feature = "fs")))]
pub mod ops;
mod parallel;
pub mod paths;
pub mod reader;
pub mod record;
pub mod registry;
pub mod source;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing;
#[cfg(feature = "view-core")]
#[cfg_attr(docsrs, doc(cfg(feature = "view-core")))]
pub mod view;
pub mod writer;

pub mod dark_reign;
pub mod drakan;
pub mod evil_islands;
pub mod freerct;
pub mod ragnarok;

pub use error::{Error, Result};
pub use game_file::{identify, open, write_json, GameFile};
pub use registry::{Format, FORMATS};

// The crate README's example, compiled with the doc-tests so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
