//! Drakan database definitions (`drakan-db`, `.db`; spec "Database definition", docs/formats/drakan.md#db): a text file
//! naming the database's version and its dependencies, each a 1-based index and a path relative to the
//! `.db` without its extension. The database's assets are the SRSC files beside it with the same stem
//! (`x.txd`, `x.sdb`, `x.mod`, `x.adb`, `x.odb`, `x.ssd`); a record `ref {id, db_index}` names index 0 for
//! this database and the dependency table's indices for the others.
//!
//! Read leniently (docs/formats/drakan.md#db: later Riot games write `version 1.05`/`1.1`, extra keys, dependencies as
//! bare paths without indices): every line is kept, so the file is written back byte for byte from its JSON;
//! unknown lines are listed as they are. `relic convert x.db` converts every SRSC file of the database, with
//! references resolved across databases (`Common/Common.txd:12`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::asset::NamedAsset;
use crate::error::{Error, Result};
use crate::registry::{Convert, ConvertInput, Document, Format, Game, JsonContext, Kind, Probe};

pub const FORMAT_ID: &str = "drakan-db";

/// The SRSC files of a database, by extension (spec "How the engine manages its assets").
pub const ASSET_EXTENSIONS: [&str; 6] = ["txd", "sdb", "mod", "adb", "odb", "ssd"];

/// Largest `.db` relic reads: they are a few lines long.
const MAX_SIZE: usize = 1 << 20;

/// A parsed `.db` ([`DbFile::read`]; [`DbDocument`] also keeps the text, to write it back).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DbFile {
    pub version: Option<String>,
    /// Index (1-based) → path relative to the `.db`, without `.db`, as written (`\` separators).
    pub dependencies: Vec<Dependency>,
    /// Lines that are neither the version, the dependency count nor a dependency, as they are.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_lines: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dependency {
    /// `None` for a bare path (later Riot games): then its 1-based position.
    pub index: Option<u16>,
    pub path: String,
}

/// The lossless document: the parsed fields for reading, and the text, which the writer uses. Read with
/// [`DbDocument::read`], written with [`DbDocument::to_bytes`]; `relic convert --to json` is
/// `serde_json::to_value` of it.
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::drakan::db::DbDocument;
///
/// let text = b"version 1.0\r\ndependencies 1\r\n1 ..\\Common\\Common\r\n";
/// let db = DbDocument::read(text)?;
/// assert_eq!(db.parsed.version.as_deref(), Some("1.0"));
/// assert_eq!(db.parsed.dependency(1), Some("..\\Common\\Common"));
/// assert_eq!(db.to_bytes()?, text);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DbDocument {
    pub format: String,
    #[serde(flatten)]
    pub parsed: DbFile,
    pub text: String,
}

/// Parses the text of a `.db`.
pub fn parse(data: &[u8]) -> Result<DbFile> {
    if data.len() > MAX_SIZE {
        return Err(Error::limit(FORMAT_ID, "file", 0, format!("{} bytes is not a database definition", data.len())));
    }
    let text = std::str::from_utf8(data).map_err(|e| {
        Error::invalid(FORMAT_ID, "text", e.valid_up_to() as u64, "not text (a .db is a few lines of ASCII)")
    })?;
    if let Some(at) = text.find('\0') {
        return Err(Error::invalid(FORMAT_ID, "text", at as u64, "a NUL in a text file"));
    }
    let mut db = DbFile { version: None, dependencies: vec![], other_lines: vec![] };
    let mut expected = 0usize;
    let mut offset = 0u64;
    for raw in text.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\r', '\n']);
        let at = offset;
        offset += raw.len() as u64;
        let mut words = line.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (None, ..) => {}
            (Some(k), Some(v), None) if k.eq_ignore_ascii_case("version") && db.version.is_none() => {
                db.version = Some(v.to_string());
            }
            (Some(k), Some(n), None) if k.eq_ignore_ascii_case("dependencies") => {
                expected = n
                    .parse()
                    .map_err(|_| Error::invalid(FORMAT_ID, "dependencies", at, format!("`{n}` is no count")))?;
            }
            _ if db.dependencies.len() < expected => {
                let trimmed = line.trim();
                let dep = match trimmed.split_once(char::is_whitespace) {
                    Some((index, path)) if index.parse::<u16>().is_ok() => {
                        let index: u16 = index.parse().unwrap_or(0);
                        if index == 0 {
                            return Err(Error::invalid(FORMAT_ID, "dependency.index", at, "index 0 is this database"));
                        }
                        Dependency { index: Some(index), path: path.trim().to_string() }
                    }
                    _ => Dependency { index: None, path: trimmed.to_string() },
                };
                db.dependencies.push(dep);
            }
            _ => db.other_lines.push(line.to_string()),
        }
    }
    if db.dependencies.len() < expected {
        return Err(Error::invalid(
            FORMAT_ID,
            "dependencies",
            offset,
            format!("{expected} dependencies announced, {} listed", db.dependencies.len()),
        ));
    }
    Ok(db)
}

impl DbFile {
    /// The path (relative to the `.db`'s folder, `/` separated, no extension) of dependency `index`.
    pub fn dependency(&self, index: u16) -> Option<&str> {
        self.dependencies
            .iter()
            .enumerate()
            .find(|(i, d)| d.index.unwrap_or(*i as u16 + 1) == index)
            .map(|(_, d)| d.path.as_str())
    }
}

/// A database on disk: its name, folder and dependency table, for resolving references.
#[derive(Debug, Clone)]
pub struct Database {
    pub name: String,
    pub dir: PathBuf,
    pub file: DbFile,
}

impl Database {
    /// Loads `x.db`.
    pub fn load(path: &Path) -> Result<Database> {
        let data = crate::source::read(path)?;
        let file = parse(&data).map_err(|e| e.in_file(path))?;
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok(Database { name, dir, file })
    }

    /// The `.db` of database index `db` as seen from this one (0: itself), and its display name
    /// (`Common`, or the relative path as written).
    pub fn resolve(&self, db: u16) -> Option<(PathBuf, String)> {
        if db == 0 {
            return Some((self.dir.join(format!("{}.db", self.name)), self.name.clone()));
        }
        let rel = self.file.dependency(db)?;
        let rel_path: PathBuf = rel.split(['\\', '/']).collect();
        let display = rel.replace('\\', "/");
        Some((self.dir.join(rel_path).with_extension("db"), display))
    }

    /// The SRSC file with extension `ext` of database index `db`, and how converted output names it
    /// (`Common/Common.txd`).
    pub fn asset_file(&self, db: u16, ext: &str) -> Option<(PathBuf, String)> {
        let (db_path, display) = self.resolve(db)?;
        let file = db_path.with_extension(ext);
        let stem = db_path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        Some((file, format!("{display}/{stem}.{ext}")))
    }
}

pub static FORMAT: Format = Format {
    extensions: &["db"],
    notes: "Text: version, dependency table (1-based indices; bare paths accepted). convert x.db converts every \
            SRSC file of the database (x.txd, x.sdb, x.mod, x.adb, x.odb, x.ssd) into <stem>/<ext>/, references \
            resolved across databases (database/file:id). The JSON keeps the text, so it writes back exactly.",
    probe: Probe::plausible(plausible),
    document: Some(&DbFaces),
    convert: Some(&DbFaces),
    ..Format::new(FORMAT_ID, "Drakan database definition", Game::Drakan, Kind::Document)
};

struct DbFaces;

/// No magic: a few lines of text (a Windows `Thumbs.db`, an OLE2 compound file, is not).
fn plausible(head: &[u8], len: u64) -> bool {
    len <= MAX_SIZE as u64 && head.iter().all(|&b| matches!(b, b'\t' | b'\n' | b'\r') || (b >= 0x20 && b != 0x7F))
}

impl Document for DbFaces {
    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        let db = parse(data)?;
        Ok(serde_json::json!({
            "format": FORMAT_ID,
            "version": db.version,
            "dependencies": db.dependencies,
            "other_lines": db.other_lines.len(),
        }))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        crate::registry::document_json(FORMAT_ID, &DbDocument::read(data)?)
    }

    fn from_json(&self, value: serde_json::Value, _context: &JsonContext<'_>) -> Result<Vec<u8>> {
        let doc: DbDocument = crate::registry::document_from_json(FORMAT_ID, value)?;
        Ok(doc.text.into_bytes())
    }
}

impl Convert for DbFaces {
    /// A file on disk converts with the database's SRSC files beside it.
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let (data, opts) = (input.data, input.options);
        let parsed = parse(data)?;
        let value = serde_json::to_value(&parsed).map_err(|e| Error::Unsupported(format!("JSON: {e}")))?;
        let mut out = vec![NamedAsset {
            name: None,
            asset: crate::asset::Asset::Document(crate::asset::Document { value, tables: vec![] }),
        }];
        let Some(path) = input.path else { return Ok(out) };
        let db = Database::load(path)?;
        for ext in ASSET_EXTENSIONS {
            let file = db.dir.join(format!("{}.{ext}", db.name));
            let Some(bytes) = opts.read_found(&file) else { continue };
            let ctx = crate::drakan::srsc::Context {
                stem: db.name.clone(),
                extension: ext.to_string(),
                db: Some(&db),
                dir: Some(db.dir.clone()),
                whole_database: true,
                confine: opts.nearby.confine().map(Path::to_path_buf),
            };
            let assets = crate::drakan::srsc::convert_in(&bytes, &ctx, opts).map_err(|e| e.in_file(&file))?;
            for mut a in assets {
                let inner = a.name.take().unwrap_or_else(|| db.name.clone());
                a.name = Some(format!("{ext}/{inner}"));
                out.push(a);
            }
        }
        Ok(out)
    }

    /// The database's SRSC files that are there, as `convert_at` reads them: when the `.db` is one.
    fn converts_beside(&self, path: &Path) -> Vec<PathBuf> {
        // A `.db` is a few lines: a larger file is no database, and is not read whole to find out.
        if std::fs::metadata(path).map_or(true, |m| m.len() > MAX_SIZE as u64) {
            return Vec::new();
        }
        let Ok(db) = Database::load(path) else { return Vec::new() };
        ASSET_EXTENSIONS.iter().map(|ext| db.dir.join(format!("{}.{ext}", db.name))).filter(|f| f.is_file()).collect()
    }
}

/// Typed access: the parse of the `drakan-db` codec.
impl DbFile {
    /// Reads a `.db`: its version, dependencies and other lines.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::drakan::db::DbFile;
    ///
    /// let text = b"version 1.0\r\ndependencies 1\r\n1 ..\\Common\\Common\r\n";
    /// let db = DbFile::read(text)?;
    /// assert_eq!(db.dependencies.len(), 1);
    /// assert_eq!(db.dependencies[0].index, Some(1));
    /// assert!(db.other_lines.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<DbFile> {
        parse(bytes)
    }
}

/// Typed access: the parse and the writer of the `drakan-db` codec.
impl DbDocument {
    /// Reads a `.db` into the document `relic convert --to json` writes: the parsed fields and the text.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::drakan::db::DbDocument;
    ///
    /// let text = b"version 1.0\r\ndependencies 1\r\n1 ..\\Common\\Common\r\n";
    /// let db = DbDocument::read(text)?;
    /// assert_eq!(db.format, "drakan-db");
    /// assert_eq!(db.parsed.dependencies[0].path, "..\\Common\\Common");
    /// assert!(DbDocument::read(b"dependencies 2\n1 A\n").is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<DbDocument> {
        let parsed = parse(bytes)?;
        // `parse` checked the bytes are UTF-8, so nothing is replaced.
        let text = String::from_utf8_lossy(bytes).into_owned();
        Ok(DbDocument { format: FORMAT_ID.into(), parsed, text })
    }

    /// The file's bytes: the text (the parsed fields are for reading; the writer of `relic pack drakan-db`
    /// ignores them).
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::drakan::db::DbDocument;
    ///
    /// let text = b"version 1.0\r\ndependencies 1\r\n1 ..\\Common\\Common\r\n";
    /// let mut db = DbDocument::read(text)?;
    /// assert_eq!(db.to_bytes()?, text);
    /// db.text = db.text.replace("1.0", "1.05");
    /// assert_eq!(DbDocument::read(&db.to_bytes()?)?.parsed.version.as_deref(), Some("1.05"));
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        Ok(self.text.clone().into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_spec_layout_and_later_lenient_forms() {
        let db = parse(b"version 1.0\r\ndependencies 2\r\n2  ..\\Common\\Common\r\n4 Weapons\r\n").unwrap();
        assert_eq!(db.version.as_deref(), Some("1.0"));
        assert_eq!(db.dependency(2), Some("..\\Common\\Common"));
        assert_eq!(db.dependency(4), Some("Weapons"));
        assert_eq!(db.dependency(1), None);
        let later = parse(b"version 1.05\nid 7\ndependencies 1\nshared\\Base\ndvd_resident 1\n").unwrap();
        assert_eq!(later.dependency(1), Some("shared\\Base"));
        assert_eq!(later.other_lines, ["id 7", "dvd_resident 1"]);
        assert!(parse(b"dependencies 2\n1 A\n").is_err());
        assert!(parse(b"dependencies 1\n0 Self\n").is_err());
        assert!(parse(b"\xFF\xFE").is_err());
    }

    #[test]
    fn the_document_writes_the_text_back() {
        let text = b"version 1.0\r\ndependencies 1\r\n1 Common\r\n";
        let value = FORMAT.to_json(text).unwrap();
        assert_eq!(value["dependencies"][0]["path"], "Common");
        assert_eq!(FORMAT.from_json(value, &Default::default()).unwrap(), text);
    }

    #[test]
    fn truncations_never_panic() {
        let text = b"version 1.0\r\ndependencies 2\r\n1 ..\\Common\\Common\r\n2 X\r\n";
        crate::testing::check_robustness(text, false, |b| parse(b).map(|_| ()));
    }
}
