//! The `relic` command: parses arguments, calls the library, prints results. Exit codes: 0 success,
//! 1 an input failed (the others are still processed), 2 usage. Everything printed for a person goes
//! through `relic::paths::terminal_safe`, so a name holding escape sequences cannot drive the terminal;
//! `--json` output is exact. Ctrl-C and SIGTERM remove relic's temporary files before it exits.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use relic::ops;

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
  relic extract --max-expansion 5000 -o out odd.grf   # also --max-entry-size, --max-pixels";

#[derive(Parser)]
#[command(name = "relic", version, about = "Open, convert and write back the asset files of classic games", after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Largest entry or stream relic decodes, in bytes (K, M, G suffixes: powers of 1024)
    #[arg(long, global = true, value_name = "BYTES", default_value = "1G", value_parser = parse_size)]
    max_entry_size: u64,
    /// Refuse archives whose entries would expand to more than this many times their own size
    #[arg(long, global = true, value_name = "RATIO", default_value_t = relic::limits::Limits::DEFAULT.max_expansion)]
    max_expansion: u64,
    /// Largest image (width × height) decoded from an input such as a PNG to pack
    #[arg(long, global = true, value_name = "PIXELS", default_value_t = relic::limits::Limits::DEFAULT.max_pixels)]
    max_pixels: u64,
}

#[derive(Subcommand)]
enum Command {
    /// List every format relic knows, with what it can do
    #[command(after_help = "Example:\n  relic formats --json")]
    Formats {
        #[arg(long)]
        json: bool,
    },
    /// Say which format each file is (magic first, extension second)
    #[command(after_help = "Example:\n  relic identify --json data/*.res")]
    Identify {
        #[arg(long)]
        json: bool,
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Show a file's header summary
    #[command(after_help = "Example:\n  relic info --json texts.res")]
    Info {
        #[arg(long)]
        json: bool,
        /// Read the file as this format instead of identifying it (see `relic formats`)
        #[arg(long, value_name = "FORMAT_ID")]
        format: Option<String>,
        file: PathBuf,
    },
    /// List the entries of an archive
    #[command(after_help = "Examples:\n  relic ls texts.res\n  relic ls --recursive --json models.res")]
    Ls {
        #[arg(long)]
        json: bool,
        /// Descend into nested archives (names joined with "/")
        #[arg(long, short)]
        recursive: bool,
        archive: PathBuf,
    },
    /// Extract an archive's entries, keeping folders and modification times
    #[command(
        after_help = "Examples:\n  relic extract -o texts texts.res\n  relic extract -o models --recursive models.res '*.bon'"
    )]
    Extract {
        /// Output folder (default: the archive's name without extension)
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Descend into nested archives; each becomes a folder named after its entry
        #[arg(long, short)]
        recursive: bool,
        /// Overwrite existing files
        #[arg(long, short)]
        force: bool,
        #[arg(long, short)]
        quiet: bool,
        /// Print the manifest of written files as JSON
        #[arg(long)]
        json: bool,
        archive: PathBuf,
        /// Only entries whose path or file name matches (case-insensitive)
        globs: Vec<String>,
    },
    /// Convert files, folders and archives to open formats (PNG, WAV, glTF, JSON)
    #[command(
        after_help = "Examples:\n  relic convert -o out samples\n  relic convert --to json -o out texts.res\n  relic convert --json -o out textures.res > manifest.json\n  relic convert --morph 1,0,0.5 --textures Res/textures.res -o out unhufe.mod"
    )]
    Convert {
        /// Output folder
        #[arg(short, long, default_value = ".")]
        output: PathBuf,
        /// Output extension (json for the file's own data; default: the natural format of each asset)
        #[arg(long)]
        to: Option<String>,
        /// Write every mip level of textures
        #[arg(long)]
        mips: bool,
        /// Where models find their textures: a folder or an archive (e.g. a GRF)
        #[arg(long, value_name = "DIR_OR_ARCHIVE")]
        textures: Option<PathBuf>,
        /// The palette for indexed images: PALS, JASC-PAL, RIFF PAL or raw 768-byte RGB
        #[arg(long, value_name = "FILE")]
        palette: Option<PathBuf>,
        /// A figure's bone offsets (Evil Islands `.bon`), instead of the one beside the model
        #[arg(long, value_name = "FILE")]
        bones: Option<PathBuf>,
        /// A figure's animations (Evil Islands `.anm` RES), instead of the one beside the model
        #[arg(long, value_name = "FILE")]
        anims: Option<PathBuf>,
        /// A figure's morph: strength, dexterity and height, each from 0 to 1 (default 0,0,0)
        #[arg(long, value_name = "STR,DEX,HEIGHT", value_parser = parse_morph)]
        morph: Option<[f32; 3]>,
        /// Read every input as this format instead of identifying it (formats never sniffed, e.g. dr-ftg-spr)
        #[arg(long, value_name = "FORMAT_ID")]
        format: Option<String>,
        /// A format's choice for an unsettled layout, e.g. `ei-cam.time=f32` (see `relic formats`)
        #[arg(long = "option", value_name = "KEY=VALUE", value_parser = parse_setting)]
        settings: Vec<(String, String)>,
        #[arg(long, short)]
        force: bool,
        #[arg(long, short)]
        quiet: bool,
        /// Print the manifest of written files as JSON
        #[arg(long)]
        json: bool,
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Read every file, write it back, and report what does not come back byte for byte
    #[command(after_help = "Examples:\n  relic check game/\n  relic check --json game/Res/*.res > report.json")]
    Check {
        #[arg(long)]
        json: bool,
        #[arg(long, short)]
        quiet: bool,
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Write a file of FORMAT from a folder (archives), the JSON of `convert --to json`, or the file
    /// `convert` wrote (an INI for REG, …)
    #[command(
        after_help = "Examples:\n  relic pack ei-res -o new.res extracted_folder\n  relic pack ei-res -o same.res texts.json\n  relic pack ei-reg -o config.reg config.ini\n  relic pack ro-grf --version 0x300 -o big.grf data_folder"
    )]
    Pack {
        /// Format id (see `relic formats`)
        format: String,
        #[arg(short, long)]
        output: PathBuf,
        #[arg(long, short)]
        force: bool,
        /// Store identical contents once per name instead of sharing them
        #[arg(long)]
        no_dedupe: bool,
        /// Pixel format when writing an image format (e.g. dxt1, argb4)
        #[arg(long = "format", value_name = "PIXEL_FORMAT")]
        pixel_format: Option<String>,
        /// Write a full mip chain when writing an image format
        #[arg(long)]
        mips: bool,
        /// Version of the archive format to write from a folder, in hex (ro-grf: 0x200, the default; 0x300
        /// for archives past 4 GiB; 0x102, 0x103)
        #[arg(long, value_name = "VERSION", value_parser = parse_version)]
        version: Option<u32>,
        input: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Ctrl-C, SIGTERM and SIGHUP: remove the temporary files being written, then exit (130, as a shell
    // reports Ctrl-C). Only `kill -9` can leave one behind, and never under a final name.
    let _ = ctrlc::set_handler(|| relic::paths::exit_removing_temporaries(130));
    relic::limits::set(relic::limits::Limits {
        max_entry_size: cli.max_entry_size,
        max_expansion: cli.max_expansion,
        max_pixels: cli.max_pixels,
    });
    let mut out = String::new();
    let code = match run(cli.command, &mut out) {
        Ok(code) => code,
        Err(Failure::Usage(msg)) => {
            say!("relic: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Run(e)) => {
            say!("relic: {e}");
            ExitCode::from(1)
        }
    };
    // Standard output is written once at the end; a closed pipe (`relic ls x | head`) is not an error.
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            say!("relic: writing output: {e}");
            ExitCode::from(1)
        }
        _ => code,
    }
}

/// Why a command stopped: a usage error (exit 2) or a failure (exit 1).
enum Failure {
    Usage(String),
    Run(relic::Error),
}

impl From<relic::Error> for Failure {
    fn from(e: relic::Error) -> Self {
        Failure::Run(e)
    }
}

/// Prints failures (one line each) and picks the exit code.
fn finish(failures: &[String]) -> ExitCode {
    for f in failures {
        say!("relic: {f}");
    }
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Text for a person on stdout: terminal controls in names escaped, lines kept.
fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    relic::paths::terminal_safe(text, false)
}

fn print_json(out: &mut String, value: &impl serde::Serialize) -> Result<(), Failure> {
    let text =
        serde_json::to_string_pretty(value).map_err(|e| relic::Error::Unsupported(format!("JSON output: {e}")))?;
    out.push_str(&text);
    out.push('\n');
    Ok(())
}

/// A progress bar on a terminal; nothing when piped or quiet.
struct Bar(ProgressBar);

impl Bar {
    fn new(quiet: bool, bytes: bool) -> Self {
        if quiet || !std::io::stderr().is_terminal() {
            return Bar(ProgressBar::hidden());
        }
        let template = if bytes {
            "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}"
        } else {
            "{bar:40} {pos}/{len} files eta {eta}"
        };
        let bar = ProgressBar::new(0);
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        Bar(bar)
    }
}

impl ops::Progress for Bar {
    fn start(&self, total: u64) {
        self.0.set_length(total);
    }
    fn advance(&self, n: u64) {
        self.0.inc(n);
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

fn run(command: Command, out: &mut String) -> Result<ExitCode, Failure> {
    match command {
        Command::Formats { json } => {
            if json {
                let list: Vec<_> = relic::FORMATS
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
                    .collect();
                print_json(out, &list)?;
            } else {
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
        Command::Identify { json, paths } => {
            let mut failures = Vec::new();
            for p in &paths {
                if !p.exists() {
                    failures.push(format!("{}: no such file", p.display()));
                }
            }
            let found = ops::identify(&paths);
            if json {
                print_json(out, &found)?;
            } else {
                for i in &found {
                    match (i.format, i.confidence) {
                        (Some(id), Some(c)) => outln!(out, "{}: {id} (by {})", shown(&i.path), confidence(c)),
                        _ => outln!(out, "{}: unknown", shown(&i.path)),
                    }
                }
            }
            Ok(finish(&failures))
        }
        Command::Info { json, format, file } => {
            let forced = format.as_deref().map(format_by_id).transpose()?;
            let (format, value) = ops::info_as(&file, forced)?;
            if json {
                print_json(out, &value)?;
            } else {
                outln!(out, "{}: {} ({})", shown(&file.display().to_string()), format.name, format.id);
                if let serde_json::Value::Object(map) = &value {
                    for (k, v) in map.iter().filter(|(k, _)| *k != "format") {
                        let text = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
                        outln!(out, "  {}: {}", shown(k), shown(&text));
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Ls { json, recursive, archive } => {
            let entries = ops::list(&archive, recursive)?;
            if json {
                print_json(out, &entries)?;
            } else {
                for e in &entries {
                    match &e.record {
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
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Extract { output, recursive, force, quiet, json, archive, globs } => {
            let out_dir = output.unwrap_or_else(|| default_folder(&archive));
            let bar = Bar::new(quiet, true);
            let opts = ops::ExtractOptions { recursive, force, globs };
            let report = ops::extract(&archive, &out_dir, &opts, &bar)?;
            drop(bar);
            if json {
                print_json(out, &report.written)?;
            } else if !quiet {
                say!("extracted {} files ({} bytes) to {}", report.written.len(), report.bytes, out_dir.display());
            }
            Ok(finish(&report.failures))
        }
        Command::Convert {
            output,
            to,
            mips,
            textures,
            palette,
            bones,
            anims,
            morph,
            format,
            settings,
            force,
            quiet,
            json,
            inputs,
        } => {
            let format = format.as_deref().map(format_by_id).transpose()?;
            let options = relic::registry::ConvertOptions {
                mips,
                textures,
                palette,
                settings,
                bones,
                anims,
                morph,
                ..Default::default()
            };
            let req = ops::ConvertRequest { to, force, options, format };
            ops::check_convert_request(&inputs, &req).map_err(Failure::Usage)?;
            let bar = Bar::new(quiet, false);
            let report = ops::convert(&inputs, &output, &req, &bar);
            drop(bar);
            let notes = req.options.notes.lock().map(|n| n.clone()).unwrap_or_default();
            for note in notes.iter().collect::<std::collections::BTreeSet<_>>() {
                say!("relic: warning: {note}");
            }
            if json {
                print_json(out, &report.outputs)?;
            } else if !quiet {
                for s in &report.skipped {
                    say!("skipped {s}");
                }
                say!("wrote {} files to {}", report.outputs.len(), output.display());
            }
            Ok(finish(&report.failures))
        }
        Command::Check { json, quiet, inputs } => {
            let bar = Bar::new(quiet, false);
            let items = ops::check(&inputs, &bar);
            drop(bar);
            let failures: Vec<String> = items
                .iter()
                .filter(|i| matches!(i.outcome, "differs" | "failed"))
                .map(|i| format!("{}: {} ({})", i.path, i.outcome, i.detail.as_deref().unwrap_or("")))
                .collect();
            if json {
                print_json(out, &items)?;
            } else {
                for i in &items {
                    outln!(out, "{:<9} {:<12} {}", i.outcome, i.format.unwrap_or("-"), shown(&i.path));
                }
            }
            Ok(finish(&failures))
        }
        Command::Pack { format, output, force, no_dedupe, pixel_format, mips, version, input } => {
            let f = format_by_id(&format)?;
            if let Some(v) = version {
                ops::check_pack_version(f, v, input.is_dir()).map_err(|e| Failure::Usage(e.to_string()))?;
            }
            let opts = ops::PackOptions { force, no_dedupe, pixel_format, mips, version };
            let report = ops::pack(&format, &input, &output, &opts)?;
            for note in &report.notes {
                say!("{note}");
            }
            say!("wrote {} ({} bytes)", output.display(), report.bytes);
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A format named on the command line (`--format`, `pack FORMAT`); an unknown id is a usage error.
fn format_by_id(id: &str) -> Result<&'static relic::Format, Failure> {
    relic::registry::by_id(id).ok_or_else(|| {
        let ids: Vec<&str> = relic::FORMATS.iter().map(|f| f.id).collect();
        Failure::Usage(format!("unknown format `{id}` (one of {})", ids.join(", ")))
    })
}

/// A size with an optional K, M or G suffix (powers of 1024): `--max-entry-size 2G`.
fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, shift) = match t.char_indices().last() {
        Some((i, 'K' | 'k')) => (&t[..i], 10),
        Some((i, 'M' | 'm')) => (&t[..i], 20),
        Some((i, 'G' | 'g')) => (&t[..i], 30),
        _ => (t, 0),
    };
    let n: u64 = digits.trim().parse().map_err(|_| format!("`{text}` is not a size (e.g. 1048576, 512M, 2G)"))?;
    n.checked_mul(1 << shift).ok_or_else(|| format!("`{text}` is too large"))
}

/// A format version in hex, `0x300` or `300`.
fn parse_version(text: &str) -> Result<u32, String> {
    let t = text.trim();
    let digits = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")).unwrap_or(t);
    u32::from_str_radix(digits, 16).map_err(|_| format!("`{text}` is not a version in hex (e.g. 0x300)"))
}

/// `KEY=VALUE` of `--option`.
/// `--morph STR,DEX,HEIGHT`: three numbers from 0 to 1.
fn parse_morph(text: &str) -> Result<[f32; 3], String> {
    let values: Vec<f32> =
        text.split(',').map(|v| v.trim().parse::<f32>()).collect::<Result<_, _>>().map_err(|e| e.to_string())?;
    match values.as_slice() {
        [s, d, h] if values.iter().all(|v| (0.0..=1.0).contains(v)) => Ok([*s, *d, *h]),
        _ => Err(format!("`{text}` is not three numbers from 0 to 1 (strength, dexterity, height)")),
    }
}

fn parse_setting(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => Err(format!("`{text}` is not KEY=VALUE (e.g. ei-cam.time=f32)")),
    }
}

fn confidence(c: relic::registry::Confidence) -> &'static str {
    match c {
        relic::registry::Confidence::Magic => "magic",
        relic::registry::Confidence::Extension => "extension",
    }
}

fn default_folder(archive: &Path) -> PathBuf {
    archive.file_stem().map(PathBuf::from).unwrap_or_else(|| PathBuf::from("extracted"))
}
