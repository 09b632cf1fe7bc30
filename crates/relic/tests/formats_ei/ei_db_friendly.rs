//! Evil Islands databases in their friendly forms (issue 28): tables and columns named as the public DB
//! editor's descriptors name them (github.com/chemmalion/EIDBEditor `dbformat/*.txt`, written out in relic's
//! `src/evil_islands/db/columns.tsv`), the friendly JSON and the per-table CSV packed back, edits landing on
//! exactly the value edited, and type errors naming table, row, column and place.
//!
//! Fixtures are written byte by byte here from the spec's node rules (a type byte, a length `len << 1` in
//! one byte up to 127, else `(len << 1) | 1` as u32 LE; the database holds tables, tables hold records,
//! records hold fields whose type byte is the field id), independently of relic's writer.

#![cfg(feature = "fs")]

use std::path::Path;

use relic::evil_islands::db::{DbDocument, FileType};
use serde_json::{json, Value as Json};

fn node(t: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![t];
    if payload.len() <= 127 {
        out.push((payload.len() << 1) as u8);
    } else {
        out.extend_from_slice(&((payload.len() as u32) << 1 | 1).to_le_bytes());
    }
    out.extend_from_slice(payload);
    out
}

fn cat(parts: &[Vec<u8>]) -> Vec<u8> {
    parts.concat()
}

const SAMPLE: &str = "../../samples/evil_islands/items.idb";

/// The sample's bytes with the Sword's price (field 7 of a Weapons record, 2.5) set to `price`.
fn sample_with_price(price: f32) -> Vec<u8> {
    let mut bytes = std::fs::read(SAMPLE).unwrap();
    let old = [0x07, 0x08, 0x00, 0x00, 0x20, 0x40]; // field 7, length 4, 2.5f32
    let at: Vec<usize> = (0..bytes.len() - 5).filter(|&i| bytes[i..i + 6] == old).collect();
    assert_eq!(at.len(), 1, "the sample holds one price of 2.5");
    bytes[at[0] + 2..at[0] + 6].copy_from_slice(&price.to_le_bytes());
    bytes
}

fn convert(input: &Path, out: &Path, to: Option<&str>) {
    let req = relic::ops::ConvertRequest { to: to.map(String::from), ..Default::default() };
    let report = relic::ops::convert(&[input.to_path_buf()], out, &req, &relic::ops::Quiet);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
}

fn pack(input: &Path, output: &Path) -> relic::Result<Vec<u8>> {
    let _ = std::fs::remove_file(output);
    relic::ops::pack("ei-db", input, output, &Default::default())?;
    Ok(std::fs::read(output).unwrap())
}

/// Sets the cell of `column` in data row `row` (0-based) of a CSV text whose cells hold no commas or quotes.
fn set_cell(csv: &str, row: usize, column: &str, value: &str) -> String {
    let mut lines: Vec<String> = csv.lines().map(String::from).collect();
    let col = lines[0].split(',').position(|c| c == column).unwrap_or_else(|| panic!("no column {column}"));
    let mut cells: Vec<String> = lines[row + 1].split(',').map(String::from).collect();
    cells[col] = value.into();
    lines[row + 1] = cells.join(",");
    lines.join("\n") + "\n"
}

#[test]
fn spreadsheet_journey_edits_one_price() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("items.idb");
    std::fs::copy(SAMPLE, &game).unwrap();
    let out = dir.path().join("csv");
    convert(&game, &out, Some("csv"));
    let csv_path = out.join("items.idb.Weapons.csv");
    let text = std::fs::read_to_string(&csv_path).unwrap();
    assert!(text.starts_with("Name,Type,TypeID,M.Type,Unk4-0,TTI,TTI2,Price,Weight,"), "{text}");

    // Unedited: the game's file again (the CSV finds `items.idb` in the folder above it).
    let packed = dir.path().join("new.idb");
    assert_eq!(pack(&csv_path, &packed).unwrap(), std::fs::read(SAMPLE).unwrap());

    // One price edited in the spreadsheet: only its four bytes change.
    std::fs::write(&csv_path, set_cell(&text, 0, "Price", "3.75")).unwrap();
    let bytes = pack(&csv_path, &packed).unwrap();
    assert_eq!(bytes, sample_with_price(3.75));
    let db = DbDocument::read_named("items.idb", &bytes).unwrap();
    assert_eq!(db.to_bytes().unwrap(), bytes);

    // With the JSON `convert` wrote beside the CSVs, the rest of the database comes from it.
    convert(&game, &out, None);
    std::fs::remove_file(&game).unwrap();
    std::fs::write(&csv_path, set_cell(&text, 0, "Price", "12")).unwrap();
    assert_eq!(pack(&csv_path, &packed).unwrap(), sample_with_price(12.0));
}

#[test]
fn json_journey_edits_one_price() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("items.idb");
    std::fs::copy(SAMPLE, &game).unwrap();
    convert(&game, dir.path(), None);
    let json_path = dir.path().join("items.idb.json");
    let mut doc: Json = serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();
    assert_eq!(doc["form"], "tables");
    assert_eq!(doc["tables"][1]["name"], "Weapons");
    let sword = &mut doc["tables"][1]["records"][0];
    assert_eq!((&sword["Name"], &sword["Price"]), (&json!("Sword"), &json!(2.5)));
    let packed = dir.path().join("new.idb");
    assert_eq!(pack(&json_path, &packed).unwrap(), std::fs::read(SAMPLE).unwrap());
    sword["Price"] = json!(3.75);
    std::fs::write(&json_path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    assert_eq!(pack(&json_path, &packed).unwrap(), sample_with_price(3.75));
}

#[test]
fn sample_columns_are_the_descriptors() {
    let bytes = std::fs::read(SAMPLE).unwrap();
    let codec = relic::registry::by_id("ei-db").unwrap().for_name("items.idb");
    let relic::asset::Asset::Document(d) =
        codec.convert(&relic::registry::ConvertInput::new(&bytes, &Default::default())).unwrap().remove(0).asset
    else {
        panic!("a document")
    };
    // dbheaders.txt [Items] blocks 1 and 2, in dbtypes.txt's field order; the bits of a BitList(5) byte
    // past the five named ones and nothing else are relic's additions.
    assert_eq!(
        d.tables[0].columns,
        [
            "Name",
            "Type",
            "Code",
            "ID",
            "Price",
            "Weight",
            "Mana",
            "Slots",
            "Durability",
            "Skill",
            "Damage",
            "A.Piercing",
            "A.Slashing",
            "A.Bludg.",
            "A.Termal",
            "A.Chemic",
            "A.Electric",
            "A.General",
            "Unk12-0",
            "Shop 1",
            "Shop 2",
            "Shop 3",
            "Shop 4",
            "Shop 5",
            "f13[5]",
            "f13[6]",
            "f13[7]"
        ]
    );
    assert_eq!(
        d.tables[1].columns,
        [
            "Name",
            "Type",
            "TypeID",
            "M.Type",
            "Unk4-0",
            "TTI",
            "TTI2",
            "Price",
            "Weight",
            "Size",
            "Mana",
            "Slots",
            "Durability",
            "Components",
            "Shop 1",
            "Shop 2",
            "Shop 3",
            "Shop 4",
            "Shop 5",
            "Dec.",
            "Actions",
            "Unk22-0",
            "Range",
            "D.Min",
            "D.Max",
            "DP.Piercing",
            "DP.Slashing",
            "DP.Bludg.",
            "DP.Termal",
            "DP.Chemic",
            "DP.Electric",
            "DP.General",
            "Unk27-0",
            "Unk28-0",
            "Attack",
            "Defence",
            "f14[5]",
            "f14[6]",
            "f14[7]"
        ]
    );
    assert_eq!((d.tables[0].name.as_str(), d.tables[1].name.as_str()), ("Materials", "Weapons"));
    let iron = &d.value["tables"][0]["records"][0];
    assert_eq!(
        (&iron["Name"], &iron["Type"], &iron["ID"], &iron["Price"], &iron["A.Bludg."], &iron["Shop 3"]),
        (&json!("Iron"), &json!("Железо"), &json!(10), &json!(7.8), &json!(0.25), &json!(1))
    );
    // Weapons field 22 is a FloatList in the descriptor (the spec says `H`): one named element, one column.
    assert_eq!(d.value["tables"][1]["records"][0]["Unk22-0"], json!([1.0]));
}

/// Every sample database: its friendly JSON and each of its CSVs pack back byte for byte.
#[test]
fn every_sample_database_packs_back_unedited() {
    let mut seen = 0;
    for entry in std::fs::read_dir("../../samples/evil_islands").unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if FileType::from_name(&name) == FileType::Unknown {
            continue;
        }
        seen += 1;
        let original = std::fs::read(&path).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let game = dir.path().join(&name);
        std::fs::copy(&path, &game).unwrap();
        convert(&game, dir.path(), None);
        convert(&game, dir.path(), Some("csv"));
        let packed = dir.path().join("packed.bin");
        assert_eq!(pack(&dir.path().join(format!("{name}.json")), &packed).unwrap(), original, "{name} JSON");
        for csv in std::fs::read_dir(dir.path()).unwrap() {
            let csv = csv.unwrap().path();
            if csv.extension().is_some_and(|e| e == "csv") {
                assert_eq!(pack(&csv, &packed).unwrap(), original, "{}", csv.display());
            }
        }
    }
    assert_eq!(seen, 1, "sample databases");
}

// ---------------------------------------------------------------------------------------------------------
// Every table of every file type, from relic's written-out descriptor table

struct FieldLine {
    block: u8,
    id: u8,
    ty: String,
    names: Vec<(u8, String)>,
}

/// A database's lines: file type id, tables (block, name), fields.
type DbLines = (String, Vec<(u8, String)>, Vec<FieldLine>);

/// `columns.tsv` read here on its own: (file type id, tables (block, name), fields).
fn descriptor() -> Vec<DbLines> {
    let text = std::fs::read_to_string("src/evil_islands/db/columns.tsv").unwrap();
    let mut out: Vec<DbLines> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let c: Vec<&str> = line.split('\t').collect();
        match c[0] {
            "db" => out.push((c[1].into(), Vec::new(), Vec::new())),
            "table" => out.last_mut().unwrap().1.push((c[1].parse().unwrap(), c[2].into())),
            _ => out.last_mut().unwrap().2.push(FieldLine {
                block: c[1].parse().unwrap(),
                id: c[2].parse().unwrap(),
                ty: c[3].into(),
                names: c[4]
                    .split('|')
                    .filter(|s| !s.is_empty())
                    .map(|s| {
                        let (i, n) = s.split_once('=').unwrap();
                        (i.parse().unwrap(), n.to_string())
                    })
                    .collect(),
            }),
        }
    }
    out
}

fn arg(ty: &str) -> u8 {
    ty.split_once('(').unwrap().1.trim_end_matches(')').parse().unwrap()
}

/// A payload for a scalar type name.
fn scalar_payload(ty: &str) -> Vec<u8> {
    match ty.split('(').next().unwrap() {
        "String" | "FixedString" => b"ab\0".to_vec(),
        "SignedLong" => (-2i32).to_le_bytes().to_vec(),
        "UnsignedLong" => 7u32.to_le_bytes().to_vec(),
        "Float" => 0.5f32.to_le_bytes().to_vec(),
        "Byte" => vec![3],
        "Hex" => vec![0xAB, 0xCD],
        "FloatList" => cat(&[1.0f32.to_le_bytes().to_vec(), 2.0f32.to_le_bytes().to_vec()]),
        "ByteList" => vec![1, 2],
        "BitList" => vec![0x05],
        "StringList" | "MinfixedStringList" => cat(&[node(0, b"a\0"), node(0, b"b\0")]),
        other => panic!("{other}"),
    }
}

fn sub_payload(fields: &[FieldLine], sub: u8) -> Vec<u8> {
    cat(&fields.iter().filter(|f| f.block == sub).map(|f| node(f.id, &scalar_payload(&f.ty))).collect::<Vec<_>>())
}

fn payload(f: &FieldLine, fields: &[FieldLine]) -> Vec<u8> {
    if f.ty.starts_with("TypeList") {
        sub_payload(fields, arg(&f.ty))
    } else if f.ty.starts_with("AcksUniqueType") {
        node(0, &sub_payload(fields, arg(&f.ty)))
    } else {
        scalar_payload(&f.ty)
    }
}

/// The column names a table's fields should have, as the descriptor lines say.
fn expected_columns(block: u8, fields: &[FieldLine]) -> Vec<String> {
    let mut out: Vec<(String, u8)> = Vec::new();
    for f in fields.iter().filter(|f| f.block == block) {
        let element_list = ["FloatList", "ByteList", "BitList"].iter().any(|t| f.ty.starts_with(t));
        if f.ty.starts_with("TypeList") {
            for s in fields.iter().filter(|s| s.block == arg(&f.ty)) {
                let name = f.names.iter().find(|(i, _)| *i == s.id).map(|(_, n)| n.clone());
                out.push((name.unwrap_or(format!("f{}.{}", f.id, s.id)), f.id));
            }
        } else if element_list && f.names.len() >= 2 {
            out.extend(f.names.iter().map(|(_, n)| (n.clone(), f.id)));
        } else {
            let name = f.names.iter().find(|(i, _)| *i == 0).map(|(_, n)| n.clone());
            out.push((name.unwrap_or(format!("f{}", f.id)), f.id));
        }
    }
    let mut names: Vec<String> = Vec::new();
    for (n, id) in out {
        names.push(if names.contains(&n) { format!("{n} (f{id})") } else { n });
    }
    names
}

#[test]
fn every_described_table_is_named_and_packs_back() {
    let desc = descriptor();
    assert_eq!(desc.len(), 8);
    let mut tables_checked = 0;
    for (ft, tables, fields) in &desc {
        // One record per table holding every field the descriptor types.
        let mut table_nodes = Vec::new();
        for (block, _) in tables {
            let record = cat(&fields
                .iter()
                .filter(|f| f.block == *block)
                .map(|f| node(f.id, &payload(f, fields)))
                .collect::<Vec<_>>());
            table_nodes.push(node(*block, &node(0, &record)));
        }
        let bytes = node(1, &cat(&table_nodes));
        let name = if ft.ends_with(".db") { ft.clone() } else { format!("x.{ft}") };
        let codec = relic::registry::by_id("ei-db").unwrap().for_name(&name);
        let relic::asset::Asset::Document(d) =
            codec.convert(&relic::registry::ConvertInput::new(&bytes, &Default::default())).unwrap().remove(0).asset
        else {
            panic!("a document")
        };
        for ((block, table_name), csv) in tables.iter().zip(&d.tables) {
            assert_eq!(&csv.name, table_name, "{ft}");
            let expected = expected_columns(*block, fields);
            assert_eq!(csv.columns[..expected.len()], expected[..], "{ft} {table_name}");
            // Every value decoded under its type: no raw cell.
            assert!(csv.rows[0].iter().all(|c| !c.starts_with("raw:")), "{ft} {table_name}: {:?}", csv.rows[0]);
            tables_checked += 1;
        }
        assert!(d.value["tables"].as_array().unwrap().iter().all(|t| t["records"][0].get("~record").is_none()), "{ft}");
        assert_eq!(codec.from_json(d.value.clone(), &Default::default()).unwrap(), bytes, "{ft} JSON");
        // Each table's CSV against the file beside it.
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(&name), &bytes).unwrap();
        for t in &d.tables {
            let csv_path = dir.path().join(if d.tables.len() == 1 {
                format!("{name}.csv")
            } else {
                format!("{name}.{}.csv", t.name)
            });
            let mut text = t.columns.join(",") + "\n";
            for row in &t.rows {
                let cells: Vec<String> = row.iter().map(|c| format!("\"{}\"", c.replace('"', "\"\""))).collect();
                text += &(cells.join(",") + "\n");
            }
            std::fs::write(&csv_path, text).unwrap();
            assert_eq!(pack(&csv_path, &dir.path().join("out")).unwrap(), bytes, "{ft} {}", t.name);
        }
    }
    assert_eq!(tables_checked, 26);
}

// ---------------------------------------------------------------------------------------------------------
// Type errors

fn message(r: relic::Result<Vec<u8>>) -> String {
    let e = r.unwrap_err().to_string();
    e.split_once(": ei-db: ").map_or(e.clone(), |(_, m)| format!("ei-db: {m}"))
}

#[test]
fn csv_type_errors_name_table_row_column_and_place() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("items.idb");
    std::fs::copy(SAMPLE, &game).unwrap();
    convert(&game, dir.path(), Some("csv"));
    let csv_path = dir.path().join("items.idb.Weapons.csv");
    let text = std::fs::read_to_string(&csv_path).unwrap();
    let out = dir.path().join("out.idb");
    let cases = [
        ("Price", "cheap", r#"column "Price" (CSV line 2, column 8): expected a number (Float), found text "cheap""#),
        ("TypeID", "2.5", r#"column "TypeID" (CSV line 2, column 3): expected an integer (SignedLong), found 2.5"#),
        ("TypeID", "x", r#"column "TypeID" (CSV line 2, column 3): expected an integer (SignedLong), found text "x""#),
        ("Dec.", "256", r#"column "Dec." (CSV line 2, column 20): 256 is out of range 0…255 (Byte)"#),
        ("Shop 2", "2", r#"column "Shop 2" (CSV line 2, column 16): 2 is out of range 0…1 (BitList(5))"#),
        (
            "Unk22-0",
            "1.5",
            r#"column "Unk22-0" (CSV line 2, column 22): expected a list (FloatList) written as JSON, like [1, 2], found 1.5"#,
        ),
    ];
    for (column, value, expected) in cases {
        std::fs::write(&csv_path, set_cell(&text, 0, column, value)).unwrap();
        assert_eq!(message(pack(&csv_path, &out)), format!("ei-db: table Weapons, row 1, {expected}"));
    }
}

#[test]
fn json_type_errors_name_table_record_column_and_path() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("items.idb");
    std::fs::copy(SAMPLE, &game).unwrap();
    convert(&game, dir.path(), None);
    let json_path = dir.path().join("items.idb.json");
    let doc: Json = serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();
    let out = dir.path().join("out.idb");
    let cases = [
        (
            0,
            "ID",
            json!(1.5),
            r#"table Materials, record 0, column "ID" (`tables[0].records[0]["ID"]`): expected an integer (SignedLong), found 1.5"#,
        ),
        (
            0,
            "Price",
            json!("7"),
            r#"table Materials, record 0, column "Price" (`tables[0].records[0]["Price"]`): expected a number (Float), found text "7""#,
        ),
        (
            0,
            "Name",
            json!(5),
            r#"table Materials, record 0, column "Name" (`tables[0].records[0]["Name"]`): expected text (String), found 5"#,
        ),
        (
            1,
            "Unk22-0",
            json!([1, "a"]),
            r#"table Weapons, record 0, column "Unk22-0" (`tables[1].records[0]["Unk22-0"]`): element 1: expected a number (FloatList), found text "a""#,
        ),
        (
            1,
            "Cost",
            json!(1),
            r#"table Weapons, record 0, column "Cost" (`tables[1].records[0]["Cost"]`): table Weapons has no column "Cost""#,
        ),
    ];
    for (table, column, value, expected) in cases {
        let mut d = doc.clone();
        d["tables"][table]["records"][0][column] = value;
        std::fs::write(&json_path, serde_json::to_vec(&d).unwrap()).unwrap();
        assert_eq!(message(pack(&json_path, &out)), format!("ei-db: {expected}"));
    }
    // A float column takes an integer literal (no choice: 3 is 3.0).
    let mut d = doc.clone();
    d["tables"][1]["records"][0]["Price"] = json!(12);
    std::fs::write(&json_path, serde_json::to_vec(&d).unwrap()).unwrap();
    assert_eq!(pack(&json_path, &out).unwrap(), sample_with_price(12.0));
}

#[test]
fn csv_without_its_database_says_where_it_looked() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("sub").join("items.idb.Weapons.csv");
    std::fs::create_dir_all(csv.parent().unwrap()).unwrap();
    std::fs::write(&csv, "Name\nSword\n").unwrap();
    let e = message(pack(&csv, &dir.path().join("o.idb")));
    assert!(e.contains("packs with the rest of its database, and none is beside it"), "{e}");
    assert!(e.contains("items.idb.json") && e.contains("items.idb,"), "{e}");
}
