//! Evil Islands: each format's own tests (the contract every format keeps is in `house/contract.rs`).

#[path = "../common/mod.rs"]
mod common;
/// The model files of the corpus's `auxData.res`.
mod corpus;
#[path = "../ei_map/fixtures.rs"]
mod ei_map_fixtures;

mod ei_adb;
mod ei_anm;
mod ei_bon;
mod ei_cam;
mod ei_db;
mod ei_db_friendly;
mod ei_fig;
mod ei_lnk;
mod ei_mmp;
mod ei_mob;
mod ei_model;
mod ei_mp;
mod ei_reg;
mod ei_res;
mod ei_sec;
