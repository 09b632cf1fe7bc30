//! README's ten-line program: lists a Ragnarok archive and writes one of its textures as a PNG in the temp
//! folder. Run from the repository root: `cargo run -p relic --example first_texture`.

fn main() -> relic::Result<()> {
    let grf = relic::open("samples/ragnarok/example.grf")?;
    for entry in grf.entries()? {
        println!("{:>8}  {}", entry.size, entry.name);
    }
    let texture = grf.open_entry("data\\texture\\유저인터페이스\\sample.bmp")?;
    std::fs::write(std::env::temp_dir().join("sample.png"), texture.to_png()?)?;
    Ok(())
}
