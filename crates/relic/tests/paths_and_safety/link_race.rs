//! Files a document names are read without following links, and the file read is the one checked
//! (issue #23): `paths::open_unlinked` refuses a link at the file or at a folder on its way, and a link
//! swapped in while it runs is never followed — a check by name and a later open by name (a TOCTOU race)
//! would read the link's target.

use std::path::Path;

use relic::paths::{open_unlinked, read_unlinked};

const INSIDE: &[u8] = b"inside the document's folder";
const OUTSIDE: &[u8] = b"SECRET outside the folder";

#[test]
fn files_and_missing_names_and_folders() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::write(dir.path().join("sub/x.png"), INSIDE).unwrap();
    assert_eq!(read_unlinked(dir.path(), Path::new("sub/x.png")).unwrap().unwrap(), INSIDE);
    let (_, path) = open_unlinked(dir.path(), Path::new("sub/x.png")).unwrap().unwrap();
    assert_eq!(path, dir.path().join("sub/x.png"));
    // Nothing, a folder, or a file where a folder is named: no file to read.
    for absent in ["nothing.png", "sub", "sub/x.png/y", "none/x.png"] {
        assert!(open_unlinked(dir.path(), Path::new(absent)).unwrap().is_none(), "{absent}");
    }
    assert!(read_unlinked(dir.path(), Path::new("sub")).unwrap().is_none());
    // Only plain relative paths.
    assert!(open_unlinked(dir.path(), Path::new("../x.png")).is_err());
}

#[cfg(unix)]
#[test]
fn a_link_at_the_file_at_a_folder_or_at_the_folder_itself_is_refused() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("x.png"), OUTSIDE).unwrap();
    let doc = dir.path().join("doc");
    std::fs::create_dir(&doc).unwrap();
    symlink(outside.path().join("x.png"), doc.join("x.png")).unwrap();
    symlink(outside.path(), doc.join("sub")).unwrap();
    symlink(outside.path(), dir.path().join("linked")).unwrap();
    for (folder, rel, link) in [
        (doc.clone(), "x.png", doc.join("x.png")),
        (doc.clone(), "sub/x.png", doc.join("sub")),
        (dir.path().join("linked"), "x.png", dir.path().join("linked")),
    ] {
        let e = open_unlinked(&folder, Path::new(rel)).unwrap_err().to_string();
        let want = format!("refusing to read {}: {} is a link", folder.join(rel).display(), link.display());
        assert!(e.contains(&want), "{e}");
    }
    // A link to a missing file is refused too, not taken for a missing file.
    symlink(outside.path().join("gone.png"), doc.join("dangling.png")).unwrap();
    assert!(open_unlinked(&doc, Path::new("dangling.png")).is_err());
}

/// Opens `folder/rel` over and over while `swap` runs in another thread, changing what the name leads to;
/// every file read must be `INSIDE`. Returns (files read, refusals, reads by a check-then-open by name
/// that reached `OUTSIDE`), the last to show the race is there to be lost.
#[cfg(unix)]
fn race(folder: &Path, rel: &str, swap: impl Fn() + Send + 'static) -> (usize, usize, usize) {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                swap();
            }
        })
    };
    let (mut read, mut refused, mut naive_outside) = (0, 0, 0);
    let until = std::time::Instant::now() + std::time::Duration::from_millis(800);
    while std::time::Instant::now() < until {
        match open_unlinked(folder, Path::new(rel)) {
            Ok(Some((mut file, _))) => {
                let mut bytes = Vec::new();
                // The name may have changed since the open: the handle still holds the file opened.
                std::io::Read::read_to_end(&mut file, &mut bytes).unwrap();
                assert_eq!(bytes, INSIDE, "a link swapped in was followed");
                read += 1;
            }
            Ok(None) => {}
            Err(e) => {
                assert!(e.to_string().contains("link"), "{e}");
                refused += 1;
            }
        }
        // What a check by name then a read by name does under the same race.
        let path = folder.join(rel);
        let linked = path.ancestors().take(rel.split('/').count()).any(|p| p.is_symlink());
        if !linked && std::fs::read(&path).is_ok_and(|b| b == OUTSIDE) {
            naive_outside += 1;
        }
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().unwrap();
    (read, refused, naive_outside)
}

/// Replaces `to` by `from` in one step (a rename), so the name is never missing.
#[cfg(unix)]
fn replace(from: &Path, to: &Path) {
    std::fs::rename(from, to).unwrap();
}

#[cfg(unix)]
#[test]
fn a_file_swapped_for_a_link_after_the_check_is_never_read_through_it() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside.png");
    std::fs::write(&outside, OUTSIDE).unwrap();
    let doc = dir.path().join("doc");
    std::fs::create_dir(&doc).unwrap();
    std::fs::write(doc.join("x.png"), INSIDE).unwrap();
    let swap = {
        let doc = doc.clone();
        move || {
            std::os::unix::fs::symlink(&outside, doc.join(".link")).unwrap();
            replace(&doc.join(".link"), &doc.join("x.png"));
            std::fs::write(doc.join(".real"), INSIDE).unwrap();
            replace(&doc.join(".real"), &doc.join("x.png"));
        }
    };
    let (read, refused, naive) = race(&doc, "x.png", swap);
    eprintln!("final component: {read} read, {refused} refused; a check then an open by name read the outside file {naive} times");
    assert!(read + refused > 0);
}

/// A folder on the way swapped for a link to another folder and back: on Linux each component is opened
/// below the one before without following links, so no window is left.
#[cfg(target_os = "linux")]
#[test]
fn a_folder_swapped_for_a_link_after_the_check_is_never_read_through_it() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(outside.join("x.png"), OUTSIDE).unwrap();
    let doc = dir.path().join("doc");
    std::fs::create_dir_all(doc.join("sub")).unwrap();
    std::fs::write(doc.join("sub/x.png"), INSIDE).unwrap();
    std::os::unix::fs::symlink(&outside, doc.join(".link")).unwrap();
    let swap = {
        let doc = doc.clone();
        move || {
            replace(&doc.join("sub"), &doc.join(".real"));
            replace(&doc.join(".link"), &doc.join("sub"));
            replace(&doc.join("sub"), &doc.join(".link"));
            replace(&doc.join(".real"), &doc.join("sub"));
        }
    };
    let (read, refused, naive) = race(&doc, "sub/x.png", swap);
    eprintln!(
        "folder: {read} read, {refused} refused; a check then an open by name read the outside file {naive} times"
    );
}

/// Folder packs list the folder, then read each file: a link in the folder is refused and named, and so is a
/// folder in it that is a link.
#[cfg(unix)]
#[test]
fn folder_pack_refuses_a_link_in_the_folder_and_names_it() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(outside.join("x.bin"), OUTSIDE).unwrap();
    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("a.bin"), INSIDE).unwrap();
    let out = dir.path().join("out.res");
    let opts = relic::ops::PackOptions { force: true, ..Default::default() };
    for (link, target) in [(folder.join("x.bin"), outside.join("x.bin")), (folder.join("sub"), outside.clone())] {
        symlink(&target, &link).unwrap();
        let e = relic::ops::pack("ei-res", &folder, &out, &opts).unwrap_err().to_string();
        assert!(e.contains(&link.display().to_string()) && e.contains("link"), "{e}");
        assert!(!out.exists());
        std::fs::remove_file(&link).unwrap();
    }
    relic::ops::pack("ei-res", &folder, &out, &opts).unwrap();
    assert!(contains(&std::fs::read(&out).unwrap(), INSIDE));
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// A file of the folder swapped for a link to an outside file, and back, while `relic pack` lists and reads
/// the folder over and over: each pack either refuses (naming a link) or holds the inside bytes, never the
/// outside ones. RES stores entries as they are, so the archive's bytes show what was read.
#[cfg(unix)]
#[test]
fn folder_pack_never_reads_a_file_swapped_for_a_link() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside.bin");
    std::fs::write(&outside, OUTSIDE).unwrap();
    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("a.bin"), INSIDE).unwrap();
    std::fs::write(folder.join("x.bin"), INSIDE).unwrap();
    // The swapper's spare names lie beside the folder, so a listing never sees them.
    let spare = dir.path().join("spare");
    std::fs::create_dir(&spare).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (stop, folder) = (Arc::clone(&stop), folder.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                std::os::unix::fs::symlink(&outside, spare.join("link")).unwrap();
                replace(&spare.join("link"), &folder.join("x.bin"));
                std::fs::write(spare.join("real"), INSIDE).unwrap();
                replace(&spare.join("real"), &folder.join("x.bin"));
                // The file stays long enough for a pack to list it, so packs also open it while it changes.
                std::thread::sleep(std::time::Duration::from_micros(300));
            }
        })
    };
    let out = dir.path().join("out.res");
    let opts = relic::ops::PackOptions { force: true, ..Default::default() };
    let (mut packed, mut refused) = (0, 0);
    let until = std::time::Instant::now() + std::time::Duration::from_millis(1500);
    while std::time::Instant::now() < until {
        match relic::ops::pack("ei-res", &folder, &out, &opts) {
            Ok(_) => {
                let bytes = std::fs::read(&out).unwrap();
                assert!(!contains(&bytes, OUTSIDE), "a file swapped for a link was followed");
                assert!(contains(&bytes, INSIDE));
                packed += 1;
            }
            Err(e) => {
                let e = e.to_string();
                assert!(e.contains("link") && e.contains("x.bin"), "{e}");
                refused += 1;
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().unwrap();
    eprintln!("folder pack: {packed} packed, {refused} refused");
    assert!(packed + refused > 0);
}
