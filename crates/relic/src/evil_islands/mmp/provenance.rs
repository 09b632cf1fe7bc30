//! What a texture's PNG records of the MMP it was converted from, so that `relic pack ei-mmp x.png` writes
//! it back in its own pixel format and with as many mip levels: a PNG text chunk with the keyword
//! [`PNG_TEXT_KEYWORD`] and the text `ei-mmp format=dxt1 mips=9` ([`png_text`]). Editors that keep text
//! chunks keep it; a PNG without it packs as relic's defaults say (ARGB8, one level).
//! [`super::convert::to_image`] attaches it to the image (`Image::text`), and the PNG exporter writes it.
//!
//! The chunk is read from `tEXt`, `zTXt` and `iTXt` chunks anywhere in the file (editors may move text
//! after the image data, [`crate::export::png::text_chunks`]); the first whose keyword is `relic` and whose
//! text starts with `ei-mmp` counts.
//! Unknown `key=value` words are ignored, so later versions may add some.

use super::types::{Mmp, PixelFormat};
use super::FORMAT_ID;
use crate::export::png::text_chunks;

/// Keyword of the PNG text chunk (`tEXt`) that records where a texture's PNG comes from.
pub const PNG_TEXT_KEYWORD: &str = "relic";

/// The record of a texture: `ei-mmp format=<pixel format> mips=<levels stored>`. The format is left out
/// for a fourcc relic cannot write (then pack takes its default).
pub fn png_text(mmp: &Mmp<'_>) -> String {
    let mut text = FORMAT_ID.to_string();
    if let Some(format) = mmp.header.fourcc.pixel_format() {
        text.push_str(&format!(" format={}", format.name()));
    }
    text.push_str(&format!(" mips={}", mmp.levels.len()));
    text
}

/// What a PNG's record says (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Recorded {
    pub format: Option<PixelFormat>,
    /// Mip levels stored in the original texture (at least 1).
    pub mips: Option<u32>,
}

impl Recorded {
    /// Reads a record's text; `None` unless it starts with `ei-mmp`. Values it cannot read are left out.
    pub fn parse(text: &str) -> Option<Recorded> {
        let mut words = text.split_ascii_whitespace();
        if words.next() != Some(FORMAT_ID) {
            return None;
        }
        let mut out = Recorded::default();
        for word in words {
            match word.split_once('=') {
                Some(("format", v)) => out.format = PixelFormat::from_name(v),
                Some(("mips", v)) => out.mips = v.parse().ok().filter(|&n| n >= 1),
                _ => {}
            }
        }
        Some(out)
    }

    /// The record in a PNG file's text chunks, if it has one.
    pub fn of_png(png: &[u8]) -> Option<Recorded> {
        text_chunks(png).into_iter().filter(|(k, _)| k == PNG_TEXT_KEYWORD).find_map(|(_, t)| Recorded::parse(&t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
        let mut out = (data.len() as u32).to_be_bytes().to_vec();
        out.extend(kind);
        out.extend(data);
        out.extend([0; 4]); // CRC: not checked here
        out
    }

    #[test]
    fn records_are_read_from_every_kind_of_text_chunk() {
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        png.extend(chunk(b"IHDR", &[0; 13]));
        png.extend(chunk(b"tEXt", b"Comment\0hello"));
        png.extend(chunk(b"IDAT", &[1, 2, 3]));
        let z = crate::codec::zlib::compress(b"ei-mmp format=dxt3 mips=4", 6);
        let mut ztxt = b"relic\0\0".to_vec();
        ztxt.extend(&z);
        png.extend(chunk(b"zTXt", &ztxt));
        png.extend(chunk(b"iTXt", b"relic\0\0\0en\0\0ei-mmp mips=2 later=1"));
        let mut itxt = b"relic\0\x01\0\0\0".to_vec();
        itxt.extend(crate::codec::zlib::compress("ei-mmp format=argb4 mips=1".as_bytes(), 6));
        png.extend(chunk(b"iTXt", &itxt));
        png.extend(chunk(b"IEND", &[]));
        png.extend(chunk(b"tEXt", b"relic\0after the end"));
        let chunks = text_chunks(&png);
        assert_eq!(
            chunks,
            [
                ("Comment".to_string(), "hello".to_string()),
                ("relic".into(), "ei-mmp format=dxt3 mips=4".into()),
                ("relic".into(), "ei-mmp mips=2 later=1".into()),
                ("relic".into(), "ei-mmp format=argb4 mips=1".into()),
            ]
        );
        assert_eq!(Recorded::of_png(&png), Some(Recorded { format: Some(PixelFormat::Dxt3), mips: Some(4) }));
        assert_eq!(Recorded::parse("ei-mmp mips=2 later=1"), Some(Recorded { format: None, mips: Some(2) }));
        assert_eq!(Recorded::parse("ei-mmp format=bc7 mips=0"), Some(Recorded::default()));
        assert_eq!(Recorded::parse("ei-mmpx format=dxt1"), None);
        assert_eq!(Recorded::parse(""), None);
        // A broken chunk list ends the walk (here inside the last iTXt); what came before counts.
        let cut = &png[..png.len() - 31 - 12 - 5];
        assert_eq!(text_chunks(cut).len(), 3);
        assert!(text_chunks(b"not a png").is_empty());
    }
}
