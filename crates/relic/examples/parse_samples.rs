//! Reads every file under a folder with relic built alone (`default-features = false`: no encoders, no
//! file writers, no threads): identifies each through the registry, reads its document to JSON and writes
//! it back, comparing the bytes, and lists the entries of archives. Prints one line a file and a summary;
//! exits with 1 when a file is not identified or a document's bytes differ.
//!
//! Run from the repository root: `cargo run -p relic --no-default-features --example parse_samples [DIR]`
//! (default `samples`). `tests/minimal_build.rs` runs it and checks the summary.

use std::path::{Path, PathBuf};

use relic::registry;

#[derive(Default)]
struct Summary {
    files: usize,
    identified: usize,
    documents: usize,
    written_back: usize,
    identical: usize,
    archives: usize,
    entries: usize,
    /// Files whose conversion to the asset model succeeded, and the assets it made.
    converted: usize,
    assets: usize,
    /// Assets [`relic::export::export`] wrote (JSON, text, binary), and those it refused for want of the
    /// `export` feature (PNG, WAV, glTF): a build without it still says what it cannot do.
    exported: usize,
    refused: usize,
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "samples".into());
    let mut files = Vec::new();
    collect(Path::new(&dir), &mut files);
    files.sort();
    let mut summary = Summary::default();
    let mut failed = false;
    for path in &files {
        summary.files += 1;
        let shown = path.display();
        let data = match std::fs::read(path) {
            Ok(data) => data,
            Err(e) => {
                println!("{shown}: cannot read: {e}");
                failed = true;
                continue;
            }
        };
        let name = path.to_string_lossy();
        let Some((format, _)) = registry::sniff(&data, &name) else {
            println!("{shown}: not identified");
            failed = true;
            continue;
        };
        summary.identified += 1;
        let codec = format.for_name(&name);
        let mut line = format!("{shown}: {}", format.id);
        if let Some(entries) = codec.entries(&data, &name) {
            match entries {
                Ok(entries) => {
                    summary.archives += 1;
                    summary.entries += entries.len();
                    line += &format!(", {} entries", entries.len());
                }
                Err(e) => line += &format!(", entries: {e}"),
            }
        }
        match codec.to_json(&data) {
            Ok(document) => {
                summary.documents += 1;
                match codec.from_json(document, &Default::default()) {
                    Ok(bytes) if bytes == data => {
                        summary.written_back += 1;
                        summary.identical += 1;
                        line += ", written back byte for byte";
                    }
                    Ok(bytes) => {
                        summary.written_back += 1;
                        failed = true;
                        line += &format!(", written back DIFFERENT ({} bytes, was {})", bytes.len(), data.len());
                    }
                    // A format relic reads but does not write: not a failure of the round trip.
                    Err(e) => line += &format!(", not written back: {e}"),
                }
            }
            Err(e) => line += &format!(", no document: {e}"),
        }
        if !format.is_archive() {
            if let Ok(assets) =
                codec.convert(&relic::registry::ConvertInput::new(&data, &registry::ConvertOptions::default()))
            {
                summary.converted += 1;
                summary.assets += assets.len();
                for named in &assets {
                    match relic::export::export(&named.asset, None, "sample") {
                        Ok(_) => summary.exported += 1,
                        Err(e) if e.to_string().contains("needs relic's `export` feature") => summary.refused += 1,
                        Err(e) => line += &format!(", export: {e}"),
                    }
                }
            }
        }
        println!("{line}");
    }
    let s = &summary;
    println!(
        "{} files, {} identified, {} documents, {} written back, {} byte for byte, {} archives with {} entries",
        s.files, s.identified, s.documents, s.written_back, s.identical, s.archives, s.entries
    );
    println!(
        "{} converted to {} assets: {} exported, {} refused for want of `export`",
        s.converted, s.assets, s.exported, s.refused
    );
    if failed {
        std::process::exit(1);
    }
}

/// The files below `dir`, every depth, links not followed.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(read) = std::fs::read_dir(dir) else { return };
    for entry in read.flatten() {
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() {
            collect(&entry.path(), out);
        } else if kind.is_file() {
            out.push(entry.path());
        }
    }
}
