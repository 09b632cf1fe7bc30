//! What every fuzz target checks, through the registry's faces of one format (the same faces the CLI uses):
//!
//! - **read**: `info` and `to_json` never panic, agree on whether the input parses, and an error about the
//!   file's bytes names this format and an offset inside the input;
//! - **read → write → read**: a file that parses comes back byte for byte from its lossless JSON, both
//!   from the `serde_json::Value` and through JSON text (what `relic convert --to json` writes and
//!   `relic pack FORMAT x.json` reads) — so reading the written file gives the same document again;
//! - **convert + export**: archives give every entry's bytes (bounded inflation); other formats convert to
//!   the asset model and export to every output they offer (PNG, WAV, glTF/GLB, JSON, CSV, INI, TXT).

pub mod mutate;

use relic::registry::{ConvertOptions, Format};
use relic::Error;

/// Checks that an error from reading `data` is located inside it and names `format`.
pub fn check_error(format: &Format, data: &[u8], err: &Error) {
    if let Some(at) = err.location() {
        assert_eq!(at.format, format.id, "error of another format: {err}");
        assert!(!at.field.is_empty(), "error without a field: {err}");
        assert!(at.offset <= data.len() as u64, "error offset beyond the input ({} bytes): {err}", data.len());
    }
}

/// Runs every check on `data` as a file called `name` (the name picks the codec of formats without magic,
/// and the inherited extension of archive entries). Returns whether the input parsed.
pub fn check(format: &'static Format, name: &str, data: &[u8]) -> bool {
    let codec = format.for_name(name);
    let info = codec.info(data);
    let json = match codec.to_json(data) {
        Ok(json) => json,
        Err(err) => {
            check_error(format, data, &err);
            assert!(info.is_err(), "info accepts what to_json rejects: {err}");
            return false;
        }
    };
    if let Err(err) = &info {
        panic!("to_json accepts what info rejects: {err}");
    }
    if format.capabilities().write {
        let text = serde_json::to_string(&json).expect("a document serializes to JSON text");
        let back = codec
            .from_json(json, &Default::default())
            .unwrap_or_else(|e| panic!("write_json of its own JSON fails: {e}"));
        assert!(back == data, "read → JSON → write changed the bytes");
        let value: serde_json::Value = serde_json::from_str(&text).expect("JSON text reads back");
        let back = codec
            .from_json(value, &Default::default())
            .unwrap_or_else(|e| panic!("write_json of its JSON text fails: {e}"));
        assert!(back == data, "read → JSON text → write changed the bytes");
    }
    convert_and_export(format, name, data);
    true
}

/// The convert face: entries of an archive, or the asset model and every exporter it offers (with and
/// without `--mips`).
pub fn convert_and_export(format: &'static Format, name: &str, data: &[u8]) {
    for mips in [false, true] {
        convert_and_export_with(format, name, data, &ConvertOptions { mips, ..Default::default() });
    }
}

/// [`convert_and_export`] with given options.
pub fn convert_and_export_with(format: &'static Format, name: &str, data: &[u8], opts: &ConvertOptions) {
    let codec = format.for_name(name);
    if let Some(entries) = codec.entries(data, name) {
        if let Ok(entries) = entries {
            for entry in entries {
                let head = entry.data.head(relic::asset::SNIFF_BYTES);
                let bytes = entry.data.bytes();
                if let (Ok(head), Ok(bytes)) = (&head, &bytes) {
                    assert!(bytes.starts_with(head), "an entry's head is not the start of its bytes");
                    assert_eq!(bytes.len() as u64, entry.size, "an entry's bytes differ from its size");
                }
            }
        }
        return;
    }
    let Ok(assets) = codec.convert(&relic::registry::ConvertInput::new(data, opts)) else { return };
    for asset in &assets {
        for ext in relic::export::extensions_for(&asset.asset) {
            let _ = relic::export::export(&asset.asset, Some(ext), "fuzz");
        }
    }
}

/// What every GRF target checks once its input is a whole archive (a target's own "parts" form is turned
/// into one by `assemble`): every face of [`check`]; names look up; a kept 1.x name field holds the name
/// read from it; the document rebuilds the file byte for byte; enciphering undoes deciphering on whatever
/// bytes an entry holds.
pub fn check_grf(data: &[u8], assemble: impl Fn(&[u8]) -> Option<Vec<u8>>) {
    use relic::ragnarok::grf;
    let assembled;
    let data = if data.starts_with(grf::types::SIGNATURE) {
        data
    } else {
        let Some(file) = assemble(data) else { return };
        assembled = file;
        &assembled
    };
    if !check(&grf::FORMAT, "fuzz.grf", data) {
        return;
    }
    let archive = grf::parse(data).expect("parsed once");
    for entry in &archive.entries {
        let _ = archive.find_ci(&entry.name);
        if let Some(field) = &entry.name_field {
            assert!(grf::read::v1_name_of(field) == entry.name_raw, "name field and name disagree");
        }
    }
    let rebuilt = grf::write_document(&grf::convert::to_document(&archive)).expect("the document writes");
    assert!(rebuilt == data, "document round trip differs");
    for i in 0..archive.len() {
        if let Some(cipher) = archive.cipher(i) {
            let stored = archive.stored(i);
            let mut b = stored.to_vec();
            grf::des::decipher(&mut b, cipher);
            grf::des::encipher(&mut b, cipher);
            assert!(b == stored, "entry {i}: encipher(decipher(x)) != x");
        }
    }
}
