//! `relic completions`: a shell's completion script.

use std::process::ExitCode;

use crate::failure::Failure;
use crate::output::{json_help, print_json, quiet_help, Context, OutputArgs};

/// Print a shell's completion script (from the same definitions as the parser)
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  relic completions bash > ~/.local/share/bash-completion/completions/relic
  relic completions zsh > ~/.zfunc/_relic        # with fpath+=(~/.zfunc) before compinit
  relic completions fish > ~/.config/fish/completions/relic.fish
  relic completions powershell >> $PROFILE")]
#[command(mut_args(quiet_help("Print nothing but the script (nothing else is printed anyway)")))]
#[command(mut_args(json_help("Print `{\"shell\": SHELL, \"script\": TEXT}` instead of the bare script")))]
pub struct Args {
    /// The shell to complete in
    pub shell: clap_complete::Shell,
    #[command(flatten)]
    pub print: OutputArgs,
}

pub fn run(args: Args, ctx: &mut Context) -> Result<ExitCode, Failure> {
    let Args { shell, print: OutputArgs { json, .. } } = args;
    let out = &mut ctx.out;
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut crate::cli_command(), "relic", &mut script);
    if json {
        let script = String::from_utf8_lossy(&script);
        print_json(out, &serde_json::json!({ "shell": shell.to_string(), "script": script }))?;
    } else {
        out.extend_from_slice(&script);
    }
    Ok(ExitCode::SUCCESS)
}
