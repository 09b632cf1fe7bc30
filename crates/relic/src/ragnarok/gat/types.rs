//! The data of a GAT file, in file order (RagnarokFileFormats GAT.MD): the magic `GRAT`, the version
//! (major byte, then minor byte), width and height in cells (`u32` each), then `width × height` cells of
//! 20 bytes, row by row from the south-west corner: four corner heights (`f32`) and the cell type (`u32`).
//! Bytes after the last cell (no real file seen has any) are kept in `trailing`.

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;
use crate::codec::float::F32;

pub const MAGIC: [u8; 4] = *b"GRAT";

/// Bytes before the first cell: magic, version, width, height.
pub const HEADER_LEN: usize = 14;

/// Bytes of one cell: four heights and the type.
pub const CELL_LEN: usize = 20;

/// The bit GAT 1.3 sets in the type of a cell under water (GAT.MD: "the high byte of the value is 0x80";
/// RagLite's `v0103.gat` fixture stores `01 00 00 80`, a blocked water cell). 1.2 files do not use it.
pub const WATER_FLAG: u32 = 0x8000_0000;

/// A version `major.minor`, stored as the bytes `major, minor` after the magic (`47 52 41 54 01 02` is 1.2;
/// docs/formats/ragnarok.md#version-bytes: GAT stores major then minor). JSON: `"1.2"`.
pub type Version = crate::ragnarok::version::Version<Gat>;

impl crate::ragnarok::version::Family for Gat {
    const AS_TEXT: bool = true;
    const EXAMPLE: &'static str = "1.2";
}

impl Version {
    /// 1.2 and 1.3, the versions of real files (GAT.MD, RagLite). Others are read with the same layout
    /// (no source knows another), and `info` says the version is unknown.
    pub fn is_known(self) -> bool {
        self == Version::new(1, 2) || self == Version::new(1, 3)
    }
}

/// One cell: the heights of its four corners as stored (GAT.MD's order and names: bottom left, bottom
/// right, top left, top right; "bottom" is south, toward row 0, "left" is west, toward column 0; RagLite and
/// korangar call them south-west, south-east, north-west, north-east) and its type.
///
/// Heights are in the client's Y-down frame: a smaller value is higher ground. A cell is 5 world units
/// wide (GAT.MD), so `height / 5` is in cell widths (roBrowser multiplies by 0.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cell {
    pub bottom_left: F32,
    pub bottom_right: F32,
    pub top_left: F32,
    pub top_right: F32,
    /// The cell type as stored, all 32 bits (see [`super::kind_name`]).
    #[serde(rename = "type")]
    pub kind: u32,
}

impl Cell {
    /// The four heights in file order.
    pub fn heights(&self) -> [F32; 4] {
        [self.bottom_left, self.bottom_right, self.top_left, self.top_right]
    }
}

/// A GAT file. Cell `(x, y)` is `cells[y * width + x]`; row 0 is the southern edge of the map, column 0 the
/// western (GAT.MD: "tiles are arranged from bottom-left to top-right").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gat {
    pub version: Version,
    pub width: u32,
    pub height: u32,
    pub cells: Vec<Cell>,
    /// Bytes after the last cell, kept so the file writes back as it was.
    #[serde(default, skip_serializing_if = "is_empty")]
    pub trailing: Base64,
}

fn is_empty(b: &Base64) -> bool {
    b.0.is_empty()
}

impl Gat {
    /// The cell at column `x` (from the west) and row `y` (from the south).
    pub fn cell(&self, x: u32, y: u32) -> Option<&Cell> {
        if x >= self.width || y >= self.height {
            return None;
        }
        self.cells.get(y as usize * self.width as usize + x as usize)
    }
}
