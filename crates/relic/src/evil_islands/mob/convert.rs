//! MOB to the common model: the lossless JSON document, the deciphered level script as text, and the
//! summary of `relic info`.

use serde_json::json;

use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Asset, Document, NamedAsset, Text};
use crate::error::{Error, Result};

/// Type id of UNIT records.
pub const UNIT: u32 = 0xBBBB_0000;

/// The JSON document (`convert --to json`): the file's nodes, nothing left out.
pub fn to_document(mob: Mob) -> MobDocument {
    MobDocument { format: FORMAT_ID.into(), nodes: mob.nodes }
}

pub fn to_json(mob: Mob) -> Result<serde_json::Value> {
    serde_json::to_value(to_document(mob)).map_err(|e| Error::Unsupported(format!("{FORMAT_ID}: JSON: {e}")))
}

/// Every node of the tree, depth first, in file order.
pub fn walk(nodes: &[Node]) -> Vec<&Node> {
    let mut out = Vec::new();
    let mut stack: Vec<&Node> = nodes.iter().rev().collect();
    while let Some(n) = stack.pop() {
        out.push(n);
        if let Value::Record(children) = &n.value {
            stack.extend(children.iter().rev());
        }
    }
    out
}

/// The level scripts (SS_TEXT nodes) in file order.
pub fn scripts(mob: &Mob) -> Vec<&Script> {
    walk(&mob.nodes)
        .into_iter()
        .filter_map(|n| match &n.value {
            Value::Script(s) => Some(s),
            _ => None,
        })
        .collect()
}

/// Conversion for plain `relic convert`: the JSON document (the main asset) and each level script as a
/// `.txt` (UTF-8; the first is named after the file, any further ones `script2`, `script3`, …).
pub fn convert(mob: Mob) -> Result<Vec<NamedAsset>> {
    let texts: Vec<String> = scripts(&mob).into_iter().map(|s| s.text.text.clone()).collect();
    let mut out =
        vec![NamedAsset { name: None, asset: Asset::Document(Document { value: to_json(mob)?, tables: vec![] }) }];
    for (i, text) in texts.into_iter().enumerate() {
        let name = (i > 0).then(|| format!("script{}", i + 1));
        out.push(NamedAsset { name, asset: Asset::Text(Text { extension: "txt", text }) });
    }
    Ok(out)
}

/// The scripts of a document, mutable, in file order (as [`scripts`] finds them).
fn scripts_mut<'a>(nodes: &'a mut [Node], depth: u32, out: &mut Vec<&'a mut Script>) {
    // Deeper trees are refused by the writer; nothing past that depth is a script relic would write.
    if depth > crate::reader::MAX_DEPTH {
        return;
    }
    for node in nodes {
        match &mut node.value {
            Value::Script(s) => out.push(s),
            Value::Record(children) => scripts_mut(children, depth + 1, out),
            _ => {}
        }
    }
}

/// The file `convert` writes script `index` (0-based) to, beside the document `json_path`: `<stem>.txt`
/// for the first, `script2.txt`, `script3.txt`, … for any others.
pub fn script_file(json_path: &std::path::Path, index: usize) -> std::path::PathBuf {
    let dir = json_path.parent().unwrap_or(std::path::Path::new(""));
    let stem = json_path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    match index {
        0 => dir.join(format!("{stem}.txt")),
        n => dir.join(format!("script{}.txt", n + 1)),
    }
}

/// The script `.txt` files that `convert` wrote are what a user edits: each one found beside the JSON
/// replaces the script text in the document (its raw bytes are dropped only when the text changed), and
/// `notes` says which files were taken, so an edit is never silently ignored.
pub fn take_script_files(doc: &mut MobDocument, json_path: &std::path::Path, notes: &mut Vec<String>) -> Result<()> {
    let mut found = Vec::new();
    scripts_mut(&mut doc.nodes, 0, &mut found);
    for (i, script) in found.into_iter().enumerate() {
        let path = script_file(json_path, i);
        let bytes = match crate::source::read(&path) {
            Ok(b) => b,
            Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        let text = String::from_utf8(bytes)
            .map_err(|e| Error::Refused(format!("{}: the script is not UTF-8 text ({e})", path.display())))?;
        if text == script.text.text {
            notes.push(format!("script {} taken from {} (unchanged)", i + 1, path.display()));
        } else {
            // The file the user edited is what an error names, not the document's node path.
            if let Some((line, column, c)) = crate::codec::text::first_unencodable(crate::codec::text::CP1251, &text) {
                return Err(Error::Refused(format!(
                    "{}:{line}:{column}: the character {} is not in cp1251, the code page of Evil Islands scripts",
                    path.display(),
                    crate::codec::text::describe_char(c)
                )));
            }
            notes.push(format!("script {} taken from {} (edited)", i + 1, path.display()));
            script.text = CpString::new(text);
        }
    }
    Ok(())
}

/// Summary for `relic info`: top-level nodes, node and unit counts, script size.
pub fn info(mob: &Mob, file_size: usize) -> serde_json::Value {
    let all = walk(&mob.nodes);
    let scripts = scripts(mob);
    let top: Vec<_> = mob
        .nodes
        .iter()
        .map(|n| {
            json!({
                "type": format!("0x{:08X}", n.type_id),
                "name": n.name(),
                "children": match &n.value { Value::Record(c) => Some(c.len()), _ => None },
            })
        })
        .collect();
    json!({
        "format": FORMAT_ID,
        "file_size": file_size,
        "top_level": top,
        "nodes": all.len(),
        "units": all.iter().filter(|n| n.type_id == UNIT).count(),
        "unknown_or_raw_nodes": all.iter().filter(|n| matches!(n.value, Value::Hex(_))).count(),
        "scripts": scripts.len(),
        "script_key": scripts.first().map(|s| s.key),
        // cp1251 has one byte per character.
        "script_bytes": scripts.first().map(|s| s.text.raw.as_ref().map_or(s.text.text.chars().count(), |r| r.0.len())),
        "script_lines": scripts.first().map(|s| s.text.text.lines().count()),
    })
}
