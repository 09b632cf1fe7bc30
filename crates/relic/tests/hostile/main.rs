//! Hostile inputs under a measured heap and process-wide limits. The counting allocator is this binary's
//! global allocator and its counter is one for the process, so every test here holds `counting::serial()`
//! while it measures or changes `relic::limits`: a test that does neither belongs in another binary.

#[path = "../common/mod.rs"]
mod common;
mod counting;
#[path = "../ei_map/fixtures.rs"]
mod ei_map_fixtures;
#[path = "../srsc_fixtures/mod.rs"]
mod srsc_fixtures;

mod dr_hostile;
mod drakan_one_character;
mod drakan_shared_bodies;
mod ei_hostile;
mod inputs;
mod limits;
