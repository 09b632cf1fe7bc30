//! Ragnarok Online client text tables (`ro-table`): the `data\*.txt` files the client reads item names,
//! descriptions and card names from (`idnum2itemdisplaynametable.txt` and kin).
//!
//! Layout (as roBrowser's `DB/DBManager.js` `loadTable` and rAthena's readers take them): lines of
//! `#`-separated fields, each field ending with `#` (`501#Red_Potion#`); `//` comment lines; CRLF or LF
//! line endings; CP949 text (the EUC-KR superset of the Korean client). A description table
//! (`idnum2itemdesctable.txt`) spreads a record over several lines: `501#`, the description's lines, and a
//! line `#` that ends it.
//!
//! relic keeps the file line by line, which holds both shapes without knowing a table's column count: a
//! line that ends with `#` (and is no comment) is a row of fields, every other line (comments, description
//! text, blank lines) is kept as its text. Line endings are kept line by line, and so are bytes after the
//! last line ending, so an unedited table writes back byte for byte.
//!
//! No magic: identified by the table names the client uses ([`TABLE_NAMES`]) when the bytes agree (no NUL
//! byte, every complete non-comment line of the first bytes holds a `#`); other names need
//! `--format ro-table`.
//!
//! `relic convert x.txt` writes the text as UTF-8 (`x.txt.txt`, no byte order mark), `--to json` the lines
//! as rows of fields. `relic pack ro-table` takes either back: the UTF-8 text (a byte order mark is
//! dropped) or the JSON, encoded to CP949. A character CP949 cannot hold is refused naming its line and
//! column, and so is invalid UTF-8.
//!
//! ```
//! use relic::ragnarok::table::Table;
//!
//! let bytes = b"// items\r\n501#Red_Potion#\r\n";
//! let table = Table::read(bytes)?;
//! assert_eq!(table.text, "// items\r\n501#Red_Potion#\r\n");
//! assert_eq!(Table::from_text(&table.text)?.to_bytes()?, bytes);
//! # Ok::<(), relic::Error>(())
//! ```

use encoding_rs::EUC_KR;
use serde::{Deserialize, Serialize};

use crate::asset::{Asset, NamedAsset, Text as TextAsset};
use crate::error::{Error, Result};
use crate::registry::{Claim, Convert, ConvertInput, FileFormat, Format, Game, Kind, Pack, PackRequest, Probe, Typed};

pub const FORMAT_ID: &str = "ro-table";

/// The client's `#`-separated tables under `data\` (lower case), from the public loaders (roBrowser's
/// `DBManager.js`, rAthena's item database readers).
pub const TABLE_NAMES: &[&str] = &[
    "idnum2itemdisplaynametable.txt",
    "idnum2itemresnametable.txt",
    "idnum2itemdesctable.txt",
    "num2itemdisplaynametable.txt",
    "num2itemresnametable.txt",
    "num2itemdesctable.txt",
    "itemslotcounttable.txt",
    "num2cardillustnametable.txt",
    "cardprefixnametable.txt",
    "cardpostfixnametable.txt",
    "bookitemnametable.txt",
    "buyingstoreitemlist.txt",
    "metalprocessitemlist.txt",
    "mapnametable.txt",
    "resnametable.txt",
    "mp3nametable.txt",
    "fogparametertable.txt",
    "skillnametable.txt",
    "skilldesctable.txt",
    "questid2display.txt",
];

/// A table: its text, decoded from CP949.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub text: String,
}

/// 1-based line and column (in characters) of byte `at` of `text`.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

impl Table {
    /// Reads a table: CP949 text that encodes back to the same bytes (else refused, naming the line and
    /// the byte offset where that fails).
    pub fn read(bytes: &[u8]) -> Result<Table> {
        let mut offset = 0usize;
        let mut text = String::with_capacity(bytes.len());
        for (index, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
            let decoded = EUC_KR.decode_without_bom_handling_and_without_replacement(line);
            let exact = decoded.as_deref().is_some_and(|d| {
                let (back, _, unmappable) = EUC_KR.encode(d);
                !unmappable && back.as_ref() == line
            });
            match decoded {
                Some(d) if exact => text.push_str(&d),
                _ => {
                    return Err(Error::invalid(
                        FORMAT_ID,
                        format!("line {}", index + 1),
                        offset as u64,
                        "not CP949 text that writes back byte for byte",
                    ))
                }
            }
            offset += line.len();
        }
        Ok(Table { text })
    }

    /// A table from edited UTF-8 text (a byte order mark is dropped).
    pub fn from_text(text: &str) -> Result<Table> {
        Ok(Table { text: text.strip_prefix('\u{FEFF}').unwrap_or(text).to_string() })
    }

    /// A table from the bytes of an edited UTF-8 text file: invalid UTF-8 is refused naming its line and
    /// column.
    pub fn from_utf8(bytes: &[u8]) -> Result<Table> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Table::from_text(text),
            Err(e) => {
                let good = std::str::from_utf8(bytes.get(..e.valid_up_to()).unwrap_or_default()).unwrap_or_default();
                let (line, column) = line_column(good, good.len());
                Err(Error::Refused(format!(
                    "{FORMAT_ID}: line {line}, column {column}: not UTF-8 (byte offset {}); save the text as UTF-8",
                    e.valid_up_to()
                )))
            }
        }
    }

    /// The file's bytes: the text in CP949; a character CP949 cannot hold is refused naming its line and
    /// column.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let (bytes, _, unmappable) = EUC_KR.encode(&self.text);
        if !unmappable {
            return Ok(bytes.into_owned());
        }
        // Find the first character that does not encode (only on this error path).
        let mut buf = [0u8; 4];
        for (at, c) in self.text.char_indices() {
            let (_, _, bad) = EUC_KR.encode(c.encode_utf8(&mut buf));
            if bad {
                let (line, column) = line_column(&self.text, at);
                return Err(Error::Refused(format!(
                    "{FORMAT_ID}: line {line}, column {column}: '{c}' (U+{:04X}) has no CP949 code; the client's tables are CP949",
                    u32::from(c)
                )));
            }
        }
        Err(Error::Refused(format!("{FORMAT_ID}: the text does not encode to CP949")))
    }

    /// The JSON of `relic convert --to json` (see [`Document`]).
    pub fn to_json(&self) -> Result<serde_json::Value> {
        crate::registry::tagged_document_json(FORMAT_ID, &self.document())
    }

    /// The lines as the JSON document holds them.
    pub fn document(&self) -> Document {
        let mut lines = Vec::new();
        let mut endings = std::collections::BTreeMap::new();
        let mut rest = self.text.as_str();
        let mut counts = [0usize; 2];
        let mut parts: Vec<(&str, &str)> = Vec::new();
        while !rest.is_empty() {
            let (line, ending, next) = match rest.find('\n') {
                Some(at) if rest.get(..at).is_some_and(|l| l.ends_with('\r')) => {
                    (&rest[..at - 1], "\r\n", &rest[at + 1..])
                }
                Some(at) => (&rest[..at], "\n", &rest[at + 1..]),
                None => (rest, "", ""),
            };
            match ending {
                "\r\n" => counts[0] += 1,
                "\n" => counts[1] += 1,
                _ => {}
            }
            parts.push((line, ending));
            rest = next;
        }
        let line_ending = if counts[1] > counts[0] { "\n" } else { "\r\n" };
        let last = parts.len().saturating_sub(1);
        let mut final_line_ending = true;
        for (i, (line, ending)) in parts.iter().enumerate() {
            lines.push(Line::of(line));
            if i == last && ending.is_empty() {
                final_line_ending = false;
            } else if *ending != line_ending {
                endings.insert(i.to_string(), (*ending).to_string());
            }
        }
        Document { line_ending: line_ending.into(), final_line_ending, other_line_endings: endings, lines }
    }

    /// The table a document describes.
    pub fn from_document(doc: &Document) -> Result<Table> {
        let bad = |path: String, why: &str| crate::registry::json_error(FORMAT_ID, &path, &why);
        if !matches!(doc.line_ending.as_str(), "\r\n" | "\n") {
            return Err(bad("line_ending".into(), "is \"\\r\\n\" or \"\\n\""));
        }
        for (key, ending) in &doc.other_line_endings {
            let fits = key.parse::<usize>().is_ok_and(|i| i < doc.lines.len());
            if !fits || !matches!(ending.as_str(), "\r\n" | "\n" | "\r" | "") {
                return Err(bad(format!("other_line_endings.{key}"), "names a line and a line ending"));
            }
        }
        let mut text = String::new();
        let last = doc.lines.len().saturating_sub(1);
        for (i, line) in doc.lines.iter().enumerate() {
            match line {
                Line::Text(t) => text.push_str(t),
                Line::Fields(fields) => {
                    for f in fields {
                        if f.contains('#') {
                            return Err(bad(format!("lines[{i}]"), "a field holds '#' (it ends fields)"));
                        }
                        text.push_str(f);
                        text.push('#');
                    }
                }
            }
            let ending = match doc.other_line_endings.get(&i.to_string()) {
                Some(e) => e.as_str(),
                None if i == last && !doc.final_line_ending => "",
                None => doc.line_ending.as_str(),
            };
            text.push_str(ending);
        }
        Ok(Table { text })
    }
}

/// A line of the JSON document: the fields of a row (`501#Red_Potion#` → `["501", "Red_Potion"]`), or
/// the text of any other line (a comment, description text, a blank line).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Line {
    Fields(Vec<String>),
    Text(String),
}

impl Line {
    fn of(line: &str) -> Line {
        match line.strip_suffix('#') {
            Some(body) if !line.starts_with("//") => Line::Fields(body.split('#').map(str::to_string).collect()),
            _ => Line::Text(line.to_string()),
        }
    }
}

/// A table's document (`convert --to json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    /// The line ending of most lines: `"\r\n"` or `"\n"`.
    pub line_ending: String,
    /// Whether the last line ends with a line ending.
    pub final_line_ending: bool,
    /// Lines (by index from 0) whose line ending is another.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub other_line_endings: std::collections::BTreeMap<String, String>,
    pub lines: Vec<Line>,
}

/// Whether the first bytes of a file look like a table: no NUL byte, and every complete line that is no
/// comment and not blank holds a `#`. Only the first [`crate::asset::SNIFF_BYTES`] count, whatever the caller
/// gives, so that a file's head and the whole file say the same (`ls` sees only the head of an entry).
pub fn is_table(head: &[u8]) -> bool {
    let head = head.get(..crate::asset::SNIFF_BYTES).unwrap_or(head);
    if head.contains(&0) {
        return false;
    }
    let mut lines: Vec<&[u8]> = head.split(|&b| b == b'\n').collect();
    lines.pop(); // the last one may be cut short
    lines.iter().all(|l| {
        let l = l.strip_suffix(b"\r").unwrap_or(l);
        l.is_empty() || l.starts_with(b"//") || l.contains(&b'#')
    })
}

pub static FORMAT: Format = Format {
    extensions: &[],
    notes: "the client's data\\*.txt tables (idnum2itemdisplaynametable.txt and kin): `#`-separated fields, `//` \
            comments, CP949. convert writes the text as UTF-8 and the JSON as rows of fields; pack takes either \
            back to CP949, byte for byte when unedited. Identified by the table names, else --format ro-table.",
    probe: Probe { claims: &CLAIMS, ..Probe::plausible(|head, _len| is_table(head)) },
    extra_targets: &["txt"],
    pack_sources: &["txt"],
    document: Some(&Typed::<Table>::FACE),
    convert: Some(&TableFaces),
    pack: Some(&TableFaces),
    ..Format::new(FORMAT_ID, "Ragnarok Online client text table", Game::Ragnarok, Kind::Document)
};

const CLAIMS: [Claim; TABLE_NAMES.len()] = {
    let mut out = [Claim::Name(""); TABLE_NAMES.len()];
    let mut i = 0;
    while i < TABLE_NAMES.len() {
        out[i] = Claim::Name(TABLE_NAMES[i]);
        i += 1;
    }
    out
};

struct TableFaces;

impl FileFormat for Table {
    const ID: &'static str = FORMAT_ID;

    fn parse(bytes: &[u8]) -> Result<Self> {
        Table::read(bytes)
    }

    fn write(&self) -> Result<Vec<u8>> {
        self.to_bytes()
    }

    fn info(&self, _bytes: &[u8]) -> Result<serde_json::Value> {
        let doc = self.document();
        let rows = doc.lines.iter().filter(|l| matches!(l, Line::Fields(_))).count();
        Ok(serde_json::json!({
            "format": FORMAT_ID,
            "lines": doc.lines.len(),
            "rows": rows,
            "line_ending": if doc.line_ending == "\n" { "LF" } else { "CRLF" },
        }))
    }

    fn to_document(&self) -> Result<serde_json::Value> {
        self.to_json()
    }

    fn from_document(value: serde_json::Value) -> Result<Self> {
        Table::from_document(&crate::registry::tagged_document_from_json::<Document>(FORMAT_ID, value)?)
    }
}

impl Convert for TableFaces {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let data = input.data;
        let text = Table::read(data)?.text;
        Ok(vec![NamedAsset { name: None, asset: Asset::Text(TextAsset { extension: "txt", text }) }])
    }
}

impl Pack for TableFaces {
    fn pack_input(&self, input_name: &str, content: &[u8], _request: &PackRequest) -> Result<Vec<u8>> {
        if !crate::registry::extension_of(input_name).is_some_and(|e| e.eq_ignore_ascii_case("txt")) {
            return Err(Error::Unsupported(format!(
                "{FORMAT_ID} is made from the UTF-8 text or the JSON of `relic convert`, not from {input_name}"
            )));
        }
        Table::from_utf8(content)?.to_bytes()
    }
}
