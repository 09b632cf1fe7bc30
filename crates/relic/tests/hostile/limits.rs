//! Resource limits: a small hostile file cannot exhaust memory or disk. Each bomb is built by hand
//! (`relic::testing`), run through the same operations the CLI calls, and the heap is measured with a
//! counting allocator: anonymous memory stays under 64 MiB whatever the file declares.

use std::path::Path;

use relic::ops::{self, ConvertRequest, ExtractOptions, PackOptions, Quiet};
use relic::testing::{grf_bytes, png_header_only, zeros_zlib, GrfBombEntry};

use crate::counting::{peak_during, BOUND, SERIAL};

use crate::common::write_file as write;

fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    if !dir.exists() {
        return vec![];
    }
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect()
}

/// 1 GiB of zeros, honestly compressed (about 1 MiB).
fn gib_stream() -> Vec<u8> {
    zeros_zlib(1 << 30)
}

#[test]
fn grf_table_bomb_is_refused_before_inflating() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    // A 1 MiB GRF whose table inflates (honestly) to 1 GiB, with a count that could need it.
    let stream = gib_stream();
    let grf = write(dir.path(), "table_bomb.grf", &grf_bytes(&[], &[], 4_000_000, Some((&stream, 1 << 30))));
    assert!(std::fs::metadata(&grf).unwrap().len() < 1_200_000);
    let (info, peak) = peak_during(|| ops::info(&grf));
    let err = info.unwrap_err().to_string();
    assert!(err.contains("table.real_size") && err.contains("table bomb"), "{err}");
    assert!(err.starts_with(&format!("{}: ", grf.display())), "the error names the file: {err}");
    assert!(peak < BOUND, "info took {peak} bytes");
    let (listed, peak) = peak_during(|| ops::list(&grf, true));
    assert!(listed.is_err());
    assert!(peak < BOUND, "ls took {peak} bytes");
    let (checked, peak) = peak_during(|| ops::check(std::slice::from_ref(&grf), &Quiet));
    assert_eq!(checked[0].outcome, "failed");
    assert!(peak < BOUND, "check took {peak} bytes");
}

#[test]
fn entries_pointing_at_one_huge_stream_are_refused_before_anything_is_written() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    // 64 entries share one honest 1 GiB stream: 64 GiB from a 1 MiB file.
    let stream = gib_stream();
    let entries: Vec<GrfBombEntry> = (0..64)
        .map(|i| GrfBombEntry {
            name: format!("data\\zero{i:02}.bin"),
            offset: 0,
            compressed: stream.len() as u32,
            real: 1 << 30,
        })
        .collect();
    let grf = write(dir.path(), "bomb.grf", &grf_bytes(&stream, &entries, 64, None));
    // Listing is fine: it inflates only the heads.
    let (listed, peak) = peak_during(|| ops::list(&grf, false));
    assert_eq!(listed.unwrap().len(), 64);
    assert!(peak < BOUND, "ls took {peak} bytes");
    let out = dir.path().join("out");
    let (extracted, peak) = peak_during(|| ops::extract(&grf, &out, &ExtractOptions::default(), &Quiet));
    let err = extracted.unwrap_err().to_string();
    assert!(err.contains("would expand") && err.contains("--max-expansion"), "{err}");
    assert!(files_under(&out).is_empty(), "nothing may be written");
    assert!(peak < BOUND, "extract took {peak} bytes");
    let conv = dir.path().join("conv");
    let (report, peak) =
        peak_during(|| ops::convert(std::slice::from_ref(&grf), &conv, &ConvertRequest::default(), &Quiet));
    assert!(report.outputs.is_empty() && report.failures.len() == 1, "{:?}", report.failures);
    // The real figures: the file's size and the 64 GiB its entries would make, not a sentinel.
    let size = std::fs::metadata(&grf).unwrap().len();
    let want = format!("would expand {size} bytes to {} bytes", 64u64 << 30);
    assert!(report.failures[0].contains(&want), "{want}: {:?}", report.failures);
    assert!(files_under(&conv).is_empty());
    assert!(peak < BOUND, "convert took {peak} bytes");
}

#[test]
fn an_entry_inflating_past_its_declared_size_is_cut_off_in_bounded_memory() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    // Declares 1 MiB; the stream goes on to 1 GiB.
    let stream = gib_stream();
    let entry = GrfBombEntry { name: "liar.bin".into(), offset: 0, compressed: stream.len() as u32, real: 1 << 20 };
    let grf = write(dir.path(), "liar.grf", &grf_bytes(&stream, &[entry], 1, None));
    let out = dir.path().join("out");
    let (extracted, peak) = peak_during(|| ops::extract(&grf, &out, &ExtractOptions::default(), &Quiet));
    let report = extracted.unwrap();
    assert!(report.written.is_empty());
    assert_eq!(report.failures.len(), 1);
    assert!(report.failures[0].contains("more than the 1048576 bytes declared"), "{:?}", report.failures);
    assert!(
        report.failures[0].contains("liar.grf") && report.failures[0].contains("liar.bin"),
        "{:?}",
        report.failures
    );
    assert!(files_under(&out).is_empty(), "no partial file, no temporary file: {:?}", files_under(&out));
    assert!(peak < BOUND, "extract took {peak} bytes");
}

#[test]
fn a_declared_size_over_max_entry_size_is_refused() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let stream = zeros_zlib(1 + 258 * 40_000);
    let size = 1 + 258 * 40_000;
    let entry = GrfBombEntry { name: "big.bin".into(), offset: 0, compressed: stream.len() as u32, real: size };
    // Padding keeps the file under the expansion limit (pure zeros compress past 1000:1).
    let mut data = stream.clone();
    data.resize(stream.len() + 20_000, 0);
    let grf = write(dir.path(), "big.grf", &grf_bytes(&data, &[entry], 1, None));
    let saved = relic::limits::current();
    relic::limits::set(relic::limits::Limits { max_entry_size: 1 << 20, ..saved });
    let report = ops::extract(&grf, &dir.path().join("out"), &ExtractOptions::default(), &Quiet);
    relic::limits::set(saved);
    let report = report.unwrap();
    assert!(report.failures[0].contains("over relic's limit of 1048576 (--max-entry-size)"), "{:?}", report.failures);
    // Under the default limit the same entry is honest and extracts whole.
    let report = ops::extract(&grf, &dir.path().join("out2"), &ExtractOptions::default(), &Quiet).unwrap();
    assert_eq!((report.written.len(), report.bytes), (1, u64::from(size)));
}

#[test]
fn a_png_pixel_bomb_is_refused_before_decoding() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let png = write(dir.path(), "huge.png", &png_header_only(20_000, 20_000));
    let out = dir.path().join("huge.mmp");
    let (packed, peak) = peak_during(|| ops::pack("ei-mmp", &png, &out, &PackOptions::default()));
    let err = packed.unwrap_err().to_string();
    assert!(err.contains("20000×20000") && err.contains("--max-pixels"), "{err}");
    assert!(err.contains("huge.png"), "the error names the input: {err}");
    assert!(!out.exists());
    assert!(peak < BOUND, "pack took {peak} bytes");
}

/// A RES holding one entry `inner.res` holding … `depth` levels down a text file.
fn nested_res(depth: usize) -> Vec<u8> {
    use relic::evil_islands::res::{write_archive, PackInput, PackOptions, PackSource};
    let mut bytes = b"bottom".to_vec();
    let mut name = "bottom.txt";
    for _ in 0..depth {
        let input = PackInput { name: name.as_bytes().to_vec(), modified: 0, source: PackSource::Bytes(bytes) };
        let mut out = Vec::new();
        write_archive(vec![input], PackOptions::default(), &mut out).unwrap();
        bytes = out;
        name = "inner.res";
    }
    bytes
}

#[test]
fn archives_nested_200_deep_end_with_a_clear_error() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let res = write(dir.path(), "deep.res", &nested_res(200));
    let err = ops::list(&res, true).unwrap_err().to_string();
    assert!(err.contains("nested more than 32 archives deep"), "{err}");
    let opts = ExtractOptions { recursive: true, ..Default::default() };
    let err = ops::extract(&res, &dir.path().join("x"), &opts, &Quiet).unwrap_err().to_string();
    assert!(err.contains("nested more than 32"), "{err}");
    let report = ops::convert(std::slice::from_ref(&res), &dir.path().join("c"), &ConvertRequest::default(), &Quiet);
    assert!(report.failures.iter().any(|f| f.contains("nested more than 32")), "{:?}", report.failures);
    // Not nested recursively, the same archive lists its one entry.
    assert_eq!(ops::list(&res, false).unwrap().len(), 1);
    // 20 deep is fine all the way down.
    let shallow = write(dir.path(), "shallow.res", &nested_res(20));
    let listed = ops::list(&shallow, true).unwrap();
    assert_eq!(listed.last().unwrap().name, format!("{}bottom.txt", "inner.res/".repeat(19)));
}
