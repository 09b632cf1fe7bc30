//! `relic pack`: a file of a format from a folder, a JSON document or what `convert` wrote.

use std::path::PathBuf;
use std::process::ExitCode;

use relic::ops;

use crate::commands::format_by_id;
use crate::failure::Failure;
use crate::limits::LimitArgs;
use crate::output::{json_help, print_json, quiet_help, Context, OutputArgs};

/// Write a file of FORMAT from a folder (archives), the JSON of `convert --to json`, or the file
/// `convert` wrote (a PNG for an image, an INI for REG, …)
#[derive(clap::Args)]
#[command(after_help = "Entry names are the files' paths below the folder given. ro-grf keeps the name of a folder \
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
Examples:\n  relic pack ei-res -o new.res extracted_folder\n  relic pack ei-db -o items.idb out/items.idb.Weapons.csv\n  relic pack ei-db --base game/items.idb -o items.idb Weapons.csv\n  relic pack ei-res -o same.res texts.json\n  relic pack ei-reg -o config.reg config.ini\n  relic pack ei-mmp --pixel-format dxt1 --mips -o wall.mmp wall.png\n  relic pack ei-res -o unit.mod unit.mod.glb\n  relic pack ro-grf --version 0x300 -o big.grf mygrf/data")]
#[command(mut_args(quiet_help("Print only warnings and errors (not notes, nor the line naming what was written)")))]
#[command(mut_args(json_help(
    "Print what was written as JSON: `{\"output\": FILE, \"bytes\": N, \"companions\": [{\"output\": \
     FILE, \"bytes\": N}], \"notes\": [...]}` (each size a file's own; companions are the files written \
     beside it)"
)))]
pub struct Args {
    /// Format id of the file to write (see `relic formats`)
    pub format: String,
    /// The file to write
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Overwrite an existing file
    #[arg(long, short)]
    pub force: bool,
    /// Store identical contents once per name instead of sharing them
    #[arg(long)]
    pub no_dedupe: bool,
    /// Pixel format of an image format's texels (ei-mmp; default: the one the PNG records, else argb8)
    #[arg(long, value_name = "PIXEL_FORMAT", ignore_case = true, value_parser = pixel_format_parser())]
    pub pixel_format: Option<String>,
    /// Write a full mip chain when writing an image format
    #[arg(long)]
    pub mips: bool,
    /// Version of the archive format to write from a folder, in hex (ro-grf: 0x200, the default; 0x300
    /// for archives past 4 GiB, signed `Event Horizon` as today's client data.grf; 0x102, 0x103)
    #[arg(long, value_name = "VERSION", value_parser = parse_version)]
    pub version: Option<u32>,
    /// Map a colour of an edited frame PNG that the sprite's palette lacks to the nearest palette colour,
    /// instead of refusing it (ro-spr); a note says how many pixels changed
    #[arg(long)]
    pub quantize: bool,
    /// ei-db from one table's CSV: the database whose other tables are kept (the game's `.idb` or the
    /// JSON `relic convert` wrote), instead of the one beside the CSV; e.g.
    /// `relic pack ei-db --base game/items.idb -o items.idb Weapons.csv`
    #[arg(long, value_name = "FILE")]
    pub base: Option<PathBuf>,
    #[command(flatten)]
    pub print: OutputArgs,
    /// What to write it from: a folder (archives), the JSON of `relic convert --to json`, or the file
    /// `convert` wrote (a PNG for an image format, an INI for ei-reg)
    pub input: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: Args, ctx: &mut Context) -> Result<ExitCode, Failure> {
    args.limits.apply();
    let Args {
        format,
        output,
        force,
        no_dedupe,
        pixel_format,
        mips,
        version,
        quantize,
        base,
        print: OutputArgs { quiet, json },
        input,
        ..
    } = args;
    let out = &mut ctx.out;
    let f = format_by_id(&format)?;
    if !f.capabilities().write {
        return Err(Failure::Run(relic::Error::Unsupported(format!("{} files cannot be written yet", f.id))));
    }
    let input = input.ok_or_else(|| Failure::Usage(format!("pack {} needs an input: {}", f.id, f.packed_from())))?;
    if let Some(chosen) = &pixel_format {
        if !f.pixel_formats.iter().any(|p| p.eq_ignore_ascii_case(chosen)) {
            let with: Vec<&str> = relic::FORMATS.iter().filter(|f| !f.pixel_formats.is_empty()).map(|f| f.id).collect();
            return Err(Failure::Usage(format!(
                "{} has no pixel format to choose (--pixel-format is for {})",
                f.id,
                with.join(", ")
            )));
        }
    }
    if let Some(v) = version {
        let document = input.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
        ops::check_pack_version(f, v, input.is_dir() || !document).map_err(|e| Failure::Usage(e.to_string()))?;
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

/// A format version in hex, `0x300` or `300`.
fn parse_version(text: &str) -> Result<u32, String> {
    let t = text.trim();
    let digits = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")).unwrap_or(t);
    u32::from_str_radix(digits, 16).map_err(|_| format!("`{text}` is not a version in hex (e.g. 0x300)"))
}
