//! The data of an ACT file, in file order. Which version adds which field (RagnarokFileFormats' ACT.MD
//! gives no layout; these follow roBrowser's `Loaders/Action.js` and zrenderer's `resource/act.d`, which
//! agree for 2.0 to 2.5):
//!
//! | field | from |
//! | --- | --- |
//! | layer colour, scale, rotation, sprite kind; a motion's event | 2.0 |
//! | event names (40 bytes each) after the actions | 2.1 |
//! | one delay per action (`f32`, in 25 ms ticks) after the event names | 2.2 |
//! | anchors of a motion | 2.3 |
//! | a separate vertical scale (below it, one scale for both axes) | 2.4 |
//! | layer width and height | 2.5 |

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;
use crate::codec::float::F32;
pub use crate::ragnarok::rsm::Name;

pub const MAGIC: [u8; 2] = *b"AC";

/// Bytes of one event name.
pub const EVENT_NAME_LEN: usize = 40;

/// A version `major.minor`, stored as the bytes `minor, major` after the magic (`41 43 05 02` is 2.5).
/// JSON: `"2.5"`.
pub type Version = crate::ragnarok::version::Version<Act>;

impl crate::ragnarok::version::Family for Act {
    const AS_TEXT: bool = true;
    const EXAMPLE: &'static str = "2.5";
}

impl Version {
    /// 2.0 to 2.5: the versions whose layout the sources agree on. 1.x (no colour, scale or rotation in
    /// roBrowser, but read as 2.0 by zrenderer) and anything above 2.5 are refused.
    pub fn is_supported(self) -> bool {
        self.major == 2 && self.minor <= 5
    }
    pub fn has_events(self) -> bool {
        self.at_least(2, 1)
    }
    pub fn has_delays(self) -> bool {
        self.at_least(2, 2)
    }
    pub fn has_anchors(self) -> bool {
        self.at_least(2, 3)
    }
    pub fn has_scale_y(self) -> bool {
        self.at_least(2, 4)
    }
    pub fn has_size(self) -> bool {
        self.at_least(2, 5)
    }
}

/// A whole ACT file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Act {
    pub version: Version,
    /// The 10 bytes after the action count (zero in the files seen; kept).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reserved: [u8; 10],
    pub actions: Vec<Action>,
    /// Event names (sound files, or `atk` for the hit moment), 2.1+; a motion's `event` indexes them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<Name>,
    /// Bytes after the last field (none in the files seen; zrenderer refuses them, roBrowser ignores them).
    #[serde(default, skip_serializing_if = "is_empty")]
    pub trailing: Base64,
}

fn is_empty(b: &Base64) -> bool {
    b.0.is_empty()
}

fn is_zero(b: &[u8; 10]) -> bool {
    b.iter().all(|&x| x == 0)
}

/// An action: its motions (animation frames) and, 2.2+, its delay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// Time between motions in 25 ms ticks (2.2+; the client's default below is 4 ticks, 100 ms,
    /// in zrenderer; roBrowser uses 150 ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay: Option<F32>,
    pub motions: Vec<Motion>,
}

/// One frame of an action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Motion {
    /// Two rectangles of 4 × int32 before the layers ("attack range" and "fit range" in zrenderer; unused
    /// by every loader read).
    #[serde(default)]
    pub ranges: [[i32; 4]; 2],
    pub layers: Vec<Layer>,
    /// Index into [`Act::events`], −1 for none.
    pub event: i32,
    /// 2.3+: points other sprites attach to (a body's first anchor holds its head).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub anchors: Vec<Anchor>,
}

/// One sprite image placed in a motion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layer {
    /// Where the image's centre lies, relative to the origin (y down).
    pub x: i32,
    pub y: i32,
    /// Index into the sprite's frames of `kind`; −1 draws nothing.
    pub sprite: i32,
    /// Mirror flag (0 or 1 in real files; drawn mirrored when not 0, as roBrowser does — zrenderer tests
    /// bit 0).
    pub mirror: u32,
    /// Tint, multiplied into the image: red, green, blue, alpha.
    pub color: [u8; 4],
    pub scale_x: F32,
    /// 2.4+; below, the one scale of both axes is `scale_x`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_y: Option<F32>,
    /// Degrees, clockwise on screen, about the image's centre.
    pub rotation: i32,
    /// Which frames `sprite` indexes: 0 the sprite's palette frames, 1 its RGBA frames.
    pub kind: i32,
    /// 2.5+: width and height stored with the layer (the image's size in the files seen; no loader read
    /// draws with them, nor does relic).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<[i32; 2]>,
}

impl Layer {
    /// The vertical scale: `scale_y` from 2.4, else `scale_x`.
    pub fn scale_y(&self) -> f32 {
        self.scale_y.unwrap_or(self.scale_x).get()
    }
}

/// An anchor point of a motion (16 bytes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Anchor {
    /// 4 bytes before the point that no loader reads (ACT.MD: "seemingly random data").
    #[serde(default)]
    pub unknown: [u8; 4],
    pub x: i32,
    pub y: i32,
    pub attribute: i32,
}
