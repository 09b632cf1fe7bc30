//! Geometry of the glTF → RSM writer ([`super`]): triangle corners in file space, welded into an RSM
//! mesh with texture slots and smoothing groups from the normals.

use std::collections::{HashMap, HashSet};

use glam::{DMat3, DMat4, DVec3};

use super::{d3, f3, limit, Notes, GROUPS, MAX_VERTICES};
use crate::asset::{Primitive, Scene};
use crate::error::Result;
use crate::ragnarok::rsm::types::Face;

/// One triangle corner before welding: file-space position, UV, normal (if any), texture slot key.
#[derive(Clone, Copy)]
pub(super) struct Corner {
    pub(super) position: DVec3,
    pub(super) uv: [f32; 2],
    pub(super) normal: Option<DVec3>,
    pub(super) material: Option<usize>,
}

/// The corners of a primitive's triangles transformed by `m` (file space).
pub(super) fn primitive_corners(
    scene: &Scene,
    p: &Primitive,
    indices: &[u32],
    m: DMat4,
    notes: &mut Notes,
    what: &str,
) -> Vec<Corner> {
    let normal_m = DMat3::from_mat4(m).inverse().transpose();
    let uv_transform = p
        .material
        .and_then(|i| scene.materials.get(i))
        .and_then(|mat| mat.texture_transform)
        .filter(|t| *t != crate::asset::TextureTransform::default());
    if uv_transform.is_some() {
        notes.add("uv-transform", || "texture transforms (KHR_texture_transform) are baked into the UVs".into());
    }
    let uv_of = |uv: [f32; 2]| match uv_transform {
        None => uv,
        // KHR_texture_transform: T(offset)·R(rotation)·S(scale), R = [cos sin; −sin cos].
        Some(t) => {
            let (sin, cos) = t.rotation.sin_cos();
            let (u, v) = (uv[0] * t.scale[0], uv[1] * t.scale[1]);
            [t.offset[0] + cos * u + sin * v, t.offset[1] - sin * u + cos * v]
        }
    };
    if indices.len() % 3 != 0 {
        notes.add("indices", || format!("{what}: an index count that is not a multiple of 3; the rest is dropped"));
    }
    let mut out = Vec::with_capacity(indices.len() - indices.len() % 3);
    for tri in indices.chunks_exact(3) {
        let mut corners = [None; 3];
        for (slot, &i) in corners.iter_mut().zip(tri) {
            let i = i as usize;
            let Some(&pos) = p.positions.get(i) else { break };
            let normal = p.normals.get(i).map(|n| {
                let v = normal_m * d3(*n);
                if v.length_squared() > 0.0 && v.is_finite() {
                    v.normalize()
                } else {
                    v
                }
            });
            *slot = Some(Corner {
                position: m.transform_point3(d3(pos)),
                uv: uv_of(p.uvs.get(i).copied().unwrap_or([0.0, 0.0])),
                normal,
                material: p.material,
            });
        }
        if let [Some(a), Some(b), Some(c)] = corners {
            out.extend([a, b, c]);
        } else {
            let vertices = p.positions.len();
            notes.drop_triangles(what, "index past the vertices", 1, || {
                format!("it has an index past the primitive's {vertices} vertices")
            });
        }
    }
    out
}

pub(super) fn note_dropped_attributes(p: &Primitive, notes: &mut Notes) {
    if !p.colors.is_empty() {
        notes.add("colors", || {
            "vertex colours (COLOR_0) dropped: RSM texture-vertex colours are ignored by the game".into()
        });
    }
    if !p.morph_targets.is_empty() {
        notes.add("morph", || "morph targets dropped (RSM has none); the base mesh is written".into());
    }
    if !p.uvs.is_empty() && p.uvs.len() != p.positions.len() {
        notes.add("uv-count", || "a primitive's UV count differs from its vertex count; missing UVs are 0".into());
    }
}

/// Union-find.
pub(super) fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// A mesh's welded arrays and faces.
pub(super) struct Built {
    pub(super) vertices: Vec<[f32; 3]>,
    pub(super) uvs: Vec<[f32; 2]>,
    pub(super) faces: Vec<Face>,
    /// Texture slot names of the mesh, in slot order.
    pub(super) slots: Vec<Option<String>>,
}

pub(super) struct Shading {
    pub(super) any_normals: bool,
    pub(super) all_flat: bool,
}

/// Welds corners into an RSM mesh; faces' smoothing groups from the normals.
pub(super) fn build_mesh(
    corners: &[Corner],
    texture_of: &dyn Fn(Option<usize>) -> Option<String>,
    double_sided: &dyn Fn(Option<usize>) -> bool,
    reverse: bool,
    shading: &mut Shading,
    what: &str,
) -> Result<Built> {
    let mut positions: HashMap<[u64; 3], usize> = HashMap::new();
    let mut uv_ids: HashMap<[u32; 2], usize> = HashMap::new();
    let mut vertices: Vec<[f32; 3]> = Vec::new();
    let mut uvs: Vec<[f32; 2]> = Vec::new();
    let mut slots: Vec<Option<String>> = Vec::new();
    let mut slot_of: HashMap<Option<String>, usize> = HashMap::new();
    let tris = corners.len() / 3;
    // Per face: vertex ids, uv ids, slot, two-sided, corner normals, flat normal.
    let mut fv: Vec<[usize; 3]> = Vec::with_capacity(tris);
    let mut ft: Vec<[usize; 3]> = Vec::with_capacity(tris);
    let mut fs: Vec<(usize, bool)> = Vec::with_capacity(tris);
    let mut fnorm: Vec<[Option<[u64; 3]>; 3]> = Vec::with_capacity(tris);
    for tri in corners.chunks_exact(3) {
        let mut v = [0usize; 3];
        let mut t = [0usize; 3];
        let mut n = [None; 3];
        for (k, c) in tri.iter().enumerate() {
            let p = f3(c.position);
            let key = [p[0].to_bits().into(), p[1].to_bits().into(), p[2].to_bits().into()];
            v[k] = *positions.entry(key).or_insert_with(|| {
                vertices.push(p);
                vertices.len() - 1
            });
            t[k] = *uv_ids.entry([c.uv[0].to_bits(), c.uv[1].to_bits()]).or_insert_with(|| {
                uvs.push(c.uv);
                uvs.len() - 1
            });
            n[k] = c.normal.map(|x| [x.x.to_bits(), x.y.to_bits(), x.z.to_bits()]);
        }
        let a = tri[0].position;
        let flat = (tri[1].position - a).cross(tri[2].position - a);
        let flat = if flat.length_squared() > 0.0 { flat.normalize() } else { flat };
        for c in tri {
            if let Some(cn) = c.normal {
                shading.any_normals = true;
                if cn.dot(flat).abs() < 0.9999 {
                    shading.all_flat = false;
                }
            }
        }
        let texture = texture_of(tri[0].material);
        let slot = *slot_of.entry(texture.clone()).or_insert_with(|| {
            slots.push(texture);
            slots.len() - 1
        });
        fv.push(v);
        ft.push(t);
        fs.push((slot, double_sided(tri[0].material)));
        fnorm.push(n);
    }
    // Smoothing: faces sharing a vertex with the same normal there are joined.
    let mut uf: Vec<usize> = (0..fv.len()).collect();
    let mut first_at: HashMap<(usize, [u64; 3]), usize> = HashMap::new();
    for (f, (v, n)) in fv.iter().zip(&fnorm).enumerate() {
        for k in 0..3 {
            let Some(normal) = n[k] else { continue };
            let other = *first_at.entry((v[k], normal)).or_insert(f);
            let (a, b) = (find(&mut uf, f), find(&mut uf, other));
            if a != b {
                uf[a] = b;
            }
        }
    }
    let comp: Vec<usize> = (0..fv.len()).map(|f| find(&mut uf, f)).collect();
    // Components at each vertex (at most GROUPS kept; a vertex where more meet is split per component).
    let mut at_vertex: Vec<Vec<usize>> = vec![Vec::new(); vertices.len()];
    for (f, v) in fv.iter().enumerate() {
        for &vi in v {
            let list = &mut at_vertex[vi];
            if !list.contains(&comp[f]) && list.len() <= GROUPS {
                list.push(comp[f]);
            }
        }
    }
    let mut split_vertex: HashMap<(usize, usize), usize> = HashMap::new();
    let mut colour: HashMap<usize, usize> = HashMap::new();
    let mut comp_vertices: HashMap<usize, Vec<usize>> = HashMap::new();
    for (f, v) in fv.iter().enumerate() {
        comp_vertices.entry(comp[f]).or_default().extend(v.iter().copied());
    }
    let mut comps: Vec<usize> = comp_vertices.keys().copied().collect();
    comps.sort_unstable();
    let mut private: HashSet<usize> = HashSet::new();
    for c in comps {
        let mut used = 0u64;
        let mut crowded = false;
        for &vi in comp_vertices.get(&c).map(Vec::as_slice).unwrap_or_default() {
            let list = &at_vertex[vi];
            crowded |= list.len() > GROUPS;
            for other in list {
                if let Some(&col) = colour.get(other) {
                    used |= 1 << col;
                }
            }
        }
        match (0..GROUPS).find(|&i| used & (1 << i) == 0) {
            Some(col) if !crowded => {
                colour.insert(c, col);
            }
            _ => {
                private.insert(c);
                colour.insert(c, 0);
            }
        }
    }
    let mut faces = Vec::with_capacity(fv.len());
    for (f, (mut v, mut t)) in fv.into_iter().zip(ft).enumerate() {
        if private.contains(&comp[f]) {
            for vi in &mut v {
                let p = vertices[*vi];
                *vi = *split_vertex.entry((*vi, comp[f])).or_insert_with(|| {
                    vertices.push(p);
                    vertices.len() - 1
                });
            }
        }
        if reverse {
            v.swap(1, 2);
            t.swap(1, 2);
        }
        let (slot, two_sided) = fs[f];
        let id = |x: usize| u16::try_from(x).unwrap_or(u16::MAX);
        faces.push(Face {
            vertices: v.map(id),
            tex_vertices: t.map(id),
            texture: u16::try_from(slot)
                .map_err(|_| limit(what, format!("{slot} texture slots: over the u16 limit of RSM faces")))?,
            padding: 0,
            two_sided: i32::from(two_sided),
            smooth_groups: vec![colour.get(&comp[f]).copied().unwrap_or(0) as i32],
        });
    }
    if vertices.len() > MAX_VERTICES {
        return Err(limit(
            what,
            format!("{} vertices: over the {MAX_VERTICES} an RSM mesh indexes (u16); split the mesh", vertices.len()),
        ));
    }
    if uvs.len() > MAX_VERTICES {
        return Err(limit(
            what,
            format!(
                "{} texture vertices: over the {MAX_VERTICES} an RSM mesh indexes (u16); split the mesh",
                uvs.len()
            ),
        ));
    }
    Ok(Built { vertices, uvs, faces, slots })
}

/// Corners moved by `m` (positions, and normals by its inverse transpose).
pub(super) fn transform_corners(corners: &mut [Corner], m: DMat4) {
    let normal_m = DMat3::from_mat4(m).inverse().transpose();
    for c in corners {
        c.position = m.transform_point3(c.position);
        c.normal = c.normal.map(|n| {
            let v = normal_m * n;
            if v.length_squared() > 0.0 && v.is_finite() {
                v.normalize()
            } else {
                v
            }
        });
    }
}
