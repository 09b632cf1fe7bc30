//! What the README states that the code decides: how many formats relic knows (the `--version` line, the
//! "Formats" text and its table all say `relic::FORMATS.len()`), that the table has one row per registered
//! format in the registry's order with its game and capabilities, that the fuzz README's format table does
//! too (issue 41), and that the browser-build block a newcomer copies installs what the build needs, by the
//! same script `.ci/run` runs (issue 39).

use std::path::PathBuf;

fn root() -> PathBuf {
    crate::common::repo_root()
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The lines of the README section starting at the heading `## {name}`, up to the next `## `.
fn section<'a>(readme: &'a str, name: &str) -> Vec<&'a str> {
    let heading = format!("## {name}");
    readme.lines().skip_while(|l| *l != heading).skip(1).take_while(|l| !l.starts_with("## ")).collect()
}

/// The cells of a Markdown table row (`| a | b \| c |` → `["a", "b \| c"]`): split at each `|` that no
/// backslash escapes, trimmed.
fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|');
    let mut out = vec![String::new()];
    let mut escaped = false;
    for c in inner.chars() {
        match c {
            '|' if !escaped => out.push(String::new()),
            _ => out.last_mut().expect("one cell at least").push(c),
        }
        escaped = c == '\\';
    }
    if out.last().is_some_and(|c| c.trim().is_empty()) {
        out.pop();
    }
    out.into_iter().map(|c| c.trim().to_string()).collect()
}

/// The rows of the first table in `lines` whose header row is `header`, as cells, without the header and
/// the `|---|` line.
fn table(lines: &[&str], header: &str) -> Vec<Vec<String>> {
    let start = lines.iter().position(|l| *l == header).unwrap_or_else(|| panic!("no table headed `{header}`"));
    lines[start + 1..].iter().skip(1).take_while(|l| l.starts_with('|')).map(|l| cells(l)).collect()
}

/// The format id in a table's first cell, written `` `ei-res` ``.
fn id_cell(cell: &str) -> &str {
    cell.strip_prefix('`').and_then(|c| c.strip_suffix('`')).unwrap_or_else(|| panic!("`{cell}` is not a `format-id`"))
}

#[test]
fn the_readme_counts_the_formats_the_registry_holds() {
    let readme = read("README.md");
    let known = relic::FORMATS.len();
    let formats = section(&readme, "Formats");
    assert!(
        formats.contains(&format!("relic knows {known} formats (`relic --version` counts the same):").as_str()),
        "the Formats text must say `relic knows {known} formats`"
    );
    // The `--version` example shows the same number.
    let version: Vec<&str> = readme.lines().filter(|l| l.starts_with("relic --version")).collect();
    assert_eq!(version.len(), 1, "one `relic --version` example");
    assert!(version[0].ends_with(&format!(", {known} formats)")), "{}", version[0]);
}

#[test]
fn the_readme_format_table_is_the_registry_row_for_row() {
    let readme = read("README.md");
    let rows = table(&section(&readme, "Formats"), "| id | format | game | read | convert | write |");
    let ids: Vec<&str> = rows.iter().map(|r| id_cell(&r[0])).collect();
    let registry: Vec<&str> = relic::FORMATS.iter().map(|f| f.id).collect();
    assert_eq!(ids, registry, "one row per registered format, in the order of relic::FORMATS");
    for (row, format) in rows.iter().zip(relic::FORMATS) {
        let id = format.id;
        assert_eq!(row.len(), 6, "{id}: six cells, found {row:?}");
        assert_eq!(row[2], format.game.title(), "{id}: the game");
        let says = |cell: &str| !cell.is_empty() && cell != "no" && !cell.starts_with("no ");
        let caps = format.capabilities();
        assert_eq!(says(&row[3]) && row[3].starts_with("yes"), caps.read, "{id}: read `{}`", row[3]);
        assert_eq!(says(&row[4]), caps.convert, "{id}: convert `{}`", row[4]);
        assert_eq!(says(&row[5]) && row[5].starts_with("yes"), caps.write, "{id}: write `{}`", row[5]);
    }
}

#[test]
fn the_fuzz_readme_format_table_is_the_registry_row_for_row() {
    let readme = read("fuzz/README.md");
    let lines: Vec<&str> = readme.lines().collect();
    let rows = table(&lines, "| format | game | also checks |");
    let ids: Vec<&str> = rows.iter().map(|r| id_cell(&r[0])).collect();
    let registry: Vec<&str> = relic::FORMATS.iter().map(|f| f.id).collect();
    assert_eq!(ids, registry, "fuzz/README.md: one row per registered format, in the order of relic::FORMATS");
    for (row, format) in rows.iter().zip(relic::FORMATS) {
        assert_eq!(row.len(), 3, "{}: three cells, found {row:?}", format.id);
        assert_eq!(row[1], format.game.title(), "{}: the game", format.id);
        assert!(!row[2].is_empty(), "{}: say what the format's fuzzing checks beyond the common ones", format.id);
    }
}

/// The block of shell lines that runs `build:web`.
fn browser_block(readme: &str) -> Vec<&str> {
    let mut block = Vec::new();
    let mut inside = false;
    for line in readme.lines() {
        match (inside, line) {
            (false, "```sh") => {
                inside = true;
                block.clear();
            }
            (true, "```") => {
                if block.iter().any(|l: &&str| l.contains("build:web")) {
                    return block;
                }
                inside = false;
            }
            (true, l) => block.push(l),
            _ => {}
        }
    }
    panic!("README has no ```sh block running build:web");
}

/// A line without its `# comment`.
fn command(line: &str) -> &str {
    line.split(" #").next().unwrap_or(line).trim()
}

#[test]
fn the_browser_build_block_installs_what_the_build_needs_as_ci_does() {
    let readme = read("README.md");
    let commands: Vec<&str> = browser_block(&readme).into_iter().map(command).collect();
    assert_eq!(
        commands,
        ["tools/setup-web-build.sh", "npm run --prefix view-web build:web", "relic view --static target/relic-web"]
    );
    // The script installs every piece: the target, wasm-bindgen at the locked version, the npm packages.
    let script = read("tools/setup-web-build.sh");
    let steps: Vec<&str> = script.lines().filter(|l| !l.trim_start().starts_with('#')).collect();
    for needed in [
        "set -euo pipefail",
        "rustup target add wasm32-unknown-unknown",
        "awk '/^name = \"wasm-bindgen\"$/",
        "cargo install --quiet wasm-bindgen-cli --version \"$bindgen_version\" --locked",
        "npm ci --prefix view-web",
    ] {
        assert!(steps.iter().any(|l| l.contains(needed)), "tools/setup-web-build.sh lacks `{needed}`");
    }
    // The version it reads is the one the crate graph pins (what the prose names too).
    let lock = read("Cargo.lock");
    let pinned = lock
        .split("\n[[package]]\n")
        .find(|p| p.starts_with("name = \"wasm-bindgen\"\n"))
        .and_then(|p| p.lines().nth(1))
        .and_then(|l| l.strip_prefix("version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("Cargo.lock pins wasm-bindgen");
    assert!(readme.contains(&format!("for the `wasm-bindgen` crate ({pinned})")), "README names wasm-bindgen {pinned}");
    // CI runs the very script, and installs the browser build's pieces nowhere else.
    let ci = read(".ci/run");
    assert!(
        ci.lines().any(|l| ["tools/setup-web-build.sh", "timed tools/setup-web-build.sh"].contains(&l)),
        ".ci/run must run tools/setup-web-build.sh"
    );
    assert!(!ci.contains("wasm-bindgen-cli"), ".ci/run installs wasm-bindgen itself instead of by the script");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(root().join("tools/setup-web-build.sh")).unwrap().permissions().mode();
        assert_ne!(mode & 0o111, 0, "tools/setup-web-build.sh must be executable");
    }
}
