//! The house: every registered format's contract, the samples, identification, the typed API, the README's
//! claims, the examples, the minimal build, round trips of every file, and the sweep of every sample and
//! corpus file. `sweep`'s per-thread counting allocator is this binary's global allocator (it counts, and
//! changes nothing else), and its panic hook passes other threads' panics on.

#[path = "../common/mod.rs"]
mod common;
#[path = "../ei_map/fixtures.rs"]
mod ei_map_fixtures;
#[path = "../srsc_fixtures/mod.rs"]
mod srsc_fixtures;

mod contract;
mod examples_run;
mod formats_truth;
mod front_door;
mod identify;
mod minimal_build;
mod no_outside_citations;
mod readme_claims;
mod roundtrip_files;
mod roundtrip_props;
mod roundtrip_props_records;
mod samples;
mod sweep;
mod typed_access;
