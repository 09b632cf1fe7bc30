//! A small GLB reader for tests, independent of relic's exporter: the JSON and BIN chunks, node world
//! matrices, positions, triangles in front-face order and the attributes a primitive carries.

#![allow(dead_code)]

use glam::{Mat4, Quat, Vec3};
use serde_json::Value;

pub struct Glb {
    pub json: Value,
    pub bin: Vec<u8>,
}

/// One mesh instance in world space.
pub struct Placed {
    pub mesh_name: String,
    pub world: Mat4,
    /// Every vertex, world space.
    pub positions: Vec<Vec3>,
    /// Triangles in world space, corners ordered so that the right-hand rule gives the front (glTF flips
    /// the winding of nodes whose world matrix has a negative determinant).
    pub triangles: Vec<[Vec3; 3]>,
    /// Attribute names of its primitives (`POSITION`, `COLOR_0`, …).
    pub attributes: Vec<String>,
    /// `NORMAL`s in world space (normalised), paired with `positions` when present.
    pub normals: Vec<Vec3>,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

pub fn parse(bytes: &[u8]) -> Glb {
    assert_eq!(&bytes[..4], b"glTF");
    let json_len = u32_at(bytes, 12) as usize;
    assert_eq!(&bytes[16..20], b"JSON");
    let json: Value = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
    let mut bin = Vec::new();
    let at = 20 + json_len;
    if bytes.len() > at + 8 {
        let bin_len = u32_at(bytes, at) as usize;
        assert_eq!(&bytes[at + 4..at + 8], b"BIN\0");
        bin = bytes[at + 8..at + 8 + bin_len].to_vec();
    }
    Glb { json, bin }
}

impl Glb {
    fn view(&self, accessor: usize) -> (&[u8], usize, usize, u64, usize) {
        let a = &self.json["accessors"][accessor];
        let v = &self.json["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
        let offset = v["byteOffset"].as_u64().unwrap_or(0) as usize + a["byteOffset"].as_u64().unwrap_or(0) as usize;
        let count = a["count"].as_u64().unwrap() as usize;
        let stride = v["byteStride"].as_u64().unwrap_or(0) as usize;
        (&self.bin[offset..], count, stride, a["componentType"].as_u64().unwrap(), offset)
    }

    pub fn vec3s(&self, accessor: usize) -> Vec<Vec3> {
        let (b, count, stride, kind, _) = self.view(accessor);
        assert_eq!(kind, 5126);
        let stride = if stride == 0 { 12 } else { stride };
        (0..count)
            .map(|i| {
                let f =
                    |k: usize| f32::from_le_bytes(b[i * stride + 4 * k..i * stride + 4 * k + 4].try_into().unwrap());
                Vec3::new(f(0), f(1), f(2))
            })
            .collect()
    }

    pub fn indices(&self, accessor: usize) -> Vec<u32> {
        let (b, count, _, kind, _) = self.view(accessor);
        (0..count)
            .map(|i| match kind {
                5125 => u32_at(b, 4 * i),
                5123 => u32::from(u16::from_le_bytes([b[2 * i], b[2 * i + 1]])),
                5121 => u32::from(b[i]),
                other => panic!("index component type {other}"),
            })
            .collect()
    }

    fn local(node: &Value) -> Mat4 {
        if let Some(m) = node["matrix"].as_array() {
            let m: Vec<f32> = m.iter().map(|v| v.as_f64().unwrap() as f32).collect();
            return Mat4::from_cols_slice(&m);
        }
        let v = |key: &str, default: &[f32]| -> Vec<f32> {
            node[key].as_array().map_or(default.to_vec(), |a| a.iter().map(|v| v.as_f64().unwrap() as f32).collect())
        };
        let (t, r, s) = (v("translation", &[0.0; 3]), v("rotation", &[0.0, 0.0, 0.0, 1.0]), v("scale", &[1.0; 3]));
        Mat4::from_scale_rotation_translation(
            Vec3::new(s[0], s[1], s[2]),
            Quat::from_xyzw(r[0], r[1], r[2], r[3]),
            Vec3::new(t[0], t[1], t[2]),
        )
    }

    /// Every node with a mesh, at rest, in world space.
    pub fn placed(&self) -> Vec<Placed> {
        let scene = self.json["scene"].as_u64().unwrap_or(0) as usize;
        let roots: Vec<usize> = self.json["scenes"][scene]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        let mut stack: Vec<(usize, Mat4)> = roots.into_iter().map(|r| (r, Mat4::IDENTITY)).collect();
        let mut out = Vec::new();
        while let Some((n, parent)) = stack.pop() {
            let node = &self.json["nodes"][n];
            let world = parent * Self::local(node);
            if let Some(m) = node["mesh"].as_u64() {
                let mesh = &self.json["meshes"][m as usize];
                let mut placed = Placed {
                    mesh_name: mesh["name"].as_str().unwrap_or_default().to_string(),
                    world,
                    positions: Vec::new(),
                    triangles: Vec::new(),
                    attributes: Vec::new(),
                    normals: Vec::new(),
                };
                for p in mesh["primitives"].as_array().unwrap() {
                    let attrs = p["attributes"].as_object().unwrap();
                    placed.attributes.extend(attrs.keys().cloned());
                    let pos: Vec<Vec3> = self
                        .vec3s(attrs["POSITION"].as_u64().unwrap() as usize)
                        .into_iter()
                        .map(|v| world.transform_point3(v))
                        .collect();
                    let idx = self.indices(p["indices"].as_u64().unwrap() as usize);
                    for t in idx.chunks_exact(3) {
                        let [a, b, c] = [pos[t[0] as usize], pos[t[1] as usize], pos[t[2] as usize]];
                        placed.triangles.push(if world.determinant() < 0.0 { [a, c, b] } else { [a, b, c] });
                    }
                    if let Some(n) = attrs.get("NORMAL") {
                        let m = glam::Mat3::from_mat4(world).inverse().transpose();
                        placed.normals.extend(
                            self.vec3s(n.as_u64().unwrap() as usize).into_iter().map(|v| (m * v).normalize_or_zero()),
                        );
                    }
                    placed.positions.extend(pos);
                }
                out.push(placed);
            }
            if let Some(children) = node["children"].as_array() {
                stack.extend(children.iter().map(|c| (c.as_u64().unwrap() as usize, world)));
            }
        }
        out
    }
}

/// The front normal of a triangle by the right-hand rule.
pub fn normal(t: &[Vec3; 3]) -> Vec3 {
    (t[1] - t[0]).cross(t[2] - t[0])
}
