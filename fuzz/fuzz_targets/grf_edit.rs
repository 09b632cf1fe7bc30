//! `relic edit` of a GRF (issue 24): random edits (adds, replacements under another case, deletions, a
//! repack) applied to an archive in a temporary file must read back as exactly the entries a plain model
//! of the edit expects, in every version relic writes; a hostile archive (an input that starts with the GRF
//! signature) is edited or refused, never a panic, and an edit that succeeds leaves an archive that reads.
//!
//! Input: byte 0 picks the version (0x200, 0x300, 0x103) and whether to repack after the edit; then
//! records of `op, name, len` and `len` content bytes: op % 3 = 0 puts the entry in the starting archive, 1
//! adds (or replaces) it with the edit, 2 deletes it. Names come from a small set (`data\d{k}\f{n}.bin`)
//! so that edits meet existing entries; an add names it in upper case half of the time.
#![no_main]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use libfuzzer_sys::fuzz_target;
use relic::ops::{self, AddSpec, EditRequest};
use relic::ragnarok::grf;

/// A folder of its own for each run (the process may run many inputs).
fn scratch() -> PathBuf {
    static RUN: AtomicU64 = AtomicU64::new(0);
    let n = RUN.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("relic-fuzz-grf-edit-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The archive's entries, or `None` when it does not parse.
fn read(path: &Path) -> Option<BTreeMap<String, Vec<u8>>> {
    let bytes = std::fs::read(path).ok()?;
    let g = grf::parse(&bytes).ok()?;
    (0..g.entries.len())
        .filter(|&i| g.entries[i].record.is_file())
        .map(|i| Some((g.entries[i].name.clone(), g.read_entry(i).ok()?.into_owned())))
        .collect()
}

fn run(data: &[u8], dir: &Path) {
    let archive = dir.join("a.grf");
    if data.starts_with(grf::types::SIGNATURE) || data.starts_with(grf::types::EVENT_HORIZON) {
        // A hostile archive: any edit is done or refused, cleanly.
        std::fs::write(&archive, data).unwrap();
        let file = dir.join("f");
        std::fs::write(&file, data.get(..data.len().min(64)).unwrap_or(&[])).unwrap();
        let request = EditRequest {
            add: vec![AddSpec::File { path: file, name: Some("data\\fuzz.bin".into()) }],
            delete: vec!["*.txt".into()],
            repack: data.len().is_multiple_of(2),
            ..Default::default()
        };
        if ops::edit(&archive, &request).is_ok() {
            assert!(read(&archive).is_some(), "an edited archive does not read");
        }
        return;
    }
    let Some((&mode, mut rest)) = data.split_first() else { return };
    let version = [0x200, 0x300, 0x103][usize::from(mode % 3)];
    let repack = mode & 0x80 != 0;
    let mut base: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut adds: Vec<(String, Vec<u8>)> = Vec::new();
    let mut deletes: Vec<String> = Vec::new();
    while let [op, name, len, tail @ ..] = rest {
        let len = usize::from(*len).min(tail.len());
        let (content, tail) = tail.split_at(len);
        rest = tail;
        let name = format!("data\\d{}\\f{}.bin", name % 4, name / 4 % 8);
        match op % 3 {
            0 => {
                base.insert(name, content.to_vec());
            }
            1 if !adds.iter().any(|(n, _)| n.eq_ignore_ascii_case(&name)) => {
                let shown = if op & 0x40 != 0 { name.to_ascii_uppercase() } else { name };
                adds.push((shown, content.to_vec()));
            }
            1 => {}
            _ => deletes.push(name),
        }
    }
    let inputs = base
        .iter()
        .map(|(n, b)| grf::PackInput { name: n.clone().into_bytes(), source: grf::PackSource::Bytes(b.clone()) })
        .collect();
    std::fs::write(&archive, grf::write_archive_bytes(inputs, version).unwrap()).unwrap();
    let before = std::fs::read(&archive).unwrap();

    // The model: deletions on the archive as it was, then adds (a name met, any case, keeps its stored form).
    let mut expected = base.clone();
    for d in &deletes {
        expected.remove(d);
    }
    let mut files = Vec::new();
    for (k, (name, content)) in adds.iter().enumerate() {
        let path = dir.join(format!("add{k}"));
        std::fs::write(&path, content).unwrap();
        files.push(AddSpec::File { path, name: Some(name.clone()) });
        let stored = base.keys().find(|n| n.eq_ignore_ascii_case(name)).cloned().unwrap_or_else(|| name.clone());
        expected.insert(stored, content.clone());
    }
    let request = EditRequest { add: files, delete: deletes.clone(), ..Default::default() };
    let report = ops::edit(&archive, &request).unwrap();
    assert_eq!(report.entries, expected.len());
    assert_eq!(read(&archive).as_ref(), Some(&expected), "0x{version:X}");
    let after = std::fs::read(&archive).unwrap();
    if after.len() > before.len() {
        // In place: nothing before the old end but the header was written.
        assert_eq!(after.get(grf::types::HEADER_SIZE..before.len()), before.get(grf::types::HEADER_SIZE..));
    }
    if repack {
        ops::edit(&archive, &EditRequest { repack: true, ..Default::default() }).unwrap();
        assert_eq!(read(&archive).as_ref(), Some(&expected), "0x{version:X} repacked");
    }
}

fuzz_target!(|data: &[u8]| {
    let dir = scratch();
    run(data, &dir);
    let _ = std::fs::remove_dir_all(&dir);
});
