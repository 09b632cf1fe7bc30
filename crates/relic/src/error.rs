//! One public error type, split by category as symphonia does: I/O, invalid data, unsupported features and
//! limits. Every data error names the format, the field and the byte offset, so a user can look at the file.

use std::fmt;
use std::path::PathBuf;

/// Result alias used across relic.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Where in a file something went wrong: format id, field path and absolute byte offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub format: &'static str,
    pub field: String,
    pub offset: u64,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} at offset 0x{:X}", self.format, self.field, self.offset)
    }
}

/// Every error relic returns. Errors from the standard library's I/O convert into it, so a program can use
/// `?` on both:
///
/// ```
/// fn main() -> relic::Result<()> {
///     let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/evil_islands/example.res");
///     let bytes = std::fs::read(path)?;
///     let (format, _confidence) = relic::registry::sniff(&bytes, path).expect("a known format");
///     println!("{}: {} bytes of {}", path, bytes.len(), format.id);
///     Ok(())
/// }
/// ```
///
/// An I/O error converted this way names no file (`std::io::Error` does not carry one); [`Error::io`] and
/// [`Error::in_file`] add it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file failed. `path` is empty when the error came through `?` from a plain
    /// [`std::io::Error`] (see the [`From`] impl), and the message is then the I/O error's alone.
    #[error("{}{source}", path_prefix(path))]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The bytes do not follow the format.
    #[error("{at}: {message}")]
    InvalidData { at: Location, message: String },
    /// A size or count is over what the bytes (or a sane bound) allow.
    #[error("{at}: {message}")]
    Limit { at: Location, message: String },
    /// The file is valid but uses something relic does not implement (yet).
    #[error("{0}")]
    Unsupported(String),
    /// A request that cannot be carried out: unsafe path, existing file without --force, bad argument.
    #[error("{0}")]
    Refused(String),
    /// A value a writer cannot store, naming the format, the field (a path into the document) and why: a
    /// count over the width it is stored in, a field the version has no room for, text the code page cannot
    /// hold. Made by [`Error::refused`]; the same kind of error as [`Error::Refused`] (Python: `Refused`),
    /// with the field kept apart so that [`Error::within`] can prefix it.
    #[error("{format}: {field}: {why}")]
    Refusal { format: &'static str, field: String, why: String },
    /// Archives nested deeper than relic descends (a hostile file can nest them without end). Never
    /// swallowed: an entry that is too deep is not quietly kept as a plain file.
    #[error("{0}")]
    TooDeep(String),
    /// An error about one input file, naming it.
    #[error("{}: {source}", path.display())]
    InFile {
        path: PathBuf,
        #[source]
        source: Box<Error>,
    },
}

/// `path: ` before an I/O error's message, or nothing when the error names no file.
fn path_prefix(path: &std::path::Path) -> String {
    if path.as_os_str().is_empty() {
        String::new()
    } else {
        format!("{}: ", path.display())
    }
}

/// An I/O error that names no file: `std::fs::read(path)?` in a function returning [`Result`].
impl From<std::io::Error> for Error {
    fn from(source: std::io::Error) -> Self {
        Error::Io { path: PathBuf::new(), source }
    }
}

impl Error {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), source }
    }

    pub fn invalid(format: &'static str, field: impl Into<String>, offset: u64, message: impl Into<String>) -> Self {
        Error::InvalidData { at: Location { format, field: field.into(), offset }, message: message.into() }
    }

    pub fn limit(format: &'static str, field: impl Into<String>, offset: u64, message: impl Into<String>) -> Self {
        Error::Limit { at: Location { format, field: field.into(), offset }, message: message.into() }
    }

    /// A value a writer (or a request) cannot carry out, naming the format, the field and why:
    /// `rsm: meshes[2].name: `…` does not fit a 40-byte CP949 field`. One constructor, so every refusal
    /// reads the same way.
    pub fn refused(format: &'static str, field: impl fmt::Display, why: impl fmt::Display) -> Self {
        Error::Refusal { format, field: field.to_string(), why: why.to_string() }
    }

    /// Whether a request or a value was refused ([`Error::Refused`] or [`Error::Refusal`]).
    pub fn is_refusal(&self) -> bool {
        matches!(self.without_file(), Error::Refused(_) | Error::Refusal { .. })
    }

    /// Prefixes the field path (`name` -> `file_table[12].name`), for errors raised inside a record.
    pub fn within(mut self, parent: impl fmt::Display) -> Self {
        match &mut self {
            Error::InvalidData { at, .. } | Error::Limit { at, .. } => at.field = format!("{parent}.{}", at.field),
            Error::Refusal { field, .. } => *field = format!("{parent}.{field}"),
            _ => {}
        }
        self
    }

    /// The field the error names, to rename it after the document's own (a writer's helper reports its
    /// own field names; the caller knows which field of the document they stand for).
    pub(crate) fn field_mut(&mut self) -> Option<&mut String> {
        match self {
            Error::InvalidData { at, .. } | Error::Limit { at, .. } => Some(&mut at.field),
            Error::Refusal { field, .. } => Some(field),
            Error::InFile { source, .. } => source.field_mut(),
            _ => None,
        }
    }

    /// Moves the error to the byte offset of the field that caused it (for range checks that fail
    /// elsewhere than where the field is stored).
    pub fn at_offset(mut self, offset: u64) -> Self {
        if let Error::InvalidData { at, .. } | Error::Limit { at, .. } = &mut self {
            at.offset = offset;
        }
        self
    }

    /// The location in the file, when the error is about file data.
    pub fn location(&self) -> Option<&Location> {
        match self {
            Error::InvalidData { at, .. } | Error::Limit { at, .. } => Some(at),
            Error::InFile { source, .. } => source.location(),
            _ => None,
        }
    }

    /// The format the error is about: the location's for file data, the writer's for a refused value.
    pub fn format(&self) -> Option<&'static str> {
        match self {
            Error::InvalidData { at, .. } | Error::Limit { at, .. } => Some(at.format),
            Error::Refusal { format, .. } => Some(format),
            Error::InFile { source, .. } => source.format(),
            _ => None,
        }
    }

    /// The field the error is about: the location's field for file data, the field a writer refused.
    pub fn field(&self) -> Option<&str> {
        match self {
            Error::InvalidData { at, .. } | Error::Limit { at, .. } => Some(&at.field),
            Error::Refusal { field, .. } => Some(field),
            Error::InFile { source, .. } => source.field(),
            _ => None,
        }
    }

    /// Names the input file the error is about, unless the message already names it (an I/O error on that
    /// file), so that no path is printed twice.
    pub fn in_file(self, path: &std::path::Path) -> Self {
        match &self {
            Error::InFile { .. } => self,
            Error::Io { path: p, .. } if p == path => self,
            // `x: …` and `x is a folder` already name it.
            _ if self
                .to_string()
                .strip_prefix(&path.display().to_string())
                .is_some_and(|rest| rest.starts_with(": ") || rest.starts_with(' ')) =>
            {
                self
            }
            _ => Error::InFile { path: path.to_path_buf(), source: Box::new(self) },
        }
    }

    /// The error without the file it names (for callers that print the file themselves).
    pub fn without_file(&self) -> &Error {
        match self {
            Error::InFile { source, .. } => source.without_file(),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_error_through_question_mark_names_no_file() {
        fn read() -> Result<Vec<u8>> {
            Ok(std::fs::read("/nonexistent/relic-from-io-error")?)
        }
        let error = read().unwrap_err();
        assert!(matches!(&error, Error::Io { path, .. } if path.as_os_str().is_empty()));
        assert!(!error.to_string().starts_with(':'), "{error}");
        let named = error.in_file(std::path::Path::new("a.res")).to_string();
        assert!(named.starts_with("a.res: "), "{named}");
    }

    #[test]
    fn in_file_never_names_the_file_twice() {
        let folder = Error::Refused("samples is a folder".into()).in_file(std::path::Path::new("samples"));
        assert_eq!(folder.to_string(), "samples is a folder");
        let other = Error::Refused("samples2 is a folder".into()).in_file(std::path::Path::new("samples"));
        assert_eq!(other.to_string(), "samples: samples2 is a folder");
    }

    #[test]
    fn a_refusal_names_format_and_field_and_takes_a_parent() {
        let err = Error::refused("ro-rsm", "name", "`x` does not fit a 40-byte CP949 field").within("meshes[2]");
        assert_eq!(err.to_string(), "ro-rsm: meshes[2].name: `x` does not fit a 40-byte CP949 field");
        assert!(err.is_refusal() && err.location().is_none());
        assert_eq!((err.format(), err.field()), (Some("ro-rsm"), Some("meshes[2].name")));
        assert!(Error::Refused("no".into()).in_file(std::path::Path::new("a")).is_refusal());
        assert!(!Error::Unsupported("no".into()).is_refusal());
    }
}
