//! `ei-lnk` (bone hierarchy): reading never panics; whatever parses writes back byte for byte through its JSON
//! (value and text) and through the writer directly.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::lnk;

fuzz_target!(|data: &[u8]| {
    if relic_fuzz::check(&lnk::FORMAT, "fuzz.lnk", data) {
        let parsed = lnk::parse(data).expect("parsed once");
        assert_eq!(lnk::write(&parsed).expect("a parsed file writes"), data, "parse → write");
    }
});
