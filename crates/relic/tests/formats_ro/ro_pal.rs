//! Ragnarok palettes (`ro-pal`) from fixtures built here by hand from PAL.MD (no header; 256 colours of
//! 4 bytes, R, G, B and a byte the client ignores; 1024 bytes), independent of relic's writer.

use relic::asset::{Asset, Pixels};
use relic::ragnarok::pal::{self, RoPalette};
use relic::registry::{self, ConvertOptions, PackRequest};

/// Entry i: R = i, G = 255 - i, B = i / 2, fourth byte `fourth(i)`.
fn handmade(fourth: impl Fn(u8) -> u8) -> Vec<u8> {
    let mut b = Vec::with_capacity(1024);
    for i in 0..=255u8 {
        b.extend([i, 255 - i, i / 2, fourth(i)]);
    }
    b
}

#[test]
fn reads_every_colour_and_keeps_the_fourth_byte() {
    let bytes = handmade(|i| i ^ 0x5A);
    let p = RoPalette::read(&bytes).unwrap();
    assert_eq!(p.colors[0], [0, 255, 0, 0x5A]);
    assert_eq!(p.colors[200], [200, 55, 100, 200 ^ 0x5A]);
    // Drawn opaque: the fourth byte is not alpha.
    assert_eq!(p.palette().colors[200], [200, 55, 100, 255]);
    assert_eq!(p.to_bytes().unwrap(), bytes);
}

#[test]
fn refuses_other_sizes_naming_the_field_and_offset() {
    let bytes = handmade(|_| 0);
    let short = RoPalette::read(&bytes[..1022]).unwrap_err().to_string();
    assert!(short.contains("ro-pal") && short.contains("colors[255]"), "{short}");
    let mut long = bytes.clone();
    long.push(0);
    let err = RoPalette::read(&long).unwrap_err().to_string();
    assert!(err.contains("trailing") && err.contains("0x400"), "{err}");
}

#[test]
fn identified_by_size_and_name_only_when_no_other_palette() {
    let bytes = handmade(|_| 0);
    let id = |b: &[u8], name: &str| registry::sniff(b, name).map(|(f, _)| f.id);
    assert_eq!(id(&bytes, "data/palette/hair/Hair_M_4.PAL"), Some("ro-pal"));
    assert_eq!(id(&bytes, "hair.bin"), None, "no magic: the name says which");
    assert_eq!(id(&bytes[..1020], "hair.pal"), None);
    // A 1024-byte PALS is Dark Reign's, RIFF and JASC are no Ragnarok palettes.
    let mut pals = b"PALS\x02\x01\0\0".to_vec();
    pals.resize(1024, 0);
    assert_eq!(id(&pals, "x.pal"), Some("dr-pal"));
    let mut riff = b"RIFF\0\0\0\0PAL ".to_vec();
    riff.resize(1024, 0);
    assert_eq!(id(&riff, "x.pal"), None);
}

#[test]
fn the_json_packs_back_byte_for_byte() {
    let codec = &pal::FORMAT;
    for bytes in [handmade(|_| 0), handmade(|i| i)] {
        let doc = codec.to_json(&bytes).unwrap();
        assert_eq!(doc["format"], "ro-pal");
        assert_eq!(doc["colors"][1], "#01FE00");
        assert_eq!(codec.from_json(doc, &Default::default()).unwrap(), bytes);
    }
    assert_eq!(codec.to_json(&handmade(|_| 0)).unwrap()["fourth"], 0);
    assert_eq!(codec.to_json(&handmade(|i| i)).unwrap()["fourth"][7], 7);
    // An edited colour is written; a bad one is named by its JSON path.
    let mut doc = codec.to_json(&handmade(|_| 0)).unwrap();
    doc["colors"][3] = "#102030".into();
    assert_eq!(&codec.from_json(doc.clone(), &Default::default()).unwrap()[12..16], [0x10, 0x20, 0x30, 0]);
    doc["colors"][3] = "#10203".into();
    let err = codec.from_json(doc, &Default::default()).unwrap_err().to_string();
    assert!(err.contains("colors[3]"), "{err}");
}

#[test]
fn the_swatch_shows_entry_i_at_its_cell_and_packs_back() {
    let bytes = handmade(|i| if i == 9 { 1 } else { 0 });
    let codec = &pal::FORMAT;
    let assets = codec.convert(&relic::registry::ConvertInput::new(&bytes, &ConvertOptions::default())).unwrap();
    let [named] = assets.as_slice() else { panic!("one swatch") };
    let Asset::Image(img) = &named.asset else { panic!("an image") };
    let frame = &img.frames[0];
    assert_eq!((frame.width, frame.height), (16, 16));
    let Pixels::Rgba8(px) = &frame.pixels else { panic!("RGBA") };
    let at = |x: usize, y: usize| &px[(y * 16 + x) * 4..(y * 16 + x) * 4 + 4];
    assert_eq!(at(3, 2), [35, 220, 17, 255]);
    assert_eq!(at(0, 0), [0, 255, 0, 255]);
    let png = relic::export::png::encode_image(img).unwrap().remove(0).bytes;
    let request = PackRequest::default();
    assert_eq!(codec.pack_input("x.pal.png", &png, &request).unwrap(), bytes);
    assert!(request.notes.lock().unwrap().is_empty());
}

#[test]
fn a_png_painted_elsewhere_packs_with_fourth_bytes_0_and_says_so() {
    // A plain 16 × 16 PNG (no relic text chunk): entry i grey i.
    let mut png = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut png, 16, 16);
        enc.set_color(png::ColorType::Rgb);
        let mut w = enc.write_header().unwrap();
        let rgb: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i]).collect();
        w.write_image_data(&rgb).unwrap();
    }
    let request = PackRequest::default();
    let out = pal::FORMAT.pack_input("mine.png", &png, &request).unwrap();
    let expected: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i, 0]).collect();
    assert_eq!(out, expected);
    assert_eq!(request.notes.lock().unwrap().len(), 1);
    // Another size is refused, with the sizes.
    let mut small = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut small, 8, 8);
        enc.set_color(png::ColorType::Rgb);
        enc.write_header().unwrap().write_image_data(&[0; 192]).unwrap();
    }
    let err = pal::FORMAT.pack_input("small.png", &small, &request).unwrap_err().to_string();
    assert!(err.contains("8 × 8") && err.contains("16 × 16"), "{err}");
}

#[test]
fn palette_reads_1024_byte_rgbx_for_sprites() {
    let bytes = handmade(|_| 0);
    let p = relic::codec::palette::Palette::read(&bytes, Default::default()).unwrap();
    assert_eq!(p.colors[10], [10, 245, 5, 255]);
}

#[test]
fn never_panics_on_damaged_files() {
    let bytes = handmade(|i| i);
    relic::testing::check_robustness(&bytes, true, |b| {
        let p = RoPalette::read(b)?;
        assert_eq!(p.to_bytes().unwrap(), b);
        pal::FORMAT.convert(&relic::registry::ConvertInput::new(b, &ConvertOptions::default())).map(|_| ())
    });
}
