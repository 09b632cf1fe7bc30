//! ei-reg: whatever parses must write back byte-identically through its JSON, and its INI must parse;
//! when the file is laid out as relic lays files out, the INI must pack back to the same bytes too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::reg::{self, convert, ini};

fuzz_target!(|data: &[u8]| {
    let Ok(file) = reg::parse(data) else { return };
    let json = reg::FORMAT.codec.to_json(data).expect("to_json of a parsed file");
    let back = reg::FORMAT.codec.write_json(json).expect("write_json of our own JSON");
    assert_eq!(back, data, "REG → JSON → REG");
    let (_, layout) = convert::to_content(&file);
    let text = convert::to_ini(&file);
    let content = ini::parse(&text).expect("our INI parses");
    let packed = reg::write_content(&content).expect("our INI packs");
    if layout != convert::Layout::Other {
        assert_eq!(packed, data, "REG → INI → REG");
    }
});
