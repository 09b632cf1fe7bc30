//! FTG writers: the lossless document back to its exact bytes (canvas of the stored size), and new archives
//! laid out simply: `BOTG`, the data in directory order from offset 12, the directory last.

use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};
use crate::layout::Canvas;

/// One file of a new archive.
#[derive(Debug, Clone)]
pub struct NewEntry {
    pub name: String,
    pub data: Vec<u8>,
}

/// A name as the 28-byte field: Windows-1252, at most 27 bytes, NUL-padded.
pub fn name_field(name: &str) -> Result<[u8; NAME_SIZE]> {
    let bytes =
        crate::codec::text::encode(encoding_rs::WINDOWS_1252, name).filter(|b| !b.contains(&0)).ok_or_else(|| {
            Error::Refused(format!("{FORMAT_ID}: the name `{}` cannot be stored", crate::paths::display_name(name)))
        })?;
    if bytes.len() >= NAME_SIZE {
        return Err(Error::Refused(format!(
            "{FORMAT_ID}: the name `{}` is {} bytes; FTG names hold at most 27",
            crate::paths::display_name(name),
            bytes.len()
        )));
    }
    let mut field = [0u8; NAME_SIZE];
    if let Some(f) = field.get_mut(..bytes.len()) {
        f.copy_from_slice(&bytes);
    }
    Ok(field)
}

/// Writes a new archive.
pub fn write_new(entries: &[NewEntry]) -> Result<Vec<u8>> {
    let data: usize = entries.iter().map(|e| e.data.len()).sum();
    let too_big = || Error::Refused(format!("{FORMAT_ID}: {data} bytes do not fit 32-bit offsets"));
    let directory_offset = u32::try_from(HEADER_SIZE + data).map_err(|_| too_big())?;
    let mut out = Vec::with_capacity(HEADER_SIZE + data + entries.len() * ENTRY_SIZE);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&directory_offset.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    let mut offsets = Vec::with_capacity(entries.len());
    for e in entries {
        offsets.push(out.len() as u32);
        out.extend_from_slice(&e.data);
    }
    for (e, offset) in entries.iter().zip(offsets) {
        out.extend_from_slice(&name_field(&e.name)?);
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&(e.data.len() as u32).to_le_bytes());
    }
    Ok(out)
}

/// Writes the file a document describes, byte for byte.
pub fn write_document(doc: &FtgDocument) -> Result<Vec<u8>> {
    let magic: [u8; 4] = match doc.magic.as_str() {
        "BOTG" => *MAGIC,
        "FTG\\0" | "FTG\0" => *MAGIC_COMMUNITY,
        other => return Err(Error::invalid(FORMAT_ID, "magic", 0, format!("`{other}` is not BOTG or FTG\\0"))),
    };
    let mut canvas = Canvas::new(FORMAT_ID, doc.file_size, u64::from(u32::MAX))?;
    let mut head = magic.to_vec();
    head.extend_from_slice(&doc.directory_offset.to_le_bytes());
    head.extend_from_slice(&doc.file_count.to_le_bytes());
    canvas.place(0, &head, || "header".into())?;
    let mut dir = Vec::with_capacity(doc.entries.len() * ENTRY_SIZE);
    let mut datas: Vec<&[u8]> = Vec::with_capacity(doc.entries.len());
    for (i, e) in doc.entries.iter().enumerate() {
        let field = match &e.name_field {
            Some(raw) => <[u8; NAME_SIZE]>::try_from(raw.0.as_slice())
                .map_err(|_| Error::invalid(FORMAT_ID, format!("entries[{i}].name_field"), 0, "not 28 bytes"))?,
            None => name_field(&e.name)
                .map_err(|err| Error::invalid(FORMAT_ID, format!("entries[{i}].name"), 0, err.to_string()))?,
        };
        dir.extend_from_slice(&field);
        dir.extend_from_slice(&e.offset.to_le_bytes());
        dir.extend_from_slice(&e.size.to_le_bytes());
        let data: &[u8] = match (&e.data, e.same_as) {
            (Some(d), _) => &d.0,
            (None, Some(j)) if j < i => datas.get(j).copied().unwrap_or(&[]),
            (None, _) if e.size == 0 => &[],
            _ => return Err(Error::invalid(FORMAT_ID, format!("entries[{i}]"), 0, "no data and no earlier same_as")),
        };
        if data.len() as u64 != u64::from(e.size) {
            return Err(Error::invalid(
                FORMAT_ID,
                format!("entries[{i}].size"),
                0,
                format!("{} bytes of data, size {}", data.len(), e.size),
            ));
        }
        canvas.place(u64::from(e.offset), data, || format!("entries[{i}].data"))?;
        datas.push(data);
    }
    canvas.place(u64::from(doc.directory_offset), &dir, || "directory".into())?;
    canvas.place_gaps(&doc.gaps)?;
    Ok(canvas.into_bytes())
}
