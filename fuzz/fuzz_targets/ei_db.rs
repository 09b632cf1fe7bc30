//! `ei-db`: the first byte picks the file name, and so the table layouts (`.idb`, `.ldb`, `.pdb`, `.sdb`,
//! `.udb`, `.qdb`, `acks.db`, `prints.db`, or an unknown `.db`), so every file type's decoding is exercised.
//! Reading never panics; whatever parses writes back byte for byte through its JSON (value and text) and
//! directly from its document, and converts to tables exported as JSON and CSV; its friendly forms (the
//! tables' JSON, each table's CSV over the file) write back byte for byte too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::evil_islands::db;

const NAMES: [&str; 9] =
    ["fuzz.idb", "fuzz.ldb", "fuzz.pdb", "fuzz.sdb", "fuzz.udb", "fuzz.qdb", "acks.db", "prints.db", "fuzz.db"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else { return };
    let name = NAMES.get(usize::from(pick) % NAMES.len()).copied().unwrap_or("fuzz.db");
    if !relic_fuzz::check(&db::FORMAT, name, bytes) {
        return;
    }
    let file_type = db::FileType::from_name(name);
    let doc = db::parse(bytes, file_type).expect("parsed once");
    let _ = db::convert::info(&doc, bytes.len());
    assert_eq!(db::write_document(&doc).expect("a parsed file writes"), bytes, "parse → write");
    let friendly = db::friendly::from_lossless(&doc).expect("a parsed file has friendly forms");
    let Ok((value, tables)) = db::friendly::to_json_and_csv(&friendly, 1 << 24) else { return };
    let back = db::friendly::to_lossless(&db::friendly::from_json(&value).expect("friendly JSON reads back"));
    assert_eq!(db::write_document(&back.expect("friendly JSON packs")).expect("writes"), bytes, "friendly JSON");
    for t in &tables {
        let line = |cells: &[String]| {
            let quoted: Vec<String> = cells.iter().map(|c| format!("\"{}\"", c.replace('"', "\"\""))).collect();
            quoted.join(",") + "\n"
        };
        let text: String = std::iter::once(line(&t.columns)).chain(t.rows.iter().map(|r| line(r))).collect();
        let mut again = friendly.clone();
        db::friendly::apply_csv(&mut again, &t.name, &text).expect("its CSV reads back");
        let written = db::write_document(&db::friendly::to_lossless(&again).expect("packs")).expect("writes");
        assert_eq!(written, bytes, "table {} through CSV", t.name);
    }
});
