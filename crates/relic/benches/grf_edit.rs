//! Replacing one file of a large GRF in place (`relic edit`), against rewriting the whole archive.
//!
//! Setup (once, not timed): a GRF 0x200 of `RELIC_BENCH_GRF_MIB` MiB (default 2048: 2 GiB) is written into a
//! temporary folder (removed at the end): 1 MiB entries `data\bench\{i}.bin` stored as they are (compressed
//! size = real size, no zlib header, which readers take as stored), so the archive is quick to build; the
//! table and header come from relic's own GRF writers. The replacement is 1 MiB of pseudo-random bytes.
//!
//! Timed:
//! - `grf_edit/replace_1mib_in_place`: `relic::ops::edit` replacing one entry: the new entry compressed
//!   (zlib level 9) and appended, a new table appended, both flushed to disk (`fsync`), the header
//!   rewritten and flushed, and the archive's table read back to check it. Each iteration leaves ~1 MiB of
//!   dead space, as an edit does.
//! - `grf_edit/rewrite_whole`: `relic::ops::edit --repack` of the same archive: every entry's stored bytes
//!   copied into a fresh archive written beside it and renamed over it. That is the cheapest whole rewrite
//!   (`relic pack` would also compress every entry again), so it bounds any rewrite from below.
//!
//! Run: `cargo bench -p relic --bench grf_edit` (`RELIC_BENCH_GRF_MIB=256` for a quicker run).

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, SamplingMode};
use relic::ops::{self, AddSpec, EditRequest};
use relic::ragnarok::grf::types::{GrfHeader, GrfRecord, Signature, DEFAULT_KEY, FLAG_FILE, VERSION_0X200};
use relic::ragnarok::grf::write::{header_bytes, table_bytes, LEVEL};

const ENTRY: usize = 1 << 20;
const DEFAULT_MIB: usize = 2048;

/// xorshift64*: bytes that do not compress.
fn noise(buf: &mut [u8], seed: u64) {
    let mut x = seed | 1;
    for chunk in buf.chunks_mut(8) {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        let word = x.wrapping_mul(0x2545_F491_4F6C_DD1D).to_le_bytes();
        chunk.copy_from_slice(&word[..chunk.len()]);
    }
}

/// Writes the archive: header, `count` stored 1 MiB entries, the zlib table.
fn build(path: &Path, count: usize) {
    let mut out = BufWriter::with_capacity(8 << 20, std::fs::File::create(path).unwrap());
    let names: Vec<Vec<u8>> = (0..count).map(|i| format!("data\\bench\\{i:05}.bin").into_bytes()).collect();
    let records: Vec<GrfRecord> = (0..count)
        .map(|i| GrfRecord {
            compressed_size: ENTRY as u32,
            aligned_size: ENTRY as u32,
            real_size: ENTRY as u32,
            flags: FLAG_FILE,
            offset: (i * ENTRY) as u64,
        })
        .collect();
    let table = table_bytes(
        relic::ragnarok::grf::types::Layout::V2,
        names.iter().zip(&records).map(|(n, r)| (n.as_slice(), None, *r)),
        &[],
    )
    .unwrap();
    let packed = relic::codec::zlib::compress(&table, LEVEL);
    let header = GrfHeader {
        key: DEFAULT_KEY,
        table_offset: (count * ENTRY) as u64,
        seed: 0,
        raw_count: count as u32 + 7,
        version: VERSION_0X200,
    };
    out.write_all(&header_bytes(&header, Signature::MasterOfMagic).unwrap()).unwrap();
    let mut entry = vec![0u8; ENTRY];
    for i in 0..count {
        // A cheap pattern, distinct per entry, whose first bytes are no zlib header (so it reads as stored).
        entry.fill((i % 251) as u8);
        entry[..8].copy_from_slice(&(i as u64).to_be_bytes());
        entry[0] = 0;
        out.write_all(&entry).unwrap();
    }
    out.write_all(&(packed.len() as u32).to_le_bytes()).unwrap();
    out.write_all(&(table.len() as u32).to_le_bytes()).unwrap();
    out.write_all(&packed).unwrap();
    out.flush().unwrap();
}

fn main() {
    let mib = std::env::var("RELIC_BENCH_GRF_MIB").ok().and_then(|v| v.parse().ok()).unwrap_or(DEFAULT_MIB);
    let dir = tempfile::tempdir_in(std::env::var_os("RELIC_BENCH_DIR").map_or_else(std::env::temp_dir, PathBuf::from))
        .unwrap();
    let archive = dir.path().join("data.grf");
    let started = std::time::Instant::now();
    build(&archive, mib);
    eprintln!(
        "built {} ({} MiB, {mib} entries) in {:.1?}",
        archive.display(),
        std::fs::metadata(&archive).unwrap().len() >> 20,
        started.elapsed()
    );
    let replacement = dir.path().join("replacement.bin");
    let mut bytes = vec![0u8; ENTRY];
    noise(&mut bytes, 42);
    std::fs::write(&replacement, &bytes).unwrap();
    let replace = EditRequest {
        add: vec![AddSpec::File { path: replacement.clone(), name: Some(format!("data\\bench\\{:05}.bin", mib / 2)) }],
        ..Default::default()
    };
    let repack = EditRequest { repack: true, ..Default::default() };

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("grf_edit");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("replace_1mib_in_place", |b| b.iter(|| ops::edit(&archive, &replace).unwrap()));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(60));
    group.bench_function("rewrite_whole", |b| b.iter(|| ops::edit(&archive, &repack).unwrap()));
    group.finish();
    c.final_summary();
    // The archive and its folder are removed here.
    drop(dir);
}
