//! Evil Islands LNK files (`ei-lnk`): the bone hierarchy of a model — which part hangs from which.
//!
//! Layout (spec "Lnk", docs/formats/evil-islands.md#lnk): u32 link count, then per link a u32 length and the part's cp1251
//! name, a u32 length and the parent's name. Lengths include the trailing NUL; the root's parent has
//! length 0. Inside a model `.mod` (a RES archive) the LNK is the entry named after the model; the other
//! entries are the FIG parts its links name.
//!
//! What the spec leaves open and relic's choice: nothing says a name must end in a NUL, so a name stored
//! without one is read as is and flagged (`name_unterminated`, `parent_unterminated`) to be written the same
//! way; bytes after the last link are kept as `trailing` (real files have none). Parents are not required
//! to name a link of the file (`info` lists the ones that do not). LNK has no magic: files are recognised by
//! the `.lnk` extension only (inside a `.mod`, entries carry no extension).

pub mod read;
pub mod types;
pub mod write;

pub use read::parse;
pub use types::{Link, Lnk, NameIndex, Tree};
pub use write::write;

use serde_json::json;

use crate::asset::NamedAsset;
use crate::error::Result;
use crate::registry::{Convert, ConvertInput, FileFormat, Format, Game, Kind, Probe, Typed};

pub const FORMAT_ID: &str = "ei-lnk";

pub static FORMAT: Format = Format {
    extensions: &["lnk"],
    notes: "no magic: recognised by the .lnk extension (inside a .mod archive it is the entry named after the \
            model). JSON lists the links (part, parent) in file order; `pack` writes them back byte for byte.",
    probe: Probe::plausible(plausible),
    document: Some(&Typed::<Lnk>::FACE),
    convert: Some(&LnkConvert),
    ..Format::new(FORMAT_ID, "Evil Islands LNK (model bone hierarchy)", Game::EvilIslands, Kind::Model)
};

/// No magic: every link takes at least its two lengths, the first name (its NUL included) is not empty
/// and fits; a file of no links is its count alone.
fn plausible(head: &[u8], len: u64) -> bool {
    let Some(count) = crate::registry::le_u32_at(head, 0) else { return false };
    if count == 0 {
        return len == 4;
    }
    4 + 8 * u64::from(count) <= len
        && crate::registry::le_u32_at(head, 4).is_some_and(|name| name > 0 && 12 + u64::from(name) <= len)
}

impl FileFormat for Lnk {
    const ID: &'static str = FORMAT_ID;

    fn parse(bytes: &[u8]) -> Result<Self> {
        parse(bytes)
    }

    fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    fn info(&self, _bytes: &[u8]) -> Result<serde_json::Value> {
        Ok(info(self))
    }

    fn to_document(&self) -> Result<serde_json::Value> {
        crate::registry::tagged_document_json(FORMAT_ID, self)
    }

    fn from_document(value: serde_json::Value) -> Result<Self> {
        crate::registry::tagged_document_from_json(FORMAT_ID, value)
    }
}

struct LnkConvert;

impl Convert for LnkConvert {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        crate::evil_islands::model::convert_skeleton(parse(input.data)?, input.options)
    }
}

/// Summary for `relic info`: the parts, the root(s), the depth of the tree and what does not fit in it.
pub fn info(lnk: &Lnk) -> serde_json::Value {
    let tree = lnk.tree();
    let depths = &tree.depths;
    json!({
        "format": FORMAT_ID,
        "links": lnk.links.len(),
        "roots": tree.roots.iter().filter_map(|&i| lnk.links.get(i)).map(|l| &l.name).collect::<Vec<_>>(),
        "depth": depths.iter().flatten().max(),
        "parents_missing": lnk.missing_parents(),
        "links_in_cycles_or_under_missing_parents": depths.iter().filter(|d| d.is_none()).count(),
        "parts": lnk.links.iter().map(|l| json!([l.name, l.parent])).collect::<Vec<_>>(),
        "trailing_bytes": lnk.trailing.0.len(),
    })
}

/// Typed access: the parse and the writer of the `ei-lnk` codec.
impl Lnk {
    /// Reads a LNK file.
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::lnk::Lnk;
    ///
    /// // One link, `root`, without a parent.
    /// let bytes = [&1u32.to_le_bytes()[..], &5u32.to_le_bytes(), b"root\0", &0u32.to_le_bytes()].concat();
    /// let lnk = Lnk::read(&bytes)?;
    /// assert_eq!(lnk.links.len(), 1);
    /// assert_eq!((lnk.links[0].name.as_str(), lnk.links[0].parent.as_deref()), ("root", None));
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<Lnk> {
        parse(bytes)
    }

    /// The file's bytes (the writer of `relic pack ei-lnk`): those read, when nothing was edited.
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::lnk::{Link, Lnk};
    ///
    /// let lnk = Lnk { links: vec![Link { name: "root".into(), ..Link::default() }], ..Lnk::default() };
    /// let bytes = lnk.to_bytes()?;
    /// assert_eq!(bytes, [&1u32.to_le_bytes()[..], &5u32.to_le_bytes(), b"root\0", &0u32.to_le_bytes()].concat());
    /// assert_eq!(Lnk::read(&bytes)?, lnk);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }
}
