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
use crate::registry::{Capabilities, Codec, ConvertOptions, EntryTable, FolderFile, Format, Game, Kind, PackRequest};

pub const FORMAT_ID: &str = "ei-res";

pub static FORMAT: Format = Format {
    id: FORMAT_ID,
    name: "Evil Islands RES archive",
    game: Game::EvilIslands,
    extensions: &["res", "mod", "bon", "anm", "mpr", "mq"],
    kind: Kind::Archive,
    capabilities: Capabilities { read: true, convert: true, write: true },
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
    codec: &ResCodec,
};

struct ResCodec;

impl Codec for ResCodec {
    fn sniff(&self, head: &[u8]) -> bool {
        head.starts_with(&types::MAGIC)
    }

    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(&parse(data)?))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        let doc = convert::to_document(&parse(data)?);
        crate::registry::document_json(FORMAT_ID, &doc)
    }

    fn write_json(&self, value: serde_json::Value) -> Result<Vec<u8>> {
        let doc: ResDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
        write_document(&doc)
    }

    fn entries<'a>(&self, data: &'a [u8], archive_name: &str) -> Option<Result<Vec<Entry<'a>>>> {
        Some(parse(data).map(|res| convert::entries(&res, archive_name)))
    }

    fn entry_table<'a>(&self, data: &'a [u8], archive_name: &str) -> Option<Result<Box<dyn EntryTable<'a> + 'a>>> {
        Some(parse(data).map(|res| Box::new(convert::EntryTable::new(res, archive_name)) as Box<dyn EntryTable<'a>>))
    }

    /// A `.mod` is a figure, converted whole to one glTF scene (`evil_islands::model`); a `.mpr` (a map:
    /// its MP and SEC files) converts as a whole map (`evil_islands::mp::mpr`).
    fn for_name(&self, name: &str) -> Option<&'static dyn Codec> {
        let ext = crate::registry::extension_of(name)?;
        if ext.eq_ignore_ascii_case("mod") {
            Some(&WholeCodec(Whole::Model))
        } else if ext.eq_ignore_ascii_case("anm") {
            Some(&WholeCodec(Whole::Animations))
        } else if ext.eq_ignore_ascii_case("bon") {
            Some(&WholeCodec(Whole::Bones))
        } else if ext.eq_ignore_ascii_case("mpr") {
            Some(&crate::evil_islands::mp::mpr::MPR_CODEC)
        } else {
            None
        }
    }

    fn entry_text(&self, name: &str, bytes: &[u8]) -> Option<String> {
        text::entry_text(name, bytes)
    }

    fn text_encoding(&self) -> &'static str {
        "cp1251"
    }

    /// Models inside the archive find their bones, animations and textures among its entries.
    fn entry_options(&self, data: &[u8], opts: &ConvertOptions) -> Option<ConvertOptions> {
        let siblings = crate::evil_islands::model::siblings(&parse(data).ok()?)?;
        Some(ConvertOptions { siblings: Some(std::sync::Arc::new(siblings)), ..opts.clone() })
    }

    /// A glTF packs to a figure (`-o unit.mod`, with `unit.bon`, `unit.anm`, `unit.mmp` beside it):
    /// `evil_islands::model::import`.
    fn pack_input(&self, input_name: &str, content: &[u8], request: &PackRequest) -> Result<Vec<u8>> {
        crate::evil_islands::model::import::pack_gltf(input_name, content, request)
    }

    fn pack_sources(&self) -> &'static [&'static str] {
        &["glb", "gltf"]
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
struct WholeCodec(Whole);

impl WholeCodec {
    fn convert_whole(
        &self,
        data: &[u8],
        path: Option<&std::path::Path>,
        opts: &ConvertOptions,
    ) -> Result<Vec<NamedAsset>> {
        match self.0 {
            Whole::Model => crate::evil_islands::model::convert_mod(data, path, opts),
            Whole::Animations => crate::evil_islands::anm::convert::convert_set(data, path, opts),
            Whole::Bones => crate::evil_islands::bon::convert::convert_set(data),
        }
    }
}

impl Codec for WholeCodec {
    fn targets(&self) -> Option<&'static [&'static str]> {
        Some(match self.0 {
            Whole::Model | Whole::Animations => &["json", "glb", "gltf"],
            Whole::Bones => &["json"],
        })
    }

    fn sniff(&self, head: &[u8]) -> bool {
        ResCodec.sniff(head)
    }

    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        ResCodec.info(data)
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        ResCodec.to_json(data)
    }

    fn write_json(&self, value: serde_json::Value) -> Result<Vec<u8>> {
        ResCodec.write_json(value)
    }

    fn entries<'a>(&self, data: &'a [u8], archive_name: &str) -> Option<Result<Vec<Entry<'a>>>> {
        ResCodec.entries(data, archive_name)
    }

    fn entry_table<'a>(&self, data: &'a [u8], archive_name: &str) -> Option<Result<Box<dyn EntryTable<'a> + 'a>>> {
        ResCodec.entry_table(data, archive_name)
    }

    fn pack_folder(&self, files: Vec<FolderFile>, request: &PackRequest, out: &mut dyn std::io::Write) -> Result<u64> {
        ResCodec.pack_folder(files, request, out)
    }

    fn pack_input(&self, input_name: &str, content: &[u8], request: &PackRequest) -> Result<Vec<u8>> {
        ResCodec.pack_input(input_name, content, request)
    }

    fn pack_sources(&self) -> &'static [&'static str] {
        ResCodec.pack_sources()
    }

    fn converts_whole(&self) -> bool {
        true
    }

    fn convert(&self, data: &[u8], opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
        self.convert_whole(data, None, opts)
    }

    fn convert_at(&self, data: &[u8], path: &std::path::Path, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
        self.convert_whole(data, Some(path), opts)
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
