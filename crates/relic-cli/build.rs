//! Records the commit the binary is built from, for `relic --version` (`RELIC_COMMIT`): `git rev-parse
//! --short HEAD`, or `unknown` where there is no git or no repository (a packaged crate).

use std::path::PathBuf;
use std::process::Command;

/// `git ARGS` in this crate's folder, its output trimmed; `None` when git is missing or fails.
fn git(args: &[&str]) -> Option<String> {
    // Read when the script runs, not baked in when it is compiled: a target folder copied from another
    // checkout would otherwise ask that checkout's git.
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")?;
    let output = Command::new("git").args(args).current_dir(dir).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    (output.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=RELIC_COMMIT={commit}");
    // Built again when HEAD moves: a commit changes the branch's ref (loose or packed), a checkout HEAD.
    // Only files that exist are watched (a missing one would rebuild every time). A worktree keeps HEAD in
    // its own git folder and the refs in the common one.
    let (Some(git_dir), Some(common)) =
        (git(&["rev-parse", "--absolute-git-dir"]), git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]))
    else {
        return;
    };
    let mut watched = vec![PathBuf::from(&git_dir).join("HEAD"), PathBuf::from(&common).join("packed-refs")];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(PathBuf::from(&common).join(branch));
    }
    for path in watched.iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
