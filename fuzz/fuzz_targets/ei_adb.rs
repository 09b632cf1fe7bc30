//! ei-adb: whatever parses must write back byte-identically through its JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::adb;

fuzz_target!(|data: &[u8]| {
    if adb::parse(data).is_err() {
        return;
    }
    let json = adb::FORMAT.codec.to_json(data).expect("to_json of a parsed file");
    let back = adb::FORMAT.codec.write_json(json).expect("write_json of our own JSON");
    assert_eq!(back, data);
});
