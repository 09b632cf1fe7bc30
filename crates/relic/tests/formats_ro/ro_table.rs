//! Ragnarok client text tables (`ro-table`) from CP949 bytes built here by hand (Korean names, a comment,
//! CRLF, a multi-line description): convert gives the exact UTF-8 text and rows of fields, both pack back
//! to the same bytes; an edited (translated) line packs and reads back; what CP949 cannot hold, invalid
//! UTF-8 and bad bytes are refused with their line and column.

use relic::ragnarok::table::{self, Line, Table};
use relic::registry::{ConvertOptions, PackRequest};

/// `// 아이템\r\n501#빨간포션#\r\n502#하얀포션#\r\n` in CP949 (빨간포션 = BB A1 B0 A3 C6 F7 BC C7, 하얀포션 =
/// C7 CF BE E1 C6 F7 BC C7, 아이템 = BE C6 C0 CC C5 DB).
fn names_table() -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(b"// ");
    b.extend_from_slice(&[0xBE, 0xC6, 0xC0, 0xCC, 0xC5, 0xDB]);
    b.extend_from_slice(b"\r\n501#");
    b.extend_from_slice(&[0xBB, 0xA1, 0xB0, 0xA3, 0xC6, 0xF7, 0xBC, 0xC7]);
    b.extend_from_slice(b"#\r\n502#");
    b.extend_from_slice(&[0xC7, 0xCF, 0xBE, 0xE1, 0xC6, 0xF7, 0xBC, 0xC7]);
    b.extend_from_slice(b"#\r\n");
    b
}

/// A description table: `501#`, two lines of text (체력 회복 = C3 BC B7 C2 20 C8 B8 BA B9), `#`; LF line
/// endings and no line ending after the last line.
fn desc_table() -> Vec<u8> {
    let mut b = b"501#\n".to_vec();
    b.extend_from_slice(&[0xC3, 0xBC, 0xB7, 0xC2, 0x20, 0xC8, 0xB8, 0xBA, 0xB9]);
    b.extend_from_slice(b"^000000\nWeight: 7\n#");
    b
}

fn text_of(bytes: &[u8]) -> String {
    let assets = table::FORMAT.convert(&relic::registry::ConvertInput::new(bytes, &ConvertOptions::default())).unwrap();
    match &assets[0].asset {
        relic::asset::Asset::Text(t) => {
            assert_eq!(t.extension, "txt");
            t.text.clone()
        }
        _ => panic!("a text asset"),
    }
}

fn pack_text(text: &[u8]) -> relic::Result<Vec<u8>> {
    table::FORMAT.pack_input("table.txt.txt", text, &PackRequest::default())
}

#[test]
fn cp949_tables_convert_to_utf8_and_pack_back_byte_for_byte() {
    let bytes = names_table();
    let text = text_of(&bytes);
    assert_eq!(text, "// 아이템\r\n501#빨간포션#\r\n502#하얀포션#\r\n");
    assert_eq!(pack_text(text.as_bytes()).unwrap(), bytes, "unedited text → the same bytes");
    let with_bom = [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat();
    assert_eq!(pack_text(&with_bom).unwrap(), bytes, "a byte order mark is dropped");

    let json = table::FORMAT.to_json(&bytes).unwrap();
    assert_eq!(json["format"], "ro-table");
    assert_eq!(json["line_ending"], "\r\n");
    assert_eq!(json["final_line_ending"], true);
    assert_eq!(json["lines"], serde_json::json!(["// 아이템", ["501", "빨간포션"], ["502", "하얀포션"]]));
    assert_eq!(table::FORMAT.from_json(json, &Default::default()).unwrap(), bytes, "unedited JSON → the same bytes");

    let desc = desc_table();
    assert_eq!(text_of(&desc), "501#\n체력 회복^000000\nWeight: 7\n#");
    assert_eq!(pack_text(text_of(&desc).as_bytes()).unwrap(), desc);
    let json = table::FORMAT.to_json(&desc).unwrap();
    assert_eq!(json["line_ending"], "\n");
    assert_eq!(json["final_line_ending"], false);
    assert_eq!(json["lines"], serde_json::json!([["501"], "체력 회복^000000", "Weight: 7", [""]]));
    assert_eq!(table::FORMAT.from_json(json, &Default::default()).unwrap(), desc);

    // Mixed line endings and a trailing byte after the last line ending are kept.
    let mixed = b"1#a#\r\n2#b#\n3#c#\r\n\x1a".to_vec();
    let doc = Table::read(&mixed).unwrap().document();
    assert_eq!(doc.other_line_endings.get("1").map(String::as_str), Some("\n"));
    assert_eq!(doc.lines.last(), Some(&Line::Text("\u{1a}".into())));
    assert_eq!(Table::from_document(&doc).unwrap().to_bytes().unwrap(), mixed);
}

#[test]
fn a_translated_line_packs_and_reads_back() {
    // As a translator saves it: the name replaced, CRLF kept, saved with a BOM.
    let text = text_of(&names_table()).replace("빨간포션", "Red Potion");
    let packed = pack_text(&[b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat()).unwrap();
    let mut expected = names_table();
    let at = expected.windows(8).position(|w| w == [0xBB, 0xA1, 0xB0, 0xA3, 0xC6, 0xF7, 0xBC, 0xC7]).unwrap();
    expected.splice(at..at + 8, b"Red Potion".iter().copied());
    assert_eq!(packed, expected);
    assert_eq!(text_of(&packed), "// 아이템\r\n501#Red Potion#\r\n502#하얀포션#\r\n");

    // The same edit in the JSON's rows.
    let mut json = table::FORMAT.to_json(&names_table()).unwrap();
    json["lines"][2][1] = "White Potion".into();
    let packed = table::FORMAT.from_json(json, &Default::default()).unwrap();
    assert_eq!(text_of(&packed), "// 아이템\r\n501#빨간포션#\r\n502#White Potion#\r\n");
}

#[test]
fn what_cp949_cannot_hold_and_bad_text_are_refused_with_line_and_column() {
    let err = pack_text("// ok\r\n501#Potion ✓#\r\n".as_bytes()).unwrap_err().to_string();
    assert!(err.contains("line 2, column 12") && err.contains("U+2713") && err.contains("CP949"), "{err}");
    let err = pack_text(b"// ok\n50\xff1#x#\n").unwrap_err().to_string();
    assert!(err.contains("line 2, column 3") && err.contains("not UTF-8"), "{err}");
    // Bytes that are no CP949: refused on reading, naming the line and byte offset.
    let err = Table::read(b"1#a#\r\n2#\x80#\r\n").unwrap_err().to_string();
    assert!(err.contains("ro-table") && err.contains("line 2") && err.contains("0x6"), "{err}");
    let err = table::FORMAT.pack_input("table.png", b"x", &PackRequest::default()).unwrap_err().to_string();
    assert!(err.contains("UTF-8 text or the JSON"), "{err}");
    let mut json = table::FORMAT.to_json(&names_table()).unwrap();
    json["lines"][1][0] = "50#1".into();
    let err = table::FORMAT.from_json(json, &Default::default()).unwrap_err().to_string();
    assert!(err.contains("lines[1]") && err.contains('#'), "{err}");
}

#[test]
fn tables_are_identified_by_their_names_when_the_bytes_agree() {
    let id = |bytes: &[u8], name: &str| relic::registry::sniff(bytes, name).map(|(f, _)| f.id);
    let bytes = names_table();
    assert_eq!(id(&bytes, "data/idnum2itemdisplaynametable.txt"), Some("ro-table"));
    assert_eq!(id(&bytes, "data\\IDNUM2ITEMDESCTABLE.TXT"), Some("ro-table"));
    assert_eq!(id(&bytes, "cardprefixnametable.txt"), Some("ro-table"));
    assert_eq!(id(&bytes, "notes.txt"), None, "other names need --format ro-table");
    assert_eq!(id(b"just some prose\nwithout fields\n", "idnum2itemdisplaynametable.txt"), None);
    assert_eq!(id(b"1#a#\0\0", "idnum2itemdisplaynametable.txt"), None);
    let info = table::FORMAT.info(&bytes).unwrap();
    assert_eq!((info["lines"].as_u64(), info["rows"].as_u64()), (Some(3), Some(2)));
}

/// Fuzz finding of issue 40 (`ro_table`): 64 bytes of one unfinished line and then a NUL. `ls` judges an
/// entry by its first 64 bytes (no NUL, no complete line: plausibly a table) while the whole file has a NUL
/// (not a table): the two disagreed. Only the first 64 bytes count now, so they agree; a real table still
/// is one, whole or by its head.
#[test]
fn a_tables_head_and_its_whole_file_are_judged_alike() {
    let name = "idnum2itemdisplaynametable.txt";
    let mut bytes = vec![0xBB];
    bytes.extend([0xB0; 63]);
    bytes.extend(b"8\0\0\0");
    let whole = relic::registry::sniff(&bytes, name).map(|(f, _)| f.id);
    let head = relic::registry::sniff_sized(&bytes[..64], name, bytes.len() as u64).map(|(f, _)| f.id);
    assert_eq!(whole, head);
    assert_eq!(whole, Some("ro-table"));
    let table = names_table();
    assert_eq!(relic::registry::sniff(&table, name).map(|(f, _)| f.id), Some("ro-table"));
    let mut long = table.clone();
    long.extend(std::iter::repeat_n(b"503#x#\r\n".as_slice(), 20).flatten());
    long.push(0);
    let head = relic::registry::sniff_sized(&long[..64], name, long.len() as u64).map(|(f, _)| f.id);
    assert_eq!(relic::registry::sniff(&long, name).map(|(f, _)| f.id), head);
}
