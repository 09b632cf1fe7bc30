//! A map (RSW with its GND and GAT) as one glTF scene, its root nodes named `ground`, `water`, `models`,
//! `lights`, `sounds`, `effects` and `walkability` (the viewer toggles them by name).
//!
//! Frame: RSW positions are RO world units, Y down, relative to the map's centre; GND corners lie at
//! `(x·zoom, height, y·zoom)` for cell `(x, y)`, so an object at `p` stands at `p + (width·zoom/2, 0,
//! height·zoom/2)` of the ground (roBrowser adds the GND's width and height in its units of zoom/5,
//! BrowEdit3 `5·width` and `5·height` at zoom 10). That world goes to glTF through [`world_to_gltf`].
//!
//! Models: each placed model is `T(p)·Rz(rz)·Rx(rx)·Ry(ry)·S(s)` in the Y-down world (roBrowser's
//! `createInstance`, BrowEdit3's `RsmRenderer` with its own axes folded in: the same order), applied to
//! the model in its Y-down file space; relic's RSM scene ([`crate::ragnarok::rsm::scene::to_scene`]) is
//! that space mirrored by `S(1,−1,1)` for every version (1.x centred and mirrored, 2.2+ as stored, which
//! roBrowser and BrowEdit3 mirror into their Y-down worlds). The node of a placement is therefore
//! `W·T(p)·R·S·S(1,−1,1)` with `W` the world-to-glTF axes: written as TRS, `translation = W·p`,
//! `rotation = W·R·W`, `scale = W·s·(1,−1,1)` (a negative component where `W` is a rotation: the
//! placement mirrors relic's stand-alone model, as the game does). Each model file is converted once and
//! its meshes, materials and textures shared by all its placements (one mesh, many nodes); the nodes of
//! its tree are repeated under each placement. Animations of placed models are not written (a map of
//! hundreds of windmills would repeat every channel). The RSW model's node name (which mesh to show) is
//! kept in the placement's extras, not applied.
//!
//! Lights: point lights (`KHR_lights_punctual`) at their place, colour as stored (scaled into 0..1, the
//! excess into the intensity), range as stored (world units × the unit); the sun a directional light from
//! longitude and latitude as BrowEdit3 turns them (`(0,1,0)·Rx(−latitude)·Ry(longitude)` points at the
//! sun), ambient and diffuse colours and shadow opacity in the scene's extras. Sounds and effects are
//! empty nodes at their place with their fields in `extras`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::{Mat3, Quat, Vec3};
use serde_json::json;

use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Light, LightKind, Material, Mesh, Node, Primitive, Scene, Transform};
use crate::error::Result;
use crate::reader::Reader;
use crate::registry::{ConvertOptions, FileLookup};

/// Root node names, in the order they are written.
pub const ROOTS: [&str; 7] = ["ground", "water", "models", "lights", "sounds", "effects", "walkability"];

/// Missing model files named in the note (the rest are counted).
const MISSING_LISTED: usize = 8;

/// Bytes charged per node placed (its transform and name in the glTF).
const NODE_COST: u64 = 128;

/// RO world axes to glTF axes (Y down to Y up, and Z so the frame stays right-handed: a rotation of 180°
/// about X), and world units per glTF unit.
pub const AXES: [f32; 3] = [1.0, -1.0, -1.0];
pub const UNIT: f32 = 1.0;

/// A point of the RO world (ground corner 0 at the origin, Y down) in glTF.
pub fn world_to_gltf(p: [f32; 3]) -> [f32; 3] {
    [p[0] * AXES[0] * UNIT, p[1] * AXES[1] * UNIT, p[2] * AXES[2] * UNIT]
}

/// The ground's size from its header (`GRGN`, version, width, height, zoom): what places the objects.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroundSize {
    pub width: u32,
    pub height: u32,
    pub zoom: f32,
}

impl GroundSize {
    /// Reads the GND header.
    pub fn read(gnd: &[u8]) -> Result<GroundSize> {
        let mut r = Reader::new("ro-gnd", gnd);
        if r.array::<4>("magic")? != *b"GRGN" {
            return Err(r.error_at("magic", 0, "not a GND (no GRGN magic)"));
        }
        r.skip(2, "version")?;
        let width = r.u32("width")?;
        let height = r.u32("height")?;
        let zoom = r.f32("zoom")?;
        Ok(GroundSize { width, height, zoom })
    }

    /// Where an RSW position (relative to the map centre) lies in the world of the ground.
    pub fn world(&self, p: [f32; 3]) -> [f32; 3] {
        let zoom = if self.zoom.is_finite() { self.zoom } else { 0.0 };
        [p[0] + self.width as f32 * zoom / 2.0, p[1], p[2] + self.height as f32 * zoom / 2.0]
    }
}

/// The transform of a model placed at `position` (world), rotated by `rotation` (degrees, applied Z, X, Y
/// as roBrowser does) and scaled by `scale`, for a model converted by relic's RSM scene (see the module
/// doc).
pub fn placement(position: [f32; 3], rotation: [f32; 3], scale: [f32; 3]) -> Transform {
    let [rx, ry, rz] = rotation.map(|d| if d.is_finite() { d.to_radians() } else { 0.0 });
    let r = Mat3::from_rotation_z(rz) * Mat3::from_rotation_x(rx) * Mat3::from_rotation_y(ry);
    let w = Mat3::from_diagonal(Vec3::from(AXES));
    let rotation = Quat::from_mat3(&(w * r * w)).normalize();
    let mirror = [1.0, -1.0, 1.0];
    let finite = |x: f32| if x.is_finite() { x } else { 0.0 };
    Transform::Trs {
        translation: world_to_gltf(position.map(finite)),
        rotation: rotation.to_array(),
        scale: [0, 1, 2].map(|i| finite(scale[i]) * AXES[i] * mirror[i] * UNIT),
    }
}

/// The transform of an object that has only a place (light, sound, effect).
fn at(position: [f32; 3]) -> Transform {
    let finite = |x: f32| if x.is_finite() { x } else { 0.0 };
    Transform::Trs { translation: world_to_gltf(position.map(finite)), rotation: [0.0, 0.0, 0.0, 1.0], scale: [1.0; 3] }
}

/// The file name part of a stored path.
fn base_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// Lookup key of a stored path: ASCII lower case, `/` separators.
fn key(path: &str) -> String {
    path.replace('\\', "/").trim_start_matches('/').to_ascii_lowercase()
}

/// One place models are looked for.
enum Place {
    Archive(Arc<dyn FileLookup>),
    /// The client's `data` folder.
    ClientData(PathBuf),
    /// `--models` or `--textures`: `data/model/<f>`, `model/<f>` or `<f>` under a folder or in an archive.
    Folder(PathBuf, &'static str),
    OtherArchive(Arc<dyn FileLookup>, &'static str),
}

impl Place {
    fn read(&self, file: &str) -> Option<Vec<u8>> {
        let k = key(file);
        if k.split('/').any(|p| p == ".." || p.contains(':')) {
            return None;
        }
        let under = [format!("data/model/{k}"), format!("model/{k}"), k.clone()];
        match self {
            Place::Archive(a) => a.read(&under[0]),
            Place::OtherArchive(a, _) => under.iter().find_map(|n| a.read(n)),
            Place::ClientData(dir) => read_file(dir, &format!("model/{k}")),
            Place::Folder(dir, _) => under.iter().find_map(|n| read_file(dir, n)),
        }
    }

    fn describe(&self) -> String {
        match self {
            Place::Archive(a) => a.describe(),
            Place::ClientData(dir) => dir.join("model").display().to_string(),
            Place::Folder(dir, option) => format!("{option} {}", dir.display()),
            Place::OtherArchive(a, option) => format!("{option} {}", a.describe()),
        }
    }
}

fn read_file(dir: &Path, relative: &str) -> Option<Vec<u8>> {
    let p = crate::ragnarok::rsm::textures::find_ci(dir, relative)?;
    p.is_file().then(|| std::fs::read(p).ok()).flatten()
}

/// The client's `data` folder of a file on disk: the nearest ancestor named `data`.
fn client_data(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .skip(1)
        .find(|a| a.file_name().is_some_and(|n| n.eq_ignore_ascii_case("data")))
        .map(Path::to_path_buf)
}

/// Where a map's files are found: its ground and altitude files beside it (or in its archive's `data\`),
/// its models in `data\model\` of its archive or client folder, then `--models`, then `--textures`.
struct Sources {
    path: Option<PathBuf>,
    archive: Option<Arc<dyn FileLookup>>,
    places: Vec<Place>,
}

impl Sources {
    fn new(path: Option<&Path>, opts: &ConvertOptions) -> Result<Sources> {
        let mut places = Vec::new();
        if let Some(a) = &opts.archive_files {
            places.push(Place::Archive(Arc::clone(a)));
        }
        if let Some(dir) = path.and_then(client_data) {
            places.push(Place::ClientData(dir));
        }
        for (given, option) in [(&opts.models, "--models"), (&opts.textures, "--textures")] {
            if let Some(p) = given {
                places.push(if p.is_dir() {
                    Place::Folder(p.clone(), option)
                } else {
                    Place::OtherArchive(crate::ragnarok::rsm::textures::open_archive(p, option)?, option)
                });
            }
        }
        Ok(Sources { path: path.map(Path::to_path_buf), archive: opts.archive_files.clone(), places })
    }

    /// A map file (`x.gnd`) beside the RSW on disk or among its archive's siblings, else `data\x.gnd` in
    /// its archive.
    fn map_file(&self, name: &str, opts: &ConvertOptions) -> Option<Vec<u8>> {
        let base = base_name(name);
        if base.is_empty() {
            return None;
        }
        opts.beside(self.path.as_deref(), base)
            .or_else(|| self.archive.as_ref().and_then(|a| a.read(&format!("data\\{base}"))))
    }

    fn model(&self, file: &str) -> Option<Vec<u8>> {
        self.places.iter().find_map(|p| p.read(file))
    }

    fn describe(&self) -> String {
        if self.places.is_empty() {
            return "nowhere: the map is in no archive and no client folder (`data` above it); give --models".into();
        }
        self.places.iter().map(Place::describe).collect::<Vec<_>>().join(", ")
    }
}

/// The stored name of a map's companion file: the RSW's field, or the map's own name with `ext`.
fn companion(stored: Option<&Name>, map_name: Option<&str>, ext: &str) -> Option<String> {
    match stored.map(|n| n.text.trim()).filter(|t| !t.is_empty()) {
        Some(t) => Some(t.to_string()),
        None => {
            let name = map_name?;
            let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
            Some(format!("{stem}.{ext}"))
        }
    }
}

/// A model file converted once: its scene's nodes are the template repeated under each placement; its
/// meshes, materials and textures were appended to the map once, `mesh_base` is where its meshes start.
struct Template {
    nodes: Vec<Node>,
    roots: Vec<usize>,
    mesh_base: usize,
}

/// The map's scene. Always written (a missing ground or model is a note): the objects stand where the RSW
/// puts them, around the origin when the ground is missing.
pub fn convert_map(rsw: &Rsw, input_len: u64, path: Option<&Path>, opts: &ConvertOptions) -> Result<Option<Scene>> {
    let sources = Sources::new(path, opts)?;
    let map_name = path.and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned()).or_else(|| opts.entry_name.clone());
    let mut input_len = input_len;
    let mut scene = Scene::default();
    for name in ROOTS {
        scene.roots.push(scene.nodes.len());
        scene.nodes.push(Node { name: name.into(), ..Default::default() });
    }
    let root = |name: &str| ROOTS.iter().position(|r| *r == name).unwrap_or(0);

    // The ground.
    let gnd_name = companion(Some(&rsw.gnd_file), map_name.as_deref(), "gnd");
    let gnd_bytes = gnd_name.as_deref().and_then(|n| sources.map_file(n, opts));
    let size = match (&gnd_bytes, &gnd_name) {
        (Some(bytes), _) => {
            input_len += bytes.len() as u64;
            match GroundSize::read(bytes) {
                Ok(size) => Some(size),
                Err(e) => {
                    opts.fail(format!("{FORMAT_ID}: ground `{}`: {e}", gnd_name.as_deref().unwrap_or("")));
                    None
                }
            }
        }
        (None, name) => {
            opts.note(format!(
                "{FORMAT_ID}: ground file `{}` not found beside the map: the objects stand around the origin, no ground",
                name.as_deref().unwrap_or("?")
            ));
            None
        }
    };
    let world = |p: [f32; 3]| size.map_or(p, |s| s.world(p));

    // Water (below 2.6: the RSW's level), a plane over the ground.
    if let (Some(level), Some(s)) = (rsw.water.as_ref().and_then(|w| w.level), size) {
        let water = water_plane(&mut scene, level, s, rsw.water.as_ref().and_then(|w| w.water_type));
        let n = scene.nodes.len();
        scene.nodes.push(water);
        scene.nodes[root("water")].children.push(n);
    }

    // Models, each file converted once.
    let budget = crate::limits::expansion_budget(input_len);
    let texture_sources = crate::ragnarok::rsm::textures::TextureSources::for_model(path, opts)?;
    let mut templates: HashMap<String, Option<Template>> = HashMap::new();
    let mut missing: Vec<(String, usize)> = Vec::new();
    let mut spent: u64 = 0;
    let models_root = root("models");
    for (i, object) in rsw.objects.iter().enumerate() {
        let (name, parent, transform, extras, template_key) = match object {
            Object::Model(m) => {
                let k = key(&m.file.text);
                if !templates.contains_key(&k) {
                    let t = match sources.model(&m.file.text) {
                        None => None,
                        Some(bytes) => {
                            input_len += bytes.len() as u64;
                            match model_template(&mut scene, &bytes, &texture_sources) {
                                Ok(t) => Some(t),
                                Err(e) => {
                                    opts.fail(format!("{FORMAT_ID}: model `{}`: {e}", m.file.text));
                                    None
                                }
                            }
                        }
                    };
                    if t.is_none() {
                        missing.push((m.file.text.clone(), 0));
                    }
                    templates.insert(k.clone(), t);
                }
                if let Some(entry) = missing.iter_mut().find(|(f, _)| key(f) == k) {
                    entry.1 += 1;
                }
                let name = m.name.as_ref().map(|n| n.text.clone()).filter(|n| !n.is_empty()).unwrap_or_else(|| m.file.text.clone());
                let extras = json!({
                    "rsw_index": i,
                    "file": m.file.text,
                    "node": m.node.text,
                    "anim_type": m.anim_type,
                    "anim_speed": m.anim_speed,
                    "block_type": m.block_type,
                    "position": m.position,
                    "rotation": m.rotation,
                    "scale": m.scale,
                });
                (name, models_root, placement(world(m.position), m.rotation, m.scale), extras, Some(k))
            }
            Object::Light(l) => {
                let light = point_light(l);
                scene.lights.push(light);
                let extras = json!({"rsw_index": i, "color": l.color, "range": l.range});
                let n = scene.nodes.len();
                scene.nodes.push(Node {
                    name: l.name.text.clone(),
                    transform: at(world(l.position)),
                    light: Some(scene.lights.len() - 1),
                    extras,
                    ..Default::default()
                });
                scene.nodes[root("lights")].children.push(n);
                continue;
            }
            Object::Sound(s) => {
                let extras = json!({
                    "rsw_index": i,
                    "file": s.file.text,
                    "volume": s.volume,
                    "width": s.width,
                    "height": s.height,
                    "range": s.range,
                    "cycle": s.cycle,
                });
                (s.name.text.clone(), root("sounds"), at(world(s.position)), extras, None)
            }
            Object::Effect(e) => {
                let extras = json!({"rsw_index": i, "id": e.id, "delay": e.delay, "params": e.params});
                (e.name.text.clone(), root("effects"), at(world(e.position)), extras, None)
            }
        };
        let n = scene.nodes.len();
        scene.nodes.push(Node { name, transform, extras, ..Default::default() });
        scene.nodes[parent].children.push(n);
        if let Some(Some(t)) = template_key.as_ref().and_then(|k| templates.get(k)) {
            let children = instantiate(&mut scene, t);
            scene.nodes[n].children = children;
        }
        spent += NODE_COST;
        if spent > budget {
            crate::limits::check_expansion(FORMAT_ID, "map scene", scene.approximate_bytes(), input_len)?;
        }
    }
    if !missing.is_empty() {
        let placements: usize = missing.iter().map(|(_, n)| n).sum();
        let mut names: Vec<String> =
            missing.iter().take(MISSING_LISTED).map(|(f, _)| format!("'data\\model\\{}'", f.replace('/', "\\"))).collect();
        if missing.len() > MISSING_LISTED {
            names.push(format!("and {} more", missing.len() - MISSING_LISTED));
        }
        opts.note(format!(
            "{FORMAT_ID}: {} of {} model files not found (looked in {}): {}; their {placements} placement(s) are empty nodes",
            missing.len(),
            templates.len(),
            sources.describe(),
            names.join(", "),
        ));
    }

    // The sun.
    if let Some(light) = &rsw.light {
        sun(&mut scene, light, root("lights"));
    }
    crate::limits::check_expansion(FORMAT_ID, "map scene", scene.approximate_bytes(), input_len)?;
    Ok(Some(scene))
}

/// Converts one model file and appends its meshes, materials and textures to the map.
fn model_template(
    scene: &mut Scene,
    bytes: &[u8],
    textures: &crate::ragnarok::rsm::textures::TextureSources,
) -> Result<Template> {
    let rsm = crate::ragnarok::rsm::Rsm::read(bytes)?;
    let lookup = (!textures.is_empty()).then_some(textures as &dyn crate::ragnarok::rsm::scene::TextureLookup);
    let model = crate::ragnarok::rsm::scene::to_scene(&rsm, lookup)?;
    let mesh_base = scene.meshes.len();
    let (material_base, texture_base) = (scene.materials.len(), scene.textures.len());
    scene.meshes.extend(model.meshes.into_iter().map(|mut m| {
        for p in &mut m.primitives {
            p.material = p.material.map(|i| i + material_base);
        }
        m
    }));
    scene.materials.extend(model.materials.into_iter().map(|mut m| {
        m.texture = m.texture.map(|t| t + texture_base);
        m
    }));
    scene.textures.extend(model.textures);
    Ok(Template { nodes: model.nodes, roots: model.roots, mesh_base })
}

/// Appends a copy of the template's node trees (meshes shared) and returns their roots.
fn instantiate(scene: &mut Scene, t: &Template) -> Vec<usize> {
    let base = scene.nodes.len();
    scene.nodes.extend(t.nodes.iter().map(|n| Node {
        name: n.name.clone(),
        transform: n.transform.clone(),
        children: n.children.iter().map(|c| c + base).collect(),
        mesh: n.mesh.map(|m| m + t.mesh_base),
        skin: None,
        light: None,
        extras: n.extras.clone(),
    }));
    t.roots.iter().map(|r| r + base).collect()
}

/// Colour into 0..1 and the excess as intensity.
fn color_and_intensity(color: [f32; 3]) -> ([f32; 3], f32) {
    let c = color.map(|x| if x.is_finite() { x.max(0.0) } else { 0.0 });
    let max = c.iter().copied().fold(0.0f32, f32::max);
    if max > 1.0 {
        (c.map(|x| x / max), max)
    } else {
        (c, 1.0)
    }
}

fn point_light(l: &LightSource) -> Light {
    let (color, intensity) = color_and_intensity(l.color);
    Light {
        name: l.name.text.clone(),
        kind: LightKind::Point,
        color,
        intensity,
        range: (l.range.is_finite() && l.range > 0.0).then_some(l.range * UNIT),
        extras: serde_json::Value::Null,
    }
}

/// The sun: a directional light shining from longitude/latitude, and the ambient light in the extras.
fn sun(scene: &mut Scene, light: &super::types::Light, parent: usize) {
    let (lon, lat) = (light.longitude as f32, light.latitude as f32);
    // BrowEdit3's frame is the Y-down world rotated 180° about X, like glTF's here: towards the sun.
    let to_sun = Mat3::from_rotation_y(-lon.to_radians()) * Mat3::from_rotation_x(lat.to_radians()) * Vec3::Y;
    let browedit_to_world = Vec3::new(1.0, -1.0, -1.0);
    let w = Vec3::from(AXES);
    let towards = (to_sun * browedit_to_world * w).normalize_or(Vec3::Y);
    let rotation = Quat::from_rotation_arc(Vec3::NEG_Z, -towards);
    let (color, intensity) = color_and_intensity(light.diffuse);
    scene.lights.push(Light {
        name: "sun".into(),
        kind: LightKind::Directional,
        color,
        intensity,
        range: None,
        extras: json!({"longitude": light.longitude, "latitude": light.latitude}),
    });
    let n = scene.nodes.len();
    scene.nodes.push(Node {
        name: "sun".into(),
        transform: Transform::Trs { translation: [0.0; 3], rotation: rotation.to_array(), scale: [1.0; 3] },
        light: Some(scene.lights.len() - 1),
        ..Default::default()
    });
    scene.nodes[parent].children.push(n);
    scene.extras = json!({
        "ambient": light.ambient,
        "diffuse": light.diffuse,
        "shadow_opacity": light.shadow_opacity,
        "longitude": light.longitude,
        "latitude": light.latitude,
    });
}

/// One alpha-blended quad over the whole ground at the water level.
fn water_plane(scene: &mut Scene, level: f32, size: GroundSize, water_type: Option<i32>) -> Node {
    let (w, h) = (size.width as f32 * size.zoom, size.height as f32 * size.zoom);
    let level = if level.is_finite() { level } else { 0.0 };
    let corners = [[0.0, level, 0.0], [w, level, 0.0], [w, level, h], [0.0, level, h]].map(world_to_gltf);
    let up = world_to_gltf([0.0, -1.0, 0.0]);
    scene.materials.push(Material {
        name: format!("water{}", water_type.unwrap_or(0)),
        base_color: [0.25, 0.45, 0.75, 0.5],
        alpha_blend: true,
        double_sided: true,
        roughness: 0.2,
        ..Material::default()
    });
    let primitive = Primitive {
        positions: corners.to_vec(),
        normals: vec![up; 4],
        uvs: vec![[0.0, 0.0], [size.width as f32 / 4.0, 0.0], [size.width as f32 / 4.0, size.height as f32 / 4.0], [0.0, size.height as f32 / 4.0]],
        indices: vec![0, 2, 1, 0, 3, 2],
        material: Some(scene.materials.len() - 1),
        ..Default::default()
    };
    scene.meshes.push(Mesh { name: "water".into(), primitives: vec![primitive], extras: json!({"level": level, "type": water_type}) });
    Node { name: "water plane".into(), mesh: Some(scene.meshes.len() - 1), ..Default::default() }
}

