//! Fuzz target for Evil Islands MMP textures: parsing and decoding every level must never panic, and a
//! file that parses must come back byte for byte through its lossless document.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::mmp::{convert, decode_level, parse, write_document};

fuzz_target!(|data: &[u8]| {
    let Ok(mmp) = parse(data) else { return };
    for i in 0..mmp.levels.len() {
        let _ = decode_level(&mmp, i);
    }
    let doc = convert::to_document(&mmp);
    let again = write_document(&doc).expect("a parsed file's document must be writable");
    assert_eq!(again, data, "MMP document rebuild differs from the input");
});
