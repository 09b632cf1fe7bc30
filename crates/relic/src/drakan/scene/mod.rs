//! Drakan scenes for glTF: models of a `.mod` (static meshes and skinned characters with the clips of their
//! `.adb`), and the landscape layers of a `.lvl`. Spec: the Drakan SRSC specification, sections
//! "Model (0x0200 - 0x0209)" and "Animation (0x0501 - 0x0503)", and docs/formats/drakan.md#model-polygons (quads, row-vector
//! matrices, the `.lvl` layout).
//!
//! Axes: relic keeps Drakan's coordinates as OpenDrakan uses them — X, Y up, Z — which are glTF's
//! (Y up), so positions, matrices and key frames go to glTF unchanged; [`to_gltf`] is the one place that
//! says so. Two things do change: model polygons are clockwise when seen from the front (OpenDrakan
//! renders them with a clockwise front face), so their winding is reversed for glTF's counter-clockwise
//! rule; and texture rows are stored bottom-up, so `v` becomes `1 − v` (the PNG is written top row first).

pub mod textures;

/// Drakan position → glTF position. Drakan's axes (as OpenDrakan reads them) are glTF's: Y is up.
pub fn to_gltf(p: [f32; 3]) -> [f32; 3] {
    p
}

/// Drakan texture coordinate → glTF: rows are stored bottom-up, glTF's `v = 0` is the image's top row.
pub fn uv_to_gltf(uv: [f32; 2]) -> [f32; 2] {
    [uv[0], 1.0 - uv[1]]
}

pub mod import;
pub mod level;
pub mod model;
pub mod skeleton;

use serde_json::{json, Value};

use crate::asset::NamedAsset;
use crate::drakan::records::texture::ChannelOrder;
use crate::drakan::srsc::{Context, Srsc};
use crate::registry::ConvertOptions;

/// The scenes of an SRSC file: one `.glb` per model (characters with their skin and clips), and for a
/// level its layers' terrain and heightmaps. What cannot be converted is listed in `records.json` (the
/// `listing`), not fatal: the rest of the file converts.
pub fn convert(
    srsc: &Srsc<'_>,
    ctx: &Context<'_>,
    opts: &ConvertOptions,
    order: ChannelOrder,
    listing: &mut Vec<Value>,
) -> Vec<NamedAsset> {
    let mut textures = textures::TextureSource::new(order);
    let mut anims = skeleton::AnimationSource::default();
    convert_with(srsc, ctx, opts, &mut textures, &mut anims, listing)
}

/// [`convert`] with the sources of textures and animations given (so their files can be supplied in
/// memory, as the fuzz target does).
pub fn convert_with(
    srsc: &Srsc<'_>,
    ctx: &Context<'_>,
    opts: &ConvertOptions,
    textures: &mut textures::TextureSource,
    anims: &mut skeleton::AnimationSource,
    listing: &mut Vec<Value>,
) -> Vec<NamedAsset> {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    out.extend(model::convert(srsc, ctx, anims, textures, &mut problems));
    out.extend(level::convert(srsc, ctx, opts, textures, &mut problems));
    // What the scenes go without (a texture not found, …) is said once for the file; records.json lists
    // each problem.
    if let Some(first) = problems.first() {
        let more = match problems.len() {
            1 => String::new(),
            n => format!(" (and {} more; records.json lists each)", n - 1),
        };
        opts.note(format!(
            "{}.{}: models and levels written without what was not found: {first}{more}",
            ctx.stem, ctx.extension
        ));
    }
    listing.extend(problems.into_iter().map(|p| json!({"scene": p})));
    out
}
