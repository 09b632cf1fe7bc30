//! Ragnarok Online palettes (`ro-pal`, `.pal`): the alternative colours of a sprite (hair and clothes dyes,
//! `data/palette/…`), drawn in place of the palette a `.spr` carries.
//!
//! Layout (RagnarokFileFormats PAL.MD): no header, 256 colours of 4 bytes, 1024 bytes in all. The spec
//! leaves the byte order open ("TODO: ARGB, RGBA or ABGR?"); roBrowser's sprite loader reads the sprite's own
//! 1024-byte palette (the same layout) as R, G, B and ignores the fourth byte (index 0 transparent, every
//! other index opaque). relic reads the same. The fourth byte is kept, so a file is written back byte for
//! byte: files in the wild do not all leave it 0 (RagLite's test palette stores 0x06 and 0x42 there).
//!
//! No magic: a `.pal` of exactly 1024 bytes that is no PALS, RIFF or JASC-PAL palette is this format
//! (Dark Reign community tools ship the same RGBX layout; `--palette` reads both, see
//! [`crate::codec::palette::Palette::read`]).
//!
//! `relic convert x.pal` writes a 16 × 16 swatch PNG (entry `i` at column `i % 16`, row `i / 16`, every
//! entry opaque) that records the fourth bytes in a `tEXt` chunk; `relic pack ro-pal x.pal.png` writes the
//! swatch's colours back exactly, with the recorded fourth bytes, or 0 (with a note) when the PNG records
//! none (one painted elsewhere). `--to json` gives the colours as `#RRGGBB` and the fourth bytes (one
//! number when all are equal), and packs back byte for byte.
//!
//! ```
//! use relic::ragnarok::pal::RoPalette;
//!
//! let mut bytes = vec![0u8; 1024];
//! bytes[4..8].copy_from_slice(&[255, 128, 0, 0]);
//! let pal = RoPalette::read(&bytes)?;
//! assert_eq!(pal.colors[1], [255, 128, 0, 0]);
//! assert_eq!(pal.palette().colors[1], [255, 128, 0, 255]);
//! assert_eq!(pal.to_bytes()?, bytes);
//! # Ok::<(), relic::Error>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::asset::{Asset, NamedAsset, Pixels};
use crate::codec::palette::Palette;
use crate::error::{Error, Result};
use crate::reader::Reader;
use crate::registry::{Convert, ConvertInput, FileFormat, Format, Game, Kind, Pack, PackRequest, Probe, Typed};

pub const FORMAT_ID: &str = "ro-pal";
/// The size of every Ragnarok palette: 256 × 4 bytes.
pub const SIZE: usize = 1024;
/// The `tEXt` keyword of the swatch PNG that records the fourth bytes.
pub const PNG_TEXT_KEYWORD: &str = "relic-ro-pal";

/// A Ragnarok palette: 256 entries of R, G, B and the unused fourth byte, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoPalette {
    pub colors: [[u8; 4]; 256],
}

impl RoPalette {
    /// Reads a palette: exactly 1024 bytes.
    pub fn read(bytes: &[u8]) -> Result<RoPalette> {
        let mut r = Reader::new(FORMAT_ID, bytes);
        let mut colors = [[0u8; 4]; 256];
        for (i, c) in colors.iter_mut().enumerate() {
            *c = r.array::<4>(&format!("colors[{i}]"))?;
        }
        if r.remaining() > 0 {
            return Err(
                r.error("trailing", format!("{} bytes past the 256 colours (a palette is 1024 bytes)", r.remaining()))
            );
        }
        Ok(RoPalette { colors })
    }

    /// The file's bytes (a `Result` like every format's `to_bytes`, though a palette always writes).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        Ok(self.colors.iter().flatten().copied().collect())
    }

    /// The JSON of `relic convert --to json` (the colours, and the fourth bytes as one value when all agree).
    pub fn to_json(&self) -> Result<serde_json::Value> {
        crate::registry::tagged_document_json(FORMAT_ID, &document(self))
    }

    /// The colours as the client draws them: every entry opaque (the fourth byte is not alpha).
    pub fn palette(&self) -> Palette {
        Palette { colors: self.colors.iter().map(|&[r, g, b, _]| [r, g, b, 255]).collect() }
    }

    /// The fourth bytes: one value when all are equal.
    pub fn fourth(&self) -> Fourth {
        let first = self.colors[0][3];
        if self.colors.iter().all(|c| c[3] == first) {
            Fourth::Same(first)
        } else {
            Fourth::Each(self.colors.iter().map(|c| c[3]).collect())
        }
    }
}

/// The fourth bytes of a palette's entries, in its document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Fourth {
    /// Every entry's.
    Same(u8),
    /// Entry by entry, 256 of them.
    Each(Vec<u8>),
}

impl Fourth {
    fn get(&self, i: usize) -> Option<u8> {
        match self {
            Fourth::Same(v) => Some(*v),
            Fourth::Each(list) => list.get(i).copied(),
        }
    }

    /// As recorded in the swatch PNG: two hex digits, or 512 for one per entry.
    fn to_text(&self) -> String {
        match self {
            Fourth::Same(v) => format!("fourth={v:02x}"),
            Fourth::Each(list) => format!("fourth={}", hex::encode(list)),
        }
    }

    fn from_text(text: &str) -> Option<Fourth> {
        let bytes = hex::decode(text.strip_prefix("fourth=")?).ok()?;
        match bytes.as_slice() {
            [v] => Some(Fourth::Same(*v)),
            list if list.len() == 256 => Some(Fourth::Each(bytes)),
            _ => None,
        }
    }
}

/// A palette's document (`convert --to json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    /// `#RRGGBB`, 256 of them.
    colors: Vec<String>,
    /// The fourth byte of each entry, which the client ignores.
    fourth: Fourth,
}

fn document(pal: &RoPalette) -> Document {
    Document {
        colors: pal.colors.iter().map(|[r, g, b, _]| format!("#{r:02X}{g:02X}{b:02X}")).collect(),
        fourth: pal.fourth(),
    }
}

fn from_document(doc: &Document) -> Result<RoPalette> {
    let bad = |field: String, why: &str| crate::registry::json_error(FORMAT_ID, &field, &why);
    if doc.colors.len() != 256 {
        return Err(bad("colors".into(), &format!("{} entries, not 256", doc.colors.len())));
    }
    if let Fourth::Each(list) = &doc.fourth {
        if list.len() != 256 {
            return Err(bad("fourth".into(), &format!("{} entries, not 256 (or one number for all)", list.len())));
        }
    }
    let mut colors = [[0u8; 4]; 256];
    for (i, (text, c)) in doc.colors.iter().zip(colors.iter_mut()).enumerate() {
        let hex = text.strip_prefix('#').filter(|h| h.len() == 6 && h.is_ascii());
        let channel = |k: usize| hex.and_then(|h| h.get(k..k + 2)).and_then(|d| u8::from_str_radix(d, 16).ok());
        let (Some(r), Some(g), Some(b)) = (channel(0), channel(2), channel(4)) else {
            return Err(bad(format!("colors[{i}]"), "not #RRGGBB"));
        };
        *c = [r, g, b, doc.fourth.get(i).unwrap_or(0)];
    }
    Ok(RoPalette { colors })
}

/// The swatch: a 16 × 16 PNG image of the colours, opaque, recording the fourth bytes.
fn swatch(pal: &RoPalette) -> crate::asset::Image {
    let mut image = pal.palette().swatch();
    image.text.push((PNG_TEXT_KEYWORD.into(), pal.fourth().to_text()));
    image
}

/// The palette from its swatch PNG (another 16 × 16 image too): each pixel's colour, alpha ignored, and the
/// fourth bytes the PNG records, else 0.
fn from_png(input_name: &str, png: &[u8], request: &PackRequest) -> Result<RoPalette> {
    let image = crate::export::png::decode_rgba(png)?;
    let frame = image.frames.first().ok_or_else(|| Error::Refused(format!("{input_name}: no image")))?;
    if (frame.width, frame.height) != (16, 16) {
        return Err(Error::Refused(format!(
            "{input_name}: {} × {} pixels; a palette swatch is 16 × 16 (entry i at column i % 16, row i / 16)",
            frame.width, frame.height
        )));
    }
    let Pixels::Rgba8(px) = &frame.pixels else {
        return Err(Error::Refused(format!("{input_name}: not an RGBA image")));
    };
    let recorded = crate::export::png::text_chunks(png)
        .into_iter()
        .filter(|(k, _)| k == PNG_TEXT_KEYWORD)
        .find_map(|(_, t)| Fourth::from_text(&t));
    if recorded.is_none() {
        request.note(format!(
            "{input_name}: records no fourth bytes (not a swatch of `relic convert`): written as 0, which the client ignores"
        ));
    }
    let fourth = recorded.unwrap_or(Fourth::Same(0));
    let mut colors = [[0u8; 4]; 256];
    for (i, (c, p)) in colors.iter_mut().zip(px.chunks_exact(4)).enumerate() {
        if let [r, g, b, _] = *p {
            *c = [r, g, b, fourth.get(i).unwrap_or(0)];
        }
    }
    Ok(RoPalette { colors })
}

/// Whether a file named `.pal` is one: exactly 1024 bytes, and none of the palettes with a header.
pub fn is_ro_palette(head: &[u8], len: u64) -> bool {
    len == SIZE as u64 && !head.starts_with(b"PALS") && !head.starts_with(b"RIFF") && !head.starts_with(b"JASC-PAL")
}

pub static FORMAT: Format = Format {
    extensions: &["pal"],
    notes: "256 x R, G, B and a fourth byte the client ignores (kept), 1024 bytes, no header: a .pal of that \
            size that is no PALS/RIFF/JASC palette. convert writes a 16x16 swatch PNG recording the fourth bytes; \
            pack takes it back (colours exact; fourth bytes 0 when the PNG records none) or the JSON.",
    probe: Probe::plausible(is_ro_palette),
    pack_sources: &["png"],
    document: Some(&Typed::<RoPalette>::FACE),
    convert: Some(&RoPalFaces),
    pack: Some(&RoPalFaces),
    ..Format::new(FORMAT_ID, "Ragnarok Online palette", Game::Ragnarok, Kind::Image)
};

struct RoPalFaces;

impl FileFormat for RoPalette {
    const ID: &'static str = FORMAT_ID;

    fn parse(bytes: &[u8]) -> Result<Self> {
        RoPalette::read(bytes)
    }

    fn write(&self) -> Result<Vec<u8>> {
        self.to_bytes()
    }

    fn info(&self, _bytes: &[u8]) -> Result<serde_json::Value> {
        let fourth = match self.fourth() {
            Fourth::Same(v) => serde_json::json!(v),
            Fourth::Each(_) => serde_json::json!("varies"),
        };
        Ok(serde_json::json!({
            "format": FORMAT_ID,
            "colors": 256,
            "first": document(self).colors.first(),
            "fourth_byte": fourth,
        }))
    }

    fn to_document(&self) -> Result<serde_json::Value> {
        self.to_json()
    }

    fn from_document(value: serde_json::Value) -> Result<Self> {
        from_document(&crate::registry::tagged_document_from_json::<Document>(FORMAT_ID, value)?)
    }
}

impl Convert for RoPalFaces {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let data = input.data;
        Ok(vec![NamedAsset { name: None, asset: Asset::Image(swatch(&RoPalette::read(data)?)) }])
    }
}

impl Pack for RoPalFaces {
    fn pack_input(&self, input_name: &str, content: &[u8], request: &PackRequest) -> Result<Vec<u8>> {
        if !crate::registry::extension_of(input_name).is_some_and(|e| e.eq_ignore_ascii_case("png")) {
            return Err(Error::Unsupported(format!(
                "{FORMAT_ID} is made from a PNG or from the JSON of `relic convert --to json`, not from {input_name}"
            )));
        }
        from_png(input_name, content, request)?.to_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fourth_bytes_are_recorded_as_text_both_ways() {
        assert_eq!(Fourth::from_text(&Fourth::Same(7).to_text()), Some(Fourth::Same(7)));
        let each = Fourth::Each((0..=255).collect());
        assert_eq!(Fourth::from_text(&each.to_text()), Some(each));
        assert_eq!(Fourth::from_text("fourth=0102"), None);
        assert_eq!(Fourth::from_text("other"), None);
    }
}
