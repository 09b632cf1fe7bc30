//! RSW types: the map's scene file exactly as stored, every field of every version. Fields that only some
//! versions carry are `Option`s (absent in other versions); the writer refuses a document whose fields do
//! not fit its version. The serde form of [`Rsw`] is the JSON of `relic convert x.rsw --to json`, and
//! `relic pack ro-rsw x.json` writes it back byte for byte. Floats are kept as `f32` and written
//! bit-exactly (the same JSON float form as RSM, [`crate::ragnarok::rsm::float`]).
//!
//! Positions are as stored: RO world units, Y pointing down (the frame GND heights share), X east and Z
//! relative to the map centre; [`super::scene`] turns them into glTF's frame.

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;
use crate::ragnarok::rsm::float;
pub use crate::ragnarok::rsm::Name;

/// `GRSW`.
pub const MAGIC: [u8; 4] = *b"GRSW";
/// Length of the file-name fields of the header (ini, gnd, gat, src) and of a model's name.
pub const SHORT_NAME_LEN: usize = 40;
/// Length of the other name fields of objects (model file, node, light, sound, effect names).
pub const LONG_NAME_LEN: usize = 80;
/// Nodes of the quadtree (≥ 2.1): five levels below the root, 1 + 4 + 16 + 64 + 256 + 1024.
pub const QUADTREE_NODES: usize = 1365;
/// Bytes of one quadtree node: max, min, half size and centre, three floats each.
pub const QUADTREE_NODE_LEN: usize = 48;
/// The build number from which 2.6 model records carry one more byte: 162, as RagLite reads it and as its
/// fixtures (`v0206-with-rsm2-flag.rsw`, build 162, and `v0206-no-rsm2-flag.rsw`, build 161) show;
/// roBrowser, korangar, BrowEdit3 and GRF Editor say 186 (see [`super`]).
pub const MODEL_BYTE_BUILD: i32 = 162;

/// `major.minor`, stored as two bytes after the magic (major first). Ordered as versions are.
pub type Version = crate::ragnarok::version::Version<Rsw>;

impl crate::ragnarok::version::Family for Rsw {
    const AS_TEXT: bool = false;
    const EXAMPLE: &'static str = "2.1";
}

impl Version {
    /// The oldest version relic reads (no file older than 1.2 is known; 1.0 and 1.1 read by the same rules).
    pub const MIN: Version = Version::new(1, 0);
    /// The newest version relic reads: 2.7 (the layout of anything newer is unknown).
    pub const MAX: Version = Version::new(2, 7);

    pub fn is_supported(self) -> bool {
        (Version::MIN..=Version::MAX).contains(&self)
    }
    /// A build number (int32) after the version (≥ 2.5).
    pub fn has_build_number(self) -> bool {
        self.at_least(2, 5)
    }
    /// One byte of unknown meaning after the version (and build number) (≥ 2.2).
    pub fn has_flag_byte(self) -> bool {
        self.at_least(2, 2)
    }
    /// Water settings in the RSW (below 2.6; from 2.6 the GND holds the water).
    pub fn has_water(self) -> bool {
        !self.at_least(2, 6)
    }
    /// The water level (≥ 1.3), wave type/height/speed/pitch (≥ 1.8), texture animation speed (≥ 1.9).
    pub fn has_water_level(self) -> bool {
        self.at_least(1, 3)
    }
    pub fn has_waves(self) -> bool {
        self.at_least(1, 8)
    }
    pub fn has_water_anim_speed(self) -> bool {
        self.at_least(1, 9)
    }
    /// Sun direction, diffuse and ambient colours (≥ 1.5); the shadow opacity (≥ 1.7).
    pub fn has_light(self) -> bool {
        self.at_least(1, 5)
    }
    pub fn has_shadow_opacity(self) -> bool {
        self.at_least(1, 7)
    }
    /// Ground bounds (≥ 1.6).
    pub fn has_ground(self) -> bool {
        self.at_least(1, 6)
    }
    /// A counted int32 list of unknown meaning before the objects (≥ 2.7).
    pub fn has_unknown_list(self) -> bool {
        self.at_least(2, 7)
    }
    /// Model records carry name, animation type and speed, block type (≥ 1.3).
    pub fn has_model_header(self) -> bool {
        self.at_least(1, 3)
    }
    /// Model records carry one more int32 (≥ 2.7).
    pub fn has_model_int(self) -> bool {
        self.at_least(2, 7)
    }
    /// Sound records carry a cycle (≥ 2.0).
    pub fn has_sound_cycle(self) -> bool {
        self.at_least(2, 0)
    }
    /// A quadtree follows the objects (≥ 2.1).
    pub fn has_quadtree(self) -> bool {
        self.at_least(2, 1)
    }
    /// The source-file name field at 1.4 and above (roBrowser, korangar); below 1.4 the third name is the GAT.
    pub fn has_src_file(self) -> bool {
        self.at_least(1, 4)
    }
}

/// A whole RSW file, in file order. Read with [`Rsw::read`], written with [`Rsw::to_bytes`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rsw {
    pub version: Version,
    /// ≥ 2.5: the build number of the tool that wrote the file (int32).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_number: Option<i32>,
    /// ≥ 2.2: one byte of unknown meaning (BrowEdit3 writes 1; RagLite reads it as the build number from
    /// 2.2 to 2.4 and as a render flag from 2.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<u8>,
    /// The map's `.ini` (unused by the client), 40 bytes.
    pub ini_file: Name,
    /// The ground file (`x.gnd`), 40 bytes.
    pub gnd_file: Name,
    /// The altitude file (`x.gat`), 40 bytes. Present in every version but at 1.4 when the file is laid
    /// out as BrowEdit3 reads it (three names, see [`super`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gat_file: Option<Name>,
    /// ≥ 1.4: the source file name, 40 bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub src_file: Option<Name>,
    /// Below 2.6: the water settings (each field from the version that carries it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub water: Option<Water>,
    /// ≥ 1.5: the sun and the ambient light.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub light: Option<Light>,
    /// ≥ 1.6: the ground bounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ground: Option<Ground>,
    /// ≥ 2.7: a counted int32 list of unknown meaning before the objects (kept as read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unknown_list: Option<Vec<i32>>,
    pub objects: Vec<Object>,
    /// ≥ 2.1: the quadtree that follows the objects ([`QUADTREE_NODES`] nodes in file order, depth
    /// first); `None` when fewer bytes remain (they are kept in `trailing`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quadtree: Option<Vec<QuadNode>>,
    /// Bytes after the objects (and the quadtree) relic does not read, kept so they are written back.
    #[serde(default, skip_serializing_if = "no_bytes")]
    pub trailing: Base64,
}

fn no_bytes(b: &Base64) -> bool {
    b.0.is_empty()
}

/// The water plane (below 2.6).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Water {
    /// ≥ 1.3: the water level (world units, Y down: a smaller value is higher).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "float")]
    pub level: Option<f32>,
    /// ≥ 1.8: the water texture set (`data\texture\워터\water<type><frame>.jpg`).
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub water_type: Option<i32>,
    /// ≥ 1.8: wave amplitude.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "float")]
    pub wave_height: Option<f32>,
    /// ≥ 1.8: wave speed.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "float")]
    pub wave_speed: Option<f32>,
    /// ≥ 1.8: wave pitch (degrees).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "float")]
    pub wave_pitch: Option<f32>,
    /// ≥ 1.9: frames each water texture is shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anim_speed: Option<i32>,
}

/// The sun and the ambient light (≥ 1.5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Light {
    /// Degrees.
    pub longitude: i32,
    /// Degrees.
    pub latitude: i32,
    #[serde(with = "float")]
    pub diffuse: [f32; 3],
    #[serde(with = "float")]
    pub ambient: [f32; 3],
    /// ≥ 1.7: the opacity of shadows (lightmaps).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "float")]
    pub shadow_opacity: Option<f32>,
}

/// The ground bounds (≥ 1.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ground {
    pub top: i32,
    pub bottom: i32,
    pub left: i32,
    pub right: i32,
}

/// One placed object; the int32 type before it says which (1 model, 2 light, 3 sound, 4 effect).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Object {
    Model(Model),
    Light(LightSource),
    Sound(Sound),
    Effect(Effect),
}

impl Object {
    /// The int32 that stands for the object's type.
    pub fn type_id(&self) -> i32 {
        match self {
            Object::Model(_) => 1,
            Object::Light(_) => 2,
            Object::Sound(_) => 3,
            Object::Effect(_) => 4,
        }
    }
}

/// A placed RSM model (type 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// ≥ 1.3: the instance's name, 40 bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<Name>,
    /// ≥ 1.3.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anim_type: Option<i32>,
    /// ≥ 1.3.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "float")]
    pub anim_speed: Option<f32>,
    /// ≥ 1.3.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_type: Option<i32>,
    /// 2.6+ from build [`MODEL_BYTE_BUILD`]: one byte of unknown meaning (RagLite's "RSM2 flag").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<u8>,
    /// ≥ 2.7: one int32 of unknown meaning.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unknown: Option<i32>,
    /// The model's path relative to `data\model\`, 80 bytes.
    pub file: Name,
    /// The mesh the instance shows (empty: the whole model), 80 bytes.
    pub node: Name,
    /// World units, Y down.
    #[serde(with = "float")]
    pub position: [f32; 3],
    /// Degrees about X, Y and Z.
    #[serde(with = "float")]
    pub rotation: [f32; 3],
    #[serde(with = "float")]
    pub scale: [f32; 3],
}

/// A point light (type 2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LightSource {
    pub name: Name,
    #[serde(with = "float")]
    pub position: [f32; 3],
    /// Red, green and blue, 1.0 full (real files hold values above 1 too).
    #[serde(with = "float")]
    pub color: [f32; 3],
    /// World units.
    #[serde(with = "float")]
    pub range: f32,
}

/// An ambient sound (type 3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sound {
    pub name: Name,
    /// The wave file relative to `data\wav\`.
    pub file: Name,
    #[serde(with = "float")]
    pub position: [f32; 3],
    #[serde(with = "float")]
    pub volume: f32,
    pub width: i32,
    pub height: i32,
    #[serde(with = "float")]
    pub range: f32,
    /// ≥ 2.0: seconds between plays.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "float")]
    pub cycle: Option<f32>,
}

/// A particle effect emitter (type 4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Effect {
    pub name: Name,
    #[serde(with = "float")]
    pub position: [f32; 3],
    /// The effect's number in the client's effect table.
    pub id: i32,
    #[serde(with = "float")]
    pub delay: f32,
    #[serde(with = "float")]
    pub params: [f32; 4],
}

/// One quadtree node: the bounding box of the objects below it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct QuadNode {
    #[serde(with = "float")]
    pub max: [f32; 3],
    #[serde(with = "float")]
    pub min: [f32; 3],
    #[serde(with = "float")]
    pub half_size: [f32; 3],
    #[serde(with = "float")]
    pub center: [f32; 3],
}

impl Rsw {
    /// The placed models, in file order.
    pub fn models(&self) -> impl Iterator<Item = &Model> {
        self.objects.iter().filter_map(|o| match o {
            Object::Model(m) => Some(m),
            _ => None,
        })
    }

    /// An empty map of `version` with every field that version carries (zero water and light values, the
    /// default ground bounds −500/500 of roBrowser, build 0, no objects, a zero quadtree ≥ 2.1).
    pub fn new(version: Version) -> Self {
        Rsw {
            version,
            build_number: version.has_build_number().then_some(0),
            flag: version.has_flag_byte().then_some(1),
            ini_file: Name::default(),
            gnd_file: Name::default(),
            gat_file: Some(Name::default()),
            src_file: version.has_src_file().then(Name::default),
            water: version.has_water().then(|| Water {
                level: version.has_water_level().then_some(0.0),
                water_type: version.has_waves().then_some(0),
                wave_height: version.has_waves().then_some(0.0),
                wave_speed: version.has_waves().then_some(0.0),
                wave_pitch: version.has_waves().then_some(0.0),
                anim_speed: version.has_water_anim_speed().then_some(3),
            }),
            light: version.has_light().then(|| Light {
                longitude: 45,
                latitude: 45,
                diffuse: [1.0; 3],
                ambient: [0.3; 3],
                shadow_opacity: version.has_shadow_opacity().then_some(0.5),
            }),
            ground: version.has_ground().then_some(Ground { top: -500, bottom: 500, left: -500, right: 500 }),
            unknown_list: version.has_unknown_list().then(Vec::new),
            objects: Vec::new(),
            quadtree: version.has_quadtree().then(|| {
                vec![QuadNode { max: [0.0; 3], min: [0.0; 3], half_size: [0.0; 3], center: [0.0; 3] }; QUADTREE_NODES]
            }),
            trailing: Base64::default(),
        }
    }
}
