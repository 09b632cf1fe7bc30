//! The options of `relic convert` that reach a format ([`ConvertOptions`]): the shared ones, the files beside
//! the input a conversion may look for ([`Nearby`], one lookup: [`ConvertOptions::beside`]), and settings
//! that belong to one game, kept by their type in that game's module ([`TypedSettings`]).

use std::any::Any;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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
    pub archive_palette: Option<Arc<crate::codec::palette::Palette>>,
    /// One-line notes for the user (a palette not found, a default taken), printed by the CLI as
    /// warnings; shared by every conversion of one run.
    pub notes: Arc<Mutex<Vec<String>>>,
    /// Parts of one file a conversion could not decode while it still wrote the rest (a record of a
    /// container whose body is damaged): each is a failure of that input, one line on stderr, and makes
    /// the exit code 1. `relic convert` gives every file a list of its own.
    pub failures: Arc<Mutex<Vec<String>>>,
    /// Format-specific choices for unsettled layouts, as `(key, value)` pairs with keys named after the
    /// format (`--option ei-cam.time=f32`). Each format reads its own keys (its `notes` list them) and
    /// refuses values it does not know; the last pair for a key wins.
    pub settings: Vec<(String, String)>,
    /// Settings of one game's files, typed and owned by that game (an Evil Islands figure's `--bones`,
    /// `--anims`, `--morph`: [`crate::evil_islands::FigureSettings`]; a Ragnarok body's `--with` head:
    /// [`crate::ragnarok::act::HeadSettings`]); see [`ConvertOptions::settings_of`].
    pub typed_settings: TypedSettings,
    /// PNG compression of image output (`--compression fast|default|best`; fast by default).
    pub compression: crate::export::png::PngCompression,
    /// The files a conversion looked for and did not find (a model's textures), besides its note:
    /// `relic convert` names the input of each and ends a batch with one summary (see
    /// [`ConvertOptions::record_missing`]).
    pub missing: Arc<Mutex<Vec<MissingFile>>>,
    /// Where the files beside the input are: the archive it came from, the folder it was dropped with, the
    /// folder its reads are confined to; looked in by [`ConvertOptions::beside`].
    pub nearby: Nearby,
}

/// A file a conversion looked for and did not find: what it is (`texture`, `model`), its name as the
/// input stores it, and the input (a file, or `archive/entry`; set by `relic convert`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MissingFile {
    pub input: String,
    pub what: &'static str,
    pub name: String,
}

/// Files read on demand by name, from an archive kept open while its entries convert (see
/// [`Nearby::archive`]), or a folder that is not on disk ([`Nearby::folder`]).
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

/// The places around the file being converted that a conversion may find other files in, and the root
/// they must lie under. Set by whoever opens the input (an archive for its entries, `relic view` for its
/// files); [`ConvertOptions::beside`] looks in them in one order.
#[derive(Debug, Clone, Default)]
pub struct Nearby {
    siblings: Option<Arc<HashMap<String, Vec<u8>>>>,
    archive: Option<Arc<dyn FileLookup>>,
    folder: Option<Arc<dyn FileLookup>>,
    entry_name: Option<String>,
    confine: Option<PathBuf>,
}

impl Nearby {
    /// Nothing around, the files found confined to `root` (see [`Nearby::confine`]).
    pub fn confined(root: impl Into<PathBuf>) -> Nearby {
        Nearby { confine: Some(root.into()), ..Nearby::default() }
    }

    /// With the entries of the archive being converted that its entries may need, by lower-case name (a
    /// model's `.bon`, `.anm` and texture beside its `.mod` in a RES), set through the archive's
    /// `entry_options`: what "the file beside it" is for an entry.
    pub fn with_siblings(self, siblings: Arc<HashMap<String, Vec<u8>>>) -> Nearby {
        Nearby { siblings: Some(siblings), ..self }
    }

    /// With the archive the entry being converted came from, read lazily by stored name (a Ragnarok
    /// model's textures in the same GRF), set through the archive's
    /// [`crate::registry::Codec::entry_options_shared`].
    pub fn with_archive(self, archive: Arc<dyn FileLookup>) -> Nearby {
        Nearby { archive: Some(archive), ..self }
    }

    /// With the files in the folder of a file that is not on disk (the browser viewer's dropped folder),
    /// read on demand by plain name.
    pub fn with_folder(self, folder: Arc<dyn FileLookup>) -> Nearby {
        Nearby { folder: Some(folder), ..self }
    }

    /// With the stored name of the archive entry being converted (`data\sprite\x.act`), set for entries,
    /// which have no path.
    pub fn with_entry_name(self, name: impl Into<String>) -> Nearby {
        Nearby { entry_name: Some(name.into()), ..self }
    }

    /// These places, each taken from `archive` (what the archive an entry was opened from provides) where
    /// it is not given here; the folder and the root are this one's.
    pub fn or_from(self, archive: Nearby) -> Nearby {
        Nearby {
            siblings: self.siblings.or(archive.siblings),
            archive: self.archive.or(archive.archive),
            entry_name: self.entry_name.or(archive.entry_name),
            ..self
        }
    }

    /// The archive the entry being converted came from (see [`Nearby::with_archive`]).
    pub fn archive(&self) -> Option<&Arc<dyn FileLookup>> {
        self.archive.as_ref()
    }

    /// The files of the input's folder when it is not on disk (see [`Nearby::with_folder`]).
    pub fn folder(&self) -> Option<&Arc<dyn FileLookup>> {
        self.folder.as_ref()
    }

    /// The stored name of the archive entry being converted: what formats that look for a file of the same
    /// stem beside it go by.
    pub fn entry_name(&self) -> Option<&str> {
        self.entry_name.as_deref()
    }

    /// The folder the files a conversion finds by itself must lie under, none reached through a link
    /// (`relic view`'s root, canonical): a model's client folder, the files and archives beside it, a
    /// map's models, a level's databases (see [`crate::paths::read_found`]). `--textures`, `--models` and
    /// `--palette` are the user's own and not confined. None: looked up wherever they are (`relic convert`).
    pub fn confine(&self) -> Option<&Path> {
        self.confine.as_deref()
    }
}

/// A file looked for beside the input ([`ConvertOptions::beside`]): its plain name (`unit.bon`), and, when the
/// archive the input came from is to be asked too, the name it stores it under (`data\sprite\x.spr`).
#[derive(Debug, Clone, Copy)]
pub struct Wanted<'a> {
    pub name: &'a str,
    pub stored: Option<&'a str>,
}

impl<'a> Wanted<'a> {
    /// Also looked for, last, in the input's archive as `stored`.
    pub fn or_stored_as(self, stored: &'a str) -> Wanted<'a> {
        Wanted { stored: Some(stored), ..self }
    }
}

impl<'a> From<&'a str> for Wanted<'a> {
    fn from(name: &'a str) -> Self {
        Wanted { name, stored: None }
    }
}

impl<'a> From<&'a String> for Wanted<'a> {
    fn from(name: &'a String) -> Self {
        Wanted::from(name.as_str())
    }
}

/// A value of [`TypedSettings`]: any plain data its game's module defines.
trait Setting: Any + std::fmt::Debug + Send + Sync {}

impl<T: Any + std::fmt::Debug + Send + Sync> Setting for T {}

/// Settings that belong to one game or format, at most one value of each type, defined in that game's
/// module: the shared options name no game, and a format reads only its own type
/// ([`ConvertOptions::settings_of`]). The string settings `--option KEY=VALUE` stay in
/// [`ConvertOptions::settings`].
#[derive(Debug, Clone, Default)]
pub struct TypedSettings(Vec<Arc<dyn Setting>>);

impl TypedSettings {
    /// The value of type `T`, if one was set.
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0.iter().find_map(|setting| {
            let any: &dyn Any = &**setting;
            any.downcast_ref::<T>()
        })
    }

    /// Sets the value of type `T`, replacing any.
    pub fn set<T: Any + std::fmt::Debug + Send + Sync>(&mut self, value: T) {
        self.0.retain(|setting| {
            let any: &dyn Any = &**setting;
            !any.is::<T>()
        });
        self.0.push(Arc::new(value));
    }
}

impl ConvertOptions {
    /// The bytes of a file beside the file being converted (at `path` when it is on disk), looked for in
    /// this order: an entry of the same archive ([`Nearby::with_siblings`]), a file of the dropped folder
    /// ([`Nearby::with_folder`]), a file in `path`'s folder matched ignoring ASCII case (as
    /// [`Nearby::confine`] allows, a refused link said in a note), and last, when `wanted` gives its stored
    /// name, the archive the input came from ([`Nearby::with_archive`]).
    pub fn beside<'a>(&self, path: Option<&Path>, wanted: impl Into<Wanted<'a>>) -> Option<Vec<u8>> {
        let Wanted { name, stored } = wanted.into();
        let nearby = &self.nearby;
        if let Some(bytes) = nearby.siblings.as_ref().and_then(|s| s.get(&name.to_lowercase())) {
            return Some(bytes.clone());
        }
        if let Some(bytes) = nearby.folder.as_ref().and_then(|f| f.read(name)) {
            return Some(bytes);
        }
        if let Some(bytes) = path.and_then(|path| self.in_folder_of(path, name)) {
            return Some(bytes);
        }
        nearby.archive.as_ref()?.read(stored?)
    }

    /// A file named `name` in the folder of `path` on disk, matched ignoring ASCII case.
    fn in_folder_of(&self, path: &Path, name: &str) -> Option<Vec<u8>> {
        let dir = path.parent()?;
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        if !crate::paths::may_look_in(self.nearby.confine(), dir) {
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

    /// A file a conversion found by itself, read as [`Nearby::confine`] allows: a refusal (a link) is a
    /// note naming the link, and the file is not read.
    pub fn read_found(&self, path: &Path) -> Option<Vec<u8>> {
        match crate::paths::read_found(self.nearby.confine(), path) {
            Ok(bytes) => bytes,
            Err(e @ crate::Error::Refused(_)) => {
                self.note(e.to_string());
                None
            }
            Err(_) => None,
        }
    }

    /// The settings of type `T` (a game's own, see [`TypedSettings`]), if given.
    pub fn settings_of<T: Any>(&self) -> Option<&T> {
        self.typed_settings.get()
    }

    /// These options with the settings `value` of its type (see [`TypedSettings`]).
    pub fn with_settings<T: Any + std::fmt::Debug + Send + Sync>(mut self, value: T) -> ConvertOptions {
        self.typed_settings.set(value);
        self
    }

    /// Changes the settings of type `T` (its default when none were given).
    pub fn update_settings<T>(&mut self, change: impl FnOnce(&mut T))
    where
        T: Any + std::fmt::Debug + Send + Sync + Clone + Default,
    {
        let mut value = self.settings_of::<T>().cloned().unwrap_or_default();
        change(&mut value);
        self.typed_settings.set(value);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Default, PartialEq)]
    struct Game(u8);

    #[derive(Debug, Clone, Default, PartialEq)]
    struct Other(&'static str);

    #[test]
    fn typed_settings_hold_one_value_of_each_type() {
        let mut opts = ConvertOptions::default().with_settings(Game(1)).with_settings(Other("a"));
        assert_eq!(opts.settings_of::<Game>(), Some(&Game(1)));
        opts.update_settings::<Game>(|g| g.0 += 1);
        assert_eq!((opts.settings_of::<Game>(), opts.settings_of::<Other>()), (Some(&Game(2)), Some(&Other("a"))));
        assert_eq!(opts.settings_of::<u32>(), None);
        assert_eq!(opts.typed_settings.0.len(), 2);
        assert_eq!(format!("{:?}", opts.typed_settings), r#"TypedSettings([Other("a"), Game(2)])"#);
    }

    #[derive(Debug)]
    struct Files(&'static str, &'static [u8]);

    impl FileLookup for Files {
        fn read(&self, name: &str) -> Option<Vec<u8>> {
            (name == self.0).then(|| self.1.to_vec())
        }
        fn describe(&self) -> String {
            "files".into()
        }
    }

    #[test]
    fn beside_looks_in_siblings_then_the_folder_then_the_disk_then_the_archive_by_stored_name() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        std::fs::write(dir.join("On-Disk.BON"), b"disk").unwrap();
        let input = dir.join("unit.mod");
        let siblings = Arc::new(HashMap::from([("s.bon".to_string(), b"sibling".to_vec())]));
        let nearby = Nearby::default()
            .with_siblings(siblings)
            .with_folder(Arc::new(Files("f.bon", b"folder")))
            .with_archive(Arc::new(Files("data\\a.bon", b"archive")));
        let opts = ConvertOptions { nearby, ..Default::default() };
        assert_eq!(opts.beside(Some(&input), "S.bon"), Some(b"sibling".to_vec()), "siblings by lower-case name");
        assert_eq!(opts.beside(Some(&input), "f.bon"), Some(b"folder".to_vec()));
        assert_eq!(opts.beside(Some(&input), "on-disk.bon"), Some(b"disk".to_vec()), "ASCII case ignored");
        assert_eq!(opts.beside(None, "on-disk.bon"), None, "no path: no folder on disk");
        assert_eq!(opts.beside(Some(&input), "a.bon"), None, "no stored name: the archive is not asked");
        let wanted = Wanted::from("a.bon").or_stored_as("data\\a.bon");
        assert_eq!(opts.beside(Some(&input), wanted), Some(b"archive".to_vec()));
        // An entry's own options over its archive's: the archive's places kept, the folder and root its own.
        let entry = Nearby::confined(dir).with_entry_name("x.act").or_from(opts.nearby.clone().with_entry_name("a"));
        assert_eq!((entry.entry_name(), entry.confine()), (Some("x.act"), Some(dir)));
        assert_eq!((entry.archive().is_some(), entry.folder().is_some()), (true, false));
        let confined = ConvertOptions { nearby: Nearby::confined(dir.join("elsewhere")), ..Default::default() };
        assert_eq!(confined.beside(Some(&input), "on-disk.bon"), None, "outside the root: not looked in");
    }
}
