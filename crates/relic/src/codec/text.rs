//! Code-page text: names in game files are stored in legacy single- or double-byte code pages. Raw bytes
//! are always kept next to the decoded text; these helpers say whether the text alone round-trips.

use std::fmt;
use std::marker::PhantomData;

use encoding_rs::Encoding;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::bytes::{Base64, Hex};

pub use encoding_rs::{EUC_KR as CP949, WINDOWS_1251 as CP1251};

/// The UTF-8 byte order mark: what starts a text file `convert` made from a code-page text entry.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Decodes bytes in `enc` (malformed sequences become U+FFFD; callers keep the raw bytes).
pub fn decode(enc: &'static Encoding, bytes: &[u8]) -> String {
    decode_borrowed(enc, bytes).into_owned()
}

/// Decodes without copying when the bytes are already that text (ASCII in every code page relic reads).
pub fn decode_borrowed<'a>(enc: &'static Encoding, bytes: &'a [u8]) -> std::borrow::Cow<'a, str> {
    enc.decode_without_bom_handling(bytes).0
}

/// Encodes text in `enc`; `None` when a character has no encoding there.
pub fn encode(enc: &'static Encoding, text: &str) -> Option<Vec<u8>> {
    let (bytes, _, unmappable) = enc.encode(text);
    (!unmappable).then(|| bytes.into_owned())
}

/// The first character of `text` that `enc` has no byte for, with its 1-based line and column (columns
/// count characters; lines end at `\n`): what an error about an edited text file points the user at.
pub fn first_unencodable(enc: &'static Encoding, text: &str) -> Option<(usize, usize, char)> {
    let (mut line, mut column) = (1, 0);
    for c in text.chars() {
        column += 1;
        if c == '\n' {
            line += 1;
            column = 0;
            continue;
        }
        if encode(enc, c.encode_utf8(&mut [0; 4])).is_none() {
            return Some((line, column, c));
        }
    }
    None
}

/// `'★' (U+2605)`: a character as an error message names it.
pub fn describe_char(c: char) -> String {
    format!("'{c}' (U+{:04X})", u32::from(c))
}

/// Decodes, and also returns whether encoding the text again gives back the same bytes.
pub fn decode_exact(enc: &'static Encoding, bytes: &[u8]) -> (String, bool) {
    let text = decode(enc, bytes);
    let exact = encode(enc, &text).is_some_and(|b| b == bytes);
    (text, exact)
}

/// A name as a game file stores it: `text`, decoded from the code page (the bytes before the first NUL),
/// and `raw`, the exact stored bytes, kept only when the text alone would not give them back (junk after
/// the NUL of a fixed field, a NUL inside a length-prefixed string, bytes the code page does not
/// round-trip). Writers use `raw` while it still decodes to `text`; edit `text` and `raw` is ignored.
///
/// `P` says how JSON writes the bytes ([`Cp949Base64`], [`Windows1252Hex`]): a plain string when `raw` is
/// absent, else `{"text": …, "raw": …}`. Each format's module names its own (`rsm::Name`,
/// `gnd::TextureName`, `drakan::records::common::Name`) and adds what its fields need.
pub struct RawName<P> {
    pub text: String,
    pub raw: Option<Vec<u8>>,
    page: PhantomData<fn() -> P>,
}

/// How a [`RawName`]'s stored bytes appear in JSON.
pub trait NamePage {
    type Json: Serialize + DeserializeOwned;
    fn to_json(raw: &[u8]) -> Self::Json;
    fn from_json(json: Self::Json) -> Vec<u8>;
}

/// Ragnarok's names: CP949, stored bytes in base64.
pub enum Cp949Base64 {}
impl NamePage for Cp949Base64 {
    type Json = Base64;
    fn to_json(raw: &[u8]) -> Base64 {
        Base64(raw.to_vec())
    }
    fn from_json(json: Base64) -> Vec<u8> {
        json.0
    }
}

/// Drakan's SRSC strings: Windows-1252, stored bytes in hex.
pub enum Windows1252Hex {}
impl NamePage for Windows1252Hex {
    type Json = Hex;
    fn to_json(raw: &[u8]) -> Hex {
        Hex(raw.to_vec())
    }
    fn from_json(json: Hex) -> Vec<u8> {
        json.0
    }
}

impl<P> RawName<P> {
    /// A name that is only text (written in the code page).
    pub fn new(text: impl Into<String>) -> Self {
        RawName::with_raw(text, None)
    }
    /// A name with the bytes it was read from (`None` when the text gives them back).
    pub fn with_raw(text: impl Into<String>, raw: Option<Vec<u8>>) -> Self {
        RawName { text: text.into(), raw, page: PhantomData }
    }
    pub fn as_str(&self) -> &str {
        &self.text
    }
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

// By hand rather than derived: a derive would ask the marker `P` for the same traits.
impl<P> Clone for RawName<P> {
    fn clone(&self) -> Self {
        RawName::with_raw(self.text.clone(), self.raw.clone())
    }
}
impl<P> PartialEq for RawName<P> {
    fn eq(&self, other: &Self) -> bool {
        (&self.text, &self.raw) == (&other.text, &other.raw)
    }
}
impl<P> Eq for RawName<P> {}
impl<P> Default for RawName<P> {
    fn default() -> Self {
        RawName::new(String::new())
    }
}
impl<P> fmt::Debug for RawName<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Name").field("text", &self.text).field("raw", &self.raw).finish()
    }
}
impl<P> fmt::Display for RawName<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum NameForm<J> {
    Text(String),
    Full { text: String, raw: J },
}

impl<P: NamePage> Serialize for RawName<P> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.raw {
            None => s.serialize_str(&self.text),
            Some(raw) => NameForm::Full { text: self.text.clone(), raw: P::to_json(raw) }.serialize(s),
        }
    }
}

impl<'de, P: NamePage> Deserialize<'de> for RawName<P> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match NameForm::<P::Json>::deserialize(d)? {
            NameForm::Text(text) => RawName::new(text),
            NameForm::Full { text, raw } => RawName::with_raw(text, Some(P::from_json(raw))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_raw_name_is_a_string_in_json_until_it_keeps_bytes() {
        let plain: RawName<Cp949Base64> = RawName::new("a");
        assert_eq!(serde_json::to_value(&plain).unwrap(), serde_json::json!("a"));
        let kept: RawName<Windows1252Hex> = RawName::with_raw("a", Some(b"a\0z".to_vec()));
        let json = serde_json::to_value(&kept).unwrap();
        assert_eq!(json, serde_json::json!({"text": "a", "raw": "61007a"}));
        assert_eq!(serde_json::from_value::<RawName<Windows1252Hex>>(json).unwrap(), kept);
        let b64: RawName<Cp949Base64> =
            serde_json::from_value(serde_json::json!({"text": "a", "raw": "YQB6"})).unwrap();
        assert_eq!(b64.raw.as_deref(), Some(&b"a\0z"[..]));
    }

    #[test]
    fn cp1251_round_trips_cyrillic() {
        let raw = [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2]; // "Привет"
        let (text, exact) = decode_exact(CP1251, &raw);
        assert_eq!(text, "Привет");
        assert!(exact);
        assert_eq!(encode(CP1251, "Привет").unwrap(), raw);
        assert!(encode(CP1251, "日本").is_none());
    }

    #[test]
    fn the_first_unencodable_character_is_found_by_line_and_column() {
        assert_eq!(first_unencodable(CP1251, "Привет\r\nмир ★"), Some((2, 5, '★')));
        assert_eq!(first_unencodable(CP1251, "★"), Some((1, 1, '★')));
        assert_eq!(first_unencodable(CP1251, "Привет\nмир"), None);
        assert_eq!(describe_char('★'), "'★' (U+2605)");
    }

    #[test]
    fn cp1251_decodes_every_byte_reversibly() {
        // Every byte has its own character (0x98 is U+0098), so cp1251 text never needs raw bytes kept.
        let all: Vec<u8> = (0..=255).collect();
        let (text, exact) = decode_exact(CP1251, &all);
        assert!(exact);
        assert_eq!(text.chars().count(), 256);
    }
}
