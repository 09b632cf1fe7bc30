//! Converts a model to a binary glTF (`.glb`) through the front door: `relic::open` → `to_glb`. A model
//! opened from a path finds its textures and companion files beside it, as `relic convert` does.
//!
//! Run from the repository root: `cargo run -p relic --example model_to_glb [MODEL] [OUT_DIR]`
//! (defaults: `samples/ragnarok/pyramid.rsm` and the system's temp folder).

use std::path::Path;

fn main() -> relic::Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "samples/ragnarok/pyramid.rsm".into());
    let out_dir = args.next().map_or_else(std::env::temp_dir, Into::into);
    let model = relic::open(&path)?;
    let glb = model.to_glb()?;
    let stem = Path::new(&path).file_stem().and_then(|s| s.to_str()).unwrap_or("model");
    let out = out_dir.join(format!("{stem}.glb"));
    std::fs::write(&out, &glb)?;
    println!("wrote {} ({} bytes, {})", out.display(), glb.len(), model.format().id);
    Ok(())
}
