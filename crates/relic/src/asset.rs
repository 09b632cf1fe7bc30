//! The common asset model: the only thing exporters see. Every format converts into these types, so a new
//! format never touches the CLI or an exporter.

use std::borrow::Cow;

use serde::Serialize;

use crate::codec::zlib;
use crate::error::Result;

/// What one conversion yields.
#[derive(Debug, Clone)]
pub enum Asset {
    Image(Image),
    Sound(Sound),
    Scene(Scene),
    Document(Document),
    /// Text in the form a user edits (INI for REG files, a decrypted script, …), written as it is.
    Text(Text),
    /// Bytes that already are a file a user opens (a DirectMusic `.sgt` inside a Drakan resource file, …),
    /// written as they are.
    Binary(Binary),
}

impl Asset {
    /// The manifest kind (`image`, `sound`, `model`, `document`).
    pub fn kind(&self) -> &'static str {
        match self {
            Asset::Image(_) => "image",
            Asset::Sound(_) => "sound",
            Asset::Scene(_) => "model",
            Asset::Document(_) | Asset::Text(_) => "document",
            Asset::Binary(_) => "raw",
        }
    }
}

/// An asset with the name it is written under when a file yields several (`None` for a file's only asset).
#[derive(Debug, Clone)]
pub struct NamedAsset {
    pub name: Option<String>,
    pub asset: Asset,
}

impl NamedAsset {
    /// The name of the one asset of several that is written beside the `<stem>/` folder the others go
    /// into, as `<stem>.<ext>`: a document that indexes them (an RCD's `x.json` beside `x/`).
    pub const BESIDE: &'static str = ".";
}

// ---------------------------------------------------------------------------------------------------------
// Archive entries

/// An archive member. Its bytes are borrowed from the (memory-mapped) archive when stored, and decoded on
/// demand otherwise, so listing never copies data.
#[derive(Debug, Clone)]
pub struct Entry<'a> {
    /// The name as the archive stores it.
    pub name_raw: Cow<'a, [u8]>,
    /// The name decoded for display (the archive's code page); borrowed from the archive when its bytes
    /// are already that text (ASCII), so listing 17,000 entries allocates no names.
    pub name: Cow<'a, str>,
    /// Relative extraction path with `/` separators, as the format maps it; not yet checked for safety
    /// (`crate::paths::safe_relative_path` does that before anything is written). Borrowed where it is
    /// the stored name unchanged.
    pub path: Cow<'a, str>,
    pub size: u64,
    /// Modification time, Unix seconds.
    pub modified: Option<u64>,
    pub data: EntryData<'a>,
    /// For record containers (Drakan SRSC): the record's type, id and group (boxed: most archives have
    /// none, and every entry of a large listing carries the field).
    pub record: Option<Box<RecordInfo>>,
}

/// A record of a record container, as `relic ls` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecordInfo {
    /// The record type, `0x0040`.
    #[serde(rename = "type")]
    pub record_type: String,
    pub type_name: Option<&'static str>,
    pub id: u32,
    /// The group as a path of group names (empty when the record is in no group).
    pub group: String,
}

#[derive(Debug, Clone)]
pub enum EntryData<'a> {
    /// Stored as-is: a slice of the archive.
    Stored(&'a [u8]),
    /// A zlib stream in the archive that inflates to `size` bytes; inflated on demand, bounded (see
    /// [`crate::codec::zlib`]). `format` and `offset` (of the stream in the archive) locate errors.
    Zlib { packed: &'a [u8], size: u64, format: &'static str, offset: u64 },
    /// A zlib stream stored enciphered (a game's own cipher): `stored` is copied into one buffer, deciphered
    /// in place by `decipher`, and its first `packed_len` bytes inflate to `size` bytes. The sizes are checked
    /// before the buffer is allocated.
    Enciphered { stored: &'a [u8], decipher: Decipher, packed_len: usize, size: u64, format: &'static str, offset: u64 },
    /// An entry relic cannot decode yet (an encryption it does not implement, …): asking for its bytes
    /// gives `Error::Unsupported` with this message.
    Unsupported(String),
}

/// A format's cipher for [`EntryData::Enciphered`]: `apply(buffer, param)` deciphers a buffer in place. It
/// must work on any prefix of the stored bytes (so that a head can be read without deciphering a whole
/// entry) and never panic.
#[derive(Debug, Clone, Copy)]
pub struct Decipher {
    pub apply: fn(&mut [u8], u32),
    /// The format's parameter for this entry (a mode, a cycle).
    pub param: u32,
}

/// Bytes of an enciphered entry deciphered to read its head: enough for any zlib stream's block header and
/// the first bytes it produces; a stream that needs more is deciphered whole.
const ENCIPHERED_HEAD: usize = 64 << 10;

/// The deciphered copy of an enciphered entry's first `len` stored bytes, after checking the sizes.
fn deciphered(
    stored: &[u8],
    decipher: Decipher,
    packed_len: usize,
    size: u64,
    at: zlib::At<'_>,
    len: usize,
) -> Result<Vec<u8>> {
    zlib::check_declared(packed_len, size, at)?;
    let max = crate::limits::current().max_entry_size;
    if packed_len as u64 > max || packed_len > stored.len() {
        return Err(crate::Error::limit(
            at.format,
            at.field,
            at.offset,
            format!(
                "{packed_len} enciphered bytes of {} stored: over relic's limit of {max} or past the data",
                stored.len()
            ),
        ));
    }
    let mut buf = stored.get(..len.min(stored.len())).unwrap_or(stored).to_vec();
    (decipher.apply)(&mut buf, decipher.param);
    Ok(buf)
}

/// How many leading bytes [`EntryData::head`] callers need to tell formats apart.
pub const SNIFF_BYTES: usize = 64;

impl<'a> EntryData<'a> {
    /// The entry's bytes, borrowed when stored, inflated (owned) when compressed.
    pub fn bytes(&self) -> Result<Cow<'a, [u8]>> {
        match self {
            EntryData::Stored(b) => Ok(Cow::Borrowed(b)),
            EntryData::Zlib { packed, size, format, offset } => {
                let at = crate::codec::zlib::At { format, field: "entry data", offset: *offset };
                crate::codec::zlib::inflate_exact(packed, *size, at).map(Cow::Owned)
            }
            EntryData::Enciphered { stored, decipher, packed_len, size, format, offset } => {
                let at = zlib::At { format, field: "entry data", offset: *offset };
                let buf = deciphered(stored, *decipher, *packed_len, *size, at, stored.len())?;
                zlib::inflate_exact(buf.get(..*packed_len).unwrap_or_default(), *size, at).map(Cow::Owned)
            }
            EntryData::Unsupported(why) => Err(crate::Error::Unsupported(why.clone())),
        }
    }

    /// Writes the entry's bytes to `out` without holding a compressed entry in memory (extraction).
    pub fn write_to(&self, out: &mut dyn std::io::Write) -> Result<u64> {
        match self {
            EntryData::Stored(b) => {
                out.write_all(b).map_err(|e| crate::Error::io("output", e))?;
                Ok(b.len() as u64)
            }
            EntryData::Zlib { packed, size, format, offset } => {
                let at = crate::codec::zlib::At { format, field: "entry data", offset: *offset };
                crate::codec::zlib::inflate_to(packed, *size, at, out)
            }
            EntryData::Enciphered { stored, decipher, packed_len, size, format, offset } => {
                let at = zlib::At { format, field: "entry data", offset: *offset };
                let buf = deciphered(stored, *decipher, *packed_len, *size, at, stored.len())?;
                zlib::inflate_to(buf.get(..*packed_len).unwrap_or_default(), *size, at, out)
            }
            EntryData::Unsupported(why) => Err(crate::Error::Unsupported(why.clone())),
        }
    }

    /// At most the first `n` bytes (all of a stored entry's bytes are borrowed; a compressed entry inflates
    /// only its head), for sniffing formats without decoding whole entries.
    pub fn head(&self, n: usize) -> Result<Cow<'a, [u8]>> {
        match self {
            EntryData::Stored(b) => Ok(Cow::Borrowed(b.get(..n).unwrap_or(b))),
            EntryData::Zlib { packed, size, format, offset } => {
                let at = crate::codec::zlib::At { format, field: "entry data", offset: *offset };
                crate::codec::zlib::inflate_head(packed, *size, n, at).map(Cow::Owned)
            }
            EntryData::Enciphered { stored, decipher, packed_len, size, format, offset } => {
                let at = zlib::At { format, field: "entry data", offset: *offset };
                // Usually the head of the stream is enough; a stream that needs more is deciphered whole.
                let buf = deciphered(stored, *decipher, *packed_len, *size, at, ENCIPHERED_HEAD)?;
                let packed = buf.get(..*packed_len).unwrap_or(&buf);
                match zlib::inflate_head(packed, *size, n, at) {
                    Ok(head) if head.len() as u64 == (n as u64).min(*size) => Ok(Cow::Owned(head)),
                    short => {
                        if buf.len() >= *packed_len {
                            return short.map(Cow::Owned);
                        }
                        let buf = deciphered(stored, *decipher, *packed_len, *size, at, stored.len())?;
                        zlib::inflate_head(buf.get(..*packed_len).unwrap_or_default(), *size, n, at).map(Cow::Owned)
                    }
                }
            }
            EntryData::Unsupported(why) => Err(crate::Error::Unsupported(why.clone())),
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Images

#[derive(Debug, Clone, Default)]
pub struct Image {
    pub frames: Vec<Frame>,
    /// RGBA palette for indexed frames.
    pub palette: Option<Vec<[u8; 4]>>,
    /// Frames per second when the frames are an animation (all `FrameRole::Frame`): the PNG exporter then
    /// also writes an animated PNG. `None` for still images, mip chains and sprite sheets.
    pub frame_rate: Option<f32>,
    /// Text the PNG carries as `tEXt` chunks, `(keyword, text)` (Latin-1 keywords of 1–79 characters): what
    /// `pack` needs to write the file back as it was (an MMP's pixel format and mip count).
    pub text: Vec<(String, String)>,
}

impl Image {
    /// One RGBA8 frame, with its drawing offset and hotspots.
    pub fn single(width: u32, height: u32, rgba: Vec<u8>, offset: (i32, i32), hotspots: Vec<Hotspot>) -> Image {
        Image {
            frames: vec![Frame {
                name: None,
                width,
                height,
                pixels: Pixels::Rgba8(rgba),
                offset,
                hotspots,
                role: FrameRole::Frame,
            }],
            palette: None,
            frame_rate: None,
            text: Vec::new(),
        }
    }

    /// The width in pixels of the first frame (the full-size image of a mip chain), 0 for an image with
    /// no frames.
    ///
    /// ```
    /// let img = relic::asset::Image::single(4, 2, vec![0; 4 * 2 * 4], (0, 0), Vec::new());
    /// assert_eq!(img.width(), 4);
    /// assert_eq!(relic::asset::Image::default().width(), 0);
    /// ```
    pub fn width(&self) -> u32 {
        self.frames.first().map_or(0, |f| f.width)
    }

    /// The height in pixels of the first frame (the full-size image of a mip chain), 0 for an image with
    /// no frames.
    ///
    /// ```
    /// let img = relic::asset::Image::single(4, 2, vec![0; 4 * 2 * 4], (0, 0), Vec::new());
    /// assert_eq!(img.height(), 2);
    /// assert_eq!(relic::asset::Image::default().height(), 0);
    /// ```
    pub fn height(&self) -> u32 {
        self.frames.first().map_or(0, |f| f.height)
    }
}

#[derive(Debug, Clone)]
pub struct Frame {
    pub name: Option<String>,
    pub width: u32,
    pub height: u32,
    pub pixels: Pixels,
    /// Drawing offset of the frame relative to its origin.
    pub offset: (i32, i32),
    pub hotspots: Vec<Hotspot>,
    pub role: FrameRole,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pixels {
    /// Row-major RGBA8, top row first, `width * height * 4` bytes.
    Rgba8(Vec<u8>),
    /// Row-major palette indices, top row first, `width * height` bytes.
    Indexed(Vec<u8>),
    /// Row-major 16-bit grey levels, top row first, `width * height` values (height maps; written as a
    /// 16-bit greyscale PNG).
    Gray16(Vec<u16>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Hotspot {
    pub x: i32,
    pub y: i32,
    pub flag: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FrameRole {
    Frame,
    /// Mip level n of a chain (level 0 is full size, level 1 half size, …), exported as `.mip<n>`.
    Mip(u32),
}

// ---------------------------------------------------------------------------------------------------------
// Sounds

/// Interleaved little-endian PCM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sound {
    pub channels: u16,
    pub sample_rate: u32,
    /// 8 (unsigned) or 16 (signed).
    pub bits_per_sample: u16,
    pub data: Vec<u8>,
}

// ---------------------------------------------------------------------------------------------------------
// Scenes (exported to glTF)

#[derive(Debug, Clone, Default)]
pub struct Scene {
    pub nodes: Vec<Node>,
    /// Indices of root nodes.
    pub roots: Vec<usize>,
    pub meshes: Vec<Mesh>,
    pub materials: Vec<Material>,
    pub textures: Vec<Texture>,
    pub skins: Vec<Skin>,
    pub animations: Vec<Animation>,
    /// Lights, placed by the nodes that name them ([`Node::light`]); glTF `KHR_lights_punctual`.
    pub lights: Vec<Light>,
    /// Application data kept beside the scene (glTF `scenes[0].extras`); `Null` for none. The same holds
    /// for the `extras` of nodes, meshes, materials and animations: what a format stores that glTF has no
    /// field for (flags, thresholds, bounds), so it is not lost.
    pub extras: serde_json::Value,
}

impl Scene {
    /// About how many bytes the scene's buffers hold (vertex attributes, indices, morph targets, inverse
    /// bind matrices, animation keys; textures as RGBA): what building it cost and what its glTF carries,
    /// for charging a conversion to the expansion budget.
    pub fn approximate_bytes(&self) -> u64 {
        let n = |len: usize, size: u64| len as u64 * size;
        let meshes: u64 = self
            .meshes
            .iter()
            .flat_map(|m| &m.primitives)
            .map(|p| {
                n(p.positions.len(), 12)
                    + n(p.normals.len(), 12)
                    + n(p.uvs.len(), 8)
                    + n(p.colors.len(), 16)
                    + n(p.joints.len(), 8)
                    + n(p.weights.len(), 16)
                    + n(p.indices.len(), 4)
                    + p.morph_targets.iter().map(|t| n(t.positions.len(), 12) + n(t.normals.len(), 12)).sum::<u64>()
            })
            .sum();
        let skins: u64 = self.skins.iter().map(|s| n(s.joints.len(), 8) + n(s.inverse_bind_matrices.len(), 64)).sum();
        let keys: u64 = self
            .animations
            .iter()
            .flat_map(|a| &a.channels)
            .map(|c| {
                n(c.times.len(), 4)
                    + match &c.values {
                        ChannelValues::Translation(v) | ChannelValues::Scale(v) => n(v.len(), 12),
                        ChannelValues::Rotation(v) => n(v.len(), 16),
                        ChannelValues::MorphWeights(v) => v.iter().map(|w| n(w.len(), 4)).sum(),
                        ChannelValues::Vec2(v) => n(v.len(), 8),
                        ChannelValues::Scalar(v) => n(v.len(), 4),
                    }
            })
            .sum();
        let textures: u64 = self
            .textures
            .iter()
            .flat_map(|t| &t.image.frames)
            .map(|f| u64::from(f.width) * u64::from(f.height) * 4)
            .sum();
        meshes + skins + keys + textures + n(self.nodes.len(), 64) + n(self.lights.len(), 64)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Transform {
    /// Column-major 4×4 matrix (may hold shear or mirroring).
    Matrix([f32; 16]),
    Trs {
        translation: [f32; 3],
        rotation: [f32; 4],
        scale: [f32; 3],
    },
}

impl Default for Transform {
    fn default() -> Self {
        Transform::Matrix([1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0])
    }
}

#[derive(Debug, Clone, Default)]
pub struct Node {
    pub name: String,
    pub transform: Transform,
    pub children: Vec<usize>,
    pub mesh: Option<usize>,
    pub skin: Option<usize>,
    /// The light the node places ([`Scene::lights`]).
    pub light: Option<usize>,
    pub extras: serde_json::Value,
}

/// A light as glTF's `KHR_lights_punctual` defines it: placed by its node, shining down the node's −Z
/// (directional and spot lights).
#[derive(Debug, Clone, PartialEq)]
pub struct Light {
    pub name: String,
    pub kind: LightKind,
    /// Linear RGB, each 0..1 (the exporter clamps).
    pub color: [f32; 3],
    /// Candela for point and spot lights, lux for directional ones.
    pub intensity: f32,
    /// Where a point or spot light's influence ends (`None`: it never ends).
    pub range: Option<f32>,
    pub extras: serde_json::Value,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LightKind {
    Directional,
    Point,
    /// Cone angles in radians, `0 <= inner < outer <= π/2`.
    Spot {
        inner_cone: f32,
        outer_cone: f32,
    },
}

impl Scene {
    /// Appends `other` to this scene: its nodes, meshes, materials, textures, skins, animations and lights
    /// go after this scene's, every index into them moved along. Returns `other`'s root nodes as indices
    /// into this scene; they are not added to [`Scene::roots`] (put them under a node of this scene, or
    /// into `roots`). `other`'s scene extras are dropped.
    ///
    /// ```
    /// use relic::asset::{Mesh, Node, Scene};
    ///
    /// let part = || Scene {
    ///     nodes: vec![Node { name: "leaf".into(), mesh: Some(0), ..Default::default() }],
    ///     roots: vec![0],
    ///     meshes: vec![Mesh::default()],
    ///     ..Default::default()
    /// };
    /// let mut scene = part();
    /// let roots = scene.merge(part());
    /// assert_eq!(roots, vec![1]);
    /// assert_eq!(scene.nodes[1].mesh, Some(1));
    /// assert_eq!(scene.meshes.len(), 2);
    /// ```
    pub fn merge(&mut self, other: Scene) -> Vec<usize> {
        let (nodes, meshes, materials, textures, skins, lights) = (
            self.nodes.len(),
            self.meshes.len(),
            self.materials.len(),
            self.textures.len(),
            self.skins.len(),
            self.lights.len(),
        );
        self.nodes.extend(other.nodes.into_iter().map(|mut n| {
            n.children.iter_mut().for_each(|c| *c += nodes);
            n.mesh = n.mesh.map(|m| m + meshes);
            n.skin = n.skin.map(|s| s + skins);
            n.light = n.light.map(|l| l + lights);
            n
        }));
        self.meshes.extend(other.meshes.into_iter().map(|mut m| {
            for p in &mut m.primitives {
                p.material = p.material.map(|i| i + materials);
            }
            m
        }));
        self.materials.extend(other.materials.into_iter().map(|mut m| {
            m.texture = m.texture.map(|t| t + textures);
            m
        }));
        self.textures.extend(other.textures);
        self.skins.extend(other.skins.into_iter().map(|mut s| {
            s.joints.iter_mut().for_each(|j| *j += nodes);
            s
        }));
        self.animations.extend(other.animations.into_iter().map(|mut a| {
            for c in &mut a.channels {
                c.target = match c.target {
                    ChannelTarget::Node(n) => ChannelTarget::Node(n + nodes),
                    ChannelTarget::TextureTransform { material, property } => {
                        ChannelTarget::TextureTransform { material: material + materials, property }
                    }
                };
            }
            a
        }));
        self.lights.extend(other.lights);
        other.roots.into_iter().map(|r| r + nodes).collect()
    }
}

#[derive(Debug, Clone, Default)]
pub struct Mesh {
    pub name: String,
    pub primitives: Vec<Primitive>,
    pub extras: serde_json::Value,
}

#[derive(Debug, Clone, Default)]
pub struct Primitive {
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    pub uvs: Vec<[f32; 2]>,
    pub colors: Vec<[f32; 4]>,
    pub joints: Vec<[u16; 4]>,
    pub weights: Vec<[f32; 4]>,
    /// Triangle list.
    pub indices: Vec<u32>,
    pub material: Option<usize>,
    pub morph_targets: Vec<MorphTarget>,
}

#[derive(Debug, Clone, Default)]
pub struct MorphTarget {
    pub name: String,
    /// Displacements, one per vertex.
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
}

#[derive(Debug, Clone)]
pub struct Material {
    pub name: String,
    pub base_color: [f32; 4],
    pub texture: Option<usize>,
    /// UV transform of the base-colour texture (glTF `KHR_texture_transform`).
    pub texture_transform: Option<TextureTransform>,
    pub double_sided: bool,
    pub alpha_blend: bool,
    /// No lighting (glTF `KHR_materials_unlit`).
    pub unlit: bool,
    /// glTF `roughnessFactor` (metallic is 0): 1 is matte, lower is shinier.
    pub roughness: f32,
    pub extras: serde_json::Value,
}

impl Default for Material {
    fn default() -> Self {
        Material {
            name: String::new(),
            base_color: [1.0; 4],
            texture: None,
            texture_transform: None,
            double_sided: false,
            alpha_blend: false,
            unlit: false,
            roughness: 1.0,
            extras: serde_json::Value::Null,
        }
    }
}

/// UV offset, rotation (radians) and scale, applied as glTF's `KHR_texture_transform` does.
#[derive(Debug, Clone, Copy, PartialEq)]
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

#[derive(Debug, Clone)]
pub struct Texture {
    pub name: String,
    pub image: Image,
}

#[derive(Debug, Clone)]
pub struct Skin {
    pub joints: Vec<usize>,
    /// Column-major inverse bind matrices, one per joint.
    pub inverse_bind_matrices: Vec<[f32; 16]>,
}

#[derive(Debug, Clone, Default)]
pub struct Animation {
    pub name: String,
    pub channels: Vec<Channel>,
    pub extras: serde_json::Value,
}

#[derive(Debug, Clone)]
pub struct Channel {
    pub target: ChannelTarget,
    /// Key times in seconds, strictly increasing.
    pub times: Vec<f32>,
    pub values: ChannelValues,
    pub interpolation: Interpolation,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interpolation {
    Linear,
    Step,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChannelTarget {
    Node(usize),
    /// A property of a material's texture transform.
    TextureTransform {
        material: usize,
        property: TextureProperty,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextureProperty {
    Offset,
    Rotation,
    Scale,
}

#[derive(Debug, Clone)]
pub enum ChannelValues {
    Translation(Vec<[f32; 3]>),
    Rotation(Vec<[f32; 4]>),
    Scale(Vec<[f32; 3]>),
    /// Weights per key, `morph target count` values each.
    MorphWeights(Vec<Vec<f32>>),
    /// Texture offset or scale per key.
    Vec2(Vec<[f32; 2]>),
    /// Texture rotation per key.
    Scalar(Vec<f32>),
}

// ---------------------------------------------------------------------------------------------------------
// Documents

/// Structured data: a JSON value, plus tables where CSV is the natural form.
#[derive(Debug, Clone, Default)]
pub struct Document {
    pub value: serde_json::Value,
    pub tables: Vec<Table>,
}

/// Bytes with the extension they are saved under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binary {
    pub extension: &'static str,
    pub bytes: Vec<u8>,
}

/// Text with the extension it is saved under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    pub extension: &'static str,
    pub text: String,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    pub name: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scene_is_charged_by_its_buffers() {
        let primitive = Primitive {
            positions: vec![[0.0; 3]; 3],
            normals: vec![[0.0; 3]; 3],
            uvs: vec![[0.0; 2]; 3],
            indices: vec![0, 1, 2],
            ..Default::default()
        };
        let scene = Scene {
            meshes: vec![Mesh { primitives: vec![primitive], ..Default::default() }],
            skins: vec![Skin { joints: vec![0, 1], inverse_bind_matrices: vec![[0.0; 16]; 2] }],
            ..Default::default()
        };
        // 3 × (12 + 12 + 8) + 3 × 4 for the mesh, 2 × 8 + 2 × 64 for the skin.
        assert_eq!(scene.approximate_bytes(), 96 + 12 + 16 + 128);
    }
}
