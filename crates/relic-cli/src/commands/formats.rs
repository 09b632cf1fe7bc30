//! `relic formats`: every format relic knows, as a table or as JSON.

use std::io::Write as _;
use std::process::ExitCode;

use crate::failure::Failure;
use crate::output::{json_help, print_json, Context, OutputArgs};

/// List every format relic knows, with what it can do
#[derive(clap::Args)]
#[command(after_help = "Example:\n  relic formats --json")]
#[command(mut_args(json_help(
    "Print the formats as a JSON array (id, name, game, extensions, capabilities, targets, options)"
)))]
pub struct Args {
    #[command(flatten)]
    pub print: OutputArgs,
}

pub fn run(args: Args, ctx: &mut Context) -> Result<ExitCode, Failure> {
    let Args { print: OutputArgs { quiet, json } } = args;
    let out = &mut ctx.out;
    if json {
        print_json(out, &relic::registry::formats_document())?;
    } else if !quiet {
        outln!(out, "{:<14} {:<5} {:<7} {:<5}  {:<32} EXTENSIONS", "ID", "READ", "CONVERT", "WRITE", "NAME");
        let mark = |b: bool| if b { "yes" } else { "-" };
        for f in relic::FORMATS {
            let c = f.capabilities();
            outln!(
                out,
                "{:<14} {:<5} {:<7} {:<5}  {:<32} {}",
                f.id,
                mark(c.read),
                mark(c.convert),
                mark(c.write),
                f.name,
                f.extensions.join(" ")
            );
            if !f.notes.is_empty() {
                outln!(out, "{:<14} note: {}", "", f.notes);
            }
            outln!(out, "{:<14} --to: {}", "", f.targets().join(", "));
            for o in f.options {
                outln!(
                    out,
                    "{:<14} --option {}={} (default {})",
                    "",
                    o.key,
                    o.values.join("|"),
                    o.values.first().unwrap_or(&"")
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
