//! Exporters from the common asset model to open formats. Each is written once and sees only `asset`.
//!
//! The encoders (`png`, `wav`, `gltf`, CSV) need the `export` feature. Without it [`export`] still writes
//! JSON, text and binary assets and refuses the rest, and `png` keeps its functions, refusing, for the
//! formats that write images from PNG.

mod compression;
#[cfg(feature = "export")]
#[cfg_attr(docsrs, doc(cfg(feature = "export")))]
pub mod gltf;
pub mod json;
#[cfg(feature = "export")]
pub mod png;
#[cfg(not(feature = "export"))]
#[path = "png_unavailable.rs"]
pub mod png;
mod png_text;
#[cfg(all(test, feature = "export"))]
// The stand-in's own unit test runs in the default build too: CI runs the unit tests with the features
// only (the build without them is linted, and run on the samples by tests/house/minimal_build.rs).
#[path = "png_unavailable.rs"]
#[allow(dead_code, unused_imports)]
mod png_unavailable;
pub mod view;
#[cfg(feature = "export")]
#[cfg_attr(docsrs, doc(cfg(feature = "export")))]
pub mod wav;
#[cfg(feature = "view-core")]
#[cfg_attr(docsrs, doc(cfg(feature = "view-core")))]
pub mod zip;

use crate::asset::{Asset, NamedAsset};
use crate::error::{Error, Result};

/// One exported file: a name suffix (`""` or `.mip1`, `/frame3`, …), its extension and bytes.
pub struct Exported {
    pub suffix: String,
    pub extension: &'static str,
    pub bytes: Vec<u8>,
}

/// Output extensions an asset can be exported to, default first.
pub fn extensions_for(asset: &Asset) -> Vec<&'static str> {
    match asset {
        Asset::Image(_) => vec!["png"],
        Asset::Sound(_) => vec!["wav"],
        Asset::Scene(_) => vec!["glb", "gltf"],
        Asset::Document(d) if !d.tables.is_empty() => vec!["json", "csv"],
        Asset::Document(_) => vec!["json"],
        Asset::Text(t) => vec![t.extension],
        Asset::Binary(b) => vec![b.extension],
    }
}

/// Exports an asset to `to` (or its default format). `stem` is the output file name without extension
/// (a glTF JSON file refers to its `.bin` by name).
pub fn export(asset: &Asset, to: Option<&str>, stem: &str) -> Result<Vec<Exported>> {
    export_with(asset, to, stem, png::PngCompression::default())
}

/// [`export`] with the PNG compression chosen (`relic convert --compression`).
pub fn export_with(
    asset: &Asset,
    to: Option<&str>,
    stem: &str,
    png_level: png::PngCompression,
) -> Result<Vec<Exported>> {
    let exts = extensions_for(asset);
    let ext = match to {
        Some(t) => exts
            .iter()
            .copied()
            .find(|e| e.eq_ignore_ascii_case(t))
            .ok_or_else(|| Error::Unsupported(format!("a {} cannot be exported to .{t}", asset.kind())))?,
        None => exts
            .first()
            .copied()
            .ok_or_else(|| Error::Unsupported(format!("no exporter for a {} yet", asset.kind())))?,
    };
    match (asset, ext) {
        (Asset::Image(img), _) => png::encode_image_with(img, png_level),
        #[cfg(feature = "export")]
        (Asset::Sound(s), _) => Ok(vec![Exported { suffix: String::new(), extension: "wav", bytes: wav::encode(s)? }]),
        #[cfg(not(feature = "export"))]
        (Asset::Sound(_), _) => Err(needs_export("WAV output")),
        #[cfg(feature = "export")]
        (Asset::Document(d), "csv") => json::tables_to_csv(d),
        #[cfg(not(feature = "export"))]
        (Asset::Document(_), "csv") => Err(needs_export("CSV output")),
        (Asset::Document(d), _) => {
            Ok(vec![Exported { suffix: String::new(), extension: "json", bytes: json::to_pretty(&d.value)? }])
        }
        (Asset::Text(t), _) => {
            Ok(vec![Exported { suffix: String::new(), extension: t.extension, bytes: t.text.clone().into_bytes() }])
        }
        (Asset::Binary(b), _) => {
            Ok(vec![Exported { suffix: String::new(), extension: b.extension, bytes: b.bytes.clone() }])
        }
        #[cfg(feature = "export")]
        (Asset::Scene(scene), "gltf") => gltf::to_gltf(scene, stem),
        #[cfg(feature = "export")]
        (Asset::Scene(scene), _) => {
            Ok(vec![Exported { suffix: String::new(), extension: "glb", bytes: gltf::to_glb(scene)? }])
        }
        #[cfg(not(feature = "export"))]
        (Asset::Scene(_), _) => {
            let _ = stem; // only glTF output names a file after it
            Err(needs_export("glTF output"))
        }
    }
}

/// A file to write: its path relative to the output folder (`/` separated), its bytes, and its manifest
/// kind (`image`, `sound`, `model`, `document`, `raw`).
pub type OutputFile = (String, Vec<u8>, &'static str);

/// A file's assets exported and named as `relic convert` names them; `None` when `to` is given and none of
/// them can be made into it. `stem` is the input's whole file name. One unnamed asset's files sit beside
/// each other as `<stem><suffix>.<ext>` (`x.mmp.png`, or `x.mmp.mip0.png`, … for a mip chain;
/// `x.idb.<table>.csv` for tables); several assets go into `<stem>/`, except one named
/// [`NamedAsset::BESIDE`], which sits beside that folder as `<stem>.<ext>` (the document that indexes it).
/// `to` keeps the assets that can be made into it (`--to txt` of a MOB: its scripts only).
pub fn name_files(
    assets: &[NamedAsset],
    stem: &str,
    to: Option<&str>,
    png_level: png::PngCompression,
) -> Result<Option<Vec<OutputFile>>> {
    let fits =
        |a: &&NamedAsset| to.map_or(true, |to| extensions_for(&a.asset).iter().any(|e| e.eq_ignore_ascii_case(to)));
    let kept: Vec<&NamedAsset> = assets.iter().filter(fits).collect();
    if kept.is_empty() && to.is_some() {
        return Ok(None);
    }
    let single = matches!(kept.as_slice(), [NamedAsset { name: None, .. }]);
    let mut files = Vec::new();
    for named in kept {
        let base = match named.name.as_deref() {
            None | Some(NamedAsset::BESIDE) => stem,
            Some(name) => name,
        };
        for out in export_with(&named.asset, to, base, png_level)? {
            let rel = if single || named.name.as_deref() == Some(NamedAsset::BESIDE) {
                format!("{stem}{}.{}", out.suffix, out.extension)
            } else {
                format!("{stem}/{base}{}.{}", out.suffix, out.extension)
            };
            files.push((rel, out.bytes, named.asset.kind()));
        }
    }
    Ok(Some(files))
}

/// The refusal of an encoder or decoder this build leaves out: `what` (`PNG output`) names it.
#[cfg(any(test, not(feature = "export")))]
pub(crate) fn needs_export(what: &str) -> Error {
    Error::Unsupported(format!("{what} needs relic's `export` feature"))
}
