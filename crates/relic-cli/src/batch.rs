//! `--files-from`, `--shard` and `--report`: a batch spread over machines.

use std::path::PathBuf;

use relic::ops;

use crate::failure::Failure;

/// Options that spread a batch over machines (`convert`, `extract`, `check`).
#[derive(clap::Args, Debug, Clone)]
pub struct Batch {
    /// Take the inputs from a file, one path per line (`-`: standard input); `#` starts a comment line
    #[arg(long, value_name = "LIST")]
    pub files_from: Option<PathBuf>,
    /// Only the inputs of shard K of N (K from 1), chosen by a hash of each input's path: N copies of the
    /// command with K = 1…N do the whole batch once, without two writing the same file
    #[arg(long, value_name = "K/N")]
    pub shard: Option<ops::Shard>,
    /// Write a summary of this run (inputs, outputs, failures) as JSON; `relic merge-reports` combines them
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
}

impl Batch {
    /// The inputs named on the command line, then those of `--files-from`.
    pub fn inputs(&self, named: Vec<PathBuf>) -> Result<Vec<PathBuf>, Failure> {
        let mut all = named;
        if let Some(list) = &self.files_from {
            all.extend(ops::read_files_from(list)?);
        }
        if all.is_empty() {
            return Err(Failure::Usage("no inputs: name some, or give --files-from".into()));
        }
        Ok(all)
    }

    pub fn write_report(&self, report: ops::Report) -> Result<(), Failure> {
        if let Some(path) = &self.report {
            report.sorted().write(path)?;
        }
        Ok(())
    }
}
