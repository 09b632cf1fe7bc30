//! Ragnarok Online textures (`ro-texture`): the BMP and TGA files of `data\texture\` that models and maps
//! use, as files or GRF entries, converted to PNG and packed back from PNG.
//!
//! Identified by content: a BMP by `BM` and a sane info header (see [`header`]), whatever its name (and a
//! `.bmp` without one is not taken for a texture); a TGA, which has no magic, by its `.tga` extension, then
//! its header is checked before anything is decoded. Pixels are
//! decoded by the `image` crate ([`crate::codec::raster`]) once the header's size passed the pixel limit.
//!
//! Choices:
//! - BMP: magenta is the game's colour key; texels with red and blue ≥ 0xFE and green ≤ 0x03 (allowing
//!   for 16-bit sources) become transparent, as the client draws them (issue 24). Packing a PNG to BMP
//!   writes 24 bits, transparent pixels (alpha < 128) as pure magenta, so convert and pack round-trip.
//! - TGA carries its own alpha, which the client uses as stored: no colour key. Packing writes 32-bit
//!   uncompressed TGA, top row first (the `image` crate's encoder).
//! - The JSON is the header and the file's bytes (base64): the file is its pixels, so the JSON says what
//!   the header says and writes the same bytes back.

pub mod header;

use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::asset::{Asset, Image, NamedAsset, Pixels};
use crate::error::{Error, Result};
use crate::registry::{Convert, ConvertInput, Format, Game, JsonContext, Kind, Pack, PackRequest, Probe};
use header::Container;

pub const FORMAT_ID: &str = "ro-texture";

pub static FORMAT: Format = Format {
    // A BMP is known by its header alone (a `.bmp` that is not one stays an unknown file); TGA has no magic.
    extensions: &["tga"],
    notes: "BMP (any depth; known by its header, whatever its name) and TGA (by extension; types 1-3, \
            9-11) to PNG. BMP: magenta (R,B >= 0xFE, G <= 3) becomes transparent, as the client keys it; TGA \
            keeps its own alpha. pack from PNG by the output's extension: .bmp writes 24 bits with transparent \
            pixels as magenta, .tga 32-bit uncompressed. JSON: the header and the file's bytes (base64).",
    probe: Probe {
        check: Some(header::is_bmp),
        // TGA has no magic: a `.tga` whose 18-byte header holds TGA's values.
        plausible: Some(|head, _len| header::is_tga(head)),
        ..Probe::NONE
    },
    pack_sources: &["png"],
    document: Some(&TextureFaces),
    convert: Some(&TextureFaces),
    pack: Some(&TextureFaces),
    ..Format::new(FORMAT_ID, "Ragnarok Online texture (BMP/TGA)", Game::Ragnarok, Kind::Image)
};

/// A BMP or TGA texture: its header, checked, and the file's bytes (the file is its pixels: relic keeps it
/// whole, and [`decode`] draws it). Read with [`Texture::read`], written with [`Texture::to_bytes`]; its JSON
/// (`relic convert --to json`: the header and the bytes in base64) is [`Texture::to_json`].
///
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::ragnarok::texture::{header::Container, Texture};
///
/// // A 1 × 1 24-bit BMP: file header, 40-byte info header, one magenta pixel (B, G, R) and row padding.
/// let mut bmp = b"BM".to_vec();
/// for word in [58u32, 0, 54, 40, 1, 1] {
///     bmp.extend(word.to_le_bytes());
/// }
/// bmp.extend([1, 0, 24, 0]); // one plane, 24 bits per pixel
/// for word in [0u32, 4, 2835, 2835, 0, 0] {
///     bmp.extend(word.to_le_bytes());
/// }
/// bmp.extend([0xFF, 0x00, 0xFF, 0x00]);
/// let texture = Texture::read(&bmp)?;
/// assert_eq!(texture.header.container, Container::Bmp);
/// assert_eq!((texture.header.width, texture.header.height, texture.header.bits_per_pixel), (1, 1, 24));
/// assert_eq!(texture.to_bytes()?, bmp);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Texture {
    pub header: header::Header,
    /// The whole file.
    pub bytes: Vec<u8>,
}

/// Typed access: the header check and the JSON of the `ro-texture` codec.
impl Texture {
    /// Reads a texture: its header is checked (a BMP by `BM`, else a TGA); the pixels are not decoded.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::ragnarok::texture::{header::Container, Texture};
    ///
    /// // A 1 × 1 24-bit BMP: file header, 40-byte info header, one magenta pixel (B, G, R) and row padding.
    /// let mut bmp = b"BM".to_vec();
    /// for word in [58u32, 0, 54, 40, 1, 1] {
    ///     bmp.extend(word.to_le_bytes());
    /// }
    /// bmp.extend([1, 0, 24, 0]); // one plane, 24 bits per pixel
    /// for word in [0u32, 4, 2835, 2835, 0, 0] {
    ///     bmp.extend(word.to_le_bytes());
    /// }
    /// bmp.extend([0xFF, 0x00, 0xFF, 0x00]);
    /// let texture = Texture::read(&bmp)?;
    /// assert_eq!(texture.header.bits_per_pixel, 24);
    /// assert!(Texture::read(&bmp[..20]).is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<Texture> {
        Ok(Texture { header: header::read(bytes)?, bytes: bytes.to_vec() })
    }

    /// The file's bytes: those read.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::ragnarok::texture::{header::Container, Texture};
    ///
    /// // A 1 × 1 24-bit BMP: file header, 40-byte info header, one magenta pixel (B, G, R) and row padding.
    /// let mut bmp = b"BM".to_vec();
    /// for word in [58u32, 0, 54, 40, 1, 1] {
    ///     bmp.extend(word.to_le_bytes());
    /// }
    /// bmp.extend([1, 0, 24, 0]); // one plane, 24 bits per pixel
    /// for word in [0u32, 4, 2835, 2835, 0, 0] {
    ///     bmp.extend(word.to_le_bytes());
    /// }
    /// bmp.extend([0xFF, 0x00, 0xFF, 0x00]);
    /// let texture = Texture::read(&bmp)?;
    /// assert_eq!(texture.to_bytes()?, bmp);
    /// let json = texture.to_json()?;
    /// assert_eq!(json["type"], "bmp");
    /// assert_eq!(Texture::from_json(json)?.to_bytes()?, bmp);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        Ok(self.bytes.clone())
    }

    /// The JSON of `relic convert --to json`: the header and the file's bytes (base64).
    pub fn to_json(&self) -> Result<serde_json::Value> {
        let h = self.header;
        let doc = Document {
            container: h.container,
            width: h.width,
            height: h.height,
            bits_per_pixel: h.bits_per_pixel,
            data: base64::engine::general_purpose::STANDARD.encode(&self.bytes),
        };
        crate::registry::tagged_document_json(FORMAT_ID, &doc)
    }

    /// The texture [`Texture::to_json`] describes (`relic pack ro-texture x.json`). The header must be that of
    /// the bytes: a header edited in the JSON alone is refused rather than silently ignored.
    pub fn from_json(value: serde_json::Value) -> Result<Texture> {
        let doc: Document = crate::registry::tagged_document_from_json(FORMAT_ID, value)?;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(doc.data.as_bytes())
            .map_err(|e| crate::registry::json_error(FORMAT_ID, "data", &e))?;
        let texture = Texture::read(&bytes)?;
        let h = texture.header;
        if (h.container, h.width, h.height, h.bits_per_pixel)
            != (doc.container, doc.width, doc.height, doc.bits_per_pixel)
        {
            return Err(crate::registry::json_error(
                FORMAT_ID,
                "",
                &"type, width, height and bits_per_pixel must be those of `data` (edit the image, not the header)",
            ));
        }
        Ok(texture)
    }
}

/// The lossless JSON: the header (for reading) and the bytes.
#[derive(Debug, Serialize, Deserialize)]
struct Document {
    #[serde(rename = "type")]
    container: Container,
    width: u32,
    height: u32,
    bits_per_pixel: u16,
    /// The whole file, base64.
    data: String,
}

/// The colour key of BMP textures: magenta (rounded 16-bit sources included).
fn is_key(p: &[u8]) -> bool {
    matches!(p, [r, g, b, _] if *r >= 0xFE && *g <= 0x03 && *b >= 0xFE)
}

/// Decodes a BMP or TGA texture into one RGBA frame: header checked and the pixel count limited first,
/// then BMP magenta keyed transparent (TGA alpha as stored).
pub fn decode(bytes: &[u8]) -> Result<Image> {
    let h = header::read(bytes)?;
    crate::limits::check_pixels(FORMAT_ID, h.width, h.height)?;
    let mut image = crate::codec::raster::decode(bytes)?;
    if h.container == Container::Bmp {
        for frame in &mut image.frames {
            if let Pixels::Rgba8(px) = &mut frame.pixels {
                px.chunks_exact_mut(4).filter(|p| is_key(p)).for_each(|p| p.copy_from_slice(&[0, 0, 0, 0]));
            }
        }
    }
    Ok(image)
}

/// A PNG as a BMP (24 bits, transparent as magenta) or a TGA (32 bits): refused without the encoders.
#[cfg(not(feature = "export"))]
fn from_png(_input_name: &str, _png: &[u8], _request: &PackRequest) -> Result<Vec<u8>> {
    Err(crate::export::needs_export("writing a BMP or TGA from PNG"))
}

/// A PNG as a BMP (24 bits, transparent as magenta) or a TGA (32 bits), by the output's extension.
#[cfg(feature = "export")]
fn from_png(input_name: &str, png: &[u8], request: &PackRequest) -> Result<Vec<u8>> {
    let image = crate::export::png::decode_rgba(png)?;
    let ext = crate::registry::extension_of(&request.output.to_string_lossy()).map(str::to_ascii_lowercase);
    let tga = match ext.as_deref() {
        Some("tga") => true,
        Some("bmp") => false,
        _ => {
            return Err(Error::Refused(format!(
                "{FORMAT_ID}: name the output .bmp or .tga (-o x.bmp): it says which of the two to write"
            )))
        }
    };
    let (out, partial) = encode_rgba(&image, tga)?;
    if partial > 0 {
        request.note(format!(
            "{input_name}: {partial} pixels are partly transparent; BMP keeps none (alpha < 128 becomes magenta)"
        ));
    }
    Ok(out)
}

/// The first frame of an RGBA image as a texture file: a 32-bit uncompressed TGA, or a 24-bit BMP with
/// transparent pixels (alpha < 128) as magenta, the game's colour key. Also returns how many pixels were
/// partly transparent (a BMP keeps none of that).
#[cfg(feature = "export")]
pub fn encode_rgba(image: &Image, tga: bool) -> Result<(Vec<u8>, usize)> {
    let frame = image.frames.first().ok_or_else(|| Error::Refused(format!("{FORMAT_ID}: the image has no frame")))?;
    let Pixels::Rgba8(px) = &frame.pixels else {
        return Err(Error::Refused(format!("{FORMAT_ID}: the image is not RGBA")));
    };
    let mut out = Vec::new();
    let err = |e: image::ImageError| Error::Refused(format!("{FORMAT_ID}: writing the image: {e}"));
    let mut partial = 0;
    if tga {
        image::codecs::tga::TgaEncoder::new(&mut out)
            .disable_rle()
            .encode(px, frame.width, frame.height, image::ExtendedColorType::Rgba8)
            .map_err(err)?;
    } else {
        partial = px.chunks_exact(4).filter(|p| matches!(p, [_, _, _, a] if *a != 0 && *a != 255)).count();
        let rgb: Vec<u8> = px
            .chunks_exact(4)
            .flat_map(|p| match *p {
                [r, g, b, a] if a >= 128 => [r, g, b],
                _ => [0xFF, 0, 0xFF],
            })
            .collect();
        image::codecs::bmp::BmpEncoder::new(&mut out)
            .encode(&rgb, frame.width, frame.height, image::ExtendedColorType::Rgb8)
            .map_err(err)?;
    }
    Ok((out, partial))
}

struct TextureFaces;

impl crate::registry::Document for TextureFaces {
    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        let h = header::read(data)?;
        let mut v = crate::registry::document_json(FORMAT_ID, &h)?;
        if let Some(o) = v.as_object_mut() {
            o.insert("format".into(), FORMAT_ID.into());
        }
        Ok(v)
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        Texture::read(data)?.to_json()
    }

    fn from_json(&self, value: serde_json::Value, _context: &JsonContext<'_>) -> Result<Vec<u8>> {
        Texture::from_json(value)?.to_bytes()
    }
}

impl Convert for TextureFaces {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let data = input.data;
        Ok(vec![NamedAsset { name: None, asset: Asset::Image(decode(data)?) }])
    }
}

impl Pack for TextureFaces {
    fn pack_input(&self, input_name: &str, content: &[u8], request: &PackRequest) -> Result<Vec<u8>> {
        if !crate::registry::extension_of(input_name).is_some_and(|e| e.eq_ignore_ascii_case("png")) {
            return Err(Error::Unsupported(format!(
                "{FORMAT_ID} is made from a PNG or from the JSON of `relic convert --to json`, not from {input_name}"
            )));
        }
        from_png(input_name, content, request)
    }
}
