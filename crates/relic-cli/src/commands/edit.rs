//! `relic edit`: an archive's entries added, replaced and deleted in place.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use relic::ops;

use crate::failure::{exit_code, Failure};
use crate::limits::LimitArgs;
use crate::output::{count, json_help, print_json, quiet_help, shown, Context, OutputArgs};

/// Add, replace and delete entries of an archive in place, or merge other archives into it (ro-grf,
/// ei-res, dr-ftg, drakan-srsc)
#[derive(clap::Args)]
#[command(after_help = EDIT_HELP)]
#[command(mut_args(quiet_help("Print only warnings and errors")))]
#[command(mut_args(json_help("Print what was done as JSON")))]
pub struct Args {
    /// The archive to edit
    pub archive: PathBuf,
    /// Add a file, or replace the entry of that name, stored as NAME (default: the file's name); `\` or
    /// `/` between folders
    #[arg(long, value_name = "PATH[=NAME]")]
    pub add: Vec<String>,
    /// Add every file below a folder, named by its path below it (under PREFIX when given)
    #[arg(long, value_name = "DIR[=PREFIX]")]
    pub add_folder: Vec<String>,
    /// Delete the entries a name or pattern matches (as `extract` matches: path or file name, any case,
    /// `\` or `/` between folders); one that matches nothing is a warning and exit 1
    #[arg(long, value_name = "NAME_OR_PATTERN")]
    pub delete: Vec<String>,
    /// Add (or replace by name) every entry of another archive, e.g. a `.gpf` patch into a `.grf`
    #[arg(long, value_name = "ARCHIVE")]
    pub merge: Vec<PathBuf>,
    /// ro-grf: write the archive afresh, dropping the space earlier edits left (the old tables, replaced
    /// and deleted entries' data)
    #[arg(long)]
    pub repack: bool,
    /// Say what would change; write nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Wait up to SECONDS for another edit (or a reader) of the archive to finish, then refuse (0: refuse
    /// at once)
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub wait: u64,
    #[command(flatten)]
    pub print: OutputArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: Args, ctx: &mut Context) -> Result<ExitCode, Failure> {
    args.limits.apply();
    let Args {
        archive, add, add_folder, delete, merge, repack, dry_run, wait, print: OutputArgs { quiet, json }, ..
    } = args;
    let out = &mut ctx.out;
    if add.is_empty() && add_folder.is_empty() && delete.is_empty() && merge.is_empty() && !repack {
        return Err(Failure::Usage("nothing to do: give --add, --add-folder, --delete, --merge or --repack".into()));
    }
    let files = add.iter().map(|a| ops::AddSpec::parse(a, false));
    let folders = add_folder.iter().map(|a| ops::AddSpec::parse(a, true));
    let wait = Some(std::time::Duration::from_secs(wait));
    let request = ops::EditRequest { add: files.chain(folders).collect(), delete, merge, repack, dry_run, wait };
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
