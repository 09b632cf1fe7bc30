//! The `relic` command: parses arguments, calls the library, prints results. Exit codes: 0 success,
//! 1 an input failed (the others are still processed), 2 usage. Everything printed for a person goes
//! through `relic::paths::terminal_safe`, so a name holding escape sequences cannot drive the terminal;
//! `--json` output is exact. Ctrl-C and SIGTERM remove relic's temporary files before it exits.

use std::io::Write as _;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

#[macro_use]
mod output;
mod batch;
mod commands;
mod failure;
mod limits;
mod progress;

use commands::*;
use output::Context;

const EXAMPLES: &str = "\
Examples:
  relic formats
  relic identify samples/evil_islands/*
  relic info game/Res/textures.res
  relic ls --recursive game/Res/models.res
  relic extract -o textures game/Res/textures.res '*.mmp'
  relic convert -o out samples
  relic convert --to json -o out level.mob
  relic pack ei-res -o new.res extracted_folder
  relic check game/
  relic view --open game/
  relic extract --max-expansion 5000 -o out odd.grf   # also --max-entry-size, --max-pixels (decoding subcommands)
  relic convert --files-from list.txt --shard 3/8 --report r3.json -o out   # one of 8 machines
  relic merge-reports -o all.json r*.json
  relic completions bash > ~/.local/share/bash-completion/completions/relic
  relic man pack | man -l -";

#[derive(Parser)]
#[command(name = "relic", about = "Open, convert and write back the asset files of classic games", after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// What `--version` says: the crate's version, the commit it was built from (`build.rs`) and how many
/// formats it knows.
fn version_text() -> String {
    format!("{} (commit {}, {} formats)", env!("CARGO_PKG_VERSION"), env!("RELIC_COMMIT"), relic::FORMATS.len())
}

/// The command line's definition: the derive's, with the version (known only at run time). Parsing,
/// completions and the man page all come from it.
fn cli_command() -> clap::Command {
    Cli::command().version(version_text())
}

// Parsed once per run: the size of its largest variant (`convert`'s many options) costs nothing. Each
// subcommand's help, flags and behaviour are in its own module, `commands/<name>.rs`.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    Formats(formats::Args),
    Identify(identify::Args),
    Info(info::Args),
    Ls(ls::Args),
    Extract(extract::Args),
    Convert(convert::Args),
    Check(check::Args),
    MergeReports(merge_reports::Args),
    View(view::Args),
    Pack(pack::Args),
    Edit(edit::Args),
    Completions(completions::Args),
    Man(man::Args),
}

fn main() -> ExitCode {
    let cli = Cli::from_arg_matches(&cli_command().get_matches()).unwrap_or_else(|e| e.exit());
    // Ctrl-C, SIGTERM and SIGHUP: remove the temporary files being written, then exit (130, as a shell
    // reports Ctrl-C). Only `kill -9` can leave one behind, and never under a final name.
    let _ = ctrlc::set_handler(|| relic::paths::exit_removing_temporaries(130));
    let mut ctx = Context::default();
    let code = run(cli.command, &mut ctx).unwrap_or_else(failure::report);
    // Standard output is written once at the end; a closed pipe (`relic ls x | head`) is not an error.
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(&ctx.out).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            say!("relic: writing output: {e}");
            ExitCode::from(1)
        }
        _ => code,
    }
}

fn run(command: Command, ctx: &mut Context) -> Result<ExitCode, failure::Failure> {
    match command {
        Command::Formats(args) => formats::run(args, ctx),
        Command::Identify(args) => identify::run(args, ctx),
        Command::Info(args) => info::run(args, ctx),
        Command::Ls(args) => ls::run(args, ctx),
        Command::Extract(args) => extract::run(args, ctx),
        Command::Convert(args) => convert::run(args, ctx),
        Command::Check(args) => check::run(args, ctx),
        Command::MergeReports(args) => merge_reports::run(args, ctx),
        Command::View(args) => view::run(args, ctx),
        Command::Pack(args) => pack::run(args, ctx),
        Command::Edit(args) => edit::run(args, ctx),
        Command::Completions(args) => completions::run(args, ctx),
        Command::Man(args) => man::run(args, ctx),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subcommand, `help` (clap's own) aside.
    fn subcommands() -> Vec<clap::Command> {
        cli_command().get_subcommands().filter(|s| s.get_name() != "help").cloned().collect()
    }

    #[test]
    fn the_definition_is_consistent() {
        cli_command().debug_assert();
    }

    #[test]
    fn every_flag_and_positional_has_help() {
        let mut missing = Vec::new();
        for sub in subcommands() {
            for arg in sub.get_arguments() {
                // clap's own --help and --version carry theirs.
                if arg.get_help().is_none() && !matches!(arg.get_id().as_str(), "help" | "version") {
                    missing.push(format!("{} {}", sub.get_name(), arg.get_id()));
                }
            }
        }
        assert_eq!(missing, Vec::<String>::new(), "arguments without help text");
    }

    #[test]
    fn every_subcommand_takes_quiet_and_json() {
        for sub in subcommands() {
            let flags: Vec<(Option<char>, Option<&str>)> =
                sub.get_arguments().map(|a| (a.get_short(), a.get_long())).collect();
            assert!(flags.contains(&(Some('q'), Some("quiet"))), "{} has no -q/--quiet", sub.get_name());
            assert!(flags.contains(&(None, Some("json"))), "{} has no --json", sub.get_name());
        }
    }

    #[test]
    fn limits_belong_to_the_subcommands_that_decode() {
        let decoding = ["info", "ls", "extract", "convert", "check", "view", "pack", "edit"];
        for sub in subcommands() {
            let has = sub.get_arguments().any(|a| a.get_long() == Some("max-pixels"));
            assert_eq!(has, decoding.contains(&sub.get_name()), "{}", sub.get_name());
        }
    }
}
