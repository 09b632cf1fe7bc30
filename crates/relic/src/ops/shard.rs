//! Spreading one batch over many machines without a scheduler of relic's own: `--files-from LIST` names the
//! inputs, `--shard K/N` keeps the inputs whose path hashes to K of N, and `--report FILE.json` records what
//! one shard did; `relic merge-reports` combines the reports. Any scheduler that can start N copies of a
//! command with K = 1…N (GNU parallel, Slurm job arrays, Kubernetes indexed Jobs) runs the batch.
//!
//! What makes shards safe to run side by side: the subset is a pure function of the input's path string
//! (BLAKE3 of its bytes, `\` read as `/`), so every machine given the same list agrees on it; and every
//! output path is computed from the whole list before the subset is taken (names that two inputs share are
//! disambiguated over the whole list, as one run would), so the union of N shards is one whole run, byte for
//! byte, and no two shards write the same file.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Shard K of N (K from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Shard, String> {
        let bad = || format!("`{s}` is not a shard K/N with 1 ≤ K ≤ N (e.g. 3/8)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Whether `input` belongs to this shard (see the module notes).
    pub fn contains(&self, input: &Path) -> bool {
        let key = input.to_string_lossy().replace('\\', "/");
        let hash = blake3::hash(key.as_bytes());
        let mut first = [0u8; 8];
        first.copy_from_slice(&hash.as_bytes()[..8]);
        u64::from_le_bytes(first) % u64::from(self.count) == u64::from(self.index - 1)
    }

    /// Keeps the items of this shard (all when there is no shard).
    pub fn select<T>(shard: Option<Shard>, items: Vec<T>, path: impl Fn(&T) -> &Path) -> Vec<T> {
        match shard {
            Some(s) => items.into_iter().filter(|i| s.contains(path(i))).collect(),
            None => items,
        }
    }
}

/// The inputs a `--files-from` list names: one path per line (`-` reads standard input); blank lines and
/// lines starting with `#` are skipped; a trailing `\r` is dropped.
pub fn read_files_from(list: &Path) -> Result<Vec<PathBuf>> {
    let text = if list == Path::new("-") {
        // Waited on as long as it takes (a `find` piping names in), but bounded as every input is.
        let max = crate::limits::current().max_entry_size;
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::Read::take(std::io::stdin(), max.saturating_add(1)), &mut s)
            .map_err(|e| Error::io(list, e))?;
        if s.len() as u64 > max {
            return Err(Error::Refused(format!(
                "standard input (--files-from -): more than relic's limit of {max} bytes for one input \
                 (--max-entry-size raises it)"
            )));
        }
        s
    } else {
        crate::source::read_to_string(list)?
    };
    Ok(text
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(PathBuf::from)
        .collect())
}

/// What one run (or one shard of it) did: `--report FILE.json`. Lists are sorted, so reports of the same
/// work compare equal whatever order the work ran in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub format: String,
    /// `convert`, `extract` or `check`.
    pub command: String,
    /// The shards this report covers (`["2/4"]`; several after a merge; empty for a whole run).
    pub shards: Vec<String>,
    /// Inputs this report covers.
    pub inputs: Vec<String>,
    /// Files written (convert, extract), or `path: outcome` lines (check).
    pub outputs: Vec<String>,
    /// Bytes written (extract).
    #[serde(default)]
    pub bytes: u64,
    pub failures: Vec<String>,
    #[serde(default)]
    pub skipped: Vec<String>,
}

pub const REPORT_FORMAT: &str = "relic-report";

impl Report {
    pub fn new(command: &str, shard: Option<Shard>, inputs: &[PathBuf]) -> Report {
        Report {
            format: REPORT_FORMAT.into(),
            command: command.into(),
            shards: shard.map(|s| vec![s.to_string()]).unwrap_or_default(),
            inputs: inputs.iter().map(|p| p.display().to_string()).collect(),
            outputs: Vec::new(),
            bytes: 0,
            failures: Vec::new(),
            skipped: Vec::new(),
        }
    }

    /// Sorts every list (reports compare equal whatever order work finished in).
    pub fn sorted(mut self) -> Report {
        for list in [&mut self.inputs, &mut self.outputs, &mut self.failures, &mut self.skipped] {
            list.sort();
        }
        self.shards.sort_by_key(|s| shard_key(s));
        self
    }

    /// Writes the report as JSON, atomically (a report of an earlier run of the same shard is replaced).
    pub fn write(&self, path: &Path) -> Result<()> {
        let value = serde_json::to_value(self).map_err(|e| Error::Unsupported(format!("report: {e}")))?;
        let bytes = crate::export::json::to_pretty(&value)?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let file =
            dir.join(path.file_name().ok_or_else(|| Error::Refused(format!("{}: no file name", path.display())))?);
        let opts = crate::paths::WriteOptions { force: true, modified: None };
        crate::paths::write_atomic(&dir, &file, opts, |w| w.write_all(&bytes).map_err(|e| Error::io(&file, e)))
    }

    pub fn read(path: &Path) -> Result<Report> {
        let bytes = crate::source::read(path)?;
        let report: Report = serde_json::from_slice(&bytes)
            .map_err(|e| Error::Refused(format!("{}: not a relic report: {e}", path.display())))?;
        if report.format != REPORT_FORMAT {
            return Err(Error::Refused(format!("{}: not a relic report (format `{}`)", path.display(), report.format)));
        }
        Ok(report)
    }
}

fn shard_key(s: &str) -> (u32, u32) {
    s.parse::<Shard>().map_or((u32::MAX, u32::MAX), |s| (s.count, s.index))
}

/// Combines shard reports of one command into one. Refused: reports of different commands, a shard given
/// twice, shards of different counts, or an input in two reports. Shards that are missing are named in
/// the returned notes (the merge still happens: a batch may be merged while it runs).
pub fn merge_reports(reports: Vec<Report>) -> Result<(Report, Vec<String>)> {
    let Some(first) = reports.first() else { return Err(Error::Refused("no reports to merge".into())) };
    let command = first.command.clone();
    let mut merged = Report::new(&command, None, &[]);
    let mut seen_shards = BTreeSet::new();
    let mut counts = BTreeSet::new();
    let mut seen_inputs = BTreeSet::new();
    for r in reports {
        if r.command != command {
            return Err(Error::Refused(format!("reports of `{command}` and `{}` cannot be merged", r.command)));
        }
        for s in &r.shards {
            let shard: Shard = s.parse().map_err(Error::Refused)?;
            counts.insert(shard.count);
            if !seen_shards.insert(shard.index) {
                return Err(Error::Refused(format!("shard {shard} is in two reports")));
            }
        }
        for input in &r.inputs {
            if !seen_inputs.insert(input.clone()) {
                return Err(Error::Refused(format!("input `{input}` is in two reports")));
            }
        }
        merged.shards.extend(r.shards);
        merged.inputs.extend(r.inputs);
        merged.outputs.extend(r.outputs);
        merged.bytes += r.bytes;
        merged.failures.extend(r.failures);
        merged.skipped.extend(r.skipped);
    }
    if counts.len() > 1 {
        return Err(Error::Refused(format!(
            "shards of different counts ({}) cannot be merged",
            counts.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
        )));
    }
    let mut notes = Vec::new();
    if let Some(&n) = counts.first() {
        let missing: Vec<String> = (1..=n).filter(|k| !seen_shards.contains(k)).map(|k| format!("{k}/{n}")).collect();
        if !missing.is_empty() {
            notes.push(format!("missing shards: {}", missing.join(", ")));
        }
    }
    Ok((merged.sorted(), notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_every_path_exactly_once_and_stably() {
        let paths: Vec<PathBuf> = (0..1000).map(|i| PathBuf::from(format!("game/data/file{i}.res"))).collect();
        let shards: Vec<Shard> = (1..=4).map(|k| format!("{k}/4").parse().unwrap()).collect();
        let mut sizes = Vec::new();
        for p in &paths {
            assert_eq!(shards.iter().filter(|s| s.contains(p)).count(), 1, "{}", p.display());
        }
        for s in &shards {
            sizes.push(paths.iter().filter(|p| s.contains(p)).count());
        }
        assert!(sizes.iter().all(|&n| (200..300).contains(&n)), "{sizes:?}");
        // The same path in Windows form lands in the same shard.
        let s = shards.iter().find(|s| s.contains(Path::new("game/data/file7.res"))).unwrap();
        assert!(s.contains(Path::new("game\\data\\file7.res")));
        for bad in ["0/4", "5/4", "1/0", "a/b", "3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!("2/8".parse::<Shard>().unwrap().to_string(), "2/8");
    }

    #[test]
    fn reports_merge_and_refuse_overlaps() {
        let mut a = Report::new("convert", Some("1/2".parse().unwrap()), &[PathBuf::from("x")]);
        a.outputs = vec!["out/x.png".into()];
        let mut b = Report::new("convert", Some("2/2".parse().unwrap()), &[PathBuf::from("y")]);
        b.outputs = vec!["out/y.png".into()];
        b.failures = vec!["y: broken".into()];
        let (m, notes) = merge_reports(vec![b.clone(), a.clone()]).unwrap();
        assert!(notes.is_empty());
        assert_eq!(m.shards, ["1/2", "2/2"]);
        assert_eq!(m.inputs, ["x", "y"]);
        assert_eq!(m.outputs, ["out/x.png", "out/y.png"]);
        assert_eq!(m.failures, ["y: broken"]);
        assert!(merge_reports(vec![a.clone(), a.clone()]).is_err());
        let (_, notes) = merge_reports(vec![a.clone()]).unwrap();
        assert_eq!(notes, ["missing shards: 2/2"]);
        let mut c = b.clone();
        c.command = "check".into();
        assert!(merge_reports(vec![a, c]).is_err());
    }
}
