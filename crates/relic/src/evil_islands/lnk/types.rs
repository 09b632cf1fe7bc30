//! LNK types: the bone hierarchy as a list of (part, parent) links in file order. Names are cp1251 text
//! without their trailing NUL; the rare name stored without one says so, so that writing gives the same
//! bytes.

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;

/// A LNK file: one link per model part, in file order.
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

impl Lnk {
    /// The index of the link named `name`: the exact name, else the first that matches ignoring ASCII case
    /// (RES names, which parts are looked up by, are matched that way).
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

    /// The links whose parent is link `i`, in file order.
    pub fn children(&self, i: usize) -> Vec<usize> {
        (0..self.links.len()).filter(|&c| self.parent_index(c) == Some(i)).collect()
    }

    /// Parent names that no link carries, in file order.
    pub fn missing_parents(&self) -> Vec<&str> {
        self.links.iter().filter_map(|l| l.parent.as_deref()).filter(|p| self.find(p).is_none()).collect()
    }

    /// Link `i`'s depth below its root (a root is 0); `None` when following parents runs in a cycle or
    /// ends at a missing parent.
    pub fn depth(&self, i: usize) -> Option<usize> {
        let mut at = i;
        for depth in 0..=self.links.len() {
            let link = self.links.get(at)?;
            if link.parent.is_none() {
                return Some(depth);
            }
            at = self.parent_index(at)?;
        }
        None
    }
}
