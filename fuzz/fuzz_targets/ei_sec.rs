//! `ei-sec` (map sector): reading never panics; whatever parses writes back byte for byte through its JSON
//! (value and text) and through the writer directly, and converts to a one-sector terrain scene exported as
//! `.glb` and `.gltf`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::sec;

fuzz_target!(|data: &[u8]| {
    if relic_fuzz::check(&sec::FORMAT, "fuzz.sec", data) {
        let parsed = sec::parse(data).expect("parsed once");
        assert_eq!(sec::write(&parsed).expect("a parsed file writes"), data, "parse → write");
    }
});
