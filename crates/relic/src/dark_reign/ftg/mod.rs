//! Dark Reign FTG archives (`dr-ftg`; spec "FTG Package Format", docs/formats/dark-reign.md#ftg-magic): `BOTG` (or `FTG\0` from
//! community tools, read but never written), an i32 directory offset and file count, data stored as is,
//! and 36-byte directory entries (28-byte NUL-terminated name, offset, size). The directory's order need not
//! be the data's; duplicate names exist and the game takes the first (looked up without ASCII case).
//!
//! Listed, extracted (a later duplicate as `<stem>~<n>.<ext>`, with `directory.json` recording every
//! entry's stored name, its data's offset, the directory's place, the file size and the non-zero bytes
//! between, so that `pack` writes the archive back byte for byte, data order included), packed from a
//! folder (with that `directory.json`: the stored layout while the files still fit it, else their data in
//! the stored order from offset 12; without one, or with an older one that has no offsets: `BOTG`, data in
//! directory order from offset 12, directory last) and from its JSON (byte for byte: names, order, data
//! layout and padding). Everything `extract` writes is a source (no views).
//! Converted entry by entry; the archive's `.PAL` draws its sprites (`--palette` still wins).
//!
//! Choices where the spec is silent: names are Windows-1252; a name field with bytes after its NUL is kept
//! whole in the JSON; offsets and sizes are read as u32 (the spec's i32 are never negative in a file that
//! fits); the JSON keeps the layout, so edited data of another size packs from a folder instead.

pub mod convert;
pub mod read;
pub mod types;
pub mod write;

pub use read::parse;
pub use types::{Ftg, FtgDocument, FtgEntry};
pub use write::{write_document, write_new, NewEntry};

use crate::asset::Entry;
use crate::error::{Error, Result};
use crate::registry::{
    Archive, ConvertInput, ConvertOptions, Document, FolderFile, Format, Game, JsonContext, Kind, Magic, Pack,
    PackFolder, PackRequest, Probe,
};

pub const FORMAT_ID: &str = "dr-ftg";

pub static FORMAT: Format = Format {
    extensions: &["ftg"],
    notes: "Magic BOTG (FTG\\0 from community tools is identified and read, BOTG written). Duplicate names: the \
            first wins for lookups; later ones extract as <stem>~<n>.<ext>. extract writes sources only: the files and \
            directory.json (names, the order, where each file's data lay, the directory's place and the bytes \
            between), from which pack writes the archive back byte for byte, the data in its stored order even \
            when that is not the directory's; edited files that no longer fit are laid out afresh in that order. \
            The archive's .PAL draws its sprites when converted.",
    probe: Probe {
        check: Some(sniff),
        ..Probe::magic(&[Magic::prefix(types::MAGIC), Magic::prefix(types::MAGIC_COMMUNITY)])
    },
    document: Some(&FtgFaces),
    archive: Some(&FtgFaces),
    pack: Some(&FtgFaces),
    ..Format::new(FORMAT_ID, "Dark Reign FTG archive", Game::DarkReign, Kind::Archive)
};

struct FtgFaces;

/// `BOTG`, or the community tools' `FTG\0` (docs/formats/dark-reign.md#ftg-magic: identification accepts both). The older
/// magic ends in a NUL, weaker than four letters, so its header must also place a directory of whole
/// entries after itself (`parse` then checks it lies inside the file).
fn sniff(head: &[u8]) -> bool {
    if head.starts_with(types::MAGIC) {
        return true;
    }
    let field = |at: usize| head.get(at..at + 4).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes);
    match (head.starts_with(types::MAGIC_COMMUNITY), field(4), field(8)) {
        (true, Some(offset), Some(count)) => {
            offset >= 12 && u64::from(offset) + u64::from(count) * types::ENTRY_SIZE as u64 <= u64::from(u32::MAX)
        }
        _ => false,
    }
}

impl Document for FtgFaces {
    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(&parse(data)?))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        crate::registry::document_json(FORMAT_ID, &convert::to_document(&parse(data)?))
    }

    fn from_json(&self, value: serde_json::Value, _context: &JsonContext<'_>) -> Result<Vec<u8>> {
        let doc: FtgDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
        write_document(&doc)
    }
}

impl Archive for FtgFaces {
    fn entries<'a>(&self, data: &'a [u8], _archive_name: &str) -> Result<Vec<Entry<'a>>> {
        parse(data).map(|f| convert::entries(&f))
    }

    fn extraction_index(&self, data: &[u8], _archive_name: &str) -> Option<Result<(String, Vec<u8>)>> {
        Some(parse(data).and_then(|f| {
            let value = serde_json::to_value(convert::extracted_directory(&f))
                .map_err(|e| Error::Unsupported(format!("JSON: {e}")))?;
            Ok((convert::DIRECTORY_FILE.to_string(), crate::export::json::to_pretty(&value)?))
        }))
    }

    /// The archive's first `.PAL` (by directory order) draws its sprites. Entries sharing or overlapping
    /// data are noted ([`convert::sharing_notes`]).
    fn entry_options(&self, input: &ConvertInput<'_>) -> Option<ConvertOptions> {
        let (data, opts) = (input.data, input.options);
        let ftg = parse(data).ok()?;
        convert::sharing_notes(&ftg).into_iter().for_each(|n| opts.note(n));
        let i = ftg.entries.iter().position(|e| e.name.to_ascii_lowercase().ends_with(".pal"))?;
        let palette = crate::codec::palette::Palette::read(ftg.data(i), crate::dark_reign::scaling(opts)).ok()?;
        Some(ConvertOptions { archive_palette: Some(std::sync::Arc::new(palette)), ..opts.clone() })
    }

    fn edits_in_place(&self) -> bool {
        true
    }
}

impl Pack for FtgFaces {
    fn pack_folder(&self, files: Vec<FolderFile>, request: &PackRequest, out: &mut dyn std::io::Write) -> Result<u64> {
        let folder = PackFolder::new(&files);
        let index = folder.index::<convert::ExtractedDirectory>(convert::DIRECTORY_FILE, convert::DIRECTORY_FORMAT)?;
        let bytes = match index {
            Some(dir) => {
                folder.all_listed(convert::DIRECTORY_FILE, dir.entries.iter().map(|e| e.path.as_str()))?;
                let data = dir
                    .entries
                    .iter()
                    .map(|e| folder.read(&e.path, convert::DIRECTORY_FILE))
                    .collect::<Result<Vec<_>>>()?;
                write::from_directory_noting(&dir, &data, &mut |n| request.note(n))?
            }
            None => {
                let entries = files
                    .iter()
                    .map(|f| {
                        Ok(NewEntry {
                            name: f.relative.replace('/', "\\"),
                            data: folder.read(&f.relative, "the folder")?,
                        })
                    })
                    .collect::<Result<Vec<_>>>()?;
                write_new(&entries)?
            }
        };
        out.write_all(&bytes).map_err(|e| Error::io("output", e))?;
        Ok(bytes.len() as u64)
    }
}

/// Typed access: the parse of the `dr-ftg` codec, zero-copy.
impl<'a> Ftg<'a> {
    /// Reads an FTG archive, borrowing `bytes`: each file's data is a slice of them ([`Ftg::data`]).
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::dark_reign::ftg::{write_new, Ftg, NewEntry};
    ///
    /// // An archive of two files, written as Dark Reign writes them: `BOTG`, data from offset 12, directory last.
    /// let entry = |name: &str, data: &[u8]| NewEntry { name: name.into(), data: data.to_vec() };
    /// let bytes = write_new(&[entry("UNIT.SPR", b"sprite"), entry("BARREN.PAL", b"palette")])?;
    /// let ftg = Ftg::read(&bytes)?;
    /// assert_eq!(ftg.entries[0].name, "UNIT.SPR");
    /// assert_eq!((ftg.entries[0].offset, ftg.entries[0].size), (12, 6));
    /// assert_eq!(ftg.data(0), b"sprite");
    /// assert!(Ftg::read(b"BOTG").is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &'a [u8]) -> Result<Ftg<'a>> {
        parse(bytes)
    }

    /// The owned, lossless document (`relic convert --to json` is `serde_json::to_value` of it).
    pub fn to_document(&self) -> FtgDocument {
        convert::to_document(self)
    }

    /// The file's bytes, written from [`Ftg::to_document`] by the writer of `relic pack dr-ftg x.json`: those
    /// read.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::dark_reign::ftg::{write_new, Ftg, NewEntry};
    ///
    /// // An archive of two files, written as Dark Reign writes them: `BOTG`, data from offset 12, directory last.
    /// let entry = |name: &str, data: &[u8]| NewEntry { name: name.into(), data: data.to_vec() };
    /// let bytes = write_new(&[entry("UNIT.SPR", b"sprite"), entry("BARREN.PAL", b"palette")])?;
    /// let ftg = Ftg::read(&bytes)?;
    /// assert_eq!(ftg.to_bytes()?, bytes);
    /// let doc = ftg.to_document();
    /// assert_eq!(doc.entries.len(), 2);
    /// assert_eq!(doc.to_bytes()?, bytes);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write_document(&self.to_document())
    }
}

/// Typed access to the owned document.
impl FtgDocument {
    /// Reads an FTG archive into its owned document ([`Ftg::read`], then [`Ftg::to_document`]).
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::dark_reign::ftg::FtgDocument;
    ///
    /// let bytes = std::fs::read("../../samples/dark_reign/SPRITES.FTG")?;
    /// let doc = FtgDocument::read(&bytes)?;
    /// assert_eq!(doc.entries.len(), 3);
    /// assert_eq!(doc.to_bytes()?, bytes);
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<FtgDocument> {
        Ok(convert::to_document(&parse(bytes)?))
    }

    /// The file's bytes (the writer of `relic pack dr-ftg x.json`).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write_document(self)
    }
}
