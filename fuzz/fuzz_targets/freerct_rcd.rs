//! `freerct-rcd`: reading never panics; whatever parses writes back byte for byte (`parse` → `write`, and
//! through its JSON), converts to PNGs, sheets and its document, and every pixel block whose lines decode
//! re-encodes as FreeRCT's generator writes it to the same pixels (what `relic pack` does with a PNG that
//! no longer matches its block).
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::freerct::rcd::{self, pixels, Body};

fuzz_target!(|data: &[u8]| {
    if !relic_fuzz::check(&rcd::FORMAT, "fuzz.rcd", data) {
        return;
    }
    let file = rcd::parse(data).expect("parsed once");
    assert_eq!(rcd::write(&file).expect("a parsed file writes"), data, "parse → write");
    for block in &file.blocks {
        match &block.body {
            Body::Pixels8 { width, height, data, .. } => {
                let Ok(indices) = pixels::decode_8bpp(data, *width, *height, 0) else { continue };
                let again = pixels::encode_8bpp(*width, *height, &indices);
                let back = pixels::decode_8bpp(&again, *width, *height, 0).expect("re-encoded 8PXL lines decode");
                assert!(back == indices, "8PXL decode → encode → decode changed the pixels");
            }
            Body::Pixels32 { width, height, data, .. } => {
                let Ok(planes) = pixels::decode_32bpp(data, *width, *height, 0) else { continue };
                let again = pixels::encode_32bpp(*width, *height, &planes);
                let back = pixels::decode_32bpp(&again, *width, *height, 0).expect("re-encoded 32PX lines decode");
                assert!(back == drawable(planes), "32PX decode → encode → decode changed the pixels");
            }
            _ => {}
        }
    }
});

/// The planes as the generator can write them: a recolour pixel of layer 0 is a plain (black) pixel, and a
/// fully transparent plain pixel has no colour.
fn drawable(mut p: pixels::Planes32) -> pixels::Planes32 {
    for i in 0..p.recolour.len() {
        if p.recolour[i] && p.layer[i] == 0 {
            p.recolour[i] = false;
            p.intensity[i] = 0;
        }
        if !p.recolour[i] && p.rgba[i * 4 + 3] == 0 {
            p.rgba[i * 4..i * 4 + 4].fill(0);
        }
    }
    p
}
