//! String records (spec "Misc", "String decryption"; CORRECTIONS.md): 0x0400 holds text XOR-enciphered with
//! a rotating key that restarts for every record (the stream repeats every 32 bytes), 0x0401 plain text —
//! except in Music.rrc, where 0x0401 holds DirectMusic RIFF blobs (`.sgt` segments, `.dls` instrument sets)
//! and 4-byte volumes, so only bodies that read as text are treated as text.
//!
//! The deciphered bytes end at the first NUL (CORRECTIONS.md). Text is Windows-1252 (the spec says ASCII;
//! the game's Western releases use the ANSI code page, and every byte maps to one character, so decoding
//! never loses a byte). New or edited text is written as its bytes and one NUL.

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

/// Reads a string record's body (0x0400 or 0x0401).
pub fn read_body(record_type: u16, body: &[u8]) -> StringBody {
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
    let text = crate::codec::text::decode(encoding_rs::WINDOWS_1252, text_bytes);
    let exact = text_body(record_type, &text).is_ok_and(|b| b == body);
    StringBody::Text { text, exact }
}

/// The body of a string record holding `text`: its Windows-1252 bytes and a NUL, enciphered for 0x0400.
pub fn text_body(record_type: u16, text: &str) -> Result<Vec<u8>> {
    let mut bytes = crate::codec::text::encode(encoding_rs::WINDOWS_1252, text).ok_or_else(|| {
        Error::Refused(format!(
            "drakan-srsc: the text `{}` has characters Windows-1252 cannot hold",
            crate::paths::display_name(text)
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
}
