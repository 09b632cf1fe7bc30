//! The layouts of RCD game blocks, one table per (magic, version), driving both the reader and the writer
//! (`fields.rs`), so the two cannot drift apart. Sources: the FreeRCT RCD specification (the version 1 era),
//! CORRECTIONS.md (ANIM v1 frames are 12 bytes; PATH v1 has the width and height fields; version 2 layouts)
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
/// Version 2 surfaces add the top parts of the four steep slopes (CORRECTIONS.md).
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
