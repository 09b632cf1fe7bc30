//! ANM to the common model: a friendly JSON of the animation (the part it moves, its frames, rotations as
//! glTF-order quaternions, translations, morphing frames) and, when the model it belongs to lies beside it,
//! a glTF scene of that model playing it (made by `evil_islands::model`, as a `.mod`'s clips are).
//!
//! Which model: a part's `.anm` on its own (`body.anm`) moves the part of its name: `body.fig` beside it,
//! with `body.bon` when there. An animation set (a `.anm` RES, `unit.anm`) belongs to `unit.mod` (the RES
//! holding the `.lnk` and the `.fig` parts), else to `unit.lnk` with each part's `.fig` beside it, placed by
//! `unit.bon`. Without a model the JSON is still made and a note says why there is no scene.

use serde_json::{json, Value};

use super::types::Anm;
use crate::asset::{Asset, Document, NamedAsset};
use crate::error::Result;
use crate::evil_islands::model::{self, Clip};
use crate::registry::ConvertOptions;

/// The friendly form of one part's animation. Rotations are `[x, y, z, w]` (glTF's order; the file stores
/// w first), translations `[x, y, z]` in the game's Z-up axes, as stored.
pub fn friendly(part: &str, anm: &Anm) -> Value {
    json!({
        "part": part,
        "frames": anm.rotations.len().max(anm.translations.len()),
        "seconds_at_15_fps": anm.rotations.len().max(anm.translations.len()) as f64
            / f64::from(super::ASSUMED_FRAMES_PER_SECOND),
        "rotations_xyzw": anm.rotations.iter().map(|q| [q.x, q.y, q.z, q.w]).collect::<Vec<_>>(),
        "translations": anm.translations,
        "morph_vertex_count": anm.morph_vertex_count,
        "morph_frames": anm.morph_frames,
    })
}

/// The friendly form of an animation set: each clip with its parts.
pub fn friendly_set(clips: &[Clip]) -> Value {
    let clips: Vec<Value> = clips
        .iter()
        .map(|(name, parts)| {
            json!({ "name": name, "parts": parts.iter().map(|(p, a)| friendly(p, a)).collect::<Vec<_>>() })
        })
        .collect();
    json!({ "format": "ei-anm-set", "frames_per_second": super::ASSUMED_FRAMES_PER_SECOND, "animations": clips })
}

/// The name a file is known by: its path's, else the archive entry's (`None` for bytes alone).
fn file_name(path: Option<&std::path::Path>, opts: &ConvertOptions) -> Option<String> {
    path.and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .or_else(|| opts.nearby.entry_name().map(str::to_string))
}

/// The JSON, and the scene of `figure` (when found) playing `clips`.
fn assets(
    value: Value,
    figure: Option<model::Figure>,
    clips: Vec<Clip>,
    path: Option<&std::path::Path>,
    opts: &ConvertOptions,
) -> Result<Vec<NamedAsset>> {
    let mut out = vec![NamedAsset {
        name: Some(NamedAsset::BESIDE.into()),
        asset: Asset::Document(Document { value, tables: vec![] }),
    }];
    if let Some(mut figure) = figure {
        model::dress(&mut figure, path, opts)?;
        figure.animations = clips;
        let scene = model::to_scene(&figure, model::FigureSettings::morph(opts), &mut |n| opts.note(n))?;
        out.push(NamedAsset { name: Some(NamedAsset::BESIDE.into()), asset: Asset::Scene(scene) });
    }
    Ok(out)
}

/// Converts one part's `.anm` (see the module doc).
pub fn convert_part(data: &[u8], path: Option<&std::path::Path>, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let anm = super::parse(data)?;
    let name = file_name(path, opts);
    let part = name.as_deref().map_or("part", model::stem).to_string();
    let value = json!({ "format": super::FORMAT_ID, "frames_per_second": super::ASSUMED_FRAMES_PER_SECOND,
        "animation": friendly(&part, &anm) });
    let figure = model::figure_beside(path, &part, opts)?;
    if figure.is_none() {
        opts.note(format!("{part}.anm: no {part}.fig beside it: JSON only, no glTF clip"));
    }
    assets(value, figure, vec![(part.clone(), vec![(part, anm)])], path, opts)
}

/// Converts an animation set (a `.anm` RES; see the module doc).
pub fn convert_set(data: &[u8], path: Option<&std::path::Path>, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let clips = model::read_animations(data)?;
    let name = file_name(path, opts);
    let model_name = name.as_deref().map_or("model", model::stem).to_string();
    let value = friendly_set(&clips);
    let figure = model::figure_beside(path, &model_name, opts)?;
    if figure.is_none() {
        opts.note(format!(
            "{model_name}.anm: no {model_name}.mod (nor {model_name}.lnk with its figures) beside it: JSON only, no glTF clip"
        ));
    }
    assets(value, figure, clips, path, opts)
}
