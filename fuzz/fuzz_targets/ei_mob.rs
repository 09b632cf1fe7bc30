//! `ei-mob`: any input must parse or fail cleanly; one that parses is lossless (JSON back to the same bytes).
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::mob;

fuzz_target!(|data: &[u8]| {
    if mob::parse(data).is_ok() {
        let json = mob::FORMAT.codec.to_json(data).expect("a parsed file converts to JSON");
        let back = mob::FORMAT.codec.write_json(json).expect("its JSON writes back");
        assert_eq!(back, data, "MOB → JSON → MOB must be byte-identical");
    }
});
