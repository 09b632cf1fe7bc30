//! Models (in progress).

use crate::asset::NamedAsset;
use crate::drakan::srsc::{Context, Srsc};
use crate::registry::ConvertOptions;

use super::textures::TextureSource;

pub fn convert(
    _srsc: &Srsc<'_>,
    _ctx: &Context<'_>,
    _opts: &ConvertOptions,
    _textures: &mut TextureSource,
    _problems: &mut Vec<String>,
) -> Vec<NamedAsset> {
    Vec::new()
}
