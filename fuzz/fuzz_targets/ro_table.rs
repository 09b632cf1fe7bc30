//! `ro-table`: reading a client text table never panics; whatever parses writes back byte for byte
//! through its JSON (value and text) and through its UTF-8 text; identification by the table names never
//! panics and agrees between the whole file and its first bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::ragnarok::table::{self, Table};
use relic::registry::PackRequest;

fuzz_target!(|data: &[u8]| {
    let name = "idnum2itemdisplaynametable.txt";
    if relic_fuzz::check(&table::FORMAT, name, data) {
        let parsed = Table::read(data).expect("parsed once");
        assert_eq!(parsed.to_bytes().ok().as_deref(), Some(data), "read → write");
        let back = table::FORMAT.pack_input("t.txt", parsed.text.as_bytes(), &PackRequest::default());
        assert_eq!(back.ok().as_deref(), Some(data), "UTF-8 text → the same bytes");
    }
    let head = data.get(..64).unwrap_or(data);
    let whole = relic::registry::sniff(data, name).map(|(f, _)| f.id);
    let sized = relic::registry::sniff_sized(head, name, data.len() as u64).map(|(f, _)| f.id);
    assert_eq!(whole, sized, "the first bytes say what the whole file says");
    // Any bytes as edited text: refused or encoded, never a panic.
    let _ = table::FORMAT.pack_input("t.txt", data, &PackRequest::default());
});
