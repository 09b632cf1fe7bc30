//! The names of what `relic convert` writes for an SRSC file, shared by `convert` and `pack` so that both
//! agree on them, and which of them are sources (`pack` reads them back) and which are views (named
//! `<name>.view.<ext>`: `pack` never reads them). Names are relative to the folder the document is in and
//! never depend on that folder's name.
//!
//! Sources: the document (`<file>.json`), `strings.json`, `records.json` (decoded records),
//! `texture_<id>.png` (a texture; `texture_<id>.frame<k>.png` for frame k of an animation whose first
//! record is `<id>`), `<group path>/<id>_<name>.wav` (sounds), `<group path>/music_<id>.sgt|.dls`
//! (Music.rrc's RIFF blobs) and `heightmaps/<id>_<name>.png` (a level's layer heights).
//! Views: `texture_<id>.view.png` (the animated PNG of an animation), `models/<name>.view.glb`,
//! `terrain.view.glb`, and everything under `refs/` (textures and sounds of other files, shown for the
//! records that refer to them).

use std::collections::HashMap;

use super::convert::file_component;
use super::types::DirectoryEntry;
use crate::export::view::VIEW_SUFFIX;

/// `records.json`: every record decoded.
pub const RECORDS_FILE: &str = "records.json";

/// The PNG (without `.png`) of the texture or animation whose first record has id `first`.
pub fn texture(first: u16) -> String {
    format!("texture_{first}")
}

/// Frame `k` of the animation whose first record has id `first`.
pub fn frame(first: u16, k: usize) -> String {
    format!("texture_{first}.frame{k}")
}

/// The animated PNG of the animation whose first record has id `first` (a view).
pub fn animation_view(first: u16) -> String {
    format!("texture_{first}{VIEW_SUFFIX}")
}

/// `name` inside the folder of group `group` (none for group 0 or an unknown one).
pub fn in_group(groups: &HashMap<u16, String>, group: u16, name: &str) -> String {
    match groups.get(&group) {
        Some(g) if !g.is_empty() => format!("{g}/{name}"),
        _ => name.to_string(),
    }
}

/// The WAV (without `.wav`) of sound record `e` named `name`: `<group path>/<id>_<name>`, or
/// `<group path>/sound_<id>` when it has no usable name.
pub fn sound(groups: &HashMap<u16, String>, e: &DirectoryEntry, name: &str) -> String {
    let safe = file_component(name);
    let file = if safe.is_empty() { format!("sound_{}", e.id) } else { format!("{}_{safe}", e.id) };
    in_group(groups, e.group, &file)
}

/// A RIFF blob of a 0x0401 record (without its extension): `<group path>/music_<id>`.
pub fn music(groups: &HashMap<u16, String>, e: &DirectoryEntry) -> String {
    in_group(groups, e.group, &format!("music_{}", e.id))
}

/// A model's glTF (a view): `models/<file>.view`.
pub fn model_view(file: &str) -> String {
    format!("models/{file}{VIEW_SUFFIX}")
}

/// A level's terrain glTF (a view).
pub fn terrain_view() -> String {
    format!("terrain{VIEW_SUFFIX}")
}

/// A texture or sound of another file (a view): `refs/<database path>/<kind>_<id>.view`.
pub fn reference_view(folder: &str, kind: &str, id: u16) -> String {
    format!("refs/{folder}/{kind}_{id}{VIEW_SUFFIX}")
}
