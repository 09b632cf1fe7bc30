//! glTF → Evil Islands figure: `relic pack ei-res model.glb -o unit.mod` writes `unit.mod` (the figure
//! RES: the LNK named after the model and one FIG per part) and, beside it, `unit.bon` (bone offsets),
//! `unit.anm` (one RES per clip, an ANM per part) and `unit.mmp` (the base colour texture). The reverse of
//! [`super::scene::to_scene`]; every rule below undoes one of its choices.
//!
//! - **Parts and hierarchy** (spec "Lnk"; docs/formats/evil-islands.md#model-archives: the LNK is the entry named after the model): every
//!   node under the scene's roots is a part, named after the node (empty names become `part<N>`, names the
//!   RES cannot tell apart get a `_<N>` suffix, noted; a name `relic extract` could not write a file under,
//!   `..\x`, `/x`, `C:\x`, `con`, `a/b`, is made one safe file name first, noted), parents before children.
//!   A node without a mesh
//!   is a link without a FIG (relic reads such figures; the spec does not say whether the game does: noted).
//!   Light-only leaves are left out. Several roots are kept (noted: game figures have one).
//! - **Axes**: glTF's Y-up `(x, y, z)` back to the game's Z-up `(x, −z, y)`, positions, normals,
//!   translations and quaternion axes alike.
//! - **Transforms**: a part holds only an offset from its parent (spec "Bon"). Each node's rest matrix
//!   (TRS or matrix) is taken whole to world space; its rotation, scale and shear are baked into the part's
//!   vertices (normals by the cofactor matrix, winding flipped under a mirror) and the offset is the
//!   parent's linear map applied to the node's translation; noted once when a node has more than a
//!   translation. Animated rotations become `Q_parent · q(t) · q_rest⁻¹ · Q_parent⁻¹`, animated
//!   translations `L_parent · t(t)`, which are `q(t)` and `t(t)` for relic's own figures.
//! - **Meshes**: the primitives of a node's mesh are merged into one part. glTF vertices are folded back to
//!   FIG components: positions shared by every vertex with the same position in every extreme and
//!   morphing frame, normals and UVs by value; each list padded to blocks of 4 (positions with zeros,
//!   normals with `(0, 0, 0, 1)`, as real files are). Indices are u16: more than 65,536 positions, normals,
//!   UVs or vertex components is refused naming the node, the mesh and the limit. A corner that the baked transform
//!   makes infinite is refused naming the node and mesh. Vertex colours are
//!   dropped (noted). A primitive without normals gets area-weighted ones, without UVs zeros (noted).
//! - **Morph extremes** (spec "Bon": the trilinear blend of 8 extremes): the 8 targets named `extreme0` …
//!   `extreme7` (relic's names) add to the base; a mesh of exactly 8 targets none of which relic named
//!   is taken by order (noted); otherwise every extreme is the base (noted).
//! - **Header** (spec "FIG"; no formula given): per extreme the box of the used positions, its centre
//!   the box's middle and its radius half the box's diagonal — what every figure in the corpus
//!   (`auxData.res`) holds. Morphing components `(i, i)` for each used position, as in every file seen.
//!   `group`, `texture_index` and the u32 at 0x1C from `mesh.extras.evil_islands` (relic's export), else
//!   18, 8, 0 as the corpus figures.
//! - **Bones** (`.bon`): the 8 offsets from `node.extras.evil_islands.bone_offsets` (relic's export, game
//!   axes), else the rest offset in all 8 (noted).
//! - **Animations** (`.anm`, spec "ANM"; docs/formats/evil-islands.md#anm-frame-rate: 15 frames per second): each clip is a RES of an
//!   ANM per part it animates. Each channel is resampled at k/15 s from 0 to its last key
//!   (linear, slerp for rotations, step for STEP); quaternions are stored w, x, y, z. Morphing frames come
//!   from the node's morph-weight channel: per frame, the sum of the weighted targets that are not
//!   extremes (relic's export steps one target `<clip>#<k>` per frame, so this gives its frames back);
//!   weights on extremes are dropped (noted). Scale keys are dropped (noted).
//! - **Skins**: each vertex is bound rigidly to its strongest joint; each triangle goes to the joint most
//!   of its corners are bound to (the first corner's on a tie), its corners placed in that joint's space
//!   by the inverse bind matrix (vertices duplicated); the skinned mesh's node is left out when it has no
//!   children (noted once).
//! - **Texture** (`.mmp`): the base colour image of the first textured material. `--pixel-format` and
//!   `--mips` choose; else the format and mip count the texture had (relic's export records them in the
//!   material's `extras.evil_islands.texture_record` and the PNG's text), else DXT1 when every pixel is
//!   opaque and DXT3 otherwise; sides that are not multiples of 4 cannot be DXT and are written ARGB8
//!   (noted).
//!
//! Transforms and resampling live in `model/maths.rs`, the bytes of the files in `model/write.rs`.

use std::collections::HashMap;

use crate::asset::{ChannelTarget, ChannelValues, Primitive, Scene, Transform};
use crate::codec::float::F32;
use crate::codec::text::{encode, CP1251};
use crate::error::{Error, Result};
use crate::evil_islands::{anm, bon, fig, lnk, mmp, res};
use crate::registry::PackRequest;

use super::maths::*;
pub use super::write::{texture_bytes, write_figure, FigureFiles};
use super::Clip;

/// Morph extremes of a FIG8.
const EXTREMES: usize = 8;
/// Entries a u16 index reaches.
const U16_ENTRIES: usize = 1 << 16;
/// Morphing shifts a part may hold over all its clips.
const MAX_SHIFTS: usize = 1 << 22;
/// Nodes of a figure (a LNK of more parts is refused).
const MAX_PARTS: usize = 65_536;

/// The glTF's Y-up `(x, y, z)` as the game's Z-up `(x, −z, y)` (the inverse of [`super::to_gltf`]).
pub fn from_gltf(v: [f32; 3]) -> [f32; 3] {
    [v[0], -v[2], v[1]]
}

/// `relic pack ei-res model.glb -o unit.mod`: reads the glTF and writes the figure named after the
/// output, its `.bon`, `.anm` and `.mmp` as companions.
pub fn pack_gltf(input_name: &str, content: &[u8], request: &PackRequest) -> Result<Vec<u8>> {
    let ext = crate::registry::extension_of(&request.output.to_string_lossy()).unwrap_or("").to_ascii_lowercase();
    if ext != "mod" {
        return Err(Error::Refused(format!(
            "ei-res: a glTF packs to a figure: give -o NAME.mod (NAME.bon, NAME.anm and NAME.mmp are written beside \
             it), not {}",
            request.output.display()
        )));
    }
    let model = request.output_stem();
    check_model_name(&model)?;
    let mut note = |n: String| request.note(n);
    let scene =
        crate::import::gltf::read_to_pack(content, std::path::Path::new(input_name), res::FORMAT_ID, &mut note)?;
    let figure = from_scene(&scene, &model, &mut note)?;
    let files = write_figure(&figure, request.pixel_format.as_deref(), request.mips, &mut note)?;
    request.companion(format!("{model}.bon"), files.bones);
    if let Some(a) = files.animations {
        request.companion(format!("{model}.anm"), a);
    }
    if let Some(t) = files.texture {
        request.companion(format!("{model}.mmp"), t);
    }
    Ok(files.model)
}

// ---------------------------------------------------------------------------------------------------------
// Scene → figure

/// Notes given once per kind.
struct Notes<'n> {
    sink: &'n mut dyn FnMut(String),
    said: std::collections::HashSet<&'static str>,
    model: String,
}

impl Notes<'_> {
    fn once(&mut self, kind: &'static str, text: impl FnOnce() -> String) {
        if self.said.insert(kind) {
            let t = text();
            (self.sink)(format!("{}: {t}", self.model));
        }
    }
}

/// Geometry given to a part: a mesh, the matrix to world space, and which triangles (a skinned mesh's
/// triangles of one joint).
struct Source {
    node: usize,
    mesh: usize,
    to_world: M4,
    /// For a skinned mesh: the joint index (into the skin) whose triangles this source takes, and each
    /// skin joint's matrix to world space (`joint world · inverse bind`).
    skin: Option<(usize, std::rc::Rc<Vec<M4>>)>,
}

/// One glTF vertex, folded: its extremes and morphing shifts (game axes), normal and UV.
struct Corner {
    extremes: [[f32; 3]; EXTREMES],
    /// Per clip of the part: that clip's shifts, frame after frame.
    shifts: Vec<Vec<[f32; 3]>>,
    normal: [f32; 3],
    uv: [f32; 2],
}

fn err(node: &str, index: usize, mesh: &str, field: &str, message: String) -> Error {
    Error::limit(fig::FORMAT_ID, format!("node {index} {node:?}, mesh {mesh:?}: {field}"), 0, message)
}

/// The figure a glTF scene makes (see the module doc). `model` names it (the LNK entry).
pub fn from_scene(scene: &Scene, model: &str, note: &mut dyn FnMut(String)) -> Result<super::Figure> {
    let mut notes = Notes { sink: note, said: Default::default(), model: model.to_string() };
    let n = scene.nodes.len();
    // Parts: every node reached from the roots, parents first (iterative; each node once).
    let mut parent: Vec<Option<usize>> = vec![None; n];
    let mut seen = vec![false; n];
    let mut order = Vec::new();
    let mut stack: Vec<(usize, Option<usize>)> = scene.roots.iter().rev().map(|&r| (r, None)).collect();
    while let Some((i, p)) = stack.pop() {
        let Some(node) = scene.nodes.get(i) else {
            return Err(Error::invalid(res::FORMAT_ID, format!("node {i}"), 0, "a node index past the nodes"));
        };
        if std::mem::replace(&mut seen[i], true) {
            return Err(Error::invalid(
                res::FORMAT_ID,
                format!("node {i} {:?}", node.name),
                0,
                "the node is reached twice (a node has one parent)",
            ));
        }
        parent[i] = p;
        order.push(i);
        if order.len() > MAX_PARTS {
            return Err(Error::limit(res::FORMAT_ID, "nodes", 0, format!("more than {MAX_PARTS} nodes")));
        }
        for &c in node.children.iter().rev() {
            stack.push((c, Some(i)));
        }
    }
    // World rest matrices, parents first.
    let mut world = vec![IDENTITY; n];
    for &i in &order {
        let local = local_matrix(&scene.nodes[i].transform);
        world[i] = match parent[i] {
            Some(p) => mat_mul(&world[p], &local),
            None => local,
        };
    }
    // Geometry sources per node (skinned meshes go to their joints).
    let mut sources: Vec<Vec<Source>> = (0..n).map(|_| Vec::new()).collect();
    let mut dropped_nodes = vec![false; n];
    for &i in &order {
        let node = &scene.nodes[i];
        let Some(mesh) = node.mesh else {
            if node.light.is_some() && node.children.is_empty() {
                dropped_nodes[i] = true;
                notes.once("light", || format!("light node {:?} left out (a figure has no lights)", node.name));
            }
            continue;
        };
        if scene.meshes.get(mesh).is_none() {
            return Err(Error::invalid(
                res::FORMAT_ID,
                format!("node {i} {:?}", node.name),
                0,
                "mesh index past the meshes",
            ));
        }
        let skinned = scene.meshes[mesh].primitives.iter().any(|p| !p.joints.is_empty());
        match node.skin.and_then(|s| scene.skins.get(s)).filter(|_| skinned) {
            Some(skin) => {
                let mut mats = Vec::with_capacity(skin.joints.len());
                for (j, &joint) in skin.joints.iter().enumerate() {
                    if joint >= n || !seen[joint] {
                        return Err(Error::invalid(
                            res::FORMAT_ID,
                            format!("node {i} {:?}: skin joint {j}", node.name),
                            0,
                            "the joint is not a node of the scene",
                        ));
                    }
                    let ibm = skin.inverse_bind_matrices.get(j).map_or(IDENTITY, |m| m.map(f64::from));
                    mats.push(mat_mul(&world[joint], &ibm));
                }
                let mats = std::rc::Rc::new(mats);
                notes.once("skin", || {
                    format!(
                        "skinned mesh {:?}: each vertex bound to its strongest joint, each triangle to the joint of \
                         most of its corners (figures have rigid parts)",
                        scene.meshes[mesh].name
                    )
                });
                for (j, &joint) in skin.joints.iter().enumerate() {
                    sources[joint].push(Source { node: i, mesh, to_world: IDENTITY, skin: Some((j, mats.clone())) });
                }
                if node.children.is_empty() {
                    dropped_nodes[i] = true;
                }
            }
            None => sources[i].push(Source { node: i, mesh, to_world: world[i], skin: None }),
        }
    }
    order.retain(|&i| !dropped_nodes[i]);
    if order.is_empty() {
        return Err(Error::Refused(format!(
            "ei-res: {model}: the glTF's scene has no nodes to make the figure's parts of"
        )));
    }
    // Names: unique ignoring case, cp1251, not the model's.
    let mut names: Vec<String> = vec![String::new(); n];
    let mut taken: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut next_suffix: HashMap<String, usize> = HashMap::new();
    taken.insert(model.to_lowercase());
    let mut unsafe_names = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let raw = scene.nodes[i].name.trim();
        let mut name = if raw.is_empty() || encode(CP1251, raw).is_none() {
            if !raw.is_empty() {
                notes.once("name-cp1251", || format!("node name {raw:?} has characters cp1251 cannot hold: renamed"));
            }
            format!("part{k}")
        } else {
            extractable_name(raw, || format!("part{k}"), &mut unsafe_names)
        };
        if taken.contains(&name.to_lowercase()) {
            let base = name.clone();
            // Each base name's next suffix is kept, so that thousands of equal names stay linear.
            let next = next_suffix.entry(base.to_lowercase()).or_insert(2);
            while taken.contains(&format!("{base}_{next}").to_lowercase()) {
                *next += 1;
            }
            name = format!("{base}_{next}");
            *next += 1;
            notes.once("name-clash", || {
                format!("node {base:?} shares its name with another part or the model (names are case-insensitive): renamed {name:?}")
            });
        }
        taken.insert(name.to_lowercase());
        names[i] = name;
    }
    note_renamed("node", &unsafe_names, &mut notes);
    let roots = order
        .iter()
        .filter(|&&i| match parent[i] {
            None => true,
            Some(p) => dropped_nodes[p],
        })
        .count();
    if roots > 1 {
        notes.once("roots", || format!("{roots} root nodes: each is a root part (the game's figures have one)"));
    }
    // Rotations and linear maps of each node's world rest matrix.
    let rot: Vec<[f64; 4]> = world.iter().map(rotation_of).collect();
    if order.iter().any(|&i| !is_identity_linear(&world[i])) {
        notes.once("bake", || {
            "node rotations, scales or matrices baked into the parts' vertices (a part holds only an offset)".into()
        });
    }
    let parent_linear = |i: usize| parent[i].map_or(IDENTITY, |p| world[p]);
    let parent_rot = |i: usize| parent[i].map_or([0.0, 0.0, 0.0, 1.0], |p| rot[p]);
    let rest_rotation = |i: usize| match &scene.nodes[i].transform {
        Transform::Trs { rotation, .. } => rotation.map(f64::from),
        m @ Transform::Matrix(_) => rotation_of(&local_matrix(m)),
    };
    let rest_translation = |i: usize| {
        let m = local_matrix(&scene.nodes[i].transform);
        [m[12] as f32, m[13] as f32, m[14] as f32]
    };
    let game = |v: [f64; 3]| from_gltf(v.map(|c| c as f32));

    // Clips: names, and the channels per node.
    let mut clip_names = Vec::with_capacity(scene.animations.len());
    let mut clip_taken = std::collections::HashSet::new();
    let mut unsafe_clips = Vec::new();
    for (k, a) in scene.animations.iter().enumerate() {
        let mut name = if a.name.trim().is_empty() || encode(CP1251, a.name.trim()).is_none() {
            format!("clip{k}")
        } else {
            extractable_name(a.name.trim(), || format!("clip{k}"), &mut unsafe_clips)
        };
        if !clip_taken.insert(name.to_lowercase()) {
            name = format!("{name}_{k}");
            clip_taken.insert(name.to_lowercase());
            notes.once("clip-name", || format!("two clips share a name: the second renamed {name:?}"));
        }
        clip_names.push(name);
    }
    note_renamed("clip", &unsafe_clips, &mut notes);

    // Each node's channels as (clip, channel), built once.
    let mut by_node: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (c, a) in scene.animations.iter().enumerate() {
        for (k, ch) in a.channels.iter().enumerate() {
            match ch.target {
                ChannelTarget::Node(t) => {
                    if let Some(list) = by_node.get_mut(t) {
                        list.push((c, k));
                    }
                }
                ChannelTarget::TextureTransform { .. } => {
                    notes.once("uv-anim", || "texture transform keys dropped".into());
                }
            }
        }
    }

    // Parts.
    let mut keys = 0usize;
    let mut skin_split = SkinSplit::new();
    let mut lnk_links = Vec::with_capacity(order.len());
    let mut parts = Vec::new();
    let mut bones = Vec::with_capacity(order.len());
    let mut anims: Vec<Vec<(String, anm::Anm)>> = vec![Vec::new(); scene.animations.len()];
    let mut bone_only = 0usize;
    for &i in &order {
        let node = &scene.nodes[i];
        let name = names[i].clone();
        let parent_name = parent[i].filter(|&p| !dropped_nodes[p]).map(|p| names[p].clone());
        lnk_links.push(lnk::types::Link { name: name.clone(), parent: parent_name, ..Default::default() });
        // Bone offsets.
        let rest = game(apply(&parent_linear(i), rest_translation(i), 0.0));
        let offsets = match node.extras.pointer("/evil_islands/bone_offsets").and_then(|v| v.as_array()) {
            Some(list) if list.len() == EXTREMES => list
                .iter()
                .map(|v| {
                    let c = |k: usize| v.get(k).and_then(|x| x.as_f64()).map(|x| x as f32);
                    match (c(0), c(1), c(2)) {
                        (Some(x), Some(y), Some(z)) => [x, y, z],
                        _ => rest,
                    }
                })
                .collect::<Vec<_>>(),
            _ => {
                notes.once("bon", || {
                    "bone offsets: the rest offset in all 8 extremes (the glTF does not carry relic's 8)".into()
                });
                vec![rest; EXTREMES]
            }
        };
        bones.push((name.clone(), bon::Bon { offsets: offsets.into_iter().map(|v| v.map(F32::new)).collect() }));
        // Animations: the node's own channels (rotation, translation) and the weight channels of the
        // nodes whose geometry it takes, clip by clip (each channel visited once).
        let mut clip_anms: std::collections::BTreeMap<usize, anm::Anm> = std::collections::BTreeMap::new();
        let mut part_frames: std::collections::BTreeMap<usize, usize> = std::collections::BTreeMap::new();
        for &(c, k) in &by_node[i] {
            let (Some(a), Some(ch)) =
                (scene.animations.get(c), scene.animations.get(c).and_then(|a| a.channels.get(k)))
            else {
                continue;
            };
            let out =
                clip_anms.entry(c).or_insert_with(|| anm::Anm { morph_vertex_count: Some(0), ..Default::default() });
            match &ch.values {
                ChannelValues::Rotation(v) => {
                    let k = frame_count(&ch.times, &format!("animation {:?}: node {:?} rotation", a.name, name))?;
                    charge(&mut keys, k)?;
                    let (qp, qr) = (parent_rot(i), q_conj(rest_rotation(i)));
                    let qr = if is_identity_linear(&world[i]) { [0.0, 0.0, 0.0, 1.0] } else { qr };
                    out.rotations = (0..k)
                        .map(|f| {
                            let q = sample_quat(&ch.times, v, ch.interpolation, frame_time(f));
                            let q = q_sandwich(qp, q_sandwich([0.0, 0.0, 0.0, 1.0], q, qr), q_conj(qp));
                            let [x, y, z] = from_gltf([q[0] as f32, q[1] as f32, q[2] as f32]);
                            anm::types::Quat {
                                w: F32::new(q[3] as f32),
                                x: F32::new(x),
                                y: F32::new(y),
                                z: F32::new(z),
                            }
                        })
                        .collect();
                }
                ChannelValues::Translation(v) => {
                    let k = frame_count(&ch.times, &format!("animation {:?}: node {:?} translation", a.name, name))?;
                    charge(&mut keys, k)?;
                    let lp = parent_linear(i);
                    out.translations = (0..k)
                        .map(|f| {
                            let t = sample_vec3(&ch.times, v, ch.interpolation, frame_time(f));
                            game(apply(&lp, t, 0.0)).map(F32::new)
                        })
                        .collect();
                }
                ChannelValues::Scale(_) => {
                    notes.once("scale-keys", || "scale keys dropped (parts are not scaled by animations)".into());
                }
                _ => {}
            }
        }
        for source in &sources[i] {
            for &(c, k) in &by_node[source.node] {
                let Some(ch) = scene.animations.get(c).and_then(|a| a.channels.get(k)) else { continue };
                if matches!(ch.values, ChannelValues::MorphWeights(_)) {
                    let what = format!("animation {:?}: node {:?} weights", scene.animations[c].name, name);
                    let frames = frame_count(&ch.times, &what)?;
                    charge(&mut keys, frames)?;
                    let slot = part_frames.entry(c).or_insert(0);
                    *slot = (*slot).max(frames);
                    clip_anms
                        .entry(c)
                        .or_insert_with(|| anm::Anm { morph_vertex_count: Some(0), ..Default::default() });
                }
            }
        }
        clip_anms.retain(|c, a| part_frames.contains_key(c) || !a.rotations.is_empty() || !a.translations.is_empty());
        if sources[i].is_empty() {
            for (c, a) in clip_anms {
                anims[c].push((name.clone(), a));
            }
            bone_only += 1;
            continue;
        }
        let part_frames: Vec<(usize, usize)> = part_frames.into_iter().collect();
        let part =
            build_part(scene, i, &name, &sources[i], &world[i], &part_frames, &by_node, &mut skin_split, &mut notes)?;
        // Morphing frames into the clips' ANMs.
        for (c, frames) in part.1 {
            if let Some(a) = clip_anms.get_mut(&c) {
                a.morph_vertex_count = Some(part.0.position_count() as u32);
                a.morph_frames = frames;
            }
        }
        for (c, a) in clip_anms {
            anims[c].push((name.clone(), a));
        }
        parts.push((name, part.0));
    }
    if bone_only > 0 {
        notes.once("bone-only", || {
            format!(
                "{bone_only} nodes without a mesh are links without a FIG (relic reads such figures; the spec does \
                 not say whether the game does)"
            )
        });
    }
    let texture = scene
        .meshes
        .iter()
        .flat_map(|m| &m.primitives)
        .filter_map(|p| scene.materials.get(p.material?))
        .find_map(|m| Some((m, scene.textures.get(m.texture?)?)))
        .map(|(material, t)| {
            let mut image = t.image.clone();
            // relic's export keeps the texture's record (pixel format, mip count) in the material.
            let keyword = mmp::provenance::PNG_TEXT_KEYWORD;
            if let Some(record) = material.extras.pointer("/evil_islands/texture_record").and_then(|v| v.as_str()) {
                if !image.text.iter().any(|(k, _)| k == keyword) {
                    image.text.push((keyword.to_string(), record.to_string()));
                }
            }
            image
        });
    let animations: Vec<Clip> = clip_names.into_iter().zip(anims).filter(|(_, parts)| !parts.is_empty()).collect();
    Ok(super::Figure {
        name: model.to_string(),
        lnk: lnk::Lnk { links: lnk_links, ..Default::default() },
        parts,
        bones,
        animations,
        texture,
    })
}

/// The model's name (the output's stem) names the LNK entry, which the game looks up by it: a name
/// `relic extract` could not write a file under (`con.mod`, `aux.mod`) is refused, not changed.
fn check_model_name(model: &str) -> Result<()> {
    match crate::paths::safe_relative_path(model) {
        Ok(p) if p.components().count() == 1 => Ok(()),
        Ok(_) => Err(Error::Refused(format!("ei-res: the model name `{model}` holds a folder separator"))),
        Err(why) => Err(Error::Refused(format!(
            "ei-res: the model name `{}` ({why}) names the figure's LNK entry, which relic extract could not write \
             a file under: give -o another name",
            crate::paths::display_name(model)
        ))),
    }
}

/// Longest part or clip name made from a name that had to be changed, in bytes: room is left for the
/// `_<N>` that keeps names apart, under the longest file name [`crate::paths::MAX_COMPONENT_BYTES`].
const MAX_RENAMED_BYTES: usize = crate::paths::MAX_COMPONENT_BYTES - 15;

/// `raw` as a RES entry name that `relic extract` can write a file under: the name itself when
/// [`crate::paths::safe_relative_path`] (the extractor's own check) takes it as one plain name; else the
/// name with every separator and character it refuses made `_` (a device name such as `con` gets a leading
/// `_`, a trailing dot or space becomes `_`), or `fallback()` when even that is refused. Each changed name
/// is added to `renamed` as (old, new, why) for one note.
fn extractable_name(
    raw: &str,
    fallback: impl FnOnce() -> String,
    renamed: &mut Vec<(String, String, String)>,
) -> String {
    let why = match crate::paths::safe_relative_path(raw) {
        Ok(_) if !raw.contains(['/', '\\']) => return raw.to_string(),
        Ok(_) => "a folder separator".to_string(),
        Err(why) => why,
    };
    let refused = |c: char| c.is_control() || matches!(c, '/' | '\\' | ':' | '<' | '>' | '"' | '|' | '?' | '*');
    let mut safe: String = raw.chars().map(|c| if refused(c) { '_' } else { c }).collect();
    // A name ending in dots or spaces (`..`, `x.`): the last of them made `_`, so none is at the end.
    if safe.ends_with(['.', ' ']) {
        safe.pop();
        safe.push('_');
    }
    if let Err(why) = crate::paths::safe_relative_path(&safe) {
        if why.contains("device name") {
            safe.insert(0, '_');
        }
    }
    while safe.len() > MAX_RENAMED_BYTES {
        safe.pop();
    }
    let single = crate::paths::safe_relative_path(&safe).is_ok_and(|p| p.components().count() == 1);
    let safe = if single && !safe.trim_matches('_').is_empty() { safe } else { fallback() };
    renamed.push((raw.to_string(), safe.clone(), why));
    safe
}

/// One note for the `what` names (node, clip) [`extractable_name`] changed.
fn note_renamed(what: &'static str, renamed: &[(String, String, String)], notes: &mut Notes) {
    if renamed.is_empty() {
        return;
    }
    let shown: Vec<String> = renamed
        .iter()
        .take(4)
        .map(|(old, new, why)| {
            format!("{} ({why}) → {}", crate::paths::display_name(old), crate::paths::display_name(new))
        })
        .collect();
    let more = if renamed.len() > 4 { format!(", and {} more", renamed.len() - 4) } else { String::new() };
    let kind = if what == "node" { "unsafe-node-name" } else { "unsafe-clip-name" };
    notes.once(kind, || {
        format!(
            "{} {what} name(s) renamed, as relic extract could not write a file under them: {}{more}",
            renamed.len(),
            shown.join(", ")
        )
    });
}

/// Extreme target indices of a mesh's targets (by relic's names, else by order when there are exactly
/// 8 unnamed-by-relic ones), and whether they are taken.
fn extreme_targets(prim: &Primitive, notes: &mut Notes<'_>, mesh: &str) -> Option<[usize; EXTREMES]> {
    let named: Vec<Option<usize>> =
        (0..EXTREMES).map(|m| prim.morph_targets.iter().position(|t| t.name == format!("extreme{m}"))).collect();
    if named.iter().all(Option::is_some) {
        return Some(std::array::from_fn(|m| named[m].unwrap_or(0)));
    }
    let relic_named = prim.morph_targets.iter().any(|t| t.name.starts_with("extreme") || t.name.contains('#'));
    if prim.morph_targets.len() == EXTREMES && !relic_named {
        notes.once("extremes-order", || {
            format!("mesh {mesh:?}: its 8 morph targets taken as the 8 extremes in order (not named extreme0–7)")
        });
        return Some(std::array::from_fn(|m| m));
    }
    notes.once("extremes-base", || {
        format!("mesh {mesh:?} has no 8 morph extremes (targets extreme0–7): the base is every extreme")
    });
    None
}

/// One frame's weighted targets: (target, weight).
type Sparse = Vec<(usize, f32)>;
/// Morphing frames per clip index.
type Frames = Vec<(usize, Vec<Vec<anm::Vec3>>)>;
/// A skinned primitive's triangles per skin joint, by (mesh node, mesh, primitive): worked out once.
type SkinSplit = HashMap<(usize, usize, usize), std::rc::Rc<Vec<Vec<u32>>>>;
/// Weighted target shifts summed over a part's morphing frames (frames × vertices × weighted targets).
const MAX_WEIGHTED: usize = 1 << 26;

/// One part's FIG from its geometry sources, and per clip its morphing frames (per position).
#[allow(clippy::too_many_arguments)]
fn build_part(
    scene: &Scene,
    node: usize,
    name: &str,
    sources: &[Source],
    part_world: &M4,
    clips: &[(usize, usize)],
    by_node: &[Vec<(usize, usize)>],
    skin_split: &mut SkinSplit,
    notes: &mut Notes<'_>,
) -> Result<(fig::Fig, Frames)> {
    let origin = [part_world[12], part_world[13], part_world[14]];
    let mut corners: Vec<Corner> = Vec::new();
    let mut triangles: Vec<[usize; 3]> = Vec::new();
    let mut group = (0u32, 18u32, 8u32);
    let mut shifts_total = 0usize;
    for source in sources {
        let mesh = &scene.meshes[source.mesh];
        if let Some(e) = mesh.extras.get("evil_islands") {
            let g =
                |k: &str, d: u32| e.get(k).and_then(|v| v.as_u64()).and_then(|v| u32::try_from(v).ok()).unwrap_or(d);
            group = (g("unk_0x1c", group.0), g("group", group.1), g("texture_index", group.2));
        }
        for (prim_index, prim) in mesh.primitives.iter().enumerate() {
            let count = prim.positions.len();
            let fail = |field: &str, m: String| err(name, node, &mesh.name, field, m);
            if !prim.colors.is_empty() {
                notes.once("colors", || format!("mesh {:?}: vertex colours dropped (FIG has none)", mesh.name));
            }
            if prim.uvs.len() != count {
                notes.once("uvs", || format!("mesh {:?}: no UVs: (0, 0) written", mesh.name));
            }
            if prim.indices.len() % 3 != 0 {
                return Err(fail("indices", format!("{} indices are not whole triangles", prim.indices.len())));
            }
            if let Some(bad) = prim.indices.iter().find(|&&v| v as usize >= count) {
                return Err(fail("indices", format!("index {bad} past the {count} vertices")));
            }
            let normals = if prim.normals.len() == count {
                prim.normals.clone()
            } else {
                notes.once("normals", || format!("mesh {:?}: no normals: computed from the faces", mesh.name));
                face_normals(&prim.positions, &prim.indices)
            };
            let extremes = extreme_targets(prim, notes, &mesh.name);
            shifts_total = shifts_total.saturating_add(count.saturating_mul(clips.iter().map(|(_, f)| *f).sum()));
            if shifts_total > MAX_SHIFTS {
                return Err(fail(
                    "morphing frames",
                    format!("more than {MAX_SHIFTS} morphing shifts (frames × vertices)"),
                ));
            }
            // Per clip of the part, per frame: the weighted targets that are not extremes.
            let mut weighted = 0usize;
            let mut extreme_weights = false;
            let mut weights: Vec<(usize, Vec<Sparse>)> = Vec::with_capacity(clips.len());
            for &(c, frames) in clips {
                let ch = by_node.get(source.node).into_iter().flatten().find_map(|&(cc, k)| {
                    let ch = scene.animations.get(cc)?.channels.get(k)?;
                    (cc == c && matches!(ch.values, ChannelValues::MorphWeights(_))).then_some(ch)
                });
                let mut list = Vec::with_capacity(frames);
                for f in 0..frames {
                    let mut sparse = Vec::new();
                    if let Some(ch @ crate::asset::Channel { values: ChannelValues::MorphWeights(v), .. }) = ch {
                        let w = sample_weights(&ch.times, v, ch.interpolation, frame_time(f));
                        for (t, &x) in w.iter().enumerate().take(prim.morph_targets.len()) {
                            if x == 0.0 {
                                continue;
                            }
                            if extremes.is_some_and(|ex| ex.contains(&t)) {
                                extreme_weights = true;
                            } else {
                                sparse.push((t, x));
                            }
                        }
                    }
                    weighted = weighted.saturating_add(sparse.len().max(1).saturating_mul(count));
                    list.push(sparse);
                }
                weights.push((frames, list));
            }
            if extreme_weights {
                notes.once("extreme-weights", || {
                    format!("mesh {:?}: animated weights of the morph extremes dropped", mesh.name)
                });
            }
            if weighted > MAX_WEIGHTED {
                return Err(fail(
                    "morphing frames",
                    format!(
                        "more than {MAX_WEIGHTED} weighted target shifts (frames × vertices × weighted targets) \
                         over the clips"
                    ),
                ));
            }
            // Which triangles, and with which matrix each corner is placed.
            let matrix: M4 = match &source.skin {
                Some((j, mats)) => mats.get(*j).copied().unwrap_or(IDENTITY),
                None => source.to_world,
            };
            let owned: Option<std::rc::Rc<Vec<Vec<u32>>>> = match &source.skin {
                Some((_, mats)) => {
                    let key = (source.node, source.mesh, prim_index);
                    let split = match skin_split.get(&key) {
                        Some(s) => s.clone(),
                        None => {
                            let s =
                                std::rc::Rc::new(split_by_joint(prim, mats.len()).map_err(|m| fail("JOINTS_0", m))?);
                            skin_split.insert(key, s.clone());
                            s
                        }
                    };
                    Some(split)
                }
                None => None,
            };
            let chosen: Box<dyn Iterator<Item = usize>> = match (&owned, &source.skin) {
                (Some(split), Some((j, _))) => {
                    Box::new(split.get(*j).map(Vec::as_slice).unwrap_or_default().iter().map(|&t| t as usize))
                }
                _ => Box::new(0..prim.indices.len() / 3),
            };
            let normal_m = normal_matrix(&matrix);
            let mirrored = det3(&matrix) < 0.0;
            let base = corners.len();
            let mut local: HashMap<u32, usize> = HashMap::new();
            for t in chosen {
                let Some(&[a, b, c]) = prim.indices.get(3 * t..3 * t + 3).and_then(|s| <&[u32; 3]>::try_from(s).ok())
                else {
                    continue;
                };
                let mut tri = [0usize; 3];
                for (slot, &v) in [a, b, c].iter().enumerate() {
                    let next = base + local.len();
                    let idx = *local.entry(v).or_insert(next);
                    tri[slot] = idx;
                }
                if mirrored {
                    tri.swap(1, 2);
                }
                triangles.push(tri);
            }
            let mut ordered: Vec<(u32, usize)> = local.into_iter().collect();
            ordered.sort_by_key(|&(_, k)| k);
            for (v, _) in ordered {
                let v = v as usize;
                let p = prim.positions.get(v).copied().unwrap_or([0.0; 3]);
                let place = |p: [f32; 3]| {
                    let w = apply(&matrix, p, 1.0);
                    from_gltf([(w[0] - origin[0]) as f32, (w[1] - origin[1]) as f32, (w[2] - origin[2]) as f32])
                };
                let shift = |d: [f32; 3]| from_gltf(apply(&matrix, d, 0.0).map(|c| c as f32));
                let base_pos = place(p);
                let extremes_v: [[f32; 3]; EXTREMES] = match &extremes {
                    Some(ex) => std::array::from_fn(|m| {
                        let d =
                            prim.morph_targets.get(ex[m]).and_then(|t| t.positions.get(v)).copied().unwrap_or([0.0; 3]);
                        place([p[0] + d[0], p[1] + d[1], p[2] + d[2]])
                    }),
                    None => [base_pos; EXTREMES],
                };
                let mut shifts = Vec::with_capacity(weights.len());
                for (_, frames) in &weights {
                    let list: Vec<[f32; 3]> = frames
                        .iter()
                        .map(|sparse| {
                            let mut s = [0.0f32; 3];
                            for &(t, weight) in sparse {
                                let d = prim.morph_targets.get(t).and_then(|x| x.positions.get(v)).copied();
                                let d = shift(d.unwrap_or([0.0; 3]));
                                for k in 0..3 {
                                    s[k] += weight * d[k];
                                }
                            }
                            s
                        })
                        .collect();
                    shifts.push(list);
                }
                let nrm = normals.get(v).copied().unwrap_or([0.0, 0.0, 1.0]);
                let nrm = apply(&normal_m, nrm, 0.0);
                let len = (nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]).sqrt();
                let nrm = if len > 0.0 && len.is_finite() { nrm.map(|c| c / len) } else { [0.0, 1.0, 0.0] };
                corners.push(Corner {
                    extremes: extremes_v,
                    shifts,
                    normal: from_gltf(nrm.map(|c| c as f32)),
                    uv: prim.uvs.get(v).copied().unwrap_or([0.0; 2]),
                });
            }
        }
    }
    let (fig, frames) = fold(
        name,
        node,
        sources.first().map_or("", |s| scene.meshes[s.mesh].name.as_str()),
        &corners,
        &triangles,
        group,
    )?;
    let per_clip: Frames = clips.iter().map(|&(c, _)| c).zip(frames).collect();
    Ok((fig, per_clip))
}

/// A skinned primitive's triangles per joint: each vertex bound to its strongest joint, each triangle to
/// the joint of most of its corners (the first corner's on a tie). A joint past the skin's is refused.
fn split_by_joint(prim: &Primitive, joints: usize) -> std::result::Result<Vec<Vec<u32>>, String> {
    let joint_of = |v: u32| -> std::result::Result<usize, String> {
        let v = v as usize;
        let j = prim.joints.get(v).copied().unwrap_or([0; 4]);
        let w = prim.weights.get(v).copied().unwrap_or([1.0, 0.0, 0.0, 0.0]);
        let mut best = 0;
        for k in 1..4 {
            if w[k] > w[best] {
                best = k;
            }
        }
        let joint = usize::from(j[best]);
        if joint >= joints {
            return Err(format!("vertex {v} is bound to joint {joint}; the skin has {joints}"));
        }
        Ok(joint)
    };
    let mut out = vec![Vec::new(); joints];
    for (t, tri) in prim.indices.chunks_exact(3).enumerate() {
        let [a, b, c] = [tri[0], tri[1], tri[2]].map(joint_of);
        let (a, b, c) = (a?, b?, c?);
        let owner = if b == c && b != a { b } else { a };
        if let Some(list) = out.get_mut(owner) {
            list.push(t as u32);
        }
    }
    Ok(out)
}

/// Area-weighted vertex normals of a triangle list.
fn face_normals(positions: &[[f32; 3]], indices: &[u32]) -> Vec<[f32; 3]> {
    let mut out = vec![[0.0f32; 3]; positions.len()];
    for t in indices.chunks_exact(3) {
        let p = |k: usize| positions.get(t[k] as usize).copied().unwrap_or([0.0; 3]);
        let (a, b, c) = (p(0), p(1), p(2));
        let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
        let n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
        for &i in t {
            if let Some(o) = out.get_mut(i as usize) {
                for k in 0..3 {
                    o[k] += n[k];
                }
            }
        }
    }
    out
}

/// Refuses a corner whose position, morphing shift, normal or UV is not finite once its node's transform is
/// baked in (the glTF reader refuses non-finite input, but finite values can overflow f32 when multiplied): the
/// FIG would hold infinities.
fn refuse_non_finite(name: &str, node: usize, mesh: &str, index: usize, c: &Corner) -> Result<()> {
    let mut values =
        c.extremes.iter().flatten().chain(c.shifts.iter().flatten().flatten()).chain(&c.normal).chain(&c.uv);
    if values.all(|v| v.is_finite()) {
        return Ok(());
    }
    Err(Error::Refused(format!(
        "{}: node {node} {name:?}, mesh {mesh:?}: triangle corner {index} is not a finite number once the node \
         transforms are baked in (the FIG would hold infinities): scale the model down",
        res::FORMAT_ID
    )))
}

/// Folds corners into FIG lists (shared positions, normals, UVs, components) and computes the header.
fn fold(
    name: &str,
    node: usize,
    mesh: &str,
    corners: &[Corner],
    triangles: &[[usize; 3]],
    group: (u32, u32, u32),
) -> Result<(fig::Fig, Vec<Vec<Vec<anm::Vec3>>>)> {
    let mut pos_index: HashMap<Vec<u32>, u16> = HashMap::new();
    let mut nrm_index: HashMap<[u32; 3], u16> = HashMap::new();
    let mut uv_index: HashMap<[u32; 2], u16> = HashMap::new();
    let mut vc_index: HashMap<(u16, u16, u16), u16> = HashMap::new();
    let mut positions: Vec<Vec<fig::Vec3>> = vec![Vec::new(); EXTREMES];
    let clips = corners.first().map_or(0, |c| c.shifts.len());
    let mut frames: Vec<Vec<Vec<anm::Vec3>>> = (0..clips)
        .map(|k| vec![Vec::new(); corners.first().and_then(|c| c.shifts.get(k)).map_or(0, Vec::len)])
        .collect();
    let mut normals: Vec<fig::Vec4> = Vec::new();
    let mut texcoords: Vec<fig::Vec2> = Vec::new();
    let mut vertices: Vec<fig::VertexComponent> = Vec::new();
    let mut corner_vc: Vec<u16> = Vec::with_capacity(corners.len());
    let limit = |field: &str, what: &str| {
        err(name, node, mesh, field, format!("more than {U16_ENTRIES} {what}: FIG indices are 16-bit"))
    };
    for (index, c) in corners.iter().enumerate() {
        refuse_non_finite(name, node, mesh, index, c)?;
        let mut key: Vec<u32> = c.extremes.iter().flatten().map(|f| f.to_bits()).collect();
        key.extend(c.shifts.iter().flatten().flatten().map(|f| f.to_bits()));
        let p = match pos_index.get(&key) {
            Some(&p) => p,
            None => {
                let p = u16::try_from(positions[0].len()).map_err(|_| limit("positions", "positions"))?;
                for (m, list) in positions.iter_mut().enumerate() {
                    list.push(c.extremes[m].map(F32::new));
                }
                for (k, clip) in frames.iter_mut().enumerate() {
                    for (f, frame) in clip.iter_mut().enumerate() {
                        let s = c.shifts.get(k).and_then(|s| s.get(f)).copied().unwrap_or([0.0; 3]);
                        frame.push(s.map(F32::new));
                    }
                }
                pos_index.insert(key, p);
                p
            }
        };
        let nk = c.normal.map(f32::to_bits);
        let nrm = match nrm_index.get(&nk) {
            Some(&i) => i,
            None => {
                let i = u16::try_from(normals.len()).map_err(|_| limit("normals", "normals"))?;
                normals.push([c.normal[0], c.normal[1], c.normal[2], 1.0].map(F32::new));
                nrm_index.insert(nk, i);
                i
            }
        };
        let uk = c.uv.map(f32::to_bits);
        let uv = match uv_index.get(&uk) {
            Some(&i) => i,
            None => {
                let i = u16::try_from(texcoords.len()).map_err(|_| limit("texcoords", "texture coordinates"))?;
                texcoords.push(c.uv.map(F32::new));
                uv_index.insert(uk, i);
                i
            }
        };
        let vc = match vc_index.get(&(p, nrm, uv)) {
            Some(&i) => i,
            None => {
                let i = u16::try_from(vertices.len()).map_err(|_| limit("vertices", "vertex components"))?;
                vertices.push(fig::VertexComponent { position: p, normal: nrm, texcoord: uv });
                vc_index.insert((p, nrm, uv), i);
                i
            }
        };
        corner_vc.push(vc);
    }
    let used = positions[0].len();
    let padded = used.div_ceil(fig::types::LANES) * fig::types::LANES;
    if padded > U16_ENTRIES {
        return Err(limit("positions", "positions (padded to blocks of 4)"));
    }
    if normals.len().div_ceil(4) * 4 > U16_ENTRIES {
        return Err(limit("normals", "normals (padded to blocks of 4)"));
    }
    let bounds = positions
        .iter()
        .map(|list| {
            let mut min = [f32::INFINITY; 3];
            let mut max = [f32::NEG_INFINITY; 3];
            for p in list {
                for a in 0..3 {
                    min[a] = min[a].min(p[a].get());
                    max[a] = max[a].max(p[a].get());
                }
            }
            if list.is_empty() {
                min = [0.0; 3];
                max = [0.0; 3];
            }
            let center = [0, 1, 2].map(|a| (min[a] + max[a]) / 2.0);
            let d = [0, 1, 2].map(|a| f64::from(max[a]) - f64::from(min[a]));
            let radius = ((d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() / 2.0) as f32;
            fig::Bounds {
                center: center.map(F32::new),
                min: min.map(F32::new),
                max: max.map(F32::new),
                radius: F32::new(radius),
            }
        })
        .collect();
    for list in &mut positions {
        list.resize(padded, [F32::new(0.0); 3]);
    }
    for clip in &mut frames {
        for frame in clip.iter_mut() {
            frame.resize(padded, [F32::new(0.0); 3]);
        }
    }
    while normals.len() % fig::types::LANES != 0 {
        normals.push([0.0, 0.0, 0.0, 1.0].map(F32::new));
    }
    let mut indices = Vec::with_capacity(triangles.len() * 3);
    for t in triangles {
        for &c in t {
            indices.push(corner_vc.get(c).copied().unwrap_or(0));
        }
    }
    let morph_components = (0..used)
        .map(|i| {
            let i = i as u16;
            fig::MorphComponent { morph: i, vertex: i }
        })
        .collect();
    let fig = fig::Fig {
        unk_0x1c: group.0,
        group: group.1,
        texture_index: group.2,
        bounds,
        positions,
        normals,
        texcoords,
        indices,
        vertices,
        morph_components,
        trailing: Default::default(),
    };
    Ok((fig, frames))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_renamed_name_is_one_file_name_the_extractor_takes() {
        let long = "é".repeat(200);
        let cases = [
            ("body", "body"),
            (r"..\..\tmp\evil", ".._.._tmp_evil"),
            ("/etc/evil", "_etc_evil"),
            (r"C:\evil", "C__evil"),
            ("con", "_con"),
            ("CON.txt", "_CON.txt"),
            ("com1", "_com1"),
            ("..", "._"),
            ("...", ".._"),
            ("a/b", "a_b"),
            ("x?*", "x__"),
            ("tab\there", "tab_here"),
            ("___", "___"),
            ("??", "fallback"),
            ("/", "fallback"),
        ];
        for (raw, want) in cases {
            let mut renamed = Vec::new();
            let got = extractable_name(raw, || "fallback".into(), &mut renamed);
            assert_eq!(got, want, "{raw:?}");
            assert_eq!(renamed.len(), usize::from(raw != want), "{raw:?}");
            let path = crate::paths::safe_relative_path(&got).unwrap();
            assert_eq!(path.components().count(), 1, "{raw:?}");
        }
        // Over-long names are cut below the longest file name, on a character boundary.
        let got = extractable_name(&format!("{long}/x"), || "fallback".into(), &mut Vec::new());
        assert!(got.len() <= MAX_RENAMED_BYTES && got.chars().all(|c| c == 'é'), "{got}");
    }
}
