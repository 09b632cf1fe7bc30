//! Opens an archive, lists its entries and writes its first texture (an `.mmp` in an Evil Islands RES, a
//! `.bmp` in a Ragnarok GRF) as a PNG, through the registry: `sniff` → `entries` → `convert` → `export`.
//!
//! Run from the repository root: `cargo run -p relic --example texture_to_png [ARCHIVE] [OUT_DIR]`
//! (defaults: `samples/ragnarok/example.grf`, whose sample holds a texture, and the system's temp folder).

use relic::asset::Asset;
use relic::registry::{self, ConvertOptions, Kind};
use relic::{Error, Result};

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "samples/ragnarok/example.grf".into());
    let out_dir = args.next().map_or_else(std::env::temp_dir, Into::into);
    let data = std::fs::read(&path)?;
    let (format, _) = registry::sniff(&data, &path).ok_or_else(|| Error::Unsupported(format!("{path}: unknown")))?;
    let entries = format
        .codec_for(&path)
        .entries(&data, &path)
        .ok_or_else(|| Error::Unsupported(format!("{path} is not an archive")))??;
    for entry in &entries {
        println!("{:>8}  {}", entry.size, entry.name);
    }
    for entry in &entries {
        let bytes = entry.data.bytes()?;
        let Some((format, _)) = registry::sniff(&bytes, &entry.name).filter(|(f, _)| f.kind == Kind::Image) else {
            continue;
        };
        let assets = format.codec_for(&entry.name).convert(&bytes, &ConvertOptions::default())?;
        let Some(Asset::Image(image)) = assets.first().map(|a| &a.asset) else { continue };
        let png = relic::export::png::encode_image(image)?.swap_remove(0);
        let stem = entry.path.rsplit('/').next().unwrap_or("texture");
        let out = out_dir.join(format!("{stem}.png"));
        std::fs::write(&out, &png.bytes)?;
        println!("wrote {} ({}x{}, {})", out.display(), image.width(), image.height(), format.id);
        return Ok(());
    }
    Err(Error::Unsupported(format!("{path} holds no texture")))
}
