//! The `major.minor` version the Ragnarok formats store in two bytes after their magic: one type for all
//! of them. Its parameter is the format's document type (`Version<Gat>`, `Version<Rsm>`, …), so each format
//! keeps its own predicates (`has_water` means one thing for a GND and another for an RSW) and its own JSON
//! form, and a GND version is never passed where an RSW one is wanted. Each format's module names it
//! `Version` (`relic::ragnarok::gat::Version`).

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What differs between the formats' versions: how JSON writes them.
pub trait Family {
    /// JSON writes the version as the text `"1.2"` when true, as `{"major": 1, "minor": 2}` when false.
    const AS_TEXT: bool;
    /// A version of the format, for the error about a JSON text that is not one.
    const EXAMPLE: &'static str;

    /// The version a JSON text names (any `major.minor` unless the format knows only a few).
    fn from_text(text: &str) -> Result<Version<Self>, String>
    where
        Self: Sized,
    {
        text.split_once('.')
            .and_then(|(a, b)| Some(Version::new(a.parse().ok()?, b.parse().ok()?)))
            .ok_or_else(|| format!("`{text}` is not a version like \"{}\"", Self::EXAMPLE))
    }
}

/// `major.minor` of a file of format `F`. Ordered as versions are (`1.4 < 1.5 < 2.2`).
pub struct Version<F> {
    pub major: u8,
    pub minor: u8,
    family: PhantomData<fn() -> F>,
}

impl<F> Version<F> {
    pub const fn new(major: u8, minor: u8) -> Self {
        Version { major, minor, family: PhantomData }
    }

    /// `self >= major.minor`.
    pub fn at_least(self, major: u8, minor: u8) -> bool {
        (self.major, self.minor) >= (major, minor)
    }
}

// By hand rather than derived: a derive would ask the format's document type to be `Copy`, `Ord`, ….
impl<F> Clone for Version<F> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F> Copy for Version<F> {}
impl<F> PartialEq for Version<F> {
    fn eq(&self, other: &Self) -> bool {
        (self.major, self.minor) == (other.major, other.minor)
    }
}
impl<F> Eq for Version<F> {}
impl<F> PartialOrd for Version<F> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<F> Ord for Version<F> {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.major, self.minor).cmp(&(other.major, other.minor))
    }
}
impl<F> Hash for Version<F> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.major, self.minor).hash(state);
    }
}
impl<F> fmt::Debug for Version<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Version").field("major", &self.major).field("minor", &self.minor).finish()
    }
}
impl<F> fmt::Display for Version<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The object form, as `#[derive(Serialize, Deserialize)]` on `{ major, minor }` wrote and read it.
#[derive(Serialize, Deserialize)]
#[serde(rename = "Version")]
struct Parts {
    major: u8,
    minor: u8,
}

impl<F: Family> Serialize for Version<F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if F::AS_TEXT {
            s.collect_str(self)
        } else {
            Parts { major: self.major, minor: self.minor }.serialize(s)
        }
    }
}

impl<'de, F: Family> Deserialize<'de> for Version<F> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if F::AS_TEXT {
            let text = String::deserialize(d)?;
            F::from_text(&text).map_err(serde::de::Error::custom)
        } else {
            let Parts { major, minor } = Parts::deserialize(d)?;
            Ok(Version::new(major, minor))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    enum Text {}
    impl Family for Text {
        const AS_TEXT: bool = true;
        const EXAMPLE: &'static str = "1.2";
    }
    enum Object {}
    impl Family for Object {
        const AS_TEXT: bool = false;
        const EXAMPLE: &'static str = "2.2";
    }

    #[test]
    fn orders_and_shows_as_versions_do() {
        let (a, b) = (Version::<Text>::new(1, 9), Version::<Text>::new(2, 0));
        assert!(a < b && b.at_least(2, 0) && !a.at_least(2, 0));
        assert_eq!((a.to_string(), format!("{b:?}")), ("1.9".into(), "Version { major: 2, minor: 0 }".into()));
    }

    #[test]
    fn json_is_the_text_or_the_object_the_format_always_wrote() {
        assert_eq!(serde_json::to_value(Version::<Text>::new(1, 2)).unwrap(), serde_json::json!("1.2"));
        assert_eq!(
            serde_json::to_value(Version::<Object>::new(2, 2)).unwrap(),
            serde_json::json!({"major": 2, "minor": 2})
        );
        let back: Version<Object> = serde_json::from_value(serde_json::json!({"major": 1, "minor": 4})).unwrap();
        assert_eq!(back, Version::new(1, 4));
        let err = serde_json::from_value::<Version<Text>>(serde_json::json!("one")).unwrap_err();
        assert_eq!(err.to_string(), "`one` is not a version like \"1.2\"");
    }
}
