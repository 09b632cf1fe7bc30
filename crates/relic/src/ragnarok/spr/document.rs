//! The lossless JSON document (`relic convert --to json`, and the index `convert` writes beside the frame
//! PNGs). Frames keep their stored bytes as base64 (`data`): the indices of a 1.x/2.0 palette frame, the
//! RLE of a 2.1 one as the file had it, an RGBA frame's ABGR rows bottom row first. Stored bytes rather than
//! pixel rows because they are what makes an unedited document pack back byte for byte (an encoder's run
//! splits, a palette with one colour twice); the frame PNGs are where pixels are edited.

use serde::{Deserialize, Serialize};

use crate::bytes::Base64;
use crate::error::{Error, Result};
use crate::registry::json_error;

use super::rle;
use super::types::*;
use super::FORMAT_ID;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SprDocument {
    /// Always `ro-spr`.
    pub format: String,
    /// `"1.0"`, `"1.1"`, `"2.0"` or `"2.1"`.
    pub version: Version,
    pub palette_frames: Vec<FrameDocument>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rgba_frames: Vec<FrameDocument>,
    /// Bytes between the frames and the palette (none in real files).
    #[serde(default, skip_serializing_if = "is_empty")]
    pub trailing: Base64,
    /// The 256 palette entries as stored (R, G, B, unused); absent for 1.0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub palette: Option<Vec<[u8; 4]>>,
}

fn is_empty(b: &Base64) -> bool {
    b.0.is_empty()
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrameDocument {
    pub width: u16,
    pub height: u16,
    /// The frame's PNG beside the document (written by `relic convert`; `pack` reads it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The stored bytes, base64 (see the module notes).
    pub data: Base64,
}

impl SprDocument {
    /// The document of a sprite; frames name no PNG.
    pub fn of(spr: &Spr) -> SprDocument {
        let palette_frames = spr
            .palette_frames
            .iter()
            .map(|f| {
                let data = match (&f.rle, spr.version.has_rle()) {
                    (Some(stored), true)
                        if rle::decode(stored, f.indices.len(), 0, 0).ok().as_ref() == Some(&f.indices) =>
                    {
                        stored.clone()
                    }
                    (_, true) => rle::encode(&f.indices),
                    (_, false) => f.indices.clone(),
                };
                FrameDocument { width: f.width, height: f.height, file: None, data: Base64(data) }
            })
            .collect();
        let rgba_frames = spr
            .rgba_frames
            .iter()
            .map(|f| FrameDocument { width: f.width, height: f.height, file: None, data: Base64(f.abgr.clone()) })
            .collect();
        SprDocument {
            format: FORMAT_ID.into(),
            version: spr.version,
            palette_frames,
            rgba_frames,
            trailing: Base64(spr.trailing.clone()),
            palette: spr.palette.map(|p| p.to_vec()),
        }
    }

    /// The sprite the document describes; a field that does not fit is named by its JSON path.
    pub fn to_spr(&self) -> Result<Spr> {
        if self.format != FORMAT_ID {
            return Err(json_error(FORMAT_ID, "format", &format!("`{}` is not `{FORMAT_ID}`", self.format)));
        }
        let v = self.version;
        let mut palette_frames = Vec::with_capacity(self.palette_frames.len());
        for (i, f) in self.palette_frames.iter().enumerate() {
            let pixels = usize::from(f.width) * usize::from(f.height);
            crate::limits::check_pixels(&format!("{FORMAT_ID} palette frame {i}"), f.width.into(), f.height.into())?;
            let frame = if v.has_rle() {
                let indices = rle::decode(&f.data.0, pixels, i, 0)
                    .map_err(|e| doc_error(&format!("palette_frames[{i}].data"), e))?;
                PaletteFrame { width: f.width, height: f.height, indices, rle: Some(f.data.0.clone()) }
            } else {
                check_len(&format!("palette_frames[{i}].data"), f.data.0.len(), pixels)?;
                PaletteFrame { width: f.width, height: f.height, indices: f.data.0.clone(), rle: None }
            };
            palette_frames.push(frame);
        }
        if !v.has_rgba() && !self.rgba_frames.is_empty() {
            return Err(json_error(FORMAT_ID, "rgba_frames", &format!("version {} has no RGBA frames", v.text())));
        }
        let mut rgba_frames = Vec::with_capacity(self.rgba_frames.len());
        for (i, f) in self.rgba_frames.iter().enumerate() {
            let size = usize::from(f.width) * usize::from(f.height) * 4;
            check_len(&format!("rgba_frames[{i}].data"), f.data.0.len(), size)?;
            rgba_frames.push(AbgrFrame { width: f.width, height: f.height, abgr: f.data.0.clone() });
        }
        let palette = match (&self.palette, v.has_palette()) {
            (Some(entries), true) => {
                let palette: [[u8; 4]; 256] = entries
                    .as_slice()
                    .try_into()
                    .map_err(|_| json_error(FORMAT_ID, "palette", &format!("{} entries, not 256", entries.len())))?;
                Some(palette)
            }
            (None, false) => None,
            (Some(_), false) => {
                return Err(json_error(FORMAT_ID, "palette", &format!("version {} has no palette", v.text())))
            }
            (None, true) => return Err(json_error(FORMAT_ID, "palette", &format!("version {} needs one", v.text()))),
        };
        Ok(Spr { version: v, palette_frames, rgba_frames, trailing: self.trailing.0.clone(), palette })
    }
}

fn check_len(path: &str, len: usize, want: usize) -> Result<()> {
    if len != want {
        return Err(json_error(FORMAT_ID, path, &format!("{len} bytes, not the {want} of the frame's size")));
    }
    Ok(())
}

/// A decoding error of a document's field, named by its JSON path (it has no file offset).
fn doc_error(path: &str, e: Error) -> Error {
    let message = match e {
        Error::InvalidData { message, .. } | Error::Limit { message, .. } => message,
        other => other.to_string(),
    };
    json_error(FORMAT_ID, path, &message)
}
