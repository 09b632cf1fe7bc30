//! SRSC record bodies (spec "Record types", corrected by docs/formats/drakan.md): one module
//! per asset kind, each with plain serde types and `parse(body, base)`, where `base` is the absolute file
//! offset of the body so errors name real file offsets.

pub mod animation;
pub mod character;
pub mod class;
pub mod common;
pub mod group;
pub mod level;
pub mod model;
pub mod palette;
pub mod sequence;
pub mod sound;
pub mod strings;
pub mod texture;

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::reader::Reader;

/// Format id used in errors raised while reading record bodies (they live in SRSC files).
pub const FORMAT_ID: &str = "drakan-srsc";

/// A reference to another record: its id, and the database it lives in (0 = this database, others through
/// the `.db` dependency table, 1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct Ref {
    pub id: u16,
    pub db: u16,
}

impl Ref {
    pub fn read(r: &mut Reader<'_>, field: &str) -> Result<Ref> {
        Ok(Ref { id: r.u16(field)?, db: r.u16(field)? })
    }

    pub fn is_null(self) -> bool {
        self.id == 0 && self.db == 0
    }

    pub fn write(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.id.to_le_bytes());
        out.extend_from_slice(&self.db.to_le_bytes());
    }
}

/// Reads an SRSC string (spec "Data formatting"): u16 length, then that many bytes; odd-length text is padded
/// with one zero byte that the length includes. Returns the bytes as stored (padding included), so writing
/// them back is exact; [`string_text`] gives the text.
pub fn read_string<'a>(r: &mut Reader<'a>, field: &str) -> Result<&'a [u8]> {
    let len = r.u16(field)?;
    r.bytes(usize::from(len), field)
}

/// The text of a stored string: bytes up to the first NUL (the padding), decoded as Windows-1252 (the
/// spec says ASCII; the game's Western releases use the ANSI code page).
pub fn string_text(stored: &[u8]) -> String {
    let end = stored.iter().position(|&b| b == 0).unwrap_or(stored.len());
    crate::codec::text::decode(encoding_rs::WINDOWS_1252, stored.get(..end).unwrap_or(stored))
}

/// Writes a string as the game does: u16 length, the bytes, one zero byte when the length is odd.
pub fn write_string(text_bytes: &[u8], out: &mut Vec<u8>) {
    let padded = text_bytes.len() + text_bytes.len() % 2;
    out.extend_from_slice(&(padded as u16).to_le_bytes());
    out.extend_from_slice(text_bytes);
    if text_bytes.len() % 2 == 1 {
        out.push(0);
    }
}

/// The name of a record type (spec "Record types"), for listings and extraction names.
pub fn type_name(record_type: u16) -> Option<&'static str> {
    Some(match record_type {
        0x0000 => "level_info",
        0x0001 => "level_layers",
        0x0002..=0x0020 => "level",
        0x0030 => "palette",
        0x0040 => "texture",
        0x0100 => "rfl_reference",
        0x0101 => "class_group",
        0x0102 => "class",
        0x0200 => "model_name",
        0x0201 => "model_group",
        0x0202 => "model_counters",
        0x0203 => "model_vertices",
        0x0204 => "model_polygons",
        0x0205 => "model_bsp",
        0x0206 => "model_textures",
        0x0207 => "model_bounds",
        0x0208 => "character",
        0x0209 => "reo_lod",
        0x0301 => "sound_group",
        0x0302 => "sound",
        0x0310 => "sequence_info",
        0x0311 => "sequence",
        0x0312 => "sequence_group",
        0x0400 => "string_enciphered",
        0x0401 => "string",
        0x0402 => "version",
        0x0501 => "animation_info",
        0x0502 => "animation_frames",
        0x0503 => "animation_lookup",
        _ => return None,
    })
}

/// Record types whose body is a group definition (a single string, the group's name); the record id is the
/// group's id (spec "Record ID and grouping"; sequences' is 0x0312, docs/formats/drakan.md#group-records).
pub fn is_group_definition(record_type: u16) -> bool {
    matches!(record_type, 0x0101 | 0x0201 | 0x0301 | 0x0312)
}

/// A record body decoded by one of the record modules (string records 0x0400–0x0402 are decoded by the
/// SRSC layer). JSON: `{"palette": {…}}`, `{"texture": {…}}`, ….
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decoded {
    LevelInfo(level::LevelInfo),
    LevelLayers(level::Layers),
    Palette(palette::Palette),
    Texture(texture::Texture),
    RflReference(class::RflReference),
    Group(group::GroupDefinition),
    Class(class::ClassRecord),
    ModelName(model::ModelName),
    ModelCounters(model::Counters),
    ModelVertices(model::Vertices),
    ModelPolygons(model::Polygons),
    ModelBsp(model::Bsp),
    ModelTextures(model::TextureList),
    ModelBounds(model::Bounds),
    Character(character::Character),
    ReoLod(model::ReoLod),
    Sound(sound::SoundRecord),
    SequenceInfo(sequence::SequenceInfo),
    Sequence(sequence::Sequence),
    AnimationInfo(animation::AnimationInfo),
    AnimationFrames(animation::Frames),
    AnimationLookup(animation::Lookup),
}

/// Decodes a record body by its type; `Ok(None)` for types no record module reads (strings, level
/// records past 0x0001, unknown types), which the container keeps raw. `base` is the body's file offset.
pub fn decode(record_type: u16, body: &[u8], base: u64) -> Result<Option<Decoded>> {
    use Decoded as D;
    Ok(Some(match record_type {
        0x0000 => D::LevelInfo(level::parse_info(body, base)?),
        0x0001 => D::LevelLayers(level::parse_layers(body, base)?),
        0x0030 => D::Palette(palette::parse(body, base)?),
        0x0040 => D::Texture(texture::parse(body, base)?),
        0x0100 => D::RflReference(class::parse_rfl_reference(body, base)?),
        t if is_group_definition(t) => D::Group(group::parse(body, base)?),
        0x0102 => D::Class(class::parse(body, base)?),
        0x0200 => D::ModelName(model::parse_name(body, base)?),
        0x0202 => D::ModelCounters(model::parse_counters(body, base)?),
        0x0203 => D::ModelVertices(model::parse_vertices(body, base)?),
        0x0204 => D::ModelPolygons(model::parse_polygons(body, base)?),
        0x0205 => D::ModelBsp(model::parse_bsp(body, base)?),
        0x0206 => D::ModelTextures(model::parse_textures(body, base)?),
        0x0207 => D::ModelBounds(model::parse_bounds(body, base)?),
        0x0208 => D::Character(character::parse(body, base)?),
        0x0209 => D::ReoLod(model::parse_reo_lod(body, base)?),
        0x0302 => D::Sound(sound::parse(body, base)?),
        0x0310 => D::SequenceInfo(sequence::parse_info(body, base)?),
        0x0311 => D::Sequence(sequence::parse(body, base)?),
        0x0501 => D::AnimationInfo(animation::parse_info(body, base)?),
        0x0502 => D::AnimationFrames(animation::parse_frames(body, base)?),
        0x0503 => D::AnimationLookup(animation::parse_lookup(body, base)?),
        _ => return Ok(None),
    }))
}

/// Writes an edited body: [`encode`], refused (with why) when one of its lists outgrew its count field.
pub fn encode_edited(decoded: &Decoded) -> std::result::Result<Vec<u8>, String> {
    common::counts_fit(|| encode(decoded))
}

/// Writes a decoded body back: `encode(decode(t, b)?) == b` for every body `decode` accepts.
pub fn encode(decoded: &Decoded) -> Vec<u8> {
    use Decoded as D;
    match decoded {
        D::LevelInfo(v) => level::write_info(v),
        D::LevelLayers(v) => level::write_layers(v),
        D::Palette(v) => palette::write(v),
        D::Texture(v) => texture::write(v),
        D::RflReference(v) => class::write_rfl_reference(v),
        D::Group(v) => group::write(v),
        D::Class(v) => class::write(v),
        D::ModelName(v) => model::write_name(v),
        D::ModelCounters(v) => model::write_counters(v),
        D::ModelVertices(v) => model::write_vertices(v),
        D::ModelPolygons(v) => model::write_polygons(v),
        D::ModelBsp(v) => model::write_bsp(v),
        D::ModelTextures(v) => model::write_textures(v),
        D::ModelBounds(v) => model::write_bounds(v),
        D::Character(v) => character::write(v),
        D::ReoLod(v) => model::write_reo_lod(v),
        D::Sound(v) => sound::write(v),
        D::SequenceInfo(v) => sequence::write_info(v),
        D::Sequence(v) => sequence::write(v),
        D::AnimationInfo(v) => animation::write_info(v),
        D::AnimationFrames(v) => animation::write_frames(v),
        D::AnimationLookup(v) => animation::write_lookup(v),
    }
}
