//! `relic man`: relic's man pages.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::commands::output_folder;
use crate::failure::Failure;
use crate::output::{count, json_help, print_json, Context, OutputArgs};

/// Print relic's man page (roff), or write one page per subcommand into a folder
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  relic man | man -l -
  relic man pack | man -l -
  relic man -o /usr/local/share/man/man1   # relic.1, relic-pack.1, …")]
#[command(mut_args(json_help(
    "Print JSON: with -o, `{\"written\": [FILE, ...]}`; else `{\"name\": \"relic.1\", \"roff\": TEXT}`"
)))]
pub struct Args {
    /// The subcommand whose page to print (default: relic's own page, which lists the subcommands)
    #[arg(conflicts_with = "output")]
    pub subcommand: Option<String>,
    /// Write relic.1 and relic-SUBCOMMAND.1 for every subcommand into this folder
    #[arg(short, long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub print: OutputArgs,
}

pub fn run(args: Args, ctx: &mut Context) -> Result<ExitCode, Failure> {
    let Args { subcommand, output, print: OutputArgs { quiet, json } } = args;
    man(subcommand.as_deref(), output.as_deref(), quiet, json, &mut ctx.out)
}

/// The man page of `relic` or of one subcommand (`relic-pack`, named as git names its pages), as roff; its
/// footer names relic's version (a subcommand has none of its own: `pack --version` is pack's option).
fn man_page(command: &clap::Command) -> Result<Vec<u8>, Failure> {
    let mut roff = Vec::new();
    clap_mangen::Man::new(command.clone())
        .source(format!("relic {}", crate::version_text()))
        .render(&mut roff)
        .map_err(|e| relic::Error::io("the man page", e))?;
    Ok(roff)
}

/// `relic man`: one page on standard output, or every page into a folder.
fn man(
    subcommand: Option<&str>,
    folder: Option<&Path>,
    quiet: bool,
    json: bool,
    out: &mut Vec<u8>,
) -> Result<ExitCode, Failure> {
    let relic = crate::cli_command();
    // Each subcommand's page as its own command, `relic-pack`; its synopsis reads `relic pack`.
    let page_of = |sub: &clap::Command| {
        sub.clone().name(format!("relic-{}", sub.get_name())).bin_name(format!("relic {}", sub.get_name()))
    };
    let Some(folder) = folder else {
        let page = match subcommand {
            None => relic.clone(),
            Some(name) => page_of(relic.find_subcommand(name).ok_or_else(|| {
                let names: Vec<&str> = relic.get_subcommands().map(clap::Command::get_name).collect();
                Failure::Usage(format!("no subcommand `{name}` (one of {})", names.join(", ")))
            })?),
        };
        let roff = man_page(&page)?;
        if json {
            let value =
                serde_json::json!({ "name": format!("{}.1", page.get_name()), "roff": String::from_utf8_lossy(&roff) });
            print_json(out, &value)?;
        } else {
            out.extend_from_slice(&roff);
        }
        return Ok(ExitCode::SUCCESS);
    };
    output_folder(folder)?;
    std::fs::create_dir_all(folder).map_err(|e| relic::Error::io(folder, e))?;
    let mut written = Vec::new();
    let pages =
        std::iter::once(relic.clone()).chain(relic.get_subcommands().filter(|s| s.get_name() != "help").map(page_of));
    for page in pages {
        let path = folder.join(format!("{}.1", page.get_name()));
        let roff = man_page(&page)?;
        let overwrite = relic::paths::WriteOptions { force: true, modified: None };
        relic::paths::write_named(&path, overwrite, |w| w.write_all(&roff).map_err(|e| relic::Error::io(&path, e)))?;
        written.push(path.display().to_string());
    }
    if json {
        print_json(out, &serde_json::json!({ "written": written }))?;
    } else if !quiet {
        say!("wrote {} to {}", count(written.len(), "man page", "man pages"), folder.display());
    }
    Ok(ExitCode::SUCCESS)
}
