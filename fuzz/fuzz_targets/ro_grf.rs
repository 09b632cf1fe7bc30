//! `ro-grf`: parse; if it parses, inflate every entry (bounded), and the lossless document must rebuild the
//! input byte for byte.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::ragnarok::grf;

fuzz_target!(|data: &[u8]| {
    let Ok(archive) = grf::parse(data) else { return };
    for entry in grf::convert::entries(&archive) {
        let _ = entry.data.head(64);
        let _ = entry.data.bytes();
    }
    for i in 0..archive.len() {
        let _ = archive.find_ci(&archive.entries[i].name);
    }
    let doc = grf::convert::to_document(&archive);
    let rebuilt = grf::write_document(&doc).expect("a parsed GRF's document must write");
    assert_eq!(rebuilt, data, "document round trip differs");
});
