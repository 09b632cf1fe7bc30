//! Opens an archive, lists its entries and writes its first texture (an `.mmp` in an Evil Islands RES, a
//! `.bmp` in a Ragnarok GRF) as a PNG, through the front door: `relic::open` → `entries` → `open_entry` →
//! `to_png`.
//!
//! Run from the repository root: `cargo run -p relic --example texture_to_png [ARCHIVE] [OUT_DIR]`
//! (defaults: `samples/ragnarok/example.grf`, whose sample holds a texture, and the system's temp folder).

use relic::registry::Kind;

fn main() -> relic::Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "samples/ragnarok/example.grf".into());
    let out_dir = args.next().map_or_else(std::env::temp_dir, Into::into);
    let archive = relic::open(&path)?;
    let entries = archive.entries()?;
    for entry in &entries {
        println!("{:>8}  {}", entry.size, entry.name);
    }
    for entry in &entries {
        // Entries of no format relic knows (a readme) are skipped.
        let Ok(texture) = archive.open_entry(&entry.name) else { continue };
        if texture.format().kind != Kind::Image {
            continue;
        }
        let png = texture.to_png()?;
        let stem = entry.path.rsplit('/').next().unwrap_or("texture");
        let out = out_dir.join(format!("{stem}.png"));
        std::fs::write(&out, &png)?;
        println!("wrote {} ({} bytes, {})", out.display(), png.len(), texture.format().id);
        return Ok(());
    }
    Err(relic::Error::Unsupported(format!("{path} holds no texture")))
}
