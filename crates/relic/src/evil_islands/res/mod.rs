//! Evil Islands RES archives (`ei-res`): the game's resource archives, and also the container of `.mod`
//! models, `.bon` bone sets and `.anm` animation sets.
//!
//! Layout (spec "Res", corrected by docs/formats/evil-islands.md#res): a 16-byte header (`3C E2 9C 01`, file count, file-table
//! offset, name-table size), 16-byte aligned entry data, a table of 22-byte records placed by the name hash
//! and chained through `next_index`, then the cp1251 names (no terminators, `\` between folders). Times
//! are Unix seconds. Identical contents may be stored once and shared by several names.
//!
//! Uncertain: the game's handling of a negative hash sum (names with bytes ≥ 0x80) is not documented; see
//! [`read::name_hash`]. The game's own archives were not written in name order (their insertion order is
//! unknown), so a repacked game archive keeps every entry, name, time and byte but not the table order.
//! Text entries (every entry of `texts.res`: a title line, then the text, CRLF line ends) convert to
//! UTF-8 `.txt` files and pack back to cp1251: see [`text`].
//! `auxData.res` from the public map editor repacks byte-identically; the `.mod` archives nested in it were
//! written by yet another tool (data in insertion order) and keep their entries but not their bytes.

pub mod convert;
pub mod read;
pub mod text;
pub mod types;
pub mod write;

pub use read::{name_hash, parse};
pub use types::{Res, ResDocument, ResHeader, ResRecord};
pub use write::{write_archive, write_document, PackInput, PackOptions, PackSource};

use crate::asset::Entry;
use crate::asset::NamedAsset;
use crate::error::Result;
use crate::registry::{
    Archive, Convert, ConvertInput, ConvertOptions, Document, EntryTable, FolderFile, Format, Game, JsonContext, Kind,
    Magic, Pack, PackRequest, Probe,
};

pub const FORMAT_ID: &str = "ei-res";

pub static FORMAT: Format = Format {
    extensions: &["res", "mod", "bon", "anm", "mpr", "mq"],
    notes: "convert extracts and converts the entries, except a .mod figure, which converts whole to one glTF: \
            its LNK as nodes placed by the .bon beside it (--bones), its FIG parts as meshes at --morph \
            STR,DEX,HEIGHT with the 8 extremes as morph targets, the .anm set beside it (--anims) as clips at \
            15 fps, <model>.mmp beside it or in --textures embedded (--to json|glb|gltf). A .anm animation set \
            converts whole too: a friendly JSON of its clips, and a glTF of <model>.mod (or <model>.lnk and its \
            figures) beside it playing them (--to json|glb|gltf); a .bon bone set to a friendly JSON only. Text \
            entries (no extension, printable cp1251: every entry of texts.res) convert to UTF-8 <entry>.txt \
            starting with a byte order mark; pack ei-res DIR encodes each such .txt back to cp1251 under its \
            entry's name, mark or not when the record of the conversion (<input>.relic.json) lists it as a text; \
            edit --add of a .txt onto a text entry encodes it the same way. pack ei-res model.glb -o unit.mod writes a figure from a glTF, with unit.bon, \
            unit.anm and unit.mmp beside it.",
    probe: Probe { for_name: Some(for_name), ..Probe::magic(&RES_MAGIC) },
    pack_sources: &["glb", "gltf"],
    document: Some(&ResFaces),
    archive: Some(&ResArchive { whole: false }),
    pack: Some(&ResFaces),
    ..Format::new(FORMAT_ID, "Evil Islands RES archive", Game::EvilIslands, Kind::Archive)
};

/// The magic, as [`Probe`] data (the RES variants the name picks sniff as the RES).
pub(crate) static RES_MAGIC: [Magic; 1] = [Magic::prefix(&types::MAGIC)];

/// A `.mod` is a figure, converted whole to one glTF scene (`evil_islands::model`); a `.mpr` (a map:
/// its MP and SEC files) converts as a whole map (`evil_islands::mp::mpr`).
fn for_name(name: &str) -> Option<&'static Format> {
    let ext = crate::registry::extension_of(name)?;
    if ext.eq_ignore_ascii_case("mod") {
        Some(&MODEL_FORMAT)
    } else if ext.eq_ignore_ascii_case("anm") {
        Some(&ANIMATIONS_FORMAT)
    } else if ext.eq_ignore_ascii_case("bon") {
        Some(&BONES_FORMAT)
    } else if ext.eq_ignore_ascii_case("mpr") {
        Some(&crate::evil_islands::mp::mpr::MPR_FORMAT)
    } else {
        None
    }
}

/// A `.mod` figure RES (see [`Whole::Model`]).
static MODEL_FORMAT: Format = Format {
    probe: Probe::magic(&RES_MAGIC),
    only_targets: Some(&["json", "glb", "gltf"]),
    convert: Some(&WholeConvert(Whole::Model)),
    archive: Some(&ResArchive { whole: true }),
    ..FORMAT
};

/// A `.anm` animation set RES (see [`Whole::Animations`]).
static ANIMATIONS_FORMAT: Format = Format {
    probe: Probe::magic(&RES_MAGIC),
    only_targets: Some(&["json", "glb", "gltf"]),
    convert: Some(&WholeConvert(Whole::Animations)),
    archive: Some(&ResArchive { whole: true }),
    ..FORMAT
};

/// A `.bon` bone set RES (see [`Whole::Bones`]).
static BONES_FORMAT: Format = Format {
    probe: Probe::magic(&RES_MAGIC),
    only_targets: Some(&["json"]),
    convert: Some(&WholeConvert(Whole::Bones)),
    archive: Some(&ResArchive { whole: true }),
    ..FORMAT
};

struct ResFaces;

impl Document for ResFaces {
    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(&parse(data)?))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        let doc = convert::to_document(&parse(data)?);
        crate::registry::document_json(FORMAT_ID, &doc)
    }

    fn from_json(&self, value: serde_json::Value, _context: &JsonContext<'_>) -> Result<Vec<u8>> {
        let doc: ResDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
        write_document(&doc)
    }
}

/// A RES's entries; `whole` for the variants that convert as one file (`.mod`, `.anm`, `.bon`, `.mpr`).
pub(crate) struct ResArchive {
    pub(crate) whole: bool,
}

impl Archive for ResArchive {
    fn entries<'a>(&self, data: &'a [u8], archive_name: &str) -> Result<Vec<Entry<'a>>> {
        parse(data).map(|res| convert::entries(&res, archive_name))
    }

    fn entry_table<'a>(&self, data: &'a [u8], archive_name: &str) -> Result<Box<dyn EntryTable<'a> + 'a>> {
        parse(data).map(|res| Box::new(convert::EntryTable::new(res, archive_name)) as Box<dyn EntryTable<'a>>)
    }

    fn entry_text(&self, name: &str, bytes: &[u8]) -> Option<String> {
        if self.whole {
            return None;
        }
        text::entry_text(name, bytes)
    }

    fn text_encoding(&self) -> &'static str {
        if self.whole {
            ""
        } else {
            "cp1251"
        }
    }

    /// Models inside the archive find their bones, animations and textures among its entries.
    fn entry_options(&self, input: &ConvertInput<'_>) -> Option<ConvertOptions> {
        if self.whole {
            return None;
        }
        let siblings = crate::evil_islands::model::siblings(&parse(input.data).ok()?)?;
        Some(ConvertOptions {
            nearby: input.options.nearby.clone().with_siblings(std::sync::Arc::new(siblings)),
            ..input.options.clone()
        })
    }

    fn converts_whole(&self) -> bool {
        self.whole
    }

    fn edits_in_place(&self) -> bool {
        true
    }
}

impl Pack for ResFaces {
    /// A glTF packs to a figure (`-o unit.mod`, with `unit.bon`, `unit.anm`, `unit.mmp` beside it):
    /// `evil_islands::model::import`.
    fn pack_input(&self, input_name: &str, content: &[u8], request: &PackRequest) -> Result<Vec<u8>> {
        crate::evil_islands::model::import::pack_gltf(input_name, content, request)
    }

    fn pack_folder(&self, files: Vec<FolderFile>, request: &PackRequest, out: &mut dyn std::io::Write) -> Result<u64> {
        // Extraction gave extensionless entries of a .bon/.anm archive their parent's extension; take it
        // off again so that extract + pack gives the same names.
        let inherited = crate::registry::extension_of(&request.output.to_string_lossy())
            .filter(|e| convert::INHERITING_EXTENSIONS.iter().any(|i| i.eq_ignore_ascii_case(e)))
            .map(|e| format!(".{}", e.to_ascii_lowercase()));
        // The records of the conversions the folder came from say which `.txt` are texts.
        let records = crate::record::Records::default();
        let inputs = files
            .into_iter()
            .map(|f| {
                // A text entry `convert` made UTF-8 goes back as its cp1251 bytes, under its own name.
                if let Some(input) = text::pack_input(&f, &records)? {
                    return Ok(input);
                }
                let relative = match &inherited {
                    Some(ext) if f.relative.to_ascii_lowercase().ends_with(ext.as_str()) => {
                        f.relative.get(..f.relative.len() - ext.len()).unwrap_or(&f.relative).to_string()
                    }
                    _ => f.relative.clone(),
                };
                Ok(PackInput {
                    name: write::encode_name(&relative)?,
                    modified: f.modified.map_or(0, |t| u32::try_from(t).unwrap_or(u32::MAX)),
                    source: PackSource::Listed(f),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        for warning in records.take_warnings() {
            request.note(warning);
        }
        write_archive(inputs, PackOptions { dedupe: !request.no_dedupe }, out)
    }
}

/// What a RES that converts whole is.
#[derive(Clone, Copy)]
enum Whole {
    /// A `.mod` figure: its glTF scene (see `evil_islands::model`).
    Model,
    /// A `.anm` animation set: its friendly JSON, and its clips on the model beside it
    /// (`evil_islands::anm::convert`).
    Animations,
    /// A `.bon` bone set: its friendly JSON (`evil_islands::bon::convert`).
    Bones,
}

/// A `.mod`, `.anm` or `.bon` RES: everything a RES does, and `convert` makes what the whole archive is
/// rather than extracting its entries (whose parts only make sense together).
struct WholeConvert(Whole);

impl Convert for WholeConvert {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let (data, path, opts) = (input.data, input.path, input.options);
        match self.0 {
            Whole::Model => crate::evil_islands::model::convert_mod(data, path, opts),
            Whole::Animations => crate::evil_islands::anm::convert::convert_set(data, path, opts),
            Whole::Bones => crate::evil_islands::bon::convert::convert_set(data),
        }
    }
}

/// Typed access: the parse of the `ei-res` codec, zero-copy.
impl<'a> Res<'a> {
    /// Reads a RES archive, borrowing `bytes`: names and entry data are slices of them.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::res::{write_archive, PackInput, PackOptions, PackSource, Res};
    ///
    /// // An archive of two entries, written by relic's packer.
    /// let entry = |name: &str, data: &[u8]| PackInput {
    ///     name: name.as_bytes().to_vec(),
    ///     modified: 1_000_000_000,
    ///     source: PackSource::Bytes(data.to_vec()),
    /// };
    /// let mut bytes = Vec::new();
    /// write_archive(vec![entry("readme.txt", b"hello"), entry("texts\\quest", b"Find it.")], PackOptions::default(), &mut bytes)?;
    /// let res = Res::read(&bytes)?;
    /// assert_eq!(res.header.files_count, 2);
    /// assert_eq!(res.find(b"readme.txt").map(|i| res.data(i)), Some(&b"hello"[..]));
    /// assert!(Res::read(&bytes[..15]).is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &'a [u8]) -> Result<Res<'a>> {
        parse(bytes)
    }

    /// The owned, lossless document (`relic convert --to json` is `serde_json::to_value` of it).
    pub fn to_document(&self) -> ResDocument {
        convert::to_document(self)
    }

    /// The file's bytes, written from [`Res::to_document`] by the writer of `relic pack ei-res x.json`: those
    /// read.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::res::{write_archive, PackInput, PackOptions, PackSource, Res};
    ///
    /// // An archive of two entries, written by relic's packer.
    /// let entry = |name: &str, data: &[u8]| PackInput {
    ///     name: name.as_bytes().to_vec(),
    ///     modified: 1_000_000_000,
    ///     source: PackSource::Bytes(data.to_vec()),
    /// };
    /// let mut bytes = Vec::new();
    /// write_archive(vec![entry("readme.txt", b"hello"), entry("texts\\quest", b"Find it.")], PackOptions::default(), &mut bytes)?;
    /// let res = Res::read(&bytes)?;
    /// let mut doc = res.to_document();
    /// assert_eq!(doc.entries[0].name, "readme.txt");
    /// assert_eq!(res.to_bytes()?, bytes);
    /// // An edit goes through the document.
    /// doc.entries[0].record.modified = 7;
    /// let edited = doc.to_bytes()?;
    /// assert_eq!(Res::read(&edited)?.records[0].modified, 7);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write_document(&self.to_document())
    }
}

/// Typed access to the owned document.
impl ResDocument {
    /// Reads a RES archive into its owned document ([`Res::read`], then [`Res::to_document`]).
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::res::ResDocument;
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/example.res")?;
    /// let doc = ResDocument::read(&bytes)?;
    /// assert_eq!(doc.entries.len(), 5);
    /// assert!(doc.entries.iter().any(|e| e.name == "тексты\\привет.txt"));
    /// assert_eq!(doc.to_bytes()?, bytes);
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<ResDocument> {
        Ok(convert::to_document(&parse(bytes)?))
    }

    /// The file's bytes (the writer of `relic pack ei-res x.json`).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write_document(self)
    }
}
