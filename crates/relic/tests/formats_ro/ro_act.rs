//! Ragnarok actions (`ro-act`), proven on files built by hand from the published layout, independently of
//! relic's writer. RagnarokFileFormats' ACT.MD gives the meaning but no layout; the layout written here is
//! the one roBrowser's `Loaders/Action.js` and zrenderer's `resource/act.d` read:
//! - `AC`, version minor byte, major byte, uint16 action count, 10 reserved bytes;
//! - per action: uint32 motion count; per motion: 8 × int32 (two ranges), uint32 layer count, layers;
//!   int32 event (2.0+); 2.3+: uint32 anchor count and 16-byte anchors (4 unknown bytes, int32 x, y,
//!   attribute);
//! - a layer: int32 x, y, sprite, uint32 mirror; 2.0+: colour RGBA bytes, float scale x, 2.4+ float
//!   scale y, int32 rotation, int32 sprite kind; 2.5+: int32 width, height;
//! - 2.1+: uint32 event count and 40-byte names; 2.2+: one float delay per action.

use relic::codec::float::F32;
use relic::ragnarok::act::convert::{self, Drawn};
use relic::ragnarok::act::render::{self, FrameImage, Part, Rect, Sprites};
use relic::ragnarok::act::{Act, Anchor, Layer, Version};
use relic::registry::{self, ConvertOptions};

// =========================================================================================================
// Hand-made fixtures

#[derive(Clone)]
struct L {
    x: i32,
    y: i32,
    sprite: i32,
    mirror: u32,
    color: [u8; 4],
    sx: f32,
    sy: f32,
    rot: i32,
    kind: i32,
    size: [i32; 2],
}

fn layer(x: i32, y: i32, sprite: i32) -> L {
    L { x, y, sprite, mirror: 0, color: [255; 4], sx: 1.0, sy: 1.0, rot: 0, kind: 0, size: [3, 2] }
}

#[derive(Clone)]
struct M {
    ranges: [i32; 8],
    layers: Vec<L>,
    event: i32,
    anchors: Vec<([u8; 4], i32, i32, i32)>,
}

fn motion(layers: Vec<L>) -> M {
    M { ranges: [0; 8], layers, event: -1, anchors: vec![] }
}

/// An ACT file of version `major.minor` laid out as the sources read it.
fn act_file(minor: u8, actions: &[Vec<M>], events: &[&[u8]], delays: &[f32]) -> Vec<u8> {
    let v = (2u8, minor);
    let at_least = |m: u8| v.1 >= m;
    let mut out = b"AC".to_vec();
    out.extend([minor, 2]);
    out.extend((actions.len() as u16).to_le_bytes());
    out.extend([0u8; 10]);
    for motions in actions {
        out.extend((motions.len() as u32).to_le_bytes());
        for m in motions {
            m.ranges.iter().for_each(|r| out.extend(r.to_le_bytes()));
            out.extend((m.layers.len() as u32).to_le_bytes());
            for l in &m.layers {
                for v in [l.x, l.y, l.sprite] {
                    out.extend(v.to_le_bytes());
                }
                out.extend(l.mirror.to_le_bytes());
                out.extend(l.color);
                out.extend(l.sx.to_le_bytes());
                if at_least(4) {
                    out.extend(l.sy.to_le_bytes());
                }
                out.extend(l.rot.to_le_bytes());
                out.extend(l.kind.to_le_bytes());
                if at_least(5) {
                    out.extend(l.size[0].to_le_bytes());
                    out.extend(l.size[1].to_le_bytes());
                }
            }
            out.extend(m.event.to_le_bytes());
            if at_least(3) {
                out.extend((m.anchors.len() as u32).to_le_bytes());
                for (unknown, x, y, attr) in &m.anchors {
                    out.extend(unknown);
                    for v in [x, y, attr] {
                        out.extend(v.to_le_bytes());
                    }
                }
            }
        }
    }
    if at_least(1) {
        out.extend((events.len() as u32).to_le_bytes());
        for e in events {
            let mut name = e.to_vec();
            name.resize(40, 0);
            out.extend(name);
        }
    }
    if at_least(2) {
        delays.iter().for_each(|d| out.extend(d.to_le_bytes()));
    }
    out
}

/// Two actions: the first of two motions (a tinted, mirrored, scaled, rotated layer and a blank one; an
/// empty motion with an event and an anchor), the second of one.
fn sample(minor: u8) -> Vec<u8> {
    let first = M {
        ranges: [1, 2, 3, 4, 5, 6, 7, 8],
        layers: vec![
            L {
                x: -5,
                y: 7,
                sprite: 2,
                mirror: 1,
                color: [10, 20, 30, 40],
                sx: 1.5,
                sy: 0.5,
                rot: 90,
                kind: 1,
                size: [12, 34],
            },
            layer(0, 0, -1),
        ],
        event: 0,
        anchors: vec![([1, 2, 3, 4], 2, -23, 0)],
    };
    let second = M { ranges: [-1; 8], layers: vec![], event: -1, anchors: vec![] };
    let third = M { anchors: vec![([9; 4], -3, 4, 1), ([0; 4], 0, 0, 0)], ..motion(vec![layer(1, 2, 0)]) };
    // Below 2.4 one scale stands for both axes.
    let fix = |mut m: M| {
        if minor < 4 {
            m.layers.iter_mut().for_each(|l| l.sy = l.sx);
        }
        if minor < 3 {
            m.anchors.clear();
        }
        m
    };
    act_file(minor, &[vec![fix(first), fix(second)], vec![fix(third)]], &[b"atk", b"\xc6\xf7\xb8\xb5.wav"], &[4.0, 2.5])
}

// =========================================================================================================
// Reading, writing

#[test]
fn every_version_reads_its_fields_and_writes_back_byte_for_byte() {
    for minor in 0..=5u8 {
        let bytes = sample(minor);
        let act = Act::read(&bytes).unwrap_or_else(|e| panic!("2.{minor}: {e}"));
        assert_eq!(act.version, Version::new(2, minor));
        assert_eq!(act.actions.len(), 2);
        let (a0, a1) = (&act.actions[0], &act.actions[1]);
        assert_eq!((a0.motions.len(), a1.motions.len()), (2, 1));
        let m = &a0.motions[0];
        assert_eq!(m.ranges, [[1, 2, 3, 4], [5, 6, 7, 8]]);
        assert_eq!(m.event, 0);
        assert_eq!(a0.motions[1].ranges, [[-1; 4]; 2]);
        let l = &m.layers[0];
        assert_eq!((l.x, l.y, l.sprite, l.mirror, l.color, l.rotation, l.kind), (-5, 7, 2, 1, [10, 20, 30, 40], 90, 1));
        assert_eq!(l.scale_x.get(), 1.5);
        assert_eq!(l.scale_y(), if minor >= 4 { 0.5 } else { 1.5 }, "2.{minor}: scale y");
        assert_eq!(l.size, (minor >= 5).then_some([12, 34]), "2.{minor}: size");
        assert_eq!(m.layers[1].sprite, -1);
        if minor >= 3 {
            assert_eq!(m.anchors, vec![Anchor { unknown: [1, 2, 3, 4], x: 2, y: -23, attribute: 0 }]);
            assert_eq!(a1.motions[0].anchors.len(), 2);
            assert_eq!((a1.motions[0].anchors[0].x, a1.motions[0].anchors[0].y), (-3, 4));
        } else {
            assert!(m.anchors.is_empty());
        }
        if minor >= 1 {
            let names: Vec<&str> = act.events.iter().map(|e| e.text.as_str()).collect();
            assert_eq!(names, ["atk", "포링.wav"], "2.{minor}: CP949 event names");
        } else {
            assert!(act.events.is_empty());
        }
        let delays: Vec<Option<f32>> = act.actions.iter().map(|a| a.delay.map(F32::get)).collect();
        assert_eq!(delays, if minor >= 2 { vec![Some(4.0), Some(2.5)] } else { vec![None, None] });
        assert_eq!(act.to_bytes().unwrap(), bytes, "2.{minor}: write");
        // Through the JSON document, as a value and as text.
        let value = registry::by_id("ro-act").unwrap().to_json(&bytes).unwrap();
        assert_eq!(value["format"], "ro-act");
        assert_eq!(value["version"], format!("2.{minor}"));
        let text = serde_json::to_string_pretty(&value).unwrap();
        let back = registry::by_id("ro-act")
            .unwrap()
            .from_json(serde_json::from_str(&text).unwrap(), &Default::default())
            .unwrap();
        assert_eq!(back, bytes, "2.{minor}: JSON");
    }
}

#[test]
fn info_counts_what_the_file_holds() {
    let info = registry::by_id("ro-act").unwrap().info(&sample(5)).unwrap();
    assert_eq!(info["version"], "2.5");
    assert_eq!(
        (info["actions"].as_u64(), info["motions"].as_u64(), info["layers"].as_u64()),
        (Some(2), Some(3), Some(3))
    );
    assert_eq!(info["events"], serde_json::json!(["atk", "포링.wav"]));
    assert_eq!(info["delays"], serde_json::json!([4.0, 2.5]));
    assert_eq!(info["anchors"], true);
}

#[test]
fn sniffed_by_magic_and_version() {
    let bytes = sample(5);
    assert_eq!(registry::sniff(&bytes, "x.bin").map(|(f, _)| f.id), Some("ro-act"));
    assert_eq!(registry::sniff(b"AC\x06\x02", "x.bin").map(|(f, _)| f.id), None);
    // A name never claims bytes that say otherwise (identification by content, issue 26).
    assert_eq!(registry::sniff(b"nope", "body.ACT").map(|(f, _)| f.id), None);
}

#[test]
fn unknown_versions_and_damage_are_refused_with_field_and_offset() {
    let mut v1 = sample(5);
    v1[2..4].copy_from_slice(&[1, 1]);
    let e = Act::read(&v1).unwrap_err().to_string();
    assert!(e.contains("ro-act") && e.contains("version") && e.contains("1.1"), "{e}");
    // A layer count past the end, at offset 16 + 4 + 32 = 52 (named after it is read: 0x38).
    let mut big = sample(5);
    big[52..56].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = Act::read(&big).unwrap_err().to_string();
    assert!(e.contains("actions[0].motions[0].layer_count") && e.contains("0x38"), "{e}");
}

#[test]
fn edits_write_back_and_fields_a_version_lacks_are_refused() {
    let mut act = Act::read(&sample(5)).unwrap();
    act.actions[1].delay = Some(F32::new(7.0));
    act.actions[0].motions[0].layers[0].x = 99;
    let again = Act::read(&act.to_bytes().unwrap()).unwrap();
    assert_eq!(again.actions[1].delay.map(F32::get), Some(7.0));
    assert_eq!(again.actions[0].motions[0].layers[0].x, 99);

    let mut old = Act::read(&sample(2)).unwrap();
    old.actions[0].motions[0].anchors.push(Anchor { unknown: [0; 4], x: 1, y: 1, attribute: 0 });
    assert!(old.to_bytes().unwrap_err().to_string().contains("anchors"));
    let mut old = Act::read(&sample(3)).unwrap();
    old.actions[0].motions[0].layers[0].scale_y = Some(F32::new(3.0));
    assert!(old.to_bytes().unwrap_err().to_string().contains("scale_y"));
    let mut old = Act::read(&sample(1)).unwrap();
    old.actions[0].delay = Some(F32::new(1.0));
    assert!(old.to_bytes().unwrap_err().to_string().contains("delay"));
    let mut old = Act::read(&sample(0)).unwrap();
    old.events.push(relic::ragnarok::act::Name::new("x"));
    assert!(old.to_bytes().unwrap_err().to_string().contains("events"));
}

#[test]
fn truncations_are_refused_and_flips_never_panic() {
    for minor in [0, 3, 5] {
        let bytes = sample(minor);
        // A truncated file may still parse when the cut falls after the delays' start of `trailing`: it
        // cannot, as trailing is what remains after every field; so every truncation is refused.
        let (three, one) = ([200u8; 3 * 2 * 4], [100u8; 4]);
        let palette = [FrameImage { width: 3, height: 2, rgba: &three }];
        let rgba = [FrameImage { width: 1, height: 1, rgba: &one }];
        let report = relic::testing::check_robustness(&bytes, true, |b| {
            let act = Act::read(b)?;
            assert_eq!(act.to_bytes()?, b, "a file that parses writes back");
            // A flipped scale, rotation, offset or anchor still draws, within the budget, or is refused.
            let body = Drawn { act: &act, sprites: Sprites { palette: &palette, rgba: &rgba } };
            let mut budget = 1 << 22;
            for a in 0..act.actions.len() {
                convert::draw_action(&body, Some(&body), a, &mut budget)?;
            }
            Ok::<_, relic::Error>(())
        });
        assert_eq!(report.truncations, bytes.len());
        assert!(report.flips > 0);
    }
}

// =========================================================================================================
// The compositor

const A: [u8; 4] = [10, 20, 30, 255];
const B: [u8; 4] = [40, 50, 60, 255];
const C: [u8; 4] = [70, 80, 90, 255];
const D: [u8; 4] = [100, 110, 120, 255];
const E: [u8; 4] = [130, 140, 150, 255];
const F: [u8; 4] = [160, 170, 180, 255];
const T: [u8; 4] = [0; 4];

/// The 3×2 image `A B C / D E F`.
fn abc() -> Vec<u8> {
    [A, B, C, D, E, F].concat()
}

fn act_layer(x: i32, y: i32, kind: i32) -> Layer {
    Layer {
        x,
        y,
        sprite: 0,
        mirror: 0,
        color: [255; 4],
        scale_x: F32::new(1.0),
        scale_y: Some(F32::new(1.0)),
        rotation: 0,
        kind,
        size: None,
    }
}

/// The canvas of `layers` as rows of pixels, with its rectangle.
fn drawn(layers: &[Layer], sprites: Sprites<'_>) -> (Rect, Vec<Vec<[u8; 4]>>) {
    let parts = [Part { layers, sprites, offset: (0, 0) }];
    let rect = render::bounds(&parts).expect("draws something");
    let rgba = render::draw(&parts, rect).unwrap();
    let px: Vec<[u8; 4]> = rgba.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
    (rect, px.chunks(rect.width() as usize).map(<[_]>::to_vec).collect())
}

fn rect(left: i64, top: i64, right: i64, bottom: i64) -> Rect {
    Rect { left, top, right, bottom }
}

#[test]
fn a_plain_layer_is_centred_on_its_offset() {
    let pixels = abc();
    let palette = [FrameImage { width: 3, height: 2, rgba: &pixels }];
    let sprites = Sprites { palette: &palette, rgba: &[] };
    let (r, rows) = drawn(&[act_layer(0, 0, 0)], sprites);
    // Odd width: the offset is the middle column (Direct3D's pixel centres on integer coordinates).
    assert_eq!(r, rect(-1, -1, 2, 1));
    assert_eq!(rows, vec![vec![A, B, C], vec![D, E, F]]);
    // Mirrored; scaled twice as wide; rotated 90° clockwise.
    let (r, rows) = drawn(&[Layer { mirror: 1, ..act_layer(0, 0, 0) }], sprites);
    assert_eq!((r, rows), (rect(-1, -1, 2, 1), vec![vec![C, B, A], vec![F, E, D]]));
    let (r, rows) = drawn(&[Layer { scale_x: F32::new(2.0), ..act_layer(0, 0, 0) }], sprites);
    assert_eq!((r, rows), (rect(-3, -1, 3, 1), vec![vec![A, A, B, B, C, C], vec![D, D, E, E, F, F]]));
    let (r, rows) = drawn(&[Layer { rotation: 90, ..act_layer(0, 0, 0) }], sprites);
    assert_eq!((r, rows), (rect(-1, -1, 1, 2), vec![vec![D, A], vec![E, B], vec![F, C]]));
    // Sprite −1, an index past the end and an unknown kind draw nothing.
    for l in [Layer { sprite: -1, ..act_layer(0, 0, 0) }, Layer { sprite: 1, ..act_layer(0, 0, 0) }, act_layer(0, 0, 2)]
    {
        assert!(render::bounds(&[Part { layers: &[l], sprites, offset: (0, 0) }]).is_none());
    }
}

/// `s` at alpha 128 over opaque `d`: (s·128 + d·127) / 255, rounded.
fn half_over(s: [u8; 4], d: [u8; 4]) -> [u8; 4] {
    let c = |i: usize| ((u32::from(s[i]) * 128 + u32::from(d[i]) * 127 + 127) / 255) as u8;
    [c(0), c(1), c(2), 255]
}

#[test]
fn a_layered_mirrored_scaled_rotated_frame_composites_to_exact_pixels() {
    let white = [255u8; 4];
    let pixels = abc();
    let palette = [FrameImage { width: 3, height: 2, rgba: &pixels }];
    let rgba = [FrameImage { width: 1, height: 1, rgba: &white }];
    let sprites = Sprites { palette: &palette, rgba: &rgba };
    let layers = [
        // An RGBA pixel scaled to 4×4 and tinted red.
        Layer { scale_x: F32::new(4.0), scale_y: Some(F32::new(4.0)), color: [255, 0, 0, 255], ..act_layer(0, 0, 1) },
        // The palette image mirrored (C B A / F E D), turned 90° clockwise (F C / E B / D A), at (1, 0), at
        // half alpha.
        Layer { mirror: 1, rotation: 90, color: [255, 255, 255, 128], ..act_layer(1, 0, 0) },
    ];
    let (r, rows) = drawn(&layers, sprites);
    assert_eq!(r, rect(-2, -2, 2, 2));
    let red = [255, 0, 0, 255];
    let h = |s| half_over(s, red);
    assert_eq!(
        rows,
        vec![
            vec![red, red, red, red],
            vec![red, red, h(F), h(C)],
            vec![red, red, h(E), h(B)],
            vec![red, red, h(D), h(A)],
        ]
    );
    assert_eq!(h(A), [132, 10, 15, 255]);
    // Scale y alone, and 180°: the image upside down and reversed, twice as tall.
    let flipped = Layer { scale_y: Some(F32::new(2.0)), rotation: 180, ..act_layer(0, 0, 0) };
    let (r, rows) = drawn(&[flipped], sprites);
    assert_eq!(r, rect(-1, -2, 2, 2));
    assert_eq!(rows, vec![vec![F, E, D], vec![F, E, D], vec![C, B, A], vec![C, B, A]]);
    // Transparent pixels leave what is below.
    let hole = [A, T].concat();
    let list = [FrameImage { width: 2, height: 1, rgba: &hole }];
    let (_, rows) = drawn(&[act_layer(0, 0, 1), act_layer(0, 0, 0)], Sprites { palette: &list, rgba: &rgba });
    assert_eq!(rows, vec![vec![A, white]]);
}

/// A body ACT and a head ACT of one action each, two motions, with anchors.
fn body_and_head() -> (Act, Act) {
    let body = act_file(
        5,
        &[vec![
            M { anchors: vec![([0; 4], 5, -10, 0)], ..motion(vec![L { kind: 1, ..layer(0, 0, 0) }]) },
            M { anchors: vec![([0; 4], 6, -10, 0)], ..motion(vec![L { kind: 1, ..layer(2, 0, 0) }]) },
        ]],
        &[],
        &[2.0],
    );
    let head = act_file(
        5,
        &[vec![M { anchors: vec![([0; 4], 1, 2, 0)], ..motion(vec![L { kind: 1, ..layer(0, 0, 0) }]) }]],
        &[],
        &[9.0],
    );
    (Act::read(&body).unwrap(), Act::read(&head).unwrap())
}

#[test]
fn a_head_is_drawn_at_body_anchor_minus_head_anchor_on_one_canvas_for_every_frame() {
    let (body, head) = body_and_head();
    assert_eq!(convert::anchor_offset(&body.actions[0].motions[0], &head.actions[0].motions[0]), (4, -12));
    let (one, two) = ([1u8, 1, 1, 255], [2u8, 2, 2, 255]);
    let body_images = [FrameImage { width: 1, height: 1, rgba: &one }];
    let head_images = [FrameImage { width: 1, height: 1, rgba: &two }];
    let b = Drawn { act: &body, sprites: Sprites { palette: &[], rgba: &body_images } };
    let h = Drawn { act: &head, sprites: Sprites { palette: &[], rgba: &head_images } };
    let mut budget = u64::MAX;
    let anim = convert::draw_action(&b, Some(&h), 0, &mut budget).unwrap().unwrap();
    // Body pixels at x 0 and 2, y 0; the head (1 motion, repeated) at (4, −12) then (5, −12).
    assert_eq!((anim.width, anim.height, anim.origin), (6, 13, (0, 12)));
    assert_eq!(anim.frames.len(), 2);
    let at = |f: usize, x: usize, y: usize| anim.frames[f][(y * 6 + x) * 4..][..4].to_vec();
    assert_eq!((at(0, 0, 12), at(0, 4, 0), at(0, 2, 12)), (one.to_vec(), two.to_vec(), vec![0; 4]));
    assert_eq!((at(1, 2, 12), at(1, 5, 0), at(1, 0, 12)), (one.to_vec(), two.to_vec(), vec![0; 4]));
    let opaque = |f: usize| anim.frames[f].chunks(4).filter(|p| p[3] != 0).count();
    assert_eq!((opaque(0), opaque(1)), (2, 2));
    // Delay 2 ticks: 50 ms, 20 frames a second.
    assert_eq!(anim.rate, 20.0);
    // Without the head, the canvas shrinks to the body's pixels.
    let alone = convert::draw_action(&b, None, 0, &mut budget).unwrap().unwrap();
    assert_eq!((alone.width, alone.height, alone.origin), (3, 1, (0, 0)));
}

#[test]
fn delays_become_frame_times_of_25_ms_each() {
    let (body, _) = body_and_head();
    let one = [9u8, 9, 9, 255];
    let images = [FrameImage { width: 1, height: 1, rgba: &one }];
    for (delay, num, den) in [(2.0f32, 1u16, 20u16), (4.0, 1, 10), (3.0, 75, 1000), (0.0, 1, 10), (-1.0, 1, 10)] {
        let mut act = body.clone();
        act.actions[0].delay = Some(F32::new(delay));
        let d = Drawn { act: &act, sprites: Sprites { palette: &[], rgba: &images } };
        let anim = convert::draw_action(&d, None, 0, &mut u64::MAX.clone()).unwrap().unwrap();
        let image = convert::animation_image(anim);
        let files = relic::export::png::encode_image(&image).unwrap();
        assert_eq!(files.len(), 3, "the APNG and its two frames");
        let decoder = png::Decoder::new(std::io::Cursor::new(&files[0].bytes));
        let mut reader = decoder.read_info().unwrap();
        assert_eq!(reader.info().animation_control.map(|c| c.num_frames), Some(2));
        let mut buf = vec![0; reader.output_buffer_size()];
        reader.next_frame(&mut buf).unwrap();
        let fc = reader.info().frame_control.unwrap();
        assert_eq!((fc.delay_num, fc.delay_den), (num, den), "delay {delay}");
    }
}

#[test]
fn convert_without_a_sprite_writes_the_document_and_says_what_it_looked_for() {
    let bytes = sample(5);
    let opts = ConvertOptions::default();
    let dir = std::env::temp_dir().join(format!("relic-ro-act-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("Poring.act");
    std::fs::write(&path, &bytes).unwrap();
    let assets =
        registry::by_id("ro-act").unwrap().convert(&relic::registry::ConvertInput::at(&bytes, &path, &opts)).unwrap();
    assert_eq!(assets.len(), 1);
    assert!(matches!(&assets[0].asset, relic::asset::Asset::Document(_)));
    let notes = opts.notes.lock().unwrap().clone();
    assert!(notes.iter().any(|n| n.contains("Poring.spr")), "{notes:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// =========================================================================================================
// The head's frame: three runs (one per head direction) in idle and sit, the body's index elsewhere

/// A player-shaped pair for the head-frame rules: 9 actions (group 0 of 8 directions, then group 1's
/// first). The body's action 0 (idle, south) has `idle_body` motions, its action 8 (walk, south) four;
/// the head's have `idle_head` and two. Motion `m` of each shows its image `m` (1 × 1 RGBA) at (0, 0),
/// the body anchored at (0, −1) and the head at (0, 0): the head lands one pixel above the body.
fn turning_pair(idle_body: usize, idle_head: usize) -> (Act, Act) {
    let build = |idle: usize, walk: usize, anchor: i32| {
        let m = |i: usize| M {
            anchors: vec![([0; 4], 0, anchor, 0)],
            ..motion(vec![L { kind: 1, ..layer(0, 0, i as i32) }])
        };
        let mut actions: Vec<Vec<M>> = vec![(0..idle).map(m).collect()];
        actions.extend((1..8).map(|_| vec![motion(vec![])]));
        actions.push((0..walk).map(m).collect());
        Act::read(&act_file(5, &actions, &[], &[4.0; 9])).unwrap()
    };
    (build(idle_body, 4, -1), build(idle_head, 2, 0))
}

/// Image `i` of a part: body images are grey levels `10 + i`, head images `100 + i`.
fn levels(base: u8) -> Vec<[u8; 4]> {
    (0..8u8).map(|i| [base + i, base + i, base + i, 255]).collect()
}

/// The (head, body) grey levels of each drawn frame: the canvas is one column, the head above the body.
fn head_and_body_levels(body: &Act, head: &Act, a: usize, direction: convert::HeadDirection) -> Vec<(u8, u8)> {
    let (b, h) = (levels(10), levels(100));
    let bi: Vec<_> = b.iter().map(|p| FrameImage { width: 1, height: 1, rgba: p }).collect();
    let hi: Vec<_> = h.iter().map(|p| FrameImage { width: 1, height: 1, rgba: p }).collect();
    let bd = Drawn { act: body, sprites: Sprites { palette: &[], rgba: &bi } };
    let hd = Drawn { act: head, sprites: Sprites { palette: &[], rgba: &hi } };
    let anim = convert::draw_action_facing(&bd, Some(&hd), a, direction, &mut u64::MAX.clone()).unwrap().unwrap();
    assert_eq!((anim.width, anim.height, anim.origin), (1, 2, (0, 1)));
    anim.frames.iter().map(|f| (f[0], f[4])).collect()
}

#[test]
fn idle_and_sit_draw_the_head_run_of_the_body_frame_and_other_actions_the_same_index() {
    use convert::{motion_pairs, HeadDirection::*};
    // Idle (group 0) and sit (group 2): body and head of three motions pair one to one (zrenderer's
    // `i / (body / 3)`, roBrowser's body frame = head frame = headDir).
    for a in [0, 5, 16, 23] {
        assert_eq!(motion_pairs(a, 3, Some(3), All), vec![(0, Some(0)), (1, Some(1)), (2, Some(2))], "action {a}");
        assert_eq!(motion_pairs(a, 3, Some(3), One(0)), vec![(0, Some(0))]);
        assert_eq!(motion_pairs(a, 3, Some(3), One(2)), vec![(2, Some(2))]);
    }
    // An animated head (two frames a direction): roBrowser's headDir × (n / 3) + the frame in the run.
    assert_eq!(motion_pairs(0, 3, Some(6), All), vec![(0, Some(0)), (1, Some(2)), (2, Some(4))]);
    assert_eq!(motion_pairs(0, 6, Some(6), One(1)), vec![(2, Some(2)), (3, Some(3))]);
    // A body of two frames a direction over a head of one.
    assert_eq!(
        motion_pairs(16, 6, Some(3), All),
        vec![(0, Some(0)), (1, Some(0)), (2, Some(1)), (3, Some(1)), (4, Some(2)), (5, Some(2))]
    );
    // Fewer than three motions: no runs, the body's index wrapping in the head.
    assert_eq!(motion_pairs(0, 2, Some(1), One(1)), vec![(0, Some(0)), (1, Some(0))]);
    assert_eq!(motion_pairs(0, 3, Some(2), All), vec![(0, Some(0)), (1, Some(1)), (2, Some(0))]);
    // Walk (group 1), pick up (3), attack (5): the same index, wrapping, whatever the direction asked.
    for a in [8, 24, 40] {
        assert_eq!(
            motion_pairs(a, 4, Some(2), One(1)),
            vec![(0, Some(0)), (1, Some(1)), (2, Some(0)), (3, Some(1))],
            "action {a}"
        );
    }
    // No head: every body motion.
    assert_eq!(motion_pairs(0, 3, None, One(1)), vec![(0, None), (1, None), (2, None)]);
    assert_eq!(motion_pairs(0, 3, Some(0), One(1)), vec![(0, None), (1, None), (2, None)]);
}

#[test]
fn head_directions_draw_to_exact_pixels() {
    use convert::HeadDirection::*;
    let (body, head) = turning_pair(3, 3);
    // Idle, every direction: body k under head k.
    assert_eq!(head_and_body_levels(&body, &head, 0, All), vec![(100, 10), (101, 11), (102, 12)]);
    // The default, and `draw_action`'s: straight ahead, one still frame.
    assert_eq!(convert::HeadDirection::default(), One(0));
    let (b, h) = (levels(10), levels(100));
    let bi: Vec<_> = b.iter().map(|p| FrameImage { width: 1, height: 1, rgba: p }).collect();
    let hi: Vec<_> = h.iter().map(|p| FrameImage { width: 1, height: 1, rgba: p }).collect();
    let (bd, hd) = (
        Drawn { act: &body, sprites: Sprites { palette: &[], rgba: &bi } },
        Drawn { act: &head, sprites: Sprites { palette: &[], rgba: &hi } },
    );
    let still = convert::draw_action(&bd, Some(&hd), 0, &mut u64::MAX.clone()).unwrap().unwrap();
    assert_eq!(still.frames.iter().map(|f| (f[0], f[4])).collect::<Vec<_>>(), vec![(100, 10)]);
    // One direction: the body turned with it, a still frame.
    assert_eq!(head_and_body_levels(&body, &head, 0, One(0)), vec![(100, 10)]);
    assert_eq!(head_and_body_levels(&body, &head, 0, One(1)), vec![(101, 11)]);
    assert_eq!(head_and_body_levels(&body, &head, 0, One(2)), vec![(102, 12)]);
    // Walk: four body frames, the head's two in turn.
    assert_eq!(head_and_body_levels(&body, &head, 8, One(2)), vec![(100, 10), (101, 11), (100, 12), (101, 13)]);
    // An animated head of six frames over a body of three: the first frame of each run.
    let (body, head) = turning_pair(3, 6);
    assert_eq!(head_and_body_levels(&body, &head, 0, All), vec![(100, 10), (102, 11), (104, 12)]);
    assert_eq!(head_and_body_levels(&body, &head, 0, One(1)), vec![(102, 11)]);
}

/// A sprite of version 2.0 with RGBA frames only, as SPR.MD lays it out: `SP`, minor, major, uint16
/// palette-frame count, uint16 RGBA-frame count, each RGBA frame uint16 width, height and ABGR pixels
/// stored bottom-up; the 1024-byte palette at the end.
fn rgba_spr(levels: &[[u8; 4]]) -> Vec<u8> {
    let mut out = b"SP\x00\x02".to_vec();
    out.extend(0u16.to_le_bytes());
    out.extend((levels.len() as u16).to_le_bytes());
    for p in levels {
        out.extend(1u16.to_le_bytes());
        out.extend(1u16.to_le_bytes());
        out.extend([p[3], p[2], p[1], p[0]]);
    }
    out.extend([0u8; 1024]);
    out
}

#[test]
fn the_head_direction_option_reaches_the_conversion_and_unknown_values_are_refused() {
    let dir = std::env::temp_dir().join(format!("relic-ro-act-headdir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let m = |i: usize, anchor: i32| M {
        anchors: vec![([0; 4], 0, anchor, 0)],
        ..motion(vec![L { kind: 1, ..layer(0, 0, i as i32) }])
    };
    let body = act_file(5, &[(0..3).map(|i| m(i, -1)).collect()], &[], &[4.0]);
    let head = act_file(5, &[(0..3).map(|i| m(i, 0)).collect()], &[], &[4.0]);
    std::fs::write(dir.join("body.act"), &body).unwrap();
    std::fs::write(dir.join("body.spr"), rgba_spr(&levels(10))).unwrap();
    std::fs::write(dir.join("head.act"), &head).unwrap();
    std::fs::write(dir.join("head.spr"), rgba_spr(&levels(100))).unwrap();
    let codec = registry::by_id("ro-act").unwrap();
    let run = |value: Option<&str>| {
        let opts = ConvertOptions {
            settings: value
                .map(|v| vec![(convert::HEAD_DIRECTION_OPTION.to_string(), v.to_string())])
                .unwrap_or_default(),
            ..Default::default()
        }
        .with_settings(relic::ragnarok::act::HeadSettings { with: Some(dir.join("head.act")), ..Default::default() });
        codec.convert(&relic::registry::ConvertInput::at(&body, &dir.join("body.act"), &opts))
    };
    let frames = |assets: Vec<relic::asset::NamedAsset>| -> Vec<(u8, u8)> {
        let relic::asset::Asset::Image(image) = &assets[1].asset else { panic!("an image") };
        image
            .frames
            .iter()
            .map(|f| match &f.pixels {
                relic::asset::Pixels::Rgba8(p) => (p[0], p[4]),
                _ => panic!("RGBA"),
            })
            .collect()
    };
    // Straight ahead by default: body frame 0 under head frame 0, a still frame.
    assert_eq!(frames(run(None).unwrap()), vec![(100, 10)]);
    assert_eq!(frames(run(Some("0")).unwrap()), vec![(100, 10)]);
    assert_eq!(frames(run(Some("all")).unwrap()), vec![(100, 10), (101, 11), (102, 12)]);
    assert_eq!(frames(run(Some("1")).unwrap()), vec![(101, 11)]);
    let err = run(Some("3")).unwrap_err().to_string();
    assert!(err.contains("ro-act.head-direction=3"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn layers_that_cannot_be_drawn_are_listed_once_per_file_and_reason() {
    // Body: seven layers past the reach (only five are named), one of kind 2; a head whose anchor puts its
    // one layer 40,000 px to the right of the body's.
    let far: Vec<L> = (0..7).map(|i| layer(40_000 + i, 0, 0)).collect();
    let body = act_file(
        5,
        &[vec![M {
            anchors: vec![([0; 4], 40_000, 0, 0)],
            ..motion([far, vec![L { kind: 2, ..layer(0, 0, 0) }, layer(0, 0, 0)]].concat())
        }]],
        &[],
        &[4.0],
    );
    let head =
        act_file(5, &[vec![M { anchors: vec![([0; 4], 0, 0, 0)], ..motion(vec![layer(0, 0, 0)]) }]], &[], &[4.0]);
    let (body, head) = (Act::read(&body).unwrap(), Act::read(&head).unwrap());
    let one = [9u8, 9, 9, 255];
    let images = [FrameImage { width: 1, height: 1, rgba: &one }];
    let b = Drawn { act: &body, sprites: Sprites { palette: &images, rgba: &[] } };
    let h = Drawn { act: &head, sprites: Sprites { palette: &images, rgba: &[] } };
    let skipped = convert::skipped_layers(&b, Some(&h), convert::HeadDirection::default());
    assert_eq!(
        convert::skip_notes(&skipped, ("body.act", Some("head.act"))),
        [
            "ro-act: 1 layer of body.act skipped: image kind not 0 (palette) or 1 (RGBA) (action 0 frame 0 layer 7)",
            "ro-act: 7 layers of body.act skipped: offset past ±32768 px (action 0 frame 0 layer 0, action 0 frame 0 \
             layer 1, action 0 frame 0 layer 2, action 0 frame 0 layer 3, action 0 frame 0 layer 4, and 2 more)",
            "ro-act: 1 layer of head.act skipped: offset past ±32768 px (action 0 frame 0 layer 0)",
        ]
    );
    // The one layer left is drawn, alone on its canvas.
    let anim = convert::draw_action(&b, Some(&h), 0, &mut u64::MAX.clone()).unwrap().unwrap();
    assert_eq!((anim.width, anim.height, anim.origin), (1, 1, (0, 0)));
    assert_eq!(anim.frames, [one.to_vec()]);
    let kind_two = Layer { kind: 2, ..body.actions[0].motions[0].layers[8].clone() };
    assert_eq!(render::skipped(&kind_two, &b.sprites, (0, 0)), Some(render::Skip::UnknownKind));
    assert_eq!(render::skipped(&body.actions[0].motions[0].layers[8], &b.sprites, (0, 0)), None);
}
