//! FreeRCT RCD regressions beyond `fixtures.rs` (which feeds every regression input to every face).

use relic::asset::Asset;
use relic::registry::ConvertOptions;

/// `samples/freerct/tiles.rcd` with its flat tile's SPRT offsets set to (100, 16000): the SURF sheet, one
/// cell per slope as large as the union of its sprites' rectangles, would be 2394 × 16014 pixels (150 MiB
/// of RGBA) for 448 pixels of sprites. The sweep found this amplification with single bit flips of the
/// corpus files (a SPRT offset or an 8PXL width). Such a sheet is not drawn; the sprites still are.
#[test]
fn a_sheet_of_sprites_placed_far_apart_is_not_drawn() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/regression/freerct-rcd/18ca89d998b3e19fc62e3aee2c92d21b43657bc3b64032a9894f6cdcbca2f0ff");
    let bytes = std::fs::read(path).unwrap();
    let opts = ConvertOptions::default();
    let assets = relic::freerct::rcd::FORMAT.codec.convert(&bytes, &opts).unwrap();
    let images: Vec<(&str, u32, u32)> = assets
        .iter()
        .filter_map(|a| match &a.asset {
            Asset::Image(i) => Some((a.name.as_deref().unwrap_or(""), i.frames[0].width, i.frames[0].height)),
            _ => None,
        })
        .collect();
    assert!(images.iter().all(|(_, w, h)| u64::from(*w) * u64::from(*h) < 1 << 20), "{images:?}");
    assert!(!images.iter().any(|(n, _, _)| n.contains("surf_sheet")), "{images:?}");
    assert!(images.iter().any(|(n, _, _)| n.contains("tsel_sheet")), "{images:?}");
    assert_eq!(images.iter().filter(|(n, _, _)| !n.contains("sheet")).count(), 4, "every sprite: {images:?}");
    let notes = opts.notes.lock().unwrap();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("block 9 (SURF): its sheet would be") && n.contains("far larger than its sprites")),
        "{notes:?}"
    );
}
