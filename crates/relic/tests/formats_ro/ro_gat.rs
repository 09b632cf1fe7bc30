//! Ragnarok altitude maps (`ro-gat`) from fixtures built here by hand from RagnarokFileFormats GAT.MD
//! (`GRAT`, version major then minor byte, u32 width and height, then per cell from the south-west four
//! f32 corner heights — bottom left, bottom right, top left, top right — and a u32 type), independent of
//! relic's writer.

use relic::asset::{Asset, Image, Pixels};
use relic::ragnarok::gat::{self, cell_colour, kind_name, Gat, Version};
use relic::registry::{self, ConvertOptions, PackRequest};

/// One cell: the four heights in file order and the type.
type C = ([f32; 4], u32);

/// A GAT file as GAT.MD lays it out; `cells` row by row from the south (row 0), west to east.
fn gat_file(major: u8, minor: u8, width: u32, height: u32, cells: &[C], trailing: &[u8]) -> Vec<u8> {
    let mut b = b"GRAT".to_vec();
    b.extend([major, minor]);
    b.extend(width.to_le_bytes());
    b.extend(height.to_le_bytes());
    for (heights, kind) in cells {
        for h in heights {
            b.extend(h.to_le_bytes());
        }
        b.extend(kind.to_le_bytes());
    }
    b.extend_from_slice(trailing);
    b
}

/// The committed sample `samples/ragnarok/map.gat`: 5 × 4 cells, version 1.3. Corner (cx, cy) is
/// `-2.5·cx - 5·cy` (the ground rises to the north-east: Y-down), and the northern row stands 10 units
/// higher still (a step along corner row 3). Types by row, south first.
const SAMPLE_KINDS: [[u32; 5]; 4] =
    [[0, 0, 0, 1, 1], [0, 3, 3, 0, 5], [0, 0, 5, 5, 1], [1, 0x8000_0001, 0x8000_0003, 0x8000_0003, 0]];

fn sample_cells() -> Vec<C> {
    let corner = |cx: u32, cy: u32, step: bool| -2.5 * cx as f32 - 5.0 * cy as f32 - if step { 10.0 } else { 0.0 };
    let mut cells = Vec::new();
    for (y, row) in SAMPLE_KINDS.iter().enumerate() {
        let y = y as u32;
        for (x, &kind) in row.iter().enumerate() {
            let (x, s) = (x as u32, y == 3);
            cells.push(([corner(x, y, s), corner(x + 1, y, s), corner(x, y + 1, s), corner(x + 1, y + 1, s)], kind));
        }
    }
    cells
}

fn sample() -> Vec<u8> {
    gat_file(1, 3, 5, 4, &sample_cells(), &[])
}

#[test]
fn the_committed_sample_is_the_handmade_map() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/ragnarok/map.gat");
    assert_eq!(std::fs::read(path).unwrap(), sample());
}

#[test]
fn versions_1_2_and_1_3_read_every_cell_exactly_and_write_back() {
    for minor in [2, 3] {
        let cells =
            [([0.0, -1.5, 2.25, -7.0], 0), ([10.0, 11.0, 12.0, 13.0], 5), ([-0.0, 1e-3, 3.5, 4.0], 0x8000_0001)];
        let bytes = gat_file(1, minor, 3, 1, &cells, &[]);
        let g = Gat::read(&bytes).unwrap();
        assert_eq!(g.version, Version::new(1, minor));
        assert_eq!((g.width, g.height, g.cells.len()), (3, 1, 3));
        let c = &g.cells[0];
        assert_eq!(
            [c.bottom_left.get(), c.bottom_right.get(), c.top_left.get(), c.top_right.get()],
            [0.0, -1.5, 2.25, -7.0]
        );
        assert_eq!(g.cells[1].kind, 5);
        assert_eq!(g.cells[2].kind, 0x8000_0001);
        assert_eq!(g.cells[2].bottom_left.bits(), (-0.0f32).to_bits(), "-0.0 kept");
        assert_eq!(g.cell(1, 0).unwrap().top_right.get(), 13.0);
        assert!(g.cell(3, 0).is_none() && g.cell(0, 1).is_none());
        assert_eq!(g.to_bytes().unwrap(), bytes);
    }
    // The sample: cell (x, y) at y·width + x, row 0 south.
    let g = Gat::read(&sample()).unwrap();
    let c = g.cell(2, 1).unwrap();
    assert_eq!(
        [c.bottom_left.get(), c.bottom_right.get(), c.top_left.get(), c.top_right.get()],
        [-10.0, -12.5, -15.0, -17.5]
    );
    assert_eq!(c.kind, 3);
    let north = g.cell(4, 3).unwrap();
    assert_eq!([north.bottom_left.get(), north.top_right.get()], [-35.0, -42.5]);
    assert_eq!(g.cell(1, 3).unwrap().kind, 0x8000_0001);
}

#[test]
fn trailing_bytes_and_other_versions_are_kept() {
    let bytes = gat_file(1, 2, 1, 1, &[([1.0; 4], 1)], b"tail");
    let g = Gat::read(&bytes).unwrap();
    assert_eq!(g.trailing.0, b"tail");
    assert_eq!(g.to_bytes().unwrap(), bytes);
    let other = gat_file(2, 0, 1, 1, &[([1.0; 4], 1)], &[]);
    let g = Gat::read(&other).unwrap();
    assert!(!g.version.is_known());
    assert_eq!(gat::FORMAT.info(&other).unwrap()["known_version"], false);
    assert_eq!(g.to_bytes().unwrap(), other);
}

#[test]
fn kinds_have_names_and_distinct_colours() {
    assert_eq!(kind_name(0), "walkable");
    assert_eq!(kind_name(1), "blocked");
    assert_eq!(kind_name(5), "blocked, snipable (cliff)");
    assert_eq!(kind_name(3), "walkable water");
    assert!(kind_name(2).contains("korangar") && kind_name(2).contains("eAthena"));
    assert_eq!(kind_name(0x8000_0001), "blocked, water tile (1.3)");
    assert_eq!(kind_name(77), "unknown type");
    assert_eq!(cell_colour(0), [255, 255, 255, 255]);
    assert_eq!(cell_colour(1), [0, 0, 0, 255]);
    let kinds = [
        0,
        1,
        2,
        3,
        4,
        5,
        6,
        0x8000_0000,
        0x8000_0001,
        0x8000_0002,
        0x8000_0003,
        0x8000_0004,
        0x8000_0005,
        0x8000_0006,
    ];
    let colours: std::collections::HashSet<[u8; 4]> = kinds.iter().map(|&k| cell_colour(k)).collect();
    assert_eq!(colours.len(), kinds.len(), "each known type its own colour");
    assert!(kinds.iter().all(|&k| cell_colour(k)[3] == 255));
}

#[test]
fn hostile_sizes_fail_before_allocating_naming_the_field_and_offset() {
    let huge = gat_file(1, 2, u32::MAX, u32::MAX, &[([0.0; 4], 0)], &[]);
    let err = Gat::read(&huge).unwrap_err().to_string();
    assert!(err.contains("ro-gat") && err.contains("width × height") && err.contains("0x6"), "{err}");
    let one_short = gat_file(1, 2, 2, 1, &[([0.0; 4], 0)], &[]);
    let err = Gat::read(&one_short).unwrap_err().to_string();
    assert!(err.contains("width × height") && err.contains("2 × 1"), "{err}");
    let err = Gat::read(b"GRAS\x01\x02").unwrap_err().to_string();
    assert!(err.contains("magic") && err.contains("0x0"), "{err}");
    let err = Gat::read(b"GRAT\x01\x02\x01\0\0").unwrap_err().to_string();
    assert!(err.contains("width"), "{err}");
    // A map of no cells is a file (a width of 2^32 - 1 and a height of 0 allocate nothing), converted to
    // its document only.
    let empty = gat_file(1, 2, u32::MAX, 0, &[], &[]);
    assert_eq!(Gat::read(&empty).unwrap().to_bytes().unwrap(), empty);
    let assets = gat::FORMAT.convert(&relic::registry::ConvertInput::new(&empty, &ConvertOptions::default())).unwrap();
    assert!(matches!(assets.as_slice(), [a] if matches!(a.asset, Asset::Document(_))));
}

#[test]
fn truncations_are_refused_and_flips_never_panic() {
    let bytes = sample();
    let report = relic::testing::check_robustness(&bytes, true, |b| {
        let g = Gat::read(b)?;
        assert_eq!(g.to_bytes()?, b, "a file that parses writes back");
        // Flipped heights (NaN, infinities) and types still convert.
        gat::FORMAT.convert(&relic::registry::ConvertInput::new(b, &ConvertOptions::default()))?;
        let json = gat::FORMAT.to_json(b)?;
        assert_eq!(gat::FORMAT.from_json(json, &Default::default())?, b);
        Ok::<_, relic::Error>(())
    });
    assert_eq!(report.truncations, bytes.len());
    assert!(report.flips > 0);
}

#[test]
fn identified_by_magic() {
    let bytes = sample();
    let id = |b: &[u8], name: &str| registry::sniff(b, name).map(|(f, _)| f.id);
    assert_eq!(id(&bytes, "data/prontera.gat"), Some("ro-gat"));
    assert_eq!(id(&bytes, "whatever.bin"), Some("ro-gat"));
    assert_eq!(id(b"GRAS\x01\x02", "x.gat"), None);
}

#[test]
fn the_json_has_a_legend_and_packs_back_byte_for_byte() {
    let codec = &gat::FORMAT;
    let bytes = sample();
    let doc = codec.to_json(&bytes).unwrap();
    assert_eq!(doc["format"], "ro-gat");
    assert_eq!(doc["version"], "1.3");
    assert_eq!((doc["width"].as_u64(), doc["height"].as_u64()), (Some(5), Some(4)));
    assert_eq!(doc["cells"][7]["type"], 3);
    assert_eq!(doc["cells"][7]["top_left"], -15.0);
    let types = doc["legend"]["types"].as_array().unwrap();
    let listed: Vec<(u64, u64)> =
        types.iter().map(|t| (t["type"].as_u64().unwrap(), t["cells"].as_u64().unwrap())).collect();
    assert_eq!(listed, [(0, 8), (1, 4), (3, 2), (5, 3), (0x8000_0001, 1), (0x8000_0003, 2)]);
    assert_eq!(types[0]["name"], "walkable");
    assert_eq!(types[0]["colour"], "#FFFFFF");
    assert_eq!(types[0]["walkable"], true);
    assert_eq!(types[3]["walkable"], false);
    assert_eq!(types[5]["water_tile"], true);
    assert!(doc["legend"]["sources"].as_str().unwrap().contains("disagree"));
    assert_eq!(doc["heights"]["min"], -42.5, "corner (5, 4): -2.5·5 - 5·4 - 10");
    assert_eq!(doc["heights"]["max"], 0.0);
    // Value and text both pack back.
    assert_eq!(codec.from_json(doc.clone(), &Default::default()).unwrap(), bytes);
    let text = serde_json::to_string(&doc).unwrap();
    assert_eq!(codec.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap(), bytes);
    // An edited type is written; the legend is derived and ignored.
    let mut edited = doc.clone();
    edited["cells"][0]["type"] = 1.into();
    edited["legend"] = serde_json::json!("stale");
    let mut expected = sample_cells();
    expected[0].1 = 1;
    assert_eq!(codec.from_json(edited, &Default::default()).unwrap(), gat_file(1, 3, 5, 4, &expected, &[]));
    // A cell list that does not fill the map is refused.
    let mut short = doc;
    short["cells"].as_array_mut().unwrap().pop();
    let err = codec.from_json(short, &Default::default()).unwrap_err().to_string();
    assert!(err.contains("cells") && err.contains("20"), "{err}");
}

fn images(bytes: &[u8]) -> (Image, Image, serde_json::Value) {
    let assets = gat::FORMAT.convert(&relic::registry::ConvertInput::new(bytes, &ConvertOptions::default())).unwrap();
    let mut walk = None;
    let mut heights = None;
    let mut doc = None;
    for a in assets {
        match (a.name.as_deref(), a.asset) {
            (Some("walkability"), Asset::Image(i)) => walk = Some(i),
            (Some("heights"), Asset::Image(i)) => heights = Some(i),
            (Some("."), Asset::Document(d)) => doc = Some(d.value),
            (name, _) => panic!("unexpected asset {name:?}"),
        }
    }
    (walk.unwrap(), heights.unwrap(), doc.unwrap())
}

#[test]
fn the_walkability_png_is_one_pixel_per_cell_north_up() {
    let (walk, _, doc) = images(&sample());
    assert_eq!(doc, gat::FORMAT.to_json(&sample()).unwrap(), "the document beside is the JSON");
    let f = &walk.frames[0];
    assert_eq!((f.width, f.height), (5, 4));
    let Pixels::Rgba8(px) = &f.pixels else { panic!("RGBA") };
    let at = |x: usize, r: usize| -> [u8; 4] { px[(r * 5 + x) * 4..][..4].try_into().unwrap() };
    // Image row 0 is the northern GAT row 3: blocked, water tiles, walkable.
    let (white, black, brown, blue) = ([255, 255, 255, 255], [0, 0, 0, 255], [176, 96, 32, 255], [64, 128, 255, 255]);
    assert_eq!(at(0, 0), black);
    assert_eq!(at(1, 0), cell_colour(0x8000_0001));
    assert_eq!(at(4, 0), white);
    // Image row 3 is the southern GAT row 0: 0 0 0 1 1.
    assert_eq!([at(0, 3), at(2, 3), at(3, 3), at(4, 3)], [white, white, black, black]);
    // Row 1 from the south (image row 2): 0 3 3 0 5.
    assert_eq!([at(0, 2), at(1, 2), at(3, 2), at(4, 2)], [white, blue, white, brown]);
    for r in 0..4 {
        for (x, &kind) in SAMPLE_KINDS[3 - r].iter().enumerate() {
            assert_eq!(at(x, r), cell_colour(kind), "pixel ({x}, {r})");
        }
    }
    let legend = walk.text.iter().find(|(k, _)| k == "relic-ro-gat-legend").unwrap();
    assert_eq!(legend.1, "0=#FFFFFF 1=#000000 3=#4080FF 5=#B06020 2147483649=#00286E 2147483651=#1E50C8");
}

#[test]
fn the_height_map_holds_exact_16_bit_corner_levels() {
    // 2 × 1 cells. Corners (cx, cy): row 0 (south) 0, -10, -20; row 1 (north) -4, mean(-10, -12) = -11, -20.
    let cells = [([0.0, -10.0, -4.0, -10.0], 0), ([-10.0, -20.0, -12.0, -20.0], 1)];
    let (_, heights, doc) = images(&gat_file(1, 2, 2, 1, &cells, &[]));
    let f = &heights.frames[0];
    assert_eq!((f.width, f.height), (3, 2));
    let Pixels::Gray16(levels) = &f.pixels else { panic!("16-bit grey") };
    // level = (max - h) / (max - min) · 65535 with min -20, max 0: higher ground (smaller h) brighter.
    // Row 0 of the image is the northern corner row.
    assert_eq!(levels, &[13107, 36044, 65535, 0, 32768, 65535]);
    let text = &heights.text.iter().find(|(k, _)| k == "relic-ro-gat-heights").unwrap().1;
    assert!(text.starts_with("min=-20 max=0 step="), "{text}");
    let h = &doc["heights"];
    assert_eq!((h["min"].as_f64(), h["max"].as_f64(), h["width"].as_u64()), (Some(-20.0), Some(0.0), Some(3)));
    assert_eq!(h["step"].as_f64(), Some(20.0 / 65535.0));
    assert_eq!(h["corners_with_a_step"], 1);
    // A flat map is all 0; NaN heights are left out of the corner they touch.
    let flat = [([3.0; 4], 0)];
    let (_, heights, _) = images(&gat_file(1, 2, 1, 1, &flat, &[]));
    assert_eq!(heights.frames[0].pixels, Pixels::Gray16(vec![0; 4]));
    let nan = [([f32::NAN, 0.0, -8.0, -8.0], 0)];
    let (_, heights, doc) = images(&gat_file(1, 2, 1, 1, &nan, &[]));
    assert_eq!(heights.frames[0].pixels, Pixels::Gray16(vec![65535, 65535, 0, 0]));
    assert_eq!(doc["heights"]["corners_without_height"], 1);
}

fn png_of(image: &Image) -> Vec<u8> {
    let out = relic::export::png::encode_image(image).unwrap();
    out.into_iter().next().unwrap().bytes
}

#[test]
fn an_edited_walkability_png_packs_back_to_the_map_with_the_new_types() {
    let codec = &gat::FORMAT;
    let bytes = sample();
    let (walk, heights, _) = images(&bytes);
    let png = png_of(&walk);
    let request = PackRequest::default();
    // Unedited: the same bytes.
    assert_eq!(codec.pack_input("out/map.gat/walkability.png", &png, &request).unwrap(), bytes);
    // Paint the north-west pixel (cell (0, 3), blocked) walkable and cell (4, 0) (image (4, 3)) as a cliff.
    let mut edited = walk.clone();
    let Pixels::Rgba8(px) = &mut edited.frames[0].pixels else { panic!() };
    px[0..4].copy_from_slice(&cell_colour(0));
    px[(3 * 5 + 4) * 4..][..4].copy_from_slice(&cell_colour(5));
    let mut cells = sample_cells();
    cells[15].1 = 0;
    cells[4].1 = 5;
    let packed = codec.pack_input("walkability.png", &png_of(&edited), &request).unwrap();
    assert_eq!(packed, gat_file(1, 3, 5, 4, &cells, &[]));
    assert!(request.notes.lock().unwrap().iter().any(|n| n.contains("2 cell type(s) changed")));
    // A colour no type has is named with its pixel.
    let Pixels::Rgba8(px) = &mut edited.frames[0].pixels else { panic!() };
    px[(5 + 2) * 4..][..4].copy_from_slice(&[1, 2, 3, 255]);
    let err = codec.pack_input("w.png", &png_of(&edited), &request).unwrap_err().to_string();
    assert!(err.contains("pixel (2, 1)") && err.contains("#010203"), "{err}");
    // The height map (or any PNG without the recorded map) is refused.
    let err = codec.pack_input("heights.png", &png_of(&heights), &request).unwrap_err().to_string();
    assert!(err.contains("records no GAT") && err.contains("JSON"), "{err}");
    // A resized picture is refused.
    let small = Image::single(2, 2, vec![255; 16], (0, 0), Vec::new());
    let mut small = small;
    small.text = walk.text.clone();
    let err = codec.pack_input("w.png", &png_of(&small), &request).unwrap_err().to_string();
    assert!(err.contains("2 × 2") && err.contains("5 × 4"), "{err}");
}

#[test]
fn info_lists_the_types() {
    let info = gat::FORMAT.info(&sample()).unwrap();
    assert_eq!(info["version"], "1.3");
    assert_eq!(info["known_version"], true);
    assert_eq!((info["width"].as_u64(), info["height"].as_u64(), info["cells"].as_u64()), (Some(5), Some(4), Some(20)));
    assert_eq!(info["types"][0]["name"], "walkable");
    assert_eq!(info["types"].as_array().unwrap().len(), 6);
}

#[test]
fn a_field_sized_map_converts_in_one_pass() {
    // 256 × 256 cells (a field map is up to about 400 × 400): every step is linear in the cells, so this
    // finishes in moments; a per-pixel rescan of the map would not.
    let (w, h) = (256u32, 256u32);
    let cells: Vec<C> = (0..w * h).map(|i| ([-((i % 97) as f32); 4], i % 7)).collect();
    let bytes = gat_file(1, 2, w, h, &cells, &[]);
    let (walk, heights, doc) = images(&bytes);
    assert_eq!((walk.frames[0].width, heights.frames[0].width), (256, 257));
    assert_eq!(doc["legend"]["types"].as_array().unwrap().len(), 7);
    assert_eq!(gat::FORMAT.pack_input("w.png", &png_of(&walk), &PackRequest::default()).unwrap(), bytes);
}
