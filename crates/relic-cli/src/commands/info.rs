//! `relic info`: a file's header summary.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use relic::ops;

use crate::commands::format_by_id;
use crate::failure::Failure;
use crate::limits::LimitArgs;
use crate::output::{json_help, print_json, quiet_help, shown, Context, OutputArgs};

/// Show a file's header summary (times as the raw value and in UTC)
#[derive(clap::Args)]
#[command(after_help = "Example:\n  relic info --json texts.res")]
#[command(mut_args(quiet_help(
    "Print nothing but errors (and the --json output): the exit code says whether the file reads"
)))]
#[command(mut_args(json_help(
    "Print the summary as a JSON object (a time as the raw value, and as ISO 8601 in `<name>_utc`)"
)))]
pub struct Args {
    #[command(flatten)]
    pub print: OutputArgs,
    /// Read the file as this format instead of identifying it (see `relic formats`)
    #[arg(long, value_name = "FORMAT_ID")]
    pub format: Option<String>,
    /// The file to summarise
    pub file: PathBuf,
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: Args, ctx: &mut Context) -> Result<ExitCode, Failure> {
    args.limits.apply();
    let Args { print: OutputArgs { quiet, json }, format, file, .. } = args;
    let out = &mut ctx.out;
    let forced = format.as_deref().map(format_by_id).transpose()?;
    let (format, value) = ops::info_as(&file, forced)?;
    if json {
        print_json(out, &value)?;
    } else if !quiet {
        outln!(out, "{}: {} ({})", shown(&file.display().to_string()), format.name, format.id);
        if let serde_json::Value::Object(map) = &value {
            for (k, v) in map.iter().filter(|(k, _)| *k != "format") {
                // A time's UTC form goes on its raw value's line: `newest_time: 1700000000
                // (2023-11-14T22:13:20Z)`.
                if k.strip_suffix("_utc").is_some_and(|raw| map.contains_key(raw)) {
                    continue;
                }
                let mut text = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
                if let Some(utc) = map.get(&format!("{k}_utc")).and_then(|u| u.as_str()) {
                    text += &format!(" ({utc})");
                }
                outln!(out, "  {}: {}", shown(k), shown(&text));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
