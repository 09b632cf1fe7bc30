//! `relic check`: read every file, write it back, compare.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use relic::ops;

use crate::batch::Batch;
use crate::commands::format_by_id;
use crate::failure::{finish, Failure};
use crate::limits::LimitArgs;
use crate::output::{json_before_quiet, json_help, print_json, quiet_help, shown, Context, OutputArgs};
use crate::progress::Bar;

/// Read every file, write it back, and report what does not come back byte for byte
#[derive(clap::Args)]
#[command(
    after_help = "The last line (on standard error) counts the outcomes: `check: 12 identical, 1 differs, 2 failed` \
(then `N read`, not written yet, and `N unknown` when there are any).\n\nExamples:\n  relic check game/\n  relic check --json game/Res/*.res > report.json"
)]
#[command(mut_args(quiet_help(
    "Print nothing but errors (and the --json output): the exit code says whether all came back"
)))]
#[command(mut_args(json_help(
    "Print a JSON object: the counts (identical, differs, failed, read, unknown) and `files`, one item each"
)))]
// --json before -q, as this subcommand has always listed them.
#[command(mut_args(json_before_quiet))]
pub struct Args {
    #[command(flatten)]
    pub print: OutputArgs,
    /// Read every file as this format instead of identifying it (see `relic formats`)
    #[arg(long, value_name = "FORMAT_ID")]
    pub format: Option<String>,
    #[command(flatten)]
    pub batch: Batch,
    /// Files and folders to check
    #[arg(required_unless_present = "files_from")]
    pub inputs: Vec<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: Args, ctx: &mut Context) -> Result<ExitCode, Failure> {
    args.limits.apply();
    let Args { print: OutputArgs { quiet, json }, format, batch, inputs, .. } = args;
    let out = &mut ctx.out;
    let format = format.as_deref().map(format_by_id).transpose()?;
    let inputs = batch.inputs(inputs)?;
    let bar = Bar::new(quiet, false);
    let items = ops::check_as(&inputs, batch.shard, format, &bar);
    drop(bar);
    let failures: Vec<String> = items
        .iter()
        .filter(|i| matches!(i.outcome, "differs" | "failed"))
        .map(|i| format!("{}: {} ({})", i.path, i.outcome, i.detail.as_deref().unwrap_or("")))
        .collect();
    let mut summary = ops::Report::new("check", batch.shard, &[]);
    summary.inputs = items.iter().map(|i| i.path.clone()).collect();
    summary.outputs = items.iter().map(|i| format!("{}: {}", i.path, i.outcome)).collect();
    summary.failures = failures.clone();
    batch.write_report(summary)?;
    // What a file needs and its folder lacks (a model's textures), though it reads and writes back.
    if !quiet {
        for i in &items {
            for w in &i.warnings {
                say!("relic: warning: {}: {w}", shown(&i.path));
            }
        }
    }
    let counts = ["identical", "differs", "failed", "read", "unknown"]
        .map(|outcome| (outcome, items.iter().filter(|i| i.outcome == outcome).count()));
    if json {
        print_json(out, &ops::check_summary(&items))?;
    } else if !quiet {
        for i in &items {
            outln!(out, "{:<9} {:<12} {}", i.outcome, i.format.unwrap_or("-"), shown(&i.path));
        }
    }
    let code = finish(&failures);
    if !quiet && !json {
        // The first three always (a script can read them), `read` (not written yet) and `unknown` when any.
        let counts: Vec<String> = counts
            .iter()
            .enumerate()
            .filter(|&(i, &(_, n))| i < 3 || n > 0)
            .map(|(_, (outcome, n))| format!("{n} {outcome}"))
            .collect();
        say!("check: {}", counts.join(", "));
    }
    Ok(code)
}
