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
        print_json(out, &formats_json())?;
    } else if !quiet {
        outln!(out, "{:<14} {:<5} {:<7} {:<5}  {:<32} EXTENSIONS", "ID", "READ", "CONVERT", "WRITE", "NAME");
        let mark = |b: bool| if b { "yes" } else { "-" };
        for f in relic::FORMATS {
            let c = f.capabilities;
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
            for o in f.codec.options() {
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

/// The formats as `--json` prints them. When the library gives the formats their one JSON shape (the one the
/// Python package prints too), the call above names it instead and this goes.
fn formats_json() -> Vec<serde_json::Value> {
    relic::FORMATS
        .iter()
        .map(|f| {
            serde_json::json!({
                "id": f.id,
                "name": f.name,
                "game": f.game,
                "extensions": f.extensions,
                "kind": f.kind,
                "capabilities": f.capabilities,
                "notes": f.notes,
                "targets": f.targets(),
                "options": f.codec.options(),
            })
        })
        .collect()
}
