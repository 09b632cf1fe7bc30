//! glTF both ways: export of every model format, import into each game's models, hostile glTF files.

#[path = "../common/mod.rs"]
mod common;
#[path = "../srsc_fixtures/mod.rs"]
mod srsc_fixtures;

mod gltf_export;
mod gltf_hostile;
mod gltf_import;
mod gltf_to_drakan;
mod gltf_to_ei;
mod gltf_to_rsm;
