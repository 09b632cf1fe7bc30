//! How a run ends: exit 0 (success), 1 (an input failed; the others are still processed) or 2 (usage), and one
//! line on standard error per problem.

use std::process::ExitCode;

/// Why a command stopped: a usage error (exit 2) or a failure (exit 1).
pub enum Failure {
    Usage(String),
    Run(relic::Error),
}

impl From<relic::Error> for Failure {
    fn from(e: relic::Error) -> Self {
        Failure::Run(e)
    }
}

/// Prints failures (one line each) and picks the exit code.
pub fn finish(failures: &[String]) -> ExitCode {
    for f in failures {
        say!("relic: {f}");
    }
    exit_code(failures)
}

/// 0 when nothing failed, else 1.
pub fn exit_code(failures: &[String]) -> ExitCode {
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The exit code of a run that stopped with `failure`, said on one line.
pub fn report(failure: Failure) -> ExitCode {
    match failure {
        Failure::Usage(msg) => {
            say!("relic: {msg}");
            ExitCode::from(2)
        }
        Failure::Run(e) => {
            say!("relic: {e}");
            ExitCode::from(1)
        }
    }
}
