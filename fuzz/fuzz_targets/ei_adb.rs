//! `ei-adb`: reading never panics; whatever parses writes back byte for byte through its JSON (value and
//! text), and converts to a document exported as JSON and CSV.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::adb;

fuzz_target!(|data: &[u8]| {
    if relic_fuzz::check(&adb::FORMAT, "fuzz.adb", data) {
        let parsed = adb::parse(data).expect("parsed once");
        assert_eq!(adb::write(&parsed).expect("a parsed file writes"), data, "parse → write");
    }
});
