//! The spec's table of node types (section "MOB", "List of possible type_id"): each type id with the data
//! type of its payload and its field name, exactly as the spec lists them, sorted by id.

/// How a node's payload is laid out (spec "Full list of data types", with docs/formats/evil-islands.md#mob-payloads sizes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A container: a sequence of child nodes.
    Record,
    /// No payload.
    Null,
    /// u8.
    Byte,
    /// u32.
    Dword,
    /// f32.
    Float,
    /// cp1251 text, no terminator.
    String,
    /// u32 count, then that many (type, size, text) sub-nodes.
    StringArray,
    /// u32 key, then the level script enciphered with the game's XOR stream.
    StringEncrypted,
    /// 3 × f32.
    Plot,
    /// 4 × f32.
    Quaternion,
    /// 4 × u32.
    Rectangle,
    /// 3 × i32.
    LeverStats,
    /// The 172-byte creature parameters.
    UnitStats,
    /// 32 × 32 u32.
    Diplomacy,
    /// u32 n, then n × (x, y, r) f32.
    AreaArray,
    /// u32 n, then n × (x, y) f32.
    Plot2DArray,
    /// The walkability graph (layout not described; kept as bytes).
    AiGraph,
    /// Listed by the spec without a layout.
    Unknown,
}

/// `(type_id, kind, name)`, sorted by type id.
pub static NODE_TYPES: &[(u32, Kind, &str)] = &[
    (0x00000000, Kind::Record, "ROOT"),
    (0x00001E00, Kind::Record, "VSS_SECTION"),
    (0x00001E01, Kind::Record, "VSS_TRIGER"),
    (0x00001E02, Kind::Record, "VSS_CHECK"),
    (0x00001E03, Kind::Record, "VSS_PATH"),
    (0x00001E04, Kind::Dword, "VSS_ID"),
    (0x00001E05, Kind::Rectangle, "VSS_RECT"),
    (0x00001E06, Kind::Dword, "VSS_SRC_ID"),
    (0x00001E07, Kind::Dword, "VSS_DST_ID"),
    (0x00001E08, Kind::String, "VSS_TITLE"),
    (0x00001E09, Kind::String, "VSS_COMMANDS"),
    (0x00001E0A, Kind::Byte, "VSS_ISSTART"),
    (0x00001E0B, Kind::Record, "VSS_LINK"),
    (0x00001E0C, Kind::String, "VSS_GROUP"),
    (0x00001E0D, Kind::Byte, "VSS_IS_USE_GROUP"),
    (0x00001E0E, Kind::Record, "VSS_VARIABLE"),
    (0x00001E0F, Kind::StringArray, "VSS_BS_CHECK"),
    (0x00001E10, Kind::StringArray, "VSS_BS_COMMANDS"),
    (0x00001E11, Kind::String, "VSS_CUSTOM_SRIPT"),
    (0x0000A000, Kind::Record, "OBJECTDBFILE"),
    (0x0000AA00, Kind::Null, "LIGHT_SECTION"),
    (0x0000AA01, Kind::Record, "LIGHT"),
    (0x0000AA02, Kind::Float, "LIGHT_RANGE"),
    (0x0000AA03, Kind::String, "LIGHT_NAME"),
    (0x0000AA04, Kind::Plot, "LIGHT_POSITION"),
    (0x0000AA05, Kind::Dword, "LIGHT_ID"),
    (0x0000AA06, Kind::Byte, "LIGHT_SHADOW"),
    (0x0000AA07, Kind::Plot, "LIGHT_COLOR"),
    (0x0000AA08, Kind::String, "LIGHT_COMMENTS"),
    (0x0000ABD0, Kind::Record, "WORLD_SET"),
    (0x0000ABD1, Kind::Plot, "WS_WIND_DIR"),
    (0x0000ABD2, Kind::Float, "WS_WIND_STR"),
    (0x0000ABD3, Kind::Float, "WS_TIME"),
    (0x0000ABD4, Kind::Float, "WS_AMBIENT"),
    (0x0000ABD5, Kind::Float, "WS_SUN_LIGHT"),
    (0x0000B000, Kind::Record, "OBJECTSECTION"),
    (0x0000B001, Kind::Record, "OBJECT"),
    (0x0000B002, Kind::Dword, "NID"),
    (0x0000B003, Kind::Dword, "OBJTYPE"),
    (0x0000B004, Kind::String, "OBJNAME"),
    (0x0000B005, Kind::Null, "OBJINDEX"),
    (0x0000B006, Kind::String, "OBJTEMPLATE"),
    (0x0000B007, Kind::String, "OBJPRIMTXTR"),
    (0x0000B008, Kind::String, "OBJSECTXTR"),
    (0x0000B009, Kind::Plot, "OBJPOSITION"),
    (0x0000B00A, Kind::Quaternion, "OBJROTATION"),
    (0x0000B00B, Kind::Null, "OBJTEXTURE"),
    (0x0000B00C, Kind::Plot, "OBJCOMPLECTION"),
    (0x0000B00D, Kind::StringArray, "OBJBODYPARTS"),
    (0x0000B00E, Kind::String, "PARENTTEMPLATE"),
    (0x0000B00F, Kind::String, "OBJCOMMENTS"),
    (0x0000B010, Kind::Null, "OBJ_DEF_LOGIC"),
    (0x0000B011, Kind::Byte, "OBJ_PLAYER"),
    (0x0000B012, Kind::Dword, "OBJ_PARENT_ID"),
    (0x0000B013, Kind::Byte, "OBJ_USE_IN_SCRIPT"),
    (0x0000B014, Kind::Byte, "OBJ_IS_SHADOW"),
    (0x0000B015, Kind::Null, "OBJ_R"),
    (0x0000B016, Kind::String, "OBJ_QUEST_INFO"),
    (0x0000C000, Kind::Null, "SC_OBJECTDBFILE"),
    (0x0000CC00, Kind::Null, "SOUND_SECTION"),
    (0x0000CC01, Kind::Record, "SOUND"),
    (0x0000CC02, Kind::Dword, "SOUND_ID"),
    (0x0000CC03, Kind::Plot, "SOUND_POSITION"),
    (0x0000CC04, Kind::Dword, "SOUND_RANGE"),
    (0x0000CC05, Kind::String, "SOUND_NAME"),
    (0x0000CC06, Kind::Dword, "SOUND_MIN"),
    (0x0000CC07, Kind::Dword, "SOUND_MAX"),
    (0x0000CC08, Kind::String, "SOUND_COMMENTS"),
    (0x0000CC09, Kind::Null, "SOUND_VOLUME"),
    (0x0000CC0A, Kind::StringArray, "SOUND_RESNAME"),
    (0x0000CC0B, Kind::Dword, "SOUND_RANGE2"),
    (0x0000CC0D, Kind::Byte, "SOUND_AMBIENT"),
    (0x0000CC0E, Kind::Byte, "SOUND_IS_MUSIC"),
    (0x0000D000, Kind::Null, "PR_OBJECTDBFILE"),
    (0x0000DD00, Kind::Null, "PARTICL_SECTION"),
    (0x0000DD01, Kind::Record, "PARTICL"),
    (0x0000DD02, Kind::Dword, "PARTICL_ID"),
    (0x0000DD03, Kind::Plot, "PARTICL_POSITION"),
    (0x0000DD04, Kind::String, "PARTICL_COMMENTS"),
    (0x0000DD05, Kind::String, "PARTICL_NAME"),
    (0x0000DD06, Kind::Dword, "PARTICL_TYPE"),
    (0x0000DD07, Kind::Float, "PARTICL_SCALE"),
    (0x0000E000, Kind::Record, "DIRICTORY"),
    (0x0000E001, Kind::Record, "FOLDER"),
    (0x0000E002, Kind::String, "DIR_NAME"),
    (0x0000E003, Kind::Dword, "DIR_NINST"),
    (0x0000E004, Kind::Dword, "DIR_PARENT_FOLDER"),
    (0x0000E005, Kind::Byte, "DIR_TYPE"),
    (0x0000F000, Kind::Record, "DIRICTORY_ELEMENTS"),
    (0x0000FF00, Kind::Record, "SEC_RANGE"),
    (0x0000FF01, Kind::Record, "MAIN_RANGE"),
    (0x0000FF02, Kind::Record, "RANGE"),
    (0x0000FF05, Kind::Dword, "MIN_ID"),
    (0x0000FF06, Kind::Dword, "MAX_ID"),
    (0x31415926, Kind::AiGraph, "AIGRAPH"),
    (0xACCEECCA, Kind::String, "SS_TEXT_OLD"),
    (0xACCEECCB, Kind::StringEncrypted, "SS_TEXT"),
    (0xBBAB0000, Kind::Record, "MAGIC_TRAP"),
    (0xBBAB0001, Kind::Dword, "MT_DIPLOMACY"),
    (0xBBAB0002, Kind::String, "MT_SPELL"),
    (0xBBAB0003, Kind::AreaArray, "MT_AREAS"),
    (0xBBAB0004, Kind::Plot2DArray, "MT_TARGETS"),
    (0xBBAB0005, Kind::Dword, "MT_CAST_INTERVAL"),
    (0xBBAC0000, Kind::Record, "LEVER"),
    (0xBBAC0001, Kind::Null, "LEVER_SCIENCE_STATS"),
    (0xBBAC0002, Kind::Byte, "LEVER_CUR_STATE"),
    (0xBBAC0003, Kind::Byte, "LEVER_TOTAL_STATE"),
    (0xBBAC0004, Kind::Byte, "LEVER_IS_CYCLED"),
    (0xBBAC0005, Kind::Byte, "LEVER_CAST_ONCE"),
    (0xBBAC0006, Kind::LeverStats, "LEVER_SCIENCE_STATS_NEW"),
    (0xBBAC0007, Kind::Byte, "LEVER_IS_DOOR"),
    (0xBBAC0008, Kind::Byte, "LEVER_RECALC_GRAPH"),
    (0xBBBB0000, Kind::Record, "UNIT"),
    (0xBBBB0001, Kind::Null, "UNIT_R"),
    (0xBBBB0002, Kind::String, "UNIT_PROTOTYPE"),
    (0xBBBB0003, Kind::Null, "UNIT_ITEMS"),
    (0xBBBB0004, Kind::UnitStats, "UNIT_STATS"),
    (0xBBBB0005, Kind::StringArray, "UNIT_QUEST_ITEMS"),
    (0xBBBB0006, Kind::StringArray, "UNIT_QUICK_ITEMS"),
    (0xBBBB0007, Kind::StringArray, "UNIT_SPELLS"),
    (0xBBBB0008, Kind::StringArray, "UNIT_WEAPONS"),
    (0xBBBB0009, Kind::StringArray, "UNIT_ARMORS"),
    (0xBBBB000A, Kind::Byte, "UNIT_NEED_IMPORT"),
    (0xBBBC0000, Kind::Record, "UNIT_LOGIC"),
    (0xBBBC0001, Kind::Null, "UNIT_LOGIC_AGRESSIV"),
    (0xBBBC0002, Kind::Byte, "UNIT_LOGIC_CYCLIC"),
    (0xBBBC0003, Kind::Dword, "UNIT_LOGIC_MODEL"),
    (0xBBBC0004, Kind::Float, "UNIT_LOGIC_GUARD_R"),
    (0xBBBC0005, Kind::Plot, "UNIT_LOGIC_GUARD_PT"),
    (0xBBBC0006, Kind::Byte, "UNIT_LOGIC_NALARM"),
    (0xBBBC0007, Kind::Byte, "UNIT_LOGIC_USE"),
    (0xBBBC0008, Kind::Null, "UNIT_LOGIC_REVENGE"),
    (0xBBBC0009, Kind::Null, "UNIT_LOGIC_FEAR"),
    (0xBBBC000A, Kind::Float, "UNIT_LOGIC_WAIT"),
    (0xBBBC000B, Kind::Byte, "UNIT_LOGIC_ALARM_CONDITION"),
    (0xBBBC000C, Kind::Float, "UNIT_LOGIC_HELP"),
    (0xBBBC000D, Kind::Byte, "UNIT_LOGIC_ALWAYS_ACTIVE"),
    (0xBBBC000E, Kind::Byte, "UNIT_LOGIC_AGRESSION_MODE"),
    (0xBBBD0000, Kind::Record, "GUARD_PT"),
    (0xBBBD0001, Kind::Plot, "GUARD_PT_POSITION"),
    (0xBBBD0002, Kind::Null, "GUARD_PT_ACTION"),
    (0xBBBE0000, Kind::Record, "ACTION_PT"),
    (0xBBBE0001, Kind::Plot, "ACTION_PT_LOOK_PT"),
    (0xBBBE0002, Kind::Dword, "ACTION_PT_WAIT_SEG"),
    (0xBBBE0003, Kind::Dword, "ACTION_PT_TURN_SPEED"),
    (0xBBBE0004, Kind::Byte, "ACTION_PT_FLAGS"),
    (0xBBBF0000, Kind::Record, "TORCH"),
    (0xBBBF0001, Kind::Float, "TORCH_STRENGHT"),
    (0xBBBF0002, Kind::Plot, "TORCH_PTLINK"),
    (0xBBBF0003, Kind::String, "TORCH_SOUND"),
    (0xDDDDDDD1, Kind::Record, "DIPLOMATION"),
    (0xDDDDDDD2, Kind::Diplomacy, "DIPLOMATION_FOF"),
    (0xDDDDDDD3, Kind::StringArray, "DIPLOMATION_PL_NAMES"),
    (0xFFFFFFFF, Kind::Unknown, "UNKNOWN"),
];

/// The kind and name the spec gives a type id, if it lists it.
pub fn lookup(type_id: u32) -> Option<(Kind, &'static str)> {
    NODE_TYPES
        .binary_search_by_key(&type_id, |&(id, _, _)| id)
        .ok()
        .and_then(|i| NODE_TYPES.get(i))
        .map(|&(_, k, n)| (k, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_complete() {
        assert!(NODE_TYPES.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(NODE_TYPES.len(), 154);
        assert_eq!(lookup(0xBBBB_0000), Some((Kind::Record, "UNIT")));
        assert_eq!(lookup(0xACCE_ECCB), Some((Kind::StringEncrypted, "SS_TEXT")));
        assert_eq!(lookup(0x3141_5926), Some((Kind::AiGraph, "AIGRAPH")));
        assert_eq!(lookup(0x1234_5678), None);
    }
}
