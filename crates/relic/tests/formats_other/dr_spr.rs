//! Dark Reign sprites: `dr-spr` (RSPR/SSPR/LSPR) and the spec's headerless `dr-ftg-spr`, proven on files
//! built by hand from the spec's tables ("SPR Sprite Format", "FTG-bundled SPR Format") with the Dark Reign
//! points of docs/formats/dark-reign.md#spr, independently of relic's writer:
//! - header, 32 bytes: magic, int32 version (0x0210; 0x0200 too), nanims, nrots, szx, szy, npics, nsects;
//! - at 32 `picnr[nanims · nrots]` (picture of anim a, rotation r at a · nrots + r), then nsects 16-byte
//!   sections (firstanim, lastanim, 16.16 rate, numhotspots), `anims[nanims]`, npics (picoff, hotoff)
//!   pairs and a 4-byte end marker; pixel data at `off_bits = off_picoffs + 8 · npics + 4`;
//! - scanlines: counts alternate from a transparent one (8 bits) to opaque ones (`& 0x7F`, followed by that
//!   many indices unless SSPR), each line ending exactly at the width;
//! - at `off_bits` + end marker: int32 count, then 3-byte (x, y, flag) hotspot records; a picture's are
//!   `hotoff ..` for its section's numhotspots.

use std::path::{Path, PathBuf};

use relic::codec::palette::Palette;
use relic::dark_reign::ftg_spr;
use relic::dark_reign::spr::{self, paint, rle, Magic};
use relic::ops::{self, ConvertRequest, PackOptions, Quiet};
use relic::registry::ConvertOptions;

// =========================================================================================================
// Hand-made fixtures

/// One scanline: its stored bytes and the pixels it decodes to.
type Line = (Vec<u8>, Vec<u8>);

const W: usize = 140;

/// A transparent line: one skip of the whole width.
fn blank() -> Line {
    (vec![W as u8], vec![0; W])
}

/// An opaque line of 140 pixels: a zero skip (the line starts opaque), 127 pixels, a zero skip, 13 more
/// (a run longer than 127 split across steps).
fn solid(seed: u8) -> Line {
    let px: Vec<u8> = (0..W).map(|x| (x as u8).wrapping_mul(3).wrapping_add(seed) | 1).collect();
    let mut bytes = vec![0, 127];
    bytes.extend(&px[..127]);
    bytes.extend([0, 13]);
    bytes.extend(&px[127..]);
    (bytes, px)
}

/// Skip 5, three pixels, skip 132.
fn dots(a: u8) -> Line {
    let mut px = vec![0; W];
    px[5..8].copy_from_slice(&[a, a + 1, a + 2]);
    (vec![5, 3, a, a + 1, a + 2, 132], px)
}

/// Skip 10, an opaque count 0x82 (high bit set: 2 pixels), skip 128.
fn flagged() -> Line {
    let mut px = vec![0; W];
    px[10..12].copy_from_slice(&[200, 201]);
    (vec![10, 0x82, 200, 201, 128], px)
}

/// A picture of lines: (bytes, pixels).
fn picture(lines: &[Line]) -> (Vec<u8>, Vec<u8>) {
    (lines.iter().flat_map(|l| l.0.clone()).collect(), lines.iter().flat_map(|l| l.1.clone()).collect())
}

/// Writes an SPR file from the spec's tables. Pictures are (bytes, picoff, hotoff); `bits` is the whole
/// pixel data (its length is the end marker).
#[derive(Clone, Copy)]
struct SprFile<'a> {
    magic: &'a [u8; 4],
    version: i32,
    nanims: i32,
    nrots: i32,
    szx: i32,
    szy: i32,
    picnr: &'a [i32],
    sections: &'a [[i32; 4]],
    anims: &'a [i32],
    table: &'a [(i32, i32)],
    bits: &'a [u8],
    hotspots: &'a [[u8; 3]],
    trailing: &'a [u8],
}

impl SprFile<'_> {
    fn bytes(&self) -> Vec<u8> {
        let mut out = self.magic.to_vec();
        let mut int = |v: i32| out.extend(v.to_le_bytes());
        for v in [self.version, self.nanims, self.nrots, self.szx, self.szy, self.table.len() as i32] {
            int(v);
        }
        int(self.sections.len() as i32);
        self.picnr.iter().for_each(|&v| int(v));
        self.sections.iter().flatten().for_each(|&v| int(v));
        self.anims.iter().for_each(|&v| int(v));
        for &(picoff, hotoff) in self.table {
            int(picoff);
            int(hotoff);
        }
        int(self.bits.len() as i32);
        let off_bits =
            32 + 4 * self.picnr.len() + 16 * self.sections.len() + 4 * self.anims.len() + 8 * self.table.len() + 4;
        assert_eq!(out.len(), off_bits, "off_bits as the spec computes it");
        out.extend(self.bits);
        out.extend((self.hotspots.len() as i32).to_le_bytes());
        out.extend(self.hotspots.iter().flatten());
        out.extend(self.trailing);
        out
    }

    /// The file as the spec lays it out: it ends right after the pixel data, with no hotspot table (and so
    /// no count, records or trailing bytes).
    fn bytes_without_hotspot_table(&self) -> Vec<u8> {
        let mut out = SprFile { hotspots: &[], trailing: &[], ..*self }.bytes();
        out.truncate(out.len() - 4);
        out
    }
}

/// The six pictures of the RSPR fixture (140 × 3).
fn rspr_pictures() -> Vec<(Vec<u8>, Vec<u8>)> {
    vec![
        picture(&[blank(), dots(10), solid(1)]),
        picture(&[dots(20), blank(), blank()]),
        picture(&[solid(2), solid(3), dots(30)]),
        picture(&[flagged(), blank(), dots(40)]),
        picture(&[blank(), blank(), blank()]),
        picture(&[dots(50), flagged(), blank()]),
    ]
}

/// Anim-index table: anims 0 and 1 (section 0) and anim 2 (section 1), four rotations each.
const PICNR: [i32; 12] = [0, 1, 2, 3, 1, 2, 3, 4, 5, 5, 0, 4];
const HOTOFF: [i32; 6] = [0, 2, 3, 4, 5, 7];
const HOTSPOTS: [[u8; 3]; 9] =
    [[70, 1, 0], [100, 1, 1], [71, 1, 0], [72, 2, 0], [73, 0, 0], [74, 1, 0], [10, 2, 2], [75, 1, 0], [20, 0, 3]];

/// An RSPR: 140 × 3, 3 anims, 4 rotations, 6 pictures packed in table order, 2 sections (the second with
/// two hotspots per picture), 9 hotspot records.
fn rspr() -> Vec<u8> {
    rspr_file(|f| f.bytes())
}

/// The tables of [`rspr`], handed to `build`.
fn rspr_file<R>(build: impl FnOnce(SprFile<'_>) -> R) -> R {
    let pics = rspr_pictures();
    let mut bits = Vec::new();
    let mut table = Vec::new();
    for (p, hotoff) in pics.iter().zip(HOTOFF) {
        table.push((bits.len() as i32, hotoff));
        bits.extend(&p.0);
    }
    build(SprFile {
        magic: b"RSPR",
        version: 0x0210,
        nanims: 3,
        nrots: 4,
        szx: W as i32,
        szy: 3,
        picnr: &PICNR,
        sections: &[[0, 1, 19660, 1], [2, 2, 65536, 2]],
        anims: &[0, 0, 1],
        table: &table,
        bits: &bits,
        hotspots: &HOTSPOTS,
        trailing: &[],
    })
}

/// The SSPR fixture's pictures (4 × 2): bytes and the 0 / 1 mask they decode to.
fn sspr_pictures() -> Vec<(Vec<u8>, Vec<u8>)> {
    vec![
        (vec![0, 4, 1, 2, 1], vec![1, 1, 1, 1, 0, 1, 1, 0]),
        (vec![4, 4], vec![0; 8]),
        (vec![2, 0x82, 0, 1, 3], vec![0, 0, 1, 1, 1, 0, 0, 0]),
    ]
}

/// An SSPR (no pixel bytes) whose pictures are stored out of table order with a non-zero byte between
/// them, hotoff garbage (no section has hotspots), no hotspot records and two trailing bytes.
fn sspr() -> Vec<u8> {
    let p = sspr_pictures();
    // p1 at 0, a stray 0xEE, p0 at 3, p2 at 8; the end marker leaves one zero byte after p2.
    let mut bits = p[1].0.clone();
    bits.push(0xEE);
    bits.extend(&p[0].0);
    bits.extend(&p[2].0);
    bits.push(0);
    SprFile {
        magic: b"SSPR",
        version: 0x0210,
        nanims: 2,
        nrots: 2,
        szx: 4,
        szy: 2,
        picnr: &[0, 1, 2, 0],
        sections: &[[0, 1, 19660, 0]],
        anims: &[0, 0],
        table: &[(3, -1), (0, 12345), (8, 0)],
        bits: &bits,
        hotspots: &[],
        trailing: b"XY",
    }
    .bytes()
}

/// An LSPR, version 0x0200: one 2 × 1 picture whose opaque run stores index 0 (`0, 2, 5, 0`).
fn lspr() -> Vec<u8> {
    SprFile {
        magic: b"LSPR",
        version: 0x0200,
        nanims: 1,
        nrots: 1,
        szx: 2,
        szy: 1,
        picnr: &[0],
        sections: &[[0, 0, 19660, 1]],
        anims: &[0],
        table: &[(0, 0)],
        bits: &[0, 2, 5, 0],
        hotspots: &[[1, 0, 0]],
        trailing: &[],
    }
    .bytes()
}

/// A palette whose entry i is (i, 255 − i, i / 2), opaque (the reader makes 0 transparent).
fn palette() -> Palette {
    Palette { colors: (0..=255u8).map(|i| [i, 255 - i, i / 2, 255]).collect() }
}

fn rgba_of(pixels: &[u8]) -> Vec<u8> {
    pixels.iter().flat_map(|&i| if i == 0 { [0, 0, 0, 0] } else { [i, 255 - i, i / 2, 255] }).collect()
}

// =========================================================================================================
// Reading

#[test]
fn rspr_tables_and_pictures_read_as_the_spec_lays_them_out() {
    let doc = spr::parse(&rspr()).unwrap();
    assert_eq!(
        (doc.magic, doc.version, doc.anims, doc.rotations, doc.width, doc.height),
        (Magic::Rspr, 0x0210, 3, 4, 140, 3)
    );
    assert_eq!(doc.picture_of_frames, PICNR);
    assert_eq!(doc.sections.len(), 2);
    assert_eq!(
        (doc.sections[1].first_anim, doc.sections[1].last_anim, doc.sections[1].rate, doc.sections[1].hotspots),
        (2, 2, 65536, 2)
    );
    assert_eq!(doc.anim_sections, [0, 0, 1]);
    assert_eq!(doc.hotspots.len(), 9);
    assert_eq!((doc.hotspots[6].x, doc.hotspots[6].y, doc.hotspots[6].flag), (10, 2, 2));
    assert!(doc.layout.is_none(), "pictures packed in table order need no stored layout");
    for (i, (p, expect)) in doc.pictures.iter().zip(rspr_pictures()).enumerate() {
        assert_eq!(p.pixels.as_ref().unwrap().0, expect.1, "picture {i}");
        assert_eq!(p.hotspot_index, HOTOFF[i]);
        // Only the pictures with a high-bit opaque count keep their counts.
        assert_eq!(p.runs.is_some(), i == 3 || i == 5, "picture {i}");
    }
    assert_eq!(doc.pictures[3].runs.as_ref().unwrap().0, [10, 0x82, 128, 140, 5, 3, 132]);
}

#[test]
fn sspr_opaque_runs_carry_no_bytes_and_the_stored_layout_is_kept() {
    let doc = spr::parse(&sspr()).unwrap();
    assert_eq!(doc.magic, Magic::Sspr);
    for (p, expect) in doc.pictures.iter().zip(sspr_pictures()) {
        assert_eq!(p.pixels.as_ref().unwrap().0, expect.1);
    }
    let layout = doc.layout.as_ref().unwrap();
    assert_eq!(layout.placement(), Some((&[3, 0, 8][..], 14)));
    assert!(layout.hotspot_table);
    assert_eq!(layout.gaps.len(), 1);
    assert_eq!((layout.gaps[0].offset, layout.gaps[0].bytes.0.as_slice()), (2, &[0xEE][..]));
    assert_eq!(doc.pictures[1].hotspot_index, 12345);
    assert_eq!(doc.trailing.as_ref().unwrap().0, b"XY");
}

#[test]
fn lspr_0200_reads_as_a_normal_sprite_and_keeps_an_index_0_run() {
    let doc = spr::parse(&lspr()).unwrap();
    assert_eq!((doc.magic, doc.version), (Magic::Lspr, 0x0200));
    assert_eq!(doc.pictures[0].pixels.as_ref().unwrap().0, [5, 0]);
    assert_eq!(doc.pictures[0].runs.as_ref().unwrap().0, [0, 2], "relic would write 0, 1, 5, 1");
}

#[test]
fn every_fixture_writes_back_byte_for_byte() {
    for bytes in [rspr(), sspr(), lspr()] {
        let doc = spr::parse(&bytes).unwrap();
        assert_eq!(spr::write_document(&doc).unwrap(), bytes);
        let codec = &spr::FORMAT;
        let text = relic::export::json::to_pretty(&codec.to_json(&bytes).unwrap()).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&text).unwrap();
        assert_eq!(codec.from_json(value, &Default::default()).unwrap(), bytes);
    }
}

#[test]
fn bad_files_are_named_errors() {
    let err = |bytes: &[u8]| spr::parse(bytes).unwrap_err();
    let mut b = rspr();
    b[0] = b'X';
    assert_eq!(err(&b).location().unwrap().field, "magic");
    let mut b = rspr();
    b[4] = 0x11;
    let e = err(&b);
    assert_eq!((e.location().unwrap().field.as_str(), e.location().unwrap().offset), ("version", 4));
    // picoff of picture 2 past the pixel data.
    let mut b = rspr();
    let at = 32 + 48 + 32 + 12 + 16;
    b[at..at + 4].copy_from_slice(&100_000i32.to_le_bytes());
    let e = err(&b);
    assert_eq!((e.location().unwrap().field.as_str(), e.location().unwrap().offset), ("picoffs[2].picoff", at as u64));
    // A run past the width names the picture.
    let mut b = lspr();
    let n = b.len();
    b[n - 4 - 3 - 4 + 1] = 3;
    assert!(err(&b).location().unwrap().field.starts_with("pictures[0]"), "{}", err(&b));
    // A picnr that is no picture fails the conversion, naming the entry.
    let mut b = rspr();
    b[32 + 4 * 5..32 + 4 * 6].copy_from_slice(&6i32.to_le_bytes());
    let e = spr::to_assets(&b, &palette(), &ConvertOptions::default()).unwrap_err();
    assert_eq!((e.location().unwrap().field.as_str(), e.location().unwrap().offset), ("picnr[5]", 52));
}

// =========================================================================================================
// Conversion

/// The frames of the RSPR fixture in atlas order: (name, anim, rotation, section).
fn rspr_frames() -> Vec<(String, usize, usize, usize)> {
    let mut out = Vec::new();
    for r in 0..4 {
        for a in 0..2 {
            out.push((format!("0_{r}_{a}"), a, r, 0));
        }
    }
    for r in 0..4 {
        out.push((format!("1_{r}_0"), 2, r, 1));
    }
    out
}

#[test]
fn frames_atlas_and_hotspots_come_out_as_the_spec_places_them() {
    use relic::asset::{Asset, Hotspot, Pixels};
    let assets = spr::to_assets(&rspr(), &palette(), &ConvertOptions::default()).unwrap();
    let pics = rspr_pictures();
    let expected = rspr_frames();
    assert_eq!(assets.len(), expected.len() + 2, "frames, the atlas and the document");
    let Asset::Image(atlas) = &assets[expected.len()].asset else { panic!("the atlas") };
    assert_eq!(assets[expected.len()].name.as_deref(), Some("atlas.view"), "the atlas is a view");
    assert!(assets[expected.len() + 1].name.is_none(), "the document");
    assert_eq!((atlas.frames[0].width, atlas.frames[0].height), (12 * 140, 3));
    let Pixels::Rgba8(atlas_px) = &atlas.frames[0].pixels else { panic!() };
    for (k, (name, a, r, s)) in expected.iter().enumerate() {
        assert_eq!(assets[k].name.as_deref(), Some(name.as_str()));
        let Asset::Image(img) = &assets[k].asset else { panic!() };
        let f = &img.frames[0];
        let picture = PICNR[a * 4 + r] as usize;
        let Pixels::Rgba8(px) = &f.pixels else { panic!() };
        assert_eq!(*px, rgba_of(&pics[picture].1), "{name}");
        for y in 0..3 {
            let row = &atlas_px[(y * 12 * 140 + k * 140) * 4..(y * 12 * 140 + (k + 1) * 140) * 4];
            assert_eq!(row, &px[y * 140 * 4..(y + 1) * 140 * 4], "{name} row {y} in the atlas");
        }
        let hot = |i: usize| {
            let h = HOTSPOTS[HOTOFF[picture] as usize + i];
            Hotspot { x: h[0].into(), y: h[1].into(), flag: h[2].into() }
        };
        let want: Vec<Hotspot> = (0..if *s == 0 { 1 } else { 2 }).map(hot).collect();
        assert_eq!(f.hotspots, want, "{name}");
        assert_eq!(f.offset, (-want[0].x, -want[0].y), "the centre hotspot is the origin");
    }
    let Asset::Document(doc) = &assets[expected.len() + 1].asset else { panic!("the document") };
    let v = &doc.value;
    assert_eq!(v["sections"][0]["frames_per_cycle"], 19660.0 / 65536.0);
    assert_eq!(v["sections"][1]["frames_per_cycle"], 1.0);
    assert_eq!(v["rotation_degrees"], serde_json::json!([0.0, 90.0, 180.0, 270.0]));
    assert_eq!(v["frames"][9]["name"], "1_1_0");
    assert_eq!(v["frames"][9]["atlas"], serde_json::json!({"x": 9 * 140, "y": 0, "width": 140, "height": 3}));
    assert_eq!(v["frames"][9]["degrees"], 90.0);
    // Hotspots: one place per record. Frame 1_0_0 (picture 5, section 1) lists records 7 and 8; 1_1_0 shows
    // picture 5 too and names it; 0_1_0 shows picture 1 as 0_0_1 does. 1_2_0 shows picture 0 in section 1
    // (records 0 and 1), which overlaps 0_0_0's record 0 without being the same records: both list theirs.
    let hot = |x: u8, y: u8, flag: u8, kind: &str| serde_json::json!({"x": x, "y": y, "flag": flag, "kind": kind});
    assert_eq!(v["frames"][8]["hotspots"], serde_json::json!([hot(75, 1, 0, "centre"), hot(20, 0, 3, "explosion")]));
    assert_eq!(v["frames"][9]["hotspots_of"], "1_0_0");
    assert!(v["frames"][9].get("hotspots").is_none());
    assert_eq!(v["frames"][2]["hotspots_of"], "0_0_1");
    assert_eq!(v["frames"][1]["hotspots"], serde_json::json!([hot(71, 1, 0, "centre")]));
    assert_eq!(v["frames"][0]["hotspots"], serde_json::json!([hot(70, 1, 0, "centre")]));
    assert_eq!(v["frames"][10]["hotspots"], serde_json::json!([hot(70, 1, 0, "centre"), hot(100, 1, 1, "turret")]));
    assert_eq!(v["frames"][11]["hotspots"], serde_json::json!([hot(74, 1, 0, "centre"), hot(10, 2, 2, "projectile")]));
    let listed: Vec<bool> = (0..12).map(|k| v["frames"][k].get("hotspots").is_some()).collect();
    assert_eq!(listed, [true, true, false, true, false, true, false, true, true, false, true, true]);
    // The table itself is not in this document, and every record is shown: nothing else lists one.
    assert!(v.get("hotspots").is_none() && v.get("unshown_hotspots").is_none());
    assert_eq!(v["atlas"], serde_json::json!({"width": 12 * 140, "height": 3, "view": "atlas.view.png"}));
    assert_eq!(v["palette"][7], "#07f803ff");
    assert_eq!(v["palette"][0], "#00000000");
    // Every picture is shown by a frame with exact colours: the document leaves the pixels to the PNGs.
    assert!(v["pictures"].as_array().unwrap().iter().all(|p| p.get("pixels").is_none()));
    assert!(v["pictures"][3].get("runs").is_some());
}

#[test]
fn shadows_are_translucent_black_and_index_47_is_just_a_colour() {
    use relic::asset::{Asset, Pixels};
    let assets = spr::to_assets(&sspr(), &palette(), &ConvertOptions::default()).unwrap();
    let Asset::Image(img) = &assets[0].asset else { panic!() };
    let Pixels::Rgba8(px) = &img.frames[0].pixels else { panic!() };
    let s = paint::SHADOW;
    assert_eq!(s, [0, 0, 0, 128]);
    let t = [0u8; 4];
    assert_eq!(px.chunks(4).collect::<Vec<_>>(), [s, s, s, s, t, s, s, t]);
    // An RSPR pixel of index 47 is drawn with palette entry 47.
    let mut b = lspr();
    let n = b.len();
    b[n - 4 - 3 - 4 + 2] = 47;
    let assets = spr::to_assets(&b, &palette(), &ConvertOptions::default()).unwrap();
    let Asset::Image(img) = &assets[0].asset else { panic!() };
    assert_eq!(img.frames[0].pixels, Pixels::Rgba8(vec![47, 208, 23, 255, 0, 0, 0, 0]));
}

// =========================================================================================================
// The encoder

/// A deterministic pseudo-random sprite line generator (xorshift), with long runs.
fn lines(seed: u32, width: usize, height: usize) -> Vec<u8> {
    let mut s = seed.max(1);
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s
    };
    let mut out = Vec::with_capacity(width * height);
    while out.len() < width * height {
        let run = (next() % 400) as usize;
        let opaque = next() % 2 == 0;
        for _ in 0..run.min(width * height - out.len()) {
            out.push(if opaque { (next() % 255 + 1) as u8 } else { 0 });
        }
    }
    out
}

#[test]
fn the_encoder_round_trips_pixels_exactly() {
    for (seed, w, h) in [(1, 300, 7), (2, 1, 5), (3, 128, 4), (4, 256, 3), (5, 600, 2), (6, 0, 3), (7, 3, 0)] {
        let px = lines(seed, w, h);
        for shadow in [false, true] {
            let px: Vec<u8> = if shadow { px.iter().map(|&p| u8::from(p != 0)).collect() } else { px.clone() };
            let bytes = rle::encode(&px, w, shadow);
            let mut r = relic::reader::Reader::new("test", &bytes);
            let dec = rle::decode(&mut r, w, h, shadow).unwrap();
            assert_eq!(dec.pixels, px, "seed {seed} shadow {shadow}");
            assert_eq!(r.remaining(), 0);
        }
    }
}

#[test]
fn a_document_written_from_pixels_reads_back_the_same() {
    let mut doc = spr::parse(&rspr()).unwrap();
    for (i, p) in doc.pictures.iter_mut().enumerate() {
        p.runs = None;
        p.pixels = Some(relic::bytes::Base64(lines(i as u32 + 10, 140, 3)));
    }
    let bytes = spr::write_document(&doc).unwrap();
    let back = spr::parse(&bytes).unwrap();
    assert_eq!(back, doc);
}

// =========================================================================================================
// Through the operations: convert, edit, pack

/// What `relic convert` wrote for one input, found through its report (not through folder names): the
/// JSON document, and every output's path relative to the document's folder, sorted.
struct Converted {
    json: PathBuf,
    dir: PathBuf,
    names: Vec<String>,
}

impl Converted {
    fn at(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn value(&self) -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(&self.json).unwrap()).unwrap()
    }

    fn set_value(&self, value: &serde_json::Value) {
        std::fs::write(&self.json, serde_json::to_vec_pretty(value).unwrap()).unwrap();
    }
}

fn convert(input: &Path, out: &Path, req: &ConvertRequest) -> Converted {
    let report = ops::convert(std::slice::from_ref(&input.to_path_buf()), out, req, &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let outputs: Vec<PathBuf> = report.outputs.iter().map(|o| PathBuf::from(&o.output)).collect();
    let jsons: Vec<&PathBuf> = outputs.iter().filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    assert_eq!(jsons.len(), 1, "one document: {outputs:?}");
    let json = jsons[0].clone();
    let dir = json.parent().unwrap().to_path_buf();
    let mut names: Vec<String> = outputs
        .iter()
        .map(|o| o.strip_prefix(&dir).expect("every output beside the document").to_string_lossy().replace('\\', "/"))
        .collect();
    names.sort();
    Converted { json, dir, names }
}

/// A raw 768-byte RGB palette file of [`palette`].
fn palette_file() -> Vec<u8> {
    palette().colors.iter().flat_map(|c| [c[0], c[1], c[2]]).collect()
}

fn pack(json: &Path, out: &Path) -> (Vec<u8>, Vec<String>) {
    let report = ops::pack("dr-spr", json, out, &PackOptions { force: true, ..Default::default() }).unwrap();
    (std::fs::read(out).unwrap(), report.notes)
}

#[test]
fn convert_then_pack_is_byte_identical_for_every_fixture() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tileset.pal"), palette_file()).unwrap();
    let written = {
        let mut doc = spr::parse(&rspr()).unwrap();
        doc.pictures.iter_mut().for_each(|p| p.runs = None);
        spr::write_document(&doc).unwrap()
    };
    let no_table = rspr_file(|f| f.bytes_without_hotspot_table());
    // A record no frame shows (index 9) is kept, listed by its index.
    let unshown = rspr_file(|f| {
        let mut records = HOTSPOTS.to_vec();
        records.push([99, 9, 1]);
        SprFile { hotspots: &records, trailing: b"T", ..f }.bytes()
    });
    for (stem, bytes) in [
        ("unit", rspr()),
        ("shadow", sspr()),
        ("odd", lspr()),
        ("relic", written),
        ("bare", no_table),
        ("extra", unshown),
    ] {
        let input = dir.path().join(format!("{stem}.spr"));
        std::fs::write(&input, &bytes).unwrap();
        let c = convert(&input, &dir.path().join(format!("out_{stem}")), &ConvertRequest::default());
        assert!(c.names.contains(&"atlas.view.png".to_string()), "{:?}", c.names);
        let (back, notes) = pack(&c.json, &dir.path().join(format!("{stem}.back.spr")));
        assert!(notes.iter().any(|n| n.contains("frame PNGs")), "{notes:?}");
        assert!(!notes.iter().any(|n| n.contains("view")), "an untouched view gives no warning: {notes:?}");
        assert_eq!(back, bytes, "{stem}: convert → pack");
        if stem == "extra" {
            assert_eq!(c.value()["unshown_hotspots"], serde_json::json!([{"index": 9, "x": 99, "y": 9, "flag": 1}]));
        }
        // --to json → pack, without PNGs.
        let out = dir.path().join(format!("json_{stem}"));
        let req = ConvertRequest { to: Some("json".into()), ..Default::default() };
        let c = convert(&input, &out, &req);
        assert_eq!(c.names.len(), 1);
        let (back, _) = pack(&c.json, &dir.path().join(format!("{stem}.json.spr")));
        assert_eq!(back, bytes, "{stem}: --to json → pack");
    }
    let c = convert(&dir.path().join("unit.spr"), &dir.path().join("names"), &ConvertRequest::default());
    let mut want: Vec<String> = rspr_frames().into_iter().map(|f| format!("{}.png", f.0)).collect();
    want.push("atlas.view.png".to_string());
    want.push(c.json.file_name().unwrap().to_string_lossy().into_owned());
    want.sort();
    assert_eq!(c.names, want);
}

#[test]
fn a_sprite_without_a_hotspot_table_reads_as_the_spec_lays_it_out_and_writes_back_so() {
    // The spec's layout: no section has hotspots, and the file ends after the pixel data.
    let bytes =
        rspr_file(|f| SprFile { sections: &[[0, 1, 19660, 0], [2, 2, 65536, 0]], ..f }.bytes_without_hotspot_table());
    let pics = rspr_pictures();
    let total: usize = pics.iter().map(|p| p.0.len()).sum();
    assert_eq!(bytes.len(), 32 + 48 + 32 + 12 + 6 * 8 + 4 + total, "nothing after the pixel data");
    let doc = spr::parse(&bytes).unwrap();
    assert!(doc.hotspots.is_empty() && doc.trailing.is_none());
    let layout = doc.layout.as_ref().expect("the missing table is recorded");
    assert_eq!((layout.hotspot_table, layout.placement()), (false, None), "pictures packed: no offsets stored");
    for (i, (p, expect)) in doc.pictures.iter().zip(&pics).enumerate() {
        assert_eq!(p.pixels.as_ref().unwrap().0, expect.1, "picture {i}");
        assert_eq!(p.hotspot_index, HOTOFF[i]);
    }
    assert_eq!(spr::write_document(&doc).unwrap(), bytes);
    let json = serde_json::to_value(&doc).unwrap();
    assert_eq!(json["layout"], serde_json::json!({"hotspot_table": false}));
    assert_eq!(spr::FORMAT.from_json(json, &Default::default()).unwrap(), bytes);
    let info = spr::FORMAT.info(&bytes).unwrap();
    assert_eq!((info["hotspot_table"].as_bool(), info["hotspot_records"].as_u64()), (Some(false), Some(0)));
    // Sections that claim hotspots, with no table: still a sprite without hotspots.
    let claimed = rspr_file(|f| f.bytes_without_hotspot_table());
    let assets = spr::to_assets(&claimed, &palette(), &ConvertOptions::default()).unwrap();
    use relic::asset::Asset;
    for a in &assets[..12] {
        let Asset::Image(img) = &a.asset else { panic!() };
        assert!(img.frames[0].hotspots.is_empty() && img.frames[0].offset == (0, 0));
    }
    let Asset::Document(d) = &assets[13].asset else { panic!() };
    let frames = d.value["frames"].as_array().unwrap();
    assert!(frames.iter().all(|f| f["hotspots"] == serde_json::json!([])), "{frames:?}");
    assert_eq!(spr::write_document(&spr::parse(&claimed).unwrap()).unwrap(), claimed);
    // One to three bytes after the pixel data are a truncated count, not a missing table.
    for extra in 1..4 {
        let mut b = bytes.clone();
        b.extend(vec![0; extra]);
        let e = spr::parse(&b).unwrap_err();
        assert_eq!(e.location().unwrap().field, "hotspots.count", "{e}");
        assert_eq!(e.location().unwrap().offset, bytes.len() as u64);
    }
    // A document with no table and records is refused, not written half.
    let mut doc = spr::parse(&bytes).unwrap();
    doc.hotspots.push(spr::HotspotRecord { x: 1, y: 2, flag: 0 });
    assert!(spr::write_document(&doc).unwrap_err().to_string().contains("hotspot_table"));
}

#[test]
fn a_hotspot_edited_in_its_frame_is_packed_and_one_listed_once_is_the_only_place() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("unit.spr");
    std::fs::write(&input, rspr()).unwrap();
    let req = ConvertRequest {
        options: ConvertOptions { palette: Some(write_pal(dir.path())), ..Default::default() },
        ..Default::default()
    };
    let c = convert(&input, &dir.path().join("out"), &req);
    let mut v = c.value();
    // 1_0_0 lists records 7 and 8 (1_1_0 names it): move the projectile of record 8 and make it a turret.
    v["frames"][8]["hotspots"][1] = serde_json::json!({"x": 33, "y": 2, "flag": 1, "kind": "turret"});
    // 0_2_1 (picture 3, record 4; 0_3_0 names it) moves its centre.
    v["frames"][5]["hotspots"][0]["x"] = serde_json::json!(5);
    c.set_value(&v);
    let (bytes, notes) = pack(&c.json, &dir.path().join("edited.spr"));
    assert!(!notes.iter().any(|n| n.contains("hotspot")), "{notes:?}");
    let doc = spr::parse(&bytes).unwrap();
    let mut want: Vec<spr::HotspotRecord> =
        HOTSPOTS.iter().map(|h| spr::HotspotRecord { x: h[0], y: h[1], flag: h[2] }).collect();
    want[8] = spr::HotspotRecord { x: 33, y: 2, flag: 1 };
    want[4].x = 5;
    assert_eq!(doc.hotspots, want);
    // Nothing else changed: the file is the original but for those four bytes.
    let original = rspr();
    let diff: Vec<usize> = (0..original.len()).filter(|&i| original[i] != bytes[i]).collect();
    let table = original.len() - 27;
    assert_eq!(diff, [table + 12, table + 24, table + 25, table + 26]);
    // 0_3_1's record 5 is also 1_3_0's first (section 1, picture 4): listed by both, both must agree. An
    // edit in the later one alone is not packed, and said.
    let mut v = c.value();
    v["frames"][11]["hotspots"][0]["y"] = serde_json::json!(9);
    v["frames"][8]["hotspots"][1]["kind"] = serde_json::json!("explosion");
    c.set_value(&v);
    let (bytes, notes) = pack(&c.json, &dir.path().join("overlap.spr"));
    assert!(
        notes.iter().any(|n| n.contains("0_3_1 and 1_3_0 both show hotspot record 5") && n.contains("0_3_1's kept")),
        "{notes:?}"
    );
    assert!(notes.iter().any(|n| n.contains("`kind` explosion does not match flag 1")), "{notes:?}");
    assert_eq!(spr::parse(&bytes).unwrap().hotspots[5], spr::HotspotRecord { x: 74, y: 1, flag: 0 });
}

#[test]
fn hotspot_edits_that_describe_no_file_are_named_errors() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("unit.spr");
    std::fs::write(&input, rspr()).unwrap();
    let c = convert(&input, &dir.path().join("out"), &ConvertRequest::default());
    let original = c.value();
    let refused = |edit: &dyn Fn(&mut serde_json::Value), wanted: &str| {
        let mut v = original.clone();
        edit(&mut v);
        c.set_value(&v);
        let e = ops::pack("dr-spr", &c.json, &dir.path().join("x.spr"), &PackOptions::default()).unwrap_err();
        assert!(e.to_string().contains(wanted), "{wanted}: {e}");
    };
    refused(&|v| v["frames"][0]["hotspots"].as_array_mut().unwrap().clear(), "0 hotspots: section 0 has 1 per frame");
    refused(&|v| v["frames"][9]["hotspots_of"] = "0_0_0".into(), "`0_0_0` is no frame showing the same 2");
    refused(&|v| v["frames"][0]["hotspots"][0]["x"] = 300.into(), "frames[0].hotspots[0].x");
    refused(&|v| v["frames"][0]["name"] = "9_9_9".into(), "`9_9_9` is no frame");
    refused(&|v| v["frames"][9]["hotspots"] = serde_json::json!([]), "keep one of them");
    refused(&|v| v["frames"].as_array_mut().unwrap().truncate(8), "`1_0_0` is missing");
    refused(
        &|v| v["unshown_hotspots"] = serde_json::json!([{"index": 3, "x": 0, "y": 0, "flag": 0}]),
        "shown by frame",
    );
}

#[test]
fn an_older_document_packs_from_its_table_and_says_where_a_frame_differs() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("unit.spr");
    std::fs::write(&input, rspr()).unwrap();
    let c = convert(&input, &dir.path().join("out"), &ConvertRequest::default());
    // The older shape: the table in `hotspots`, a copy of its records in every frame.
    let mut v = c.value();
    let table: Vec<serde_json::Value> =
        HOTSPOTS.iter().map(|h| serde_json::json!({"x": h[0], "y": h[1], "flag": h[2]})).collect();
    v["hotspots"] = serde_json::json!(table);
    for (k, (name, a, r, s)) in rspr_frames().into_iter().enumerate() {
        let start = HOTOFF[PICNR[a * 4 + r] as usize] as usize;
        let n = if s == 0 { 1 } else { 2 };
        v["frames"][k] = serde_json::json!({"name": name, "hotspots": &table[start..start + n]});
    }
    c.set_value(&v);
    let (bytes, notes) = pack(&c.json, &dir.path().join("old.spr"));
    assert_eq!(bytes, rspr());
    assert!(notes.iter().any(|n| n.contains("older document shape")), "{notes:?}");
    assert!(!notes.iter().any(|n| n.contains("differ")), "{notes:?}");
    v["frames"][2]["hotspots"][0]["x"] = 1.into();
    c.set_value(&v);
    let (bytes, notes) = pack(&c.json, &dir.path().join("old.spr"));
    assert_eq!(bytes, rspr(), "the table wins in the older shape");
    assert!(notes.iter().any(|n| n.contains("frame 0_1_0: its hotspots differ from the table")), "{notes:?}");
}

#[test]
fn an_edited_atlas_view_is_not_packed_and_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("unit.spr");
    std::fs::write(&input, rspr()).unwrap();
    let c = convert(&input, &dir.path().join("out"), &ConvertRequest::default());
    let view = c.at("atlas.view.png");
    let mut px = paint::read_png(&view, 12 * 140, 3).unwrap();
    px[..4].copy_from_slice(&[1, 2, 3, 255]);
    write_png(&view, 12 * 140, 3, &px);
    let (bytes, notes) = pack(&c.json, &dir.path().join("back.spr"));
    assert_eq!(bytes, rspr(), "the view is not read");
    let warning = notes.iter().find(|n| n.contains("is a view")).expect("a warning");
    assert!(warning.starts_with("warning: ") && warning.contains("atlas.view.png"), "{warning}");
    // Deleted, a view is no warning; an edited frame makes a fresh atlas differ from the old view.
    std::fs::remove_file(&view).unwrap();
    let (_, notes) = pack(&c.json, &dir.path().join("back.spr"));
    assert!(!notes.iter().any(|n| n.contains("view")), "{notes:?}");
}

#[test]
fn an_edited_frame_png_is_packed_and_the_runs_refit() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("unit.spr");
    std::fs::write(&input, rspr()).unwrap();
    let req = ConvertRequest {
        options: ConvertOptions { palette: Some(write_pal(dir.path())), ..Default::default() },
        ..Default::default()
    };
    let c = convert(&input, &dir.path().join("out"), &req);
    // Frame 0_0_1 shows picture 1 (row 0: skip 5, 20 21 22). Paint x = 0 of row 0 with palette colour 9 and
    // x = 6 transparent.
    let png = c.at("0_0_1.png");
    let mut px = paint::read_png(&png, 140, 3).unwrap();
    px[..4].copy_from_slice(&[9, 246, 4, 255]);
    px[6 * 4..7 * 4].copy_from_slice(&[0, 0, 0, 0]);
    write_png(&png, 140, 3, &px);
    let (bytes, notes) = pack(&c.json, &dir.path().join("edited.spr"));
    // 0_1_0 shows picture 1 too (anim 0, rotation 1) and was not edited: said so.
    assert!(notes.iter().any(|n| n.contains("0_1_0.png differs from 0_0_1.png")), "{notes:?}");
    // The atlas view still shows the old frame, but it is as convert wrote it (the record has its hash):
    // not edited, nothing said.
    assert!(!notes.iter().any(|n| n.contains("is a view")), "{notes:?}");
    let doc = spr::parse(&bytes).unwrap();
    let p1 = &doc.pictures[1].pixels.as_ref().unwrap().0;
    assert_eq!(&p1[..8], &[9, 0, 0, 0, 0, 20, 0, 22]);
    assert_eq!(doc.pictures[0], spr::parse(&rspr()).unwrap().pictures[0]);
    // A colour not in the palette goes to the nearest entry, with a note.
    let mut px = paint::read_png(&png, 140, 3).unwrap();
    px[..4].copy_from_slice(&[100, 156, 50, 255]);
    write_png(&png, 140, 3, &px);
    let (bytes, notes) = pack(&c.json, &dir.path().join("nearest.spr"));
    assert!(notes.iter().any(|n| n.contains("nearest")), "{notes:?}");
    let doc = spr::parse(&bytes).unwrap();
    assert_eq!(doc.pictures[1].pixels.as_ref().unwrap().0[0], 100);
}

fn write_pal(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("game.pal");
    std::fs::write(&path, palette_file()).unwrap();
    path
}

fn write_png(path: &Path, w: u32, h: u32, rgba: &[u8]) {
    use relic::asset::{Frame, FrameRole, Image, Pixels};
    let img = Image {
        frames: vec![Frame {
            name: None,
            width: w,
            height: h,
            pixels: Pixels::Rgba8(rgba.to_vec()),
            offset: (0, 0),
            hotspots: vec![],
            role: FrameRole::Frame,
        }],
        palette: None,
        frame_rate: None,
        text: Vec::new(),
    };
    let out = relic::export::png::encode_image(&img).unwrap();
    std::fs::write(path, &out[0].bytes).unwrap();
}

#[test]
fn duplicate_palette_colours_keep_their_indices_through_convert_and_pack() {
    let dir = tempfile::tempdir().unwrap();
    let mut colours = palette_file();
    // Entry 21 gets entry 20's colour: the PNG alone cannot tell them apart, so the document keeps pixels.
    colours.copy_within(60..63, 63);
    std::fs::write(dir.path().join("dup.pal"), colours).unwrap();
    let input = dir.path().join("unit.spr");
    std::fs::write(&input, rspr()).unwrap();
    let c = convert(&input, &dir.path().join("out"), &ConvertRequest::default());
    let doc = c.value();
    assert!(doc["pictures"][1].get("pixels").is_some(), "picture 1 uses index 21");
    assert!(doc["pictures"][4].get("pixels").is_none());
    let (bytes, _) = pack(&c.json, &dir.path().join("back.spr"));
    assert_eq!(bytes, rspr());
}

// =========================================================================================================
// The spec's headerless FTG sprite layout

/// Two frames: 3 × 2 with hotspot (1, −1), 2 × 3 with hotspot (0, 2); then `trailing`.
fn ftg_spr(trailing: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in [2u16, 3, 3, 0] {
        out.extend(v.to_le_bytes());
    }
    for (w, h, x, y) in [(3u16, 2u16, 1i16, -1i16), (2, 3, 0, 2)] {
        out.extend(w.to_le_bytes());
        out.extend(h.to_le_bytes());
        out.extend(x.to_le_bytes());
        out.extend(y.to_le_bytes());
    }
    out.extend([1, 2, 3, 0, 5, 6]);
    out.extend([7, 8, 9, 0, 11, 12]);
    out.extend(trailing);
    out
}

#[test]
fn ftg_sprites_read_write_and_convert_as_the_spec_says() {
    use relic::asset::{Asset, Hotspot, Pixels};
    let bytes = ftg_spr(b"!");
    let doc = ftg_spr::parse(&bytes).unwrap();
    assert_eq!((doc.max_width, doc.max_height, doc.frames.len()), (3, 3, 2));
    assert_eq!((doc.frames[0].offset_x, doc.frames[0].offset_y), (1, -1));
    assert_eq!(doc.frames[1].pixels.as_ref().unwrap().0, [7, 8, 9, 0, 11, 12]);
    assert_eq!(ftg_spr::write_document(&doc).unwrap(), bytes);
    let assets = ftg_spr::to_assets(&bytes, &palette(), &ConvertOptions::default()).unwrap();
    let names: Vec<Option<&str>> = assets.iter().map(|a| a.name.as_deref()).collect();
    assert_eq!(names, [Some("frame_0"), Some("frame_1"), Some("atlas.view"), None], "the atlas is a view");
    let Asset::Image(f0) = &assets[0].asset else { panic!() };
    assert_eq!(f0.frames[0].hotspots, [Hotspot { x: 1, y: -1, flag: 0 }]);
    assert_eq!(f0.frames[0].offset, (-1, 1));
    let Asset::Image(atlas) = &assets[2].asset else { panic!() };
    assert_eq!((atlas.frames[0].width, atlas.frames[0].height), (5, 3));
    let Pixels::Rgba8(px) = &atlas.frames[0].pixels else { panic!() };
    let row = |y: usize| px[y * 20..(y + 1) * 20].to_vec();
    let cat = |a: &[u8], b: &[u8]| [rgba_of(a), rgba_of(b)].concat();
    assert_eq!(row(0), cat(&[1, 2, 3], &[7, 8]));
    assert_eq!(row(1), cat(&[0, 5, 6], &[9, 0]));
    assert_eq!(row(2), cat(&[0, 0, 0], &[11, 12]), "the short frame is not padded: transparent below");
    let Asset::Document(d) = &assets[3].asset else { panic!() };
    assert_eq!(d.value["frames"][1]["atlas"], serde_json::json!({"x": 3, "y": 0, "width": 2, "height": 3}));
    // Never sniffed, no extension: chosen with --format only.
    let f = relic::registry::by_id("dr-ftg-spr").unwrap();
    assert!(f.extensions.is_empty() && !f.sniff(&bytes) && !f.sniff(&rspr()));
    assert!(f.notes.contains("RSPR/SSPR"));
}

#[test]
fn ftg_sprites_go_through_convert_and_pack_with_format() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("bundled.spr");
    let bytes = ftg_spr(b"");
    std::fs::write(&input, &bytes).unwrap();
    // Identified by extension as dr-spr, it fails; --format reads it as the spec's layout.
    let report = ops::convert(std::slice::from_ref(&input), &dir.path().join("x"), &ConvertRequest::default(), &Quiet);
    assert!(!report.failures.is_empty());
    let req = ConvertRequest { format: relic::registry::by_id("dr-ftg-spr"), ..Default::default() };
    let c = convert(&input, &dir.path().join("out"), &req);
    let json = c.json.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(c.names, ["atlas.view.png", json.as_str(), "frame_0.png", "frame_1.png"]);
    // The hotspot is in the document once: the descriptor's offsets.
    let v = c.value();
    assert_eq!((&v["frames"][0]["offset_x"], &v["frames"][0]["offset_y"]), (&1.into(), &(-1).into()));
    assert!(v["frames"][0].get("hotspot").is_none());
    assert_eq!(v["atlas"]["view"], "atlas.view.png");
    let back = dir.path().join("back.spr");
    let pack = |notes_of: &str| {
        let opts = PackOptions { force: true, ..Default::default() };
        let report = ops::pack("dr-ftg-spr", &c.json, &back, &opts).unwrap();
        assert!(report.notes.iter().any(|n| n.contains(notes_of)) || notes_of.is_empty(), "{:?}", report.notes);
        (std::fs::read(&back).unwrap(), report.notes)
    };
    let (packed, notes) = pack("");
    assert_eq!(packed, bytes);
    assert!(!notes.iter().any(|n| n.contains("view")), "{notes:?}");
    // An edited hotspot is packed; an edited atlas view is not, with a warning.
    let mut v = c.value();
    v["frames"][1]["offset_x"] = (-7).into();
    c.set_value(&v);
    let view = c.at("atlas.view.png");
    let mut px = paint::read_png(&view, 5, 3).unwrap();
    px[4..8].copy_from_slice(&[0, 0, 0, 0]);
    write_png(&view, 5, 3, &px);
    let (packed, _) = pack("atlas.view.png is a view");
    let mut want = bytes.clone();
    want[8 + 8 + 4..8 + 8 + 6].copy_from_slice(&(-7i16).to_le_bytes());
    assert_eq!(packed, want);
    // An older document's `hotspot` copy is not packed: said when it differs.
    let mut v = c.value();
    v["frames"][0]["hotspot"] = serde_json::json!({"x": 2, "y": -1});
    c.set_value(&v);
    let (packed, _) = pack("frames[0].hotspot differs from its offset_x, offset_y");
    assert_eq!(packed, want);
    let (format, info) = ops::info_as(&input, req.format).unwrap();
    assert_eq!((format.id, info["frames"].as_u64()), ("dr-ftg-spr", Some(2)));
}

// =========================================================================================================
// Robustness

#[test]
fn truncations_and_flips_never_panic() {
    let opts = ConvertOptions::default();
    // Every truncation fails but one: the file cut right after its pixel data, which is a sprite without a
    // hotspot table (docs/formats/dark-reign.md#spr-hotspots).
    for (bytes, strict) in [(rspr(), false), (sspr(), false), (lspr(), false)] {
        let report = relic::testing::check_robustness(&bytes, strict, |b| {
            let doc = spr::parse(b)?;
            assert_eq!(spr::write_document(&doc).unwrap(), b, "a file that reads writes back");
            spr::to_assets(b, &palette(), &opts).map(|_| ())
        });
        assert_eq!(report.truncations, bytes.len());
        // The SSPR's two trailing bytes cut off leave a whole file too (no hotspots, 0 and 1 trailing bytes).
        let accepted = if bytes == sspr() { 3 } else { 1 };
        assert_eq!(report.truncations - report.truncations_rejected, accepted);
    }
    let bare = rspr_file(|f| f.bytes_without_hotspot_table());
    relic::testing::check_robustness(&bare, true, |b| {
        let doc = spr::parse(b)?;
        assert_eq!(spr::write_document(&doc).unwrap(), b);
        spr::to_assets(b, &palette(), &opts).map(|_| ())
    });
    for (bytes, strict) in [(ftg_spr(b""), true), (ftg_spr(b"tail"), false)] {
        relic::testing::check_robustness(&bytes, strict, |b| {
            let doc = ftg_spr::parse(b)?;
            assert_eq!(ftg_spr::write_document(&doc).unwrap(), b);
            ftg_spr::to_assets(b, &palette(), &opts).map(|_| ())
        });
    }
}

/// A one-anim, one-rotation RSPR with one section and one empty picture, to vary.
fn tiny() -> SprFile<'static> {
    SprFile {
        magic: b"RSPR",
        version: 0x0210,
        nanims: 1,
        nrots: 1,
        szx: 0,
        szy: 0,
        picnr: &[0],
        sections: &[[0, 0, 0, 0]],
        anims: &[0],
        table: &[(0, 0)],
        bits: &[],
        hotspots: &[],
        trailing: &[],
    }
}

#[test]
fn hostile_counts_are_refused_before_allocating() {
    // One picture of 60000 × 60000 pixels.
    let big = SprFile { szx: 60000, szy: 60000, bits: &[0; 4], ..tiny() }.bytes();
    assert!(matches!(spr::parse(&big), Err(relic::Error::Limit { .. })));
    // 3000 sections showing the same 200 × 200 picture: refused at conversion.
    let sections = vec![[0, 0, 0, 0]; 3000];
    let bits = [200u8; 200];
    let many = SprFile { szx: 200, szy: 200, sections: &sections, bits: &bits, ..tiny() }.bytes();
    spr::parse(&many).unwrap();
    let e = spr::to_assets(&many, &palette(), &ConvertOptions::default()).unwrap_err();
    assert!(matches!(e, relic::Error::Limit { .. }), "{e}");
    // An empty sprite converts to its document alone.
    let empty = tiny().bytes();
    let assets = spr::to_assets(&empty, &palette(), &ConvertOptions::default()).unwrap();
    assert_eq!(assets.len(), 1);
    assert_eq!(spr::write_document(&spr::parse(&empty).unwrap()).unwrap(), empty);
}

#[test]
fn an_edit_that_outgrows_the_stored_layout_is_laid_out_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("shadow.spr");
    std::fs::write(&input, sspr()).unwrap();
    let c = convert(&input, &dir.path().join("out"), &ConvertRequest::default());
    // Frame 0_1_0 (anim 0, rotation 1) shows picture 1, stored at offset 0 in 2 bytes: a checkerboard needs 8.
    let png = c.at("0_1_0.png");
    let px: Vec<u8> = (0..8).flat_map(|i| if i % 2 == 0 { [0, 0, 0, 128] } else { [0, 0, 0, 0] }).collect();
    write_png(&png, 4, 2, &px);
    let (bytes, notes) = pack(&c.json, &dir.path().join("back.spr"));
    assert!(notes.iter().any(|n| n.contains("laid out one after the other")), "{notes:?}");
    let doc = spr::parse(&bytes).unwrap();
    assert!(doc.layout.is_none());
    assert_eq!(doc.pictures[1].pixels.as_ref().unwrap().0, [1, 0, 1, 0, 1, 0, 1, 0]);
    assert_eq!(doc.pictures[0].pixels.as_ref().unwrap().0, sspr_pictures()[0].1);
    assert_eq!(doc.trailing.as_ref().unwrap().0, b"XY");
}

/// Fuzz find: a header claiming 2^28 rotations and no anims made the convert document list 2^28 rotation
/// angles (2 GiB). Only the rotations the anim table holds are listed.
#[test]
fn a_header_with_huge_rotation_counts_converts_in_small_memory() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/regression/dr-spr/ee10c48ffa22ee1a8ae583bed8b9a5a08686bbd3ab980ed59a5cdd020f511544");
    let bytes = std::fs::read(path).unwrap();
    let palette = relic::codec::palette::Palette::greyscale();
    let assets = relic::dark_reign::spr::to_assets(&bytes, &palette, &Default::default()).unwrap();
    let doc = assets
        .iter()
        .find_map(|a| match &a.asset {
            relic::asset::Asset::Document(d) => Some(&d.value),
            _ => None,
        })
        .unwrap();
    assert_eq!(doc["rotation_degrees"], serde_json::json!([]));
    assert_eq!(doc["rotations"], 0x1000_0001);
}
