//! Drakan SRSC record bodies (`relic::drakan::records`): every record parsed from fixtures assembled here byte
//! by byte from the spec's tables (`drakan-riot-srsc.txt`, corrected by docs/formats/drakan.md), never by relic's
//! writers; exact values, `write(parse(b)) == b`, JSON round trips, and truncations and byte flips that must
//! never panic.

mod classes;
mod levels;
mod models;
mod sequences;
mod sounds;
mod textures;

use relic::codec::float::F32;
use relic::drakan::records::{self, Ref};
use relic::testing::check_robustness;

/// The shared little-endian builder of the tests, with the SRSC record fields below.
pub type B = crate::common::Le;

/// The field types of SRSC records, on the shared builder.
pub trait SrscFields: Sized {
    fn floats(self, v: &[f32]) -> Self;
    /// `ref`: u16 id, u16 database index.
    fn r#ref(self, id: u16, db: u16) -> Self;
    /// An SRSC string: u16 length, the text, a zero byte when the text is odd (counted in the length).
    fn str(self, text: &str) -> Self;
    fn done(self) -> Vec<u8>;
}

impl SrscFields for B {
    fn floats(self, v: &[f32]) -> Self {
        v.iter().fold(self, |b, f| b.f32(*f))
    }
    fn r#ref(self, id: u16, db: u16) -> Self {
        self.u16(id).u16(db)
    }
    fn str(self, text: &str) -> Self {
        let pad = text.len() % 2;
        let b = self.u16((text.len() + pad) as u16).bytes(text.as_bytes());
        if pad == 1 {
            b.u8(0)
        } else {
            b
        }
    }
    fn done(self) -> Vec<u8> {
        self.build()
    }
}

pub fn f(v: f32) -> F32 {
    F32::new(v)
}

pub fn r(id: u16, db: u16) -> Ref {
    Ref { id, db }
}

/// The checks every record gets: `write(parse(b)) == b`, the same through JSON, the generic dispatch agrees,
/// and truncations and byte flips never panic.
pub fn check_record<T, P, W>(record_type: u16, bytes: &[u8], parse: P, write: W) -> T
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    P: Fn(&[u8], u64) -> relic::Result<T>,
    W: Fn(&T) -> Vec<u8>,
{
    let value = parse(bytes, 0).unwrap_or_else(|e| panic!("0x{record_type:04X}: {e}"));
    assert_eq!(write(&value), bytes, "0x{record_type:04X}: write(parse(b)) != b");
    let json = serde_json::to_string_pretty(&value).unwrap();
    let back: T = serde_json::from_str(&json).unwrap_or_else(|e| panic!("0x{record_type:04X} JSON: {e}\n{json}"));
    assert_eq!(write(&back), bytes, "0x{record_type:04X}: the JSON does not write back the same bytes");
    let decoded = records::decode(record_type, bytes, 0).unwrap().expect("a decoded record");
    assert_eq!(records::encode(&decoded), bytes, "0x{record_type:04X}: decode/encode");
    let decoded_json = serde_json::to_string(&decoded).unwrap();
    let decoded_back: records::Decoded = serde_json::from_str(&decoded_json).unwrap();
    assert_eq!(records::encode(&decoded_back), bytes);
    check_robustness(bytes, false, |b| parse(b, 0).map(|_| ()));
    check_robustness(bytes, false, |b| records::decode(record_type, b, 0).map(|_| ()));
    value
}

#[test]
fn errors_name_the_field_and_the_file_offset() {
    // A palette body at file offset 0x1000 that declares 3 colours and holds 2.
    let body = B::new().u16(3).bytes(&[1, 2, 3, 0, 4, 5, 6, 0]).done();
    let err = records::palette::parse(&body, 0x1000).unwrap_err();
    let at = err.location().unwrap();
    assert_eq!((at.format, at.field.as_str(), at.offset), ("drakan-srsc", "palette.colors", 0x1002), "{err}");
    // Inside a list: the element is named.
    let body = B::new().u16(2).floats(&[1.0, 2.0, 3.0]).floats(&[4.0, 5.0]).done();
    let err = records::model::parse_vertices(&body, 0x20).unwrap_err();
    assert!(err.to_string().contains("model_vertices"), "{err}");
    assert!(err.to_string().starts_with("drakan-srsc: "), "{err}");
}

#[test]
fn unknown_types_are_left_to_the_container() {
    assert!(records::decode(0x0400, b"abc", 0).unwrap().is_none());
    assert!(records::decode(0x0401, b"abc", 0).unwrap().is_none());
    assert!(records::decode(0x7777, b"abc", 0).unwrap().is_none());
}

#[test]
fn palette_0x0030() {
    let bytes = B::new().u16(3).bytes(&[255, 0, 0, 0]).bytes(&[0, 128, 0, 5]).bytes(&[1, 2, 3, 0xFF]).done();
    let p = check_record(0x0030, &bytes, records::palette::parse, records::palette::write);
    assert_eq!(p.colors, vec![[255, 0, 0, 0], [0, 128, 0, 5], [1, 2, 3, 0xFF]]);
    assert!(p.trailing.0.is_empty());
    let with_tail = B::new().u16(1).bytes(&[9, 8, 7, 6]).bytes(&[0xAB]).done();
    let p = check_record(0x0030, &with_tail, records::palette::parse, records::palette::write);
    assert_eq!(p.trailing.0, vec![0xAB]);
}

#[test]
fn group_definitions() {
    for t in [0x0101, 0x0201, 0x0301, 0x0312] {
        let bytes = B::new().str("Weapons").done();
        assert_eq!(bytes.len(), 2 + 8);
        let g = check_record(t, &bytes, records::group::parse, records::group::write);
        assert_eq!(g.name.text, "Weapons");
        assert!(g.name.raw.is_none());
    }
}
