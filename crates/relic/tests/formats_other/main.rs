//! Drakan, Dark Reign and FreeRCT: each format's own tests (the contract every format keeps is in
//! `house/contract.rs`).

#[path = "../common/mod.rs"]
mod common;
#[path = "../srsc_fixtures/mod.rs"]
mod srsc_fixtures;

mod dr_ftg;
mod dr_spr;
mod drakan_db;
mod drakan_level;
mod drakan_models;
mod drakan_records;
mod drakan_srsc;
mod freerct_corpus;
mod freerct_fixtures;
mod freerct_rcd;
mod freerct_v2_blocks;
