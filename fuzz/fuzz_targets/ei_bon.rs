//! `ei-bon` (one part's bone offsets): reading never panics; whatever parses writes back byte for byte through its JSON
//! (value and text) and through the writer directly.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::bon;

fuzz_target!(|data: &[u8]| {
    if relic_fuzz::check(&bon::FORMAT, "fuzz.bon", data) {
        let parsed = bon::parse(data).expect("parsed once");
        assert_eq!(bon::write(&parsed).expect("a parsed file writes"), data, "parse → write");
    }
});
