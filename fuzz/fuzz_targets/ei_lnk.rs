//! `ei-lnk` (bone hierarchy): reading never panics; whatever parses writes back byte for byte through its JSON
//! (value and text) and through the writer directly.
#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target};
use relic::evil_islands::lnk;

fuzz_target!(|data: &[u8]| {
    if relic_fuzz::check(&lnk::FORMAT, "fuzz.lnk", data) {
        let parsed = lnk::parse(data).expect("parsed once");
        assert_eq!(lnk::write(&parsed).expect("a parsed file writes"), data, "parse → write");
    }
});

// Structure moves on the ei_lnk input (see `relic_fuzz::mutate::lnk`), else libFuzzer's byte mutation.
fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    relic_fuzz::mutate::run(data, size, max_size, seed, relic_fuzz::mutate::lnk)
});
