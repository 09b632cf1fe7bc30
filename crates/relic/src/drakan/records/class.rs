//! Classes (spec "Class (0x0100 - 0x0102)" and "Class format", with docs/formats/drakan.md#class): the RFL reference
//! 0x0100 and class records 0x0102. A class holds a header, a data area of dwords, and field definitions;
//! field `i` owns dword `i`, and strings and arrays live in the dwords after the fields, pointed to by
//! `(u16 offset, u16 length)` in dwords. The dwords are kept as stored (the writer uses only them); each
//! field's decoded `value` is a view for reading, recomputed by [`parse`].
//!
//! Where the spec is silent, as read here:
//! - A field is an array when the second byte of its type is exactly 0x10 (the spec: "if second byte is
//!   0x10"); the values 0x20–0x50 seen on class fields are kept, not interpreted, and such fields decode as
//!   their base type.
//! - Array elements are dwords of the base type; a string element is itself an `(offset, length)` pointer.
//! - Colour fields are one dword 0xAARRGGBB ("Colors are stored as ARGB").
//! - Booleans are true when the dword is not 0; field types 0x08 (channel), 0x0C (landscape layer) and
//!   unknown types show the dword as a number.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::common::{body_reader, count_u32, hex_is_empty, rest, Name, Put, F32};
use super::{string_text, Ref};
use crate::bytes::Hex;
use crate::error::Result;

// ---------------------------------------------------------------------------------------------------------
// 0x0100

/// Riot Function Library reference, record 0x0100: 8 unknown bytes and the path of the `.rfl` (for Drakan
/// always `Dragon.rfl`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RflReference {
    pub unk_0x00: Hex,
    pub path: Name,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

pub fn parse_rfl_reference(body: &[u8], base: u64) -> Result<RflReference> {
    let mut r = body_reader(body, base);
    let unk = Hex(r.bytes(8, "rfl_reference.unk_0x00")?.to_vec());
    let path = Name::read(&mut r, "rfl_reference.path")?;
    Ok(RflReference { unk_0x00: unk, path, trailing: rest(&mut r) })
}

pub fn write_rfl_reference(rfl: &RflReference) -> Vec<u8> {
    let mut out = rfl.unk_0x00.0.clone();
    rfl.path.write(&mut out);
    out.extend_from_slice(&rfl.trailing.0);
    out
}

// ---------------------------------------------------------------------------------------------------------
// 0x0102

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ClassRecord {
    pub name: Name,
    /// Equal to the record's group id; ignored by the engine (docs/formats/drakan.md#class).
    pub group_id: u16,
    /// Null (0:0) when the class has no model.
    pub model: Ref,
    pub rfl_class_id: u16,
    /// The editor's icon for the class.
    pub icon: u16,
    /// The data area as stored: one dword per field, then the strings' and arrays' dwords.
    pub dwords: Vec<u32>,
    pub fields: Vec<Field>,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Field {
    pub name: Name,
    #[serde(rename = "type")]
    pub field_type: FieldType,
    /// The field's value decoded from the dwords (a view: the writer ignores it).
    #[serde(default)]
    pub value: Value,
}

/// A field type as stored (u32): low byte the base type, second byte 0x10 for arrays (other values kept).
/// JSON: `{"code": 4097, "base": "int", "array": true}`; only `code` is read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FieldType(pub u32);

impl FieldType {
    pub fn base(self) -> u8 {
        self.0 as u8
    }
    pub fn second_byte(self) -> u8 {
        (self.0 >> 8) as u8
    }
    pub fn is_array(self) -> bool {
        self.second_byte() == 0x10
    }
    /// The base type's name (spec "Class data" table).
    pub fn base_name(self) -> &'static str {
        match self.base() {
            0x01 => "int",
            0x02 => "float",
            0x03 => "class",
            0x04 => "model",
            0x05 => "sound",
            0x06 => "bool",
            0x07 => "enum",
            0x08 => "channel",
            0x09 => "animation",
            0x0A => "string",
            0x0B => "sequence",
            0x0C => "landscape_layer",
            0x0D => "unknown_0x0d",
            0x0E => "texture",
            0x0F => "colour",
            _ => "unknown",
        }
    }
}

#[derive(Serialize)]
struct FieldTypeView {
    code: u32,
    base: &'static str,
    array: bool,
    #[serde(skip_serializing_if = "is_zero")]
    second_byte: u8,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

#[derive(Deserialize)]
struct FieldTypeCode {
    code: u32,
}

impl Serialize for FieldType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let second = self.second_byte();
        FieldTypeView {
            code: self.0,
            base: self.base_name(),
            array: self.is_array(),
            second_byte: if self.is_array() { 0 } else { second },
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for FieldType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(FieldType(FieldTypeCode::deserialize(d)?.code))
    }
}

/// A field's value, decoded from its dword.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Value {
    /// The data area has no dword for this field.
    #[default]
    Missing,
    Int(i32),
    Float(F32),
    Bool(bool),
    Enum(u32),
    /// A record reference of the kind the type names (class, model, sound, animation, sequence, texture).
    Ref {
        kind: RefKind,
        #[serde(flatten)]
        target: Ref,
    },
    Colour(Colour),
    String(String),
    Array(Vec<Value>),
    /// A type whose dword has no known structure (channel, landscape layer, 0x0D, unknown types).
    Number(u32),
    /// A string or array pointer outside the data area.
    Invalid(String),
}

/// A colour dword, 0xAARRGGBB.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Colour {
    /// `#AARRGGBB`.
    pub argb: String,
    pub a: u8,
    pub r: u8,
    pub g: u8,
    pub b: u8,
}

impl Colour {
    pub fn from_dword(v: u32) -> Colour {
        let [b, g, r, a] = v.to_le_bytes();
        Colour { argb: format!("#{v:08X}"), a, r, g, b }
    }
}

/// What a reference field refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefKind {
    Class,
    Model,
    Sound,
    Animation,
    Sequence,
    Texture,
}

/// The reference kind of a base type, if it is a reference.
fn ref_kind(base: u8) -> Option<RefKind> {
    Some(match base {
        0x03 => RefKind::Class,
        0x04 => RefKind::Model,
        0x05 => RefKind::Sound,
        0x09 => RefKind::Animation,
        0x0B => RefKind::Sequence,
        0x0E => RefKind::Texture,
        _ => return None,
    })
}

/// Decodes field `index` of type `field_type` from a data area (also used for level objects, whose
/// fields have the same types).
pub fn decode_value(field_type: FieldType, index: usize, dwords: &[u32]) -> Value {
    let Some(&dword) = dwords.get(index) else {
        return Value::Missing;
    };
    if field_type.is_array() {
        return match pointed(dword, dwords) {
            Ok(elements) => Value::Array(elements.iter().map(|&e| scalar(field_type.base(), e, dwords)).collect()),
            Err(why) => Value::Invalid(why),
        };
    }
    scalar(field_type.base(), dword, dwords)
}

/// The dwords an `(offset, length)` pointer names.
fn pointed(dword: u32, dwords: &[u32]) -> std::result::Result<&[u32], String> {
    let (offset, len) = (usize::from(dword as u16), usize::from((dword >> 16) as u16));
    dwords
        .get(offset..offset + len)
        .ok_or_else(|| format!("dwords {offset}..{} are past the data area of {} dwords", offset + len, dwords.len()))
}

fn scalar(base: u8, dword: u32, dwords: &[u32]) -> Value {
    if let Some(kind) = ref_kind(base) {
        return Value::Ref { kind, target: Ref { id: dword as u16, db: (dword >> 16) as u16 } };
    }
    match base {
        0x01 => Value::Int(dword as i32),
        0x02 => Value::Float(F32(dword)),
        0x06 => Value::Bool(dword != 0),
        0x07 => Value::Enum(dword),
        0x0F => Value::Colour(Colour::from_dword(dword)),
        0x0A => match pointed(dword, dwords) {
            Ok(words) => {
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                Value::String(string_text(&bytes))
            }
            Err(why) => Value::Invalid(why),
        },
        _ => Value::Number(dword),
    }
}

pub fn parse(body: &[u8], base: u64) -> Result<ClassRecord> {
    let mut r = body_reader(body, base);
    let name = Name::read(&mut r, "class.name")?;
    let group_id = r.u16("class.group_id")?;
    let model = Ref::read(&mut r, "class.model")?;
    let rfl_class_id = r.u16("class.rfl_class_id")?;
    let icon = r.u16("class.icon")?;
    // docs/formats/drakan.md#class: the field count comes before the dword count.
    let field_count = r.u32("class.field_count")?;
    let dword_count = r.u32("class.dword_count")?;
    let n = r.count(u64::from(dword_count), 4, "class.dwords")?;
    let mut dwords = Vec::with_capacity(n);
    for _ in 0..n {
        dwords.push(r.u32("class.dwords")?);
    }
    // A definition is at least 6 bytes (u32 type, u16 name length).
    let n = r.count(u64::from(field_count), 6, "class.fields")?;
    let mut fields = Vec::with_capacity(n);
    for i in 0..n {
        let field_type = FieldType(r.u32("type").map_err(|e| e.within(format_args!("class.fields[{i}]")))?);
        let name = Name::read(&mut r, "name").map_err(|e| e.within(format_args!("class.fields[{i}]")))?;
        let value = decode_value(field_type, i, &dwords);
        fields.push(Field { name, field_type, value });
    }
    Ok(ClassRecord { name, group_id, model, rfl_class_id, icon, dwords, fields, trailing: rest(&mut r) })
}

pub fn write(c: &ClassRecord) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 + c.dwords.len() * 4 + c.fields.len() * 24);
    c.name.write(&mut out);
    out.put_u16(c.group_id);
    c.model.write(&mut out);
    out.put_u16(c.rfl_class_id);
    out.put_u16(c.icon);
    out.put_u32(count_u32(c.fields.len()));
    out.put_u32(count_u32(c.dwords.len()));
    for &d in &c.dwords {
        out.put_u32(d);
    }
    for f in &c.fields {
        out.put_u32(f.field_type.0);
        f.name.write(&mut out);
    }
    out.extend_from_slice(&c.trailing.0);
    out
}
