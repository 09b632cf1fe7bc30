//! RSM to the common scene model (exported as glTF), following the node-transform formulas of
//! docs/formats/ragnarok.md#rsm-transforms-1x for both version families.
//!
//! Versions below 2.2 (column vectors): each mesh passes `A = T(position)·R·S(scale)` to its children, where
//! `R` is the slerped rotation key or the axis-angle rotation (only when |angle| > 0.01), and draws itself
//! with `B = T(offset)·M`; world `W = A_root·…·A_parent·A_node·B_node`. The model is then centred: the
//! bounding box of `S(1,−1,1)·W·v` over all vertices (at time 0) gives the placement
//! `S(1,−1,1)·T(−c.x, min.y, −c.z)`, so X/Z are centred and the bottom stands on the ground (1.x file space
//! is Y-down; glTF is Y-up). Key times are milliseconds.
//!
//! Versions 2.2 and later: local `L = (rotation keys ? R(q(t)) : inv(M_parent)·M) · S(scaleKey(t))`,
//! translation = position key if any, else `inv(M_parent)·(p − p_parent)` for a child and `p` for a root;
//! `W = W_parent·T(t)·L`; no centring. 2.2+ file space is already Y-up (docs/formats/ragnarok.md#rsm-axes, "Axes (corrected
//! 2026-11-25)"), so nothing is mirrored: world positions are the stored ones under `W`. The `S(1,−1,1)`
//! roBrowser puts above 2.x models only converts them to its own Y-down world. Keys are frame numbers at
//! the file's frame rate; before the first key identity / 1 / p hold, after the last key the last value
//! holds, and each clip lasts AnimationLength.
//!
//! In glTF each of these becomes a chain of nodes (TRS where the factors allow, `node.matrix` for the 3×3
//! matrices, which may shear or mirror); glTF flips the winding of a mirrored node itself (negative
//! determinant), so no vertex is baked. Face winding: see [`WINDING`] (as stored in both families, against
//! the published correction's "2.x triangles are written in reversed order" (docs/formats/ragnarok.md#rsm-face-order), which the corpus contradicts for glTF).
//!
//! For `relic pack ro-rsm` to give the file back ([`super::import`]): the holds added to a track (at 0 and
//! just before a first key after 0, and at the clip's end) are marked in the node's extras
//! (`"ro-rsm": {"added_keys": {"rotation": [seconds…]}}`); each mesh's top node comes in file order; a
//! mesh whose faces interleave materials keeps their stored order in its extras (`"face_runs"`).
//!
//! The per-vertex colour of texture vertices is kept in the JSON only, never written as `COLOR_0`: it is 0
//! (black) in real files, glTF multiplies it into the texture, and the game and the public loaders ignore
//! it (issue 24).

use std::collections::HashMap;

use glam::{Mat3, Mat4, Quat, Vec3};

use super::model::TimeBase;
use super::types::*;
use crate::asset::{
    Animation, Channel, ChannelTarget, ChannelValues, Image, Interpolation, Material, Mesh as SceneMesh, Node,
    Primitive, Scene, Texture, TextureProperty, TextureTransform, Transform,
};
use crate::error::Result;

/// Longest clip converted, in samples of texture animation (one per frame).
const MAX_TEXTURE_SAMPLES: i64 = 20_000;
/// A hair before the first key, so the value before it holds until the key (glTF interpolates otherwise).
const EPSILON_SECONDS: f32 = 1e-4;

/// Where the texture images come from (`--textures`): a folder or a GRF.
pub trait TextureLookup: Sync {
    /// The decoded image for a texture path as the model stores it (relative to `data\texture\`).
    fn image(&self, path: &str) -> Option<Image>;
}

fn mat3(m: &[f32; 9]) -> Mat3 {
    Mat3::from_cols_array(m)
}

fn mat4(m: Mat3) -> Mat4 {
    Mat4::from_mat3(m)
}

fn columns(m: Mat4) -> [f32; 16] {
    m.to_cols_array()
}

fn unit_quat(q: [f32; 4]) -> Quat {
    let q = Quat::from_xyzw(q[0], q[1], q[2], q[3]);
    if q.length_squared() > 1e-12 && q.is_finite() {
        q.normalize()
    } else {
        Quat::IDENTITY
    }
}

/// Piecewise interpolation over keys sorted by frame, holding the ends.
fn sample<T: Copy>(keys: &[(i32, T)], frame: f32, lerp: impl Fn(T, T, f32) -> T) -> Option<T> {
    let first = keys.first()?;
    if frame <= first.0 as f32 {
        return Some(first.1);
    }
    for pair in keys.windows(2) {
        let [(f0, a), (f1, b)] = [pair[0], pair[1]];
        if frame <= f1 as f32 {
            let span = (f64::from(f1) - f64::from(f0)) as f32;
            let t = if span > 0.0 { (frame - f0 as f32) / span } else { 1.0 };
            return Some(lerp(a, b, t));
        }
    }
    keys.last().map(|k| k.1)
}

/// Sorted by frame, one key per frame (the last stored wins).
fn sorted<T: Copy>(keys: impl Iterator<Item = (i32, T)>) -> Vec<(i32, T)> {
    let mut v: Vec<(i32, T)> = keys.collect();
    v.sort_by_key(|k| k.0);
    let mut out: Vec<(i32, T)> = Vec::with_capacity(v.len());
    for k in v {
        match out.last_mut() {
            Some(last) if last.0 == k.0 => *last = k,
            _ => out.push(k),
        }
    }
    out
}

/// A node channel and the times of the keys [`channel`] added to the file's (the holds), which the
/// export marks in the node's extras (`"ro-rsm": {"added_keys": {"rotation": [seconds…]}}`) so that
/// `relic pack ro-rsm` takes them out again ([`super::import`]) and keeps every key of the file.
struct Track {
    channel: Channel,
    added: Vec<f32>,
}

/// Builds a node channel from keys: times in seconds, with the holds the game applies (a value before the
/// first key when `before` is given, the last value up to the clip length).
fn channel<T: Copy>(
    node: usize,
    keys: &[(i32, T)],
    time: TimeBase,
    length: i32,
    before: Option<T>,
    values: impl Fn(Vec<T>) -> ChannelValues,
) -> Option<Track> {
    let mut times = Vec::with_capacity(keys.len() + 3);
    let mut vals = Vec::with_capacity(keys.len() + 3);
    let mut added = Vec::new();
    let first = keys.first()?;
    if let Some(b) = before.filter(|_| first.0 > 0) {
        let t_first = time.seconds(first.0) as f32;
        times.push(0.0);
        vals.push(b);
        added.push(0.0);
        if t_first - EPSILON_SECONDS > 0.0 {
            times.push(t_first - EPSILON_SECONDS);
            vals.push(b);
            added.push(t_first - EPSILON_SECONDS);
        }
    }
    for &(frame, v) in keys {
        let t = time.seconds(frame) as f32;
        if times.last().is_some_and(|&last| t <= last) {
            continue; // negative frames or rounding: keep times strictly increasing
        }
        times.push(t);
        vals.push(v);
    }
    let end = time.seconds(length) as f32;
    if let (Some(&last_t), Some(&last_v)) = (times.last(), vals.last()) {
        if end > last_t {
            times.push(end);
            vals.push(last_v);
            added.push(end);
        }
    }
    let channel = Channel {
        target: ChannelTarget::Node(node),
        times,
        values: values(vals),
        interpolation: Interpolation::Linear,
    };
    Some(Track { channel, added })
}

/// Adds a node channel to the clip and marks the keys it added in the node's extras (see [`Track`]).
fn add_track(scene: &mut Scene, channels: &mut Vec<Channel>, track: Option<Track>) {
    let Some(Track { channel, added }) = track else { return };
    let property = match channel.values {
        ChannelValues::Translation(_) => "translation",
        ChannelValues::Rotation(_) => "rotation",
        ChannelValues::Scale(_) => "scale",
        _ => return,
    };
    if let ChannelTarget::Node(n) = channel.target {
        if let Some(node) = scene.nodes.get_mut(n) {
            if !node.extras.is_object() {
                node.extras = serde_json::json!({});
            }
            let marks = &mut node.extras[super::FORMAT_ID]["added_keys"][property];
            *marks = serde_json::json!(added.iter().map(|&t| f64::from(t)).collect::<Vec<f64>>());
        }
    }
    channels.push(channel);
}

/// Face winding, as measured on the corpus (`tests/ro_rsm_upright.rs`): in both families the stored
/// corner order's right-hand normal points out of the mesh in its own file space (every closed mesh of
/// `goldberg_s_01.rsm2` and the 1.4 models), so faces are written as stored: glTF fronts are
/// counter-clockwise, and glTF flips that rule itself below a mirroring node, which keeps the 1.x mirror
/// `S(1,−1,1)` facing out. docs/formats/ragnarok.md#rsm-face-order says 2.x triangles are written reversed once the mirror is gone;
/// that holds for korangar's renderer, not for glTF: reversed, 286 of the 288 faces of goldberg's root
/// mesh that a ray test can decide face in. One exception: a mesh whose own file transform mirrors
/// (negative determinant: goldberg's `Object293`, `Object294`, `Object290`) was stored with its faces
/// already reversed, as the game draws with one fixed winding rule whatever the matrix; glTF's own flip
/// would turn those inward, so they are written reversed (see `mirrored_meshes_reversed`).
pub const WINDING: &str = "as stored; reversed in meshes whose file transform mirrors";

/// Output vertex ids by (vertex, texture vertex, normal split key), per primitive.
type CornerIds = HashMap<(u16, u16, i64), u32>;

/// Everything a mesh's geometry needs to become primitives.
struct Geometry {
    mesh: SceneMesh,
}

/// A material key: texture slot of the model, two-sidedness, and the mesh when its texture is animated.
#[derive(Hash, PartialEq, Eq, Clone)]
struct MaterialKey {
    texture: Option<String>,
    two_sided: bool,
    animated_for: Option<(usize, usize)>,
}

/// The name of the material of faces that name no texture.
pub const UNTEXTURED: &str = "untextured";

struct Builder<'a> {
    rsm: &'a Rsm,
    lookup: Option<&'a dyn TextureLookup>,
    scene: Scene,
    materials: HashMap<MaterialKey, usize>,
    textures: HashMap<String, Option<usize>>,
}

impl Builder<'_> {
    fn texture(&mut self, name: &str) -> Option<usize> {
        if let Some(found) = self.textures.get(name) {
            return *found;
        }
        let index = self.lookup.and_then(|l| l.image(name)).map(|image| {
            self.scene.textures.push(Texture { name: name.to_string(), image });
            self.scene.textures.len() - 1
        });
        self.textures.insert(name.to_string(), index);
        index
    }

    fn material(&mut self, key: MaterialKey, unlit: bool) -> usize {
        if let Some(&m) = self.materials.get(&key) {
            return m;
        }
        let texture = key.texture.as_deref().and_then(|t| self.texture(t));
        let alpha = self.rsm.alpha.map_or(1.0, |a| f32::from(a) / 255.0);
        self.scene.materials.push(Material {
            name: key.texture.clone().unwrap_or_else(|| UNTEXTURED.into()),
            base_color: [1.0, 1.0, 1.0, 1.0],
            texture,
            texture_transform: key.animated_for.map(|_| TextureTransform::default()),
            double_sided: key.two_sided,
            // Textures with transparent (magenta) texels, and models with alpha below 255, blend.
            alpha_blend: alpha < 1.0 || texture.is_some_and(|t| has_transparency(&self.scene.textures[t].image)),
            unlit,
            ..Default::default()
        });
        let index = self.scene.materials.len() - 1;
        self.materials.insert(key, index);
        index
    }

    /// The mesh's faces as primitives, one per material, with normals by shade type.
    fn geometry(&mut self, index: usize, mesh: &Mesh) -> Geometry {
        let names = self.rsm.mesh_textures(mesh);
        let animated: Vec<usize> =
            mesh.texture_animations.iter().filter_map(|a| usize::try_from(a.texture).ok()).collect();
        let shade = self.rsm.shade_type;
        let face_normals: Vec<Vec3> = mesh.faces.iter().map(|f| face_normal(mesh, f)).collect();
        // Smooth normals: per (vertex, smooth group), the sum of the face normals around it.
        let mut smooth: HashMap<(u16, i32), Vec3> = HashMap::new();
        if shade == 2 {
            for (f, n) in mesh.faces.iter().zip(&face_normals) {
                for k in 0..3 {
                    *smooth.entry((f.vertices[k], corner_group(f, k))).or_insert(Vec3::ZERO) += *n;
                }
            }
        }
        let mut prims: Vec<(usize, Primitive, CornerIds)> = Vec::new();
        // Runs of consecutive faces in one primitive, as [primitive, face count], in stored order.
        let mut runs: Vec<[usize; 2]> = Vec::new();
        for (fi, f) in mesh.faces.iter().enumerate() {
            let slot = usize::from(f.texture);
            let key = MaterialKey {
                texture: names.get(slot).copied().flatten().map(|n| n.text.clone()),
                two_sided: f.two_sided != 0,
                animated_for: animated.contains(&slot).then_some((index, slot)),
            };
            let material = self.material(key, shade == 0);
            let at = match prims.iter().position(|p| p.0 == material) {
                Some(at) => at,
                None => {
                    prims.push((
                        material,
                        Primitive { material: Some(material), ..Primitive::default() },
                        HashMap::new(),
                    ));
                    prims.len() - 1
                }
            };
            match runs.last_mut() {
                Some([p, count]) if *p == at => *count += 1,
                _ => runs.push([at, 1]),
            }
            let (_, prim, seen) = &mut prims[at];
            for k in 0..3 {
                let (v, t) = (f.vertices[k], f.tex_vertices[k]);
                let split: i64 = match shade {
                    1 => fi as i64,
                    2 => i64::from(corner_group(f, k)),
                    _ => 0,
                };
                let next = prim.positions.len() as u32;
                let id = *seen.entry((v, t, split)).or_insert_with(|| {
                    let p = mesh.vertices.get(usize::from(v)).copied().unwrap_or([0.0; 3]);
                    prim.positions.push(p);
                    let tv = mesh.tex_vertices.get(usize::from(t)).copied().unwrap_or_default();
                    prim.uvs.push(tv.uv);
                    match shade {
                        1 => prim.normals.push(face_normals[fi].to_array()),
                        2 => prim
                            .normals
                            .push(smooth.get(&(v, corner_group(f, k))).copied().unwrap_or(Vec3::Z).to_array()),
                        _ => {}
                    }
                    next
                });
                prim.indices.push(id);
            }
        }
        // Faces of several materials interleaved: the stored order, for `relic pack ro-rsm`.
        let extras = if runs.len() > prims.len() {
            serde_json::json!({ super::FORMAT_ID: { "face_runs": runs } })
        } else {
            serde_json::Value::Null
        };
        let primitives = prims.into_iter().map(|p| p.1).collect();
        Geometry { mesh: SceneMesh { name: mesh.name.text.clone(), primitives, extras } }
    }
}

/// The smooth group of a face's corner: the spec's reading (group[0] for every corner, group[1] and
/// group[2] for the second and third corner when present); further groups are kept in the data only.
fn corner_group(f: &Face, corner: usize) -> i32 {
    f.smooth_groups.get(corner).or_else(|| f.smooth_groups.first()).copied().unwrap_or(0)
}

fn face_normal(mesh: &Mesh, f: &Face) -> Vec3 {
    let p = |k: usize| Vec3::from_array(mesh.vertices.get(usize::from(f.vertices[k])).copied().unwrap_or([0.0; 3]));
    let n = (p(1) - p(0)).cross(p(2) - p(0));
    if n.length_squared() > 0.0 && n.is_finite() {
        n.normalize()
    } else {
        Vec3::ZERO
    }
}

fn has_transparency(image: &Image) -> bool {
    image.frames.iter().any(|f| match &f.pixels {
        crate::asset::Pixels::Rgba8(px) => px.chunks_exact(4).any(|p| p[3] < 255),
        crate::asset::Pixels::Indexed(_) | crate::asset::Pixels::Gray16(_) => false,
    })
}

fn push_node(scene: &mut Scene, name: &str, transform: Transform) -> usize {
    scene.nodes.push(Node { name: name.to_string(), transform, ..Default::default() });
    scene.nodes.len() - 1
}

fn link(scene: &mut Scene, parent: usize, child: usize) {
    if let Some(p) = scene.nodes.get_mut(parent) {
        p.children.push(child);
    }
}

fn trs(t: Vec3, r: Quat, s: Vec3) -> Transform {
    Transform::Trs { translation: t.to_array(), rotation: r.to_array(), scale: s.to_array() }
}

/// The model as a scene with one animation clip (when it has key frames).
pub fn to_scene(rsm: &Rsm, lookup: Option<&dyn TextureLookup>) -> Result<Scene> {
    let mut b = Builder { rsm, lookup, scene: Scene::default(), materials: HashMap::new(), textures: HashMap::new() };
    let parents = rsm.parents();
    let children = rsm.children();
    let time = rsm.time_base();
    let mut channels = Vec::new();
    // Where each mesh's children hang, and the node carrying the mesh.
    let mut attach = vec![0usize; rsm.meshes.len()];
    let mut mesh_nodes = vec![0usize; rsm.meshes.len()];

    // Below 2.2 the root mirrors Y (replaced by the centring placement at the end); 2.2+ is Y-up already.
    let root_transform =
        if rsm.version.is_rsm2() { Mat4::IDENTITY } else { Mat4::from_scale(Vec3::new(1.0, -1.0, 1.0)) };
    let root = push_node(&mut b.scene, "model", Transform::Matrix(columns(root_transform)));
    b.scene.roots.push(root);

    // Meshes in tree order, so that parents exist before children.
    let mut order: Vec<usize> = rsm.roots();
    let mut i = 0;
    while let Some(&m) = order.get(i) {
        if let Some(c) = children.get(m) {
            order.extend(c.iter().copied());
        }
        i += 1;
    }

    // Each mesh's top node first, in file order, so that `relic pack ro-rsm` (which writes meshes in
    // the order of their glTF nodes) gives the file's mesh order back; helper nodes follow.
    let tops: Vec<usize> = rsm
        .meshes
        .iter()
        .map(|mesh| push_node(&mut b.scene, &mesh.name.text, trs(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE)))
        .collect();
    let top_node = |scene: &mut Scene, m: usize, transform: Transform| {
        let at = tops.get(m).copied().unwrap_or(root);
        if let Some(node) = scene.nodes.get_mut(at) {
            node.transform = transform;
        }
        at
    };

    for &m in &order {
        let Some(mesh) = rsm.meshes.get(m) else { continue };
        let parent_node = parents.get(m).copied().flatten().and_then(|p| attach.get(p).copied()).unwrap_or(root);
        let name = mesh.name.text.as_str();
        let geometry = b.geometry(m, mesh);
        b.scene.meshes.push(geometry.mesh);
        let scene_mesh = b.scene.meshes.len() - 1;
        let rot_keys = sorted(mesh.rotation_keys.iter().map(|k| (k.frame, unit_quat(k.quaternion))));
        let scale_keys = sorted(mesh.scale_keys.iter().map(|k| (k.frame, Vec3::from_array(k.scale))));
        if rsm.version.is_rsm2() {
            let parent = parents.get(m).copied().flatten().and_then(|p| rsm.meshes.get(p));
            let m_parent_inv = parent.map_or(Mat3::IDENTITY, |p| mat3(&p.matrix).inverse());
            let p = Vec3::from_array(mesh.position);
            let translation = match parent {
                Some(pm) => m_parent_inv * (p - Vec3::from_array(pm.position)),
                None => p,
            };
            let pos_keys = sorted(mesh.position_keys.iter().map(|k| (k.frame, Vec3::from_array(k.position))));
            let start_t = pos_keys.first().map(|_| translation).unwrap_or(translation);
            let node_t = top_node(&mut b.scene, m, trs(start_t, Quat::IDENTITY, Vec3::ONE));
            link(&mut b.scene, parent_node, node_t);
            add_track(
                &mut b.scene,
                &mut channels,
                channel(node_t, &pos_keys, time, rsm.animation_length, Some(translation), |v| {
                    ChannelValues::Translation(v.iter().map(|x| x.to_array()).collect())
                }),
            );
            let inner = if !rot_keys.is_empty() {
                // T·R·S on one node.
                let q0 = if rot_keys[0].0 > 0 { Quat::IDENTITY } else { rot_keys[0].1 };
                if let Some(Node { transform: Transform::Trs { rotation, .. }, .. }) = b.scene.nodes.get_mut(node_t) {
                    *rotation = q0.to_array();
                }
                add_track(
                    &mut b.scene,
                    &mut channels,
                    channel(node_t, &rot_keys, time, rsm.animation_length, Some(Quat::IDENTITY), |v| {
                        ChannelValues::Rotation(v.iter().map(|q| q.to_array()).collect())
                    }),
                );
                node_t
            } else {
                let local = mat4(mat3(&mesh.matrix)) * Mat4::IDENTITY;
                let local = mat4(m_parent_inv) * local;
                let node_m = push_node(&mut b.scene, &format!("{name} matrix"), Transform::Matrix(columns(local)));
                link(&mut b.scene, node_t, node_m);
                node_m
            };
            let holder = if scale_keys.is_empty() {
                inner
            } else if inner == node_t {
                add_track(
                    &mut b.scene,
                    &mut channels,
                    channel(node_t, &scale_keys, time, rsm.animation_length, Some(Vec3::ONE), |v| {
                        ChannelValues::Scale(v.iter().map(|s| s.to_array()).collect())
                    }),
                );
                node_t
            } else {
                let node_s =
                    push_node(&mut b.scene, &format!("{name} scale"), trs(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE));
                link(&mut b.scene, inner, node_s);
                add_track(
                    &mut b.scene,
                    &mut channels,
                    channel(node_s, &scale_keys, time, rsm.animation_length, Some(Vec3::ONE), |v| {
                        ChannelValues::Scale(v.iter().map(|s| s.to_array()).collect())
                    }),
                );
                node_s
            };
            if let Some(n) = b.scene.nodes.get_mut(holder) {
                n.mesh = Some(scene_mesh);
            }
            attach[m] = holder;
            mesh_nodes[m] = holder;
        } else {
            let legacy = mesh.legacy.unwrap_or_default();
            let rotation = match rot_keys.first() {
                Some(_) => sample(&rot_keys, 0.0, |a, b, t| a.slerp(b, t)).unwrap_or(Quat::IDENTITY),
                None if legacy.rotation_angle.abs() > 0.01 => {
                    let axis = Vec3::from_array(legacy.rotation_axis);
                    if axis.length_squared() > 1e-12 && axis.is_finite() {
                        Quat::from_axis_angle(axis.normalize(), legacy.rotation_angle)
                    } else {
                        Quat::IDENTITY
                    }
                }
                None => Quat::IDENTITY,
            };
            let scale = Vec3::from_array(legacy.scale);
            let node_a = top_node(&mut b.scene, m, trs(Vec3::from_array(mesh.position), rotation, scale));
            link(&mut b.scene, parent_node, node_a);
            add_track(
                &mut b.scene,
                &mut channels,
                channel(node_a, &rot_keys, time, rsm.animation_length, None, |v| {
                    ChannelValues::Rotation(v.iter().map(|q| q.to_array()).collect())
                }),
            );
            add_track(
                &mut b.scene,
                &mut channels,
                channel(node_a, &scale_keys, time, rsm.animation_length, None, |v| {
                    ChannelValues::Scale(v.iter().map(|s| s.to_array()).collect())
                }),
            );
            let local_b = Mat4::from_translation(Vec3::from_array(legacy.offset)) * mat4(mat3(&mesh.matrix));
            let node_b = push_node(&mut b.scene, &format!("{name} mesh"), Transform::Matrix(columns(local_b)));
            link(&mut b.scene, node_a, node_b);
            if let Some(n) = b.scene.nodes.get_mut(node_b) {
                n.mesh = Some(scene_mesh);
            }
            attach[m] = node_a;
            mesh_nodes[m] = node_b;
        }
    }

    mirrored_meshes_reversed(&mut b.scene, root);
    if !rsm.version.is_rsm2() {
        centre(&mut b.scene, root);
    }
    texture_channels(rsm, &mut b, &mut channels, time);
    if !channels.is_empty() {
        b.scene.animations.push(Animation { name: "animation".into(), channels, ..Default::default() });
    }
    // What glTF has no field for, for `relic pack ro-rsm` ([`super::import`]).
    b.scene.extras = serde_json::json!({ super::FORMAT_ID: {
        "version": rsm.version.to_string(),
        "frame_rate": rsm.frame_rate.filter(|f| f.is_finite()),
        "alpha": rsm.alpha,
        "shade_type": rsm.shade_type,
    }});
    Ok(b.scene)
}

/// Reverses the triangles (and turns the normals) of every mesh whose file transform at rest mirrors: the
/// world matrix below the root (relic's own 1.x mirror left out) with a negative determinant. Such meshes
/// were stored reversed for a renderer with one fixed winding rule (see [`WINDING`]); glTF already flips
/// the rule under a mirroring node, so without this they would face in.
fn mirrored_meshes_reversed(scene: &mut Scene, root: usize) {
    let mut mirrored = Vec::new();
    let mut stack = vec![(root, Mat4::IDENTITY)];
    while let Some((n, parent)) = stack.pop() {
        let Some(node) = scene.nodes.get(n) else { continue };
        let world = if n == root { Mat4::IDENTITY } else { parent * local_matrix(&node.transform) };
        if world.determinant() < 0.0 {
            mirrored.extend(node.mesh);
        }
        stack.extend(node.children.iter().map(|&c| (c, world)));
    }
    for m in mirrored {
        let Some(mesh) = scene.meshes.get_mut(m) else { continue };
        for p in &mut mesh.primitives {
            p.indices.chunks_exact_mut(3).for_each(|t| t.swap(1, 2));
            p.normals.iter_mut().for_each(|n| *n = n.map(|x| -x));
        }
    }
}

fn local_matrix(t: &Transform) -> Mat4 {
    match t {
        Transform::Matrix(m) => Mat4::from_cols_array(m),
        Transform::Trs { translation, rotation, scale } => Mat4::from_scale_rotation_translation(
            Vec3::from_array(*scale),
            Quat::from_array(*rotation),
            Vec3::from_array(*translation),
        ),
    }
}

/// Below 2.2: replaces the root's mirror with `S(1,−1,1)·T(−c.x, min.y, −c.z)` computed from the bounding
/// box of the mirrored world positions at time 0.
fn centre(scene: &mut Scene, root: usize) {
    let flip = Mat4::from_scale(Vec3::new(1.0, -1.0, 1.0));
    let mut min = Vec3::splat(f32::INFINITY);
    let mut max = Vec3::splat(f32::NEG_INFINITY);
    let mut stack = vec![(root, Mat4::IDENTITY)];
    while let Some((n, parent)) = stack.pop() {
        let Some(node) = scene.nodes.get(n) else { continue };
        let world = if n == root { Mat4::IDENTITY } else { parent * local_matrix(&node.transform) };
        if let Some(mesh) = node.mesh.and_then(|m| scene.meshes.get(m)) {
            for p in mesh.primitives.iter().flat_map(|p| &p.positions) {
                let v = flip.transform_point3(world.transform_point3(Vec3::from_array(*p)));
                min = min.min(v);
                max = max.max(v);
            }
        }
        stack.extend(node.children.iter().map(|&c| (c, world)));
    }
    if !min.is_finite() || !max.is_finite() {
        return;
    }
    let c = (min + max) / 2.0;
    let place = flip * Mat4::from_translation(Vec3::new(-c.x, min.y, -c.z));
    if let Some(node) = scene.nodes.get_mut(root) {
        node.transform = Transform::Matrix(columns(place));
    }
}

/// Texture key frames (2.3) as animated `KHR_texture_transform`s, sampled once per frame: rotation and
/// scale act around UV (0.5, 0.5) (docs/formats/ragnarok.md#rsm-texture-keys), which glTF's transform (around the origin) expresses
/// through an offset that changes with them.
fn texture_channels(rsm: &Rsm, b: &mut Builder<'_>, channels: &mut Vec<Channel>, time: TimeBase) {
    let frames = i64::from(rsm.animation_length.max(0)).min(MAX_TEXTURE_SAMPLES);
    for (m, mesh) in rsm.meshes.iter().enumerate() {
        for anim in &mesh.texture_animations {
            let Ok(slot) = usize::try_from(anim.texture) else { continue };
            let materials: Vec<usize> =
                b.materials.iter().filter(|(k, _)| k.animated_for == Some((m, slot))).map(|(_, &v)| v).collect();
            if materials.is_empty() {
                continue;
            }
            let track = |kind: i32| {
                sorted(
                    anim.channels
                        .iter()
                        .filter(|c| c.kind == kind)
                        .flat_map(|c| c.keys.iter().map(|k| (k.frame, k.value))),
                )
            };
            let tracks: Vec<Vec<(i32, f32)>> = (0..=4).map(track).collect();
            let lerp = |a: f32, b: f32, t: f32| a + (b - a) * t;
            let value = |kind: usize, frame: f32, default: f32| sample(&tracks[kind], frame, lerp).unwrap_or(default);
            let mut times = Vec::new();
            let (mut offsets, mut rotations, mut scales) = (Vec::new(), Vec::new(), Vec::new());
            for f in 0..=frames {
                let frame = f as f32;
                let (tu, tv) = (value(0, frame, 0.0), value(1, frame, 0.0));
                let (su, sv) = (value(2, frame, 1.0), value(3, frame, 1.0));
                let r = value(4, frame, 0.0);
                let (sin, cos) = r.sin_cos();
                // offset = c + t − R·S·c with c = (0.5, 0.5); R as KHR_texture_transform defines it.
                let (cx, cy) = (0.5 * su, 0.5 * sv);
                let offset = [0.5 + tu - (cos * cx - sin * cy), 0.5 + tv - (sin * cx + cos * cy)];
                times.push(time.seconds(f as i32) as f32);
                offsets.push(offset);
                rotations.push(r);
                scales.push([su, sv]);
            }
            for material in materials {
                if let Some(tt) = b.scene.materials.get_mut(material).and_then(|mat| mat.texture_transform.as_mut()) {
                    *tt = TextureTransform { offset: offsets[0], rotation: rotations[0], scale: scales[0] };
                }
                for (property, values) in [
                    (TextureProperty::Offset, ChannelValues::Vec2(offsets.clone())),
                    (TextureProperty::Rotation, ChannelValues::Scalar(rotations.clone())),
                    (TextureProperty::Scale, ChannelValues::Vec2(scales.clone())),
                ] {
                    channels.push(Channel {
                        target: ChannelTarget::TextureTransform { material, property },
                        times: times.clone(),
                        values,
                        interpolation: Interpolation::Linear,
                    });
                }
            }
        }
    }
}
