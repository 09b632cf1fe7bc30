//! `relic identify`: which format each file is.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use relic::ops;

use crate::failure::{finish, Failure};
use crate::output::{json_help, print_json, shown, Context, OutputArgs};

/// Say which format each file is (magic first, extension second)
#[derive(clap::Args)]
#[command(after_help = "Example:\n  relic identify --json data/*.res")]
#[command(mut_args(json_help(
    "Print a JSON array: path, format (null when unknown) and confidence (magic or extension)"
)))]
pub struct Args {
    #[command(flatten)]
    pub print: OutputArgs,
    /// The files to identify
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

pub fn run(args: Args, ctx: &mut Context) -> Result<ExitCode, Failure> {
    let Args { print: OutputArgs { quiet, json }, paths } = args;
    let out = &mut ctx.out;
    let mut failures = Vec::new();
    for p in &paths {
        if !p.exists() {
            failures.push(format!("{}: no such file", p.display()));
        }
    }
    let found = ops::identify(&paths);
    if json {
        print_json(out, &found)?;
    } else if !quiet {
        for i in &found {
            match (i.format, i.confidence) {
                (Some(id), Some(c)) => outln!(out, "{}: {id} (by {})", shown(&i.path), confidence(c)),
                _ => outln!(out, "{}: unknown", shown(&i.path)),
            }
        }
    }
    Ok(finish(&failures))
}

fn confidence(c: relic::registry::Confidence) -> &'static str {
    match c {
        relic::registry::Confidence::Magic => "magic",
        relic::registry::Confidence::Extension => "extension",
    }
}
