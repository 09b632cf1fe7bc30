//! The format registry: every format relic knows, with its id, names, extensions, content sniffer and
//! capabilities, and the functions of its four faces behind one [`Codec`] trait. `identify`, `info`, `ls`,
//! `extract`, `convert`, `pack` and `formats` work from this list alone (compare symphonia's probe).

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
    /// By its name (an extension or a claimed file name), its bytes agreeing ([`Codec::plausible`]).
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
    /// default when absent. Only versions in [`Codec::pack_versions`] reach a format.
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

/// An archive's entries by index (see [`Codec::entry_table`]).
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

/// A name a format claims (see [`Codec::claims`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// A whole file name, lower case.
    Name(&'static str),
    /// An extension without the dot, lower case.
    Extension(&'static str),
}

/// The four faces of a format. Every method but `sniff` has a default that says "not supported", so a
/// format implements what it does and the registry reports it.
pub trait Codec: Sync {
    /// Magic check on the first bytes of a file.
    fn sniff(&self, head: &[u8]) -> bool;

    /// For formats without magic: whether a file *named* as this format (its extension or a claimed name)
    /// may be one, from its first bytes and its length, by what the spec fixes (a size that is a multiple of
    /// the record size, a first count that fits, text where text is due). A name alone never identifies a
    /// file whose bytes say otherwise (a Windows `Thumbs.db` is no Drakan database). Formats with magic keep
    /// the default `false`: their name claims nothing once [`Codec::sniff`] said no. Must be cheap: `relic ls`
    /// asks it for every entry of an archive. `head` is at most the first 64 bytes (less for a short file).
    fn plausible(&self, _head: &[u8], _len: u64) -> bool {
        false
    }

    /// Names this format claims beyond its extensions, in lower case: whole file names (`acks.db`, for a
    /// format without magic whose generic extension other formats share) and extensions it takes from a
    /// format listed earlier (`bon`, when the bytes are not a RES). Checked after magic and before
    /// extensions. Data rather than a test, so `sniff` looks them up once per name, not once per format.
    fn claims(&self) -> &'static [Claim] {
        &[]
    }

    /// An entry of this archive that `convert` writes as UTF-8 text (`<entry>.txt`, starting with a UTF-8
    /// byte order mark that tells `pack` to encode it back), given its name and bytes when no format
    /// claims it: the text, or `None` to keep the entry raw. Evil Islands RES text entries (`texts.res`).
    fn entry_text(&self, _name: &str, _bytes: &[u8]) -> Option<String> {
        None
    }

    /// The code page of [`Codec::entry_text`]'s entries (`cp1251`), named in the record of a conversion
    /// ([`crate::record`]); empty when the archive has no text entries.
    fn text_encoding(&self) -> &'static str {
        ""
    }

    /// A codec that knows the file's name, for formats without magic whose layout depends on the name
    /// (`*.udb` vs `*.idb`); `None` when the name changes nothing. Use [`Format::codec_for`].
    fn for_name(&self, _name: &str) -> Option<&'static dyn Codec> {
        None
    }

    /// Choices for unsettled fields this format reads from [`ConvertOptions::settings`].
    fn options(&self) -> &'static [FormatOption] {
        &[]
    }

    /// `--to` targets this format converts to beyond `json` and those of its kind (see
    /// [`Format::targets`]): `ini` for REG, `csv` for tables, `txt` for scripts.
    fn extra_targets(&self) -> &'static [&'static str] {
        &[]
    }

    /// Every `--to` target this codec makes, when that is not what its format's kind says (see
    /// [`Format::targets`]): bone offsets make JSON only, and a RES that converts whole (a `.mod` figure, a
    /// `.anm` animation set) makes a scene, not every target of an archive. `None` keeps the kind's.
    fn targets(&self) -> Option<&'static [&'static str]> {
        None
    }

    /// Header summary for `relic info`.
    fn info(&self, data: &[u8]) -> Result<serde_json::Value>;

    /// The file's own data, losslessly (`convert --to json`).
    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value>;

    /// Writes the file that `to_json` describes (`pack FORMAT x.json`).
    fn write_json(&self, _value: serde_json::Value) -> Result<Vec<u8>> {
        Err(Error::Unsupported("this format is not written yet".into()))
    }

    /// Writes the file that `to_json` describes, from JSON read at `json_path`. Formats whose `convert`
    /// also writes files a user edits beside the JSON (MOB's script `.txt`) take them from there, saying so
    /// in `notes`, so that an edit is never silently ignored. By default the same as `write_json`.
    fn write_json_at(&self, value: serde_json::Value, _json_path: &Path, _notes: &mut Vec<String>) -> Result<Vec<u8>> {
        self.write_json(value)
    }

    /// [`Codec::write_json_at`] with the options of `relic pack` (`--quantize`), for formats whose files
    /// beside the JSON are written back through a choice the user makes. By default `write_json_at`.
    fn write_json_request(
        &self,
        value: serde_json::Value,
        json_path: &Path,
        _request: &PackRequest,
        notes: &mut Vec<String>,
    ) -> Result<Vec<u8>> {
        self.write_json_at(value, json_path, notes)
    }

    /// `relic check` of a file whose JSON document is refused as too large (a multi-GiB archive): where the
    /// file written back from its document would first differ from `data` (`Ok(None)`: identical), found
    /// without building the document. `None` (the default) when the format has no such check.
    fn check_without_document(&self, _data: &[u8]) -> Option<Result<Option<u64>>> {
        None
    }

    /// Conversion to the asset model (non-archives).
    fn convert(&self, _data: &[u8], _opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
        Err(Error::Unsupported("this format has no conversion yet".into()))
    }

    /// Options for converting this archive's entries, when the archive holds something they need (an FTG's
    /// `.PAL` for its sprites); `None` keeps the options as they are.
    fn entry_options(&self, _data: &[u8], _opts: &ConvertOptions) -> Option<ConvertOptions> {
        None
    }

    /// [`Codec::entry_options`] when the archive's bytes can be kept for as long as its entries convert
    /// (`relic convert` of an archive file; the viewer holds its archives the same way): options may then
    /// read other entries lazily ([`crate::registry::Nearby::archive`]). By default `entry_options`.
    fn entry_options_shared(
        &self,
        data: &std::sync::Arc<crate::source::Source>,
        opts: &ConvertOptions,
    ) -> Option<ConvertOptions> {
        self.entry_options(data, opts)
    }

    /// Whether `convert` of this archive goes through [`Codec::convert`] as a whole rather than entry by
    /// entry: for record containers whose records only make sense together (a Drakan texture needs its
    /// palette, an animation its frames).
    fn converts_whole(&self) -> bool {
        false
    }

    /// Conversion of a file on disk: formats whose files refer to files beside them (a Drakan `.db` and its
    /// SRSC files) read them from `path`'s folder. By default the same as `convert`.
    fn convert_at(&self, data: &[u8], _path: &Path, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
        self.convert(data, opts)
    }

    /// The files beside `path` that [`Codec::convert_at`] of it converts too (a Drakan `.db`'s SRSC
    /// files): `relic convert` given both converts them once, through this file. None by default (and
    /// no file is read).
    fn converts_beside(&self, _path: &Path) -> Vec<PathBuf> {
        Vec::new()
    }

    /// A file `extract` writes beside the entries (when no pattern narrows the extraction) so that `pack`
    /// can rebuild the archive exactly from the folder: `(relative path, bytes)`. SRSC writes its directory.
    fn extraction_index(&self, _data: &[u8], _archive_name: &str) -> Option<Result<(String, Vec<u8>)>> {
        None
    }

    /// Archive entries; `None` for formats that are not archives.
    fn entries<'a>(&self, _data: &'a [u8], _archive_name: &str) -> Option<Result<Vec<Entry<'a>>>> {
        None
    }

    /// The same entries by index, each made when it is asked for. Listing and extraction go through this,
    /// so a format that can make its entries lazily (RES) never holds them all at once, and a listing makes
    /// them on every core; the default makes the whole list first.
    fn entry_table<'a>(&self, data: &'a [u8], archive_name: &str) -> Option<Result<Box<dyn EntryTable<'a> + 'a>>> {
        self.entries(data, archive_name).map(|entries| entries.map(|v| Box::new(v) as Box<dyn EntryTable<'a>>))
    }

    /// Writes a file from another kind of input (`input_name` tells which by its extension): a PNG for an
    /// image format, an INI for a REG, … (`pack FORMAT file`). JSON inputs go to `write_json` instead.
    fn pack_input(&self, input_name: &str, _content: &[u8], _request: &PackRequest) -> Result<Vec<u8>> {
        Err(Error::Unsupported(format!(
            "this format is not made from {} files (give a folder for archives, or the JSON of `relic convert --to json`)",
            extension_of(input_name).unwrap_or("such")
        )))
    }

    /// The extensions of the files besides JSON that `pack_input` takes (`png`, `ini`), for messages and
    /// help; empty when it takes none.
    fn pack_sources(&self) -> &'static [&'static str] {
        &[]
    }

    /// The pixel formats `relic pack --pixel-format` chooses from for this format; empty when it has no
    /// choice.
    fn pixel_formats(&self) -> Vec<&'static str> {
        Vec::new()
    }

    /// The versions of its format `pack_folder` and `pack_input` write (`relic pack FORMAT --version V`),
    /// the default first; empty for formats that have one form. A JSON document keeps its own version.
    fn pack_versions(&self) -> &'static [u32] {
        &[]
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

/// A file's document as JSON (for [`Codec::to_json`]).
pub fn document_json<T: Serialize>(format: &'static str, doc: &T) -> Result<serde_json::Value> {
    serde_json::to_value(doc).map_err(|e| Error::Unsupported(format!("{format}: JSON: {e}")))
}

/// A document back from JSON (for [`Codec::write_json`]); the error names the format.
pub fn document_from_json<T: serde::de::DeserializeOwned>(format: &'static str, value: serde_json::Value) -> Result<T> {
    serde_path_to_error::deserialize(value).map_err(|e| json_error(format, &e.path().to_string(), e.inner()))
}

/// A document that does not fit its format, named by its JSON path (`sections[1].rate: invalid type: string
/// "fast", expected u32`): a JSON document has no byte offsets that would help a user.
pub fn json_error(format: &str, path: &str, inner: &dyn std::fmt::Display) -> Error {
    let at = if path.is_empty() || path == "." { "the document".to_string() } else { format!("`{path}`") };
    Error::Refused(format!("{format} document: {at}: {inner}"))
}

/// A file's data as JSON with `"format": <id>` put first (for [`Codec::to_json`] of formats whose types
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

/// One registered format.
pub struct Format {
    /// Fixed id used by the CLI, JSON and docs (`ei-res`, …).
    pub id: &'static str,
    pub name: &'static str,
    pub game: Game,
    /// Lower-case extensions without the dot.
    pub extensions: &'static [&'static str],
    pub kind: Kind,
    pub capabilities: Capabilities,
    /// Choices and limits a user should know (unsettled layouts, defaults).
    pub notes: &'static str,
    pub codec: &'static dyn Codec,
}

impl std::fmt::Debug for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Format").field("id", &self.id).finish()
    }
}

impl Format {
    pub fn is_archive(&self) -> bool {
        self.kind == Kind::Archive
    }

    /// What `convert --to` can make of a file of this format: `json` (the file's own data), what its kind
    /// exports to, and the format's extras. Archives convert entry by entry, so they take every target.
    pub fn targets(&self) -> Vec<&'static str> {
        if let Some(targets) = self.codec.targets() {
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
        out.extend_from_slice(self.codec.extra_targets());
        out
    }

    /// What `convert --to` can make of a file of this format named `name`: the targets of the codec the name
    /// picks ([`Format::codec_for`]; a `.mod` RES converts whole to a scene), else [`Format::targets`].
    pub fn targets_for(&self, name: &str) -> Vec<&'static str> {
        match self.codec_for(name).targets() {
            Some(targets) => targets.to_vec(),
            None => self.targets(),
        }
    }

    /// The inputs `relic pack` makes a file of this format from, in words: `a PNG or the JSON of `relic
    /// convert --to json``; empty for formats that are not written.
    pub fn packed_from(&self) -> String {
        if !self.capabilities.write {
            return String::new();
        }
        let mut kinds: Vec<String> = Vec::new();
        if self.is_archive() {
            kinds.push("a folder".into());
        }
        for ext in self.codec.pack_sources() {
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

    /// The codec to read a file of this name with (see [`Codec::for_name`]).
    pub fn codec_for(&self, name: &str) -> &'static dyn Codec {
        self.codec.for_name(name).unwrap_or(self.codec)
    }
}

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
        for t in f.codec.extra_targets() {
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
    let known: Vec<&FormatOption> = FORMATS.iter().flat_map(|f| f.codec.options()).collect();
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
/// each only when the bytes agree ([`Codec::plausible`]: formats with magic never agree once their magic
/// did not match). A file identified as nothing is unknown (skipped in folder batches).
///
/// `ls` asks this of every entry of an archive (17,000 in a large RES), so after the magic tests the name
/// is split and lower-cased once, on the stack, and looked up in tables made once (see `NameTables`).
pub fn sniff_sized(head: &[u8], name: &str, len: u64) -> Option<(&'static Format, Confidence)> {
    if let Some(f) = FORMATS.iter().copied().find(|f| f.codec.sniff(head)) {
        return Some((f, Confidence::Magic));
    }
    let agrees = |candidates: &[&'static Format]| candidates.iter().copied().find(|f| f.codec.plausible(head, len));
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
                for claim in f.codec.claims() {
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

/// The little-endian u32 at `at` in `head`, if there (for [`Codec::plausible`]).
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
    format
        .codec
        .entries(data, name)
        .unwrap_or_else(|| Err(Error::Unsupported(format!("{} is not an archive", format.id))))
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
    fn ids_are_unique_and_from_the_fixed_list() {
        const KNOWN: &[&str] = &[
            "ei-res",
            "ei-reg",
            "ei-cam",
            "ei-mmp",
            "ei-db",
            "ei-adb",
            "ei-lnk",
            "ei-bon",
            "ei-fig",
            "ei-anm",
            "ei-mp",
            "ei-sec",
            "ei-mob",
            "drakan-db",
            "drakan-srsc",
            "drakan-lvl",
            "ro-rsm",
            "ro-grf",
            "ro-texture",
            "ro-pal",
            "ro-spr",
            "ro-act",
            "ro-gat",
            "ro-table",
            "ro-gnd",
            "ro-rsw",
            "dr-ftg",
            "dr-spr",
            "dr-pal",
            "dr-ftg-spr",
            "freerct-rcd",
        ];
        let mut seen = std::collections::HashSet::new();
        for f in FORMATS {
            assert!(KNOWN.contains(&f.id), "{} is not a fixed id", f.id);
            assert!(seen.insert(f.id), "{} registered twice", f.id);
            assert!(f.extensions.iter().all(|e| *e == e.to_ascii_lowercase() && !e.starts_with('.')));
            for claim in f.codec.claims() {
                let (Claim::Name(n) | Claim::Extension(n)) = claim;
                assert_eq!(*n, n.to_ascii_lowercase(), "{}: claims are lower case", f.id);
            }
        }
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
