//! Exporters from the common asset model to open formats. Each is written once and sees only `asset`.

pub mod gltf;
pub mod json;
pub mod png;
pub mod view;
pub mod wav;

use crate::asset::Asset;
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
        (Asset::Sound(s), _) => Ok(vec![Exported { suffix: String::new(), extension: "wav", bytes: wav::encode(s)? }]),
        (Asset::Document(d), "csv") => json::tables_to_csv(d),
        (Asset::Document(d), _) => {
            Ok(vec![Exported { suffix: String::new(), extension: "json", bytes: json::to_pretty(&d.value)? }])
        }
        (Asset::Text(t), _) => {
            Ok(vec![Exported { suffix: String::new(), extension: t.extension, bytes: t.text.clone().into_bytes() }])
        }
        (Asset::Binary(b), _) => {
            Ok(vec![Exported { suffix: String::new(), extension: b.extension, bytes: b.bytes.clone() }])
        }
        (Asset::Scene(scene), "gltf") => gltf::to_gltf(scene, stem),
        (Asset::Scene(scene), _) => {
            Ok(vec![Exported { suffix: String::new(), extension: "glb", bytes: gltf::to_glb(scene)? }])
        }
    }
}
