//! What a Ragnarok body is drawn with besides its own sprite (`relic convert --with --head-palette`, `relic
//! view`'s head and palette pickers), given in [`crate::registry::ConvertOptions::typed_settings`].

use std::path::PathBuf;
use std::sync::Arc;

use crate::registry::ConvertOptions;

/// A head drawn over a body ACT, and the palettes picked for either.
#[derive(Debug, Clone, Default)]
pub struct HeadSettings {
    /// A head ACT drawn over the body (`--with`); its SPR is the one of the same name beside it.
    pub with: Option<PathBuf>,
    /// The same head given as bytes, with its sprite (`relic view`'s head picked among the entries of a
    /// GRF, which have no path); `with` wins when both are set.
    pub with_files: Option<Arc<WithFiles>>,
    /// The palette the head's sprite is drawn with (`--head-palette`: a hair dye), as `--palette` is for
    /// the body's; the head's own palette when absent.
    pub head_palette: Option<PathBuf>,
    /// Palettes given as bytes (`relic view`'s palette pickers, whose palettes may be entries of a GRF):
    /// the sprite's own and the head's; each wins over `--palette` and `head_palette`.
    pub picked_palettes: Option<Arc<PickedPalettes>>,
}

impl HeadSettings {
    /// The settings in `opts`, none when not given.
    pub fn of(opts: &ConvertOptions) -> &HeadSettings {
        static NONE: HeadSettings =
            HeadSettings { with: None, with_files: None, head_palette: None, picked_palettes: None };
        opts.settings_of::<HeadSettings>().unwrap_or(&NONE)
    }
}

/// A head ACT given as bytes, and its SPR (see [`HeadSettings::with_files`]).
#[derive(Debug)]
pub struct WithFiles {
    /// Its name, for messages.
    pub name: String,
    pub main: Vec<u8>,
    pub companion: Vec<u8>,
}

/// Palettes picked as files' bytes (see [`HeadSettings::picked_palettes`]): each `(name, bytes)`, the name
/// for messages.
#[derive(Debug, Default)]
pub struct PickedPalettes {
    /// The palette of the file being converted (a body, or a sprite on its own).
    pub main: Option<(String, Vec<u8>)>,
    /// The palette of the head drawn over it (`with`).
    pub with: Option<(String, Vec<u8>)>,
}
