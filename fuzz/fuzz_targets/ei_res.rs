//! Fuzzes the Evil Islands RES reader and its lossless document.
//!
//! Any input may be rejected, but nothing may panic; and an input that parses must come back byte for
//! byte from its document, both directly (`to_document` → `write_document`) and through the JSON that
//! `relic convert --to json` writes and `relic pack ei-res x.json` reads.

#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::res::{self, convert};

fuzz_target!(|data: &[u8]| {
    let Ok(archive) = res::parse(data) else { return };

    // Every name and data range was checked by `parse`, so walking them must not panic, and each
    // entry's bytes must have the size its record gives. `.bon` also exercises the extension that
    // extensionless entries inherit from their archive.
    for i in 0..archive.len() {
        let record = archive.records[i];
        assert_eq!(archive.name(i).len(), usize::from(record.name_len));
        assert_eq!(archive.data(i).len() as u64, u64::from(record.size));
    }
    for archive_name in ["fuzz.res", "fuzz.bon"] {
        for entry in convert::entries(&archive, archive_name) {
            let bytes = entry.data.bytes().expect("stored entries are borrowed, never decoded");
            assert_eq!(bytes.len() as u64, entry.size);
        }
    }
    // Hash lookups follow `next_index` chains that the input controls; they must end (`info` runs
    // `unreachable`, which looks every name up).
    let _ = convert::info(&archive);

    // The document is lossless: it must rebuild the input exactly.
    let document = convert::to_document(&archive);
    let rebuilt = res::write_document(&document).expect("the document of a parsed archive must rebuild");
    assert!(rebuilt == data, "the rebuilt archive differs from the input");

    // The same through JSON, as `convert --to json` and `pack` do it.
    let codec = res::FORMAT.codec;
    let json = codec.to_json(data).expect("an archive that parses must convert to JSON");
    let packed = codec.write_json(json).expect("the JSON of a parsed archive must pack");
    assert!(packed == data, "the archive packed from JSON differs from the input");
});
