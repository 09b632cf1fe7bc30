//! Round-trip properties for every writable format: generated typed documents are written, read back to
//! the same values, and the written file goes through the JSON of `relic convert --to json` and back
//! (`relic pack`) byte for byte, identified as its own format by magic or name.
//!
//! Each format's own test file already holds a property; this file covers what those leave out, and says
//! which property it complements:
//! - `ei-res`: `ei_res.rs` packs random names and contents with the writer. Here: lossless *documents* of
//!   any layout (data in any order, shared and empty ranges, non-zero padding, any chain links and slack),
//!   and documents with a part moved onto another, which are refused or written as they say.
//! - `ei-reg`: `ei_reg.rs` lays out random INI content the way relic writes files. Here: files of any
//!   layout (records in any order, padding, links), their JSON, their INI (byte for byte when the layout
//!   is relic's, content otherwise), and gaps moved anywhere.
//! - `ei-cam`: `ei_cam.rs` reads random bytes. Here: typed key frames written and read, in both time readings.
//! - `ei-adb`: `ei_adb.rs` reads random bytes. Here: typed records (named bit fields in range, names with
//!   junk after the NUL, trailing bytes) written and read.
//! - `ei-mmp`: `ei_mmp.rs` packs uncompressed images. Here: documents of every pixel format (DXT, PNT3 and
//!   unknown fourccs included, any mip count, trailing bytes), and images packed in every pixel format —
//!   DXT with blocks the codec holds exactly — whose decoded pixels, directly and through the PNG of
//!   `convert`, pack again to the same file.
//! - `ei-db`: `ei_db.rs` writes typed documents. Here: what it leaves out — `long` length forms on any
//!   node, tables and records kept as data, trailer nodes, unknown table numbers, payloads the reader keeps
//!   raw — through the codec each file name selects; and values of any kind in any field, whose reading is
//!   a fixed point of writing.
//! - `ei-mob`: `ei_mob.rs` writes trees of a few node types. Here: trees of every type id of the spec's
//!   table, payloads that do not fit their type (kept as hex), unlisted ids, scripts with any cp1251 text;
//!   and values of another kind than the type id says, whose reading is a fixed point of writing.
//! - `ro-grf`: `ro_grf.rs` packs ASCII names. Here: documents of any layout (CP949 names, names that only
//!   their bytes keep, folder records, encrypted flags, shared ranges, table trailing bytes, padding),
//!   documents with a part moved onto another, and packing Korean names.
//! - `ro-rsm`: `ro_rsm_random.rs` writes random models of every version. Here: Korean names (40-byte
//!   fields filled to the last byte) and models through the codec's JSON.
//!
//! Byte-identical read → JSON → write of every sample and corpus file is `roundtrip_files.rs`.

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::TestCaseError;

use relic::bytes::{Base64, Hex};
use relic::codec::text::{decode, decode_exact, encode, CP1251, CP949};
use relic::layout::Gap;
use relic::registry::sniff;

/// Cases per property: the whole file runs in seconds in a debug build.
const CASES: u32 = 64;

fn fail(e: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(e.to_string())
}

fn first_difference(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()))
}

fn same_bytes(got: &[u8], want: &[u8], what: &str) -> Result<(), TestCaseError> {
    prop_assert!(
        got == want,
        "{}: {} bytes, {} expected, first difference at offset {}",
        what,
        got.len(),
        want.len(),
        first_difference(got, want)
    );
    Ok(())
}

/// The path of `relic convert --to json` and `relic pack`: the file is identified as `id` by `name` and
/// its bytes, its JSON (as a value and as the pretty text relic writes) writes back byte for byte, and the
/// file written reads to the same JSON.
fn json_round_trip(id: &str, name: &str, bytes: &[u8]) -> Result<(), TestCaseError> {
    let (format, _) = sniff(bytes, name).ok_or_else(|| fail(format!("{name} is not identified")))?;
    prop_assert_eq!(format.id, id, "{} identified as {}", name, format.id);
    prop_assert!(format.capabilities().write);
    codec_round_trip(format.for_name(name), bytes)
}

/// [`json_round_trip`] with a given codec.
fn codec_round_trip(codec: &relic::registry::Format, bytes: &[u8]) -> Result<(), TestCaseError> {
    let value = codec.to_json(bytes).map_err(fail)?;
    let written = codec.from_json(value.clone(), &Default::default()).map_err(fail)?;
    same_bytes(&written, bytes, "written from the JSON value")?;
    let text = relic::export::json::to_pretty(&value).map_err(fail)?;
    let from_text: serde_json::Value = serde_json::from_slice(&text).map_err(fail)?;
    same_bytes(&codec.from_json(from_text, &Default::default()).map_err(fail)?, bytes, "written from the JSON text")?;
    prop_assert_eq!(codec.to_json(&written).map_err(fail)?, value);
    Ok(())
}

/// Any f32 bit pattern (NaN payloads, infinities, subnormals) half of the time, ordinary values otherwise.
fn f32_bits() -> impl Strategy<Value = u32> + Clone {
    prop_oneof![any::<u32>(), (-1.0e4f32..1.0e4).prop_map(f32::to_bits)]
}

/// Padding between records: zeros (implied by the documents) or non-zero bytes (kept as gaps).
fn padding() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![(0usize..5).prop_map(|n| vec![0; n]), prop::collection::vec(1u8..=255, 1..5)]
}

/// A shuffled `0..n`.
fn permutation(n: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<_>>()).prop_shuffle()
}

/// Places `pad` at `*pos` (a gap when it is not zero) and moves past it.
fn place_pad(pad: &[u8], pos: &mut u64, gaps: &mut Vec<Gap>) {
    if pad.iter().any(|&b| b != 0) {
        gaps.push(Gap { offset: *pos, bytes: Base64(pad.to_vec()) });
    }
    *pos += pad.len() as u64;
}

/// cp1251 text from any bytes but NUL (cp1251 gives every byte its own character).
fn cp1251_text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(1u8..=255, 0..=max).prop_map(|b| decode(CP1251, &b))
}

// =========================================================================================================
// ei-res: lossless documents of any layout

mod res_props {
    use super::*;
    use relic::evil_islands::res::types::{ResDocumentEntry, HEADER_SIZE, RECORD_SIZE};
    use relic::evil_islands::res::{convert, parse, write_document, ResDocument, ResHeader, ResRecord};

    /// One entry: raw name, data, time, chain link, and whether it shares an earlier entry's data.
    type Plan = (Vec<u8>, Vec<u8>, u32, i32, Option<Index>);

    /// Per entry, its raw name and content.
    type Expected = Vec<(Vec<u8>, Vec<u8>)>;

    /// A document and what each entry holds.
    pub fn document() -> impl Strategy<Value = (ResDocument, Expected)> {
        (0usize..8)
            .prop_flat_map(|n| {
                let entry = (
                    prop::collection::vec(any::<u8>(), 0..12),
                    prop::collection::vec(any::<u8>(), 0..40),
                    any::<u32>(),
                    -1..n as i32,
                    prop::option::weighted(0.3, any::<Index>()),
                );
                (
                    prop::collection::vec(entry, n),
                    permutation(n),
                    permutation(n),
                    prop::collection::vec(padding(), n + 2),
                )
            })
            .prop_map(|(plan, data_order, name_order, pads)| build(plan, &data_order, &name_order, &pads))
    }

    fn build(plan: Vec<Plan>, data_order: &[usize], name_order: &[usize], pads: &[Vec<u8>]) -> (ResDocument, Expected) {
        let n = plan.len();
        let shares: Vec<Option<usize>> =
            plan.iter().enumerate().map(|(i, p)| p.4.as_ref().filter(|_| i > 0).map(|ix| ix.index(i))).collect();
        let mut gaps = Vec::new();
        let mut pos = HEADER_SIZE as u64;
        let mut range = vec![(0u32, 0u32); n];
        for (k, &i) in data_order.iter().filter(|&&i| shares[i].is_none()).enumerate() {
            place_pad(&pads[k], &mut pos, &mut gaps);
            range[i] = (pos as u32, plan[i].1.len() as u32);
            pos += plan[i].1.len() as u64;
        }
        // Shared entries take the range (and so the content) of the entry they share.
        let mut content: Vec<Vec<u8>> = plan.iter().map(|p| p.1.clone()).collect();
        for i in 0..n {
            if let Some(j) = shares[i] {
                range[i] = range[j];
                content[i] = content[j].clone();
            }
        }
        place_pad(&pads[n], &mut pos, &mut gaps);
        let filetable_offset = pos as u32;
        pos += (RECORD_SIZE * n) as u64;
        let mut name_offset = vec![0u32; n];
        let mut names_len = 0u32;
        for &i in name_order {
            name_offset[i] = names_len;
            names_len += plan[i].0.len() as u32;
        }
        pos += u64::from(names_len);
        place_pad(&pads[n + 1], &mut pos, &mut gaps);
        let entries = (0..n)
            .map(|i| {
                let (name_raw, _, modified, next_index, _) = &plan[i];
                let same_as = (0..i).find(|&k| range[k] == range[i]);
                ResDocumentEntry {
                    name: decode(CP1251, name_raw),
                    name_bytes: None, // cp1251 text always gives its bytes back
                    record: ResRecord {
                        next_index: *next_index,
                        size: range[i].1,
                        offset: range[i].0,
                        modified: *modified,
                        name_len: name_raw.len() as u16,
                        name_offset: name_offset[i],
                    },
                    data: same_as.is_none().then(|| Base64(content[i].clone())),
                    same_as,
                }
            })
            .collect();
        let doc = ResDocument {
            format: "ei-res".into(),
            header: ResHeader { files_count: n as u32, filetable_offset, nametable_size: names_len },
            file_size: pos,
            entries,
            gaps,
        };
        let expected = plan.into_iter().zip(content).map(|(p, c)| (p.0, c)).collect();
        (doc, expected)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(CASES))]

        /// A document written and read gives the same document; every entry holds its name and content.
        #[test]
        fn res_documents_round_trip((doc, expected) in document()) {
            let bytes = write_document(&doc).map_err(fail)?;
            let res = parse(&bytes).map_err(fail)?;
            prop_assert_eq!(&convert::to_document(&res), &doc);
            for (i, (name, content)) in expected.iter().enumerate() {
                prop_assert_eq!(res.name(i), &name[..]);
                prop_assert_eq!(res.data(i), &content[..]);
            }
            json_round_trip("ei-res", "archive.res", &bytes)?;
        }

        /// A document with one part moved (a gap, an entry's data or name) so that it may claim bytes
        /// another part holds is either refused or written as it says: never silently another document.
        #[test]
        fn res_documents_with_moved_parts_are_refused_or_kept(
            (doc, _) in document(),
            part in 0u8..3,
            at in any::<Index>(),
            which in any::<Index>(),
            bytes in prop::collection::vec(any::<u8>(), 1..6),
        ) {
            let mut doc = doc;
            let size = doc.file_size as usize + 1;
            let names = doc.header.nametable_size as usize + 1;
            let n = doc.entries.len();
            match part {
                0 => doc.gaps.push(Gap { offset: at.index(size) as u64, bytes: Base64(bytes) }),
                1 if n > 0 => doc.entries[which.index(n)].record.offset = at.index(size) as u32,
                2 if n > 0 => doc.entries[which.index(n)].record.name_offset = at.index(names) as u32,
                _ => {}
            }
            let Ok(out) = write_document(&doc) else { return Ok(()) };
            let res = parse(&out).map_err(fail)?;
            prop_assert_eq!(res.header, doc.header);
            for (i, e) in doc.entries.iter().enumerate() {
                prop_assert_eq!(res.records[i], e.record);
                prop_assert_eq!(decode(CP1251, res.name(i)), e.name.clone());
                let data = e.data.as_ref().or_else(|| e.same_as.and_then(|j| doc.entries[j].data.as_ref()));
                prop_assert_eq!(Some(res.data(i)), data.map(|d| &d.0[..]), "entries[{}]", i);
            }
            for g in &doc.gaps {
                prop_assert_eq!(out.get(g.offset as usize..g.offset as usize + g.bytes.0.len()), Some(&g.bytes.0[..]));
            }
        }
    }
}

// =========================================================================================================
// ei-reg: files of any layout

mod reg_props {
    use super::*;
    use relic::codec::float::F32;
    use relic::evil_islands::reg::types::{Key, Link, Section, HEADER_SIZE, SLOT_SIZE};
    use relic::evil_islands::reg::{convert, ini, parse, write, write_content, Reg, Text, Value};

    fn text() -> impl Strategy<Value = Text> {
        prop::collection::vec(any::<u8>(), 0..8).prop_map(Text)
    }

    fn value() -> impl Strategy<Value = Value> {
        let float = f32_bits().prop_map(F32);
        prop_oneof![
            any::<i32>().prop_map(Value::Int),
            float.clone().prop_map(Value::Float),
            text().prop_map(Value::String),
            prop::collection::vec(any::<i32>(), 0..4).prop_map(Value::IntArray),
            prop::collection::vec(float, 0..4).prop_map(Value::FloatArray),
            prop::collection::vec(text(), 0..4).prop_map(Value::StringArray),
        ]
    }

    fn link(n: usize) -> impl Strategy<Value = Link> {
        (-1i64..n as i64).prop_map(|v| Link::from_value(v).unwrap_or(Link(0xFFFF)))
    }

    /// A section: name, link, and keys (name, value, link), with the file order of its keys and the padding
    /// before its header and each key.
    type SectionPlan = (Text, Link, Vec<(Text, Value, Link)>, Vec<usize>, Vec<Vec<u8>>);

    fn section(n: usize) -> impl Strategy<Value = SectionPlan> {
        (text(), link(n), 0usize..5).prop_flat_map(|(name, l, k)| {
            (
                Just(name),
                Just(l),
                prop::collection::vec((text(), value(), link(k)), k),
                permutation(k),
                prop::collection::vec(padding(), k + 1),
            )
        })
    }

    pub fn reg() -> impl Strategy<Value = Reg> {
        (0usize..5).prop_flat_map(|n| (prop::collection::vec(section(n), n), permutation(n), padding())).prop_map(
            |(plans, order, trailing)| {
                let mut gaps = Vec::new();
                let mut pos = HEADER_SIZE + SLOT_SIZE * plans.len() as u64;
                let mut sections: Vec<Option<Section>> = vec![None; plans.len()];
                for &i in &order {
                    let (name, next, keys, key_order, pads) = &plans[i];
                    place_pad(&pads[0], &mut pos, &mut gaps);
                    let start = pos;
                    pos += 4 + name.0.len() as u64 + SLOT_SIZE * keys.len() as u64;
                    let mut offsets = vec![0u32; keys.len()];
                    for (k, &j) in key_order.iter().enumerate() {
                        place_pad(&pads[k + 1], &mut pos, &mut gaps);
                        offsets[j] = (pos - start) as u32;
                        pos += 3 + keys[j].0 .0.len() as u64 + keys[j].1.encoded_len();
                    }
                    let keys = keys
                        .iter()
                        .zip(offsets)
                        .map(|((name, value, next), offset)| Key {
                            next: *next,
                            offset,
                            name: name.clone(),
                            value: value.clone(),
                        })
                        .collect();
                    sections[i] = Some(Section { next: *next, offset: start as u32, name: name.clone(), keys });
                }
                place_pad(&trailing, &mut pos, &mut gaps);
                Reg { file_size: pos, sections: sections.into_iter().flatten().collect(), gaps }
            },
        )
    }

    /// A section's link, name and keys (link, name, value).
    type Table = (Link, Text, Vec<(Link, Text, Value)>);

    /// Slots, links, names and values: what a file holds apart from where its records lie.
    fn tables(reg: &Reg) -> Vec<Table> {
        reg.sections
            .iter()
            .map(|s| {
                let keys = s.keys.iter().map(|k| (k.next, k.name.clone(), k.value.clone())).collect();
                (s.next, s.name.clone(), keys)
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(CASES))]

        /// A file of any layout reads back as written, through its JSON too; its INI keeps every slot,
        /// link, name and value, and packs to a file that reads to the same content.
        #[test]
        fn reg_files_of_any_layout_round_trip(reg in reg()) {
            let bytes = write(&reg).map_err(fail)?;
            prop_assert_eq!(&parse(&bytes).map_err(fail)?, &reg);
            json_round_trip("ei-reg", "settings.reg", &bytes)?;
            let (content, layout) = convert::to_content(&reg);
            let text = convert::to_ini(&reg);
            prop_assert_eq!(&ini::parse(&text).map_err(fail)?, &content);
            let repacked = write_content(&content).map_err(fail)?;
            // Files laid out as relic lays them out pack back from their INI byte for byte (the README's claim).
            if layout != convert::Layout::Other {
                same_bytes(&repacked, &bytes, "packed from the INI")?;
            }
            let packed = parse(&repacked).map_err(fail)?;
            prop_assert_eq!(tables(&packed), tables(&reg));
            prop_assert_eq!(convert::to_content(&packed).0, content);
        }

        /// A gap placed anywhere (over records, the tables or another gap) is refused or written as it says.
        #[test]
        fn reg_documents_with_moved_gaps_are_refused_or_kept(
            reg in reg(),
            at in any::<Index>(),
            bytes in prop::collection::vec(any::<u8>(), 1..6),
        ) {
            let mut reg = reg;
            let gap = relic::layout::Gap { offset: at.index(reg.file_size as usize + 1) as u64, bytes: Base64(bytes) };
            reg.gaps.push(gap);
            let Ok(out) = write(&reg) else { return Ok(()) };
            prop_assert_eq!(&parse(&out).map_err(fail)?.sections, &reg.sections);
            for g in &reg.gaps {
                prop_assert_eq!(out.get(g.offset as usize..g.offset as usize + g.bytes.0.len()), Some(&g.bytes.0[..]));
            }
        }
    }
}

// =========================================================================================================
// ei-cam: typed key frames

mod cam_props {
    use super::*;
    use relic::codec::float::F32;
    use relic::evil_islands::cam::{parse, write, Cam, CamDocument, Quat, Record, TimeReading, Vec3};

    fn record() -> impl Strategy<Value = Record<u32>> {
        (any::<u32>(), any::<u32>(), prop::array::uniform7(f32_bits())).prop_map(|(time, unk_0x04, f)| Record {
            time,
            unk_0x04,
            position: Vec3 { x: F32(f[0]), y: F32(f[1]), z: F32(f[2]) },
            rotation: Quat { w: F32(f[3]), x: F32(f[4]), y: F32(f[5]), z: F32(f[6]) },
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(CASES))]

        /// Key frames written read back bit for bit; the JSON of either time reading packs the same file.
        #[test]
        fn cam_key_frames_round_trip(records in prop::collection::vec(record(), 0..12)) {
            let cam = Cam { records };
            let bytes = write(&cam).map_err(fail)?;
            prop_assert_eq!(bytes.len(), 36 * cam.records.len());
            prop_assert_eq!(&parse(&bytes).map_err(fail)?, &cam);
            for reading in [TimeReading::U32, TimeReading::F32] {
                let doc = CamDocument::new(&cam, reading);
                prop_assert_eq!(&doc.to_cam(), &cam);
                let text = serde_json::to_string(&doc).map_err(fail)?;
                let codec = &relic::evil_islands::cam::FORMAT;
                let written = codec.from_json(serde_json::from_str(&text).map_err(fail)?, &Default::default()).map_err(fail)?;
                same_bytes(&written, &bytes, "written from the JSON")?;
            }
            json_round_trip("ei-cam", "intro.cam", &bytes)?;
        }
    }
}

// =========================================================================================================
// ei-adb: typed records

mod adb_props {
    use super::*;
    use relic::codec::float::F32;
    use relic::evil_islands::adb::types::{ANIMATION_NAME_SIZE, FIELDS, FIELD_MASK, UNIT_NAME_SIZE};
    use relic::evil_islands::adb::{parse, write, Adb, Additionals, Animation, Hex64};

    /// A fixed-size name: cp1251 text without NUL, and sometimes junk after its NUL (which must hold a
    /// non-zero byte, or the reader sees no junk).
    fn fixed_name(size: usize) -> impl Strategy<Value = (String, Option<Base64>)> {
        prop::collection::vec(1u8..=255, 0..=size).prop_flat_map(move |text| {
            let room = size - text.len();
            let tail = if room < 2 {
                Just(None).boxed()
            } else {
                prop::option::of(prop::collection::vec(any::<u8>(), room - 1))
                    .prop_map(|junk| {
                        junk.filter(|j| j.iter().any(|&b| b != 0)).map(|j| {
                            let mut tail = vec![0];
                            tail.extend(j);
                            Base64(tail)
                        })
                    })
                    .boxed()
            };
            (Just(decode(CP1251, &text)), tail)
        })
    }

    fn additionals() -> impl Strategy<Value = Additionals> {
        let field = |i: usize| 0u8..=((1u16 << FIELDS[i].2) - 1) as u8;
        (field(0), field(1), field(2), field(3), field(4), field(5), any::<u64>()).prop_map(
            |(w, s, t, m, g, f, other)| Additionals {
                weapons: w,
                allowed_states: s,
                action_type: t,
                action_modifyer: m,
                animation_stage: g,
                action_forms: f,
                other_bits: Hex64(other & !FIELD_MASK),
            },
        )
    }

    fn animation() -> impl Strategy<Value = Animation> {
        (fixed_name(ANIMATION_NAME_SIZE), any::<[u32; 4]>(), additionals(), f32_bits(), any::<[u32; 12]>()).prop_map(
            |((name, name_tail), [number, action_probability, animation_length, _], additionals, speed, f)| Animation {
                name,
                name_tail,
                number,
                additionals,
                action_probability,
                animation_length,
                movement_speed: F32(speed),
                start_show_hide1: f[0],
                start_show_hide2: f[1],
                start_step_sound1: f[2],
                start_step_sound2: f[3],
                start_step_sound3: f[4],
                start_step_sound4: f[5],
                start_hit_frame: f[6],
                start_special_sound: f[7],
                spec_sound_id1: f[8],
                spec_sound_id2: f[9],
                spec_sound_id3: f[10],
                spec_sound_id4: f[11],
            },
        )
    }

    fn adb() -> impl Strategy<Value = Adb> {
        (
            fixed_name(UNIT_NAME_SIZE),
            prop::array::uniform3(f32_bits()),
            prop::collection::vec(animation(), 0..5),
            prop::option::of(prop::collection::vec(any::<u8>(), 1..100)),
        )
            .prop_map(|((unit_name, unit_name_tail), h, animations, trailing)| Adb {
                unit_name,
                unit_name_tail,
                min_height: F32(h[0]),
                mid_height: F32(h[1]),
                max_height: F32(h[2]),
                animations,
                trailing: trailing.map(Base64),
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(CASES))]

        /// Records written read back to the same values, bit fields and junk after names included.
        #[test]
        fn adb_records_round_trip(adb in adb()) {
            let bytes = write(&adb).map_err(fail)?;
            prop_assert_eq!(bytes.len(), 44 + 88 * adb.animations.len() + adb.trailing.as_ref().map_or(0, |t| t.0.len()));
            prop_assert_eq!(&parse(&bytes).map_err(fail)?, &adb);
            for a in &adb.animations {
                prop_assert_eq!(Additionals::unpack(a.additionals.pack().map_err(fail)?), a.additionals);
            }
            json_round_trip("ei-adb", "unhuma.adb", &bytes)?;
        }
    }
}

// =========================================================================================================
// ei-mmp: documents of every pixel format, and images packed in every pixel format

mod mmp_props {
    use super::*;
    use relic::codec::dxt::Dxt;
    use relic::evil_islands::mmp::read::{level_dimensions, Storage};
    use relic::evil_islands::mmp::write::downscale;
    use relic::evil_islands::mmp::{
        convert, decode_level, encode, parse, write_document, ChannelFormat, FourCc, LevelDocument, MmpDocument,
        PixelFormat,
    };

    /// Fourccs relic does not know: read through the header's masks.
    const UNKNOWN_FOURCCS: [u32; 3] = [0, 0x1234, u32::from_le_bytes(*b"ABCD")];

    fn channel() -> impl Strategy<Value = ChannelFormat> {
        (any::<u32>(), 0u32..32, 0u32..9).prop_map(|(mask, shift, count)| ChannelFormat { mask, shift, count })
    }

    /// A header for a known pixel format (as the game writes it) or an unknown fourcc with any masks.
    fn header_kind() -> impl Strategy<Value = (FourCc, u32, Option<[ChannelFormat; 4]>)> {
        prop_oneof![
            prop::sample::select(PixelFormat::ALL.to_vec()).prop_map(|f| (
                FourCc(f.fourcc()),
                f.bits_per_pixel(),
                None
            )),
            (
                prop::sample::select(UNKNOWN_FOURCCS.to_vec()),
                prop::sample::select(vec![8u32, 16, 24, 32]),
                prop::array::uniform4(channel())
            )
                .prop_map(|(fourcc, bpp, ch)| (FourCc(fourcc), bpp, Some(ch))),
        ]
    }

    fn document() -> impl Strategy<Value = MmpDocument> {
        (header_kind(), 1u32..20, 1u32..20, 0u32..8, any::<u32>(), any::<u32>())
            .prop_flat_map(|((fourcc, bpp, channels), w, h, count, seed, unk)| {
                let mut header = PixelFormat::Argb8.header(w, h, 0);
                if let Some(f) = fourcc.pixel_format() {
                    header = f.header(w, h, 0);
                }
                header.fourcc = fourcc;
                header.bits_per_pixel = bpp;
                if let Some([a, r, g, b]) = channels {
                    (header.alpha_format, header.red_format, header.green_format, header.blue_format) = (a, r, g, b);
                }
                header.unk_0x48 = unk;
                let storage = Storage::of(&header).expect("a valid header");
                let sizes: Vec<(u32, u32, usize)> = if storage == Storage::Pnt3 {
                    // The count field holds the packed size; the data need not unpack to read.
                    let size = seed as usize % (4 * (w * h) as usize + 8);
                    header.mip_levels_count = size as u32;
                    vec![(w, h, size)]
                } else {
                    // Up to two levels past the 1×1 level (they stay 1×1).
                    let full = 32 - w.max(h).leading_zeros();
                    header.mip_levels_count = count.min(full + 2);
                    (0..header.mip_levels_count)
                        .map(|i| {
                            let (lw, lh) = level_dimensions(w, h, i);
                            (lw, lh, storage.level_size(lw, lh) as usize)
                        })
                        .collect()
                };
                let levels: Vec<BoxedStrategy<LevelDocument>> = sizes
                    .into_iter()
                    .map(|(width, height, size)| {
                        prop::collection::vec(any::<u8>(), size)
                            .prop_map(move |data| LevelDocument { width, height, data: Base64(data) })
                            .boxed()
                    })
                    .collect();
                (Just(header), levels, prop::option::of(prop::collection::vec(any::<u8>(), 1..12)))
            })
            .prop_map(|(header, levels, trailing)| MmpDocument {
                format: "ei-mmp".into(),
                header,
                levels,
                trailing: trailing.map(Base64),
            })
    }

    /// An image `format` holds exactly: quantised to its channels; for DXT, every 4×4 block one colour
    /// that R5G6B5 holds, alpha 0 or 255 (DXT1, transparent pixels black) or a multiple of 17 (DXT3) —
    /// blocks the DXT encoder represents exactly.
    fn exact_image(format: PixelFormat, w: u32, h: u32, seed: &[u8]) -> Vec<u8> {
        let byte = |i: usize| seed.get(i % seed.len().max(1)).copied().unwrap_or(0);
        let mut rgba = Vec::with_capacity((w * h * 4) as usize);
        for y in 0..h as usize {
            for x in 0..w as usize {
                let i = y * w as usize + x;
                let px = match format {
                    PixelFormat::Dxt1 | PixelFormat::Dxt3 => {
                        let b = (y / 4) * (w as usize).div_ceil(4) + x / 4;
                        let c565 = u32::from(byte(3 * b)) << 8 | u32::from(byte(3 * b + 1));
                        let [r, g, b5] = [(c565 >> 11) & 31, (c565 >> 5) & 63, c565 & 31];
                        let rgb = [(r << 3 | r >> 2) as u8, (g << 2 | g >> 4) as u8, (b5 << 3 | b5 >> 2) as u8];
                        let a = byte(7 * i + 5);
                        match format {
                            PixelFormat::Dxt1 if a < 64 => [0, 0, 0, 0],
                            PixelFormat::Dxt1 => [rgb[0], rgb[1], rgb[2], 255],
                            _ => [rgb[0], rgb[1], rgb[2], 17 * (a >> 4)],
                        }
                    }
                    // A third of the pixels transparent black, which PNT3 packs into runs.
                    _ if byte(5 * i) % 3 == 0 => [0; 4],
                    _ => [byte(4 * i + 1), byte(4 * i + 2), byte(4 * i + 3), byte(4 * i + 4)],
                };
                rgba.extend_from_slice(&px);
            }
        }
        match format {
            PixelFormat::Dxt1 | PixelFormat::Dxt3 => rgba,
            _ => format.layout().quantise(&rgba),
        }
    }

    /// What level `i` of a texture packed from `rgba` decodes to.
    fn expected_levels(format: PixelFormat, rgba: &[u8], w: u32, h: u32, count: u32) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut current = rgba.to_vec();
        for i in 0..count {
            let (lw, lh) = level_dimensions(w, h, i);
            if i > 0 {
                let (pw, ph) = level_dimensions(w, h, i - 1);
                current = downscale(&current, pw, ph);
            }
            let decoded = match format {
                PixelFormat::Dxt1 | PixelFormat::Dxt3 => {
                    let dxt = if format == PixelFormat::Dxt1 { Dxt::Dxt1 } else { Dxt::Dxt3 };
                    let storage = Storage::Dxt(dxt);
                    let mut blocks = dxt.encode(&current, lw, lh).unwrap_or_default();
                    blocks.truncate(storage.level_size(lw, lh) as usize);
                    dxt.decode(&blocks, lw, lh).unwrap_or_default()
                }
                PixelFormat::Pnt3 => current.clone(),
                _ => format.layout().quantise(&current),
            };
            out.push(decoded);
        }
        out
    }

    /// Image sizes a format packs: DXT needs whole 4×4 blocks (or one block).
    fn image() -> impl Strategy<Value = (PixelFormat, u32, u32, bool, Vec<u8>)> {
        prop::sample::select(PixelFormat::ALL.to_vec()).prop_flat_map(|format| {
            let size = match format {
                PixelFormat::Dxt1 | PixelFormat::Dxt3 => {
                    prop_oneof![(1u32..5, 1u32..5).prop_map(|(bw, bh)| (4 * bw, 4 * bh)), (1u32..3, 1u32..3),].boxed()
                }
                _ => (1u32..14, 1u32..14).boxed(),
            };
            (Just(format), size, any::<bool>(), prop::collection::vec(any::<u8>(), 1..256))
                .prop_map(|(format, (w, h), mips, seed)| (format, w, h, mips, seed))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(CASES))]

        /// Documents of every pixel format (any mip count, unknown fourccs, trailing bytes) write and read
        /// back as they were, and every level of the masked and DXT formats decodes.
        #[test]
        fn mmp_documents_round_trip(doc in document()) {
            let bytes = write_document(&doc).map_err(fail)?;
            let mmp = parse(&bytes).map_err(fail)?;
            prop_assert_eq!(&convert::to_document(&mmp), &doc);
            if doc.header.fourcc.pixel_format() != Some(PixelFormat::Pnt3) {
                for (i, level) in mmp.levels.iter().enumerate() {
                    let rgba = decode_level(&mmp, i).map_err(fail)?;
                    prop_assert_eq!(rgba.len() as u64, 4 * u64::from(level.width) * u64::from(level.height));
                }
            }
            json_round_trip("ei-mmp", "texture.mmp", &bytes)?;
        }

        /// An image packed in any pixel format decodes to the pixels the format holds (exactly, for images
        /// the format represents; every mip level as the box filter and the format make it), and its decoded
        /// top level packs again to the very same file: encode(decode(encode(x))) = encode(x).
        #[test]
        fn mmp_images_round_trip((format, w, h, mips, seed) in image()) {
            let mips = mips && format != PixelFormat::Pnt3;
            let rgba = exact_image(format, w, h, &seed);
            let bytes = encode(&rgba, w, h, format, mips).map_err(fail)?;
            let mmp = parse(&bytes).map_err(fail)?;
            prop_assert_eq!(mmp.header.fourcc.pixel_format(), Some(format));
            let count = if mips { 32 - w.max(h).leading_zeros() } else { 1 };
            prop_assert_eq!(mmp.levels.len() as u32, count);
            let expected = expected_levels(format, &rgba, w, h, count);
            for (i, want) in expected.iter().enumerate() {
                prop_assert!(&decode_level(&mmp, i).map_err(fail)? == want, "{:?} {}×{} level {}", format, w, h, i);
            }
            prop_assert!(expected.first() == Some(&rgba), "{:?}: the image is not held exactly", format);
            let again = encode(&decode_level(&mmp, 0).map_err(fail)?, w, h, format, mips).map_err(fail)?;
            same_bytes(&again, &bytes, "packed again from the decoded pixels")?;
            // The same through the PNG of `relic convert` and `relic pack ei-mmp --pixel-format … [--mips] x.png`.
            let codec = &relic::evil_islands::mmp::FORMAT;
            let assets = codec.convert(&relic::registry::ConvertInput::new(&bytes, &relic::registry::ConvertOptions::default())).map_err(fail)?;
            let Some(relic::asset::Asset::Image(image)) = assets.first().map(|a| &a.asset) else {
                return Err(fail("convert gave no image"));
            };
            let png = relic::export::png::encode_image(image).map_err(fail)?;
            prop_assert_eq!(png.len(), 1);
            let request = relic::registry::PackRequest {
                pixel_format: Some(format.name().to_string()),
                mips,
                ..Default::default()
            };
            let packed = codec.pack_input("texture.png", &png[0].bytes, &request).map_err(fail)?;
            same_bytes(&packed, &bytes, "packed from the converted PNG")?;
            json_round_trip("ei-mmp", "texture.mmp", &bytes)?;
        }
    }
}

// =========================================================================================================
// ei-db: length forms, data bodies, trailers, raw payloads

mod db_props {
    use super::*;
    use relic::evil_islands::db::read::decode_value;
    use relic::evil_islands::db::types::{composite_format, Database, RawNode, RecordBody, TableBody, MAX_SHORT};
    use relic::evil_islands::db::write::encode_value;
    use relic::evil_islands::db::{parse_with, Field, FileType, LengthEncoding, Record, Table, Value};
    use relic::reader::Reader;

    /// A file name for each file type (the name picks the codec); none says "unknown".
    fn file_name(ft: FileType) -> Option<&'static str> {
        Some(match ft {
            FileType::Items => "items.idb",
            FileType::Levers => "levers.ldb",
            FileType::Perks => "perks.pdb",
            FileType::Prints => "prints.db",
            FileType::Spells => "spells.sdb",
            FileType::Units => "units.udb",
            FileType::Acks => "acks.db",
            FileType::Quests => "quests.qdb",
            FileType::Unknown => return None,
        })
    }

    /// A payload that is not a sequence of nodes: a node whose length runs past what follows it.
    fn not_nodes() -> impl Strategy<Value = Hex> {
        (any::<u8>(), prop::collection::vec(any::<u8>(), 0..20)).prop_map(|(t, rest)| {
            let mut b = vec![t, ((rest.len() + 1) << 1) as u8];
            b.extend(rest);
            Hex(b)
        })
    }

    /// A value for a field whose format letter is `letter`: typed as the letter says, or any payload as
    /// the reader decodes it (raw when it does not fit the letter).
    fn value(letter: Option<u8>, enc: LengthEncoding, depth: u32) -> BoxedStrategy<Value> {
        // Mostly short payloads; some around 127 bytes, where lengths move to the 4-byte form.
        let payload = prop_oneof![4 => prop::collection::vec(any::<u8>(), 0..12), 1 => prop::collection::vec(any::<u8>(), 120..136)];
        let decoded = payload.prop_map(move |p| decode_value(Reader::new("ei-db", &p), letter, enc)).boxed();
        let finite = any::<u32>().prop_map(f32::from_bits).prop_filter("finite", |f| f.is_finite());
        let typed = match letter {
            Some(b'S') => cp1251_text(10).prop_map(Value::String).boxed(),
            Some(b'I') => any::<i32>().prop_map(Value::Int).boxed(),
            Some(b'U') => any::<u32>().prop_map(Value::Uint).boxed(),
            Some(b'T') => any::<i32>().prop_map(Value::Time).boxed(),
            Some(b'F') => finite.prop_map(Value::Float).boxed(),
            Some(b'f') => prop::collection::vec(finite, 0..4).prop_map(Value::Floats).boxed(),
            Some(b'X') => prop::collection::vec(any::<u8>(), 0..3)
                .prop_map(|b| {
                    Value::Bits(
                        b.iter().flat_map(|&x| (0..8).map(move |i| if x >> i & 1 == 1 { '1' } else { '0' })).collect(),
                    )
                })
                .boxed(),
            Some(b'b') => prop::collection::vec(any::<bool>(), 0..5).prop_map(Value::Bools).boxed(),
            Some(b's') if depth < 2 => {
                prop::collection::vec(field_for(Some(b'S'), enc, depth + 1), 0..3).prop_map(Value::Strings).boxed()
            }
            Some(c @ b'1'..=b'3') if depth < 2 => {
                fields(composite_format(c), enc, depth + 1).prop_map(Value::Record).boxed()
            }
            Some(c @ b'4'..=b'5') if depth < 2 => {
                prop::collection::vec(record(composite_format(c), enc, depth + 1), 0..3)
                    .prop_map(Value::Records)
                    .boxed()
            }
            _ => return decoded,
        };
        prop_oneof![3 => typed, 1 => decoded].boxed()
    }

    fn field_for(letter: Option<u8>, enc: LengthEncoding, depth: u32) -> BoxedStrategy<Field> {
        (any::<u8>(), any::<bool>(), value(letter, enc, depth))
            .prop_map(|(type_byte, long, value)| Field { type_byte, long, value })
            .boxed()
    }

    /// Fields of a record laid out by `format`: type bytes index it (and sometimes lie past it).
    fn fields(format: Option<&'static str>, enc: LengthEncoding, depth: u32) -> BoxedStrategy<Vec<Field>> {
        let n = format.map_or(0, str::len) as u8;
        prop::collection::vec((0..=n.saturating_add(2), any::<bool>()), 0..5)
            .prop_flat_map(move |idx| {
                idx.into_iter()
                    .map(|(i, long)| {
                        let letter = format.and_then(|f| f.as_bytes().get(usize::from(i)).copied());
                        value(letter, enc, depth).prop_map(move |value| Field { type_byte: i, long, value })
                    })
                    .collect::<Vec<_>>()
            })
            .boxed()
    }

    fn record(format: Option<&'static str>, enc: LengthEncoding, depth: u32) -> BoxedStrategy<Record> {
        let body = prop_oneof![
            4 => fields(format, enc, depth).prop_map(RecordBody::Fields),
            1 => not_nodes().prop_map(RecordBody::Data),
        ];
        (any::<u8>(), any::<bool>(), body).prop_map(|(type_byte, long, body)| Record { type_byte, long, body }).boxed()
    }

    fn table(ft: FileType, enc: LengthEncoding) -> impl Strategy<Value = Table> {
        // Table numbers of the file type, and sometimes one it does not have.
        let count = ft.tables().len() as u8;
        (0..=count + 1, any::<bool>()).prop_flat_map(move |(type_byte, long)| {
            let format = ft.table(type_byte).map(|l| l.format);
            let body = prop_oneof![
                4 => prop::collection::vec(record(format, enc, 0), 0..4).prop_map(TableBody::Records),
                1 => not_nodes().prop_map(TableBody::Data),
            ];
            body.prop_map(move |body| Table { type_byte, long, name: None, name_ru: None, layout: None, body })
        })
    }

    fn document() -> impl Strategy<Value = relic::evil_islands::db::DbDocument> {
        let mut types = FileType::KNOWN.to_vec();
        types.push(FileType::Unknown);
        (prop::sample::select(types), prop::sample::select(LengthEncoding::ALL.to_vec())).prop_flat_map(|(ft, enc)| {
            let trailer = (any::<u8>(), any::<bool>(), prop::collection::vec(any::<u8>(), 0..10))
                .prop_map(|(type_byte, long, data)| RawNode { type_byte, long, data: Hex(data) });
            (
                any::<u8>(),
                any::<bool>(),
                prop::collection::vec(table(ft, enc), 0..4),
                prop::collection::vec(trailer, 0..3),
            )
                .prop_map(move |(type_byte, long, tables, trailer)| relic::evil_islands::db::DbDocument {
                    format: "ei-db".into(),
                    file_type: ft,
                    length_encoding: enc,
                    database: Database { type_byte, long, tables },
                    trailer,
                })
        })
    }

    /// Size of a node with a `payload`-byte payload; `long` is what the reader reports afterwards (the
    /// 4-byte form of a length that fits the 1-byte form).
    fn node(payload: usize, long: &mut bool) -> usize {
        *long &= payload <= MAX_SHORT as usize;
        1 + if payload <= MAX_SHORT as usize && !*long { 1 } else { 4 } + payload
    }

    fn norm_fields(fields: &mut [Field], enc: LengthEncoding) -> usize {
        fields.iter_mut().map(|f| norm_field(f, enc)).sum()
    }

    fn norm_field(f: &mut Field, enc: LengthEncoding) -> usize {
        let payload = match &mut f.value {
            Value::Strings(items) | Value::Record(items) => norm_fields(items, enc),
            Value::Records(records) => records.iter_mut().map(|r| norm_record(r, enc)).sum(),
            other => encode_value(other, enc, "field").map_or(0, |p| p.len()),
        };
        node(payload, &mut f.long)
    }

    fn norm_record(r: &mut Record, enc: LengthEncoding) -> usize {
        let payload = match &mut r.body {
            RecordBody::Fields(fields) => norm_fields(fields, enc),
            RecordBody::Data(d) => d.0.len(),
        };
        node(payload, &mut r.long)
    }

    /// The document as the reader gives it back: `long` only where the length fits the 1-byte form, and
    /// the layout names of the tables filled in.
    fn normalised(mut doc: relic::evil_islands::db::DbDocument) -> relic::evil_islands::db::DbDocument {
        let enc = doc.length_encoding;
        let mut tables = 0;
        for t in &mut doc.database.tables {
            let payload = match &mut t.body {
                TableBody::Records(records) => records.iter_mut().map(|r| norm_record(r, enc)).sum(),
                TableBody::Data(d) => d.0.len(),
            };
            tables += node(payload, &mut t.long);
            let layout = doc.file_type.table(t.type_byte);
            t.name = layout.map(|l| l.title.to_string());
            t.name_ru = layout.map(|l| l.title_ru.to_string());
            t.layout = layout.map(|l| l.format.to_string());
        }
        node(tables, &mut doc.database.long);
        for n in &mut doc.trailer {
            node(n.data.0.len(), &mut n.long);
        }
        doc
    }

    /// A value of any kind, whatever the field's letter says, with what the writer takes but the reader
    /// may not give back as such: text with NUL, NaN floats.
    fn any_value() -> BoxedStrategy<Value> {
        let float = f32_bits().prop_map(f32::from_bits);
        let text = prop::collection::vec(prop_oneof![Just('\0'), Just('a'), Just('ж'), Just('№')], 0..6)
            .prop_map(|c| c.into_iter().collect::<String>());
        prop_oneof![
            text.clone().prop_map(Value::String),
            any::<i32>().prop_map(Value::Int),
            any::<u32>().prop_map(Value::Uint),
            float.clone().prop_map(Value::Float),
            prop::collection::vec(float, 0..3).prop_map(Value::Floats),
            prop::collection::vec(any::<i32>(), 0..3).prop_map(Value::Ints),
            any::<bool>().prop_map(Value::Bool),
            prop::collection::vec(any::<bool>(), 0..3).prop_map(Value::Bools),
            prop::collection::vec(any::<u8>(), 0..6).prop_map(|b| Value::Hex(Hex(b))),
            prop::collection::vec(any::<u8>(), 0..6).prop_map(|b| Value::Raw(Hex(b))),
            any::<i32>().prop_map(Value::Time),
            prop::collection::vec((any::<u8>(), text), 0..3).prop_map(|v| {
                Value::Strings(
                    v.into_iter().map(|(t, s)| Field { type_byte: t, long: false, value: Value::String(s) }).collect(),
                )
            }),
        ]
        .boxed()
    }

    fn any_document() -> impl Strategy<Value = relic::evil_islands::db::DbDocument> {
        let mut types = FileType::KNOWN.to_vec();
        types.push(FileType::Unknown);
        let field =
            (0u8..12, any::<bool>(), any_value()).prop_map(|(type_byte, long, value)| Field { type_byte, long, value });
        let record = (any::<u8>(), prop::collection::vec(field, 0..5)).prop_map(|(type_byte, fields)| Record {
            type_byte,
            long: false,
            body: RecordBody::Fields(fields),
        });
        let table = (1u8..4, prop::collection::vec(record, 0..3)).prop_map(|(type_byte, records)| Table {
            type_byte,
            long: false,
            name: None,
            name_ru: None,
            layout: None,
            body: TableBody::Records(records),
        });
        (
            prop::sample::select(types),
            prop::sample::select(LengthEncoding::ALL.to_vec()),
            prop::collection::vec(table, 0..3),
        )
            .prop_map(|(file_type, length_encoding, tables)| relic::evil_islands::db::DbDocument {
                format: "ei-db".into(),
                file_type,
                length_encoding,
                database: Database { type_byte: 1, long: false, tables },
                trailer: vec![],
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(CASES))]

        /// Any document the writer takes — values of any kind in any field, even ones the reader keeps
        /// raw (a string with a NUL, a NaN float, an int where the layout says string) — is written so that
        /// reading it gives a document that writes the very same bytes: the reader's form is a fixed point.
        #[test]
        fn db_any_document_written_reads_back_to_the_same_bytes(doc in any_document()) {
            let Ok(bytes) = relic::evil_islands::db::write_document(&doc) else { return Ok(()) };
            let back = parse_with(&bytes, doc.file_type, doc.length_encoding).map_err(fail)?;
            same_bytes(&relic::evil_islands::db::write_document(&back).map_err(fail)?, &bytes, "written again")?;
            let again = parse_with(&bytes, doc.file_type, doc.length_encoding).map_err(fail)?;
            prop_assert_eq!(again, back);
        }

        /// Documents with every length form, data bodies, trailers and raw payloads write and read back as
        /// they were (up to `long` on lengths that need the 4-byte form anyway), through the codec the file
        /// name selects.
        #[test]
        fn db_documents_round_trip(doc in document()) {
            // What identification would not take for a database, the writer refuses at its field.
            let db = &doc.database;
            if db.tables.first().is_some_and(|t| t.type_byte == 0) {
                let err = relic::evil_islands::db::write_document(&doc).unwrap_err();
                prop_assert_eq!(err.field(), Some("database.tables[0].type_byte"));
                return Ok(());
            }
            if db.tables.is_empty() && db.type_byte == 0 && !doc.trailer.is_empty() {
                let err = relic::evil_islands::db::write_document(&doc).unwrap_err();
                prop_assert_eq!(err.field(), Some("trailer"));
                return Ok(());
            }
            let bytes = relic::evil_islands::db::write_document(&doc).map_err(fail)?;
            let back = parse_with(&bytes, doc.file_type, doc.length_encoding).map_err(fail)?;
            prop_assert_eq!(&back, &normalised(doc.clone()));
            same_bytes(&relic::evil_islands::db::write_document(&back).map_err(fail)?, &bytes, "written again")?;
            // The codec reads u32-le first; a bytes-be file that also parses that way still writes back
            // byte for byte from that reading.
            match file_name(doc.file_type) {
                Some(name) => json_round_trip("ei-db", name, &bytes)?,
                // A DB whose name says no file type is read with the format's own codec (fields raw).
                None => codec_round_trip(&relic::evil_islands::db::FORMAT, &bytes)?,
            }
        }
    }
}

// =========================================================================================================
// ei-mob: every node type of the spec's table

mod mob_props {
    use super::*;
    use relic::evil_islands::mob::table::{lookup, Kind, NODE_TYPES};
    use relic::evil_islands::mob::types::{Area, CpString, Script, StringItem, UnitStats, F32, UNIT_STATS_SIZE};
    use relic::evil_islands::mob::{parse, write, Mob, Node, Value};

    const MAX_DEPTH: u32 = 3;

    fn text() -> impl Strategy<Value = CpString> {
        prop::collection::vec(any::<u8>(), 0..24).prop_map(|b| CpString::new(decode(CP1251, &b)))
    }

    fn f() -> impl Strategy<Value = F32> {
        f32_bits().prop_map(|b| F32(f32::from_bits(b)))
    }

    /// Payload bytes whose length is none of `sizes`, kept as hex by the reader.
    fn misfit(range: std::ops::Range<usize>, sizes: &'static [usize]) -> BoxedStrategy<Value> {
        prop::collection::vec(any::<u8>(), range)
            .prop_filter("fits its type", move |b| !sizes.contains(&b.len()))
            .prop_map(|b| Value::Hex(Hex(b)))
            .boxed()
    }

    fn unit_stats() -> impl Strategy<Value = UnitStats> {
        prop::collection::vec(any::<u8>(), UNIT_STATS_SIZE).prop_map(|b| {
            let mut node = 0xBBBB_0004u32.to_le_bytes().to_vec();
            node.extend((8 + UNIT_STATS_SIZE as u32).to_le_bytes());
            node.extend(b);
            match parse(&node).ok().and_then(|m| m.nodes.into_iter().next()).map(|n| n.value) {
                Some(Value::UnitStats(s)) => *s,
                other => panic!("172 bytes did not read as UnitStats: {other:?}"),
            }
        })
    }

    /// A value of the kind the table gives `type_id`, or a payload that does not fit it.
    fn value(type_id: u32, kind: Option<Kind>, depth: u32) -> BoxedStrategy<Value> {
        let hex_any = prop::collection::vec(any::<u8>(), 0..24).prop_map(|b| Value::Hex(Hex(b))).boxed();
        let Some(kind) = kind else { return hex_any };
        let typed = match kind {
            Kind::Record if depth < MAX_DEPTH => {
                prop::collection::vec(node(depth + 1), 0..4).prop_map(Value::Record).boxed()
            }
            Kind::Record => Just(Value::Record(vec![])).boxed(),
            Kind::Null => Just(Value::Null).boxed(),
            Kind::Byte => any::<u8>().prop_map(Value::Byte).boxed(),
            Kind::Dword => any::<u32>().prop_map(Value::Dword).boxed(),
            Kind::Float => f().prop_map(Value::Float).boxed(),
            Kind::String => text().prop_map(Value::String).boxed(),
            Kind::StringArray => prop::collection::vec((prop::option::weighted(0.2, any::<u32>()), text()), 0..4)
                .prop_map(move |items| {
                    Value::StringArray(
                        items
                            .into_iter()
                            .map(|(t, text)| StringItem { type_id: t.filter(|&t| t != type_id), text })
                            .collect(),
                    )
                })
                .boxed(),
            Kind::StringEncrypted => {
                (any::<u32>(), text()).prop_map(|(key, text)| Value::Script(Script { key, text })).boxed()
            }
            Kind::Plot => prop::array::uniform3(f()).prop_map(Value::Plot).boxed(),
            Kind::Quaternion => prop::array::uniform4(f()).prop_map(Value::Quaternion).boxed(),
            Kind::Rectangle => any::<[u32; 4]>().prop_map(Value::Rectangle).boxed(),
            Kind::LeverStats => any::<[i32; 3]>().prop_map(Value::LeverStats).boxed(),
            Kind::UnitStats => unit_stats().prop_map(|s| Value::UnitStats(Box::new(s))).boxed(),
            Kind::Diplomacy => {
                prop::collection::vec(prop::collection::vec(any::<u32>(), 32), 32).prop_map(Value::Diplomacy).boxed()
            }
            Kind::AreaArray => prop::collection::vec((f(), f(), f()), 0..4)
                .prop_map(|v| Value::AreaArray(v.into_iter().map(|(x, y, r)| Area { x, y, r }).collect()))
                .boxed(),
            Kind::Plot2DArray => {
                prop::collection::vec(prop::array::uniform2(f()), 0..4).prop_map(Value::Plot2DArray).boxed()
            }
            Kind::AiGraph | Kind::Unknown => return hex_any,
        };
        // Payloads the reader cannot take as the kind: too short for a node header, a count, a key; the
        // wrong size for fixed kinds. (Strings take any bytes.)
        let misfit = match kind {
            Kind::Record => misfit(1..8, &[]),
            Kind::Null => misfit(1..6, &[]),
            Kind::Byte => misfit(0..6, &[1]),
            Kind::Dword | Kind::Float => misfit(0..9, &[4]),
            Kind::StringArray | Kind::StringEncrypted | Kind::AreaArray | Kind::Plot2DArray => misfit(0..4, &[]),
            Kind::Plot | Kind::LeverStats => misfit(0..20, &[12]),
            Kind::Quaternion | Kind::Rectangle => misfit(0..20, &[16]),
            Kind::UnitStats | Kind::Diplomacy => misfit(0..24, &[]),
            Kind::String | Kind::AiGraph | Kind::Unknown => return typed,
        };
        prop_oneof![4 => typed, 1 => misfit].boxed()
    }

    /// A node of any type id in the spec's table, or of an id it does not list.
    fn node(depth: u32) -> BoxedStrategy<Node> {
        let listed: Vec<u32> = NODE_TYPES.iter().map(|t| t.0).collect();
        let id = prop_oneof![
            6 => prop::sample::select(listed),
            1 => any::<u32>().prop_filter("listed", |&t| lookup(t).is_none()),
        ];
        id.prop_flat_map(move |type_id| {
            value(type_id, lookup(type_id).map(|(k, _)| k), depth).prop_map(move |value| Node { type_id, value })
        })
        .boxed()
    }

    /// A node whose value is of any kind, whatever its type id says (the writer writes what it is given).
    fn mismatched_node(depth: u32) -> BoxedStrategy<Node> {
        let listed: Vec<u32> = NODE_TYPES.iter().map(|t| t.0).collect();
        let kinds: Vec<Kind> = NODE_TYPES.iter().map(|t| t.1).collect();
        (prop::sample::select(listed), prop::sample::select(kinds))
            .prop_flat_map(move |(type_id, kind)| {
                value(type_id, Some(kind), depth + 1).prop_map(move |value| Node { type_id, value })
            })
            .boxed()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(CASES))]

        /// Any tree the writer takes — values of another kind than their type id says — is written so that
        /// reading it gives a tree that writes the very same bytes: the reader's form is a fixed point.
        #[test]
        fn mob_any_tree_written_reads_back_to_the_same_bytes(nodes in prop::collection::vec(mismatched_node(0), 1..4)) {
            let Ok(bytes) = write(&Mob { nodes }) else { return Ok(()) };
            let back = parse(&bytes).map_err(fail)?;
            same_bytes(&write(&back).map_err(fail)?, &bytes, "written again")?;
            json_round_trip("ei-mob", "level.mob", &bytes)?;
        }

        /// Trees of every node type (payloads that do not fit their type kept as hex) read back as written,
        /// the script enciphered and deciphered with its key.
        #[test]
        fn mob_trees_of_every_type_round_trip(nodes in prop::collection::vec(node(0), 1..4)) {
            let mob = Mob { nodes };
            let bytes = write(&mob).map_err(fail)?;
            prop_assert_eq!(&parse(&bytes).map_err(fail)?, &mob);
            json_round_trip("ei-mob", "level.mob", &bytes)?;
        }
    }
}

// =========================================================================================================
// ro-grf: documents of any layout, and Korean names packed

mod grf_props {
    use super::*;
    use relic::ragnarok::grf::types::{
        GrfDocumentEntry, GrfTableDocument, Layout, StoredCipher, DEFAULT_KEY, FLAG_ENCRYPT_HEADER, FLAG_ENCRYPT_MIXED,
        FLAG_FILE, HEADER_SIZE,
    };
    use relic::ragnarok::grf::write::{encode_name, table_bytes};
    use relic::ragnarok::grf::{
        convert, parse, write_archive_bytes, write_document, GrfDocument, GrfHeader, GrfRecord,
    };
    use relic::ragnarok::grf::{PackInput, PackSource};

    /// A name as CP949 bytes without NUL: Korean and ASCII text, or bytes CP949 does not give back.
    fn name() -> impl Strategy<Value = Vec<u8>> {
        let chars = prop_oneof![
            3 => prop::char::range('a', 'z'),
            3 => prop::char::range('가', '힣'),
            1 => prop::sample::select(vec!['\\', '.', ' ', 'A', 'Z', '_']),
        ];
        prop_oneof![
            4 => prop::collection::vec(chars, 1..10)
                .prop_map(|c| encode(CP949, &c.into_iter().collect::<String>()).unwrap_or_default()),
            1 => prop::collection::vec(1u8..=255, 1..10),
        ]
    }

    /// Entry flags: files (some flagged DES-encrypted) and folder records.
    fn flags() -> impl Strategy<Value = u8> {
        prop::sample::select(vec![
            FLAG_FILE,
            FLAG_FILE,
            FLAG_FILE,
            FLAG_FILE | FLAG_ENCRYPT_MIXED,
            FLAG_FILE | FLAG_ENCRYPT_HEADER,
            0,
            FLAG_ENCRYPT_MIXED,
        ])
    }

    /// Name, flags, stored bytes, real size, slack after the aligned size, sharing, folder offset.
    type Plan = (Vec<u8>, u8, Vec<u8>, u32, u32, Option<Index>, u32);

    pub fn document() -> impl Strategy<Value = (GrfDocument, Vec<Vec<u8>>)> {
        (0usize..7)
            .prop_flat_map(|n| {
                let entry = (
                    name(),
                    flags(),
                    prop::collection::vec(any::<u8>(), 0..40),
                    any::<u32>(),
                    0u32..9,
                    prop::option::weighted(0.3, any::<Index>()),
                    any::<u32>(),
                );
                (
                    prop::collection::vec(entry, n),
                    permutation(n),
                    prop::collection::vec(padding(), n + 2),
                    (any::<[u8; 15]>(), 0u32..1000, 0u32..10),
                    prop::option::of(prop::collection::vec(any::<u8>(), 1..8)),
                    prop::sample::select(vec![0x200u32, 0x200, 0x300, 0x103, 0x102]),
                )
            })
            .prop_map(|(plan, order, pads, (key, seed, level), trailing, version)| {
                build(plan, &order, &pads, (key, seed, level, version), trailing)
            })
    }

    fn build(
        plan: Vec<Plan>,
        order: &[usize],
        pads: &[Vec<u8>],
        (key, seed, level, version): ([u8; 15], u32, u32, u32),
        trailing: Option<Vec<u8>>,
    ) -> (GrfDocument, Vec<Vec<u8>>) {
        let layout = Layout::of(version).unwrap();
        let n = plan.len();
        let is_file = |i: usize| plan[i].1 & FLAG_FILE != 0;
        // Files may share an earlier file's bytes; folder records hold none.
        let shares: Vec<Option<usize>> = plan
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let files: Vec<usize> = (0..i).filter(|&j| is_file(j)).collect();
                p.5.as_ref().filter(|_| is_file(i) && !files.is_empty()).map(|ix| files[ix.index(files.len())])
            })
            .collect();
        let mut gaps = Vec::new();
        let mut pos = HEADER_SIZE as u64;
        let mut records: Vec<GrfRecord> = plan
            .iter()
            .map(|p| GrfRecord {
                compressed_size: p.2.len() as u32,
                aligned_size: (p.2.len() as u32).div_ceil(8) * 8 + p.4 * 8 * u32::from(p.4 > 6),
                real_size: p.3,
                flags: p.1,
                offset: u64::from(p.6),
            })
            .collect();
        let ciphers: Vec<_> = (0..n).map(|i| records[i].cipher(layout, &plan[i].0)).collect();
        // DES reads whole blocks: an enciphered entry's stored bytes run to its aligned size (zeros here).
        let mut content: Vec<Vec<u8>> = (0..n)
            .map(|i| {
                let mut c = if is_file(i) { plan[i].2.clone() } else { vec![] };
                if ciphers[i].is_some() {
                    c.resize(records[i].stored_len(true) as usize, 0);
                }
                c
            })
            .collect();
        for (k, &i) in order.iter().filter(|&&i| is_file(i) && shares[i].is_none()).enumerate() {
            place_pad(&pads[k], &mut pos, &mut gaps);
            records[i].offset = pos - HEADER_SIZE as u64;
            pos += content[i].len() as u64;
        }
        for i in 0..n {
            if let Some(j) = shares[i] {
                records[i] = GrfRecord { real_size: plan[i].3, ..records[j] };
                content[i] = content[j].clone();
            }
        }
        // Shared records copy the flags, so a 0x200/0x300 entry's cipher follows its source.
        let ciphers: Vec<_> = (0..n).map(|i| records[i].cipher(layout, &plan[i].0)).collect();
        place_pad(&pads[n], &mut pos, &mut gaps);
        let table_offset = pos - HEADER_SIZE as u64;
        let rows = (0..n).map(|i| (plan[i].0.as_slice(), None, records[i]));
        let table = table_bytes(layout, rows, trailing.as_deref().unwrap_or(&[])).unwrap();
        let packed = relic::codec::zlib::compress(&table, level);
        match layout {
            // A 1.x table runs to the end of the file.
            Layout::V1 => pos += table.len() as u64,
            Layout::V2 => pos += 8 + packed.len() as u64,
            Layout::V3 => pos += 12 + packed.len() as u64,
        }
        if layout != Layout::V1 {
            place_pad(&pads[n + 1], &mut pos, &mut gaps);
        }
        let entries = (0..n)
            .map(|i| {
                let (text, exact) = decode_exact(CP949, &plan[i].0);
                let rec = records[i];
                let len = rec.stored_len(ciphers[i].is_some());
                let same_as = if rec.is_file() {
                    (0..i).find(|&k| {
                        records[k].is_file()
                            && (records[k].offset, records[k].stored_len(ciphers[k].is_some())) == (rec.offset, len)
                    })
                } else {
                    None
                };
                GrfDocumentEntry {
                    name: text,
                    name_bytes: (!exact).then(|| Base64(plan[i].0.clone())),
                    name_field: None,
                    record: rec,
                    cipher: ciphers[i].map(StoredCipher::of),
                    data: (rec.is_file() && same_as.is_none()).then(|| Base64(content[i].clone())),
                    same_as,
                }
            })
            .collect();
        let (seed, raw_count) = if layout == Layout::V3 { (0, n as u32) } else { (seed, n as u32 + seed + 7) };
        let doc = GrfDocument {
            format: "ro-grf".into(),
            header: GrfHeader { key, table_offset, seed, raw_count, version },
            file_size: pos,
            table: GrfTableDocument { packed: (layout != Layout::V1).then_some(Base64(packed)), reserved: None },
            entries,
            table_trailing: trailing.map(Base64),
            gaps,
        };
        (doc, content)
    }

    /// A path of Korean and ASCII folder and file names.
    fn korean_path() -> impl Strategy<Value = String> {
        let part = prop::collection::vec(prop_oneof![prop::char::range('가', '힣'), prop::char::range('a', 'f')], 1..5)
            .prop_map(|c| c.into_iter().collect::<String>());
        prop::collection::vec(part, 1..4).prop_map(|p| p.join("/"))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(CASES))]

        /// Documents of any layout write and read back as they were; every file entry holds its bytes.
        #[test]
        fn grf_documents_round_trip((doc, content) in document()) {
            let bytes = write_document(&doc).map_err(fail)?;
            let grf = parse(&bytes).map_err(fail)?;
            prop_assert_eq!(&convert::to_document(&grf), &doc);
            for (i, c) in content.iter().enumerate() {
                prop_assert_eq!(grf.stored(i), &c[..]);
            }
            json_round_trip("ro-grf", "data.grf", &bytes)?;
        }

        /// A document with one part moved (a gap, an entry's data, the table) so that it may claim bytes
        /// another part holds is either refused or written as it says: never silently another document.
        #[test]
        fn grf_documents_with_moved_parts_are_refused_or_kept(
            (doc, _) in document(),
            part in 0u8..3,
            at in any::<Index>(),
            which in any::<Index>(),
            bytes in prop::collection::vec(any::<u8>(), 1..6),
        ) {
            let mut doc = doc;
            let size = doc.file_size as usize + 1;
            let n = doc.entries.len();
            match part {
                0 => doc.gaps.push(Gap { offset: at.index(size) as u64, bytes: Base64(bytes) }),
                1 if n > 0 => doc.entries[which.index(n)].record.offset = at.index(size) as u64,
                2 => doc.header.table_offset = at.index(size) as u64,
                _ => {}
            }
            let Ok(out) = write_document(&doc) else { return Ok(()) };
            let grf = parse(&out).map_err(fail)?;
            prop_assert_eq!(grf.header, doc.header);
            prop_assert_eq!(&grf.table_trailing, &doc.table_trailing.as_ref().map_or(vec![], |t| t.0.clone()));
            for (i, e) in doc.entries.iter().enumerate() {
                prop_assert_eq!(grf.entries[i].record, e.record);
                prop_assert_eq!(&grf.entries[i].name, &e.name);
                let data = e.data.as_ref().or_else(|| e.same_as.and_then(|j| doc.entries[j].data.as_ref()));
                if e.record.is_file() {
                    prop_assert_eq!(Some(grf.stored(i)), data.map(|d| &d.0[..]), "entries[{}]", i);
                }
            }
            for g in &doc.gaps {
                prop_assert_eq!(out.get(g.offset as usize..g.offset as usize + g.bytes.0.len()), Some(&g.bytes.0[..]));
            }
        }

        /// Files with Korean names packed into a new archive read back, found by name in either case and
        /// slash direction.
        #[test]
        fn grf_korean_names_pack_and_read_back(
            files in prop::collection::btree_map(korean_path(), prop::collection::vec(any::<u8>(), 0..300), 0..6),
            version in prop::sample::select(relic::ragnarok::grf::types::WRITE_VERSIONS.to_vec()),
        ) {
            // Names that differ only in ASCII case are the same entry to the game: keep one.
            let mut seen = std::collections::BTreeSet::new();
            let files: Vec<(String, Vec<u8>)> =
                files.into_iter().filter(|(n, _)| seen.insert(n.to_ascii_lowercase())).collect();
            let inputs = files
                .iter()
                .map(|(n, d)| Ok(PackInput { name: encode_name(n)?, source: PackSource::Bytes(d.clone()) }))
                .collect::<relic::Result<Vec<_>>>()
                .map_err(fail)?;
            let bytes = write_archive_bytes(inputs, version).map_err(fail)?;
            let grf = parse(&bytes).map_err(fail)?;
            prop_assert_eq!(grf.len(), files.len());
            prop_assert_eq!(grf.header.key, DEFAULT_KEY);
            for (n, data) in &files {
                let i = grf.find_ci(&n.to_ascii_uppercase()).ok_or_else(|| fail(format!("{n} not found")))?;
                prop_assert_eq!(&grf.entries[i].name, &n.replace('/', "\\"));
                prop_assert!(grf.entries[i].name_exact);
                prop_assert_eq!(&grf.read_entry(i).map_err(fail)?[..], &data[..]);
            }
            json_round_trip("ro-grf", "data.grf", &bytes)?;
        }
    }
}

// =========================================================================================================
// ro-rsm: Korean names, through the codec

mod rsm_props {
    use super::*;
    use relic::ragnarok::rsm::read::name_from_bytes;
    use relic::ragnarok::rsm::{parse, write, Face, Mesh, Name, RotationKey, Rsm, TexVertex, Version};

    /// A name: Korean and ASCII text (up to the 40 bytes of a fixed field, filled to the last byte), or any
    /// bytes (junk after a NUL, bytes CP949 does not give back) as the reader names them.
    fn name(fixed: bool) -> BoxedStrategy<Name> {
        let chars = prop_oneof![prop::char::range('가', '힣'), prop::char::range('a', 'z'), Just('\\'), Just('.')];
        let max = if fixed { 20 } else { 30 };
        prop_oneof![
            3 => prop::collection::vec(chars, 0..=max).prop_map(|c| Name::new(c.into_iter().collect::<String>())),
            1 => prop::collection::vec(prop_oneof![Just('가'), Just('힣')], 20).prop_map(|c| Name::new(c.into_iter().collect::<String>())),
            1 => prop::collection::vec(any::<u8>(), if fixed { 40..=40 } else { 0..=20 })
                .prop_map(move |raw| name_from_bytes(&raw, fixed)),
        ]
        .prop_filter("fits a fixed field", move |n| {
            n.raw.is_some() || relic::ragnarok::rsm::read::encode_text(&n.text, fixed).is_some()
        })
        .boxed()
    }

    fn mesh(v: Version, names: Vec<Name>) -> impl Strategy<Value = Mesh> {
        let fixed = !v.is_rsm2();
        (
            name(fixed),
            prop::sample::select(names),
            prop::collection::vec(name(fixed), 0..3),
            prop::collection::vec(prop::array::uniform3(f32_bits()), 0..4),
            prop::collection::vec((any::<u32>(), prop::array::uniform2(f32_bits())), 0..4),
            prop::collection::vec(any::<([u16; 8], i32)>(), 0..4),
            prop::collection::vec((any::<i32>(), prop::array::uniform4(f32_bits())), 0..3),
        )
            .prop_map(move |(name, parent, textures, verts, tverts, faces, keys)| {
                let bits = |b: [u32; 3]| b.map(f32::from_bits);
                let mut m = Mesh::new(v, "");
                m.name = name;
                m.parent_name = parent;
                if v.has_mesh_textures() {
                    m.textures = textures;
                } else {
                    m.texture_indices = (0..textures.len() as i32).collect();
                }
                m.vertices = verts.into_iter().map(bits).collect();
                m.tex_vertices = tverts
                    .into_iter()
                    .map(|(c, uv)| TexVertex { color: v.has_vertex_colors().then_some(c), uv: uv.map(f32::from_bits) })
                    .collect();
                m.faces = faces
                    .into_iter()
                    .map(|(u, two_sided)| Face {
                        vertices: [u[0], u[1], u[2]],
                        tex_vertices: [u[3], u[4], u[5]],
                        texture: u[6],
                        padding: u[7],
                        two_sided,
                        smooth_groups: if v.has_smooth_groups() { vec![two_sided] } else { vec![] },
                    })
                    .collect();
                m.rotation_keys = keys
                    .into_iter()
                    .map(|(frame, q)| RotationKey { frame, quaternion: q.map(f32::from_bits) })
                    .collect();
                m
            })
    }

    fn model() -> impl Strategy<Value = Rsm> {
        let versions = vec![(1u8, 1u8), (1, 2), (1, 3), (1, 4), (1, 5), (2, 2), (2, 3)];
        prop::sample::select(versions)
            .prop_flat_map(|(major, minor)| {
                let v = Version::new(major, minor);
                let fixed = !v.is_rsm2();
                (Just(v), prop::collection::vec(name(fixed), 1..4), prop::collection::vec(name(fixed), 0..3))
            })
            .prop_flat_map(|(v, mesh_names, textures)| {
                // Parents name other meshes (or nothing), as real models do.
                let mut parents = mesh_names.clone();
                parents.push(Name::default());
                let meshes: Vec<_> = mesh_names.iter().map(|_| mesh(v, parents.clone())).collect();
                (Just(v), Just(mesh_names), Just(textures), meshes)
            })
            .prop_map(|(v, mesh_names, textures, mut meshes)| {
                let mut rsm = Rsm::new(v);
                for (m, n) in meshes.iter_mut().zip(&mesh_names) {
                    m.name = n.clone();
                }
                if !v.has_mesh_textures() {
                    rsm.textures = textures;
                }
                rsm.root_names = if v.is_rsm2() {
                    mesh_names.iter().take(2).cloned().collect()
                } else {
                    vec![mesh_names[0].clone()]
                };
                rsm.meshes = meshes;
                rsm
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(CASES))]

        /// Models with Korean names (fixed fields filled to their last byte) read back as written and go
        /// through the codec's JSON byte for byte.
        #[test]
        fn rsm_models_with_korean_names_round_trip(rsm in model()) {
            let bytes = write(&rsm).map_err(fail)?;
            let back = parse(&bytes).map_err(fail)?;
            // Floats may be NaN: compare through the JSON text, which keeps their bits.
            prop_assert_eq!(serde_json::to_string(&back).map_err(fail)?, serde_json::to_string(&rsm).map_err(fail)?);
            let name = if rsm.version.is_rsm2() { "model.rsm2" } else { "model.rsm" };
            json_round_trip("ro-rsm", name, &bytes)?;
        }
    }
}
