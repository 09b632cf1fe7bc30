//! `ei-mp` (map header): reading never panics; whatever parses writes back byte for byte through its JSON
//! (value and text) and through the writer directly, and converts with a fixed dry sector beside it to a
//! terrain scene, height map and document exported to every output they offer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::mp::{self, atlas::AtlasSource, convert::convert_map};
use relic::registry::ConvertOptions;

/// A dry sector: magic, liquids 0, 33 × 33 vertices of altitude 0x0102 and normal bits 0x01020304, tiles 0.
fn sector() -> Vec<u8> {
    let mut out = vec![0x74, 0xF7, 0x4B, 0xCF, 0];
    for _ in 0..33 * 33 {
        out.extend([0, 0, 2, 1, 4, 3, 2, 1]);
    }
    out.extend([0u8; 512]);
    out
}

fuzz_target!(|data: &[u8]| {
    if !relic_fuzz::check(&mp::FORMAT, "fuzz.mp", data) {
        return;
    }
    let parsed = mp::parse(data).expect("parsed once");
    assert_eq!(mp::write(&parsed).expect("a parsed file writes"), data, "parse → write");
    let sectors = vec![(0, 0, "fuzz000000.sec".to_string(), sector())];
    let opts = ConvertOptions::default();
    let assets = convert_map("fuzz", &parsed, sectors, &AtlasSource::None, &opts).expect("a parsed map converts");
    for asset in &assets {
        for ext in relic::export::extensions_for(&asset.asset) {
            let _ = relic::export::export(&asset.asset, Some(ext), "fuzz");
        }
    }
});
