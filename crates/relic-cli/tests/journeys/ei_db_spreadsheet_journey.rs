//! User journey through the `relic` binary (issue #39): an Evil Islands table edited in a spreadsheet and
//! saved as spreadsheets save CSV — `;` between cells (Excel where the decimal mark is a comma), a BOM,
//! CRLF, quoted cells, a decimal comma, hex bytes turned into a number (`000000` → `0`), or tabs — packs
//! with `--base` naming the game's database elsewhere; a cell that could stand for other bytes is refused,
//! naming its row and column. The CSVs are written here as Excel writes them, not by relic.

use std::path::{Path, PathBuf};

use crate::common::relic;

fn sample() -> PathBuf {
    crate::common::samples().join("evil_islands/items.idb")
}

/// `relic convert --to csv -o out input`: the folder's CSV of `table`, read as relic wrote it (`,`).
fn convert_csv(input: &Path, out: &Path, table: &str) -> Vec<Vec<String>> {
    relic().args(["convert", "--to", "csv", "-o"]).arg(out).arg(input).assert().success();
    let stem = input.file_name().unwrap().to_string_lossy().into_owned();
    read_commas(&out.join(format!("{stem}.{table}.csv")))
}

/// A CSV relic wrote: `,` between cells, no quoted cell in the sample's tables.
fn read_commas(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(!text.contains('"'), "the sample's cells need no quotes: {text}");
    text.lines().map(|l| l.split(',').map(String::from).collect()).collect()
}

/// Rows saved as Excel saves "CSV (semicolon)" or "Text (tab delimited)": a UTF-8 BOM, CRLF after every
/// line, a cell quoted when it holds the delimiter or a quote (quotes doubled).
fn excel_csv(rows: &[Vec<String>], delimiter: char) -> Vec<u8> {
    let mut text = String::from("\u{feff}");
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .map(|c| {
                if c.contains(delimiter) || c.contains('"') {
                    format!("\"{}\"", c.replace('"', "\"\""))
                } else {
                    c.clone()
                }
            })
            .collect();
        text.push_str(&cells.join(&delimiter.to_string()));
        text.push_str("\r\n");
    }
    text.into_bytes()
}

fn column(rows: &[Vec<String>], name: &str) -> usize {
    rows[0].iter().position(|c| c == name).unwrap_or_else(|| panic!("no column {name}: {:?}", rows[0]))
}

/// `relic pack ei-db -o output csv [args]`: (exit code, stderr).
fn pack(csv: &Path, output: &Path, args: &[&str]) -> (i32, String) {
    let run = relic().args(["pack", "ei-db", "-o"]).arg(output).args(args).arg(csv).assert();
    let out = run.get_output();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_table_saved_by_a_spreadsheet_packs_with_base_and_converts_back_with_the_edit() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game/items.idb");
    std::fs::create_dir_all(game.parent().unwrap()).unwrap();
    std::fs::copy(sample(), &game).unwrap();
    let sheets = dir.path().join("sheets");
    let rows = convert_csv(&game, &sheets, "Weapons");
    let materials = std::fs::read(sheets.join("items.idb.Materials.csv")).unwrap();
    assert_eq!(rows[1][column(&rows, "Name")], "Sword");
    assert_eq!(rows[1][column(&rows, "Price")], "2.5");
    assert_eq!(rows[1][column(&rows, "Unk27-0")], "");

    // Saved as Excel saves it in a German locale, named after its table alone, far from the game's file.
    let mut edited = rows.clone();
    edited[1][column(&rows, "Name")] = "Sword; sharp".into();
    edited[1][column(&rows, "Price")] = "3,75".into();
    edited[1][column(&rows, "Unk27-0")] = "000000".into();
    let saved = dir.path().join("desktop/Weapons.csv");
    std::fs::create_dir_all(saved.parent().unwrap()).unwrap();
    let bytes = excel_csv(&edited, ';');
    assert!(bytes.starts_with(b"\xEF\xBB\xBFName;Type;TypeID;") && bytes.ends_with(b"\r\n"));
    assert!(String::from_utf8_lossy(&bytes).contains("\r\n\"Sword; sharp\";"), "a quoted cell");
    std::fs::write(&saved, &bytes).unwrap();

    // Without --base, nothing beside the CSV: refused, saying where it looked.
    let first = dir.path().join("first.idb");
    let (code, err) = pack(&saved, &first, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("packs with the rest of its database, and none is beside it"), "{err}");
    assert!(!first.exists());

    let base = game.to_string_lossy().into_owned();
    let (code, err) = pack(&saved, &first, &["--base", &base]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(&format!("note: the rest of the database comes from {base}\n")), "{err}");
    assert!(err.contains("note: read the CSV of table Weapons as cells separated by semicolons (;)\n"), "{err}");

    // Converted again: the edits are there; the other table is as it was.
    let again_dir = dir.path().join("again");
    let again = convert_csv(&first, &again_dir, "Weapons");
    let mut want = rows.clone();
    want[1][column(&rows, "Name")] = "Sword; sharp".into();
    want[1][column(&rows, "Price")] = "3.75".into();
    want[1][column(&rows, "Unk27-0")] = "000000".into();
    assert_eq!(again, want);
    assert_eq!(std::fs::read(again_dir.join("first.idb.Materials.csv")).unwrap(), materials);

    // Saved again with tabs, the hex bytes now a number without their leading zeros: the same file.
    let mut retyped = again.clone();
    retyped[1][column(&rows, "Unk27-0")] = "0".into();
    let tabbed = dir.path().join("desktop/tabs/Weapons.csv");
    std::fs::create_dir_all(tabbed.parent().unwrap()).unwrap();
    std::fs::write(&tabbed, excel_csv(&retyped, '\t')).unwrap();
    let second = dir.path().join("second.idb");
    let first_name = first.to_string_lossy().into_owned();
    let (code, err) = pack(&tabbed, &second, &["--base", &first_name]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("note: read the CSV of table Weapons as cells separated by tabs\n"), "{err}");
    assert_eq!(std::fs::read(&second).unwrap(), std::fs::read(&first).unwrap());

    // Cells that could stand for other values are refused, naming row and column, and nothing is written.
    let cases = [
        (
            "Unk27-0",
            "1.5E+03",
            "ei-db: table Weapons, row 1, column \"Unk27-0\" (CSV line 2, column 33): `1.5E+03` looks like hex \
             bytes (the cell held `000000`) that a spreadsheet turned into a number, and which bytes it stands \
             for is unclear: write the cell as hex text (format the column as text before typing)",
        ),
        (
            "TypeID",
            "2,5",
            "ei-db: table Weapons, row 1, column \"TypeID\" (CSV line 2, column 3): expected an integer \
             (SignedLong), found text \"2,5\"",
        ),
    ];
    for (name, value, message) in cases {
        let mut bad = again.clone();
        bad[1][column(&rows, name)] = value.into();
        std::fs::write(&saved, excel_csv(&bad, ';')).unwrap();
        let refused = dir.path().join("refused.idb");
        let (code, err) = pack(&saved, &refused, &["--base", &first_name]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(message), "{err}");
        assert!(!refused.exists());
    }
}

#[test]
fn base_is_only_for_ei_db() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("x.png");
    std::fs::write(&png, b"").unwrap();
    let run = relic()
        .args(["pack", "ei-mmp", "--base", "items.idb", "-o"])
        .arg(dir.path().join("x.mmp"))
        .arg(&png)
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(
        err.contains(&format!("--base is for ei-db from one table's CSV, not ei-mmp from {}", png.display())),
        "{err}"
    );
    assert_eq!(run.get_output().status.code(), Some(2));
}
