//! String records (spec "Misc", "String decryption"; docs/formats/drakan.md#strings): 0x0400 holds text XOR-enciphered with
//! a rotating key that restarts for every record (the stream repeats every 32 bytes), 0x0401 plain text —
//! except in Music.rrc, where 0x0401 holds DirectMusic RIFF blobs (`.sgt` segments, `.dls` instrument sets)
//! and 4-byte volumes, so only bodies that read as text are treated as text.
//!
//! The deciphered bytes end at the first NUL (docs/formats/drakan.md#strings). Text is Windows-1252 (the spec says ASCII;
//! the game's Western releases use the ANSI code page, and every byte maps to one character, so decoding
//! never loses a byte). New or edited text is written as its bytes and one NUL.
//!
//! The code page is the user's choice (`--option drakan-strings.code-page=windows-1251` for a Russian
//! release, any of [`CODE_PAGES`]): every one of them is single-byte, so every body still decodes without
//! losing a byte; the document records the choice so that `pack` encodes edited text the same way.

use crate::error::{Error, Result};

pub const ENCIPHERED: u16 = 0x0400;
pub const PLAIN: u16 = 0x0401;

/// The cipher's starting key (spec "String decryption").
const KEY: u32 = 0x5FDD_390D;

/// XORs `bytes` with the key stream in place; applying it twice gives the input back. Hand-written: it is
/// the game's own cipher.
pub fn apply_cipher(bytes: &mut [u8]) {
    let mut key = KEY;
    for b in bytes {
        *b ^= key as u8;
        key = key.rotate_left(3);
    }
}

/// What a string record's body is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StringBody {
    /// Text (up to the first NUL); `exact` when [`text_body`] of the text gives the stored body back.
    Text { text: String, exact: bool },
    /// A RIFF blob (`.sgt` or `.dls`, by its form type) in Music.rrc.
    Riff { extension: &'static str },
    /// Anything else (a 4-byte volume, binary data): kept as bytes.
    Binary,
}

/// The single-byte code pages `--option drakan-strings.code-page` takes (encoding_rs's names), the default
/// first.
pub const CODE_PAGES: &[&str] = &[
    "windows-1252",
    "windows-1250",
    "windows-1251",
    "windows-1253",
    "windows-1254",
    "windows-1255",
    "windows-1256",
    "windows-1257",
    "windows-1258",
    "windows-874",
    "koi8-r",
    "koi8-u",
    "ibm866",
    "iso-8859-2",
    "iso-8859-3",
    "iso-8859-4",
    "iso-8859-5",
    "iso-8859-6",
    "iso-8859-7",
    "iso-8859-8",
    "iso-8859-10",
    "iso-8859-13",
    "iso-8859-14",
    "iso-8859-15",
    "iso-8859-16",
    "macintosh",
    "x-mac-cyrillic",
];

/// The encoding a code page name (one of [`CODE_PAGES`], any case) stands for; `None` for Windows-1252.
pub fn code_page(name: Option<&str>) -> Result<&'static encoding_rs::Encoding> {
    let Some(name) = name else { return Ok(encoding_rs::WINDOWS_1252) };
    CODE_PAGES
        .iter()
        .find(|c| c.eq_ignore_ascii_case(name))
        .and_then(|c| encoding_rs::Encoding::for_label(c.as_bytes()))
        .ok_or_else(|| {
            Error::Refused(format!(
                "drakan-strings.code-page: `{name}` is not a single-byte code page relic knows ({})",
                CODE_PAGES.join(", ")
            ))
        })
}

/// The code page's name as the document records it (`windows-1251`).
pub fn code_page_name(enc: &'static encoding_rs::Encoding) -> String {
    enc.name().to_ascii_lowercase()
}

/// Reads a string record's body (0x0400 or 0x0401) as Windows-1252.
pub fn read_body(record_type: u16, body: &[u8]) -> StringBody {
    read_body_in(encoding_rs::WINDOWS_1252, record_type, body)
}

/// Reads a string record's body (0x0400 or 0x0401) in the code page `enc`.
pub fn read_body_in(enc: &'static encoding_rs::Encoding, record_type: u16, body: &[u8]) -> StringBody {
    if record_type == PLAIN && body.starts_with(b"RIFF") {
        let extension = match body.get(8..12) {
            Some(b"DMSG") => "sgt",
            Some(b"DLS ") => "dls",
            _ => "riff",
        };
        return StringBody::Riff { extension };
    }
    let mut plain = body.to_vec();
    if record_type == ENCIPHERED {
        apply_cipher(&mut plain);
    }
    let end = plain.iter().position(|&b| b == 0).unwrap_or(plain.len());
    let text_bytes = plain.get(..end).unwrap_or(&[]);
    let printable = text_bytes.iter().all(|&b| b >= 0x20 || matches!(b, b'\t' | b'\r' | b'\n'));
    // Music.rrc's 4-byte volumes start with control bytes; a body that reads as text is text (and one whose
    // text does not give its bytes back keeps them: nothing is lost either way).
    if body.is_empty() || !printable {
        return StringBody::Binary;
    }
    let text = crate::codec::text::decode(enc, text_bytes);
    let exact = text_body_in(enc, record_type, &text).is_ok_and(|b| b == body);
    StringBody::Text { text, exact }
}

/// The body of a string record holding `text`: its Windows-1252 bytes and a NUL, enciphered for 0x0400.
pub fn text_body(record_type: u16, text: &str) -> Result<Vec<u8>> {
    text_body_in(encoding_rs::WINDOWS_1252, record_type, text)
}

/// The body of a string record holding `text` in the code page `enc`; a character the code page has no
/// byte for is an error naming it.
pub fn text_body_in(enc: &'static encoding_rs::Encoding, record_type: u16, text: &str) -> Result<Vec<u8>> {
    let mut bytes = crate::codec::text::encode(enc, text).ok_or_else(|| {
        let bad = text.chars().find(|&c| crate::codec::text::encode(enc, c.encode_utf8(&mut [0; 4])).is_none());
        Error::Refused(format!(
            "drakan-srsc: the text `{}` has the character {} that {} cannot hold (pick another code page with \
             --option drakan-strings.code-page=NAME when converting)",
            crate::paths::display_name(text),
            bad.map_or_else(String::new, |c| format!("'{c}' (U+{:04X})", u32::from(c))),
            code_page_name(enc)
        ))
    })?;
    if bytes.contains(&0) {
        return Err(Error::Refused("drakan-srsc: a string record's text cannot hold a NUL".into()));
    }
    bytes.push(0);
    if record_type == ENCIPHERED {
        apply_cipher(&mut bytes);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cipher_matches_the_spec_by_hand() {
        // key bytes: 0x0D, then rotl3(0x5FDD390D) = 0xFEE9C86A → 0x6A, then rotl3 again = 0xF74E4357 → 0x57.
        let mut b = *b"Hi!";
        apply_cipher(&mut b);
        assert_eq!(b, [b'H' ^ 0x0D, b'i' ^ 0x6A, b'!' ^ 0x57]);
        apply_cipher(&mut b);
        assert_eq!(&b, b"Hi!");
        // The stream repeats every 32 bytes.
        let mut zeros = [0u8; 64];
        apply_cipher(&mut zeros);
        assert_eq!(zeros[..32], zeros[32..]);
    }

    #[test]
    fn reads_text_riff_and_binary_bodies() {
        let body = text_body(ENCIPHERED, "Arokh").unwrap();
        assert_ne!(&body[..5], b"Arokh");
        assert_eq!(read_body(ENCIPHERED, &body), StringBody::Text { text: "Arokh".into(), exact: true });
        assert_eq!(read_body(PLAIN, b"Credits\0"), StringBody::Text { text: "Credits".into(), exact: true });
        // Without the NUL, the text is the same but the body is kept as stored.
        assert_eq!(read_body(PLAIN, b"Credits"), StringBody::Text { text: "Credits".into(), exact: false });
        assert_eq!(read_body(PLAIN, b"caf\xE9\0"), StringBody::Text { text: "café".into(), exact: true });
        assert_eq!(read_body(PLAIN, b"RIFF\x10\0\0\0DMSGsegh"), StringBody::Riff { extension: "sgt" });
        assert_eq!(read_body(PLAIN, b"RIFF\x10\0\0\0DLS colh"), StringBody::Riff { extension: "dls" });
        assert_eq!(read_body(PLAIN, &[0x10, 0x27, 0, 0]), StringBody::Binary);
        // Found by the round-trip property: three accented letters and the NUL are text, not a volume.
        assert_eq!(read_body(PLAIN, b"\xE9\xE9\xE9\0"), StringBody::Text { text: "ééé".into(), exact: true });
        assert!(text_body(ENCIPHERED, "日本").is_err());
    }

    #[test]
    fn a_chosen_code_page_reads_and_writes_its_text() {
        let cp1251 = code_page(Some("Windows-1251")).unwrap();
        // "Новая" in cp1251, by hand: Н=0xCD о=0xEE в=0xE2 а=0xE0 я=0xFF.
        let body = b"\xCD\xEE\xE2\xE0\xFF\0";
        assert_eq!(read_body_in(cp1251, PLAIN, body), StringBody::Text { text: "Новая".into(), exact: true });
        assert_eq!(text_body_in(cp1251, PLAIN, "Новая").unwrap(), body);
        assert_eq!(code_page_name(cp1251), "windows-1251");
        assert_eq!(code_page(None).unwrap(), encoding_rs::WINDOWS_1252);
        assert!(code_page(Some("utf-8")).is_err());
        for name in CODE_PAGES {
            let enc = code_page(Some(name)).unwrap();
            assert_eq!(&code_page_name(enc), name);
            assert!(enc.is_single_byte(), "{name}");
        }
        let err = text_body(PLAIN, "Новая игра").unwrap_err().to_string();
        assert!(err.contains("'Н' (U+041D) that windows-1252 cannot hold"), "{err}");
    }
}
