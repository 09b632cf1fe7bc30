//! SRSC record bodies (spec "Record types", corrected by CORRECTIONS.md "Riot Engine / Drakan"): one module
//! per asset kind, each with plain serde types and `parse(body, base)`, where `base` is the absolute file
//! offset of the body so errors name real file offsets.

pub mod strings;

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
/// group's id (spec "Record ID and grouping"; sequences' is 0x0312, CORRECTIONS.md).
pub fn is_group_definition(record_type: u16) -> bool {
    matches!(record_type, 0x0101 | 0x0201 | 0x0301 | 0x0312)
}
