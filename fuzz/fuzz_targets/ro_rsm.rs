//! Fuzz target for Ragnarok Online RSM/RSM2 models (`ro-rsm`): parsing must never panic, and a file that
//! parses must come back byte-identical through its JSON document and the writer (the format is lossless).
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::ragnarok::rsm::{parse, write, Rsm};

fuzz_target!(|data: &[u8]| {
    let Ok(rsm) = parse(data) else { return };
    let _ = rsm.roots();
    let _ = rsm.parents();
    for m in &rsm.meshes {
        let _ = rsm.mesh_textures(m);
    }
    let json = serde_json::to_string(&rsm).expect("a parsed model serializes");
    let back: Rsm = serde_json::from_str(&json).expect("its JSON reads back");
    assert_eq!(write(&back).expect("it writes"), data, "JSON round trip changed the bytes");
});
