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

/// Samples larger than this are checked at [`SAMPLED_POSITIONS`] evenly spaced positions.
const SAMPLED_ABOVE: usize = 8 << 10;
const SAMPLED_POSITIONS: usize = 512;

#[test]
fn every_sample_survives_truncation_and_flips_through_convert_and_export() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let mut checked = 0;
    for entry in walkdir::WalkDir::new(&root).into_iter().filter_map(Result::ok).filter(|e| e.file_type().is_file()) {
        let bytes = std::fs::read(entry.path()).unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let (format, _) = registry::sniff(&bytes, &name).unwrap();
        // Samples over SAMPLED_ABOVE bytes (a map sector's fixed 9–19 KiB) are truncated and flipped at
        // evenly spaced positions to keep the test quick; the fuzz targets and the sweep go further.
        let report = if bytes.len() > SAMPLED_ABOVE {
            relic::testing::check_robustness_sampled(&bytes, false, SAMPLED_POSITIONS, |b| pipeline(format, &name, b))
        } else {
            relic::testing::check_robustness(&bytes, false, |b| pipeline(format, &name, b))
        };
        if bytes.len() > SAMPLED_ABOVE {
            assert!(report.truncations > SAMPLED_POSITIONS / 2 && report.flips > SAMPLED_POSITIONS, "{report:?}");
        } else {
            assert_eq!(report.truncations, bytes.len());
        }
        checked += 1;
    }
    // Every file of samples/ went through (44 since ragnarok/novice_m.imf, #41); the count grows with them.
    assert!(checked >= 44, "{checked}");
}
