//! Ragnarok Online actions (`ro-act`): `.act`, magic `AC` and a version byte pair (minor, major), versions
//! 2.0 to 2.5. Actions (eight directions each: action `i` is group `i / 8` seen from direction `i % 8`)
//! hold motions (animation frames), motions hold layers (a sprite image placed, mirrored, scaled,
//! rotated and tinted), an event index and, 2.3+, anchor points; 2.1+ lists event names and 2.2+ one
//! delay per action. Which version adds which field: [`types`].
//!
//! Spec: RagnarokFileFormats' ACT.MD (rdw-archive) describes the meaning but gives no layout ("TODO: Add
//! file layouts for the different versions"); the layout follows roBrowser (`src/Loaders/Action.js`) and
//! zrenderer (`source/resource/act.d`), which agree for 2.0 to 2.5. Where sources differ or are silent:
//! - 1.x: roBrowser reads layers of position, index and mirror only and no event; zrenderer reads them as
//!   2.0. No 1.x file was at hand, so 1.x is refused, as is anything above 2.5.
//! - Bytes after the delays: zrenderer refuses them, roBrowser ignores them; relic keeps them
//!   (`trailing`) so the file writes back as it was.
//! - A missing delay (below 2.2): zrenderer's 4 ticks (100 ms), not roBrowser's 150 ms; a delay ≤ 0 or
//!   not finite also draws with 4 ticks (and says so).
//! - The mirror flag: roBrowser mirrors on any non-zero value, zrenderer on bit 0, RagLite (the
//!   RagnarokFileFormats author's later decoder) only on exactly 1; relic on non-zero (real files hold 0
//!   or 1).
//! - The tick: ACT.MD and roBrowser count 25 ms a delay unit; RagLite's decoder uses 24 ms
//!   (`UPDATE_INTERVAL_IN_MILLISECONDS`). relic writes 25 ms × delay, as ACT.MD says the client does.
//! - Checked against RagLite's fixtures `v0200` … `v0205.act` and their JSON snapshots (ranges, layers,
//!   the non-zero reserved header bytes of `v0205`, delays: the same values) and korangar's
//!   `data/sprite/npc/missing.act` (2.5, 8 actions, drawn with its `.spr`; the 2.5 width and height
//!   equal its image's size, 34 × 96).
//! - Layer width and height (2.5) are kept but not drawn with (neither loader uses them).
//! - Real files: the 1,183 ACTs of the public client repository aleDsz/ragnaMOBA-ClientSide (2.5, 2.4, 2.3
//!   and 2.1; 104 actions for player bodies, heads and garments, 40 for monsters, 8 for NPCs) and 94
//!   effect ACTs (2.0 to 2.5, 1 to 16 actions) and `cursors.act` (2.5, 14 actions: cursor kinds, not
//!   directions, though relic names them `<group>_<direction>`) of Spylher/MySpyGRF's history read,
//!   write back byte for byte and pack back from their JSON byte for byte. A male costume body
//!   (`몸통/남/옥토버패스트_남`) and its heads (`머리통/남/1_남`…) hold three idle motions each; the body's
//!   three share one layer and differ in their anchor, which turns with the head (see
//!   [`convert::motion_pairs`]).
//! - A head's frame in idle and sit (see [`convert::motion_pairs`]): roBrowser shows one head direction
//!   at a time (`entity.headDir`, body frame = direction), zrenderer draws all three in turn (body frame
//!   `i`, head frame `i / (body / 3)`); relic draws one, straight ahead by default (a standing player as
//!   the client shows one), or all three with `--option ro-act.head-direction=all`.
//!
//! Typed access:
//!
//! ```
//! use relic::ragnarok::act::{Act, Version};
//!
//! // Version 2.0, one action of one motion with no layers and no event.
//! let mut bytes = b"AC\x00\x02\x01\x00".to_vec();
//! bytes.extend([0; 10]); // reserved
//! bytes.extend(1u32.to_le_bytes()); // motions of action 0
//! bytes.extend([0; 32]); // the motion's two ranges
//! bytes.extend(0u32.to_le_bytes()); // layers
//! bytes.extend((-1i32).to_le_bytes()); // event: none
//! let act = Act::read(&bytes)?;
//! assert_eq!(act.version, Version::new(2, 0));
//! assert_eq!(act.actions[0].motions[0].event, -1);
//! assert_eq!(act.to_bytes()?, bytes);
//! # Ok::<(), relic::Error>(())
//! ```

pub mod convert;
pub mod read;
pub mod render;
mod settings;
pub mod types;
pub mod write;

pub use read::parse;
pub use settings::{HeadSettings, PickedPalettes, WithFiles};
pub use types::*;
pub use write::write;

use crate::asset::NamedAsset;
use crate::error::Result;
use crate::registry::{Capabilities, Codec, ConvertOptions, Format, Game, Kind};

pub const FORMAT_ID: &str = "ro-act";

impl Act {
    /// Parses an ACT file (see [`parse()`]).
    pub fn read(bytes: &[u8]) -> Result<Act> {
        parse(bytes)
    }

    /// The file's bytes (see [`write()`]).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }
}

pub static FORMAT: Format = Format {
    id: FORMAT_ID,
    name: "Ragnarok Online ACT actions",
    game: Game::Ragnarok,
    extensions: &["act"],
    kind: Kind::Image,
    capabilities: Capabilities { read: true, convert: true, write: true },
    notes: "Versions 2.0 to 2.5 (layout from roBrowser and zrenderer; 1.x refused). JSON keeps every field \
            and packs back byte for byte. With the .spr of the same name beside it (or in the same GRF), \
            each action is drawn as an animated PNG <group>_<direction>.png (action = group·8 + direction) \
            with its frames as PNGs, the frame time 25 ms × the action's delay (4 ticks when absent or not \
            positive); layers are centred on their offset, mirrored, scaled, rotated clockwise about their \
            centre, tinted and drawn in order, sampled nearest-neighbour. --with head.act draws a second \
            ACT (and its .spr) over it, offset by body anchor − head anchor, each in its own palette \
            (--palette the body's, --head-palette the head's; else each its own); in idle and sit (groups 0 and 2) \
            body and head frames come in three runs, one per head direction (0 straight, 1 and 2 turned): \
            one direction is drawn, straight ahead unless --option ro-act.head-direction=1|2 turns it, or \
            all three in turn (=all); other actions take the head frame of the body's index. Without a \
            .spr: JSON only.",
    codec: &ActCodec,
};

struct ActCodec;

impl Codec for ActCodec {
    fn options(&self) -> &'static [crate::registry::FormatOption] {
        &[crate::registry::FormatOption { key: convert::HEAD_DIRECTION_OPTION, values: &["0", "1", "2", "all"] }]
    }

    fn sniff(&self, head: &[u8]) -> bool {
        // "AC" alone is too common: the version must be one of 2.0..2.5 as well.
        matches!(head, [b'A', b'C', minor, 2, ..] if *minor <= 5)
    }

    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(&parse(data)?))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        crate::registry::tagged_document_json(FORMAT_ID, &parse(data)?)
    }

    fn write_json(&self, value: serde_json::Value) -> Result<Vec<u8>> {
        let act: Act = crate::registry::tagged_document_from_json(FORMAT_ID, value)?;
        write(&act)
    }

    fn convert(&self, data: &[u8], opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
        convert::convert(data, None, opts)
    }

    fn convert_at(&self, data: &[u8], path: &std::path::Path, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
        convert::convert(data, Some(path), opts)
    }
}
