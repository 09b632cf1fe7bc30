//! What reaches the disk and the network: archive edits, extraction under link races, listings, sliced
//! reading of large archives, the viewer, the hostile fixtures of `bad/` and `regression/`.

#[path = "../common/mod.rs"]
mod common;

mod archive_edit;
mod convert_robustness;
mod fixtures;
mod grf_sliced;
mod link_race;
mod listing;
mod view_bundle;
#[cfg(feature = "view")]
mod view_http;
mod view_lookup;
#[cfg(feature = "view")]
mod view_offline;
mod view_root;
