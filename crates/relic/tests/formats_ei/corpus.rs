//! The model files inside `../shared/corpus/evil-islands/auxData.res`, found by walking its RES archives
//! recursively with relic's RES reader: FIG parts (by magic) and the LNK of each `.mod`, the per-part
//! entries of each `.bon`, and per-part ANM entries of any `.anm` animation archive.

#![allow(dead_code)]

use std::path::PathBuf;

use relic::codec::text::{decode, CP1251};
use relic::evil_islands::res;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Fig,
    Lnk,
    Bon,
    Anm,
}

/// One model file found in the corpus.
#[derive(Debug, Clone)]
pub struct Found {
    pub kind: Kind,
    /// `auxData.res/light.mod/mesh`.
    pub label: String,
    /// The entry's name in its archive.
    pub name: String,
    /// The names of the other entries of the same archive (a LNK's FIG parts).
    pub siblings: Vec<String>,
    pub data: Vec<u8>,
}

pub fn aux_data() -> Option<Vec<u8>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/evil-islands/auxData.res");
    match std::fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            eprintln!("skipped: {} not readable ({e}); the corpus tests need ../shared/corpus", path.display());
            None
        }
    }
}

/// Every model file of `auxData.res`, or `None` (said on stderr) when the corpus is missing.
pub fn model_files() -> Option<Vec<Found>> {
    let bytes = aux_data()?;
    let mut out = Vec::new();
    walk(&bytes, "auxData.res", None, 0, &mut out);
    Some(out)
}

fn extension(name: &str) -> Option<String> {
    name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase())
}

/// `context` is the extension of the model archive the entries belong to (`mod`, `bon`, `anm`).
fn walk(bytes: &[u8], label: &str, context: Option<&str>, depth: usize, out: &mut Vec<Found>) {
    assert!(depth < 5, "{label}: nested too deep");
    let archive = res::parse(bytes).unwrap_or_else(|e| panic!("{label}: {e}"));
    let names: Vec<String> = (0..archive.len()).map(|i| decode(CP1251, archive.name(i))).collect();
    for (i, name) in names.iter().enumerate() {
        let data = archive.data(i);
        let entry_label = format!("{label}/{name}");
        let ext = extension(name);
        if data.starts_with(&res::types::MAGIC) {
            let inner = match ext.as_deref() {
                Some(e @ ("mod" | "bon" | "anm")) => Some(e),
                _ => context,
            };
            walk(data, &entry_label, inner, depth + 1, out);
            continue;
        }
        let kind = if data.starts_with(b"FIG") {
            Some(Kind::Fig)
        } else {
            match context {
                Some("mod") => Some(Kind::Lnk),
                Some("bon") => Some(Kind::Bon),
                Some("anm") => Some(Kind::Anm),
                _ => None,
            }
        };
        if let Some(kind) = kind {
            let siblings = names.iter().filter(|n| *n != name).cloned().collect();
            out.push(Found { kind, label: entry_label, name: name.clone(), siblings, data: data.to_vec() });
        }
    }
}

/// The files of one kind.
pub fn of_kind(kind: Kind) -> Option<Vec<Found>> {
    model_files().map(|all| all.into_iter().filter(|f| f.kind == kind).collect())
}

/// `write_json(to_json(bytes))` through JSON text, as `convert --to json` and `pack` do.
pub fn through_json_text(format: &relic::Format, bytes: &[u8]) -> Vec<u8> {
    let value = format.to_json(bytes).unwrap_or_else(|e| panic!("to_json: {e}"));
    let text = relic::export::json::to_pretty(&value).unwrap();
    format
        .from_json(serde_json::from_slice(&text).unwrap(), &Default::default())
        .unwrap_or_else(|e| panic!("write_json: {e}"))
}
