//! Converts a model to a binary glTF (`.glb`): `sniff` the file, `convert` it to a scene, export the
//! scene with `export::gltf::to_glb`.
//!
//! Run from the repository root: `cargo run -p relic --example model_to_glb [MODEL] [OUT_DIR]`
//! (defaults: `samples/ragnarok/pyramid.rsm` and the system's temp folder).

use std::path::Path;

use relic::asset::Asset;
use relic::registry::{self, ConvertOptions};
use relic::{Error, Result};

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "samples/ragnarok/pyramid.rsm".into());
    let out_dir = args.next().map_or_else(std::env::temp_dir, Into::into);
    let data = std::fs::read(&path)?;
    let (format, _) = registry::sniff(&data, &path).ok_or_else(|| Error::Unsupported(format!("{path}: unknown")))?;
    // `convert_at` lets a model find its textures and companion files beside it.
    let assets = format.codec_for(&path).convert_at(&data, Path::new(&path), &ConvertOptions::default())?;
    let Some(Asset::Scene(scene)) = assets.into_iter().map(|a| a.asset).next() else {
        return Err(Error::Unsupported(format!("{path} is not a model")));
    };
    let glb = relic::export::gltf::to_glb(&scene)?;
    let stem = Path::new(&path).file_stem().and_then(|s| s.to_str()).unwrap_or("model");
    let out = out_dir.join(format!("{stem}.glb"));
    std::fs::write(&out, &glb)?;
    println!("wrote {} ({} meshes, {} bytes, {})", out.display(), scene.meshes.len(), glb.len(), format.id);
    Ok(())
}
