//! PNG text chunks (`tEXt`, `zTXt`, `iTXt`) read without a PNG decoder, so that every build (with or without
//! the `export` feature) finds the records relic leaves in the PNGs it writes (`Image::text`, written by
//! [`super::png`]'s encoder). Reached as `crate::export::png::text_chunks`.

use std::io::Read;

/// At most this many bytes of a compressed text chunk are inflated (relic's records are a few dozen).
const MAX_TEXT: u64 = 4096;

/// The (keyword, text) of every `tEXt`, `zTXt` and `iTXt` chunk of a PNG, in file order. Walks the chunk
/// list without checking CRCs (the image decoder does); stops at `IEND` or where the list breaks off.
pub fn text_chunks(png: &[u8]) -> Vec<(String, String)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    let mut out = Vec::new();
    let Some(mut rest) = png.strip_prefix(SIGNATURE) else { return out };
    while rest.len() >= 12 {
        let len = u32::from_be_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
        let kind = &rest[4..8];
        let Some(data) = rest.get(8..8usize.saturating_add(len)) else { break };
        if let Some(chunk) = match kind {
            b"tEXt" => text(data),
            b"zTXt" => ztxt(data),
            b"iTXt" => itxt(data),
            b"IEND" => break,
            _ => None,
        } {
            out.push(chunk);
        }
        rest = rest.get(len.saturating_add(12)..).unwrap_or_default();
    }
    out
}

fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

fn inflate(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(bytes).take(MAX_TEXT).read_to_end(&mut out).ok()?;
    Some(out)
}

/// `tEXt`: keyword, NUL, Latin-1 text.
fn text(data: &[u8]) -> Option<(String, String)> {
    let nul = data.iter().position(|&b| b == 0)?;
    Some((latin1(&data[..nul]), latin1(&data[nul + 1..])))
}

/// `zTXt`: keyword, NUL, method 0, zlib of Latin-1 text.
fn ztxt(data: &[u8]) -> Option<(String, String)> {
    let nul = data.iter().position(|&b| b == 0)?;
    let packed = data.get(nul + 2..)?;
    Some((latin1(&data[..nul]), latin1(&inflate(packed)?)))
}

/// `iTXt`: keyword, NUL, compression flag, method, language tag, NUL, translated keyword, NUL, UTF-8 text
/// (zlib when the flag is 1).
fn itxt(data: &[u8]) -> Option<(String, String)> {
    let nul = data.iter().position(|&b| b == 0)?;
    let compressed = *data.get(nul + 1)? == 1;
    let rest = data.get(nul + 3..)?;
    let lang_end = rest.iter().position(|&b| b == 0)?;
    let rest = &rest[lang_end + 1..];
    let translated_end = rest.iter().position(|&b| b == 0)?;
    let body = &rest[translated_end + 1..];
    let body = if compressed { inflate(body)? } else { body.to_vec() };
    Some((latin1(&data[..nul]), String::from_utf8(body).ok()?))
}

/// `png` with `tEXt` chunks for `texts` after its `IHDR`; `None` when it does not start with one.
pub fn insert_text_chunks(png: &[u8], texts: &[(String, String)]) -> Option<Vec<u8>> {
    const SIGNATURE: usize = 8;
    // Signature, then IHDR: length (13), type, 13 bytes, CRC.
    let ihdr_end = SIGNATURE + 4 + 4 + 13 + 4;
    if png.get(SIGNATURE + 4..SIGNATURE + 8) != Some(b"IHDR") || png.len() < ihdr_end {
        return None;
    }
    let mut out = Vec::with_capacity(png.len() + texts.iter().map(|(k, t)| k.len() + t.len() + 13).sum::<usize>());
    out.extend_from_slice(png.get(..ihdr_end)?);
    for (keyword, text) in texts {
        // tEXt is Latin-1: a keyword or text outside it is left out rather than written wrong.
        let latin1 = |s: &str| s.chars().map(|c| u8::try_from(u32::from(c)).ok()).collect::<Option<Vec<u8>>>();
        let (Some(k), Some(t)) = (latin1(keyword), latin1(text)) else { continue };
        if k.is_empty() || k.len() > 79 || k.contains(&0) || t.contains(&0) {
            continue;
        }
        let mut body = b"tEXt".to_vec();
        body.extend(&k);
        body.push(0);
        body.extend(&t);
        let len = u32::try_from(body.len() - 4).ok()?;
        out.extend(len.to_be_bytes());
        out.extend(&body);
        out.extend(crc32(&body).to_be_bytes());
    }
    out.extend_from_slice(png.get(ihdr_end..)?);
    Some(out)
}

/// CRC-32 (ISO 3309, as PNG chunks use).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = flate2::Crc::new();
    crc.update(bytes);
    crc.sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_chunks_are_put_back_after_the_header() {
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        png.extend(13u32.to_be_bytes());
        png.extend(b"IHDR");
        png.extend([0; 13]);
        png.extend([0; 4]);
        png.extend(0u32.to_be_bytes());
        png.extend(b"IEND");
        png.extend(crc32(b"IEND").to_be_bytes());
        let texts = vec![("relic".to_string(), "ei-mmp format=dxt1 mips=4".to_string())];
        let out = insert_text_chunks(&png, &texts).unwrap();
        assert_eq!(text_chunks(&out), texts);
        let chunk_at = 8 + 25;
        let len = u32::from_be_bytes(out[chunk_at..chunk_at + 4].try_into().unwrap()) as usize;
        let crc = u32::from_be_bytes(out[chunk_at + 8 + len..chunk_at + 12 + len].try_into().unwrap());
        assert_eq!(crc, crc32(&out[chunk_at + 4..chunk_at + 8 + len]));
        assert_eq!(insert_text_chunks(b"not a png", &texts), None);
    }

    #[test]
    fn crc_is_the_one_png_chunks_carry() {
        // The CRC of an empty IEND chunk, as every PNG ends.
        assert_eq!(crc32(b"IEND"), 0xAE42_6082);
    }
}
