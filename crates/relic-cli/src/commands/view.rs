//! `relic view`: a local web page over what relic opens.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::commands::LookupArgs;
use crate::failure::Failure;
use crate::limits::LimitArgs;
use crate::output::{json_help, quiet_help, Context, OutputArgs};

/// Browse and preview everything relic opens under PATH in a local web page (prints its URL first)
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  relic view samples                 # prints http://127.0.0.1:PORT/ and serves until Ctrl-C
  relic view --open game/Res/textures.res
  relic view --port 8080 game/
  relic view --textures data.grf models/   # models find their textures there, as with convert
  relic view --static target/relic-web   # the browser build (no server needed), for a local check

Only PATH and what lies under it is served, read-only, on 127.0.0.1 (or ::1 with --host ::1);
--textures, --models and --palette are read where they are, and only what conversions make of them is served;
what conversions find by themselves (a model's data/texture, the files beside an item) is looked for under PATH
only (PATH's folder for a file), never through a link.")]
#[command(mut_args(quiet_help("Print only the URL (it is how the page is reached) and errors")))]
#[command(mut_args(json_help("Print the URL as JSON, `{\"url\": \"http://127.0.0.1:PORT/\"}`, on the first line")))]
pub struct Args {
    /// A file, an archive or a folder
    #[arg(required_unless_present = "static_site", conflicts_with = "static_site")]
    pub path: Option<PathBuf>,
    /// Serve the static site of the browser build in DIR as it is (built by `npm run --prefix view-web
    /// build:web`), instead of viewing PATH
    #[arg(long = "static", value_name = "DIR")]
    pub static_site: Option<PathBuf>,
    /// Port to listen on (0: a free one)
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Address to listen on: 127.0.0.1, ::1 or localhost (any other needs --unsafe-host)
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Allow a --host that is not a loopback address: anyone who reaches it can read every file under PATH
    #[arg(long)]
    pub unsafe_host: bool,
    /// Open the page in the system browser
    #[arg(long)]
    pub open: bool,
    #[command(flatten)]
    pub print: OutputArgs,
    #[command(flatten)]
    pub lookup: LookupArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: Args, _ctx: &mut Context) -> Result<ExitCode, Failure> {
    args.limits.apply();
    let Args { path, static_site, port, host, unsafe_host, open, print: OutputArgs { quiet, json }, lookup, .. } = args;
    let LookupArgs { textures, models, palette } = lookup;
    let lookup = relic::view::Lookup { textures, models, palette };
    let args = ViewArgs { port, host: &host, unsafe_host, open, quiet, json, lookup };
    match (path, static_site) {
        (_, Some(dir)) => view(&dir, true, args),
        (Some(path), None) => view(&path, false, args),
        (None, None) => Err(Failure::Usage("give a PATH to view, or --static DIR".into())),
    }
}

/// `relic view`'s options but the path.
struct ViewArgs<'a> {
    port: u16,
    host: &'a str,
    unsafe_host: bool,
    open: bool,
    quiet: bool,
    json: bool,
    lookup: relic::view::Lookup,
}

/// `relic view`: serves until stopped. The URL is the first line on stdout (as JSON with --json), printed
/// (and flushed) as soon as the server listens, so that a script can read it; -q keeps it, as it is how the
/// page is reached.
fn view(path: &Path, static_site: bool, args: ViewArgs<'_>) -> Result<ExitCode, Failure> {
    let ViewArgs { port, host, unsafe_host, open, quiet, json, lookup } = args;
    if static_site && (lookup.textures.is_some() || lookup.models.is_some() || lookup.palette.is_some()) {
        return Err(Failure::Usage(
            "--static serves a folder as it is: --textures, --models and --palette are for viewing a PATH".into(),
        ));
    }
    let ip = relic::view::parse_host(host).map_err(Failure::Usage)?;
    if !ip.is_loopback() && !unsafe_host {
        return Err(Failure::Usage(format!(
            "--host {host} is not a loopback address (127.0.0.1, ::1, localhost); add --unsafe-host to serve \
             every file under {} to anyone who can reach it",
            path.display()
        )));
    }
    let options =
        relic::view::ViewOptions { host: ip, port, allow_any_host: unsafe_host, lookup, ..Default::default() };
    let server =
        if static_site { relic::view::serve_static(path, options)? } else { relic::view::serve(path, options)? };
    let url = server.url();
    let mut stdout = std::io::stdout().lock();
    let line = if json { serde_json::json!({ "url": url }).to_string() } else { url.clone() };
    let _ = writeln!(stdout, "{line}").and_then(|()| stdout.flush());
    drop(stdout);
    if !quiet {
        say!("relic: serving {} at {url} (Ctrl-C stops)", path.display());
    }
    if open {
        open_browser(&url);
    }
    server.wait();
    Ok(ExitCode::SUCCESS)
}

/// Starts the system's browser on `url`; a missing opener is only a warning.
fn open_browser(url: &str) {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    command.arg(url).stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null());
    if let Err(e) = command.stderr(std::process::Stdio::null()).spawn() {
        say!("relic: warning: could not start a browser ({e}); open {url}");
    }
}
