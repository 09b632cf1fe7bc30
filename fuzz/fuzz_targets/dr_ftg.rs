//! `dr-ftg`: reading never panics; whatever parses writes back byte for byte through its JSON, every name is
//! found again (the first of duplicates), extraction paths never repeat, and entries convert.
#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target};
use relic::dark_reign::ftg;

fuzz_target!(|data: &[u8]| {
    if !relic_fuzz::check(&ftg::FORMAT, "fuzz.ftg", data) {
        return;
    }
    let archive = ftg::parse(data).expect("parsed once");
    for (i, e) in archive.entries.iter().enumerate() {
        assert!(archive.find(&e.name).is_some_and(|j| j <= i), "lookup misses `{}`", e.name);
    }
    let paths = ftg::convert::paths(&archive);
    let unique: std::collections::HashSet<String> = paths.iter().map(|p| p.to_ascii_lowercase()).collect();
    assert!(unique.len() == paths.len() || paths.iter().any(|p| p.contains('~')), "paths meet");
    let _ = ftg::FORMAT.entry_options(&relic::registry::ConvertInput::new(data, &Default::default()));
});

// Structure moves on the dr_ftg input (see `relic_fuzz::mutate::ftg`), else libFuzzer's byte mutation.
fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    relic_fuzz::mutate::run(data, size, max_size, seed, relic_fuzz::mutate::ftg)
});
