//! Views: outputs of `relic convert` that `relic pack` never reads (a sprite atlas, an RCD sheet). Their
//! names end in `.view.<ext>` ([`VIEW_SUFFIX`]), and a format's pack warns when a user edited the view (an
//! edit that would otherwise be lost without a word): when the record of the conversion
//! ([`crate::record`]) lists the view with its bytes' hash, the view is unedited and nothing is said,
//! whatever the sources give now (a frame edited); otherwise the view is compared with what the sources
//! give.

use std::path::Path;

use crate::asset::{Frame, Image, Pixels};

/// What a view's name carries before its extension: `unit.spr/atlas.view.png`.
pub const VIEW_SUFFIX: &str = ".view";

/// A frame's pixels as RGBA8, with the image's palette for indexed frames (an index past the palette is
/// transparent black). `None` for 16-bit grey frames, which views never hold.
pub fn frame_rgba(image: &Image, frame: &Frame) -> Option<Vec<u8>> {
    match &frame.pixels {
        Pixels::Rgba8(p) => Some(p.clone()),
        Pixels::Indexed(idx) => {
            let palette = image.palette.as_deref().unwrap_or(&[]);
            Some(idx.iter().flat_map(|&i| palette.get(usize::from(i)).copied().unwrap_or([0; 4])).collect())
        }
        Pixels::Gray16(_) => None,
    }
}

/// The note `pack` gives when the view PNG at `path` (if there is one) no longer shows what `expected` (its
/// first frame) is: its pixels were edited, or its size changed. `None` when it matches or is absent (a user
/// may delete views). Pixels are compared, not bytes, so another PNG compression is no difference; two
/// fully transparent pixels are equal whatever their colour.
pub fn view_note(path: &Path, expected: &Image, sources: &str) -> Option<String> {
    view_note_of(path, &crate::source::read(path).ok()?, expected, sources)
}

/// [`view_note`] for a view already read (`bytes`, from `path`), so that a caller that opened it without
/// following links reads that very file.
pub fn view_note_of(path: &Path, bytes: &[u8], expected: &Image, sources: &str) -> Option<String> {
    // Without a PNG decoder a view cannot be compared; saying it differs would be a false alarm.
    if cfg!(not(feature = "export")) {
        return None;
    }
    // The record of the conversion knows the view's bytes: unchanged since, it was not edited, whatever the
    // sources give now (a frame edited, a legitimate edit, makes another view). Changed, it is compared.
    if crate::record::view_unchanged(path, bytes) == Some(true) {
        return None;
    }
    let frame = expected.frames.first()?;
    let want = frame_rgba(expected, frame)?;
    let differs = match super::png::decode_rgba(bytes) {
        Err(_) => true,
        Ok(found) => match found.frames.first() {
            Some(Frame { width, height, pixels: Pixels::Rgba8(p), .. })
                if (*width, *height) == (frame.width, frame.height) =>
            {
                p.chunks_exact(4).zip(want.chunks_exact(4)).any(|(a, b)| a != b && !(a[3] == 0 && b[3] == 0))
            }
            _ => true,
        },
    };
    differs.then(|| {
        format!(
            "warning: {} is a view and was not packed back: it differs from what {sources} give (edit those \
             instead; convert again to refresh the view)",
            path.display()
        )
    })
}

#[cfg(all(test, feature = "export"))]
mod tests {
    use super::*;

    fn png_file(dir: &Path, name: &str, img: &Image) -> std::path::PathBuf {
        let path = dir.join(name);
        let bytes = super::super::png::encode_image(img).unwrap().remove(0).bytes;
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn an_edited_view_is_named_and_an_unedited_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let img = Image::single(2, 1, vec![1, 2, 3, 255, 0, 0, 0, 0], (0, 0), vec![]);
        let same = png_file(dir.path(), "same.view.png", &img);
        assert_eq!(view_note(&same, &img, "the frames"), None);
        // Another colour under full transparency is no edit.
        let clear = Image::single(2, 1, vec![1, 2, 3, 255, 9, 9, 9, 0], (0, 0), vec![]);
        let cleared = png_file(dir.path(), "clear.view.png", &clear);
        assert_eq!(view_note(&cleared, &img, "the frames"), None);
        let edited = Image::single(2, 1, vec![1, 2, 4, 255, 0, 0, 0, 0], (0, 0), vec![]);
        let path = png_file(dir.path(), "edited.view.png", &edited);
        let note = view_note(&path, &img, "the frames").unwrap();
        assert!(note.contains("edited.view.png is a view") && note.contains("the frames"), "{note}");
        let resized = Image::single(1, 1, vec![1, 2, 3, 255], (0, 0), vec![]);
        let path = png_file(dir.path(), "resized.view.png", &resized);
        assert!(view_note(&path, &img, "the frames").is_some());
        assert_eq!(view_note(&dir.path().join("absent.view.png"), &img, "the frames"), None);
    }

    #[test]
    fn indexed_frames_compare_through_their_palette() {
        let dir = tempfile::tempdir().unwrap();
        let mut img = Image::single(2, 1, vec![], (0, 0), vec![]);
        img.frames[0].pixels = Pixels::Indexed(vec![1, 0]);
        img.palette = Some(vec![[0, 0, 0, 0], [10, 20, 30, 255]]);
        let rgba = Image::single(2, 1, vec![10, 20, 30, 255, 0, 0, 0, 0], (0, 0), vec![]);
        let path = png_file(dir.path(), "p.view.png", &rgba);
        assert_eq!(view_note(&path, &img, "the frames"), None);
    }
}
