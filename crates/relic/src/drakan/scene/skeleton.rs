//! Characters (record 0x0208) as glTF skins, and their animations (`.adb` records 0x0501–0x0503) as clips.
//!
//! - Joints: one glTF node per `joint_info`, named after the `node_info` that refers to it; the tree comes
//!   from `first_child_index` / `next_sibling_index` (joint indices, 0 = none; joint 0 is the root), as
//!   OpenDrakan builds it. Nodes that are not joints (effectors, chains) are listed in `extras`.
//! - Bind pose: each joint stores its inverted model-relative transform, applied to row vectors
//!   (docs/formats/drakan.md#matrices: p' = p·L + t). Stored row by row, those twelve floats are exactly a column-major 4×4
//!   for column vectors (the rows of L are the columns of Lᵀ), so they are the glTF inverse bind matrix as
//!   they stand; a joint's model transform is its inverse, its node transform that relative to its parent,
//!   decomposed into translation, rotation and scale.
//! - Weights: per LOD, every joint lists the vertices it moves. A vertex keeps its 4 largest weights
//!   (glTF's JOINTS_0/WEIGHTS_0), normalised to sum 1; how many vertices had more is reported. A vertex no
//!   joint names follows the joint of its LOD mesh's node (else joint 0).
//! - Animations: the character's `anim_ids` name records of the database's `.adb` (same id for 0x0501
//!   info, 0x0502 frames, 0x0503 lookup). The lookup has one frame range per joint (OpenDrakan indexes it
//!   by joint; a lookup exactly as long as the node list, when that differs from the joint count, is
//!   indexed by node). A frame is a time `t` (seconds) and a 3×4 matrix relative to the parent joint,
//!   decomposed into translation, rotation and scale keys. Keys that do not increase in time are dropped;
//!   when the stored duration is longer than the last key, the last pose is held until it. The flags
//!   (non-looping 0x01) and thresholds are kept in the clip's `extras`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::{DMat4, DQuat, DVec3};
use serde_json::{json, Value};

use super::model::LodWeights;
use crate::asset::{Animation, Channel, ChannelTarget, ChannelValues, Interpolation, Node, Scene, Skin, Transform};
use crate::drakan::records::animation::{self, AnimationInfo, Frames, Lookup};
use crate::drakan::records::character::Character;
use crate::drakan::records::common::Mat3x4;
use crate::drakan::records::Ref;
use crate::drakan::srsc::{parse, Context};
use crate::error::{Error, Result};

/// The skin added to a scene: its index and the node of each joint.
pub struct SkinInfo {
    pub skin: usize,
    pub joint_nodes: Vec<usize>,
}

/// The stored matrix as a column-major 4×4 for column vectors (see the module notes).
pub fn matrix(m: &Mat3x4) -> DMat4 {
    let l = m.linear.map(|f| f64::from(f.get()));
    let t = m.translation.map(|f| f64::from(f.get()));
    DMat4::from_cols_array(&[
        l[0], l[1], l[2], 0.0, l[3], l[4], l[5], 0.0, l[6], l[7], l[8], 0.0, t[0], t[1], t[2], 1.0,
    ])
}

fn to_f32(m: DMat4) -> [f32; 16] {
    m.to_cols_array().map(|v| v as f32)
}

/// Translation, rotation (x, y, z, w) and scale of a matrix; `None` when it does not decompose into finite
/// values (a singular or non-finite matrix).
fn trs(m: DMat4) -> Option<([f32; 3], [f32; 4], [f32; 3])> {
    if !m.is_finite() || m.determinant().abs() < 1e-30 {
        return None;
    }
    let (s, r, t): (DVec3, DQuat, DVec3) = m.to_scale_rotation_translation();
    let r = r.normalize();
    let out = (t.as_vec3().to_array(), r.as_quat().to_array(), s.as_vec3().to_array());
    let finite = out.0.iter().chain(&out.1).chain(&out.2).all(|v| v.is_finite());
    finite.then_some(out)
}

/// Joint parents from the first-child / next-sibling links (cycles and links out of range ignored).
fn parents(c: &Character) -> Vec<Option<usize>> {
    let n = c.joints.len();
    let mut parent: Vec<Option<usize>> = vec![None; n];
    let valid = |i: i32| usize::try_from(i).ok().filter(|&i| i > 0 && i < n);
    for (j, joint) in c.joints.iter().enumerate() {
        let mut child = valid(joint.first_child_index);
        let mut steps = 0;
        while let Some(k) = child {
            if steps > n || k == j || parent.get(k).copied().flatten().is_some() {
                break;
            }
            if let Some(p) = parent.get_mut(k) {
                *p = Some(j);
            }
            child = c.joints.get(k).and_then(|jk| valid(jk.next_sibling_index));
            steps += 1;
        }
    }
    // A link that closes a cycle would leave no root: break it at the lowest joint of the cycle. Each joint
    // is walked once (a walk stops at a joint already walked): a chain of 20,000 joints walked from every
    // joint to its root took 2·10⁸ steps per model (issue 40).
    const NEW: u8 = 0;
    const ON_WALK: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; n];
    let mut walk = Vec::new();
    for start in 0..n {
        walk.clear();
        let mut at = Some(start);
        while let Some(j) = at {
            match state.get(j).copied() {
                Some(NEW) => {
                    if let Some(s) = state.get_mut(j) {
                        *s = ON_WALK;
                    }
                    walk.push(j);
                    at = parent.get(j).copied().flatten();
                }
                Some(ON_WALK) => {
                    // The walk came back to `j`: the cycle is the walk from `j` on.
                    let from = walk.iter().position(|&k| k == j).unwrap_or(0);
                    if let Some(&lowest) = walk.get(from..).and_then(|c| c.iter().min()) {
                        if let Some(slot) = parent.get_mut(lowest) {
                            *slot = None;
                        }
                    }
                    break;
                }
                _ => break,
            }
        }
        for &j in &walk {
            if let Some(s) = state.get_mut(j) {
                *s = DONE;
            }
        }
    }
    parent
}

/// The model transform of each joint in the bind pose (the inverse of its stored inverse).
fn bind_world(c: &Character) -> Vec<DMat4> {
    c.joints
        .iter()
        .map(|j| usable_inverse_bind(&j.inverted_model_rel_xform).map_or(DMat4::IDENTITY, |ibm| ibm.inverse()))
        .collect()
}

/// A joint's stored inverse bind matrix, unless it is damaged (not finite, or singular).
fn usable_inverse_bind(m: &Mat3x4) -> Option<DMat4> {
    Some(matrix(m)).filter(|ibm| ibm.is_finite() && ibm.determinant().abs() > 1e-30)
}

/// The joint nodes and the skin of a character (see the module notes).
pub fn add_skeleton(scene: &mut Scene, c: &Character) -> SkinInfo {
    let parent = parents(c);
    let world = bind_world(c);
    let mut names: Vec<Option<String>> = vec![None; c.joints.len()];
    for node in &c.nodes {
        if let Some(slot) = usize::try_from(node.joint_info_index).ok().and_then(|j| names.get_mut(j)) {
            if slot.is_none() {
                *slot = Some(node.name.clone());
            }
        }
    }
    let base = scene.nodes.len();
    let joint_nodes: Vec<usize> = (0..c.joints.len()).map(|j| base + j).collect();
    for (j, joint) in c.joints.iter().enumerate() {
        let w = world.get(j).copied().unwrap_or(DMat4::IDENTITY);
        let local = match parent.get(j).copied().flatten().and_then(|p| world.get(p)) {
            Some(pw) => pw.inverse() * w,
            None => w,
        };
        let transform = match trs(local) {
            Some((translation, rotation, scale)) => Transform::Trs { translation, rotation, scale },
            None => Transform::default(),
        };
        let name = names.get(j).cloned().flatten().unwrap_or_else(|| format!("joint {j}"));
        scene.nodes.push(Node {
            name,
            transform,
            extras: json!({"joint": j, "mesh_index": joint.mesh_index}),
            ..Default::default()
        });
    }
    for (j, p) in parent.iter().enumerate() {
        match p {
            Some(p) => {
                if let Some(node) = scene.nodes.get_mut(base + p) {
                    node.children.push(base + j);
                }
            }
            None => scene.roots.push(base + j),
        }
    }
    // A damaged stored matrix (not finite, or singular) binds its joint where the node tree puts it.
    let inverse_bind_matrices = c
        .joints
        .iter()
        .zip(&world)
        .map(|(j, w)| {
            let m = usable_inverse_bind(&j.inverted_model_rel_xform).unwrap_or_else(|| w.inverse());
            Some(to_f32(m)).filter(|m| m.iter().all(|v| v.is_finite())).unwrap_or(to_f32(DMat4::IDENTITY))
        })
        .collect();
    scene.skins.push(Skin { joints: joint_nodes.clone(), inverse_bind_matrices });
    SkinInfo { skin: scene.skins.len() - 1, joint_nodes }
}

/// A character's joint nodes, the roots among them and its skin, with its `extras`
/// ([`character_extras`]): built once for every model over one character record (issue 40: 40 models over a
/// 20,000-joint character built it 40 times), then added to each model's scene ([`Skeleton::add_to`]).
pub struct Skeleton {
    scene: Scene,
    pub extras: Value,
}

impl Skeleton {
    pub fn build(c: &Character) -> Skeleton {
        let mut scene = Scene::default();
        add_skeleton(&mut scene, c);
        Skeleton { scene, extras: character_extras(c) }
    }

    /// Its nodes, roots and skin added to `scene` (node indices moved past what `scene` holds): what
    /// [`add_skeleton`] adds.
    pub fn add_to(&self, scene: &mut Scene) -> SkinInfo {
        let base = scene.nodes.len();
        scene.nodes.extend(self.scene.nodes.iter().map(|node| {
            let mut node = node.clone();
            for child in &mut node.children {
                *child += base;
            }
            node
        }));
        scene.roots.extend(self.scene.roots.iter().map(|r| r + base));
        let joint_nodes: Vec<usize> =
            self.scene.skins.first().map(|s| s.joints.iter().map(|j| j + base).collect()).unwrap_or_default();
        let inverse_bind_matrices =
            self.scene.skins.first().map(|s| s.inverse_bind_matrices.clone()).unwrap_or_default();
        scene.skins.push(Skin { joints: joint_nodes.clone(), inverse_bind_matrices });
        SkinInfo { skin: scene.skins.len() - 1, joint_nodes }
    }
}

/// JOINTS_0 / WEIGHTS_0 of LOD `lod`'s vertices `first..end` (see the module notes).
pub fn vertex_weights(c: &Character, lod: usize, first: usize, end: usize) -> LodWeights {
    let n = end.saturating_sub(first);
    let mut per_vertex: Vec<Vec<(u16, f32)>> = vec![Vec::new(); n];
    for (j, joint) in c.joints.iter().enumerate() {
        let Ok(j16) = u16::try_from(j) else { break };
        for w in joint.weights_per_lod.get(lod).map_or(&[][..], |v| v.as_slice()) {
            let weight = w.weight.get();
            let Some(list) = per_vertex.get_mut(w.vertex_index as usize) else { continue };
            if !weight.is_finite() || weight <= 0.0 {
                continue;
            }
            list.push((j16, weight));
        }
    }
    // The same joint twice for a vertex: one weight (glTF forbids a joint twice). Joints are pushed in
    // order, so a repeat is the last entry of a list, unless the joint's own list names the vertex twice
    // apart: sorted by joint (stable) and merged, linear in the weights (a vertex under 6,667 joints was
    // searched once per weight, issue 40).
    for list in &mut per_vertex {
        list.sort_by_key(|&(j, _)| j);
        list.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                kept.1 += later.1;
            }
            same
        });
    }
    let fallback = c
        .lod_meshes
        .get(lod)
        .and_then(|m| m.first())
        .and_then(|info| c.nodes.get(info.node_index as usize))
        .and_then(|node| u16::try_from(node.joint_info_index).ok())
        .filter(|&j| usize::from(j) < c.joints.len())
        .unwrap_or(0);
    let mut out = LodWeights { joints: Vec::with_capacity(n), weights: Vec::with_capacity(n), over_four: 0 };
    for mut list in per_vertex {
        if list.len() > 4 {
            out.over_four += 1;
        }
        list.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        list.truncate(4);
        let sum: f32 = list.iter().map(|(_, w)| w).sum();
        let (mut joints, mut weights) = ([0u16; 4], [0f32; 4]);
        if sum > 0.0 && sum.is_finite() {
            for (k, (j, w)) in list.iter().enumerate() {
                if let (Some(js), Some(ws)) = (joints.get_mut(k), weights.get_mut(k)) {
                    *js = *j;
                    *ws = w / sum;
                }
            }
        } else {
            joints[0] = fallback;
            weights[0] = 1.0;
        }
        out.joints.push(joints);
        out.weights.push(weights);
    }
    out
}

/// What glTF has no place for: bounds, channels with their caps, the non-joint nodes, LOD names.
pub fn character_extras(c: &Character) -> Value {
    let non_joints: Vec<Value> = c
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.joint_info_index < 0)
        .map(|(i, n)| json!({"node": i, "name": n.name}))
        .collect();
    json!({
        "bounding_info": c.bounding_info,
        "lod_names": c.lod_names,
        "non_joint_nodes": non_joints,
        "channels": c.channels,
        "char_bounds": c.bounds,
        "anim_ids": c.anim_ids,
    })
}

/// `.adb` files read once per conversion.
#[derive(Default)]
pub struct AnimationSource {
    files: HashMap<PathBuf, Option<Arc<Vec<u8>>>>,
}

impl AnimationSource {
    /// Makes `bytes` the content of `path` (an `.adb` that is not on disk).
    pub fn give(&mut self, path: PathBuf, bytes: Vec<u8>) {
        self.files.insert(path, Some(Arc::new(bytes)));
    }

    fn file(&mut self, path: &Path) -> Option<Arc<Vec<u8>>> {
        self.files.entry(path.to_path_buf()).or_insert_with(|| crate::source::read(path).ok().map(Arc::new)).clone()
    }
}

/// One animation's three records.
pub struct AnimationRecords {
    pub info: AnimationInfo,
    pub frames: Frames,
    pub lookup: Lookup,
}

/// Reads animation `id` from an `.adb`'s bytes.
pub fn read_animation(bytes: &[u8], id: u16) -> Result<AnimationRecords> {
    let srsc = parse(bytes)?;
    let body = |t: u16| {
        srsc.find(t, id)
            .map(|i| (srsc.body(i), srsc.body_offset(i)))
            .ok_or_else(|| Error::Refused(format!("no record 0x{t:04X} with id {id}")))
    };
    let (b, at) = body(0x0501)?;
    let info = animation::parse_info(b, at)?;
    let (b, at) = body(0x0502)?;
    let frames = animation::parse_frames(b, at)?;
    let (b, at) = body(0x0503)?;
    let lookup = animation::parse_lookup(b, at)?;
    Ok(AnimationRecords { info, frames, lookup })
}

/// The character's animations as clips (see the module notes); returns a summary of each for `extras`.
pub fn add_animations(
    scene: &mut Scene,
    skin: &SkinInfo,
    c: &Character,
    ctx: &Context<'_>,
    source: &mut AnimationSource,
    label: &str,
    problems: &mut Vec<String>,
) -> Vec<Value> {
    let mut summary = Vec::new();
    for r in &c.anim_ids {
        if r.is_null() {
            continue;
        }
        let loaded = ctx
            .database_file(r.db, "adb")
            .ok_or_else(|| Error::Refused(format!("database index {} is unknown", r.db)))
            .and_then(|(path, shown)| {
                let bytes =
                    source.file(&path).ok_or_else(|| Error::Refused(format!("{}: not found", path.display())))?;
                match read_animation(&bytes, r.id) {
                    Ok(a) => Ok((a, shown)),
                    Err(e) => Err(Error::Refused(format!("{shown}: {e}"))),
                }
            });
        match loaded {
            Ok((anim, shown)) => {
                let (clip, dropped) = clip(&anim, *r, skin, c);
                if dropped > 0 {
                    problems.push(format!(
                        "{label}: animation `{}`: {dropped} key frames out of time order or not finite were left out",
                        anim.info.name.text
                    ));
                }
                summary.push(json!({"name": clip.name, "ref": format!("{shown}:{}", r.id)}));
                scene.animations.push(clip);
            }
            Err(err) => problems.push(format!("{label}: animation {}:{}: {err}", r.db, r.id)),
        }
    }
    summary
}

/// One clip from an animation's records; also returns how many keys were dropped.
pub fn clip(a: &AnimationRecords, r: Ref, skin: &SkinInfo, c: &Character) -> (Animation, usize) {
    let by_node = a.lookup.nodes.len() == c.nodes.len() && c.nodes.len() != c.joints.len();
    let duration = a.info.duration.get();
    let mut channels = Vec::new();
    let mut dropped = 0;
    for (k, range) in a.lookup.nodes.iter().enumerate() {
        let joint =
            if by_node { c.nodes.get(k).and_then(|n| usize::try_from(n.joint_info_index).ok()) } else { Some(k) };
        let Some(&node) = joint.and_then(|j| skin.joint_nodes.get(j)) else { continue };
        let first = range.first_frame_index as usize;
        let end = first.saturating_add(range.num_frames as usize);
        let Some(frames) = a.frames.frames.get(first..end) else {
            dropped += range.num_frames as usize;
            continue;
        };
        let (mut times, mut ts, mut rs, mut ss) = (Vec::new(), Vec::new(), Vec::new(), Vec::<[f32; 3]>::new());
        for f in frames {
            let t = f.t.get();
            let decomposed = trs(matrix(&f.xform));
            match decomposed {
                Some((tr, mut rot, sc)) if t.is_finite() && times.last().map_or(true, |&last| t > last) => {
                    // Keep consecutive rotations on the same hemisphere so linear interpolation takes the
                    // short way round.
                    if let Some(prev) = rs.last() {
                        let prev: &[f32; 4] = prev;
                        if prev.iter().zip(&rot).map(|(a, b)| a * b).sum::<f32>() < 0.0 {
                            rot = rot.map(|v| -v);
                        }
                    }
                    times.push(t);
                    ts.push(tr);
                    rs.push(rot);
                    ss.push(sc);
                }
                _ => dropped += 1,
            }
        }
        if times.is_empty() {
            continue;
        }
        // Hold the last pose until the stored duration.
        if let (Some(&last), true) = (times.last(), duration.is_finite()) {
            if duration > last {
                times.push(duration);
                if let (Some(t), Some(q), Some(s)) = (ts.last().copied(), rs.last().copied(), ss.last().copied()) {
                    ts.push(t);
                    rs.push(q);
                    ss.push(s);
                }
            }
        }
        let target = ChannelTarget::Node(node);
        let channel = |values| Channel { target, times: times.clone(), values, interpolation: Interpolation::Linear };
        channels.push(channel(ChannelValues::Translation(ts)));
        channels.push(channel(ChannelValues::Rotation(rs)));
        channels.push(channel(ChannelValues::Scale(ss)));
    }
    let info = &a.info;
    let extras = json!({
        "id": r.id,
        "duration": duration,
        "non_looping": info.flags.has(0x01),
        "flags": info.flags.value,
        "original_num_frames": info.original_num_frames,
        "num_frames": info.num_frames,
        "model_num_nodes": info.model_num_nodes,
        "model_num_channels": info.model_num_channels,
        "rotation_threshold": info.rotation_threshold.get(),
        "scale_threshold": info.scale_threshold.get(),
        "translation_threshold": info.translation_threshold.get(),
    });
    let name = if info.name.text.is_empty() { format!("animation {}", r.id) } else { info.name.text.clone() };
    (Animation { name, channels, extras }, dropped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drakan::records::character::{JointInfo, VertexWeight};
    use crate::drakan::records::common::F32;

    #[test]
    fn a_vertex_keeps_its_four_largest_weights_normalised() {
        // Six joints weigh vertex 0 with 1…6; vertex 1 is named by none.
        let joints = (1..=6)
            .map(|w| JointInfo {
                weights_per_lod: vec![vec![VertexWeight { vertex_index: 0, weight: F32::new(w as f32) }]],
                ..Default::default()
            })
            .collect();
        let c = Character { joints, ..Default::default() };
        let w = vertex_weights(&c, 0, 10, 12);
        assert_eq!(w.over_four, 1);
        assert_eq!(w.joints[0], [5, 4, 3, 2]);
        let sum = 6.0 + 5.0 + 4.0 + 3.0;
        assert_eq!(w.weights[0], [6.0 / sum, 5.0 / sum, 4.0 / sum, 3.0 / sum]);
        assert_eq!((w.joints[1], w.weights[1]), ([0; 4], [1.0, 0.0, 0.0, 0.0]));
    }

    #[test]
    fn a_cycle_of_first_children_is_broken_at_its_lowest_joint_and_a_long_chain_walked_once() {
        let joint = |child: i32| JointInfo { first_child_index: child, ..Default::default() };
        // 1 → 2 → 3 → 1 (first children), 4 → 5; joint 0 names none (index 0 is no link).
        let c = Character {
            joints: vec![joint(0), joint(2), joint(3), joint(1), joint(5), joint(0)],
            ..Default::default()
        };
        assert_eq!(parents(&c), vec![None, None, Some(1), Some(2), None, Some(4)]);
        // A chain of 20,000 (issue 40: walked from every joint to its root, 2·10⁸ steps): each its parent.
        let n = 20_000;
        let c = Character {
            joints: (0..n).map(|j| joint(if j + 1 < n { j + 1 } else { 0 })).collect(),
            ..Default::default()
        };
        let p = parents(&c);
        assert_eq!((p[0], p[1], p[19_999]), (None, Some(0), Some(19_998)));
    }

    #[test]
    fn a_joint_naming_a_vertex_twice_gives_one_summed_weight() {
        let w = |vertex_index: u32, weight: f32| VertexWeight { vertex_index, weight: F32::new(weight) };
        let joints = vec![
            JointInfo { weights_per_lod: vec![vec![w(0, 1.0), w(1, 1.0), w(0, 2.0)]], ..Default::default() },
            JointInfo { weights_per_lod: vec![vec![w(0, 1.0)]], ..Default::default() },
        ];
        let c = Character { joints, ..Default::default() };
        let out = vertex_weights(&c, 0, 0, 2);
        assert_eq!(out.over_four, 0);
        assert_eq!((out.joints[0], out.weights[0]), ([0, 1, 0, 0], [0.75, 0.25, 0.0, 0.0]));
        assert_eq!((out.joints[1], out.weights[1]), ([0, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]));
    }

    #[test]
    fn stored_rows_are_the_column_major_matrix() {
        // p' = p·L + t with L = rotation of 90° about Z (row vectors): x goes to y.
        let m = Mat3x4 {
            linear: [0.0, 1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0].map(F32::new),
            translation: [1.0, 2.0, 3.0].map(F32::new),
        };
        let p = matrix(&m).transform_point3(DVec3::X);
        assert!(p.abs_diff_eq(DVec3::new(1.0, 3.0, 3.0), 1e-12), "{p}");
    }
}
