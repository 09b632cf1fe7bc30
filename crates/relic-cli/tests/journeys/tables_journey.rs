//! User journeys through the `relic` binary (issue #40): tables that lose a column, layers that vanish.
//!
//! - An Evil Islands table converted to CSV, its `Name` column deleted in a spreadsheet and saved (with `;`
//!   between cells, a BOM and CRLF, as Excel saves it), packs back keeping the stored names and saying so
//!   per column; a column named twice (`Price` renamed `Name`) or unknown is refused, naming it, the file,
//!   line 1 and its column number; a new row where a column is missing has nothing to keep: refused.
//! - An ACT written here byte by byte from the ACT layout (roBrowser's `Action.js`, not relic's writer)
//!   with a layer at x = 1.5e9, one scaled by 0 and one naming a frame its sprite lacks: each reason is one
//!   note naming the layers, and the rest is drawn.

use std::path::{Path, PathBuf};

use crate::common::relic;

fn sample() -> PathBuf {
    crate::common::samples().join("evil_islands/items.idb")
}

/// (exit code, stdout, stderr) of `relic args…`.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = relic().args(args).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// The rows of a CSV relic wrote (`,` between cells, no quoted cell in the sample).
fn read_commas(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(!text.contains('"'), "the sample's cells need no quotes: {text}");
    text.lines().map(|l| l.split(',').map(String::from).collect()).collect()
}

/// Rows saved as Excel saves "CSV (semicolon)": a UTF-8 BOM, CRLF after every line (no cell of these
/// needs quotes).
fn excel_csv(rows: &[Vec<String>], delimiter: char) -> Vec<u8> {
    let mut text = String::from("\u{feff}");
    for row in rows {
        assert!(row.iter().all(|c| !c.contains(delimiter) && !c.contains('"')));
        text.push_str(&row.join(&delimiter.to_string()));
        text.push_str("\r\n");
    }
    text.into_bytes()
}

/// `rows` without column `name`, as a spreadsheet deletes it.
fn without(rows: &[Vec<String>], name: &str) -> Vec<Vec<String>> {
    let at = rows[0].iter().position(|c| c == name).unwrap();
    rows.iter().map(|r| r.iter().enumerate().filter(|(i, _)| *i != at).map(|(_, c)| c.clone()).collect()).collect()
}

/// The game's database copied to `dir/game/items.idb`, and its JSON and CSVs converted into `dir/sheets`.
fn converted(dir: &Path) -> (PathBuf, PathBuf) {
    let game = dir.join("game/items.idb");
    std::fs::create_dir_all(game.parent().unwrap()).unwrap();
    std::fs::copy(sample(), &game).unwrap();
    let sheets = dir.join("sheets");
    for to in [&[][..], &["--to", "csv"][..]] {
        let mut args = vec!["convert", "-q"];
        args.extend(to);
        let (sheets_s, game_s) = (s(&sheets), s(&game));
        args.extend(["-o", &sheets_s, &game_s]);
        let (code, _, err) = run(&args);
        assert_eq!(code, 0, "{err}");
    }
    (game, sheets)
}

const MATERIALS: &str = "Name,Type,Code,ID,Price,Weight,Mana,Slots,Durability,Skill,Damage,A.Piercing,\
A.Slashing,A.Bludg.,A.Termal,A.Chemic,A.Electric,A.General,Unk12-0,Shop 1,Shop 2,Shop 3,Shop 4,Shop 5,f13[5],f13[6],\
f13[7]";

#[test]
fn a_table_saved_without_its_name_column_keeps_the_stored_names_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let (game, sheets) = converted(dir.path());
    let csv = sheets.join("items.idb.Materials.csv");
    let rows = read_commas(&csv);
    assert_eq!(rows[0].join(","), MATERIALS);
    assert_eq!(rows[1][..5], ["Iron", "Железо", "", "10", "7.8"]);
    assert_eq!(rows[2][..5], ["Bronze", "Бронза", "", "8", "8.5"]);

    // Name deleted and Bronze's price typed with a decimal comma, saved as Excel saves CSV with `;`.
    let mut edited = without(&rows, "Name");
    assert_eq!(edited[0][3], "Price");
    edited[2][3] = "9,25".into();
    std::fs::write(&csv, excel_csv(&edited, ';')).unwrap();

    // The JSON convert wrote beside the CSV is the base: the names are kept, and a note says so.
    let packed = dir.path().join("packed.idb");
    let (code, out, err) = run(&["pack", "ei-db", "-o", &s(&packed), &s(&csv)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out + &err,
        format!(
            "note: the rest of the database comes from {}\n\
             note: read the CSV of table Materials as cells separated by semicolons (;)\n\
             note: column Name missing from {}: the stored values were kept\n\
             wrote {} ({} bytes)\n",
            sheets.join("items.idb.json").display(),
            csv.display(),
            packed.display(),
            std::fs::metadata(&packed).unwrap().len()
        )
    );

    // Converted again: the names are there, the price is the one typed, nothing else moved.
    let again = dir.path().join("again");
    let (code, _, err) = run(&["convert", "-q", "--to", "csv", "-o", &s(&again), &s(&packed)]);
    assert_eq!(code, 0, "{err}");
    let mut want = rows.clone();
    want[2][4] = "9.25".into();
    assert_eq!(read_commas(&again.join("packed.idb.Materials.csv")), want);

    // With --base naming the game's file and nothing but the column deleted: the game's bytes.
    let plain = dir.path().join("desktop/Materials.csv");
    std::fs::create_dir_all(plain.parent().unwrap()).unwrap();
    std::fs::write(&plain, excel_csv(&without(&rows, "Name"), ';')).unwrap();
    let same = dir.path().join("same.idb");
    let (code, _, err) = run(&["pack", "ei-db", "--base", &s(&game), "-o", &s(&same), &s(&plain)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(&format!("note: column Name missing from {}: the stored values were kept\n", plain.display())));
    assert_eq!(std::fs::read(&same).unwrap(), std::fs::read(&game).unwrap());

    // Two columns deleted: a note for each (Code holds empty text, which is kept as well).
    std::fs::write(&plain, excel_csv(&without(&without(&rows, "Price"), "Code"), ',')).unwrap();
    let (code, _, err) = run(&["pack", "ei-db", "--base", &s(&game), "-o", &s(&same), "--force", &s(&plain)]);
    assert_eq!(code, 0, "{err}");
    let notes: Vec<&str> = err.lines().filter(|l| l.contains("missing from")).collect();
    let note = |c: &str| format!("note: column {c} missing from {}: the stored values were kept", plain.display());
    assert_eq!(notes, [note("Code"), note("Price")]);
    assert_eq!(std::fs::read(&same).unwrap(), std::fs::read(&game).unwrap());
}

#[test]
fn a_missing_column_with_nothing_to_keep_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let (game, sheets) = converted(dir.path());
    let rows = read_commas(&sheets.join("items.idb.Materials.csv"));
    let out = dir.path().join("out.idb");

    // No base at all (neither --base, nor the game's file or its JSON beside the CSV): refused.
    let alone = dir.path().join("elsewhere/deep/items.idb.Materials.csv");
    std::fs::create_dir_all(alone.parent().unwrap()).unwrap();
    std::fs::write(&alone, excel_csv(&without(&rows, "Name"), ';')).unwrap();
    let (code, _, err) = run(&["pack", "ei-db", "-o", &s(&out), &s(&alone)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("packs with the rest of its database, and none is beside it"), "{err}");
    assert!(!out.exists());

    // A row added where the Name column is missing: the new row has no stored name to keep.
    let mut added = without(&rows, "Name");
    added.push(added[2].clone());
    std::fs::write(&alone, excel_csv(&added, ';')).unwrap();
    let (code, _, err) = run(&["pack", "ei-db", "--base", &s(&game), "-o", &s(&out), &s(&alone)]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        err,
        format!(
            "relic: {0}: ei-db: table Materials: column Name missing from {0}: the stored values would be kept, but \
             the row on line 4 is new and has none (the table holds 2 records): put the column back\n",
            alone.display()
        )
    );
    assert!(!out.exists());

    // A row deleted as well: which one's name went is unknown.
    std::fs::write(&alone, excel_csv(&without(&rows, "Name")[..2], ';')).unwrap();
    let (code, _, err) = run(&["pack", "ei-db", "--base", &s(&game), "-o", &s(&out), &s(&alone)]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        err,
        format!(
            "relic: {0}: ei-db: table Materials: column Name missing from {0}: its stored values go with the rows \
             in stored order, and the CSV has 1 row where the table holds 2: which one was deleted is unclear; put \
             the column back\n",
            alone.display()
        )
    );
    assert!(!out.exists());
}

#[test]
fn a_column_named_twice_or_unknown_is_refused_naming_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let (game, sheets) = converted(dir.path());
    let rows = read_commas(&sheets.join("items.idb.Materials.csv"));
    let csv = dir.path().join("desktop/Materials.csv");
    std::fs::create_dir_all(csv.parent().unwrap()).unwrap();
    let out = dir.path().join("out.idb");
    let cases = [
        ("Name", ';', "column \"Name\" is given twice (columns 1 and 5): each column may be given once"),
        ("f0", ',', "column \"f0\" is column 1 (\"Name\") again: each column may be given once"),
        ("Cost", ';', "table Materials has no column \"Cost\""),
    ];
    for (renamed, delimiter, message) in cases {
        let mut bad = rows.clone();
        assert_eq!(bad[0][4], "Price");
        bad[0][4] = renamed.into();
        std::fs::write(&csv, excel_csv(&bad, delimiter)).unwrap();
        let (code, _, err) = run(&["pack", "ei-db", "--base", &s(&game), "-o", &s(&out), &s(&csv)]);
        assert_eq!(code, 1, "{err}");
        assert_eq!(
            err,
            format!("relic: {0}: ei-db: table Materials: {0} line 1, column 5: {message}\n", csv.display()),
            "{renamed}"
        );
        assert!(!out.exists());
    }
}

#[test]
fn a_json_record_giving_a_column_twice_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_, sheets) = converted(dir.path());
    let json = sheets.join("items.idb.json");
    let mut doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let iron = &mut doc["tables"][0]["records"][0];
    assert_eq!(iron["Name"], "Iron");
    // `f0` is Name's field by number: one of the two would be dropped unseen.
    iron["f0"] = "Steel".into();
    std::fs::write(&json, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let out = dir.path().join("out.idb");
    let (code, _, err) = run(&["pack", "ei-db", "-o", &s(&out), &s(&json)]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(
            "ei-db: table Materials, record 0, column \"f0\" (`tables[0].records[0][\"f0\"]`): this is column \
             \"Name\" again: give each column once"
        ),
        "{err}"
    );
    assert!(!out.exists());
}

// ---------------------------------------------------------------------------------------------------------
// ACT layers that cannot be drawn

/// A version 2.0 sprite (roBrowser's `Sprite.js`): one 2×2 palette frame of index 1, then the palette
/// (1 is red).
fn spr() -> Vec<u8> {
    let mut out = b"SP\x00\x02".to_vec();
    out.extend(1u16.to_le_bytes()); // palette frames
    out.extend(0u16.to_le_bytes()); // RGBA frames
    out.extend(2u16.to_le_bytes());
    out.extend(2u16.to_le_bytes());
    out.extend([1, 1, 1, 1]);
    let mut palette = [0u8; 1024];
    palette[4..8].copy_from_slice(&[255, 0, 0, 0]);
    out.extend(palette);
    out
}

/// One layer of a 2.0 ACT: x, y, sprite index, mirror, RGBA colour, scale, rotation, kind.
fn layer(x: i32, sprite: i32, scale: f32) -> Vec<u8> {
    let mut out = Vec::new();
    for v in [x, 0, sprite, 0] {
        out.extend(v.to_le_bytes());
    }
    out.extend([255u8; 4]);
    out.extend(scale.to_le_bytes());
    out.extend(0i32.to_le_bytes());
    out.extend(0i32.to_le_bytes());
    out
}

/// A version 2.0 ACT (bytes `AC`, minor 0, major 2): one action of `motions`, each a list of layers.
fn act(motions: &[Vec<Vec<u8>>]) -> Vec<u8> {
    let mut out = b"AC\x00\x02".to_vec();
    out.extend(1u16.to_le_bytes()); // actions
    out.extend([0u8; 10]); // reserved
    out.extend((motions.len() as u32).to_le_bytes());
    for layers in motions {
        out.extend([0u8; 32]); // the two ranges
        out.extend((layers.len() as u32).to_le_bytes());
        layers.iter().for_each(|l| out.extend(l));
        out.extend((-1i32).to_le_bytes()); // no event
    }
    out
}

#[test]
fn act_layers_that_cannot_be_drawn_are_skipped_with_one_note_per_reason() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("body.act");
    let far = 1_500_000_000;
    std::fs::write(
        &input,
        act(&[
            vec![layer(0, 0, 1.0), layer(far, 0, 1.0)],
            vec![layer(0, 0, 1.0), layer(0, 7, 1.0), layer(-far, 0, 1.0), layer(0, 0, 0.0)],
            vec![layer(0, -1, 1.0), layer(0, 0, f32::NAN), layer(100, 0, 40_000.0)],
        ]),
    )
    .unwrap();
    std::fs::write(dir.path().join("body.spr"), spr()).unwrap();
    let out = dir.path().join("out");
    let (code, stdout, err) = run(&["convert", "--json", "-o", &s(&out), &s(&input)]);
    assert_eq!(code, 0, "{err}");
    let notes = [
        "2 layers of body.act skipped: offset past ±32768 px (action 0 frame 0 layer 1, action 0 frame 1 \
         layer 2)",
        "1 layer of body.act skipped: scaled past ±32768 px (action 0 frame 2 layer 2)",
        "2 layers of body.act skipped: scale 0, infinite or NaN (action 0 frame 1 layer 3, action 0 frame \
         2 layer 1)",
        "1 layer of body.act skipped: sprite frame missing from the .spr (action 0 frame 1 layer 1)",
    ];
    let manifest: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let mut warnings: Vec<String> =
        manifest["warnings"].as_array().unwrap().iter().map(|w| w.as_str().unwrap().to_string()).collect();
    warnings.sort();
    let mut want: Vec<String> = notes.iter().map(|n| format!("{}: {n}", input.display())).collect();
    want.sort();
    assert_eq!(warnings, want);
    for note in notes {
        assert!(err.contains(&format!("relic: warning: {}: {note}\n", input.display())), "{err}");
    }

    // What can be drawn is: one 2×2 red square at the origin in each frame but the last, which draws
    // nothing but what was skipped (and index −1, which shows nothing by design, without a note); the canvas is the square's, not 1.5e9 pixels wide.
    let png = std::fs::read(out.join("body.act/0_0.png")).unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (2, 2));
    assert_eq!(reader.info().animation_control.map(|c| c.num_frames), Some(3));
    let mut buf = vec![0; reader.output_buffer_size()];
    reader.next_frame(&mut buf).unwrap();
    assert_eq!(buf, [255, 0, 0, 255].repeat(4));
}
