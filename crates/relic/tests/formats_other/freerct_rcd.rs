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
    let assets = relic::freerct::rcd::FORMAT.convert(&relic::registry::ConvertInput::new(&bytes, &opts)).unwrap();
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

/// `pack freerct-rcd` read a sprite PNG that is a symbolic link, or under a linked folder, out of the
/// document's folder (issue #23). A link anywhere below the JSON's folder is refused and the file named;
/// `..` and absolute PNG names are refused as before.
#[cfg(unix)]
#[test]
fn pack_refuses_pngs_reached_through_links() {
    use relic::ops::{self, ConvertRequest, PackOptions, Quiet};
    let dir = tempfile::tempdir().unwrap();
    let input = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/freerct/tiles.rcd");
    let out = dir.path().join("out");
    let report = ops::convert(std::slice::from_ref(&input), &out, &ConvertRequest::default(), &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let json = out.join("tiles.rcd.json");
    let folder = out.join("tiles.rcd");
    let back = dir.path().join("back.rcd");
    let opts = PackOptions { force: true, ..Default::default() };
    ops::pack("freerct-rcd", &json, &back, &opts).unwrap();
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&input).unwrap());
    let value: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let png = value["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|b| b.get("png").and_then(|p| p.as_str()))
        .unwrap()
        .to_string();

    // One PNG a link to a copy outside.
    let file = folder.join(&png);
    let outside = dir.path().join("outside.png");
    std::fs::rename(&file, &outside).unwrap();
    std::os::unix::fs::symlink(&outside, &file).unwrap();
    let e = ops::pack("freerct-rcd", &json, &back, &opts).unwrap_err().to_string();
    assert!(e.contains(&format!("refusing to read {}: {} is a link", file.display(), file.display())), "{e}");
    std::fs::remove_file(&file).unwrap();
    std::fs::rename(&outside, &file).unwrap();

    // The whole folder a link to one outside.
    let moved = dir.path().join("moved");
    std::fs::rename(&folder, &moved).unwrap();
    std::os::unix::fs::symlink(&moved, &folder).unwrap();
    let e = ops::pack("freerct-rcd", &json, &back, &opts).unwrap_err().to_string();
    assert!(e.contains(&format!("{} is a link", folder.display())), "{e}");
    std::fs::remove_file(&folder).unwrap();
    std::fs::rename(&moved, &folder).unwrap();

    // A PNG name leading out of the folder.
    for name in ["../tiles.rcd.json", "/etc/passwd"] {
        let mut edited = value.clone();
        let block = edited["blocks"].as_array_mut().unwrap().iter_mut().find(|b| b.get("png").is_some()).unwrap();
        block["png"] = serde_json::json!(name);
        std::fs::write(&json, serde_json::to_vec(&edited).unwrap()).unwrap();
        let e = ops::pack("freerct-rcd", &json, &back, &opts).unwrap_err().to_string();
        assert!(e.contains(&format!("`{name}`")) && e.contains(".png"), "{e}");
    }
}
