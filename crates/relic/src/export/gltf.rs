//! glTF 2.0 output for scenes: binary `.glb` by default, or `.gltf` JSON with a `.bin` beside it.
//!
//! Written with serde_json rather than a typed glTF crate because relic needs extensions that typed crates
//! lag behind on (`KHR_animation_pointer` for animated texture transforms); the structure below follows the
//! glTF 2.0 specification and every file it writes is checked with the Khronos validator in the tests.

use serde_json::{json, Map, Value};

use super::Exported;
use crate::asset::{
    ChannelTarget, ChannelValues, Image, Interpolation, Light, LightKind, Material, Primitive, Scene, TextureProperty,
    Transform,
};
use crate::error::{Error, Result};

const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
const FLOAT: u32 = 5126;
const UNSIGNED_SHORT: u32 = 5123;
const UNSIGNED_INT: u32 = 5125;

/// Builds the binary buffer and the bufferView/accessor lists.
#[derive(Default)]
struct Builder {
    bin: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Builder {
    fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        self.view_with(target, |bin| bin.extend_from_slice(bytes))
    }

    /// A buffer view of what `write` appends, 4-byte aligned.
    fn view_with(&mut self, target: Option<u32>, write: impl FnOnce(&mut Vec<u8>)) -> usize {
        while self.bin.len() % 4 != 0 {
            self.bin.push(0);
        }
        let start = self.bin.len();
        write(&mut self.bin);
        let mut v = json!({"buffer": 0, "byteOffset": start, "byteLength": self.bin.len() - start});
        if let Some(t) = target {
            v["target"] = json!(t);
        }
        self.views.push(v);
        self.views.len() - 1
    }

    /// A float accessor of `N`-component items (`SCALAR`, `VEC2`, …), with min/max when asked.
    fn floats<const N: usize>(&mut self, items: &[[f32; N]], target: Option<u32>, bounds: bool) -> usize {
        self.floats_mapped(items, |v| v, target, bounds)
    }

    /// [`Builder::floats`] of `map(item)`, written straight into the buffer (no copy of the items).
    fn floats_mapped<const N: usize>(
        &mut self,
        items: &[[f32; N]],
        map: impl Fn([f32; N]) -> [f32; N],
        target: Option<u32>,
        bounds: bool,
    ) -> usize {
        let view = self.view_with(target, |bin| {
            for item in items {
                for f in map(*item) {
                    bin.extend_from_slice(&f.to_le_bytes());
                }
            }
        });
        let kind = match N {
            1 => "SCALAR",
            2 => "VEC2",
            3 => "VEC3",
            4 => "VEC4",
            _ => "MAT4",
        };
        let mut a = json!({"bufferView": view, "componentType": FLOAT, "count": items.len(), "type": kind});
        if bounds && !items.is_empty() {
            let mut min = [f32::INFINITY; N];
            let mut max = [f32::NEG_INFINITY; N];
            for item in items {
                let item = map(*item);
                for k in 0..N {
                    min[k] = min[k].min(item[k]);
                    max[k] = max[k].max(item[k]);
                }
            }
            a["min"] = json!(min.to_vec());
            a["max"] = json!(max.to_vec());
        }
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    fn indices(&mut self, indices: &[u32], vertex_count: usize) -> usize {
        let short = vertex_count <= usize::from(u16::MAX);
        let component = if short { UNSIGNED_SHORT } else { UNSIGNED_INT };
        let view = self.view_with(Some(ELEMENT_ARRAY_BUFFER), |bin| {
            for &i in indices {
                if short {
                    bin.extend_from_slice(&(i as u16).to_le_bytes());
                } else {
                    bin.extend_from_slice(&i.to_le_bytes());
                }
            }
        });
        self.accessors
            .push(json!({"bufferView": view, "componentType": component, "count": indices.len(), "type": "SCALAR"}));
        self.accessors.len() - 1
    }

    fn joints(&mut self, joints: &[[u16; 4]]) -> usize {
        let view = self.view_with(Some(ARRAY_BUFFER), |bin| {
            for j in joints.iter().flatten() {
                bin.extend_from_slice(&j.to_le_bytes());
            }
        });
        self.accessors
            .push(json!({"bufferView": view, "componentType": UNSIGNED_SHORT, "count": joints.len(), "type": "VEC4"}));
        self.accessors.len() - 1
    }
}

fn scalars(values: &[f32]) -> Vec<[f32; 1]> {
    values.iter().map(|&v| [v]).collect()
}

/// Checks what the glTF specification requires of the data, so that a converter bug surfaces as an error
/// here rather than as a file other tools reject.
fn check_primitive(mesh: &str, p: &Primitive) -> Result<()> {
    let n = p.positions.len();
    let bad = |what: &str| Err(Error::Unsupported(format!("glTF output: mesh `{mesh}`: {what}")));
    for (name, len) in [
        ("normals", p.normals.len()),
        ("uvs", p.uvs.len()),
        ("colors", p.colors.len()),
        ("joints", p.joints.len()),
        ("weights", p.weights.len()),
    ] {
        if len != 0 && len != n {
            return bad(&format!("{len} {name} for {n} vertices"));
        }
    }
    if p.indices.len() % 3 != 0 || p.indices.iter().any(|&i| i as usize >= n) {
        return bad("indices are not triangles over the vertices");
    }
    if p.positions.iter().flatten().any(|v| !v.is_finite()) {
        return bad("a vertex position is not finite");
    }
    Ok(())
}

fn normalized(v: [f32; 3]) -> [f32; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if len > 1e-12 && len.is_finite() {
        [v[0] / len, v[1] / len, v[2] / len]
    } else {
        [0.0, 0.0, 1.0]
    }
}

fn material_json(m: &Material, texture_index: Option<usize>, used: &mut Vec<&'static str>) -> Value {
    let mut pbr = json!({"baseColorFactor": m.base_color, "metallicFactor": 0.0, "roughnessFactor": m.roughness});
    if let Some(t) = texture_index {
        let mut info = json!({"index": t});
        if let Some(tt) = &m.texture_transform {
            info["extensions"] =
                json!({"KHR_texture_transform": {"offset": tt.offset, "rotation": tt.rotation, "scale": tt.scale}});
            used.push("KHR_texture_transform");
        }
        pbr["baseColorTexture"] = info;
    }
    let mut v = json!({"name": m.name, "pbrMetallicRoughness": pbr, "doubleSided": m.double_sided});
    if m.alpha_blend {
        v["alphaMode"] = json!("BLEND");
    }
    if m.unlit {
        v["extensions"] = json!({"KHR_materials_unlit": {}});
        used.push("KHR_materials_unlit");
    }
    set_extras(&mut v, &m.extras);
    v
}

/// A light of `KHR_lights_punctual`: the colour clamped to 0..1, a negative or non-finite intensity 0, a
/// range kept only when positive and finite, cone angles put in the order and bounds the extension asks.
fn light_json(l: &Light) -> Value {
    let unit = |x: f32| if x.is_finite() { x.clamp(0.0, 1.0) } else { 0.0 };
    let intensity = if l.intensity.is_finite() { l.intensity.max(0.0) } else { 0.0 };
    let mut v = json!({"name": l.name, "color": l.color.map(unit), "intensity": intensity});
    match l.kind {
        LightKind::Directional => v["type"] = json!("directional"),
        LightKind::Point => v["type"] = json!("point"),
        LightKind::Spot { inner_cone, outer_cone } => {
            let quarter = std::f32::consts::FRAC_PI_2;
            let angle = |x: f32| if x.is_finite() { x.clamp(0.0, quarter) } else { 0.0 };
            let outer = angle(outer_cone).max(f32::EPSILON);
            let inner = angle(inner_cone).min(outer * 0.999);
            v["type"] = json!("spot");
            v["spot"] = json!({"innerConeAngle": inner, "outerConeAngle": outer});
        }
    }
    if let Some(r) = l.range.filter(|r| r.is_finite() && *r > 0.0) {
        if l.kind != LightKind::Directional {
            v["range"] = json!(r);
        }
    }
    set_extras(&mut v, &l.extras);
    v
}

/// Puts a format's own data into a glTF object's `extras` (glTF 2.0 §5: any JSON value; `Null` is none).
fn set_extras(object: &mut Value, extras: &Value) {
    if !extras.is_null() {
        object["extras"] = extras.clone();
    }
}

fn png_of(image: &Image) -> Result<Vec<u8>> {
    super::png::encode_image(image)?
        .into_iter()
        .next()
        .map(|e| e.bytes)
        .ok_or_else(|| Error::Unsupported("glTF output: a texture has no frame".into()))
}

/// The binary buffer's size for a scene whose textures encode to `pngs` (each view padded to 4 bytes; an
/// upper bound: index views may be u16), so that the buffer is allocated once.
fn buffer_size(scene: &Scene, pngs: &[Vec<u8>]) -> usize {
    let view = |bytes: usize| bytes + 3;
    let mut size: usize = pngs.iter().map(|p| view(p.len())).sum();
    for p in scene.meshes.iter().flat_map(|m| &m.primitives) {
        let n = p.positions.len();
        size += view(12 * n) + view(4 * p.indices.len());
        for (len, bytes) in [(p.normals.len(), 12), (p.uvs.len(), 8), (p.colors.len(), 16), (p.joints.len(), 8)] {
            size += view(len * bytes);
        }
        size += view(16 * p.weights.len());
        size +=
            p.morph_targets.iter().map(|t| view(12 * t.positions.len()) + view(12 * t.normals.len())).sum::<usize>();
    }
    size += scene.skins.iter().map(|s| view(64 * s.inverse_bind_matrices.len())).sum::<usize>();
    for ch in scene.animations.iter().flat_map(|a| &a.channels) {
        let values = match &ch.values {
            ChannelValues::Translation(v) | ChannelValues::Scale(v) => 12 * v.len(),
            ChannelValues::Rotation(v) => 16 * v.len(),
            ChannelValues::Vec2(v) => 8 * v.len(),
            ChannelValues::Scalar(v) => 4 * v.len(),
            ChannelValues::MorphWeights(v) => 4 * v.iter().map(Vec::len).sum::<usize>(),
        };
        size += view(4 * ch.times.len()) + view(values);
    }
    size + 3
}

/// Builds the glTF JSON document and binary buffer.
fn build(scene: &Scene) -> Result<(Value, Vec<u8>)> {
    // Textures are encoded first (in parallel), so the buffer's size is known and it is allocated once.
    // A texture without pixels (a glTF image relic could not read, left out with a note) has no image to
    // write: it is left out and materials that name it are untextured. `kept[i]` is texture i's glTF index.
    let mut kept: Vec<Option<usize>> = Vec::with_capacity(scene.textures.len());
    let mut written = 0usize;
    for t in &scene.textures {
        kept.push((!t.image.frames.is_empty()).then(|| {
            written += 1;
            written - 1
        }));
    }
    let pngs: Vec<Vec<u8>> = {
        use crate::parallel::prelude::*;
        scene
            .textures
            .par_iter()
            .filter(|t| !t.image.frames.is_empty())
            .map(|t| png_of(&t.image))
            .collect::<Result<_>>()?
    };
    let mut b = Builder { bin: Vec::with_capacity(buffer_size(scene, &pngs)), ..Default::default() };
    let mut used: Vec<&'static str> = Vec::new();

    // glTF forbids a mesh without primitives and an accessor of no elements (the validator's
    // EMPTY_ENTITY): a primitive without vertices is left out, and so is a mesh left without primitives,
    // the nodes that held it keeping their place without a mesh. `mesh_index` maps the scene's meshes to
    // the written ones.
    let mut meshes = Vec::with_capacity(scene.meshes.len());
    let mut mesh_index: Vec<Option<usize>> = Vec::with_capacity(scene.meshes.len());
    for mesh in &scene.meshes {
        let mut prims = Vec::new();
        for p in mesh.primitives.iter().filter(|p| !p.positions.is_empty()) {
            check_primitive(&mesh.name, p)?;
            let mut attrs = Map::new();
            attrs.insert("POSITION".into(), json!(b.floats(&p.positions, Some(ARRAY_BUFFER), true)));
            if !p.normals.is_empty() {
                attrs
                    .insert("NORMAL".into(), json!(b.floats_mapped(&p.normals, normalized, Some(ARRAY_BUFFER), false)));
            }
            if !p.uvs.is_empty() {
                attrs.insert("TEXCOORD_0".into(), json!(b.floats(&p.uvs, Some(ARRAY_BUFFER), false)));
            }
            if !p.colors.is_empty() {
                attrs.insert("COLOR_0".into(), json!(b.floats(&p.colors, Some(ARRAY_BUFFER), false)));
            }
            if !p.joints.is_empty() {
                attrs.insert("JOINTS_0".into(), json!(b.joints(&p.joints)));
                attrs.insert("WEIGHTS_0".into(), json!(b.floats(&p.weights, Some(ARRAY_BUFFER), false)));
            }
            let mut prim = json!({"attributes": attrs, "mode": 4});
            if !p.indices.is_empty() {
                prim["indices"] = json!(b.indices(&p.indices, p.positions.len()));
            }
            if let Some(m) = p.material {
                prim["material"] = json!(m);
            }
            if !p.morph_targets.is_empty() {
                let targets: Vec<Value> = p
                    .morph_targets
                    .iter()
                    .map(|t| {
                        let mut v = json!({"POSITION": b.floats(&t.positions, Some(ARRAY_BUFFER), true)});
                        if !t.normals.is_empty() {
                            v["NORMAL"] = json!(b.floats(&t.normals, Some(ARRAY_BUFFER), false));
                        }
                        v
                    })
                    .collect();
                prim["targets"] = json!(targets);
            }
            prims.push(prim);
        }
        if prims.is_empty() {
            mesh_index.push(None);
            continue;
        }
        mesh_index.push(Some(meshes.len()));
        let mut m = json!({"name": mesh.name});
        m["primitives"] = Value::Array(prims);
        let mut extras = mesh.extras.clone();
        if let Some(first) = mesh.primitives.first().filter(|p| !p.morph_targets.is_empty()) {
            m["weights"] = json!(vec![0.0; first.morph_targets.len()]);
            let names: Vec<String> = first.morph_targets.iter().map(|t| t.name.clone()).collect();
            match &mut extras {
                Value::Object(map) => {
                    map.insert("targetNames".into(), json!(names));
                }
                _ => extras = json!({ "targetNames": names }),
            }
        }
        set_extras(&mut m, &extras);
        meshes.push(m);
    }

    // A matrix glTF cannot decompose into TRS (shear) is split into two nodes (see `split_shear`): the
    // node keeps its index and gets the outer part, a new node at the end takes the inner rotation and
    // carries the mesh, skin and children.
    let mut nodes: Vec<Value> = Vec::with_capacity(scene.nodes.len());
    let mut extra: Vec<Value> = Vec::new();
    for n in &scene.nodes {
        // Room for every key a node can have: no map grows, per node of thousands.
        let mut v = Value::Object(Map::with_capacity(8));
        v["name"] = json!(n.name);
        set_extras(&mut v, &n.extras);
        let mut holder = Map::new();
        match &n.transform {
            Transform::Matrix(m) if *m == IDENTITY => {}
            Transform::Matrix(m) => match split_shear(m) {
                None => v["matrix"] = json!(m.to_vec()),
                Some((outer, inner)) => {
                    let [t, r, s] = outer;
                    v["translation"] = json!(&t[..3]);
                    v["rotation"] = json!(r);
                    v["scale"] = json!(&s[..3]);
                    holder.insert("name".into(), json!(format!("{} (shear)", n.name)));
                    holder.insert("rotation".into(), json!(inner));
                }
            },
            Transform::Trs { translation, rotation, scale } => {
                v["translation"] = json!(translation);
                v["rotation"] = json!(rotation);
                v["scale"] = json!(scale);
            }
        }
        let target: &mut Map<String, Value> = if holder.is_empty() {
            v.as_object_mut().ok_or_else(|| Error::Unsupported("glTF output: node".into()))?
        } else {
            &mut holder
        };
        if !n.children.is_empty() {
            target.insert("children".into(), json!(n.children));
        }
        let mesh = n.mesh.and_then(|m| mesh_index.get(m).copied().flatten());
        if let Some(m) = mesh {
            target.insert("mesh".into(), json!(m));
        }
        // A skin needs the mesh it deforms.
        if let Some(s) = n.skin.filter(|_| mesh.is_some()) {
            target.insert("skin".into(), json!(s));
        }
        if let Some(l) = n.light {
            target.insert("extensions".into(), json!({"KHR_lights_punctual": {"light": l}}));
        }
        if !holder.is_empty() {
            v["children"] = json!([scene.nodes.len() + extra.len()]);
            extra.push(Value::Object(holder));
        }
        nodes.push(v);
    }
    nodes.extend(extra);

    let skins: Vec<Value> = scene
        .skins
        .iter()
        .map(|s| json!({"joints": s.joints, "inverseBindMatrices": b.floats(&s.inverse_bind_matrices, None, false)}))
        .collect();

    // Images go into the binary buffer as PNG.
    let mut images = Vec::new();
    for (t, png) in scene.textures.iter().filter(|t| !t.image.frames.is_empty()).zip(&pngs) {
        let view = b.view(png, None);
        images.push(json!({"name": t.name, "bufferView": view, "mimeType": "image/png"}));
    }
    let textures: Vec<Value> = (0..pngs.len()).map(|i| json!({"source": i, "sampler": 0})).collect();
    let materials: Vec<Value> = scene
        .materials
        .iter()
        .map(|m| material_json(m, m.texture.and_then(|t| kept.get(t).copied().flatten()), &mut used))
        .collect();

    let mut animations = Vec::new();
    for anim in &scene.animations {
        let mut samplers = Vec::new();
        let mut channels = Vec::new();
        for ch in &anim.channels {
            if ch.times.is_empty() {
                continue;
            }
            let input = b.floats(&scalars(&ch.times), None, true);
            let output = match &ch.values {
                ChannelValues::Translation(v) | ChannelValues::Scale(v) => b.floats(v, None, false),
                ChannelValues::Rotation(v) => b.floats(v, None, false),
                ChannelValues::Vec2(v) => b.floats(v, None, false),
                ChannelValues::Scalar(v) => b.floats(&scalars(v), None, false),
                ChannelValues::MorphWeights(v) => b.floats(&scalars(&v.concat()), None, false),
            };
            let interpolation = match ch.interpolation {
                Interpolation::Linear => "LINEAR",
                Interpolation::Step => "STEP",
            };
            samplers.push(json!({"input": input, "output": output, "interpolation": interpolation}));
            let target = match ch.target {
                ChannelTarget::Node(node) => {
                    let path = match &ch.values {
                        ChannelValues::Translation(_) => "translation",
                        ChannelValues::Rotation(_) => "rotation",
                        ChannelValues::Scale(_) => "scale",
                        ChannelValues::MorphWeights(_) => "weights",
                        _ => return Err(Error::Unsupported("glTF output: node channel with texture values".into())),
                    };
                    json!({"node": node, "path": path})
                }
                ChannelTarget::TextureTransform { material, property } => {
                    let prop = match property {
                        TextureProperty::Offset => "offset",
                        TextureProperty::Rotation => "rotation",
                        TextureProperty::Scale => "scale",
                    };
                    used.push("KHR_animation_pointer");
                    let pointer =
                        format!("/materials/{material}/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/{prop}");
                    json!({"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": pointer}}})
                }
            };
            channels.push(json!({"sampler": samplers.len() - 1, "target": target}));
        }
        if !channels.is_empty() {
            let mut a = json!({"name": anim.name});
            a["samplers"] = Value::Array(samplers);
            a["channels"] = Value::Array(channels);
            set_extras(&mut a, &anim.extras);
            animations.push(a);
        }
    }

    let mut extensions = Map::new();
    if !scene.lights.is_empty() {
        used.push("KHR_lights_punctual");
        let lights: Vec<Value> = scene.lights.iter().map(light_json).collect();
        extensions.insert("KHR_lights_punctual".into(), json!({ "lights": lights }));
    }

    used.sort_unstable();
    used.dedup();
    let mut scene_json = json!({"nodes": scene.roots});
    set_extras(&mut scene_json, &scene.extras);
    let mut doc = json!({
        "asset": {"version": "2.0", "generator": concat!("relic ", env!("CARGO_PKG_VERSION"))},
        "scene": 0,
    });
    // Lists are moved into the document: `json!` would copy each one whole (through `to_value`), which
    // doubled the memory and time of a scene of thousands of nodes.
    doc["scenes"] = Value::Array(vec![scene_json]);
    doc["nodes"] = Value::Array(nodes);
    let sections: [(&str, Vec<Value>); 8] = [
        ("meshes", meshes),
        ("materials", materials),
        ("textures", textures),
        ("images", images),
        ("skins", skins),
        ("animations", animations),
        ("accessors", std::mem::take(&mut b.accessors)),
        ("bufferViews", std::mem::take(&mut b.views)),
    ];
    for (key, list) in sections {
        if !list.is_empty() {
            doc[key] = Value::Array(list);
        }
    }
    if !pngs.is_empty() {
        doc["samplers"] = json!([{"wrapS": 10497, "wrapT": 10497}]);
    }
    if !used.is_empty() {
        doc["extensionsUsed"] = json!(used);
    }
    if !extensions.is_empty() {
        doc["extensions"] = Value::Object(extensions);
    }
    while b.bin.len() % 4 != 0 {
        b.bin.push(0);
    }
    if !b.bin.is_empty() {
        doc["buffers"] = json!([{"byteLength": b.bin.len()}]);
    }
    Ok((doc, b.bin))
}

const IDENTITY: [f32; 16] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];

/// Splits an affine matrix whose 3×3 part has shear into `outer · inner`, where `outer` is TRS
/// (translation, rotation, scale that may be negative) and `inner` a pure rotation, through the singular
/// value decomposition `A = U·Σ·Vᵀ` (outer = T·U·Σ, inner = Vᵀ). `None` when glTF can take the matrix as
/// it is: its columns are orthogonal, so it already is T·R·S (glTF requires node matrices to be).
fn split_shear(m: &[f32; 16]) -> Option<([[f32; 4]; 3], [f32; 4])> {
    use glam::{DMat3, DQuat, DVec3};
    let a = DMat3::from_cols(
        DVec3::new(m[0].into(), m[1].into(), m[2].into()),
        DVec3::new(m[4].into(), m[5].into(), m[6].into()),
        DVec3::new(m[8].into(), m[9].into(), m[10].into()),
    );
    let cols = [a.x_axis, a.y_axis, a.z_axis];
    let scale = cols.iter().map(|c| c.length()).fold(0.0f64, f64::max).max(1e-30);
    let orthogonal = (0..3).all(|i| (i + 1..3).all(|j| cols[i].dot(cols[j]).abs() <= 1e-6 * scale * scale));
    if orthogonal {
        return None;
    }
    // Eigen-decomposition of the symmetric AᵀA by Jacobi rotations (3×3: a handful of sweeps).
    let (mut v, mut d) = (DMat3::IDENTITY, (a.transpose() * a).to_cols_array_2d());
    for _ in 0..50 {
        let (mut p, mut q, mut big) = (0, 1, 0.0);
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            if d[j][i].abs() > big {
                (p, q, big) = (i, j, d[j][i].abs());
            }
        }
        if big < 1e-15 {
            break;
        }
        let theta = (d[q][q] - d[p][p]) / (2.0 * d[q][p]);
        let sign = if theta < 0.0 { -1.0 } else { 1.0 };
        let t = sign / (theta.abs() + (theta * theta + 1.0).sqrt());
        let c = 1.0 / (t * t + 1.0).sqrt();
        let s = t * c;
        let mut rot = DMat3::IDENTITY.to_cols_array_2d();
        rot[p][p] = c;
        rot[q][q] = c;
        rot[q][p] = s;
        rot[p][q] = -s;
        let r = DMat3::from_cols_array_2d(&rot);
        d = (r.transpose() * DMat3::from_cols_array_2d(&d) * r).to_cols_array_2d();
        v *= r;
    }
    if v.determinant() < 0.0 {
        v.z_axis = -v.z_axis;
    }
    let sigma = DVec3::new(d[0][0].max(0.0).sqrt(), d[1][1].max(0.0).sqrt(), d[2][2].max(0.0).sqrt());
    if sigma.min_element() <= 1e-12 * scale {
        return None; // singular: nothing better than the matrix itself
    }
    // U = A·V·Σ⁻¹; a reflection in A goes into a negative scale so that U stays a rotation.
    let mut u = a * v * DMat3::from_diagonal(sigma.recip());
    let mut sig = sigma;
    if u.determinant() < 0.0 {
        u.z_axis = -u.z_axis;
        sig.z = -sig.z;
    }
    let r_outer = DQuat::from_mat3(&u).normalize();
    let r_inner = DQuat::from_mat3(&v.transpose()).normalize();
    let f = |q: DQuat| [q.x as f32, q.y as f32, q.z as f32, q.w as f32];
    Some(([[m[12], m[13], m[14], 0.0], f(r_outer), [sig.x as f32, sig.y as f32, sig.z as f32, 0.0]], f(r_inner)))
}

/// Binary glTF: header, JSON chunk (space padded), BIN chunk (zero padded).
pub fn to_glb(scene: &Scene) -> Result<Vec<u8>> {
    let (doc, bin) = build(scene)?;
    let mut json_bytes = serde_json::to_vec(&doc).map_err(|e| Error::Unsupported(format!("glTF output: {e}")))?;
    while json_bytes.len() % 4 != 0 {
        json_bytes.push(b' ');
    }
    let total = 12 + 8 + json_bytes.len() + if bin.is_empty() { 0 } else { 8 + bin.len() };
    let total = u32::try_from(total).map_err(|_| Error::Unsupported("glTF output: over 4 GiB".into()))?;
    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&total.to_le_bytes());
    out.extend_from_slice(&(json_bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json_bytes);
    if !bin.is_empty() {
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bin);
    }
    Ok(out)
}

/// glTF JSON plus its `.bin` (named `<stem>.bin`, referenced by a relative URI).
pub fn to_gltf(scene: &Scene, stem: &str) -> Result<Vec<Exported>> {
    let (mut doc, bin) = build(scene)?;
    let mut out = Vec::new();
    if !bin.is_empty() {
        doc["buffers"][0]["uri"] = json!(uri_escape(&format!("{stem}.bin")));
    }
    let text = super::json::to_pretty(&doc)?;
    out.push(Exported { suffix: String::new(), extension: "gltf", bytes: text });
    if !bin.is_empty() {
        out.push(Exported { suffix: String::new(), extension: "bin", bytes: bin });
    }
    Ok(out)
}

/// Percent-escapes what a relative URI cannot hold as it is.
fn uri_escape(name: &str) -> String {
    let mut s = String::with_capacity(name.len());
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Mat4, Quat, Vec3};

    fn compose(outer: [[f32; 4]; 3], inner: [f32; 4]) -> Mat4 {
        let [t, r, s] = outer;
        Mat4::from_scale_rotation_translation(
            Vec3::new(s[0], s[1], s[2]),
            Quat::from_array(r),
            Vec3::new(t[0], t[1], t[2]),
        ) * Mat4::from_quat(Quat::from_array(inner))
    }

    /// The binary buffer is allocated once: its size is known before the first byte is written.
    #[test]
    fn the_buffer_never_grows() {
        use crate::asset::*;
        let image = Image {
            frames: vec![Frame {
                name: None,
                width: 3,
                height: 2,
                pixels: Pixels::Rgba8(vec![7; 24]),
                offset: (0, 0),
                hotspots: vec![],
                role: FrameRole::Frame,
            }],
            palette: None,
            frame_rate: None,
            text: Vec::new(),
        };
        let prim = Primitive {
            positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            normals: vec![[0.0, 0.0, 1.0]; 3],
            uvs: vec![[0.0; 2]; 3],
            colors: vec![[1.0; 4]; 3],
            joints: vec![[0; 4]; 3],
            weights: vec![[1.0, 0.0, 0.0, 0.0]; 3],
            indices: vec![0, 1, 2],
            material: Some(0),
            morph_targets: vec![MorphTarget { name: "m".into(), positions: vec![[0.0; 3]; 3], normals: vec![] }],
        };
        let channel = |values| Channel {
            target: ChannelTarget::Node(0),
            times: vec![0.0, 1.0, 2.0],
            values,
            interpolation: Interpolation::Linear,
        };
        let scene = Scene {
            nodes: vec![Node { name: "n".into(), mesh: Some(0), skin: Some(0), ..Default::default() }],
            roots: vec![0],
            meshes: vec![Mesh { name: "m".into(), primitives: vec![prim.clone(), prim], ..Default::default() }],
            materials: vec![Material { texture: Some(0), ..Default::default() }],
            textures: vec![Texture { name: "t".into(), image }],
            skins: vec![Skin { joints: vec![0], inverse_bind_matrices: vec![IDENTITY] }],
            animations: vec![Animation {
                name: "a".into(),
                channels: vec![
                    channel(ChannelValues::Rotation(vec![[0.0, 0.0, 0.0, 1.0]; 3])),
                    channel(ChannelValues::MorphWeights(vec![vec![0.5]; 3])),
                ],
                ..Default::default()
            }],
            ..Default::default()
        };
        let pngs = vec![png_of(&scene.textures[0].image).unwrap()];
        let (_, bin) = build(&scene).unwrap();
        assert!(bin.len() <= buffer_size(&scene, &pngs), "{} > {}", bin.len(), buffer_size(&scene, &pngs));
        assert_eq!(bin.capacity(), buffer_size(&scene, &pngs), "the buffer grew");
    }

    /// A mesh without primitives, or whose primitives have no vertices, is not written (glTF forbids an
    /// empty `primitives` list and an accessor of no elements): its nodes keep their place without a
    /// mesh (and without the skin that would need it), and the meshes after it are renumbered.
    #[test]
    fn empty_meshes_are_left_out_and_the_rest_renumbered() {
        use crate::asset::*;
        let triangle = Primitive {
            positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            indices: vec![0, 1, 2],
            ..Default::default()
        };
        let mesh =
            |name: &str, primitives: Vec<Primitive>| Mesh { name: name.into(), primitives, ..Default::default() };
        let node = |mesh: usize| Node { name: format!("n{mesh}"), mesh: Some(mesh), ..Default::default() };
        let scene = Scene {
            nodes: vec![node(0), node(1), Node { skin: Some(0), ..node(2) }, node(3)],
            roots: vec![0, 1, 2, 3],
            meshes: vec![
                mesh("none", vec![]),
                mesh("a", vec![triangle.clone()]),
                mesh("no vertices", vec![Primitive::default()]),
                mesh("b", vec![Primitive::default(), triangle]),
            ],
            skins: vec![Skin { joints: vec![0], inverse_bind_matrices: vec![IDENTITY] }],
            ..Default::default()
        };
        let (doc, _) = build(&scene).unwrap();
        let names: Vec<&str> = doc["meshes"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(doc["meshes"][1]["primitives"].as_array().unwrap().len(), 1);
        let meshes: Vec<Option<u64>> = (0..4).map(|i| doc["nodes"][i]["mesh"].as_u64()).collect();
        assert_eq!(meshes, [None, Some(0), None, Some(1)]);
        assert!(doc["nodes"][2].get("skin").is_none());
    }

    #[test]
    fn sheared_and_mirrored_matrices_split_into_trs_exactly() {
        let cases: [[f32; 16]; 4] = [
            [1.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 2.0, 3.0, 4.0, 1.0],
            [-1.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.3, 2.0, 0.0, 0.0, 0.0, 0.0, 1.0],
            [0.2, 1.1, -0.4, 0.0, 0.9, 0.1, 0.3, 0.0, -0.5, 0.7, 1.6, 0.0, -1.0, 0.5, 0.0, 1.0],
            [3.0, 0.0, 0.0, 0.0, 3.0, 0.001, 0.0, 0.0, 0.0, 0.0, -0.01, 0.0, 0.0, 0.0, 0.0, 1.0],
        ];
        for m in cases {
            let (outer, inner) = split_shear(&m).expect("sheared");
            let back = compose(outer, inner);
            assert!(back.abs_diff_eq(Mat4::from_cols_array(&m), 1e-4), "{m:?} came back as {back}");
        }
        // Rotation times non-uniform scale (and mirroring) is TRS already.
        let trs =
            Mat4::from_scale_rotation_translation(Vec3::new(2.0, -1.0, 0.5), Quat::from_rotation_y(0.7), Vec3::ONE);
        assert!(split_shear(&trs.to_cols_array()).is_none());
    }
}
