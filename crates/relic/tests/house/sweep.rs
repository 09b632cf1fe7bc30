//! The reliability sweep: every file of `samples/` and of `../shared/corpus/` (when present) that relic
//! identifies is truncated and bit-flipped, and every mutant goes through what the CLI does with a file:
//! `info`, `ls` (entries and their heads), `convert` (for archives every entry's bytes and one level of
//! nested conversion; for the others the asset model exported to every extension; `--to json`) and, for
//! writable formats, `convert --to json` → `pack`. Never a panic, never a hang, never unbounded memory:
//!
//! - panics are caught per mutant and reported with the file, the mutation and the stage;
//! - a watchdog fails the test when one mutant runs longer than [`MUTANT_TIMEOUT`] (or ten times as long as
//!   the unmutated file, for files that are slow anyway);
//! - a counting allocator measures each mutant's peak heap and holds it under [`memory_bound`];
//! - a writer must never write a file its own reader refuses (`info` and `to_json` of the packed bytes),
//!   and an unmutated file written back from its JSON document must come out byte-identical.
//!
//! Files relic does not identify (the corpus's checksum lists) are listed as skipped; once a format claims
//! them they are swept with no edit here, within the budget below.
//!
//! # Mutants
//!
//! Per file of `len` bytes, in a fixed order (a failure names its mutant, which is the same on every run):
//! - truncations: every proper prefix when `len <= SMALL_FILE`, else 256 evenly spaced lengths
//!   (`i * len / 256`) plus `len - 1`; taken coarse to fine (0, len/2, len/4, 3len/4, …), so that any
//!   leading part of the list is spread over the whole file;
//! - flips: [`FLIPS`] single-bit flips of the original, at bit positions drawn from a xorshift64* generator
//!   seeded with the file's name and length;
//! - the unmutated file first, then truncations and flips alternately.
//!
//! Two shortcuts keep mutants cheap without changing what is checked: an archive entry whose name and
//! stored bytes equal the unmutated file's entry at the same place is not converted again (its conversion
//! is the unmutated file's, already checked), and beyond [`TEXT_ROUND_TRIP_BYTES`] only the unmutated
//! file's document goes through JSON text on its way to `pack` (mutants' documents go as values).
//!
//! # Budget
//!
//! Every mutant runs the whole pipeline, which an unoptimised build does slowly: per mutant about 40 ms for
//! the corpus's 130 KiB RSM, 75 ms for its 800 KiB RES and 150–400 ms for its 420 KiB MOB (JSON documents
//! dominate), so the whole plan of the corpus takes about 7 minutes in a debug build, and under a minute
//! in a release build. Hence two modes:
//!
//! - **full** (a release build, `cargo test --release -p relic --test sweep`, or `RELIC_SWEEP_FULL=1`):
//!   files up to [`FULL_SWEEP_BYTES`] get the whole plan; larger files a plan scaled down by
//!   `len / FULL_SWEEP_BYTES` (never under [`MIN_MUTANTS`] of each kind), stopped after
//!   [`LARGE_FILE_SECONDS`].
//! - **budgeted** (the default debug build, which CI runs): files up to [`DEBUG_FULL_BYTES`] and samples up
//!   to [`DEBUG_FULL_SAMPLE_BYTES`] (every sample, which the test checks) get the whole plan; a larger file up to [`FULL_SWEEP_BYTES`] gets the
//!   unmutated run and at least [`MIN_MUTANTS`] truncations and flips (unless it reaches
//!   [`DEBUG_FILE_HARD_SECONDS`]), then as much of its plan, in order, as fits in [`DEBUG_FILE_SECONDS`];
//!   larger files (FreeRCT's 7–50 MB ones) are left to the full mode. The summary line says how
//!   much of the plan ran; the full mode runs the rest.
//!
//! Files are swept by [`WORKERS`] threads (CI has two cores; the counting allocator counts per thread, so
//! each mutant's peak is its own).
//!
//! `RELIC_SWEEP_ONLY=TEXT` sweeps only the files whose path contains TEXT (the count checks are then
//! skipped); `RELIC_SWEEP_DUMP=DIR` writes each failing mutant to `DIR/<format>/<blake3>`, the layout of
//! `tests/regression/`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use relic::asset::{Entry, EntryData, SNIFF_BYTES};
use relic::registry::{self, ConvertOptions, Format};

// ---------------------------------------------------------------------------------------------------------
// Counting allocator: current and peak heap bytes of the calling thread.

struct Counting;

thread_local! {
    static CURRENT: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count(delta: isize) {
    // `try_with`: a thread being torn down has no counters left; its last frees are not counted.
    let _ = CURRENT.try_with(|c| {
        let now = c.get().wrapping_add(delta);
        c.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

// SAFETY: every method forwards to `System` unchanged; the bookkeeping only touches const-initialised
// thread-local cells, which neither allocate nor unwind.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        count(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            count(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Starts a measurement on this thread: the peak restarts from the current heap, which is returned.
fn reset_peak() -> isize {
    let now = CURRENT.with(Cell::get);
    PEAK.with(|p| p.set(now));
    now
}

/// Peak heap bytes on this thread above `base` since `reset_peak` returned it.
fn peak_since(base: isize) -> usize {
    usize::try_from(PEAK.with(Cell::get) - base).unwrap_or(0)
}

// ---------------------------------------------------------------------------------------------------------
// The plan

/// Files up to this size are truncated at every length.
const SMALL_FILE: usize = 4096;
/// Evenly spaced truncation lengths for larger files (plus `len - 1`).
const TRUNCATIONS: usize = 256;
/// Seeded single-bit flips per file.
const FLIPS: usize = 1000;
/// Full mode: files up to this size get the whole plan.
const FULL_SWEEP_BYTES: usize = 4 << 20;
/// Full mode: time limit of a file larger than `FULL_SWEEP_BYTES`.
const LARGE_FILE_SECONDS: u64 = 60;
/// Budgeted mode: files up to this size get the whole plan: the corpus's small files and every sample but
/// the map sectors (the next largest, `level.mob`, has 5,445 bytes).
const DEBUG_FULL_BYTES: usize = 6 << 10;
/// Budgeted mode: samples up to this size get the whole plan too: every sample (the largest, the map sector
/// `isle001000.sec`, has 18,965 bytes: a sector's size is fixed).
const DEBUG_FULL_SAMPLE_BYTES: usize = 20 << 10;
/// Budgeted mode: time for a larger file, after its first `MIN_MUTANTS` truncations and flips. With two
/// workers, the corpus's nine larger files take about 9 × 6 / 2 ≈ 30 s; FreeRCT's 11 `.rcd` files between
/// 6 KiB and 4 MiB add about 60 s (`scenery.rcd` needs 18 s for its floor of mutants; `paths.rcd` stops at
/// `DEBUG_FILE_HARD_SECONDS` just before its floor).
const DEBUG_FILE_SECONDS: u64 = 6;
/// Budgeted mode: a file stops at this time even before its floor of mutants.
const DEBUG_FILE_HARD_SECONDS: u64 = 4 * DEBUG_FILE_SECONDS;
/// Floor of each kind of mutant for any file (within `DEBUG_FILE_HARD_SECONDS` in the budgeted mode).
const MIN_MUTANTS: usize = 16;
/// Mutants of files up to this size also go through the JSON text between `convert --to json` and `pack`
/// (the unmutated file always does).
const TEXT_ROUND_TRIP_BYTES: usize = 64 << 10;
/// One mutant taking longer than this is a hang (a debug build on a busy 2-core machine), or longer than
/// `MUTANT_SLOWDOWN` times the unmutated file when that is more. The unmutated file itself has
/// `MUTANT_TIMEOUT` plus a second per MiB.
const MUTANT_TIMEOUT: Duration = Duration::from_secs(20);
const MUTANT_SLOWDOWN: u32 = 10;
/// Workers sweeping files side by side.
const WORKERS: usize = 2;
/// Corpus files relic identified when this test was written (FreeRCT's 17 `.rcd` files included); more may
/// be identified later, not fewer.
const CORPUS_KNOWN_AT_LEAST: usize = 28;

/// The heap one mutant may use at its peak, for an input of `len` bytes: 64 MiB + 128 × `len`.
///
/// What the pipeline holds at once grows with the input through the lossless JSON document: a
/// serde_json value takes 30–80 bytes per number or short string and a key per field of every record,
/// and its pretty text 10–20 bytes per float, so dense float formats cost the most. Measured peaks over
/// whole plans (release build, every mutant): RSM 57–84 × the input (while `pack` reads the document's
/// text back), MOB 31 ×, RES 4–11 ×, GRF 4 × (archives' data goes into the document as base64), every
/// sample under 2.5 MiB. 128 × leaves half as much again over the worst. The fixed part covers what does
/// not grow with the input: a texture's RGBA pixels and PNG encoding (a few MMP header bytes may declare
/// any size up to relic's image limits, and DXT1 is 8 × its size in RGBA), glTF buffers, zlib windows
/// and the inflated entries of small compressed archives. A mutant over this bound is a blow-up to look
/// at, not a legitimate need.
fn memory_bound(len: usize) -> usize {
    (64 << 20) + 128 * len
}

#[derive(Clone, Copy, Debug)]
enum Mutation {
    None,
    Truncate(usize),
    Flip { index: usize, bit: usize },
}

impl Mutation {
    fn describe(self, len: usize) -> String {
        match self {
            Mutation::None => "unmutated".into(),
            Mutation::Truncate(n) => format!("truncated to {n} of {len} bytes"),
            Mutation::Flip { index, bit } => {
                format!("flip #{index}: bit {} of byte {} (0x{:X}) flipped", bit % 8, bit / 8, bit / 8)
            }
        }
    }
}

/// xorshift64* (Vigna): small, fast, and the same numbers everywhere.
struct XorShift(u64);

impl XorShift {
    fn seeded(name: &str, len: usize) -> Self {
        // FNV-1a over the name and the length; never zero.
        let mut h: u64 = 0xCBF2_9CE4_8422_2325;
        for b in name.bytes().chain((len as u64).to_le_bytes()) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3);
        }
        XorShift(h | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// `items` reordered coarse to fine: the first of every 2^k-th for decreasing k (0, n/2, n/4, 3n/4, …).
fn coarse_to_fine<T: Copy>(items: &[T]) -> Vec<T> {
    let mut seen = vec![false; items.len()];
    let mut out = Vec::with_capacity(items.len());
    let mut step = items.len().next_power_of_two();
    while step > 0 {
        for i in (0..items.len()).step_by(step) {
            if let (Some(s), Some(&item)) = (seen.get_mut(i), items.get(i)) {
                if !*s {
                    *s = true;
                    out.push(item);
                }
            }
        }
        step /= 2;
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Full,
    Budgeted,
}

fn mode() -> Mode {
    if !cfg!(debug_assertions) || std::env::var_os("RELIC_SWEEP_FULL").is_some() {
        Mode::Full
    } else {
        Mode::Budgeted
    }
}

struct Plan {
    mutations: Vec<Mutation>,
    /// Mutants run whatever the soft time limit (the unmutated file and the floors).
    guaranteed: usize,
    /// Stop after this long, once the guaranteed mutants ran.
    time_limit: Option<Duration>,
    /// Stop after this long in any case (the unmutated file always runs).
    hard_limit: Option<Duration>,
}

fn plan(name: &str, len: usize, mode: Mode, sample: bool) -> Plan {
    let mut truncations: Vec<usize> = if len <= SMALL_FILE {
        (0..len).collect()
    } else {
        let mut v: Vec<usize> = (0..TRUNCATIONS).map(|i| i * len / TRUNCATIONS).collect();
        v.push(len - 1);
        v.dedup();
        v
    };
    let mut flips = if len == 0 { 0 } else { FLIPS };
    if mode == Mode::Full && len > FULL_SWEEP_BYTES {
        let scale = len.div_ceil(FULL_SWEEP_BYTES);
        let keep = (truncations.len() / scale).max(MIN_MUTANTS);
        let stride = truncations.len().div_ceil(keep);
        truncations = truncations.into_iter().step_by(stride).collect();
        flips = (flips / scale).max(MIN_MUTANTS);
    }
    let mut rng = XorShift::seeded(name, len);
    let bits = (len as u64) * 8;
    let flips: Vec<Mutation> = (0..flips)
        .map(|index| Mutation::Flip { index, bit: if bits == 0 { 0 } else { (rng.next() % bits) as usize } })
        .collect();
    let truncations: Vec<Mutation> = coarse_to_fine(&truncations).into_iter().map(Mutation::Truncate).collect();
    let mut mutations = vec![Mutation::None];
    let (mut t, mut f) = (truncations.into_iter().peekable(), flips.into_iter().peekable());
    while t.peek().is_some() || f.peek().is_some() {
        mutations.extend(t.next());
        mutations.extend(f.next());
    }
    let secs = |s| Some(Duration::from_secs(s));
    let (guaranteed, time_limit, hard_limit) = match mode {
        Mode::Full if len <= FULL_SWEEP_BYTES => (mutations.len(), None, None),
        Mode::Full => (1 + 2 * MIN_MUTANTS, secs(LARGE_FILE_SECONDS), None),
        Mode::Budgeted if len <= DEBUG_FULL_BYTES || (sample && len <= DEBUG_FULL_SAMPLE_BYTES) => {
            (mutations.len(), None, None)
        }
        Mode::Budgeted => (1 + 2 * MIN_MUTANTS, secs(DEBUG_FILE_SECONDS), secs(DEBUG_FILE_HARD_SECONDS)),
    };
    Plan { mutations, guaranteed, time_limit, hard_limit }
}

// ---------------------------------------------------------------------------------------------------------
// The pipeline

/// Where a worker is (read by the watchdog, and by the panic report).
#[derive(Clone, Default)]
struct Progress {
    file: String,
    mutation: String,
    stage: &'static str,
    /// When the current mutant started; `None` between mutants.
    started: Option<Instant>,
    /// How long it may take.
    timeout: Duration,
}

/// Follows one mutant through the stages: tells the watchdog, and notes in which stage the heap peaked.
struct Tracker<'a> {
    progress: &'a Mutex<Progress>,
    current: Cell<&'static str>,
    peak: Cell<isize>,
    peak_stage: Cell<&'static str>,
}

impl<'a> Tracker<'a> {
    /// Call right after `reset_peak`.
    fn new(progress: &'a Mutex<Progress>) -> Self {
        let peak = PEAK.with(Cell::get);
        Tracker { progress, current: Cell::new("start"), peak: Cell::new(peak), peak_stage: Cell::new("start") }
    }

    fn stage(&self, stage: &'static str) {
        self.note_peak();
        self.current.set(stage);
        if let Ok(mut p) = self.progress.lock() {
            p.stage = stage;
        }
    }

    /// A peak above the last one was reached in the stage now ending.
    fn note_peak(&self) {
        let now = PEAK.with(Cell::get);
        if now > self.peak.get() {
            self.peak.set(now);
            self.peak_stage.set(self.current.get());
        }
    }
}

/// An entry of the unmutated file, to recognise entries a mutation left alone.
struct BaselineEntry {
    name: String,
    data: BaselineData,
}

enum BaselineData {
    Stored(Vec<u8>),
    Zlib { packed: Vec<u8>, size: u64 },
    Other,
}

impl BaselineEntry {
    fn of(e: &Entry<'_>) -> Self {
        let data = match &e.data {
            EntryData::Stored(b) => BaselineData::Stored(b.to_vec()),
            EntryData::Zlib { packed, size, .. } => BaselineData::Zlib { packed: packed.to_vec(), size: *size },
            EntryData::Enciphered { .. } | EntryData::Unsupported(_) => BaselineData::Other,
        };
        BaselineEntry { name: e.name.to_string(), data }
    }

    /// Whether `e` has this entry's name and stored bytes, so decodes and converts exactly as it did.
    fn same_as(&self, e: &Entry<'_>) -> bool {
        self.name == e.name
            && match (&self.data, &e.data) {
                (BaselineData::Stored(a), EntryData::Stored(b)) => a[..] == b[..],
                (BaselineData::Zlib { packed, size }, EntryData::Zlib { packed: p, size: s, .. }) => {
                    packed[..] == p[..] && size == s
                }
                _ => false,
            }
    }
}

fn baseline(codec: &Format, name: &str, bytes: &[u8]) -> Vec<BaselineEntry> {
    match codec.entries(bytes, name) {
        Some(Ok(entries)) => entries.iter().map(BaselineEntry::of).collect(),
        _ => Vec::new(),
    }
}

/// What one mutant did.
#[derive(Default)]
struct Outcome {
    /// `info` refused it.
    rejected: bool,
    /// Its document was written back, to other bytes.
    rewritten_differently: bool,
    /// Broken promises other than panics: a packed file its reader refuses, …
    failures: Vec<String>,
}

fn pipeline(
    format: &'static Format,
    name: &str,
    bytes: &[u8],
    unmutated: bool,
    baseline: &[BaselineEntry],
    t: &Tracker<'_>,
) -> Outcome {
    let mut out = Outcome::default();
    let codec = format.for_name(name);

    // relic info
    t.stage("info");
    match codec.info(bytes) {
        Ok(v) => drop(serde_json::to_string(&v)),
        Err(e) => {
            out.rejected = true;
            // A file relic identifies but does not read yet (a version it refuses as unsupported) is
            // still swept; refusing a real file as invalid is a failure.
            if unmutated && !matches!(e, relic::Error::Unsupported(_)) {
                out.failures.push(format!("info refused the unmutated file: {e}"));
            }
        }
    }

    if let Some(entries) = codec.entries(bytes, name) {
        // relic ls: names, sizes, and each entry's head to tell its format.
        t.stage("ls");
        if let Ok(entries) = entries {
            for e in &entries {
                let _ = (e.name.len(), e.path.len(), e.size, e.modified);
                if let Ok(head) = e.data.head(SNIFF_BYTES) {
                    let _ = registry::sniff(&head, &e.name);
                }
            }
            // relic convert / extract: every entry's bytes; known entries converted, nested archives'
            // entries decoded. An entry identical to the unmutated file's entry at the same place converts
            // as it did there, and is not converted again.
            t.stage("convert (archive entries)");
            for (i, e) in entries.iter().enumerate() {
                if baseline.get(i).is_some_and(|b| b.same_as(e)) {
                    continue;
                }
                let Ok(data) = e.data.bytes() else { continue };
                let Some((inner, _)) = registry::sniff(&data, &e.name) else { continue };
                let inner_codec = inner.for_name(&e.name);
                if let Some(Ok(nested)) = inner_codec.entries(&data, &e.name) {
                    for n in nested {
                        let _ = n.data.head(SNIFF_BYTES);
                        let _ = n.data.bytes();
                    }
                } else if inner.capabilities().convert {
                    convert_and_export(inner_codec, &data);
                }
            }
        }
    } else {
        // relic convert
        t.stage("convert");
        convert_and_export(codec, bytes);
    }

    // relic convert --to json
    t.stage("convert --to json");
    let Ok(doc) = codec.to_json(bytes) else { return out };
    if !format.capabilities().write {
        return out;
    }

    // relic pack from that JSON. The CLI writes the document as text and `pack` reads the text back; the
    // text changes nothing for a document that survives it and is slow in a debug build, so only the
    // unmutated file and small files go through it.
    let doc = if unmutated || bytes.len() <= TEXT_ROUND_TRIP_BYTES {
        t.stage("convert --to json (text)");
        let text = match relic::export::json::to_pretty(&doc) {
            Ok(text) => text,
            Err(e) => {
                out.failures.push(format!("the JSON document cannot be written as text: {e}"));
                return out;
            }
        };
        // `convert` is done with the document once its text is written; `pack` starts from the text.
        drop(doc);
        t.stage("pack (JSON text)");
        match serde_json::from_slice(&text) {
            Ok(doc) => doc,
            Err(e) => {
                out.failures.push(format!("the JSON document does not read back as JSON: {e}"));
                return out;
            }
        }
    } else {
        doc
    };
    t.stage("pack (write_json)");
    let written = match codec.from_json(doc, &Default::default()) {
        Ok(w) => w,
        Err(e) => {
            if unmutated && !matches!(e, relic::Error::Unsupported(_)) {
                out.failures.push(format!("pack refused the document of the unmutated file: {e}"));
            }
            return out;
        }
    };
    t.stage("info of the packed file");
    if let Err(e) = codec.info(&written) {
        out.failures.push(format!("pack wrote a file of {} bytes that info refuses: {e}", written.len()));
    }
    t.stage("convert --to json of the packed file");
    if let Err(e) = codec.to_json(&written) {
        out.failures.push(format!("pack wrote a file of {} bytes that to_json refuses: {e}", written.len()));
    }
    if written != bytes {
        out.rewritten_differently = true;
        if unmutated {
            let at = written.iter().zip(bytes).position(|(a, b)| a != b).unwrap_or(written.len().min(bytes.len()));
            out.failures.push(format!(
                "written back from its document, the file differs at offset 0x{at:X} ({} bytes written, {} read)",
                written.len(),
                bytes.len()
            ));
        }
    }
    out
}

fn convert_and_export(codec: &Format, bytes: &[u8]) {
    let Ok(assets) =
        codec.convert(&relic::registry::ConvertInput::new(bytes, &ConvertOptions { mips: true, ..Default::default() }))
    else {
        return;
    };
    for a in &assets {
        for ext in relic::export::extensions_for(&a.asset) {
            let _ = relic::export::export(&a.asset, Some(ext), a.name.as_deref().unwrap_or("x"));
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// One file

struct Job {
    label: String,
    name: String,
    bytes: Vec<u8>,
    format: &'static Format,
}

struct FileReport {
    line: String,
    failures: Vec<String>,
    /// Whether the whole plan ran (not stopped by the time budget).
    complete: bool,
    label: String,
}

thread_local! {
    /// Where the last panic on this thread happened (set by the sweep's panic hook).
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

#[derive(Default)]
struct Tally {
    done: usize,
    rejected: usize,
    time: Duration,
}

fn sweep_file(job: &Job, mode: Mode, progress: &Mutex<Progress>) -> FileReport {
    let Job { label, name, bytes, format } = job;
    let (name, bytes, format) = (name.as_str(), bytes.as_slice(), *format);
    if mode == Mode::Budgeted && bytes.len() > FULL_SWEEP_BYTES {
        let line = format!(
            "{:<7} {:>9} B  left to the full mode (release build): too large for a debug build  {label}",
            format.id,
            bytes.len()
        );
        return FileReport { line, failures: Vec::new(), complete: false, label: label.clone() };
    }
    let plan = plan(name, bytes.len(), mode, label.starts_with("samples/"));
    let bound = memory_bound(bytes.len());
    let base_entries = baseline(format.for_name(name), name, bytes);
    let started = Instant::now();
    let mut failures = Vec::new();
    let (mut truncations, mut flips) = (Tally::default(), Tally::default());
    let (mut rewritten, mut max_peak, mut max_peak_stage, mut ran) = (0, 0usize, "", 0);
    let mut copy = bytes.to_vec();
    let mut unmutated_time = Duration::ZERO;
    for (i, &mutation) in plan.mutations.iter().enumerate() {
        let elapsed = started.elapsed();
        let over = |limit: Option<Duration>| limit.is_some_and(|l| elapsed > l);
        if i > 0 && (over(plan.hard_limit) || (i >= plan.guaranteed && over(plan.time_limit))) {
            break;
        }
        ran += 1;
        let what = mutation.describe(bytes.len());
        if let Ok(mut p) = progress.lock() {
            *p = Progress {
                file: label.clone(),
                mutation: what.clone(),
                stage: "",
                started: Some(Instant::now()),
                timeout: match mutation {
                    Mutation::None => MUTANT_TIMEOUT + Duration::from_secs((bytes.len() >> 20) as u64),
                    _ => MUTANT_TIMEOUT.max(unmutated_time * MUTANT_SLOWDOWN),
                },
            };
        }
        let input: &[u8] = match mutation {
            Mutation::None => bytes,
            Mutation::Truncate(n) => bytes.get(..n).unwrap_or(bytes),
            Mutation::Flip { bit, .. } => {
                if let Some(b) = copy.get_mut(bit / 8) {
                    *b ^= 1 << (bit % 8);
                }
                &copy
            }
        };
        let mutant_started = Instant::now();
        let base = reset_peak();
        let t = Tracker::new(progress);
        let result = catch_unwind(AssertUnwindSafe(|| {
            let unmutated = matches!(mutation, Mutation::None);
            // The unmutated file converts every entry; a mutant only those it changed.
            let unchanged = if unmutated { &[][..] } else { &base_entries[..] };
            let mut outcome = pipeline(format, name, input, unmutated, unchanged, &t);
            // The CLI identifies the mutant afresh: a flip may make it look like another format.
            t.stage("sniff");
            if let Some((other, _)) = registry::sniff(input, name).filter(|(f, _)| f.id != format.id) {
                let second = pipeline(other, name, input, false, &[], &t);
                outcome.failures.extend(second.failures.into_iter().map(|f| format!("read as {}: {f}", other.id)));
            }
            outcome
        }));
        let peak = peak_since(base);
        t.note_peak();
        let (stage, peak_stage) = (t.current.get(), t.peak_stage.get());
        if peak > max_peak {
            (max_peak, max_peak_stage) = (peak, peak_stage);
        }
        let tally = match mutation {
            Mutation::None => {
                unmutated_time = mutant_started.elapsed();
                None
            }
            Mutation::Truncate(_) => Some(&mut truncations),
            Mutation::Flip { .. } => Some(&mut flips),
        };
        match result {
            Ok(outcome) => {
                if let Some(tally) = tally {
                    tally.done += 1;
                    tally.rejected += usize::from(outcome.rejected);
                    tally.time += mutant_started.elapsed();
                    rewritten += usize::from(outcome.rewritten_differently);
                }
                if !outcome.failures.is_empty() {
                    dump(format, input);
                }
                failures.extend(outcome.failures.into_iter().map(|f| format!("{label}: {what}: {f}")));
            }
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                let at = LAST_PANIC.with(|l| l.borrow_mut().take()).unwrap_or_default();
                failures.push(format!("{label}: {what}: panicked in {stage} at {at}: {message}"));
                dump(format, input);
            }
        }
        if peak > bound {
            failures.push(format!(
                "{label}: {what}: peak heap {} over the bound {} (reached in {peak_stage})",
                mib(peak),
                mib(bound)
            ));
            dump(format, input);
        }
        if let Mutation::Flip { bit, .. } = mutation {
            if let Some(b) = copy.get_mut(bit / 8) {
                *b ^= 1 << (bit % 8);
            }
        }
    }
    if let Ok(mut p) = progress.lock() {
        p.started = None;
    }
    let line = format!(
        "{:<7} {:>9} B  truncations {:>4} ({:>4} rejected, {:>5.1} s)  flips {:>4} ({:>4} rejected, {:>5.1} s)  \
         written back differently {:>4}  peak {:>9} ({:.0} × input, in {}; bound {:>9})  {:>5.1} s  {}{label}",
        format.id,
        bytes.len(),
        truncations.done,
        truncations.rejected,
        truncations.time.as_secs_f64(),
        flips.done,
        flips.rejected,
        flips.time.as_secs_f64(),
        rewritten,
        mib(max_peak),
        max_peak as f64 / bytes.len().max(1) as f64,
        max_peak_stage,
        mib(bound),
        started.elapsed().as_secs_f64(),
        if ran < plan.mutations.len() {
            format!("[time budget: {} of {} mutants] ", ran, plan.mutations.len())
        } else {
            String::new()
        },
    );
    FileReport { line, failures, complete: ran == plan.mutations.len(), label: label.clone() }
}

fn mib(n: usize) -> String {
    format!("{:.1} MiB", n as f64 / f64::from(1 << 20))
}

/// With `RELIC_SWEEP_DUMP=DIR`, writes a failing mutant to `DIR/<format>/<blake3 hex>`.
fn dump(format: &Format, bytes: &[u8]) {
    let Some(dir) = std::env::var_os("RELIC_SWEEP_DUMP") else { return };
    let dir = PathBuf::from(dir).join(format.id);
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join(blake3::hash(bytes).to_hex().as_str()), bytes);
}

// ---------------------------------------------------------------------------------------------------------
// The test

fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(root)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .collect();
    files.sort();
    files
}

/// One folder's files: those relic identifies become jobs, the others are listed as skipped.
#[derive(Default)]
struct Tree {
    jobs: Vec<Job>,
    skipped: Vec<String>,
    unreadable: Vec<String>,
}

fn collect(root: &Path, shown: &str, only: Option<&str>) -> Tree {
    let mut tree = Tree::default();
    for path in files_under(root) {
        let rel = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let label = format!("{shown}/{rel}");
        if only.is_some_and(|o| !label.contains(o)) {
            continue;
        }
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                tree.unreadable.push(format!("{label}: cannot read: {e}"));
                continue;
            }
        };
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        match registry::sniff(&bytes, &name) {
            Some((format, _)) => tree.jobs.push(Job { label, name, bytes, format }),
            None => tree.skipped.push(format!("{:>9} B  skipped: not a format relic knows  {label}", bytes.len())),
        }
    }
    tree
}

/// Name of the sweep's worker threads (their panics are caught and reported, not printed).
const WORKER_NAME: &str = "sweep-worker";

/// Sweeps `jobs` on `WORKERS` threads under the watchdog; reports in the jobs' order, or the hang.
fn sweep_all(jobs: Vec<Job>, mode: Mode) -> Result<Vec<FileReport>, String> {
    let count = jobs.len();
    let queue = Arc::new(Mutex::new(jobs.into_iter().enumerate().collect::<VecDeque<_>>()));
    let slots: Vec<Arc<Mutex<Progress>>> = (0..WORKERS).map(|_| Arc::default()).collect();
    let (tx, rx) = mpsc::channel::<(usize, FileReport)>();
    let workers: Vec<_> = slots
        .iter()
        .map(|slot| {
            let (queue, slot, tx) = (Arc::clone(&queue), Arc::clone(slot), tx.clone());
            let work = move || loop {
                let next = queue.lock().ok().and_then(|mut q| q.pop_front());
                let Some((i, job)) = next else { break };
                let report = catch_unwind(AssertUnwindSafe(|| sweep_file(&job, mode, &slot))).unwrap_or_else(|_| {
                    let failure = format!("{}: the sweep itself panicked", job.label);
                    FileReport {
                        line: failure.clone(),
                        failures: vec![failure],
                        complete: false,
                        label: job.label.clone(),
                    }
                });
                if tx.send((i, report)).is_err() {
                    break;
                }
            };
            std::thread::Builder::new().name(WORKER_NAME.into()).spawn(work)
        })
        .collect::<Result<_, _>>()
        .map_err(|e| format!("cannot start a sweep worker: {e}"))?;
    drop(tx);

    let mut reports: Vec<Option<FileReport>> = (0..count).map(|_| None).collect();
    let mut received = 0;
    while received < count {
        match rx.recv_timeout(Duration::from_millis(250)) {
            Ok((i, report)) => {
                eprintln!("{}", report.line);
                if let Some(r) = reports.get_mut(i) {
                    *r = Some(report);
                }
                received += 1;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                for slot in &slots {
                    let p = slot.lock().map(|p| p.clone()).unwrap_or_default();
                    if p.started.is_some_and(|s| s.elapsed() > p.timeout) {
                        return Err(format!(
                            "hang: {}: {} has been in `{}` for over {:?}",
                            p.file, p.mutation, p.stage, p.timeout
                        ));
                    }
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err("a sweep worker stopped without reporting".into());
            }
        }
    }
    for w in workers {
        let _ = w.join();
    }
    Ok(reports.into_iter().flatten().collect())
}

#[test]
fn every_file_survives_truncations_and_bit_flips_through_every_face() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let corpus = repo.join("../shared/corpus");
    let only = std::env::var("RELIC_SWEEP_ONLY").ok();
    let mode = mode();
    let started = Instant::now();

    let samples = collect(&repo.join("samples"), "samples", only.as_deref());
    let corpus = corpus.is_dir().then(|| collect(&corpus, "corpus", only.as_deref()));
    let (sample_count, sample_skipped) = (samples.jobs.len(), samples.skipped.len());
    let corpus_count = corpus.as_ref().map(|c| c.jobs.len());
    let mut jobs = samples.jobs;
    let mut skipped = samples.skipped;
    let mut failures = samples.unreadable;
    if let Some(c) = corpus {
        jobs.extend(c.jobs);
        skipped.extend(c.skipped);
        failures.extend(c.unreadable);
    }

    // The workers' panics are caught and reported with their mutant: the hook records where they happen
    // instead of printing them. Other threads' panics print as usual.
    let previous = Arc::new(std::panic::take_hook());
    let chained = Arc::clone(&previous);
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() == Some(WORKER_NAME) {
            let at = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
            let _ = LAST_PANIC.try_with(|l| *l.borrow_mut() = Some(at));
        } else {
            chained(info);
        }
    }));
    let reports = sweep_all(jobs, mode);
    std::panic::set_hook(Box::new(move |info| previous(info)));
    let reports = reports.unwrap_or_else(|hang| panic!("{hang}"));

    println!(
        "sweep ({} mode): {} sample files, {} corpus files, {} skipped, {:.1} s",
        if mode == Mode::Full { "full" } else { "budgeted" },
        sample_count,
        corpus_count.map_or_else(|| "no".to_string(), |c| c.to_string()),
        skipped.len(),
        started.elapsed().as_secs_f64()
    );
    for r in &reports {
        println!("  {}", r.line);
    }
    for s in &skipped {
        println!("  {s}");
    }
    if corpus_count.is_none() {
        println!("skipped: ../shared/corpus not found");
    }
    let cut_samples: Vec<String> =
        reports.iter().filter(|r| r.label.starts_with("samples/") && !r.complete).map(|r| r.label.clone()).collect();
    failures.extend(reports.into_iter().flat_map(|r| r.failures));
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    if only.is_none() {
        assert_eq!(
            sample_count,
            crate::contract::samples().len(),
            "sample files swept (the contract's rows name them)"
        );
        assert_eq!(sample_skipped, 0, "every sample is a format relic knows");
        assert!(
            cut_samples.is_empty(),
            "samples not swept whole (raise DEBUG_FULL_SAMPLE_BYTES, or keep samples small): {cut_samples:?}"
        );
        if let Some(c) = corpus_count {
            assert!(c >= CORPUS_KNOWN_AT_LEAST, "corpus files swept: {c}, expected at least {CORPUS_KNOWN_AT_LEAST}");
        }
    }
}
