//! Evil Islands MMP textures (`ei-mmp`): every texture of the game (terrain, units, interface), with its
//! mip levels.
//!
//! Layout (spec "Mmp", corrected by docs/formats/evil-islands.md#mmp-header): a 76-byte header — `MMP\0`, width, height, mip level
//! count, fourcc, bits per pixel, four (mask, shift, count) channel records for A, R, G, B and 4 bytes that
//! are zero in every known file — then the levels largest first, each halving width and height (neither
//! below one) and taking `bpp · w · h / 8` bytes, at least one block (8 bytes) for DXT1 and 16 for DXT3. Pixel
//! formats: ARGB4 (`0x4444`), R5G6B5 (`0x5650`), A1R5G5B5 (`0x5551`), ARGB8 (`0x8888`), DXT1, DXT3 and
//! PNT3, run-length packed ARGB8 whose packed byte size sits in the mip count field (one level); when that
//! size is not below `4 · w · h` the texels are stored raw. Uncompressed pixels are decoded through the
//! header's own masks (`255 · value / (mask >> shift)`), alpha 255 when the alpha count is 0.
//!
//! Choices relic made where the sources are silent:
//! - Rows are shown in stored order, first row on top (the game draws through Direct3D, whose textures
//!   start with their top row). The spec remarks that some textures look vertically flipped; relic does
//!   not flip any.
//! - A DXT level smaller than its 4×4 block grid (one side below 4, the other above) holds only the first
//!   blocks; the rest of it decodes as transparent black, and the writer stores only those blocks.
//! - DXT1 must say 4 bits per pixel and DXT3 8; uncompressed pixels 8, 16, 24 or 32 (other values are
//!   rejected). Unknown fourccs are read through their masks, as the spec does.
//! - PNT3: the header relic writes says 32 bits per pixel with ARGB8 masks (no PNT3 file was available to
//!   check). A packed stream that does not unpack to exactly `4 · w · h` bytes is an error.
//! - Hostile headers are refused before anything is allocated: a `mip_levels_count` over
//!   `log2(max(w, h)) + 1` (levels halve down to 1×1) plus `read::EXTRA_1X1_LEVELS` (2: levels of 1×1 past
//!   a full chain, which other tools may write, are read and written back) is an error naming the field and
//!   its offset (12); a PNT3 texture unpacks to at most what its header declares for the level (`4 · w · h`
//!   bytes, also capped by `MAX_PNT3_UNPACKED`) and to at most `--max-expansion` times the file's size
//!   (`crate::limits`), else it is refused naming `mip_levels_count` (the packed size). Every PNT3 word
//!   makes progress (a run word adds 1 to 1,000,000 bytes, any other word 4), so unpacking is linear in the
//!   output and never loops without advancing.
//! - A texture's PNG records its pixel format and mip level count (a `relic` text chunk,
//!   [`provenance`]), so that packing the PNG again keeps them; the spec knows nothing of PNG. Pack keeps
//!   the number of levels stored (a partial chain stays partial), not only whether there were mips. (Pack
//!   reads the record; convert writes it once the shared PNG exporter carries text chunks.)
//! - New textures get the masks the game's files carry: the fourcc's hex digits are the R, G, B, A bit
//!   counts for the uncompressed formats; DXT1 files carry A1R5G5B5 masks, DXT3 files ARGB4.

pub mod convert;
pub mod pack;
pub mod pnt3;
pub mod provenance;
pub mod read;
pub mod types;
pub mod write;

pub use convert::{decode_level, to_image};
pub use read::parse;
pub use types::{ChannelFormat, FourCc, Level, LevelDocument, Mmp, MmpDocument, MmpHeader, PixelFormat};
pub use write::{encode, encode_levels, write_document};

use crate::asset::{Asset, NamedAsset};
use crate::error::{Error, Result};
use crate::registry::{
    Convert, ConvertInput, Document, Format, Game, JsonContext, Kind, Magic, Pack, PackRequest, Probe,
};

pub const FORMAT_ID: &str = "ei-mmp";

/// Pixel format of `relic pack ei-mmp` without `--pixel-format`.
pub const DEFAULT_PIXEL_FORMAT: PixelFormat = PixelFormat::Argb8;

pub static FORMAT: Format = Format {
    extensions: &["mmp"],
    notes: "Converts the top level to PNG, every mip level with --mips (<stem>.mip0.png, …); rows as stored, \
            first row on top (no flip). pack from PNG: --pixel-format dxt1|dxt3|argb4|r5g6b5|a1r5g5b5|argb8|pnt3, \
            --mips for a full chain (2×2 box filter); without them the pixel format and mip level count a \
            `relic` text chunk in the PNG records (`ei-mmp format=dxt1 mips=9`, kept by editors that keep text \
            chunks; a mip level's PNG packs as the texture's), else argb8 with one level. DXT needs sides that are \
            multiples of 4; PNT3 has no mips and is stored raw when packing does not help. Unsettled: the PNT3 \
            header's bpp and masks (relic writes 32, ARGB8); DXT mip levels narrower than a block keep only the \
            blocks the size rule allows.",
    probe: Probe::magic(&[Magic::prefix(&types::MAGIC)]),
    pack_sources: &["png"],
    // The names of `PixelFormat::ALL`, in its order (a test holds them together).
    pixel_formats: &["argb4", "r5g6b5", "a1r5g5b5", "argb8", "dxt1", "dxt3", "pnt3"],
    document: Some(&MmpFaces),
    convert: Some(&MmpFaces),
    pack: Some(&MmpFaces),
    ..Format::new(FORMAT_ID, "Evil Islands MMP texture", Game::EvilIslands, Kind::Image)
};

struct MmpFaces;

impl Document for MmpFaces {
    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(&parse(data)?))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        let doc = convert::to_document(&parse(data)?);
        crate::registry::document_json(FORMAT_ID, &doc)
    }

    fn from_json(&self, value: serde_json::Value, _context: &JsonContext<'_>) -> Result<Vec<u8>> {
        let doc: MmpDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
        write_document(&doc)
    }
}

impl Convert for MmpFaces {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let image = to_image(&parse(input.data)?, input.options.mips)?;
        Ok(vec![NamedAsset { name: None, asset: Asset::Image(image) }])
    }
}

impl Pack for MmpFaces {
    fn pack_input(&self, input_name: &str, content: &[u8], request: &PackRequest) -> Result<Vec<u8>> {
        let is_png = crate::registry::extension_of(input_name).is_some_and(|e| e.eq_ignore_ascii_case("png"));
        if !is_png {
            return Err(Error::Unsupported(format!(
                "{FORMAT_ID} is made from a PNG or from the JSON of `relic convert --to json`, not from {input_name}"
            )));
        }
        let (bytes, notes) = pack::from_png(input_name, content, request)?;
        for note in notes {
            request.note(note);
        }
        Ok(bytes)
    }
}

/// Typed access: the parse of the `ei-mmp` codec, zero-copy.
impl<'a> Mmp<'a> {
    /// Reads an MMP texture, borrowing `bytes`: each level's data is a slice of them.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::mmp::{encode, Mmp, PixelFormat};
    ///
    /// // A 2 × 2 ARGB8 texture without mip levels, encoded from RGBA pixels by relic's packer.
    /// let rgba = [255, 0, 0, 255].repeat(4);
    /// let bytes = encode(&rgba, 2, 2, PixelFormat::Argb8, false)?;
    /// let mmp = Mmp::read(&bytes)?;
    /// assert_eq!(mmp.header.mip_levels_count, 1);
    /// assert_eq!((mmp.levels[0].width, mmp.levels[0].height), (2, 2));
    /// assert!(mmp.trailing.is_empty());
    /// assert!(Mmp::read(&bytes[..75]).is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &'a [u8]) -> Result<Mmp<'a>> {
        parse(bytes)
    }

    /// The owned, lossless document (`relic convert --to json` is `serde_json::to_value` of it).
    pub fn to_document(&self) -> MmpDocument {
        convert::to_document(self)
    }

    /// The file's bytes, written from [`Mmp::to_document`] by the writer of `relic pack ei-mmp x.json`: those
    /// read.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::mmp::{encode, Mmp, PixelFormat};
    ///
    /// // A 2 × 2 ARGB8 texture without mip levels, encoded from RGBA pixels by relic's packer.
    /// let rgba = [255, 0, 0, 255].repeat(4);
    /// let bytes = encode(&rgba, 2, 2, PixelFormat::Argb8, false)?;
    /// let mmp = Mmp::read(&bytes)?;
    /// assert_eq!(mmp.to_bytes()?, bytes);
    /// let mut doc = mmp.to_document();
    /// doc.levels[0].data.0[0] = 0x80;
    /// assert_eq!(Mmp::read(&doc.to_bytes()?)?.levels[0].data[0], 0x80);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write_document(&self.to_document())
    }
}

/// Typed access to the owned document.
impl MmpDocument {
    /// Reads an MMP texture into its owned document ([`Mmp::read`], then [`Mmp::to_document`]).
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::mmp::MmpDocument;
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/example_dxt1.mmp")?;
    /// let doc = MmpDocument::read(&bytes)?;
    /// assert_eq!((doc.header.width, doc.header.height), (16, 16));
    /// assert_eq!(doc.levels.len(), 5);
    /// assert_eq!(doc.to_bytes()?, bytes);
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<MmpDocument> {
        Ok(convert::to_document(&parse(bytes)?))
    }

    /// The file's bytes (the writer of `relic pack ei-mmp x.json`).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write_document(self)
    }
}

#[cfg(test)]
mod registry_tests {
    #[test]
    fn pixel_formats_are_every_pixel_format_by_name() {
        let names: Vec<&str> = super::PixelFormat::ALL.iter().map(|f| f.name()).collect();
        assert_eq!(super::FORMAT.pixel_formats, names.as_slice());
    }
}
