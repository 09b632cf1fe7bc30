//! The convert face never panics either: every sample, truncated at every length and with bytes flipped,
//! goes through the registry's whole pipeline (read, convert to the asset model, export to PNG / WAV /
//! glTF / JSON / CSV / INI, and the lossless JSON document), and gets results or errors, never a panic.

use relic::registry::{self, ConvertOptions};

fn pipeline(format: &'static relic::Format, name: &str, bytes: &[u8]) -> Result<(), relic::Error> {
    let codec = format.for_name(name);
    let _ = codec.to_json(bytes);
    if let Some(entries) = codec.entries(bytes, name) {
        for e in entries? {
            let _ = e.data.bytes();
        }
        return Ok(());
    }
    let assets = codec
        .convert(&relic::registry::ConvertInput::new(bytes, &ConvertOptions { mips: true, ..Default::default() }))?;
    for a in &assets {
        for ext in relic::export::extensions_for(&a.asset) {
            relic::export::export(&a.asset, Some(ext), "x")?;
        }
    }
    Ok(())
}

/// How densely each sample is mutated: every byte of files up to `every_byte_up_to` bytes (every prefix,
/// three flips of every byte), evenly spaced `positions` above. Exhaustive up to 8 KiB in the full mode (a
/// release build, or `RELIC_SWEEP_FULL=1`, as the house sweep); an unoptimised build (CI's `cargo test`)
/// runs every byte of files up to 512 bytes and 128 positions above, which took the test from about 250 to
/// about 20 seconds. The fuzz targets and the sweep go further.
struct Density {
    every_byte_up_to: usize,
    positions: usize,
}

fn density() -> Density {
    if !cfg!(debug_assertions) || std::env::var_os("RELIC_SWEEP_FULL").is_some_and(|v| v == "1") {
        Density { every_byte_up_to: 8 << 10, positions: 512 }
    } else {
        Density { every_byte_up_to: 512, positions: 128 }
    }
}

#[test]
fn every_sample_survives_truncation_and_flips_through_convert_and_export() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let Density { every_byte_up_to, positions } = density();
    let mut checked = 0;
    for entry in walkdir::WalkDir::new(&root).into_iter().filter_map(Result::ok).filter(|e| e.file_type().is_file()) {
        let bytes = std::fs::read(entry.path()).unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let (format, _) = registry::sniff(&bytes, &name).unwrap();
        let report = if bytes.len() > every_byte_up_to {
            relic::testing::check_robustness_sampled(&bytes, false, positions, |b| pipeline(format, &name, b))
        } else {
            relic::testing::check_robustness(&bytes, false, |b| pipeline(format, &name, b))
        };
        if bytes.len() > every_byte_up_to {
            assert!(report.truncations > positions / 2 && report.flips > positions, "{name}: {report:?}");
        } else {
            assert_eq!((report.truncations, report.flips), (bytes.len(), 3 * bytes.len()), "{name}");
        }
        checked += 1;
    }
    // Every file of samples/ went through (44 since ragnarok/novice_m.imf, #41); the count grows with them.
    assert!(checked >= 44, "{checked}");
}
