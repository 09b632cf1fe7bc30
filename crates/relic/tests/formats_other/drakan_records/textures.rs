//! Texture 0x0040 (spec "Texture format"; docs/formats/drakan.md#texture-header: 54-byte header, 4-byte alpha bits, compressed size
//! always present): every pixel format decoded to exact RGBA, rows bottom-up, pitch, colour key, alpha maps,
//! animations and their APNG.

use relic::asset::{FrameRole, Image, Pixels};
use relic::codec::zlib;
use relic::drakan::records::texture::{self, animation_groups, animation_to_image, to_image, ChannelOrder, Texture};
use relic::testing::check_robustness;

use super::{check_record, r, SrscFields, B};

/// Header fields in spec order, for [`tex`].
#[derive(Clone, Copy)]
struct H {
    w: u32,
    h: u32,
    pitch: u32,
    bpp: u16,
    alpha_bits: u32,
    key: u32,
    fps: u8,
    flags: u8,
    level: u32,
}

const H0: H = H { w: 2, h: 2, pitch: 0, bpp: 24, alpha_bits: 0, key: 0xFFFF_FFFF, fps: 0, flags: 0, level: 0 };

/// A texture body: the 54-byte header, then `pixels` (stored, or compressed when `level > 0`), then the
/// alpha map when given (u32 size + bytes).
fn tex(h: H, pixels: &[u8], alpha_map: Option<&[u8]>) -> Vec<u8> {
    let data = if h.level > 0 { zlib::compress(pixels, h.level) } else { pixels.to_vec() };
    let mut b = B::new()
        .u32(h.w)
        .u32(h.h)
        .u32(h.pitch)
        .u16(h.bpp)
        .u32(h.alpha_bits)
        .u32(h.key)
        .r#ref(0x11, 1) // mip map
        .r#ref(0x22, 2) // alternate
        .r#ref(0x33, 3) // bump map
        .u8(h.fps)
        .u8(h.flags)
        .u16(0x10) // mip map number
        .r#ref(0x44, 4) // material
        .u32(7) // ref count
        .u32(h.level)
        .u32(data.len() as u32);
    assert_eq!(b.0.len(), 54);
    b = b.bytes(&data);
    if let Some(map) = alpha_map {
        b = b.u32(map.len() as u32).bytes(map);
    }
    b.done()
}

fn rgba(img: &Image) -> &[u8] {
    assert_eq!(img.frames.len(), 1);
    match &img.frames[0].pixels {
        Pixels::Rgba8(px) => px,
        other => panic!("not RGBA: {other:?}"),
    }
}

/// Parses, checks the generic record properties, decodes with `palette` and `order`, and returns the
/// pixels top row first.
fn decode(bytes: &[u8], palette: Option<&[[u8; 4]]>, order: ChannelOrder) -> Vec<u8> {
    let t = check_record(0x0040, bytes, texture::parse, texture::write);
    check_robustness(bytes, false, |b| texture::parse(b, 0).and_then(|t| to_image(&t, palette, order)).map(|_| ()));
    let img = to_image(&t, palette, order).unwrap();
    assert_eq!((img.frames[0].width, img.frames[0].height), (t.width, t.height));
    assert_eq!(img.frames[0].role, FrameRole::Frame);
    assert_eq!(img.frame_rate, None);
    rgba(&img).to_vec()
}

#[test]
fn header_fields_by_name() {
    let h = H { fps: 15, flags: 0x80 | 0x40, ..H0 };
    let bytes = tex(H { pitch: 6, ..h }, &[0; 12], None);
    let t = check_record(0x0040, &bytes, texture::parse, texture::write);
    assert_eq!((t.width, t.height, t.pitch, t.bits_per_pixel, t.alpha_bits), (2, 2, 6, 24, 0));
    assert_eq!(t.colour_key, 0xFFFF_FFFF);
    assert_eq!((t.mip_map, t.alternate, t.bump_map, t.material), (r(0x11, 1), r(0x22, 2), r(0x33, 3), r(0x44, 4)));
    assert_eq!((t.animation_fps, t.flags.value, t.mip_map_number, t.ref_count), (15, 0xC0, 0x10, 7));
    assert_eq!((t.compression_level, t.compressed_size), (0, 12));
    assert_eq!(t.data.0, vec![0; 12]);
    assert_eq!(t.data_offset, 54);
    let json = serde_json::to_value(&t).unwrap();
    assert_eq!(json["flags"]["names"], serde_json::json!(["dynamic", "keep_high_quality"]));
}

#[test]
fn eight_bpp_through_the_palette_with_pitch_and_colour_key() {
    let palette = [[10, 20, 30, 5], [0x11, 0x22, 0x33, 0], [200, 100, 50, 0]];
    // 3 × 2, pitch 4: each stored row has one byte of padding (0xEE). Stored bottom row first.
    let stored = [0, 1, 2, 0xEE, 2, 2, 0, 0xEE];
    let bytes = tex(H { w: 3, h: 2, pitch: 4, bpp: 8, key: 0x0011_2233, ..H0 }, &stored, None);
    let px = decode(&bytes, Some(&palette), ChannelOrder::Rgba);
    #[rustfmt::skip]
    assert_eq!(px, [
        200, 100, 50, 255,  200, 100, 50, 255,  10, 20, 30, 255,     // top row = stored row 1
        10, 20, 30, 255,    0x11, 0x22, 0x33, 0,  200, 100, 50, 255, // keyed colour 1 is transparent
    ]);
    // Compressed the same pixels decode the same.
    let z = tex(H { w: 3, h: 2, pitch: 4, bpp: 8, key: 0x0011_2233, level: 9, ..H0 }, &stored, None);
    assert_eq!(decode(&z, Some(&palette), ChannelOrder::Rgba), px);
    // Without a palette, or with one too short, 8 bpp cannot be decoded.
    let t = texture::parse(&bytes, 0).unwrap();
    assert!(matches!(to_image(&t, None, ChannelOrder::Rgba), Err(relic::Error::Unsupported(_))));
    let err = to_image(&t, Some(&palette[..2]), ChannelOrder::Rgba).unwrap_err();
    assert!(err.to_string().contains("uses colour 2, the palette has 2"), "{err}");
}

#[test]
fn sixteen_bpp_565_without_flag_2_whatever_the_alpha_bits() {
    let words: [u16; 4] = [0xF800, 0x07E0, 0x8410, 0x1234];
    let stored: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    // 2 × 2; the colour key (pure red) is ignored at 16 bpp; alpha bits 4 without flag 0x02 are ignored.
    let bytes = tex(H { bpp: 16, pitch: 4, alpha_bits: 4, key: 0x00FF_0000, ..H0 }, &stored, None);
    #[rustfmt::skip]
    assert_eq!(decode(&bytes, None, ChannelOrder::Rgba), [
        131, 129, 131, 255,  16, 68, 164, 255, // stored row 1 (0x8410, 0x1234)
        255, 0, 0, 255,      0, 255, 0, 255,   // stored row 0 (0xF800, 0x07E0)
    ]);
    // Flag 0x02 with 0 alpha bits is still 5:6:5.
    let bytes = tex(H { bpp: 16, pitch: 4, flags: 0x02, ..H0 }, &stored, None);
    assert_eq!(&decode(&bytes, None, ChannelOrder::Rgba)[8..], [255, 0, 0, 255, 0, 255, 0, 255]);
}

#[test]
fn sixteen_bpp_alpha_formats_with_flag_2() {
    let one = |alpha_bits: u32, words: [u16; 2]| {
        let stored: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let h = H { w: 2, h: 1, bpp: 16, pitch: 4, alpha_bits, flags: 0x02, level: 6, ..H0 };
        decode(&tex(h, &stored, None), None, ChannelOrder::Rgba)
    };
    // 5:5:5+1: ARRRRRGG GGGBBBBB.
    assert_eq!(one(1, [0xFC00, 0x2AAA]), [255, 0, 0, 255, 82, 172, 82, 0]);
    // 4:4:4+4: AAAARRRR GGGGBBBB.
    assert_eq!(one(4, [0x8F00, 0x5A3C]), [255, 0, 0, 136, 170, 51, 204, 85]);
    // 3:3:2+8: AAAAAAAA RRRGGGBB.
    assert_eq!(one(8, [0x80E0, 0x7F49]), [255, 0, 0, 128, 72, 72, 85, 127]);
    // The same words without flag 0x02 are 5:6:5.
    let stored: Vec<u8> = [0x80E0u16, 0x7F49].iter().flat_map(|w| w.to_le_bytes()).collect();
    let px =
        decode(&tex(H { w: 2, h: 1, bpp: 16, pitch: 4, alpha_bits: 8, ..H0 }, &stored, None), None, ChannelOrder::Rgba);
    assert_eq!(px[3], 255);
    // Unknown alpha bit counts are refused at conversion, not at parsing.
    let bytes = tex(H { w: 2, h: 1, bpp: 16, pitch: 4, alpha_bits: 2, flags: 0x02, ..H0 }, &stored, None);
    let t = texture::parse(&bytes, 0).unwrap();
    assert!(matches!(to_image(&t, None, ChannelOrder::Rgba), Err(relic::Error::Unsupported(_))));
}

#[test]
fn twenty_four_bpp_compressed_with_pitch_and_colour_key() {
    // 2 × 2, pitch 8 (two bytes of padding per row), key 0x00FF00FF (magenta).
    #[rustfmt::skip]
    let stored = [
        255, 0, 255,  1, 2, 3,  0xAA, 0xBB, // bottom row
        4, 5, 6,  255, 0, 254,  0xCC, 0xDD, // top row: (255, 0, 254) is not the key
    ];
    let bytes = tex(H { pitch: 8, key: 0x00FF_00FF, level: 6, ..H0 }, &stored, None);
    let t = texture::parse(&bytes, 0).unwrap();
    assert_eq!(t.compression_level, 6);
    assert_eq!(t.compressed_size as usize, t.data.0.len());
    #[rustfmt::skip]
    assert_eq!(decode(&bytes, None, ChannelOrder::Rgba), [
        4, 5, 6, 255,    255, 0, 254, 255,
        255, 0, 255, 0,  1, 2, 3, 255,
    ]);
    // A stream that inflates to the wrong size is an error naming the data's offset.
    let short = tex(H { pitch: 8, level: 6, ..H0 }, &stored[..15], None);
    let err = to_image(&texture::parse(&short, 0).unwrap(), None, ChannelOrder::Rgba).unwrap_err();
    assert_eq!(err.location().unwrap().offset, 54, "{err}");
    // A pitch shorter than a row is an error.
    let narrow = tex(H { pitch: 5, ..H0 }, &stored[..10], None);
    let err = to_image(&texture::parse(&narrow, 0).unwrap(), None, ChannelOrder::Rgba).unwrap_err();
    assert!(err.to_string().contains("pitch 5"), "{err}");
    // A 1 × 1 texture whose pitch asks for a gigabyte of rows (issue #23): refused before anything is
    // inflated, whatever the stream holds (here 100 zero bytes that would inflate to the declared size).
    let huge = tex(H { w: 1, h: 1, pitch: 1_000_000_000, level: 9, ..H0 }, &[0; 100], None);
    let err = to_image(&texture::parse(&huge, 0).unwrap(), None, ChannelOrder::Rgba).unwrap_err();
    assert!(err.to_string().contains("pitch 1000000000 is more than twice a row of 1 × 3 bytes"), "{err}");
    // Twice the row, or 64 bytes for a tiny texture, is padding enough and is read.
    let padded = tex(H { w: 1, h: 1, pitch: 67, ..H0 }, &[9; 67], None);
    assert_eq!(decode(&padded, None, ChannelOrder::Rgba), [9, 9, 9, 255]);
}

#[test]
fn thirty_two_bpp_in_both_orders() {
    let stored = [1, 2, 3, 4, 5, 6, 7, 8];
    let h = H { w: 1, h: 2, pitch: 4, bpp: 32, alpha_bits: 8, ..H0 };
    let bytes = tex(h, &stored, None);
    assert_eq!(decode(&bytes, None, ChannelOrder::Rgba), [5, 6, 7, 8, 1, 2, 3, 4]);
    assert_eq!(decode(&bytes, None, ChannelOrder::Bgra), [7, 6, 5, 8, 3, 2, 1, 4]);
    // Without 8 alpha bits the fourth byte is unused: opaque.
    let bytes = tex(H { alpha_bits: 0, level: 1, ..h }, &stored, None);
    assert_eq!(decode(&bytes, None, ChannelOrder::Rgba), [5, 6, 7, 255, 1, 2, 3, 255]);
    assert_eq!(decode(&bytes, None, ChannelOrder::Bgra), [7, 6, 5, 255, 3, 2, 1, 255]);
    assert_eq!(serde_json::to_string(&ChannelOrder::Bgra).unwrap(), "\"bgra\"");
}

#[test]
fn separate_alpha_maps() {
    let stored = [10, 20, 30, 40, 50, 60]; // 2 × 1 at 24 bpp
    let h = H { w: 2, h: 1, pitch: 6, flags: 0x01, ..H0 };
    // One byte per pixel: applied.
    let bytes = tex(h, &stored, Some(&[0x40, 0xFF]));
    let t = texture::parse(&bytes, 0).unwrap();
    assert_eq!(t.alpha_map.as_ref().unwrap().0, vec![0x40, 0xFF]);
    assert_eq!(decode(&bytes, None, ChannelOrder::Rgba), [10, 20, 30, 0x40, 40, 50, 60, 255]);
    // Another size: kept raw, not applied.
    let bytes = tex(h, &stored, Some(&[1, 2, 3]));
    assert_eq!(decode(&bytes, None, ChannelOrder::Rgba), [10, 20, 30, 255, 40, 50, 60, 255]);
    // Compressed texture whose map is a zlib stream of one byte per pixel: applied.
    let map = zlib::compress(&[0x00, 0x80], 9);
    let bytes = tex(H { level: 9, ..h }, &stored, Some(&map));
    assert_eq!(decode(&bytes, None, ChannelOrder::Rgba), [10, 20, 30, 0, 40, 50, 60, 0x80]);
    // The colour key stays transparent under an opaque map.
    let bytes = tex(H { key: 0x0028_323C, ..h }, &stored, Some(&[0xFF, 0xFF]));
    assert_eq!(decode(&bytes, None, ChannelOrder::Rgba), [10, 20, 30, 255, 40, 50, 60, 0]);
}

#[test]
fn trailing_bytes_and_bad_depths() {
    let mut bytes = tex(H { w: 1, h: 1, pitch: 3, ..H0 }, &[1, 2, 3], None);
    bytes.extend_from_slice(&[0xDE, 0xAD]);
    let t = check_record(0x0040, &bytes, texture::parse, texture::write);
    assert_eq!(t.trailing.0, vec![0xDE, 0xAD]);
    let bytes = tex(H { w: 1, h: 1, pitch: 2, bpp: 12, ..H0 }, &[1, 2], None);
    let t = check_record(0x0040, &bytes, texture::parse, texture::write);
    assert!(matches!(to_image(&t, None, ChannelOrder::Rgba), Err(relic::Error::Unsupported(_))));
    // A truncated header names its field.
    let err = texture::parse(&bytes[..30], 0x100).unwrap_err();
    assert_eq!(err.location().unwrap().field, "texture.bump_map");
}

fn frame(id: u16, fps: u8, flags: u8, colour: [u8; 3]) -> (u16, Texture) {
    let bytes = tex(H { w: 2, h: 1, pitch: 6, fps, flags, ..H0 }, &[colour, colour].concat(), None);
    (id, texture::parse(&bytes, 0).unwrap())
}

#[test]
fn consecutive_next_frames_form_animations() {
    let textures = [
        frame(8, 0, 0x00, [8, 8, 8]),
        frame(6, 0, 0x20, [6, 6, 6]),
        frame(5, 10, 0x00, [5, 5, 5]),
        frame(7, 3, 0x20, [7, 7, 7]),
        frame(10, 0, 0x20, [10, 10, 10]), // no texture 9: starts a group
        frame(11, 0, 0x20, [11, 11, 11]),
        frame(13, 0, 0x20, [13, 13, 13]),
    ];
    let refs: Vec<(u16, &Texture)> = textures.iter().map(|(id, t)| (*id, t)).collect();
    let groups = animation_groups(&refs);
    let ids: Vec<(Vec<u16>, u8)> = groups.iter().map(|g| (g.ids.clone(), g.fps)).collect();
    assert_eq!(ids, vec![(vec![5, 6, 7], 10), (vec![8], 0), (vec![10, 11], 0), (vec![13], 0)]);

    let by_id = |id: u16| &textures.iter().find(|(i, _)| *i == id).unwrap().1;
    let frames: Vec<&Texture> = groups[0].ids.iter().map(|&id| by_id(id)).collect();
    let img = animation_to_image(&frames, None, ChannelOrder::Rgba).unwrap();
    assert_eq!(img.frame_rate, Some(10.0));
    assert_eq!(img.frames.len(), 3);
    let out = relic::export::png::encode_image(&img).unwrap();
    let suffixes: Vec<&str> = out.iter().map(|e| e.suffix.as_str()).collect();
    assert_eq!(suffixes, ["", ".frame0", ".frame1", ".frame2"]);

    // The APNG, decoded by the png crate: 3 frames of 2 × 1 at 1/10 s each.
    let mut reader = png::Decoder::new(std::io::Cursor::new(&out[0].bytes)).read_info().unwrap();
    assert_eq!(reader.info().animation_control.unwrap().num_frames, 3);
    for v in [5u8, 6, 7] {
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (2, 1));
        assert_eq!(&buf[..info.buffer_size()], [v, v, v, 255, v, v, v, 255]);
        let fctl = reader.info().frame_control.unwrap();
        assert_eq!((fctl.delay_num, fctl.delay_den), (1, 10));
    }
    pillow_reads_the_apng(&out[0].bytes, 3);

    // A frame rate of 0 gives no animation timing (no APNG).
    let still = animation_to_image(&[by_id(8), by_id(10)], None, ChannelOrder::Rgba).unwrap();
    assert_eq!(still.frame_rate, None);
}

/// Opens the APNG with Python's Pillow when it is installed: frame count and the first pixel of each frame.
fn pillow_reads_the_apng(bytes: &[u8], frames: usize) {
    let python = std::process::Command::new("python3").args(["-c", "import PIL"]).output();
    if !python.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped the Pillow check of the APNG: python3 with Pillow (PIL) is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("anim.png");
    std::fs::write(&path, bytes).unwrap();
    let script = "import sys\nfrom PIL import Image\nim = Image.open(sys.argv[1])\nprint(im.n_frames)\n\
                  for i in range(im.n_frames):\n    im.seek(i)\n    print(im.convert('RGBA').getpixel((0, 0)))\n";
    let out = std::process::Command::new("python3").args(["-c", script]).arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], frames.to_string());
    assert_eq!(&lines[1..], ["(5, 5, 5, 255)", "(6, 6, 6, 255)", "(7, 7, 7, 255)"]);
}

// ---------------------------------------------------------------------------------------------------------
// Writing pixels back (`relic pack` of edited PNGs): `texture::encode_rgba`

/// `encode_rgba` of the parsed body; the texture's new body and the notes.
fn encode(
    bytes: &[u8],
    w: u32,
    h: u32,
    px: &[u8],
    palette: Option<&[[u8; 4]]>,
    order: ChannelOrder,
) -> (Texture, Vec<String>) {
    let t = texture::parse(bytes, 0).unwrap();
    let done = texture::encode_rgba(&t, w, h, px, palette, order).unwrap();
    // What is written reads back as what was encoded.
    let back = texture::parse(&texture::write(&done.texture), 0).unwrap();
    assert_eq!(texture::write(&back), texture::write(&done.texture));
    (done.texture, done.notes)
}

fn pixels_of(t: &Texture, palette: Option<&[[u8; 4]]>, order: ChannelOrder) -> Vec<u8> {
    rgba(&to_image(t, palette, order).unwrap()).to_vec()
}

#[test]
fn sixteen_bit_layouts_encode_changed_pixels_and_keep_every_other_byte() {
    // 2 × 1 with a pitch of 6: two padding bytes (0xEE) that must survive.
    let stored = [0x34, 0x12, 0x78, 0x56, 0xEE, 0xEE];
    // (The second stored pixel, 0x5678, is transparent in 5:5:5+1: a transparent edit there would be no edit.)
    for (alpha_bits, flags, new, word) in [
        (0, 0x00, [255, 0, 0, 255], 0xF800u16),      // 5:6:5
        (1, 0x02, [0, 0, 255, 255], 0x801F),         // 5:5:5+1
        (4, 0x02, [0x11, 0x22, 0x33, 0x44], 0x4123), // 4:4:4+4
        (8, 0x02, [255, 0, 255, 0x80], 0x80E3),      // 3:3:2+8
    ] {
        let h = H { w: 2, h: 1, pitch: 6, bpp: 16, alpha_bits, flags, ..H0 };
        let bytes = tex(h, &stored, None);
        let mut px = decode(&bytes, None, ChannelOrder::Rgba);
        px[4..8].copy_from_slice(&new);
        let (t, notes) = encode(&bytes, 2, 1, &px, None, ChannelOrder::Rgba);
        let w = word.to_le_bytes();
        assert_eq!(t.data.0, [0x34, 0x12, w[0], w[1], 0xEE, 0xEE], "alpha bits {alpha_bits}");
        assert_eq!(notes, Vec::<String>::new(), "alpha bits {alpha_bits}");
        assert_eq!(pixels_of(&t, None, ChannelOrder::Rgba), px, "alpha bits {alpha_bits}");
    }
    // 5:6:5 cannot hold every colour: the nearest step is stored, and said.
    let bytes = tex(H { w: 2, h: 1, pitch: 4, bpp: 16, ..H0 }, &stored[..4], None);
    let mut px = decode(&bytes, None, ChannelOrder::Rgba);
    px[0..4].copy_from_slice(&[100, 100, 100, 255]);
    let (t, notes) = encode(&bytes, 2, 1, &px, None, ChannelOrder::Rgba);
    assert_eq!(&t.data.0[..2], &0x632Cu16.to_le_bytes());
    assert_eq!(
        notes,
        ["1 pixel(s) cannot be stored exactly in 16 bpp 5:6:5: the first, (0, 0), #646464ff is stored as #626562ff"]
    );
}

#[test]
fn eight_bit_takes_the_nearest_palette_colour_and_keeps_the_key_for_transparency() {
    let palette = [[0, 0, 0, 0], [255, 0, 255, 0], [200, 0, 0, 0], [0, 0, 200, 0]];
    // 3 × 1, colour key magenta (palette entry 1), zlib.
    let h = H { w: 3, h: 1, pitch: 3, bpp: 8, key: 0x00FF_00FF, level: 6, ..H0 };
    let bytes = tex(h, &[0, 0, 0], None);
    let px = [210, 10, 0, 255, 9, 9, 9, 0, 250, 0, 250, 255];
    let (t, notes) = encode(&bytes, 3, 1, &px, Some(&palette), ChannelOrder::Rgba);
    // Nearest red; the key's entry for the transparent pixel; an opaque near-magenta avoids the key.
    assert_eq!(t.pixel_bytes().unwrap().as_ref(), [2, 1, 2]);
    assert_eq!(t.compression_level, 6);
    assert_eq!(t.compressed_size as usize, t.data.0.len());
    assert_eq!(pixels_of(&t, Some(&palette), ChannelOrder::Rgba), [200, 0, 0, 255, 255, 0, 255, 0, 200, 0, 0, 255]);
    assert_eq!(
        notes,
        ["2 pixel(s) cannot be stored exactly in 8 bpp (palette) (colours not in the .txd's palette take its nearest \
             colour): the first, (0, 0), #d20a00ff is stored as #c80000ff"]
    );
    // Without its palette it cannot be encoded.
    let t = texture::parse(&bytes, 0).unwrap();
    let err = texture::encode_rgba(&t, 3, 1, &px, None, ChannelOrder::Rgba).unwrap_err();
    assert!(err.to_string().contains("needs its .txd's palette"), "{err}");
}

#[test]
fn twenty_four_bit_with_colour_key_and_alpha_maps() {
    let h = H { w: 2, h: 1, pitch: 6, key: 0x0010_2030, ..H0 };
    let bytes = tex(h, &[1, 1, 1, 2, 2, 2], None);
    let (t, notes) = encode(&bytes, 2, 1, &[5, 6, 7, 0, 2, 2, 2, 255], None, ChannelOrder::Rgba);
    assert_eq!(t.data.0, [0x10, 0x20, 0x30, 2, 2, 2], "transparent: the key colour");
    assert!(notes.is_empty(), "{notes:?}");
    // A raw alpha map (one byte a pixel) takes the alpha.
    let h = H { w: 2, h: 1, pitch: 6, flags: 0x01, ..H0 };
    let bytes = tex(h, &[1, 1, 1, 2, 2, 2], Some(&[0xFF, 0xFF]));
    let (t, _) = encode(&bytes, 2, 1, &[9, 8, 7, 0x40, 2, 2, 2, 255], None, ChannelOrder::Rgba);
    assert_eq!(
        (t.data.0.as_slice(), t.alpha_map.as_ref().unwrap().0.as_slice()),
        (&[9, 8, 7, 2, 2, 2][..], &[0x40, 0xFF][..])
    );
    // A zlib alpha map of a compressed texture is compressed again.
    let bytes = tex(H { level: 9, ..h }, &[1, 1, 1, 2, 2, 2], Some(&zlib::compress(&[0xFF, 0xFF], 9)));
    let (t, _) = encode(&bytes, 2, 1, &[1, 1, 1, 255, 2, 2, 2, 0x10], None, ChannelOrder::Rgba);
    assert_eq!(t.alpha_map_values().unwrap().as_ref(), [0xFF, 0x10]);
    assert_eq!(pixels_of(&t, None, ChannelOrder::Rgba), [1, 1, 1, 255, 2, 2, 2, 0x10]);
    // An alpha map of unknown layout: the same size keeps it, another size is refused.
    let bytes = tex(h, &[1, 1, 1, 2, 2, 2], Some(&[1, 2, 3]));
    let (t, _) = encode(&bytes, 2, 1, &[3, 3, 3, 255, 2, 2, 2, 255], None, ChannelOrder::Rgba);
    assert_eq!(t.alpha_map.as_ref().unwrap().0, [1, 2, 3]);
    let err =
        texture::encode_rgba(&texture::parse(&bytes, 0).unwrap(), 1, 1, &[0; 4], None, ChannelOrder::Rgba).unwrap_err();
    assert!(err.to_string().contains("alpha map has a layout relic does not know"), "{err}");
}

#[test]
fn thirty_two_bit_in_its_order_keeping_the_unused_byte() {
    // 1 × 2, no alpha bits: the fourth byte is unused and kept where the size is kept.
    let h = H { w: 1, h: 2, pitch: 4, bpp: 32, ..H0 };
    let bytes = tex(h, &[1, 2, 3, 0x77, 5, 6, 7, 0x88], None);
    // The top row is stored second.
    let (t, _) = encode(&bytes, 1, 2, &[10, 20, 30, 255, 3, 2, 1, 255], None, ChannelOrder::Bgra);
    assert_eq!(t.data.0, [1, 2, 3, 0x77, 30, 20, 10, 0x88]);
    // A new size: new pixels' fourth byte is 0xFF.
    let (t, _) = encode(&bytes, 2, 1, &[10, 20, 30, 255, 40, 50, 60, 255], None, ChannelOrder::Rgba);
    assert_eq!((t.width, t.height, t.pitch), (2, 1, 8));
    assert_eq!(t.data.0, [10, 20, 30, 0xFF, 40, 50, 60, 0xFF]);
    assert_eq!(t.compressed_size, 8, "at level 0 the size field followed pitch × height");
    // With 8 alpha bits the fourth byte is alpha.
    let bytes = tex(H { alpha_bits: 8, ..h }, &[1, 2, 3, 4, 5, 6, 7, 8], None);
    let (t, _) = encode(&bytes, 1, 2, &[5, 6, 7, 0x42, 3, 2, 1, 4], None, ChannelOrder::Rgba);
    assert_eq!(t.data.0, [3, 2, 1, 4, 5, 6, 7, 0x42]);
}

#[test]
fn a_new_size_rewrites_the_header_and_formats_relic_cannot_write_are_refused() {
    let bytes = tex(H { w: 2, h: 2, pitch: 4, bpp: 16, level: 9, ..H0 }, &[0; 8], None);
    let px: Vec<u8> = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]].concat();
    let (t, notes) = encode(&bytes, 3, 1, &px, None, ChannelOrder::Rgba);
    assert_eq!((t.width, t.height, t.pitch, t.compression_level), (3, 1, 6, 9));
    assert_eq!(
        zlib::inflate_exact(&t.data.0, 6, zlib::At { format: "t", field: "d", offset: 0 }).unwrap(),
        [0, 0xF8, 0xE0, 0x07, 0x1F, 0]
    );
    assert_eq!(t.compressed_size as usize, t.data.0.len());
    assert_eq!(pixels_of(&t, None, ChannelOrder::Rgba), px);
    assert_eq!(
        notes,
        [
            "a width of 3: Drakan's editor makes only 32, 64, 128 or 256",
            "its mip map (texture 1:17) keeps its own size"
        ]
    );
    for (h, why) in [
        (H { w: 1, h: 1, pitch: 2, bpp: 12, ..H0 }, "relic cannot encode 12-bpp textures"),
        (H { w: 1, h: 1, pitch: 2, bpp: 16, alpha_bits: 3, flags: 0x02, ..H0 }, "3 alpha bits"),
    ] {
        let t = texture::parse(&tex(h, &[0, 0], None), 0).unwrap();
        let err = texture::encode_rgba(&t, 1, 1, &[0; 4], None, ChannelOrder::Rgba).unwrap_err();
        assert!(err.to_string().contains(why), "{err}");
    }
}
