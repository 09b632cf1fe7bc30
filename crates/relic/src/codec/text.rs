//! Code-page text: names in game files are stored in legacy single- or double-byte code pages. Raw bytes
//! are always kept next to the decoded text; these helpers say whether the text alone round-trips.

use encoding_rs::Encoding;

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

#[cfg(test)]
mod tests {
    use super::*;

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
