//! Edits a file through its JSON document: `to_json`, change one value, `relic::write_json` back to the
//! format's bytes. Here the `Difficulty` key of an Evil Islands settings file (`.reg`) becomes 3.
//!
//! Run from the repository root: `cargo run -p relic --example json_round_trip [REG_FILE] [OUT_DIR]`
//! (defaults: `samples/evil_islands/settings.reg` and the system's temp folder).

use std::path::Path;

use relic::Error;

fn main() -> relic::Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "samples/evil_islands/settings.reg".into());
    let out_dir = args.next().map_or_else(std::env::temp_dir, Into::into);
    let settings = relic::open(&path)?;
    let mut doc = settings.to_json()?;
    let key = doc["sections"]
        .as_array_mut()
        .into_iter()
        .flatten()
        .flat_map(|section| section["keys"].as_array_mut().into_iter().flatten())
        .find(|key| key["name"] == "Difficulty")
        .ok_or_else(|| Error::Unsupported(format!("{path} has no Difficulty key")))?;
    println!("Difficulty was {}, now 3", key["value"]);
    key["value"] = 3.into();
    let bytes = relic::write_json(settings.format().id, doc)?;
    let name = Path::new(&path).file_name().and_then(|s| s.to_str()).unwrap_or("edited");
    let out = out_dir.join(name);
    std::fs::write(&out, &bytes)?;
    println!("wrote {} ({} bytes, {})", out.display(), bytes.len(), settings.format().id);
    Ok(())
}
