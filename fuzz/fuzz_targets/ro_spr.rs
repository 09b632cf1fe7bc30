//! `ro-spr`: reading never panics; a sprite that parses writes back byte for byte (typed and through its
//! JSON), draws its palette frames through its own palette and a fixed one, turns its RGBA frames, and
//! every palette frame's indices survive relic's own RLE encoder; it converts (the common checks).
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::ragnarok::spr::{self, rle, Spr};

fuzz_target!(|data: &[u8]| {
    if !relic_fuzz::check(&spr::FORMAT, "fuzz.spr", data) {
        return;
    }
    let sprite = Spr::read(data).expect("parsed once");
    assert_eq!(sprite.to_bytes().expect("a parsed sprite writes"), data, "read → to_bytes");
    let grey: [[u8; 4]; 256] = std::array::from_fn(|i| [i as u8, i as u8, i as u8, 0]);
    let drawn = sprite.palette_frames_rgba(Some(&grey)).expect("drawn through a given palette");
    assert_eq!(drawn.len(), sprite.palette_frames.len());
    if sprite.palette.is_some() {
        sprite.palette_frames_rgba(None).expect("drawn through its own palette");
    }
    for (f, d) in sprite.palette_frames.iter().zip(&drawn) {
        assert_eq!(d.rgba.len(), f.indices.len() * 4);
        let encoded = rle::encode(&f.indices);
        assert_eq!(rle::decode(&encoded, f.indices.len(), 0, 0).expect("own RLE decodes"), f.indices);
    }
    for (f, d) in sprite.rgba_frames.iter().zip(sprite.rgba_frames().expect("turned")) {
        assert_eq!(spr::types::rgba_to_abgr(f.width, &d.rgba), f.abgr, "RGBA → ABGR undoes ABGR → RGBA");
    }
    // Edited through the typed API (RLE dropped), it still writes a file that reads back the same.
    let mut edited = sprite.clone();
    edited.palette_frames.iter_mut().for_each(|f| f.rle = None);
    if let Ok(bytes) = edited.to_bytes() {
        let back = Spr::read(&bytes).expect("a written sprite reads");
        assert_eq!(
            back.palette_frames.iter().map(|f| &f.indices).collect::<Vec<_>>(),
            sprite.palette_frames.iter().map(|f| &f.indices).collect::<Vec<_>>()
        );
    }
});
