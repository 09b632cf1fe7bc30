//! LNK types: the bone hierarchy as a list of (part, parent) links in file order. Names are cp1251 text
//! without their trailing NUL; the rare name stored without one says so, so that writing gives the same
//! bytes.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;

/// A LNK file: one link per model part, in file order. Read with [`Lnk::read`], written with
/// [`Lnk::to_bytes`]; its JSON is `serde_json::to_value` of it with `"format": "ei-lnk"` first
/// ([`crate::registry::tagged_document_json`]).
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::evil_islands::lnk::Lnk;
///
/// // Two links: `body` (the root, parent length 0) and `head`, hanging from `body`.
/// let mut bytes = 2u32.to_le_bytes().to_vec();
/// for name in [&b"body\0"[..], b"", b"head\0", b"body\0"] {
///     bytes.extend((name.len() as u32).to_le_bytes());
///     bytes.extend(name);
/// }
/// let lnk = Lnk::read(&bytes)?;
/// assert_eq!(lnk.links[0].name, "body");
/// assert_eq!(lnk.links[0].parent, None);
/// assert_eq!((lnk.links[1].name.as_str(), lnk.links[1].parent.as_deref()), ("head", Some("body")));
/// assert_eq!(lnk.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Lnk {
    pub links: Vec<Link>,
    /// Bytes after the last link (none in real files), kept so that writing gives the same file.
    #[serde(default, skip_serializing_if = "is_empty")]
    pub trailing: Base64,
}

/// One part and the part it hangs from.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Link {
    /// The part's name (the FIG entry of the model's RES, and its key in the BON and ANM archives).
    pub name: String,
    /// The name was stored without a trailing NUL (real files always have one).
    #[serde(default, skip_serializing_if = "is_false")]
    pub name_unterminated: bool,
    /// The parent part's name; `None` for the root, whose parent is stored with length 0.
    pub parent: Option<String>,
    /// The parent's name was stored without a trailing NUL.
    #[serde(default, skip_serializing_if = "is_false")]
    pub parent_unterminated: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_empty(b: &Base64) -> bool {
    b.0.is_empty()
}

/// Names looked up the way RES names are: the exact name, else the first that matches ignoring ASCII case.
/// Built once (O(n)), then each lookup is O(1) expected.
#[derive(Debug, Clone, Default)]
pub struct NameIndex {
    exact: HashMap<String, usize>,
    folded: HashMap<String, usize>,
}

impl NameIndex {
    /// Indexes `names` by position; the first of equal names wins.
    pub fn new<'n>(names: impl IntoIterator<Item = &'n str>) -> NameIndex {
        let mut index = NameIndex::default();
        for (i, name) in names.into_iter().enumerate() {
            index.exact.entry(name.to_string()).or_insert(i);
            index.folded.entry(name.to_ascii_lowercase()).or_insert(i);
        }
        index
    }

    /// The position of `name`: exact, else ignoring ASCII case.
    pub fn get(&self, name: &str) -> Option<usize> {
        self.exact.get(name).or_else(|| self.folded.get(&name.to_ascii_lowercase())).copied()
    }
}

/// The hierarchy of a [`Lnk`] computed once in O(n): each link's parent, children and depth.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    /// Link `i`'s parent index; `None` for a root or a parent name that no link has.
    pub parents: Vec<Option<usize>>,
    /// The links hanging from link `i`, in file order.
    pub children: Vec<Vec<usize>>,
    /// Link `i`'s depth below its root; `None` when its parents run in a cycle or end at a missing part.
    pub depths: Vec<Option<usize>>,
    /// The links without a parent name, in file order.
    pub roots: Vec<usize>,
}

impl Tree {
    /// The first link whose parents run in a cycle or end at a missing part.
    pub fn first_detached(&self) -> Option<usize> {
        self.depths.iter().position(Option::is_none)
    }
}

impl Lnk {
    /// The name index of the links (see [`NameIndex`]).
    pub fn names(&self) -> NameIndex {
        NameIndex::new(self.links.iter().map(|l| l.name.as_str()))
    }

    /// The whole hierarchy at once: parents indexed by name once, depths computed iteratively with memo
    /// (each link is walked once), so a chain of thousands of parts costs O(n).
    pub fn tree(&self) -> Tree {
        let names = self.names();
        let n = self.links.len();
        let parents: Vec<Option<usize>> =
            self.links.iter().map(|l| l.parent.as_deref().and_then(|p| names.get(p))).collect();
        let mut children = vec![Vec::new(); n];
        for (c, p) in parents.iter().enumerate() {
            if let Some(p) = *p {
                children[p].push(c);
            }
        }
        let roots: Vec<usize> = (0..n).filter(|&i| self.links[i].parent.is_none()).collect();
        // 0 = unknown, 1 = on the current walk, 2 = done (depth in `depths`).
        let mut state = vec![0u8; n];
        let mut depths: Vec<Option<usize>> = vec![None; n];
        let mut path = Vec::new();
        for start in 0..n {
            let mut at = start;
            // Walk up until a link whose depth is known, a root, a missing parent or a link of this walk.
            let base: Option<usize> = loop {
                match state[at] {
                    2 => break depths[at],
                    1 => break None, // a cycle
                    _ => {}
                }
                state[at] = 1;
                path.push(at);
                if self.links[at].parent.is_none() {
                    path.pop();
                    state[at] = 2;
                    depths[at] = Some(0);
                    break Some(0);
                }
                match parents[at] {
                    Some(p) => at = p,
                    None => break None, // a missing parent
                }
            };
            let mut depth = base;
            while let Some(i) = path.pop() {
                depth = depth.map(|d| d + 1);
                depths[i] = depth;
                state[i] = 2;
            }
        }
        Tree { parents, children, depths, roots }
    }

    /// The index of the link named `name`: the exact name, else the first that matches ignoring ASCII case
    /// (RES names, which parts are looked up by, are matched that way). One lookup is O(n); for many, use
    /// [`Lnk::names`] or [`Lnk::tree`].
    pub fn find(&self, name: &str) -> Option<usize> {
        self.links
            .iter()
            .position(|l| l.name == name)
            .or_else(|| self.links.iter().position(|l| l.name.eq_ignore_ascii_case(name)))
    }

    /// The index of link `i`'s parent; `None` for a root or a parent name that no link has.
    pub fn parent_index(&self, i: usize) -> Option<usize> {
        self.links.get(i)?.parent.as_deref().and_then(|p| self.find(p))
    }

    /// The links without a parent (one in every real model).
    pub fn roots(&self) -> Vec<usize> {
        (0..self.links.len()).filter(|&i| self.links.get(i).is_some_and(|l| l.parent.is_none())).collect()
    }

    /// The links whose parent is link `i`, in file order (O(n); for all links use [`Lnk::tree`]).
    pub fn children(&self, i: usize) -> Vec<usize> {
        let names = self.names();
        (0..self.links.len())
            .filter(|&c| self.links[c].parent.as_deref().and_then(|p| names.get(p)) == Some(i))
            .collect()
    }

    /// Parent names that no link carries, in file order.
    pub fn missing_parents(&self) -> Vec<&str> {
        let names = self.names();
        self.links.iter().filter_map(|l| l.parent.as_deref()).filter(|p| names.get(p).is_none()).collect()
    }

    /// Link `i`'s depth below its root (a root is 0); `None` when following parents runs in a cycle or
    /// ends at a missing parent. O(n) for one link; for all links use [`Lnk::tree`].
    pub fn depth(&self, i: usize) -> Option<usize> {
        let names = self.names();
        let mut at = i;
        for depth in 0..=self.links.len() {
            let link = self.links.get(at)?;
            let Some(parent) = link.parent.as_deref() else { return Some(depth) };
            at = names.get(parent)?;
        }
        None
    }
}
