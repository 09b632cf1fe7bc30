//! The ground as a scene (glTF): one root node `ground` holding the ground mesh, and for GND 1.8+ (or
//! water given by the caller, an RSW's) a root node `water`. Positions through [`crate::ragnarok::world`]
//! (Y-up, the file's units, origin at the map centre), so the RSW conversion can merge this scene with
//! its placed models.
//!
//! # Geometry (roBrowser `Loaders/Ground.js` and BrowEdit3 `GndRenderer` agree on all of it)
//!
//! - **Top** of cube `(x, y)` with surface `top ≥ 0`: corners `(x, y)`, `(x+1, y)`, `(x, y+1)`, `(x+1, y+1)`
//!   at the cube's heights 0..3, texture coordinates `(u[k], v[k])` of the surface for corner `k`;
//!   triangles `(0, 1, 3)` and `(3, 2, 0)` (the diagonal from `(x, y)` to `(x+1, y+1)`, as both loaders
//!   draw it; GND.MD's "bottom-right to top-left" names the same diagonal in its own orientation).
//! - **Front** wall of cube `(x, y)` with `front ≥ 0` and a cube `(x, y+1)` north of it: the edge between
//!   them, from this cube's corners 2, 3 down or up to the northern cube's corners 0, 1. Texture
//!   coordinates: this cube's corner 2 takes the surface's corner 0, corner 3 corner 1, the northern
//!   cube's corner 0 corner 2 and its corner 1 corner 3.
//! - **Right** wall of cube `(x, y)` with `right ≥ 0` and a cube `(x+1, y)` east of it: from this cube's
//!   corners 1, 3 to the eastern cube's corners 0, 2. Texture coordinates: corner 3 takes the surface's
//!   corner 0, corner 1 corner 1, the eastern cube's corner 2 corner 2 and its corner 0 corner 3.
//! - Walls on the map's north or east edge are not drawn (no neighbour); walls are drawn whatever the
//!   neighbour's surfaces (both loaders). Materials are double-sided: a wall faces whichever side is
//!   lower, and the client draws the ground without culling.
//! - A surface whose texture index names no texture is drawn with an untextured material.
//!
//! # Shading: lightmaps and colours baked into `COLOR_0`, smooth normals
//!
//! The client (roBrowser's ground shader) draws `texture × clamp((ambient + sun) × shadow) × tile colour
//! + colour map`: the tile colour is the top surface's colour (BGRA) spread over the grid corners (corner
//! `(cx, cy)` takes cube `(cx, cy)`'s colour, clamped at the edges: GND.MD's "applied to the bottom left
//! vertex and all vertices that share the same coordinate"), walls take none; the lightmap's shadow
//! intensity multiplies, its RGB colour map (the editor's baked point lights) is added, each texel
//! posterized to steps of 16 (`c >> 4 << 4`, roBrowser's `createLightmapImage`).
//!
//! relic bakes both into `COLOR_0` (choice (a) of issue 27, the additive part since issue 39): for each
//! corner of a surface, `COLOR_0.rgb = min(1, tile colour / 255 × shadow / 255 + colour / 255)`, alpha 1,
//! where `shadow` and `colour` are the lightmap's sampled where the client samples it: the lightmap's
//! texels 1..7 span the surface (one texel of border, both loaders), so the corners sit on texel
//! boundaries and bilinear filtering gives the mean of the 2 × 2 texels around the corner: corner
//! `(x, y)` of the surface (`x`, `y` ∈ {0, 1}) is the rounded mean of texels `(6x, 6y)`, `(6x+1, 6y)`,
//! `(6x, 6y+1)`, `(6x+1, 6y+1)` (for the usual 8 × 8 lightmap; in general `(1 + (w−2)·x)` ± ½), the
//! colour's texels posterized first. glTF interpolates the four corners linearly, so the detail inside a
//! cell (a 6 × 6 shadow) is lost; and glTF has no per-vertex emission, so the colour map is multiplied by
//! the texture and the lighting like the rest of `COLOR_0` instead of added after them: a lamp's glow
//! stays visible in any glTF viewer, tinted by the ground it falls on. Cells without a top surface count
//! as white. The sun (RSW light) is not baked: materials are lit, and the RSW conversion adds its light.
//!
//! Every vertex has a `NORMAL`. A top surface's corner takes the smooth normal of the ground there: the
//! sum of the face normals (the two triangles' cross products, so weighted by area) of every top surface
//! that shares that grid corner at the same height (within [`SMOOTH_HEIGHT`]); where the neighbouring
//! cells meet at another height (a cliff, joined by a wall) the edge stays sharp. A wall's corners take
//! the wall's own face normal. Every normal agrees with its triangles' winding (the tops face up), so a
//! renderer that flips the normal of a back face (the materials are double-sided) shades both sides.
//!
//! # Water
//!
//! As roBrowser: a quad at the water level over each cell with a top surface one of whose corners lies
//! below `level − wave height` (Y-down), the level and wave height of the cell's zone (1.9), else the
//! default plane's. One alpha-blended, double-sided material (`water`, a light blue at alpha 0.56, the
//! client's water opacity as roBrowser has it); the water textures (`data\texture\워터\`) and the waves
//! are not converted.

use std::collections::HashMap;

use super::types::*;
use glam::Vec3;

use crate::asset::{Material, Mesh, Node, Primitive, Scene, Texture};
use crate::error::Result;
use crate::ragnarok::rsm::scene::{TextureLookup, UNTEXTURED};
use crate::ragnarok::world;

/// Choices for [`ground_scene`].
#[derive(Debug, Clone)]
pub struct GroundOptions {
    /// Bake lightmap shadows and tile colours into `COLOR_0` (default on).
    pub lightmaps: bool,
    /// Draw water (default on).
    pub water: bool,
    /// Water to draw instead of the GND's own (an RSW below 2.6 holds the map's water); `None` uses
    /// the GND's (1.8+).
    pub water_override: Option<Water>,
}

impl Default for GroundOptions {
    fn default() -> Self {
        GroundOptions { lightmaps: true, water: true, water_override: None }
    }
}

/// How close two cells' heights at a shared grid corner must be for the ground's normal to be smoothed
/// across them (file units; heights are stored as f32, and a cliff is at least a few units).
pub const SMOOTH_HEIGHT: f32 = 0.01;

/// The material name of the water.
pub const WATER: &str = "water";
/// Water colour and opacity (no texture).
pub const WATER_COLOR: [f32; 4] = [0.55, 0.7, 0.9, 0.56];

/// Builds the ground scene: root node `ground` (mesh `ground`, one primitive per texture), and a root
/// node `water` when water is drawn. Textures are looked up by their stored names (relative to
/// `data\texture\`) through `textures`; one not found gives a material of that name without a texture.
pub fn ground_scene(gnd: &Gnd, textures: Option<&dyn TextureLookup>, options: &GroundOptions) -> Result<Scene> {
    let mut scene = Scene::default();
    let faces = face_normals(gnd);
    let mut b =
        Builder { gnd, textures, scene: &mut scene, prims: Vec::new(), by_texture: HashMap::new(), options, faces };
    b.build();
    let prims: Vec<Primitive> = std::mem::take(&mut b.prims).into_iter().filter(|p| !p.indices.is_empty()).collect();
    // A ground with nothing drawn (no cell has a surface) is a node without a mesh: glTF forbids a mesh
    // without primitives (the validator's EMPTY_ENTITY).
    let mesh = (!prims.is_empty()).then(|| {
        scene.meshes.push(Mesh { name: "ground".into(), primitives: prims, ..Default::default() });
        scene.meshes.len() - 1
    });
    scene.nodes.push(Node { name: "ground".into(), mesh, ..Default::default() });
    scene.roots.push(scene.nodes.len() - 1);

    if options.water {
        if let Some(water) = options.water_override.as_ref().or(gnd.water.as_ref()) {
            let prim = water_primitive(gnd, water, &mut scene);
            if !prim.indices.is_empty() {
                scene.meshes.push(Mesh { name: WATER.into(), primitives: vec![prim], ..Default::default() });
                scene.nodes.push(Node { name: WATER.into(), mesh: Some(scene.meshes.len() - 1), ..Default::default() });
                scene.roots.push(scene.nodes.len() - 1);
            }
        }
    }
    Ok(scene)
}

struct Builder<'a> {
    gnd: &'a Gnd,
    textures: Option<&'a dyn TextureLookup>,
    scene: &'a mut Scene,
    /// One primitive per material, in the order the materials were made.
    prims: Vec<Primitive>,
    /// Texture index (or −1: untextured) → primitive.
    by_texture: HashMap<i32, usize>,
    options: &'a GroundOptions,
    /// The face normal (area-weighted, glTF frame) of each cube's top surface, `None` without one.
    faces: Vec<Option<Vec3>>,
}

/// One corner of a quad: position, texture coordinates, lightmap corner (0 or 1 along u and v), tile
/// colour, normal.
type Corner = ([f32; 3], [f32; 2], [usize; 2], [f32; 3], [f32; 3]);

/// The normal of triangle `(a, b, c)` by its winding, as long as twice its area.
fn triangle_normal(a: [f32; 3], b: [f32; 3], c: [f32; 3]) -> Vec3 {
    let (a, b, c) = (Vec3::from(a), Vec3::from(b), Vec3::from(c));
    let n = (b - a).cross(c - a);
    if n.is_finite() {
        n
    } else {
        Vec3::ZERO
    }
}

/// The normal of a quad drawn as triangles `(a, b, d)` and `(d, c, a)`, weighted by area.
fn quad_normal(a: [f32; 3], b: [f32; 3], c: [f32; 3], d: [f32; 3]) -> Vec3 {
    triangle_normal(a, b, d) + triangle_normal(d, c, a)
}

/// A unit vector along `v`, or up when `v` has no direction.
fn unit_or_up(v: Vec3) -> [f32; 3] {
    v.try_normalize().unwrap_or(Vec3::Y).to_array()
}

/// The face normal of every cube's top surface (see [`Builder::faces`]).
fn face_normals(g: &Gnd) -> Vec<Option<Vec3>> {
    let (w, h, zoom) = (g.width, g.height, g.zoom.get());
    let corner = |x: u32, y: u32, height: f32| world::cell_corner(w, h, zoom, x, y, height);
    (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| {
            let c = g.cube(x, y)?;
            g.surface(c.top)?;
            Some(quad_normal(
                corner(x, y, c.height(0)),
                corner(x + 1, y, c.height(1)),
                corner(x, y + 1, c.height(2)),
                corner(x + 1, y + 1, c.height(3)),
            ))
        })
        .collect()
}

/// The rounded mean of the 2 × 2 lightmap colour texels around a surface corner, each posterized to
/// steps of 16 as the client does (see the module notes); black when the lightmap is missing.
pub fn corner_colour(lightmaps: &Lightmaps, index: usize, corner: [usize; 2]) -> [u8; 3] {
    let (w, h) = (usize::try_from(lightmaps.width).unwrap_or(0), usize::try_from(lightmaps.height).unwrap_or(0));
    if w < 2 || h < 2 {
        return [0; 3];
    }
    let x0 = if corner[0] == 0 { 0 } else { w - 2 };
    let y0 = if corner[1] == 0 { 0 } else { h - 2 };
    let mut sum = [0u32; 3];
    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        match lightmaps.color(index, x0 + dx, y0 + dy) {
            Some(c) => {
                for k in 0..3 {
                    sum[k] += u32::from(c[k] >> 4 << 4);
                }
            }
            None => return [0; 3],
        }
    }
    sum.map(|s| ((s + 2) / 4) as u8)
}

/// The rounded mean of the 2 × 2 lightmap texels around a surface corner (see the module notes).
pub fn corner_shadow(lightmaps: &Lightmaps, index: usize, corner: [usize; 2]) -> u8 {
    let (w, h) = (usize::try_from(lightmaps.width).unwrap_or(0), usize::try_from(lightmaps.height).unwrap_or(0));
    if w < 2 || h < 2 {
        return 255;
    }
    let x0 = if corner[0] == 0 { 0 } else { w - 2 };
    let y0 = if corner[1] == 0 { 0 } else { h - 2 };
    let mut sum = 0u32;
    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        match lightmaps.shadow(index, x0 + dx, y0 + dy) {
            Some(s) => sum += u32::from(s),
            None => return 255,
        }
    }
    ((sum + 2) / 4) as u8
}

impl Builder<'_> {
    fn primitive(&mut self, texture: i16) -> usize {
        let name = usize::try_from(texture).ok().and_then(|t| self.gnd.textures.get(t));
        let key = if name.is_some() { i32::from(texture) } else { -1 };
        if let Some(&p) = self.by_texture.get(&key) {
            return p;
        }
        let texture_index = name.and_then(|n| {
            let image = self.textures?.image(&n.text)?;
            self.scene.textures.push(Texture { name: n.text.clone(), image });
            Some(self.scene.textures.len() - 1)
        });
        self.scene.materials.push(Material {
            name: name.map_or_else(|| UNTEXTURED.to_string(), |n| n.text.clone()),
            texture: texture_index,
            double_sided: true,
            ..Default::default()
        });
        self.prims.push(Primitive { material: Some(self.scene.materials.len() - 1), ..Default::default() });
        let p = self.prims.len() - 1;
        self.by_texture.insert(key, p);
        p
    }

    /// The tile colour of grid corner `(cx, cy)` (0..=width, 0..=height): cube `(cx, cy)`'s top surface
    /// colour, clamped at the edges; white without a top surface.
    fn tile_color(&self, cx: u32, cy: u32) -> [f32; 3] {
        let x = cx.min(self.gnd.width.saturating_sub(1));
        let y = cy.min(self.gnd.height.saturating_sub(1));
        let surface = self.gnd.cube(x, y).and_then(|c| self.gnd.surface(c.top));
        surface.map_or([1.0; 3], |s| s.rgb().map(|c| f32::from(c) / 255.0))
    }

    /// The smooth normal of grid corner `(gx, gy)` for the top surface of cube `(x, y)` (see the module
    /// notes): the face normals of the top surfaces around it that meet it at its height there.
    fn smooth_normal(&self, x: u32, y: u32, corner: usize) -> [f32; 3] {
        let g = self.gnd;
        let (gx, gy) = (x + ((corner as u32) & 1), y + ((corner as u32) >> 1));
        let own = g.cube(x, y).map_or(0.0, |c| c.height(corner));
        let mut sum = Vec3::ZERO;
        for cy in gy.saturating_sub(1)..=gy.min(g.height.saturating_sub(1)) {
            for cx in gx.saturating_sub(1)..=gx.min(g.width.saturating_sub(1)) {
                let index = u64::from(cy) * u64::from(g.width) + u64::from(cx);
                let face = usize::try_from(index).ok().and_then(|i| self.faces.get(i)).copied().flatten();
                let (Some(face), Some(c)) = (face, g.cube(cx, cy)) else { continue };
                // Which of that cube's corners the grid corner is (0..3, as stored).
                let (Some(dx), Some(dy)) = (gx.checked_sub(cx), gy.checked_sub(cy)) else { continue };
                let k = (dx + 2 * dy) as usize;
                if dx <= 1 && dy <= 1 && (c.height(k) - own).abs() <= SMOOTH_HEIGHT {
                    sum += face;
                }
            }
        }
        unit_or_up(sum)
    }

    /// Emits one quad: `corners` are (position, uv, lightmap corner, tile colour, normal) in the order
    /// a, b, c, d with triangles (a, b, d) and (d, c, a).
    fn quad(&mut self, surface: &Surface, corners: [Corner; 4]) {
        let p = self.primitive(surface.texture);
        let lightmaps = self.options.lightmaps;
        let gnd = self.gnd;
        let prim = &mut self.prims[p];
        let base = prim.positions.len() as u32;
        for (pos, uv, lm, tint, normal) in corners {
            prim.positions.push(pos);
            prim.uvs.push(uv);
            prim.normals.push(normal);
            let lightmap = usize::from(surface.lightmap);
            let (shadow, add) = if lightmaps {
                let colour = corner_colour(&gnd.lightmaps, lightmap, lm).map(|c| f32::from(c) / 255.0);
                (f32::from(corner_shadow(&gnd.lightmaps, lightmap, lm)) / 255.0, colour)
            } else {
                (1.0, [0.0; 3])
            };
            let tint = if lightmaps { tint } else { [1.0; 3] };
            let bake = |k: usize| (tint[k] * shadow + add[k]).min(1.0);
            prim.colors.push([bake(0), bake(1), bake(2), 1.0]);
        }
        prim.indices.extend([base, base + 1, base + 3, base + 3, base + 2, base]);
    }

    fn build(&mut self) {
        let g = self.gnd;
        let (w, h, zoom) = (g.width, g.height, g.zoom.get());
        let corner = |x: u32, y: u32, height: f32| world::cell_corner(w, h, zoom, x, y, height);
        for y in 0..h {
            for x in 0..w {
                let Some(c) = g.cube(x, y) else { continue };
                if let Some(s) = g.surface(c.top).copied() {
                    let t = [
                        self.tile_color(x, y),
                        self.tile_color(x + 1, y),
                        self.tile_color(x, y + 1),
                        self.tile_color(x + 1, y + 1),
                    ];
                    let n = [0, 1, 2, 3].map(|k| self.smooth_normal(x, y, k));
                    self.quad(
                        &s,
                        [
                            (corner(x, y, c.height(0)), s.uv(0), [0, 0], t[0], n[0]),
                            (corner(x + 1, y, c.height(1)), s.uv(1), [1, 0], t[1], n[1]),
                            (corner(x, y + 1, c.height(2)), s.uv(2), [0, 1], t[2], n[2]),
                            (corner(x + 1, y + 1, c.height(3)), s.uv(3), [1, 1], t[3], n[3]),
                        ],
                    );
                }
                let white = [1.0; 3];
                if let (Some(s), Some(n)) = (g.surface(c.front).copied(), g.cube(x, y + 1)) {
                    // This cube's north edge (corners 2, 3) against the northern cube's south edge (0, 1).
                    let p = [
                        corner(x, y + 1, c.height(2)),
                        corner(x + 1, y + 1, c.height(3)),
                        corner(x, y + 1, n.height(0)),
                        corner(x + 1, y + 1, n.height(1)),
                    ];
                    let normal = unit_or_up(quad_normal(p[0], p[1], p[2], p[3]));
                    self.quad(
                        &s,
                        [
                            (p[0], s.uv(0), [0, 0], white, normal),
                            (p[1], s.uv(1), [1, 0], white, normal),
                            (p[2], s.uv(2), [0, 1], white, normal),
                            (p[3], s.uv(3), [1, 1], white, normal),
                        ],
                    );
                }
                if let (Some(s), Some(e)) = (g.surface(c.right).copied(), g.cube(x + 1, y)) {
                    // This cube's east edge (corners 3, 1) against the eastern cube's west edge (2, 0).
                    let p = [
                        corner(x + 1, y + 1, c.height(3)),
                        corner(x + 1, y, c.height(1)),
                        corner(x + 1, y + 1, e.height(2)),
                        corner(x + 1, y, e.height(0)),
                    ];
                    let normal = unit_or_up(quad_normal(p[0], p[1], p[2], p[3]));
                    self.quad(
                        &s,
                        [
                            (p[0], s.uv(0), [0, 0], white, normal),
                            (p[1], s.uv(1), [1, 0], white, normal),
                            (p[2], s.uv(2), [0, 1], white, normal),
                            (p[3], s.uv(3), [1, 1], white, normal),
                        ],
                    );
                }
            }
        }
    }
}

/// The water quads (see the module notes), with their material added to `scene`.
fn water_primitive(gnd: &Gnd, water: &Water, scene: &mut Scene) -> Primitive {
    let mut prim = Primitive::default();
    let (w, h, zoom) = (gnd.width, gnd.height, gnd.zoom.get());
    for y in 0..h {
        for x in 0..w {
            let Some(c) = gnd.cube(x, y) else { continue };
            if c.top < 0 {
                continue;
            }
            let (level, wave) = water.level_at(w, h, x, y);
            if !(0..4).any(|k| c.height(k) > level - wave) {
                continue;
            }
            let base = prim.positions.len() as u32;
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                prim.positions.push(world::cell_corner(w, h, zoom, x + dx, y + dy, level));
            }
            prim.indices.extend([base, base + 1, base + 3, base + 3, base + 2, base]);
        }
    }
    if !prim.indices.is_empty() {
        scene.materials.push(Material {
            name: WATER.into(),
            base_color: WATER_COLOR,
            alpha_blend: true,
            double_sided: true,
            ..Default::default()
        });
        prim.material = Some(scene.materials.len() - 1);
    }
    prim
}
