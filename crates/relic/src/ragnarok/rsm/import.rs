//! glTF → RSM (`relic pack ro-rsm model.glb -o out.rsm`): a scene read by [`crate::import::gltf::read`]
//! becomes an RSM 1.4 (the default, the form every client and editor reads) or 2.3 (`--version 0x203`)
//! model whose conversion by relic ([`super::scene`]) gives the glTF's geometry back.
//!
//! **Versions.** `--version 0x104` or `0x203` (`major << 8 | minor`, as `ro-grf` spells its versions). Without
//! `--version` the output's extension decides (`.rsm2` → 2.3, anything else → 1.4); when both are given and
//! disagree, the version asked for is written and a note says the game looks for `.rsm` (1.x) / `.rsm2` (2.x).
//!
//! **Nodes.** Every glTF node becomes an RSM node (names made unique, parents by name), except:
//! the root `model` that relic's own export puts above a model (its placement is undone, see below), and the
//! helper nodes relic's export adds below a node `X` (`X mesh`, `X matrix`, `X scale`, and `… (shear)` from
//! the glTF writer), which are merged back into `X`. Several glTF roots in a 1.4 file (which has exactly one
//! main node) hang below an added empty root, with a note.
//!
//! **Axes** (docs/formats/ragnarok.md#rsm-axes, "Node transforms" and "Axes"). 2.x file space is glTF's (Y up); 1.x file
//! space is Y-down and relic's export mirrors it with `S(1,−1,1)` and centres it. A glTF that relic exported
//! from a 1.x file (root `model` = `S(1,−1,1)·T(c)`) has the file's own values below that root, which are
//! written as they are; any other glTF is mirrored into 1.x file space by conjugating every transform with
//! `S(1,−1,1)` (`K·L·K`, vertices `K·v`), so that no node gains a mirror it did not have. The reverse holds
//! when a 1.x glTF is written as 2.3. A 1.x model is centred by its reader (X/Z centred, bottom at
//! Y = 0): a glTF that is not comes back moved by that centring, as the game places it.
//!
//! **Transforms.** 2.x (the formulas of docs/formats/ragnarok.md#rsm-transforms-2x for ≥ 2.2): each node stores its world transform at
//! rest as the 3×3 matrix and the position; without keys those formulas give `W = T(p)·M` back for every
//! node, shear and mirrors included. 1.x: each node's transform relative to its parent goes into
//! position / axis-angle / scale (`A = T·R·S`, passed to children; a rotation of 0.01 rad or less, which
//! the formula drops, is written as one rotation key), and the mesh's own placement (`X mesh` in relic's
//! export, or what a shear leaves over) into the offset and the 3×3 matrix (`B`, this mesh only). A node
//! transform that `T·R·S` cannot hold (shear) in 1.x is approximated for its children, with a note; its
//! own mesh stays exact.
//!
//! **Animation.** The first clip (others are dropped with a note; so are morph weight and texture
//! transform animations, which RSM 2.3's texture key frames could hold but the glTF reader does not pass on).
//! An animated RSM node has no rest pose of its own: relic's reader shows it as at time 0 (2.x holds
//! identity / 1 before the first key), so a glTF whose rest pose differs from its first frame comes back
//! posed as that frame. 1.x times are milliseconds; 2.x frames
//! at the frame rate relic's export stored in the scene's `extras` or else 30 fps ([`DEFAULT_FPS`]);
//! `AnimationLength` is the clip's duration. 1.4 holds rotation keys only: translation and scale
//! animation is dropped with a note (write 2.3 for them). 2.3: position keys (the node's translation in its
//! parent's frame), rotation keys (with scale keys when the scale is not 1) or, when only the scale moves,
//! scale keys relative to the rest. Keys are taken at the glTF's key times, rounded to whole milliseconds or
//! frames; a jump (two keys closer than half a unit, STEP interpolation) becomes a key one unit before the
//! jump holding the old value; keys that only repeat the value RSM holds anyway (before the first key in 2.x,
//! after the last) are left out. A glTF of relic's own export marks the holds it added in its nodes'
//! extras: then exactly those are left out (where they still hold that value) and every other key is
//! kept, so an unedited round trip gives the file's key counts and frames back.
//!
//! **Order.** Meshes are written in the order of their glTF nodes (relic's export lists them in file
//! order) and faces in the order relic's export kept in a mesh's extras when its materials interleave.
//!
//! **Meshes.** All primitives of a node's mesh become one RSM mesh: positions and UVs welded by value
//! (UV set 0, with a material's static `KHR_texture_transform` baked in; vertex colours and morph targets
//! are dropped with one note each; the glTF reader already leaves out other UV sets and tangents), one
//! texture slot per material. Skinned meshes are bound rigidly: each triangle goes to the joint that
//! weighs most on its first corner, in that joint's bind frame, with a note; a triangle bound to a joint past
//! the skin's, or to one the scene does not write, is left out, counted in one note per mesh and reason.
//! Meshes whose file transform mirrors get their triangles reversed, as relic's reader reverses them (see [`super::scene::WINDING`]).
//! Shading: no normals at all → shade type 0 (none); every normal equal to its face's → 1 (flat); else 2
//! (smooth) with smoothing groups from the normals: faces that share a vertex and its normal share a group;
//! groups are numbered 0..31 (roBrowser reads no more) so that groups meeting at a vertex differ, and a vertex
//! where more than 32 groups meet is split.
//!
//! **Textures** are referenced by name under `data\texture\`: the name relic's export gave the material
//! (the texture path as the model stored it), else the glTF image's name or URI stem with `.bmp` (opaque) or
//! `.tga` (with alpha). A face with no texture gets an index past its mesh's list (relic reads it untextured;
//! note). Images the glTF embeds are written beside the output under their file name ([`TextureFile`]),
//! BMP (24 bits, transparent as magenta) or TGA (32 bits) as the name says.
//!
//! **Limits.** RSM faces index vertices and texture vertices with u16 (65,536 per mesh), texture slots
//! with a u16; 1.4 names are 40-byte CP949 fields (39 bytes and a NUL). Longer or non-CP949 node names are
//! shortened or have the characters replaced (note); a mesh over a limit is refused, naming the node and mesh; a
//! number that node transforms multiplied into a 2.x matrix make infinite is refused, naming the node.

use std::collections::{BTreeMap, HashMap, HashSet};

use glam::{DMat3, DMat4, DQuat, DVec3, DVec4};

mod keys;
mod mesh;
mod naming;

use keys::*;
use mesh::*;
use naming::*;

use super::read::encode_text;
use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Channel, ChannelTarget, ChannelValues, Interpolation, Scene, Transform};
use crate::error::{Error, Result};

/// Frames per second of a 2.3 file when the glTF names none (the rate of almost every real 2.x model).
pub const DEFAULT_FPS: f32 = 30.0;
/// Vertices and texture vertices per mesh (u16 indices).
pub const MAX_VERTICES: usize = 65_536;
/// Smoothing groups roBrowser reads (0..31).
const GROUPS: usize = 32;
/// Longest name of a 1.x fixed field, before its NUL.
const FIXED_TEXT: usize = FIXED_NAME_LEN - 1;
/// Helper suffixes relic's own RSM export adds below a node.
const HELPERS: [&str; 3] = [" mesh", " matrix", " scale"];

/// The versions `pack` writes: `0x104` (default) and `0x203`.
pub const VERSIONS: [u32; 2] = [0x104, 0x203];

/// A texture image to write beside the model.
#[derive(Debug, Clone)]
pub struct TextureFile {
    /// The texture path as the model names it (under `data\texture\`).
    pub path: String,
    /// The file name it is written under (the path's last part).
    pub file_name: String,
    pub bytes: Vec<u8>,
}

/// What [`from_scene`] made.
#[derive(Debug, Clone)]
pub struct Packed {
    pub rsm: Rsm,
    pub textures: Vec<TextureFile>,
    pub notes: Vec<String>,
}

#[derive(Default)]
struct Notes {
    kinds: HashSet<&'static str>,
    list: Vec<String>,
    /// Triangles left out, per use of a mesh (its label) and reason: counted, said once at the end.
    dropped: BTreeMap<(String, &'static str), Dropped>,
    /// Triangles of each mesh use (its label), for "n of m".
    triangles: HashMap<String, usize>,
}

/// Triangles of one mesh use left out for one reason: how many, and the reason as first met.
struct Dropped {
    count: usize,
    why: String,
}

impl Notes {
    fn add(&mut self, kind: &'static str, text: impl FnOnce() -> String) {
        if self.kinds.insert(kind) {
            self.list.push(format!("{FORMAT_ID}: {}", text()));
        }
    }

    /// A use of a mesh (`label`) of `triangles` triangles, counted once per label.
    fn mesh_triangles(&mut self, label: &str, triangles: usize) {
        self.triangles.entry(label.to_string()).or_insert(triangles);
    }

    /// `count` triangles of the mesh use `label` left out for the reason `kind` (`why` says it).
    fn drop_triangles(&mut self, label: &str, kind: &'static str, count: usize, why: impl FnOnce() -> String) {
        if count == 0 {
            return;
        }
        let entry = self.dropped.entry((label.to_string(), kind)).or_insert_with(|| Dropped { count: 0, why: why() });
        entry.count += count;
    }

    /// The notes, one per mesh use and reason of dropped triangles last (`1 of 2 triangles of mesh 0 …
    /// dropped: …`).
    fn finish(mut self) -> Vec<String> {
        for ((label, _), d) in std::mem::take(&mut self.dropped) {
            let of = self.triangles.get(&label).map_or(String::new(), |t| format!(" of {t}"));
            let noun = if d.count == 1 && of.is_empty() { "triangle" } else { "triangles" };
            self.list.push(format!("{FORMAT_ID}: {}{of} {noun} of {label} dropped: {}", d.count, d.why));
        }
        self.list
    }
}

/// How a use of a mesh is named in notes: `mesh 0 'tri' (node 1 'body')`.
fn mesh_label(scene: &Scene, mesh: usize, node: usize) -> String {
    let m = scene.meshes.get(mesh).map_or("", |m| m.name.as_str());
    let n = scene.nodes.get(node).map_or("", |n| n.name.as_str());
    format!("mesh {mesh} '{m}' (node {node} '{n}')")
}

/// Triangles of a mesh (every primitive's).
fn triangle_count(mesh: &crate::asset::Mesh) -> usize {
    mesh.primitives.iter().map(|p| p.indices.len() / 3).sum()
}

fn limit(field: impl Into<String>, message: impl Into<String>) -> Error {
    Error::limit(FORMAT_ID, field, 0, message)
}

/// `S(1, −1, 1)`.
fn flip() -> DMat4 {
    DMat4::from_scale(DVec3::new(1.0, -1.0, 1.0))
}

fn d3(v: [f32; 3]) -> DVec3 {
    DVec3::new(f64::from(v[0]), f64::from(v[1]), f64::from(v[2]))
}

fn f3(v: DVec3) -> [f32; 3] {
    [v.x as f32, v.y as f32, v.z as f32]
}

fn quat(q: [f32; 4]) -> DQuat {
    let q = DQuat::from_xyzw(f64::from(q[0]), f64::from(q[1]), f64::from(q[2]), f64::from(q[3]));
    if q.is_finite() && q.length_squared() > 1e-24 {
        q.normalize()
    } else {
        DQuat::IDENTITY
    }
}

/// Translation, rotation, scale.
#[derive(Debug, Clone, Copy)]
struct Trs {
    t: DVec3,
    r: DQuat,
    s: DVec3,
}

impl Trs {
    fn matrix(self) -> DMat4 {
        DMat4::from_scale_rotation_translation(self.s, self.r, self.t)
    }
    /// Decomposes an affine matrix; `exact` says whether `T·R·S` gives it back (no shear).
    fn of(m: DMat4) -> (Trs, bool) {
        let (s, r, t) = m.to_scale_rotation_translation();
        let r = if r.is_finite() && r.length_squared() > 1e-24 { r.normalize() } else { DQuat::IDENTITY };
        let trs = Trs { t, r, s };
        let back = trs.matrix();
        let scale = m.to_cols_array().iter().fold(1.0f64, |a, x| a.max(x.abs()));
        let exact = back.to_cols_array().iter().zip(m.to_cols_array()).all(|(a, b)| (a - b).abs() <= 1e-6 * scale);
        (trs, exact)
    }
}

fn transform_trs(t: &Transform) -> Option<Trs> {
    match t {
        Transform::Trs { translation, rotation, scale } => {
            Some(Trs { t: d3(*translation), r: quat(*rotation), s: d3(*scale) })
        }
        Transform::Matrix(_) => None,
    }
}

fn transform_matrix(t: &Transform) -> DMat4 {
    match t {
        Transform::Matrix(m) => DMat4::from_cols_array(&m.map(f64::from)),
        Transform::Trs { .. } => transform_trs(t).map_or(DMat4::IDENTITY, Trs::matrix),
    }
}

// ---------------------------------------------------------------------------------------------------------
// Animation sampling

#[derive(Default, Clone, Copy)]
struct NodeChannels<'a> {
    t: Option<&'a Channel>,
    r: Option<&'a Channel>,
    s: Option<&'a Channel>,
}

/// Index of the key interval for `time`: (i, j, f) with value = lerp(v[i], v[j], f).
fn locate(ch: &Channel, time: f64) -> Option<(usize, usize, f64)> {
    let n = ch.times.len();
    let first = f64::from(*ch.times.first()?);
    if time <= first || n == 1 {
        return Some((0, 0, 0.0));
    }
    let k = ch.times.partition_point(|&t| f64::from(t) <= time);
    if k >= n {
        return Some((n - 1, n - 1, 0.0));
    }
    let i = k.saturating_sub(1);
    let (t0, t1) = (f64::from(*ch.times.get(i)?), f64::from(*ch.times.get(k)?));
    let f = if t1 > t0 { ((time - t0) / (t1 - t0)).clamp(0.0, 1.0) } else { 1.0 };
    Some(match ch.interpolation {
        Interpolation::Step => (i, i, 0.0),
        Interpolation::Linear => (i, k, f),
    })
}

fn sample_vec3(ch: &Channel, time: f64) -> Option<DVec3> {
    let (ChannelValues::Translation(v) | ChannelValues::Scale(v)) = &ch.values else { return None };
    let (i, j, f) = locate(ch, time)?;
    let (a, b) = (d3(*v.get(i)?), d3(*v.get(j)?));
    Some(a.lerp(b, f))
}

fn sample_quat(ch: &Channel, time: f64) -> Option<DQuat> {
    let ChannelValues::Rotation(v) = &ch.values else { return None };
    let (i, j, f) = locate(ch, time)?;
    let (a, b) = (quat(*v.get(i)?), quat(*v.get(j)?));
    Some(if f <= 0.0 { a } else { a.slerp(b, f) })
}

// ---------------------------------------------------------------------------------------------------------
// The scene's node graph

/// Where a node's transform is measured from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Frame {
    /// The top of the file space.
    Top,
    Node(usize),
}

struct Graph<'a> {
    scene: &'a Scene,
    parent: Vec<Option<usize>>,
    /// Nodes reachable from the roots, parents first.
    order: Vec<usize>,
    channels: HashMap<usize, NodeChannels<'a>>,
    /// glTF world → file world: `Wf = z·Gw·k`.
    z: DMat4,
    k: DMat4,
    mirror_k: bool,
    /// Frame the root nodes are measured from.
    top: Frame,
    /// Rest world of every node (glTF).
    world: Vec<DMat4>,
}

impl Graph<'_> {
    fn local_trs_at(&self, n: usize, time: Option<f64>) -> Option<Trs> {
        let node = self.scene.nodes.get(n)?;
        let ch = time.and_then(|_| self.channels.get(&n));
        let base = match (transform_trs(&node.transform), ch) {
            (Some(trs), _) => trs,
            (None, Some(_)) => Trs::of(transform_matrix(&node.transform)).0,
            (None, None) => return None,
        };
        let (Some(ch), Some(time)) = (ch, time) else { return Some(base) };
        Some(Trs {
            t: ch.t.and_then(|c| sample_vec3(c, time)).unwrap_or(base.t),
            r: ch.r.and_then(|c| sample_quat(c, time)).unwrap_or(base.r),
            s: ch.s.and_then(|c| sample_vec3(c, time)).unwrap_or(base.s),
        })
    }

    fn local_at(&self, n: usize, time: Option<f64>) -> DMat4 {
        match self.local_trs_at(n, time) {
            Some(trs) => trs.matrix(),
            None => self.scene.nodes.get(n).map_or(DMat4::IDENTITY, |node| transform_matrix(&node.transform)),
        }
    }

    /// Nodes from `target` up to (not including) `from`; `None` when `from` is not above `target`.
    fn path(&self, from: Frame, target: usize) -> Option<Vec<usize>> {
        let mut out = Vec::new();
        let mut at = Some(target);
        while let Some(n) = at {
            if from == Frame::Node(n) {
                return Some(out);
            }
            if out.len() > self.parent.len() {
                return None;
            }
            out.push(n);
            at = self.parent.get(n).copied().flatten();
        }
        (from == Frame::Top).then_some(out)
    }

    /// The file-space world of a frame at rest.
    fn file_world(&self, f: Frame) -> DMat4 {
        match f {
            Frame::Top => DMat4::IDENTITY,
            Frame::Node(n) => self.z * self.world.get(n).copied().unwrap_or(DMat4::IDENTITY) * self.k,
        }
    }

    /// `target`'s file-space transform relative to `from` at `time` (rest when `None`).
    fn rel(&self, from: Frame, target: usize, time: Option<f64>) -> DMat4 {
        match self.path(from, target) {
            Some(path) => {
                let mut m = DMat4::IDENTITY;
                for &n in path.iter().rev() {
                    m *= self.local_at(n, time);
                }
                if from == Frame::Top {
                    self.z * m * self.k
                } else {
                    self.k * m * self.k
                }
            }
            None => self.file_world(from).inverse() * self.file_world(Frame::Node(target)),
        }
    }

    /// A rotation in file space: conjugated by `K = S(1,−1,1)` when the conversion mirrors.
    fn file_rotation(&self, r: DQuat) -> DQuat {
        if self.mirror_k {
            DQuat::from_xyzw(-r.x, r.y, -r.z, r.w)
        } else {
            r
        }
    }

    /// Like [`Graph::rel`] as T, R, S, taking a single TRS node's values as they are. A decomposed
    /// rotation gets the sign of the glTF's own rotations along the path, so that keys 180° apart
    /// interpolate the way the glTF does.
    fn rel_trs(&self, from: Frame, target: usize, time: Option<f64>) -> (Trs, bool) {
        let path = self.path(from, target);
        if let Some(path) = &path {
            if let ([n], true) = (path.as_slice(), from != Frame::Top) {
                if let Some(trs) = self.local_trs_at(*n, time) {
                    // K·T·R·S·K with K = S(1,−1,1): T mirrored, R conjugated, S unchanged.
                    let t = if self.mirror_k { DVec3::new(trs.t.x, -trs.t.y, trs.t.z) } else { trs.t };
                    return (Trs { t, r: self.file_rotation(trs.r), s: trs.s }, true);
                }
            }
        }
        let (mut trs, exact) = Trs::of(self.rel(from, target, time));
        if let Some(path) = path {
            let reference = path
                .iter()
                .rev()
                .fold(DQuat::IDENTITY, |acc, &n| acc * self.local_trs_at(n, time).map_or(DQuat::IDENTITY, |x| x.r));
            if trs.r.dot(self.file_rotation(reference)) < 0.0 {
                trs.r = -trs.r;
            }
        }
        (trs, exact)
    }

    /// The keys relic's own export added to the channels between `from` and `target` (its node extras,
    /// see [`keys::exact_keys`]), by property: `Some` when every channel of that property there carries
    /// the marks (then the channel's other keys are the file's, taken one for one), `None` otherwise.
    fn added_keys(&self, from: Frame, target: usize) -> [Option<Vec<f64>>; 3] {
        let mut out: [Option<Vec<f64>>; 3] = Default::default();
        let mut unmarked = [false; 3];
        let nodes = self.path(from, target).unwrap_or_else(|| vec![target]);
        for n in nodes {
            let Some(ch) = self.channels.get(&n) else { continue };
            let marks = self.scene.nodes.get(n).map(|node| &node.extras[FORMAT_ID]["added_keys"]);
            for (i, (c, property)) in
                [(ch.t, "translation"), (ch.r, "rotation"), (ch.s, "scale")].into_iter().enumerate()
            {
                if c.is_none() {
                    continue;
                }
                let times: Option<Vec<f64>> = marks
                    .and_then(|m| m.get(property))
                    .and_then(serde_json::Value::as_array)
                    .map(|a| a.iter().filter_map(serde_json::Value::as_f64).collect());
                match times {
                    Some(t) if !unmarked[i] => out[i].get_or_insert_with(Vec::new).extend(t),
                    _ => {
                        unmarked[i] = true;
                        out[i] = None;
                    }
                }
            }
        }
        out
    }

    /// Key times (seconds) of the channels of the nodes between `from` and `target`, by property.
    fn times(&self, from: Frame, target: usize) -> [Vec<f64>; 3] {
        let mut out: [Vec<f64>; 3] = Default::default();
        let nodes = self.path(from, target).unwrap_or_else(|| vec![target]);
        for n in nodes {
            let Some(ch) = self.channels.get(&n) else { continue };
            for (i, c) in [ch.t, ch.r, ch.s].into_iter().enumerate() {
                let Some(c) = c else { continue };
                let unit_gap = c.interpolation == Interpolation::Step;
                for (k, &t) in c.times.iter().enumerate() {
                    out[i].push(f64::from(t).max(0.0));
                    if unit_gap && k > 0 {
                        // STEP: the old value until just before the key (a jump, see `keys`).
                        out[i].push((f64::from(t) - 1e-6).max(0.0));
                    }
                }
            }
        }
        for v in &mut out {
            v.sort_by(f64::total_cmp);
            v.dedup();
        }
        out
    }
}

/// Reads the node graph: parents, an order with parents first, the channels of the first clip.
fn graph<'a>(scene: &'a Scene, notes: &mut Notes) -> Graph<'a> {
    let n = scene.nodes.len();
    let mut parent = vec![None; n];
    let mut seen = vec![false; n];
    let mut order = Vec::new();
    for &r in &scene.roots {
        if r >= n || seen[r] {
            continue;
        }
        seen[r] = true;
        order.push(r);
        let mut i = order.len() - 1;
        while let Some(&at) = order.get(i) {
            for &c in scene.nodes.get(at).map(|x| x.children.as_slice()).unwrap_or_default() {
                if c < n && !seen[c] {
                    seen[c] = true;
                    parent[c] = Some(at);
                    order.push(c);
                }
            }
            i += 1;
        }
    }
    let mut channels: HashMap<usize, NodeChannels<'a>> = HashMap::new();
    if let Some(first) = scene.animations.first() {
        if scene.animations.len() > 1 {
            notes.add("clips", || {
                format!(
                    "the glTF has {} animations; RSM holds one: the first ({:?}) is written",
                    scene.animations.len(),
                    first.name
                )
            });
        }
        for c in &first.channels {
            match (c.target, &c.values) {
                (ChannelTarget::Node(node), ChannelValues::Translation(_)) => {
                    channels.entry(node).or_default().t = Some(c)
                }
                (ChannelTarget::Node(node), ChannelValues::Rotation(_)) => {
                    channels.entry(node).or_default().r = Some(c)
                }
                (ChannelTarget::Node(node), ChannelValues::Scale(_)) => channels.entry(node).or_default().s = Some(c),
                (ChannelTarget::Node(_), ChannelValues::MorphWeights(_)) => {
                    notes.add("morph-anim", || "morph weight animation dropped (RSM has no morph targets)".into())
                }
                _ => notes.add("texture-anim", || {
                    "texture transform animation dropped (not written back to RSM 2.3 texture key frames yet)".into()
                }),
            }
        }
    }
    let mut world = vec![DMat4::IDENTITY; n];
    for &at in &order {
        let local = scene.nodes.get(at).map_or(DMat4::IDENTITY, |node| transform_matrix(&node.transform));
        let up = parent[at].and_then(|p| world.get(p).copied()).unwrap_or(DMat4::IDENTITY);
        world[at] = up * local;
    }
    Graph {
        scene,
        parent,
        order,
        channels,
        z: DMat4::IDENTITY,
        k: DMat4::IDENTITY,
        mirror_k: false,
        top: Frame::Top,
        world,
    }
}

/// The root `model` relic's RSM export puts above a model: `Some(true)` for a 1.x model (`S(1,−1,1)·T(c)`),
/// `Some(false)` for a 2.x one (identity).
fn wrapper(scene: &Scene) -> Option<(usize, bool)> {
    let [root] = scene.roots.as_slice() else { return None };
    let node = scene.nodes.get(*root)?;
    if node.name != "model" || node.mesh.is_some() || node.skin.is_some() || node.children.is_empty() {
        return None;
    }
    let m = transform_matrix(&node.transform);
    let lin = DMat3::from_mat4(m);
    let near = |a: DMat3, b: DMat3| a.to_cols_array().iter().zip(b.to_cols_array()).all(|(x, y)| (x - y).abs() < 1e-6);
    if near(lin, DMat3::IDENTITY) {
        Some((*root, false))
    } else if near(lin, DMat3::from_diagonal(DVec3::new(1.0, -1.0, 1.0))) {
        Some((*root, true))
    } else {
        None
    }
}

// ---------------------------------------------------------------------------------------------------------
// Groups: the glTF nodes that make one RSM node

struct Group {
    /// The node the RSM node is named after (its top).
    top: usize,
    /// The member carrying the mesh, if any.
    holder: Option<usize>,
    /// The member the node's children hang from in 2.x (its frame there).
    frame2: usize,
    parent: Option<usize>,
    name: String,
    /// Geometry in another frame (rigidly bound skin parts): (frame node, triangles).
    skin_parts: Vec<SkinPart>,
}

struct SkinPart {
    joint: usize,
    corners: Vec<Corner>,
}

fn is_helper(scene: &Scene, top: usize, holder: usize, child: usize) -> bool {
    let (Some(t), Some(h), Some(c)) = (scene.nodes.get(top), scene.nodes.get(holder), scene.nodes.get(child)) else {
        return false;
    };
    h.mesh.is_none()
        && h.skin.is_none()
        && c.skin.is_none()
        && (c.name == format!("{} (shear)", h.name) || HELPERS.iter().any(|s| c.name == format!("{}{s}", t.name)))
}

fn groups(g: &Graph<'_>, skip: Option<usize>) -> (Vec<Group>, Vec<Option<usize>>) {
    let scene = g.scene;
    let mut group_of: Vec<Option<usize>> = vec![None; scene.nodes.len()];
    let mut out: Vec<Group> = Vec::new();
    for &n in &g.order {
        if Some(n) == skip || group_of.get(n).copied().flatten().is_some() {
            continue;
        }
        let mut members = vec![n];
        let mut holder = n;
        loop {
            let children = scene.nodes.get(holder).map(|x| x.children.as_slice()).unwrap_or_default();
            let Some(&c) =
                children.iter().find(|&&c| is_helper(scene, n, holder, c) && g.parent.get(c) == Some(&Some(holder)))
            else {
                break;
            };
            members.push(c);
            holder = c;
        }
        let mesh_member = members.iter().copied().find(|&m| scene.nodes.get(m).is_some_and(|x| x.mesh.is_some()));
        let member_set: HashSet<usize> = members.iter().copied().collect();
        let has_children =
            |m: usize| scene.nodes.get(m).is_some_and(|x| x.children.iter().any(|c| !member_set.contains(c)));
        let frame2 = members.iter().copied().find(|&m| has_children(m)).or(mesh_member).unwrap_or(holder);
        let index = out.len();
        for &m in &members {
            if let Some(slot) = group_of.get_mut(m) {
                *slot = Some(index);
            }
        }
        let parent = g.parent.get(n).copied().flatten().and_then(|p| group_of.get(p).copied().flatten());
        out.push(Group {
            top: n,
            holder: mesh_member,
            frame2,
            parent,
            name: scene.nodes.get(n).map(|x| x.name.clone()).unwrap_or_default(),
            skin_parts: Vec::new(),
        });
    }
    (out, group_of)
}

// ---------------------------------------------------------------------------------------------------------
// Skins

/// Splits a skinned mesh: each triangle to the joint that weighs most on its first corner, in that
/// joint's bind frame (`inverse bind matrix · v`, glTF space: see [`transform_corners`]).
fn skin_parts(g: &Graph<'_>, node: usize, notes: &mut Notes) -> Vec<(usize, Vec<Corner>)> {
    let scene = g.scene;
    let Some(n) = scene.nodes.get(node) else { return Vec::new() };
    let (Some(mesh), Some(skin)) = (n.mesh.and_then(|m| scene.meshes.get(m)), n.skin.and_then(|s| scene.skins.get(s)))
    else {
        return Vec::new();
    };
    let label = mesh_label(scene, n.mesh.unwrap_or(0), node);
    notes.mesh_triangles(&label, triangle_count(mesh));
    notes.add("skin", || {
        format!(
            "skinned mesh '{}' (node '{}') bound rigidly: each triangle follows the joint that weighs most on its first corner",
            mesh.name, n.name
        )
    });
    let mut parts: HashMap<usize, Vec<Corner>> = HashMap::new();
    let mut order = Vec::new();
    for p in &mesh.primitives {
        note_dropped_attributes(p, notes);
        // Triangles by skin slot (a slot is a joint and its inverse bind matrix), in order of first use.
        let mut by_slot: HashMap<usize, Vec<u32>> = HashMap::new();
        let mut slots = Vec::new();
        for tri in p.indices.chunks_exact(3) {
            let Some(&first) = tri.first() else { continue };
            let slot = p
                .joints
                .get(first as usize)
                .zip(p.weights.get(first as usize))
                .and_then(|(j, w)| (0..4).max_by(|&a, &b| w[a].total_cmp(&w[b])).map(|k| usize::from(j[k])))
                .unwrap_or(0);
            if !by_slot.contains_key(&slot) {
                slots.push(slot);
            }
            by_slot.entry(slot).or_default().extend_from_slice(tri);
        }
        for slot in slots {
            let Some(&joint) = skin.joints.get(slot) else {
                let count = by_slot.get(&slot).map_or(0, |t| t.len() / 3);
                let joints = skin.joints.len();
                notes.drop_triangles(&label, "joint past the skin", count, || {
                    let s = if joints == 1 { "" } else { "s" };
                    format!("JOINTS_0 {slot} is past the skin's {joints} joint{s}")
                });
                continue;
            };
            let ibm = skin
                .inverse_bind_matrices
                .get(slot)
                .map_or(DMat4::IDENTITY, |m| DMat4::from_cols_array(&m.map(f64::from)));
            let indices = by_slot.remove(&slot).unwrap_or_default();
            let corners = primitive_corners(scene, p, &indices, ibm, notes, &label);
            if !parts.contains_key(&joint) {
                order.push(joint);
            }
            parts.entry(joint).or_default().extend(corners);
        }
    }
    order.into_iter().filter_map(|j| parts.remove(&j).map(|c| (j, c))).collect()
}

// ---------------------------------------------------------------------------------------------------------
// The model

/// Scene data relic's export keeps in `scenes[0].extras["ro-rsm"]`.
fn extra_f64(scene: &Scene, key: &str) -> Option<f64> {
    scene.extras.get(FORMAT_ID).and_then(|x| x.get(key)).and_then(serde_json::Value::as_f64)
}

/// A glTF file's model: [`crate::import::gltf::read_noted`] then [`from_scene`], the reader's notes (what it
/// dropped: `TANGENT`, `TEXCOORD_1`, …) first.
pub fn from_gltf(content: &[u8], path: &std::path::Path, version: Version) -> Result<Packed> {
    let mut notes = Vec::new();
    let scene = crate::import::gltf::read_to_pack(content, path, FORMAT_ID, &mut |n| notes.push(n))?;
    let mut packed = from_scene(&scene, version)?;
    refuse_non_finite(&packed.rsm)?;
    notes.append(&mut packed.notes);
    packed.notes = notes;
    Ok(packed)
}

/// Refuses an RSM holding a number that is not finite: the glTF reader refuses non-finite input, but finite
/// node transforms can overflow f32 when multiplied into a 2.x world matrix. Names the node (RSM mesh).
fn refuse_non_finite(rsm: &super::Rsm) -> Result<()> {
    for mesh in &rsm.meshes {
        let legacy = mesh.legacy.as_ref();
        let fields: [(&str, Vec<f32>); 7] = [
            ("matrix", mesh.matrix.to_vec()),
            ("position", mesh.position.to_vec()),
            (
                "offset, rotation and scale",
                legacy.map_or_else(Vec::new, |l| {
                    [&l.offset[..], &[l.rotation_angle], &l.rotation_axis[..], &l.scale[..]].concat()
                }),
            ),
            ("vertices", mesh.vertices.iter().flatten().copied().collect()),
            ("texture coordinates", mesh.tex_vertices.iter().flat_map(|t| t.uv).collect()),
            (
                "keys",
                mesh.rotation_keys
                    .iter()
                    .flat_map(|k| k.quaternion)
                    .chain(mesh.position_keys.iter().flat_map(|k| k.position))
                    .chain(mesh.scale_keys.iter().flat_map(|k| k.scale))
                    .collect(),
            ),
            (
                "texture keys",
                mesh.texture_animations
                    .iter()
                    .flat_map(|a| &a.channels)
                    .flat_map(|c| &c.keys)
                    .map(|k| k.value)
                    .collect(),
            ),
        ];
        if let Some((field, _)) = fields.iter().find(|(_, values)| values.iter().any(|v| !v.is_finite())) {
            return Err(Error::Refused(format!(
                "{FORMAT_ID}: node `{}`: its {field} would not be finite once the glTF's node transforms are \
                 multiplied (an RSM holding infinities): scale the model down",
                mesh.name.text
            )));
        }
    }
    Ok(())
}

/// The RSM of `version` (1.4 or 2.3; others are written by the same rules) whose relic conversion gives
/// the scene back (see the module documentation for the rules and what is dropped).
pub fn from_scene(scene: &Scene, version: Version) -> Result<Packed> {
    let mut notes = Notes::default();
    let v1 = !version.is_rsm2();
    let mut g = graph(scene, &mut notes);
    let wrap = wrapper(scene);
    let f = flip();
    let (z, k) = match (v1, wrap) {
        (true, Some((w, true))) => (g.world.get(w).copied().unwrap_or(f).inverse(), DMat4::IDENTITY),
        (true, _) => (f, f),
        (false, Some((_, true))) => (DMat4::IDENTITY, f),
        (false, _) => (DMat4::IDENTITY, DMat4::IDENTITY),
    };
    g.z = z;
    g.k = k;
    g.mirror_k = k != DMat4::IDENTITY;
    g.top = match wrap {
        Some((w, _)) if near_identity(z * g.world.get(w).copied().unwrap_or(DMat4::IDENTITY) * k) => Frame::Node(w),
        _ => Frame::Top,
    };
    let (mut groups, group_of) = groups(&g, wrap.map(|w| w.0));
    if groups.is_empty() {
        return Err(Error::Refused(format!("{FORMAT_ID}: the glTF has no nodes to write")));
    }
    // Skinned meshes, bound rigidly to their joints.
    for &n in &g.order {
        for (joint, corners) in skin_parts(&g, n, &mut notes) {
            match group_of.get(joint).copied().flatten().and_then(|i| groups.get_mut(i)) {
                Some(group) => group.skin_parts.push(SkinPart { joint, corners }),
                None => {
                    let label = mesh_label(scene, scene.nodes.get(n).and_then(|x| x.mesh).unwrap_or(0), n);
                    notes.drop_triangles(&label, "joint outside the scene", corners.len() / 3, || {
                        format!("they are bound to node {joint}, which the scene does not write")
                    });
                }
            }
        }
    }

    let per_second = if v1 {
        1000.0
    } else {
        let fps = extra_f64(scene, "frame_rate").filter(|f| f.is_finite() && *f > 0.0 && *f <= 1000.0);
        fps.unwrap_or(f64::from(DEFAULT_FPS))
    };
    let duration = scene
        .animations
        .first()
        .map(|a| {
            a.channels
                .iter()
                .filter(|c| matches!(c.target, ChannelTarget::Node(_)))
                .filter_map(|c| c.times.last())
                .fold(0.0f64, |m, &t| m.max(f64::from(t)))
        })
        .unwrap_or(0.0);
    let length_units = (duration * per_second).round();
    if !(0.0..=f64::from(i32::MAX)).contains(&length_units) {
        return Err(limit("animation_length", format!("a clip of {duration} s is past the int32 length of RSM")));
    }

    // Names.
    let mut taken = Taken::default();
    let names: Vec<String> = groups.iter().map(|gr| fit_name(&gr.name, v1, &mut notes)).collect();
    let roots: Vec<usize> = (0..groups.len()).filter(|&i| groups[i].parent.is_none()).collect();
    let extra_root = v1 && roots.len() != 1;
    let root_name = extra_root.then(|| unique("root".into(), &mut taken, v1, &mut notes));
    if extra_root {
        notes.add("roots", || {
            format!(
                "{} root nodes: RSM 1.x has one main node, so they hang below an added empty node 'root'",
                roots.len()
            )
        });
    }
    for (gr, name) in groups.iter_mut().zip(names) {
        gr.name = unique(name, &mut taken, v1, &mut notes);
    }

    let mut rsm = Rsm::new(version);
    rsm.animation_length = length_units as i32;
    rsm.alpha = rsm.alpha.map(|a| extra_f64(scene, "alpha").map_or(a, |x| x.clamp(0.0, 255.0) as u8));
    if !v1 {
        rsm.frame_rate = Some(per_second as f32);
    }
    if let Some(name) = &root_name {
        rsm.meshes.push(Mesh::new(version, name.clone()));
    }

    let mut shading = Shading { any_normals: false, all_flat: true };
    let mut texture_images: Vec<(String, usize)> = Vec::new();
    let mut image_paths: HashSet<String> = HashSet::new();
    let mut global: Vec<String> = Vec::new();
    let mut global_index: HashMap<String, usize> = HashMap::new();
    let mut untextured = false;
    // 1.x: each group's A world and whether it is exact; 2.x: each group's world.
    let mut world_of: Vec<DMat4> = vec![DMat4::IDENTITY; groups.len()];
    let mut exact_of: Vec<bool> = vec![true; groups.len()];
    let mut shear_noted = false;
    // The glTF node each written mesh comes from (its group's top).
    let mut written_from: Vec<usize> = Vec::with_capacity(groups.len());
    for gi in 0..groups.len() {
        let gr = &groups[gi];
        let what = format!("node '{}'", gr.name);
        let mut mesh = Mesh::new(version, gr.name.clone());
        if let Some(p) = gr.parent.and_then(|p| groups.get(p)) {
            mesh.parent_name = Name::new(p.name.clone());
        } else if let Some(r) = &root_name {
            mesh.parent_name = Name::new(r.clone());
        }
        let parent_frame = |v1: bool| {
            gr.parent.and_then(|p| groups.get(p)).map_or(g.top, |p| Frame::Node(if v1 { p.top } else { p.frame2 }))
        };
        let parent_world = gr.parent.and_then(|p| world_of.get(p).copied()).unwrap_or(DMat4::IDENTITY);
        let parent_exact = gr.parent.and_then(|p| exact_of.get(p).copied()).unwrap_or(true);
        // Where the vertices are measured from, and the file transform of the mesh (for mirroring).
        let (frame_node, mesh_world);
        if v1 {
            let pf = parent_frame(true);
            let (trs, exact) = if parent_exact {
                g.rel_trs(pf, gr.top, None)
            } else {
                Trs::of(parent_world.inverse() * g.file_world(Frame::Node(gr.top)))
            };
            if !exact && !shear_noted {
                shear_noted = true;
                notes.add("shear-1x", || {
                    format!("{what}: a sheared node transform; RSM 1.x passes T·R·S to children, so they are placed approximately")
                });
            }
            let a_world = parent_world * trs.matrix();
            world_of[gi] = a_world;
            exact_of[gi] = exact && parent_exact;
            let b = match gr.holder {
                Some(h) if exact_of[gi] => g.rel(Frame::Node(gr.top), h, None),
                Some(h) => a_world.inverse() * g.file_world(Frame::Node(h)),
                None => DMat4::IDENTITY,
            };
            let legacy = mesh.legacy.get_or_insert_with(LegacyPlacement::default);
            legacy.offset = f3(b.w_axis.truncate());
            legacy.scale = f3(trs.s);
            mesh.matrix = mat9(b);
            mesh.position = f3(trs.t);
            let (axis, angle) = trs.r.to_axis_angle();
            let angle = if angle > std::f64::consts::PI { angle - 2.0 * std::f64::consts::PI } else { angle };
            if angle.abs() > 0.01 {
                legacy.rotation_angle = angle as f32;
                legacy.rotation_axis = f3(axis);
            } else {
                legacy.rotation_angle = 0.0;
                legacy.rotation_axis = [0.0, 0.0, 1.0];
            }
            // Rotation keys.
            let [tt, rt, st] = g.times(pf, gr.top);
            if !tt.is_empty() || !st.is_empty() {
                let moving = union(&[&tt, &st]).into_iter().any(|t| {
                    let (x, _) = g.rel_trs(pf, gr.top, Some(t));
                    !vec_eq(&x.t, &trs.t) || !vec_eq(&x.s, &trs.s)
                });
                if moving {
                    notes.add("anim-1x", || {
                        "RSM 1.4 holds rotation keys only: translation and scale animation dropped (write 2.3: --version 0x203)"
                            .into()
                    });
                }
            }
            let samples: Vec<(f64, DQuat)> = rt.iter().map(|&t| (t, g.rel_trs(pf, gr.top, Some(t)).0.r)).collect();
            let rot = match &g.added_keys(pf, gr.top)[1] {
                Some(added) => exact_keys(samples, added, per_second, None, DQuat::slerp, quat_eq, &what)?,
                None => keys(samples, per_second, None, quat_eq, &what)?,
            };
            mesh.rotation_keys =
                rot.into_iter().map(|(frame, q)| RotationKey { frame, quaternion: quat4(q) }).collect();
            if mesh.rotation_keys.is_empty() && angle.abs() <= 0.01 && angle.abs() > 1e-12 {
                mesh.rotation_keys.push(RotationKey { frame: 0, quaternion: quat4(trs.r) });
            }
            frame_node = gr.top;
            mesh_world = a_world * b;
        } else {
            let pf = parent_frame(false);
            let l0 = g.rel(pf, gr.frame2, None);
            let w = parent_world * l0;
            world_of[gi] = w;
            mesh.matrix = mat9(w);
            mesh.position = f3(w.w_axis.truncate());
            animate_v2(&g, pf, gr.frame2, l0, per_second, &mut mesh, &mut notes, &what)?;
            frame_node = gr.frame2;
            mesh_world = w;
        }

        // Geometry: the holder's mesh in its frame, skin parts in their joints'.
        let mut corners: Vec<Corner> = Vec::new();
        let base = if v1 {
            DMat4::IDENTITY
        } else {
            gr.holder.map_or(DMat4::IDENTITY, |h| g.rel(Frame::Node(frame_node), h, None))
        };
        let b_inv = if v1 { DMat3::from_cols_array(&mesh.matrix.map(f64::from)) } else { DMat3::IDENTITY };
        let b_full = if v1 {
            let mut m = DMat4::from_mat3(b_inv);
            m.w_axis = DVec4::from((d3(mesh.legacy.map_or([0.0; 3], |l| l.offset)), 1.0));
            m
        } else {
            DMat4::IDENTITY
        };
        if let Some(h) = gr.holder {
            let node = scene.nodes.get(h);
            let smesh = node.and_then(|n| n.mesh).and_then(|m| scene.meshes.get(m));
            if let Some(smesh) = smesh.filter(|_| node.is_some_and(|n| n.skin.is_none())) {
                let mwhat = mesh_label(scene, node.and_then(|n| n.mesh).unwrap_or(0), h);
                notes.mesh_triangles(&mwhat, triangle_count(smesh));
                let mut per_primitive = Vec::with_capacity(smesh.primitives.len());
                for p in &smesh.primitives {
                    note_dropped_attributes(p, &mut notes);
                    per_primitive.push(primitive_corners(scene, p, &p.indices, base * g.k, &mut notes, &mwhat));
                }
                corners.extend(stored_face_order(smesh, per_primitive));
            }
        }
        for part in &gr.skin_parts {
            let frame_to_joint = g.rel(Frame::Node(frame_node), part.joint, None);
            let bake = if v1 { b_full.inverse() * frame_to_joint } else { frame_to_joint };
            let mut c = part.corners.clone();
            transform_corners(&mut c, bake * g.k);
            corners.extend(c);
        }
        let texture_of = |m: Option<usize>| m.and_then(|m| material_texture(scene, m)).map(|t| t.0);
        let double_sided = |m: Option<usize>| m.and_then(|m| scene.materials.get(m)).is_some_and(|m| m.double_sided);
        // Reversed where relic's reader reverses (a mirroring file transform), and where the conversion
        // between the glTF and the file mirrors (K = S(1,−1,1)): the same world positions then front the
        // other way.
        let reverse = (mesh_world.determinant() < 0.0) != g.mirror_k;
        let built = build_mesh(&corners, &texture_of, &double_sided, reverse, &mut shading, &what)?;
        let mut materials_seen: HashSet<Option<usize>> = HashSet::new();
        for c in corners.iter().step_by(3) {
            if !materials_seen.insert(c.material) {
                continue;
            }
            if let Some((path, Some(image))) = c.material.and_then(|m| material_texture(scene, m)) {
                if image_paths.insert(path.clone()) {
                    texture_images.push((path, image));
                }
            }
        }
        // Texture slots: named ones first in slot order, faces without a texture past the list.
        let named: Vec<&String> = built.slots.iter().flatten().collect();
        let remap: Vec<usize> = {
            let mut next = 0;
            built
                .slots
                .iter()
                .map(|s| {
                    if s.is_some() {
                        next += 1;
                        next - 1
                    } else {
                        named.len()
                    }
                })
                .collect()
        };
        untextured |= built.slots.iter().any(Option::is_none);
        let mut faces = built.faces;
        for f in &mut faces {
            f.texture = remap.get(usize::from(f.texture)).and_then(|&s| u16::try_from(s).ok()).unwrap_or(u16::MAX);
        }
        if v1 {
            mesh.texture_indices = named
                .iter()
                .map(|n| {
                    let at = *global_index.entry((*n).clone()).or_insert_with(|| {
                        global.push((*n).clone());
                        global.len() - 1
                    });
                    i32::try_from(at).unwrap_or(i32::MAX)
                })
                .collect();
        } else {
            mesh.textures = named.iter().map(|n| Name::new((*n).clone())).collect();
        }
        mesh.vertices = built.vertices;
        mesh.tex_vertices = built
            .uvs
            .into_iter()
            .map(|uv| TexVertex { color: version.has_vertex_colors().then_some(0xFFFF_FFFF), uv })
            .collect();
        if !version.has_smooth_groups() {
            faces.iter_mut().for_each(|f| f.smooth_groups.clear());
        }
        mesh.faces = faces;
        rsm.meshes.push(mesh);
        written_from.push(gr.top);
    }
    // Meshes in the order of their glTF nodes (relic's export puts them in file order), not the tree's.
    let first_group_mesh = rsm.meshes.len() - written_from.len();
    let mut ordered: Vec<(usize, Mesh)> = written_from.into_iter().zip(rsm.meshes.drain(first_group_mesh..)).collect();
    ordered.sort_by_key(|x| x.0);
    rsm.meshes.extend(ordered.into_iter().map(|x| x.1));
    if untextured {
        notes.add("untextured", || {
            "faces without a texture point past their mesh's texture list (relic reads them untextured; give them a texture for the game)".into()
        });
    }
    // The shade type from the normals; relic's export's own (scene extras) where the normals agree with it
    // (smooth shading of coplanar faces gives flat normals).
    let stored = extra_f64(scene, "shade_type");
    rsm.shade_type = if !shading.any_normals {
        0
    } else if shading.all_flat && stored != Some(2.0) {
        1
    } else {
        2
    };
    if v1 {
        for t in &global {
            let fits = encode_text(t, false).is_some_and(|b| b.len() <= FIXED_TEXT);
            if !fits {
                return Err(limit(
                    "textures",
                    format!("texture path '{t}' does not fit RSM 1.x's 40-byte CP949 field; rename it or write 2.3"),
                ));
            }
        }
        rsm.textures = global.into_iter().map(Name::new).collect();
        rsm.root_names = vec![Name::new(root_name.clone().unwrap_or_else(|| {
            roots.first().and_then(|&r| groups.get(r)).map(|gr| gr.name.clone()).unwrap_or_default()
        }))];
    } else {
        let mut tops: Vec<&Group> = roots.iter().filter_map(|&r| groups.get(r)).collect();
        tops.sort_by_key(|gr| gr.top);
        rsm.root_names = tops.into_iter().map(|gr| Name::new(gr.name.clone())).collect();
    }

    // Texture images the glTF embeds, by file name.
    let mut textures: Vec<TextureFile> = Vec::new();
    let mut file_names: HashSet<String> = HashSet::new();
    for (path, image) in texture_images {
        let Some(t) = scene.textures.get(image) else { continue };
        let file_name = path.rsplit(['\\', '/']).next().unwrap_or(&path).to_string();
        if file_name.is_empty() || !file_names.insert(file_name.to_ascii_lowercase()) {
            notes.add("texture-name-clash", || {
                format!("texture '{path}': another texture has its file name; not written")
            });
            continue;
        }
        if let Some(bytes) = encode_texture(&path, &t.image, &mut notes) {
            textures.push(TextureFile { path, file_name, bytes });
        }
    }
    Ok(Packed { rsm, textures, notes: notes.finish() })
}

/// The triangles of a mesh's primitives, in the face order relic's export stored in the mesh's extras
/// (`"ro-rsm": {"face_runs": [[primitive, count], …]}`, written when faces of several materials
/// interleave), else primitive after primitive. Runs that do not add up to the primitives' triangles (an
/// edited mesh) are ignored.
fn stored_face_order(mesh: &crate::asset::Mesh, per_primitive: Vec<Vec<Corner>>) -> Vec<Corner> {
    let runs: Option<Vec<(usize, usize)>> = mesh.extras[FORMAT_ID]["face_runs"].as_array().map(|runs| {
        runs.iter()
            .filter_map(|r| {
                let at = usize::try_from(r.get(0)?.as_u64()?).ok()?;
                let count = usize::try_from(r.get(1)?.as_u64()?).ok()?;
                Some((at, count))
            })
            .collect()
    });
    let fits = runs.as_ref().is_some_and(|runs| {
        let mut total = vec![0usize; per_primitive.len()];
        for &(at, count) in runs {
            match total.get_mut(at) {
                Some(t) => *t = t.saturating_add(count),
                None => return false,
            }
        }
        total.iter().zip(&per_primitive).all(|(&t, c)| Some(t) == c.len().checked_div(3))
    });
    let (Some(runs), true) = (runs, fits) else { return per_primitive.concat() };
    let mut next = vec![0usize; per_primitive.len()];
    let mut out = Vec::with_capacity(per_primitive.iter().map(Vec::len).sum());
    for (at, count) in runs {
        let (Some(corners), Some(from)) = (per_primitive.get(at), next.get_mut(at)) else { continue };
        out.extend(corners.iter().skip(*from * 3).take(count * 3).copied());
        *from += count;
    }
    out
}

fn quat4(q: DQuat) -> [f32; 4] {
    [q.x as f32, q.y as f32, q.z as f32, q.w as f32]
}

/// How a 2.x node's linear part moves relative to its rest.
enum Linear {
    Still,
    /// Only a scale after the rest: `L(t) = L0·S(d(t))`.
    Scale,
    General,
}

/// 2.x keys of one node: position keys for a moving translation; rotation keys (and scale keys) for a
/// moving rotation; scale keys relative to the rest when only the scale moves.
#[allow(clippy::too_many_arguments)]
fn animate_v2(
    g: &Graph<'_>,
    pf: Frame,
    target: usize,
    l0: DMat4,
    per_second: f64,
    mesh: &mut Mesh,
    notes: &mut Notes,
    what: &str,
) -> Result<()> {
    let [tt, rt, st] = g.times(pf, target);
    if tt.is_empty() && rt.is_empty() && st.is_empty() {
        return Ok(());
    }
    // Channels of relic's own export: their keys are the file's, one for one (see `exact_keys`).
    let [added_t, added_r, added_s] = g.added_keys(pf, target);
    let all = union(&[&tt, &rt, &st, &vec![0.0]]);
    let t0 = l0.w_axis.truncate();
    let lin0 = DMat3::from_mat4(l0);
    let inv0 = lin0.inverse();
    let mut linear = Linear::Still;
    let mut moves = false;
    for &t in &all {
        let l = g.rel(pf, target, Some(t));
        moves |= !vec_eq(&l.w_axis.truncate(), &t0);
        let d = inv0 * DMat3::from_mat4(l);
        let cols = d.to_cols_array();
        let off = [cols[1], cols[2], cols[3], cols[5], cols[6], cols[7]];
        let diag = DVec3::new(cols[0], cols[4], cols[8]);
        let tol = 1e-6 * diag.abs().max_element().max(1.0);
        // A rotation channel always takes rotation keys (a half turn is a diagonal matrix too).
        if off.iter().any(|x| x.abs() > tol) || (!rt.is_empty() && !vec_eq(&diag, &DVec3::ONE)) {
            linear = Linear::General;
        } else if !vec_eq(&diag, &DVec3::ONE) && matches!(linear, Linear::Still) {
            linear = Linear::Scale;
        }
    }
    // The file had these keys even where they do not move the node.
    moves |= added_t.is_some() && !tt.is_empty();
    if added_r.is_some() && !rt.is_empty() {
        linear = Linear::General;
    } else if added_s.is_some() && !st.is_empty() && matches!(linear, Linear::Still) {
        linear = Linear::Scale;
    }
    let with_zero = |v: &Vec<f64>| if v.is_empty() { all.clone() } else { union(&[v, &vec![0.0]]) };
    let vec_lerp = |a: DVec3, b: DVec3, f: f64| a.lerp(b, f);
    if moves {
        let times = if added_t.is_some() { tt.clone() } else { with_zero(&tt) };
        let samples = times.into_iter().map(|t| (t, g.rel(pf, target, Some(t)).w_axis.truncate())).collect();
        let found = match &added_t {
            Some(added) => exact_keys(samples, added, per_second, Some(t0), vec_lerp, vec_eq, what)?,
            None => keys(samples, per_second, Some(t0), vec_eq, what)?,
        };
        mesh.position_keys =
            found.into_iter().map(|(frame, p)| PositionKey { frame, position: f3(p), data: 0 }).collect();
    }
    match linear {
        Linear::Still => {}
        Linear::Scale => {
            let times = if added_s.is_some() { st.clone() } else { with_zero(&st) };
            let samples = times
                .into_iter()
                .map(|t| {
                    let d = inv0 * DMat3::from_mat4(g.rel(pf, target, Some(t)));
                    (t, DVec3::new(d.x_axis.x, d.y_axis.y, d.z_axis.z))
                })
                .collect();
            let found = match &added_s {
                Some(added) => exact_keys(samples, added, per_second, Some(DVec3::ONE), vec_lerp, vec_eq, what)?,
                None => keys(samples, per_second, Some(DVec3::ONE), vec_eq, what)?,
            };
            mesh.scale_keys = found.into_iter().map(|(frame, s)| ScaleKey { frame, scale: f3(s), data: 0.0 }).collect();
        }
        Linear::General => {
            // Each property at its own key times (a jump of one is no jump of the other).
            let mut sheared = false;
            let mut rs = Vec::new();
            let mut ss = Vec::new();
            let (r_times, s_times) = (
                if added_r.is_some() { rt.clone() } else { with_zero(&rt) },
                if added_s.is_some() && !st.is_empty() { st.clone() } else { with_zero(&st) },
            );
            for t in r_times {
                let (trs, exact) = g.rel_trs(pf, target, Some(t));
                sheared |= !exact;
                rs.push((t, trs.r));
            }
            for t in s_times {
                let (trs, exact) = g.rel_trs(pf, target, Some(t));
                sheared |= !exact;
                ss.push((t, trs.s));
            }
            if sheared {
                notes
                    .add("shear-anim", || format!("{what}: an animated node under a shear; its keys are approximated"));
            }
            let scaled = ss.iter().any(|(_, s)| !vec_eq(s, &DVec3::ONE)) || (added_s.is_some() && !st.is_empty());
            let found = match &added_r {
                Some(added) => exact_keys(rs, added, per_second, Some(DQuat::IDENTITY), DQuat::slerp, quat_eq, what)?,
                None => keys(rs, per_second, Some(DQuat::IDENTITY), quat_eq, what)?,
            };
            mesh.rotation_keys =
                found.into_iter().map(|(frame, q)| RotationKey { frame, quaternion: quat4(q) }).collect();
            if mesh.rotation_keys.is_empty() {
                // Identity throughout: still a key, so that L = R·S holds and not the rest matrix.
                mesh.rotation_keys.push(RotationKey { frame: 0, quaternion: [0.0, 0.0, 0.0, 1.0] });
            }
            if let (true, Some(added)) = (scaled, &added_s) {
                let k = exact_keys(ss, added, per_second, Some(DVec3::ONE), vec_lerp, vec_eq, what)?;
                mesh.scale_keys = k.into_iter().map(|(frame, s)| ScaleKey { frame, scale: f3(s), data: 0.0 }).collect();
            } else if scaled {
                let mut k = keys(ss, per_second, None, vec_eq, what)?;
                if k.first().is_some_and(|x| x.0 > 0) {
                    let first = k[0].1;
                    k.insert(0, (0, first));
                }
                mesh.scale_keys = k.into_iter().map(|(frame, s)| ScaleKey { frame, scale: f3(s), data: 0.0 }).collect();
            }
        }
    }
    Ok(())
}
