//! `.lvl` landscape layers as one glTF terrain (`terrain.view.glb`, a view `pack` does not read) and a
//! 16-bit heightmap per layer (`heightmaps/<id>_<name>.png`, which `pack` reads back into the layer's
//! vertex heights). Record layouts: docs/formats/drakan.md#lvl (the spec only points
//! to an `lvl_format.txt` it does not include); the geometry is built as the public re-implementation
//! OpenDrakan builds its layers (`src/odCore/Layer.cpp`, `src/odOsg/render/Renderer.cpp`
//! `createModelFromLayer`, `include/odCore/Units.h`):
//!
//! - Units are world units: a cell is 2048 of them (`Units::WU_PER_LU = 1 << 11`), heights already are.
//!   Vertex (col, row) of a layer lies at `x = (origin_x + col)·2048`, `y = world_height + (v − 0x8000)·2`,
//!   `z = (origin_y + row)·2048`, in Drakan's axes, which are glTF's ([`super::to_gltf`]). Positions are
//!   absolute (the layer nodes carry no transform), so layers line up with each other.
//! - Cell `i = row·w + col` has corners `a` (top-left), `b = a + 1`, `c = a + w + 1`, `d = c + 1`. Without
//!   flag 0x0001 ("division backslash") its left triangle is (c, b, a) and its right (c, d, b); with it,
//!   (a, c, d) and (a, d, b): counter-clockwise seen from above, glTF's front face for a floor. Ceilings
//!   (type 1) swap the first two corners of every triangle; "between" layers (type 2) get double-sided
//!   materials; other types are built as floors (the type is kept in the node's extras).
//! - Corner texture coordinates are the cell's 8 u16 `t`: A = (t3, t7), B = (t2, t6), C = (t0, t4),
//!   D = (t1, t5), over 65535 (OpenDrakan divides integers there, which looks like a slip; relic divides
//!   as floats), then `v → 1 − v` ([`super::uv_to_gltf`]).
//! - Texture FFFF:FFFF is a hole (left out); FFFE:FFFF is invisible (kept, in a primitive of its own
//!   with a transparent material named `invisible`, so users see where they are). Every other texture
//!   reference names a texture in the `.txd` of the level's database reference with that index (record
//!   0x0000); its path is relative to the level's folder (OpenDrakan `Level.cpp`), and is looked for in
//!   `--textures`, the level's folder and up to three folders above it, in any ASCII case.
//! - Normals are smooth, as OpenDrakan's model builder makes them: the sum of the (area-weighted) face
//!   normals of the layer's drawn triangles at each grid vertex, normalised (a vertex only invisible
//!   triangles touch takes its face's normal).
//! - The layer's own light is baked into vertex colours (COLOR_0) as OpenDrakan's
//!   `Layer::_bakeLocalLayerLight` does: direction towards the light
//!   `L = (cos dir·cos asc, sin asc, −sin dir·cos asc)` (radians as stored), colour
//!   `light·max(0, N·L) + 2·ambient` ("the Riot Engine seems to add the ambient component twice"),
//!   clamped to 0..1. Materials are unlit (`KHR_materials_unlit`), since the light is in the colours.
//!
//! Unverified: no real `.lvl` is in relic's corpus, so all of the above is checked only against hand-made
//! files. Not done: OpenDrakan averages the light and ambient colours with those of overlapping layers
//! whose vertices lie within 2 world units, and adds the level's static lights (objects); neither is baked
//! here. The light dropoff type is only kept in the extras.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::asset::{
    Asset, Frame, FrameRole, Image, Material, Mesh, NamedAsset, Node, Pixels, Primitive, Scene, Texture, Transform,
};
use crate::drakan::records::level::{self, Cell, DatabaseRef, LayerDefinition, LayerGrid, LevelInfo};
use crate::drakan::records::Ref;
use crate::drakan::srsc::convert::file_component;
use crate::drakan::srsc::{outputs, Context, Srsc};
use crate::registry::ConvertOptions;

use super::textures::TextureSource;
use super::{to_gltf, uv_to_gltf};

/// World units per cell (OpenDrakan `Units::WU_PER_LU`).
pub const WU_PER_CELL: f64 = 2048.0;
/// Cell flag: the cell is divided from a to d rather than from b to c (OpenDrakan
/// `OD_LAYER_FLAG_DIV_BACKSLASH`).
pub const DIVISION_BACKSLASH: u16 = 0x0001;
/// Layer types (OpenDrakan `Layer::LayerType`).
pub const FLOOR: u32 = 0;
pub const CEILING: u32 = 1;
pub const BETWEEN: u32 = 2;
/// Base colour of a triangle whose texture was not found.
pub const UNTEXTURED: [f32; 4] = [0.5, 0.5, 0.5, 1.0];
/// How many folders above the level's own are searched for databases (`Levels/` beside `Database/`).
const PARENT_LEVELS: usize = 3;
/// Output bytes a cell may become (2 triangles × 3 vertices × (position, normal, uv, colour) + indices),
/// for the expansion limit.
const BYTES_PER_CELL: u64 = 2 * 3 * (12 + 12 + 8 + 16 + 4);

/// The level's terrain scene and heightmaps; nothing for an SRSC file without a layers record (0x0001).
pub fn convert(
    srsc: &Srsc<'_>,
    ctx: &Context<'_>,
    opts: &ConvertOptions,
    textures: &mut TextureSource,
    problems: &mut Vec<String>,
) -> Vec<NamedAsset> {
    let Some(li) = srsc.find_first(0x0001) else { return Vec::new() };
    let layers = match level::parse_layers(srsc.body(li), srsc.body_offset(li)) {
        Ok(l) => l,
        Err(e) => {
            problems.push(format!("level layers (0x0001) not converted: {e}"));
            return Vec::new();
        }
    };
    let info = match srsc.find_first(0x0000).map(|i| level::parse_info(srsc.body(i), srsc.body_offset(i))) {
        Some(Ok(info)) => info,
        Some(Err(e)) => {
            problems.push(format!("level info (0x0000) not read, so no textures are resolved: {e}"));
            LevelInfo::default()
        }
        None => LevelInfo::default(),
    };
    let name =
        [info.name.text.as_str(), ctx.stem.as_str()].into_iter().find(|n| !n.is_empty()).unwrap_or("level").to_string();
    let databases = Databases::find(&info.refs, &search_bases(ctx, opts));

    let mut build = Builder {
        databases: &databases,
        textures,
        problems,
        scene: Scene::default(),
        texture_of: HashMap::new(),
        material_of: HashMap::new(),
    };
    let mut out = Vec::new();
    let mut children = Vec::new();
    // A small file must not become a huge scene (zlib packs a flat layer very well): what the layers
    // would become counts against the expansion limit of the file's size.
    let budget = crate::limits::expansion_budget(srsc.bytes.len() as u64);
    let mut spent = 0u64;
    let names = heightmap_names(&layers.layers);
    for (index, (def, block)) in layers.layers.iter().zip(&layers.blocks).enumerate() {
        let label = format!("{}_{}", def.id, def.name.text);
        let Some(cost) = layer_cost(def) else {
            build.problems.push(format!("layer {label}: {} × {} cells is too large", def.width, def.height));
            continue;
        };
        if spent.saturating_add(cost) > budget {
            build.problems.push(format!(
                "layer {label}: {} × {} cells would expand the file past relic's limit (--max-expansion raises it)",
                def.width, def.height
            ));
            continue;
        }
        if !def.world_height.get().is_finite() {
            build.problems.push(format!("layer {label}: its world height {} is not finite", def.world_height));
            continue;
        }
        let grid = match level::decode_block(def, block) {
            Ok(g) => g,
            Err(e) => {
                build.problems.push(format!("layer {label}: {e}"));
                continue;
            }
        };
        spent += cost;
        children.push(build.layer(def, &grid, &label));
        match heightmap(def, &grid) {
            Ok(image) => {
                let name = names.get(index).cloned().unwrap_or_default();
                out.push(NamedAsset { name: Some(format!("heightmaps/{name}")), asset: Asset::Image(image) });
            }
            Err(e) => build.problems.push(format!("layer {label}: no heightmap: {e}")),
        }
    }
    if children.is_empty() {
        return out;
    }
    let mut scene = build.scene;
    let root = scene.nodes.len();
    scene.nodes.push(Node { name: name.clone(), children, ..Default::default() });
    scene.roots.push(root);
    scene.extras = json!({"level": name, "database_refs": databases.listing(&info.refs)});
    out.insert(0, NamedAsset { name: Some(outputs::terrain_view()), asset: Asset::Scene(scene) });
    out
}

/// The name of each layer's heightmap (without `heightmaps/` and `.png`): `<id>_<name>`, or `<id>` for a
/// layer without a usable name; `_2`, `_3`, … added to a name an earlier layer took (in any ASCII case).
/// Every layer takes its name, whether its heightmap is made or not, so that names depend on the layer
/// definitions alone (`pack` finds the heightmaps by them).
pub fn heightmap_names(layers: &[LayerDefinition]) -> Vec<String> {
    let mut used = HashSet::new();
    layers
        .iter()
        .map(|def| {
            let safe = file_component(&def.name.text);
            let base = if safe.is_empty() { def.id.to_string() } else { format!("{}_{safe}", def.id) };
            let mut unique = base.clone();
            let mut n = 1;
            while !used.insert(unique.to_ascii_lowercase()) {
                n += 1;
                unique = format!("{base}_{n}");
            }
            unique
        })
        .collect()
}

/// Bytes a layer inflates to plus what its geometry and heightmap become, `None` when that overflows
/// (`decode_block` would compute `(w + 1)(h + 1)` first, which a hostile size overflows).
fn layer_cost(def: &LayerDefinition) -> Option<u64> {
    let (w, h) = (u64::from(def.width), u64::from(def.height));
    let vertices = (w + 1).checked_mul(h + 1)?;
    let cells = w.checked_mul(h)?;
    let inflated = vertices.checked_mul(4)?.checked_add(cells.checked_mul(26)?)?;
    inflated.checked_add(cells.checked_mul(BYTES_PER_CELL)?)?.checked_add(vertices.checked_mul(2)?)
}

// ---------------------------------------------------------------------------------------------------------
// Databases

/// Folders a database path is looked for under, in order: `--textures` (when a folder), the level's folder
/// and up to [`PARENT_LEVELS`] above it; each with the folder a database found under it must lie in, through
/// no link ([`crate::registry::Nearby::confine`], `relic view`'s root: the level's folders, not `--textures`).
fn search_bases(ctx: &Context<'_>, opts: &ConvertOptions) -> Vec<(PathBuf, Option<PathBuf>)> {
    let mut bases = Vec::new();
    if let Some(t) = opts.textures.as_ref().filter(|t| t.is_dir()) {
        bases.push((t.clone(), None));
    }
    let confine = opts.nearby.confine();
    if let Some(dir) = &ctx.dir {
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir.as_path() };
        // Absolute, so that its parents exist as paths.
        let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        bases.extend(
            dir.ancestors()
                .take(PARENT_LEVELS + 1)
                .take_while(|a| crate::paths::may_look_in(confine, a))
                .map(|a| (a.to_path_buf(), confine.map(Path::to_path_buf))),
        );
    }
    bases
}

/// The level's database references resolved to `.txd` files.
#[derive(Default)]
struct Databases {
    /// By database index: the file, and its name as output shows it (`Common/Common.txd`).
    found: HashMap<u16, (PathBuf, String)>,
    /// Indices whose `.txd` was not found, with the name it would have.
    missing: HashMap<u16, String>,
}

impl Databases {
    fn find(refs: &[DatabaseRef], bases: &[(PathBuf, Option<PathBuf>)]) -> Databases {
        let mut out = Databases::default();
        for r in refs {
            // Index 0 is the level's own database, which holds no textures; the first of a repeated index
            // counts.
            if r.db_index == 0 || out.found.contains_key(&r.db_index) || out.missing.contains_key(&r.db_index) {
                continue;
            }
            let Some(parts) = txd_components(&r.path.text) else {
                out.missing.insert(r.db_index, r.path.text.clone());
                continue;
            };
            let shown = parts.join("/");
            // A stored `..` may climb out of the folder a base is confined to: such a file is not used.
            let found = bases.iter().find_map(|(b, confine)| {
                find_any_case(b, &parts).filter(|p| crate::paths::may_look_in(confine.as_deref(), p))
            });
            match found {
                Some(path) => {
                    out.found.insert(r.db_index, (path, shown));
                }
                None => {
                    out.missing.insert(r.db_index, shown);
                }
            }
        }
        out
    }

    /// How output names database `db` (`Common/Common.txd`), whether found or not.
    fn shown(&self, db: u16) -> Option<&str> {
        let shown = self.found.get(&db).map(|(_, s)| s.as_str()).or_else(|| self.missing.get(&db).map(String::as_str));
        shown.filter(|s| !s.is_empty())
    }

    /// The scene's `database_refs`.
    fn listing(&self, refs: &[DatabaseRef]) -> Value {
        Value::Array(
            refs.iter()
                .map(|r| {
                    json!({
                        "db_index": r.db_index,
                        "path": r.path.text,
                        "textures": self.found.get(&r.db_index).map(|(_, s)| s.as_str()),
                    })
                })
                .collect(),
        )
    }
}

/// A database path (`Common\Common`, `..\Database\common/textures`) as the components of its `.txd`;
/// `None` for an absolute path or a drive letter (the path is relative to the level's folder).
fn txd_components(path: &str) -> Option<Vec<String>> {
    if path.starts_with(['/', '\\']) || path.contains(':') {
        return None;
    }
    let mut parts: Vec<String> =
        path.split(['/', '\\']).filter(|p| !p.is_empty() && *p != ".").map(str::to_string).collect();
    let last = parts.last_mut().filter(|l| *l != "..")?;
    if !last.to_ascii_lowercase().ends_with(".txd") {
        last.push_str(".txd");
    }
    Some(parts)
}

/// `base/parts…` with each component matched in any ASCII case (the game's files come from
/// case-insensitive file systems); the last must be a file.
fn find_any_case(base: &Path, parts: &[String]) -> Option<PathBuf> {
    let mut at = base.to_path_buf();
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let fits = |p: &Path| if last { p.is_file() } else { p.is_dir() };
        let exact = at.join(part);
        if part == ".." || fits(&exact) {
            at = exact;
            continue;
        }
        at = std::fs::read_dir(&at)
            .ok()?
            .flatten()
            .map(|e| e.path())
            .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case(part)) && fits(p))?;
    }
    Some(at)
}

// ---------------------------------------------------------------------------------------------------------
// Geometry

/// Which primitive a triangle goes into: a texture, or the invisible ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Surface {
    Texture(u16, u16),
    Invisible,
}

struct Builder<'a, 'p> {
    databases: &'a Databases,
    textures: &'a mut TextureSource,
    problems: &'p mut Vec<String>,
    scene: Scene,
    /// Scene texture index by reference (`None`: not found, already reported).
    texture_of: HashMap<Ref, Option<usize>>,
    /// Material index by surface and double-sidedness.
    material_of: HashMap<(Surface, bool), usize>,
}

impl<'a, 'p> Builder<'a, 'p> {
    /// The layer's node (its mesh added to the scene), and its index.
    fn layer(&mut self, def: &LayerDefinition, grid: &LayerGrid, label: &str) -> usize {
        let (w, h) = (def.width as usize, def.height as usize);
        let positions: Vec<[f32; 3]> = grid
            .vertices
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let (col, row) = (i % (w + 1), i / (w + 1));
                let x = (f64::from(def.origin_x) + col as f64) * WU_PER_CELL;
                let y = f64::from(def.world_height.get()) + f64::from(v.height());
                let z = (f64::from(def.origin_y) + row as f64) * WU_PER_CELL;
                to_gltf([x as f32, y as f32, z as f32])
            })
            .collect();
        let at = |i: usize| positions.get(i).copied().unwrap_or_default();

        // Every triangle of the grid with its corners and surface, in the winding glTF draws.
        let mut triangles: Vec<([usize; 3], [[f32; 2]; 3], Surface)> = Vec::new();
        let (mut holes, mut invisible) = (0u64, 0u64);
        for (i, cell) in grid.cells.iter().enumerate().take(w * h) {
            let (row, col) = (i / w.max(1), i % w.max(1));
            let a = row * (w + 1) + col;
            let (b, c) = (a + 1, a + w + 1);
            let d = c + 1;
            let t = cell.uv.map(|t| f32::from(t) / 65535.0);
            let uv = |u: f32, v: f32| uv_to_gltf([u, v]);
            let (ua, ub, uc, ud) = (uv(t[3], t[7]), uv(t[2], t[6]), uv(t[0], t[4]), uv(t[1], t[5]));
            let (left, right) = if cell.flags & DIVISION_BACKSLASH == 0 {
                (([c, b, a], [uc, ub, ua]), ([c, d, b], [uc, ud, ub]))
            } else {
                (([a, c, d], [ua, uc, ud]), ([a, d, b], [ua, ud, ub]))
            };
            for (texture, (mut corners, mut uvs)) in [(cell.left, left), (cell.right, right)] {
                let surface = if Cell::is_hole(texture) {
                    holes += 1;
                    continue;
                } else if Cell::is_invisible(texture) {
                    invisible += 1;
                    Surface::Invisible
                } else {
                    Surface::Texture(texture.db, texture.id)
                };
                if def.layer_type == CEILING {
                    corners.swap(0, 1);
                    uvs.swap(0, 1);
                }
                triangles.push((corners, uvs, surface));
            }
        }

        // Smooth normals over the drawn triangles.
        let face = |[p, q, r]: [usize; 3]| cross(sub(at(q), at(p)), sub(at(r), at(p)));
        let mut sums = vec![[0f64; 3]; positions.len()];
        for (corners, _, surface) in &triangles {
            if *surface == Surface::Invisible {
                continue;
            }
            let n = face(*corners);
            for &k in corners {
                if let Some(s) = sums.get_mut(k) {
                    *s = add(*s, n);
                }
            }
        }
        let up = if def.layer_type == CEILING { [0.0, -1.0, 0.0] } else { [0.0, 1.0, 0.0] };
        let light = Light::of(def);

        let mut prims: BTreeMap<Surface, Primitive> = BTreeMap::new();
        for (corners, uvs, surface) in &triangles {
            let prim = prims.entry(*surface).or_default();
            let own = face(*corners);
            for (&k, uv) in corners.iter().zip(uvs) {
                let n = unit(sums.get(k).copied().unwrap_or_default()).or_else(|| unit(own)).unwrap_or(up);
                prim.indices.push(prim.positions.len() as u32);
                prim.positions.push(at(k));
                prim.normals.push(n.map(|v| v as f32));
                prim.uvs.push(*uv);
                prim.colors.push(light.colour(n));
            }
        }
        let double_sided = def.layer_type == BETWEEN;
        let primitives: Vec<Primitive> = prims
            .into_iter()
            .map(|(surface, mut prim)| {
                prim.material = Some(self.material(surface, double_sided));
                prim
            })
            .collect();

        let mesh = (!primitives.is_empty()).then(|| {
            self.scene.meshes.push(Mesh { name: label.to_string(), primitives, ..Default::default() });
            self.scene.meshes.len() - 1
        });
        let type_name = match def.layer_type {
            FLOOR => "floor",
            CEILING => "ceiling",
            BETWEEN => "between",
            _ => "unknown (built as a floor)",
        };
        let mut extras = json!({
            "id": def.id,
            "name": def.name.text,
            "type": def.layer_type,
            "type_name": type_name,
            "flags": def.flags,
            "size": [def.width, def.height],
            "origin": [def.origin_x, def.origin_y],
            "world_height": def.world_height,
            "light_colour": colour_text(def.light_colour),
            "ambient_colour": colour_text(def.ambient_colour),
            "light_direction": def.light_direction,
            "light_ascension": def.light_ascension,
            "dropoff": def.dropoff,
            "visible_layers": def.visible_layers,
            "triangles": triangles.len() as u64 - invisible,
            "holes": holes,
            "invisible_triangles": invisible,
        });
        // A colour's top byte is not part of 0x00RRGGBB; kept when set, so nothing is lost.
        for (key, c) in [("light_colour_bits", def.light_colour), ("ambient_colour_bits", def.ambient_colour)] {
            if c >> 24 != 0 {
                extras[key] = json!(c);
            }
        }
        self.scene.nodes.push(Node {
            name: label.to_string(),
            transform: Transform::default(),
            mesh,
            extras,
            ..Default::default()
        });
        self.scene.nodes.len() - 1
    }

    /// The material of a surface (made once per surface and sidedness).
    fn material(&mut self, surface: Surface, double_sided: bool) -> usize {
        if let Some(&m) = self.material_of.get(&(surface, double_sided)) {
            return m;
        }
        let material = match surface {
            Surface::Invisible => Material {
                name: "invisible".into(),
                base_color: [1.0, 1.0, 1.0, 0.0],
                alpha_blend: true,
                double_sided,
                unlit: true,
                extras: json!({"invisible": true}),
                ..Material::default()
            },
            Surface::Texture(db, id) => {
                let name = match self.databases.shown(db) {
                    Some(shown) => format!("{shown}:{id}"),
                    None => format!("{db}:{id}"),
                };
                let texture = self.texture(Ref { id, db }, &name);
                let mut extras = json!({"texture": {"db": db, "id": id}});
                if texture.is_none() {
                    extras["texture_found"] = json!(false);
                }
                Material {
                    name,
                    base_color: if texture.is_some() { [1.0; 4] } else { UNTEXTURED },
                    texture,
                    double_sided,
                    unlit: true,
                    extras,
                    ..Material::default()
                }
            }
        };
        self.scene.materials.push(material);
        let m = self.scene.materials.len() - 1;
        self.material_of.insert((surface, double_sided), m);
        m
    }

    /// The scene texture of a reference (named `name` in messages), read and embedded once; a texture that
    /// is not found is reported once.
    fn texture(&mut self, r: Ref, name: &str) -> Option<usize> {
        if let Some(&t) = self.texture_of.get(&r) {
            return t;
        }
        let databases = self.databases;
        let resolver = |db: u16| databases.found.get(&db).cloned();
        let found = match self.textures.resolve(r, &resolver) {
            Ok((image, shown)) => {
                self.scene.textures.push(Texture { name: shown, image });
                Some(self.scene.textures.len() - 1)
            }
            Err(e) => {
                let why = match databases.missing.get(&r.db) {
                    Some(shown) => format!(
                        "{shown} not found in --textures, the level's folder or the {PARENT_LEVELS} folders above it"
                    ),
                    None if !databases.found.contains_key(&r.db) => {
                        format!("database index {} is not among the level's references", r.db)
                    }
                    None => e.to_string(),
                };
                self.problems.push(format!("texture {name}: {why}"));
                None
            }
        };
        self.texture_of.insert(r, found);
        found
    }
}

/// The layer's light as OpenDrakan bakes it (see the module notes).
struct Light {
    /// Direction towards the light; `None` when the stored angles are not numbers.
    towards: Option<[f64; 3]>,
    colour: [f64; 3],
    ambient: [f64; 3],
}

impl Light {
    fn of(def: &LayerDefinition) -> Light {
        let (dir, asc) = (f64::from(def.light_direction.get()), f64::from(def.light_ascension.get()));
        let towards = [dir.cos() * asc.cos(), asc.sin(), -dir.sin() * asc.cos()];
        Light {
            towards: towards.iter().all(|v| v.is_finite()).then_some(towards),
            colour: rgb(def.light_colour),
            ambient: rgb(def.ambient_colour),
        }
    }

    fn colour(&self, normal: [f64; 3]) -> [f32; 4] {
        let cos = self.towards.map_or(0.0, |l| dot(normal, l).max(0.0));
        let c = |k: usize| (self.colour[k] * cos + 2.0 * self.ambient[k]).clamp(0.0, 1.0) as f32;
        [c(0), c(1), c(2), 1.0]
    }
}

/// 0x00RRGGBB as 0..1 channels.
fn rgb(c: u32) -> [f64; 3] {
    [(c >> 16) & 0xFF, (c >> 8) & 0xFF, c & 0xFF].map(|v| f64::from(v) / 255.0)
}

fn colour_text(c: u32) -> String {
    format!("#{:06X}", c & 0x00FF_FFFF)
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f64; 3] {
    [0, 1, 2].map(|k| f64::from(a[k]) - f64::from(b[k]))
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `v` normalised, `None` when it has no direction (a degenerate triangle, or no triangle at all).
fn unit(v: [f64; 3]) -> Option<[f64; 3]> {
    let len = dot(v, v).sqrt();
    (len.is_finite() && len > 1e-12).then(|| v.map(|c| c / len))
}

// ---------------------------------------------------------------------------------------------------------
// Heightmaps

/// The layer's stored heights `v` as 16-bit grey, (w + 1) × (h + 1), vertex row 0 at the top (height in
/// world units = (pixel − 0x8000) × 2, plus the layer's world height).
fn heightmap(def: &LayerDefinition, grid: &LayerGrid) -> crate::error::Result<Image> {
    let side = |n: u32| n.checked_add(1).ok_or_else(|| crate::Error::Refused(format!("{n} cells is too many")));
    let (width, height) = (side(def.width)?, side(def.height)?);
    crate::limits::check_pixels("level heightmap", width, height)?;
    Ok(Image {
        frames: vec![Frame {
            name: None,
            width,
            height,
            pixels: Pixels::Gray16(grid.vertices.iter().map(|v| v.v).collect()),
            offset: (0, 0),
            hotspots: vec![],
            role: FrameRole::Frame,
        }],
        palette: None,
        frame_rate: None,
        text: Vec::new(),
    })
}
