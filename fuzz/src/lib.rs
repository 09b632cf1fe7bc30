//! What the fuzz targets check, through the registry's faces of one format (the same faces the CLI uses;
//! reached only through [`faces`]):
//!
//! - **identify**: a file's first 64 bytes and its length say what the whole file says;
//! - **read**: `info` and `to_json` never panic, agree on whether the input parses, and an error about the
//!   file's bytes names this format and an offset inside the input;
//! - **read → write → read**: a file that parses comes back byte for byte from its lossless JSON, both
//!   from the `serde_json::Value` and through JSON text (what `relic convert --to json` writes and
//!   `relic pack FORMAT x.json` reads) — so reading the written file gives the same document again;
//! - **convert + export**: archives give every entry's bytes (bounded inflation); other formats convert to
//!   the asset model and export to every output they offer (PNG, WAV, glTF/GLB, JSON, CSV, INI, TXT);
//! - **pack inputs**: an exported file of a kind the format packs from (a PNG, an INI, a glTF) is refused
//!   or packs into a file the format reads;
//! - **the format's own checks** ([`extra`]): typed round trips and invariants one format has.
//!
//! The `format` target runs all of it on any registered format: its input is [`pick`]ed as
//! `[format byte, name byte, file…]`, so a new format in `relic::FORMATS` is fuzzed without a change here.

pub mod extra;
pub mod faces;
pub mod mutate;

use std::sync::OnceLock;

use relic::registry::{ConvertOptions, Format, PackRequest};
use relic::Error;

pub use faces::Faces;

/// Bytes before the file in an input of the `format` target: the format's index, the name's.
pub const PREFIX: usize = 2;

/// The environment variable that pins the `format` target to one format id (`RELIC_FUZZ_FORMAT=ro-gat`):
/// the input's first byte is then ignored.
pub const PIN: &str = "RELIC_FUZZ_FORMAT";

/// The format [`PIN`] names, read once; `None` when it is unset. An unknown id stops the process: every
/// input would otherwise fuzz another format than the one asked for.
pub fn pinned() -> Option<&'static Format> {
    static PINNED: OnceLock<Option<&'static Format>> = OnceLock::new();
    *PINNED.get_or_init(|| {
        let id = std::env::var(PIN).ok().filter(|id| !id.is_empty())?;
        let Some(format) = relic::registry::by_id(&id) else {
            let known: Vec<&str> = relic::FORMATS.iter().map(|f| f.id).collect();
            eprintln!("{PIN}={id}: no such format (formats: {})", known.join(" "));
            std::process::exit(2);
        };
        Some(format)
    })
}

/// The format, file name and file of an input of the `format` target: byte 0 picks the format
/// (`FORMATS[byte % len]`, unless [`pinned`]), byte 1 one of its names ([`Faces::names`]), the rest is the
/// file. `None` for an input shorter than the prefix.
pub fn pick(data: &[u8]) -> Option<(&'static Format, String, &[u8])> {
    let [format, name, file @ ..] = data else { return None };
    let format = match pinned() {
        Some(f) => f,
        None => relic::FORMATS.get(usize::from(*format) % relic::FORMATS.len()).copied()?,
    };
    let names = Faces::names(format);
    let name = names.get(usize::from(*name) % names.len())?.clone();
    Some((format, name, file))
}

/// The prefix that makes `file`, named `name`, an input of `format` for the `format` target (what
/// [`pick`] reads back); `None` for a format not registered.
pub fn prefix(format: &Format, name: &str) -> Option<[u8; PREFIX]> {
    let index = relic::FORMATS.iter().position(|f| f.id == format.id)?;
    let registered = relic::FORMATS.get(index).copied()?;
    let names = Faces::names(registered);
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name).to_ascii_lowercase();
    let by_name = names.iter().position(|n| *n == base);
    let by_extension = || {
        let ext = relic::registry::extension_of(&base)?;
        names.iter().position(|n| relic::registry::extension_of(n) == Some(ext))
    };
    let pick = by_name.or_else(by_extension).unwrap_or(0);
    Some([u8::try_from(index).ok()?, u8::try_from(pick).ok()?])
}

/// The `format` target: every check of this crate on the picked format.
pub fn fuzz_format(data: &[u8]) {
    let Some((format, name, file)) = pick(data) else { return };
    check_identify(&name, file);
    extra::any(format.id, &name, file);
    if check(format, &name, file) {
        extra::parsed(format.id, &name, file);
    }
}

/// Identification by name and content never panics, and a file's first 64 bytes with its length say what
/// the whole file says (what `relic ls` relies on for archive entries).
pub fn check_identify(name: &str, data: &[u8]) {
    let head = data.get(..64).unwrap_or(data);
    let whole = relic::registry::sniff(data, name).map(|(f, _)| f.id);
    let sized = relic::registry::sniff_sized(head, name, data.len() as u64).map(|(f, _)| f.id);
    assert_eq!(whole, sized, "{name}: the first bytes say what the whole file says");
}

/// Checks that an error from reading `data` is located inside it and names `format`.
pub fn check_error(format: &Format, data: &[u8], err: &Error) {
    if let Some(at) = err.location() {
        assert_eq!(at.format, format.id, "error of another format: {err}");
        assert!(!at.field.is_empty(), "error without a field: {err}");
        assert!(at.offset <= data.len() as u64, "error offset beyond the input ({} bytes): {err}", data.len());
    }
}

/// Runs every common check on `data` as a file called `name` (the name picks the codec of formats without
/// magic, and the inherited extension of archive entries). Returns whether the input parsed.
pub fn check(format: &'static Format, name: &str, data: &[u8]) -> bool {
    let faces = Faces::of(format, name);
    let info = faces.info(data);
    let json = match faces.to_json(data) {
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
    // A file its format would not identify under this name (an `.idb` whose first table is numbered 0)
    // the writer refuses rather than write one it would not read back; nothing else may fail.
    let identified = relic::registry::sniff(data, name).is_some_and(|(f, _)| f.id == format.id);
    if faces.writes() && !identified {
        if let Err(err) = faces.write_json(json.clone()) {
            assert!(err.is_refusal(), "write_json of an unidentified file fails without refusing: {err}");
            convert_and_export(format, name, data);
            return true;
        }
    }
    if faces.writes() {
        let text = serde_json::to_string(&json).expect("a document serializes to JSON text");
        let back = faces.write_json(json).unwrap_or_else(|e| panic!("write_json of its own JSON fails: {e}"));
        assert!(back == data, "read → JSON → write changed the bytes");
        let value: serde_json::Value = serde_json::from_str(&text).expect("JSON text reads back");
        let back = faces.write_json(value).unwrap_or_else(|e| panic!("write_json of its JSON text fails: {e}"));
        assert!(back == data, "read → JSON text → write changed the bytes");
    }
    convert_and_export(format, name, data);
    true
}

/// The convert face: entries of an archive, or the asset model and every exporter it offers (with and
/// without `--mips`), and the first exported files of a kind the format packs from packed back.
pub fn convert_and_export(format: &'static Format, name: &str, data: &[u8]) {
    for mips in [false, true] {
        convert_and_export_with(format, name, data, &ConvertOptions { mips, ..Default::default() });
    }
}

/// How many exported files of one conversion [`convert_and_export_with`] packs back: enough to reach the
/// pack path, few enough that a sprite of a thousand frames stays fast.
const PACKED_BACK: usize = 2;

/// [`convert_and_export`] with given options.
pub fn convert_and_export_with(format: &'static Format, name: &str, data: &[u8], opts: &ConvertOptions) {
    let faces = Faces::of(format, name);
    if let Some(entries) = faces.entries(data, name) {
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
    let Ok(assets) = faces.convert(data, opts) else { return };
    let mut packed = 0;
    for asset in &assets {
        for ext in relic::export::extensions_for(&asset.asset) {
            let Ok(files) = relic::export::export(&asset.asset, Some(ext), "fuzz") else { continue };
            for file in files {
                if packed < PACKED_BACK && faces.pack_sources().contains(&file.extension) {
                    packed += 1;
                    check_pack_input(faces, name, &format!("fuzz.{}", file.extension), &file.bytes);
                }
            }
        }
    }
}

/// `relic pack FORMAT input`: refused, or a file the format reads.
pub fn check_pack_input(faces: Faces, name: &str, input_name: &str, input: &[u8]) {
    let request = PackRequest { output: name.into(), ..Default::default() };
    if let Ok(bytes) = faces.pack_input(input_name, input, &request) {
        if let Err(e) = Faces::of(faces.format, name).info(&bytes) {
            panic!("{} packed from {input_name} a file it cannot read: {e}", faces.format.id);
        }
    }
}

/// What every GRF parts target checks once its input is a whole archive (a target's own "parts" form is
/// turned into one by `assemble`): every face of [`check`] and [`extra::grf`].
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
    if check(&grf::FORMAT, "fuzz.grf", data) {
        extra::grf(data);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_and_name_comes_back_from_its_prefix() {
        for format in relic::FORMATS {
            for name in Faces::names(format) {
                let mut input = prefix(format, &name).expect("a registered format has a prefix").to_vec();
                input.extend_from_slice(b"file");
                let (picked, picked_name, file) = pick(&input).expect("a prefixed input picks");
                assert_eq!((picked.id, picked_name.as_str(), file), (format.id, name.as_str(), &b"file"[..]));
            }
        }
        // A real file's name picks the name of its extension; an unknown name the format's first.
        let db = relic::registry::by_id("ei-db").unwrap();
        let [_, pick_udb] = prefix(db, "data/units.UDB").unwrap();
        assert_eq!(Faces::names(db)[usize::from(pick_udb)], "fuzz.udb");
        let [_, pick_acks] = prefix(db, "C:\\game\\Acks.db").unwrap();
        assert_eq!(Faces::names(db)[usize::from(pick_acks)], "acks.db");
        assert_eq!(prefix(db, "other.txt").unwrap()[1], 0);
        assert!(pick(&[0]).is_none());
    }

    /// An Event Horizon GRF (its signature kept apart from the document) passes every check of the `format`
    /// target, its document rebuild included (a false finding of the first run, #41).
    #[test]
    fn an_event_horizon_grf_passes_every_check() {
        use relic::ragnarok::grf::{self, PackInput, PackSource, Signature};
        let grf = relic::registry::by_id("ro-grf").unwrap();
        for version in [0x200, 0x300, 0x103] {
            let inputs =
                vec![PackInput { name: b"data\\a.txt".to_vec(), source: PackSource::Bytes(b"event".to_vec()) }];
            let mut bytes = Vec::new();
            grf::write_archive_as(inputs, version, Signature::EventHorizon, &mut bytes).unwrap();
            assert!(bytes.starts_with(grf::types::EVENT_HORIZON));
            let mut input = prefix(grf, "fuzz.grf").unwrap().to_vec();
            input.extend_from_slice(&bytes);
            fuzz_format(&input);
        }
    }

    /// [`check_identify`] on every filed regression (`crates/relic/tests/regression/<format-id>/`) under
    /// every name of its format: what the `format` target found stays fixed.
    #[test]
    fn filed_regressions_identify_alike_from_their_head() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/relic/tests/regression");
        let mut checked = 0;
        for format in relic::FORMATS {
            let Ok(files) = std::fs::read_dir(root.join(format.id)) else { continue };
            for file in files.flatten() {
                let bytes = std::fs::read(file.path()).expect("a regression file reads");
                for name in Faces::names(format) {
                    check_identify(&name, &bytes);
                    checked += 1;
                }
            }
        }
        assert!(checked > 0, "no regression files under {}", root.display());
    }
}
