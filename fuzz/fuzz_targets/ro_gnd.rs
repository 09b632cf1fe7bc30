//! `ro-gnd`: reading never panics; a GND that parses writes back byte for byte through its JSON (value and
//! text), and its ground scene (with water) builds without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::ragnarok::gnd::{self, ground_scene, Gnd, GroundOptions};

fuzz_target!(|data: &[u8]| {
    if !relic_fuzz::check(&gnd::FORMAT, "fuzz.gnd", data) {
        return;
    }
    let parsed = Gnd::read(data).expect("parsed once");
    assert_eq!(parsed.to_bytes().expect("a parsed file writes"), data, "read → write");
    let scene = ground_scene(&parsed, None, &GroundOptions::default()).expect("a parsed ground builds");
    assert!(!scene.roots.is_empty());
});
