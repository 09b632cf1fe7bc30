//! Nothing in the repository cites a file outside it, and every citation of a format note names a section that
//! exists. The format facts the code relies on live in `docs/formats/<game>.md` (see `docs/formats/README.md`);
//! this test fails when a tracked text file (node_modules, dist bundles and lock files aside) mentions the shared
//! corrections or design files or the shared specs folder by name, and when a `docs/formats/<note>.md#<anchor>`
//! citation (or a link between the notes) names a note or an anchor that is not there.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Names of files and folders outside the repository that must not be cited. Spelled in two halves so that this
/// file does not cite them itself.
const OUTSIDE: [[&str; 2]; 3] = [["CORRECTIONS", ".md"], ["DESIGN", ".md"], ["shared/", "specs"]];

const NOTES_DIR: &str = "docs/formats/";

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Tracked files, as `git ls-files` lists them, without installed packages, built bundles and lock files.
fn tracked_text_files(root: &Path) -> Vec<(String, String)> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "-z"])
        .output()
        .expect("git runs (this test needs a git checkout of the repository)");
    assert!(out.status.success(), "git ls-files failed: {}", String::from_utf8_lossy(&out.stderr));
    let names = String::from_utf8(out.stdout).expect("tracked paths are UTF-8");
    names
        .split('\0')
        .filter(|name| !name.is_empty())
        .filter(|name| !name.contains("node_modules/") && !name.contains("/dist/") && !name.starts_with("dist/"))
        .filter(|name| !name.ends_with(".lock") && !name.ends_with("package-lock.json"))
        .filter_map(|name| {
            // Binary files (images, samples) are not text: they cite nothing.
            let text = String::from_utf8(std::fs::read(root.join(name)).ok()?).ok()?;
            Some((name.to_string(), text))
        })
        .collect()
}

/// The anchors a note defines: explicit `<a id="...">` targets and GitHub's heading slugs.
fn anchors(note: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for part in note.split("<a id=\"").skip(1) {
        if let Some(end) = part.find('"') {
            out.insert(part[..end].to_string());
        }
    }
    for line in note.lines() {
        if let Some(heading) = line.strip_prefix('#') {
            let text = heading.trim_start_matches('#').trim();
            let text = match text.find('<') {
                Some(tag) => &text[..tag],
                None => text,
            };
            let slug: String = text
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == '-' || *c == ' ' || *c == '_')
                .map(|c| if c == ' ' { '-' } else { c })
                .collect();
            out.insert(slug);
        }
    }
    out
}

/// Every `(note file, optional anchor)` that `text` cites as `docs/formats/<note>.md[#anchor]`.
fn note_citations(text: &str) -> Vec<(usize, String, Option<String>)> {
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find(NOTES_DIR) {
            rest = &rest[at + NOTES_DIR.len()..];
            let name_len =
                rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')).unwrap_or(rest.len());
            let name = &rest[..name_len];
            let after = &rest[name_len..];
            let Some(after) = after.strip_prefix(".md") else { continue };
            let anchor = after.strip_prefix('#').map(|a| {
                let len = a.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')).unwrap_or(a.len());
                a[..len].to_string()
            });
            out.push((index + 1, format!("{name}.md"), anchor));
        }
    }
    out
}

/// Links from one note to another (`](ragnarok.md#grf)`) or within it (`](#sources)`).
fn links_between_notes(text: &str, this_note: &str) -> Vec<(usize, String, Option<String>)> {
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        for part in line.split("](").skip(1) {
            let target = &part[..part.find(')').unwrap_or(part.len())];
            if target.contains('/') || target.contains(':') {
                continue; // into another folder or a web page: checked elsewhere (or not ours)
            }
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor.to_string())),
                None => (target, None),
            };
            let file = if file.is_empty() { this_note.to_string() } else { file.to_string() };
            if file.ends_with(".md") {
                out.push((index + 1, file, anchor));
            }
        }
    }
    out
}

#[test]
fn no_file_cites_a_path_outside_the_repository() {
    let root = repo_root();
    let files = tracked_text_files(&root);
    assert!(files.iter().any(|(name, _)| name == "Cargo.toml"), "the repository's files were not found");
    let mut found = Vec::new();
    for (name, text) in &files {
        for [a, b] in OUTSIDE {
            let needle = format!("{a}{b}");
            for (index, line) in text.lines().enumerate() {
                if line.contains(&needle) {
                    found.push(format!("{name}:{}: cites {needle}: {}", index + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} citation(s) of files outside the repository; cite the section of docs/formats/<game>.md that holds \
         the fact instead:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn every_cited_note_section_exists() {
    let root = repo_root();
    let files = tracked_text_files(&root);
    let notes: BTreeMap<String, BTreeSet<String>> = files
        .iter()
        .filter_map(|(name, text)| Some((name.strip_prefix(NOTES_DIR)?.to_string(), anchors(text))))
        .filter(|(name, _)| !name.contains('/'))
        .collect();
    for game in ["evil-islands.md", "ragnarok.md", "drakan.md", "dark-reign.md", "freerct.md", "README.md"] {
        assert!(notes.contains_key(game), "docs/formats/{game} is missing");
    }
    assert!(notes["evil-islands.md"].contains("fig-vertex-blocks"), "the anchors of a note were not found");

    let mut broken = Vec::new();
    let mut cited = 0;
    for (name, text) in &files {
        let mut citations = note_citations(text);
        if let Some(note) = name.strip_prefix(NOTES_DIR) {
            citations.extend(links_between_notes(text, note));
        }
        for (line, note, anchor) in citations {
            cited += 1;
            match (notes.get(&note), &anchor) {
                (None, _) => broken.push(format!("{name}:{line}: no note docs/formats/{note}")),
                (Some(sections), Some(anchor)) if !sections.contains(anchor) => {
                    broken.push(format!("{name}:{line}: docs/formats/{note} has no section #{anchor}"))
                }
                _ => {}
            }
        }
    }
    assert!(broken.is_empty(), "{} broken citation(s) of format notes:\n{}", broken.len(), broken.join("\n"));
    // The code cites the notes (about 280 places when this test was written): a handful would mean the scan broke.
    assert!(cited > 100, "only {cited} citations of docs/formats/ found");
}

#[test]
fn the_scanners_find_what_they_should() {
    let note = "# T\n<a id=\"fig-vertex-blocks\"></a>\n### 5.2 Vertex blocks\n";
    let found = anchors(note);
    assert!(found.contains("fig-vertex-blocks"));
    assert!(found.contains("52-vertex-blocks"));
    assert_eq!(
        note_citations("// see docs/formats/evil-islands.md#fig-vertex-blocks, and docs/formats/drakan.md."),
        vec![
            (1, "evil-islands.md".to_string(), Some("fig-vertex-blocks".to_string())),
            (1, "drakan.md".to_string(), None)
        ]
    );
    assert_eq!(
        links_between_notes("([2.1](#res-name-hash)) [x](ragnarok.md#grf) [w](https://example.org/a.md)", "e.md"),
        vec![
            (1, "e.md".to_string(), Some("res-name-hash".to_string())),
            (1, "ragnarok.md".to_string(), Some("grf".to_string()))
        ]
    );
}
