//! The layouts of RCD game blocks, one table per (magic, version), driving both the reader and the writer
//! (`fields.rs`), so the two cannot drift apart. Sources: the FreeRCT RCD specification (the version 1 era),
//! docs/formats/freerct.md (ANIM v1 frames are 12 bytes; PATH v1 has the width and height fields; version 2 layouts)
//! and FreeRCT's `data_format.rst` for the version 2 blocks. Names follow the spec's descriptions.

/// What one field of a block holds.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    U8,
    U16,
    I16,
    U32,
    I32,
    /// A number with named values (`Names`); unknown values stay numbers.
    Enum8(Names),
    Enum16(Names),
    /// A u32 reference to a sprite: a SPRT block in version 1 files, an 8PXL or 32PX block in version 2.
    Sprite,
    /// A u32 reference to a block of the given magic (SPRT's 8PXL, SHOP's TEXT and FSET).
    Ref(&'static str),
    /// A u32 recolouring: bits 24–31 the source colour range, bits 0–17 the allowed destinations.
    Recolour,
    /// Bytes kept as they are (SPRT v1's palette).
    Bytes(usize),
    /// A NUL-terminated string.
    CStr,
    /// Consecutive sprite references, one per name: a JSON object (a row of the block's sheet).
    Sprites(&'static [&'static str]),
    /// Groups of consecutive sprite references: an object of `Sprites` objects (rows of the sheet).
    Views(&'static [&'static str], &'static [&'static str]),
    /// A u16 count, then that many records of the given fields (ANIM frames).
    Records(&'static [Field]),
    /// A u16 count, then that many sprite references (ANSP).
    SpriteList,
    /// FSET v2: zoom count, tiles in x and y, a width per zoom, then four views of x · y · zoom sprites.
    FrameSet,
    I8,
    /// A u16 count, then that many u32 references to blocks of the given magic (RCST's TRCK pieces).
    RefList(&'static str),
    /// A u8 count, then that many records (PRSG's person graphics).
    Records8(&'static [Field]),
    /// A u32 count, then that many records (MENU's cameras, MISN's scenarios).
    Records32(&'static [Field]),
    /// A u32 length, then that many bytes (base64 in the JSON: saved games inside MENU and MISN).
    Blob32,
    /// Every byte to the end of the block (base64; FTKW's ride design, a saved-game stream).
    Rest,
    /// A TRCK car curve: u8 type, then nothing (0, `null`), an i16 (1, `{"constant": v}`) or a u8 count of
    /// 16-byte cubic Bézier parts (2, `{"bezier": [{start, last, a, b, c, d}]}`).
    Curve,
    /// CARS v4: u8 zoom count, a u16 tile width per zoom, u32 car length, u32 inter-car length, u16
    /// passengers, u16 entrances, then 4096 car sprites per zoom (index pitch | roll << 4 | yaw << 8) and
    /// 4096 · passengers guest overlays per zoom. Sprites are sparse in the JSON: 0 (none) is left out.
    CarSprites,
    /// FGTR/SCNY: u8 tiles in x and y, then a u8 height per tile (x outermost).
    Heights,
    /// TIMA: u32 frame count, a u32 duration per frame, then an FSET reference per frame.
    Timed,
}

/// Named values of an enumeration.
pub type Names = &'static [(u32, &'static str)];

#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub name: &'static str,
    pub kind: Kind,
}

const fn f(name: &'static str, kind: Kind) -> Field {
    Field { name, kind }
}

/// A block layout: the fields of one (magic, versions) in file order.
#[derive(Debug)]
pub struct Layout {
    pub magic: &'static str,
    pub versions: std::ops::RangeInclusive<u32>,
    pub fields: &'static [Field],
}

pub const GROUND_TYPES: Names = &[
    (0, "empty"),
    (16, "grass0"),
    (17, "grass1"),
    (18, "grass2"),
    (19, "grass3"),
    (20, "semi-transparent-grass"),
    (32, "sand"),
    (48, "cursor"),
    (49, "cursor-edge"),
];
pub const FOUNDATION_TYPES: Names = &[(0, "empty"), (16, "ground"), (32, "wood"), (48, "brick")];
pub const PATH_TYPES: Names = &[
    (0, "empty"),
    (4, "wood"),
    (8, "tiled"),
    (12, "asphalt"),
    (16, "concrete"),
    (0x8004, "queue-wood"),
    (0x8008, "queue-tiled"),
    (0x800C, "queue-asphalt"),
    (0x8010, "queue-concrete"),
];
pub const PLATFORM_TYPES: Names = &[(0, "empty"), (16, "wood")];
/// Widget types of the version 1 GUI blocks (spec "GUI").
pub const WIDGET_TYPES_V1: Names = &[
    (0, "invalid"),
    (16, "window-border"),
    (32, "title-bar"),
    (48, "button"),
    (49, "pressed-button"),
    (52, "rounded-button"),
    (53, "pressed-rounded-button"),
    (64, "frame"),
    (68, "panel"),
    (80, "inset-frame"),
    (96, "check-box"),
    (112, "radio-button"),
    (128, "horizontal-slider"),
    (129, "shaded-horizontal-slider"),
    (144, "vertical-slider"),
    (145, "shaded-vertical-slider"),
    (160, "horizontal-scrollbar"),
    (161, "shaded-horizontal-scrollbar"),
    (176, "vertical-scrollbar"),
    (177, "shaded-vertical-scrollbar"),
];
/// GBOR version 2 renumbered its widget types (`data_format.rst`).
pub const BORDER_TYPES_V2: Names = &[
    (0, "invalid"),
    (1, "tab-bar-left"),
    (2, "selected-tab"),
    (3, "unselected-tab"),
    (4, "tab-bar-right"),
    (5, "tab-panel"),
    (6, "title-bar"),
    (7, "button"),
    (8, "pressed-button"),
    (9, "panel"),
];
pub const PERSON_TYPES_V1: Names = &[(0, "any"), (8, "pillar"), (16, "earth")];
pub const PERSON_TYPES_V2: Names =
    &[(0, "any"), (8, "guest"), (17, "handyman"), (18, "mechanic"), (19, "guard"), (20, "entertainer")];
pub const ANIMATION_TYPES: Names = &[
    (1, "walk-ne"),
    (2, "walk-se"),
    (3, "walk-sw"),
    (4, "walk-nw"),
    (5, "mechanic-repair-ne"),
    (6, "mechanic-repair-se"),
    (7, "mechanic-repair-sw"),
    (8, "mechanic-repair-nw"),
    (9, "handyman-water-ne"),
    (10, "handyman-water-se"),
    (11, "handyman-water-sw"),
    (12, "handyman-water-nw"),
    (13, "handyman-sweep-ne"),
    (14, "handyman-sweep-se"),
    (15, "handyman-sweep-sw"),
    (16, "handyman-sweep-nw"),
    (17, "handyman-empty-ne"),
    (18, "handyman-empty-se"),
    (19, "handyman-empty-sw"),
    (20, "handyman-empty-nw"),
    (21, "guest-bench-ne"),
    (22, "guest-bench-se"),
    (23, "guest-bench-sw"),
    (24, "guest-bench-nw"),
];
pub const ITEM_TYPES: Names = &[
    (0, "nothing"),
    (8, "drink"),
    (9, "ice-cream"),
    (16, "non-salty-food"),
    (24, "salty-food"),
    (32, "umbrella"),
    (33, "balloon"),
    (40, "park-map"),
    (41, "souvenir"),
    (48, "money"),
    (49, "toilet"),
    (50, "first-aid"),
];
/// FreeRCT's 18 colour ranges (`palette.h`), for recolourings.
pub const COLOUR_RANGES: [&str; 18] = [
    "grey",
    "green-brown",
    "orange-brown",
    "yellow",
    "dark-red",
    "dark-green",
    "light-green",
    "green",
    "pink-brown",
    "dark-purple",
    "blue",
    "dark-jade-green",
    "purple",
    "red",
    "orange",
    "sea-green",
    "pink",
    "brown",
];

/// The tile surface sub-block (spec "Tile surface sprite sub-block"): 19 slopes looking north.
pub const SLOPES_19: &[&str] = &[
    "flat", "n", "e", "ne", "s", "ns", "es", "nes", "w", "wn", "we", "wne", "ws", "wns", "wes", "steep_n", "steep_e",
    "steep_s", "steep_w",
];
/// Version 2 surfaces add the top parts of the four steep slopes (docs/formats/freerct.md#v2-blocks).
pub const SLOPES_23: &[&str] = &[
    "flat",
    "n",
    "e",
    "ne",
    "s",
    "ns",
    "es",
    "nes",
    "w",
    "wn",
    "we",
    "wne",
    "ws",
    "wns",
    "wes",
    "steep_n",
    "steep_e",
    "steep_s",
    "steep_w",
    "steep_n_top",
    "steep_e_top",
    "steep_s_top",
    "steep_w_top",
];
const DIRECTIONS: &[&str] = &["north", "east", "south", "west"];
const EDGES: &[&str] = &["ne", "se", "sw", "nw"];
const FOUNDATION_SPRITES: &[&str] = &["se_e_up", "se_s_up", "se_both", "sw_s_up", "sw_w_up", "sw_both"];
/// The 51 path sprites in spec order (two letters: an edge connects; one letter: a corner is covered).
const PATH_SPRITES: &[&str] = &[
    "empty",
    "ne",
    "se",
    "ne_se",
    "ne_se_e",
    "sw",
    "ne_sw",
    "se_sw",
    "se_sw_s",
    "ne_se_sw",
    "ne_se_sw_e",
    "ne_se_sw_s",
    "ne_se_sw_e_s",
    "nw",
    "ne_nw",
    "ne_nw_n",
    "nw_se",
    "ne_nw_se",
    "ne_nw_se_n",
    "ne_nw_se_e",
    "ne_nw_se_n_e",
    "nw_sw",
    "nw_sw_w",
    "ne_nw_sw",
    "ne_nw_sw_n",
    "ne_nw_sw_w",
    "ne_nw_sw_n_w",
    "nw_se_sw",
    "nw_se_sw_s",
    "nw_se_sw_w",
    "nw_se_sw_s_w",
    "ne_nw_se_sw",
    "ne_nw_se_sw_n",
    "ne_nw_se_sw_e",
    "ne_nw_se_sw_n_e",
    "ne_nw_se_sw_s",
    "ne_nw_se_sw_n_s",
    "ne_nw_se_sw_e_s",
    "ne_nw_se_sw_n_e_s",
    "ne_nw_se_sw_w",
    "ne_nw_se_sw_n_w",
    "ne_nw_se_sw_e_w",
    "ne_nw_se_sw_n_e_w",
    "ne_nw_se_sw_s_w",
    "ne_nw_se_sw_n_s_w",
    "ne_nw_se_sw_e_s_w",
    "ne_nw_se_sw_n_e_s_w",
    "ne_up",
    "nw_up",
    "se_up",
    "sw_up",
];
const PLATFORM_SPRITES_6: &[&str] = &["flat_ns", "flat_ew", "ne_up", "se_up", "sw_up", "nw_up"];
const PLATFORM_SPRITES_14: &[&str] = &[
    "flat_ns",
    "flat_ew",
    "ne_up",
    "se_up",
    "sw_up",
    "nw_up",
    "right_ne_up",
    "right_se_up",
    "right_sw_up",
    "right_nw_up",
    "left_ne_up",
    "left_se_up",
    "left_sw_up",
    "left_nw_up",
];
/// The nine border sprites, in the spec's 3 × 3 order.
const BORDER_SPRITES: &[&str] =
    &["top_left", "top_middle", "top_right", "left", "middle", "right", "bottom_left", "bottom_middle", "bottom_right"];
const CHECK_SPRITES: &[&str] = &["empty", "filled", "empty_pressed", "filled_pressed", "shaded_empty", "shaded_filled"];
const SLIDER_SPRITES: &[&str] = &["left", "middle", "right", "slider"];
const SCROLL_SPRITES: &[&str] = &[
    "left_button",
    "right_button",
    "left_pressed",
    "right_pressed",
    "left_bottom",
    "middle_bottom",
    "right_bottom",
    "left_top",
    "middle_top",
    "right_top",
    "left_top_pressed",
    "middle_top_pressed",
    "right_top_pressed",
];
/// A TRCK voxel: its background and foreground frame sets and its place relative to the piece.
const TRACK_VOXEL: &[Field] = &[
    f("background", Kind::Ref("FSET")),
    f("foreground", Kind::Ref("FSET")),
    f("dx", Kind::I8),
    f("dy", Kind::I8),
    f("dz", Kind::I8),
    f("flags", Kind::U8),
];
const PERSON_GRAPHICS: &[Field] = &[
    f("person_type", Kind::Enum8(PERSON_TYPES_V2)),
    f("recolour_1", Kind::Recolour),
    f("recolour_2", Kind::Recolour),
    f("recolour_3", Kind::Recolour),
];
const MENU_CAMERA: &[Field] =
    &[f("x", Kind::I32), f("y", Kind::I32), f("z", Kind::I32), f("orientation", Kind::U8), f("duration", Kind::U32)];
const MISSION_SCENARIO: &[Field] =
    &[f("internal_name", Kind::CStr), f("text", Kind::Ref("TEXT")), f("savegame", Kind::Blob32)];
const FENCE_SPRITES: &[&str] =
    &["ne_hor", "ne_n", "ne_e", "se_hor", "se_e", "se_s", "sw_hor", "sw_s", "sw_w", "nw_hor", "nw_w", "nw_n"];
/// PDEC: seven groups of a sprite per tile edge, then litter and vomit (flat and four ramps) of four types.
const DECORATIONS: &[&str] =
    &["litter_bin", "overflow_bin", "demolished_bin", "lamp_post", "demolished_lamp_post", "bench", "demolished_bench"];
const LITTER: &[&str] = &[
    "litter_flat",
    "litter_ne",
    "litter_se",
    "litter_sw",
    "litter_nw",
    "vomit_flat",
    "vomit_ne",
    "vomit_se",
    "vomit_sw",
    "vomit_nw",
];
const LITTER_TYPES: &[&str] = &["type0", "type1", "type2", "type3"];
/// SUPP: the generator's names (`s_ns`, …, `n#nesw`…), `#` written `_`, and its upper-case steep
/// slopes (`n#N`…) written `steep_n`…
const SUPPORT_SPRITES: &[&str] = &[
    "s_ns",
    "s_ew",
    "d_ns",
    "d_ew",
    "p_ns",
    "p_ew",
    "n_n",
    "n_e",
    "n_ne",
    "n_s",
    "n_ns",
    "n_es",
    "n_nes",
    "n_w",
    "n_nw",
    "n_ew",
    "n_new",
    "n_sw",
    "n_nsw",
    "n_esw",
    "n_steep_n",
    "n_steep_e",
    "n_steep_s",
    "n_steep_w",
];
/// GSLP v14 in the generator's write order (`GSLPBlock::Write`).
const GSLP_SPRITES: &[&str] = &[
    "vert_down",
    "steep_down",
    "gentle_down",
    "level",
    "gentle_up",
    "steep_up",
    "vert_up",
    "wide_left",
    "normal_left",
    "tight_left",
    "no_bend",
    "tight_right",
    "normal_right",
    "wide_right",
    "no_banking",
    "bank_left",
    "bank_right",
    "triangle_right",
    "triangle_left",
    "triangle_up",
    "triangle_bottom",
    "has_platform",
    "no_platform",
    "has_power",
    "no_power",
    "disabled",
    "compass_n",
    "compass_e",
    "compass_s",
    "compass_w",
    "bulldozer",
    "sunny",
    "light_cloud",
    "thick_cloud",
    "rain",
    "thunder",
    "light_rog_red",
    "light_rog_orange",
    "light_rog_green",
    "light_rog_none",
    "light_rg_red",
    "light_rg_green",
    "light_rg_none",
    "pos_2d",
    "neg_2d",
    "pos_3d",
    "neg_3d",
    "close_button",
    "terraform_dot",
    "message_goto",
    "message_park",
    "message_guest",
    "message_ride",
    "message_ride_type",
    "loadsave_err",
    "loadsave_warn",
    "loadsave_ok",
    "toolbar_main",
    "toolbar_speed",
    "toolbar_path",
    "toolbar_ride",
    "toolbar_fence",
    "toolbar_scenery",
    "toolbar_terrain",
    "toolbar_staff",
    "toolbar_inbox",
    "toolbar_finances",
    "toolbar_objects",
    "toolbar_view",
    "toolbar_park",
    "speed_0",
    "speed_1",
    "speed_2",
    "speed_4",
    "speed_8",
];
const MENU_SPRITES: &[&str] = &["logo", "splash", "new_game", "load_game", "launch_editor", "settings", "quit"];

const ANIM_V1_FRAME: &[Field] = &[
    f("sprite", Kind::Sprite),
    f("duration_ms", Kind::U16),
    f("dx", Kind::I16),
    f("dy", Kind::I16),
    f("frame_number", Kind::U16),
];
const ANIM_V2_FRAME: &[Field] = &[f("duration_ms", Kind::U16), f("dx", Kind::I16), f("dy", Kind::I16)];

const fn zoom_height() -> [Field; 2] {
    [f("tile_width", Kind::U16), f("z_height", Kind::U16)]
}
const ZH: [Field; 2] = zoom_height();

/// Every game block relic reads field by field. A (magic, version) not listed is kept as raw bytes.
pub static LAYOUTS: &[Layout] = &[
    Layout {
        magic: "SPRT",
        versions: 1..=1,
        fields: &[
            f("x_offset", Kind::I16),
            f("y_offset", Kind::I16),
            f("pixels", Kind::Ref("8PXL")),
            f("palette", Kind::Bytes(768)),
        ],
    },
    Layout {
        magic: "SPRT",
        versions: 2..=2,
        fields: &[f("x_offset", Kind::I16), f("y_offset", Kind::I16), f("pixels", Kind::Ref("8PXL"))],
    },
    Layout { magic: "SURF", versions: 1..=1, fields: &[ZH[0], ZH[1], f("views", Kind::Views(DIRECTIONS, SLOPES_19))] },
    Layout {
        magic: "SURF",
        versions: 2..=2,
        fields: &[
            f("ground_type", Kind::Enum16(GROUND_TYPES)),
            ZH[0],
            ZH[1],
            f("views", Kind::Views(DIRECTIONS, SLOPES_19)),
        ],
    },
    Layout {
        magic: "SURF",
        versions: 3..=3,
        fields: &[f("ground_type", Kind::Enum16(GROUND_TYPES)), ZH[0], ZH[1], f("north", Kind::Sprites(SLOPES_19))],
    },
    Layout {
        magic: "SURF",
        versions: 4..=6,
        fields: &[f("ground_type", Kind::Enum16(GROUND_TYPES)), ZH[0], ZH[1], f("north", Kind::Sprites(SLOPES_23))],
    },
    Layout { magic: "TSEL", versions: 1..=1, fields: &[ZH[0], ZH[1], f("surface", Kind::Sprites(SLOPES_19))] },
    Layout { magic: "TSEL", versions: 2..=2, fields: &[ZH[0], ZH[1], f("surface", Kind::Sprites(SLOPES_23))] },
    Layout { magic: "TARE", versions: 1..=1, fields: &[ZH[0], ZH[1], f("surface", Kind::Sprites(SLOPES_19))] },
    Layout { magic: "TARE", versions: 2..=2, fields: &[ZH[0], ZH[1], f("surface", Kind::Sprites(SLOPES_23))] },
    Layout { magic: "PARE", versions: 1..=1, fields: &[ZH[0], ZH[1], f("surface", Kind::Sprites(SLOPES_19))] },
    Layout { magic: "PARE", versions: 2..=2, fields: &[ZH[0], ZH[1], f("surface", Kind::Sprites(SLOPES_23))] },
    Layout {
        magic: "TCOR",
        versions: 1..=1,
        fields: &[ZH[0], ZH[1], f("corners", Kind::Views(DIRECTIONS, SLOPES_19))],
    },
    Layout {
        magic: "TCOR",
        versions: 2..=2,
        fields: &[ZH[0], ZH[1], f("corners", Kind::Views(DIRECTIONS, SLOPES_23))],
    },
    Layout {
        magic: "SHOP",
        versions: 1..=1,
        fields: &[f("tile_width", Kind::U16), f("height", Kind::U16), f("views", Kind::Sprites(EDGES))],
    },
    Layout {
        magic: "SHOP",
        versions: 8..=8,
        fields: &[
            f("height", Kind::U8),
            f("entrance_flags", Kind::U8),
            f("frame_set", Kind::Ref("FSET")),
            f("recolour_1", Kind::Recolour),
            f("recolour_2", Kind::Recolour),
            f("recolour_3", Kind::Recolour),
            f("item_cost_1", Kind::I32),
            f("item_cost_2", Kind::I32),
            f("monthly_cost", Kind::I32),
            f("monthly_open_cost", Kind::I32),
            f("item_type_1", Kind::Enum8(ITEM_TYPES)),
            f("item_type_2", Kind::Enum8(ITEM_TYPES)),
            f("text", Kind::Ref("TEXT")),
            f("internal_name", Kind::CStr),
            f("build_cost", Kind::U32),
        ],
    },
    Layout { magic: "BDIR", versions: 1..=1, fields: &[f("tile_width", Kind::U16), f("arrows", Kind::Sprites(EDGES))] },
    Layout {
        magic: "FUND",
        versions: 1..=1,
        fields: &[
            f("foundation_type", Kind::Enum16(FOUNDATION_TYPES)),
            ZH[0],
            ZH[1],
            f("sprites", Kind::Sprites(FOUNDATION_SPRITES)),
        ],
    },
    Layout {
        magic: "PATH",
        versions: 1..=3,
        fields: &[f("path_type", Kind::Enum16(PATH_TYPES)), ZH[0], ZH[1], f("sprites", Kind::Sprites(PATH_SPRITES))],
    },
    Layout {
        magic: "PLAT",
        versions: 1..=1,
        fields: &[
            ZH[0],
            ZH[1],
            f("platform_type", Kind::Enum16(PLATFORM_TYPES)),
            f("sprites", Kind::Sprites(PLATFORM_SPRITES_6)),
        ],
    },
    Layout {
        magic: "PLAT",
        versions: 2..=2,
        fields: &[
            ZH[0],
            ZH[1],
            f("platform_type", Kind::Enum16(PLATFORM_TYPES)),
            f("sprites", Kind::Sprites(PLATFORM_SPRITES_14)),
        ],
    },
    Layout { magic: "GBOR", versions: 1..=1, fields: &border_fields(WIDGET_TYPES_V1) },
    Layout { magic: "GBOR", versions: 2..=2, fields: &border_fields(BORDER_TYPES_V2) },
    Layout {
        magic: "GCHK",
        versions: 1..=1,
        fields: &[f("widget_type", Kind::Enum16(WIDGET_TYPES_V1)), f("sprites", Kind::Sprites(CHECK_SPRITES))],
    },
    Layout {
        magic: "GSLI",
        versions: 1..=1,
        fields: &[
            f("min_length", Kind::U8),
            f("step_size", Kind::U8),
            f("slider_width", Kind::U8),
            f("widget_type", Kind::Enum16(WIDGET_TYPES_V1)),
            f("sprites", Kind::Sprites(SLIDER_SPRITES)),
        ],
    },
    Layout {
        magic: "GSCL",
        versions: 1..=1,
        fields: &[
            f("min_length", Kind::U8),
            f("step_back", Kind::U8),
            f("min_bar_length", Kind::U8),
            f("bar_step", Kind::U8),
            f("widget_type", Kind::Enum16(WIDGET_TYPES_V1)),
            f("sprites", Kind::Sprites(SCROLL_SPRITES)),
        ],
    },
    Layout {
        magic: "ANIM",
        versions: 1..=1,
        fields: &[
            f("tile_width", Kind::U16),
            f("person_type", Kind::Enum8(PERSON_TYPES_V1)),
            f("animation_type", Kind::Enum16(ANIMATION_TYPES)),
            f("frames", Kind::Records(ANIM_V1_FRAME)),
        ],
    },
    Layout {
        magic: "ANIM",
        versions: 2..=4,
        fields: &[
            f("person_type", Kind::Enum8(PERSON_TYPES_V2)),
            f("animation_type", Kind::Enum16(ANIMATION_TYPES)),
            f("frames", Kind::Records(ANIM_V2_FRAME)),
        ],
    },
    Layout {
        magic: "ANSP",
        versions: 1..=3,
        fields: &[
            f("tile_width", Kind::U16),
            f("person_type", Kind::Enum8(PERSON_TYPES_V2)),
            f("animation_type", Kind::Enum16(ANIMATION_TYPES)),
            f("sprites", Kind::SpriteList),
        ],
    },
    Layout { magic: "FSET", versions: 2..=2, fields: &[f("frame_set", Kind::FrameSet)] },
    // Today's game blocks (version 2 files). Layouts from FreeRCT's loader (`sprite_store.cpp`, `coaster.cpp`,
    // `track_piece.cpp`, …) and its generator's writers (`rcdgen/nodes.cpp`); names from the generator's
    // input names (`rcdgen/check_data.cpp`) where it has them.
    Layout {
        magic: "TRCK",
        versions: 7..=7,
        fields: &[
            f("entry_connection", Kind::U8),
            f("exit_connection", Kind::U8),
            f("exit_dx", Kind::I8),
            f("exit_dy", Kind::I8),
            f("exit_dz", Kind::I8),
            f("speed", Kind::I8),
            f("track_flags", Kind::U16),
            f("cost", Kind::U32),
            f("voxels", Kind::Records(TRACK_VOXEL)),
            f("piece_length", Kind::U32),
            f("car_x", Kind::Curve),
            f("car_y", Kind::Curve),
            f("car_z", Kind::Curve),
            f("car_pitch", Kind::Curve),
            f("car_roll", Kind::Curve),
            f("car_yaw", Kind::Curve),
            f("internal_name", Kind::CStr),
        ],
    },
    Layout {
        magic: "RCST",
        versions: 7..=7,
        fields: &[
            f("coaster_type", Kind::U16),
            f("platform_type", Kind::U8),
            f("max_trains", Kind::U8),
            f("max_cars", Kind::U8),
            f("reliability_max", Kind::U16),
            f("reliability_decrease_daily", Kind::U16),
            f("reliability_decrease_monthly", Kind::U16),
            f("text", Kind::Ref("TEXT")),
            f("pieces", Kind::RefList("TRCK")),
            f("internal_name", Kind::CStr),
        ],
    },
    Layout {
        magic: "CSPL",
        versions: 3..=3,
        fields: &[f("platform_type", Kind::U8), f("background", Kind::Ref("FSET")), f("foreground", Kind::Ref("FSET"))],
    },
    Layout {
        magic: "CARS",
        versions: 4..=4,
        fields: &[
            f("cars", Kind::CarSprites),
            f("recolour_1", Kind::Recolour),
            f("recolour_2", Kind::Recolour),
            f("recolour_3", Kind::Recolour),
        ],
    },
    Layout { magic: "FTKW", versions: 1..=1, fields: &[f("design", Kind::Rest)] },
    Layout {
        magic: "RIEE",
        versions: 3..=3,
        fields: &[
            f("is_entrance", Kind::U8),
            f("text", Kind::Ref("TEXT")),
            f("background", Kind::Ref("FSET")),
            f("foreground", Kind::Ref("FSET")),
            f("recolour_1", Kind::Recolour),
            f("recolour_2", Kind::Recolour),
            f("recolour_3", Kind::Recolour),
            f("internal_name", Kind::CStr),
        ],
    },
    Layout {
        magic: "FGTR",
        versions: 6..=6,
        fields: &[
            f("is_thrill_ride", Kind::U8),
            f("heights", Kind::Heights),
            f("idle_animation", Kind::Ref("TIMA")),
            f("starting_animation", Kind::Ref("TIMA")),
            f("working_animation", Kind::Ref("TIMA")),
            f("stopping_animation", Kind::Ref("TIMA")),
            f("previews", Kind::Sprites(EDGES)),
            f("recolour_1", Kind::Recolour),
            f("recolour_2", Kind::Recolour),
            f("recolour_3", Kind::Recolour),
            f("entrance_fee", Kind::U32),
            f("ownership_cost", Kind::U32),
            f("opened_cost", Kind::U32),
            f("number_of_batches", Kind::U32),
            f("guests_per_batch", Kind::U32),
            f("idle_duration", Kind::U32),
            f("working_duration", Kind::U32),
            f("working_cycles_min", Kind::U16),
            f("working_cycles_max", Kind::U16),
            f("working_cycles_default", Kind::U16),
            f("reliability_max", Kind::U16),
            f("reliability_decrease_daily", Kind::U16),
            f("reliability_decrease_monthly", Kind::U16),
            f("intensity_base", Kind::U32),
            f("nausea_base", Kind::U32),
            f("excitement_base", Kind::U32),
            f("excitement_increase_cycle", Kind::U32),
            f("excitement_increase_scenery", Kind::U32),
            f("text", Kind::Ref("TEXT")),
            f("internal_name", Kind::CStr),
            f("build_cost", Kind::U32),
        ],
    },
    Layout { magic: "TIMA", versions: 1..=1, fields: &[f("frames", Kind::Timed)] },
    Layout {
        magic: "SCNY",
        versions: 3..=3,
        fields: &[
            f("heights", Kind::Heights),
            f("watering_interval", Kind::U32),
            f("min_watering_interval", Kind::U32),
            f("main_animation", Kind::Ref("TIMA")),
            f("dry_animation", Kind::Ref("TIMA")),
            f("previews", Kind::Sprites(EDGES)),
            f("buy_cost", Kind::I32),
            f("return_cost", Kind::I32),
            f("return_cost_dry", Kind::I32),
            f("symmetric", Kind::U8),
            f("category", Kind::U8),
            f("text", Kind::Ref("TEXT")),
            f("internal_name", Kind::CStr),
        ],
    },
    Layout { magic: "PRSG", versions: 2..=2, fields: &[f("person_graphics", Kind::Records8(PERSON_GRAPHICS))] },
    Layout {
        magic: "FENC",
        versions: 2..=2,
        fields: &[f("tile_width", Kind::U16), f("fence_type", Kind::U16), f("sprites", Kind::Sprites(FENCE_SPRITES))],
    },
    Layout {
        magic: "PDEC",
        versions: 1..=1,
        fields: &[
            f("tile_width", Kind::U16),
            f("edges", Kind::Views(DECORATIONS, EDGES)),
            f("litter", Kind::Views(LITTER, LITTER_TYPES)),
        ],
    },
    Layout {
        magic: "SUPP",
        versions: 1..=1,
        fields: &[
            f("support_type", Kind::U16),
            f("tile_width", Kind::U16),
            f("z_height", Kind::U16),
            f("sprites", Kind::Sprites(SUPPORT_SPRITES)),
        ],
    },
    Layout {
        magic: "GSLP",
        versions: 14..=14,
        fields: &[f("sprites", Kind::Sprites(GSLP_SPRITES)), f("text", Kind::Ref("TEXT"))],
    },
    Layout {
        magic: "MENU",
        versions: 3..=3,
        fields: &[
            f("splash_duration", Kind::U32),
            f("sprites", Kind::Sprites(MENU_SPRITES)),
            f("default_scenario", Kind::Blob32),
            f("main_menu_savegame", Kind::Blob32),
            f("cameras", Kind::Records32(MENU_CAMERA)),
        ],
    },
    Layout {
        magic: "MISN",
        versions: 1..=1,
        fields: &[
            f("internal_name", Kind::CStr),
            f("text", Kind::Ref("TEXT")),
            f("max_unlock", Kind::U32),
            f("scenarios", Kind::Records32(MISSION_SCENARIO)),
        ],
    },
];

const fn border_fields(types: Names) -> [Field; 10] {
    [
        f("widget_type", Kind::Enum16(types)),
        f("border_top", Kind::U8),
        f("border_left", Kind::U8),
        f("border_right", Kind::U8),
        f("border_bottom", Kind::U8),
        f("min_width", Kind::U8),
        f("min_height", Kind::U8),
        f("h_step", Kind::U8),
        f("v_step", Kind::U8),
        f("sprites", Kind::Sprites(BORDER_SPRITES)),
    ]
}

/// How many sprites a row of a block's sheet holds when a group is laid out as a grid rather than one
/// row: the nine GUI border sprites are the spec's 3 × 3 picture.
pub fn sheet_columns(magic: &[u8; 4]) -> Option<usize> {
    (magic == b"GBOR").then_some(3)
}

/// The layout of a (magic, version), if relic reads it field by field.
pub fn layout(magic: &[u8; 4], version: u32) -> Option<&'static Layout> {
    LAYOUTS.iter().find(|l| l.magic.as_bytes() == magic && l.versions.contains(&version))
}

/// The name of `value` in `names`, if it has one.
pub fn name_of(names: Names, value: u32) -> Option<&'static str> {
    names.iter().find(|(v, _)| *v == value).map(|(_, n)| *n)
}

/// The value named `name` in `names`.
pub fn value_of(names: Names, name: &str) -> Option<u32> {
    names.iter().find(|(_, n)| n.eq_ignore_ascii_case(name)).map(|(v, _)| *v)
}
