//! A map (RSW with its GND and GAT) as one glTF scene, its root nodes named `ground`, `water`, `models`,
//! `lights`, `sounds` and `effects`, and `walkability` when asked (the viewer toggles them by name).
//!
//! The walkability overlay (the GAT) is left out by default: it covers the ground, so a render of the map
//! in Blender would be the overlay's colours. `--option ro-rsw.walkability=scene` puts it into the map's
//! scene as the root `walkability` (what `relic view` does, to toggle it), `=file` writes it as its own
//! glTF (`<map>.rsw/walkability.glb`, in the map's frame: imported over the map it lies on the ground),
//! `=off` (the default) writes none; `relic convert x.gat` gives its PNG either way.
//!
//! Frame: [`crate::ragnarok::world`] (RSW positions and GND heights in one Y-down frame centred on the
//! map, to glTF by a half turn about X, file units). The ground and its water come from
//! [`crate::ragnarok::gnd::ground_scene`]; below RSW 2.6 the RSW's water is drawn unless the GND holds
//! water of its own (GND 1.8+: the newer file wins, as the 2.6 client reads water only from the GND).
//! The walkability overlay draws each GAT cell (5 units, half a ground cell, the GAT centred like the
//! ground) at its four corner heights, lifted by [`OVERLAY_LIFT`], coloured by
//! [`crate::ragnarok::gat::cell_colour`] at half opacity, unlit.
//!
//! Models are looked for in `data\model\` of the map's GRF, of its client folder (the nearest folder
//! named `data` above it), then in the map's own folder (`model/<path>`, `<path>`), `--models` and
//! `--textures` (`data/model/<path>`, `model/<path>`, `<path>`), ASCII case ignored.
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
//! kept in the placement's extras, not applied. 2.2+ models are not lifted by their bounding box:
//! BrowEdit3 places them with `S(1,−1,1)` alone; roBrowser's lift (see [`crate::ragnarok::world`]) is not
//! applied (unsettled: no 2.2+ map with its models was at hand to compare).
//!
//! Lights: point lights (`KHR_lights_punctual`) at their place, range as stored (world units); the sun a
//! directional light from longitude and latitude as BrowEdit3 turns them (`(0,1,0)·Rx(−latitude)·
//! Ry(longitude)` points at the sun), ambient and diffuse colours and shadow opacity in the scene's extras
//! (glTF has no ambient light). Colours are scaled into 0..1, the excess (the largest component, when
//! over 1) multiplying the intensity. Intensities are photometric, as `KHR_lights_punctual` asks (lux for
//! the sun, candela for points), chosen so that a renderer that shows scene-linear radiance as it is
//! (Blender's "Standard" view) lights the map as the client does. Blender's importer turns them into
//! watts at 683 lm/W (sun W/m² = lux / 683; point W = cd × 4π / 683, so a point of `I` cd lights a
//! surface `d` away, facing it, with `I / (683 d²)` W/m²), and a white diffuse (Lambertian) surface lit
//! with `E` W/m² shows the value `E / π`: `E = π` W/m² shows it at full brightness.
//!
//! - **Sun**: the client draws `texture × diffuse × cos θ` (roBrowser's ground shader), so `E = π × 683 ×
//!   diffuse` = [`SUN_LUX`] (2146 lux, π ≈ 3.14 W/m² in Blender) times the diffuse's scale: a surface
//!   facing the sun shows its texture times the diffuse colour.
//! - **Points**: the editors bake a light into the lightmaps fading to nothing at its range; relic gives
//!   a white surface at half the range, facing the light, half the light's colour: `I = π × 683 × ½ ×
//!   (range / 2)²` = [`POINT_CANDELA_PER_RANGE_SQUARED`] (268.2) × range² candela times the colour's scale
//!   (a light of range 40 and colour 1: 429,000 cd, 7,900 W in Blender); a range that is not positive
//!   gives 0. The ground's lightmaps already hold these lights (see [`crate::ragnarok::gnd::scene`]), so
//!   a renderer that draws both lights the ground around a lamp twice; the placed models have no lightmap
//!   and need them.
//!
//! Sounds and effects are empty nodes at their place with their fields in `extras`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::{Mat3, Quat, Vec3};
use serde_json::json;

use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Light, LightKind, Material, Mesh, Node, Primitive, Scene, Transform};
use crate::error::Result;
use crate::registry::{ConvertOptions, FileLookup, Wanted};

/// Root node names, in the order they are written (`walkability` only when the overlay is in the scene).
pub const ROOTS: [&str; 7] = ["ground", "water", "models", "lights", "sounds", "effects", "walkability"];

/// `--option ro-rsw.walkability=off|scene|file`: where the walkability overlay goes (see the module doc).
pub const WALKABILITY_OPTION: &str = "ro-rsw.walkability";

/// Lumens per watt: how glTF importers (Blender's) turn photometric units into radiometric ones.
pub const LUMENS_PER_WATT: f32 = 683.0;
/// The sun's illuminance (lux) per unit of the RSW diffuse colour (see the module doc): `π × 683`.
pub const SUN_LUX: f32 = std::f32::consts::PI * LUMENS_PER_WATT;
/// A point light's intensity (candela) per squared unit of its range and unit of colour (see the
/// module doc): `π × 683 / 8`.
pub const POINT_CANDELA_PER_RANGE_SQUARED: f32 = std::f32::consts::PI * LUMENS_PER_WATT / 8.0;

/// Where the walkability overlay goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Walkability {
    /// Not written (the default).
    #[default]
    Off,
    /// The root `walkability` of the map's scene.
    Scene,
    /// A glTF of its own.
    File,
}

impl Walkability {
    /// The choice of `--option ro-rsw.walkability` (off when absent).
    pub fn from_options(opts: &ConvertOptions) -> Result<Walkability> {
        match opts.setting(WALKABILITY_OPTION).map(str::to_ascii_lowercase).as_deref() {
            None | Some("off") => Ok(Walkability::Off),
            Some("scene") => Ok(Walkability::Scene),
            Some("file") => Ok(Walkability::File),
            Some(other) => Err(crate::error::Error::Refused(format!(
                "{WALKABILITY_OPTION}={other}: the walkability overlay is off, scene (in the map's glTF) or file \
                 (a glTF of its own)"
            ))),
        }
    }
}

/// The scenes of a map: the map, and the walkability overlay when it is asked as a file of its own.
#[derive(Debug, Clone)]
pub struct MapScenes {
    pub map: Scene,
    pub walkability: Option<Scene>,
}

/// Missing model files named in the note (the rest are counted).
const MISSING_LISTED: usize = 8;

/// Bytes charged per node placed (its transform and name in the glTF).
const NODE_COST: u64 = 128;

/// The axis change of [`crate::ragnarok::world::ro_to_gltf`] as signs: `(x, y, z) → (x, −y, −z)`.
pub const AXES: [f32; 3] = [1.0, -1.0, -1.0];
/// How far the walkability overlay floats above the GAT heights (world units), so it does not fight the
/// ground for the same depth.
pub const OVERLAY_LIFT: f32 = 0.2;
/// Width of a GAT cell in world units (GAT.MD; half a ground cell of zoom 10).
pub const GAT_CELL: f32 = 5.0;

/// A point of the RO world (Y down, relative to the map centre) in glTF.
pub fn world_to_gltf(p: [f32; 3]) -> [f32; 3] {
    crate::ragnarok::world::ro_to_gltf(p)
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
        scale: [0, 1, 2].map(|i| finite(scale[i]) * AXES[i] * mirror[i]),
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
    /// The map's own folder: `model/<f>` or `<f>` (a map and its models copied out together).
    MapFolder(PathBuf),
    /// The same for a map that is not on disk, through [`crate::registry::Nearby::folder`] (the browser's
    /// files).
    MapFiles(Arc<dyn FileLookup>),
    /// `--models` or `--textures`: `data/model/<f>`, `model/<f>` or `<f>` under a folder or in an archive.
    Folder(PathBuf, &'static str),
    OtherArchive(Arc<dyn FileLookup>, &'static str),
}

impl Place {
    /// `found` reads a file found on disk in the map's own places (as [`crate::registry::Nearby::confine`] allows).
    fn read(&self, file: &str, found: &ConvertOptions) -> Option<Vec<u8>> {
        let k = key(file);
        if k.split('/').any(|p| p == ".." || p.contains(':')) {
            return None;
        }
        let under = [format!("data/model/{k}"), format!("model/{k}"), k.clone()];
        match self {
            Place::Archive(a) => a.read(&under[0]),
            Place::OtherArchive(a, _) => under.iter().find_map(|n| a.read(n)),
            Place::ClientData(dir) => read_found(dir, &format!("model/{k}"), found),
            Place::MapFolder(dir) => {
                read_found(dir, &format!("model/{k}"), found).or_else(|| read_found(dir, &k, found))
            }
            Place::MapFiles(f) => f.read(&format!("model/{k}")).or_else(|| f.read(&k)),
            Place::Folder(dir, _) => under.iter().find_map(|n| read_file(dir, n)),
        }
    }

    fn describe(&self) -> String {
        match self {
            Place::Archive(a) | Place::MapFiles(a) => a.describe(),
            Place::ClientData(dir) => dir.join("model").display().to_string(),
            Place::MapFolder(dir) => dir.display().to_string(),
            Place::Folder(dir, option) => format!("{option} {}", dir.display()),
            Place::OtherArchive(a, option) => format!("{option} {}", a.describe()),
        }
    }
}

fn read_file(dir: &Path, relative: &str) -> Option<Vec<u8>> {
    let p = crate::ragnarok::rsm::textures::find_ci(dir, relative)?;
    p.is_file().then(|| crate::source::read(&p).ok()).flatten()
}

/// A file of the map's own places, read as `opts` allows (a link under `relic view`'s root refused, in a note).
fn read_found(dir: &Path, relative: &str, opts: &ConvertOptions) -> Option<Vec<u8>> {
    let p = crate::ragnarok::rsm::textures::find_ci(dir, relative)?;
    opts.read_found(&p)
}

/// The client's `data` folder of a file on disk: the nearest ancestor named `data`, at `confine` or below it.
fn client_data(path: &Path, confine: Option<&Path>) -> Option<PathBuf> {
    path.ancestors()
        .skip(1)
        .take_while(|a| crate::paths::may_look_in(confine, a))
        .find(|a| a.file_name().is_some_and(|n| n.eq_ignore_ascii_case("data")))
        .map(Path::to_path_buf)
}

/// Where a map's files are found: its ground and altitude files beside it (or in its archive's `data\`),
/// its models in `data\model\` of its archive or client folder, then `--models`, then `--textures`.
struct Sources {
    path: Option<PathBuf>,
    places: Vec<Place>,
}

impl Sources {
    fn new(path: Option<&Path>, opts: &ConvertOptions) -> Result<Sources> {
        let mut places = Vec::new();
        if let Some(a) = opts.nearby.archive() {
            places.push(Place::Archive(Arc::clone(a)));
        }
        let confine = opts.nearby.confine();
        let client = path.and_then(|p| client_data(p, confine));
        let own = path
            .and_then(Path::parent)
            .map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d })
            .filter(|d| crate::paths::may_look_in(confine, d));
        if let Some(dir) = &client {
            places.push(Place::ClientData(dir.clone()));
        }
        if let Some(dir) = own.filter(|d| client.as_deref() != Some(*d)) {
            places.push(Place::MapFolder(dir.to_path_buf()));
        }
        if let Some(files) = opts.nearby.folder().filter(|_| path.is_none()) {
            places.push(Place::MapFiles(Arc::clone(files)));
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
        Ok(Sources { path: path.map(Path::to_path_buf), places })
    }

    /// A map file (`x.gnd`) beside the RSW on disk or among its archive's siblings, else `data\x.gnd` in
    /// its archive.
    fn map_file(&self, name: &str, opts: &ConvertOptions) -> Option<Vec<u8>> {
        let base = base_name(name);
        if base.is_empty() {
            return None;
        }
        let stored = format!("data\\{base}");
        opts.beside(self.path.as_deref(), Wanted::from(base).or_stored_as(&stored))
    }

    fn model(&self, file: &str, opts: &ConvertOptions) -> Option<Vec<u8>> {
        self.places.iter().find_map(|p| p.read(file, opts))
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
pub fn convert_map(rsw: &Rsw, input_len: u64, path: Option<&Path>, opts: &ConvertOptions) -> Result<Option<MapScenes>> {
    let overlay = Walkability::from_options(opts)?;
    let sources = Sources::new(path, opts)?;
    let map_name = path
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .or_else(|| opts.nearby.entry_name().map(str::to_string));
    let mut input_len = input_len;
    let mut scene = Scene::default();
    for name in ROOTS.into_iter().filter(|&n| n != "walkability" || overlay == Walkability::Scene) {
        scene.roots.push(scene.nodes.len());
        scene.nodes.push(Node { name: name.into(), ..Default::default() });
    }
    let mut walkability_scene = None;
    let root = |name: &str| ROOTS.iter().position(|r| *r == name).unwrap_or(0);

    // The ground and its water.
    let texture_sources = crate::ragnarok::rsm::textures::TextureSources::for_model(path, opts)?;
    let gnd_name = companion(Some(&rsw.gnd_file), map_name.as_deref(), "gnd");
    match gnd_name.as_deref().and_then(|n| sources.map_file(n, opts)) {
        Some(bytes) => {
            input_len += bytes.len() as u64;
            match crate::ragnarok::gnd::Gnd::read(&bytes) {
                Ok(gnd) => {
                    let lookup = (!texture_sources.is_empty())
                        .then_some(&texture_sources as &dyn crate::ragnarok::rsm::scene::TextureLookup);
                    let options = crate::ragnarok::gnd::GroundOptions {
                        water_override: if gnd.water.is_some() { None } else { rsw_water(rsw) },
                        ..Default::default()
                    };
                    let ground = crate::ragnarok::gnd::ground_scene(&gnd, lookup, &options)?;
                    // The ground's textures not found, said as for a lone `.gnd`.
                    crate::ragnarok::gnd::convert::note_untextured(&gnd, &ground, &texture_sources, opts);
                    let names: Vec<String> =
                        ground.roots.iter().filter_map(|&r| ground.nodes.get(r)).map(|n| n.name.clone()).collect();
                    let roots = scene.merge(ground);
                    for (r, name) in roots.into_iter().zip(names) {
                        let parent =
                            if name == crate::ragnarok::gnd::scene::WATER { root("water") } else { root("ground") };
                        scene.nodes[parent].children.push(r);
                    }
                }
                Err(e) => opts.fail(format!("{FORMAT_ID}: ground `{}`: {e}", gnd_name.as_deref().unwrap_or(""))),
            }
        }
        None => opts.note(format!(
            "{FORMAT_ID}: ground file `{}` not found beside the map: no ground or water",
            gnd_name.as_deref().unwrap_or("?")
        )),
    }

    // The walkability overlay, when asked.
    let gat_name = companion(rsw.gat_file.as_ref(), map_name.as_deref(), "gat");
    match gat_name.as_deref().and_then(|n| sources.map_file(n, opts)).filter(|_| overlay != Walkability::Off) {
        Some(bytes) => {
            input_len += bytes.len() as u64;
            match crate::ragnarok::gat::Gat::read(&bytes) {
                Ok(gat) => {
                    crate::limits::check_expansion(FORMAT_ID, "walkability", gat.cells.len() as u64 * 136, input_len)?;
                    if overlay == Walkability::Scene {
                        let node = walkability(&mut scene, &gat);
                        let n = scene.nodes.len();
                        scene.nodes.push(node);
                        scene.nodes[root("walkability")].children.push(n);
                    } else {
                        let mut own = Scene::default();
                        let node = walkability(&mut own, &gat);
                        own.nodes.push(Node { name: "walkability".into(), children: vec![1], ..Default::default() });
                        own.nodes.push(node);
                        own.roots.push(0);
                        walkability_scene = Some(own);
                    }
                }
                Err(e) => opts.fail(format!("{FORMAT_ID}: altitude `{}`: {e}", gat_name.as_deref().unwrap_or(""))),
            }
        }
        None if overlay == Walkability::Off => {}
        None => opts.note(format!(
            "{FORMAT_ID}: altitude file `{}` not found beside the map: no walkability overlay",
            gat_name.as_deref().unwrap_or("?")
        )),
    }

    // Models, each file converted once.
    let budget = crate::limits::expansion_budget(input_len);
    let mut templates: HashMap<String, Option<Template>> = HashMap::new();
    let mut missing: Vec<(String, usize)> = Vec::new();
    let mut spent: u64 = 0;
    let models_root = root("models");
    for (i, object) in rsw.objects.iter().enumerate() {
        let (name, parent, transform, extras, template_key) = match object {
            Object::Model(m) => {
                let k = key(&m.file.text);
                if !templates.contains_key(&k) {
                    let t = match sources.model(&m.file.text, opts) {
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
                let name = m
                    .name
                    .as_ref()
                    .map(|n| n.text.clone())
                    .filter(|n| !n.is_empty())
                    .unwrap_or_else(|| m.file.text.clone());
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
                (name, models_root, placement(m.position, m.rotation, m.scale), extras, Some(k))
            }
            Object::Light(l) => {
                let light = point_light(l);
                scene.lights.push(light);
                let extras = json!({"rsw_index": i, "color": l.color, "range": l.range});
                let n = scene.nodes.len();
                scene.nodes.push(Node {
                    name: l.name.text.clone(),
                    transform: at(l.position),
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
                (s.name.text.clone(), root("sounds"), at(s.position), extras, None)
            }
            Object::Effect(e) => {
                let extras = json!({"rsw_index": i, "id": e.id, "delay": e.delay, "params": e.params});
                (e.name.text.clone(), root("effects"), at(e.position), extras, None)
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
    for (file, _) in &missing {
        opts.record_missing("model", format!("data\\model\\{}", file.replace('/', "\\")));
    }
    if !missing.is_empty() {
        let placements: usize = missing.iter().map(|(_, n)| n).sum();
        let mut names: Vec<String> = missing
            .iter()
            .take(MISSING_LISTED)
            .map(|(f, _)| format!("'data\\model\\{}'", f.replace('/', "\\")))
            .collect();
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
    Ok(Some(MapScenes { map: scene, walkability: walkability_scene }))
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

/// A point light in candela (see the module doc): its colour's scale × 268.2 × range².
fn point_light(l: &LightSource) -> Light {
    let (color, scale) = color_and_intensity(l.color);
    let range = (l.range.is_finite() && l.range > 0.0).then_some(l.range);
    let intensity = range.map_or(0.0, |r| scale * POINT_CANDELA_PER_RANGE_SQUARED * r * r);
    Light {
        name: l.name.text.clone(),
        kind: LightKind::Point,
        color,
        intensity: if intensity.is_finite() { intensity } else { 0.0 },
        range,
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
    let (color, scale) = color_and_intensity(light.diffuse);
    scene.lights.push(Light {
        name: "sun".into(),
        kind: LightKind::Directional,
        color,
        intensity: scale * SUN_LUX,
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

/// The RSW's water (below 2.6) as the GND's water settings: one plane, no zones.
fn rsw_water(rsw: &Rsw) -> Option<crate::ragnarok::gnd::Water> {
    use crate::codec::float::F32;
    let w = rsw.water.as_ref()?;
    let level = w.level?;
    Some(crate::ragnarok::gnd::Water {
        level: F32::new(level),
        settings: crate::ragnarok::gnd::WaterSettings {
            kind: w.water_type.unwrap_or(0),
            wave_height: F32::new(w.wave_height.unwrap_or(1.0)),
            wave_speed: F32::new(w.wave_speed.unwrap_or(2.0)),
            wave_pitch: F32::new(w.wave_pitch.unwrap_or(50.0)),
            animation_speed: w.anim_speed.unwrap_or(3),
        },
        zones_across: 1,
        zones_down: 1,
        zones: Vec::new(),
    })
}

/// The walkability overlay: a quad per GAT cell at its corner heights, coloured by its type.
fn walkability(scene: &mut Scene, gat: &crate::ragnarok::gat::Gat) -> Node {
    let n = gat.cells.len();
    let mut p = Primitive {
        positions: Vec::with_capacity(n * 4),
        colors: Vec::with_capacity(n * 4),
        indices: Vec::with_capacity(n * 6),
        ..Default::default()
    };
    let (half_w, half_h) = (gat.width as f32 * GAT_CELL / 2.0, gat.height as f32 * GAT_CELL / 2.0);
    for (i, cell) in gat.cells.iter().enumerate() {
        let (x, y) = ((i % gat.width.max(1) as usize) as f32, (i / gat.width.max(1) as usize) as f32);
        let c = crate::ragnarok::gat::cell_colour(cell.kind);
        let colour = [f32::from(c[0]) / 255.0, f32::from(c[1]) / 255.0, f32::from(c[2]) / 255.0, 0.5];
        let base = p.positions.len() as u32;
        let h = cell.heights().map(|h| {
            let h = h.get();
            if h.is_finite() {
                h - OVERLAY_LIFT
            } else {
                0.0
            }
        });
        // Bottom left, bottom right, top left, top right (row 0 is the south edge: +Z in the RO world).
        for (k, (dx, dy)) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].into_iter().enumerate() {
            let world = [(x + dx) * GAT_CELL - half_w, h[k], (y + dy) * GAT_CELL - half_h];
            p.positions.push(world_to_gltf(world));
            p.colors.push(colour);
        }
        p.indices.extend([base, base + 1, base + 3, base + 3, base + 2, base]);
    }
    scene.materials.push(Material {
        name: "walkability".into(),
        alpha_blend: true,
        double_sided: true,
        unlit: true,
        ..Material::default()
    });
    p.material = Some(scene.materials.len() - 1);
    scene.meshes.push(Mesh { name: "walkability".into(), primitives: vec![p], ..Default::default() });
    Node { name: "walkability".into(), mesh: Some(scene.meshes.len() - 1), ..Default::default() }
}
