//! `drakan-srsc`: reading never panics; whatever parses writes back byte for byte through its JSON (value
//! and text), every record body decodes or fails cleanly and what decodes encodes back to the same bytes,
//! the strings a translator edits apply and write, and the file converts (textures, sounds, records).
#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target};
use relic::drakan::{records, srsc};

fuzz_target!(|data: &[u8]| {
    if !relic_fuzz::check(&srsc::FORMAT, "fuzz.txd", data) {
        return;
    }
    let file = srsc::parse(data).expect("parsed once");
    for i in 0..file.entries.len() {
        let e = file.entries[i];
        if let Ok(Some(decoded)) = records::decode(e.record_type, file.body(i), file.body_offset(i)) {
            assert!(records::encode(&decoded) == file.body(i), "record 0x{:04X} encodes differently", e.record_type);
        }
    }
    let mut doc = srsc::convert::to_document(&file);
    let strings = srsc::convert::strings_map(&doc);
    srsc::convert::apply_strings(&mut doc, &strings).expect("its own strings apply");
    assert!(srsc::write_document(&doc).expect("writes") == data, "unchanged strings change the file");
});

// Structure moves on the drakan_srsc input (see `relic_fuzz::mutate::srsc`), else libFuzzer's byte mutation.
fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    relic_fuzz::mutate::run(data, size, max_size, seed, relic_fuzz::mutate::srsc)
});
