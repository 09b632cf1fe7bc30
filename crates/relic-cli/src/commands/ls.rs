//! `relic ls`: the entries of an archive.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use relic::ops;

use crate::commands::format_by_id;
use crate::failure::Failure;
use crate::limits::LimitArgs;
use crate::output::{json_help, quiet_help, shown, Context, OutputArgs};

/// List the entries of an archive
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  relic ls texts.res\n  relic ls --recursive --json models.res")]
#[command(mut_args(quiet_help(
    "Print nothing but errors (and the --json output): the exit code says whether the archive lists"
)))]
#[command(mut_args(json_help("A JSON array, one entry per line, written as the entries are identified")))]
pub struct Args {
    #[command(flatten)]
    pub print: OutputArgs,
    /// Descend into nested archives (names joined with "/")
    #[arg(long, short)]
    pub recursive: bool,
    /// Read the archive as this format instead of identifying it (see `relic formats`)
    #[arg(long, value_name = "FORMAT_ID")]
    pub format: Option<String>,
    /// The archive to list
    pub archive: PathBuf,
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: Args, ctx: &mut Context) -> Result<ExitCode, Failure> {
    args.limits.apply();
    let Args { print: OutputArgs { quiet, json }, recursive, format, archive, .. } = args;
    let out = &mut ctx.out;
    let format = format.as_deref().map(format_by_id).transpose()?;
    if json {
        // Straight to standard output through one buffer: a large archive's listing is megabytes.
        let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        let written = ops::list_json_as(&archive, recursive, format, &mut stdout)
            .and_then(|()| stdout.flush().map_err(|e| relic::Error::io("standard output", e)));
        match written {
            Err(relic::Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::BrokenPipe => {}
            other => other?,
        }
    } else {
        // Listed all the same with -q: the exit code says whether the archive lists.
        ops::list_each_as(&archive, recursive, format, &mut |e| {
            match &e.record {
                _ if quiet => {}
                // Record containers: type (hex and name), id, and the path (group path, file).
                Some(r) => outln!(
                    out,
                    "{:>12}  {} {:<18} {:>5}  {}",
                    e.size,
                    r.record_type,
                    r.type_name.unwrap_or("unknown"),
                    r.id,
                    shown(&e.path)
                ),
                None => outln!(out, "{:>12}  {:<12} {}", e.size, e.format.unwrap_or(""), shown(&e.path)),
            }
            Ok(())
        })?;
    }
    Ok(ExitCode::SUCCESS)
}
