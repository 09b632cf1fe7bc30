//! `relic ls` over archives larger than one chunk of the streaming listing (`ops::list`, `list_each`,
//! `list_json`): table order, nested archives right after their own entry at chunk boundaries, the JSON
//! array one entry per line, and errors from the consumer or the writer.

use relic::evil_islands::res::{parse, write_archive, PackInput, PackOptions, PackSource};
use relic::ops;

fn res(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let inputs = entries
        .iter()
        .map(|(name, data)| PackInput {
            name: name.as_bytes().to_vec(),
            modified: 1_000_000_000,
            source: PackSource::Bytes(data.clone()),
        })
        .collect();
    let mut out = Vec::new();
    write_archive(inputs, PackOptions::default(), &mut out).unwrap();
    out
}

/// 5,000 stored files and three nested RES archives (more than two chunks of 2,048 entries).
fn many() -> (tempfile::TempDir, std::path::PathBuf, Vec<u8>) {
    let inner = res(&[("a.txt".into(), b"alpha".to_vec()), ("b\\c.txt".into(), b"gamma!".to_vec())]);
    let mut entries: Vec<(String, Vec<u8>)> =
        (0..5000u32).map(|i| (format!("dir{}\\f{i:04}.bin", i % 7), i.to_le_bytes().to_vec())).collect();
    for k in 0..3 {
        entries.push((format!("nest{k}.res"), inner.clone()));
    }
    let bytes = res(&entries);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.res");
    std::fs::write(&path, &bytes).unwrap();
    (dir, path, bytes)
}

/// What the listing must be, made from the parsed table: (name, path, size, format, nested).
fn expected(bytes: &[u8], recursive: bool) -> Vec<(String, String, u64, Option<&'static str>, bool)> {
    let table = parse(bytes).unwrap();
    let mut want = Vec::new();
    for i in 0..table.len() {
        let name = String::from_utf8(table.name(i).to_vec()).unwrap();
        let size = table.records[i].size as u64;
        let nested = name.ends_with(".res");
        want.push((name.clone(), name.replace('\\', "/"), size, nested.then_some("ei-res"), nested && recursive));
        if nested && recursive {
            // The inner archive's own table order.
            let inner = parse(table.data(i)).unwrap();
            for j in 0..inner.len() {
                let child = String::from_utf8(inner.name(j).to_vec()).unwrap();
                let size = inner.records[j].size as u64;
                want.push((
                    format!("{name}/{child}"),
                    format!("{name}/{}", child.replace('\\', "/")),
                    size,
                    None,
                    false,
                ));
            }
        }
    }
    want
}

fn rows(listed: &[ops::ListedEntry<'_>]) -> Vec<(String, String, u64, Option<&'static str>, bool)> {
    listed.iter().map(|e| (e.name.to_string(), e.path.to_string(), e.size, e.format, e.nested)).collect()
}

#[test]
fn a_listing_larger_than_a_chunk_keeps_table_order_and_puts_nested_entries_after_their_archive() {
    let (_dir, path, bytes) = many();
    let listed = ops::list(&path, true).unwrap();
    let want = expected(&bytes, true);
    assert_eq!(want.len(), 5003 + 3 * 2);
    assert_eq!(rows(&listed), want);
    assert!(listed.iter().all(|e| e.modified == Some(1_000_000_000)));

    let flat = ops::list(&path, false).unwrap();
    assert_eq!(rows(&flat), expected(&bytes, false));
    assert_eq!(flat.len(), 5003);
}

#[test]
fn list_json_writes_one_entry_per_line_and_equals_the_listing() {
    let (_dir, path, _) = many();
    for recursive in [false, true] {
        let mut out = Vec::new();
        ops::list_json(&path, recursive, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let listed = ops::list(&path, recursive).unwrap();
        assert!(text.starts_with("[\n{") && text.ends_with("}\n]\n"), "{}", &text[..40]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), listed.len() + 2);
        // Every line between the brackets is one whole entry (with its separating comma).
        for (line, entry) in lines[1..lines.len() - 1].iter().zip(&listed) {
            let one: serde_json::Value = serde_json::from_str(line.trim_end_matches(',')).unwrap();
            assert_eq!(one, serde_json::to_value(entry).unwrap());
        }
        let whole: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(whole, serde_json::to_value(&listed).unwrap());
    }
}

#[test]
fn an_empty_archive_lists_as_an_empty_array() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.res");
    std::fs::write(&path, res(&[])).unwrap();
    let mut out = Vec::new();
    ops::list_json(&path, true, &mut out).unwrap();
    assert_eq!(out, b"[]\n");
    assert!(ops::list(&path, true).unwrap().is_empty());
}

#[test]
fn a_consumer_error_stops_the_listing_and_is_returned() {
    let (_dir, path, _) = many();
    let mut seen = 0;
    let err = ops::list_each(&path, false, &mut |_| {
        seen += 1;
        if seen == 3000 {
            return Err(relic::Error::Refused("enough".into()));
        }
        Ok(())
    })
    .unwrap_err();
    assert_eq!(seen, 3000);
    assert!(err.to_string().contains("enough"), "{err}");
}

/// A writer that takes `room` bytes, then fails as a closed pipe does.
struct Closing {
    room: usize,
}

impl std::io::Write for Closing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.room == 0 {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        }
        let n = buf.len().min(self.room);
        self.room -= n;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failed_write_is_an_io_error_on_standard_output() {
    let (_dir, path, _) = many();
    for room in [0, 1, 100_000] {
        match ops::list_json(&path, true, &mut Closing { room }) {
            Err(relic::Error::Io { path, source }) => {
                assert_eq!((path.to_str(), source.kind()), (Some("standard output"), std::io::ErrorKind::BrokenPipe))
            }
            other => panic!("room {room}: {other:?}"),
        }
    }
}

/// Every archive the repository ships, cut at every length and with every byte flipped in turn: the
/// streaming JSON listing and the collected listing give errors, never a panic, and agree when they list.
#[test]
fn damaged_archives_list_or_fail_alike() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let samples = [
        "evil_islands/example.res",
        "evil_islands/unit.mod",
        "ragnarok/example.grf",
        "dark_reign/SPRITES.FTG",
        "drakan/Dragon.rrc",
        "drakan/Sample.txd",
    ];
    let dir = tempfile::tempdir().unwrap();
    let mut listed_some = 0;
    for sample in samples {
        let bytes = std::fs::read(root.join(sample)).unwrap_or_else(|e| panic!("{sample}: {e}"));
        let name = sample.rsplit('/').next().unwrap();
        let path = dir.path().join(name);
        let mut variants: Vec<Vec<u8>> = (0..bytes.len()).map(|n| bytes[..n].to_vec()).collect();
        variants.extend((0..bytes.len()).map(|i| {
            let mut v = bytes.clone();
            v[i] ^= 0xA5;
            v
        }));
        for variant in variants {
            std::fs::write(&path, &variant).unwrap();
            let mut out = Vec::new();
            let json = ops::list_json(&path, true, &mut out);
            let list = ops::list(&path, true);
            match (json, list) {
                (Ok(()), Ok(listed)) => {
                    let parsed: serde_json::Value = serde_json::from_slice(&out).unwrap();
                    assert_eq!(parsed, serde_json::to_value(&listed).unwrap(), "{sample}");
                    listed_some += 1;
                }
                (Err(_), Err(_)) => {}
                (json, list) => panic!("{sample}: list_json {:?} but list {:?}", json.err(), list.err()),
            }
        }
    }
    assert!(listed_some > 100, "only {listed_some} damaged variants listed");
}
