//! `ro-pal`: reading a Ragnarok palette never panics, whatever parses writes back byte for byte and converts
//! to its swatch; and identification by name and content never panics nor claims a file its bytes
//! contradict (a `.pal` is `ro-pal` only at 1024 bytes).
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::ragnarok::pal::{self, RoPalette};

fuzz_target!(|data: &[u8]| {
    relic_fuzz::check(&pal::FORMAT, "fuzz.pal", data);
    if let Ok(p) = RoPalette::read(data) {
        assert_eq!(p.to_bytes().ok().as_deref(), Some(data), "a palette writes back as read");
    }
    let head = data.get(..64).unwrap_or(data);
    for name in ["fuzz.pal", "fuzz.spr", "fuzz.db", "acks.db", "fuzz.cam", "fuzz.bon", "fuzz.tga", "fuzz.mob"] {
        let whole = relic::registry::sniff(data, name);
        // The head and the length say what the whole file says.
        let sized = relic::registry::sniff_sized(head, name, data.len() as u64);
        assert_eq!(whole.map(|(f, _)| f.id), sized.map(|(f, _)| f.id), "{name}");
        if whole.is_some_and(|(f, _)| f.id == pal::FORMAT_ID) {
            assert_eq!(data.len(), pal::SIZE, "only a 1024-byte file is a Ragnarok palette");
        }
    }
});
