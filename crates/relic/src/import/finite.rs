//! Non-finite numbers in a glTF are refused where they are read (issue 40): glTF 2.0 §3.6.2.1 says
//! accessor floats MUST NOT be NaN or infinite, and the game formats have no use for them (RSM 1.4 would
//! turn the finite parts of such a vertex into NaN too). Every accessor decoded (positions, normals, UVs,
//! colours, weights, morph targets, inverse bind matrices, animation keys) and every number of the JSON
//! that places or shades geometry (node transforms, material factors, texture transforms) is checked; the
//! refusal names the accessor and item (or the node's field) and who uses it: the mesh and the first node
//! that places it, the skin, the animation channel.

use super::document as json;
use crate::error::{Error, Result};

const FORMAT: &str = "gltf";

/// The first item (and its first bad value) of `items` that holds NaN or an infinity.
pub(super) fn first_non_finite<const N: usize>(items: &[[f32; N]]) -> Option<(usize, f32)> {
    items.iter().enumerate().find_map(|(i, item)| item.iter().find(|v| !v.is_finite()).map(|&v| (i, v)))
}

/// The refusal of accessor `accessor`'s item `item` holding `value`, at byte `offset` of its buffer.
pub(super) fn non_finite_item(root: &json::Root, accessor: usize, item: usize, value: f32, offset: u64) -> Error {
    let used = user_of(root, accessor).map_or_else(String::new, |u| format!(": {u}"));
    Error::invalid(
        FORMAT,
        format!("accessors[{accessor}][{item}]"),
        offset,
        format!("holds {value}, not a finite number (glTF 2.0 §3.6.2.1 forbids NaN and infinities){used}"),
    )
}

/// Who reads accessor `accessor` (the first use found), in words.
fn user_of(root: &json::Root, accessor: usize) -> Option<String> {
    let first_node = |pick: &dyn Fn(&json::Node) -> bool| {
        root.nodes.iter().position(pick).map_or_else(
            || "placed by no node".to_string(),
            |i| format!("placed by node {i} `{}`", root.nodes.get(i).and_then(|n| n.name.as_deref()).unwrap_or("")),
        )
    };
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, prim) in mesh.primitives.iter().enumerate() {
            let semantic = prim
                .attributes
                .iter()
                .find(|(_, &a)| a == accessor)
                .map(|(s, _)| s.clone())
                .or_else(|| (prim.indices == Some(accessor)).then(|| "indices".to_string()))
                .or_else(|| {
                    prim.targets.iter().enumerate().find_map(|(t, target)| {
                        target.iter().find(|(_, &a)| a == accessor).map(|(s, _)| format!("morph target {t} {s}"))
                    })
                });
            if let Some(semantic) = semantic {
                let name = mesh.name.as_deref().unwrap_or("");
                let node = first_node(&|n| n.mesh == Some(m));
                return Some(format!("the {semantic} of mesh {m} `{name}` primitive {p}, {node}"));
            }
        }
    }
    if let Some(s) = root.skins.iter().position(|s| s.inverse_bind_matrices == Some(accessor)) {
        let node = first_node(&|n| n.skin == Some(s));
        return Some(format!("the inverse bind matrices of skin {s}, {node}"));
    }
    for (a, animation) in root.animations.iter().enumerate() {
        let name = animation.name.as_deref().unwrap_or("");
        for (c, channel) in animation.channels.iter().enumerate() {
            let Some(sampler) = animation.samplers.get(channel.sampler) else { continue };
            let part = if sampler.input == accessor {
                "key times"
            } else if sampler.output == accessor {
                "key values"
            } else {
                continue;
            };
            let node = channel.target.node.map_or_else(String::new, |i| {
                format!(" of node {i} `{}`", root.nodes.get(i).and_then(|n| n.name.as_deref()).unwrap_or(""))
            });
            return Some(format!("the {part} of animation {a} `{name}` channel {c} ({}{node})", channel.target.path));
        }
    }
    None
}

/// Refuses a node transform, material factor or texture transform of the JSON that is not finite (a JSON
/// number past f32's range, such as `1e39`, reads as an infinity), naming the node or material.
pub(super) fn check_document(root: &json::Root) -> Result<()> {
    let bad = |values: &[f32]| values.iter().copied().find(|v| !v.is_finite());
    for (i, n) in root.nodes.iter().enumerate() {
        let fields: [(&str, Option<&[f32]>); 4] = [
            ("matrix", n.matrix.as_ref().map(|m| &m[..])),
            ("translation", n.translation.as_ref().map(|m| &m[..])),
            ("rotation", n.rotation.as_ref().map(|m| &m[..])),
            ("scale", n.scale.as_ref().map(|m| &m[..])),
        ];
        for (field, values) in fields {
            if let Some(v) = values.and_then(bad) {
                let name = n.name.as_deref().unwrap_or("");
                return Err(Error::invalid(
                    FORMAT,
                    format!("nodes[{i}].{field}"),
                    0,
                    format!("node {i} `{name}`: {field} holds {v}, not a finite number"),
                ));
            }
        }
    }
    for (i, m) in root.materials.iter().enumerate() {
        let pbr = &m.pbr_metallic_roughness;
        let transform = pbr.base_color_texture.as_ref().and_then(|t| t.extensions.transform.as_ref());
        let fields: [(&str, Vec<f32>); 3] = [
            ("pbrMetallicRoughness.baseColorFactor", pbr.base_color_factor.to_vec()),
            ("pbrMetallicRoughness.roughnessFactor", vec![pbr.roughness_factor]),
            (
                "pbrMetallicRoughness.baseColorTexture.extensions.KHR_texture_transform",
                transform.map_or_else(Vec::new, |t| [&t.offset[..], &[t.rotation], &t.scale[..]].concat()),
            ),
        ];
        for (field, values) in fields {
            if let Some(v) = bad(&values) {
                let name = m.name.as_deref().unwrap_or("");
                return Err(Error::invalid(
                    FORMAT,
                    format!("materials[{i}].{field}"),
                    0,
                    format!("material {i} `{name}`: holds {v}, not a finite number"),
                ));
            }
        }
    }
    Ok(())
}
