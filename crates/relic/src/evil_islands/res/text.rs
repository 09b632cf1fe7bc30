//! Text entries of RES archives: the game's texts (`texts.res`, one archive per language) are entries with
//! no extension, named `<kind> <key>` (`string infoskill_15`, `tip 21201`, `briefing s25_1`), each a cp1251
//! text: a title line, then the body, lines ending in CRLF, `#` lines directing briefings (`#phrase Hero 1`).
//! There is no key/value layout inside an entry: the entry's name is its key, so each one is one text.
//!
//! How relic knows an entry is text (an extension list cannot: these entries have none): its name has no
//! extension, no format claims its bytes, it is not empty, and every byte is a printable cp1251 character,
//! a tab, CR or LF (no NUL or other control byte). `convert` then writes it as `<entry>.txt` in UTF-8,
//! starting with a UTF-8 byte order mark; `pack ei-res DIR` packs every `.txt` that starts with that mark
//! back to its entry (the name without `.txt`), encoded in cp1251, so an unedited one gives the same bytes.
//! Line ends are kept as they are (CRLF stays CRLF). A `.txt` without the mark (a real `map.txt` entry,
//! extracted raw) is packed as it is. cp1251 maps every byte to its own character, so decoding loses
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

/// The entry a folder's file packs to when it is a text `convert` made (a `.txt` starting with the UTF-8
/// byte order mark); `None` for any other file.
pub fn pack_input(f: &FolderFile) -> Result<Option<PackInput>> {
    let Some(entry) = f.relative.strip_suffix(".txt").or_else(|| f.relative.strip_suffix(".TXT")) else {
        return Ok(None);
    };
    if f.size < UTF8_BOM.len() as u64 {
        return Ok(None);
    }
    let mut head = [0u8; 3];
    {
        use std::io::Read;
        let mut file = f.open()?;
        if file.read_exact(&mut head).is_err() || head != UTF8_BOM {
            return Ok(None);
        }
    }
    let bytes = f.read()?;
    let shown = f.path.display().to_string();
    let text = std::str::from_utf8(bytes.get(UTF8_BOM.len()..).unwrap_or(&[]))
        .map_err(|e| Error::Refused(format!("{shown}: text entry `{entry}` is not UTF-8 ({e})")))?;
    let data = encode_text(entry, &shown, text)?;
    Ok(Some(PackInput {
        name: encode_name(entry)?,
        modified: f.modified.map_or(0, |t| u32::try_from(t).unwrap_or(u32::MAX)),
        source: PackSource::Bytes(data),
    }))
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
    }
}
