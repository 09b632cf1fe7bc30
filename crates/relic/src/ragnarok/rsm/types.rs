//! RSM types: the model exactly as stored, every field of every version. Fields that only some versions
//! carry are `Option`s (absent in other versions) or lists that stay empty in other versions; the writer
//! refuses a model whose fields do not fit its version, so nothing is silently dropped. The serde form of
//! [`Rsm`] is the JSON of `relic convert x.rsm --to json`, and `relic pack ro-rsm x.json` writes it back
//! byte for byte. Floats are kept as `f32` and written bit-exactly (see [`super::float`]).
//!
//! Coordinates, matrices and key values are as stored (model space is Y-down); the helpers in
//! [`super::model`] resolve textures, the mesh tree and the time base.

use serde::{Deserialize, Serialize};

use super::float;
use crate::bytes::Base64;
use crate::codec::text::{decode, CP949};

/// `GRSM`.
pub const MAGIC: [u8; 4] = *b"GRSM";
/// Size of the fixed string fields of versions below 2.2.
pub const FIXED_NAME_LEN: usize = 40;
/// Bytes of a face record after the `len` field (≥ 2.2) before its smooth groups.
pub const FACE_BASE_LEN: usize = 20;

/// `major.minor`, stored as two bytes after the magic. Ordered as versions are (`1.4 < 1.5 < 2.2`).
pub type Version = crate::ragnarok::version::Version<Rsm>;

impl crate::ragnarok::version::Family for Rsm {
    const AS_TEXT: bool = false;
    const EXAMPLE: &'static str = "2.2";
}

impl Version {
    /// The oldest version relic reads.
    pub const MIN: Version = Version::new(1, 1);
    /// The newest version relic reads.
    pub const MAX: Version = Version::new(2, 3);

    pub const fn tuple(self) -> (u8, u8) {
        (self.major, self.minor)
    }
    /// Whether relic reads and writes this version (1.1 to 2.3).
    pub fn is_supported(self) -> bool {
        (Version::MIN..=Version::MAX).contains(&self)
    }

    /// Alpha byte in the header (≥ 1.4).
    pub fn has_alpha(self) -> bool {
        self.at_least(1, 4)
    }
    /// Colour in texture vertices and one smooth group per face (≥ 1.2).
    pub fn has_vertex_colors(self) -> bool {
        self.at_least(1, 2)
    }
    /// Smooth groups in face records (≥ 1.2).
    pub fn has_smooth_groups(self) -> bool {
        self.at_least(1, 2)
    }
    /// Volume boxes carry a flag (≥ 1.3).
    pub fn has_volume_box_flags(self) -> bool {
        self.at_least(1, 3)
    }
    /// The zero int32 that real 1.5 files carry after the meshes (docs/formats/ragnarok.md#rsm-1-5).
    pub fn has_v1_5_extra(self) -> bool {
        self == Version::new(1, 5)
    }
    /// Per-mesh scale keys (≥ 1.6); below, one model-level scale key list follows the meshes.
    pub fn has_mesh_scale_keys(self) -> bool {
        self.at_least(1, 6)
    }
    /// Frame rate, length-prefixed strings, several root names, face `len`, position keys, and a mesh
    /// placement reduced to one position (≥ 2.2).
    pub fn is_rsm2(self) -> bool {
        self.at_least(2, 2)
    }
    /// Textures per mesh instead of global texture indices, and texture key frames (≥ 2.3).
    pub fn has_mesh_textures(self) -> bool {
        self.at_least(2, 3)
    }
}

/// A name or path. `text` is decoded from CP949 (the bytes before the first NUL); `raw` holds the exact
/// stored bytes when `text` alone would not give them back: junk after the NUL of a fixed 40-byte field,
/// a NUL inside a length-prefixed string, or bytes that CP949 does not round-trip.
///
/// JSON: a plain string when `raw` is absent, else `{"text": …, "raw": base64}`. The writer uses `raw`
/// while it still decodes to `text`; edit `text` and `raw` is ignored (the text is encoded, zero-padded
/// in fixed fields).
pub type Name = crate::codec::text::RawName<crate::codec::text::Cp949Base64>;

impl Name {
    /// `raw` when it is present and still decodes to `text`.
    pub fn usable_raw(&self) -> Option<&[u8]> {
        self.raw.as_deref().filter(|raw| decode(CP949, before_nul(raw)) == self.text)
    }
}

/// The bytes before the first NUL (all of them if there is none).
pub fn before_nul(bytes: &[u8]) -> &[u8] {
    bytes.split(|&b| b == 0).next().unwrap_or(bytes)
}

/// A whole RSM/RSM2 file, in file order. Read with [`Rsm::read`], written with [`Rsm::to_bytes`]; `relic convert
/// --to json` is `serde_json::to_value` of it.
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::ragnarok::rsm::{Rsm, Version};
///
/// let bytes = std::fs::read("../../samples/ragnarok/pyramid.rsm")?;
/// let rsm = Rsm::read(&bytes)?;
/// assert_eq!(rsm.version, Version::new(1, 4));
/// assert_eq!(rsm.meshes.len(), 1);
/// assert_eq!(rsm.root_names[0].text, "pyramid");
/// assert_eq!(rsm.textures[0].text, "stone.bmp");
/// assert_eq!(rsm.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rsm {
    pub version: Version,
    /// Milliseconds below 2.2; frames (at `frame_rate`) from 2.2 on.
    pub animation_length: i32,
    /// 0 none, 1 flat, 2 smooth (other values are kept as they are).
    pub shade_type: i32,
    /// ≥ 1.4 (said to be unused by the game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpha: Option<u8>,
    /// Below 2.2: 16 bytes after the alpha, zero in every file seen (base64 in JSON).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "reserved_b64")]
    pub reserved: Option<[u8; 16]>,
    /// Frames per second, ≥ 2.2.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "float")]
    pub frame_rate: Option<f32>,
    /// Global textures, below 2.3 (fixed 40-byte fields below 2.2, length-prefixed in 2.2). Meshes refer
    /// to them through `texture_indices`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub textures: Vec<Name>,
    /// Names of the root meshes: exactly one (the "main mesh", a fixed 40-byte field) below 2.2, a counted
    /// list from 2.2 on.
    pub root_names: Vec<Name>,
    pub meshes: Vec<Mesh>,
    /// Below 1.6: the model-level scale key list that follows the meshes (frame, scale, a float).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scale_keys: Vec<ScaleKey>,
    /// Exactly in 1.5: the int32 (zero in real files) that docs/formats/ragnarok.md#rsm-1-5 places after the meshes, before
    /// the model-level scale key list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_v1_5: Option<i32>,
    /// `None` when the file ends where the volume-box count would be (real 2.3 files do).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume_boxes: Option<Vec<VolumeBox>>,
    /// Bytes after the volume boxes (none in files seen), kept so they are written back.
    #[serde(default, skip_serializing_if = "no_bytes")]
    pub trailing: Base64,
}

impl Rsm {
    /// An empty model of `version` with every field that version carries: alpha 255, zero reserved bytes,
    /// 30 fps, one empty main mesh name below 2.2, the zero int32 of 1.5, an empty volume-box list.
    pub fn new(version: Version) -> Self {
        Rsm {
            version,
            animation_length: 0,
            shade_type: 0,
            alpha: version.has_alpha().then_some(0xFF),
            reserved: (!version.is_rsm2()).then_some([0; 16]),
            frame_rate: version.is_rsm2().then_some(30.0),
            textures: Vec::new(),
            root_names: if version.is_rsm2() { Vec::new() } else { vec![Name::default()] },
            meshes: Vec::new(),
            scale_keys: Vec::new(),
            extra_v1_5: version.has_v1_5_extra().then_some(0),
            volume_boxes: Some(Vec::new()),
            trailing: Base64::default(),
        }
    }
}

impl Mesh {
    /// An empty mesh for `version`: identity matrix, zero position, and below 2.2 a neutral legacy
    /// placement (zero offset and angle, scale 1).
    pub fn new(version: Version, name: impl Into<String>) -> Self {
        Mesh {
            name: Name::new(name),
            matrix: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
            legacy: (!version.is_rsm2()).then_some(LegacyPlacement {
                offset: [0.0; 3],
                rotation_angle: 0.0,
                rotation_axis: [0.0; 3],
                scale: [1.0; 3],
            }),
            ..Mesh::default()
        }
    }
}

mod reserved_b64 {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::bytes::Base64;

    pub fn serialize<S: Serializer>(v: &Option<[u8; 16]>, s: S) -> Result<S::Ok, S::Error> {
        v.map(|b| Base64(b.to_vec())).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<[u8; 16]>, D::Error> {
        Option::<Base64>::deserialize(d)?
            .map(|b| <[u8; 16]>::try_from(b.0.as_slice()).map_err(|_| D::Error::custom("reserved: need 16 bytes")))
            .transpose()
    }
}

fn no_bytes(b: &Base64) -> bool {
    b.0.is_empty()
}

/// One mesh (node) of the tree.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Mesh {
    /// Names may repeat, be empty or start with a space.
    pub name: Name,
    /// The parent's name; empty for a root.
    pub parent_name: Name,
    /// 2.3: this mesh's own textures (faces' `texture` indexes this list).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub textures: Vec<Name>,
    /// Below 2.3: indices into [`Rsm::textures`] (faces' `texture` indexes this list).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub texture_indices: Vec<i32>,
    /// The 3×3 matrix: nine floats in file order. Other readers load each stored triple as one column
    /// (column-vector convention: `M·v` with `M[:,0] = m[0..3]`). It can hold scale, shear and mirroring
    /// (negative determinant): invert it truly, never transpose.
    #[serde(with = "float")]
    pub matrix: [f32; 9],
    /// Below 2.2 the second vector of the placement ("position": passed to children as `T(position)`);
    /// from 2.2 on the mesh's position, the only placement field.
    #[serde(with = "float")]
    pub position: [f32; 3],
    /// Below 2.2: the rest of the placement.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legacy: Option<LegacyPlacement>,
    #[serde(with = "float")]
    pub vertices: Vec<[f32; 3]>,
    pub tex_vertices: Vec<TexVertex>,
    pub faces: Vec<Face>,
    /// ≥ 1.6.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scale_keys: Vec<ScaleKey>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rotation_keys: Vec<RotationKey>,
    /// ≥ 2.2.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub position_keys: Vec<PositionKey>,
    /// 2.3: texture key frames, grouped as stored (by texture, then by kind).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub texture_animations: Vec<TextureAnimation>,
}

/// Placement fields of versions below 2.2, in file order around [`Mesh::position`]:
/// `offset`, `position`, `rotation_angle`, `rotation_axis`, `scale`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct LegacyPlacement {
    /// The first vector ("offset"): applied to this mesh only, `T(offset)·M`.
    #[serde(with = "float")]
    pub offset: [f32; 3],
    /// Radians, about `rotation_axis`; used when there are no rotation keys (and |angle| > 0.01).
    #[serde(with = "float")]
    pub rotation_angle: f32,
    #[serde(with = "float")]
    pub rotation_axis: [f32; 3],
    #[serde(with = "float")]
    pub scale: [f32; 3],
}

/// A texture vertex: colour (≥ 1.2) and UV.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct TexVertex {
    /// ≥ 1.2: a 32-bit colour as stored (little-endian u32; usually 0xFFFFFFFF).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<u32>,
    #[serde(with = "float")]
    pub uv: [f32; 2],
}

/// A triangle. From 2.2 on each record starts with its byte length (`len`, not counted itself), which is
/// `20 + 4 × smooth_groups.len()`; it is not stored here but derived.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Face {
    /// Indices into the mesh's `vertices`.
    pub vertices: [u16; 3],
    /// Indices into the mesh's `tex_vertices`.
    pub tex_vertices: [u16; 3],
    /// Index into the mesh's texture list (`texture_indices` below 2.3, `textures` in 2.3).
    pub texture: u16,
    /// Called padding by other readers; not always zero, so kept.
    pub padding: u16,
    /// Non-zero: drawn from both sides.
    pub two_sided: i32,
    /// Below 1.2 none; 1.2 to 2.1 exactly one; from 2.2 on `(len − 20) / 4` (one to three in files seen).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub smooth_groups: Vec<i32>,
}

impl Face {
    /// The `len` field of the record from 2.2 on.
    pub fn record_len(&self) -> usize {
        FACE_BASE_LEN + 4 * self.smooth_groups.len()
    }
}

/// A scale key: time, scale factors and a float the game ignores.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct ScaleKey {
    pub frame: i32,
    #[serde(with = "float")]
    pub scale: [f32; 3],
    #[serde(with = "float")]
    pub data: f32,
}

/// A rotation key: time and quaternion `[x, y, z, w]`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct RotationKey {
    pub frame: i32,
    #[serde(with = "float")]
    pub quaternion: [f32; 4],
}

/// A position key (≥ 2.2): time, position and an int32 the game ignores.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct PositionKey {
    pub frame: i32,
    #[serde(with = "float")]
    pub position: [f32; 3],
    pub data: i32,
}

/// Texture key frames of one texture of a mesh (2.3).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TextureAnimation {
    /// Index into the mesh's `textures`.
    pub texture: i32,
    pub channels: Vec<TextureChannel>,
}

/// One animated property of a texture (2.3).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TextureChannel {
    /// 0 translate U, 1 translate V, 2 scale U, 3 scale V, 4 rotate (around UV (0.5, 0.5), docs/formats/ragnarok.md#rsm-texture-keys).
    pub kind: i32,
    pub keys: Vec<TextureKey>,
}

#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct TextureKey {
    pub frame: i32,
    #[serde(with = "float")]
    pub value: f32,
}

/// A volume box (said to be unused by the game): size, position, rotation and (≥ 1.3) a flag.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct VolumeBox {
    #[serde(with = "float")]
    pub size: [f32; 3],
    #[serde(with = "float")]
    pub position: [f32; 3],
    #[serde(with = "float")]
    pub rotation: [f32; 3],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<i32>,
}

/// Texture key frame kinds (2.3).
pub mod texture_kind {
    pub const TRANSLATE_U: i32 = 0;
    pub const TRANSLATE_V: i32 = 1;
    pub const SCALE_U: i32 = 2;
    pub const SCALE_V: i32 = 3;
    pub const ROTATE: i32 = 4;
}
