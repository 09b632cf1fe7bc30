//! Riot Engine SRSC files (`drakan-srsc`): Drakan's textures (`.txd`), sounds (`.sdb`), models (`.mod`), animations
//! (`.adb`), objects (`.odb`), sequences (`.ssd`), resources (`.rrc`), levels (`.lvl`) and saves (`.rsg`). Spec: the
//! Drakan SRSC specification, section "Basic SRSC format", with docs/formats/drakan.md#srsc.
//!
//! - Read: header (magic, u16 version, u32 directory offset, u16 count), the 14-byte directory, every body
//!   range checked. The directory is the only map of the file: bodies are taken from their offsets and
//!   sizes, never assumed packed or in directory order (docs/formats/drakan.md#srsc-directory).
//! - Listed and extracted as records: `<group path>/<type>_<id>[_<name>].bin`, the group hierarchy resolved
//!   to folders; extraction adds `directory.json`, from which `pack` rebuilds the file.
//! - Written back: the JSON document byte for byte (bodies at their offsets, non-zero gaps kept); a folder
//!   packed the way Drakan packs (header, bodies from offset 12, directory last).
//! - String records (0x0400 enciphered, 0x0401 plain) are text in the document; `convert` writes
//!   `strings.json` (`{id: text}`) beside the document, and `pack` takes it from there (or from the strings
//!   file itself, which finds the one Drakan document in its folder), enciphering 0x0400 again and keeping
//!   every other byte. The text's code page is Windows-1252 unless `--option
//!   drakan-strings.code-page=NAME` picks another single-byte one (`windows-1251` for a Russian release);
//!   the document records it (`code_page`) and `pack` encodes in it, naming the string id and the character
//!   a text it cannot hold has.
//! - `convert` writes the document with sources beside it (PNGs, WAVs, music, heightmaps, `records.json`)
//!   and views (`.view.png`, `.view.glb`, `refs/`): [`outputs`] names them, [`sources`] reads the edited
//!   sources back when the document is packed and warns about edited views.
//! - Records that name one body are converted once and each gets the result under its own name; bodies that
//!   overlap in part are counted by `info` and noted by `convert` ([`shared`], issue 23).
//!
//! Choices where the spec is silent: record names in paths are Windows-1252, made safe as file names;
//! strings are Windows-1252 up to the first NUL and written back with one NUL; a record with the same type,
//! id and group as an earlier one gets `.2.bin` (no Drakan file should have one).

pub mod convert;
pub mod read;
pub mod types;
pub mod write;

use std::collections::BTreeMap;
use std::path::Path;

pub use read::parse;
pub use types::{DirectoryEntry, Srsc, SrscDocument, SrscHeader};
pub use write::{write_document, write_packed, NewRecord};

use crate::asset::{Entry, NamedAsset};
use crate::error::{Error, Result};
use crate::registry::{
    Archive, Convert, ConvertInput, Document, FolderFile, Format, Game, JsonContext, Kind, Magic, Pack, PackRequest,
    Probe,
};

pub const FORMAT_ID: &str = "drakan-srsc";

pub static FORMAT: Format = Format {
    extensions: &["txd", "sdb", "mod", "adb", "odb", "ssd", "rrc", "lvl", "rsg"],
    notes: "Records listed with type, id and group path; extracted as <group path>/<type>_<id>_<name>.bin \
            plus directory.json, from which pack rebuilds the file (type, id, group, order). String records \
            (0x0400 deciphered, 0x0401) are Windows-1252 text up to the first NUL (another single-byte code page with \
            --option drakan-strings.code-page=windows-1251, recorded in the document for pack). \
            convert writes a folder: \
            the lossless document <file>.json and, beside it, SOURCES that `pack drakan-srsc <folder>/<file>.json` \
            (or <folder>/strings.json, which finds the one Drakan document in its folder) reads back: \
            strings.json ({id: text}), records.json (every record decoded; edited `decoded` fields pack back, \
            except the pixel and sample fields of textures and sounds), texture_<id>.png (animations: \
            texture_<id>.frame<k>.png), <group>/<id>_<name>.wav, music_<id>.sgt/.dls (Music.rrc's RIFF blobs) \
            and heightmaps/<id>_<name>.png (16-bit grey, a level layer's vertex heights). What looks unedited \
            keeps its record's bytes (an unedited folder packs back byte for byte); an edited PNG or WAV is \
            encoded again in its record's stored format (bpp, 16-bit layout, alpha kind, palette: nearest \
            colour, noted; compression level; sound bits and channels), at a new size when the PNG has one. \
            VIEWS, which pack never reads and names <name>.view.<ext>: texture_<id>.view.png (an animation's \
            APNG; pack warns when it was edited), models/<name>.view.glb, terrain.view.glb, and refs/ (other \
            files' textures and sounds). A record that does not decode is a failure of the file (exit 1) and \
            keeps its \"error\" in records.json. Records naming one body are converted once, each record \
            getting the files under its own name (records.json: same_body_as); info counts shared_bodies and \
            overlapping_bodies. `pack drakan-srsc model.glb -o new.mod` (or .gltf) writes a .mod holding one \
            static model from a glTF (meshes merged, node transforms baked, triangles, bounds computed; textures \
            keep the references relic's export stored, others go to a new <stem>.txd beside it). \
            Option drakan-texture.order=rgba|bgra: 32-bpp byte order \
            (docs/formats/drakan.md#texture-32bpp: unsettled; RGBA by default; the document remembers it for pack).",
    probe: Probe::magic(&[Magic::prefix(types::MAGIC)]),
    options: &[assets::ORDER_OPTION, assets::CODE_PAGE_OPTION],
    extra_targets: &["png", "wav", "sgt", "dls"],
    // A resource file converts whole, to what its records are (textures, sounds, models and levels, music):
    // never INI, CSV or text, which an archive converted entry by entry could make.
    only_targets: Some(&["json", "png", "wav", "glb", "gltf", "sgt", "dls"]),
    pack_sources: &["glb", "gltf"],
    document: Some(&SrscFaces),
    convert: Some(&SrscFaces),
    archive: Some(&SrscFaces),
    pack: Some(&SrscFaces),
    ..Format::new(FORMAT_ID, "Drakan / Riot Engine SRSC resource file", Game::Drakan, Kind::Archive)
};

struct SrscFaces;

/// The file a JSON read from `json_path` describes (see [`SrscFaces`]'s `from_json`).
fn write_json_at(value: serde_json::Value, json_path: &Path, notes: &mut Vec<String>) -> Result<Vec<u8>> {
    let dir = json_path.parent().unwrap_or(Path::new(""));
    let is_document = value.get("format").is_some();
    let (mut doc, strings_path) = if is_document {
        let doc: SrscDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
        (doc, dir.join(STRINGS_FILE))
    } else {
        // A strings map: the document is the one Drakan document in its folder, whatever its name.
        let doc_path = sources::find_document(dir, json_path)?;
        let text = crate::source::read(&doc_path)?;
        let value: serde_json::Value = serde_json::from_slice(&text)
            .map_err(|e| Error::Refused(format!("{}: not JSON ({e})", doc_path.display())))?;
        let doc: SrscDocument = crate::registry::document_from_json(FORMAT_ID, value)
            .map_err(|e| Error::Refused(format!("{}: {e}", doc_path.display())))?;
        notes.push(format!("document taken from {}", doc_path.display()));
        (doc, json_path.to_path_buf())
    };
    let original = doc.clone();
    if strings_path.exists() && strings_path != json_path {
        let edited = read_strings(&strings_path)?;
        let changed = convert::apply_strings(&mut doc, &edited)?;
        notes.push(format!("strings taken from {} ({changed} changed)", strings_path.display()));
    } else if !is_document {
        let edited: BTreeMap<String, String> = read_strings(json_path)?;
        let changed = convert::apply_strings(&mut doc, &edited)?;
        notes.push(format!("strings taken from {} ({changed} changed)", json_path.display()));
    }
    if sources::apply(&mut doc, &original, dir, notes)? {
        return write::write_document_repacked(&doc);
    }
    write_document(&doc)
}

impl Document for SrscFaces {
    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(&parse(data)?))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        crate::registry::document_json(FORMAT_ID, &convert::to_document(&parse(data)?))
    }

    /// From JSON read from a file: the document, or the strings map `convert` writes (`strings.json`, which
    /// finds the document beside it); with the sources `convert` wrote beside the document (see [`outputs`]
    /// and [`sources`]).
    fn from_json(&self, value: serde_json::Value, context: &JsonContext<'_>) -> Result<Vec<u8>> {
        let Some(json_path) = context.path else {
            let doc: SrscDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
            return write_document(&doc);
        };
        let mut notes = Vec::new();
        let written = write_json_at(value, json_path, &mut notes);
        notes.into_iter().for_each(|n| context.note(n));
        written
    }
}

impl Convert for SrscFaces {
    /// With the file's `.db` beside it (`x.db` for `x.txd`), references are resolved across databases.
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let opts = input.options;
        let Some(path) = input.path else {
            let ctx = Context {
                stem: String::new(),
                extension: String::new(),
                db: None,
                dir: None,
                whole_database: false,
                confine: opts.nearby.confine().map(Path::to_path_buf),
            };
            return convert_in(input.data, &ctx, opts);
        };
        let db_path = path.with_extension("db");
        let db = if db_path.is_file() { Some(crate::drakan::db::Database::load(&db_path)?) } else { None };
        let name =
            |p: Option<&std::ffi::OsStr>| p.map(|s| s.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        let ctx = Context {
            stem: path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
            extension: name(path.extension()),
            db: db.as_ref(),
            dir: path.parent().map(Path::to_path_buf),
            whole_database: false,
            confine: opts.nearby.confine().map(Path::to_path_buf),
        };
        convert_in(input.data, &ctx, opts)
    }
}

impl Archive for SrscFaces {
    fn entries<'a>(&self, data: &'a [u8], _archive_name: &str) -> Result<Vec<Entry<'a>>> {
        parse(data).map(|s| convert::entries(&s))
    }

    fn extraction_index(&self, data: &[u8], _archive_name: &str) -> Option<Result<(String, Vec<u8>)>> {
        Some(parse(data).and_then(|s| {
            let dir = convert::extracted_directory(&s);
            let bytes = crate::export::json::to_pretty(
                &serde_json::to_value(&dir).map_err(|e| Error::Unsupported(format!("JSON: {e}")))?,
            )?;
            Ok((convert::DIRECTORY_FILE.to_string(), bytes))
        }))
    }

    fn converts_whole(&self) -> bool {
        true
    }

    fn edits_in_place(&self) -> bool {
        true
    }
}

impl Pack for SrscFaces {
    /// A glTF (`.glb`, `.gltf`): a `.mod` holding one static model (see [`crate::drakan::scene::import`]).
    fn pack_input(&self, input_name: &str, content: &[u8], request: &PackRequest) -> Result<Vec<u8>> {
        crate::drakan::scene::import::pack_gltf(input_name, content, request)
    }

    fn pack_folder(&self, files: Vec<FolderFile>, _request: &PackRequest, out: &mut dyn std::io::Write) -> Result<u64> {
        let bytes = pack::from_folder(&files)?;
        out.write_all(&bytes).map_err(|e| Error::io("output", e))?;
        Ok(bytes.len() as u64)
    }
}

mod assets;
pub mod outputs;
mod pack;
pub mod shared;
pub mod sources;

pub use assets::{convert_in, Context};

/// The strings file `convert` writes beside the document.
pub const STRINGS_FILE: &str = "strings.json";

fn read_strings(path: &Path) -> Result<BTreeMap<String, String>> {
    let text = crate::source::read(path)?;
    serde_json::from_slice(&text)
        .map_err(|e| Error::Refused(format!("{}: not a strings file ({{\"id\": \"text\", …}}): {e}", path.display())))
}

/// Typed access: the parse of the `drakan-srsc` codec, zero-copy.
impl<'a> Srsc<'a> {
    /// Reads an SRSC file, borrowing `bytes`: each record's body is a slice of them ([`Srsc::body`]); the
    /// record modules ([`crate::drakan::records`]) decode them.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::drakan::srsc::{write_packed, NewRecord, Srsc};
    ///
    /// // Two records (type 0x0401, plain strings), packed as Drakan packs: header, bodies from offset 12, directory.
    /// let string = |id: u16, text: &[u8]| NewRecord { record_type: 0x0401, id, group: 0, body: text.to_vec() };
    /// let bytes = write_packed(0x100, &[string(1, b"Hello\0"), string(2, b"World\0")])?;
    /// let srsc = Srsc::read(&bytes)?;
    /// assert_eq!(srsc.entries.len(), 2);
    /// assert_eq!((srsc.entries[0].record_type, srsc.entries[0].id, srsc.entries[0].offset), (0x0401, 1, 12));
    /// assert_eq!(srsc.body(0), b"Hello\0");
    /// assert!(Srsc::read(&bytes[..11]).is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &'a [u8]) -> Result<Srsc<'a>> {
        parse(bytes)
    }

    /// The owned, lossless document (`relic convert --to json` is `serde_json::to_value` of it).
    pub fn to_document(&self) -> SrscDocument {
        convert::to_document(self)
    }

    /// The file's bytes, written from [`Srsc::to_document`] by the writer of `relic pack drakan-srsc x.json`:
    /// those read.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::drakan::srsc::{write_packed, NewRecord, Srsc};
    ///
    /// // Two records (type 0x0401, plain strings), packed as Drakan packs: header, bodies from offset 12, directory.
    /// let string = |id: u16, text: &[u8]| NewRecord { record_type: 0x0401, id, group: 0, body: text.to_vec() };
    /// let bytes = write_packed(0x100, &[string(1, b"Hello\0"), string(2, b"World\0")])?;
    /// let srsc = Srsc::read(&bytes)?;
    /// assert_eq!(srsc.to_bytes()?, bytes);
    /// let doc = srsc.to_document();
    /// assert_eq!(doc.records.len(), 2);
    /// assert_eq!(doc.to_bytes()?, bytes);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write_document(&self.to_document())
    }
}

/// Typed access to the owned document.
impl SrscDocument {
    /// Reads an SRSC file into its owned document ([`Srsc::read`], then [`Srsc::to_document`]).
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::drakan::srsc::SrscDocument;
    ///
    /// let bytes = std::fs::read("../../samples/drakan/Sample.txd")?;
    /// let doc = SrscDocument::read(&bytes)?;
    /// assert_eq!(doc.records.len(), 5);
    /// assert_eq!(doc.to_bytes()?, bytes);
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<SrscDocument> {
        Ok(convert::to_document(&parse(bytes)?))
    }

    /// The file's bytes (the writer of `relic pack drakan-srsc x.json`, without the sources `convert` writes
    /// beside the document).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write_document(self)
    }
}
