//! What the record modules share: SRSC names kept byte for byte, named flag words, the spec's vector and
//! matrix structs ("Model (0x0200 - 0x0209)": `vect2f`, `vect3f`, `mat3f`, `mat3x4f`, `sphere`, `obb`) with
//! floats kept bit for bit ([`F32`]), and small helpers for readers and writers.

use std::fmt;
use std::marker::PhantomData;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use crate::codec::float::F32;

use super::{read_string, string_text, write_string, FORMAT_ID};
use crate::bytes::{Base64, Hex};
use crate::error::Result;
use crate::reader::Reader;

/// A reader over a record body that lies at file offset `base`.
pub fn body_reader(body: &[u8], base: u64) -> Reader<'_> {
    Reader::with_base(FORMAT_ID, body, base)
}

/// The bytes left in a body after its known fields, kept so writing gives the body back byte for byte.
pub fn rest(r: &mut Reader<'_>) -> Hex {
    Hex(r.bytes(r.remaining(), "trailing").map(<[u8]>::to_vec).unwrap_or_default())
}

pub fn hex_is_empty(h: &Hex) -> bool {
    h.0.is_empty()
}

pub fn base64_is_empty(b: &Base64) -> bool {
    b.0.is_empty()
}

// ---------------------------------------------------------------------------------------------------------
// Names

/// An SRSC string (spec "Data formatting": u16 length, bytes, a zero pad byte when the text is odd, included
/// in the length). `text` is the Windows-1252 text before the first NUL; `raw` holds the stored bytes
/// (padding included) when writing `text` again would not give them back: an odd stored length, a pad byte
/// that is not zero, bytes after a NUL, or text that does not round-trip.
///
/// JSON: a plain string when `raw` is absent, else `{"text": …, "raw": hex}`. The writer uses `raw` while it
/// still decodes to `text`; edit `text` and `raw` is ignored.
pub type Name = crate::codec::text::RawName<crate::codec::text::Windows1252Hex>;

impl Name {
    pub fn read(r: &mut Reader<'_>, field: &str) -> Result<Name> {
        let stored = read_string(r, field)?;
        let text = string_text(stored);
        let mut again = Vec::with_capacity(stored.len() + 2);
        write_string(&Self::encode(&text), &mut again);
        let exact = again.get(2..) == Some(stored);
        Ok(Name::with_raw(text, (!exact).then(|| stored.to_vec())))
    }

    fn encode(text: &str) -> Vec<u8> {
        crate::codec::text::encode(encoding_rs::WINDOWS_1252, text).unwrap_or_else(|| text.as_bytes().to_vec())
    }

    pub fn write(&self, out: &mut Vec<u8>) {
        match self.raw.as_deref().filter(|raw| string_text(raw) == self.text) {
            Some(raw) => {
                out.put_u16(raw.len() as u16);
                out.extend_from_slice(raw);
            }
            None => write_string(&Self::encode(&self.text), out),
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Flag words

/// The names of a flag word's bits, for [`Flags`].
pub trait FlagNames {
    const NAMES: &'static [(u32, &'static str)];
}

/// A flag word kept as stored, shown in JSON with the names of its set bits:
/// `{"value": 9, "names": ["flat", "shiny"]}`. Only `value` is read back (the names are a view).
pub struct Flags<T> {
    pub value: u32,
    names: PhantomData<T>,
}

impl<T: FlagNames> Flags<T> {
    pub const fn new(value: u32) -> Self {
        Flags { value, names: PhantomData }
    }
    pub fn has(&self, bit: u32) -> bool {
        self.value & bit == bit
    }
    /// The names of the set bits, in table order; bits without a name as `0x…`.
    pub fn names(&self) -> Vec<String> {
        let mut known = 0u32;
        let mut out = Vec::new();
        for &(bit, name) in T::NAMES {
            known |= bit;
            if self.value & bit == bit && bit != 0 {
                out.push(name.to_string());
            }
        }
        let unknown = self.value & !known;
        for i in 0..32 {
            if unknown & (1 << i) != 0 {
                out.push(format!("0x{:X}", 1u32 << i));
            }
        }
        out
    }
}

impl<T> Clone for Flags<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Flags<T> {}
impl<T> PartialEq for Flags<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}
impl<T> Eq for Flags<T> {}
impl<T> Default for Flags<T> {
    fn default() -> Self {
        Flags { value: 0, names: PhantomData }
    }
}
impl<T> fmt::Debug for Flags<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Flags(0x{:X})", self.value)
    }
}

#[derive(Serialize)]
struct FlagsView {
    value: u32,
    names: Vec<String>,
}

#[derive(Deserialize)]
struct FlagsValue {
    value: u32,
}

impl<T: FlagNames> Serialize for Flags<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        FlagsView { value: self.value, names: self.names() }.serialize(s)
    }
}

impl<'de, T: FlagNames> Deserialize<'de> for Flags<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Flags::new(FlagsValue::deserialize(d)?.value))
    }
}

// ---------------------------------------------------------------------------------------------------------
// Vectors and matrices (spec "Model (0x0200 - 0x0209)")

/// `vect2f`.
pub type Vec2 = [F32; 2];
/// `vect3f`.
pub type Vec3 = [F32; 3];
/// `mat3f`: nine floats, row-major ("`(f[0] f[1] f[2])` is the first row vector"); docs/formats/drakan.md#matrices: applied to
/// row vectors, p' = p·L + t.
pub type Mat3 = [F32; 9];

/// `mat3x4f`: the linear part, then the translation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Mat3x4 {
    pub linear: Mat3,
    pub translation: Vec3,
}

/// `sphere`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Sphere {
    pub center: Vec3,
    pub radius: F32,
}

/// `obb`: an oriented box as a centre and a 3×3 transform.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Obb {
    pub center: Vec3,
    pub xform: Mat3,
}

/// `bounding_info`: a sphere and a box around the whole model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct BoundingInfo {
    pub sphere: Sphere,
    pub obb: Obb,
}

pub fn read_f32(r: &mut Reader<'_>, field: &str) -> Result<F32> {
    Ok(F32(r.u32(field)?))
}

pub fn read_floats<const N: usize>(r: &mut Reader<'_>, field: &str) -> Result<[F32; N]> {
    let mut out = [F32(0); N];
    for v in &mut out {
        *v = read_f32(r, field)?;
    }
    Ok(out)
}

impl Mat3x4 {
    pub const SIZE: usize = 48;
    pub fn read(r: &mut Reader<'_>, field: &str) -> Result<Self> {
        Ok(Mat3x4 { linear: read_floats(r, field)?, translation: read_floats(r, field)? })
    }
    pub fn write(&self, out: &mut Vec<u8>) {
        out.put_floats(&self.linear);
        out.put_floats(&self.translation);
    }
}

impl Sphere {
    pub const SIZE: usize = 16;
    pub fn read(r: &mut Reader<'_>, field: &str) -> Result<Self> {
        Ok(Sphere { center: read_floats(r, field)?, radius: read_f32(r, field)? })
    }
    pub fn write(&self, out: &mut Vec<u8>) {
        out.put_floats(&self.center);
        out.put_f32(self.radius);
    }
}

impl Obb {
    pub const SIZE: usize = 48;
    pub fn read(r: &mut Reader<'_>, field: &str) -> Result<Self> {
        Ok(Obb { center: read_floats(r, field)?, xform: read_floats(r, field)? })
    }
    pub fn write(&self, out: &mut Vec<u8>) {
        out.put_floats(&self.center);
        out.put_floats(&self.xform);
    }
}

impl BoundingInfo {
    pub const SIZE: usize = Sphere::SIZE + Obb::SIZE;
    pub fn read(r: &mut Reader<'_>, field: &str) -> Result<Self> {
        Ok(BoundingInfo { sphere: Sphere::read(r, field)?, obb: Obb::read(r, field)? })
    }
    pub fn write(&self, out: &mut Vec<u8>) {
        self.sphere.write(out);
        self.obb.write(out);
    }
}

/// Reads a list with a u16 count, each item at least `min_size` bytes (checked before allocating).
pub fn list_u16<'a, T>(
    r: &mut Reader<'a>,
    field: &str,
    min_size: usize,
    item: impl FnMut(&mut Reader<'a>) -> Result<T>,
) -> Result<Vec<T>> {
    let n = r.u16(field)?;
    items(r, u64::from(n), field, min_size, item)
}

/// Reads a list with a u32 count, each item at least `min_size` bytes (checked before allocating).
pub fn list_u32<'a, T>(
    r: &mut Reader<'a>,
    field: &str,
    min_size: usize,
    item: impl FnMut(&mut Reader<'a>) -> Result<T>,
) -> Result<Vec<T>> {
    let n = r.u32(field)?;
    items(r, u64::from(n), field, min_size, item)
}

/// Reads `n` items of at least `min_size` bytes each; errors inside item `i` are named `field[i]`.
pub fn items<'a, T>(
    r: &mut Reader<'a>,
    n: u64,
    field: &str,
    min_size: usize,
    mut item: impl FnMut(&mut Reader<'a>) -> Result<T>,
) -> Result<Vec<T>> {
    let n = r.count(n, min_size, field)?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        out.push(item(r).map_err(|e| e.within(format_args!("{field}[{i}]")))?);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------------------
// Writing

/// Little-endian writes onto a body being built.
pub trait Put {
    fn put_u8(&mut self, v: u8);
    fn put_u16(&mut self, v: u16);
    fn put_u32(&mut self, v: u32);
    fn put_i32(&mut self, v: i32);
    fn put_f32(&mut self, v: F32);
    fn put_floats(&mut self, v: &[F32]);
}

impl Put for Vec<u8> {
    fn put_u8(&mut self, v: u8) {
        self.push(v);
    }
    fn put_u16(&mut self, v: u16) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_u32(&mut self, v: u32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_i32(&mut self, v: i32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_f32(&mut self, v: F32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_floats(&mut self, v: &[F32]) {
        for f in v {
            self.put_f32(*f);
        }
    }
}

thread_local! {
    /// The first list [`count_u16`] or [`count_u32`] could not count (its length, the field's maximum),
    /// since [`counts_fit`] began watching. The record writers stay infallible (`encode(decode(b)) == b`
    /// needs no error path); a writer of edited bodies asks [`counts_fit`] whether a count was cut.
    static CUT_COUNT: std::cell::Cell<Option<(usize, u64)>> = const { std::cell::Cell::new(None) };
}

/// A count as the u16 the format stores. Lists of parsed bodies always fit; a list edited past 65535
/// entries is noted for [`counts_fit`], which refuses the body.
pub fn count_u16(n: usize) -> u16 {
    u16::try_from(n).unwrap_or_else(|_| {
        note_cut(n, u16::MAX.into());
        u16::MAX
    })
}

/// A count as the u32 the format stores (see [`count_u16`]).
pub fn count_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or_else(|_| {
        note_cut(n, u32::MAX.into());
        u32::MAX
    })
}

fn note_cut(n: usize, max: u64) {
    CUT_COUNT.with(|cut| {
        if cut.get().is_none() {
            cut.set(Some((n, max)));
        }
    });
}

/// Runs a record writer; refuses its output when a list it wrote holds more entries than its count field
/// can say (the file would not read back), with why.
pub fn counts_fit<T>(write: impl FnOnce() -> T) -> std::result::Result<T, String> {
    CUT_COUNT.with(|cut| cut.set(None));
    let written = write();
    match CUT_COUNT.with(|cut| cut.take()) {
        None => Ok(written),
        Some((n, max)) => Err(format!("a list of {n} entries is longer than its count field can say ({max} at most)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_count_is_refused_and_a_fitting_one_is_not() {
        assert_eq!(counts_fit(|| count_u16(65535)), Ok(65535));
        assert_eq!(
            counts_fit(|| (count_u16(3), count_u16(65536), count_u32(7))),
            Err("a list of 65536 entries is longer than its count field can say (65535 at most)".to_string())
        );
        // Each watch starts afresh: an earlier cut does not stay.
        assert_eq!(counts_fit(|| count_u32(1)), Ok(1));
        // An edited palette of 65536 colours (a u16 count) is refused; one of 256 writes.
        use super::super::{encode_edited, palette::Palette, Decoded};
        let palette = |n: usize| Decoded::Palette(Palette { colors: vec![[1, 2, 3, 0]; n], trailing: Hex(vec![]) });
        assert!(encode_edited(&palette(65536)).unwrap_err().contains("65536 entries"));
        assert_eq!(encode_edited(&palette(256)).unwrap(), super::super::encode(&palette(256)));
    }

    fn name_round_trip(stored: &[u8]) -> Name {
        let mut body = (stored.len() as u16).to_le_bytes().to_vec();
        body.extend_from_slice(stored);
        let name = Name::read(&mut body_reader(&body, 0), "name").unwrap();
        let mut out = Vec::new();
        name.write(&mut out);
        assert_eq!(out, body);
        let json = serde_json::to_string(&name).unwrap();
        assert_eq!(serde_json::from_str::<Name>(&json).unwrap(), name);
        name
    }

    #[test]
    fn names_keep_their_stored_bytes_only_when_needed() {
        assert_eq!(name_round_trip(b"Wall"), Name::new("Wall"));
        assert_eq!(name_round_trip(b"Fire\0\0"), Name::with_raw("Fire", Some(b"Fire\0\0".to_vec())));
        assert_eq!(name_round_trip(b"Odd\0"), Name::new("Odd"));
        assert_eq!(name_round_trip(b"Odd").raw.as_deref(), Some(&b"Odd"[..])); // odd length, no pad
        assert_eq!(name_round_trip(b"Ab\xE9\0").text, "Abé");
        assert_eq!(name_round_trip(b"Od\0\x07").raw.as_deref(), Some(&b"Od\0\x07"[..])); // junk after the NUL
        assert_eq!(name_round_trip(b"Odd\x07").text, "Odd\x07"); // a pad that is not zero is text
    }

    #[test]
    fn flags_show_names_and_read_back_the_value() {
        struct T;
        impl FlagNames for T {
            const NAMES: &'static [(u32, &'static str)] = &[(1, "one"), (4, "four")];
        }
        let f = Flags::<T>::new(0x8005);
        assert_eq!(serde_json::to_string(&f).unwrap(), r#"{"value":32773,"names":["one","four","0x8000"]}"#);
        let back: Flags<T> = serde_json::from_str(r#"{"value":5,"names":["ignored"]}"#).unwrap();
        assert_eq!(back.value, 5);
    }
}
