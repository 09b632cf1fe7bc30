//! ADB types: the file as it is. Its serde form is the lossless JSON (`relic convert x.adb --to json`):
//! fixed-size names as text plus the bytes after their NUL when those are not zero, the packed u64 split
//! into its named bit fields plus the bits outside them, and any bytes after the last record.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::bytes::Base64;
use crate::codec::float::F32;

/// `ADB\0`.
pub const MAGIC: [u8; 4] = *b"ADB\0";
/// Magic, count, unit name, three heights.
pub const HEADER_SIZE: usize = 44;
pub const RECORD_SIZE: usize = 88;
pub const UNIT_NAME_SIZE: usize = 24;
pub const ANIMATION_NAME_SIZE: usize = 16;

/// The named bit fields of the packed u64 (spec "Adb", `additional`): name, shift, width.
pub const FIELDS: [(&str, u32, u32); 6] = [
    ("weapons", 0, 7),
    ("allowed_states", 15, 3),
    ("action_type", 18, 4),
    ("action_modifyer", 22, 8),
    ("animation_stage", 30, 2),
    ("action_forms", 36, 6),
];

/// The bits of the packed u64 that the named fields cover.
pub const FIELD_MASK: u64 = {
    let mut mask = 0u64;
    let mut i = 0;
    while i < FIELDS.len() {
        mask |= ((1u64 << FIELDS[i].2) - 1) << FIELDS[i].1;
        i += 1;
    }
    mask
};

/// A u64 written in JSON as `"0x0123456789ABCDEF"` (bit positions stay readable; no precision loss in
/// JSON readers that use doubles). Numbers are accepted on input too.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct Hex64(pub u64);

impl fmt::Debug for Hex64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "0x{:016X}", self.0)
    }
}

impl Serialize for Hex64 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{self:?}"))
    }
}

impl<'de> Deserialize<'de> for Hex64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Hex64;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a hex string like \"0x0000000000008000\" or a number")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Hex64, E> {
                Ok(Hex64(v))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Hex64, E> {
                let hex = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")).unwrap_or(v);
                u64::from_str_radix(&hex.replace('_', ""), 16)
                    .map(Hex64)
                    .map_err(|_| E::custom(format!("`{v}` is not a hex number")))
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// The packed u64 of an animation, split by name. `other_bits` holds every bit outside the named fields
/// (bits 7–14, 32–35 and 42–63), so the u64 is rebuilt exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Additionals {
    /// Bits 0–6.
    pub weapons: u8,
    /// Bits 15–17.
    pub allowed_states: u8,
    /// Bits 18–21.
    pub action_type: u8,
    /// Bits 22–29 (the spec's spelling).
    pub action_modifyer: u8,
    /// Bits 30–31.
    pub animation_stage: u8,
    /// Bits 36–41.
    pub action_forms: u8,
    pub other_bits: Hex64,
}

impl Additionals {
    pub fn unpack(packed: u64) -> Self {
        let field = |i: usize| {
            let (_, shift, width) = FIELDS[i];
            ((packed >> shift) & ((1u64 << width) - 1)) as u8
        };
        Additionals {
            weapons: field(0),
            allowed_states: field(1),
            action_type: field(2),
            action_modifyer: field(3),
            animation_stage: field(4),
            action_forms: field(5),
            other_bits: Hex64(packed & !FIELD_MASK),
        }
    }

    /// The field values in [`FIELDS`] order.
    pub fn values(&self) -> [u8; 6] {
        [
            self.weapons,
            self.allowed_states,
            self.action_type,
            self.action_modifyer,
            self.animation_stage,
            self.action_forms,
        ]
    }

    /// Packs the fields; names the first one that does not fit its bits.
    pub fn pack(&self) -> Result<u64, String> {
        let mut packed = 0u64;
        for ((name, shift, width), value) in FIELDS.iter().zip(self.values()) {
            let max = (1u64 << width) - 1;
            if u64::from(value) > max {
                return Err(format!("{name} = {value} does not fit its {width} bits (at most {max})"));
            }
            packed |= u64::from(value) << shift;
        }
        if self.other_bits.0 & FIELD_MASK != 0 {
            return Err(format!(
                "other_bits {:?} sets bits of the named fields (mask 0x{FIELD_MASK:016X})",
                self.other_bits
            ));
        }
        Ok(packed | self.other_bits.0)
    }
}

/// One 88-byte animation record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Animation {
    /// The 16-byte cp1251 name up to its first NUL.
    pub name: String,
    /// The bytes from the NUL to the end of the field, when they are not all zero.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_tail: Option<Base64>,
    /// Index in the animations array.
    pub number: u32,
    pub additionals: Additionals,
    /// Percent.
    pub action_probability: u32,
    /// Game ticks.
    pub animation_length: u32,
    pub movement_speed: F32,
    pub start_show_hide1: u32,
    pub start_show_hide2: u32,
    pub start_step_sound1: u32,
    pub start_step_sound2: u32,
    pub start_step_sound3: u32,
    pub start_step_sound4: u32,
    pub start_hit_frame: u32,
    pub start_special_sound: u32,
    pub spec_sound_id1: u32,
    pub spec_sound_id2: u32,
    pub spec_sound_id3: u32,
    pub spec_sound_id4: u32,
}

impl Animation {
    /// The twelve u32 fields after `movement_speed`, in file order.
    pub fn frames(&self) -> [u32; 12] {
        [
            self.start_show_hide1,
            self.start_show_hide2,
            self.start_step_sound1,
            self.start_step_sound2,
            self.start_step_sound3,
            self.start_step_sound4,
            self.start_hit_frame,
            self.start_special_sound,
            self.spec_sound_id1,
            self.spec_sound_id2,
            self.spec_sound_id3,
            self.spec_sound_id4,
        ]
    }
}

/// Names of the twelve u32 fields after `movement_speed`.
pub const FRAME_FIELDS: [&str; 12] = [
    "start_show_hide1",
    "start_show_hide2",
    "start_step_sound1",
    "start_step_sound2",
    "start_step_sound3",
    "start_step_sound4",
    "start_hit_frame",
    "start_special_sound",
    "spec_sound_id1",
    "spec_sound_id2",
    "spec_sound_id3",
    "spec_sound_id4",
];

/// An ADB file. Read with [`Adb::read`], written with [`Adb::to_bytes`]; its JSON (`relic convert --to json`)
/// is `serde_json::to_value` of its [`AdbDocument`] ([`Adb::to_document`]).
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::evil_islands::adb::Adb;
///
/// // `ADB\0`, no animations, the unit name `unhuma` in 24 bytes, heights 1, 1.5 and 2.
/// let mut bytes = b"ADB\0".to_vec();
/// bytes.extend(0u32.to_le_bytes());
/// let mut name = [0u8; 24];
/// name[..6].copy_from_slice(b"unhuma");
/// bytes.extend(name);
/// bytes.extend([1.0f32, 1.5, 2.0].iter().flat_map(|f| f.to_le_bytes()));
/// let adb = Adb::read(&bytes)?;
/// assert_eq!(adb.unit_name, "unhuma");
/// assert_eq!(adb.mid_height.get(), 1.5);
/// assert!(adb.animations.is_empty());
/// assert_eq!(adb.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adb {
    /// The 24-byte cp1251 unit name up to its first NUL.
    pub unit_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_name_tail: Option<Base64>,
    pub min_height: F32,
    pub mid_height: F32,
    pub max_height: F32,
    /// `animations_count` is their number.
    pub animations: Vec<Animation>,
    /// Bytes after the last record (the spec notes a "partially trimmed" variant), kept as they are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trailing: Option<Base64>,
}

/// The JSON document of an ADB file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdbDocument {
    pub format: String,
    #[serde(flatten)]
    pub adb: Adb,
}
