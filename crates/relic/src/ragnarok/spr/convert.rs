//! SPR to the common model: one PNG per frame (`pal_NNN`, `rgba_NNN`), the sheet view and the JSON
//! document naming the PNGs; the `relic info` summary; the palette `--palette` gives.

use serde_json::json;

use super::document::SprDocument;
use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Asset, Document, Frame, FrameRole, Image, NamedAsset, Pixels};
use crate::error::Result;
use crate::registry::ConvertOptions;

/// The sheet: a view (`sheet.view.png`), which `pack` never reads.
pub const SHEET_VIEW: &str = "sheet.view";

/// The PNG name (without `.png`) of palette frame `i`.
pub fn palette_frame_name(i: usize) -> String {
    format!("pal_{i:03}")
}

/// The PNG name (without `.png`) of RGBA frame `i`.
pub fn rgba_frame_name(i: usize) -> String {
    format!("rgba_{i:03}")
}

/// `relic info`: version, counts, sizes.
pub fn info(spr: &Spr) -> serde_json::Value {
    let sizes = |frames: Vec<(u16, u16)>| frames.into_iter().map(|(w, h)| format!("{w}x{h}")).collect::<Vec<_>>();
    json!({
        "format": FORMAT_ID,
        "version": spr.version.text(),
        "palette_frames": spr.palette_frames.len(),
        "rgba_frames": spr.rgba_frames.len(),
        "rle": spr.version.has_rle(),
        "palette": spr.palette.is_some(),
        "palette_frame_sizes": sizes(spr.palette_frames.iter().map(|f| (f.width, f.height)).collect()),
        "rgba_frame_sizes": sizes(spr.rgba_frames.iter().map(|f| (f.width, f.height)).collect()),
        "trailing_bytes": spr.trailing.len(),
    })
}

/// The palette of `--palette`: a Ragnarok `.pal` (1,024 bytes, R, G, B, unused per entry, as at the end of
/// an SPR), or any palette file [`crate::codec::palette::Palette::read`] knows.
pub fn palette_file(bytes: &[u8]) -> Result<[[u8; 4]; 256]> {
    let colors = if bytes.len() == PALETTE_SIZE {
        bytes.chunks_exact(4).map(|c| [c[0], c[1], c[2], 0]).collect()
    } else {
        crate::codec::palette::Palette::read(bytes, Default::default())?.colors
    };
    let mut out = [[0u8; 4]; 256];
    for (o, c) in out.iter_mut().zip(colors) {
        *o = c;
    }
    Ok(out)
}

/// The palette palette frames are drawn with: `--palette`, else the file's, else (1.0) greyscale, said in
/// a note.
pub fn drawing_palette(spr: &Spr, opts: &ConvertOptions) -> Result<[[u8; 4]; 256]> {
    let picked = crate::ragnarok::act::HeadSettings::of(opts).picked_palettes.as_ref().and_then(|p| p.main.as_ref());
    let given = match (picked, &opts.palette) {
        (Some((name, bytes)), _) => Some(GivenPalette::Bytes { name, bytes }),
        (None, Some(path)) => Some(GivenPalette::File(path)),
        (None, None) => None,
    };
    drawing_palette_from(spr, given, "--palette", opts)
}

/// A palette given for a sprite: a file (`--palette`), or a file's bytes (a palette the viewer picked).
#[derive(Debug, Clone, Copy)]
pub enum GivenPalette<'a> {
    File(&'a std::path::Path),
    Bytes { name: &'a str, bytes: &'a [u8] },
}

/// [`drawing_palette`] with the palette given (`given`; `flag` names the option in the note): a head drawn
/// over a body takes `--head-palette`, the body `--palette`.
pub fn drawing_palette_from(
    spr: &Spr,
    given: Option<GivenPalette<'_>>,
    flag: &str,
    opts: &ConvertOptions,
) -> Result<[[u8; 4]; 256]> {
    match given {
        Some(GivenPalette::File(path)) => {
            let bytes = crate::source::read(path)?;
            return palette_file(&bytes).map_err(|e| e.in_file(path));
        }
        Some(GivenPalette::Bytes { name, bytes }) => {
            return palette_file(bytes).map_err(|e| e.in_file(std::path::Path::new(name)));
        }
        None => {}
    }
    if let Some(p) = spr.palette {
        return Ok(p);
    }
    if !spr.palette_frames.is_empty() {
        opts.note(format!(
            "{FORMAT_ID}: version {} stores no palette; palette frames drawn in greyscale ({flag} gives one)",
            spr.version.text()
        ));
    }
    Ok(greyscale())
}

/// Index i as grey i: what a 1.0 sprite is drawn with without `--palette`.
pub fn greyscale() -> [[u8; 4]; 256] {
    let mut grey = [[0u8; 4]; 256];
    for (i, g) in (0..=255u8).zip(grey.iter_mut()) {
        *g = [i, i, i, 0];
    }
    grey
}

/// The frames as `convert` draws them, palette frames first: (PNG name, frame).
pub fn drawn_frames(spr: &Spr, palette: &[[u8; 4]; 256]) -> Result<Vec<(String, RgbaFrame)>> {
    let mut out = Vec::with_capacity(spr.palette_frames.len() + spr.rgba_frames.len());
    for (i, f) in spr.palette_frames_rgba(Some(palette))?.into_iter().enumerate() {
        out.push((palette_frame_name(i), f));
    }
    for (i, f) in spr.rgba_frames()?.into_iter().enumerate() {
        out.push((rgba_frame_name(i), f));
    }
    Ok(out)
}

/// The sheet: every frame side by side, top-aligned, in the order of [`drawn_frames`]; `None` when no
/// frame has pixels.
pub fn sheet(frames: &[(String, RgbaFrame)]) -> Result<Option<Image>> {
    let width: usize = frames.iter().map(|(_, f)| usize::from(f.width)).sum();
    let height = frames.iter().map(|(_, f)| usize::from(f.height)).max().unwrap_or(0);
    if width == 0 || height == 0 {
        return Ok(None);
    }
    let (w32, h32) = (u32::try_from(width).unwrap_or(u32::MAX), u32::try_from(height).unwrap_or(u32::MAX));
    crate::limits::check_pixels(&format!("{FORMAT_ID} sheet"), w32, h32)?;
    let mut rgba = vec![0u8; width * height * 4];
    let mut x0 = 0;
    for (_, f) in frames {
        let row = usize::from(f.width) * 4;
        if row > 0 {
            for (y, line) in f.rgba.chunks_exact(row).enumerate() {
                let start = (y * width + x0) * 4;
                if let Some(dst) = rgba.get_mut(start..start + row) {
                    dst.copy_from_slice(line);
                }
            }
        }
        x0 += usize::from(f.width);
    }
    Ok(Some(Image::single(w32, h32, rgba, (0, 0), vec![])))
}

/// The PNG palette of palette frames drawn through `palette`: its colours, index 0 transparent (tRNS 0),
/// every other index opaque.
pub fn png_palette(palette: &[[u8; 4]; 256]) -> Vec<[u8; 4]> {
    (0..).zip(palette).map(|(i, &[r, g, b, _])| [r, g, b, if i == 0 { 0 } else { 255 }]).collect()
}

/// A palette frame as an indexed image: its stored indices, with the palette it is drawn with (an
/// indexed PNG, which palette-aware editors keep as indices).
fn indexed_image(frame: &PaletteFrame, palette: &[[u8; 4]; 256]) -> Image {
    Image {
        frames: vec![Frame {
            name: None,
            width: frame.width.into(),
            height: frame.height.into(),
            pixels: Pixels::Indexed(frame.indices.clone()),
            offset: (0, 0),
            hotspots: vec![],
            role: FrameRole::Frame,
        }],
        palette: Some(png_palette(palette)),
        frame_rate: None,
        text: Vec::new(),
    }
}

/// `relic convert`: the frame PNGs (frames of no pixels have none), the sheet view and the document.
pub fn assets(spr: &Spr, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let palette = drawing_palette(spr, opts)?;
    let frames = drawn_frames(spr, &palette)?;
    let mut doc = SprDocument::of(spr);
    if spr.palette.as_ref() != Some(&palette) {
        doc.drawn_with = Some(palette.to_vec());
    }
    let mut out = Vec::with_capacity(frames.len() + 2);
    let view = sheet(&frames)?;
    for (k, (name, f)) in frames.into_iter().enumerate() {
        if f.width == 0 || f.height == 0 {
            continue;
        }
        let row = if k < doc.palette_frames.len() {
            doc.palette_frames.get_mut(k)
        } else {
            doc.rgba_frames.get_mut(k - doc.palette_frames.len())
        };
        if let Some(row) = row {
            row.file = Some(format!("{name}.png"));
        }
        let image = match spr.palette_frames.get(k) {
            Some(frame) => indexed_image(frame, &palette),
            None => Image::single(f.width.into(), f.height.into(), f.rgba, (0, 0), vec![]),
        };
        out.push(NamedAsset { name: Some(name), asset: Asset::Image(image) });
    }
    if let Some(image) = view {
        out.push(NamedAsset { name: Some(SHEET_VIEW.into()), asset: Asset::Image(image) });
    }
    let value = crate::registry::document_json(FORMAT_ID, &doc)?;
    out.push(NamedAsset { name: None, asset: Asset::Document(Document { value, tables: vec![] }) });
    Ok(out)
}
