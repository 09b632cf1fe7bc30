//! Extraction throughput of a large Evil Islands RES archive, against a plain file copy of the same archive.
//!
//! Setup (once, not timed): a RES archive of `RELIC_BENCH_MIB` MiB (default 256) is written into a temporary
//! folder with `write_archive`: entries of 256 KiB of pseudo-random bytes (so nothing compresses or
//! deduplicates), named `dir{k}\file{i}.bin` across 16 folders.
//!
//! Timed:
//! - `extract/relic`: `relic::ops::extract` of the whole archive (memory map, table parse, path checks,
//!   one temporary file per entry renamed into place, entries written in parallel), overwriting the
//!   previous iteration's output (`force`).
//! - `extract/fs_copy`: `std::fs::copy` of the archive to one file: the same bytes read and written, which
//!   bounds what extraction can reach.
//! - `parse/table`: `relic::evil_islands::res::parse` of the mapped archive (header and file table only; the
//!   entries' data is not touched).
//!
//! Run: `cargo bench -p relic --bench extract` (set `RELIC_BENCH_MIB=64` for a quicker run).

use std::fs::File;
use std::hint::black_box;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput};
use relic::evil_islands::res::{self, PackInput, PackOptions, PackSource};
use relic::ops::{self, ExtractOptions, Quiet};

/// Size of each entry.
const ENTRY_SIZE: usize = 256 * 1024;
/// Entries are spread over this many folders.
const FOLDERS: usize = 16;
/// Archive size when `RELIC_BENCH_MIB` is not set.
const DEFAULT_MIB: usize = 256;

/// The generated archive and the folder that holds it and the benchmarks' outputs (removed on drop).
struct Fixture {
    _dir: tempfile::TempDir,
    archive: PathBuf,
    /// Where `extract` writes.
    out_dir: PathBuf,
    /// Where `fs::copy` writes.
    copy_target: PathBuf,
    entries: usize,
    /// Sum of the entries' sizes: what extraction writes.
    content_bytes: u64,
    /// Size of the archive file: what the copy writes (content plus header, table and names).
    archive_bytes: u64,
}

/// xorshift64*: cheap, deterministic bytes that neither compress nor repeat between entries.
struct XorShift(u64);

impl XorShift {
    fn fill(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            let word = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D).to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }
}

fn archive_mib() -> usize {
    match std::env::var("RELIC_BENCH_MIB") {
        Ok(v) => {
            let mib: usize = v.trim().parse().unwrap_or_else(|_| panic!("RELIC_BENCH_MIB=`{v}` is not a whole number"));
            // RES offsets are 32-bit: keep the archive under 4 GiB.
            assert!((1..4096).contains(&mib), "RELIC_BENCH_MIB must be between 1 and 4095, not {mib}");
            mib
        }
        Err(_) => DEFAULT_MIB,
    }
}

impl Fixture {
    fn new() -> Fixture {
        let mib = archive_mib();
        let entries = mib * (1024 * 1024 / ENTRY_SIZE);
        let dir = tempfile::Builder::new().prefix("relic-bench-").tempdir().unwrap();
        let archive = dir.path().join("bench.res");

        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let inputs: Vec<PackInput> = (0..entries)
            .map(|i| {
                let mut data = vec![0u8; ENTRY_SIZE];
                rng.fill(&mut data);
                PackInput {
                    name: format!("dir{}\\file{i}.bin", i % FOLDERS).into_bytes(),
                    modified: 1_000_000_000 + i as u32,
                    source: PackSource::Bytes(data),
                }
            })
            .collect();
        let mut out = BufWriter::new(File::create(&archive).unwrap());
        // Every entry differs, so deduplication would only add hashing time to the setup.
        let written = res::write_archive(inputs, PackOptions { dedupe: false }, &mut out).unwrap();
        out.flush().unwrap();
        drop(out);
        let archive_bytes = std::fs::metadata(&archive).unwrap().len();
        assert_eq!(written, archive_bytes);
        eprintln!("bench archive: {} entries, {archive_bytes} bytes, in {}", entries, dir.path().display());

        Fixture {
            out_dir: dir.path().join("out"),
            copy_target: dir.path().join("copy.res"),
            archive,
            _dir: dir,
            entries,
            content_bytes: (entries * ENTRY_SIZE) as u64,
            archive_bytes,
        }
    }
}

/// Extracts the whole archive, overwriting the previous run's files.
fn extract_once(archive: &Path, out_dir: &Path, expect_files: usize) {
    let opts = ExtractOptions { force: true, ..Default::default() };
    let report = ops::extract(archive, out_dir, &opts, &Quiet).unwrap();
    assert!(report.failures.is_empty(), "extraction failed: {:?}", report.failures);
    assert_eq!(report.written.len(), expect_files);
    black_box(report);
}

fn bench_extract(c: &mut Criterion, f: &Fixture) {
    let mut group = c.benchmark_group("extract");
    // Each iteration moves hundreds of MiB: few samples, one iteration or so each.
    group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_secs(2));
    group.measurement_time(Duration::from_secs(15));

    group.throughput(Throughput::Bytes(f.content_bytes));
    group.bench_function("relic", |b| b.iter(|| extract_once(&f.archive, &f.out_dir, f.entries)));

    group.throughput(Throughput::Bytes(f.archive_bytes));
    group.bench_function("fs_copy", |b| {
        b.iter(|| {
            let n = std::fs::copy(&f.archive, &f.copy_target).unwrap();
            assert_eq!(n, f.archive_bytes);
        })
    });
    group.finish();
}

fn bench_parse(c: &mut Criterion, f: &Fixture) {
    // Mapped once, as `extract` does; only the table parse is timed.
    let data = relic::source::open(&f.archive).unwrap();
    let mut group = c.benchmark_group("parse");
    group.sample_size(10).measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Elements(f.entries as u64));
    group.bench_function("table", |b| {
        b.iter(|| {
            let archive = res::parse(black_box(&data)).unwrap();
            assert_eq!(archive.len(), f.entries);
            black_box(archive);
        })
    });
    group.finish();
}

// A hand-written `main` instead of `criterion_group!`/`criterion_main!`, so that the archive is generated
// once for every benchmark and its temporary folder is removed at the end.
fn main() {
    let fixture = Fixture::new();
    let mut c = Criterion::default().configure_from_args();
    bench_extract(&mut c, &fixture);
    bench_parse(&mut c, &fixture);
    c.final_summary();
}
