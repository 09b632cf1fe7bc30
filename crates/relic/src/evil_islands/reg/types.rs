//! REG types. [`Reg`] is the file exactly as stored — both hash tables in slot order with their chain
//! links and offsets — and its serde form is the lossless JSON (`relic convert x.reg --to json`).
//! [`Content`] is what an INI holds: sections and keys in file order, with the table slots only where the
//! file's differ from the ones relic would compute.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::codec::float::F32;
use crate::codec::text::{decode, encode, CP1251};

/// `FB 3E AB 45`.
pub const MAGIC: [u8; 4] = [0xFB, 0x3E, 0xAB, 0x45];
/// Magic and section count.
pub const HEADER_SIZE: u64 = 6;
/// One hash-table entry: s16 chain link, u32 offset.
pub const SLOT_SIZE: u64 = 6;
/// The chain link that ends a chain (stored as `FF FF`).
pub const END: Link = Link(0xFFFF);

/// Value type codes (the low 7 bits of a key's type byte); bit 7 marks an array.
pub const TYPE_INT: u8 = 0;
pub const TYPE_FLOAT: u8 = 1;
pub const TYPE_STRING: u8 = 2;
pub const ARRAY_BIT: u8 = 0x80;

/// A hash-chain link (the spec's s16 "order"): the next slot of the chain, or `FF FF` for the end. It is
/// read as a u16 so that tables of more than 32768 entries can link to their upper slots; JSON and INI
/// show the end as −1.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Link(pub u16);

impl Link {
    /// The link to `slot` (`slot` below 65535).
    pub fn to(slot: usize) -> Link {
        Link(slot as u16)
    }
    /// The next slot, or `None` at the end of a chain.
    pub fn slot(self) -> Option<usize> {
        (self != END).then_some(usize::from(self.0))
    }
    /// −1 for the end, else the slot.
    pub fn value(self) -> i32 {
        self.slot().map_or(-1, |s| s as i32)
    }
    /// From −1 (or 65535) for the end, or a slot 0..=65534.
    pub fn from_value(v: i64) -> Option<Link> {
        match v {
            -1 | 65535 => Some(END),
            0..=65534 => Some(Link(v as u16)),
            _ => None,
        }
    }
}

impl fmt::Debug for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value())
    }
}

impl fmt::Display for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value())
    }
}

impl Serialize for Link {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i32(self.value())
    }
}

impl<'de> Deserialize<'de> for Link {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = i64::deserialize(d)?;
        Link::from_value(v)
            .ok_or_else(|| serde::de::Error::custom(format!("link {v} is neither −1 nor a slot 0..65534")))
    }
}

/// cp1251 text kept as its bytes. JSON shows the decoded text: cp1251 gives every byte its own character
/// (`codec::text` tests this), so the text always encodes back to the same bytes.
#[derive(Clone, PartialEq, Eq, Default, Hash)]
pub struct Text(pub Vec<u8>);

impl Text {
    /// Encodes `text` in cp1251; `None` when a character has no cp1251 byte.
    pub fn encode(text: &str) -> Option<Text> {
        encode(CP1251, text).map(Text)
    }
    pub fn decoded(&self) -> String {
        decode(CP1251, &self.0)
    }
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.decoded(), f)
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.decoded())
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Text::encode(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("`{text}` has characters that cp1251 cannot hold")))
    }
}

/// A key's value. JSON: `"type": "int", "value": 42` (types `int`, `float`, `string`, `int_array`,
/// `float_array`, `string_array`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Value {
    Int(i32),
    Float(F32),
    String(Text),
    IntArray(Vec<i32>),
    FloatArray(Vec<F32>),
    StringArray(Vec<Text>),
}

impl Value {
    /// The type byte stored before the key's name.
    pub fn type_byte(&self) -> u8 {
        match self {
            Value::Int(_) => TYPE_INT,
            Value::Float(_) => TYPE_FLOAT,
            Value::String(_) => TYPE_STRING,
            Value::IntArray(_) => TYPE_INT | ARRAY_BIT,
            Value::FloatArray(_) => TYPE_FLOAT | ARRAY_BIT,
            Value::StringArray(_) => TYPE_STRING | ARRAY_BIT,
        }
    }

    pub fn is_array(&self) -> bool {
        self.type_byte() & ARRAY_BIT != 0
    }

    /// Element count of an array (`None` for a single value).
    pub fn array_len(&self) -> Option<usize> {
        match self {
            Value::IntArray(v) => Some(v.len()),
            Value::FloatArray(v) => Some(v.len()),
            Value::StringArray(v) => Some(v.len()),
            _ => None,
        }
    }

    /// Bytes the value takes after the key's name.
    pub fn encoded_len(&self) -> u64 {
        let string = |t: &Text| 2 + t.0.len() as u64;
        match self {
            Value::Int(_) | Value::Float(_) => 4,
            Value::String(t) => string(t),
            Value::IntArray(v) => 2 + 4 * v.len() as u64,
            Value::FloatArray(v) => 2 + 4 * v.len() as u64,
            Value::StringArray(v) => 2 + v.iter().map(string).sum::<u64>(),
        }
    }
}

/// One key: its key-table entry (slot = index in [`Section::keys`]) and its record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Key {
    /// The spec's `order`: next slot of this hash chain, −1 (`FF FF`) ends it.
    pub next: Link,
    /// Offset of the key record from the start of its section.
    pub offset: u32,
    pub name: Text,
    #[serde(flatten)]
    pub value: Value,
}

/// One section: its section-table entry (slot = index in [`Reg::sections`]) and its record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    /// The spec's `order`: next slot of this hash chain, −1 (`FF FF`) ends it.
    pub next: Link,
    /// Absolute offset of the section record.
    pub offset: u32,
    pub name: Text,
    /// The key table in slot order.
    pub keys: Vec<Key>,
}

/// Bytes of the file outside every record, when not all zero.
pub use crate::layout::Gap;

/// A REG file as stored. Read with [`Reg::read`], written with [`Reg::to_bytes`]; its JSON (`relic convert
/// --to json`) is `serde_json::to_value` of its [`RegDocument`] ([`Reg::to_document`]).
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::evil_islands::reg::types::{PlainKey, PlainSection};
/// use relic::evil_islands::reg::{write_content, Content, Reg, Text, Value};
///
/// // One section, `Game`, with one integer key, `Speed = 3`, laid out as relic lays files out.
/// let key = PlainKey { name: Text(b"Speed".to_vec()), value: Value::Int(3) };
/// let section = PlainSection { name: Text(b"Game".to_vec()), keys: vec![key], table: None };
/// let bytes = write_content(&Content { sections: vec![section], table: None })?;
/// let reg = Reg::read(&bytes)?;
/// assert_eq!(reg.sections[0].name.decoded(), "Game");
/// assert_eq!(reg.sections[0].keys[0].name.decoded(), "Speed");
/// assert_eq!(reg.sections[0].keys[0].value, Value::Int(3));
/// assert_eq!(reg.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reg {
    /// Total file size (bytes outside records that are not listed in `gaps` are zero).
    pub file_size: u64,
    /// The section table in slot order.
    pub sections: Vec<Section>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gaps: Vec<Gap>,
}

/// The JSON document of a REG file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegDocument {
    pub format: String,
    #[serde(flatten)]
    pub reg: Reg,
}

/// Where an entry sits in a hash table: its slot and its chain link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    pub slot: u16,
    pub next: Link,
}

/// A key as an INI holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlainKey {
    pub name: Text,
    pub value: Value,
}

/// A section as an INI holds it: keys in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlainSection {
    pub name: Text,
    pub keys: Vec<PlainKey>,
    /// Key-table placements in key order; `None` to place the keys by the name hash.
    pub table: Option<Vec<Placement>>,
}

/// What an INI holds: sections in file order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Content {
    pub sections: Vec<PlainSection>,
    /// Section-table placements in section order; `None` to place the sections by the name hash.
    pub table: Option<Vec<Placement>>,
}
