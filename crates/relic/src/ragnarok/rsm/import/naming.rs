//! Names and textures of the glTF → RSM writer ([`super`]): node names RSM can hold (unique, CP949, 39
//! bytes below 2.2) and texture paths and files from the glTF's materials and images.

use std::collections::{HashMap, HashSet};

use super::{Notes, FIXED_TEXT};
use crate::asset::Scene;
use crate::ragnarok::rsm::read::encode_text;
use crate::ragnarok::rsm::FORMAT_ID;

/// A name as a file of `version` holds it: characters CP949 lacks replaced, 39 bytes at most below 2.2.
pub(super) fn fit_name(text: &str, fixed: bool, notes: &mut Notes) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if encode_text(ch.encode_utf8(&mut [0; 4]), false).is_some() {
            out.push(ch);
        } else {
            notes.add("name-chars", || format!("'{text}': characters CP949 cannot hold are written as '_'"));
            out.push('_');
        }
    }
    if fixed {
        if out.chars().count() > FIXED_TEXT {
            out = out.chars().take(FIXED_TEXT).collect();
        }
        while encode_text(&out, false).is_some_and(|b| b.len() > FIXED_TEXT) {
            out.pop();
            notes
                .add("name-long", || format!("'{text}': names longer than {FIXED_TEXT} bytes are shortened (RSM 1.x)"));
        }
    }
    out
}

/// Names given so far, and the next suffix to try per repeated name.
#[derive(Default)]
pub(super) struct Taken {
    names: HashSet<String>,
    next: HashMap<String, usize>,
}

/// Unique names: a repeat gets `_2`, `_3`, … (shortened to fit).
pub(super) fn unique(name: String, taken: &mut Taken, fixed: bool, notes: &mut Notes) -> String {
    let base = if name.is_empty() { "node".to_string() } else { name };
    if taken.names.insert(base.clone()) {
        return base;
    }
    notes.add("name-repeat", || format!("node names are made unique ('{base}' repeats): RSM finds parents by name"));
    let start = taken.next.get(&base).copied().unwrap_or(2);
    for n in start.. {
        let suffix = format!("_{n}");
        let mut stem = base.clone();
        while fixed && encode_text(&format!("{stem}{suffix}"), false).is_some_and(|b| b.len() > FIXED_TEXT) {
            stem.pop();
        }
        let candidate = format!("{stem}{suffix}");
        if taken.names.insert(candidate.clone()) {
            taken.next.insert(base, n + 1);
            return candidate;
        }
    }
    base
}

// ---------------------------------------------------------------------------------------------------------
// Textures

pub(super) fn has_alpha(image: &crate::asset::Image) -> bool {
    image.frames.first().is_some_and(|f| match &f.pixels {
        crate::asset::Pixels::Rgba8(px) => px.chunks_exact(4).any(|p| p[3] < 255),
        _ => false,
    })
}

pub(super) fn texture_ext(name: &str) -> Option<String> {
    let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
    ["bmp", "tga", "jpg", "png"].contains(&ext.as_str()).then_some(ext)
}

/// The texture path a material names, and the scene texture holding its image.
pub(super) fn material_texture(scene: &Scene, material: usize) -> Option<(String, Option<usize>)> {
    let m = scene.materials.get(material)?;
    let image = m.texture.filter(|&t| t < scene.textures.len());
    if let Some(path) = m.extras.get(FORMAT_ID).and_then(|x| x.get("texture")).and_then(|x| x.as_str()) {
        return Some((path.to_string(), image));
    }
    if texture_ext(&m.name).is_some() {
        return Some((m.name.clone(), image));
    }
    let t = scene.textures.get(image?)?;
    let name = if texture_ext(&t.name).is_some() {
        t.name.clone()
    } else {
        let stem = if t.name.is_empty() { format!("texture{}", image.unwrap_or(0)) } else { t.name.clone() };
        format!("{stem}.{}", if has_alpha(&t.image) { "tga" } else { "bmp" })
    };
    Some((name, image))
}

/// The image as the file its name says (BMP: 24 bits, alpha < 128 as magenta; TGA: 32 bits).
#[cfg(feature = "export")]
pub(super) fn encode_texture(path: &str, image: &crate::asset::Image, notes: &mut Notes) -> Option<Vec<u8>> {
    let tga = texture_ext(path).as_deref() == Some("tga");
    if !tga && texture_ext(path).as_deref() != Some("bmp") {
        notes.add("texture-kind", || format!("texture '{path}': only .bmp and .tga are written beside the model"));
        return None;
    }
    match crate::ragnarok::texture::encode_rgba(image, tga) {
        Ok((bytes, partial)) => {
            if partial > 0 {
                notes.add("texture-alpha", || {
                    format!("texture '{path}': partly transparent pixels; BMP keeps none (alpha < 128 becomes magenta)")
                });
            }
            Some(bytes)
        }
        Err(e) => {
            notes.add("texture-fail", || format!("texture '{path}' not written: {e}"));
            None
        }
    }
}

#[cfg(not(feature = "export"))]
pub(super) fn encode_texture(path: &str, _image: &crate::asset::Image, notes: &mut Notes) -> Option<Vec<u8>> {
    notes.add("texture-fail", || format!("texture '{path}' not written: relic was built without its encoders"));
    None
}
