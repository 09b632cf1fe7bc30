//! `ro-rsw`: reading never panics; an RSW that parses writes back byte for byte (typed and through its JSON),
//! and converts to its map scene (no ground or models beside it: the objects alone) as `.glb`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::ragnarok::rsw::{self, Rsw};

fuzz_target!(|data: &[u8]| {
    if !relic_fuzz::check(&rsw::FORMAT, "fuzz.rsw", data) {
        return;
    }
    let parsed = Rsw::read(data).expect("parsed once");
    assert_eq!(parsed.to_bytes().expect("a parsed file writes"), data, "read → write");
});
