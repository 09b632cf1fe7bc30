//! Dark Reign: The Future of War (Auran). Spec: the Dark Reign SPR/FTG specification ("Dark Reign File Formats"), with
//! the Dark Reign part of relic's corrections to the specs (FTG magic, sprite tables, hotspots, palettes).
//!
//! - `ftg/` (`dr-ftg`): FTG archives.
//! - `spr/` (`dr-spr`): RSPR/SSPR sprites (and the `LSPR` / 0x0200 variants).
//! - `ftg_spr/` (`dr-ftg-spr`): the spec's headerless FTG sprite layout, never sniffed.
//! - `pal/` (`dr-pal`): PALS palettes.
//!
//! Sprites are palette-indexed; [`palette_for`] finds the palette they are drawn with.
//!
//! Each format's document type, by format id: `read(&bytes)` parses a file as the registry's codec does, and
//! `to_bytes()` writes it back (the same bytes when nothing was edited).
//!
//! | Format id | Document type | What `read` gives |
//! |---|---|---|
//! | `dr-ftg` | [`ftg::Ftg`] (owned: [`ftg::FtgDocument`]) | the directory, file data borrowed |
//! | `dr-pal` | [`pal::Pals`] | the six 6-bit planes and the game's tables |
//! | `dr-spr` | [`spr::SprDocument`] | header, sections, pictures (run-length data) and hotspots |
//! | `dr-ftg-spr` | [`ftg_spr::FtgSprDocument`] | the frames: sizes, hotspots, palette indices |

pub mod ftg;
pub mod ftg_spr;
pub mod pal;
pub mod spr;

use std::path::Path;

use crate::codec::palette::{Palette, SixBitScaling};
use crate::error::Result;
use crate::registry::{ConvertOptions, FormatOption};

/// `--option dr-pal.scaling=replicate|x4`: how PALS 6-bit channels become 8-bit (docs/formats/dark-reign.md#pal-scaling: unsettled;
/// `(v<<2)|(v>>4)` reaches 255 and is the default, `x4` matches palettes converted by public tools).
pub const SCALING_OPTION: FormatOption = FormatOption { key: "dr-pal.scaling", values: &["replicate", "x4"] };

/// The 6-bit scaling the options ask for.
pub fn scaling(opts: &ConvertOptions) -> SixBitScaling {
    opts.setting(SCALING_OPTION.key).and_then(SixBitScaling::from_name).unwrap_or_default()
}

/// The palette a sprite is drawn with: `--palette`; else the `.PAL` of the FTG being converted; else the one
/// `.pal` file beside `beside` (the sprite's own path; the first by name when there are several, said in a
/// note); else a greyscale ramp, with a one-line note. Index 0 is made transparent (spec: "index 0 is always transparent").
pub fn palette_for(opts: &ConvertOptions, beside: Option<&Path>) -> Result<Palette> {
    let scale = scaling(opts);
    if let Some(path) = &opts.palette {
        return Ok(Palette::read_file(path, scale)?.with_transparent(0));
    }
    if let Some(palette) = &opts.archive_palette {
        return Ok(palette.as_ref().clone().with_transparent(0));
    }
    if let Some(dir) = beside.and_then(Path::parent) {
        let mut found: Vec<std::path::PathBuf> =
            std::fs::read_dir(if dir.as_os_str().is_empty() { Path::new(".") } else { dir })
                .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
                .unwrap_or_default();
        found.retain(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pal")) && p.is_file());
        // Under `relic view`'s root a palette that is a link (it may lead anywhere) is passed over.
        found.retain(|p| crate::paths::may_look_in(opts.nearby.confine(), p));
        found.sort();
        if let Some(first) = found.first() {
            if found.len() > 1 {
                opts.note(format!(
                    "{} palettes beside the sprites; using {} (--palette picks another)",
                    found.len(),
                    first.display()
                ));
            }
            return Ok(Palette::read_file(first, scale)?.with_transparent(0));
        }
    }
    // Not on disk, its folder's files given (the browser's): the same rule over their names.
    if let Some(files) = opts.nearby.folder().filter(|_| beside.is_none()) {
        let mut found: Vec<String> = files.names();
        found.retain(|n| n.rsplit_once('.').is_some_and(|(_, e)| e.eq_ignore_ascii_case("pal")));
        found.sort();
        if let Some((first, bytes)) = found.first().and_then(|first| Some((first, files.read(first)?))) {
            if found.len() > 1 {
                opts.note(format!(
                    "{} palettes beside the sprites; using {first} (--palette picks another)",
                    found.len()
                ));
            }
            return Ok(Palette::read(&bytes, scale)?.with_transparent(0));
        }
    }
    opts.note("no palette found (give --palette, or put the tileset's .PAL beside the sprites): drawn in greyscale");
    Ok(Palette::greyscale().with_transparent(0))
}
