//! One module per subcommand, each with its `Args` and `run`; what several share.

use std::path::{Path, PathBuf};

use crate::failure::Failure;

pub mod check;
pub mod completions;
pub mod convert;
pub mod edit;
pub mod extract;
pub mod formats;
pub mod identify;
pub mod info;
pub mod ls;
pub mod man;
pub mod merge_reports;
pub mod pack;
pub mod view;

/// Where conversions look beyond the files beside each input: the same flags for `convert` and `view`.
#[derive(clap::Args, Debug, Clone)]
pub struct LookupArgs {
    /// Where models find their textures: a folder or an archive (e.g. a GRF)
    #[arg(long, value_name = "DIR_OR_ARCHIVE")]
    pub textures: Option<PathBuf>,
    /// Where maps find their models: a folder or an archive (e.g. a GRF); a Ragnarok map looks in its own GRF or client folder first
    #[arg(long, value_name = "DIR_OR_ARCHIVE")]
    pub models: Option<PathBuf>,
    /// The palette for indexed images: PALS, JASC-PAL, RIFF PAL, raw 768-byte RGB or 1024-byte RGBX (Ragnarok `.pal`)
    #[arg(long, value_name = "FILE")]
    pub palette: Option<PathBuf>,
}

/// A format named on the command line (`--format`, `pack FORMAT`); an unknown id is a usage error that
/// suggests the nearest id (`ei-rse` → `ei-res`), or lists them all when none is near.
pub fn format_by_id(id: &str) -> Result<&'static relic::Format, Failure> {
    relic::registry::by_id(id).ok_or_else(|| {
        let typed = id.to_ascii_lowercase();
        // Two edits (a transposition counting as one) cover a typo without suggesting an unrelated id.
        let nearest = relic::FORMATS
            .iter()
            .map(|f| (strsim::damerau_levenshtein(&typed, f.id), f.id))
            .min()
            .filter(|&(distance, _)| distance <= 2);
        Failure::Usage(match nearest {
            Some((_, near)) => format!("unknown format `{id}`; did you mean `{near}`?"),
            None => {
                let ids: Vec<&str> = relic::FORMATS.iter().map(|f| f.id).collect();
                format!("unknown format `{id}` (one of {})", ids.join(", "))
            }
        })
    })
}

/// `-o` of a command that writes into a folder: a file of that name is a mistake worth saying in words.
pub fn output_folder(path: &Path) -> Result<(), Failure> {
    if path.is_file() {
        return Err(Failure::Usage(format!("`{}` is a file; -o needs a folder (or a new name)", path.display())));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mistyped_format_id_is_answered_with_the_nearest() {
        let message = |id| match format_by_id(id) {
            Err(Failure::Usage(m)) => m,
            _ => panic!("{id} accepted"),
        };
        assert_eq!(message("ei-rse"), "unknown format `ei-rse`; did you mean `ei-res`?");
        assert_eq!(message("RO-GRF2"), "unknown format `RO-GRF2`; did you mean `ro-grf`?");
        assert!(message("zip").starts_with("unknown format `zip` (one of ei-res, "), "{}", message("zip"));
    }
}
