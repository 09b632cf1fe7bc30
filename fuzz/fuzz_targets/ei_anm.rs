//! `ei-anm` (one part's animation): reading never panics; whatever parses writes back byte for byte through its JSON
//! (value and text) and through the writer directly.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::anm;

fuzz_target!(|data: &[u8]| {
    if relic_fuzz::check(&anm::FORMAT, "fuzz.anm", data) {
        let parsed = anm::parse(data).expect("parsed once");
        assert_eq!(anm::write(&parsed).expect("a parsed file writes"), data, "parse → write");
    }
});
