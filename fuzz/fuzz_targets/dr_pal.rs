//! `dr-pal`: reading a PALS palette never panics, and whatever parses writes back byte for byte and converts
//! to its swatch; any input is also tried as a `--palette` file of every kind.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::codec::palette::{Palette, SixBitScaling};
use relic::dark_reign::pal;

fuzz_target!(|data: &[u8]| {
    relic_fuzz::check(&pal::FORMAT, "fuzz.pal", data);
    for scaling in [SixBitScaling::Replicate, SixBitScaling::Times4] {
        if let Ok(p) = Palette::read(data, scaling) {
            assert_eq!(p.colors.len(), 256, "a palette has 256 entries");
        }
    }
});
