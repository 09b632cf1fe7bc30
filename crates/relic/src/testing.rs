//! Test support shared by every format's tests: feed a parser every truncation of a valid file and many
//! byte flips, and require errors, never a panic.

pub mod hand_gltf;

use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `parse` on every proper prefix of `valid`: never a panic (naming the length that did it), and when
/// `strict_truncation` is set, never an accepted prefix. Only the truncation counts of the report are set.
pub fn check_truncations<T, E>(
    valid: &[u8],
    strict_truncation: bool,
    parse: impl Fn(&[u8]) -> Result<T, E>,
) -> Robustness {
    let mut report = Robustness::default();
    for len in 0..valid.len() {
        let prefix = valid.get(..len).unwrap_or(&[]);
        let rejected = match catch_unwind(AssertUnwindSafe(|| parse(prefix).is_err())) {
            Ok(rejected) => rejected,
            Err(_) => panic!("parser panicked on the first {len} bytes"),
        };
        report.truncations += 1;
        report.truncations_rejected += usize::from(rejected);
        if strict_truncation && !rejected {
            panic!("a file truncated to {len} of {} bytes was accepted", valid.len());
        }
    }
    report
}

/// Runs `parse` on `flips` copies of `valid`, each with one bit flipped at a position and bit drawn from a
/// generator seeded with `seed` (the same flips on every run): never a panic, naming the flip that did it.
/// A flipped file may be refused or read. Only the flip counts of the report are set.
pub fn check_bit_flips<T, E>(
    valid: &[u8],
    flips: usize,
    seed: u64,
    parse: impl Fn(&[u8]) -> Result<T, E>,
) -> Robustness {
    let mut report = Robustness::default();
    if valid.is_empty() {
        return report;
    }
    // xorshift64*: enough to spread flips over a file, and reproducible from the seed alone.
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut copy = valid.to_vec();
    for _ in 0..flips {
        let draw = next();
        let pos = (draw >> 3) as usize % valid.len();
        let mask = 1u8 << (draw & 7);
        if let Some(b) = copy.get_mut(pos) {
            *b ^= mask;
        }
        let rejected = match catch_unwind(AssertUnwindSafe(|| parse(&copy).is_err())) {
            Ok(rejected) => rejected,
            Err(_) => panic!("parser panicked on byte {pos} flipped with 0x{mask:02X} (seed 0x{seed:X})"),
        };
        report.flips += 1;
        report.flips_rejected += usize::from(rejected);
        if let Some(b) = copy.get_mut(pos) {
            *b ^= mask;
        }
    }
    report
}

/// What [`check_robustness`] saw.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Robustness {
    pub truncations: usize,
    pub truncations_rejected: usize,
    pub flips: usize,
    pub flips_rejected: usize,
}

/// A parser whose result borrows its input is passed with the result dropped:
/// `check_robustness(&bytes, true, |b| res::parse(b).map(|_| ()))`.
///
/// Runs `parse` on every proper prefix of `valid` and on copies with single bytes flipped (every position
/// for files up to 64 KiB, evenly spaced positions beyond), with the masks 0xFF, 0x80 and 0x01.
///
/// Panics (failing the test) when `parse` panics, naming the input that did it; when `strict_truncation`
/// is set, also when a truncated file is accepted. Flipped files may parse (a flipped data byte is still a
/// valid file); they must simply not panic.
pub fn check_robustness<T, E>(
    valid: &[u8],
    strict_truncation: bool,
    parse: impl Fn(&[u8]) -> Result<T, E>,
) -> Robustness {
    check_robustness_sampled(valid, strict_truncation, usize::MAX, parse)
}

/// [`check_robustness`] with at most about `positions` truncation lengths and flip positions, evenly
/// spaced over the file (the one-byte-short truncation always included), for pipelines too slow to run
/// on every byte of a larger file.
pub fn check_robustness_sampled<T, E>(
    valid: &[u8],
    strict_truncation: bool,
    positions: usize,
    parse: impl Fn(&[u8]) -> Result<T, E>,
) -> Robustness {
    let mut report = Robustness::default();
    let run = |bytes: &[u8], what: &dyn Fn() -> String| -> bool {
        match catch_unwind(AssertUnwindSafe(|| parse(bytes).is_err())) {
            Ok(rejected) => rejected,
            Err(_) => panic!("parser panicked on {}", what()),
        }
    };
    let stride = valid.len().div_ceil(positions.max(1)).max(1);
    let mut lengths: Vec<usize> = (0..valid.len()).step_by(stride).collect();
    if let Some(last) = valid.len().checked_sub(1).filter(|l| lengths.last() != Some(l)) {
        lengths.push(last);
    }
    for len in lengths {
        let prefix = valid.get(..len).unwrap_or(&[]);
        let rejected = run(prefix, &|| format!("the first {len} bytes"));
        report.truncations += 1;
        report.truncations_rejected += usize::from(rejected);
        if strict_truncation && !rejected {
            panic!("a file truncated to {len} of {} bytes was accepted", valid.len());
        }
    }
    let step = (valid.len() / 65536).max(stride).max(1);
    let mut copy = valid.to_vec();
    for pos in (0..valid.len()).step_by(step) {
        for mask in [0xFFu8, 0x80, 0x01] {
            if let Some(b) = copy.get_mut(pos) {
                *b ^= mask;
            }
            let rejected = run(&copy, &|| format!("byte {pos} flipped with 0x{mask:02X}"));
            report.flips += 1;
            report.flips_rejected += usize::from(rejected);
            if let Some(b) = copy.get_mut(pos) {
                *b ^= mask;
            }
        }
    }
    report
}

/// What the Khronos glTF validator said about one file.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct GltfReport {
    pub path: String,
    pub errors: u64,
    pub warnings: u64,
    pub messages: Vec<String>,
}

/// Runs the Khronos glTF validator (`tools/gltf-validator`, installed by `.ci/run` with npm) on files.
/// Returns `None`, after saying so on stderr, when Node.js or the validator is not installed, so that a
/// test can skip; CI installs both, so it never skips there.
pub fn validate_gltf(paths: &[&std::path::Path]) -> Option<Vec<GltfReport>> {
    let tool = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/gltf-validator");
    if !tool.join("node_modules/gltf-validator").exists() {
        eprintln!("skipped glTF validation: run `npm ci --prefix tools/gltf-validator` (CI does)");
        return None;
    }
    let output = match std::process::Command::new("node").arg(tool.join("validate.mjs")).args(paths).output() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("skipped glTF validation: cannot run node ({e})");
            return None;
        }
    };
    assert!(output.status.success(), "validator failed: {}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8_lossy(&output.stdout);
    Some(
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("validator output {l:?}: {e}")))
            .collect(),
    )
}

// ---------------------------------------------------------------------------------------------------------
// Hostile inputs built by hand, for the resource-limit tests (tests/hostile/limits.rs and the CLI's reliability
// tests). They are built from the formats' byte layouts, not through relic's writers, so a writer's bug
// cannot hide a reader's.

/// LSB-first bit writer for deflate (RFC 1951 §3.1.1).
struct Bits {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl Bits {
    fn put(&mut self, value: u32, count: u32) {
        self.acc |= u64::from(value) << self.n;
        self.n += count;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }
    /// A Huffman code, most significant bit first (RFC 1951 §3.1.1).
    fn code(&mut self, code: u32, len: u32) {
        for i in (0..len).rev() {
            self.put((code >> i) & 1, 1);
        }
    }
}

/// An honest zlib stream of `n` zero bytes (`n` ≥ 4 and `n − 1` a multiple of 258 plus 0 or 3), as small
/// as deflate allows: one dynamic-Huffman block whose length-258 / distance-1 match costs 2 bits, so
/// 1 GiB of zeros takes about 1 MiB, the ratio of a real decompression bomb.
pub fn zeros_zlib(n: u64) -> Vec<u8> {
    let matches = (n - 1) / 258;
    let tail = (n - 1) % 258;
    assert!(tail == 0 || tail == 3, "n − 1 must be 258·k or 258·k + 3");
    let mut b = Bits { out: vec![0x78, 0x01], acc: 0, n: 0 };
    b.put(1, 1); // BFINAL
    b.put(2, 2); // BTYPE 10: dynamic Huffman
    b.put(29, 5); // HLIT: 286 literal/length codes
    b.put(0, 5); // HDIST: 1 distance code
    b.put(14, 4); // HCLEN: 18 code-length codes
                  // Code-length code lengths in their fixed order (16 17 18 0 8 7 9 6 10 5 11 4 12 3 13 2 14 1): symbols 1,
                  // 2, 3 and 18 get 2 bits each, so their codes are 00, 01, 10, 11.
    for len in [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 2] {
        b.put(len, 3);
    }
    let (one, two, three, zeros) = ((0, 2), (1, 2), (2, 2), (3, 2));
    let run = |b: &mut Bits, count: u32| {
        b.code(zeros.0, zeros.1);
        b.put(count - 11, 7);
    };
    // Literal/length lengths: 0 → 2, 1..=255 → 0, 256 → 3, 257 → 3, 258..=284 → 0, 285 → 1; distance 0 → 1.
    b.code(two.0, two.1);
    run(&mut b, 138);
    run(&mut b, 117);
    b.code(three.0, three.1);
    b.code(three.0, three.1);
    run(&mut b, 27);
    b.code(one.0, one.1);
    b.code(one.0, one.1);
    // Canonical codes: 285 → 0, literal 0 → 10, 256 → 110, 257 → 111; distance 0 → 0.
    b.code(0b10, 2);
    for _ in 0..matches {
        b.code(0, 1);
        b.code(0, 1);
    }
    if tail == 3 {
        b.code(0b111, 3);
        b.code(0, 1);
    }
    b.code(0b110, 3);
    b.put(0, 7); // flush to a byte
    let mut out = b.out;
    let adler = ((n % 65521) << 16) | 1;
    out.extend_from_slice(&(adler as u32).to_be_bytes());
    out
}

/// One GRF 0x200 entry for [`grf_bytes`]: name, and the stored bytes as (offset from byte 46, compressed
/// size, real size).
pub struct GrfBombEntry {
    pub name: String,
    pub offset: u32,
    pub compressed: u32,
    pub real: u32,
}

/// A GRF 0x200 (header, `data`, then the table) whose table lists `entries` (flag 0x01) and is stored
/// as `table_stream`, declared to inflate to `table_real` bytes; `count` is the header's entry count.
pub fn grf_bytes(data: &[u8], entries: &[GrfBombEntry], count: u32, table: Option<(&[u8], u32)>) -> Vec<u8> {
    let mut plain = Vec::new();
    for e in entries {
        plain.extend_from_slice(e.name.as_bytes());
        plain.push(0);
        plain.extend_from_slice(&e.compressed.to_le_bytes());
        plain.extend_from_slice(&e.compressed.div_ceil(8).saturating_mul(8).to_le_bytes());
        plain.extend_from_slice(&e.real.to_le_bytes());
        plain.push(1);
        plain.extend_from_slice(&e.offset.to_le_bytes());
    }
    let packed = crate::codec::zlib::compress(&plain, 6);
    let (stream, real) = table.unwrap_or((&packed, plain.len() as u32));
    let mut out = b"Master of Magic".to_vec();
    out.extend(0u8..15);
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(count + 7).to_le_bytes());
    out.extend_from_slice(&0x200u32.to_le_bytes());
    out.extend_from_slice(data);
    out.extend_from_slice(&(stream.len() as u32).to_le_bytes());
    out.extend_from_slice(&real.to_le_bytes());
    out.extend_from_slice(stream);
    out
}

/// A PNG that declares `width × height` RGBA pixels and holds only its header (a pixel bomb needs no more:
/// the size must be refused before any pixel is read).
pub fn png_header_only(width: u32, height: u32) -> Vec<u8> {
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
            }
        }
        !crc
    }
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = |kind: &[u8], body: &[u8]| {
        out.extend_from_slice(&(body.len() as u32).to_be_bytes());
        let mut typed = kind.to_vec();
        typed.extend_from_slice(body);
        out.extend_from_slice(&typed);
        out.extend_from_slice(&crc32(&typed).to_be_bytes());
    };
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]); // 8-bit RGBA, deflate, no filter, no interlace
    chunk(b"IHDR", &ihdr);
    chunk(b"IDAT", &[0x78, 0x01]);
    chunk(b"IEND", &[]);
    out
}

/// Every regular file under `dir`, by `/`-separated path below it, with its bytes (tests comparing the
/// files a run wrote).
pub fn files_under(dir: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("a folder") {
            let p = e.expect("a folder entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).expect("below the folder").iter();
                let rel = rel.map(|c| c.to_string_lossy().into_owned()).collect::<Vec<_>>().join("/");
                out.insert(rel, std::fs::read(&p).expect("a readable file"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeros_zlib_is_an_honest_stream() {
        let at = crate::codec::zlib::At { format: "test", field: "zeros", offset: 0 };
        for n in [4u64, 259, 1 + 258 * 40, 1 + 258 * 4000 + 3] {
            let stream = zeros_zlib(n);
            let out = crate::codec::zlib::inflate_exact(&stream, n, at).unwrap_or_else(|e| panic!("{n}: {e}"));
            assert!(out.iter().all(|&b| b == 0) && out.len() as u64 == n);
        }
        // 1 GiB in about 1 MiB.
        let gib = zeros_zlib(1 << 30);
        assert!(gib.len() < 1_100_000, "{}", gib.len());
    }

    #[test]
    #[cfg(feature = "export")]
    fn png_header_only_declares_its_size() {
        let png = png_header_only(20_000, 20_000);
        let decoder = png::Decoder::new(std::io::Cursor::new(&png));
        let reader = decoder.read_info().unwrap();
        assert_eq!((reader.info().width, reader.info().height), (20_000, 20_000));
    }
}
