//! What a subcommand prints: standard output gathered in one buffer (written once by `main`), the `-q` and
//! `--json` every subcommand takes, and text made safe for a terminal.

use crate::failure::Failure;

/// `println!` into the output buffer.
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{
        let _ = writeln!($out, $($arg)*);
    }};
}

/// One line on stderr, made safe for a terminal (an error can quote a hostile name).
macro_rules! say {
    ($($arg:tt)*) => {{
        eprintln!("{}", relic::paths::terminal_safe(&format!($($arg)*), false));
    }};
}

// `-q` and `--json`, flattened into every subcommand; one whose words differ says so with
// `#[command(mut_args(quiet_help("…")))]` and `json_help`. (Plain comments: a doc comment here would become
// the `about` of each subcommand that flattens it.)
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct OutputArgs {
    /// Print nothing but errors (and the --json output)
    #[arg(long, short)]
    pub quiet: bool,
    /// Print the output as JSON
    #[arg(long)]
    pub json: bool,
}

/// `-q`'s words for one subcommand. Through `mut_args`, which keeps every argument in its place (`mut_arg`
/// would move it last, reordering the completion scripts).
pub fn quiet_help(text: &'static str) -> impl FnMut(clap::Arg) -> clap::Arg {
    move |arg| if arg.get_id() == "quiet" { arg.help(text) } else { arg }
}

/// `--json`'s words for one subcommand (as `quiet_help`).
pub fn json_help(text: &'static str) -> impl FnMut(clap::Arg) -> clap::Arg {
    move |arg| if arg.get_id() == "json" { arg.help(text) } else { arg }
}

/// `--json` listed before `-q` in the help, as `check` has always listed them: the two are flattened side by
/// side, so each takes the other's place.
pub fn json_before_quiet(arg: clap::Arg) -> clap::Arg {
    let (quiet, json) = (arg.get_id() == "quiet", arg.get_id() == "json");
    match (quiet, json, arg.get_display_order()) {
        (true, _, order) => arg.display_order(order + 1),
        (_, true, order) => arg.display_order(order.saturating_sub(1)),
        _ => arg,
    }
}

/// What a subcommand writes into: standard output, gathered and written once at the end (where a closed pipe
/// is not an error).
#[derive(Default)]
pub struct Context {
    pub out: Vec<u8>,
}

/// Text for a person on stdout: terminal controls in names escaped, lines kept.
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    relic::paths::terminal_safe(text, false)
}

/// JSON straight into the output buffer (no intermediate string). `ls --json` streams through
/// `ops::list_json` instead.
pub fn print_json(out: &mut Vec<u8>, value: &impl serde::Serialize) -> Result<(), Failure> {
    serde_json::to_writer_pretty(&mut *out, value)
        .map_err(|e| relic::Error::Unsupported(format!("JSON output: {e}")))?;
    out.push(b'\n');
    Ok(())
}

/// `n` and the noun, singular or plural (`1 file`, `2 files`).
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
