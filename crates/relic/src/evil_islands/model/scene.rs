//! A [`Figure`] as a glTF scene (see the module doc of `model` for the choices).

use crate::asset::{
    Animation, Channel, ChannelTarget, ChannelValues, Interpolation, Material, Mesh, MorphTarget, Node, Primitive,
    Scene, Texture, Transform,
};
use crate::error::{Error, Result};
use crate::evil_islands::lnk::NameIndex;
use crate::evil_islands::{anm, fig};

use super::Figure;

/// Animation keys per second (docs/formats/evil-islands.md#anm-frame-rate: no file states a rate; one re-implementation uses 15).
pub const FRAMES_PER_SECOND: f32 = 15.0;

/// The game's Z-up `(x, y, z)` as glTF's Y-up `(x, z, −y)`.
pub fn to_gltf(v: [f32; 3]) -> [f32; 3] {
    [v[0], v[2], -v[1]]
}

/// The spec's trilinear blend of 8 extremes at `coefs` (its `val[0..8]`, `coefs[0..3]`); fewer extremes
/// than 8 give the first.
pub fn trilinear(val: &[[f32; 3]], coefs: [f32; 3]) -> [f32; 3] {
    let lerp = |a: [f32; 3], b: [f32; 3], t: f32| {
        [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]
    };
    match val {
        [v0, v1, v2, v3, v4, v5, v6, v7, ..] => {
            let a = lerp(lerp(*v0, *v1, coefs[1]), lerp(*v2, *v3, coefs[1]), coefs[0]);
            let b = lerp(lerp(*v4, *v5, coefs[1]), lerp(*v6, *v7, coefs[1]), coefs[0]);
            lerp(a, b, coefs[2])
        }
        [first, ..] => *first,
        [] => [0.0; 3],
    }
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// Checks the morph parameters: three values in 0..1.
pub fn check_morph(morph: [f32; 3]) -> Result<()> {
    if morph.iter().all(|v| (0.0..=1.0).contains(v)) {
        Ok(())
    } else {
        Err(Error::Refused(format!(
            "--morph takes three values from 0 to 1 (strength, dexterity, height), not {morph:?}"
        )))
    }
}

/// The scene of a figure at `morph`; `note` hears what was left out.
pub fn to_scene(figure: &Figure, morph: [f32; 3], note: &mut dyn FnMut(String)) -> Result<Scene> {
    check_morph(morph)?;
    let mut scene = Scene::default();
    let material = figure.texture.as_ref().map_or(
        Material { name: figure.name.clone(), base_color: [0.8, 0.8, 0.8, 1.0], ..Default::default() },
        |image| {
            scene.textures.push(Texture { name: format!("{}.mmp", figure.name), image: image.clone() });
            // The texture's pixel format and mip count (its PNG's record), so that `relic pack` writes
            // the `.mmp` back in them.
            let record = image.text.iter().find(|(k, _)| k == crate::evil_islands::mmp::provenance::PNG_TEXT_KEYWORD);
            let extras = record.map_or(
                serde_json::Value::Null,
                |(_, text)| serde_json::json!({ "evil_islands": { "texture_record": text } }),
            );
            Material { name: figure.name.clone(), texture: Some(0), extras, ..Default::default() }
        },
    );
    scene.materials.push(material);
    let links = &figure.lnk.links;
    // Every lookup by name goes through an index built once: thousands of parts stay O(n).
    let mut tree = figure.lnk.tree();
    let part_index = NameIndex::new(figure.parts.iter().map(|(n, _)| n.as_str()));
    let bone_index = NameIndex::new(figure.bones.iter().map(|(n, _)| n.as_str()));
    let clip_indexes: Vec<NameIndex> =
        figure.animations.iter().map(|(_, parts)| NameIndex::new(parts.iter().map(|(n, _)| n.as_str()))).collect();
    let part_of = |name: &str| part_index.get(name).map(|k| &figure.parts[k].1);
    for (i, link) in links.iter().enumerate() {
        let bone = bone_index.get(&link.name).map(|k| &figure.bones[k].1);
        let translation = bone.map_or([0.0; 3], |b| {
            if b.offsets.is_empty() {
                // An empty `.bon` entry (real figure archives have them): no offset to place the part by.
                note(format!(
                    "{}: part {}: its bone offsets are empty: placed at its parent's origin",
                    figure.name, link.name
                ));
            }
            let offsets: Vec<[f32; 3]> = (0..b.offsets.len()).filter_map(|m| b.offset(m)).collect();
            to_gltf(trilinear(&offsets, morph))
        });
        let mesh = match part_of(&link.name) {
            Some(part) => {
                let anims: Vec<(&str, &anm::Anm)> = figure
                    .animations
                    .iter()
                    .zip(&clip_indexes)
                    .filter_map(|((clip, parts), index)| Some((clip.as_str(), &parts[index.get(&link.name)?].1)))
                    .collect();
                let (mesh, dropped) = part_mesh(&link.name, part, morph, &anims);
                for (clip, anm) in &anims {
                    if !anm.morph_frames.is_empty() && !frames_fit(part, anm) {
                        note(format!(
                            "{}: part {}: the {} morphing frames of {clip} (of {} vertices; the part has {}) are left \
                             out: they must match the part and be at most {MAX_MORPH_FRAMES}",
                            figure.name,
                            link.name,
                            anm.morph_frames.len(),
                            anm.morph_vertex_count.unwrap_or(0),
                            part.position_count()
                        ));
                    }
                }
                if dropped > 0 {
                    note(format!(
                        "{}: part {}: {dropped} triangles with indices past its vertices left out",
                        figure.name, link.name
                    ));
                }
                scene.meshes.push(mesh);
                Some(scene.meshes.len() - 1)
            }
            None => None,
        };
        // Taken, not copied: each list is the node's own.
        let children = tree.children.get_mut(i).map(std::mem::take).unwrap_or_default();
        // The offsets of every extreme (game axes), so that `relic pack` writes the `.bon` back whole.
        let extras = bone.filter(|b| !b.offsets.is_empty()).map_or(serde_json::Value::Null, |b| {
            let offsets: Vec<[f32; 3]> = b.offsets.iter().map(|v| v.map(|c| c.get())).collect();
            serde_json::json!({ "evil_islands": { "bone_offsets": offsets } })
        });
        scene.nodes.push(Node {
            name: link.name.clone(),
            transform: Transform::Trs { translation, rotation: [0.0, 0.0, 0.0, 1.0], scale: [1.0; 3] },
            children,
            mesh,
            extras,
            ..Default::default()
        });
    }
    scene.roots = tree.roots.clone();
    // A cycle of parents leaves no root: every node would hang from another, which glTF refuses.
    if scene.roots.is_empty() && !scene.nodes.is_empty() {
        return Err(Error::invalid(
            crate::evil_islands::lnk::FORMAT_ID,
            "links",
            0,
            "no part is a root: the parents form a cycle",
        ));
    }
    if let Some(cycle) = tree.first_detached() {
        return Err(Error::invalid(
            crate::evil_islands::lnk::FORMAT_ID,
            format!("links[{cycle}].parent"),
            0,
            "the part's parents run in a cycle or end at a missing part",
        ));
    }
    for ((clip, parts), index) in figure.animations.iter().zip(&clip_indexes) {
        let mut channels = Vec::new();
        for (node, link) in links.iter().enumerate() {
            let Some(anm) = index.get(&link.name).map(|k| &parts[k].1) else { continue };
            let times = |n: usize| (0..n).map(|k| k as f32 / FRAMES_PER_SECOND).collect::<Vec<_>>();
            if !anm.rotations.is_empty() {
                let values = anm
                    .rotations
                    .iter()
                    .map(|q| {
                        let [x, y, z, w] = q.xyzw();
                        let [x, y, z] = to_gltf([x, y, z]);
                        normalise([x, y, z, w])
                    })
                    .collect();
                channels.push(Channel {
                    target: ChannelTarget::Node(node),
                    times: times(anm.rotations.len()),
                    values: ChannelValues::Rotation(values),
                    interpolation: Interpolation::Linear,
                });
            }
            if !anm.translations.is_empty() {
                let values = anm.translations.iter().map(|t| to_gltf(t.map(|c| c.get()))).collect();
                channels.push(Channel {
                    target: ChannelTarget::Node(node),
                    times: times(anm.translations.len()),
                    values: ChannelValues::Translation(values),
                    interpolation: Interpolation::Linear,
                });
            }
            if let (Some(mesh), Some(part)) = (scene.nodes[node].mesh, part_of(&link.name)) {
                if let Some(weights) = frame_weights(&scene.meshes[mesh], part, anm, clip) {
                    channels.push(Channel {
                        target: ChannelTarget::Node(node),
                        times: times(weights.len()),
                        values: ChannelValues::MorphWeights(weights),
                        interpolation: Interpolation::Step,
                    });
                }
            }
        }
        if !channels.is_empty() {
            scene.animations.push(Animation { name: clip.clone(), channels, ..Default::default() });
        }
    }
    Ok(scene)
}

/// A unit quaternion: as stored when it is one already (to glTF's tolerance), else normalised; identity
/// for a zero or non-finite one.
fn normalise(q: [f32; 4]) -> [f32; 4] {
    let len = q.iter().map(|c| c * c).sum::<f32>().sqrt();
    if (len - 1.0).abs() < 1e-5 {
        q
    } else if len.is_finite() && len > 0.0 {
        q.map(|c| c / len)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// Morph target name of the morphing frame `k` of clip `clip`.
fn frame_target(clip: &str, k: usize) -> String {
    format!("{clip}#{k}")
}

/// The weights of a part's morph targets per morphing frame of `anm` (the frame's own target at 1, every
/// other at 0), when the mesh has targets for that clip's frames.
fn frame_weights(mesh: &Mesh, part: &fig::Fig, anm: &anm::Anm, clip: &str) -> Option<Vec<Vec<f32>>> {
    let prim = mesh.primitives.first()?;
    let names: Vec<&str> = prim.morph_targets.iter().map(|t| t.name.as_str()).collect();
    if !frames_fit(part, anm) {
        return None;
    }
    let first = names.iter().position(|n| *n == frame_target(clip, 0))?;
    Some(
        (0..anm.morph_frames.len())
            .map(|k| (0..names.len()).map(|t| if t == first + k { 1.0 } else { 0.0 }).collect())
            .collect(),
    )
}

/// One part's mesh: every vertex component a glTF vertex (position blended at `morph`, unit normal, UV),
/// the triangles whose indices are in range (the count of the others is returned), the morph extremes as
/// targets and, for every animation of the part with morphing frames that fit it, one target per frame.
/// Morphing frames a clip may turn into morph targets: each frame is a target and every key holds a
/// weight per target, so the glTF grows with the square of the frames (real clips have a few dozen).
pub const MAX_MORPH_FRAMES: usize = 256;

/// Whether an animation's morphing frames fit a part: one shift per position of the part, and no more
/// than [`MAX_MORPH_FRAMES`] frames.
fn frames_fit(part: &fig::Fig, anm: &anm::Anm) -> bool {
    !anm.morph_frames.is_empty()
        && anm.morph_frames.len() <= MAX_MORPH_FRAMES
        && anm.morph_vertex_count.is_some_and(|n| n as usize == part.position_count())
        && anm.morph_frames.iter().all(|f| f.len() == part.position_count())
}

fn part_mesh(name: &str, part: &fig::Fig, morph: [f32; 3], anims: &[(&str, &anm::Anm)]) -> (Mesh, usize) {
    let extremes: Vec<Vec<[f32; 3]>> = (0..part.morph_count()).filter_map(|m| part.morph_positions(m)).collect();
    let normals = part.unit_normals();
    let at = |list: &[[f32; 3]], i: u16| list.get(usize::from(i)).copied().unwrap_or([0.0; 3]);
    let mut prim = Primitive { material: Some(0), ..Default::default() };
    let mut corners: Vec<[f32; 3]> = Vec::with_capacity(extremes.len());
    for vc in &part.vertices {
        corners.clear();
        corners.extend(extremes.iter().map(|e| at(e, vc.position)));
        prim.positions.push(to_gltf(trilinear(&corners, morph)));
        prim.normals.push(to_gltf(at(&normals, vc.normal)));
        let uv = part.texcoords.get(usize::from(vc.texcoord)).map_or([0.0; 2], |t| [t[0].get(), t[1].get()]);
        prim.uvs.push(uv);
    }
    let n = part.vertices.len() as u32;
    let mut dropped = 0;
    for t in part.triangles() {
        if t.iter().all(|&i| u32::from(i) < n) {
            prim.indices.extend(t.iter().map(|&i| u32::from(i)));
        } else {
            dropped += 1;
        }
    }
    if extremes.len() > 1 {
        for (m, e) in extremes.iter().enumerate() {
            let positions = part
                .vertices
                .iter()
                .zip(&prim.positions)
                .map(|(vc, base)| sub(to_gltf(at(e, vc.position)), *base))
                .collect();
            prim.morph_targets.push(MorphTarget { name: format!("extreme{m}"), positions, normals: vec![] });
        }
    }
    for (clip, anm) in anims.iter().filter(|(_, a)| frames_fit(part, a)) {
        for (k, frame) in anm.morph_frames.iter().enumerate() {
            let shifts: Vec<[f32; 3]> = frame.iter().map(|v| v.map(|c| c.get())).collect();
            let positions = part.vertices.iter().map(|vc| to_gltf(at(&shifts, vc.position))).collect();
            prim.morph_targets.push(MorphTarget { name: frame_target(clip, k), positions, normals: vec![] });
        }
    }
    // The FIG header fields glTF has no place for, so that `relic pack` writes them back.
    let extras = serde_json::json!({ "evil_islands": {
        "group": part.group, "texture_index": part.texture_index, "unk_0x1c": part.unk_0x1c
    } });
    (Mesh { name: name.to_string(), primitives: vec![prim], extras }, dropped)
}
