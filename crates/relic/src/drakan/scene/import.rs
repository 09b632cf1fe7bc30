//! glTF → Drakan static model: `relic pack drakan-srsc model.glb -o new.mod` writes a `.mod` SRSC holding one
//! model (issue 29). Spec: "Model (0x0200 - 0x0209)" of the Drakan SRSC specification, with docs/formats/drakan.md#model;
//! what the engine needs is what OpenDrakan's model loader needs: 0x0200, then 0x0203, 0x0206 and 0x0204
//! among the next 8 records of the model's id (0x0207 and 0x0208 optional).
//!
//! Records written, in this order, all with the model's id and group 0: 0x0200 (name, shading flags),
//! 0x0203 (vertices), 0x0204 (polygons: triangles, and quads rebuilt), 0x0206 (texture list), 0x0207 (bounds).
//!
//! - Axes and units: glTF's are Drakan's as relic reads them (Y up, world units; see [`super::to_gltf`]), so
//!   positions are written as the scene places them. Triangles are written reversed (Drakan polygons are
//!   clockwise from the front, glTF's counter-clockwise) and texture `v` becomes `1 − v` (rows are stored
//!   bottom-up): the inverse of [`super::model`]. Two consecutive triangles of a primitive that share a
//!   diagonal (the same positions and UVs), lie in one plane and make a convex quad are written as that quad
//!   (relic's export fans each quad from its first corner; the game's fan gives the same two triangles);
//!   every other polygon is a triangle.
//! - One model: every mesh the scene's nodes place (reached from the scene's roots; nodes outside the scene,
//!   such as relic's further LODs of a character, are left out) is merged into it, each primitive's vertices
//!   moved by its node's world transform (noted when one is not the identity; a mirroring one also swaps
//!   the triangles' order, so they still face out); the node hierarchy is not kept (noted). A skinned mesh
//!   is written as the scene shows it at rest (each vertex moved by its joints' world × inverse bind
//!   matrices, weighted; a joint past the skin's counts for nothing, the vertices so bound counted in one
//!   note), its joints and weights dropped (noted): relic writes static models, not characters (0x0208). Clips are dropped (noted): a static model has no animation.
//! - Vertices: corners at the same position (bit for bit, after the transform) share one 0x0203 vertex;
//!   UVs live on the polygon corners. UV set 0 is kept; a primitive without UVs gets (0, 0) (noted); a
//!   material's `KHR_texture_transform` is applied to them (noted). Normals are dropped (Drakan shades
//!   from the 0x0200 flags); vertex colours, morph targets and other attributes are dropped, one note per
//!   kind (the glTF reader notes those it does not read: `TANGENT`, `TEXCOORD_1`, …).
//! - Limits: 65,535 vertices (u16 count of 0x0203, u16 polygon corner indices), 65,535 polygons (u16 count of
//!   0x0204), 65,535 textures (u16 polygon texture index): more is refused, naming the mesh and the limit. A
//!   non-finite position is refused naming the mesh and node.
//! - Name: the scene's `extras.model` (relic's export), else the one mesh node's name, else the output's
//!   stem; Windows-1252 (a character it lacks becomes `_`, noted). Id: `extras.id`, else 1.
//! - Shading (0x0200): `extras.shading.value` of the scene or a material (relic's export), else no shading
//!   (0x8000) when every material is unlit, else smooth (0x8002) (noted). 0x8000 is always set (spec).
//! - Textures (0x0206): a material relic exported keeps the reference it stored (`extras.texture_ref`, the
//!   list ordered by `extras.texture_index`), so the model points at the same `.txd` records. A material
//!   without one is given a new texture record in a `.txd` written beside the output (`<stem>.txd`, the
//!   `.txd` of the output's own database, index 0): its base-colour image, else a 32 × 32 texture of its
//!   base colour (the engine indexes the list with every polygon's texture index, so every polygon needs
//!   one). New textures are 24 bpp, or 16 bpp 4:4:4+4 when the image has alpha, zlib level 9; their ids
//!   follow the highest id the list already names in database 0 (noted: merge them into your database's
//!   `.txd`). Double-sided materials set polygon flag 0x0002.
//! - Bounds (0x0207), computed from the written vertices: the sphere's centre is the centre of the axis-
//!   aligned box, its radius the largest distance from it to a vertex (rounded up to the next f32); the box
//!   is that axis-aligned box, stored as OpenDrakan reads it (the minimum corner, then a scale × rotation
//!   matrix: the box's size on the diagonal); one sphere shape, the same sphere, with hierarchy `[0, 0]`.
//! - Not written: the BSP table 0x0205 (relic cannot build one; the editor's "Generate BSP Tree"), the REO
//!   level of detail 0x0209 (it names another model of the database), the database counters 0x0202; a
//!   stored 0x0205 or 0x0209 in relic's `extras` is noted as dropped.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::rc::Rc;

use glam::{Mat4, Quat, Vec3};
use serde_json::Value;

use crate::asset::{Image, Pixels, Scene, TextureTransform, Transform};
use crate::drakan::records::common::{BoundingInfo, Flags, Name, Obb, Sphere, F32};
use crate::drakan::records::model::{self, PolyVertex, Polygon, Shapes};
use crate::drakan::records::texture::{self, ChannelOrder, TextureFlags, NO_COLOUR_KEY};
use crate::drakan::records::Ref;
use crate::drakan::srsc::types::VERSION_DRAKAN;
use crate::drakan::srsc::{write_packed, NewRecord, FORMAT_ID};
use crate::error::{Error, Result};
use crate::registry::PackRequest;

/// Shading bit the spec says is always set.
const ALWAYS_SET: u32 = 0x8000;
/// Smooth shading.
const SMOOTH: u32 = 0x02;
/// Polygon flag 0x0002: double sided.
const DOUBLE_SIDED: u16 = 0x0002;
/// Largest count of a u16 field.
const U16_MAX: usize = u16::MAX as usize;
/// Side of the plain textures made for materials without an image.
const PLAIN_SIZE: u32 = 32;

/// What [`from_scene`] made: the `.mod`, the `.txd` of new textures when some were needed, and the notes.
#[derive(Debug, Clone)]
pub struct Packed {
    pub model: Vec<u8>,
    /// `<stem>.txd` bytes: the textures of materials without a stored reference.
    pub txd: Option<Vec<u8>>,
    pub notes: Vec<String>,
}

/// `relic pack drakan-srsc model.glb -o new.mod`: reads the glTF and writes the model, the `.txd` beside
/// it when new textures were made (see the module notes).
pub fn pack_gltf(input_name: &str, content: &[u8], request: &PackRequest) -> Result<Vec<u8>> {
    let is_mod = request.output.extension().is_some_and(|e| e.eq_ignore_ascii_case("mod"));
    if !is_mod {
        return Err(Error::Refused(format!(
            "{FORMAT_ID}: a glTF packs to a model file: name the output `<name>.mod` (not {})",
            request.output.display()
        )));
    }
    let stem = request.output_stem();
    let packed = from_gltf(content, std::path::Path::new(input_name), &stem)?;
    for n in packed.notes {
        request.note(n);
    }
    if let Some(txd) = packed.txd {
        request.companion(format!("{}.txd", if stem.is_empty() { "model" } else { &stem }), txd);
    }
    Ok(packed.model)
}

/// A glTF file's model: [`crate::import::gltf::read_noted`] then [`from_scene`], the reader's notes (what
/// it dropped: `TANGENT`, `TEXCOORD_1`, …) first.
pub fn from_gltf(content: &[u8], path: &std::path::Path, stem: &str) -> Result<Packed> {
    let mut notes = Vec::new();
    let scene = crate::import::gltf::read_to_pack(content, path, FORMAT_ID, &mut |n| notes.push(n))?;
    let mut packed = from_scene(&scene, stem)?;
    notes.append(&mut packed.notes);
    packed.notes = notes;
    Ok(packed)
}

/// Notes, one per kind.
#[derive(Default)]
struct Notes {
    seen: BTreeMap<&'static str, usize>,
    list: Vec<String>,
}

impl Notes {
    fn once(&mut self, kind: &'static str, text: impl FnOnce() -> String) {
        let n = self.seen.entry(kind).or_default();
        *n += 1;
        if *n == 1 {
            self.list.push(text());
        }
    }
}

/// A mesh the scene places: its node, its world matrix, and the skin's joint matrices when skinned.
struct Placed {
    node: usize,
    mesh: usize,
    world: Mat4,
    /// Per joint: joint world × inverse bind matrix.
    joints: Option<Rc<Vec<Mat4>>>,
}

fn local(t: &Transform) -> Mat4 {
    match t {
        Transform::Matrix(m) => Mat4::from_cols_array(m),
        Transform::Trs { translation, rotation, scale } => Mat4::from_scale_rotation_translation(
            Vec3::from(*scale),
            Quat::from_array(*rotation),
            Vec3::from(*translation),
        ),
    }
}

/// World matrices of every node reached from a node without a parent (forest walk with a stack; a node is
/// visited once, so a cyclic hierarchy ends), and which nodes the scene's roots reach.
fn world_matrices(scene: &Scene) -> (Vec<Option<Mat4>>, Vec<bool>) {
    let n = scene.nodes.len();
    let mut has_parent = vec![false; n];
    for node in &scene.nodes {
        for &c in &node.children {
            if let Some(p) = has_parent.get_mut(c) {
                *p = true;
            }
        }
    }
    let mut world: Vec<Option<Mat4>> = vec![None; n];
    let walk = |starts: &mut dyn Iterator<Item = usize>, world: &mut Vec<Option<Mat4>>, mark: &mut Vec<bool>| {
        let mut stack: Vec<(usize, Mat4)> = starts.map(|r| (r, Mat4::IDENTITY)).collect();
        while let Some((i, parent)) = stack.pop() {
            let Some(node) = scene.nodes.get(i) else { continue };
            if mark.get(i).copied().unwrap_or(true) {
                continue;
            }
            if let Some(m) = mark.get_mut(i) {
                *m = true;
            }
            let w = parent * local(&node.transform);
            if let Some(slot) = world.get_mut(i) {
                slot.get_or_insert(w);
            }
            for &c in node.children.iter().rev() {
                stack.push((c, w));
            }
        }
    };
    let mut in_scene = vec![false; n];
    walk(&mut scene.roots.iter().copied(), &mut world, &mut in_scene);
    let mut all = vec![false; n];
    walk(&mut (0..n).filter(|&i| !has_parent.get(i).copied().unwrap_or(false)), &mut world, &mut all);
    (world, in_scene)
}

/// Where a material's texture comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Source {
    /// A reference relic's export stored.
    Stored(u16, u16),
    /// The scene texture (an image) of the material.
    Image(usize),
    /// A plain texture of this RGBA colour.
    Plain([u8; 4]),
}

fn stored_ref(extras: &Value) -> Option<Ref> {
    let r = extras.get("texture_ref")?;
    let id = u16::try_from(r.get("id")?.as_u64()?).ok()?;
    let db = u16::try_from(r.get("db")?.as_u64()?).ok()?;
    let r = Ref { id, db };
    (!r.is_null()).then_some(r)
}

fn shading_of(extras: &Value) -> Option<u32> {
    extras.get("shading")?.get("value")?.as_u64().and_then(|v| u32::try_from(v).ok())
}

/// The texture list and each material's slot in it.
struct TextureSlots {
    list: Vec<Ref>,
    /// By material index (`None`: a primitive without material).
    slot_of: HashMap<Option<usize>, u16>,
    /// New textures for the companion `.txd`: (id, source).
    new: Vec<(u16, Source)>,
}

fn texture_slots(scene: &Scene, used: &[Option<usize>], notes: &mut Notes) -> Result<TextureSlots> {
    let source = |m: Option<usize>| -> Source {
        let mat = m.and_then(|m| scene.materials.get(m));
        match mat {
            Some(mat) => match stored_ref(&mat.extras) {
                Some(r) => Source::Stored(r.id, r.db),
                None => match mat.texture.filter(|&t| t < scene.textures.len()) {
                    Some(t) => Source::Image(t),
                    None => Source::Plain(mat.base_color.map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8)),
                },
            },
            None => Source::Plain([204, 204, 204, 255]),
        }
    };
    // Stored references first, in the order of the index relic's export stored (then first use); new
    // textures after them, in first use.
    let hint = |m: Option<usize>| -> u64 {
        m.and_then(|m| scene.materials.get(m))
            .and_then(|mat| mat.extras.get("texture_index"))
            .and_then(Value::as_u64)
            .unwrap_or(u64::MAX)
    };
    let mut order: Vec<(u8, u64, usize, Option<usize>)> = used
        .iter()
        .enumerate()
        .map(|(k, &m)| (if matches!(source(m), Source::Stored(..)) { 0 } else { 1 }, hint(m), k, m))
        .collect();
    order.sort();
    let mut sources: Vec<Source> = Vec::new();
    let mut slot_of_source: HashMap<Source, usize> = HashMap::new();
    let mut slot_of = HashMap::new();
    for (_, _, _, m) in order {
        let s = source(m);
        let slot = *slot_of_source.entry(s).or_insert_with(|| {
            sources.push(s);
            sources.len() - 1
        });
        if slot > U16_MAX {
            return Err(Error::Refused(format!(
                "{FORMAT_ID}: more than 65,536 textures (a polygon's texture index is a u16)"
            )));
        }
        slot_of.insert(m, slot as u16);
    }
    let next_id = sources
        .iter()
        .filter_map(|s| match s {
            Source::Stored(id, 0) => Some(*id),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let mut list = Vec::with_capacity(sources.len());
    let mut new = Vec::new();
    let mut id = next_id;
    for s in &sources {
        match *s {
            Source::Stored(i, db) => list.push(Ref { id: i, db }),
            other => {
                id = id.checked_add(1).ok_or_else(|| {
                    Error::Refused(format!("{FORMAT_ID}: no texture id left for the new textures (ids are u16)"))
                })?;
                list.push(Ref { id, db: 0 });
                new.push((id, other));
            }
        }
    }
    if !new.is_empty() {
        let (first, last) = (new.first().map_or(0, |n| n.0), new.last().map_or(0, |n| n.0));
        notes.once("new textures", || {
            format!(
                "{} material(s) have no reference into a .txd (a glTF relic did not write): their textures are \
                 written to the .txd beside the output as records {first}–{last} of database 0 (a material \
                 without an image gets a {PLAIN_SIZE} × {PLAIN_SIZE} texture of its colour); add them to \
                 your database's .txd",
                new.len()
            )
        });
    }
    Ok(TextureSlots { list, slot_of, new })
}

/// A new texture record (0x0040) of `rgba` (top row first).
fn texture_record(width: u32, height: u32, rgba: &[u8], notes: &mut Notes) -> Result<Vec<u8>> {
    let alpha = rgba.chunks_exact(4).any(|p| p.get(3).is_some_and(|&a| a < 255));
    let template = texture::Texture {
        bits_per_pixel: if alpha { 16 } else { 24 },
        alpha_bits: if alpha { 4 } else { 0 },
        colour_key: NO_COLOUR_KEY,
        flags: Flags::<TextureFlags>::new(if alpha { texture::FLAG_ALPHA_CHANNEL } else { 0 }),
        compression_level: 9,
        ..Default::default()
    };
    let encoded = texture::encode_rgba(&template, width, height, rgba, None, ChannelOrder::Rgba)?;
    for n in encoded.notes {
        notes.once(if n.starts_with("a width") { "texture width" } else { "texture pixels" }, || {
            format!("new textures: {n}")
        });
    }
    Ok(texture::write(&encoded.texture))
}

fn image_rgba(image: &Image) -> Option<(u32, u32, Vec<u8>)> {
    let f = image.frames.first()?;
    match &f.pixels {
        Pixels::Rgba8(p) => Some((f.width, f.height, p.clone())),
        Pixels::Indexed(ix) => {
            let pal = image.palette.as_ref()?;
            Some((
                f.width,
                f.height,
                ix.iter().flat_map(|&i| pal.get(usize::from(i)).copied().unwrap_or([0; 4])).collect(),
            ))
        }
        Pixels::Gray16(g) => {
            Some((f.width, f.height, g.iter().flat_map(|&v| [(v >> 8) as u8; 3].into_iter().chain([255])).collect()))
        }
    }
}

/// The `.txd` of the new textures.
fn new_txd(scene: &Scene, new: &[(u16, Source)], notes: &mut Notes) -> Result<Vec<u8>> {
    let mut records = Vec::with_capacity(new.len());
    for &(id, s) in new {
        let body = match s {
            Source::Image(t) => {
                let tex = scene.textures.get(t);
                match tex.and_then(|t| image_rgba(&t.image)) {
                    Some((w, h, rgba)) => texture_record(w, h, &rgba, notes).map_err(|e| {
                        Error::Refused(format!("{FORMAT_ID}: texture `{}`: {e}", tex.map_or("", |t| t.name.as_str())))
                    })?,
                    None => plain(notes, [204, 204, 204, 255])?,
                }
            }
            Source::Plain(c) => plain(notes, c)?,
            Source::Stored(..) => continue,
        };
        records.push(NewRecord { record_type: 0x0040, id, group: 0, body });
    }
    write_packed(VERSION_DRAKAN, &records)
}

fn plain(notes: &mut Notes, c: [u8; 4]) -> Result<Vec<u8>> {
    let n = (PLAIN_SIZE * PLAIN_SIZE) as usize;
    texture_record(PLAIN_SIZE, PLAIN_SIZE, &c.repeat(n), notes)
}

/// The model of `scene` (see the module notes). `stem` names the model when the scene does not.
pub fn from_scene(scene: &Scene, stem: &str) -> Result<Packed> {
    let mut notes = Notes::default();
    let (world, in_scene) = world_matrices(scene);
    let label = |node: usize, mesh: usize| {
        let n = scene.nodes.get(node).map_or("", |n| n.name.as_str());
        let m = scene.meshes.get(mesh).map_or("", |m| m.name.as_str());
        format!("mesh {mesh} `{m}` (node {node} `{n}`)")
    };

    // The meshes the scene places.
    let mut placed = Vec::new();
    let mut joint_matrices: HashMap<usize, Rc<Vec<Mat4>>> = HashMap::new();
    let mut other_nodes = 0usize;
    let mut outside = 0usize;
    for (i, node) in scene.nodes.iter().enumerate() {
        let reached = in_scene.get(i).copied().unwrap_or(false);
        match node.mesh {
            Some(m) if reached => {
                if scene.meshes.get(m).is_none() {
                    return Err(Error::Refused(format!(
                        "{FORMAT_ID}: node {i} `{}` names mesh {m}, which is not in the glTF",
                        node.name
                    )));
                }
                let w = world.get(i).copied().flatten().unwrap_or(Mat4::IDENTITY);
                // A skin's joint matrices depend on the skin only: made once per skin.
                let joints = node.skin.filter(|&s| s < scene.skins.len()).map(|s| {
                    joint_matrices
                        .entry(s)
                        .or_insert_with(|| {
                            let Some(skin) = scene.skins.get(s) else { return Rc::new(Vec::new()) };
                            Rc::new(
                                skin.joints
                                    .iter()
                                    .enumerate()
                                    .map(|(k, &j)| {
                                        let jw = world.get(j).copied().flatten().unwrap_or(Mat4::IDENTITY);
                                        let ibm = skin
                                            .inverse_bind_matrices
                                            .get(k)
                                            .map_or(Mat4::IDENTITY, Mat4::from_cols_array);
                                        jw * ibm
                                    })
                                    .collect(),
                            )
                        })
                        .clone()
                });
                placed.push(Placed { node: i, mesh: m, world: w, joints });
            }
            Some(_) => outside += 1,
            None if reached => other_nodes += 1,
            None => {}
        }
    }
    if placed.is_empty() {
        return Err(Error::Refused(format!(
            "{FORMAT_ID}: the glTF's scene places no mesh: there is no model to write"
        )));
    }
    if !scene.animations.is_empty() {
        let n = scene.animations.len();
        notes.once("clips", || format!("{n} clip(s) dropped: a Drakan static model has no animation"));
    }
    if outside > 0 {
        notes.once("outside", || {
            format!("{outside} mesh node(s) outside the glTF's scene left out (relic's export keeps a character's further LODs there)")
        });
    }
    if other_nodes > 0 || placed.len() > 1 {
        notes.once("flattened", || {
            format!(
                "the node hierarchy is flattened into one model ({} mesh node(s) merged; {other_nodes} node(s) without a mesh dropped): a Drakan static model has no nodes",
                placed.len()
            )
        });
    }

    // Geometry.
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut index_of: HashMap<[u32; 3], u16> = HashMap::new();
    let mut polygons: Vec<Polygon> = Vec::new();
    let mut used_materials: Vec<Option<usize>> = Vec::new();
    let mut seen_materials: HashSet<Option<usize>> = HashSet::new();
    let mut tri_material: Vec<Option<usize>> = Vec::new();
    let mut past_skin = PastSkin::default();
    for p in &placed {
        let Some(mesh) = scene.meshes.get(p.mesh) else { continue };
        let what = label(p.node, p.mesh);
        match &p.joints {
            Some(_) => notes.once("skin", || {
                format!(
                    "skinned {what}: written as the scene shows it at rest, joints and weights dropped (relic \
                     writes static models, not characters)"
                )
            }),
            None if !p.world.abs_diff_eq(Mat4::IDENTITY, 0.0) => {
                notes.once("baked", || format!("node transforms baked into the vertices (first: {what})"))
            }
            None => {}
        }
        // A mirroring transform turns the triangles inside out: their order is swapped back.
        let mirrored = p.joints.is_none() && p.world.determinant() < 0.0;
        for (k, prim) in mesh.primitives.iter().enumerate() {
            let n = prim.positions.len();
            if !prim.colors.is_empty() {
                notes.once("colors", || format!("vertex colours dropped (a Drakan model has none; first: {what})"));
            }
            if !prim.morph_targets.is_empty() {
                notes.once("morph", || format!("morph targets dropped, the base shape kept (first: {what})"));
            }
            if p.joints.is_none() && (!prim.joints.is_empty() || !prim.weights.is_empty()) {
                notes
                    .once("weights", || format!("joints and weights of a mesh without a skin dropped (first: {what})"));
            }
            if let Some(joints) = &p.joints {
                past_skin.count(prim, joints.len(), || format!("{what}, primitive {k}"));
            }
            let uvs_ok = prim.uvs.len() == n;
            if !uvs_ok {
                notes.once("uvs", || format!("a primitive without texture coordinates gets (0, 0) at every corner (first: {what}, primitive {k})"));
            }
            if prim.indices.len() % 3 != 0 {
                return Err(Error::Refused(format!(
                    "{FORMAT_ID}: {what}, primitive {k}: {} indices are no triangle list",
                    prim.indices.len()
                )));
            }
            // Each glTF vertex: its 0x0203 vertex, made when first used.
            let mut vertex_of: Vec<Option<u16>> = vec![None; n];
            let material = prim.material.filter(|&m| m < scene.materials.len());
            let ds = material.and_then(|m| scene.materials.get(m)).is_some_and(|m| m.double_sided);
            let transform = material
                .and_then(|m| scene.materials.get(m))
                .and_then(|m| m.texture_transform)
                .filter(|t| *t != TextureTransform::default());
            if transform.is_some() {
                notes.once("texture transform", || {
                    format!(
                        "texture transforms (KHR_texture_transform) baked into the UVs (first: {what}, primitive {k})"
                    )
                });
            }
            let mut local: Vec<Vec<PolyVertex>> = Vec::with_capacity(prim.indices.len() / 3);
            for tri in prim.indices.chunks_exact(3) {
                let mut corners = [PolyVertex::default(); 3];
                for (c, &i) in corners.iter_mut().zip(tri) {
                    let i = i as usize;
                    let Some(&pos) = prim.positions.get(i) else {
                        return Err(Error::Refused(format!(
                            "{FORMAT_ID}: {what}, primitive {k}: index {i} is past its {n} vertices"
                        )));
                    };
                    let v = match vertex_of.get(i).copied().flatten() {
                        Some(v) => v,
                        None => {
                            let at = match &p.joints {
                                None => p.world.transform_point3(Vec3::from(pos)),
                                Some(joints) => {
                                    skinned(Vec3::from(pos), prim.joints.get(i), prim.weights.get(i), joints, p.world)
                                }
                            };
                            if !at.is_finite() {
                                return Err(Error::Refused(format!(
                                    "{FORMAT_ID}: {what}, primitive {k}: vertex {i} is not a finite position"
                                )));
                            }
                            let at = at.to_array();
                            let key = at.map(|c| (c + 0.0).to_bits());
                            let v = match index_of.get(&key) {
                                Some(&v) => v,
                                None => {
                                    if positions.len() >= U16_MAX {
                                        return Err(Error::Refused(format!(
                                            "{FORMAT_ID}: {what}: the model would have more than 65,535 vertices (the 0x0203 count and polygon corner indices are u16)"
                                        )));
                                    }
                                    positions.push(at);
                                    let v = (positions.len() - 1) as u16;
                                    index_of.insert(key, v);
                                    v
                                }
                            };
                            if let Some(slot) = vertex_of.get_mut(i) {
                                *slot = Some(v);
                            }
                            v
                        }
                    };
                    let uv = if uvs_ok { prim.uvs.get(i).copied().unwrap_or_default() } else { [0.0, 0.0] };
                    let uv = transform.map_or(uv, |t| transform_uv(uv, &t));
                    if !uv.iter().all(|c| c.is_finite()) {
                        return Err(Error::Refused(format!(
                            "{FORMAT_ID}: {what}, primitive {k}: vertex {i} has a non-finite texture coordinate"
                        )));
                    }
                    *c = PolyVertex { index: v, uv: [F32::new(uv[0]), F32::new(1.0 - uv[1])] };
                }
                // glTF counter-clockwise (a, b, c) → Drakan clockwise (a, c, b) (mirrored: it already is).
                let [a, b, c] = corners;
                local.push(if mirrored { vec![a, b, c] } else { vec![a, c, b] });
            }
            if !local.is_empty() && seen_materials.insert(material) {
                used_materials.push(material);
            }
            for corners in merge_quads(local, &positions) {
                if polygons.len() >= U16_MAX {
                    return Err(Error::Refused(format!(
                        "{FORMAT_ID}: {what}: the model would have more than 65,535 polygons (the 0x0204 count is a u16)"
                    )));
                }
                polygons.push(Polygon {
                    flags: if ds { DOUBLE_SIDED } else { 0 },
                    texture_index: 0,
                    vertices: corners,
                });
                tri_material.push(material);
            }
        }
    }
    if polygons.is_empty() {
        return Err(Error::Refused(format!(
            "{FORMAT_ID}: the glTF's meshes hold no triangle: there is no model to write"
        )));
    }
    past_skin.note(&mut notes);

    // Textures.
    let slots = texture_slots(scene, &used_materials, &mut notes)?;
    for (poly, m) in polygons.iter_mut().zip(&tri_material) {
        poly.texture_index = slots.slot_of.get(m).copied().unwrap_or(0);
    }
    let txd = if slots.new.is_empty() { None } else { Some(new_txd(scene, &slots.new, &mut notes)?) };

    // Name, id, shading.
    let single = (placed.len() == 1).then(|| placed.first().and_then(|p| scene.nodes.get(p.node))).flatten();
    let text = scene
        .extras
        .get("model")
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| single.map(|n| n.name.clone()).filter(|n| !n.is_empty()))
        .unwrap_or_else(|| if stem.is_empty() { "model".into() } else { stem.to_string() });
    let name = windows_1252(&text, &mut notes);
    let id = scene
        .extras
        .get("id")
        .and_then(Value::as_u64)
        .and_then(|v| u16::try_from(v).ok())
        .filter(|&v| v != 0)
        .unwrap_or(1);
    let shading = shading_of(&scene.extras).or_else(|| {
        used_materials.iter().flatten().filter_map(|&m| scene.materials.get(m)).find_map(|m| shading_of(&m.extras))
    });
    let shading = match shading {
        Some(s) => s | ALWAYS_SET,
        None => {
            let unlit = used_materials.iter().all(|m| m.and_then(|m| scene.materials.get(m)).is_some_and(|m| m.unlit));
            let s = if unlit { ALWAYS_SET } else { ALWAYS_SET | SMOOTH };
            notes.once("shading", || {
                format!(
                    "no Drakan shading in the glTF's extras: written {} (0x{s:04X})",
                    if unlit { "unshaded, as its materials are unlit" } else { "smooth" }
                )
            });
            s
        }
    };
    for (key, what) in [("bsp", "BSP table (0x0205)"), ("reo_lod", "REO level of detail (0x0209)")] {
        if scene.extras.get(key).is_some_and(|v| !v.is_null()) {
            notes.once(if key == "bsp" { "bsp" } else { "reo" }, || {
                format!("the {what} the glTF's extras keep is not written (it no longer matches the geometry, or names another model)")
            });
        }
    }

    // Records.
    let bounds = bounds_of(&positions);
    let body = |d: model::Vertices| model::write_vertices(&d);
    let records = vec![
        NewRecord {
            record_type: 0x0200,
            id,
            group: 0,
            body: model::write_name(&model::ModelName {
                name,
                shading: Flags::new(shading),
                trailing: Default::default(),
            }),
        },
        NewRecord {
            record_type: 0x0203,
            id,
            group: 0,
            body: body(model::Vertices {
                vertices: positions.iter().map(|p| p.map(F32::new)).collect(),
                trailing: Default::default(),
            }),
        },
        NewRecord {
            record_type: 0x0204,
            id,
            group: 0,
            body: model::write_polygons(&model::Polygons { polygons, trailing: Default::default() }),
        },
        NewRecord {
            record_type: 0x0206,
            id,
            group: 0,
            body: model::write_textures(&model::TextureList { textures: slots.list, trailing: Default::default() }),
        },
        NewRecord { record_type: 0x0207, id, group: 0, body: model::write_bounds(&bounds) },
    ];
    Ok(Packed { model: write_packed(VERSION_DRAKAN, &records)?, txd, notes: notes.list })
}

/// Consecutive triangles `(a, b, c)`, `(a, c, d)` (clockwise, as stored; the same position and UV at `a`
/// and `c`), or `(a, c, d)`, `(a, b, c)`, that lie in one plane and make a convex quad become the quad
/// `(a, b, c, d)`: its fan from the first corner gives those two triangles, so the game draws the same ones
/// (and relic's own export of a quad comes back as that quad).
fn merge_quads(tris: Vec<Vec<PolyVertex>>, positions: &[[f32; 3]]) -> Vec<Vec<PolyVertex>> {
    let at = |v: &PolyVertex| Vec3::from(positions.get(usize::from(v.index)).copied().unwrap_or_default());
    let mut out = Vec::with_capacity(tris.len());
    let mut it = tris.into_iter().peekable();
    while let Some(corners) = it.next() {
        let quad = it.peek().and_then(|next| {
            // (a, x, y) then (a, y, v): the quad (a, x, y, v); (a, x, y) then (a, u, x): (a, u, x, y).
            let [a, x, y] = [corners.first()?, corners.get(1)?, corners.get(2)?];
            let [a2, u, v] = [next.first()?, next.get(1)?, next.get(2)?];
            let (a, b, c, d) = if a2 != a {
                return None;
            } else if u == y {
                (a, x, y, v)
            } else if v == x {
                (a, u, x, y)
            } else {
                return None;
            };
            let p = [at(a), at(b), at(c), at(d)];
            if p.iter().enumerate().any(|(i, x)| p.iter().skip(i + 1).any(|y| x == y)) {
                return None;
            }
            let n1 = (p[1] - p[0]).cross(p[2] - p[0]);
            let n2 = (p[2] - p[0]).cross(p[3] - p[0]);
            let (l1, l2) = (n1.length(), n2.length());
            if !(l1 > 0.0 && l2 > 0.0) || (n1 / l1).dot(n2 / l2) < 1.0 - 1e-6 {
                return None;
            }
            // Convex: every corner turns the same way.
            let n = n1 + n2;
            let convex = (0..4).all(|k| {
                let (u, v, w) = (p[k], p[(k + 1) % 4], p[(k + 2) % 4]);
                (v - u).cross(w - v).dot(n) > 0.0
            });
            convex.then(|| vec![*a, *b, *c, *d])
        });
        match quad {
            Some(q) => {
                out.push(q);
                it.next();
            }
            None => out.push(corners),
        }
    }
    out
}

/// `uv` through a `KHR_texture_transform`: translation · rotation · scale · uv, with the rotation matrix of the
/// extension's GLSL (`mat3(cos, sin, 0, −sin, cos, 0, …)`, column-major), as relic's RSM export writes it.
fn transform_uv(uv: [f32; 2], t: &TextureTransform) -> [f32; 2] {
    let (u, v) = (uv[0] * t.scale[0], uv[1] * t.scale[1]);
    let (sin, cos) = t.rotation.sin_cos();
    [cos * u - sin * v + t.offset[0], sin * u + cos * v + t.offset[1]]
}

/// A skinned vertex at rest: Σ weight × (joint world × inverse bind) × p, weights normalised; a vertex
/// without weight stays where its node puts it.
/// Vertices of skinned primitives bound (with a weight) to a joint past their skin's joints: that
/// influence is left out when the vertex is placed ([`skinned`]), counted for one note.
#[derive(Default)]
struct PastSkin {
    vertices: usize,
    of: usize,
    /// The first such: where, the joint, and the skin's joint count.
    first: Option<(String, u16, usize)>,
}

impl PastSkin {
    fn count(&mut self, prim: &crate::asset::Primitive, joints: usize, what: impl FnOnce() -> String) {
        let past = |(j, w): (&[u16; 4], &[f32; 4])| {
            j.iter().zip(w).find(|&(&j, &w)| w > 0.0 && usize::from(j) >= joints).map(|(&j, _)| j)
        };
        let mut found = prim.joints.iter().zip(&prim.weights).filter_map(past);
        let Some(first) = found.next() else { return };
        self.vertices += 1 + found.count();
        self.of += prim.positions.len();
        self.first.get_or_insert_with(|| (what(), first, joints));
    }

    fn note(&self, notes: &mut Notes) {
        let Some((what, joint, joints)) = &self.first else { return };
        let s = if *joints == 1 { "" } else { "s" };
        notes.once("joint past skin", || {
            format!(
                "{} of {} skinned vertices are bound to a joint past their skin's (first: {what}, JOINTS_0 {joint} past \
                 the skin's {joints} joint{s}): that joint's weight left out, the vertex placed by its other joints \
                 (or its node when it has none)",
                self.vertices, self.of
            )
        });
    }
}

fn skinned(p: Vec3, joints: Option<&[u16; 4]>, weights: Option<&[f32; 4]>, matrices: &[Mat4], node: Mat4) -> Vec3 {
    let (Some(j), Some(w)) = (joints, weights) else { return node.transform_point3(p) };
    let mut sum = Vec3::ZERO;
    let mut total = 0.0f32;
    for (&j, &w) in j.iter().zip(w) {
        if w.is_nan() || w <= 0.0 {
            continue;
        }
        let Some(m) = matrices.get(usize::from(j)) else { continue };
        sum += m.transform_point3(p) * w;
        total += w;
    }
    if total > 0.0 && total.is_finite() {
        sum / total
    } else {
        node.transform_point3(p)
    }
}

/// `text` in Windows-1252, a character it lacks made `_` (noted).
fn windows_1252(text: &str, notes: &mut Notes) -> Name {
    if crate::codec::text::encode(encoding_rs::WINDOWS_1252, text).is_some() && text.len() < 0x8000 {
        return Name::new(text);
    }
    let mut out = String::new();
    for ch in text.chars().take(0x4000) {
        let mut buf = [0u8; 4];
        let ok = crate::codec::text::encode(encoding_rs::WINDOWS_1252, ch.encode_utf8(&mut buf)).is_some();
        out.push(if ok { ch } else { '_' });
    }
    notes.once("name", || {
        format!("the model's name `{text}` is stored as `{out}` (Windows-1252, at most 16,384 characters)")
    });
    Name::new(out)
}

/// Bounds (0x0207) of the written vertices; see the module notes.
pub fn bounds_of(positions: &[[f32; 3]]) -> model::Bounds {
    let mut min = [f32::INFINITY; 3];
    let mut max = [f32::NEG_INFINITY; 3];
    for p in positions {
        for k in 0..3 {
            min[k] = min[k].min(p[k]);
            max[k] = max[k].max(p[k]);
        }
    }
    if positions.is_empty() {
        min = [0.0; 3];
        max = [0.0; 3];
    }
    let center: [f32; 3] = std::array::from_fn(|k| ((f64::from(min[k]) + f64::from(max[k])) / 2.0) as f32);
    let mut radius = 0.0f64;
    for p in positions {
        let d: f64 = (0..3).map(|k| (f64::from(p[k]) - f64::from(center[k])).powi(2)).sum::<f64>().sqrt();
        radius = radius.max(d);
    }
    let mut r = radius as f32;
    if f64::from(r) < radius {
        r = f32::from_bits(r.to_bits() + 1);
    }
    let sphere = Sphere { center: center.map(F32::new), radius: F32::new(r) };
    let size: [f32; 3] = std::array::from_fn(|k| max[k] - min[k]);
    let mut xform = [F32::new(0.0); 9];
    for k in 0..3 {
        xform[k * 4] = F32::new(size[k]);
    }
    model::Bounds {
        bounding_info: BoundingInfo { sphere, obb: Obb { center: min.map(F32::new), xform } },
        is_obb: 0,
        hierarchy: vec![[0, 0]],
        shapes: Shapes::Spheres(vec![sphere]),
        trailing: Default::default(),
    }
}
