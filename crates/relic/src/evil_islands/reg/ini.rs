//! The typed INI that `relic convert x.reg` writes and `relic pack ei-reg x.ini` reads.
//!
//! ```ini
//! [Section name]
//! int key = 42
//! float key = 42.0
//! string key = "42"
//! ints = [1, -2, 3]
//! floats = [0.5, 1e-7, -0.0, inf, nan]
//! strings = ["a", "line\nbreak"]
//! no ints = int[]
//! ["odd\x3Dname"] = "keys and sections with unusual characters are quoted"
//! ```
//!
//! - Types are explicit, so nothing is guessed: a number without a point or exponent is an int (i32); a
//!   number with one (`42.0`, `1e-7`, `.5`) or `inf`, `-inf`, `nan`, `nan:0xHHHHHHHH` (a NaN with its
//!   bits) is a float (f32); a quoted text is a string. relic writes each float as the shortest decimal
//!   that reads back to the same bits, so floats (-0.0, infinities and NaN payloads included) come back
//!   bit for bit.
//! - Arrays are `[…]` with elements of one type; an empty array names its type: `int[]`, `float[]`,
//!   `string[]`.
//! - Strings and quoted names take the escapes `\"`, `\\`, `\n`, `\r`, `\t` and `\xHH` (the character
//!   U+00HH; relic writes it for control characters, and for `=` and `:` in quoted names). Text is UTF-8
//!   here and cp1251 in the REG file.
//! - Names are written bare unless they are empty, have surrounding spaces, control characters, or one of
//!   `=` `:` `"` `\` (keys) / `[` `]` `"` `\` (sections), or start with `[`, `;` or `#`.
//! - Lines starting with `;` or `#` are comments; a value may be followed by one. Sections and keys stay
//!   in file order; names may repeat (the REG format allows it).
//! - `;@table slot:next …` keeps a hash table as the file had it when it differs from the one relic would
//!   build: for each entry in order (sections before the first section, keys inside a section), its slot
//!   and its chain link (−1 ends). A line whose entry count no longer matches (after an edit) is ignored
//!   and the table is built from the name hash; deleting the line does the same.
//!
//! Python's `configparser` reads these files (comments are its comments; use `interpolation=None` and
//! `optionxform = str` to see the names as written); it does not accept repeated names in strict mode, and
//! it takes a section named `DEFAULT` as its defaults.

use std::fmt::Write as _;

use super::types::*;
use super::FORMAT_ID;
use crate::codec::float::F32;
use crate::error::{Error, Result};

/// The directive that keeps a hash table.
const TABLE_DIRECTIVE: &str = ";@table";

// ---------------------------------------------------------------------------------------------------------
// Writing

/// Writes content as typed INI. `note` lines are added as comments after the header.
pub fn to_text(content: &Content, note: Option<&str>) -> String {
    let mut out = String::new();
    out.push_str("; Evil Islands REG file as typed INI, written by relic (format ei-reg).\n");
    out.push_str("; Pack it back with: relic pack ei-reg -o NAME.reg NAME.ini\n");
    out.push_str("; 42 is an int, 42.0 / 1e-7 / inf / nan a float, \"42\" a string; arrays: [1, 2], [0.5], [\"a\"],\n");
    out.push_str("; empty ones int[] float[] string[]. Escapes in quotes: \\\" \\\\ \\n \\r \\t \\xHH.\n");
    let has_tables = content.table.is_some() || content.sections.iter().any(|s| s.table.is_some());
    if has_tables {
        out.push_str("; ;@table lines keep this file's hash-table slots (slot:next per entry); deleting one\n");
        out.push_str("; rebuilds that table from the name hash.\n");
    }
    if let Some(note) = note {
        for line in note.lines() {
            let _ = writeln!(out, "; {line}");
        }
    }
    if let Some(t) = &content.table {
        out.push_str(&table_line(t));
    }
    for section in &content.sections {
        out.push('\n');
        let _ = writeln!(out, "[{}]", section_name(&section.name.decoded()));
        if let Some(t) = &section.table {
            out.push_str(&table_line(t));
        }
        for key in &section.keys {
            let _ = writeln!(out, "{} = {}", key_name(&key.name.decoded()), value_text(&key.value));
        }
    }
    out
}

fn table_line(table: &[Placement]) -> String {
    let mut line = String::from(TABLE_DIRECTIVE);
    for p in table {
        let _ = write!(line, " {}:{}", p.slot, p.next);
    }
    line.push('\n');
    line
}

fn section_name(name: &str) -> String {
    let bare = !name.is_empty()
        && name.trim() == name
        && !name.chars().any(|c| c.is_control() || matches!(c, '[' | ']' | '"' | '\\'));
    if bare {
        name.to_string()
    } else {
        quote(name, true)
    }
}

fn key_name(name: &str) -> String {
    let bare = !name.is_empty()
        && name.trim() == name
        && !name.starts_with(['[', ';', '#'])
        && !name.chars().any(|c| c.is_control() || matches!(c, '=' | ':' | '"' | '\\'));
    if bare {
        name.to_string()
    } else {
        quote(name, true)
    }
}

/// Quotes text with escapes; `for_name` also escapes `=` and `:`, the delimiters of `configparser`.
fn quote(text: &str, for_name: bool) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '=' | ':' if for_name => {
                let _ = write!(out, "\\x{:02X}", c as u32);
            }
            c if c.is_control() => {
                let _ = write!(out, "\\x{:02X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn value_text(value: &Value) -> String {
    let list = |items: Vec<String>, ty: &str| {
        if items.is_empty() {
            format!("{ty}[]")
        } else {
            format!("[{}]", items.join(", "))
        }
    };
    let string = |t: &Text| quote(&t.decoded(), false);
    match value {
        Value::Int(v) => v.to_string(),
        Value::Float(v) => v.to_text(),
        Value::String(t) => string(t),
        Value::IntArray(v) => list(v.iter().map(i32::to_string).collect(), "int"),
        Value::FloatArray(v) => list(v.iter().map(|f| f.to_text()).collect(), "float"),
        Value::StringArray(v) => list(v.iter().map(string).collect(), "string"),
    }
}

// ---------------------------------------------------------------------------------------------------------
// Reading

/// Where a line starts, for errors: `line N` at its byte offset in the INI text.
struct Line {
    number: usize,
    offset: u64,
}

impl Line {
    fn error(&self, message: impl Into<String>) -> Error {
        Error::invalid(FORMAT_ID, format!("ini line {}", self.number), self.offset, message)
    }
}

/// Parses typed INI text.
pub fn parse(text: &str) -> Result<Content> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut content = Content::default();
    let mut offset = 0u64;
    for (i, raw) in text.split('\n').enumerate() {
        let at = Line { number: i + 1, offset };
        offset += raw.len() as u64 + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw).trim();
        if let Some(rest) = line.strip_prefix(TABLE_DIRECTIVE) {
            if rest.is_empty() || rest.starts_with(char::is_whitespace) {
                let table = parse_table(rest, &at)?;
                let slot = match content.sections.last_mut() {
                    Some(s) => &mut s.table,
                    None => &mut content.table,
                };
                if slot.replace(table).is_some() {
                    return Err(at.error("a second ;@table line for the same table"));
                }
                continue;
            }
        }
        if line.is_empty() || line.starts_with([';', '#']) {
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let (name, rest) = if rest.starts_with('"') {
                let (name, rest) = unquote(rest, &at)?;
                let rest =
                    rest.trim_start().strip_prefix(']').ok_or_else(|| at.error("expected `]` after the name"))?;
                (name, rest)
            } else {
                let end = rest.find(']').ok_or_else(|| at.error("a section line needs its closing `]`"))?;
                (rest.get(..end).unwrap_or_default().trim().to_string(), rest.get(end + 1..).unwrap_or_default())
            };
            expect_end(rest, &at)?;
            content.sections.push(PlainSection { name: encode_text(&name, &at)?, keys: Vec::new(), table: None });
            continue;
        }
        let (name, rest) = if line.starts_with('"') {
            let (name, rest) = unquote(line, &at)?;
            let rest = rest.trim_start().strip_prefix('=').ok_or_else(|| at.error("expected `=` after the key"))?;
            (name, rest)
        } else {
            let eq = line.find('=').ok_or_else(|| at.error("expected `[section]`, `key = value` or a comment"))?;
            let name = line.get(..eq).unwrap_or_default().trim();
            if name.is_empty() {
                return Err(at.error("a key needs a name (an empty one is written \"\")"));
            }
            (name.to_string(), line.get(eq + 1..).unwrap_or_default())
        };
        let (value, rest) = parse_value(rest.trim_start(), &at)?;
        expect_end(rest, &at)?;
        let key = PlainKey { name: encode_text(&name, &at)?, value };
        match content.sections.last_mut() {
            Some(s) => s.keys.push(key),
            None => return Err(at.error("a key before the first [section]")),
        }
    }
    Ok(content)
}

fn encode_text(text: &str, at: &Line) -> Result<Text> {
    Text::encode(text)
        .ok_or_else(|| at.error(format!("`{text}` has characters that cp1251 (the REG code page) cannot hold")))
}

/// What may follow a value or a section name: nothing, or a comment.
fn expect_end(rest: &str, at: &Line) -> Result<()> {
    let rest = rest.trim_start();
    if rest.is_empty() || rest.starts_with([';', '#']) {
        Ok(())
    } else {
        Err(at.error(format!("unexpected `{rest}` (a comment starts with ; or #)")))
    }
}

fn parse_table(rest: &str, at: &Line) -> Result<Vec<Placement>> {
    rest.split_whitespace()
        .map(|pair| {
            let parsed = pair
                .split_once(':')
                .and_then(|(s, n)| Some((s.parse::<u16>().ok()?, Link::from_value(n.parse::<i64>().ok()?)?)));
            parsed
                .map(|(slot, next)| Placement { slot, next })
                .ok_or_else(|| at.error(format!("`{pair}` in ;@table is not slot:next")))
        })
        .collect()
}

/// Reads a quoted text at the start of `s` (which starts with `"`); returns it and what follows.
fn unquote<'a>(s: &'a str, at: &Line) -> Result<(String, &'a str)> {
    let mut out = String::new();
    let mut chars = s.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((out, s.get(i + 1..).unwrap_or_default())),
            '\\' => match chars.next().map(|(_, e)| e) {
                Some('"') => out.push('"'),
                Some('\\') => out.push('\\'),
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('t') => out.push('\t'),
                Some('x') => {
                    let hex: String = chars.by_ref().take(2).map(|(_, h)| h).collect();
                    let code = u8::from_str_radix(&hex, 16)
                        .ok()
                        .filter(|_| hex.len() == 2)
                        .ok_or_else(|| at.error(format!("`\\x{hex}` needs two hex digits")))?;
                    out.push(char::from(code));
                }
                Some(e) => return Err(at.error(format!("unknown escape `\\{e}` (use \\\" \\\\ \\n \\r \\t \\xHH)"))),
                None => break,
            },
            c => out.push(c),
        }
    }
    Err(at.error("a quoted text is not closed with `\"`"))
}

/// One scalar or array value at the start of `s`; returns it and what follows.
fn parse_value<'a>(s: &'a str, at: &Line) -> Result<(Value, &'a str)> {
    for (prefix, empty) in [
        ("int[]", Value::IntArray(Vec::new())),
        ("float[]", Value::FloatArray(Vec::new())),
        ("string[]", Value::StringArray(Vec::new())),
    ] {
        if let Some(rest) = s.strip_prefix(prefix) {
            return Ok((empty, rest));
        }
    }
    if let Some(mut rest) = s.strip_prefix('[') {
        let mut items = Vec::new();
        loop {
            rest = rest.trim_start();
            if items.is_empty() {
                if let Some(after) = rest.strip_prefix(']') {
                    if after.trim().is_empty() || after.trim_start().starts_with([';', '#']) {
                        return Err(at.error("an empty array needs its type: int[], float[] or string[]"));
                    }
                }
            }
            let (item, after) = parse_scalar(rest, at)?;
            items.push(item);
            let after = after.trim_start();
            if let Some(after) = after.strip_prefix(',') {
                rest = after;
            } else if let Some(after) = after.strip_prefix(']') {
                return Ok((array(items, at)?, after));
            } else {
                return Err(at.error("expected `,` or `]` in the array"));
            }
        }
    }
    parse_scalar(s, at)
}

fn array(items: Vec<Value>, at: &Line) -> Result<Value> {
    let mixed = || at.error("array elements must all have one type (ints, floats like 1.0, or strings)");
    match items.first() {
        Some(Value::Int(_)) => items
            .into_iter()
            .map(|v| if let Value::Int(x) = v { Ok(x) } else { Err(mixed()) })
            .collect::<Result<_>>()
            .map(Value::IntArray),
        Some(Value::Float(_)) => items
            .into_iter()
            .map(|v| if let Value::Float(x) = v { Ok(x) } else { Err(mixed()) })
            .collect::<Result<_>>()
            .map(Value::FloatArray),
        _ => items
            .into_iter()
            .map(|v| if let Value::String(x) = v { Ok(x) } else { Err(mixed()) })
            .collect::<Result<_>>()
            .map(Value::StringArray),
    }
}

/// An int, a float or a quoted string.
fn parse_scalar<'a>(s: &'a str, at: &Line) -> Result<(Value, &'a str)> {
    if s.starts_with('"') {
        let (text, rest) = unquote(s, at)?;
        return Ok((Value::String(encode_text(&text, at)?), rest));
    }
    let end = s.find(|c: char| c.is_whitespace() || matches!(c, ',' | ']' | ';' | '#')).unwrap_or(s.len());
    let (token, rest) = s.split_at(end);
    if token.is_empty() {
        return Err(at.error("expected a value: 42, 42.0, \"text\" or an array"));
    }
    Ok((parse_number(token, at)?, rest))
}

fn parse_number(token: &str, at: &Line) -> Result<Value> {
    if let Some(special) = F32::parse_special(token) {
        return special.map(Value::Float).map_err(|e| at.error(e));
    }
    let not_a_value =
        || at.error(format!("`{token}` is not a value: strings are quoted (\"{token}\"), floats have a point (42.0)"));
    if token.contains(['.', 'e', 'E']) {
        let digits_ok = token.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'));
        let v: f32 = token.parse().ok().filter(|_| digits_ok).ok_or_else(not_a_value)?;
        if v.is_infinite() {
            return Err(at.error(format!("`{token}` is beyond the f32 range (write inf for infinity)")));
        }
        return Ok(Value::Float(F32::new(v)));
    }
    let digits = token.strip_prefix(['+', '-']).unwrap_or(token);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(not_a_value());
    }
    token.parse::<i32>().map(Value::Int).map_err(|_| {
        at.error(format!(
            "`{token}` does not fit an int (i32); write {token}.0 for a float or \"{token}\" for a string"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Value {
        let c = parse(&format!("[s]\nk = {line}\n")).unwrap();
        c.sections[0].keys[0].value.clone()
    }

    #[test]
    fn values_keep_their_types() {
        assert_eq!(one("42"), Value::Int(42));
        assert_eq!(one("-2147483648"), Value::Int(i32::MIN));
        assert_eq!(one("42.0"), Value::Float(F32::new(42.0)));
        assert_eq!(one("-0.0"), Value::Float(F32(0x8000_0000)));
        assert_eq!(one("nan:0x7FC00001 ; c"), Value::Float(F32(0x7FC0_0001)));
        assert_eq!(one("\"42\""), Value::String(Text(b"42".to_vec())));
        assert_eq!(one("[1, 2,3]"), Value::IntArray(vec![1, 2, 3]));
        assert_eq!(one("float[]"), Value::FloatArray(vec![]));
        assert_eq!(one("[\"a\\x3D\", \"\"]"), Value::StringArray(vec![Text(b"a=".to_vec()), Text(vec![])]));
    }

    #[test]
    fn mistakes_are_named() {
        for (line, needle) in [
            ("hello", "strings are quoted"),
            ("3000000000", "does not fit"),
            ("1e50", "beyond the f32 range"),
            ("[]", "needs its type"),
            ("[1, 2.0]", "one type"),
            ("\"open", "not closed"),
            ("\"\\q\"", "unknown escape"),
            ("42 43", "unexpected"),
            ("\"日本\"", "cp1251"),
        ] {
            let err = parse(&format!("[s]\nk = {line}\n")).unwrap_err().to_string();
            assert!(err.contains(needle), "{line}: {err}");
            assert!(err.contains("ini line 2"), "{err}");
        }
        assert!(parse("k = 1\n").unwrap_err().to_string().contains("before the first"));
    }

    #[test]
    fn names_are_quoted_when_needed() {
        assert_eq!(key_name("Max Speed"), "Max Speed");
        assert_eq!(key_name("a=b"), "\"a\\x3Db\"");
        assert_eq!(key_name(""), "\"\"");
        assert_eq!(key_name(" x"), "\" x\"");
        assert_eq!(section_name("a]b"), "\"a]b\"");
        assert_eq!(section_name("Привет"), "Привет");
    }
}
