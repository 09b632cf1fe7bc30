//! `ro-act`: reading never panics; an ACT that parses writes back byte for byte through its JSON (value and
//! text), and every action draws (with a small made-up sprite, within a pixel budget) without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::ragnarok::act::convert::{draw_action, Drawn};
use relic::ragnarok::act::render::{FrameImage, Sprites};
use relic::ragnarok::act::{self, Act};

fuzz_target!(|data: &[u8]| {
    if !relic_fuzz::check(&act::FORMAT, "fuzz.act", data) {
        return;
    }
    let parsed = Act::read(data).expect("parsed once");
    assert_eq!(parsed.to_bytes().expect("a parsed file writes"), data, "read → write");
    let (three, one) = ([200u8; 3 * 2 * 4], [100u8; 4]);
    let palette = [FrameImage { width: 3, height: 2, rgba: &three }];
    let rgba = [FrameImage { width: 1, height: 1, rgba: &one }];
    let body = Drawn { act: &parsed, sprites: Sprites { palette: &palette, rgba: &rgba } };
    let mut budget = 1 << 22;
    for a in 0..parsed.actions.len() {
        // As a body, and with itself as its head (through its own anchors).
        if draw_action(&body, None, a, &mut budget).is_err() || draw_action(&body, Some(&body), a, &mut budget).is_err() {
            break;
        }
    }
});
