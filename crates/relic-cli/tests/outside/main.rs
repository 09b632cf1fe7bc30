//! relic driven by the programs outside it: headless Chromium over `relic view` and over the static site, and
//! Blender over the add-on. Where a tool is missing a test says so and skips; under CI (`CI` set) it fails.
//! One binary: each module is a former test file.

#[path = "../common/mod.rs"]
mod common;

mod blender_addon;
mod browser;
mod view_e2e;
mod web_e2e;
