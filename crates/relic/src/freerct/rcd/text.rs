//! `INFO` (version 2 files' block 1) and `TEXT` v3 (strings by name, each in several languages with
//! plural forms), read and written. Layouts from docs/formats/freerct.md#text and FreeRCT's `data_format.rst`.

use serde::{Deserialize, Serialize};

use super::FORMAT_ID;
use crate::bytes::Base64;
use crate::error::{Error, Result};
use crate::reader::Reader;

/// A NUL-terminated string as stored: text when it is UTF-8 (as FreeRCT writes), else its bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CString {
    Text(String),
    Bytes { base64: Base64 },
}

impl CString {
    pub fn from_bytes(bytes: &[u8]) -> CString {
        match std::str::from_utf8(bytes) {
            Ok(s) => CString::Text(s.to_string()),
            Err(_) => CString::Bytes { base64: Base64(bytes.to_vec()) },
        }
    }

    pub fn as_bytes(&self) -> &[u8] {
        match self {
            CString::Text(s) => s.as_bytes(),
            CString::Bytes { base64 } => &base64.0,
        }
    }

    /// The bytes written, with the terminating NUL; a NUL inside cannot be written.
    pub fn write(&self, out: &mut Vec<u8>, field: &str) -> Result<()> {
        let b = self.as_bytes();
        if b.contains(&0) {
            return Err(Error::refused(FORMAT_ID, field, "a string holds a NUL byte, which ends it in the file"));
        }
        out.extend_from_slice(b);
        out.push(0);
        Ok(())
    }
}

/// Reads a NUL-terminated string.
pub fn read_cstring(r: &mut Reader<'_>, field: &str) -> Result<CString> {
    let rest = &r.data()[r.pos()..];
    let n = rest.iter().position(|&b| b == 0).ok_or_else(|| r.error(field, "the string has no terminating NUL"))?;
    let bytes = r.bytes(n, field)?;
    r.skip(1, field)?;
    Ok(CString::from_bytes(bytes))
}

/// The `INFO` block: five strings back to back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Info {
    pub build: CString,
    pub name: CString,
    pub uri: CString,
    pub website: CString,
    pub description: CString,
}

pub fn read_info(r: &mut Reader<'_>) -> Result<Info> {
    Ok(Info {
        build: read_cstring(r, "INFO.build")?,
        name: read_cstring(r, "INFO.name")?,
        uri: read_cstring(r, "INFO.uri")?,
        website: read_cstring(r, "INFO.website")?,
        description: read_cstring(r, "INFO.description")?,
    })
}

pub fn write_info(info: &Info, out: &mut Vec<u8>) -> Result<()> {
    info.build.write(out, "INFO.build")?;
    info.name.write(out, "INFO.name")?;
    info.uri.write(out, "INFO.uri")?;
    info.website.write(out, "INFO.website")?;
    info.description.write(out, "INFO.description")
}

/// One named string of a `TEXT` block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextString {
    pub name: CString,
    pub translations: Vec<Translation>,
}

/// A string in one language: its plural forms (one for strings without plurals).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Translation {
    pub language: CString,
    pub forms: Vec<CString>,
}

/// Reads a `TEXT` v3 body: records until the block ends.
pub fn read_text(r: &mut Reader<'_>) -> Result<Vec<TextString>> {
    let mut out = Vec::new();
    while r.remaining() > 0 {
        let i = out.len();
        let at = r.pos();
        let length = usize::from(r.u16(&format!("TEXT[{i}].length"))?);
        let mut rec = r.sub(at as u64, length as u64, &format!("TEXT[{i}].length"))?;
        if length < 3 {
            return Err(rec.error(&format!("TEXT[{i}].length"), format!("{length} is shorter than the record header")));
        }
        rec.skip(2, "TEXT.length")?;
        r.skip(length - 2, "TEXT.record")?;
        let name_len = usize::from(rec.u8(&format!("TEXT[{i}].name_length"))?);
        let name_bytes = rec.bytes(name_len, &format!("TEXT[{i}].name"))?;
        let name = match name_bytes.split_last() {
            Some((0, text)) if !text.contains(&0) => CString::from_bytes(text),
            _ => return Err(rec.error(&format!("TEXT[{i}].name"), "the name is not one NUL-terminated string")),
        };
        let mut translations = Vec::new();
        while rec.remaining() > 0 {
            let t = translations.len();
            let field = |f: &str| format!("TEXT[{i}].translation[{t}].{f}");
            let tat = rec.pos();
            let tlen = usize::from(rec.u16(&field("length"))?);
            let mut tr = rec.sub(tat as u64, tlen as u64, &field("length"))?;
            if tlen < 3 {
                return Err(tr.error(&field("length"), format!("{tlen} is shorter than the translation header")));
            }
            tr.skip(2, "length")?;
            rec.skip(tlen - 2, &field("length"))?;
            let lang_len = usize::from(tr.u8(&field("language_length"))?);
            let lang = tr.bytes(lang_len, &field("language"))?;
            let language = match lang.split_last() {
                Some((0, text)) if !text.contains(&0) => CString::from_bytes(text),
                _ => return Err(tr.error(&field("language"), "the language is not one NUL-terminated string")),
            };
            let count = tr.u8(&field("plural_forms"))?;
            let mut forms = Vec::with_capacity(tr.count(u64::from(count), 1, &field("plural_forms"))?);
            for _ in 0..count {
                forms.push(read_cstring(&mut tr, &field("form"))?);
            }
            if tr.remaining() > 0 {
                return Err(tr.error(&field("length"), "bytes follow the last plural form"));
            }
            translations.push(Translation { language, forms });
        }
        out.push(TextString { name, translations });
    }
    Ok(out)
}

/// Writes a `TEXT` v3 body (records in the order given; FreeRCT sorts them by name).
pub fn write_text(strings: &[TextString], out: &mut Vec<u8>) -> Result<()> {
    for (i, s) in strings.iter().enumerate() {
        let mut rec = vec![0, 0];
        let mut name = Vec::new();
        s.name.write(&mut name, &format!("TEXT[{i}].name"))?;
        rec.push(u8_len(name.len(), &format!("TEXT[{i}].name"))?);
        rec.extend_from_slice(&name);
        for (t, tr) in s.translations.iter().enumerate() {
            let field = format!("TEXT[{i}].translation[{t}]");
            let mut body = vec![0, 0];
            let mut lang = Vec::new();
            tr.language.write(&mut lang, &field)?;
            body.push(u8_len(lang.len(), &field)?);
            body.extend_from_slice(&lang);
            body.push(u8_len(tr.forms.len(), &field)?);
            for f in &tr.forms {
                f.write(&mut body, &field)?;
            }
            let len = u16_len(body.len(), &field)?;
            body[..2].copy_from_slice(&len.to_le_bytes());
            rec.extend_from_slice(&body);
        }
        let len = u16_len(rec.len(), &format!("TEXT[{i}]"))?;
        rec[..2].copy_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&rec);
    }
    Ok(())
}

fn u8_len(n: usize, field: &str) -> Result<u8> {
    u8::try_from(n).map_err(|_| Error::refused(FORMAT_ID, field, format!("{n} is more than a byte holds")))
}

fn u16_len(n: usize, field: &str) -> Result<u16> {
    u16::try_from(n)
        .map_err(|_| Error::refused(FORMAT_ID, field, format!("{n} bytes are more than a u16 length holds")))
}
