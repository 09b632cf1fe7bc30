//! The format registry: every format relic knows, and for each its id, names and extensions, its probe data
//! ([`Probe`]: magic as data, the names it claims, a plausibility test for formats without magic) and its
//! faces, each a small trait taking one context: [`Document`] (info and JSON both ways), [`Convert`] (to the
//! asset model), [`Archive`] (entries, extraction, in-place edits) and [`Pack`] (inputs other than JSON).
//! A format has only the faces it needs, and its [`Capabilities`] follow from them (compare symphonia's
//! probe descriptors and image-rs's separate decoders and encoders). Most formats read and write one typed
//! file whole: they implement [`FileFormat`] and take [`Typed`] as their document face. `identify`, `info`,
//! `ls`, `extract`, `convert`, `pack`, `edit`, `check` and `formats` work from [`FORMATS`] alone.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::asset::{Entry, NamedAsset};
use crate::error::{Error, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Game {
    EvilIslands,
    Drakan,
    Ragnarok,
    DarkReign,
    FreeRct,
}

impl Game {
    pub fn title(self) -> &'static str {
        match self {
            Game::EvilIslands => "Evil Islands",
            Game::Drakan => "Drakan",
            Game::Ragnarok => "Ragnarok Online",
            Game::DarkReign => "Dark Reign",
            Game::FreeRct => "FreeRCT",
        }
    }
}

/// What a format's conversion yields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Archive,
    Image,
    Sound,
    Model,
    Document,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Capabilities {
    pub read: bool,
    pub convert: bool,
    pub write: bool,
}

/// How sure a sniff is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// By its name (an extension or a claimed file name), its bytes agreeing ([`Probe::plausible`]).
    Extension,
    /// By its magic, whatever its name.
    Magic,
}

/// A file found in a folder to pack. Formats read it with [`FolderFile::open`] or [`FolderFile::read`], never
/// by `path`: the name was listed earlier, and a file swapped for a link since must not be followed.
#[derive(Debug, Clone)]
pub struct FolderFile {
    /// Path relative to the folder, `/` separated.
    pub relative: String,
    /// The file, below `root`; for messages.
    pub path: PathBuf,
    /// The folder the file was listed in (the one `relic pack` was given, or the scratch folder of a nested
    /// archive packed first): `path` is opened below it without following links.
    pub root: PathBuf,
    pub size: u64,
    /// Unix seconds.
    pub modified: Option<u64>,
}

impl FolderFile {
    /// The file opened for reading: a link at it or at a folder below `root`, whenever it appeared, is
    /// refused and named (see [`crate::paths::open_listed`]).
    pub fn open(&self) -> Result<std::fs::File> {
        crate::paths::open_listed(&self.root, &self.path)?.map(|(file, _)| file).ok_or_else(|| self.gone())
    }

    /// The file's bytes, read as [`FolderFile::open`] opens it.
    pub fn read(&self) -> Result<Vec<u8>> {
        crate::paths::read_listed(&self.root, &self.path)?.ok_or_else(|| self.gone())
    }

    fn gone(&self) -> Error {
        Error::Refused(format!(
            "{}: no longer a file (moved or replaced since the folder was listed)",
            self.path.display()
        ))
    }
}

/// A folder being packed, with the index an extraction wrote into it (SRSC and FTG write `directory.json`
/// so that `pack` restores what file names cannot say: stored names, ids, order).
pub struct PackFolder<'f> {
    files: &'f [FolderFile],
    by_path: std::collections::HashMap<&'f str, &'f FolderFile>,
}

impl<'f> PackFolder<'f> {
    pub fn new(files: &'f [FolderFile]) -> Self {
        PackFolder { files, by_path: files.iter().map(|f| (f.relative.as_str(), f)).collect() }
    }

    /// The file at `relative`'s bytes; `index` names what listed it, for the error.
    pub fn read(&self, relative: &str, index: &str) -> Result<Vec<u8>> {
        let file = self
            .by_path
            .get(relative)
            .ok_or_else(|| Error::Refused(format!("{index} lists `{relative}`, which is not in the folder")))?;
        file.read()
    }

    /// The index `name`, when the folder has one: JSON whose `format` must be `format`.
    pub fn index<T: serde::de::DeserializeOwned>(&self, name: &str, format: &str) -> Result<Option<T>> {
        let Some(file) = self.by_path.get(name) else { return Ok(None) };
        let text = file.read()?;
        let value: serde_json::Value = serde_json::from_slice(&text)
            .map_err(|e| Error::Refused(format!("{}: not JSON: {e}", file.path.display())))?;
        if value.get("format").and_then(serde_json::Value::as_str) != Some(format) {
            return Err(Error::Refused(format!("{}: its format is not `{format}`", file.path.display())));
        }
        serde_path_to_error::deserialize(value).map(Some).map_err(|e| {
            let at = e.path().to_string();
            Error::Refused(format!("{}: `{at}`: {}", file.path.display(), e.inner()))
        })
    }

    /// Refuses a file the index `name` does not list (an added file would otherwise be left out silently).
    pub fn all_listed<'p>(&self, name: &str, listed: impl IntoIterator<Item = &'p str>) -> Result<()> {
        let listed: std::collections::HashSet<&str> = listed.into_iter().collect();
        match self.files.iter().find(|f| f.relative != name && !listed.contains(f.relative.as_str())) {
            Some(extra) => Err(Error::Refused(format!("{}: not listed in {name}", extra.path.display()))),
            None => Ok(()),
        }
    }
}

/// Options of `relic pack`.
#[derive(Debug, Clone, Default)]
pub struct PackRequest {
    /// The file being written (some formats look at its extension).
    pub output: PathBuf,
    pub no_dedupe: bool,
    /// Pixel format for images (`dxt1`, `argb4`, …); the format's default when absent.
    pub pixel_format: Option<String>,
    /// Write a full mip chain (images).
    pub mips: bool,
    /// The version of the file format to write (`--version`, archives packed from a folder); the format's
    /// default when absent. Only versions in [`Format::pack_versions`] reach a format.
    pub version: Option<u32>,
    /// Map a colour a palette cannot show to its nearest entry instead of refusing it (`--quantize`,
    /// palette images packed from PNGs); the format says in a note how many pixels it changed.
    pub quantize: bool,
    /// The file the input packs over (`--base`): ei-db's database that one table's CSV replaces a table of,
    /// instead of the file found beside the CSV.
    pub base: Option<PathBuf>,
    /// Notes for the user (`pack_input`, `pack_folder`: a default taken, a layout redone), printed on stderr.
    pub notes: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    /// Files written beside the output, by plain file name (`pack_input` of a model that the game keeps in
    /// several files: an Evil Islands figure's `.bon`, `.anm` and `.mmp` beside its `.mod`). `relic pack`
    /// refuses them, like the output, when they exist without `--force`, and reads each back.
    pub companions: Companions,
}

/// Files by plain name, written beside an output (see [`PackRequest::companions`]).
pub type Companions = std::sync::Arc<std::sync::Mutex<Vec<(String, Vec<u8>)>>>;

impl PackRequest {
    /// Adds a note for the user (see [`PackRequest::notes`]).
    pub fn note(&self, text: impl Into<String>) {
        self.notes.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(text.into());
    }

    /// Adds a file to write beside the output (see [`PackRequest::companions`]).
    pub fn companion(&self, file_name: impl Into<String>, bytes: Vec<u8>) {
        self.companions.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((file_name.into(), bytes));
    }

    /// The output's file name without its extension (`unit` for `out/unit.mod`), which companions and
    /// names inside the written file follow.
    pub fn output_stem(&self) -> String {
        self.output.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
    }
}

pub use crate::convert_options::{ConvertOptions, FileLookup, MissingFile, Nearby, TypedSettings, Wanted};

/// A choice a format offers for a field its spec leaves unsettled (`--option KEY=VALUE`).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct FormatOption {
    /// `<format id>.<name>`, e.g. `ei-cam.time`.
    pub key: &'static str,
    /// The values it takes, the default first.
    pub values: &'static [&'static str],
}

/// An archive's entries by index (see [`Archive::entry_table`]).
pub trait EntryTable<'a>: Send + Sync {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Entry `i` (`None` past the end): borrowed from a list, or made now.
    fn entry(&self, i: usize) -> Option<std::borrow::Cow<'_, Entry<'a>>>;
    /// Reads the first byte of each of these entries' stored bytes, so that the processor fetches them
    /// together before they are read one by one (a listing reads every entry's head, scattered over
    /// the archive). Returns them folded together, which means nothing.
    fn prefetch(&self, _entries: std::ops::Range<usize>) -> u8 {
        0
    }
}

impl<'a> EntryTable<'a> for Vec<Entry<'a>> {
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn entry(&self, i: usize) -> Option<std::borrow::Cow<'_, Entry<'a>>> {
        self.get(i).map(std::borrow::Cow::Borrowed)
    }
}

/// A name a format claims (see [`Probe::claims`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// A whole file name, lower case.
    Name(&'static str),
    /// An extension without the dot, lower case.
    Extension(&'static str),
}

/// Bytes a file of a format holds at a fixed offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Magic {
    pub offset: usize,
    pub bytes: &'static [u8],
}

impl Magic {
    /// `bytes` at the start of the file.
    pub const fn prefix(bytes: &'static [u8]) -> Magic {
        Magic { offset: 0, bytes }
    }

    pub fn matches(&self, head: &[u8]) -> bool {
        self.offset.checked_add(self.bytes.len()).and_then(|end| head.get(self.offset..end)) == Some(self.bytes)
    }
}

/// How `sniff` recognises a format, as data (compare symphonia's probe descriptors): its magic, the names
/// it claims, and for formats without magic whether bytes named as the format may be one.
#[derive(Clone, Copy)]
pub struct Probe {
    /// Any one of these identifies the file (when `check` agrees).
    pub magic: &'static [Magic],
    /// What a prefix cannot say (a version byte in a range, a header that must parse), on the file's first
    /// bytes: asked after one of `magic` matched, or alone for a format whose magic is no fixed prefix.
    pub check: Option<fn(&[u8]) -> bool>,
    /// Names this format claims beyond its extensions, lower case: whole file names (`acks.db`, for a
    /// format without magic whose generic extension other formats share) and extensions it takes from a
    /// format listed earlier (`bon`, when the bytes are not a RES). Looked up after magic, before extensions.
    pub claims: &'static [Claim],
    /// For formats without magic: whether a file *named* as this format (its extension or a claim) may be
    /// one, from its first bytes (at most 64) and its length, by what the spec fixes (a size that is a
    /// multiple of the record size, a first count that fits). A name alone never identifies a file whose
    /// bytes say otherwise (a Windows `Thumbs.db` is no Drakan database). Must be cheap: `relic ls` asks it
    /// of every entry of an archive. Formats with magic have none: their name claims nothing once their
    /// magic did not match.
    pub plausible: Option<fn(&[u8], u64) -> bool>,
    /// The variant a file's name picks, for formats whose layout the name decides (`*.udb` vs `*.idb`; a
    /// `.mod` RES that converts whole); `None` when the name changes nothing. Use [`Format::for_name`].
    pub for_name: Option<fn(&str) -> Option<&'static Format>>,
}

impl Probe {
    /// No magic, no claims: a format found by its extensions alone (and `plausible`, when set).
    pub const NONE: Probe = Probe { magic: &[], check: None, claims: &[], plausible: None, for_name: None };

    /// A format recognised by `magic`.
    pub const fn magic(magic: &'static [Magic]) -> Probe {
        Probe { magic, ..Probe::NONE }
    }

    /// A format recognised by its first bytes through `check` alone.
    pub const fn check(check: fn(&[u8]) -> bool) -> Probe {
        Probe { check: Some(check), ..Probe::NONE }
    }

    /// A format without magic, found by name when `plausible` agrees.
    pub const fn plausible(plausible: fn(&[u8], u64) -> bool) -> Probe {
        Probe { plausible: Some(plausible), ..Probe::NONE }
    }

    /// Whether `head` (a file's first bytes) is this format by its magic.
    pub fn sniff(&self, head: &[u8]) -> bool {
        if self.magic.is_empty() {
            return self.check.is_some_and(|check| check(head));
        }
        self.magic.iter().any(|m| m.matches(head)) && self.check.map_or(true, |check| check(head))
    }
}

/// Where a JSON document being written came from, and the options of `relic pack` (see
/// [`Document::from_json`]). The default: a document from nowhere, written with no options.
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonContext<'a> {
    /// The JSON file read: formats whose `convert` also writes files a user edits beside the JSON (MOB's
    /// script `.txt`) take them from there, saying so in a note, so that an edit is never silently ignored.
    pub path: Option<&'a Path>,
    /// `relic pack`'s options (`--quantize`), and where notes go.
    pub request: Option<&'a PackRequest>,
}

impl JsonContext<'_> {
    /// Adds a note for the user (see [`PackRequest::notes`]); none is kept without a request.
    pub fn note(&self, text: impl Into<String>) {
        if let Some(request) = self.request {
            request.note(text);
        }
    }

    /// Whether colours a palette cannot show are mapped to its nearest entry (`--quantize`).
    pub fn quantize(&self) -> bool {
        self.request.is_some_and(|r| r.quantize)
    }
}

/// A file to convert: its bytes and what is known around them (see [`Convert::convert`],
/// [`Archive::entry_options`]).
#[derive(Clone, Copy)]
pub struct ConvertInput<'a> {
    pub data: &'a [u8],
    /// The file on disk, when it is one: formats whose files refer to files beside them (a Drakan `.db` and
    /// its SRSC files, a model's textures) read them from its folder.
    pub path: Option<&'a Path>,
    /// The same bytes kept for as long as an archive's entries convert (`relic convert` of an archive file,
    /// the viewer's archives): an archive's entry options may then read other entries lazily
    /// ([`crate::registry::Nearby::archive`]).
    pub shared: Option<&'a std::sync::Arc<crate::source::Source>>,
    pub options: &'a ConvertOptions,
}

impl<'a> ConvertInput<'a> {
    /// Bytes that are no file on disk (an archive entry, bytes given by a library user).
    pub fn new(data: &'a [u8], options: &'a ConvertOptions) -> Self {
        ConvertInput { data, path: None, shared: None, options }
    }

    /// The bytes of the file at `path`.
    pub fn at(data: &'a [u8], path: &'a Path, options: &'a ConvertOptions) -> Self {
        ConvertInput { path: Some(path), ..ConvertInput::new(data, options) }
    }

    /// Bytes kept shared while an archive's entries convert (see [`ConvertInput::shared`]).
    pub fn shared(data: &'a std::sync::Arc<crate::source::Source>, options: &'a ConvertOptions) -> Self {
        ConvertInput { shared: Some(data), ..ConvertInput::new(data, options) }
    }
}

/// The document face: a file's header summary and its own data as JSON, both ways.
pub trait Document: Sync {
    /// Header summary for `relic info`.
    fn info(&self, data: &[u8]) -> Result<serde_json::Value>;

    /// The file's own data, losslessly (`convert --to json`).
    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value>;

    /// Writes the file that `to_json` describes (`pack FORMAT x.json`).
    // (`self` is the format's face, not a value converted from: the name pairs with `to_json`.)
    #[allow(clippy::wrong_self_convention)]
    fn from_json(&self, value: serde_json::Value, context: &JsonContext<'_>) -> Result<Vec<u8>>;
}

/// The convert face: a file to the common asset model (images, sounds, scenes, documents).
pub trait Convert: Sync {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>>;

    /// The files beside `path` that converting it converts too (a Drakan `.db`'s SRSC files): `relic
    /// convert` given both converts them once, through this file. None by default (and no file is read).
    fn converts_beside(&self, _path: &Path) -> Vec<PathBuf> {
        Vec::new()
    }

    /// What `relic check` warns of in the file at `path` that still reads and writes back (a model whose
    /// textures its client folder lacks); none by default.
    fn check_warnings(&self, _data: &[u8], _path: &Path) -> Vec<String> {
        Vec::new()
    }
}

/// The archive face: entries, what extraction writes beside them, and how `convert` and `edit` treat them.
pub trait Archive: Sync {
    fn entries<'a>(&self, data: &'a [u8], archive_name: &str) -> Result<Vec<Entry<'a>>>;

    /// The same entries by index, each made when it is asked for. Listing and extraction go through this,
    /// so a format that can make its entries lazily (RES) never holds them all at once, and a listing makes
    /// them on every core; the default makes the whole list first.
    fn entry_table<'a>(&self, data: &'a [u8], archive_name: &str) -> Result<Box<dyn EntryTable<'a> + 'a>> {
        self.entries(data, archive_name).map(|v| Box::new(v) as Box<dyn EntryTable<'a>>)
    }

    /// A file `extract` writes beside the entries (when no pattern narrows the extraction) so that `pack`
    /// can rebuild the archive exactly from the folder: `(relative path, bytes)`. SRSC writes its directory.
    fn extraction_index(&self, _data: &[u8], _archive_name: &str) -> Option<Result<(String, Vec<u8>)>> {
        None
    }

    /// An entry `convert` writes as UTF-8 text (`<entry>.txt`, starting with a UTF-8 byte order mark that
    /// tells `pack` to encode it back), given its name and bytes when no format claims it: the text, or
    /// `None` to keep the entry raw. Evil Islands RES text entries (`texts.res`).
    fn entry_text(&self, _name: &str, _bytes: &[u8]) -> Option<String> {
        None
    }

    /// The code page of [`Archive::entry_text`]'s entries (`cp1251`), named in the record of a conversion
    /// ([`crate::record`]); empty when the archive has no text entries.
    fn text_encoding(&self) -> &'static str {
        ""
    }

    /// Options for converting this archive's entries, when the archive holds something they need (an FTG's
    /// `.PAL` for its sprites; a GRF's other entries, read lazily when [`ConvertInput::shared`] is set);
    /// `None` keeps the options as they are.
    fn entry_options(&self, _input: &ConvertInput<'_>) -> Option<ConvertOptions> {
        None
    }

    /// Whether `convert` of this archive goes through its [`Convert`] face as a whole rather than entry by
    /// entry: for record containers whose records only make sense together (a Drakan texture needs its
    /// palette, an animation its frames).
    fn converts_whole(&self) -> bool {
        false
    }

    /// `relic check` of a file whose JSON document is refused as too large (a multi-GiB archive): where the
    /// file written back from its document would first differ from `data` (`Ok(None)`: identical), found
    /// without building the document. `None` (the default) when the format has no such check.
    fn check_without_document(&self, _data: &[u8]) -> Option<Result<Option<u64>>> {
        None
    }

    /// Whether `relic edit` adds, replaces and deletes entries of this archive in place.
    fn edits_in_place(&self) -> bool {
        false
    }
}

/// The pack face: a file written from inputs other than its JSON document (which goes through
/// [`Document::from_json`]). What it takes is data of the format ([`Format::pack_sources`], …).
pub trait Pack: Sync {
    /// Writes a file from another kind of input (`input_name` tells which by its extension, one of
    /// [`Format::pack_sources`]): a PNG for an image format, an INI for a REG, … (`pack FORMAT file`).
    fn pack_input(&self, input_name: &str, _content: &[u8], _request: &PackRequest) -> Result<Vec<u8>> {
        Err(Error::Unsupported(format!(
            "this format is not made from {} files (give a folder for archives, or the JSON of `relic convert --to json`)",
            extension_of(input_name).unwrap_or("such")
        )))
    }

    /// Writes an archive from a folder's files (archives only). Returns the bytes written.
    fn pack_folder(
        &self,
        _files: Vec<FolderFile>,
        _request: &PackRequest,
        _out: &mut dyn std::io::Write,
    ) -> Result<u64> {
        Err(Error::Unsupported("this format is not packed from a folder".into()))
    }
}

/// A format's file as typed data, read and written whole: what most formats are. [`Typed`] makes one its
/// [`Document`] face, so a format writes `parse`, `write` and its document once, not a face by hand.
pub trait FileFormat: Sized {
    /// The format's id, which names it in errors.
    const ID: &'static str;

    /// Reads a file.
    fn parse(bytes: &[u8]) -> Result<Self>;

    /// The file's bytes: `bytes` exactly, for a file parsed from `bytes` and not edited.
    fn write(&self) -> Result<Vec<u8>>;

    /// Header summary for `relic info` (`bytes` is the file `self` was parsed from).
    fn info(&self, bytes: &[u8]) -> Result<serde_json::Value>;

    /// The file's own data as JSON, losslessly (`convert --to json`).
    fn to_document(&self) -> Result<serde_json::Value>;

    /// The file a JSON document from [`FileFormat::to_document`] describes.
    fn from_document(value: serde_json::Value) -> Result<Self>;
}

/// The [`Document`] face of a [`FileFormat`]: `document: Some(&Typed::<Cam>::FACE)`.
pub struct Typed<T>(std::marker::PhantomData<fn() -> T>);

impl<T> Typed<T> {
    pub const FACE: Typed<T> = Typed(std::marker::PhantomData);
}

impl<T: FileFormat> Document for Typed<T> {
    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        T::parse(data)?.info(data)
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        T::parse(data)?.to_document()
    }

    fn from_json(&self, value: serde_json::Value, _context: &JsonContext<'_>) -> Result<Vec<u8>> {
        T::from_document(value)?.write()
    }
}

/// A file's document as JSON (for [`Document::to_json`]).
pub fn document_json<T: Serialize>(format: &'static str, doc: &T) -> Result<serde_json::Value> {
    serde_json::to_value(doc).map_err(|e| Error::Unsupported(format!("{format}: JSON: {e}")))
}

/// A document back from JSON (for [`Document::from_json`]); the error names the format.
pub fn document_from_json<T: serde::de::DeserializeOwned>(format: &'static str, value: serde_json::Value) -> Result<T> {
    serde_path_to_error::deserialize(value).map_err(|e| json_error(format, &e.path().to_string(), e.inner()))
}

/// A document that does not fit its format, named by its JSON path (`sections[1].rate: invalid type: string
/// "fast", expected u32`): a JSON document has no byte offsets that would help a user.
pub fn json_error(format: &str, path: &str, inner: &dyn std::fmt::Display) -> Error {
    let at = if path.is_empty() || path == "." { "the document".to_string() } else { format!("`{path}`") };
    Error::Refused(format!("{format} document: {at}: {inner}"))
}

/// A file's data as JSON with `"format": <id>` put first (for [`Document::to_json`] of formats whose types
/// carry no `format` field themselves).
pub fn tagged_document_json<T: Serialize>(format: &'static str, data: &T) -> Result<serde_json::Value> {
    let serde_json::Value::Object(fields) = document_json(format, data)? else {
        return Err(Error::Unsupported(format!("{format}: JSON: the document is not an object")));
    };
    let mut out = serde_json::Map::with_capacity(fields.len() + 1);
    out.insert("format".into(), serde_json::Value::String(format.into()));
    out.extend(fields.into_iter().filter(|(k, _)| k != "format"));
    Ok(serde_json::Value::Object(out))
}

/// The data back from JSON written by [`tagged_document_json`]: `format` must name this format.
pub fn tagged_document_from_json<T: serde::de::DeserializeOwned>(
    format: &'static str,
    value: serde_json::Value,
) -> Result<T> {
    let serde_json::Value::Object(mut fields) = value else {
        return Err(json_error(format, "", &"not a JSON object"));
    };
    match fields.remove("format") {
        Some(serde_json::Value::String(id)) if id == format => {}
        other => {
            let found = other.map_or_else(|| "no `format`".to_string(), |v| format!("`format` {v}"));
            return Err(json_error(format, "format", &format!("not a {format} document: {found}")));
        }
    }
    document_from_json(format, serde_json::Value::Object(fields))
}

/// One registered format: what it is, how `sniff` finds it ([`Probe`]), what it offers as data, and its
/// faces, each present only when the format has it. Its [`Capabilities`] follow from the faces.
pub struct Format {
    /// Fixed id used by the CLI, JSON and docs (`ei-res`, …).
    pub id: &'static str,
    pub name: &'static str,
    pub game: Game,
    /// Lower-case extensions without the dot.
    pub extensions: &'static [&'static str],
    pub kind: Kind,
    /// Choices and limits a user should know (unsettled layouts, defaults).
    pub notes: &'static str,
    pub probe: Probe,
    /// Choices for unsettled fields this format reads from [`ConvertOptions::settings`].
    pub options: &'static [FormatOption],
    /// `--to` targets this format converts to beyond `json` and those of its kind (see [`Format::targets`]):
    /// `ini` for REG, `csv` for tables, `txt` for scripts.
    pub extra_targets: &'static [&'static str],
    /// Every `--to` target, when that is not what the kind says: bone offsets make JSON only, and a RES
    /// that converts whole (a `.mod` figure) makes a scene, not every target of an archive.
    pub only_targets: Option<&'static [&'static str]>,
    /// The extensions of the files besides JSON that [`Pack::pack_input`] takes (`png`, `ini`).
    pub pack_sources: &'static [&'static str],
    /// The versions [`Pack`] writes (`relic pack FORMAT --version V`), the default first; empty for formats
    /// that have one form. A JSON document keeps its own version.
    pub pack_versions: &'static [u32],
    /// The pixel formats `relic pack --pixel-format` chooses from; empty when there is no choice.
    pub pixel_formats: &'static [&'static str],
    pub document: Option<&'static dyn Document>,
    pub convert: Option<&'static dyn Convert>,
    pub archive: Option<&'static dyn Archive>,
    pub pack: Option<&'static dyn Pack>,
}

impl std::fmt::Debug for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Format").field("id", &self.id).finish()
    }
}

/// The one JSON shape of a format (`relic formats --json`, the Python package's `formats()`).
impl Serialize for Format {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Format", 12)?;
        s.serialize_field("id", self.id)?;
        s.serialize_field("name", self.name)?;
        s.serialize_field("game", &self.game)?;
        s.serialize_field("extensions", self.extensions)?;
        s.serialize_field("kind", &self.kind)?;
        s.serialize_field("capabilities", &self.capabilities())?;
        s.serialize_field("notes", self.notes)?;
        s.serialize_field("targets", &self.targets())?;
        s.serialize_field("packed_from", &self.packed_from())?;
        s.serialize_field("options", self.options)?;
        s.serialize_field("versions", self.pack_versions)?;
        s.serialize_field("pixel_formats", self.pixel_formats)?;
        s.end()
    }
}

/// Every registered format in its JSON shape (see [`Format`]'s `Serialize`).
pub fn formats_document() -> serde_json::Value {
    serde_json::to_value(FORMATS).unwrap_or_default()
}

impl Format {
    /// A format with no probe, data or faces yet: the base the format descriptors fill in
    /// (`Format { document: Some(..), ..Format::new(..) }`).
    pub const fn new(id: &'static str, name: &'static str, game: Game, kind: Kind) -> Format {
        Format {
            id,
            name,
            game,
            extensions: &[],
            kind,
            notes: "",
            probe: Probe::NONE,
            options: &[],
            extra_targets: &[],
            only_targets: None,
            pack_sources: &[],
            pack_versions: &[],
            pixel_formats: &[],
            document: None,
            convert: None,
            archive: None,
            pack: None,
        }
    }

    pub fn is_archive(&self) -> bool {
        self.kind == Kind::Archive
    }

    /// What relic does with files of this format, from the faces it has.
    pub fn capabilities(&self) -> Capabilities {
        Capabilities {
            read: self.document.is_some() || self.archive.is_some(),
            convert: self.convert.is_some() || self.archive.is_some(),
            write: self.document.is_some() || self.pack.is_some(),
        }
    }

    /// Whether `head` (a file's first bytes) is this format by its magic (see [`Probe::sniff`]).
    pub fn sniff(&self, head: &[u8]) -> bool {
        self.probe.sniff(head)
    }

    /// Whether a file named as this format may be one (see [`Probe::plausible`]).
    pub fn plausible(&self, head: &[u8], len: u64) -> bool {
        self.probe.plausible.is_some_and(|plausible| plausible(head, len))
    }

    /// The format to read a file of this name with: the variant its name picks (see [`Probe::for_name`]),
    /// else this one.
    pub fn for_name(&self, name: &str) -> &Format {
        self.probe.for_name.and_then(|pick| pick(name)).unwrap_or(self)
    }

    fn no_document(&self) -> Error {
        Error::Unsupported(format!("{} has no JSON document", self.id))
    }

    /// Header summary for `relic info` ([`Document::info`]).
    pub fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        self.document.ok_or_else(|| self.no_document())?.info(data)
    }

    /// The file's own data as JSON ([`Document::to_json`]).
    pub fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        self.document.ok_or_else(|| self.no_document())?.to_json(data)
    }

    /// Writes the file a JSON document describes ([`Document::from_json`]).
    pub fn from_json(&self, value: serde_json::Value, context: &JsonContext<'_>) -> Result<Vec<u8>> {
        match self.document {
            Some(document) => document.from_json(value, context),
            None => Err(Error::Unsupported("this format is not written yet".into())),
        }
    }

    /// Conversion to the asset model ([`Convert::convert`]).
    pub fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        match self.convert {
            Some(convert) => convert.convert(input),
            None => Err(Error::Unsupported("this format has no conversion yet".into())),
        }
    }

    /// Archive entries ([`Archive::entries`]); `None` for formats that are not archives.
    pub fn entries<'a>(&self, data: &'a [u8], archive_name: &str) -> Option<Result<Vec<Entry<'a>>>> {
        self.archive.map(|a| a.entries(data, archive_name))
    }

    /// Whether `convert` of this archive goes through [`Format::convert`] whole ([`Archive::converts_whole`]).
    pub fn converts_whole(&self) -> bool {
        self.archive.is_some_and(|a| a.converts_whole())
    }

    /// Options for converting this archive's entries ([`Archive::entry_options`]).
    pub fn entry_options(&self, input: &ConvertInput<'_>) -> Option<ConvertOptions> {
        self.archive.and_then(|a| a.entry_options(input))
    }

    /// Writes a file from an input other than JSON ([`Pack::pack_input`]).
    pub fn pack_input(&self, input_name: &str, content: &[u8], request: &PackRequest) -> Result<Vec<u8>> {
        match self.pack {
            Some(pack) => pack.pack_input(input_name, content, request),
            None => NOT_PACKED.pack_input(input_name, content, request),
        }
    }

    /// Writes an archive from a folder's files ([`Pack::pack_folder`]).
    pub fn pack_folder(
        &self,
        files: Vec<FolderFile>,
        request: &PackRequest,
        out: &mut dyn std::io::Write,
    ) -> Result<u64> {
        self.pack.unwrap_or(&NOT_PACKED).pack_folder(files, request, out)
    }

    /// What `convert --to` can make of a file of this format: `json` (the file's own data), what its kind
    /// exports to, and the format's extras. Archives convert entry by entry, so they take every target.
    pub fn targets(&self) -> Vec<&'static str> {
        if let Some(targets) = self.only_targets {
            return targets.to_vec();
        }
        if self.is_archive() {
            return all_targets();
        }
        let mut out = vec!["json"];
        out.extend_from_slice(match self.kind {
            Kind::Image => &["png"][..],
            Kind::Sound => &["wav"],
            Kind::Model => &["glb", "gltf"],
            Kind::Document | Kind::Archive => &[],
        });
        out.extend_from_slice(self.extra_targets);
        out
    }

    /// What `convert --to` can make of a file of this format named `name`: the targets of the variant the
    /// name picks ([`Format::for_name`]; a `.mod` RES converts whole to a scene).
    pub fn targets_for(&self, name: &str) -> Vec<&'static str> {
        self.for_name(name).targets()
    }

    /// The inputs `relic pack` makes a file of this format from, in words: `a PNG or the JSON of `relic
    /// convert --to json``; empty for formats that are not written.
    pub fn packed_from(&self) -> String {
        if !self.capabilities().write {
            return String::new();
        }
        let mut kinds: Vec<String> = Vec::new();
        if self.is_archive() {
            kinds.push("a folder".into());
        }
        for ext in self.pack_sources {
            // A glTF model is one kind of input, whichever of its two forms.
            if ext.eq_ignore_ascii_case("gltf") {
                continue;
            }
            if ext.eq_ignore_ascii_case("glb") {
                kinds.push("a glTF model (.glb or .gltf)".into());
                continue;
            }
            let ext = ext.to_ascii_uppercase();
            // "an" before a vowel sound: an INI, a PNG.
            let article = if ext.starts_with(['A', 'E', 'I', 'O', 'U']) { "an" } else { "a" };
            kinds.push(format!("{article} {ext}"));
        }
        kinds.push("the JSON of `relic convert --to json`".into());
        match kinds.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}

/// The pack face of a format without one: its refusals.
struct NotPacked;
impl Pack for NotPacked {}
static NOT_PACKED: NotPacked = NotPacked;

/// Every registered format.
pub static FORMATS: &[&Format] = &[
    &crate::evil_islands::res::FORMAT,
    &crate::evil_islands::reg::FORMAT,
    &crate::evil_islands::cam::FORMAT,
    &crate::evil_islands::adb::FORMAT,
    &crate::evil_islands::mmp::FORMAT,
    &crate::evil_islands::db::FORMAT,
    &crate::evil_islands::mob::FORMAT,
    &crate::evil_islands::lnk::FORMAT,
    &crate::evil_islands::bon::FORMAT,
    &crate::evil_islands::fig::FORMAT,
    &crate::evil_islands::anm::FORMAT,
    &crate::evil_islands::mp::FORMAT,
    &crate::evil_islands::sec::FORMAT,
    &crate::ragnarok::grf::FORMAT,
    &crate::ragnarok::rsm::FORMAT,
    &crate::ragnarok::rsw::FORMAT,
    &crate::ragnarok::texture::FORMAT,
    &crate::ragnarok::act::FORMAT,
    &crate::ragnarok::gnd::FORMAT,
    &crate::ragnarok::pal::FORMAT,
    &crate::ragnarok::gat::FORMAT,
    &crate::ragnarok::table::FORMAT,
    &crate::ragnarok::imf::FORMAT,
    &crate::drakan::srsc::FORMAT,
    &crate::drakan::db::FORMAT,
    &crate::dark_reign::ftg::FORMAT,
    &crate::dark_reign::pal::FORMAT,
    &crate::ragnarok::spr::FORMAT,
    &crate::dark_reign::spr::FORMAT,
    &crate::dark_reign::ftg_spr::FORMAT,
    &crate::freerct::rcd::FORMAT,
];

/// Every `--to` target some format produces.
pub fn all_targets() -> Vec<&'static str> {
    let mut out = vec!["json", "png", "wav", "glb", "gltf"];
    for f in FORMATS {
        for t in f.extra_targets {
            if !out.contains(t) {
                out.push(t);
            }
        }
    }
    out
}

/// Checks `--option` pairs against the options formats offer: an unknown key or value is a usage error,
/// named with what is known.
pub fn check_settings(settings: &[(String, String)]) -> std::result::Result<(), String> {
    let known: Vec<&FormatOption> = FORMATS.iter().flat_map(|f| f.options).collect();
    for (key, value) in settings {
        let Some(option) = known.iter().find(|o| o.key.eq_ignore_ascii_case(key)) else {
            let keys: Vec<&str> = known.iter().map(|o| o.key).collect();
            return Err(format!("unknown option `{key}` (known: {})", keys.join(", ")));
        };
        if !option.values.iter().any(|v| v.eq_ignore_ascii_case(value)) {
            return Err(format!("option `{}` takes {}, not `{value}`", option.key, option.values.join(" or ")));
        }
    }
    Ok(())
}

pub fn by_id(id: &str) -> Option<&'static Format> {
    FORMATS.iter().copied().find(|f| f.id.eq_ignore_ascii_case(id))
}

/// The extension of a file name (`/` or `\` separated), without the dot.
pub fn extension_of(name: &str) -> Option<&str> {
    let base = name.rsplit(['/', '\\']).next()?;
    base.rsplit_once('.').map(|(_, e)| e).filter(|e| !e.is_empty())
}

/// Which format a file is, when `head` is the whole file (or its first bytes and nothing more is known of
/// its length: see [`sniff_sized`]).
pub fn sniff(head: &[u8], name: &str) -> Option<(&'static Format, Confidence)> {
    sniff_sized(head, name, head.len() as u64)
}

/// Which format a file of `len` bytes is, from its first bytes (`head`, the whole file or at least its
/// first 64 bytes) and its name: magic first; else the whole file names a format claims, then extensions,
/// each only when the bytes agree ([`Probe::plausible`]: formats with magic never agree once their magic
/// did not match). A file identified as nothing is unknown (skipped in folder batches).
///
/// `ls` asks this of every entry of an archive (17,000 in a large RES), so after the magic tests the name
/// is split and lower-cased once, on the stack, and looked up in tables made once (see `NameTables`).
pub fn sniff_sized(head: &[u8], name: &str, len: u64) -> Option<(&'static Format, Confidence)> {
    if let Some(f) = FORMATS.iter().copied().find(|f| f.sniff(head)) {
        return Some((f, Confidence::Magic));
    }
    let agrees = |candidates: &[&'static Format]| candidates.iter().copied().find(|f| f.plausible(head, len));
    // (Byte searches: both separators and the dot are ASCII, so the splits fall on character boundaries.)
    let base = match name.bytes().rposition(|b| b == b'/' || b == b'\\') {
        Some(at) => name.get(at + 1..).unwrap_or_default(),
        None => name,
    };
    let tables = NameTables::get();
    if let Some(f) = NameTables::find(&tables.names, base).and_then(agrees) {
        return Some((f, Confidence::Extension));
    }
    if let Some(f) = NameTables::find_long(&tables.long_names, base).and_then(agrees) {
        return Some((f, Confidence::Extension));
    }
    let dot = base.bytes().rposition(|b| b == b'.')?;
    let ext = base.get(dot + 1..).filter(|e| !e.is_empty())?;
    NameTables::find(&tables.extensions, ext).and_then(agrees).map(|f| (f, Confidence::Extension))
}

/// Why a file named `name` is no format relic knows: `not a format relic knows`, and when its name points
/// to formats, that its bytes are none of them (`named like dr-spr, but its bytes are not one`).
pub fn unknown_reason(name: &str) -> String {
    let named: Vec<&str> = named_as(name).iter().map(|f| f.id).collect();
    match named.as_slice() {
        [] => "not a format relic knows".into(),
        [one] => format!("not a format relic knows (named like {one}, but its bytes are not one)"),
        many => format!("not a format relic knows (named like {}, but its bytes are none of them)", many.join(" or ")),
    }
}

/// The formats a file name points to (claimed names, then extensions), whatever its bytes say: for messages
/// about a file whose bytes are not what its name says (`x.spr: named as dr-spr, but …`).
pub fn named_as(name: &str) -> Vec<&'static Format> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let tables = NameTables::get();
    let mut out: Vec<&'static Format> = NameTables::find(&tables.names, base)
        .or_else(|| NameTables::find_long(&tables.long_names, base))
        .unwrap_or_default()
        .to_vec();
    if let Some(ext) = extension_of(base) {
        for f in NameTables::find(&tables.extensions, ext).unwrap_or_default() {
            if !out.iter().any(|o| o.id == f.id) {
                out.push(f);
            }
        }
    }
    out
}

/// The names `sniff` looks up, sorted for binary search: claimed whole names, and extensions (claimed ones
/// first, then each format's own, the first format to list one winning). Keys are the names lower-cased
/// and packed into an integer (every name a format claims is at most 15 bytes), so a lookup compares
/// integers rather than calling `memcmp`.
struct NameTables {
    names: Vec<(u128, Vec<&'static Format>)>,
    extensions: Vec<(u128, Vec<&'static Format>)>,
    /// Claimed whole names over 15 bytes (`idnum2itemdisplaynametable.txt`), lower case, searched only for
    /// names that long.
    long_names: Vec<(&'static str, Vec<&'static Format>)>,
}

impl NameTables {
    fn get() -> &'static NameTables {
        static TABLES: std::sync::OnceLock<NameTables> = std::sync::OnceLock::new();
        TABLES.get_or_init(|| {
            let mut names: Vec<(u128, Vec<&'static Format>)> = Vec::new();
            let mut extensions: Vec<(u128, Vec<&'static Format>)> = Vec::new();
            // Every format naming a key is a candidate, in this order; the first whose bytes agree wins.
            let add = |table: &mut Vec<(u128, Vec<&'static Format>)>, name: &str, f: &'static Format| {
                let Some(key) = NameTables::key(name) else { return };
                match table.iter_mut().find(|(seen, _)| *seen == key) {
                    Some((_, list)) if list.iter().any(|g| g.id == f.id) => {}
                    Some((_, list)) => list.push(f),
                    None => table.push((key, vec![f])),
                }
            };
            let mut long_names: Vec<(&'static str, Vec<&'static Format>)> = Vec::new();
            for f in FORMATS {
                for claim in f.probe.claims {
                    match *claim {
                        Claim::Name(n) if NameTables::key(n).is_none() => {
                            match long_names.iter_mut().find(|(seen, _)| *seen == n) {
                                Some((_, list)) => list.push(f),
                                None => long_names.push((n, vec![f])),
                            }
                        }
                        Claim::Name(n) => add(&mut names, n, f),
                        Claim::Extension(e) => add(&mut extensions, e, f),
                    }
                }
            }
            for f in FORMATS {
                for e in f.extensions {
                    add(&mut extensions, e, f);
                }
            }
            names.sort_by_key(|(k, _)| *k);
            extensions.sort_by_key(|(k, _)| *k);
            NameTables { names, extensions, long_names }
        })
    }

    /// A name of at most 15 bytes lower-cased (ASCII) and packed into an integer, its length in the last
    /// byte (so a name ending in NUL bytes never meets a shorter one); `None` for longer names, which no
    /// format claims.
    fn key(name: &str) -> Option<u128> {
        if name.len() > 15 {
            return None;
        }
        // (A loop rather than a copy into a buffer: a copy of a variable length is a `memcpy` call.)
        let packed = name.bytes().rev().fold(0u128, |key, b| key << 8 | u128::from(b.to_ascii_lowercase()));
        Some(packed | (name.len() as u128) << 120)
    }

    fn find_long<'t>(table: &'t [(&'static str, Vec<&'static Format>)], name: &str) -> Option<&'t [&'static Format]> {
        if name.len() <= 15 {
            return None;
        }
        table.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, f)| f.as_slice())
    }

    fn find<'t>(table: &'t [(u128, Vec<&'static Format>)], name: &str) -> Option<&'t [&'static Format]> {
        let key = Self::key(name)?;
        let i = table.binary_search_by_key(&key, |(k, _)| *k).ok()?;
        table.get(i).map(|(_, f)| f.as_slice())
    }
}

/// The little-endian u32 at `at` in `head`, if there (for [`Probe::plausible`]).
pub fn le_u32_at(head: &[u8], at: usize) -> Option<u32> {
    head.get(at..at.checked_add(4)?).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes)
}

/// Identifies a file on disk by reading its first bytes only.
pub fn identify_path(path: &Path) -> Result<Option<(&'static Format, Confidence)>> {
    use std::io::Read;
    let mut head = Vec::with_capacity(crate::asset::SNIFF_BYTES);
    let (file, len) = match crate::source::open_input(path)? {
        (file, crate::source::Input::Regular(len)) => (file, len),
        // A FIFO or pipe has no size, and what is read of it is gone: it is read (bounded) and sniffed whole.
        (file, crate::source::Input::Stream) => {
            let bytes = crate::source::read_file(file, path)?;
            return Ok(sniff_sized(&bytes, &path.to_string_lossy(), bytes.len() as u64));
        }
    };
    file.take(crate::asset::SNIFF_BYTES as u64).read_to_end(&mut head).map_err(|e| Error::io(path, e))?;
    Ok(sniff_sized(&head, &path.to_string_lossy(), len))
}

/// An archive's entries (an error for a format that is not an archive).
pub fn archive_entries<'a>(format: &Format, data: &'a [u8], name: &str) -> Result<Vec<Entry<'a>>> {
    format.entries(data, name).unwrap_or_else(|| Err(Error::Unsupported(format!("{} is not an archive", format.id))))
}

/// Archives nest at most [`crate::reader::MAX_DEPTH`] deep; deeper is an error, never a silent stop.
pub fn check_depth(format: &Format, name: &str, depth: u32) -> Result<()> {
    if depth > crate::reader::MAX_DEPTH {
        return Err(Error::TooDeep(format!(
            "{}: `{}` is nested more than {} archives deep; relic stops there",
            format.id,
            crate::paths::display_name(name),
            crate::reader::MAX_DEPTH
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_from_names_every_input_a_format_is_written_from() {
        let from = |id| by_id(id).map(Format::packed_from);
        assert_eq!(from("ei-mmp").as_deref(), Some("a PNG or the JSON of `relic convert --to json`"));
        assert_eq!(from("ei-reg").as_deref(), Some("an INI or the JSON of `relic convert --to json`"));
        assert_eq!(
            from("ei-res").as_deref(),
            Some("a folder, a glTF model (.glb or .gltf) or the JSON of `relic convert --to json`")
        );
        assert_eq!(
            from("ro-rsm").as_deref(),
            Some("a glTF model (.glb or .gltf) or the JSON of `relic convert --to json`")
        );
        assert_eq!(from("ei-cam").as_deref(), Some("the JSON of `relic convert --to json`"));
    }

    #[test]
    fn ids_are_unique_and_name_their_game() {
        // FORMATS is the only list of formats: what an id looks like is checked here, not copied.
        let prefix = |game| match game {
            Game::EvilIslands => "ei-",
            Game::Drakan => "drakan-",
            Game::Ragnarok => "ro-",
            Game::DarkReign => "dr-",
            Game::FreeRct => "freerct-",
        };
        let mut seen = std::collections::HashSet::new();
        for f in FORMATS {
            assert!(f.id.starts_with(prefix(f.game)), "{}: ids start with their game's prefix", f.id);
            assert!(f.id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'), "{}", f.id);
            // Archives have the archive face, and only they; what a format can do follows from its faces.
            assert_eq!(f.is_archive(), f.archive.is_some(), "{}", f.id);
            assert!(f.capabilities().read, "{} reads nothing", f.id);
            assert!(seen.insert(f.id), "{} registered twice", f.id);
            assert!(f.extensions.iter().all(|e| *e == e.to_ascii_lowercase() && !e.starts_with('.')));
            for claim in f.probe.claims {
                let (Claim::Name(n) | Claim::Extension(n)) = claim;
                assert_eq!(*n, n.to_ascii_lowercase(), "{}: claims are lower case", f.id);
            }
        }
    }

    #[test]
    fn capabilities_follow_from_the_faces() {
        let none = Format::new("ei-none", "nothing", Game::EvilIslands, Kind::Document);
        assert_eq!(none.capabilities(), Capabilities { read: false, convert: false, write: false });
        assert!(matches!(none.to_json(b""), Err(Error::Unsupported(m)) if m == "ei-none has no JSON document"));
        let documented = Format { document: by_id("ei-cam").and_then(|f| f.document), ..none };
        assert_eq!(documented.capabilities(), Capabilities { read: true, convert: false, write: true });
        for f in FORMATS {
            let c = f.capabilities();
            assert_eq!(c.convert, f.convert.is_some() || f.archive.is_some(), "{}", f.id);
            assert_eq!(c.write, f.document.is_some() || f.pack.is_some(), "{}", f.id);
            // What a format is packed from, as data, needs the pack face that takes it.
            let packs = !f.pack_sources.is_empty() || !f.pack_versions.is_empty() || !f.pixel_formats.is_empty();
            assert!(!packs || f.pack.is_some(), "{}: pack data without a pack face", f.id);
        }
        let edited: Vec<&str> =
            FORMATS.iter().filter(|f| f.archive.is_some_and(|a| a.edits_in_place())).map(|f| f.id).collect();
        assert_eq!(edited, ["ei-res", "ro-grf", "drakan-srsc", "dr-ftg"]);
    }

    #[test]
    fn the_name_picks_a_variant_of_the_same_format() {
        let res = by_id("ei-res").unwrap();
        let model = res.for_name("unit.MOD");
        assert_eq!((model.id, model.converts_whole(), res.converts_whole()), ("ei-res", true, false));
        assert_eq!(model.targets(), ["json", "glb", "gltf"]);
        assert_eq!(res.for_name("x/unit.bon").targets_for("unit.bon"), ["json"]);
        assert!(std::ptr::eq(res.for_name("texts.res"), res));
        let db = by_id("ei-db").unwrap();
        assert_eq!(db.for_name("acks.db").id, "ei-db");
        assert!(!std::ptr::eq(db.for_name("acks.db"), db.for_name("items.idb")));
    }

    #[test]
    fn magic_is_data_and_a_check_refines_it() {
        let at = Magic { offset: 2, bytes: b"CD" };
        assert!(at.matches(b"ABCD") && !at.matches(b"ABC") && !at.matches(b"CD"));
        let act = by_id("ro-act").unwrap();
        assert_eq!(act.probe.magic, [Magic::prefix(b"AC")]);
        assert!(act.sniff(&[b'A', b'C', 5, 2]) && !act.sniff(&[b'A', b'C', 6, 2]) && !act.sniff(b"AC"));
        assert!(Probe::NONE.magic.is_empty() && !Probe::NONE.sniff(b""));
    }

    #[test]
    fn formats_document_is_one_shape_for_every_format() {
        let doc = formats_document();
        let list = doc.as_array().unwrap();
        assert_eq!(list.len(), FORMATS.len());
        let keys = [
            "capabilities",
            "extensions",
            "game",
            "id",
            "kind",
            "name",
            "notes",
            "options",
            "packed_from",
            "pixel_formats",
            "targets",
            "versions",
        ];
        for f in list {
            let mut found: Vec<&str> = f.as_object().unwrap().keys().map(String::as_str).collect();
            found.sort_unstable();
            assert_eq!(found, keys);
        }
        let grf = list.iter().find(|f| f["id"] == "ro-grf").unwrap();
        assert_eq!(grf["versions"], serde_json::json!([0x200, 0x300, 0x102, 0x103]));
        assert_eq!(grf["capabilities"], serde_json::json!({"read": true, "convert": true, "write": true}));
        assert_eq!(grf["kind"], "archive");
        let mmp = list.iter().find(|f| f["id"] == "ei-mmp").unwrap();
        assert_eq!(mmp["pixel_formats"].as_array().map(Vec::len), Some(7));
        assert_eq!(mmp["packed_from"], "a PNG or the JSON of `relic convert --to json`");
        let cam = list.iter().find(|f| f["id"] == "ei-cam").unwrap();
        assert_eq!(cam["options"], serde_json::json!([{"key": "ei-cam.time", "values": ["u32", "f32"]}]));
        assert_eq!(cam["targets"], serde_json::json!(["json", "csv"]));
    }

    #[test]
    fn sniff_prefers_magic_and_a_name_needs_bytes_that_agree() {
        let (f, c) = sniff(&crate::evil_islands::res::types::MAGIC, "whatever.bin").unwrap();
        assert_eq!((f.id, c), ("ei-res", Confidence::Magic));
        // A format with magic claims nothing by its extension once its magic did not match.
        assert!(sniff(b"nope", "x.RES").is_none());
        assert!(sniff(b"nope", "x.txt").is_none());
        // Claimed names and extensions come before extensions, in any case, through any folder, for bytes
        // that may be the format (a database node of 3 payload bytes; 8 BON offsets; an ANM of no frames).
        let db = [0x01, 0x06, 1, 2, 3];
        assert_eq!(sniff(&db, "data\\ACKS.DB").map(|(f, _)| f.id), Some("ei-db"));
        assert_eq!(sniff(&[0; 96], "a/b/Unit.Bon").map(|(f, _)| f.id), Some("ei-bon"));
        assert_eq!(sniff(&[0; 12], "unit.anm").map(|(f, _)| f.id), Some("ei-anm"));
        assert_eq!(sniff(&crate::evil_islands::res::types::MAGIC, "unit.anm").map(|(f, _)| f.id), Some("ei-res"));
        assert_eq!(sniff(&db, "x.UDB").map(|(f, _)| f.id), Some("ei-db"));
        // … and not for bytes that cannot be (a node longer than the file, 95 bytes of offsets).
        assert!(sniff(&[0x01, 0x40, 1], "acks.db").is_none());
        assert!(sniff(&[0; 95], "unit.bon").is_none());
        assert!(sniff(b"nope", &format!("x.{}", "b".repeat(70))).is_none());
        assert!(sniff(b"nope", "noextension").is_none());
        // The length, when the head is not the whole file.
        assert_eq!(sniff_sized(&[0; 64], "hair.pal", 1024).map(|(f, _)| f.id), Some("ro-pal"));
        assert!(sniff_sized(&[0; 64], "hair.pal", 1000).is_none());
        let named: Vec<&str> = named_as("dir/X.PAL").iter().map(|f| f.id).collect();
        assert_eq!(named, ["ro-pal", "dr-pal"]);
        assert_eq!(extension_of("a.b\\c"), None);
        assert_eq!(extension_of("dir.x/c.Mod"), Some("Mod"));
    }
}
