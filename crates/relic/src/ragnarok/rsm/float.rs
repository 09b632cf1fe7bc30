//! Floats in JSON documents, bit-exactly. A finite `f32` is written as its shortest decimal (the one Rust
//! prints), carried as an `f64` (see [`carrier`]) so that a `serde_json::Value` prints it the same way;
//! reading goes through `f64` and rounds to `f32`. Checked exhaustively over all 2³² patterns when this
//! was written: every finite `f32` comes back with the same bits, both with serde_json's default number
//! parser (which is not always correctly rounded) and with a correctly rounded one (serde_json's
//! `float_roundtrip` feature, should the workspace turn it on); `tests/ro_rsm.rs` repeats a sample of
//! it. `-0.0` is written `-0.0` and comes back negative.
//!
//! JSON has no NaN or infinity, so a non-finite value is written as a string holding its bit pattern,
//! `"0x7FC00000"`; any `"0x…"` string is read as a bit pattern (so a value can also be given by its bits
//! on purpose), and `"inf"`, `"-inf"` and `"nan"` are accepted for hand-written documents.
//!
//! Fields use it with `#[serde(with = "float")]` on `f32`, `[f32; N]`, `Vec<[f32; N]>` and `Option<…>`
//! of these, so the types themselves stay plain `f32`.

use serde::de::{Deserializer, Error as _};
use serde::{Deserialize, Serialize, Serializer};

/// One float in its JSON form.
#[derive(Debug, Clone, Copy)]
pub struct JsonF32(pub f32);

impl Serialize for JsonF32 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_finite() {
            s.serialize_f64(carrier(self.0))
        } else {
            s.serialize_str(&format!("0x{:08X}", self.0.to_bits()))
        }
    }
}

impl<'de> Deserialize<'de> for JsonF32 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Form {
            Number(f64),
            Text(String),
        }
        match Form::deserialize(d)? {
            // Every finite f32 is exactly an f64, and the shortest decimal of an f32 rounds back to it.
            Form::Number(v) => Ok(JsonF32(v as f32)),
            Form::Text(t) => parse_text(&t).map(JsonF32).ok_or_else(|| {
                D::Error::custom(format!("`{t}` is not a float: give a number or a bit pattern like \"0x7FC00000\""))
            }),
        }
    }
}

/// The f64 that stands for a finite f32 in JSON: the f64 nearest to the f32's shortest decimal, so that a
/// `serde_json::Value` (which holds f64) prints `0.1`, not `0.10000000149011612`. For the two f32 values
/// whose shortest decimal lies so close to a midpoint between two f32s that its nearest f64 *is* that
/// midpoint (and rounds to the wrong neighbour), the f32's exact value is used instead.
pub fn carrier(x: f32) -> f64 {
    match format!("{x}").parse::<f64>() {
        Ok(d) if d as f32 == x => d,
        _ => f64::from(x),
    }
}

fn parse_text(t: &str) -> Option<f32> {
    let t = t.trim();
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return u32::from_str_radix(hex, 16).ok().map(f32::from_bits);
    }
    match t.to_ascii_lowercase().as_str() {
        "inf" | "+inf" | "infinity" => Some(f32::INFINITY),
        "-inf" | "-infinity" => Some(f32::NEG_INFINITY),
        "nan" => Some(f32::NAN),
        _ => None,
    }
}

/// Types made of floats, with their JSON form.
pub trait Floats: Sized {
    type Form: Serialize + for<'de> Deserialize<'de>;
    fn to_form(&self) -> Self::Form;
    fn from_form(form: Self::Form) -> Result<Self, String>;
}

impl Floats for f32 {
    type Form = JsonF32;
    fn to_form(&self) -> JsonF32 {
        JsonF32(*self)
    }
    fn from_form(form: JsonF32) -> Result<Self, String> {
        Ok(form.0)
    }
}

impl<const N: usize> Floats for [f32; N] {
    type Form = Vec<JsonF32>;
    fn to_form(&self) -> Vec<JsonF32> {
        self.iter().copied().map(JsonF32).collect()
    }
    fn from_form(form: Vec<JsonF32>) -> Result<Self, String> {
        let n = form.len();
        let mut out = [0.0f32; N];
        if n != N {
            return Err(format!("expected {N} numbers, found {n}"));
        }
        for (o, v) in out.iter_mut().zip(form) {
            *o = v.0;
        }
        Ok(out)
    }
}

impl<T: Floats> Floats for Vec<T> {
    type Form = Vec<T::Form>;
    fn to_form(&self) -> Self::Form {
        self.iter().map(T::to_form).collect()
    }
    fn from_form(form: Self::Form) -> Result<Self, String> {
        form.into_iter().map(T::from_form).collect()
    }
}

impl<T: Floats> Floats for Option<T> {
    type Form = Option<T::Form>;
    fn to_form(&self) -> Self::Form {
        self.as_ref().map(T::to_form)
    }
    fn from_form(form: Self::Form) -> Result<Self, String> {
        form.map(T::from_form).transpose()
    }
}

pub fn serialize<T: Floats, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    value.to_form().serialize(s)
}

pub fn deserialize<'de, T: Floats, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    T::from_form(T::Form::deserialize(d)?).map_err(D::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Serialize, Deserialize)]
    struct T {
        #[serde(with = "super")]
        a: f32,
        #[serde(with = "super")]
        b: [f32; 3],
        #[serde(with = "super")]
        c: Vec<[f32; 2]>,
        #[serde(with = "super", default)]
        d: Option<f32>,
    }

    #[test]
    fn non_finite_values_and_negative_zero_survive() {
        let nan = f32::from_bits(0x7FC0_1234);
        let t = T { a: -0.0, b: [f32::INFINITY, nan, 0.1], c: vec![[f32::NEG_INFINITY, 1e-45]], d: Some(3.5) };
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(json, r#"{"a":-0.0,"b":["0x7F800000","0x7FC01234",0.1],"c":[["0xFF800000",1e-45]],"d":3.5}"#);
        let back: T = serde_json::from_str(&json).unwrap();
        assert_eq!(back.a.to_bits(), (-0.0f32).to_bits());
        assert_eq!(back.b.map(f32::to_bits), t.b.map(f32::to_bits));
        assert_eq!(back.c[0].map(f32::to_bits), t.c[0].map(f32::to_bits));
        let hand: T = serde_json::from_str(r#"{"a":"nan","b":[1,"inf","-inf"],"c":[]}"#).unwrap();
        assert!(hand.a.is_nan() && hand.b[1] == f32::INFINITY && hand.d.is_none());
        assert!(serde_json::from_str::<T>(r#"{"a":1,"b":[1,2],"c":[]}"#).is_err());
        assert!(serde_json::from_str::<T>(r#"{"a":"one","b":[1,2,3],"c":[]}"#).is_err());
    }
}
