//! Classes (spec "Class (0x0100 - 0x0102)" and "Class format"; docs/formats/drakan.md#class: field count before dword
//! count): header, field definitions with type names, the dword data area, values of every type.

use relic::drakan::records::class::{self, Colour, FieldType, RefKind, Value};

use super::{check_record, f, r, SrscFields, B};

#[test]
fn rfl_reference_0x0100() {
    let bytes = B::new().bytes(&[1, 0, 0, 0, 2, 0, 0, 0]).str("Dragon.rfl").done();
    let rfl = check_record(0x0100, &bytes, class::parse_rfl_reference, class::write_rfl_reference);
    assert_eq!(rfl.unk_0x00.0, [1, 0, 0, 0, 2, 0, 0, 0]);
    assert_eq!(rfl.path.text, "Dragon.rfl");
}

/// The field types of the fixture, in order, with their names.
const FIELDS: [(u32, &str); 18] = [
    (0x01, "Health"),
    (0x02, "Speed"),
    (0x03, "Spawn"),
    (0x04, "Look"),
    (0x05, "Roar"),
    (0x06, "Flying"),
    (0x07, "Mood"),
    (0x08, "Hand"),
    (0x09, "Walk"),
    (0x0A, "Greeting"),
    (0x0B, "Cutscene"),
    (0x0C, "Layer"),
    (0x0E, "Skin"),
    (0x0F, "Tint"),
    (0x1001, "Counts"),
    (0x2003, "Parent"),
    (0x0D, "Odd"),
    (0x1002, "Broken"),
];

fn class_fixture() -> Vec<u8> {
    let dwords: [u32; 23] = [
        (-5i32) as u32,   // 0 int
        1.5f32.to_bits(), // 1 float
        9 | 1 << 16,      // 2 class ref 9 in database 1
        2,                // 3 model 2
        0x10 | 2 << 16,   // 4 sound 0x10 in database 2
        1,                // 5 bool
        3,                // 6 enum
        2,                // 7 channel
        4,                // 8 animation 4
        18 | 2 << 16,     // 9 string: dwords 18..20
        1,                // 10 sequence 1
        6,                // 11 landscape layer
        0x20 | 1 << 16,   // 12 texture 0x20 in database 1
        0x80FF_4020,      // 13 colour ARGB
        20 | 3 << 16,     // 14 int array: dwords 20..23
        0x0007,           // 15 class ref 7 (second byte 0x20)
        0xDEAD_BEEF,      // 16 type 0x0D
        30 | 2 << 16,     // 17 float array past the end
        u32::from_le_bytes(*b"Hell"),
        u32::from_le_bytes(*b"o\0\0\0"),
        1,
        2,
        3,
    ];
    let mut b = B::new()
        .str("Torch") // odd: padded
        .u16(3) // group id
        .r#ref(7, 0) // model
        .u16(0x0012) // RFL class id
        .u16(4) // icon
        .u32(FIELDS.len() as u32)
        .u32(dwords.len() as u32);
    for d in dwords {
        b = b.u32(d);
    }
    for (t, name) in FIELDS {
        b = b.u32(t).str(name);
    }
    b.done()
}

#[test]
fn class_0x0102_fields_and_values() {
    let bytes = class_fixture();
    let c = check_record(0x0102, &bytes, class::parse, class::write);
    assert_eq!(c.name.text, "Torch");
    assert_eq!((c.group_id, c.model, c.rfl_class_id, c.icon), (3, r(7, 0), 0x12, 4));
    assert_eq!(c.dwords.len(), 23);
    let names: Vec<&str> = c.fields.iter().map(|f| f.name.text.as_str()).collect();
    assert_eq!(names, FIELDS.map(|(_, n)| n));
    let types: Vec<u32> = c.fields.iter().map(|f| f.field_type.0).collect();
    assert_eq!(types, FIELDS.map(|(t, _)| t));
    let rf = |kind, id, db| Value::Ref { kind, target: r(id, db) };
    let values: Vec<Value> = c.fields.iter().map(|f| f.value.clone()).collect();
    assert_eq!(
        values,
        vec![
            Value::Int(-5),
            Value::Float(f(1.5)),
            rf(RefKind::Class, 9, 1),
            rf(RefKind::Model, 2, 0),
            rf(RefKind::Sound, 0x10, 2),
            Value::Bool(true),
            Value::Enum(3),
            Value::Number(2),
            rf(RefKind::Animation, 4, 0),
            Value::String("Hello".into()),
            rf(RefKind::Sequence, 1, 0),
            Value::Number(6),
            rf(RefKind::Texture, 0x20, 1),
            Value::Colour(Colour { argb: "#80FF4020".into(), a: 0x80, r: 0xFF, g: 0x40, b: 0x20 }),
            Value::Array(vec![Value::Int(1), Value::Int(2), Value::Int(3)]),
            rf(RefKind::Class, 7, 0),
            Value::Number(0xDEAD_BEEF),
            Value::Invalid("dwords 30..32 are past the data area of 23 dwords".into()),
        ]
    );
    // Type names as the spec's table gives them; arrays by the second byte 0x10.
    let view: Vec<(&str, bool, u8)> = c
        .fields
        .iter()
        .map(|f| (f.field_type.base_name(), f.field_type.is_array(), f.field_type.second_byte()))
        .collect();
    assert_eq!(view[14], ("int", true, 0x10));
    assert_eq!(view[15], ("class", false, 0x20));
    assert_eq!(view[16], ("unknown_0x0d", false, 0));
    assert_eq!(FieldType(0x0C).base_name(), "landscape_layer");
    let json = serde_json::to_value(&c).unwrap();
    assert_eq!(json["fields"][13]["value"]["colour"]["argb"], "#80FF4020");
    assert_eq!(
        json["fields"][15]["type"],
        serde_json::json!({"code": 0x2003, "base": "class", "array": false, "second_byte": 0x20})
    );
    assert_eq!(json["fields"][2]["value"], serde_json::json!({"ref": {"kind": "class", "id": 9, "db": 1}}));
}

#[test]
fn fields_without_dwords_and_trailing_bytes() {
    // Two fields, one dword: the second field has no value. Then one trailing byte.
    let bytes = B::new()
        .str("Rock")
        .u16(0)
        .r#ref(0, 0)
        .u16(1)
        .u16(0)
        .u32(2)
        .u32(1)
        .u32(42)
        .u32(0x01)
        .str("A")
        .u32(0x06)
        .str("B")
        .u8(0x5A)
        .done();
    let c = check_record(0x0102, &bytes, class::parse, class::write);
    assert_eq!(c.fields[0].value, Value::Int(42));
    assert_eq!(c.fields[1].value, Value::Missing);
    assert_eq!(c.trailing.0, [0x5A]);
    // A field count the body cannot hold is refused before allocating.
    let huge = B::new().str("X").u16(0).r#ref(0, 0).u16(0).u16(0).u32(u32::MAX).u32(0).done();
    assert!(matches!(class::parse(&huge, 0), Err(relic::Error::Limit { .. })));
}
