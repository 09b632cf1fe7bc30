//! What the README states that the code decides: how many formats relic knows (the `--version` line, the
//! "Formats" text and its table all say `relic::FORMATS.len()`), and that the browser-build block a newcomer
//! copies installs what the build needs, by the same script `.ci/run` runs (issue 39).

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

#[test]
fn the_readme_counts_the_formats_the_registry_holds() {
    let readme = read("README.md");
    let known = relic::FORMATS.len();
    let formats = section(&readme, "Formats");
    assert!(
        formats.contains(&format!("relic knows {known} formats (`relic --version` counts the same):").as_str()),
        "the Formats text must say `relic knows {known} formats`"
    );
    // The table: one row per format (grouped by game; the registry's order is the order magic is tried in).
    let mut ids: Vec<&str> = formats
        .iter()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`').map(|(id, _)| id))
        .collect();
    let mut registry: Vec<&str> = relic::FORMATS.iter().map(|f| f.id).collect();
    ids.sort_unstable();
    registry.sort_unstable();
    assert_eq!(ids, registry);
    // The `--version` example shows the same number.
    let version: Vec<&str> = readme.lines().filter(|l| l.starts_with("relic --version")).collect();
    assert_eq!(version.len(), 1, "one `relic --version` example");
    assert!(version[0].ends_with(&format!(", {known} formats)")), "{}", version[0]);
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
    assert!(ci.lines().any(|l| l == "tools/setup-web-build.sh"), ".ci/run must run tools/setup-web-build.sh");
    assert!(!ci.contains("wasm-bindgen-cli"), ".ci/run installs wasm-bindgen itself instead of by the script");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(root().join("tools/setup-web-build.sh")).unwrap().permissions().mode();
        assert_ne!(mode & 0o111, 0, "tools/setup-web-build.sh must be executable");
    }
}
