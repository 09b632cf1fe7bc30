//! Every registered format (`relic::FORMATS`): byte 0 of the input picks the format (or `RELIC_FUZZ_FORMAT`
//! pins one), byte 1 the file's name among the names the format reads differently, the rest is the file.
//! Reading never panics; a file that parses writes back byte for byte, converts, exports and packs back
//! (see `relic_fuzz`), and passes its format's own checks (`relic_fuzz::extra`). A format added to the
//! registry is fuzzed here without a change to `fuzz/`.
#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target};

fuzz_target!(|data: &[u8]| relic_fuzz::fuzz_format(data));

// The file after the prefix is mutated by its format's structure mutator, if it has one (see
// `relic_fuzz::mutate::for_format`), else by libFuzzer's byte mutation; the format byte stays.
fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    relic_fuzz::mutate::run_format(data, size, max_size, seed)
});
