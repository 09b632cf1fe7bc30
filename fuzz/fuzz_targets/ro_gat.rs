//! `ro-gat`: reading never panics; a GAT that parses writes back byte for byte through its JSON (value and
//! text), converts to its walkability and height maps, and its walkability PNG packs back to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::ragnarok::gat::{self, Gat};
use relic::registry::PackRequest;

fuzz_target!(|data: &[u8]| {
    if !relic_fuzz::check(&gat::FORMAT, "fuzz.gat", data) {
        return;
    }
    let parsed = Gat::read(data).expect("parsed once");
    assert_eq!(parsed.to_bytes().expect("a parsed file writes"), data, "read → write");
    if parsed.cells.is_empty() {
        return;
    }
    let png = relic::export::png::encode_image(&gat::convert::walkability(&parsed, data)).expect("encodes");
    let png = &png.first().expect("one PNG").bytes;
    let back = gat::FORMAT.pack_input("w.png", png, &PackRequest::default()).expect("its PNG packs");
    assert_eq!(back, data, "walkability PNG → GAT");
});
