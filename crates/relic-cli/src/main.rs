//! The `relic` command: parses arguments, calls the library, prints results. Exit codes: 0 success,
//! 1 an input failed (the others are still processed), 2 usage. Everything printed for a person goes
//! through `relic::paths::terminal_safe`, so a name holding escape sequences cannot drive the terminal;
//! `--json` output is exact. Ctrl-C and SIGTERM remove relic's temporary files before it exits.

use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
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

/// Bounds on what relic decodes from a file, so that a hostile file cannot exhaust memory; only on the
/// subcommands that decode.
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Limits")]
struct LimitArgs {
    /// Largest entry or stream relic decodes, in bytes (K, M, G suffixes: powers of 1024)
    #[arg(long, value_name = "BYTES", default_value = "1G", value_parser = parse_size)]
    max_entry_size: u64,
    /// Refuse archives whose entries would expand to more than this many times their own size
    #[arg(long, value_name = "RATIO", default_value_t = relic::limits::Limits::DEFAULT.max_expansion)]
    max_expansion: u64,
    /// Largest image (width × height) decoded from an input such as a PNG to pack
    #[arg(long, value_name = "PIXELS", default_value_t = relic::limits::Limits::DEFAULT.max_pixels)]
    max_pixels: u64,
}

impl LimitArgs {
    fn apply(&self) {
        relic::limits::set(relic::limits::Limits {
            max_entry_size: self.max_entry_size,
            max_expansion: self.max_expansion,
            max_pixels: self.max_pixels,
        });
    }
}

/// Where conversions look beyond the files beside each input: the same flags for `convert` and `view`.
#[derive(clap::Args, Debug, Clone)]
struct LookupArgs {
    /// Where models find their textures: a folder or an archive (e.g. a GRF)
    #[arg(long, value_name = "DIR_OR_ARCHIVE")]
    textures: Option<PathBuf>,
    /// Where maps find their models: a folder or an archive (e.g. a GRF); a Ragnarok map looks in its own GRF or client folder first
    #[arg(long, value_name = "DIR_OR_ARCHIVE")]
    models: Option<PathBuf>,
    /// The palette for indexed images: PALS, JASC-PAL, RIFF PAL, raw 768-byte RGB or 1024-byte RGBX (Ragnarok `.pal`)
    #[arg(long, value_name = "FILE")]
    palette: Option<PathBuf>,
}

/// Options that spread a batch over machines (`convert`, `extract`, `check`).
#[derive(clap::Args, Debug, Clone)]
struct Batch {
    /// Take the inputs from a file, one path per line (`-`: standard input); `#` starts a comment line
    #[arg(long, value_name = "LIST")]
    files_from: Option<PathBuf>,
    /// Only the inputs of shard K of N (K from 1), chosen by a hash of each input's path: N copies of the
    /// command with K = 1…N do the whole batch once, without two writing the same file
    #[arg(long, value_name = "K/N")]
    shard: Option<ops::Shard>,
    /// Write a summary of this run (inputs, outputs, failures) as JSON; `relic merge-reports` combines them
    #[arg(long, value_name = "FILE.json")]
    report: Option<PathBuf>,
}

impl Batch {
    /// The inputs named on the command line, then those of `--files-from`.
    fn inputs(&self, named: Vec<PathBuf>) -> Result<Vec<PathBuf>, Failure> {
        let mut all = named;
        if let Some(list) = &self.files_from {
            all.extend(ops::read_files_from(list)?);
        }
        if all.is_empty() {
            return Err(Failure::Usage("no inputs: name some, or give --files-from".into()));
        }
        Ok(all)
    }

    fn write_report(&self, report: ops::Report) -> Result<(), Failure> {
        if let Some(path) = &self.report {
            report.sorted().write(path)?;
        }
        Ok(())
    }
}

/// The pixel formats `pack --pixel-format` takes: those of every format that has a choice (each format's
/// packer still refuses one it cannot write).
fn pixel_format_parser() -> clap::builder::PossibleValuesParser {
    let mut names: Vec<&'static str> = Vec::new();
    for &name in relic::FORMATS.iter().flat_map(|f| f.pixel_formats) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    clap::builder::PossibleValuesParser::new(names)
}

// Parsed once per run: the size of its largest variant (`convert`'s many options) costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// List every format relic knows, with what it can do
    #[command(after_help = "Example:\n  relic formats --json")]
    Formats {
        /// Print nothing but errors (and the --json output)
        #[arg(long, short)]
        quiet: bool,
        /// Print the formats as a JSON array (id, name, game, extensions, capabilities, targets, options)
        #[arg(long)]
        json: bool,
    },
    /// Say which format each file is (magic first, extension second)
    #[command(after_help = "Example:\n  relic identify --json data/*.res")]
    Identify {
        /// Print nothing but errors (and the --json output)
        #[arg(long, short)]
        quiet: bool,
        /// Print a JSON array: path, format (null when unknown) and confidence (magic or extension)
        #[arg(long)]
        json: bool,
        /// The files to identify
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Show a file's header summary (times as the raw value and in UTC)
    #[command(after_help = "Example:\n  relic info --json texts.res")]
    Info {
        /// Print nothing but errors (and the --json output): the exit code says whether the file reads
        #[arg(long, short)]
        quiet: bool,
        /// Print the summary as a JSON object (a time as the raw value, and as ISO 8601 in `<name>_utc`)
        #[arg(long)]
        json: bool,
        /// Read the file as this format instead of identifying it (see `relic formats`)
        #[arg(long, value_name = "FORMAT_ID")]
        format: Option<String>,
        /// The file to summarise
        file: PathBuf,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// List the entries of an archive
    #[command(after_help = "Examples:\n  relic ls texts.res\n  relic ls --recursive --json models.res")]
    Ls {
        /// Print nothing but errors (and the --json output): the exit code says whether the archive lists
        #[arg(long, short)]
        quiet: bool,
        /// A JSON array, one entry per line, written as the entries are identified
        #[arg(long)]
        json: bool,
        /// Descend into nested archives (names joined with "/")
        #[arg(long, short)]
        recursive: bool,
        /// Read the archive as this format instead of identifying it (see `relic formats`)
        #[arg(long, value_name = "FORMAT_ID")]
        format: Option<String>,
        /// The archive to list
        archive: PathBuf,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Extract an archive's entries, keeping folders and modification times
    #[command(
        after_help = "Patterns match an entry's path or its file name, ASCII case ignored; `\\` and `/` both separate \
folders (a backslash is never an escape: `[*]` matches a literal `*`). A pattern that matches no entry is a \
warning, and relic exits 1.\n\nExamples:\n  relic extract -o texts texts.res\n  relic extract -o models --recursive models.res '*.bon'\n  relic extract data.grf 'data\\texture\\*.bmp'"
    )]
    Extract {
        /// Output folder (default: the archive's name without its extension, `textures.res` → `textures`; an
        /// archive without one, `data`, → `data.extracted`)
        #[arg(short, long, value_name = "DIR")]
        output: Option<PathBuf>,
        /// Descend into nested archives; each becomes a folder named after its entry
        #[arg(long, short)]
        recursive: bool,
        /// Overwrite existing files
        #[arg(long, short, conflicts_with = "skip_existing")]
        force: bool,
        /// Keep the files an earlier extraction left and write only the missing ones (without it or --force,
        /// a folder holding any of them is refused before anything is written)
        #[arg(long)]
        skip_existing: bool,
        /// Print nothing but errors and warnings (and the --json output)
        #[arg(long, short)]
        quiet: bool,
        /// Print the manifest of written files as JSON
        #[arg(long)]
        json: bool,
        /// Read the archive (every listed one) as this format instead of identifying it (see `relic formats`)
        #[arg(long, value_name = "FORMAT_ID")]
        format: Option<String>,
        #[command(flatten)]
        batch: Batch,
        /// The archive (with --files-from: none; each listed archive goes to a folder of its own, named
        /// after its whole file name below the folder all listed archives share)
        #[arg(required_unless_present = "files_from")]
        archive: Option<PathBuf>,
        /// Only entries whose path or file name matches (case-insensitive; `\` or `/` between folders)
        globs: Vec<String>,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Convert files, folders and archives to open formats (PNG, WAV, glTF, JSON)
    #[command(after_help = "\
Where outputs go: a file at REL/NAME below the root writes out/REL/NAME.<ext> when it
makes one file (intro.cam -> intro.cam.json, unit.mmp -> unit.mmp.png) and out/REL/NAME/...
when it makes several (an index document, for some formats, beside it as out/REL/NAME.json);
an archive's entries go into out/REL/NAME/ by the same rule. The root is --base, else the
deepest folder holding every input (a folder input counts as itself). Names follow from each
input's name alone, two inputs never share an output, N shards write what one run would, and
the output folder is never walked into. Files named *.view.* are views: `relic pack` does not
read them and warns when they were edited.

Examples:
  relic convert -o out samples
  relic convert --to json -o out texts.res
  relic convert --json -o out textures.res > manifest.json
  relic convert --morph 1,0,0.5 --textures Res/textures.res -o out unhufe.mod
  relic convert --with head.act --palette body_red.pal --head-palette hair_blue.pal -o out body.act
  find game -name '*.cam' > list.txt && relic convert --files-from list.txt --base game -o out")]
    Convert {
        /// Output folder
        #[arg(short, long, value_name = "DIR", default_value = ".")]
        output: PathBuf,
        /// The folder output paths are taken relative to (default: the deepest folder holding every input)
        #[arg(long, value_name = "DIR")]
        base: Option<PathBuf>,
        /// Output extension (json for the file's own data; default: the natural format of each asset)
        #[arg(long, value_name = "EXT")]
        to: Option<String>,
        /// Write every mip level of textures
        #[arg(long)]
        mips: bool,
        #[command(flatten)]
        lookup: LookupArgs,
        /// A figure's bone offsets (Evil Islands `.bon`), instead of the one beside the model
        #[arg(long, value_name = "FILE")]
        bones: Option<PathBuf>,
        /// A figure's animations (Evil Islands `.anm` RES), instead of the one beside the model
        #[arg(long, value_name = "FILE")]
        anims: Option<PathBuf>,
        /// A second file drawn with each input: a Ragnarok head `.act` (its `.spr` beside it) over a body `.act`
        #[arg(long, value_name = "FILE")]
        with: Option<PathBuf>,
        /// The palette the --with sprite is drawn with (a Ragnarok head's hair dye; --palette dyes the input's own sprite only); default: its own
        #[arg(long, value_name = "FILE", requires = "with")]
        head_palette: Option<PathBuf>,
        /// A figure's morph: strength, dexterity and height, each from 0 to 1 (default 0,0,0)
        #[arg(long, value_name = "STR,DEX,HEIGHT", value_parser = parse_morph)]
        morph: Option<[f32; 3]>,
        /// Read every input as this format instead of identifying it (formats never sniffed, e.g. dr-ftg-spr)
        #[arg(long, value_name = "FORMAT_ID")]
        format: Option<String>,
        /// A format's choice for an unsettled layout, e.g. `ei-cam.time=f32` (see `relic formats`)
        #[arg(long = "option", value_name = "KEY=VALUE", value_parser = parse_setting)]
        settings: Vec<(String, String)>,
        /// PNG compression: fast (the default: fdeflate), default (zlib 6) or best (zlib 9), each with its filters
        #[arg(long, value_name = "LEVEL", default_value = "fast", value_parser = parse_compression)]
        compression: relic::export::png::PngCompression,
        /// Overwrite existing files
        #[arg(long, short, conflicts_with = "skip_existing")]
        force: bool,
        /// Keep the files an earlier conversion left and write only the missing ones (without it or --force,
        /// the files already there are one refusal, counted, and relic exits 1)
        #[arg(long)]
        skip_existing: bool,
        /// Print nothing but errors and warnings (and the --json output)
        #[arg(long, short)]
        quiet: bool,
        /// Print the manifest of written files as JSON
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        batch: Batch,
        /// Files, folders and archives to convert
        #[arg(required_unless_present = "files_from")]
        inputs: Vec<PathBuf>,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Read every file, write it back, and report what does not come back byte for byte
    #[command(
        after_help = "The last line (on standard error) counts the outcomes: `check: 12 identical, 1 differs, 2 failed` \
(then `N read`, not written yet, and `N unknown` when there are any).\n\nExamples:\n  relic check game/\n  relic check --json game/Res/*.res > report.json"
    )]
    Check {
        /// Print a JSON object: the counts (identical, differs, failed, read, unknown) and `files`, one item each
        #[arg(long)]
        json: bool,
        /// Print nothing but errors (and the --json output): the exit code says whether all came back
        #[arg(long, short)]
        quiet: bool,
        /// Read every file as this format instead of identifying it (see `relic formats`)
        #[arg(long, value_name = "FORMAT_ID")]
        format: Option<String>,
        #[command(flatten)]
        batch: Batch,
        /// Files and folders to check
        #[arg(required_unless_present = "files_from")]
        inputs: Vec<PathBuf>,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Combine the `--report` files of a sharded run into one (refuses overlaps; names missing shards)
    #[command(after_help = "Example:\n  relic merge-reports -o all.json reports/*.json")]
    MergeReports {
        /// Write the merged report here instead of standard output
        #[arg(short, long, value_name = "FILE.json")]
        output: Option<PathBuf>,
        /// Print nothing but errors and warnings (and the --json output)
        #[arg(long, short)]
        quiet: bool,
        /// Print the merged report as JSON on standard output, also when -o writes it
        #[arg(long)]
        json: bool,
        /// The reports `--report` wrote, one per shard
        #[arg(required = true)]
        reports: Vec<PathBuf>,
    },
    /// Browse and preview everything relic opens under PATH in a local web page (prints its URL first)
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
    View {
        /// A file, an archive or a folder
        #[arg(required_unless_present = "static_site", conflicts_with = "static_site")]
        path: Option<PathBuf>,
        /// Serve the static site of the browser build in DIR as it is (built by `npm run --prefix view-web
        /// build:web`), instead of viewing PATH
        #[arg(long = "static", value_name = "DIR")]
        static_site: Option<PathBuf>,
        /// Port to listen on (0: a free one)
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// Address to listen on: 127.0.0.1, ::1 or localhost (any other needs --unsafe-host)
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Allow a --host that is not a loopback address: anyone who reaches it can read every file under PATH
        #[arg(long)]
        unsafe_host: bool,
        /// Open the page in the system browser
        #[arg(long)]
        open: bool,
        /// Print only the URL (it is how the page is reached) and errors
        #[arg(long, short)]
        quiet: bool,
        /// Print the URL as JSON, `{"url": "http://127.0.0.1:PORT/"}`, on the first line
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        lookup: LookupArgs,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Write a file of FORMAT from a folder (archives), the JSON of `convert --to json`, or the file
    /// `convert` wrote (a PNG for an image, an INI for REG, …)
    #[command(
        after_help = "Entry names are the files' paths below the folder given. ro-grf keeps the name of a folder \
named `data` (any case) that holds no `data` folder itself, as GRF tools do: `relic pack ro-grf mygrf/data` \
names entries `data\\texture\\…`; any other folder is the archive's root, so a folder `relic extract` wrote \
(`out/data/…`) packs back under the same names.\n\nro-grf versions: 0x200 (the default); 0x300 (64-bit offsets, \
past 4 GiB) is written as today's client has it, signed `Event Horizon`; the JSON of `convert --to json` keeps \
any archive's signature (`header.signature`: `Master of Magic` or `Event Horizon`) and writes it back.\n\n\
ei-db from one table's CSV (`relic convert items.idb --to csv` names it `items.idb.Weapons.csv`): the rest of the \
database comes from `items.idb.json` (what `relic convert` wrote) or the game's `items.idb`, in the CSV's folder \
or the folder above it, or the file `--base` names (then the CSV may be named `Weapons.csv`); only the cells \
edited change in the file written. CSVs a spreadsheet saved are read as they are: cells separated by `,`, `;` \
or tabs, a decimal comma when `,` does not separate cells, hex bytes without their leading zeros (`0` for \
`000000`). A cell of the wrong type (text in a number column, 2.5 in an integer one) is an error naming the \
table, row, column and CSV line.\n\n\
Examples:\n  relic pack ei-res -o new.res extracted_folder\n  relic pack ei-db -o items.idb out/items.idb.Weapons.csv\n  relic pack ei-db --base game/items.idb -o items.idb Weapons.csv\n  relic pack ei-res -o same.res texts.json\n  relic pack ei-reg -o config.reg config.ini\n  relic pack ei-mmp --pixel-format dxt1 --mips -o wall.mmp wall.png\n  relic pack ei-res -o unit.mod unit.mod.glb\n  relic pack ro-grf --version 0x300 -o big.grf mygrf/data"
    )]
    Pack {
        /// Format id of the file to write (see `relic formats`)
        format: String,
        /// The file to write
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        /// Overwrite an existing file
        #[arg(long, short)]
        force: bool,
        /// Store identical contents once per name instead of sharing them
        #[arg(long)]
        no_dedupe: bool,
        /// Pixel format of an image format's texels (ei-mmp; default: the one the PNG records, else argb8)
        #[arg(long, value_name = "PIXEL_FORMAT", ignore_case = true, value_parser = pixel_format_parser())]
        pixel_format: Option<String>,
        /// Write a full mip chain when writing an image format
        #[arg(long)]
        mips: bool,
        /// Version of the archive format to write from a folder, in hex (ro-grf: 0x200, the default; 0x300
        /// for archives past 4 GiB, signed `Event Horizon` as today's client data.grf; 0x102, 0x103)
        #[arg(long, value_name = "VERSION", value_parser = parse_version)]
        version: Option<u32>,
        /// Map a colour of an edited frame PNG that the sprite's palette lacks to the nearest palette colour,
        /// instead of refusing it (ro-spr); a note says how many pixels changed
        #[arg(long)]
        quantize: bool,
        /// ei-db from one table's CSV: the database whose other tables are kept (the game's `.idb` or the
        /// JSON `relic convert` wrote), instead of the one beside the CSV; e.g.
        /// `relic pack ei-db --base game/items.idb -o items.idb Weapons.csv`
        #[arg(long, value_name = "FILE")]
        base: Option<PathBuf>,
        /// Print only warnings and errors (not notes, nor the line naming what was written)
        #[arg(long, short)]
        quiet: bool,
        /// Print what was written as JSON: `{"output": FILE, "bytes": N, "companions": [{"output": FILE,
        /// "bytes": N}], "notes": [...]}` (each size a file's own; companions are the files written beside it)
        #[arg(long)]
        json: bool,
        /// What to write it from: a folder (archives), the JSON of `relic convert --to json`, or the file
        /// `convert` wrote (a PNG for an image format, an INI for ei-reg)
        input: Option<PathBuf>,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Add, replace and delete entries of an archive in place, or merge other archives into it (ro-grf,
    /// ei-res, dr-ftg, drakan-srsc)
    #[command(after_help = EDIT_HELP)]
    Edit {
        /// The archive to edit
        archive: PathBuf,
        /// Add a file, or replace the entry of that name, stored as NAME (default: the file's name); `\` or
        /// `/` between folders
        #[arg(long, value_name = "PATH[=NAME]")]
        add: Vec<String>,
        /// Add every file below a folder, named by its path below it (under PREFIX when given)
        #[arg(long, value_name = "DIR[=PREFIX]")]
        add_folder: Vec<String>,
        /// Delete the entries a name or pattern matches (as `extract` matches: path or file name, any case,
        /// `\` or `/` between folders); one that matches nothing is a warning and exit 1
        #[arg(long, value_name = "NAME_OR_PATTERN")]
        delete: Vec<String>,
        /// Add (or replace by name) every entry of another archive, e.g. a `.gpf` patch into a `.grf`
        #[arg(long, value_name = "ARCHIVE")]
        merge: Vec<PathBuf>,
        /// ro-grf: write the archive afresh, dropping the space earlier edits left (the old tables, replaced
        /// and deleted entries' data)
        #[arg(long)]
        repack: bool,
        /// Say what would change; write nothing
        #[arg(long)]
        dry_run: bool,
        /// Wait up to SECONDS for another edit (or a reader) of the archive to finish, then refuse (0: refuse
        /// at once)
        #[arg(long, value_name = "SECONDS", default_value_t = 60)]
        wait: u64,
        /// Print only warnings and errors
        #[arg(long, short)]
        quiet: bool,
        /// Print what was done as JSON
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Print a shell's completion script (from the same definitions as the parser)
    #[command(after_help = "\
Examples:
  relic completions bash > ~/.local/share/bash-completion/completions/relic
  relic completions zsh > ~/.zfunc/_relic        # with fpath+=(~/.zfunc) before compinit
  relic completions fish > ~/.config/fish/completions/relic.fish
  relic completions powershell >> $PROFILE")]
    Completions {
        /// The shell to complete in
        shell: clap_complete::Shell,
        /// Print nothing but the script (nothing else is printed anyway)
        #[arg(long, short)]
        quiet: bool,
        /// Print `{"shell": SHELL, "script": TEXT}` instead of the bare script
        #[arg(long)]
        json: bool,
    },
    /// Print relic's man page (roff), or write one page per subcommand into a folder
    #[command(after_help = "\
Examples:
  relic man | man -l -
  relic man pack | man -l -
  relic man -o /usr/local/share/man/man1   # relic.1, relic-pack.1, …")]
    Man {
        /// The subcommand whose page to print (default: relic's own page, which lists the subcommands)
        #[arg(conflicts_with = "output")]
        subcommand: Option<String>,
        /// Write relic.1 and relic-SUBCOMMAND.1 for every subcommand into this folder
        #[arg(short, long, value_name = "DIR")]
        output: Option<PathBuf>,
        /// Print nothing but errors (and the --json output)
        #[arg(long, short)]
        quiet: bool,
        /// Print JSON: with -o, `{"written": [FILE, ...]}`; else `{"name": "relic.1", "roff": TEXT}`
        #[arg(long)]
        json: bool,
    },
}

impl Command {
    /// The decoding limits the subcommand takes, when it decodes anything.
    fn limits(&self) -> Option<&LimitArgs> {
        match self {
            Command::Info { limits, .. }
            | Command::Ls { limits, .. }
            | Command::Extract { limits, .. }
            | Command::Convert { limits, .. }
            | Command::Check { limits, .. }
            | Command::View { limits, .. }
            | Command::Pack { limits, .. }
            | Command::Edit { limits, .. } => Some(limits),
            Command::Formats { .. }
            | Command::Identify { .. }
            | Command::MergeReports { .. }
            | Command::Completions { .. }
            | Command::Man { .. } => None,
        }
    }
}

const EDIT_HELP: &str = "\
How each archive is edited (a crash at any moment leaves the old archive or the new one): ro-grf gets the new \
data and a new table appended, then its header rewritten (one small write), so untouched entries are neither \
read nor written and one file of a multi-GiB archive is replaced in well under a second; the space replaced \
entries and old tables took stays until --repack writes the archive afresh (to a temporary file renamed over \
it). ei-res, dr-ftg and drakan-srsc are written afresh beside the archive (untouched entries copied from it) \
and renamed over it, keeping its mode and owner.

One edit of an archive at a time: an edit locks the archive, and a second one (or ls, extract, the viewer) \
waits for it, saying so; after --wait SECONDS (default 60) an edit refuses, nothing written.

Order: deletions apply to the archive as it was, then merged entries (a later --merge wins), then added files \
(which win; a name added twice is refused). An entry of the same name as an added one (ASCII case ignored, \
`\\` and `/` alike; an SRSC record: the same type, id and group) is replaced where it stands and keeps its \
stored name; the others are added at the end. Names are stored in the archive's encoding (CP949 for ro-grf, \
cp1251 for ei-res, Windows-1252 for dr-ftg) and a name it cannot hold is refused, named. SRSC records are \
named as `extract` names them: <group path>/<type hex>_<id>[_<name>].bin. For ro-grf, --add-folder keeps the \
name of a folder named `data`, as `pack` does.

Examples:
  relic edit data.grf --add new.bmp='data\\texture\\new.bmp'
  relic edit data.grf --add-folder mygrf/data --delete 'data\\sprite\\old\\*'
  relic edit data.grf --merge patch.gpf
  relic edit data.grf --repack
  relic edit --dry-run --json textures.res --delete '*.tmp' --add ui.mmp=interface/ui.mmp
  relic edit Dragon.rrc --add strings/0400_12.bin";

fn main() -> ExitCode {
    let cli = Cli::from_arg_matches(&cli_command().get_matches()).unwrap_or_else(|e| e.exit());
    // Ctrl-C, SIGTERM and SIGHUP: remove the temporary files being written, then exit (130, as a shell
    // reports Ctrl-C). Only `kill -9` can leave one behind, and never under a final name.
    let _ = ctrlc::set_handler(|| relic::paths::exit_removing_temporaries(130));
    if let Some(limits) = cli.command.limits() {
        limits.apply();
    }
    let mut out = Vec::new();
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
    match stdout.write_all(&out).and_then(|()| stdout.flush()) {
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
    exit_code(failures)
}

/// What `extract` prints and exits 1 for: the entries that failed, then a warning for each pattern that
/// matched no entry of `archives`.
fn extract_problems(report: &ops::ExtractReport, archives: &str) -> Vec<String> {
    let warnings = report.unmatched.iter().map(|g| {
        format!(
            "warning: the pattern `{}` matches no entry of {} (patterns match entry paths or file names, any case, \
             `\\` or `/` between folders; `relic ls` lists the entries)",
            shown(g),
            shown(archives)
        )
    });
    report.failures.iter().cloned().chain(warnings).collect()
}

/// 0 when nothing failed, else 1.
fn exit_code(failures: &[String]) -> ExitCode {
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

/// JSON straight into the output buffer (no intermediate string). `ls --json` streams through
/// `ops::list_json` instead.
fn print_json(out: &mut Vec<u8>, value: &impl serde::Serialize) -> Result<(), Failure> {
    serde_json::to_writer_pretty(&mut *out, value)
        .map_err(|e| relic::Error::Unsupported(format!("JSON output: {e}")))?;
    out.push(b'\n');
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

fn run(command: Command, out: &mut Vec<u8>) -> Result<ExitCode, Failure> {
    match command {
        Command::Formats { quiet, json } => {
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
        Command::Identify { quiet, json, paths } => {
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
        Command::Info { quiet, json, format, file, .. } => {
            let forced = format.as_deref().map(format_by_id).transpose()?;
            let (format, value) = ops::info_as(&file, forced)?;
            if json {
                print_json(out, &value)?;
            } else if !quiet {
                outln!(out, "{}: {} ({})", shown(&file.display().to_string()), format.name, format.id);
                if let serde_json::Value::Object(map) = &value {
                    for (k, v) in map.iter().filter(|(k, _)| *k != "format") {
                        // A time's UTC form goes on its raw value's line: `newest_time: 1700000000
                        // (2023-11-14T22:13:20Z)`.
                        if k.strip_suffix("_utc").is_some_and(|raw| map.contains_key(raw)) {
                            continue;
                        }
                        let mut text = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
                        if let Some(utc) = map.get(&format!("{k}_utc")).and_then(|u| u.as_str()) {
                            text += &format!(" ({utc})");
                        }
                        outln!(out, "  {}: {}", shown(k), shown(&text));
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Ls { quiet, json, recursive, format, archive, .. } => {
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
        Command::Extract {
            output,
            recursive,
            force,
            skip_existing,
            quiet,
            json,
            format,
            batch,
            archive,
            mut globs,
            ..
        } => {
            let format = format.as_deref().map(format_by_id).transpose()?;
            if let Some(dir) = &output {
                output_folder(dir)?;
            }
            let bar = Bar::new(quiet, true);
            let (report, out_dir, problems) = if let Some(list) = &batch.files_from {
                // With a list, every positional is a pattern.
                globs.splice(0..0, archive.map(|a| a.to_string_lossy().into_owned()));
                let archives = ops::read_files_from(list)?;
                let out_dir = output.unwrap_or_else(|| PathBuf::from("."));
                let opts = ops::ExtractOptions { recursive, force, skip_existing, globs, format };
                let report = ops::extract_many(&archives, &out_dir, &opts, batch.shard, &bar);
                let mut summary = ops::Report::new("extract", batch.shard, &[]);
                summary.inputs = ops::Shard::select(batch.shard, archives, |p| p.as_path())
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect();
                summary.outputs = report.written.iter().map(|w| w.output.clone()).collect();
                summary.bytes = report.bytes;
                let problems = extract_problems(&report, "the listed archives");
                summary.failures = problems.clone();
                batch.write_report(summary)?;
                (report, out_dir, problems)
            } else {
                let archive = archive.ok_or_else(|| Failure::Usage("no archive named".into()))?;
                let out_dir = output.unwrap_or_else(|| default_folder(&archive));
                let opts = ops::ExtractOptions { recursive, force, skip_existing, globs, format };
                let report = ops::extract(&archive, &out_dir, &opts, &bar)?;
                let mut summary = ops::Report::new("extract", None, std::slice::from_ref(&archive));
                summary.outputs = report.written.iter().map(|w| w.output.clone()).collect();
                summary.bytes = report.bytes;
                let problems = extract_problems(&report, &archive.display().to_string());
                summary.failures = problems.clone();
                batch.write_report(summary)?;
                (report, out_dir, problems)
            };
            drop(bar);
            if json {
                print_json(out, &report.written)?;
            }
            for f in &problems {
                say!("relic: {f}");
            }
            if !json && !quiet {
                let mut line = format!(
                    "extracted {} ({} bytes) to {}",
                    count(report.written.len(), "file", "files"),
                    report.bytes,
                    out_dir.display()
                );
                if report.kept > 0 {
                    line += &format!(", kept {} already there", count(report.kept, "file", "files"));
                }
                if !report.failures.is_empty() {
                    line += &format!(", {} failed", report.failures.len());
                }
                say!("{line}");
            }
            Ok(exit_code(&problems))
        }
        Command::Convert {
            output,
            base,
            to,
            mips,
            lookup: LookupArgs { textures, models, palette },
            bones,
            anims,
            with,
            head_palette,
            morph,
            format,
            settings,
            compression,
            force,
            skip_existing,
            quiet,
            json,
            batch,
            inputs,
            ..
        } => {
            output_folder(&output)?;
            let listed = batch.files_from.is_some();
            let inputs = batch.inputs(inputs)?;
            let format = format.as_deref().map(format_by_id).transpose()?;
            let options = relic::registry::ConvertOptions {
                mips,
                textures,
                models,
                palette,
                settings,
                bones,
                anims,
                with,
                head_palette,
                morph,
                compression,
                ..Default::default()
            };
            let req =
                ops::ConvertRequest { to, force, skip_existing, options, format, shard: batch.shard, listed, base };
            ops::check_convert_request(&inputs, &req).map_err(Failure::Usage)?;
            let bar = Bar::new(quiet, false);
            let report = ops::convert(&inputs, &output, &req, &bar);
            drop(bar);
            let mut summary = ops::Report::new("convert", batch.shard, &[]);
            summary.inputs = report.inputs.clone();
            summary.outputs = report.outputs.iter().map(|o| o.output.clone()).collect();
            summary.failures = report.failures.clone();
            summary.skipped = report.skipped.clone();
            batch.write_report(summary)?;
            if json {
                let mut manifest = serde_json::json!({
                    "outputs": report.outputs,
                    "failures": report.failed,
                    "skipped": report.skipped,
                    "existing": report.existing,
                    "warnings": report.warnings,
                    "missing": report.missing,
                    "missing_summary": report.missing_summary,
                });
                // relic's records of what was written (`<input>.relic.json`, see `relic::record`), when any.
                if !report.records.is_empty() {
                    manifest["records"] = serde_json::json!(report.records);
                }
                print_json(out, &manifest)?;
            }
            // The outputs already there, said once and first (as `extract` says it), not once per file.
            if let Some(refusal) = &report.existing_refusal {
                say!("relic: {refusal}");
            }
            // Each names its input, once (a texture two models lack is said for each).
            for warning in &report.warnings {
                say!("relic: warning: {warning}");
            }
            if !quiet && !json {
                for line in skipped_lines(&report.skipped) {
                    say!("{line}");
                }
            }
            for f in report.failures.iter().skip(usize::from(report.existing_refusal.is_some())) {
                say!("relic: {f}");
            }
            // What the batch did not find, in one line per kind, after the warnings that name each.
            for line in &report.missing_summary {
                say!("relic: warning: in all, {line}");
            }
            if !quiet && !json {
                say!("{}", convert_summary(&report, &output));
            }
            Ok(exit_code(&report.failures))
        }
        Command::Check { json, quiet, format, batch, inputs, .. } => {
            let format = format.as_deref().map(format_by_id).transpose()?;
            let inputs = batch.inputs(inputs)?;
            let bar = Bar::new(quiet, false);
            let items = ops::check_as(&inputs, batch.shard, format, &bar);
            drop(bar);
            let failures: Vec<String> = items
                .iter()
                .filter(|i| matches!(i.outcome, "differs" | "failed"))
                .map(|i| format!("{}: {} ({})", i.path, i.outcome, i.detail.as_deref().unwrap_or("")))
                .collect();
            let mut summary = ops::Report::new("check", batch.shard, &[]);
            summary.inputs = items.iter().map(|i| i.path.clone()).collect();
            summary.outputs = items.iter().map(|i| format!("{}: {}", i.path, i.outcome)).collect();
            summary.failures = failures.clone();
            batch.write_report(summary)?;
            // What a file needs and its folder lacks (a model's textures), though it reads and writes back.
            if !quiet {
                for i in &items {
                    for w in &i.warnings {
                        say!("relic: warning: {}: {w}", shown(&i.path));
                    }
                }
            }
            let counts = ["identical", "differs", "failed", "read", "unknown"]
                .map(|outcome| (outcome, items.iter().filter(|i| i.outcome == outcome).count()));
            if json {
                print_json(out, &ops::check_summary(&items))?;
            } else if !quiet {
                for i in &items {
                    outln!(out, "{:<9} {:<12} {}", i.outcome, i.format.unwrap_or("-"), shown(&i.path));
                }
            }
            let code = finish(&failures);
            if !quiet && !json {
                // The first three always (a script can read them), `read` (not written yet) and `unknown` when any.
                let counts: Vec<String> = counts
                    .iter()
                    .enumerate()
                    .filter(|&(i, &(_, n))| i < 3 || n > 0)
                    .map(|(_, (outcome, n))| format!("{n} {outcome}"))
                    .collect();
                say!("check: {}", counts.join(", "));
            }
            Ok(code)
        }
        Command::MergeReports { output, quiet, json, reports } => {
            let reports = reports.iter().map(|p| ops::Report::read(p)).collect::<relic::Result<Vec<_>>>()?;
            let (merged, notes) = ops::merge_reports(reports)?;
            for note in &notes {
                say!("relic: warning: {note}");
            }
            if json {
                print_json(out, &merged)?;
            }
            match output {
                Some(path) => {
                    merged.write(&path)?;
                    if quiet || json {
                        return Ok(ExitCode::SUCCESS);
                    }
                    say!(
                        "merged {} shards: {} inputs, {} outputs, {} failures into {}",
                        merged.shards.len(),
                        merged.inputs.len(),
                        merged.outputs.len(),
                        merged.failures.len(),
                        path.display()
                    );
                }
                None if !json => print_json(out, &merged)?,
                None => {}
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::View { path, static_site, port, host, unsafe_host, open, quiet, json, lookup, .. } => {
            let LookupArgs { textures, models, palette } = lookup;
            let lookup = relic::view::Lookup { textures, models, palette };
            let args = ViewArgs { port, host: &host, unsafe_host, open, quiet, json, lookup };
            match (path, static_site) {
                (_, Some(dir)) => view(&dir, true, args),
                (Some(path), None) => view(&path, false, args),
                (None, None) => Err(Failure::Usage("give a PATH to view, or --static DIR".into())),
            }
        }
        Command::Pack {
            format,
            output,
            force,
            no_dedupe,
            pixel_format,
            mips,
            version,
            quantize,
            base,
            quiet,
            json,
            input,
            ..
        } => {
            let f = format_by_id(&format)?;
            if !f.capabilities().write {
                return Err(Failure::Run(relic::Error::Unsupported(format!("{} files cannot be written yet", f.id))));
            }
            let input =
                input.ok_or_else(|| Failure::Usage(format!("pack {} needs an input: {}", f.id, f.packed_from())))?;
            if let Some(chosen) = &pixel_format {
                if !f.pixel_formats.iter().any(|p| p.eq_ignore_ascii_case(chosen)) {
                    let with: Vec<&str> =
                        relic::FORMATS.iter().filter(|f| !f.pixel_formats.is_empty()).map(|f| f.id).collect();
                    return Err(Failure::Usage(format!(
                        "{} has no pixel format to choose (--pixel-format is for {})",
                        f.id,
                        with.join(", ")
                    )));
                }
            }
            if let Some(v) = version {
                let document = input.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
                ops::check_pack_version(f, v, input.is_dir() || !document)
                    .map_err(|e| Failure::Usage(e.to_string()))?;
            }
            let csv = input.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv"));
            if base.is_some() && (f.id != "ei-db" || !csv) {
                return Err(Failure::Usage(format!(
                    "--base is for ei-db from one table's CSV, not {} from {}",
                    f.id,
                    input.display()
                )));
            }
            let opts = ops::PackOptions { force, no_dedupe, pixel_format, mips, version, quantize, base };
            let report = ops::pack(&format, &input, &output, &opts)?;
            if json {
                let companions: Vec<_> = report
                    .companions
                    .iter()
                    .map(|(path, bytes)| serde_json::json!({ "output": path.display().to_string(), "bytes": bytes }))
                    .collect();
                let value = serde_json::json!({
                    "output": output.display().to_string(),
                    "bytes": report.bytes,
                    "companions": companions,
                    "notes": report.notes,
                });
                print_json(out, &value)?;
            }
            for note in &report.notes {
                // Warnings (an edited view, …) are said even with -q.
                if !quiet || note.starts_with("warning:") {
                    say!("{note}");
                }
            }
            if !quiet && !json {
                // Each file with its own size: the model, then what was written beside it (its textures).
                say!("wrote {} ({} bytes)", output.display(), report.bytes);
                for (path, bytes) in &report.companions {
                    say!("wrote {} ({bytes} bytes) beside it", path.display());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Edit { archive, add, add_folder, delete, merge, repack, dry_run, wait, quiet, json, .. } => {
            if add.is_empty() && add_folder.is_empty() && delete.is_empty() && merge.is_empty() && !repack {
                return Err(Failure::Usage(
                    "nothing to do: give --add, --add-folder, --delete, --merge or --repack".into(),
                ));
            }
            let files = add.iter().map(|a| ops::AddSpec::parse(a, false));
            let folders = add_folder.iter().map(|a| ops::AddSpec::parse(a, true));
            let wait = Some(std::time::Duration::from_secs(wait));
            let request =
                ops::EditRequest { add: files.chain(folders).collect(), delete, merge, repack, dry_run, wait };
            let report = ops::edit(&archive, &request)?;
            let problems: Vec<String> = report
                .unmatched
                .iter()
                .map(|g| {
                    format!(
                        "warning: the pattern `{}` matches no entry of {} (patterns match entry paths or file names, \
                         any case, `\\` or `/` between folders; `relic ls` lists the entries)",
                        shown(g),
                        shown(&archive.display().to_string())
                    )
                })
                .collect();
            if json {
                print_json(out, &report)?;
            } else if !quiet {
                let lines = [("added", &report.added), ("replaced", &report.replaced), ("deleted", &report.deleted)];
                for (what, names) in lines {
                    for name in names {
                        outln!(out, "{what:<8} {}", shown(name));
                    }
                }
            }
            for p in &problems {
                say!("relic: {p}");
            }
            if !quiet {
                for note in &report.notes {
                    say!("note: {note}");
                }
            }
            if !quiet && !json {
                let how = match report.method {
                    ops::EditMethod::Append => "data and table appended, header rewritten",
                    ops::EditMethod::Rewrite => "written afresh and renamed over it",
                    ops::EditMethod::Repack => "repacked",
                    ops::EditMethod::Unchanged => "nothing to change",
                };
                let verb = if report.dry_run { "would edit" } else { "edited" };
                if report.method == ops::EditMethod::Unchanged {
                    say!("{} unchanged: nothing to add, replace or delete", archive.display());
                } else {
                    say!(
                        "{verb} {} ({}, {how}): {} added, {} replaced, {} deleted; {}, {} bytes written",
                        archive.display(),
                        report.format,
                        report.added.len(),
                        report.replaced.len(),
                        report.deleted.len(),
                        count(report.entries, "entry", "entries"),
                        report.bytes_written
                    );
                }
            }
            Ok(exit_code(&problems))
        }
        Command::Completions { shell, json, .. } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut cli_command(), "relic", &mut script);
            if json {
                let script = String::from_utf8_lossy(&script);
                print_json(out, &serde_json::json!({ "shell": shell.to_string(), "script": script }))?;
            } else {
                out.extend_from_slice(&script);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Man { subcommand, output, quiet, json } => {
            man(subcommand.as_deref(), output.as_deref(), quiet, json, out)
        }
    }
}

/// The man page of `relic` or of one subcommand (`relic-pack`, named as git names its pages), as roff; its
/// footer names relic's version (a subcommand has none of its own: `pack --version` is pack's option).
fn man_page(command: &clap::Command) -> Result<Vec<u8>, Failure> {
    let mut roff = Vec::new();
    clap_mangen::Man::new(command.clone())
        .source(format!("relic {}", version_text()))
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
    let relic = cli_command();
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

/// `-o` of a command that writes into a folder: a file of that name is a mistake worth saying in words.
fn output_folder(path: &Path) -> Result<(), Failure> {
    if path.is_file() {
        return Err(Failure::Usage(format!("`{}` is a file; -o needs a folder (or a new name)", path.display())));
    }
    Ok(())
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

/// A format named on the command line (`--format`, `pack FORMAT`); an unknown id is a usage error that
/// suggests the nearest id (`ei-rse` → `ei-res`), or lists them all when none is near.
fn format_by_id(id: &str) -> Result<&'static relic::Format, Failure> {
    relic::registry::by_id(id).ok_or_else(|| {
        let typed = id.to_ascii_lowercase();
        // Two edits (a transposition counting as one) cover a typo without suggesting an unrelated id.
        let nearest = relic::FORMATS
            .iter()
            .map(|f| (strsim::damerau_levenshtein(&typed, f.id), f.id))
            .min()
            .filter(|&(distance, _)| distance <= 2);
        Failure::Usage(match nearest {
            Some((_, near)) => format!("unknown format `{id}`; did you mean `{near}`?"),
            None => {
                let ids: Vec<&str> = relic::FORMATS.iter().map(|f| f.id).collect();
                format!("unknown format `{id}` (one of {})", ids.join(", "))
            }
        })
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
fn parse_compression(s: &str) -> Result<relic::export::png::PngCompression, String> {
    relic::export::png::PngCompression::from_name(s).ok_or_else(|| {
        format!("`{s}` is not a compression level ({})", relic::export::png::PngCompression::NAMES.join(", "))
    })
}

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

/// `n` and the noun, singular or plural (`1 file`, `2 files`).
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The last line of `relic convert`: what was written (the file itself when there is one), then what failed
/// and what was skipped, counted.
fn convert_summary(report: &ops::ConvertReport, output: &Path) -> String {
    let mut line = match report.outputs.as_slice() {
        [one] => format!("wrote {}", one.output),
        all => format!("wrote {} to {}", count(all.len(), "file", "files"), output.display()),
    };
    // The outputs already there: kept (--skip-existing), or the one refusal, not counted as a failed input.
    let refused = usize::from(report.existing_refusal.is_some());
    if !report.existing.is_empty() {
        let verb = if refused == 1 { "left" } else { "kept" };
        line += &format!(", {verb} {} already there", count(report.existing.len(), "file", "files"));
    }
    if report.failures.len() > refused {
        line += &format!(", {} failed", report.failures.len() - refused);
    }
    if !report.skipped.is_empty() {
        line += &format!(", {} skipped", report.skipped.len());
    }
    line
}

/// Skipped files for a person: one line each when there are few; otherwise one line per reason, counted
/// (`--json` and `--report` list every file).
fn skipped_lines(skipped: &[String]) -> Vec<String> {
    if skipped.len() <= 5 {
        return skipped.iter().map(|s| format!("skipped {s}")).collect();
    }
    // Grouped by reason, the format id taken out of it (`ei-mmp cannot be made into csv` and `ro-rsm cannot
    // be made into csv` are one line naming both).
    let mut reasons: std::collections::BTreeMap<&str, (usize, &str, std::collections::BTreeSet<&str>)> =
        Default::default();
    for s in skipped {
        // `path: reason`; the path may itself hold ": ", the reason never does.
        let (path, reason) = s.rsplit_once(": ").unwrap_or(("", s.as_str()));
        let (id, rest) = match reason.split_once(' ') {
            Some((id, rest)) if relic::registry::by_id(id).is_some() => {
                (Some(id), rest.strip_prefix("is ").unwrap_or(rest))
            }
            _ => (None, reason),
        };
        let e = reasons.entry(rest).or_insert((0, path, Default::default()));
        e.0 += 1;
        e.2.extend(id);
    }
    reasons
        .into_iter()
        .map(|(reason, (n, first, ids))| {
            let ids = if ids.is_empty() {
                String::new()
            } else {
                format!("{}; ", ids.into_iter().collect::<Vec<_>>().join(", "))
            };
            format!("skipped {}: {reason} ({ids}the first: {first})", count(n, "file", "files"))
        })
        .collect()
}

/// `extract`'s folder without -o: the archive's name without its extension (`textures.res` → `textures`).
/// An archive without an extension (`data`) would name itself, so it gets `data.extracted`.
fn default_folder(archive: &Path) -> PathBuf {
    let Some(name) = archive.file_name() else { return PathBuf::from("extracted") };
    match archive.file_stem() {
        Some(stem) if stem != name => PathBuf::from(stem),
        _ => {
            let mut folder = name.to_os_string();
            folder.push(".extracted");
            PathBuf::from(folder)
        }
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

    #[test]
    fn an_archive_without_extension_never_extracts_into_itself() {
        assert_eq!(default_folder(Path::new("game/textures.res")), PathBuf::from("textures"));
        assert_eq!(default_folder(Path::new("game/data")), PathBuf::from("data.extracted"));
        assert_eq!(default_folder(Path::new(".grf")), PathBuf::from(".grf.extracted"));
        assert_eq!(default_folder(Path::new("/")), PathBuf::from("extracted"));
    }

    #[test]
    fn a_mistyped_format_id_is_answered_with_the_nearest() {
        let message = |id| match format_by_id(id) {
            Err(Failure::Usage(m)) => m,
            _ => panic!("{id} accepted"),
        };
        assert_eq!(message("ei-rse"), "unknown format `ei-rse`; did you mean `ei-res`?");
        assert_eq!(message("RO-GRF2"), "unknown format `RO-GRF2`; did you mean `ro-grf`?");
        assert!(message("zip").starts_with("unknown format `zip` (one of ei-res, "), "{}", message("zip"));
    }
}
