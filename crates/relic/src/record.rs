//! The record of what `relic convert` wrote: one small JSON file per converted input, `<stem>.relic.json`
//! beside its outputs (`out/texts_en.res.relic.json` beside `out/texts_en.res/`, `out/x.mmp.relic.json`
//! beside `out/x.mmp.png`), listing each file written, its role and its BLAKE3 hash. Editors drop what
//! relic marks its outputs with (a text's byte order mark, a PNG's `tEXt` chunks), and the record survives
//! that, so `pack` and `edit` consult it:
//!
//! - a `.txt` with the role [`Role::Text`] is a text entry convert wrote (cp1251 for Evil Islands), BOM or
//!   not, and is encoded back under its entry's name;
//! - a PNG whose `relic…` text chunks are gone gets them from the record ([`restore_png_text`]), so a
//!   re-saved texture keeps its MMP pixel format and mip count, a walkability PNG its GAT and heights;
//! - a view ([`crate::export::view`]) is edited only when its bytes no longer have the recorded hash.
//!
//! The record is written only when a file of its conversion has such a role (a text, a view, a PNG with
//! provenance), so most conversions write none. It is relic's own file: `pack` of a folder leaves it out
//! ([`is_record`]), and convert rewrites it (keeping what it lists of files not written again) rather than
//! refusing it. A record is only ever looked up by the path of a file being packed (below the record's
//! folder) and never names a file to open, so a hostile one cannot lead outside its folder: one that is
//! too large, not JSON or of another version is ignored with a warning naming the file, line and column;
//! a listed path that is not a plain relative path (`..`, absolute) is ignored, named.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

/// What a record's file name ends in: `<stem>.relic.json`.
pub const RECORD_SUFFIX: &str = ".relic.json";

/// The version of the record written; others are ignored.
pub const RECORD_VERSION: u32 = 1;

/// A record larger than this is not read (one lists about 200 bytes per file written: a GRF of 300,000
/// entries stays below it), so a hostile one cannot make pack hold gigabytes.
pub const MAX_RECORD_BYTES: u64 = 64 << 20;

/// How many folders up from a packed file a record is looked for (archives nest folders deeply).
const MAX_LEVELS: usize = 48;

/// What a file written by convert is, for `pack`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// A text entry of an archive, written as UTF-8 (`encoding` names the entry's own code page).
    Text,
    /// A view: never packed back (see [`crate::export::view`]).
    View,
    /// A PNG carrying relic's provenance in text chunks (`png_text`).
    Image,
    /// Any other output.
    Output,
}

/// One file written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedFile {
    /// Below the record's folder, `/` between folders.
    pub path: String,
    pub role: Role,
    /// BLAKE3 of the bytes written, hex.
    pub blake3: String,
    /// A text's code page in its archive (`cp1251`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
    /// A PNG's text chunks whose keyword starts with `relic` (its provenance), `(keyword, text)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub png_text: Vec<(String, String)>,
}

/// The record of one converted input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Always [`RECORD_VERSION`]; marks the file as relic's.
    pub relic_record: u32,
    /// The input as convert was given it.
    pub input: String,
    /// Its format id.
    pub format: String,
    pub note: String,
    pub files: Vec<RecordedFile>,
}

const NOTE: &str = "written by relic convert: what it wrote and each file's hash, so that pack knows a text, a \
                    PNG's provenance and an unedited view even after an editor re-saved them; never packed";

/// The hex BLAKE3 of bytes.
pub fn hash_hex(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

/// The text chunks of a PNG that are relic's provenance (keyword `relic…`).
pub fn relic_png_text(png: &[u8]) -> Vec<(String, String)> {
    crate::export::png::text_chunks(png).into_iter().filter(|(k, _)| k.starts_with("relic")).collect()
}

/// Whether a file named `name` holding `head` (its first bytes, or all of them) is a record: `pack` leaves
/// it out of a folder. A file of that name that is not one (a game entry named so) is kept.
pub fn is_record(name: &str, head: &[u8]) -> bool {
    name.ends_with(RECORD_SUFFIX) && {
        let text = String::from_utf8_lossy(head);
        text.trim_start().strip_prefix('{').is_some_and(|t| t.trim_start().starts_with("\"relic_record\""))
    }
}

/// The file entry for `bytes` written at `path` (below the record's folder): its role from its name and
/// bytes unless given (a view by [`crate::export::view::VIEW_SUFFIX`], a PNG with `relic` text chunks).
pub fn describe(path: &str, bytes: &[u8], role: Option<Role>, encoding: Option<&str>) -> RecordedFile {
    let file_name = path.rsplit('/').next().unwrap_or(path);
    let is_png = bytes.starts_with(b"\x89PNG\r\n\x1a\n");
    let png_text = if is_png { relic_png_text(bytes) } else { Vec::new() };
    let view = file_name.rsplit_once('.').is_some_and(|(before, _)| before.ends_with(crate::export::view::VIEW_SUFFIX));
    let role = role.unwrap_or(if view {
        Role::View
    } else if !png_text.is_empty() {
        Role::Image
    } else {
        Role::Output
    });
    RecordedFile {
        path: path.to_string(),
        role,
        blake3: hash_hex(bytes),
        encoding: encoding.map(str::to_owned),
        png_text,
    }
}

/// What a conversion wrote so far, for its record (shared by the threads converting its entries).
#[derive(Debug)]
pub struct Recorder {
    /// The folder the record goes in; recorded paths are below it.
    pub dir: PathBuf,
    files: Mutex<Vec<RecordedFile>>,
}

impl Recorder {
    pub fn new(dir: &Path) -> Self {
        Recorder { dir: dir.to_path_buf(), files: Mutex::default() }
    }

    /// Notes a file written at `path` (a path below [`Recorder::dir`]; others are not recorded).
    pub fn add(&self, path: &Path, bytes: &[u8], role: Option<Role>, encoding: Option<&str>) {
        let Ok(rel) = path.strip_prefix(&self.dir) else { return };
        let Some(parts) = rel.iter().map(|c| c.to_str()).collect::<Option<Vec<_>>>() else { return };
        let entry = describe(&parts.join("/"), bytes, role, encoding);
        self.files.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(entry);
    }

    /// The record's bytes, `None` when no file has a role beyond [`Role::Output`] (nothing for pack to
    /// learn). `previous` is the record already there: what it lists of files not written now is kept.
    pub fn finish(&self, input: &str, format: &str, previous: Option<&[u8]>) -> Option<Vec<u8>> {
        let mut files = std::mem::take(&mut *self.files.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        if files.iter().all(|f| f.role == Role::Output) {
            return None;
        }
        if let Some(old) = previous.and_then(|b| serde_json::from_slice::<Record>(b).ok()) {
            let written: std::collections::HashSet<String> = files.iter().map(|f| f.path.clone()).collect();
            files.extend(old.files.into_iter().filter(|f| !written.contains(&f.path)));
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let record = Record {
            relic_record: RECORD_VERSION,
            input: input.to_string(),
            format: format.to_string(),
            note: NOTE.to_string(),
            files,
        };
        serde_json::to_vec_pretty(&record).ok().map(|mut v| {
            v.push(b'\n');
            v
        })
    }
}

/// A record's entry found for a file, and the record it came from (for messages).
#[derive(Debug, Clone)]
pub struct Found {
    pub file: RecordedFile,
    pub record: PathBuf,
}

/// A record read: its files by path.
type Parsed = HashMap<String, RecordedFile>;

/// The records met while packing, each read once, and the warnings reading them gave (a record that is
/// not JSON, a path that leads out of its folder).
#[derive(Debug, Default)]
pub struct Records {
    read: Mutex<HashMap<PathBuf, Option<Arc<Parsed>>>>,
    warnings: Mutex<Vec<String>>,
}

impl Records {
    /// The warnings so far, taken (each `warning: …`).
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *self.warnings.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    /// What a record says of `file`: the nearest record (looking in the file's folder, then up, for
    /// `<prefix>.relic.json` where the prefix is the name of the file or folder below, up to one of its
    /// dots) that lists it.
    pub fn find(&self, file: &Path) -> Option<Found> {
        let abs = crate::paths::lexical_absolute(file);
        let mut below: Vec<String> = Vec::new();
        let mut here = abs.as_path();
        for _ in 0..MAX_LEVELS {
            let name = here.file_name()?.to_str()?.to_string();
            let dir = here.parent()?;
            below.insert(0, name.clone());
            let rel = below.join("/");
            for stem in prefixes(&name) {
                let record_name = format!("{stem}{RECORD_SUFFIX}");
                if record_name == name {
                    continue;
                }
                let Some(parsed) = self.load(dir, &record_name) else { continue };
                if let Some(f) = parsed.get(&rel) {
                    return Some(Found { file: f.clone(), record: dir.join(&record_name) });
                }
            }
            here = dir;
        }
        None
    }

    /// Adds a warning for the user (`warning: …`).
    pub fn warn(&self, text: String) {
        self.warnings.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(text);
    }

    fn load(&self, dir: &Path, name: &str) -> Option<Arc<Parsed>> {
        let path = dir.join(name);
        if let Some(done) = self.read.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(&path) {
            return done.clone();
        }
        let parsed = self.parse_at(dir, name, &path).map(Arc::new);
        self.read.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(path, parsed.clone());
        parsed
    }

    fn parse_at(&self, dir: &Path, name: &str, path: &Path) -> Option<Parsed> {
        // Only a regular file, not through a link; bounded before it is read.
        let meta = path.symlink_metadata().ok()?;
        if !meta.file_type().is_file() {
            return None;
        }
        if meta.len() > MAX_RECORD_BYTES {
            self.warn(format!(
                "warning: {}: {} bytes, over the {MAX_RECORD_BYTES} a record of relic convert may be: ignored",
                path.display(),
                meta.len()
            ));
            return None;
        }
        let bytes = match crate::paths::read_unlinked(dir, Path::new(name)) {
            Ok(Some(b)) => b,
            Ok(None) => return None,
            Err(e) => {
                self.warn(format!("warning: {e}: the record is ignored"));
                return None;
            }
        };
        match parse_record(&bytes) {
            Ok((parsed, problems)) => {
                for p in problems {
                    self.warn(format!("warning: {}: {p}", path.display()));
                }
                Some(parsed)
            }
            Err(why) => {
                self.warn(format!("warning: {}: {why}: the record is ignored", path.display()));
                None
            }
        }
    }
}

/// The names a record of a file or folder named `name` can have before [`RECORD_SUFFIX`]: `name` up to
/// each of its dots, and whole (`x.mmp.png`: `x`, `x.mmp`, `x.mmp.png`).
fn prefixes(name: &str) -> impl Iterator<Item = &str> {
    name.match_indices('.').map(move |(i, _)| &name[..i]).filter(|p| !p.is_empty()).chain(std::iter::once(name))
}

/// Reads a record: its files by path, and what was left out of it (`files[3].path: …`). Refused: bytes that
/// are not JSON (line and column given), not a record, or of another version.
pub fn parse_record(bytes: &[u8]) -> std::result::Result<(Parsed, Vec<String>), String> {
    let record: Record = serde_json::from_slice(bytes)
        .map_err(|e| format!("not a record relic convert wrote (line {}, column {}: {e})", e.line(), e.column()))?;
    if record.relic_record != RECORD_VERSION {
        return Err(format!("`relic_record` is {}, a version this relic does not read", record.relic_record));
    }
    let mut files = HashMap::with_capacity(record.files.len());
    let mut problems = Vec::new();
    for (i, f) in record.files.into_iter().enumerate() {
        match crate::paths::safe_relative_path(&f.path) {
            Ok(_) if !f.path.contains('\\') => {
                files.insert(f.path.clone(), f);
            }
            Ok(_) => {
                problems.push(format!("files[{i}].path `{}`: `\\` in a recorded path: ignored", f.path.escape_debug()))
            }
            Err(why) => problems.push(format!("files[{i}].path `{}`: {why}: ignored", f.path.escape_debug())),
        }
    }
    Ok((files, problems))
}

/// A PNG (at `path`, its bytes `png`) with its `relic` text chunks put back from the record when an editor
/// dropped them, and the note saying so; `None` when it has its own, or no record lists it with some.
pub fn restore_png_text(path: &Path, png: &[u8], records: &Records) -> Option<(Vec<u8>, String)> {
    if !png.starts_with(b"\x89PNG\r\n\x1a\n") || !relic_png_text(png).is_empty() {
        return None;
    }
    let found = records.find(path)?;
    if found.file.png_text.is_empty() {
        return None;
    }
    let restored = crate::export::png::insert_text_chunks(png, &found.file.png_text)?;
    let keys: Vec<&str> = found.file.png_text.iter().map(|(k, _)| k.as_str()).collect();
    let note = format!(
        "note: {} has lost relic's text chunks (an editor re-saved it): its provenance ({}) is taken from {}",
        path.display(),
        keys.join(", "),
        found.record.display()
    );
    Some((restored, note))
}

/// Whether the view at `path` (its bytes `bytes`) is as convert wrote it: `Some(true)` when a record lists
/// it with these bytes' hash, `Some(false)` when with another, `None` when no record lists it.
pub fn view_unchanged(path: &Path, bytes: &[u8]) -> Option<bool> {
    let found = Records::default().find(path)?;
    Some(found.file.blake3 == hash_hex(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_end_at_each_dot() {
        assert_eq!(prefixes("x.mmp.png").collect::<Vec<_>>(), ["x", "x.mmp", "x.mmp.png"]);
        assert_eq!(prefixes(".hidden").collect::<Vec<_>>(), [".hidden"]);
    }

    #[test]
    fn hostile_records_are_refused_or_their_bad_paths_left_out() {
        let err = parse_record(b"{\n  \"relic_record\": 1,\n  oops").unwrap_err();
        assert!(err.contains("line 3, column 3"), "{err}");
        let err = parse_record(br#"{"relic_record":2,"input":"","format":"","note":"","files":[]}"#).unwrap_err();
        assert!(err.contains("`relic_record` is 2"), "{err}");
        let text = br#"{"relic_record":1,"input":"a","format":"ei-res","note":"","files":[
            {"path":"../up.txt","role":"text","blake3":""},
            {"path":"/abs.txt","role":"text","blake3":""},
            {"path":"a\\b.txt","role":"text","blake3":""},
            {"path":"ok/fine.txt","role":"text","blake3":"00"}]}"#;
        let (files, problems) = parse_record(text).unwrap();
        assert_eq!(files.keys().collect::<Vec<_>>(), ["ok/fine.txt"]);
        assert_eq!(problems.len(), 3);
        assert!(problems[0].starts_with("files[0].path `../up.txt`: `..` path component"), "{problems:?}");
        assert!(is_record("x.relic.json", b"{\n  \"relic_record\": 1"));
        assert!(!is_record("x.relic.json", b"{\"other\": 1}"));
        assert!(!is_record("x.json", b"{\"relic_record\": 1}"));
    }

    #[test]
    fn a_record_is_written_only_with_something_to_tell_and_keeps_what_was_not_rewritten() {
        let dir = Path::new("out");
        let plain = Recorder::new(dir);
        plain.add(&dir.join("x.cam.json"), b"{}", None, None);
        assert_eq!(plain.finish("x.cam", "ei-cam", None), None, "a plain output needs no record");
        let first = Recorder::new(dir);
        first.add(&dir.join("t.res/a.txt"), b"\xEF\xBB\xBFa", Some(Role::Text), Some("cp1251"));
        first.add(&dir.join("t.res/b.txt"), b"\xEF\xBB\xBFb", Some(Role::Text), Some("cp1251"));
        first.add(&dir.join("t.res/u.spr/atlas.view.png"), b"not really", None, None);
        first.add(Path::new("elsewhere/x"), b"", None, None);
        let old = first.finish("t.res", "ei-res", None).unwrap();
        let (files, problems) = parse_record(&old).unwrap();
        assert!(problems.is_empty());
        assert_eq!(files.len(), 3, "only files below its folder");
        assert_eq!(files["t.res/u.spr/atlas.view.png"].role, Role::View);
        assert_eq!(files["t.res/a.txt"].encoding.as_deref(), Some("cp1251"));
        assert_eq!(files["t.res/a.txt"].blake3, hash_hex(b"\xEF\xBB\xBFa"));
        // A later run that rewrote one file: its entry is new, the others kept.
        let again = Recorder::new(dir);
        again.add(&dir.join("t.res/a.txt"), b"\xEF\xBB\xBFA", Some(Role::Text), Some("cp1251"));
        let (files, _) = parse_record(&again.finish("t.res", "ei-res", Some(&old)).unwrap()).unwrap();
        assert_eq!(files.len(), 3);
        assert_eq!(files["t.res/a.txt"].blake3, hash_hex(b"\xEF\xBB\xBFA"));
        assert_eq!(files["t.res/b.txt"].blake3, hash_hex(b"\xEF\xBB\xBFb"));
    }
}
