//! A glTF written by hand, byte by byte from the glTF 2.0 specification, without relic's exporter: the
//! fixture every glTF → game model writer is tested with (issue 29). Two boxes on a two-bone hierarchy,
//! one material with a 4×4 PNG texture, and one clip whose key times are not on any game's frame grid.
//!
//! - node 0 `body`: TRS translation (0, 0, 0); the box [`BODY`]; child node 1.
//! - node 1 `arm`: TRS translation [`ARM_OFFSET`]; the box [`ARM`].
//! - animation `wave`: times [`WAVE_TIMES`]; `arm` rotation [`WAVE_ARM_ROTATION`] (about +Z), `body`
//!   translation [`WAVE_BODY_TRANSLATION`]; linear.
//! - material `skin`: base colour factor 1, texture [`TEXTURE_PNG`] (pixel (x, y) = [`texture_pixel`]).
//!
//! Each box has 24 vertices (4 per face, so each face has its own normal and UVs) and 12 triangles,
//! counter-clockwise seen from outside (glTF's front face).

use serde_json::json;

/// A box: centre and half extents.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxShape {
    pub centre: [f32; 3],
    pub half: [f32; 3],
}

/// The body's box, in node 0's space.
pub const BODY: BoxShape = BoxShape { centre: [0.0, 0.5, 0.0], half: [0.5, 0.5, 0.25] };
/// The arm's box, in node 1's space.
pub const ARM: BoxShape = BoxShape { centre: [0.0, 0.25, 0.0], half: [0.125, 0.25, 0.125] };
/// Node 1's translation under node 0.
pub const ARM_OFFSET: [f32; 3] = [0.5, 1.0, 0.0];
/// Key times of the clip, in seconds (0.5 s is no whole frame at 15 fps).
pub const WAVE_TIMES: [f32; 3] = [0.0, 0.5, 1.0];
/// The arm's rotation keys (x, y, z, w): 0°, 90° about +Z, 0°.
pub const WAVE_ARM_ROTATION: [[f32; 4]; 3] = [
    [0.0, 0.0, 0.0, 1.0],
    [0.0, 0.0, std::f32::consts::FRAC_1_SQRT_2, std::f32::consts::FRAC_1_SQRT_2],
    [0.0, 0.0, 0.0, 1.0],
];
/// The body's translation keys.
pub const WAVE_BODY_TRANSLATION: [[f32; 3]; 3] = [[0.0, 0.0, 0.0], [0.0, 0.25, 0.0], [0.0, 0.0, 0.0]];

/// A 4×4 RGBA PNG (written once with zlib by hand; its pixels are [`texture_pixel`]).
pub const TEXTURE_PNG: [u8; 107] = [
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 4, 0, 0, 0, 4, 8, 6, 0, 0, 0, 169, 241, 158,
    126, 0, 0, 0, 50, 73, 68, 65, 84, 120, 156, 21, 202, 65, 17, 0, 48, 16, 194, 64, 228, 156, 12, 164, 33, 13, 103,
    52, 157, 60, 242, 89, 157, 180, 89, 187, 240, 106, 228, 157, 189, 133, 215, 211, 41, 136, 32, 120, 243, 69, 17, 69,
    240, 118, 15, 124, 188, 37, 41, 150, 229, 127, 211, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

/// The RGBA of the texture's pixel (x, y).
pub fn texture_pixel(x: u32, y: u32) -> [u8; 4] {
    [if (x + y) % 2 == 1 { 255 } else { 40 }, (64 * x) as u8, (64 * y) as u8, 255]
}

/// A box's vertices: (positions, normals, uvs).
pub type BoxVertices = (Vec<[f32; 3]>, Vec<[f32; 3]>, Vec<[f32; 2]>);

/// A box's vertices: (positions, normals, uvs), 4 per face in the order +X, −X, +Y, −Y, +Z, −Z.
pub fn box_vertices(shape: BoxShape) -> BoxVertices {
    let mut positions = Vec::with_capacity(24);
    let mut normals = Vec::with_capacity(24);
    let mut uvs = Vec::with_capacity(24);
    for axis in 0..3 {
        for sign in [1.0f32, -1.0] {
            let mut normal = [0.0f32; 3];
            normal[axis] = sign;
            // Two axes spanning the face, chosen so that (u × v) = normal (counter-clockwise from outside).
            let (u_axis, v_axis) = ((axis + 1) % 3, (axis + 2) % 3);
            for (k, (a, b)) in [(-1.0f32, -1.0f32), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].into_iter().enumerate() {
                let mut p = shape.centre;
                p[axis] += sign * shape.half[axis];
                // On the negative face, mirror u so the quad still winds counter-clockwise from outside.
                p[u_axis] += a * sign * shape.half[u_axis];
                p[v_axis] += b * shape.half[v_axis];
                positions.push(p);
                normals.push(normal);
                uvs.push([[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]][k]);
            }
        }
    }
    (positions, normals, uvs)
}

/// A box's triangles: two per face, (0, 1, 2) and (0, 2, 3) of its four vertices.
pub fn box_indices() -> Vec<u16> {
    (0..6u16).flat_map(|f| [0, 1, 2, 0, 2, 3].map(|k| f * 4 + k)).collect()
}

/// The hand-written file as `.glb`.
pub fn box_two_bones_glb() -> Vec<u8> {
    let (json_text, bin) = document(None);
    glb(json_text.as_bytes(), &bin)
}

/// A `.glb` of a JSON document and its binary buffer, by glTF 2.0 §4.4: the JSON chunk padded with spaces,
/// the BIN chunk padded with zeros and left out when there is no buffer.
pub fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let json_len = json.len().next_multiple_of(4);
    let bin_len = bin.len().next_multiple_of(4);
    let total = 12 + 8 + json_len + if bin.is_empty() { 0 } else { 8 + bin_len };
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json_len as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(json);
    out.resize(20 + json_len, b' ');
    if !bin.is_empty() {
        out.extend_from_slice(&(bin_len as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(bin);
        out.resize(total, 0);
    }
    out
}

/// A hostile file of issue 40: `n` nodes under a root, each placing one triangle skinned by one skin whose
/// joints are those `n` nodes (small on disk, `n²` joint matrices once instanced).
pub fn one_skin_over_nodes_glb(n: usize) -> Vec<u8> {
    let f32s = |values: &[f32]| values.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>();
    let mut bin = f32s(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]); // POSITION, 36 bytes
    bin.extend([0u8; 12]); // JOINTS_0 as u8 VEC4, 12 bytes
    bin.extend(f32s(&[1.0, 0.0, 0.0, 0.0].repeat(3))); // WEIGHTS_0, 48 bytes
    let mut nodes = vec![json!({"name": "root", "children": (1..=n).collect::<Vec<_>>()})];
    nodes.extend((1..=n).map(|i| json!({"name": format!("n{i}"), "mesh": 0, "skin": 0})));
    let doc = json!({
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": nodes,
        "meshes": [{"name": "tri", "primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}}]}],
        "skins": [{"joints": (1..=n).collect::<Vec<_>>()}],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 36},
            {"buffer": 0, "byteOffset": 36, "byteLength": 12},
            {"buffer": 0, "byteOffset": 48, "byteLength": 48}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4"},
            {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"}
        ]
    });
    glb(doc.to_string().as_bytes(), &bin)
}

/// The hand-written file as `.gltf` JSON whose buffer is the file `bin_name` beside it: (JSON, buffer).
pub fn box_two_bones_gltf(bin_name: &str) -> (String, Vec<u8>) {
    document(Some(bin_name))
}

fn document(bin_uri: Option<&str>) -> (String, Vec<u8>) {
    let mut bin: Vec<u8> = Vec::new();
    let mut views = Vec::new();
    let mut accessors = Vec::new();
    let mut push_view = |bin: &mut Vec<u8>, bytes: &[u8], target: Option<u32>| -> usize {
        while bin.len() % 4 != 0 {
            bin.push(0);
        }
        let mut view = json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": bytes.len()});
        if let Some(t) = target {
            view["target"] = json!(t);
        }
        bin.extend_from_slice(bytes);
        views.push(view);
        views.len() - 1
    };
    let floats = |items: &[f32]| items.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
    let mut meshes = Vec::new();
    for (name, shape) in [("body", BODY), ("arm", ARM)] {
        let (positions, normals, uvs) = box_vertices(shape);
        let flat3: Vec<f32> = positions.iter().flatten().copied().collect();
        let min: Vec<f32> = (0..3).map(|k| shape.centre[k] - shape.half[k]).collect();
        let max: Vec<f32> = (0..3).map(|k| shape.centre[k] + shape.half[k]).collect();
        let v = push_view(&mut bin, &floats(&flat3), Some(34962));
        accessors
            .push(json!({"bufferView": v, "componentType": 5126, "count": 24, "type": "VEC3", "min": min, "max": max}));
        let position = accessors.len() - 1;
        let v = push_view(&mut bin, &floats(&normals.concat()), Some(34962));
        accessors.push(json!({"bufferView": v, "componentType": 5126, "count": 24, "type": "VEC3"}));
        let normal = accessors.len() - 1;
        let v = push_view(&mut bin, &floats(&uvs.concat()), Some(34962));
        accessors.push(json!({"bufferView": v, "componentType": 5126, "count": 24, "type": "VEC2"}));
        let uv = accessors.len() - 1;
        let indices: Vec<u8> = box_indices().iter().flat_map(|i| i.to_le_bytes()).collect();
        let v = push_view(&mut bin, &indices, Some(34963));
        accessors.push(json!({"bufferView": v, "componentType": 5123, "count": 36, "type": "SCALAR"}));
        let index = accessors.len() - 1;
        meshes.push(json!({"name": name, "primitives": [{
            "attributes": {"POSITION": position, "NORMAL": normal, "TEXCOORD_0": uv},
            "indices": index, "material": 0
        }]}));
    }
    let v = push_view(&mut bin, &floats(&WAVE_TIMES), None);
    accessors.push(
        json!({"bufferView": v, "componentType": 5126, "count": 3, "type": "SCALAR", "min": [0.0], "max": [1.0]}),
    );
    let times = accessors.len() - 1;
    let v = push_view(&mut bin, &floats(&WAVE_ARM_ROTATION.concat()), None);
    accessors.push(json!({"bufferView": v, "componentType": 5126, "count": 3, "type": "VEC4"}));
    let rotation = accessors.len() - 1;
    let v = push_view(&mut bin, &floats(&WAVE_BODY_TRANSLATION.concat()), None);
    accessors.push(json!({"bufferView": v, "componentType": 5126, "count": 3, "type": "VEC3"}));
    let translation = accessors.len() - 1;
    let image_view = push_view(&mut bin, &TEXTURE_PNG, None);
    let mut buffer = json!({"byteLength": bin.len()});
    if let Some(uri) = bin_uri {
        buffer["uri"] = json!(uri);
    }
    let document = json!({
        "asset": {"version": "2.0", "generator": "relic tests: written by hand"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [
            {"name": "body", "mesh": 0, "children": [1], "translation": [0.0, 0.0, 0.0]},
            {"name": "arm", "mesh": 1, "translation": ARM_OFFSET},
        ],
        "meshes": meshes,
        "materials": [{"name": "skin", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "metallicFactor": 0.0}}],
        "textures": [{"source": 0}],
        "images": [{"name": "skin", "bufferView": image_view, "mimeType": "image/png"}],
        "animations": [{
            "name": "wave",
            "samplers": [
                {"input": times, "output": rotation, "interpolation": "LINEAR"},
                {"input": times, "output": translation, "interpolation": "LINEAR"}
            ],
            "channels": [
                {"sampler": 0, "target": {"node": 1, "path": "rotation"}},
                {"sampler": 1, "target": {"node": 0, "path": "translation"}}
            ]
        }],
        "buffers": [buffer],
        "bufferViews": views,
        "accessors": accessors,
    });
    (document.to_string(), bin)
}
