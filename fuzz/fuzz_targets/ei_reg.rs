//! `ei-reg`: reading never panics; whatever parses writes back byte for byte through its JSON (value and
//! text), converts to typed INI, and that INI reads and packs (byte for byte when the file is laid out as
//! relic lays files out).
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::reg::{self, convert, ini};

fuzz_target!(|data: &[u8]| {
    if !relic_fuzz::check(&reg::FORMAT, "fuzz.reg", data) {
        return;
    }
    let file = reg::parse(data).expect("parsed once");
    let (_, layout) = convert::to_content(&file);
    let text = convert::to_ini(&file);
    let content = ini::parse(&text).unwrap_or_else(|e| panic!("our INI does not read back: {e}"));
    let packed = reg::write_content(&content).unwrap_or_else(|e| panic!("our INI does not pack: {e}"));
    if layout != convert::Layout::Other {
        assert_eq!(packed, data, "REG → INI → REG");
    }
    // The packed file reads back to the same INI.
    let again = reg::parse(&packed).unwrap_or_else(|e| panic!("relic does not read what it wrote: {e}"));
    let again_ini = convert::to_ini(&again);
    let again_content = ini::parse(&again_ini).expect("our INI reads back");
    assert_eq!(reg::write_content(&again_content).expect("packs again"), packed, "INI → REG → INI → REG");
});
