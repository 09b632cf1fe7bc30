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
//! (The path is relative to this crate's folder, where doc-tests run; `examples/first_texture.rs` is the same
//! program run from the repository root.) Each format's own document is there too for those who want types rather than JSON (see each
//! game's module), and the layers below stay open: the [`registry`] of formats and their codecs, the
//! [`asset`] model, the [`export`]ers and the batch [`ops`] the CLI runs.
//!
//! The house: game folders hold the formats, each with types, a reader, a writer and a conversion to the common
//! [`asset`] model; [`codec`] and [`export`] hold what formats share; the [`registry`] lists every format; [`ops`]
//! holds the batch operations the CLI calls.
//!
//! The format modules cite the reverse-engineered specifications they follow by name and section (the Drakan
//! SRSC specification, the Evil Islands specification, …) and `CORRECTIONS.md`, relic's notes of where those
//! specifications are wrong, checked against public implementations and real files. Neither is part of this
//! repository; where a module's docs and a specification disagree, the module's docs say what relic does.
// Unsafe code is denied everywhere; the one exception is opening a memory map in `source`.
#![deny(unsafe_code)]

pub mod asset;
pub mod bytes;
pub mod codec;
pub mod error;
pub mod export;
pub mod game_file;
pub mod layout;
pub mod limits;
pub mod ops;
pub mod paths;
pub mod reader;
pub mod registry;
pub mod source;
pub mod testing;
#[cfg(feature = "view")]
pub mod view;

pub mod dark_reign;
pub mod drakan;
pub mod evil_islands;
pub mod freerct;
pub mod ragnarok;

pub use error::{Error, Result};
pub use game_file::{identify, open, write_json, GameFile};
pub use registry::{Format, FORMATS};
