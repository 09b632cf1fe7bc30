//! `f32` values kept bit for bit in JSON documents and in text.
//!
//! JSON has no NaN, infinities or NaN payloads, and numbers travel through `f64`. [`F32`] holds the bits
//! of a float and writes:
//! - a finite value as a JSON number: the shortest decimal that reads back to the same bits (checked when
//!   writing; in the rare case it would not, the exact `f64` value of the float is written instead);
//! - `"inf"`, `"-inf"`, `"nan"` (the quiet NaN `0x7FC00000`), and any other NaN as `"nan:0xHHHHHHHH"`
//!   with its bits.
//!
//! Reading accepts those strings and any JSON number (rounded to the nearest `f32`). -0.0 stays -0.0.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The quiet NaN `f32::NAN` has on every platform relic runs on.
pub const CANONICAL_NAN: u32 = 0x7FC0_0000;

/// A 32-bit float kept as its bits, so equality is bit equality and NaN payloads survive.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct F32(pub u32);

impl F32 {
    pub fn new(value: f32) -> Self {
        F32(value.to_bits())
    }
    pub fn get(self) -> f32 {
        f32::from_bits(self.0)
    }
    pub fn bits(self) -> u32 {
        self.0
    }
    pub fn from_le_bytes(b: [u8; 4]) -> Self {
        F32(u32::from_le_bytes(b))
    }
    pub fn to_le_bytes(self) -> [u8; 4] {
        self.0.to_le_bytes()
    }

    /// The text form used in INI files and error messages: Rust's shortest round-trip decimal for finite
    /// values (`42.0`, `0.1`, `1e-7`, `-0.0`), else `inf`, `-inf`, `nan` or `nan:0xHHHHHHHH`.
    pub fn to_text(self) -> String {
        let v = self.get();
        if v.is_finite() {
            format!("{v:?}")
        } else if v.is_nan() {
            if self.0 == CANONICAL_NAN {
                "nan".into()
            } else {
                format!("nan:0x{:08X}", self.0)
            }
        } else if v > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        }
    }

    /// Reads the non-finite forms of [`F32::to_text`] (`inf`, `+inf`, `-inf`, `nan`, `nan:0xHHHHHHHH`,
    /// case-insensitive). `None` for anything else.
    pub fn parse_special(text: &str) -> Option<Result<F32, String>> {
        let lower = text.to_ascii_lowercase();
        match lower.as_str() {
            "inf" | "+inf" => return Some(Ok(F32::new(f32::INFINITY))),
            "-inf" => return Some(Ok(F32::new(f32::NEG_INFINITY))),
            "nan" => return Some(Ok(F32(CANONICAL_NAN))),
            _ => {}
        }
        let hex = lower.strip_prefix("nan:0x")?;
        Some(match u32::from_str_radix(hex, 16) {
            Ok(bits) if f32::from_bits(bits).is_nan() && hex.len() == 8 => Ok(F32(bits)),
            Ok(_) if hex.len() == 8 => Err(format!("{text}: the bits 0x{hex} are not a NaN")),
            _ => Err(format!("{text}: expected nan:0x followed by 8 hex digits")),
        })
    }

    /// The `f64` a JSON number should carry so that reading it back gives these bits.
    fn json_number(self) -> f64 {
        let v = self.get();
        // The shortest decimal for the f32, as the nearest f64: prints as that short decimal.
        let short: f64 = format!("{v}").parse().unwrap_or(f64::from(v));
        let back = serde_json::to_string(&short).ok().and_then(|s| serde_json::from_str::<f32>(&s).ok());
        if back.map(f32::to_bits) == Some(self.0) {
            short
        } else {
            f64::from(v)
        }
    }
}

impl fmt::Debug for F32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl fmt::Display for F32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl From<f32> for F32 {
    fn from(v: f32) -> Self {
        F32::new(v)
    }
}

impl Serialize for F32 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.get().is_finite() {
            s.serialize_f64(self.json_number())
        } else {
            s.serialize_str(&self.to_text())
        }
    }
}

impl<'de> Deserialize<'de> for F32 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = F32;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number, \"inf\", \"-inf\", \"nan\" or \"nan:0xHHHHHHHH\"")
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<F32, E> {
                Ok(F32::new(v as f32))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<F32, E> {
                Ok(F32::new(v as f32))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<F32, E> {
                Ok(F32::new(v as f32))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<F32, E> {
                match F32::parse_special(v) {
                    Some(r) => r.map_err(E::custom),
                    None => Err(E::custom(format!("`{v}` is not a float"))),
                }
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json_round_trip(bits: u32) -> u32 {
        let text = serde_json::to_string_pretty(&serde_json::to_value(F32(bits)).unwrap()).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        serde_json::from_value::<F32>(value).unwrap().0
    }

    #[test]
    fn json_keeps_every_bit() {
        let specials = [
            0u32,
            0x8000_0000, // -0.0
            0x7F80_0000,
            0xFF80_0000,
            CANONICAL_NAN,
            0xFFC0_0000,
            0x7F80_0001,
            0x0000_0001, // smallest subnormal
            0x7F7F_FFFF, // largest finite
            0.1f32.to_bits(),
            16_777_217f32.to_bits(),
        ];
        for bits in specials {
            assert_eq!(json_round_trip(bits), bits, "0x{bits:08X}");
        }
        // A spread of bit patterns over the whole range.
        let mut x = 0x1234_5678u32;
        for _ in 0..200_000 {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            assert_eq!(json_round_trip(x), x, "0x{x:08X}");
        }
    }

    #[test]
    fn short_numbers_stay_short() {
        assert_eq!(serde_json::to_string(&F32::new(0.1)).unwrap(), "0.1");
        assert_eq!(serde_json::to_string(&F32::new(-0.0)).unwrap(), "-0.0");
        assert_eq!(serde_json::to_string(&F32::new(f32::NAN)).unwrap(), "\"nan\"");
        assert_eq!(serde_json::to_string(&F32(0xFFC0_0001)).unwrap(), "\"nan:0xFFC00001\"");
    }

    #[test]
    fn text_forms() {
        assert_eq!(F32::new(42.0).to_text(), "42.0");
        assert_eq!(F32::new(1e-7).to_text(), "1e-7");
        assert_eq!(F32::new(f32::NEG_INFINITY).to_text(), "-inf");
        assert_eq!(F32::parse_special("NaN:0x7FC00001").unwrap().unwrap(), F32(0x7FC0_0001));
        assert!(F32::parse_special("nan:0x3F800000").unwrap().is_err());
        assert!(F32::parse_special("1.0").is_none());
    }
}
