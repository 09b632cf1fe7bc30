//! The bytes of a figure's files (the `.mod`, `.bon` and `.anm` RES archives and the `.mmp` texture), for
//! `relic pack ei-res model.glb -o unit.mod` ([`super::import`]).

use crate::error::{Error, Result};
use crate::evil_islands::{mmp, res};

/// The files of a figure: the `.mod` RES, the `.bon` RES, the `.anm` RES (when there are clips) and the
/// texture (when there is one).
#[derive(Debug, Clone, Default)]
pub struct FigureFiles {
    pub model: Vec<u8>,
    pub bones: Vec<u8>,
    pub animations: Option<Vec<u8>>,
    pub texture: Option<Vec<u8>>,
}

/// Unix seconds now (the time stored for each entry).
fn now() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u32::try_from(d.as_secs()).unwrap_or(u32::MAX))
}

fn res_bytes(entries: Vec<(String, Vec<u8>)>) -> Result<Vec<u8>> {
    let modified = now();
    let inputs = entries
        .into_iter()
        .map(|(name, bytes)| {
            Ok(res::PackInput {
                name: res::write::encode_name(&name)?,
                modified,
                source: res::PackSource::Bytes(bytes),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let mut out = Vec::new();
    res::write_archive(inputs, res::PackOptions { dedupe: true }, &mut out)?;
    Ok(out)
}

/// The bytes of a figure's files. `pixel_format` and `mips` choose the texture's encoding (see the
/// module doc).
pub fn write_figure(
    figure: &super::Figure,
    pixel_format: Option<&str>,
    mips: bool,
    note: &mut dyn FnMut(String),
) -> Result<FigureFiles> {
    let mut entries = vec![(figure.name.clone(), figure.lnk.to_bytes()?)];
    for (name, part) in &figure.parts {
        entries.push((name.clone(), part.to_bytes().map_err(|e| e.within(format_args!("part {name:?}")))?));
    }
    let model = res_bytes(entries)?;
    let bones = res_bytes(figure.bones.iter().map(|(n, b)| Ok((n.clone(), b.to_bytes()?))).collect::<Result<_>>()?)?;
    let animations = if figure.animations.is_empty() {
        None
    } else {
        let mut clips = Vec::with_capacity(figure.animations.len());
        for (clip, parts) in &figure.animations {
            let inner = parts
                .iter()
                .map(|(n, a)| Ok((n.clone(), a.to_bytes().map_err(|e| e.within(format_args!("{clip}/{n}")))?)))
                .collect::<Result<Vec<_>>>()?;
            clips.push((clip.clone(), res_bytes(inner)?));
        }
        Some(res_bytes(clips)?)
    };
    let texture = match &figure.texture {
        Some(image) => Some(texture_bytes(&figure.name, image, pixel_format, mips, note)?),
        None => None,
    };
    Ok(FigureFiles { model, bones, animations, texture })
}

/// An image as an MMP (see the module doc for the pixel format).
pub fn texture_bytes(
    model: &str,
    image: &crate::asset::Image,
    pixel_format: Option<&str>,
    mips: bool,
    note: &mut dyn FnMut(String),
) -> Result<Vec<u8>> {
    use mmp::types::PixelFormat;
    let frame =
        image.frames.first().ok_or_else(|| Error::Refused(format!("ei-res: {model}: the texture has no image")))?;
    let crate::asset::Pixels::Rgba8(rgba) = &frame.pixels else {
        return Err(Error::Refused(format!("ei-res: {model}: the texture is not RGBA")));
    };
    let (w, h) = (frame.width, frame.height);
    let recorded = image
        .text
        .iter()
        .filter(|(k, _)| k == mmp::provenance::PNG_TEXT_KEYWORD)
        .find_map(|(_, t)| mmp::provenance::Recorded::parse(t))
        .unwrap_or_default();
    let format = match pixel_format {
        Some(name) => {
            PixelFormat::from_name(name).ok_or_else(|| Error::Refused(format!("unknown MMP pixel format `{name}`")))?
        }
        None => recorded.format.unwrap_or_else(|| {
            if rgba.chunks_exact(4).all(|p| p.get(3) == Some(&255)) {
                PixelFormat::Dxt1
            } else {
                PixelFormat::Dxt3
            }
        }),
    };
    let dxt = matches!(format, PixelFormat::Dxt1 | PixelFormat::Dxt3);
    let format = if dxt && (w % 4 != 0 || h % 4 != 0) && (w > 4 || h > 4) {
        note(format!(
            "{model}: the {w}×{h} texture is not whole 4×4 blocks, which {} needs: written as ARGB8",
            format.name()
        ));
        PixelFormat::Argb8
    } else {
        format
    };
    let full = mmp::write::full_chain(w, h);
    let levels = if mips {
        full
    } else if format == PixelFormat::Pnt3 {
        1
    } else {
        recorded.mips.unwrap_or(1).clamp(1, full.max(1))
    };
    mmp::write::encode_levels(rgba, w, h, format, levels)
}
