//! `ei-res`: reading never panics; every name and data range of an archive that parses can be walked, hash
//! lookups through the input's `next_index` chains end, every entry's bytes can be read (also as a `.bon`,
//! whose extensionless entries inherit the extension), and the archive writes back byte for byte from its
//! document and through its JSON (value and text).
#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target};
use relic::evil_islands::res::{self, convert};

fuzz_target!(|data: &[u8]| {
    if !relic_fuzz::check(&res::FORMAT, "fuzz.res", data) {
        return;
    }
    let archive = res::parse(data).expect("parsed once");
    for i in 0..archive.len() {
        let record = archive.records[i];
        assert_eq!(archive.name(i).len(), usize::from(record.name_len));
        assert_eq!(archive.data(i).len() as u64, u64::from(record.size));
    }
    relic_fuzz::convert_and_export(&res::FORMAT, "fuzz.bon", data);
    // `info` runs `unreachable`, which looks every name up through the hash chains.
    let _ = convert::info(&archive);
    let rebuilt = res::write_document(&convert::to_document(&archive)).expect("the document rebuilds");
    assert!(rebuilt == data, "the rebuilt archive differs from the input");
});

// Structure moves on the ei_res input (see `relic_fuzz::mutate::res`), else libFuzzer's byte mutation.
fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    relic_fuzz::mutate::run(data, size, max_size, seed, relic_fuzz::mutate::res)
});
