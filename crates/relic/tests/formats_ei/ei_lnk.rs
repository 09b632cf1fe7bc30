//! Evil Islands LNK files (`ei-lnk`): reader, JSON, writer.
//!
//! Layout (spec `evil-islands.txt`, section "Lnk", with docs/formats/evil-islands.md#lnk): u32 link count; per link a u32
//! length and the part's cp1251 name, a u32 length and the parent's name. Lengths include the trailing
//! NUL; the root's parent has length 0. The fixtures are assembled byte by byte here.

use crate::corpus;

use relic::evil_islands::lnk::{self, parse, write, Link, Lnk};
use relic::Error;

fn name(out: &mut Vec<u8>, raw: &[u8]) {
    out.extend((raw.len() as u32).to_le_bytes());
    out.extend(raw);
}

/// Three parts: `body` (the root), `head` and `рука` ("arm", cp1251 F0 F3 EA E0) hanging from `body`.
fn fixture() -> Vec<u8> {
    let mut out = 3u32.to_le_bytes().to_vec();
    name(&mut out, b"body\0");
    name(&mut out, b"");
    name(&mut out, b"head\0");
    name(&mut out, b"body\0");
    name(&mut out, &[0xF0, 0xF3, 0xEA, 0xE0, 0]);
    name(&mut out, b"body\0");
    assert_eq!(out.len(), 4 + (4 + 5 + 4) + (4 + 5 + 4 + 5) + (4 + 5 + 4 + 5));
    out
}

fn link(name: &str, parent: Option<&str>) -> Link {
    Link { name: name.into(), parent: parent.map(String::from), ..Default::default() }
}

#[test]
fn fixture_parses_to_exact_links() {
    let lnk = parse(&fixture()).unwrap();
    assert_eq!(
        lnk,
        Lnk {
            links: vec![link("body", None), link("head", Some("body")), link("рука", Some("body"))],
            ..Default::default()
        }
    );
    assert_eq!(lnk.roots(), [0]);
    assert_eq!(lnk.parent_index(0), None);
    assert_eq!(lnk.parent_index(1), Some(0));
    assert_eq!(lnk.parent_index(2), Some(0));
    assert_eq!(lnk.children(0), [1, 2]);
    assert_eq!(lnk.find("HEAD"), Some(1), "part names are matched ignoring ASCII case, as RES names are");
    assert_eq!((lnk.depth(0), lnk.depth(2)), (Some(0), Some(1)));
    assert!(lnk.missing_parents().is_empty());
}

#[test]
fn writes_back_byte_for_byte_and_through_json() {
    let bytes = fixture();
    assert_eq!(write(&parse(&bytes).unwrap()).unwrap(), bytes);
    let value = lnk::FORMAT.to_json(&bytes).unwrap();
    assert_eq!(value["format"], "ei-lnk");
    assert_eq!(value["links"][0], serde_json::json!({"name": "body", "parent": null}));
    assert_eq!(value["links"][2], serde_json::json!({"name": "рука", "parent": "body"}));
    assert_eq!(corpus::through_json_text(&lnk::FORMAT, &bytes), bytes);
    // An edit in the JSON is written (the lengths follow the names).
    let mut edited = value.clone();
    edited["links"][1]["name"] = "helmet".into();
    let written = lnk::FORMAT.from_json(edited, &Default::default()).unwrap();
    assert_eq!(parse(&written).unwrap().links[1].name, "helmet");
    assert_eq!(written.len(), bytes.len() + 2);
    // The JSON must be an ei-lnk document.
    let mut other = value;
    other["format"] = "ei-bon".into();
    assert!(lnk::FORMAT.from_json(other, &Default::default()).is_err());
}

#[test]
fn names_without_their_nul_are_kept_as_stored() {
    // The part's name without a NUL, the parent a lone NUL (an empty name, not the root's length 0).
    let mut bytes = 1u32.to_le_bytes().to_vec();
    name(&mut bytes, b"tail");
    name(&mut bytes, b"\0");
    let lnk = parse(&bytes).unwrap();
    let l = &lnk.links[0];
    assert_eq!((l.name.as_str(), l.name_unterminated), ("tail", true));
    assert_eq!((l.parent.as_deref(), l.parent_unterminated), (Some(""), false));
    assert_eq!(write(&lnk).unwrap(), bytes);
    assert_eq!(corpus::through_json_text(&lnk::FORMAT, &bytes), bytes);
    // Trailing bytes are kept too.
    let mut trailing = fixture();
    trailing.extend([1, 2, 3]);
    assert_eq!(parse(&trailing).unwrap().trailing.0, [1, 2, 3]);
    assert_eq!(corpus::through_json_text(&lnk::FORMAT, &trailing), trailing);
    assert_eq!(lnk::FORMAT.info(&trailing).unwrap()["trailing_bytes"], 3);
}

#[test]
fn errors_name_the_field_and_offset() {
    let bytes = fixture();
    // Cut inside the second link's parent name (5 bytes from 4 + 13 + 9 + 4 = 30): its length asks for more
    // than remains.
    let err = parse(&bytes[..32]).unwrap_err();
    let at = err.location().unwrap();
    assert_eq!((at.format, at.field.as_str(), at.offset), ("ei-lnk", "links[1].parent_len", 30));
    assert!(err.to_string().contains("2 bytes that remain"), "{err}");
    // A huge count is refused before anything is allocated.
    let err = parse(&u32::MAX.to_le_bytes()).unwrap_err();
    assert!(matches!(err, Error::Limit { .. }), "{err}");
    assert_eq!(err.location().unwrap().field, "links_count");
    // So is a huge name length.
    let mut huge = 1u32.to_le_bytes().to_vec();
    huge.extend(0x7FFF_FFFFu32.to_le_bytes());
    assert!(matches!(parse(&huge), Err(Error::Limit { .. })));
}

#[test]
fn info_names_root_and_depth() {
    let info = lnk::FORMAT.info(&fixture()).unwrap();
    assert_eq!(info["links"], 3);
    assert_eq!(info["roots"], serde_json::json!(["body"]));
    assert_eq!(info["depth"], 1);
    assert_eq!(info["parents_missing"], serde_json::json!([]));
    // A parent nobody is, and a cycle.
    let mut bytes = 2u32.to_le_bytes().to_vec();
    for (n, p) in [(&b"a\0"[..], &b"b\0"[..]), (b"b\0", b"a\0")] {
        name(&mut bytes, n);
        name(&mut bytes, p);
    }
    let info = lnk::FORMAT.info(&bytes).unwrap();
    assert_eq!(info["roots"], serde_json::json!([]));
    assert_eq!(info["links_in_cycles_or_under_missing_parents"], 2);
}

#[test]
fn corpus_links_name_the_parts_of_their_model() {
    let Some(files) = corpus::of_kind(corpus::Kind::Lnk) else { return };
    assert!(files.len() >= 10, "auxData.res holds 10 models: {files:#?}");
    for f in &files {
        let lnk = parse(&f.data).unwrap_or_else(|e| panic!("{}: {e}", f.label));
        assert_eq!(write(&lnk).unwrap(), f.data, "{}", f.label);
        assert_eq!(corpus::through_json_text(&lnk::FORMAT, &f.data), f.data, "{}", f.label);
        assert_eq!(lnk.roots().len(), 1, "{}: one root", f.label);
        assert!(lnk.trailing.0.is_empty(), "{}", f.label);
        for (i, link) in lnk.links.iter().enumerate() {
            assert!(!link.name_unterminated && !link.parent_unterminated, "{}: names end in NUL", f.label);
            assert!(f.siblings.iter().any(|s| s.eq_ignore_ascii_case(&link.name)), "{}: {}", f.label, link.name);
            assert!(lnk.depth(i).is_some(), "{}: {} is not under the root", f.label, link.name);
        }
    }
    eprintln!("{} LNK files read and written back", files.len());
}
