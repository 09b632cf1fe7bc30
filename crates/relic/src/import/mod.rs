//! Open formats read back into the shared asset model, so that `relic pack` makes game files of them: glTF
//! scenes for the games' models (`relic pack ei-res model.glb`, `relic pack ro-rsm model.glb`, …).

pub mod cost;
mod document;
mod finite;
pub mod gltf;
