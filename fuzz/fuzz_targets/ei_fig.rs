//! `ei-fig` (mesh with morph extremes): reading never panics; whatever parses writes back byte for byte through its JSON
//! (value and text) and through the writer directly.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::fig;

fuzz_target!(|data: &[u8]| {
    if relic_fuzz::check(&fig::FORMAT, "fuzz.fig", data) {
        let parsed = fig::parse(data).expect("parsed once");
        assert_eq!(fig::write(&parsed).expect("a parsed file writes"), data, "parse → write");
    }
});
