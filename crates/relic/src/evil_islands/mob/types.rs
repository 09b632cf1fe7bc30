//! MOB types: the file as it is, a sequence of nodes whose payloads are decoded by the spec's type table.
//! Their serde form is the JSON of `relic convert x.mob --to json`, and holds every byte needed to write
//! the file back (`relic pack ei-mob x.json`). Node sizes are not stored: the writer computes them.
//!
//! A node in JSON: `{"type": "0xBBBB0002", "name": "UNIT_PROTOTYPE", "string": "Goblin"}` — the type id
//! as a hex string, the spec's name (informational, ignored when packing; absent for ids the spec does
//! not list) and at most one value key: `children`, `byte`, `dword`, `float`, `string`, `strings`,
//! `plot`, `quaternion`, `rectangle`, `lever_stats`, `unit_stats`, `diplomacy`, `areas`, `points`,
//! `script` or `hex`; a node with no value key has an empty payload.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use super::table;

/// A whole MOB file: its top-level nodes in file order. Read with [`Mob::read`], written with [`Mob::to_bytes`];
/// `relic convert --to json` is `serde_json::to_value` of its [`MobDocument`] ([`Mob::to_document`]).
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::evil_islands::mob::Mob;
///
/// let bytes = std::fs::read("../../samples/evil_islands/level.mob")?;
/// let mob = Mob::read(&bytes)?;
/// // The game's levels hold OBJECTDBFILE (0xA000), then AIGRAPH (0x31415926).
/// assert_eq!(mob.nodes.iter().map(|n| n.type_id).collect::<Vec<_>>(), [0xA000, 0x3141_5926]);
/// assert_eq!(mob.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mob {
    pub nodes: Vec<Node>,
}

/// The JSON document of a MOB file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MobDocument {
    pub format: String,
    pub nodes: Vec<Node>,
}

/// One node: a type id and its decoded payload.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub type_id: u32,
    pub value: Value,
}

impl Node {
    /// The spec's name of this node's type, if the spec lists it.
    pub fn name(&self) -> Option<&'static str> {
        table::lookup(self.type_id).map(|(_, name)| name)
    }
}

/// A payload, decoded by the kind the spec's table gives the node's type. Payloads that do not fit their
/// kind (a wrong size, children that do not tile the record) and types the spec does not list are `Hex`.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Record(Vec<Node>),
    /// An empty payload.
    Null,
    Byte(u8),
    Dword(u32),
    Float(F32),
    String(CpString),
    StringArray(Vec<StringItem>),
    Plot([F32; 3]),
    Quaternion([F32; 4]),
    Rectangle([u32; 4]),
    LeverStats([i32; 3]),
    UnitStats(Box<UnitStats>),
    /// 32 rows of 32 values.
    Diplomacy(Vec<Vec<u32>>),
    AreaArray(Vec<Area>),
    Plot2DArray(Vec<[F32; 2]>),
    Script(Script),
    Hex(Hex),
}

/// One string of a StringArray. Its sub-node type is usually the array's own type id; `type_id` is
/// `None` then (and in JSON the item is just the string).
#[derive(Debug, Clone, PartialEq)]
pub struct StringItem {
    pub type_id: Option<u32>,
    pub text: CpString,
}

/// An area of a magic trap: centre and radius.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Area {
    pub x: F32,
    pub y: F32,
    pub r: F32,
}

/// The level script (SS_TEXT): the file's key and the deciphered text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    pub key: u32,
    pub text: CpString,
}

// ---------------------------------------------------------------------------------------------------------
// Text, bytes, floats and type ids in JSON

/// cp1251 text. `raw` holds the bytes when decoding and encoding again would not give them back; it
/// then wins over `text` when writing. JSON: a plain string, or `{"text": …, "raw": "hex"}`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CpString {
    pub text: String,
    pub raw: Option<Hex>,
}

impl CpString {
    pub fn new(text: impl Into<String>) -> Self {
        CpString { text: text.into(), raw: None }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum CpStringRepr {
    Plain(String),
    Raw { text: String, raw: Hex },
}

impl Serialize for CpString {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.raw {
            None => s.serialize_str(&self.text),
            Some(raw) => CpStringRepr::Raw { text: self.text.clone(), raw: raw.clone() }.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for CpString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match CpStringRepr::deserialize(d)? {
            CpStringRepr::Plain(text) => CpString { text, raw: None },
            CpStringRepr::Raw { text, raw } => CpString { text, raw: Some(raw) },
        })
    }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum StringItemRepr {
    Plain(CpString),
    Typed {
        #[serde(rename = "type")]
        type_id: TypeId,
        string: CpString,
    },
}

impl Serialize for StringItem {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.type_id {
            None => self.text.serialize(s),
            Some(t) => StringItemRepr::Typed { type_id: TypeId(t), string: self.text.clone() }.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for StringItem {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match StringItemRepr::deserialize(d)? {
            StringItemRepr::Plain(text) => StringItem { type_id: None, text },
            StringItemRepr::Typed { type_id, string } => StringItem { type_id: Some(type_id.0), text: string },
        })
    }
}

pub use crate::bytes::Hex;

/// A node type id, written in JSON as `"0x0000A000"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TypeId(pub u32);

impl Serialize for TypeId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("0x{:08X}", self.0))
    }
}

impl<'de> Deserialize<'de> for TypeId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        parse_hex_u32(&text).map(TypeId).ok_or_else(|| de::Error::custom(format!("`{text}` is not a 0x… type id")))
    }
}

fn parse_hex_u32(text: &str) -> Option<u32> {
    let digits = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X"))?;
    u32::from_str_radix(digits, 16).ok()
}

/// An f32 that survives JSON exactly. Written as the shortest decimal that gives the same bits back
/// through serde_json (`0.4`, not `0.4000000059604645`), else as the exact widened value, else (NaN,
/// infinities) as the bit pattern string `"0x7FC00000"`.
#[derive(Debug, Clone, Copy, Default)]
pub struct F32(pub f32);

impl PartialEq for F32 {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl F32 {
    /// The f64 to write, if some finite one comes back as the same bits.
    fn json_number(self) -> Option<f64> {
        let bits = self.0.to_bits();
        let survives = |v: f64| {
            serde_json::to_string(&v)
                .ok()
                .and_then(|s| serde_json::from_str::<f64>(&s).ok())
                .is_some_and(|back| (back as f32).to_bits() == bits)
        };
        let shortest = self.0.to_string().parse::<f64>().ok().filter(|v| v.is_finite());
        shortest.filter(|&v| survives(v)).or_else(|| Some(f64::from(self.0)).filter(|v| v.is_finite() && survives(*v)))
    }
}

impl Serialize for F32 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.json_number() {
            Some(v) => s.serialize_f64(v),
            None => s.serialize_str(&format!("0x{:08X}", self.0.to_bits())),
        }
    }
}

impl<'de> Deserialize<'de> for F32 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = F32;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number or a \"0x…\" bit pattern")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<F32, E> {
                Ok(F32(v as f32))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<F32, E> {
                Ok(F32(v as f32))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<F32, E> {
                Ok(F32(v as f32))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<F32, E> {
                parse_hex_u32(v).map(|b| F32(f32::from_bits(b))).ok_or_else(|| E::custom(format!("`{v}` is not 0x…")))
            }
        }
        d.deserialize_any(V)
    }
}

// ---------------------------------------------------------------------------------------------------------
// Nodes in JSON

/// The JSON shape of a node as read (see the module doc); at most one value field may be set.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NodeRepr {
    #[serde(rename = "type")]
    type_id: TypeId,
    /// Informational (the spec's name); any value is accepted and ignored.
    #[serde(rename = "name")]
    _name: Option<de::IgnoredAny>,
    children: Option<Vec<Node>>,
    byte: Option<u8>,
    dword: Option<u32>,
    float: Option<F32>,
    string: Option<CpString>,
    strings: Option<Vec<StringItem>>,
    plot: Option<[F32; 3]>,
    quaternion: Option<[F32; 4]>,
    rectangle: Option<[u32; 4]>,
    lever_stats: Option<[i32; 3]>,
    unit_stats: Option<Box<UnitStats>>,
    diplomacy: Option<Vec<Vec<u32>>>,
    areas: Option<Vec<Area>>,
    points: Option<Vec<[F32; 2]>>,
    script: Option<Script>,
    hex: Option<Hex>,
}

/// The borrowed twin of [`NodeRepr`], for writing JSON without copying the tree.
#[derive(Serialize, Default)]
struct NodeReprRef<'a> {
    #[serde(rename = "type")]
    type_id: TypeId,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    children: Option<&'a [Node]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    byte: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dword: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    float: Option<F32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    string: Option<&'a CpString>,
    #[serde(skip_serializing_if = "Option::is_none")]
    strings: Option<&'a [StringItem]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    plot: Option<&'a [F32; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    quaternion: Option<&'a [F32; 4]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rectangle: Option<&'a [u32; 4]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lever_stats: Option<&'a [i32; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unit_stats: Option<&'a UnitStats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    diplomacy: Option<&'a [Vec<u32>]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    areas: Option<&'a [Area]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    points: Option<&'a [[F32; 2]]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    script: Option<&'a Script>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hex: Option<&'a Hex>,
}

impl Serialize for Node {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut r = NodeReprRef { type_id: TypeId(self.type_id), name: self.name(), ..Default::default() };
        match &self.value {
            Value::Record(v) => r.children = Some(v),
            Value::Null => {}
            Value::Byte(v) => r.byte = Some(*v),
            Value::Dword(v) => r.dword = Some(*v),
            Value::Float(v) => r.float = Some(*v),
            Value::String(v) => r.string = Some(v),
            Value::StringArray(v) => r.strings = Some(v),
            Value::Plot(v) => r.plot = Some(v),
            Value::Quaternion(v) => r.quaternion = Some(v),
            Value::Rectangle(v) => r.rectangle = Some(v),
            Value::LeverStats(v) => r.lever_stats = Some(v),
            Value::UnitStats(v) => r.unit_stats = Some(v),
            Value::Diplomacy(v) => r.diplomacy = Some(v),
            Value::AreaArray(v) => r.areas = Some(v),
            Value::Plot2DArray(v) => r.points = Some(v),
            Value::Script(v) => r.script = Some(v),
            Value::Hex(v) => r.hex = Some(v),
        }
        r.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = NodeRepr::deserialize(d)?;
        let type_id = r.type_id.0;
        let mut values: Vec<Value> = Vec::with_capacity(1);
        let mut put = |v: Option<Value>| values.extend(v);
        put(r.children.map(Value::Record));
        put(r.byte.map(Value::Byte));
        put(r.dword.map(Value::Dword));
        put(r.float.map(Value::Float));
        put(r.string.map(Value::String));
        put(r.strings.map(Value::StringArray));
        put(r.plot.map(Value::Plot));
        put(r.quaternion.map(Value::Quaternion));
        put(r.rectangle.map(Value::Rectangle));
        put(r.lever_stats.map(Value::LeverStats));
        put(r.unit_stats.map(Value::UnitStats));
        put(r.diplomacy.map(Value::Diplomacy));
        put(r.areas.map(Value::AreaArray));
        put(r.points.map(Value::Plot2DArray));
        put(r.script.map(Value::Script));
        put(r.hex.map(Value::Hex));
        if values.len() > 1 {
            return Err(de::Error::custom(format!("node 0x{type_id:08X} has more than one value")));
        }
        Ok(Node { type_id, value: values.pop().unwrap_or(Value::Null) })
    }
}

// ---------------------------------------------------------------------------------------------------------
// UnitStats

/// A field type of the packed UnitStats struct.
pub trait StatField: Sized {
    const SIZE: usize;
    fn read(r: &mut crate::reader::Reader<'_>, field: &str) -> crate::Result<Self>;
    fn put(&self, w: &mut crate::writer::Writer);
}

macro_rules! stat_field {
    ($ty:ty, $read:ident) => {
        impl StatField for $ty {
            const SIZE: usize = std::mem::size_of::<$ty>();
            fn read(r: &mut crate::reader::Reader<'_>, field: &str) -> crate::Result<Self> {
                r.$read(field)
            }
            fn put(&self, w: &mut crate::writer::Writer) {
                w.$read(*self);
            }
        }
    };
}
stat_field!(i32, i32);
stat_field!(i16, i16);
stat_field!(u8, u8);

impl StatField for F32 {
    const SIZE: usize = 4;
    fn read(r: &mut crate::reader::Reader<'_>, field: &str) -> crate::Result<Self> {
        r.f32(field).map(F32)
    }
    fn put(&self, w: &mut crate::writer::Writer) {
        w.f32(self.0);
    }
}

macro_rules! unit_stats {
    ($($offset:literal $name:ident : $ty:ty),* $(,)?) => {
        /// UNIT_STATS: a packed 172-byte struct `<4i10f2Bh13fi12f8B` (docs/formats/evil-islands.md#mob-payloads; the spec says 180).
        /// Field names follow the community's reading of the game's unit parameters where the values in
        /// real files agree with them (e.g. the arc fields hold cos 90°); the rest are named by offset.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct UnitStats {
            $(#[doc = concat!("Offset ", stringify!($offset), ".")] pub $name: $ty,)*
        }

        impl UnitStats {
            /// Field names with their offsets and sizes, in file order.
            pub const FIELDS: &'static [(&'static str, usize, usize)] =
                &[$((stringify!($name), $offset, <$ty as StatField>::SIZE)),*];

            pub(super) fn read(r: &mut crate::reader::Reader<'_>) -> crate::Result<Self> {
                Ok(UnitStats { $($name: <$ty as StatField>::read(r, stringify!($name))?,)* })
            }

            pub(super) fn put(&self, w: &mut crate::writer::Writer) {
                $(self.$name.put(w);)*
            }
        }
    };
}

/// Size of the UnitStats payload.
pub const UNIT_STATS_SIZE: usize = 172;

unit_stats! {
    0x00 hp: i32,
    0x04 max_hp: i32,
    0x08 mp: i32,
    0x0C max_mp: i32,
    0x10 moves: F32,
    0x14 actions: F32,
    0x18 speed_run: F32,
    0x1C speed_walk: F32,
    0x20 speed_crawl: F32,
    0x24 speed_crawl_run: F32,
    0x28 vision_arc: F32,
    0x2C skills_peripheral: F32,
    0x30 peripheral_arc: F32,
    0x34 attack_distance: F32,
    0x38 ai_class_stay: u8,
    0x39 ai_class_lay: u8,
    0x3A unk_0x3a: i16,
    0x3C range: F32,
    0x40 attack: F32,
    0x44 defence: F32,
    0x48 weight: F32,
    0x4C damage_min: F32,
    0x50 damage_range: F32,
    0x54 armor_impaling: F32,
    0x58 armor_slashing: F32,
    0x5C armor_crushing: F32,
    0x60 armor_thermal: F32,
    0x64 armor_chemical: F32,
    0x68 armor_electrical: F32,
    0x6C armor_general: F32,
    0x70 absorption: i32,
    0x74 sight: F32,
    0x78 unk_0x78: F32,
    0x7C unk_0x7c: F32,
    0x80 unk_0x80: F32,
    0x84 unk_0x84: F32,
    0x88 unk_0x88: F32,
    0x8C unk_0x8c: F32,
    0x90 unk_0x90: F32,
    0x94 unk_0x94: F32,
    0x98 unk_0x98: F32,
    0x9C unk_0x9c: F32,
    0xA0 unk_0xa0: F32,
    0xA4 unk_0xa4: u8,
    0xA5 unk_0xa5: u8,
    0xA6 unk_0xa6: u8,
    0xA7 unk_0xa7: u8,
    0xA8 unk_0xa8: u8,
    0xA9 unk_0xa9: u8,
    0xAA unk_0xaa: u8,
    0xAB unk_0xab: u8,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_stats_fields_are_packed_in_order() {
        let mut at = 0;
        for &(name, offset, size) in UnitStats::FIELDS {
            assert_eq!(offset, at, "{name}");
            if let Some(hex) = name.strip_prefix("unk_0x") {
                assert_eq!(usize::from_str_radix(hex, 16).unwrap(), offset, "{name}");
            }
            at += size;
        }
        assert_eq!(at, UNIT_STATS_SIZE);
        // `<4i10f2Bh13fi12f8B`
        let kinds: String = UnitStats::FIELDS.iter().map(|f| char::from(b'0' + f.2 as u8)).collect();
        assert_eq!(
            kinds,
            format!("{}{}112{}4{}{}", "4".repeat(4), "4".repeat(10), "4".repeat(13), "4".repeat(12), "1".repeat(8))
        );
    }

    #[test]
    fn f32_survives_json_exactly() {
        for bits in [0u32, 0x8000_0000, 0x3F80_0000, 0xB33B_BD2E, 0x7FC0_0000, 0x7F80_0000, 0xFF80_0001, 1, 0x7F7F_FFFF]
        {
            let v = F32(f32::from_bits(bits));
            let json = serde_json::to_value(v).unwrap();
            let back: F32 = serde_json::from_value(json.clone()).unwrap();
            assert_eq!(back.0.to_bits(), bits, "{json}");
        }
        assert_eq!(serde_json::to_string(&F32(f32::NAN)).unwrap(), "\"0x7FC00000\"");
        assert_eq!(serde_json::to_string(&F32(1.5)).unwrap(), "1.5");
        assert_eq!(serde_json::to_string(&F32(0.4)).unwrap(), "0.4");
        assert_eq!(serde_json::to_value(F32(1.7)).unwrap().to_string(), "1.7");
    }
}
