//! `ro-grf`: reading never panics; every entry of an archive that parses inflates (bounded) or fails
//! cleanly, case-insensitive lookups find every name, and the archive writes back byte for byte from its
//! document and through its JSON (value and text).
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::ragnarok::grf;

fuzz_target!(|data: &[u8]| {
    if !relic_fuzz::check(&grf::FORMAT, "fuzz.grf", data) {
        return;
    }
    let archive = grf::parse(data).expect("parsed once");
    for entry in &archive.entries {
        let _ = archive.find_ci(&entry.name);
    }
    let rebuilt = grf::write_document(&grf::convert::to_document(&archive)).expect("the document writes");
    assert!(rebuilt == data, "document round trip differs");
});
