//! Ragnarok sprites (`ro-spr`), proven on files built by hand from SPR.MD (rdw-archive RagnarokFileFormats)
//! and roBrowser's `Sprite.js`, independently of relic's writer:
//! - `SP`, version byte minor then byte major, u16 palette frame count, from 2.0 a u16 RGBA frame count;
//! - palette frames: u16 width, u16 height, then `width × height` indices; from 2.1 a u16 size and that many
//!   bytes where `00 n` is a run of n zeros (spanning rows) and any other byte one index;
//! - RGBA frames (2.0+): u16 width, u16 height, `width × height` pixels of bytes A, B, G, R, bottom row first;
//! - from 1.1 the palette: the last 1,024 bytes, entries R, G, B, unused.

use relic::ragnarok::spr::{PaletteFrame, Spr, Version};

// =========================================================================================================
// The hand writer

/// A test palette: entry i is (i, 255 − i, i / 2, 0); entry 0 is magenta, as real sprites have it.
fn palette() -> [[u8; 4]; 256] {
    let mut p = [[0u8; 4]; 256];
    for (i, e) in p.iter_mut().enumerate() {
        *e = [i as u8, 255 - i as u8, (i / 2) as u8, 0];
    }
    p[0] = [255, 0, 255, 0];
    p
}

enum Pal {
    /// Width, height, indices stored plainly.
    Plain(u16, u16, Vec<u8>),
    /// Width, height, the RLE bytes as the hand encoder (or the test) wrote them.
    Rle(u16, u16, Vec<u8>),
}

/// Writes an SPR the way SPR.MD lays it out.
fn hand_spr(
    minor: u8,
    major: u8,
    pal: &[Pal],
    rgba: &[(u16, u16, Vec<u8>)],
    palette: Option<&[[u8; 4]; 256]>,
) -> Vec<u8> {
    let mut out = b"SP".to_vec();
    out.push(minor);
    out.push(major);
    out.extend((pal.len() as u16).to_le_bytes());
    if major >= 2 {
        out.extend((rgba.len() as u16).to_le_bytes());
    }
    for f in pal {
        match f {
            Pal::Plain(w, h, px) => {
                out.extend(w.to_le_bytes());
                out.extend(h.to_le_bytes());
                out.extend(px);
            }
            Pal::Rle(w, h, bytes) => {
                out.extend(w.to_le_bytes());
                out.extend(h.to_le_bytes());
                out.extend((bytes.len() as u16).to_le_bytes());
                out.extend(bytes);
            }
        }
    }
    for (w, h, abgr) in rgba {
        out.extend(w.to_le_bytes());
        out.extend(h.to_le_bytes());
        out.extend(abgr);
    }
    if let Some(p) = palette {
        for e in p {
            out.extend(e);
        }
    }
    out
}

/// A 3×2 RGBA frame stored as the file has it: ABGR, bottom row first. Top row: red, green, blue opaque;
/// bottom row: half-transparent white, clear, (1, 2, 3, 4).
fn rgba_3x2() -> (u16, u16, Vec<u8>) {
    let bottom = [[128, 255, 255, 255], [0, 0, 0, 0], [4, 3, 2, 1]];
    let top = [[255, 0, 0, 255], [255, 0, 255, 0], [255, 255, 0, 0]];
    (3, 2, bottom.iter().chain(&top).flatten().copied().collect())
}

/// The same frame as relic should draw it: RGBA, top row first.
const RGBA_3X2: [u8; 24] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 128, 0, 0, 0, 0, 1, 2, 3, 4];

/// A 4×3 palette frame: 12 indices with a run of 5 zeros crossing from row 0 into row 1, and a lone zero.
const PAL_4X3: [u8; 12] = [7, 0, 0, 0, 0, 0, 9, 200, 0, 255, 1, 2];
/// Its RLE as an encoder writes it: runs as `00 n`.
const PAL_4X3_RLE: [u8; 10] = [7, 0, 5, 9, 200, 0, 1, 255, 1, 2];

fn colour(i: u8) -> [u8; 4] {
    if i == 0 {
        return [0, 0, 0, 0];
    }
    let [r, g, b, _] = palette()[usize::from(i)];
    [r, g, b, 255]
}

fn drawn(indices: &[u8]) -> Vec<u8> {
    indices.iter().flat_map(|&i| colour(i)).collect()
}

// =========================================================================================================
// Reading every version

#[test]
fn version_1_0_has_plain_frames_and_no_palette() {
    let bytes = hand_spr(0, 1, &[Pal::Plain(4, 3, PAL_4X3.to_vec()), Pal::Plain(1, 1, vec![3])], &[], None);
    let spr = Spr::read(&bytes).unwrap();
    assert_eq!(spr.version, Version::V1_0);
    assert_eq!(spr.palette_frames.len(), 2);
    assert_eq!(spr.palette_frames[0].indices, PAL_4X3);
    assert_eq!(spr.palette_frames[1].indices, [3]);
    assert_eq!(spr.palette, None);
    assert!(spr.rgba_frames.is_empty());
    assert!(spr.palette_frames_rgba(None).is_err(), "1.0 has no palette of its own");
    let drawn_with = spr.palette_frames_rgba(Some(&palette())).unwrap();
    assert_eq!(drawn_with[0].rgba, drawn(&PAL_4X3));
    assert_eq!(spr.to_bytes().unwrap(), bytes);
}

#[test]
fn version_1_1_has_plain_frames_and_the_palette() {
    let bytes = hand_spr(1, 1, &[Pal::Plain(4, 3, PAL_4X3.to_vec())], &[], Some(&palette()));
    let spr = Spr::read(&bytes).unwrap();
    assert_eq!(spr.version, Version::V1_1);
    assert_eq!(spr.palette, Some(palette()));
    let frames = spr.palette_frames_rgba(None).unwrap();
    assert_eq!((frames[0].width, frames[0].height), (4, 3));
    assert_eq!(frames[0].rgba, drawn(&PAL_4X3));
    // Index 0 is transparent though its colour is magenta; 255 is (255, 0, 127).
    assert_eq!(&frames[0].rgba[4..8], &[0, 0, 0, 0]);
    assert_eq!(&frames[0].rgba[36..40], &[255, 0, 127, 255]);
    assert_eq!(spr.to_bytes().unwrap(), bytes);
}

#[test]
fn version_2_0_adds_rgba_frames_bottom_up_abgr() {
    let bytes = hand_spr(0, 2, &[Pal::Plain(4, 3, PAL_4X3.to_vec())], &[rgba_3x2()], Some(&palette()));
    let spr = Spr::read(&bytes).unwrap();
    assert_eq!(spr.version, Version::V2_0);
    assert_eq!(spr.palette_frames[0].indices, PAL_4X3);
    assert_eq!(spr.palette_frames[0].rle, None);
    let rgba = spr.rgba_frames().unwrap();
    assert_eq!(rgba.len(), 1);
    assert_eq!((rgba[0].width, rgba[0].height), (3, 2));
    assert_eq!(rgba[0].rgba, RGBA_3X2);
    assert_eq!(spr.to_bytes().unwrap(), bytes);
}

#[test]
fn version_2_1_decodes_the_zero_run_rle_across_rows() {
    // Frame 1: 300 transparent pixels (20×15) stored as 00 FF 00 2D; frame 2: `00 00`, one zero (SPR.MD).
    let bytes = hand_spr(
        1,
        2,
        &[Pal::Rle(4, 3, PAL_4X3_RLE.to_vec()), Pal::Rle(20, 15, vec![0, 255, 0, 45]), Pal::Rle(2, 1, vec![0, 0, 6])],
        &[rgba_3x2()],
        Some(&palette()),
    );
    let spr = Spr::read(&bytes).unwrap();
    assert_eq!(spr.version, Version::V2_1);
    assert_eq!(spr.palette_frames[0].indices, PAL_4X3);
    assert_eq!(spr.palette_frames[1].indices, vec![0; 300]);
    assert_eq!(spr.palette_frames[2].indices, [0, 6]);
    assert_eq!(spr.palette_frames[0].rle.as_deref(), Some(&PAL_4X3_RLE[..]));
    let frames = spr.palette_frames_rgba(None).unwrap();
    assert_eq!(frames[0].rgba, drawn(&PAL_4X3));
    assert_eq!(frames[1].rgba, vec![0; 1200]);
    assert_eq!(spr.rgba_frames().unwrap()[0].rgba, RGBA_3X2);
    // `00 00` is kept as stored: byte for byte.
    assert_eq!(spr.to_bytes().unwrap(), bytes);
}

#[test]
fn an_edited_2_1_frame_is_encoded_afresh() {
    let bytes = hand_spr(1, 2, &[Pal::Rle(2, 1, vec![0, 0, 6])], &[], Some(&palette()));
    let mut spr = Spr::read(&bytes).unwrap();
    spr.palette_frames[0].indices = vec![0, 0];
    let out = spr.to_bytes().unwrap();
    // Frame: 2, 1, size 2, `00 02`; then the palette.
    assert_eq!(&out[8..16], &[2, 0, 1, 0, 2, 0, 0, 2]);
    assert_eq!(Spr::read(&out).unwrap().palette_frames[0].indices, [0, 0]);
    // A frame built in code, no RLE given.
    spr.palette_frames.push(PaletteFrame { width: 1, height: 3, indices: vec![4, 0, 0], rle: None });
    let again = Spr::read(&spr.to_bytes().unwrap()).unwrap();
    assert_eq!(again.palette_frames[1].rle.as_deref(), Some(&[4, 0, 2][..]));
}

#[test]
fn broken_files_are_refused_with_field_and_offset() {
    let good = hand_spr(1, 2, &[Pal::Rle(4, 3, PAL_4X3_RLE.to_vec())], &[rgba_3x2()], Some(&palette()));
    // An RLE that gives more pixels than the frame: a run of 6 zeros where 5 fit.
    let mut over = good.clone();
    over[8 + 6 + 2] = 6;
    let err = Spr::read(&over).unwrap_err().to_string();
    assert!(err.contains("ro-spr: palette_frames[0].rle at offset 0x"), "{err}");
    // An unknown version.
    let mut v = good.clone();
    v[3] = 3;
    assert!(Spr::read(&v).unwrap_err().to_string().contains("3.1"));
    // No room for the palette.
    let short = &good[..good.len() - 1];
    assert!(Spr::read(short).is_err());
    // A frame count no file that size can hold.
    let mut count = good.clone();
    count[4] = 0xFF;
    count[5] = 0xFF;
    let err = Spr::read(&count).unwrap_err().to_string();
    assert!(err.contains("palette_frame_count") || err.contains("palette_frames["), "{err}");
}

#[test]
fn truncated_and_flipped_files_never_panic() {
    for bytes in [
        hand_spr(0, 1, &[Pal::Plain(4, 3, PAL_4X3.to_vec())], &[], None),
        hand_spr(1, 1, &[Pal::Plain(4, 3, PAL_4X3.to_vec())], &[], Some(&palette())),
        hand_spr(0, 2, &[Pal::Plain(4, 3, PAL_4X3.to_vec())], &[rgba_3x2()], Some(&palette())),
        hand_spr(1, 2, &[Pal::Rle(4, 3, PAL_4X3_RLE.to_vec())], &[rgba_3x2()], Some(&palette())),
    ] {
        // The counts fix where the frames end, so every shorter file is refused.
        relic::testing::check_robustness(&bytes, true, |b| {
            let spr = Spr::read(b)?;
            let again = spr.to_bytes()?;
            assert_eq!(again, b, "an unedited sprite writes back byte for byte");
            spr.palette_frames_rgba(Some(&palette()))?;
            spr.rgba_frames()
        });
    }
}
