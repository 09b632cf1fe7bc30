//! `.lvl` records 0x0000 and 0x0001, as docs/formats/drakan.md#lvl describes them (the spec leaves them out): level
//! info with database references, layer definitions, and zlib blocks of vertices and 26-byte cells.

use relic::codec::zlib;
use relic::drakan::records::level::{self, decode_block, Cell, Vertex};
use relic::testing::check_robustness;

use super::{check_record, f, r, SrscFields, B};

#[test]
fn level_info_0x0000() {
    let bytes = B::new()
        .str("Level1")
        .u32(64)
        .u32(32)
        .u32(2)
        .u16(1)
        .u16(0)
        .str("common/textures")
        .u16(2)
        .u16(0)
        .str("dragon")
        .done();
    let l = check_record(0x0000, &bytes, level::parse_info, level::write_info);
    assert_eq!((l.name.text.as_str(), l.max_width, l.max_height), ("Level1", 64, 32));
    let refs: Vec<(u16, u16, &str)> = l.refs.iter().map(|d| (d.db_index, d.unk, d.path.text.as_str())).collect();
    assert_eq!(refs, [(1, 0, "common/textures"), (2, 0, "dragon")]);
}

/// One layer of 2 × 1 cells: its definition, the marker, and its block.
fn layers_fixture(grid: &[u8]) -> Vec<u8> {
    let packed = zlib::compress(grid, 6);
    B::new()
        .u32(1) // layer count
        .u32(1) // id
        .u32(2) // width
        .u32(1) // height
        .u32(0) // type
        .u32(3) // origin x
        .u32(4) // origin y
        .f32(256.0) // world height
        .str("Ground")
        .u32(0x10) // flags
        .f32(45.0) // light direction
        .f32(30.0) // light ascension
        .u32(0x00FF_EEDD) // light colour
        .u32(0x0010_2030) // ambient colour
        .u32(2) // dropoff
        .u32(2) // visible layers
        .u32(1)
        .u32(5)
        .u32(1) // marker
        .u32(packed.len() as u32)
        .bytes(&packed)
        .done()
}

fn grid() -> Vec<u8> {
    // 3 × 2 vertices (u8 type, u8 0, u16 v), then 2 cells (u16 flags, ref, ref, 8 × u16).
    let mut b = B::new();
    for (kind, v) in [(0u8, 0x8000u16), (1, 0x8010), (2, 0x7FF0), (0, 0), (0, 0xFFFF), (3, 0x8001)] {
        b = b.u8(kind).u8(0).u16(v);
    }
    b = b.u16(0x0001).r#ref(0x10, 1).r#ref(0xFFFF, 0xFFFF);
    for uv in 0..8 {
        b = b.u16(uv);
    }
    b = b.u16(0).r#ref(0xFFFE, 0xFFFF).r#ref(0x11, 0);
    for uv in 8..16 {
        b = b.u16(uv);
    }
    let bytes = b.done();
    assert_eq!(bytes.len(), 6 * 4 + 2 * 26);
    bytes
}

#[test]
fn layers_0x0001_definitions_and_blocks() {
    let bytes = layers_fixture(&grid());
    let l = check_record(0x0001, &bytes, level::parse_layers, level::write_layers);
    let d = &l.layers[0];
    assert_eq!((d.id, d.width, d.height, d.layer_type, d.origin_x, d.origin_y), (1, 2, 1, 0, 3, 4));
    assert_eq!((d.world_height, d.name.text.as_str(), d.flags), (f(256.0), "Ground", 0x10));
    assert_eq!((d.light_direction, d.light_ascension), (f(45.0), f(30.0)));
    assert_eq!((d.light_colour, d.ambient_colour, d.dropoff), (0x00FF_EEDD, 0x0010_2030, 2));
    assert_eq!(d.visible_layers, [1, 5]);
    assert_eq!(l.marker, 1);
    assert_eq!(l.blocks.len(), 1);

    let g = decode_block(d, &l.blocks[0]).unwrap();
    assert_eq!(g.vertices.len(), 6);
    assert_eq!(g.vertices[1], Vertex { kind: 1, unk: 0, v: 0x8010 });
    let heights: Vec<i32> = g.vertices.iter().map(|v| v.height()).collect();
    assert_eq!(heights, [0, 32, -32, -65536, 65534, 2]);
    assert_eq!(
        g.cells,
        vec![
            Cell { flags: 1, left: r(0x10, 1), right: r(0xFFFF, 0xFFFF), uv: [0, 1, 2, 3, 4, 5, 6, 7] },
            Cell { flags: 0, left: r(0xFFFE, 0xFFFF), right: r(0x11, 0), uv: [8, 9, 10, 11, 12, 13, 14, 15] },
        ]
    );
    assert!(Cell::is_hole(g.cells[0].right) && Cell::is_invisible(g.cells[1].left));
    check_robustness(&bytes, false, |b| {
        let l = level::parse_layers(b, 0)?;
        match (l.layers.first(), l.blocks.first()) {
            (Some(d), Some(block)) => decode_block(d, block).map(|_| ()),
            _ => Ok(()),
        }
    });
    // A block that inflates to another size than the layer needs is an error at the block's offset.
    let short = layers_fixture(&grid()[..70]);
    let l = level::parse_layers(&short, 0x500).unwrap();
    let err = decode_block(&l.layers[0], &l.blocks[0]).unwrap_err();
    assert_eq!(err.location().unwrap().offset, l.blocks[0].offset, "{err}");
    assert!(l.blocks[0].offset > 0x500);
}

#[test]
fn a_layer_of_u32_max_cells_is_a_limit_error_not_an_overflow() {
    // (w + 1)(h + 1) passes 2^64 here; the size check must not wrap or panic.
    let def = level::LayerDefinition { width: u32::MAX, height: u32::MAX, ..Default::default() };
    let err = decode_block(&def, &level::LayerBlock::default()).unwrap_err();
    assert!(err.to_string().contains("overflows"), "{err}");
}
