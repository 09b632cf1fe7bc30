//! relic opens the asset files of classic games, converts them to open formats (PNG, WAV, glTF, JSON) and
//! writes back the ones modders edit.
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
pub use registry::{Format, FORMATS};
