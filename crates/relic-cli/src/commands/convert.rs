//! `relic convert`: files, folders and archives to open formats.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use relic::ops;

use crate::batch::Batch;
use crate::commands::{format_by_id, output_folder, LookupArgs};
use crate::failure::{exit_code, Failure};
use crate::limits::LimitArgs;
use crate::output::{count, json_help, print_json, quiet_help, Context, OutputArgs};
use crate::progress::Bar;

/// Convert files, folders and archives to open formats (PNG, WAV, glTF, JSON)
#[derive(clap::Args)]
#[command(after_help = "\
Where outputs go: a file at REL/NAME below the root writes out/REL/NAME.<ext> when it
makes one file (intro.cam -> intro.cam.json, unit.mmp -> unit.mmp.png) and out/REL/NAME/...
when it makes several (an index document, for some formats, beside it as out/REL/NAME.json);
an archive's entries go into out/REL/NAME/ by the same rule. The root is --base, else the
deepest folder holding every input (a folder input counts as itself). Names follow from each
input's name alone, two inputs never share an output, N shards write what one run would, and
the output folder is never walked into. Files named *.view.* are views: `relic pack` does not
read them and warns when they were edited.

Examples:
  relic convert -o out samples
  relic convert --to json -o out texts.res
  relic convert --json -o out textures.res > manifest.json
  relic convert --morph 1,0,0.5 --textures Res/textures.res -o out unhufe.mod
  relic convert --with head.act --palette body_red.pal --head-palette hair_blue.pal -o out body.act
  find game -name '*.cam' > list.txt && relic convert --files-from list.txt --base game -o out")]
#[command(mut_args(quiet_help("Print nothing but errors and warnings (and the --json output)")))]
#[command(mut_args(json_help("Print the manifest of written files as JSON")))]
pub struct Args {
    /// Output folder
    #[arg(short, long, value_name = "DIR", default_value = ".")]
    pub output: PathBuf,
    /// The folder output paths are taken relative to (default: the deepest folder holding every input)
    #[arg(long, value_name = "DIR")]
    pub base: Option<PathBuf>,
    /// Output extension (json for the file's own data; default: the natural format of each asset)
    #[arg(long, value_name = "EXT")]
    pub to: Option<String>,
    /// Write every mip level of textures
    #[arg(long)]
    pub mips: bool,
    #[command(flatten)]
    pub lookup: LookupArgs,
    /// A figure's bone offsets (Evil Islands `.bon`), instead of the one beside the model
    #[arg(long, value_name = "FILE")]
    pub bones: Option<PathBuf>,
    /// A figure's animations (Evil Islands `.anm` RES), instead of the one beside the model
    #[arg(long, value_name = "FILE")]
    pub anims: Option<PathBuf>,
    /// A second file drawn with each input: a Ragnarok head `.act` (its `.spr` beside it) over a body `.act`
    #[arg(long, value_name = "FILE")]
    pub with: Option<PathBuf>,
    /// The palette the --with sprite is drawn with (a Ragnarok head's hair dye; --palette dyes the input's own sprite only); default: its own
    #[arg(long, value_name = "FILE", requires = "with")]
    pub head_palette: Option<PathBuf>,
    /// A figure's morph: strength, dexterity and height, each from 0 to 1 (default 0,0,0)
    #[arg(long, value_name = "STR,DEX,HEIGHT", value_parser = parse_morph)]
    pub morph: Option<[f32; 3]>,
    /// Read every input as this format instead of identifying it (formats never sniffed, e.g. dr-ftg-spr)
    #[arg(long, value_name = "FORMAT_ID")]
    pub format: Option<String>,
    /// A format's choice for an unsettled layout, e.g. `ei-cam.time=f32` (see `relic formats`)
    #[arg(long = "option", value_name = "KEY=VALUE", value_parser = parse_setting)]
    pub settings: Vec<(String, String)>,
    /// PNG compression: fast (the default: fdeflate), default (zlib 6) or best (zlib 9), each with its filters
    #[arg(long, value_name = "LEVEL", default_value = "fast", value_parser = parse_compression)]
    pub compression: relic::export::png::PngCompression,
    /// Overwrite existing files
    #[arg(long, short, conflicts_with = "skip_existing")]
    pub force: bool,
    /// Keep the files an earlier conversion left and write only the missing ones (without it or --force,
    /// the files already there are one refusal, counted, and relic exits 1)
    #[arg(long)]
    pub skip_existing: bool,
    #[command(flatten)]
    pub print: OutputArgs,
    #[command(flatten)]
    pub batch: Batch,
    /// Files, folders and archives to convert
    #[arg(required_unless_present = "files_from")]
    pub inputs: Vec<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: Args, ctx: &mut Context) -> Result<ExitCode, Failure> {
    args.limits.apply();
    let Args {
        output,
        base,
        to,
        mips,
        lookup: LookupArgs { textures, models, palette },
        bones,
        anims,
        with,
        head_palette,
        morph,
        format,
        settings,
        compression,
        force,
        skip_existing,
        print: OutputArgs { quiet, json },
        batch,
        inputs,
        ..
    } = args;
    let out = &mut ctx.out;
    output_folder(&output)?;
    let listed = batch.files_from.is_some();
    let inputs = batch.inputs(inputs)?;
    let format = format.as_deref().map(format_by_id).transpose()?;
    let options = relic::registry::ConvertOptions {
        mips,
        textures,
        models,
        palette,
        settings,
        compression,
        ..Default::default()
    }
    .with_settings(relic::evil_islands::FigureSettings { bones, anims, morph })
    .with_settings(relic::ragnarok::act::HeadSettings { with, head_palette, ..Default::default() });
    let req = ops::ConvertRequest { to, force, skip_existing, options, format, shard: batch.shard, listed, base };
    ops::check_convert_request(&inputs, &req).map_err(Failure::Usage)?;
    let bar = Bar::new(quiet, false);
    let report = ops::convert(&inputs, &output, &req, &bar);
    drop(bar);
    let mut summary = ops::Report::new("convert", batch.shard, &[]);
    summary.inputs = report.inputs.clone();
    summary.outputs = report.outputs.iter().map(|o| o.output.clone()).collect();
    summary.failures = report.failures.clone();
    summary.skipped = report.skipped.clone();
    batch.write_report(summary)?;
    if json {
        let mut manifest = serde_json::json!({
            "outputs": report.outputs,
            "failures": report.failed,
            "skipped": report.skipped,
            "existing": report.existing,
            "warnings": report.warnings,
            "missing": report.missing,
            "missing_summary": report.missing_summary,
        });
        // relic's records of what was written (`<input>.relic.json`, see `relic::record`), when any.
        if !report.records.is_empty() {
            manifest["records"] = serde_json::json!(report.records);
        }
        print_json(out, &manifest)?;
    }
    // The outputs already there, said once and first (as `extract` says it), not once per file.
    if let Some(refusal) = &report.existing_refusal {
        say!("relic: {refusal}");
    }
    // Each names its input, once (a texture two models lack is said for each).
    for warning in &report.warnings {
        say!("relic: warning: {warning}");
    }
    if !quiet && !json {
        for line in skipped_lines(&report.skipped) {
            say!("{line}");
        }
    }
    for f in report.failures.iter().skip(usize::from(report.existing_refusal.is_some())) {
        say!("relic: {f}");
    }
    // What the batch did not find, in one line per kind, after the warnings that name each.
    for line in &report.missing_summary {
        say!("relic: warning: in all, {line}");
    }
    if !quiet && !json {
        say!("{}", convert_summary(&report, &output));
    }
    Ok(exit_code(&report.failures))
}

/// `--compression fast|default|best`.
fn parse_compression(s: &str) -> Result<relic::export::png::PngCompression, String> {
    relic::export::png::PngCompression::from_name(s).ok_or_else(|| {
        format!("`{s}` is not a compression level ({})", relic::export::png::PngCompression::NAMES.join(", "))
    })
}

/// `--morph STR,DEX,HEIGHT`: three numbers from 0 to 1.
fn parse_morph(text: &str) -> Result<[f32; 3], String> {
    let values: Vec<f32> =
        text.split(',').map(|v| v.trim().parse::<f32>()).collect::<Result<_, _>>().map_err(|e| e.to_string())?;
    match values.as_slice() {
        [s, d, h] if values.iter().all(|v| (0.0..=1.0).contains(v)) => Ok([*s, *d, *h]),
        _ => Err(format!("`{text}` is not three numbers from 0 to 1 (strength, dexterity, height)")),
    }
}

/// `KEY=VALUE` of `--option`.
fn parse_setting(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => Err(format!("`{text}` is not KEY=VALUE (e.g. ei-cam.time=f32)")),
    }
}

/// The last line of `relic convert`: what was written (the file itself when there is one), then what failed
/// and what was skipped, counted.
fn convert_summary(report: &ops::ConvertReport, output: &Path) -> String {
    let mut line = match report.outputs.as_slice() {
        [one] => format!("wrote {}", one.output),
        all => format!("wrote {} to {}", count(all.len(), "file", "files"), output.display()),
    };
    // The outputs already there: kept (--skip-existing), or the one refusal, not counted as a failed input.
    let refused = usize::from(report.existing_refusal.is_some());
    if !report.existing.is_empty() {
        let verb = if refused == 1 { "left" } else { "kept" };
        line += &format!(", {verb} {} already there", count(report.existing.len(), "file", "files"));
    }
    if report.failures.len() > refused {
        line += &format!(", {} failed", report.failures.len() - refused);
    }
    if !report.skipped.is_empty() {
        line += &format!(", {} skipped", report.skipped.len());
    }
    line
}

/// Skipped files for a person: one line each when there are few; otherwise one line per reason, counted
/// (`--json` and `--report` list every file).
fn skipped_lines(skipped: &[String]) -> Vec<String> {
    if skipped.len() <= 5 {
        return skipped.iter().map(|s| format!("skipped {s}")).collect();
    }
    // Grouped by reason, the format id taken out of it (`ei-mmp cannot be made into csv` and `ro-rsm cannot
    // be made into csv` are one line naming both).
    let mut reasons: std::collections::BTreeMap<&str, (usize, &str, std::collections::BTreeSet<&str>)> =
        Default::default();
    for s in skipped {
        // `path: reason`; the path may itself hold ": ", the reason never does.
        let (path, reason) = s.rsplit_once(": ").unwrap_or(("", s.as_str()));
        let (id, rest) = match reason.split_once(' ') {
            Some((id, rest)) if relic::registry::by_id(id).is_some() => {
                (Some(id), rest.strip_prefix("is ").unwrap_or(rest))
            }
            _ => (None, reason),
        };
        let e = reasons.entry(rest).or_insert((0, path, Default::default()));
        e.0 += 1;
        e.2.extend(id);
    }
    reasons
        .into_iter()
        .map(|(reason, (n, first, ids))| {
            let ids = if ids.is_empty() {
                String::new()
            } else {
                format!("{}; ", ids.into_iter().collect::<Vec<_>>().join(", "))
            };
            format!("skipped {}: {reason} ({ids}the first: {first})", count(n, "file", "files"))
        })
        .collect()
}
