//! Group definitions (spec "Record ID and grouping"): class 0x0101, model 0x0201, sound 0x0301 and
//! sequence 0x0312 (docs/formats/drakan.md#group-records; the spec says 0x0313 once). The body is one string, the group's name;
//! the record id is the group's id.

use serde::{Deserialize, Serialize};

use super::common::{body_reader, hex_is_empty, rest, Name};
use crate::bytes::Hex;
use crate::error::Result;

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct GroupDefinition {
    pub name: Name,
    /// Bytes after the name (none in a well-formed body), kept for an exact write.
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

pub fn parse(body: &[u8], base: u64) -> Result<GroupDefinition> {
    let mut r = body_reader(body, base);
    let name = Name::read(&mut r, "group_name")?;
    Ok(GroupDefinition { name, trailing: rest(&mut r) })
}

pub fn write(group: &GroupDefinition) -> Vec<u8> {
    let mut out = Vec::new();
    group.name.write(&mut out);
    out.extend_from_slice(&group.trailing.0);
    out
}
