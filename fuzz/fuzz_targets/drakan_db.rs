//! `drakan-db`: reading a database definition never panics, and whatever parses writes back byte for byte.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::drakan::db;

fuzz_target!(|data: &[u8]| {
    if relic_fuzz::check(&db::FORMAT, "fuzz.db", data) {
        let file = db::parse(data).expect("parsed once");
        for d in &file.dependencies {
            let _ = file.dependency(d.index.unwrap_or(1));
        }
    }
});
