//! Ragnarok Online: each format's own tests (the contract every format keeps is in `house/contract.rs`).

#[path = "../common/mod.rs"]
mod common;
#[path = "../glb_read/mod.rs"]
mod glb_read;

mod ro_act;
mod ro_gat;
mod ro_gnd;
mod ro_grf;
mod ro_grf_event_horizon;
mod ro_grf_versions;
mod ro_pal;
mod ro_rsm;
mod ro_rsm_gltf;
mod ro_rsm_random;
mod ro_rsm_upright;
mod ro_rsw;
mod ro_spr;
mod ro_table;
mod ro_textures;
