//! `ei-mob`: reading never panics; whatever parses writes back byte for byte through its JSON (value and
//! text: the script deciphered and enciphered again), and converts to the JSON document and the script text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::mob;

fuzz_target!(|data: &[u8]| {
    relic_fuzz::check(&mob::FORMAT, "fuzz.mob", data);
});
