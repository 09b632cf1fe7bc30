//! The front end `relic view` embeds (`crates/relic/src/view/dist/`, committed so that building relic needs
//! no Node) is what `view-web/` builds: `dist/build.json`, written by `view-web/build.mjs`, records the
//! SHA-256 of the sources it was built from and of each built file. This test recomputes both, so that a
//! change to the sources without a rebuild, or a hand edit of a built file, fails.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

const REBUILD: &str = "npm ci --prefix view-web && npm run --prefix view-web build";

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Bytes with CRLF read as LF, as build.mjs reads them (a checkout that converts line ends hashes the same).
fn normalized(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The sources, as build.mjs lists them: four files and everything under src/, sorted.
fn sources(web: &Path) -> Vec<String> {
    let mut list: Vec<String> =
        ["build.mjs", "index.html", "package-lock.json", "package.json"].iter().map(|s| s.to_string()).collect();
    for entry in walkdir::WalkDir::new(web.join("src")) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let rel = entry.path().strip_prefix(web).unwrap();
            list.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    list.sort();
    list
}

#[test]
fn the_embedded_front_end_is_built_from_the_current_sources() {
    let web = manifest().join("../../view-web");
    let dist = manifest().join("src/view/dist");
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dist.join("build.json")).unwrap()).expect("dist/build.json is JSON");

    let mut all = Sha256::new();
    for file in sources(&web) {
        all.update(file.as_bytes());
        all.update([0]);
        all.update(normalized(&web.join(&file)));
        all.update([0]);
    }
    assert_eq!(
        hex(&all.finalize()),
        record["sources"].as_str().unwrap_or_default(),
        "view-web/ changed since crates/relic/src/view/dist/ was built: run `{REBUILD}` and commit dist/"
    );

    let files = record["files"].as_object().expect("build.json lists the built files");
    assert_eq!(files.len(), 3);
    for (name, expected) in files {
        let actual = hex(&Sha256::digest(normalized(&dist.join(name))));
        assert_eq!(&actual, expected, "dist/{name} is not what build.mjs wrote (edited by hand?): run `{REBUILD}`");
    }
}

#[cfg(feature = "view")]
#[test]
fn the_binary_serves_the_built_files() {
    let dist = manifest().join("src/view/dist");
    for file in relic::view::assets::FILES.iter().chain([relic::view::assets::INDEX]) {
        assert_eq!(file.bytes, std::fs::read(dist.join(file.name)).unwrap(), "{}", file.name);
    }
    assert_eq!(relic::view::assets::BUILD_JSON, std::fs::read_to_string(dist.join("build.json")).unwrap());
    // The app loads only what is embedded.
    let index = String::from_utf8(relic::view::assets::INDEX.bytes.to_vec()).unwrap();
    for name in ["/assets/app.js", "/assets/app.css"] {
        assert!(index.contains(name));
        assert!(relic::view::assets::get(name.trim_start_matches("/assets/")).is_some());
    }
}
