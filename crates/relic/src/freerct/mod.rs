//! FreeRCT. Spec: the FreeRCT RCD specification (Alberth, the version 1 era), with docs/formats/freerct.md
//! and FreeRCT's own `data_format.rst` for version 2.
//!
//! Each format's document type, by format id: `read(&bytes)` parses a file as the registry's codec does, and
//! `to_bytes()` writes it back (the same bytes when nothing was edited).
//!
//! | Format id | Document type | What `read` gives |
//! |---|---|---|
//! | `freerct-rcd` | [`rcd::Rcd`] | every block in file order, fields by name where relic knows the layout, else raw |

pub mod rcd;
