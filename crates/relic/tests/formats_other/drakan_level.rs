//! Drakan `.lvl` landscape layers to a glTF terrain and 16-bit heightmaps, through `relic convert` (the
//! library's `ops::convert`). The level is built here byte by byte from the `.lvl` layout of docs/formats/drakan.md#lvl
//! (independent of relic's writers): record 0x0000 with the level's name and two database references
//! (index 1 → `Tex\Tex`, which exists beside the level with a palette and an 8-bpp texture; index 2 →
//! `Missing\Gone`, which does not), and record 0x0001 with three layers:
//!
//! - A, id 1 "Ground": floor, 2 × 2 cells at origin (1, 2), world height 100. Cell 0 textured 1:7 on both
//!   triangles with known texture coordinates; cell 1 divided as a backslash, its right triangle a hole;
//!   cell 2 an invisible left triangle and a texture the `.txd` lacks (1:9); cell 3 a texture of database
//!   index 6, which the level does not reference.
//! - B, id 2 "Roof": ceiling, 1 × 1 at (5, 5), world height 3000.
//! - C, id 3 "Bridge": between (double-sided), 1 × 1 at (0, 0), world height −50, one triangle textured
//!   from the missing database.
//!
//! What is checked is read back from the written `.glb` and `.png` files.

use std::io::Write;
use std::path::{Path, PathBuf};

use relic::drakan::srsc::{convert_in, Context};
use relic::ops::{self, ConvertRequest, Quiet};
use relic::registry::ConvertOptions;
use serde_json::{json, Value};

use crate::srsc_fixtures;

use srsc_fixtures::{packed, texture};

// ---------------------------------------------------------------------------------------------------------
// Byte builders

use srsc_fixtures::Bytes as B;

const HOLE: (u16, u16) = (0xFFFF, 0xFFFF);
const INVISIBLE: (u16, u16) = (0xFFFE, 0xFFFF);
const TEX: (u16, u16) = (7, 1);

/// A cell: flags, left texture (id, db), right texture (id, db), 8 texture coordinates.
type CellBytes = (u16, (u16, u16), (u16, u16), [u16; 8]);

struct Layer {
    id: u32,
    size: (u32, u32),
    kind: u32,
    origin: (u32, u32),
    world_height: f32,
    name: &'static str,
    light: (f32, f32, u32, u32),
    /// Row-major `v`, (w + 1) × (h + 1).
    heights: Vec<u16>,
    cells: Vec<CellBytes>,
}

/// Light of layer A: direction 0.5 rad, ascension π/6 (sin = ½), light 0xFF8040, ambient 0x102030.
const A_LIGHT: (f32, f32, u32, u32) = (0.5, std::f32::consts::FRAC_PI_6, 0x00FF_8040, 0x0010_2030);
/// Cell 0's texture coordinates: A = (t3, t7), B = (t2, t6), C = (t0, t4), D = (t1, t5).
const CELL0_UV: [u16; 8] = [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000];

/// A's `v` values (3 × 3): flat except (col 2, row 1) = 0x8010 (+32) and (col 2, row 2) = 0x7FF0 (−32).
const A_HEIGHTS: [u16; 9] = [0x8000, 0x8000, 0x8000, 0x8000, 0x8000, 0x8010, 0x8000, 0x8000, 0x7FF0];

fn layers() -> Vec<Layer> {
    vec![
        Layer {
            id: 1,
            size: (2, 2),
            kind: 0,
            origin: (1, 2),
            world_height: 100.0,
            name: "Ground",
            light: A_LIGHT,
            heights: A_HEIGHTS.to_vec(),
            cells: vec![
                (0, TEX, TEX, CELL0_UV),
                (1, TEX, HOLE, [0, 65535, 65535, 0, 0, 0, 65535, 65535]),
                (0, INVISIBLE, (9, 1), [0; 8]),
                (0, TEX, (4, 6), [0; 8]),
            ],
        },
        Layer {
            id: 2,
            size: (1, 1),
            kind: 1,
            origin: (5, 5),
            world_height: 3000.0,
            name: "Roof",
            light: (0.0, -1.0, 0x00FF_FFFF, 0x0020_2020),
            heights: vec![0x8000, 0x8000, 0x8000, 0x8100],
            cells: vec![(0, TEX, TEX, [0; 8])],
        },
        Layer {
            id: 3,
            size: (1, 1),
            kind: 2,
            origin: (0, 0),
            world_height: -50.0,
            name: "Bridge",
            light: (0.0, 0.0, 0, 0),
            heights: vec![0x8000; 4],
            cells: vec![(0, TEX, (3, 2), [0; 8])],
        },
    ]
}

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A layer's block before zlib: 4-byte vertices (u8 type, u8 0, u16 v), then 26-byte cells (u16 flags,
/// ref left, ref right, 8 × u16 texture coordinates).
fn grid_of(l: &Layer) -> Vec<u8> {
    let mut grid = B::default();
    for v in &l.heights {
        grid = grid.bytes(&[0, 0]).u16(*v);
    }
    for (flags, left, right, uv) in &l.cells {
        grid = grid.u16(*flags).r(left.0, left.1).r(right.0, right.1);
        for t in uv {
            grid = grid.u16(*t);
        }
    }
    grid.0
}

/// Record 0x0001 (docs/formats/drakan.md#lvl): layer count, definitions, u32 1, then per layer u32 size + zlib block.
fn layers_record(layers: &[Layer]) -> Vec<u8> {
    let grids: Vec<Vec<u8>> = layers.iter().map(grid_of).collect();
    for (l, g) in layers.iter().zip(&grids) {
        assert_eq!(g.len(), l.heights.len() * 4 + l.cells.len() * 26);
    }
    layers_record_with(layers, &grids)
}

/// Record 0x0001 with the given (unpacked) blocks.
fn layers_record_with(layers: &[Layer], grids: &[Vec<u8>]) -> Vec<u8> {
    let packed: Vec<Vec<u8>> = grids.iter().map(|g| zlib(g)).collect();
    layers_record_packed(layers, &packed)
}

/// Record 0x0001 with the given zlib blocks.
fn layers_record_packed(layers: &[Layer], blocks: &[Vec<u8>]) -> Vec<u8> {
    let mut b = B::default().u32(layers.len() as u32);
    for l in layers {
        b = b
            .u32(l.id)
            .u32(l.size.0)
            .u32(l.size.1)
            .u32(l.kind)
            .u32(l.origin.0)
            .u32(l.origin.1)
            .f32(l.world_height)
            .str(l.name)
            .u32(0x20) // flags
            .f32(l.light.0)
            .f32(l.light.1)
            .u32(l.light.2)
            .u32(l.light.3)
            .u32(1) // dropoff
            .u32(1) // one visible layer
            .u32(l.id);
    }
    b = b.u32(1);
    for packed in blocks {
        b = b.u32(packed.len() as u32).bytes(packed);
    }
    b.0
}

/// Record 0x0000: name, max width, max height, then the database references.
fn info_record() -> Vec<u8> {
    B::default()
        .str("Test Level")
        .u32(8)
        .u32(8)
        .u32(2)
        .u16(1)
        .u16(0)
        .str("Tex\\Tex")
        .u16(2)
        .u16(0)
        .str("Missing/Gone")
        .0
}

fn lvl() -> Vec<u8> {
    packed(&[(0x0000, 0, 0, &info_record()), (0x0001, 0, 0, &layers_record(&layers()))])
}

/// `Tex.txd`: palette (black, green, white) and texture 7, 8 bpp, 2 × 2, bottom row first.
fn txd() -> Vec<u8> {
    let palette = B::default().u16(3).bytes(&[0, 0, 0, 0, 0, 255, 0, 0, 255, 255, 255, 0]).0;
    packed(&[(0x0030, 1, 0, &palette), (0x0040, 7, 0, &texture(2, 2, 8, &[0, 1, 2, 1]))])
}

/// The level at `dir/level_dir/Test.lvl`, the texture database at `dir/<txd>`.
fn level_folder(level_dir: &str, txd_path: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let levels = dir.path().join(level_dir);
    std::fs::create_dir_all(&levels).unwrap();
    let txd_path = dir.path().join(txd_path);
    std::fs::create_dir_all(txd_path.parent().unwrap()).unwrap();
    std::fs::write(&txd_path, txd()).unwrap();
    let path = levels.join("Test.lvl");
    std::fs::write(&path, lvl()).unwrap();
    (dir, path)
}

// ---------------------------------------------------------------------------------------------------------
// Reading the output back

fn read_glb(glb: &[u8]) -> (Value, Vec<u8>) {
    assert_eq!(&glb[0..4], b"glTF");
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    assert_eq!(&glb[16..20], b"JSON");
    let doc: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let rest = &glb[20 + json_len..];
    let bin_len = u32::from_le_bytes(rest[0..4].try_into().unwrap()) as usize;
    assert_eq!(&rest[4..8], b"BIN\0");
    (doc, rest[8..8 + bin_len].to_vec())
}

fn view<'b>(doc: &Value, bin: &'b [u8], view: u64) -> &'b [u8] {
    let v = &doc["bufferViews"][view as usize];
    let start = v["byteOffset"].as_u64().unwrap() as usize;
    &bin[start..start + v["byteLength"].as_u64().unwrap() as usize]
}

/// The floats of accessor `i`, `N` at a time.
fn floats<const N: usize>(doc: &Value, bin: &[u8], i: &Value) -> Vec<[f32; N]> {
    let a = &doc["accessors"][i.as_u64().unwrap() as usize];
    assert_eq!(a["componentType"], 5126);
    let bytes = view(doc, bin, a["bufferView"].as_u64().unwrap());
    let all: Vec<f32> = bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(all.len(), a["count"].as_u64().unwrap() as usize * N);
    all.chunks_exact(N).map(|c| c.try_into().unwrap()).collect()
}

fn indices(doc: &Value, bin: &[u8], i: &Value) -> Vec<u32> {
    let a = &doc["accessors"][i.as_u64().unwrap() as usize];
    let bytes = view(doc, bin, a["bufferView"].as_u64().unwrap());
    match a["componentType"].as_u64().unwrap() {
        5123 => bytes.chunks_exact(2).map(|c| u32::from(u16::from_le_bytes([c[0], c[1]]))).collect(),
        5125 => bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect(),
        other => panic!("index component type {other}"),
    }
}

/// One primitive as read back: positions, normals, uvs, colours, indices, material.
struct Prim {
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    uvs: Vec<[f32; 2]>,
    colors: Vec<[f32; 4]>,
    indices: Vec<u32>,
    material: Value,
}

impl Prim {
    fn triangles(&self) -> Vec<[[f32; 3]; 3]> {
        self.indices.chunks_exact(3).map(|t| [0, 1, 2].map(|k| self.positions[t[k] as usize])).collect()
    }
    /// The vertex at `p` (to 1e-3), if any.
    fn vertex(&self, p: [f32; 3]) -> Option<usize> {
        self.positions.iter().position(|q| (0..3).all(|k| (q[k] - p[k]).abs() < 1e-3))
    }
}

struct Glb {
    doc: Value,
    bin: Vec<u8>,
}

impl Glb {
    fn read(path: &Path) -> Glb {
        let (doc, bin) = read_glb(&std::fs::read(path).unwrap());
        Glb { doc, bin }
    }

    fn node(&self, name: &str) -> &Value {
        self.doc["nodes"].as_array().unwrap().iter().find(|n| n["name"] == name).unwrap_or_else(|| panic!("{name}"))
    }

    /// The primitives of the mesh of node `name`.
    fn prims(&self, name: &str) -> Vec<Prim> {
        let mesh = &self.doc["meshes"][self.node(name)["mesh"].as_u64().unwrap() as usize];
        mesh["primitives"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let at = &p["attributes"];
                Prim {
                    positions: floats(&self.doc, &self.bin, &at["POSITION"]),
                    normals: floats(&self.doc, &self.bin, &at["NORMAL"]),
                    uvs: floats(&self.doc, &self.bin, &at["TEXCOORD_0"]),
                    colors: floats(&self.doc, &self.bin, &at["COLOR_0"]),
                    indices: indices(&self.doc, &self.bin, &p["indices"]),
                    material: self.doc["materials"][p["material"].as_u64().unwrap() as usize].clone(),
                }
            })
            .collect()
    }

    fn prim(&self, node: &str, material: &str) -> Prim {
        self.prims(node).into_iter().find(|p| p.material["name"] == material).unwrap_or_else(|| panic!("{material}"))
    }
}

fn validate(paths: &[&Path]) {
    let Some(reports) = relic::testing::validate_gltf(paths) else { return };
    assert_eq!(reports.len(), paths.len());
    for r in reports {
        assert_eq!(r.errors, 0, "{}: {:#?}", r.path, r.messages);
    }
}

fn gray16(path: &Path) -> (u32, u32, Vec<u16>) {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    assert_eq!(reader.info().bit_depth, png::BitDepth::Sixteen);
    assert_eq!(reader.info().color_type, png::ColorType::Grayscale);
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let px = buf[..info.buffer_size()].chunks_exact(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
    (info.width, info.height, px)
}

/// Converts the level as `relic convert Test.lvl` does; the output folder and the level's records listing.
fn convert(path: &Path, req: &ConvertRequest) -> (tempfile::TempDir, PathBuf, Value) {
    let out = tempfile::tempdir().unwrap();
    let report = ops::convert(&[path.to_path_buf()], out.path(), req, &Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    // The one folder the conversion wrote (named after the input).
    let dirs: Vec<PathBuf> =
        std::fs::read_dir(out.path()).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    let root = dirs[0].clone();
    let records = serde_json::from_slice(&std::fs::read(root.join("records.json")).unwrap()).unwrap();
    (out, root, records)
}

/// The `scene` problems the conversion listed in `records.json`.
fn problems(records: &Value) -> Vec<String> {
    records.as_array().unwrap().iter().filter_map(|r| r["scene"].as_str().map(str::to_string)).collect()
}

/// A's vertex (col, row): `((1 + col)·2048, 100 + (v − 0x8000)·2, (2 + row)·2048)`.
fn a_vertex(col: usize, row: usize) -> [f32; 3] {
    let v = A_HEIGHTS[row * 3 + col];
    [(1 + col) as f32 * 2048.0, 100.0 + (f32::from(v) - 32768.0) * 2.0, (2 + row) as f32 * 2048.0]
}

fn close(a: &[f32], b: &[f32], tolerance: f32) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tolerance)
}

fn normal_of([p, q, r]: [[f32; 3]; 3]) -> [f32; 3] {
    let (u, v) = ([q[0] - p[0], q[1] - p[1], q[2] - p[2]], [r[0] - p[0], r[1] - p[1], r[2] - p[2]]);
    [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
}

// ---------------------------------------------------------------------------------------------------------
// Tests

#[test]
fn convert_writes_one_terrain_and_a_heightmap_per_layer_and_they_validate() {
    let (_dir, path) = level_folder(".", "Tex/Tex.txd");
    let (_out, root, records) = convert(&path, &ConvertRequest::default());
    for file in ["terrain.view.glb", "heightmaps/1_Ground.png", "heightmaps/2_Roof.png", "heightmaps/3_Bridge.png"] {
        assert!(root.join(file).is_file(), "{file}");
    }
    let glb = root.join("terrain.view.glb");
    validate(&[&glb]);
    let g = Glb::read(&glb);
    // One root named after the level, one child per layer named <id>_<name>.
    let scene = &g.doc["scenes"][0];
    assert_eq!(scene["nodes"].as_array().unwrap().len(), 1);
    let root_node = &g.doc["nodes"][scene["nodes"][0].as_u64().unwrap() as usize];
    assert_eq!(root_node["name"], "Test Level");
    let children: Vec<&Value> = root_node["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &g.doc["nodes"][c.as_u64().unwrap() as usize]["name"])
        .collect();
    assert_eq!(children, ["1_Ground", "2_Roof", "3_Bridge"]);
    assert_eq!(scene["extras"]["level"], "Test Level");
    assert_eq!(
        scene["extras"]["database_refs"],
        json!([
            {"db_index": 1, "path": "Tex\\Tex", "textures": "Tex/Tex.txd"},
            {"db_index": 2, "path": "Missing/Gone", "textures": null},
        ])
    );
    // The problems: a texture the database lacks, a database index the level does not name, a database that
    // is not there; each once.
    let p = problems(&records);
    assert_eq!(p.len(), 3, "{p:?}");
    assert!(p.iter().any(|m| m.starts_with("texture Tex/Tex.txd:9: ") && m.contains("id 9")), "{p:?}");
    assert!(
        p.iter().any(|m| m.starts_with("texture 6:4: ") && m.contains("not among the level's references")),
        "{p:?}"
    );
    assert!(p.iter().any(|m| m.starts_with("texture Missing/Gone.txd:3: ") && m.contains("not found")), "{p:?}");
}

#[test]
fn node_extras_keep_the_layer_definition() {
    let (_dir, path) = level_folder(".", "Tex/Tex.txd");
    let (_out, root, _) = convert(&path, &ConvertRequest::default());
    let g = Glb::read(&root.join("terrain.view.glb"));
    let a = &g.node("1_Ground")["extras"];
    assert_eq!(
        *a,
        json!({
            "id": 1,
            "name": "Ground",
            "type": 0,
            "type_name": "floor",
            "flags": 0x20,
            "size": [2, 2],
            "origin": [1, 2],
            "world_height": 100.0,
            "light_colour": "#FF8040",
            "ambient_colour": "#102030",
            "light_direction": 0.5,
            "light_ascension": a["light_ascension"],
            "dropoff": 1,
            "visible_layers": [1],
            "triangles": 6,
            "holes": 1,
            "invisible_triangles": 1,
        })
    );
    assert_eq!(a["light_ascension"].as_f64().unwrap() as f32, std::f32::consts::FRAC_PI_6);
    let b = &g.node("2_Roof")["extras"];
    assert_eq!((b["type"].as_u64(), b["type_name"].as_str()), (Some(1), Some("ceiling")));
    assert_eq!((b["holes"].as_u64(), b["invisible_triangles"].as_u64()), (Some(0), Some(0)));
    assert_eq!(g.node("3_Bridge")["extras"]["type_name"], "between");
}

#[test]
fn world_positions_triangles_holes_and_the_invisible_primitive() {
    let (_dir, path) = level_folder(".", "Tex/Tex.txd");
    let (_out, root, _) = convert(&path, &ConvertRequest::default());
    let g = Glb::read(&root.join("terrain.view.glb"));
    let prims = g.prims("1_Ground");
    let names: Vec<&str> = prims.iter().map(|p| p.material["name"].as_str().unwrap()).collect();
    // One primitive per texture reference (sorted by database index, then id), the invisible ones last.
    assert_eq!(names, ["Tex/Tex.txd:7", "Tex/Tex.txd:9", "6:4", "invisible"]);
    let count: Vec<usize> = prims.iter().map(|p| p.indices.len() / 3).collect();
    assert_eq!(count, [4, 1, 1, 1], "8 triangles less the hole");
    // Every triangle has its own three vertices.
    assert!(prims.iter().all(|p| p.positions.len() == p.indices.len()));

    let tex = &prims[0];
    // Vertex (col 2, row 1): v 0x8010 → 100 + 32, at ((1 + 2)·2048, ·, (2 + 1)·2048).
    assert_eq!(a_vertex(2, 1), [6144.0, 132.0, 6144.0]);
    assert!(tex.vertex([6144.0, 132.0, 6144.0]).is_some());
    assert_eq!(a_vertex(2, 2), [6144.0, 68.0, 8192.0]);
    assert!(prims[2].vertex(a_vertex(2, 2)).is_some(), "cell 3's right triangle, texture 6:4");
    // All positions lie on the grid.
    for p in prims.iter().flat_map(|p| &p.positions) {
        let (col, row) = ((p[0] / 2048.0) as usize - 1, (p[2] / 2048.0) as usize - 2);
        assert_eq!(*p, a_vertex(col, row));
    }
    // Cell 0 (no flag): left (c, b, a), right (c, d, b); cell 1 (backslash): left (a, c, d).
    let t = tex.triangles();
    assert_eq!(t[0], [a_vertex(0, 1), a_vertex(1, 0), a_vertex(0, 0)]);
    assert_eq!(t[1], [a_vertex(0, 1), a_vertex(1, 1), a_vertex(1, 0)]);
    assert_eq!(t[2], [a_vertex(1, 0), a_vertex(1, 1), a_vertex(2, 1)]);
    // A floor faces up (counter-clockwise from above).
    assert!(t.iter().all(|tri| normal_of(*tri)[1] > 0.0));
    // The hole (cell 1's right triangle, (a, d, b) = (1,0), (2,1), (2,0)) is left out: vertex (2, 0) is in
    // no triangle.
    assert!(prims.iter().all(|p| p.vertex(a_vertex(2, 0)).is_none()));

    // Cell 2's left triangle is invisible: its own primitive and material.
    let inv = &prims[3];
    assert_eq!(inv.triangles(), [[a_vertex(0, 2), a_vertex(1, 1), a_vertex(0, 1)]]);
    assert_eq!(inv.material["alphaMode"], "BLEND");
    assert_eq!(inv.material["pbrMetallicRoughness"]["baseColorFactor"], json!([1.0, 1.0, 1.0, 0.0]));
    assert_eq!(inv.material["extras"], json!({"invisible": true}));
    // Textures that are not found: a plain grey material.
    let missing = &prims[1].material;
    assert_eq!(missing["pbrMetallicRoughness"]["baseColorFactor"], json!([0.5, 0.5, 0.5, 1.0]));
    assert!(missing["pbrMetallicRoughness"].get("baseColorTexture").is_none());
    assert_eq!(missing["extras"]["texture_found"], false);
}

#[test]
fn texture_coordinates_and_the_embedded_texture() {
    let (_dir, path) = level_folder(".", "Tex/Tex.txd");
    let (_out, root, _) = convert(&path, &ConvertRequest::default());
    let g = Glb::read(&root.join("terrain.view.glb"));
    let tex = g.prim("1_Ground", "Tex/Tex.txd:7");
    // Cell 0's left triangle is (c, b, a): C = (t0, t4), B = (t2, t6), A = (t3, t7), over 65535, v flipped.
    let uv = |u: u16, v: u16| [f32::from(u) / 65535.0, 1.0 - f32::from(v) / 65535.0];
    let [t0, _, t2, t3, t4, _, t6, t7] = CELL0_UV;
    assert!(close(&tex.uvs[0], &uv(t0, t4), 1e-6), "{:?}", tex.uvs[0]);
    assert!(close(&tex.uvs[1], &uv(t2, t6), 1e-6));
    assert!(close(&tex.uvs[2], &uv(t3, t7), 1e-6));
    assert_eq!(tex.positions[2], a_vertex(0, 0), "corner A");
    // Cell 1 (backslash) left (a, c, d): A = (t3, t7) = (0, 65535) → glTF (0, 0), C = (t0, t4) = (0, 0) →
    // (0, 1), D = (t1, t5) = (65535, 0) → (1, 1).
    assert_eq!(tex.uvs[6..9], [[0.0, 0.0], [0.0, 1.0], [1.0, 1.0]]);

    // The texture is embedded as PNG: 2 × 2, top row first (stored bottom-up: black, green; white, green).
    let material = &tex.material;
    assert_eq!(material["extensions"], json!({"KHR_materials_unlit": {}}));
    let texture = material["pbrMetallicRoughness"]["baseColorTexture"]["index"].as_u64().unwrap() as usize;
    let image = &g.doc["images"][g.doc["textures"][texture]["source"].as_u64().unwrap() as usize];
    assert_eq!((image["name"].as_str(), image["mimeType"].as_str()), (Some("Tex/Tex.txd:7"), Some("image/png")));
    assert_eq!(g.doc["images"].as_array().unwrap().len(), 1, "embedded once");
    let png_bytes = view(&g.doc, &g.bin, image["bufferView"].as_u64().unwrap());
    let mut reader = png::Decoder::new(png_bytes).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (2, 2));
    assert_eq!(&buf[..16], [255, 255, 255, 255, 0, 255, 0, 255, 0, 0, 0, 255, 0, 255, 0, 255]);
}

#[test]
fn vertex_colours_bake_the_layer_light() {
    let (_dir, path) = level_folder(".", "Tex/Tex.txd");
    let (_out, root, _) = convert(&path, &ConvertRequest::default());
    let g = Glb::read(&root.join("terrain.view.glb"));
    let tex = g.prim("1_Ground", "Tex/Tex.txd:7");
    // Vertex (0, 0) only touches cell 0's flat left triangle: normal up, so N·L = sin(ascension) = ½;
    // colour = light·½ + 2·ambient (OpenDrakan's `_bakeLocalLayerLight`).
    let i = tex.vertex(a_vertex(0, 0)).unwrap();
    assert_eq!(tex.normals[i], [0.0, 1.0, 0.0]);
    let cos = f64::from(A_LIGHT.1).sin() as f32;
    let expect = [
        (1.0 * cos + 2.0 * 16.0 / 255.0),
        (128.0 / 255.0 * cos + 2.0 * 32.0 / 255.0),
        (64.0 / 255.0 * cos + 2.0 * 48.0 / 255.0),
        1.0,
    ];
    assert!(close(&tex.colors[i], &expect, 1e-5), "{:?} vs {expect:?}", tex.colors[i]);
    // Colours stay within 0..1 and normals are unit length everywhere.
    for p in g.prims("1_Ground").iter().chain(&g.prims("2_Roof")) {
        assert!(p.colors.iter().flatten().all(|c| (0.0..=1.0).contains(c)));
        assert!(p.normals.iter().all(|n| ((n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt() - 1.0).abs() < 1e-5));
    }
    // The roof's light comes from below (ascension −1): its downward normals see it.
    let roof = g.prim("2_Roof", "Tex/Tex.txd:7");
    assert!(roof.colors.iter().all(|c| c[0] > 2.0 * 32.0 / 255.0 + 0.5), "{:?}", roof.colors);
}

#[test]
fn a_ceiling_is_wound_the_other_way_and_between_is_double_sided() {
    let (_dir, path) = level_folder(".", "Tex/Tex.txd");
    let (_out, root, _) = convert(&path, &ConvertRequest::default());
    let g = Glb::read(&root.join("terrain.view.glb"));
    let roof = g.prim("2_Roof", "Tex/Tex.txd:7");
    let v = |col: f32, row: f32, y: f32| [(5.0 + col) * 2048.0, y, (5.0 + row) * 2048.0];
    // Left (c, b, a) with the first two swapped: (b, c, a); right (c, d, b) → (d, c, b); d is 0x8100: +512.
    assert_eq!(
        roof.triangles(),
        [
            [v(1.0, 0.0, 3000.0), v(0.0, 1.0, 3000.0), v(0.0, 0.0, 3000.0)],
            [v(1.0, 1.0, 3512.0), v(0.0, 1.0, 3000.0), v(1.0, 0.0, 3000.0)],
        ]
    );
    for tri in roof.triangles() {
        assert!(normal_of(tri)[1] < 0.0, "faces down");
    }
    assert!(roof.normals.iter().all(|n| n[1] < 0.0));
    assert_eq!(roof.material["doubleSided"], false);

    let bridge = g.prims("3_Bridge");
    assert_eq!(bridge.len(), 2);
    assert!(bridge.iter().all(|p| p.material["doubleSided"] == true));
    assert_eq!(bridge[0].material["name"], "Tex/Tex.txd:7");
    assert_eq!(bridge[1].material["name"], "Missing/Gone.txd:3");
    assert!(bridge[0].positions.iter().all(|p| p[1] == -50.0));
    // The floor's material is another (single-sided) one, with the same texture.
    let floor = g.prim("1_Ground", "Tex/Tex.txd:7");
    assert_eq!(floor.material["doubleSided"], false);
    assert_eq!(g.doc["textures"].as_array().unwrap().len(), 1);
}

#[test]
fn heightmaps_hold_the_stored_heights() {
    let (_dir, path) = level_folder(".", "Tex/Tex.txd");
    let (_out, root, _) = convert(&path, &ConvertRequest::default());
    let (w, h, px) = gray16(&root.join("heightmaps/1_Ground.png"));
    assert_eq!((w, h), (3, 3));
    assert_eq!(px, A_HEIGHTS, "row 0 at the top, column = col");
    assert_eq!(px[3 + 2], 0x8010, "(col 2, row 1)");
    let (w, h, px) = gray16(&root.join("heightmaps/2_Roof.png"));
    assert_eq!((w, h, px), (2, 2, vec![0x8000, 0x8000, 0x8000, 0x8100]));
}

#[test]
fn databases_are_found_above_the_level_in_any_case_or_in_textures() {
    // Levels/Test.lvl with TEX/tex.TXD one folder up.
    let (_dir, path) = level_folder("Levels", "TEX/tex.TXD");
    let (_out, root, records) = convert(&path, &ConvertRequest::default());
    let g = Glb::read(&root.join("terrain.view.glb"));
    assert!(g.prim("1_Ground", "Tex/Tex.txd:7").material["pbrMetallicRoughness"].get("baseColorTexture").is_some());
    assert_eq!(problems(&records).len(), 3);

    // Elsewhere, given with --textures.
    let (dir, path) = level_folder(".", "elsewhere/Tex/Tex.txd");
    let req = ConvertRequest {
        options: ConvertOptions { textures: Some(dir.path().join("elsewhere")), ..Default::default() },
        ..Default::default()
    };
    let (_out, root, _) = convert(&path, &req);
    let g = Glb::read(&root.join("terrain.view.glb"));
    assert!(g.prim("1_Ground", "Tex/Tex.txd:7").material["pbrMetallicRoughness"].get("baseColorTexture").is_some());

    // Not found: every texture grey, each reported once.
    let (_dir, path) = level_folder(".", "Other/Tex.txd");
    let (_out, root, records) = convert(&path, &ConvertRequest::default());
    let g = Glb::read(&root.join("terrain.view.glb"));
    assert!(g.doc.get("images").is_none());
    let p = problems(&records);
    assert_eq!(p.len(), 4, "{p:?}");
    assert_eq!(p.iter().filter(|m| m.contains("Tex/Tex.txd:7")).count(), 1, "{p:?}");
}

fn in_memory(bytes: &[u8], dir: Option<&Path>) -> relic::Result<Vec<relic::asset::NamedAsset>> {
    let ctx = Context {
        stem: "Test".into(),
        extension: "lvl".into(),
        db: None,
        dir: dir.map(Path::to_path_buf),
        whole_database: false,
        confine: None,
    };
    convert_in(bytes, &ctx, &ConvertOptions::default())
}

#[test]
fn other_srsc_files_make_no_terrain_and_a_bad_layer_is_left_out() {
    // A texture database is no level.
    let assets = in_memory(&txd(), None).unwrap();
    assert!(assets.iter().all(|a| !matches!(a.asset, relic::asset::Asset::Scene(_))));

    // A layer whose block does not inflate to its size is left out with a problem; the others convert.
    let l = layers();
    let mut grids: Vec<Vec<u8>> = l.iter().map(grid_of).collect();
    let short = grids[1].len() - 4;
    grids[1].truncate(short);
    let bytes = packed(&[(0x0000, 0, 0, &info_record()), (0x0001, 0, 0, &layers_record_with(&l, &grids))]);
    let assets = in_memory(&bytes, None).unwrap();
    let Some(relic::asset::Asset::Scene(scene)) =
        assets.iter().find(|a| a.name.as_deref() == Some("terrain.view")).map(|a| &a.asset)
    else {
        panic!("no terrain")
    };
    let names: Vec<&str> = scene.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["1_Ground", "3_Bridge", "Test Level"]);
    let heightmaps: Vec<&str> =
        assets.iter().filter_map(|a| a.name.as_deref()).filter(|n| n.starts_with("heightmaps/")).collect();
    assert_eq!(heightmaps, ["heightmaps/1_Ground", "heightmaps/3_Bridge"]);
    let Some(relic::asset::Asset::Document(records)) =
        assets.iter().find(|a| a.name.as_deref() == Some("records")).map(|a| &a.asset)
    else {
        panic!("no records")
    };
    assert!(problems(&records.value).iter().any(|p| p.starts_with("layer 2_Roof:")), "{:?}", records.value);
}

#[test]
fn a_huge_layer_from_a_small_file_is_refused() {
    let records =
        |assets: &[relic::asset::NamedAsset]| match assets.iter().find(|a| a.name.as_deref() == Some("records")) {
            Some(relic::asset::NamedAsset { asset: relic::asset::Asset::Document(d), .. }) => d.value.clone(),
            _ => panic!("no records"),
        };
    let no_output = |assets: &[relic::asset::NamedAsset]| {
        assets.iter().all(|a| !matches!(a.asset, relic::asset::Asset::Scene(_) | relic::asset::Asset::Image(_)))
    };
    // 901 × 995 cells of zeros: an honest block of 26.9 MB that zlib packs into 26 KB. It would inflate
    // (it is under --max-entry-size), but the scene it makes is far past 1000 × the file: refused before
    // inflating.
    let (w, h) = (901u32, 995u32);
    let size = 4 * u64::from(w + 1) * u64::from(h + 1) + 26 * u64::from(w) * u64::from(h);
    let mut l = layers();
    l.truncate(1);
    l[0].size = (w, h);
    let bytes = packed(&[(0x0001, 0, 0, &layers_record_packed(&l, &[relic::testing::zeros_zlib(size)]))]);
    assert!(bytes.len() < 40_000, "{}", bytes.len());
    let assets = in_memory(&bytes, None).unwrap();
    assert!(no_output(&assets));
    let p = problems(&records(&assets));
    assert!(p.len() == 1 && p[0].contains("--max-expansion"), "{p:?}");

    // u32::MAX × u32::MAX overflows the sizes: refused too.
    let mut l = layers();
    l.truncate(1);
    let mut rec = layers_record(&l);
    rec[8..16].copy_from_slice(&[u32::MAX.to_le_bytes(), u32::MAX.to_le_bytes()].concat());
    let assets = in_memory(&packed(&[(0x0001, 0, 0, &rec)]), None).unwrap();
    assert!(no_output(&assets));
    let p = problems(&records(&assets));
    assert!(p.len() == 1 && p[0].contains("too large"), "{p:?}");
}

#[test]
fn robustness_of_the_whole_conversion() {
    let (dir, _) = level_folder(".", "Tex/Tex.txd");
    let bytes = lvl();
    let r = relic::testing::check_robustness_sampled(&bytes, false, 300, |b| in_memory(b, Some(dir.path())));
    assert!(r.truncations > 0 && r.flips > 0);
}

/// Random cells (any flags, holes, invisible and missing textures), extreme heights, origins and angles:
/// the conversion never panics and what it makes is valid glTF (finite positions, unit normals, colours in
/// 0..1); a layer at a height that is not a number is left out.
#[test]
fn extreme_values_still_make_valid_gltf() {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (dir, _) = level_folder(".", "Tex/Tex.txd");
    let refs = [TEX, HOLE, INVISIBLE, (9, 1), (1, 0), (7, 0xFFFF), (0xFFFF, 1)];
    let mut l = Vec::new();
    for (i, (origin, world_height, light)) in [
        ((u32::MAX, u32::MAX), f32::MAX, (f32::NAN, f32::INFINITY, u32::MAX, u32::MAX)),
        ((0, 0), -f32::MAX, (1e30, -1e30, 0x00FF_FFFF, 0x00FF_FFFF)),
        ((7, 9), 0.0, (3.0, 1.0, 0x0012_3456, 0)),
        ((1, 1), f32::NAN, (0.0, 0.0, 0, 0)),
    ]
    .into_iter()
    .enumerate()
    {
        let (w, h) = (1 + next() % 4, 1 + next() % 3);
        l.push(Layer {
            id: i as u32 % 2 + 10,
            size: (w as u32, h as u32),
            kind: (next() % 4) as u32,
            origin,
            world_height,
            name: "Random",
            light,
            heights: (0..(w + 1) * (h + 1)).map(|_| next() as u16).collect(),
            cells: (0..w * h)
                .map(|_| {
                    let r = |n: u64| refs[(n % refs.len() as u64) as usize];
                    (next() as u16, r(next()), r(next()), [0; 8].map(|_: u16| next() as u16))
                })
                .collect(),
        });
    }
    let bytes = packed(&[(0x0000, 0, 0, &info_record()), (0x0001, 0, 0, &layers_record(&l))]);
    let assets = in_memory(&bytes, Some(dir.path())).unwrap();
    let Some(relic::asset::Asset::Scene(scene)) =
        assets.iter().find(|a| a.name.as_deref() == Some("terrain.view")).map(|a| &a.asset)
    else {
        panic!("no terrain")
    };
    assert_eq!(scene.nodes.len(), 4, "three layers and the root; the NaN-high layer is left out");
    let glb = relic::export::gltf::to_glb(scene).unwrap();
    let path = dir.path().join("extreme.glb");
    std::fs::write(&path, glb).unwrap();
    validate(&[&path]);
    // Layers with the same id and name get distinct heightmaps.
    let heightmaps: Vec<&str> =
        assets.iter().filter_map(|a| a.name.as_deref()).filter(|n| n.starts_with("heightmaps/")).collect();
    assert_eq!(heightmaps, ["heightmaps/10_Random", "heightmaps/11_Random", "heightmaps/10_Random_2"]);
}

/// Issue 40: confined to a folder (`relic view`'s root, `Nearby::confine`), the databases above
/// the level are looked for no higher than that folder: `Levels/Test.lvl` with `TEX/tex.TXD` one folder up
/// is textured confined to the folder holding both, untextured confined to `Levels`.
#[test]
fn databases_are_not_looked_for_above_the_confining_folder() {
    let (dir, path) = level_folder("Levels", "TEX/tex.TXD");
    let textured = |confine: PathBuf| {
        let options = ConvertOptions { nearby: relic::registry::Nearby::confined(confine), ..Default::default() };
        let (_out, root, _) = convert(&path, &ConvertRequest { options, ..Default::default() });
        let g = Glb::read(&root.join("terrain.view.glb"));
        g.prim("1_Ground", "Tex/Tex.txd:7").material["pbrMetallicRoughness"].get("baseColorTexture").is_some()
    };
    let top = dir.path().canonicalize().unwrap();
    assert!(textured(top.clone()), "the database below the confining folder is used");
    assert!(!textured(top.join("Levels")), "the database above the confining folder is not");
}
