//! RSM summary for `relic info`; the conversion to the scene model (glTF) is in [`super::scene`].

use serde_json::json;

use super::types::Rsm;

/// Header summary for `relic info`.
pub fn info(rsm: &Rsm) -> serde_json::Value {
    let time_unit = if rsm.version.is_rsm2() { "frames" } else { "milliseconds" };
    let roots: Vec<&str> = rsm.roots().into_iter().filter_map(|i| rsm.meshes.get(i)).map(|m| m.name.as_str()).collect();
    json!({
        "format": super::FORMAT_ID,
        "version": rsm.version.to_string(),
        "meshes": rsm.meshes.len(),
        "textures": rsm.texture_names().iter().map(|n| n.as_str()).collect::<Vec<_>>(),
        "animation_length": rsm.animation_length,
        "time_unit": time_unit,
        "fps": rsm.frame_rate,
        "animation_seconds": rsm.animation_seconds(),
        "shade_type": rsm.shade_type,
        "alpha": rsm.alpha,
        "root_names": rsm.root_names.iter().map(|n| n.as_str()).collect::<Vec<_>>(),
        "roots": roots,
        "vertices": rsm.meshes.iter().map(|m| m.vertices.len()).sum::<usize>(),
        "faces": rsm.meshes.iter().map(|m| m.faces.len()).sum::<usize>(),
        "volume_boxes": rsm.volume_boxes.as_ref().map(Vec::len),
    })
}
