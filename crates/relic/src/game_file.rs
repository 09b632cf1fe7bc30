//! The front door: one type, [`GameFile`], for the common things, each one call. Open a path or bytes (the
//! format is identified as `relic identify` does), read its header ([`GameFile::info`]) or its whole document
//! ([`GameFile::to_json`]), list an archive's entries and open one, convert to the asset model or straight to
//! PNG / WAV / glTF / JSON bytes or files, and write a document back ([`write_json`]).
//!
//! It is built on the [`registry`] and keeps no state of its own: everything it does can be
//! done through [`Format`]'s codec, the [`export`](crate::export) functions and [`ops`](crate::ops) when a
//! program needs more control (a batch, a progress bar, `--force`).
//!
//! ```
//! # fn main() -> relic::Result<()> {
//! let grf = relic::open("../../samples/ragnarok/example.grf")?;
//! assert_eq!(grf.format().id, "ro-grf");
//! let texture = grf.open_entry("data\\texture\\유저인터페이스\\sample.bmp")?;
//! assert_eq!(texture.format().id, "ro-texture");
//! let png = texture.to_png()?;
//! assert!(png.starts_with(b"\x89PNG"));
//! # Ok(()) }
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

#[cfg(feature = "export")]
use crate::asset::Asset;
use crate::asset::NamedAsset;
use crate::error::{Error, Result};
use crate::registry::{self, Confidence, ConvertOptions, Format};
use crate::source::Source;

/// A game file opened by relic: its bytes (memory-mapped when it came from a path), its name and its format.
///
/// Cheap to clone (the bytes are shared). Entries opened from an archive with [`GameFile::open_entry`] keep
/// the archive alive, so that converting them finds what they need in it (a Ragnarok model's textures in the
/// same GRF, a Dark Reign sprite's palette in its FTG, an Evil Islands figure's bones in its RES).
#[derive(Clone)]
pub struct GameFile {
    name: String,
    path: Option<PathBuf>,
    bytes: Arc<Source>,
    format: &'static Format,
    confidence: Option<Confidence>,
    /// What converting it needs from the archive it came from (empty for a file opened on its own).
    options: ConvertOptions,
}

impl std::fmt::Debug for GameFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameFile")
            .field("name", &self.name)
            .field("format", &self.format.id)
            .field("len", &self.bytes.len())
            .finish()
    }
}

/// Opens the file at `path` and identifies its format (magic first, then the name): [`GameFile::open`].
///
/// ```
/// # fn main() -> relic::Result<()> {
/// let model = relic::open("../../samples/ragnarok/pyramid.rsm")?;
/// assert_eq!(model.format().id, "ro-rsm");
/// # Ok(()) }
/// ```
pub fn open(path: impl AsRef<Path>) -> Result<GameFile> {
    GameFile::open(path)
}

/// The format of `bytes` named `name` (magic first, then whole names and extensions when the bytes agree),
/// without opening anything; `None` when no format of relic's matches.
///
/// ```
/// let format = relic::identify(b"GRSM\x01\x04", "tree.bin").expect("an RSM, by its magic");
/// assert_eq!(format.id, "ro-rsm");
/// // A name alone never claims bytes that say otherwise.
/// assert!(relic::identify(b"hello", "tree.rsm").is_none());
/// ```
pub fn identify(bytes: &[u8], name: &str) -> Option<&'static Format> {
    registry::sniff(bytes, name).map(|(format, _)| format)
}

/// A game file written from an edited file ([`pack_bytes`]).
#[derive(Debug, Clone, Default)]
pub struct PackedBytes {
    pub bytes: Vec<u8>,
    /// Files the format writes beside it, by plain file name (an Evil Islands figure's `.bon`, `.anm`).
    pub companions: Vec<(String, Vec<u8>)>,
    /// Notes for the user (a default taken, a file beside the JSON not found).
    pub notes: Vec<String>,
}

/// Writes a file of `format` from the bytes of an edited file, as `relic pack` does from one file: the JSON
/// of `relic convert --to json` (`input_name` ends `.json`) or another file the format is made from (a PNG
/// for a texture, an INI, a glTF model), named by `input_name`'s extension. `request.output` names the file
/// written (some formats look at its extension). The result is read back by the format's own reader before
/// it is returned: a file relic cannot read back is an error, never an output.
pub fn pack_bytes(
    format: &'static Format,
    input_name: &str,
    content: &[u8],
    request: &registry::PackRequest,
) -> Result<PackedBytes> {
    if !format.capabilities.write {
        return Err(Error::Unsupported(format!("{} files cannot be written yet", format.id)));
    }
    let mut notes = Vec::new();
    let is_json = registry::extension_of(input_name).is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let bytes = if is_json {
        let value: serde_json::Value = serde_json::from_slice(content).map_err(|e| {
            Error::Refused(format!(
                "{input_name}: not JSON ({e}); give a folder or the JSON of `relic convert --to json`"
            ))
        })?;
        format.codec.write_json_request(value, Path::new(input_name), request, &mut notes)?
    } else {
        // Another kind of input the format is made from (a PNG for a texture, …); any other is named with
        // what the format is made from.
        let extension = registry::extension_of(input_name).unwrap_or("");
        if !format.codec.pack_sources().iter().any(|s| s.eq_ignore_ascii_case(extension)) {
            return Err(Error::Refused(format!("{input_name}: {} is made from {}", format.id, format.packed_from())));
        }
        format.codec.pack_input(input_name, content, request)?
    };
    let companions = std::mem::take(&mut *request.companions.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    notes.extend(std::mem::take(&mut *request.notes.lock().unwrap_or_else(std::sync::PoisonError::into_inner)));
    if let Err(e) = format.codec_for(&request.output.to_string_lossy()).info(&bytes) {
        return Err(Error::Unsupported(format!("relic wrote a file it cannot read back ({e}); please report this")));
    }
    Ok(PackedBytes { bytes, companions, notes })
}

/// Writes the file a document describes: `value` is JSON as [`GameFile::to_json`] gives it (edited or not),
/// `format_id` the format to write (`ei-reg`, `ro-grf`, …; see [`FORMATS`](crate::FORMATS)). An unedited
/// document gives back the file's bytes exactly.
///
/// ```
/// # fn main() -> relic::Result<()> {
/// let settings = relic::open("../../samples/evil_islands/settings.reg")?;
/// let document = settings.to_json()?;
/// assert_eq!(relic::write_json("ei-reg", document)?, settings.bytes());
/// # Ok(()) }
/// ```
pub fn write_json(format_id: &str, value: serde_json::Value) -> Result<Vec<u8>> {
    let format = format_by_id(format_id)?;
    if !format.capabilities.write {
        return Err(Error::Unsupported(format!("{}: relic does not write this format yet", format.id)));
    }
    format.codec.write_json(value)
}

/// An archive entry as [`GameFile::entries`] lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EntryInfo {
    /// The name as the archive stores it, decoded for display (`data\texture\x.bmp`).
    pub name: String,
    /// Where `relic extract` writes it, relative and `/` separated (`data/texture/x.bmp`).
    pub path: String,
    /// Its size once read (inflated, deciphered).
    pub size: u64,
    /// Modification time, Unix seconds, when the archive stores one.
    pub modified: Option<u64>,
}

/// One file of a conversion ([`GameFile::export`]): its path relative to the output folder, `/` separated,
/// named as `relic convert` names it, and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub path: String,
    /// `image`, `sound`, `model`, `document` or `raw`.
    pub kind: &'static str,
    pub bytes: Vec<u8>,
}

impl GameFile {
    /// Opens the file at `path` (memory-mapped) and identifies its format.
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// let res = relic::GameFile::open("../../samples/evil_islands/example.res")?;
    /// assert_eq!((res.format().id, res.is_archive()), ("ei-res", true));
    /// # Ok(()) }
    /// ```
    pub fn open(path: impl AsRef<Path>) -> Result<GameFile> {
        let path = path.as_ref();
        let bytes = crate::source::open(path)?;
        let name = path.to_string_lossy().into_owned();
        let (format, confidence) = registry::sniff(&bytes, &name).ok_or_else(|| unknown(&name))?;
        Ok(GameFile::new(name, Some(path), bytes, format, Some(confidence)))
    }

    /// Opens the file at `path` as the format `format_id`, whatever its bytes and name say (for layouts that
    /// have no magic and are never identified, as Dark Reign's headerless FTG sprites, `dr-ftg-spr`).
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// let pal = relic::GameFile::open_as("../../samples/dark_reign/BARREN.PAL", "dr-pal")?;
    /// assert_eq!(pal.format().id, "dr-pal");
    /// # Ok(()) }
    /// ```
    pub fn open_as(path: impl AsRef<Path>, format_id: &str) -> Result<GameFile> {
        let path = path.as_ref();
        let format = format_by_id(format_id)?;
        let bytes = crate::source::open(path)?;
        Ok(GameFile::new(path.to_string_lossy().into_owned(), Some(path), bytes, format, None))
    }

    /// Bytes already in memory, named `name` (formats without magic are known by their name: `items.idb`).
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// let bytes = std::fs::read("../../samples/evil_islands/unit.lnk")?;
    /// let lnk = relic::GameFile::from_bytes("unit.lnk", bytes)?;
    /// assert_eq!(lnk.format().id, "ei-lnk");
    /// # Ok(()) }
    /// ```
    pub fn from_bytes(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Result<GameFile> {
        let name = name.into();
        let bytes = Source::Owned(bytes.into());
        let (format, confidence) = registry::sniff(&bytes, &name).ok_or_else(|| unknown(&name))?;
        Ok(GameFile::new(name, None, bytes, format, Some(confidence)))
    }

    /// [`GameFile::from_bytes`] read as the format `format_id`.
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// let bytes = std::fs::read("../../samples/evil_islands/intro.cam")?;
    /// let cam = relic::GameFile::from_bytes_as("camera", bytes, "ei-cam")?;
    /// assert_eq!(cam.format().id, "ei-cam");
    /// # Ok(()) }
    /// ```
    pub fn from_bytes_as(name: impl Into<String>, bytes: impl Into<Vec<u8>>, format_id: &str) -> Result<GameFile> {
        let format = format_by_id(format_id)?;
        Ok(GameFile::new(name.into(), None, Source::Owned(bytes.into()), format, None))
    }

    fn new(
        name: String,
        path: Option<&Path>,
        bytes: Source,
        format: &'static Format,
        confidence: Option<Confidence>,
    ) -> GameFile {
        GameFile {
            name,
            path: path.map(Path::to_path_buf),
            bytes: Arc::new(bytes),
            format,
            confidence,
            options: ConvertOptions::default(),
        }
    }

    /// The same file converted with `options` (`--textures`, `--morph`, `--bones`, `--anims`, `--palette`,
    /// `--option` settings…) by [`GameFile::convert`], [`to_png`](GameFile::to_png),
    /// [`to_glb`](GameFile::to_glb) and [`export`](GameFile::export): what the caller gives replaces the
    /// defaults, and what the archive it was opened from provides (the entry's siblings, its other files,
    /// its palette, its stored name) is kept unless given.
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// let figure = relic::evil_islands::FigureSettings { morph: Some([1.0, 0.0, 0.0]), ..Default::default() };
    /// let options = relic::registry::ConvertOptions::default().with_settings(figure);
    /// let model = relic::open("../../samples/evil_islands/unit.mod")?.with_options(options);
    /// assert_eq!(&model.to_glb()?[..4], b"glTF");
    /// # Ok(()) }
    /// ```
    pub fn with_options(mut self, options: ConvertOptions) -> GameFile {
        let archive = std::mem::take(&mut self.options);
        self.options = ConvertOptions {
            nearby: options.nearby.or_from(archive.nearby),
            archive_palette: options.archive_palette.or(archive.archive_palette),
            ..options
        };
        self
    }

    /// The format the file was identified as (or given).
    pub fn format(&self) -> &'static Format {
        self.format
    }

    /// How the format was found: by the file's bytes ([`Confidence::Magic`]) or only by its name
    /// ([`Confidence::Extension`]); `None` when it was given (`open_as`, `from_bytes_as`).
    pub fn confidence(&self) -> Option<Confidence> {
        self.confidence
    }

    /// The path it was opened from, or the name it was given (an entry's stored name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Whether it holds entries ([`GameFile::entries`]).
    pub fn is_archive(&self) -> bool {
        self.format.is_archive()
    }

    /// The header summary `relic info` prints, as JSON.
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// let info = relic::open("../../samples/evil_islands/example_dxt1.mmp")?.info()?;
    /// assert_eq!((info["width"].as_u64(), info["pixel_format"].as_str()), (Some(16), Some("dxt1")));
    /// # Ok(()) }
    /// ```
    pub fn info(&self) -> Result<serde_json::Value> {
        self.in_file(self.codec().info(&self.bytes))
    }

    /// The file's own data, losslessly, as JSON (`relic convert --to json`): edit it and give it to
    /// [`write_json`] (or [`GameFile::write_back`]) to make the file again.
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// let rsm = relic::open("../../samples/ragnarok/pyramid.rsm")?.to_json()?;
    /// assert_eq!(rsm["textures"][0], "stone.bmp");
    /// # Ok(()) }
    /// ```
    pub fn to_json(&self) -> Result<serde_json::Value> {
        self.in_file(self.codec().to_json(&self.bytes))
    }

    /// The file made again from its own document ([`GameFile::to_json`] then [`write_json`]): the bytes
    /// `relic check` compares with the file. Equal to [`GameFile::bytes`] for every file relic reads whole.
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// let spr = relic::open("../../samples/dark_reign/unit.spr")?;
    /// assert_eq!(spr.write_back()?, spr.bytes());
    /// # Ok(()) }
    /// ```
    pub fn write_back(&self) -> Result<Vec<u8>> {
        let document = self.to_json()?;
        self.in_file(self.codec().write_json(document))
    }

    /// An archive's entries, in stored order. Not an archive: [`Error::Unsupported`].
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// let grf = relic::open("../../samples/ragnarok/example.grf")?;
    /// let names: Vec<String> = grf.entries()?.into_iter().map(|e| e.name).collect();
    /// assert_eq!(names, ["data\\readme.txt", "data\\texture\\유저인터페이스\\sample.bmp"]);
    /// # Ok(()) }
    /// ```
    pub fn entries(&self) -> Result<Vec<EntryInfo>> {
        let table = self.entry_table()?;
        let entries = (0..table.len()).filter_map(|i| table.entry(i)).map(|entry| EntryInfo {
            name: entry.name.to_string(),
            path: entry.path.to_string(),
            size: entry.size,
            modified: entry.modified,
        });
        Ok(entries.collect())
    }

    /// The bytes of the entry stored as `name` (`\` and `/` alike, ASCII case ignored, as the games look
    /// names up), read (inflated, deciphered) within [`limits`](crate::limits).
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// let grf = relic::open("../../samples/ragnarok/example.grf")?;
    /// let readme = grf.read_entry("DATA/README.TXT")?;
    /// assert_eq!(readme, b"A sample GRF archive written by relic.\r\n");
    /// # Ok(()) }
    /// ```
    pub fn read_entry(&self, name: &str) -> Result<Vec<u8>> {
        let table = self.entry_table()?;
        for i in 0..table.len() {
            let Some(entry) = table.entry(i) else { continue };
            if same_stored_name(&entry.name, name) || same_stored_name(&entry.path, name) {
                return self.in_file(entry.data.bytes().map(std::borrow::Cow::into_owned));
            }
        }
        Err(Error::Refused(format!("{}: no entry named `{}`", self.name, crate::paths::display_name(name))))
    }

    /// The entry stored as `name`, opened as a file of its own (identified by its bytes and name). It
    /// keeps this archive open: converting it finds the files it refers to here (textures, palettes,
    /// bones), as `relic convert` of the whole archive does.
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// let grf = relic::open("../../samples/ragnarok/example.grf")?;
    /// let texture = grf.open_entry("data/texture/유저인터페이스/sample.bmp")?;
    /// assert_eq!((texture.format().id, texture.bytes().len()), ("ro-texture", 70));
    /// # Ok(()) }
    /// ```
    pub fn open_entry(&self, name: &str) -> Result<GameFile> {
        let bytes = self.read_entry(name)?;
        let (format, confidence) = registry::sniff(&bytes, name).ok_or_else(|| unknown(name))?;
        let options = self.format.codec.entry_options_shared(&self.bytes, &self.options).unwrap_or_default();
        Ok(GameFile {
            name: name.to_string(),
            path: None,
            bytes: Arc::new(Source::Owned(bytes)),
            format,
            confidence: Some(confidence),
            options,
        })
    }

    /// Converts the file to relic's asset model (images, sounds, scenes, documents), with the files it
    /// needs found beside it on disk or in its archive. [`GameFile::convert_with`] takes options.
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::asset::Asset;
    /// let assets = relic::open("../../samples/evil_islands/unit.mmp")?.convert()?;
    /// let Some(Asset::Image(image)) = assets.first().map(|a| &a.asset) else { panic!("an image") };
    /// assert_eq!((image.width(), image.height()), (8, 8));
    /// # Ok(()) }
    /// ```
    pub fn convert(&self) -> Result<Vec<NamedAsset>> {
        self.convert_with(&self.options)
    }

    /// [`GameFile::convert`] with options (`--textures`, `--morph`, `--palette`, format settings…). An
    /// archive converts as a whole only when its format does (Drakan SRSC); otherwise convert its entries.
    pub fn convert_with(&self, options: &ConvertOptions) -> Result<Vec<NamedAsset>> {
        if self.is_archive() && !self.codec().converts_whole() {
            return Err(Error::Unsupported(format!(
                "{}: an archive converts entry by entry (open_entry, or relic::ops::convert for all of them)",
                self.format.id
            )));
        }
        let converted = match &self.path {
            Some(path) => self.codec().convert_at(&self.bytes, path, options),
            None => {
                let named =
                    ConvertOptions { nearby: options.nearby.clone().with_entry_name(&self.name), ..options.clone() };
                self.codec().convert(&self.bytes, &named)
            }
        };
        self.in_file(converted)
    }

    /// Converts the file and exports every asset to `to` (`png`, `wav`, `glb`, `gltf`, `json`, `csv`, …; each
    /// asset's default when `None`), named as `relic convert` names them: one asset as `<name>.<ext>`,
    /// several under `<name>/`. `--to json` gives the lossless document ([`GameFile::to_json`]).
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// let outputs = relic::open("../../samples/evil_islands/settings.reg")?.export(Some("ini"))?;
    /// assert_eq!(outputs.len(), 1);
    /// assert_eq!(outputs[0].path, "settings.reg.ini");
    /// # Ok(()) }
    /// ```
    pub fn export(&self, to: Option<&str>) -> Result<Vec<Output>> {
        let stem = self.stem();
        if to.is_some_and(|t| t.eq_ignore_ascii_case("json")) {
            let bytes = crate::export::json::to_pretty(&self.to_json()?)?;
            return Ok(vec![Output { path: format!("{stem}.json"), kind: "document", bytes }]);
        }
        let assets = self.convert()?;
        let files = crate::export::name_files(&assets, &stem, to, self.options.compression)?;
        let files = files.ok_or_else(|| {
            Error::Unsupported(format!("{}: nothing in it can be made into {}", self.format.id, to.unwrap_or_default()))
        })?;
        Ok(files.into_iter().map(|(path, bytes, kind)| Output { path, kind, bytes }).collect())
    }

    #[cfg(feature = "export")]
    #[cfg_attr(docsrs, doc(cfg(feature = "export")))]
    /// The file's image as PNG bytes (the first one, for a file of several: a sprite's first frame).
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// let png = relic::open("../../samples/ragnarok/wall.bmp")?.to_png()?;
    /// assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    /// # Ok(()) }
    /// ```
    pub fn to_png(&self) -> Result<Vec<u8>> {
        let image = self.first_asset("image", |a| matches!(a, Asset::Image(_)))?;
        let Asset::Image(image) = image else { return Err(self.lacks("image")) };
        let mut files = crate::export::png::encode_image_with(&image, self.options.compression)?;
        if files.is_empty() {
            return Err(self.lacks("image"));
        }
        Ok(files.swap_remove(0).bytes)
    }

    #[cfg(feature = "export")]
    #[cfg_attr(docsrs, doc(cfg(feature = "export")))]
    /// The file's sound as WAV bytes (the first one, for a file of several).
    pub fn to_wav(&self) -> Result<Vec<u8>> {
        let sound = self.first_asset("sound", |a| matches!(a, Asset::Sound(_)))?;
        let Asset::Sound(sound) = sound else { return Err(self.lacks("sound")) };
        crate::export::wav::encode(&sound)
    }

    #[cfg(feature = "export")]
    #[cfg_attr(docsrs, doc(cfg(feature = "export")))]
    /// The file's model or scene as binary glTF (`.glb`) bytes.
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// let glb = relic::open("../../samples/ragnarok/pyramid.rsm")?.to_glb()?;
    /// assert_eq!(&glb[..4], b"glTF");
    /// # Ok(()) }
    /// ```
    pub fn to_glb(&self) -> Result<Vec<u8>> {
        let scene = self.first_asset("model", |a| matches!(a, Asset::Scene(_)))?;
        let Asset::Scene(scene) = scene else { return Err(self.lacks("model")) };
        crate::export::gltf::to_glb(&scene)
    }

    #[cfg(feature = "fs")]
    #[cfg_attr(docsrs, doc(cfg(feature = "fs")))]
    /// Writes [`GameFile::export`]'s files into the folder `dir` (made if missing) and returns their paths.
    /// A file already there is refused unless `force`; each is written whole or not at all, and no name
    /// leaves `dir`.
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// let dir = std::env::temp_dir().join(format!("relic-doc-{}", std::process::id()));
    /// let written = relic::open("../../samples/ragnarok/wall.bmp")?.export_to(&dir, None, true)?;
    /// assert_eq!(written, [dir.join("wall.bmp.png")]);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok(()) }
    /// ```
    pub fn export_to(&self, dir: impl AsRef<Path>, to: Option<&str>, force: bool) -> Result<Vec<PathBuf>> {
        let dir = dir.as_ref();
        let outputs = self.export(to)?;
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let mut written = Vec::with_capacity(outputs.len());
        for output in outputs {
            let path = crate::paths::output_path(dir, &output.path, "output")?;
            let options = crate::paths::WriteOptions { force, modified: None };
            crate::paths::write_bytes(dir, &path, &output.bytes, options)?;
            written.push(path);
        }
        Ok(written)
    }

    fn codec(&self) -> &'static dyn registry::Codec {
        self.format.codec_for(&self.name)
    }

    fn entry_table(&self) -> Result<Box<dyn registry::EntryTable<'_> + '_>> {
        let table = self.codec().entry_table(&self.bytes, &self.name);
        let table = table.unwrap_or_else(|| Err(Error::Unsupported(format!("{}: not an archive", self.format.id))));
        self.in_file(table)
    }

    /// The output name without extension: the whole file name, as `relic convert` names outputs.
    fn stem(&self) -> String {
        let base = self.name.rsplit(['/', '\\']).next().unwrap_or(&self.name);
        if base.is_empty() {
            self.format.id.to_string()
        } else {
            base.to_string()
        }
    }

    #[cfg(feature = "export")]
    fn first_asset(&self, what: &str, wanted: impl Fn(&Asset) -> bool) -> Result<Asset> {
        let assets = self.convert()?;
        assets.into_iter().map(|a| a.asset).find(|a| wanted(a)).ok_or_else(|| self.lacks(what))
    }

    #[cfg(feature = "export")]
    fn lacks(&self, what: &str) -> Error {
        Error::Unsupported(format!("{}: a {} file holds no {what}", self.name, self.format.id))
    }

    /// Errors about this file name it, when it came from a path.
    fn in_file<T>(&self, result: Result<T>) -> Result<T> {
        match &self.path {
            Some(path) => result.map_err(|e| e.in_file(path)),
            None => result,
        }
    }
}

fn unknown(name: &str) -> Error {
    Error::Unsupported(format!("{}: {}", crate::paths::display_name(name), registry::unknown_reason(name)))
}

fn format_by_id(id: &str) -> Result<&'static Format> {
    registry::by_id(id).ok_or_else(|| {
        let known: Vec<&str> = crate::FORMATS.iter().map(|f| f.id).collect();
        Error::Unsupported(format!("unknown format `{id}` (known: {})", known.join(", ")))
    })
}

/// Whether two stored names are the same to a game: `\` and `/` alike, ASCII case ignored.
fn same_stored_name(stored: &str, wanted: &str) -> bool {
    let fold = |b: u8| if b == b'\\' { b'/' } else { b.to_ascii_lowercase() };
    stored.len() == wanted.len() && stored.bytes().map(fold).eq(wanted.bytes().map(fold))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_names_match_as_games_look_them_up() {
        assert!(same_stored_name("data\\Texture\\A.bmp", "DATA/texture/a.BMP"));
        assert!(!same_stored_name("data\\a.bmp", "data\\a.bm"));
        // Non-ASCII letters are compared exactly (the games fold ASCII only).
        assert!(!same_stored_name("data\\Ä.bmp", "data\\ä.bmp"));
    }
}
