//! Evil Islands FIG files (`ei-fig`): reader, JSON, writer.
//!
//! Layout (spec `evil-islands.txt`, section "FIG", corrected by docs/formats/evil-islands.md#fig-vertex-blocks): `FIG` + morph-count digit
//! n; 9 × u32 (vertex blocks, normal blocks, texcoords, indices, vertex components, morph components,
//! unknown, group, texture index); n centres, n minima, n maxima, n radii; vertex blocks whose float
//! `b·12n + axis·4n + m·4 + lane` is coordinate `axis` of vertex `4b + lane` in morph m; normal blocks
//! x[4] y[4] z[4] w[4]; (u, v) pairs; u16 indices; (position, normal, texcoord) u16 triples; (morph,
//! vertex) u16 pairs. The fixtures are assembled byte by byte here from that formula, not by relic's writer.

use crate::corpus;

use relic::codec::float::F32;
use relic::evil_islands::fig::{self, parse, write, Fig, MorphComponent, VertexComponent};
use relic::registry::{sniff, Confidence};
use relic::testing::check_robustness;
use relic::Error;

/// Position of vertex v in morph m: distinct per axis, morph and vertex, exact in binary.
fn pos(m: usize, v: usize) -> [f32; 3] {
    [v as f32 + m as f32 * 0.125, -(v as f32) - m as f32 * 0.25, 100.0 + 10.0 * v as f32 + m as f32]
}

/// Normal v as stored (not unit length): (v, 1, 0.5, 0).
fn normal(v: usize) -> [f32; 4] {
    [v as f32, 1.0, 0.5, 0.0]
}

struct Spec {
    morphs: usize,
    blocks: usize,
    /// Vertices used (the rest of the last block is zero padding).
    used: usize,
}

fn floats(out: &mut Vec<u8>, values: impl IntoIterator<Item = f32>) {
    for v in values {
        out.extend(v.to_le_bytes());
    }
}

fn u32s(out: &mut Vec<u8>, values: &[u32]) {
    for v in values {
        out.extend(v.to_le_bytes());
    }
}

fn u16s(out: &mut Vec<u8>, values: &[u16]) {
    for v in values {
        out.extend(v.to_le_bytes());
    }
}

/// The bounding box of morph m's used vertices.
fn bounds(m: usize, used: usize) -> ([f32; 3], [f32; 3]) {
    let mut min = [f32::MAX; 3];
    let mut max = [f32::MIN; 3];
    for v in 0..used {
        for a in 0..3 {
            min[a] = min[a].min(pos(m, v)[a]);
            max[a] = max[a].max(pos(m, v)[a]);
        }
    }
    (min, max)
}

/// A FIG with `morphs` morph extremes, `blocks` vertex and normal blocks, 3 texture coordinates, two
/// triangles over `used` vertex components (position v, normal v, texcoord v % 3), and `used` morphing
/// components (i, i). Header: unknown 0, group 19, texture index 3.
fn build(s: &Spec) -> Vec<u8> {
    let n = s.morphs;
    let mut out = format!("FIG{n}").into_bytes();
    let indices: Vec<u16> = vec![0, 1, 2, 3, 4, 5];
    u32s(&mut out, &[s.blocks as u32, s.blocks as u32, 3, indices.len() as u32, s.used as u32, s.used as u32]);
    u32s(&mut out, &[0, 19, 3]);
    assert_eq!(out.len(), 40);
    for m in 0..n {
        floats(&mut out, [0.5 * m as f32, -0.5, 105.0]); // centre
    }
    for m in 0..n {
        floats(&mut out, bounds(m, s.used).0);
    }
    for m in 0..n {
        floats(&mut out, bounds(m, s.used).1);
    }
    for m in 0..n {
        floats(&mut out, [8.0 + m as f32]); // radius
    }
    // Vertex data: float b·12n + axis·4n + m·4 + lane.
    let mut vertex = vec![0.0f32; s.blocks * 12 * n];
    for b in 0..s.blocks {
        for axis in 0..3 {
            for m in 0..n {
                for lane in 0..4 {
                    let v = b * 4 + lane;
                    if v < s.used {
                        vertex[b * 12 * n + axis * 4 * n + m * 4 + lane] = pos(m, v)[axis];
                    }
                }
            }
        }
    }
    floats(&mut out, vertex);
    // Normal blocks: x[4] y[4] z[4] w[4].
    for b in 0..s.blocks {
        for axis in 0..4 {
            floats(&mut out, (0..4).map(|lane| normal(b * 4 + lane)[axis]));
        }
    }
    floats(&mut out, [0.0, 0.0, 1.0, 0.0, 0.5, 1.0]);
    u16s(&mut out, &indices);
    for v in 0..s.used as u16 {
        u16s(&mut out, &[v, v, v % 3]);
    }
    for v in 0..s.used as u16 {
        u16s(&mut out, &[v, v]);
    }
    out
}

const FIG8: Spec = Spec { morphs: 8, blocks: 2, used: 6 };
const FIG1: Spec = Spec { morphs: 1, blocks: 2, used: 6 };

fn f(v: [f32; 3]) -> [F32; 3] {
    v.map(F32::new)
}

#[test]
fn fig8_fixture_decodes_per_morph_positions() {
    let bytes = build(&FIG8);
    assert_eq!(bytes.len(), 40 + 8 * 40 + 2 * 12 * 8 * 4 + 2 * 64 + 24 + 12 + 36 + 24);
    let fig = parse(&bytes).unwrap();
    assert_eq!(fig.morph_count(), 8);
    assert_eq!((fig.unk_0x1c, fig.group, fig.texture_index), (0, 19, 3));
    assert_eq!(fig.position_count(), 8);
    // Morph 0 and morph 7, every used vertex; padding lanes are zero.
    for v in 0..6 {
        assert_eq!(fig.positions[0][v], f(pos(0, v)), "morph 0 vertex {v}");
        assert_eq!(fig.positions[7][v], f(pos(7, v)), "morph 7 vertex {v}");
    }
    assert_eq!(fig.morph_positions(0).unwrap()[5], [5.0, -5.0, 150.0]);
    assert_eq!(fig.morph_positions(7).unwrap()[5], [5.875, -6.75, 157.0]);
    assert_eq!(fig.morph_positions(3).unwrap()[1], [1.375, -1.75, 113.0]);
    assert_eq!(fig.positions[7][6], f([0.0; 3]));
    assert_eq!(fig.positions[7][7], f([0.0; 3]));
    // Bounds of morph 7.
    let b = fig.bounds[7];
    assert_eq!((b.min, b.max), (f([0.875, -6.75, 107.0]), f([5.875, -1.75, 157.0])));
    assert_eq!((b.center, b.radius), (f([3.5, -0.5, 105.0]), F32::new(15.0)));
    // Normals as stored, and normalised.
    assert_eq!(fig.normals.len(), 8);
    assert_eq!(fig.normals[5], normal(5).map(F32::new));
    let unit = fig.unit_normals()[2];
    let len = (4.0f32 + 1.0 + 0.25).sqrt();
    assert_eq!(unit, [2.0 / len, 1.0 / len, 0.5 / len]);
    assert_eq!(fig.texcoords[2], [F32::new(0.5), F32::new(1.0)]);
    assert_eq!(fig.triangles().collect::<Vec<_>>(), [[0, 1, 2], [3, 4, 5]]);
    assert_eq!(fig.vertices[4], VertexComponent { position: 4, normal: 4, texcoord: 1 });
    assert_eq!(fig.morph_components[5], MorphComponent { morph: 5, vertex: 5 });
    assert!(fig.positions_outside_bounds().is_empty());
    assert!(fig.problems().is_empty(), "{:?}", fig.problems());
    assert_eq!(fig.used_positions(), [true, true, true, true, true, true, false, false]);
}

#[test]
fn fig1_fixture_has_one_morph() {
    let fig = parse(&build(&FIG1)).unwrap();
    assert_eq!((fig.morph_count(), fig.positions.len(), fig.position_count()), (1, 1, 8));
    assert_eq!(fig.positions[0][5], f(pos(0, 5)));
    assert_eq!(fig.bounds[0].max, f(bounds(0, 6).1));
    assert_eq!(write(&fig).unwrap(), build(&FIG1));
}

#[test]
fn a_wrong_vertex_layout_is_caught_by_the_bounds() {
    // The spec's .ksy reading (per morph: x[4] y[4] z[4]) of the same bytes puts vertices outside their
    // morph's box; relic's reading does not. Here: move one vertex of morph 7 out of its box.
    let mut fig = parse(&build(&FIG8)).unwrap();
    fig.positions[7][2][2] = F32::new(200.0);
    assert_eq!(fig.positions_outside_bounds(), [(7, 2)]);
    assert_eq!(fig::info(&fig, 0)["positions_outside_bounds"], 1);
    // Padding lanes are not checked.
    let mut fig = parse(&build(&FIG8)).unwrap();
    fig.positions[0][7][0] = F32::new(-1000.0);
    assert!(fig.positions_outside_bounds().is_empty());
}

#[test]
fn writes_back_byte_for_byte_and_through_json() {
    for spec in [&FIG8, &FIG1] {
        let bytes = build(spec);
        assert_eq!(write(&parse(&bytes).unwrap()).unwrap(), bytes);
        assert_eq!(corpus::through_json_text(&fig::FORMAT, &bytes), bytes);
    }
    let bytes = build(&FIG8);
    let value = fig::FORMAT.to_json(&bytes).unwrap();
    assert_eq!(value["format"], "ei-fig");
    assert_eq!(value["positions"][7][5], serde_json::json!([5.875, -6.75, 157.0]));
    assert_eq!(value["bounds"][0]["radius"], 8.0);
    assert_eq!(value["vertices"][4], serde_json::json!({"position": 4, "normal": 4, "texcoord": 1}));
    assert_eq!(value["normals"][5], serde_json::json!([5.0, 1.0, 0.5, 0.0]));
    // An edited position lands in its block, axis, morph and lane.
    let mut edited = value.clone();
    edited["positions"][3][5][1] = serde_json::json!(-0.5);
    let written = fig::FORMAT.from_json(edited, &Default::default()).unwrap();
    let at = 40 + 8 * 40 + (12 * 8 + 4 * 8 + 3 * 4 + 1) * 4; // block 1, axis y, morph 3, lane 1
    assert_eq!(written[at..at + 4], (-0.5f32).to_le_bytes());
    let changed: Vec<usize> = (0..bytes.len()).filter(|&i| written[i] != bytes[i]).collect();
    assert!(!changed.is_empty() && changed.iter().all(|i| (at..at + 4).contains(i)), "only that float: {changed:?}");
}

#[test]
fn the_writer_refuses_lists_that_do_not_fit() {
    let good = parse(&build(&FIG8)).unwrap();
    let mut fig = good.clone();
    fig.positions.pop();
    assert!(write(&fig).is_err(), "7 position lists for 8 morphs");
    let mut fig = good.clone();
    fig.positions[3].pop();
    assert!(write(&fig).is_err(), "unequal morphs");
    let mut fig = good.clone();
    for p in &mut fig.positions {
        p.pop();
    }
    assert!(write(&fig).is_err(), "7 positions: not whole blocks");
    let mut fig = good.clone();
    fig.normals.pop();
    assert!(write(&fig).is_err(), "7 normals: not whole blocks");
    let mut fig = good.clone();
    fig.bounds.clear();
    fig.positions.clear();
    assert!(write(&fig).is_err(), "no morph");
    let fig = Fig { bounds: vec![Default::default(); 10], positions: vec![vec![]; 10], ..good };
    assert!(write(&fig).is_err(), "10 morphs do not fit one digit");
}

#[test]
fn magic_and_counts_are_checked() {
    let mut bytes = build(&FIG8);
    bytes[3] = b'0';
    let err = parse(&bytes).unwrap_err();
    let at = err.location().unwrap();
    assert_eq!((at.format, at.field.as_str(), at.offset), ("ei-fig", "magic", 0));
    // A vertex block count larger than the file is refused before allocating.
    let mut bytes = build(&FIG8);
    bytes[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = parse(&bytes).unwrap_err();
    assert!(matches!(err, Error::Limit { .. }), "{err}");
    assert_eq!(err.location().unwrap().field, "vertex_count");
    // Truncated in the index list.
    let bytes = build(&FIG8);
    let indices_at = 40 + 8 * 40 + 2 * 12 * 8 * 4 + 2 * 64 + 24;
    let err = parse(&bytes[..indices_at + 5]).unwrap_err();
    assert_eq!(err.location().unwrap().offset, indices_at as u64);
    // Out-of-range indices are read (kept) and reported.
    let mut fig = parse(&build(&FIG8)).unwrap();
    fig.indices[1] = 6;
    fig.vertices[0].normal = 8;
    assert_eq!(fig.problems().len(), 2, "{:?}", fig.problems());
    assert_eq!(parse(&write(&fig).unwrap()).unwrap(), fig);
}

#[test]
fn info_summarises() {
    let info = fig::FORMAT.info(&build(&FIG8)).unwrap();
    assert_eq!(info["morphs"], 8);
    assert_eq!(info["vertex_blocks"], 2);
    assert_eq!(info["positions_used"], 6);
    assert_eq!(info["triangles"], 2);
    assert_eq!(info["group"], 19);
    assert_eq!(info["positions_outside_bounds"], 0);
    assert_eq!(info["problems"], serde_json::json!([]));
}

#[test]
fn identified_by_magic() {
    for spec in [&FIG8, &FIG1] {
        let (f, c) = sniff(&build(spec), "mesh").unwrap();
        assert_eq!((f.id, c), ("ei-fig", Confidence::Magic));
    }
    // FIG has magic: a `.fig` whose bytes are no FIG's is nothing (issue 26: names need bytes that agree).
    assert!(sniff(b"FIGX", "part.fig").is_none(), "not by extension alone");
    assert!(sniff(b"FIGX", "part").is_none());
    assert!(sniff(b"FIG0", "part").is_none());
}

#[test]
fn robustness() {
    for spec in [&FIG8, &FIG1] {
        let bytes = build(spec);
        let r = check_robustness(&bytes, true, |b| parse(b).map(|_| ()));
        assert_eq!(r.truncations_rejected, r.truncations);
        check_robustness(&bytes, false, |b| {
            let fig = parse(b)?;
            assert_eq!(write(&fig).unwrap(), b);
            Ok::<(), Error>(())
        });
    }
}

#[test]
fn corpus_figures_round_trip_and_stay_inside_their_bounds() {
    let Some(files) = corpus::of_kind(corpus::Kind::Fig) else { return };
    assert!(files.len() >= 10, "auxData.res holds 10 FIG8 parts: {files:#?}");
    let mut checked = 0usize;
    for file in &files {
        let label = &file.label;
        let (format, confidence) = sniff(&file.data, &file.name).unwrap();
        assert_eq!((format.id, confidence), ("ei-fig", Confidence::Magic), "{label}");
        let fig = parse(&file.data).unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(write(&fig).unwrap(), file.data, "{label}");
        assert_eq!(corpus::through_json_text(&fig::FORMAT, &file.data), file.data, "{label}");
        assert_eq!(fig.morph_count(), 8, "{label}");
        assert!(fig.trailing.0.is_empty(), "{label}");
        assert!(fig.problems().is_empty(), "{label}: {:?}", fig.problems());
        // Every vertex a vertex component uses, in every morph, inside that morph's box from the header.
        let used = fig.used_positions();
        for (m, (positions, b)) in fig.positions.iter().zip(&fig.bounds).enumerate() {
            for (v, p) in positions.iter().enumerate().filter(|(v, _)| used[*v]) {
                for (a, ((lo, x), hi)) in b.min.iter().zip(p).zip(&b.max).enumerate() {
                    let (lo, x, hi) = (lo.get(), x.get(), hi.get());
                    assert!(lo <= x && x <= hi, "{label}: morph {m} vertex {v} axis {a}: {x} not in [{lo}, {hi}]");
                }
                checked += 1;
            }
        }
        assert!(fig.positions_outside_bounds().is_empty(), "{label}");
        // Unused lanes are the padding of the last block only.
        let first_unused = used.iter().position(|u| !u).unwrap_or(used.len());
        assert!(used.len() - first_unused < 4, "{label}: unused positions before the last block");
        assert!(used[first_unused..].iter().all(|u| !u), "{label}");
    }
    eprintln!("{} FIG files round-tripped; {checked} used vertices × morphs inside their bounds", files.len());
}
