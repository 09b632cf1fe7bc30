//! Riot Engine / Drakan: Order of the Flame. Spec: the Drakan SRSC specification ("Riot Engine database file format"),
//! with the Drakan part of relic's corrections to the specs.
//!
//! - `records/`: the record bodies of SRSC files (textures, palettes, sounds, strings, classes, sequences,
//!   models, animations, level records): one module each, plain data types and a parser over the body.
//! - `srsc/` (`drakan-srsc`): the SRSC container (header, 14-byte directory, bodies), read, written back byte
//!   for byte, listed, extracted and converted through the record modules.
//! - `scene/`: models, characters with their animations, and level layers as glTF scenes (through the
//!   record modules), with the textures they reference.
//! - `db/` (`drakan-db`): the `.db` database definition (text) and reference resolution across databases.
//!
//! Each format's document type, by format id: `read(&bytes)` parses a file as the registry's codec does, and
//! `to_bytes()` writes it back (the same bytes when nothing was edited).
//!
//! | Format id | Document type | What `read` gives |
//! |---|---|---|
//! | `drakan-srsc` | [`srsc::Srsc`] (owned: [`srsc::SrscDocument`]) | the header and directory, record bodies borrowed (decoded by [`records`]) |
//! | `drakan-db` | [`db::DbDocument`] (parsed only: [`db::DbFile`]) | the version and dependencies, and the text |

pub mod db;
pub mod records;
pub mod scene;
pub mod srsc;
