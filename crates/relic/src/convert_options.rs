//! The options of `relic convert` that reach a format ([`ConvertOptions`]), and the files beside the input
//! a conversion may look for.

use std::path::{Path, PathBuf};

/// Options of `relic convert` that reach a format.
#[derive(Debug, Clone, Default)]
pub struct ConvertOptions {
    pub mips: bool,
    /// Where models find their textures (`--textures`): a folder or an archive.
    pub textures: Option<PathBuf>,
    /// Where maps find their models (`--models`): a folder or an archive (a Ragnarok map's RSM models,
    /// looked for after the map's own GRF or client folder; `--textures` is tried after it).
    pub models: Option<PathBuf>,
    /// The palette indexed images are drawn with (`--palette`): PALS, JASC-PAL, RIFF PAL, raw RGB or RGBX.
    pub palette: Option<PathBuf>,
    /// A palette found inside the archive being converted (an FTG's `.PAL`), for its images; `--palette`
    /// still wins.
    pub archive_palette: Option<std::sync::Arc<crate::codec::palette::Palette>>,
    /// One-line notes for the user (a palette not found, a default taken), printed by the CLI as
    /// warnings; shared by every conversion of one run.
    pub notes: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    /// Parts of one file a conversion could not decode while it still wrote the rest (a record of a
    /// container whose body is damaged): each is a failure of that input, one line on stderr, and makes
    /// the exit code 1. `relic convert` gives every file a list of its own.
    pub failures: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    /// Format-specific choices for unsettled layouts, as `(key, value)` pairs with keys named after the
    /// format (`--option ei-cam.time=f32`). Each format reads its own keys (its `notes` list them) and
    /// refuses values it does not know; the last pair for a key wins.
    pub settings: Vec<(String, String)>,
    /// A model's bone offsets given by the user (`--bones`), instead of the file found beside it.
    pub bones: Option<PathBuf>,
    /// A model's animations given by the user (`--anims`), instead of the file found beside it.
    pub anims: Option<PathBuf>,
    /// Morph parameters of figures (`--morph STR,DEX,HEIGHT`, each 0..1; 0,0,0 when absent).
    pub morph: Option<[f32; 3]>,
    /// Entries of the archive being converted that its entries may need, by lower-case name (a model's
    /// `.bon`, `.anm` and texture beside its `.mod` in a RES), set through the archive's `entry_options`:
    /// what "the file beside it" is for an entry.
    pub siblings: Option<std::sync::Arc<std::collections::HashMap<String, Vec<u8>>>>,
    /// PNG compression of image output (`--compression fast|default|best`; fast by default).
    pub compression: crate::export::png::PngCompression,
    /// The archive the entry being converted came from, read lazily by stored name (a Ragnarok model's
    /// textures in the same GRF), set through the archive's [`crate::registry::Codec::entry_options_shared`].
    pub archive_files: Option<std::sync::Arc<dyn FileLookup>>,
    /// A second file drawn with the one being converted (`--with`): a Ragnarok head ACT over its body.
    pub with: Option<PathBuf>,
    /// The same second file given as bytes, with its companion (`relic view`'s head picked among the
    /// entries of a GRF, which have no path); `with` wins when both are set.
    pub with_files: Option<std::sync::Arc<WithFiles>>,
    /// The palette the second file's sprite is drawn with (`--head-palette`: a Ragnarok head's hair dye), as
    /// `palette` is for the file's own; the head's own palette when absent.
    pub head_palette: Option<PathBuf>,
    /// Palettes given as bytes (`relic view`'s palette pickers, whose palettes may be entries of a GRF): the
    /// file's and the second file's; each wins over `palette` and `head_palette`.
    pub picked_palettes: Option<std::sync::Arc<PickedPalettes>>,
    /// The stored name of the archive entry being converted (`data\sprite\x.act`), set for entries,
    /// which have no path: what formats that look for a file of the same stem beside it go by.
    pub entry_name: Option<String>,
    /// The files in the folder of a file that is not on disk (the browser viewer's dropped folder), read
    /// on demand by plain name: what [`ConvertOptions::beside`] looks in after `siblings`.
    pub folder_files: Option<std::sync::Arc<dyn FileLookup>>,
    /// The files a conversion looked for and did not find (a model's textures), besides its note:
    /// `relic convert` names the input of each and ends a batch with one summary (see
    /// [`ConvertOptions::record_missing`]).
    pub missing: std::sync::Arc<std::sync::Mutex<Vec<MissingFile>>>,
    /// The folder the files a conversion finds by itself must lie under, none reached through a link
    /// (`relic view`'s root, canonical): a model's client folder, the files and archives beside it, a
    /// map's models, a level's databases (see [`crate::paths::read_found`]). `--textures`, `--models` and
    /// `--palette` are the user's own and not confined. None: looked up wherever they are (`relic convert`).
    pub confine: Option<PathBuf>,
}

/// A file a conversion looked for and did not find: what it is (`texture`, `model`), its name as the
/// input stores it, and the input (a file, or `archive/entry`; set by `relic convert`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MissingFile {
    pub input: String,
    pub what: &'static str,
    pub name: String,
}

/// A second file drawn with the one being converted, and its companion (a head's ACT and its SPR): see
/// [`ConvertOptions::with_files`].
#[derive(Debug)]
pub struct WithFiles {
    /// Its name, for messages.
    pub name: String,
    pub main: Vec<u8>,
    pub companion: Vec<u8>,
}

/// Palettes picked as files' bytes (see [`ConvertOptions::picked_palettes`]): each `(name, bytes)`, the name
/// for messages.
#[derive(Debug, Default)]
pub struct PickedPalettes {
    /// The palette of the file being converted (a body).
    pub main: Option<(String, Vec<u8>)>,
    /// The palette of the second file drawn with it (`with`: a head).
    pub with: Option<(String, Vec<u8>)>,
}

/// Files read on demand by name, from an archive kept open while its entries convert (see
/// [`ConvertOptions::archive_files`]).
pub trait FileLookup: Send + Sync + std::fmt::Debug {
    /// The bytes of the file stored as `name` (`\` or `/`, ASCII case ignored), if any.
    fn read(&self, name: &str) -> Option<Vec<u8>>;
    /// Where it looks, for messages (`textures.grf`).
    fn describe(&self) -> String;
    /// The names of the files it holds directly, where it can list them (a folder's files, for an Evil
    /// Islands map finding its sectors `<map>XXXYYY.sec`); none by default.
    fn names(&self) -> Vec<String> {
        Vec::new()
    }
}

impl ConvertOptions {
    /// The bytes of a file named `name` beside the file being converted: an entry of the same archive
    /// (see [`ConvertOptions::siblings`]), a file of [`ConvertOptions::folder_files`], else a file in
    /// `path`'s folder, matched ignoring ASCII case.
    pub fn beside(&self, path: Option<&Path>, name: &str) -> Option<Vec<u8>> {
        if let Some(bytes) = self.siblings.as_ref().and_then(|s| s.get(&name.to_lowercase())) {
            return Some(bytes.clone());
        }
        if let Some(bytes) = self.folder_files.as_ref().and_then(|f| f.read(name)) {
            return Some(bytes);
        }
        let dir = path?.parent()?;
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        let confine = self.confine.as_deref();
        if !crate::paths::may_look_in(confine, dir) {
            return None;
        }
        let exact = dir.join(name);
        if exact.is_file() {
            return self.read_found(&exact);
        }
        let found = std::fs::read_dir(dir)
            .ok()?
            .flatten()
            .find(|e| e.file_name().to_str().is_some_and(|n| n.eq_ignore_ascii_case(name)) && e.path().is_file())?;
        self.read_found(&found.path())
    }

    /// A file a conversion found by itself, read as [`ConvertOptions::confine`] allows: a refusal (a
    /// link) is a note naming the link, and the file is not read.
    pub fn read_found(&self, path: &Path) -> Option<Vec<u8>> {
        match crate::paths::read_found(self.confine.as_deref(), path) {
            Ok(bytes) => bytes,
            Err(e @ crate::Error::Refused(_)) => {
                self.note(e.to_string());
                None
            }
            Err(_) => None,
        }
    }

    /// The bytes of a file named `name` in the folder of `path` on disk, matched ignoring ASCII case (a
    /// file given on the command line, e.g. `--with`, finding its own companion).
    pub fn beside_path(&self, path: &Path, name: &str) -> Option<Vec<u8>> {
        ConvertOptions::default().beside(Some(path), name)
    }

    /// Adds a note for the user (see [`ConvertOptions::notes`]).
    pub fn note(&self, text: impl Into<String>) {
        self.notes.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(text.into());
    }

    /// Records a file looked for and not found (see [`ConvertOptions::missing`]); the note saying so is
    /// the caller's.
    pub fn record_missing(&self, what: &'static str, name: impl Into<String>) {
        let file = MissingFile { input: String::new(), what, name: name.into() };
        self.missing.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(file);
    }

    /// Reports a part of the file that could not be converted (see [`ConvertOptions::failures`]).
    pub fn fail(&self, text: impl Into<String>) {
        self.failures.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(text.into());
    }

    /// The value given for `key`, if any.
    pub fn setting(&self, key: &str) -> Option<&str> {
        self.settings.iter().rev().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.as_str())
    }
}
