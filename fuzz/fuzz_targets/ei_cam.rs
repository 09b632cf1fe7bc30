//! ei-cam: whatever parses must write back byte-identically, through its JSON in both time readings.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::cam::{self, CamDocument, TimeReading};

fuzz_target!(|data: &[u8]| {
    let Ok(file) = cam::parse(data) else { return };
    for reading in [TimeReading::U32, TimeReading::F32] {
        let json = serde_json::to_value(CamDocument::new(&file, reading)).expect("JSON");
        let back = cam::FORMAT.codec.write_json(json).expect("write_json of our own JSON");
        assert_eq!(back, data);
    }
});
