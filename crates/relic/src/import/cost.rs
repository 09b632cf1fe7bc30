//! What a glTF scene makes when a game importer instances it (`relic pack ei-res|ro-rsm|drakan-srsc
//! model.glb`), worked out from the scene in one pass, before any importer builds anything, and checked
//! against `--max-expansion` × the glTF's size (issue 40).
//!
//! The glTF reader charges what it decodes once per use, but the importers copy a mesh once per node that
//! places it (every game format here stores geometry per part), and the Evil Islands importer holds one
//! matrix per joint for each skinned node. A few kilobytes of nodes naming one large mesh (or one skin of
//! thousands of joints) would make gigabytes: so the copies are charged here by what they make — vertices,
//! triangle corners and morph-target vertices times the nodes that place their mesh, joints times the
//! nodes they skin, animation keys — like `convert` charges bodies that several entries share.

use crate::asset::{ChannelValues, Scene};
use crate::error::{Error, Result};

/// Bytes charged per vertex placed: about what the importers hold for one (position, normal, UV, welding
/// key and the part's copy); a glTF stores 12 to 32 bytes for it.
pub const VERTEX_BYTES: u64 = 64;
/// Bytes charged per triangle corner placed (the Evil Islands importer keeps a corner of about 120 bytes,
/// the others an index and a UV); a glTF stores 2 or 4 bytes for it.
pub const CORNER_BYTES: u64 = 64;
/// Bytes charged per morph-target vertex placed (a displaced position and normal).
pub const MORPH_VERTEX_BYTES: u64 = 24;
/// Bytes charged per joint of each skinned node (a 4 × 4 matrix of f64: joint world × inverse bind).
pub const JOINT_BYTES: u64 = 128;
/// Bytes charged per animation key (its time and value, resampled or converted once).
pub const KEY_BYTES: u64 = 32;

/// The largest contributor to what a scene makes when instanced, for the refusal to name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Largest {
    /// Mesh `mesh` placed by `placements` nodes, the first of them `node`.
    Mesh { mesh: usize, name: String, placements: u64, node: usize, node_name: String, bytes: u64 },
    /// Skin `skin` of `joints` joints used by `skinned` mesh nodes, the first of them `node`.
    Skin { skin: usize, joints: u64, skinned: u64, node: usize, node_name: String, bytes: u64 },
    /// The animation keys of every clip.
    Keys { keys: u64, bytes: u64 },
}

/// What a scene makes when instanced: `bytes` in all, and the largest part of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instancing {
    pub bytes: u64,
    pub largest: Option<Largest>,
}

/// What `scene` makes when every node that places a mesh gets its own copy of it (see the module doc).
/// Linear in the scene's nodes, primitives, skins and channels; nothing is built.
pub fn instancing(scene: &Scene) -> Instancing {
    // Per mesh and per skin: the nodes that use it, and the first of them.
    let mut placements: Vec<(u64, Option<usize>)> = vec![(0, None); scene.meshes.len()];
    let mut skinned: Vec<(u64, Option<usize>)> = vec![(0, None); scene.skins.len()];
    for (i, node) in scene.nodes.iter().enumerate() {
        let Some(slot) = node.mesh.and_then(|m| placements.get_mut(m)) else { continue };
        slot.0 += 1;
        slot.1.get_or_insert(i);
        if let Some(slot) = node.skin.and_then(|s| skinned.get_mut(s)) {
            slot.0 += 1;
            slot.1.get_or_insert(i);
        }
    }
    let node_name = |i: usize| scene.nodes.get(i).map_or_else(String::new, |n| n.name.clone());
    let mut total = 0u64;
    let mut largest: Option<Largest> = None;
    let mut consider = |candidate: Largest, bytes: u64| {
        total = total.saturating_add(bytes);
        if largest.as_ref().map_or(true, |l| largest_bytes(l) < bytes) {
            largest = Some(candidate);
        }
    };
    for (m, (&(count, first), mesh)) in placements.iter().zip(&scene.meshes).enumerate() {
        let Some(node) = first else { continue };
        let per_copy = mesh
            .primitives
            .iter()
            .map(|p| {
                let vertices = p.positions.len() as u64;
                let morph: u64 = p.morph_targets.iter().map(|t| t.positions.len().max(t.normals.len()) as u64).sum();
                vertices
                    .saturating_mul(VERTEX_BYTES)
                    .saturating_add((p.indices.len() as u64).saturating_mul(CORNER_BYTES))
                    .saturating_add(morph.saturating_mul(MORPH_VERTEX_BYTES))
            })
            .fold(0u64, u64::saturating_add);
        let bytes = per_copy.saturating_mul(count);
        let candidate = Largest::Mesh {
            mesh: m,
            name: mesh.name.clone(),
            placements: count,
            node,
            node_name: node_name(node),
            bytes,
        };
        consider(candidate, bytes);
    }
    for (s, (&(count, first), skin)) in skinned.iter().zip(&scene.skins).enumerate() {
        let Some(node) = first else { continue };
        let joints = skin.joints.len() as u64;
        let bytes = joints.saturating_mul(count).saturating_mul(JOINT_BYTES);
        consider(Largest::Skin { skin: s, joints, skinned: count, node, node_name: node_name(node), bytes }, bytes);
    }
    let keys: u64 = scene
        .animations
        .iter()
        .flat_map(|a| &a.channels)
        .map(|c| match &c.values {
            ChannelValues::MorphWeights(v) => v.iter().map(|w| w.len().max(1) as u64).sum(),
            _ => c.times.len() as u64,
        })
        .fold(0u64, u64::saturating_add);
    if keys > 0 {
        let bytes = keys.saturating_mul(KEY_BYTES);
        consider(Largest::Keys { keys, bytes }, bytes);
    }
    Instancing { bytes: total, largest }
}

fn largest_bytes(l: &Largest) -> u64 {
    match l {
        Largest::Mesh { bytes, .. } | Largest::Skin { bytes, .. } | Largest::Keys { bytes, .. } => *bytes,
    }
}

/// Refuses, for the pack into `format`, a scene that would make more than `budget` bytes when instanced
/// (`budget`: `--max-expansion` × the glTF's bytes and those of the buffers and images it reads beside it),
/// naming the mesh or skin that makes most of it.
pub fn check_instancing(format: &'static str, scene: &Scene, budget: u64) -> Result<()> {
    let cost = instancing(scene);
    if cost.bytes <= budget {
        return Ok(());
    }
    let ratio = crate::limits::current().max_expansion;
    let source = budget.checked_div(ratio).unwrap_or(0);
    let (field, what) = match &cost.largest {
        Some(Largest::Mesh { mesh, name, placements, node, node_name, bytes }) => (
            format!("meshes[{mesh}]"),
            format!(
                "mesh {mesh} `{name}` placed by {placements} node(s) (first: node {node} `{node_name}`) makes {bytes} of them"
            ),
        ),
        Some(Largest::Skin { skin, joints, skinned, node, node_name, bytes }) => (
            format!("skins[{skin}]"),
            format!(
                "skin {skin} of {joints} joints skinning {skinned} mesh node(s) (first: node {node} `{node_name}`) makes {bytes} of them"
            ),
        ),
        Some(Largest::Keys { keys, bytes }) => {
            ("animations".to_string(), format!("{keys} animation keys make {bytes} of them"))
        }
        None => ("scene".to_string(), String::new()),
    };
    Err(Error::limit(
        format,
        field,
        0,
        format!(
            "the glTF's {source} bytes would expand to {} bytes once its meshes are copied to every node placing them and its skins' joints to every node they skin, more than {ratio}× (--max-expansion raises the limit): {what}",
            cost.bytes
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::{Mesh, Node, Primitive, Skin};

    fn placed(count: usize, vertices: usize) -> Scene {
        Scene {
            nodes: (0..count).map(|i| Node { name: format!("n{i}"), mesh: Some(0), ..Default::default() }).collect(),
            roots: (0..count).collect(),
            meshes: vec![Mesh {
                name: "big".into(),
                primitives: vec![Primitive {
                    positions: vec![[0.0; 3]; vertices],
                    indices: (0..vertices as u32).collect(),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    #[test]
    fn every_placement_of_a_mesh_is_charged() {
        let one = instancing(&placed(1, 30));
        assert_eq!(one.bytes, 30 * (VERTEX_BYTES + CORNER_BYTES));
        let many = instancing(&placed(200, 30));
        assert_eq!(many.bytes, 200 * 30 * (VERTEX_BYTES + CORNER_BYTES));
        assert_eq!(
            many.largest,
            Some(Largest::Mesh {
                mesh: 0,
                name: "big".into(),
                placements: 200,
                node: 0,
                node_name: "n0".into(),
                bytes: many.bytes
            })
        );
    }

    #[test]
    fn joints_are_charged_per_skinned_node() {
        let mut scene = placed(50, 3);
        for n in &mut scene.nodes {
            n.skin = Some(0);
        }
        scene.skins.push(Skin { joints: (0..50).collect(), inverse_bind_matrices: vec![[0.0; 16]; 50] });
        let cost = instancing(&scene);
        let skin_bytes = 50 * 50 * JOINT_BYTES;
        assert_eq!(cost.bytes, 50 * 3 * (VERTEX_BYTES + CORNER_BYTES) + skin_bytes);
        assert!(
            matches!(cost.largest, Some(Largest::Skin { skin: 0, joints: 50, skinned: 50, bytes, .. }) if bytes == skin_bytes)
        );
    }

    #[test]
    fn the_refusal_names_format_mesh_node_and_the_option() {
        let scene = placed(200, 30);
        let cost = 200 * 30 * (VERTEX_BYTES + CORNER_BYTES);
        assert!(check_instancing("ro-rsm", &scene, cost).is_ok());
        let err = check_instancing("ro-rsm", &scene, cost - 1).unwrap_err().to_string();
        assert!(err.contains("ro-rsm") && err.contains("meshes[0]"), "{err}");
        assert!(err.contains("mesh 0 `big` placed by 200 node(s) (first: node 0 `n0`)"), "{err}");
        assert!(err.contains(&format!("would expand to {cost} bytes")) && err.contains("--max-expansion"), "{err}");
    }
}
