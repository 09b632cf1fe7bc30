//! Edits a file through its JSON document: `to_json`, change one value, `write_json` back to the format's
//! bytes. Here the `Difficulty` key of an Evil Islands settings file (`.reg`) becomes 3.
//!
//! Run from the repository root: `cargo run -p relic --example json_round_trip [REG_FILE] [OUT_DIR]`
//! (defaults: `samples/evil_islands/settings.reg` and the system's temp folder).

use std::path::Path;

use relic::registry;
use relic::{Error, Result};

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "samples/evil_islands/settings.reg".into());
    let out_dir = args.next().map_or_else(std::env::temp_dir, Into::into);
    let data = std::fs::read(&path)?;
    let (format, _) = registry::sniff(&data, &path).ok_or_else(|| Error::Unsupported(format!("{path}: unknown")))?;
    let codec = format.codec_for(&path);
    let mut doc = codec.to_json(&data)?;
    let key = doc["sections"]
        .as_array_mut()
        .into_iter()
        .flatten()
        .flat_map(|section| section["keys"].as_array_mut().into_iter().flatten())
        .find(|key| key["name"] == "Difficulty")
        .ok_or_else(|| Error::Unsupported(format!("{path} has no Difficulty key")))?;
    println!("Difficulty was {}, now 3", key["value"]);
    key["value"] = 3.into();
    let bytes = codec.write_json(doc)?;
    let name = Path::new(&path).file_name().and_then(|s| s.to_str()).unwrap_or("edited");
    let out = out_dir.join(name);
    std::fs::write(&out, &bytes)?;
    println!("wrote {} ({} bytes, {})", out.display(), bytes.len(), format.id);
    Ok(())
}
