//! What a request asks for, checked before anything is opened: the query string decoded, and the one check
//! every item path goes through ([`item_path`]). Decoding happens once, here, and the check runs on the
//! decoded text, so an escape spelled with percent-encoding (`%2e%2e`, `%2f`, `%5c`, `%00`) is refused like
//! the plain one.

/// Why a request is refused: an HTTP status and a one-line message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub status: u16,
    pub message: String,
}

impl Rejection {
    pub fn new(status: u16, message: impl Into<String>) -> Self {
        Rejection { status, message: message.into() }
    }

    pub fn bad(message: impl Into<String>) -> Self {
        Rejection::new(400, message)
    }
}

/// The longest item path accepted, in bytes.
pub const MAX_PATH_BYTES: usize = 4096;

/// Decodes `%XX` escapes and `+` (a space, as forms and `URLSearchParams` send it). A `%` not followed by
/// two hex digits, or bytes that are not UTF-8 once decoded (overlong forms such as `%c0%ae` included),
/// are refused.
pub fn percent_decode(text: &str) -> Result<String, Rejection> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
                let value = hex
                    .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| Rejection::bad("a `%` in the query is not followed by two hex digits"))?;
                out.push(value);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| Rejection::bad("the query is not UTF-8 once decoded"))
}

/// Percent-encodes text for a query value (everything but unreserved characters and `/`).
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The most query parameters a request may give (the app sends five at most).
pub const MAX_PARAMETERS: usize = 32;

/// A request's query parameters, decoded. A name given twice is refused (two `path`s could be checked
/// and used apart).
#[derive(Debug, Default)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// Parses a query string in one pass (names are checked for repeats through a set), refusing more than
    /// [`MAX_PARAMETERS`] parameters before decoding any.
    pub fn parse(query: &str) -> Result<Query, Rejection> {
        let parts = query.split('&').filter(|p| !p.is_empty());
        if parts.clone().nth(MAX_PARAMETERS).is_some() {
            return Err(Rejection::bad(format!("more than {MAX_PARAMETERS} query parameters")));
        }
        let mut pairs: Vec<(String, String)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for part in parts {
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            let (k, v) = (percent_decode(k)?, percent_decode(v)?);
            if !seen.insert(k.clone()) {
                return Err(Rejection::bad(format!("query parameter `{}` given twice", shown(&k))));
            }
            pairs.push((k, v));
        }
        Ok(Query { pairs })
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The item path of `path`, checked ([`item_path`]); the root when absent or empty.
    pub fn path(&self) -> Result<String, Rejection> {
        item_path(self.get("path").unwrap_or(""))
    }

    /// A numeric parameter.
    pub fn index(&self, name: &str) -> Result<Option<usize>, Rejection> {
        self.get(name)
            .map(|v| v.parse().map_err(|_| Rejection::bad(format!("`{name}` is not a number: `{}`", shown(v)))))
            .transpose()
    }
}

/// What a `Range` header asks of a body of `len` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    /// No range, or one this server does not answer (several ranges, another unit, bad syntax): the
    /// whole body, as RFC 9110 lets a server do.
    Whole,
    /// Bytes `start..end` (`end` exclusive, not empty).
    Part { start: u64, end: u64 },
    /// A range that no byte of the body satisfies (416).
    Unsatisfiable,
}

/// Reads a `Range` header (`bytes=a-b`, `bytes=a-`, `bytes=-n`) against a body of `len` bytes.
pub fn range(header: &str, len: u64) -> Range {
    let Some((unit, spec)) = header.trim().split_once('=') else { return Range::Whole };
    if !unit.trim().eq_ignore_ascii_case("bytes") || spec.contains(',') {
        return Range::Whole;
    }
    let Some((first, last)) = spec.trim().split_once('-') else { return Range::Whole };
    let number = |t: &str| -> Option<u64> {
        let t = t.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        // Past u64: larger than any body.
        Some(t.parse().unwrap_or(u64::MAX))
    };
    match (first.trim().is_empty(), number(first), number(last)) {
        // `-n`: the last n bytes.
        (true, _, Some(n)) => {
            if n == 0 || len == 0 {
                Range::Unsatisfiable
            } else {
                Range::Part { start: len - n.min(len), end: len }
            }
        }
        (false, Some(a), None) if last.trim().is_empty() => {
            if a >= len {
                Range::Unsatisfiable
            } else {
                Range::Part { start: a, end: len }
            }
        }
        (false, Some(a), Some(b)) if a <= b => {
            if a >= len {
                Range::Unsatisfiable
            } else {
                Range::Part { start: a, end: b.saturating_add(1).min(len) }
            }
        }
        _ => Range::Whole,
    }
}

/// Text quoted in a message, cut short and with control characters escaped.
pub fn shown(text: &str) -> String {
    crate::paths::display_name(text)
}

/// Checks an item path (already percent-decoded) and returns it as it is used: `/`-separated components
/// below the root, the empty string for the root itself. Refused: absolute paths, drive letters, `\`, NUL
/// and control characters, empty, `.` and `..` components, and paths over [`MAX_PATH_BYTES`]. Whether the
/// path then stays under the root on disk (symbolic links) is for the resolver to check.
pub fn item_path(path: &str) -> Result<String, Rejection> {
    let refuse = |why: &str| Err(Rejection::bad(format!("refusing path `{}`: {why}", shown(path))));
    if path.is_empty() {
        return Ok(String::new());
    }
    if path.len() > MAX_PATH_BYTES {
        return refuse(&format!("longer than {MAX_PATH_BYTES} bytes"));
    }
    if path.chars().any(|c| c == '\0' || c.is_control()) {
        return refuse("a NUL or control character");
    }
    if path.contains('\\') {
        return refuse("a backslash");
    }
    if path.starts_with('/') {
        return refuse("an absolute path");
    }
    for part in path.split('/') {
        match part {
            "" => return refuse("an empty component"),
            "." | ".." => return refuse(&format!("a `{part}` component")),
            _ => {}
        }
        let b = part.as_bytes();
        if b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' {
            return refuse("a drive letter");
        }
        // Whatever else the platform makes of a component (a Windows prefix, a root), it must stay one
        // plain name.
        let mut components = std::path::Path::new(part).components();
        if !matches!((components.next(), components.next()), (Some(std::path::Component::Normal(_)), None)) {
            return refuse("not a plain name");
        }
    }
    Ok(path.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoding_and_checking() {
        assert_eq!(percent_decode("a%2Fb+c").unwrap(), "a/b c");
        assert!(percent_decode("%zz").is_err());
        assert!(percent_decode("%2").is_err());
        assert!(percent_decode("%c0%ae").is_err());
        assert_eq!(item_path("").unwrap(), "");
        assert_eq!(item_path("a/b.res/c d.mmp").unwrap(), "a/b.res/c d.mmp");
        for bad in ["/etc", "..", "a/../b", "a/./b", "a//b", "a/", "a\\b", "C:x", "a/c:/x", "a\0b", "a\nb"] {
            assert!(item_path(bad).is_err(), "{bad:?}");
        }
        let q = Query::parse("path=a%2F..%2Fb").unwrap();
        assert!(q.path().is_err());
        assert!(Query::parse("path=a&path=b").is_err());
        let many = |n: usize| (0..n).map(|i| format!("p{i}=1")).collect::<Vec<_>>().join("&");
        assert_eq!(Query::parse(&many(MAX_PARAMETERS)).unwrap().pairs.len(), MAX_PARAMETERS);
        assert!(Query::parse(&many(MAX_PARAMETERS + 1)).is_err());
        assert_eq!(percent_encode("a b/é"), "a%20b/%C3%A9");
    }

    #[test]
    fn ranges() {
        let part = |start, end| Range::Part { start, end };
        assert_eq!(range("bytes=0-9", 100), part(0, 10));
        assert_eq!(range("bytes=90-200", 100), part(90, 100));
        assert_eq!(range("bytes=10-", 100), part(10, 100));
        assert_eq!(range("bytes=-10", 100), part(90, 100));
        assert_eq!(range("bytes=-1000", 100), part(0, 100));
        assert_eq!(range("bytes=0-99999999999999999999999", 100), part(0, 100));
        for unsatisfiable in ["bytes=100-", "bytes=100-200", "bytes=-0", "bytes=99999999999999999999999-"] {
            assert_eq!(range(unsatisfiable, 100), Range::Unsatisfiable, "{unsatisfiable}");
        }
        assert_eq!(range("bytes=0-", 0), Range::Unsatisfiable);
        for whole in ["", "bytes=5-1", "bytes=0-1,3-4", "items=0-1", "bytes=a-b", "bytes=-", "bytes=+1-2", "bytes 0-1"]
        {
            assert_eq!(range(whole, 100), Range::Whole, "{whole}");
        }
    }
}
