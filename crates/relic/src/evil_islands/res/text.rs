//! Text entries of RES archives: the game's texts (`texts.res`, one archive per language) are entries with
//! no extension, named `<kind> <key>` (`string infoskill_15`, `tip 21201`, `briefing s25_1`), each a cp1251
//! text: a title line, then the body, lines ending in CRLF, `#` lines directing briefings (`#phrase Hero 1`).
//! There is no key/value layout inside an entry: the entry's name is its key, so each one is one text.
//!
//! How relic knows an entry is text (an extension list cannot: these entries have none): its name has no
//! extension, no format claims its bytes, it is not empty, and every byte is a printable cp1251 character,
//! a tab, CR or LF (no NUL or other control byte). `convert` then writes it as `<entry>.txt` in UTF-8,
//! starting with a UTF-8 byte order mark; `pack ei-res DIR` packs every `.txt` that starts with that mark,
//! or that the record of the conversion lists as a text ([`crate::record`]: editors drop the mark), back to
//! its entry (the name without `.txt`), encoded in cp1251, so an unedited one gives the same bytes.
//! Line ends are kept as they are (CRLF stays CRLF). A `.txt` with neither (a real `map.txt` entry,
//! extracted raw) is packed as it is; bytes that are not UTF-8 are refused with the file, line and column. cp1251 maps every byte to its own character, so decoding loses
//! nothing. A character cp1251 cannot hold is an error naming the entry, the file, line and column.

use super::write::{encode_name, PackInput, PackSource};
use crate::codec::text::{decode, describe_char, encode, first_unencodable, CP1251, UTF8_BOM};
use crate::error::{Error, Result};
use crate::registry::FolderFile;

/// The entry's text, when it is a text entry (see the module notes).
pub fn entry_text(name: &str, bytes: &[u8]) -> Option<String> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    if base.contains('.') || bytes.is_empty() {
        return None;
    }
    if !bytes.iter().all(|&b| b >= 0x20 || matches!(b, b'\t' | b'\r' | b'\n')) {
        return None;
    }
    Some(decode(CP1251, bytes))
}

/// The cp1251 bytes of an edited text entry `entry`, read from `file` (for messages).
pub fn encode_text(entry: &str, file: &str, text: &str) -> Result<Vec<u8>> {
    if let Some((line, column, c)) = first_unencodable(CP1251, text) {
        return Err(Error::Refused(format!(
            "{file}:{line}:{column}: text entry `{entry}`: the character {} is not in cp1251, the code page of \
             Evil Islands texts",
            describe_char(c)
        )));
    }
    encode(CP1251, text).ok_or_else(|| Error::Refused(format!("{file}: text entry `{entry}` is not cp1251 text")))
}

/// The entry a folder's file packs to when it is a text `convert` made: a `.txt` the record of the
/// conversion lists as a text ([`crate::record`]), with or without its byte order mark, or else one
/// starting with the UTF-8 byte order mark; `None` for any other file (packed as it is, under its own name).
/// A `.txt` of an extensionless name that neither marks is packed as it is, with a warning when it holds
/// UTF-8 beyond ASCII (a text whose mark an editor dropped, of a conversion whose record is gone).
pub fn pack_input(f: &FolderFile, records: &crate::record::Records) -> Result<Option<PackInput>> {
    let Some(entry) = f.relative.strip_suffix(".txt").or_else(|| f.relative.strip_suffix(".TXT")) else {
        return Ok(None);
    };
    let recorded = records.find(&f.path);
    let recorded_text = match &recorded {
        Some(found) if found.file.role == crate::record::Role::Text => true,
        // Convert wrote it as another file (an entry `map.txt` kept raw): it is that entry.
        Some(_) => return Ok(None),
        None => false,
    };
    let mut head = [0u8; 3];
    let has_bom = f.size >= UTF8_BOM.len() as u64 && {
        use std::io::Read;
        let mut file = f.open()?;
        file.read_exact(&mut head).is_ok() && head == UTF8_BOM
    };
    if !has_bom && !recorded_text {
        // Only UTF-8 beyond ASCII is surely no cp1251 entry (a raw `map.txt` is ASCII or cp1251): stored as
        // it is, it would show as mojibake in the game.
        let base = entry.rsplit('/').next().unwrap_or(entry);
        let utf8_beyond_ascii = || f.read().is_ok_and(|b| !b.is_ascii() && std::str::from_utf8(&b).is_ok());
        if !base.contains('.') && utf8_beyond_ascii() {
            records.warn(format!(
                "warning: {} has no UTF-8 byte order mark and no record of `relic convert` lists it: packed as it \
                 is, as the entry `{}`; if it is the text of the entry `{entry}`, add the mark (or convert again \
                 and edit that file) so that it is encoded back to cp1251 under its own name",
                f.path.display(),
                f.relative
            ));
        }
        return Ok(None);
    }
    let bytes = f.read()?;
    let shown = f.path.display().to_string();
    let body = bytes.strip_prefix(UTF8_BOM).unwrap_or(&bytes);
    let text = utf8_text(entry, &shown, body)?;
    let data = encode_text(entry, &shown, text)?;
    Ok(Some(PackInput {
        name: encode_name(entry)?,
        modified: f.modified.map_or(0, |t| u32::try_from(t).unwrap_or(u32::MAX)),
        source: PackSource::Bytes(data),
    }))
}

/// The UTF-8 text of an edited text entry `entry` (its byte order mark taken off), read from `file`; bytes
/// that are not UTF-8 are refused with the line and column (in characters) where they start.
pub fn utf8_text<'a>(entry: &str, file: &str, bytes: &'a [u8]) -> Result<&'a str> {
    let body = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
    std::str::from_utf8(body).map_err(|e| {
        let valid = body.get(..e.valid_up_to()).unwrap_or_default();
        // The valid part is UTF-8 by definition.
        let before = std::str::from_utf8(valid).unwrap_or_default();
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or_default().chars().count() + 1;
        let offset = e.valid_up_to() + (bytes.len() - body.len());
        let byte = bytes.get(offset).copied().unwrap_or_default();
        Error::Refused(format!(
            "{file}:{line}:{column}: text entry `{entry}`: byte 0x{byte:02X} at offset {offset} is not UTF-8 (save \
             the file as UTF-8; it is encoded back to cp1251)"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_entries_are_extensionless_printable_cp1251() {
        assert_eq!(entry_text("tip 21201", b"Keys\r\nline\xE0").as_deref(), Some("Keys\r\nlineа"));
        assert_eq!(entry_text("map.txt", b"Keys"), None);
        assert_eq!(entry_text("string x", b""), None);
        assert_eq!(entry_text("string x", b"a\0b"), None);
        let err = encode_text("tip 1", "t.txt", "ok\r\nnot ★").unwrap_err().to_string();
        assert!(err.contains("t.txt:2:5: text entry `tip 1`: the character '★' (U+2605) is not in cp1251"), "{err}");
        assert_eq!(utf8_text("tip 1", "t.txt", b"\xEF\xBB\xBFok").unwrap(), "ok");
        let err = utf8_text("tip 1", "t.txt", b"\xEF\xBB\xBFa\r\n\xD0\xB0b\xE0c").unwrap_err().to_string();
        assert!(err.contains("t.txt:2:3: text entry `tip 1`: byte 0xE0 at offset 9 is not UTF-8"), "{err}");
    }
}
