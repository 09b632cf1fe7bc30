//! Test support shared by every format's tests: feed a parser every truncation of a valid file and many
//! byte flips, and require errors, never a panic.

use std::panic::{catch_unwind, AssertUnwindSafe};

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
    let mut report = Robustness::default();
    let run = |bytes: &[u8], what: &dyn Fn() -> String| -> bool {
        match catch_unwind(AssertUnwindSafe(|| parse(bytes).is_err())) {
            Ok(rejected) => rejected,
            Err(_) => panic!("parser panicked on {}", what()),
        }
    };
    for len in 0..valid.len() {
        let prefix = valid.get(..len).unwrap_or(&[]);
        let rejected = run(prefix, &|| format!("the first {len} bytes"));
        report.truncations += 1;
        report.truncations_rejected += usize::from(rejected);
        if strict_truncation && !rejected {
            panic!("a file truncated to {len} of {} bytes was accepted", valid.len());
        }
    }
    let step = (valid.len() / 65536).max(1);
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
