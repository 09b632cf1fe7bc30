//! A translator's journey with the client's CP949 text tables through the `relic` binary: `relic convert
//! data/idnum2itemdisplaynametable.txt` (built here by hand: Korean names, a comment, CRLF), the exact
//! UTF-8 text; pack it unedited (byte for byte); translate a line and save it as an editor does (with a
//! BOM) → pack → convert again: the translation is there; the JSON's rows edited and packed; a character
//! CP949 cannot hold refused (line and column, failing exit code, no output); a multi-line description
//! table; another name with `--format ro-table`.

use std::path::Path;

use crate::common::relic;

/// `// 아이템 이름\r\n501#빨간포션#\r\n502#하얀포션#\r\n` in CP949, byte by byte (아이템 = BE C6 C0 CC C5 DB,
/// 이름 = C0 CC B8 A7, 빨간포션 = BB A1 B0 A3 C6 F7 BC C7, 하얀포션 = C7 CF BE E1 C6 F7 BC C7).
fn display_names() -> Vec<u8> {
    let mut b = b"// ".to_vec();
    b.extend([0xBE, 0xC6, 0xC0, 0xCC, 0xC5, 0xDB, b' ', 0xC0, 0xCC, 0xB8, 0xA7]);
    b.extend(b"\r\n501#");
    b.extend([0xBB, 0xA1, 0xB0, 0xA3, 0xC6, 0xF7, 0xBC, 0xC7]);
    b.extend(b"#\r\n502#");
    b.extend([0xC7, 0xCF, 0xBE, 0xE1, 0xC6, 0xF7, 0xBC, 0xC7]);
    b.extend(b"#\r\n");
    b
}

const DISPLAY_TEXT: &str = "// 아이템 이름\r\n501#빨간포션#\r\n502#하얀포션#\r\n";

fn convert(input: &Path, out: &Path, extra: &[&str]) {
    relic().arg("convert").args(extra).arg(input).arg("-o").arg(out).assert().success();
}

fn pack(input: &Path, output: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    relic().args(["pack", "ro-table"]).args(extra).arg(input).arg("-o").arg(output).assert()
}

#[test]
fn a_translated_table_packs_back_to_cp949() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let table = data.join("idnum2itemdisplaynametable.txt");
    std::fs::write(&table, display_names()).unwrap();
    let out = dir.path().join("out");
    convert(&table, &out, &[]);
    let text_path = out.join("idnum2itemdisplaynametable.txt.txt");
    assert_eq!(std::fs::read_to_string(&text_path).unwrap(), DISPLAY_TEXT);

    // Unedited: the same bytes.
    let same = dir.path().join("same.txt");
    pack(&text_path, &same, &[]).success();
    assert_eq!(std::fs::read(&same).unwrap(), display_names());

    // Translated as an editor saves it (a BOM in front, CRLF kept).
    let translated = DISPLAY_TEXT.replace("빨간포션", "Red Potion");
    std::fs::write(&text_path, [b"\xEF\xBB\xBF".as_slice(), translated.as_bytes()].concat()).unwrap();
    let back_dir = dir.path().join("back");
    std::fs::create_dir(&back_dir).unwrap();
    let back = back_dir.join("idnum2itemdisplaynametable.txt");
    pack(&text_path, &back, &[]).success();
    let mut expected = display_names();
    let at = expected.windows(8).position(|w| w == [0xBB, 0xA1, 0xB0, 0xA3, 0xC6, 0xF7, 0xBC, 0xC7]).unwrap();
    expected.splice(at..at + 8, *b"Red Potion");
    assert_eq!(std::fs::read(&back).unwrap(), expected);
    let again = dir.path().join("again");
    convert(&back, &again, &[]);
    assert_eq!(
        std::fs::read_to_string(again.join("idnum2itemdisplaynametable.txt.txt")).unwrap(),
        "// 아이템 이름\r\n501#Red Potion#\r\n502#하얀포션#\r\n"
    );
    // An existing output is not overwritten without --force.
    pack(&text_path, &back, &[]).failure();
    pack(&text_path, &back, &["--force"]).success();

    // The JSON: rows of fields, edited and packed.
    let json_dir = dir.path().join("json");
    convert(&table, &json_dir, &["--to", "json"]);
    let json_path = json_dir.join("idnum2itemdisplaynametable.txt.json");
    let mut doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();
    assert_eq!(doc["lines"][1], serde_json::json!(["501", "빨간포션"]));
    doc["lines"][2][1] = "White Potion".into();
    std::fs::write(&json_path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let from_json = dir.path().join("from_json.txt");
    pack(&json_path, &from_json, &[]).success();
    let text = relic::ragnarok::table::Table::read(&std::fs::read(&from_json).unwrap()).unwrap().text;
    assert_eq!(text, "// 아이템 이름\r\n501#빨간포션#\r\n502#White Potion#\r\n");
}

#[test]
fn what_cp949_cannot_hold_is_refused_and_other_names_need_format() {
    let dir = tempfile::tempdir().unwrap();
    let edited = dir.path().join("idnum2itemdisplaynametable.txt.txt");
    std::fs::write(&edited, "// ok\r\n501#Potion ✓#\r\n").unwrap();
    let output = dir.path().join("idnum2itemdisplaynametable.txt");
    let assert = pack(&edited, &output, &[]).failure();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("line 2, column 12") && stderr.contains("CP949"), "{stderr}");
    assert!(!output.exists(), "nothing written");
    std::fs::write(&edited, b"501#\xff#\r\n").unwrap();
    let assert = pack(&edited, &output, &[]).failure();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("line 1, column 5") && stderr.contains("not UTF-8"), "{stderr}");

    // A description table under a name the client does not use: `--format ro-table`.
    let mut desc = b"501#\r\n".to_vec();
    desc.extend([0xC3, 0xBC, 0xB7, 0xC2, 0x20, 0xC8, 0xB8, 0xBA, 0xB9]); // 체력 회복
    desc.extend(b"\r\n#\r\n");
    let custom = dir.path().join("my_descriptions.txt");
    std::fs::write(&custom, &desc).unwrap();
    let out = dir.path().join("out");
    relic().arg("convert").arg(&custom).arg("-o").arg(&out).assert().failure();
    convert(&custom, &out, &["--format", "ro-table"]);
    let text_path = out.join("my_descriptions.txt.txt");
    assert_eq!(std::fs::read_to_string(&text_path).unwrap(), "501#\r\n체력 회복\r\n#\r\n");
    let back = dir.path().join("back.txt");
    pack(&text_path, &back, &[]).success();
    assert_eq!(std::fs::read(&back).unwrap(), desc);
}
