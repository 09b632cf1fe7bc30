//! Dark Reign hostile files (issue #23): each is built by hand and run through what `info`, `convert` and
//! `pack` call; the errors are asserted exactly (format, field, offset) and the heap is measured with a
//! counting allocator (as `limits.rs` does), so a small file cannot claim gigabytes.

use relic::codec::palette::Palette;
use relic::dark_reign::spr;
use relic::ops::{self, ConvertRequest, PackOptions};
use relic::registry::ConvertOptions;

use crate::counting::{peak_during, serial};

const MIB: usize = 1 << 20;

/// The (format, field, offset) an error names.
fn located(e: &relic::Error) -> (&'static str, String, u64) {
    let at = e.location().unwrap_or_else(|| panic!("no location: {e}"));
    (at.format, at.field.clone(), at.offset)
}

/// The (format, field) a writer's refusal names: a value of a document, which has no byte offset.
fn refused(e: &relic::Error) -> (Option<&'static str>, Option<&str>) {
    assert!(e.is_refusal(), "not a refusal: {e}");
    (e.format(), e.field())
}

/// An SPR file from its header values and tables (spec "SPR Sprite Format" with docs/formats/dark-reign.md#spr): one
/// section of anims 0..nanims with no hotspots, the anim-index table given, pictures at `offsets` of `bits`,
/// an empty hotspot table.
struct Spr<'a> {
    magic: &'a [u8; 4],
    nanims: i32,
    nrots: i32,
    szx: i32,
    szy: i32,
    picnr: Vec<i32>,
    offsets: Vec<i32>,
    bits: &'a [u8],
}

impl Spr<'_> {
    fn off_picoffs(&self) -> u64 {
        32 + 4 * self.picnr.len() as u64 + 16 + 4 * self.nanims as u64
    }

    fn off_bits(&self) -> u64 {
        self.off_picoffs() + 8 * self.offsets.len() as u64 + 4
    }

    fn bytes(&self) -> Vec<u8> {
        let mut out = self.magic.to_vec();
        let mut int = |v: i32| out.extend(v.to_le_bytes());
        for v in [0x0210, self.nanims, self.nrots, self.szx, self.szy, self.offsets.len() as i32, 1] {
            int(v);
        }
        self.picnr.iter().for_each(|&v| int(v));
        [0, self.nanims - 1, 65536, 0].into_iter().for_each(&mut int);
        (0..self.nanims).for_each(|_| int(0));
        for &o in &self.offsets {
            int(o);
            int(0);
        }
        int(self.bits.len() as i32);
        assert_eq!(out.len() as u64, self.off_bits());
        out.extend(self.bits);
        out.extend(0i32.to_le_bytes());
        out
    }
}

/// Finding 1: zero counts made every picture walk to the end of the pixel data (a 1 MB sprite: `info`
/// 1.8 GB, `convert` 4 GB, a 1.2 GB JSON). Two zero-pixel runs in a row are now an error at the second.
#[test]
fn zero_runs_that_make_no_progress_are_refused_where_they_are() {
    let _s = serial();
    // 1 MiB of zero counts, then one run that would end a line; 4096 pictures of 1 × 1 start in the zeros.
    let mut bits = vec![0u8; MIB];
    bits.push(1);
    let file = Spr {
        magic: b"RSPR",
        nanims: 1,
        nrots: 1,
        szx: 1,
        szy: 1,
        picnr: vec![0],
        offsets: (0..4096).collect(),
        bits: &bits,
    };
    let bytes = file.bytes();
    let (r, peak) = peak_during(|| spr::parse(&bytes));
    let e = r.unwrap_err();
    // Picture 0: a zero skip, then a zero opaque run at the next byte.
    assert_eq!(located(&e), ("dr-spr", "pictures[0].run count".into(), file.off_bits() + 1), "{e}");
    assert!(e.to_string().contains("no progress"), "{e}");
    assert!(peak < MIB, "{peak} bytes");
    let (r, peak) = peak_during(|| spr::to_assets(&bytes, &Palette::greyscale(), &ConvertOptions::default()));
    assert_eq!(located(&r.unwrap_err()).1, "pictures[0].run count");
    assert!(peak < MIB, "{peak} bytes");

    // A shadow sprite's 0x80 is a zero opaque run too; a line may still start with a zero skip.
    let bits = [0u8, 0x80, 0, 1];
    let shadow = Spr { magic: b"SSPR", offsets: vec![0], bits: &bits, ..file };
    let e = spr::parse(&shadow.bytes()).unwrap_err();
    assert_eq!(located(&e), ("dr-spr", "pictures[0].run count".into(), shadow.off_bits() + 1), "{e}");
    let fine = Spr { bits: &[0, 1], ..shadow };
    assert_eq!(spr::parse(&fine.bytes()).unwrap().pictures[0].pixels.as_ref().unwrap().0, [1]);
}

/// Finding 2, the header's side: a picture size the pixel data cannot encode (every line takes at least
/// `2·⌈w/255⌉ − 1` bytes in a normal sprite) is refused before its pixels are allocated.
#[test]
fn picture_sizes_the_pixel_data_cannot_encode_are_refused_before_allocating() {
    let _s = serial();
    let bits = [0u8; 1000];
    let file = Spr {
        magic: b"RSPR",
        nanims: 1,
        nrots: 1,
        szx: 8192,
        szy: 8192,
        picnr: vec![0],
        offsets: vec![0],
        bits: &bits,
    };
    let (r, peak) = peak_during(|| spr::parse(&file.bytes()));
    let e = r.unwrap_err();
    assert_eq!(located(&e), ("dr-spr", "szy".into(), 20), "{e}");
    assert!(e.to_string().contains("at least 532480 bytes"), "{e}");
    assert!(peak < MIB, "{peak} bytes");
    // Enough data in all, but a picture starting near its end.
    let mut bits = blank_lines(255, 64);
    bits.push(0);
    let late = Spr { szx: 255, szy: 64, offsets: vec![0, 2], bits: &bits, ..file };
    let e = spr::parse(&late.bytes()).unwrap_err();
    assert_eq!(located(&e), ("dr-spr", "picoffs[1].picoff".into(), late.off_picoffs() + 8), "{e}");
    // Shadow runs carry no bytes: 382 pixels take two counts.
    assert_eq!(spr::rle::min_line_bytes(382, true), 2);
    assert_eq!(spr::rle::min_line_bytes(8192, false), 65);
}

/// A blank line of `w` pixels as relic encodes it (skips of 255 split by zero opaque counts).
fn blank_lines(w: usize, h: usize) -> Vec<u8> {
    spr::rle::encode(&vec![0; w * h], w, false)
}

/// Finding 2: 8192² frames × 7 rotations from a 562 KB sprite took 2.2 GB. The pixels decode (64 MiB,
/// within `--max-pixels` and `--max-expansion`), but the RGBA of seven frames is charged to the budget and
/// refused before any frame is drawn.
#[test]
fn frames_whose_rgba_is_over_the_budget_are_refused_before_drawing() {
    let _s = serial();
    let bits = blank_lines(8192, 8192);
    assert_eq!(bits.len(), 8192 * 65);
    let file = Spr {
        magic: b"RSPR",
        nanims: 1,
        nrots: 7,
        szx: 8192,
        szy: 8192,
        picnr: vec![0; 7],
        offsets: vec![0],
        bits: &bits,
    };
    let bytes = file.bytes();
    let (r, peak) = peak_during(|| spr::to_assets(&bytes, &Palette::greyscale(), &ConvertOptions::default()));
    let e = r.unwrap_err();
    assert!(matches!(e, relic::Error::Limit { .. }), "{e}");
    assert_eq!(located(&e), ("dr-spr", "sections".into(), 32 + 4 * 7), "{e}");
    // The decoded picture (64 MiB) and its runs; no RGBA.
    assert!(peak < 72 * MIB, "{} MiB", peak / MIB);
    // One 2048² frame from 34 KB of blank lines fits (16 MiB of RGBA, as much again for the atlas).
    let bits = blank_lines(2048, 2048);
    let one = Spr { nrots: 1, szx: 2048, szy: 2048, picnr: vec![0], bits: &bits, ..file };
    let bytes = one.bytes();
    let (r, peak) = peak_during(|| spr::to_assets(&bytes, &Palette::greyscale(), &ConvertOptions::default()));
    assert_eq!(r.unwrap().len(), 3, "the frame, the atlas view and the document");
    assert!(peak < 40 * MIB, "{} MiB", peak / MIB);
}

/// Finding 5: `pack dr-spr` read a frame PNG that is a symbolic link, out of the document's folder. A link
/// is refused and named; the atlas view reached through a link is not read either.
#[cfg(unix)]
#[test]
fn pack_refuses_a_frame_png_that_is_a_link() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    let bits = [0u8, 2, 5, 6];
    let file =
        Spr { magic: b"RSPR", nanims: 1, nrots: 1, szx: 2, szy: 1, picnr: vec![0], offsets: vec![0], bits: &bits };
    let input = dir.path().join("unit.spr");
    std::fs::write(&input, file.bytes()).unwrap();
    let out = dir.path().join("out");
    let report = ops::convert(std::slice::from_ref(&input), &out, &ConvertRequest::default(), &ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let json = out.join("unit.spr/unit.spr.json");
    let frame = out.join("unit.spr/0_0_0.png");
    let back = dir.path().join("back.spr");
    let opts = PackOptions { force: true, ..Default::default() };
    ops::pack("dr-spr", &json, &back, &opts).unwrap();
    assert_eq!(std::fs::read(&back).unwrap(), file.bytes());

    // The frame replaced by a link to a PNG outside the folder.
    let outside = dir.path().join("elsewhere.png");
    std::fs::rename(&frame, &outside).unwrap();
    std::os::unix::fs::symlink(&outside, &frame).unwrap();
    let e = ops::pack("dr-spr", &json, &back, &opts).unwrap_err();
    let want = format!("refusing to read {0}: {0} is a link", frame.display());
    assert!(e.to_string().contains(&want), "{e}");
    // The atlas view through a link: not compared, and said.
    std::fs::remove_file(&frame).unwrap();
    std::fs::rename(&outside, &frame).unwrap();
    let view = out.join("unit.spr/atlas.view.png");
    std::fs::rename(&view, &outside).unwrap();
    std::os::unix::fs::symlink(&outside, &view).unwrap();
    let report = ops::pack("dr-spr", &json, &back, &opts).unwrap();
    assert!(report.notes.iter().any(|n| n.contains("the atlas view was not compared")), "{:?}", report.notes);
}

/// Finding 4: `pack dr-ftg` from a kilobyte of JSON whose `file_size` said 4294967295 wrote 4 GiB. A
/// document may imply no more zero bytes than it holds plus 64 KiB (`layout::Canvas`); the lossless JSON is
/// refused naming `file_size`, and a folder's `directory.json` whose `layout.file_size` says so is laid out
/// afresh from its files, with a note.
#[test]
fn ftg_sizes_the_document_does_not_hold_are_refused() {
    use relic::dark_reign::ftg::{self, NewEntry};
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    let entries =
        [NewEntry { name: "A.WAV".into(), data: vec![1; 300] }, NewEntry { name: "B.SPR".into(), data: vec![2; 200] }];
    let archive = ftg::write_new(&entries).unwrap();
    let mut value = ftg::FORMAT.to_json(&archive).unwrap();
    value["file_size"] = serde_json::json!(4294967295u64);
    let json = dir.path().join("big.json");
    std::fs::write(&json, serde_json::to_vec(&value).unwrap()).unwrap();
    assert!(std::fs::metadata(&json).unwrap().len() < 2048);
    let out = dir.path().join("big.ftg");
    let opts = PackOptions { force: true, ..Default::default() };
    let (r, peak) = peak_during(|| ops::pack("dr-ftg", &json, &out, &opts));
    let e = r.unwrap_err();
    assert_eq!(refused(&e), (Some("dr-ftg"), Some("file_size")), "{e}");
    assert!(peak < MIB, "{peak} bytes");
    assert!(!out.exists());

    // A folder whose directory.json claims the same: its files packed afresh, and said.
    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    for e in &entries {
        std::fs::write(folder.join(&e.name), &e.data).unwrap();
    }
    let (index, bytes) = ftg::FORMAT.archive.and_then(|a| a.extraction_index(&archive, "x.ftg")).unwrap().unwrap();
    let mut index_value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    index_value["layout"]["file_size"] = serde_json::json!(4294967295u64);
    std::fs::write(folder.join(&index), serde_json::to_vec(&index_value).unwrap()).unwrap();
    let (r, peak) = peak_during(|| ops::pack("dr-ftg", &folder, &out, &opts));
    let report = r.unwrap();
    assert!(peak < MIB, "{peak} bytes");
    assert_eq!(std::fs::read(&out).unwrap(), archive, "the simple layout is the archive's own");
    assert!(
        report.notes.iter().any(|n| n.contains("laid out afresh") && n.contains("file_size")),
        "{:?}",
        report.notes
    );
}

/// Finding 4 for sprites: `pack dr-spr` with `layout.end` 1073741823 wrote 1 GiB. The lossless document is
/// refused naming `layout.end`; the document of `relic convert` lays its pictures out afresh, with a note.
#[test]
fn spr_pixel_data_the_document_does_not_hold_is_refused() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    // A non-zero byte before the picture: the document keeps offsets, end marker and gap.
    let bits = [9u8, 0, 2, 5, 6];
    let file =
        Spr { magic: b"RSPR", nanims: 1, nrots: 1, szx: 2, szy: 1, picnr: vec![0], offsets: vec![1], bits: &bits };
    let bytes = file.bytes();
    let mut value = spr::FORMAT.to_json(&bytes).unwrap();
    assert_eq!(value["layout"]["end"], 5);
    assert_eq!(spr::FORMAT.from_json(value.clone(), &Default::default()).unwrap(), bytes);
    value["layout"]["end"] = serde_json::json!(1073741823);
    let json = dir.path().join("big.json");
    std::fs::write(&json, serde_json::to_vec(&value).unwrap()).unwrap();
    let out = dir.path().join("big.spr");
    let opts = PackOptions { force: true, ..Default::default() };
    let (r, peak) = peak_during(|| ops::pack("dr-spr", &json, &out, &opts));
    let e = r.unwrap_err();
    assert_eq!(refused(&e), (Some("dr-spr"), Some("layout.end")), "{e}");
    assert!(peak < MIB, "{peak} bytes");

    // The document of `relic convert`, edited the same way.
    let input = dir.path().join("unit.spr");
    std::fs::write(&input, &bytes).unwrap();
    let converted = dir.path().join("out");
    let report = ops::convert(std::slice::from_ref(&input), &converted, &ConvertRequest::default(), &ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let json = converted.join("unit.spr/unit.spr.json");
    let mut value: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    value["layout"]["end"] = serde_json::json!(1073741823);
    std::fs::write(&json, serde_json::to_vec(&value).unwrap()).unwrap();
    let (r, peak) = peak_during(|| ops::pack("dr-spr", &json, &out, &opts));
    let report = r.unwrap();
    assert!(peak < MIB, "{peak} bytes");
    assert!(report.notes.iter().any(|n| n.contains("laid out one after the other")), "{:?}", report.notes);
    let doc = spr::parse(&std::fs::read(&out).unwrap()).unwrap();
    assert!(doc.layout.is_none());
    assert_eq!(doc.pictures[0].pixels.as_ref().unwrap().0, [5, 6]);
}

/// An FTG of `entries` (name, offset, size) over `data` placed at offset 12, the directory after it.
fn ftg_bytes(data: &[u8], entries: &[(String, u32, u32)]) -> Vec<u8> {
    let mut out = b"BOTG".to_vec();
    out.extend((12 + data.len() as u32).to_le_bytes());
    out.extend((entries.len() as u32).to_le_bytes());
    out.extend(data);
    for (name, offset, size) in entries {
        let mut field = [0u8; 28];
        field[..name.len()].copy_from_slice(name.as_bytes());
        out.extend(field);
        out.extend(offset.to_le_bytes());
        out.extend(size.to_le_bytes());
    }
    out
}

/// Finding 3, what the format can do (sharing the conversions needs `ops/convert.rs`): 200 entries sharing
/// one sprite and one overlapping it in part are counted by `info` and noted by `convert`.
#[test]
fn shared_and_overlapping_ftg_data_is_counted_and_noted() {
    use relic::dark_reign::ftg;
    let _s = serial();
    let bits = [0u8, 2, 5, 6];
    let sprite =
        Spr { magic: b"RSPR", nanims: 1, nrots: 1, szx: 2, szy: 1, picnr: vec![0], offsets: vec![0], bits: &bits }
            .bytes();
    let len = sprite.len() as u32;
    let mut entries: Vec<(String, u32, u32)> = (0..200).map(|i| (format!("UNIT{i}.SPR"), 12, len)).collect();
    entries.push(("PART.BIN".into(), 14, len - 2));
    entries.push(("EMPTY.BIN".into(), 12, 0));
    let archive = ftg_bytes(&sprite, &entries);
    let parsed = ftg::parse(&archive).unwrap();
    let meet = ftg::convert::sharing(&parsed);
    assert_eq!(meet.shared.len(), 199);
    assert_eq!(meet.shared[0], (1, 0));
    assert_eq!(meet.overlapping, vec![(200, 0)]);
    let info = ftg::FORMAT.info(&archive).unwrap();
    assert_eq!((info["shared_data"].clone(), info["overlapping_data"].clone()), (199.into(), 1.into()));

    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("units.ftg");
    std::fs::write(&input, &archive).unwrap();
    let req = ConvertRequest::default();
    let report = ops::convert(std::slice::from_ref(&input), &dir.path().join("out"), &req, &ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let notes = req.options.notes.lock().unwrap().clone();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("199 entries have the very data of an earlier entry (`UNIT1.SPR` that of `UNIT0.SPR`")),
        "{notes:?}"
    );
    assert!(
        notes.iter().any(|n| n.contains("1 entries' data overlaps another's in part (`PART.BIN` and `UNIT0.SPR`)")),
        "{notes:?}"
    );
}
