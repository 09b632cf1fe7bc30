//! ei-reg typed INI: arbitrary text never panics the INI reader; what it accepts packs, and the packed
//! file converts back to INI that reads as the same content.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::reg::{self, convert, ini};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(content) = ini::parse(text) else { return };
    let Ok(bytes) = reg::write_content(&content) else { return };
    let file = reg::parse(&bytes).expect("relic reads what it writes");
    let again = ini::parse(&convert::to_ini(&file)).expect("our INI parses");
    assert_eq!(reg::write_content(&again).expect("packs again"), bytes);
});
