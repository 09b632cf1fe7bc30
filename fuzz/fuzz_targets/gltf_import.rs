//! glTF in (issue 29): reading a `.glb` or `.gltf` never panics; a scene that reads exports again and reads
//! back; every model format made from glTF (`relic pack ei-res|ro-rsm|drakan-srsc x.glb`) either refuses it
//! or writes a file its own reader accepts.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use relic::registry::{self, PackRequest};

/// The formats `relic pack` makes from a glTF, with the output name each is given.
const MODEL_FORMATS: [(&str, &str); 3] = [("ei-res", "fuzz.mod"), ("ro-rsm", "fuzz.rsm"), ("drakan-srsc", "fuzz.mod")];

fuzz_target!(|data: &[u8]| {
    let Ok(scene) = relic::import::gltf::read(data, Path::new("fuzz.glb")) else { return };
    let again = relic::export::gltf::to_glb(&scene).expect("a scene relic read exports");
    relic::import::gltf::read(&again, Path::new("again.glb")).expect("relic reads the glTF it wrote");
    for (id, output) in MODEL_FORMATS {
        let Some(format) = registry::by_id(id) else { continue };
        if !format.pack_sources.contains(&"glb") {
            continue;
        }
        let request = PackRequest { output: output.into(), ..Default::default() };
        if let Ok(bytes) = format.pack_input("fuzz.glb", data, &request) {
            if let Err(e) = format.for_name(output).info(&bytes) {
                panic!("{id} wrote from a glTF a file it cannot read: {e}");
            }
        }
    }
});
