//! Fuzzes the Dark Reign sprite readers (`dr-spr`, and the spec's headerless `dr-ftg-spr`), their lossless
//! documents and their conversion.
//!
//! Any input may be rejected, but nothing may panic; an input that parses must come back byte for byte from
//! its document, both directly and through the JSON that `relic convert --to json` writes and `relic pack`
//! reads; and converting it to frames, atlas and document (greyscale palette) must give assets or an error.

#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::codec::palette::Palette;
use relic::dark_reign::{ftg_spr, spr};
use relic::registry::ConvertOptions;

fuzz_target!(|data: &[u8]| {
    let palette = Palette::greyscale();
    let opts = ConvertOptions::default();
    if let Ok(doc) = spr::parse(data) {
        let again = spr::write_document(&doc).expect("a parsed sprite's document must be writable");
        assert_eq!(again, data, "SPR document rebuild differs from the input");
        let value = spr::FORMAT.to_json(data).expect("a parsed sprite has a JSON document");
        let text = serde_json::to_vec(&value).expect("JSON text");
        let value: serde_json::Value = serde_json::from_slice(&text).expect("JSON back");
        let again = spr::FORMAT.from_json(value, &Default::default()).expect("the JSON document must be writable");
        assert_eq!(again, data, "SPR JSON rebuild differs from the input");
        let _ = spr::to_assets(data, &palette, &opts);
    }
    if let Ok(doc) = ftg_spr::parse(data) {
        let again = ftg_spr::write_document(&doc).expect("a parsed FTG sprite's document must be writable");
        assert_eq!(again, data, "FTG sprite document rebuild differs from the input");
        let _ = ftg_spr::to_assets(data, &palette, &opts);
    }
});
