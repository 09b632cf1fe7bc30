//! Models of a `.mod` (spec "Model (0x0200 - 0x0209)", docs/formats/drakan.md#model) as glTF: one scene per model, named
//! after its 0x0200 record.
//!
//! - Geometry: the 0x0203 vertices and the 0x0204 polygons of 3 or 4 corners; quads become two triangles
//!   (fan from the first corner). Polygons are clockwise seen from the front (OpenDrakan renders models with
//!   a clockwise front face), so every triangle is written reversed (see `scene/mod.rs`).
//! - Materials: one per texture of the 0x0206 list (null references dropped first, docs/formats/drakan.md#model-polygons) and
//!   per side mode: polygon flag 0x0002 ("double sided (probably)") gives a double-sided material. The
//!   texture is resolved through its `ref` to the database's `.txd` (or a dependency's, through the `.db`)
//!   and embedded as PNG; a texture that cannot be found leaves a plain material, reported in
//!   `records.json`.
//! - Shading (0x0200): flat (0x01) gives one normal per polygon, smooth (0x02) normals averaged over the
//!   polygons around a vertex, neither or both (no shading, as OpenDrakan reads it) an unlit material;
//!   additive blending (0x10) becomes glTF's alpha blending (glTF has no additive mode), shiny (0x08) a
//!   roughness of 0.3, environment mapping and landscape blending have no glTF counterpart. The flags are
//!   kept in every material's `extras`.
//! - Kept in the scene's `extras`: the REO level of detail (0x0209), the BSP table (0x0205) and the
//!   bounding data (0x0207), as relic reads them.
//! - Characters (0x0208) are skinned: see [`super::skeleton`].

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::sync::Arc;

use serde_json::{json, Value};

use super::skeleton;
use super::textures::TextureSource;
use crate::asset::{Asset, Material, Mesh, NamedAsset, Node, Primitive, Scene, Texture};
use crate::drakan::records::character::Character;
use crate::drakan::records::model::{self, Polygon, ShadingFlags};
use crate::drakan::records::{self, common::Flags, Decoded, Ref};
use crate::drakan::srsc::convert::file_component;
use crate::drakan::srsc::{outputs, Context, Srsc};
use crate::error::{Error, Result};

/// Polygon flag 0x0002: double sided (spec 0x0204, "probably").
const DOUBLE_SIDED: u16 = 0x0002;

/// The records of one model, by type (spec: 0x0200 and 0x0203–0x0209 share the model's id).
#[derive(Default)]
pub struct ModelRecords {
    pub id: u16,
    pub name: Option<model::ModelName>,
    /// The earlier model (its index in [`collect`]'s list) whose records 0x0203–0x0209 are the very same
    /// bodies: this one's are not decoded again, and its scene is built from that model's (issue 23: 40
    /// models over one character body build its skeleton and meshes once).
    pub same_records_as: Option<usize>,
    pub vertices: Option<model::Vertices>,
    pub polygons: Option<model::Polygons>,
    pub bsp: Option<model::Bsp>,
    pub textures: Option<model::TextureList>,
    pub bounds: Option<model::Bounds>,
    /// Decoded once for every model over one character record (issue 40).
    pub character: Option<Arc<Character>>,
    pub reo_lod: Option<model::ReoLod>,
}

/// Record `i` decoded; an error is reported and gives `None`.
fn decode(srsc: &Srsc<'_>, i: usize, problems: &mut Vec<String>) -> Option<Decoded> {
    let e = srsc.entries.get(i)?;
    match records::decode(e.record_type, srsc.body(i), srsc.body_offset(i)) {
        Ok(d) => d,
        Err(err) => {
            problems.push(format!("model {}: {err}", e.id));
            None
        }
    }
}

/// Characters decoded, by their record's body (offset and size): one body, one decode.
type Characters = HashMap<(u32, u32), Arc<Character>>;

/// Records `indices` (0x0203–0x0209, directory order) decoded into `m`; of two of one type, the later. A
/// character whose body an earlier model's character record has is that one's, not decoded again.
fn decode_into(
    m: &mut ModelRecords,
    srsc: &Srsc<'_>,
    indices: &[usize],
    characters: &mut Characters,
    problems: &mut Vec<String>,
) {
    for &i in indices {
        let body = srsc.entries.get(i).filter(|e| e.record_type == 0x0208).map(|e| (e.offset, e.size));
        if let Some(c) = body.and_then(|b| characters.get(&b)) {
            m.character = Some(Arc::clone(c));
            continue;
        }
        match decode(srsc, i, problems) {
            Some(Decoded::ModelVertices(v)) => m.vertices = Some(v),
            Some(Decoded::ModelPolygons(v)) => m.polygons = Some(v),
            Some(Decoded::ModelBsp(v)) => m.bsp = Some(v),
            Some(Decoded::ModelTextures(v)) => m.textures = Some(v),
            Some(Decoded::ModelBounds(v)) => m.bounds = Some(v),
            Some(Decoded::Character(v)) => {
                let c = Arc::new(v);
                if let Some(b) = body {
                    characters.insert(b, Arc::clone(&c));
                }
                m.character = Some(c);
            }
            Some(Decoded::ReoLod(v)) => m.reo_lod = Some(v),
            _ => {}
        }
    }
}

/// The models of an SRSC file, in directory order of their 0x0200 records. Records that do not decode are
/// reported and left out. A model whose records 0x0203–0x0209 are the very bodies of an earlier model's
/// (same types, offsets and sizes, in order) refers to it instead of decoding them again.
pub fn collect(srsc: &Srsc<'_>, problems: &mut Vec<String>) -> Vec<ModelRecords> {
    let mut records_of: BTreeMap<u16, Vec<usize>> = BTreeMap::new();
    let mut names: HashMap<u16, model::ModelName> = HashMap::new();
    let mut order = Vec::new();
    for (i, e) in srsc.entries.iter().enumerate() {
        match e.record_type {
            0x0200 => {
                if let Some(Decoded::ModelName(v)) = decode(srsc, i, problems) {
                    order.push(e.id);
                    names.insert(e.id, v);
                }
            }
            0x0203..=0x0209 => records_of.entry(e.id).or_default().push(i),
            _ => {}
        }
    }
    let mut out: Vec<ModelRecords> = Vec::new();
    let mut characters = Characters::new();
    let mut first_with: HashMap<Vec<(u16, u32, u32)>, usize> = HashMap::new();
    for id in order {
        let Some(name) = names.remove(&id) else { continue };
        let indices = records_of.remove(&id).unwrap_or_default();
        let key: Vec<(u16, u32, u32)> =
            indices.iter().filter_map(|&i| srsc.entries.get(i)).map(|e| (e.record_type, e.offset, e.size)).collect();
        let mut m = ModelRecords { id, name: Some(name), ..Default::default() };
        match first_with.get(&key) {
            Some(&first) if !key.is_empty() => m.same_records_as = Some(first),
            _ => {
                first_with.insert(key, out.len());
                decode_into(&mut m, srsc, &indices, &mut characters, problems);
            }
        }
        out.push(m);
    }
    // The records of ids with no model name make no scene; what does not decode among them is reported.
    for indices in records_of.values() {
        decode_into(&mut ModelRecords::default(), srsc, indices, &mut characters, problems);
    }
    out
}

/// A scene built for a model whose records later models share: where it is in the output, and what it was
/// built with.
struct BuiltScene {
    at: usize,
    label: String,
    shading: u32,
    named: NameSlots,
    problems: usize,
}

/// One `.glb` per model: `models/<name>.view` (the id is added when two models share a name); a view, which
/// `pack` does not read. A model with the records of an earlier one (see [`collect`]) and its shading takes
/// a copy of that one's scene under its own name and id: its skeleton and meshes are built once.
pub fn convert(
    srsc: &Srsc<'_>,
    ctx: &Context<'_>,
    anims: &mut skeleton::AnimationSource,
    textures: &mut TextureSource,
    problems: &mut Vec<String>,
) -> Vec<NamedAsset> {
    let models = collect(srsc, problems);
    if models.is_empty() {
        return Vec::new();
    }
    let mut names: HashMap<String, usize> = HashMap::new();
    for m in &models {
        let name = m.name.as_ref().map(|n| file_component(&n.name.text)).unwrap_or_default();
        *names.entry(name.to_lowercase()).or_default() += 1;
    }
    let shared: std::collections::HashSet<usize> = models.iter().filter_map(|m| m.same_records_as).collect();
    let mut built: HashMap<usize, BuiltScene> = HashMap::new();
    let mut out = Vec::new();
    // What the scenes hold is charged to the file's expansion budget as they are built or copied: records
    // may share one body (40 models over one 20,000-joint character took 3.5 GB), and what they make is
    // what costs.
    let mut budget = crate::limits::expansion_budget(srsc.bytes.len() as u64);
    // A character's skeleton is built once for every model over its record (each model's scene gets a
    // copy of its nodes, charged as part of that scene).
    let mut skeletons = Skeletons::new();
    for (k, m) in models.iter().enumerate() {
        let text = model_name(m);
        let safe = m.name.as_ref().map(|n| file_component(&n.name.text)).unwrap_or_default();
        let file = if safe.is_empty() || names.get(&safe.to_lowercase()).copied().unwrap_or(0) > 1 {
            format!("{}_{}", if safe.is_empty() { "model" } else { &safe }, m.id)
        } else {
            safe
        };
        let label = format!("model {} `{text}`", m.id);
        if budget == 0 {
            problems.push(format!(
                "{label}: not built: the file's models already made more than {}× its {} bytes (--max-expansion \
                 raises the limit)",
                crate::limits::current().max_expansion,
                srsc.bytes.len()
            ));
            continue;
        }
        let shading = m.name.as_ref().map_or(0, |n| n.shading.value);
        let first = m.same_records_as.and_then(|f| built.get(&f)).filter(|b| b.shading == shading);
        let copied = first.and_then(|b| match out.get(b.at) {
            Some(NamedAsset { asset: Asset::Scene(scene), .. }) => Some((scene.clone(), b)),
            _ => None,
        });
        let scene = match copied {
            Some((mut scene, b)) => {
                b.named.rename(&mut scene, &text, m.id);
                if b.problems > 0 {
                    problems.push(format!(
                        "{label}: a copy of {}'s scene (the same records): its {} problems above are this one's too",
                        b.label, b.problems
                    ));
                }
                Ok(scene)
            }
            None => {
                let geometry = m.same_records_as.and_then(|f| models.get(f)).unwrap_or(m);
                let before = problems.len();
                model_scene(m, geometry, ctx, textures, anims, &mut skeletons, problems).map(|(scene, named)| {
                    if shared.contains(&k) {
                        let problems = problems.len() - before;
                        built.insert(k, BuiltScene { at: out.len(), label: label.clone(), shading, named, problems });
                    }
                    scene
                })
            }
        };
        match scene {
            Ok(scene) => {
                budget = budget.saturating_sub(charge(&scene));
                out.push(NamedAsset { name: Some(outputs::model_view(&file)), asset: Asset::Scene(scene) })
            }
            Err(err) => problems.push(format!("{label}: {err}")),
        }
    }
    out
}

/// What a scene is charged to the file's budget per node, besides its name and children: about what a
/// joint node holds in memory, its fields and its `extras` map (heaptrack: 650 MB for 40 scenes of 20,000
/// joints). The nodes of a 20,000-joint skeleton went uncharged before (issue 40).
pub const NODE_BYTES: u64 = 512;

/// What a model's scene is charged: its buffers ([`Scene::approximate_bytes`]) and its nodes
/// ([`NODE_BYTES`] each, plus the bytes of its name and 8 per child).
pub fn charge(scene: &Scene) -> u64 {
    let nodes: u64 = scene.nodes.iter().map(|n| NODE_BYTES + n.name.len() as u64 + 8 * n.children.len() as u64).sum();
    scene.approximate_bytes().saturating_add(nodes)
}

/// Skeletons built, by the character they were built from (its address: one per decoded character record).
type Skeletons = HashMap<usize, Rc<skeleton::Skeleton>>;

/// Where a model's scene carries its name and id (its first mesh and that mesh's node, and the scene's
/// `extras`), so that a copy for another model of the same records can be renamed.
#[derive(Default)]
struct NameSlots {
    /// (mesh index, what follows the name: `""`, or ` LOD 2` for a LOD with no stored name).
    meshes: Vec<(usize, String)>,
    nodes: Vec<(usize, String)>,
}

impl NameSlots {
    fn rename(&self, scene: &mut Scene, name: &str, id: u16) {
        for (k, suffix) in &self.meshes {
            if let Some(mesh) = scene.meshes.get_mut(*k) {
                mesh.name = format!("{name}{suffix}");
            }
        }
        for (k, suffix) in &self.nodes {
            if let Some(node) = scene.nodes.get_mut(*k) {
                node.name = format!("{name}{suffix}");
            }
        }
        scene.extras["model"] = json!(name);
        scene.extras["id"] = json!(id);
    }
}

/// The name a model's scene shows: its 0x0200 name, else `model <id>`.
fn model_name(m: &ModelRecords) -> String {
    m.name.as_ref().map(|n| n.name.text.clone()).unwrap_or_else(|| format!("model {}", m.id))
}

/// The scene of model `m` (see the module notes), its geometry, character and texture list taken from
/// `geometry` (`m` itself, or the model whose records it shares), with where it carries `m`'s name.
fn model_scene(
    m: &ModelRecords,
    geometry: &ModelRecords,
    ctx: &Context<'_>,
    textures: &mut TextureSource,
    anims: &mut skeleton::AnimationSource,
    skeletons: &mut Skeletons,
    problems: &mut Vec<String>,
) -> Result<(Scene, NameSlots)> {
    let name = model_name(m);
    let label = format!("model {} `{name}`", m.id);
    let mut named = NameSlots::default();
    let vertices: Vec<[f32; 3]> = geometry
        .vertices
        .as_ref()
        .map(|v| v.vertices.iter().map(|p| super::to_gltf([p[0].get(), p[1].get(), p[2].get()])).collect())
        .unwrap_or_default();
    if let Some(i) = vertices.iter().position(|p| !p.iter().all(|c| c.is_finite())) {
        return Err(Error::Refused(format!("vertex {i} is not a finite position")));
    }
    let polygons: &[Polygon] = geometry.polygons.as_ref().map_or(&[], |p| p.polygons.as_slice());
    let shading = m.name.as_ref().map_or(Flags::new(0), |n| Flags::<ShadingFlags>::new(n.shading.value));
    let mut scene = Scene::default();
    let mut materials = Materials::new(geometry, &shading, ctx, textures, &label, problems);
    let normals = Normals::of(&shading);

    let mut scene_extras = json!({"model": name, "id": m.id, "shading": shading_json(&shading)});
    if let Some(lod) = &geometry.reo_lod {
        scene_extras["reo_lod"] =
            json!({"record_id": lod.record_id, "threshold_distance": lod.threshold_distance.get()});
    }
    if let Some(bsp) = &geometry.bsp {
        scene_extras["bsp"] = serde_json::to_value(&bsp.entries).unwrap_or(Value::Null);
    }
    if let Some(bounds) = &geometry.bounds {
        scene_extras["bounds"] = serde_json::to_value(bounds).unwrap_or(Value::Null);
    }

    match &geometry.character {
        None => {
            named.meshes.push((0, String::new()));
            named.nodes.push((0, String::new()));
            let built = build_mesh(&name, &vertices, polygons, &normals, &mut materials, None);
            report(&label, &built, problems);
            scene.meshes.push(built.mesh);
            scene.nodes.push(Node { name: name.clone(), mesh: Some(0), ..Default::default() });
            scene.roots.push(0);
        }
        Some(character) => {
            let built = skeletons
                .entry(Arc::as_ptr(character) as usize)
                .or_insert_with(|| Rc::new(skeleton::Skeleton::build(character)))
                .clone();
            let skin = built.add_to(&mut scene);
            let lods = lod_ranges(character, vertices.len(), polygons.len());
            let mut lod_nodes = Vec::new();
            for (lod, range) in lods.iter().enumerate() {
                let weights = skeleton::vertex_weights(character, lod, range.first_vertex, range.vertex_end);
                let Some(polys) = polygons.get(range.first_poly..range.poly_end) else { continue };
                let lod_verts = vertices.get(range.first_vertex..range.vertex_end).unwrap_or(&[]);
                // LOD 0 is named after the model, a further LOD by its stored name or the model's.
                let own = if lod == 0 { None } else { character.lod_names.get(lod - 1).map(|n| n.text.clone()) };
                let suffix = if lod == 0 { String::new() } else { format!(" LOD {lod}") };
                let mesh_name = own.clone().unwrap_or_else(|| format!("{name}{suffix}"));
                if own.is_none() {
                    named.meshes.push((scene.meshes.len(), suffix.clone()));
                    named.nodes.push((scene.nodes.len(), suffix));
                }
                let built = build_mesh(&mesh_name, lod_verts, polys, &normals, &mut materials, Some(&weights));
                report(&label, &built, problems);
                if weights.over_four > 0 {
                    problems.push(format!(
                        "{label}: LOD {lod}: {} vertices have more than 4 joint weights; the 4 largest are kept",
                        weights.over_four
                    ));
                }
                let mut mesh = built.mesh;
                mesh.extras = json!({
                    "lod": lod,
                    "distance_threshold": range.info.map(|i| i.distance_threshold.get()),
                    "mesh_info": range.info,
                    "vertices_with_more_than_4_weights": weights.over_four,
                });
                scene.meshes.push(mesh);
                scene.nodes.push(Node {
                    name: mesh_name,
                    mesh: Some(scene.meshes.len() - 1),
                    skin: Some(skin.skin),
                    extras: json!({"lod": lod, "distance_threshold": range.info.map(|i| i.distance_threshold.get())}),
                    ..Default::default()
                });
                lod_nodes.push(scene.nodes.len() - 1);
            }
            // LOD 0 is in the scene; the further LODs are nodes outside it (glTF has no switch), listed in
            // the first's extras with their distances.
            if let Some(&first) = lod_nodes.first() {
                scene.roots.insert(0, first);
                let others: Vec<Value> = lod_nodes
                    .iter()
                    .skip(1)
                    .filter_map(|&n| scene.nodes.get(n).map(|node| json!({"node": n, "extras": node.extras})))
                    .collect();
                if let Some(node) = scene.nodes.get_mut(first) {
                    node.extras["other_lods"] = Value::Array(others);
                }
            }
            scene_extras["character"] = built.extras.clone();
            let clips = skeleton::add_animations(&mut scene, &skin, character, ctx, anims, &label, problems);
            scene_extras["animations"] = json!(clips);
        }
    }
    scene.materials = materials.list;
    scene.textures = materials.textures;
    scene.extras = scene_extras;
    Ok((scene, named))
}

fn shading_json(shading: &Flags<ShadingFlags>) -> Value {
    json!({"value": shading.value, "names": shading.names()})
}

/// Vertex and polygon ranges of a character's LOD. The stored counts do not always cover the LOD's
/// polygons (OpenDrakan), so, as OpenDrakan does, a LOD runs to where the next one starts (the last one to
/// the end of the lists); the stored values are kept in the mesh's `extras`.
struct LodRange {
    first_vertex: usize,
    vertex_end: usize,
    first_poly: usize,
    poly_end: usize,
    info: Option<crate::drakan::records::character::LodMeshInfo>,
}

fn lod_ranges(c: &Character, vertex_count: usize, poly_count: usize) -> Vec<LodRange> {
    // docs/formats/drakan.md#character: exactly one mesh per LOD; a LOD with none has no geometry.
    let infos: Vec<_> = c.lod_meshes.iter().map(|m| m.first().copied()).collect();
    let clamp = |v: u32, max: usize| (v as usize).min(max);
    (0..infos.len())
        .filter_map(|k| {
            let info = infos.get(k).copied().flatten()?;
            let next = infos.iter().skip(k + 1).flatten().next();
            let first_vertex = clamp(info.first_vertex_index, vertex_count);
            let first_poly = clamp(info.first_poly_index, poly_count);
            let vertex_end = next.map_or(vertex_count, |n| clamp(n.first_vertex_index, vertex_count)).max(first_vertex);
            let poly_end = next.map_or(poly_count, |n| clamp(n.first_poly_index, poly_count)).max(first_poly);
            Some(LodRange { first_vertex, vertex_end, first_poly, poly_end, info: Some(info) })
        })
        .collect()
}

/// How normals are made (0x0200 shading).
enum Normals {
    /// One per polygon (flat).
    Flat,
    /// Averaged over the polygons around a vertex (smooth).
    Smooth,
    /// No shading: no normals, an unlit material.
    None,
}

impl Normals {
    fn of(shading: &Flags<ShadingFlags>) -> Normals {
        match (shading.has(0x01), shading.has(0x02)) {
            (true, false) => Normals::Flat,
            (false, true) => Normals::Smooth,
            _ => Normals::None,
        }
    }
}

/// The materials of a model: one per (texture list index, double sided), made when first used.
struct Materials {
    refs: Vec<Ref>,
    /// Per texture list index: the scene texture, once looked up.
    resolved: Vec<Option<Option<usize>>>,
    names: Vec<String>,
    by_key: HashMap<(Option<usize>, bool), usize>,
    list: Vec<Material>,
    textures: Vec<Texture>,
    shading: Value,
    unlit: bool,
    blend: bool,
    shiny: bool,
}

impl Materials {
    fn new(
        m: &ModelRecords,
        shading: &Flags<ShadingFlags>,
        ctx: &Context<'_>,
        source: &mut TextureSource,
        label: &str,
        problems: &mut Vec<String>,
    ) -> Materials {
        let refs = m.textures.as_ref().map(|t| t.used()).unwrap_or_default();
        let mut textures = Vec::new();
        let mut resolved = Vec::with_capacity(refs.len());
        let mut names = Vec::with_capacity(refs.len());
        for r in &refs {
            let resolve = |db: u16| ctx.database_file(db, "txd");
            match source.resolve(*r, &resolve) {
                Ok((image, shown)) => {
                    textures.push(Texture { name: shown.clone(), image });
                    resolved.push(Some(Some(textures.len() - 1)));
                    names.push(shown);
                }
                Err(err) => {
                    problems.push(format!("{label}: texture {}:{}: {err}", r.db, r.id));
                    resolved.push(Some(None));
                    names.push(format!("texture {}:{}", r.db, r.id));
                }
            }
        }
        let no_shading = matches!(Normals::of(shading), Normals::None);
        Materials {
            refs,
            resolved,
            names,
            by_key: HashMap::new(),
            list: Vec::new(),
            textures,
            shading: shading_json(shading),
            unlit: no_shading,
            blend: shading.has(0x10),
            shiny: shading.has(0x08),
        }
    }

    /// The material of a polygon's texture index (an index past the list gives an untextured material).
    fn of(&mut self, texture_index: u16, double_sided: bool) -> usize {
        let slot = usize::from(texture_index);
        let texture = self.resolved.get(slot).copied().flatten().flatten();
        let key = (if slot < self.refs.len() { Some(slot) } else { None }, double_sided);
        if let Some(&m) = self.by_key.get(&key) {
            return m;
        }
        let base = self.names.get(slot).cloned().unwrap_or_else(|| "untextured".into());
        let name = if double_sided { format!("{base} (double sided)") } else { base };
        self.list.push(Material {
            name,
            base_color: if texture.is_some() { [1.0; 4] } else { [0.8, 0.8, 0.8, 1.0] },
            texture,
            double_sided,
            alpha_blend: self.blend,
            unlit: self.unlit,
            roughness: if self.shiny { 0.3 } else { 1.0 },
            extras: json!({
                "shading": self.shading,
                "texture_index": texture_index,
                "texture_ref": self.refs.get(slot).map(|r| json!({"id": r.id, "db": r.db})),
            }),
            ..Default::default()
        });
        let m = self.list.len() - 1;
        self.by_key.insert(key, m);
        m
    }
}

/// Per-vertex joints and weights of one LOD (relative vertex indices), see [`skeleton::vertex_weights`].
pub struct LodWeights {
    pub joints: Vec<[u16; 4]>,
    pub weights: Vec<[f32; 4]>,
    pub over_four: usize,
}

struct Built {
    mesh: Mesh,
    skipped_polygons: usize,
}

fn report(label: &str, built: &Built, problems: &mut Vec<String>) {
    if built.skipped_polygons > 0 {
        problems.push(format!(
            "{label}: mesh `{}`: {} polygons name vertices past the vertex list and are left out",
            built.mesh.name, built.skipped_polygons
        ));
    }
}

/// A mesh of `polygons` over `vertices` (indices relative to the LOD's first vertex): one primitive per
/// material, each corner a vertex of its own position, UV (and flat normal) — corners that share all of
/// them share a vertex.
fn build_mesh(
    name: &str,
    vertices: &[[f32; 3]],
    polygons: &[Polygon],
    normals: &Normals,
    materials: &mut Materials,
    weights: Option<&LodWeights>,
) -> Built {
    let smooth = match normals {
        Normals::Smooth => smooth_normals(vertices, polygons),
        _ => Vec::new(),
    };
    let mut prims: Vec<Primitive> = Vec::new();
    let mut prim_of: HashMap<usize, usize> = HashMap::new();
    let mut corner_of: Vec<HashMap<CornerKey, u32>> = Vec::new();
    let mut skipped = 0;
    for poly in polygons {
        let corners: Vec<(usize, [f32; 2])> = poly
            .vertices
            .iter()
            .map(|v| (usize::from(v.index), finite_uv(super::uv_to_gltf([v.uv[0].get(), v.uv[1].get()]))))
            .collect();
        if corners.iter().any(|(i, _)| *i >= vertices.len()) {
            skipped += 1;
            continue;
        }
        let material = materials.of(poly.texture_index, poly.flags & DOUBLE_SIDED != 0);
        let p = *prim_of.entry(material).or_insert_with(|| {
            prims.push(Primitive { material: Some(material), ..Default::default() });
            corner_of.push(HashMap::new());
            prims.len() - 1
        });
        let (Some(prim), Some(seen)) = (prims.get_mut(p), corner_of.get_mut(p)) else { continue };
        // Fan from the first corner, each triangle reversed: stored clockwise, glTF counter-clockwise.
        let Some((&first, rest)) = corners.split_first() else { continue };
        for pair in rest.windows(2) {
            let tri = [first, pair[1], pair[0]];
            let face = face_normal(tri.map(|(i, _)| vertices.get(i).copied().unwrap_or_default()));
            for (i, uv) in tri {
                let normal = match normals {
                    Normals::Flat => Some(face),
                    Normals::Smooth => smooth.get(i).copied(),
                    Normals::None => None,
                };
                let key = (i as u16, uv.map(f32::to_bits), normal.unwrap_or_default().map(f32::to_bits));
                let index = *seen.entry(key).or_insert_with(|| {
                    prim.positions.push(vertices.get(i).copied().unwrap_or_default());
                    prim.uvs.push(uv);
                    if let Some(n) = normal {
                        prim.normals.push(n);
                    }
                    if let Some(w) = weights {
                        prim.joints.push(w.joints.get(i).copied().unwrap_or_default());
                        prim.weights.push(w.weights.get(i).copied().unwrap_or([1.0, 0.0, 0.0, 0.0]));
                    }
                    (prim.positions.len() - 1) as u32
                });
                prim.indices.push(index);
            }
        }
    }
    Built { mesh: Mesh { name: name.to_string(), primitives: prims, ..Default::default() }, skipped_polygons: skipped }
}

/// A texture coordinate with any non-finite component (a damaged file) made 0.
fn finite_uv(uv: [f32; 2]) -> [f32; 2] {
    uv.map(|c| if c.is_finite() { c } else { 0.0 })
}

/// A glTF vertex of a primitive: the stored vertex, its UV and normal (bit patterns).
type CornerKey = (u16, [u32; 2], [u32; 3]);

/// The normal of a glTF (counter-clockwise) triangle, as long as twice its area.
fn area_normal([a, b, c]: [[f32; 3]; 3]) -> glam::Vec3 {
    let (a, b, c) = (glam::Vec3::from(a), glam::Vec3::from(b), glam::Vec3::from(c));
    (b - a).cross(c - a)
}

/// The unit normal of a glTF triangle; +Y for a degenerate one.
fn face_normal(tri: [[f32; 3]; 3]) -> [f32; 3] {
    unit(area_normal(tri))
}

fn unit(n: glam::Vec3) -> [f32; 3] {
    let len = n.length();
    if len > 1e-20 && len.is_finite() {
        (n / len).to_array()
    } else {
        [0.0, 1.0, 0.0]
    }
}

/// Per vertex, the sum of the (area-weighted) normals of the triangles around it, made unit.
fn smooth_normals(vertices: &[[f32; 3]], polygons: &[Polygon]) -> Vec<[f32; 3]> {
    let mut sums = vec![[0.0f32; 3]; vertices.len()];
    for poly in polygons {
        let idx: Vec<usize> = poly.vertices.iter().map(|v| usize::from(v.index)).collect();
        if idx.iter().any(|&i| i >= vertices.len()) {
            continue;
        }
        let Some((&first, rest)) = idx.split_first() else { continue };
        for pair in rest.windows(2) {
            let tri = [first, pair[1], pair[0]];
            let n = area_normal(tri.map(|i| vertices.get(i).copied().unwrap_or_default())).to_array();
            for i in tri {
                if let Some(s) = sums.get_mut(i) {
                    for (s, n) in s.iter_mut().zip(n) {
                        *s += n;
                    }
                }
            }
        }
    }
    sums.into_iter().map(|s| unit(glam::Vec3::from(s))).collect()
}
