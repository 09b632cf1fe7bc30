//! The progress bar: on a terminal only, never with -q.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};
use relic::ops;

/// A progress bar on a terminal; nothing when piped or quiet.
pub struct Bar(ProgressBar);

impl Bar {
    pub fn new(quiet: bool, bytes: bool) -> Self {
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
