//! `ro-rsm`: reading never panics; a model that parses writes back byte for byte through its JSON (value and
//! text), and converts to a glTF scene exported as `.glb` and `.gltf` + `.bin`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::ragnarok::rsm::{self, parse, write};

fuzz_target!(|data: &[u8]| {
    if !relic_fuzz::check(&rsm::FORMAT, "fuzz.rsm", data) {
        return;
    }
    let model = parse(data).expect("parsed once");
    let _ = model.roots();
    let _ = model.parents();
    for m in &model.meshes {
        let _ = model.mesh_textures(m);
    }
    assert_eq!(write(&model).expect("a parsed model writes"), data, "parse → write");
});
