//! `ei-mmp`: reading and decoding every level never panics; whatever parses writes back byte for byte
//! through its JSON (value and text) and its document, and converts to PNG (top level, and every level
//! with `--mips`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::mmp::{self, convert, decode_level, parse, write_document};

fuzz_target!(|data: &[u8]| {
    if !relic_fuzz::check(&mmp::FORMAT, "fuzz.mmp", data) {
        return;
    }
    let file = parse(data).expect("parsed once");
    for i in 0..file.levels.len() {
        let _ = decode_level(&file, i);
    }
    let again = write_document(&convert::to_document(&file)).expect("a parsed file's document writes");
    assert_eq!(again, data, "MMP document rebuild differs from the input");
});
