//! `ei-cam`: reading never panics; whatever parses writes back byte for byte through its JSON in both time
//! readings (u32, f32), and converts (both readings) to a document exported as JSON and CSV.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::cam::{self, CamDocument, TimeReading};
use relic::registry::ConvertOptions;

fuzz_target!(|data: &[u8]| {
    if !relic_fuzz::check(&cam::FORMAT, "fuzz.cam", data) {
        return;
    }
    let file = cam::parse(data).expect("parsed once");
    for reading in [TimeReading::U32, TimeReading::F32] {
        let json = serde_json::to_string(&CamDocument::new(&file, reading)).expect("JSON");
        let value = serde_json::from_str(&json).expect("JSON reads back");
        let back = cam::FORMAT.from_json(value, &Default::default()).expect("write_json of our own JSON");
        assert_eq!(back, data, "CAM → JSON ({reading:?}) → CAM");
    }
    let opts = ConvertOptions { settings: vec![("ei-cam.time".into(), "f32".into())], ..Default::default() };
    relic_fuzz::convert_and_export_with(&cam::FORMAT, "fuzz.cam", data, &opts);
});
