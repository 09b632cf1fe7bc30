//! Fuzz target for `ei-db`: whatever parses must give its info and tables, and write back byte for byte,
//! also through the JSON document.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::db::{convert, parse, write_document, FileType};

fuzz_target!(|data: &[u8]| {
    // The first byte picks the layouts, so every file type's decoding is exercised.
    let Some((&pick, bytes)) = data.split_first() else { return };
    let file_type = FileType::KNOWN.get(usize::from(pick) % 9).copied().unwrap_or(FileType::Unknown);
    let Ok(doc) = parse(bytes, file_type) else { return };
    let _ = convert::info(&doc, bytes.len());
    let _ = convert::to_document(&doc);
    assert_eq!(write_document(&doc).expect("a parsed file writes"), bytes);
    let text = serde_json::to_string(&doc).expect("serializes");
    let back = serde_json::from_str(&text).expect("deserializes");
    assert_eq!(write_document(&back).expect("its JSON writes"), bytes);
});
