//! The CLI's own contract, run against the real `relic` binary: output shapes and exit codes, identification,
//! inputs, safety and reliability, in-place edits (and their races), sharded batches, and nothing lost on the
//! way through.
//! One binary: each module is a former test file.

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod cli_behaviour;
mod cli_output;
mod edit;
mod edit_race;
mod ei_reg_cam_adb;
mod identify_content;
mod inputs;
mod nothing_lost;
mod reliability;
mod ro_grf_cli;
mod shard;
