//! `relic merge-reports`: the reports of a sharded run as one.

use std::path::PathBuf;
use std::process::ExitCode;

use relic::ops;

use crate::failure::Failure;
use crate::output::{json_help, print_json, quiet_help, Context, OutputArgs};

/// Combine the `--report` files of a sharded run into one (refuses overlaps; names missing shards)
#[derive(clap::Args)]
#[command(after_help = "Example:\n  relic merge-reports -o all.json reports/*.json")]
#[command(mut_args(quiet_help("Print nothing but errors and warnings (and the --json output)")))]
#[command(mut_args(json_help("Print the merged report as JSON on standard output, also when -o writes it")))]
pub struct Args {
    /// Write the merged report here instead of standard output
    #[arg(short, long, value_name = "FILE.json")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub print: OutputArgs,
    /// The reports `--report` wrote, one per shard
    #[arg(required = true)]
    pub reports: Vec<PathBuf>,
}

pub fn run(args: Args, ctx: &mut Context) -> Result<ExitCode, Failure> {
    let Args { output, print: OutputArgs { quiet, json }, reports } = args;
    let out = &mut ctx.out;
    let reports = reports.iter().map(|p| ops::Report::read(p)).collect::<relic::Result<Vec<_>>>()?;
    let (merged, notes) = ops::merge_reports(reports)?;
    for note in &notes {
        say!("relic: warning: {note}");
    }
    if json {
        print_json(out, &merged)?;
    }
    match output {
        Some(path) => {
            merged.write(&path)?;
            if quiet || json {
                return Ok(ExitCode::SUCCESS);
            }
            say!(
                "merged {} shards: {} inputs, {} outputs, {} failures into {}",
                merged.shards.len(),
                merged.inputs.len(),
                merged.outputs.len(),
                merged.failures.len(),
                path.display()
            );
        }
        None if !json => print_json(out, &merged)?,
        None => {}
    }
    Ok(ExitCode::SUCCESS)
}
