//! The glTF 2.0 JSON document, as far as relic reads it (glTF 2.0 §5, "Properties Reference"). Every
//! field is optional or defaulted as the specification says; unknown fields are ignored (glTF 2.0 §3.2:
//! extensions and extras may appear anywhere). Indices are plain numbers here and are checked where
//! `super::gltf` uses them.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Root {
    pub accessors: Vec<Accessor>,
    pub animations: Vec<Animation>,
    pub buffers: Vec<Buffer>,
    pub buffer_views: Vec<BufferView>,
    pub images: Vec<Image>,
    pub materials: Vec<Material>,
    pub meshes: Vec<Mesh>,
    pub nodes: Vec<Node>,
    pub scene: Option<usize>,
    pub scenes: Vec<Scene>,
    pub skins: Vec<Skin>,
    pub textures: Vec<Texture>,
    pub extensions_required: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Accessor {
    pub buffer_view: Option<usize>,
    pub byte_offset: u64,
    pub count: u64,
    pub component_type: u32,
    #[serde(rename = "type")]
    pub kind: String,
    pub normalized: bool,
    pub sparse: Option<Sparse>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Sparse {
    pub count: u64,
    pub indices: SparseIndices,
    pub values: SparseValues,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SparseIndices {
    pub buffer_view: usize,
    pub byte_offset: u64,
    pub component_type: u32,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SparseValues {
    pub buffer_view: usize,
    pub byte_offset: u64,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Buffer {
    pub byte_length: u64,
    pub uri: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BufferView {
    pub buffer: usize,
    pub byte_offset: u64,
    pub byte_length: u64,
    pub byte_stride: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Image {
    pub name: Option<String>,
    pub uri: Option<String>,
    pub buffer_view: Option<usize>,
    pub mime_type: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Texture {
    pub name: Option<String>,
    pub source: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Material {
    pub name: Option<String>,
    pub pbr_metallic_roughness: Pbr,
    pub double_sided: bool,
    pub alpha_mode: Option<String>,
    pub extensions: MaterialExtensions,
    pub extras: Value,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Pbr {
    pub base_color_factor: [f32; 4],
    pub base_color_texture: Option<TextureInfo>,
    pub roughness_factor: f32,
}

impl Default for Pbr {
    fn default() -> Self {
        Pbr { base_color_factor: [1.0; 4], base_color_texture: None, roughness_factor: 1.0 }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct MaterialExtensions {
    #[serde(rename = "KHR_materials_unlit")]
    pub unlit: Option<Value>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TextureInfo {
    pub index: usize,
    pub tex_coord: u32,
    pub extensions: TextureInfoExtensions,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TextureInfoExtensions {
    #[serde(rename = "KHR_texture_transform")]
    pub transform: Option<TextureTransform>,
}

#[derive(Debug, Deserialize)]
#[serde(default)]
pub struct TextureTransform {
    pub offset: [f32; 2],
    pub rotation: f32,
    pub scale: [f32; 2],
}

impl Default for TextureTransform {
    fn default() -> Self {
        TextureTransform { offset: [0.0; 2], rotation: 0.0, scale: [1.0; 2] }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Mesh {
    pub name: Option<String>,
    pub primitives: Vec<Primitive>,
    pub extras: Value,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Primitive {
    pub attributes: BTreeMap<String, usize>,
    pub indices: Option<usize>,
    pub material: Option<usize>,
    pub mode: u32,
    pub targets: Vec<BTreeMap<String, usize>>,
}

impl Default for Primitive {
    fn default() -> Self {
        // glTF 2.0 §5.24.4: the default mode is 4, triangles.
        Primitive { attributes: BTreeMap::new(), indices: None, material: None, mode: 4, targets: Vec::new() }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Node {
    pub name: Option<String>,
    pub children: Vec<usize>,
    pub mesh: Option<usize>,
    pub skin: Option<usize>,
    pub matrix: Option<[f32; 16]>,
    pub translation: Option<[f32; 3]>,
    pub rotation: Option<[f32; 4]>,
    pub scale: Option<[f32; 3]>,
    pub extras: Value,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Scene {
    pub nodes: Vec<usize>,
    pub extras: Value,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Skin {
    pub joints: Vec<usize>,
    pub inverse_bind_matrices: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Animation {
    pub name: Option<String>,
    pub channels: Vec<Channel>,
    pub samplers: Vec<Sampler>,
    pub extras: Value,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Channel {
    pub sampler: usize,
    pub target: Target,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Target {
    /// Absent for `KHR_animation_pointer` channels, whose target is a JSON pointer.
    pub node: Option<usize>,
    pub path: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Sampler {
    pub input: usize,
    pub output: usize,
    pub interpolation: Option<String>,
}
