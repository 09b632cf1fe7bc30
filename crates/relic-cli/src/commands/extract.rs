//! `relic extract`: an archive's entries into a folder.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use relic::ops;

use crate::batch::Batch;
use crate::commands::{format_by_id, output_folder};
use crate::failure::{exit_code, Failure};
use crate::limits::LimitArgs;
use crate::output::{count, json_help, print_json, quiet_help, shown, Context, OutputArgs};
use crate::progress::Bar;

/// Extract an archive's entries, keeping folders and modification times
#[derive(clap::Args)]
#[command(
    after_help = "Patterns match an entry's path or its file name, ASCII case ignored; `\\` and `/` both separate \
folders (a backslash is never an escape: `[*]` matches a literal `*`). A pattern that matches no entry is a \
warning, and relic exits 1.\n\nExamples:\n  relic extract -o texts texts.res\n  relic extract -o models --recursive models.res '*.bon'\n  relic extract data.grf 'data\\texture\\*.bmp'"
)]
#[command(mut_args(quiet_help("Print nothing but errors and warnings (and the --json output)")))]
#[command(mut_args(json_help("Print the manifest of written files as JSON")))]
pub struct Args {
    /// Output folder (default: the archive's name without its extension, `textures.res` → `textures`; an
    /// archive without one, `data`, → `data.extracted`)
    #[arg(short, long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Descend into nested archives; each becomes a folder named after its entry
    #[arg(long, short)]
    pub recursive: bool,
    /// Overwrite existing files
    #[arg(long, short, conflicts_with = "skip_existing")]
    pub force: bool,
    /// Keep the files an earlier extraction left and write only the missing ones (without it or --force,
    /// a folder holding any of them is refused before anything is written)
    #[arg(long)]
    pub skip_existing: bool,
    #[command(flatten)]
    pub print: OutputArgs,
    /// Read the archive (every listed one) as this format instead of identifying it (see `relic formats`)
    #[arg(long, value_name = "FORMAT_ID")]
    pub format: Option<String>,
    #[command(flatten)]
    pub batch: Batch,
    /// The archive (with --files-from: none; each listed archive goes to a folder of its own, named
    /// after its whole file name below the folder all listed archives share)
    #[arg(required_unless_present = "files_from")]
    pub archive: Option<PathBuf>,
    /// Only entries whose path or file name matches (case-insensitive; `\` or `/` between folders)
    pub globs: Vec<String>,
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: Args, ctx: &mut Context) -> Result<ExitCode, Failure> {
    args.limits.apply();
    let Args {
        output,
        recursive,
        force,
        skip_existing,
        print: OutputArgs { quiet, json },
        format,
        batch,
        archive,
        mut globs,
        ..
    } = args;
    let out = &mut ctx.out;
    let format = format.as_deref().map(format_by_id).transpose()?;
    if let Some(dir) = &output {
        output_folder(dir)?;
    }
    let bar = Bar::new(quiet, true);
    let (report, out_dir, problems) = if let Some(list) = &batch.files_from {
        // With a list, every positional is a pattern.
        globs.splice(0..0, archive.map(|a| a.to_string_lossy().into_owned()));
        let archives = ops::read_files_from(list)?;
        let out_dir = output.unwrap_or_else(|| PathBuf::from("."));
        let opts = ops::ExtractOptions { recursive, force, skip_existing, globs, format };
        let report = ops::extract_many(&archives, &out_dir, &opts, batch.shard, &bar);
        let mut summary = ops::Report::new("extract", batch.shard, &[]);
        summary.inputs = ops::Shard::select(batch.shard, archives, |p| p.as_path())
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        summary.outputs = report.written.iter().map(|w| w.output.clone()).collect();
        summary.bytes = report.bytes;
        let problems = extract_problems(&report, "the listed archives");
        summary.failures = problems.clone();
        batch.write_report(summary)?;
        (report, out_dir, problems)
    } else {
        let archive = archive.ok_or_else(|| Failure::Usage("no archive named".into()))?;
        let out_dir = output.unwrap_or_else(|| default_folder(&archive));
        let opts = ops::ExtractOptions { recursive, force, skip_existing, globs, format };
        let report = ops::extract(&archive, &out_dir, &opts, &bar)?;
        let mut summary = ops::Report::new("extract", None, std::slice::from_ref(&archive));
        summary.outputs = report.written.iter().map(|w| w.output.clone()).collect();
        summary.bytes = report.bytes;
        let problems = extract_problems(&report, &archive.display().to_string());
        summary.failures = problems.clone();
        batch.write_report(summary)?;
        (report, out_dir, problems)
    };
    drop(bar);
    if json {
        print_json(out, &report.written)?;
    }
    for f in &problems {
        say!("relic: {f}");
    }
    if !json && !quiet {
        let mut line = format!(
            "extracted {} ({} bytes) to {}",
            count(report.written.len(), "file", "files"),
            report.bytes,
            out_dir.display()
        );
        if report.kept > 0 {
            line += &format!(", kept {} already there", count(report.kept, "file", "files"));
        }
        if !report.failures.is_empty() {
            line += &format!(", {} failed", report.failures.len());
        }
        say!("{line}");
    }
    Ok(exit_code(&problems))
}

/// What `extract` prints and exits 1 for: the entries that failed, then a warning for each pattern that
/// matched no entry of `archives`.
fn extract_problems(report: &ops::ExtractReport, archives: &str) -> Vec<String> {
    let warnings = report.unmatched.iter().map(|g| {
        format!(
            "warning: the pattern `{}` matches no entry of {} (patterns match entry paths or file names, any case, \
             `\\` or `/` between folders; `relic ls` lists the entries)",
            shown(g),
            shown(archives)
        )
    });
    report.failures.iter().cloned().chain(warnings).collect()
}

/// `extract`'s folder without -o: the archive's name without its extension (`textures.res` → `textures`).
/// An archive without an extension (`data`) would name itself, so it gets `data.extracted`.
fn default_folder(archive: &Path) -> PathBuf {
    let Some(name) = archive.file_name() else { return PathBuf::from("extracted") };
    match archive.file_stem() {
        Some(stem) if stem != name => PathBuf::from(stem),
        _ => {
            let mut folder = name.to_os_string();
            folder.push(".extracted");
            PathBuf::from(folder)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_archive_without_extension_never_extracts_into_itself() {
        assert_eq!(default_folder(Path::new("game/textures.res")), PathBuf::from("textures"));
        assert_eq!(default_folder(Path::new("game/data")), PathBuf::from("data.extracted"));
        assert_eq!(default_folder(Path::new(".grf")), PathBuf::from(".grf.extracted"));
        assert_eq!(default_folder(Path::new("/")), PathBuf::from("extracted"));
    }
}
